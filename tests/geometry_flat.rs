//! Flat, multi-point manifolds against closed forms: a box, a cylinder, a disk and a rectangle on
//! a plane, and the same bodies on finite faces (Rectangle, Disk) with contact point movement and
//! covered-footprint weights. Resting contact carries the load on 4 (flat), 2 (edge, lying
//! cylinder) or 1 (corner) points with the right torque; sliding off a finite face changes the
//! force by a bounded amount per unit displacement down to zero; swapping A and B mirrors every
//! output, and Newton III holds.
//!
//! Every case uses a linear spring without damping and no friction (unless stated), so a point at
//! depth d with weight w carries exactly `w k d`.

use std::f64::consts::{FRAC_PI_2, PI};

use contact_force::block::{Block, Frame, GeometryParameters, Inputs, Outputs, Parameters};
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::geometry::{ContactPoint, GeometryPair};
use contact_force::physics::math::{Pose, Vec3};
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::shape::{Shape, ShapeKind};
use nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion};

mod support;
use support::{close, Rng};

const K: f64 = 1e6;
const D: f64 = 1e-3;
/// Force of one full point at depth D.
const KD: f64 = K * D;

type Rotation = UnitQuaternion<f64>;

fn shape(kind: ShapeKind) -> GeometryParameters {
    let mut g = Parameters::default().geometry_a;
    g.shape = kind.value();
    g
}

fn plane() -> GeometryParameters {
    shape(ShapeKind::Plane)
}

fn cuboid(size: [f64; 3]) -> GeometryParameters {
    GeometryParameters { size, ..shape(ShapeKind::Box) }
}

fn cylinder(radius: f64, length: f64) -> GeometryParameters {
    GeometryParameters { radius, length, ..shape(ShapeKind::Cylinder) }
}

fn capsule(radius: f64, length: f64) -> GeometryParameters {
    GeometryParameters { radius, length, ..shape(ShapeKind::Capsule) }
}

fn disk(radius: f64) -> GeometryParameters {
    GeometryParameters { radius, ..shape(ShapeKind::Disk) }
}

fn rectangle(x: f64, y: f64) -> GeometryParameters {
    GeometryParameters { size: [x, y, 0.1], ..shape(ShapeKind::Rectangle) }
}

/// Linear spring K, no damping, no friction.
fn parameters(a: GeometryParameters, b: GeometryParameters) -> Parameters {
    let mut p = Parameters { geometry_a: a, geometry_b: b, ..Parameters::default() };
    p.normal.law = NormalLawKind::LinearSpringDamper.value();
    p.normal.stiffness = K;
    p.normal.damping = 0.0;
    p.friction.law = FrictionLawKind::None.value();
    p
}

fn block(a: GeometryParameters, b: GeometryParameters) -> Block {
    Block::new(&parameters(a, b), None).expect("valid parameters").0
}

fn frame(r: Vec3, q: Rotation) -> Frame {
    Frame { r_0: r.into(), q: [q.w, q.i, q.j, q.k], ..Frame::default() }
}

fn evaluate(block: &Block, a: Frame, b: Frame) -> Outputs {
    let mut out = Outputs::default();
    block.evaluate(&Inputs::of_frames(a, b), &mut Vec::new(), &[], &mut out).expect("valid inputs");
    out
}

/// B placed at `r` with `q`, A at the origin.
fn on_fixed_base(block: &Block, r: Vec3, q: Rotation) -> Outputs {
    evaluate(block, Frame::default(), frame(r, q))
}

fn v(a: [f64; 3]) -> Vec3 {
    Vec3::from(a)
}

fn about(axis: Vec3, angle: f64) -> Rotation {
    Rotation::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle)
}

#[test]
fn box_resting_flat_on_a_tilted_plane_carries_k_d_on_each_bottom_corner_with_zero_torque() {
    let half = v([0.1, 0.15, 0.05]);
    let block = block(plane(), cuboid([0.2, 0.3, 0.1]));
    let plane_q = Rotation::from_euler_angles(0.3, -0.2, 0.7);
    let plane_r = v([0.1, -0.2, 0.3]);
    let n = plane_q * Vec3::z();
    // Aligned with the plane, turned about its normal, the bottom face D below it.
    let box_q = plane_q * about(Vec3::z(), 0.4);
    let box_r = plane_r + plane_q * v([0.05, 0.02, 0.0]) + n * (half.z - D);
    let out = evaluate(&block, frame(plane_r, plane_q), frame(box_r, box_q));
    assert_eq!(out.points, 4);
    assert!((out.normal_force - 4.0 * KD).abs() <= 1e-9 * KD);
    for (id, point) in out.point.iter().enumerate() {
        // Corner ids: bit 4 set = the +z (top) face.
        if id & 4 == 0 {
            assert!(point.active, "corner {id}");
            assert!((point.normal_force - KD).abs() <= 1e-9 * KD, "corner {id}: {}", point.normal_force);
            assert!((point.separation + D).abs() <= 1e-12);
        } else {
            assert!(!point.active && point.normal_force == 0.0, "corner {id}");
            assert!((point.separation - (2.0 * half.z - D)).abs() <= 1e-12);
        }
    }
    assert!((v(out.frame_b.f_0) - n * 4.0 * KD).norm() <= 1e-9 * KD);
    // B's frame is the box centre: the four equal forces have no moment about it.
    assert!(v(out.frame_b.t_0).norm() <= 1e-9 * KD * 0.1, "{:?}", out.frame_b.t_0);
    // The resultant acts midway between the bottom face and the plane, under the centre.
    assert!((v(out.p_0) - (box_r - n * (half.z - D / 2.0))).norm() <= 1e-12);
}

