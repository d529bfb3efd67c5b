//! Contact kinematics over any [`Real`]: the witnesses, normal and separation of the points the
//! `f64` pass found, as closed-form functions of the two geometry frames with each point's
//! features held (a plane and a vertex, a corner, a rim point, an end sphere, a cloud point and
//! the surface feature its query landed on). With dual frames this gives their exact
//! derivatives with respect to the poses.
//!
//! Each point keeps the identity the `f64` pass gave it (its id: a corner, a vertex, a cloud
//! point, a capsule end); the branches of the closed forms (which end of a capsule points down,
//! which face of a box is nearest) are decided on the values, as the `f64` pass decided them.
//! The values of the result are then set to the `f64` pass's own numbers bit for bit, so the
//! laws evaluate at exactly the point the outputs came from.
//!
//! Capsule-capsule runs its whole closed-form construction (closest points, stations and their
//! pose-dependent weights) over the dual frames; so do the finite-face pairs
//! (`kinematics_face`). The polytope pairs of `convex.rs` (box-box, hull-hull, hull-box,
//! hull-rectangle), an ellipsoid against those, box-capsule and hull-capsule, and the hull's
//! surface query identify their features from the `f64` points and re-derive them
//! (`kinematics_polytope`), as does the mesh's surface query (`kinematics_mesh`). Pair families
//! whose points come from an iterative solve with curved features (the other GJK/EPA pairs) or
//! from parry's mesh manifolds (mesh against a solid) are refused by
//! [`GeometryPair::differentiable`] with the reason. The ellipsoid's iterated surface query is
//! differentiated by one Newton step over the Real from its converged root.
//!
//! A compound pair (`compound.rs`) takes each pair of parts' kinematics at the frames composed
//! with the parts' poses, each point matched to its pair of parts by its id.

use nalgebra::Vector3;

use super::{capsule_capsule, kinematics_face, kinematics_mesh, kinematics_polytope, ContactPoint, GeometryPair};
use crate::math::{Pose, Vec3};
use crate::real::Real;
use crate::shape::{Shape, ShapeKind};

/// A frame over any [`Real`]: origin and the columns of the rotation matrix, in W.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame<S: Real> {
    pub r: Vector3<S>,
    /// The frame's x, y, z axes in W.
    pub axes: [Vector3<S>; 3],
}

impl<S: Real> Frame<S> {
    /// The frame of position `r` and the rotation of the quaternion `q` = (w, x, y, z), which is
    /// normalised here (its derivative goes through the normalisation).
    pub fn from_quaternion(r: Vector3<S>, q: [S; 4]) -> Frame<S> {
        let norm = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        let [w, x, y, z] = q.map(|c| c / norm);
        let (one, two) = (S::c(1.0), S::c(2.0));
        let axes = [
            Vector3::new(one - two * (y * y + z * z), two * (x * y + w * z), two * (x * z - w * y)),
            Vector3::new(two * (x * y - w * z), one - two * (x * x + z * z), two * (y * z + w * x)),
            Vector3::new(two * (x * z + w * y), two * (y * z - w * x), one - two * (x * x + y * y)),
        ];
        Frame { r, axes }
    }

    /// A constant frame.
    pub fn constant(pose: &Pose) -> Frame<S> {
        let m = pose.q.to_rotation_matrix();
        Frame { r: S::vc(&pose.r), axes: [0, 1, 2].map(|i| S::vc(&m.matrix().column(i).into_owned())) }
    }

    /// A vector given in this frame, in W.
    pub fn vector(&self, v: &Vector3<S>) -> Vector3<S> {
        self.axes[0] * v.x + self.axes[1] * v.y + self.axes[2] * v.z
    }

    /// A point given in this frame, in W.
    pub fn point(&self, p: &Vector3<S>) -> Vector3<S> {
        self.r + self.vector(p)
    }

    /// A constant point of the body (a vertex), in W.
    pub fn fixed_point(&self, p: &Vec3) -> Vector3<S> {
        self.point(&S::vc(p))
    }

