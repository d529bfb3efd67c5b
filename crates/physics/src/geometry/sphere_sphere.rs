//! Sphere (A) against sphere (B); either may be a point (radius zero).
//!
//! With centres c_a, c_b and `n = (c_b - c_a) / |c_b - c_a|`: `separation = |c_b - c_a| - r_a - r_b`,
//! witnesses `p_a = c_a + r_a n`, `p_b = c_b - r_b n`. Concentric spheres have no defined normal;
//! +z of W is used so that the result stays finite.

use nalgebra::Vector3;

use super::{sphere_radius, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;
use super::frame::Frame;
use crate::real::Real;

/// Canonical pair function: sphere or point (base) and sphere or point (follower).
pub(super) fn contacts(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, out: &mut Vec<ContactPoint>) {
    out.push(contact(&pose_a.r, sphere_radius(a), &pose_b.r, sphere_radius(b)));
}

pub(super) fn contact(centre_a: &Vec3, radius_a: f64, centre_b: &Vec3, radius_b: f64) -> ContactPoint {
    let offset = centre_b - centre_a;
    let distance = offset.norm();
    let normal = if distance > 1e-300 { offset / distance } else { Vec3::z() };
    let mut point = ContactPoint::new(centre_a + normal * radius_a, centre_b - normal * radius_b, normal);
    // Exact, rather than re-derived from the witnesses.
    point.separation = distance - radius_a - radius_b;
    point
}

/// The point `id` over any [`Real`] frames of the base (`base_frame`) and the follower
/// (`follower_frame`): with dual frames, its derivatives (`kinematics.rs`).
pub(super) fn point_over<S: Real>(base: &Shape, fb: &Frame<S>, follower: &Shape, ff: &Frame<S>, _: u32) -> ContactPoint<S> {
    let (ra, rb) = (sphere_radius(base), sphere_radius(follower));
    let offset = ff.r - fb.r;
    let distance = S::norm(&offset);
    let normal = if distance.v() > 1e-300 { offset / distance } else { Vector3::z() };
    let mut p = ContactPoint::new(fb.r + normal * S::c(ra), ff.r - normal * S::c(rb), normal);
    p.separation = distance - ra - rb;
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_spheres_have_negative_separation_and_unit_normal() {
        let c = contact(&Vec3::new(0.0, 0.0, 0.0), 0.2, &Vec3::new(0.3, 0.0, 0.0), 0.15);
        assert!((c.separation + 0.05).abs() < 1e-15);
        assert!((c.normal_ab_w - Vec3::x()).norm() < 1e-15);
        assert!((c.p_a_w - Vec3::new(0.2, 0.0, 0.0)).norm() < 1e-15);
        assert!((c.p_b_w - Vec3::new(0.15, 0.0, 0.0)).norm() < 1e-15);
    }

    #[test]
    fn concentric_spheres_stay_finite() {
        let c = contact(&Vec3::zeros(), 0.1, &Vec3::zeros(), 0.1);
        assert_eq!(c.normal_ab_w, Vec3::z());
        assert!((c.separation + 0.2).abs() < 1e-15);
    }
}
