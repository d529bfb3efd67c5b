use super::tanh::tanh_over_x;
use crate::real::Real;

/// Stribeck curve of Makkar et al.:
/// `mu(v) = g1 (tanh(g2 v) - tanh(g3 v)) + g4 tanh(g5 v) + g6 v` with `g2 = g5 = 2 / ve1`,
/// `g3 = 3 / ve2`, `g4 = mu_k - kv ve2`, `g6 = kv` and
/// `g1 = (mu_s - tanh(2 ve1/ve2) g4 - 2 kv ve1) / (tanh(2 ve2/ve1) - tanh(2 ve1/ve2)) - g4`.
///
/// Parameters: `mu_static` mu_s (`friction.mu_static`) >= 0, `mu_kinetic` mu_k
/// (`friction.mu_dynamic`) in [0, mu_s], `ve1` (`friction.v_stiction`, start of mixed friction)
/// [m/s] and `ve2` (`friction.v_transition`, start of viscous friction) [m/s] with
/// `0 < ve1 < ve2`, `viscous` kv (`friction.viscous`) [s/m] >= 0.
/// Source: Makkar, Dixon, Sawyer and Hu 2005, with the constants of the Modelica
/// idealized-contact library (Oestersötebier et al., shared/seeds/004), applied along -v_t here
/// rather than per tangent axis. The constants are those of shared/spec/physics.md.
///
/// What the curve does (no clipping is applied): mu(0) = 0 with the finite slope
/// `g1 (g2 - g3) + g4 g5 + g6`; mu peaks near ve1 and tends to `mu_k + kv (v - ve2)` for
/// v >> ve2. The peak is not exactly mu_s: with mu_s = 0.5, mu_k = 0.3, ve1 = 1e-3, ve2 = 1e-2,
/// kv = 0 it is 0.457 near 1.04 ve1, and it approaches mu_s from below as ve2 / ve1 grows. With
/// kv = 0 the curve stays within [0, mu_s] on the tests' parameter sweep, so `|f_t| <= mu_s f_n`,
/// up to rounding and one exception: with mu_k = mu_s the hump (g1 > 0) rides on a plateau
/// already at mu_s and overshoots it by at most about 5e-10 mu_s (near ve2 = 2.5 ve1);
/// with kv > 0 the viscous term grows without bound and `|f_t| = mu(v) f_n` exceeds mu_s f_n at
/// high slip speed, by design. Some admissible-looking parameters make mu negative somewhere (ve2
/// close to ve1, where g3 > g2 inverts the hump, or a large kv); [`Stribeck::negative_mu`] finds
/// that and the block refuses such parameters rather than clip. `mu(v) / v` is evaluated with
/// `tanh(x) / x` continued by its series near 0, so it is finite at v = 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stribeck {
    // Private, so that the constants g always belong to the parameters: build with `new`.
    mu_static: f64,
    mu_kinetic: f64,
    ve1: f64,
    ve2: f64,
    viscous: f64,
    /// `[g1, g2, g3, g4, g5, g6]`.
    g: [f64; 6],
}

impl Stribeck {
    pub fn new(mu_static: f64, mu_kinetic: f64, ve1: f64, ve2: f64, viscous: f64) -> Stribeck {
        let g2 = 2.0 / ve1;
        let g3 = 3.0 / ve2;
        let g4 = mu_kinetic - viscous * ve2;
        let g5 = g2;
        let g6 = viscous;
        let low = (2.0 * ve1 / ve2).tanh();
        let high = (2.0 * ve2 / ve1).tanh();
        let g1 = (mu_static - low * g4 - 2.0 * viscous * ve1) / (high - low) - g4;
        Stribeck { mu_static, mu_kinetic, ve1, ve2, viscous, g: [g1, g2, g3, g4, g5, g6] }
    }

    /// `(mu_s, mu_k, ve1, ve2, kv)` as given to [`Stribeck::new`].
    pub fn parameters(&self) -> (f64, f64, f64, f64, f64) {
        (self.mu_static, self.mu_kinetic, self.ve1, self.ve2, self.viscous)
    }

    /// The constants `[g1, ..., g6]`.
    pub fn gammas(&self) -> [f64; 6] {
        self.g
    }

    pub fn mu(&self, speed: f64) -> f64 {
        let [g1, g2, g3, g4, g5, g6] = self.g;
        g1 * ((g2 * speed).tanh() - (g3 * speed).tanh()) + g4 * (g5 * speed).tanh() + g6 * speed
    }

