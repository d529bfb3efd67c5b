//! Geometry pairs: where two shapes touch, how far apart they are, and along which normal.
//!
//! Each canonical pair has one file with a canonical argument order (base shape first), listed
//! once in `canonical`. The mirrored order reuses it through [`ContactPoint::flipped`]. An
//! unsupported pair is an error at construction ([`UnsupportedPair`]), distinct from "no contact"
//! (a positive separation).
//!
//! A geometry may be an inside surface (`geometry_X.inside`): the solid is then the space outside
//! the shape's surface, and the canonical inside pairs (`inside_canonical`, the inside shape
//! first: `inside_sphere`, `inside_box`, `inside_cylinder`, `inside_capsule`, `inside_ellipsoid`,
//! with what they share in `cavity`) take what lies in the cavity. An inside cylinder's end faces
//! are on or off ([`Surface`]).
//!
//! A pair function appends the pair's contact points to a vector. Each point carries an `id`
//! below the pair's `max_points` (a box corner, a cloud point, a manifold slot), which keys the
//! per-point state of the stateful laws and the per-point outputs, and a `weight` that scales the
//! laws' forces at that point (1 except where a finite face is only partly covered, which keeps
//! forces continuous as a body slides off an edge).
//!
//! A compound geometry (several shapes on one body) is a pair of pairs: `compound.rs` evaluates
//! every pair of parts with the pairs above and numbers their points one after the other.

mod box_plane;
mod capsule_capsule;
mod capsule_plane;
mod cavity;
mod cloud_surface;
pub use cloud_surface::CloudOnPlane;
mod compound;
mod convex;
mod convex_pair;
mod cylinder_plane;
mod disk_plane;
pub mod distance;
mod ellipsoid;
mod face_box;
mod face_capsule;
mod face_cylinder;
mod face_face;
mod finite_face;
mod frame;
mod height_field;
pub(crate) mod hull_depth;
mod hull_dispatch;
mod hull_plane;
mod inside_box;
mod inside_capsule;
mod inside_cylinder;
mod inside_ellipsoid;
mod inside_sphere;
pub mod kinematics;
mod kinematics_face;
mod kinematics_mesh;
mod kinematics_polytope;
mod mesh;
mod plane_sphere;
mod polygon;
mod rectangle_plane;
mod small_list;
mod sphere_sphere;
mod surface_point;

/// Parry's terms for our shapes (`shape::parry`), also at their earlier path.
pub use crate::shape::parry;

use nalgebra::Vector3;

use super::math::{Pose, Vec3};
use super::real::Real;
use super::shape::{Shape, ShapeKind};
use kinematics::{Frame, Kinematics, NotDifferentiable};

/// One pair of witness points, resolved in W.
///
/// Sign conventions: `normal_ab_w` is the unit normal pointing from A toward B; `separation` is
/// the signed distance along it, positive when apart, negative when overlapping, and equal to
/// `(p_b_w - p_a_w) · normal_ab_w`. The witnesses are the points of each surface that are deepest
/// inside (or closest to) the other one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint<S: Real = f64> {
    /// Witness point on A's surface.
    pub p_a_w: Vector3<S>,
    /// Witness point on B's surface.
    pub p_b_w: Vector3<S>,
    /// Unit normal from A toward B.
    pub normal_ab_w: Vector3<S>,
    /// Signed distance, > 0 apart.
    pub separation: S,
    /// Multiplies the laws' forces at this point (1 for a full point contact).
    pub weight: S,
    /// Stable identity of the point within its pair, below the pair's `max_points`.
    pub id: u32,
}

impl<S: Real> ContactPoint<S> {
    /// A full-weight point with id 0 from its witnesses and normal; the separation is
    /// `(p_b - p_a) · n`.
    pub fn new(p_a_w: Vector3<S>, p_b_w: Vector3<S>, normal_ab_w: Vector3<S>) -> ContactPoint<S> {
        let separation = (p_b_w - p_a_w).dot(&normal_ab_w);
        ContactPoint { p_a_w, p_b_w, normal_ab_w, separation, weight: S::c(1.0), id: 0 }
    }

