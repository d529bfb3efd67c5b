//! Contact onset prediction: when will two bodies that are apart now first touch, if each keeps
//! its twist? Used to end a co-simulation step early at the onset (FMI 3 early return), the way
//! Adams predicts contact and shortens the step.
//!
//! Motion: each body's frame keeps its velocity `v` and angular velocity `w` (both resolved in W)
//! over the step, so after τ seconds its origin is at `r + v τ` and its orientation is `q` turned
//! by the rotation vector `w τ` (about axes fixed in W): `q(τ) = exp(w τ) q`.
//!
//! Onset: the first root of the pair's separation `s(τ)` in `(0, h]` when `s(0) > 0`. The
//! separation is sampled at equal intervals to bracket the first sign change, and the bracket is
//! refined by the Illinois variant of regula falsi, with bisection steps whenever the bracket
//! does not shrink fast enough, down to a few ulps of τ. A contact that starts and ends between
//! two samples (a graze shorter than the sampling interval) is not seen.
#![forbid(unsafe_code)]

use super::geometry::{ContactPoint, GeometryPair};
use super::math::{BodyState, Pose, Rotation};

/// Fewest samples of the separation over a step.
pub const MIN_SAMPLES: usize = 8;
/// Most samples of the separation over a step.
pub const MAX_SAMPLES: usize = 256;
/// Largest rotation \[rad\] of either body between two samples (up to [`MAX_SAMPLES`]).
pub const SAMPLE_ANGLE: f64 = 0.05;

/// The body's state after `tau` \[s\] with its twist held: position `r + v tau`, orientation turned
/// by the rotation vector `w tau` (resolved in W), twist unchanged.
pub fn extrapolate(body: &BodyState, tau: f64) -> BodyState {
    let turn = Rotation::from_scaled_axis(body.w * tau);
    BodyState { pose: Pose { r: body.pose.r + body.v * tau, q: turn * body.pose.q }, v: body.v, w: body.w }
}

/// How many samples bracket the onset over a step of `h` \[s\] for bodies turning at `w_a` and
/// `w_b` [rad/s]: at least [`MIN_SAMPLES`], and enough that neither body turns by more than
/// [`SAMPLE_ANGLE`] between two samples, up to [`MAX_SAMPLES`].
pub fn samples_for(body_a: &BodyState, body_b: &BodyState, h: f64) -> usize {
    let angle = body_a.w.norm().max(body_b.w.norm()) * h;
    let wanted = (angle / SAMPLE_ANGLE).ceil();
    if wanted.is_finite() {
        (wanted as usize).clamp(MIN_SAMPLES, MAX_SAMPLES)
    } else {
        MAX_SAMPLES
    }
}

/// The signed distance of the pair at these geometry poses: the smallest separation of its
/// contact points (negative when they overlap), `f64::INFINITY` when the pair reports no point.
/// `scratch` is cleared and reused.
pub fn pair_separation(pair: &GeometryPair, pose_a: &Pose, pose_b: &Pose, scratch: &mut Vec<ContactPoint>) -> f64 {
    scratch.clear();
    if let Some(cp) = pair.single_contact(pose_a, pose_b) {
        return cp.separation;
    }
    if let Some(queries) = pair.point_queries(pose_a, pose_b) {
        let mut least = f64::INFINITY;
        for id in 0..queries.len() {
            let separation = match queries.plane_separation(id) {
                Some(separation) => separation,
                None => queries.contact(id).map_or(f64::INFINITY, |cp| cp.separation),
            };
            least = least.min(separation);
        }
        return least;
    }
    pair.contacts(pose_a, pose_b, scratch);
    scratch.iter().map(|cp| cp.separation).fold(f64::INFINITY, f64::min)
}

