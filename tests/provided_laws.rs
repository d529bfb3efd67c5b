//! Laws provided by input (`normal.law`, `friction.law` = ProvidedByInput): a law written in this
//! test, fed from the block's per-slot outputs (depth, depth rate, slip velocity, contact frame),
//! gives back the built-in law's outputs to 1e-12 on every pair family with at most 8 points (a
//! sphere, a box's corners, a capsule's ends, a face patch, a point cloud in its file's order),
//! for every combination of provided and built-in laws, and through DoStep with a stateful
//! friction law fed by a provided normal force; the forces are clipped as the built-in laws';
//! the exact derivatives with respect to the provided forces are their finite differences; what
//! is not offered (more than 8 points, StepAverage, the spin torque of provided friction) is
//! refused naming the variables; and the same through the FMI 3 and FMI 2 C APIs.

use std::path::PathBuf;

use contact_force::block::jacobian::{INPUTS, PROVIDED_INPUTS};
use contact_force::block::{Block, Frame, Inputs, Outputs, Parameters, POINT_OUTPUTS};
use contact_force::fmi::status::Status;
use contact_force::model::Model;
use contact_force::physics::contact::PointState;
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::math::{Rotation, Vec3};
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::shape::ShapeKind;

mod support;
use support::Rng;

const K: f64 = 1e5;
const B: f64 = 300.0;
const MU: f64 = 0.4;
const GAIN: f64 = 200.0;

/// The test's own LinearSpringDamper: `k d + b dd` (the block clips at 0).
fn linear_spring_damper(depth: f64, depth_rate: f64) -> f64 {
    K * depth + B * depth_rate
}

/// The test's own Tanh friction along the slip: `-mu tanh(k_mu v) f_n v_t / v`, with the limit
/// `mu k_mu` of `tanh(k_mu v) / v` at rest.
fn tanh_friction(normal_force: f64, slip: [f64; 2]) -> [f64; 2] {
    let speed = slip[0].hypot(slip[1]);
    let mu_over_speed = if speed * GAIN < 1e-8 { MU * GAIN } else { MU * (GAIN * speed).tanh() / speed };
    [-mu_over_speed * normal_force * slip[0], -mu_over_speed * normal_force * slip[1]]
}

fn base(a: ShapeKind, b: ShapeKind) -> Parameters {
    let mut p = Parameters::default();
    p.geometry_a.shape = a.value();
    p.geometry_b.shape = b.value();
    p.normal.law = NormalLawKind::LinearSpringDamper.value();
    (p.normal.stiffness, p.normal.damping) = (K, B);
    p.friction.law = FrictionLawKind::Tanh.value();
    (p.friction.mu_dynamic, p.friction.tanh_gain) = (MU, GAIN);
    p
}

fn with_laws(p: &Parameters, normal_provided: bool, friction_provided: bool) -> Parameters {
    let mut p = p.clone();
    if normal_provided {
        p.normal.law = NormalLawKind::ProvidedByInput.value();
    }
    if friction_provided {
        p.friction.law = FrictionLawKind::ProvidedByInput.value();
    }
    p
}

fn evaluate(block: &Block, inputs: &Inputs, states: &[PointState]) -> Outputs {
    let mut out = Outputs::default();
    block.evaluate(inputs, &mut Vec::new(), states, &mut out).expect("valid inputs");
    out
}

/// The test's laws at every slot of `out` (the block's outputs for these inputs): the normal
/// force from the slot's depth and rate, the friction from the slot's slip and the law's normal
/// force (the provided one, or the built-in one, which the slot's output holds times its weight).
fn user_law(out: &Outputs, inputs: &mut Inputs, normal_provided: bool) {
    for i in 0..POINT_OUTPUTS {
        let law = &out.law[i];
        let normal = linear_spring_damper(law.depth, law.depth_rate);
        let law_normal = if normal_provided {
            if law.depth > 0.0 {
                normal.max(0.0)
            } else {
                0.0
            }
        } else if law.weight > 0.0 {
            out.point[i].normal_force / law.weight
        } else {
            0.0
        };
        inputs.provided[i].normal_force = normal;
        inputs.provided[i].friction_force = tanh_friction(law_normal, law.slip_velocity);
    }
}

