//! Any shape with a surface query (base) against a point or a sphere (follower): the sphere's
//! centre is the query point; the separation is its signed distance minus the radius. Exact for
//! every shape whose `to_surface` is exact, convex or not.

use nalgebra::Vector3;

use super::distance::to_surface;
use super::{sphere_radius, ContactPoint};
use crate::math::Pose;
use crate::shape::Shape;
use super::frame::Frame;
use crate::real::Real;

/// Canonical pair function: a shape with a surface (base) and a sphere or point (follower).
pub(super) fn contacts(base: &Shape, base_pose: &Pose, follower: &Shape, centre: &Pose, out: &mut Vec<ContactPoint>) {
    let Some(surface) = to_surface(base, base_pose, &centre.r) else {
        return;
    };
    let radius = sphere_radius(follower);
    let n = surface.normal_w;
    let mut point = ContactPoint::new(surface.point_w, centre.r - n * radius, n);
    point.separation = surface.distance - radius;
    out.push(point);
}

/// The point `id` over any [`Real`] frames of the base (`base_frame`) and the follower
/// (`follower_frame`): with dual frames, its derivatives (`kinematics.rs`).
pub(super) fn point_over<S: Real>(base: &Shape, fb: &Frame<S>, follower: &Shape, ff: &Frame<S>, _: u32) -> ContactPoint<S> {
    let radius = sphere_radius(follower);
    let (s, n, distance) = surface(base, fb, &ff.r);
    let mut p = ContactPoint::new(s, ff.r - n * S::c(radius), n);
    p.separation = distance - radius;
    p
}

/// The nearest surface point of `shape` (its frame `frame`) to `p_w`, the outward normal and the
/// signed distance, in W: `distance::to_surface` over any [`Real`].
pub(super) fn surface<S: Real>(shape: &Shape, frame: &Frame<S>, p_w: &Vector3<S>) -> (Vector3<S>, Vector3<S>, S) {
    if let Shape::Plane = shape {
        // The plane through the frame's origin normal to its z axis, in W directly (as
        // `cloud_surface` and `plane_sphere` compute it): the height along the normal and the
        // foot. The same function of the frame as through the local coordinates below, for a
        // third of the operations.
        let n = frame.axes[2];
        let height = (p_w - frame.r).dot(&n);
        return (p_w - n * height, n, height);
    }
    let local = frame.local(p_w);
    let (point, normal, distance) = local_surface(shape, &local);
    (frame.point(&point), frame.vector(&normal), distance)
}

