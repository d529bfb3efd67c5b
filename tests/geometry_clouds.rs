//! Point clouds and height fields against closed forms: a sloped planar grid has the plane's normal
//! and distance everywhere (inside the grid and beyond its border), a bilinear grid reproduces its
//! function, a cloud carries one contact point per point with the point's height or distance, the
//! block sums k d_i over the penetrating points, exchanging A and B mirrors every output, and bad
//! files are refused naming the path and the line.

use std::path::PathBuf;
use std::sync::Arc;

use contact_force::block::{Block, Frame, Inputs, Parameters, POINT_OUTPUTS};
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::geometry::distance::to_surface;
use contact_force::physics::geometry::{ContactPoint, GeometryPair};
use contact_force::physics::math::{Pose, Rotation, Vec3};
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::shape::{HeightField, PointCloud, Shape, ShapeKind};

mod support;
use support::{evaluate, Rng};

/// This file's random pose: unlike the shared `Rng::pose` it draws a rotation axis first, then the
/// origin, then an angle about that axis; kept as it was so that the seeds give the same poses.
trait AxisAnglePose {
    fn axis_angle_pose(&mut self, scale: f64) -> Pose;
}

impl AxisAnglePose for Rng {
    fn axis_angle_pose(&mut self, scale: f64) -> Pose {
        let axis = nalgebra::Unit::new_normalize(self.vec(1.0) + Vec3::new(0.0, 0.0, 1e-3));
        Pose { r: self.vec(scale), q: Rotation::from_axis_angle(&axis, self.range(-3.0, 3.0)) }
    }
}

/// A grid of `nx` x `ny` nodes from (x0, y0) with spacings (dx, dy) and heights h(x, y).
fn grid(x0: f64, y0: f64, dx: f64, dy: f64, nx: usize, ny: usize, h: impl Fn(f64, f64) -> f64) -> Shape {
    let mut heights = Vec::with_capacity(nx * ny);
    for j in 0..ny {
        for i in 0..nx {
            heights.push(h(x0 + i as f64 * dx, y0 + j as f64 * dy));
        }
    }
    Shape::GridSurface(Arc::new(HeightField { x0, y0, dx, dy, nx, ny, heights }))
}

/// The sloped plane z = A x + B y + C of the planar-grid tests.
const A: f64 = 0.3;
const B: f64 = -0.2;
const C: f64 = 0.05;

fn sloped_grid() -> Shape {
    grid(-0.4, -0.3, 0.2, 0.15, 5, 4, |x, y| A * x + B * y + C)
}

/// normalize(-A, -B, 1): the analytic outward normal of the sloped plane, in the grid's frame.
fn sloped_normal() -> Vec3 {
    Vec3::new(-A, -B, 1.0).normalize()
}

/// Exact signed distance of a point (grid frame) from the sloped plane.
fn sloped_distance(p: &Vec3) -> f64 {
    (p.z - (A * p.x + B * p.y + C)) / (1.0 + A * A + B * B).sqrt()
}

fn cloud(points: Vec<Vec3>) -> Shape {
    Shape::PointCloud(Arc::new(PointCloud { points }))
}

fn contacts(pair: &GeometryPair, pose_a: &Pose, pose_b: &Pose) -> Vec<ContactPoint> {
    let mut out = Vec::new();
    pair.contacts(pose_a, pose_b, &mut out);
    out
}

/// The invariants of every contact point: unit normal, separation = (p_b - p_a) · n, and the
/// witnesses differ only along the normal (both are nearest points).
fn assert_witnesses_consistent(c: &ContactPoint, what: &str) {
    assert!((c.normal_ab_w.norm() - 1.0).abs() < 1e-14, "{what}: normal {:?}", c.normal_ab_w);
    let gap = c.p_b_w - c.p_a_w;
    assert!((gap.dot(&c.normal_ab_w) - c.separation).abs() < 1e-12, "{what}: separation {} gap {gap:?}", c.separation);
    assert!((gap - c.normal_ab_w * c.separation).norm() < 1e-12, "{what}: witnesses not along the normal");
}

