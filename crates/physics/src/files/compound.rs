//! Compound geometries (`geometry_X.shape = Compound`): several shapes on one body, one per line
//! of a text file, each with its kind, its sizes and its pose in the geometry frame.
//!
//! Format: a line is the shape's kind (as `geometry_X.shape` names it), its sizes, the position
//! `x y z` (m) of the part's frame in the geometry frame and, optionally, its orientation as a
//! quaternion `w x y z` (rotating part-frame vectors into the geometry frame; identity when
//! left out). Fields are separated by commas, semicolons, tabs or spaces; empty lines and lines
//! starting with `#` are skipped. The sizes are those of the parameters, in the same units and
//! meanings:
//!
//! | kind | sizes |
//! | --- | --- |
//! | Point, Plane | none |
//! | Sphere, Disk | radius |
//! | Box | size x, y, z (full extents) |
//! | Cylinder, Capsule | radius, length |
//! | Ellipsoid | semi-axes x, y, z |
//! | Rectangle | size x, y |
//! | ConvexHull, Mesh, PointCloud, GridSurface | a file name (relative to this file's folder, or absolute) |
//!
//! A foot made of a box and a sphere under its heel:
//!
//! ```text
//! # kind  sizes             x     y  z      (w x y z)
//! Box     0.20 0.08 0.03    0.05  0  0
//! Sphere  0.04              -0.06 0  -0.01
//! ```
//!
//! Every error names the file, the line and the value. A compound holds no compound.

use std::path::Path;

use super::{read_text, FileError};
use crate::math::{Pose, Rotation, Vec3};
use crate::shape::{Compound, Part, Shape, ShapeKind};
use nalgebra::{Quaternion, UnitQuaternion};

/// A part's quaternion may differ from unit norm by this much; it is normalised.
const QUATERNION_TOLERANCE: f64 = 1e-3;

/// Reads the parts of a compound file; any malformed line is an error naming the line.
pub fn read(path: &Path) -> Result<Compound, FileError> {
    parse(path, &read_text(path)?)
}

/// What a kind's sizes are, for the messages, and how many numbers they take (`None`: a file).
fn sizes_of(kind: ShapeKind) -> (&'static str, Option<usize>) {
    use ShapeKind::*;
    match kind {
        Point | Plane => ("no sizes", Some(0)),
        Sphere | Disk => ("radius", Some(1)),
        Box => ("size x y z", Some(3)),
        Cylinder | Capsule => ("radius length", Some(2)),
        Ellipsoid => ("semi-axes x y z", Some(3)),
        Rectangle => ("size x y", Some(2)),
        ConvexHull | Mesh | PointCloud | GridSurface | Compound => ("a file name", None),
    }
}

