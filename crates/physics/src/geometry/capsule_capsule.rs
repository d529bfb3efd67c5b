//! Capsule (A) against capsule (B): closest points of the two segments, plus the two ends of
//! their overlap when they lie along each other.
//!
//! Each capsule is a segment `c + s u`, `|s| <= L`, swept by a sphere of radius r. A pair of
//! segment points a, b at distance `f = |b - a|` gives a contact along the line through them:
//! `n = (b - a) / f`, witnesses where that line leaves each capsule, `p_a = a + lambda_a n` and
//! `p_b = b - lambda_b n`, `separation = f - lambda_a - lambda_b`. Where n is perpendicular to
//! both axes (the closest points of crossing segments, parallel segments) or leaves through an
//! end sphere (closest points at an end), `lambda = r` and this is the sphere-sphere contact
//! `f - r_a - r_b`; elsewhere it is the gap between the two surfaces measured along the line,
//! with both witnesses exactly on the surfaces.
//!
//! Points:
//! - id 0: the closest points of the segments (distance f*, deepest depth `d* = r_a + r_b - f*`).
//!   Parameters of the lines: `s = (k f_b - f_a) / (1 - k^2)`, `t = f_b + k s` with `k = u_a · u_b`,
//!   `f_a = u_a · (c_a - c_b)`, `f_b = u_b · (c_a - c_b)`; s is clamped to A, t to B, and s is
//!   recomputed for a clamped t (`s = k t - f_a`, clamped again), which is exact for segments.
//! - ids 1 and 2: "stations" at the two ends of the overlap of the segments along their mean axis
//!   `m = (u_a + sigma u_b) / |...|` (sigma = sign k, so that the axes point the same way): the
//!   points of A and of B that project onto m at the lower and the upper end of the overlap of
//!   their projections (clamped to the segments when the projections do not overlap, which makes
//!   both stations the facing ends). Each is its own contact along the line through its two
//!   points, with its own separation. Parallel segments at distance f have stations exactly f
//!   apart: a capsule lying on a capsule rests on two points like a cylinder on a plane.
//!
//! Why three points and these weights (force continuity): the closest points of parallel
//! segments are not unique (any point of the overlap is), so they cannot carry force there
//! without jumping; and for crossed segments the ends of the overlap are far from the crossing,
//! so they cannot carry it there. With the stations' excess distances `D_i = f_i - f* >= 0`:
//! - the closest points have weight `w_0 = 1 - kappa (1 - phi)`, `phi = clamp(min(D_1, D_2) / d*, 0, 1)`
//!   (1 when apart): 0 while a station is as close as the closest points (parallel, or tilted so
//!   that the minimum is at one end of the overlap, where a station already carries it), rising
//!   to 1 when both stations are at least d* farther, i.e. carry no force (crossed: one exact
//!   point contact). The closest points are unique wherever `w_0 > 0`.
//! - each station has weight `kappa g(l)`, with the overlap length l along m and
//!   `g = 1/2 + 1/2 clamp(l / min(r_a, r_b), 0, 1)`: two coincident stations (no overlap) make one
//!   point, and an overlap longer than the smaller radius two full points.
//! - `kappa = clamp((|k| - cos 60°) / (cos 30° - cos 60°), 0, 1)` fades the stations out between
//!   30° and 60° between the axes, so that the mean axis, which turns by 90° where sigma changes
//!   sign at right angles, is never used there (stations are not even computed when kappa = 0).
//!
//! The total weight thus goes from 2 (lying along each other) to 1 (crossed, touching end to end
//! or point to segment), continuously. The construction is symmetric in A and B, so exchanging
//! the capsules mirrors every point (ids 1 and 2 exchange when the axes point opposite ways).
//! A capsule of zero length is a sphere: only the closest points (id 0), weight 1.

use nalgebra::Vector3;

use super::frame::Frame;
use super::ContactPoint;
use crate::math::{Pose, Vec3};
use crate::real::Real;
use crate::shape::Shape;