#[test]
fn box_tilted_on_an_edge_touches_with_two_points_and_on_a_corner_with_one() {
    let (hx, hy, hz) = (0.1, 0.15, 0.05);
    let block = block(plane(), cuboid([2.0 * hx, 2.0 * hy, 2.0 * hz]));
    // Turned by theta about x: the edge y = -hy, z = -hz (corners 0 and 1) is lowest, at height
    // -(hy sin + hz cos) below the centre and y' = -hy cos + hz sin beside it.
    let theta = 0.3_f64;
    let centre = v([0.02, -0.01, hy * theta.sin() + hz * theta.cos() - D]);
    let out = on_fixed_base(&block, centre, about(Vec3::x(), theta));
    assert_eq!(out.points, 2);
    for id in [0, 1] {
        assert!((out.point[id].normal_force - KD).abs() <= 1e-9 * KD);
    }
    assert!(out.point.iter().skip(2).all(|p| !p.active));
    let lever = -hy * theta.cos() + hz * theta.sin();
    let expected = v([2.0 * KD * lever, 0.0, 0.0]);
    assert!((v(out.frame_b.t_0) - expected).norm() <= 1e-9 * KD * 0.1, "{:?} vs {expected:?}", out.frame_b.t_0);

    // A general orientation has one lowest corner.
    let q = Rotation::from_euler_angles(0.4, 0.3, 0.2);
    let pair = GeometryPair::new(Shape::Plane, Shape::Box { half_extents: v([hx, hy, hz]) }).unwrap();
    let mut points = Vec::new();
    pair.contacts(&Pose::identity(), &Pose { r: Vec3::zeros(), q }, &mut points);
    let lowest = points.iter().map(|p| p.separation).fold(f64::INFINITY, f64::min);
    let out = on_fixed_base(&block, v([0.0, 0.0, -lowest - D]), q);
    assert_eq!(out.points, 1);
    assert!((out.normal_force - KD).abs() <= 1e-9 * KD);
}

#[test]
fn cylinder_lying_on_its_side_carries_equal_load_on_two_points() {
    let (r, length) = (0.05, 0.2);
    let block = block(plane(), cylinder(r, length));
    // Axis horizontal, along y turned by 0.7 about z.
    let q = about(Vec3::z(), 0.7) * about(Vec3::x(), FRAC_PI_2);
    let centre = v([0.1, 0.2, r - D]);
    let out = on_fixed_base(&block, centre, q);
    assert_eq!(out.points, 2);
    // Ids 0 and 1: the lowest points of the two end circles.
    assert!((out.point[0].normal_force - KD).abs() <= 1e-9 * KD);
    assert!((out.point[0].normal_force - out.point[1].normal_force).abs() <= 1e-9 * KD);
    assert!(out.point.iter().skip(2).all(|p| !p.active));
    // The +-90 degree points are at the axis height: separation r - D.
    assert!((out.point[2].separation - (r - D)).abs() <= 1e-12);
    assert!(v(out.frame_b.t_0).norm() <= 1e-9 * KD * length);
    assert!((v(out.frame_b.f_0) - v([0.0, 0.0, 2.0 * KD])).norm() <= 1e-9 * KD);
}

#[test]
fn upright_cylinder_carries_equal_load_on_four_points() {
    let (r, length) = (0.05, 0.2);
    let block = block(plane(), cylinder(r, length));
    let out = on_fixed_base(&block, v([0.3, -0.1, length / 2.0 - D]), Rotation::identity());
    assert_eq!(out.points, 4);
    // The -z end: id 0 (lowest) and 2, 3, 4 (+90, +180, +270 degrees).
    for id in [0, 2, 3, 4] {
        assert!((out.point[id].normal_force - KD).abs() <= 1e-9 * KD, "id {id}");
    }
    assert!((out.normal_force - 4.0 * KD).abs() <= 1e-9 * KD);
    assert!(v(out.frame_b.t_0).norm() <= 1e-9 * KD * r);
}

