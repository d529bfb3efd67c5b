//! The scenarios of scenarios/*.toml through the packaged FMI 2 FMUs (RigidBody and ContactForce):
//! every check of every file passes, and the numbers the files expect are re-derived here from
//! their own parameters, so that a file cannot drift from the closed form it states.

mod common;

use std::f64::consts::PI;
use std::path::{Path, PathBuf};

use common::options;
use cosim::scenario::flatten_parameters;
use cosim::{Outcome, Scenario, Simulation};

/// Every scenario file and the test that runs it (`every_scenario_file_is_run_by_a_test`).
const SCENARIOS: [&str; 21] = [
    "sphere_drop",
    "modelica_experiment_1",
    "modelica_experiment_2",
    "modelica_experiment_3",
    "incline_stick",
    "incline_slide",
    "sphere_drop_1ms",
    "modelica_experiment_1_1ms",
    "modelica_experiment_2_1ms",
    "modelica_experiment_3_1ms",
    "incline_stick_1ms",
    "incline_slide_1ms",
    "planar_disc_rolls",
    "planar_cam_follower",
    "pendulum_wall",
    "slider_stop",
    "pendulum_wall_1ms",
    "pendulum_wall_10ms",
    "scene_stack_10ms",
    "scene_grasp_10ms",
    "scene_cradle",
];

fn scenario_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("cosim lives in the workspace").join("scenarios")
}

fn load(name: &str) -> Scenario {
    Scenario::from_file(&scenario_dir().join(format!("{name}.toml"))).unwrap_or_else(|e| panic!("{e}"))
}

fn run(scenario: &Scenario) -> Outcome {
    Simulation::new(scenario, &options()).and_then(Simulation::run).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs a scenario file and asserts that each of its checks passes.
fn run_and_pass(name: &str) -> (Scenario, Outcome) {
    let scenario = load(name);
    assert!(!scenario.checks.is_empty(), "{name} checks nothing");
    let outcome = run(&scenario);
    assert_eq!(outcome.checks.len(), scenario.checks.len());
    assert!(outcome.passed(), "{name}: a check failed:\n{}", cosim::summary_table(std::slice::from_ref(&outcome)));
    (scenario, outcome)
}

/// A parameter of instance `fmu`, as a number (`normal.stiffness`) or an array (`r_0_start`).
fn parameter(scenario: &Scenario, fmu: &str, name: &str) -> Vec<f64> {
    let value = flatten_parameters(&scenario.fmus[fmu].parameters)
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{fmu}.{name} is not set"))
        .1;
    let number = |v: &toml::Value| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)).expect("a number");
    match &value {
        toml::Value::Array(items) => items.iter().map(number).collect(),
        other => vec![number(other)],
    }
}

fn scalar(scenario: &Scenario, fmu: &str, name: &str) -> f64 {
    parameter(scenario, fmu, name)[0]
}

fn check<'a>(scenario: &'a Scenario, name: &str) -> &'a cosim::scenario::CheckSpec {
    scenario.checks.iter().find(|c| c.label() == name).unwrap_or_else(|| panic!("{}: no check {name:?}", scenario.name))
}

fn column<'a>(outcome: &'a Outcome, name: &str) -> &'a [f64] {
    outcome.results().column(name).unwrap_or_else(|| panic!("{name} was not recorded"))
}

/// Restitution of the linear spring-damper with f_n clipped at 0 (tests/laws_closed_forms.rs):
/// the ball leaves at the phase theta where k d + b d' = 0.
fn clipped_linear_restitution(k: f64, b: f64, m: f64) -> f64 {
    let a = b / (2.0 * m);
    let w = (k / m - a * a).sqrt();
    let theta = (b * w).atan2(-(k - b * a));
    -(-a * theta / w).exp() * (theta.cos() - a / w * theta.sin())
}

/// The ball's restitution in a sphere_drop run: the first (fastest) rebound speed over the impact
/// speed sqrt(2 g h).
fn measured_restitution(outcome: &Outcome, impact_speed: f64) -> f64 {
    column(outcome, "ball.v_0[3]").iter().copied().fold(f64::NEG_INFINITY, f64::max) / impact_speed
}

