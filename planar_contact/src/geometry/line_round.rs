//! Line against Point or Circle: the planar form of the plane against a sphere.

use crate::{Pose2, Vec2};

/// The contact of the line of frame `line` (its x axis, normal +y) and a round shape of radius
/// `r` at `c`: separation `n · (c - o) - r`, the witnesses the foot of `c` on the line and the
/// round shape's lowest point.
pub fn contact(line: &Pose2, c: &Vec2, r: f64) -> super::PlanarPoint {
    let n = line.rotate(&Vec2::y());
    let height = n.dot(&(c - line.r));
    super::PlanarPoint { p_a: c - n * height, p_b: c - n * r, normal: n, separation: height - r, id: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disc_on_a_tilted_line() {
        let line = Pose2 { r: Vec2::new(1.0, 0.0), phi: 0.5 };
        let n = Vec2::new(-(0.5f64).sin(), 0.5f64.cos());
        let c = Vec2::new(1.0, 0.0) + n * 0.08 + Vec2::new(0.5f64.cos(), 0.5f64.sin()) * 0.3;
        let p = contact(&line, &c, 0.1);
        assert!((p.separation + 0.02).abs() < 1e-15);
        assert!((p.normal - n).norm() < 1e-15);
        assert!((n.dot(&(p.p_a - line.r))).abs() < 1e-15);
    }
}
