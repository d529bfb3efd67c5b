//! The scene of two bodies is ContactForce, pair by pair: for every pair of shapes ContactForce's
//! block accepts (its pair table, the inside surfaces' table and Compound included), the scene
//! accepts the same two bodies, and at poses and twists in contact (B placed 0.2 to 3 mm into A
//! along the contact normal, random orientations, speeds and spins) both give every wrench
//! (force and torque about each frame origin, on A and on B) to 1e-12 of its size; a pair
//! ContactForce refuses, the scene refuses too.

use std::path::PathBuf;

use contact_force::block::{Block, Inputs, Outputs, Parameters};
use contact_physics::friction::FrictionLawKind;
use contact_physics::geometry_parameters::GeometryParameters;
use contact_physics::math::{BodyState, Pose, Rotation, Vec3};
use contact_physics::normal::NormalLawKind;
use contact_physics::shape::ShapeKind;
use contact_scene::{BodyDescription, Scene, SceneDescription, SceneOutputs, Workspace};
use nalgebra::Quaternion;

/// xorshift64*: the same draws on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
    fn vec(&mut self, s: f64) -> Vec3 {
        Vec3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }
    fn quaternion(&mut self) -> [f64; 4] {
        let q = Rotation::from_quaternion(Quaternion::new(self.range(-1., 1.), self.range(-1., 1.), self.range(-1., 1.), self.range(-1., 1.)));
        [q.w, q.i, q.j, q.k]
    }
}

fn folder() -> PathBuf {
    let f = std::env::temp_dir().join(format!("contact_scene_equals_{}", std::process::id()));
    std::fs::create_dir_all(&f).unwrap();
    f
}

