use super::TangentialState;
use nalgebra::Vector3;

use crate::math::Vec3;
use crate::real::Real;

/// Stiction with a maximum deformation (Adams STICTION / MAX_STICTION_DEFORMATION): true static
/// friction without a velocity dead band, as a tangential spring with deflection state `s` \[m\].
///
/// Sticking: `f_t = -(mu_s f_n / delta) s`, `ds/dt = v_t`; the spring reaches `mu_s f_n` at
/// `|s| = delta`, where the point breaks away. Slipping: `s = (mu_d / mu_s) delta v_t / |v_t|`,
/// so the same spring formula gives `f_t = -mu_d f_n v_t / |v_t|`; the point sticks again (from
/// that deflection, so the force is continuous) as soon as the slip velocity stops stretching the
/// spring (`v_t · s <= 0`). Out of contact the deflection is zero.
///
/// Parameters: `mu_static` (`friction.mu_static`) > 0, `mu_dynamic` (`friction.mu_dynamic`) in
/// [0, mu_s], `max_deformation` delta (`friction.max_deformation`) \[m\] > 0. Source: MSC Adams
/// CONTACT (seed 003), which describes the behaviour but not its equations; these are the
/// simplest ones with that behaviour, and they are exact for held inputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stiction {
    pub mu_static: f64,
    pub mu_dynamic: f64,
    pub max_deformation: f64,
}

impl Stiction {
    /// Tangential force on B \[N\] for normal force `normal_force` \[N\].
    pub fn force<S: Real>(&self, normal_force: S, deflection: &Vector3<S>) -> Vector3<S> {
        if normal_force.v() <= 0.0 {
            return Vector3::zeros();
        }
        deflection * (normal_force * -self.mu_static / self.max_deformation)
    }

    /// Advances the state over `h` \[s\] with normal force and slip velocity held; exact.
    pub fn advance(&self, normal_force: f64, slip_velocity: &Vec3, state: &mut TangentialState, h: f64) {
        if normal_force <= 0.0 {
            *state = TangentialState::default();
            return;
        }
        if state.slipping {
            if slip_velocity.dot(&state.deflection) > 0.0 {
                self.slip_along(slip_velocity, state);
                return;
            }
            state.slipping = false;
        }
        // Sticking: s(τ) = s + v_t τ until |s(τ)| = delta.
        let s = state.deflection;
        let a = slip_velocity.norm_squared();
        let b = 2.0 * s.dot(slip_velocity);
        let c = s.norm_squared() - self.max_deformation * self.max_deformation;
        let to_break = if a > 0.0 { (-b + (b * b - 4.0 * a * c).max(0.0).sqrt()) / (2.0 * a) } else { f64::INFINITY };
        if to_break >= h {
            state.deflection += slip_velocity * h;
        } else {
            state.slipping = true;
            self.slip_along(slip_velocity, state);
        }
    }

    /// The slipping deflection for slip velocity `slip_velocity`: `(mu_d / mu_s) delta v_t / |v_t|`
    /// (unchanged at rest).
    pub fn slip_along(&self, slip_velocity: &Vec3, state: &mut TangentialState) {
        let speed = slip_velocity.norm();
        if speed > 0.0 {
            state.deflection = slip_velocity * (self.mu_dynamic / self.mu_static * self.max_deformation / speed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_up_to_mu_static_then_slides_at_mu_dynamic_and_sticks_again_on_reversal() {
        let law = Stiction { mu_static: 0.6, mu_dynamic: 0.4, max_deformation: 1e-4 };
        let f_n = 100.0;
        let v = Vec3::new(1e-3, 0.0, 0.0);
        let mut state = TangentialState::default();
        law.advance(f_n, &v, &mut state, 0.05);
        assert!(!state.slipping);
        assert!((law.force(f_n, &state.deflection).x + 0.6 * 100.0 * 0.5).abs() < 1e-12);
        law.advance(f_n, &v, &mut state, 0.06);
        assert!(state.slipping);
        assert!((law.force(f_n, &state.deflection).x + 0.4 * 100.0).abs() < 1e-12);
        // The slip velocity reverses: the point sticks again from the dynamic deflection.
        law.advance(f_n, &(-v), &mut state, 0.01);
        assert!(!state.slipping);
        let expected = 0.4 / 0.6 * 1e-4 - 1e-5;
        assert!((state.deflection.x - expected).abs() < 1e-18);
    }
}