/// The first time `tau` in `(0, h]` at which `separation(tau)` reaches zero, when
/// `separation(0) > 0`; `None` when the bodies touch (or overlap) at `tau = 0`, stay apart at every
/// sample, or the separation is not a number.
///
/// The answer is the upper end of the final bracket, where the separation is `<= 0`: at the
/// returned time the bodies touch, to within a few ulps of `tau` (the bracket is narrower than
/// `4 eps tau` or than `1e-15 h`).
pub fn first_contact(mut separation: impl FnMut(f64) -> f64, h: f64, samples: usize) -> Option<f64> {
    // Also refuses NaN: a step or a separation that is not a number predicts nothing.
    if h.is_nan() || h <= 0.0 {
        return None;
    }
    let start = separation(0.0);
    if start.is_nan() || start <= 0.0 {
        return None;
    }
    let samples = samples.max(1);
    let (mut a, mut fa) = (0.0, start);
    let mut bracket = None;
    for i in 1..=samples {
        let tau = if i == samples { h } else { h * i as f64 / samples as f64 };
        let f = separation(tau);
        if f.is_nan() {
            return None;
        }
        if f <= 0.0 {
            bracket = Some((tau, f));
            break;
        }
        (a, fa) = (tau, f);
    }
    let (mut b, mut fb) = bracket?;
    // Illinois: regula falsi, halving the weight of an end that is kept twice in a row; a plain
    // bisection whenever two steps did not halve the bracket.
    let floor = 1e-15 * h;
    let mut kept = 0i8; // +1: a kept last time, -1: b kept last time.
    let mut width_two_steps_ago = b - a;
    let mut width_one_step_ago = b - a;
    for _ in 0..400 {
        let width = b - a;
        if width <= floor.max(4.0 * f64::EPSILON * b) || fb == 0.0 {
            break;
        }
        let bisect = width > 0.5 * width_two_steps_ago;
        let mut c = if bisect || fa == fb { 0.5 * (a + b) } else { (a * fb - b * fa) / (fb - fa) };
        if !(c > a && c < b) {
            c = 0.5 * (a + b);
        }
        if !(c > a && c < b) {
            break; // No double between a and b.
        }
        let fc = separation(c);
        if fc.is_nan() {
            return None;
        }
        if fc > 0.0 {
            (a, fa) = (c, fc);
            if kept == -1 {
                fb *= 0.5;
            }
            kept = -1;
        } else {
            (b, fb) = (c, fc);
            if kept == 1 {
                fa *= 0.5;
            }
            kept = 1;
        }
        width_two_steps_ago = width_one_step_ago;
        width_one_step_ago = width;
    }
    Some(b)
}

