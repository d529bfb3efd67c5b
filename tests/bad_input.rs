//! ContactForce's C API under the bad input real hosts and users send: non-finite and degenerate
//! inputs, enormous but finite inputs, deep penetration, invalid and inconsistent parameters,
//! unsupported pairs, broken geometry files, calls in the wrong state, a null logger, unknown
//! log categories, and steps too long or too late to take. The rule everywhere: a status and a
//! message naming what was wrong, never a crash, a hang, or a non-finite output with OK.
//!
//! The tests drive the FMI 3.0 API through `support::fmi3` (the FMI 2.0 one where the version
//! matters); tests/fmi2_c_api.rs and tests/fmi3_c_api.rs hold the first cases of several of these.

mod support;

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::PathBuf;
use std::ptr::{null, null_mut};

use contact_force::fmi::fmi2::*;
use contact_force::fmi::fmi3::*;
use contact_force::fmi::status::Status;
use contact_force::variables;
use support::fmi3::{inputs, vr, vrs, Fmu};

/// The sliding-sphere case of tests/fmi3_c_api.rs: B's sphere 1 mm into A's plane, approaching at
/// 0.5 m/s and sliding at 0.2 m/s; every other input at rest, quaternions unit.
fn base_inputs(fmu: &Fmu) {
    let all = inputs();
    let mut values = vec![0.0; all.len()];
    for (i, (name, _)) in all.iter().enumerate() {
        values[i] = match *name {
            "frame_a.q[1]" | "frame_b.q[1]" => 1.0,
            "frame_b.r_0[3]" => 0.099,
            "frame_b.v_0[1]" => 0.2,
            "frame_b.v_0[3]" => -0.5,
            _ => 0.0,
        };
    }
    let refs: Vec<u32> = all.iter().map(|(_, vr)| *vr).collect();
    assert_eq!(fmu.set_floats(&refs, &values), Status::Ok);
}

/// A fresh instance in Step Mode with the base inputs.
fn stepping() -> Fmu {
    let fmu = Fmu::new();
    assert_eq!(fmu.initialize(), Status::Ok, "{:?}", fmu.messages());
    base_inputs(&fmu);
    fmu
}

/// No message tells of a panic caught at the C boundary.
fn no_internal_error(fmu: &Fmu) {
    assert!(!fmu.logged("internal error"), "{:?}", fmu.messages());
}

#[test]
fn every_non_finite_input_is_refused_naming_the_variable_and_the_value() {
    for (name, _) in inputs() {
        for value in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let fmu = stepping();
            let before = fmu.get_float(name);
            assert_eq!(fmu.set_float(name, value), Status::Error, "{name} = {value}");
            let message = fmu.last_message();
            assert!(message.contains(&format!("{name} = {value}")) && message.contains("finite"), "{message}");
            // The refused value is not taken: the old one is still there (Error state: readable).
            assert_eq!(fmu.get_float(name), before);
        }
    }
}

#[test]
fn zero_and_degenerate_quaternions_are_errors_naming_the_frame() {
    // All-zero quaternions are an error from the first DoStep on (before it they are a connector
    // the master has not yet set: see the next test); tiny nonzero ones are an error always.
    let zero: [[f64; 4]; 2] = [[0.0; 4], [-0.0, 0.0, -0.0, 0.0]];
    let tiny: [[f64; 4]; 2] = [[1e-13, 0.0, 0.0, 0.0], [1e-320, 1e-320, 0.0, 0.0]];
    for frame in ["frame_a", "frame_b"] {
        for q in zero.iter().chain(&tiny) {
            // Through a get of the outputs, after a first step...
            let fmu = stepping();
            assert_eq!(fmu.do_step(0.0, 1e-3).0, Status::Ok, "{:?}", fmu.messages());
            assert_eq!(fmu.set_floats(&vrs(&format!("{frame}.q"), 4), q), Status::Ok);
            let (status, _) = fmu.try_outputs();
            assert_eq!(status, Status::Error, "{frame}.q = {q:?}");
            assert!(fmu.last_message().contains(&format!("{frame}.q")), "{:?}", fmu.messages());
            // ...through the first DoStep...
            let fmu = stepping();
            assert_eq!(fmu.set_floats(&vrs(&format!("{frame}.q"), 4), q), Status::Ok);
            assert_eq!(fmu.do_step(0.0, 1e-3).0, Status::Error, "{frame}.q = {q:?}");
            let message = fmu.last_message();
            assert!(message.contains("fmi3DoStep") && message.contains(&format!("{frame}.q")), "{message}");
            no_internal_error(&fmu);
        }
        // ...and, for the tiny ones, through a get before any step.
        for q in tiny {
            let fmu = stepping();
            assert_eq!(fmu.set_floats(&vrs(&format!("{frame}.q"), 4), &q), Status::Ok);
            assert_eq!(fmu.try_outputs().0, Status::Error, "{frame}.q = {q:?}");
            assert!(fmu.last_message().contains(&format!("{frame}.q")), "{:?}", fmu.messages());
        }
    }
}

