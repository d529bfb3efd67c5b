//! Any two convex shapes (Box, Cylinder, Capsule, ConvexHull, Disk, Rectangle, Ellipsoid, and a
//! Sphere against an Ellipsoid): GJK/EPA for the normal, then the contact patch.
//!
//! 1. GJK (apart) or EPA (overlapping) on the two support maps gives the witnesses `p_a`, `p_b`
//!    and the unit normal `n` from A toward B (parry's `normal1`, which points out of shape 1
//!    toward shape 2; its `dist = (p_b - p_a) · n` is negative when overlapping, the
//!    `separation` of [`ContactPoint::new`]). Apart (`dist > 0`) the pair is that one point.
//! 2. Touching or overlapping, each shape's support feature toward the other (a face polygon, a
//!    segment, or a point) is projected on the plane normal to `n`; their overlap in that plane is
//!    the patch. Each patch vertex `q` becomes one point whose witnesses are the features lifted
//!    along `n` above and below `q`, so `separation = (p_b - p_a) · n` is the gap between the two
//!    features there. A face within 1e-9 of `n` sets `n` to its exact normal.
//! 3. Weights: a face-face patch carries a total weight of 4 (a box flat on a face: its 4
//!    corners at weight 1, as the box-plane pair), a segment 2, a point 1, whatever the polygons'
//!    vertex counts (a hull face with 12 vertices is no stiffer than a box face). The total is
//!    spread over the patch vertices by perimeter share, `w_i = W (e_(i-1) + e_i) / (2 P)`: when a
//!    vertex of one polygon crosses an edge of the other it splits into two coincident points
//!    whose shares add up to its own, so forces stay continuous. The total fades linearly over
//!    the last 10 % of the narrower feature's width, reaching 0 where the patch is as wide as the
//!    depth: there EPA turns the normal to the side faces, whose patch (as wide as the depth)
//!    starts from 0 too, so a body sliding off a finite face loses its support continuously.
//!
//! Curved features are polygons and segments: a cylinder cap (and the disk, a cylinder prism
//! below it) is a regular 24-gon inscribed in the rim, turned so that a vertex lies at the
//! witness azimuth (exact at a rim contact; at most 0.86 % of the radius inside the rim
//! elsewhere); a cylinder side is its generator segment toward `n`; a capsule is its core segment
//! with the radius added along `n`; ellipsoids and spheres are single points. Two nearly
//! parallel segments (sine of their angle below 0.1) blend from the one crossing point to the two
//! ends of their overlap (full at a sine of 0.02), continuously in the angle.
//!
//! Point ids are the slots of the patch vertices in order (`0..m + n` for features of at most `m`
//! and `n` vertices). Left discontinuous: a segment parallel to a face's edge sliding across it
//! (the segment is inside or outside), and EPA's switch of the normal between faces when a body
//! is pushed past an edge by more than the overlap's width.

use std::f64::consts::{FRAC_1_SQRT_2, TAU};

use parry3d_f64::math::Vector as ParryVec;
use parry3d_f64::query::details::contact_support_map_support_map_with_params;
use parry3d_f64::query::gjk::{GJKResult, VoronoiSimplex};
use parry3d_f64::shape::SupportMap;

use super::hull_depth;
use crate::shape::parry::{flat_depth, from_parry_vec, to_parry_pose, to_parry_vec};
use super::small_list::SmallList;
use super::ContactPoint;
use crate::math::{Pose, Vec3};
use crate::shape::{ConvexHull, Shape};

/// Vertices of the regular polygon standing for a cylinder cap or a disk.
pub const CAP_SIDES: usize = 24;
/// A patch narrower than this fraction of the narrower feature carries a reduced weight.
const FADE_FRACTION: f64 = 0.1;
/// Sines of the angle between two segments: below the first, two points at the ends of their
/// overlap; above the second, the one crossing point; blended in between.
const PARALLEL_SINES: (f64, f64) = (0.02, 0.1);
/// A face whose normal is within this of `n` (1 - cos) gives `n` its exact normal.
const SNAP: f64 = 1e-9;

/// A feature's vertices, a projected polygon, a patch: on the stack up to these many (a hull's
/// triangle, a box face, their overlap), on the heap beyond.
type Vertices = SmallList<Vec3, 8>;
type Polygon2 = SmallList<Vec2, 12>;
type Patch = SmallList<PatchPoint, 12>;

/// A convex shape in its geometry frame: a support map and support features.
#[derive(Clone, Copy, Debug)]
pub(super) enum Convex<'a> {
    /// A box centred at (0, 0, centre_z): a Box, or the prism below a Rectangle.
    Box { half: Vec3, centre_z: f64 },
    /// A cylinder along z centred at (0, 0, centre_z): a Cylinder, or the prism below a Disk.
    Cylinder { radius: f64, half_length: f64, centre_z: f64 },
    Capsule { radius: f64, half_length: f64 },
    Ellipsoid { semi_axes: Vec3 },
    Sphere { radius: f64 },
    Hull(&'a ConvexHull),
    /// One triangle of a mesh (its closest points to a convex shape).
    Triangle([Vec3; 3]),
}

