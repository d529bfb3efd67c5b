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
    /// Spin friction torque radius R [m]; 0 = off. Needs a velocity-based friction law.
    pub torque_radius: f64,
    /// Rolling resistance coefficient mu_r; 0 = off.
    pub rolling: f64,
    /// Radius [m] of the rolling resistance torque (the pair's effective radius of curvature).
    pub rolling_radius: f64,
    /// Angular speed [rad/s] below which the rolling resistance fades out linearly (tanh).
    pub rolling_speed: f64,
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
    /// f_n >= 0 [N], weighted.
    pub normal_force: f64,
    /// f_n of the law before the point's weight: what the stateful laws integrate with.
    pub law_normal_force: f64,
    /// Tangential force on B [N].
    pub friction_force_w: Vec3,
    /// Spin friction and rolling resistance: a couple on B [N.m] (A gets the opposite).
    pub couple_w: Vec3,
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
#[inline]
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
    let couple_w = if normal_force > 0.0 && (laws.torque_radius > 0.0 || laws.rolling > 0.0) {
        couples(laws, normal_force, &n, &(body_b.w - body_a.w))
    } else {
        Vec3::zeros()
    };
    // A partly covered point carries its share of the laws' forces; the laws see the point whole.
    let w = contact.weight;
    PointForce {
        point_w,
        normal_ab_w: n,
        separation: contact.separation,
        depth_rate: -v_normal,
        normal_force: w * normal_force,
        law_normal_force: normal_force,
        friction_force_w: friction.force * w,
        couple_w: couple_w * w,
        slip_velocity_w,
        sticking: friction.sticking,
        passed_through,
    }
}

/// Advances one point's state over `h` [s] with the inputs held, from its evaluation `at`.
pub fn advance(at: &PointForce, laws: &Laws, state: &mut PointState, h: f64) {
    let n = at.normal_ab_w;
    state.tangential.deflection -= n * state.tangential.deflection.dot(&n);
    laws.friction.advance(at.depth(), at.law_normal_force, &at.slip_velocity_w, &mut state.tangential, h);
    state.onset_speed = laws.normal.next_onset_speed(at.depth(), at.depth_rate, state.onset_speed);
}

/// Spin friction torque and rolling resistance on B for relative angular velocity `w_rel`.
///
/// Spin (Adams friction torque): with R = `torque_radius` and `w_n = w_rel · n`,
/// `T = -(2/3) mu(|w_n| R / 2) f_n R sign(w_n) n`, written as
/// `-(1/3) f_n R^2 (mu(v) / v) w_n n` with `v = |w_n| R / 2`, which is finite and continuous at
/// `w_n = 0` because every velocity-based law has a finite `mu(v) / v` there.
/// Rolling resistance (Modelica idealized contact, Modia3D): with `w_t` the tangential part of
/// `w_rel` and R the rolling radius, `T = -mu_r R f_n tanh(|w_t| / w_s) w_t / |w_t|`; the tanh
/// over the speed `w_s` (`friction.v_stiction / R`) regularises the direction at rest.
fn couples(laws: &Laws, normal_force: f64, n: &Vec3, w_rel: &Vec3) -> Vec3 {
    let mut couple = Vec3::zeros();
    let w_n = w_rel.dot(n);
    if laws.torque_radius > 0.0 {
        let r = laws.torque_radius;
        let mu_over_speed = laws.friction.mu_over_speed(w_n.abs() * r / 2.0).unwrap_or(0.0);
        couple -= n * (normal_force * r * r * mu_over_speed * w_n / 3.0);
    }
    if laws.rolling > 0.0 {
        let w_t = w_rel - n * w_n;
        let speed = w_t.norm();
        let x = speed / laws.rolling_speed;
        // tanh(x) / speed, continued by 1 / rolling_speed at rest.
        let factor = if x < 1e-4 { (1.0 - x * x / 3.0) / laws.rolling_speed } else { x.tanh() / speed };
        couple -= w_t * (laws.rolling * laws.rolling_radius * normal_force * factor);
    }
    couple
}
