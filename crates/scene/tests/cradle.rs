//! Newton's cradle of five spheres under Hunt-Crossley in one scene, StepAverage at 1 ms: the
//! balls hang in a row (no gravity along the row, no strings: the impacts take 0.2 ms, far too
//! short for the pendulums to matter), the first one strikes the other four at 0.5 m/s. The
//! importer's bodies are integrated here, exactly under the held wrench, in the three master
//! orders. Proven against the physics: the momentum along the row is the initial one to 1e-12
//! after every step, and the outgoing speeds are within 2 % of the monolithic reference (the five
//! balls and the law integrated together in this file, RK4 at 1 us).

use contact_physics::friction::FrictionLawKind;
use contact_physics::math::{BodyState, Pose, Rotation, Vec3};
use contact_physics::normal::NormalLawKind;
use contact_physics::shape::ShapeKind;
use contact_scene::{BodyDescription, Coupling, ForceTorque, Inputs, Scene, SceneDescription};

const N: usize = 5;
const RADIUS: f64 = 0.025;
const MASS: f64 = 0.1;
/// Hunt-Crossley: f = k d^1.5 + b d^1.5 d'.
const K: f64 = 1e9;
const B: f64 = 2e8;
const SPEED: f64 = 0.5;
/// The first ball starts this far (m) from the second.
const GAP: f64 = 2e-4;

fn start() -> Vec<(f64, f64)> {
    (0..N).map(|i| (2.0 * RADIUS * i as f64 - if i == 0 { GAP } else { 0.0 }, if i == 0 { SPEED } else { 0.0 })).collect()
}

/// The law between neighbours, written from its formula: the force pushing them apart.
fn law(depth: f64, rate: f64) -> f64 {
    if depth <= 0.0 {
        return 0.0;
    }
    (K * depth.powf(1.5) + B * rate * depth.powf(1.5)).max(0.0)
}

/// The accelerations of the balls at positions `x` and speeds `v`: every pair of neighbours.
fn accelerations(x: &[f64; N], v: &[f64; N]) -> [f64; N] {
    let mut a = [0.0; N];
    for i in 0..N - 1 {
        let f = law(2.0 * RADIUS - (x[i + 1] - x[i]), v[i] - v[i + 1]);
        a[i] -= f / MASS;
        a[i + 1] += f / MASS;
    }
    a
}

