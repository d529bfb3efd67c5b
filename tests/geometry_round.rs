//! The pairs of round shapes and the surface-query pairs, through `GeometryPair` in both argument
//! orders: invariants on random poses (unit normal from A to B, separation = (p_b - p_a) · n,
//! witnesses on the surfaces, exchanging A and B mirrors every point), closed forms (sphere
//! against a box face, edge and corner; against a cylinder side, cap and rim; against a capsule,
//! a disk and a rectangle; capsules crossed at right angles; a capsule lying on a plane), and
//! continuity of the contact force along smooth sweeps.

use contact_force::physics::geometry::distance::to_surface;
use contact_force::physics::geometry::{ContactPoint, GeometryPair};
use contact_force::physics::math::{Pose, Rotation, Vec3};
use contact_force::physics::shape::{Shape, ShapeKind};
use nalgebra::Unit;
use std::f64::consts::FRAC_PI_2;

mod support;
use support::Rng;

/// This file's random draws: pairs of poses, perpendiculars and shapes.
trait RandomRound {
    fn poses(&mut self, case: usize) -> (Pose, Pose);
    fn perpendicular(&mut self, u: &Vec3) -> Vec3;
    fn shape(&mut self, kind: ShapeKind) -> Shape;
}

impl RandomRound for Rng {
    /// Random poses of A and B: every other case B's origin within 0.15 of A's (mostly touching,
    /// often deep), otherwise within 0.4 (mostly apart).
    fn poses(&mut self, case: usize) -> (Pose, Pose) {
        let a = self.pose(0.1);
        let reach = if case.is_multiple_of(2) { 0.15 } else { 0.4 };
        let b = Pose { r: a.r + self.vec(reach), q: self.rotation() };
        (a, b)
    }

    /// A unit vector perpendicular to `u`.
    fn perpendicular(&mut self, u: &Vec3) -> Vec3 {
        loop {
            let v = self.vec(1.0);
            let w = v - u * v.dot(u);
            if w.norm() > 0.1 {
                return w.normalize();
            }
        }
    }

    fn shape(&mut self, kind: ShapeKind) -> Shape {
        match kind {
            ShapeKind::Point => Shape::Point,
            ShapeKind::Sphere => Shape::Sphere { radius: self.range(0.02, 0.2) },
            ShapeKind::Box => Shape::Box { half_extents: Vec3::new(self.range(0.05, 0.3), self.range(0.05, 0.3), self.range(0.05, 0.3)) },
            ShapeKind::Cylinder => Shape::Cylinder { radius: self.range(0.05, 0.2), half_length: self.range(0.05, 0.3) },
            // One capsule in ten has zero length (a sphere).
            ShapeKind::Capsule => {
                let half_length = if self.next() < 0.1 { 0.0 } else { self.range(0.02, 0.3) };
                Shape::Capsule { radius: self.range(0.03, 0.15), half_length }
            }
            ShapeKind::Disk => Shape::Disk { radius: self.range(0.05, 0.3) },
            ShapeKind::Rectangle => Shape::Rectangle { half_x: self.range(0.05, 0.3), half_y: self.range(0.05, 0.3) },
            ShapeKind::Plane => Shape::Plane,
            other => unreachable!("no random {other:?} here"),
        }
    }
}

/// The pairs this file covers, each tested in both orders.
const PAIRS: [(ShapeKind, ShapeKind); 12] = [
    (ShapeKind::Box, ShapeKind::Sphere),
    (ShapeKind::Cylinder, ShapeKind::Sphere),
    (ShapeKind::Capsule, ShapeKind::Sphere),
    (ShapeKind::Disk, ShapeKind::Sphere),
    (ShapeKind::Rectangle, ShapeKind::Sphere),
    (ShapeKind::Box, ShapeKind::Point),
    (ShapeKind::Cylinder, ShapeKind::Point),
    (ShapeKind::Capsule, ShapeKind::Point),
    (ShapeKind::Disk, ShapeKind::Point),
    (ShapeKind::Rectangle, ShapeKind::Point),
    (ShapeKind::Plane, ShapeKind::Capsule),
    (ShapeKind::Capsule, ShapeKind::Capsule),
];

