use crate::real::Real;

/// Hunt and Crossley: `f_n = max(0, k d^n + b dd |dd|^(q-1) d^p)` for `d > 0`.
///
/// Parameters: `stiffness` k [N/m^n] >= 0, `damping` b [N.s/m^(p+1)] with q = 1, >= 0,
/// `exponent` n > 0, `damping_exponent` p >= 0, `velocity_exponent` q > 0 (defaults n = p = 1.5,
/// q = 1). `dd |dd|^(q-1)` is evaluated as `sign(dd) |dd|^q`, finite at dd = 0 for every q > 0.
/// Source: MapleSim "Multibody Contact Modes", Hunt and Crossley; with q = 1 it is the Modelica
/// idealized-contact law `c p^n1 + d p^n2 p'` (Oestersötebier et al.).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HuntCrossley {
    pub stiffness: f64,
    pub damping: f64,
    pub exponent: f64,
    pub damping_exponent: f64,
    pub velocity_exponent: f64,
}

impl HuntCrossley {
    pub fn force<S: Real>(&self, depth: S, depth_rate: S) -> S {
        let rate_term = if self.velocity_exponent == 1.0 {
            depth_rate
        } else {
            depth_rate.abs().powf(self.velocity_exponent) * depth_rate.v().signum()
        };
        let elastic = depth.powf(self.exponent) * self.stiffness;
        let dissipative = rate_term * self.damping * depth.powf(self.damping_exponent);
        (elastic + dissipative).max(S::c(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_formula_with_velocity_exponent() {
        let law = HuntCrossley { stiffness: 1e7, damping: 3e5, exponent: 1.5, damping_exponent: 1.2, velocity_exponent: 0.7 };
        let (d, dd) = (2e-4_f64, -0.03_f64);
        let expected = 1e7 * d.powf(1.5) + 3e5 * dd * dd.abs().powf(0.7 - 1.0) * d.powf(1.2);
        assert!((law.force(d, dd) - expected.max(0.0)).abs() <= 1e-12 * expected.abs());
        assert_eq!(law.force(d, 0.0), 1e7 * d.powf(1.5));
    }
}
