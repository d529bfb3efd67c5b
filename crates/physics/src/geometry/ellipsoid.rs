//! The ellipsoid `sum (x_i / a_i)^2 = 1`: its closest surface point to any point (the surface
//! query, which gives the point-ellipsoid and sphere-ellipsoid pairs), and the plane-ellipsoid
//! pair in closed form.
//!
//! Closest point (D. Eberly, "Distance from a Point to an Ellipse, an Ellipsoid, or a
//! Hyperellipsoid", 2013): with the axes sorted `a_0 >= a_1 >= a_2` and the query `y` reflected
//! into the first octant, the closest point is `x_i = a_i^2 y_i / (t + a_i^2)` where t is the
//! root of `F(t) = sum (a_i y_i / (t + a_i^2))^2 - 1`, which is monotone on `t > -a_2^2`. The
//! root is bracketed and found by bisection to the last bit, so the query is exact to rounding
//! inside and outside; the cases with a zero coordinate (where the root can leave the bracket and
//! the closest point leaves the coordinate plane) are Eberly's, reduced to the ellipse.

use nalgebra::Vector3;

use super::ContactPoint;
use crate::math::{Pose, Vec3};
use crate::shape::Shape;
use super::frame::Frame;
use crate::real::Real;
use super::plane_sphere;

/// The closest point of the ellipsoid with semi-axes `a` to `y` (local frame), the outward unit
/// normal there, and the signed distance (negative inside).
pub(super) fn closest_point(a: &Vec3, y: &Vec3) -> (Vec3, Vec3, f64) {
    // Sort the axes decreasing, reflect into the first octant.
    let mut order = [0usize, 1, 2];
    order.sort_by(|&i, &j| a[j].total_cmp(&a[i]));
    let e = [a[order[0]], a[order[1]], a[order[2]]];
    let z = [y[order[0]].abs(), y[order[1]].abs(), y[order[2]].abs()];
    let x = octant_closest(e, z);
    let mut point = Vec3::zeros();
    for k in 0..3 {
        point[order[k]] = x[k].copysign(if y[order[k]] == 0.0 { 1.0 } else { y[order[k]] });
    }
    let gradient = point.component_div(&a.component_mul(a));
    let normal = gradient.try_normalize(0.0).unwrap_or_else(Vec3::z);
    let inside = y.component_div(a).norm_squared() < 1.0;
    let distance = (y - point).norm();
    (point, normal, if inside { -distance } else { distance })
}

/// Eberly's closest point for `e0 >= e1 >= e2 > 0` and `y >= 0`.
fn octant_closest(e: [f64; 3], y: [f64; 3]) -> [f64; 3] {
    if y[2] > 0.0 {
        if y[1] > 0.0 {
            if y[0] > 0.0 {
                let z = [y[0] / e[0], y[1] / e[1], y[2] / e[2]];
                let g = z[0] * z[0] + z[1] * z[1] + z[2] * z[2] - 1.0;
                if g == 0.0 {
                    return y;
                }
                let r = [(e[0] / e[2]).powi(2), (e[1] / e[2]).powi(2)];
                let s = root3(r, z, g);
                return [r[0] * y[0] / (s + r[0]), r[1] * y[1] / (s + r[1]), y[2] / (s + 1.0)];
            }
            let [x1, x2] = ellipse_closest([e[1], e[2]], [y[1], y[2]]);
            return [0.0, x1, x2];
        }
        if y[0] > 0.0 {
            let [x0, x2] = ellipse_closest([e[0], e[2]], [y[0], y[2]]);
            return [x0, 0.0, x2];
        }
        return [0.0, 0.0, e[2]];
    }
    // y2 = 0: the closest point may leave the plane z = 0 (inside, near the smallest axis).
    let (d0, d1) = (e[0] * e[0] - e[2] * e[2], e[1] * e[1] - e[2] * e[2]);
    let (n0, n1) = (e[0] * y[0], e[1] * y[1]);
    if n0 < d0 && n1 < d1 {
        let (q0, q1) = (n0 / d0, n1 / d1);
        let discriminant = 1.0 - q0 * q0 - q1 * q1;
        if discriminant > 0.0 {
            return [e[0] * q0, e[1] * q1, e[2] * discriminant.sqrt()];
        }
    }
    let [x0, x1] = ellipse_closest([e[0], e[1]], [y[0], y[1]]);
    [x0, x1, 0.0]
}

