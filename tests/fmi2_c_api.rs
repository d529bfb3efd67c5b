//! The FMI 2.0 C API called the way an importer calls it: call sequences, null and bad arguments,
//! NaN inputs, FMU state, Reset, logging through the importer's callback and environment.

mod support;

use std::ffi::{c_char, c_int, CStr, CString};

use contact_force::fmi::fmi2::*;
use contact_force::fmi::status::Status;
use contact_force::variables;
use support::fmi2::{logger, vr, Fmu, Log};

#[test]
fn version_and_platform() {
    // SAFETY: static strings.
    unsafe {
        assert_eq!(CStr::from_ptr(fmi2GetVersion()).to_str().unwrap(), "2.0");
        assert_eq!(CStr::from_ptr(fmi2GetTypesPlatform()).to_str().unwrap(), "default");
    }
}

#[test]
fn a_step_gives_the_closed_form_force() {
    let fmu = Fmu::new();
    fmu.initialize();
    fmu.press_sphere();
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi2DoStep(fmu.c, 0.0, 1e-3, 1) }, Status::Ok);
    // Defaults: LinearSpringDamper k = 1e6 N/m, b = 1e3 N.s/m; Tanh mu = 0.3, gain 1e3 s/m.
    let (depth, rate) = (1e-3, 0.5);
    let f_n = 1e6 * depth + 1e3 * rate;
    let f_t = -0.3 * (1e3 * 0.2_f64).tanh() * f_n;
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
    assert!(close(fmu.get("frame_b.f_0[3]"), f_n), "{}", fmu.get("frame_b.f_0[3]"));
    assert!(close(fmu.get("frame_b.f_0[1]"), f_t));
    assert!(close(fmu.get("frame_a.f_0[1]"), -f_t));
    assert!(close(fmu.get("frame_a.f_0[3]"), -f_n));
    assert!(close(fmu.get("contact.normal_force"), f_n));
    assert!(close(fmu.get("contact.separation"), -depth));
    assert!(close(fmu.get("contact.slip_speed"), 0.2));
    // Force acts at the midpoint of the witnesses, depth/2 below the plane, at x = 0.3.
    assert!(close(fmu.get("contact.p_0[3]"), -depth / 2.0));
    // Torque on B about its centre: (C - r_B) x F with C - r_B = (0, 0, -0.1).
    let arm_z = -depth / 2.0 - 0.099;
    assert!(close(fmu.get("frame_b.t_0[2]"), arm_z * f_t));
    // Torque on A about the world origin: (C - 0) x (-F).
    assert!(close(fmu.get("frame_a.t_0[2]"), -(arm_z + 0.099) * f_t - 0.3 * -f_n));
    let mut active = 0;
    let mut points = 0;
    // SAFETY: a live instance.
    unsafe {
        assert_eq!(fmi2GetBoolean(fmu.c, &vr("contact.active"), 1, &mut active), Status::Ok);
        assert_eq!(fmi2GetInteger(fmu.c, &vr("contact.points"), 1, &mut points), Status::Ok);
    }
    assert_eq!((active, points), (FMI2_TRUE, 1));
    let mut time = 0.0;
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi2GetRealStatus(fmu.c, FMI2_LAST_SUCCESSFUL_TIME, &mut time) }, Status::Ok);
    assert_eq!(time, 1e-3);
}

#[test]
fn illegal_call_sequences_are_errors_with_a_message() {
    let fmu = Fmu::new();
    // SAFETY: a live instance.
    unsafe {
        assert_eq!(fmi2DoStep(fmu.c, 0.0, 1e-3, 1), Status::Error);
        assert!(fmu.logged("fmi2DoStep: Illegal call sequence"));
        assert_eq!(fmi2ExitInitializationMode(fmu.c), Status::Error);
        let mut x = 0.0;
        assert_eq!(fmi2GetReal(fmu.c, &vr("frame_a.f_0[1]"), 1, &mut x), Status::Error);
    }
    fmu.initialize();
    // A fixed parameter after initialisation.
    assert_eq!(fmu.set("normal.stiffness", 5.0), Status::Error);
    assert!(fmu.logged("normal.stiffness cannot be set"));
}

