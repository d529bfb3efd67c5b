//! Contact kinematics of a finite face (Rectangle or Disk, the base) against a box, cylinder,
//! capsule or another face over any [`Real`]: `face_box`, `face_cylinder`, `face_capsule`,
//! `face_face` and `finite_face` rebuilt over the frames, with every branch decided on the
//! values as the `f64` pass decided it. The candidates (corners, rim points, end spheres) in the
//! base frame, their projections moved onto the outline, and the weight `area(F ∩ O) / area(F)`
//! of the footprint F (a convex hull of the parts below the face's plane, or a flat follower's
//! own face clipped to below it, clipped by the outline's half-planes, areas by the shoelace
//! formula) are all functions of the poses, so their derivatives are exact. The hull's vertex set and order are those of the values
//! (Andrew's monotone chain, as `polygon.rs`); the area does not depend on which of the
//! collinear points a hull keeps.

use nalgebra::{Vector2, Vector3};

use super::box_plane::EDGES;
use super::finite_face::{Outline, CIRCLE_SIDES};
use super::cylinder_plane::{candidate_rim_point, rim_point};
use super::frame::Frame;
use super::ContactPoint;
use crate::math::{Pose, Vec3};
use crate::real::Real;
use crate::shape::Shape;

type V2<S> = Vector2<S>;

fn cross<S: Real>(a: &V2<S>, b: &V2<S>) -> S {
    a.x * b.y - a.y * b.x
}

/// The points of a box, cylinder or capsule (its frame `follower`) against the face `outline`
/// (its frame `base`), by id, as `face_box`, `face_cylinder` and `face_capsule` give them.
pub(super) fn face_solid<S: Real>(outline: &Outline, base: &Frame<S>, follower: &Shape, ff: &Frame<S>) -> Vec<ContactPoint<S>> {
    let identity = [[S::c(1.0), S::c(0.0)], [S::c(0.0), S::c(1.0)]];
    let origin = V2::new(S::c(0.0), S::c(0.0));
    match follower {
        Shape::Box { half_extents: half } => {
            let corners: Vec<Vector3<S>> = (0..8)
                .map(|i| {
                    let sign = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
                    base.local(&ff.fixed_point(&Vec3::new(sign(1) * half.x, sign(2) * half.y, sign(4) * half.z)))
                })
                .collect();
            let weight = covered_fraction(outline, &footprint(&corners, EDGES.iter().copied()), &origin, &identity);
            corners.iter().enumerate().map(|(id, centre)| push_point(outline, base, centre, 0.0, weight).with_id(id as u32)).collect()
        }
        Shape::Cylinder { radius, half_length } => {
            // The circumscribed prism: vertex k on the -z end, CIRCLE_SIDES + k on the +z end.
            let corner = radius / (std::f64::consts::PI / CIRCLE_SIDES as f64).cos();
            let vertices: Vec<Vector3<S>> = (0..2 * CIRCLE_SIDES)
                .map(|i| {
                    let angle = std::f64::consts::TAU * (i % CIRCLE_SIDES) as f64 / CIRCLE_SIDES as f64;
                    let z = if i < CIRCLE_SIDES { -half_length } else { *half_length };
                    base.local(&ff.fixed_point(&Vec3::new(corner * angle.cos(), corner * angle.sin(), z)))
                })
                .collect();
            let edges = (0..CIRCLE_SIDES).flat_map(|k| {
                let next = (k + 1) % CIRCLE_SIDES;
                [(k, next), (CIRCLE_SIDES + k, CIRCLE_SIDES + next), (k, CIRCLE_SIDES + k)]
            });
            let weight = covered_fraction(outline, &footprint(&vertices, edges), &origin, &identity);
            // cylinder_plane's rim points against the face's normal, with its ids.
            (0..8u32)
                .map(|id| {
                    let rim = candidate_rim_point(ff, *radius, *half_length, &base.axes[2], id);
                    push_point(outline, base, &base.local(&rim), 0.0, weight).with_id(id)
                })
                .collect()
        }
        Shape::Capsule { radius, half_length } => {
            let (r, axis) = (base.local(&ff.r), base.local(&(base.r + ff.axes[2])));
            let mut points = Vec::new();
            for i in 0..CAPSULE_AXIS_SAMPLES {
                let t = -1.0 + 2.0 * i as f64 / (CAPSULE_AXIS_SAMPLES - 1) as f64;
                let centre = r + axis * S::c(t * half_length);
                if centre.z.v() < *radius {
                    let disc = (-(centre.z.max(S::c(0.0)) * centre.z.max(S::c(0.0))) + radius * radius).sqrt();
                    for k in 0..CAPSULE_DISC_SIDES {
                        let angle = std::f64::consts::TAU * k as f64 / CAPSULE_DISC_SIDES as f64;
                        points.push(V2::new(centre.x + disc * angle.cos(), centre.y + disc * angle.sin()));
                    }
                }
            }
            let weight = covered_fraction(outline, &convex_hull(points), &origin, &identity);
            [(0, r - axis * S::c(*half_length)), (1, r + axis * S::c(*half_length))]
                .iter()
                .map(|(id, centre)| push_point(outline, base, centre, *radius, weight).with_id(*id))
                .collect()
        }
        _ => unreachable!("no face pair with {:?}", follower.kind()),
    }
}

