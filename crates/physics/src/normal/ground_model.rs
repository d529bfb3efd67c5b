use crate::real::Real;

/// Ground model: `f* = sqrt(d) (K d + D dd)`; the point is in contact if and only if `f* > 0`
/// (strictly), and then `f_n = f*`, else `f_n = 0`.
///
/// Parameters: `stiffness` K [N/m^1.5] >= 0, `damping` D [N.s/m^1.5] >= 0.
/// Source: spatial_v2 gcontact (Azad and Featherstone 2010; shared/seeds/002). The `sqrt(d)`
/// factor models a contact area growing with depth, so the force starts from zero at first touch
/// for any approach speed; a point leaving faster than the ground recovers (`K d + D dd <= 0`)
/// has no force. The force is `>= 0` and nondecreasing in d for every dd (where `f* > 0`,
/// `df*/dd = (3 K d + D dd) / (2 sqrt d) > 0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroundModel {
    pub stiffness: f64,
    pub damping: f64,
}

impl GroundModel {
    pub fn force<S: Real>(&self, depth: S, depth_rate: S) -> S {
        let trial = depth.sqrt() * (depth * self.stiffness + depth_rate * self.damping);
        if trial.v() > 0.0 {
            trial
        } else {
            S::c(0.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn force_is_the_trial_force_only_while_positive() {
        let law = GroundModel { stiffness: 1e7, damping: 2e5 };
        let (d, dd) = (1e-4_f64, 0.3);
        assert!((law.force(d, dd) - d.sqrt() * (1e7 * d + 2e5 * dd)).abs() <= 1e-12 * law.force(d, dd));
        // Exactly on the boundary K d + D dd = 0 (values exact in binary): no contact.
        assert_eq!(GroundModel { stiffness: 1024.0, damping: 2.0 }.force(0.25, -128.0), 0.0);
        assert!(GroundModel { stiffness: 1024.0, damping: 2.0 }.force(0.25, -127.5) > 0.0);
        assert_eq!(law.force(1e-4, -1.0), 0.0);
    }
}
