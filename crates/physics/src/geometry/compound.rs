//! A compound geometry (`ShapeKind::Compound`: several shapes on one body, Adams' IGEOM/JGEOM
//! lists) against another geometry, single or compound.
//!
//! Every pair of parts is an ordinary [`GeometryPair`] of its own, evaluated by the existing pair
//! code at the parts' poses (the geometry frame composed with the part's pose from the file).
//! The part pairs are laid out in a fixed order, A's parts outer and B's inner (a single shape
//! counts as one part), and part pair k's point ids are its own ids shifted by the sum of the
//! `max_points` of the part pairs before it. So every point keeps a stable id within the
//! compound pair, below its `max_points` (the sum): the per-point states of the stateful laws,
//! the Model Exchange slots (ids 0 to 7) and the exact derivatives all key on it as they do for
//! a single pair.

use super::frame::Frame;
use super::kinematics::{NotDifferentiable, PairKinematics};
use super::{ContactPoint, GeometryPair, Surface, UnsupportedPair};
use crate::math::Pose;
use crate::real::Real;
use crate::shape::{Part, Shape, ShapeKind};

/// One pair of parts of a compound pair.
#[derive(Clone, Debug)]
pub(super) struct PartPair {
    pub pair: GeometryPair,
    /// A's part frame in A's geometry frame; `None` when A is a single shape (the frame itself).
    pub pose_a: Option<Pose>,
    pub pose_b: Option<Pose>,
    /// The id of this part pair's point 0 in the compound pair.
    pub first_id: u32,
}

/// The parts of one side: a compound's, or the single shape as one part at the frame itself.
fn parts(shape: &Shape) -> Vec<(Shape, Option<Pose>, Option<usize>)> {
    match shape {
        Shape::Compound(compound) => compound.parts.iter().map(|Part { shape, pose, line }| (shape.clone(), Some(*pose), Some(*line))).collect(),
        _ => vec![(shape.clone(), None, None)],
    }
}

/// The part pairs of `shape_a` and `shape_b` (at least one a compound) with their first ids, and
/// the compound pair's `max_points`. A compound has no inside (refused); the other side may be an
/// inside surface, and then every part lies in its cavity. A part pair that is not supported
/// refuses the whole pair, naming the part's line of the file.
pub(super) fn part_pairs(shape_a: &Shape, surface_a: Surface, shape_b: &Shape, surface_b: Surface) -> Result<(Vec<PartPair>, usize), UnsupportedPair> {
    let (a, b) = (shape_a.kind(), shape_b.kind());
    let (inside_a, inside_b) = (surface_a.inside, surface_b.inside);
    let refuse = |reason, parts| UnsupportedPair { a, b, inside: [inside_a, inside_b], reason, parts };
    if (inside_a && a == ShapeKind::Compound) || (inside_b && b == ShapeKind::Compound) {
        return Err(refuse(
            "a Compound has no inside surface; make the cavity a single Sphere or Cylinder with geometry_X.inside and the other side the compound",
            None,
        ));
    }
    // A part as a refusal names it: its kind and, for a compound's part, its line of the file.
    let name = |part: &Shape, line: Option<usize>, whole: &Shape, side: &str| match (line, whole) {
        (Some(line), Shape::Compound(compound)) => format!("the {} on line {line} of {} ({side})", part.kind().name(), compound.path.display()),
        _ => format!("{} ({side})", part.kind().name()),
    };
    let mut pairs = Vec::new();
    let mut next_id = 0usize;
    for (part_a, pose_a, line_a) in parts(shape_a) {
        for (part_b, pose_b, line_b) in parts(shape_b) {
            let pair = match GeometryPair::with_surfaces(part_a.clone(), surface_a, part_b.clone(), surface_b) {
                Ok(pair) => pair,
                Err(e) => {
                    let which = format!("{} against {}", name(&part_a, line_a, shape_a, "A"), name(&part_b, line_b, shape_b, "B"));
                    return Err(refuse(e.reason, Some(which)));
                }
            };
            let first_id = u32::try_from(next_id).ok().filter(|_| next_id + pair.max_points() <= u32::MAX as usize);
            let Some(first_id) = first_id else {
                return Err(refuse("the compound pair has more contact points than a 32-bit id can number", None));
            };
            next_id += pair.max_points();
            pairs.push(PartPair { pair, pose_a, pose_b, first_id });
        }
    }
    Ok((pairs, next_id))
}

/// `pose` composed with a part's pose (the pose itself for a single shape).
#[inline]
fn placed(pose: &Pose, part: &Option<Pose>) -> Pose {
    match part {
        Some(part) => pose.compose(part),
        None => *pose,
    }
}

/// Appends every part pair's contact points at the geometry poses `pose_a`, `pose_b`, in the
/// part pairs' order, with their ids shifted to the compound pair's.
pub(super) fn contacts(parts: &[PartPair], pose_a: &Pose, pose_b: &Pose, out: &mut Vec<ContactPoint>) {
    for part in parts {
        let first = out.len();
        part.pair.contacts(&placed(pose_a, &part.pose_a), &placed(pose_b, &part.pose_b), out);
        for point in &mut out[first..] {
            point.id += part.first_id;
        }
    }
}

/// Whether every part pair has exact derivatives; the error names the first part pair that has
/// none.
pub(super) fn differentiable(parts: &[PartPair]) -> Result<(), NotDifferentiable> {
    parts.iter().try_for_each(|part| part.pair.differentiable())
}

/// The kinematics of every part pair at the frames composed with the parts' poses, each with
/// the points of `found` in its id range (shifted back to its own ids): see
/// [`super::kinematics::Kinematics::point`].
pub(super) fn kinematics<'a, S: Real>(
    parts: &'a [PartPair],
    pose_a: &Pose,
    pose_b: &Pose,
    frame_a: &Frame<S>,
    frame_b: &Frame<S>,
    found: &[ContactPoint],
) -> Vec<(std::ops::Range<u32>, PairKinematics<'a, S>)> {
    let frame = |frame: &Frame<S>, part: &Option<Pose>| match part {
        Some(part) => frame.compose(part),
        None => *frame,
    };
    parts
        .iter()
        .map(|part| {
            let range = part.first_id..part.first_id + part.pair.max_points() as u32;
            let own: Vec<ContactPoint> = found.iter().filter(|p| range.contains(&p.id)).map(|p| p.with_id(p.id - part.first_id)).collect();
            let kinematics = part.pair.pair_kinematics(
                &placed(pose_a, &part.pose_a),
                &placed(pose_b, &part.pose_b),
                frame(frame_a, &part.pose_a),
                frame(frame_b, &part.pose_b),
                &own,
            );
            (range, kinematics)
        })
        .collect()
}
