//! STL meshes, binary or ASCII. Binary: an 80-byte header, a little-endian u32 triangle count,
//! then 50 bytes per triangle (normal, three vertices as f32, a u16 attribute). ASCII:
//! `solid ... facet normal ... outer loop vertex x y z (x3) endloop endfacet ... endsolid`.
//! Which one: a file whose size is exactly `84 + 50 count` is binary (binary headers may begin
//! with "solid" too), otherwise one that starts with "solid" is ASCII. Each triangle brings its
//! own three vertices; [`crate::shape::TriangleMesh::new`] merges the repeats.
//! The stored normals are ignored (the winding defines the outside).

use std::path::Path;

use super::FileError;
use crate::math::Vec3;

/// Vertices and triangles (0-based indices) of an STL file.
pub fn read(path: &Path) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), FileError> {
    let bytes = std::fs::read(path).map_err(|e| FileError::new(path, None, format!("cannot be read: {e}")))?;
    parse(path, &bytes)
}

/// Parses STL bytes; `path` only names the source in errors.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), FileError> {
    if bytes.len() >= 84 {
        let count = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
        if bytes.len() as u64 == 84 + 50 * count as u64 {
            return binary(path, bytes, count);
        }
    }
    let starts_ascii = bytes.iter().skip_while(|b| b.is_ascii_whitespace()).take(5).eq(b"solid".iter());
    if starts_ascii {
        let text = std::str::from_utf8(bytes).map_err(|e| FileError::new(path, None, format!("starts like ASCII STL but is not text: {e}")))?;
        return ascii(path, text);
    }
    if bytes.len() < 84 {
        return Err(FileError::new(path, None, format!("is neither ASCII STL (no \"solid\") nor binary STL ({} bytes, shorter than the 84-byte header)", bytes.len())));
    }
    let count = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64;
    Err(FileError::new(
        path,
        None,
        format!("binary STL at byte 80 declares {count} triangles ({} bytes), but the file has {} bytes", 84 + 50 * count, bytes.len()),
    ))
}

fn binary(path: &Path, bytes: &[u8], count: usize) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), FileError> {
    if count == 0 {
        return Err(FileError::new(path, None, "binary STL holds no triangles"));
    }
    let mut vertices = Vec::with_capacity(3 * count);
    let mut triangles = Vec::with_capacity(count);
    for t in 0..count {
        let start = 84 + 50 * t;
        for v in 0..3 {
            let offset = start + 12 + 12 * v;
            let mut xyz = [0.0; 3];
            for (k, x) in xyz.iter_mut().enumerate() {
                let at = offset + 4 * k;
                let value = f32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
                if !value.is_finite() {
                    return Err(FileError::new(path, None, format!("binary STL: coordinate at byte {at} (triangle {}) is not finite", t + 1)));
                }
                *x = value as f64;
            }
            vertices.push(Vec3::new(xyz[0], xyz[1], xyz[2]));
        }
        let base = 3 * t as u32;
        triangles.push([base, base + 1, base + 2]);
    }
    Ok((vertices, triangles))
}

fn ascii(path: &Path, text: &str) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), FileError> {
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    let mut in_loop: Option<(usize, usize)> = None;
    let mut last_line = 0;
    for (index, line) in text.lines().enumerate() {
        last_line = index + 1;
        let error = |message: String| FileError::new(path, Some(index + 1), message);
        let mut fields = line.split_whitespace();
        match fields.next() {
            Some("vertex") => {
                let Some((first, _)) = in_loop else {
                    return Err(error("\"vertex\" outside an \"outer loop\"".to_string()));
                };
                let numbers: Vec<&str> = fields.collect();
                if numbers.len() != 3 {
                    return Err(error(format!("a vertex needs 3 coordinates, found \"{}\"", line.trim())));
                }
                let mut xyz = [0.0; 3];
                for (k, field) in numbers.iter().enumerate() {
                    xyz[k] = field.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| {
                        error(format!("vertex coordinate \"{field}\" is not a finite number"))
                    })?;
                }
                vertices.push(Vec3::new(xyz[0], xyz[1], xyz[2]));
                if vertices.len() - first > 3 {
                    return Err(error("a facet has more than 3 vertices".to_string()));
                }
            }
            Some("outer") => in_loop = Some((vertices.len(), index + 1)),
            Some("endloop") => {
                let Some((first, _)) = in_loop.take() else {
                    return Err(error("\"endloop\" without \"outer loop\"".to_string()));
                };
                if vertices.len() - first != 3 {
                    return Err(error(format!("a facet needs 3 vertices, found {}", vertices.len() - first)));
                }
                let base = first as u32;
                triangles.push([base, base + 1, base + 2]);
            }
            Some("solid" | "facet" | "endfacet" | "endsolid") | None => {}
            Some(other) => return Err(error(format!("unexpected \"{other}\" in ASCII STL"))),
        }
    }
    if let Some((_, line)) = in_loop {
        return Err(FileError::new(path, Some(line), format!("\"outer loop\" not closed before the end (line {last_line})")));
    }
    if triangles.is_empty() {
        return Err(FileError::new(path, None, "ASCII STL holds no facets"));
    }
    Ok((vertices, triangles))
}

/// The binary STL of triangles (for tests and examples).
pub fn to_binary(triangles: &[[Vec3; 3]]) -> Vec<u8> {
    let mut bytes = vec![0u8; 80];
    bytes.extend((triangles.len() as u32).to_le_bytes());
    for t in triangles {
        bytes.extend([0u8; 12]);
        for v in t {
            for k in 0..3 {
                bytes.extend((v[k] as f32).to_le_bytes());
            }
        }
        bytes.extend([0u8; 2]);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRIANGLE: &str = "solid t\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid t\n";

    #[test]
    fn reads_ascii_and_binary_alike() {
        let path = Path::new("t.stl");
        let (vertices, triangles) = parse(path, TRIANGLE.as_bytes()).unwrap();
        assert_eq!(vertices, vec![Vec3::zeros(), Vec3::x(), Vec3::y()]);
        assert_eq!(triangles, vec![[0, 1, 2]]);
        // A binary header that starts with "solid" is still binary.
        let mut bytes = to_binary(&[[Vec3::zeros(), Vec3::x(), Vec3::y()]]);
        bytes[..5].copy_from_slice(b"solid");
        assert_eq!(parse(path, &bytes).unwrap(), (vertices, triangles));
    }

    #[test]
    fn malformed_files_name_the_line_or_byte() {
        let path = Path::new("t.stl");
        let bad = TRIANGLE.replace("vertex 1 0 0", "vertex 1 zero 0");
        let e = parse(path, bad.as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), "t.stl line 5: vertex coordinate \"zero\" is not a finite number");
        let two = TRIANGLE.replace("   vertex 0 1 0\n", "");
        assert_eq!(parse(path, two.as_bytes()).unwrap_err().line, Some(6));
        let mut bytes = to_binary(&[[Vec3::zeros(), Vec3::x(), Vec3::y()]]);
        bytes.pop();
        let e = parse(path, &bytes).unwrap_err();
        assert!(e.message.contains("byte 80") && e.message.contains("133 bytes"), "{e}");
        let mut bytes = to_binary(&[[Vec3::zeros(), Vec3::x(), Vec3::y()]]);
        bytes[84 + 12 + 4..84 + 12 + 8].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(parse(path, &bytes).unwrap_err().message.contains("byte 100"));
        assert!(parse(path, b"").unwrap_err().message.contains("neither"));
        assert!(parse(path, b"solid x\nendsolid x\n").unwrap_err().message.contains("no facets"));
    }
}