fn contacts(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> (Vec<ContactPoint>, usize) {
    let pair = GeometryPair::new(a.clone(), b.clone()).unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    pair.contacts(pose_a, pose_b, &mut out);
    (out, pair.max_points())
}

/// The single point of a one-point pair, checked to be alone.
fn only(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> ContactPoint {
    let (out, max_points) = contacts(a, pose_a, b, pose_b);
    assert_eq!((out.len(), max_points), (1, 1), "{a:?} - {b:?}");
    out[0]
}

fn smallest_separation(points: &[ContactPoint]) -> f64 {
    points.iter().map(|c| c.separation).fold(f64::INFINITY, f64::min)
}

/// How far a witness is off its shape's surface.
fn off_surface(shape: &Shape, pose: &Pose, p: &Vec3) -> f64 {
    match shape {
        Shape::Point => (p - pose.r).norm(),
        _ => to_surface(shape, pose, p).expect("a surface").distance.abs(),
    }
}

/// The distance between two segments by brute force: a grid of 401 x 401 parameter pairs, then
/// the best of them refined by alternating exact projections (each step can only get closer).
fn segment_distance(c_a: &Vec3, u_a: &Vec3, l_a: f64, c_b: &Vec3, u_b: &Vec3, l_b: f64) -> f64 {
    let n = 400;
    let mut best = (f64::INFINITY, 0.0, 0.0);
    for i in 0..=n {
        let s = -l_a + 2.0 * l_a * i as f64 / n as f64;
        for j in 0..=n {
            let t = -l_b + 2.0 * l_b * j as f64 / n as f64;
            let d = (c_a + u_a * s - c_b - u_b * t).norm();
            if d < best.0 {
                best = (d, s, t);
            }
        }
    }
    let (_, mut s, mut t) = best;
    for _ in 0..200 {
        t = (c_a + u_a * s - c_b).dot(u_b).clamp(-l_b, l_b);
        s = (c_b + u_b * t - c_a).dot(u_a).clamp(-l_a, l_a);
    }
    (c_a + u_a * s - c_b - u_b * t).norm().min(best.0)
}

#[test]
fn every_point_has_a_unit_normal_a_consistent_separation_and_witnesses_on_the_surfaces() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (kind_a, kind_b) in PAIRS {
        for (first, second) in [(kind_a, kind_b), (kind_b, kind_a)] {
            let mut touching = 0;
            for case in 0..300 {
                let (a, b) = (rng.shape(first), rng.shape(second));
                let (pose_a, pose_b) = rng.poses(case);
                let (out, max_points) = contacts(&a, &pose_a, &b, &pose_b);
                let what = format!("{first:?}-{second:?} case {case}");
                assert!(!out.is_empty(), "{what}: no point");
                let mut ids = Vec::new();
                for c in &out {
                    assert!((c.normal_ab_w.norm() - 1.0).abs() < 1e-12, "{what}");
                    assert!(((c.p_b_w - c.p_a_w).dot(&c.normal_ab_w) - c.separation).abs() < 1e-12, "{what}");
                    assert!(off_surface(&a, &pose_a, &c.p_a_w) < 1e-12, "{what}: p_a off A");
                    assert!(off_surface(&b, &pose_b, &c.p_b_w) < 1e-12, "{what}: p_b off B");
                    assert!((c.id as usize) < max_points && !ids.contains(&c.id), "{what}: id {}", c.id);
                    assert!((0.0..=1.0).contains(&c.weight), "{what}: weight {}", c.weight);
                    ids.push(c.id);
                }
                touching += usize::from(smallest_separation(&out) < 0.0);
            }
            // The random poses must exercise contact, or half of this proves nothing.
            assert!((30..=270).contains(&touching), "{first:?}-{second:?}: {touching} of 300 poses in contact");
        }
    }
}

#[test]
fn exchanging_the_shapes_mirrors_every_point() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for (kind_a, kind_b) in PAIRS {
        for case in 0..300 {
            let (a, b) = (rng.shape(kind_a), rng.shape(kind_b));
            let (pose_a, pose_b) = rng.poses(case);
            let (out, max_points) = contacts(&a, &pose_a, &b, &pose_b);
            let (mirror, mirror_max) = contacts(&b, &pose_b, &a, &pose_a);
            let what = format!("{kind_a:?}-{kind_b:?} case {case}");
            assert_eq!((out.len(), max_points), (mirror.len(), mirror_max), "{what}");
            // The same id, except that capsule-capsule numbers its two overlap stations (1, 2)
            // along the axes' mean direction, which reverses with the order when the axes point
            // opposite ways.
            for c in &out {
                let gap = |m: &&ContactPoint| (m.p_a_w - c.p_b_w).norm() + (m.p_b_w - c.p_a_w).norm() + (m.weight - c.weight).abs();
                let same_role = |m: &&ContactPoint| m.id == c.id || (c.id > 0 && m.id > 0);
                let m = mirror.iter().filter(same_role).min_by(|x, y| gap(x).total_cmp(&gap(y))).unwrap();
                assert!((m.p_a_w - c.p_b_w).norm() < 1e-9 && (m.p_b_w - c.p_a_w).norm() < 1e-9, "{what}: {c:?} vs {m:?}");
                assert!((m.normal_ab_w + c.normal_ab_w).norm() < 1e-9, "{what}");
                assert!((m.separation - c.separation).abs() < 1e-12, "{what}");
                assert!((m.weight - c.weight).abs() < 1e-9, "{what}");
            }
        }
    }
}

