//! `cargo xtask test`, step "valgrind": memcheck over a plain C importer (tests/valgrind/driver.c)
//! that drives every Linux x86-64 FMU binary as it ships (extracted from target/fmu/*.fmu; the
//! same importer and cases run the other platforms' binaries in [`crate::emulated`]): instantiation,
//! parameters, steps, FMU state get/set/serialize/deserialize, errors, Reset, a null logger,
//! instantiate/free cycles and dlclose. Any invalid access, use of uninitialised memory, or
//! definitely or indirectly lost block fails the step; so does a driver check (a non-finite
//! output with OK, a replay after SetFMUState that differs).
//!
//! No suppression file is needed: the run reports no error, and nothing is in use at exit (the
//! FMUs keep no process-wide heap memory, so even dlclose leaves nothing behind).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use fmi_export::table::{Causality, Table, ValueType};
use fmi_export::FmuModel;

use crate::platforms::{self, Platform};
use crate::{apt, fmu, root, run, target_dir, Result};

/// memcheck's options: every error kind, leaks that are definite or indirect are errors.
const VALGRIND_OPTIONS: [&str; 5] = [
    "--tool=memcheck",
    "--error-exitcode=1",
    "--leak-check=full",
    "--errors-for-leak-kinds=definite,indirect",
    "--track-origins=yes",
];

/// One model and FMI version to drive, and the driver's arguments for it.
pub struct Case {
    pub model: &'static str,
    /// "2" or "3".
    pub version: &'static str,
    pub token: String,
    pub specs: Vec<String>,
}

impl Case {
    /// `ContactForce-fmi2`: the FMU's name.
    pub fn name(&self) -> String {
        format!("{}-fmi{}", self.model, self.version)
    }

    /// The FMU archive and the path of `platform`'s binary in it; None where the FMU version has
    /// no folder for the platform (FMI 2 on aarch64 Linux).
    pub fn binary(&self, platform: &Platform) -> Option<(PathBuf, String)> {
        let folder = if self.version == "2" { platform.fmi2? } else { platform.fmi3 };
        Some((fmu::archive(self.model, &format!("fmi{}", self.version)), format!("binaries/{folder}/{}", platform.fmu_file_name(self.model))))
    }
}

/// What valgrind said about one run.
pub struct Summary {
    pub name: String,
    pub in_use_at_exit: String,
    pub heap_usage: String,
    pub errors: String,
    pub seconds: f64,
}

fn output_dir() -> PathBuf {
    target_dir().join("valgrind")
}

