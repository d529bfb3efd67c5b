//! The Restitution normal law (physics.md: `f_n = k d^n (1 + chi dd)`, chi from the coefficient of
//! restitution e and the onset speed v0) against what it promises: a free mass m dropping onto the
//! surface at speed v_in leaves it at e v_in.
//!
//! The mass is integrated with a small RK4 integrator (the same scheme as laws_closed_forms.rs)
//! using the FMU's onset-speed convention: the point's v0 is 0 until a step starts in contact; the
//! law then uses the current approach speed in its place; the step that starts in contact freezes
//! v0 = `next_onset_speed(depth, rate, v0)` for the rest of the contact, exactly as
//! `physics::contact::advance` does after each (sub-)step.
//!
//! Closed forms and how accurate each model is:
//!
//! - Every law of the Hunt-Crossley family `k d^n (1 + chi dd)` loses, to first order in chi v0,
//!   the energy `(2/3) chi m v0^3` in one impact, whatever n: `e_meas = 1 - (2/3) chi v0 +
//!   O((chi v0)^2)` (Hunt and Crossley 1975; the test `hunt_crossley_restitution_is_one_minus_
//!   two_thirds_alpha_v0_for_small_speeds` of laws_closed_forms.rs checks it), and the measured e
//!   depends on chi v0 and n only (scale the depth by d_max and the time by d_max / v0).
//! - Hunt-Crossley `chi v0 = 3 (1 - e) / 2` and Lankarani-Nikravesh `chi v0 = 3 (1 - e^2) / 4`
//!   make the first-order term exactly `1 - e` (LN: up to `(1 - e)^2`): both are accurate only for
//!   e near 1, with an error of order (1 - e)^2 (both derivations assume the dissipated energy is
//!   small against the energy stored at the deepest point, i.e. e close to 1); far from 1 they
//!   overestimate e badly (about +0.16 and +0.23 at e = 0.5).
//! - Flores et al. 2011 (`chi v0 = 8 (1 - e) / (5 e)`) derived chi for the whole range 0 < e <= 1
//!   and report close agreement there. Its first-order term gives `e_meas = 1 - 16 (1 - e) /
//!   (15 e)`, i.e. a deviation of -(1 - e)/15 near e = 1; integrated, the deviation stays between
//!   5.5 and 6.7 % of the dissipated part 1 - e over e = 0.3 ... 0.99 (-0.044 at e = 0.3, always
//!   below the requested e). The tolerance below, |e_meas - e| <= 0.08 (1 - e), is that offset plus
//!   margin: what "close agreement over the whole range" means quantitatively, and tight enough to
//!   catch a wrong chi (Hunt-Crossley's chi at e = 0.5 misses by 0.33 (1 - e)).
//!
//! Numbers: m = 1 kg, k = 1e6 N/m^1.5, n = 1.5, v_in = 1 m/s unless stated; step d_max / v_in /
//! 4000, enough for 1e-7 on e (checked by the e = 1 case and by halving the step).

use contact_force::block::Parameters;
use contact_force::physics::normal::{NormalLaw, NormalLawKind, RestitutionModel, MIN_ONSET_SPEED};

const MODELS: [RestitutionModel; 3] = [RestitutionModel::HuntCrossley, RestitutionModel::LankaraniNikravesh, RestitutionModel::Flores];

/// The Restitution law as the block builds it from its parameters (validated).
fn restitution(k: f64, n: f64, e: f64, model: RestitutionModel) -> NormalLaw {
    let mut p = Parameters::default();
    p.normal.law = NormalLawKind::Restitution.value();
    p.normal.stiffness = k;
    p.normal.exponent = n;
    p.normal.restitution = e;
    p.normal.restitution_model = model.value();
    let (validated, _) = p.validate(None).unwrap_or_else(|err| panic!("{model:?}, e = {e}: {err}"));
    assert_eq!(validated.laws.normal.kind(), NormalLawKind::Restitution);
    validated.laws.normal
}

/// chi v0 of each model, written again from physics.md.
fn chi_v0(model: RestitutionModel, e: f64) -> f64 {
    match model {
        RestitutionModel::HuntCrossley => 3.0 * (1.0 - e) / 2.0,
        RestitutionModel::LankaraniNikravesh => 3.0 * (1.0 - e * e) / 4.0,
        RestitutionModel::Flores => 8.0 * (1.0 - e) / (5.0 * e),
    }
}