    /// A point in W, in this frame.
    pub fn local(&self, p_w: &Vector3<S>) -> Vector3<S> {
        let d = p_w - self.r;
        Vector3::new(self.axes[0].dot(&d), self.axes[1].dot(&d), self.axes[2].dot(&d))
    }

    /// The frame of a child given relative to this one (a geometry offset).
    pub fn compose(&self, child: &Pose) -> Frame<S> {
        let m = child.q.to_rotation_matrix();
        Frame { r: self.fixed_point(&child.r), axes: [0, 1, 2].map(|i| self.vector(&S::vc(&m.matrix().column(i).into_owned()))) }
    }
}

/// A geometry pair whose derivatives are not available.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotDifferentiable {
    pub a: ShapeKind,
    pub b: ShapeKind,
    pub reason: &'static str,
}

impl std::fmt::Display for NotDifferentiable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no exact derivatives for the geometry pair {} (A) - {} (B): {}", self.a.name(), self.b.name(), self.reason)
    }
}

/// The closed form a canonical pair (base first) is differentiated with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// Plane and a point or sphere centre.
    PlaneSphere,
    SphereSphere,
    /// Plane and a corner of a box (id = corner) or rectangle.
    PlaneBox,
    PlaneRectangle,
    /// Plane and a rim point of a cylinder or disk (id as in cylinder_plane / disk_plane).
    PlaneCylinder,
    PlaneDisk,
    /// Plane and the lowest point of a capsule end (id = end).
    PlaneCapsule,
    /// Plane and a vertex (id = vertex index) of a hull or mesh.
    PlaneVertex,
    /// Plane and the support point of an ellipsoid.
    PlaneEllipsoid,
    /// Two capsules: the whole construction (closest points, stations and their weights) over
    /// the dual frames, each point matched by id.
    CapsuleCapsule,
    /// Two polytopes (box, hull, a rectangle's prism) of `convex.rs`: its patch or closest pair
    /// re-derived with the features held (`kinematics_polytope`), each point matched by id.
    Polytope,
    /// A Rectangle or Disk face and a box, cylinder or capsule, or two faces (`face_box`,
    /// `face_cylinder`, `face_capsule`, `face_face`): the candidates and the covered-fraction
    /// weight over the frames (`kinematics_face`), each point matched by id.
    FaceSolid,
    FaceFace,
    /// An ellipsoid and a polytope of `convex.rs`: its one point against a face or a vertex
    /// (`kinematics_polytope`), matched by id.
    EllipsoidPolytope,
    /// A polytope and a capsule of `convex.rs`: its patch or closest pair re-derived
    /// (`kinematics_polytope`), matched by id.
    PolytopeCapsule,
    /// A closed-form surface query (base) and a sphere centre or a cloud point (follower).
    SurfacePoint,
    SurfaceCloud,
}

/// Surfaces whose query is a closed form (see [`local_surface`]).
fn closed_form_surface(kind: ShapeKind) -> bool {
    use ShapeKind::*;
    matches!(kind, Plane | Sphere | Box | Cylinder | Capsule | Disk | Rectangle | GridSurface | Ellipsoid | ConvexHull | Mesh)
}

fn family(base: ShapeKind, follower: ShapeKind) -> Result<Family, &'static str> {
    use ShapeKind::*;
    Ok(match (base, follower) {
        (Plane, Point | Sphere) => Family::PlaneSphere,
        (Sphere | Point, Sphere | Point) => Family::SphereSphere,
        (Plane, Box) => Family::PlaneBox,
        (Plane, Rectangle) => Family::PlaneRectangle,
        (Plane, Cylinder) => Family::PlaneCylinder,
        (Plane, Disk) => Family::PlaneDisk,
        (Plane, Capsule) => Family::PlaneCapsule,
        (Plane, ConvexHull | Mesh) => Family::PlaneVertex,
        (Plane, Ellipsoid) => Family::PlaneEllipsoid,
        (base, Point | Sphere) if closed_form_surface(base) => Family::SurfacePoint,
        (base, PointCloud) if closed_form_surface(base) => Family::SurfaceCloud,
        (Capsule, Capsule) => Family::CapsuleCapsule,
        (ConvexHull, ConvexHull | Box | Rectangle) | (Box, Box) => Family::Polytope,
        (Ellipsoid, ConvexHull | Box | Rectangle) => Family::EllipsoidPolytope,
        (ConvexHull | Box, Capsule) => Family::PolytopeCapsule,
        (Rectangle | Disk, Box | Cylinder | Capsule) => Family::FaceSolid,
        (Rectangle, Rectangle | Disk) | (Disk, Disk) => Family::FaceFace,
        (Mesh, _) => return Err("the contact points come from parry's per-triangle contact manifolds, whose features are not tracked"),
        _ => return Err("the contact points come from an iterative solve (GJK/EPA) with curved features, whose features are not tracked"),
    })
}