/// Runs the check over the host binaries of the eight FMUs (four models, two versions) in
/// target/fmu (built by `cargo xtask fmu`).
pub fn check() -> Result<Vec<Summary>> {
    apt::ensure_tool("valgrind", "valgrind")?;
    apt::ensure_tool("cc", "gcc")?;
    let dir = output_dir();
    fs::create_dir_all(&dir).map_err(|e| format!("could not create {}: {e}", dir.display()))?;
    let driver = dir.join("driver");
    run(Command::new("cc")
        .args(["-std=gnu11", "-O1", "-g", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&driver)
        .arg(root().join("tests/valgrind/driver.c"))
        .args(["-ldl", "-lm"]))?;
    // A convex hull read from a file: the file readers run under memcheck too.
    let hull = write_hull(&dir)?;

    let mut summaries = Vec::new();
    for case in cases(hull.to_str().expect("a UTF-8 target directory")) {
        let name = case.name();
        let (archive, binary) = case.binary(platforms::host()).expect("the host has both FMI folders");
        let library = extract(&archive, &binary, &dir.join(&name))?;
        let log = dir.join(format!("{name}.log"));
        println!("==> valgrind: {name}");
        let started = std::time::Instant::now();
        let status = Command::new("valgrind")
            .args(VALGRIND_OPTIONS)
            .arg(format!("--log-file={}", log.display()))
            .arg(&driver)
            .arg(&library)
            .arg(case.version)
            .arg(&case.token)
            .args(&case.specs)
            .status()
            .map_err(|e| format!("could not start valgrind: {e}"))?;
        let seconds = started.elapsed().as_secs_f64();
        let report = fs::read_to_string(&log).map_err(|e| format!("could not read {}: {e}", log.display()))?;
        if !status.success() {
            return Err(format!("{name}: memcheck or the driver failed ({status}); valgrind's report ({}):\n{report}", log.display()));
        }
        let line = |key: &str| {
            report.lines().find_map(|l| l.split_once(key).map(|(_, rest)| rest.trim().to_string())).unwrap_or_else(|| "?".to_string())
        };
        summaries.push(Summary {
            name,
            in_use_at_exit: line("in use at exit:"),
            heap_usage: line("total heap usage:"),
            errors: line("ERROR SUMMARY:"),
            seconds,
        });
    }
    println!("valgrind (memcheck) summary:");
    for s in &summaries {
        println!("  {:<20} in use at exit: {}; errors: {}; heap: {}; {:.1} s", s.name, s.in_use_at_exit, s.errors, s.heap_usage, s.seconds);
    }
    Ok(summaries)
}

/// The file of PlanarContact's case, beside [`write_hull`]'s: a U-shaped open polyline.
const POLYLINE: &str = "polyline.txt";

/// Writes the box-shaped hull file that ContactForce's case reads into `dir`, and beside it the
/// polyline that PlanarContact's case reads; returns the hull's path (the cases find the
/// polyline beside it, as the binary under test sees the folder).
pub fn write_hull(dir: &Path) -> Result<PathBuf> {
    let hull = dir.join("box.csv");
    let corners: String =
        (0..8).map(|c| format!("{},{},{}\n", (c & 1) as f64 * 0.2 - 0.1, ((c >> 1) & 1) as f64 * 0.2 - 0.1, ((c >> 2) & 1) as f64 * 0.2 - 0.1)).collect();
    fs::write(&hull, corners).map_err(|e| format!("could not write {}: {e}", hull.display()))?;
    let polyline = dir.join(POLYLINE);
    fs::write(&polyline, "-0.1 0\n-0.1 -0.1\n0.1 -0.1\n0.1 0\n").map_err(|e| format!("could not write {}: {e}", polyline.display()))?;
    Ok(hull)
}

/// The path of the file `name` in the folder of `hull` (a path as the binary under test sees it:
/// a host path, or wine's `Z:\...`).
fn beside(hull: &str, name: &str) -> String {
    let folder = hull.strip_suffix("box.csv").expect("write_hull's file is box.csv");
    format!("{folder}{name}")
}

/// The driver's specs for one model, from its variable table: parameters, every input (with a
/// value and a rate), every output, and the input set to NaN for the error path.
fn specs<M: FmuModel>(table: &Table<M>, parameters: &[(&str, &str)], inputs: &[(&str, f64, f64)], nan_input: &str) -> Vec<String> {
    let vr = |name: &str| table.by_name(name).unwrap_or_else(|| panic!("{} has no variable {name}", M::NAME)).vr;
    let mut specs: Vec<String> = parameters
        .iter()
        .map(|(name, value)| {
            let kind = match table.by_name(name).map(|s| s.variable.ty) {
                Some(ValueType::Enumeration(_)) => "e",
                Some(ValueType::Int32) => "n",
                Some(ValueType::String) => "s",
                _ => "p",
            };
            format!("{kind}:{}={value}", vr(name))
        })
        .collect();
    // The variables of the FMU the token names (ContactForce's own: the extension's, such as the
    // provided forces and the bodies' mobilities, are unknown to it and refused).
    for s in table.interface_scalars(false) {
        match s.causality() {
            Causality::Input => {
                let (value, rate) = inputs.iter().find(|(name, _, _)| *name == s.name).map_or((0.0, 0.0), |(_, v, r)| (*v, *r));
                specs.push(format!("u:{}={value}:{rate}", s.vr));
            }
            Causality::Output => {
                let kind = match s.variable.ty {
                    ValueType::Int32 => "i",
                    ValueType::Boolean => "b",
                    _ => "o",
                };
                specs.push(format!("{kind}:{}", s.vr));
            }
            _ => {}
        }
    }
    specs.push(format!("nan:{}", vr(nan_input)));
    specs
}

/// Every model in both FMI versions; `hull` is the path of [`write_hull`]'s file as the binary
/// under test must see it.
pub fn cases(hull: &str) -> Vec<Case> {
    // ContactForce: a box-shaped convex hull from a file on the plane, with GroundModel and the
    // stateful ElasticCone (a state per corner), sinking and sliding.
    let contact_force = specs(
        &contact_force::variables::build(),
        &[
            ("geometry_b.shape", "10"),
            ("geometry_b.file", hull),
            ("normal.law", "6"),
            ("friction.law", "6"),
            ("solver.max_step", "2.5e-5"),
        ],
        &[
            ("frame_a.q[1]", 1.0, 0.0),
            ("frame_b.q[1]", 1.0, 0.0),
            ("frame_b.r_0[1]", 0.0, 0.05),
            ("frame_b.r_0[3]", 0.1005, -0.05),
            ("frame_b.v_0[1]", 0.05, 0.0),
            ("frame_b.v_0[3]", -0.05, 0.0),
        ],
        "frame_b.r_0[1]",
    );
    let contact_force = [contact_force, vec!["steps=200".into(), "h=1e-4".into(), "cycles=50".into()]].concat();
    // RigidBody: a tumbling asymmetric body under a force and a torque.
    let rigid_body = specs(
        &rigid_body::variables::build(),
        &[
            ("mass", "2"),
            ("inertia[1]", "0.01"),
            ("inertia[2]", "0.02"),
            ("inertia[3]", "0.025"),
            ("v_0_start[1]", "1"),
            ("w_0_start[1]", "3"),
            ("w_0_start[2]", "0.1"),
            ("w_0_start[3]", "0.5"),
        ],
        &[("f_0[3]", 5.0, 100.0), ("t_0[2]", 0.01, 0.0)],
        "f_0[1]",
    );
    let rigid_body = [rigid_body, vec!["steps=200".into(), "h=1e-3".into(), "cycles=50".into()]].concat();
    // PlanarContact: a U-shaped open polyline from a file (its two lower corners touch) on the
    // line, with GroundModel and the stateful ElasticCone, sinking and sliding.
    let polyline = beside(hull, POLYLINE);
    let planar_contact = specs(
        &planar_contact::variables::build(),
        &[
            ("geometry_b.shape", "6"),
            ("geometry_b.file", &polyline),
            ("normal.law", "6"),
            ("friction.law", "6"),
            ("solver.max_step", "2.5e-5"),
        ],
        &[("frame_b.r_0[2]", 0.1005, -0.05), ("frame_b.v_0[1]", 0.05, 0.0), ("frame_b.v_0[2]", -0.05, 0.0)],
        "frame_b.r_0[1]",
    );
    let planar_contact = [planar_contact, vec!["steps=200".into(), "h=1e-4".into(), "cycles=50".into()]].concat();
    // ContactScene: a plane, the box-shaped hull from the file on it (driven: mass 0) and a
    // 0.5 kg sphere falling onto the hull, StepAverage (its coupling in the FMU states the driver
    // takes, serializes and restores), sliding under Adams' friction. The driver's inputs answer
    // none of the forces: the scene learns that the sphere shows far more than its mass. With a
    // second body so prescribed (the hull given a mass), the coupling of the two, each taken for
    // a body 50 times heavier, amplified the last bits in which the platforms' maths libraries
    // differ into the fourth digit over 200 steps (bounded, but no longer comparable).
    let contact_scene = specs(
        &scene_fmu::variables::build(),
        &[
            ("scene.bodies", "3"),
            ("body[1].shape", "9"),
            ("body[2].shape", "10"),
            ("body[2].file", hull),
            ("body[3].shape", "2"),
            ("body[3].radius", "0.05"),
            ("body[3].mass", "0.5"),
            ("friction.law", "3"),
            ("coupling.mode", "2"),
            ("coupling.step", "1e-3"),
        ],
        &[
            ("body[1].q[1]", 1.0, 0.0),
            ("body[2].q[1]", 1.0, 0.0),
            ("body[2].r_0[3]", 0.0999, -0.01),
            ("body[2].v_0[1]", 0.05, 0.0),
            ("body[3].q[1]", 1.0, 0.0),
            ("body[3].r_0[1]", 0.02, 0.0),
            ("body[3].r_0[3]", 0.2495, -0.1),
            ("body[3].v_0[3]", -0.1, 0.0),
        ],
        "body[2].r_0[1]",
    );
    let contact_scene = [contact_scene, vec!["steps=200".into(), "h=1e-3".into(), "cycles=20".into()]].concat();
    let models = [
        ("ContactForce", contact_force::fmi::instantiation_token(), contact_force),
        ("RigidBody", rigid_body::fmi::instantiation_token(), rigid_body),
        ("PlanarContact", planar_contact::fmi::instantiation_token(), planar_contact),
        ("ContactScene", scene_fmu::fmi::instantiation_token(), contact_scene),
    ];
    models
        .into_iter()
        .flat_map(|(model, token, specs)| {
            ["2", "3"].map(|version| Case { model, version, token: token.to_string(), specs: specs.clone() })
        })
        .collect()
}

/// Writes the archive's binary to `folder` and returns its path.
pub fn extract(archive: &Path, binary: &str, folder: &Path) -> Result<PathBuf> {
    let file = fs::File::open(archive).map_err(|e| format!("could not open {} (run cargo xtask fmu): {e}", archive.display()))?;
    let mut zip = zip::ZipArchive::new(file).map_err(|e| format!("{}: {e}", archive.display()))?;
    let mut entry = zip.by_name(binary).map_err(|e| format!("{} has no {binary}: {e}", archive.display()))?;
    fs::create_dir_all(folder).map_err(|e| format!("could not create {}: {e}", folder.display()))?;
    let path = folder.join(Path::new(binary).file_name().expect("a file name"));
    let mut out = fs::File::create(&path).map_err(|e| format!("could not write {}: {e}", path.display()))?;
    std::io::copy(&mut entry, &mut out).map_err(|e| format!("could not extract {binary}: {e}"))?;
    Ok(path)
}
