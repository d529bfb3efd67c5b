//! One contact point: from its geometry, the two bodies' twists and its state to the force on B.

use super::friction::{FrictionLaw, TangentialState};
use super::geometry::ContactPoint;
use super::math::{BodyState, Vec3};
use super::normal::NormalLaw;

/// What one contact point carries from step to step (stateful laws only; zero otherwise).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointState {
    /// ElasticCone or Stiction deflection.
    pub tangential: TangentialState,
    /// Restitution: approach speed [m/s] frozen when the point started touching; 0 before.
    pub onset_speed: f64,
}

/// The laws of a block, as one contact point needs them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Laws {
    pub normal: NormalLaw,
    pub friction: FrictionLaw,
    /// Depth [m] beyond which a point counts as passed through; 0 = off.
    pub max_depth: f64,
}

impl Laws {
    pub fn is_stateful(&self) -> bool {
        self.normal.is_stateful() || self.friction.is_stateful()
    }
}

/// The force at one contact point, with what a user wants to see of it. Forces act on B; A gets
/// the opposite at the same point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointForce {
    /// Where the force acts (midway between the witnesses), in W.
    pub point_w: Vec3,
    /// Unit normal from A toward B.
    pub normal_ab_w: Vec3,
    pub separation: f64,
    /// Penetration rate dd = -v_rel · n [m/s].
    pub depth_rate: f64,
    /// f_n >= 0 [N].
    pub normal_force: f64,
    /// Tangential force on B [N].
    pub friction_force_w: Vec3,
    /// Tangential part of v_rel = v_B(C) - v_A(C) [m/s].
    pub slip_velocity_w: Vec3,
    /// Stateful friction: the point is inside its friction cone.
    pub sticking: Option<bool>,
    /// Deeper than `max_depth`: treated as passed through, no force.
    pub passed_through: bool,
}

impl PointForce {
    /// Total force on B at this point: `f_n n + f_t`.
    pub fn force_on_b_w(&self) -> Vec3 {
        self.normal_ab_w * self.normal_force + self.friction_force_w
    }

    pub fn depth(&self) -> f64 {
        (-self.separation).max(0.0)
    }
}

/// Evaluates the normal and friction laws at one contact point in state `state`.
///
/// `v_rel = v_B(C) - v_A(C)` from the input twists at the force point C; penetration rate
/// `dd = -v_rel · n`; slip velocity `v_t = v_rel - (v_rel · n) n`. With `max_depth > 0` a point
/// deeper than it carries no force (the Modelica library's p_max, MapleSim's half-length rule).
pub fn evaluate(contact: &ContactPoint, body_a: &BodyState, body_b: &BodyState, laws: &Laws, state: &PointState) -> PointForce {
    let point_w = contact.point_w();
    let n = contact.normal_ab_w;
    let v_rel = body_b.velocity_at(&point_w) - body_a.velocity_at(&point_w);
    let v_normal = v_rel.dot(&n);
    let slip_velocity_w = v_rel - n * v_normal;
    let depth = contact.depth();
    let passed_through = laws.max_depth > 0.0 && depth > laws.max_depth;
    let normal_force = if passed_through { 0.0 } else { laws.normal.force(depth, -v_normal, state.onset_speed) };
    let mut tangential = state.tangential;
    // The deflection lives in the tangent plane; a turning normal leaves no normal part acting.
    tangential.deflection -= n * tangential.deflection.dot(&n);
    let friction = laws.friction.force(depth, normal_force, &slip_velocity_w, &tangential);
    PointForce {
        point_w,
        normal_ab_w: n,
        separation: contact.separation,
        depth_rate: -v_normal,
        normal_force,
        friction_force_w: friction.force,
        slip_velocity_w,
        sticking: friction.sticking,
        passed_through,
    }
}

/// Advances one point's state over `h` [s] with the inputs held, from its evaluation `at`.
pub fn advance(at: &PointForce, laws: &Laws, state: &mut PointState, h: f64) {
    let n = at.normal_ab_w;
    state.tangential.deflection -= n * state.tangential.deflection.dot(&n);
    laws.friction.advance(at.depth(), at.normal_force, &at.slip_velocity_w, &mut state.tangential, h);
    state.onset_speed = laws.normal.next_onset_speed(at.depth(), at.depth_rate, state.onset_speed);
}