/// `distance::local_surface` over any [`Real`], for the closed-form surfaces: the same branches,
/// decided on the values.
pub(super) fn local_surface<S: Real>(shape: &Shape, p: &Vector3<S>) -> (Vector3<S>, Vector3<S>, S) {
    let zero = S::c(0.0);
    let z = Vector3::new(zero, zero, S::c(1.0));
    let flat = |p: &Vector3<S>| Vector3::new(p.x, p.y, zero);
    let from = |q: Vector3<S>, fallback: Vector3<S>| {
        let offset = p - q;
        let norm = S::norm(&offset);
        let normal = if norm.v() > 0.0 { offset / norm } else { fallback };
        (q, normal, norm)
    };
    match shape {
        Shape::Plane => (flat(p), z, p.z),
        Shape::Sphere { radius } => {
            let norm = S::norm(p);
            let normal = if norm.v() > 1e-300 { p / norm } else { z };
            (normal * S::c(*radius), normal, norm - *radius)
        }
        Shape::Capsule { radius, half_length } => {
            let axis_point = Vector3::new(zero, zero, clamp(p.z, *half_length));
            let offset = p - axis_point;
            let norm = S::norm(&offset);
            let normal = if norm.v() > 1e-300 { offset / norm } else { Vector3::x() };
            (axis_point + normal * S::c(*radius), normal, norm - *radius)
        }
        Shape::Box { half_extents: h } => {
            let clamped = Vector3::new(clamp(p.x, h.x), clamp(p.y, h.y), clamp(p.z, h.z));
            let offset = p - clamped;
            let norm = S::norm(&offset);
            if norm.v() > 0.0 {
                return (clamped, offset / norm, norm);
            }
            let depth = [S::c(h.x) - p.x.abs(), S::c(h.y) - p.y.abs(), S::c(h.z) - p.z.abs()];
            let k = if depth[0].v() <= depth[1].v() && depth[0].v() <= depth[2].v() {
                0
            } else if depth[1].v() <= depth[2].v() {
                1
            } else {
                2
            };
            let sign = if p[k].v() < 0.0 { -1.0 } else { 1.0 };
            let mut point = *p;
            point[k] = S::c(sign * h[k]);
            let mut normal = Vector3::zeros();
            normal[k] = S::c(sign);
            (point, normal, -depth[k])
        }
        Shape::Cylinder { radius, half_length } => {
            let rho = S::norm(&flat(p));
            let radial = if rho.v() > 1e-300 { flat(p) / rho } else { Vector3::x() };
            let z_sign = if p.z.v() < 0.0 { -1.0 } else { 1.0 };
            let nearest = radial * rho.min(S::c(*radius)) + z * clamp(p.z, *half_length);
            let offset = p - nearest;
            let norm = S::norm(&offset);
            if (rho.v() > *radius || p.z.v().abs() > *half_length) && norm.v() > 0.0 {
                return (nearest, offset / norm, norm);
            }
            let (side_depth, cap_depth) = (-rho + *radius, -p.z.abs() + *half_length);
            if side_depth.v() <= cap_depth.v() {
                (radial * S::c(*radius) + z * p.z, radial, -side_depth)
            } else {
                (Vector3::new(p.x, p.y, S::c(z_sign * half_length)), z * S::c(z_sign), -cap_depth)
            }
        }
        Shape::Disk { radius } => {
            let rho = S::norm(&flat(p));
            if rho.v() <= *radius {
                (flat(p), z, p.z)
            } else {
                from(flat(p) * (S::c(*radius) / rho), z)
            }
        }
        Shape::Rectangle { half_x, half_y } => {
            if p.x.v().abs() <= *half_x && p.y.v().abs() <= *half_y {
                (flat(p), z, p.z)
            } else {
                from(Vector3::new(clamp(p.x, *half_x), clamp(p.y, *half_y), zero), z)
            }
        }
        Shape::GridSurface(field) => {
            let cell = |s: S, nodes: usize| {
                let index = (s.v().floor().max(0.0) as usize).min(nodes - 2);
                (index, s - index as f64)
            };
            let (i, u) = cell((p.x - field.x0) / field.dx, field.nx);
            let (j, v) = cell((p.y - field.y0) / field.dy, field.ny);
            let at = |di: usize, dj: usize| field.heights[(j + dj) * field.nx + i + di];
            let (h00, h10, h01, h11) = (at(0, 0), at(1, 0), at(0, 1), at(1, 1));
            let (iu, iv) = (-u + 1.0, -v + 1.0);
            let height = iu * iv * h00 + u * iv * h10 + iu * v * h01 + u * v * h11;
            let h_x = (iv * (h10 - h00) + v * (h11 - h01)) / field.dx;
            let h_y = (iu * (h01 - h00) + u * (h11 - h10)) / field.dy;
            let raw = Vector3::new(-h_x, -h_y, S::c(1.0));
            let normal = raw / S::norm(&raw);
            let distance = (p.z - height) * normal.z;
            (p - normal * distance, normal, distance)
        }
        Shape::Ellipsoid { semi_axes } => super::ellipsoid::surface_over(semi_axes, p),
        Shape::ConvexHull(hull) => super::kinematics_polytope::hull_surface(hull, p),
        Shape::Mesh(mesh) => super::kinematics_mesh::mesh_surface(mesh, p),
        _ => unreachable!("no closed-form surface query for {:?}", shape.kind()),
    }
}

/// `x.clamp(-h, h)`, decided on the value.
fn clamp<S: Real>(x: S, h: f64) -> S {
    if x.v() < -h {
        S::c(-h)
    } else if x.v() > h {
        S::c(h)
    } else {
        x
    }
}
