//! Compound geometries (`geometry_X.shape = Compound`, several shapes on one body) against closed
//! forms and against single-shape blocks: two spheres on one body on a plane give what two
//! single-sphere blocks give summed (force, torque, and with stateful friction over steps); a
//! foot of a box and a sphere resting on a plane carries k d at each touching corner and at the
//! sphere; a compound against a compound is the sum of its four part pairs; the exact
//! derivatives are the single blocks' summed; the 8 point slots are the compound's ids 0 to 7;
//! bad files and what a compound cannot do are refused naming the variable, the file and the line.

use std::path::{Path, PathBuf};

use contact_force::block::{Block, Frame, GeometryParameters, Inputs, Outputs, Parameters};
use contact_force::physics::contact::PointState;
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::math::{rotation_from_wxyz, Pose, Vec3};
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::shape::ShapeKind;

mod support;
use support::Rng;

/// A folder of its own for one test's files.
fn folder(test: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("contact_force_compound_{test}_{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

fn compound(file: &str, r: [f64; 3], q: [f64; 4]) -> GeometryParameters {
    GeometryParameters { shape: ShapeKind::Compound.value(), file: file.to_string(), r, q, ..Parameters::default().geometry_b }
}

fn sphere(radius: f64, r: [f64; 3], q: [f64; 4]) -> GeometryParameters {
    GeometryParameters { shape: ShapeKind::Sphere.value(), radius, r, q, ..Parameters::default().geometry_b }
}

fn plane() -> GeometryParameters {
    GeometryParameters { shape: ShapeKind::Plane.value(), ..Parameters::default().geometry_a }
}

fn block(p: &Parameters, folder: &Path) -> Block {
    Block::new(p, Some(folder)).unwrap_or_else(|e| panic!("{e}")).0
}

fn evaluate(block: &Block, inputs: &Inputs, states: &[PointState]) -> Outputs {
    let mut out = Outputs::default();
    block.evaluate(inputs, &mut Vec::new(), states, &mut out).unwrap();
    out
}

/// The pose of a part given in a geometry frame (r, q) of the body, as the geometry frame of a
/// single shape: `(r, q) ∘ (r_part, q_part)`.
fn composed(r: [f64; 3], q: [f64; 4], part_r: Vec3, part_q: [f64; 4]) -> ([f64; 3], [f64; 4]) {
    let frame = Pose { r: Vec3::from(r), q: rotation_from_wxyz(&q).unwrap().0 };
    let pose = frame.compose(&Pose { r: part_r, q: rotation_from_wxyz(&part_q).unwrap().0 });
    let q = pose.q.quaternion();
    (pose.r.into(), [q.w, q.i, q.j, q.k])
}

fn assert_close(what: &str, a: &[f64], b: &[f64], scale: f64) {
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= 1e-12 * scale, "{what}: {a:?} vs {b:?}");
    }
}

fn random_frame(rng: &mut Rng, r: [f64; 3]) -> Frame {
    Frame { r_0: r, q: rng.quaternion(), v_0: rng.vec(0.3).into(), w_0: rng.vec(1.0).into() }
}

const TWO_SPHERES: &str = "# two spheres on one body\nSphere 0.05  0.1 0 0\nSphere 0.03  -0.08 0.02 0.01 0.9238795325112867 0.3826834323650898 0 0\n";
const PARTS: [(f64, [f64; 3], [f64; 4]); 2] =
    [(0.05, [0.1, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]), (0.03, [-0.08, 0.02, 0.01], [0.9238795325112867, 0.3826834323650898, 0.0, 0.0])];

