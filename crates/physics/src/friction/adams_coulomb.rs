use crate::real::Real;
use crate::step::step;

/// Adams Coulomb friction: `mu(v) = STEP(v, -vs, -mu_s, vs, mu_s)` for `v < vs`;
/// `STEP(v, vs, mu_s, vd, mu_d)` for `vs <= v < vd`; `mu_d` beyond.
///
/// Parameters: `mu_static` mu_s (`friction.mu_static`, Adams MU_STATIC) >= 0, `mu_dynamic` mu_d
/// (`friction.mu_dynamic`, MU_DYNAMIC) in [0, mu_s], `stiction_speed` vs (`friction.v_stiction`,
/// STICTION_TRANSITION_VELOCITY) [m/s] and `transition_speed` vd (`friction.v_transition`,
/// FRICTION_TRANSITION_VELOCITY) [m/s] with `0 < vs < vd` (Adams' range).
/// Source: MSC Adams Solver CONTACT, COULOMB_FRICTION (shared/seeds/003), written for the slip
/// speed v >= 0 (Adams writes the same curve for signed v and applies it against the slip).
/// mu is C1, 0 at v = 0, rises to mu_s at vs and falls to mu_d at vd, and stays in [0, mu_s]:
/// `|f_t| <= mu_s f_n`. This is a dynamic-friction law: there is no true stiction, a body at rest
/// under a tangential load creeps with a speed below vs.
/// On the first branch, with `x = v / vs`, STEP expands to `mu_s x (3 - x^2) / 2`, so
/// `mu(v) / v = mu_s (3 - x^2) / (2 vs)` there exactly (slope 3 mu_s / (2 vs) at 0): nothing is
/// divided by v below vs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamsCoulomb {
    pub mu_static: f64,
    pub mu_dynamic: f64,
    pub stiction_speed: f64,
    pub transition_speed: f64,
}

impl AdamsCoulomb {
    pub fn mu<S: Real>(&self, speed: S) -> S {
        let (vs, vd) = (self.stiction_speed, self.transition_speed);
        if speed.v() < vs {
            step(speed, -vs, -self.mu_static, vs, self.mu_static)
        } else if speed.v() < vd {
            step(speed, vs, self.mu_static, vd, self.mu_dynamic)
        } else {
            S::c(self.mu_dynamic)
        }
    }

    /// `mu(v) / v` [s/m], finite at v = 0 (where it is `3 mu_s / (2 vs)`).
    pub fn mu_over_speed<S: Real>(&self, speed: S) -> S {
        let vs = self.stiction_speed;
        if speed.v() < vs {
            let x = speed / vs;
            (-(x * x) + 3.0) * self.mu_static / (2.0 * vs)
        } else {
            self.mu(speed) / speed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAW: AdamsCoulomb = AdamsCoulomb { mu_static: 0.5, mu_dynamic: 0.3, stiction_speed: 1e-3, transition_speed: 1e-2 };

    #[test]
    fn reaches_mu_static_at_vs_and_mu_dynamic_at_vd() {
        assert_eq!(LAW.mu(0.0), 0.0);
        assert_eq!(LAW.mu(1e-3), 0.5);
        assert_eq!(LAW.mu(1e-2), 0.3);
        assert_eq!(LAW.mu(5.0), 0.3);
        // Half of vs: x = 1/2, mu = mu_s x (3 - x^2) / 2 = 0.6875 mu_s.
        assert!((LAW.mu(0.5e-3) - 0.6875 * 0.5).abs() <= 1e-15);
    }

    #[test]
    fn ratio_is_continuous_across_the_branch_switches() {
        for v in [0.0, 1e-12, 1e-7, 0.5e-3, 0.999_999e-3, 1e-3, 1.000_001e-3, 5e-3, 0.999_999e-2, 1e-2, 2.0] {
            let reference = if v == 0.0 { 1.5 * 0.5 / 1e-3 } else { LAW.mu(v) / v };
            // STEP near v = 0 is -mu_s + (a number close to mu_s): its rounding error, a few ulps of
            // mu_s, divided by v is the accuracy of the reference, not of the law.
            let rounding = if v == 0.0 { 0.0 } else { 4.0 * f64::EPSILON * 0.5 / v };
            assert!((LAW.mu_over_speed(v) - reference).abs() <= 1e-12 * reference + rounding, "v = {v}");
        }
    }
}
