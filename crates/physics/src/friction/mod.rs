//! Friction laws: the tangential force at one contact point.
//!
//! For the velocity-based laws `f_t = -mu(v) f_n v_t / v` with `v = |v_t|`; each law provides the
//! ratio `mu(v) / v` in a form that stays finite as `v -> 0`, so that no direction is ever divided
//! by zero and `|f_t| = mu(v) f_n` holds everywhere. No law is clipped: each law's doc comment
//! states its largest mu (mu_s for SmoothStickSlip and AdamsCoulomb; Stribeck with a viscous
//! term grows without bound).

//!
//! The stateful laws (ElasticCone, Stiction) keep a [`TangentialState`] per contact point, which
//! [`FrictionLaw::advance`] integrates over a step with the inputs held.

mod adams_coulomb;
mod elastic_cone;
mod smooth_stick_slip;
mod stiction;
mod stribeck;
mod tanh;

pub use adams_coulomb::AdamsCoulomb;
pub use elastic_cone::ElasticCone;
pub use smooth_stick_slip::SmoothStickSlip;
pub use stiction::Stiction;
pub use stribeck::Stribeck;
pub use tanh::TanhFriction;

use super::enums::stable_enum;
use nalgebra::Vector3;

use super::math::Vec3;
use super::real::Real;

stable_enum! {
    /// Friction law (`friction.law`), shared/spec/physics.md "Friction laws".
    pub enum FrictionLawKind {
        /// No friction.
        None = 1,
        /// Rises from 0 to mu_s at the critical velocity, then decays to mu_d (Simscape smooth stick-slip).
        SmoothStickSlip = 2,
        /// Adams COULOMB_FRICTION with stiction and friction transition velocities.
        AdamsCoulomb = 3,
        /// mu tanh(k_mu v) (MapleSim).
        Tanh = 4,
        /// Makkar et al. Stribeck curve from mu_s, mu_k, ve1, ve2, kv (Modelica idealized contact).
        Stribeck = 5,
        /// Elastic tangential deflection limited by the friction cone (spatial_v2 gcontact); stateful.
        ElasticCone = 6,
        /// Tangential spring up to mu_s f_n at the maximum deformation, then slip at mu_d (Adams STICTION); stateful.
        Stiction = 7,
        /// The user's law: per point slot, the input provided.friction_force of that slot (contact.point i), two components along its tangent1_0 and tangent2_0, applied while the point carries a normal force (Simscape Provided by Input, Adams CFFSUB).
        ProvidedByInput = 8,
    }
}

/// The tangential state of one contact point under a stateful law.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TangentialState {
    /// ElasticCone: the ground's tangential deflection u; Stiction: the spring deflection s \[m\],
    /// resolved in W.
    pub deflection: Vec3,
    /// Stiction: the point has broken away and slides.
    pub slipping: bool,
}

/// The tangential force at one point, and whether a stateful law holds the point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TangentialForce<S: Real = f64> {
    /// Force on B \[N\].
    pub force: Vector3<S>,
    /// Stateful laws: the point is inside its friction cone. Velocity-based laws: `None`.
    pub sticking: Option<bool>,
}

/// A friction law with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FrictionLaw {
    None,
    SmoothStickSlip(SmoothStickSlip),
    AdamsCoulomb(AdamsCoulomb),
    Tanh(TanhFriction),
    Stribeck(Stribeck),
    ElasticCone(ElasticCone),
    Stiction(Stiction),
    /// The friction of each point slot comes from its input (`physics::provided`); the block
    /// evaluates such points with [`crate::provided::Given`], never through
    /// [`FrictionLaw::force_over`], which answers no force for it (no input, no force).
    ProvidedByInput,
}

impl FrictionLaw {
    /// Tangential force on B at penetration `depth` \[m\], normal force `normal_force` \[N\] >= 0,
    /// slip velocity `slip_velocity` [m/s] (the tangential part of v_rel) and the point's state.
    #[inline]
    pub fn force(&self, depth: f64, normal_force: f64, slip_velocity: &Vec3, state: &TangentialState) -> TangentialForce {
        self.force_over(depth, normal_force, slip_velocity, &state.deflection, state)
    }