impl<'a> Convex<'a> {
    /// The convex view of a shape; `None` for shapes that are not bounded convex solids.
    pub(super) fn of(shape: &'a Shape) -> Option<Convex<'a>> {
        Some(match shape {
            Shape::Box { half_extents } => Convex::Box { half: *half_extents, centre_z: 0.0 },
            Shape::Cylinder { radius, half_length } => Convex::Cylinder { radius: *radius, half_length: *half_length, centre_z: 0.0 },
            Shape::Capsule { radius, half_length } => Convex::Capsule { radius: *radius, half_length: *half_length },
            Shape::Ellipsoid { semi_axes } => Convex::Ellipsoid { semi_axes: *semi_axes },
            Shape::Sphere { radius } => Convex::Sphere { radius: *radius },
            Shape::Point => Convex::Sphere { radius: 0.0 },
            Shape::ConvexHull(hull) => Convex::Hull(hull),
            Shape::Disk { radius } => {
                let depth = flat_depth(shape);
                Convex::Cylinder { radius: *radius, half_length: depth / 2.0, centre_z: -depth / 2.0 }
            }
            Shape::Rectangle { half_x, half_y } => {
                let depth = flat_depth(shape);
                Convex::Box { half: Vec3::new(*half_x, *half_y, depth / 2.0), centre_z: -depth / 2.0 }
            }
            Shape::Plane | Shape::Mesh(_) | Shape::PointCloud(_) | Shape::GridSurface(_) | Shape::Compound(_) => return None,
        })
    }

    /// The most vertices a support feature of this shape has.
    pub(super) fn max_feature_points(&self) -> usize {
        match self {
            Convex::Box { .. } => 4,
            Convex::Cylinder { .. } => CAP_SIDES,
            Convex::Capsule { .. } => 2,
            Convex::Ellipsoid { .. } | Convex::Sphere { .. } => 1,
            Convex::Hull(hull) => hull.faces.iter().map(|f| f.vertices.len()).max().unwrap_or(1),
            Convex::Triangle(_) => 3,
        }
    }

    /// The point of the shape farthest along `d` (local frame; any length).
    pub(super) fn support(&self, d: &Vec3) -> Vec3 {
        let sign = |x: f64| if x < 0.0 { -1.0 } else { 1.0 };
        let unit = |v: Vec3| v.try_normalize(0.0).unwrap_or_else(Vec3::z);
        match self {
            Convex::Box { half, centre_z } => Vec3::new(sign(d.x) * half.x, sign(d.y) * half.y, centre_z + sign(d.z) * half.z),
            Convex::Cylinder { radius, half_length, centre_z } => {
                let radial = Vec3::new(d.x, d.y, 0.0).try_normalize(0.0).unwrap_or_else(Vec3::zeros) * *radius;
                radial + Vec3::new(0.0, 0.0, centre_z + sign(d.z) * half_length)
            }
            Convex::Capsule { radius, half_length } => Vec3::new(0.0, 0.0, sign(d.z) * half_length) + unit(*d) * *radius,
            Convex::Ellipsoid { semi_axes } => ellipsoid_support(semi_axes, d),
            Convex::Sphere { radius } => unit(*d) * *radius,
            Convex::Hull(hull) => hull.vertices.get(hull.support_index(d)).copied().unwrap_or_else(Vec3::zeros),
            Convex::Triangle(t) => t.iter().copied().max_by(|a, b| a.dot(d).total_cmp(&b.dot(d))).unwrap_or_else(Vec3::zeros),
        }
    }

    /// How far the surface lies outside the feature along the normal (a capsule's radius).
    fn rounding(&self) -> f64 {
        match self {
            Convex::Capsule { radius, .. } => *radius,
            _ => 0.0,
        }
    }

    /// The support feature toward the unit direction `d` (local frame); `hint` is a local point
    /// of the contact, which orients a cylinder cap's polygon; `top`, for a hull, its support
    /// vertex along `d` when the caller already has it.
    #[inline(always)]
    fn feature(&self, d: &Vec3, hint: &Vec3, top: Option<usize>) -> Feature {
        match self {
            Convex::Box { half, centre_z } => {
                let (vertices, normal) = box_face(half, *centre_z, d);
                Feature::Polygon { vertices: vertices.into_iter().collect(), normal }
            }
            Convex::Cylinder { radius, half_length, centre_z } => {
                if d.z.abs() > FRAC_1_SQRT_2 {
                    let s = if d.z < 0.0 { -1.0 } else { 1.0 };
                    let phase = if hint.x.hypot(hint.y) > 0.5 * radius { hint.y.atan2(hint.x) } else { 0.0 };
                    let mut vertices: Vertices = (0..CAP_SIDES)
                        .map(|k| {
                            let angle = phase + TAU * k as f64 / CAP_SIDES as f64;
                            Vec3::new(radius * angle.cos(), radius * angle.sin(), centre_z + s * half_length)
                        })
                        .collect();
                    if s < 0.0 {
                        vertices.reverse();
                    }
                    Feature::Polygon { vertices, normal: Vec3::new(0.0, 0.0, s) }
                } else {
                    let radial = Vec3::new(d.x, d.y, 0.0).normalize() * *radius;
                    Feature::Segment(
                        radial + Vec3::new(0.0, 0.0, centre_z - half_length),
                        radial + Vec3::new(0.0, 0.0, centre_z + half_length),
                    )
                }
            }
            Convex::Capsule { half_length, .. } => Feature::Segment(Vec3::new(0.0, 0.0, -half_length), Vec3::new(0.0, 0.0, *half_length)),
            Convex::Ellipsoid { .. } | Convex::Sphere { .. } => Feature::Point(self.support(d)),
            Convex::Hull(hull) => {
                // The face best aligned with d among those around the support vertex.
                let top = top.filter(|&t| t < hull.vertices.len()).unwrap_or_else(|| hull.support_index(d)) as u32;
                let face = hull
                    .graph
                    .faces_of(top as usize)
                    .iter()
                    .map(|&f| &hull.faces[f as usize])
                    .max_by(|a, b| a.normal.dot(d).total_cmp(&b.normal.dot(d)));
                match face {
                    Some(face) => {
                        // (A loop, not a collected map: the map's `next` would not be inlined into
                        // the copies of hull_dispatch.rs.)
                        let mut vertices = Vertices::new();
                        for &i in &face.vertices {
                            vertices.push(hull.vertices[i as usize]);
                        }
                        Feature::Polygon { vertices, normal: face.normal }
                    }
                    None => Feature::Point(hull.vertices[top as usize]),
                }
            }
            Convex::Triangle(t) => {
                let normal = (t[1] - t[0]).cross(&(t[2] - t[0])).try_normalize(0.0).unwrap_or_else(Vec3::z);
                if normal.dot(d) >= 0.0 {
                    Feature::Polygon { vertices: t.iter().copied().collect(), normal }
                } else {
                    Feature::Polygon { vertices: [t[0], t[2], t[1]].into_iter().collect(), normal: -normal }
                }
            }
        }
    }
}

impl SupportMap for Convex<'_> {
    fn local_support_point(&self, dir: ParryVec) -> ParryVec {
        to_parry_vec(&self.support(&from_parry_vec(dir)))
    }
}