    pub fn with_id(mut self, id: u32) -> ContactPoint<S> {
        self.id = id;
        self
    }

    pub fn with_weight(mut self, weight: S) -> ContactPoint<S> {
        self.weight = weight;
        self
    }

    /// The same contact seen with A and B exchanged.
    pub fn flipped(&self) -> ContactPoint<S> {
        ContactPoint {
            p_a_w: self.p_b_w,
            p_b_w: self.p_a_w,
            normal_ab_w: -self.normal_ab_w,
            separation: self.separation,
            weight: self.weight,
            id: self.id,
        }
    }

    /// Where the contact force acts: midway between the two witnesses. Symmetric in A and B, so
    /// exchanging the bodies mirrors the wrenches exactly.
    pub fn point_w(&self) -> Vector3<S> {
        (self.p_a_w + self.p_b_w) * S::c(0.5)
    }

    /// Penetration depth `max(0, -separation)`.
    pub fn depth(&self) -> S {
        (-self.separation).max(S::c(0.0))
    }
}

/// Two shapes for which no contact computation exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedPair {
    pub a: ShapeKind,
    pub b: ShapeKind,
    /// Whether A and B are inside surfaces (`geometry_X.inside`).
    pub inside: [bool; 2],
    /// Why, in one sentence.
    pub reason: &'static str,
    /// For a compound: the two parts whose pair is refused (their kinds, and the line of the
    /// compound's file each came from).
    pub parts: Option<String>,
}

impl std::fmt::Display for UnsupportedPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = |kind: ShapeKind, inside: bool, body: &str| {
            if inside {
                format!("{} inside ({body})", kind.name())
            } else {
                format!("{} ({body})", kind.name())
            }
        };
        let (a, b) = (side(self.a, self.inside[0], "A"), side(self.b, self.inside[1], "B"));
        match &self.parts {
            Some(parts) => write!(f, "geometry pair {a} - {b} is not supported: its parts {parts}: {}", self.reason),
            None => write!(f, "geometry pair {a} - {b} is not supported: {}", self.reason),
        }
    }
}

/// What the inside surfaces offer, said in every refusal of an inside pair.
macro_rules! inside_offered {
    () => {
        "inside surfaces are offered for a Sphere (a socket), a Box (a container) and a Cylinder (a bore, its end faces \
         on or off by geometry_X.end_bottom and geometry_X.end_top) against a Point, Sphere, Capsule, Cylinder, Box, \
         ConvexHull or PointCloud in them, and for a Capsule and an Ellipsoid against the same but a Cylinder"
    };
}

/// How a geometry's surface meets the other body: the solid (the default) or, with `inside`, the
/// space inside its surface; an inside Cylinder's end faces are on or off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Surface {
    /// The contact surface is the inside of the shape (`geometry_X.inside`).
    pub inside: bool,
    /// An inside Cylinder's -z end face is a wall (`geometry_X.end_bottom`).
    pub end_bottom: bool,
    /// An inside Cylinder's +z end face is a wall (`geometry_X.end_top`).
    pub end_top: bool,
}

impl Surface {
    /// The solid, or the inside with a Cylinder's end faces off.
    pub fn inside(inside: bool) -> Surface {
        Surface { inside, ..Surface::default() }
    }
}

