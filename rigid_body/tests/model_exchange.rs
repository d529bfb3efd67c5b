//! Model Exchange of RigidBody at the model level: the continuous states start from the start
//! parameters, the derivatives are the co-simulation integrator's motion (the same conventions),
//! and the quaternion is renormalised at the events a drifted norm asks for. FMPy integrates the
//! packaged FMUs with CVode in tests/python/test_rigid_body_me.py.

mod common;

use common::{q0, six, tilt};
use fmi_export::table::SetPhase;
use fmi_export::FmuModel;
use nalgebra::Matrix3;
use rigid_body::model::{Model, JOINT_DRIFT, QUATERNION_DRIFT};
use rigid_body::variables;
use rigid_body::Vec3;

fn vr(name: &str) -> u32 {
    variables::table().by_name(name).unwrap_or_else(|| panic!("no variable {name}")).vr
}

fn get(model: &mut Model, name: &str) -> f64 {
    variables::table().get_float(model, vr(name)).unwrap()
}

fn set(model: &mut Model, name: &str, values: &[f64], phase: SetPhase) {
    if values.len() == 1 {
        variables::table().set_float(model, vr(name), values[0], phase).unwrap();
        return;
    }
    for (i, value) in values.iter().enumerate() {
        variables::table().set_float(model, vr(&format!("{name}[{}]", i + 1)), *value, phase).unwrap();
    }
}

/// The elements of an array: `x[i]`, or `der(x[i])` for the derivative `der(x)`.
fn vector(model: &mut Model, name: &str, n: usize) -> Vec<f64> {
    let element = |i: usize| match name.strip_prefix("der(").and_then(|inner| inner.strip_suffix(')')) {
        Some(inner) => format!("der({inner}[{i}])"),
        None => format!("{name}[{i}]"),
    };
    (1..=n).map(|i| get(model, &element(i))).collect()
}

/// An asymmetric body (moments 1, 2, 3 kg.m2 about tilted axes) under gravity, tumbling and
/// moving, pushed by a force and a torque: every term of the derivatives is nonzero.
fn driven() -> Model {
    let mut m = Model::new(None);
    let r = tilt().to_rotation_matrix();
    let tensor = r.matrix() * Matrix3::from_diagonal(&Vec3::new(1.0, 2.0, 3.0)) * r.matrix().transpose();
    let q = q0();
    set(&mut m, "mass", &[2.0], SetPhase::Initializing);
    set(&mut m, "inertia", &six(&tensor), SetPhase::Initializing);
    set(&mut m, "r_0_start", &[0.1, -0.2, 0.3], SetPhase::Initializing);
    set(&mut m, "q_start", &[q.w, q.i, q.j, q.k], SetPhase::Initializing);
    set(&mut m, "v_0_start", &[0.5, 0.25, -1.0], SetPhase::Initializing);
    set(&mut m, "w_0_start", &[1.0, 1.5, -0.8], SetPhase::Initializing);
    set(&mut m, "f_0", &[3.0, -1.0, 2.0], SetPhase::Initializing);
    set(&mut m, "t_0", &[0.4, 0.2, -0.7], SetPhase::Initializing);
    m
}

const STATES: [(&str, usize); 4] = [("state.r_0", 3), ("state.q", 4), ("state.v_0", 3), ("state.w_0", 3)];

fn states(m: &mut Model) -> Vec<f64> {
    STATES.iter().flat_map(|(name, n)| vector(m, name, *n)).collect()
}

fn derivatives(m: &mut Model) -> Vec<f64> {
    STATES.iter().flat_map(|(name, n)| vector(m, &format!("der({name})"), *n)).collect()
}

#[test]
fn the_states_are_the_start_parameters_until_initialisation_ends() {
    let mut m = driven();
    let start: Vec<f64> = ["r_0_start", "q_start", "v_0_start", "w_0_start"]
        .iter()
        .zip(STATES)
        .flat_map(|(p, (_, n))| vector(&mut m, p, n))
        .collect();
    assert_eq!(states(&mut m), start);
    // Setting a state sets its start parameter: one start value, whichever name sets it.
    set(&mut m, "state.r_0", &[0.0, 0.0, 2.0], SetPhase::Initializing);
    assert_eq!(vector(&mut m, "r_0_start", 3), [0.0, 0.0, 2.0]);
    // After initialisation the states are the motion, and no longer settable by name.
    m.initialize().unwrap();
    m.check_model_exchange().unwrap();
    assert_eq!(vector(&mut m, "state.r_0", 3), [0.0, 0.0, 2.0]);
    assert!(variables::table().set_float(&mut m, vr("state.r_0[1]"), 1.0, SetPhase::Running).is_err());
}

