//! Motions with a closed-form solution, reproduced to round-off for any sub-step: the centre of
//! mass under constant force, a sphere under constant torque, the free symmetric top, and steady
//! rotation about a principal axis that is not a body axis.

mod common;

use common::{angle_between, q0, round_off, tilt, tilted_body};
use rigid_body::{substeps, RigidBody, Rotation, State, Vec3, DEFAULT_GRAVITY};

/// `r = r0 + v0 t + a t²/2`, `v = v0 + a t`, `a = g + f/m`, whatever the sub-step, and the
/// translation does not disturb the rotation. "Exact" is to round-off, which grows with the number
/// of sub-steps as the sums do.
#[test]
fn centre_of_mass_under_gravity_and_constant_force_is_exact_for_any_substep() {
    let body = RigidBody::new(2.0, [0.3, 0.4, 0.5, 0.01, -0.02, 0.03], Vec3::from(DEFAULT_GRAVITY)).unwrap();
    let (r0, v0) = (Vec3::new(0.5, -1.0, 10.0), Vec3::new(1.5, 0.25, 3.0));
    for force in [Vec3::zeros(), Vec3::new(3.0, -1.0, 25.0)] {
        let a = body.gravity() + force / body.mass();
        for max_substep in [1e-4, 1e-3, 0.037, 0.1, 1.0, f64::INFINITY] {
            let mut s = State { r: r0, q: q0(), v: v0, w: Vec3::zeros() };
            for i in 1..=10 {
                body.step(&mut s, force, Vec3::zeros(), 0.1, max_substep);
                let t = 0.1 * i as f64;
                let tolerance = round_off(i * substeps(0.1, max_substep));
                let r = r0 + v0 * t + a * (0.5 * t * t);
                let v = v0 + a * t;
                assert!((s.r - r).norm() < tolerance * r.norm(), "max_substep {max_substep}, t {t}: r {} vs {r}", s.r);
                assert!((s.v - v).norm() < tolerance * v.norm(), "max_substep {max_substep}, t {t}: v {} vs {v}", s.v);
            }
            assert_eq!(s.w, Vec3::zeros());
            assert!(angle_between(&s.q, &q0()) < round_off(10 * substeps(0.1, max_substep)));
        }
    }
}

/// For an isotropic body `L = I ω`, so `ω(t) = ω0 + τ t / I` for any start and any torque; when `ω0`
/// is parallel to `τ` the axis is fixed and the turned angle is `|ω0| t + α t²/2`.
#[test]
fn sphere_under_constant_torque_has_exact_angular_acceleration() {
    let moment = 0.4 * 3.0 * 0.5 * 0.5; // solid sphere 2/5 m R², m = 3 kg, R = 0.5 m
    let sphere = RigidBody::new(3.0, [moment, moment, moment, 0.0, 0.0, 0.0], Vec3::zeros()).unwrap();
    let torque = Vec3::new(0.2, -0.5, 0.3);
    let alpha = torque / moment;

    let w0 = Vec3::new(4.0, 1.0, -2.0);
    for max_substep in [1e-3, 0.01, 0.25] {
        let mut s = State { r: Vec3::zeros(), q: q0(), v: Vec3::zeros(), w: w0 };
        for i in 1..=20 {
            sphere.step(&mut s, Vec3::zeros(), torque, 0.05, max_substep);
            let tolerance = round_off(i * substeps(0.05, max_substep));
            let w = w0 + alpha * (0.05 * i as f64);
            assert!((s.w - w).norm() < tolerance * w.norm(), "max_substep {max_substep}: {} vs {w}", s.w);
        }
    }

    let axis = torque.normalize();
    let w0 = axis * 1.5;
    for max_substep in [1e-3, 0.01, 0.25] {
        let mut s = State { r: Vec3::zeros(), q: q0(), v: Vec3::zeros(), w: w0 };
        for i in 1..=20 {
            sphere.step(&mut s, Vec3::zeros(), torque, 0.05, max_substep);
            let t = 0.05 * i as f64;
            let turned = 1.5 * t + 0.5 * alpha.norm() * t * t;
            let q = Rotation::from_scaled_axis(axis * turned) * q0();
            let tolerance = round_off(i * substeps(0.05, max_substep));
            let off = angle_between(&s.q, &q);
            assert!(off < tolerance * turned.max(1.0), "max_substep {max_substep}, t {t}: off by {off} rad");
        }
    }
}

