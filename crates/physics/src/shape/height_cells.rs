//! A lower bound on how far a convex hull reaches beyond its centre, per cell of directions.
//!
//! Along a direction `m` whose support vertex is `v`, a hull reaches at least the least height
//! (face plane distance from the centre) of the faces around `v` (see `hull_depth`). This file
//! keeps, for each cell of a cube map of directions, the least such height over the vertices whose
//! Gauss cells may meet that cell, so that the bound over a cone of directions is the least over
//! the few cells meeting the cone instead of the least over the whole hull: a hole in the point set
//! on the far side of a hull no longer widens the penetration search of `hull_depth`.
//!
//! Conservative throughout: a vertex's Gauss cell is replaced by its bounding cap, a cube cell by
//! its bounding cap, and a cell meets a cone when the caps' angles allow it, so every bound here is
//! at most the true one.

use crate::math::Vec3;

/// Cells along each edge of a cube-map face (6 G^2 cells).
const GRID: usize = 8;
const CELLS: usize = 6 * GRID * GRID;
/// Cells within this angle of each other are neighbours: a query is answered from the
/// neighbours of the cone axis's cell when the cone is narrow enough for them to cover it.
const NEAR: f64 = 0.75;
/// Hulls with more vertices skip the table (its construction is cells x vertices).
const MAX_VERTICES: usize = 20_000;

/// The cube-map cell of a direction (any length, not zero): the face of its largest component
/// and the cell of the other two, divided by it.
#[inline(always)]
fn cell_of(d: &Vec3) -> usize {
    let a = d.iamax();
    let face = 2 * a + usize::from(d[a] < 0.0);
    let (u, v) = (d[(a + 1) % 3] / d[a].abs(), d[(a + 2) % 3] / d[a].abs());
    let index = |x: f64| (((x + 1.0) * 0.5 * GRID as f64) as usize).min(GRID - 1);
    (face * GRID + index(u)) * GRID + index(v)
}

/// The centre direction of every cell and the cosine and sine of its bounding cap's radius.
fn cells() -> Vec<(Vec3, f64, f64)> {
    let at = |face: usize, x: f64, y: f64| {
        let (a, sign) = (face / 2, if face.is_multiple_of(2) { 1.0 } else { -1.0 });
        let mut d = Vec3::zeros();
        d[a] = sign;
        d[(a + 1) % 3] = x;
        d[(a + 2) % 3] = y;
        d.normalize()
    };
    let edge = |k: usize| -1.0 + 2.0 * k as f64 / GRID as f64;
    let mut out = Vec::with_capacity(CELLS);
    for face in 0..6 {
        for i in 0..GRID {
            for j in 0..GRID {
                let centre = at(face, (edge(i) + edge(i + 1)) / 2.0, (edge(j) + edge(j + 1)) / 2.0);
                // The cell is the gnomonic image of a square: its farthest points are corners.
                let cos = [(i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)]
                    .iter()
                    .map(|&(x, y)| centre.dot(&at(face, edge(x), edge(y))))
                    .fold(1.0, f64::min)
                    // Rounding: never smaller than the true cap.
                    - 1e-12;
                out.push((centre, cos, (1.0 - cos * cos).max(0.0).sqrt()));
            }
        }
    }
    out
}

/// `cos(a + b)` from the cosines and sines of two angles in [0, pi], as -1 past pi (where the
/// sine of the sum turns negative).
fn cos_sum(cos_a: f64, sin_a: f64, cos_b: f64, sin_b: f64) -> f64 {
    if sin_a * cos_b + cos_a * sin_b < 0.0 {
        return -1.0;
    }
    cos_a * cos_b - sin_a * sin_b
}

