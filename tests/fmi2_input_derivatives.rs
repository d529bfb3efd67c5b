//! FMI 2.0 `canInterpolateInputs`: fmi2SetRealInputDerivatives through the exported C API. The
//! derivatives hold for the next DoStep, move the inputs (and the stateful laws' sub-steps) along
//! them, are refused with a message for anything but first derivatives of real inputs, and are part
//! of the FMU state.

mod support;

use std::ffi::c_char;

use contact_force::fmi::fmi2::*;
use contact_force::fmi::status::Status;
use support::fmi2::Fmu;

/// ElasticCone friction (stateful) with a sphere 1 mm into the plane, sliding along x.
fn sliding_sphere(max_step: f64) -> Fmu {
    let fmu = Fmu::new();
    assert_eq!(fmu.set_enum("friction.law", 6), Status::Ok);
    for (name, value) in [("friction.mu_static", 0.5), ("friction.mu_dynamic", 0.5), ("friction.stiffness", 1e5), ("friction.damping", 1.0), ("solver.max_step", max_step)] {
        assert_eq!(fmu.set(name, value), Status::Ok, "{name}");
    }
    fmu.initialize();
    set_motion(&fmu, 0.0, 0.1);
    fmu
}

/// The sphere (radius 0.1) at x = `x`, 1 mm deep, sliding at `v_x`.
fn set_motion(fmu: &Fmu, x: f64, v_x: f64) {
    for (name, value) in [("frame_b.r_0[1]", x), ("frame_b.r_0[3]", 0.099), ("frame_b.v_0[1]", v_x)] {
        assert_eq!(fmu.set(name, value), Status::Ok);
    }
}

#[test]
fn a_step_moves_the_inputs_along_their_derivatives_then_holds_them() {
    let fmu = sliding_sphere(1e-4);
    assert_eq!(fmu.set_derivatives(&["frame_b.r_0[1]", "frame_b.v_0[1]", "frame_a.w_0[3]"], &[1, 1, 1], &[0.1, 100.0, 2.0]), Status::Ok);
    assert_eq!(fmu.do_step(0.0, 1e-3), Status::Ok, "{:?}", fmu.messages());
    assert_eq!(fmu.get("frame_b.r_0[1]"), 0.1 * 1e-3);
    assert_eq!(fmu.get("frame_b.v_0[1]"), 0.1 + 100.0 * 1e-3);
    assert_eq!(fmu.get("frame_a.w_0[3]"), 2.0 * 1e-3);
    // Given for one step only: the next step holds the inputs.
    assert_eq!(fmu.do_step(1e-3, 1e-3), Status::Ok);
    assert_eq!(fmu.get("frame_b.v_0[1]"), 0.1 + 100.0 * 1e-3);
    assert_eq!(fmu.get("frame_b.r_0[1]"), 0.1 * 1e-3);
}

#[test]
fn the_stateful_law_sees_the_interpolated_inputs_like_a_fine_step_reference() {
    // The sphere accelerates along x at a = 100 m/s^2 over the 1 ms step: the cone's deflection
    // grows by v0 h + a h^2 / 2 = 1.5e-4 m instead of the held v0 h = 1e-4 m.
    let (h, max_step, v0, a) = (1e-3, 1e-4, 0.1, 100.0);
    let interpolated = sliding_sphere(max_step);
    assert_eq!(interpolated.set_derivatives(&["frame_b.r_0[1]", "frame_b.v_0[1]"], &[1, 1], &[v0, a]), Status::Ok);
    assert_eq!(interpolated.do_step(0.0, h), Status::Ok, "{:?}", interpolated.messages());

    // Reference: ten steps of solver.max_step, each with the inputs of its midpoint held.
    let reference = sliding_sphere(max_step);
    let x = |t: f64| v0 * t + 0.5 * a * t * t;
    for k in 0..10 {
        let mid = (k as f64 + 0.5) * max_step;
        set_motion(&reference, v0 * mid, v0 + a * mid);
        assert_eq!(reference.do_step(k as f64 * max_step, max_step), Status::Ok);
    }
    // Held inputs, for comparison.
    let held = sliding_sphere(max_step);
    assert_eq!(held.do_step(0.0, h), Status::Ok);

    // Read all three at the same end inputs (the interpolated instance's own: linear in x).
    let (x_end, v_end) = (interpolated.get("frame_b.r_0[1]"), interpolated.get("frame_b.v_0[1]"));
    assert!((x_end - v0 * h).abs() < 1e-18 && (v_end - (v0 + a * h)).abs() < 1e-15);
    assert!(x(h) > x_end, "the quadratic path is not what the linear interpolation follows");
    set_motion(&reference, x_end, v_end);
    set_motion(&held, x_end, v_end);
    let friction = |fmu: &Fmu| fmu.get("frame_b.f_0[1]");
    let (f_interpolated, f_reference, f_held) = (friction(&interpolated), friction(&reference), friction(&held));
    assert!(
        (f_interpolated - f_reference).abs() <= 1e-9 * f_reference.abs(),
        "interpolated {f_interpolated} vs reference {f_reference}"
    );
    // Closed form: the cone sticks, so u' = v_t and u = v0 h + a h^2 / 2 (the midpoint sub-steps
    // integrate the linear speed exactly); f_t = -sqrt(d) (Kt u + Dt v_t) at the end speed.
    let u = v0 * h + 0.5 * a * h * h;
    let closed_form = -(1e-3f64).sqrt() * (1e5 * u + 1.0 * v_end);
    assert!((f_interpolated - closed_form).abs() <= 1e-9 * closed_form.abs(), "{f_interpolated} vs closed form {closed_form}");
    // The held step misses a third of the deflection (the cone force is sqrt(d) (Kt u + Dt v_t)
    // with Dt small here, so the deflection u dominates).
    assert!((f_held - f_reference).abs() > 0.25 * f_reference.abs(), "held {f_held} vs reference {f_reference}");
}