/// Checks one closed form through both argument orders: X (A) against a sphere or point (B)
/// centred at `local` in X's frame, with the expected separation, and optionally the expected
/// nearest point of X and normal (in X's frame).
fn assert_surface_pair(x: &Shape, pose: &Pose, local: Vec3, radius: f64, separation: f64, expected: Option<(Vec3, Vec3)>) {
    let ball = if radius > 0.0 { Shape::Sphere { radius } } else { Shape::Point };
    let centre = Pose { r: pose.transform_point(&local), q: Rotation::identity() };
    let c = only(x, pose, &ball, &centre);
    let what = format!("{x:?} and {ball:?} at {local}");
    assert!((c.separation - separation).abs() < 1e-12, "{what}: {} != {separation}", c.separation);
    assert!(((c.p_b_w - c.p_a_w).dot(&c.normal_ab_w) - c.separation).abs() < 1e-12, "{what}");
    assert!((c.p_b_w - (centre.r - c.normal_ab_w * radius)).norm() < 1e-12, "{what}");
    if let Some((point, normal)) = expected {
        assert!((c.p_a_w - pose.transform_point(&point)).norm() < 1e-12, "{what}: witness on A");
        assert!((c.normal_ab_w - pose.q * normal.normalize()).norm() < 1e-12, "{what}: normal");
    }
    let m = only(&ball, &centre, x, pose);
    assert_eq!(m.separation, c.separation, "{what}: swapped");
    assert_eq!((m.p_a_w, m.p_b_w, m.normal_ab_w), (c.p_b_w, c.p_a_w, -c.normal_ab_w), "{what}: swapped");
}

#[test]
fn sphere_and_point_against_a_box_face_edge_and_corner_match_the_closed_forms() {
    let mut rng = Rng(7);
    for _ in 0..100 {
        let h = Vec3::new(rng.range(0.05, 0.3), rng.range(0.05, 0.3), rng.range(0.05, 0.3));
        let (x, pose) = (Shape::Box { half_extents: h }, rng.pose(1.0));
        let radius = if rng.next() < 0.5 { 0.0 } else { rng.range(0.02, 0.2) };
        let (g1, g2, g3) = (rng.range(-0.05, 0.2), rng.range(0.0, 0.2), rng.range(0.0, 0.2));
        let (y, z) = (rng.range(-h.y, h.y), rng.range(-h.z, h.z));
        // Face +x at gap g1 (inside the box when g1 < 0 and shallower than the other faces).
        if -g1 < (h.y - y.abs()).min(h.z - z.abs()) {
            assert_surface_pair(&x, &pose, Vec3::new(h.x + g1, y, z), radius, g1 - radius, Some((Vec3::new(h.x, y, z), Vec3::x())));
        }
        // Edge (+x, -y) and corner (-x, +y, -z).
        let g1 = g1.abs();
        let edge = Vec3::new(h.x, -h.y, z);
        assert_surface_pair(&x, &pose, edge + Vec3::new(g1, -g2, 0.0), radius, (g1 * g1 + g2 * g2).sqrt() - radius, Some((edge, Vec3::new(g1, -g2, 0.0))));
        let corner = Vec3::new(-h.x, h.y, -h.z);
        let offset = Vec3::new(-g1, g2, -g3);
        assert_surface_pair(&x, &pose, corner + offset, radius, offset.norm() - radius, Some((corner, offset)));
    }
}