/// The canonical inside pairs, the inside shape (base) first: the one place that says which exist.
fn inside_canonical(base: ShapeKind, follower: ShapeKind, surface: Surface) -> Result<(PairFunction, PointCount), &'static str> {
    use ShapeKind::*;
    if (surface.end_bottom || surface.end_top) && base != Cylinder {
        return Err(concat!("end faces (geometry_X.end_bottom, geometry_X.end_top) belong to an inside Cylinder; ", inside_offered!()));
    }
    let solids = matches!(follower, Point | Sphere | Capsule | Box | ConvexHull | PointCloud);
    Ok(match (base, follower) {
        (Sphere, Point | Sphere) => (inside_sphere::ball_contacts, one),
        (Sphere, Capsule) => (inside_sphere::capsule_contacts, inside_sphere::capsule_count),
        (Sphere, Cylinder) => (inside_sphere::cylinder_contacts, inside_sphere::cylinder_count),
        (Sphere, Box | ConvexHull | PointCloud) => (inside_sphere::vertex_contacts, inside_sphere::vertex_count),
        (Box, _) if solids || follower == Cylinder => (inside_box::contacts, inside_box::count),
        (Cylinder, _) if solids || follower == Cylinder => match (surface.end_bottom, surface.end_top) {
            (false, false) => (inside_cylinder::contacts::<false, false>, inside_cylinder::count::<false, false>),
            (true, false) => (inside_cylinder::contacts::<true, false>, inside_cylinder::count::<true, false>),
            (false, true) => (inside_cylinder::contacts::<false, true>, inside_cylinder::count::<false, true>),
            (true, true) => (inside_cylinder::contacts::<true, true>, inside_cylinder::count::<true, true>),
        },
        (Capsule, _) if solids => (inside_capsule::contacts, inside_capsule::count),
        (Ellipsoid, _) if solids => (inside_ellipsoid::contacts, inside_ellipsoid::count),
        (Capsule | Ellipsoid, Cylinder) => {
            return Err(concat!(
                "a cylinder's rim against a curved cavity's wall has no closed form here (a Sphere or a Box holds one); ",
                inside_offered!()
            ))
        }
        (Sphere | Box | Cylinder | Capsule | Ellipsoid, _) => {
            return Err(concat!(
                "this shape in the cavity is not offered (an Ellipsoid, Disk, Rectangle, Plane, Mesh or GridSurface); ",
                inside_offered!()
            ))
        }
        _ => {
            return Err(concat!(
                "the inside of this shape is not offered (a Point, Disk, Rectangle, Plane, ConvexHull, Mesh, PointCloud or GridSurface); ",
                inside_offered!()
            ))
        }
    })
}

/// A canonical pair's contact function: base shape and its geometry pose in W, follower shape
/// and its pose, and the vector to append the contact points to.
pub type PairFunction = fn(&Shape, &Pose, &Shape, &Pose, &mut Vec<ContactPoint>);

/// How many point ids a canonical pair uses for these shapes (base first).
pub type PointCount = fn(&Shape, &Shape) -> usize;

fn one(_: &Shape, _: &Shape) -> usize {
    1
}

/// Why the points of a pair found by an iterative solve have no exact derivatives.
const ITERATIVE: &str = "the contact points come from an iterative solve (GJK/EPA) with curved features, whose features are not tracked";
/// Why a mesh's points against a solid have no exact derivatives.
const MANIFOLDS: &str = "the contact points come from parry's per-triangle contact manifolds, whose features are not tracked";

