//! A lower bound on how far a convex hull reaches beyond its centre, per vertex and per ring of
//! directions about its Gauss cell.
//!
//! Along a direction `m` whose support vertex is `v`, a hull reaches at least the least height
//! (face plane distance from the centre) of the faces around `v` (see `hull_depth`). For a vertex
//! `s` this table keeps, for each angle `k STEP`, the least such height over the vertices whose
//! Gauss cells may hold a direction within that angle of the centre of `s`'s cap (the cap about
//! its Gauss cell, see [`super::height_cells::vertex_caps`]). For the support vertex `s` of an
//! axis `u`, `j STEP` from that centre, every direction within `k STEP` of `u` is within
//! `(k + j) STEP` of the centre, so its support vertex is at least as high as the entry `k + j`:
//! the bound on the overlap in `hull_depth` grows ring by ring away from the axis, where
//! [`super::height_cells::HeightCells`] takes one least over a whole cone (and over cube-map
//! cells wider than the rings).
//!
//! Conservative throughout: a vertex's Gauss cell is replaced by its bounding cap, the angles
//! are rounded toward inclusion and the heights stored rounded down.

use crate::math::Vec3;

#[cfg(test)]
use super::height_cells::vertex_caps;

/// The rings' angular step (radians) and their number: row entry `k - 1` is for the angle
/// `k STEP`, up to `RINGS STEP` (0.5 rad).
pub(crate) const STEP: f64 = 0.00625;
pub(crate) const RINGS: usize = 80;
/// Hulls with more vertices skip the table (its construction compares every pair of vertices).
const MAX_VERTICES: usize = 2048;

/// Per vertex, the least vertex height within each ring about its cap's centre.
#[derive(Clone, Debug)]
pub(crate) struct HeightDisks {
    /// `RINGS` entries per vertex, non-increasing along a row.
    least: Vec<f32>,
    /// `cos(k STEP)` for `k` in `0..=RINGS`, rounded up (`cosines[0] = 1`).
    cosines: [f64; RINGS + 1],
    /// The centre of each vertex's cap.
    centres: Vec<Vec3>,
}

impl Default for HeightDisks {
    fn default() -> HeightDisks {
        HeightDisks { least: Vec::new(), cosines: [1.0; RINGS + 1], centres: Vec::new() }
    }
}

impl HeightDisks {
    /// The table of a hull whose vertex `v` has the least face height `vertex_heights[v]` and the
    /// cap `caps[v]` (from [`super::height_cells::vertex_caps`]); empty for hulls of more than
    /// [`MAX_VERTICES`].
    pub(crate) fn new(vertex_heights: &[f64], caps: &[(Vec3, f64, f64)]) -> HeightDisks {
        let n = vertex_heights.len();
        if n > MAX_VERTICES || n == 0 || caps.len() != n {
            return HeightDisks::default();
        }
        let radius = |cos: f64| if cos < 0.0 { std::f64::consts::PI } else { cos.clamp(-1.0, 1.0).acos() };
        let radii: Vec<f64> = caps.iter().map(|c| radius(c.1)).collect();
        let widest = radii.iter().copied().fold(0.0, f64::max);
        // Pairs farther apart than every ring plus the widest cap are in no ring.
        let reach = RINGS as f64 * STEP + widest;
        let far = if reach >= std::f64::consts::PI { -2.0 } else { reach.cos() };
        let mut least = vec![f32::INFINITY; n * RINGS];
        for (s, row) in least.chunks_exact_mut(RINGS).enumerate() {
            for v in 0..n {
                let cos = caps[s].0.dot(&caps[v].0);
                if cos < far {
                    continue;
                }
                // v's cell may hold a direction within `angle` of s's cap centre: the angle
                // between their caps' centres less v's radius (rounded toward including it).
                let angle = cos.clamp(-1.0, 1.0).acos() - radii[v] - 1e-9;
                let ring = if angle <= STEP { 0 } else { (angle / STEP).ceil() as usize - 1 };
                if ring < RINGS {
                    row[ring] = row[ring].min(down(vertex_heights[v]));
                }
            }
            for k in 1..RINGS {
                row[k] = row[k].min(row[k - 1]);
            }
        }
        let cosines = std::array::from_fn(|k| ((k as f64 * STEP).cos() + 1e-15).min(1.0));
        HeightDisks { least, cosines, centres: caps.iter().map(|c| c.0).collect() }
    }

