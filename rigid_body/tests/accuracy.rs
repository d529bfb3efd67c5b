//! Order of accuracy against an independent reference, determinism, and sub-stepping that is
//! exactly the same as stepping by the sub-step.

mod common;

use common::{angle_between, q0, tilted_body};
use nalgebra::{Matrix3, Quaternion};
use rigid_body::{substeps, RigidBody, Rotation, State, Vec3};

/// The reference: Newton-Euler in the form `dq/dt = (0, ω)/2 ⊗ q`, `dL/dt = τ`,
/// `ω = R I⁻¹ Rᵀ L`, integrated by the classical fourth-order Runge-Kutta method with a step small
/// enough (1e-4 s) that its error (~1e-15) is far below the errors measured.
fn reference(body: &RigidBody, start: &State, torque: Vec3, t_end: f64) -> (Rotation, Vec3) {
    let inverse: Matrix3<f64> = body.inertia().try_inverse().unwrap();
    let rate = |q: &Quaternion<f64>, l: &Vec3| -> (Quaternion<f64>, Vec3, Vec3) {
        let r = Rotation::from_quaternion(*q).to_rotation_matrix();
        let w = r.matrix() * inverse * r.matrix().transpose() * l;
        (Quaternion::from_parts(0.0, w) * *q * 0.5, torque, w)
    };
    let dt = 1e-4;
    let n = (t_end / dt).round() as usize;
    let mut q = *start.q.quaternion();
    let mut l = body.angular_momentum(start);
    for _ in 0..n {
        let (k1q, k1l, _) = rate(&q, &l);
        let (k2q, k2l, _) = rate(&(q + k1q * (dt / 2.0)), &(l + k1l * (dt / 2.0)));
        let (k3q, k3l, _) = rate(&(q + k2q * (dt / 2.0)), &(l + k2l * (dt / 2.0)));
        let (k4q, k4l, _) = rate(&(q + k3q * dt), &(l + k3l * dt));
        q += (k1q + k2q * 2.0 + k3q * 2.0 + k4q) * (dt / 6.0);
        l += (k1l + k2l * 2.0 + k3l * 2.0 + k4l) * (dt / 6.0);
    }
    let (_, _, w) = rate(&q, &l);
    (Rotation::from_quaternion(q), w)
}

/// Halving the step divides the error by 4: the method is of second order, with a torque acting
/// (the kicks are part of the splitting) and without.
#[test]
fn halving_the_step_divides_the_error_by_four() {
    let body = tilted_body(1.5, [1.0, 2.0, 3.0]);
    let start = State { r: Vec3::zeros(), q: q0(), v: Vec3::zeros(), w: q0() * Vec3::new(1.0, 1.5, -0.8) };
    let t_end = 2.0;
    for torque in [Vec3::zeros(), Vec3::new(0.3, -0.2, 0.5)] {
        let (q_ref, w_ref) = reference(&body, &start, torque, t_end);
        let error = |h: f64| {
            let mut s = start;
            body.step(&mut s, Vec3::zeros(), torque, t_end, h);
            angle_between(&s.q, &q_ref) + (s.w - w_ref).norm() / w_ref.norm()
        };
        let errors: Vec<f64> = [0.04, 0.02, 0.01, 0.005].iter().map(|&h| error(h)).collect();
        for pair in errors.windows(2) {
            let ratio = pair[0] / pair[1];
            assert!((ratio - 4.0).abs() < 0.05, "torque {torque:?}: errors {errors:?}, ratio {ratio}");
        }
        assert!(errors[3] < 1e-4, "torque {torque:?}: error {:e} at h = 5 ms", errors[3]);
    }
}

fn busy_run(body: &RigidBody) -> State {
    let mut s = State { r: Vec3::new(0.0, 0.0, 1.0), q: q0(), v: Vec3::new(0.3, 0.0, 2.0), w: q0() * Vec3::new(1.0, 1.5, -0.8) };
    for i in 0..200 {
        let phase = i as f64 * 0.1;
        let force = Vec3::new(phase.sin(), 2.0 * phase.cos(), 5.0);
        let torque = Vec3::new(0.1 * phase.cos(), -0.2, 0.3 * phase.sin());
        body.step(&mut s, force, torque, 0.01, 0.003);
    }
    s
}

/// The same inputs give the same state, bit for bit.
#[test]
fn stepping_is_deterministic() {
    let body = tilted_body(1.5, [1.0, 2.0, 3.0]);
    assert_eq!(busy_run(&body), busy_run(&body));
}

/// `max_substep = h/n` makes exactly `n` sub-steps, and a step of `h` then equals `n` steps of
/// `h/n` bit for bit (inputs held): sub-stepping is invisible to the importer.
#[test]
fn one_step_with_n_substeps_equals_n_steps() {
    for &h in &[0.1, 1e-3, 0.3, 1.0 / 3.0, 2.5e-4, 7.0] {
        for n in 1..=64 {
            assert_eq!(substeps(h, h / n as f64), n, "h = {h}, n = {n}");
        }
    }
    assert_eq!(substeps(0.1, 0.03), 4);
    assert_eq!(substeps(0.1, f64::INFINITY), 1);

    let body = tilted_body(1.5, [1.0, 2.0, 3.0]);
    let start = State { r: Vec3::new(0.0, 0.0, 1.0), q: q0(), v: Vec3::new(0.3, 0.0, 2.0), w: q0() * Vec3::new(1.0, 1.5, -0.8) };
    let (force, torque) = (Vec3::new(1.0, -2.0, 5.0), Vec3::new(0.1, -0.2, 0.3));
    for (h, n) in [(0.1, 10), (0.05, 7), (1e-3, 3)] {
        let mut once = start;
        body.step(&mut once, force, torque, h, h / n as f64);
        let mut many = start;
        for _ in 0..n {
            body.step(&mut many, force, torque, h / n as f64, h / n as f64);
        }
        assert_eq!(once, many, "h = {h}, n = {n}");
    }
}

/// A zero step leaves the state untouched.
#[test]
fn a_zero_step_changes_nothing() {
    let body = tilted_body(1.5, [1.0, 2.0, 3.0]);
    let start = State { r: Vec3::new(0.0, 0.0, 1.0), q: q0(), v: Vec3::new(0.3, 0.0, 2.0), w: Vec3::new(1.0, 1.5, -0.8) };
    let mut s = start;
    body.step(&mut s, Vec3::new(1.0, 2.0, 3.0), Vec3::new(4.0, 5.0, 6.0), 0.0, 1e-3);
    assert_eq!(s, start);
}