#[test]
fn null_arguments_and_unknown_references_are_errors() {
    // SAFETY: null instances and null arrays are what is being tested; the FMU must check them.
    unsafe {
        assert_eq!(fmi2DoStep(std::ptr::null_mut(), 0.0, 1.0, 1), Status::Error);
        assert_eq!(fmi2SetReal(std::ptr::null_mut(), std::ptr::null(), 0, std::ptr::null()), Status::Error);
        fmi2FreeInstance(std::ptr::null_mut());
        assert!(fmi2Instantiate(std::ptr::null(), FMI2_CO_SIMULATION, std::ptr::null(), std::ptr::null(), std::ptr::null(), 0, 0).is_null());
    }
    let fmu = Fmu::new();
    fmu.initialize();
    // SAFETY: a live instance; the null arrays are what is being tested.
    unsafe {
        let mut x = 0.0;
        assert_eq!(fmi2GetReal(fmu.c, std::ptr::null(), 1, &mut x), Status::Error);
        assert!(fmu.logged("vr is a null pointer"));
    }
    let fmu = Fmu::new();
    fmu.initialize();
    // SAFETY: a live instance.
    unsafe {
        let mut x = 0.0;
        assert_eq!(fmi2GetReal(fmu.c, &99_999, 1, &mut x), Status::Error);
        assert!(fmu.logged("unknown value reference 99999"));
        // Type mismatch: a Boolean read as Real.
        let fmu2 = Fmu::new();
        fmu2.initialize();
        assert_eq!(fmi2GetReal(fmu2.c, &vr("contact.active"), 1, &mut x), Status::Error);
        assert!(fmu2.logged("contact.active is of type Boolean"));
    }
}

#[test]
fn a_nan_input_is_refused_naming_the_variable_and_keeps_the_old_value() {
    let fmu = Fmu::new();
    fmu.initialize();
    assert_eq!(fmu.set("frame_b.r_0[3]", 0.5), Status::Ok);
    assert_eq!(fmu.set("frame_b.r_0[3]", f64::NAN), Status::Error);
    assert!(fmu.logged("frame_b.r_0[3] = NaN"), "{:?}", fmu.messages());
    // The instance is in the Error state; its values can still be read and are unchanged.
    assert_eq!(fmu.get("frame_b.r_0[3]"), 0.5);
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi2DoStep(fmu.c, 0.0, 1e-3, 1) }, Status::Error);
}

#[test]
fn a_zero_quaternion_is_an_error_naming_it() {
    let fmu = Fmu::new();
    fmu.initialize();
    for i in 1..=4 {
        assert_eq!(fmu.set(&format!("frame_a.q[{i}]"), 0.0), Status::Ok);
    }
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi2DoStep(fmu.c, 0.0, 1e-3, 1) }, Status::Error);
    assert!(fmu.logged("frame_a.q"), "{:?}", fmu.messages());
}

#[test]
fn unnormalised_quaternions_warn_once_and_are_normalised() {
    let fmu = Fmu::new();
    fmu.initialize();
    fmu.press_sphere();
    let reference = fmu.get("frame_b.f_0[3]");
    for (i, q) in [2.0, 0.0, 0.0, 0.0].iter().enumerate() {
        assert_eq!(fmu.set(&format!("frame_b.q[{}]", i + 1), *q), Status::Ok);
    }
    assert_eq!(fmu.get("frame_b.f_0[3]"), reference);
    let _ = fmu.get("frame_b.f_0[3]");
    let warnings = fmu.messages().iter().filter(|m| m.contains("frame_b.q") && m.contains("normalised")).count();
    assert_eq!(warnings, 1);
}

