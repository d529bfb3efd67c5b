//! Contact kinematics of two convex polytopes (Box, ConvexHull, and the box prism below a
//! Rectangle), and of an ellipsoid or a capsule against one, over any [`Real`], re-derived from the points
//! `convex.rs` found with their features held, and the surface query of a convex hull (a
//! sphere, point or cloud point against it).
//!
//! `convex.rs` is not generic: it finds the normal by GJK/EPA, then clips the two support faces'
//! projections into the contact patch. Here the features are identified after the fact from its
//! `f64` points and the shapes' vertices and faces, and the patch is rebuilt over the frames:
//!
//! - **Normal**: A's support face normal when the points carry it (`convex.rs` snaps to it); B's
//!   (reversed) when the points' normal is B's face normal to EPA's precision; otherwise the
//!   normal of an edge-edge contact, `±(e_a × e_b) / |e_a × e_b|` of the support edges of A along
//!   `n` and of B along `-n`.
//! - **Patch**: the two support faces (the same faces, in the same vertex order, as `convex.rs`
//!   takes along the points' normal) projected on the plane normal to `n` and clipped
//!   (Sutherland-Hodgman, every branch decided on the values), so each patch vertex is a face
//!   vertex or the crossing of two edges' lines, as functions of the poses; the weights (perimeter
//!   shares, the fade over the patch's width against the depth `max_A n·a - min_B n·b`) and the
//!   lift of each patch vertex onto both faces along `n` follow.
//! - **One point** (apart, or the fallback of an empty patch): each witness is classified as a
//!   vertex, a point of an edge or of a face of its shape; vertex-anything gives the projection
//!   of the vertex on the other feature, edge-edge the closest points of the two lines. Witness
//!   pairs that are not unique (edge-face, face-face: parallel features) are not differentiable.
//!
//! Where the re-derivation does not reproduce the `f64` points (a feature the identification
//! cannot name), the tangents are NaN, which the FMU reports as non-finite derivatives rather
//! than returning wrong numbers.

use std::borrow::Cow;

use nalgebra::{Vector2, Vector3};

use super::convex::box_face;
use super::frame::Frame;
use super::ContactPoint;
use crate::math::{Pose, Vec3};
use crate::real::Real;
use crate::shape::{ConvexHull, Shape};

/// `convex.rs`'s constants (the patch's construction).
const SNAP: f64 = 1e-9;
const FADE_FRACTION: f64 = 0.1;
/// Features identified to this fraction of the shapes' size.
const FEATURE_TOLERANCE: f64 = 1e-7;
/// The re-derived points must reproduce the `f64` ones to this fraction of the shapes' size
/// (a wrong feature misses by a good part of it): polytopes, whose `f64` points are exact to
/// rounding, and curved shapes (an ellipsoid, a capsule), whose `f64` normal and witnesses come
/// from iterations (GJK, a fixed-point polish) that stop about 1e-6 of the sizes short.
const VALUE_TOLERANCE: f64 = 1e-6;
const CURVED_VALUE_TOLERANCE: f64 = 1e-4;

/// A convex polytope in its geometry frame.
#[derive(Clone, Copy, Debug)]
pub(super) enum Polytope<'a> {
    /// A box centred at (0, 0, centre_z): a Box, or the prism below a Rectangle.
    Box { half: Vec3, centre_z: f64 },
    Hull(&'a ConvexHull),
}

impl<'a> Polytope<'a> {
    /// The polytope view of a shape, as `convex.rs` sees it; `None` for other shapes.
    pub(super) fn of(shape: &'a Shape) -> Option<Polytope<'a>> {
        Some(match shape {
            Shape::Box { half_extents } => Polytope::Box { half: *half_extents, centre_z: 0.0 },
            Shape::Rectangle { half_x, half_y } => {
                let depth = crate::shape::parry::flat_depth(shape);
                Polytope::Box { half: Vec3::new(*half_x, *half_y, depth / 2.0), centre_z: -depth / 2.0 }
            }
            Shape::ConvexHull(hull) if !hull.faces.is_empty() => Polytope::Hull(hull),
            _ => return None,
        })
    }

    /// The vertices in the geometry frame (a hull's own, not copied).
    fn vertices(&self) -> Cow<'a, [Vec3]> {
        match *self {
            Polytope::Box { half, centre_z } => Cow::Owned((0..8).map(|i| box_corner(i, &half, centre_z)).collect()),
            Polytope::Hull(hull) => Cow::Borrowed(&hull.vertices),
        }
    }

    /// The index (in [`Polytope::vertices`]) of a vertex farthest along the local direction `d`:
    /// a hull's support query (the vertex a scan of the vertices finds, as `convex.rs` takes
    /// it), a box's corner on the side of each of `d`'s signs.
    fn support_vertex(&self, d: &Vec3) -> usize {
        match self {
            Polytope::Box { .. } => (0..3).filter(|&k| d[k] >= 0.0).map(|k| 1 << k).sum(),
            Polytope::Hull(hull) => hull.support_index(d),
        }
    }

    /// The edges as vertex index pairs.
    fn edges(&self) -> Vec<(usize, usize)> {
        match self {
            Polytope::Box { .. } => (0..8).flat_map(|i| [1, 2, 4].into_iter().filter(move |bit| i & bit == 0).map(move |bit| (i, i | bit))).collect(),
            Polytope::Hull(hull) => {
                let graph = &hull.graph;
                (0..hull.vertices.len())
                    .flat_map(|i| {
                        graph.neighbors[graph.neighbor_start[i] as usize..graph.neighbor_start[i + 1] as usize]
                            .iter()
                            .map(move |&j| (i, j as usize))
                            .filter(|(i, j)| i < j)
                    })
                    .collect()
            }
        }
    }

    /// The faces: a vertex index and the outward unit normal.
    fn face_planes(&self) -> Vec<(usize, Vec3)> {
        match self {
            Polytope::Box { .. } => (0..3)
                .flat_map(|k| {
                    [(0usize, -1.0), (1 << k, 1.0)].map(|(corner, s)| {
                        let mut normal = Vec3::zeros();
                        normal[k] = s;
                        (corner, normal)
                    })
                })
                .collect(),
            Polytope::Hull(hull) => hull.faces.iter().map(|f| (f.vertices[0] as usize, f.normal)).collect(),
        }
    }

    /// The support face toward the local direction `d`, exactly as `convex.rs` takes it: its
    /// vertices (in its order) and outward normal.
    fn support_face(&self, d: &Vec3) -> (Vec<Vec3>, Vec3) {
        match self {
            Polytope::Box { half, centre_z } => {
                let (vertices, normal) = box_face(half, *centre_z, d);
                (vertices.to_vec(), normal)
            }
            Polytope::Hull(hull) => {
                let top = hull.support_index(d);
                let face = hull
                    .graph
                    .faces_of(top)
                    .iter()
                    .map(|&f| &hull.faces[f as usize])
                    .max_by(|a, b| a.normal.dot(d).total_cmp(&b.normal.dot(d)))
                    .unwrap_or(&hull.faces[0]);
                (face.vertices.iter().map(|&i| hull.vertices[i as usize]).collect(), face.normal)
            }
        }
    }

