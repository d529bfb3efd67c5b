//! Sixteen spheres dropped into a box (the inside of a Box shape, immovable), under the linear
//! spring-damper with Adams Coulomb friction, StepAverage at 1 and 10 ms, in the scene-first and
//! Jacobi orders; the spheres are point masses integrated here exactly under the held force and
//! gravity. They settle: the bodies' energy (kinetic and potential) never exceeds what they
//! started with, they end at rest (on the floor or on other spheres), and none goes deeper into
//! a wall than the undamped spring would take the fastest.

mod common;

use common::{linear, sphere};
use contact_physics::friction::FrictionLawKind;
use contact_physics::math::{BodyState, Pose, Rotation, Vec3};
use contact_physics::shape::ShapeKind;
use contact_scene::{BodyDescription, Coupling, ForceTorque, Inputs, Scene};

const G: f64 = 9.81;
const R: f64 = 0.02;
const M: f64 = 0.05;
/// The box's inside: 0.2 m square, 0.4 m high, its floor at z = 0.
const HALF: f64 = 0.1;
const HEIGHT: f64 = 0.4;

fn scene() -> Scene {
    // omega = sqrt(k / m) = 447 rad/s (0.09 per sub-step); damping ratio 0.5 on one sphere.
    let (k, c) = (1e4, 22.0);
    let mut d = linear(k, c);
    d.friction.law = FrictionLawKind::AdamsCoulomb.value();
    d.friction.mu_static = 0.3;
    d.friction.mu_dynamic = 0.3;
    d.friction.v_stiction = 1e-3;
    d.friction.v_transition = 2e-3;
    d.coupling.step_average = true;
    d.coupling.max_substep = 2e-4;
    let mut container = BodyDescription::new(ShapeKind::Box);
    container.geometry.size = [2.0 * HALF, 2.0 * HALF, HEIGHT];
    container.geometry.inside = true;
    d.bodies.push(container);
    d.bodies.extend((0..16).map(|_| sphere(R, M)));
    Scene::new(&d, None).unwrap()
}

fn state(r: Vec3) -> BodyState {
    BodyState { pose: Pose { r, q: Rotation::identity() }, v: Vec3::zeros(), w: Vec3::zeros() }
}

/// The spheres' energy: kinetic, and potential above the floor.
fn energy(states: &[BodyState]) -> f64 {
    states[1..].iter().map(|s| 0.5 * M * s.v.norm_squared() + M * G * s.pose.r.z).sum()
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Order {
    SceneFirst,
    Jacobi,
}

/// The drop in `order` at steps of `h`, 3 s.
fn settle(order: Order, h: f64) {
    let scene = scene();
    // The box's centre half its height up; the spheres in two layers of eight, each
    // nudged off the grid so that they do not fall in columns.
    let mut states = vec![state(Vec3::new(0.0, 0.0, 0.5 * HEIGHT))];
    for i in 0..16 {
        let (col, row, layer) = ((i % 4) as f64, ((i / 4) % 2) as f64, (i / 8) as f64);
        let jitter = 0.001 * ((i * 7 % 5) as f64 - 2.0);
        states.push(state(Vec3::new(-0.0675 + 0.045 * col + jitter, -0.03 + 0.06 * row - jitter, 0.12 + 0.1 * layer + 0.01 * col)));
    }
    for (i, a) in states.iter().enumerate().skip(1) {
        for b in &states[i + 1..] {
            assert!((a.pose.r - b.pose.r).norm() > 2.0 * R, "the spheres start apart");
        }
    }
    let start = energy(&states);
    let mut coupling = Coupling::new(&scene);
    let mut held: Vec<ForceTorque> = coupling.outputs(&scene, Some(&states), h).unwrap().to_vec();
    let (mut highest, mut worst_wall) = (f64::NEG_INFINITY, f64::INFINITY);
    for _ in 0..(3.0 / h).round() as usize {
        match order {
            Order::SceneFirst => {
                held = coupling.outputs(&scene, Some(&states), h).unwrap().to_vec();
                coupling.do_step(&scene, h, Inputs::None).unwrap();
            }
            Order::Jacobi => coupling.do_step(&scene, h, Inputs::AtStart(&states)).unwrap(),
        }
        for (s, (f, _)) in states.iter_mut().zip(&held).skip(1) {
            let a = f / M - Vec3::new(0.0, 0.0, G);
            s.pose.r += s.v * h + a * (0.5 * h * h);
            s.v += a * h;
        }
        if order == Order::Jacobi {
            held = coupling.outputs(&scene, None, h).unwrap().to_vec();
        }
        highest = highest.max(energy(&states) - start);
        // How far each sphere's centre stays inside the walls and above the floor, less
        // its radius: negative is penetration, below -R it went through.
        for s in &states[1..] {
            let r = s.pose.r;
            worst_wall = worst_wall.min(HALF - r.x.abs() - R).min(HALF - r.y.abs() - R).min(r.z - R);
        }
    }
    let kinetic: f64 = states[1..].iter().map(|s| 0.5 * M * s.v.norm_squared()).sum();
    let top = states[1..].iter().map(|s| s.pose.r.z).fold(0.0, f64::max);
    println!(
        "{order:?} h = {h}: energy at most {highest:.3e} J above its start ({start:.4} J), kinetic at 3 s {kinetic:.2e} J, deepest into a wall {:.3} mm, highest centre {top:.4} m",
        -worst_wall * 1e3
    );
    assert!(highest <= 1e-9 * start, "{order:?} h = {h}: the spheres gained {highest} J");
    assert!(kinetic < 1e-6, "{order:?} h = {h}: still moving, {kinetic} J");
    // Nothing deeper than the undamped spring takes the fastest sphere (from 0.25 m):
    // v / omega = 5.0 mm, a quarter of a radius.
    let deepest = (2.0 * G * 0.25_f64).sqrt() / (1e4 / M).sqrt();
    assert!(-worst_wall < deepest, "{order:?} h = {h}: a sphere {} mm into a wall", -worst_wall * 1e3);
    // At rest in the box: on its floor or on other spheres.
    assert!(top < 3.0 * R, "{order:?} h = {h}: a sphere's centre is at {top} m");
}

#[test]
fn sixteen_spheres_dropped_into_a_box_settle_in_it_at_1_ms_scene_first() {
    settle(Order::SceneFirst, 1e-3);
}

#[test]
fn sixteen_spheres_dropped_into_a_box_settle_in_it_at_10_ms_scene_first() {
    settle(Order::SceneFirst, 1e-2);
}

#[test]
fn sixteen_spheres_dropped_into_a_box_settle_in_it_at_1_ms_jacobi() {
    settle(Order::Jacobi, 1e-3);
}

#[test]
fn sixteen_spheres_dropped_into_a_box_settle_in_it_at_10_ms_jacobi() {
    settle(Order::Jacobi, 1e-2);
}