impl GeometryPair {
    /// Whether [`GeometryPair::contacts_over`] can differentiate this pair; the error names the
    /// pair and says why not.
    pub fn differentiable(&self) -> Result<(), NotDifferentiable> {
        if let Some(parts) = &self.parts {
            return super::compound::differentiable(parts);
        }
        if self.inside != [false, false] {
            return Err(NotDifferentiable {
                a: self.shape_a.kind(),
                b: self.shape_b.kind(),
                reason: "an inside surface (geometry_X.inside) has no exact derivatives yet",
            });
        }
        let (base, follower) = if self.flipped { (&self.shape_b, &self.shape_a) } else { (&self.shape_a, &self.shape_b) };
        family(base.kind(), follower.kind())
            .map(|_| ())
            .map_err(|reason| NotDifferentiable { a: self.shape_a.kind(), b: self.shape_b.kind(), reason })
    }

    /// The kinematics of this pair at the frames `frame_a`, `frame_b` over any [`Real`], whose
    /// values are the poses `pose_a`, `pose_b` the points were found at: see
    /// [`Kinematics::point`], which takes any of `found`, all the points
    /// [`GeometryPair::contacts`] gave at the poses (the pairs of `convex.rs` re-derive them
    /// together, without searching again; the others take each point alone). Panics for a pair
    /// that [`GeometryPair::differentiable`] refuses.
    pub fn kinematics<'a, S: Real>(&'a self, pose_a: &Pose, pose_b: &Pose, frame_a: &Frame<S>, frame_b: &Frame<S>, found: &[ContactPoint]) -> Kinematics<'a, S> {
        match &self.parts {
            Some(parts) => Kinematics(Inner::Compound(super::compound::kinematics(parts, pose_a, pose_b, frame_a, frame_b, found))),
            None => Kinematics(Inner::Pair(self.pair_kinematics(pose_a, pose_b, *frame_a, *frame_b, found))),
        }
    }

    /// [`GeometryPair::kinematics`] of a pair that is not a compound.
    pub(super) fn pair_kinematics<'a, S: Real>(&'a self, pose_a: &Pose, pose_b: &Pose, frame_a: Frame<S>, frame_b: Frame<S>, found: &[ContactPoint]) -> PairKinematics<'a, S> {
        let flipped = if self.same_kind { super::pose_key_less(&super::pose_key(pose_b), &super::pose_key(pose_a)) } else { self.flipped };
        let (base, base_frame, follower, follower_frame) =
            if flipped { (&self.shape_b, frame_b, &self.shape_a, frame_a) } else { (&self.shape_a, frame_a, &self.shape_b, frame_b) };
        let (base_frame, follower_frame) = (&base_frame, &follower_frame);
        let family = family(base.kind(), follower.kind()).unwrap_or_else(|reason| panic!("{reason}"));
        // The points in the canonical order (base first), as `convex.rs` gave them.
        let canonical = || -> Vec<ContactPoint> { found.iter().map(|p| if flipped { p.flipped() } else { *p }).collect() };
        let mut capsule_points = Vec::new();
        if family == Family::CapsuleCapsule {
            let segment = |shape: &Shape, frame: &Frame<S>| {
                let Shape::Capsule { radius, half_length } = *shape else { unreachable!("capsule-capsule with {shape:?}") };
                capsule_capsule::Segment { centre: frame.r, axis: frame.axes[2], half_length, radius }
            };
            capsule_capsule::points(&segment(base, base_frame), &segment(follower, follower_frame), &mut capsule_points);
        }
        if family == Family::Polytope && !found.is_empty() {
            let (base_pose, follower_pose) = if flipped { (pose_b, pose_a) } else { (pose_a, pose_b) };
            let placed = |shape: &'a Shape, pose, frame| kinematics_polytope::Placed {
                shape: kinematics_polytope::Polytope::of(shape).expect("a polytope pair"),
                pose,
                frame,
            };
            capsule_points = kinematics_polytope::points(&placed(base, base_pose, base_frame), &placed(follower, follower_pose, follower_frame), &canonical());
        }
        if family == Family::EllipsoidPolytope && !found.is_empty() {
            let follower_pose = if flipped { pose_a } else { pose_b };
            let Shape::Ellipsoid { semi_axes } = base else { unreachable!("ellipsoid-polytope with {base:?}") };
            let placed = kinematics_polytope::Placed {
                shape: kinematics_polytope::Polytope::of(follower).expect("a polytope follower"),
                pose: follower_pose,
                frame: follower_frame,
            };
            capsule_points = kinematics_polytope::ellipsoid_points(semi_axes, base_frame, &placed, &canonical());
        }
        if family == Family::PolytopeCapsule && !found.is_empty() {
            let (base_pose, follower_pose) = if flipped { (pose_b, pose_a) } else { (pose_a, pose_b) };
            let Shape::Capsule { radius, half_length } = *follower else { unreachable!("polytope-capsule with {follower:?}") };
            let placed = kinematics_polytope::Placed {
                shape: kinematics_polytope::Polytope::of(base).expect("a polytope base"),
                pose: base_pose,
                frame: base_frame,
            };
            capsule_points = kinematics_polytope::capsule_points(&placed, radius, half_length, follower_pose, follower_frame, &canonical());
        }
        if family == Family::FaceSolid {
            let outline = super::finite_face::Outline::of(base).expect("a face base");
            capsule_points = kinematics_face::face_solid(&outline, base_frame, follower, follower_frame);
        }
        if family == Family::FaceFace {
            capsule_points = kinematics_face::face_face(base, base_frame, follower, follower_frame);
        }
        PairKinematics { family, flipped, base, base_frame: *base_frame, follower, follower_frame: *follower_frame, capsule_points }
    }

    /// The points `found` (those [`GeometryPair::contacts`] gave at `pose_a`, `pose_b`) as
    /// functions of the frames: [`Kinematics::point`] of each.
    pub fn contacts_over<S: Real>(&self, pose_a: &Pose, pose_b: &Pose, frame_a: &Frame<S>, frame_b: &Frame<S>, found: &[ContactPoint]) -> Vec<ContactPoint<S>> {
        let kinematics = self.kinematics(pose_a, pose_b, frame_a, frame_b, found);
        found.iter().map(|point| kinematics.point(point)).collect()
    }
}

