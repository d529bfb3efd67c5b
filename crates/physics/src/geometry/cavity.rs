//! What the inside pairs (`inside_*.rs`) share: the followers' features against a cavity's wall.
//!
//! Every cavity the block offers is convex, and a convex cavity's wall penetration (the signed
//! distance from the cavity's surface, positive outside it) is a convex function of the point.
//! Over a follower it is therefore largest at the follower's extreme features: a polytope's
//! vertices (a box's corners, a hull's vertices), a point cloud's points, a capsule's end balls.
//! The depth found at those features is exact.
//!
//! Vertex sets follow the rule of the plane-hull pair: the vertices that reach into the wall
//! (separation <= 0) are reported, plus the closest vertex when none does (the separation when
//! clear). A vertex's force depends only on its own depth, so forces are continuous as vertices
//! come and go (each enters and leaves at zero depth). Vertex i has id `offset + i`.
//!
//! A flat wall (a box's face, a cylinder's end face) is the half-space beyond it: the plane pairs
//! take a follower against it, with the plane's outward normal pointing into the cavity.

use super::{box_plane, capsule_plane, cylinder_plane, plane_sphere, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;

/// Whether the shape is a set of vertices against a cavity (Box, ConvexHull, PointCloud).
pub(super) fn is_vertex_set(shape: &Shape) -> bool {
    matches!(shape, Shape::Box { .. } | Shape::ConvexHull(_) | Shape::PointCloud(_))
}

/// How many vertices a vertex set has (0 for any other shape).
pub(super) fn vertex_count(shape: &Shape) -> usize {
    match shape {
        Shape::Box { .. } => 8,
        Shape::ConvexHull(hull) => hull.vertices.len(),
        Shape::PointCloud(cloud) => cloud.points.len(),
        _ => 0,
    }
}

/// Appends the contact points of a vertex set's vertices (in W at `pose`) against a wall, by the
/// rule of the module comment: `wall(x)` is the contact of the point x (its wall witness first),
/// `None` where x has none (beyond an open bore's end).
pub(super) fn vertices(shape: &Shape, pose: &Pose, offset: u32, out: &mut Vec<ContactPoint>, wall: impl Fn(&Vec3) -> Option<ContactPoint>) {
    let first = out.len();
    let mut closest: Option<ContactPoint> = None;
    let mut visit = |i: usize, x: Vec3| {
        if let Some(point) = wall(&x) {
            let point = point.with_id(offset + i as u32);
            if point.separation <= 0.0 {
                out.push(point);
            } else if closest.is_none_or(|c| point.separation < c.separation) {
                closest = Some(point);
            }
        }
    };
    match shape {
        Shape::Box { half_extents } => {
            for (i, corner) in box_plane::corners(half_extents, pose).into_iter().enumerate() {
                visit(i, corner);
            }
        }
        Shape::ConvexHull(hull) => {
            for (i, v) in hull.vertices.iter().enumerate() {
                visit(i, pose.transform_point(v));
            }
        }
        Shape::PointCloud(cloud) => {
            let m = pose.q.to_rotation_matrix();
            for (i, p) in cloud.points.iter().enumerate() {
                visit(i, pose.r + m * p);
            }
        }
        _ => unreachable!("cavity::vertices with {shape:?}"),
    }
    if out.len() == first {
        out.extend(closest);
    }
}

/// Appends the contact points of a follower against a flat wall: the half-space beyond the plane
/// at `wall` (its +z pointing into the cavity), ids from `offset`.
pub(super) fn flat_wall(wall: &Pose, follower: &Shape, pose: &Pose, offset: u32, out: &mut Vec<ContactPoint>) {
    let first = out.len();
    match follower {
        Shape::Point | Shape::Sphere { .. } => plane_sphere::contacts(&Shape::Plane, wall, follower, pose, out),
        Shape::Capsule { .. } => capsule_plane::contacts(&Shape::Plane, wall, follower, pose, out),
        Shape::Cylinder { .. } => cylinder_plane::contacts(&Shape::Plane, wall, follower, pose, out),
        _ => return vertices(follower, pose, offset, out, |x| Some(plane_sphere::contact(wall, x, 0.0))),
    }
    for point in &mut out[first..] {
        point.id += offset;
    }
}

/// The point ids a follower uses against one flat wall.
pub(super) fn flat_wall_count(follower: &Shape) -> usize {
    match follower {
        Shape::Point | Shape::Sphere { .. } => 1,
        Shape::Capsule { half_length, .. } if *half_length == 0.0 => 1,
        Shape::Capsule { .. } => 2,
        Shape::Cylinder { .. } => 8,
        _ => vertex_count(follower),
    }
}

/// The balls a capsule is extreme at against a convex cavity: its end balls (ids 0 and 1), or
/// one ball (id 0) for a capsule of zero length; a point or a sphere is one ball (id 0).
pub(super) fn balls(follower: &Shape, pose: &Pose) -> ([(u32, Vec3); 2], usize, f64) {
    match *follower {
        Shape::Capsule { radius, half_length } if half_length > 0.0 => {
            let u = pose.q * Vec3::z();
            ([(0, pose.r - u * half_length), (1, pose.r + u * half_length)], 2, radius)
        }
        Shape::Capsule { radius, .. } | Shape::Sphere { radius } => ([(0, pose.r), (0, pose.r)], 1, radius),
        Shape::Point => ([(0, pose.r), (0, pose.r)], 1, 0.0),
        _ => unreachable!("cavity::balls with {follower:?}"),
    }
}

/// How many balls [`balls`] gives.
pub(super) fn ball_count(follower: &Shape) -> usize {
    match follower {
        Shape::Capsule { half_length, .. } if *half_length > 0.0 => 2,
        _ => 1,
    }
}

/// The ids of a cavity that holds a vertex set by its vertices and a round follower by its
/// [`balls`]: one per vertex or ball (the `count` of inside_capsule.rs and inside_ellipsoid.rs).
pub(super) fn vertex_or_ball_count(_: &Shape, follower: &Shape) -> usize {
    if is_vertex_set(follower) {
        vertex_count(follower)
    } else {
        ball_count(follower)
    }
}
