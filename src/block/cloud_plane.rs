//! A point cloud against a plane (either order) under stateless laws: one chunk of the cloud's
//! summation tree at a time, in structure-of-arrays form.
//!
//! The per-point path ([`contact::evaluate`](crate::physics::contact::evaluate) per point, with
//! the laws' `match` and a whole [`ContactPoint`](crate::physics::geometry::ContactPoint) per point) spends most of its work on the half
//! of the points that penetrate, one law dispatch at a time. Here a chunk goes through in blocks
//! of [`BLOCK`] points:
//!
//! 1. every point is moved into W and its separation taken, branch-free, and the points that
//!    penetrate are compacted (their index, position and separation) while the deepest point is
//!    tracked;
//! 2. for the compacted points only: the force point, relative velocity, depth, approach speed
//!    and slip, in plain loops over arrays;
//! 3. the laws over the whole block at once ([`NormalLaw::forces`], [`FrictionLaw::mu_over_speeds`]:
//!    the law chosen once, each number from the law's own function);
//! 4. the sums, in id order.
//!
//! Every number is computed with the operations of the per-point path in the same order, so the
//! result is bit-identical to it (tested below on random clouds, poses, twists and every
//! stateless law pair), and therefore equally independent of the number of threads. Nothing is
//! allocated: the blocks live on the stack (22 kB).
//!
//! [`NormalLaw::forces`]: crate::physics::normal::NormalLaw::forces
//! [`FrictionLaw::mu_over_speeds`]: crate::physics::friction::FrictionLaw::mu_over_speeds

use super::Sums;
use crate::physics::contact::Laws;
use crate::physics::geometry::{CloudOnPlane, PointQueries};
use crate::physics::math::{BodyState, Vec3};

/// Points handled together: the length of the stack arrays.
pub const BLOCK: usize = 256;

/// True when [`leaf`] evaluates this pair and these laws: a cloud on a plane, laws with no
/// per-point state, and no spin or rolling couple.
pub(super) fn applies(laws: &Laws) -> bool {
    !laws.is_stateful() && !laws.is_provided() && laws.torque_radius == 0.0 && laws.rolling == 0.0
}

/// The sums of the points with ids in `range` (one leaf of the summation tree): exactly the
/// [`Sums`] the per-point path gives for them.
pub(super) fn leaf(queries: &PointQueries, cloud: &CloudOnPlane, laws: &Laws, body_a: &BodyState, body_b: &BodyState, range: std::ops::Range<usize>) -> Sums {
    let mut sums = Sums::default();
    let mut deepest: Option<(f64, usize)> = None;
    let mut start = range.start;
    while start < range.end {
        let end = (start + BLOCK).min(range.end);
        block(cloud, laws, body_a, body_b, start..end, &mut sums, &mut deepest);
        start = end;
    }
    if let Some((_, id)) = deepest {
        if let Some(cp) = queries.contact(id) {
            sums.deepest = Some(cp);
        }
    }
    sums
}

/// Adds the points of `range` (at most [`BLOCK`]) to `sums`, and keeps in `deepest` the first of
/// the smallest separations and its id.
#[inline(always)]
fn block(cloud: &CloudOnPlane, laws: &Laws, body_a: &BodyState, body_b: &BodyState, range: std::ops::Range<usize>, sums: &mut Sums, deepest: &mut Option<(f64, usize)>) {
    let points = &cloud.points[range.clone()];
    let n = cloud.normal;

    // 1. Separations; compaction of the penetrating points (NaN included, as on the per-point
    //    path, which evaluates every point that is not apart).
    let mut px = [0.0; BLOCK];
    let mut py = [0.0; BLOCK];
    let mut pz = [0.0; BLOCK];
    let mut hs = [0.0; BLOCK];
    let mut count = 0;
    let (mut min, mut arg) = match *deepest {
        Some(d) => d,
        None => {
            let p_w = cloud.cloud_r + cloud.cloud_m * points[0];
            ((p_w - cloud.plane_r).dot(&n), range.start)
        }
    };
    for (i, p) in points.iter().enumerate() {
        let p_w = cloud.cloud_r + cloud.cloud_m * p;
        let h = (p_w - cloud.plane_r).dot(&n);
        px[count] = p_w.x;
        py[count] = p_w.y;
        pz[count] = p_w.z;
        hs[count] = h;
        count += usize::from(h < 0.0 || h.is_nan());
        let better = h < min;
        min = if better { h } else { min };
        arg = if better { range.start + i } else { arg };
    }
    *deepest = Some((min, arg));
    if count == 0 {
        return;
    }

    // 2. The force point, depth, approach speed and slip of each penetrating point.
    let n_ab = if cloud.cloud_is_a { -n } else { n };
    let mut sx = [0.0; BLOCK];
    let mut sy = [0.0; BLOCK];
    let mut sz = [0.0; BLOCK];
    let mut rate = [0.0; BLOCK];
    let mut speed = [0.0; BLOCK];
    for j in 0..count {
        let p_w = Vec3::new(px[j], py[j], pz[j]);
        let h = hs[j];
        // The witnesses are p_w - n h (plane) and p_w (cloud); their sum does not depend on the order.
        let c = ((p_w - n * h) + p_w) * 0.5;
        let v_rel = body_b.velocity_at(&c) - body_a.velocity_at(&c);
        let v_normal = v_rel.dot(&n_ab);
        let slip = v_rel - n_ab * v_normal;
        // The position and separation columns now hold the force point and the depth.
        (px[j], py[j], pz[j]) = (c.x, c.y, c.z);
        (sx[j], sy[j], sz[j]) = (slip.x, slip.y, slip.z);
        hs[j] = (-h).max(0.0);
        rate[j] = -v_normal;
        speed[j] = slip.norm();
    }

    // 3. The laws, over the block.
    let depth = hs;
    let mut normal = [0.0; BLOCK];
    laws.normal.forces(&depth[..count], &rate[..count], &mut normal[..count]);
    let mut mu_over_speed = [0.0; BLOCK];
    let velocity_based = laws.friction.mu_over_speeds(&speed[..count], &mut mu_over_speed[..count]);
    debug_assert!(velocity_based, "stateful friction laws take the per-point path");

    // 4. The sums, in id order, as `Sums::add` makes them.
    for j in 0..count {
        let passed_through = laws.max_depth > 0.0 && depth[j] > laws.max_depth;
        let normal_force = if passed_through { 0.0 } else { normal[j] };
        let c = Vec3::new(px[j], py[j], pz[j]);
        let slip = Vec3::new(sx[j], sy[j], sz[j]);
        let friction = if normal_force > 0.0 { slip * -(normal_force * mu_over_speed[j]) } else { Vec3::zeros() };
        sums.passed_through |= passed_through;
        let f = n_ab * normal_force + friction;
        sums.force_b += f;
        sums.torque_b += (c - body_b.pose.r).cross(&f);
        sums.torque_a -= (c - body_a.pose.r).cross(&f);
        sums.friction += friction;
        if normal_force > 0.0 {
            sums.points += 1;
            sums.normal_force += normal_force;
            sums.weighted_point += c * normal_force;
            // Velocity-based friction never sticks.
            sums.sticking = false;
        }
    }
}

#[cfg(test)]
mod tests;
