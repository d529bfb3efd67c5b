//! Two chains (Segments, Polylines, Curves), at least one closed: each vertex of one against the
//! closed other's boundary, as a vertex-edge contact (Adams' 2-D curve-curve in its point form).

use super::PlanarPoint;
use crate::curve::Chain;
use crate::Pose2;

/// Candidates of `a` in frame `frame_a` (A) and `b` in frame `frame_b` (B): A's vertices against
/// B when B is closed (ids 0 to `a.points.len() - 1`), then B's vertices against A when A is
/// closed (ids from `a.points.len()`). A chain's vertices miss the contact where a corner of the
/// closed one pokes through an edge of the other without a vertex inside.
pub fn contacts(a: &Chain, frame_a: &Pose2, b: &Chain, frame_b: &Pose2, out: &mut Vec<PlanarPoint>) {
    if b.closed {
        for (id, v) in a.points.iter().enumerate() {
            let vertex = frame_a.apply(v);
            let closest = b.closest(&frame_b.inverse_apply(&vertex));
            // The normal from A toward B is B's inward normal at its closest point.
            let n = -frame_b.rotate(&closest.normal);
            out.push(PlanarPoint { p_a: vertex, p_b: frame_b.apply(&closest.point), normal: n, separation: closest.distance, id: id as u32 });
        }
    }
    if a.closed {
        let first = a.points.len() as u32;
        for (k, v) in b.points.iter().enumerate() {
            let vertex = frame_b.apply(v);
            let closest = a.closest(&frame_a.inverse_apply(&vertex));
            let n = frame_a.rotate(&closest.normal);
            out.push(PlanarPoint { p_a: frame_a.apply(&closest.point), p_b: vertex, normal: n, separation: closest.distance, id: first + k as u32 });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Vec2;

    #[test]
    fn a_segment_end_inside_a_square() {
        let square = Chain::new(vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0)], true).unwrap();
        let stick = Chain::new(vec![Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0)], false).unwrap();
        let mut out = Vec::new();
        // The stick's right end 0.1 inside the square's top edge.
        contacts(&square, &Pose2::IDENTITY, &stick, &Pose2 { r: Vec2::new(0.5, 1.4), phi: -std::f64::consts::FRAC_PI_2 }, &mut out);
        assert_eq!(out.len(), 2);
        let deepest = out.iter().min_by(|p, q| p.separation.total_cmp(&q.separation)).unwrap();
        assert!((deepest.separation + 0.1).abs() < 1e-15);
        assert!((deepest.normal - Vec2::y()).norm() < 1e-15);
        assert_eq!(deepest.id, 5);
    }
}
