//! Point or Circle against Point or Circle: the centres' distance less the radii.

use crate::{Pose2, Vec2};

/// The contact of a round shape of radius `r1` at `c1` (A) and one of radius `r2` at `c2` (B).
/// Coincident centres take the normal along A's local x axis (`frame_a`).
pub fn contact(c1: &Vec2, r1: f64, c2: &Vec2, r2: f64, frame_a: &Pose2) -> super::PlanarPoint {
    let v = c2 - c1;
    let d = v.norm();
    let n = if d > 0.0 { v / d } else { frame_a.rotate(&Vec2::x()) };
    super::PlanarPoint { p_a: c1 + n * r1, p_b: c2 - n * r2, normal: n, separation: d - r1 - r2, id: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_discs_overlap_by_the_sum_of_radii_less_the_distance() {
        let p = contact(&Vec2::new(0.0, 0.0), 0.3, &Vec2::new(0.3, 0.4), 0.25, &Pose2::IDENTITY);
        assert!((p.separation + 0.05).abs() < 1e-15);
        assert!((p.normal - Vec2::new(0.6, 0.8)).norm() < 1e-15);
        assert!((p.p_a - Vec2::new(0.18, 0.24)).norm() < 1e-15);
        assert!((p.p_b - Vec2::new(0.15, 0.2)).norm() < 1e-15);
    }
}