    /// [`FrictionLaw::force`] over any [`Real`]: `deflection` is the state's deflection as it
    /// acts (its part in the current tangent plane, which moves with the normal), and
    /// `state.slipping` is read from `state`.
    #[inline(always)]
    pub fn force_over<S: Real>(
        &self,
        depth: S,
        normal_force: S,
        slip_velocity: &Vector3<S>,
        deflection: &Vector3<S>,
        state: &TangentialState,
    ) -> TangentialForce<S> {
        let mu_over_speed = match self {
            // Without a normal force the velocity-based laws carry nothing: no mu(v) to compute.
            FrictionLaw::None
            | FrictionLaw::SmoothStickSlip(_)
            | FrictionLaw::AdamsCoulomb(_)
            | FrictionLaw::Tanh(_)
            | FrictionLaw::Stribeck(_)
                if normal_force.v() <= 0.0 =>
            {
                return TangentialForce { force: Vector3::zeros(), sticking: None };
            }
            FrictionLaw::None
            | FrictionLaw::SmoothStickSlip(_)
            | FrictionLaw::AdamsCoulomb(_)
            | FrictionLaw::Tanh(_)
            | FrictionLaw::Stribeck(_) => self.mu_over_speed(S::norm(slip_velocity)).unwrap_or(S::c(0.0)),
            FrictionLaw::ProvidedByInput => {
                debug_assert!(false, "a provided friction force is read from its input (physics::provided), never from the law");
                return TangentialForce { force: Vector3::zeros(), sticking: None };
            }
            FrictionLaw::ElasticCone(law) => {
                let cone = law.evaluate(depth, normal_force, slip_velocity, deflection);
                return TangentialForce { force: cone.force, sticking: Some(cone.sticking) };
            }
            FrictionLaw::Stiction(law) => {
                // A slipping point whose slip no longer stretches its spring sticks again (the
                // next step makes it so); report it as sticking already.
                let holding = normal_force.v() > 0.0 && (!state.slipping || slip_velocity.dot(deflection).v() <= 0.0);
                return TangentialForce { force: law.force(normal_force, deflection), sticking: Some(holding) };
            }
        };
        let force = if normal_force.v() > 0.0 { slip_velocity * -(normal_force * mu_over_speed) } else { Vector3::zeros() };
        TangentialForce { force, sticking: None }
    }

    /// Advances a stateful law's point state over `h` \[s\] with depth, normal force and slip
    /// velocity held; the velocity-based laws have no state.
    pub fn advance(&self, depth: f64, normal_force: f64, slip_velocity: &Vec3, state: &mut TangentialState, h: f64) {
        match self {
            FrictionLaw::ElasticCone(law) => law.advance(depth, normal_force, slip_velocity, &mut state.deflection, h),
            FrictionLaw::Stiction(law) => law.advance(normal_force, slip_velocity, state, h),
            _ => {}
        }
    }

    /// `mu(v) / v` [s/m] of the velocity-based laws, finite at v = 0; `None` for the stateful
    /// laws, which have no mu(v) curve.
    #[inline(always)]
    pub fn mu_over_speed<S: Real>(&self, speed: S) -> Option<S> {
        match self {
            FrictionLaw::None => Some(S::c(0.0)),
            FrictionLaw::SmoothStickSlip(law) => Some(law.mu_over_speed(speed)),
            FrictionLaw::AdamsCoulomb(law) => Some(law.mu_over_speed(speed)),
            FrictionLaw::Tanh(law) => Some(law.mu_over_speed(speed)),
            FrictionLaw::Stribeck(law) => Some(law.mu_over_speed(speed)),
            FrictionLaw::ElasticCone(_) | FrictionLaw::Stiction(_) | FrictionLaw::ProvidedByInput => None,
        }
    }

    /// [`FrictionLaw::mu_over_speed`] at many speeds (`out[i]` at `speed[i]`), the law chosen
    /// once for the batch, each number the one `mu_over_speed` gives it; `false` (and `out`
    /// untouched) for the stateful laws.
    pub fn mu_over_speeds(&self, speed: &[f64], out: &mut [f64]) -> bool {
        #[inline(always)]
        fn each(speed: &[f64], out: &mut [f64], law: impl Fn(f64) -> f64) -> bool {
            for (out, &v) in out.iter_mut().zip(speed) {
                *out = law(v);
            }
            true
        }
        match self {
            FrictionLaw::None => each(speed, out, |_| 0.0),
            FrictionLaw::SmoothStickSlip(law) => each(speed, out, |v| law.mu_over_speed(v)),
            FrictionLaw::AdamsCoulomb(law) => each(speed, out, |v| law.mu_over_speed(v)),
            FrictionLaw::Tanh(law) => each(speed, out, |v| law.mu_over_speed(v)),
            FrictionLaw::Stribeck(law) => each(speed, out, |v| law.mu_over_speed(v)),
            FrictionLaw::ElasticCone(_) | FrictionLaw::Stiction(_) | FrictionLaw::ProvidedByInput => false,
        }
    }

    /// True for the laws that keep a state per contact point.
    pub fn is_stateful(&self) -> bool {
        matches!(self, FrictionLaw::ElasticCone(_) | FrictionLaw::Stiction(_))
    }

    pub fn kind(&self) -> FrictionLawKind {
        match self {
            FrictionLaw::None => FrictionLawKind::None,
            FrictionLaw::SmoothStickSlip(_) => FrictionLawKind::SmoothStickSlip,
            FrictionLaw::AdamsCoulomb(_) => FrictionLawKind::AdamsCoulomb,
            FrictionLaw::Tanh(_) => FrictionLawKind::Tanh,
            FrictionLaw::Stribeck(_) => FrictionLawKind::Stribeck,
            FrictionLaw::ElasticCone(_) => FrictionLawKind::ElasticCone,
            FrictionLaw::Stiction(_) => FrictionLawKind::Stiction,
            FrictionLaw::ProvidedByInput => FrictionLawKind::ProvidedByInput,
        }
    }
}