#[test]
fn sloped_planar_grid_has_the_analytic_normal_and_exact_distance_inside_and_beyond_its_border() {
    let shape = sloped_grid();
    let mut rng = Rng(0x5eed_0001);
    let mut beyond = 0;
    for case in 0..500 {
        let pose = rng.axis_angle_pose(0.5);
        // The grid covers x in [-0.4, 0.4], y in [-0.3, 0.15]; query up to 0.6 m beyond it.
        let local = Vec3::new(rng.range(-1.0, 1.0), rng.range(-0.9, 0.75), rng.range(-0.5, 0.5));
        beyond += usize::from(local.x.abs() > 0.4 || !(-0.3..=0.15).contains(&local.y));
        let s = to_surface(&shape, &pose, &pose.transform_point(&local)).unwrap();
        let what = format!("case {case} at {local:?}");
        assert!((s.normal_w - pose.q * sloped_normal()).norm() < 1e-14, "{what}");
        assert!((s.distance - sloped_distance(&local)).abs() < 1e-14, "{what}: {} vs {}", s.distance, sloped_distance(&local));
        // The surface point lies on the plane, along the normal from the query point.
        let foot = pose.q.inverse() * (s.point_w - pose.r);
        assert!(sloped_distance(&foot).abs() < 1e-14, "{what}");
        assert!((pose.transform_point(&local) - s.point_w - s.normal_w * s.distance).norm() < 1e-14, "{what}");
    }
    assert!(beyond > 200, "only {beyond} queries beyond the border");
}

#[test]
fn bilinear_heights_are_reproduced_in_every_cell_and_beyond_the_border() {
    // h = 0.5 x y + 0.1 x - 0.2 is bilinear, so every cell's interpolant is h itself (and so is the
    // border cells' continuation): height and gradient are exact everywhere.
    let h = |x: f64, y: f64| 0.5 * x * y + 0.1 * x - 0.2;
    let shape = grid(-1.0, -0.5, 0.25, 0.5, 9, 4, h);
    let mut rng = Rng(0x5eed_0002);
    for case in 0..500 {
        let (x, y, above) = (rng.range(-2.0, 2.0), rng.range(-1.5, 2.0), rng.range(-0.01, 0.01));
        let s = to_surface(&shape, &Pose::identity(), &Vec3::new(x, y, h(x, y) + above)).unwrap();
        let normal = Vec3::new(-(0.5 * y + 0.1), -0.5 * x, 1.0).normalize();
        let what = format!("case {case} at ({x}, {y})");
        assert!((s.normal_w - normal).norm() < 1e-14, "{what}");
        // The distance to the tangent plane at (x, y): the height above it times n_z.
        assert!((s.distance - above * normal.z).abs() < 1e-13, "{what}");
    }
}

#[test]
fn grid_height_is_continuous_across_cell_edges_and_the_border() {
    let mut rng = Rng(0x5eed_0003);
    let (x0, y0, dx, dy, nx, ny) = (0.1, -0.2, 0.1, 0.2, 6, 5);
    let heights: Vec<f64> = (0..nx * ny).map(|_| rng.range(-0.05, 0.05)).collect();
    let shape = Shape::GridSurface(Arc::new(HeightField { x0, y0, dx, dy, nx, ny, heights }));
    // The height under (x, y) from the surface query: z - distance / n_z.
    let height = |x: f64, y: f64| {
        let s = to_surface(&shape, &Pose::identity(), &Vec3::new(x, y, 0.0)).unwrap();
        -s.distance / s.normal_w.z
    };
    // Heights differ by up to 0.1 between nodes, so a jump would be of order 1e-2; a continuous h
    // changes by at most its slope (below 10 even where the border cells extend) times 2e-9.
    let (eps, tolerance) = (1e-9, 1e-7);
    for i in 0..=nx {
        for j in 0..=ny {
            let (x, y) = (x0 + i as f64 * dx, y0 + j as f64 * dy + rng.range(0.0, dy));
            assert!((height(x - eps, y) - height(x + eps, y)).abs() < tolerance, "x edge {i}, y = {y}");
            let (x, y) = (x0 + i as f64 * dx + rng.range(0.0, dx), y0 + j as f64 * dy);
            assert!((height(x, y - eps) - height(x, y + eps)).abs() < tolerance, "y edge {j}, x = {x}");
            let (x, y) = (x0 + i as f64 * dx, y0 + j as f64 * dy);
            assert!((height(x - eps, y - eps) - height(x + eps, y + eps)).abs() < tolerance, "node ({i}, {j})");
        }
    }
}