    /// The size the tolerances scale with: the distance from the frame's origin of the farthest
    /// corner of the vertices' bounding box (a box's farthest corner; a hull's from its vertex
    /// tree's root box, without visiting the vertices), between the largest distance of a vertex
    /// and `sqrt(3)` times it.
    fn size(&self) -> f64 {
        match self {
            Polytope::Box { .. } => self.vertices().iter().map(|v| v.norm()).fold(0.0, f64::max),
            Polytope::Hull(hull) => hull.vertex_tree.radius(),
        }
    }
}

/// Corner `i` of a box (bit 0: +x, bit 1: +y, bit 2: +z).
fn box_corner(i: usize, half: &Vec3, centre_z: f64) -> Vec3 {
    let sign = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
    Vec3::new(sign(1) * half.x, sign(2) * half.y, centre_z + sign(4) * half.z)
}

/// One polytope at its `f64` pose and over its frame.
pub(super) struct Placed<'a, 'f, S: Real> {
    pub shape: Polytope<'a>,
    pub pose: &'f Pose,
    pub frame: &'f Frame<S>,
}

/// The points of two polytopes (base A first, as `convex.rs` is called) over the frames: the
/// `f64` points `found` (canonical order) re-derived with their features held, each with the id
/// and values of its `f64` point; NaN tangents where the features cannot be identified.
pub(super) fn points<S: Real>(a: &Placed<S>, b: &Placed<S>, found: &[ContactPoint]) -> Vec<ContactPoint<S>> {
    let scale = a.shape.size().max(b.shape.size()).max(1e-12);
    let derived = match found {
        [single] => witness_point(a, b, single, scale).map(|p| vec![p.with_id(single.id).with_weight(S::c(single.weight))]),
        _ => patch(a, b, found, scale),
    };
    checked(a.frame, b.frame, found, derived, VALUE_TOLERANCE, scale)
}

/// `derived` if it reproduces `found` (ids; values to `relative` of 1 or of the shapes' size
/// `scale`); otherwise `found` with NaN tangents.
fn checked<S: Real>(
    frame_a: &Frame<S>,
    frame_b: &Frame<S>,
    found: &[ContactPoint],
    derived: Option<Vec<ContactPoint<S>>>,
    relative: f64,
    scale: f64,
) -> Vec<ContactPoint<S>> {
    let reproduced = derived.as_ref().filter(|derived| {
        derived.len() == found.len()
            && derived.iter().zip(found).all(|(d, f)| {
                let close = |x: &Vector3<S>, y: &Vec3| (S::vv(x) - y).norm() <= relative * scale;
                d.id == f.id
                    && close(&d.p_a_w, &f.p_a_w)
                    && close(&d.p_b_w, &f.p_b_w)
                    && (S::vv(&d.normal_ab_w) - f.normal_ab_w).norm() <= relative
                    && (d.separation.v() - f.separation).abs() <= relative * scale
                    && (d.weight.v() - f.weight).abs() <= relative * f.weight.abs().max(1.0)
            })
    });
    // Not reproduced where the `f64` query and the re-derivation name different features: at a
    // near tie between two features (a corner of one compound's box against a part of the other
    // at a face-to-edge switch), where the derivative is not defined either. Debug and release
    // builds answer alike (the FMU's derivative call fails with its reason, not a panic in one
    // build and an Error in the other).
    match reproduced {
        Some(derived) => derived.clone(),
        None => {
            // Not identified: NaN tangents (0 * NaN is NaN), the values stay the f64 ones.
            let poison = frame_a.r.x * f64::NAN + frame_b.r.x * f64::NAN;
            let v = |x: &Vec3| Vector3::new(poison, poison, poison) + S::vc(x);
            found
                .iter()
                .map(|f| ContactPoint {
                    p_a_w: v(&f.p_a_w),
                    p_b_w: v(&f.p_b_w),
                    normal_ab_w: v(&f.normal_ab_w),
                    separation: poison + f.separation,
                    weight: poison + f.weight,
                    id: f.id,
                })
                .collect()
        }
    }
}

/// Vertex `i` of a polytope (of its `vertices`) in W over its frame: only the vertices a
/// feature uses are placed, not the whole polytope.
fn world_vertex<S: Real>(p: &Placed<S>, vertices: &[Vec3], i: usize) -> Vector3<S> {
    p.frame.fixed_point(&vertices[i])
}

/// The direction `d` in W as a local direction of the polytope at its `f64` pose.
fn local_direction(p: &Placed<impl Real>, d: &Vec3) -> Vec3 {
    p.pose.q.inverse() * d
}

/// Unit vector over the Real.
fn unit<S: Real>(v: &Vector3<S>) -> Vector3<S> {
    v / S::norm(v)
}

/// `v` or `-v`, whichever points along `reference`.
fn along<S: Real>(v: Vector3<S>, reference: &Vec3) -> Vector3<S> {
    if S::vv(&v).dot(reference) < 0.0 {
        -v
    } else {
        v
    }
}

/// The indices of the vertices within `tolerance` of the largest `d · v` (local vertices and a
/// local direction, or both in W: the offset of the origin is the same for every vertex).
fn support_set(vertices: &[Vec3], d: &Vec3, tolerance: f64) -> Vec<usize> {
    let top = vertices.iter().map(|v| v.dot(d)).fold(f64::NEG_INFINITY, f64::max);
    (0..vertices.len()).filter(|&i| vertices[i].dot(d) >= top - tolerance).collect()
}

/// The patch of two polytopes' support faces, as `convex.rs` builds it, over the frames.
fn patch<S: Real>(a: &Placed<S>, b: &Placed<S>, found: &[ContactPoint], scale: f64) -> Option<Vec<ContactPoint<S>>> {
    let n64 = found.first()?.normal_ab_w;
    let (da, db) = (local_direction(a, &n64), local_direction(b, &-n64));
    let (face_a, normal_a) = a.shape.support_face(&da);
    let (face_b, normal_b) = b.shape.support_face(&db);
    let (vertices_a, vertices_b) = (a.shape.vertices(), b.shape.vertices());
    let (na64, nb64) = (a.pose.q * normal_a, b.pose.q * normal_b);
    let n = if na64.dot(&n64) > 1.0 - SNAP {
        a.frame.vector(&S::vc(&normal_a))
    } else if -nb64.dot(&n64) > 1.0 - SNAP {
        -b.frame.vector(&S::vc(&normal_b))
    } else {
        // An edge of A against an edge of B (their support sets in the local frames).
        let (sa, sb) = (support_set(&vertices_a, &da, FEATURE_TOLERANCE * scale), support_set(&vertices_b, &db, FEATURE_TOLERANCE * scale));
        let (&[a0, a1], &[b0, b1]) = (&sa[..], &sb[..]) else {
            return None;
        };
        let (va, vb) = (|i| world_vertex(a, &vertices_a, i), |i| world_vertex(b, &vertices_b, i));
        along(unit(&(va(a1) - va(a0)).cross(&(vb(b1) - vb(b0)))), &n64)
    };
    // The depth along n: A's support minus B's, each the vertex farthest along the points'
    // normal as `convex.rs` finds it (its support query), placed over the frames.
    let top_a = world_vertex(a, &vertices_a, a.shape.support_vertex(&da));
    let top_b = world_vertex(b, &vertices_b, b.shape.support_vertex(&db));
    let depth = top_a.dot(&n) - top_b.dot(&n);
    let wa: Vec<Vector3<S>> = face_a.iter().map(|v| a.frame.fixed_point(v)).collect();
    let wb: Vec<Vector3<S>> = face_b.iter().map(|v| b.frame.fixed_point(v)).collect();
    let (wna, wnb) = (a.frame.vector(&S::vc(&normal_a)), b.frame.vector(&S::vc(&normal_b)));
    let plane = Plane::new(wa[0], n);
    let polygon = |vertices: &[Vector3<S>]| counter_clockwise(vertices.iter().map(|v| plane.project(v)).collect());
    let (pa, pb) = (polygon(&wa), polygon(&wb));
    let clipped = clip_polygon(&pa, &pb);
    if clipped.is_empty() {
        return None;
    }
    let total = fade(width(&clipped), width(&pa), width(&pb), depth) * 4.0;
    let count = clipped.len();
    let edges: Vec<S> = (0..count).map(|i| length(&(clipped[(i + 1) % count] - clipped[i]))).collect();
    let perimeter = edges.iter().fold(S::c(0.0), |sum, e| sum + *e);
    Some(
        (0..count)
            .map(|i| {
                let share = if perimeter.v() > 0.0 { (edges[(i + count - 1) % count] + edges[i]) / (perimeter * 2.0) } else { S::c(1.0 / count as f64) };
                let q = clipped[i];
                let p_a = plane.lift(&wa[0], &wna, &q);
                let p_b = plane.lift(&wb[0], &wnb, &q);
                ContactPoint::new(p_a, p_b, n).with_id(i as u32).with_weight(total * share)
            })
            .collect(),
    )
}

