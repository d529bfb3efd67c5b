//! The stateless force laws of shared/spec/physics.md against closed forms and against
//! re-implementations written here from the formulas (none of them calls the laws' code): values
//! on grids, `f_n >= 0`, continuity at first touch, monotonicity in depth, Adams' STEP, the
//! friction curves' key values, the parameter validation, and MapleSim's and Hunt and Crossley's
//! closed forms for a free mass hitting a surface, integrated with a small RK4 integrator.

use contact_force::block::{FrictionParameters, NormalParameters, Parameters};
use contact_force::physics::friction::{FrictionLaw, FrictionLawKind, TangentialState};
use contact_force::physics::math::Vec3;
use contact_force::physics::normal::{NormalLaw, NormalLawKind};
use contact_force::physics::step::step;

// ---------------------------------------------------------------------------------------------
// Laws built the way the block builds them: parameters as users set them, then validation.

fn normal_law(kind: NormalLawKind, set: impl FnOnce(&mut NormalParameters)) -> NormalLaw {
    let mut p = Parameters::default();
    p.normal.law = kind.value();
    set(&mut p.normal);
    let (validated, _) = p.validate(None).unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
    assert_eq!(validated.laws.normal.kind(), kind);
    validated.laws.normal
}

fn friction_law(kind: FrictionLawKind, set: impl FnOnce(&mut FrictionParameters)) -> FrictionLaw {
    let mut p = Parameters::default();
    p.friction.law = kind.value();
    set(&mut p.friction);
    let (validated, _) = p.validate(None).unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
    assert_eq!(validated.laws.friction.kind(), kind);
    validated.laws.friction
}

/// The message the block logs when it refuses these parameters.
fn refusal(set: impl FnOnce(&mut Parameters)) -> String {
    let mut p = Parameters::default();
    set(&mut p);
    match p.validate(None) {
        Ok(_) => panic!("accepted, but should be refused: {:?} {:?}", p.normal, p.friction),
        Err(e) => e.to_string(),
    }
}

/// Adams STEP written again from physics.md, independent of `physics::step`.
fn adams_step(x: f64, x0: f64, h0: f64, x1: f64, h1: f64) -> f64 {
    if x <= x0 {
        return h0;
    }
    if x >= x1 {
        return h1;
    }
    let u = (x - x0) / (x1 - x0);
    h0 + (h1 - h0) * (3.0 * u * u - 2.0 * u * u * u)
}

/// Log-spaced depths from 1e-8 m to 1e-2 m, plus a few round values.
fn depths() -> Vec<f64> {
    let mut d: Vec<f64> = (0..=120).map(|i| 1e-8 * 10f64.powf(i as f64 / 20.0)).collect();
    d.extend([5e-5, 1e-4, 2e-4, 1e-3]);
    d.sort_by(f64::total_cmp);
    d
}

/// Penetration rates from -5 m/s (separating) to 5 m/s (approaching), zero included.
fn rates() -> Vec<f64> {
    let mut r: Vec<f64> = (-50..=50).map(|i| 0.1 * i as f64).collect();
    r.extend([-1e-3, -1e-6, 1e-6, 1e-3]);
    r.sort_by(f64::total_cmp);
    r
}

// Parameter values used throughout: the block's parameter names, then the formula's symbols.
const K: f64 = 2e6;
const B: f64 = 3e3;

/// f_n(d, dd) written from physics.md.
type Formula = Box<dyn Fn(f64, f64) -> f64>;

