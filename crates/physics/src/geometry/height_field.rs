//! The surface query of a GridSurface: a height field z = h(x, y), the solid below it.
//!
//! In the cell of nodes (i, j) .. (i + 1, j + 1) with local coordinates
//! `u = (x - x0) / dx - i`, `v = (y - y0) / dy - j` in [0, 1], the height is bilinear:
//! `h = h00 (1 - u)(1 - v) + h10 u (1 - v) + h01 (1 - u) v + h11 u v`, with the gradient
//! `h_x = ((h10 - h00)(1 - v) + (h11 - h01) v) / dx`, `h_y = ((h01 - h00)(1 - u) + (h11 - h10) u) / dy`.
//! The outward normal is `n = (-h_x, -h_y, 1) / |(-h_x, -h_y, 1)|` and the signed distance is
//! `(z - h) n_z`: the distance from the query point to the tangent plane at (x, y, h), exact for a
//! planar grid (where the tangent plane is the surface) and a first-order estimate elsewhere. The
//! surface point is `p - n distance`, the foot on that tangent plane.
//!
//! Outside the grid the border cells extend: (x, y) picks the nearest cell and its bilinear
//! polynomial continues (u or v outside [0, 1]), so beyond an edge the height goes on linearly with
//! the edge's slope. Height and normal are therefore continuous everywhere, a planar grid is a whole
//! plane, and nothing happens abruptly when a body crosses the border. Across interior cell edges the
//! height is continuous but its gradient (so the normal) may turn by a finite angle, as with any
//! bilinear surface.

use crate::math::Vec3;
use crate::shape::HeightField;

/// Index of the cell along one axis holding coordinate `s` (in node spacings from the first node),
/// the border cell beyond either end, and the local coordinate in that cell.
fn cell(s: f64, nodes: usize) -> (usize, f64) {
    // NaN and negative values give cell 0 (a float-to-int cast saturates and maps NaN to 0).
    let index = (s.floor().max(0.0) as usize).min(nodes - 2);
    (index, s - index as f64)
}

/// Surface point, outward unit normal and signed distance of `p` (all in the field's frame).
pub(super) fn to_surface(field: &HeightField, p: &Vec3) -> (Vec3, Vec3, f64) {
    let (i, u) = cell((p.x - field.x0) / field.dx, field.nx);
    let (j, v) = cell((p.y - field.y0) / field.dy, field.ny);
    let at = |di: usize, dj: usize| field.heights[(j + dj) * field.nx + i + di];
    let (h00, h10, h01, h11) = (at(0, 0), at(1, 0), at(0, 1), at(1, 1));
    let height = h00 * (1.0 - u) * (1.0 - v) + h10 * u * (1.0 - v) + h01 * (1.0 - u) * v + h11 * u * v;
    let h_x = ((h10 - h00) * (1.0 - v) + (h11 - h01) * v) / field.dx;
    let h_y = ((h01 - h00) * (1.0 - u) + (h11 - h10) * u) / field.dy;
    let normal = Vec3::new(-h_x, -h_y, 1.0).normalize();
    let distance = (p.z - height) * normal.z;
    (p - normal * distance, normal, distance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_points_pick_their_cell_and_border_cells_extend() {
        assert_eq!(cell(0.0, 3), (0, 0.0));
        assert_eq!(cell(1.25, 3), (1, 0.25));
        assert_eq!(cell(2.0, 3), (1, 1.0));
        assert_eq!(cell(3.5, 3), (1, 2.5));
        assert_eq!(cell(-0.5, 3), (0, -0.5));
        assert_eq!(cell(f64::NAN, 3).0, 0);
    }

    #[test]
    fn node_heights_are_reproduced_exactly() {
        let field = HeightField { x0: 1.0, y0: -1.0, dx: 0.5, dy: 0.25, nx: 3, ny: 2, heights: vec![0.0, 0.1, 0.3, 0.2, 0.4, 0.9] };
        for j in 0..2 {
            for i in 0..3 {
                let (x, y) = (1.0 + 0.5 * i as f64, -1.0 + 0.25 * j as f64);
                let h = field.heights[j * 3 + i];
                let (point, normal, distance) = to_surface(&field, &Vec3::new(x, y, h));
                assert_eq!(distance, 0.0);
                assert_eq!(point, Vec3::new(x, y, h));
                assert!((normal.norm() - 1.0).abs() < 1e-15 && normal.z > 0.0);
            }
        }
    }
}
