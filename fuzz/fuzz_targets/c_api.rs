//! Drives the FMI 2.0 and FMI 3.0 C APIs of ContactForce, RigidBody and PlanarContact with the operation
//! sequences of `contact_force_fuzz::Input` (see fuzz/README.md).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: contact_force_fuzz::Input| {
    contact_force_fuzz::run(&input);
});
