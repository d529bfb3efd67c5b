//! Plane (A) against box (B): the eight corners, each a point-plane contact.
//!
//! Corner i of a box with half extents h at pose (c, R) is `c + R (s_x h_x, s_y h_y, s_z h_z)`
//! with `s_x = -1 + 2 (i & 1)`, `s_y = -1 + (i & 2)`, `s_z = -1 + (i & 4) / 2`; its id is i. Every
//! corner is pushed, `separation_i = (corner_i - o) · n`, so the closest corner gives the
//! separation when apart, and a box resting flat at depth d carries its load on the four bottom
//! corners (zero net torque about its centre), on an edge on two, on a corner on one. The
//! deepest point of a box against a half-space is always a corner (a linear function over a
//! polytope is smallest at a vertex), so the depth is exact.

use super::{plane_sphere, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;
use super::frame::Frame;
use crate::real::Real;

/// Canonical pair function: plane (base) and box (follower).
pub(super) fn contacts(_: &Shape, plane: &Pose, follower: &Shape, pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::Box { half_extents } = follower else {
        unreachable!("box_plane is registered for a Box follower only")
    };
    for (id, corner) in corners(half_extents, pose).iter().enumerate() {
        out.push(plane_sphere::contact(plane, corner, 0.0).with_id(id as u32));
    }
}

/// Point ids used: the eight corners.
pub(super) fn count(_: &Shape, _: &Shape) -> usize {
    8
}

/// The eight corners of a box in the parent frame of `pose`, corner i as in the module comment.
pub(super) fn corners(half_extents: &Vec3, pose: &Pose) -> [Vec3; 8] {
    std::array::from_fn(|i| {
        let sign = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
        pose.transform_point(&Vec3::new(sign(1) * half_extents.x, sign(2) * half_extents.y, sign(4) * half_extents.z))
    })
}

/// The twelve edges of the box, as pairs of corner indices (corners differing in one bit).
pub(super) const EDGES: [(usize, usize); 12] =
    [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)];

/// Corner `i` of a box of half extents `h` (the numbering of [`corners`]).
pub(super) fn corner(i: u32, h: &Vec3) -> Vec3 {
    let sign = |bit: u32| if i & bit == 0 { -1.0 } else { 1.0 };
    Vec3::new(sign(1) * h.x, sign(2) * h.y, sign(4) * h.z)
}

/// The point `id` over any [`Real`] frames of the base (`base_frame`) and the follower
/// (`follower_frame`): with dual frames, its derivatives (`kinematics.rs`).
pub(super) fn point_over<S: Real>(_: &Shape, plane: &Frame<S>, follower: &Shape, ff: &Frame<S>, id: u32) -> ContactPoint<S> {
    let Shape::Box { half_extents } = follower else { unreachable!("box-plane with {:?}", follower.kind()) };
    plane_sphere::plane_point(plane, ff.fixed_point(&corner(id, half_extents)))
}