/// Each vertex's Gauss cell inside a cap: the normalised sum of its faces' normals, and the
/// cosine and sine of the largest angle to one of them (`(-1, 0)`, the whole sphere, for a cap
/// wider than a hemisphere); `None` if a vertex has no such direction.
pub(crate) fn vertex_caps<'a>(normals: &[Vec3], vertices: usize, faces_of: impl Fn(usize) -> &'a [u32]) -> Option<Vec<(Vec3, f64, f64)>> {
    (0..vertices)
        .map(|v| {
            let around = faces_of(v);
            let centre = around.iter().map(|&f| normals[f as usize]).sum::<Vec3>().try_normalize(0.0)?;
            let cos = around.iter().map(|&f| centre.dot(&normals[f as usize])).fold(1.0, f64::min) - 1e-12;
            Some(if cos > 0.0 { (centre, cos, (1.0 - cos * cos).max(0.0).sqrt()) } else { (centre, -1.0, 0.0) })
        })
        .collect()
}

/// The least vertex height per cube-map cell, with each cell's neighbours.
#[derive(Clone, Debug, Default)]
pub(crate) struct HeightCells {
    /// Centre direction, cosine and sine of the bounding cap's radius, per cell.
    cells: Vec<(Vec3, f64, f64)>,
    /// Per cell, the least height of the vertices whose Gauss cells may meet it.
    least: Vec<f64>,
    /// Cells within [`NEAR`] of each cell, nearest first, in compressed rows, with the cosine of
    /// their angle to it rounded up (8 bytes an entry: the rows hold about 20,000).
    neighbor_start: Vec<u32>,
    neighbors: Vec<(u16, f32)>,
    /// The largest cell radius, its cosine and its sine.
    widest: (f64, f64, f64),
    /// The cosine and sine of twice the widest cell radius, and the cosine of [`NEAR`] (a query
    /// without `acos` or `cos`).
    rows: (f64, f64, f64),
}

impl HeightCells {
    /// The table of a hull whose vertex `v` has the least face height `vertex_heights[v]` and the
    /// cap `caps[v]` (from [`vertex_caps`]); empty (every query answers `None`) for hulls of more
    /// than [`MAX_VERTICES`] vertices.
    pub(crate) fn new(vertex_heights: &[f64], caps: &[(Vec3, f64, f64)]) -> HeightCells {
        if vertex_heights.len() > MAX_VERTICES || vertex_heights.is_empty() || caps.len() != vertex_heights.len() {
            return HeightCells::default();
        }
        let cells = cells();
        let caps: Vec<(Vec3, f64, f64, f64)> = caps.iter().zip(vertex_heights).map(|(&(d, cos, sin), &h)| (d, cos, sin, h)).collect();
        let least = cells
            .iter()
            .map(|&(centre, cos_c, sin_c)| {
                caps.iter()
                    .filter(|&&(d, cos_v, sin_v, _)| centre.dot(&d) >= cos_sum(cos_c, sin_c, cos_v, sin_v))
                    .map(|c| c.3)
                    .fold(f64::INFINITY, f64::min)
            })
            .collect();
        let mut neighbor_start = vec![0u32];
        let mut neighbors = Vec::new();
        for (centre, _, _) in &cells {
            let mut row: Vec<(u16, f32)> = (0..CELLS)
                .map(|k| (k as u16, centre.dot(&cells[k].0)))
                .filter(|&(_, cos)| cos >= NEAR.cos())
                // Rounded up, so that a row is never cut short.
                .map(|(k, cos)| (k, (cos + 1e-6) as f32))
                .collect();
            row.sort_by(|x, y| y.1.total_cmp(&x.1));
            neighbors.extend(row);
            neighbor_start.push(neighbors.len() as u32);
        }
        let widest = cells.iter().map(|c| c.1.acos()).fold(0.0, f64::max);
        let rows = ((2.0 * widest).cos(), (2.0 * widest).sin(), NEAR.cos());
        let widest = (widest, widest.cos(), widest.sin());
        HeightCells { cells, least, neighbor_start, neighbors, widest, rows }
    }

