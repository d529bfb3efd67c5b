//! The inside of a sphere (base: a spherical socket or container, `geometry_X.inside`) against a
//! point, a sphere or a capsule (follower) in its cavity.
//!
//! The base's solid is everything outside the sphere of radius R about its centre c. A ball of
//! radius r centred at x, at distance `rho = |x - c|` from c, comes nearest to the wall along the
//! radial direction `e = (x - c) / rho`: its outermost point `p_b = x + r e` faces the wall point
//! `p_a = c + R e`. The normal from the wall (A) into the cavity (toward B) is `n = -e`, and
//! `separation = R - rho - r`, so a ball pressed into the wall penetrates by `rho + r - R`.
//!
//! A capsule's distance from c is convex along its segment, so its deepest points are at the
//! segment's ends: one point per end (ids 0 and 1), each the contact of that end's ball. Lying in
//! the bottom of the socket both ends share the load; tilted, the lower end carries more. A
//! capsule of zero length is a ball: one point (id 0).
//!
//! A box, a hull or a point cloud meets the wall with its vertices (`cavity::vertices`: those
//! beyond the wall, or the closest one), each a ball of radius 0, exact since `|x - c|` is convex.
//!
//! A cylinder's distance from c is largest on one of its two rim circles, at the rim point whose
//! direction from the rim's centre m is the part of `m - c` across the axis: `m + r u`. Each rim
//! gives that point and the ones at +90, +180 and +270 degrees about the axis (the plane-cylinder
//! pair's pattern, ids 0 and 1 the farthest points of the -z and +z rims, 2 to 4 and 5 to 7 the
//! others). With c on the axis every rim point is equally far and the cylinder's x axis stands for
//! u: the four points then press equally along lines through c, so their wrench about c does not
//! depend on the pattern's turn and the force stays continuous through that pose.
//!
//! A ball at the very centre has no radial direction; W's -z is taken (n = +z) so that the result
//! stays finite (it is then at the largest clearance, R - r, from every wall point).

