//! The block's exact derivatives (forward AD through the laws and the contact kinematics)
//! against central finite differences of its outputs, computed here, outside the block: every
//! normal law, every friction law (on a sphere and a plane), the couples, and every pair family
//! that is differentiated; the refused families are refused naming the pair.
//!
//! States are drawn at random and placed at a random depth along the contact normal. A state is
//! used only if it is away from every non-smooth point: across the whole finite-difference
//! stencil the contact's discrete signature (which points exist, which carry force, which stick,
//! the number of points) must not change, every penetrating point must be deeper than 20 times
//! the largest step and every apart point farther than that, and the two finite-difference steps
//! h and h/2 must agree (Richardson's estimate of the truncation error below 1e-8 relative);
//! otherwise the state is redrawn. The finite differences are Richardson-extrapolated central
//! differences, `(4 D(h/2) - D(h)) / 3`, with h = 1e-6 in every input.

use std::path::PathBuf;

use contact_force::block::jacobian::{input_rates, input_vector, DERIVATIVE_OUTPUTS, INPUTS};
use contact_force::block::{Block, Frame, Inputs, Outputs, Parameters};
use contact_force::physics::contact::PointState;
use contact_force::physics::friction::{FrictionLawKind, TangentialState};
use contact_force::physics::geometry::ContactPoint;
use contact_force::physics::math::Vec3;
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::shape::ShapeKind;

mod support;
use support::Rng;

const ROWS: usize = DERIVATIVE_OUTPUTS.len();
const H: f64 = 1e-6;

fn inputs_from(x: &[f64; INPUTS]) -> Inputs {
    let frame = |o: usize| Frame {
        r_0: [x[o], x[o + 1], x[o + 2]],
        q: [x[o + 3], x[o + 4], x[o + 5], x[o + 6]],
        v_0: [x[o + 7], x[o + 8], x[o + 9]],
        w_0: [x[o + 10], x[o + 11], x[o + 12]],
    };
    Inputs::of_frames(frame(0), frame(13))
}

fn rows(out: &Outputs) -> [f64; ROWS] {
    let (a, b) = (&out.frame_a, &out.frame_b);
    [
        a.f_0[0], a.f_0[1], a.f_0[2], a.t_0[0], a.t_0[1], a.t_0[2], b.f_0[0], b.f_0[1], b.f_0[2], b.t_0[0], b.t_0[1], b.t_0[2],
        out.separation, out.normal_force,
    ]
}

/// What must not change across the stencil: the points found, which carry force, which stick.
fn signature(block: &Block, inputs: &Inputs, states: &[PointState]) -> Vec<(u32, bool, Option<bool>)> {
    let mut out = Outputs::default();
    let mut scratch: Vec<ContactPoint> = Vec::new();
    block.evaluate(inputs, &mut scratch, states, &mut out).unwrap();
    let mut points = Vec::new();
    scratch.clear();
    // The points themselves, through the public pair (block.evaluate may skip the list).
    let sig_points = contact_points(block, inputs);
    for cp in sig_points {
        points.push((cp.id, cp.separation < 0.0, None));
    }
    points.push((out.points as u32, out.active, Some(out.sticking)));
    points
}

fn contact_points(block: &Block, inputs: &Inputs) -> Vec<ContactPoint> {
    let pose = |f: &Frame| contact_force::physics::math::Pose {
        r: Vec3::from(f.r_0),
        q: contact_force::physics::math::rotation_from_wxyz(&f.q).unwrap().0,
    };
    let mut points = Vec::new();
    block.pair().contacts(&pose(&inputs.frame_a), &pose(&inputs.frame_b), &mut points);
    points
}

struct Case {
    block: Block,
    states: Vec<PointState>,
    /// The comparison's tolerance, relative to each row's size (1e-6).
    tolerance: f64,
}

impl Case {
    fn f(&self, x: &[f64; INPUTS]) -> [f64; ROWS] {
        let mut out = Outputs::default();
        self.block.evaluate(&inputs_from(x), &mut Vec::new(), &self.states, &mut out).unwrap();
        rows(&out)
    }