#[test]
fn grid_against_point_and_sphere_measures_to_the_sloped_plane_in_both_orders() {
    let mut rng = Rng(0x5eed_0004);
    for case in 0..200 {
        let radius = rng.range(0.01, 0.2);
        let (grid_pose, centre) = (rng.axis_angle_pose(0.5), rng.axis_angle_pose(1.0));
        let local = grid_pose.q.inverse() * (centre.r - grid_pose.r);
        let n_w = grid_pose.q * sloped_normal();
        for (follower, r) in [(Shape::Point, 0.0), (Shape::Sphere { radius }, radius)] {
            let what = format!("case {case} {:?}", follower.kind());
            let pair = GeometryPair::new(sloped_grid(), follower.clone()).unwrap();
            assert_eq!(pair.max_points(), 1);
            let c = contacts(&pair, &grid_pose, &centre);
            assert_eq!(c.len(), 1, "{what}");
            assert!((c[0].separation - (sloped_distance(&local) - r)).abs() < 1e-13, "{what}");
            assert!((c[0].normal_ab_w - n_w).norm() < 1e-14, "{what}");
            assert!((c[0].p_b_w - (centre.r - n_w * r)).norm() < 1e-14, "{what}");
            assert_witnesses_consistent(&c[0], &what);
            // The follower as A: the same contact seen from the other side.
            let mirror = contacts(&GeometryPair::new(follower, sloped_grid()).unwrap(), &centre, &grid_pose);
            assert_eq!(mirror, vec![c[0].flipped()], "{what}");
        }
    }
}

#[test]
fn grid_against_point_cloud_gives_every_point_its_distance_to_the_sloped_plane() {
    let mut rng = Rng(0x5eed_0005);
    let points: Vec<Vec3> = (0..50).map(|_| rng.vec(0.6)).collect();
    let pair = GeometryPair::new(sloped_grid(), cloud(points.clone())).unwrap();
    assert_eq!(pair.max_points(), 50);
    for case in 0..50 {
        let (grid_pose, cloud_pose) = (rng.axis_angle_pose(0.3), rng.axis_angle_pose(0.3));
        let c = contacts(&pair, &grid_pose, &cloud_pose);
        assert_eq!(c.len(), 50);
        for (i, (c, p)) in c.iter().zip(&points).enumerate() {
            let p_w = cloud_pose.transform_point(p);
            let what = format!("case {case} point {i}");
            assert_eq!(c.id, i as u32, "{what}");
            // The cloud's pose is applied as a rotation matrix: the quaternion's point to rounding.
            assert!((c.p_b_w - p_w).norm() < 1e-15, "{what}");
            let local = grid_pose.q.inverse() * (p_w - grid_pose.r);
            assert!((c.separation - sloped_distance(&local)).abs() < 1e-14, "{what}");
            assert!((c.normal_ab_w - grid_pose.q * sloped_normal()).norm() < 1e-14, "{what}");
            assert_witnesses_consistent(c, &what);
        }
    }
}

#[test]
fn cloud_on_a_tilted_plane_gives_one_point_per_cloud_point_at_its_height() {
    let mut rng = Rng(0x5eed_0006);
    let points: Vec<Vec3> = (0..20).map(|_| rng.vec(0.2)).collect();
    let pair = GeometryPair::new(Shape::Plane, cloud(points.clone())).unwrap();
    assert_eq!(pair.max_points(), 20);
    for case in 0..50 {
        let (plane, cloud_pose) = (rng.axis_angle_pose(0.2), rng.axis_angle_pose(0.2));
        let n = plane.q * Vec3::z();
        let c = contacts(&pair, &plane, &cloud_pose);
        assert_eq!(c.len(), 20);
        for (i, (c, p)) in c.iter().zip(&points).enumerate() {
            let p_w = cloud_pose.transform_point(p);
            let height = (p_w - plane.r).dot(&n);
            let what = format!("case {case} point {i}");
            assert_eq!(c.id, i as u32, "{what}");
            assert!((c.separation - height).abs() < 1e-15, "{what}");
            assert!((c.normal_ab_w - n).norm() < 1e-15, "{what}");
            assert!((c.p_a_w - (p_w - n * height)).norm() < 1e-15, "{what}");
            assert_witnesses_consistent(c, &what);
        }
    }
}

