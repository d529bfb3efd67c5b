//! The closest point of a shape's surface to a point: the one query from which every
//! "point-anything", "sphere-anything" and "point cloud-anything" pair is built.
//!
//! `to_surface` returns the surface point nearest to `p_w`, the outward unit normal there, and
//! the signed distance (negative inside the shape). For convex shapes the outward normal at the
//! nearest point is the direction from that point to `p_w` when outside, so `p = point + distance
//! normal`; inside, the nearest point is on the face (or side, or cap) of least depth and the
//! distance is minus that depth.
//!
//! Flat shapes (Disk, Rectangle) are finite patches of a plane with normal +z: a point whose
//! projection falls within the outline is at signed distance z from its projection (negative
//! below, like under a Plane); a point outside the outline is at distance `|p - q| > 0` from the
//! nearest point q of the outline. Both agree on the outline's edge for z >= 0 (`|p - q| = z`
//! there), so the distance is continuous above the patch. Below the patch and outside its outline
//! the point counts as outside: the patch has no side wall, so a point that went below the patch
//! and leaves its outline sideways is released (its distance jumps from z < 0 to |z|). A sphere
//! of radius r in contact has its centre above the patch as long as its depth is below r, so
//! sphere-patch contact stays continuous across the edge.
//!
//! A GridSurface is the solid below its height field; its distance is measured to the tangent
//! plane (see `height_field`).

use super::super::math::{Pose, Vec3};
use super::super::shape::{Shape, ShapeKind};

/// A point of a surface with its outward unit normal, and the signed distance of the query point
/// from it (> 0 outside), everything in W.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfacePoint {
    pub point_w: Vec3,
    pub normal_w: Vec3,
    pub distance: f64,
}

/// True for the shapes `to_surface` answers for.
pub fn has_surface(kind: ShapeKind) -> bool {
    use ShapeKind::*;
    matches!(kind, Plane | Sphere | Box | Cylinder | Capsule | Disk | Rectangle | GridSurface | ConvexHull | Ellipsoid | Mesh)
}

/// The nearest surface point of `shape` at `pose` to `p_w`; `None` for shapes without a surface
/// query (see [`has_surface`]).
pub fn to_surface(shape: &Shape, pose: &Pose, p_w: &Vec3) -> Option<SurfacePoint> {
    // The query in the shape's frame, mapped back to W.
    let local = pose.q.inverse() * (p_w - pose.r);
    let (point, normal, distance) = local_surface(shape, &local)?;
    Some(SurfacePoint { point_w: pose.transform_point(&point), normal_w: pose.q * normal, distance })
}

/// The nearest surface point of `shape` to `local` (both in the shape's frame), the outward unit
/// normal there and the signed distance; `None` for shapes without a surface query.
pub(super) fn local_surface(shape: &Shape, local: &Vec3) -> Option<(Vec3, Vec3, f64)> {
    let local = *local;
    Some(match shape {
        Shape::Plane => (Vec3::new(local.x, local.y, 0.0), Vec3::z(), local.z),
        Shape::Sphere { radius } => {
            let norm = local.norm();
            let normal = if norm > 1e-300 { local / norm } else { Vec3::z() };
            (normal * *radius, normal, norm - radius)
        }
        Shape::GridSurface(field) => super::height_field::to_surface(field, &local),
        Shape::Box { half_extents } => box_surface(&local, half_extents),
        Shape::Cylinder { radius, half_length } => cylinder_surface(&local, *radius, *half_length),
        Shape::Capsule { radius, half_length } => {
            // The nearest point of the segment, then the sphere of the radius about it.
            let axis_point = Vec3::new(0.0, 0.0, local.z.clamp(-half_length, *half_length));
            let offset = local - axis_point;
            let norm = offset.norm();
            let normal = if norm > 1e-300 { offset / norm } else { Vec3::x() };
            (axis_point + normal * *radius, normal, norm - radius)
        }
        Shape::Disk { radius } => {
            let rho = local.xy().norm();
            if rho <= *radius {
                (Vec3::new(local.x, local.y, 0.0), Vec3::z(), local.z)
            } else {
                let rim = local.xy() * (radius / rho);
                patch_edge(&local, Vec3::new(rim.x, rim.y, 0.0))
            }
        }
        Shape::Rectangle { half_x, half_y } => {
            if local.x.abs() <= *half_x && local.y.abs() <= *half_y {
                (Vec3::new(local.x, local.y, 0.0), Vec3::z(), local.z)
            } else {
                patch_edge(&local, Vec3::new(local.x.clamp(-half_x, *half_x), local.y.clamp(-half_y, *half_y), 0.0))
            }
        }
        Shape::ConvexHull(hull) => super::convex::hull_surface(hull, &local),
        Shape::Ellipsoid { semi_axes } => super::ellipsoid::closest_point(semi_axes, &local),
        Shape::Mesh(mesh) => super::mesh::surface(mesh, &local),
        _ => return None,
    })
}

