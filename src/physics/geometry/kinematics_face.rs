//! Contact kinematics of a finite face (Rectangle or Disk, the base) against a box over any
//! [`Real`]: `face_box` and `finite_face` rebuilt over the frames, with every branch decided on
//! the values as the `f64` pass decided it. The box's corners in the base frame, their
//! projections moved onto the outline, and the weight `area(F ∩ O) / area(F)` of the footprint F
//! (the convex hull of the corners below the face's plane and of the edges' crossings of it,
//! clipped by the outline's half-planes, areas by the shoelace formula) are all functions of the
//! poses, so their derivatives are exact. The hull's vertex set and order are those of the values
//! (Andrew's monotone chain, as `polygon.rs`); the area does not depend on which of the
//! collinear points a hull keeps.

use nalgebra::{Vector2, Vector3};

use super::box_plane::EDGES;
use super::finite_face::{Outline, CIRCLE_SIDES};
use super::kinematics::Frame;
use super::ContactPoint;
use crate::physics::math::Vec3;
use crate::physics::real::Real;

type V2<S> = Vector2<S>;

fn cross<S: Real>(a: &V2<S>, b: &V2<S>) -> S {
    a.x * b.y - a.y * b.x
}

/// The eight points of a box of half extents `half` (its frame `follower`) against the face
/// `outline` (its frame `base`), by id (the corner, `box_plane`'s numbering), as `face_box`.
pub(super) fn face_box<S: Real>(outline: &Outline, base: &Frame<S>, half: &Vec3, follower: &Frame<S>) -> Vec<ContactPoint<S>> {
    let corners: Vec<Vector3<S>> = (0..8)
        .map(|i| {
            let sign = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
            base.local(&follower.fixed_point(&Vec3::new(sign(1) * half.x, sign(2) * half.y, sign(4) * half.z)))
        })
        .collect();
    let weight = covered_fraction(outline, &footprint(&corners));
    corners.iter().enumerate().map(|(id, centre)| push_point(outline, base, centre, weight).with_id(id as u32)).collect()
}

/// `finite_face::polytope_footprint` of the box's corners (base frame) over the Real.
fn footprint<S: Real>(vertices: &[Vector3<S>]) -> Vec<V2<S>> {
    let mut points: Vec<V2<S>> = vertices.iter().filter(|v| v.z.v() <= 0.0).map(|v| V2::new(v.x, v.y)).collect();
    for (i, j) in EDGES {
        let (a, b) = (&vertices[i], &vertices[j]);
        let (za, zb) = (a.z.v(), b.z.v());
        if (za < 0.0 && zb > 0.0) || (za > 0.0 && zb < 0.0) {
            let t = a.z / (a.z - b.z);
            let p = a + (b - a) * t;
            points.push(V2::new(p.x, p.y));
        }
    }
    convex_hull(points)
}

/// `Polygon::convex_hull` over the Real: the order and the kept vertices decided on the values.
fn convex_hull<S: Real>(mut points: Vec<V2<S>>) -> Vec<V2<S>> {
    points.sort_by(|a, b| a.x.v().total_cmp(&b.x.v()).then(a.y.v().total_cmp(&b.y.v())));
    if points.len() < 3 {
        return points;
    }
    let turns = |hull: &[V2<S>], p: &V2<S>| {
        let n = hull.len();
        cross(&(hull[n - 1] - hull[n - 2]), &(p - hull[n - 2])).v() <= 0.0
    };
    let mut hull: Vec<V2<S>> = Vec::new();
    for p in &points {
        while hull.len() >= 2 && turns(&hull, p) {
            hull.pop();
        }
        hull.push(*p);
    }
    let lower = hull.len() + 1;
    for p in points.iter().rev().skip(1) {
        while hull.len() >= lower && turns(&hull, p) {
            hull.pop();
        }
        hull.push(*p);
    }
    hull.pop();
    hull
}

/// Shoelace area about the first vertex, >= 0.
fn area<S: Real>(p: &[V2<S>]) -> S {
    if p.len() < 3 {
        return S::c(0.0);
    }
    let twice = p.windows(2).skip(1).fold(S::c(0.0), |sum, w| sum + cross(&(w[0] - p[0]), &(w[1] - p[0])));
    twice.abs() * 0.5
}

