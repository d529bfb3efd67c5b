//! A geometry as users set it (`geometry_a.*` in ContactForce, `body[i].*` in a scene): its shape,
//! dimensions, file, pose in the body frame and surface, with the documented defaults, and its
//! check into a [`Shape`] and a pose. An error names the variable, the value and the rule.

use std::path::{Path, PathBuf};

use crate::enums::not_an_item;
use crate::files;
use crate::geometry::Surface;
use crate::math::{quaternion_problem, rotation_from_wxyz, Pose, Vec3, QUATERNION_NORM_TOLERANCE};
use crate::parameters::{check, refuse, ParameterError};
use crate::shape::{Shape, ShapeKind};

/// Geometry of one body (`geometry_a.*` or `geometry_b.*`).
#[derive(Clone, Debug, PartialEq)]
pub struct GeometryParameters {
    /// Stable number of a [`ShapeKind`].
    pub shape: i64,
    pub radius: f64,
    pub length: f64,
    pub size: [f64; 3],
    pub file: String,
    /// Position of the geometry frame in the body frame.
    pub r: [f64; 3],
    /// Orientation of the geometry frame in the body frame, (w, x, y, z).
    pub q: [f64; 4],
    /// The contact surface is the inside of the shape (a socket, a bore), Adams' IFLIP/JFLIP.
    pub inside: bool,
    /// An inside Cylinder's -z end face is a wall (Adams' FACE_CONTACT_BOTTOM).
    pub end_bottom: bool,
    /// An inside Cylinder's +z end face is a wall (Adams' FACE_CONTACT_TOP).
    pub end_top: bool,
}

impl GeometryParameters {
    /// The documented defaults (ContactForce's) for a geometry of `shape`.
    pub fn with_shape(shape: ShapeKind) -> Self {
        GeometryParameters {
            shape: shape.value(),
            radius: 0.1,
            length: 0.1,
            size: [0.1, 0.1, 0.1],
            file: String::new(),
            r: [0.0; 3],
            q: [1.0, 0.0, 0.0, 0.0],
            inside: false,
            end_bottom: false,
            end_top: false,
        }
    }
}

/// Builds the shape of one geometry from its parameters, reading its file if it has one; its
/// variables are named `{prefix}.radius`, ... in errors and warnings. Returns the shape and the
/// geometry frame's pose in the body frame.
pub fn geometry(
    prefix: &str,
    p: &GeometryParameters,
    resources: Option<&Path>,
    warnings: &mut Vec<String>,
) -> Result<(Shape, Pose), ParameterError> {
    let shape_name = format!("{prefix}.shape");
    let kind = ShapeKind::from_value(p.shape).ok_or_else(|| refuse(&shape_name, p.shape, not_an_item("shape", ShapeKind::ITEMS)))?;
    let name = |field: &str| format!("{prefix}.{field}");
    let positive = |field: &str, x: f64| check(&name(field), x, x > 0.0, &format!("a {} needs {field} > 0", kind.name()));
    let size = |i: usize| -> Result<f64, ParameterError> {
        let x = p.size[i];
        check(&format!("{prefix}.size[{}]", i + 1), x, x > 0.0, &format!("a {} needs size > 0", kind.name()))?;
        Ok(x)
    };
    let uses_file = matches!(kind, ShapeKind::ConvexHull | ShapeKind::Mesh | ShapeKind::PointCloud | ShapeKind::GridSurface | ShapeKind::Compound);
    let file = || -> Result<PathBuf, ParameterError> {
        if p.file.is_empty() {
            return Err(refuse(&name("file"), "\"\"", format!("a {} needs a file", kind.name())));
        }
        files::resolve(&p.file, resources).map_err(|e| refuse(&name("file"), format!("\"{}\"", p.file), e.to_string()))
    };
    let loaded = |result: Result<Shape, files::FileError>| {
        result.map_err(|e| refuse(&name("file"), format!("\"{}\"", p.file), e.to_string()))
    };
    let shape = match kind {
        ShapeKind::Point => Shape::Point,
        ShapeKind::Sphere => {
            positive("radius", p.radius)?;
            Shape::Sphere { radius: p.radius }
        }
        ShapeKind::Box => Shape::Box { half_extents: Vec3::new(size(0)?, size(1)?, size(2)?) / 2.0 },
        ShapeKind::Cylinder => {
            positive("radius", p.radius)?;
            positive("length", p.length)?;
            Shape::Cylinder { radius: p.radius, half_length: p.length / 2.0 }
        }
        ShapeKind::Capsule => {
            positive("radius", p.radius)?;
            check(&name("length"), p.length, p.length >= 0.0, "must be >= 0")?;
            Shape::Capsule { radius: p.radius, half_length: p.length / 2.0 }
        }
        ShapeKind::Ellipsoid => Shape::Ellipsoid { semi_axes: Vec3::new(size(0)?, size(1)?, size(2)?) },
        ShapeKind::Disk => {
            positive("radius", p.radius)?;
            Shape::Disk { radius: p.radius }
        }
        ShapeKind::Rectangle => Shape::Rectangle { half_x: size(0)? / 2.0, half_y: size(1)? / 2.0 },
        ShapeKind::Plane => Shape::Plane,
        ShapeKind::ConvexHull => loaded(files::load_shape(kind, &file()?))?,
        ShapeKind::Mesh => loaded(files::load_shape(kind, &file()?))?,
        ShapeKind::PointCloud => loaded(files::load_shape(kind, &file()?))?,
        ShapeKind::GridSurface => loaded(files::load_shape(kind, &file()?))?,
        ShapeKind::Compound => loaded(files::load_shape(kind, &file()?))?,
    };
    if !p.file.is_empty() && !uses_file {
        warnings.push(format!("{prefix}.file = \"{}\" is ignored: shape {} reads no file", p.file, kind.name()));
    }
    for (i, x) in p.r.iter().enumerate() {
        check(&format!("{prefix}.r[{}]", i + 1), *x, true, "must be finite")?;
    }
    let q_name = format!("{prefix}.q");
    let (q, norm) = rotation_from_wxyz(&p.q)
        .ok_or_else(|| refuse(&q_name, format!("{:?}", p.q), format!("the quaternion {}", quaternion_problem(&p.q))))?;
    if (norm - 1.0).abs() > QUATERNION_NORM_TOLERANCE {
        warnings.push(format!("{q_name} = {:?} has norm {norm}; it is normalised", p.q));
    }
    Ok((shape, Pose { r: Vec3::from(p.r), q }))
}

impl GeometryParameters {
    /// Which side of the shape is the contact surface (the inside switches).
    pub fn surface(&self) -> Surface {
        Surface { inside: self.inside, end_bottom: self.end_bottom, end_top: self.end_top }
    }
}
