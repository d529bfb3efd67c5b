//! The master on the packaged ContactForce-fmi2.fmu: prescribed inputs against the closed-form
//! force, exchange order without lag, the FMU's log messages in the master's errors, and the
//! loader's refusals.

mod common;

use common::{fmi2_fmu, fmu_dir, options, run, run_error, scenario, scenario_file};
use cosim::fmu::{Instance, Value};
use cosim::{Scenario, Simulation};

/// ContactForce's defaults, spelled out, as FMU instance `name`: a plane (A) and a sphere of
/// radius 0.1 m (B), linear spring-damper with k = 1e6 N/m
/// (the default Tanh friction is zero without slip).
fn plane_and_sphere(name: &str) -> String {
    format!(
        r#"
[fmus.{name}]
path = "ContactForce-fmi2.fmu"

[fmus.{name}.parameters]
geometry_a.shape = "Plane"
geometry_b.shape = "Sphere"
geometry_b.radius = 0.1
normal.law = "LinearSpringDamper"
normal.stiffness = 1e6
normal.damping = 1e3
"#
    )
}

#[test]
fn sphere_held_at_a_fixed_depth_gets_k_times_depth_at_every_sample() {
    let scenario = Scenario::from_file(&scenario_file("pressed_sphere.toml")).unwrap();
    let outcome = Simulation::new(&scenario, &options()).and_then(Simulation::run).unwrap_or_else(|e| panic!("{e}"));
    let results = outcome.results();
    // 0.01 s in steps of 1 ms: 11 communication points, start and stop included.
    assert_eq!(results.len(), 11);
    assert_eq!(outcome.steps, 10);
    assert!((results.time()[10] - 0.01).abs() < 1e-15);
    let (k, depth) = (1e6, 0.1 - 0.099);
    for (i, f) in results.column("contact.frame_b.f_0[3]").unwrap().iter().enumerate() {
        assert!((f - k * depth).abs() < 1e-6, "sample {i}: f = {f} N, k d = {} N", k * depth);
    }
    for name in ["contact.frame_b.f_0[1]", "contact.frame_b.f_0[2]"] {
        assert!(results.column(name).unwrap().iter().all(|f| *f == 0.0), "{name} should be zero");
    }
    assert!(results.column("contact.contact.active").unwrap().iter().all(|a| *a == 1.0));
    assert_eq!(outcome.checks.len(), 2);
    assert!(outcome.passed(), "{:?}", outcome.checks);
    assert!((outcome.checks[0].obtained - 1000.0).abs() < 1e-6);
    assert_eq!(outcome.scenario, "pressed_sphere");
}

#[test]
fn table_input_drives_the_depth_and_the_force_follows_without_delay() {
    // The centre goes from 0.105 m (apart) to 0.095 m (5 mm deep) over 1 s, linearly.
    let outcome = run(&format!(
        r#"
stop_time = 1.0
step = 0.05
record = ["contact.frame_b.r_0[3]", "contact.frame_b.f_0[3]", "contact.frame_a.f_0[3]"]
{}
[[inputs]]
to = "contact.frame_b.r_0[3]"
table = [[0.0, 0.105], [1.0, 0.095]]
"#,
        plane_and_sphere("contact")
    ));
    let results = outcome.results();
    assert_eq!(results.len(), 21);
    let z = results.column("contact.frame_b.r_0[3]").unwrap();
    let f_b = results.column("contact.frame_b.f_0[3]").unwrap();
    let f_a = results.column("contact.frame_a.f_0[3]").unwrap();
    for (i, &t) in results.time().iter().enumerate() {
        let z_expected = 0.105 - 0.01 * t;
        assert!((z[i] - z_expected).abs() < 1e-12, "t = {t}: z = {}, expected {z_expected}", z[i]);
        let force = 1e6 * (0.1 - z_expected).max(0.0);
        assert!((f_b[i] - force).abs() < 1e-6 * (1.0 + force), "t = {t}: f = {} N, expected {force} N", f_b[i]);
        assert_eq!(f_a[i], -f_b[i], "t = {t}: Newton's third law");
    }
}