/// `Polygon::clip` by `m · p <= c` over the Real.
fn clip<S: Real>(polygon: &[V2<S>], m: &Vector2<f64>, c: f64) -> Vec<V2<S>> {
    let mut out = Vec::with_capacity(polygon.len() + 1);
    let Some(last) = polygon.last() else {
        return out;
    };
    let outside = |p: &V2<S>| p.x * m.x + p.y * m.y - c;
    let mut prev = *last;
    let mut prev_out = outside(&prev);
    for cur in polygon {
        let cur_out = outside(cur);
        if (prev_out.v() > 0.0) != (cur_out.v() > 0.0) {
            let t = prev_out / (prev_out - cur_out);
            out.push(prev + (cur - prev) * t);
        }
        if cur_out.v() <= 0.0 {
            out.push(*cur);
        }
        prev = *cur;
        prev_out = cur_out;
    }
    out
}

/// `Outline::covered_fraction` (origin 0, identity map) over the Real.
fn covered_fraction<S: Real>(outline: &Outline, footprint: &[V2<S>]) -> S {
    let whole = area(footprint);
    if whole.v() <= 0.0 {
        return S::c(0.0);
    }
    let mut current = footprint.to_vec();
    for (m, c) in half_planes(outline) {
        current = clip(&current, &m, c);
    }
    let fraction = area(&current) / whole;
    if fraction.v() < 0.0 {
        S::c(0.0)
    } else if fraction.v() > 1.0 {
        S::c(1.0)
    } else {
        fraction
    }
}

/// The outline's half-planes `m · p <= c`, as `Outline::half_plane`.
fn half_planes(outline: &Outline) -> Vec<(Vector2<f64>, f64)> {
    match *outline {
        Outline::Rectangle { half_x, half_y } => vec![
            (Vector2::new(1.0, 0.0), half_x),
            (Vector2::new(-1.0, 0.0), half_x),
            (Vector2::new(0.0, 1.0), half_y),
            (Vector2::new(0.0, -1.0), half_y),
        ],
        Outline::Disk { radius } => (0..CIRCLE_SIDES)
            .map(|i| {
                let angle = std::f64::consts::TAU * i as f64 / CIRCLE_SIDES as f64;
                (Vector2::new(angle.cos(), angle.sin()), radius)
            })
            .collect(),
    }
}

/// `finite_face::push_points` of one corner (radius 0) over the Real.
fn push_point<S: Real>(outline: &Outline, base: &Frame<S>, centre: &Vector3<S>, weight: S) -> ContactPoint<S> {
    let zero = S::c(0.0);
    let moved = match *outline {
        Outline::Rectangle { half_x, half_y } => {
            let clamp = |x: S, h: f64| if x.v() < -h { S::c(-h) } else if x.v() > h { S::c(h) } else { x };
            V2::new(clamp(centre.x, half_x), clamp(centre.y, half_y))
        }
        Outline::Disk { radius } => {
            let p = V2::new(centre.x, centre.y);
            let norm = (p.x * p.x + p.y * p.y).sqrt();
            if norm.v() > radius {
                p * (S::c(radius) / norm)
            } else {
                p
            }
        }
    };
    let on_face = Vector3::new(moved.x, moved.y, zero);
    let mut point = if centre.z.v() < 0.0 && weight.v() > 0.0 {
        let mut point = ContactPoint::new(base.point(&on_face), base.point(&Vector3::new(moved.x, moved.y, centre.z)), base.axes[2]);
        point.separation = centre.z;
        point
    } else {
        let offset = centre - on_face;
        let distance = S::norm(&offset);
        let direction = if distance.v() > 1e-300 { offset / distance } else { Vector3::new(zero, zero, S::c(1.0)) };
        let mut point = ContactPoint::new(base.point(&on_face), base.point(centre), base.vector(&direction));
        point.separation = distance;
        point
    };
    point.weight = weight;
    point
}