/// The wrench on B about its centre: force and torque.
fn wrench(out: &Outputs) -> (Vec3, Vec3) {
    (v(out.frame_b.f_0), v(out.frame_b.t_0))
}

#[test]
fn upright_cylinder_wrench_does_not_depend_on_the_pattern_rotation_and_is_continuous_through_upright() {
    let (r, length) = (0.05, 0.2);
    let h = length / 2.0;
    let block = block(plane(), cylinder(r, length));
    let centre = v([0.0, 0.0, h - D]);
    // Upright, the pattern follows the cylinder's x axis: turning it about its axis changes no
    // output but the points' places.
    let (force, torque) = wrench(&on_fixed_base(&block, centre, Rotation::identity()));
    assert!((force - v([0.0, 0.0, 4.0 * KD])).norm() <= 1e-9 * KD);
    for phi in [0.1, 0.7, 1.3, 2.9, 4.4, 6.0] {
        let (f, t) = wrench(&on_fixed_base(&block, centre, about(Vec3::z(), phi)));
        assert!((f - force).norm() <= 1e-9 * KD, "phi = {phi}");
        assert!((t - torque).norm() <= 1e-9 * KD * r, "phi = {phi}");
    }
    // Tilted by eps about a horizontal axis through the centre, each point moves at most rho eps
    // (rho = sqrt(r^2 + h^2)): its force changes by at most k rho eps and its moment by at most
    // rho k rho eps + (k D) rho eps, against the upright wrench (whose pattern may be any
    // rotation, by the invariance above): |dF| <= 4 k rho eps, |dT| <= 4 k rho (rho + D) eps.
    let rho = (r * r + h * h).sqrt();
    for eps in [1e-3, 1e-5, 1e-8, 1e-11, 1e-13, 1e-15] {
        for psi in [0.0, 0.9, 2.0, 3.5, 5.1_f64] {
            let tilt = about(v([psi.cos(), psi.sin(), 0.0]), eps);
            let (f, t) = wrench(&on_fixed_base(&block, centre, tilt));
            let slack = 1e-9 * KD;
            assert!((f - force).norm() <= 4.0 * K * rho * eps + slack, "eps = {eps}, psi = {psi}");
            assert!((t - torque).norm() <= 4.0 * K * rho * (rho + D) * eps + slack * r, "eps = {eps}, psi = {psi}");
        }
    }
}

#[test]
fn cylinder_rolling_from_lying_to_standing_has_no_force_jump() {
    let (r, length) = (0.05, 0.2);
    let h = length / 2.0;
    let block = block(plane(), cylinder(r, length));
    // Axis at angle theta above the horizontal (about x), the centre raised so that the lowest
    // rim point stays at depth D: z_c = r cos(theta) + h sin(theta) - D.
    let steps = 2000;
    let mut previous: Option<(f64, f64)> = None;
    // Each point's height z_c + (offset)_z changes at a rate <= |dz_c/dtheta| + rho <= 2 rho,
    // so |dF/dtheta| <= 8 k 2 rho over the eight points.
    let rho = (r * r + h * h).sqrt();
    let bound = 16.0 * K * rho;
    let mut steepest: f64 = 0.0;
    for i in 0..=steps {
        let theta = FRAC_PI_2 * i as f64 / steps as f64;
        let q = about(Vec3::x(), FRAC_PI_2 - theta);
        let centre = v([0.0, 0.0, r * theta.cos() + h * theta.sin() - D]);
        let out = on_fixed_base(&block, centre, q);
        // The lowest point is always loaded with k D.
        assert!(out.normal_force >= KD * (1.0 - 1e-9), "theta = {theta}: {}", out.normal_force);
        if let Some((t, f)) = previous {
            steepest = steepest.max((out.normal_force - f).abs() / (theta - t));
        }
        previous = Some((theta, out.normal_force));
        if i == 0 {
            assert!((out.normal_force - 2.0 * KD).abs() <= 1e-9 * KD);
            assert_eq!(out.points, 2);
        }
        if i == steps {
            assert!((out.normal_force - 4.0 * KD).abs() <= 1e-9 * KD);
            assert_eq!(out.points, 4);
        }
    }
    assert!(steepest <= bound, "max |dF|/dtheta = {steepest} > {bound}");
}

#[test]
fn disk_and_rectangle_lying_on_a_plane_carry_k_d_on_four_points() {
    for follower in [disk(0.1), rectangle(0.3, 0.2)] {
        let block = block(plane(), follower);
        let out = on_fixed_base(&block, v([0.2, 0.1, -D]), about(Vec3::z(), 0.3));
        assert_eq!(out.points, 4);
        for id in 0..4 {
            assert!((out.point[id].normal_force - KD).abs() <= 1e-9 * KD);
        }
        assert!(v(out.frame_b.t_0).norm() <= 1e-9 * KD * 0.1);
    }
    // A disk tilted about x rests on its lowest rim point (id 0) alone.
    let block = block(plane(), disk(0.1));
    let tilt = 0.2_f64;
    let out = on_fixed_base(&block, v([0.0, 0.0, 0.1 * tilt.sin() - D]), about(Vec3::x(), tilt));
    assert_eq!(out.points, 1);
    assert!((out.point[0].normal_force - KD).abs() <= 1e-9 * KD);
}

