//! Contact kinematics over any [`Real`]: the witnesses, normal and separation of the points the
//! `f64` pass found, as closed-form functions of the two geometry frames with each point's
//! features held (a plane and a vertex, a corner, a rim point, an end sphere, a cloud point and
//! the surface feature its query landed on). With dual frames this gives their exact
//! derivatives with respect to the poses.
//!
//! Each point keeps the identity the `f64` pass gave it (its id: a corner, a vertex, a cloud
//! point, a capsule end); the branches of the closed forms (which end of a capsule points down,
//! which face of a box is nearest) are decided on the values, as the `f64` pass decided them.
//! The values of the result are then set to the `f64` pass's own numbers bit for bit, so the
//! laws evaluate at exactly the point the outputs came from.
//!
//! The closed forms live with their pairs: each pair's file has its derivatives (`point_over`, or
//! `points_over` for the pairs re-derived together), and the pair table (`canonical` in
//! `mod.rs`) names them by a `Family`; this file is what every pair shares.
//!
//! Capsule-capsule runs its whole closed-form construction (closest points, stations and their
//! pose-dependent weights) over the dual frames; so do the finite-face pairs
//! (`kinematics_face`). The polytope pairs of `convex.rs` (box-box, hull-hull, hull-box,
//! hull-rectangle), an ellipsoid against those, box-capsule and hull-capsule, and the hull's
//! surface query identify their features from the `f64` points and re-derive them
//! (`kinematics_polytope`), as does the mesh's surface query (`kinematics_mesh`). Pair families
//! whose points come from an iterative solve with curved features (the other GJK/EPA pairs) or
//! from parry's mesh manifolds (mesh against a solid) are refused by
//! [`GeometryPair::differentiable`] with the reason. The ellipsoid's iterated surface query is
//! differentiated by one Newton step over the Real from its converged root.
//!
//! A compound pair (`compound.rs`) takes each pair of parts' kinematics at the frames composed
//! with the parts' poses, each point matched to its pair of parts by its id.

use nalgebra::Vector3;

use super::{ContactPoint, GeometryPair};
use crate::math::{Pose, Vec3};
use crate::real::Real;
use crate::shape::{Shape, ShapeKind};

pub use super::frame::Frame;

/// A geometry pair whose derivatives are not available.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotDifferentiable {
    pub a: ShapeKind,
    pub b: ShapeKind,
    pub reason: &'static str,
}

impl std::fmt::Display for NotDifferentiable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no exact derivatives for the geometry pair {} (A) - {} (B): {}", self.a.name(), self.b.name(), self.reason)
    }
}

impl GeometryPair {
    /// [`GeometryPair::kinematics`] of a pair that is not a compound.
    pub(super) fn pair_kinematics<'a, S: Real>(&'a self, pose_a: &Pose, pose_b: &Pose, frame_a: Frame<S>, frame_b: Frame<S>, found: &[ContactPoint]) -> PairKinematics<'a, S> {
        let flipped = if self.same_kind { super::pose_key_less(&super::pose_key(pose_b), &super::pose_key(pose_a)) } else { self.flipped };
        let (base, base_frame, follower, follower_frame) =
            if flipped { (&self.shape_b, frame_b, &self.shape_a, frame_a) } else { (&self.shape_a, frame_a, &self.shape_b, frame_b) };
        let (base_frame, follower_frame) = (&base_frame, &follower_frame);
        let family = self.derivatives.unwrap_or_else(|reason| panic!("{reason}"));
        let together = if family.together() {
            let (base_pose, follower_pose) = if flipped { (pose_b, pose_a) } else { (pose_a, pose_b) };
            // The points in the canonical order (base first), as the `f64` pass gave them.
            let canonical: Vec<ContactPoint> = found.iter().map(|p| if flipped { p.flipped() } else { *p }).collect();
            family.points_over(base, base_pose, base_frame, follower, follower_pose, follower_frame, &canonical)
        } else {
            Vec::new()
        };
        PairKinematics { family, flipped, base, base_frame: *base_frame, follower, follower_frame: *follower_frame, together }
    }

    /// The points `found` (those [`GeometryPair::contacts`] gave at `pose_a`, `pose_b`) as
    /// functions of the frames: [`Kinematics::point`] of each.
    pub fn contacts_over<S: Real>(&self, pose_a: &Pose, pose_b: &Pose, frame_a: &Frame<S>, frame_b: &Frame<S>, found: &[ContactPoint]) -> Vec<ContactPoint<S>> {
        let kinematics = self.kinematics(pose_a, pose_b, frame_a, frame_b, found);
        found.iter().map(|point| kinematics.point(point)).collect()
    }
}