/// The onset of contact between two bodies moving with their twists held over `h` \[s\]: the first
/// time in `(0, h]` at which the geometries (their frames at `offset_a` and `offset_b` in the
/// body frames) touch, when they are apart at the start. See [`first_contact`].
pub fn predict_onset(
    pair: &GeometryPair,
    body_a: &BodyState,
    offset_a: &Pose,
    body_b: &BodyState,
    offset_b: &Pose,
    h: f64,
    scratch: &mut Vec<ContactPoint>,
) -> Option<f64> {
    let samples = samples_for(body_a, body_b, h);
    first_contact(
        |tau| {
            let pose_a = extrapolate(body_a, tau).pose.compose(offset_a);
            let pose_b = extrapolate(body_b, tau).pose.compose(offset_b);
            pair_separation(pair, &pose_a, &pose_b, scratch)
        },
        h,
        samples,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;
    use crate::shape::Shape;

    fn still(r: [f64; 3]) -> BodyState {
        BodyState { pose: Pose { r: Vec3::from(r), q: Rotation::identity() }, v: Vec3::zeros(), w: Vec3::zeros() }
    }

    fn moving(r: [f64; 3], v: [f64; 3], w: [f64; 3]) -> BodyState {
        BodyState { v: Vec3::from(v), w: Vec3::from(w), ..still(r) }
    }

    fn onset(pair: &GeometryPair, a: &BodyState, b: &BodyState, h: f64) -> Option<f64> {
        predict_onset(pair, a, &Pose::identity(), b, &Pose::identity(), h, &mut Vec::new())
    }

    #[test]
    fn extrapolation_moves_the_origin_linearly_and_turns_about_w() {
        let body = moving([1.0, 2.0, 3.0], [0.5, -1.0, 2.0], [0.0, 0.0, std::f64::consts::PI]);
        let later = extrapolate(&body, 0.5);
        assert!((later.pose.r - Vec3::new(1.25, 1.5, 4.0)).norm() < 1e-15);
        // Half a turn per second for half a second: a quarter turn about z maps x to y.
        let x = later.pose.q * Vec3::x();
        assert!((x - Vec3::y()).norm() < 1e-15, "{x}");
        assert_eq!((later.v, later.w), (body.v, body.w));
    }

    #[test]
    fn sphere_falling_on_a_plane_touches_at_the_closed_form_time() {
        let pair = GeometryPair::new(Shape::Plane, Shape::Sphere { radius: 0.05 }).unwrap();
        for (height, speed, h) in [(0.05 + 1e-3, 3.132, 1e-3), (0.0501, 1.0, 1e-3), (0.3, 2.5, 0.2), (0.05 + 3.0e-7, 3.0, 1e-6)] {
            let ball = moving([0.1, -0.2, height], [0.3, 0.1, -speed], [1.0, 2.0, 3.0]);
            let expected = (height - 0.05) / speed;
            let tau = onset(&pair, &still([0.0; 3]), &ball, h).expect("touches within the step");
            // The separation z(tau) - R itself is known to a rounding error of z: the time to
            // within that over the speed, on top of the 1e-12 relative.
            let conditioning = 2.0 * f64::EPSILON * height / speed;
            assert!((tau - expected).abs() <= 1e-12 * expected + conditioning, "height {height}: {tau} vs {expected}");
            // The answer is on the touching side.
            let at = extrapolate(&ball, tau).pose.r.z - 0.05;
            assert!(at <= 0.0, "{at}");
        }
    }

    #[test]
    fn no_onset_when_apart_all_step_touching_already_or_moving_away() {
        let pair = GeometryPair::new(Shape::Plane, Shape::Sphere { radius: 0.05 }).unwrap();
        let ground = still([0.0; 3]);
        assert_eq!(onset(&pair, &ground, &moving([0.0, 0.0, 0.06], [0.0, 0.0, -1.0], [0.0; 3]), 1e-3), None);
        assert_eq!(onset(&pair, &ground, &moving([0.0, 0.0, 0.049], [0.0, 0.0, -1.0], [0.0; 3]), 1e-3), None);
        assert_eq!(onset(&pair, &ground, &moving([0.0, 0.0, 0.0505], [0.0, 0.0, 1.0], [0.0; 3]), 1e-3), None);
        assert_eq!(onset(&pair, &ground, &moving([0.0, 0.0, 0.0505], [0.0, 0.0, -1.0], [0.0; 3]), 0.0), None);
    }

    #[test]
    fn moving_plane_meets_the_sphere_at_the_closed_form_time() {
        // The base body moves: the plane rises toward a resting sphere; a tilted plane (turned
        // by the body's orientation) still gives the distance along its normal.
        let pair = GeometryPair::new(Shape::Plane, Shape::Sphere { radius: 0.1 }).unwrap();
        let plane = moving([0.0, 0.0, 0.0], [0.0, 0.0, 2.0], [0.0; 3]);
        let ball = still([0.4, 0.0, 0.15]);
        let tau = onset(&pair, &plane, &ball, 0.1).unwrap();
        assert!((tau - 0.025).abs() <= 1e-12 * 0.025, "{tau}");
    }

    #[test]
    fn spheres_approaching_touch_at_the_first_root_of_the_distance_quadratic() {
        let pair = GeometryPair::new(Shape::Sphere { radius: 0.2 }, Shape::Sphere { radius: 0.3 }).unwrap();
        let a = moving([0.0, 0.0, 0.0], [1.0, 0.5, 0.0], [0.0, 4.0, 0.0]);
        let b = moving([1.5, 0.3, 0.2], [-2.0, 0.0, 0.1], [3.0, 0.0, 1.0]);
        // |d + u t| = R with d = r_b - r_a, u = v_b - v_a: (u.u) t^2 + 2 (d.u) t + d.d - R^2 = 0.
        let d = b.pose.r - a.pose.r;
        let u = b.v - a.v;
        let (qa, qb, qc) = (u.dot(&u), 2.0 * d.dot(&u), d.dot(&d) - 0.25);
        let expected = (-qb - (qb * qb - 4.0 * qa * qc).sqrt()) / (2.0 * qa);
        let tau = onset(&pair, &a, &b, 1.0).unwrap();
        assert!((tau - expected).abs() <= 1e-12 * expected, "{tau} vs {expected}");
    }

    #[test]
    fn a_spinning_falling_box_touches_when_its_lowest_corner_reaches_the_plane() {
        // Box of half extents (hx, hy, hz) turning about x at w while falling at speed s: its
        // lowest point is hy |sin theta| + hz |cos theta| below the centre, theta = w t (+ theta0).
        let (hx, hy, hz) = (0.3, 0.2, 0.1);
        let pair = GeometryPair::new(Shape::Plane, Shape::Box { half_extents: Vec3::new(hx, hy, hz) }).unwrap();
        let (z0, speed, w) = (0.3, 0.5, 6.0);
        let theta0: f64 = 0.2;
        let mut boxed = moving([0.05, 0.0, z0], [0.0, 0.0, -speed], [w, 0.0, 0.0]);
        boxed.pose.q = Rotation::from_scaled_axis(Vec3::x() * theta0);
        let separation = |t: f64| {
            let theta = theta0 + w * t;
            z0 - speed * t - (hy * theta.sin().abs() + hz * theta.cos().abs())
        };
        // The closed-form separation's first root, by bisection after a fine scan.
        let h = 0.5;
        let mut lo = 0.0;
        let mut hi = h;
        for i in 1..=100_000 {
            let t = h * i as f64 / 100_000.0;
            if separation(t) <= 0.0 {
                hi = t;
                lo = h * (i - 1) as f64 / 100_000.0;
                break;
            }
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if separation(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        assert!(hi < h, "the closed form touches within the step");
        let tau = onset(&pair, &still([0.0; 3]), &boxed, h).unwrap();
        assert!((tau - hi).abs() <= 1e-12 * hi, "{tau} vs {hi}");
    }

    #[test]
    fn geometry_offsets_are_carried_by_the_motion() {
        // The sphere sits 0.2 m beside the body's origin; the body turns a quarter turn about y
        // in the step, which swings the sphere down by 0.2 m onto the plane.
        let pair = GeometryPair::new(Shape::Plane, Shape::Sphere { radius: 0.05 }).unwrap();
        let w = 1.0;
        let body = moving([0.0, 0.0, 0.2], [0.0; 3], [0.0, w, 0.0]);
        let offset = Pose { r: Vec3::new(0.2, 0.0, 0.0), q: Rotation::identity() };
        // Centre height 0.2 - 0.2 sin(w t) = 0.05: t = asin(0.75) / w.
        let expected = 0.75f64.asin() / w;
        let tau = predict_onset(&pair, &still([0.0; 3]), &Pose::identity(), &body, &offset, 1.5, &mut Vec::new()).unwrap();
        assert!((tau - expected).abs() <= 1e-12 * expected, "{tau} vs {expected}");
    }

    #[test]
    fn first_contact_finds_the_first_of_several_roots() {
        // s(t) = cos(20 t) + 0.5 touches first at acos(-0.5) / 20.
        let expected = (-0.5f64).acos() / 20.0;
        let tau = first_contact(|t| (20.0 * t).cos() + 0.5, 1.0, 64).unwrap();
        assert!((tau - expected).abs() <= 1e-12 * expected, "{tau} vs {expected}");
    }
}
