//! Planar geometry pairs: where two planar shapes touch, as pure functions, one file per pair
//! family. Each family has a canonical order (Line, then Arc, then chains, then round shapes
//! first); the other order reuses it through [`PlanarPoint::flipped`].
//!
//! A pair gives its candidate points, touching or not, each with a stable `id` below the pair's
//! `max_points` (which keys the stateful laws' per-point states and the per-point outputs):
//! the deepest candidate (the smallest separation) is the pair's separation, and the candidates
//! that penetrate carry force.
//!
//! | family | file | points |
//! | --- | --- | --- |
//! | Point/Circle - Point/Circle | `round_round.rs` | 1 (not Point - Point) |
//! | Line - Point/Circle | `line_round.rs` | 1 |
//! | Line - Segment/Polyline/Curve | `line_vertices.rs` | one per vertex |
//! | Line - Arc | `line_arc.rs` | the arc's deepest point, or its two ends |
//! | Arc - Point/Circle | `arc_round.rs` | 1 |
//! | Segment/Polyline/Curve - Point/Circle | `chain_round.rs` | 1 (a Point needs a closed chain) |
//! | Segment/Polyline/Curve - the same | `chain_chain.rs` | each vertex inside a closed chain |
#![forbid(unsafe_code)]

mod arc_round;
mod chain_chain;
mod chain_round;
mod line_arc;
mod line_round;
mod line_vertices;
mod round_round;

use std::sync::Arc;

use crate::curve::Chain;
use crate::shape::{PlanarShape, PlanarShapeKind};
use crate::{Pose2, Vec2};

/// One pair of witness points in W, with the signs of ContactForce's `ContactPoint`: `normal`
/// points from A toward B and `separation = (p_b - p_a) · normal`, positive apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanarPoint {
    pub p_a: Vec2,
    pub p_b: Vec2,
    pub normal: Vec2,
    pub separation: f64,
    pub id: u32,
}

impl PlanarPoint {
    /// A point from its witnesses and unit normal; the separation is `(p_b - p_a) · normal`.
    pub fn new(p_a: Vec2, p_b: Vec2, normal: Vec2, id: u32) -> PlanarPoint {
        PlanarPoint { p_a, p_b, normal, separation: (p_b - p_a).dot(&normal), id }
    }

    /// The same contact seen with A and B exchanged.
    pub fn flipped(&self) -> PlanarPoint {
        PlanarPoint { p_a: self.p_b, p_b: self.p_a, normal: -self.normal, separation: self.separation, id: self.id }
    }

    /// Where the force acts: midway between the witnesses (ContactForce's rule).
    pub fn point(&self) -> Vec2 {
        (self.p_a + self.p_b) * 0.5
    }
}

/// A shape as the pair functions see it.
#[derive(Clone, Debug, PartialEq)]
enum Side {
    /// A Point (radius 0) or a Circle.
    Round { radius: f64 },
    Line,
    Arc { radius: f64, start: f64, end: f64 },
    /// A Segment (an open chain of its two ends), a Polyline or a Curve.
    Chain(Arc<Chain>),
}

impl Side {
    fn of(shape: &PlanarShape) -> Side {
        match shape {
            PlanarShape::Point => Side::Round { radius: 0.0 },
            PlanarShape::Circle { radius } => Side::Round { radius: *radius },
            PlanarShape::Arc { radius, start, end } => Side::Arc { radius: *radius, start: *start, end: *end },
            PlanarShape::Segment { half_length } => {
                let ends = vec![Vec2::new(-half_length, 0.0), Vec2::new(*half_length, 0.0)];
                Side::Chain(Arc::new(Chain::new(ends, false).expect("a segment of positive length")))
            }
            PlanarShape::Line => Side::Line,
            PlanarShape::Chain { chain, .. } => Side::Chain(chain.clone()),
        }
    }

    /// The canonical order: the lower rank is the pair function's first argument.
    fn rank(&self) -> u8 {
        match self {
            Side::Line => 0,
            Side::Arc { .. } => 1,
            Side::Chain(_) => 2,
            Side::Round { .. } => 3,
        }
    }
}