    /// `mu(v) / v` [s/m], finite at v = 0 (where it is the slope of mu).
    pub fn mu_over_speed<S: Real>(&self, speed: S) -> S {
        let [g1, g2, g3, g4, g5, g6] = self.g;
        (tanh_over_x(speed * g2) * g2 - tanh_over_x(speed * g3) * g3) * g1 + tanh_over_x(speed * g5) * (g4 * g5) + g6
    }

    /// The lowest value of mu and the speed [m/s] where it occurs, sampled on 4000 speeds spaced
    /// evenly in log scale from `1e-6 ve1` to `20 ve2`. Below that range mu is its slope at 0
    /// times v (the sample at `1e-6 ve1` has that sign); above it every tanh is 1 to double
    /// precision and mu is `g4 + kv v`, nondecreasing, so the sample at `20 ve2` bounds it.
    pub fn lowest_mu(&self) -> (f64, f64) {
        const SAMPLES: usize = 4000;
        let (low, high) = (1e-6 * self.ve1, 20.0 * self.ve2);
        let ratio = (high / low).powf(1.0 / (SAMPLES - 1) as f64);
        let mut speed = low;
        let mut lowest = (low, self.mu(low));
        for _ in 1..SAMPLES {
            speed *= ratio;
            let mu = self.mu(speed);
            if mu < lowest.1 {
                lowest = (speed, mu);
            }
        }
        lowest
    }

    /// The speed [m/s] and value of the lowest mu when it is negative beyond rounding: below
    /// `-1e-12 (|g1| + |g4|)`. Where both tanh saturate, `g1 (tanh - tanh)` rounds to a few ulps
    /// of g1 of either sign; that is noise, not a curve that pushes along the slip.
    pub fn negative_mu(&self) -> Option<(f64, f64)> {
        let (speed, mu) = self.lowest_mu();
        let noise = 1e-12 * (self.g[0].abs() + self.g[3].abs());
        (mu < -noise).then_some((speed, mu))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_is_continuous_across_the_series_switch() {
        let law = Stribeck::new(0.5, 0.3, 1e-3, 1e-2, 2.0);
        let [g1, g2, g3, g4, g5, g6] = law.gammas();
        let slope = g1 * (g2 - g3) + g4 * g5 + g6;
        // tanh_over_x switches to its series at |x| = 1e-4, i.e. at v = 5e-8 (g2) and 3.3e-7 (g3).
        for v in [0.0, 1e-12, 4.99e-8, 5e-8, 5.01e-8, 3.3e-7, 3.4e-7, 1e-5, 1e-3, 1e-2, 1.0] {
            let reference = if v == 0.0 { slope } else { law.mu(v) / v };
            assert!((law.mu_over_speed(v) - reference).abs() <= 1e-9 * reference.abs(), "v = {v}");
        }
    }

    #[test]
    fn tends_to_the_kinetic_coefficient_plus_viscous_term() {
        let law = Stribeck::new(0.5, 0.3, 1e-3, 1e-2, 2.0);
        assert_eq!(law.parameters(), (0.5, 0.3, 1e-3, 1e-2, 2.0));
        let v = 1.0;
        assert!((law.mu(v) - (0.3 + 2.0 * (v - 1e-2))).abs() <= 1e-12);
        assert_eq!(Stribeck::new(0.5, 0.3, 1e-3, 1e-2, 0.0).mu(10.0), 0.3);
    }

    #[test]
    fn negative_mu_finds_an_inverted_hump_and_ignores_rounding() {
        assert_eq!(Stribeck::new(0.5, 0.3, 1e-3, 1e-2, 0.0).negative_mu(), None);
        // mu_k = 0: far beyond ve2 mu is g1 (tanh - tanh), which rounds to +-1e-17.
        assert_eq!(Stribeck::new(0.05, 0.0, 1e-5, 1.6e-5, 0.0).negative_mu(), None);
        // ve2 = 1.2 ve1: g3 > g2, the g1 term turns negative.
        let (speed, mu) = Stribeck::new(0.5, 0.3, 1e-3, 1.2e-3, 0.0).negative_mu().unwrap();
        assert!(mu < -0.2 && speed > 1e-4 && speed < 1e-3, "{mu} at {speed}");
    }
}
