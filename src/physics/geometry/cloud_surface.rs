//! Any shape with a surface query (base) against a point cloud (follower): one contact point per
//! cloud point, with the point's index as its id.
//!
//! Cloud point i at `p_i` (in W) gives the base's nearest surface point `s_i`, outward normal `n_i`
//! and signed distance `d_i` (`distance::to_surface`); the contact has witnesses `s_i` on A and
//! `p_i` on B, normal `n_i` and separation `d_i`. Every point is pushed, apart or not: the block's
//! separation is then the smallest `d_i` and `contact.point[1..8]` shows the first eight points of
//! the file, in file order (as Simscape orders them), whether they touch or not. Points never
//! interact with one another, so the cloud carries exactly the sum of its points' forces.
//!
//! Why every point and not only the penetrating ones: ids are the file's indices, so the per-point
//! state of the stateful laws and the per-point outputs stay attached to the same point whatever
//! the others do, and the work per point is the one surface query (no search, no allocation once
//! the caller's vector has grown to the cloud's size).

use super::distance::to_surface;
use super::ContactPoint;
use crate::physics::math::Pose;
use crate::physics::shape::Shape;

/// Canonical pair function: a shape with a surface (base) and a point cloud (follower).
pub(super) fn contacts(base: &Shape, base_pose: &Pose, cloud: &Shape, cloud_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::PointCloud(cloud) = cloud else {
        return;
    };
    out.reserve(cloud.points.len());
    for (id, p) in cloud.points.iter().enumerate() {
        let p_w = cloud_pose.transform_point(p);
        let Some(surface) = to_surface(base, base_pose, &p_w) else {
            return;
        };
        let mut point = ContactPoint::new(surface.point_w, p_w, surface.normal_w).with_id(id as u32);
        // Exact, rather than re-derived from the witnesses.
        point.separation = surface.distance;
        out.push(point);
    }
}

/// One id per cloud point.
pub(super) fn point_count(_: &Shape, cloud: &Shape) -> usize {
    match cloud {
        Shape::PointCloud(cloud) => cloud.points.len(),
        _ => 0,
    }
}
