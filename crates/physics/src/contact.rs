//! One contact point: from its geometry, the two bodies' twists and its state to the force on B.

use super::friction::{FrictionLaw, TangentialForce, TangentialState};
use super::provided::{self, Given};
use super::geometry::ContactPoint;
use nalgebra::Vector3;

use super::math::{BodyState, Vec3};
use super::real::Real;
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
    /// Depth \[m\] beyond which a point counts as passed through; 0 = off.
    pub max_depth: f64,
    /// Spin friction torque radius R \[m\]; 0 = off. Needs a velocity-based friction law.
    pub torque_radius: f64,
    /// Rolling resistance coefficient mu_r; 0 = off.
    pub rolling: f64,
    /// Radius \[m\] of the rolling resistance torque (the pair's effective radius of curvature).
    pub rolling_radius: f64,
    /// Angular speed [rad/s] below which the rolling resistance fades out linearly (tanh).
    pub rolling_speed: f64,
}

impl Laws {
    pub fn is_stateful(&self) -> bool {
        self.normal.is_stateful() || self.friction.is_stateful()
    }

    /// True when the normal or the friction law is ProvidedByInput (physics/provided.rs).
    pub fn is_provided(&self) -> bool {
        self.normal == NormalLaw::ProvidedByInput || self.friction == FrictionLaw::ProvidedByInput
    }
}

/// The force at one contact point, with what a user wants to see of it. Forces act on B; A gets
/// the opposite at the same point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointForce<S: Real = f64> {
    /// Where the force acts (midway between the witnesses), in W.
    pub point_w: Vector3<S>,
    /// Unit normal from A toward B.
    pub normal_ab_w: Vector3<S>,
    pub separation: S,
    /// Penetration rate dd = -v_rel · n [m/s].
    pub depth_rate: S,
    /// f_n >= 0 \[N\], weighted.
    pub normal_force: S,
    /// f_n of the law before the point's weight: what the stateful laws integrate with.
    pub law_normal_force: S,
    /// Tangential force on B \[N\].
    pub friction_force_w: Vector3<S>,
    /// Spin friction and rolling resistance: a couple on B [N.m] (A gets the opposite).
    pub couple_w: Vector3<S>,
    /// Tangential part of v_rel = v_B(C) - v_A(C) [m/s].
    pub slip_velocity_w: Vector3<S>,
    /// Stateful friction: the point is inside its friction cone.
    pub sticking: Option<bool>,
    /// Deeper than `max_depth`: treated as passed through, no force.
    pub passed_through: bool,
}

impl<S: Real> PointForce<S> {
    /// Total force on B at this point: `f_n n + f_t`.
    pub fn force_on_b_w(&self) -> Vector3<S> {
        self.normal_ab_w * self.normal_force + self.friction_force_w
    }

    pub fn depth(&self) -> S {
        (-self.separation).max(S::c(0.0))
    }
}

/// A body's motion as one contact point needs it: the position of its frame origin and its
/// twist, in W, over any [`Real`] (the inputs' duals for the derivatives).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion<S: Real = f64> {
    pub r: Vector3<S>,
    pub v: Vector3<S>,
    pub w: Vector3<S>,
}

/// What [`point_force`] reads of a body: [`Motion`] over any [`Real`], or a [`BodyState`]
/// itself (read in place, nothing copied per point).
pub trait BodyMotion<S: Real> {
    /// The frame origin, in W.
    fn origin(&self) -> &Vector3<S>;
    /// The angular velocity, in W.
    fn angular(&self) -> &Vector3<S>;
    /// Velocity of the body's material point at `p` (in W): `v + w × (p - r)`.
    fn velocity_at(&self, p: &Vector3<S>) -> Vector3<S>;
}

impl<S: Real> BodyMotion<S> for Motion<S> {
    #[inline(always)]
    fn origin(&self) -> &Vector3<S> {
        &self.r
    }
    #[inline(always)]
    fn angular(&self) -> &Vector3<S> {
        &self.w
    }
    #[inline(always)]
    fn velocity_at(&self, p: &Vector3<S>) -> Vector3<S> {
        self.v + self.w.cross(&(p - self.r))
    }
}

impl BodyMotion<f64> for BodyState {
    #[inline(always)]
    fn origin(&self) -> &Vec3 {
        &self.pose.r
    }
    #[inline(always)]
    fn angular(&self) -> &Vec3 {
        &self.w
    }
    #[inline(always)]
    fn velocity_at(&self, p: &Vec3) -> Vec3 {
        BodyState::velocity_at(self, p)
    }
}

/// Evaluates the normal and friction laws at one contact point in state `state`.
///
/// `v_rel = v_B(C) - v_A(C)` from the input twists at the force point C; penetration rate
/// `dd = -v_rel · n`; slip velocity `v_t = v_rel - (v_rel · n) n`. With `max_depth > 0` a point
/// deeper than it carries no force (the Modelica library's p_max, MapleSim's half-length rule).
#[inline]
pub fn evaluate(contact: &ContactPoint, body_a: &BodyState, body_b: &BodyState, laws: &Laws, state: &PointState) -> PointForce {
    point_force(contact, body_a, body_b, laws, state)
}

/// [`evaluate`] over any [`Real`]: with duals, the force's derivatives with the state held.
#[inline(always)]
pub fn point_force<S: Real, M: BodyMotion<S>>(contact: &ContactPoint<S>, body_a: &M, body_b: &M, laws: &Laws, state: &PointState) -> PointForce<S> {
    point_force_deflected(contact, body_a, body_b, laws, state, S::vc(&state.tangential.deflection))
}