/// A pair's contact kinematics at given frames, prepared once for its points.
pub struct Kinematics<'a, S: Real>(Inner<'a, S>);

impl<'a, S: Real> Kinematics<'a, S> {
    /// The kinematics of a pair that is not a compound.
    pub(super) fn pair(pair: PairKinematics<'a, S>) -> Self {
        Kinematics(Inner::Pair(pair))
    }

    /// The kinematics of a compound's pairs of parts, each with the range of ids of its points.
    pub(super) fn compound(parts: Vec<(std::ops::Range<u32>, PairKinematics<'a, S>)>) -> Self {
        Kinematics(Inner::Compound(parts))
    }
}

enum Inner<'a, S: Real> {
    Pair(PairKinematics<'a, S>),
    /// A compound pair: each part pair's kinematics with the range of ids its points have.
    Compound(Vec<(std::ops::Range<u32>, PairKinematics<'a, S>)>),
}

impl<S: Real> Kinematics<'_, S> {
    /// The point `found` (one [`GeometryPair::contacts`] gave at the poses) as a function of the
    /// frames: with dual frames, its exact derivatives. Its values are `found`'s bit for bit.
    pub fn point(&self, found: &ContactPoint) -> ContactPoint<S> {
        match &self.0 {
            Inner::Pair(pair) => pair.point(found),
            Inner::Compound(parts) => {
                let (range, part) = parts.iter().find(|(range, _)| range.contains(&found.id)).expect("a point of one of the part pairs");
                let mut point = part.point(&found.with_id(found.id - range.start));
                point.id = found.id;
                point
            }
        }
    }
}

/// The kinematics of a pair that is not a compound (of one pair of parts of a compound).
pub(super) struct PairKinematics<'a, S: Real> {
    family: super::Family,
    /// The canonical pair takes B first.
    flipped: bool,
    base: &'a Shape,
    base_frame: Frame<S>,
    follower: &'a Shape,
    follower_frame: Frame<S>,
    /// The families that re-derive a pair's points together: the whole construction over the frames.
    together: Vec<ContactPoint<S>>,
}

impl<S: Real> PairKinematics<'_, S> {
    fn point(&self, found: &ContactPoint) -> ContactPoint<S> {
        let canonical = if self.flipped { found.flipped() } else { *found };
        let mut dual = match self.family {
            family if family.together() => *self
                .together
                .iter()
                .find(|p| p.id == canonical.id)
                .expect("the dual construction gives the points the f64 one gave"),
            family => {
                let mut dual = family.point_over(self.base, &self.base_frame, self.follower, &self.follower_frame, canonical.id);
                // The weight of every other differentiated pair is a constant of the pair.
                dual.weight = S::c(canonical.weight);
                dual
            }
        };
        dual.id = canonical.id;
        let dual = if self.flipped { dual.flipped() } else { dual };
        with_values(&dual, found)
    }
}

/// `dual`'s tangents with `values`' numbers.
fn with_values<S: Real>(dual: &ContactPoint<S>, values: &ContactPoint) -> ContactPoint<S> {
    let v = |d: &Vector3<S>, v: &Vec3| Vector3::new(d.x.with_v(v.x), d.y.with_v(v.y), d.z.with_v(v.z));
    ContactPoint {
        p_a_w: v(&dual.p_a_w, &values.p_a_w),
        p_b_w: v(&dual.p_b_w, &values.p_b_w),
        normal_ab_w: v(&dual.normal_ab_w, &values.normal_ab_w),
        separation: dual.separation.with_v(values.separation),
        weight: dual.weight.with_v(values.weight),
        id: values.id,
    }
}