use super::{cavity, cylinder_plane, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;

/// The radius of the cavity of an inside sphere.
fn cavity_radius(shape: &Shape) -> f64 {
    match shape {
        Shape::Sphere { radius } => *radius,
        other => unreachable!("inside_sphere called with {other:?}"),
    }
}

/// Canonical pair function: an inside sphere (base) and a point or sphere (follower).
pub(super) fn ball_contacts(cavity: &Shape, pose: &Pose, ball: &Shape, centre: &Pose, out: &mut Vec<ContactPoint>) {
    out.push(contact(&pose.r, cavity_radius(cavity), &centre.r, super::sphere_radius(ball)));
}

/// Canonical pair function: an inside sphere (base) and a capsule (follower): its two end balls.
pub(super) fn capsule_contacts(cavity: &Shape, pose: &Pose, capsule: &Shape, capsule_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::Capsule { radius, half_length } = *capsule else { unreachable!("inside_sphere capsule with {capsule:?}") };
    let big = cavity_radius(cavity);
    if half_length == 0.0 {
        out.push(contact(&pose.r, big, &capsule_pose.r, radius));
        return;
    }
    let u = capsule_pose.q * Vec3::z();
    for (id, end) in [(0, -half_length), (1, half_length)] {
        out.push(contact(&pose.r, big, &(capsule_pose.r + u * end), radius).with_id(id));
    }
}

/// Canonical pair function: an inside sphere (base) and a box, a hull or a point cloud (follower):
/// its vertices.
pub(super) fn vertex_contacts(cavity_shape: &Shape, pose: &Pose, follower: &Shape, follower_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let big = cavity_radius(cavity_shape);
    cavity::vertices(follower, follower_pose, 0, out, |x| Some(contact(&pose.r, big, x, 0.0)));
}

/// The vertex count of a box, a hull or a cloud.
pub(super) fn vertex_count(_: &Shape, follower: &Shape) -> usize {
    cavity::vertex_count(follower)
}

/// Canonical pair function: an inside sphere (base) and a cylinder (follower): four points on
/// each rim, as in the module comment.
pub(super) fn cylinder_contacts(cavity_shape: &Shape, pose: &Pose, cylinder: &Shape, cylinder_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::Cylinder { radius, half_length } = *cylinder else { unreachable!("inside_sphere cylinder with {cylinder:?}") };
    let big = cavity_radius(cavity_shape);
    let axis = cylinder_pose.q * Vec3::z();
    let reference = cylinder_pose.q * Vec3::x();
    let mut rims = [[Vec3::zeros(); 4]; 2];
    for (rim, end) in rims.iter_mut().zip([-half_length, half_length]) {
        let centre = cylinder_pose.r + axis * end;
        // `rim_points` takes the lowest point along -n: here the farthest from c.
        *rim = cylinder_plane::rim_points(&centre, &axis, radius, &reference, &(pose.r - centre));
    }
    let ids = [(0, rims[0][0]), (1, rims[1][0]), (2, rims[0][1]), (3, rims[0][2]), (4, rims[0][3]), (5, rims[1][1]), (6, rims[1][2]), (7, rims[1][3])];
    for (id, x) in ids {
        out.push(contact(&pose.r, big, &x, 0.0).with_id(id));
    }
}

/// Four points on each rim of a cylinder.
pub(super) fn cylinder_count(_: &Shape, _: &Shape) -> usize {
    8
}

/// Two point ids, one per capsule end; one for a capsule of zero length.
pub(super) fn capsule_count(_: &Shape, capsule: &Shape) -> usize {
    match capsule {
        Shape::Capsule { half_length, .. } if *half_length == 0.0 => 1,
        _ => 2,
    }
}

/// A ball of radius `radius` centred at `x` inside a spherical cavity of radius `cavity` centred
/// at `centre`: the wall's witness first, the normal from the wall into the cavity.
pub(super) fn contact(centre: &Vec3, cavity: f64, x: &Vec3, radius: f64) -> ContactPoint {
    let offset = x - centre;
    let rho = offset.norm();
    let e = if rho > 1e-300 { offset / rho } else { -Vec3::z() };
    let mut point = ContactPoint::new(centre + e * cavity, x + e * radius, -e);
    // Exact, rather than re-derived from the witnesses.
    point.separation = cavity - rho - radius;
    point
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;

    #[test]
    fn a_ball_resting_in_a_socket_penetrates_by_d_plus_r_minus_big_r_with_the_normal_into_the_cavity() {
        // A socket of radius 0.3 at (0.1, -0.2, 0.5); a ball of radius 0.1 whose centre is 0.205
        // below the socket's centre: its bottom is 0.005 below the wall's lowest point.
        let centre = Vec3::new(0.1, -0.2, 0.5);
        let x = centre - Vec3::z() * 0.205;
        let c = contact(&centre, 0.3, &x, 0.1);
        assert!((c.separation + 0.005).abs() < 1e-15, "{}", c.separation);
        assert!((c.normal_ab_w - Vec3::z()).norm() < 1e-15, "the wall pushes the ball up: {}", c.normal_ab_w);
        assert!((c.p_a_w - (centre - Vec3::z() * 0.3)).norm() < 1e-15);
        assert!((c.p_b_w - (x - Vec3::z() * 0.1)).norm() < 1e-15);
        assert!(((c.p_b_w - c.p_a_w).dot(&c.normal_ab_w) - c.separation).abs() < 1e-15);
        // With clearance: the same ball 0.05 off the centre sideways is 0.15 from the wall.
        let clear = contact(&centre, 0.3, &(centre + Vec3::x() * 0.05), 0.1);
        assert!((clear.separation - 0.15).abs() < 1e-15);
        assert!((clear.normal_ab_w + Vec3::x()).norm() < 1e-15);
    }

    #[test]
    fn a_point_touches_the_wall_where_its_distance_from_the_centre_is_the_radius() {
        let c = contact(&Vec3::zeros(), 0.2, &Vec3::new(0.0, 0.12, 0.16), 0.0);
        assert!(c.separation.abs() < 1e-15);
        assert!((c.p_a_w - c.p_b_w).norm() < 1e-15);
    }

    #[test]
    fn a_capsule_touches_with_its_end_balls_and_lying_level_both_carry_equally() {
        let socket = Shape::Sphere { radius: 0.5 };
        let capsule = Shape::Capsule { radius: 0.1, half_length: 0.2 };
        let pose = Pose { r: Vec3::new(0.3, 0.0, 0.0), q: Rotation::identity() };
        // Lying level (axis along x), its ends at (+-0.2, 0, -h) from the centre: each end ball
        // reaches sqrt(0.04 + h^2) + 0.1 from it.
        let h = 0.41;
        let lying = Pose { r: pose.r - Vec3::z() * h, q: Rotation::from_axis_angle(&Vec3::y_axis(), std::f64::consts::FRAC_PI_2) };
        let mut out = Vec::new();
        capsule_contacts(&socket, &pose, &capsule, &lying, &mut out);
        assert_eq!(out.len(), 2);
        let depth = (0.04 + h * h).sqrt() + 0.1 - 0.5;
        for (i, c) in out.iter().enumerate() {
            assert_eq!(c.id, i as u32);
            assert!((c.separation + depth).abs() < 1e-15, "{} against {}", c.separation, -depth);
            assert!(c.normal_ab_w.z > 0.0, "the wall holds the capsule up");
        }
        // Mirror-symmetric about the vertical: the horizontal pushes cancel.
        assert!((out[0].normal_ab_w.x + out[1].normal_ab_w.x).abs() < 1e-15);
        assert_eq!(capsule_count(&socket, &capsule), 2);
        assert_eq!(capsule_count(&socket, &Shape::Capsule { radius: 0.1, half_length: 0.0 }), 1);
    }

    #[test]
    fn a_box_touches_with_the_corners_beyond_the_wall_and_a_cylinder_with_its_farthest_rim_points() {
        let socket = Shape::Sphere { radius: 0.5 };
        let pose = Pose { r: Vec3::new(0.1, 0.2, 0.3), q: Rotation::identity() };
        // A cube of half side 0.2 whose four bottom corners are at sqrt(0.08 + z^2) from the centre.
        let part = Shape::Box { half_extents: Vec3::new(0.2, 0.2, 0.2) };
        let z = 0.42;
        let mut out = Vec::new();
        vertex_contacts(&socket, &pose, &part, &Pose { r: pose.r - Vec3::z() * (z - 0.2), q: Rotation::identity() }, &mut out);
        let depth = (0.08 + z * z).sqrt() - 0.5;
        assert_eq!(out.len(), 4);
        for c in &out {
            assert!(c.id & 4 == 0, "a bottom corner: {}", c.id);
            assert!((c.separation + depth).abs() < 1e-15);
        }
        // Lifted clear: the one closest corner gives the separation.
        out.clear();
        vertex_contacts(&socket, &pose, &part, &Pose { r: pose.r + Vec3::x() * 0.01, q: Rotation::identity() }, &mut out);
        assert_eq!(out.len(), 1);
        assert!((out[0].separation - (0.5 - (0.21f64.powi(2) + 0.08).sqrt())).abs() < 1e-15);

        // A cylinder of radius 0.1, half length 0.2, its axis along x, 0.3 below the centre: each
        // rim's farthest point is straight down from the rim's centre, at sqrt(0.04 + 0.16).
        let cylinder = Shape::Cylinder { radius: 0.1, half_length: 0.2 };
        let lying = Pose { r: pose.r - Vec3::z() * 0.3, q: Rotation::from_axis_angle(&Vec3::y_axis(), std::f64::consts::FRAC_PI_2) };
        out.clear();
        cylinder_contacts(&socket, &pose, &cylinder, &lying, &mut out);
        assert_eq!(out.len(), 8);
        for c in &out[..2] {
            assert!((c.separation - (0.5 - 0.2f64.sqrt())).abs() < 1e-15, "{}", c.separation);
            assert!(((c.p_b_w - pose.r).z + 0.4).abs() < 1e-15);
        }
        assert!(out[2..].iter().all(|c| c.separation > out[0].separation));
    }
}