#[test]
fn cloud_against_sphere_measures_each_point_from_the_centre_in_both_orders() {
    let mut rng = Rng(0x5eed_0007);
    let points: Vec<Vec3> = (0..30).map(|_| rng.vec(0.3)).collect();
    let radius = 0.25;
    let pair = GeometryPair::new(Shape::Sphere { radius }, cloud(points.clone())).unwrap();
    let mirror_pair = GeometryPair::new(cloud(points.clone()), Shape::Sphere { radius }).unwrap();
    assert_eq!((pair.max_points(), mirror_pair.max_points()), (30, 30));
    let mut inside = 0;
    for case in 0..50 {
        let (sphere, cloud_pose) = (rng.axis_angle_pose(0.2), rng.axis_angle_pose(0.2));
        let c = contacts(&pair, &sphere, &cloud_pose);
        assert_eq!(c.len(), 30);
        for (i, (c, p)) in c.iter().zip(&points).enumerate() {
            let p_w = cloud_pose.transform_point(p);
            let offset = p_w - sphere.r;
            let n = offset / offset.norm();
            let what = format!("case {case} point {i}");
            inside += usize::from(offset.norm() < radius);
            assert!((c.separation - (offset.norm() - radius)).abs() < 1e-15, "{what}");
            assert!((c.normal_ab_w - n).norm() < 1e-14, "{what}");
            assert!((c.p_a_w - (sphere.r + n * radius)).norm() < 1e-15, "{what}");
            assert_eq!(c.id, i as u32, "{what}");
            assert!((c.p_b_w - p_w).norm() < 1e-15, "{what}");
            assert_witnesses_consistent(c, &what);
        }
        let mirrored: Vec<ContactPoint> = c.iter().map(ContactPoint::flipped).collect();
        assert_eq!(contacts(&mirror_pair, &cloud_pose, &sphere), mirrored, "case {case}");
    }
    assert!(inside > 100 && inside < 1400, "{inside} of 1500 points inside: both cases must occur");
}

#[test]
fn point_sets_against_points_are_refused_as_impossible() {
    let one_point = || cloud(vec![Vec3::zeros()]);
    for (a, b) in [(one_point(), one_point()), (one_point(), Shape::Point), (Shape::Point, one_point())] {
        let (ka, kb) = (a.kind(), b.kind());
        let e = GeometryPair::new(a, b).unwrap_err();
        assert_eq!((e.a, e.b), (ka, kb));
        assert!(e.to_string().contains("never penetrate"), "{e}");
    }
}

#[test]
fn grid_against_plane_is_refused_naming_both_shapes() {
    let e = GeometryPair::new(sloped_grid(), Shape::Plane).unwrap_err();
    assert_eq!(e.to_string(), "geometry pair GridSurface (A) - Plane (B) is not supported: not supported yet");
}

// Through the block, with the shapes read from files ------------------------------------------

/// Writes `text` to a file of this test process's scratch folder and returns its path.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let folder = support::scratch_dir("geometry_clouds");
    let path = folder.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn cloud_text(points: &[Vec3]) -> String {
    let mut text = String::from("x,y,z\n");
    for p in points {
        text.push_str(&format!("{:?},{:?},{:?}\n", p.x, p.y, p.z));
    }
    text
}

fn frame(r: [f64; 3], axis: Vec3, angle: f64) -> Frame {
    let q = Rotation::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle);
    Frame { r_0: r, q: [q.w, q.i, q.j, q.k], ..Frame::default() }
}

fn close(a: &[f64; 3], b: &Vec3, tolerance: f64) -> bool {
    (Vec3::from(*a) - b).norm() <= tolerance
}

/// Ten points, the first eight of which have per-point outputs.
fn cloud_points() -> Vec<Vec3> {
    (0..10).map(|i| Vec3::new(0.05 * (i % 4) as f64 - 0.07, 0.04 * (i / 4) as f64 - 0.04, 0.006 * (i as f64 - 4.5))).collect()
}

fn cloud_on_plane_parameters(path: &std::path::Path) -> Parameters {
    let mut p = Parameters::default();
    p.geometry_b.shape = ShapeKind::PointCloud.value();
    p.geometry_b.file = path.to_str().unwrap().to_string();
    p.normal.law = NormalLawKind::LinearSpringDamper.value();
    p.normal.stiffness = 1e5;
    p.friction.law = FrictionLawKind::None.value();
    p
}

