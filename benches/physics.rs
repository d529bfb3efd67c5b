//! Per-evaluation cost of the block (`Block::evaluate`: the geometry pair, every point's laws and
//! the sums) for each pair family and size, and of each normal and friction law alone.
//!
//! `cargo bench --bench physics` (criterion); `cargo xtask bench` runs this and the FMI cycle and
//! prints the table. Every scene is a resting or sliding contact: the bodies overlap slightly and
//! B moves, so the normal and friction laws do real work at every contact point.

mod common;

use std::hint::black_box;

use common::{cloud_points, data_file, grid_text, sphere_points, uv_sphere_obj, Order};
use contact_force::block::{Block, Frame, Inputs, Outputs, Parameters};
use contact_force::physics::contact::PointState;
use contact_force::physics::friction::{FrictionLawKind, TangentialState};
use contact_force::physics::math::{rotation_from_wxyz, Pose, Vec3};
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::shape::ShapeKind;
use criterion::{BenchmarkId, Criterion, Throughput};

/// A block with its inputs and the buffers a warm evaluation reuses.
struct Scene {
    block: Block,
    inputs: Inputs,
    scratch: Vec<contact_force::physics::geometry::ContactPoint>,
    states: Vec<PointState>,
    out: Outputs,
}

impl Scene {
    fn new(parameters: &Parameters, frame_a: Frame, frame_b: Frame) -> Scene {
        let (block, _) = Block::new(parameters, None).unwrap_or_else(|e| panic!("benchmark parameters refused: {e}"));
        let mut scene =
            Scene { block, inputs: Inputs::of_frames(frame_a, frame_b), scratch: Vec::new(), states: Vec::new(), out: Outputs::default() };
        scene.evaluate();
        scene
    }

    /// The geometry alone: the pair's contact points at the bodies' poses (no laws, no sums).
    fn geometry(&mut self) -> usize {
        let pose = |f: &Frame| Pose { r: Vec3::from(f.r_0), q: rotation_from_wxyz(&f.q).unwrap().0 };
        let (a, b) = (pose(&self.inputs.frame_a), pose(&self.inputs.frame_b));
        self.scratch.clear();
        self.block.pair().contacts(black_box(&a), black_box(&b), &mut self.scratch);
        self.scratch.len()
    }

    /// The derivatives of the outputs along `N` seed directions of the inputs (forward AD).
    fn tangents<const N: usize>(&mut self, seeds: &[[f64; 26]; N]) -> f64 {
        let rows = self.block.output_tangents(black_box(&self.inputs), &self.states, &mut self.scratch, seeds).expect("differentiable");
        rows[8][0]
    }

    fn evaluate(&mut self) -> f64 {
        self.block.evaluate(black_box(&self.inputs), &mut self.scratch, &self.states, &mut self.out).expect("evaluates");
        self.out.frame_b.f_0[2]
    }

    /// How many contact points one evaluation computes (the pair's points, touching or not).
    fn points(&self) -> usize {
        self.scratch.len().max(self.out.points as usize)
    }
}

fn shape(kind: ShapeKind) -> i64 {
    kind.value()
}

/// B at height `z` above A at the origin, sliding along x and sinking slowly.
fn frames(z: f64, q_b: [f64; 4]) -> (Frame, Frame) {
    let a = Frame::default();
    let b = Frame { r_0: [0.0, 0.0, z], q: q_b, v_0: [0.1, 0.02, -0.01], w_0: [0.0, 0.0, 0.3] };
    (a, b)
}

const IDENTITY: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

/// A rotation of `angle` about the unit axis, as (w, x, y, z).
fn about(axis: [f64; 3], angle: f64) -> [f64; 4] {
    let (s, c) = (angle / 2.0).sin_cos();
    [c, axis[0] * s, axis[1] * s, axis[2] * s]
}

fn bench_scene(c: &mut Criterion, order: &mut Order, group: &str, id: &str, scene: impl FnOnce() -> Scene) {
    bench_points(c, order, group, id, scene, None);
}