#[test]
fn an_all_zero_quaternion_before_the_first_step_is_an_unconnected_input_with_zero_force_and_one_warning() {
    for frame in ["frame_a", "frame_b"] {
        // A master that evaluates in initialisation mode from connectors that start at 0.
        let fmu = Fmu::new();
        // SAFETY: a live instance.
        assert_eq!(unsafe { fmi3EnterInitializationMode(fmu.instance, false, 0.0, 0.0, false, 0.0) }, Status::Ok);
        base_inputs(&fmu);
        assert_eq!(fmu.set_floats(&vrs(&format!("{frame}.q"), 4), &[0.0; 4]), Status::Ok);
        for _ in 0..3 {
            let (status, values) = fmu.try_get_floats(&vrs("frame_a.f_0", 3).into_iter().chain(vrs("frame_b.f_0", 3)).chain(vrs("frame_b.t_0", 3)).collect::<Vec<_>>());
            assert_eq!(status, Status::Ok, "{:?}", fmu.messages());
            assert!(values.iter().all(|x| *x == 0.0), "{frame}: {values:?}");
            assert_eq!(fmu.get_float("contact.normal_force"), 0.0);
        }
        let warnings: Vec<String> = fmu.messages().into_iter().filter(|m| m.contains(&format!("{frame}.q = [0, 0, 0, 0]"))).collect();
        assert_eq!(warnings.len(), 1, "one warning naming the input: {:?}", fmu.messages());
        assert!(warnings[0].contains("not yet connected"), "{}", warnings[0]);
        // SAFETY: a live instance.
        assert_eq!(unsafe { fmi3ExitInitializationMode(fmu.instance) }, Status::Ok, "{:?}", fmu.messages());
        // Still before the first step: zero force.
        assert_eq!(fmu.get_float("contact.normal_force"), 0.0);
        // The master connects the body (1 mm into the plane, approaching): the force appears at
        // once, and the step is taken.
        base_inputs(&fmu);
        assert!(fmu.get_float("contact.normal_force") > 0.0, "{:?}", fmu.messages());
        assert_eq!(fmu.do_step(0.0, 1e-4).0, Status::Ok, "{:?}", fmu.messages());
        assert!(fmu.get_float("contact.normal_force") > 0.0);
        // From the first step on, a zero quaternion is an error naming the input.
        assert_eq!(fmu.set_floats(&vrs(&format!("{frame}.q"), 4), &[0.0; 4]), Status::Ok);
        assert_eq!(fmu.try_outputs().0, Status::Error);
        assert!(fmu.last_message().contains(&format!("{frame}.q")) && fmu.last_message().contains("is zero"), "{}", fmu.last_message());
        no_internal_error(&fmu);
    }
    // A DoStep taken with the quaternion still zero is an error, even when outputs were read
    // before it under the zero-force rule.
    let fmu = stepping();
    assert_eq!(fmu.set_floats(&vrs("frame_b.q", 4), &[0.0; 4]), Status::Ok);
    assert_eq!(fmu.get_float("contact.normal_force"), 0.0);
    assert_eq!(fmu.do_step(0.0, 1e-3).0, Status::Error);
    assert!(fmu.last_message().contains("frame_b.q"), "{}", fmu.last_message());
    // Reset starts over: zero force again before the first step.
    assert_eq!(fmu.reset(), Status::Ok);
    assert_eq!(fmu.initialize(), Status::Ok);
    assert_eq!(fmu.set_floats(&vrs("frame_b.q", 4), &[0.0; 4]), Status::Ok);
    assert_eq!(fmu.get_float("contact.normal_force"), 0.0);
}

/// One configuration of laws and shapes for the sweeps: (normal law, friction law, box for B).
fn configurations() -> Vec<(i64, i64, bool)> {
    let mut all = Vec::new();
    for normal in 1..=7 {
        for friction in 1..=7 {
            for boxed in [false, true] {
                all.push((normal, friction, boxed));
            }
        }
    }
    all
}

fn configured((normal, friction, boxed): (i64, i64, bool)) -> Fmu {
    let fmu = Fmu::new();
    assert_eq!(fmu.set_enum("normal.law", normal), Status::Ok);
    assert_eq!(fmu.set_enum("friction.law", friction), Status::Ok);
    if boxed {
        assert_eq!(fmu.set_enum("geometry_b.shape", 3), Status::Ok);
        assert_eq!(fmu.set_floats(&vrs("geometry_b.size", 3), &[0.2, 0.2, 0.2]), Status::Ok);
    }
    assert_eq!(fmu.initialize(), Status::Ok, "normal {normal}, friction {friction}: {:?}", fmu.messages());
    base_inputs(&fmu);
    fmu
}

