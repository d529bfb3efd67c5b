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

use crate::shape::vertex_tree::VertexTree;
use super::ContactPoint;
use crate::math::{Pose, Vec3};
use crate::shape::Shape;
use super::frame::Frame;
use crate::real::Real;
use super::plane_sphere;

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

/// The point `id` over any [`Real`] frames of the base (`base_frame`) and the follower
/// (`follower_frame`): with dual frames, its derivatives (`kinematics.rs`).
pub(super) fn point_over<S: Real>(_: &Shape, fb: &Frame<S>, follower: &Shape, ff: &Frame<S>, id: u32) -> ContactPoint<S> {
    match follower {
        Shape::ConvexHull(hull) => plane_sphere::plane_point(fb, ff.fixed_point(&hull.vertices[id as usize])),
        Shape::Mesh(mesh) => plane_sphere::plane_point(fb, ff.fixed_point(&mesh.vertices[id as usize])),
        _ => unreachable!("vertex-plane with {:?}", follower.kind()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;
    use crate::shape::TriangleMesh;
    use std::sync::Arc;

    /// A closed UV sphere of radius 0.1 with `rings` x `segments` cells.
    fn uv_sphere(rings: usize, segments: usize) -> TriangleMesh {
        let mut vertices = vec![Vec3::new(0.0, 0.0, 0.1)];
        for i in 1..rings {
            let theta = std::f64::consts::PI * i as f64 / rings as f64;
            for j in 0..segments {
                let phi = std::f64::consts::TAU * j as f64 / segments as f64;
                vertices.push(Vec3::new(theta.sin() * phi.cos(), theta.sin() * phi.sin(), theta.cos()) * 0.1);
            }
        }
        vertices.push(Vec3::new(0.0, 0.0, -0.1));
        let ring = |i: usize, j: usize| (1 + (i - 1) * segments + j % segments) as u32;
        let bottom = vertices.len() as u32 - 1;
        let mut triangles = Vec::new();
        for j in 0..segments {
            triangles.push([0, ring(1, j), ring(1, j + 1)]);
            for i in 1..rings - 1 {
                triangles.push([ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)]);
                triangles.push([ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)]);
            }
            triangles.push([ring(rings - 1, j + 1), ring(rings - 1, j), bottom]);
        }
        TriangleMesh::new(&vertices, &triangles).unwrap()
    }

    #[test]
    fn the_tree_gives_the_scans_points_in_the_scans_order() {
        let mesh = Arc::new(uv_sphere(30, 60));
        assert!(mesh.vertices.len() > SCAN_VERTICES);
        let shape = Shape::Mesh(mesh.clone());
        let plane = Pose { r: Vec3::new(0.01, -0.02, 0.003), q: Rotation::from_axis_angle(&Vec3::x_axis(), 0.2) };
        let n = plane.q * Vec3::z();
        for k in 0..60 {
            let angle = 0.37 * k as f64;
            let q = Rotation::from_axis_angle(&Vec3::y_axis(), angle) * Rotation::from_axis_angle(&Vec3::z_axis(), 1.3 * angle);
            // From 2 mm apart to 8 mm deep.
            let height = 0.102 - 0.01 * (k as f64 / 60.0);
            let pose = Pose { r: plane.r + n * height, q };
            let mut found = Vec::new();
            contacts(&Shape::Plane, &plane, &shape, &pose, &mut found);
            // The scan, as the pair did it before the tree.
            let mut expected = Vec::new();
            let mut lowest: Option<(usize, Vec3, f64)> = None;
            for (i, v) in mesh.vertices.iter().enumerate() {
                let p_b = pose.transform_point(v);
                let h = (p_b - plane.r).dot(&n);
                if h <= 0.0 {
                    expected.push(ContactPoint::new(p_b - n * h, p_b, n).with_id(i as u32));
                }
                if lowest.is_none_or(|(_, _, l)| h < l) {
                    lowest = Some((i, p_b, h));
                }
            }
            if expected.is_empty() {
                let (i, p_b, h) = lowest.unwrap();
                expected.push(ContactPoint::new(p_b - n * h, p_b, n).with_id(i as u32));
            }
            assert_eq!(found, expected, "case {k}");
        }
    }
}
