//! Wavefront OBJ meshes: `v x y z [w]` vertex lines and `f` face lines whose corners are
//! `i`, `i/t`, `i//n` or `i/t/n` with 1-based indices, or negative ones counted back from the
//! last vertex read so far (-1 is the latest). Polygons are fan-triangulated from their first
//! corner (exact for the convex faces OBJ exporters write). Every other statement (vt, vn, o, g,
//! s, usemtl, mtllib, l, ...) and `#` comments are ignored.

use std::path::Path;

use super::{read_text, FileError};
use crate::math::Vec3;

/// Vertices and triangles (0-based indices) of an OBJ file.
pub fn read(path: &Path) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), FileError> {
    parse(path, &read_text(path)?)
}

/// Parses OBJ text; `path` only names the source in errors.
pub fn parse(path: &Path, text: &str) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), FileError> {
    let mut vertices: Vec<Vec3> = Vec::new();
    let mut triangles = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let error = |message: String| FileError::new(path, Some(index + 1), message);
        let line = line.split('#').next().unwrap_or("").trim();
        let mut fields = line.split_whitespace();
        match fields.next() {
            Some("v") => {
                let numbers: Vec<&str> = fields.collect();
                if numbers.len() < 3 || numbers.len() > 4 {
                    return Err(error(format!("a vertex needs 3 coordinates, found \"{line}\"")));
                }
                let mut xyz = [0.0; 3];
                for (k, field) in numbers.iter().take(3).enumerate() {
                    xyz[k] = field.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| {
                        error(format!("vertex coordinate \"{field}\" is not a finite number"))
                    })?;
                }
                vertices.push(Vec3::new(xyz[0], xyz[1], xyz[2]));
            }
            Some("f") => {
                let mut corners = Vec::new();
                for corner in fields {
                    let first = corner.split('/').next().unwrap_or("");
                    let number: i64 = first.parse().map_err(|_| error(format!("face corner \"{corner}\" has no vertex index")))?;
                    let resolved = match number {
                        n if n > 0 && n as usize <= vertices.len() => n as usize - 1,
                        n if n < 0 && n.unsigned_abs() as usize <= vertices.len() => vertices.len() - n.unsigned_abs() as usize,
                        n => {
                            return Err(error(format!("face corner \"{corner}\" refers to vertex {n}, but {} vertices are defined so far", vertices.len())))
                        }
                    };
                    corners.push(resolved as u32);
                }
                if corners.len() < 3 {
                    return Err(error(format!("a face needs at least 3 corners, found {}", corners.len())));
                }
                for k in 1..corners.len() - 1 {
                    triangles.push([corners[0], corners[k], corners[k + 1]]);
                }
            }
            _ => {}
        }
    }
    if triangles.is_empty() {
        return Err(FileError::new(path, None, "holds no faces (f lines)"));
    }
    Ok((vertices, triangles))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_polygons_relative_indices_and_slash_forms() {
        let text = "# a unit square and a triangle\no square\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n\
                    f 1/1/1 2/1/1 3//1 4\nv 0 0 1\nf -5 -4 -1\n";
        let (vertices, triangles) = parse(Path::new("m.obj"), text).unwrap();
        assert_eq!(vertices.len(), 5);
        assert_eq!(triangles, vec![[0, 1, 2], [0, 2, 3], [0, 1, 4]]);
    }

    #[test]
    fn malformed_lines_are_named() {
        let path = Path::new("m.obj");
        let e = parse(path, "v 0 0 0\nv 1 x 0\n").unwrap_err();
        assert_eq!(e.to_string(), "m.obj line 2: vertex coordinate \"x\" is not a finite number");
        let e = parse(path, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n").unwrap_err();
        assert_eq!(e.line, Some(4));
        assert!(e.message.contains("vertex 4"));
        assert!(parse(path, "v 0 0\n").unwrap_err().message.contains("3 coordinates"));
        assert!(parse(path, "v 0 0 0\nv 1 0 0\nf 1 2\n").unwrap_err().message.contains("at least 3"));
        assert!(parse(path, "v 0 0 0\n").unwrap_err().message.contains("no faces"));
        assert!(parse(path, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 a 3\n").unwrap_err().message.contains("\"a\""));
    }
}
