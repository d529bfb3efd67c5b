//! The boundary with parry3d-f64: conversions between this crate's nalgebra types and parry's
//! glam types (`DVec3`, `DPose3`), parry shapes for our shapes, and the construction of the file
//! shapes (hull, mesh) whose derived data parry computes once.
//!
//! Axis conventions differ: our cylinder's axis is local z, parry's is local y, so a parry shape
//! comes with an `offset` (its frame in our geometry frame). Flat shapes (Disk, Rectangle) are
//! finite patches of the half-space below them (a point under the patch is inside, as for a
//! Plane), so their parry shapes are prisms hanging below the patch, `depth` deep: the top face is
//! exactly the patch, its normal is exactly +z (a flat face of a polyhedron or of a cylinder cap,
//! not the rounded rim of a thin shape), and a follower pressed into the patch keeps the normal
//! +z until it is `depth` deep instead of flipping at half a thickness.

use std::collections::HashMap;

use parry3d_f64::math::{Pose as ParryPose, Rotation as ParryRotation, Vector as ParryVec};
use parry3d_f64::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Cylinder, HalfSpace, SharedShape, TriMesh, TriMeshFlags};

use super::gauss_map::GaussMap;
use super::vertex_tree::VertexTree;
use crate::math::{Pose, Rotation, Vec3};
use crate::shape::{ConvexHull, HullFace, HullGraph, Shape, TriangleMesh};

pub fn to_parry_vec(v: &Vec3) -> ParryVec {
    ParryVec::new(v.x, v.y, v.z)
}

pub fn from_parry_vec(v: ParryVec) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

pub fn to_parry_rotation(q: &Rotation) -> ParryRotation {
    ParryRotation::from_xyzw(q.i, q.j, q.k, q.w)
}

pub fn to_parry_pose(pose: &Pose) -> ParryPose {
    ParryPose::from_parts(to_parry_vec(&pose.r), to_parry_rotation(&pose.q))
}

/// How deep the prism of a flat shape reaches below its patch: its largest in-plane dimension.
pub fn flat_depth(shape: &Shape) -> f64 {
    match shape {
        Shape::Disk { radius } => 2.0 * radius,
        Shape::Rectangle { half_x, half_y } => 2.0 * half_x.max(*half_y),
        _ => 0.0,
    }
}

/// A parry shape standing for one of ours, with its frame in our geometry frame.
#[derive(Clone)]
pub struct ParryShape {
    pub shape: SharedShape,
    pub offset: ParryPose,
}

impl ParryShape {
    /// Parry's pose of the shape when ours is at `pose`.
    pub fn pose(&self, pose: &Pose) -> ParryPose {
        to_parry_pose(pose) * self.offset
    }
}

/// Parry's shape for ours: Box -> Cuboid, Cylinder -> Cylinder (axis turned from y to z),
/// Capsule -> Capsule along z, Sphere -> Ball, ConvexHull -> ConvexPolyhedron, Disk -> a cylinder
/// prism below the disk, Rectangle -> a cuboid prism below it, Plane -> HalfSpace, Mesh -> TriMesh.
/// `None` for shapes parry has no counterpart of (Point, Ellipsoid, PointCloud, GridSurface,
/// Compound).
pub fn to_parry_shape(shape: &Shape) -> Option<ParryShape> {
    let at = |z: f64| ParryPose::from_translation(ParryVec::new(0.0, 0.0, z));
    // Parry's cylinder axis is y; a quarter turn about x takes y to z.
    let y_to_z = ParryRotation::from_rotation_x(std::f64::consts::FRAC_PI_2);
    let (parry, offset) = match shape {
        Shape::Box { half_extents } => (SharedShape::new(Cuboid::new(to_parry_vec(half_extents))), ParryPose::IDENTITY),
        Shape::Cylinder { radius, half_length } => {
            (SharedShape::new(Cylinder::new(*half_length, *radius)), ParryPose::from_rotation(y_to_z))
        }
        Shape::Capsule { radius, half_length } => {
            (SharedShape::new(Capsule::new_z(*half_length, *radius)), ParryPose::IDENTITY)
        }
        Shape::Sphere { radius } => (SharedShape::new(Ball::new(*radius)), ParryPose::IDENTITY),
        Shape::ConvexHull(hull) => (SharedShape::new(hull.polyhedron.clone()), ParryPose::IDENTITY),
        Shape::Disk { radius } => {
            let depth = flat_depth(shape);
            (SharedShape::new(Cylinder::new(depth / 2.0, *radius)), ParryPose::from_parts(ParryVec::new(0.0, 0.0, -depth / 2.0), y_to_z))
        }
        Shape::Rectangle { half_x, half_y } => {
            let depth = flat_depth(shape);
            (SharedShape::new(Cuboid::new(ParryVec::new(*half_x, *half_y, depth / 2.0))), at(-depth / 2.0))
        }
        Shape::Plane => (SharedShape::new(HalfSpace::new(ParryVec::Z)), ParryPose::IDENTITY),
        Shape::Mesh(mesh) => (SharedShape::new(mesh.trimesh.clone()), ParryPose::IDENTITY),
        Shape::Point | Shape::Ellipsoid { .. } | Shape::PointCloud(_) | Shape::GridSurface(_) | Shape::Compound(_) => return None,
    };
    Some(ParryShape { shape: parry, offset })
}

