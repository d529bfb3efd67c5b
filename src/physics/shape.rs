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

/// The vertices of a convex hull, in the geometry frame.
#[derive(Clone, Debug, Default)]
pub struct ConvexHull {
    pub vertices: Vec<Vec3>,
}

/// A triangle mesh (not necessarily convex), in the geometry frame.
#[derive(Clone, Debug, Default)]
pub struct TriangleMesh {
    pub vertices: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
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