#[test]
fn sphere_and_point_against_a_cylinder_side_cap_and_rim_match_the_closed_forms() {
    let mut rng = Rng(8);
    for _ in 0..100 {
        let (big_r, l) = (rng.range(0.05, 0.2), rng.range(0.05, 0.3));
        let (x, pose) = (Shape::Cylinder { radius: big_r, half_length: l }, rng.pose(1.0));
        let radius = if rng.next() < 0.5 { 0.0 } else { rng.range(0.02, 0.2) };
        let angle = rng.range(0.0, std::f64::consts::TAU);
        let e = Vec3::new(angle.cos(), angle.sin(), 0.0);
        let (g1, g2, z, rho) = (rng.range(0.0, 0.2), rng.range(0.0, 0.2), rng.range(-l, l), rng.range(0.0, big_r));
        assert_surface_pair(&x, &pose, e * (big_r + g1) + Vec3::z() * z, radius, g1 - radius, Some((e * big_r + Vec3::z() * z, e)));
        assert_surface_pair(&x, &pose, e * rho - Vec3::z() * (l + g2), radius, g2 - radius, Some((e * rho - Vec3::z() * l, -Vec3::z())));
        let rim = e * big_r + Vec3::z() * l;
        let offset = e * g1 + Vec3::z() * g2;
        assert_surface_pair(&x, &pose, rim + offset, radius, offset.norm() - radius, Some((rim, offset)));
        // Inside, nearer the side than the caps: minus the side depth.
        let inside = e * rng.range(0.5 * big_r, big_r) + Vec3::z() * rng.range(-0.2 * l, 0.2 * l);
        let side_depth = big_r - inside.xy().norm();
        if side_depth < l - inside.z.abs() {
            assert_surface_pair(&x, &pose, inside, radius, -side_depth - radius, Some((e * big_r + Vec3::z() * inside.z, e)));
        }
    }
}

