//! Adams' cubic STEP function, used by the Impact normal law and the AdamsCoulomb friction law.

use super::real::Real;

/// Adams STEP: `h0` for `x <= x0`, `h1` for `x >= x1`, else `h0 + (h1 - h0) D^2 (3 - 2 D)` with
/// `D = (x - x0) / (x1 - x0)`.
///
/// Parameters: `x` the argument, `x0 < x1` the ends of the transition (same unit as `x`), `h0` and
/// `h1` the values before and after it. The result is C1: its slope
/// `6 (h1 - h0) D (1 - D) / (x1 - x0)` is zero at both ends; at the midpoint it is `(h0 + h1) / 2`.
/// Source: MSC Adams Solver function STEP (shared/seeds/003, IMPACT DMAX and COULOMB_FRICTION).
pub fn step<S: Real>(x: S, x0: f64, h0: f64, x1: f64, h1: f64) -> S {
    debug_assert!(x0 < x1, "STEP needs x0 < x1, got x0 = {x0}, x1 = {x1}");
    if x.v() <= x0 {
        S::c(h0)
    } else if x.v() >= x1 {
        S::c(h1)
    } else {
        let d = (x - x0) / (x1 - x0);
        d * (h1 - h0) * d * (-(d * 2.0) + 3.0) + h0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const X0: f64 = -0.3;
    const X1: f64 = 1.7;
    const H0: f64 = 2.5;
    const H1: f64 = -4.0;

    fn s(x: f64) -> f64 {
        step(x, X0, H0, X1, H1)
    }

    #[test]
    fn holds_its_end_values_outside_the_transition() {
        for x in [-10.0, X0 - 1e-9, X0] {
            assert_eq!(s(x), H0, "x = {x}");
        }
        for x in [X1, X1 + 1e-9, 10.0] {
            assert_eq!(s(x), H1, "x = {x}");
        }
    }

    #[test]
    fn midpoint_is_the_mean_of_the_end_values() {
        assert!((s(0.5 * (X0 + X1)) - 0.5 * (H0 + H1)).abs() <= 1e-15);
        // D = 1/4: D^2 (3 - 2 D) = 5/32.
        let quarter = X0 + 0.25 * (X1 - X0);
        assert!((s(quarter) - (H0 + (H1 - H0) * 5.0 / 32.0)).abs() <= 1e-14);
    }

    #[test]
    fn is_continuous_with_a_continuous_slope_at_both_ends() {
        // Values: the cubic meets the constants; slopes: one-sided differences inside the
        // transition tend to zero like 6 (h1 - h0) eps / (x1 - x0)^2.
        for (end, h) in [(X0, H0), (X1, H1)] {
            let eps = 1e-7;
            let inside = if end == X0 { end + eps } else { end - eps };
            assert!((s(inside) - h).abs() <= 1e-12, "value at {end}");
            let slope = (s(inside) - s(end)) / (inside - end);
            assert!(slope.abs() <= 6.0 * (H1 - H0).abs() * eps / (X1 - X0).powi(2) + 1e-6, "slope at {end}: {slope}");
        }
        // The slope inside matches the derivative of the cubic.
        let x = 0.9;
        let h = 1e-6;
        let numeric = (s(x + h) - s(x - h)) / (2.0 * h);
        let d = (x - X0) / (X1 - X0);
        let exact = 6.0 * (H1 - H0) * d * (1.0 - d) / (X1 - X0);
        assert!((numeric - exact).abs() <= 1e-6 * exact.abs());
    }

    #[test]
    fn is_monotone_between_its_end_values() {
        let mut previous = s(X0);
        for i in 1..=1000 {
            let value = s(X0 + (X1 - X0) * i as f64 / 1000.0);
            assert!(value <= previous, "H1 < H0, so STEP decreases");
            previous = value;
        }
    }
}
