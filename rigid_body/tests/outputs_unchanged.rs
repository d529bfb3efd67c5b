//! RigidBody's outputs, bit for bit, over a recorded set of parameters and inputs: each joint
//! under a varying wrench, through both FMI versions. The golden file is
//! tests/outputs/rigid_body.txt at the workspace root; tests/outputs/driver.rs says how to
//! record it again.

#[path = "../../tests/outputs/driver.rs"]
mod driver;

use std::path::Path;

use driver::{v, Case, Version};
use rigid_body::model::Model;

/// A wrench that turns and grows, so that every state moves.
fn wrench(t: f64) -> Vec<(String, f64)> {
    vec![
        v("f_0[1]", 3.0 * (40.0 * t).sin()),
        v("f_0[2]", -1.0 + 50.0 * t),
        v("f_0[3]", 12.0),
        v("t_0[1]", 0.02),
        v("t_0[2]", -0.01 * (30.0 * t).cos()),
        v("t_0[3]", 0.05 * t),
    ]
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for version in [Version::Fmi2, Version::Fmi3] {
        for (joint, name) in [(1, "Free"), (2, "Revolute"), (3, "Prismatic")] {
            let case = Case::new(format!("joint.{name}"), version)
                .steps(40, 2e-3)
                .inputs(wrench)
                .int("joint.kind", joint)
                .real("mass", 2.5)
                .real("inertia[1]", 0.02)
                .real("inertia[2]", 0.025)
                .real("inertia[3]", 0.03)
                .real("inertia[4]", 0.001)
                .real("inertia[6]", -0.002)
                .real("joint.pivot[1]", 0.1)
                .real("joint.axis[1]", 0.6)
                .real("joint.axis[3]", 0.8)
                .real("v_0_start[1]", 0.5)
                .real("w_0_start[2]", 3.0)
                .real("w_0_start[3]", 1.0)
                .real("q_start[1]", 0.9)
                .real("q_start[2]", 0.3)
                .real("q_start[4]", 0.3);
            cases.push(case);
        }
        cases.push(
            Case::new("defaults", version)
                .steps(40, 2e-3)
                .inputs(wrench),
        );
        cases.push(
            Case::new("max_step", version)
                .steps(10, 1e-2)
                .inputs(wrench)
                .real("solver.max_step", 3e-4)
                .real("gravity[1]", 1.0),
        );
    }
    cases
}

#[test]
fn outputs_are_those_recorded() {
    driver::check::<Model>(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/outputs/rigid_body.txt"),
        &cases(),
    );
}
