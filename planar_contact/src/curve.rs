//! Polylines and curves: a chain of points (open, or closed around a solid region), its closest
//! point to a query point, the spline that samples a Curve, and the points file both read.
#![forbid(unsafe_code)]

use std::path::Path;

use contact_physics::files::{self, FileError};

use crate::Vec2;

/// Straight pieces per interval of a Curve's spline: each interval between two file points is
/// drawn as this many segments. The chord of an interval of length L and radius of curvature R
/// then deviates from the spline by about `(L / 16)^2 / (8 R)`.
pub const SPLINE_SAMPLES: usize = 16;

/// A chain of points joined by straight segments, in the geometry frame. A closed chain bounds a
/// solid region and runs counter-clockwise (the constructor turns it), so the outward normal of
/// a segment `p -> q` is `(q - p)` turned clockwise.
#[derive(Clone, Debug, PartialEq)]
pub struct Chain {
    pub points: Vec<Vec2>,
    pub closed: bool,
}

/// The point of a chain closest to a query point `q`: `q = point + distance * normal`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Closest {
    pub point: Vec2,
    /// Unit; a closed chain's outward normal, an open chain's direction toward `q`.
    pub normal: Vec2,
    /// Signed for a closed chain (negative inside), the distance for an open one.
    pub distance: f64,
}

impl Chain {
    /// A chain through `points`: an open one needs 2 points, a closed one 3 enclosing an area;
    /// consecutive points must differ.
    pub fn new(mut points: Vec<Vec2>, closed: bool) -> Result<Chain, String> {
        if closed && points.len() > 3 && points.first() == points.last() {
            points.pop();
        }
        let needed = if closed { 3 } else { 2 };
        if points.len() < needed {
            return Err(format!("a{} chain needs at least {needed} points, the file has {}", if closed { " closed" } else { "n open" }, points.len()));
        }
        let count = points.len();
        let pieces = if closed { count } else { count - 1 };
        for i in 0..pieces {
            if points[i] == points[(i + 1) % count] {
                return Err(format!("points {} and {} are the same point ({}, {})", i + 1, (i + 1) % count + 1, points[i].x, points[i].y));
            }
        }
        if closed {
            let area = signed_area(&points);
            if area.abs() <= 1e-12 * bounding_size(&points).powi(2) {
                return Err("a closed chain must enclose an area; these points enclose none".to_string());
            }
            if area < 0.0 {
                points.reverse();
            }
        }
        Ok(Chain { points, closed })
    }

    /// The segments `(p, q)` of the chain, in order.
    pub fn segments(&self) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let n = self.points.len();
        let pieces = if self.closed { n } else { n - 1 };
        (0..pieces).map(move |i| (self.points[i], self.points[(i + 1) % n]))
    }

    /// The closest point of the chain to `q` (see [`Closest`]).
    pub fn closest(&self, q: &Vec2) -> Closest {
        let mut best = (f64::INFINITY, Vec2::zeros(), Vec2::zeros());
        for (p, r) in self.segments() {
            let edge = r - p;
            let t = ((q - p).dot(&edge) / edge.norm_squared()).clamp(0.0, 1.0);
            let c = p + edge * t;
            let d2 = (q - c).norm_squared();
            if d2 < best.0 {
                best = (d2, c, edge);
            }
        }
        let (d2, point, edge) = best;
        let distance = d2.sqrt();
        // On the curve itself the direction to q is undefined: the segment's own normal.
        let side = Vec2::new(edge.y, -edge.x).normalize();
        if self.closed {
            let inside = self.contains(q);
            let normal = if distance > 0.0 { (q - point) / distance * if inside { -1.0 } else { 1.0 } } else { side };
            Closest { point, normal, distance: if inside { -distance } else { distance } }
        } else {
            let normal = if distance > 0.0 { (q - point) / distance } else { -side };
            Closest { point, normal, distance }
        }
    }

    /// Whether `q` lies inside a closed chain (crossing number).
    pub fn contains(&self, q: &Vec2) -> bool {
        let mut inside = false;
        for (p, r) in self.segments() {
            if (p.y > q.y) != (r.y > q.y) {
                let x = p.x + (q.y - p.y) / (r.y - p.y) * (r.x - p.x);
                if q.x < x {
                    inside = !inside;
                }
            }
        }
        inside
    }
}

/// The signed area of the polygon through `points` (positive counter-clockwise).
fn signed_area(points: &[Vec2]) -> f64 {
    let n = points.len();
    (0..n).map(|i| points[i].perp(&points[(i + 1) % n])).sum::<f64>() / 2.0
}