/// Reads every output: OK with every value finite, or Discard with a message; never anything else.
fn outputs_finite_or_discarded(fmu: &Fmu, what: &str) -> Status {
    let logged = fmu.messages().len();
    let (status, bits) = fmu.try_outputs();
    match status {
        Status::Ok => {
            let bad: Vec<f64> = bits.iter().map(|b| f64::from_bits(*b)).filter(|x| !x.is_finite()).collect();
            assert!(bad.is_empty(), "{what}: non-finite outputs with OK: {bad:?}");
        }
        Status::Discard => assert!(fmu.messages().len() > logged, "{what}: Discard without a message"),
        other => panic!("{what}: outputs answered {other:?}: {:?}", fmu.messages()),
    }
    status
}

#[test]
fn enormous_inputs_give_finite_outputs_or_discard_and_never_non_finite_outputs_with_ok() {
    let targets = [
        "frame_b.r_0[1]",
        "frame_b.r_0[3]",
        "frame_b.v_0[1]",
        "frame_b.v_0[3]",
        "frame_b.w_0[1]",
        "frame_b.w_0[3]",
        "frame_a.r_0[3]",
        "frame_a.v_0[2]",
        "frame_a.w_0[2]",
    ];
    let values = [1e300, -1e300, f64::MAX, 1e200, -1e200, 1e100, -1e20];
    let (mut ok, mut discarded) = (0, 0);
    for configuration in configurations() {
        for target in targets {
            for value in values {
                let what = format!("{configuration:?} {target} = {value:e}");
                let fmu = configured(configuration);
                // A step with the sane inputs first, so that a stateful law has a state to keep.
                assert_eq!(fmu.do_step(0.0, 1e-3).0, Status::Ok, "{what}: {:?}", fmu.messages());
                let kept = fmu.try_outputs().1;
                assert_eq!(fmu.set_float(target, value), Status::Ok, "{what}: finite values are taken");
                outputs_finite_or_discarded(&fmu, &what);
                let (status, last) = fmu.do_step(1e-3, 1e-3);
                match status {
                    Status::Ok => {
                        ok += 1;
                        assert_eq!(last, 2e-3);
                        outputs_finite_or_discarded(&fmu, &what);
                        continue;
                    }
                    Status::Discard => discarded += 1,
                    other => panic!("{what}: DoStep answered {other:?}: {:?}", fmu.messages()),
                }
                // Discarded: the importer learns where the FMU stayed, the state is as before,
                // and with the old input the step goes through from the same time.
                assert_eq!(last, 1e-3, "{what}: lastSuccessfulTime");
                assert!(fmu.last_message().contains("discarded"), "{what}: {:?}", fmu.messages());
                base_inputs(&fmu);
                assert_eq!(fmu.try_outputs().1, kept, "{what}: the discarded step changed the state");
                assert_eq!(fmu.do_step(1e-3, 1e-3), (Status::Ok, 2e-3), "{what}: {:?}", fmu.messages());
                assert_eq!(outputs_finite_or_discarded(&fmu, &what), Status::Ok);
                no_internal_error(&fmu);
            }
        }
    }
    // Both outcomes occur: far-away bodies give zero force, enormous speeds in contact overflow.
    assert!(ok > 0 && discarded > 0, "{ok} steps went through, {discarded} were discarded");
}

#[test]
fn a_discarded_step_leaves_a_stateful_contact_exactly_as_if_it_had_not_been_tried() {
    // A box sliding on the plane with ElasticCone (a state per corner), 20 steps; in the second
    // run step 10 is first tried with an enormous speed and discarded.
    let run = |interrupt: bool| {
        let fmu = configured((6, 6, true));
        let mut trace = Vec::new();
        for k in 0..20 {
            let t = k as f64 * 1e-4;
            if interrupt && k == 10 {
                assert_eq!(fmu.set_float("frame_b.v_0[1]", 1e300), Status::Ok);
                assert_eq!(fmu.do_step(t, 1e-4), (Status::Discard, t));
                assert_eq!(fmu.set_float("frame_b.v_0[1]", 0.2), Status::Ok);
            }
            assert_eq!(fmu.do_step(t, 1e-4), (Status::Ok, t + 1e-4), "{:?}", fmu.messages());
            let (status, bits) = fmu.try_outputs();
            assert_eq!(status, Status::Ok);
            trace.push(bits);
        }
        trace
    };
    assert_eq!(run(true), run(false));
}

