//! The closest point of a shape's surface to a point: the one query from which every
//! "point-anything", "sphere-anything" and "point cloud-anything" pair is built.
//!
//! `to_surface` returns the surface point nearest to `p_w`, the outward unit normal there, and
//! the signed distance (negative inside the shape). For convex shapes the outward normal at the
//! nearest point is the direction from that point to `p_w` when outside. Flat shapes (Disk,
//! Rectangle) are finite patches of a plane: a point below the patch (z < 0 within its outline)
//! is inside, like under a Plane.

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
    matches!(kind, ShapeKind::Plane | ShapeKind::Sphere | ShapeKind::ConvexHull | ShapeKind::Ellipsoid | ShapeKind::Mesh)
}

/// The nearest surface point of `shape` at `pose` to `p_w`; `None` for shapes without a surface
/// query (see [`has_surface`]).
pub fn to_surface(shape: &Shape, pose: &Pose, p_w: &Vec3) -> Option<SurfacePoint> {
    // The query in the shape's frame, mapped back to W.
    let local = pose.q.inverse() * (p_w - pose.r);
    let (point, normal, distance) = match shape {
        Shape::Plane => (Vec3::new(local.x, local.y, 0.0), Vec3::z(), local.z),
        Shape::Sphere { radius } => {
            let norm = local.norm();
            let normal = if norm > 1e-300 { local / norm } else { Vec3::z() };
            (normal * *radius, normal, norm - radius)
        }
        Shape::ConvexHull(hull) => super::convex::hull_surface(hull, &local),
        Shape::Ellipsoid { semi_axes } => super::ellipsoid::closest_point(semi_axes, &local),
        Shape::Mesh(mesh) => super::mesh::surface(mesh, &local),
        _ => return None,
    };
    Some(SurfacePoint { point_w: pose.transform_point(&point), normal_w: pose.q * normal, distance })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::math::Rotation;

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
}