/// Below this `1 - k^2` (axes within about 1e-6 rad) the segments are treated as parallel.
const PARALLEL: f64 = 1e-12;
/// cos 30° and cos 60°: where the stations' weight factor kappa starts and ends fading.
const STATIONS_FULL: f64 = 0.866_025_403_784_438_6;
const STATIONS_NONE: f64 = 0.5;

/// A capsule's segment and radius in W, over any [`Real`] (the kinematics differentiate the
/// whole construction, weights included, with dual frames).
pub(super) struct Segment<S: Real> {
    pub(super) centre: Vector3<S>,
    pub(super) axis: Vector3<S>,
    pub(super) half_length: f64,
    pub(super) radius: f64,
}

impl Segment<f64> {
    fn new(shape: &Shape, pose: &Pose) -> Segment<f64> {
        let Shape::Capsule { radius, half_length } = *shape else { unreachable!("capsule_capsule called with {shape:?}") };
        Segment { centre: pose.r, axis: pose.q * Vec3::z(), half_length, radius }
    }
}

impl<S: Real> Segment<S> {
    #[inline]
    fn at(&self, s: S) -> Vector3<S> {
        self.centre + self.axis * s
    }

    /// How far the ray from the axis point at s along the unit direction d runs inside the
    /// capsule: with `c = d · u`, through the side at `r / sqrt(1 - c^2)` if the axial coordinate
    /// `s + lambda c` is still within [-L, L] there, otherwise through the end sphere at
    /// e = L sign(c): `lambda = -delta c + sqrt(r^2 - delta^2 (1 - c^2))`, `delta = s - e`.
    /// Equal to r when d is perpendicular to the axis, and from an end point pointing outward.
    #[inline]
    fn exit(&self, s: S, d: &Vector3<S>) -> S {
        let c = d.dot(&self.axis);
        let sin_squared = -(c * c) + 1.0;
        if sin_squared.v() > 0.0 {
            let side = S::c(self.radius) / sin_squared.sqrt();
            if (s + side * c).v().abs() <= self.half_length {
                return side;
            }
        }
        let delta = s - self.half_length.copysign(c.v());
        -delta * c + (-(delta * delta * sin_squared.max(S::c(0.0))) + self.radius * self.radius).max(S::c(0.0)).sqrt()
    }
}

/// Canonical pair function: capsule (base) and capsule (follower).
pub(super) fn contacts(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, out: &mut Vec<ContactPoint>) {
    points(&Segment::new(a, pose_a), &Segment::new(b, pose_b), out);
}

/// The points of two segments (see the module comment), over any [`Real`].
#[inline]
pub(super) fn points<S: Real>(a: &Segment<S>, b: &Segment<S>, out: &mut Vec<ContactPoint<S>>) {
    let k = a.axis.dot(&b.axis);
    let fallback = fallback_normal(a, b);
    if a.half_length == 0.0 || b.half_length == 0.0 {
        let (s, t) = closest_parameters(a, b).unwrap_or((S::c(0.0), S::c(0.0)));
        out.push(sphere_pair(a, s, b, t, &fallback).0);
        return;
    }
    let kappa = clamp01((k.abs() - STATIONS_NONE) / (STATIONS_FULL - STATIONS_NONE));
    let stations = (kappa.v() > 0.0).then(|| Stations::new(a, b));
    let (s, t) = match (closest_parameters(a, b), &stations) {
        (Some(st), _) => st,
        // Parallel (so kappa = 1): the middle of the overlap, chosen symmetrically.
        (None, Some(stations)) => stations.parameters(a, b, (stations.low + stations.high) * 0.5),
        (None, None) => unreachable!("parallel axes have kappa = 1"),
    };
    let (closest, f_min) = sphere_pair(a, s, b, t, &fallback);
    let Some(stations) = stations else {
        out.push(closest);
        return;
    };
    let (low, f_low) = stations.contact(a, b, stations.low, &fallback);
    let (high, f_high) = stations.contact(a, b, stations.high, &fallback);
    let depth = -f_min + (a.radius + b.radius);
    let phi = if depth.v() > 0.0 { clamp01((f_low.min(f_high) - f_min) / depth) } else { S::c(1.0) };
    let overlap = clamp01((stations.high - stations.low) / a.radius.min(b.radius));
    let station_weight = kappa * 0.5 * (overlap + 1.0);
    // Rounding leaves a weight of order 1e-13 on the closest points of parallel segments; such
    // a point would count as carrying force without carrying any.
    let closest_weight = -(kappa * (-phi + 1.0)) + 1.0;
    out.push(closest.with_weight(if closest_weight.v() < 1e-9 { S::c(0.0) } else { closest_weight }));
    out.push(low.with_id(1).with_weight(station_weight));
    out.push(high.with_id(2).with_weight(station_weight));
}

