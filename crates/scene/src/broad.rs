//! The broad phase: which pairs of bodies can touch, by sweep and prune on their world
//! axis-aligned bounding boxes (not an all-pairs loop): the boxes sorted by their lower end
//! along the axis where their centres spread most, swept with a list of the boxes still open,
//! each new box tested against the open ones on the other two axes. O(n log n + k) for k
//! overlapping pairs.
//!
//! A body's bound is a ball about its geometry frame's origin that holds the whole shape (inside
//! surfaces included: what touches the inside of a shape is within it), or, for a plane and a
//! height field, the whole space (a plane's half-space is bounded only along an axis it is normal
//! to, which the box keeps).

use contact_physics::math::{Pose, Vec3};
use contact_physics::shape::Shape;


/// What holds a shape in its geometry frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// A ball of this radius (m) about the geometry frame's origin.
    Ball(f64),
    /// The half-space z <= 0 of the geometry frame (a plane).
    HalfSpace,
    /// Anywhere (a height field).
    Everywhere,
}

fn farthest(points: &[Vec3]) -> f64 {
    points.iter().map(|p| p.norm()).fold(0.0, f64::max)
}

impl Bound {
    pub fn of(shape: &Shape) -> Bound {
        let ball = match shape {
            Shape::Point => 0.0,
            Shape::Sphere { radius } | Shape::Disk { radius } => *radius,
            Shape::Box { half_extents } => half_extents.norm(),
            Shape::Cylinder { radius, half_length } => radius.hypot(*half_length),
            Shape::Capsule { radius, half_length } => radius + half_length,
            Shape::Ellipsoid { semi_axes } => semi_axes.max(),
            Shape::Rectangle { half_x, half_y } => half_x.hypot(*half_y),
            Shape::Plane => return Bound::HalfSpace,
            Shape::GridSurface(_) => return Bound::Everywhere,
            Shape::ConvexHull(h) => farthest(&h.vertices),
            Shape::Mesh(m) => farthest(&m.vertices),
            Shape::PointCloud(c) => farthest(&c.points),
            Shape::Compound(c) => {
                let mut r = 0.0_f64;
                for part in &c.parts {
                    r = r.max(match Bound::of(&part.shape) {
                        Bound::Ball(x) => part.pose.r.norm() + x,
                        _ => return Bound::Everywhere,
                    });
                }
                r
            }
        };
        Bound::Ball(ball)
    }

    /// The world box (lower, upper corners) of the bound with its geometry frame at `pose`.
    pub fn world_box(&self, pose: &Pose) -> (Vec3, Vec3) {
        let inf = Vec3::repeat(f64::INFINITY);
        match self {
            Bound::Ball(r) => (pose.r - Vec3::repeat(*r), pose.r + Vec3::repeat(*r)),
            Bound::Everywhere => (-inf, inf),
            Bound::HalfSpace => {
                // Bounded only along an axis the normal lies on, on the side away from it.
                let n = pose.q * Vec3::z();
                let (mut lo, mut hi) = (-inf, inf);
                for k in 0..3 {
                    if n[k] == 1.0 {
                        hi[k] = pose.r[k];
                    } else if n[k] == -1.0 {
                        lo[k] = pose.r[k];
                    }
                }
                (lo, hi)
            }
        }
    }
}

/// The buffers of a sweep.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    boxes: Vec<(Vec3, Vec3)>,
    order: Vec<u32>,
    open: Vec<u32>,
}

/// Whether two boxes overlap (touching counts) on every axis.
pub fn overlap(a: &(Vec3, Vec3), b: &(Vec3, Vec3)) -> bool {
    (0..3).all(|k| a.0[k] <= b.1[k] && b.0[k] <= a.1[k])
}