#[test]
fn do_step_checks_the_communication_point_and_the_step_size() {
    let fmu = Fmu::new();
    fmu.initialize();
    // SAFETY: a live instance.
    unsafe {
        assert_eq!(fmi2DoStep(fmu.c, 0.0, 1e-3, 1), Status::Ok);
        // Variable step sizes are fine.
        assert_eq!(fmi2DoStep(fmu.c, 1e-3, 5e-3, 1), Status::Ok);
        assert_eq!(fmi2DoStep(fmu.c, 6e-3, 0.0, 1), Status::Error);
        assert!(fmu.logged("communicationStepSize = 0 must be > 0"));
    }
    let fmu = Fmu::new();
    fmu.initialize();
    // SAFETY: a live instance.
    unsafe {
        assert_eq!(fmi2DoStep(fmu.c, 0.5, 1e-3, 1), Status::Error);
        assert!(fmu.logged("does not match the FMU's time"));
    }
}

#[test]
fn invalid_parameters_are_refused_when_initialisation_ends() {
    let cases: [(&str, f64, &str); 4] = [
        ("geometry_b.radius", -0.1, "geometry_b.radius = -0.1: must be >= 0"),
        ("geometry_b.radius", 0.0, "geometry_b.radius = 0: a Sphere needs radius > 0"),
        ("geometry_b.shape", 9.0, "geometry pair Plane (A) - Plane (B) is not supported: two infinite planes"),
        ("normal.stiffness", -1.0, "normal.stiffness = -1: must be >= 0"),
    ];
    for (name, value, message) in cases {
        let fmu = Fmu::new();
        // SAFETY: a live instance.
        unsafe {
            let status = if name == "geometry_b.shape" {
                fmi2SetInteger(fmu.c, &vr(name), 1, &(value as c_int))
            } else {
                fmu.set(name, value)
            };
            assert_eq!(status, Status::Ok);
            assert_eq!(fmi2EnterInitializationMode(fmu.c), Status::Ok);
            assert_eq!(fmi2ExitInitializationMode(fmu.c), Status::Error, "{name}");
        }
        assert!(fmu.logged(message), "{name}: {:?}", fmu.messages());
    }
}

#[test]
fn enumerations_refuse_values_that_are_not_items() {
    let fmu = Fmu::new();
    // SAFETY: a live instance.
    unsafe {
        assert_eq!(fmi2SetInteger(fmu.c, &vr("geometry_b.shape"), 1, &99), Status::Error);
        assert!(fmu.logged("geometry_b.shape = 99: not an item of enumeration Shape"));
    }
}

#[test]
fn fmu_state_round_trip_and_serialization() {
    let fmu = Fmu::new();
    fmu.initialize();
    fmu.press_sphere();
    // SAFETY: a live instance; states are freed below.
    unsafe {
        assert_eq!(fmi2DoStep(fmu.c, 0.0, 1e-3, 0), Status::Ok);
        let mut state: Fmi2FmuState = std::ptr::null_mut();
        assert_eq!(fmi2GetFMUstate(fmu.c, &mut state), Status::Ok);
        let saved_force = fmu.get("frame_b.f_0[3]");
        assert_eq!(fmu.set("frame_b.r_0[3]", 0.0995), Status::Ok);
        assert_eq!(fmi2DoStep(fmu.c, 1e-3, 1e-3, 0), Status::Ok);
        assert_ne!(fmu.get("frame_b.f_0[3]"), saved_force);
        assert_eq!(fmi2SetFMUstate(fmu.c, state), Status::Ok);
        assert_eq!(fmu.get("frame_b.f_0[3]"), saved_force);
        // Time is part of the state: the next step starts where the saved one ended.
        assert_eq!(fmi2DoStep(fmu.c, 1e-3, 1e-3, 0), Status::Ok);

        let mut size = 0;
        assert_eq!(fmi2SerializedFMUstateSize(fmu.c, state, &mut size), Status::Ok);
        let mut bytes = vec![0 as c_char; size];
        assert_eq!(fmi2SerializeFMUstate(fmu.c, state, bytes.as_mut_ptr(), size), Status::Ok);
        let mut copy: Fmi2FmuState = std::ptr::null_mut();
        assert_eq!(fmi2DeSerializeFMUstate(fmu.c, bytes.as_ptr(), size, &mut copy), Status::Ok);
        assert_eq!(fmu.set("frame_b.r_0[3]", 0.0), Status::Ok);
        assert_eq!(fmi2SetFMUstate(fmu.c, copy), Status::Ok);
        assert_eq!(fmu.get("frame_b.f_0[3]"), saved_force);

        let garbage = vec![7 as c_char; size];
        let mut bad: Fmi2FmuState = std::ptr::null_mut();
        assert_eq!(fmi2DeSerializeFMUstate(fmu.c, garbage.as_ptr(), size, &mut bad), Status::Error);
        assert!(bad.is_null());
        assert!(fmu.logged("not a serialized ContactForce FMU state"));

        assert_eq!(fmi2FreeFMUstate(fmu.c, &mut state), Status::Ok);
        assert!(state.is_null());
        assert_eq!(fmi2FreeFMUstate(fmu.c, &mut copy), Status::Ok);
    }
}