/// The face of a box (half extents `half`, centre at `(0, 0, centre_z)`, local frame) toward the
/// unit direction `d`: its four corners, counter-clockwise about its outward normal, and that
/// normal. The contact (here) and its derivatives (kinematics_polytope.rs) take the same face.
#[inline(always)]
pub(super) fn box_face(half: &Vec3, centre_z: f64, d: &Vec3) -> ([Vec3; 4], Vec3) {
    let i = (0..3).max_by(|&i, &j| d[i].abs().total_cmp(&d[j].abs()).then(j.cmp(&i))).unwrap_or(2);
    let (j, k) = ((i + 1) % 3, (i + 2) % 3);
    let s = if d[i] < 0.0 { -1.0 } else { 1.0 };
    let corner = |a: f64, b: f64| {
        let mut p = Vec3::zeros();
        p[i] = s * half[i];
        p[j] = a * half[j];
        p[k] = b * half[k];
        p + Vec3::new(0.0, 0.0, centre_z)
    };
    // Counter-clockwise about +axis i, since (j, k, i) is right-handed.
    let mut vertices = [corner(1.0, 1.0), corner(-1.0, 1.0), corner(-1.0, -1.0), corner(1.0, -1.0)];
    if s < 0.0 {
        vertices.reverse();
    }
    let mut normal = Vec3::zeros();
    normal[i] = s;
    (vertices, normal)
}

/// The support point of an ellipsoid with semi-axes `a` along `d`: `A^2 d / |A d|` with
/// `A = diag(a)` (the point where the outward normal `A^-2 x` is parallel to `d`).
pub(super) fn ellipsoid_support(a: &Vec3, d: &Vec3) -> Vec3 {
    let ad = a.component_mul(d);
    let norm = ad.norm();
    if norm == 0.0 {
        return Vec3::new(0.0, 0.0, a.z);
    }
    a.component_mul(&ad) / norm
}

/// A support feature, in W.
#[derive(Clone, Debug)]
enum Feature {
    /// A planar convex polygon, counter-clockwise about its outward normal.
    Polygon { vertices: Vertices, normal: Vec3 },
    Segment(Vec3, Vec3),
    Point(Vec3),
}

impl Feature {
    /// The feature moved from its shape's frame into W, in place (see make_counter_clockwise).
    #[inline(always)]
    fn move_to_world(&mut self, pose: &Pose) {
        match self {
            Feature::Polygon { vertices, normal } => {
                for v in vertices.iter_mut() {
                    *v = pose.transform_point(v);
                }
                *normal = pose.q * *normal;
            }
            Feature::Segment(a, b) => (*a, *b) = (pose.transform_point(a), pose.transform_point(b)),
            Feature::Point(p) => *p = pose.transform_point(p),
        }
    }
}

/// Witnesses and normal of the closest (apart) or deepest (overlapping) pair, in W, with
/// `dist = (p_b - p_a) · n`.
struct Closest {
    p_a: Vec3,
    p_b: Vec3,
    normal: Vec3,
    dist: f64,
    /// The witnesses in each shape's own frame.
    local_a: Vec3,
    local_b: Vec3,
    /// The hulls' support vertices along the normal (hull-hull search), so that the support
    /// features start from them instead of climbing again.
    tops: Option<[usize; 2]>,
}

/// GJK/EPA between two convex shapes, checked and polished when overlapping.
///
/// Overlapping, any unit direction m bounds the signed distance from below:
/// `s(m) = (s_b(-m) - s_a(m)) · m <= dist` (supports s_a, s_b), with equality along the true
/// normal, where `s_a(m) - s_b(-m)` is parallel to m. EPA's answer is taken when no direction
/// does better; otherwise (EPA can stall on smooth shapes, or start from a degenerate simplex)
/// the fixed-point iteration `m <- (s_a(m) - s_b(-m)) / |...|` from EPA's normal and from the
/// line of centres gives the best direction found.
#[inline(always)]
fn closest(a: &Convex, pose_a: &Pose, b: &Convex, pose_b: &Pose) -> Option<Closest> {
    if let (Convex::Hull(hull_a), Convex::Hull(hull_b)) = (a, b) {
        // Two overlapping hulls: the exact least-overlap direction from their Gauss maps.
        // The search found vertices next to the supports along it: the climbs start there.
        if let Some((normal, [seed_a, seed_b])) = hull_depth::penetration_normal(hull_a, pose_a, hull_b, pose_b) {
            let top_a = hull_a.support_index_from(&(pose_a.q.inverse() * normal), seed_a);
            let top_b = hull_b.support_index_from(&(pose_b.q.inverse() * -normal), seed_b);
            let (local_a, local_b) = (hull_a.vertices[top_a], hull_b.vertices[top_b]);
            let (p_a, p_b) = (pose_a.transform_point(&local_a), pose_b.transform_point(&local_b));
            let dist = (p_b - p_a).dot(&normal);
            return Some(Closest { p_a, p_b, normal, dist, local_a, local_b, tops: Some([top_a, top_b]) });
        }
    }
    closest_general(a, pose_a, b, pose_b)
}

