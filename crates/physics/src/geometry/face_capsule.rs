//! Finite face (A: Rectangle or Disk) against capsule (B): the lowest points of the two end
//! spheres (ids 0 for the -z end, 1 for the +z end) against the face's plane, moved onto the
//! outline when beyond it, weighted by the covered fraction of the capsule's cut (see
//! `finite_face`). Apart, each end sphere reports its distance to the face, `|c - q| - r` with q
//! the face's point closest to its centre c.
//!
//! F = the projection of `capsule ∩ {z <= 0}` (base frame): the capsule is the union of the
//! spheres of radius r about its axis points, and the part below the plane of a sphere whose
//! centre is at height h < r projects onto the disc of radius `sqrt(r^2 - max(h, 0)^2)` about the
//! centre's projection. F is taken as the hull of those discs at nine evenly spaced axis points
//! (32-gons). Lying, F is a strip along the axis: w is the covered fraction of its length;
//! standing, F is the disc under the lower sphere, whose radius shrinks to 0 with the depth, so
//! w still moves continuously while the force vanishes with the depth.

use nalgebra::Matrix2;

use super::finite_face::{push_points, relative, Candidate, Outline};
use super::polygon::{Points, P2};
use super::ContactPoint;
use crate::math::{Pose, Vec3};
use crate::shape::Shape;

/// Axis points whose sphere cuts make up the footprint.
const AXIS_SAMPLES: usize = 9;
/// Sides of the polygon standing for each sphere cut's disc.
const DISC_SIDES: usize = 32;

/// Canonical pair function: Rectangle or Disk (base) and capsule (follower).
pub(super) fn contacts(base: &Shape, base_pose: &Pose, follower: &Shape, pose: &Pose, out: &mut Vec<ContactPoint>) {
    let (Some(outline), Shape::Capsule { radius, half_length }) = (Outline::of(base), follower) else {
        unreachable!("face_capsule is registered for a Rectangle or Disk base and a Capsule follower only")
    };
    let local = relative(base_pose, pose);
    let axis = local.q * Vec3::z();
    let mut points = Points::new();
    for i in 0..AXIS_SAMPLES {
        let t = -1.0 + 2.0 * i as f64 / (AXIS_SAMPLES - 1) as f64;
        let centre = local.r + axis * (t * half_length);
        if centre.z < *radius {
            let disc = (radius * radius - centre.z.max(0.0).powi(2)).sqrt();
            for k in 0..DISC_SIDES {
                let angle = std::f64::consts::TAU * k as f64 / DISC_SIDES as f64;
                points.push(centre.xy() + P2::new(angle.cos(), angle.sin()) * disc);
            }
        }
    }
    let weight = outline.covered_fraction(&points.hull(), &P2::zeros(), &Matrix2::identity());
    let ends = [(0, local.r - axis * *half_length), (1, local.r + axis * *half_length)];
    push_points(&outline, base_pose, ends.into_iter().map(|(id, centre)| Candidate { id, centre, radius: *radius }), weight, out);
}

/// Point ids used: the two end spheres.
pub(super) fn count(_: &Shape, _: &Shape) -> usize {
    2
}
