//! ContactScene's cost (issue 27) beside ContactForce's, on the same laws:
//!
//! - `scene/16 resting spheres: one scene evaluation`: 16 spheres (r = 0.05 m) resting 0.1 mm
//!   deep on a plane, 0.15 m apart, in one scene: the broad phase (sweep and prune over the 17
//!   bodies) and the 16 sphere-plane contacts, the wrenches summed per body.
//! - `scene/16 resting spheres: 16 ContactForce evaluations`: the same 16 contacts as 16
//!   ContactForce blocks (sphere on plane), each evaluated once: what one scene replaces.
//! - `scene/3-box stack: one 1 ms StepAverage step`: three 0.1 m boxes stacked on a plane at rest,
//!   the scene's outputs over a 1 ms step and its DoStep (every body integrated together in
//!   10 sub-steps of 0.1 ms, each evaluating the 3 box contacts of 8 points).
//!
//! - `scene/N resting spheres on a grid: one scene evaluation` for N = 25, 100 and 400: the
//!   same spheres on a square grid, so that each touches the plane only; per sphere, the time
//!   grows with N as the broad phase's sort (n log n) and not as the N (N + 1) / 2 pairs an
//!   all-pairs loop would test.
//!
//! `cargo bench --bench scene`; `cargo xtask bench` runs it with the others and prints the table.

mod common;

use std::hint::black_box;

use common::Order;
use contact_force::block::{Block, Frame, Inputs, Outputs, Parameters};
use contact_force::physics::math::{BodyState, Pose, Rotation, Vec3};
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::shape::ShapeKind;
use contact_scene::{BodyDescription, Coupling, Inputs as SceneInputs, Scene, SceneDescription, SceneOutputs, Workspace};
use criterion::{Criterion, Throughput};

const SPHERES: usize = 16;

/// Under `CONTACTFORCE_BENCH_PROFILE` (common::profile_iterations), runs `f` that many times
/// without criterion and returns true; false when criterion should time it.
fn profiled(id: &str, mut f: impl FnMut() -> f64) -> bool {
    match common::profile_iterations(&format!("scene/{id}")) {
        Some(n) => {
            for _ in 0..n {
                black_box(f());
            }
            true
        }
        None => false,
    }
}
const RADIUS: f64 = 0.05;
const DEPTH: f64 = 1e-4;

fn laws(p: &mut Parameters) {
    p.normal.law = NormalLawKind::HuntCrossley.value();
    p.normal.stiffness = 1e7;
    p.friction.law = FrictionLawKind::Stribeck.value();
}

fn at(x: f64, y: f64, z: f64) -> BodyState {
    BodyState { pose: Pose { r: Vec3::new(x, y, z), q: Rotation::identity() }, v: Vec3::new(0.01, 0.0, -0.001), w: Vec3::zeros() }
}

/// The 16 spheres' states on a 4 x 4 grid (the plane first).
fn resting() -> Vec<BodyState> {
    let mut states = vec![BodyState { v: Vec3::zeros(), ..at(0.0, 0.0, 0.0) }];
    for i in 0..SPHERES {
        states.push(at(0.15 * (i % 4) as f64, 0.15 * (i / 4) as f64, RADIUS - DEPTH));
    }
    states
}

fn spheres(c: &mut Criterion, order: &mut Order) {
    let mut p = Parameters::default();
    laws(&mut p);
    p.geometry_b.radius = RADIUS;
    let mut d = SceneDescription { normal: p.normal.clone(), friction: p.friction.clone(), ..SceneDescription::default() };
    d.bodies.push(BodyDescription::new(ShapeKind::Plane));
    for _ in 0..SPHERES {
        let mut b = BodyDescription::new(ShapeKind::Sphere);
        b.geometry.radius = RADIUS;
        b.body.mass = 1.0;
        d.bodies.push(b);
    }
    let scene = Scene::new(&d, None).expect("the scene");
    let states = resting();
    let (mut work, mut out) = (Workspace::default(), SceneOutputs::default());
    scene.evaluate(&states, &mut work, &mut out);
    assert_eq!(out.active_contacts, SPHERES, "every sphere touches the plane");

    let (block, _) = Block::new(&p, None).expect("the block");
    let frame = |s: &BodyState| Frame { r_0: s.pose.r.into(), q: [1.0, 0.0, 0.0, 0.0], v_0: s.v.into(), w_0: s.w.into() };
    let inputs: Vec<Inputs> = states[1..].iter().map(|s| Inputs::of_frames(Frame::default(), frame(s))).collect();
    let (mut scratch, mut block_out) = (Vec::new(), Outputs::default());

    let mut one_scene = || {
        scene.evaluate(black_box(&states), &mut work, &mut out);
        out.bodies[1].f_0.z
    };
    let mut blocks = || {
        let mut sum = 0.0;
        for i in &inputs {
            block.evaluate(black_box(i), &mut scratch, &[], &mut block_out).expect("evaluates");
            sum += block_out.frame_b.f_0[2];
        }
        sum
    };
    let (scene_id, blocks_id) = ("16 resting spheres: one scene evaluation", "16 resting spheres: 16 ContactForce evaluations");
    order.add("scene", scene_id, SPHERES);
    order.add("scene", blocks_id, SPHERES);
    if profiled(scene_id, &mut one_scene) | profiled(blocks_id, &mut blocks) {
        return;
    }
    let mut g = c.benchmark_group("scene");
    g.throughput(Throughput::Elements(SPHERES as u64));
    g.bench_function(scene_id, |b| b.iter(&mut one_scene));
    g.bench_function(blocks_id, |b| b.iter(&mut blocks));
    g.finish();
}