/// One canonical pair: its points (the `f64` pass), how many ids they use, and how they are
/// differentiated ([`Family`]), or why they are not.
type Canonical = (PairFunction, PointCount, Result<Family, &'static str>);

/// The canonical pairs, base shape first: the one place that says which pairs exist and how each
/// pair's points and their derivatives are computed (each in the pair's own file).
fn canonical(base: ShapeKind, follower: ShapeKind) -> Option<Canonical> {
    use Family::*;
    use ShapeKind::*;
    let entry: Canonical = match (base, follower) {
        (Plane, Point | Sphere) => (plane_sphere::contacts, one, Ok(PlaneSphere)),
        (Plane, Capsule) => (capsule_plane::contacts, capsule_plane::point_count, Ok(PlaneCapsule)),
        (Capsule, Capsule) => (capsule_capsule::contacts, capsule_capsule::point_count, Ok(CapsuleCapsule)),
        (Sphere | Point, Sphere | Point) => (sphere_sphere::contacts, one, Ok(SphereSphere)),
        (Plane, Box) => (box_plane::contacts, box_plane::count, Ok(PlaneBox)),
        (Plane, Cylinder) => (cylinder_plane::contacts, cylinder_plane::count, Ok(PlaneCylinder)),
        (Plane, Disk) => (disk_plane::contacts, disk_plane::count, Ok(PlaneDisk)),
        (Plane, Rectangle) => (rectangle_plane::contacts, rectangle_plane::count, Ok(PlaneRectangle)),
        (Rectangle | Disk, Box) => (face_box::contacts, face_box::count, Ok(FaceSolid)),
        (Rectangle | Disk, Cylinder) => (face_cylinder::contacts, face_cylinder::count, Ok(FaceSolid)),
        (Rectangle | Disk, Capsule) => (face_capsule::contacts, face_capsule::count, Ok(FaceSolid)),
        (Rectangle, Rectangle | Disk) | (Disk, Disk) => (face_face::contacts, face_face::count, Ok(FaceFace)),
        (base, Point | Sphere) if distance::has_surface(base) => (surface_point::contacts, one, Ok(SurfacePoint)),
        (base, PointCloud) if distance::has_surface(base) => (cloud_surface::contacts, cloud_surface::point_count, Ok(SurfaceCloud)),
        // General convex pairs (GJK/EPA and the contact patch); the face contacts against
        // finite Rectangle and Disk bases, and the plane pairs of primitives, are analytic elsewhere.
        // The polytopes' points (box, hull, a rectangle's prism) are re-derived with their
        // features held (`kinematics_polytope`); the curved ones' are not.
        (ConvexHull, ConvexHull | Box | Rectangle) | (Box, Box) => (convex_pair::contacts, convex_pair::point_count, Ok(Polytope)),
        (ConvexHull | Box, Capsule) => (convex_pair::contacts, convex_pair::point_count, Ok(PolytopeCapsule)),
        (Ellipsoid, ConvexHull | Box | Rectangle) => (convex_pair::contacts, convex_pair::point_count, Ok(EllipsoidPolytope)),
        (ConvexHull, Disk | Cylinder) | (Ellipsoid, Ellipsoid | Cylinder | Capsule | Disk) | (Box, Cylinder) | (Cylinder, Cylinder | Capsule) => {
            (convex_pair::contacts, convex_pair::point_count, Err(ITERATIVE))
        }
        (Plane, Ellipsoid) => (ellipsoid::plane_contacts, one, Ok(PlaneEllipsoid)),
        (Plane, ConvexHull | Mesh) => (hull_plane::contacts, hull_plane::point_count, Ok(PlaneVertex)),
        (Mesh, Box | Cylinder | Capsule | ConvexHull | Disk | Rectangle) => (mesh::contacts, mesh::point_count, Err(MANIFOLDS)),
        _ => return None,
    };
    Some(entry)
}

/// How a canonical pair's points are differentiated, named in [`canonical`]'s table: each by
/// a closed form in its pair's file ([`Family::point_over`]), or all of a pair's points together
/// from those the `f64` pass found ([`Family::points_over`]).
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
    /// A closed-form surface query (base) and a sphere centre or a cloud point (follower).
    SurfacePoint,
    SurfaceCloud,
    /// Two capsules: the whole construction (closest points, stations and their weights) over
    /// the frames, each point matched by id.
    CapsuleCapsule,
    /// Two polytopes (box, hull, a rectangle's prism) of `convex.rs`: its patch or closest pair
    /// re-derived with the features held (`kinematics_polytope`), each point matched by id.
    Polytope,
    /// An ellipsoid and a polytope of `convex.rs`: its one point against a face or a vertex
    /// (`kinematics_polytope`), matched by id.
    EllipsoidPolytope,
    /// A polytope and a capsule of `convex.rs`: its patch or closest pair re-derived
    /// (`kinematics_polytope`), matched by id.
    PolytopeCapsule,
    /// A Rectangle or Disk face and a box, cylinder or capsule, or two faces (`face_box`,
    /// `face_cylinder`, `face_capsule`, `face_face`): the candidates and the covered-fraction
    /// weight over the frames (`kinematics_face`), each point matched by id.
    FaceSolid,
    FaceFace,
}

impl Family {
    /// True for the families whose points are re-derived together ([`Family::points_over`]).
    fn together(self) -> bool {
        use Family::*;
        matches!(self, CapsuleCapsule | Polytope | EllipsoidPolytope | PolytopeCapsule | FaceSolid | FaceFace)
    }