/// The files of the file-based shapes, written once: a hull and a cloud of a box's corners and
/// mid-edges, a tetrahedron's mesh, a gentle height field, and a compound of a sphere and a box.
fn files() -> [(ShapeKind, String); 5] {
    let f = folder();
    let mut points = String::new();
    for i in 0..8 {
        let c = Vec3::new((i & 1) as f64 - 0.5, ((i >> 1) & 1) as f64 - 0.5, ((i >> 2) & 1) as f64 - 0.5);
        let p = c.component_mul(&Vec3::new(0.1, 0.08, 0.06));
        points.push_str(&format!("{},{},{}\n", p.x, p.y, p.z));
    }
    points.push_str("0.0,0.0,0.045\n0.0,0.0,-0.045\n");
    let mesh = "v 0.05 0 -0.03\nv -0.03 0.04 -0.03\nv -0.03 -0.04 -0.03\nv 0 0 0.05\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n";
    let mut grid = String::from("-0.4 -0.4 0.1 0.1\n");
    for j in 0..9 {
        let row: Vec<String> = (0..9).map(|i| format!("{}", 0.01 * ((i as f64 * 0.7).sin() + (j as f64 * 0.5).cos()))).collect();
        grid.push_str(&row.join(" "));
        grid.push('\n');
    }
    let compound = "Sphere 0.04 0.03 0 0\nBox 0.06 0.05 0.04 -0.03 0 0.01\n";
    let write = |name: &str, text: &str| {
        let path = f.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    [
        (ShapeKind::ConvexHull, write("hull.csv", &points)),
        (ShapeKind::PointCloud, write("cloud.csv", &points)),
        (ShapeKind::Mesh, write("mesh.obj", mesh)),
        (ShapeKind::GridSurface, write("grid.txt", &grid)),
        (ShapeKind::Compound, write("compound.txt", compound)),
    ]
}

/// A geometry of `kind`: the follower's sizes a few centimetres, a cavity's twice as large.
fn geometry(kind: ShapeKind, cavity: bool, files: &[(ShapeKind, String)]) -> GeometryParameters {
    let mut g = GeometryParameters::with_shape(kind);
    let s = if cavity { 3.0 } else { 1.0 };
    g.radius = 0.05 * s;
    g.length = 0.08 * s;
    g.size = [0.1 * s, 0.08 * s, 0.06 * s];
    g.r = [0.01, -0.02, 0.005];
    g.q = Rotation::from_axis_angle(&Vec3::z_axis(), 0.3).coords.into();
    let [x, y, z, w] = [g.q[0], g.q[1], g.q[2], g.q[3]];
    g.q = [w, x, y, z];
    if let Some((_, path)) = files.iter().find(|(k, _)| *k == kind) {
        g.file = path.clone();
    }
    g
}

fn state(frame: &contact_force::block::Frame) -> BodyState {
    let [w, x, y, z] = frame.q;
    BodyState {
        pose: Pose { r: Vec3::from(frame.r_0), q: Rotation::from_quaternion(Quaternion::new(w, x, y, z)) },
        v: Vec3::from(frame.v_0),
        w: Vec3::from(frame.w_0),
    }
}

/// Inputs with B `depth` into A along the contact normal (found by moving B along the block's
/// normal until the separation is -depth), or None when the block finds no point.
fn draw(block: &Block, rng: &mut Rng, depth: f64, near: f64) -> Option<Inputs> {
    let mut inputs = Inputs::default();
    inputs.frame_a.r_0 = rng.vec(0.05).into();
    inputs.frame_a.q = rng.quaternion();
    inputs.frame_b.q = rng.quaternion();
    inputs.frame_b.r_0 = (Vec3::from(inputs.frame_a.r_0) + rng.vec(near)).into();
    for frame in [&mut inputs.frame_a, &mut inputs.frame_b] {
        frame.v_0 = rng.vec(0.3).into();
        frame.w_0 = rng.vec(3.0).into();
    }
    let mut out = Outputs::default();
    for _ in 0..8 {
        block.evaluate(&inputs, &mut Vec::new(), &[], &mut out).unwrap();
        if out.separation == f64::MAX {
            return None;
        }
        let shift = Vec3::from(out.n_0) * (-depth - out.separation);
        inputs.frame_b.r_0 = (Vec3::from(inputs.frame_b.r_0) + shift).into();
    }
    block.evaluate(&inputs, &mut Vec::new(), &[], &mut out).unwrap();
    (out.normal_force > 0.0).then_some(inputs)
}

/// The law set: Hunt-Crossley with Stribeck friction, a rolling resistance and a torsional
/// friction radius, so that the couples are compared as well as the forces.
fn laws(p: &mut Parameters) {
    p.normal.law = NormalLawKind::HuntCrossley.value();
    p.normal.stiffness = 1e6;
    p.friction.law = FrictionLawKind::Stribeck.value();
    p.friction.mu_static = 0.6;
    p.friction.mu_dynamic = 0.4;
    p.friction.rolling = 0.002;
    p.friction.torque_radius = 0.005;
}

#[test]
fn two_bodies_are_contact_force_for_every_pair() {
    let files = files();
    let kinds: Vec<ShapeKind> = ShapeKind::ITEMS.iter().map(|i| ShapeKind::from_value(i.value).unwrap()).collect();
    // (A, inside A's cavity with its end faces, B)
    let mut cases = Vec::new();
    for a in &kinds {
        for b in &kinds {
            cases.push((*a, None, *b));
            if matches!(a, ShapeKind::Sphere | ShapeKind::Box | ShapeKind::Capsule | ShapeKind::Ellipsoid) {
                cases.push((*a, Some((false, false)), *b));
            }
            if *a == ShapeKind::Cylinder {
                for ends in [(false, false), (true, false), (false, true), (true, true)] {
                    cases.push((*a, Some(ends), *b));
                }
            }
        }
    }
    let mut rng = Rng(0x5eed_2027);
    let (mut compared, mut pairs, mut worst, mut largest) = (0, 0, 0.0_f64, [0.0_f64; 2]);
    let mut never = Vec::new();
    for (a, inside, b) in cases {
        let mut p = Parameters::default();
        laws(&mut p);
        p.geometry_a = geometry(a, inside.is_some(), &files);
        p.geometry_b = geometry(b, false, &files);
        if let Some((bottom, top)) = inside {
            p.geometry_a.inside = true;
            p.geometry_a.end_bottom = bottom;
            p.geometry_a.end_top = top;
        }
        let mut d = SceneDescription { normal: p.normal.clone(), friction: p.friction.clone(), ..SceneDescription::default() };
        let mut body_a = BodyDescription::new(a);
        body_a.geometry = p.geometry_a.clone();
        let mut body_b = BodyDescription::new(b);
        body_b.geometry = p.geometry_b.clone();
        body_b.body.mass = 1.0;
        d.bodies = vec![body_a, body_b];
        let name = format!("{a:?}{} / {b:?}", inside.map_or(String::new(), |e| format!(" inside {e:?}")));
        let block = Block::new(&p, None);
        let scene = Scene::new(&d, None);
        let (block, scene) = match (block, scene) {
            (Ok((block, _)), Ok(scene)) => (block, scene),
            (Err(_), Err(_)) => continue,
            (Ok(_), Err(e)) => panic!("{name}: ContactForce takes it, the scene refuses: {e}"),
            (Err(e), Ok(_)) => panic!("{name}: the scene takes it, ContactForce refuses: {e}"),
        };
        pairs += 1;
        let mut in_contact = 0;
        let (mut work, mut out) = (Workspace::default(), SceneOutputs::default());
        for attempt in 0..200 {
            if in_contact == 8 {
                break;
            }
            let near = if inside.is_some() { 0.08 } else { 0.05 + 0.001 * attempt as f64 };
            let depth = rng.range(2e-4, 3e-3);
            let Some(inputs) = draw(&block, &mut rng, depth, near) else { continue };
            in_contact += 1;
            let mut expected = Outputs::default();
            block.evaluate(&inputs, &mut Vec::new(), &[], &mut expected).unwrap();
            scene.evaluate(&[state(&inputs.frame_a), state(&inputs.frame_b)], &mut work, &mut out);
            let pairs_of = |f: &[f64; 3], t: &[f64; 3], o: &contact_scene::BodyOutput| (Vec3::from(*f) - o.f_0, Vec3::from(*t) - o.t_0);
            let scale = [expected.frame_a.f_0, expected.frame_a.t_0, expected.frame_b.f_0, expected.frame_b.t_0].iter().flatten().fold(1.0_f64, |m, x| m.max(x.abs()));
            let (da_f, da_t) = pairs_of(&expected.frame_a.f_0, &expected.frame_a.t_0, &out.bodies[0]);
            let (db_f, db_t) = pairs_of(&expected.frame_b.f_0, &expected.frame_b.t_0, &out.bodies[1]);
            let error = [da_f.amax(), da_t.amax(), db_f.amax(), db_t.amax()].into_iter().fold(0.0_f64, f64::max) / scale;
            worst = worst.max(error);
            assert!(
                error <= 1e-12,
                "{name}: the scene differs from ContactForce by {error:e} of {scale} N\n ContactForce A {:?} {:?} B {:?} {:?}\n scene A {} {} B {} {}",
                expected.frame_a.f_0, expected.frame_a.t_0, expected.frame_b.f_0, expected.frame_b.t_0,
                out.bodies[0].f_0, out.bodies[0].t_0, out.bodies[1].f_0, out.bodies[1].t_0
            );
            compared += 1;
            largest = [largest[0].max(Vec3::from(expected.frame_b.f_0).norm()), largest[1].max(Vec3::from(expected.frame_b.t_0).norm())];
        }
        if in_contact == 0 {
            never.push(name);
        }
    }
    println!("{pairs} pairs, {compared} poses in contact compared, largest difference {worst:e} of the wrench (forces up to {:.1} N, torques up to {:.2} N.m)", largest[0], largest[1]);
    assert!(largest[0] > 100.0 && largest[1] > 1.0, "the poses compared carry real wrenches: {largest:?}");
    std::fs::remove_dir_all(folder()).ok();
    assert!(never.is_empty(), "pairs never brought into contact: {never:?}");
}