/// [`closest`] by GJK/EPA and the polish, for any two convex shapes.
fn closest_general(a: &Convex, pose_a: &Pose, b: &Convex, pose_b: &Pose) -> Option<Closest> {
    let along = |m: &Vec3| {
        let local_a = a.support(&(pose_a.q.inverse() * m));
        let local_b = b.support(&(pose_b.q.inverse() * -m));
        let (p_a, p_b) = (pose_a.transform_point(&local_a), pose_b.transform_point(&local_b));
        Closest { p_a, p_b, normal: *m, dist: (p_b - p_a).dot(m), local_a, local_b, tops: None }
    };
    let epa = epa(a, pose_a, b, pose_b);
    let scale = 1.0 + (pose_b.r - pose_a.r).norm();
    // EPA's answer is consistent when the supports along its normal give its distance.
    let trusted = epa.as_ref().is_some_and(|e| (along(&e.normal).dist - e.dist).abs() <= 1e-9 * scale);
    if trusted && epa.as_ref().is_some_and(|e| e.dist > 0.0) {
        return epa;
    }
    let mut starts = vec![(pose_b.r - pose_a.r).try_normalize(1e-300).unwrap_or_else(Vec3::z)];
    if let Some(e) = &epa {
        starts.insert(0, e.normal);
    }
    let mut best: Option<Closest> = None;
    for start in starts {
        let mut m = start;
        for _ in 0..100 {
            let candidate = along(&m);
            let next = (candidate.p_a - candidate.p_b).try_normalize(1e-300);
            if best.as_ref().is_none_or(|b| candidate.dist > b.dist) {
                best = Some(candidate);
            }
            match next {
                Some(next) if (next - m).norm() > 1e-15 && best.as_ref().is_some_and(|b| b.dist <= 0.0) => m = next,
                _ => break,
            }
        }
    }
    match (epa, best) {
        (Some(e), Some(b)) if trusted && b.dist <= e.dist + 1e-9 * scale => Some(e),
        (_, best) => best,
    }
}

/// GJK, then EPA when overlapping; `None` if EPA fails from every start.
fn epa(a: &Convex, pose_a: &Pose, b: &Convex, pose_b: &Pose) -> Option<Closest> {
    let (parry_a, parry_b) = (to_parry_pose(pose_a), to_parry_pose(pose_b));
    let pos12 = parry_a.inv_mul(&parry_b);
    // An unbounded prediction: GJK returns the closest points however far apart. EPA can fail
    // on a degenerate starting simplex (deeply overlapping smooth shapes): start GJK elsewhere.
    let starts = [None, Some(ParryVec::X), Some(ParryVec::Y), Some(ParryVec::Z), Some(-ParryVec::X), Some(-ParryVec::Y), Some(-ParryVec::Z)];
    for start in starts {
        if let GJKResult::ClosestPoints(p1, p2_1, n1) =
            contact_support_map_support_map_with_params(&pos12, a, b, f64::MAX, &mut VoronoiSimplex::new(), start)
        {
            let local_a = from_parry_vec(p1);
            let local_b = from_parry_vec(pos12.inverse_transform_point(p2_1));
            let Some(normal) = (pose_a.q * from_parry_vec(n1)).try_normalize(0.0) else {
                continue;
            };
            let (p_a, p_b) = (pose_a.transform_point(&local_a), pose_b.transform_point(&local_b));
            return Some(Closest { p_a, p_b, normal, dist: (p_b - p_a).dot(&normal), local_a, local_b, tops: None });
        }
    }
    None
}

/// The closest points of two convex shapes, in W, with the unit normal from A toward B and the
/// signed distance along it (negative when overlapping).
pub(super) fn closest_pair(a: &Convex, pose_a: &Pose, b: &Convex, pose_b: &Pose) -> Option<(Vec3, Vec3, Vec3, f64)> {
    closest(a, pose_a, b, pose_b).map(|c| (c.p_a, c.p_b, c.normal, c.dist))
}