#[test]
fn fmu_states_of_another_instance_or_already_freed_are_refused_not_used() {
    let (one, two) = (Fmu::new(), Fmu::new());
    one.initialize();
    two.initialize();
    // SAFETY: live instances; every state passed is either live or refused before any use.
    unsafe {
        let mut state: Fmi2FmuState = std::ptr::null_mut();
        assert_eq!(fmi2GetFMUstate(one.c, &mut state), Status::Ok);
        // Another instance's state is not this instance's to restore, serialize or free.
        assert_eq!(fmi2SetFMUstate(two.c, state), Status::Error);
        assert!(two.logged("is not a live FMU state of this instance"));
        let mut size = 0;
        assert_eq!(fmi2SerializedFMUstateSize(two.c, state, &mut size), Status::Error);
        let mut foreign = state;
        assert_eq!(fmi2FreeFMUstate(two.c, &mut foreign), Status::Error);
        // Nor may it be passed to GetFMUstate to be overwritten.
        assert_eq!(fmi2GetFMUstate(two.c, &mut foreign), Status::Error);
        // Freed once, it is gone: a second free or a restore is refused, not undefined behaviour.
        let stale = state;
        assert_eq!(fmi2FreeFMUstate(one.c, &mut state), Status::Ok);
        assert!(state.is_null());
        let one = Fmu::new();
        one.initialize();
        assert_eq!(fmi2SetFMUstate(one.c, stale), Status::Error);
    }
}

#[test]
fn reset_equals_a_fresh_instance() {
    let run = |fmu: &Fmu| {
        fmu.initialize();
        fmu.press_sphere();
        // SAFETY: a live instance.
        assert_eq!(unsafe { fmi2DoStep(fmu.c, 0.0, 1e-3, 1) }, Status::Ok);
        (fmu.get("frame_b.f_0[1]"), fmu.get("frame_b.f_0[3]"), fmu.get("frame_b.t_0[2]"))
    };
    let fresh = Fmu::new();
    let expected = run(&fresh);
    let reused = Fmu::new();
    assert_eq!(reused.set("normal.stiffness", 123.0), Status::Ok);
    let _ = run(&reused);
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi2Reset(reused.c) }, Status::Ok);
    assert_eq!(run(&reused), expected);
}

#[test]
fn two_instances_are_independent() {
    let soft = Fmu::new();
    let stiff = Fmu::new();
    assert_eq!(stiff.set("normal.stiffness", 2e6), Status::Ok);
    soft.initialize();
    stiff.initialize();
    soft.press_sphere();
    stiff.press_sphere();
    // The depth 0.1 - 0.099 is 1e-3 up to rounding.
    assert!((soft.get("contact.normal_force") - (1e6 * 1e-3 + 1e3 * 0.5)).abs() < 1e-9);
    assert!((stiff.get("contact.normal_force") - (2e6 * 1e-3 + 1e3 * 0.5)).abs() < 1e-9);
}

