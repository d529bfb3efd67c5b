use super::RestitutionModel;
use crate::real::Real;

/// Approach speeds below this [m/s] are raised to it when the damping factor is formed, so that
/// a contact that starts (almost) at rest stays finite: chi ~ 1 / v0.
pub const MIN_ONSET_SPEED: f64 = 1e-3;

/// Restitution: `f_n = max(0, k d^n (1 + chi dd))`, with the damping factor `chi` from the
/// coefficient of restitution e and the approach speed `v0` frozen when the contact point starts:
/// Hunt-Crossley `chi = 3 (1 - e) / (2 v0)`, Lankarani-Nikravesh `chi = 3 (1 - e^2) / (4 v0)`,
/// Flores `chi = 8 (1 - e) / (5 e v0)`.
///
/// Parameters: `stiffness` k [N/m^n] >= 0, `exponent` n > 0, `restitution` e in [0, 1] (Flores:
/// (0, 1]), `model`. `v0` is at least [`MIN_ONSET_SPEED`]. Source: the Hunt-Crossley family as
/// Modia3D and Chrono use it; Adams' idea of giving e instead of a damping constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Restitution {
    pub stiffness: f64,
    pub exponent: f64,
    pub restitution: f64,
    pub model: RestitutionModel,
}

impl Restitution {
    /// Damping factor chi [s/m] for the approach speed `onset_speed` [m/s].
    pub fn chi<S: Real>(&self, onset_speed: S) -> S {
        let v0 = onset_speed.max(S::c(MIN_ONSET_SPEED));
        let e = self.restitution;
        match self.model {
            RestitutionModel::HuntCrossley => S::c(3.0 * (1.0 - e)) / (v0 * 2.0),
            RestitutionModel::LankaraniNikravesh => S::c(3.0 * (1.0 - e * e)) / (v0 * 4.0),
            RestitutionModel::Flores => S::c(8.0 * (1.0 - e)) / (v0 * (5.0 * e)),
        }
    }

    /// The force for the onset speed `onset_speed` (a held state, or before the first step the
    /// current approach speed, whose derivative then counts).
    pub fn force<S: Real>(&self, depth: S, depth_rate: S, onset_speed: S) -> S {
        (depth.powf(self.exponent) * self.stiffness * (depth_rate * self.chi(onset_speed) + 1.0)).max(S::c(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chi_follows_each_model() {
        let law = |model| Restitution { stiffness: 1e6, exponent: 1.5, restitution: 0.8, model };
        assert!((law(RestitutionModel::HuntCrossley).chi(2.0) - 3.0 * 0.2 / 4.0).abs() < 1e-15);
        assert!((law(RestitutionModel::LankaraniNikravesh).chi(2.0) - 3.0 * 0.36 / 8.0).abs() < 1e-15);
        assert!((law(RestitutionModel::Flores).chi(2.0) - 8.0 * 0.2 / (5.0 * 0.8 * 2.0)).abs() < 1e-15);
        // A contact starting at rest stays finite.
        assert!(law(RestitutionModel::HuntCrossley).chi(0.0).is_finite());
    }
}