#[test]
fn every_scenario_file_is_run_by_a_test() {
    let mut files: Vec<String> = std::fs::read_dir(scenario_dir())
        .expect("scenarios/ exists")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .map(|path| path.file_stem().expect("a file name").to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut listed: Vec<String> = SCENARIOS.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed, "scenarios/*.toml and the tests in this file must name the same scenarios");
    for name in SCENARIOS {
        assert_eq!(load(name).name, name, "{name}.toml names its scenario after its file");
    }
}

#[test]
fn sphere_drop_restitution_matches_the_clipped_closed_form_within_one_percent() {
    let (scenario, outcome) = run_and_pass("sphere_drop");
    let (k, b) = (scalar(&scenario, "contact", "normal.stiffness"), scalar(&scenario, "contact", "normal.damping"));
    let m = scalar(&scenario, "ball", "mass");
    let drop_height = parameter(&scenario, "ball", "r_0_start")[2] - scalar(&scenario, "contact", "geometry_b.radius");
    let g = -parameter(&scenario, "ball", "gravity")[2];
    let impact_speed = (2.0 * g * drop_height).sqrt();
    let zeta = b / (2.0 * (k * m).sqrt());
    let expected = clipped_linear_restitution(k, b, m);
    let unclipped = (-zeta * PI / (1.0 - zeta * zeta).sqrt()).exp();

    // The file states the closed form and the impact speed it divides by.
    let restitution = check(&scenario, "restitution e = max(v_z) / v0");
    assert!((restitution.expected.unwrap() - expected).abs() < 1e-12, "the file expects {:?}, the closed form is {expected}", restitution.expected);
    assert!((restitution.scale.unwrap() * impact_speed - 1.0).abs() < 1e-12);
    // The explicit coupling's error is of order omega h: the default step keeps omega h <= 0.005.
    let omega_h = (k / m).sqrt() * scenario.step;
    assert!(omega_h <= 0.005 + 1e-12, "omega h = {omega_h}");

    let e = measured_restitution(&outcome, impact_speed);
    assert!((e / expected - 1.0).abs() < 0.01, "e = {e}, clipped closed form {expected} (unclipped {unclipped})");
    assert!((outcome.checks[0].obtained - e).abs() < 1e-12);
    // The clipped form is the one that applies: the unclipped one is 2 % away, outside the 1 %.
    assert!((e / unclipped - 1.0).abs() > 0.015, "e = {e}, unclipped {unclipped}");

    // The deviation comes from the zero-order hold of the force, first order in h: twice the step,
    // about twice the deviation (it is +0.37 % at the default step).
    let mut coarse = scenario.clone();
    coarse.step *= 2.0;
    let e_coarse = measured_restitution(&run(&coarse), impact_speed);
    let ratio = (e_coarse - expected) / (e - expected);
    assert!((1.6..2.4).contains(&ratio), "deviations {} at h, {} at 2h: ratio {ratio}", e - expected, e_coarse - expected);
}

#[test]
fn modelica_experiment_1_sphere_hits_the_cylinder_twice_and_falls_beside_it() {
    let (scenario, outcome) = run_and_pass("modelica_experiment_1");
    // The first impact starts when the ball has fallen to the distance R = r_sphere + r_cylinder
    // from the axis: y = sqrt(R^2 - z^2), after t = sqrt(2 (y0 - y) / g).
    let start = parameter(&scenario, "ball", "r_0_start");
    let radii = scalar(&scenario, "contact", "geometry_a.radius") + scalar(&scenario, "contact", "geometry_b.radius");
    let touch_y = (radii * radii - start[2] * start[2]).sqrt();
    let t_impact = (2.0 * (start[1] - touch_y) / 9.81).sqrt();
    let active = column(&outcome, "contact.contact.active");
    let first = outcome.results().time()[active.iter().position(|&a| a > 0.5).expect("an impact")];
    assert!((first - t_impact).abs() <= scenario.step, "first contact at {first} s, free fall says {t_impact} s");
    // The peaks against the paper's 21 N and 9 N (within 20 %; the values are discussed in the
    // scenario file: 20.3 N and 7.2 N).
    let (first_peak, second_peak) = (outcome.checks[1].obtained, outcome.checks[2].obtained);
    assert!((first_peak / 21.0 - 1.0).abs() <= 0.2 && (second_peak / 9.0 - 1.0).abs() <= 0.2, "{first_peak} N, {second_peak} N");
    assert!(second_peak < first_peak);
}

