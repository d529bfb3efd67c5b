//! The shapes a contact geometry can take, each in its own geometry frame.

use std::sync::Arc;

use super::enums::stable_enum;
use super::math::Vec3;

stable_enum! {
    /// Shape of a contact geometry (`geometry_X.shape`). Dimensions come from `radius`, `length`
    /// and `size`; files from `file`.
    pub enum ShapeKind {
        /// A single point at the geometry frame's origin.
        Point = 1,
        /// Sphere of the given radius centred at the origin.
        Sphere = 2,
        /// Box with full extents size[1] x size[2] x size[3], centred at the origin.
        Box = 3,
        /// Solid cylinder of the given radius and length along the local z axis, centred.
        Cylinder = 4,
        /// Capsule: segment of the given length along local z, swept by a sphere of the radius.
        Capsule = 5,
        /// Ellipsoid with semi-axes size[1], size[2], size[3].
        Ellipsoid = 6,
        /// Flat disk of the given radius in the local xy plane, normal +z.
        Disk = 7,
        /// Flat rectangle size[1] x size[2] in the local xy plane, normal +z.
        Rectangle = 8,
        /// Infinite half-space z <= 0 with outward normal +z.
        Plane = 9,
        /// Convex hull of the vertices in a file.
        ConvexHull = 10,
        /// Non-convex triangle mesh from an OBJ or STL file.
        Mesh = 11,
        /// Points read from a CSV or text file.
        PointCloud = 12,
        /// Height field z = h(x, y) on a regular grid from a file, bilinear.
        GridSurface = 13,
    }
}

/// A shape with its dimensions, ready for the geometry pairs. Dimensions are half extents and
/// half lengths (the interface's full `size` and `length` are halved when the shape is built).
/// Shapes read from files share their data through `Arc`, so copies of a block stay cheap.
#[derive(Clone, Debug)]
pub enum Shape {
    Point,
    Sphere { radius: f64 },
    Box { half_extents: Vec3 },
    /// Axis = local z, centred.
    Cylinder { radius: f64, half_length: f64 },
    /// Segment along local z of length 2 half_length, swept by a sphere of the radius.
    Capsule { radius: f64, half_length: f64 },
    Ellipsoid { semi_axes: Vec3 },
    /// In the local xy plane, normal +z.
    Disk { radius: f64 },
    /// In the local xy plane, normal +z.
    Rectangle { half_x: f64, half_y: f64 },
    /// The half-space z <= 0, normal +z.
    Plane,
    ConvexHull(Arc<ConvexHull>),
    Mesh(Arc<TriangleMesh>),
    PointCloud(Arc<PointCloud>),
    GridSurface(Arc<HeightField>),
}

/// The convex hull of a set of points, in the geometry frame: built once by [`ConvexHull::new`],
/// which keeps only the hull's own vertices and its faces (coplanar triangles merged into polygons).
#[derive(Clone)]
pub struct ConvexHull {
    /// The hull's vertices; vertex i is contact point i of the hull-plane pair.
    pub vertices: Vec<Vec3>,
    /// The faces: vertex indices counter-clockwise seen from outside, and the outward unit normal.
    pub faces: Vec<HullFace>,
    /// The same hull for parry's queries (point projection).
    pub(crate) polyhedron: parry3d_f64::shape::ConvexPolyhedron,
}

/// One planar face of a [`ConvexHull`].
#[derive(Clone, Debug)]
pub struct HullFace {
    pub vertices: Vec<u32>,
    pub normal: Vec3,
}

impl ConvexHull {
    /// The hull of `points`; an error (a sentence) when they span no volume.
    pub fn new(points: &[Vec3]) -> Result<ConvexHull, String> {
        super::geometry::parry::convex_hull(points)
    }
}

impl std::fmt::Debug for ConvexHull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConvexHull").field("vertices", &self.vertices).field("faces", &self.faces).finish()
    }
}

/// A triangle mesh (not necessarily convex, not necessarily closed), in the geometry frame: built
/// once by [`TriangleMesh::new`], which merges duplicate vertices (STL repeats them per triangle),
/// drops degenerate triangles, orients a closed mesh outward, and keeps parry's mesh with its
/// bounding-volume tree and pseudo-normals for the queries.
#[derive(Clone)]
pub struct TriangleMesh {
    /// Vertex i is contact point i of the mesh-plane pair.
    pub vertices: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
    /// True when every edge is shared by exactly two triangles (the mesh bounds a volume).
    pub closed: bool,
    pub(crate) trimesh: parry3d_f64::shape::TriMesh,
}

impl TriangleMesh {
    /// The mesh of `vertices` and `triangles` (indices into `vertices`); an error (a sentence)
    /// when an index is out of range or no triangle with an area is left.
    pub fn new(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<TriangleMesh, String> {
        super::geometry::parry::triangle_mesh(vertices, triangles)
    }
}

impl std::fmt::Debug for TriangleMesh {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TriangleMesh")
            .field("vertices", &self.vertices.len())
            .field("triangles", &self.triangles.len())
            .field("closed", &self.closed)
            .finish()
    }
}

/// Points, in the geometry frame; point i is contact point i.
#[derive(Clone, Debug, Default)]
pub struct PointCloud {
    pub points: Vec<Vec3>,
}

/// A height field z = h(x, y) on a regular grid, bilinear between the nodes: node (i, j) is at
/// `(x0 + i dx, y0 + j dy)` with height `heights[j * nx + i]`.
#[derive(Clone, Debug, Default)]
pub struct HeightField {
    pub x0: f64,
    pub y0: f64,
    pub dx: f64,
    pub dy: f64,
    pub nx: usize,
    pub ny: usize,
    pub heights: Vec<f64>,
}

impl Shape {
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Point => ShapeKind::Point,
            Shape::Sphere { .. } => ShapeKind::Sphere,
            Shape::Box { .. } => ShapeKind::Box,
            Shape::Cylinder { .. } => ShapeKind::Cylinder,
            Shape::Capsule { .. } => ShapeKind::Capsule,
            Shape::Ellipsoid { .. } => ShapeKind::Ellipsoid,
            Shape::Disk { .. } => ShapeKind::Disk,
            Shape::Rectangle { .. } => ShapeKind::Rectangle,
            Shape::Plane => ShapeKind::Plane,
            Shape::ConvexHull(_) => ShapeKind::ConvexHull,
            Shape::Mesh(_) => ShapeKind::Mesh,
            Shape::PointCloud(_) => ShapeKind::PointCloud,
            Shape::GridSurface(_) => ShapeKind::GridSurface,
        }
    }

    /// Radius of curvature [m] of the surface where it rolls: the radius of round shapes,
    /// infinite for flat ones, 0 for points (which cannot roll).
    pub fn rolling_radius(&self) -> f64 {
        match self {
            Shape::Sphere { radius } | Shape::Cylinder { radius, .. } | Shape::Capsule { radius, .. } => *radius,
            Shape::Ellipsoid { semi_axes } => semi_axes.min(),
            Shape::Point | Shape::PointCloud(_) => 0.0,
            _ => f64::INFINITY,
        }
    }
}