#[test]
fn deep_penetration_beyond_max_depth_passes_through_with_one_warning_and_no_force() {
    let fmu = Fmu::new();
    assert_eq!(fmu.set_float("normal.max_depth", 0.01), Status::Ok);
    assert_eq!(fmu.initialize(), Status::Ok);
    base_inputs(&fmu);
    // 5 mm deep: within max_depth, the spring pushes.
    assert_eq!(fmu.set_float("frame_b.r_0[3]", 0.095), Status::Ok);
    assert!(fmu.get_float("contact.normal_force") > 0.0);
    assert!(!fmu.logged("passed through"));
    // 20 mm, 1 m, 1e6 m and 1e300 m deep: passed through, no force, finite outputs, one warning.
    for z in [0.08, -0.9, -1e6, -1e300] {
        assert_eq!(fmu.set_float("frame_b.r_0[3]", z), Status::Ok);
        assert_eq!(fmu.get_float("contact.normal_force"), 0.0, "z = {z}");
        assert_eq!(fmu.get_float("frame_b.f_0[3]"), 0.0, "z = {z}");
        assert_eq!(outputs_finite_or_discarded(&fmu, &format!("z = {z}")), Status::Ok);
    }
    let (status, _) = fmu.do_step(0.0, 1e-3);
    assert_eq!(status, Status::Ok);
    let warnings = fmu.messages().iter().filter(|m| m.contains("deeper than normal.max_depth = 0.01 m")).count();
    assert_eq!(warnings, 1, "{:?}", fmu.messages());
    // Without max_depth, 1 m deep is a finite force of k d, and 1e300 m is numerical trouble.
    let fmu = stepping();
    assert_eq!(fmu.set_float("frame_b.r_0[3]", -0.9), Status::Ok);
    assert_eq!(fmu.set_float("frame_b.v_0[3]", 0.0), Status::Ok);
    assert!((fmu.get_float("contact.normal_force") - 1e6).abs() < 1e-6);
    assert_eq!(fmu.set_float("frame_b.r_0[3]", -1e300), Status::Ok);
    assert_eq!(outputs_finite_or_discarded(&fmu, "1e300 m deep"), Status::Discard);
    assert_eq!(fmu.do_step(0.0, 1e-3), (Status::Discard, 0.0));
}

/// Sets `(name, value)` pairs: enumerations (laws, shapes) by their Int64 number, the rest Float64.
fn set_all(fmu: &Fmu, settings: &[(&str, f64)]) {
    for (name, value) in settings {
        let status = if name.ends_with(".law") || name.ends_with(".shape") || name.ends_with("_model") {
            fmu.set_enum(name, *value as i64)
        } else {
            fmu.set_float(name, *value)
        };
        assert_eq!(status, Status::Ok, "{name} = {value}: {:?}", fmu.messages());
    }
}

#[test]
fn invalid_and_inconsistent_parameters_are_refused_when_initialisation_ends_naming_variable_value_and_rule() {
    let cases: &[(&[(&str, f64)], &str)] = &[
        // Out of range (the table's min).
        (&[("normal.stiffness", -1.0)], "normal.stiffness = -1: must be >= 0"),
        (&[("geometry_b.radius", -0.1)], "geometry_b.radius = -0.1: must be >= 0"),
        (&[("normal.max_depth", -1e-3)], "normal.max_depth = -0.001: must be >= 0"),
        // Rules of one parameter beyond an interval.
        (&[("geometry_b.radius", 0.0)], "geometry_b.radius = 0: a Sphere needs radius > 0"),
        (&[("solver.max_step", 0.0)], "solver.max_step = 0: must be > 0"),
        (&[("normal.law", 3.0), ("normal.exponent", 0.0)], "normal.exponent = 0: must be > 0"),
        (&[("normal.law", 4.0), ("normal.transition_width", 0.0)], "normal.transition_width = 0: must be > 0 (SmoothSpringDamper)"),
        (&[("normal.law", 5.0), ("normal.full_damping_depth", 0.0)], "normal.full_damping_depth = 0: must be > 0 (Impact: Adams DMAX)"),
        (&[("normal.law", 7.0), ("normal.restitution", 1.5)], "normal.restitution = 1.5: must be <= 1"),
        (&[("friction.law", 6.0), ("friction.damping", 0.0)], "friction.damping = 0: must be > 0 (ElasticCone"),
        (&[("friction.law", 7.0), ("friction.max_deformation", 0.0)], "friction.max_deformation = 0: must be > 0 (Stiction)"),
        (&[("friction.law", 4.0), ("friction.tanh_gain", 0.0)], "friction.tanh_gain = 0: must be > 0"),
        // Inconsistent: parameters that are fine alone but not together.
        (
            &[("normal.law", 7.0), ("normal.restitution_model", 3.0), ("normal.restitution", 0.0)],
            "normal.restitution = 0: must be > 0 with normal.restitution_model = Flores",
        ),
        (
            &[("friction.law", 5.0), ("friction.mu_static", 0.2), ("friction.mu_dynamic", 0.3)],
            "friction.mu_dynamic = 0.3: must not exceed friction.mu_static = 0.2",
        ),
        (
            &[("friction.law", 3.0), ("friction.v_stiction", 0.1), ("friction.v_transition", 0.05)],
            "friction.v_transition = 0.05: must be > friction.v_stiction = 0.1 (AdamsCoulomb",
        ),
        (
            &[("geometry_b.q[1]", 0.0), ("geometry_b.q[2]", 0.0), ("geometry_b.q[3]", 0.0), ("geometry_b.q[4]", 0.0)],
            "geometry_b.q = [0.0, 0.0, 0.0, 0.0]: the quaternion is zero (its norm is below 1e-12), so it is no rotation",
        ),
    ];
    for (settings, message) in cases {
        let fmu = Fmu::new();
        set_all(&fmu, settings);
        // SAFETY: a live instance.
        assert_eq!(unsafe { fmi3EnterInitializationMode(fmu.instance, false, 0.0, 0.0, false, 0.0) }, Status::Ok);
        // SAFETY: a live instance.
        assert_eq!(unsafe { fmi3ExitInitializationMode(fmu.instance) }, Status::Error, "{settings:?}");
        let last = fmu.last_message();
        assert!(last.contains("fmi3ExitInitializationMode") && last.contains(message), "{settings:?}: {last}");
        no_internal_error(&fmu);
    }
    // A non-finite parameter is refused at the set already, by name and value.
    let fmu = Fmu::new();
    assert_eq!(fmu.set_float("normal.stiffness", f64::NAN), Status::Error);
    assert!(fmu.last_message().contains("normal.stiffness = NaN"), "{}", fmu.last_message());
}

