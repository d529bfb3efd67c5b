//! Finite face (A: Rectangle or Disk) against cylinder (B): the eight rim points of
//! `cylinder_plane` (the lowest point of each end circle and the points at +90/+180/+270 degrees
//! from it, against the face's normal) against the face's plane, moved onto the outline when
//! beyond it, weighted by the covered fraction of the cylinder's cut (see `finite_face`).
//!
//! F = the projection of `cylinder ∩ {z <= 0}` (base frame), with the cylinder taken as the
//! prism over the regular 64-gon circumscribed about its cross-section (for the area only; the rim
//! points are exact). The prism contains the cylinder, so F has a positive area whenever a rim
//! point penetrates. Standing on an end, F is that end's 64-gon: w is the covered fraction of the
//! end face. Lying, F is a strip along the lowest line: w is the covered fraction of its length.
//!
//! Near upright the rim pattern turns with the tilt direction. Tipping straight through upright
//! maps it onto itself (u -> -u, ids swapped), so the wrench stays continuous. Its rotation does
//! change where the points beyond an edge land, though: for an upright cylinder straddling an
//! edge whose tilt direction swings around the vertical (or that is exactly upright, where u is
//! the frame's x axis), the total force is unchanged but the centre of pressure moves within the
//! covered part (by about 0.1 r for a cylinder centred on a straight edge). A cylinder whose rim
//! lies over the face has no moved point and does not see this.

use nalgebra::Matrix2;

use super::cylinder_plane::candidates;
use super::finite_face::{polytope_footprint, push_points, relative, Candidate, Outline, CIRCLE_SIDES};
use super::polygon::P2;
use super::ContactPoint;
use crate::math::{Pose, Vec3};
use crate::shape::Shape;

/// Canonical pair function: Rectangle or Disk (base) and cylinder (follower).
pub(super) fn contacts(base: &Shape, base_pose: &Pose, follower: &Shape, pose: &Pose, out: &mut Vec<ContactPoint>) {
    let (Some(outline), Shape::Cylinder { radius, half_length }) = (Outline::of(base), follower) else {
        unreachable!("face_cylinder is registered for a Rectangle or Disk base and a Cylinder follower only")
    };
    let local = relative(base_pose, pose);
    // The circumscribed prism (it contains the cylinder, so its cut is never empty while a rim
    // point penetrates): vertex k on the -z end, CIRCLE_SIDES + k on the +z end.
    let corner = radius / (std::f64::consts::PI / CIRCLE_SIDES as f64).cos();
    let vertices: [Vec3; 2 * CIRCLE_SIDES] = std::array::from_fn(|i| {
        let angle = std::f64::consts::TAU * (i % CIRCLE_SIDES) as f64 / CIRCLE_SIDES as f64;
        let z = if i < CIRCLE_SIDES { -half_length } else { *half_length };
        local.transform_point(&Vec3::new(corner * angle.cos(), corner * angle.sin(), z))
    });
    let edges = (0..CIRCLE_SIDES).flat_map(|k| {
        let next = (k + 1) % CIRCLE_SIDES;
        [(k, next), (CIRCLE_SIDES + k, CIRCLE_SIDES + next), (k, CIRCLE_SIDES + k)]
    });
    let footprint = polytope_footprint(&vertices, edges);
    let weight = outline.covered_fraction(&footprint, &P2::zeros(), &Matrix2::identity());
    let points = candidates(*radius, *half_length, &local, &Vec3::z());
    push_points(&outline, base_pose, points.iter().map(|(id, c)| Candidate { id: *id, centre: *c, radius: 0.0 }), weight, out);
}

/// Point ids used: four rim points on each end.
pub(super) fn count(_: &Shape, _: &Shape) -> usize {
    8
}
