//! What the finite-face pairs share: a Rectangle or Disk (the base) seen as a face of outline O in
//! its plane z = 0 with outward normal n = +z, and a follower's candidate points against it.
//!
//! Contact points (the Modelica idealized-contact library's scheme, with its "contact point
//! movement"): each candidate point p = (x, y, z) of the follower (a corner, a rim point, the
//! lowest point of a capsule's end sphere), written in the base frame, is checked against the
//! base's plane. Its projection (x, y) is moved onto O when it falls outside (m = the closest
//! point of O: a clamp for a rectangle, a radial scaling for a disk, exact), and
//!
//! - penetrating (z < 0 and w > 0): witnesses `p_a = (m, 0)`, `p_b = (m, z)`, normal +z,
//!   `separation = z`. A follower overhanging an edge thus pushes at the edge with the depth of
//!   the candidate beyond it.
//! - otherwise: the candidate's distance to the finite face, `separation = |p - (m, 0)|`
//!   (`|c - (m, 0)| - r` for a sphere of centre c), along the direction from `(m, 0)` to it: the
//!   same value as the face's surface query gives for a point above or beside it. The closest
//!   candidate thus gives the separation when apart; it is exact when the closest feature is a
//!   candidate (the lowest corner above the face) and an upper bound otherwise. A follower below
//!   the plane but beside the face (w = 0) is apart and reports this positive distance; where the
//!   overlap begins its reported separation turns to the depth z < 0, while its force, scaled by
//!   w -> 0 there, stays continuous.
//!
//! Weight (keeps the force continuous as the follower slides off an edge): every point of the
//! pair gets `w = area(F ∩ O) / area(F)`, where F is the contact footprint: the part of the
//! follower below the base plane, projected onto it (a box's or cylinder's cut, a capsule's
//! sphere-swept cut), or for a flat follower (Rectangle, Disk) its part below the plane measured
//! on its own face (the same ratio as projected, and still defined when it stands edge-on). A
//! box face or cylinder end resting flat has F = its projected face, so w is the covered
//! fraction of the face; a cylinder or capsule lying has F = a thin strip along its lowest line,
//! so w is the covered fraction of that line's length; a box tilted on an edge has F = a strip
//! along the edge, so it carries its full load while the edge is supported, even when the rest of
//! its face overhangs. F moves continuously with the pose and its area is positive whenever a
//! point penetrates, so w and the forces are continuous; `w -> 0` as the overlap ends. Areas are
//! shoelace areas of Sutherland-Hodgman clips; circles in them (a Disk outline, a cylinder's
//! cross-section, a flat disk) are regular polygons of [`CIRCLE_SIDES`] sides circumscribed
//! about them: a footprint inside a Disk's circle is then fully covered, and a follower's polygon
//! contains its circle, so F is never empty while one of its rim points penetrates.

use nalgebra::Matrix2;

use super::polygon::{Points, Polygon, P2};
use super::ContactPoint;
use crate::math::{Pose, Vec3};
use crate::shape::Shape;

/// Sides of the regular polygons that stand for circles in the area computations.
pub(super) const CIRCLE_SIDES: usize = 64;

/// The outline of a finite face in its own xy plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Outline {
    Rectangle { half_x: f64, half_y: f64 },
    Disk { radius: f64 },
}

impl Outline {
    /// The outline of a Rectangle or a Disk; `None` for other shapes.
    pub(super) fn of(shape: &Shape) -> Option<Outline> {
        match shape {
            Shape::Rectangle { half_x, half_y } => Some(Outline::Rectangle { half_x: *half_x, half_y: *half_y }),
            Shape::Disk { radius } => Some(Outline::Disk { radius: *radius }),
            _ => None,
        }
    }

    /// Exact area.
    pub(super) fn area(&self) -> f64 {
        match self {
            Outline::Rectangle { half_x, half_y } => 4.0 * half_x * half_y,
            Outline::Disk { radius } => std::f64::consts::PI * radius * radius,
        }
    }