    /// The point `id` of a pair of this family over the frames (base first): its pair file's
    /// closed form.
    fn point_over<S: Real>(self, base: &Shape, fb: &Frame<S>, follower: &Shape, ff: &Frame<S>, id: u32) -> ContactPoint<S> {
        use Family::*;
        let point_over = match self {
            PlaneSphere => plane_sphere::point_over,
            SphereSphere => sphere_sphere::point_over,
            PlaneBox => box_plane::point_over,
            PlaneRectangle => rectangle_plane::point_over,
            PlaneCylinder => cylinder_plane::point_over,
            PlaneDisk => disk_plane::point_over,
            PlaneCapsule => capsule_plane::point_over,
            PlaneVertex => hull_plane::point_over,
            PlaneEllipsoid => ellipsoid::plane_point_over,
            SurfacePoint => surface_point::point_over,
            SurfaceCloud => cloud_surface::point_over,
            CapsuleCapsule | Polytope | EllipsoidPolytope | PolytopeCapsule | FaceSolid | FaceFace => {
                unreachable!("family {self:?} re-derives its points together")
            }
        };
        point_over(base, fb, follower, ff, id)
    }

    /// All the points of a pair of this family over the frames (base first), from `found`, the
    /// points the `f64` pass gave at the poses (base first).
    #[allow(clippy::too_many_arguments)]
    fn points_over<S: Real>(
        self,
        base: &Shape,
        base_pose: &Pose,
        fb: &Frame<S>,
        follower: &Shape,
        follower_pose: &Pose,
        ff: &Frame<S>,
        found: &[ContactPoint],
    ) -> Vec<ContactPoint<S>> {
        use Family::*;
        let points_over = match self {
            CapsuleCapsule => capsule_capsule::points_over,
            Polytope => kinematics_polytope::polytope_points_over,
            EllipsoidPolytope => kinematics_polytope::ellipsoid_points_over,
            PolytopeCapsule => kinematics_polytope::capsule_points_over,
            FaceSolid => kinematics_face::face_solid_over,
            FaceFace => kinematics_face::face_face_over,
            _ => unreachable!("family {self:?} has a closed form per point"),
        };
        points_over(base, base_pose, fb, follower, follower_pose, ff, found)
    }
}

/// Pairs that can never be supported, with the reason.
fn impossible(a: ShapeKind, b: ShapeKind) -> Option<&'static str> {
    use ShapeKind::*;
    match (a, b) {
        (Point, Point) => Some("two points can never penetrate, so they never carry a force"),
        (PointCloud, PointCloud | Point) | (Point, PointCloud) => {
            Some("points never penetrate one another, so two point sets never carry a force")
        }
        (Plane, Plane) => Some("two infinite planes have no finite separation"),
        (Mesh, Mesh) => Some("two surface meshes have no inside to measure a depth in; make one of them a ConvexHull"),
        (Mesh, Ellipsoid) | (Ellipsoid, Mesh) => {
            Some("parry's mesh contacts take no ellipsoid; give the ellipsoid as a ConvexHull of points on its surface")
        }
        _ => None,
    }
}

/// Two shapes, validated as a supported pair, with the order in which the canonical pair is called.
#[derive(Clone, Debug)]
pub struct GeometryPair {
    shape_a: Shape,
    shape_b: Shape,
    /// A and B are inside surfaces (`geometry_X.inside`).
    inside: [bool; 2],
    /// A's and B's surfaces as given.
    surfaces: [Surface; 2],
    function: PairFunction,
    /// The canonical function takes B first.
    flipped: bool,
    /// How the canonical pair's points are differentiated, or why they are not.
    derivatives: Result<Family, &'static str>,
    /// Both shapes are of one kind: which one is the base is decided per call, see `contacts`.
    same_kind: bool,
    max_points: usize,
    /// A compound pair (A or B a `Compound`): its pairs of parts, which give its points
    /// (`compound.rs`); `function` is then never called.
    parts: Option<std::sync::Arc<[compound::PartPair]>>,
}