/// Two shapes for which the planar block has no contact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedPlanarPair {
    pub a: PlanarShapeKind,
    pub b: PlanarShapeKind,
    pub reason: &'static str,
}

impl std::fmt::Display for UnsupportedPlanarPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the pair {} (A) - {} (B) is not offered: {}", self.a.name(), self.b.name(), self.reason)
    }
}

/// A pair of planar shapes, checked, with its family.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanarPair {
    shape_a: PlanarShape,
    shape_b: PlanarShape,
    /// The canonical first and second sides.
    first: Side,
    second: Side,
    /// A is the canonical second side.
    swapped: bool,
}

impl PlanarPair {
    pub fn new(shape_a: PlanarShape, shape_b: PlanarShape) -> Result<PlanarPair, UnsupportedPlanarPair> {
        let (side_a, side_b) = (Side::of(&shape_a), Side::of(&shape_b));
        let swapped = side_b.rank() < side_a.rank();
        let (first, second) = if swapped { (side_b, side_a) } else { (side_a, side_b) };
        let refuse = |reason| Err(UnsupportedPlanarPair { a: shape_a.kind(), b: shape_b.kind(), reason });
        match (&first, &second) {
            (Side::Line, Side::Line) => return refuse("two lines have no contact point (they are parallel or cross everywhere)"),
            (Side::Arc { .. }, Side::Arc { .. } | Side::Chain(_)) => {
                return refuse("an Arc is offered against a Point, a Circle or a Line");
            }
            (Side::Chain(a), Side::Chain(b)) if !a.closed && !b.closed => {
                return refuse("two open chains (Segments, open Polylines or Curves) have no solid side to penetrate; close one (geometry_X.closed)");
            }
            (Side::Chain(a), Side::Round { radius }) if !a.closed && *radius == 0.0 => {
                return refuse("a Point against a Segment or an open Polyline or Curve has no solid side to penetrate; use a Circle or a closed chain");
            }
            (Side::Round { radius: a }, Side::Round { radius: b }) if *a == 0.0 && *b == 0.0 => {
                return refuse("two points never touch");
            }
            _ => {}
        }
        Ok(PlanarPair { shape_a, shape_b, first, second, swapped })
    }

    pub fn shape_a(&self) -> &PlanarShape {
        &self.shape_a
    }

    pub fn shape_b(&self) -> &PlanarShape {
        &self.shape_b
    }

    /// How many candidate points the pair gives (their ids are below it).
    pub fn max_points(&self) -> usize {
        match (&self.first, &self.second) {
            (Side::Line, Side::Chain(c)) => c.points.len(),
            (Side::Line, Side::Arc { .. }) => 3,
            (Side::Chain(a), Side::Chain(b)) => a.points.len() + b.points.len(),
            _ => 1,
        }
    }

    /// The radius of curvature the rolling resistance uses: a Circle's radius on a flat or
    /// polygonal side, `r1 r2 / (r1 + r2)` for two circles (or a Circle on an Arc); 0 where
    /// nothing rolls.
    pub fn rolling_radius(&self) -> f64 {
        match (&self.first, &self.second) {
            (Side::Round { radius: a }, Side::Round { radius: b }) if *a > 0.0 && *b > 0.0 => a * b / (a + b),
            (Side::Arc { radius: a, .. }, Side::Round { radius: b }) if *b > 0.0 => a * b / (a + b),
            (Side::Line | Side::Chain(_), Side::Round { radius }) => *radius,
            _ => 0.0,
        }
    }

