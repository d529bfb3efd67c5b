//! Torque-free tumbling of an asymmetric body whose principal axes are tilted against the body
//! axes: what the splitting conserves exactly (world angular momentum, |q| = 1), what it conserves
//! without drift (energy), time reversibility, and the intermediate-axis instability.

mod common;

use common::{angle_between, q0, six, tilt, tilted_body, unit_defect};
use nalgebra::Matrix3;
use rigid_body::{RigidBody, State, Vec3};

/// Inertia diag(1, 2, 3) kg.m2 about tilted axes, a generic spin of about 2 rad/s: the body
/// tumbles (its angular velocity is far from every principal axis), period about 5 s.
fn tumbling() -> (RigidBody, State) {
    let body = tilted_body(1.0, [1.0, 2.0, 3.0]);
    let state = State { r: Vec3::zeros(), q: q0(), v: Vec3::zeros(), w: q0() * Vec3::new(1.0, 1.5, -0.8) };
    (body, state)
}

/// Largest relative energy error and angular momentum error, largest `|q| - 1`, over `steps`
/// steps of `h` (one sub-step each).
struct Run {
    energy: f64,
    momentum: f64,
    unit: f64,
}

fn run(body: &RigidBody, start: State, h: f64, steps: usize) -> Run {
    let e0 = body.kinetic_energy(&start);
    let l0 = body.angular_momentum(&start);
    let mut s = start;
    let (mut energy, mut momentum, mut unit) = (0.0f64, 0.0f64, 0.0f64);
    for _ in 0..steps {
        body.step(&mut s, Vec3::zeros(), Vec3::zeros(), h, h);
        energy = energy.max((body.kinetic_energy(&s) - e0).abs() / e0);
        momentum = momentum.max((body.angular_momentum(&s) - l0).norm() / l0.norm());
        unit = unit.max(unit_defect(&s));
    }
    Run { energy, momentum, unit }
}

/// The free flight never changes `L` in W; only the ω <-> L conversion at sub-step boundaries
/// rounds it (about 2e-17 per sub-step). `|q|` stays 1 to round-off by renormalisation.
#[test]
fn torque_free_tumbling_keeps_world_angular_momentum_and_a_unit_quaternion() {
    let (body, start) = tumbling();
    // 100 s, some 20 tumbling periods, in 10^4 steps.
    let r = run(&body, start, 0.01, 10_000);
    assert!(r.momentum < 1e-12, "relative change of L: {:e}", r.momentum);
    assert!(r.unit < 1e-14, "| |q| - 1 |: {:e}", r.unit);
    // The same with sub-steps inside each communication step.
    let (l0, mut s) = (body.angular_momentum(&start), start);
    for _ in 0..1000 {
        body.step(&mut s, Vec3::zeros(), Vec3::zeros(), 0.1, 0.01);
        assert!(unit_defect(&s) < 1e-14);
    }
    let change = (body.angular_momentum(&s) - l0).norm() / l0.norm();
    assert!(change < 1e-12, "relative change of L with sub-steps: {change:e}");
}

/// A symplectic method's energy error oscillates with the motion but does not grow: its largest
/// value over 100 s (about 20 periods) is that over the first 10 s, while a drifting method's would
/// be ten times larger. The error itself is `O(h²)`: 4.6e-6 relative at `h = 0.01 s`.
#[test]
fn torque_free_energy_error_is_bounded_without_secular_growth() {
    let (body, start) = tumbling();
    let first = run(&body, start, 0.01, 1_000).energy;
    let whole = run(&body, start, 0.01, 10_000).energy;
    assert!(first > 1e-7 && first < 1e-5, "energy error over 10 s: {first:e}");
    assert!(whole <= 1.05 * first, "energy error over 100 s {whole:e} vs over 10 s {first:e}");
    let fine = run(&body, start, 0.001, 10_000).energy;
    assert!((first / fine - 100.0).abs() < 5.0, "energy error h = 0.01: {first:e}, h = 0.001: {fine:e}");
}