    /// The closest point of the outlined region to `p`: `p` itself inside.
    pub(super) fn closest(&self, p: &P2) -> P2 {
        match self {
            Outline::Rectangle { half_x, half_y } => P2::new(p.x.clamp(-half_x, *half_x), p.y.clamp(-half_y, *half_y)),
            Outline::Disk { radius } => {
                let norm = p.norm();
                if norm > *radius {
                    p * (radius / norm)
                } else {
                    *p
                }
            }
        }
    }

    /// Half-plane i of the outline as `(m, c)`, the region being `m · p <= c` for every i below
    /// [`Outline::sides`]: the rectangle's four sides, or the 64-gon circumscribed about the disk.
    fn half_plane(&self, i: usize) -> (P2, f64) {
        match self {
            Outline::Rectangle { half_x, half_y } => match i {
                0 => (P2::new(1.0, 0.0), *half_x),
                1 => (P2::new(-1.0, 0.0), *half_x),
                2 => (P2::new(0.0, 1.0), *half_y),
                _ => (P2::new(0.0, -1.0), *half_y),
            },
            Outline::Disk { radius } => {
                let angle = std::f64::consts::TAU * i as f64 / CIRCLE_SIDES as f64;
                (P2::new(angle.cos(), angle.sin()), *radius)
            }
        }
    }

    fn sides(&self) -> usize {
        match self {
            Outline::Rectangle { .. } => 4,
            Outline::Disk { .. } => CIRCLE_SIDES,
        }
    }

    /// The fraction of `footprint` (a convex polygon in coordinates s, placed in the outline's
    /// plane by `p = origin + jacobian s`) whose image lies inside the outline; 0 for an empty or
    /// zero-area footprint. Clipping happens in s: `m · (origin + J s) <= c` is the half-plane
    /// `(J^T m) · s <= c - m · origin`, which stays meaningful when J is singular.
    pub(super) fn covered_fraction(&self, footprint: &Polygon, origin: &P2, jacobian: &Matrix2<f64>) -> f64 {
        let area = footprint.area();
        if area <= 0.0 {
            return 0.0;
        }
        let (mut first, mut second) = (footprint.clone(), Polygon::new());
        // Swapping the references, not the (large) polygons.
        let (mut current, mut next) = (&mut first, &mut second);
        for i in 0..self.sides() {
            let (m, c) = self.half_plane(i);
            current.clip(&(jacobian.transpose() * m), c - m.dot(origin), next);
            std::mem::swap(&mut current, &mut next);
        }
        (current.area() / area).clamp(0.0, 1.0)
    }
}

/// A candidate point of the follower in the base frame: the lowest point of a sphere of
/// `radius` about `centre` (a corner or rim point is a sphere of radius 0).
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    pub id: u32,
    pub centre: Vec3,
    pub radius: f64,
}

/// `follower` written in the frame of `base`.
pub(super) fn relative(base: &Pose, follower: &Pose) -> Pose {
    let inverse = base.q.inverse();
    Pose { r: inverse * (follower.r - base.r), q: inverse * follower.q }
}

/// The projection onto z = 0 of the part of a convex polytope below it (z <= 0): the hull of the
/// projected vertices below and of the points where edges cross z = 0.
pub(super) fn polytope_footprint(vertices: &[Vec3], edges: impl Iterator<Item = (usize, usize)>) -> Polygon {
    let mut points = Points::new();
    for v in vertices.iter().filter(|v| v.z <= 0.0) {
        points.push(v.xy());
    }
    for (i, j) in edges {
        let (a, b) = (&vertices[i], &vertices[j]);
        if (a.z < 0.0 && b.z > 0.0) || (a.z > 0.0 && b.z < 0.0) {
            let t = a.z / (a.z - b.z);
            points.push((a + (b - a) * t).xy());
        }
    }
    points.hull()
}

