//! The inside of a box (base: a container, `geometry_X.inside`) against what lies in it (follower:
//! a Point, Sphere, Capsule, Cylinder, Box, ConvexHull or PointCloud).
//!
//! The container's cavity is the intersection of the six half-spaces behind its faces, so its
//! wall is six flat walls: face f (f = 2 k + j for the axis k = x, y, z and j = 0 for the -k face,
//! 1 for the +k face) is the plane through the face's centre whose normal points into the cavity.
//! The follower meets each face as it meets a plane (the plane pairs' closed forms: a ball's
//! `separation = h_k - s y_k - r`, with y the centre in the container's frame and s = -1, +1 the
//! face's side; a capsule's two ends, a cylinder's rim points), and a box, a hull or a cloud by
//! their vertices (`cavity::vertices`). A box resting on the container's floor therefore carries
//! its weight on its four bottom corners at the plane pair's depth, and a ball in a corner of the
//! container touches the two or three faces at once, each with its own point.
//!
//! Ids: face f's points take `f * n .. (f + 1) * n`, with n the follower's ids against one plane
//! (`cavity::flat_wall_count`). Every face reports at least its closest point, so the separation
//! is known while the follower floats clear of every wall.

use super::{cavity, ContactPoint};
use crate::math::{Pose, Rotation, Vec3};
use crate::shape::Shape;

/// The six walls of a container at `pose`: plane poses whose +z points into the cavity, in the
/// face order of the module comment.
fn walls(half_extents: &Vec3, pose: &Pose) -> [Pose; 6] {
    use std::f64::consts::FRAC_PI_2;
    std::array::from_fn(|f| {
        let (k, outward) = (f / 2, if f % 2 == 0 { -1.0 } else { 1.0 });
        // A turn taking z to -outward e_k (into the cavity).
        let turn = match (k, f % 2) {
            (0, 0) => Rotation::from_axis_angle(&Vec3::y_axis(), FRAC_PI_2),
            (0, _) => Rotation::from_axis_angle(&Vec3::y_axis(), -FRAC_PI_2),
            (1, 0) => Rotation::from_axis_angle(&Vec3::x_axis(), -FRAC_PI_2),
            (1, _) => Rotation::from_axis_angle(&Vec3::x_axis(), FRAC_PI_2),
            (_, 0) => Rotation::identity(),
            _ => Rotation::from_axis_angle(&Vec3::x_axis(), std::f64::consts::PI),
        };
        let mut centre = Vec3::zeros();
        centre[k] = outward * half_extents[k];
        Pose { r: pose.transform_point(&centre), q: pose.q * turn }
    })
}

/// Canonical pair function: an inside box (base) and any follower it offers.
pub(super) fn contacts(container: &Shape, pose: &Pose, follower: &Shape, follower_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::Box { half_extents } = container else { unreachable!("inside_box called with {container:?}") };
    let n = cavity::flat_wall_count(follower) as u32;
    for (f, wall) in walls(half_extents, pose).iter().enumerate() {
        cavity::flat_wall(wall, follower, follower_pose, f as u32 * n, out);
    }
}