#[test]
fn an_instance_with_feedthrough_reads_its_sources_values_of_the_same_instant() {
    // `probe`'s separation is fed into `follower`'s sphere height. Both have feedthrough, so the
    // master must exchange probe before follower (their names sort the other way): then the
    // follower's separation at t is z(t) - 0.2 exactly, with no one-step lag.
    let outcome = run(&format!(
        r#"
stop_time = 0.5
step = 0.1
record = ["probe.frame_b.r_0[3]", "follower.contact.separation"]

[fmus.follower]
path = "ContactForce-fmi2.fmu"
{}
[[inputs]]
to = "probe.frame_b.r_0[3]"
table = [[0.0, 0.3], [0.5, 0.8]]

[[connections]]
from = "probe.contact.separation"
to = "follower.frame_b.r_0[3]"
"#,
        plane_and_sphere("probe")
    ));
    let results = outcome.results();
    let z = results.column("probe.frame_b.r_0[3]").unwrap();
    let separation = results.column("follower.contact.separation").unwrap();
    for (i, &t) in results.time().iter().enumerate() {
        let expected = (0.3 + t) - 0.2;
        assert!((z[i] - (0.3 + t)).abs() < 1e-12);
        assert!((separation[i] - expected).abs() < 1e-12, "t = {t}: follower separation {} m, expected {expected} m", separation[i]);
    }
}

#[test]
fn a_parameter_refused_at_initialisation_reaches_the_error_with_the_fmus_message() {
    let error = run_error(&format!(
        r#"
stop_time = 0.1
step = 0.01
{}
friction.law = "Stribeck"
friction.mu_static = 0.2
friction.mu_dynamic = 0.5
"#,
        plane_and_sphere("contact")
    ));
    for expected in ["contact", "fmi2ExitInitializationMode returned Error", "FMU log", "friction.mu_dynamic", "must not exceed friction.mu_static"] {
        assert!(error.contains(expected), "the error should contain {expected:?}:\n{error}");
    }
}

#[test]
fn a_percent_sign_in_the_fmus_message_arrives_unescaped() {
    // The FMU escapes '%' as "%%" (its message is a printf format); the master undoes it.
    let error = run_error(&format!(
        "stop_time = 0.1\nstep = 0.01\n{}geometry_a.shape = \"PointCloud\"\ngeometry_a.file = \"/nonexistent/100% cotton.csv\"\n",
        plane_and_sphere("contact").replace("geometry_a.shape = \"Plane\"\n", "")
    ));
    assert!(error.contains("/nonexistent/100% cotton.csv") && !error.contains("%%"), "{error}");
}

#[test]
fn a_non_finite_prescribed_input_is_refused_by_the_fmu_and_the_error_says_when() {
    let error = run_error(&format!(
        r#"
stop_time = 0.1
step = 0.01
{}
[[inputs]]
to = "contact.frame_b.v_0[1]"
table = [[0.0, 0.0], [0.05, 0.0], [0.05, nan]]
"#,
        plane_and_sphere("contact")
    ));
    for expected in ["at t = 0.05 s", "fmi2SetReal returned Error", "frame_b.v_0[1]", "NaN"] {
        assert!(error.contains(expected), "the error should contain {expected:?}:\n{error}");
    }
}

#[test]
fn sub_steps_set_the_named_parameter_to_the_step_over_the_count() {
    let scenario = scenario(&format!(
        r#"
stop_time = 0.1
step = 0.02
{}
"#,
        plane_and_sphere("contact")
            .replace("path = \"ContactForce-fmi2.fmu\"", "path = \"ContactForce-fmi2.fmu\"\nsub_steps = 8\nsub_step_parameter = \"solver.max_step\"")
    ));
    let simulation = Simulation::new(&scenario, &options()).unwrap();
    let parameters = &simulation.plan().instances[0].parameters;
    assert_eq!(parameters.last(), Some(&("solver.max_step".to_string(), Value::Real(0.02 / 8.0))));
    simulation.run().unwrap();
}

