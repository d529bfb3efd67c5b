//! ContactScene's model through its variable table (as the C API drives it), against closed
//! forms: a sphere pressed into a plane under the linear law (Instantaneous), a stack of three
//! spheres resting at the linear law's static depths at 10 ms steps (StepAverage, in a master
//! loop of this test's own, the scene first and Jacobi: the bodies integrated exactly under the
//! held force plus gravity; and the bodies first), a dropped sphere's restitution in every order, the
//! scene file giving the same outputs as the parameters, and errors naming the variable.

use contact_physics::friction::FrictionLawKind;
use contact_physics::normal::NormalLawKind;
use contact_physics::parameters::CouplingMode;
use contact_physics::shape::ShapeKind;
use fmi_export::table::{IntKind, SetPhase};
use fmi_export::FmuModel;
use scene_fmu::model::Model;

const G: f64 = 9.81;
const K: f64 = 1e5;

fn set(m: &mut Model, name: &str, value: f64) {
    let table = Model::table();
    let s = table.by_name(name).unwrap_or_else(|| panic!("no variable {name}"));
    table.set_float(m, s.vr, value, SetPhase::Initializing).unwrap();
}

fn set_int(m: &mut Model, name: &str, value: i64) {
    let table = Model::table();
    let s = table.by_name(name).unwrap_or_else(|| panic!("no variable {name}"));
    table.set_int(m, s.vr, value, IntKind::Fmi2Integer, SetPhase::Initializing).unwrap();
}

fn get(m: &mut Model, name: &str) -> f64 {
    let table = Model::table();
    table.get_float(m, table.by_name(name).unwrap_or_else(|| panic!("no variable {name}")).vr).unwrap()
}

fn get_int(m: &mut Model, name: &str) -> i64 {
    let table = Model::table();
    table.get_int(m, table.by_name(name).unwrap_or_else(|| panic!("no variable {name}")).vr, IntKind::Int32).unwrap()
}

/// A plane (body 1, immovable) and `spheres` spheres of radius `r` and mass `m` above it, under
/// the linear law (stiffness K, damping `c`) without friction.
fn stack(spheres: usize, r: f64, mass: f64, c: f64, mode: CouplingMode) -> Model {
    let mut m = Model::new(None);
    set_int(&mut m, "scene.bodies", 1 + spheres as i64);
    set_int(&mut m, "body[1].shape", ShapeKind::Plane.value());
    for i in 2..=1 + spheres {
        set_int(&mut m, &format!("body[{i}].shape"), ShapeKind::Sphere.value());
        set(&mut m, &format!("body[{i}].radius"), r);
        set(&mut m, &format!("body[{i}].mass"), mass);
    }
    set_int(&mut m, "normal.law", NormalLawKind::LinearSpringDamper.value());
    set(&mut m, "normal.stiffness", K);
    set(&mut m, "normal.damping", c);
    set_int(&mut m, "friction.law", FrictionLawKind::None.value());
    set_int(&mut m, "coupling.mode", mode.value());
    m
}

fn close(a: f64, b: f64, tolerance: f64, what: &str) {
    assert!((a - b).abs() <= tolerance, "{what}: {a} against {b} (difference {:e})", a - b);
}

