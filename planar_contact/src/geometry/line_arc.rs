//! Line against an Arc: the arc's point deepest toward the line when it lies on the arc, else
//! its two ends.

use super::{on_arc, PlanarPoint};
use crate::{Pose2, Vec2};

/// Candidates of the line of frame `line` (A) and the arc of `radius` from `start` to `end` in
/// frame `arc` (B): id 0 the circle's point nearest the line if it lies on the arc (a disc on a
/// line), else ids 1 and 2 the arc's ends.
pub fn contacts(line: &Pose2, arc: &Pose2, radius: f64, start: f64, end: f64, out: &mut Vec<PlanarPoint>) {
    let n = line.rotate(&Vec2::y());
    let toward = arc.unrotate(&-n);
    let candidate = |v: Vec2, id: u32| {
        let height = n.dot(&(v - line.r));
        PlanarPoint { p_a: v - n * height, p_b: v, normal: n, separation: height, id }
    };
    if on_arc(toward.y.atan2(toward.x), start, end) {
        out.push(candidate(arc.r - n * radius, 0));
    } else {
        for (id, angle) in [(1, start), (2, end)] {
            out.push(candidate(arc.apply(&(Vec2::new(angle.cos(), angle.sin()) * radius)), id));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rocker_touches_with_its_lowest_point_or_its_ends() {
        let line = Pose2::IDENTITY;
        let mut out = Vec::new();
        // The lower half of a circle of radius 1 about (0, 0.9): its lowest point 0.1 deep.
        let arc = Pose2 { r: Vec2::new(0.0, 0.9), phi: 0.0 };
        contacts(&line, &arc, 1.0, std::f64::consts::PI, std::f64::consts::TAU, &mut out);
        assert_eq!(out.len(), 1);
        assert!((out[0].separation + 0.1).abs() < 1e-15);
        // Turned by 2 rad: the lowest point is off the arc; the ends are the candidates.
        out.clear();
        contacts(&line, &Pose2 { phi: 2.0, ..arc }, 1.0, std::f64::consts::PI, std::f64::consts::TAU, &mut out);
        assert_eq!(out.iter().map(|p| p.id).collect::<Vec<_>>(), vec![1, 2]);
        let lowest_end = 0.9 + (std::f64::consts::PI + 2.0).sin();
        assert!((out[0].separation - lowest_end).abs() < 1e-12);
    }
}