/// A pair's contact kinematics at given frames, prepared once for its points.
pub struct Kinematics<'a, S: Real>(Inner<'a, S>);

enum Inner<'a, S: Real> {
    Pair(PairKinematics<'a, S>),
    /// A compound pair: each part pair's kinematics with the range of ids its points have.
    Compound(Vec<(std::ops::Range<u32>, PairKinematics<'a, S>)>),
}

impl<S: Real> Kinematics<'_, S> {
    /// The point `found` (one [`GeometryPair::contacts`] gave at the poses) as a function of the
    /// frames: with dual frames, its exact derivatives. Its values are `found`'s bit for bit.
    pub fn point(&self, found: &ContactPoint) -> ContactPoint<S> {
        match &self.0 {
            Inner::Pair(pair) => pair.point(found),
            Inner::Compound(parts) => {
                let (range, part) = parts.iter().find(|(range, _)| range.contains(&found.id)).expect("a point of one of the part pairs");
                let mut point = part.point(&found.with_id(found.id - range.start));
                point.id = found.id;
                point
            }
        }
    }
}

/// The kinematics of a pair that is not a compound (of one pair of parts of a compound).
pub(super) struct PairKinematics<'a, S: Real> {
    family: Family,
    /// The canonical pair takes B first.
    flipped: bool,
    base: &'a Shape,
    base_frame: Frame<S>,
    follower: &'a Shape,
    follower_frame: Frame<S>,
    /// Capsule-capsule, the polytopes and the face pairs: the whole construction over the frames.
    capsule_points: Vec<ContactPoint<S>>,
}

