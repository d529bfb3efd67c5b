//! Point lists (point clouds, convex hull vertices): one point per line, three numbers separated
//! by commas, semicolons, tabs or spaces. Empty lines and lines starting with `#` are skipped;
//! a first line that is not numeric (a CSV header such as `x,y,z`) is skipped too.

use std::path::Path;

use super::{read_text, FileError};
use crate::math::Vec3;

/// Reads the points of a file; an empty list or any malformed line is an error naming the line.
pub fn read(path: &Path) -> Result<Vec<Vec3>, FileError> {
    parse(path, &read_text(path)?)
}

/// Parses point-list text; `path` only names the source in errors.
pub fn parse(path: &Path, text: &str) -> Result<Vec<Vec3>, FileError> {
    let mut points = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(|c: char| c == ',' || c == ';' || c.is_whitespace()).filter(|f| !f.is_empty()).collect();
        let numbers: Result<Vec<f64>, _> = fields.iter().map(|f| f.parse::<f64>()).collect();
        let numbers = match numbers {
            Ok(numbers) => numbers,
            // A header before any point.
            Err(_) if points.is_empty() && index == 0 => continue,
            Err(_) => return Err(FileError::new(path, Some(index + 1), format!("expected three numbers, found \"{line}\""))),
        };
        if numbers.len() != 3 {
            return Err(FileError::new(path, Some(index + 1), format!("expected three numbers, found {} in \"{line}\"", numbers.len())));
        }
        if numbers.iter().any(|x| !x.is_finite()) {
            return Err(FileError::new(path, Some(index + 1), format!("coordinates must be finite, found \"{line}\"")));
        }
        points.push(Vec3::new(numbers[0], numbers[1], numbers[2]));
    }
    if points.is_empty() {
        return Err(FileError::new(path, None, "holds no points"));
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_csv_with_header_and_comments_and_names_bad_lines() {
        let path = Path::new("cloud.csv");
        let points = parse(path, "x,y,z\n# a comment\n0,0,0\n1.5; -2 ;3e-3\n\n4\t5 6\n").unwrap();
        assert_eq!(points, vec![Vec3::zeros(), Vec3::new(1.5, -2.0, 3e-3), Vec3::new(4.0, 5.0, 6.0)]);
        let e = parse(path, "0,0,0\n1,2\n").unwrap_err();
        assert_eq!(e.to_string(), "cloud.csv line 2: expected three numbers, found 2 in \"1,2\"");
        let e = parse(path, "0,0,0\n1,2,abc\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(parse(path, "# nothing\n").unwrap_err().to_string().contains("holds no points"));
        assert!(parse(path, "0,0,nan\n").unwrap_err().to_string().contains("finite"));
    }
}
