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

use super::distance::local_surface;
use super::ContactPoint;
use crate::math::{Pose, Vec3};
use crate::shape::Shape;
use super::frame::Frame;
use crate::real::Real;
use super::surface_point;

type Matrix3 = nalgebra::Matrix3<f64>;

/// Canonical pair function: a shape with a surface (base) and a point cloud (follower).
pub(super) fn contacts(base: &Shape, base_pose: &Pose, cloud: &Shape, cloud_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::PointCloud(cloud) = cloud else {
        return;
    };
    let frames = Frames::new(base, base_pose, cloud_pose);
    out.reserve(cloud.points.len());
    for (id, p) in cloud.points.iter().enumerate() {
        let Some(point) = frames.contact(base, p, id as u32) else {
            return;
        };
        out.push(point);
    }
}

/// The two poses prepared once for many points: rotation matrices (a matrix maps a vector in
/// half the operations of a quaternion), and for a plane its normal in W.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frames {
    base_r: Vec3,
    base_m: Matrix3,
    cloud_r: Vec3,
    cloud_m: Matrix3,
    /// The base is a plane with this outward normal in W.
    plane_normal: Option<Vec3>,
}

impl Frames {
    pub(super) fn new(base: &Shape, base_pose: &Pose, cloud_pose: &Pose) -> Frames {
        let base_m = *base_pose.q.to_rotation_matrix().matrix();
        Frames {
            base_r: base_pose.r,
            base_m,
            cloud_r: cloud_pose.r,
            cloud_m: *cloud_pose.q.to_rotation_matrix().matrix(),
            plane_normal: matches!(base, Shape::Plane).then(|| base_m.column(2).into_owned()),
        }
    }

    /// The frames of a plane base as [`CloudOnPlane`] needs them; `None` for other bases.
    pub(super) fn on_plane<'a>(&self, points: &'a [Vec3], cloud_is_a: bool) -> Option<CloudOnPlane<'a>> {
        Some(CloudOnPlane { points, cloud_r: self.cloud_r, cloud_m: self.cloud_m, plane_r: self.base_r, normal: self.plane_normal?, cloud_is_a })
    }

    /// The separation of cloud point `p` from a plane base (exactly the one [`Frames::contact`]
    /// gives it), without the rest of its contact; `None` for other bases.
    #[inline]
    pub(super) fn plane_separation(&self, p: &Vec3) -> Option<f64> {
        let n = self.plane_normal?;
        let p_w = self.cloud_r + self.cloud_m * p;
        Some((p_w - self.base_r).dot(&n))
    }

    /// The contact of cloud point `p` (in the cloud's frame) with id `id`: the one surface query,
    /// with the witnesses `s` on the base and `p` on the cloud, the base's outward normal at `s`
    /// and the signed distance.
    #[inline]
    pub(super) fn contact(&self, base: &Shape, p: &Vec3, id: u32) -> Option<ContactPoint> {
        let p_w = self.cloud_r + self.cloud_m * p;
        let (point_w, normal_w, distance) = match self.plane_normal {
            // The plane through the base's origin: the height along its normal.
            Some(n) => {
                let height = (p_w - self.base_r).dot(&n);
                (p_w - n * height, n, height)
            }
            None => {
                let local = self.base_m.tr_mul(&(p_w - self.base_r));
                let (point, normal, distance) = local_surface(base, &local)?;
                (self.base_r + self.base_m * point, self.base_m * normal, distance)
            }
        };
        let mut point = ContactPoint::new(point_w, p_w, normal_w).with_id(id);
        // Exact, rather than re-derived from the witnesses.
        point.separation = distance;
        Some(point)
    }
}

/// A point cloud against a plane, prepared for many points: cloud point `p` (in the cloud's
/// frame) is at `p_w = cloud_r + cloud_m p` in W with separation `h = (p_w - plane_r) · normal`;
/// its contact has the witnesses `p_w - normal h` on the plane and `p_w` on the cloud, exactly as
/// `Frames::contact` computes them (the same operations in the same order).
#[derive(Clone, Copy, Debug)]
pub struct CloudOnPlane<'a> {
    pub points: &'a [Vec3],
    pub cloud_r: Vec3,
    pub cloud_m: Matrix3,
    pub plane_r: Vec3,
    /// The plane's outward normal in W.
    pub normal: Vec3,
    /// The cloud is body A (the normal from A toward B is then `-normal`).
    pub cloud_is_a: bool,
}

/// One id per cloud point.
pub(super) fn point_count(_: &Shape, cloud: &Shape) -> usize {
    match cloud {
        Shape::PointCloud(cloud) => cloud.points.len(),
        _ => 0,
    }
}

/// The point `id` over any [`Real`] frames of the base (`base_frame`) and the follower
/// (`follower_frame`): with dual frames, its derivatives (`kinematics.rs`).
pub(super) fn point_over<S: Real>(base: &Shape, fb: &Frame<S>, follower: &Shape, ff: &Frame<S>, id: u32) -> ContactPoint<S> {
    let Shape::PointCloud(cloud) = follower else { unreachable!("surface-cloud with {:?}", follower.kind()) };
    let p_w = ff.fixed_point(&cloud.points[id as usize]);
    let (s, n, distance) = surface_point::surface(base, fb, &p_w);
    let mut p = ContactPoint::new(s, p_w, n);
    p.separation = distance;
    p
}