/// Every real output of the contact and its slots, to compare.
fn reals(o: &Outputs) -> Vec<f64> {
    let mut v: Vec<f64> = [o.frame_a.f_0, o.frame_a.t_0, o.frame_b.f_0, o.frame_b.t_0, o.p_0, o.n_0].concat();
    v.extend([o.separation, o.normal_force, o.friction_force, o.slip_speed, o.points as f64, o.active as u8 as f64]);
    for p in &o.point {
        v.extend(p.p_0);
        v.extend([p.separation, p.normal_force, p.friction_force, p.active as u8 as f64]);
    }
    v
}

fn assert_same(got: &Outputs, want: &Outputs, what: &str) {
    let (g, w) = (reals(got), reals(want));
    let scale = w.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
    for (k, (x, y)) in g.iter().zip(&w).enumerate() {
        assert!((x - y).abs() <= 1e-12 * scale, "{what}: output {k}: {x} != {y} (scale {scale})");
    }
}

fn quaternion(r: &Rotation) -> [f64; 4] {
    [r.w, r.i, r.j, r.k]
}

/// Random twists and a small random tilt about B's placement `r_b`, `q_b`.
fn frames(rng: &mut Rng, r_b: [f64; 3], q_b: Rotation) -> (Frame, Frame) {
    let tilt = Rotation::from_scaled_axis(rng.vec(0.02));
    let a = Frame { r_0: [0.0; 3], q: [1.0, 0.0, 0.0, 0.0], v_0: rng.vec(0.2).into(), w_0: rng.vec(1.0).into() };
    let b = Frame { r_0: r_b, q: quaternion(&(tilt * q_b)), v_0: rng.vec(0.2).into(), w_0: rng.vec(1.0).into() };
    (a, b)
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let folder = support::scratch_dir("provided_laws");
    let path = folder.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The pairs, each with B's placement: penetrating by about 1 mm.
fn pairs() -> Vec<(&'static str, Parameters, [f64; 3], Rotation)> {
    let lying = Rotation::from_scaled_axis(Vec3::new(std::f64::consts::FRAC_PI_2, 0.0, 0.0));
    let mut out = Vec::new();
    out.push(("sphere on plane", base(ShapeKind::Plane, ShapeKind::Sphere), [0.0, 0.0, 0.099], Rotation::identity()));
    out.push(("plane under sphere (B the plane)", base(ShapeKind::Sphere, ShapeKind::Plane), [0.0, 0.0, -0.099], Rotation::identity()));
    let mut boxed = base(ShapeKind::Plane, ShapeKind::Box);
    boxed.geometry_b.size = [0.2, 0.1, 0.1];
    out.push(("box on plane (8 corners)", boxed, [0.0, 0.0, 0.049], Rotation::identity()));
    let mut capsule = base(ShapeKind::Plane, ShapeKind::Capsule);
    (capsule.geometry_b.radius, capsule.geometry_b.length) = (0.05, 0.2);
    out.push(("capsule lying on plane", capsule, [0.0, 0.0, 0.049], lying));
    let mut spheres = base(ShapeKind::Sphere, ShapeKind::Sphere);
    spheres.geometry_a.radius = 0.2;
    out.push(("sphere on sphere", spheres, [0.06, 0.08, 0.282], Rotation::identity()));
    let mut face = base(ShapeKind::Rectangle, ShapeKind::Box);
    face.geometry_a.size = [0.15, 0.5, 0.0];
    face.geometry_b.size = [0.2, 0.1, 0.1];
    out.push(("box over a rectangle's edge (weights)", face, [0.06, 0.0, 0.049], Rotation::identity()));
    let mut cloud = base(ShapeKind::Plane, ShapeKind::PointCloud);
    let path = temp_file("five.csv", "0.1,0,-0.002\n-0.1,0.02,0.001\n0,0.1,-0.001\n0.03,-0.1,-0.0005\n0,0,0.004\n");
    cloud.geometry_b.file = path.to_string_lossy().into_owned();
    out.push(("point cloud of 5 on plane", cloud, [0.0, 0.0, 0.0], Rotation::identity()));
    out
}

#[test]
fn a_provided_law_equal_to_the_built_in_one_gives_its_outputs_to_1e_12_on_every_pair_family() {
    let mut rng = Rng(21);
    let mut partial = false;
    for (name, p, r_b, q_b) in pairs() {
        let (builtin, _) = Block::new(&p, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        for combination in [(true, true), (true, false), (false, true)] {
            let (provided, _) = Block::new(&with_laws(&p, combination.0, combination.1), None).unwrap();
            for _ in 0..20 {
                let (a, b) = frames(&mut rng, r_b, q_b);
                let mut inputs = Inputs::of_frames(a, b);
                let want = evaluate(&builtin, &inputs, &[]);
                // The slots' kinematics do not depend on the provided forces: read them, run the
                // law, give its forces.
                let first = evaluate(&provided, &inputs, &[]);
                user_law(&first, &mut inputs, combination.0);
                let got = evaluate(&provided, &inputs, &[]);
                assert_eq!(got.law, first.law, "{name}: the law's inputs do not depend on its forces");
                assert!(want.separation < 0.0, "{name}: the pose must touch");
                assert_same(&got, &want, &format!("{name}, provided (normal, friction) = {combination:?}"));
                partial |= got.law.iter().any(|l| l.weight > 0.0 && l.weight < 1.0);
            }
        }
    }
    assert!(partial, "some point is partly covered");
}

#[test]
fn the_slots_kinematics_are_the_points_and_a_cloud_follows_its_file() {
    let mut p = base(ShapeKind::Plane, ShapeKind::PointCloud);
    let heights: [f64; 5] = [-0.002, 0.001, -0.001, -0.0005, 0.004];
    let text: String = heights.iter().enumerate().map(|(i, z)| format!("{},{},{z}\n", 0.1 * i as f64, -0.05 * i as f64)).collect();
    p.geometry_b.file = temp_file("ordered.csv", &text).to_string_lossy().into_owned();
    let (block, _) = Block::new(&with_laws(&p, true, true), None).unwrap();
    let b = Frame { v_0: [0.3, -0.2, -0.5], ..Frame::default() };
    let out = evaluate(&block, &Inputs::of_frames(Frame::default(), b), &[]);
    for (i, z) in heights.iter().enumerate() {
        let law = &out.law[i];
        assert_eq!(law.depth, (-z).max(0.0), "slot {i} is file point {i}");
        assert_eq!(law.depth_rate, 0.5);
        assert_eq!(law.n_0, [0.0, 0.0, 1.0]);
        assert_eq!((law.tangent1_0, law.tangent2_0), ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]));
        assert_eq!(law.slip_velocity, [0.3, -0.2]);
        assert_eq!(law.weight, 1.0);
        assert_eq!(out.point[i].p_0[0], 0.1 * i as f64);
    }
    // Slots beyond the cloud read zero.
    assert_eq!(out.law[5], Default::default());
}