/// `x.clamp(0, 1)`, decided on the value.
#[inline]
fn clamp01<S: Real>(x: S) -> S {
    clamp(x, 0.0, 1.0)
}

/// `x.clamp(lo, hi)`, decided on the value.
#[inline]
fn clamp<S: Real>(x: S, lo: f64, hi: f64) -> S {
    if x.v() < lo {
        S::c(lo)
    } else if x.v() > hi {
        S::c(hi)
    } else {
        x
    }
}

/// Three point ids (closest points and two stations); one if a capsule has zero length.
pub(super) fn point_count(a: &Shape, b: &Shape) -> usize {
    let zero_length = |shape: &Shape| matches!(shape, Shape::Capsule { half_length, .. } if *half_length == 0.0);
    if zero_length(a) || zero_length(b) {
        1
    } else {
        3
    }
}

/// Parameters (s on A, t on B) of the closest points of the segments; `None` for parallel axes
/// of two segments of nonzero length, whose closest points are not unique.
#[inline]
fn closest_parameters<S: Real>(a: &Segment<S>, b: &Segment<S>) -> Option<(S, S)> {
    let r = a.centre - b.centre;
    let (k, f_a, f_b) = (a.axis.dot(&b.axis), a.axis.dot(&r), b.axis.dot(&r));
    let denominator = -(k * k) + 1.0;
    let s = if denominator.v() > PARALLEL {
        clamp((k * f_b - f_a) / denominator, -a.half_length, a.half_length)
    } else if a.half_length == 0.0 || b.half_length == 0.0 {
        // A point against a segment: the point's own parameter, the segment's from it below.
        clamp(-f_a, -a.half_length, a.half_length)
    } else {
        return None;
    };
    let t = f_b + k * s;
    if t.v().abs() > b.half_length {
        let t = clamp(t, -b.half_length, b.half_length);
        return Some((clamp(k * t - f_a, -a.half_length, a.half_length), t));
    }
    Some((s, t))
}

/// The contact along the line through the points at parameters s of A and t of B, and their
/// distance f: normal `n = (b - a) / f`, witnesses where the line leaves each capsule
/// (`p_a = a + lambda_a n`, `p_b = b - lambda_b n`), separation `f - lambda_a - lambda_b`.
#[inline]
fn sphere_pair<S: Real>(a: &Segment<S>, s: S, b: &Segment<S>, t: S, fallback: &Vector3<S>) -> (ContactPoint<S>, S) {
    let (centre_a, centre_b) = (a.at(s), b.at(t));
    let offset = centre_b - centre_a;
    let distance = S::norm(&offset);
    let n = if distance.v() > 1e-300 { offset / distance } else { *fallback };
    let (reach_a, reach_b) = (a.exit(s, &n), b.exit(t, &-n));
    let mut point = ContactPoint::new(centre_a + n * reach_a, centre_b - n * reach_b, n);
    // Exact, rather than re-derived from the witnesses.
    point.separation = distance - reach_a - reach_b;
    (point, distance)
}