#[test]
fn modelica_experiment_2_cylinder_rolls_down_the_tilted_disk_and_off() {
    let (scenario, outcome) = run_and_pass("modelica_experiment_2");
    // Rolling without slip on the 5 deg slope: the roll rate grows at (2/3) g sin(5 deg) / r.
    let r = scalar(&scenario, "contact", "geometry_b.radius");
    let expected = 2.0 / 3.0 * 9.81 * 5f64.to_radians().sin() / r;
    assert!((check(&scenario, "roll acceleration [rad/s2], 0.1-0.3 s").expected.unwrap() - expected).abs() < 0.01 * expected);
    // It leaves the disk moving down the slope (+z) and keeps that speed in free fall.
    let v_z = column(&outcome, "body.v_0[3]");
    assert!(v_z[v_z.len() - 1] > 0.1, "final v_z = {}", v_z[v_z.len() - 1]);
}

#[test]
fn modelica_experiment_3_box_slides_down_the_rectangle_with_the_kinetic_friction() {
    let (scenario, _) = run_and_pass("modelica_experiment_3");
    let (mu_k, slope) = (scalar(&scenario, "contact", "friction.mu_dynamic"), 15f64.to_radians());
    assert!(slope.tan() > scalar(&scenario, "contact", "friction.mu_static"), "the slope must be above the friction angle");
    let a = 9.81 * (slope.sin() - mu_k * slope.cos());
    let expected = check(&scenario, "slides: x acceleration [m/s2], 0.1-0.4 s").expected.unwrap();
    assert!((expected + a * slope.cos()).abs() < 1e-12, "the file expects {expected}, -g (sin a - mu_k cos a) cos a = {}", -a * slope.cos());
}

/// The angle of a rotation about x given as a quaternion (w, x, 0, 0).
fn angle_about_x(q: &[f64]) -> f64 {
    assert!(q[2] == 0.0 && q[3] == 0.0, "a rotation about x");
    2.0 * q[1].atan2(q[0])
}

#[test]
fn incline_stick_holds_the_box_at_its_elastic_deflection_without_creep() {
    let (scenario, outcome) = run_and_pass("incline_stick");
    let angle = angle_about_x(&parameter(&scenario, "contact", "geometry_a.q"));
    let mu = scalar(&scenario, "contact", "friction.mu_static");
    assert!(angle.tan() < mu, "the slope must be below the friction angle");
    let m = scalar(&scenario, "box", "mass");
    let (k, kt) = (scalar(&scenario, "contact", "normal.stiffness"), scalar(&scenario, "contact", "friction.stiffness"));
    let size = parameter(&scenario, "contact", "geometry_b.size");
    let (half_length, half_height) = (size[1] / 2.0, size[2] / 2.0);
    // Closed form of the resting deflection along the slope, four corners evenly loaded at the
    // depth d = (m g cos a / (4 K))^(2/3): the corners' tangential springs sqrt(d) Kt give
    // m g sin a / (4 sqrt(d) Kt); the friction's moment about the centre, m g sin a h/2, tilts the
    // box against the corners' normal stiffness 1.5 K sqrt(d) at +-L/2, which moves the centre by
    // a further tilt * h/2.
    let (normal_load, tangential_load) = (m * 9.81 * angle.cos(), m * 9.81 * angle.sin());
    let depth = (normal_load / (4.0 * k)).powf(2.0 / 3.0);
    let sliding = tangential_load / (4.0 * depth.sqrt() * kt);
    let tilt = tangential_load * half_height / (4.0 * 1.5 * k * depth.sqrt() * half_length * half_length);
    let predicted = sliding + tilt * half_height;
    // The centre's displacement along the slope (0, cos a, sin a), from the start to the end.
    let (y, z) = (column(&outcome, "box.r_0[2]"), column(&outcome, "box.r_0[3]"));
    let last = y.len() - 1;
    let moved = -((y[last] - y[0]) * angle.cos() + (z[last] - z[0]) * angle.sin());
    assert!((moved / predicted - 1.0).abs() < 0.1, "moved {moved} m down the slope, the elastic deflection is {predicted} m");
}