/// `face_capsule`'s footprint: the hull of discs at this many axis points, of this many sides.
const CAPSULE_AXIS_SAMPLES: usize = 9;
const CAPSULE_DISC_SIDES: usize = 32;

/// The points of two faces (canonical order, A first) as `face_face` gives them, by id.
pub(super) fn face_face<S: Real>(a: &Shape, fa: &Frame<S>, b: &Shape, fb: &Frame<S>) -> Vec<ContactPoint<S>> {
    let outline = |shape: &Shape| Outline::of(shape).expect("face_face is registered for Rectangle and Disk only");
    let (area_a, area_b) = (outline(a).area(), outline(b).area());
    let mut out = Vec::new();
    if (area_a - area_b).abs() <= 1e-9 * area_a.max(area_b) {
        flat_on_face(&outline(a), fa, b, fb, 0, 0.5, &mut out);
        let first = out.len();
        flat_on_face(&outline(b), fb, a, fa, 4, 0.5, &mut out);
        out[first..].iter_mut().for_each(|p| *p = p.flipped());
    } else if area_a > area_b {
        flat_on_face(&outline(a), fa, b, fb, 0, 1.0, &mut out);
    } else {
        flat_on_face(&outline(b), fb, a, fa, 0, 1.0, &mut out);
        out.iter_mut().for_each(|p| *p = p.flipped());
    }
    out
}

/// `face_face::flat_on_face` over the Real.
fn flat_on_face<S: Real>(outline: &Outline, base: &Frame<S>, follower: &Shape, ff: &Frame<S>, first_id: u32, share: f64, out: &mut Vec<ContactPoint<S>>) {
    let (face, candidates): (Vec<V2<S>>, Vec<Vector3<S>>) = match follower {
        Shape::Rectangle { half_x, half_y } => (
            [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].iter().map(|(u, v)| V2::new(S::c(u * half_x), S::c(v * half_y))).collect(),
            (0..4)
                .map(|i| {
                    let sign = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
                    ff.fixed_point(&Vec3::new(sign(1) * half_x, sign(2) * half_y, 0.0))
                })
                .collect(),
        ),
        Shape::Disk { radius } => {
            let corner = radius / (std::f64::consts::PI / CIRCLE_SIDES as f64).cos();
            (
                (0..CIRCLE_SIDES)
                    .map(|k| {
                        let angle = std::f64::consts::TAU * k as f64 / CIRCLE_SIDES as f64;
                        V2::new(S::c(angle.cos() * corner), S::c(angle.sin() * corner))
                    })
                    .collect(),
                (0..4).map(|k| rim_point(&ff.r, &ff.axes[2], *radius, &ff.axes[0], &base.axes[2], k)).collect(),
            )
        }
        _ => unreachable!("face_face is registered for Rectangle and Disk only"),
    };
    // The follower's axes and origin in the base frame.
    let o = base.local(&ff.r);
    let in_base = |axis: &Vector3<S>| Vector3::new(base.axes[0].dot(axis), base.axes[1].dot(axis), base.axes[2].dot(axis));
    let (e1, e2) = (in_base(&ff.axes[0]), in_base(&ff.axes[1]));
    let below = clip(&face, &V2::new(e1.z, e2.z), -o.z);
    let jacobian = [[e1.x, e2.x], [e1.y, e2.y]];
    let weight = covered_fraction(outline, &below, &V2::new(o.x, o.y), &jacobian) * share;
    for (i, c) in candidates.iter().enumerate() {
        out.push(push_point(outline, base, &base.local(c), 0.0, weight).with_id(first_id + i as u32));
    }
}

