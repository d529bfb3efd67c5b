//! The shapes a contact geometry can take, each in its own geometry frame.

use super::enums::stable_enum;

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

/// A shape with its dimensions, ready for the geometry pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Point,
    Sphere { radius: f64 },
    Plane,
}

impl Shape {
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Point => ShapeKind::Point,
            Shape::Sphere { .. } => ShapeKind::Sphere,
            Shape::Plane => ShapeKind::Plane,
        }
    }
}