/// Six faces' worth of the follower's ids against one plane.
pub(super) fn count(_: &Shape, follower: &Shape) -> usize {
    6 * cavity::flat_wall_count(follower)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::shape::PointCloud;

    fn container_pose() -> Pose {
        Pose { r: Vec3::new(0.3, -0.2, 0.1), q: Rotation::from_scaled_axis(Vec3::new(1.0, 2.0, -0.5).normalize() * 0.7) }
    }

    #[test]
    fn each_wall_sits_on_its_face_with_its_normal_into_the_cavity() {
        let h = Vec3::new(0.3, 0.2, 0.1);
        let pose = container_pose();
        for (f, wall) in walls(&h, &pose).iter().enumerate() {
            let (k, outward) = (f / 2, if f % 2 == 0 { -1.0 } else { 1.0 });
            let mut e = Vec3::zeros();
            e[k] = 1.0;
            let normal = wall.q * Vec3::z();
            assert!((normal + pose.q * e * outward).norm() < 1e-15, "face {f}: {normal}");
            assert!((wall.r - pose.transform_point(&(e * outward * h[k]))).norm() < 1e-15);
        }
    }

    #[test]
    fn a_ball_in_a_corner_presses_into_three_faces_each_at_its_closed_form_depth() {
        let h = Vec3::new(0.3, 0.2, 0.1);
        let pose = container_pose();
        let container = Shape::Box { half_extents: h };
        // A ball of radius 0.05 centred 0.04 from the +x face, 0.045 from the -y face and 0.03
        // from the -z face.
        let y = Vec3::new(0.3 - 0.04, -0.2 + 0.045, -0.1 + 0.03);
        let centre = Pose { r: pose.transform_point(&y), q: Rotation::identity() };
        let mut out = Vec::new();
        contacts(&container, &pose, &Shape::Sphere { radius: 0.05 }, &centre, &mut out);
        assert_eq!(out.len(), 6);
        let expected = [0.3 + y.x - 0.05, 0.04 - 0.05, 0.045 - 0.05, 0.2 - y.y - 0.05, 0.03 - 0.05, 0.1 - y.z - 0.05];
        for (f, c) in out.iter().enumerate() {
            assert_eq!(c.id, f as u32);
            assert!((c.separation - expected[f]).abs() < 1e-14, "face {f}: {} against {}", c.separation, expected[f]);
            assert!(((c.p_b_w - c.p_a_w).dot(&c.normal_ab_w) - c.separation).abs() < 1e-14);
        }
        assert_eq!(out.iter().filter(|c| c.separation < 0.0).count(), 3, "the +x, -y and -z faces");
        assert_eq!(count(&container, &Shape::Sphere { radius: 0.05 }), 6);
    }

    #[test]
    fn a_box_resting_on_the_floor_presses_its_four_bottom_corners_in_by_the_same_depth() {
        let container = Shape::Box { half_extents: Vec3::new(0.5, 0.4, 0.3) };
        let pose = Pose { r: Vec3::new(0.1, 0.2, -0.3), q: Rotation::identity() };
        let part = Shape::Box { half_extents: Vec3::new(0.1, 0.05, 0.02) };
        let depth = 1e-4;
        let part_pose = Pose { r: pose.r + Vec3::new(0.05, -0.1, -0.3 + 0.02 - depth), q: Rotation::identity() };
        let mut out = Vec::new();
        contacts(&container, &pose, &part, &part_pose, &mut out);
        let touching: Vec<_> = out.iter().filter(|c| c.separation <= 0.0).collect();
        assert_eq!(touching.len(), 4);
        for c in touching {
            assert!((c.separation + depth).abs() < 1e-15, "{}", c.separation);
            assert!((c.normal_ab_w - Vec3::z()).norm() < 1e-15);
            assert!((4 * 8..5 * 8).contains(&c.id), "the -z face's ids: {}", c.id);
        }
        // The other faces report their closest corner: one point each.
        assert_eq!(out.len(), 4 + 5);
        assert_eq!(count(&container, &part), 48);
    }

    #[test]
    fn a_cloud_against_the_walls_reports_its_points_beyond_them() {
        let container = Shape::Box { half_extents: Vec3::new(0.5, 0.5, 0.5) };
        let cloud = Shape::PointCloud(Arc::new(PointCloud { points: vec![Vec3::new(0.52, 0.0, 0.0), Vec3::zeros(), Vec3::new(0.0, -0.49, -0.51)] }));
        let mut out = Vec::new();
        contacts(&container, &Pose::identity(), &cloud, &Pose::identity(), &mut out);
        // +x face (f = 1): point 0 at -0.02; -y face (f = 2): point 2's 0.01 clear, the closest;
        // -z face (f = 4): point 2 at -0.01.
        let find = |id: u32| out.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("no id {id} in {out:?}"));
        assert!((find(3).separation + 0.02).abs() < 1e-15);
        assert!((find(2 * 3 + 2).separation - 0.01).abs() < 1e-15);
        assert!((find(4 * 3 + 2).separation + 0.01).abs() < 1e-15);
        assert_eq!(out.len(), 6);
    }
}