#[test]
fn higher_orders_outputs_parameters_and_unknown_references_are_refused_by_name() {
    let cases: [(&[&str], &[i32], &str); 3] = [
        (&["frame_b.r_0[3]"], &[2], "derivative order 2 of frame_b.r_0[3] (vr 16) is not supported"),
        (&["frame_a.f_0[1]"], &[1], "frame_a.f_0[1] (vr 100) is not a real input"),
        (&["normal.stiffness"], &[1], "normal.stiffness"),
    ];
    for (names, orders, message) in cases {
        let fmu = sliding_sphere(1e-4);
        assert_eq!(fmu.set_derivatives(names, orders, &[1.0]), Status::Error);
        assert!(fmu.last_message().contains(message), "{}", fmu.last_message());
    }
    let fmu = sliding_sphere(1e-4);
    assert_eq!(fmu.set_derivatives(&["frame_b.v_0[1]"], &[0], &[1.0]), Status::Error);
    assert!(fmu.last_message().contains("order 0"), "{}", fmu.last_message());
    let fmu = sliding_sphere(1e-4);
    assert_eq!(fmu.set_derivatives(&["frame_b.v_0[1]"], &[1], &[f64::NAN]), Status::Error);
    assert!(fmu.last_message().contains("frame_b.v_0[1] (vr 21): the derivative NaN is not finite"), "{}", fmu.last_message());
    let fmu = sliding_sphere(1e-4);
    // SAFETY: a live instance and arrays of one element.
    let status = unsafe { fmi2SetRealInputDerivatives(fmu.c, &12345, 1, &1, &1.0) };
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("unknown value reference 12345"), "{}", fmu.last_message());
}

#[test]
fn input_derivatives_are_part_of_the_fmu_state_and_cleared_by_reset() {
    let fmu = sliding_sphere(1e-4);
    assert_eq!(fmu.set_derivatives(&["frame_b.v_0[1]"], &[1], &[100.0]), Status::Ok);
    // SAFETY: a live instance; states are freed below.
    unsafe {
        let mut state: Fmi2FmuState = std::ptr::null_mut();
        assert_eq!(fmi2GetFMUstate(fmu.c, &mut state), Status::Ok);
        let mut size = 0;
        assert_eq!(fmi2SerializedFMUstateSize(fmu.c, state, &mut size), Status::Ok);
        let mut bytes = vec![0 as c_char; size];
        assert_eq!(fmi2SerializeFMUstate(fmu.c, state, bytes.as_mut_ptr(), size), Status::Ok);

        assert_eq!(fmu.do_step(0.0, 1e-3), Status::Ok);
        let force = fmu.get("frame_b.f_0[1]");
        assert_eq!(fmu.get("frame_b.v_0[1]"), 0.1 + 0.1);

        // Restored, the derivative is there again: the same step gives the same numbers.
        assert_eq!(fmi2SetFMUstate(fmu.c, state), Status::Ok);
        assert_eq!(fmu.do_step(0.0, 1e-3), Status::Ok);
        assert_eq!((fmu.get("frame_b.f_0[1]"), fmu.get("frame_b.v_0[1]")), (force, 0.2));

        // The same through the serialized bytes.
        let mut copy: Fmi2FmuState = std::ptr::null_mut();
        assert_eq!(fmi2DeSerializeFMUstate(fmu.c, bytes.as_ptr(), size, &mut copy), Status::Ok);
        assert_eq!(fmi2SetFMUstate(fmu.c, copy), Status::Ok);
        assert_eq!(fmu.do_step(0.0, 1e-3), Status::Ok);
        assert_eq!((fmu.get("frame_b.f_0[1]"), fmu.get("frame_b.v_0[1]")), (force, 0.2));

        assert_eq!(fmi2FreeFMUstate(fmu.c, &mut state), Status::Ok);
        assert_eq!(fmi2FreeFMUstate(fmu.c, &mut copy), Status::Ok);

        // Reset forgets them: a fresh start holds the inputs.
        assert_eq!(fmi2Reset(fmu.c), Status::Ok);
    }
    assert_eq!(fmu.set_derivatives(&["frame_b.v_0[1]"], &[1], &[100.0]), Status::Ok, "settable when instantiated");
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi2Reset(fmu.c) }, Status::Ok);
    fmu.initialize();
    set_motion(&fmu, 0.0, 0.1);
    assert_eq!(fmu.do_step(0.0, 1e-3), Status::Ok);
    assert_eq!(fmu.get("frame_b.v_0[1]"), 0.1);
}
