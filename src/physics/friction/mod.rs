//! Friction laws: the tangential force at one contact point.
//!
//! For the velocity-based laws `f_t = -mu(v) f_n v_t / v` with `v = |v_t|`; each law provides the
//! ratio `mu(v) / v` in a form that stays finite as `v -> 0`, so that no direction is ever divided
//! by zero and `|f_t| = mu(v) f_n` holds everywhere. No law is clipped: each law's doc comment
//! states its largest mu (mu_s for SmoothStickSlip and AdamsCoulomb; Stribeck with a viscous
//! term grows without bound).

mod adams_coulomb;
mod smooth_stick_slip;
mod stribeck;
mod tanh;

pub use adams_coulomb::AdamsCoulomb;
pub use smooth_stick_slip::SmoothStickSlip;
pub use stribeck::Stribeck;
pub use tanh::TanhFriction;

use super::enums::stable_enum;
use super::math::Vec3;

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
    }
}

/// A friction law with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FrictionLaw {
    None,
    SmoothStickSlip(SmoothStickSlip),
    AdamsCoulomb(AdamsCoulomb),
    Tanh(TanhFriction),
    Stribeck(Stribeck),
}

impl FrictionLaw {
    /// Tangential force [N] on B for normal force `normal_force` [N] >= 0 and slip velocity
    /// `slip_velocity` [m/s] (the tangential part of v_rel).
    pub fn force(&self, normal_force: f64, slip_velocity: &Vec3) -> Vec3 {
        if normal_force <= 0.0 {
            return Vec3::zeros();
        }
        let mu_over_speed = match self {
            FrictionLaw::None => return Vec3::zeros(),
            FrictionLaw::SmoothStickSlip(law) => law.mu_over_speed(slip_velocity.norm()),
            FrictionLaw::AdamsCoulomb(law) => law.mu_over_speed(slip_velocity.norm()),
            FrictionLaw::Tanh(law) => law.mu_over_speed(slip_velocity.norm()),
            FrictionLaw::Stribeck(law) => law.mu_over_speed(slip_velocity.norm()),
        };
        slip_velocity * (-normal_force * mu_over_speed)
    }

    pub fn kind(&self) -> FrictionLawKind {
        match self {
            FrictionLaw::None => FrictionLawKind::None,
            FrictionLaw::SmoothStickSlip(_) => FrictionLawKind::SmoothStickSlip,
            FrictionLaw::AdamsCoulomb(_) => FrictionLawKind::AdamsCoulomb,
            FrictionLaw::Tanh(_) => FrictionLawKind::Tanh,
            FrictionLaw::Stribeck(_) => FrictionLawKind::Stribeck,
        }
    }
}
