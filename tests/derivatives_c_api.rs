//! Directional, adjoint and output derivatives through the FMI 3.0 C API against closed forms
//! (a sphere pressed into a plane under the linear spring-damper, the default laws with
//! friction off), and their errors: an output without derivatives, an input that is not a
//! known, a second order, a refused geometry pair, each named. FMI 2 and both versions through
//! FMPy are in tests/python/test_directional_derivatives.py.

use std::ptr::null_mut;

use contact_force::fmi::fmi3::*;
use contact_force::fmi::status::Status;
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::shape::ShapeKind;

mod support;
use support::fmi3::{vr, Fmu};

/// k and b of the default LinearSpringDamper, the default sphere's radius.
const K: f64 = 1e6;
const B: f64 = 1e3;
const RADIUS: f64 = 0.1;

/// A sphere 1 mm deep in the plane, approaching at 0.5 m/s and sliding sideways.
fn pressed() -> Fmu {
    let fmu = Fmu::new();
    assert_eq!(fmu.set_enum("friction.law", FrictionLawKind::None.value()), Status::Ok);
    assert_eq!(fmu.initialize(), Status::Ok);
    assert_eq!(fmu.set_float("frame_b.r_0[3]", RADIUS - 1e-3), Status::Ok);
    assert_eq!(fmu.set_float("frame_b.v_0[3]", -0.5), Status::Ok);
    assert_eq!(fmu.set_float("frame_b.v_0[1]", 0.2), Status::Ok);
    fmu
}

fn directional(fmu: &Fmu, unknowns: &[u32], knowns: &[u32], seed: &[f64]) -> (Status, Vec<f64>) {
    let mut out = vec![f64::NAN; unknowns.len()];
    // SAFETY: slices of the given lengths.
    let status = unsafe {
        fmi3GetDirectionalDerivative(fmu.instance, unknowns.as_ptr(), unknowns.len(), knowns.as_ptr(), knowns.len(), seed.as_ptr(), seed.len(), out.as_mut_ptr(), out.len())
    };
    (status, out)
}

fn adjoint(fmu: &Fmu, unknowns: &[u32], knowns: &[u32], seed: &[f64]) -> (Status, Vec<f64>) {
    let mut out = vec![f64::NAN; knowns.len()];
    // SAFETY: slices of the given lengths.
    let status = unsafe {
        fmi3GetAdjointDerivative(fmu.instance, unknowns.as_ptr(), unknowns.len(), knowns.as_ptr(), knowns.len(), seed.as_ptr(), seed.len(), out.as_mut_ptr(), out.len())
    };
    (status, out)
}

fn output_derivatives(fmu: &Fmu, vrs: &[u32], orders: &[i32]) -> (Status, Vec<f64>) {
    let mut out = vec![f64::NAN; vrs.len()];
    // SAFETY: slices of the given lengths.
    let status = unsafe { fmi3GetOutputDerivatives(fmu.instance, vrs.as_ptr(), vrs.len(), orders.as_ptr(), out.as_mut_ptr(), out.len()) };
    (status, out)
}

#[test]
fn directional_and_adjoint_derivatives_are_the_closed_form() {
    let fmu = pressed();
    // f_z = k (r - z) + b (-v_z) on B: df_z/dz = -k, df_z/dv_z = -b; A gets the opposite.
    let (f_b, f_a, z, v_z) = (vr("frame_b.f_0[3]"), vr("frame_a.f_0[3]"), vr("frame_b.r_0[3]"), vr("frame_b.v_0[3]"));
    let (status, d) = directional(&fmu, &[f_b, f_a, vr("contact.separation"), vr("contact.normal_force")], &[z, v_z], &[1.0, 2.0]);
    assert_eq!(status, Status::Ok, "{:?}", fmu.messages());
    let expected = [-K - 2.0 * B, K + 2.0 * B, 1.0, -K - 2.0 * B];
    for (got, want) in d.iter().zip(expected) {
        assert!((got - want).abs() <= 1e-9 * want.abs(), "{d:?} != {expected:?}");
    }
    // Adjoint: seed^T J over the same unknowns and knowns.
    let (status, a) = adjoint(&fmu, &[f_b, f_a], &[z, v_z], &[1.0, 0.5]);
    assert_eq!(status, Status::Ok, "{:?}", fmu.messages());
    assert!((a[0] - (-K + 0.5 * K)).abs() <= 1e-9 * K && (a[1] - (-B + 0.5 * B)).abs() <= 1e-9 * B, "{a:?}");
    // Repeating a known adds its seeds (the derivative is linear in the seed).
    let (_, twice) = directional(&fmu, &[f_b], &[z, z], &[1.0, 1.0]);
    assert!((twice[0] + 2.0 * K).abs() <= 1e-9 * K);
}