#[test]
fn incline_slide_accelerates_at_g_sin_minus_mu_cos() {
    let (scenario, outcome) = run_and_pass("incline_slide");
    let angle = angle_about_x(&parameter(&scenario, "contact", "geometry_a.q"));
    let mu = scalar(&scenario, "contact", "friction.mu_static");
    assert!(angle.tan() > mu, "the slope must be above the friction angle");
    let a = 9.81 * (angle.sin() - mu * angle.cos());
    let acceleration = check(&scenario, "slides: y acceleration [m/s2], 0.2-1 s");
    assert!((acceleration.expected.unwrap() + a * angle.cos()).abs() < 1e-12);
    assert!((outcome.checks[0].obtained / acceleration.expected.unwrap() - 1.0).abs() < 0.01);
}

#[test]
fn planar_disc_rolls_down_the_slope_at_two_thirds_g_sin() {
    let (scenario, outcome) = run_and_pass("planar_disc_rolls");
    // The slope turned by -a; the disc solid (I = m r^2 / 2) and resting at its equilibrium depth.
    let angle = -scalar(&scenario, "contact", "geometry_a.phi");
    let (m, r) = (scalar(&scenario, "disc", "mass"), scalar(&scenario, "contact", "geometry_b.radius"));
    assert!((parameter(&scenario, "disc", "inertia")[2] / (m * r * r / 2.0) - 1.0).abs() < 1e-12);
    assert!(angle.tan() / 3.0 < scalar(&scenario, "contact", "friction.mu_static"), "the disc must roll, not slip");
    let depth = (m * 9.81 * angle.cos() / scalar(&scenario, "contact", "normal.stiffness")).powf(2.0 / 3.0);
    let start = parameter(&scenario, "disc", "r_0_start");
    assert!((start[0] - (r - depth) * angle.sin()).abs() < 1e-15 && (start[1] - (r - depth) * angle.cos()).abs() < 1e-15);
    let a = 2.0 / 3.0 * 9.81 * angle.sin();
    let along_x = check(&scenario, "rolls: x acceleration [m/s2], 0.2-1 s");
    assert!((along_x.expected.unwrap() - a * angle.cos()).abs() < 1e-12);
    let spin = check(&scenario, "rolls: angular acceleration [rad/s2], 0.2-1 s");
    assert!((spin.expected.unwrap() + a / r).abs() < 1e-12);
    // The motion stays in the plane.
    assert!(column(&outcome, "disc.r_0[3]").iter().all(|z| *z == 0.0));
}

#[test]
fn planar_cam_follower_lifts_by_twice_the_eccentricity_with_the_quasi_static_force() {
    let (scenario, outcome) = run_and_pass("planar_cam_follower");
    let (m, k) = (scalar(&scenario, "follower", "mass"), scalar(&scenario, "contact", "normal.stiffness"));
    let (radius, e) = (scalar(&scenario, "contact", "geometry_a.radius"), parameter(&scenario, "contact", "geometry_a.r")[0]);
    let w = 20.0;
    let g = -parameter(&scenario, "follower", "gravity")[1];
    assert!(w * w * e < g, "the follower must stay on the cam");
    assert!((parameter(&scenario, "follower", "r_0_start")[1] - (radius - m * g / k)).abs() < 1e-12);
    assert!((parameter(&scenario, "follower", "v_0_start")[1] - e * w).abs() < 1e-15, "the follower starts with the cam's speed");
    assert!((check(&scenario, "lift: range of y [m], 0.1-1 s").expected.unwrap() - 2.0 * e).abs() < 1e-15);
    assert!((check(&scenario, "largest normal force [N], 0.1-1 s").expected.unwrap() - m * (g + e * w * w)).abs() < 1e-12);
    assert!((check(&scenario, "smallest normal force [N], 0.1-1 s (never leaves the cam)").expected.unwrap() - m * (g - e * w * w)).abs() < 1e-12);
    // The cam's torque balances the force's moment about the shaft: t = -x_c f with the contact
    // under the cam's centre, x_c = e cos(w t).
    let (phi, force, torque) = (column(&outcome, "contact.frame_a.phi"), column(&outcome, "contact.contact.normal_force"), column(&outcome, "contact.frame_a.t"));
    let t = outcome.results().time();
    assert!((phi[t.len() - 1] - w * t[t.len() - 1]).abs() < 1e-9);
    for i in (t.len() / 2..t.len()).step_by(97) {
        let expected = -e * phi[i].cos() * force[i];
        assert!((torque[i] - expected).abs() < 1e-12 * force[i].max(1.0), "t = {}: torque {} against {expected}", t[i], torque[i]);
    }
}

