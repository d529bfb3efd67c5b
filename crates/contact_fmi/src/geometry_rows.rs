//! The rows of a body's geometry (ContactForce's `geometry_X.*`, a scene's `body[i].*`) and of
//! the coupling (`coupling.*`), with their enumeration types, for every model whose bodies take
//! ContactForce's shapes: names, value-reference offsets, units and descriptions stated once.

use contact_physics::geometry_parameters::GeometryParameters;
use contact_physics::parameters::{CouplingMode, CouplingParameters};
use contact_physics::shape::ShapeKind;
use fmi_export::table::{Causality, EnumerationType, Variable};

use crate::enumeration_type;

pub static SHAPE: EnumerationType = enumeration_type!("Shape", "Shape of a contact geometry", ShapeKind);
pub static COUPLING_MODE: EnumerationType =
    enumeration_type!("CouplingMode", "How the outputs couple over a communication step", CouplingMode);

/// A model whose bodies have ContactForce's geometry parameters, body `K` (0-based) each.
pub trait Geometries: Sized + 'static {
    fn geometry(&mut self, body: usize) -> &mut GeometryParameters;
}

/// The names of one body's geometry rows and the phrase that names the body in descriptions
/// ([`geometry_names!`](crate::geometry_names)).
#[derive(Clone, Copy, Debug)]
pub struct GeometryNames {
    pub shape: &'static str,
    pub radius: &'static str,
    pub length: &'static str,
    pub size: &'static str,
    pub file: &'static str,
    pub r: &'static str,
    pub q: &'static str,
    pub inside: &'static str,
    pub end_bottom: &'static str,
    pub end_top: &'static str,
    /// "Shape of A's contact geometry".
    pub shape_description: &'static str,
    /// "Position of the geometry frame in A's body frame".
    pub r_description: &'static str,
    /// "Orientation of the geometry frame in A's body frame (w, x, y, z)".
    pub q_description: &'static str,
    /// The description of `inside`, which names the body.
    pub inside_description: &'static str,
}

/// The [`GeometryNames`] of the rows under `$prefix` (`"geometry_a"`, `"body[3]"`) for the body
/// called `$body` in descriptions (`"A"`, `"body 3"`); the geometry frame's pose is `$prefix.r`
/// and `$prefix.q`, or the two names given after them.
#[macro_export]
macro_rules! geometry_names {
    ($prefix:expr, $body:expr) => {
        $crate::geometry_names!($prefix, $body, concat!($prefix, ".r"), concat!($prefix, ".q"))
    };
    // A model whose `r` and `q` name something else (a scene's body inputs) names the geometry
    // frame's pose `$r` and `$q`.
    ($prefix:expr, $body:expr, $r:expr, $q:expr) => {
        $crate::geometry_rows::GeometryNames {
            shape: concat!($prefix, ".shape"),
            radius: concat!($prefix, ".radius"),
            length: concat!($prefix, ".length"),
            size: concat!($prefix, ".size"),
            file: concat!($prefix, ".file"),
            r: $r,
            q: $q,
            inside: concat!($prefix, ".inside"),
            end_bottom: concat!($prefix, ".end_bottom"),
            end_top: concat!($prefix, ".end_top"),
            shape_description: concat!("Shape of ", $body, "'s contact geometry"),
            r_description: concat!("Position of the geometry frame in ", $body, "'s body frame"),
            q_description: concat!("Orientation of the geometry frame in ", $body, "'s body frame (w, x, y, z)"),
            inside_description: concat!(
                "The contact surface is the inside of ", $body, "'s shape (Adams IFLIP/JFLIP_GEOMETRY): a Sphere is a socket, ",
                "a Box a container, a Cylinder a bore of its length (end faces by end_bottom, end_top), a Capsule or an Ellipsoid ",
                "a closed cavity; offered against a Point, Sphere, Capsule, Box, ConvexHull or PointCloud in it, and a Cylinder ",
                "in a Sphere, Box or Cylinder"
            ),
        }
    };
}