/// As [`bench_scene`], for a scene whose evaluation works on `points` points (by default the
/// points the pair gives).
fn bench_points(c: &mut Criterion, order: &mut Order, group: &str, id: &str, scene: impl FnOnce() -> Scene, points: Option<usize>) {
    let profile = common::profile_iterations(&format!("{group}/{id}"));
    let geometry_profile = if group == "pair" { common::profile_iterations(&format!("geometry/{id}")) } else { None };
    if profile == Some(0) && geometry_profile.unwrap_or(0) == 0 {
        return;
    }
    let mut scene = scene();
    let points = points.unwrap_or_else(|| scene.points());
    order.add(group, id, points);
    if let Some(iterations) = geometry_profile.filter(|n| *n > 0) {
        for _ in 0..iterations {
            black_box(scene.geometry());
        }
        return;
    }
    if let Some(iterations) = profile {
        for _ in 0..iterations {
            black_box(scene.evaluate());
        }
        return;
    }
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(points as u64));
    g.bench_function(id, |b| b.iter(|| scene.evaluate()));
    g.finish();
    if group == "pair" {
        // The same pair's geometry alone (GeometryPair::contacts into a reused vector).
        order.add("geometry", id, points);
        let mut g = c.benchmark_group("geometry");
        g.bench_function(id, |b| b.iter(|| scene.geometry()));
        g.finish();
    }
}

fn pairs(c: &mut Criterion, order: &mut Order) {
    let mut p = Parameters::default();
    p.geometry_a.shape = shape(ShapeKind::Plane);
    p.geometry_b.shape = shape(ShapeKind::Sphere);
    p.geometry_b.radius = 0.1;
    let (a, b) = frames(0.0999, IDENTITY);
    bench_scene(c, order, "pair", "sphere-plane", || Scene::new(&p, a, b));
    // The same on a plane turned 0.3 rad about x (the sphere as deep along its normal).
    let (mut a, mut b) = frames(0.0, IDENTITY);
    a.q = about([1.0, 0.0, 0.0], 0.3);
    b.r_0 = [0.0, -0.0999 * 0.3_f64.sin(), 0.0999 * 0.3_f64.cos()];
    bench_scene(c, order, "pair", "sphere-tilted-plane", || Scene::new(&p, a, b));

    let mut p = Parameters::default();
    p.geometry_b.shape = shape(ShapeKind::Box);
    p.geometry_b.size = [0.1, 0.1, 0.1];
    let (a, b) = frames(0.0499, IDENTITY);
    bench_scene(c, order, "pair", "box-plane (4 points)", || Scene::new(&p, a, b));

    // The same box with a sphere beside it as one Compound body: the box-plane and the
    // sphere-plane pairs, their points numbered one after the other.
    let mut p = Parameters::default();
    p.geometry_b.shape = shape(ShapeKind::Compound);
    p.geometry_b.file = data_file("compound-box-sphere.txt", || "Box 0.1 0.1 0.1  0 0 0\nSphere 0.05  0.1 0 0\n".to_string());
    let (a, b) = frames(0.0499, IDENTITY);
    bench_scene(c, order, "pair", "compound-plane (box and sphere, 5 points)", || Scene::new(&p, a, b));

    let mut p = Parameters::default();
    for g in [&mut p.geometry_a, &mut p.geometry_b] {
        g.shape = shape(ShapeKind::Capsule);
        g.radius = 0.05;
        g.length = 0.2;
    }
    let (a, b) = frames(0.0999, about([1.0, 0.0, 0.0], 1.2));
    bench_scene(c, order, "pair", "capsule-capsule", || Scene::new(&p, a, b));

    let hull = data_file("hull-1000.txt", || sphere_points(1000, 0.1, 7));
    let mut p = Parameters::default();
    for g in [&mut p.geometry_a, &mut p.geometry_b] {
        g.shape = shape(ShapeKind::ConvexHull);
        g.file = hull.clone();
    }
    let (a, b) = frames(0.1995, about([0.6, 0.0, 0.8], 0.7));
    bench_scene(c, order, "pair", "hull-hull (1000 vertices each)", || Scene::new(&p, a, b));

    let mut p = Parameters::default();
    p.geometry_b.shape = shape(ShapeKind::Mesh);
    p.geometry_b.file = data_file("uv-sphere-51x100.obj", || uv_sphere_obj(51, 100, 0.1));
    let (a, b) = frames(0.0995, IDENTITY);
    bench_scene(c, order, "pair", "mesh-plane (10,000 triangles)", || Scene::new(&p, a, b));
}