/// Eberly's closest point on the ellipse with semi-axes `e0 >= e1` to `y >= 0`.
fn ellipse_closest(e: [f64; 2], y: [f64; 2]) -> [f64; 2] {
    if y[1] > 0.0 {
        if y[0] > 0.0 {
            let z = [y[0] / e[0], y[1] / e[1]];
            let g = z[0] * z[0] + z[1] * z[1] - 1.0;
            if g == 0.0 {
                return y;
            }
            let r0 = (e[0] / e[1]).powi(2);
            let s = root2(r0, z, g);
            return [r0 * y[0] / (s + r0), y[1] / (s + 1.0)];
        }
        return [0.0, e[1]];
    }
    let (numerator, denominator) = (e[0] * y[0], e[0] * e[0] - e[1] * e[1]);
    if numerator < denominator {
        let q = numerator / denominator;
        return [e[0] * q, e[1] * (1.0 - q * q).max(0.0).sqrt()];
    }
    [e[0], 0.0]
}

/// Bisection for the root of a decreasing function on [lo, hi], to the last representable bit.
fn bisect(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    for _ in 0..2100 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            return mid;
        }
        let value = f(mid);
        if value > 0.0 {
            lo = mid;
        } else if value < 0.0 {
            hi = mid;
        } else {
            return mid;
        }
    }
    0.5 * (lo + hi)
}

fn root2(r0: f64, z: [f64; 2], g: f64) -> f64 {
    let n0 = r0 * z[0];
    let lo = z[1] - 1.0;
    let hi = if g < 0.0 { 0.0 } else { n0.hypot(z[1]) - 1.0 };
    bisect(lo, hi, |s| (n0 / (s + r0)).powi(2) + (z[1] / (s + 1.0)).powi(2) - 1.0)
}

fn root3(r: [f64; 2], z: [f64; 3], g: f64) -> f64 {
    let (n0, n1) = (r[0] * z[0], r[1] * z[1]);
    let lo = z[2] - 1.0;
    let hi = if g < 0.0 { 0.0 } else { n0.hypot(n1).hypot(z[2]) - 1.0 };
    bisect(lo, hi, |s| (n0 / (s + r[0])).powi(2) + (n1 / (s + r[1])).powi(2) + (z[2] / (s + 1.0)).powi(2) - 1.0)
}

/// Canonical pair function: plane (base) and ellipsoid (follower), in closed form. The
/// ellipsoid's point deepest below the plane is its support point along `-n`:
/// `x = -A^2 m / |A m|` with `m = R^T n` (n in the ellipsoid's frame), so
/// `separation = (c - o) · n - sqrt(m^T A^2 m)`.
pub(super) fn plane_contacts(_: &Shape, plane: &Pose, ellipsoid: &Shape, pose: &Pose, out: &mut Vec<ContactPoint>) {
    let Shape::Ellipsoid { semi_axes } = ellipsoid else {
        return;
    };
    let n = plane.q * Vec3::z();
    let local = super::convex::ellipsoid_support(semi_axes, &(pose.q.inverse() * -n));
    let p_b = pose.transform_point(&local);
    let height = (p_b - plane.r).dot(&n);
    out.push(ContactPoint::new(p_b - n * height, p_b, n));
}

/// The point `id` over any [`Real`] frames of the base (`base_frame`) and the follower
/// (`follower_frame`): with dual frames, its derivatives (`kinematics.rs`).
pub(super) fn plane_point_over<S: Real>(_: &Shape, fb: &Frame<S>, follower: &Shape, ff: &Frame<S>, _: u32) -> ContactPoint<S> {
    let Shape::Ellipsoid { semi_axes: a } = follower else { unreachable!("ellipsoid-plane with {:?}", follower.kind()) };
    // The support point along -n: A^2 d / |A d| with d = -n in the ellipsoid's frame.
    let d = ff.local(&(ff.r - fb.axes[2]));
    let ad = Vector3::new(d.x * a.x, d.y * a.y, d.z * a.z);
    let norm = S::norm(&ad);
    let local = if norm.v() == 0.0 { Vector3::new(S::c(0.0), S::c(0.0), S::c(a.z)) } else { Vector3::new(ad.x * a.x, ad.y * a.y, ad.z * a.z) / norm };
    plane_sphere::plane_point(fb, ff.point(&local))
}

