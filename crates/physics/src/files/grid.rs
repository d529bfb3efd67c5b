//! Height fields (GridSurface): heights z = h(x, y) on a regular grid, as text.
//!
//! Format: the first line that is not empty and not a comment (`#`) holds four numbers,
//! `x0 y0 dx dy`: the position of node (0, 0) and the node spacings (> 0) along x and y. Every
//! following line is one row of heights, row j at `y = y0 + j dy`, its i-th number at
//! `x = x0 + i dx`. Numbers are separated by commas, semicolons, tabs or spaces; empty lines and
//! lines starting with `#` are skipped anywhere. Every row has as many heights as the first one;
//! the grid needs at least 2 x 2 nodes, and every number must be finite. Example, a 3 x 2 grid
//! with 0.5 m spacing whose corner (0, 0) is at x = -0.5, y = -0.25:
//!
//! ```text
//! # x0 y0 dx dy
//! -0.5 -0.25 0.5 0.5
//! 0.00, 0.01, 0.02
//! 0.00, 0.02, 0.04
//! ```
//!
//! Why this format: it is the one a spreadsheet or `numpy.savetxt` writes for a height matrix with
//! one extra line in front, and unlike a list of (x, y, z) triples it cannot describe an
//! irregular grid by mistake.

use std::path::Path;

use super::{read_text, FileError};
use crate::shape::HeightField;

/// Reads the height field of a file; any malformed line is an error naming the line.
pub fn read(path: &Path) -> Result<HeightField, FileError> {
    parse(path, &read_text(path)?)
}

/// The numbers of one line; a field that is not a finite number is an error naming the line.
fn numbers(path: &Path, line_number: usize, line: &str) -> Result<Vec<f64>, FileError> {
    let fields = line.split(|c: char| c == ',' || c == ';' || c.is_whitespace()).filter(|f| !f.is_empty());
    fields
        .map(|field| match field.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            Ok(_) => Err(FileError::new(path, Some(line_number), format!("numbers must be finite, found \"{field}\""))),
            Err(_) => Err(FileError::new(path, Some(line_number), format!("\"{field}\" is not a number"))),
        })
        .collect()
}

/// Parses height-field text; `path` only names the source in errors.
pub fn parse(path: &Path, text: &str) -> Result<HeightField, FileError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'));
    let Some((header_line, header)) = lines.next() else {
        return Err(FileError::new(path, None, "holds no grid: expected a first line \"x0 y0 dx dy\" and rows of heights"));
    };
    let spacing = numbers(path, header_line, header)?;
    let [x0, y0, dx, dy] = spacing[..] else {
        return Err(FileError::new(
            path,
            Some(header_line),
            format!("expected the four numbers \"x0 y0 dx dy\", found {} in \"{header}\"", spacing.len()),
        ));
    };
    if dx <= 0.0 || dy <= 0.0 {
        return Err(FileError::new(path, Some(header_line), format!("the spacings dx = {dx} and dy = {dy} must be > 0")));
    }
    let mut heights = Vec::new();
    let (mut nx, mut ny) = (0, 0);
    for (line_number, line) in lines {
        let row = numbers(path, line_number, line)?;
        if ny == 0 {
            nx = row.len();
            if nx < 2 {
                return Err(FileError::new(path, Some(line_number), format!("a row needs at least 2 heights, found {nx}")));
            }
        } else if row.len() != nx {
            return Err(FileError::new(
                path,
                Some(line_number),
                format!("this row has {} heights, the first row has {nx}", row.len()),
            ));
        }
        heights.extend_from_slice(&row);
        ny += 1;
    }
    if ny < 2 {
        return Err(FileError::new(path, None, format!("a grid needs at least 2 rows of heights, found {ny}")));
    }
    Ok(HeightField { x0, y0, dx, dy, nx, ny, heights })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_example_row_by_row() {
        let text = "# x0 y0 dx dy\n-0.5 -0.25 0.5 0.5\n0.00, 0.01, 0.02\n\n# second row\n0.00;0.02\t0.04\n";
        let grid = parse(Path::new("grid.txt"), text).unwrap();
        assert_eq!((grid.x0, grid.y0, grid.dx, grid.dy, grid.nx, grid.ny), (-0.5, -0.25, 0.5, 0.5, 3, 2));
        assert_eq!(grid.heights, vec![0.0, 0.01, 0.02, 0.0, 0.02, 0.04]);
    }

    #[test]
    fn every_malformed_grid_is_refused_naming_the_line() {
        let path = Path::new("grid.txt");
        let error = |text: &str| parse(path, text).unwrap_err().to_string();
        assert_eq!(error("0 0 1 1\n1 2 3\n4 5\n"), "grid.txt line 3: this row has 2 heights, the first row has 3");
        assert_eq!(error("0 0 1 1\n1 2\n3 x\n"), "grid.txt line 3: \"x\" is not a number");
        assert_eq!(error("0 0 1 1\n1 2\n3 inf\n"), "grid.txt line 3: numbers must be finite, found \"inf\"");
        assert_eq!(error("# c\n0 0 0 1\n1 2\n3 4\n"), "grid.txt line 2: the spacings dx = 0 and dy = 1 must be > 0");
        assert_eq!(error("0 0 1 -1\n1 2\n3 4\n"), "grid.txt line 1: the spacings dx = 1 and dy = -1 must be > 0");
        assert_eq!(error("0 0 1\n1 2\n3 4\n"), "grid.txt line 1: expected the four numbers \"x0 y0 dx dy\", found 3 in \"0 0 1\"");
        assert_eq!(error("0 0 1 1\n1\n2\n"), "grid.txt line 2: a row needs at least 2 heights, found 1");
        assert_eq!(error("0 0 1 1\n1 2\n"), "grid.txt: a grid needs at least 2 rows of heights, found 1");
        assert!(error("# only a comment\n\n").starts_with("grid.txt: holds no grid"));
    }
}