#[test]
fn instance_sets_and_gets_every_type_by_name() {
    let mut instance = Instance::new("probe", &fmi2_fmu(), false).unwrap();
    assert_eq!(instance.description().model_identifier, "ContactForce");
    instance.set("normal.stiffness", &Value::Real(2.5e5)).unwrap();
    instance.set("normal.law", &Value::Integer(3)).unwrap();
    instance.set("geometry_b.file", &Value::String("100% cotton.csv".into())).unwrap();
    // FMI 2 allows getters from initialisation mode on.
    instance.enter_initialization(0.0, None).unwrap();
    assert_eq!(instance.get("normal.stiffness").unwrap(), Value::Real(2.5e5));
    assert_eq!(instance.get("normal.law").unwrap(), Value::Integer(3));
    assert_eq!(instance.get("geometry_b.file").unwrap(), Value::String("100% cotton.csv".into()));
    instance.exit_initialization().unwrap();
    // At the defaults the sphere rests on the plane, touching it: no force yet.
    assert_eq!(instance.get("contact.active").unwrap(), Value::Boolean(false), "the default sphere touches the plane");
    assert_eq!(instance.get("contact.separation").unwrap(), Value::Real(0.0));
    let error = instance.set("normal.stiffness", &Value::Boolean(true)).unwrap_err().to_string();
    assert!(error.contains("normal.stiffness is Real"), "{error}");
    let error = instance.get("no.such.variable").unwrap_err().to_string();
    assert!(error.contains("has no variable no.such.variable"), "{error}");
}

#[test]
fn the_fmi3_fmu_is_refused_with_the_reason() {
    let error = Instance::new("contact", &fmu_dir().join("ContactForce-fmi3.fmu"), false).err().expect("FMI 3 is not imported").to_string();
    assert!(error.contains("fmiVersion is \"3.0\"") && error.contains("FMI 2.0 co-simulation FMUs only"), "{error}");
}

#[test]
fn a_missing_fmu_names_every_place_tried() {
    let error = run_error(&format!("stop_time = 1\nstep = 0.1\n{}", plane_and_sphere("contact").replace("ContactForce-fmi2.fmu", "NoSuch.fmu")));
    assert!(error.contains("FMU NoSuch.fmu not found") && error.contains(&fmu_dir().join("NoSuch.fmu").display().to_string()), "{error}");
}

#[test]
fn feedthrough_instances_feeding_each_other_are_an_algebraic_loop() {
    let text = format!(
        r#"
stop_time = 1
step = 0.1
[fmus.other]
path = "ContactForce-fmi2.fmu"
{}
[[connections]]
from = "contact.contact.separation"
to = "other.frame_b.r_0[3]"

[[connections]]
from = "other.contact.separation"
to = "contact.frame_b.r_0[3]"
"#,
        plane_and_sphere("contact")
    );
    let error = run_error(&text);
    assert!(error.contains("algebraic loop") && error.contains("contact, other"), "{error}");
}

#[test]
fn the_binary_writes_the_csv_and_prints_the_summary() {
    let out = cosim::fmu::TempDir::new("cosim-test-out").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_cosim"))
        .arg("run")
        .arg(scenario_file("pressed_sphere.toml"))
        .arg("--out")
        .arg(out.path())
        .arg("--fmu-dir")
        .arg(fmu_dir())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("pressed_sphere") && stdout.contains("final(contact.frame_b.f_0[3])") && stdout.contains("pass"), "{stdout}");
    let csv = std::fs::read_to_string(out.path().join("pressed_sphere.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("time,contact.frame_b.f_0[1],contact.frame_b.f_0[2],contact.frame_b.f_0[3],contact.contact.separation,contact.contact.active")
    );
    assert_eq!(lines.count(), 11);
}

#[test]
fn the_output_interval_thins_the_csv_but_not_the_checks() {
    let out = cosim::fmu::TempDir::new("cosim-test-interval").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_cosim"))
        .arg("run")
        .arg(scenario_file("pressed_sphere.toml"))
        .args(["--output-interval", "0.005", "--out"])
        .arg(out.path())
        .arg("--fmu-dir")
        .arg(fmu_dir())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success() && stdout.contains("pass"), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let csv = std::fs::read_to_string(out.path().join("pressed_sphere.csv")).unwrap();
    // Steps of 1 ms to 10 ms at a 5 ms interval: the rows at 0, 5 and 10 ms after the header.
    let times: Vec<f64> = csv.lines().skip(1).map(|line| line.split(',').next().unwrap().parse().unwrap()).collect();
    assert_eq!(times.len(), 3, "{csv}");
    assert!((times[1] - 0.005).abs() < 1e-12 && (times[2] - 0.01).abs() < 1e-12, "{times:?}");
}
