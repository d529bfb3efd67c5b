use crate::real::Real;
use crate::step::step;

/// Adams IMPACT: `f_n = max(0, k d^e + STEP(d, 0, 0, dmax, cmax) dd)` for `d > 0`.
///
/// Parameters: `stiffness` k [N/m^e] >= 0 (Adams STIFFNESS), `exponent` e > 0 (EXPONENT),
/// `max_damping` cmax [N.s/m] >= 0 (DAMPING), `full_damping_depth` dmax \[m\] > 0 (DMAX).
/// Source: MSC Adams Solver CONTACT, IMPACT force model (shared/seeds/003). The damping
/// coefficient rises from 0 at first touch to cmax at depth dmax along Adams' cubic STEP, so the
/// force is continuous at first touch. Adams' ranges are `0 < EXPONENT` (it recommends 1.5 or
/// higher; below 1 the stiffness slope is infinite at first touch, which stiff integrators
/// dislike but the force stays continuous) and `DAMPING > 0`; damping 0 is accepted here as the
/// purely elastic law. The force is `>= 0` and nondecreasing in d while approaching (`dd >= 0`);
/// while separating the growing damping can make it decrease with d.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    pub stiffness: f64,
    pub exponent: f64,
    pub max_damping: f64,
    pub full_damping_depth: f64,
}

impl Impact {
    pub fn force<S: Real>(&self, depth: S, depth_rate: S) -> S {
        let damping = step(depth, 0.0, 0.0, self.full_damping_depth, self.max_damping);
        (depth.powf(self.exponent) * self.stiffness + damping * depth_rate).max(S::c(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damping_ramps_up_to_full_at_dmax() {
        let law = Impact { stiffness: 1e8, exponent: 2.2, max_damping: 1e4, full_damping_depth: 1e-4 };
        let (d, dd) = (3e-4_f64, 0.2);
        assert_eq!(law.force(d, dd), 1e8 * d.powf(2.2) + 1e4 * dd);
        // Half way to dmax the damping is half of cmax (STEP's midpoint).
        let d = 5e-5_f64;
        assert!((law.force(d, dd) - (1e8 * d.powf(2.2) + 0.5e4 * dd)).abs() <= 1e-12 * law.force(d, dd));
        // Separating fast inside the ramp: clipped to zero.
        assert_eq!(law.force(d, -10.0), 0.0);
    }
}