fn bounding_size(points: &[Vec2]) -> f64 {
    let (mut lo, mut hi) = (points[0], points[0]);
    for p in points {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    (hi - lo).norm()
}

/// The uniform Catmull-Rom spline through `points` (a cubic through each pair of consecutive
/// points, its tangent there `(p[i+1] - p[i-1]) / 2`), sampled with [`SPLINE_SAMPLES`] pieces per
/// interval. A closed spline wraps around; an open one passes through both end points, its end
/// tangents those of the end intervals.
pub fn spline(points: &[Vec2], closed: bool) -> Vec<Vec2> {
    let n = points.len();
    if n < 2 {
        return points.to_vec();
    }
    let at = |i: isize| -> Vec2 {
        if closed {
            points[i.rem_euclid(n as isize) as usize]
        } else if i < 0 {
            points[0] * 2.0 - points[1]
        } else if i as usize >= n {
            points[n - 1] * 2.0 - points[n - 2]
        } else {
            points[i as usize]
        }
    };
    let intervals = if closed { n } else { n - 1 };
    let mut out = Vec::with_capacity(intervals * SPLINE_SAMPLES + 1);
    for i in 0..intervals as isize {
        let (p0, p1, p2, p3) = (at(i - 1), at(i), at(i + 1), at(i + 2));
        for k in 0..SPLINE_SAMPLES {
            let t = k as f64 / SPLINE_SAMPLES as f64;
            let (t2, t3) = (t * t, t * t * t);
            let point = (p1 * 2.0 + (p2 - p0) * t + (p0 * 2.0 - p1 * 5.0 + p2 * 4.0 - p3) * t2 + (p1 * 3.0 - p0 - p2 * 3.0 + p3) * t3) * 0.5;
            out.push(point);
        }
    }
    if !closed {
        out.push(points[n - 1]);
    }
    out
}

/// Reads a planar points file: one point a line, `x y` (or `x, y`, or `x;y`), in metres;
/// blank lines and `#` comments are skipped; a third column must be 0 (a file written for the
/// x-y plane of a 3-D tool).
pub fn read_points(path: &Path) -> Result<Vec<Vec2>, FileError> {
    let text = files::read_text(path)?;
    parse_points(path, &text)
}

/// [`read_points`] of a file's text.
pub fn parse_points(path: &Path, text: &str) -> Result<Vec<Vec2>, FileError> {
    let mut points = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(|c: char| c == ',' || c == ';' || c.is_whitespace()).filter(|f| !f.is_empty()).collect();
        let number = |f: &str| -> Result<f64, FileError> {
            match f.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                _ => Err(FileError::new(path, Some(index + 1), format!("\"{f}\" is not a finite number"))),
            }
        };
        match fields.len() {
            2 => points.push(Vec2::new(number(fields[0])?, number(fields[1])?)),
            3 if number(fields[2])? == 0.0 => points.push(Vec2::new(number(fields[0])?, number(fields[1])?)),
            3 => return Err(FileError::new(path, Some(index + 1), "a planar point's third coordinate must be 0 (or left out)")),
            k => return Err(FileError::new(path, Some(index + 1), format!("a point is x y (2 numbers), this line has {k}"))),
        }
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Chain {
        // Clockwise on purpose: the constructor turns it.
        Chain::new(vec![Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.0), Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.0)], true).unwrap()
    }

    #[test]
    fn closed_chains_give_signed_distances_and_outward_normals() {
        let s = square();
        assert!(signed_area(&s.points) > 0.0);
        let inside = s.closest(&Vec2::new(0.5, 0.9));
        assert!((inside.distance + 0.1).abs() < 1e-15);
        assert!((inside.normal - Vec2::new(0.0, 1.0)).norm() < 1e-15);
        assert!((inside.point - Vec2::new(0.5, 1.0)).norm() < 1e-15);
        let outside = s.closest(&Vec2::new(2.0, 2.0));
        assert!((outside.distance - 2f64.sqrt()).abs() < 1e-15);
        assert!((outside.point + outside.normal * outside.distance - Vec2::new(2.0, 2.0)).norm() < 1e-15);
        let on = s.closest(&Vec2::new(0.5, 0.0));
        assert_eq!(on.distance, 0.0);
        assert!((on.normal - Vec2::new(0.0, -1.0)).norm() < 1e-15);
    }

    #[test]
    fn open_chains_give_distances_toward_the_query() {
        let c = Chain::new(vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0)], false).unwrap();
        let below = c.closest(&Vec2::new(0.3, -0.2));
        assert!((below.distance - 0.2).abs() < 1e-15 && (below.normal - Vec2::new(0.0, -1.0)).norm() < 1e-15);
        assert!(Chain::new(vec![Vec2::new(0.0, 0.0)], false).is_err());
        assert!(Chain::new(vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(2.0, 0.0)], true).is_err());
    }

    #[test]
    fn the_spline_passes_through_its_points_and_a_closed_circle_is_round() {
        let n = 12;
        let circle: Vec<Vec2> = (0..n).map(|i| {
            let a = std::f64::consts::TAU * i as f64 / n as f64;
            Vec2::new(a.cos(), a.sin())
        }).collect();
        let samples = spline(&circle, true);
        assert_eq!(samples.len(), n * SPLINE_SAMPLES);
        for (i, p) in circle.iter().enumerate() {
            assert!((samples[i * SPLINE_SAMPLES] - p).norm() < 1e-15);
        }
        // Catmull-Rom through 12 points of a unit circle stays within 1e-3 of it.
        let worst = samples.iter().map(|p| (p.norm() - 1.0).abs()).fold(0.0, f64::max);
        assert!(worst < 2e-3, "{worst}");
        let open = spline(&circle[..4], false);
        assert_eq!(open.len(), 3 * SPLINE_SAMPLES + 1);
        assert_eq!(*open.last().unwrap(), circle[3]);
    }

    #[test]
    fn points_files_name_the_line_that_fails() {
        let path = Path::new("cam.txt");
        assert_eq!(parse_points(path, "# cam\n0 0\n1, 0\n1;1;0\n").unwrap().len(), 3);
        let e = parse_points(path, "0 0\n1 x\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(parse_points(path, "0 0 1\n").unwrap_err().message.contains("third"));
    }
}
