//! The instantaneous evaluation against closed forms: the linear spring-damper between a sphere
//! and a plane and between two spheres, the wrenches about the frame origins, the collision
//! filter, and the errors that name the body, the key and the value.

mod common;

use contact_physics::math::{BodyState, Pose, Rotation, Vec3};
use contact_physics::shape::ShapeKind;
use common::{linear, sphere};
use contact_scene::{BodyDescription, Scene, SceneOutputs, Workspace};

fn state(r: [f64; 3], v: [f64; 3]) -> BodyState {
    BodyState { pose: Pose { r: Vec3::from(r), q: Rotation::identity() }, v: Vec3::from(v), w: Vec3::zeros() }
}

fn evaluate(scene: &Scene, states: &[BodyState]) -> SceneOutputs {
    let mut out = SceneOutputs::default();
    scene.evaluate(states, &mut Workspace::default(), &mut out);
    out
}

/// A sphere 1 mm into a plane, closing at 0.1 m/s: f = k d + c v on the sphere, the opposite on
/// the plane, whose torque about its origin is that of the force at the contact point.
#[test]
fn sphere_on_plane_is_the_linear_law() {
    let (k, c) = (1e6, 1e3);
    let mut d = linear(k, c);
    d.bodies = vec![BodyDescription::new(ShapeKind::Plane), sphere(0.1, 1.0)];
    let scene = Scene::new(&d, None).unwrap();
    let x = 0.3;
    let out = evaluate(&scene, &[state([0.0; 3], [0.0; 3]), state([x, 0.0, 0.099], [0.0, 0.0, -0.1])]);
    let f = k * 1e-3 + c * 0.1;
    assert!((out.bodies[1].f_0 - Vec3::new(0.0, 0.0, f)).norm() < 1e-9 * f, "{}", out.bodies[1].f_0);
    assert!((out.bodies[0].f_0 + out.bodies[1].f_0).norm() == 0.0);
    // The force acts on the line x = 0.3 through the contact: about the plane's origin the torque
    // is x e_x × (-f e_z) = x f e_y; about the sphere's centre it is zero.
    assert!((out.bodies[0].t_0 - Vec3::new(0.0, x * f, 0.0)).norm() < 1e-9 * f, "{}", out.bodies[0].t_0);
    assert!(out.bodies[1].t_0.norm() < 1e-9 * f);
    assert_eq!((out.bodies[0].touching, out.bodies[1].touching, out.active_contacts), (1, 1, 1));
    assert!((out.max_penetration - 1e-3).abs() < 1e-12);
    assert!((out.bodies[1].max_normal_force - f).abs() < 1e-9 * f);
}

/// Three spheres in a row, the middle one touching both: each pair's force along the line of
/// centres, the middle one pushed by two bodies.
#[test]
fn spheres_in_a_row_sum_their_contacts() {
    let k = 2e5;
    let mut d = linear(k, 0.0);
    d.bodies = vec![sphere(0.1, 1.0), sphere(0.1, 1.0), sphere(0.1, 1.0)];
    let scene = Scene::new(&d, None).unwrap();
    let out = evaluate(&scene, &[state([0.0, 0.0, 0.0], [0.0; 3]), state([0.198, 0.0, 0.0], [0.0; 3]), state([0.395, 0.0, 0.0], [0.0; 3])]);
    let (f01, f12) = (k * 0.002, k * 0.003);
    assert!((out.bodies[0].f_0.x + f01).abs() < 1e-6);
    assert!((out.bodies[1].f_0.x - (f01 - f12)).abs() < 1e-6);
    assert!((out.bodies[2].f_0.x - f12).abs() < 1e-6);
    assert_eq!(out.bodies.iter().map(|b| b.touching).collect::<Vec<_>>(), vec![1, 2, 1]);
    assert_eq!(out.active_contacts, 2);
    assert!((out.bodies[1].max_normal_force - f12).abs() < 1e-6);
    assert!((out.max_penetration - 0.003).abs() < 1e-12);
}

/// Group and mask: bodies whose groups miss each other's masks pass through each other.
#[test]
fn group_and_mask_filter_the_pairs() {
    let mut d = linear(1e5, 0.0);
    let (mut a, mut b) = (sphere(0.1, 1.0), sphere(0.1, 1.0));
    a.filter = [0b01, 0b01];
    b.filter = [0b10, u32::MAX];
    d.bodies = vec![a, b];
    let scene = Scene::new(&d, None).unwrap();
    assert!(!scene.has_pair(0, 1));
    let out = evaluate(&scene, &[state([0.0; 3], [0.0; 3]), state([0.1, 0.0, 0.0], [0.0; 3])]);
    assert_eq!(out.bodies[1].f_0, Vec3::zeros());
    assert_eq!(out.active_contacts, 0);
}