#[test]
fn the_start_values_in_the_model_descriptions_are_the_start_parameters() {
    for xml in [rigid_body::fmi::fmi2_xml(), rigid_body::fmi::fmi3_xml()] {
        let start = |name: &str| {
            let at = xml.find(&format!("name=\"{name}\"")).unwrap_or_else(|| panic!("{name} in the model description"));
            let tail = &xml[at..];
            let s = tail.find("start=\"").unwrap() + 7;
            tail[s..s + tail[s..].find('"').unwrap()].to_string()
        };
        for (state, parameter) in [("state.q[1]", "q_start[1]"), ("state.r_0[3]", "r_0_start[3]"), ("state.w_0[2]", "w_0_start[2]")] {
            assert_eq!(start(state), start(parameter), "{state}");
        }
        assert!(xml.contains("<ModelExchange"), "both versions declare Model Exchange");
    }
}

/// The derivatives against the co-simulation integrator over one short step: the integrator is
/// second order, so `(x(h) - x(0)) / h` is the derivative at `h/2`, within O(h²) of the midpoint
/// derivative and O(h) of the start's. Measured with h = 1e-6 s.
#[test]
fn the_derivatives_are_the_co_simulation_integrators_motion() {
    let mut me = driven();
    me.initialize().unwrap();
    me.check_model_exchange().unwrap();
    let x0 = states(&mut me);
    let dx = derivatives(&mut me);
    assert!(dx.iter().all(|d| d.abs() > 1e-3), "every derivative is exercised: {dx:?}");

    let h = 1e-6;
    let mut cs = driven();
    set(&mut cs, "solver.max_step", &[h], SetPhase::Initializing);
    cs.initialize().unwrap();
    cs.do_step(h).unwrap();
    let x1 = states(&mut cs);
    for (i, ((a, b), d)) in x0.iter().zip(&x1).zip(&dx).enumerate() {
        let slope = (b - a) / h;
        // Second derivatives here are below 100 (|w| ~ 2 rad/s, accelerations ~ 10): h/2 * 100.
        assert!((slope - d).abs() < 1e-4 * (1.0 + d.abs()), "state {i}: integrator {slope}, derivative {d}");
    }
}

#[test]
fn a_drifted_quaternion_asks_for_an_event_that_renormalises_it() {
    let mut m = driven();
    m.initialize().unwrap();
    m.check_model_exchange().unwrap();
    assert!(!m.step_event().unwrap(), "a unit quaternion needs no event");
    assert!(!m.update_discrete_states().unwrap(), "the start quaternion is already unit");
    let q: Vec<f64> = vector(&mut m, "state.q", 4);
    let outputs_before = vector(&mut m, "q", 4);
    let rates_before = vector(&mut m, "der(state.w_0)", 3);
    // The importer's integrator hands back a quaternion 10 drift bounds too long.
    let scale = 1.0 + 10.0 * QUATERNION_DRIFT;
    let drifted: Vec<f64> = q.iter().map(|c| c * scale).collect();
    set(&mut m, "state.q", &drifted, SetPhase::Initializing);
    assert!(m.step_event().unwrap());
    // The physics reads q / |q|: the outputs and the angular acceleration do not change.
    for (a, b) in vector(&mut m, "q", 4).iter().zip(&outputs_before) {
        assert!((a - b).abs() < 1e-15, "output q: {a} against {b}");
    }
    for (a, b) in vector(&mut m, "der(state.w_0)", 3).iter().zip(&rates_before) {
        assert!((a - b).abs() < 1e-12 * (1.0 + b.abs()), "der(w_0): {a} against {b}");
    }
    assert!(m.update_discrete_states().unwrap(), "the event changes the continuous state q");
    let norm: f64 = vector(&mut m, "state.q", 4).iter().map(|c| c * c).sum::<f64>().sqrt();
    assert!((norm - 1.0).abs() < 4.0 * f64::EPSILON, "|q| = {norm}");
    assert!(!m.step_event().unwrap());
}