/// The pairs (i < j) of bodies whose world boxes overlap, given their `bounds` and their geometry
/// frames at `poses`, into `pairs` (in no particular order).
pub fn sweep_and_prune<'a>(bounds: impl IntoIterator<Item = &'a Bound>, poses: &[Pose], work: &mut Workspace, pairs: &mut Vec<(u32, u32)>) {
    pairs.clear();
    work.boxes.clear();
    work.boxes.extend(bounds.into_iter().zip(poses).map(|(b, p)| b.world_box(p)));
    let boxes = &work.boxes;
    // The axis along which the finite boxes' centres spread most.
    let (mut sum, mut sum2, mut count) = (Vec3::zeros(), Vec3::zeros(), 0.0);
    for (lo, hi) in boxes {
        let c = (lo + hi) * 0.5;
        if c.iter().all(|x| x.is_finite()) {
            sum += c;
            sum2 += c.component_mul(&c);
            count += 1.0;
        }
    }
    let axis = if count > 0.0 { (sum2 / count - (sum / count).component_mul(&(sum / count))).imax() } else { 0 };
    work.order.clear();
    work.order.extend(0..boxes.len() as u32);
    work.order.sort_unstable_by(|a, b| boxes[*a as usize].0[axis].total_cmp(&boxes[*b as usize].0[axis]).then(a.cmp(b)));
    work.open.clear();
    for &i in &work.order {
        let bi = &boxes[i as usize];
        // Boxes that end before this one starts end before every later one starts too.
        work.open.retain(|j| boxes[*j as usize].1[axis] >= bi.0[axis]);
        for &j in &work.open {
            if overlap(bi, &boxes[j as usize]) {
                pairs.push((i.min(j), i.max(j)));
            }
        }
        work.open.push(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use contact_physics::math::Rotation;
    use contact_physics::test_rng::XorShift64;

    /// On random scenes of spheres, boxes, capsules, cylinders and planes, the sweep finds
    /// exactly the pairs an all-pairs loop over the same boxes finds.
    #[test]
    fn sweep_finds_the_pairs_all_pairs_finds() {
        for seed in 1..40_u64 {
            let mut rng = XorShift64(seed * 7919);
            let mut next = || rng.next();
            let n = 2 + (next() * 60.0) as usize;
            let mut bounds = Vec::new();
            let mut poses = Vec::new();
            for _ in 0..n {
                let size = 0.05 + 0.3 * next();
                let shape = match (next() * 5.0) as usize {
                    0 => Shape::Sphere { radius: size },
                    1 => Shape::Box { half_extents: Vec3::new(size, 0.5 * size, 0.2 * size) },
                    2 => Shape::Capsule { radius: 0.3 * size, half_length: size },
                    3 => Shape::Cylinder { radius: size, half_length: 0.5 * size },
                    _ => Shape::Plane,
                };
                bounds.push(Bound::of(&shape));
                let q = if next() < 0.5 { Rotation::identity() } else { Rotation::from_euler_angles(next() * 6.0, next() * 6.0, next() * 6.0) };
                poses.push(Pose { r: Vec3::new(next() * 3.0, next() * 3.0, next()), q });
            }
            let mut found = Vec::new();
            sweep_and_prune(&bounds, &poses, &mut Workspace::default(), &mut found);
            found.sort_unstable();
            let boxes: Vec<_> = bounds.iter().zip(&poses).map(|(b, p)| b.world_box(p)).collect();
            let mut all = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if overlap(&boxes[i], &boxes[j]) {
                        all.push((i as u32, j as u32));
                    }
                }
            }
            assert_eq!(found, all, "seed {seed}, {n} bodies");
            assert!(all.len() < n * (n - 1) / 2 || n < 6, "seed {seed}: the scene should not overlap everywhere");
        }
    }

    /// The bounds hold their shapes: a box's corner, a capsule's tip, a cylinder's rim.
    #[test]
    fn bounds_hold_their_shapes() {
        let b = Bound::of(&Shape::Box { half_extents: Vec3::new(1.0, 2.0, 2.0) });
        assert_eq!(b, Bound::Ball(3.0));
        assert_eq!(Bound::of(&Shape::Capsule { radius: 0.5, half_length: 1.0 }), Bound::Ball(1.5));
        assert_eq!(Bound::of(&Shape::Cylinder { radius: 3.0, half_length: 4.0 }), Bound::Ball(5.0));
        // A plane with its normal along +z bounds z from above only.
        let (lo, hi) = Bound::HalfSpace.world_box(&Pose { r: Vec3::new(0.0, 0.0, 2.0), q: Rotation::identity() });
        assert_eq!((lo.z, hi.z), (f64::NEG_INFINITY, 2.0));
        assert_eq!((lo.x, hi.x), (f64::NEG_INFINITY, f64::INFINITY));
    }
}
