use crate::real::Real;

/// Smooth stick-slip: `mu(v) = mu_s S5(v/vc)` for `v < vc`;
/// `mu_s - (mu_s - mu_d) S5((v - vc)/(2 vc))` for `vc <= v < 3 vc`; `mu_d` beyond;
/// `S5(x) = 10 x^3 - 15 x^4 + 6 x^5`.
///
/// Parameters: `mu_static` mu_s (`friction.mu_static`) >= 0, `mu_dynamic` mu_d
/// (`friction.mu_dynamic`) in [0, mu_s], `critical_speed` vc (`friction.v_stiction`) [m/s] > 0.
/// Source: Simscape Multibody "Spatial Contact Force", smooth stick-slip (shared/seeds/000): the
/// coefficient rises from 0 to mu_s at the critical velocity, then decays to mu_d. MathWorks does
/// not publish the curve; this is Drake's published Stribeck curve of that shape. S5 is C2 with
/// zero slope at both ends, so mu is C2 everywhere and stays in [0, mu_s]: `|f_t| <= mu_s f_n`.
/// Near 0, `mu(v) / v = (mu_s / vc) x^2 (10 - 15 x + 6 x^2)` with `x = v / vc` is a polynomial
/// (0 at v = 0: the curve starts flat), used on the whole first branch, so nothing is divided by v
/// there; beyond vc the speed is at least vc.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmoothStickSlip {
    pub mu_static: f64,
    pub mu_dynamic: f64,
    pub critical_speed: f64,
}

impl SmoothStickSlip {
    pub fn mu<S: Real>(&self, speed: S) -> S {
        let x = speed / self.critical_speed;
        if x.v() < 1.0 {
            s5(x) * self.mu_static
        } else if x.v() < 3.0 {
            -(s5((x - 1.0) / 2.0) * (self.mu_static - self.mu_dynamic)) + self.mu_static
        } else {
            S::c(self.mu_dynamic)
        }
    }

    /// `mu(v) / v` [s/m], finite at v = 0 (where it is 0).
    pub fn mu_over_speed<S: Real>(&self, speed: S) -> S {
        let x = speed / self.critical_speed;
        if x.v() < 1.0 {
            // S5(x) / x = x^2 (10 - 15 x + 6 x^2).
            x * (self.mu_static / self.critical_speed) * x * (x * (x * 6.0 + -15.0) + 10.0)
        } else {
            self.mu(speed) / speed
        }
    }
}

/// `S5(x) = 10 x^3 - 15 x^4 + 6 x^5`: 0 at 0, 1 at 1, with zero first and second derivatives at
/// both ends.
fn s5<S: Real>(x: S) -> S {
    x * x * x * (x * (x * 6.0 + -15.0) + 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAW: SmoothStickSlip = SmoothStickSlip { mu_static: 0.5, mu_dynamic: 0.3, critical_speed: 1e-3 };

    #[test]
    fn reaches_mu_static_at_vc_and_mu_dynamic_at_three_vc() {
        assert_eq!(LAW.mu(0.0), 0.0);
        assert_eq!(LAW.mu(1e-3), 0.5);
        assert_eq!(LAW.mu(3e-3), 0.3);
        assert_eq!(LAW.mu(1.0), 0.3);
        // Mid-way up and down: S5(1/2) = 1/2.
        assert!((LAW.mu(0.5e-3) - 0.25).abs() <= 1e-15);
        assert!((LAW.mu(2e-3) - 0.4).abs() <= 1e-15);
    }

    #[test]
    fn ratio_is_continuous_across_the_branch_switches() {
        for v in [0.0, 1e-9, 1e-6, 0.999e-3, 1e-3, 1.001e-3, 2e-3, 2.999e-3, 3e-3, 3.001e-3, 1.0] {
            let reference = if v == 0.0 { 0.0 } else { LAW.mu(v) / v };
            assert!((LAW.mu_over_speed(v) - reference).abs() <= 1e-13 * reference.abs().max(1e-300), "v = {v}");
        }
        // Left and right of vc agree to first order in the gap.
        let gap = 1e-12;
        assert!((LAW.mu_over_speed(1e-3 - gap) - LAW.mu_over_speed(1e-3)).abs() <= 1e-6);
    }
}
