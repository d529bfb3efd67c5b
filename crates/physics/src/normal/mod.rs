//! Normal force laws: `f_n(depth, depth_rate) >= 0` for one contact point.
//!
//! `depth = max(0, -separation)` \[m\]; `depth_rate = -v_rel · n` [m/s], positive while approaching.
//! Every law is clipped to `f_n >= 0`: contact never pulls.

mod ground_model;
mod hunt_crossley;
mod impact;
mod limited_damper;
mod restitution;
mod linear_spring_damper;
mod smooth_spring_damper;

pub use ground_model::GroundModel;
pub use hunt_crossley::HuntCrossley;
pub use impact::Impact;
pub use limited_damper::LimitedDamper;
pub use restitution::{Restitution, MIN_ONSET_SPEED};
pub use linear_spring_damper::LinearSpringDamper;
pub use smooth_spring_damper::SmoothSpringDamper;

use super::enums::stable_enum;
use super::real::Real;

stable_enum! {
    /// Normal force law (`normal.law`), shared/spec/physics.md "Normal force laws".
    pub enum NormalLawKind {
        /// k d + b dd (MapleSim linear spring and damper, Kelvin-Voigt).
        LinearSpringDamper = 1,
        /// k d + min(k d, b dd) (MapleSim linear spring and limited damper).
        LimitedDamper = 2,
        /// k d^n + b dd |dd|^(q-1) d^p (MapleSim Hunt and Crossley; Modelica idealized contact).
        HuntCrossley = 3,
        /// s(d/w) (k d + b dd) with a cubic smoothing over the transition width (Simscape).
        SmoothSpringDamper = 4,
        /// k d^e + STEP(d, 0, 0, dmax, cmax) dd (Adams IMPACT).
        Impact = 5,
        /// sqrt(d) (K d + D dd), contact only while positive (spatial_v2 gcontact).
        GroundModel = 6,
        /// k d^n (1 + chi dd) with chi from the coefficient of restitution (Hunt-Crossley family).
        Restitution = 7,
        /// The user's law: per point slot, the input provided.normal_force of that slot (contact.point i), clipped at 0 (Simscape Provided by Input, Adams CNFSUB).
        ProvidedByInput = 8,
    }
}

stable_enum! {
    /// How the Restitution law turns a coefficient of restitution into damping (`normal.restitution_model`).
    pub enum RestitutionModel {
        /// chi = 3 (1 - e) / (2 v0) (Hunt and Crossley).
        HuntCrossley = 1,
        /// chi = 3 (1 - e^2) / (4 v0) (Lankarani and Nikravesh).
        LankaraniNikravesh = 2,
        /// chi = 8 (1 - e) / (5 e v0) (Flores et al.).
        Flores = 3,
    }
}

/// A normal force law with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NormalLaw {
    LinearSpringDamper(LinearSpringDamper),
    LimitedDamper(LimitedDamper),
    HuntCrossley(HuntCrossley),
    SmoothSpringDamper(SmoothSpringDamper),
    Impact(Impact),
    GroundModel(GroundModel),
    Restitution(Restitution),
    /// The force of each point slot comes from its input (`physics::provided`): no function of
    /// depth and rate. The block evaluates such points with [`crate::provided::Given`]
    /// and never asks [`NormalLaw::force`], which answers 0 for it (no input, no force).
    ProvidedByInput,
}

impl NormalLaw {
    /// The normal force magnitude \[N\] at penetration `depth` \[m\] and penetration rate
    /// `depth_rate` [m/s]; zero when `depth <= 0`. `onset_speed` [m/s] is the approach speed the
    /// Restitution law froze when the point started touching, or 0 if it has not yet (the current
    /// approach speed stands in until the next step freezes it); the other laws ignore it.
    #[inline(always)]
    pub fn force<S: Real>(&self, depth: S, depth_rate: S, onset_speed: f64) -> S {
        if depth.v() <= 0.0 {
            return S::c(0.0);
        }
        match self {
            NormalLaw::LinearSpringDamper(law) => law.force(depth, depth_rate),
            NormalLaw::LimitedDamper(law) => law.force(depth, depth_rate),
            NormalLaw::HuntCrossley(law) => law.force(depth, depth_rate),
            NormalLaw::SmoothSpringDamper(law) => law.force(depth, depth_rate),
            NormalLaw::Impact(law) => law.force(depth, depth_rate),
            NormalLaw::GroundModel(law) => law.force(depth, depth_rate),
            NormalLaw::Restitution(law) => {
                let v0 = if onset_speed > 0.0 { S::c(onset_speed) } else { depth_rate };
                law.force(depth, depth_rate, v0)
            }
            NormalLaw::ProvidedByInput => {
                debug_assert!(false, "a provided normal force is read from its input (physics::provided), never from the law");
                S::c(0.0)
            }
        }
    }