/// `v / |v|`, as nalgebra's `normalize`.
#[inline]
fn unit<S: Real>(v: Vector3<S>) -> Vector3<S> {
    v / S::norm(&v)
}

/// The normal of segments that intersect: across both axes, from A's centre toward B's, or for
/// parallel axes across them toward B (any direction across A if the segments are collinear).
#[inline]
fn fallback_normal<S: Real>(a: &Segment<S>, b: &Segment<S>) -> Vector3<S> {
    let towards_b = b.centre - a.centre;
    let across = a.axis.cross(&b.axis);
    let n = if S::norm(&across).v() > 1e-9 {
        unit(across)
    } else {
        let sideways = towards_b - a.axis * towards_b.dot(&a.axis);
        if S::norm(&sideways).v() > 1e-300 {
            unit(sideways)
        } else {
            // Collinear: the W axis least aligned with A's, made perpendicular to it.
            let w: Vector3<S> = if a.axis.x.v().abs() < 0.5 { Vector3::x() } else { Vector3::y() };
            unit(w - a.axis * w.dot(&a.axis))
        }
    };
    if n.dot(&towards_b).v() < 0.0 {
        -n
    } else {
        n
    }
}

/// Both segments projected onto their mean axis m, and the overlap [low, high] of the
/// projections (low > high when they do not overlap).
struct Stations<S: Real> {
    mean_axis: Vector3<S>,
    /// sigma: -1 when B's axis points against A's.
    sigma: f64,
    /// `u_a · m = sigma u_b · m`: how a segment parameter scales onto m.
    scale: S,
    low: S,
    high: S,
}

impl<S: Real> Stations<S> {
    fn new(a: &Segment<S>, b: &Segment<S>) -> Stations<S> {
        let sigma = if a.axis.dot(&b.axis).v() < 0.0 { -1.0 } else { 1.0 };
        let mean_axis = unit(a.axis + b.axis * S::c(sigma));
        let scale = a.axis.dot(&mean_axis);
        let (centre_a, centre_b) = (a.centre.dot(&mean_axis), b.centre.dot(&mean_axis));
        let (extent_a, extent_b) = (scale * a.half_length, scale * b.half_length);
        Stations {
            mean_axis,
            sigma,
            scale,
            low: (centre_a - extent_a).max(centre_b - extent_b),
            high: (centre_a + extent_a).min(centre_b + extent_b),
        }
    }

    /// Segment parameters (s on A, t on B along B's own axis) of the points at station x.
    fn parameters(&self, a: &Segment<S>, b: &Segment<S>, x: S) -> (S, S) {
        let s = clamp((x - a.centre.dot(&self.mean_axis)) / self.scale, -a.half_length, a.half_length);
        let t = clamp((x - b.centre.dot(&self.mean_axis)) / self.scale, -b.half_length, b.half_length);
        (s, t * self.sigma)
    }

    fn contact(&self, a: &Segment<S>, b: &Segment<S>, x: S, fallback: &Vector3<S>) -> (ContactPoint<S>, S) {
        let (s, t) = self.parameters(a, b, x);
        sphere_pair(a, s, b, t, fallback)
    }
}