type V2<S> = Vector2<S>;

fn cross2<S: Real>(a: &V2<S>, b: &V2<S>) -> S {
    a.x * b.y - a.y * b.x
}

/// A 2D vector's length; 0 with zero tangent at 0.
fn length<S: Real>(v: &V2<S>) -> S {
    let squared = v.x * v.x + v.y * v.y;
    if squared.v() > 0.0 {
        squared.sqrt()
    } else {
        S::c(0.0)
    }
}

/// `convex.rs`'s patch plane over the Real: normal to `n`, its basis from the same helper axis.
struct Plane<S: Real> {
    origin: Vector3<S>,
    n: Vector3<S>,
    e1: Vector3<S>,
    e2: Vector3<S>,
}

impl<S: Real> Plane<S> {
    fn new(origin: Vector3<S>, n: Vector3<S>) -> Plane<S> {
        let helper = if n.x.v().abs() < 0.6 { Vector3::x() } else { Vector3::y() };
        let e1 = unit(&n.cross(&S::vc(&helper)));
        let e2 = n.cross(&e1);
        Plane { origin, n, e1, e2 }
    }

    fn project(&self, p: &Vector3<S>) -> V2<S> {
        let d = p - self.origin;
        V2::new(d.dot(&self.e1), d.dot(&self.e2))
    }

    /// The point of the face plane (through `vertex`, normal `normal`) on the line along n
    /// through `q`.
    fn lift(&self, vertex: &Vector3<S>, normal: &Vector3<S>, q: &V2<S>) -> Vector3<S> {
        let at = self.origin + self.e1 * q.x + self.e2 * q.y;
        let denominator = self.n.dot(normal);
        if denominator.v().abs() < 1e-12 {
            return at;
        }
        at + self.n * ((vertex - at).dot(normal) / denominator)
    }
}

fn counter_clockwise<S: Real>(mut polygon: Vec<V2<S>>) -> Vec<V2<S>> {
    let area: f64 = (0..polygon.len()).map(|i| cross2(&polygon[i], &polygon[(i + 1) % polygon.len()]).v()).sum();
    if area < 0.0 {
        polygon.reverse();
    }
    polygon
}

/// Sutherland-Hodgman as in `convex.rs`, each side test decided on the values.
fn clip_polygon<S: Real>(subject: &[V2<S>], clip: &[V2<S>]) -> Vec<V2<S>> {
    let mut output = subject.to_vec();
    for i in 0..clip.len() {
        let (c0, c1) = (clip[i], clip[(i + 1) % clip.len()]);
        let edge = c1 - c0;
        if edge.x.v() == 0.0 && edge.y.v() == 0.0 {
            continue;
        }
        let input = std::mem::take(&mut output);
        let side = |p: &V2<S>| cross2(&edge, &(p - c0));
        for k in 0..input.len() {
            let (previous, current) = (input[(k + input.len() - 1) % input.len()], input[k]);
            let (s_previous, s_current) = (side(&previous), side(&current));
            let crossing = || previous + (current - previous) * (s_previous / (s_previous - s_current));
            if s_current.v() >= 0.0 {
                if s_previous.v() < 0.0 {
                    output.push(crossing());
                }
                output.push(current);
            } else if s_previous.v() >= 0.0 {
                output.push(crossing());
            }
        }
        if output.is_empty() {
            break;
        }
    }
    output
}

/// The least extent of a convex polygon across its edges' directions.
fn width<S: Real>(polygon: &[V2<S>]) -> S {
    let mut least: Option<S> = None;
    for i in 0..polygon.len() {
        let edge = polygon[(i + 1) % polygon.len()] - polygon[i];
        let edge_length = length(&edge);
        if edge_length.v() <= 0.0 {
            continue;
        }
        let extent = polygon.iter().map(|p| cross2(&edge, &(p - polygon[i])).abs() / edge_length).fold(S::c(0.0), |m, x| m.max(x));
        least = Some(least.map_or(extent, |l| l.min(extent)));
    }
    least.unwrap_or(S::c(0.0))
}

fn fade<S: Real>(patch_width: S, width_a: S, width_b: S, depth: S) -> S {
    let reference = width_a.min(width_b) * FADE_FRACTION;
    if reference.v() <= 0.0 {
        return S::c(1.0);
    }
    let x = (patch_width - depth.max(S::c(0.0))) / reference;
    if x.v() < 0.0 {
        S::c(0.0)
    } else if x.v() > 1.0 {
        S::c(1.0)
    } else {
        x
    }
}

/// A feature of a polytope holding a point.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Feature {
    Vertex(usize),
    Edge(usize, usize),
    /// A face: one of its vertices and its local normal.
    Face(usize, Vec3),
}

/// The smallest feature of `shape` holding the local point `p` (to `tolerance`), a point of the
/// shape's support feature along the local direction `toward` (a witness along the normal, a
/// surface query's nearest point along its offset).
///
/// A large hull looks among the features around its support vertex along `toward` first (the
/// faces having it, their edges and vertices: they hold every point of the support feature,
/// which contains that vertex), without visiting the whole hull; where none holds `p` (a
/// witness off its normal's support feature) every feature is searched, as for a box or a
/// small hull.
fn classify(shape: &Polytope, p: &Vec3, tolerance: f64, toward: &Vec3) -> Option<Feature> {
    if let Polytope::Hull(hull) = shape {
        if hull.vertices.len() > crate::shape::SCAN_VERTICES {
            if let Some(feature) = classify_around(hull, p, tolerance, hull.support_index(toward)) {
                return Some(feature);
            }
        }
    }
    classify_all(shape, p, tolerance)
}

