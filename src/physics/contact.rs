//! One contact point: from its geometry and the two bodies' twists to the force on B.

use super::friction::FrictionLaw;
use super::geometry::ContactPoint;
use super::math::{BodyState, Vec3};
use super::normal::NormalLaw;

/// The force at one contact point, with what a user wants to see of it. Forces act on B; A gets
/// the opposite at the same point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointForce {
    /// Where the force acts (midway between the witnesses), in W.
    pub point_w: Vec3,
    /// Unit normal from A toward B.
    pub normal_ab_w: Vec3,
    pub separation: f64,
    /// f_n >= 0 [N].
    pub normal_force: f64,
    /// Tangential force on B [N].
    pub friction_force_w: Vec3,
    /// Tangential part of v_rel = v_B(C) - v_A(C) [m/s].
    pub slip_velocity_w: Vec3,
    /// Deeper than `max_depth`: treated as passed through, no force.
    pub passed_through: bool,
}

impl PointForce {
    /// Total force on B at this point: `f_n n + f_t`.
    pub fn force_on_b_w(&self) -> Vec3 {
        self.normal_ab_w * self.normal_force + self.friction_force_w
    }
}

/// Evaluates the normal and friction laws at one contact point.
///
/// `v_rel = v_B(C) - v_A(C)` from the input twists at the force point C; penetration rate
/// `dd = -v_rel · n`; slip velocity `v_t = v_rel - (v_rel · n) n`. With `max_depth > 0` a point
/// deeper than it carries no force (the Modelica library's p_max, MapleSim's half-length rule).
pub fn evaluate(
    contact: &ContactPoint,
    body_a: &BodyState,
    body_b: &BodyState,
    normal_law: &NormalLaw,
    friction_law: &FrictionLaw,
    max_depth: f64,
) -> PointForce {
    let point_w = contact.point_w();
    let n = contact.normal_ab_w;
    let v_rel = body_b.velocity_at(&point_w) - body_a.velocity_at(&point_w);
    let v_normal = v_rel.dot(&n);
    let slip_velocity_w = v_rel - n * v_normal;
    let depth = contact.depth();
    let passed_through = max_depth > 0.0 && depth > max_depth;
    let normal_force = if passed_through { 0.0 } else { normal_law.force(depth, -v_normal) };
    let friction_force_w = friction_law.force(normal_force, &slip_velocity_w);
    PointForce {
        point_w,
        normal_ab_w: n,
        separation: contact.separation,
        normal_force,
        friction_force_w,
        slip_velocity_w,
        passed_through,
    }
}