/// The nearest surface point to `p` (in the ellipsoid's frame), the outward normal and the signed
/// distance, over any [`Real`]: [`closest_point`]'s root, differentiated.
pub(super) fn surface_over<S: Real>(a: &Vec3, p: &Vector3<S>) -> (Vector3<S>, Vector3<S>, S) {
    // The f64 query's root t of F(t) = sum (a_i y_i / (t + a_i^2))^2 - 1 (from its
    // point, x_i = a_i^2 y_i / (t + a_i^2)), then one Newton step on F over the Real y:
    // at the root, the step's tangent is the implicit function's, -F_y dy / F_t, exact.
    // Where a coordinate of y is exactly 0 the point can leave that plane (Eberly's
    // special cases) and the derivatives come out non-finite, which the FMU reports.
    let y = S::vv(p);
    let (x, _, distance) = closest_point(a, &y);
    let k = (0..3).max_by(|&i, &j| (x[i] / a[i]).abs().total_cmp(&(x[j] / a[j]).abs())).unwrap_or(2);
    let t = a[k] * a[k] * (y[k] - x[k]) / x[k];
    let term = |i: usize| p[i] * (a[i] / (t + a[i] * a[i]));
    let f = term(0) * term(0) + term(1) * term(1) + term(2) * term(2) - 1.0;
    let slope: f64 = (0..3).map(|i| -2.0 * (a[i] * y[i]).powi(2) / (t + a[i] * a[i]).powi(3)).sum();
    let root = -(f / slope) + t;
    let point = Vector3::new(p.x * (a.x * a.x) / (root + a.x * a.x), p.y * (a.y * a.y) / (root + a.y * a.y), p.z * (a.z * a.z) / (root + a.z * a.z));
    let gradient = Vector3::new(point.x / (a.x * a.x), point.y / (a.y * a.y), point.z / (a.z * a.z));
    let normal = gradient / S::norm(&gradient);
    let gap = S::norm(&(p - point));
    (point, normal, if distance < 0.0 { -gap } else { gap })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closest point is on the surface and the offset to the query lies along its normal.
    fn check(a: Vec3, y: Vec3) -> f64 {
        let (x, n, d) = closest_point(&a, &y);
        assert!((x.component_div(&a).norm_squared() - 1.0).abs() < 1e-12, "{x:?} is off the surface");
        assert!(((y - x) - n * d).norm() < 1e-10 * (1.0 + d.abs()), "y - x = {:?}, n d = {:?}", y - x, n * d);
        d
    }

    #[test]
    fn closest_points_inside_outside_and_on_axes() {
        let a = Vec3::new(0.9, 0.5, 0.3);
        // On an axis, outside: distance along it.
        assert!((check(a, Vec3::new(2.0, 0.0, 0.0)) - 1.1).abs() < 1e-14);
        assert!((check(a, Vec3::new(0.0, 0.0, -1.0)) - 0.7).abs() < 1e-14);
        // Centre: the nearest surface is the end of the smallest axis.
        assert!((check(a, Vec3::zeros()) + 0.3).abs() < 1e-14);
        // General points in every octant, inside and outside.
        for k in 0..40 {
            let t = k as f64 * 0.37;
            let y = Vec3::new(1.3 * t.sin(), 0.8 * (1.7 * t).cos(), 0.6 * (2.3 * t).sin()) * (0.2 + 0.05 * k as f64);
            let d = check(a, y);
            assert_eq!(d < 0.0, y.component_div(&a).norm_squared() < 1.0);
        }
        // Inside on the plane z = 0 near the centre: the closest point leaves that plane.
        let d = check(a, Vec3::new(0.1, 0.05, 0.0));
        assert!(d < 0.0 && d > -0.3);
    }

    #[test]
    fn equal_axes_give_the_sphere() {
        let y = Vec3::new(0.3, -0.4, 1.2);
        let (x, n, d) = closest_point(&Vec3::repeat(0.5), &y);
        assert!((d - (y.norm() - 0.5)).abs() < 1e-14);
        assert!((n - y.normalize()).norm() < 1e-14);
        assert!((x - y.normalize() * 0.5).norm() < 1e-14);
    }
}