/// The contacts of two convex shapes: the closest or deepest pair, then the patch of the two
/// features along its normal. (`inline(always)`, as every function it calls but GJK/EPA: compiled
/// inside each copy of hull_dispatch.rs.)
#[inline(always)]
pub(super) fn contacts_of(a: &Convex, pose_a: &Pose, b: &Convex, pose_b: &Pose, out: &mut Vec<ContactPoint>) {
    let Some(c) = closest(a, pose_a, b, pose_b) else {
        // EPA did not converge: fall back on the supports along the line of centres.
        let d = (pose_b.r - pose_a.r).try_normalize(0.0).unwrap_or_else(Vec3::z);
        let p_a = pose_a.transform_point(&a.support(&(pose_a.q.inverse() * d)));
        let p_b = pose_b.transform_point(&b.support(&(pose_b.q.inverse() * -d)));
        out.push(ContactPoint::new(p_a, p_b, d));
        return;
    };
    if c.dist > 0.0 {
        out.push(ContactPoint::new(c.p_a, c.p_b, c.normal));
        return;
    }
    let (top_a, top_b) = (c.tops.map(|t| t[0]), c.tops.map(|t| t[1]));
    let mut fa = a.feature(&(pose_a.q.inverse() * c.normal), &c.local_a, top_a);
    let mut fb = b.feature(&(pose_b.q.inverse() * -c.normal), &c.local_b, top_b);
    fa.move_to_world(pose_a);
    fb.move_to_world(pose_b);
    let mut n = c.normal;
    if let Feature::Polygon { normal, .. } = &fa {
        if normal.dot(&n) > 1.0 - SNAP {
            n = *normal;
        }
    } else if let Feature::Polygon { normal, .. } = &fb {
        if -normal.dot(&n) > 1.0 - SNAP {
            n = -*normal;
        }
    }
    let plane = PatchPlane::new(c.p_a, n);
    let mut patch = Patch::new();
    patch_into(&plane, &fa, &fb, -c.dist, &mut patch);
    if patch.is_empty() {
        out.push(ContactPoint::new(c.p_a, c.p_b, c.normal));
        return;
    }
    let (ra, rb) = (a.rounding(), b.rounding());
    for (id, entry) in patch.iter().enumerate() {
        let p_a = plane.lift(&fa, &entry.q_a, 1.0) + n * ra;
        let p_b = plane.lift(&fb, &entry.q_b, -1.0) - n * rb;
        out.push(ContactPoint::new(p_a, p_b, n).with_id(id as u32).with_weight(entry.weight));
    }
}

/// The closest surface point of a convex hull to `local` (hull frame), the outward normal there
/// and the signed distance. Inside, the nearest face plane is the nearest surface:
/// `distance = max_f (n_f · p - n_f · v_f) <= 0`; outside, parry's projection on the polyhedron.
pub(super) fn hull_surface(hull: &ConvexHull, local: &Vec3) -> (Vec3, Vec3, f64) {
    use parry3d_f64::query::PointQuery;
    let nearest = hull
        .faces
        .iter()
        .map(|f| (f.normal, (local - hull.vertices[f.vertices[0] as usize]).dot(&f.normal)))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let Some((normal, height)) = nearest else {
        return (*local, Vec3::z(), 0.0);
    };
    if height <= 0.0 {
        return (local - normal * height, normal, height);
    }
    let projected = from_parry_vec(hull.polyhedron.project_local_point(to_parry_vec(local), false).point);
    let offset = local - projected;
    let distance = offset.norm();
    if distance <= 0.0 {
        return (projected, normal, 0.0);
    }
    (projected, offset / distance, distance)
}

type Vec2 = nalgebra::Vector2<f64>;

/// The index after `i` around a polygon of `n` vertices (without an integer division).
#[inline(always)]
fn after(i: usize, n: usize) -> usize {
    if i + 1 >= n {
        0
    } else {
        i + 1
    }
}

