//! Laws provided by input (`normal.law = ProvidedByInput`, `friction.law = ProvidedByInput`):
//! Simscape's "Provided by Input", Adams' CNFSUB and CFFSUB. The block still finds the contact
//! points and their kinematics; a user's law outside the block turns what [`LawInputs`] holds of a
//! point into its normal force magnitude and its friction force in the contact plane ([`Given`]),
//! which the block applies at the point with Newton's third law, through the same sums as its own
//! laws.
//!
//! The rules, the same as the block's own laws' (shared/spec/physics.md "Symbols and signs"):
//! `f_n = max(0, given)` where the point penetrates (`depth > 0`) and is not passed through
//! (`normal.max_depth`), else 0; the friction force is `g1 t1 + g2 t2` while the point carries a
//! normal force, else 0; a partly covered point (a finite face's edge) carries its `weight` of
//! both, as it does of a built-in law's.
//!
//! The contact plane's basis ([`tangent_basis`]): `t1` is W's x axis projected on the plane and
//! normalised, or W's y axis where the normal lies within about 26 degrees of +-x (`|n_x| > 0.9`,
//! where x is too close to the normal); `t2 = n x t1`, so `(t1, t2, n)` is right-handed. On the
//! ground (`n = z`) `t1 = x`, `t2 = y`. The slip velocity a law reads and the friction force it
//! gives are both resolved along `t1` and `t2` of the same evaluation, so an isotropic law (any
//! `f_t = -mu f_n v_t / |v_t|`) gives the same force in W whatever the basis; where the basis
//! switches (the cone around +-x), only a law that keeps tangential state in these coordinates
//! across steps, or is anisotropic, sees the switch.

use nalgebra::Vector3;

use super::real::Real;

/// Beyond this `|n_x|` the first tangent comes from W's y axis instead of its x axis.
pub const X_AXIS_LIMIT: f64 = 0.9;

/// What a user's law gives for one point slot: the normal force magnitude (N) (clipped at 0 by
/// the block) and the friction force (N) along the slot's tangents `t1`, `t2`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Given<S: Real = f64> {
    pub normal_force: S,
    pub friction_force: [S; 2],
}

impl Given<f64> {
    /// The same values as constants over any [`Real`] (their derivatives are zero).
    pub fn constant<S: Real>(&self) -> Given<S> {
        Given { normal_force: S::c(self.normal_force), friction_force: [S::c(self.friction_force[0]), S::c(self.friction_force[1])] }
    }
}

/// An orthonormal basis `(t1, t2)` of the plane normal to the unit vector `n`, with
/// `t2 = n x t1` (see the module comment for the rule).
#[inline]
pub fn tangent_basis<S: Real>(n: &Vector3<S>) -> (Vector3<S>, Vector3<S>) {
    let axis = if n.x.v().abs() > X_AXIS_LIMIT { Vector3::y() } else { Vector3::x() };
    let e: Vector3<S> = S::vc(&axis);
    let projected = e - n * e.dot(n);
    let t1 = projected / S::norm(&projected);
    let t2 = n.cross(&t1);
    (t1, t2)
}

/// The normal force a provided law gives at a point of penetration `depth` (m): the input
/// clipped at 0 while the point penetrates, 0 apart (as every built-in law).
#[inline]
pub fn normal_force<S: Real>(depth: S, given: S) -> S {
    if depth.v() <= 0.0 {
        return S::c(0.0);
    }
    given.max(S::c(0.0))
}

/// The friction force on B (W) a provided law gives along `t1`, `t2` while the point carries the
/// normal force `normal_force` (N); zero without it (friction is zero when `f_n = 0`).
#[inline]
pub fn friction_force<S: Real>(normal_force: S, t1: &Vector3<S>, t2: &Vector3<S>, given: &[S; 2]) -> Vector3<S> {
    if normal_force.v() <= 0.0 {
        return Vector3::zeros();
    }
    t1 * given[0] + t2 * given[1]
}

/// What a user's law reads of one point: the kinematics the block computed there.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LawInputs {
    /// Penetration depth `max(0, -separation)` (m).
    pub depth: f64,
    /// Penetration rate `-v_rel . n` (m/s), positive while approaching.
    pub depth_rate: f64,
    /// The slip velocity `v_t` along `t1` and `t2` (m/s).
    pub slip_velocity: [f64; 2],
    /// The unit normal from A toward B, in W.
    pub n_0: [f64; 3],
    /// The first tangent `t1`, in W.
    pub tangent1_0: [f64; 3],
    /// The second tangent `t2 = n x t1`, in W.
    pub tangent2_0: [f64; 3],
    /// The share of the point's force the block applies (1 but where a finite face is only
    /// partly covered).
    pub weight: f64,
}