/// Two capsules' points over the frames (base first; the `CapsuleCapsule` family of the pair
/// table): the whole construction.
pub(super) fn points_over<S: Real>(base: &Shape, _: &Pose, bf: &Frame<S>, follower: &Shape, _: &Pose, ff: &Frame<S>, _: &[ContactPoint]) -> Vec<ContactPoint<S>> {
    let segment = |shape: &Shape, frame: &Frame<S>| {
        let Shape::Capsule { radius, half_length } = *shape else { unreachable!("capsule-capsule with {shape:?}") };
        Segment { centre: frame.r, axis: frame.axes[2], half_length, radius }
    };
    let mut out = Vec::new();
    points(&segment(base, bf), &segment(follower, ff), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;

    fn capsule(radius: f64, half_length: f64) -> Shape {
        Shape::Capsule { radius, half_length }
    }

    fn run(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Vec<ContactPoint> {
        let mut out = Vec::new();
        contacts(a, pose_a, b, pose_b, &mut out);
        out
    }

    #[test]
    fn capsule_lying_on_a_capsule_rests_on_the_two_ends_of_the_overlap() {
        // A along x at the origin, B parallel 0.095 above it and shifted by 0.1 along x:
        // overlap x in [-0.1, 0.2], depth 0.005 everywhere along it.
        let along_x = Rotation::from_axis_angle(&Vec3::y_axis(), std::f64::consts::FRAC_PI_2);
        let a = Pose { r: Vec3::zeros(), q: along_x };
        let b = Pose { r: Vec3::new(0.1, 0.0, 0.095), q: along_x };
        let out = run(&capsule(0.05, 0.2), &a, &capsule(0.05, 0.2), &b);
        assert_eq!(out.len(), 3);
        assert!(out[0].weight < 1e-12);
        for (c, x) in out[1..].iter().zip([-0.1, 0.2]) {
            assert!((c.separation + 0.005).abs() < 1e-15);
            assert!((c.normal_ab_w - Vec3::z()).norm() < 1e-15);
            assert!((c.p_a_w - Vec3::new(x, 0.0, 0.05)).norm() < 1e-15);
            assert_eq!(c.weight, 1.0);
        }
        assert!((out[0].separation + 0.005).abs() < 1e-15);
    }

    #[test]
    fn crossed_capsules_touch_at_one_exact_point() {
        // Axes along x and y, 0.09 apart: depth 0.01 at the crossing, stations weightless.
        let a = Pose { r: Vec3::new(0.0, 0.02, 0.0), q: Rotation::from_axis_angle(&Vec3::y_axis(), std::f64::consts::FRAC_PI_2) };
        let b = Pose { r: Vec3::new(0.03, 0.0, 0.09), q: Rotation::from_axis_angle(&Vec3::x_axis(), std::f64::consts::FRAC_PI_2) };
        let out = run(&capsule(0.05, 0.2), &a, &capsule(0.05, 0.3), &b);
        assert_eq!(out.len(), 1);
        let c = out[0];
        assert!((c.separation + 0.01).abs() < 1e-15);
        assert!((c.p_a_w - Vec3::new(0.03, 0.02, 0.05)).norm() < 1e-15);
        assert!((c.p_b_w - Vec3::new(0.03, 0.02, 0.04)).norm() < 1e-15);
        assert_eq!(c.weight, 1.0);
    }

    #[test]
    fn tilted_capsule_keeps_its_lower_end_and_lifts_the_upper_one() {
        // B tilted by 0.01 rad about y over A: the end at x = -0.2 is lowest.
        let along_x = Rotation::from_axis_angle(&Vec3::y_axis(), std::f64::consts::FRAC_PI_2);
        let a = Pose { r: Vec3::zeros(), q: along_x };
        let tilt = Rotation::from_axis_angle(&Vec3::y_axis(), -0.01);
        let b = Pose { r: Vec3::new(0.0, 0.0, 0.095 + 0.2 * 0.01f64.sin()), q: tilt * along_x };
        let out = run(&capsule(0.05, 0.2), &a, &capsule(0.05, 0.2), &b);
        let d_star = -out[0].separation;
        assert!((d_star - 0.005).abs() < 1e-5, "{d_star}");
        // The closest points sit where the low station is: that station carries the depth.
        assert!(out[0].weight < 1e-2, "{}", out[0].weight);
        // (The station pairs points at equal heights along the mean axis, a distance f* / cos(0.005)
        // rather than f* apart: second order in the tilt.)
        assert!((out[1].separation - out[0].separation).abs() < 2e-6);
        // The upper end is 0.4 sin(0.01) higher and no deeper than that allows.
        assert!((out[2].separation - out[0].separation - 0.4 * 0.01f64.sin()).abs() < 1e-5);
        assert_eq!(out[1].weight, 1.0);
    }
}