#[test]
fn provided_forces_are_clipped_as_the_built_in_laws() {
    let p = with_laws(&base(ShapeKind::Plane, ShapeKind::Sphere), true, true);
    let (block, _) = Block::new(&p, None).unwrap();
    let at = |z: f64, normal: f64, friction: [f64; 2]| {
        let mut inputs = Inputs::of_frames(Frame::default(), Frame { r_0: [0.0, 0.0, z], ..Frame::default() });
        inputs.provided[0].normal_force = normal;
        inputs.provided[0].friction_force = friction;
        // A slot without a point: its inputs are read by nothing.
        inputs.provided[3].normal_force = 1e9;
        evaluate(&block, &inputs, &[])
    };
    let pressed = at(0.099, 120.0, [3.0, -4.0]);
    assert_eq!(pressed.frame_b.f_0, [3.0, -4.0, 120.0]);
    assert_eq!(pressed.frame_a.f_0, [-3.0, 4.0, -120.0]);
    assert_eq!((pressed.normal_force, pressed.friction_force), (120.0, 5.0));
    // A pulling normal force is clipped to 0, and friction needs a normal force.
    let pulling = at(0.099, -120.0, [3.0, -4.0]);
    assert_eq!((pulling.frame_b.f_0, pulling.points), ([0.0; 3], 0));
    // Apart, the point carries nothing whatever its inputs (its kinematics are still given).
    let apart = at(0.101, 120.0, [3.0, -4.0]);
    assert_eq!((apart.frame_b.f_0, apart.points), ([0.0; 3], 0));
    assert_eq!(apart.law[0].depth, 0.0);
    assert_eq!(apart.law[0].n_0, [0.0, 0.0, 1.0]);
    // normal.max_depth: a point passed through carries nothing.
    let mut deep = p.clone();
    deep.normal.max_depth = 5e-4;
    let (block, _) = Block::new(&deep, None).unwrap();
    let mut inputs = Inputs::of_frames(Frame::default(), Frame { r_0: [0.0, 0.0, 0.099], ..Frame::default() });
    inputs.provided[0].normal_force = 120.0;
    assert_eq!(evaluate(&block, &inputs, &[]).frame_b.f_0, [0.0; 3]);
}

