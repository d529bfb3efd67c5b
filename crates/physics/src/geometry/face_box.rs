//! Finite face (A: Rectangle or Disk) against box (B): the eight corners against the face's
//! plane, moved onto the outline when beyond it, weighted by the covered fraction of the box's cut
//! (see `finite_face` for the rules and `box_plane` for the corner ids).
//!
//! F = the projection of `box ∩ {z <= 0}` (base frame), the hull of the corners below the plane
//! and of the edges' crossings of it. Resting flat at depth d fully over the face: four corners,
//! k d each; overhanging an edge by the fraction 1 - w of its length: `4 k d w`, the outer
//! corners pushing at the edge.

use nalgebra::Matrix2;

use super::box_plane::{corners, EDGES};
use super::finite_face::{polytope_footprint, push_points, relative, Candidate, Outline};
use super::polygon::P2;
use super::ContactPoint;
use crate::math::Pose;
use crate::shape::Shape;

/// Canonical pair function: Rectangle or Disk (base) and box (follower).
pub(super) fn contacts(base: &Shape, base_pose: &Pose, follower: &Shape, pose: &Pose, out: &mut Vec<ContactPoint>) {
    let (Some(outline), Shape::Box { half_extents }) = (Outline::of(base), follower) else {
        unreachable!("face_box is registered for a Rectangle or Disk base and a Box follower only")
    };
    let corners = corners(half_extents, &relative(base_pose, pose));
    let footprint = polytope_footprint(&corners, EDGES.iter().copied());
    let weight = outline.covered_fraction(&footprint, &P2::zeros(), &Matrix2::identity());
    let candidates = corners.iter().enumerate().map(|(id, c)| Candidate { id: id as u32, centre: *c, radius: 0.0 });
    push_points(&outline, base_pose, candidates, weight, out);
}

/// Point ids used: the eight corners.
pub(super) fn count(_: &Shape, _: &Shape) -> usize {
    8
}
