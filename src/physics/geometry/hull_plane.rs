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

use super::vertex_tree::VertexTree;
use super::ContactPoint;
use crate::physics::math::{Pose, Vec3};
use crate::physics::shape::Shape;

/// The vertices of a hull or mesh, in its geometry frame, and their tree.
fn vertices(shape: &Shape) -> (&[Vec3], Option<&VertexTree>) {
    match shape {
        Shape::ConvexHull(hull) => (&hull.vertices, Some(&hull.vertex_tree)),
        Shape::Mesh(mesh) => (&mesh.vertices, Some(&mesh.vertex_tree)),
        _ => (&[], None),
    }
}

/// Vertex counts up to this are scanned; larger sets are searched through their tree.
const SCAN_VERTICES: usize = 64;

/// Canonical pair function: plane (base) and a hull or a mesh (follower).
///
/// Large vertex sets visit only the tree nodes that reach below the plane (or, apart, that may
/// hold the lowest vertex): the cost grows with the contact points and the tree's depth, not
/// with the vertex count. The points are the scan's, in the scan's order (by vertex index).
pub(super) fn contacts(_: &Shape, plane: &Pose, body: &Shape, pose: &Pose, out: &mut Vec<ContactPoint>) {
    let n = plane.q * Vec3::z();
    let first = out.len();
    let (vertices, tree) = vertices(body);
    let height = |i: usize| {
        let p_b = pose.transform_point(&vertices[i]);
        (p_b, (p_b - plane.r).dot(&n))
    };
    let point = |i: usize, p_b: Vec3, height: f64| ContactPoint::new(p_b - n * height, p_b, n).with_id(i as u32);
    if let (Some(tree), true) = (tree, vertices.len() > SCAN_VERTICES) {
        // Height of vertex v: (r + q v - o) · n = v · m - offset, with m the plane's normal in
        // the body's frame; the margin covers the rounding between the two forms.
        let m = pose.q.inverse() * n;
        let offset = (plane.r - pose.r).dot(&n);
        let margin = 1e-9 * (1.0 + (plane.r - pose.r).norm() + tree.radius());
        tree.below(&m, offset + margin, |i| {
            let (p_b, h) = height(i);
            if h <= 0.0 {
                out.push(point(i, p_b, h));
            }
        });
        if out.len() == first {
            if let Some((i, _)) = tree.lowest_vertex(&m, offset, margin, |i| height(i).1) {
                let (p_b, h) = height(i);
                out.push(point(i, p_b, h));
            }
        } else {
            out[first..].sort_unstable_by_key(|p| p.id);
        }
        return;
    }
    let mut lowest: Option<(usize, Vec3, f64)> = None;
    for i in 0..vertices.len() {
        let (p_b, height) = height(i);
        if height <= 0.0 {
            out.push(point(i, p_b, height));
        }
        if lowest.is_none_or(|(_, _, h)| height < h) {
            lowest = Some((i, p_b, height));
        }
    }
    if out.len() == first {
        if let Some((i, p_b, height)) = lowest {
            out.push(point(i, p_b, height));
        }
    }
}

/// One id per vertex.
pub(super) fn point_count(_: &Shape, body: &Shape) -> usize {
    vertices(body).0.len().max(1)
}