/// Mesh size scaling: a UV sphere of 2 s (r - 1) triangles resting on a plane (its vertices are
/// the contact candidates) and a sphere resting on it (parry's BVH point query).
fn meshes(c: &mut Criterion, order: &mut Order) {
    for (rings, segments) in [(16, 32), (51, 100), (161, 320)] {
        let triangles = 2 * segments * (rings - 1);
        let file = data_file(&format!("uv-sphere-{rings}x{segments}.obj"), || uv_sphere_obj(rings, segments, 0.1));
        let mut p = Parameters::default();
        p.geometry_b.shape = shape(ShapeKind::Mesh);
        p.geometry_b.file = file.clone();
        // Rotated so that no pole touches: the contact is a few vertices of a generic patch.
        let (a, b) = frames(0.0995, about([1.0, 0.0, 0.0], 1.0));
        bench_scene(c, order, "mesh-plane", &format!("{triangles} triangles"), || Scene::new(&p, a, b));

        let mut p = Parameters::default();
        p.geometry_a.shape = shape(ShapeKind::Mesh);
        p.geometry_a.file = file;
        p.geometry_b.shape = shape(ShapeKind::Sphere);
        p.geometry_b.radius = 0.02;
        let (a, b) = frames(0.1195, IDENTITY);
        bench_scene(c, order, "mesh-sphere", &format!("{triangles} triangles"), || Scene::new(&p, a, b));
    }
}

/// Point clouds of 10^2 to 10^6 points against a plane and a box: every point is a contact
/// candidate, about half of them penetrate.
fn clouds(c: &mut Criterion, order: &mut Order) {
    for exponent in 2..=6 {
        let n = 10usize.pow(exponent);
        let file = data_file(&format!("cloud-{n}.txt"), || cloud_points(n, 0.2, 1e-3, 11));
        let id = format!("1e{exponent} points");

        let mut p = Parameters::default();
        p.geometry_b.shape = shape(ShapeKind::PointCloud);
        p.geometry_b.file = file.clone();
        bench_points(c, order, "cloud-plane", &id, || Scene::new(&p, frames(0.0, IDENTITY).0, frames(0.0, IDENTITY).1), Some(n));

        let mut p = Parameters::default();
        p.geometry_a.shape = shape(ShapeKind::Box);
        p.geometry_a.size = [0.4, 0.4, 0.2];
        p.geometry_b.shape = shape(ShapeKind::PointCloud);
        p.geometry_b.file = file;
        bench_points(c, order, "cloud-box", &id, || Scene::new(&p, frames(0.0, IDENTITY).0, frames(0.1, IDENTITY).1), Some(n));
    }
}

/// 10^4 points on grid surfaces of 100 x 100 and 1000 x 1000 nodes over the same square metre.
fn grids(c: &mut Criterion, order: &mut Order) {
    let cloud = data_file("cloud-grid-10000.txt", || cloud_points(10_000, 0.9, 2e-3, 13));
    for nodes in [100, 1000] {
        let mut p = Parameters::default();
        p.geometry_a.shape = shape(ShapeKind::GridSurface);
        p.geometry_a.file = data_file(&format!("grid-{nodes}.txt"), || grid_text(nodes, 1.0));
        p.geometry_b.shape = shape(ShapeKind::PointCloud);
        p.geometry_b.file = cloud.clone();
        let (a, b) = frames(0.0, IDENTITY);
        bench_points(c, order, "grid-cloud", &format!("{nodes}x{nodes} grid, 1e4 points"), || Scene::new(&p, a, b), Some(10_000));
    }
}