/// Box of half extents h, query p in the box frame.
///
/// Outside (some `|p_i| > h_i`): the nearest point is `clamp(p, -h, h)`, the normal points from it
/// to p. Inside: the face of least depth `h_k - |p_k|` is nearest; the distance is minus that
/// depth and the normal is `sign(p_k) e_k` (ties go to the lowest axis, p_k = 0 to the + face).
fn box_surface(p: &Vec3, h: &Vec3) -> (Vec3, Vec3, f64) {
    let clamped = Vec3::new(p.x.clamp(-h.x, h.x), p.y.clamp(-h.y, h.y), p.z.clamp(-h.z, h.z));
    let offset = p - clamped;
    let norm = offset.norm();
    // A point outside by less than the smallest normal number is taken as on the face.
    if norm > 0.0 {
        return (clamped, offset / norm, norm);
    }
    let depth = h - p.abs();
    let k = if depth.x <= depth.y && depth.x <= depth.z {
        0
    } else if depth.y <= depth.z {
        1
    } else {
        2
    };
    let sign = if p[k] < 0.0 { -1.0 } else { 1.0 };
    let mut point = *p;
    point[k] = sign * h[k];
    let mut normal = Vec3::zeros();
    normal[k] = sign;
    (point, normal, -depth[k])
}

/// Solid cylinder of radius R and half length L about z, query p in its frame, with
/// `rho = |(p_x, p_y)|` and the radial direction `e_rho` (+x on the axis).
///
/// Outside (`rho > R` or `|z| > L`): the nearest point is p with rho clamped to R and z to
/// [-L, L] (the side, a cap, or the rim circle where both clamp), the normal points from it to p.
/// Inside: the side at depth `R - rho` or the nearer cap at depth `L - |z|`, whichever is less.
fn cylinder_surface(p: &Vec3, radius: f64, half_length: f64) -> (Vec3, Vec3, f64) {
    let rho = p.xy().norm();
    let radial = if rho > 1e-300 { Vec3::new(p.x / rho, p.y / rho, 0.0) } else { Vec3::x() };
    let z_sign = if p.z < 0.0 { -1.0 } else { 1.0 };
    let nearest = radial * rho.min(radius) + Vec3::z() * p.z.clamp(-half_length, half_length);
    let offset = p - nearest;
    let norm = offset.norm();
    if (rho > radius || p.z.abs() > half_length) && norm > 0.0 {
        return (nearest, offset / norm, norm);
    }
    let (side_depth, cap_depth) = (radius - rho, half_length - p.z.abs());
    if side_depth <= cap_depth {
        (radial * radius + Vec3::z() * p.z, radial, -side_depth)
    } else {
        (Vec3::new(p.x, p.y, z_sign * half_length), Vec3::z() * z_sign, -cap_depth)
    }
}

