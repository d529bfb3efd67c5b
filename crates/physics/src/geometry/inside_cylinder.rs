//! The inside of a cylinder (base: a bore, a bearing or a hole, `geometry_X.inside`) against a
//! point, a sphere, a capsule or a cylinder (follower: a pin or a shaft), or a box, a hull or a
//! point cloud, in it.
//!
//! The base's solid is the wall outside the radius R about its axis a (through its centre c),
//! over its length 2L, and each end face that is on (`geometry_X.end_bottom` at `s = -L`,
//! `geometry_X.end_top` at `s = +L`, Adams' FACE_CONTACT_BOTTOM/TOP): with both off an
//! open-ended bore, with both on a closed can that holds what is in it along its axis too. A point x has the axial coordinate
//! `s = (x - c) · a` and the radial offset `v = x - c - s a` of length `rho`, direction
//! `e = v / rho`. A ball of radius r centred at x faces the wall point `p_a = c + s a + R e` with
//! its outermost point `p_b = x + r e`; the normal from the wall into the bore is `n = -e` and
//! `separation = R - rho - r`: a pin pressed into the wall penetrates by `rho + r - R`.
//!
//! A point or ball whose centre is beyond the bore's ends (`|s| > L`) is out of it: no point.
//!
//! A shaft's axis segment is clipped to the part within the bore's length (`|s| <= L`); the
//! contact is a line along it, given as two points at the clipped segment's ends (id 0 toward the
//! shaft's -z end, id 1 toward its +z end), as the plane's line contacts are. The radial distance
//! of the shaft's surface is convex along its axis, so the deepest points are at those ends: a
//! shaft resting in a bearing carries its weight at both, and a tilted shaft presses at one end
//! on one side and at the other on the other, which is the restoring couple. A capsule's station
//! is the ball of its radius there. A cylinder's station is its cross-section circle, whose point
//! farthest along the station's radial direction e is taken: for a shaft parallel to the bore
//! (concentric with clearance, or offset by d) that is exactly its outermost point, at depth
//! `d + r - R`; tilted, it is the point of the circle farthest along e, not the one farthest
//! from the axis, which differ to second order in the tilt. A shaft whose axis lies wholly beyond
//! the bore's ends is out of it: no point. A capsule of zero length is a ball (one point).
//!
//! A box, a hull or a point cloud meets the wall with its vertices within the bore's length
//! (`cavity::vertices`: those beyond the wall, or the closest one), each a ball of radius 0: the
//! radial distance is convex, so the deepest point of a polytope is a vertex.
//!
//! An end face that is on is a flat wall, the half-space beyond the plane of the end: the follower
//! meets it as it meets a plane (`cavity::flat_wall`: a ball's bottom, a capsule's ends, a
//! cylinder's rim points, a polytope's vertices), so a ball resting on a closed bore's bottom
//! carries its weight at the plane's closed-form depth. Ids: the wall's first (as above), then the
//! bottom face's, then the top face's, each as many as the follower uses against a plane.
//!
//! On the axis there is no radial direction; the bore's own x axis is taken, so that the result
//! stays finite (at the largest clearance, R - r).

use super::{cavity, ContactPoint};
use crate::math::{Pose, Rotation, Vec3};
use crate::shape::Shape;

/// The bore of an inside cylinder, placed in W.
struct Bore {
    /// The bore's pose (its z is the axis).
    pose: Pose,
    centre: Vec3,
    axis: Vec3,
    /// Used as the radial direction on the axis.
    across: Vec3,
    radius: f64,
    half_length: f64,
}

impl Bore {
    fn of(shape: &Shape, pose: &Pose) -> Bore {
        let Shape::Cylinder { radius, half_length } = *shape else { unreachable!("inside_cylinder called with {shape:?}") };
        Bore { pose: *pose, centre: pose.r, axis: pose.q * Vec3::z(), across: pose.q * Vec3::x(), radius, half_length }
    }

    /// The planes of the bottom (`s = -L`) and top (`s = +L`) end faces, their +z into the bore.
    fn ends(&self) -> [Pose; 2] {
        let flip = Rotation::from_axis_angle(&Vec3::x_axis(), std::f64::consts::PI);
        [
            Pose { r: self.centre - self.axis * self.half_length, q: self.pose.q },
            Pose { r: self.centre + self.axis * self.half_length, q: self.pose.q * flip },
        ]
    }

    /// The axial coordinate of `x`.
    fn axial(&self, x: &Vec3) -> f64 {
        (x - self.centre).dot(&self.axis)
    }