/// A `_1ms` file: the checks pass at 1 ms steps under StepAverage, and the contact integrates the
/// same body as the body FMU (its mass and inertia).
fn run_step_average(name: &str, body: &str) -> (Scenario, Outcome) {
    let (scenario, outcome) = run_and_pass(name);
    assert_eq!(scenario.step, 1e-3, "{name}");
    let mode = flatten_parameters(&scenario.fmus["contact"].parameters).into_iter().find(|(n, _)| n == "coupling.mode").expect("coupling.mode is set").1;
    assert_eq!(mode.as_str(), Some("StepAverage"), "{name}");
    assert_eq!(scalar(&scenario, "contact", "body_b.mass"), scalar(&scenario, body, "mass"), "{name}");
    assert_eq!(parameter(&scenario, "contact", "body_b.inertia"), parameter(&scenario, body, "inertia"), "{name}");
    // The same system and checks as the file it comes from.
    let original = load(name.trim_end_matches("_1ms"));
    assert_eq!(scenario.checks.len(), original.checks.len(), "{name}");
    assert_eq!(scenario.stop_time, original.stop_time, "{name}");
    (scenario, outcome)
}

#[test]
fn sphere_drop_1ms_restitution_is_the_closed_form_within_two_percent() {
    let (scenario, outcome) = run_step_average("sphere_drop_1ms", "ball");
    let (k, b, m) = (scalar(&scenario, "contact", "normal.stiffness"), scalar(&scenario, "contact", "normal.damping"), scalar(&scenario, "ball", "mass"));
    // omega h = 1: the instantaneous coupling gives e = 1.66 here.
    assert!(((k / m).sqrt() * scenario.step - 1.0).abs() < 1e-12);
    let impact_speed = (2.0 * 9.81 * 0.5_f64).sqrt();
    let e = measured_restitution(&outcome, impact_speed);
    let expected = clipped_linear_restitution(k, b, m);
    assert!((e / expected - 1.0).abs() < 0.02, "e = {e}, closed form {expected}");
}

#[test]
fn modelica_experiment_1_1ms_passes_its_checks() {
    run_step_average("modelica_experiment_1_1ms", "ball");
}

#[test]
fn modelica_experiment_2_1ms_passes_its_checks() {
    run_step_average("modelica_experiment_2_1ms", "body");
}

#[test]
fn modelica_experiment_3_1ms_passes_its_checks() {
    run_step_average("modelica_experiment_3_1ms", "box");
}

#[test]
fn incline_stick_1ms_passes_its_checks() {
    run_step_average("incline_stick_1ms", "box");
}

#[test]
fn incline_slide_1ms_passes_its_checks() {
    run_step_average("incline_slide_1ms", "box");
}

/// The unit vector of a scenario's array parameter.
fn unit(v: &[f64]) -> [f64; 3] {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [v[0] / n, v[1] / n, v[2] / n]
}

fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The outward normal of a Plane whose frame is turned by the quaternion `q` (w, x, y, z): its z.
fn plane_normal(q: &[f64]) -> [f64; 3] {
    let (w, x, y, z) = (q[0], q[1], q[2], q[3]);
    [2.0 * (x * z + w * y), 2.0 * (y * z - w * x), w * w - x * x - y * y + z * z]
}

