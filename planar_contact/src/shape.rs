//! The planar shapes, as the parameters choose them (`geometry_X.shape`) and as the pairs use them.
#![forbid(unsafe_code)]

use std::sync::Arc;

use contact_physics::enums::EnumItem;

use crate::curve::Chain;

/// The shape of a planar geometry (`geometry_X.shape`); the numbers are stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlanarShapeKind {
    Point = 1,
    Circle = 2,
    Arc = 3,
    Segment = 4,
    Line = 5,
    Polyline = 6,
    Curve = 7,
}

impl PlanarShapeKind {
    /// Every item, in the order of its stable number.
    pub const ITEMS: &'static [EnumItem] = &[
        EnumItem { value: 1, name: "Point", description: "A point at the geometry frame's origin." },
        EnumItem { value: 2, name: "Circle", description: "A solid disc of radius geometry_X.radius about the origin." },
        EnumItem {
            value: 3,
            name: "Arc",
            description: "A convex circular arc of radius geometry_X.radius about the origin, from angle geometry_X.angles[1] to geometry_X.angles[2] (rad, counter-clockwise from the local x axis).",
        },
        EnumItem {
            value: 4,
            name: "Segment",
            description: "A thin straight wall of length geometry_X.length along the local x axis, centred on the origin.",
        },
        EnumItem {
            value: 5,
            name: "Line",
            description: "The planar form of the plane: the local x axis, the solid on its -y side, the normal +y.",
        },
        EnumItem {
            value: 6,
            name: "Polyline",
            description: "Straight segments through the points of geometry_X.file; geometry_X.closed makes it a solid polygon.",
        },
        EnumItem {
            value: 7,
            name: "Curve",
            description: "A cubic (Catmull-Rom) spline through the points of geometry_X.file; geometry_X.closed makes it a solid region.",
        },
    ];

    /// The item with this stable number, if there is one.
    pub fn from_value(value: i64) -> Option<Self> {
        use PlanarShapeKind::*;
        [Point, Circle, Arc, Segment, Line, Polyline, Curve].into_iter().find(|k| k.value() == value)
    }

    pub fn value(self) -> i64 {
        self as i64
    }

    pub fn name(self) -> &'static str {
        Self::ITEMS[self as usize - 1].name
    }
}

/// A planar shape in its geometry frame.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanarShape {
    /// The origin.
    Point,
    /// A disc about the origin.
    Circle { radius: f64 },
    /// The arc of the circle of `radius` about the origin from angle `start` to `end` (rad,
    /// `start < end <= start + 2 pi`), convex: the disc lies behind it.
    Arc { radius: f64, start: f64, end: f64 },
    /// The x axis from `-half_length` to `half_length`, a wall with no thickness.
    Segment { half_length: f64 },
    /// The x axis, the solid below it.
    Line,
    /// A Polyline or a sampled Curve.
    Chain { kind: PlanarShapeKind, chain: Arc<Chain> },
}

impl PlanarShape {
    pub fn kind(&self) -> PlanarShapeKind {
        match self {
            PlanarShape::Point => PlanarShapeKind::Point,
            PlanarShape::Circle { .. } => PlanarShapeKind::Circle,
            PlanarShape::Arc { .. } => PlanarShapeKind::Arc,
            PlanarShape::Segment { .. } => PlanarShapeKind::Segment,
            PlanarShape::Line => PlanarShapeKind::Line,
            PlanarShape::Chain { kind, .. } => *kind,
        }
    }

    /// The radius of a round shape (Point 0, Circle r); `None` for the others.
    pub fn round_radius(&self) -> Option<f64> {
        match self {
            PlanarShape::Point => Some(0.0),
            PlanarShape::Circle { radius } => Some(*radius),
            _ => None,
        }
    }
}
