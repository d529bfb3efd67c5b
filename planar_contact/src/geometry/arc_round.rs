//! Arc against Point or Circle: the arc's circle where the round shape's centre lies within the
//! arc's span, else the nearer end of the arc (a point).

use super::{on_arc, round_round, PlanarPoint};
use crate::{Pose2, Vec2};

/// The contact of the arc of `radius` from `start` to `end` in frame `arc` (A) and a round shape
/// of radius `r` at `c` (B).
pub fn contact(arc: &Pose2, radius: f64, start: f64, end: f64, c: &Vec2, r: f64) -> PlanarPoint {
    let local = arc.inverse_apply(c);
    let d = local.norm();
    if d > 0.0 && on_arc(local.y.atan2(local.x), start, end) {
        let n = (c - arc.r) / d;
        return PlanarPoint { p_a: arc.r + n * radius, p_b: c - n * r, normal: n, separation: d - radius - r, id: 0 };
    }
    let end_point = |angle: f64| arc.apply(&(Vec2::new(angle.cos(), angle.sin()) * radius));
    let (e1, e2) = (end_point(start), end_point(end));
    let nearer = if (c - e1).norm_squared() <= (c - e2).norm_squared() { e1 } else { e2 };
    round_round::contact(&nearer, 0.0, c, r, arc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disc_on_the_arc_and_past_its_end() {
        let arc = Pose2::IDENTITY;
        let p = contact(&arc, 1.0, 0.0, 1.0, &Vec2::new(1.05 * 0.5f64.cos(), 1.05 * 0.5f64.sin()), 0.1);
        assert!((p.separation + 0.05).abs() < 1e-15);
        let q = contact(&arc, 1.0, 0.0, 1.0, &Vec2::new(1.0, -0.3), 0.1);
        assert!((q.separation - 0.2).abs() < 1e-15);
        assert!((q.normal - Vec2::new(0.0, -1.0)).norm() < 1e-15);
    }
}