#[test]
fn two_spheres_on_one_body_on_a_plane_equal_two_single_sphere_blocks_summed() {
    let folder = folder("two_spheres");
    std::fs::write(folder.join("two.txt"), TWO_SPHERES).unwrap();
    let mut rng = Rng(0x2121_0003);
    for law in [FrictionLawKind::Tanh, FrictionLawKind::None, FrictionLawKind::Stribeck] {
        let (offset_r, offset_q) = ([0.01, -0.02, 0.03], rng.quaternion());
        let mut p = Parameters::default();
        p.friction.law = law.value();
        p.geometry_a = plane();
        p.geometry_b = compound("two.txt", offset_r, offset_q);
        let whole = block(&p, &folder);
        let singles: Vec<Block> = PARTS
            .iter()
            .map(|(radius, r, q)| {
                let (r, q) = composed(offset_r, offset_q, Vec3::from(*r), *q);
                block(&Parameters { geometry_b: sphere(*radius, r, q), ..p.clone() }, &folder)
            })
            .collect();
        let mut touching = [0; 3];
        for case in 0..200 {
            // The body low enough that one, both or neither sphere touches.
            let (r_a, r_b) = (rng.vec(0.01).into(), [0.0, 0.0, rng.range(-0.02, 0.16)]);
            let inputs = Inputs::of_frames(random_frame(&mut rng, r_a), random_frame(&mut rng, r_b));
            let out = evaluate(&whole, &inputs, &[]);
            let parts: Vec<Outputs> = singles.iter().map(|b| evaluate(b, &inputs, &[])).collect();
            let what = format!("{} case {case}", law.name());
            touching[parts.iter().filter(|o| o.active).count()] += 1;
            let sum = |f: &dyn Fn(&Outputs) -> [f64; 3]| -> [f64; 3] {
                let (x, y) = (f(&parts[0]), f(&parts[1]));
                [x[0] + y[0], x[1] + y[1], x[2] + y[2]]
            };
            let scale = 1.0 + parts.iter().map(|o| Vec3::from(o.frame_b.f_0).norm()).sum::<f64>();
            assert_close(&format!("{what}: f_0 on B"), &out.frame_b.f_0, &sum(&|o| o.frame_b.f_0), scale);
            assert_close(&format!("{what}: t_0 on B"), &out.frame_b.t_0, &sum(&|o| o.frame_b.t_0), scale);
            assert_close(&format!("{what}: f_0 on A"), &out.frame_a.f_0, &sum(&|o| o.frame_a.f_0), scale);
            assert_close(&format!("{what}: t_0 on A"), &out.frame_a.t_0, &sum(&|o| o.frame_a.t_0), scale);
            assert_close(&format!("{what}: normal force"), &[out.normal_force], &[parts[0].normal_force + parts[1].normal_force], scale);
            assert_eq!(out.points, parts[0].points + parts[1].points, "{what}");
            // The separation and normal are the deepest part's; the point slots are the parts' in
            // the file's order.
            let deepest = if parts[1].separation < parts[0].separation { &parts[1] } else { &parts[0] };
            assert_close(&format!("{what}: separation"), &[out.separation], &[deepest.separation], 1.0);
            assert_close(&format!("{what}: n_0"), &out.n_0, &deepest.n_0, 1.0);
            for (slot, part) in out.point.iter().zip(&parts) {
                assert_eq!(slot.active, part.point[0].active, "{what}");
                assert_close(&format!("{what}: slot"), &[slot.separation, slot.normal_force, slot.friction_force], &[part.point[0].separation, part.point[0].normal_force, part.point[0].friction_force], scale);
                assert_close(&format!("{what}: slot p_0"), &slot.p_0, &part.point[0].p_0, 1.0);
            }
            assert!(out.point[2..].iter().all(|slot| *slot == Default::default()), "{what}");
            // p_0 is the centre of pressure of all the points carrying force.
            if out.normal_force > 0.0 {
                let weighted = parts.iter().map(|o| Vec3::from(o.p_0) * o.normal_force).sum::<Vec3>() / out.normal_force;
                assert_close(&format!("{what}: p_0"), &out.p_0, weighted.as_slice(), 1.0);
            }
        }
        assert!(touching.iter().all(|&n| n > 5), "{touching:?}: cases with none, one and both spheres touching");
    }
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn stateful_friction_advances_each_part_like_its_single_block() {
    // ElasticCone keeps a deflection per point: the compound's two points (ids 0 and 1) advance
    // as the single blocks' point 0 each does.
    let folder = folder("stateful");
    std::fs::write(folder.join("two.txt"), TWO_SPHERES).unwrap();
    let mut rng = Rng(0x2121_0005);
    let mut p = Parameters::default();
    p.friction.law = FrictionLawKind::ElasticCone.value();
    p.friction.stiffness = 1e4;
    p.friction.damping = 10.0;
    p.geometry_a = plane();
    p.geometry_b = compound("two.txt", [0.0; 3], [1.0, 0.0, 0.0, 0.0]);
    let whole = block(&p, &folder);
    assert!(whole.is_stateful() && whole.pair().max_points() == 2);
    let singles: Vec<Block> = PARTS.iter().map(|(radius, r, q)| block(&Parameters { geometry_b: sphere(*radius, *r, *q), ..p.clone() }, &folder)).collect();
    let (mut states, mut single_states) = (Vec::new(), vec![Vec::new(), Vec::new()]);
    let mut frame_b = Frame { r_0: [0.0, 0.0, 0.019], q: [1.0, 0.0, 0.0, 0.0], v_0: [0.02, 0.01, 0.0], w_0: [0.0, 0.0, 0.3] };
    for step in 0..50 {
        frame_b.v_0 = rng.vec(0.02).into();
        let inputs = Inputs::of_frames(Frame::default(), frame_b.clone());
        whole.advance(&inputs, &mut Vec::new(), &mut states, 1e-3).unwrap();
        for (single, s) in singles.iter().zip(&mut single_states) {
            single.advance(&inputs, &mut Vec::new(), s, 1e-3).unwrap();
        }
        let out = evaluate(&whole, &inputs, &states);
        let parts: Vec<Outputs> = singles.iter().zip(&single_states).map(|(b, s)| evaluate(b, &inputs, s)).collect();
        for k in 0..2 {
            assert_eq!(states[k], single_states[k][0], "step {step} point {k}");
        }
        let sum: Vec<f64> = (0..3).map(|i| parts[0].frame_b.f_0[i] + parts[1].frame_b.f_0[i]).collect();
        assert_close(&format!("step {step}"), &out.frame_b.f_0, &sum, 1.0 + out.normal_force);
        assert!(parts.iter().all(|o| o.active), "both spheres touch");
    }
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn a_foot_of_a_box_and_a_sphere_resting_on_a_plane_carries_its_closed_form() {
    // A box 0.2 x 0.08 x 0.03 centred 0.05 ahead of the body origin, a sphere of radius 0.04 under
    // the heel whose lowest point is 1 mm below the box's bottom face. The body sinks so that the
    // box's bottom is d = 0.5 mm into the plane z = 0: each of its 4 bottom corners carries k d,
    // the sphere k (d + 1 mm), at rest.
    let folder = folder("foot");
    std::fs::write(folder.join("foot.txt"), "Box     0.20 0.08 0.03    0.05  0  0\nSphere  0.04   -0.06 0  0.024\n").unwrap();
    let mut p = Parameters::default();
    p.normal.stiffness = 2e5;
    p.geometry_a = plane();
    p.geometry_b = compound("foot.txt", [0.0; 3], [1.0, 0.0, 0.0, 0.0]);
    let foot = block(&p, &folder);
    assert_eq!(foot.pair().max_points(), 9, "the box's 8 corners (ids 0 to 7), then the sphere (id 8)");
    let (k, d, h) = (2e5, 5e-4, 0.015);
    let z = h - d;
    let out = evaluate(&foot, &Inputs::of_frames(Frame::default(), Frame { r_0: [0.0, 0.0, z], ..Frame::default() }), &[]);
    let corners: Vec<Vec3> = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)].iter().map(|(sx, sy)| Vec3::new(0.05 + sx * 0.1, sy * 0.04, -d)).collect();
    let d_sphere = d + 1e-3;
    let heel = Vec3::new(-0.06, 0.0, -d_sphere);
    // Forces act midway between the witnesses: the point and its foot on the plane.
    let mut force = Vec3::zeros();
    let mut torque = Vec3::zeros();
    let r_b = Vec3::new(0.0, 0.0, z);
    for (point, depth) in corners.iter().map(|c| (*c, d)).chain([(heel, d_sphere)]) {
        let f = Vec3::new(0.0, 0.0, k * depth);
        let at = Vec3::new(point.x, point.y, -depth / 2.0);
        force += f;
        torque += (at - r_b).cross(&f);
    }
    let scale = force.norm();
    assert_close("force on the foot", &out.frame_b.f_0, force.as_slice(), scale);
    assert_close("torque on the foot", &out.frame_b.t_0, torque.as_slice(), scale);
    assert_eq!(out.points, 5);
    assert_close("separation: the sphere, deepest", &[out.separation], &[-d_sphere], 1.0);
    // The slots are the box's corners: the 4 bottom ones carry k d each; the sphere (id 8) has none.
    let carrying: Vec<f64> = out.point.iter().filter(|s| s.active).map(|s| s.normal_force).collect();
    assert_eq!(carrying.len(), 4);
    assert!(carrying.iter().all(|f| (f - k * d).abs() < 1e-9), "{carrying:?}");
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn a_compound_against_a_compound_is_the_sum_of_its_part_pairs() {
    let folder = folder("two_compounds");
    std::fs::write(folder.join("a.txt"), "Sphere 0.05 0.06 0 0\nSphere 0.04 -0.06 0 0\n").unwrap();
    std::fs::write(folder.join("b.txt"), TWO_SPHERES).unwrap();
    let mut rng = Rng(0x2121_0007);
    let a_parts = [(0.05, [0.06, 0.0, 0.0]), (0.04, [-0.06, 0.0, 0.0])];
    let mut p = Parameters::default();
    let (a_r, a_q, b_r, b_q) = ([0.0, 0.01, 0.0], rng.quaternion(), [0.02, 0.0, -0.01], rng.quaternion());
    p.geometry_a = compound("a.txt", a_r, a_q);
    p.geometry_b = compound("b.txt", b_r, b_q);
    let whole = block(&p, &folder);
    assert_eq!(whole.pair().max_points(), 4);
    let mut singles = Vec::new();
    for (ra, pa) in a_parts {
        for (rb, pb, qb) in PARTS {
            let (r1, q1) = composed(a_r, a_q, Vec3::from(pa), [1.0, 0.0, 0.0, 0.0]);
            let (r2, q2) = composed(b_r, b_q, Vec3::from(pb), qb);
            singles.push(block(&Parameters { geometry_a: sphere(ra, r1, q1), geometry_b: sphere(rb, r2, q2), ..p.clone() }, &folder));
        }
    }
    let mut touching = 0;
    for case in 0..300 {
        let r_b = rng.vec(0.12).into();
        let inputs = Inputs::of_frames(random_frame(&mut rng, [0.0; 3]), random_frame(&mut rng, r_b));
        let out = evaluate(&whole, &inputs, &[]);
        let parts: Vec<Outputs> = singles.iter().map(|b| evaluate(b, &inputs, &[])).collect();
        let scale = 1.0 + parts.iter().map(|o| Vec3::from(o.frame_b.f_0).norm()).sum::<f64>();
        for (name, get) in [("f_0 on A", 0), ("t_0 on A", 1), ("f_0 on B", 2), ("t_0 on B", 3)] {
            let pick = |o: &Outputs| [o.frame_a.f_0, o.frame_a.t_0, o.frame_b.f_0, o.frame_b.t_0][get];
            let sum: Vec<f64> = (0..3).map(|i| parts.iter().map(|o| pick(o)[i]).sum()).collect();
            assert_close(&format!("case {case}: {name}"), &pick(&out), &sum, scale);
        }
        let least = parts.iter().map(|o| o.separation).fold(f64::INFINITY, f64::min);
        assert_close(&format!("case {case}: separation"), &[out.separation], &[least], 1.0);
        // Slot i is part pair i (A's part outer, B's inner), each with its one point.
        for (slot, part) in out.point.iter().zip(&parts) {
            assert_close(&format!("case {case}: slot"), &[slot.separation, slot.normal_force], &[part.point[0].separation, part.point[0].normal_force], scale);
        }
        touching += usize::from(out.active);
    }
    assert!(touching > 30, "only {touching} touching cases");
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn the_exact_derivatives_of_a_compound_are_its_parts_summed() {
    let folder = folder("derivatives");
    std::fs::write(folder.join("two.txt"), TWO_SPHERES).unwrap();
    let mut rng = Rng(0x2121_0009);
    let mut p = Parameters::default();
    p.normal.law = NormalLawKind::HuntCrossley.value();
    p.geometry_a = plane();
    let (offset_r, offset_q) = ([0.0, 0.01, 0.0], rng.quaternion());
    p.geometry_b = compound("two.txt", offset_r, offset_q);
    let whole = block(&p, &folder);
    let singles: Vec<Block> = PARTS
        .iter()
        .map(|(radius, r, q)| {
            let (r, q) = composed(offset_r, offset_q, Vec3::from(*r), *q);
            block(&Parameters { geometry_b: sphere(*radius, r, q), ..p.clone() }, &folder)
        })
        .collect();
    let seeds: [[f64; 26]; 3] = std::array::from_fn(|_| std::array::from_fn(|_| rng.range(-1.0, 1.0)));
    for case in 0..50 {
        let inputs = Inputs::of_frames(Frame::default(), Frame { r_0: [0.0, 0.0, 0.03], ..random_frame(&mut rng, [0.0; 3]) });
        let rows = whole.output_tangents(&inputs, &[], &mut Vec::new(), &seeds).unwrap();
        let parts: Vec<_> = singles.iter().map(|b| b.output_tangents(&inputs, &[], &mut Vec::new(), &seeds).unwrap()).collect();
        let outs: Vec<Outputs> = singles.iter().map(|b| evaluate(b, &inputs, &[])).collect();
        let scale = 1.0 + parts.iter().flatten().flatten().map(|x| x.abs()).fold(0.0, f64::max);
        // The wrenches and the normal force add up; the separation is the deepest part's.
        for row in (0..12).chain([13]) {
            let sum: Vec<f64> = (0..3).map(|j| parts[0][row][j] + parts[1][row][j]).collect();
            assert_close(&format!("case {case} row {row}"), &rows[row], &sum, scale);
        }
        let deepest = if outs[1].separation < outs[0].separation { 1 } else { 0 };
        assert_close(&format!("case {case} separation"), &rows[12], &parts[deepest][12], scale);
    }
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn bad_compounds_are_refused_naming_the_variable_the_file_and_the_line() {
    let folder = folder("refusals");
    let refused = |text: &str, edit: &dyn Fn(&mut Parameters)| -> String {
        std::fs::write(folder.join("c.txt"), text).unwrap();
        let mut p = Parameters { geometry_a: plane(), geometry_b: compound("c.txt", [0.0; 3], [1.0, 0.0, 0.0, 0.0]), ..Parameters::default() };
        edit(&mut p);
        match Block::new(&p, Some(&folder)) {
            Ok(_) => panic!("{text:?} was accepted"),
            Err(e) => e.to_string(),
        }
    };
    let path = folder.join("c.txt").display().to_string();
    let e = refused("Sphere 0.1 0 0 0\n\nBox 0.1 -0.2 0.1 0 0 0\n", &|_| ());
    assert_eq!(e, format!("geometry_b.file = \"c.txt\": {path} line 3: a Box needs size y > 0, found -0.2"));
    let e = refused("Sphere 0.1 0 0 0\nCone 0.1 0.2 0 0 0\n", &|_| ());
    assert!(e.starts_with(&format!("geometry_b.file = \"c.txt\": {path} line 2: \"Cone\" is not a shape")), "{e}");
    // A pair of parts that is not supported names its line.
    let e = refused("# a ground plate\nSphere 0.1 0 0 0\nPlane 0 0 0\n", &|_| ());
    assert_eq!(
        e,
        format!(
            "geometry_a.shape, geometry_b.shape = Plane, Compound: geometry pair Plane (A) - Compound (B) is not supported: its parts \
             Plane (A) against the Plane on line 3 of {path} (B): two infinite planes have no finite separation"
        )
    );
    // A compound has no inside; rolling resistance needs one rolling radius.
    let e = refused("Sphere 0.1 0 0 0\n", &|p| p.geometry_b.inside = true);
    assert!(e.starts_with("geometry_b.inside, geometry_a.shape, geometry_b.shape = true, Plane, Compound:") && e.contains("a Compound has no inside"), "{e}");
    let e = refused("Sphere 0.1 0 0 0\n", &|p| p.friction.rolling = 0.01);
    assert!(e.starts_with("friction.rolling = 0.01: rolling resistance takes one rolling radius"), "{e}");
    let e = refused("Sphere 0.1 0 0 0\n", &|p| p.geometry_b.file = "missing.txt".to_string());
    assert!(e.starts_with("geometry_b.file = \"missing.txt\":") && e.contains("missing.txt: cannot be read"), "{e}");
    let e = refused("Sphere 0.1 0 0 0\n", &|p| p.geometry_b.file = String::new());
    assert_eq!(e, "geometry_b.file = \"\": a Compound needs a file");
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn a_compound_lies_in_a_socket_part_by_part() {
    // A ball and a point of a compound in a spherical socket (inside A): each is a pair of its
    // own with the cavity.
    let folder = folder("socket");
    std::fs::write(folder.join("balls.txt"), "Sphere 0.02 0.05 0 0\nPoint 0 0.01 -0.095\n").unwrap();
    let p = Parameters {
        geometry_a: GeometryParameters { shape: ShapeKind::Sphere.value(), radius: 0.1, inside: true, ..Parameters::default().geometry_a },
        geometry_b: compound("balls.txt", [0.0; 3], [1.0, 0.0, 0.0, 0.0]),
        ..Parameters::default()
    };
    let whole = block(&p, &folder);
    assert_eq!(whole.pair().max_points(), 2);
    let out = evaluate(&whole, &Inputs::default(), &[]);
    // The ball is 0.1 - 0.07 from the wall, the point 0.1 - |(0.01, 0.095)|: both apart.
    let apart = 0.1 - (0.01f64.powi(2) + 0.095f64.powi(2)).sqrt();
    assert!(!out.active && (out.separation - apart).abs() < 1e-15, "{out:?}");
    let lowered = Inputs { frame_b: Frame { r_0: [0.0, 0.0, -0.01], ..Frame::default() }, ..Inputs::default() };
    let out = evaluate(&whole, &lowered, &[]);
    let depth = (0.01f64.powi(2) + 0.105f64.powi(2)).sqrt() - 0.1;
    assert_eq!(out.points, 1);
    assert!((out.separation + depth).abs() < 1e-15 && out.point[1].active && !out.point[0].active, "{out:?}");
    assert!((out.normal_force - 1e6 * depth).abs() < 1e-9, "{out:?}");
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn file_based_parts_are_read_beside_the_compounds_file() {
    // A point cloud part (its file next to the compound's) and a sphere, on a plane.
    let folder = folder("file_parts");
    std::fs::create_dir_all(folder.join("parts")).unwrap();
    std::fs::write(folder.join("parts/feet.txt"), "PointCloud cloud.csv 0 0 0\nSphere 0.01 0.3 0 0\n").unwrap();
    std::fs::write(folder.join("parts/cloud.csv"), "x,y,z\n0,0,-0.001\n0.1,0,-0.002\n0.2,0,0.004\n").unwrap();
    let mut p = Parameters { geometry_a: plane(), geometry_b: compound("parts/feet.txt", [0.0; 3], [1.0, 0.0, 0.0, 0.0]), ..Parameters::default() };
    p.friction.law = FrictionLawKind::None.value();
    let whole = block(&p, &folder);
    assert_eq!(whole.pair().max_points(), 4, "the cloud's three points (ids 0 to 2), then the sphere (id 3)");
    let out = evaluate(&whole, &Inputs { frame_b: Frame { r_0: [0.0, 0.0, 0.0095], ..Frame::default() }, ..Inputs::default() }, &[]);
    // The cloud's points at heights 0.0085, 0.0075, 0.0135 are apart; lower the body to 0.
    assert!(!out.point[0].active && (out.point[3].separation + 5e-4).abs() < 1e-15, "{out:?}");
    let out = evaluate(&whole, &Inputs::default(), &[]);
    let k = 1e6;
    assert!((out.frame_b.f_0[2] - k * (0.001 + 0.002 + 0.01)).abs() < 1e-9, "{out:?}");
    assert_eq!(out.points, 3);
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn early_return_predicts_the_onset_of_the_first_part_to_touch() {
    // Two spheres on a body falling at 2 m/s onto a plane: the sphere whose lowest point is lower
    // touches first, at its height over the speed; the other one's onset comes later. Turned by
    // the geometry offset, which of them is lower changes.
    let folder = folder("onset");
    std::fs::write(folder.join("two.txt"), "Sphere 0.05  0.1 0 0\nSphere 0.03  -0.1 0 0.03\n").unwrap();
    for (turn, lowest) in [(0.0, 0.05), (std::f64::consts::PI, 0.06)] {
        let q = [(turn / 2.0f64).cos(), (turn / 2.0f64).sin(), 0.0, 0.0];
        let p = Parameters { geometry_a: plane(), geometry_b: compound("two.txt", [0.0; 3], q), ..Parameters::default() };
        let whole = block(&p, &folder);
        let z = 0.1;
        let inputs = Inputs { frame_b: Frame { r_0: [0.0, 0.0, z], v_0: [0.0, 0.0, -2.0], ..Frame::default() }, ..Inputs::default() };
        let onset = whole.contact_onset(&inputs, 0.1, &mut Vec::new()).unwrap().expect("an onset within the step");
        let expected = (z - lowest) / 2.0;
        assert!((onset - expected).abs() < 1e-12, "turned by {turn}: {onset} vs {expected}");
    }
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn model_exchange_takes_a_stateful_compound_of_at_most_8_points_and_refuses_more() {
    // Its 8 slots (ids 0 to 7) carry the states of a stateful law: two spheres (2 points) fit; a
    // foot of a box and a sphere (9 points) is refused naming the laws, the shapes and the count.
    use contact_force::model::Model;
    let folder = folder("model_exchange");
    std::fs::write(folder.join("two.txt"), TWO_SPHERES).unwrap();
    std::fs::write(folder.join("foot.txt"), "Box 0.2 0.08 0.03  0.05 0 0\nSphere 0.04  -0.06 0 0\n").unwrap();
    let check = |file: &str| {
        let mut model = Model::default();
        model.parameters.geometry_b = compound(&folder.join(file).display().to_string(), [0.0; 3], [1.0, 0.0, 0.0, 0.0]);
        model.parameters.friction.law = FrictionLawKind::ElasticCone.value();
        model.parameters_changed();
        model.check_model_exchange()
    };
    assert_eq!(check("two.txt"), Ok(()));
    let e = check("foot.txt").unwrap_err();
    assert!(e.contains("friction.law = ElasticCone") && e.contains("geometry_b.shape = Compound can have 9 contact points"), "{e}");
    std::fs::remove_dir_all(&folder).ok();
}