impl GeometryPair {
    /// The pair of two solids.
    pub fn new(shape_a: Shape, shape_b: Shape) -> Result<Self, UnsupportedPair> {
        Self::with_inside(shape_a, false, shape_b, false)
    }

    /// The pair of two shapes each of which is a solid or, with `inside_X`, the space inside its
    /// surface (a socket, a bore): the canonical inside pairs take the inside shape as the base.
    /// Two inside surfaces never touch as solids, and an inside shape the block does not offer
    /// is refused with what is offered.
    pub fn with_inside(shape_a: Shape, inside_a: bool, shape_b: Shape, inside_b: bool) -> Result<Self, UnsupportedPair> {
        Self::with_surfaces(shape_a, Surface::inside(inside_a), shape_b, Surface::inside(inside_b))
    }

    /// [`GeometryPair::with_inside`] with each side's [`Surface`] in full (an inside Cylinder's end
    /// faces). End faces on anything but an inside Cylinder are refused.
    pub fn with_surfaces(shape_a: Shape, surface_a: Surface, shape_b: Shape, surface_b: Surface) -> Result<Self, UnsupportedPair> {
        let (a, b) = (shape_a.kind(), shape_b.kind());
        let (inside_a, inside_b) = (surface_a.inside, surface_b.inside);
        let inside = [inside_a, inside_b];
        let refuse = |reason| UnsupportedPair { a, b, inside, reason, parts: None };
        for (surface, kind) in [(surface_a, a), (surface_b, b)] {
            if (surface.end_bottom || surface.end_top) && !(surface.inside && kind == ShapeKind::Cylinder) {
                return Err(refuse("end faces (geometry_X.end_bottom, geometry_X.end_top) belong to an inside Cylinder (geometry_X.inside = true)"));
            }
        }
        if a == ShapeKind::Compound || b == ShapeKind::Compound {
            let (parts, max_points) = compound::part_pairs(&shape_a, surface_a, &shape_b, surface_b)?;
            return Ok(GeometryPair {
                shape_a,
                shape_b,
                inside,
                surfaces: [surface_a, surface_b],
                function: compound_parts_only,
                flipped: false,
                derivatives: Err("a compound's pairs of parts are differentiated one by one"),
                same_kind: false,
                max_points,
                parts: Some(parts.into()),
            });
        }
        const INSIDE: Result<Family, &str> = Err("an inside surface (geometry_X.inside) has no exact derivatives yet");
        let (function, count, flipped, derivatives) = match inside {
            [false, false] => {
                if let Some(reason) = impossible(a, b) {
                    return Err(refuse(reason));
                }
                match (canonical(a, b), canonical(b, a)) {
                    (Some((function, count, derivatives)), _) => (function, count, false, derivatives),
                    (None, Some((function, count, derivatives))) => (function, count, true, derivatives),
                    (None, None) => return Err(refuse("not supported yet")),
                }
            }
            [true, false] => {
                let (function, count) = inside_canonical(a, b, surface_a).map_err(refuse)?;
                (function, count, false, INSIDE)
            }
            [false, true] => {
                let (function, count) = inside_canonical(b, a, surface_b).map_err(refuse)?;
                (function, count, true, INSIDE)
            }
            [true, true] => {
                return Err(refuse(concat!(
                    "both geometries are inside surfaces, and two cavities never touch as solids; make one of them a solid; ",
                    inside_offered!()
                )))
            }
        };
        let same_kind = a == b && !inside_a && !inside_b;
        let max_points = if flipped { count(&shape_b, &shape_a) } else { count(&shape_a, &shape_b) }
            .max(if same_kind { count(&shape_b, &shape_a) } else { 0 });
        Ok(GeometryPair { shape_a, shape_b, inside, surfaces: [surface_a, surface_b], function, flipped, derivatives, same_kind, max_points, parts: None })
    }