#[inline(always)]
fn cross2(a: &Vec2, b: &Vec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// The plane normal to `n` through `origin`, with an orthonormal basis.
struct PatchPlane {
    origin: Vec3,
    n: Vec3,
    e1: Vec3,
    e2: Vec3,
}

impl PatchPlane {
    #[inline(always)]
    fn new(origin: Vec3, n: Vec3) -> PatchPlane {
        let helper = if n.x.abs() < 0.6 { Vec3::x() } else { Vec3::y() };
        let e1 = n.cross(&helper).normalize();
        let e2 = n.cross(&e1);
        PatchPlane { origin, n, e1, e2 }
    }

    #[inline(always)]
    fn project(&self, p: &Vec3) -> Vec2 {
        let d = p - self.origin;
        Vec2::new(d.dot(&self.e1), d.dot(&self.e2))
    }

    #[inline(always)]
    fn point(&self, q: &Vec2) -> Vec3 {
        self.origin + self.e1 * q.x + self.e2 * q.y
    }

    /// The point of `feature` on the line along n through q. A segment seen end-on gives its end
    /// farthest toward the other shape (`side` = +1 for A, which looks along +n; -1 for B).
    #[inline(always)]
    fn lift(&self, feature: &Feature, q: &Vec2, side: f64) -> Vec3 {
        match feature {
            Feature::Polygon { vertices, normal } => {
                let at = self.point(q);
                let denominator = self.n.dot(normal);
                if denominator.abs() < 1e-12 {
                    return at;
                }
                at + self.n * ((vertices[0] - at).dot(normal) / denominator)
            }
            Feature::Segment(a, b) => {
                let (a2, b2) = (self.project(a), self.project(b));
                let length2 = (b2 - a2).norm_squared();
                if length2 <= 1e-24 * (a - b).norm_squared().max(1e-300) {
                    return if side * a.dot(&self.n) >= side * b.dot(&self.n) { *a } else { *b };
                }
                let t = ((q - a2).dot(&(b2 - a2)) / length2).clamp(0.0, 1.0);
                a + (b - a) * t
            }
            Feature::Point(p) => *p,
        }
    }
}

/// One patch vertex: where it lies on each feature's projection, and its weight.
#[derive(Clone, Copy, Debug, Default)]
struct PatchPoint {
    q_a: Vec2,
    q_b: Vec2,
    weight: f64,
}

#[inline(always)]
fn same(q: Vec2, weight: f64) -> PatchPoint {
    PatchPoint { q_a: q, q_b: q, weight }
}

/// The patch of the two features (in W) on the plane, into `out` (empty). (Polygons are filled
/// where they are used, not returned: see make_counter_clockwise.)
#[inline(always)]
fn patch_into(plane: &PatchPlane, fa: &Feature, fb: &Feature, depth: f64, out: &mut Patch) {
    match (fa, fb) {
        (Feature::Point(p), _) | (_, Feature::Point(p)) => out.push(same(plane.project(p), 1.0)),
        (Feature::Polygon { vertices: va, .. }, Feature::Polygon { vertices: vb, .. }) => {
            let (mut pa, mut pb) = (Polygon2::new(), Polygon2::new());
            polygon_on(plane, va, &mut pa);
            polygon_on(plane, vb, &mut pb);
            polygon_polygon_into(&pa, &pb, depth, out);
        }
        (Feature::Polygon { vertices, .. }, Feature::Segment(a, b)) | (Feature::Segment(a, b), Feature::Polygon { vertices, .. }) => {
            let mut polygon = Polygon2::new();
            polygon_on(plane, vertices, &mut polygon);
            *out = segment_polygon(plane.project(a), plane.project(b), &polygon, depth);
        }
        (Feature::Segment(a0, a1), Feature::Segment(b0, b1)) => {
            *out = segment_segment(plane.project(a0), plane.project(a1), plane.project(b0), plane.project(b1), depth);
        }
    }
}

/// The vertices projected on the plane, counter-clockwise, into `out` (empty). (A loop, not a
/// collected map: the map's `next` would not be inlined into the copies of hull_dispatch.rs.)
#[inline(always)]
fn polygon_on(plane: &PatchPlane, vertices: &[Vec3], out: &mut Polygon2) {
    for v in vertices {
        out.push(plane.project(v));
    }
    make_counter_clockwise(out);
}

/// The polygon with its vertices counter-clockwise (positive signed area).
#[cfg(test)]
fn counter_clockwise(mut polygon: Polygon2) -> Polygon2 {
    make_counter_clockwise(&mut polygon);
    polygon
}

/// The polygon with its vertices counter-clockwise (positive signed area), in place. (The
/// patch's lists are changed where they are, not moved: a move copies a list through vector
/// registers just after its items were stored one by one, and its loads wait for those stores
/// to reach the cache.)
#[inline(always)]
fn make_counter_clockwise(polygon: &mut Polygon2) {
    let area: f64 = (0..polygon.len()).map(|i| cross2(&polygon[i], &polygon[after(i, polygon.len())])).sum();
    if area < 0.0 {
        polygon.reverse();
    }
}

/// Sutherland-Hodgman: `subject` clipped by the convex counter-clockwise polygon `clip`. The
/// result is one of `buffers` (empty), each edge's input the other's output, taken by reference
/// (not swapped: see make_counter_clockwise).
#[inline(always)]
fn clip_polygon<'a>(subject: &[Vec2], clip: &[Vec2], buffers: &'a mut [Polygon2; 2]) -> &'a Polygon2 {
    for &p in subject {
        buffers[0].push(p);
    }
    let mut live = 0;
    for i in 0..clip.len() {
        let (c0, c1) = (clip[i], clip[after(i, clip.len())]);
        let edge = c1 - c0;
        if edge.norm_squared() == 0.0 {
            continue;
        }
        let (first, second) = buffers.split_at_mut(1);
        let (input, output) = if live == 0 { (&first[0], &mut second[0]) } else { (&second[0], &mut first[0]) };
        live = 1 - live;
        output.clear();
        let side = |p: &Vec2| cross2(&edge, &(p - c0));
        let Some(&last) = input.last() else { break };
        let (mut previous, mut s_previous) = (last, side(&last));
        for &current in input.iter() {
            let s_current = side(&current);
            if s_current >= 0.0 {
                if s_previous < 0.0 {
                    output.push(previous + (current - previous) * (s_previous / (s_previous - s_current)));
                }
                output.push(current);
            } else if s_previous >= 0.0 {
                output.push(previous + (current - previous) * (s_previous / (s_previous - s_current)));
            }
            (previous, s_previous) = (current, s_current);
        }
        if output.is_empty() {
            break;
        }
    }
    &buffers[live]
}

/// Width of a convex polygon: the least extent across any of its edges' directions.
#[inline(always)]
fn width(polygon: &[Vec2]) -> f64 {
    let mut least = f64::INFINITY;
    for i in 0..polygon.len() {
        let edge = polygon[after(i, polygon.len())] - polygon[i];
        let length = edge.norm();
        if length <= 0.0 {
            continue;
        }
        // (One division: the largest quotient is the largest cross product's.)
        let extent = polygon.iter().map(|p| cross2(&edge, &(p - polygon[i])).abs()).fold(0.0, f64::max) / length;
        least = least.min(extent);
    }
    if least.is_finite() {
        least
    } else {
        0.0
    }
}

/// 1 for a patch wider than the depth by 10 % of the narrower feature, falling linearly to 0
/// where its width equals the depth: there EPA's normal turns to the side faces (the sideways
/// overlap becomes the shallower one), whose patch, as wide as the depth, starts from 0 too.
#[inline(always)]
fn fade(patch_width: f64, width_a: f64, width_b: f64, depth: f64) -> f64 {
    let reference = FADE_FRACTION * width_a.min(width_b);
    if reference <= 0.0 {
        return 1.0;
    }
    ((patch_width - depth.max(0.0)) / reference).clamp(0.0, 1.0)
}

/// [`polygon_polygon_into`] returned.
#[cfg(test)]
fn polygon_polygon(pa: &[Vec2], pb: &[Vec2], depth: f64) -> Patch {
    let mut patch = Patch::new();
    polygon_polygon_into(pa, pb, depth, &mut patch);
    patch
}