/// Sweeps B along +x over `xs` at height `z` with orientation `q` on a fixed base; returns the
/// total normal force at each x and the steepest |dF/dx|.
fn sweep(block: &Block, xs: &[f64], z: f64, q: Rotation) -> (Vec<f64>, f64) {
    let forces: Vec<f64> = xs.iter().map(|x| on_fixed_base(block, v([*x, 0.0, z]), q).normal_force).collect();
    let steepest = forces.windows(2).zip(xs.windows(2)).map(|(f, x)| (f[1] - f[0]).abs() / (x[1] - x[0])).fold(0.0, f64::max);
    (forces, steepest)
}

fn range(from: f64, to: f64, steps: usize) -> Vec<f64> {
    (0..=steps).map(|i| from + (to - from) * i as f64 / steps as f64).collect()
}

/// Sides of the polygons standing for circles in the covered fractions (finite_face.rs).
const CIRCLE_SIDES: f64 = 64.0;

/// The bases swept off: a 0.4 x 0.3 Rectangle and a Disk of radius 0.2, each with its edge at
/// x = 0.2 on the x axis (the Disk's 64-gon has a side tangent there).
fn bases() -> [(&'static str, GeometryParameters); 2] {
    [("Rectangle", rectangle(0.4, 0.3)), ("Disk", disk(0.2))]
}
const EDGE: f64 = 0.2;

#[test]
fn box_sliding_flat_off_a_finite_face_loses_its_load_in_proportion_to_the_overhang() {
    // Box 0.1 (x) x 0.08 x 0.05, bottom face at depth D: F = 4 k D w with w the covered fraction
    // of its 0.1 x 0.08 face. Moving by dx uncovers at most 0.08 dx of its area 0.008, so
    // |dF/dx| <= 4 k D / 0.1; on the Rectangle w = clamp((EDGE - (x - 0.05)) / 0.1, 0, 1).
    let (length, width, height) = (0.1, 0.08, 0.05);
    let xs = range(0.1, 0.3, 800);
    for (name, base) in bases() {
        let block = block(base, cuboid([length, width, height]));
        let (forces, steepest) = sweep(&block, &xs, height / 2.0 - D, Rotation::identity());
        let bound = 4.0 * KD / length;
        assert!(steepest <= bound * (1.0 + 1e-9), "{name}: max |dF/dx| = {steepest} > {bound}");
        assert!((forces[0] - 4.0 * KD).abs() <= 1e-9 * KD, "{name}: {}", forces[0]);
        for (x, f) in xs.iter().zip(&forces) {
            if *x >= EDGE + length / 2.0 {
                assert!(f.abs() <= 1e-9 * KD, "{name} x = {x}: {f}");
            }
            if name == "Rectangle" {
                let covered = ((EDGE - (x - length / 2.0)) / length).clamp(0.0, 1.0);
                assert!((f - 4.0 * KD * covered).abs() <= 1e-9 * KD, "x = {x}: {f} vs {}", 4.0 * KD * covered);
            }
        }
        // Half over the edge, the outer corners push at the edge: the resultant acts at the
        // middle of the covered part, x = EDGE - length / 4.
        let out = on_fixed_base(&block, v([EDGE, 0.0, height / 2.0 - D]), Rotation::identity());
        assert_eq!(out.points, 4);
        if name == "Rectangle" {
            assert!((out.p_0[0] - (EDGE - length / 4.0)).abs() <= 1e-9, "{:?}", out.p_0);
        }
    }
}

#[test]
fn cylinder_lying_or_standing_slides_off_a_finite_face_without_a_force_jump() {
    let (r, length) = (0.03, 0.12);
    let h = length / 2.0;
    for (name, base) in bases() {
        let block = block(base, cylinder(r, length));
        // Lying along x: F = 2 k D w, w the covered fraction of the strip of length 2h under
        // it, so |dF/dx| <= 2 k D / (2h); on the Rectangle w = clamp((EDGE - (x - h)) / 2h, 0, 1).
        let along_x = about(Vec3::y(), FRAC_PI_2);
        let xs = range(0.1, 0.3, 800);
        let (forces, steepest) = sweep(&block, &xs, r - D, along_x);
        let bound = 2.0 * KD / length;
        assert!(steepest <= bound * (1.0 + 1e-9), "{name} lying: max |dF/dx| = {steepest} > {bound}");
        assert!((forces[0] - 2.0 * KD).abs() <= 1e-9 * KD, "{name} lying: {}", forces[0]);
        for (x, f) in xs.iter().zip(&forces) {
            if *x >= EDGE + h {
                assert!(f.abs() <= 1e-9 * KD, "{name} lying x = {x}: {f}");
            }
            if name == "Rectangle" {
                let covered = ((EDGE - (x - h)) / length).clamp(0.0, 1.0);
                assert!((f - 2.0 * KD * covered).abs() <= 1e-9 * KD, "lying x = {x}: {f} vs {}", 2.0 * KD * covered);
            }
        }
        // Standing: F = 4 k D w, w the covered fraction of the end face's circumscribed 64-gon
        // (apothem r, area 64 r^2 tan(pi/64), width at most 2 r / cos(pi/64)), so
        // |dF/dx| <= 4 k D 2 / (64 r sin(pi/64)); the overlap ends at x = EDGE + r / cos(pi/64).
        let corner = r / (PI / CIRCLE_SIDES).cos();
        let xs = range(0.1, 0.3, 800);
        let (forces, steepest) = sweep(&block, &xs, h - D, Rotation::identity());
        let bound = 4.0 * KD * 2.0 / (CIRCLE_SIDES * r * (PI / CIRCLE_SIDES).sin());
        assert!(steepest <= bound * (1.0 + 1e-9), "{name} standing: max |dF/dx| = {steepest} > {bound}");
        for (x, f) in xs.iter().zip(&forces) {
            if *x <= EDGE - corner {
                assert!((f - 4.0 * KD).abs() <= 1e-9 * KD, "{name} standing x = {x}: {f}");
            }
            if *x >= EDGE + corner {
                assert!(f.abs() <= 1e-9 * KD, "{name} standing x = {x}: {f}");
            }
        }
        // Centred on the Rectangle's edge, half the end face is covered.
        if name == "Rectangle" {
            let half = on_fixed_base(&block, v([EDGE, 0.0, h - D]), Rotation::identity()).normal_force;
            assert!((half - 2.0 * KD).abs() <= 1e-9 * KD, "{half}");
        }
    }
}

#[test]
fn capsule_lying_slides_off_a_finite_face_without_a_force_jump() {
    // Lying along x at depth D: F = 2 k D w, w the covered fraction of the hull of the sphere
    // cuts (a stadium of half-width rho = sqrt(2 r D - D^2), length 2h + 2 rho): moving by dx
    // uncovers at most 2 rho dx of an area >= 2h 2 rho cos(pi/32) (its 32-gons are inscribed),
    // so |dF/dx| <= 2 k D / (2 h cos(pi/32)).
    let (r, length) = (0.03, 0.12);
    let h = length / 2.0;
    let rho = (2.0 * r * D - D * D).sqrt();
    for (name, base) in bases() {
        let block = block(base, capsule(r, length));
        let xs = range(0.1, 0.3, 800);
        let (forces, steepest) = sweep(&block, &xs, r - D, about(Vec3::y(), FRAC_PI_2));
        let bound = 2.0 * KD / (2.0 * h * (PI / 32.0).cos());
        assert!(steepest <= bound * (1.0 + 1e-9), "{name}: max |dF/dx| = {steepest} > {bound}");
        assert!((forces[0] - 2.0 * KD).abs() <= 1e-9 * KD, "{name}: {}", forces[0]);
        for (x, f) in xs.iter().zip(&forces) {
            if *x >= EDGE + h + rho {
                assert!(f.abs() <= 1e-9 * KD, "{name} x = {x}: {f}");
            }
        }
    }
}

#[test]
fn box_tilted_on_an_edge_inside_a_rectangle_carries_its_full_load_while_its_face_overhangs() {
    // The contact footprint is the strip along the loaded edge, not the whole bottom face.
    let (hx, hy, hz) = (0.05, 0.04, 0.025);
    let block = block(rectangle(0.4, 0.3), cuboid([2.0 * hx, 2.0 * hy, 2.0 * hz]));
    // Turned by -theta about y: the edge x = -hx, z = -hz is lowest, the face rising toward +x.
    let theta = 0.2_f64;
    let q = about(Vec3::y(), -theta);
    let edge = q * v([-hx, 0.0, -hz]);
    let far = q * v([hx, 0.0, -hz]);
    // The edge 0.01 inside x = EDGE, at depth D.
    let centre = v([EDGE - 0.01, 0.0, -D]) - edge;
    assert!(centre.x + far.x > EDGE, "the far corners overhang");
    let out = on_fixed_base(&block, centre, q);
    assert_eq!(out.points, 2);
    assert!((out.normal_force - 2.0 * KD).abs() <= 1e-9 * KD, "{}", out.normal_force);
}

#[test]
fn the_smaller_face_rests_on_the_larger_in_either_order_and_equal_faces_share_the_load() {
    // A 0.1 x 0.1 rectangle on a disk of radius 0.3: four corners, k D each, whichever is A.
    let pose_small = v([0.05, 0.0, -D]);
    let big_disk = block(disk(0.3), rectangle(0.1, 0.1));
    let out = on_fixed_base(&big_disk, pose_small, about(Vec3::z(), 0.5));
    assert_eq!(out.points, 4);
    assert!((out.normal_force - 4.0 * KD).abs() <= 1e-9 * KD);
    // Swapped: the disk is B, above the rectangle, so that B still rests on A's face.
    let small_rectangle = block(rectangle(0.1, 0.1), disk(0.3));
    let out = evaluate(&small_rectangle, frame(pose_small, about(Vec3::z(), 0.5)), frame(Vec3::zeros(), Rotation::identity()));
    assert_eq!(out.points, 4);
    assert!((out.normal_force - 4.0 * KD).abs() <= 1e-9 * KD);
    assert!((v(out.frame_b.f_0) + v([0.0, 0.0, 4.0 * KD])).norm() <= 1e-9 * KD);

    // Two equal rectangles facing each other, overlapping by D: each serves once as the base,
    // eight points at half weight, 4 k D in total, no torque about B's centre.
    let equal = block(rectangle(0.2, 0.1), rectangle(0.2, 0.1));
    let out = on_fixed_base(&equal, v([0.0, 0.0, -D]), about(Vec3::x(), PI));
    assert_eq!(out.points, 8);
    assert!((out.normal_force - 4.0 * KD).abs() <= 1e-9 * KD);
    assert!(out.point.iter().all(|p| (p.normal_force - KD / 2.0).abs() <= 1e-9 * KD));
    assert!(v(out.frame_b.t_0).norm() <= 1e-9 * KD * 0.1);
}

#[test]
fn apart_the_separation_is_the_closest_candidates_distance_to_the_finite_face() {
    let gap = 0.01;
    let block_on_rectangle = block(rectangle(0.4, 0.3), cuboid([0.1, 0.08, 0.05]));
    // Above the face: the bottom face's height.
    let out = on_fixed_base(&block_on_rectangle, v([0.0, 0.05, 0.025 + gap]), Rotation::identity());
    assert!(!out.active);
    assert!((out.separation - gap).abs() <= 1e-12);
    // Beside it, 0.03 beyond the edge x = 0.2 and gap above: the nearest corners' distance.
    let out = on_fixed_base(&block_on_rectangle, v([0.2 + 0.03 + 0.05, 0.0, 0.025 + gap]), Rotation::identity());
    assert!((out.separation - (0.03_f64.hypot(gap))).abs() <= 1e-12);
    // Beside it and below its plane (no overlap, no force): still the distance, positive.
    let out = on_fixed_base(&block_on_rectangle, v([0.2 + 0.03 + 0.05, 0.0, 0.025 - gap]), Rotation::identity());
    assert!(!out.active && out.normal_force == 0.0);
    assert!((out.separation - (0.03_f64.hypot(gap))).abs() <= 1e-12);
    // An upright cylinder above a disk, off to the side: the closest rim point's distance to the
    // disk's rim, computed exactly on the circle.
    let cylinder_on_disk = block(disk(0.2), cylinder(0.03, 0.1));
    let out = on_fixed_base(&cylinder_on_disk, v([0.3, 0.0, 0.05 + gap]), Rotation::identity());
    assert!((out.separation - (0.3_f64 - 0.03 - 0.2).hypot(gap)).abs() <= 1e-12, "{}", out.separation);
    // A capsule's end sphere beside a rectangle: |centre - edge point| - r.
    let capsule_on_rectangle = block(rectangle(0.4, 0.3), capsule(0.02, 0.1));
    let out = on_fixed_base(&capsule_on_rectangle, v([0.25, 0.0, 0.07]), Rotation::identity());
    assert!((out.separation - (0.05_f64.hypot(0.02) - 0.02)).abs() <= 1e-12, "{}", out.separation);
}

/// This file's random draw: a small rotation.
trait SmallRotation {
    fn small_rotation(&mut self, angle: f64) -> Rotation;
}

impl SmallRotation for Rng {
    /// A rotation at most `angle` away from the identity.
    fn small_rotation(&mut self, angle: f64) -> Rotation {
        let axis = self.vec(1.0);
        about(axis, self.range(-angle, angle))
    }
}

fn isometry(r: Vec3, q: Rotation) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::from(r), q)
}

