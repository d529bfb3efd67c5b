//! FMI 3.0 co-simulation early return at contact onset and the co-simulation Event Mode, through
//! the exported C API as an importer calls it.

mod support;

use std::ptr::null_mut;

use contact_force::fmi::fmi3::*;
use contact_force::fmi::status::Status;
use support::fmi3::{vrs, Fmu};

/// The default pair: plane A at the origin, sphere B of radius 0.1 m.
const RADIUS: f64 = 0.1;

/// A ContactForce instance with the given flags, initialised at t = 0 (in Step Mode, or in Event
/// Mode with `event_mode_used`).
fn initialized(event_mode_used: bool, early_return_allowed: bool) -> Fmu {
    let fmu = Fmu::with_flags(true, event_mode_used, early_return_allowed);
    assert_eq!(fmu.initialize(), Status::Ok, "{:?}", fmu.messages());
    fmu
}

/// Sphere centre at `z`, moving with (v_x, 0, v_z).
fn place_sphere(fmu: &Fmu, z: f64, v_x: f64, v_z: f64) {
    assert_eq!(fmu.set_floats(&vrs("frame_b.r_0", 3), &[0.0, 0.0, z]), Status::Ok);
    assert_eq!(fmu.set_floats(&vrs("frame_b.v_0", 3), &[v_x, 0.0, v_z]), Status::Ok);
}

fn update_discrete_states(fmu: &Fmu) -> (Status, [bool; 5]) {
    let mut flags = [true; 5];
    let mut next = f64::NAN;
    let [a, b, c, d, e] = &mut flags;
    // SAFETY: a live instance and six writable outputs.
    let status = unsafe { fmi3UpdateDiscreteStates(fmu.instance, a, b, c, d, e, &mut next) };
    (status, flags)
}

fn enter_event_mode(fmu: &Fmu) -> Status {
    // SAFETY: a live instance.
    unsafe { fmi3EnterEventMode(fmu.instance) }
}

fn enter_step_mode(fmu: &Fmu) -> Status {
    // SAFETY: a live instance.
    unsafe { fmi3EnterStepMode(fmu.instance) }
}

fn serialized(fmu: &Fmu) -> Vec<u8> {
    let mut state = null_mut();
    let mut size = 0;
    // SAFETY: a live instance; the state is freed below; the buffer has the size asked for.
    unsafe {
        assert_eq!(fmi3GetFMUState(fmu.instance, &mut state), Status::Ok);
        assert_eq!(fmi3SerializedFMUStateSize(fmu.instance, state, &mut size), Status::Ok);
        let mut bytes = vec![0u8; size];
        assert_eq!(fmi3SerializeFMUState(fmu.instance, state, bytes.as_mut_ptr(), size), Status::Ok);
        assert_eq!(fmi3FreeFMUState(fmu.instance, &mut state), Status::Ok);
        bytes
    }
}

#[test]
fn a_falling_sphere_returns_early_at_the_closed_form_onset() {
    let fmu = initialized(false, true);
    // Gap 0.5 mm closing at 1 m/s: onset at 0.5 ms into the 1 ms step.
    place_sphere(&fmu, RADIUS + 5e-4, 0.3, -1.0);
    let (status, [event, terminate, early], last) = fmu.do_step_flags(0.0, 1e-3);
    assert_eq!(status, Status::Ok, "{:?}", fmu.messages());
    assert!(early && !event && !terminate);
    assert!((last - 5e-4).abs() <= 1e-12 * 5e-4, "lastSuccessfulTime {last}");
    assert_eq!(fmu.get_float("time"), last);
    // The next step starts where the FMU stopped; the bodies (at the inputs' poses) are apart by
    // the same gap, so it returns early again at the same offset.
    let (status, [_, _, early], second) = fmu.do_step_flags(last, 1e-3);
    assert_eq!(status, Status::Ok);
    assert!(early && (second - 2.0 * last).abs() <= 1e-12 * second, "{second}");
    // Moved to the touching pose, the next step is taken whole.
    place_sphere(&fmu, RADIUS, 0.3, -1.0);
    let (status, [_, _, early], third) = fmu.do_step_flags(second, 1e-3);
    assert_eq!((status, early), (Status::Ok, false));
    assert_eq!(third, second + 1e-3);
}