/// The fixed frame A's constant input `name` of a scenario.
fn input(scenario: &Scenario, name: &str) -> Vec<f64> {
    let spec = scenario.inputs.iter().find(|i| i.to == name).unwrap_or_else(|| panic!("no input {name}"));
    spec.value.as_ref().and_then(|v| v.as_array()).expect("an array").iter().map(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)).unwrap()).collect()
}

/// The checks of a jointed body hitting a plane at 30 deg off its path, re-derived from the file:
/// the plane's normal makes 30 deg with the direction of motion at impact and touches the sphere
/// there; the law's damping is zeta = 0.1 for the effective mass m / cos^2(30 deg), whose clipped
/// restitution the file expects; and the measured restitution is that of m_eff, not of m.
fn check_jointed_impact(name: &str, body: &str, direction: [f64; 3], at: [f64; 3], impact_speed: f64) {
    let (scenario, outcome) = run_and_pass(name);
    let n = plane_normal(&input(&scenario, "contact.frame_a.q"));
    let cos = -dot(&n, &direction);
    assert!((cos - 30f64.to_radians().cos()).abs() < 1e-12, "{name}: the normal is {}° off the path", cos.acos().to_degrees());
    let radius = scalar(&scenario, "contact", "geometry_b.radius");
    let p = input(&scenario, "contact.frame_a.r_0");
    let gap = dot(&n, &[at[0] - p[0], at[1] - p[1], at[2] - p[2]]) - radius;
    assert!(gap.abs() < 1e-12, "{name}: the sphere touches the plane {gap} m away from the impact point");
    let (k, b, m) = (scalar(&scenario, "contact", "normal.stiffness"), scalar(&scenario, "contact", "normal.damping"), scalar(&scenario, body, "mass"));
    let m_eff = m / (cos * cos);
    assert!((b / (2.0 * (k * m_eff).sqrt()) - 0.1).abs() < 1e-12);
    let expected = clipped_linear_restitution(k, b, m_eff);
    let restitution = scenario.checks.iter().find(|c| c.label().starts_with("restitution")).expect("a restitution check");
    assert!((restitution.expected.unwrap() - expected).abs() < 1e-12);
    let along_x = direction[0];
    let e = -column(&outcome, &format!("{body}.v_0[1]")).iter().copied().fold(f64::INFINITY, f64::min) / (impact_speed * along_x);
    assert!((e / expected - 1.0).abs() < 0.01, "{name}: e = {e}, closed form {expected} for m_eff");
    let with_m = clipped_linear_restitution(k, b, m);
    assert!((e / with_m - 1.0).abs() > 0.03, "{name}: e = {e} is that of the mass m ({with_m}), not of m / cos^2");
}

#[test]
fn pendulum_wall_rebounds_with_the_restitution_of_m_over_cos_squared() {
    let scenario = load("pendulum_wall");
    let r0 = parameter(&scenario, "pendulum", "r_0_start");
    let d = (r0[0] * r0[0] + r0[2] * r0[2]).sqrt();
    assert_eq!(parameter(&scenario, "pendulum", "joint.axis"), [0.0, 1.0, 0.0]);
    let g = -parameter(&scenario, "pendulum", "gravity")[2];
    // Energy conservation from the release height to the bottom.
    let impact_speed = (2.0 * g * (d + r0[2])).sqrt();
    check_jointed_impact("pendulum_wall", "pendulum", [1.0, 0.0, 0.0], [0.0, 0.0, -d], impact_speed);
}

/// The pendulum at 1 and 10 ms under StepAverage, given its mobility: every check of the files
/// (the rebound within 2 % and 5 % of the closed form for m / cos^2).
#[test]
fn pendulum_wall_under_step_average_at_1_and_10_ms_passes_its_checks() {
    for name in ["pendulum_wall_1ms", "pendulum_wall_10ms"] {
        run_and_pass(name);
    }
}