/// The hull of `points` with its faces (parry merges coplanar triangles into polygons).
pub(crate) fn convex_hull(points: &[Vec3]) -> Result<ConvexHull, String> {
    if points.len() < 4 {
        return Err(format!("a convex hull needs at least 4 points spanning a volume, found {}", points.len()));
    }
    let parry_points: Vec<ParryVec> = points.iter().map(to_parry_vec).collect();
    let polyhedron = ConvexPolyhedron::from_convex_hull(&parry_points)
        .ok_or_else(|| "the points span no volume (all on one plane or line), so they have no convex hull".to_string())?;
    let vertices: Vec<Vec3> = polyhedron.points().iter().map(|p| from_parry_vec(*p)).collect();
    let adjacency = polyhedron.vertices_adj_to_face();
    let mut faces = Vec::with_capacity(polyhedron.faces().len());
    for face in polyhedron.faces() {
        let first = face.first_vertex_or_edge as usize;
        let mut ids: Vec<u32> = adjacency[first..first + face.num_vertices_or_edges as usize].to_vec();
        let normal = from_parry_vec(face.normal);
        // Counter-clockwise seen from outside: the polygon's area vector along the normal.
        let mut area = Vec3::zeros();
        for k in 0..ids.len() {
            area += vertices[ids[k] as usize].cross(&vertices[ids[(k + 1) % ids.len()] as usize]);
        }
        if area.dot(&normal) < 0.0 {
            ids.reverse();
        }
        faces.push(HullFace { vertices: ids, normal });
    }
    if vertices.len() < 4 || faces.len() < 4 {
        return Err("the points span no volume (all on one plane or line), so they have no convex hull".to_string());
    }
    let graph = HullGraph::new(&vertices, &faces);
    let vertex_tree = VertexTree::new(&vertices);
    let gauss = GaussMap::new(&vertices, &faces, &graph);
    Ok(ConvexHull { vertices, faces, polyhedron, graph, vertex_tree, gauss })
}