/// [`classify_all`] over the faces of a hull having vertex `top`, their edges and vertices
/// (the vertices by index, the edges by their index pairs, the faces in face order).
fn classify_around(hull: &ConvexHull, p: &Vec3, tolerance: f64, top: usize) -> Option<Feature> {
    let faces = || hull.graph.faces_of(top).iter().map(|&f| &hull.faces[f as usize]);
    let mut vertices: Vec<usize> = faces().flat_map(|f| f.vertices.iter().map(|&i| i as usize)).collect();
    vertices.sort_unstable();
    vertices.dedup();
    if let Some(&i) = vertices.iter().find(|&&i| (hull.vertices[i] - p).norm() <= tolerance) {
        return Some(Feature::Vertex(i));
    }
    let mut edges: Vec<(usize, usize)> = faces()
        .flat_map(|f| {
            let v = &f.vertices;
            (0..v.len()).map(move |k| {
                let (i, j) = (v[k] as usize, v[(k + 1) % v.len()] as usize);
                (i.min(j), i.max(j))
            })
        })
        .collect();
    edges.sort_unstable();
    edges.dedup();
    for (i, j) in edges {
        let (a, d) = (hull.vertices[i], hull.vertices[j] - hull.vertices[i]);
        let t = ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
        if (a + d * t - p).norm() <= tolerance {
            return Some(Feature::Edge(i, j));
        }
    }
    faces()
        .map(|f| (f.vertices[0] as usize, f.normal))
        .map(|(i, normal)| (i, normal, (p - hull.vertices[i]).dot(&normal).abs()))
        .filter(|(.., height)| *height <= tolerance)
        .min_by(|x, y| x.2.total_cmp(&y.2))
        .map(|(i, normal, _)| Feature::Face(i, normal))
}

/// The smallest feature of `shape` holding the local point `p` (to `tolerance`), searched over
/// all its vertices, then edges, then faces.
fn classify_all(shape: &Polytope, p: &Vec3, tolerance: f64) -> Option<Feature> {
    let vertices = shape.vertices();
    if let Some(i) = (0..vertices.len()).find(|&i| (vertices[i] - p).norm() <= tolerance) {
        return Some(Feature::Vertex(i));
    }
    for (i, j) in shape.edges() {
        let (a, d) = (vertices[i], vertices[j] - vertices[i]);
        let t = ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
        if (a + d * t - p).norm() <= tolerance {
            return Some(Feature::Edge(i, j));
        }
    }
    shape
        .face_planes()
        .into_iter()
        .map(|(i, normal)| (i, normal, (p - vertices[i]).dot(&normal).abs()))
        .filter(|(.., height)| *height <= tolerance)
        .min_by(|x, y| x.2.total_cmp(&y.2))
        .map(|(i, normal, _)| Feature::Face(i, normal))
}

/// The point of `feature` (over the frame; `vertex(i)` places vertex i) nearest to the point `x`.
fn nearest_on<S: Real>(feature: Feature, vertex: impl Fn(usize) -> Vector3<S>, frame: &Frame<S>, x: &Vector3<S>) -> Vector3<S> {
    match feature {
        Feature::Vertex(i) => vertex(i),
        Feature::Edge(i, j) => {
            let (vi, vj) = (vertex(i), vertex(j));
            let d = vj - vi;
            vi + d * ((x - vi).dot(&d) / d.dot(&d))
        }
        Feature::Face(i, normal) => {
            let normal = frame.vector(&S::vc(&normal));
            x - normal * (x - vertex(i)).dot(&normal)
        }
    }
}

/// The one point (GJK's closest or EPA's deepest pair) with its witnesses' features held.
fn witness_point<S: Real>(a: &Placed<S>, b: &Placed<S>, found: &ContactPoint, scale: f64) -> Option<ContactPoint<S>> {
    let tolerance = FEATURE_TOLERANCE * scale;
    let local = |p: &Placed<S>, x: &Vec3| p.pose.q.inverse() * (x - p.pose.r);
    let n64 = found.normal_ab_w;
    let fa = classify(&a.shape, &local(a, &found.p_a_w), tolerance, &local_direction(a, &n64))?;
    let fb = classify(&b.shape, &local(b, &found.p_b_w), tolerance, &local_direction(b, &-n64))?;
    let (vertices_a, vertices_b) = (a.shape.vertices(), b.shape.vertices());
    let (va, vb) = (|i| world_vertex(a, &vertices_a, i), |i| world_vertex(b, &vertices_b, i));
    let (p_a, p_b, n) = match (fa, fb) {
        (Feature::Vertex(i), other) => {
            let vi = va(i);
            let p_b = nearest_on(other, vb, b.frame, &vi);
            let n = match other {
                Feature::Face(_, normal) => -b.frame.vector(&S::vc(&normal)),
                _ => along(unit(&(p_b - vi)), &n64),
            };
            (vi, p_b, n)
        }
        (other, Feature::Vertex(j)) => {
            let vj = vb(j);
            let p_a = nearest_on(other, va, a.frame, &vj);
            let n = match other {
                Feature::Face(_, normal) => a.frame.vector(&S::vc(&normal)),
                _ => along(unit(&(vj - p_a)), &n64),
            };
            (p_a, vj, n)
        }
        (Feature::Edge(i, j), Feature::Edge(k, l)) => {
            // Closest points of the two lines.
            let (vi, vk) = (va(i), vb(k));
            let (d1, d2, r) = (va(j) - vi, vb(l) - vk, vi - vk);
            let (aa, bb, ee, c, f) = (d1.dot(&d1), d1.dot(&d2), d2.dot(&d2), d1.dot(&r), d2.dot(&r));
            let denominator = aa * ee - bb * bb;
            let s = (bb * f - c * ee) / denominator;
            let t = (aa * f - bb * c) / denominator;
            (vi + d1 * s, vk + d2 * t, along(unit(&d1.cross(&d2)), &n64))
        }
        _ => return None,
    };
    Some(ContactPoint::new(p_a, p_b, n))
}