/// A flat patch's nearest outline point q to a query p outside the outline: distance
/// `|p - q| > 0`, normal from q to p (+z if p is off the outline by less than the smallest
/// normal number).
fn patch_edge(p: &Vec3, q: Vec3) -> (Vec3, Vec3, f64) {
    let offset = p - q;
    let norm = offset.norm();
    let normal = if norm > 0.0 { offset / norm } else { Vec3::z() };
    (q, normal, norm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;

    #[test]
    fn plane_and_sphere_distances_are_signed_along_the_outward_normal() {
        let pose = Pose { r: Vec3::new(1.0, 2.0, 3.0), q: Rotation::from_axis_angle(&Vec3::y_axis(), 0.4) };
        let p = pose.transform_point(&Vec3::new(0.3, -0.2, -0.05));
        let s = to_surface(&Shape::Plane, &pose, &p).unwrap();
        assert!((s.distance + 0.05).abs() < 1e-14);
        assert!(((p - s.point_w) - s.normal_w * s.distance).norm() < 1e-14);
        let s = to_surface(&Shape::Sphere { radius: 0.5 }, &pose, &p).unwrap();
        let expected = Vec3::new(0.3, -0.2, -0.05).norm() - 0.5;
        assert!((s.distance - expected).abs() < 1e-14);
        assert!(((p - s.point_w) - s.normal_w * s.distance).norm() < 1e-14);
    }

    /// A tilted, displaced pose, so that every check also exercises the frame mapping.
    fn pose() -> Pose {
        let q = Rotation::from_axis_angle(&Vec3::x_axis(), 0.7) * Rotation::from_axis_angle(&Vec3::z_axis(), -1.1);
        Pose { r: Vec3::new(0.4, -0.3, 1.2), q }
    }

    /// Queries the shape at `pose()` for a point given in the shape's frame and returns the answer
    /// in the shape's frame, after checking what holds for every answer: unit normal and
    /// `p = point + distance normal`.
    fn query(shape: &Shape, local: Vec3) -> (Vec3, Vec3, f64) {
        let pose = pose();
        let p = pose.transform_point(&local);
        let s = to_surface(shape, &pose, &p).unwrap();
        assert!((s.normal_w.norm() - 1.0).abs() < 1e-14, "{shape:?} at {local}");
        assert!(((p - s.point_w) - s.normal_w * s.distance).norm() < 1e-13, "{shape:?} at {local}");
        let back = pose.q.inverse();
        (back * (s.point_w - pose.r), back * s.normal_w, s.distance)
    }

    fn assert_answer(shape: &Shape, local: Vec3, point: Vec3, normal: Vec3, distance: f64) {
        let (p, n, d) = query(shape, local);
        assert!((p - point).norm() < 1e-13, "{shape:?} at {local}: point {p} != {point}");
        assert!((n - normal.normalize()).norm() < 1e-13, "{shape:?} at {local}: normal {n} != {normal}");
        assert!((d - distance).abs() < 1e-13, "{shape:?} at {local}: distance {d} != {distance}");
    }

    use crate::test_rng::XorShift64Star as Rng;

    /// Points on the shape's surface on a grid of about `n` steps per unit of parameter, with a
    /// spacing no larger than `0.5 / n` of the shape's size.
    fn surface_samples(shape: &Shape, n: usize) -> Vec<Vec3> {
        let grid = |a: f64, b: f64| (0..=n).map(move |i| a + (b - a) * i as f64 / n as f64);
        let mut points = Vec::new();
        match shape {
            Shape::Box { half_extents: h } => {
                for k in 0..3 {
                    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
                    for u in grid(-h[i], h[i]) {
                        for v in grid(-h[j], h[j]) {
                            for sign in [-1.0, 1.0] {
                                let mut p = Vec3::zeros();
                                p[k] = sign * h[k];
                                p[i] = u;
                                p[j] = v;
                                points.push(p);
                            }
                        }
                    }
                }
            }
            Shape::Cylinder { radius, half_length } => {
                for a in grid(0.0, std::f64::consts::TAU) {
                    for z in grid(-half_length, *half_length) {
                        points.push(Vec3::new(radius * a.cos(), radius * a.sin(), z));
                    }
                    for r in grid(0.0, *radius) {
                        points.push(Vec3::new(r * a.cos(), r * a.sin(), *half_length));
                        points.push(Vec3::new(r * a.cos(), r * a.sin(), -half_length));
                    }
                }
            }
            Shape::Capsule { radius, half_length } => {
                for a in grid(0.0, std::f64::consts::TAU) {
                    for z in grid(-half_length, *half_length) {
                        points.push(Vec3::new(radius * a.cos(), radius * a.sin(), z));
                    }
                    for b in grid(0.0, std::f64::consts::FRAC_PI_2) {
                        let (c, s) = (radius * b.cos(), radius * b.sin());
                        points.push(Vec3::new(c * a.cos(), c * a.sin(), half_length + s));
                        points.push(Vec3::new(c * a.cos(), c * a.sin(), -half_length - s));
                    }
                }
            }
            Shape::Disk { radius } => {
                for a in grid(0.0, std::f64::consts::TAU) {
                    for r in grid(0.0, *radius) {
                        points.push(Vec3::new(r * a.cos(), r * a.sin(), 0.0));
                    }
                }
            }
            Shape::Rectangle { half_x, half_y } => {
                for x in grid(-half_x, *half_x) {
                    for y in grid(-half_y, *half_y) {
                        points.push(Vec3::new(x, y, 0.0));
                    }
                }
            }
            _ => unreachable!("no samples for {shape:?}"),
        }
        points
    }

    fn shapes() -> [Shape; 5] {
        [
            Shape::Box { half_extents: Vec3::new(0.3, 0.2, 0.1) },
            Shape::Cylinder { radius: 0.15, half_length: 0.25 },
            Shape::Capsule { radius: 0.1, half_length: 0.2 },
            Shape::Disk { radius: 0.2 },
            Shape::Rectangle { half_x: 0.3, half_y: 0.1 },
        ]
    }

    #[test]
    fn box_distances_to_faces_edges_and_corners_match_the_closed_forms() {
        let b = Shape::Box { half_extents: Vec3::new(0.3, 0.2, 0.1) };
        // Outside a face, an edge and a corner: the clamped point, and the offset to it.
        assert_answer(&b, Vec3::new(0.5, 0.05, -0.02), Vec3::new(0.3, 0.05, -0.02), Vec3::x(), 0.2);
        assert_answer(&b, Vec3::new(0.4, 0.3, 0.0), Vec3::new(0.3, 0.2, 0.0), Vec3::new(1.0, 1.0, 0.0), 0.02f64.sqrt());
        let corner = Vec3::new(0.4, -0.5, 0.4);
        assert_answer(&b, corner, Vec3::new(0.3, -0.2, 0.1), Vec3::new(0.1, -0.3, 0.3), 0.19f64.sqrt());
        // Inside: the face of least depth (depths 0.2, 0.15, 0.04 and 0.05, 0.2, 0.1).
        assert_answer(&b, Vec3::new(0.1, 0.05, 0.06), Vec3::new(0.1, 0.05, 0.1), Vec3::z(), -0.04);
        assert_answer(&b, Vec3::new(-0.25, 0.0, 0.0), Vec3::new(-0.3, 0.0, 0.0), -Vec3::x(), -0.05);
        // On a face: distance zero, normal of that face.
        assert_answer(&b, Vec3::new(0.1, -0.2, 0.03), Vec3::new(0.1, -0.2, 0.03), -Vec3::y(), 0.0);
    }

    #[test]
    fn cylinder_distances_to_side_caps_and_rims_match_the_closed_forms() {
        let c = Shape::Cylinder { radius: 0.15, half_length: 0.25 };
        let (e, rho) = (Vec3::new(0.6, 0.8, 0.0), 0.4);
        // Side: radial offset; cap: axial offset; rim: the offset to the rim circle.
        assert_answer(&c, e * rho + Vec3::z() * 0.1, e * 0.15 + Vec3::z() * 0.1, e, 0.25);
        assert_answer(&c, e * 0.1 - Vec3::z() * 0.3, e * 0.1 - Vec3::z() * 0.25, -Vec3::z(), 0.05);
        assert_answer(&c, e * rho + Vec3::z() * 0.5, e * 0.15 + Vec3::z() * 0.25, e * 0.25 + Vec3::z() * 0.25, 0.125f64.sqrt());
        // Inside: the side at depth 0.15 - 0.1 against the cap at 0.25 - 0.1, and the reverse.
        assert_answer(&c, e * 0.1 + Vec3::z() * 0.1, e * 0.15 + Vec3::z() * 0.1, e, -0.05);
        assert_answer(&c, e * 0.02 - Vec3::z() * 0.2, e * 0.02 - Vec3::z() * 0.25, -Vec3::z(), -0.05);
        // On the axis, the side is nearest when the caps are farther: any radial direction, depth R.
        let (_, n, d) = query(&c, Vec3::zeros());
        assert!(n.z.abs() < 1e-15 && (d + 0.15).abs() < 1e-15);
    }

    #[test]
    fn capsule_distance_is_the_distance_to_its_segment_minus_the_radius() {
        let c = Shape::Capsule { radius: 0.1, half_length: 0.2 };
        let e = Vec3::new(0.0, -0.6, 0.8);
        // Beside the segment, beyond each end (the end spheres), and inside.
        assert_answer(&c, Vec3::new(0.3, 0.4, 0.15), Vec3::new(0.06, 0.08, 0.15), Vec3::new(0.3, 0.4, 0.0), 0.4);
        assert_answer(&c, Vec3::z() * 0.2 + e * 0.5, Vec3::z() * 0.2 + e * 0.1, e, 0.4);
        assert_answer(&c, Vec3::new(0.0, 0.0, -0.25), Vec3::new(0.0, 0.0, -0.3), -Vec3::z(), -0.05);
        assert_answer(&c, Vec3::new(0.0, 0.03, 0.0), Vec3::new(0.0, 0.1, 0.0), Vec3::y(), -0.07);
    }

    #[test]
    fn disk_is_a_plane_within_its_outline_and_the_rim_outside_it() {
        let d = Shape::Disk { radius: 0.2 };
        let e = Vec3::new(-0.8, 0.6, 0.0);
        // Above and below the disk: signed height, like a plane.
        assert_answer(&d, e * 0.1 + Vec3::z() * 0.05, e * 0.1, Vec3::z(), 0.05);
        assert_answer(&d, e * 0.1 - Vec3::z() * 0.05, e * 0.1, Vec3::z(), -0.05);
        // Beside the rim, above it, and below it outside the outline (outside: positive).
        assert_answer(&d, e * 0.5, e * 0.2, e, 0.3);
        assert_answer(&d, e * 0.5 + Vec3::z() * 0.4, e * 0.2, e * 0.3 + Vec3::z() * 0.4, 0.5);
        assert_answer(&d, e * 0.5 - Vec3::z() * 0.4, e * 0.2, e * 0.3 - Vec3::z() * 0.4, 0.5);
    }

    #[test]
    fn rectangle_is_a_plane_within_its_outline_and_its_edges_outside_it() {
        let r = Shape::Rectangle { half_x: 0.3, half_y: 0.1 };
        assert_answer(&r, Vec3::new(0.2, -0.05, 0.07), Vec3::new(0.2, -0.05, 0.0), Vec3::z(), 0.07);
        assert_answer(&r, Vec3::new(-0.2, 0.05, -0.01), Vec3::new(-0.2, 0.05, 0.0), Vec3::z(), -0.01);
        // Beside an edge, beside a corner, and below an edge outside the outline.
        assert_answer(&r, Vec3::new(0.1, 0.4, 0.4), Vec3::new(0.1, 0.1, 0.0), Vec3::new(0.0, 0.3, 0.4), 0.5);
        assert_answer(&r, Vec3::new(-0.6, -0.5, 0.0), Vec3::new(-0.3, -0.1, 0.0), Vec3::new(-0.3, -0.4, 0.0), 0.5);
        assert_answer(&r, Vec3::new(0.5, 0.0, -0.1), Vec3::new(0.3, 0.0, 0.0), Vec3::new(0.2, 0.0, -0.1), 0.05f64.sqrt());
    }

    /// How far a point (shape frame) is off the shape's surface, from the shape's own equations.
    fn off_surface(shape: &Shape, p: &Vec3) -> f64 {
        let rho = p.xy().norm();
        match shape {
            Shape::Box { half_extents: h } => (p.abs() - h).max().abs(),
            Shape::Cylinder { radius, half_length } => (rho - radius).max(p.z.abs() - half_length).abs(),
            Shape::Capsule { radius, half_length } => {
                let axis = Vec3::new(0.0, 0.0, p.z.clamp(-half_length, *half_length));
                ((p - axis).norm() - radius).abs()
            }
            Shape::Disk { radius } => p.z.abs() + (rho - radius).max(0.0),
            Shape::Rectangle { half_x, half_y } => p.z.abs() + (p.x.abs() - half_x).max(0.0) + (p.y.abs() - half_y).max(0.0),
            _ => unreachable!(),
        }
    }

    #[test]
    fn surface_point_lies_on_the_surface_and_no_sampled_surface_point_is_nearer() {
        let mut rng = Rng(0x5eed_1234_abcd_0001);
        for shape in shapes() {
            let samples = surface_samples(&shape, 60);
            for _ in 0..150 {
                let local = rng.vec(0.5);
                let (point, _, distance) = query(&shape, local);
                assert!(off_surface(&shape, &point) < 1e-14, "{shape:?}: {point} is off the surface");
                // Patches count points below them as inside; elsewhere |distance| is the distance
                // to the surface, which the samples approach to within their spacing (< 0.025).
                let below_patch = matches!(shape, Shape::Disk { .. } | Shape::Rectangle { .. }) && distance < 0.0;
                if !below_patch {
                    let nearest = samples.iter().map(|s| (local - s).norm()).fold(f64::INFINITY, f64::min);
                    assert!(distance.abs() <= nearest + 1e-12, "{shape:?} at {local}: {distance} vs sampled {nearest}");
                    assert!(distance.abs() >= nearest - 0.0125, "{shape:?} at {local}: {distance} vs sampled {nearest}");
                }
            }
        }
    }

    #[test]
    fn signed_distance_is_continuous_across_faces_edges_and_rims() {
        // A distance to a surface changes by no more than the query point moves (1-Lipschitz):
        // everywhere for the solids, above the plane z = 0 for the patches.
        let mut rng = Rng(0x0dd_ba11);
        for shape in shapes() {
            let patch = matches!(shape, Shape::Disk { .. } | Shape::Rectangle { .. });
            for _ in 0..2000 {
                let mut p = rng.vec(0.45);
                let mut q = p + rng.vec(0.02);
                if patch {
                    p.z = p.z.abs();
                    q.z = q.z.abs();
                }
                let (_, _, d_p) = query(&shape, p);
                let (_, _, d_q) = query(&shape, q);
                assert!((d_p - d_q).abs() <= (p - q).norm() * (1.0 + 1e-12) + 1e-14, "{shape:?}: {p} -> {q}: {d_p} -> {d_q}");
            }
        }
        // A sweep over the rim of a disk at height 0.01: the height inside, the distance to the rim
        // outside, equal at the rim and the normal turning smoothly from +z.
        let disk = Shape::Disk { radius: 0.2 };
        let mut previous = query(&disk, Vec3::new(0.19, 0.0, 0.01));
        for i in 1..=200 {
            let x = 0.19 + 0.02 * i as f64 / 200.0;
            let now = query(&disk, Vec3::new(x, 0.0, 0.01));
            let expected = if x <= 0.2 { 0.01 } else { ((x - 0.2).powi(2) + 1e-4).sqrt() };
            assert!((now.2 - expected).abs() < 1e-15);
            assert!((now.1 - previous.1).norm() < 0.02, "normal jumps at x = {x}");
            previous = now;
        }
    }
}