impl LawInputs {
    /// The law inputs of a point with unit normal `n`, penetration `depth`, penetration rate
    /// `depth_rate`, slip velocity `slip_w` (in W, in the plane) and `weight`.
    pub fn new(n: &Vector3<f64>, depth: f64, depth_rate: f64, slip_w: &Vector3<f64>, weight: f64) -> LawInputs {
        let (t1, t2) = tangent_basis(n);
        LawInputs {
            depth,
            depth_rate,
            slip_velocity: [slip_w.dot(&t1), slip_w.dot(&t2)],
            n_0: (*n).into(),
            tangent1_0: t1.into(),
            tangent2_0: t2.into(),
            weight,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dual::Dual;
    use crate::test_rng::XorShift64Star;

    type V = Vector3<f64>;

    #[test]
    fn the_basis_is_right_handed_orthonormal_and_x_y_on_the_ground() {
        let (t1, t2) = tangent_basis(&V::z());
        assert_eq!((t1, t2), (V::x(), V::y()));
        // The ceiling (A above B): t1 = x, t2 = -z x x = -y.
        let (t1, t2) = tangent_basis(&-V::z());
        assert_eq!((t1, t2), (V::x(), -V::y()));
        // A wall along x: x is the normal, so y is projected.
        let (t1, t2) = tangent_basis(&V::x());
        assert_eq!((t1, t2), (V::y(), V::z()));
        let mut rng = XorShift64Star(21);
        for _ in 0..1000 {
            let n = rng.unit();
            let (t1, t2) = tangent_basis(&n);
            assert!((t1.norm() - 1.0).abs() < 1e-15 && (t2.norm() - 1.0).abs() < 1e-15);
            assert!(t1.dot(&n).abs() < 1e-15 && t2.dot(&n).abs() < 1e-15 && t1.dot(&t2).abs() < 1e-15);
            assert!((t1.cross(&t2) - n).norm() < 1e-15, "(t1, t2, n) right-handed");
        }
    }

    #[test]
    fn the_basis_is_continuous_away_from_the_cones_around_x() {
        // Along a great circle from z to y (|n_x| = 0), t1 stays x.
        for k in 0..=100 {
            let a = k as f64 * std::f64::consts::FRAC_PI_2 / 100.0;
            let (t1, _) = tangent_basis(&V::new(0.0, a.sin(), a.cos()));
            assert!((t1 - V::x()).norm() < 1e-15);
        }
    }

    #[test]
    fn the_dual_basis_is_the_derivative_of_the_basis() {
        // Along a direction on the sphere, the tangents move at the finite difference's rate.
        let n0 = V::new(0.3, -0.4, 0.8).normalize();
        let dn = V::new(0.2, 0.5, 0.1);
        let h = 1e-7;
        let at = |s: f64| (n0 + dn * s).normalize();
        let dual_n = {
            let nd = n0 + dn * 0.0;
            let norm = nd.norm();
            // d(n/|n|) = (dn - n (n . dn)) / |n| at s = 0.
            let d = (dn - n0 * n0.dot(&dn)) / norm;
            Vector3::new(Dual::<1>::new(n0.x, [d.x]), Dual::new(n0.y, [d.y]), Dual::new(n0.z, [d.z]))
        };
        let (t1, t2) = tangent_basis(&dual_n);
        let (p1, p2) = tangent_basis(&at(h));
        let (m1, m2) = tangent_basis(&at(-h));
        for (dual, plus, minus) in [(t1, p1, m1), (t2, p2, m2)] {
            for i in 0..3 {
                let fd = (plus[i] - minus[i]) / (2.0 * h);
                assert!((dual[i].d[0] - fd).abs() < 1e-7, "{} vs {fd}", dual[i].d[0]);
            }
        }
    }

    #[test]
    fn the_normal_force_is_clipped_at_zero_and_zero_apart() {
        assert_eq!(normal_force(1e-3, 250.0), 250.0);
        assert_eq!(normal_force(1e-3, -250.0), 0.0);
        assert_eq!(normal_force(0.0, 250.0), 0.0);
        assert_eq!(normal_force(-1e-3, 250.0), 0.0);
    }

    #[test]
    fn the_friction_force_lies_along_the_tangents_and_needs_a_normal_force() {
        let (t1, t2) = tangent_basis(&V::new(0.0, 0.6, 0.8));
        let f = friction_force(10.0, &t1, &t2, &[3.0, -4.0]);
        assert!((f - (t1 * 3.0 - t2 * 4.0)).norm() < 1e-15);
        assert!((f.norm() - 5.0).abs() < 1e-14);
        assert_eq!(friction_force(0.0, &t1, &t2, &[3.0, -4.0]), V::zeros());
    }

    #[test]
    fn the_law_inputs_resolve_the_slip_along_the_tangents() {
        let n = V::new(0.0, 0.6, 0.8);
        let slip = V::new(2.0, 0.8, -0.6); // 2 t1 + 1 t2 with t1 = x, t2 = n x x = (0, 0.8, -0.6)
        let law = LawInputs::new(&n, 1e-3, 0.25, &slip, 1.0);
        assert!((law.slip_velocity[0] - 2.0).abs() < 1e-15 && (law.slip_velocity[1] - 1.0).abs() < 1e-15);
        assert_eq!(law.tangent2_0, [0.0, 0.8, -0.6]);
    }
}