/// Each law alone: the normal laws at a depth and approach speed, the friction laws at a normal
/// force and slip velocity (the stateful ones with a deflection).
fn laws(c: &mut Criterion, order: &mut Order) {
    let mut g = c.benchmark_group("normal-law");
    for kind in NormalLawKind::ITEMS {
        let mut p = Parameters::default();
        p.normal.law = kind.value;
        let laws = p.validate(None).expect("valid law").0.laws;
        let name = format!("normal-law/{}", kind.name);
        if let Some(iterations) = common::profile_iterations(&name) {
            (0..iterations).for_each(|_| {
                black_box(laws.normal.force(black_box(2e-4), black_box(0.05), black_box(0.0)));
            });
            continue;
        }
        order.add("normal-law", kind.name, 1);
        g.bench_function(BenchmarkId::from_parameter(kind.name), |b| {
            b.iter(|| laws.normal.force(black_box(2e-4), black_box(0.05), black_box(0.0)))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("friction-law");
    let slip = Vec3::new(3e-3, -1e-3, 0.0);
    let state = TangentialState { deflection: Vec3::new(1e-5, 2e-6, 0.0), slipping: false };
    for kind in FrictionLawKind::ITEMS {
        let mut p = Parameters::default();
        p.friction.law = kind.value;
        let laws = p.validate(None).expect("valid law").0.laws;
        let name = format!("friction-law/{}", kind.name);
        if let Some(iterations) = common::profile_iterations(&name) {
            (0..iterations).for_each(|_| {
                black_box(laws.friction.force(black_box(2e-4), black_box(150.0), black_box(&slip), black_box(&state)));
            });
            continue;
        }
        order.add("friction-law", kind.name, 1);
        g.bench_function(BenchmarkId::from_parameter(kind.name), |b| {
            b.iter(|| laws.friction.force(black_box(2e-4), black_box(150.0), black_box(&slip), black_box(&state)))
        });
    }
    g.finish();
}

/// The cost of the exact derivatives next to the outputs' (`Block::evaluate`) in the same scene:
/// one directional derivative (`Block::output_tangents` with one seed, what
/// fmi*GetDirectionalDerivative and the output derivatives do) and the whole 26-column Jacobian
/// in one pass (what fmi3GetAdjointDerivative does). `cargo xtask bench` prints their ratios.
fn derivatives(c: &mut Criterion, order: &mut Order) {
    let seed: [f64; 26] = std::array::from_fn(|k| 0.3 + 0.1 * k as f64);
    let units: [[f64; 26]; 26] = std::array::from_fn(|j| std::array::from_fn(|k| if j == k { 1.0 } else { 0.0 }));
    let mut scenes: Vec<(&str, Parameters, Frame, Frame, Option<usize>)> = Vec::new();
    let mut p = Parameters::default();
    p.geometry_b.radius = 0.1;
    let (a, b) = frames(0.0999, IDENTITY);
    scenes.push(("sphere-plane", p.clone(), a.clone(), b.clone(), None));
    let mut stateful = p.clone();
    stateful.normal.law = NormalLawKind::GroundModel.value();
    stateful.friction.law = FrictionLawKind::ElasticCone.value();
    scenes.push(("sphere-plane GroundModel ElasticCone", stateful, a, b, None));
    let mut p = Parameters::default();
    p.geometry_b.shape = shape(ShapeKind::Box);
    p.geometry_b.size = [0.1, 0.1, 0.1];
    let (a, b) = frames(0.0499, about([0.6, 0.0, 0.8], 0.02));
    scenes.push(("box-plane", p, a, b, None));
    let mut p = Parameters::default();
    for g in [&mut p.geometry_a, &mut p.geometry_b] {
        g.shape = shape(ShapeKind::Capsule);
        g.radius = 0.05;
        g.length = 0.2;
    }
    let (a, b) = frames(0.0999, about([1.0, 0.0, 0.0], 1.2));
    scenes.push(("capsule-capsule", p, a, b, None));
    let mut p = Parameters::default();
    for g in [&mut p.geometry_a, &mut p.geometry_b] {
        g.shape = shape(ShapeKind::ConvexHull);
        g.file = data_file("hull-1000.txt", || sphere_points(1000, 0.1, 7));
    }
    let (a, b) = frames(0.1995, about([0.6, 0.0, 0.8], 0.7));
    scenes.push(("hull-hull 1000 vertices", p, a, b, None));
    let cloud = data_file("cloud-10000.txt", || cloud_points(10_000, 0.2, 1e-3, 11));
    let mut p = Parameters::default();
    p.geometry_b.shape = shape(ShapeKind::PointCloud);
    p.geometry_b.file = cloud.clone();
    let (a, b) = frames(0.0, IDENTITY);
    scenes.push(("cloud-plane 1e4 points", p, a, b, Some(10_000)));
    let mut p = Parameters::default();
    p.geometry_a.shape = shape(ShapeKind::Box);
    p.geometry_a.size = [0.4, 0.4, 0.2];
    p.geometry_b.shape = shape(ShapeKind::PointCloud);
    p.geometry_b.file = cloud;
    scenes.push(("cloud-box 1e4 points", p, frames(0.0, IDENTITY).0, frames(0.1, IDENTITY).1, Some(10_000)));
    let mut p = Parameters::default();
    p.geometry_a.shape = shape(ShapeKind::GridSurface);
    p.geometry_a.file = data_file("grid-100.txt", || grid_text(100, 1.0));
    p.geometry_b.shape = shape(ShapeKind::PointCloud);
    p.geometry_b.file = data_file("cloud-grid-10000.txt", || cloud_points(10_000, 0.9, 2e-3, 13));
    let (a, b) = frames(0.0, IDENTITY);
    scenes.push(("grid-cloud 100x100, 1e4 points", p, a, b, Some(10_000)));

    for (name, p, a, b, points) in scenes {
        let ids = [format!("{name}: outputs"), format!("{name}: directional"), format!("{name}: jacobian")];
        let profiles = ids.clone().map(|id| common::profile_iterations(&format!("derivative/{id}")));
        if profiles.iter().all(|p| *p == Some(0)) {
            continue;
        }
        let mut scene = Scene::new(&p, a, b);
        if scene.block.is_stateful() {
            let state = PointState { tangential: TangentialState { deflection: Vec3::new(1e-6, 2e-7, 0.0), slipping: false }, onset_speed: 0.0 };
            scene.states = vec![state; scene.block.pair().max_points()];
        }
        if let [Some(outputs), Some(directional), Some(jacobian)] = profiles {
            (0..outputs).for_each(|_| {
                black_box(scene.evaluate());
            });
            (0..directional).for_each(|_| {
                black_box(scene.tangents(&[seed]));
            });
            (0..jacobian).for_each(|_| {
                black_box(scene.tangents(&units));
            });
            continue;
        }
        let n = points.unwrap_or_else(|| scene.points());
        let mut g = c.benchmark_group("derivative");
        order.add("derivative", &ids[0], n);
        g.bench_function(ids[0].as_str(), |bench| bench.iter(|| scene.evaluate()));
        order.add("derivative", &ids[1], n);
        g.bench_function(ids[1].as_str(), |bench| bench.iter(|| scene.tangents(&[seed])));
        order.add("derivative", &ids[2], n);
        g.bench_function(ids[2].as_str(), |bench| bench.iter(|| scene.tangents(&units)));
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .sample_size(30)
        .configure_from_args();
    let mut order = Order::new("physics");
    pairs(&mut c, &mut order);
    meshes(&mut c, &mut order);
    clouds(&mut c, &mut order);
    grids(&mut c, &mut order);
    laws(&mut c, &mut order);
    derivatives(&mut c, &mut order);
    drop(order);
    c.final_summary();
}