#[test]
fn unsupported_pairs_are_refused_when_initialisation_ends_naming_both_shapes() {
    for (a, b, message) in [
        (9, 9, "geometry pair Plane (A) - Plane (B) is not supported"),
        (1, 1, "Point (A) - Point (B)"),
    ] {
        let fmu = Fmu::new();
        set_all(&fmu, &[("geometry_a.shape", a as f64), ("geometry_b.shape", b as f64)]);
        assert_eq!(fmu.initialize(), Status::Error);
        assert!(fmu.last_message().contains(message), "{}", fmu.last_message());
    }
}

/// A file in this process's scratch folder.
fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = support::scratch_dir("bad_input");
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn missing_empty_truncated_and_malformed_geometry_files_are_refused_naming_the_path() {
    // Binary STL: a header declaring 2 triangles with the bytes of one.
    let mut truncated_stl = vec![0u8; 80];
    truncated_stl.extend(2u32.to_le_bytes());
    truncated_stl.extend(vec![0u8; 50]);
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let missing = std::env::temp_dir().join("contact_force_no_such_folder").join("hull.obj");
    let folder = temp_file("placeholder", b"").parent().unwrap().to_path_buf();
    // (shape of B, file, what the message says)
    let cases: Vec<(i64, PathBuf, &str)> = vec![
        (10, missing.clone(), "cannot be read"),
        (11, missing.with_extension("stl"), "cannot be read"),
        (12, missing.with_extension("csv"), "cannot be read"),
        (10, folder.clone(), "cannot be read"),
        (10, temp_file("empty.csv", b""), "holds no points"),
        (11, temp_file("empty.stl", b""), "neither ASCII STL"),
        (11, temp_file("truncated.stl", &truncated_stl), "declares 2 triangles"),
        (11, temp_file("truncated.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2"), "line 4"),
        (11, temp_file("garbage.stl", &garbage), "garbage.stl"),
        (10, temp_file("garbage.obj", &garbage), "garbage.obj"),
        (12, temp_file("garbage.csv", &garbage), "garbage.csv"),
        (13, temp_file("garbage.txt", &garbage), "garbage.txt"),
        (10, temp_file("overflow.csv", b"1e400,0,0\n0,1,0\n0,0,1\n1,1,1\n"), "finite"),
        (10, temp_file("flat.csv", b"0,0,0\n1,0,0\n0,1,0\n1,1,0\n"), "no volume"),
        (12, temp_file("truncated.csv", b"x,y,z\n0,0,0\n1,2\n"), "line 3"),
        (13, temp_file("truncated.txt", b"0 0 1 1\n1 2 3\n4 5 6\n7 8\n"), "line 4"),
    ];
    for (shape, path, message) in cases {
        let fmu = Fmu::new();
        let what = format!("shape {shape}, {}", path.display());
        set_all(&fmu, &[("geometry_b.shape", shape as f64)]);
        if shape == 13 {
            // A grid surface is A's geometry, against B's sphere.
            set_all(&fmu, &[("geometry_a.shape", 13.0), ("geometry_b.shape", 2.0)]);
            assert_eq!(fmu.set_string("geometry_a.file", path.to_str().unwrap()), Status::Ok);
        } else {
            assert_eq!(fmu.set_string("geometry_b.file", path.to_str().unwrap()), Status::Ok);
        }
        assert_eq!(fmu.initialize(), Status::Error, "{what}: {:?}", fmu.messages());
        let last = fmu.last_message();
        assert!(last.contains(path.to_str().unwrap()) && last.contains(message), "{what}: {last}");
        assert!(last.contains("geometry_a.file") || last.contains("geometry_b.file"), "{what}: {last}");
        no_internal_error(&fmu);
    }
    // An empty file name for a shape that needs a file.
    let fmu = Fmu::new();
    set_all(&fmu, &[("geometry_b.shape", 11.0)]);
    assert_eq!(fmu.initialize(), Status::Error);
    assert!(fmu.last_message().contains("geometry_b.file"), "{}", fmu.last_message());
}