    /// Central difference along input k with step h.
    fn central(&self, x: &[f64; INPUTS], k: usize, h: f64) -> [f64; ROWS] {
        let (mut plus, mut minus) = (*x, *x);
        plus[k] += h;
        minus[k] -= h;
        let (fp, fm) = (self.f(&plus), self.f(&minus));
        std::array::from_fn(|i| (fp[i] - fm[i]) / (2.0 * h))
    }

    /// Is the state away from every non-smooth point (see the module comment)?
    fn smooth_at(&self, x: &[f64; INPUTS]) -> bool {
        let inputs = inputs_from(x);
        let reference = signature(&self.block, &inputs, &self.states);
        let points = contact_points(&self.block, &inputs);
        if points.iter().any(|p| p.separation.abs() < 20.0 * H) {
            return false;
        }
        // contact.separation is the smallest separation: two nearly equally deep points make a
        // kink in it.
        let mut separations: Vec<f64> = points.iter().map(|p| p.separation).collect();
        separations.sort_by(f64::total_cmp);
        if separations.len() > 1 && separations[1] - separations[0] < 20.0 * H {
            return false;
        }
        for k in 0..INPUTS {
            for s in [-1.0, 1.0] {
                let mut y = *x;
                y[k] += s * H;
                if signature(&self.block, &inputs_from(&y), &self.states) != reference {
                    return false;
                }
            }
        }
        true
    }
}

/// Checks the Jacobian and a random directional derivative against finite differences; false if
/// the state was not smooth enough to judge (the caller redraws).
fn check(name: &str, case: &Case, x: &[f64; INPUTS], rng: &mut Rng) -> bool {
    if !case.smooth_at(x) {
        return false;
    }
    let seeds: [[f64; INPUTS]; INPUTS] = std::array::from_fn(|j| std::array::from_fn(|k| if j == k { 1.0 } else { 0.0 }));
    let jacobian = case.block.output_tangents(&inputs_from(x), &case.states, &mut Vec::new(), &seeds).unwrap();
    // The finite differences' rounding noise, about 1e-16 |f| / h: a floor for the comparisons.
    let value = case.f(x);
    let noise: [f64; ROWS] = std::array::from_fn(|i| 1e-7 * (1.0 + value[i].abs()));
    let mut fd = [[0.0; INPUTS]; ROWS];
    for k in 0..INPUTS {
        let (d1, d2, d3) = (case.central(x, k, H), case.central(x, k, H / 2.0), case.central(x, k, H / 4.0));
        for (i, row) in fd.iter_mut().enumerate() {
            // Richardson's own error estimate: the two steps must agree to the extrapolation,
            // and the extrapolations from steps H, H/2 and H/2, H/4 agree to well below the
            // tolerance: otherwise a kink lies within the stencil (a clipped footprint's vertex
            // crossing an outline's edge, where a covered fraction is only once differentiable).
            let scale = jacobian[i].iter().fold(1e-300_f64, |m, v| m.max(v.abs()));
            if (d2[i] - d1[i]).abs() > 1e-3 * scale + noise[i] {
                return false;
            }
            if ((4.0 * d2[i] - d1[i]) - (4.0 * d3[i] - d2[i])).abs() / 3.0 > 1e-7 * scale + noise[i] {
                return false;
            }
            row[k] = (4.0 * d2[i] - d1[i]) / 3.0;
        }
    }
    for i in 0..ROWS {
        if i == 12 && value[12] == f64::MAX {
            continue;
        }
        // Relative to the row's largest entry: a row's entries share its unit per input kind,
        // and scaled so that the tolerance is 1e-6 of the row's size.
        let scale = jacobian[i].iter().chain(fd[i].iter()).fold(0.0_f64, |m, v| m.max(v.abs()));
        for k in 0..INPUTS {
            let error = (jacobian[i][k] - fd[i][k]).abs();
            assert!(
                error <= case.tolerance * scale + noise[i],
                "{name}: d {} / d input {} = {} by AD, {} by finite differences (row scale {scale:e}) at {x:?}",
                DERIVATIVE_OUTPUTS[i],
                k + 1,
                jacobian[i][k],
                fd[i][k]
            );
        }
    }
    // One seed direction (Dual<1>) gives J times the seed.
    let seed: [f64; INPUTS] = std::array::from_fn(|_| rng.range(-1.0, 1.0));
    let directional = case.block.output_tangents(&inputs_from(x), &case.states, &mut Vec::new(), &[seed]).unwrap();
    for i in 0..ROWS {
        let expected: f64 = (0..INPUTS).map(|k| jacobian[i][k] * seed[k]).sum();
        let scale = jacobian[i].iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        assert!((directional[i][0] - expected).abs() <= 1e-12 * scale * 26.0 + noise[i], "{name}: seed direction, row {i}");
    }
    true
}