/// The patch of two counter-clockwise polygons, into `patch` (empty).
#[inline(always)]
fn polygon_polygon_into(pa: &[Vec2], pb: &[Vec2], depth: f64, patch: &mut Patch) {
    let mut buffers = [Polygon2::new(), Polygon2::new()];
    let clipped = clip_polygon(pa, pb, &mut buffers);
    if clipped.is_empty() {
        return;
    }
    let total = 4.0 * fade(width(clipped), width(pa), width(pb), depth);
    let count = clipped.len();
    // (Loops, not collected maps: a map's `next` would not be inlined into the copies of
    // hull_dispatch.rs.)
    let mut edges: SmallList<f64, 12> = SmallList::new();
    for i in 0..count {
        edges.push((clipped[after(i, count)] - clipped[i]).norm());
    }
    let perimeter: f64 = edges.iter().sum();
    for i in 0..count {
        let share = if perimeter > 0.0 { (edges[if i == 0 { count - 1 } else { i - 1 }] + edges[i]) / (2.0 * perimeter) } else { 1.0 / count as f64 };
        patch.push(same(clipped[i], total * share));
    }
}

#[inline(always)]
fn segment_polygon(a: Vec2, b: Vec2, polygon: &[Vec2], depth: f64) -> Patch {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for i in 0..polygon.len() {
        let (c0, c1) = (polygon[i], polygon[after(i, polygon.len())]);
        let edge = c1 - c0;
        if edge.norm_squared() == 0.0 {
            continue;
        }
        let (sa, sb) = (cross2(&edge, &(a - c0)), cross2(&edge, &(b - c0)));
        if sa < 0.0 && sb < 0.0 {
            return Patch::new();
        }
        if sa < 0.0 {
            t0 = t0.max(sa / (sa - sb));
        } else if sb < 0.0 {
            t1 = t1.min(sa / (sa - sb));
        }
    }
    if t0 > t1 {
        return Patch::new();
    }
    let length = (b - a).norm();
    if length <= 1e-12 * width(polygon) {
        // Seen end-on: one point.
        return [same(a, 1.0)].into_iter().collect();
    }
    let total = 2.0 * fade((t1 - t0) * length, length, width(polygon), depth);
    [same(a + (b - a) * t0, total / 2.0), same(a + (b - a) * t1, total / 2.0)].into_iter().collect()
}

/// The point of segment a-b nearest to p.
fn nearest_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let d = b - a;
    let length2 = d.norm_squared();
    if length2 == 0.0 {
        return a;
    }
    a + d * ((p - a).dot(&d) / length2).clamp(0.0, 1.0)
}

/// Closest points of two 2D segments (the crossing point twice when they cross).
fn closest_segments(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> (Vec2, Vec2) {
    let (da, db) = (a1 - a0, b1 - b0);
    let denominator = cross2(&da, &db);
    if denominator != 0.0 {
        let s = cross2(&(b0 - a0), &db) / denominator;
        let t = cross2(&(b0 - a0), &da) / denominator;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            let p = a0 + da * s;
            return (p, p);
        }
    }
    // Otherwise an endpoint of one is involved.
    let candidates = [
        (a0, nearest_on_segment(b0, b1, a0)),
        (a1, nearest_on_segment(b0, b1, a1)),
        (nearest_on_segment(a0, a1, b0), b0),
        (nearest_on_segment(a0, a1, b1), b1),
    ];
    candidates.into_iter().min_by(|x, y| (x.0 - x.1).norm_squared().total_cmp(&(y.0 - y.1).norm_squared())).unwrap_or((a0, b0))
}

