//! Triangle meshes: the surface query (closest point, outward normal, signed distance), which
//! gives the point-mesh, sphere-mesh and point cloud-mesh pairs, and the mesh (A) against a
//! convex shape (B) through parry's composite-shape contact manifolds.
//!
//! Inside and outside: the sign of the distance comes from parry's pseudo-normals (the
//! angle-weighted normal at a vertex, the mean of the two face normals at an edge, the face
//! normal inside a face): the query point is inside when it lies behind the pseudo-normal at its
//! closest surface point. For a closed mesh (every edge shared by two triangles; turned outward
//! when read) this is the exact solid inside. An open mesh (a terrain patch, a single sheet) is a
//! one-sided surface: a point behind its nearest triangle counts as inside, at the (negative)
//! distance to that triangle, as below a plane; beyond the open border the nearest point is on
//! the border and the sign follows the border's pseudo-normal.
//!
//! Mesh against a convex shape: parry gives one manifold per triangle near the shape (it clips
//! the triangle against the shape's support face, with the pseudo-normal constraints that stop
//! internal edges from catching). Every point below zero separation is kept, points that two
//! triangles share (the same witnesses to 1e-9 of the size) are counted once, and the deepest
//! [`MAX_MESH_POINTS`] are reported, each at weight 1; the slot in order of depth is the id.
//! Apart, the one closest pair. Parry clips a triangle against a face truncated to 4 vertices
//! and a cylinder cap approximated by a square, so mesh-convex contact is an approximation of
//! the resting load distribution (flat contacts against a face split by a triangle diagonal get
//! extra points along it); mesh-plane (every vertex) is exact.

use parry3d_f64::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d_f64::query::PointQueryWithLocation;
use parry3d_f64::shape::PackedFeatureId;

use crate::shape::parry::{from_parry_vec, to_parry_shape, to_parry_vec};
use super::ContactPoint;
use crate::math::{Pose, Vec3};
use crate::shape::{Shape, TriangleMesh};

/// The most points a mesh-convex pair reports.
pub const MAX_MESH_POINTS: usize = 16;

/// The closest surface point of the mesh to `local` (mesh frame), its outward normal and the
/// signed distance (negative inside), in the mesh frame.
pub(super) fn surface(mesh: &TriangleMesh, local: &Vec3) -> (Vec3, Vec3, f64) {
    let (projection, (triangle, _)) = mesh.trimesh.project_local_point_and_get_location(to_parry_vec(local), false);
    let point = from_parry_vec(projection.point);
    let offset = local - point;
    let distance = offset.norm();
    let sign = if projection.is_inside { -1.0 } else { 1.0 };
    let face_normal = || from_parry_vec(mesh.trimesh.triangle(triangle).scaled_normal()).try_normalize(0.0).unwrap_or_else(Vec3::z);
    // On the surface itself the offset has no direction: the triangle's normal.
    let normal = if distance > 1e-12 * (1.0 + local.norm()) { offset / (sign * distance) } else { face_normal() };
    (point, normal, sign * distance)
}

/// The surface query of a mesh at `pose` for the point `p_w`, in W: the surface point, its
/// outward normal and the signed distance (as `distance::SurfacePoint` holds them).
pub(super) fn to_surface(mesh: &TriangleMesh, pose: &Pose, p_w: &Vec3) -> (Vec3, Vec3, f64) {
    let local = pose.q.inverse() * (p_w - pose.r);
    let (point, normal, distance) = surface(mesh, &local);
    (pose.transform_point(&point), pose.q * normal, distance)
}

/// Canonical pair function: mesh (base) and a convex shape parry represents (follower).
pub(super) fn contacts(base: &Shape, base_pose: &Pose, follower: &Shape, follower_pose: &Pose, out: &mut Vec<ContactPoint>) {
    let (Some(mesh), Some(convex)) = (to_parry_shape(base), to_parry_shape(follower)) else {
        return;
    };
    let (pos1, pos2) = (mesh.pose(base_pose), convex.pose(follower_pose));
    let pos12 = pos1.inv_mul(&pos2);
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    let _ = DefaultQueryDispatcher.contact_manifolds(&pos12, &*mesh.shape, &*convex.shape, 0.0, &mut manifolds, &mut None);
    let aabb = convex.shape.compute_aabb(&pos2);
    let tolerance = 1e-9 * (aabb.maxs - aabb.mins).length();
    let mut points: Vec<ContactPoint> = Vec::new();
    for manifold in &manifolds {
        let known = |p: &parry3d_f64::query::TrackedContact<()>| p.fid1 != PackedFeatureId::UNKNOWN || p.fid2 != PackedFeatureId::UNKNOWN;
        let has_known = manifold.points.iter().any(known);
        let n = from_parry_vec(pos1.rotation * manifold.local_n1);
        for contact in &manifold.points {
            // The extra GJK point parry adds to a clipped manifold would count the contact twice.
            if contact.dist > 0.0 || (has_known && !known(contact)) {
                continue;
            }
            let p_a = from_parry_vec(pos1 * contact.local_p1);
            let p_b = from_parry_vec(pos2 * contact.local_p2);
            if points.iter().any(|q| (q.p_a_w - p_a).norm() <= tolerance && (q.p_b_w - p_b).norm() <= tolerance) {
                continue;
            }
            points.push(ContactPoint::new(p_a, p_b, n));
        }
    }
    if points.is_empty() {
        // Apart: the nearest triangle by GJK (parry's composite closest-point query misses it).
        if let Some(follower_convex) = super::convex::Convex::of(follower) {
            if let Shape::Mesh(m) = base {
                let nearest = m
                    .triangles
                    .iter()
                    .filter_map(|t| {
                        let triangle = super::convex::Convex::Triangle([m.vertices[t[0] as usize], m.vertices[t[1] as usize], m.vertices[t[2] as usize]]);
                        super::convex::closest_pair(&triangle, base_pose, &follower_convex, follower_pose)
                    })
                    .min_by(|x, y| x.3.total_cmp(&y.3));
                if let Some((p_a, p_b, n, dist)) = nearest {
                    if dist > 0.0 {
                        out.push(ContactPoint::new(p_a, p_b, n));
                        return;
                    }
                }
            }
        }
        // Touching without a penetrating point: the surface below the follower's centre.
        if let Shape::Mesh(m) = base {
            let (point_w, normal_w, _) = to_surface(m, base_pose, &follower_pose.r);
            let mut point = ContactPoint::new(point_w, point_w, normal_w);
            point.separation = 0.0;
            out.push(point);
        }
        return;
    }
    points.sort_by(|a, b| a.separation.total_cmp(&b.separation));
    points.truncate(MAX_MESH_POINTS);
    out.extend(points.into_iter().enumerate().map(|(id, p)| p.with_id(id as u32)));
}

/// Up to [`MAX_MESH_POINTS`] ids.
pub(super) fn point_count(_: &Shape, _: &Shape) -> usize {
    MAX_MESH_POINTS
}