/// Largest depth of an undamped impact: `k d^(n+1) / (n+1) = m v^2 / 2`.
fn undamped_max_depth(m: f64, k: f64, n: f64, v: f64) -> f64 {
    ((n + 1.0) * m * v * v / (2.0 * k)).powf(1.0 / (n + 1.0))
}

struct Impact {
    /// Speed when the depth returns to 0 (interpolated inside the last step).
    exit_speed: f64,
    max_depth: f64,
    /// Smallest normal force met at any RK4 stage.
    min_force: f64,
    /// Largest force met at any RK4 stage (finite check).
    max_force: f64,
    /// The onset speed the contact froze.
    onset_speed: f64,
    /// Largest |E - E0| / E0 of `m v^2 / 2 + k d^(n+1) / (n+1)` (meaningful for e = 1).
    energy_drift: f64,
}

/// One impact of a free mass `m` arriving at `v_in` on a surface with `law` (stiffness `k`,
/// exponent `n` for the energy), RK4 with `steps_per_scale` steps per d_max / v_in.
fn impact(law: &NormalLaw, m: f64, k: f64, n: f64, v_in: f64, steps_per_scale: f64) -> Impact {
    let scale = undamped_max_depth(m, k, n, v_in) / v_in;
    let h = scale / steps_per_scale;
    let energy = |d: f64, v: f64| 0.5 * m * v * v + k * d.max(0.0).powf(n + 1.0) / (n + 1.0);
    let e0 = energy(0.0, v_in);
    let (mut d, mut v) = (0.0, v_in);
    let mut onset = 0.0;
    let mut result = Impact { exit_speed: f64::NAN, max_depth: 0.0, min_force: f64::INFINITY, max_force: 0.0, onset_speed: 0.0, energy_drift: 0.0 };
    let mut t = 0.0;
    while t < 1000.0 * scale {
        let mut forces = [0.0; 4];
        let mut acc = |i: usize, d: f64, v: f64| {
            forces[i] = law.force(d, v, onset);
            -forces[i] / m
        };
        let (k1d, k1v) = (v, acc(0, d, v));
        let (k2d, k2v) = (v + 0.5 * h * k1v, acc(1, d + 0.5 * h * k1d, v + 0.5 * h * k1v));
        let (k3d, k3v) = (v + 0.5 * h * k2v, acc(2, d + 0.5 * h * k2d, v + 0.5 * h * k2v));
        let (k4d, k4v) = (v + h * k3v, acc(3, d + h * k3d, v + h * k3v));
        for f in forces {
            assert!(f.is_finite(), "non-finite force at d = {d}, v = {v}, v0 = {onset}");
            result.min_force = result.min_force.min(f);
            result.max_force = result.max_force.max(f);
        }
        let next_d = d + h / 6.0 * (k1d + 2.0 * k2d + 2.0 * k3d + k4d);
        let next_v = v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
        // The FMU's step: the state advances from the evaluation at the start of the step.
        onset = law.next_onset_speed(d, v, onset);
        if onset > 0.0 {
            result.onset_speed = onset;
        }
        if next_d < 0.0 {
            let s = d / (d - next_d);
            result.exit_speed = -(v + s * (next_v - v));
            // Leaving contact forgets the onset speed.
            assert_eq!(law.next_onset_speed(next_d.max(0.0), next_v, onset), 0.0);
            return result;
        }
        d = next_d;
        v = next_v;
        t += h;
        result.max_depth = result.max_depth.max(d);
        result.energy_drift = result.energy_drift.max((energy(d, v) - e0).abs() / e0);
    }
    panic!("the mass did not leave the surface within 1000 time scales (v = {v}, d = {d})");
}

fn measured_e(model: RestitutionModel, e: f64) -> f64 {
    let (m, k, n, v_in) = (1.0, 1e6, 1.5, 1.0);
    let law = restitution(k, n, e, model);
    let run = impact(&law, m, k, n, v_in, 4000.0);
    assert!(run.min_force >= 0.0);
    // The onset speed is the arrival speed (to the deceleration within the first step).
    assert!((run.onset_speed - v_in).abs() < 1e-6 * v_in, "v0 = {}", run.onset_speed);
    run.exit_speed / v_in
}