#[test]
fn without_early_return_allowed_the_step_is_taken_whole() {
    let fmu = initialized(false, false);
    place_sphere(&fmu, RADIUS + 5e-4, 0.0, -1.0);
    let (status, flags, last) = fmu.do_step_flags(0.0, 1e-3);
    assert_eq!((status, flags, last), (Status::Ok, [false; 3], 1e-3));
}

#[test]
fn no_early_return_when_the_bodies_stay_apart_touch_already_or_separate() {
    let fmu = initialized(false, true);
    let mut t = 0.0;
    for (z, v_z) in [(RADIUS + 2e-3, -1.0), (RADIUS - 1e-4, -1.0), (RADIUS + 1e-4, 1.0), (RADIUS + 1e-4, 0.0)] {
        place_sphere(&fmu, z, 0.0, v_z);
        let (status, flags, last) = fmu.do_step_flags(t, 1e-3);
        assert_eq!((status, flags), (Status::Ok, [false; 3]), "z = {z}, v = {v_z}");
        assert_eq!(last, t + 1e-3);
        t = last;
    }
    // An onset within a millionth of the step of its start is the contact itself.
    place_sphere(&fmu, RADIUS + 1e-10, 0.0, -1.0);
    assert_eq!(fmu.do_step_flags(t, 1e-3).1, [false; 3]);
}

#[test]
fn a_spinning_box_returns_early_when_its_corner_reaches_the_plane() {
    let fmu = Fmu::with_flags(true, false, true);
    let (hy, hz, theta0, w, z0, speed) = (0.2, 0.1, 0.2f64, 6.0, 0.14, 0.5);
    assert_eq!(fmu.set_enum("geometry_b.shape", 3), Status::Ok);
    assert_eq!(fmu.set_floats(&vrs("geometry_b.size", 3), &[0.6, 2.0 * hy, 2.0 * hz]), Status::Ok);
    assert_eq!(fmu.initialize(), Status::Ok, "{:?}", fmu.messages());
    assert_eq!(fmu.set_floats(&vrs("frame_b.q", 4), &[(theta0 / 2.0).cos(), (theta0 / 2.0).sin(), 0.0, 0.0]), Status::Ok);
    assert_eq!(fmu.set_floats(&vrs("frame_b.w_0", 3), &[w, 0.0, 0.0]), Status::Ok);
    place_sphere(&fmu, z0, 0.0, -speed);
    // Lowest corner: hy |sin theta| + hz |cos theta| below the centre; its first root by bisection.
    let separation = |t: f64| z0 - speed * t - (hy * (theta0 + w * t).sin().abs() + hz * (theta0 + w * t).cos().abs());
    let h = 0.01;
    assert!(separation(0.0) > 0.0 && separation(h) < 0.0);
    let (mut lo, mut hi) = (0.0, h);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if separation(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let (status, [_, _, early], last) = fmu.do_step_flags(0.0, h);
    assert_eq!(status, Status::Ok, "{:?}", fmu.messages());
    assert!(early);
    assert!((last - hi).abs() <= 1e-12 * hi, "{last} vs {hi}");
}

#[test]
fn the_stateful_law_state_after_an_early_return_is_that_of_the_shortened_step() {
    // Restitution with ElasticCone friction: both keep a state per point.
    let make = |early: bool| {
        let fmu = Fmu::with_flags(true, false, early);
        assert_eq!(fmu.set_enum("normal.law", 7), Status::Ok);
        assert_eq!(fmu.set_enum("friction.law", 6), Status::Ok);
        assert_eq!(fmu.initialize(), Status::Ok, "{:?}", fmu.messages());
        fmu
    };
    let (early, plain) = (make(true), make(false));
    let mut t = 0.0;
    // In contact and sliding (both states change), then apart and approaching again.
    for (z, v_z, v_x) in [(RADIUS - 1e-4, -0.2, 0.05), (RADIUS + 3e-4, -1.0, 0.05)] {
        place_sphere(&early, z, v_x, v_z);
        place_sphere(&plain, z, v_x, v_z);
        let (status, _, last) = early.do_step_flags(t, 1e-3);
        assert_eq!(status, Status::Ok);
        // The plain instance steps exactly to where the early one stopped.
        assert_eq!(plain.do_step_flags(t, last - t).0, Status::Ok);
        assert_eq!(serialized(&early), serialized(&plain));
        t = last;
    }
    assert!((t - 1e-3 - 3e-4).abs() <= 1e-15, "the second step returned early at {t}");
}

#[test]
fn event_mode_follows_the_co_simulation_state_machine() {
    let fmu = initialized(true, true);
    // Initialisation ends in Event Mode: no DoStep there.
    assert_eq!(fmu.do_step_flags(0.0, 1e-3).0, Status::Error);
    assert!(fmu.last_message().contains("Illegal call sequence"), "{}", fmu.last_message());
    // Inputs can be set and outputs read in Event Mode.
    place_sphere(&fmu, RADIUS + 2e-4, 0.0, -0.5);
    assert!((fmu.get_float("contact.separation") - 2e-4).abs() < 1e-15);
    assert_eq!(update_discrete_states(&fmu), (Status::Ok, [false; 5]));
    assert_eq!(enter_step_mode(&fmu), Status::Ok);
    assert_eq!(enter_step_mode(&fmu), Status::Error, "only from Event Mode");
    assert_eq!(update_discrete_states(&fmu).0, Status::Error, "only in Event Mode");
    // The onset asks for event handling.
    let (status, [event, terminate, early], last) = fmu.do_step_flags(0.0, 1e-3);
    assert_eq!(status, Status::Ok, "{:?}", fmu.messages());
    assert!(event && early && !terminate);
    assert!((last - 4e-4).abs() <= 1e-12 * 4e-4);
    assert_eq!(enter_event_mode(&fmu), Status::Ok);
    assert_eq!(fmu.do_step_flags(last, 1e-3).0, Status::Error, "no DoStep in Event Mode");
    place_sphere(&fmu, RADIUS, 0.0, -0.5);
    assert_eq!(update_discrete_states(&fmu), (Status::Ok, [false; 5]));
    // A saved state remembers Event Mode.
    let saved = serialized(&fmu);
    assert_eq!(saved[0], 8, "the state byte of Event Mode: 1 + the position of its bit (128)");
    assert_eq!(enter_step_mode(&fmu), Status::Ok);
    let (status, flags, end) = fmu.do_step_flags(last, 1e-3);
    assert_eq!((status, flags, end), (Status::Ok, [false; 3], last + 1e-3));
    // Terminate is allowed from Event Mode too.
    assert_eq!(enter_event_mode(&fmu), Status::Ok);
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi3Terminate(fmu.instance) }, Status::Ok);
}