/// The splitting is symmetric: a step of `-h` from the end of a step of `h` returns to the start,
/// with gravity, force and torque acting.
#[test]
fn stepping_back_by_minus_h_returns_to_the_start() {
    let body = RigidBody::new(2.0, tilted_inertia(), Vec3::new(0.0, 0.0, -9.81)).unwrap();
    let start = State { r: Vec3::new(0.1, 0.2, 0.3), q: q0(), v: Vec3::new(1.0, -2.0, 0.5), w: q0() * Vec3::new(1.0, 1.5, -0.8) };
    let (force, torque) = (Vec3::new(3.0, -1.0, 4.0), Vec3::new(0.5, 0.2, -0.7));
    let mut s = start;
    body.step(&mut s, force, torque, 0.5, 0.01);
    assert!((s.w - start.w).norm() > 0.1, "the step must do something");
    body.step(&mut s, force, torque, -0.5, 0.01);
    assert!((s.r - start.r).norm() < 1e-14, "r: {}", (s.r - start.r).norm());
    assert!((s.v - start.v).norm() < 1e-14, "v: {}", (s.v - start.v).norm());
    assert!((s.w - start.w).norm() < 1e-13, "ω: {}", (s.w - start.w).norm());
    assert!(angle_between(&s.q, &start.q) < 1e-14, "q: {} rad", angle_between(&s.q, &start.q));
}

/// diag(1, 2, 3) kg.m2 about the tilted axes, as the six interface numbers.
fn tilted_inertia() -> [f64; 6] {
    let r = tilt().to_rotation_matrix();
    six(&(r.matrix() * Matrix3::from_diagonal(&Vec3::new(1.0, 2.0, 3.0)) * r.matrix().transpose()))
}

/// Angular velocity in the principal frame, `P⊤ q⊤ ω`.
fn principal_rates(body: &RigidBody, s: &State) -> Vec3 {
    (s.q * body.principal_axes()).inverse_transform_vector(&s.w)
}

/// Spin about the middle principal axis is unstable (the tennis racket theorem): a perturbation
/// grows as `e^{λt}`, `λ = ω sqrt((I2 - I1)(I3 - I2)/(I1 I3))`, until the body flips over and
/// spins the other way round its middle axis. About the least and the largest axes the same
/// perturbation stays small.
#[test]
fn spin_about_the_middle_principal_axis_is_unstable() {
    let moments = [1.0, 2.0, 3.0];
    let body = tilted_body(1.0, moments);
    let spin = 2.0;
    let lambda = spin * ((moments[1] - moments[0]) * (moments[2] - moments[1]) / (moments[0] * moments[2])).sqrt();
    let start_about = |k: usize| {
        let mut w_p = Vec3::ith(k, spin);
        w_p[(k + 1) % 3] = 1e-9;
        State { r: Vec3::zeros(), q: q0(), v: Vec3::zeros(), w: q0() * body.principal_axes() * w_p }
    };
    let transverse = |w_p: &Vec3, k: usize| (w_p.norm_squared() - w_p[k] * w_p[k]).sqrt();

    // Middle axis: exponential growth at λ in the linear regime, then the flip.
    let mut s = start_about(1);
    let (h, mut t) = (1e-3, 0.0);
    // Between 6 s and 10 s the decaying mode has died out (e^{-2λt} < 1e-5) and the growing one is
    // still small (< 1e-4 rad/s): the transverse rate grows as e^{λt}.
    let (mut at_6, mut at_10) = (0.0, 0.0);
    let mut flipped_at = None;
    while t < 30.0 && flipped_at.is_none() {
        body.step(&mut s, Vec3::zeros(), Vec3::zeros(), h, h);
        t += h;
        let w_p = principal_rates(&body, &s);
        if (t - 6.0).abs() < h / 2.0 {
            at_6 = transverse(&w_p, 1);
        }
        if (t - 10.0).abs() < h / 2.0 {
            at_10 = transverse(&w_p, 1);
        }
        if w_p[1] < -0.9 * spin {
            flipped_at = Some(t);
        }
    }
    let growth = (at_10 / at_6).ln() / 4.0;
    assert!((growth - lambda).abs() < 1e-4 * lambda, "growth rate {growth} vs λ = {lambda}");
    let flipped_at = flipped_at.expect("the body flips over within 30 s");
    assert!(flipped_at > 10.0, "flipped at {flipped_at} s, before the linear regime ended");

    // Least and largest axes: the perturbation stays of its initial size for 30 s.
    for k in [0, 2] {
        let mut s = start_about(k);
        let mut largest: f64 = 0.0;
        for _ in 0..30_000 {
            body.step(&mut s, Vec3::zeros(), Vec3::zeros(), h, h);
            let w_p = principal_rates(&body, &s);
            largest = largest.max(transverse(&w_p, k));
        }
        assert!(largest < 1e-8, "axis {k}: transverse rate reached {largest:e}");
    }
}
