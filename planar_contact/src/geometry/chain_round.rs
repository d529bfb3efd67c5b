//! A Segment, Polyline or Curve against a Point or Circle: the chain's closest point to the
//! centre, signed for a closed chain (negative inside).

use super::PlanarPoint;
use crate::curve::Chain;
use crate::{Pose2, Vec2};

/// The contact of `chain` in frame `frame` (A) and a round shape of radius `r` at `c` (B).
pub fn contact(chain: &Chain, frame: &Pose2, c: &Vec2, r: f64) -> PlanarPoint {
    let closest = chain.closest(&frame.inverse_apply(c));
    let n = frame.rotate(&closest.normal);
    PlanarPoint { p_a: frame.apply(&closest.point), p_b: c - n * r, normal: n, separation: closest.distance - r, id: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disc_against_a_wall_from_either_side_and_a_point_in_a_polygon() {
        let wall = Chain::new(vec![Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], false).unwrap();
        let frame = Pose2 { r: Vec2::new(0.0, 1.0), phi: std::f64::consts::FRAC_PI_2 };
        let p = contact(&wall, &frame, &Vec2::new(0.05, 1.2), 0.1);
        assert!((p.separation + 0.05).abs() < 1e-15 && (p.normal - Vec2::x()).norm() < 1e-15);
        let q = contact(&wall, &frame, &Vec2::new(-0.05, 1.2), 0.1);
        assert!((q.separation + 0.05).abs() < 1e-15 && (q.normal + Vec2::x()).norm() < 1e-15);
        let triangle = Chain::new(vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)], true).unwrap();
        let inside = contact(&triangle, &Pose2::IDENTITY, &Vec2::new(0.2, 0.1), 0.0);
        assert!((inside.separation + 0.1).abs() < 1e-15 && (inside.normal + Vec2::y()).norm() < 1e-15);
    }
}