/// [`point_force`] with the state's deflection given over any [`Real`] (its tangent is the
/// deflection's own rate when the outputs' time derivatives are wanted).
#[inline]
pub fn point_force_deflected<S: Real, M: BodyMotion<S>>(
    contact: &ContactPoint<S>,
    body_a: &M,
    body_b: &M,
    laws: &Laws,
    state: &PointState,
    deflection: Vector3<S>,
) -> PointForce<S> {
    point_force_given(contact, body_a, body_b, laws, state, deflection, None)
}

/// [`point_force_deflected`] with the forces a user's law gives at this point (`given`) where
/// `laws` say ProvidedByInput (physics/provided.rs): the normal force `max(0, given)` while the
/// point penetrates, the friction along the point's tangents while it carries a normal force. A
/// built-in law ignores `given`; without `given` (`None`: the built-in laws' path, where the
/// compiler drops this choice) a provided law carries nothing.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn point_force_given<S: Real, M: BodyMotion<S>>(
    contact: &ContactPoint<S>,
    body_a: &M,
    body_b: &M,
    laws: &Laws,
    state: &PointState,
    deflection: Vector3<S>,
    given: Option<&Given<S>>,
) -> PointForce<S> {
    let point_w = contact.point_w();
    let n = contact.normal_ab_w;
    let v_rel = body_b.velocity_at(&point_w) - body_a.velocity_at(&point_w);
    let v_normal = v_rel.dot(&n);
    let slip_velocity_w = v_rel - n * v_normal;
    let depth = contact.depth();
    let passed_through = laws.max_depth > 0.0 && depth.v() > laws.max_depth;
    let normal_force = match (given, &laws.normal) {
        _ if passed_through => S::c(0.0),
        (Some(given), NormalLaw::ProvidedByInput) => provided::normal_force(depth, given.normal_force),
        _ => laws.normal.force(depth, -v_normal, state.onset_speed),
    };
    // The deflection lives in the tangent plane; a turning normal leaves no normal part acting.
    let mut deflection = deflection;
    deflection -= n * deflection.dot(&n);
    let friction = match (given, &laws.friction) {
        (Some(given), FrictionLaw::ProvidedByInput) => {
            let (t1, t2) = provided::tangent_basis(&n);
            TangentialForce { force: provided::friction_force(normal_force, &t1, &t2, &given.friction_force), sticking: None }
        }
        _ => laws.friction.force_over(depth, normal_force, &slip_velocity_w, &deflection, &state.tangential),
    };
    let couple_w = if normal_force.v() > 0.0 && (laws.torque_radius > 0.0 || laws.rolling > 0.0) {
        couples(laws, normal_force, &n, &(body_b.angular() - body_a.angular()))
    } else {
        Vector3::zeros()
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

/// [`evaluate`] with the forces a user's law gives at this point (see [`point_force_given`]).
#[inline]
pub fn evaluate_given(contact: &ContactPoint, body_a: &BodyState, body_b: &BodyState, laws: &Laws, state: &PointState, given: &Given) -> PointForce {
    point_force_given(contact, body_a, body_b, laws, state, state.tangential.deflection, Some(given))
}

/// The rate of a point's deflection state at its evaluation `at` with the inputs held, as
/// [`advance`] integrates it: ElasticCone's `du/dt` (sticking, slipping or relaxing), Stiction's
/// `ds/dt = v_t` while it sticks; zero where the state is held (a slipping Stiction point, whose
/// deflection is reset along the slip at each sub-step, and the velocity-based laws).
pub fn deflection_rate(at: &PointForce, laws: &Laws, state: &PointState) -> Vec3 {
    let n = at.normal_ab_w;
    let mut u = state.tangential.deflection;
    u -= n * u.dot(&n);
    match laws.friction {
        FrictionLaw::ElasticCone(law) => law.evaluate(at.depth(), at.law_normal_force, &at.slip_velocity_w, &u).deflection_rate,
        FrictionLaw::Stiction(_) if at.law_normal_force > 0.0 && !state.tangential.slipping => at.slip_velocity_w,
        _ => Vec3::zeros(),
    }
}

/// Advances one point's state over `h` \[s\] with the inputs held, from its evaluation `at`.
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
fn couples<S: Real>(laws: &Laws, normal_force: S, n: &Vector3<S>, w_rel: &Vector3<S>) -> Vector3<S> {
    let mut couple = Vector3::zeros();
    let w_n = w_rel.dot(n);
    if laws.torque_radius > 0.0 {
        let r = laws.torque_radius;
        let mu_over_speed = laws.friction.mu_over_speed(w_n.abs() * r / 2.0).unwrap_or(S::c(0.0));
        couple -= n * (normal_force * r * r * mu_over_speed * w_n / 3.0);
    }
    if laws.rolling > 0.0 {
        let w_t = w_rel - n * w_n;
        let speed = S::norm(&w_t);
        let x = speed / laws.rolling_speed;
        // tanh(x) / speed, continued by 1 / rolling_speed at rest.
        let factor = if x.v() < 1e-4 { (-(x * x / 3.0) + 1.0) / laws.rolling_speed } else { x.tanh() / speed };
        couple -= w_t * (normal_force * (laws.rolling * laws.rolling_radius) * factor);
    }
    couple
}