/// Every new pair (base first), with the follower's tilt range: flat-ish and fully random.
fn flat_pairs() -> Vec<(GeometryParameters, GeometryParameters)> {
    vec![
        (plane(), cuboid([0.1, 0.08, 0.06])),
        (plane(), cylinder(0.03, 0.1)),
        (plane(), disk(0.05)),
        (plane(), rectangle(0.1, 0.06)),
        (rectangle(0.3, 0.2), cuboid([0.1, 0.08, 0.06])),
        (disk(0.15), cuboid([0.1, 0.08, 0.06])),
        (rectangle(0.3, 0.2), cylinder(0.03, 0.1)),
        (disk(0.15), cylinder(0.03, 0.1)),
        (rectangle(0.3, 0.2), capsule(0.02, 0.1)),
        (disk(0.15), capsule(0.02, 0.1)),
        (rectangle(0.3, 0.2), rectangle(0.1, 0.06)),
        (rectangle(0.1, 0.06), rectangle(0.3, 0.2)),
        (rectangle(0.2, 0.1), rectangle(0.1, 0.2)),
        (disk(0.15), disk(0.05)),
        (disk(0.05), disk(0.05)),
        (rectangle(0.3, 0.2), disk(0.05)),
        (disk(0.15), rectangle(0.1, 0.06)),
        // Equal areas: 0.2 x (pi 0.01 / 0.2) = pi 0.1^2.
        (rectangle(0.2, PI * 0.01 / 0.2), disk(0.1)),
    ]
}

