//! Shared by the integration tests: the packaged ContactForce FMUs, built once per test binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The workspace's target/fmu, after `cargo xtask fmu` has (re)built the FMUs in it.
///
/// `cargo xtask test` runs `cargo test --workspace` before it packages the FMUs, so these tests
/// cannot assume they exist; building them here also keeps them in step with the sources. The
/// build runs once per test binary and is a no-op rebuild when nothing changed.
pub fn fmu_dir() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("cosim lives in the workspace").to_path_buf();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = Command::new(&cargo)
            .args(["run", "--quiet", "--package", "xtask", "--", "fmu"])
            .current_dir(&root)
            .output()
            .unwrap_or_else(|e| panic!("could not start {cargo:?} run -p xtask -- fmu: {e}"));
        assert!(
            output.status.success(),
            "cargo xtask fmu failed ({}):\n{}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let dir = cosim::master::workspace_target_dir().join("fmu");
        assert!(dir.join("ContactForce-fmi2.fmu").is_file(), "cargo xtask fmu did not write {}", dir.display());
        dir
    })
}

pub fn options() -> cosim::Options {
    cosim::Options { fmu_dirs: vec![fmu_dir().to_path_buf()] }
}

pub fn fmi2_fmu() -> PathBuf {
    fmu_dir().join("ContactForce-fmi2.fmu")
}

/// A scenario file shipped with the tests.
pub fn scenario_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("scenarios").join(name)
}

/// Parses scenario text whose relative FMU paths are found in the test FMU folder.
pub fn scenario(text: &str) -> cosim::Scenario {
    cosim::Scenario::parse(text).unwrap_or_else(|e| panic!("scenario does not parse: {e}"))
}

/// Runs scenario text and returns the outcome, panicking with the master's message on failure.
pub fn run(text: &str) -> cosim::Outcome {
    let scenario = scenario(text);
    cosim::Simulation::new(&scenario, &options())
        .and_then(cosim::Simulation::run)
        .unwrap_or_else(|e| panic!("the scenario failed: {e}"))
}

/// Runs scenario text expecting a failure, and returns the message.
pub fn run_error(text: &str) -> String {
    let scenario = scenario(text);
    match cosim::Simulation::new(&scenario, &options()).and_then(cosim::Simulation::run) {
        Ok(_) => panic!("the scenario ran, but it should have failed"),
        Err(e) => e.to_string(),
    }
}