#[test]
fn calls_in_the_wrong_state_are_errors_that_do_not_change_the_state() {
    // Each state reached by the legal sequence, and the calls it does not allow.
    type Call = fn(&Fmu) -> Status;
    let enter: Call = |f| {
        // SAFETY: a live instance.
        unsafe { fmi3EnterInitializationMode(f.instance, false, 0.0, 0.0, false, 0.0) }
    };
    let exit: Call = |f| {
        // SAFETY: a live instance.
        unsafe { fmi3ExitInitializationMode(f.instance) }
    };
    let step: Call = |f| f.do_step(0.0, 1e-3).0;
    let terminate: Call = |f| {
        // SAFETY: a live instance.
        unsafe { fmi3Terminate(f.instance) }
    };
    let get: Call = |f| f.try_get_floats(&[vr("contact.normal_force")]).0;
    let set_input: Call = |f| f.set_float("frame_b.r_0[3]", 0.099);
    let calls: [(&str, Call); 6] =
        [("fmi3EnterInitializationMode", enter), ("fmi3ExitInitializationMode", exit), ("fmi3DoStep", step), ("fmi3Terminate", terminate), ("fmi3GetFloat64", get), ("fmi3SetFloat64", set_input)];
    // (state, how to reach it from a fresh instance, the calls the standard does not allow there)
    let states: [(&str, &[Call], &[&str]); 4] = [
        ("Instantiated", &[], &["fmi3ExitInitializationMode", "fmi3DoStep", "fmi3Terminate", "fmi3GetFloat64"]),
        ("InitializationMode", &[enter], &["fmi3EnterInitializationMode", "fmi3DoStep", "fmi3Terminate"]),
        ("StepMode", &[enter, exit], &["fmi3EnterInitializationMode", "fmi3ExitInitializationMode"]),
        ("Terminated", &[enter, exit, terminate], &["fmi3EnterInitializationMode", "fmi3ExitInitializationMode", "fmi3DoStep", "fmi3Terminate", "fmi3SetFloat64"]),
    ];
    for (state, path, refused) in states {
        for (name, call) in calls {
            if !refused.contains(&name) {
                continue;
            }
            let fmu = Fmu::new();
            for legal in path {
                assert_eq!(legal(&fmu), Status::Ok);
            }
            assert_eq!(call(&fmu), Status::Error, "{name} in {state}");
            assert!(fmu.last_message().contains(&format!("{name}: Illegal call sequence: not allowed in state {state}")), "{}", fmu.last_message());
            // The state did not change: the next legal call of that state still works.
            let next = match state {
                "Instantiated" => enter,
                "InitializationMode" => exit,
                "StepMode" => step,
                _ => get,
            };
            assert_eq!(next(&fmu), Status::Ok, "after {name} in {state}: {:?}", fmu.messages());
        }
    }
}

#[test]
fn steps_too_long_or_too_late_are_refused_not_waited_for() {
    // ElasticCone sub-steps by solver.max_step: a step of 1e300 s would take 1e303 sub-steps.
    let fmu = configured((1, 6, false));
    let (status, last) = fmu.do_step(0.0, 1e300);
    assert_eq!((status, last), (Status::Discard, 0.0), "{:?}", fmu.messages());
    assert!(fmu.last_message().contains("sub-steps of solver.max_step"), "{}", fmu.last_message());
    assert_eq!(fmu.do_step(0.0, 1e-3), (Status::Ok, 1e-3));
    // So would a tiny solver.max_step.
    let fmu = Fmu::new();
    set_all(&fmu, &[("friction.law", 7.0), ("solver.max_step", 1e-300)]);
    assert_eq!(fmu.initialize(), Status::Ok);
    base_inputs(&fmu);
    assert_eq!(fmu.do_step(0.0, 1e-3).0, Status::Discard);
    // A stateless law takes no sub-steps: an enormous step is just long.
    let fmu = stepping();
    assert_eq!(fmu.do_step(0.0, 1e300), (Status::Ok, 1e300));
    // A time that would overflow is refused.
    let fmu = Fmu::new();
    // SAFETY: a live instance.
    unsafe {
        assert_eq!(fmi3EnterInitializationMode(fmu.instance, false, 0.0, 1e308, false, 0.0), Status::Ok);
        assert_eq!(fmi3ExitInitializationMode(fmu.instance), Status::Ok);
    }
    assert_eq!(fmu.do_step(1e308, 1e308).0, Status::Error);
    assert!(fmu.last_message().contains("overflows"), "{}", fmu.last_message());
    // Non-finite, negative and denormal steps: refused with Error, or (the denormal one) taken.
    for (t, h) in [(0.0, f64::NAN), (f64::INFINITY, 1e-3), (0.0, -1e-3), (0.0, f64::MIN_POSITIVE / 2.0)] {
        let fmu = stepping();
        match fmu.do_step(t, h).0 {
            Status::Ok => assert_eq!(outputs_finite_or_discarded(&fmu, "a denormal step"), Status::Ok),
            Status::Error => assert!(fmu.last_message().contains("communicationStepSize"), "{}", fmu.last_message()),
            other => panic!("t = {t}, h = {h}: {other:?}"),
        }
    }
}

