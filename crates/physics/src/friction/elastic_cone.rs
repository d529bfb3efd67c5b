use nalgebra::Vector3;

use crate::math::Vec3;
use crate::real::Real;

/// Elastic cone friction (spatial_v2 `gcontact`, Azad & Featherstone 2010), one contact point
/// with a tangential deflection state `u` \[m\].
///
/// In contact (`f_n > 0`): the trial force `ft* = -sqrt(d) (Kt u + Dt v_t)`. If
/// `|ft*| <= mu f_n` the point sticks: `f_t = ft*`, `du/dt = v_t`. Otherwise it slips:
/// `f_t = ft* mu f_n / |ft*|`, `du/dt = -(f_t + sqrt(d) Kt u) / (sqrt(d) Dt)`.
/// Out of contact: `f_t = 0`, `du/dt = -(Kt / Dt) u` (the ground relaxes).
///
/// Parameters: `mu` (`friction.mu_static`) >= 0; `stiffness` Kt (`friction.stiffness`)
/// [N/m^1.5] > 0; `damping` Dt (`friction.damping`) [N.s/m^1.5] > 0. With the GroundModel normal
/// law and `Kt = K`, `Dt = D` this is exactly gcontact. `u` is kept in W; only its part in the
/// current tangent plane acts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ElasticCone {
    pub mu: f64,
    pub stiffness: f64,
    pub damping: f64,
}

/// What one evaluation of the cone gives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConeForce<S: Real = f64> {
    /// Tangential force on B [N].
    pub force: Vector3<S>,
    /// `|ft*| <= mu f_n` in contact (gcontact's `fcone <= 1`).
    pub sticking: bool,
    /// du/dt [m/s].
    pub deflection_rate: Vector3<S>,
}

impl ElasticCone {
    /// Force and deflection rate at depth `depth` \[m\], normal force `normal_force` \[N\] (in
    /// contact iff > 0), slip velocity `slip_velocity` [m/s] and deflection `u` \[m\], both
    /// tangential to the unit normal `n`.
    pub fn evaluate<S: Real>(&self, depth: S, normal_force: S, slip_velocity: &Vector3<S>, u: &Vector3<S>) -> ConeForce<S> {
        if normal_force.v() <= 0.0 {
            return ConeForce {
                force: Vector3::zeros(),
                sticking: false,
                deflection_rate: u * S::c(-self.stiffness / self.damping),
            };
        }
        let root_depth = depth.max(S::c(0.0)).sqrt();
        let trial = -(u * S::c(self.stiffness) + slip_velocity * S::c(self.damping)) * root_depth;
        let limit = normal_force * self.mu;
        let magnitude = S::norm(&trial);
        if magnitude.v() <= limit.v() {
            return ConeForce { force: trial, sticking: true, deflection_rate: *slip_velocity };
        }
        let force = trial * (limit / magnitude);
        let deflection_rate = -(force + u * (root_depth * self.stiffness)) / (root_depth * self.damping);
        ConeForce { force, sticking: false, deflection_rate }
    }

    /// Advances `u` over `h` \[s\] with depth, normal force and slip velocity held.
    ///
    /// Exact out of contact (exponential relaxation) and while sticking (u grows linearly); the
    /// moment the trial force reaches the cone is found exactly (a quadratic in time). While
    /// slipping, `w = Kt u + Dt v_t` obeys `dw/dt = (Kt / Dt) (mu f_n / sqrt(d) ŵ - w + Dt v_t)`,
    /// which is linear with an exact exponential solution when the direction ŵ does not change
    /// (every motion along one line, gcontact's 2-D case included); the direction is frozen over
    /// `h`, so callers keep `h` small (`solver.max_step`) for 3-D slip that turns.
    pub fn advance(&self, depth: f64, normal_force: f64, slip_velocity: &Vec3, u: &mut Vec3, h: f64) {
        let rate = self.stiffness / self.damping;
        if normal_force <= 0.0 {
            *u *= (-rate * h).exp();
            return;
        }
        let root_depth = depth.max(0.0).sqrt();
        // Cone radius for w = Kt u + Dt v_t: |ft*| = sqrt(d) |w| <= mu f_n.
        let radius = self.mu * normal_force / root_depth;
        let mut remaining = h;
        let w = *u * self.stiffness + slip_velocity * self.damping;
        if w.norm() <= radius {
            // Sticking: w(τ) = w + Kt v_t τ; first τ with |w(τ)| = radius.
            let growth = slip_velocity * self.stiffness;
            let a = growth.norm_squared();
            let b = 2.0 * w.dot(&growth);
            let c = w.norm_squared() - radius * radius;
            let discriminant = (b * b - 4.0 * a * c).max(0.0);
            let to_cone = if a > 0.0 { (-b + discriminant.sqrt()) / (2.0 * a) } else { f64::INFINITY };
            if to_cone >= remaining {
                *u += slip_velocity * remaining;
                return;
            }
            *u += slip_velocity * to_cone;
            remaining -= to_cone;
        }
        let w = *u * self.stiffness + slip_velocity * self.damping;
        let norm = w.norm();
        if norm == 0.0 {
            return;
        }
        let target = w * (radius / norm) + slip_velocity * self.damping;
        let decay = (-rate * remaining).exp();
        let w_end = target + (w - target) * decay;
        *u = (w_end - slip_velocity * self.damping) / self.stiffness;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cone() -> ElasticCone {
        ElasticCone { mu: 0.5, stiffness: 1e5, damping: 1e3 }
    }

    #[test]
    fn relaxes_exponentially_out_of_contact() {
        let mut u = Vec3::new(1e-3, -2e-3, 0.0);
        cone().advance(0.0, 0.0, &Vec3::zeros(), &mut u, 0.01);
        let expected = (-100.0_f64 * 0.01).exp();
        assert!((u - Vec3::new(1e-3, -2e-3, 0.0) * expected).norm() < 1e-18);
    }

    #[test]
    fn sticks_then_slips_exactly_when_the_cone_is_reached_in_one_dimension() {
        // d = 1e-4 (sqrt = 1e-2), f_n = 10 N: cone 5 N = 1e-2 |Kt u + Dt v| -> |w| = 500.
        let law = cone();
        let v = Vec3::new(1e-3, 0.0, 0.0);
        let (depth, f_n) = (1e-4, 10.0);
        // w = 1e5 u + 1 reaches 500 at u = 4.99e-3, i.e. after 4.99 s of sliding at 1 mm/s.
        let mut u = Vec3::zeros();
        law.advance(depth, f_n, &v, &mut u, 4.0);
        assert!((u.x - 4e-3).abs() < 1e-15);
        assert!(law.evaluate(depth, f_n, &v, &u).sticking);
        // Past the cone: slip, du/dt = (radius - Kt u) / Dt from u(4.99 s) = 4.99e-3, which
        // converges exponentially to the steady slip deflection radius / Kt.
        law.advance(depth, f_n, &v, &mut u, 1.0);
        let steady = 500.0 / 1e5;
        let expected = steady + (4.99e-3 - steady) * (-100.0_f64 * 0.01).exp();
        assert!((u.x - expected).abs() < 1e-12, "{} vs {expected}", u.x);
        let slipping = law.evaluate(depth, f_n, &v, &u);
        assert!(!slipping.sticking);
        assert!((slipping.force.norm() - 5.0).abs() < 1e-9);
    }
}
