//! Plane (A) against disk (B): four rim points, each a point-plane contact.
//!
//! As a cylinder's end circle (see `cylinder_plane`): with the disk's normal a, the lowest rim
//! point along n is `c + r u`, `u = -(n - (n · a) a) / |n - (n · a) a|`, then `c + r v`,
//! `c - r u`, `c - r v` with `v = a × u`, ids 0 to 3. Parallel to the plane, u is the disk
//! frame's x axis; the four points then carry equal forces whose resultant acts at the centre
//! whatever the pattern's rotation, so the result is continuous through flat. The lowest rim
//! point is the deepest point of the disk, so the depth is exact.

use super::cylinder_plane::{rim_point, rim_points};
use super::{plane_sphere, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;
use super::frame::Frame;
use crate::real::Real;

/// Canonical pair function: plane (base) and disk (follower).
pub(super) fn contacts(_: &Shape, plane: &Pose, follower: &Shape, pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::Disk { radius } = follower else {
        unreachable!("disk_plane is registered for a Disk follower only")
    };
    let n = plane.q * Vec3::z();
    for (id, point) in candidates(*radius, pose, &n).iter().enumerate() {
        out.push(plane_sphere::contact(plane, point, 0.0).with_id(id as u32));
    }
}

/// Point ids used: four rim points.
pub(super) fn count(_: &Shape, _: &Shape) -> usize {
    4
}

/// The four rim points of a disk at `pose` against the normal `n`, in id order.
pub(super) fn candidates(radius: f64, pose: &Pose, n: &Vec3) -> [Vec3; 4] {
    rim_points(&pose.r, &(pose.q * Vec3::z()), radius, &(pose.q * Vec3::x()), n)
}

/// The point `id` over any [`Real`] frames of the base (`base_frame`) and the follower
/// (`follower_frame`): with dual frames, its derivatives (`kinematics.rs`).
pub(super) fn point_over<S: Real>(_: &Shape, fb: &Frame<S>, follower: &Shape, ff: &Frame<S>, id: u32) -> ContactPoint<S> {
    let Shape::Disk { radius } = follower else { unreachable!("disk-plane with {:?}", follower.kind()) };
    plane_sphere::plane_point(fb, rim_point(&ff.r, &ff.axes[2], *radius, &ff.axes[0], &fb.axes[2], id))
}
