//! The inside of a capsule (base: a pill-shaped container, `geometry_X.inside`) against a point,
//! a sphere, a capsule, a box, a hull or a point cloud (follower) in it.
//!
//! The base's solid is everything farther than R from its axis segment (centre c, axis a, half
//! length L). A ball of radius r centred at x has the segment's closest point
//! `f = c + clamp((x - c) · a, -L, L) a`, the offset `x - f` of length rho and direction e: it
//! faces the wall point `p_a = f + R e` with its outermost point `p_b = x + r e`, the normal from
//! the wall into the cavity is `n = -e` and `separation = R - rho - r`. Along the cylindrical part
//! this is the bore's closed form, in the end caps the socket's.
//!
//! The distance from a segment is convex, so a capsule's deepest points are at its end balls (ids
//! 0 and 1; one ball for a capsule of zero length), and a box's, a hull's or a cloud's at its
//! vertices (`cavity::vertices`). On the axis there is no radial direction; the cavity's own x
//! axis is taken, so that the result stays finite (at the largest clearance, R - r).

use super::{cavity, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;

/// A capsule cavity placed in W.
struct Pill {
    centre: Vec3,
    axis: Vec3,
    across: Vec3,
    radius: f64,
    half_length: f64,
}

impl Pill {
    fn of(shape: &Shape, pose: &Pose) -> Pill {
        let Shape::Capsule { radius, half_length } = *shape else { unreachable!("inside_capsule called with {shape:?}") };
        Pill { centre: pose.r, axis: pose.q * Vec3::z(), across: pose.q * Vec3::x(), radius, half_length }
    }

    /// A ball of radius `radius` centred at `x` against the wall: the wall's witness first.
    fn ball(&self, x: &Vec3, radius: f64) -> ContactPoint {
        let s = (x - self.centre).dot(&self.axis).clamp(-self.half_length, self.half_length);
        let foot = self.centre + self.axis * s;
        let offset = x - foot;
        let rho = offset.norm();
        let e = if rho > 1e-300 { offset / rho } else { self.across };
        let mut point = ContactPoint::new(foot + e * self.radius, x + e * radius, -e);
        // Exact, rather than re-derived from the witnesses.
        point.separation = self.radius - rho - radius;
        point
    }
}

/// Canonical pair function: an inside capsule (base) and any follower it offers.
pub(super) fn contacts(container: &Shape, pose: &Pose, follower: &Shape, follower_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let pill = Pill::of(container, pose);
    if cavity::is_vertex_set(follower) {
        cavity::vertices(follower, follower_pose, 0, out, |x| Some(pill.ball(x, 0.0)));
        return;
    }
    let (balls, n, radius) = cavity::balls(follower, follower_pose);
    for (id, x) in &balls[..n] {
        out.push(pill.ball(x, radius).with_id(*id));
    }
}

/// One id per ball or vertex.
pub(super) use cavity::vertex_or_ball_count as count;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;

    fn pose() -> Pose {
        Pose { r: Vec3::new(0.1, -0.3, 0.2), q: Rotation::from_axis_angle(&Vec3::x_axis(), std::f64::consts::FRAC_PI_2) }
    }

    #[test]
    fn a_ball_is_held_by_the_side_as_in_a_bore_and_by_the_caps_as_in_a_socket() {
        // A capsule cavity of radius 0.1, half length 0.2, its axis along W's -y.
        let (container, pose) = (Shape::Capsule { radius: 0.1, half_length: 0.2 }, pose());
        let axis = pose.q * Vec3::z();
        assert!((axis + Vec3::y()).norm() < 1e-15);
        let ball = Shape::Sphere { radius: 0.03 };
        let mut out = Vec::new();
        // Beside the side, 0.072 below the axis: 0.002 into the wall, pushed up.
        contacts(&container, &pose, &ball, &Pose { r: pose.r + axis * 0.15 - Vec3::z() * 0.072, q: Rotation::identity() }, &mut out);
        assert!((out[0].separation + 0.002).abs() < 1e-15 && (out[0].normal_ab_w - Vec3::z()).norm() < 1e-15, "{:?}", out[0]);
        // In the +z end cap, 0.05 beyond the segment's end and 0.03 across: rho = sqrt(0.0034).
        out.clear();
        let x = pose.r + axis * 0.25 + Vec3::x() * 0.03;
        contacts(&container, &pose, &ball, &Pose { r: x, q: Rotation::identity() }, &mut out);
        assert!((out[0].separation - (0.1 - 0.0034f64.sqrt() - 0.03)).abs() < 1e-15);
        let e = (x - (pose.r + axis * 0.2)).normalize();
        assert!((out[0].normal_ab_w + e).norm() < 1e-15);
        assert!(((out[0].p_b_w - out[0].p_a_w).dot(&out[0].normal_ab_w) - out[0].separation).abs() < 1e-15);
    }

    #[test]
    fn a_smaller_capsule_lying_in_it_touches_with_both_ends_and_a_box_with_its_corners() {
        let container = Shape::Capsule { radius: 0.1, half_length: 0.2 };
        let pose = Pose { r: Vec3::zeros(), q: Rotation::identity() };
        // A capsule of radius 0.04, half length 0.1, parallel to the axis, 0.065 off it.
        let mut out = Vec::new();
        contacts(&container, &pose, &Shape::Capsule { radius: 0.04, half_length: 0.1 }, &Pose { r: Vec3::x() * 0.065, q: Rotation::identity() }, &mut out);
        assert_eq!(out.len(), 2);
        for c in &out {
            assert!((c.separation + 0.005).abs() < 1e-15);
        }
        // A cube of half side 0.05 in the +z cap: its top corners at (+-0.05, +-0.05, 0.2 + z).
        out.clear();
        let z = 0.09;
        contacts(&container, &pose, &Shape::Box { half_extents: Vec3::new(0.05, 0.05, 0.05) }, &Pose { r: Vec3::z() * (0.2 + z - 0.05), q: Rotation::identity() }, &mut out);
        let depth = (0.005 + z * z).sqrt() - 0.1;
        assert_eq!(out.len(), 4);
        for c in &out {
            assert!(c.id & 4 == 4 && (c.separation + depth).abs() < 1e-15, "{c:?}");
        }
        assert_eq!(count(&container, &Shape::Box { half_extents: Vec3::zeros() }), 8);
        assert_eq!(count(&container, &Shape::Point), 1);
    }
}