    /// Whether [`GeometryPair::contacts_over`] can differentiate this pair; the error names the
    /// pair and says why not.
    pub fn differentiable(&self) -> Result<(), NotDifferentiable> {
        if let Some(parts) = &self.parts {
            return compound::differentiable(parts);
        }
        if self.inside != [false, false] {
            return Err(NotDifferentiable {
                a: self.shape_a.kind(),
                b: self.shape_b.kind(),
                reason: "an inside surface (geometry_X.inside) has no exact derivatives yet",
            });
        }
        self.derivatives
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
            Some(parts) => Kinematics::compound(compound::kinematics(parts, pose_a, pose_b, frame_a, frame_b, found)),
            None => Kinematics::pair(self.pair_kinematics(pose_a, pose_b, *frame_a, *frame_b, found)),
        }
    }

    /// True for a compound pair (A or B a `Compound`).
    pub fn is_compound(&self) -> bool {
        self.parts.is_some()
    }

    /// Whether A and B are inside surfaces.
    pub fn inside(&self) -> [bool; 2] {
        self.inside
    }

    /// A's and B's surfaces (inside or not, an inside Cylinder's end faces).
    pub fn surfaces(&self) -> [Surface; 2] {
        self.surfaces
    }

    pub fn shape_a(&self) -> &Shape {
        &self.shape_a
    }

    pub fn shape_b(&self) -> &Shape {
        &self.shape_b
    }

    /// Every point id is below this.
    pub fn max_points(&self) -> usize {
        self.max_points
    }

    /// The radius \[m\] a rolling resistance torque acts with: the effective radius of curvature
    /// `1 / (1 / r_a + 1 / r_b)` of the two surfaces (a flat surface has an infinite radius);
    /// 0 where a point touches or two flat surfaces meet (nothing rolls).
    pub fn rolling_radius(&self) -> f64 {
        let (r_a, r_b) = (self.shape_a.rolling_radius(), self.shape_b.rolling_radius());
        if self.inside != [false, false] {
            // A ball or a shaft rolling on a concave wall of radius R: the surfaces curve the
            // same way, `1 / (1 / r - 1 / R)`; nothing rolls where the follower is a point or does
            // not fit inside.
            let (cavity, follower) = if self.inside[0] { (r_a, r_b) } else { (r_b, r_a) };
            return if follower > 0.0 && follower < cavity { 1.0 / (1.0 / follower - 1.0 / cavity) } else { 0.0 };
        }
        if r_a == 0.0 || r_b == 0.0 || (r_a.is_infinite() && r_b.is_infinite()) {
            return 0.0;
        }
        1.0 / (1.0 / r_a + 1.0 / r_b)
    }

    /// Appends the contact points of A at `pose_a` and B at `pose_b` (geometry frames in W) to
    /// `out`. Bounded pairs always give at least the closest pair of points, so the separation is
    /// known even when apart.
    ///
    /// For two shapes of one kind (box-box, hull-hull, ...) the base is the one whose pose comes
    /// first in a fixed order of the pose's numbers, rather than A: exchanging A and B then
    /// exchanges the poses too, the same body is the base, and the result is an exact mirror
    /// instead of a second iterative solve (GJK/EPA) that agrees only to its tolerance.
    ///
    /// A compound pair appends the points of each pair of parts in turn, their ids shifted past
    /// the earlier part pairs' (`compound.rs`).
    pub fn contacts(&self, pose_a: &Pose, pose_b: &Pose, out: &mut Vec<ContactPoint>) {
        if let Some(parts) = &self.parts {
            return compound::contacts(parts, pose_a, pose_b, out);
        }
        let first = out.len();
        let flipped = if self.same_kind { pose_key_less(&pose_key(pose_b), &pose_key(pose_a)) } else { self.flipped };
        if flipped {
            (self.function)(&self.shape_b, pose_b, &self.shape_a, pose_a, out);
            for point in &mut out[first..] {
                *point = point.flipped();
            }
        } else {
            (self.function)(&self.shape_a, pose_a, &self.shape_b, pose_b, out);
        }
    }
}

/// The contact points of a pair whose points are independent queries, one per point of a cloud
/// (a point cloud against a shape with a surface), so that they can be computed in any order or
/// in parallel without collecting them: [`PointQueries::contact`] of id `i` is exactly the point
/// with id `i` that [`GeometryPair::contacts`] gives.
#[derive(Clone, Copy, Debug)]
pub struct PointQueries<'a> {
    base: &'a Shape,
    frames: cloud_surface::Frames,
    points: &'a [Vec3],
    /// The cloud is A (the canonical pair takes it as the follower, B).
    flipped: bool,
}

