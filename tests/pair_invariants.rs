//! Every supported pair, through the block (parameters, files, validation, evaluation), on random
//! non-trivial poses and twists: exchanging A and B mirrors the wrenches and keeps the
//! separation; Newton III holds for forces and for torques about a common point; the normal is
//! unit; the separation is finite and, for every contact point, the distance between its
//! witnesses. A Compound (a sphere and a box on one body) runs against every shape and itself.

use std::path::PathBuf;

use contact_force::block::{Block, Frame, Inputs, Outputs, Parameters};
use contact_force::physics::geometry::GeometryPair;
use contact_force::physics::math::{rotation_from_wxyz, Pose, Vec3};
use contact_force::physics::shape::ShapeKind;

mod support;
use support::Rng;

/// Geometry files for the file-based shapes, in a folder of their own.
fn files() -> PathBuf {
    let folder = std::env::temp_dir().join(format!("contact_force_pair_invariants_{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let mut obj = String::new();
    for i in 0..8 {
        obj.push_str(&format!("v {} {} {}\n", ((i & 1) as f64 - 0.5) * 0.2, (((i >> 1) & 1) as f64 - 0.5) * 0.2, (((i >> 2) & 1) as f64 - 0.5) * 0.2));
    }
    for f in [[1, 3, 2], [2, 3, 4], [5, 6, 7], [6, 8, 7], [1, 2, 5], [2, 6, 5], [3, 7, 4], [4, 7, 8], [1, 5, 3], [3, 5, 7], [2, 4, 6], [4, 8, 6]] {
        obj.push_str(&format!("f {} {} {}\n", f[0], f[1], f[2]));
    }
    std::fs::write(folder.join("cube.obj"), obj).unwrap();
    std::fs::write(folder.join("hull.csv"), "x,y,z\n0.1,0,0\n-0.1,0.02,0\n0,0.12,0.01\n0,-0.1,0\n0.01,0,0.09\n0,0.01,-0.11\n0.05,0.05,0.05\n").unwrap();
    std::fs::write(folder.join("cloud.csv"), "0,0,0\n0.05,0,0\n0,0.05,0\n0,0,0.05\n-0.05,-0.05,0.02\n").unwrap();
    std::fs::write(folder.join("compound.txt"), "Sphere 0.04  0.03 0 0\nBox 0.06 0.05 0.04  -0.03 0.01 0  0.9238795325112867 0 0.3826834323650898 0\n").unwrap();
    std::fs::write(folder.join("grid.txt"), "-1 -1 0.5 0.5\n0 0.01 0.02 0.01 0\n0.01 0.03 0.04 0.03 0.01\n0.02 0.04 0.06 0.04 0.02\n0.01 0.03 0.04 0.03 0.01\n0 0.01 0.02 0.01 0\n").unwrap();
    folder
}

fn geometry(p: &mut contact_force::block::GeometryParameters, kind: ShapeKind, rng: &mut Rng) {
    p.shape = kind.value();
    p.radius = rng.range(0.05, 0.12);
    p.length = rng.range(0.05, 0.2);
    p.size = [rng.range(0.05, 0.2), rng.range(0.05, 0.2), rng.range(0.05, 0.2)];
    p.file = match kind {
        ShapeKind::ConvexHull => "hull.csv",
        ShapeKind::Mesh => "cube.obj",
        ShapeKind::PointCloud => "cloud.csv",
        ShapeKind::GridSurface => "grid.txt",
        ShapeKind::Compound => "compound.txt",
        _ => "",
    }
    .to_string();
    p.r = rng.vec(0.03).into();
    p.q = rng.quaternion();
}

fn evaluate(block: &Block, inputs: &Inputs) -> Outputs {
    let mut out = Outputs::default();
    block.evaluate(inputs, &mut Vec::new(), &[], &mut out).unwrap();
    out
}

fn close(a: &[f64], b: &[f64], scale: f64) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-9 * scale)
}

/// Moves B along the contact normal so that the pair overlaps by `depth` (or is apart by -depth).
fn place(block: &Block, inputs: &mut Inputs, depth: f64) {
    let out = evaluate(block, inputs);
    let shift = Vec3::from(out.n_0) * (-out.separation - depth);
    for (r, s) in inputs.frame_b.r_0.iter_mut().zip(shift.iter()) {
        *r += s;
    }
}