/// GroundModel with ElasticCone through DoStep, against GroundModel provided by this test and
/// the block's ElasticCone fed by it: the stateful law advances with the provided normal force.
#[test]
fn a_stateful_friction_law_advances_with_a_provided_normal_force() {
    let (stiffness, damping) = (1e7, 1e4);
    let ground = |depth: f64, rate: f64| depth.sqrt() * (stiffness * depth + damping * rate);
    let mut models = [Model::default(), Model::default()];
    for (k, model) in models.iter_mut().enumerate() {
        let p = &mut model.parameters;
        p.normal.law = if k == 0 { NormalLawKind::GroundModel.value() } else { NormalLawKind::ProvidedByInput.value() };
        (p.normal.stiffness, p.normal.damping) = (stiffness, damping);
        p.friction.law = FrictionLawKind::ElasticCone.value();
        (p.friction.mu_static, p.friction.stiffness, p.friction.damping) = (0.5, 1e6, 2.5e3);
        model.parameters_changed();
        model.initialize().expect("valid");
    }
    for step in 0..40 {
        let t = step as f64 * 1e-3;
        let b = Frame { r_0: [2e-3 * t, 0.0, 0.1 - 1e-4 - 1e-3 * t], v_0: [2e-3, 0.0, -1e-3], ..Frame::default() };
        for model in &mut models {
            model.inputs.frame_b = b.clone();
            model.inputs_changed();
        }
        let law = models[1].update_outputs().expect("outputs").law[0];
        models[1].inputs.provided[0].normal_force = ground(law.depth, law.depth_rate);
        models[1].inputs_changed();
        let (want, got) = (models[0].update_outputs().unwrap().clone(), models[1].update_outputs().unwrap().clone());
        assert_same(&got, &want, &format!("step {step}"));
        assert_eq!(got.sticking, want.sticking);
        for model in &mut models {
            model.do_step(1e-3).expect("step");
        }
    }
    assert_eq!(models[0].point_states()[0], models[1].point_states()[0]);
}

#[test]
#[allow(clippy::needless_range_loop)] // A column names a slot and a component as well as a column.
fn the_derivatives_with_respect_to_the_provided_forces_are_their_finite_differences() {
    let mut p = with_laws(&base(ShapeKind::Plane, ShapeKind::Box), true, false);
    p.geometry_b.size = [0.2, 0.1, 0.1];
    for friction in [FrictionLawKind::Tanh, FrictionLawKind::ProvidedByInput] {
        p.friction.law = friction.value();
        let (block, _) = Block::new(&p, None).unwrap();
        let mut rng = Rng(7);
        let (a, b) = frames(&mut rng, [0.0, 0.0, 0.049], Rotation::identity());
        let mut inputs = Inputs::of_frames(a, b);
        for i in 0..POINT_OUTPUTS {
            inputs.provided[i].normal_force = 50.0 + 10.0 * i as f64;
            inputs.provided[i].friction_force = [3.0 - i as f64, 0.5 * i as f64];
        }
        let units: [[f64; PROVIDED_INPUTS]; PROVIDED_INPUTS] = std::array::from_fn(|j| std::array::from_fn(|k| (j == k) as u8 as f64));
        let jacobian = block.output_tangents_provided(&inputs, &[], &mut Vec::new(), &[[0.0; INPUTS]; PROVIDED_INPUTS], &units).unwrap();
        let out = |inputs: &Inputs| {
            let o = evaluate(&block, inputs, &[]);
            [o.frame_a.f_0, o.frame_a.t_0, o.frame_b.f_0, o.frame_b.t_0].concat()
        };
        let mut carried = 0;
        for column in 0..PROVIDED_INPUTS {
            let (slot, c) = (column / 3, column % 3);
            let h = 1e-3;
            let moved = |s: f64| {
                let mut moved = inputs.clone();
                match c {
                    0 => moved.provided[slot].normal_force += s,
                    _ => moved.provided[slot].friction_force[c - 1] += s,
                }
                out(&moved)
            };
            let (plus, minus) = (moved(h), moved(-h));
            for row in 0..12 {
                let fd = (plus[row] - minus[row]) / (2.0 * h);
                assert!((jacobian[row][column] - fd).abs() <= 1e-7 * (1.0 + fd.abs()), "{friction:?} d row {row} / d input {column}: {} vs {fd}", jacobian[row][column]);
                carried += (fd != 0.0) as usize;
            }
        }
        assert!(carried > 0, "some corner touches");
    }
}

