//! One contact point under Model Exchange: the rate of its tangential deflection (a continuous
//! state), its stick/slip event indicator, and what Event Mode does to its state.
//!
//! Co-simulation integrates the same [`PointState`] over a step with the inputs held
//! (`contact::advance`); Model Exchange lets the importer's integrator do it from these rates,
//! and locates the instants where the right-hand side switches with event indicators, as
//! spatial_v2's `gcontact` flags make/break and stick/slip:
//!
//! - make/break: the point's separation (positive apart), a continuous function of the inputs;
//! - stick/slip (stateful friction): positive while the point sticks, negative while it slips,
//!   in newtons: ElasticCone `mu f_n - |ft*|` (gcontact's `fcone <= 1`); Stiction while
//!   sticking `mu_s f_n - |f_t| = mu_s f_n (1 - |s| / delta)`, while slipping
//!   `-mu_d f_n cos(v_t, s)` (it sticks again when the slip stops stretching the spring). A point
//!   without normal force reads [`NO_FORCE_STICK_INDICATOR`]: a constant, so the indicator jumps
//!   only at a make or break, which the separation indicator flags at the same instant.

use super::contact::{Laws, PointForce, PointState};
use super::friction::FrictionLaw;
use super::math::Vec3;
use super::normal::{NormalLaw, MIN_ONSET_SPEED};

/// The stick/slip indicator of a point that carries no normal force \[N\] (nothing to slip).
pub const NO_FORCE_STICK_INDICATOR: f64 = 1.0;

/// Relative tolerance on Stiction's break-away deflection at an event: the integrator stops
/// just past the zero of the indicator, rounding may leave `|s|` a hair below delta.
const BREAK_TOLERANCE: f64 = 1e-9;

/// What the integrator needs of one point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointRates {
    /// d/dt of the tangential deflection [m/s], resolved in W.
    pub deflection_rate: Vec3,
    /// The stick/slip event indicator \[N\] (positive: sticks).
    pub stick: f64,
}

/// The deflection rate and stick/slip indicator of the point evaluated as `at` in `state`.
///
/// ElasticCone: the law's `du/dt` for the part of `u` in the tangent plane; the part along the
/// normal (left by a turning normal; it carries no force) relaxes at `Kt / Dt` like an unloaded
/// ground. Stiction: `ds/dt = v_t` while sticking, 0 while slipping (the slipping deflection is
/// set in Event Mode and follows a turning slip direction through step events, see
/// [`needs_event`]). Other laws have no deflection: rate 0.
pub fn rates(at: &PointForce, laws: &Laws, state: &PointState) -> PointRates {
    let n = at.normal_ab_w;
    let u = state.tangential.deflection;
    let u_normal = n * u.dot(&n);
    let u_tangent = u - u_normal;
    let f_n = at.law_normal_force;
    match laws.friction {
        FrictionLaw::ElasticCone(law) => {
            let cone = law.evaluate(at.depth(), f_n, &at.slip_velocity_w, &u_tangent);
            let relax = law.stiffness / law.damping;
            let stick = if f_n > 0.0 {
                let trial = (u_tangent * law.stiffness + at.slip_velocity_w * law.damping) * at.depth().sqrt();
                law.mu * f_n - trial.norm()
            } else {
                NO_FORCE_STICK_INDICATOR
            };
            PointRates { deflection_rate: cone.deflection_rate - u_normal * relax, stick }
        }
        FrictionLaw::Stiction(law) => {
            if f_n <= 0.0 {
                return PointRates { deflection_rate: Vec3::zeros(), stick: NO_FORCE_STICK_INDICATOR };
            }
            if state.tangential.slipping {
                let speed = at.slip_velocity_w.norm();
                let s_norm = u.norm();
                let cosine = if speed > 0.0 && s_norm > 0.0 { at.slip_velocity_w.dot(&u) / (speed * s_norm) } else { 0.0 };
                PointRates { deflection_rate: Vec3::zeros(), stick: -law.mu_dynamic * f_n * cosine }
            } else {
                let stick = law.mu_static * f_n * (1.0 - u.norm() / law.max_deformation);
                PointRates { deflection_rate: at.slip_velocity_w, stick }
            }
        }
        _ => PointRates { deflection_rate: Vec3::zeros(), stick: NO_FORCE_STICK_INDICATOR },
    }
}

