//! Geometry files: where they are (the FMU's resources folder or an absolute path) and how each
//! format is read (point lists, height fields, OBJ and STL meshes, compounds' shape lists).
//! Every error names the file and, where there is one, the line that failed.
#![forbid(unsafe_code)]

pub mod compound;
pub mod grid;
pub mod obj;
pub mod points;
pub mod stl;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::shape::{ConvexHull, PointCloud, Shape, ShapeKind, TriangleMesh};

/// A file that could not be used.
#[derive(Clone, Debug, PartialEq)]
pub struct FileError {
    pub path: PathBuf,
    /// 1-based line (text formats) that failed, if one did.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{} line {line}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl FileError {
    pub fn new(path: &Path, line: Option<usize>, message: impl Into<String>) -> FileError {
        FileError { path: path.to_path_buf(), line, message: message.into() }
    }
}

/// Resolves `file` (a `geometry_X.file` value): an absolute path is used as it is; a relative
/// one is looked up in the resources folder.
pub fn resolve(file: &str, resources: Option<&Path>) -> Result<PathBuf, FileError> {
    let path = Path::new(file);
    if path.is_absolute() {
        return Ok(path.to_path_buf());
    }
    match resources {
        Some(folder) => Ok(folder.join(path)),
        None => Err(FileError::new(
            path,
            None,
            "a relative path needs the FMU's resources folder, and the importer gave none; use an absolute path",
        )),
    }
}

/// Reads a whole file as text.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let bytes = std::fs::read(path).map_err(|e| FileError::new(path, None, format!("cannot be read: {e}")))?;
    String::from_utf8(bytes).map_err(|e| FileError::new(path, None, format!("is not UTF-8 text: {e}")))
}

/// Reads the file of a file-based shape.
///
/// ConvexHull: the hull of a point list, or of the vertices of an `.obj` or `.stl` mesh.
/// Mesh: an `.obj` or `.stl` file (by extension; any other is refused). Compound: a list of
/// shapes (`compound`).
pub fn load_shape(kind: ShapeKind, path: &Path) -> Result<Shape, FileError> {
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let mesh = |path: &Path| match extension.as_deref() {
        Some("obj") => obj::read(path),
        Some("stl") => stl::read(path),
        _ => Err(FileError::new(path, None, "a Mesh file must be Wavefront OBJ (.obj) or STL (.stl)")),
    };
    match kind {
        ShapeKind::PointCloud => Ok(Shape::PointCloud(Arc::new(PointCloud { points: points::read(path)? }))),
        ShapeKind::GridSurface => Ok(Shape::GridSurface(Arc::new(grid::read(path)?))),
        ShapeKind::Compound => Ok(Shape::Compound(Arc::new(compound::read(path)?))),
        ShapeKind::ConvexHull => {
            let points = match extension.as_deref() {
                Some("obj" | "stl") => mesh(path)?.0,
                _ => points::read(path)?,
            };
            let hull = ConvexHull::new(&points).map_err(|e| FileError::new(path, None, e))?;
            Ok(Shape::ConvexHull(Arc::new(hull)))
        }
        ShapeKind::Mesh => {
            let (vertices, triangles) = mesh(path)?;
            let mesh = TriangleMesh::new(&vertices, &triangles).map_err(|e| FileError::new(path, None, e))?;
            Ok(Shape::Mesh(Arc::new(mesh)))
        }
        _ => Err(FileError::new(path, None, format!("{} files are not supported yet", kind.name()))),
    }
}