fn refused(p: &Parameters) -> String {
    Block::new(p, None).map(|_| ()).expect_err("refused").to_string()
}

#[test]
fn what_is_not_offered_is_refused_naming_the_variables() {
    let mut cloud = with_laws(&base(ShapeKind::Plane, ShapeKind::PointCloud), true, false);
    let nine: String = (0..9).map(|i| format!("{},0,0\n", i as f64 * 0.01)).collect();
    cloud.geometry_b.file = temp_file("nine.csv", &nine).to_string_lossy().into_owned();
    let e = refused(&cloud);
    assert!(e.starts_with("normal.law, geometry_a.shape, geometry_b.shape = ProvidedByInput, Plane, PointCloud:"), "{e}");
    assert!(e.contains("can have 9 contact points") && e.contains("8 slots"), "{e}");
    // Eight points are offered.
    let eight: String = (0..8).map(|i| format!("{},0,0\n", i as f64 * 0.01)).collect();
    cloud.geometry_b.file = temp_file("eight.csv", &eight).to_string_lossy().into_owned();
    assert!(Block::new(&cloud, None).is_ok());

    let mut step_average = with_laws(&base(ShapeKind::Plane, ShapeKind::Sphere), false, true);
    step_average.coupling.mode = 2;
    step_average.body_b.mass = 1.0;
    let e = refused(&step_average);
    assert!(e.starts_with("friction.law, coupling.mode = ProvidedByInput, StepAverage:"), "{e}");

    let mut spin = with_laws(&base(ShapeKind::Plane, ShapeKind::Sphere), false, true);
    spin.friction.torque_radius = 0.01;
    let e = refused(&spin);
    assert!(e.starts_with("friction.torque_radius = 0.01:") && e.contains("friction.law = ProvidedByInput has none"), "{e}");

    let mut numbers = base(ShapeKind::Plane, ShapeKind::Sphere);
    numbers.normal.law = 9;
    assert_eq!(
        refused(&numbers),
        "normal.law = 9: is not a normal law number (1 = LinearSpringDamper, 2 = LimitedDamper, 3 = HuntCrossley, \
         4 = SmoothSpringDamper, 5 = Impact, 6 = GroundModel, 7 = Restitution, 8 = ProvidedByInput)"
    );
}

// Through the C APIs -------------------------------------------------------------------------