impl PointQueries<'_> {
    /// How many points (the ids are `0..len`).
    pub fn len(&self) -> usize {
        self.points.len()
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The separation of point `id` when the base is a plane, computed as [`PointQueries::contact`]
    /// computes it (the same number) but without the rest of the contact; `None` otherwise.
    #[inline]
    pub fn plane_separation(&self, id: usize) -> Option<f64> {
        self.frames.plane_separation(&self.points[id])
    }

    /// The cloud and its plane as the batched kernel needs them, when the base is a plane; `None`
    /// for other bases.
    pub fn on_plane(&self) -> Option<CloudOnPlane<'_>> {
        self.frames.on_plane(self.points, self.flipped)
    }

    /// The contact point with id `id < len()`; `None` if the base shape has no surface query
    /// (never for a validated pair).
    #[inline]
    pub fn contact(&self, id: usize) -> Option<ContactPoint> {
        let point = self.frames.contact(self.base, &self.points[id], id as u32)?;
        Some(if self.flipped { point.flipped() } else { point })
    }
}

impl GeometryPair {
    /// The one contact point of a plane and a sphere or a point (in either order), computed
    /// directly: exactly the point [`GeometryPair::contacts`] gives, without its point list.
    /// `None` for every other pair.
    pub fn single_contact(&self, pose_a: &Pose, pose_b: &Pose) -> Option<ContactPoint> {
        let (plane, plane_pose, sphere, centre) =
            if self.flipped { (&self.shape_b, pose_b, &self.shape_a, pose_a) } else { (&self.shape_a, pose_a, &self.shape_b, pose_b) };
        match (plane, sphere) {
            (Shape::Plane, Shape::Sphere { .. } | Shape::Point) => {
                let point = plane_sphere::contact(plane_pose, &centre.r, sphere_radius(sphere));
                Some(if self.flipped { point.flipped() } else { point })
            }
            _ => None,
        }
    }

    /// The pair's contact points as independent per-point queries at these poses, when the pair
    /// is a point cloud against a shape with a surface; `None` for every other pair.
    pub fn point_queries(&self, pose_a: &Pose, pose_b: &Pose) -> Option<PointQueries<'_>> {
        if self.inside != [false, false] {
            // A cloud in a cavity meets its wall, not the shape's outside surface.
            return None;
        }
        let (base, base_pose, cloud, cloud_pose) =
            if self.flipped { (&self.shape_b, pose_b, &self.shape_a, pose_a) } else { (&self.shape_a, pose_a, &self.shape_b, pose_b) };
        match cloud {
            Shape::PointCloud(points) if distance::has_surface(base.kind()) => Some(PointQueries {
                base,
                frames: cloud_surface::Frames::new(base, base_pose, cloud_pose),
                points: &points.points,
                flipped: self.flipped,
            }),
            _ => None,
        }
    }
}

/// The `function` of a compound pair, whose points come from its parts' pairs instead.
fn compound_parts_only(_: &Shape, _: &Pose, _: &Shape, _: &Pose, _: &mut Vec<ContactPoint>) {
    unreachable!("a compound pair's contacts are its part pairs' (GeometryPair::contacts)")
}

/// A pose's numbers in a fixed order, compared lexicographically.
fn pose_key(pose: &Pose) -> [f64; 7] {
    let q = pose.q.quaternion();
    [pose.r.x, pose.r.y, pose.r.z, q.w, q.i, q.j, q.k]
}

fn pose_key_less(a: &[f64; 7], b: &[f64; 7]) -> bool {
    a.iter().zip(b).find(|(x, y)| x != y).is_some_and(|(x, y)| x.total_cmp(y).is_lt())
}

/// Radius of a shape the sphere pairs treat as a sphere (a point has radius 0).
pub fn sphere_radius(shape: &Shape) -> f64 {
    match shape {
        Shape::Sphere { radius } => *radius,
        _ => 0.0,
    }
}