#[test]
fn a_null_logger_survives_every_error_path_in_fmi3() {
    let fmu = Fmu::with_logger(false);
    // An unknown log category, an illegal call, a NaN input, a discarded get and step, Reset,
    // a refused parameter: statuses as with a logger, nothing to log through.
    let unknown = CString::new("logEverything").unwrap();
    // SAFETY: one C string.
    assert_eq!(unsafe { fmi3SetDebugLogging(fmu.instance, true, 1, &unknown.as_ptr()) }, Status::Error);
    assert_eq!(fmu.reset(), Status::Ok);
    assert_eq!(fmu.do_step(0.0, 1e-3).0, Status::Error);
    assert_eq!(fmu.reset(), Status::Ok);
    assert_eq!(fmu.initialize(), Status::Ok);
    base_inputs(&fmu);
    // 1e300 m deep: a force beyond the largest double (the outputs are discarded).
    assert_eq!(fmu.set_float("frame_b.r_0[3]", -1e300), Status::Ok);
    assert_eq!(fmu.try_outputs().0, Status::Discard);
    assert_eq!(fmu.do_step(0.0, 1e-3), (Status::Discard, 0.0));
    assert_eq!(fmu.set_float("frame_b.v_0[3]", f64::NAN), Status::Error);
    assert_eq!(fmu.reset(), Status::Ok);
    set_all(&fmu, &[("geometry_a.shape", 9.0), ("geometry_b.shape", 9.0)]);
    assert_eq!(fmu.initialize(), Status::Error);
    assert!(fmu.messages().is_empty());
    // A wrong token with a null logger: no instance, no crash.
    let name = CString::new("x").unwrap();
    let token = CString::new("{not-the-token}").unwrap();
    // SAFETY: valid strings and no callbacks.
    let instance =
        unsafe { fmi3InstantiateCoSimulation(name.as_ptr(), token.as_ptr(), null(), false, true, false, false, null(), 0, null_mut(), None, None) };
    assert!(instance.is_null());
}

unsafe extern "C" fn count_fmi2(env: *mut c_void, _: *const c_char, _: c_int, _: *const c_char, _: *const c_char) {
    // SAFETY: `env` is the counter the test passed.
    unsafe { *env.cast::<usize>() += 1 };
}

#[test]
fn a_null_logger_survives_every_error_path_in_fmi2() {
    let name = CString::new("quiet").unwrap();
    let guid = CString::new(variables::instantiation_token()).unwrap();
    let functions =
        Fmi2CallbackFunctions { logger: None, allocate_memory: None, free_memory: None, step_finished: None, component_environment: null_mut() };
    let set = |c: Fmi2Component, name: &str, value: f64| {
        // SAFETY: a live instance, one value.
        unsafe { fmi2SetReal(c, &vr(name), 1, &value) }
    };
    // SAFETY: valid strings; callbacks without a logger.
    unsafe {
        let c = fmi2Instantiate(name.as_ptr(), FMI2_CO_SIMULATION, guid.as_ptr(), null(), &functions, 0, 1);
        assert!(!c.is_null());
        let unknown = CString::new("logEverything").unwrap();
        assert_eq!(fmi2SetDebugLogging(c, 1, 1, &unknown.as_ptr()), Status::Error);
        assert_eq!(fmi2Reset(c), Status::Ok);
        assert_eq!(fmi2DoStep(c, 0.0, 1e-3, 0), Status::Error);
        assert_eq!(fmi2Reset(c), Status::Ok);
        assert_eq!(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), Status::Ok);
        assert_eq!(fmi2EnterInitializationMode(c), Status::Ok);
        assert_eq!(fmi2ExitInitializationMode(c), Status::Ok);
        assert_eq!(set(c, "frame_b.r_0[3]", 0.099), Status::Ok);
        // The damping force b v = 1e3 * 1e308 N overflows.
        assert_eq!(set(c, "frame_b.v_0[3]", -1e308), Status::Ok);
        let mut x = 0.0;
        assert_eq!(fmi2GetReal(c, &vr("contact.normal_force"), 1, &mut x), Status::Discard);
        assert_eq!(fmi2DoStep(c, 0.0, 1e-3, 0), Status::Discard);
        let mut last = f64::NAN;
        assert_eq!(fmi2GetRealStatus(c, FMI2_LAST_SUCCESSFUL_TIME, &mut last), Status::Ok);
        assert_eq!(last, 0.0);
        assert_eq!(set(c, "frame_b.v_0[3]", f64::NAN), Status::Error);
        assert_eq!(fmi2Reset(c), Status::Ok);
        assert_eq!(fmi2SetInteger(c, &vr("geometry_b.shape"), 1, &9), Status::Ok);
        assert_eq!(fmi2EnterInitializationMode(c), Status::Ok);
        assert_eq!(fmi2ExitInitializationMode(c), Status::Error);
        fmi2FreeInstance(c);
        // A wrong GUID with a null logger: no instance, no crash.
        let wrong = CString::new("{not-the-guid}").unwrap();
        assert!(fmi2Instantiate(name.as_ptr(), FMI2_CO_SIMULATION, wrong.as_ptr(), null(), &functions, 0, 1).is_null());
    }
    // The same paths with a logger do log: the null logger is what kept them quiet.
    let mut count = 0usize;
    type Fixed = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);
    // SAFETY: see tests/fmi2_c_api.rs: on x86-64 System V a function taking the fixed arguments
    // may be called through the variadic logger type.
    let logger = unsafe { std::mem::transmute::<Fixed, contact_force::fmi::logger::Fmi2LoggerCallback>(count_fmi2) };
    let functions = Fmi2CallbackFunctions {
        logger: Some(logger),
        allocate_memory: None,
        free_memory: None,
        step_finished: None,
        component_environment: (&mut count as *mut usize).cast(),
    };
    // SAFETY: valid strings and callbacks that outlive the instance.
    unsafe {
        let c = fmi2Instantiate(name.as_ptr(), FMI2_CO_SIMULATION, guid.as_ptr(), null(), &functions, 0, 1);
        assert_eq!(fmi2DoStep(c, 0.0, 1e-3, 0), Status::Error);
        fmi2FreeInstance(c);
    }
    assert!(count > 0);
}