#[test]
fn the_quaternion_rate_keeps_the_norm() {
    let mut m = driven();
    m.initialize().unwrap();
    m.check_model_exchange().unwrap();
    let q = vector(&mut m, "state.q", 4);
    let dq = vector(&mut m, "der(state.q)", 4);
    let along: f64 = q.iter().zip(&dq).map(|(a, b)| a * b).sum();
    assert!(along.abs() < 1e-15, "q . dq/dt = {along}");
}

#[test]
fn a_co_simulation_instance_keeps_its_states_as_the_integrator_moves_them() {
    let mut cs = driven();
    cs.initialize().unwrap();
    cs.do_step(1e-3).unwrap();
    let outputs: Vec<f64> = [("r_0", 3), ("q", 4), ("v_0", 3), ("w_0", 3)].iter().flat_map(|(n, k)| vector(&mut cs, n, *k)).collect();
    assert_eq!(states(&mut cs), outputs);
}

/// A point mass of 1 kg on a 0.5 m rod hinged about y at the origin, at `theta` from the bottom,
/// turning at `rate`, as a Model Exchange instance past initialisation.
fn pendulum(theta: f64, rate: f64) -> Model {
    let mut m = Model::new(None);
    let d = 0.5;
    variables::table().set_int(&mut m, vr("joint.kind"), 2, fmi_export::table::IntKind::Int64, SetPhase::Initializing).unwrap();
    set(&mut m, "joint.axis", &[0.0, 1.0, 0.0], SetPhase::Initializing);
    set(&mut m, "inertia", &[0.0; 6], SetPhase::Initializing);
    let r = [d * theta.sin(), 0.0, -d * theta.cos()];
    set(&mut m, "r_0_start", &r, SetPhase::Initializing);
    // v = rate u x r with u = y.
    set(&mut m, "v_0_start", &[rate * r[2], 0.0, -rate * r[0]], SetPhase::Initializing);
    set(&mut m, "w_0_start", &[0.0, rate, 0.0], SetPhase::Initializing);
    m.initialize().unwrap();
    m.check_model_exchange().unwrap();
    m
}

/// The derivatives are the constrained accelerations: at the horizontal, at rest, the point mass
/// falls at g and the rod turns at g / d; at the bottom, turning at 2 rad/s, the acceleration is
/// the centripetal `rate² d` toward the pivot and the rod pulls with `m g + m v²/d`.
#[test]
fn a_pendulums_derivatives_are_the_constrained_accelerations() {
    let mut m = pendulum(std::f64::consts::FRAC_PI_2, 0.0);
    let dv = vector(&mut m, "der(state.v_0)", 3);
    let dw = vector(&mut m, "der(state.w_0)", 3);
    assert!((dv[0].abs() + dv[1].abs() + (dv[2] + 9.81).abs()) < 1e-12, "{dv:?}");
    assert!((dw[1] - 9.81 / 0.5).abs() < 1e-12 && dw[0] == 0.0 && dw[2] == 0.0, "{dw:?}");
    let mut m = pendulum(0.0, 2.0);
    let dv = vector(&mut m, "der(state.v_0)", 3);
    assert!((dv[2] - 4.0 * 0.5).abs() < 1e-12 && dv[0].abs() < 1e-12, "{dv:?}");
    let reaction = vector(&mut m, "joint.f_0", 3);
    assert!((reaction[2] - (9.81 + 1.0 * 1.0 / 0.5)).abs() < 1e-12, "{reaction:?}");
    assert!(vector(&mut m, "joint.t_0", 3).iter().all(|t| t.abs() < 1e-15));
}