/// The geometry rows of body `K` (value references `base` to `base + 22`).
pub fn geometry_rows<M: Geometries, const K: usize>(names: &GeometryNames, base: u32) -> Vec<Variable<M>> {
    type V<M> = Variable<M>;
    vec![
        V::enumeration(names.shape, base, &SHAPE, names.shape_description, |m: &mut M| &mut m.geometry(K).shape),
        V::parameter(names.radius, base + 1, "m", "Radius (Sphere, Cylinder, Capsule, Disk)", |m: &mut M| std::slice::from_mut(&mut m.geometry(K).radius))
            .min(0.0),
        V::parameter(names.length, base + 2, "m", "Length along the local z axis (Cylinder, Capsule)", |m: &mut M| {
            std::slice::from_mut(&mut m.geometry(K).length)
        })
        .min(0.0),
        V::float(names.size, base + 3, 3, Causality::Parameter, "m", "Full extents (Box, Rectangle) or semi-axes (Ellipsoid)", |m: &mut M| {
            &mut m.geometry(K).size
        })
        .min(0.0),
        V::string_parameter(
            names.file,
            base + 6,
            "Geometry file (ConvexHull, Mesh, PointCloud, GridSurface; Compound: one shape per line, kind, sizes, x y z, optional w x y z): a path in the FMU's resources folder or absolute",
            |m: &mut M| &mut m.geometry(K).file,
        ),
        V::float(names.r, base + 7, 3, Causality::Parameter, "m", names.r_description, |m: &mut M| &mut m.geometry(K).r),
        V::float(names.q, base + 10, 4, Causality::Parameter, "1", names.q_description, |m: &mut M| &mut m.geometry(K).q),
        V::boolean_parameter(names.inside, base + 20, names.inside_description, |m: &mut M| &mut m.geometry(K).inside),
        V::boolean_parameter(
            names.end_bottom,
            base + 21,
            concat!(
                "An inside Cylinder's bottom end face (at -length/2 on its z axis) is a wall (Adams FACE_CONTACT_BOTTOM); ",
                "false leaves that end of the bore open. Only for shape = Cylinder with inside = true"
            ),
            |m: &mut M| &mut m.geometry(K).end_bottom,
        ),
        V::boolean_parameter(
            names.end_top,
            base + 22,
            concat!(
                "An inside Cylinder's top end face (at +length/2 on its z axis) is a wall (Adams FACE_CONTACT_TOP); ",
                "false leaves that end of the bore open. Only for shape = Cylinder with inside = true"
            ),
            |m: &mut M| &mut m.geometry(K).end_top,
        ),
    ]
}

/// A model with `coupling.*` parameters.
pub trait Coupled: Sized + 'static {
    fn coupling(&mut self) -> &mut CouplingParameters;
}

/// `coupling.mode`, `coupling.step`, `coupling.max_substep` and `coupling.gravity` (700 to 703).
pub fn coupling_rows<M: Coupled>() -> Vec<Variable<M>> {
    type V<M> = Variable<M>;
    vec![
        V::enumeration("coupling.mode", 700, &COUPLING_MODE, "How the outputs couple over a communication step", |m: &mut M| &mut m.coupling().mode),
        V::parameter("coupling.step", 701, "s", "Step to average over before the first DoStep (StepAverage; 0 = the last DoStep's size only)", |m: &mut M| {
            std::slice::from_mut(&mut m.coupling().step)
        })
        .min(0.0),
        V::parameter("coupling.max_substep", 702, "s", "Largest sub-step of the block's own integration of the bodies (StepAverage)", |m: &mut M| {
            std::slice::from_mut(&mut m.coupling().max_substep)
        })
        .min(0.0),
        V::float(
            "coupling.gravity",
            703,
            3,
            Causality::Parameter,
            "m/s2",
            "StepAverage: the acceleration of the other forces on every movable body (gravity, in W) until the first step measures them (all 0 = unknown: bodies that start touching and at rest are taken to rest)",
            |m: &mut M| &mut m.coupling().gravity,
        ),
    ]
}