#[test]
fn cloud_on_plane_block_sums_k_d_over_the_penetrating_points() {
    let points = cloud_points();
    let path = temp_file("resting.csv", &cloud_text(&points));
    let p = cloud_on_plane_parameters(&path);
    let k = p.normal.stiffness;
    let inputs = Inputs::of_frames(Frame::default(), frame([0.3, -0.1, 0.004], Vec3::new(1.0, 2.0, 0.5), 0.2));
    let out = evaluate(&p, &inputs);

    // Closed form: the plane is z = 0 of W; point i at p_i has height z_i, depth d_i = max(0, -z_i),
    // force k d_i along +z at the midpoint of p_i and its projection (p_ix, p_iy, 0).
    let r_b = Vec3::from(inputs.frame_b.r_0);
    let q_b = Rotation::from_quaternion(nalgebra::Quaternion::new(inputs.frame_b.q[0], inputs.frame_b.q[1], inputs.frame_b.q[2], inputs.frame_b.q[3]));
    let world: Vec<Vec3> = points.iter().map(|p| r_b + q_b * p).collect();
    let (mut force, mut torque_a, mut torque_b, mut penetrating) = (Vec3::zeros(), Vec3::zeros(), Vec3::zeros(), 0);
    for p in &world {
        let f = Vec3::z() * (k * (-p.z).max(0.0));
        let at = Vec3::new(p.x, p.y, p.z / 2.0);
        force += f;
        torque_b += (at - r_b).cross(&f);
        torque_a -= at.cross(&f);
        penetrating += usize::from(p.z < 0.0);
    }
    assert!((3..8).contains(&penetrating), "{penetrating} penetrating points: the case must have some of each");
    assert_eq!(out.points, penetrating as i64);
    assert!(out.active);
    let tolerance = 1e-12 * force.norm();
    assert!(close(&out.frame_b.f_0, &force, tolerance), "{:?} vs {force:?}", out.frame_b.f_0);
    assert!(close(&out.frame_a.f_0, &-force, tolerance));
    assert!(close(&out.frame_b.t_0, &torque_b, tolerance), "{:?} vs {torque_b:?}", out.frame_b.t_0);
    assert!(close(&out.frame_a.t_0, &torque_a, tolerance), "{:?} vs {torque_a:?}", out.frame_a.t_0);
    assert!((out.normal_force - force.z).abs() < tolerance);
    let lowest = world.iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
    assert!((out.separation - lowest).abs() < 1e-15);
    assert_eq!(out.n_0, [0.0, 0.0, 1.0]);
    // contact.point[1..8]: the first eight points of the file, touching or not.
    for (i, (slot, p)) in out.point.iter().zip(&world).enumerate() {
        let what = format!("contact.point[{}]", i + 1);
        assert_eq!(slot.active, p.z < 0.0, "{what}");
        assert!((slot.separation - p.z).abs() < 1e-15, "{what}");
        assert!((slot.normal_force - k * (-p.z).max(0.0)).abs() < tolerance, "{what}");
        assert!(close(&slot.p_0, &Vec3::new(p.x, p.y, p.z / 2.0), 1e-15), "{what}");
    }
    assert_eq!(out.point.len(), POINT_OUTPUTS);
}

#[test]
fn cloud_as_a_against_plane_as_b_mirrors_every_output() {
    let path = temp_file("mirror.csv", &cloud_text(&cloud_points()));
    let mut p = cloud_on_plane_parameters(&path);
    p.normal.damping = 300.0;
    p.friction.law = FrictionLawKind::Tanh.value();
    p.friction.tanh_gain = 50.0;
    p.geometry_a.q = frame([0.0; 3], Vec3::new(0.1, -0.2, 0.3), 0.4).q;
    p.geometry_b.r = [0.01, 0.02, -0.01];
    let mut a = frame([0.0, 0.1, -0.02], Vec3::new(0.3, -1.0, 0.2), 0.15);
    a.v_0 = [0.1, -0.2, 0.05];
    a.w_0 = [0.5, 0.2, -1.0];
    let mut b = frame([0.3, -0.1, 0.03], Vec3::new(1.0, 2.0, 0.5), 0.2);
    b.v_0 = [-0.3, 0.1, -0.2];
    b.w_0 = [1.0, -2.0, 0.7];
    let out = evaluate(&p, &Inputs::of_frames(a.clone(), b.clone()));
    assert!(out.points >= 2, "{} points: the case must be in contact", out.points);

    let mut swapped = p.clone();
    std::mem::swap(&mut swapped.geometry_a, &mut swapped.geometry_b);
    let mirror = evaluate(&swapped, &Inputs::of_frames(b, a));
    let tolerance = 1e-12 * (out.normal_force + 1.0);
    for (x, y) in [(&out.frame_a, &mirror.frame_b), (&out.frame_b, &mirror.frame_a)] {
        assert!(close(&x.f_0, &Vec3::from(y.f_0), tolerance), "{x:?} vs {y:?}");
        assert!(close(&x.t_0, &Vec3::from(y.t_0), tolerance), "{x:?} vs {y:?}");
    }
    assert_eq!((out.points, out.separation), (mirror.points, mirror.separation));
    assert!(close(&out.n_0, &-Vec3::from(mirror.n_0), 1e-15));
    assert!(close(&out.p_0, &Vec3::from(mirror.p_0), 1e-15));
    for (x, y) in out.point.iter().zip(&mirror.point) {
        assert_eq!((x.active, x.separation), (y.active, y.separation));
        assert!((x.normal_force - y.normal_force).abs() <= tolerance && (x.friction_force - y.friction_force).abs() <= tolerance);
        assert!(close(&x.p_0, &Vec3::from(y.p_0), 1e-15));
    }
}