#[test]
fn sphere_and_point_against_a_capsule_disk_and_rectangle_match_the_closed_forms() {
    let mut rng = Rng(9);
    for _ in 0..100 {
        let pose = rng.pose(1.0);
        let radius = if rng.next() < 0.5 { 0.0 } else { rng.range(0.02, 0.2) };
        let angle = rng.range(0.0, std::f64::consts::TAU);
        let e = Vec3::new(angle.cos(), angle.sin(), 0.0);
        let (g, h) = (rng.range(0.0, 0.2), rng.range(0.0, 0.2));
        // Capsule: the distance to its segment, beside it and beyond its +z end.
        let (big_r, l) = (rng.range(0.03, 0.15), rng.range(0.0, 0.3));
        let capsule = Shape::Capsule { radius: big_r, half_length: l };
        let z = rng.range(-l, l);
        assert_surface_pair(&capsule, &pose, e * (big_r + g) + Vec3::z() * z, radius, g - radius, Some((e * big_r + Vec3::z() * z, e)));
        let beyond = (e * g + Vec3::z() * h).normalize();
        assert_surface_pair(&capsule, &pose, Vec3::z() * l + beyond * (big_r + g), radius, g - radius, Some((Vec3::z() * l + beyond * big_r, beyond)));
        // Disk: the height above it within its outline, the distance to its rim outside it.
        let disk_r = rng.range(0.05, 0.3);
        let disk = Shape::Disk { radius: disk_r };
        let rho = rng.range(0.0, disk_r);
        assert_surface_pair(&disk, &pose, e * rho + Vec3::z() * h, radius, h - radius, Some((e * rho, Vec3::z())));
        let offset = e * g + Vec3::z() * h;
        assert_surface_pair(&disk, &pose, e * disk_r + offset, radius, offset.norm() - radius, Some((e * disk_r, offset)));
        // Rectangle: the same with its edges and corners.
        let (hx, hy) = (rng.range(0.05, 0.3), rng.range(0.05, 0.3));
        let rectangle = Shape::Rectangle { half_x: hx, half_y: hy };
        let inside = Vec3::new(rng.range(-hx, hx), rng.range(-hy, hy), 0.0);
        assert_surface_pair(&rectangle, &pose, inside + Vec3::z() * h, radius, h - radius, Some((inside, Vec3::z())));
        let edge = Vec3::new(inside.x, -hy, 0.0);
        let offset = Vec3::new(0.0, -g, h);
        assert_surface_pair(&rectangle, &pose, edge + offset, radius, offset.norm() - radius, Some((edge, offset)));
        let corner = Vec3::new(hx, hy, 0.0);
        let offset = Vec3::new(g, rng.range(0.0, 0.2), h);
        assert_surface_pair(&rectangle, &pose, corner + offset, radius, offset.norm() - radius, Some((corner, offset)));
    }
}

#[test]
fn capsules_crossed_at_right_angles_are_the_distance_between_skew_lines_minus_the_radii() {
    let mut rng = Rng(10);
    for case in 0..200 {
        let (r_a, r_b, l_a, l_b) = (rng.range(0.03, 0.15), rng.range(0.03, 0.15), rng.range(0.05, 0.3), rng.range(0.05, 0.3));
        let pose_a = rng.pose(1.0);
        let u_a = pose_a.q * Vec3::z();
        let u_b = rng.perpendicular(&u_a);
        let n = u_a.cross(&u_b);
        // The common perpendicular meets A at s and B at t, both inside the segments.
        let (s, t, gap) = (rng.range(-l_a, l_a), rng.range(-l_b, l_b), rng.range(0.0, 0.4));
        let centre_b = pose_a.r + u_a * s + n * gap - u_b * t;
        let pose_b = Pose { r: centre_b, q: Rotation::rotation_between(&Vec3::z(), &u_b).unwrap() * Rotation::from_axis_angle(&Vec3::z_axis(), rng.range(0.0, 6.0)) };
        let (a, b) = (Shape::Capsule { radius: r_a, half_length: l_a }, Shape::Capsule { radius: r_b, half_length: l_b });
        for (out, sign) in [(contacts(&a, &pose_a, &b, &pose_b).0, 1.0), (contacts(&b, &pose_b, &a, &pose_a).0, -1.0)] {
            // Crossed at right angles, the overlap stations are not even computed.
            assert_eq!(out.len(), 1, "case {case}");
            let c = out[0];
            assert!((c.separation - (gap - r_a - r_b)).abs() < 1e-12, "case {case}: {} != {}", c.separation, gap - r_a - r_b);
            if gap > 1e-6 {
                assert!((c.normal_ab_w - n * sign).norm() < 1e-9, "case {case}");
            }
            assert_eq!(c.weight, 1.0);
        }
    }
}

#[test]
fn capsule_pair_separation_is_the_brute_force_distance_between_the_segments_minus_the_radii() {
    let mut rng = Rng(11);
    for case in 0..60 {
        let (a, b) = (rng.shape(ShapeKind::Capsule), rng.shape(ShapeKind::Capsule));
        let (pose_a, pose_b) = rng.poses(case);
        let (out, _) = contacts(&a, &pose_a, &b, &pose_b);
        let (Shape::Capsule { radius: r_a, half_length: l_a }, Shape::Capsule { radius: r_b, half_length: l_b }) = (&a, &b) else { unreachable!() };
        let d = segment_distance(&pose_a.r, &(pose_a.q * Vec3::z()), *l_a, &pose_b.r, &(pose_b.q * Vec3::z()), *l_b);
        // The closest points (id 0) are always there; apart, no other point is nearer.
        assert_eq!(out[0].id, 0);
        assert!((out[0].separation - (d - r_a - r_b)).abs() < 1e-9, "case {case}");
        if out[0].separation > 0.0 {
            assert!(smallest_separation(&out) >= out[0].separation - 1e-15, "case {case}");
        }
    }
}

