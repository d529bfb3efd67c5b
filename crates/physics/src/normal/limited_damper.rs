use crate::real::Real;

/// Linear spring and limited damper: with `fc = k d` and `fd = b dd`,
/// `f_n = fc + min(fc, fd)` if `fc + fd > 0`, else 0, for `d > 0`.
///
/// Parameters: `stiffness` k [N/m] >= 0, `damping` b [N.s/m] >= 0.
/// Source: MapleSim "Multibody Contact Modes", linear spring and limited damper. While
/// approaching, the damper never pushes harder than the spring (`f_n <= 2 k d`), so the force
/// starts from zero at first touch whatever the impact speed; while separating it is the linear
/// law `max(0, k d + b dd)`. The force is continuous, `>= 0`, and nondecreasing in d for every dd.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimitedDamper {
    pub stiffness: f64,
    pub damping: f64,
}

impl LimitedDamper {
    pub fn force<S: Real>(&self, depth: S, depth_rate: S) -> S {
        let compression = depth * self.stiffness;
        let damping = depth_rate * self.damping;
        if (compression + damping).v() > 0.0 {
            compression + compression.min(damping)
        } else {
            S::c(0.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damper_is_limited_to_the_spring_force_while_approaching() {
        let law = LimitedDamper { stiffness: 1e5, damping: 200.0 };
        // Slow approach: the damper is below the spring force, the law is linear.
        assert_eq!(law.force(1e-3, 0.1), 1e5 * 1e-3 + 200.0 * 0.1);
        // Fast approach: the damper is capped at k d, so f_n = 2 k d.
        assert_eq!(law.force(1e-3, 5.0), 2.0 * 1e5 * 1e-3);
        // At first touch the force starts from zero even at high speed.
        assert!(law.force(1e-12, 100.0) <= 2.0 * 1e5 * 1e-12);
    }

    #[test]
    fn separating_is_the_clipped_linear_law() {
        let law = LimitedDamper { stiffness: 1e5, damping: 200.0 };
        assert_eq!(law.force(1e-3, -0.2), 1e5 * 1e-3 - 200.0 * 0.2);
        assert_eq!(law.force(1e-3, -2.0), 0.0);
    }
}