#[test]
fn every_supported_pair_mirrors_and_obeys_newton_three_on_random_poses() {
    let folder = files();
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let kinds: Vec<ShapeKind> = ShapeKind::ITEMS.iter().map(|i| ShapeKind::from_value(i.value).unwrap()).collect();
    let mut pairs = 0;
    let mut touching = 0;
    for a in &kinds {
        for b in &kinds {
            let mut p = Parameters::default();
            geometry(&mut p.geometry_a, *a, &mut rng);
            geometry(&mut p.geometry_b, *b, &mut rng);
            p.normal.damping = 50.0;
            p.friction.tanh_gain = 20.0;
            let Ok((block, _)) = Block::new(&p, Some(&folder)) else {
                continue;
            };
            let mut swapped = p.clone();
            std::mem::swap(&mut swapped.geometry_a, &mut swapped.geometry_b);
            let (mirror_block, _) = Block::new(&swapped, Some(&folder)).expect("the other order is supported too");
            pairs += 1;
            for case in 0..40 {
                let frame = |rng: &mut Rng| Frame { r_0: rng.vec(0.1).into(), q: rng.quaternion(), v_0: rng.vec(0.5).into(), w_0: rng.vec(2.0).into() };
                let mut inputs = Inputs::of_frames(frame(&mut rng), frame(&mut rng));
                place(&block, &mut inputs, if case % 4 == 0 { -0.01 } else { rng.range(0.0, 2e-3) });
                let out = evaluate(&block, &inputs);
                let what = format!("{a:?}-{b:?} case {case}");
                assert!(out.all_finite() && out.separation.abs() < 10.0, "{what}: {out:?}");
                assert!((Vec3::from(out.n_0).norm() - 1.0).abs() < 1e-9, "{what}");
                let f_a = Vec3::from(out.frame_a.f_0);
                let f_b = Vec3::from(out.frame_b.f_0);
                let scale = f_b.norm() + 1.0;
                assert!((f_a + f_b).norm() <= 1e-12 * scale, "{what}");
                let (r_a, r_b) = (Vec3::from(inputs.frame_a.r_0), Vec3::from(inputs.frame_b.r_0));
                let total = r_a.cross(&f_a) + Vec3::from(out.frame_a.t_0) + r_b.cross(&f_b) + Vec3::from(out.frame_b.t_0);
                assert!(total.norm() <= 1e-10 * scale, "{what}: torques about the origin add up to {total}");
                touching += usize::from(out.active);

                let mirror = evaluate(&mirror_block, &Inputs::of_frames(inputs.frame_b.clone(), inputs.frame_a.clone()));
                assert!(close(&out.frame_a.f_0, &mirror.frame_b.f_0, scale), "{what}: {:?} vs {:?}", out.frame_a.f_0, mirror.frame_b.f_0);
                assert!(close(&out.frame_a.t_0, &mirror.frame_b.t_0, scale), "{what}");
                assert!(close(&out.frame_b.t_0, &mirror.frame_a.t_0, scale), "{what}");
                assert!((out.separation - mirror.separation).abs() <= 1e-9, "{what}: {} vs {}", out.separation, mirror.separation);
                assert_eq!(out.points, mirror.points, "{what}");

                // Every contact point: witnesses apart by the separation along a unit normal.
                let pair = GeometryPair::new(block_shape(&p, *a, &folder, true), block_shape(&p, *b, &folder, false)).unwrap();
                let pose = |frame: &Frame, offset: &contact_force::block::GeometryParameters| {
                    let body = Pose { r: Vec3::from(frame.r_0), q: rotation_from_wxyz(&frame.q).unwrap().0 };
                    body.compose(&Pose { r: Vec3::from(offset.r), q: rotation_from_wxyz(&offset.q).unwrap().0 })
                };
                let mut points = Vec::new();
                pair.contacts(&pose(&inputs.frame_a, &p.geometry_a), &pose(&inputs.frame_b, &p.geometry_b), &mut points);
                for c in &points {
                    assert!((c.normal_ab_w.norm() - 1.0).abs() < 1e-9, "{what}");
                    assert!(((c.p_b_w - c.p_a_w).dot(&c.normal_ab_w) - c.separation).abs() < 1e-9, "{what}");
                    assert!((c.id as usize) < pair.max_points() && c.weight >= 0.0, "{what}");
                }
            }
        }
    }
    std::fs::remove_dir_all(&folder).ok();
    // Every pair of the README's table (both orders) ran, and enough cases touched.
    assert!(pairs >= 130, "only {pairs} ordered pairs");
    assert!(touching > pairs * 15, "only {touching} touching cases");
}

/// The shape the block built from the parameters (validated again, the same way).
fn block_shape(p: &Parameters, _kind: ShapeKind, folder: &std::path::Path, a: bool) -> contact_force::physics::shape::Shape {
    let (validated, _) = p.validate(Some(folder)).unwrap();
    if a {
        validated.pair.shape_a().clone()
    } else {
        validated.pair.shape_b().clone()
    }
}