/// Random parameters and inputs for a pair: random geometry offsets and body poses and twists,
/// B's geometry placed over A's (within +-0.15 sideways, 0 to 0.06 above its origin, tilted by up
/// to `tilt`), so that it touches, overhangs or misses the face.
fn random_case(rng: &mut Rng, a: &GeometryParameters, b: &GeometryParameters, tilt: f64) -> (Parameters, Inputs) {
    let mut p = parameters(a.clone(), b.clone());
    p.normal.law = NormalLawKind::HuntCrossley.value();
    p.normal.velocity_exponent = 0.8;
    p.normal.stiffness = 1e7;
    p.normal.damping = 1e4;
    p.friction.law = FrictionLawKind::Tanh.value();
    p.friction.tanh_gain = 50.0;
    let offset_a = isometry(rng.vec(0.05), rng.rotation());
    let offset_b = isometry(rng.vec(0.05), rng.rotation());
    for (g, o) in [(&mut p.geometry_a, &offset_a), (&mut p.geometry_b, &offset_b)] {
        g.r = o.translation.vector.into();
        g.q = [o.rotation.w, o.rotation.i, o.rotation.j, o.rotation.k];
    }
    let body_a = isometry(rng.vec(0.3), rng.rotation());
    let geometry_a = body_a * offset_a;
    let local = isometry(v([rng.range(-0.15, 0.15), rng.range(-0.15, 0.15), rng.range(0.0, 0.06)]), rng.small_rotation(tilt));
    let body_b = geometry_a * local * offset_b.inverse();
    let to_frame = |body: &Isometry3<f64>, rng: &mut Rng| Frame { v_0: rng.vec(1.0).into(), w_0: rng.vec(3.0).into(), ..frame(body.translation.vector, body.rotation) };
    let inputs = Inputs::of_frames(to_frame(&body_a, rng), to_frame(&body_b, rng));
    (p, inputs)
}