    /// Vertex `s`'s row: entry `k - 1` bounds the heights of the support vertices of the
    /// directions within `k STEP` of its cap's centre. `None` for an empty table.
    #[inline(always)]
    fn row(&self, s: usize) -> Option<&[f32; RINGS]> {
        self.least.get(s * RINGS..(s + 1) * RINGS)?.try_into().ok()
    }

    /// The rings between vertex `s`'s cap centre and `axis` (unit, in `s`'s cell): the least `j`
    /// with the angle between them at most `j STEP` (rounded up).
    #[inline(always)]
    fn shift(&self, s: usize, axis: &Vec3) -> usize {
        let cos = self.centres[s].dot(axis) - 1e-12;
        let mut j = 0;
        while j < RINGS && cos < self.cosines[j] {
            j += 1;
        }
        j
    }

    /// The narrower cone of the penetration search (`hull_depth`), ring by ring about its axis.
    /// A direction `m` at an angle in `(k STEP, (k + 1) STEP]` from the axis has its support
    /// vertex within `(k + 1 + j) STEP` of the cap centre of the axis's support vertex `s`, with
    /// `j` STEPs between that centre and the axis, so it reaches at least the row's entry
    /// `k + j`; with the other hull's the same way (its support vertex `other_s` of the opposite
    /// axis `other_axis`), `p(m) >= least_A + least_B - distance cos(k STEP)`. The least overlap
    /// is at most `limit`, so its direction is within the outer angle of the last ring where that
    /// bound is at most `limit`: its cosine, or `None` when the cone `cos_t` reaches beyond the
    /// rows (or a table is empty).
    #[inline(always)]
    pub(crate) fn narrowed(
        &self,
        (s, axis): (usize, &Vec3),
        other: &HeightDisks,
        (other_s, other_axis): (usize, &Vec3),
        cos_t: f64,
        distance: f64,
        limit: f64,
    ) -> Option<f64> {
        let (row, other_row) = (self.row(s)?, other.row(other_s)?);
        let (j, other_j) = (self.shift(s, axis), other.shift(other_s, other_axis));
        // The rings that start within the cone, `0..end` (from `sqrt(2 - 2 cos t)`, a little
        // below `t`, moved to the first ring beyond); every one of them when the cone also ends
        // within the last (beyond it, no bound).
        let mut end = (((2.0 - 2.0 * cos_t).max(0.0).sqrt() / STEP) as usize + 1).min(RINGS);
        while end > 0 && self.cosines[end - 1] < cos_t {
            end -= 1;
        }
        while end < RINGS && self.cosines[end] >= cos_t {
            end += 1;
        }
        if end == RINGS && cos_t < self.cosines[RINGS] {
            return None;
        }
        // Ring k's leasts are the entries k + j of the rows.
        let (Some(leasts), Some(other_leasts)) = (row.get(j..j + end), other_row.get(other_j..other_j + end)) else {
            return None;
        };
        // The last ring whose bound is at most the limit, from the outside in (a loop: an
        // iterator's `rposition` is not inlined into the copies of hull_dispatch.rs).
        let mut k = end;
        while k > 0 {
            k -= 1;
            if f64::from(leasts[k]) + f64::from(other_leasts[k]) - distance * self.cosines[k] <= limit {
                return Some(self.cosines[k + 1]);
            }
        }
        None
    }
}