#[test]
fn a_sphere_in_a_plane_receives_the_linear_law_s_force() {
    let (r, d) = (0.1, 2e-3);
    let mut m = stack(1, r, 1.0, 0.0, CouplingMode::Instantaneous);
    m.initialize().unwrap();
    set(&mut m, "body[2].r_0[3]", r - d);
    set(&mut m, "body[2].r_0[1]", 0.3);
    close(get(&mut m, "body[2].f_0[3]"), K * d, 1e-9, "force on the sphere");
    close(get(&mut m, "body[1].f_0[3]"), -K * d, 1e-9, "force on the plane");
    // The plane's frame is at the origin: the force acts at x = 0.3, so its torque is about -y.
    close(get(&mut m, "body[1].t_0[2]"), 0.3 * K * d, 1e-9, "torque on the plane");
    close(get(&mut m, "body[2].t_0[2]"), 0.0, 1e-9, "torque on the sphere about its centre");
    close(get(&mut m, "body[2].max_normal_force"), K * d, 1e-9, "largest normal force");
    assert_eq!(get_int(&mut m, "body[2].touching"), 1);
    assert_eq!(get_int(&mut m, "scene.active_contacts"), 1);
    close(get(&mut m, "scene.max_penetration"), d, 1e-15, "penetration");
    // Apart: nothing.
    set(&mut m, "body[2].r_0[3]", r + 1e-3);
    assert_eq!(get(&mut m, "body[2].f_0[3]"), 0.0);
    assert_eq!(get_int(&mut m, "scene.active_contacts"), 0);
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Order {
    /// Inputs set, outputs read, the scene steps, then the bodies (Gauss-Seidel, the scene first).
    SceneFirst,
    /// Outputs read, the inputs of the step's start set, everything steps (Jacobi).
    Jacobi,
    /// Jacobi with Ecos's second read: outputs read, the inputs set, the outputs read again, and
    /// the bodies step with the first read.
    JacobiReread,
    /// Outputs read, the bodies step, their states at the step's end set, the scene steps
    /// (Gauss-Seidel, the bodies first).
    BodiesFirst,
}

/// Three spheres stacked on a plane, started at their static depths, 1 s of 10 ms steps in a
/// master loop in `order`: each ends at its static depth within 0.01 mm (taken to rest at the
/// start, the stack stays within 1e-12 m throughout).
///
/// With `read_in_initialisation`, the master reads the outputs before it ends initialisation (as
/// libcosim does): the scene is built again then, and the outputs read before belong to no step.
fn stack_rests_in(order: Order, read_in_initialisation: bool) {
    let (r, mass, h) = (0.05, 1.0, 0.01);
    let mut m = stack(3, r, mass, 200.0, CouplingMode::StepAverage);
    set(&mut m, "coupling.step", h);
    // Contact k (from the bottom) carries the weight of the spheres above it.
    let depth = |k: usize| (3 - k) as f64 * mass * G / K;
    let mut z = [0.0; 3];
    z[0] = r - depth(0);
    z[1] = z[0] + 2.0 * r - depth(1);
    z[2] = z[1] + 2.0 * r - depth(2);
    let expected = z;
    let mut v = [0.0; 3];
    let set_states = |m: &mut Model, z: &[f64; 3], v: &[f64; 3]| {
        for i in 0..3 {
            set(m, &format!("body[{}].r_0[3]", i + 2), z[i]);
            set(m, &format!("body[{}].v_0[3]", i + 2), v[i]);
        }
    };
    let forces = |m: &mut Model| -> Vec<f64> { (0..3).map(|i| get(m, &format!("body[{}].f_0[3]", i + 2))).collect() };
    let step_bodies = |z: &mut [f64; 3], v: &mut [f64; 3], f: &[f64]| {
        for i in 0..3 {
            let a = f[i] / mass - G;
            z[i] += v[i] * h + 0.5 * a * h * h;
            v[i] += a * h;
        }
    };
    if read_in_initialisation {
        // libcosim: the start values set and the outputs read in Initialization Mode, then the
        // first step with nothing set since.
        set_states(&mut m, &z, &v);
        let f = forces(&mut m);
        m.initialize().unwrap();
        m.do_step(h).unwrap();
        step_bodies(&mut z, &mut v, &f);
    } else {
        m.initialize().unwrap();
        set_states(&mut m, &z, &v);
    }
    for _ in 0..100 {
        match order {
            Order::SceneFirst => {
                set_states(&mut m, &z, &v);
                let f = forces(&mut m);
                m.do_step(h).unwrap();
                step_bodies(&mut z, &mut v, &f);
            }
            Order::Jacobi => {
                let f = forces(&mut m);
                set_states(&mut m, &z, &v);
                m.do_step(h).unwrap();
                step_bodies(&mut z, &mut v, &f);
            }
            Order::JacobiReread => {
                let f = forces(&mut m);
                set_states(&mut m, &z, &v);
                let again = forces(&mut m);
                assert_eq!(f, again, "the read after the inputs repeats the read before them");
                m.do_step(h).unwrap();
                step_bodies(&mut z, &mut v, &f);
            }
            Order::BodiesFirst => {
                let f = forces(&mut m);
                step_bodies(&mut z, &mut v, &f);
                set_states(&mut m, &z, &v);
                m.do_step(h).unwrap();
            }
        }
    }
    for i in 0..3 {
        close(z[i], expected[i], 1e-5, &format!("{order:?}: sphere {} height", i + 1));
    }
}

#[test]
fn a_stack_of_three_spheres_rests_at_its_static_depths_at_10_ms_scene_first() {
    stack_rests_in(Order::SceneFirst, false);
}

#[test]
fn a_stack_of_three_spheres_rests_at_its_static_depths_at_10_ms_jacobi() {
    stack_rests_in(Order::Jacobi, false);
}

/// Ecos reads the outputs again after it sets the inputs and passes on the first read: the
/// second read gives the first's outputs (it used to start a new run from the inputs, which the
/// step then committed while the bodies held the first: the stack was thrown metres high).
#[test]
fn a_stack_of_three_spheres_rests_at_its_static_depths_at_10_ms_jacobi_with_a_second_read() {
    stack_rests_in(Order::JacobiReread, false);
}

#[test]
fn a_stack_of_three_spheres_rests_at_its_static_depths_at_10_ms_bodies_first() {
    stack_rests_in(Order::BodiesFirst, false);
}

/// The clipped linear spring-damper's restitution (no gravity over the impact): the force k x +
/// c x' is zero at w_d t = pi - atan(2 z s / (1 - 2 z^2)), s = sqrt(1 - z^2), where x'/v =
/// e^(-z phi / s) (cos phi - z / s sin phi).
fn linear_restitution(k: f64, c: f64, m: f64) -> f64 {
    let (z, phi) = (c / (2.0 * (k * m).sqrt()), |z: f64, s: f64| std::f64::consts::PI - (2.0 * z * s / (1.0 - 2.0 * z * z)).atan());
    let s = (1.0 - z * z).sqrt();
    ((-z * phi(z, s) / s).exp() * (phi(z, s).cos() - z / s * phi(z, s).sin())).abs()
}

const ORDERS: [Order; 4] = [Order::SceneFirst, Order::Jacobi, Order::JacobiReread, Order::BodiesFirst];

/// A sphere of 1 kg and radius 0.05 m, 0.5 m above a stiff plane (k = 1e6 N/m, b = 200 N.s/m),
/// StepAverage at `h`: the model, initialised, and the sphere's height and speed.
fn dropped_sphere(h: f64) -> (Model, f64, f64) {
    let mut m = stack(1, 0.05, 1.0, 200.0, CouplingMode::StepAverage);
    set(&mut m, "normal.stiffness", 1e6);
    set(&mut m, "coupling.step", h);
    m.initialize().unwrap();
    let z = 0.55;
    set_sphere(&mut m, z, 0.0);
    (m, z, 0.0)
}

fn set_sphere(m: &mut Model, z: f64, v: f64) {
    set(m, "body[2].r_0[3]", z);
    set(m, "body[2].v_0[3]", v);
}

/// One step of `h` of the master loop in `order` around the sphere of 1 kg (integrated exactly
/// under the held force and gravity).
fn master_step(order: Order, m: &mut Model, z: &mut f64, v: &mut f64, h: f64) {
    let step_ball = |z: &mut f64, v: &mut f64, f: f64| {
        let a = f - G;
        *z += *v * h + 0.5 * a * h * h;
        *v += a * h;
    };
    match order {
        Order::SceneFirst => {
            set_sphere(m, *z, *v);
            let f = get(m, "body[2].f_0[3]");
            m.do_step(h).unwrap();
            step_ball(z, v, f);
        }
        Order::Jacobi | Order::JacobiReread => {
            let f = get(m, "body[2].f_0[3]");
            set_sphere(m, *z, *v);
            if order == Order::JacobiReread {
                assert_eq!(get(m, "body[2].f_0[3]"), f);
            }
            m.do_step(h).unwrap();
            step_ball(z, v, f);
        }
        Order::BodiesFirst => {
            let f = get(m, "body[2].f_0[3]");
            step_ball(z, v, f);
            set_sphere(m, *z, *v);
            m.do_step(h).unwrap();
        }
    }
}

/// The dropped sphere at 1 and 10 ms steps (omega h = 1 and 10; the contact is short enough for
/// gravity to change the speed by less than 0.1 %), in every master order, the scene told only
/// the states set before each DoStep (it tells the bodies at the step's start from those at its
/// end): the rebound speed within 2 % of the closed form. Taken for the step's start, the states
/// after the bodies stepped first gave the ball the wrong impulses at every step.
#[test]
fn a_dropped_sphere_rebounds_with_the_closed_form_restitution_in_every_order() {
    let expected = linear_restitution(1e6, 200.0, 1.0);
    let v0 = (2.0 * G * 0.5_f64).sqrt();
    for order in ORDERS {
        for h in [1e-3, 1e-2] {
            let (mut m, mut z, mut v) = dropped_sphere(h);
            let (mut descended, mut top) = (false, None::<(f64, f64)>);
            for _ in 0..(0.75 / h).round() as usize {
                master_step(order, &mut m, &mut z, &mut v, h);
                descended |= v < -0.5 * v0;
                // The energy at the top of the rebound (the highest sample once it rises).
                if descended && v > 0.0 && top.is_none_or(|(z_top, _)| z > z_top) {
                    top = Some((z, v));
                }
            }
            let (z_top, v_top) = top.expect("the sphere rebounds");
            let e = (v_top * v_top + 2.0 * G * (z_top - 0.05)).sqrt() / v0;
            println!("{order:?} h = {h}: e = {e:.5} (closed form {expected:.5})");
            assert!((e / expected - 1.0).abs() < 0.02, "{order:?} h = {h}: e = {e} against {expected}");
        }
    }
}

/// An FMU state serialized in the middle of the impact (StepAverage's coupling with its offsets,
/// the owed impulse, the step waiting for its end and the run behind the held outputs), read back
/// into a new instance: the next 30 steps are those of the instance it was taken from, bit for
/// bit, in every master order.
#[test]
fn a_serialized_fmu_state_read_back_steps_exactly_as_the_instance_it_was_taken_from() {
    for order in ORDERS {
        for h in [1e-3, 1e-2] {
            let (mut m, mut z, mut v) = dropped_sphere(h);
            while z > 0.05 - 1e-4 {
                master_step(order, &mut m, &mut z, &mut v, h);
            }
            let bytes = Model::table().serialize(&mut m);
            let run = |m: &mut Model, (mut z, mut v): (f64, f64)| -> Vec<(f64, f64)> {
                (0..30)
                    .map(|_| {
                        master_step(order, m, &mut z, &mut v, h);
                        (z, v)
                    })
                    .collect()
            };
            let restored_start = (z, v);
            let original = run(&mut m, restored_start);
            let mut copy = Model::table().deserialize(&bytes).unwrap();
            assert_eq!(run(&mut copy, restored_start), original, "{order:?} h = {h}");
            // Damage is refused: the bytes cut short.
            assert!(Model::table().deserialize(&bytes[..bytes.len() - 20]).is_err());
        }
    }
}

/// libcosim reads the outputs in Initialization Mode; the first DoStep then found the new
/// scene's coupling without a run and without a state to start one from (an error, a panic
/// before).
#[test]
fn a_stack_rests_when_its_outputs_were_read_during_initialisation() {
    stack_rests_in(Order::Jacobi, true);
    stack_rests_in(Order::SceneFirst, true);
}

#[test]
fn the_scene_file_gives_the_parameters_outputs() {
    let dir = std::env::temp_dir().join(format!("scene_fmu_file_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.toml");
    std::fs::write(
        &file,
        "[normal]\nlaw = \"LinearSpringDamper\"\nstiffness = 1e5\ndamping = 0\n[friction]\nlaw = \"None\"\n\
         [[body]]\nshape = \"Plane\"\n[[body]]\nshape = \"Sphere\"\nradius = 0.1\nmass = 1.0\n",
    )
    .unwrap();
    let mut from_file = Model::new(Some(dir.clone()));
    let table = Model::table();
    table.set_string(&mut from_file, table.by_name("scene.file").unwrap().vr, "two.toml", SetPhase::Initializing).unwrap();
    from_file.initialize().unwrap();
    let mut from_parameters = stack(1, 0.1, 1.0, 0.0, CouplingMode::Instantaneous);
    from_parameters.initialize().unwrap();
    for m in [&mut from_file, &mut from_parameters] {
        set(m, "body[2].r_0[3]", 0.099);
    }
    assert_eq!(get(&mut from_file, "body[2].f_0[3]"), get(&mut from_parameters, "body[2].f_0[3]"));
    close(get(&mut from_file, "body[2].f_0[3]"), K * 1e-3, 1e-9, "force from the file's scene");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_name_the_variable_and_the_value() {
    let mut m = stack(1, 0.1, 1.0, 0.0, CouplingMode::Instantaneous);
    set(&mut m, "body[2].radius", 0.0);
    let e = m.initialize().unwrap_err();
    assert!(e.starts_with("body[2].radius = 0"), "{e}");
    let mut m = stack(1, 0.1, 1.0, 0.0, CouplingMode::Instantaneous);
    set_int(&mut m, "scene.bodies", 17);
    let e = m.initialize().unwrap_err();
    assert!(e.starts_with("scene.bodies = 17: must be 0 to 16"), "{e}");
    let mut m = stack(1, 0.1, 1.0, 0.0, CouplingMode::Instantaneous);
    set_int(&mut m, "body[2].material", 1);
    let e = m.initialize().unwrap_err();
    assert!(e.starts_with("body[2].material = 1"), "{e}");
    let mut m = Model::new(None);
    let table = Model::table();
    table.set_string(&mut m, table.by_name("scene.file").unwrap().vr, "/nonexistent/scene.toml", SetPhase::Initializing).unwrap();
    let e = m.initialize().unwrap_err();
    assert!(e.contains("scene.file") && e.contains("/nonexistent/scene.toml"), "{e}");
}

#[test]
fn the_geometry_frame_s_errors_name_its_variables() {
    let mut m = stack(1, 0.1, 1.0, 0.0, CouplingMode::Instantaneous);
    for k in 1..=4 {
        set(&mut m, &format!("body[2].geometry.q[{k}]"), 0.0);
    }
    let e = m.initialize().unwrap_err();
    assert!(e.starts_with("body[2].geometry.q = "), "{e}");
}

/// Bodies whose motion their FMUs prescribe, answering nothing of the held forces (a box sinking
/// slowly into the plane, a sphere driven down into the box at 0.1 m/s), declared with masses,
/// under a Jacobi master that reads the outputs after each DoStep and makes every seventh step
/// 2.5 times longer (as the C importer of `cargo xtask valgrind` does): the outputs stay within
/// twice the law's force at the deepest prescribed depth. Before the scene learnt each body's
/// response, its copy of the sphere moved where the sphere did not, the impulse owed for it
/// grew at every step, and the outputs reached 1e7 N within 20 steps (1e55 N by step 40).
#[test]
fn bodies_that_answer_nothing_get_bounded_outputs() {
    let (k, b) = (1e6, 1e3);
    let mut m = stack(2, 0.05, 0.5, b, CouplingMode::StepAverage);
    set_int(&mut m, "body[2].shape", ShapeKind::Box.value());
    for i in 1..=3 {
        set(&mut m, &format!("body[2].size[{i}]"), 0.2);
        set(&mut m, &format!("body[2].inertia[{i}]"), 0.0067);
    }
    set(&mut m, "body[2].mass", 1.0);
    set(&mut m, "normal.stiffness", k);
    set_int(&mut m, "friction.law", FrictionLawKind::Tanh.value());
    set(&mut m, "coupling.step", 1e-3);
    m.initialize().unwrap();
    set(&mut m, "body[1].q[1]", 1.0);
    let (mut t, mut deepest, mut largest) = (0.0, 0.0f64, 0.0f64);
    for i in 0..200 {
        let h = if i % 7 == 3 { 2.5e-3 } else { 1e-3 };
        let (box_z, sphere_z) = (0.0999 - 0.01 * t, 0.2495 - 0.1 * t);
        deepest = deepest.max(box_z + 0.1 + 0.05 - sphere_z);
        for (name, value) in [
            ("body[2].q[1]", 1.0),
            ("body[2].r_0[3]", box_z),
            ("body[2].v_0[1]", 0.05),
            ("body[3].q[1]", 1.0),
            ("body[3].r_0[1]", 0.02),
            ("body[3].r_0[3]", sphere_z),
            ("body[3].v_0[3]", -0.1),
        ] {
            set(&mut m, name, value);
        }
        m.do_step(h).unwrap();
        t += h;
        for body in [2, 3] {
            largest = largest.max(get(&mut m, &format!("body[{body}].f_0[3]")).abs());
        }
    }
    let bound = 2.0 * (k * deepest + b * 0.1);
    println!("largest force {largest:.1} N, the law at the deepest prescribed depth {:.1} N", k * deepest + b * 0.1);
    assert!(largest < bound, "the outputs reached {largest} N (bound {bound} N)");
}