#[test]
fn relative_file_names_are_read_from_the_resources_folder() {
    let path = temp_file("relative_cloud.csv", &cloud_text(&cloud_points()));
    let grid_path = temp_file("relative_grid.txt", "0 0 0.1 0.1\n0 0\n0 0\n");
    let mut p = cloud_on_plane_parameters(std::path::Path::new("relative_cloud.csv"));
    let (block, _) = Block::new(&p, path.parent()).expect("the cloud is found in the resources folder");
    assert_eq!(block.pair().max_points(), 10);
    p.geometry_a.shape = ShapeKind::GridSurface.value();
    p.geometry_a.file = "relative_grid.txt".to_string();
    let (block, _) = Block::new(&p, grid_path.parent()).expect("the grid is found in the resources folder");
    assert_eq!(block.pair().shape_a().kind(), ShapeKind::GridSurface);
    assert_eq!(block.pair().max_points(), 10);
}

#[test]
fn bad_geometry_files_are_refused_naming_the_path_and_the_line() {
    let missing = std::env::temp_dir().join("contact_force_no_such_folder").join("cloud.csv");
    let cases = [
        (ShapeKind::PointCloud, missing.clone(), "cannot be read", None),
        (ShapeKind::GridSurface, missing, "cannot be read", None),
        (ShapeKind::PointCloud, temp_file("empty.csv", ""), "holds no points", None),
        (ShapeKind::GridSurface, temp_file("empty.txt", "\n# nothing\n"), "holds no grid", None),
        (ShapeKind::PointCloud, temp_file("truncated.csv", "x,y,z\n0,0,0\n1,2\n"), "expected three numbers", Some(3)),
        (ShapeKind::GridSurface, temp_file("truncated.txt", "0 0 1 1\n1 2 3\n4 5 6\n7 8\n"), "the first row has 3", Some(4)),
        (ShapeKind::PointCloud, temp_file("word.csv", "0,0,0\n0,zero,0\n"), "expected three numbers", Some(2)),
        (ShapeKind::GridSurface, temp_file("word.txt", "0 0 1 1\n1 2\n3 four\n"), "\"four\" is not a number", Some(3)),
        (ShapeKind::GridSurface, temp_file("small.txt", "0 0 1 1\n1 2\n"), "at least 2 rows", None),
        (ShapeKind::GridSurface, temp_file("flat.txt", "0 0 0 1\n1 2\n3 4\n"), "must be > 0", Some(1)),
    ];
    for (kind, path, message, line) in cases {
        let mut p = Parameters::default();
        p.geometry_b.shape = kind.value();
        p.geometry_b.file = path.to_str().unwrap().to_string();
        let e = Block::new(&p, None).unwrap_err();
        let what = format!("{kind:?} {}: {e}", path.display());
        assert_eq!(e.variable, "geometry_b.file", "{what}");
        assert_eq!(e.value, format!("\"{}\"", path.display()), "{what}");
        let located = match line {
            Some(line) => format!("{} line {line}: ", path.display()),
            None => format!("{}: ", path.display()),
        };
        assert!(e.rule.starts_with(&located), "{what}");
        assert!(e.rule.contains(message), "{what}");
    }
}
