//! Plane (A) against capsule (B): the lowest surface point at each end of the capsule.
//!
//! With the plane's origin o and normal n, the capsule's axis u = q_b z, centre c, half length L
//! and radius r, the ends are `e_0 = c - L u` (id 0) and `e_1 = c + L u` (id 1), with outward
//! axial directions `o_0 = -u`, `o_1 = +u`, at heights `h_i = (e_i - o) · n`. The capsule's height
//! is linear along its segment, so its deepest point is at one of its ends, and each end has one
//! lowest surface point:
//! - if the end points downward (`o_i · n <= 0`), the bottom of its end sphere, `e_i - r n`, at
//!   `separation_i = h_i - r` (the sphere-plane contact of the end sphere);
//! - otherwise the lowest point of its rim circle (where the side meets the end sphere),
//!   `e_i - r m` with `m = (n - (n · u) u) / |...|`, at `separation_i = h_i - r sqrt(1 - (n · u)^2)`.
//!   The end sphere's own bottom is inside the capsule there, so it would not be a surface point.
//!
//! Both agree when the end points sideways (`n · u = 0`), so the points move continuously as the
//! capsule tilts either way. Lying flat, both ends are equally deep and share the load; standing
//! or tilted, the lower end is deeper and the upper one separates as it lifts, so the force moves
//! continuously from two points to one. Witnesses on the plane are the projections. A capsule of
//! zero length is a sphere: one point (id 0).

use nalgebra::Vector3;

use super::{plane_sphere, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;
use super::frame::Frame;
use crate::real::Real;

/// Canonical pair function: plane (base) and capsule (follower).
pub(super) fn contacts(_: &Shape, plane: &Pose, capsule: &Shape, pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::Capsule { radius, half_length } = *capsule else {
        unreachable!("capsule_plane called with {capsule:?}")
    };
    if half_length == 0.0 {
        out.push(plane_sphere::contact(plane, &pose.r, radius));
        return;
    }
    let n = plane.q * Vec3::z();
    let u = pose.q * Vec3::z();
    // Downhill across the axis; standing (n along u) every rim point is equally low.
    let across = n - u * n.dot(&u);
    let m = if across.norm() > 1e-9 {
        across.normalize()
    } else {
        let w = if u.x.abs() < 0.5 { Vec3::x() } else { Vec3::y() };
        (w - u * w.dot(&u)).normalize()
    };
    for (id, outward) in [(0, -u), (1, u)] {
        let end = pose.r + outward * half_length;
        let lowest = if outward.dot(&n) <= 0.0 { end - n * radius } else { end - m * radius };
        let height = (lowest - plane.r).dot(&n);
        out.push(ContactPoint::new(lowest - n * height, lowest, n).with_id(id));
    }
}

/// Two point ids, one for each end; one for a capsule of zero length.
pub(super) fn point_count(_: &Shape, capsule: &Shape) -> usize {
    match capsule {
        Shape::Capsule { half_length, .. } if *half_length == 0.0 => 1,
        _ => 2,
    }
}

/// The point `id` over any [`Real`] frames of the base (`base_frame`) and the follower
/// (`follower_frame`): with dual frames, its derivatives (`kinematics.rs`).
pub(super) fn point_over<S: Real>(_: &Shape, fb: &Frame<S>, follower: &Shape, ff: &Frame<S>, id: u32) -> ContactPoint<S> {
    let Shape::Capsule { radius, half_length } = follower else { unreachable!("capsule-plane with {:?}", follower.kind()) };
    let n = fb.axes[2];
    if *half_length == 0.0 {
        return plane_sphere::plane_point(fb, ff.r - n * S::c(*radius));
    }
    let u = ff.axes[2];
    let across = n - u * n.dot(&u);
    let m = if S::vv(&across).norm() > 1e-9 {
        across / S::norm(&across)
    } else {
        let w = if u.x.v().abs() < 0.5 { Vector3::x() } else { Vector3::y() };
        let w = w - u * w.dot(&u);
        w / S::norm(&w)
    };
    let outward = if id == 0 { -u } else { u };
    let end = ff.r + outward * S::c(*half_length);
    let lowest = if outward.dot(&n).v() <= 0.0 { end - n * S::c(*radius) } else { end - m * S::c(*radius) };
    plane_sphere::plane_point(fb, lowest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;

    #[test]
    fn lying_capsule_touches_with_both_ends_equally_deep_and_standing_with_the_lower_end() {
        let q = Rotation::from_axis_angle(&Vec3::x_axis(), 0.3);
        let plane = Pose { r: Vec3::new(0.1, 0.2, 0.3), q };
        let n = q * Vec3::z();
        let capsule = Shape::Capsule { radius: 0.05, half_length: 0.2 };
        // Lying: the axis along the plane's x, centre 0.045 above it (depth 0.005 at both ends).
        let lying = Pose { r: plane.r + n * 0.045, q: q * Rotation::from_axis_angle(&Vec3::y_axis(), std::f64::consts::FRAC_PI_2) };
        let mut out = Vec::new();
        contacts(&Shape::Plane, &plane, &capsule, &lying, &mut out);
        assert_eq!(out.len(), 2);
        for (i, c) in out.iter().enumerate() {
            assert_eq!(c.id, i as u32);
            assert!((c.separation + 0.005).abs() < 1e-15);
            assert!((c.normal_ab_w - n).norm() < 1e-15);
        }
        assert!(((out[0].p_b_w - out[1].p_b_w).norm() - 0.4).abs() < 1e-14);
        // Standing on its -z end: that end 0.005 deep; the top end's rim at the height of its
        // centre, 0.4 higher than the bottom end's centre.
        let standing = Pose { r: plane.r + n * 0.245, q };
        out.clear();
        contacts(&Shape::Plane, &plane, &capsule, &standing, &mut out);
        assert!((out[0].separation + 0.005).abs() < 1e-15);
        assert!((out[1].separation - 0.445).abs() < 1e-15);
        // Tilted by a from the normal: the lower end sphere's bottom at h_0 - r, the upper end's
        // rim at h_1 - r sin(a).
        let a = 0.4;
        let tilted = Pose { r: plane.r + n * 0.2, q: q * Rotation::from_axis_angle(&Vec3::x_axis(), a) };
        out.clear();
        contacts(&Shape::Plane, &plane, &capsule, &tilted, &mut out);
        assert!((out[0].separation - (0.2 - 0.2 * a.cos() - 0.05)).abs() < 1e-15);
        assert!((out[1].separation - (0.2 + 0.2 * a.cos() - 0.05 * a.sin())).abs() < 1e-15);
        for c in &out {
            assert!(((c.p_b_w - c.p_a_w).dot(&n) - c.separation).abs() < 1e-15);
        }
    }
}