/// The mesh of `vertices` and `triangles`: duplicate vertices merged (exact positions), triangles
/// without area dropped, a closed mesh turned outward (positive enclosed volume), then parry's
/// mesh with pseudo-normals (its inside test) built once.
pub(crate) fn triangle_mesh(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<TriangleMesh, String> {
    if let Some(t) = triangles.iter().flatten().find(|&&i| i as usize >= vertices.len()) {
        return Err(format!("a triangle refers to vertex {t} but there are {} vertices", vertices.len()));
    }
    let mut merged: Vec<Vec3> = Vec::new();
    let mut index_of: HashMap<[u64; 3], u32> = HashMap::new();
    let mut remap = Vec::with_capacity(vertices.len());
    for v in vertices {
        let key = [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
        let index = *index_of.entry(key).or_insert_with(|| {
            merged.push(*v);
            merged.len() as u32 - 1
        });
        remap.push(index);
    }
    let mut kept: Vec<[u32; 3]> = Vec::with_capacity(triangles.len());
    for t in triangles {
        let t = [remap[t[0] as usize], remap[t[1] as usize], remap[t[2] as usize]];
        let (a, b, c) = (merged[t[0] as usize], merged[t[1] as usize], merged[t[2] as usize]);
        if (b - a).cross(&(c - a)).norm() > 0.0 {
            kept.push(t);
        }
    }
    if kept.is_empty() {
        return Err("holds no triangle with an area".to_string());
    }
    // Closed: every undirected edge is used by exactly two triangles.
    let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
    for t in &kept {
        for k in 0..3 {
            let (i, j) = (t[k], t[(k + 1) % 3]);
            *edges.entry((i.min(j), i.max(j))).or_insert(0) += 1;
        }
    }
    let closed = edges.values().all(|&n| n == 2);
    if closed {
        let volume: f64 = kept
            .iter()
            .map(|t| merged[t[0] as usize].dot(&merged[t[1] as usize].cross(&merged[t[2] as usize])))
            .sum();
        if volume < 0.0 {
            for t in &mut kept {
                t.swap(1, 2);
            }
        }
    }
    let flags = TriMeshFlags::ORIENTED | TriMeshFlags::FIX_INTERNAL_EDGES;
    let trimesh = TriMesh::with_flags(merged.iter().map(to_parry_vec).collect(), kept, flags)
        .map_err(|e| format!("is not a usable triangle mesh: {e}"))?;
    let vertices: Vec<Vec3> = trimesh.vertices().iter().map(|v| from_parry_vec(*v)).collect();
    let triangles = trimesh.indices().to_vec();
    let vertex_tree = VertexTree::new(&vertices);
    Ok(TriangleMesh { vertices, triangles, closed, trimesh, vertex_tree })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poses_map_points_as_ours_do() {
        let pose = Pose { r: Vec3::new(0.3, -1.0, 2.0), q: Rotation::from_axis_angle(&Vec3::y_axis(), 0.7) };
        let p = Vec3::new(0.1, 0.2, -0.4);
        let mapped = from_parry_vec(to_parry_pose(&pose) * to_parry_vec(&p));
        assert!((mapped - pose.transform_point(&p)).norm() < 1e-15);
    }

    #[test]
    fn cylinder_and_disk_axes_are_local_z() {
        let cylinder = to_parry_shape(&Shape::Cylinder { radius: 0.5, half_length: 2.0 }).unwrap();
        let aabb = cylinder.shape.compute_aabb(&cylinder.pose(&Pose::identity()));
        assert!((aabb.maxs.z - 2.0).abs() < 1e-12 && (aabb.maxs.x - 0.5).abs() < 1e-12);
        let disk = to_parry_shape(&Shape::Disk { radius: 0.5 }).unwrap();
        let aabb = disk.shape.compute_aabb(&disk.pose(&Pose::identity()));
        assert!(aabb.maxs.z.abs() < 1e-12 && (aabb.mins.z + 1.0).abs() < 1e-12 && (aabb.maxs.y - 0.5).abs() < 1e-12);
    }

    #[test]
    fn hull_drops_inner_points_and_orients_faces_outward() {
        let mut points: Vec<Vec3> =
            (0..8).map(|i| Vec3::new(if i & 1 == 0 { -1.0 } else { 1.0 }, if i & 2 == 0 { -2.0 } else { 2.0 }, if i & 4 == 0 { -3.0 } else { 3.0 })).collect();
        points.push(Vec3::new(0.1, 0.2, 0.3));
        let hull = ConvexHull::new(&points).unwrap();
        assert_eq!(hull.vertices.len(), 8);
        assert_eq!(hull.faces.len(), 6);
        for face in &hull.faces {
            assert_eq!(face.vertices.len(), 4);
            let v: Vec<Vec3> = face.vertices.iter().map(|&i| hull.vertices[i as usize]).collect();
            let area = (v[1] - v[0]).cross(&(v[2] - v[0]));
            assert!(area.dot(&face.normal) > 0.0);
            assert!(v.iter().all(|p| (p - v[0]).dot(&face.normal).abs() < 1e-12));
        }
        let flat = [Vec3::zeros(), Vec3::x(), Vec3::y(), Vec3::new(1.0, 1.0, 0.0)];
        assert!(ConvexHull::new(&flat).unwrap_err().contains("no volume"));
    }

    #[test]
    fn mesh_merges_duplicates_and_turns_inside_out_meshes_outward() {
        // A tetrahedron with its triangles wound inward and every vertex repeated.
        let corners = [Vec3::zeros(), Vec3::x(), Vec3::y(), Vec3::z()];
        let faces = [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]];
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        for f in faces {
            let base = vertices.len() as u32;
            vertices.extend(f.iter().map(|&i| corners[i]));
            triangles.push([base, base + 1, base + 2]);
        }
        let mesh = TriangleMesh::new(&vertices, &triangles).unwrap();
        assert_eq!(mesh.vertices.len(), 4);
        assert!(mesh.closed);
        let volume: f64 = mesh
            .triangles
            .iter()
            .map(|t| mesh.vertices[t[0] as usize].dot(&mesh.vertices[t[1] as usize].cross(&mesh.vertices[t[2] as usize])) / 6.0)
            .sum();
        assert!((volume - 1.0 / 6.0).abs() < 1e-15);
        assert!(TriangleMesh::new(&corners, &[[0, 1, 7]]).unwrap_err().contains("vertex 7"));
        assert!(TriangleMesh::new(&corners, &[[0, 1, 1]]).unwrap_err().contains("no triangle"));
    }
}