/// A material pair's parameters replace the scene's between those materials only.
#[test]
fn material_pairs_give_their_parameters() {
    let mut d = linear(1e5, 0.0);
    d.materials.push(contact_scene::Material { name: "soft".to_string() });
    let mut pair = contact_scene::MaterialPairLaws { materials: [1, 0], normal: d.normal.clone(), friction: d.friction.clone() };
    pair.normal.stiffness = 1e3;
    d.pairs.push(pair);
    let mut soft = sphere(0.1, 1.0);
    soft.material = 1;
    d.bodies = vec![BodyDescription::new(ShapeKind::Plane), soft, sphere(0.1, 1.0)];
    let scene = Scene::new(&d, None).unwrap();
    let out = evaluate(&scene, &[state([0.0; 3], [0.0; 3]), state([0.0, 0.0, 0.09], [0.0; 3]), state([1.0, 0.0, 0.09], [0.0; 3])]);
    assert!((out.bodies[1].f_0.z - 1e3 * 0.01).abs() < 1e-9);
    assert!((out.bodies[2].f_0.z - 1e5 * 0.01).abs() < 1e-6);
}

/// Errors name the body (1-based), the key and the value.
#[test]
fn errors_name_the_body_the_key_and_the_value() {
    let mut d = linear(1e5, 0.0);
    d.bodies = vec![BodyDescription::new(ShapeKind::Plane), sphere(-1.0, 1.0)];
    assert_eq!(Scene::new(&d, None).unwrap_err().to_string(), "body[2].radius = -1: a Sphere needs radius > 0");
    d.bodies = vec![BodyDescription::new(ShapeKind::Plane), sphere(0.1, -2.0)];
    assert_eq!(Scene::new(&d, None).unwrap_err().to_string(), "body[2].mass = -2: must be >= 0 (0 = immovable)");
    let mut b = sphere(0.1, 1.0);
    b.material = 3;
    d.bodies = vec![b];
    assert_eq!(Scene::new(&d, None).unwrap_err().to_string(), "body[1].material = 3: there are 1 materials (0 to 0)");
    let mut b = sphere(0.1, 1.0);
    b.body.inertia = [1.0, 1.0, 3.0, 0.0, 0.0, 0.0];
    d.bodies = vec![b];
    assert!(Scene::new(&d, None).unwrap_err().to_string().starts_with("body[1].inertia = [1.0, 1.0, 3.0, 0.0, 0.0, 0.0]: is not the inertia"));
    // Two planes with a movable one: a pair the table does not have.
    let mut moving_plane = BodyDescription::new(ShapeKind::Plane);
    moving_plane.body.mass = 1.0;
    d.bodies = vec![BodyDescription::new(ShapeKind::Plane), moving_plane];
    assert!(Scene::new(&d, None).unwrap_err().to_string().starts_with("body[1].shape, body[2].shape = Plane, Plane"));
}

/// A capsule and a cylinder lying on a plane, each sunk by d along its whole length: the pair's
/// two end points carry k d each (2 k d in all, no torque about the body's centre), and the
/// sphere above the capsule pushes it down by its own k d'.
#[test]
fn capsules_and_cylinders_lie_on_a_plane() {
    let k = 1e5;
    let mut d = linear(k, 0.0);
    let lying = Rotation::from_axis_angle(&Vec3::x_axis(), std::f64::consts::FRAC_PI_2);
    let mut capsule = BodyDescription::new(ShapeKind::Capsule);
    capsule.geometry.radius = 0.05;
    capsule.geometry.length = 0.4;
    capsule.body.mass = 1.0;
    let mut cylinder = BodyDescription::new(ShapeKind::Cylinder);
    cylinder.geometry.radius = 0.05;
    cylinder.geometry.length = 0.4;
    cylinder.body.mass = 1.0;
    d.bodies = vec![BodyDescription::new(ShapeKind::Plane), capsule, cylinder, sphere(0.05, 1.0)];
    let scene = Scene::new(&d, None).unwrap();
    let lie = |x: f64, z: f64| BodyState { pose: Pose { r: Vec3::new(x, 0.0, z), q: lying }, v: Vec3::zeros(), w: Vec3::zeros() };
    let depth = 1e-3;
    let out = evaluate(&scene, &[state([0.0; 3], [0.0; 3]), lie(0.0, 0.05 - depth), lie(1.0, 0.05 - depth), state([0.0, 0.0, 0.148], [0.0; 3])]);
    // The sphere 1 mm into the capsule's top.
    let on_top = k * 1e-3;
    for (body, expected) in [(1, 2.0 * k * depth - on_top), (2, 2.0 * k * depth)] {
        let o = &out.bodies[body];
        assert!((o.f_0 - Vec3::new(0.0, 0.0, expected)).norm() < 1e-6 * k * depth, "body {body}: {}", o.f_0);
        assert!(o.t_0.norm() < 1e-9 * k, "body {body}: {}", o.t_0);
    }
    assert_eq!(out.bodies[1].touching, 2);
    assert!((out.bodies[3].f_0.z - on_top).abs() < 1e-9 * k);
    assert_eq!(out.active_contacts, 5);
}
