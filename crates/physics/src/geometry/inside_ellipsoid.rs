//! The inside of an ellipsoid (base: an egg-shaped cavity, `geometry_X.inside`) against a point,
//! a sphere, a capsule, a box, a hull or a point cloud (follower) in it.
//!
//! The base's solid is everything outside the ellipsoid. A ball of radius r centred at x takes the
//! ellipsoid's closest surface point p to x (`ellipsoid::closest_point`: the 1-D root of Eberly's
//! function, exact to rounding inside and outside) with its outward normal m and the signed
//! distance d (negative inside): the ball's outermost point `p_b = x + r m` faces `p_a = p`, the
//! normal from the wall into the cavity is `n = -m`, and `separation = -d - r`. A ball at distance
//! r from the wall just touches it; in a spherical cavity this is the socket's `R - rho - r`.
//!
//! The signed distance of a convex set is convex, so a capsule's deepest points are at its end
//! balls (ids 0 and 1; one ball for a capsule of zero length), and a box's, a hull's or a cloud's
//! at its vertices (`cavity::vertices`).

use super::{cavity, ellipsoid, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;

/// A ball of radius `radius` centred at `x` (in W) against the wall of the ellipsoid cavity with
/// semi-axes `semi_axes` at `pose`: the wall's witness first.
fn ball(semi_axes: &Vec3, pose: &Pose, x: &Vec3, radius: f64) -> ContactPoint {
    let local = pose.q.inverse() * (x - pose.r);
    let (point, normal, distance) = ellipsoid::closest_point(semi_axes, &local);
    let m = pose.q * normal;
    let mut contact = ContactPoint::new(pose.transform_point(&point), x + m * radius, -m);
    // Exact, rather than re-derived from the witnesses.
    contact.separation = -distance - radius;
    contact
}

/// Canonical pair function: an inside ellipsoid (base) and any follower it offers.
pub(super) fn contacts(container: &Shape, pose: &Pose, follower: &Shape, follower_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::Ellipsoid { semi_axes } = container else { unreachable!("inside_ellipsoid called with {container:?}") };
    if cavity::is_vertex_set(follower) {
        cavity::vertices(follower, follower_pose, 0, out, |x| Some(ball(semi_axes, pose, x, 0.0)));
        return;
    }
    let (balls, n, radius) = cavity::balls(follower, follower_pose);
    for (id, x) in &balls[..n] {
        out.push(ball(semi_axes, pose, x, radius).with_id(*id));
    }
}

/// One id per ball or vertex.
pub(super) use cavity::vertex_or_ball_count as count;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;

    #[test]
    fn a_ball_on_an_axis_is_held_at_the_semi_axis_and_a_round_cavity_is_a_socket() {
        let container = Shape::Ellipsoid { semi_axes: Vec3::new(0.3, 0.2, 0.1) };
        let pose = Pose { r: Vec3::new(0.2, 0.1, -0.4), q: Rotation::from_axis_angle(&Vec3::z_axis(), 0.4) };
        // A ball of radius 0.02 on the cavity's z axis, 0.085 below the centre: 0.005 into the
        // wall at the bottom of the smallest axis (where the closest wall point is the pole).
        let mut out = Vec::new();
        contacts(&container, &pose, &Shape::Sphere { radius: 0.02 }, &Pose { r: pose.r - Vec3::z() * 0.085, q: Rotation::identity() }, &mut out);
        assert_eq!(out.len(), 1);
        assert!((out[0].separation + 0.005).abs() < 1e-15, "{}", out[0].separation);
        assert!((out[0].normal_ab_w - Vec3::z()).norm() < 1e-15);
        assert!((out[0].p_a_w - (pose.r - Vec3::z() * 0.1)).norm() < 1e-15);
        // A round cavity is the socket.
        let round = Shape::Ellipsoid { semi_axes: Vec3::new(0.2, 0.2, 0.2) };
        let x = pose.r + Vec3::new(0.1, -0.05, 0.08);
        out.clear();
        contacts(&round, &pose, &Shape::Sphere { radius: 0.07 }, &Pose { r: x, q: Rotation::identity() }, &mut out);
        let socket = super::super::inside_sphere::contact(&pose.r, 0.2, &x, 0.07);
        assert!((out[0].separation - socket.separation).abs() < 1e-15);
        assert!((out[0].normal_ab_w - socket.normal_ab_w).norm() < 1e-14);
    }

    #[test]
    fn a_capsule_touches_with_its_end_balls_and_a_box_with_its_corners() {
        let semi_axes = Vec3::new(0.3, 0.2, 0.15);
        let container = Shape::Ellipsoid { semi_axes };
        let pose = Pose::identity();
        // A capsule along x, its end balls of radius 0.06 centred at x = +-0.25 on the long axis:
        // each 0.01 into the wall at the ends of the long axis, since the centres are 0.05 from
        // the poles, nearer than the wall's least radius of curvature there (c^2 / a = 0.075).
        let capsule = Shape::Capsule { radius: 0.06, half_length: 0.25 };
        let mut out = Vec::new();
        contacts(&container, &pose, &capsule, &Pose { r: Vec3::zeros(), q: Rotation::from_axis_angle(&Vec3::y_axis(), std::f64::consts::FRAC_PI_2) }, &mut out);
        assert_eq!(out.len(), 2);
        for c in &out {
            assert!((c.separation + 0.01).abs() < 1e-14, "{}", c.separation);
            assert!((c.normal_ab_w.x.abs() - 1.0).abs() < 1e-15);
        }
        // A box's corner beyond the wall: the corner's signed distance.
        out.clear();
        let part = Shape::Box { half_extents: Vec3::new(0.02, 0.02, 0.02) };
        contacts(&container, &pose, &part, &Pose { r: Vec3::new(0.0, 0.0, 0.14), q: Rotation::identity() }, &mut out);
        assert!(!out.is_empty() && out.iter().all(|c| c.id & 4 == 4 && c.separation < 0.0));
        for c in &out {
            let corner = c.p_b_w;
            let (_, _, d) = ellipsoid::closest_point(&semi_axes, &corner);
            assert!((c.separation + d).abs() < 1e-15);
        }
    }
}