#[inline(always)]
fn segment_segment(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2, depth: f64) -> Patch {
    let (la, lb) = ((a1 - a0).norm(), (b1 - b0).norm());
    let (crossing_a, crossing_b) = closest_segments(a0, a1, b0, b1);
    if la == 0.0 || lb == 0.0 {
        return [PatchPoint { q_a: crossing_a, q_b: crossing_b, weight: 1.0 }].into_iter().collect();
    }
    let sine = cross2(&(a1 - a0), &(b1 - b0)).abs() / (la * lb);
    let crossing = ((sine - PARALLEL_SINES.0) / (PARALLEL_SINES.1 - PARALLEL_SINES.0)).clamp(0.0, 1.0);
    let mut points = Patch::new();
    let mut overlap_weight = 0.0;
    if crossing < 1.0 {
        // The part of A lying alongside B.
        let u = (a1 - a0) / la;
        let (s0, s1) = ((b0 - a0).dot(&u) / la, (b1 - a0).dot(&u) / la);
        let (t0, t1) = (s0.min(s1).max(0.0), s0.max(s1).min(1.0));
        if t1 >= t0 {
            overlap_weight = (1.0 - crossing) * fade((t1 - t0) * la, la, lb, depth);
            for t in [t0, t1] {
                let q_a = a0 + (a1 - a0) * t;
                points.push(PatchPoint { q_a, q_b: nearest_on_segment(b0, b1, q_a), weight: overlap_weight });
            }
        }
    }
    let crossing_weight = 1.0 - overlap_weight;
    if crossing_weight > 0.0 {
        points.push(PatchPoint { q_a: crossing_a, q_b: crossing_b, weight: crossing_weight });
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(c: Vec2, h: f64) -> Vec<Vec2> {
        vec![c + Vec2::new(h, h), c + Vec2::new(-h, h), c + Vec2::new(-h, -h), c + Vec2::new(h, -h)]
    }

    #[test]
    fn square_inside_a_larger_one_keeps_its_corners_at_unit_weight() {
        let patch = polygon_polygon(&square(Vec2::new(0.1, 0.0), 0.5), &square(Vec2::zeros(), 2.0), 1e-3);
        assert_eq!(patch.len(), 4);
        assert!(patch.iter().all(|p| (p.weight - 1.0).abs() < 1e-15));
    }

    #[test]
    fn weights_are_continuous_when_a_corner_crosses_an_edge() {
        // A small square's corner crosses the edge x = 1 of a large one; the sum of the weights
        // and the weighted centroid change by O(step), not by a jump.
        let big = square(Vec2::zeros(), 1.0);
        let moments = |x: f64| {
            let small = counter_clockwise(Polygon2::from_iter([
                Vec2::new(x, 0.0),
                Vec2::new(x - 0.3, 0.3),
                Vec2::new(x - 0.6, 0.0),
                Vec2::new(x - 0.3, -0.3),
            ]));
            let patch = polygon_polygon(&small, &big, 1e-3);
            let total: f64 = patch.iter().map(|p| p.weight).sum();
            let moment: Vec2 = patch.iter().map(|p| p.q_a * p.weight).sum();
            (total, moment)
        };
        let (before, after) = (moments(1.0 - 1e-9), moments(1.0 + 1e-9));
        assert!((before.0 - after.0).abs() < 1e-6);
        assert!((before.1 - after.1).norm() < 1e-6);
    }

    #[test]
    fn a_patch_fades_out_as_it_narrows_to_nothing() {
        let big = square(Vec2::zeros(), 1.0);
        let total = |x: f64| polygon_polygon(&square(Vec2::new(x, 0.0), 0.5), &big, 0.01).iter().map(|p| p.weight).sum::<f64>();
        assert!((total(0.4) - 4.0).abs() < 1e-12);
        // 0.06 wide at a depth of 0.01 over a 1 wide square: half of 10 %.
        assert!((total(1.44) - 2.0).abs() < 1e-9);
        // As wide as the depth: nothing.
        assert!(total(1.49) < 1e-9);
    }

    #[test]
    fn segments_blend_from_crossing_to_parallel_continuously() {
        let total = |sine: f64| {
            let angle = sine.asin();
            let b = Vec2::new(angle.cos(), angle.sin());
            segment_segment(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), -b, b, 1e-3).iter().map(|p| p.weight).sum::<f64>()
        };
        assert!((total(0.5) - 1.0).abs() < 1e-12);
        assert!((total(0.0) - 2.0).abs() < 1e-12);
        assert!((total(0.06) - 1.5).abs() < 1e-9);
        assert!((total(0.1 - 1e-9) - total(0.1 + 1e-9)).abs() < 1e-6);
    }

    #[test]
    fn overlapping_round_hulls_get_the_normal_and_depth_of_epa_and_its_polish() {
        // Two 400-vertex spheres about 2 to 7 mm into each other at random orientations: the Gauss
        // map search answers (exactly) and agrees with GJK/EPA and the polish to their tolerance.
        fn next(seed: &mut u64) -> f64 {
            *seed ^= *seed >> 12;
            *seed ^= *seed << 25;
            *seed ^= *seed >> 27;
            (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
        }
        fn unit(seed: &mut u64) -> Vec3 {
            loop {
                let v = Vec3::new(next(seed) * 2.0 - 1.0, next(seed) * 2.0 - 1.0, next(seed) * 2.0 - 1.0);
                if v.norm_squared() > 1e-4 && v.norm_squared() <= 1.0 {
                    return v.normalize();
                }
            }
        }
        let seed = &mut 0x9e37_79b9_7f4a_7c15_u64;
        let points: Vec<Vec3> = (0..400).map(|_| unit(seed) * 0.1).collect();
        let hull = ConvexHull::new(&points).unwrap();
        let shape = Convex::Hull(&hull);
        let mut answered = 0;
        for round in 0..30 {
            let turn = |u: Vec3, angle: f64| crate::math::Rotation::from_scaled_axis(u * angle);
            let pose_a = Pose { r: Vec3::new(0.0, 0.0, 0.0), q: turn(unit(seed), 2.0) };
            let direction = unit(seed);
            let pose_b = Pose { r: direction * (0.193 + 0.005 * next(seed)), q: turn(unit(seed), 2.5) };
            let Some(exact) = closest(&shape, &pose_a, &shape, &pose_b) else { panic!("round {round}: no answer") };
            let general = closest_general(&shape, &pose_a, &shape, &pose_b).unwrap();
            if hull_depth::penetration_normal(&hull, &pose_a, &hull, &pose_b).is_none() {
                assert!(exact.dist > 0.0, "round {round}: overlapping by {} without an answer", -exact.dist);
                continue;
            }
            answered += 1;
            assert!(exact.dist >= general.dist - 1e-15, "round {round}: {} deeper than {}", exact.dist, general.dist);
            assert!((exact.dist - general.dist).abs() < 1e-9, "round {round}: {} vs {}", exact.dist, general.dist);
            assert!((exact.normal - general.normal).norm() < 1e-6, "round {round}: {:?} vs {:?}", exact.normal, general.normal);
        }
        assert!(answered >= 20, "{answered} overlapping");
    }

    #[test]
    fn ellipsoid_support_lies_on_the_surface_with_normal_along_d() {
        let a = Vec3::new(0.3, 0.5, 0.9);
        let d = Vec3::new(0.2, -0.7, 0.4).normalize();
        let s = ellipsoid_support(&a, &d);
        assert!((s.component_div(&a).norm_squared() - 1.0).abs() < 1e-14);
        let normal = s.component_div(&a.component_mul(&a)).normalize();
        assert!((normal - d).norm() < 1e-14);
    }
}