#[test]
fn swapping_a_and_b_mirrors_every_output_and_newton_iii_holds_for_every_flat_pair() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut touching = 0;
    for (a, b) in flat_pairs() {
        for case in 0..120 {
            let tilt = if case % 2 == 0 { 0.3 } else { PI };
            let (p, inputs) = random_case(&mut rng, &a, &b, tilt);
            let what = format!("{:?}-{:?} case {case}", ShapeKind::from_value(a.shape), ShapeKind::from_value(b.shape));
            let (block, _) = Block::new(&p, None).expect("valid parameters");
            let out = evaluate(&block, inputs.frame_a.clone(), inputs.frame_b.clone());
            assert!(out.all_finite(), "{what}");
            touching += out.active as usize;
            let mut swapped = p.clone();
            std::mem::swap(&mut swapped.geometry_a, &mut swapped.geometry_b);
            let (mirror_block, _) = Block::new(&swapped, None).expect("valid parameters");
            let mirror = evaluate(&mirror_block, inputs.frame_b.clone(), inputs.frame_a.clone());
            let scale = out.normal_force.abs() + 1.0;
            assert!(close(&out.frame_a.f_0, &mirror.frame_b.f_0, scale), "{what}");
            assert!(close(&out.frame_a.t_0, &mirror.frame_b.t_0, scale), "{what}");
            assert!(close(&out.frame_b.f_0, &mirror.frame_a.f_0, scale), "{what}");
            assert!(close(&out.frame_b.t_0, &mirror.frame_a.t_0, scale), "{what}");
            assert!((out.separation - mirror.separation).abs() < 1e-12, "{what}");
            assert!(close(&out.n_0, (-v(mirror.n_0)).as_slice(), 1.0), "{what}");
            assert_eq!(out.points, mirror.points, "{what}");
            if out.active {
                assert!(close(&out.p_0, &mirror.p_0, 1.0), "{what}");
            }
            // Newton III: opposite forces, and the torques balance about the world origin.
            assert!(close(&out.frame_a.f_0, (-v(out.frame_b.f_0)).as_slice(), scale), "{what}");
            let moment = v(out.frame_a.t_0) + v(out.frame_b.t_0) + v(inputs.frame_a.r_0).cross(&v(out.frame_a.f_0)) + v(inputs.frame_b.r_0).cross(&v(out.frame_b.f_0));
            assert!(moment.norm() <= 1e-9 * scale, "{what}: {moment:?}");
        }
    }
    // The cases exercise contact, not only separation.
    let cases = flat_pairs().len() * 120;
    assert!(2 * touching > cases, "only {touching} of {cases} cases touch");
}