/// The torque-free symmetric top (transverse moment `I⊥`, figure moment `I_f` about the body
/// axis `e_f`), Landau & Lifshitz §33: `L` is fixed in W, the body precesses about it at
/// `|L|/I⊥` and spins about its figure axis at `(1/I_f - 1/I⊥) L_f` relative to that precession:
/// `q(t) = exp(t L / I⊥) q0 exp(t (1/I_f - 1/I⊥) L_f e_f)`. Independently, Euler's equations give
/// the body-frame angular velocity: `ω_f` constant and the transverse part turning about `e_f` at
/// `Ω = (I_f - I⊥) ω_f / I⊥`. Both hold for one step of 5 s as for 500 steps of 0.01 s.
#[test]
fn free_symmetric_top_precesses_as_the_closed_form_for_any_step() {
    // An oblate top (figure axis: the largest moment) and a prolate one (the smallest).
    for (moments, figure) in [([2.0, 2.0, 3.0], 2), ([1.0, 3.0, 3.0], 0)] {
        let body = tilted_body(1.0, moments);
        let e_f = tilt() * Vec3::ith(figure, 1.0); // figure axis in the body frame
        let (i_f, i_perp) = (moments[figure], moments[1]);
        let w_body0 = Vec3::new(0.8, -1.1, 2.3);
        let state0 = State { r: Vec3::zeros(), q: q0(), v: Vec3::zeros(), w: q0() * w_body0 };
        let l = body.angular_momentum(&state0);
        let l_f = (q0() * e_f).dot(&l);
        let omega_f = w_body0.dot(&e_f);
        let spin = (i_f - i_perp) * omega_f / i_perp;

        for (h, max_substep, steps) in [(5.0, 5.0, 1), (0.01, 0.01, 500), (0.5, 0.02, 10)] {
            let mut s = state0;
            for _ in 0..steps {
                body.step(&mut s, Vec3::zeros(), Vec3::zeros(), h, max_substep);
            }
            let t = h * steps as f64;
            let tolerance = round_off(steps * substeps(h, max_substep));
            let q = Rotation::from_scaled_axis(l * (t / i_perp))
                * q0()
                * Rotation::from_scaled_axis(e_f * ((1.0 / i_f - 1.0 / i_perp) * l_f * t));
            let off = angle_between(&s.q, &q);
            assert!(off < tolerance * l.norm() * t, "{moments:?}, h {h}: q off by {off} rad");
            let transverse0 = w_body0 - e_f * omega_f;
            let w_body = e_f * omega_f + Rotation::from_scaled_axis(e_f * (spin * t)) * transverse0;
            let w = q * w_body;
            assert!((s.w - w).norm() < tolerance * w.norm() * l.norm() * t, "{moments:?}, h {h}: ω {} vs {w}", s.w);
        }
    }
}

/// Spinning about any principal axis (here tilted against the body axes) is a steady rotation:
/// `ω` constant and `q(t) = exp(ω t) q0`. Over 2 s the intermediate axis's instability
/// (growth e^{0.58 t}) amplifies round-off only to ~1e-15.
#[test]
fn rotation_about_a_tilted_principal_axis_is_steady() {
    let body = tilted_body(1.0, [1.0, 2.0, 3.0]);
    for k in 0..3 {
        let axis_w = q0() * body.principal_axes() * Vec3::ith(k, 1.0);
        let w0 = axis_w * 1.0;
        let mut s = State { r: Vec3::zeros(), q: q0(), v: Vec3::zeros(), w: w0 };
        for _ in 0..20 {
            body.step(&mut s, Vec3::zeros(), Vec3::zeros(), 0.1, 0.01);
        }
        let q = Rotation::from_scaled_axis(w0 * 2.0) * q0();
        let off = angle_between(&s.q, &q);
        assert!(off < round_off(200) * 2.0, "axis {k}: q off by {off} rad");
        assert!((s.w - w0).norm() < round_off(200), "axis {k}: ω {} vs {w0}", s.w);
    }
}