#[test]
fn slider_stop_rebounds_with_the_restitution_of_m_over_cos_squared() {
    let scenario = load("slider_stop");
    let u = unit(&parameter(&scenario, "slider", "joint.axis"));
    let g = parameter(&scenario, "slider", "gravity");
    let g_axis = dot(&u, &[g[0], g[1], g[2]]);
    let r0 = parameter(&scenario, "slider", "r_0_start");
    let length = 0.2;
    let impact_speed = (2.0 * g_axis * length).sqrt();
    let at = [r0[0] + length * u[0], r0[1] + length * u[1], r0[2] + length * u[2]];
    check_jointed_impact("slider_stop", "slider", u, at, impact_speed);
}

/// Three spheres stacked on a plane, one ContactScene under StepAverage at 10 ms (omega h = 3.2):
/// every check of the file passes (within 0.01 mm of the static heights from 0.5 s on; the stack,
/// started at rest, stays within 1e-13 m throughout), and the static heights the file
/// expects are re-derived here from its parameters (contact j from the bottom carries the weight
/// of the 4 - j spheres above).
#[test]
fn scene_stack_10ms_rests_at_the_static_depths() {
    let scenario = load("scene_stack_10ms");
    assert_eq!(scenario.step, 1e-2);
    let k = scalar(&scenario, "stack", "normal.stiffness");
    let mut z = 0.0;
    for j in 1..=3 {
        let ball = format!("ball{j}");
        let (m, g) = (scalar(&scenario, &ball, "mass"), -parameter(&scenario, &ball, "gravity")[2]);
        let r = scalar(&scenario, "stack", &format!("body[{}].radius", j + 1));
        assert_eq!(scalar(&scenario, "stack", &format!("body[{}].mass", j + 1)), m);
        assert_eq!(parameter(&scenario, "stack", &format!("body[{}].inertia", j + 1)), parameter(&scenario, &ball, "inertia"));
        z += if j == 1 { r } else { 2.0 * r };
        z -= (4 - j) as f64 * m * g / k;
        assert!((parameter(&scenario, &ball, "r_0_start")[2] - z).abs() < 1e-12, "{ball} starts at its static height {z}");
        for statistic in ["min", "max"] {
            let c = check(&scenario, &format!("sphere {j}: {statistic} height from 0.5 s = its static height"));
            assert!((c.expected.expect("expected") - z).abs() < 1e-12, "{ball}: {statistic} against {z}");
            assert_eq!((c.tolerance, c.window), (Some(1e-5), Some([0.5, scenario.stop_time])));
        }
    }
    run_and_pass("scene_stack_10ms");
}

/// Two driven fingers lift a box by friction, one ContactScene under StepAverage at 10 ms: every
/// check of the file passes, and the speed they expect is re-derived here from the parameters:
/// each finger presses F_n = k d (d from the finger's and the box's sizes and the finger's
/// position), and Adams Coulomb, with no true stiction, lets the box creep down at the speed x v_s
/// where mu_s x (3 - x^2) / 2 = m g / (2 F_n) (its first branch, x < 1).
#[test]
fn scene_grasp_10ms_lifts_the_box_at_the_fingers_speed_less_the_creep() {
    let scenario = load("scene_grasp_10ms");
    let k = scalar(&scenario, "hand", "normal.stiffness");
    let half = parameter(&scenario, "hand", "body[1].size")[0] / 2.0;
    let radius = scalar(&scenario, "hand", "body[2].radius");
    let depth = half + radius - parameter(&scenario, "finger2", "r_0_start")[0];
    assert!((depth - 2e-4).abs() < 1e-12, "each finger 0.2 mm into the box: {depth}");
    assert_eq!(parameter(&scenario, "finger1", "r_0_start")[0], -parameter(&scenario, "finger2", "r_0_start")[0]);
    let f_n = k * depth;
    let (m, g) = (scalar(&scenario, "box", "mass"), -parameter(&scenario, "box", "gravity")[2]);
    let (mu, v_s) = (scalar(&scenario, "hand", "friction.mu_static"), scalar(&scenario, "hand", "friction.v_stiction"));
    assert_eq!(scalar(&scenario, "hand", "friction.mu_dynamic"), mu);
    assert!(2.0 * mu * f_n > m * g, "the grasp holds");
    let ratio = m * g / (2.0 * mu * f_n);
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..60 {
        let x = 0.5 * (lo + hi);
        if x * (3.0 - x * x) / 2.0 < ratio {
            lo = x;
        } else {
            hi = x;
        }
    }
    let lift = parameter(&scenario, "finger1", "v_0_start")[2];
    let expected = lift - lo * v_s;
    for statistic in ["", " (max)"] {
        let c = check(&scenario, &format!("box speed from 0.2 s{statistic} = the fingers' less the creep"));
        assert!((c.expected.expect("expected") - expected).abs() < 1e-5, "{statistic}: the file expects {:?}, the law gives {expected}", c.expected);
    }
    // Told gravity, the box creeps from the start: at the end it is the fingers' lift less the
    // creep over the whole run (the box starts at 0).
    assert_eq!(parameter(&scenario, "hand", "coupling.gravity"), parameter(&scenario, "box", "gravity"));
    let height = expected * scenario.stop_time;
    let c = check(&scenario, "box height at 1 s: lifted 0.1 m less the creep");
    assert!((c.expected.expect("expected") - height).abs() < 1e-5, "the file expects {:?}, the law gives {height}", c.expected);
    run_and_pass("scene_grasp_10ms");
}