#[test]
fn the_fmi3_c_api_reads_the_slot_and_applies_the_provided_forces() {
    use support::fmi3::{vr, Fmu};
    let fmu = Fmu::new();
    assert_eq!(fmu.set_enum("normal.law", NormalLawKind::ProvidedByInput.value()), Status::Ok);
    assert_eq!(fmu.set_enum("friction.law", FrictionLawKind::ProvidedByInput.value()), Status::Ok);
    assert_eq!(fmu.initialize(), Status::Ok, "{:?}", fmu.messages());
    assert_eq!(fmu.set_floats(&[vr("frame_b.r_0[3]"), vr("frame_b.v_0[1]"), vr("frame_b.v_0[3]")], &[0.099, 0.2, -0.5]), Status::Ok);
    assert_eq!(fmu.get_float("contact.point[1].depth"), 0.1 - 0.099);
    assert_eq!(fmu.get_float("contact.point[1].depth_rate"), 0.5);
    assert_eq!(fmu.get_float("contact.point[1].slip_velocity[1]"), 0.2);
    assert_eq!(fmu.get_float("contact.point[1].n_0[3]"), 1.0);
    assert_eq!(fmu.get_float("contact.point[1].tangent2_0[2]"), 1.0);
    assert_eq!(fmu.get_float("contact.point[1].weight"), 1.0);
    assert_eq!(vr("contact.point[1].provided.normal_force"), 1114);
    assert_eq!(vr("contact.point[2].depth"), 1120);
    assert_eq!(vr("contact.point[8].provided.friction_force[2]"), 1256);
    let fn_ = K * 1e-3 + B * 0.5;
    assert_eq!(fmu.set_float("contact.point[1].provided.normal_force", fn_), Status::Ok);
    assert_eq!(fmu.set_float("contact.point[1].provided.friction_force[1]", -0.3 * fn_), Status::Ok);
    assert_eq!(fmu.get_float("frame_b.f_0[3]"), fn_);
    assert_eq!(fmu.get_float("frame_b.f_0[1]"), -0.3 * fn_);
    assert_eq!(fmu.get_float("frame_a.f_0[3]"), -fn_);
    assert_eq!(fmu.get_float("contact.point[1].normal_force"), fn_);
    // A step holds the forces; the outputs still answer to them.
    assert_eq!(fmu.do_step(0.0, 1e-3).0, Status::Ok);
    assert_eq!(fmu.get_float("frame_b.f_0[3]"), fn_);
    // Directional derivative with respect to the provided normal force: the normal (0, 0, 1).
    let mut d = [f64::NAN];
    // SAFETY: slices of the given lengths.
    let status = unsafe {
        contact_force::fmi::fmi3::fmi3GetDirectionalDerivative(fmu.instance, &vr("frame_b.f_0[3]"), 1, &vr("contact.point[1].provided.normal_force"), 1, &1.0, 1, d.as_mut_ptr(), 1)
    };
    assert_eq!((status, d[0]), (Status::Ok, 1.0));
}

#[test]
fn the_fmi3_c_api_refuses_a_provided_law_on_a_cloud_of_nine_naming_it() {
    use support::fmi3::Fmu;
    let fmu = Fmu::new();
    let nine: String = (0..9).map(|i| format!("{},0,0\n", i as f64 * 0.01)).collect();
    let path = temp_file("nine_c.csv", &nine);
    assert_eq!(fmu.set_enum("geometry_b.shape", ShapeKind::PointCloud.value()), Status::Ok);
    assert_eq!(fmu.set_string("geometry_b.file", &path.to_string_lossy()), Status::Ok);
    assert_eq!(fmu.set_enum("friction.law", FrictionLawKind::ProvidedByInput.value()), Status::Ok);
    assert_eq!(fmu.initialize(), Status::Error);
    assert!(fmu.logged("friction.law, geometry_a.shape, geometry_b.shape = ProvidedByInput, Plane, PointCloud"), "{:?}", fmu.messages());
}

#[test]
fn the_fmi2_c_api_applies_the_provided_normal_force_and_refuses_its_input_derivative() {
    use support::fmi2::Fmu;
    let fmu = Fmu::new();
    assert_eq!(fmu.set_enum("normal.law", NormalLawKind::ProvidedByInput.value() as _), Status::Ok);
    fmu.initialize();
    assert_eq!(fmu.set("frame_b.r_0[3]", 0.099), Status::Ok);
    assert_eq!(fmu.get("contact.point[1].depth"), 0.1 - 0.099);
    assert_eq!(fmu.set("contact.point[1].provided.normal_force", 250.0), Status::Ok);
    assert_eq!(fmu.get("frame_b.f_0[3]"), 250.0);
    assert_eq!(fmu.get("contact.normal_force"), 250.0);
    assert_eq!(fmu.set_derivatives(&["contact.point[1].provided.normal_force"], &[1], &[1.0]), Status::Error);
    assert!(fmu.logged("is a provided force"), "{:?}", fmu.messages());
}