#[test]
fn output_derivatives_follow_the_input_twists() {
    let fmu = pressed();
    // d f_z / dt = -k v_z (the twists held constant): 5e5 N/s; the separation grows at v_z.
    let (status, rates) = output_derivatives(&fmu, &[vr("frame_b.f_0[3]"), vr("contact.separation")], &[1, 1]);
    assert_eq!(status, Status::Ok, "{:?}", fmu.messages());
    assert!((rates[0] - 0.5 * K).abs() <= 1e-9 * K, "{rates:?}");
    assert!((rates[1] + 0.5).abs() <= 1e-12, "{rates:?}");
    let (status, _) = output_derivatives(&fmu, &[vr("frame_b.f_0[3]")], &[2]);
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("order 2") && fmu.last_message().contains("frame_b.f_0[3]"), "{}", fmu.last_message());
}

#[test]
fn references_without_derivatives_are_errors_naming_the_variable() {
    let fmu = pressed();
    let (status, _) = directional(&fmu, &[vr("contact.friction_force")], &[vr("frame_b.r_0[3]")], &[1.0]);
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("value reference 116 (contact.friction_force) is not an unknown"), "{}", fmu.last_message());

    let fmu = pressed();
    let (status, _) = directional(&fmu, &[vr("frame_b.f_0[3]")], &[vr("frame_a.f_0[1]")], &[1.0]);
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("(frame_a.f_0[1]) is not a known"), "{}", fmu.last_message());

    let fmu = pressed();
    let (status, _) = adjoint(&fmu, &[vr("frame_b.f_0[3]")], &[vr("normal.stiffness")], &[1.0]);
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("(normal.stiffness) is not a known"), "{}", fmu.last_message());

    let fmu = pressed();
    // SAFETY: a null sensitivity array with one unknown is refused before it is written.
    let status = unsafe {
        fmi3GetDirectionalDerivative(fmu.instance, &vr("frame_b.f_0[3]"), 1, &vr("frame_b.r_0[3]"), 1, &1.0, 1, null_mut(), 1)
    };
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("sensitivity"), "{}", fmu.last_message());
}

#[test]
fn a_pair_without_exact_derivatives_is_refused_by_name() {
    let fmu = Fmu::new();
    assert_eq!(fmu.set_enum("geometry_a.shape", ShapeKind::Box.value()), Status::Ok);
    // Box-cylinder (GJK/EPA and a patch with a cylinder's curved features) stays refused.
    assert_eq!(fmu.set_enum("geometry_b.shape", ShapeKind::Cylinder.value()), Status::Ok);
    assert_eq!(fmu.initialize(), Status::Ok);
    assert_eq!(fmu.set_float("frame_b.r_0[3]", 0.09), Status::Ok);
    let (status, _) = directional(&fmu, &[vr("frame_b.f_0[3]")], &[vr("frame_b.r_0[3]")], &[1.0]);
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("no exact derivatives for the geometry pair Box (A) - Cylinder (B)"), "{}", fmu.last_message());
    // The outputs themselves are still there.
    assert!(fmu.get_float("contact.normal_force") > 0.0);
}
