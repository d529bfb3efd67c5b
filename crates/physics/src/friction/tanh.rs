use crate::real::Real;

/// Hyperbolic-tangent friction: `mu(v) = mu tanh(k_mu v)`.
///
/// Parameters: `mu` (`friction.mu_dynamic`) >= 0, `gain` k_mu (`friction.tanh_gain`) [s/m] > 0.
/// Source: MapleSim contact friction. `mu(v) / v = mu k_mu tanh(x) / x` with `x = k_mu v` tends to
/// `mu k_mu` as v -> 0; a series is used near 0 so no division by zero occurs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TanhFriction {
    pub mu: f64,
    pub gain: f64,
}

impl TanhFriction {
    pub fn mu(&self, speed: f64) -> f64 {
        self.mu * crate::hyperbolic::tanh(self.gain * speed)
    }

    /// `mu(v) / v` [s/m], finite at v = 0.
    #[inline(always)]
    pub fn mu_over_speed<S: Real>(&self, speed: S) -> S {
        tanh_over_x(speed * self.gain) * (self.mu * self.gain)
    }
}

/// `tanh(x) / x`, continued by its value 1 at x = 0.
#[inline(always)]
pub(super) fn tanh_over_x<S: Real>(x: S) -> S {
    if x.v().abs() < 1e-4 {
        // tanh x = x - x^3/3 + O(x^5): the relative truncation error here is below 1e-17.
        -(x * x / 3.0) + 1.0
    } else {
        x.tanh() / x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_is_continuous_across_the_series_switch() {
        let law = TanhFriction { mu: 0.4, gain: 100.0 };
        for v in [0.0, 1e-8, 9.99e-7, 1.0e-6, 1.01e-6, 1e-3, 0.1, 10.0] {
            let reference = if v == 0.0 { 0.4 * 100.0 } else { law.mu(v) / v };
            assert!((law.mu_over_speed(v) - reference).abs() <= 1e-13 * reference, "v = {v}");
        }
    }
}