    /// A lower bound on the least vertex height over the directions of the cone `axis . m >=
    /// cos_t` (`axis` unit, in the hull's frame); `None` when the table is empty or the cone is too
    /// wide for the neighbour lists.
    #[cfg(test)]
    pub(crate) fn least_in_cone(&self, axis: &Vec3, cos_t: f64) -> Option<f64> {
        self.least_in(axis, &self.cone(cos_t)?)
    }

    /// The cone of the cosine `cos_t` about any axis as [`HeightCells::least_in`] takes it, or
    /// `None` when it is too wide for the neighbour lists (or the table is empty). Every table
    /// has the same cells, so one cone serves the tables of both hulls.
    #[inline(always)]
    pub(crate) fn cone(&self, cos_t: f64) -> Option<Cone> {
        if self.least.is_empty() || !(-1.0..=1.0).contains(&cos_t) {
            return None;
        }
        let sin_t = (1.0 - cos_t * cos_t).sqrt();
        // A cell meeting the cone is within t + its radius of the axis, and the axis within the
        // radius of its own cell: the neighbour list covers it while t + 2 widest <= NEAR, that
        // is while cos(t + 2 widest) >= cos NEAR (both angles in [0, pi]), with a margin against
        // rounding.
        let (widest, cos_w, sin_w) = self.widest;
        let (cos_2w, sin_2w, cos_near) = self.rows;
        let row_end = cos_sum(cos_t, sin_t, cos_2w, sin_2w);
        if row_end.is_nan() || row_end < cos_near + 1e-12 {
            return None;
        }
        // Every cell is taken as wide as the widest (a superset of the cells meeting the cone);
        // the rows are sorted by their angle to the home cell, which is at most t + 2 widest
        // (read a little further, against rounding).
        Some(Cone { reach: cos_sum(cos_t, sin_t, cos_w, sin_w), row_end: row_end - 1e-12, widest })
    }

    /// [`HeightCells::least_in_cone`] for a cone from [`HeightCells::cone`] (of this table or
    /// another: `None` if the other's cells were wider).
    #[inline(always)]
    pub(crate) fn least_in(&self, axis: &Vec3, cone: &Cone) -> Option<f64> {
        if self.least.is_empty() || cone.widest < self.widest.0 {
            return None;
        }
        let home = cell_of(axis);
        let row = self.neighbor_start[home] as usize..self.neighbor_start[home + 1] as usize;
        let mut least = f64::INFINITY;
        for &(k, cos_home) in &self.neighbors[row] {
            if f64::from(cos_home) < cone.row_end {
                break;
            }
            if axis.dot(&self.cells[k as usize].0) >= cone.reach {
                // (`if` rather than `f64::min`: the heights are finite.)
                let height = self.least[k as usize];
                if height < least {
                    least = height;
                }
            }
        }
        least.is_finite().then_some(least)
    }
}

/// A cone's reach and the end of the neighbour rows it needs (see [`HeightCells::cone`]).
pub(crate) struct Cone {
    /// The least cosine to the axis of a cell (taken as wide as the widest) meeting the cone.
    reach: f64,
    /// Neighbour rows are read down to this cosine to the home cell.
    row_end: f64,
    /// The widest cell radius the cone was built for.
    widest: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_direction_lies_in_the_cap_of_its_cell() {
        let cells = cells();
        for i in 0..2000 {
            let t = i as f64 * 0.618_034;
            let d = Vec3::new((t * 7.1).sin(), (t * 3.3).cos(), (t * 1.7).sin() - 0.2).normalize();
            let (centre, cos, _) = cells[cell_of(&d)];
            assert!(d.dot(&centre) >= cos, "{d:?}");
        }
    }

    #[test]
    fn cos_sum_is_the_cosine_of_the_sum() {
        for (a, b) in [(0.1, 0.2), (1.0, 0.5), (2.0, 1.5), (0.0, 3.0)] {
            let expected = if a + b > std::f64::consts::PI { -1.0 } else { (a + b).cos() };
            assert!((cos_sum(a.cos(), a.sin(), b.cos(), b.sin()) - expected).abs() < 1e-12, "{a} {b}");
        }
    }
}