/// Random inputs with B placed at `depth` below A's surface along the contact normal.
fn draw(block: &Block, rng: &mut Rng, depth: f64, speed: f64, spin: f64) -> [f64; INPUTS] {
    let mut inputs = Inputs::default();
    inputs.frame_a.r_0 = rng.vec(0.05).into();
    inputs.frame_a.q = rng.quaternion();
    inputs.frame_b.q = rng.quaternion();
    // Not quite unit: the derivatives go through the normalisation.
    inputs.frame_b.q = inputs.frame_b.q.map(|c| c * 1.0003);
    inputs.frame_b.r_0 = (Vec3::from(inputs.frame_a.r_0) + rng.vec(0.05)).into();
    for frame in [&mut inputs.frame_a, &mut inputs.frame_b] {
        frame.v_0 = rng.vec(speed).into();
        frame.w_0 = rng.vec(spin).into();
    }
    for _ in 0..6 {
        let mut out = Outputs::default();
        block.evaluate(&inputs, &mut Vec::new(), &[], &mut out).unwrap();
        if out.separation == f64::MAX {
            break;
        }
        let shift = Vec3::from(out.n_0) * (-depth - out.separation);
        inputs.frame_b.r_0 = (Vec3::from(inputs.frame_b.r_0) + shift).into();
    }
    input_vector(&inputs)
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let folder = support::scratch_dir("derivatives");
    // A file of its own per call: the tests run on several threads.
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let path = folder.join(format!("{}_{name}", COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    std::fs::write(&path, text).unwrap();
    path
}

fn geometry(p: &mut contact_force::block::GeometryParameters, kind: ShapeKind, rng: &mut Rng) {
    p.shape = kind.value();
    p.radius = rng.range(0.03, 0.06);
    p.length = rng.range(0.05, 0.1);
    p.size = [rng.range(0.04, 0.1), rng.range(0.04, 0.1), rng.range(0.04, 0.1)];
    match kind {
        ShapeKind::PointCloud => {
            let text: String = (0..40).map(|_| rng.vec(0.04)).map(|v| format!("{},{},{}\n", v.x, v.y, v.z)).collect();
            p.file = temp_file("cloud.csv", &text).to_str().unwrap().to_string();
        }
        ShapeKind::ConvexHull => {
            let text: String = (0..30).map(|_| rng.vec(0.05)).map(|v| format!("{},{},{}\n", v.x, v.y, v.z)).collect();
            p.file = temp_file("hull.csv", &text).to_str().unwrap().to_string();
        }
        ShapeKind::Mesh => {
            // A tetrahedron's surface, a bit irregular.
            let v: Vec<Vec3> = (0..4).map(|i| rng.vec(0.01) + [Vec3::new(0.05, 0.0, -0.03), Vec3::new(-0.03, 0.04, -0.03), Vec3::new(-0.03, -0.04, -0.03), Vec3::new(0.0, 0.0, 0.05)][i]).collect();
            let mut text: String = v.iter().map(|v| format!("v {} {} {}\n", v.x, v.y, v.z)).collect();
            text.push_str("f 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n");
            p.file = temp_file("mesh.obj", &text).to_str().unwrap().to_string();
        }
        ShapeKind::GridSurface => {
            let mut text = String::from("-0.3 -0.3 0.1 0.1\n");
            for _ in 0..7 {
                let row: Vec<String> = (0..7).map(|_| format!("{}", rng.range(-0.01, 0.01))).collect();
                text.push_str(&row.join(" "));
                text.push('\n');
            }
            p.file = temp_file("grid.txt", &text).to_str().unwrap().to_string();
        }
        _ => {}
    }
}

/// Runs `draws` good random states of `p` (each placed `depth` deep); states with deflections
/// for the stateful laws.
fn run(name: &str, p: &Parameters, rng: &mut Rng, draws: usize, depth: (f64, f64)) {
    run_to(name, p, rng, draws, depth, 1e-6);
}

/// [`run`] with the comparison's relative tolerance.
fn run_to(name: &str, p: &Parameters, rng: &mut Rng, draws: usize, depth: (f64, f64), tolerance: f64) {
    let (block, _) = Block::new(p, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut checked = 0;
    let mut tries = 0;
    while checked < draws {
        tries += 1;
        assert!(tries < 40 * draws, "{name}: no smooth state found in {tries} draws");
        let d = rng.range(depth.0, depth.1);
        let x = draw(&block, rng, d, 0.05, 1.0);
        let states = (0..block.pair().max_points())
            .map(|_| PointState {
                tangential: TangentialState { deflection: rng.vec(3e-5), slipping: false },
                onset_speed: if rng.next() < 0.5 { 0.0 } else { rng.range(0.01, 0.5) },
            })
            .collect();
        let case = Case { block: block.clone(), states, tolerance };
        if check(name, &case, &x, rng) {
            checked += 1;
        }
    }
}

fn sphere_on_plane() -> Parameters {
    let mut p = Parameters::default();
    p.geometry_a.shape = ShapeKind::Plane.value();
    p.geometry_b.shape = ShapeKind::Sphere.value();
    p.geometry_b.radius = 0.05;
    p
}

#[test]
fn every_normal_law_on_a_sphere_and_a_plane() {
    let mut rng = Rng(0x9e37_79b9_0000 + 11);
    for law in NormalLawKind::ITEMS.iter().map(|i| NormalLawKind::from_value(i.value).unwrap()) {
        let mut p = sphere_on_plane();
        p.normal.law = law.value();
        p.normal.damping = if law == NormalLawKind::GroundModel { 1e4 } else { 1e3 };
        p.normal.stiffness = if law == NormalLawKind::GroundModel { 1e8 } else { 1e6 };
        p.normal.velocity_exponent = 0.8;
        run(law.name(), &p, &mut rng, 4, (2e-4, 2e-3));
    }
}

#[test]
fn every_friction_law_on_a_sphere_and_a_plane() {
    let mut rng = Rng(0x9e37_79b9_0000 + 12);
    for law in FrictionLawKind::ITEMS.iter().map(|i| FrictionLawKind::from_value(i.value).unwrap()) {
        let mut p = sphere_on_plane();
        p.friction.law = law.value();
        run(law.name(), &p, &mut rng, 4, (2e-4, 2e-3));
    }
}

#[test]
fn spin_friction_and_rolling_resistance() {
    let mut rng = Rng(0x9e37_79b9_0000 + 13);
    for law in [FrictionLawKind::Tanh, FrictionLawKind::Stribeck, FrictionLawKind::AdamsCoulomb] {
        let mut p = sphere_on_plane();
        p.friction.law = law.value();
        p.friction.torque_radius = 0.01;
        p.friction.rolling = 0.02;
        run(&format!("{} with couples", law.name()), &p, &mut rng, 3, (2e-4, 2e-3));
    }
}

#[test]
fn offsets_of_the_geometry_frames() {
    let mut rng = Rng(0x9e37_79b9_0000 + 14);
    let mut p = sphere_on_plane();
    p.geometry_b.shape = ShapeKind::Box.value();
    p.geometry_a.r = [0.01, -0.02, 0.03];
    p.geometry_a.q = [0.9, 0.1, -0.2, 0.3];
    p.geometry_b.r = [-0.01, 0.02, 0.01];
    p.geometry_b.q = [0.8, -0.3, 0.2, 0.1];
    run("Plane-Box with offsets", &p, &mut rng, 3, (2e-4, 2e-3));
}

/// Every pair family that is differentiated, in the order given and mirrored.
#[test]
fn every_differentiated_pair_family() {
    use ShapeKind::*;
    let pairs = [
        (Plane, Sphere),
        (Plane, Point),
        (Sphere, Sphere),
        (Sphere, Point),
        (Plane, Box),
        (Plane, Capsule),
        (Capsule, Capsule),
        (Plane, Cylinder),
        (Plane, Disk),
        (Plane, Rectangle),
        (Plane, Ellipsoid),
        (Plane, ConvexHull),
        (Plane, Mesh),
        (Plane, PointCloud),
        (Box, PointCloud),
        (Sphere, PointCloud),
        (Capsule, PointCloud),
        (Cylinder, PointCloud),
        (Disk, PointCloud),
        (Rectangle, PointCloud),
        (GridSurface, PointCloud),
        (GridSurface, Sphere),
        (Box, Sphere),
        (Capsule, Sphere),
        (Cylinder, Sphere),
        (Disk, Sphere),
        (Rectangle, Point),
        (Ellipsoid, Sphere),
        (Ellipsoid, Point),
        (Ellipsoid, PointCloud),
    ];
    let mut rng = Rng(0x9e37_79b9_0000 + 15);
    for (a, b) in pairs {
        for (a, b) in [(a, b), (b, a)] {
            let mut p = Parameters::default();
            p.friction.law = FrictionLawKind::Stribeck.value();
            geometry(&mut p.geometry_a, a, &mut rng);
            geometry(&mut p.geometry_b, b, &mut rng);
            run(&format!("{}-{}", a.name(), b.name()), &p, &mut rng, 3, (2e-4, 3e-3));
        }
    }
}

/// The polytope pairs of the contact patch and the polytope-capsule pairs (features identified
/// from the f64 points and re-derived), the face-box pairs (coverage weight over the poses) and the hull's surface
/// query, in the order given and mirrored: overlapping
/// (patches) and apart (the closest pair, whose separation is an output).
#[test]
fn polytope_pairs_and_hull_surfaces() {
    use ShapeKind::*;
    let pairs = [(Box, Box), (ConvexHull, ConvexHull), (ConvexHull, Box), (ConvexHull, Rectangle), (ConvexHull, Sphere), (ConvexHull, Point), (ConvexHull, PointCloud), (Box, Capsule), (ConvexHull, Capsule), (Mesh, Sphere), (Mesh, Point), (Mesh, PointCloud)];
    let mut rng = Rng(0x9e37_79b9_0000 + 17);
    for (a, b) in pairs {
        for (a, b) in [(a, b), (b, a)] {
            let mut p = Parameters::default();
            p.friction.law = FrictionLawKind::Stribeck.value();
            geometry(&mut p.geometry_a, a, &mut rng);
            geometry(&mut p.geometry_b, b, &mut rng);
            run(&format!("{}-{}", a.name(), b.name()), &p, &mut rng, 6, (2e-4, 3e-3));
            run(&format!("{}-{} apart", a.name(), b.name()), &p, &mut rng, 4, (-3e-3, -2e-4));
        }
    }
}

/// An ellipsoid against a polytope: against a face, a vertex or (by a Newton step of the
/// ellipsoid-line normal) an edge. The f64 pass's normal comes from GJK/EPA and a fixed-point
/// polish that stop about 1e-7 of the sizes short of the exact contact, so its finite
/// differences are those of a slightly different function: compared to 1e-4 here.
#[test]
fn ellipsoid_against_polytopes() {
    use ShapeKind::*;
    let mut rng = Rng(0x9e37_79b9_0000 + 19);
    for b in [Box, ConvexHull, Rectangle] {
        for (a, b) in [(Ellipsoid, b), (b, Ellipsoid)] {
            let mut p = Parameters::default();
            p.friction.law = FrictionLawKind::Stribeck.value();
            geometry(&mut p.geometry_a, a, &mut rng);
            geometry(&mut p.geometry_b, b, &mut rng);
            run_to(&format!("{}-{}", a.name(), b.name()), &p, &mut rng, 6, (2e-4, 3e-3), 1e-4);
            run_to(&format!("{}-{} apart", a.name(), b.name()), &p, &mut rng, 4, (-3e-3, -2e-4), 1e-4);
        }
    }
}

/// The finite-face pairs (Rectangle or Disk against a box, cylinder, capsule or face): the
/// covered-fraction weight over the poses, in the order given and mirrored; faces of equal area
/// (both sets of points at half weight) too.
#[test]
fn face_pairs() {
    use ShapeKind::*;
    let pairs = [
        (Rectangle, Box),
        (Disk, Box),
        (Rectangle, Cylinder),
        (Disk, Cylinder),
        (Rectangle, Capsule),
        (Disk, Capsule),
        (Rectangle, Rectangle),
        (Rectangle, Disk),
        (Disk, Disk),
    ];
    let mut rng = Rng(0x9e37_79b9_0000 + 18);
    for (a, b) in pairs {
        for (a, b) in [(a, b), (b, a)] {
            let mut p = Parameters::default();
            p.friction.law = FrictionLawKind::Stribeck.value();
            geometry(&mut p.geometry_a, a, &mut rng);
            geometry(&mut p.geometry_b, b, &mut rng);
            run(&format!("{}-{}", a.name(), b.name()), &p, &mut rng, 4, (2e-4, 3e-3));
            if a == b {
                p.geometry_b.size = p.geometry_a.size;
                p.geometry_b.radius = p.geometry_a.radius;
                run(&format!("{}-{} of equal areas", a.name(), b.name()), &p, &mut rng, 4, (2e-4, 3e-3));
            }
        }
    }
}

#[test]
fn refused_pairs_name_the_pair() {
    use ShapeKind::*;
    let mut rng = Rng(0x9e37_79b9_0000 + 16);
    for (a, b) in [(Capsule, Cylinder), (Mesh, Box), (Ellipsoid, Capsule), (Cylinder, Capsule), (Ellipsoid, Ellipsoid), (Mesh, ConvexHull), (Mesh, Capsule), (Box, Cylinder), (Cylinder, Cylinder), (ConvexHull, Disk), (ConvexHull, Cylinder), (Ellipsoid, Cylinder)] {
        let mut p = Parameters::default();
        geometry(&mut p.geometry_a, a, &mut rng);
        geometry(&mut p.geometry_b, b, &mut rng);
        let (block, _) = Block::new(&p, None).unwrap();
        let error = block.output_tangents(&Inputs::default(), &[], &mut Vec::new(), &[[0.0; INPUTS]]).unwrap_err().to_string();
        assert!(error.contains(a.name()) && error.contains(b.name()) && error.contains("no exact derivatives"), "{error}");
    }
}

/// The inputs' rates: dr/dt = v and dq/dt = 1/2 (0, w) ⊗ q, checked against the rotation of a
/// body vector: d/dt (q v q*) = w × (q v q*).
#[test]
fn input_rates_follow_the_twists() {
    let mut rng = Rng(0x9e37_79b9_0000 + 17);
    let mut inputs = Inputs::default();
    inputs.frame_a.q = rng.quaternion();
    inputs.frame_a.v_0 = [0.1, -0.2, 0.3];
    inputs.frame_a.w_0 = [0.4, 0.5, -0.6];
    let rates = input_rates(&inputs, None);
    assert_eq!(&rates[0..3], &[0.1, -0.2, 0.3]);
    let q = inputs.frame_a.q;
    let dq = &rates[3..7];
    let h = 1e-6;
    let rotate = |q: [f64; 4]| {
        let r = contact_force::physics::math::rotation_from_wxyz(&q).unwrap().0;
        r * Vec3::new(0.3, -0.1, 0.7)
    };
    let ahead = rotate(std::array::from_fn(|i| q[i] + h * dq[i]));
    let behind = rotate(std::array::from_fn(|i| q[i] - h * dq[i]));
    let rate = (ahead - behind) / (2.0 * h);
    let expected = Vec3::from(inputs.frame_a.w_0).cross(&rotate(q));
    assert!((rate - expected).norm() < 1e-8, "{rate} != {expected}");
    let given: [f64; INPUTS] = std::array::from_fn(|k| k as f64);
    let with = input_rates(&inputs, Some(&given));
    assert_eq!(&with[7..13], &given[7..13]);
    assert_eq!(&with[0..7], &rates[0..7]);
}


/// The inputs at time `t` of both bodies moving with their constant twists (w in W).
fn moved(x0: &[f64; INPUTS], t: f64) -> [f64; INPUTS] {
    let mut x = *x0;
    for o in [0, 13] {
        let (v, w) = (Vec3::new(x0[o + 7], x0[o + 8], x0[o + 9]), Vec3::new(x0[o + 10], x0[o + 11], x0[o + 12]));
        let r = Vec3::new(x0[o], x0[o + 1], x0[o + 2]) + v * t;
        let q0 = nalgebra::Quaternion::new(x0[o + 3], x0[o + 4], x0[o + 5], x0[o + 6]);
        let q = contact_force::physics::math::Rotation::from_scaled_axis(w * t).quaternion() * q0;
        x[o..o + 3].copy_from_slice(r.as_slice());
        x[o + 3..o + 7].copy_from_slice(&[q.w, q.i, q.j, q.k]);
    }
    x
}

/// Output derivatives (`Block::output_rates`) against central differences in time along a
/// constant-twist motion, with the deflection states advancing as DoStep advances them
/// (`Block::advance` over the step h, inputs held; backward by the mirror `2 x - x(h)`): every
/// friction law, the stateful ones with their states' own rates.
#[test]
fn output_rates_agree_with_differences_in_time() {
    let mut rng = Rng(0x9e37_79b9_0000 + 18);
    for law in FrictionLawKind::ITEMS.iter().map(|i| FrictionLawKind::from_value(i.value).unwrap()) {
        let mut p = sphere_on_plane();
        p.friction.law = law.value();
        p.normal.law = NormalLawKind::GroundModel.value();
        p.normal.stiffness = 1e8;
        p.normal.damping = 1e4;
        let (block, _) = Block::new(&p, None).unwrap();
        let mut checked = 0;
        for _ in 0..40 {
            if checked == 3 {
                break;
            }
            let d = rng.range(3e-4, 2e-3);
            let mut x = draw(&block, &mut rng, d, 0.05, 1.0);
            for o in [3, 16] {
                let norm = x[o..o + 4].iter().map(|c| c * c).sum::<f64>().sqrt();
                x[o..o + 4].iter_mut().for_each(|c| *c /= norm);
            }
            let states = vec![
                PointState { tangential: TangentialState { deflection: rng.vec(1e-5), slipping: false }, onset_speed: 0.0 };
                block.pair().max_points()
            ];
            let value = |x: &[f64; INPUTS], states: &[PointState]| {
                let mut out = Outputs::default();
                block.evaluate(&inputs_from(x), &mut Vec::new(), states, &mut out).unwrap();
                (rows(&out), (out.points, out.sticking))
            };
            let reference = value(&x, &states).1;
            let difference = |h: f64| {
                let mut ahead = states.clone();
                block.advance(&inputs_from(&x), &mut Vec::new(), &mut ahead, h).unwrap();
                let behind: Vec<PointState> = states
                    .iter()
                    .zip(&ahead)
                    .map(|(s, a)| PointState { tangential: TangentialState { deflection: s.tangential.deflection * 2.0 - a.tangential.deflection, ..s.tangential }, ..*s })
                    .collect();
                let (plus, sp) = value(&moved(&x, h), &ahead);
                let (minus, sm) = value(&moved(&x, -h), &behind);
                (sp == reference && sm == reference && ahead.iter().all(|a| !a.tangential.slipping)).then(|| std::array::from_fn::<f64, ROWS, _>(|i| (plus[i] - minus[i]) / (2.0 * h)))
            };
            let (Some(d1), Some(d2)) = (difference(1e-7), difference(5e-8)) else { continue };
            let exact = block.output_rates(&inputs_from(&x), &states, &mut Vec::new(), None).unwrap();
            let scale = exact.iter().take(12).fold(0.0_f64, |m, v| m.max(v.abs()));
            if (0..12).any(|i| (d1[i] - d2[i]).abs() > 1e-4 * scale) {
                continue;
            }
            for i in 0..ROWS {
                let fd = (4.0 * d2[i] - d1[i]) / 3.0;
                assert!(
                    (exact[i] - fd).abs() <= 1e-5 * scale + 1e-6 * (1.0 + value(&x, &states).0[i].abs()),
                    "{}: d {} / dt = {} exactly, {fd} by differences",
                    law.name(),
                    DERIVATIVE_OUTPUTS[i],
                    exact[i]
                );
            }
            checked += 1;
        }
        assert_eq!(checked, 3, "{}: no smooth state", law.name());
    }
}
