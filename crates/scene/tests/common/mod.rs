//! What the scene's tests share: scenes under the linear spring-damper without friction.

#![allow(dead_code)]

use contact_physics::friction::FrictionLawKind;
use contact_physics::normal::NormalLawKind;
use contact_physics::shape::ShapeKind;
use contact_scene::{BodyDescription, SceneDescription};

/// A scene of no bodies yet under the linear spring-damper (`k` N/m, `c` N.s/m), no friction.
pub fn linear(k: f64, c: f64) -> SceneDescription {
    let mut d = SceneDescription::default();
    d.normal.law = NormalLawKind::LinearSpringDamper.value();
    d.normal.stiffness = k;
    d.normal.damping = c;
    d.friction.law = FrictionLawKind::None.value();
    d
}

/// A sphere of `radius` (m) and `mass` (kg), a point mass.
pub fn sphere(radius: f64, mass: f64) -> BodyDescription {
    let mut b = BodyDescription::new(ShapeKind::Sphere);
    b.geometry.radius = radius;
    b.body.mass = mass;
    b
}