/// `finite_face::polytope_footprint` of a polytope's vertices (base frame) over the Real.
fn footprint<S: Real>(vertices: &[Vector3<S>], edges: impl Iterator<Item = (usize, usize)>) -> Vec<V2<S>> {
    let mut points: Vec<V2<S>> = vertices.iter().filter(|v| v.z.v() <= 0.0).map(|v| V2::new(v.x, v.y)).collect();
    for (i, j) in edges {
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
fn clip<S: Real>(polygon: &[V2<S>], m: &V2<S>, c: S) -> Vec<V2<S>> {
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

/// `Outline::covered_fraction` over the Real: the footprint in coordinates s, placed by
/// `origin + jacobian s` (rows of `jacobian`).
fn covered_fraction<S: Real>(outline: &Outline, footprint: &[V2<S>], origin: &V2<S>, jacobian: &[[S; 2]; 2]) -> S {
    let whole = area(footprint);
    if whole.v() <= 0.0 {
        return S::c(0.0);
    }
    let mut current = footprint.to_vec();
    for (m, c) in half_planes(outline) {
        // J^T m and c - m · origin.
        let m_s = V2::new(jacobian[0][0] * m.x + jacobian[1][0] * m.y, jacobian[0][1] * m.x + jacobian[1][1] * m.y);
        current = clip(&current, &m_s, -(origin.x * m.x + origin.y * m.y) + c);
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

/// `finite_face::push_points` of one candidate (the lowest point of a sphere of `radius` about
/// `centre`, base frame) over the Real.
fn push_point<S: Real>(outline: &Outline, base: &Frame<S>, centre: &Vector3<S>, radius: f64, weight: S) -> ContactPoint<S> {
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
    let depth_z = centre.z - radius;
    let mut point = if depth_z.v() < 0.0 && weight.v() > 0.0 {
        let mut point = ContactPoint::new(base.point(&on_face), base.point(&Vector3::new(moved.x, moved.y, depth_z)), base.axes[2]);
        point.separation = depth_z;
        point
    } else {
        let offset = centre - on_face;
        let distance = S::norm(&offset);
        let direction = if distance.v() > 1e-300 { offset / distance } else { Vector3::new(zero, zero, S::c(1.0)) };
        let mut point = ContactPoint::new(base.point(&on_face), base.point(&(centre - direction * S::c(radius))), base.vector(&direction));
        point.separation = distance - radius;
        point
    };
    point.weight = weight;
    point
}

/// A face (base) and a box, cylinder or capsule over the frames (the `FaceSolid` family of the
/// pair table).
pub(super) fn face_solid_over<S: Real>(base: &Shape, _: &Pose, fb: &Frame<S>, follower: &Shape, _: &Pose, ff: &Frame<S>, _: &[ContactPoint]) -> Vec<ContactPoint<S>> {
    let outline = Outline::of(base).expect("a face base");
    face_solid(&outline, fb, follower, ff)
}

/// Two faces over the frames (the `FaceFace` family).
pub(super) fn face_face_over<S: Real>(base: &Shape, _: &Pose, fb: &Frame<S>, follower: &Shape, _: &Pose, ff: &Frame<S>, _: &[ContactPoint]) -> Vec<ContactPoint<S>> {
    face_face(base, fb, follower, ff)
}
