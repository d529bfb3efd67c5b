//! Plane (A) against sphere (B); a point is a sphere of radius zero.
//!
//! The plane is the half-space z <= 0 of its frame with outward normal n = +z. With the sphere's
//! centre c: `separation = (c - o) · n - radius`, witnesses `p_b = c - radius n` on the sphere and
//! its projection `p_a = p_b - ((p_b - o) · n) n` on the plane.

use nalgebra::Vector3;

use super::{sphere_radius, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;
use super::frame::Frame;
use crate::real::Real;

/// Canonical pair function: plane (base) and sphere or point (follower).
pub(super) fn contacts(_: &Shape, plane: &Pose, sphere: &Shape, centre: &Pose, out: &mut Vec<ContactPoint>) {
    out.push(contact(plane, &centre.r, sphere_radius(sphere)));
}

// Inlined into the plane pairs' loops whatever codegen unit they land in (without it, an
// unrelated change moved box_plane::contacts away from it: +450 instructions per box-plane
// evaluation).
#[inline]
pub(super) fn contact(plane: &Pose, centre_w: &Vec3, radius: f64) -> ContactPoint {
    let normal = plane.q * Vec3::z();
    let p_b = centre_w - normal * radius;
    let height = (p_b - plane.r).dot(&normal);
    ContactPoint::new(p_b - normal * height, p_b, normal)
}

/// A plane (its frame) and a point of B at `p_b`, over any [`Real`]: witnesses `p_b` and its projection.
pub(super) fn plane_point<S: Real>(plane: &Frame<S>, p_b: Vector3<S>) -> ContactPoint<S> {
    let n = plane.axes[2];
    let height = (p_b - plane.r).dot(&n);
    let mut point = ContactPoint::new(p_b - n * height, p_b, n);
    point.separation = height;
    point
}

/// The point `id` over any [`Real`] frames of the base (`base_frame`) and the follower
/// (`follower_frame`): with dual frames, its derivatives (`kinematics.rs`).
pub(super) fn point_over<S: Real>(_: &Shape, plane: &Frame<S>, sphere: &Shape, sphere_frame: &Frame<S>, _: u32) -> ContactPoint<S> {
    let n = plane.axes[2];
    plane_point(plane, sphere_frame.r - n * S::c(sphere_radius(sphere)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;

    #[test]
    fn tilted_plane_gives_distance_along_its_normal() {
        let q = Rotation::from_axis_angle(&Vec3::x_axis(), 0.3);
        let plane = Pose { r: Vec3::new(0.1, 0.2, 0.3), q };
        let n = q * Vec3::z();
        let centre = plane.r + n * 0.25 + q * Vec3::new(1.0, -2.0, 0.0);
        let c = contact(&plane, &centre, 0.1);
        assert!((c.separation - 0.15).abs() < 1e-14);
        assert!((c.normal_ab_w - n).norm() < 1e-15);
        assert!(((c.p_b_w - c.p_a_w).dot(&n) - c.separation).abs() < 1e-14);
        assert!((c.p_a_w - plane.r).dot(&n).abs() < 1e-14);
    }
}
