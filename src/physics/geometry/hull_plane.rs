//! Plane (A) against the vertices of a convex hull or a mesh (B): each vertex `v` is a point
//! contact with `separation = (v - o) · n`, its witness on the plane its projection
//! `v - separation n`, and its id the vertex index.
//!
//! A polyhedron touches a plane first and deepest at vertices, so the vertices below the plane
//! carry the whole contact: a face resting flat carries its load on all of its vertices (with
//! zero net torque when they are symmetric about the centre of mass), an edge on two, exactly as
//! the box-plane pair's corners. A vertex's force depends only on its own depth, which is
//! continuous, so forces are continuous however the body moves. Only the vertices below the
//! plane are reported, plus the lowest vertex when none is (the separation when apart).

use super::ContactPoint;
use crate::physics::math::{Pose, Vec3};
use crate::physics::shape::Shape;

/// The vertices of a hull or mesh, in its geometry frame.
fn vertices(shape: &Shape) -> &[Vec3] {
    match shape {
        Shape::ConvexHull(hull) => &hull.vertices,
        Shape::Mesh(mesh) => &mesh.vertices,
        _ => &[],
    }
}

/// Canonical pair function: plane (base) and a hull or a mesh (follower).
pub(super) fn contacts(_: &Shape, plane: &Pose, body: &Shape, pose: &Pose, out: &mut Vec<ContactPoint>) {
    let n = plane.q * Vec3::z();
    let first = out.len();
    let mut lowest: Option<(usize, Vec3, f64)> = None;
    for (i, v) in vertices(body).iter().enumerate() {
        let p_b = pose.transform_point(v);
        let height = (p_b - plane.r).dot(&n);
        if height <= 0.0 {
            out.push(ContactPoint::new(p_b - n * height, p_b, n).with_id(i as u32));
        }
        if lowest.is_none_or(|(_, _, h)| height < h) {
            lowest = Some((i, p_b, height));
        }
    }
    if out.len() == first {
        if let Some((i, p_b, height)) = lowest {
            out.push(ContactPoint::new(p_b - n * height, p_b, n).with_id(i as u32));
        }
    }
}

/// One id per vertex.
pub(super) fn point_count(_: &Shape, body: &Shape) -> usize {
    vertices(body).len().max(1)
}