impl<S: Real> PairKinematics<'_, S> {
    fn point(&self, found: &ContactPoint) -> ContactPoint<S> {
        let canonical = if self.flipped { found.flipped() } else { *found };
        let mut dual = match self.family {
            Family::CapsuleCapsule | Family::Polytope | Family::FaceSolid | Family::FaceFace | Family::EllipsoidPolytope | Family::PolytopeCapsule => *self
                .capsule_points
                .iter()
                .find(|p| p.id == canonical.id)
                .expect("the dual construction gives the points the f64 one gave"),
            family => {
                let mut dual = kinematics(family, self.base, &self.base_frame, self.follower, &self.follower_frame, &canonical);
                // The weight of every other differentiated pair is a constant of the pair.
                dual.weight = S::c(canonical.weight);
                dual
            }
        };
        dual.id = canonical.id;
        let dual = if self.flipped { dual.flipped() } else { dual };
        with_values(&dual, found)
    }
}

/// `dual`'s tangents with `values`' numbers.
fn with_values<S: Real>(dual: &ContactPoint<S>, values: &ContactPoint) -> ContactPoint<S> {
    let v = |d: &Vector3<S>, v: &Vec3| Vector3::new(d.x.with_v(v.x), d.y.with_v(v.y), d.z.with_v(v.z));
    ContactPoint {
        p_a_w: v(&dual.p_a_w, &values.p_a_w),
        p_b_w: v(&dual.p_b_w, &values.p_b_w),
        normal_ab_w: v(&dual.normal_ab_w, &values.normal_ab_w),
        separation: dual.separation.with_v(values.separation),
        weight: dual.weight.with_v(values.weight),
        id: values.id,
    }
}

/// A plane (its frame) and a point of B at `p_b`: witnesses `p_b` and its projection.
fn plane_point<S: Real>(plane: &Frame<S>, p_b: Vector3<S>) -> ContactPoint<S> {
    let n = plane.axes[2];
    let height = (p_b - plane.r).dot(&n);
    let mut point = ContactPoint::new(p_b - n * height, p_b, n);
    point.separation = height;
    point
}

/// Corner `i` of a box of half extents `h` (box_plane's numbering).
fn corner(i: u32, h: &Vec3) -> Vec3 {
    let sign = |bit: u32| if i & bit == 0 { -1.0 } else { 1.0 };
    Vec3::new(sign(1) * h.x, sign(2) * h.y, sign(4) * h.z)
}