/// Event Mode at the point evaluated as `at`: the discrete states take their values for this
/// instant. Answers true when the deflection (a continuous state) changed.
///
/// - Restitution: a point that touches (separation <= 0) without an onset speed gets the
///   current approach speed `dd` (at least [`MIN_ONSET_SPEED`]); the make event stops the
///   integrator where the separation crosses zero, so this is the approach speed at the onset
///   to the event location's accuracy. A point apart forgets its onset speed.
/// - Stiction: a sticking point whose deflection reached delta breaks away (the deflection jumps
///   to the slipping one, `(mu_d / mu_s) delta v_t / |v_t|`); a slipping point sticks again
///   when its slip no longer stretches the spring, or takes the current slip direction; a point
///   apart loses its deflection.
pub fn event_update(at: &PointForce, laws: &Laws, state: &mut PointState) -> bool {
    if let NormalLaw::Restitution(_) = laws.normal {
        if at.separation > 0.0 {
            state.onset_speed = 0.0;
        } else if state.onset_speed <= 0.0 {
            state.onset_speed = at.depth_rate.max(MIN_ONSET_SPEED);
        }
    }
    let FrictionLaw::Stiction(law) = laws.friction else { return false };
    let before = state.tangential;
    let tangential = &mut state.tangential;
    if at.law_normal_force <= 0.0 {
        if at.separation > 0.0 {
            *tangential = Default::default();
        }
    } else if tangential.slipping {
        if at.slip_velocity_w.dot(&tangential.deflection) <= 0.0 {
            tangential.slipping = false;
        } else {
            law.slip_along(&at.slip_velocity_w, tangential);
        }
    } else if tangential.deflection.norm() >= law.max_deformation * (1.0 - BREAK_TOLERANCE) {
        tangential.slipping = true;
        law.slip_along(&at.slip_velocity_w, tangential);
    }
    tangential.deflection != before.deflection
}