fn to_pose(frame: &Frame, offset: &GeometryParameters) -> Pose {
    let q = |q: [f64; 4]| Rotation::from_quaternion(Quaternion::new(q[0], q[1], q[2], q[3]));
    let body = isometry(v(frame.r_0), q(frame.q));
    let geometry = body * isometry(v(offset.r), q(offset.q));
    Pose { r: geometry.translation.vector, q: geometry.rotation }
}

#[test]
fn every_flat_pair_gives_unit_normals_and_separations_equal_to_the_witness_distance() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Penetrating points of partly covered followers: the edge regime is exercised.
    let mut partial = 0;
    for (a, b) in flat_pairs() {
        for case in 0..60 {
            let (p, inputs) = random_case(&mut rng, &a, &b, if case % 2 == 0 { 0.3 } else { PI });
            let (block, _) = Block::new(&p, None).expect("valid parameters");
            let pair = block.pair();
            let mut points: Vec<ContactPoint> = Vec::new();
            pair.contacts(&to_pose(&inputs.frame_a, &p.geometry_a), &to_pose(&inputs.frame_b, &p.geometry_b), &mut points);
            let what = format!("{:?}-{:?} case {case}", pair.shape_a().kind(), pair.shape_b().kind());
            assert!(!points.is_empty(), "{what}");
            for point in &points {
                assert!((point.normal_ab_w.norm() - 1.0).abs() < 1e-12, "{what}");
                let offset = point.p_b_w - point.p_a_w;
                assert!((offset.dot(&point.normal_ab_w) - point.separation).abs() < 1e-12, "{what}");
                // The witnesses lie along the normal.
                assert!((offset.norm() - point.separation.abs()).abs() < 1e-12, "{what}");
                assert!((point.id as usize) < pair.max_points(), "{what}");
                assert!((0.0..=1.0).contains(&point.weight), "{what}");
            }
            partial += points.iter().filter(|p| p.separation < 0.0 && p.weight > 0.0 && p.weight < 1.0).count();
            let mut ids: Vec<u32> = points.iter().map(|p| p.id).collect();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), points.len(), "{what}: ids repeat");
        }
    }
    assert!(partial > 100, "only {partial} partly covered points");
}

#[test]
fn upright_cylinder_straddling_an_edge_tips_straight_through_upright_without_a_jump() {
    // Tilting about a horizontal axis from -eps to +eps flips the lowest direction u to -u, which
    // maps the rim pattern {u, v, -u, -v} onto itself: the moved points, the weights and so the
    // wrench differ by O(eps) across upright, although the ids of the points swap.
    let (r, length) = (0.03, 0.1);
    let block = block(rectangle(0.4, 0.3), cylinder(r, length));
    let centre = v([EDGE - 0.01, 0.0, length / 2.0 - D]);
    let axis = v([0.6_f64.cos(), 0.6_f64.sin(), 0.0]);
    let jump = |eps: f64| {
        let (f_minus, t_minus) = wrench(&on_fixed_base(&block, centre, about(axis, -eps)));
        let (f_plus, t_plus) = wrench(&on_fixed_base(&block, centre, about(axis, eps)));
        ((f_plus - f_minus).norm(), (t_plus - t_minus).norm())
    };
    let (f_wide, t_wide) = jump(1e-4);
    // Straddling the edge, the points are moved and the torque is not zero: a pattern jump would
    // show as a change of order 0.1 r k D that does not shrink with eps.
    assert!(t_wide > 0.0 && f_wide > 0.0);
    for eps in [1e-6, 1e-8] {
        let (f, t) = jump(eps);
        assert!(f <= f_wide * eps / 1e-4 * 2.0, "eps = {eps}: |dF| = {f} vs {f_wide} at 1e-4");
        assert!(t <= t_wide * eps / 1e-4 * 2.0, "eps = {eps}: |dT| = {t} vs {t_wide} at 1e-4");
    }
    assert!(t_wide <= 1e-2 * KD * r, "{t_wide}");
}