#[test]
fn capsule_lying_on_a_plane_touches_with_two_equally_deep_points() {
    let mut rng = Rng(12);
    for case in 0..100 {
        let plane = rng.pose(1.0);
        let n = plane.q * Vec3::z();
        let (radius, l, depth) = (rng.range(0.03, 0.15), rng.range(0.05, 0.3), rng.range(0.0, 0.01));
        let axis = rng.perpendicular(&n);
        let centre = plane.r + n * (radius - depth) + rng.perpendicular(&n) * rng.range(0.0, 1.0);
        let pose = Pose { r: centre, q: Rotation::rotation_between(&Vec3::z(), &axis).unwrap() };
        let capsule = Shape::Capsule { radius, half_length: l };
        for (out, sign) in [(contacts(&Shape::Plane, &plane, &capsule, &pose).0, 1.0), (contacts(&capsule, &pose, &Shape::Plane, &plane).0, -1.0)] {
            assert_eq!(out.len(), 2, "case {case}");
            for (i, c) in out.iter().enumerate() {
                assert_eq!(c.id, i as u32);
                assert!((c.separation + depth).abs() < 1e-12, "case {case}: {} != {}", c.separation, -depth);
                assert!((c.normal_ab_w - n * sign).norm() < 1e-12);
                assert_eq!(c.weight, 1.0);
            }
            // The two points are the ends of the segment, 2 L apart.
            assert!(((out[0].p_a_w - out[1].p_a_w).norm() - 2.0 * l).abs() < 1e-12);
        }
        // Standing on an end, tilted by `a` from the normal: the lower end's sphere bottom is the
        // deepest point; the upper end's lowest point is on its rim, 2 L cos(a) + r - r sin(a)
        // higher.
        let a = rng.range(0.0, 1.2);
        let axis = n * a.cos() + rng.perpendicular(&n) * a.sin();
        let pose = Pose { r: plane.r + n * (radius - depth) + axis * l, q: Rotation::rotation_between(&Vec3::z(), &axis).unwrap() };
        let (out, _) = contacts(&Shape::Plane, &plane, &capsule, &pose);
        assert!((out[0].separation + depth).abs() < 1e-12);
        assert!((out[1].separation - out[0].separation - (2.0 * l * a.cos() + radius - radius * a.sin())).abs() < 1e-12);
    }
}

/// A contact's resultant under a Hertz-like law `f = w depth^1.5` at each point: the total force
/// and its first moment (where it acts, times the force).
fn resultant(points: &[ContactPoint]) -> (f64, Vec3) {
    points.iter().fold((0.0, Vec3::zeros()), |(f, m), c| {
        let f_i = c.weight * c.depth().powf(1.5);
        (f + f_i, m + c.point_w() * f_i)
    })
}

/// Evaluates `resultant` along a sweep of `steps` steps and returns the largest change of the
/// force and of its moment between neighbouring steps, relative to their largest values. A force
/// that jumps (a point appearing or vanishing at full weight) makes this a sizeable fraction
/// whatever the step count; a continuous one makes it shrink with the step.
fn largest_jump(steps: usize, contacts_at: impl Fn(f64) -> Vec<ContactPoint>) -> (f64, f64) {
    let values: Vec<(f64, Vec3)> = (0..=steps).map(|i| resultant(&contacts_at(i as f64 / steps as f64))).collect();
    let largest_f = values.iter().map(|v| v.0).fold(0.0, f64::max);
    let largest_m = values.iter().map(|v| v.1.norm()).fold(0.0, f64::max);
    assert!(largest_f > 0.0, "the sweep never touches");
    let jump_f = values.windows(2).map(|w| (w[1].0 - w[0].0).abs()).fold(0.0, f64::max);
    let jump_m = values.windows(2).map(|w| (w[1].1 - w[0].1).norm()).fold(0.0, f64::max);
    (jump_f / largest_f, jump_m / largest_m.max(1e-300))
}