/// After an integrator step: true when the point needs Event Mode although no indicator
/// crossed zero (a step event): a touching Restitution point without an onset speed (it was
/// in contact from the start), or a slipping Stiction point whose slip direction turned away
/// from its deflection (the slipping deflection follows the slip direction).
pub fn needs_event(at: &PointForce, laws: &Laws, state: &PointState) -> bool {
    if matches!(laws.normal, NormalLaw::Restitution(_)) && at.separation <= 0.0 && state.onset_speed <= 0.0 {
        return true;
    }
    if let FrictionLaw::Stiction(law) = laws.friction {
        if state.tangential.slipping && at.law_normal_force > 0.0 {
            let mut aligned = state.tangential;
            law.slip_along(&at.slip_velocity_w, &mut aligned);
            return (aligned.deflection - state.tangential.deflection).norm() > 1e-9 * law.max_deformation;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::friction::{ElasticCone, Stiction, TangentialState};
    use crate::normal::{GroundModel, Restitution, RestitutionModel};

    fn point(depth: f64, depth_rate: f64, f_n: f64, slip: Vec3) -> PointForce {
        PointForce {
            point_w: Vec3::zeros(),
            normal_ab_w: Vec3::z(),
            separation: -depth,
            depth_rate,
            normal_force: f_n,
            law_normal_force: f_n,
            friction_force_w: Vec3::zeros(),
            couple_w: Vec3::zeros(),
            slip_velocity_w: slip,
            sticking: None,
            passed_through: false,
        }
    }

    fn laws(normal: NormalLaw, friction: FrictionLaw) -> Laws {
        Laws { normal, friction, max_depth: 0.0, torque_radius: 0.0, rolling: 0.0, rolling_radius: 0.0, rolling_speed: 1.0 }
    }

    #[test]
    fn elastic_cone_rates_are_the_laws_and_the_indicator_crosses_zero_at_the_closed_form_time() {
        // The drag of test_stick_slip.py: d = 1e-4, f_n = 100 N, mu = 0.5, Kt = 1e6, Dt = 2.5e3,
        // v = 1.2e-3: sticks until t* = (mu f_n / sqrt(d) - Dt v) / (Kt v).
        let cone = ElasticCone { mu: 0.5, stiffness: 1e6, damping: 2.5e3 };
        let l = laws(NormalLaw::GroundModel(GroundModel { stiffness: 1e8, damping: 1e6 }), FrictionLaw::ElasticCone(cone));
        let v = Vec3::new(1.2e-3, 0.0, 0.0);
        let at = point(1e-4, 0.0, 100.0, v);
        let t_star = (0.5 * 100.0 / 1e-2 - 2.5e3 * 1.2e-3) / (1e6 * 1.2e-3);
        let indicator = |t: f64| rates(&at, &l, &PointState { tangential: TangentialState { deflection: v * t, slipping: false }, onset_speed: 0.0 }).stick;
        assert!(indicator(0.0) > 0.0 && indicator(t_star * 0.999) > 0.0 && indicator(t_star * 1.001) < 0.0);
        assert!(indicator(t_star).abs() < 1e-9, "{}", indicator(t_star));
        // Sticking: du/dt = v_t; slipping: the law's rate; a normal part relaxes.
        let sticking = rates(&at, &l, &PointState::default());
        assert_eq!(sticking.deflection_rate, v);
        let u = Vec3::new(6e-3, 0.0, 1e-3);
        let slipping = rates(&at, &l, &PointState { tangential: TangentialState { deflection: u, slipping: false }, onset_speed: 0.0 });
        let expected = cone.evaluate(1e-4, 100.0, &v, &Vec3::new(6e-3, 0.0, 0.0)).deflection_rate - Vec3::new(0.0, 0.0, 1e-3) * 400.0;
        assert!((slipping.deflection_rate - expected).norm() < 1e-15);
        // Out of contact: relaxation and the constant indicator.
        let apart = rates(&point(0.0, 0.0, 0.0, v), &l, &PointState { tangential: TangentialState { deflection: u, slipping: false }, onset_speed: 0.0 });
        assert_eq!(apart.stick, NO_FORCE_STICK_INDICATOR);
        assert!((apart.deflection_rate + u * 400.0).norm() < 1e-15);
    }

    #[test]
    fn stiction_breaks_away_at_delta_and_sticks_again_on_reversal_in_event_mode() {
        let law = Stiction { mu_static: 0.6, mu_dynamic: 0.4, max_deformation: 1e-4 };
        let l = laws(NormalLaw::GroundModel(GroundModel { stiffness: 1e8, damping: 0.0 }), FrictionLaw::Stiction(law));
        let v = Vec3::new(1.6e-3, 0.0, 0.0);
        let at = point(1e-4, 0.0, 100.0, v);
        let mut state = PointState::default();
        state.tangential.deflection = Vec3::new(0.5e-4, 0.0, 0.0);
        let r = rates(&at, &l, &state);
        assert_eq!(r.deflection_rate, v);
        assert!((r.stick - 0.6 * 100.0 * 0.5).abs() < 1e-12);
        assert!(!event_update(&at, &l, &mut state), "below delta nothing happens");
        state.tangential.deflection = Vec3::new(1e-4 * (1.0 + 1e-12), 0.0, 0.0);
        assert!(rates(&at, &l, &state).stick < 0.0);
        assert!(event_update(&at, &l, &mut state));
        assert!(state.tangential.slipping);
        assert!((state.tangential.deflection.x - 0.4 / 0.6 * 1e-4).abs() < 1e-18);
        assert_eq!(rates(&at, &l, &state).deflection_rate, Vec3::zeros());
        assert!((rates(&at, &l, &state).stick + 0.4 * 100.0).abs() < 1e-12);
        // Reversal: the indicator turns positive and Event Mode sticks from the same deflection.
        let back = point(1e-4, 0.0, 100.0, -v);
        assert!(rates(&back, &l, &state).stick > 0.0);
        assert!(!event_update(&back, &l, &mut state));
        assert!(!state.tangential.slipping);
        // A turning slip direction asks for a step event.
        let mut slipping = PointState::default();
        slipping.tangential = TangentialState { deflection: Vec3::new(0.4 / 0.6 * 1e-4, 0.0, 0.0), slipping: true };
        assert!(!needs_event(&at, &l, &slipping));
        assert!(needs_event(&point(1e-4, 0.0, 100.0, Vec3::new(1.6e-3, 1e-4, 0.0)), &l, &slipping));
    }

    #[test]
    fn restitution_takes_the_approach_speed_at_the_make_event_and_forgets_it_apart() {
        let law = Restitution { stiffness: 1e6, exponent: 1.5, restitution: 0.8, model: RestitutionModel::HuntCrossley };
        let l = laws(NormalLaw::Restitution(law), FrictionLaw::None);
        let mut state = PointState::default();
        // Just past the onset: separation a hair below zero, approaching at 2 m/s.
        assert!(needs_event(&point(1e-15, 2.0, 1e-9, Vec3::zeros()), &l, &state));
        event_update(&point(1e-15, 2.0, 1e-9, Vec3::zeros()), &l, &mut state);
        assert_eq!(state.onset_speed, 2.0);
        // Held while in contact, whatever the later speed.
        event_update(&point(1e-3, -1.0, 10.0, Vec3::zeros()), &l, &mut state);
        assert_eq!(state.onset_speed, 2.0);
        assert!(!needs_event(&point(1e-3, -1.0, 10.0, Vec3::zeros()), &l, &state));
        let mut apart = point(0.0, -1.0, 0.0, Vec3::zeros());
        apart.separation = 1e-12;
        event_update(&apart, &l, &mut state);
        assert_eq!(state.onset_speed, 0.0);
    }
}