#[test]
fn integration_is_accurate_enough_for_the_restitution_tolerances() {
    // Halving the step changes e by far less than any tolerance below.
    let (m, k, n) = (1.0, 1e6, 1.5);
    for model in MODELS {
        let law = restitution(k, n, 0.5, model);
        let a = impact(&law, m, k, n, 1.0, 4000.0).exit_speed;
        let b = impact(&law, m, k, n, 1.0, 8000.0).exit_speed;
        assert!((a - b).abs() < 1e-7, "{model:?}: {a} vs {b}");
    }
}

#[test]
fn flores_reproduces_e_over_the_whole_range() {
    for e in [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95] {
        let measured = measured_e(RestitutionModel::Flores, e);
        println!("Flores e = {e}: measured {measured:.6} ({:+.5}, {:.4} of 1 - e)", measured - e, (measured - e).abs() / (1.0 - e));
        assert!((measured - e).abs() <= 0.08 * (1.0 - e), "Flores, e = {e}: measured {measured}");
        assert!(measured < e, "Flores, e = {e}: the first-order offset -(1 - e)/15 has the wrong sign: {measured}");
    }
}

#[test]
fn flores_first_order_term_near_e_one() {
    // e_meas = 1 - (2/3) chi v0 + O((chi v0)^2) with chi v0 = 8 (1 - e) / (5 e).
    for e in [0.99, 0.995, 0.999] {
        let measured = measured_e(RestitutionModel::Flores, e);
        let x = chi_v0(RestitutionModel::Flores, e);
        let first_order = 1.0 - 2.0 / 3.0 * x;
        assert!((measured - first_order).abs() <= x * x, "e = {e}: measured {measured}, first order {first_order}");
    }
}

#[test]
fn hunt_crossley_and_lankarani_nikravesh_are_accurate_near_e_one() {
    // Their first-order term is 1 - e (LN: 1 - e - (1 - e)^2 / 2); the remainder is second order:
    // the second-order term of the Hunt-Crossley family, about 0.44 (chi v0)^2 (laws_closed_forms.rs),
    // is 0.99 (1 - e)^2 here, so the deviation is about +1.0 (1 - e)^2 for Hunt-Crossley and
    // +1.5 (1 - e)^2 for Lankarani-Nikravesh (measured 0.90 ... 0.99 and 1.32 ... 1.48 for
    // e = 0.9 ... 0.99). The bounds leave a margin of a third.
    for (model, coefficient) in [(RestitutionModel::HuntCrossley, 1.5), (RestitutionModel::LankaraniNikravesh, 2.0)] {
        for e in [0.9, 0.95, 0.98, 0.99] {
            let measured = measured_e(model, e);
            println!("{model:?} e = {e}: measured {measured:.6} ({:+.6}, {:.3} (1-e)^2)", measured - e, (measured - e) / (1.0 - e).powi(2));
            assert!((measured - e).abs() <= coefficient * (1.0 - e).powi(2), "{model:?}, e = {e}: measured {measured}");
        }
    }
}

#[test]
fn hunt_crossley_and_lankarani_nikravesh_overestimate_e_far_from_one() {
    // The documented limitation that the Flores model removes: at e = 0.5 both lose too little.
    for model in [RestitutionModel::HuntCrossley, RestitutionModel::LankaraniNikravesh] {
        let measured = measured_e(model, 0.5);
        assert!(measured - 0.5 > 0.1, "{model:?}: measured {measured}");
        assert!(measured < 1.0);
    }
}

#[test]
fn measured_e_depends_on_the_requested_e_only_not_on_mass_stiffness_or_speed() {
    // chi ~ 1 / v0 with v0 frozen at the arrival speed makes the impact self-similar.
    for model in MODELS {
        let e = 0.7;
        let reference = measured_e(model, e);
        for (m, k, n, v_in) in [(0.1, 1e5, 1.5, 0.05), (5.0, 1e8, 1.5, 3.0), (1.0, 1e6, 1.5, 20.0)] {
            let law = restitution(k, n, e, model);
            let run = impact(&law, m, k, n, v_in, 4000.0);
            let measured = run.exit_speed / v_in;
            assert!((measured - reference).abs() < 1e-6, "{model:?} m = {m}, k = {k}, v = {v_in}: {measured} vs {reference}");
        }
    }
}

