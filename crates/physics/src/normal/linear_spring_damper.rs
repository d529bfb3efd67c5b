use crate::real::Real;

/// Linear spring and damper: `f_n = max(0, k d + b dd)` for `d > 0`.
///
/// Parameters: `stiffness` k [N/m] >= 0, `damping` b [N.s/m] >= 0.
/// Source: MapleSim "Multibody Contact Modes", linear spring and damper (Kelvin-Voigt). For a
/// free mass m hitting at speed v the peak depth is `sqrt(m/k) v` (b = 0) or `(m/b) v` (k = 0),
/// and the coefficient of restitution is `exp(-zeta pi / sqrt(1 - zeta^2))`,
/// `zeta = b / (2 sqrt(k m))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearSpringDamper {
    pub stiffness: f64,
    pub damping: f64,
}

impl LinearSpringDamper {
    pub fn force<S: Real>(&self, depth: S, depth_rate: S) -> S {
        (depth * self.stiffness + depth_rate * self.damping).max(S::c(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spring_and_damper_add_and_never_pull() {
        let law = LinearSpringDamper { stiffness: 1e5, damping: 200.0 };
        assert_eq!(law.force(1e-3, 0.5), 1e5 * 1e-3 + 200.0 * 0.5);
        // Separating fast: the damper would pull, the clip keeps the force at zero.
        assert_eq!(law.force(1e-3, -2.0), 0.0);
    }
}
