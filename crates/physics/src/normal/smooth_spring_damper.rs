use crate::real::Real;

/// Smooth spring-damper: `f_n = max(0, s(d/w) (k d + b dd))` for `d > 0`, with the smoothing
/// `s(u) = 3 u^2 - 2 u^3` on [0, 1] and `s(u) = 1` beyond.
///
/// Parameters: `stiffness` k [N/m] >= 0, `damping` b [N.s/m] >= 0, `transition_width` w \[m\] > 0.
/// Source: Simscape Multibody "Spatial Contact Force", smooth spring-damper (shared/seeds/000).
/// MathWorks does not publish s; this cubic has the documented properties: it rises from 0 at
/// first touch to full force at depth w with zero slope at both ends (C1), so the force is
/// continuous at first touch even for a fast impact. Beyond w the law is the linear one. The
/// force is `>= 0` and nondecreasing in d for every dd.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmoothSpringDamper {
    pub stiffness: f64,
    pub damping: f64,
    pub transition_width: f64,
}

impl SmoothSpringDamper {
    pub fn force<S: Real>(&self, depth: S, depth_rate: S) -> S {
        let linear = depth * self.stiffness + depth_rate * self.damping;
        (smoothing(depth / self.transition_width) * linear).max(S::c(0.0))
    }
}

/// `s(u) = 3 u^2 - 2 u^3` on [0, 1], 0 below, 1 above.
fn smoothing<S: Real>(u: S) -> S {
    if u.v() <= 0.0 {
        S::c(0.0)
    } else if u.v() >= 1.0 {
        S::c(1.0)
    } else {
        u * u * (-(u * 2.0) + 3.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoothing_rises_from_zero_to_one_with_flat_ends() {
        assert_eq!(smoothing(0.0), 0.0);
        assert_eq!(smoothing(0.5), 0.5);
        assert_eq!(smoothing(1.0), 1.0);
        assert_eq!(smoothing(3.0), 1.0);
        let h = 1e-7;
        assert!((smoothing(h) / h).abs() < 1e-6, "zero slope at 0");
        assert!(((1.0 - smoothing(1.0 - h)) / h).abs() < 1e-6, "zero slope at 1");
    }

    #[test]
    fn is_the_linear_law_beyond_the_transition_and_scaled_inside() {
        let law = SmoothSpringDamper { stiffness: 1e5, damping: 200.0, transition_width: 1e-4 };
        assert_eq!(law.force(2e-4, 0.5), 1e5 * 2e-4 + 200.0 * 0.5);
        // u = 1/2: s = 1/2.
        assert!((law.force(5e-5, 0.5) - 0.5 * (1e5 * 5e-5 + 200.0 * 0.5)).abs() <= 1e-12);
        assert_eq!(law.force(2e-4, -2.0), 0.0);
    }
}
