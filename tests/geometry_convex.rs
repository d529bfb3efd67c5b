//! General convex pairs (GJK/EPA with a clipped patch), ellipsoids, hulls and meshes: closed
//! forms (resting boxes, support extents, sphere distances), invariants on random poses (A/B
//! swap mirrors, unit normal, separation = (p_b - p_a) · n, distance when apart), continuity at
//! the edge of a finite face, and hull and mesh files through the block.

use std::path::PathBuf;
use std::sync::Arc;

use contact_force::block::{Block, Parameters};
use contact_force::files;
use contact_force::physics::geometry::distance::to_surface;
use contact_force::physics::geometry::parry::{to_parry_pose, to_parry_shape};
use contact_force::physics::geometry::{ContactPoint, GeometryPair};
use contact_force::physics::math::{Pose, Rotation, Vec3};
use contact_force::physics::shape::{ConvexHull, Shape, ShapeKind, TriangleMesh};

mod support;
use support::Rng;

/// This file's random draws. Its rotation is a turn of up to 3.1 about a random axis (not the
/// shared `Rng::rotation`), kept as it was so that the seeds give the same poses.
trait RandomConvex {
    fn scaled_axis_rotation(&mut self) -> Rotation;
    fn scaled_axis_pose(&mut self, scale: f64) -> Pose;
    fn hull(&mut self) -> Shape;
}

impl RandomConvex for Rng {
    fn scaled_axis_rotation(&mut self) -> Rotation {
        let axis = self.vec(1.0);
        Rotation::from_scaled_axis(axis.normalize() * self.range(0.0, 3.1))
    }

    fn scaled_axis_pose(&mut self, scale: f64) -> Pose {
        Pose { r: self.vec(scale), q: self.scaled_axis_rotation() }
    }

    fn hull(&mut self) -> Shape {
        let axes = Vec3::new(self.range(0.1, 0.3), self.range(0.1, 0.3), self.range(0.1, 0.3));
        let points: Vec<Vec3> = (0..14).map(|_| self.vec(1.0).normalize().component_mul(&axes)).collect();
        Shape::ConvexHull(Arc::new(ConvexHull::new(&points).unwrap()))
    }
}

fn corners(half: Vec3) -> Vec<Vec3> {
    (0..8)
        .map(|i| Vec3::new(if i & 1 == 0 { -half.x } else { half.x }, if i & 2 == 0 { -half.y } else { half.y }, if i & 4 == 0 { -half.z } else { half.z }))
        .collect()
}

fn box_hull(half: Vec3) -> Shape {
    Shape::ConvexHull(Arc::new(ConvexHull::new(&corners(half)).unwrap()))
}