fn assert_continuous(name: &str, contacts_at: impl Fn(f64) -> Vec<ContactPoint>) {
    let coarse = largest_jump(500, &contacts_at);
    let fine = largest_jump(4000, &contacts_at);
    assert!(fine.0 < 0.01 && fine.1 < 0.01, "{name}: relative jumps {fine:?}");
    // Eight times finer steps: the jumps shrink (a discontinuity would stay).
    assert!(fine.0 < 0.5 * coarse.0 && fine.1 < 0.5 * coarse.1, "{name}: {coarse:?} -> {fine:?}");
}

#[test]
fn capsule_on_capsule_force_is_continuous_from_lying_along_to_crossed_and_off_the_end() {
    let capsule = Shape::Capsule { radius: 0.05, half_length: 0.2 };
    let along_x = Rotation::from_axis_angle(&Vec3::y_axis(), FRAC_PI_2);
    let base = Pose { r: Vec3::new(0.3, -0.2, 0.1), q: Rotation::from_axis_angle(&Unit::new_normalize(Vec3::new(1.0, 2.0, 3.0)), 0.8) };
    let world = |p: Pose| base.compose(&p);
    let a = world(Pose { r: Vec3::zeros(), q: along_x });
    let depth = 0.004;
    let run = |pose_b: Pose| contacts(&capsule, &a, &capsule, &world(pose_b)).0;
    // Turning about the common normal from lying along A to crossing it at right angles, about
    // B's centre above A's centre and above a point near A's end.
    for x in [0.0, 0.15] {
        assert_continuous(&format!("yaw over x = {x}"), |u| {
            let yaw = Rotation::from_axis_angle(&Vec3::z_axis(), u * FRAC_PI_2);
            run(Pose { r: Vec3::new(x, 0.0, 0.1 - depth), q: yaw * along_x })
        });
    }
    // Tilting about B's end at x = -0.2 until the far end lifts clear.
    assert_continuous("tilt", |u| {
        let tilt = Rotation::from_axis_angle(&Vec3::y_axis(), -0.3 * u);
        let end = Vec3::new(-0.2, 0.0, 0.1 - depth);
        run(Pose { r: end + tilt * Vec3::new(0.2, 0.0, 0.0), q: tilt * along_x })
    });
    // Sliding along A off its end and past it, parallel and slightly turned.
    for yaw in [0.0, 0.02] {
        assert_continuous(&format!("slide at yaw {yaw}"), |u| {
            let q = Rotation::from_axis_angle(&Vec3::z_axis(), yaw) * along_x;
            run(Pose { r: Vec3::new(-0.1 + 0.6 * u, 0.0, 0.1 - depth), q })
        });
    }
    // Crossing over sideways at a small angle.
    assert_continuous("sideways", |u| {
        let q = Rotation::from_axis_angle(&Vec3::z_axis(), 0.1) * along_x;
        run(Pose { r: Vec3::new(0.05, -0.12 + 0.24 * u, 0.1 - depth), q })
    });
}

#[test]
fn capsule_lying_on_a_capsule_is_carried_by_two_full_points_and_a_crossed_one_by_one() {
    let capsule = Shape::Capsule { radius: 0.05, half_length: 0.2 };
    let along_x = Rotation::from_axis_angle(&Vec3::y_axis(), FRAC_PI_2);
    let a = Pose { r: Vec3::zeros(), q: along_x };
    let weights = |q: Rotation| {
        let (out, _) = contacts(&capsule, &a, &capsule, &Pose { r: Vec3::new(0.0, 0.0, 0.096), q });
        let carrying: f64 = out.iter().filter(|c| c.separation < 0.0).map(|c| c.weight).sum();
        (carrying, resultant(&out).0)
    };
    let one_point = 0.004f64.powf(1.5);
    let (w, f) = weights(along_x);
    assert!((w - 2.0).abs() < 1e-12 && (f - 2.0 * one_point).abs() < 1e-12 * one_point, "{w} {f}");
    let (w, f) = weights(Rotation::from_axis_angle(&Vec3::z_axis(), 1.2) * along_x);
    assert!((w - 1.0).abs() < 1e-12 && (f - one_point).abs() < 1e-12 * one_point, "{w} {f}");
}