/// The hull's surface query (`convex::hull_surface`) over any [`Real`] at the local point `p`:
/// the nearest face plane inside, the nearest face, edge or vertex outside, held as the `f64`
/// query found it. NaN tangents if the nearest feature cannot be named.
pub(super) fn hull_surface<S: Real>(hull: &ConvexHull, p: &Vector3<S>) -> (Vector3<S>, Vector3<S>, S) {
    let value = S::vv(p);
    let (point64, _, distance64) = super::convex::hull_surface(hull, &value);
    let vertex = |i: usize| S::vc(&hull.vertices[i]);
    let face_result = |i: usize, normal: &Vec3| {
        let normal = S::vc(normal);
        let height = (p - vertex(i)).dot(&normal);
        (p - normal * height, normal, height)
    };
    if distance64 <= 0.0 {
        // Inside: the nearest face plane, as the f64 query takes it.
        let nearest = hull
            .faces
            .iter()
            .map(|f| (f, (value - hull.vertices[f.vertices[0] as usize]).dot(&f.normal)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((face, _)) = nearest {
            return face_result(face.vertices[0] as usize, &face.normal);
        }
    } else {
        let shape = Polytope::Hull(hull);
        let tolerance = FEATURE_TOLERANCE * shape.size().max(1e-12);
        let from_point = |q: Vector3<S>| {
            let offset = p - q;
            let distance = S::norm(&offset);
            (q, offset / distance, distance)
        };
        match classify(&shape, &point64, tolerance, &(value - point64)) {
            Some(Feature::Face(i, normal)) => return face_result(i, &normal),
            Some(feature @ (Feature::Vertex(_) | Feature::Edge(..))) => {
                let frame = Frame { r: Vector3::zeros(), axes: [Vector3::x(), Vector3::y(), Vector3::z()].map(|a| S::vc(&a)) };
                return from_point(nearest_on(feature, vertex, &frame, p));
            }
            None => {}
        }
    }
    let poison = p.x * f64::NAN;
    let (point, normal, distance) = super::convex::hull_surface(hull, &value);
    let v = |x: &Vec3| S::vc(x) + Vector3::new(poison, poison, poison);
    (v(&point), v(&normal), poison + distance)
}

/// An ellipsoid of semi-axes `semi_axes` (A, over `a_frame`) and a polytope (B): the one point
/// `convex.rs` gives, re-derived. Against a face of B (the points' normal is B's face normal,
/// or apart the witness lies inside a face) the normal is that face's, A's witness the
/// ellipsoid's support point along it and B's its projection on the face. Against a vertex of B
/// (B's only support vertex along the normal, or apart the witness is a vertex) the normal is
/// the ellipsoid's outward normal at the vertex's nearest surface point (the ellipsoid's surface
/// query, differentiated by its Newton step), A's witness that point, and B's the vertex (apart)
/// or, overlapping, the point of B's support face along the normal from it, as `convex.rs` lifts
/// it. Against an edge the normal is implicit in the edge and the curved surface: NaN tangents.
pub(super) fn ellipsoid_points<S: Real>(semi_axes: &Vec3, a_frame: &Frame<S>, b: &Placed<S>, found: &[ContactPoint]) -> Vec<ContactPoint<S>> {
    let scale = semi_axes.amax().max(b.shape.size()).max(1e-12);
    let derived = match found {
        [single] => ellipsoid_point(semi_axes, a_frame, b, single, scale).map(|p| vec![p.with_id(single.id).with_weight(S::c(single.weight))]),
        _ => None,
    };
    checked(a_frame, b.frame, found, derived, CURVED_VALUE_TOLERANCE, scale)
}

fn ellipsoid_point<S: Real>(semi_axes: &Vec3, a_frame: &Frame<S>, b: &Placed<S>, found: &ContactPoint, scale: f64) -> Option<ContactPoint<S>> {
    let n64 = found.normal_ab_w;
    let tolerance = FEATURE_TOLERANCE * scale;
    let (face_b, normal_b) = b.shape.support_face(&(b.pose.q.inverse() * -n64));
    let face_normal = -b.frame.vector(&S::vc(&normal_b));
    let support = |n: &Vector3<S>| {
        let d = a_frame.local(&(a_frame.r + n));
        let ad = Vector3::new(d.x * semi_axes.x, d.y * semi_axes.y, d.z * semi_axes.z);
        let norm = S::norm(&ad);
        a_frame.point(&Vector3::new(ad.x * semi_axes.x, ad.y * semi_axes.y, ad.z * semi_axes.z).map(|c| c / norm))
    };
    let on_face = |p_a: &Vector3<S>, n: &Vector3<S>| {
        let (v0, nf) = (b.frame.fixed_point(&face_b[0]), b.frame.vector(&S::vc(&normal_b)));
        p_a + n * ((v0 - p_a).dot(&nf) / n.dot(&nf))
    };
    let vertex_case = |vertex: usize, apart: bool| {
        let v = b.frame.fixed_point(&b.shape.vertices()[vertex]);
        let (_, normal, _) = super::ellipsoid::surface_over(semi_axes, &a_frame.local(&v));
        let n = a_frame.vector(&normal);
        let p_a = support(&n);
        let p_b = if apart { v } else { on_face(&p_a, &n) };
        ContactPoint::new(p_a, p_b, n)
    };
    let face_case = || {
        let p_a = support(&face_normal);
        ContactPoint::new(p_a, on_face(&p_a, &face_normal), face_normal)
    };
    let edge_case = |i: usize, j: usize, apart: bool| {
        let vertices = b.shape.vertices();
        let (l0, l1) = (b.frame.fixed_point(&vertices[i]), b.frame.fixed_point(&vertices[j]));
        let n = ellipsoid_line_normal(semi_axes, a_frame, &l0, &l1, &n64);
        let p_a = support(&n);
        let e = l1 - l0;
        let p_b = if apart { l0 + e * ((p_a - l0).dot(&e) / e.dot(&e)) } else { on_face(&p_a, &n) };
        ContactPoint::new(p_a, p_b, n)
    };
    let is_edge = |i: usize, j: usize| b.shape.edges().iter().any(|&(k, l)| (k, l) == (i.min(j), i.max(j)));
    if found.separation > 0.0 {
        let local = b.pose.q.inverse() * (found.p_b_w - b.pose.r);
        return match classify(&b.shape, &local, tolerance, &local_direction(b, &-n64))? {
            Feature::Vertex(i) => Some(vertex_case(i, true)),
            Feature::Edge(i, j) => Some(edge_case(i, j, true)),
            Feature::Face(..) if -(b.pose.q * normal_b).dot(&n64) > 1.0 - SNAP => Some(face_case()),
            _ => None,
        };
    }
    if -(b.pose.q * normal_b).dot(&n64) > 1.0 - SNAP {
        return Some(face_case());
    }
    match support_set(&b.shape.vertices(), &local_direction(b, &-n64), tolerance)[..] {
        [vertex] => Some(vertex_case(vertex, false)),
        [i, j] if is_edge(i, j) => Some(edge_case(i, j, false)),
        _ => None,
    }
}

/// The normal between an ellipsoid (semi-axes `a`, frame `frame`) and the line through `l0`,
/// `l1` at their closest (apart) or deepest (overlapping) pair, whose value is `n64`: normal to
/// the line, n = cos θ u + sin θ w (u, w ⊥ the line), with the ellipsoid's support point s(n) in
/// the plane of n and the line: g(θ) = (s(n) - l0) · (n × e) = 0. One Newton step over the Real
/// from the value's θ0, with g'(θ0) by a dual number in θ: at the root, the step's tangent is the
/// implicit function's, -g_x dx / g'(θ0), exact. n is taken to first order in the step
/// (`n0 + δ n0'`), which is exact for the tangents since δ's value is 0 at the root.
fn ellipsoid_line_normal<S: Real>(a: &Vec3, frame: &Frame<S>, l0: &Vector3<S>, l1: &Vector3<S>, n64: &Vec3) -> Vector3<S> {
    fn g<T: Real>(a: &Vec3, frame: &Frame<T>, l0: &Vector3<T>, [e, u, w]: [&Vector3<T>; 3], theta0: f64, delta: T) -> (T, Vector3<T>) {
        let (c0, s0) = (theta0.cos(), theta0.sin());
        let n = u * (-(delta * s0) + c0) + w * (delta * c0 + s0);
        let d = Vector3::new(frame.axes[0].dot(&n), frame.axes[1].dot(&n), frame.axes[2].dot(&n));
        let ad = Vector3::new(d.x * a.x, d.y * a.y, d.z * a.z);
        let norm = T::norm(&ad);
        let s = frame.point(&Vector3::new(ad.x * a.x, ad.y * a.y, ad.z * a.z).map(|c| c / norm));
        ((s - l0).dot(&n.cross(e)), n)
    }
    let basis = |e: &Vector3<S>| {
        let e = unit(e);
        let helper = if e.x.v().abs() < 0.6 { Vector3::x() } else { Vector3::y() };
        let u = unit(&e.cross(&S::vc(&helper)));
        let w = e.cross(&u);
        (e, u, w)
    };
    let (e, u, w) = basis(&(l1 - l0));
    let theta0 = n64.dot(&S::vv(&w)).atan2(n64.dot(&S::vv(&u)));
    // g'(θ0) at the values, by a dual number in θ.
    let slope = {
        type D = crate::dual::Dual<1>;
        let frame_v = Frame::<D> { r: D::vc(&S::vv(&frame.r)), axes: frame.axes.map(|x| D::vc(&S::vv(&x))) };
        let v = |x: &Vector3<S>| D::vc(&S::vv(x));
        let (g, _) = g(a, &frame_v, &v(l0), [&v(&e), &v(&u), &v(&w)], theta0, D::new(0.0, [1.0]));
        g.d[0]
    };
    let (value, _) = g(a, frame, l0, [&e, &u, &w], theta0, S::c(0.0));
    let (_, n) = g(a, frame, l0, [&e, &u, &w], theta0, -(value / slope));
    n
}

/// A polytope (A) and a capsule (B, its core segment `c0`-`c1` and `radius` over `b_frame`): the
/// points `convex.rs` gives, re-derived. The normal is A's support face's when the points carry
/// it; otherwise A's support vertex or edge against the core's support end or its whole line
/// (the core normal to n): the direction between their closest points, or for an edge and the
/// line the cross product of their directions. The patch is A's support face against the core
/// segment projected on the plane normal to n and clipped by the face (the two ends of the part
/// over it, weight by the fade of its length against the depth), lifted onto the face and onto
/// the core, whose surface lies `radius` further along -n. Apart: the same features at the
/// closest pair (a face against a core end, or a vertex or edge against an end or the line).
pub(super) fn capsule_points<S: Real>(a: &Placed<S>, radius: f64, half_length: f64, b_pose: &Pose, b_frame: &Frame<S>, found: &[ContactPoint]) -> Vec<ContactPoint<S>> {
    let scale = a.shape.size().max(half_length + radius).max(1e-12);
    let derived = capsule_derived(a, radius, half_length, b_pose, b_frame, found, scale);
    checked(a.frame, b_frame, found, derived, CURVED_VALUE_TOLERANCE, scale)
}

fn capsule_derived<S: Real>(a: &Placed<S>, radius: f64, half_length: f64, b_pose: &Pose, b_frame: &Frame<S>, found: &[ContactPoint], scale: f64) -> Option<Vec<ContactPoint<S>>> {
    let tolerance = FEATURE_TOLERANCE * scale;
    let n64 = found.first()?.normal_ab_w;
    let core64 = [b_pose.transform_point(&Vec3::new(0.0, 0.0, -half_length)), b_pose.transform_point(&Vec3::new(0.0, 0.0, half_length))];
    let core = [b_frame.fixed_point(&Vec3::new(0.0, 0.0, -half_length)), b_frame.fixed_point(&Vec3::new(0.0, 0.0, half_length))];
    let vertices_a = a.shape.vertices();
    let va = |i| world_vertex(a, &vertices_a, i);
    let da = local_direction(a, &n64);
    let (face_a, normal_a) = a.shape.support_face(&da);
    let na = a.frame.vector(&S::vc(&normal_a));
    let line_point = |p0: &Vector3<S>, p1: &Vector3<S>, x: &Vector3<S>| {
        let d = p1 - p0;
        p0 + d * ((x - p0).dot(&d) / d.dot(&d))
    };
    // A's feature (a vertex or an edge: indices) against B's (an end or the line: indices 0, 1):
    // the normal from A toward B and the closest points on A's feature and on the core.
    let pair = |fa: &[usize], fb: &[usize]| -> Option<(Vector3<S>, Vector3<S>, Vector3<S>)> {
        let (p_a, p_core) = match (fa, fb) {
            (&[i], &[j]) => (va(i), core[j]),
            (&[i], &[_, _]) => (va(i), line_point(&core[0], &core[1], &va(i))),
            (&[i, k], &[j]) => (line_point(&va(i), &va(k), &core[j]), core[j]),
            (&[i, k], &[_, _]) => {
                let (vi, vk) = (va(i), va(k));
                let n = along(unit(&(vk - vi).cross(&(core[1] - core[0]))), &n64);
                // The closest points of the two lines.
                let (d1, d2, r) = (vk - vi, core[1] - core[0], vi - core[0]);
                let (aa, bb, ee, c, f) = (d1.dot(&d1), d1.dot(&d2), d2.dot(&d2), d1.dot(&r), d2.dot(&r));
                let denominator = aa * ee - bb * bb;
                let (s, t) = ((bb * f - c * ee) / denominator, (aa * f - bb * c) / denominator);
                return Some((n, vi + d1 * s, core[0] + d2 * t));
            }
            _ => return None,
        };
        Some((along(unit(&(p_core - p_a)), &n64), p_a, p_core))
    };
    let core_support = |d: &Vec3| -> Vec<usize> {
        let (s0, s1) = (core64[0].dot(d), core64[1].dot(d));
        if (s0 - s1).abs() <= tolerance {
            vec![0, 1]
        } else if s0 > s1 {
            vec![0]
        } else {
            vec![1]
        }
    };
    let snapped = (a.pose.q * normal_a).dot(&n64) > 1.0 - SNAP;
    if let [single] = found {
        if single.separation > 0.0 || single.weight == 1.0 && single.id == 0 && !snapped {
            // The closest (or the fallback deepest) pair: A's witness feature, B's core point.
            let local = a.pose.q.inverse() * (single.p_a_w - a.pose.r);
            let fb = core_support(&-n64);
            let (n, p_a, p_core) = match classify(&a.shape, &local, tolerance, &da)? {
                Feature::Face(i, normal) if fb.len() == 1 => {
                    let n = a.frame.vector(&S::vc(&normal));
                    let p_core = core[fb[0]];
                    (n, p_core - n * (p_core - va(i)).dot(&n), p_core)
                }
                Feature::Vertex(i) => pair(&[i], &fb)?,
                Feature::Edge(i, k) => pair(&[i, k], &fb)?,
                Feature::Face(..) => return None,
            };
            return Some(vec![ContactPoint::new(p_a, p_core - n * S::c(radius), n).with_id(single.id).with_weight(S::c(single.weight))]);
        }
    }
    let n = if snapped {
        na
    } else {
        let fa = support_set(&vertices_a, &da, tolerance);
        pair(&fa, &core_support(&-n64))?.0
    };
    // The depth along n: A's support (its vertex farthest along the points' normal, as
    // `convex.rs` finds it) minus the capsule's lowest surface point.
    let top = va(a.shape.support_vertex(&da)).dot(&n);
    let low = core.iter().map(|c| c.dot(&n)).min_by(|x, y| x.v().total_cmp(&y.v()))?;
    let depth = top - low + radius;
    let wa: Vec<Vector3<S>> = face_a.iter().map(|v| a.frame.fixed_point(v)).collect();
    let plane = Plane::new(wa[0], n);
    let polygon = counter_clockwise(wa.iter().map(|v| plane.project(v)).collect());
    let (c0, c1) = (plane.project(&core[0]), plane.project(&core[1]));
    let points = segment_polygon(c0, c1, &polygon, depth)?;
    let lift_core = |q: &V2<S>| {
        let length2 = (c1 - c0).dot(&(c1 - c0));
        let full2 = (core[0] - core[1]).dot(&(core[0] - core[1]));
        if length2.v() <= 1e-24 * full2.v().max(1e-300) {
            return if -core[0].dot(&n).v() >= -core[1].dot(&n).v() { core[0] } else { core[1] };
        }
        let t = (q - c0).dot(&(c1 - c0)) / length2;
        let t = if t.v() < 0.0 { S::c(0.0) } else if t.v() > 1.0 { S::c(1.0) } else { t };
        core[0] + (core[1] - core[0]) * t
    };
    Some(
        points
            .iter()
            .enumerate()
            .map(|(id, (q, weight))| {
                let p_a = plane.lift(&wa[0], &na, q);
                let p_b = lift_core(q) - n * S::c(radius);
                ContactPoint::new(p_a, p_b, n).with_id(id as u32).with_weight(*weight)
            })
            .collect(),
    )
}

/// `convex.rs`'s segment_polygon over the Real: the part of the segment a-b over the convex
/// counter-clockwise polygon, its two ends with half the faded total weight each; `None` when
/// empty (the `f64` pass then gave its fallback point).
fn segment_polygon<S: Real>(a: V2<S>, b: V2<S>, polygon: &[V2<S>], depth: S) -> Option<Vec<(V2<S>, S)>> {
    let (mut t0, mut t1) = (S::c(0.0), S::c(1.0));
    for i in 0..polygon.len() {
        let (c0, c1) = (polygon[i], polygon[(i + 1) % polygon.len()]);
        let edge = c1 - c0;
        if edge.x.v() == 0.0 && edge.y.v() == 0.0 {
            continue;
        }
        let (sa, sb) = (cross2(&edge, &(a - c0)), cross2(&edge, &(b - c0)));
        if sa.v() < 0.0 && sb.v() < 0.0 {
            return None;
        }
        if sa.v() < 0.0 {
            t0 = t0.max(sa / (sa - sb));
        } else if sb.v() < 0.0 {
            t1 = t1.min(sa / (sa - sb));
        }
    }
    if t0.v() > t1.v() {
        return None;
    }
    let segment_length = length(&(b - a));
    let polygon_width = width(polygon);
    if segment_length.v() <= 1e-12 * polygon_width.v() {
        return Some(vec![(a, S::c(1.0))]);
    }
    let total = fade((t1 - t0) * segment_length, segment_length, polygon_width, depth) * 2.0;
    Some(vec![(a + (b - a) * t0, total * 0.5), (a + (b - a) * t1, total * 0.5)])
}

/// Two polytopes' points over the frames (base first; the `Polytope` family of the pair table),
/// from `found`, the points the `f64` pass gave (base first).
pub(super) fn polytope_points_over<S: Real>(
    base: &Shape,
    base_pose: &Pose,
    base_frame: &Frame<S>,
    follower: &Shape,
    follower_pose: &Pose,
    follower_frame: &Frame<S>,
    found: &[ContactPoint],
) -> Vec<ContactPoint<S>> {
    if found.is_empty() {
        return Vec::new();
    }
    let placed = |shape, pose, frame| Placed { shape: Polytope::of(shape).expect("a polytope pair"), pose, frame };
    points(&placed(base, base_pose, base_frame), &placed(follower, follower_pose, follower_frame), found)
}

/// An ellipsoid (base) and a polytope's point over the frames (the `EllipsoidPolytope` family).
pub(super) fn ellipsoid_points_over<S: Real>(
    base: &Shape,
    _: &Pose,
    base_frame: &Frame<S>,
    follower: &Shape,
    follower_pose: &Pose,
    follower_frame: &Frame<S>,
    found: &[ContactPoint],
) -> Vec<ContactPoint<S>> {
    if found.is_empty() {
        return Vec::new();
    }
    let Shape::Ellipsoid { semi_axes } = base else { unreachable!("ellipsoid-polytope with {base:?}") };
    let placed = Placed { shape: Polytope::of(follower).expect("a polytope follower"), pose: follower_pose, frame: follower_frame };
    ellipsoid_points(semi_axes, base_frame, &placed, found)
}

/// A polytope (base) and a capsule's points over the frames (the `PolytopeCapsule` family).
pub(super) fn capsule_points_over<S: Real>(
    base: &Shape,
    base_pose: &Pose,
    base_frame: &Frame<S>,
    follower: &Shape,
    follower_pose: &Pose,
    follower_frame: &Frame<S>,
    found: &[ContactPoint],
) -> Vec<ContactPoint<S>> {
    if found.is_empty() {
        return Vec::new();
    }
    let Shape::Capsule { radius, half_length } = *follower else { unreachable!("polytope-capsule with {follower:?}") };
    let placed = Placed { shape: Polytope::of(base).expect("a polytope base"), pose: base_pose, frame: base_frame };
    capsule_points(&placed, radius, half_length, follower_pose, follower_frame, found)
}

#[cfg(test)]
mod tests {
    use nalgebra::{Quaternion, UnitQuaternion};

    use super::*;
    use crate::dual::Dual;

    type D = Dual<1>;

    /// The pose of B turned by the angle `t` about `axis` (in W) from `pose`.
    fn turned(pose: &Pose, axis: &Vec3, t: f64) -> Pose {
        Pose { r: pose.r, q: UnitQuaternion::from_scaled_axis(axis * t) * pose.q }
    }

    /// B's frame over a dual number along the turn of [`turned`] at `t = 0`: the quaternion's
    /// tangent `1/2 (0, axis) ⊗ q`, through the frame's normalisation.
    fn turning_frame(pose: &Pose, axis: &Vec3) -> Frame<D> {
        let q = pose.q.quaternion();
        let dq = Quaternion::new(0.0, axis.x, axis.y, axis.z) * q * 0.5;
        let c = |v: f64, d: f64| D::new(v, [d]);
        Frame::from_quaternion(D::vc(&pose.r), [c(q.w, dq.w), c(q.i, dq.i), c(q.j, dq.j), c(q.k, dq.k)])
    }

    /// The patch of A (a large box, its top face at z = 0) and B pressed into it 0.095 deep and
    /// tilted, its points' weights in the fade's ramp: their derivatives along a turn of B
    /// (which moves B's lowest vertex, so the depth's derivative enters) agree with central
    /// differences of `convex.rs`'s weights, and so do the separations.
    fn fading_patch_follows_differences(shape_b: &Shape) {
        let shape_a = Shape::Box { half_extents: Vec3::new(0.5, 0.5, 0.5) };
        let pose_a = Pose { r: Vec3::new(0.0, 0.0, -0.5), q: UnitQuaternion::identity() };
        let tilt = UnitQuaternion::from_scaled_axis(Vec3::new(0.01, 0.02, 0.0));
        let b = Polytope::of(shape_b).expect("a polytope");
        // The lowest point of the tilted B at the depth.
        let lowest = b.vertices().iter().map(|v| (tilt * v).z).fold(f64::INFINITY, f64::min);
        let depth = 0.095;
        let pose_b = Pose { r: Vec3::new(0.01, -0.02, -depth - lowest), q: tilt };
        let axis = Vec3::new(0.3, -0.8, 0.5).normalize();
        let found = |pose: &Pose| {
            let mut out = Vec::new();
            super::super::convex_pair::contacts(&shape_a, &pose_a, shape_b, pose, &mut out);
            out
        };
        let points64 = found(&pose_b);
        let total: f64 = points64.iter().map(|p| p.weight).sum();
        assert!(points64.len() >= 3 && total > 0.4 && total < 3.6, "not in the fade's ramp: {points64:?}");
        let (frame_a, frame_b) = (Frame::<D>::constant(&pose_a), turning_frame(&pose_b, &axis));
        let a = Placed { shape: Polytope::of(&shape_a).unwrap(), pose: &pose_a, frame: &frame_a };
        let duals = points(&a, &Placed { shape: b, pose: &pose_b, frame: &frame_b }, &points64);
        let h = 1e-6;
        let (plus, minus) = (found(&turned(&pose_b, &axis, h)), found(&turned(&pose_b, &axis, -h)));
        assert_eq!((plus.len(), minus.len()), (duals.len(), duals.len()));
        for (i, dual) in duals.iter().enumerate() {
            let difference = (plus[i].weight - minus[i].weight) / (2.0 * h);
            let tangent = dual.weight.d[0];
            assert!(tangent.is_finite() && (tangent - difference).abs() <= 1e-5 * difference.abs().max(1.0), "point {i}: {tangent} against {difference}");
            let separation = (plus[i].separation - minus[i].separation) / (2.0 * h);
            assert!((dual.separation.d[0] - separation).abs() <= 1e-5 * separation.abs().max(1e-3), "point {i}: {:?} against {separation}", dual.separation);
        }
        // The depth moves the weights: the turn changes them.
        assert!(duals.iter().any(|d| d.weight.d[0].abs() > 1e-3), "{duals:?}");
    }

    /// Two hulls of 150 vertices (points on ellipsoids: triangle faces), apart in random poses:
    /// each witness's feature found around the support vertex is the one the search of every
    /// feature finds, and the separation's derivative along a turn and a shift of B agrees with
    /// central differences of `convex.rs`'s.
    #[test]
    fn large_hulls_apart_name_the_features_a_full_search_names() {
        use crate::test_rng::XorShift64Star as Rng;
        let mut rng = Rng(0x5eed_4a11);
        let mut hull = |axes: Vec3| {
            let points: Vec<Vec3> = (0..150).map(|_| rng.unit().component_mul(&axes)).collect();
            Shape::ConvexHull(std::sync::Arc::new(ConvexHull::new(&points).unwrap()))
        };
        let (shape_a, shape_b) = (hull(Vec3::new(0.1, 0.07, 0.05)), hull(Vec3::new(0.06, 0.08, 0.1)));
        let (a, b) = (Polytope::of(&shape_a).unwrap(), Polytope::of(&shape_b).unwrap());
        assert!(matches!(a, Polytope::Hull(h) if h.vertices.len() > crate::shape::SCAN_VERTICES));
        let mut kinds = [0; 3];
        for _ in 0..30 {
            let pose_a = Pose { r: rng.vec(0.1), q: rng.rotation() };
            let q_b = rng.rotation();
            let pose_b = Pose { r: pose_a.r + rng.unit() * 0.25, q: q_b };
            let (axis, shift) = (rng.unit(), rng.unit());
            let found = |pose: &Pose| {
                let mut out = Vec::new();
                super::super::convex_pair::contacts(&shape_a, &pose_a, &shape_b, pose, &mut out);
                out
            };
            let points64 = found(&pose_b);
            let [single] = points64[..] else { panic!("apart: one point, not {points64:?}") };
            assert!(single.separation > 0.0);
            let scale = a.size().max(b.size());
            for (shape, pose, p, d) in [(&a, &pose_a, single.p_a_w, single.normal_ab_w), (&b, &pose_b, single.p_b_w, -single.normal_ab_w)] {
                let local = pose.q.inverse() * (p - pose.r);
                let tolerance = FEATURE_TOLERANCE * scale;
                let feature = classify(shape, &local, tolerance, &(pose.q.inverse() * d));
                assert_eq!(feature, classify_all(shape, &local, tolerance));
                // Found around the support vertex, not by the fallback.
                let Polytope::Hull(hull) = shape else { unreachable!() };
                assert_eq!(classify_around(hull, &local, tolerance, hull.support_index(&(pose.q.inverse() * d))), feature);
                kinds[match feature {
                    Some(Feature::Vertex(_)) => 0,
                    Some(Feature::Edge(..)) => 1,
                    _ => 2,
                }] += 1;
            }
            // B turned about `axis` and shifted along `shift` at once.
            let moved = |t: f64| Pose { r: pose_b.r + shift * t, q: UnitQuaternion::from_scaled_axis(axis * t) * pose_b.q };
            let mut frame_b = turning_frame(&pose_b, &axis);
            frame_b.r = Vector3::new(D::new(pose_b.r.x, [shift.x]), D::new(pose_b.r.y, [shift.y]), D::new(pose_b.r.z, [shift.z]));
            let frame_a = Frame::<D>::constant(&pose_a);
            let duals = points(&Placed { shape: a, pose: &pose_a, frame: &frame_a }, &Placed { shape: b, pose: &pose_b, frame: &frame_b }, &points64);
            let h = 1e-6;
            let difference = (found(&moved(h))[0].separation - found(&moved(-h))[0].separation) / (2.0 * h);
            let tangent = duals[0].separation.d[0];
            assert!((tangent - difference).abs() <= 1e-5 * difference.abs().max(1e-2), "{tangent} against {difference} ({single:?})");
        }
        // The draws meet vertices and edges (faces meet vertices or edges apart).
        assert!(kinds[0] > 0 && kinds[1] > 0, "{kinds:?}");
    }

    #[test]
    fn a_fading_box_patch_follows_its_differences() {
        fading_patch_follows_differences(&Shape::Box { half_extents: Vec3::new(0.05, 0.5, 0.5) });
    }

    /// A hull of 80 vertices (two 40-gons: a flat slab), large enough that its support queries
    /// climb its edge graph.
    #[test]
    fn a_fading_hull_patch_follows_its_differences() {
        let ring = |z: f64| {
            (0..40).map(move |k| {
                let t = std::f64::consts::TAU * (k as f64 + 0.25) / 40.0;
                Vec3::new(0.05 * t.cos(), 0.4 * t.sin(), z)
            })
        };
        let points: Vec<Vec3> = ring(-0.5).chain(ring(0.5)).collect();
        let hull = ConvexHull::new(&points).unwrap();
        assert!(hull.vertices.len() > crate::shape::SCAN_VERTICES);
        fading_patch_follows_differences(&Shape::ConvexHull(std::sync::Arc::new(hull)));
    }
}