/// The importer's integrator leaves the joint by its own error. The outputs and derivatives are
/// those of the nearest state on the joint, so a small drift changes nothing; a completed step
/// that moved the mass further than the bound off its circle, or gave it a velocity off its path,
/// asks for Event Mode, which puts it back on the circle at the same angle and keeps its momentum
/// along the path.
#[test]
fn a_state_off_the_joint_asks_for_an_event_that_projects_it_back() {
    let mut m = pendulum(0.4, 1.5);
    assert!(!m.step_event().unwrap(), "a state on the joint needs no event");
    let r = vector(&mut m, "state.r_0", 3);
    let v = vector(&mut m, "state.v_0", 3);
    let outputs = [vector(&mut m, "r_0", 3), vector(&mut m, "v_0", 3), vector(&mut m, "der(state.v_0)", 3)];
    let close = |a: &[f64], b: &[f64], tolerance: f64| a.iter().zip(b).all(|(x, y)| (x - y).abs() < tolerance);
    // Within the bound: no event, and the same outputs and derivatives.
    let small = 0.1 * JOINT_DRIFT;
    set(&mut m, "state.r_0", &[r[0] * (1.0 + small), r[1] + small, r[2] * (1.0 + small)], SetPhase::Initializing);
    assert!(!m.step_event().unwrap());
    let now = [vector(&mut m, "r_0", 3), vector(&mut m, "v_0", 3), vector(&mut m, "der(state.v_0)", 3)];
    for (a, b) in now.iter().zip(&outputs) {
        assert!(close(a, b, 1e-13), "{a:?} against {b:?}");
    }
    // Beyond it: an event that projects the state.
    let large = 10.0 * JOINT_DRIFT;
    set(&mut m, "state.r_0", &[r[0] * (1.0 + large), r[1] + large, r[2] * (1.0 + large)], SetPhase::Initializing);
    assert!(m.step_event().unwrap());
    assert!(m.update_discrete_states().unwrap());
    let back = vector(&mut m, "state.r_0", 3);
    assert!(close(&back, &r, 1e-14), "projected r {back:?} against {r:?}");
    assert!(!m.step_event().unwrap());
    set(&mut m, "state.v_0", &[v[0], 10.0 * large, v[2]], SetPhase::Initializing);
    assert!(m.step_event().unwrap());
    m.update_discrete_states().unwrap();
    assert!(close(&vector(&mut m, "state.v_0", 3), &v, 1e-14), "projected v against {v:?}");
}

/// The reaction balances the inputs held over the last step, not inputs set since: no output
/// depends on an input (RigidBody has no direct feedthrough), in co-simulation as in Model
/// Exchange, where the inputs are sampled at completed integrator steps and events.
#[test]
fn the_reaction_balances_the_inputs_held_over_the_last_step() {
    let mut m = Model::new(None);
    variables::table().set_int(&mut m, vr("joint.kind"), 3, fmi_export::table::IntKind::Int64, SetPhase::Initializing).unwrap();
    set(&mut m, "joint.axis", &[1.0, 0.0, 0.0], SetPhase::Initializing);
    set(&mut m, "f_0", &[0.0, 2.0, 0.0], SetPhase::Initializing);
    m.initialize().unwrap();
    let weight = 9.81;
    assert_eq!(vector(&mut m, "joint.f_0", 3), [0.0, -2.0, weight]);
    set(&mut m, "f_0", &[0.0, 5.0, 0.0], SetPhase::Running);
    assert_eq!(vector(&mut m, "joint.f_0", 3), [0.0, -2.0, weight], "a new input changes no output before the step");
    m.do_step(1e-3).unwrap();
    assert_eq!(vector(&mut m, "joint.f_0", 3), [0.0, -5.0, weight]);

    let mut me = pendulum(0.0, 0.0);
    set(&mut me, "f_0", &[3.0, 0.0, 0.0], SetPhase::Running);
    assert_eq!(vector(&mut me, "joint.f_0", 3)[0], 0.0);
    me.step_event().unwrap();
    let sampled = vector(&mut me, "joint.f_0", 3);
    // A point mass pushed along its path at the bottom: the rod takes no part of the push.
    assert!(sampled[0].abs() < 1e-15 && (sampled[2] - weight).abs() < 1e-12, "{sampled:?}");
    set(&mut me, "f_0", &[0.0, 4.0, 0.0], SetPhase::Running);
    me.step_event().unwrap();
    assert!((vector(&mut me, "joint.f_0", 3)[1] + 4.0).abs() < 1e-15, "the axial push goes into the hinge");
}