/// Newton's cradle, one ContactScene under StepAverage at 1 ms: every check of the file passes,
/// and the speeds it expects are re-derived here from its parameters: the five balls and
/// Hunt-Crossley (f = k d^1.5 + b d^1.5 d' between neighbours) integrated together by RK4 at
/// 1 us for 20 ms, from the first ball's start speed and gap.
#[test]
fn scene_cradle_gives_the_speeds_of_the_balls_integrated_together() {
    let scenario = load("scene_cradle");
    let (k, b) = (scalar(&scenario, "cradle", "normal.stiffness"), scalar(&scenario, "cradle", "normal.damping"));
    let (m, r) = (scalar(&scenario, "ball1", "mass"), scalar(&scenario, "cradle", "body[1].radius"));
    let mut x: Vec<f64> = (1..=5).map(|i| parameter(&scenario, &format!("ball{i}"), "r_0_start")[0]).collect();
    let mut v: Vec<f64> = (1..=5).map(|i| parameter(&scenario, &format!("ball{i}"), "v_0_start")[0]).collect();
    let accelerations = |x: &[f64], v: &[f64]| -> Vec<f64> {
        let mut a = vec![0.0; 5];
        for i in 0..4 {
            let d = 2.0 * r - (x[i + 1] - x[i]);
            let f = if d > 0.0 { (k + b * (v[i] - v[i + 1])).max(0.0) * d.powf(1.5) } else { 0.0 };
            a[i] -= f / m;
            a[i + 1] += f / m;
        }
        a
    };
    let dt = 1e-6;
    let along = |y: &[f64], dy: &[f64], h: f64| -> Vec<f64> { y.iter().zip(dy).map(|(y, d)| y + h * d).collect() };
    for _ in 0..20_000 {
        let a1 = accelerations(&x, &v);
        let (x2, v2) = (along(&x, &v, dt / 2.0), along(&v, &a1, dt / 2.0));
        let a2 = accelerations(&x2, &v2);
        let (x3, v3) = (along(&x, &v2, dt / 2.0), along(&v, &a2, dt / 2.0));
        let a3 = accelerations(&x3, &v3);
        let (x4, v4) = (along(&x, &v3, dt), along(&v, &a3, dt));
        let a4 = accelerations(&x4, &v4);
        for i in 0..5 {
            x[i] += dt / 6.0 * (v[i] + 2.0 * v2[i] + 2.0 * v3[i] + v4[i]);
            v[i] += dt / 6.0 * (a1[i] + 2.0 * a2[i] + 2.0 * a3[i] + a4[i]);
        }
    }
    for (i, speed) in v.iter().enumerate() {
        let c = check(&scenario, &format!("ball {}: its speed after the impacts = the RK4 reference", i + 1));
        assert!((c.expected.expect("expected") - speed).abs() < 1e-5, "ball {}: the file expects {:?}, RK4 gives {speed}", i + 1, c.expected);
        assert_eq!(c.tolerance, Some(0.01));
    }
    run_and_pass("scene_cradle");
}