/// `x` as `f32`, rounded down.
fn down(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) > x {
        y.next_down()
    } else {
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hull_depth::tests::hull;
    use crate::shape::{scan, ConvexHull};
    use crate::test_rng::XorShift64Star as Rng;

    /// The mean of a hull's vertices (a point inside) and the table of the vertex heights above it.
    fn table(h: &ConvexHull) -> (Vec3, Vec<f64>, HeightDisks) {
        let centre = h.vertices.iter().sum::<Vec3>() / h.vertices.len() as f64;
        let face_height = |f: usize| h.faces[f].normal.dot(&(h.vertices[h.faces[f].vertices[0] as usize] - centre));
        let heights: Vec<f64> =
            (0..h.vertices.len()).map(|v| h.graph.faces_of(v).iter().map(|&f| face_height(f as usize)).fold(f64::INFINITY, f64::min)).collect();
        let normals: Vec<Vec3> = h.faces.iter().map(|f| f.normal).collect();
        let caps = vertex_caps(&normals, h.vertices.len(), |v| h.graph.faces_of(v)).unwrap();
        let disks = HeightDisks::new(&heights, &caps);
        (centre, heights, disks)
    }

    /// For random axes and random directions within a ring's angle of them, the support vertex
    /// of the direction is at least as high as the entry of that ring, shifted by the rings
    /// between the axis and its support vertex's cap centre, in that vertex's row.
    #[test]
    fn every_support_vertex_within_a_ring_is_at_least_as_high_as_its_entry() {
        let mut rng = Rng(23);
        for round in 0..6 {
            let axes = if round % 2 == 0 { Vec3::new(0.1, 0.1, 0.1) } else { Vec3::new(0.1, 0.06, 0.03) };
            let h = hull(&mut rng, 300, axes);
            let (_, heights, disks) = table(&h);
            let least = heights.iter().copied().fold(f64::INFINITY, f64::min);
            let (mut checked, mut above) = (0, 0);
            for _ in 0..400 {
                let u = rng.unit();
                let s = scan(&h.vertices, &u);
                let (row, j) = (disks.row(s).unwrap(), disks.shift(s, &u));
                assert!(row.windows(2).all(|w| w[1] <= w[0]));
                let k = 1 + (rng.next() * RINGS as f64) as usize % RINGS;
                let Some(&entry) = row.get(k - 1 + j) else { continue };
                // A direction at an angle of at most k STEP from u.
                let side = u.cross(&rng.unit()).normalize();
                let angle = k as f64 * STEP * rng.next();
                let m = u * angle.cos() + side * angle.sin();
                let height = heights[scan(&h.vertices, &m)];
                assert!(f64::from(entry) <= height, "round {round}: ring {k} + {j}: {entry} above {height}");
                checked += 1;
                above += usize::from(f64::from(entry) > least + 2e-3);
            }
            // Not a trivial bound: most entries are 2 mm above the least height of all.
            assert!(checked > 250 && above * 2 > checked, "round {round}: {above} of {checked}");
        }
    }

    /// The narrowed cone of two round hulls pressed together holds the direction of least
    /// overlap (the least over many directions), and is narrower than the cone it was given.
    #[test]
    fn the_narrowed_cone_holds_the_least_overlap() {
        let mut rng = Rng(41);
        let mut narrowed = 0;
        for _ in 0..8 {
            let a = hull(&mut rng, 400, Vec3::new(0.1, 0.1, 0.1));
            let b = hull(&mut rng, 400, Vec3::new(0.1, 0.1, 0.1));
            let support = |h: &ConvexHull, m: &Vec3| h.vertices.iter().map(|v| v.dot(m)).fold(f64::NEG_INFINITY, f64::max);
            // p(m) with A at the origin and B at `offset`, both unturned.
            let offset = Vec3::new(0.0, 0.0, 0.199);
            let p = |m: &Vec3| support(&a, m) + support(&b, &-m) - offset.dot(m);
            let ((centre_a, _, disks_a), (centre_b, _, disks_b)) = (table(&a), table(&b));
            // The bound is on heights above each hull's centre: the distance is between them.
            let line = offset + centre_b - centre_a;
            let (distance, axis) = (line.norm(), line.normalize());
            let (sa, sb) = (scan(&a.vertices, &axis), scan(&b.vertices, &-axis));
            let Some(cos) = disks_a.narrowed((sa, &axis), &disks_b, (sb, &-axis), 0.96, distance, p(&axis)) else { continue };
            narrowed += usize::from(cos > 0.96);
            // The least of p over a fine spiral of directions within the given cone is inside.
            let side = axis.cross(&Vec3::x()).normalize();
            let other = axis.cross(&side);
            let mut best = (f64::INFINITY, axis);
            for i in 0..20_000 {
                let (r, phi) = ((i as f64 / 20_000.0).sqrt() * 0.96_f64.acos(), i as f64 * 2.399_963);
                let m = axis * r.cos() + (side * phi.cos() + other * phi.sin()) * r.sin();
                let value = p(&m);
                if value < best.0 {
                    best = (value, m);
                }
            }
            assert!(best.1.dot(&axis) >= cos - 1e-9, "{} outside {cos}", best.1.dot(&axis));
        }
        assert!(narrowed >= 5, "{narrowed} of 8 narrowed");
    }

    #[test]
    fn heights_are_stored_rounded_down() {
        for x in [0.1, 1.0 / 3.0, -0.7, 1e-9, 123.456] {
            assert!(f64::from(down(x)) <= x && f64::from(down(x)) > x - x.abs() * 1e-6 - 1e-30, "{x}");
        }
    }
}
