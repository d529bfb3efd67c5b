//! Any shape with a surface query (base) against a point or a sphere (follower): the sphere's
//! centre is the query point; the separation is its signed distance minus the radius. Exact for
//! every shape whose `to_surface` is exact, convex or not.

use super::distance::to_surface;
use super::{sphere_radius, ContactPoint};
use crate::math::Pose;
use crate::shape::Shape;

/// Canonical pair function: a shape with a surface (base) and a sphere or point (follower).
pub(super) fn contacts(base: &Shape, base_pose: &Pose, follower: &Shape, centre: &Pose, out: &mut Vec<ContactPoint>) {
    let Some(surface) = to_surface(base, base_pose, &centre.r) else {
        return;
    };
    let radius = sphere_radius(follower);
    let n = surface.normal_w;
    let mut point = ContactPoint::new(surface.point_w, centre.r - n * radius, n);
    point.separation = surface.distance - radius;
    out.push(point);
}
