//! The surface query of a triangle mesh (`mesh::surface`: a sphere, point or cloud point
//! against a mesh) over any [`Real`]: the triangle parry's projection landed on, and on it the
//! vertex, edge or interior the nearest point lies in, held as the `f64` query found them, as is
//! the sign (inside or outside, from parry's pseudo-normals). The nearest point is then the
//! vertex, the projection on the edge's line or on the triangle's plane, and the normal and
//! signed distance follow from the offset to it. On the surface itself (no offset: the sign
//! flips there) the derivatives are NaN, which the FMU reports as not finite.

use nalgebra::Vector3;
use parry3d_f64::query::PointQueryWithLocation;

use crate::shape::parry::{from_parry_vec, to_parry_vec};
use crate::math::Vec3;
use crate::real::Real;
use crate::shape::TriangleMesh;

/// Features identified to this fraction of the triangle's size.
const FEATURE_TOLERANCE: f64 = 1e-9;

/// `mesh::surface` over the Real at the local point `p` (mesh frame): nearest point, outward
/// normal and signed distance.
pub(super) fn mesh_surface<S: Real>(mesh: &TriangleMesh, p: &Vector3<S>) -> (Vector3<S>, Vector3<S>, S) {
    let value = S::vv(p);
    let (projection, (triangle, _)) = mesh.trimesh.project_local_point_and_get_location(to_parry_vec(&value), false);
    let nearest = from_parry_vec(projection.point);
    let sign = if projection.is_inside { -1.0 } else { 1.0 };
    let t = mesh.trimesh.triangle(triangle);
    let corners: [Vec3; 3] = [t.a, t.b, t.c].map(from_parry_vec);
    let size = (corners[1] - corners[0]).norm().max((corners[2] - corners[0]).norm()).max((corners[2] - corners[1]).norm());
    let tolerance = FEATURE_TOLERANCE * size.max(1e-300) * (1.0 + value.norm() / size.max(1e-300));
    let dual: [Vector3<S>; 3] = corners.map(|c| S::vc(&c));
    let on_line = |i: usize, j: usize| {
        let d = corners[j] - corners[i];
        let s = ((nearest - corners[i]).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
        (corners[i] + d * s - nearest).norm() <= tolerance
    };
    let q = if let Some(i) = (0..3).find(|&i| (corners[i] - nearest).norm() <= tolerance) {
        dual[i]
    } else if let Some((i, j)) = [(0, 1), (1, 2), (2, 0)].into_iter().find(|&(i, j)| on_line(i, j)) {
        let d = dual[j] - dual[i];
        dual[i] + d * ((p - dual[i]).dot(&d) / d.dot(&d))
    } else {
        let n = (dual[1] - dual[0]).cross(&(dual[2] - dual[0]));
        let n = n / S::norm(&n);
        p - n * (p - dual[0]).dot(&n)
    };
    let offset = p - q;
    let distance = S::norm(&offset);
    if distance.v() > 1e-12 * (1.0 + value.norm()) {
        return (q, offset / (distance * sign), distance * sign);
    }
    // On the surface: NaN tangents, the f64 values.
    let (point, normal, signed) = super::mesh::surface(mesh, &value);
    let poison = p.x * f64::NAN;
    let v = |x: &Vec3| S::vc(x) + Vector3::new(poison, poison, poison);
    (v(&point), v(&normal), poison + signed)
}