    /// The outward radial direction at `x` (the bore's x axis on the axis).
    fn radial(&self, x: &Vec3) -> (Vec3, f64) {
        let offset = x - self.centre;
        let v = offset - self.axis * offset.dot(&self.axis);
        let rho = v.norm();
        if rho > 1e-300 {
            (v / rho, rho)
        } else {
            (self.across, 0.0)
        }
    }

    /// A ball of radius `radius` centred at `x` against the wall: the wall's witness first.
    fn ball(&self, x: &Vec3, radius: f64) -> ContactPoint {
        let (e, rho) = self.radial(x);
        let foot = self.centre + self.axis * self.axial(x);
        let mut point = ContactPoint::new(foot + e * self.radius, x + e * radius, -e);
        // Exact, rather than re-derived from the witnesses.
        point.separation = self.radius - rho - radius;
        point
    }

    /// The part `[t0, t1]` of the segment `x(t) = centre + t u`, `|t| <= half_length`, within the
    /// bore's length; `None` when it lies wholly beyond an end.
    fn clip(&self, centre: &Vec3, u: &Vec3, half_length: f64) -> Option<(f64, f64)> {
        let (s0, k) = (self.axial(centre), u.dot(&self.axis));
        let (mut t0, mut t1) = (-half_length, half_length);
        if k.abs() < 1e-12 {
            // Across the bore: the whole segment is at the one axial coordinate s0.
            if s0.abs() > self.half_length {
                return None;
            }
        } else {
            let (a, b) = ((-self.half_length - s0) / k, (self.half_length - s0) / k);
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
        (t0 <= t1).then_some((t0, t1))
    }
}

/// Canonical pair function: an inside cylinder (base) with its bottom and top end faces on or off
/// and any follower it offers.
pub(super) fn contacts<const BOTTOM: bool, const TOP: bool>(bore: &Shape, pose: &Pose, follower: &Shape, follower_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let bore = Bore::of(bore, pose);
    match follower {
        Shape::Point | Shape::Sphere { .. } => ball_contacts(&bore, follower, follower_pose, out),
        Shape::Capsule { .. } | Shape::Cylinder { .. } => shaft_contacts(&bore, follower, follower_pose, out),
        _ => cavity::vertices(follower, follower_pose, 0, out, |x| (bore.axial(x).abs() <= bore.half_length).then(|| bore.ball(x, 0.0))),
    }
    let mut offset = wall_count(follower) as u32;
    let [bottom, top] = bore.ends();
    for (on, end) in [(BOTTOM, bottom), (TOP, top)] {
        if on {
            cavity::flat_wall(&end, follower, follower_pose, offset, out);
            offset += cavity::flat_wall_count(follower) as u32;
        }
    }
}

/// The wall's ids, then each end face's that is on.
pub(super) fn count<const BOTTOM: bool, const TOP: bool>(_: &Shape, follower: &Shape) -> usize {
    wall_count(follower) + (usize::from(BOTTOM) + usize::from(TOP)) * cavity::flat_wall_count(follower)
}

/// The wall's ids: one for a ball, two for a shaft (one for a capsule of zero length), one per
/// vertex of a box, a hull or a cloud.
fn wall_count(follower: &Shape) -> usize {
    match follower {
        Shape::Point | Shape::Sphere { .. } => 1,
        Shape::Capsule { .. } | Shape::Cylinder { .. } => shaft_count(follower),
        _ => cavity::vertex_count(follower),
    }
}

/// A point or a sphere against the wall.
fn ball_contacts(bore: &Bore, ball: &Shape, centre: &Pose, out: &mut Vec<ContactPoint>) {
    if bore.axial(&centre.r).abs() <= bore.half_length {
        out.push(bore.ball(&centre.r, super::sphere_radius(ball)));
    }
}

/// A capsule or a cylinder against the wall.
fn shaft_contacts(bore: &Bore, shaft: &Shape, shaft_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let (radius, half_length, rim) = match *shaft {
        Shape::Capsule { radius, half_length } => (radius, half_length, false),
        Shape::Cylinder { radius, half_length } => (radius, half_length, true),
        _ => unreachable!("inside_cylinder shaft with {shaft:?}"),
    };
    let u = shaft_pose.q * Vec3::z();
    let Some((t0, t1)) = bore.clip(&shaft_pose.r, &u, half_length) else { return };
    let stations: &[(u32, f64)] = if half_length == 0.0 { &[(0, 0.0)] } else { &[(0, t0), (1, t1)] };
    for &(id, t) in stations {
        let x = shaft_pose.r + u * t;
        let point = if rim {
            // The cross-section circle's point farthest along the station's radial direction.
            let (e, _) = bore.radial(&x);
            let w = e - u * e.dot(&u);
            let w = if w.norm() > 1e-9 { w.normalize() } else { shaft_pose.q * Vec3::x() };
            bore.ball(&(x + w * radius), 0.0)
        } else {
            bore.ball(&x, radius)
        };
        out.push(point.with_id(id));
    }
}

/// Two point ids, one per end of the shaft's part in the bore; one for a capsule of zero length.
fn shaft_count(shaft: &Shape) -> usize {
    match shaft {
        Shape::Capsule { half_length, .. } if *half_length == 0.0 => 1,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;

    fn bore_pose() -> Pose {
        Pose { r: Vec3::new(0.2, -0.1, 0.3), q: Rotation::from_axis_angle(&Vec3::y_axis(), std::f64::consts::FRAC_PI_2) }
    }

    #[test]
    fn a_pin_offset_by_d_in_a_bore_penetrates_by_d_plus_r_minus_big_r() {
        // The bore's axis is W's x (its z turned by 90 degrees about y); a ball of radius 0.04
        // 0.012 below the axis in a bore of radius 0.05 reaches 0.002 into the wall.
        let pose = bore_pose();
        let bore = Shape::Cylinder { radius: 0.05, half_length: 0.1 };
        let centre = Pose { r: pose.r + Vec3::new(0.07, 0.0, -0.012), q: Rotation::identity() };
        let mut out = Vec::new();
        contacts::<false, false>(&bore, &pose, &Shape::Sphere { radius: 0.04 }, &centre, &mut out);
        assert_eq!(out.len(), 1);
        let c = out[0];
        assert!((c.separation + 0.002).abs() < 1e-15, "{}", c.separation);
        assert!((c.normal_ab_w - Vec3::z()).norm() < 1e-15);
        assert!((c.p_a_w - (pose.r + Vec3::new(0.07, 0.0, -0.05))).norm() < 1e-15);
        assert!(((c.p_b_w - c.p_a_w).dot(&c.normal_ab_w) - c.separation).abs() < 1e-15);
        // Beyond the bore's end the pin is out of it.
        out.clear();
        contacts::<false, false>(&bore, &pose, &Shape::Point, &Pose { r: pose.r + Vec3::new(0.11, 0.0, -0.06), q: Rotation::identity() }, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn a_parallel_shaft_touches_at_both_ends_of_its_part_in_the_bore_at_the_closed_form_depth() {
        let pose = bore_pose();
        let bore = Shape::Cylinder { radius: 0.05, half_length: 0.1 };
        let axis = pose.q * Vec3::z();
        // A shaft of radius 0.045 and half length 0.15 (longer than the bore), offset by
        // d = 0.0052 sideways along y and 0.03 along the axis: it leaves the bore at its +end.
        let d = 0.0052;
        for shaft in [Shape::Cylinder { radius: 0.045, half_length: 0.15 }, Shape::Capsule { radius: 0.045, half_length: 0.15 }] {
            let shaft_pose = Pose { r: pose.r + Vec3::y() * d + axis * 0.03, q: pose.q };
            let mut out = Vec::new();
            contacts::<false, false>(&bore, &pose, &shaft, &shaft_pose, &mut out);
            assert_eq!(out.len(), 2, "{shaft:?}");
            for c in &out {
                assert!((c.separation - (0.05 - d - 0.045)).abs() < 1e-15, "{shaft:?}: {}", c.separation);
                assert!((c.normal_ab_w + Vec3::y()).norm() < 1e-14, "{}", c.normal_ab_w);
            }
            // The clipped ends are the bore's ends, 0.2 apart, id 0 toward the shaft's -z end.
            let along = |c: &ContactPoint| (c.p_b_w - pose.r).dot(&axis);
            assert!((along(&out[0]) + 0.1).abs() < 1e-15 && (along(&out[1]) - 0.1).abs() < 1e-15);
        }
    }

    #[test]
    fn a_tilted_shaft_presses_on_opposite_sides_at_its_two_ends() {
        // A bore along W's z; a capsule tilted about x: its -z end leans toward +y, its +z end
        // toward -y, so the two points push it back from both sides (a restoring couple).
        let pose = Pose { r: Vec3::zeros(), q: Rotation::identity() };
        let bore = Shape::Cylinder { radius: 0.05, half_length: 0.2 };
        let capsule = Shape::Capsule { radius: 0.04, half_length: 0.1 };
        let tilt = 0.2_f64;
        let shaft_pose = Pose { r: Vec3::zeros(), q: Rotation::from_axis_angle(&Vec3::x_axis(), tilt) };
        let mut out = Vec::new();
        contacts::<false, false>(&bore, &pose, &capsule, &shaft_pose, &mut out);
        assert_eq!(out.len(), 2);
        let depth = 0.1 * tilt.sin() + 0.04 - 0.05;
        for c in &out {
            assert!((c.separation + depth).abs() < 1e-15, "{} against {}", c.separation, -depth);
        }
        assert!(out[0].normal_ab_w.y < 0.0 && out[1].normal_ab_w.y > 0.0);
        // Wholly beyond the bore's end: out of it.
        out.clear();
        contacts::<false, false>(&bore, &pose, &capsule, &Pose { r: Vec3::z() * 0.35, q: shaft_pose.q }, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn a_closed_bottom_holds_a_ball_and_a_shaft_along_the_axis_and_an_open_one_lets_them_out() {
        // A bore along W's z, radius 0.05, half length 0.1, its bottom end face at z = -0.1.
        let pose = Pose { r: Vec3::new(0.1, 0.2, 0.3), q: Rotation::identity() };
        let bore = Shape::Cylinder { radius: 0.05, half_length: 0.1 };
        let ball = Shape::Sphere { radius: 0.02 };
        let centre = Pose { r: pose.r + Vec3::new(0.01, 0.0, -0.1 + 0.02 - 0.003), q: Rotation::identity() };
        let mut out = Vec::new();
        contacts::<true, false>(&bore, &pose, &ball, &centre, &mut out);
        // The wall (id 0, clear by 0.05 - 0.01 - 0.02) and the bottom face (id 1, 0.003 deep).
        assert_eq!(out.len(), 2);
        assert!((out[0].separation - 0.02).abs() < 1e-15);
        assert_eq!(out[1].id, 1);
        assert!((out[1].separation + 0.003).abs() < 1e-15 && (out[1].normal_ab_w - Vec3::z()).norm() < 1e-15, "{:?}", out[1]);
        assert_eq!(count::<true, false>(&bore, &ball), 2);
        // The top face (id 2 with both on) is 0.183 above the ball.
        out.clear();
        contacts::<true, true>(&bore, &pose, &ball, &centre, &mut out);
        assert!((out[2].separation - (0.2 - 0.02 + 0.003 - 0.02)).abs() < 1e-15 && (out[2].normal_ab_w + Vec3::z()).norm() < 1e-15);
        // A shaft standing on the closed bottom: its bottom rim's four points, 0.001 deep.
        let shaft = Shape::Cylinder { radius: 0.04, half_length: 0.05 };
        out.clear();
        contacts::<true, false>(&bore, &pose, &shaft, &Pose { r: pose.r - Vec3::z() * (0.05 + 0.001), q: Rotation::identity() }, &mut out);
        let deep: Vec<_> = out.iter().filter(|c| c.separation < 0.0).collect();
        assert_eq!(deep.len(), 4);
        assert!(deep.iter().all(|c| (c.separation + 0.001).abs() < 1e-15 && (2..10).contains(&c.id)));
        assert_eq!(count::<true, false>(&bore, &shaft), 2 + 8);
        // The open bore: nothing holds the ball below its end.
        out.clear();
        contacts::<false, false>(&bore, &pose, &ball, &Pose { r: pose.r - Vec3::z() * 0.11, q: Rotation::identity() }, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn a_box_meets_the_wall_with_its_corners_within_the_bore() {
        // A square peg of half side 0.036 in a bore of radius 0.05: corners at 0.036 sqrt(2) =
        // 0.0509 from the axis, 0.0009 into the wall; the corners beyond the open end are out.
        let pose = Pose::identity();
        let bore = Shape::Cylinder { radius: 0.05, half_length: 0.1 };
        let peg = Shape::Box { half_extents: Vec3::new(0.036, 0.036, 0.1) };
        let mut out = Vec::new();
        contacts::<false, false>(&bore, &pose, &peg, &Pose { r: Vec3::z() * 0.05, q: Rotation::identity() }, &mut out);
        assert_eq!(out.len(), 4, "{out:?}");
        for c in &out {
            assert!(c.id & 4 == 0, "the corners at z = -0.05: {}", c.id);
            assert!((c.separation - (0.05 - 0.036 * 2f64.sqrt())).abs() < 1e-15);
        }
    }
}
