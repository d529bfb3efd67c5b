//! Line against a Segment, Polyline or Curve: each vertex is a candidate point, as each corner
//! of ContactForce's box on a plane is.

use crate::{Pose2, Vec2};

/// One candidate per vertex (in W, ids in order): its height above the line of frame `line`.
pub fn contacts(line: &Pose2, vertices: impl Iterator<Item = Vec2>, out: &mut Vec<super::PlanarPoint>) {
    let n = line.rotate(&Vec2::y());
    for (id, v) in vertices.enumerate() {
        let height = n.dot(&(v - line.r));
        out.push(super::PlanarPoint { p_a: v - n * height, p_b: v, normal: n, separation: height, id: id as u32 });
    }
}