#[test]
fn set_debug_logging_refuses_unknown_empty_and_null_categories_by_name() {
    let fmu = Fmu::new();
    let names = [CString::new("logEvents").unwrap(), CString::new("").unwrap(), CString::new("LOGEVENTS").unwrap()];
    for unknown in &names[1..] {
        let categories = [names[0].as_ptr(), unknown.as_ptr()];
        // SAFETY: two C strings.
        assert_eq!(unsafe { fmi3SetDebugLogging(fmu.instance, true, 2, categories.as_ptr()) }, Status::Error);
        let expected = format!("unknown log category \"{}\"", unknown.to_str().unwrap());
        assert!(fmu.last_message().contains(&expected), "{}", fmu.last_message());
        assert_eq!(fmu.reset(), Status::Ok);
    }
    // A null category pointer is refused, not read.
    let categories = [null::<c_char>()];
    // SAFETY: the null entry is what is tested; the FMU checks it.
    assert_eq!(unsafe { fmi3SetDebugLogging(fmu.instance, true, 1, categories.as_ptr()) }, Status::Error);
    assert!(fmu.last_message().contains("categories[0] is a null pointer"), "{}", fmu.last_message());
}

/// Model Exchange has no DoStep: there the first completed integrator step (`step_event`) ends
/// the zero-force answer to an all-zero quaternion, and until then the slots report no point.
#[test]
fn in_model_exchange_an_all_zero_quaternion_is_unconnected_until_the_first_completed_step() {
    use contact_force::model::{Model, EMPTY_SLOT_SEPARATION};
    let mut model = Model::default();
    model.inputs.frame_b.r_0 = [0.0, 0.0, 0.099];
    model.inputs.frame_b.q = [0.0; 4];
    model.inputs_changed();
    model.initialize().unwrap();
    assert_eq!(model.update_outputs().unwrap().normal_force, 0.0);
    let locals = model.update_locals().unwrap();
    assert!(locals.separation.iter().all(|s| *s == EMPTY_SLOT_SEPARATION), "{:?}", locals.separation);
    assert!(locals.deflection_rate.iter().flatten().all(|r| *r == 0.0));
    assert!(!model.update_discrete_states().unwrap());
    let warnings: Vec<String> = model.take_warnings().collect();
    assert_eq!(warnings.iter().filter(|w| w.contains("frame_b.q = [0, 0, 0, 0]")).count(), 1, "{warnings:?}");
    // The importer sets the pose: the contact answers at once (1 mm deep: a force).
    model.inputs.frame_b.q = [1.0, 0.0, 0.0, 0.0];
    model.inputs_changed();
    assert!(model.update_outputs().unwrap().normal_force > 0.0);
    assert!(model.update_locals().unwrap().separation[0] < 0.0);
    // The first completed integrator step; from then on a zero quaternion is an error.
    model.step_event().unwrap();
    model.inputs.frame_b.q = [0.0; 4];
    model.inputs_changed();
    let error = model.update_outputs().unwrap_err().to_string();
    assert!(error.contains("frame_b.q") && error.contains("is zero"), "{error}");
    // A completed step taken while the quaternion is still zero is an error too.
    let mut model = Model::default();
    model.inputs.frame_b.q = [0.0; 4];
    model.initialize().unwrap();
    assert_eq!(model.update_outputs().unwrap().normal_force, 0.0);
    assert!(model.step_event().unwrap_err().to_string().contains("frame_b.q"));
}