/// Each normal law with parameters of its own, and its formula.
fn normal_laws_and_formulas() -> Vec<(NormalLaw, Formula)> {
    let (n, p, q) = (1.5, 1.2, 0.8);
    let (w, e, cmax, dmax) = (2e-4, 2.2, 4e3, 1e-4);
    let (kg, dg) = (5e8, 2e7);
    vec![
        (
            normal_law(NormalLawKind::LinearSpringDamper, |p| (p.stiffness, p.damping) = (K, B)),
            Box::new(|d: f64, dd: f64| (K * d + B * dd).max(0.0)),
        ),
        (
            normal_law(NormalLawKind::LimitedDamper, |p| (p.stiffness, p.damping) = (K, B)),
            Box::new(|d: f64, dd: f64| {
                let (fc, fd) = (K * d, B * dd);
                if fc + fd > 0.0 {
                    fc + if fc < fd { fc } else { fd }
                } else {
                    0.0
                }
            }),
        ),
        (
            normal_law(NormalLawKind::HuntCrossley, |x| {
                (x.stiffness, x.damping, x.exponent, x.damping_exponent, x.velocity_exponent) = (K, B, n, p, q)
            }),
            Box::new(move |d: f64, dd: f64| {
                // dd |dd|^(q-1) is 0 at dd = 0 (its limit), not 0 * inf.
                let rate = if dd == 0.0 { 0.0 } else { dd * dd.abs().powf(q - 1.0) };
                (K * d.powf(n) + B * rate * d.powf(p)).max(0.0)
            }),
        ),
        (
            normal_law(NormalLawKind::SmoothSpringDamper, |x| (x.stiffness, x.damping, x.transition_width) = (K, B, w)),
            Box::new(move |d: f64, dd: f64| {
                let u = d / w;
                let s = if u >= 1.0 { 1.0 } else { 3.0 * u * u - 2.0 * u * u * u };
                (s * (K * d + B * dd)).max(0.0)
            }),
        ),
        (
            normal_law(NormalLawKind::Impact, |x| {
                (x.stiffness, x.exponent, x.damping, x.full_damping_depth) = (K * 1e4, e, cmax, dmax)
            }),
            Box::new(move |d: f64, dd: f64| (K * 1e4 * d.powf(e) + adams_step(d, 0.0, 0.0, dmax, cmax) * dd).max(0.0)),
        ),
        (
            normal_law(NormalLawKind::GroundModel, |x| (x.stiffness, x.damping) = (kg, dg)),
            Box::new(move |d: f64, dd: f64| {
                let trial = d.sqrt() * (kg * d + dg * dd);
                if trial > 0.0 {
                    trial
                } else {
                    0.0
                }
            }),
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// Normal laws: formula, sign, continuity at first touch, monotonicity.

#[test]
fn every_normal_law_matches_its_formula_on_a_grid_of_depth_and_rate() {
    for (law, formula) in normal_laws_and_formulas() {
        for &d in &depths() {
            for &dd in &rates() {
                let (got, want) = (law.force(d, dd, 0.0), formula(d, dd));
                assert!((got - want).abs() <= 1e-12 * want.abs() + 1e-300, "{:?}: d = {d}, dd = {dd}: {got} vs {want}", law.kind());
            }
        }
    }
}

#[test]
fn normal_force_is_never_negative_and_zero_without_penetration() {
    for (law, _) in normal_laws_and_formulas() {
        for &dd in &rates() {
            for d in [-1e-3, -1e-9, 0.0] {
                assert_eq!(law.force(d, dd, 0.0), 0.0, "{:?}: d = {d}, dd = {dd}", law.kind());
            }
            for &d in &depths() {
                let f = law.force(d, dd, 0.0);
                assert!(f >= 0.0 && f.is_finite(), "{:?}: d = {d}, dd = {dd}: {f}", law.kind());
            }
        }
    }
}

#[test]
fn force_vanishes_at_first_touch_where_the_law_promises_it() {
    // A fast approach (10 m/s): the laws that promise continuity at first touch give a force that
    // goes to zero with the depth; the linear law jumps to b dd, which shows the test can tell.
    let dd = 10.0;
    for (law, _) in normal_laws_and_formulas() {
        let kind = law.kind();
        let near = law.force(1e-12, dd, 0.0);
        match kind {
            NormalLawKind::LinearSpringDamper => assert!((near - B * dd).abs() <= 1e-6 * B * dd),
            // LimitedDamper <= 2 k d; SmoothSpringDamper ~ 3 (d/w)^2 b dd; Impact ~ 3 (d/dmax)^2
            // cmax dd; GroundModel ~ sqrt(d) D dd; HuntCrossley (p = 1.2 > 0) ~ d^p b dd^q.
            _ => {
                let mut previous = f64::INFINITY;
                for i in 0..=8 {
                    let d = 1e-4 * 10f64.powi(-i);
                    let f = law.force(d, dd, 0.0);
                    assert!(f < previous, "{kind:?}: decreasing towards first touch, d = {d}");
                    previous = f;
                }
                // The slowest decay is GroundModel's sqrt(d): a ratio of 1e-4 over eight decades.
                assert!(near <= 1e-3 * law.force(1e-4, dd, 0.0), "{kind:?}: f(1e-12) = {near}");
            }
        }
    }
    // HuntCrossley with p = 0 keeps the damping at first touch; with p > 0 it does not.
    let jump = normal_law(NormalLawKind::HuntCrossley, |p| (p.damping, p.damping_exponent, p.velocity_exponent) = (B, 0.0, 1.0));
    assert!((jump.force(1e-14, dd, 0.0) - B * dd).abs() <= 1e-3 * B * dd);
    let smooth = normal_law(NormalLawKind::HuntCrossley, |p| (p.damping, p.damping_exponent) = (B, 0.5));
    assert!(smooth.force(1e-14, dd, 0.0) <= 1e-6 * B * dd);
}

#[test]
fn force_is_nondecreasing_in_depth_where_the_law_promises_it() {
    // Every law while approaching; LinearSpringDamper, LimitedDamper, SmoothSpringDamper and
    // GroundModel also while separating (their doc comments say so; Impact's and HuntCrossley's
    // damping grows with depth, so while separating they may decrease).
    let everywhere = [
        NormalLawKind::LinearSpringDamper,
        NormalLawKind::LimitedDamper,
        NormalLawKind::SmoothSpringDamper,
        NormalLawKind::GroundModel,
    ];
    for (law, _) in normal_laws_and_formulas() {
        let kind = law.kind();
        for &dd in rates().iter().filter(|&&dd| dd >= 0.0 || everywhere.contains(&kind)) {
            let forces: Vec<f64> = depths().iter().map(|&d| law.force(d, dd, 0.0)).collect();
            for pair in forces.windows(2) {
                assert!(pair[1] >= pair[0] * (1.0 - 1e-15), "{kind:?}: dd = {dd}: {} then {}", pair[0], pair[1]);
            }
        }
    }
}

#[test]
fn impact_damping_follows_the_step_up_to_dmax() {
    let (dmax, cmax) = (1e-4, 4e3);
    let law = normal_law(NormalLawKind::Impact, |p| (p.stiffness, p.damping, p.full_damping_depth) = (0.0, cmax, dmax));
    let dd = 0.5;
    // Without stiffness f_n / dd is the damping coefficient: 0, cmax/2 at dmax/2, cmax from dmax on.
    assert!((law.force(0.5 * dmax, dd, 0.0) - 0.5 * cmax * dd).abs() <= 1e-12 * cmax);
    assert_eq!(law.force(dmax, dd, 0.0), cmax * dd);
    assert_eq!(law.force(3.0 * dmax, dd, 0.0), cmax * dd);
    assert!(law.force(1e-3 * dmax, dd, 0.0) <= 3e-6 * cmax * dd * 1.0001);
}

#[test]
fn ground_model_carries_force_only_while_the_trial_force_is_positive() {
    // K = 1024, D = 2, d = 1/4: K d + D dd = 0 at dd = -128, exactly representable.
    let law = normal_law(NormalLawKind::GroundModel, |p| (p.stiffness, p.damping) = (1024.0, 2.0));
    assert_eq!(law.force(0.25, -128.0, 0.0), 0.0);
    assert_eq!(law.force(0.25, -200.0, 0.0), 0.0);
    assert_eq!(law.force(0.25, -127.0, 0.0), 0.5 * (256.0 - 254.0));
}

// ---------------------------------------------------------------------------------------------
// Adams STEP.

#[test]
fn step_is_continuous_with_continuous_slope_and_hits_the_midpoint() {
    let (x0, h0, x1, h1) = (0.2, -1.5, 0.7, 3.0);
    assert_eq!(step(x0, x0, h0, x1, h1), h0);
    assert_eq!(step(x1, x0, h0, x1, h1), h1);
    assert_eq!(step(-5.0, x0, h0, x1, h1), h0);
    assert_eq!(step(5.0, x0, h0, x1, h1), h1);
    assert!((step(0.45, x0, h0, x1, h1) - 0.5 * (h0 + h1)).abs() <= 1e-15);
    for i in 0..=1000 {
        let x = x0 - 0.1 + 0.7 * i as f64 / 1000.0;
        // The two cubics are written differently (u^2 (3 - 2u) and 3u^2 - 2u^3): a few ulps apart.
        assert!((step(x, x0, h0, x1, h1) - adams_step(x, x0, h0, x1, h1)).abs() <= 1e-14, "x = {x}");
    }
    // C1: the one-sided slopes at the ends are zero to first order in the offset, and inside the
    // slope is 6 (h1 - h0) D (1 - D) / (x1 - x0).
    let eps = 1e-8;
    for end in [x0, x1] {
        for side in [-1.0, 1.0] {
            let slope = (step(end + side * eps, x0, h0, x1, h1) - step(end, x0, h0, x1, h1)) / (side * eps);
            assert!(slope.abs() <= 1e-6, "slope {slope} at {end} from side {side}");
        }
    }
    let x = 0.3;
    let dx = 1e-6;
    let slope = (step(x + dx, x0, h0, x1, h1) - step(x - dx, x0, h0, x1, h1)) / (2.0 * dx);
    let u = (x - x0) / (x1 - x0);
    assert!((slope - 6.0 * (h1 - h0) * u * (1.0 - u) / (x1 - x0)).abs() <= 1e-6);
}

// ---------------------------------------------------------------------------------------------
// Friction laws: curves through the block's FrictionLaw, key values, the cone.

/// mu(v) as seen through `FrictionLaw::force`: the tangential force for f_n = 1 N and a slip
/// velocity of speed v along a fixed oblique direction; also checks that it opposes the slip.
fn mu_through_force(law: &FrictionLaw, speed: f64) -> f64 {
    let direction = Vec3::new(0.6, -0.8, 0.0);
    let force = law.force(0.0, 1.0, &(direction * speed), &TangentialState::default()).force;
    assert!(force.iter().all(|x| x.is_finite()), "{:?} at v = {speed}", law.kind());
    if speed > 0.0 {
        let along = force.dot(&direction);
        assert!((force - direction * along).norm() <= 1e-12 * force.norm() + 1e-300, "friction is along the slip");
        -along
    } else {
        assert_eq!(force.norm(), 0.0);
        0.0
    }
}

/// Slip speeds from 0 to 10 m/s, dense around 1e-5 .. 1e-1.
fn speeds() -> Vec<f64> {
    let mut v: Vec<f64> = (0..=160).map(|i| 1e-8 * 10f64.powf(i as f64 / 20.0)).collect();
    v.push(0.0);
    v.sort_by(f64::total_cmp);
    v
}

fn s5(x: f64) -> f64 {
    10.0 * x.powi(3) - 15.0 * x.powi(4) + 6.0 * x.powi(5)
}

#[test]
fn smooth_stick_slip_reaches_mu_s_at_vc_and_mu_d_at_three_vc() {
    let (mu_s, mu_d, vc) = (0.6, 0.35, 2e-3);
    let law = friction_law(FrictionLawKind::SmoothStickSlip, |p| (p.mu_static, p.mu_dynamic, p.v_stiction) = (mu_s, mu_d, vc));
    let FrictionLaw::SmoothStickSlip(curve) = law else { panic!("{law:?}") };
    assert_eq!(curve.mu(vc), mu_s);
    assert_eq!(curve.mu(3.0 * vc), mu_d);
    assert_eq!(curve.mu(0.0), 0.0);
    let formula = |v: f64| {
        if v < vc {
            mu_s * s5(v / vc)
        } else if v < 3.0 * vc {
            mu_s - (mu_s - mu_d) * s5((v - vc) / (2.0 * vc))
        } else {
            mu_d
        }
    };
    for v in speeds().into_iter().chain([vc, 3.0 * vc, 0.5 * vc, 2.0 * vc]) {
        let mu = mu_through_force(&law, v);
        assert!((mu - formula(v)).abs() <= 1e-13, "v = {v}: {mu} vs {}", formula(v));
        assert!((0.0..=mu_s * (1.0 + 1e-15)).contains(&mu), "inside the cone mu_s f_n: v = {v}, mu = {mu}");
    }
}

#[test]
fn adams_coulomb_reaches_mu_s_at_vs_and_mu_d_at_vd() {
    let (mu_s, mu_d, vs, vd) = (0.5, 0.2, 1e-3, 5e-3);
    let law = friction_law(FrictionLawKind::AdamsCoulomb, |p| {
        (p.mu_static, p.mu_dynamic, p.v_stiction, p.v_transition) = (mu_s, mu_d, vs, vd)
    });
    let FrictionLaw::AdamsCoulomb(curve) = law else { panic!("{law:?}") };
    assert_eq!(curve.mu(vs), mu_s);
    assert_eq!(curve.mu(vd), mu_d);
    assert_eq!(curve.mu(0.0), 0.0);
    // Slope at zero: STEP from -mu_s to mu_s over 2 vs has slope 6 (2 mu_s) (1/4) / (2 vs) there.
    assert!((curve.mu_over_speed(0.0) - 1.5 * mu_s / vs).abs() <= 1e-12 * mu_s / vs);
    let formula = |v: f64| {
        if v < vs {
            adams_step(v, -vs, -mu_s, vs, mu_s)
        } else if v < vd {
            adams_step(v, vs, mu_s, vd, mu_d)
        } else {
            mu_d
        }
    };
    for v in speeds().into_iter().chain([vs, vd, 0.5 * vs, 0.5 * (vs + vd)]) {
        let mu = mu_through_force(&law, v);
        // The reference's STEP near 0 is mu_s minus a number close to mu_s: a few ulps of mu_s.
        assert!((mu - formula(v)).abs() <= 1e-13 * mu.abs() + 4.0 * f64::EPSILON * mu_s, "v = {v}: {mu} vs {}", formula(v));
        assert!((0.0..=mu_s * (1.0 + 1e-15)).contains(&mu), "inside the cone mu_s f_n: v = {v}, mu = {mu}");
    }
}

/// The Makkar et al. curve with the constants of physics.md, written again here.
fn makkar(mu_s: f64, mu_k: f64, ve1: f64, ve2: f64, kv: f64) -> impl Fn(f64) -> f64 {
    let g2 = 2.0 / ve1;
    let g5 = 2.0 / ve1;
    let g3 = 3.0 / ve2;
    let g4 = mu_k - kv * ve2;
    let g6 = kv;
    let g1 = (mu_s - (2.0 * ve1 / ve2).tanh() * g4 - 2.0 * kv * ve1) / ((2.0 * ve2 / ve1).tanh() - (2.0 * ve1 / ve2).tanh()) - g4;
    move |v: f64| g1 * ((g2 * v).tanh() - (g3 * v).tanh()) + g4 * (g5 * v).tanh() + g6 * v
}

#[test]
fn stribeck_follows_the_makkar_formula() {
    // The Modelica paper's experiments 1 and 3, the block's defaults, and one with viscous friction.
    for (mu_s, mu_k, ve1, ve2, kv) in
        [(0.03, 0.02, 0.01, 0.1, 0.0), (0.12, 0.08, 1e-4, 1e-2, 0.0), (0.5, 0.3, 1e-3, 1e-2, 0.0), (0.5, 0.3, 1e-3, 1e-2, 2.0)]
    {
        let law = friction_law(FrictionLawKind::Stribeck, |p| {
            (p.mu_static, p.mu_dynamic, p.v_stiction, p.v_transition, p.viscous) = (mu_s, mu_k, ve1, ve2, kv)
        });
        let formula = makkar(mu_s, mu_k, ve1, ve2, kv);
        for v in speeds() {
            let mu = mu_through_force(&law, v);
            assert!((mu - formula(v)).abs() <= 1e-12 * formula(v).abs() + 1e-15, "{mu_s} {mu_k} {ve1} {ve2} {kv}: v = {v}");
        }
        // Far beyond ve2 the curve is mu_k + kv (v - ve2).
        assert!((mu_through_force(&law, 1000.0 * ve2) - (mu_k + kv * (1000.0 * ve2 - ve2))).abs() <= 1e-12 * (1.0 + kv));
    }
}

#[test]
fn stribeck_stays_between_zero_and_mu_s_without_viscous_friction_and_grows_with_it() {
    // The sweep behind the doc comment's statement.
    for mu_s in [0.05, 0.5, 1.2] {
        for ratio in [0.0, 0.5, 0.9, 1.0] {
            for ve1 in [1e-5, 1e-3, 0.1] {
                for spread in [1.6, 2.0, 10.0, 1e3] {
                    let (mu_k, ve2) = (ratio * mu_s, spread * ve1);
                    let law = friction_law(FrictionLawKind::Stribeck, |p| {
                        (p.mu_static, p.mu_dynamic, p.v_stiction, p.v_transition, p.viscous) = (mu_s, mu_k, ve1, ve2, 0.0)
                    });
                    for i in 0..=400 {
                        let v = ve1 * 1e-3 * 10f64.powf(i as f64 / 50.0);
                        let mu = mu_through_force(&law, v);
                        // With mu_k = 0, far beyond ve2 mu is g1 (tanh - tanh): rounding of either sign.
                        // With mu_k = mu_s the hump overshoots mu_s by up to about 5e-10 mu_s.
                        assert!(mu >= -1e-12 * mu_s && mu <= mu_s * (1.0 + 1e-9), "{mu_s} {mu_k} {ve1} {ve2}: mu({v}) = {mu}");
                    }
                }
            }
        }
    }
    let viscous = friction_law(FrictionLawKind::Stribeck, |p| p.viscous = 2.0);
    assert!(mu_through_force(&viscous, 1.0) > 2.0 * Parameters::default().friction.mu_static, "no clipping at high speed");
}

// ---------------------------------------------------------------------------------------------
// Validation: variable, value and rule in the message.

#[test]
fn mu_dynamic_above_mu_static_is_refused_by_every_law_that_uses_both() {
    for kind in [FrictionLawKind::SmoothStickSlip, FrictionLawKind::AdamsCoulomb, FrictionLawKind::Stribeck] {
        let message = refusal(|p| {
            p.friction.law = kind.value();
            (p.friction.mu_static, p.friction.mu_dynamic) = (0.5, 0.6);
        });
        assert_eq!(message, "friction.mu_dynamic = 0.6: must not exceed friction.mu_static = 0.5", "{kind:?}");
    }
}

#[test]
fn transition_speeds_must_be_ordered() {
    for (kind, name) in [(FrictionLawKind::AdamsCoulomb, "AdamsCoulomb"), (FrictionLawKind::Stribeck, "Stribeck")] {
        let message = refusal(|p| {
            p.friction.law = kind.value();
            (p.friction.v_stiction, p.friction.v_transition) = (1e-2, 1e-2);
        });
        let rule = format!("must be > friction.v_stiction = 0.01 ({name}: 0 < v_stiction < v_transition)");
        assert_eq!(message, format!("friction.v_transition = 0.01: {rule}"));
        let message = refusal(|p| {
            p.friction.law = kind.value();
            p.friction.v_stiction = 0.0;
        });
        assert_eq!(message, format!("friction.v_stiction = 0: must be > 0 ({name})"));
    }
    let message = refusal(|p| {
        p.friction.law = FrictionLawKind::SmoothStickSlip.value();
        p.friction.v_stiction = 0.0;
    });
    assert_eq!(message, "friction.v_stiction = 0: must be > 0 (SmoothStickSlip: critical velocity)");
}

#[test]
fn a_stribeck_curve_that_turns_negative_is_refused() {
    // ve2 = 1.2 ve1 inverts the hump (g3 > g2); a large kv makes g4 = mu_k - kv ve2 negative.
    for (ve2, kv) in [(1.2e-3, 0.0), (1e-2, 100.0)] {
        let formula = makkar(0.5, 0.3, 1e-3, ve2, kv);
        assert!((1..1000).any(|i| formula(1e-5 * i as f64) < 0.0), "the formula itself goes negative");
        let message = refusal(|p| {
            p.friction.law = FrictionLawKind::Stribeck.value();
            (p.friction.v_stiction, p.friction.v_transition, p.friction.viscous) = (1e-3, ve2, kv);
        });
        let variables = "friction.mu_static, friction.mu_dynamic, friction.v_stiction, friction.v_transition, friction.viscous";
        assert!(message.starts_with(&format!("{variables} = 0.5, 0.3, 0.001, {ve2}, {kv}: ")), "{message}");
        assert!(message.contains("must not be negative"), "{message}");
    }
}

#[test]
fn normal_law_parameters_are_checked_with_their_rules() {
    type Change = fn(&mut NormalParameters);
    let cases: [(NormalLawKind, Change, &str); 6] = [
        (NormalLawKind::SmoothSpringDamper, |p| p.transition_width = 0.0, "normal.transition_width = 0: must be > 0 (SmoothSpringDamper)"),
        (NormalLawKind::Impact, |p| p.full_damping_depth = 0.0, "normal.full_damping_depth = 0: must be > 0 (Impact: Adams DMAX)"),
        (NormalLawKind::Impact, |p| p.exponent = 0.0, "normal.exponent = 0: must be > 0 (Impact: Adams EXPONENT)"),
        (NormalLawKind::Impact, |p| p.damping = -1.0, "normal.damping = -1: must be >= 0"),
        (NormalLawKind::LimitedDamper, |p| p.stiffness = -2.0, "normal.stiffness = -2: must be >= 0"),
        (NormalLawKind::GroundModel, |p| p.damping = f64::NAN, "normal.damping = NaN: must be >= 0"),
    ];
    for (kind, set, expected) in cases {
        let message = refusal(|p| {
            p.normal.law = kind.value();
            set(&mut p.normal);
        });
        assert_eq!(message, expected, "{kind:?}");
    }
    // Adams recommends EXPONENT >= 1.5 but allows any e > 0; so does the block.
    let soft = normal_law(NormalLawKind::Impact, |p| p.exponent = 0.5);
    assert!(soft.force(1e-6, 0.0, 0.0) > 0.0);
}

#[test]
fn default_parameters_are_valid_for_every_stateless_law() {
    for kind in [
        NormalLawKind::LinearSpringDamper,
        NormalLawKind::LimitedDamper,
        NormalLawKind::HuntCrossley,
        NormalLawKind::SmoothSpringDamper,
        NormalLawKind::Impact,
        NormalLawKind::GroundModel,
    ] {
        normal_law(kind, |_| ());
    }
    for kind in [
        FrictionLawKind::None,
        FrictionLawKind::SmoothStickSlip,
        FrictionLawKind::AdamsCoulomb,
        FrictionLawKind::Tanh,
        FrictionLawKind::Stribeck,
    ] {
        friction_law(kind, |_| ());
    }
}

// ---------------------------------------------------------------------------------------------
// A free mass m hitting a surface at speed v0: m d'' = -f_n(d, d'), d(0) = 0, d'(0) = v0.

struct Bounce {
    max_depth: f64,
    /// Speed when the depth returns to 0, if it does within the time limit.
    exit_speed: Option<f64>,
}

/// One classical RK4 step of the state (d, d').
fn rk4(force: &dyn Fn(f64, f64) -> f64, mass: f64, (d, v): (f64, f64), h: f64) -> (f64, f64) {
    let acc = |d: f64, v: f64| -force(d, v) / mass;
    let (k1d, k1v) = (v, acc(d, v));
    let (k2d, k2v) = (v + 0.5 * h * k1v, acc(d + 0.5 * h * k1d, v + 0.5 * h * k1v));
    let (k3d, k3v) = (v + 0.5 * h * k2v, acc(d + 0.5 * h * k2d, v + 0.5 * h * k2v));
    let (k4d, k4v) = (v + h * k3v, acc(d + h * k3d, v + h * k3v));
    (d + h / 6.0 * (k1d + 2.0 * k2d + 2.0 * k3d + k4d), v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v))
}

/// Integrates with step h until the depth returns below 0 (the exit speed is interpolated
/// linearly inside the last step, O(h^2)) or until `duration`. A law whose force jumps at first
/// touch (the linear damper, b v0) costs RK4 an O(h) error in the step containing the jump, so
/// the first step is divided into 1000 sub-steps.
fn bounce(force: &dyn Fn(f64, f64) -> f64, mass: f64, v0: f64, h: f64, duration: f64) -> Bounce {
    let mut state = (0.0, v0);
    for _ in 0..1000 {
        state = rk4(force, mass, state, h / 1000.0);
    }
    let mut max_depth = state.0;
    let mut t = h;
    while t < duration {
        let next = rk4(force, mass, state, h);
        if next.0 < 0.0 {
            let s = state.0 / (state.0 - next.0);
            return Bounce { max_depth, exit_speed: Some(-(state.1 + s * (next.1 - state.1))) };
        }
        state = next;
        max_depth = max_depth.max(state.0);
        t += h;
    }
    Bounce { max_depth, exit_speed: None }
}

#[test]
fn undamped_linear_law_reaches_depth_sqrt_m_over_k_times_v() {
    let (m, k, v0) = (2.0, 1e5, 1.5);
    let law = normal_law(NormalLawKind::LinearSpringDamper, |p| (p.stiffness, p.damping) = (k, 0.0));
    let half_period = std::f64::consts::PI * (m / k).sqrt();
    let run = bounce(&|d, dd| law.force(d, dd, 0.0), m, v0, half_period / 20000.0, 3.0 * half_period);
    let expected = (m / k).sqrt() * v0;
    assert!((run.max_depth - expected).abs() <= 1e-6 * expected, "{} vs {expected}", run.max_depth);
    // Energy is conserved: it leaves at the speed it came.
    assert!((run.exit_speed.unwrap() - v0).abs() <= 1e-6 * v0);
}

#[test]
fn pure_damper_reaches_depth_m_over_b_times_v() {
    // d' = v0 exp(-b t / m): the depth tends to (m / b) v0; after 30 m/b the rest is exp(-30).
    let (m, b, v0) = (0.5, 300.0, 2.0);
    let law = normal_law(NormalLawKind::LinearSpringDamper, |p| (p.stiffness, p.damping) = (0.0, b));
    let tau = m / b;
    let run = bounce(&|d, dd| law.force(d, dd, 0.0), m, v0, tau / 2000.0, 30.0 * tau);
    let expected = m / b * v0;
    assert!(run.exit_speed.is_none());
    assert!((run.max_depth - expected).abs() <= 1e-6 * expected, "{} vs {expected}", run.max_depth);
}

/// Damped oscillator data for m d'' + b d' + k d = 0: decay rate a, damped frequency w.
fn oscillator(m: f64, k: f64, zeta: f64) -> (f64, f64, f64) {
    let b = 2.0 * zeta * (k * m).sqrt();
    let a = b / (2.0 * m);
    (b, a, (k / m - a * a).sqrt())
}

#[test]
fn unclipped_linear_law_restitution_is_exp_minus_zeta_pi_over_sqrt_one_minus_zeta_squared() {
    // MapleSim's formula assumes the contact lasts until the depth returns to 0, the spring-damper
    // pulling at the end; that is the unclipped equation, integrated here with its own force.
    let (m, k, v0) = (1.0, 1e5, 1.0);
    for zeta in [0.05, 0.2, 0.5, 0.8] {
        let (b, _, w) = oscillator(m, k, zeta);
        let h = std::f64::consts::PI / w / 20000.0;
        let run = bounce(&|d, dd| k * d + b * dd, m, v0, h, 1.0);
        let e = run.exit_speed.unwrap() / v0;
        let expected = (-zeta * std::f64::consts::PI / (1.0 - zeta * zeta).sqrt()).exp();
        assert!((e - expected).abs() <= 1e-7, "zeta = {zeta}: {e} vs {expected}");
    }
}

#[test]
fn clipped_linear_law_restitution_is_at_least_the_formula_and_matches_its_own_closed_form() {
    // The block clips f_n >= 0. The unclipped force turns negative when k d + b d' = 0, i.e. at
    // the phase theta of d = (v0/w) exp(-a t) sin(w t) with tan(theta) = -b w / (k - b a),
    // theta in (0, pi); from there the clipped mass keeps its speed, while the unclipped one is
    // pulled back. So the clipped restitution is -exp(-a theta / w) (cos theta - (a/w) sin theta),
    // which is >= exp(-zeta pi / sqrt(1 - zeta^2)).
    let (m, k, v0) = (1.0, 1e5, 1.0);
    let law_for = |b: f64| normal_law(NormalLawKind::LinearSpringDamper, |p| (p.stiffness, p.damping) = (k, b));
    for zeta in [0.05, 0.2, 0.5, 0.8] {
        let (b, a, w) = oscillator(m, k, zeta);
        let law = law_for(b);
        let h = std::f64::consts::PI / w / 20000.0;
        let e = bounce(&|d, dd| law.force(d, dd, 0.0), m, v0, h, 1.0).exit_speed.unwrap() / v0;
        let theta = (b * w).atan2(-(k - b * a));
        let closed = -(-a * theta / w).exp() * (theta.cos() - a / w * theta.sin());
        let unclipped = (-zeta * std::f64::consts::PI / (1.0 - zeta * zeta).sqrt()).exp();
        assert!((e - closed).abs() <= 1e-7, "zeta = {zeta}: {e} vs {closed}");
        assert!(e >= unclipped, "zeta = {zeta}: {e} < {unclipped}");
    }
}

#[test]
fn hunt_crossley_restitution_is_one_minus_two_thirds_alpha_v0_for_small_speeds() {
    // f_n = k d^n (1 + alpha d') is HuntCrossley with p = n, q = 1, b = alpha k. To first order
    // in alpha v0 the energy lost in one impact is (2/3) alpha m v0^3 whatever n, so
    // e = 1 - (2/3) alpha v0 + O((alpha v0)^2); the integrations put the second-order term at
    // about 0.44 (alpha v0)^2, so (alpha v0)^2 / 2 bounds the remainder. The ratio of the
    // remainder to alpha v0 must also shrink as alpha v0 does, which proves the first-order term.
    let (m, k, n, v0) = (1.0, 1e6, 1.5, 0.5);
    let mut previous_ratio = f64::INFINITY;
    for alpha_v0 in [0.02, 0.005, 0.001] {
        let alpha = alpha_v0 / v0;
        let law = normal_law(NormalLawKind::HuntCrossley, |p| {
            (p.stiffness, p.damping, p.exponent, p.damping_exponent, p.velocity_exponent) = (k, alpha * k, n, n, 1.0)
        });
        let max_depth = ((n + 1.0) * m * v0 * v0 / (2.0 * k)).powf(1.0 / (n + 1.0));
        let time_scale = max_depth / v0;
        let e = bounce(&|d, dd| law.force(d, dd, 0.0), m, v0, time_scale / 4000.0, 100.0 * time_scale).exit_speed.unwrap() / v0;
        let first_order = 1.0 - 2.0 / 3.0 * alpha_v0;
        let remainder = (e - first_order).abs();
        assert!(remainder <= 0.5 * alpha_v0 * alpha_v0, "alpha v0 = {alpha_v0}: e = {e}, 1 - 2/3 alpha v0 = {first_order}");
        assert!(remainder / alpha_v0 < previous_ratio);
        previous_ratio = remainder / alpha_v0;
    }
}
