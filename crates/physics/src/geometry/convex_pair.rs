//! The canonical pair of two convex shapes, as the pair table names it: both shapes seen as
//! [`Convex`] views, and their contacts ([`convex::contacts_of`](super::convex::contacts_of), the
//! method of convex.rs's module documentation) in the copy of the code that suits the CPU
//! (hull_dispatch.rs).

use super::convex::Convex;
use super::{hull_dispatch, ContactPoint};
use crate::math::Pose;
use crate::shape::Shape;

/// Canonical pair function: two convex shapes (see convex.rs's module documentation).
pub(super) fn contacts(base: &Shape, base_pose: &Pose, follower: &Shape, follower_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let (Some(a), Some(b)) = (Convex::of(base), Convex::of(follower)) else {
        return;
    };
    // (In the copy of the code that suits the CPU: see hull_dispatch.rs.)
    hull_dispatch::contacts_of(&a, base_pose, &b, follower_pose, out);
}

/// How many point ids [`contacts`] uses.
pub(super) fn point_count(base: &Shape, follower: &Shape) -> usize {
    let count = |s: &Shape| Convex::of(s).map_or(1, |c| c.max_feature_points());
    count(base) + count(follower)
}