#[test]
fn the_law_outputs_depend_on_the_frames_only_and_the_forces_on_the_provided_inputs() {
    use contact_force::variables::table;
    let depends = |output: &str| -> Vec<String> {
        let scalar = table().by_name(output).unwrap_or_else(|| panic!("{output}"));
        table().dependencies_of(scalar).iter().map(|s| s.name.clone()).collect()
    };
    for i in 1..=POINT_OUTPUTS {
        for output in ["depth", "depth_rate", "slip_velocity[1]", "n_0[3]", "tangent1_0[1]", "tangent2_0[2]", "weight"] {
            let on = depends(&format!("contact.point[{i}].{output}"));
            assert!(!on.is_empty() && on.iter().all(|name| name.starts_with("frame_")), "contact.point[{i}].{output}: {on:?}");
        }
        // A friction law may read the slot's normal force: it does not depend on the friction inputs.
        let normal = depends(&format!("contact.point[{i}].normal_force"));
        assert!(normal.contains(&format!("contact.point[{i}].provided.normal_force")), "{normal:?}");
        assert!(!normal.iter().any(|name| name.contains("friction_force")), "{normal:?}");
    }
    let force = depends("frame_b.f_0[3]");
    for i in 1..=POINT_OUTPUTS {
        for input in ["provided.normal_force", "provided.friction_force[1]", "provided.friction_force[2]"] {
            assert!(force.contains(&format!("contact.point[{i}].{input}")), "frame_b.f_0[3] on contact.point[{i}].{input}");
        }
    }
}

/// Model Exchange: the provided forces are inputs like the frames; a stateful friction law under
/// a provided normal force gives the built-in pair's deflection rates and stick/slip indicators.
#[test]
fn model_exchange_takes_the_provided_forces_as_inputs() {
    let (stiffness, damping) = (1e7, 1e4);
    let mut models = [Model::default(), Model::default()];
    for (k, model) in models.iter_mut().enumerate() {
        let p = &mut model.parameters;
        p.geometry_b.shape = ShapeKind::Box.value();
        p.geometry_b.size = [0.2, 0.1, 0.1];
        p.normal.law = if k == 0 { NormalLawKind::GroundModel.value() } else { NormalLawKind::ProvidedByInput.value() };
        (p.normal.stiffness, p.normal.damping) = (stiffness, damping);
        p.friction.law = FrictionLawKind::ElasticCone.value();
        model.parameters_changed();
        model.check_model_exchange().expect("offered");
        model.inputs.frame_b = Frame { r_0: [0.0, 0.0, 0.0499], q: quaternion(&Rotation::from_scaled_axis(Vec3::new(0.0, 0.01, 0.002))), v_0: [1e-3, 2e-4, -1e-3], ..Frame::default() };
        let states = (0..POINT_OUTPUTS)
            .map(|slot| {
                let mut state = PointState::default();
                state.tangential.deflection = Vec3::new(1e-5 * slot as f64, -2e-6, 0.0);
                state
            })
            .collect();
        model.set_point_states(states);
        model.inputs_changed();
    }
    let outputs = models[1].update_outputs().unwrap().clone();
    for i in 0..POINT_OUTPUTS {
        let law = outputs.law[i];
        models[1].inputs.provided[i].normal_force = law.depth.sqrt() * (stiffness * law.depth + damping * law.depth_rate);
    }
    models[1].inputs_changed();
    let want = models[0].update_locals().unwrap().clone();
    let got = models[1].update_locals().unwrap().clone();
    let scale = want.stick.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
    for i in 0..POINT_OUTPUTS {
        assert!((got.stick[i] - want.stick[i]).abs() <= 1e-12 * scale, "slot {i}: {} vs {}", got.stick[i], want.stick[i]);
        assert_eq!(got.separation[i], want.separation[i]);
        for c in 0..3 {
            assert!((got.deflection_rate[i][c] - want.deflection_rate[i][c]).abs() <= 1e-12, "slot {i}");
        }
    }
    assert!(want.stick.iter().any(|s| *s != 1.0), "some corner carries");
}

/// The provided forces are inputs: the serialized FMU state carries them.
#[test]
fn the_fmu_state_keeps_the_provided_forces() {
    use contact_force::variables::table;
    let mut model = Model::default();
    model.parameters.normal.law = NormalLawKind::ProvidedByInput.value();
    model.parameters_changed();
    model.initialize().expect("valid");
    model.inputs.frame_b.r_0 = [0.0, 0.0, 0.099];
    model.inputs.provided[0].normal_force = 321.0;
    model.inputs.provided[7].friction_force = [1.5, -2.5];
    model.inputs_changed();
    let bytes = table().serialize(&mut model);
    let mut restored = table().deserialize(&bytes).expect("a state");
    assert_eq!(restored.inputs, model.inputs);
    assert_eq!(restored.update_outputs().unwrap().frame_b.f_0, [0.0, 0.0, 321.0]);
}