/// Parses compound text; `path` names the source in errors, and its folder is where relative
/// file names of file-based parts are looked up.
pub fn parse(path: &Path, text: &str) -> Result<Compound, FileError> {
    let mut parts = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let number = index + 1;
        let error = |message: String| FileError::new(path, Some(number), message);
        let fields: Vec<&str> = line.split(|c: char| c == ',' || c == ';' || c.is_whitespace()).filter(|f| !f.is_empty()).collect();
        let kind = ShapeKind::ITEMS
            .iter()
            .find(|item| item.name == fields[0])
            .and_then(|item| ShapeKind::from_value(item.value))
            .ok_or_else(|| {
                let names: Vec<&str> = ShapeKind::ITEMS.iter().filter(|i| i.name != "Compound").map(|i| i.name).collect();
                error(format!("\"{}\" is not a shape; a line starts with one of {}", fields[0], names.join(", ")))
            })?;
        if kind == ShapeKind::Compound {
            return Err(error("a compound cannot hold a compound; list its shapes here instead".to_string()));
        }
        let (sizes, count) = sizes_of(kind);
        let (file, rest) = match count {
            None => match fields.get(1) {
                Some(file) => (Some(*file), &fields[2..]),
                None => return Err(error(format!("a {} needs a file name after its kind", kind.name()))),
            },
            Some(_) => (None, &fields[1..]),
        };
        let numbers = rest
            .iter()
            .map(|field| match field.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                Ok(_) => Err(error(format!("numbers must be finite, found \"{field}\""))),
                Err(_) => Err(error(format!("\"{field}\" is not a number"))),
            })
            .collect::<Result<Vec<f64>, FileError>>()?;
        let n = count.unwrap_or(0);
        if numbers.len() != n + 3 && numbers.len() != n + 7 {
            return Err(error(format!(
                "a {} line holds {sizes}, then the position x y z and optionally the orientation w x y z: expected {} or {} numbers, found {}",
                kind.name(),
                n + 3,
                n + 7,
                numbers.len()
            )));
        }
        let size = |i: usize, what: &str| -> Result<f64, FileError> {
            let x = numbers[i];
            if x > 0.0 {
                Ok(x)
            } else {
                Err(error(format!("a {} needs {what} > 0, found {x}", kind.name())))
            }
        };
        let shape = match kind {
            ShapeKind::Point => Shape::Point,
            ShapeKind::Plane => Shape::Plane,
            ShapeKind::Sphere => Shape::Sphere { radius: size(0, "radius")? },
            ShapeKind::Disk => Shape::Disk { radius: size(0, "radius")? },
            ShapeKind::Box => Shape::Box { half_extents: Vec3::new(size(0, "size x")?, size(1, "size y")?, size(2, "size z")?) / 2.0 },
            ShapeKind::Cylinder => Shape::Cylinder { radius: size(0, "radius")?, half_length: size(1, "length")? / 2.0 },
            ShapeKind::Capsule => {
                let radius = size(0, "radius")?;
                if numbers[1] < 0.0 {
                    return Err(error(format!("a Capsule needs length >= 0, found {}", numbers[1])));
                }
                Shape::Capsule { radius, half_length: numbers[1] / 2.0 }
            }
            ShapeKind::Ellipsoid => Shape::Ellipsoid { semi_axes: Vec3::new(size(0, "semi-axis x")?, size(1, "semi-axis y")?, size(2, "semi-axis z")?) },
            ShapeKind::Rectangle => Shape::Rectangle { half_x: size(0, "size x")? / 2.0, half_y: size(1, "size y")? / 2.0 },
            _ => {
                let file = Path::new(file.expect("a file-based kind"));
                let resolved = if file.is_absolute() { file.to_path_buf() } else { path.parent().unwrap_or(Path::new("")).join(file) };
                super::load_shape(kind, &resolved).map_err(|e| error(e.to_string()))?
            }
        };
        let r = Vec3::new(numbers[n], numbers[n + 1], numbers[n + 2]);
        let q = if numbers.len() == n + 7 {
            let [w, x, y, z] = [numbers[n + 3], numbers[n + 4], numbers[n + 5], numbers[n + 6]];
            let norm = (w * w + x * x + y * y + z * z).sqrt();
            if (norm - 1.0).abs() > QUATERNION_TOLERANCE {
                return Err(error(format!("the orientation w x y z = {w} {x} {y} {z} must be a unit quaternion, its norm is {norm}")));
            }
            UnitQuaternion::from_quaternion(Quaternion::new(w, x, y, z))
        } else {
            Rotation::identity()
        };
        parts.push(Part { shape, pose: Pose { r, q }, line: number });
    }
    if parts.is_empty() {
        return Err(FileError::new(path, None, "holds no shape: expected one line per shape, \"kind sizes x y z [w x y z]\""));
    }
    Ok(Compound { parts, path: path.to_path_buf() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_foot_and_every_primitive() {
        let text = "# kind  sizes             x     y  z      (w x y z)\nBox     0.20 0.08 0.03    0.05  0  0\nSphere  0.04              -0.06 0  -0.01\n";
        let foot = parse(Path::new("foot.txt"), text).unwrap();
        assert_eq!(foot.parts.len(), 2);
        assert!(matches!(foot.parts[0].shape, Shape::Box { half_extents } if half_extents == Vec3::new(0.1, 0.04, 0.015)));
        assert_eq!((foot.parts[0].line, foot.parts[1].line), (2, 3));
        assert!(matches!(foot.parts[1].shape, Shape::Sphere { radius } if radius == 0.04));
        assert_eq!(foot.parts[1].pose, Pose { r: Vec3::new(-0.06, 0.0, -0.01), q: Rotation::identity() });

        let all = "Point 0 0 0\nPlane 0 0 -1\nDisk 0.1, 0, 0, 0\nCylinder 0.1 0.4 0 0 0 0.7071067811865476 0.7071067811865476 0 0\n\
                   Capsule 0.1 0 1 2 3\nEllipsoid 0.1 0.2 0.3 0 0 0\nRectangle 0.2 0.4 0 0 0\n";
        let parts = parse(Path::new("all.txt"), all).unwrap().parts;
        let kinds: Vec<ShapeKind> = parts.iter().map(|p| p.shape.kind()).collect();
        use ShapeKind::*;
        assert_eq!(kinds, [Point, Plane, Disk, Cylinder, Capsule, Ellipsoid, Rectangle]);
        let turned = parts[3].pose.q * Vec3::z();
        assert!((turned - Vec3::new(0.0, -1.0, 0.0)).norm() < 1e-15, "{turned}");
        assert!(matches!(parts[4].shape, Shape::Capsule { half_length, .. } if half_length == 0.0));
    }

    #[test]
    fn every_malformed_line_is_refused_naming_the_file_the_line_and_the_value() {
        let path = Path::new("foot.txt");
        let error = |text: &str| parse(path, text).unwrap_err().to_string();
        assert_eq!(
            error("Sphere 0.1 0 0 0\nSphear 0.1 0 0 0\n"),
            "foot.txt line 2: \"Sphear\" is not a shape; a line starts with one of Point, Sphere, Box, Cylinder, Capsule, \
             Ellipsoid, Disk, Rectangle, Plane, ConvexHull, Mesh, PointCloud, GridSurface"
        );
        assert_eq!(error("# c\nSphere -0.1 0 0 0\n"), "foot.txt line 2: a Sphere needs radius > 0, found -0.1");
        assert_eq!(error("Box 0.1 0.2 0 0 0 0\n"), "foot.txt line 1: a Box needs size z > 0, found 0");
        assert_eq!(error("Capsule 0.1 -1 0 0 0\n"), "foot.txt line 1: a Capsule needs length >= 0, found -1");
        assert_eq!(
            error("Box 0.1 0.2 0.3 0 0\n"),
            "foot.txt line 1: a Box line holds size x y z, then the position x y z and optionally the orientation w x y z: \
             expected 6 or 10 numbers, found 5"
        );
        assert_eq!(error("Sphere 0.1 0 0 zero\n"), "foot.txt line 1: \"zero\" is not a number");
        assert_eq!(error("Sphere 0.1 0 0 inf\n"), "foot.txt line 1: numbers must be finite, found \"inf\"");
        assert_eq!(
            error("Sphere 0.1 0 0 0 2 0 0 0\n"),
            "foot.txt line 1: the orientation w x y z = 2 0 0 0 must be a unit quaternion, its norm is 2"
        );
        assert_eq!(error("\n\nCompound other.txt 0 0 0\n"), "foot.txt line 3: a compound cannot hold a compound; list its shapes here instead");
        assert_eq!(error("ConvexHull\n"), "foot.txt line 1: a ConvexHull needs a file name after its kind");
        assert!(error("PointCloud missing.csv 0 0 0\n").starts_with("foot.txt line 1: missing.csv: cannot be read"), "{}", error("PointCloud missing.csv 0 0 0\n"));
        assert_eq!(error("# only comments\n\n"), "foot.txt: holds no shape: expected one line per shape, \"kind sizes x y z [w x y z]\"");
    }
}