    /// [`NormalLaw::force`] at many points with no onset speed (`out[i]` at `depth[i]`,
    /// `depth_rate[i]`), the law chosen once for the batch: each point's number is the one
    /// `force` gives it, from the same law function, bit for bit.
    pub fn forces(&self, depth: &[f64], depth_rate: &[f64], out: &mut [f64]) {
        #[inline(always)]
        fn each(depth: &[f64], depth_rate: &[f64], out: &mut [f64], law: impl Fn(f64, f64) -> f64) {
            for ((out, &d), &dd) in out.iter_mut().zip(depth).zip(depth_rate) {
                *out = if d <= 0.0 { 0.0 } else { law(d, dd) };
            }
        }
        match self {
            NormalLaw::LinearSpringDamper(law) => each(depth, depth_rate, out, |d, dd| law.force(d, dd)),
            NormalLaw::LimitedDamper(law) => each(depth, depth_rate, out, |d, dd| law.force(d, dd)),
            NormalLaw::HuntCrossley(law) => each(depth, depth_rate, out, |d, dd| law.force(d, dd)),
            NormalLaw::SmoothSpringDamper(law) => each(depth, depth_rate, out, |d, dd| law.force(d, dd)),
            NormalLaw::Impact(law) => each(depth, depth_rate, out, |d, dd| law.force(d, dd)),
            NormalLaw::GroundModel(law) => each(depth, depth_rate, out, |d, dd| law.force(d, dd)),
            // No onset speed: the current approach speed stands in, as in `force`.
            NormalLaw::Restitution(law) => each(depth, depth_rate, out, |d, dd| law.force(d, dd, dd)),
            // Never batched: the cloud kernel takes no provided law (`cloud_plane::applies`).
            NormalLaw::ProvidedByInput => each(depth, depth_rate, out, |_, _| 0.0),
        }
    }

    pub fn kind(&self) -> NormalLawKind {
        match self {
            NormalLaw::LinearSpringDamper(_) => NormalLawKind::LinearSpringDamper,
            NormalLaw::LimitedDamper(_) => NormalLawKind::LimitedDamper,
            NormalLaw::HuntCrossley(_) => NormalLawKind::HuntCrossley,
            NormalLaw::SmoothSpringDamper(_) => NormalLawKind::SmoothSpringDamper,
            NormalLaw::Impact(_) => NormalLawKind::Impact,
            NormalLaw::GroundModel(_) => NormalLawKind::GroundModel,
            NormalLaw::Restitution(_) => NormalLawKind::Restitution,
            NormalLaw::ProvidedByInput => NormalLawKind::ProvidedByInput,
        }
    }

    /// The onset speed a point keeps after a step at `depth` with approach speed `depth_rate`:
    /// frozen at the first step in contact, forgotten when the point leaves. 0 for the laws that
    /// keep none.
    pub fn next_onset_speed(&self, depth: f64, depth_rate: f64, onset_speed: f64) -> f64 {
        match self {
            NormalLaw::Restitution(_) if depth > 0.0 => {
                if onset_speed > 0.0 {
                    onset_speed
                } else {
                    depth_rate.max(MIN_ONSET_SPEED)
                }
            }
            _ => 0.0,
        }
    }

    /// True for the laws that keep a state per contact point.
    pub fn is_stateful(&self) -> bool {
        matches!(self, NormalLaw::Restitution(_))
    }
}