#[test]
fn event_mode_functions_without_event_mode_used_are_refused_and_keep_the_state() {
    let fmu = initialized(false, true);
    assert_eq!(enter_event_mode(&fmu), Status::Error);
    assert!(fmu.last_message().contains("eventModeUsed = false"), "{}", fmu.last_message());
    assert_eq!(update_discrete_states(&fmu).0, Status::Error);
    assert_eq!(enter_step_mode(&fmu), Status::Error);
    // Still in Step Mode, and an onset returns early without asking for event handling.
    place_sphere(&fmu, RADIUS + 2e-4, 0.0, -0.5);
    let (status, [event, _, early], _) = fmu.do_step_flags(0.0, 1e-3);
    assert_eq!(status, Status::Ok, "{:?}", fmu.messages());
    assert!(early && !event);
}

#[test]
fn null_outputs_of_update_discrete_states_are_errors_naming_them() {
    let fmu = initialized(true, true);
    let mut flag = false;
    let mut next = 0.0;
    // SAFETY: a live instance; the null pointer is checked before any write.
    let status = unsafe { fmi3UpdateDiscreteStates(fmu.instance, &mut flag, null_mut(), &mut flag, &mut flag, &mut flag, &mut next) };
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("terminateSimulation is a null pointer"), "{}", fmu.last_message());
}

#[test]
fn reset_keeps_the_instantiation_flags() {
    let fmu = initialized(true, true);
    assert_eq!(fmu.reset(), Status::Ok);
    assert_eq!(fmu.initialize(), Status::Ok);
    assert_eq!(update_discrete_states(&fmu).0, Status::Ok, "Event Mode again after initialisation");
    assert_eq!(enter_step_mode(&fmu), Status::Ok);
    place_sphere(&fmu, RADIUS + 2e-4, 0.0, -0.5);
    assert!(fmu.do_step_flags(0.0, 1e-3).1[2], "early return still allowed");
}