#[test]
fn e_one_dissipates_nothing() {
    let (m, k, n, v_in) = (2.0, 1e6, 1.5, 0.8);
    for model in MODELS {
        let law = restitution(k, n, 1.0, model);
        let run = impact(&law, m, k, n, v_in, 4000.0);
        assert!(run.energy_drift < 1e-10, "{model:?}: energy drift {}", run.energy_drift);
        assert!((run.exit_speed - v_in).abs() < 1e-7 * v_in, "{model:?}: exit speed {}", run.exit_speed);
        let expected = undamped_max_depth(m, k, n, v_in);
        assert!((run.max_depth - expected).abs() < 1e-6 * expected, "{model:?}: max depth {} vs {expected}", run.max_depth);
    }
}

#[test]
fn slow_arrivals_use_the_minimum_onset_speed_and_stay_finite() {
    // v_in far below MIN_ONSET_SPEED: chi = chi(MIN_ONSET_SPEED), so chi v_in is small and
    // e_meas = 1 - (2/3) chi(MIN) v_in to first order: nearly elastic, never a blow-up.
    let (m, k, n, v_in) = (1.0, 1e6, 1.5, 1e-5);
    for model in MODELS {
        for e in [0.3, 0.8] {
            let law = restitution(k, n, e, model);
            let run = impact(&law, m, k, n, v_in, 4000.0);
            assert_eq!(run.onset_speed, MIN_ONSET_SPEED);
            assert!(run.max_force.is_finite() && run.min_force >= 0.0);
            let x = chi_v0(model, e) * v_in / MIN_ONSET_SPEED;
            let measured = run.exit_speed / v_in;
            assert!((measured - (1.0 - 2.0 / 3.0 * x)).abs() <= x * x, "{model:?}, e = {e}: {measured}");
            assert!(measured > e && measured <= 1.0);
        }
    }
}

#[test]
fn onset_speed_is_frozen_while_in_contact_and_forgotten_outside() {
    let law = restitution(1e6, 1.5, 0.5, RestitutionModel::HuntCrossley);
    // First step in contact: freezes the approach speed (at least MIN_ONSET_SPEED).
    assert_eq!(law.next_onset_speed(1e-4, 0.7, 0.0), 0.7);
    assert_eq!(law.next_onset_speed(1e-4, 1e-7, 0.0), MIN_ONSET_SPEED);
    assert_eq!(law.next_onset_speed(1e-4, 0.0, 0.0), MIN_ONSET_SPEED);
    assert_eq!(law.next_onset_speed(1e-4, -0.3, 0.0), MIN_ONSET_SPEED);
    // Later steps keep it, whatever the approach speed does.
    assert_eq!(law.next_onset_speed(2e-4, 0.1, 0.7), 0.7);
    assert_eq!(law.next_onset_speed(2e-4, -2.0, 0.7), 0.7);
    // Out of contact it is forgotten.
    assert_eq!(law.next_onset_speed(0.0, 0.7, 0.7), 0.0);
    // The force with a frozen v0 is k d^n (1 + chi(v0) dd), not chi(dd).
    let (d, dd, v0): (f64, f64, f64) = (2e-4, 0.1, 0.7);
    let expected = 1e6 * d.powf(1.5) * (1.0 + 1.5 * 0.5 / v0 * dd);
    assert!((law.force(d, dd, v0) - expected).abs() <= 1e-12 * expected);
    // Before the first step the current approach speed stands in for v0.
    let stand_in = 1e6 * d.powf(1.5) * (1.0 + 1.5 * 0.5 / dd * dd);
    assert!((law.force(d, dd, 0.0) - stand_in).abs() <= 1e-12 * stand_in);
}

#[test]
fn force_is_finite_and_never_negative_for_any_onset_speed() {
    let depths = [0.0, 1e-300, 1e-12, 1e-8, 1e-4, 1e-2, 1.0];
    let rates = [-1e3, -1.0, -1e-3, -1e-9, 0.0, 1e-300, 1e-9, 1e-3, 1.0, 1e3];
    let onsets = [0.0, 1e-300, 1e-9, MIN_ONSET_SPEED, 1.0, 1e3];
    for model in MODELS {
        let lowest_e = if model == RestitutionModel::Flores { 1e-6 } else { 0.0 };
        for e in [lowest_e, 0.3, 0.9, 1.0] {
            let law = restitution(1e7, 1.5, e, model);
            for d in depths {
                for dd in rates {
                    for v0 in onsets {
                        let f = law.force(d, dd, v0);
                        assert!(f.is_finite() && f >= 0.0, "{model:?} e = {e}: f({d}, {dd}, {v0}) = {f}");
                        if d == 0.0 {
                            assert_eq!(f, 0.0);
                        }
                    }
                }
            }
        }
    }
}