/// A scene of a plane and `n` spheres resting 0.1 mm deep on a square grid 0.15 m apart.
fn grid(n: usize) -> (Scene, Vec<BodyState>) {
    let mut d = SceneDescription::default();
    d.normal.law = NormalLawKind::HuntCrossley.value();
    d.normal.stiffness = 1e7;
    d.bodies.push(BodyDescription::new(ShapeKind::Plane));
    let side = (n as f64).sqrt().ceil() as usize;
    let mut states = vec![BodyState { v: Vec3::zeros(), ..at(0.0, 0.0, 0.0) }];
    for i in 0..n {
        let mut b = BodyDescription::new(ShapeKind::Sphere);
        b.geometry.radius = RADIUS;
        b.body.mass = 1.0;
        d.bodies.push(b);
        states.push(at(0.15 * (i % side) as f64, 0.15 * (i / side) as f64, RADIUS - DEPTH));
    }
    (Scene::new(&d, None).expect("the scene"), states)
}

fn growth(c: &mut Criterion, order: &mut Order) {
    for n in [25, 100, 400] {
        let (scene, states) = grid(n);
        let (mut work, mut out) = (Workspace::default(), SceneOutputs::default());
        scene.evaluate(&states, &mut work, &mut out);
        assert_eq!(out.active_contacts, n, "every sphere touches the plane and no other");
        let mut one_scene = || {
            scene.evaluate(black_box(&states), &mut work, &mut out);
            out.bodies[1].f_0.z
        };
        let id = format!("{n} resting spheres on a grid: one scene evaluation");
        order.add("scene", &id, n);
        if profiled(&id, &mut one_scene) {
            continue;
        }
        let mut g = c.benchmark_group("scene");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(&id, |b| b.iter(&mut one_scene));
        g.finish();
    }
}

fn box_stack(c: &mut Criterion, order: &mut Order) {
    let mut d = SceneDescription::default();
    d.normal.law = NormalLawKind::LinearSpringDamper.value();
    d.normal.stiffness = 2.5e4;
    d.normal.damping = 75.0;
    d.friction.law = FrictionLawKind::None.value();
    d.coupling.step_average = true;
    d.coupling.max_substep = 1e-4;
    d.bodies.push(BodyDescription::new(ShapeKind::Plane));
    let mut states = vec![at(0.0, 0.0, 0.0)];
    states[0].v = Vec3::zeros();
    for i in 0..3 {
        let mut b = BodyDescription::new(ShapeKind::Box);
        b.geometry.size = [0.1; 3];
        b.body.mass = 1.0;
        let inertia = 0.1 * 0.1 / 6.0;
        b.body.inertia = [inertia, inertia, inertia, 0.0, 0.0, 0.0];
        d.bodies.push(b);
        let mut s = at(0.0, 0.0, 0.05 + 0.1 * i as f64 - 1e-4 * (3 - i) as f64);
        s.v = Vec3::zeros();
        states.push(s);
    }
    let scene = Scene::new(&d, None).expect("the scene");
    let h = 1e-3;
    let mut step = || {
        let mut coupling = Coupling::new(&scene);
        let f = coupling.outputs(&scene, Some(black_box(&states)), h).expect("the states are given")[1].0.z;
        coupling.do_step(&scene, h, SceneInputs::None).expect("outputs computed");
        f
    };
    let id = "3-box stack: one 1 ms StepAverage step";
    order.add("scene", id, 1);
    if profiled(id, &mut step) {
        return;
    }
    let mut g = c.benchmark_group("scene");
    g.bench_function(id, |b| b.iter(&mut step));
    g.finish();
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .sample_size(30)
        .configure_from_args();
    let mut order = Order::new("scene");
    spheres(&mut c, &mut order);
    box_stack(&mut c, &mut order);
    growth(&mut c, &mut order);
    drop(order);
    c.final_summary();
}
