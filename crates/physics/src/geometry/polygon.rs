//! Convex polygons in a plane, held on the stack: convex hull (Andrew's monotone chain),
//! Sutherland-Hodgman clipping by half-planes, and the shoelace area. The finite-face pairs
//! measure with them how much of a contact footprint lies over a face's outline.
//!
//! Area: `A = 1/2 |sum_i (p_i - p_0) x (p_{i+1} - p_0)|`, taken about the first vertex so that a
//! small polygon far from the origin keeps its precision. Clipping a convex polygon by the
//! half-plane `m · p <= c` keeps the inside vertices and adds the crossing points of the edges
//! that cross the line, in order (Sutherland-Hodgman), which keeps the result convex and its area
//! a continuous function of the vertices.

use nalgebra::Vector2;

/// A point or vector of a plane.
pub(super) type P2 = Vector2<f64>;

/// Most vertices a polygon holds. The largest inputs: the hull of a 64-sided prism's cut
/// (128 vertices and 192 edge crossings) or of nine 32-gons (288 points); clipping a convex
/// polygon by a half-plane adds at most one vertex, so 64 outline clips stay below 512 too.
pub(super) const CAPACITY: usize = 512;

/// A polygon of at most [`CAPACITY`] vertices, counter-clockwise when it comes from
/// [`Polygon::convex_hull`]; no heap allocation, so a warm contact evaluation allocates nothing.
#[derive(Clone)]
pub(super) struct Polygon {
    len: usize,
    points: [P2; CAPACITY],
}

impl Polygon {
    pub(super) fn new() -> Polygon {
        Polygon { len: 0, points: [P2::zeros(); CAPACITY] }
    }

    /// Appends a vertex. Every caller's bound is stated at [`CAPACITY`]; exceeding it is a bug.
    pub(super) fn push(&mut self, p: P2) {
        assert!(self.len < CAPACITY, "polygon capacity {CAPACITY} exceeded");
        self.points[self.len] = p;
        self.len += 1;
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    pub(super) fn points(&self) -> &[P2] {
        &self.points[..self.len]
    }

    /// The enclosed area (shoelace), >= 0 for either orientation.
    pub(super) fn area(&self) -> f64 {
        let p = self.points();
        if p.len() < 3 {
            return 0.0;
        }
        let twice: f64 = p.windows(2).skip(1).map(|w| cross(&(w[0] - p[0]), &(w[1] - p[0]))).sum();
        0.5 * twice.abs()
    }

    /// The part of this (convex) polygon with `m · p <= c`, written into `out`. A zero `m` keeps
    /// everything when `c >= 0` and nothing otherwise, so degenerate half-planes need no care.
    pub(super) fn clip(&self, m: &P2, c: f64, out: &mut Polygon) {
        out.clear();
        let p = self.points();
        let Some(last) = p.last() else {
            return;
        };
        let mut prev = *last;
        let mut prev_out = m.dot(&prev) - c;
        for cur in p {
            let cur_out = m.dot(cur) - c;
            if (prev_out > 0.0) != (cur_out > 0.0) {
                // The edge crosses the line: add the crossing point.
                let t = prev_out / (prev_out - cur_out);
                out.push(prev + (cur - prev) * t);
            }
            if cur_out <= 0.0 {
                out.push(*cur);
            }
            prev = *cur;
            prev_out = cur_out;
        }
    }

    /// The convex hull of `points` (reordered in place), counter-clockwise, without collinear
    /// vertices (Andrew's monotone chain).
    pub(super) fn convex_hull(points: &mut [P2]) -> Polygon {
        let mut hull = Polygon::new();
        points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        if points.len() < 3 {
            for p in points.iter() {
                hull.push(*p);
            }
            return hull;
        }
        // Lower chain left to right, then upper chain right to left.
        for p in points.iter() {
            while hull.len >= 2 && cross(&(hull.points[hull.len - 1] - hull.points[hull.len - 2]), &(p - hull.points[hull.len - 2])) <= 0.0 {
                hull.len -= 1;
            }
            hull.push(*p);
        }
        let lower = hull.len + 1;
        for p in points.iter().rev().skip(1) {
            while hull.len >= lower && cross(&(hull.points[hull.len - 1] - hull.points[hull.len - 2]), &(p - hull.points[hull.len - 2])) <= 0.0 {
                hull.len -= 1;
            }
            hull.push(*p);
        }
        // The last point repeats the first.
        hull.len -= 1;
        hull
    }
}

/// The z component of the cross product of two plane vectors.
pub(super) fn cross(a: &P2, b: &P2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// A fixed-capacity list of points to build a hull from.
pub(super) struct Points {
    len: usize,
    points: [P2; CAPACITY],
}

impl Points {
    pub(super) fn new() -> Points {
        Points { len: 0, points: [P2::zeros(); CAPACITY] }
    }

    pub(super) fn push(&mut self, p: P2) {
        assert!(self.len < CAPACITY, "point list capacity {CAPACITY} exceeded");
        self.points[self.len] = p;
        self.len += 1;
    }

    /// The convex hull of the points pushed so far.
    pub(super) fn hull(&mut self) -> Polygon {
        Polygon::convex_hull(&mut self.points[..self.len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(half: f64, centre: P2) -> Polygon {
        let mut points = Points::new();
        for (x, y) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (0.0, 0.0), (0.3, -0.2)] {
            points.push(centre + P2::new(x, y) * half);
        }
        points.hull()
    }

    #[test]
    fn hull_of_a_square_with_interior_points_is_the_square_counter_clockwise() {
        let hull = square(0.5, P2::new(2.0, -1.0));
        assert_eq!(hull.points().len(), 4);
        assert!((hull.area() - 1.0).abs() < 1e-15);
        let p = hull.points();
        assert!(cross(&(p[1] - p[0]), &(p[2] - p[1])) > 0.0);
    }

    #[test]
    fn clipping_a_unit_square_by_a_diagonal_half_plane_leaves_a_triangle_of_half_its_area() {
        let unit = square(0.5, P2::new(0.5, 0.5));
        let mut out = Polygon::new();
        // x + y <= 1.
        unit.clip(&P2::new(1.0, 1.0), 1.0, &mut out);
        assert!((out.area() - 0.5).abs() < 1e-15);
        // x <= 0.25: a 0.25 x 1 strip.
        unit.clip(&P2::new(1.0, 0.0), 0.25, &mut out);
        assert!((out.area() - 0.25).abs() < 1e-15);
        // A zero normal keeps all for c >= 0 and nothing for c < 0.
        unit.clip(&P2::zeros(), 0.0, &mut out);
        assert_eq!(out.area(), 1.0);
        unit.clip(&P2::zeros(), -1.0, &mut out);
        assert_eq!(out.points().len(), 0);
    }

    #[test]
    fn a_tiny_polygon_far_from_the_origin_keeps_its_area() {
        // Summed about the origin, the terms (~1) would cancel to ~1e-16, far above the area.
        let tiny = square(1e-9, P2::new(1.0, -1.0));
        assert!((tiny.area() - 4e-18).abs() < 4e-23);
    }
}