fn contacts(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Vec<ContactPoint> {
    let pair = GeometryPair::new(a.clone(), b.clone()).unwrap();
    let mut out = Vec::new();
    pair.contacts(pose_a, pose_b, &mut out);
    assert!(!out.is_empty(), "{:?} - {:?} gave no point", a.kind(), b.kind());
    for p in &out {
        assert!((p.id as usize) < pair.max_points(), "id {} not below {}", p.id, pair.max_points());
    }
    out
}

fn min_separation(points: &[ContactPoint]) -> f64 {
    points.iter().map(|p| p.separation).fold(f64::INFINITY, f64::min)
}

/// Weighted load of a penalty law linear in depth: sum w max(0, -s).
fn load(points: &[ContactPoint]) -> f64 {
    points.iter().map(|p| p.weight * p.depth()).sum()
}

/// Every point: unit normal, separation = (p_b - p_a) · n; and A/B exchanged gives the same
/// points mirrored.
fn check_invariants(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Vec<ContactPoint> {
    let forward = contacts(a, pose_a, b, pose_b);
    for p in &forward {
        assert!((p.normal_ab_w.norm() - 1.0).abs() < 1e-12);
        assert!(((p.p_b_w - p.p_a_w).dot(&p.normal_ab_w) - p.separation).abs() < 1e-12);
        assert!(p.weight >= 0.0 && p.weight <= 4.0 && p.weight.is_finite());
    }
    // Exchanged: the same points mirrored, exactly. Pairs of one kind (box-box, hull-hull, ...)
    // pick their base by pose, not by A/B, so the same solve runs in both orders.
    let backward = contacts(b, pose_b, a, pose_a);
    assert_eq!(forward.len(), backward.len());
    for f in &forward {
        let r = backward.iter().find(|r| r.id == f.id).expect("the same ids in both orders");
        let what = format!("{:?}-{:?} id {}", a.kind(), b.kind(), f.id);
        assert!((f.separation - r.separation).abs() < 1e-12, "{what}: {} vs {}", f.separation, r.separation);
        assert!((f.normal_ab_w + r.normal_ab_w).norm() < 1e-12, "{what}: {:?} vs {:?}", f.normal_ab_w, r.normal_ab_w);
        assert!((f.p_a_w - r.p_b_w).norm() < 1e-12 && (f.p_b_w - r.p_a_w).norm() < 1e-12, "{what}: {f:?} vs {r:?}");
        assert!((f.weight - r.weight).abs() < 1e-12, "{what}: {} vs {}", f.weight, r.weight);
    }
    forward
}

#[test]
fn hull_of_a_box_on_a_plane_touches_at_the_box_corners() {
    let half = Vec3::new(0.2, 0.3, 0.1);
    let hull = box_hull(half);
    let plane = Pose { r: Vec3::new(0.1, -0.2, 0.05), q: Rotation::from_axis_angle(&Vec3::x_axis(), 0.2) };
    let n = plane.q * Vec3::z();
    let mut rng = Rng(7);
    for _ in 0..50 {
        let mut pose = rng.scaled_axis_pose(0.1);
        pose.r = plane.r + n * rng.range(-0.05, 0.4);
        let points = check_invariants(&Shape::Plane, &plane, &hull, &pose);
        // The lowest corner: centre height minus the support extent sum |R^T n|_i h_i.
        let m = pose.q.inverse() * n;
        let extent = m.x.abs() * half.x + m.y.abs() * half.y + m.z.abs() * half.z;
        assert!((min_separation(&points) - ((pose.r - plane.r).dot(&n) - extent)).abs() < 1e-12);
        // Every corner below the plane is one point, and no other.
        let below = corners(half).iter().filter(|c| (pose.transform_point(c) - plane.r).dot(&n) <= 0.0).count();
        assert_eq!(points.len(), below.max(1));
    }
    // Flat at depth 1 mm: the 4 bottom corners, equal depths, centred under the box: no torque.
    let pose = Pose { r: plane.r + n * (half.z - 1e-3), q: plane.q };
    let points = contacts(&Shape::Plane, &plane, &hull, &pose);
    assert_eq!(points.len(), 4);
    assert!(points.iter().all(|p| (p.separation + 1e-3).abs() < 1e-12 && p.weight == 1.0));
    let torque: Vec3 = points.iter().map(|p| (p.point_w() - pose.r).cross(&(n * p.depth()))).sum();
    assert!(torque.norm() < 1e-15);
}

#[test]
fn box_resting_flat_on_a_hull_carries_its_load_on_four_corners_like_the_box_pair() {
    let slab_half = Vec3::new(1.0, 1.0, 0.1);
    let half = Vec3::new(0.2, 0.3, 0.1);
    let slab_pose = Pose { r: Vec3::new(0.0, 0.0, -0.1), q: Rotation::from_axis_angle(&Vec3::z_axis(), 0.3) };
    let depth = 1e-3;
    let pose = Pose { r: Vec3::new(0.1, 0.2, half.z - depth), q: Rotation::from_axis_angle(&Vec3::z_axis(), 0.7) };
    let from_hulls = check_invariants(&box_hull(slab_half), &slab_pose, &box_hull(half), &pose);
    let from_boxes = check_invariants(&Shape::Box { half_extents: slab_half }, &slab_pose, &Shape::Box { half_extents: half }, &pose);
    for points in [&from_hulls, &from_boxes] {
        assert_eq!(points.len(), 4);
        for p in points.iter() {
            assert!((p.separation + depth).abs() < 1e-12);
            assert!((p.normal_ab_w - Vec3::z()).norm() < 1e-12);
            assert!((p.weight - 1.0).abs() < 1e-12);
            // At a bottom corner of the box.
            assert!(corners(half).iter().any(|c| (pose.transform_point(c) - p.p_b_w).norm() < 1e-12));
        }
        let torque: Vec3 = points.iter().map(|p| (p.point_w() - pose.r).cross(&(p.normal_ab_w * p.weight * p.depth()))).sum();
        assert!(torque.norm() < 1e-12);
    }
    // Tilted about y so one bottom edge is lowest: only that edge's 2 corners penetrate.
    let tilted = Pose { r: Vec3::new(0.0, 0.0, 0.115), q: Rotation::from_axis_angle(&Vec3::y_axis(), 0.1) };
    let points = contacts(&box_hull(slab_half), &slab_pose, &box_hull(half), &tilted);
    let lowest = 0.115 - (0.1f64.cos() * half.z + 0.1f64.sin() * half.x);
    let penetrating: Vec<&ContactPoint> = points.iter().filter(|p| p.separation < 0.0).collect();
    assert_eq!(penetrating.len(), 2);
    assert!(penetrating.iter().all(|p| (p.separation - lowest).abs() < 1e-12 && (p.weight - 1.0).abs() < 1e-12));
}

#[test]
fn hull_pairs_on_random_poses_mirror_and_measure_the_distance_when_apart() {
    let mut rng = Rng(11);
    let (mut apart, mut overlapping) = (0, 0);
    for _ in 0..200 {
        let (a, b) = (rng.hull(), rng.hull());
        let (pose_a, pose_b) = (rng.scaled_axis_pose(0.3), rng.scaled_axis_pose(0.3));
        let points = check_invariants(&a, &pose_a, &b, &pose_b);
        let separation = min_separation(&points);
        let (pa, pb) = (to_parry_shape(&a).unwrap(), to_parry_shape(&b).unwrap());
        let distance = parry3d_f64::query::distance(&to_parry_pose(&pose_a), &*pa.shape, &to_parry_pose(&pose_b), &*pb.shape).unwrap().distance;
        if distance > 0.0 {
            apart += 1;
            assert_eq!(points.len(), 1);
            assert!((separation - distance).abs() < 1e-9 * (1.0 + distance), "{separation} vs {distance}");
            // The witness on B is the point of B nearest to A: its distance to A is the separation.
            let s = to_surface(&a, &pose_a, &points[0].p_b_w).unwrap();
            assert!((s.distance - separation).abs() < 1e-9);
        } else {
            overlapping += 1;
            assert!(separation <= 1e-12);
        }
    }
    assert!(apart > 20 && overlapping > 20, "{apart} apart, {overlapping} overlapping");
}

#[test]
fn every_convex_pair_mirrors_on_random_poses() {
    let mut rng = Rng(3);
    let shapes = [
        Shape::Box { half_extents: Vec3::new(0.1, 0.15, 0.08) },
        Shape::Cylinder { radius: 0.1, half_length: 0.12 },
        Shape::Capsule { radius: 0.07, half_length: 0.1 },
        Shape::Ellipsoid { semi_axes: Vec3::new(0.12, 0.08, 0.15) },
        Shape::Disk { radius: 0.2 },
        Shape::Rectangle { half_x: 0.2, half_y: 0.15 },
        rng.hull(),
    ];
    let mut tested = 0;
    for a in &shapes {
        for b in &shapes {
            let Ok(pair) = GeometryPair::new(a.clone(), b.clone()) else {
                continue;
            };
            let _ = pair;
            for _ in 0..20 {
                let (pose_a, pose_b) = (rng.scaled_axis_pose(0.2), rng.scaled_axis_pose(0.2));
                check_invariants(a, &pose_a, b, &pose_b);
            }
            tested += 1;
        }
    }
    // Hull with 6 others and itself, ellipsoid with 6 others and itself, box-box/cylinder/capsule,
    // cylinder-cylinder/capsule, in both orders (the flat-flat and analytic ones are elsewhere).
    assert!(tested >= 30, "{tested} ordered pairs");
}

#[test]
fn ellipsoid_with_equal_axes_behaves_as_a_sphere() {
    let r = 0.15;
    let ball = Shape::Ellipsoid { semi_axes: Vec3::repeat(r) };
    let mut rng = Rng(5);
    for _ in 0..100 {
        let (pose_a, pose_b) = (rng.scaled_axis_pose(0.3), rng.scaled_axis_pose(0.3));
        let centres = (pose_b.r - pose_a.r).norm();
        // Ellipsoid-ellipsoid (GJK/EPA) against sphere-sphere.
        let s = min_separation(&check_invariants(&ball, &pose_a, &Shape::Ellipsoid { semi_axes: Vec3::repeat(0.1) }, &pose_b));
        assert!((s - (centres - r - 0.1)).abs() < 1e-6, "{s} vs {}", centres - r - 0.1);
        // Ellipsoid-sphere (the ellipsoid's surface query).
        let s = min_separation(&check_invariants(&ball, &pose_a, &Shape::Sphere { radius: 0.1 }, &pose_b));
        assert!((s - (centres - r - 0.1)).abs() < 1e-12);
        // Ellipsoid-box against the sphere's distance to the box: |c - clamp(c)| - r outside.
        let half = Vec3::new(0.1, 0.2, 0.05);
        let points = check_invariants(&Shape::Box { half_extents: half }, &pose_a, &ball, &pose_b);
        let c = pose_a.q.inverse() * (pose_b.r - pose_a.r);
        let clamped = Vec3::new(c.x.clamp(-half.x, half.x), c.y.clamp(-half.y, half.y), c.z.clamp(-half.z, half.z));
        let outside = (c - clamped).norm();
        // GJK stops at its relative tolerance on the curved surface: agreement to 1e-5.
        if outside > 0.0 {
            assert!((min_separation(&points) - (outside - r)).abs() < 1e-5, "{} vs {} ({} points)", min_separation(&points), outside - r, points.len());
        }
        // Plane-ellipsoid against plane-sphere.
        let s = min_separation(&check_invariants(&Shape::Plane, &pose_a, &ball, &pose_b));
        assert!((s - ((pose_b.r - pose_a.r).dot(&(pose_a.q * Vec3::z())) - r)).abs() < 1e-12);
    }
}

#[test]
fn ellipsoid_on_a_plane_is_its_height_minus_its_support_extent() {
    let a = Vec3::new(0.3, 0.1, 0.2);
    let plane = Pose { r: Vec3::new(0.0, 0.1, -0.2), q: Rotation::from_axis_angle(&nalgebra::Unit::new_normalize(Vec3::new(1.0, 1.0, 0.0)), 0.4) };
    let n = plane.q * Vec3::z();
    let mut rng = Rng(9);
    for _ in 0..100 {
        let pose = rng.scaled_axis_pose(0.4);
        let points = check_invariants(&Shape::Plane, &plane, &Shape::Ellipsoid { semi_axes: a }, &pose);
        let m = pose.q.inverse() * n;
        let extent = (m.component_mul(&a)).norm();
        assert_eq!(points.len(), 1);
        assert!((points[0].separation - ((pose.r - plane.r).dot(&n) - extent)).abs() < 1e-12);
        // The witness lies on the ellipsoid.
        let local = pose.q.inverse() * (points[0].p_b_w - pose.r);
        assert!((local.component_div(&a).norm_squared() - 1.0).abs() < 1e-12);
    }
}

#[test]
fn box_sliding_off_the_edge_of_a_hull_loses_its_load_continuously() {
    // A box pressed 1 mm into a slab's top face slides across the slab's edge at x = 1.
    let slab = box_hull(Vec3::new(1.0, 1.0, 0.1));
    let slab_pose = Pose { r: Vec3::new(0.0, 0.0, -0.1), q: Rotation::identity() };
    let half = Vec3::new(0.1, 0.1, 0.1);
    let mut previous: Option<f64> = None;
    let step = 1e-4;
    let mut max_jump: f64 = 0.0;
    let mut x = 0.8;
    while x < 1.2 {
        let pose = Pose { r: Vec3::new(x, 0.0, half.z - 1e-3), q: Rotation::identity() };
        let points = contacts(&slab, &slab_pose, &box_hull(half), &pose);
        // The vertical load only: the normal turns sideways once the box is past the edge.
        let vertical: f64 = points.iter().map(|p| p.weight * p.depth() * p.normal_ab_w.z).sum();
        if let Some(before) = previous {
            max_jump = max_jump.max((vertical - before).abs());
        }
        previous = Some(vertical);
        x += step;
    }
    // Full load 4 mm (4 corners at 1 mm); the fade spreads the loss over the last 20 mm of
    // overlap, reaching 0 where the overlap is as wide as the depth and the normal turns, so a
    // 0.1 mm step changes the load by at most 4 mm * 0.1 / 20 = 0.02 mm.
    assert!(max_jump < 0.021e-3, "largest change per step {max_jump}");
    let full = load(&contacts(&slab, &slab_pose, &box_hull(half), &Pose { r: Vec3::new(0.5, 0.0, half.z - 1e-3), q: Rotation::identity() }));
    assert!((full - 4e-3).abs() < 1e-12);
}

fn temp_dir(name: &str) -> PathBuf {
    support::scratch_dir(name)
}

/// A closed cube of side 2 h centred at the origin, 12 triangles wound outward.
fn cube_obj(h: f64) -> String {
    let mut text = String::from("# cube\n");
    for c in corners(Vec3::repeat(h)) {
        text += &format!("v {} {} {}\n", c.x, c.y, c.z);
    }
    // Vertex i + 1 has x, y, z signs from bits 0, 1, 2 of i; quads counter-clockwise from outside.
    text += "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
    text
}

fn mesh_cube(h: f64) -> Shape {
    let dir = temp_dir("cube");
    let path = dir.join("cube.obj");
    std::fs::write(&path, cube_obj(h)).unwrap();
    let (vertices, triangles) = files::obj::read(&path).unwrap();
    assert_eq!(triangles.len(), 12);
    let mesh = TriangleMesh::new(&vertices, &triangles).unwrap();
    assert!(mesh.closed);
    Shape::Mesh(Arc::new(mesh))
}

#[test]
fn mesh_cube_resting_on_a_plane_loads_its_four_bottom_vertices_without_torque() {
    let h = 0.1;
    let cube = mesh_cube(h);
    let plane = Pose { r: Vec3::new(0.2, 0.0, 0.0), q: Rotation::from_axis_angle(&Vec3::y_axis(), 0.1) };
    let n = plane.q * Vec3::z();
    let pose = Pose { r: plane.r + n * (h - 2e-3) + plane.q * Vec3::new(0.3, -0.1, 0.0), q: plane.q * Rotation::from_axis_angle(&Vec3::z_axis(), 0.5) };
    let points = check_invariants(&Shape::Plane, &plane, &cube, &pose);
    assert_eq!(points.len(), 4);
    for p in &points {
        assert!((p.separation + 2e-3).abs() < 1e-12);
        let local = pose.q.inverse() * (p.p_b_w - pose.r);
        assert!((local.z + h).abs() < 1e-12 && (local.x.abs() - h).abs() < 1e-12 && (local.y.abs() - h).abs() < 1e-12);
    }
    let torque: Vec3 = points.iter().map(|p| (p.point_w() - pose.r).cross(&(n * p.depth()))).sum();
    assert!(torque.norm() < 1e-15);
    // Raised: the lowest vertex gives the separation.
    let up = Pose { r: pose.r + n * 0.05, q: pose.q };
    let points = contacts(&Shape::Plane, &plane, &cube, &up);
    assert_eq!(points.len(), 1);
    assert!((points[0].separation - 0.048).abs() < 1e-12);
}

#[test]
fn sphere_against_a_mesh_cube_matches_the_sphere_against_the_box() {
    let h = 0.1;
    let cube = mesh_cube(h);
    let mut rng = Rng(21);
    for _ in 0..200 {
        let pose = rng.scaled_axis_pose(0.1);
        let centre = Pose { r: pose.r + rng.vec(0.25), q: Rotation::identity() };
        let r = 0.05;
        let points = check_invariants(&cube, &pose, &Shape::Sphere { radius: r }, &centre);
        let c = pose.q.inverse() * (centre.r - pose.r);
        let clamped = c.map(|x| x.clamp(-h, h));
        let expected = if clamped == c { -(h - c.abs().max()) - r } else { (c - clamped).norm() - r };
        assert!((points[0].separation - expected).abs() < 1e-12, "{} vs {expected}", points[0].separation);
        // The same for a hull of the same cube.
        let s = min_separation(&check_invariants(&box_hull(Vec3::repeat(h)), &pose, &Shape::Sphere { radius: r }, &centre));
        assert!((s - expected).abs() < 1e-12);
    }
}

#[test]
fn box_resting_on_a_mesh_floor_is_supported_at_its_corners() {
    // A floor of two triangles; a box pressed 1 mm into it, away from the diagonal.
    let dir = temp_dir("floor");
    let path = dir.join("floor.obj");
    std::fs::write(&path, "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nf 1 2 3 4\n").unwrap();
    let (vertices, triangles) = files::obj::read(&path).unwrap();
    let floor = Shape::Mesh(Arc::new(TriangleMesh::new(&vertices, &triangles).unwrap()));
    let half = Vec3::new(0.1, 0.1, 0.1);
    let pose = Pose { r: Vec3::new(0.5, -0.4, 0.099), q: Rotation::identity() };
    let points = check_invariants(&floor, &Pose::identity(), &Shape::Box { half_extents: half }, &pose);
    let penetrating: Vec<&ContactPoint> = points.iter().filter(|p| p.separation < 0.0).collect();
    assert_eq!(penetrating.len(), 4);
    assert!(penetrating.iter().all(|p| (p.separation + 1e-3).abs() < 1e-12 && (p.normal_ab_w - Vec3::z()).norm() < 1e-12));
    // Lifted: one closest pair at the gap.
    let up = Pose { r: Vec3::new(0.5, -0.4, 0.13), q: Rotation::identity() };
    let points = contacts(&floor, &Pose::identity(), &Shape::Box { half_extents: half }, &up);
    assert_eq!(points.len(), 1);
    assert!((points[0].separation - 0.03).abs() < 1e-9);
}

fn block_with_file(shape: ShapeKind, file: &str) -> Result<Block, String> {
    let mut p = Parameters::default();
    p.geometry_a.shape = ShapeKind::Plane.value();
    p.geometry_b.shape = shape.value();
    p.geometry_b.file = file.to_string();
    Block::new(&p, None).map(|(block, _)| block).map_err(|e| e.to_string())
}

#[test]
fn hull_and_mesh_files_load_through_the_block_and_bad_files_are_refused_with_path_and_line() {
    let dir = temp_dir("block");
    let points = dir.join("hull.csv");
    std::fs::write(&points, "x,y,z\n".to_string() + &corners(Vec3::new(0.1, 0.2, 0.3)).iter().map(|c| format!("{},{},{}\n", c.x, c.y, c.z)).collect::<String>()).unwrap();
    let block = block_with_file(ShapeKind::ConvexHull, points.to_str().unwrap()).unwrap();
    match block.pair().shape_b() {
        Shape::ConvexHull(hull) => assert_eq!((hull.vertices.len(), hull.faces.len()), (8, 6)),
        other => panic!("{other:?}"),
    }
    assert_eq!(block.pair().max_points(), 8);
    // A hull from the vertices of an OBJ file, and a mesh from a binary STL file.
    let obj = dir.join("cube.obj");
    std::fs::write(&obj, cube_obj(0.1)).unwrap();
    assert!(block_with_file(ShapeKind::ConvexHull, obj.to_str().unwrap()).is_ok());
    let stl = dir.join("tetra.stl");
    let [o, x, y, z] = [Vec3::zeros(), Vec3::x(), Vec3::y(), Vec3::z()];
    std::fs::write(&stl, files::stl::to_binary(&[[o, y, x], [o, x, z], [o, z, y], [x, y, z]])).unwrap();
    let block = block_with_file(ShapeKind::Mesh, stl.to_str().unwrap()).unwrap();
    match block.pair().shape_b() {
        Shape::Mesh(mesh) => assert_eq!((mesh.vertices.len(), mesh.triangles.len(), mesh.closed), (4, 4, true)),
        other => panic!("{other:?}"),
    }
    // Refusals name the file and, for a malformed line, the line.
    let missing = dir.join("missing.csv");
    let e = block_with_file(ShapeKind::ConvexHull, missing.to_str().unwrap()).unwrap_err();
    assert!(e.contains(missing.to_str().unwrap()) && e.contains("cannot be read"), "{e}");
    let empty = dir.join("empty.stl");
    std::fs::write(&empty, "").unwrap();
    let e = block_with_file(ShapeKind::Mesh, empty.to_str().unwrap()).unwrap_err();
    assert!(e.contains(empty.to_str().unwrap()), "{e}");
    let bad = dir.join("bad.obj");
    std::fs::write(&bad, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n").unwrap();
    let e = block_with_file(ShapeKind::Mesh, bad.to_str().unwrap()).unwrap_err();
    assert!(e.contains(&format!("{} line 4", bad.display())), "{e}");
    let bad_points = dir.join("bad.csv");
    std::fs::write(&bad_points, "0,0,0\n1,0,0\n0,1\n").unwrap();
    let e = block_with_file(ShapeKind::ConvexHull, bad_points.to_str().unwrap()).unwrap_err();
    assert!(e.contains(&format!("{} line 3", bad_points.display())), "{e}");
    let flat = dir.join("flat.csv");
    std::fs::write(&flat, "0,0,0\n1,0,0\n0,1,0\n1,1,0\n").unwrap();
    assert!(block_with_file(ShapeKind::ConvexHull, flat.to_str().unwrap()).unwrap_err().contains("no volume"));
    let ply = dir.join("mesh.ply");
    std::fs::write(&ply, "ply\n").unwrap();
    let e = block_with_file(ShapeKind::Mesh, ply.to_str().unwrap()).unwrap_err();
    assert!(e.contains("mesh.ply") && e.contains(".obj") && e.contains(".stl"), "{e}");
}

#[test]
fn mesh_pairs_without_an_inside_are_refused_naming_both_shapes() {
    let cube = mesh_cube(0.1);
    let e = GeometryPair::new(cube.clone(), cube.clone()).unwrap_err().to_string();
    assert!(e.contains("Mesh (A) - Mesh (B)"), "{e}");
    let e = GeometryPair::new(Shape::Ellipsoid { semi_axes: Vec3::repeat(0.1) }, cube).unwrap_err().to_string();
    assert!(e.contains("Ellipsoid") && e.contains("Mesh"), "{e}");
}