/// Appends the contact points of `candidates` (in the base frame) against the face of `outline`
/// at `base` (in W), all with weight `weight`, as in the module comment.
pub(super) fn push_points(outline: &Outline, base: &Pose, candidates: impl Iterator<Item = Candidate>, weight: f64, out: &mut Vec<ContactPoint>) {
    let normal_w = base.q * Vec3::z();
    for Candidate { id, centre, radius } in candidates {
        let moved = outline.closest(&centre.xy());
        let on_face = Vec3::new(moved.x, moved.y, 0.0);
        let depth_z = centre.z - radius;
        let mut point = if depth_z < 0.0 && weight > 0.0 {
            let mut point = ContactPoint::new(base.transform_point(&on_face), base.transform_point(&Vec3::new(moved.x, moved.y, depth_z)), normal_w);
            point.separation = depth_z;
            point
        } else {
            let offset = centre - on_face;
            let distance = offset.norm();
            let direction = if distance > 1e-300 { offset / distance } else { Vec3::z() };
            let mut point = ContactPoint::new(base.transform_point(&on_face), base.transform_point(&(centre - direction * radius)), base.q * direction);
            point.separation = distance - radius;
            point
        };
        point.id = id;
        point.weight = weight;
        out.push(point);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(half: f64, centre: P2) -> Polygon {
        let mut points = Points::new();
        for (x, y) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            points.push(centre + P2::new(x, y) * half);
        }
        points.hull()
    }

    #[test]
    fn a_square_half_over_a_rectangle_edge_is_half_covered() {
        let outline = Outline::Rectangle { half_x: 1.0, half_y: 2.0 };
        let f = outline.covered_fraction(&square(0.1, P2::new(1.0, 0.0)), &P2::zeros(), &Matrix2::identity());
        assert!((f - 0.5).abs() < 1e-15);
        let f = outline.covered_fraction(&square(0.1, P2::new(0.5, 0.0)), &P2::zeros(), &Matrix2::identity());
        assert_eq!(f, 1.0);
    }

    #[test]
    fn a_disk_outline_covers_a_square_inside_its_circle_fully_and_half_of_one_on_its_rim() {
        let outline = Outline::Disk { radius: 1.0 };
        let inside = outline.covered_fraction(&square(0.05, P2::new(0.0, 0.94)), &P2::zeros(), &Matrix2::identity());
        assert_eq!(inside, 1.0);
        // Centred on the rim at angle 0, where a side of the circumscribed 64-gon is tangent.
        let half = outline.covered_fraction(&square(0.01, P2::new(1.0, 0.0)), &P2::zeros(), &Matrix2::identity());
        assert!((half - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_singular_map_still_measures_coverage_on_the_footprint_itself() {
        // The footprint's u axis maps onto x, its v axis onto nothing (a face standing edge-on).
        let outline = Outline::Rectangle { half_x: 1.0, half_y: 1.0 };
        let jacobian = Matrix2::new(1.0, 0.0, 0.0, 0.0);
        let f = outline.covered_fraction(&square(0.5, P2::zeros()), &P2::new(0.75, 0.0), &jacobian);
        assert!((f - 0.75).abs() < 1e-15);
    }

    #[test]
    fn moved_points_keep_their_depth_and_apart_points_their_distance_to_the_face() {
        let outline = Outline::Disk { radius: 1.0 };
        let base = Pose::identity();
        let mut out = Vec::new();
        let below = Candidate { id: 3, centre: Vec3::new(2.0, 0.0, -0.01), radius: 0.0 };
        push_points(&outline, &base, [below].into_iter(), 0.5, &mut out);
        assert_eq!(out[0].separation, -0.01);
        assert!((out[0].p_a_w - Vec3::new(1.0, 0.0, 0.0)).norm() < 1e-15);
        assert_eq!((out[0].id, out[0].weight), (3, 0.5));
        let above = Candidate { id: 1, centre: Vec3::new(4.0, 0.0, 4.0), radius: 1.0 };
        push_points(&outline, &base, [above].into_iter(), 0.0, &mut out);
        assert!((out[1].separation - 4.0).abs() < 1e-15);
        assert!(((out[1].p_b_w - out[1].p_a_w).dot(&out[1].normal_ab_w) - 4.0).abs() < 1e-14);
    }
}