fn kinematics<S: Real>(family: Family, base: &Shape, fb: &Frame<S>, follower: &Shape, ff: &Frame<S>, point: &ContactPoint) -> ContactPoint<S> {
    let id = point.id;
    match (family, follower) {
        (Family::PlaneSphere, _) => {
            let n = fb.axes[2];
            plane_point(fb, ff.r - n * S::c(super::sphere_radius(follower)))
        }
        (Family::SphereSphere, _) => {
            let (ra, rb) = (super::sphere_radius(base), super::sphere_radius(follower));
            let offset = ff.r - fb.r;
            let distance = S::norm(&offset);
            let normal = if distance.v() > 1e-300 { offset / distance } else { Vector3::z() };
            let mut p = ContactPoint::new(fb.r + normal * S::c(ra), ff.r - normal * S::c(rb), normal);
            p.separation = distance - ra - rb;
            p
        }
        (Family::PlaneBox, Shape::Box { half_extents }) => plane_point(fb, ff.fixed_point(&corner(id, half_extents))),
        (Family::PlaneRectangle, Shape::Rectangle { half_x, half_y }) => {
            plane_point(fb, ff.fixed_point(&corner(id, &Vec3::new(*half_x, *half_y, 0.0))))
        }
        (Family::PlaneCylinder, Shape::Cylinder { radius, half_length }) => {
            // Ids 0 and 1 are the lowest points of the -z and +z ends, 2-4 and 5-7 the others.
            let (end, k) = match id {
                0 => (-1.0, 0),
                1 => (1.0, 0),
                2..=4 => (-1.0, id - 1),
                _ => (1.0, id - 4),
            };
            let centre = ff.r + ff.axes[2] * S::c(end * half_length);
            plane_point(fb, rim_point(&centre, &ff.axes[2], *radius, &ff.axes[0], &fb.axes[2], k))
        }
        (Family::PlaneDisk, Shape::Disk { radius }) => plane_point(fb, rim_point(&ff.r, &ff.axes[2], *radius, &ff.axes[0], &fb.axes[2], id)),
        (Family::PlaneCapsule, Shape::Capsule { radius, half_length }) => {
            let n = fb.axes[2];
            if *half_length == 0.0 {
                return plane_point(fb, ff.r - n * S::c(*radius));
            }
            let u = ff.axes[2];
            let across = n - u * n.dot(&u);
            let m = if across.norm_like() > 1e-9 {
                across / S::norm(&across)
            } else {
                let w = if u.x.v().abs() < 0.5 { Vector3::x() } else { Vector3::y() };
                let w = w - u * w.dot(&u);
                w / S::norm(&w)
            };
            let outward = if id == 0 { -u } else { u };
            let end = ff.r + outward * S::c(*half_length);
            let lowest = if outward.dot(&n).v() <= 0.0 { end - n * S::c(*radius) } else { end - m * S::c(*radius) };
            plane_point(fb, lowest)
        }
        (Family::PlaneVertex, Shape::ConvexHull(hull)) => plane_point(fb, ff.fixed_point(&hull.vertices[id as usize])),
        (Family::PlaneVertex, Shape::Mesh(mesh)) => plane_point(fb, ff.fixed_point(&mesh.vertices[id as usize])),
        (Family::PlaneEllipsoid, Shape::Ellipsoid { semi_axes: a }) => {
            // The support point along -n: A^2 d / |A d| with d = -n in the ellipsoid's frame.
            let d = ff.local(&(ff.r - fb.axes[2]));
            let ad = Vector3::new(d.x * a.x, d.y * a.y, d.z * a.z);
            let norm = S::norm(&ad);
            let local = if norm.v() == 0.0 { Vector3::new(S::c(0.0), S::c(0.0), S::c(a.z)) } else { Vector3::new(ad.x * a.x, ad.y * a.y, ad.z * a.z) / norm };
            plane_point(fb, ff.point(&local))
        }
        (Family::SurfacePoint, _) => {
            let radius = super::sphere_radius(follower);
            let (s, n, distance) = surface(base, fb, &ff.r);
            let mut p = ContactPoint::new(s, ff.r - n * S::c(radius), n);
            p.separation = distance - radius;
            p
        }
        (Family::SurfaceCloud, Shape::PointCloud(cloud)) => {
            let p_w = ff.fixed_point(&cloud.points[id as usize]);
            let (s, n, distance) = surface(base, fb, &p_w);
            let mut p = ContactPoint::new(s, p_w, n);
            p.separation = distance;
            p
        }
        _ => unreachable!("family {family:?} with follower {:?} has no per-point closed form", follower.kind()),
    }
}

/// Rim point `k` (0 the lowest along -n, then +90, +180, +270 degrees about the axis) of a
/// circle, as `cylinder_plane::rim_points`.
pub(super) fn rim_point<S: Real>(centre: &Vector3<S>, axis: &Vector3<S>, radius: f64, reference: &Vector3<S>, n: &Vector3<S>, k: u32) -> Vector3<S> {
    let across = -(n - axis * n.dot(axis));
    let norm = S::norm(&across);
    let u = if norm.v() > 1e-12 { across / norm } else { *reference };
    let v = axis.cross(&u);
    let direction = match k {
        0 => u,
        1 => v,
        2 => -u,
        _ => -v,
    };
    centre + direction * S::c(radius)
}