#[test]
fn a_wrong_guid_or_fmu_type_is_refused_with_a_message() {
    let fmu = Fmu::with_guid("{00000000-0000-0000-0000-000000000000}");
    assert!(fmu.c.is_null());
    assert!(fmu.logged("does not match"));
    let log: Box<Log> = Box::default();
    let functions = Fmi2CallbackFunctions {
        logger: Some(logger()),
        allocate_memory: None,
        free_memory: None,
        step_finished: None,
        component_environment: (&*log as *const Log).cast_mut().cast(),
    };
    let name = CString::new("me").unwrap();
    let guid = CString::new(variables::instantiation_token()).unwrap();
    // SAFETY: valid strings and callbacks.
    let c = unsafe { fmi2Instantiate(name.as_ptr(), 7, guid.as_ptr(), std::ptr::null(), &functions, 0, 0) };
    assert!(c.is_null());
    assert!(log.lock().unwrap().iter().any(|(_, _, m)| m.contains("fmuType = 7 is neither fmi2ModelExchange (0) nor fmi2CoSimulation (1)")));
    // Model Exchange is provided (tests/model_exchange_c_api.rs).
    // SAFETY: valid strings and callbacks.
    let c = unsafe { fmi2Instantiate(name.as_ptr(), FMI2_MODEL_EXCHANGE, guid.as_ptr(), std::ptr::null(), &functions, 0, 0) };
    assert!(!c.is_null());
    // SAFETY: made above, freed once.
    unsafe { fmi2FreeInstance(c) };
}

#[test]
fn debug_logging_categories_are_honoured_and_unknown_ones_refused() {
    let fmu = Fmu::new();
    let unknown = CString::new("logEverything").unwrap();
    let warnings = CString::new("logStatusWarning").unwrap();
    // SAFETY: a live instance and valid strings.
    unsafe {
        assert_eq!(fmi2SetDebugLogging(fmu.c, 1, 1, &unknown.as_ptr()), Status::Error);
        assert!(fmu.logged("unknown log category \"logEverything\""));
    }
    let fmu = Fmu::new();
    // SAFETY: a live instance and valid strings.
    unsafe {
        assert_eq!(fmi2SetDebugLogging(fmu.c, 0, 1, &warnings.as_ptr()), Status::Ok);
    }
    fmu.initialize();
    assert_eq!(fmu.set("frame_b.q[1]", 2.0), Status::Ok);
    let _ = fmu.get("frame_b.f_0[3]");
    assert!(!fmu.logged("normalised"), "warnings were switched off");
    // Errors still come through their own category.
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi2DoStep(fmu.c, 3.0, 1e-3, 1) }, Status::Error);
    assert!(fmu.log.lock().unwrap().iter().any(|(s, c, _)| *s == Status::Error as c_int && c == "logStatusError"));
}

#[test]
fn model_exchange_functions_on_a_co_simulation_instance_answer_error_with_a_reason() {
    let fmu = Fmu::new();
    fmu.initialize();
    // SAFETY: a live instance.
    unsafe {
        assert_eq!(fmi2EnterEventMode(fmu.c), Status::Error);
        assert_eq!(fmi2GetDerivatives(fmu.c, std::ptr::null_mut(), 0), Status::Error);
        assert_eq!(fmi2CancelStep(fmu.c), Status::Error);
    }
    assert!(fmu.logged("fmi2EnterEventMode: not supported: the instance was instantiated for co-simulation"));
    // The instance is still usable: these calls did not change its state.
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi2DoStep(fmu.c, 0.0, 1e-3, 1) }, Status::Ok);
}

#[test]
fn strings_round_trip() {
    let fmu = Fmu::new();
    let text = CString::new("mesh with 100% \"quotes\".obj").unwrap();
    // SAFETY: a live instance and valid strings.
    unsafe {
        assert_eq!(fmi2SetString(fmu.c, &vr("geometry_a.file"), 1, &text.as_ptr()), Status::Ok);
        assert_eq!(fmi2EnterInitializationMode(fmu.c), Status::Ok);
        let mut out: Fmi2String = std::ptr::null();
        assert_eq!(fmi2GetString(fmu.c, &vr("geometry_a.file"), 1, &mut out), Status::Ok);
        assert_eq!(CStr::from_ptr(out), text.as_c_str());
        // A plane reads no file: initialisation warns (with the '%' intact) and goes on.
        assert_eq!(fmi2ExitInitializationMode(fmu.c), Status::Ok);
    }
    assert!(fmu.logged("100% \"quotes\""), "{:?}", fmu.messages());
}
