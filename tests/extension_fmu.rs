//! One binary, two FMUs: ContactForce (without the point slots of the laws provided by input) and
//! ContactForceProvidedLaws (with them), told apart by the token the importer passes. Through the
//! FMI 2 C API: an instance made with ContactForce's token does not know the slots' value
//! references and refuses a law provided by input with a message naming the other FMU; one made
//! with the extension's token knows them and runs the provided law.

mod support;

use contact_force::fmi::status::Status;
use contact_force::physics::normal::NormalLawKind;
use contact_force::variables;
use support::fmi2::{vr, Fmu};

#[test]
fn contact_force_does_not_know_the_slots_and_refuses_a_provided_law() {
    let fmu = Fmu::with_guid(variables::instantiation_token());
    assert!(!fmu.c.is_null(), "{:?}", fmu.messages());
    assert_eq!(fmu.set("contact.point[1].provided.normal_force", 10.0), Status::Error);
    assert!(fmu.logged(&format!("unknown value reference {}", vr("contact.point[1].provided.normal_force"))), "{:?}", fmu.messages());
    let fmu = Fmu::with_guid(variables::instantiation_token());
    // The frames' inputs work as ever.
    assert_eq!(fmu.set("frame_b.r_0[3]", 0.099), Status::Ok);
    assert_eq!(fmu.set_enum("normal.law", NormalLawKind::ProvidedByInput.value() as i32), Status::Ok);
    // SAFETY: a live instance.
    let status = unsafe {
        use contact_force::fmi::fmi2::*;
        assert_eq!(fmi2SetupExperiment(fmu.c, 0, 0.0, 0.0, 0, 1.0), Status::Ok);
        assert_eq!(fmi2EnterInitializationMode(fmu.c), Status::Ok);
        fmi2ExitInitializationMode(fmu.c)
    };
    assert_eq!(status, Status::Error);
    let message = fmu.last_message();
    assert!(message.contains("normal.law = 8 (ProvidedByInput)") && message.contains("ContactForceProvidedLaws"), "{message}");
}

#[test]
fn the_extension_knows_the_slots_and_runs_the_provided_law() {
    let fmu = Fmu::with_guid(&variables::extension_token());
    assert!(!fmu.c.is_null(), "{:?}", fmu.messages());
    assert_eq!(fmu.set_enum("normal.law", NormalLawKind::ProvidedByInput.value() as i32), Status::Ok);
    fmu.initialize();
    fmu.press_sphere();
    assert_eq!(fmu.set("contact.point[1].provided.normal_force", 123.0), Status::Ok);
    assert!((fmu.get("contact.point[1].depth") - 1e-3).abs() < 1e-12);
    assert!((fmu.get("frame_b.f_0[3]") - 123.0).abs() < 1e-9, "{}", fmu.get("frame_b.f_0[3]"));
}

#[test]
fn a_token_of_neither_names_both() {
    let fmu = Fmu::with_guid("{00000000-0000-0000-0000-000000000000}");
    assert!(fmu.c.is_null());
    let message = fmu.last_message();
    assert!(message.contains(variables::instantiation_token()) && message.contains(&variables::extension_token()), "{message}");
    assert!(message.contains("ContactForceProvidedLaws"), "{message}");
}
