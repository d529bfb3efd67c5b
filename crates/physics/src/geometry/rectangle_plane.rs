//! Plane (A) against rectangle (B): the four corners, each a point-plane contact.
//!
//! Corner i of a rectangle with half sizes (h_x, h_y) at pose (c, R) is
//! `c + R (s_x h_x, s_y h_y, 0)` with `s_x = -1 + 2 (i & 1)`, `s_y = -1 + (i & 2)`; its id is i.
//! `separation_i = (corner_i - o) · n`; the closest corner gives the separation when apart. A
//! rectangle lying flat at depth d carries k d on each corner, its resultant at its centre.

use super::{plane_sphere, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;
use super::frame::Frame;
use crate::real::Real;
use super::box_plane;

/// Canonical pair function: plane (base) and rectangle (follower).
pub(super) fn contacts(_: &Shape, plane: &Pose, follower: &Shape, pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::Rectangle { half_x, half_y } = follower else {
        unreachable!("rectangle_plane is registered for a Rectangle follower only")
    };
    for (id, corner) in corners(*half_x, *half_y, pose).iter().enumerate() {
        out.push(plane_sphere::contact(plane, corner, 0.0).with_id(id as u32));
    }
}

/// Point ids used: the four corners.
pub(super) fn count(_: &Shape, _: &Shape) -> usize {
    4
}

/// The four corners of a rectangle in the parent frame of `pose`, corner i as in the module
/// comment.
pub(super) fn corners(half_x: f64, half_y: f64, pose: &Pose) -> [Vec3; 4] {
    std::array::from_fn(|i| {
        let sign = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
        pose.transform_point(&Vec3::new(sign(1) * half_x, sign(2) * half_y, 0.0))
    })
}

/// The point `id` over any [`Real`] frames of the base (`base_frame`) and the follower
/// (`follower_frame`): with dual frames, its derivatives (`kinematics.rs`).
pub(super) fn point_over<S: Real>(_: &Shape, plane: &Frame<S>, follower: &Shape, ff: &Frame<S>, id: u32) -> ContactPoint<S> {
    let Shape::Rectangle { half_x, half_y } = follower else { unreachable!("rectangle-plane with {:?}", follower.kind()) };
    plane_sphere::plane_point(plane, ff.fixed_point(&box_plane::corner(id, &Vec3::new(*half_x, *half_y, 0.0))))
}
