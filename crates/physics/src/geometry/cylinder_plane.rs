//! Plane (A) against cylinder (B): four rim points on each end circle, each a point-plane contact.
//!
//! For an end circle with centre e, unit axis a and radius r, against the outward normal n:
//! the lowest rim point along n is `e + r u` with `u = -(n - (n · a) a) / |n - (n · a) a|`; the
//! others are `e + r v`, `e - r u`, `e - r v` with `v = a × u` (+90, +180, +270 degrees about a).
//! The deepest point of a cylinder against a half-space is always the lowest rim point of one
//! end (the support point along -n), so the depth is exact. Ids: 0 and 1 are the lowest points of
//! the -z and +z ends, 2 to 4 the -z end's +90/+180/+270 points, 5 to 7 the +z end's.
//!
//! - Lying on its side (a ⊥ n) at depth d: the two lowest points are at depth d and the +-90
//!   points at height r - d, so exactly two points carry k d each.
//! - Standing on an end (a ∥ n): u is undefined and the fixed direction `R x` of the cylinder's
//!   frame takes its place. The four points are then at the same depth and each carries the same
//!   force, whose resultant acts at the circle's centre whatever the pattern's rotation: the
//!   choice of u does not change the force or the torque, so the result is continuous through
//!   upright.
//! - Between the two (resting on a rim point), every point's depth is a continuous function of
//!   the pose and u turns continuously with the tilt, so rolling from lying to standing has no
//!   force jump.

use nalgebra::Vector3;

use super::{plane_sphere, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;
use super::frame::Frame;
use crate::real::Real;

/// Below this `|n - (n · a) a|` the circle counts as parallel to the plane.
const PARALLEL: f64 = 1e-12;

/// Canonical pair function: plane (base) and cylinder (follower).
pub(super) fn contacts(_: &Shape, plane: &Pose, follower: &Shape, pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::Cylinder { radius, half_length } = follower else {
        unreachable!("cylinder_plane is registered for a Cylinder follower only")
    };
    let n = plane.q * Vec3::z();
    for (id, point) in candidates(*radius, *half_length, pose, &n) {
        out.push(plane_sphere::contact(plane, &point, 0.0).with_id(id));
    }
}

/// Point ids used: four on each end circle.
pub(super) fn count(_: &Shape, _: &Shape) -> usize {
    8
}

/// The eight rim points of a cylinder at `pose` against the normal `n` (both in the parent frame
/// of `pose`), with their ids as in the module comment.
pub(super) fn candidates(radius: f64, half_length: f64, pose: &Pose, n: &Vec3) -> [(u32, Vec3); 8] {
    let axis = pose.q * Vec3::z();
    let reference = pose.q * Vec3::x();
    let [low_0, rest_0 @ ..] = rim_points(&(pose.r - axis * half_length), &axis, radius, &reference, n);
    let [low_1, rest_1 @ ..] = rim_points(&(pose.r + axis * half_length), &axis, radius, &reference, n);
    [(0, low_0), (1, low_1), (2, rest_0[0]), (3, rest_0[1]), (4, rest_0[2]), (5, rest_1[0]), (6, rest_1[1]), (7, rest_1[2])]
}

/// The lowest point of a circle along -n and the rim points at +90, +180 and +270 degrees from it
/// about the axis, as in the module comment; `reference` (a unit vector ⊥ axis) stands for the
/// lowest direction when the circle is parallel to the plane.
pub(super) fn rim_points(centre: &Vec3, axis: &Vec3, radius: f64, reference: &Vec3, n: &Vec3) -> [Vec3; 4] {
    let across = -(n - axis * n.dot(axis));
    let norm = across.norm();
    let u = if norm > PARALLEL { across / norm } else { *reference };
    let v = axis.cross(&u);
    [centre + u * radius, centre + v * radius, centre - u * radius, centre - v * radius]
}

/// Rim point `k` (0 the lowest along -n, then +90, +180, +270 degrees about the axis) of a
/// circle, as [`rim_points`], over any [`Real`].
pub(super) fn rim_point<S: Real>(centre: &Vector3<S>, axis: &Vector3<S>, radius: f64, reference: &Vector3<S>, n: &Vector3<S>, k: u32) -> Vector3<S> {
    let across = -(n - axis * n.dot(axis));
    let norm = S::norm(&across);
    let u = if norm.v() > 1e-12 { across / norm } else { *reference };
    let v = axis.cross(&u);
    let direction = match k {
        0 => u,
        1 => v,
        2 => -u,
        _ => -v,
    };
    centre + direction * S::c(radius)
}

/// The point `id` over any [`Real`] frames of the base (`base_frame`) and the follower
/// (`follower_frame`): with dual frames, its derivatives (`kinematics.rs`).
pub(super) fn point_over<S: Real>(_: &Shape, fb: &Frame<S>, follower: &Shape, ff: &Frame<S>, id: u32) -> ContactPoint<S> {
    let Shape::Cylinder { radius, half_length } = follower else { unreachable!("cylinder-plane with {:?}", follower.kind()) };
    plane_sphere::plane_point(fb, candidate_rim_point(ff, *radius, *half_length, &fb.axes[2], id))
}

/// The rim point of candidate `id` of a cylinder (`radius`, `half_length`, frame `ff`) against a
/// plane of unit normal `n`, over any [`Real`]: ids 0 and 1 are the lowest points of the -z and +z
/// ends, 2-4 and 5-7 the others ([`rim_point`] 1 to 3 of each end). The finite faces'
/// derivatives (kinematics_face.rs) take the same points.
pub(super) fn candidate_rim_point<S: Real>(ff: &Frame<S>, radius: f64, half_length: f64, n: &Vector3<S>, id: u32) -> Vector3<S> {
    let (end, k) = match id {
        0 => (-1.0, 0),
        1 => (1.0, 0),
        2..=4 => (-1.0, id - 1),
        _ => (1.0, id - 4),
    };
    let centre = ff.r + ff.axes[2] * S::c(end * half_length);
    rim_point(&centre, &ff.axes[2], radius, &ff.axes[0], n, k)
}