    /// Appends the candidate points for the geometry frames `pose_a` and `pose_b` (in W).
    pub fn contacts(&self, pose_a: &Pose2, pose_b: &Pose2, out: &mut Vec<PlanarPoint>) {
        let (p1, p2) = if self.swapped { (pose_b, pose_a) } else { (pose_a, pose_b) };
        let start = out.len();
        match (&self.first, &self.second) {
            (Side::Round { radius: r1 }, Side::Round { radius: r2 }) => out.push(round_round::contact(&p1.r, *r1, &p2.r, *r2, p1)),
            (Side::Line, Side::Round { radius }) => out.push(line_round::contact(p1, &p2.r, *radius)),
            (Side::Line, Side::Chain(chain)) => line_vertices::contacts(p1, chain.points.iter().map(|v| p2.apply(v)), out),
            (Side::Line, Side::Arc { radius, start, end }) => line_arc::contacts(p1, p2, *radius, *start, *end, out),
            (Side::Arc { radius, start, end }, Side::Round { radius: r }) => out.push(arc_round::contact(p1, *radius, *start, *end, &p2.r, *r)),
            (Side::Chain(chain), Side::Round { radius }) => out.push(chain_round::contact(chain, p1, &p2.r, *radius)),
            (Side::Chain(a), Side::Chain(b)) => chain_chain::contacts(a, p1, b, p2, out),
            _ => unreachable!("PlanarPair::new refuses the other pairs"),
        }
        if self.swapped {
            for point in &mut out[start..] {
                *point = point.flipped();
            }
        }
    }
}

/// Whether the angle `theta` lies on the arc from `start` to `end` (counter-clockwise).
pub(crate) fn on_arc(theta: f64, start: f64, end: f64) -> bool {
    (theta - start).rem_euclid(std::f64::consts::TAU) <= end - start
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circle(radius: f64) -> PlanarShape {
        PlanarShape::Circle { radius }
    }

    fn square(side: f64) -> PlanarShape {
        let h = side / 2.0;
        let points = vec![Vec2::new(-h, -h), Vec2::new(h, -h), Vec2::new(h, h), Vec2::new(-h, h)];
        PlanarShape::Chain { kind: PlanarShapeKind::Polyline, chain: Arc::new(Chain::new(points, true).unwrap()) }
    }

    fn all(pair: &PlanarPair, a: Pose2, b: Pose2) -> Vec<PlanarPoint> {
        let mut out = Vec::new();
        pair.contacts(&a, &b, &mut out);
        out
    }

    fn at(x: f64, y: f64, phi: f64) -> Pose2 {
        Pose2 { r: Vec2::new(x, y), phi }
    }

    #[test]
    fn swapping_a_and_b_mirrors_every_pair() {
        let shapes = [
            PlanarShape::Point,
            circle(0.1),
            PlanarShape::Arc { radius: 0.2, start: -2.0, end: 0.5 },
            PlanarShape::Segment { half_length: 0.15 },
            PlanarShape::Line,
            square(0.2),
        ];
        let (pa, pb) = (at(0.01, -0.02, 0.3), at(0.05, 0.12, -0.7));
        let mut offered = 0;
        for a in &shapes {
            for b in &shapes {
                let (Ok(ab), Ok(ba)) = (PlanarPair::new(a.clone(), b.clone()), PlanarPair::new(b.clone(), a.clone())) else {
                    assert!(PlanarPair::new(b.clone(), a.clone()).is_err(), "{:?} {:?} refused one way only", a.kind(), b.kind());
                    continue;
                };
                offered += 1;
                let (x, y) = (all(&ab, pa, pb), all(&ba, pb, pa));
                assert_eq!(x.len(), y.len());
                for p in &x {
                    // Two chains list each one's vertices first: the same points, other ids.
                    let mirrored = y.iter().any(|q| PlanarPoint { id: p.id, ..q.flipped() } == *p);
                    assert!(mirrored, "{:?} - {:?}: {p:?} has no mirror in {y:?}", a.kind(), b.kind());
                    assert!((p.separation - (p.p_b - p.p_a).dot(&p.normal)).abs() < 1e-15);
                    assert!((p.normal.norm() - 1.0).abs() < 1e-15);
                }
            }
        }
        assert_eq!(offered, 26);
    }

    #[test]
    fn refused_pairs_say_why() {
        let e = PlanarPair::new(PlanarShape::Line, PlanarShape::Line).unwrap_err();
        assert!(e.to_string().contains("Line (A) - Line (B)"));
        assert!(PlanarPair::new(PlanarShape::Point, PlanarShape::Segment { half_length: 1.0 }).is_err());
        assert!(PlanarPair::new(PlanarShape::Point, square(1.0)).is_ok());
    }
}