#[test]
fn sphere_force_is_continuous_across_the_edges_of_a_rectangle_and_a_disk() {
    let pose = Pose { r: Vec3::new(0.1, 0.2, -0.3), q: Rotation::from_axis_angle(&Vec3::x_axis(), 0.26) };
    let sphere = Shape::Sphere { radius: 0.05 };
    for patch in [Shape::Rectangle { half_x: 0.1, half_y: 0.125 }, Shape::Disk { radius: 0.1 }] {
        // The sphere 3 mm deep slides across the patch's edge along x and over the corner or
        // the rim diagonally.
        for direction in [Vec3::x(), Vec3::new(1.0, 1.1, 0.0).normalize()] {
            assert_continuous(&format!("{patch:?} along {direction}"), |u| {
                let centre = direction * (0.3 * u) + Vec3::z() * 0.047;
                contacts(&patch, &pose, &sphere, &Pose { r: pose.transform_point(&centre), q: Rotation::identity() }).0
            });
        }
    }
}

/// The block's outputs for shapes A and B with their geometry frames at the body frames, A at
/// rest at the origin and B at rest at `r_b`; capsules lie along x.
fn block_outputs(a: ShapeKind, b: ShapeKind, r_b: [f64; 3]) -> contact_force::block::Outputs {
    use contact_force::block::{Block, Frame, Inputs, Outputs, Parameters};
    let mut p = Parameters::default();
    // A quarter turn about y takes a capsule's z axis to x.
    let along_x = [(FRAC_PI_2 / 2.0).cos(), 0.0, (FRAC_PI_2 / 2.0).sin(), 0.0];
    for (g, kind) in [(&mut p.geometry_a, a), (&mut p.geometry_b, b)] {
        g.shape = kind.value();
        g.radius = 0.05;
        g.length = 0.4;
        if kind == ShapeKind::Capsule {
            g.q = along_x;
        }
    }
    let (block, _) = Block::new(&p, None).expect("a supported pair");
    let at = |r_0: [f64; 3]| Frame { r_0, q: [1.0, 0.0, 0.0, 0.0], v_0: [0.0; 3], w_0: [0.0; 3] };
    let mut out = Outputs::default();
    block.evaluate(&Inputs::of_frames(at([0.0; 3]), at(r_b)), &mut Vec::new(), &[], &mut out).expect("valid inputs");
    out
}

#[test]
fn block_carries_a_capsule_lying_on_a_plane_or_on_a_capsule_on_two_equal_points_without_torque() {
    for (a, r_b) in [(ShapeKind::Plane, [0.1, 0.2, 0.049]), (ShapeKind::Capsule, [0.0, 0.0, 0.099])] {
        let out = block_outputs(a, ShapeKind::Capsule, r_b);
        assert_eq!(out.points, 2, "{a:?}");
        assert!((out.separation + 0.001).abs() < 1e-12, "{a:?}: {}", out.separation);
        let active: Vec<_> = out.point.iter().filter(|p| p.active).collect();
        assert_eq!(active.len(), 2, "{a:?}");
        assert!(active[0].normal_force > 0.0 && (active[0].normal_force - active[1].normal_force).abs() < 1e-12 * out.normal_force);
        assert!((out.normal_force - 2.0 * active[0].normal_force).abs() < 1e-12 * out.normal_force);
        // The two points straddle the capsule's centre: no torque about it, all force along z.
        assert!(Vec3::from(out.frame_b.t_0).norm() < 1e-12 * out.normal_force, "{a:?}");
        assert!((out.frame_b.f_0[2] - out.normal_force).abs() < 1e-12 * out.normal_force);
    }
}