/// The monolithic reference: RK4 at 1 us until `time`; the speeds.
fn reference(time: f64) -> [f64; N] {
    let s = start();
    let mut x: [f64; N] = std::array::from_fn(|i| s[i].0);
    let mut v: [f64; N] = std::array::from_fn(|i| s[i].1);
    let dt = 1e-6;
    let add = |a: &[f64; N], b: &[f64; N], h: f64| -> [f64; N] { std::array::from_fn(|i| a[i] + h * b[i]) };
    for _ in 0..(time / dt).round() as usize {
        let a1 = accelerations(&x, &v);
        let (x2, v2) = (add(&x, &v, dt / 2.0), add(&v, &a1, dt / 2.0));
        let a2 = accelerations(&x2, &v2);
        let (x3, v3) = (add(&x, &v2, dt / 2.0), add(&v, &a2, dt / 2.0));
        let a3 = accelerations(&x3, &v3);
        let (x4, v4) = (add(&x, &v3, dt), add(&v, &a3, dt));
        let a4 = accelerations(&x4, &v4);
        x = std::array::from_fn(|i| x[i] + dt / 6.0 * (v[i] + 2.0 * v2[i] + 2.0 * v3[i] + v4[i]));
        v = std::array::from_fn(|i| v[i] + dt / 6.0 * (a1[i] + 2.0 * a2[i] + 2.0 * a3[i] + a4[i]));
    }
    v
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Order {
    SceneFirst,
    Jacobi,
    BodiesFirst,
}

fn state(x: f64, v: f64) -> BodyState {
    BodyState { pose: Pose { r: Vec3::new(x, 0.0, 0.0), q: Rotation::identity() }, v: Vec3::new(v, 0.0, 0.0), w: Vec3::zeros() }
}

/// A body stepped exactly under a held force (a point mass, no other force).
fn step(s: &mut BodyState, w: &ForceTorque, h: f64) {
    let a = w.0 / MASS;
    s.pose.r += s.v * h + a * (0.5 * h * h);
    s.v += a * h;
}

fn scene() -> Scene {
    let mut d = SceneDescription::default();
    d.normal.law = NormalLawKind::HuntCrossley.value();
    d.normal.stiffness = K;
    d.normal.damping = B;
    d.normal.exponent = 1.5;
    d.normal.damping_exponent = 1.5;
    d.normal.velocity_exponent = 1.0;
    d.friction.law = FrictionLawKind::None.value();
    d.coupling.step_average = true;
    for _ in 0..N {
        let mut b = BodyDescription::new(ShapeKind::Sphere);
        b.geometry.radius = RADIUS;
        b.body.mass = MASS;
        d.bodies.push(b);
    }
    Scene::new(&d, None).unwrap()
}

#[test]
fn newtons_cradle_keeps_its_momentum_and_gives_the_reference_speeds() {
    let time = 0.02;
    let expected = reference(time);
    println!("reference (RK4 at 1 us) after {time} s: {expected:?}");
    let p0 = MASS * SPEED;
    // The reference's own momentum and its energy: the law is well resolved.
    assert!((expected.iter().sum::<f64>() * MASS - p0).abs() < 1e-12 * p0);
    assert!(expected[N - 1] > 0.5 * SPEED && expected.iter().map(|v| v * v).sum::<f64>() < SPEED * SPEED);
    let scene = scene();
    let h = 1e-3;
    for order in [Order::SceneFirst, Order::Jacobi, Order::BodiesFirst] {
        let mut bodies: Vec<BodyState> = start().iter().map(|(x, v)| state(*x, *v)).collect();
        let mut coupling = Coupling::new(&scene);
        let mut held: Vec<ForceTorque> = coupling.outputs(&scene, Some(&bodies), h).unwrap().to_vec();
        let mut worst = 0.0_f64;
        for k in 0..(time / h).round() as usize {
            match order {
                Order::SceneFirst => {
                    held = coupling.outputs(&scene, Some(&bodies), h).unwrap().to_vec();
                    coupling.do_step(&scene, h, Inputs::None).unwrap();
                    bodies.iter_mut().zip(&held).for_each(|(b, w)| step(b, w, h));
                }
                Order::Jacobi => {
                    let at_start = bodies.clone();
                    coupling.do_step(&scene, h, Inputs::AtStart(&at_start)).unwrap();
                    bodies.iter_mut().zip(&held).for_each(|(b, w)| step(b, w, h));
                    held = coupling.outputs(&scene, None, h).unwrap().to_vec();
                }
                Order::BodiesFirst => {
                    bodies.iter_mut().zip(&held).for_each(|(b, w)| step(b, w, h));
                    coupling.do_step(&scene, h, Inputs::AtEnd(&bodies)).unwrap();
                    held = coupling.outputs(&scene, None, h).unwrap().to_vec();
                }
            }
            let p: Vec3 = bodies.iter().map(|b| b.v * MASS).sum();
            let error = (p - Vec3::new(p0, 0.0, 0.0)).norm() / p0;
            worst = worst.max(error);
            assert!(error <= 1e-12, "{order:?}: after step {}, momentum {p} against {p0}", k + 1);
            // Never an energy gain.
            let energy: f64 = bodies.iter().map(|b| 0.5 * MASS * b.v.norm_squared()).sum();
            assert!(energy <= 0.5 * MASS * SPEED * SPEED * (1.0 + 1e-12), "{order:?}: after step {}, kinetic energy {energy} J", k + 1);
        }
        let speeds: Vec<f64> = bodies.iter().map(|b| b.v.x).collect();
        println!("{order:?} at 1 ms: {speeds:?}, momentum within {worst:e}");
        for i in 0..N {
            let error = (speeds[i] - expected[i]).abs();
            assert!(error <= 0.02 * SPEED, "{order:?}: ball {} leaves at {} m/s, the reference at {} m/s", i + 1, speeds[i], expected[i]);
        }
        assert!((speeds[N - 1] / expected[N - 1] - 1.0).abs() < 0.02, "{order:?}: the last ball at {} m/s, the reference {}", speeds[N - 1], expected[N - 1]);
    }
}