/// The nearest surface point of `shape` (its frame `frame`) to `p_w`, the outward normal and the
/// signed distance, in W: `distance::to_surface` over any [`Real`].
fn surface<S: Real>(shape: &Shape, frame: &Frame<S>, p_w: &Vector3<S>) -> (Vector3<S>, Vector3<S>, S) {
    if let Shape::Plane = shape {
        // The plane through the frame's origin normal to its z axis, in W directly (as
        // `cloud_surface` and `plane_sphere` compute it): the height along the normal and the
        // foot. The same function of the frame as through the local coordinates below, for a
        // third of the operations.
        let n = frame.axes[2];
        let height = (p_w - frame.r).dot(&n);
        return (p_w - n * height, n, height);
    }
    let local = frame.local(p_w);
    let (point, normal, distance) = local_surface(shape, &local);
    (frame.point(&point), frame.vector(&normal), distance)
}

/// `distance::local_surface` over any [`Real`], for the closed-form surfaces: the same branches,
/// decided on the values.
pub(super) fn local_surface<S: Real>(shape: &Shape, p: &Vector3<S>) -> (Vector3<S>, Vector3<S>, S) {
    let zero = S::c(0.0);
    let z = Vector3::new(zero, zero, S::c(1.0));
    let flat = |p: &Vector3<S>| Vector3::new(p.x, p.y, zero);
    let from = |q: Vector3<S>, fallback: Vector3<S>| {
        let offset = p - q;
        let norm = S::norm(&offset);
        let normal = if norm.v() > 0.0 { offset / norm } else { fallback };
        (q, normal, norm)
    };
    match shape {
        Shape::Plane => (flat(p), z, p.z),
        Shape::Sphere { radius } => {
            let norm = S::norm(p);
            let normal = if norm.v() > 1e-300 { p / norm } else { z };
            (normal * S::c(*radius), normal, norm - *radius)
        }
        Shape::Capsule { radius, half_length } => {
            let axis_point = Vector3::new(zero, zero, clamp(p.z, *half_length));
            let offset = p - axis_point;
            let norm = S::norm(&offset);
            let normal = if norm.v() > 1e-300 { offset / norm } else { Vector3::x() };
            (axis_point + normal * S::c(*radius), normal, norm - *radius)
        }
        Shape::Box { half_extents: h } => {
            let clamped = Vector3::new(clamp(p.x, h.x), clamp(p.y, h.y), clamp(p.z, h.z));
            let offset = p - clamped;
            let norm = S::norm(&offset);
            if norm.v() > 0.0 {
                return (clamped, offset / norm, norm);
            }
            let depth = [S::c(h.x) - p.x.abs(), S::c(h.y) - p.y.abs(), S::c(h.z) - p.z.abs()];
            let k = if depth[0].v() <= depth[1].v() && depth[0].v() <= depth[2].v() {
                0
            } else if depth[1].v() <= depth[2].v() {
                1
            } else {
                2
            };
            let sign = if p[k].v() < 0.0 { -1.0 } else { 1.0 };
            let mut point = *p;
            point[k] = S::c(sign * h[k]);
            let mut normal = Vector3::zeros();
            normal[k] = S::c(sign);
            (point, normal, -depth[k])
        }
        Shape::Cylinder { radius, half_length } => {
            let rho = S::norm(&flat(p));
            let radial = if rho.v() > 1e-300 { flat(p) / rho } else { Vector3::x() };
            let z_sign = if p.z.v() < 0.0 { -1.0 } else { 1.0 };
            let nearest = radial * rho.min(S::c(*radius)) + z * clamp(p.z, *half_length);
            let offset = p - nearest;
            let norm = S::norm(&offset);
            if (rho.v() > *radius || p.z.v().abs() > *half_length) && norm.v() > 0.0 {
                return (nearest, offset / norm, norm);
            }
            let (side_depth, cap_depth) = (-rho + *radius, -p.z.abs() + *half_length);
            if side_depth.v() <= cap_depth.v() {
                (radial * S::c(*radius) + z * p.z, radial, -side_depth)
            } else {
                (Vector3::new(p.x, p.y, S::c(z_sign * half_length)), z * S::c(z_sign), -cap_depth)
            }
        }
        Shape::Disk { radius } => {
            let rho = S::norm(&flat(p));
            if rho.v() <= *radius {
                (flat(p), z, p.z)
            } else {
                from(flat(p) * (S::c(*radius) / rho), z)
            }
        }
        Shape::Rectangle { half_x, half_y } => {
            if p.x.v().abs() <= *half_x && p.y.v().abs() <= *half_y {
                (flat(p), z, p.z)
            } else {
                from(Vector3::new(clamp(p.x, *half_x), clamp(p.y, *half_y), zero), z)
            }
        }
        Shape::GridSurface(field) => {
            let cell = |s: S, nodes: usize| {
                let index = (s.v().floor().max(0.0) as usize).min(nodes - 2);
                (index, s - index as f64)
            };
            let (i, u) = cell((p.x - field.x0) / field.dx, field.nx);
            let (j, v) = cell((p.y - field.y0) / field.dy, field.ny);
            let at = |di: usize, dj: usize| field.heights[(j + dj) * field.nx + i + di];
            let (h00, h10, h01, h11) = (at(0, 0), at(1, 0), at(0, 1), at(1, 1));
            let (iu, iv) = (-u + 1.0, -v + 1.0);
            let height = iu * iv * h00 + u * iv * h10 + iu * v * h01 + u * v * h11;
            let h_x = (iv * (h10 - h00) + v * (h11 - h01)) / field.dx;
            let h_y = (iu * (h01 - h00) + u * (h11 - h10)) / field.dy;
            let raw = Vector3::new(-h_x, -h_y, S::c(1.0));
            let normal = raw / S::norm(&raw);
            let distance = (p.z - height) * normal.z;
            (p - normal * distance, normal, distance)
        }
        Shape::Ellipsoid { semi_axes: a } => {
            // The f64 query's root t of F(t) = sum (a_i y_i / (t + a_i^2))^2 - 1 (from its
            // point, x_i = a_i^2 y_i / (t + a_i^2)), then one Newton step on F over the Real y:
            // at the root, the step's tangent is the implicit function's, -F_y dy / F_t, exact.
            // Where a coordinate of y is exactly 0 the point can leave that plane (Eberly's
            // special cases) and the derivatives come out non-finite, which the FMU reports.
            let y = S::vv(p);
            let (x, _, distance) = super::ellipsoid::closest_point(a, &y);
            let k = (0..3).max_by(|&i, &j| (x[i] / a[i]).abs().total_cmp(&(x[j] / a[j]).abs())).unwrap_or(2);
            let t = a[k] * a[k] * (y[k] - x[k]) / x[k];
            let term = |i: usize| p[i] * (a[i] / (t + a[i] * a[i]));
            let f = term(0) * term(0) + term(1) * term(1) + term(2) * term(2) - 1.0;
            let slope: f64 = (0..3).map(|i| -2.0 * (a[i] * y[i]).powi(2) / (t + a[i] * a[i]).powi(3)).sum();
            let root = -(f / slope) + t;
            let point = Vector3::new(p.x * (a.x * a.x) / (root + a.x * a.x), p.y * (a.y * a.y) / (root + a.y * a.y), p.z * (a.z * a.z) / (root + a.z * a.z));
            let gradient = Vector3::new(point.x / (a.x * a.x), point.y / (a.y * a.y), point.z / (a.z * a.z));
            let normal = gradient / S::norm(&gradient);
            let gap = S::norm(&(p - point));
            (point, normal, if distance < 0.0 { -gap } else { gap })
        }
        Shape::ConvexHull(hull) => kinematics_polytope::hull_surface(hull, p),
        Shape::Mesh(mesh) => kinematics_mesh::mesh_surface(mesh, p),
        _ => unreachable!("no closed-form surface query for {:?}", shape.kind()),
    }
}

/// `x.clamp(-h, h)`, decided on the value.
fn clamp<S: Real>(x: S, h: f64) -> S {
    if x.v() < -h {
        S::c(-h)
    } else if x.v() > h {
        S::c(h)
    } else {
        x
    }
}

/// The value of a vector's norm.
trait NormLike {
    fn norm_like(&self) -> f64;
}

impl<S: Real> NormLike for Vector3<S> {
    fn norm_like(&self) -> f64 {
        S::vv(self).norm()
    }
}
