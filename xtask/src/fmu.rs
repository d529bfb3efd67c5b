//! `cargo xtask fmu`: the FMU archives, an FMI 2 and an FMI 3 one per model.
//!
//! Each model is built once, in one cargo invocation with the unwinding probe, with both FMI
//! versions' exports (the default features): the fmi2* and fmi3* names differ, so one binary
//! serves both FMUs of a model, and the release build of each crate runs once instead of once per
//! version. The invocation is the same on every run, so a run with nothing changed finds every
//! unit fresh (builds with alternating features shared one output file and invalidated each other).
//! The build uses cargo-zigbuild against glibc 2.17 ([`crate::zigbuild`]), so the binaries load on
//! old enterprise Linux hosts. Before anything is packaged, [`crate::symbols`] checks every
//! binary's exports, its glibc symbol versions and its DT_NEEDED libraries, and the unwinding probe
//! proves that a panic is still caught in a library linked this way (zig's libunwind in place of
//! libgcc_s). The archives are deterministic: sorted entries, the 1980-01-01 timestamp
//! and fixed permissions, so that two builds differ only where the binary differs.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, System, ZipWriter};

use crate::models::{Model, MODELS};
use crate::symbols::{self, GlibcVersion};
use crate::zigbuild::{self, Toolchain, GLIBC_FLOOR};
use crate::{codegen, root, run, target_dir, Result};

/// What differs between the two FMUs of a model (they share the binary).
struct Flavor {
    /// The FMU's file name suffix: `<model>-fmi2.fmu`, `<model>-fmi3.fmu`.
    name: &'static str,
    fmi_version: &'static str,
    /// The committed model description that ships, in the model's folder.
    model_description: &'static str,
    /// Platform folder under binaries/ (FMI 2 and FMI 3 name it differently).
    platform: &'static str,
    /// Entry point of the documentation: FMI 2 names it _main.html, FMI 3 index.html.
    documentation: &'static str,
}

const FLAVORS: [Flavor; 2] = [
    Flavor {
        name: "fmi2",
        fmi_version: "2.0",
        model_description: "fmi2.xml",
        platform: "linux64",
        documentation: "documentation/_main.html",
    },
    Flavor {
        name: "fmi3",
        fmi_version: "3.0",
        model_description: "fmi3.xml",
        platform: "x86_64-linux",
        documentation: "documentation/index.html",
    },
];

/// Where the FMUs are written (target/fmu).
pub fn output_dir() -> PathBuf {
    target_dir().join("fmu")
}

/// The packaged binary of a model, as the last `cargo xtask fmu` checked it: the FMI cycle
/// benchmark loads it from here.
pub fn staged_library(model_name: &str) -> PathBuf {
    target_dir().join("xtask").join(model_name).join(format!("{model_name}.so"))
}

pub fn build() -> Result {
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        return Err("packaging supports x86_64 Linux only (binaries/linux64 and binaries/x86_64-linux)".to_string());
    }
    // The committed XML is what ships, so a stale file is an error rather than silently regenerated.
    codegen::check()?;
    let toolchain = Toolchain::ensure()?;
    build_libraries(&toolchain)?;
    check_unwinding(&toolchain)?;

    fs::create_dir_all(output_dir()).map_err(|e| format!("could not create {}: {e}", output_dir().display()))?;
    let required = symbols::fmi_functions();
    let mut libraries = Vec::new();
    let mut problems = Vec::new();
    for model in MODELS {
        let library = stage_library(model)?;
        let what = format!("the {} library ({})", model.name, library.display());
        match check_library(&library, &required, &what) {
            Ok(summary) => println!("{}: {summary}", model.name),
            Err(problem) => problems.push(problem),
        }
        libraries.push(library);
    }
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    for (model, library) in MODELS.iter().zip(&libraries) {
        for flavor in &FLAVORS {
            let archive = output_dir().join(format!("{}-{}.fmu", model.name, flavor.name));
            package(model, flavor, library, &archive)?;
            println!("wrote {}", archive.display());
        }
    }
    Ok(())
}

/// Checks a built binary's exports (exactly `required`) and that it loads on the glibc floor;
/// returns a one-line summary (highest glibc version, DT_NEEDED libraries).
fn check_library(library: &Path, required: &[&str], what: &str) -> Result<String> {
    let exports = symbols::exported_functions(library).and_then(|exported| symbols::check_exports(&exported, required, what));
    let floor = GlibcVersion::new(&[GLIBC_FLOOR.0, GLIBC_FLOOR.1]);
    let dependencies = symbols::dependencies(library)?;
    let portability = symbols::check_portability(&dependencies, &floor, what);
    match (exports, portability) {
        (Ok(()), Ok(highest)) => Ok(format!(
            "exports its {} required functions and nothing else; highest glibc symbol version {} (floor {floor}); DT_NEEDED {}",
            required.len(),
            highest.map_or_else(|| "no versioned symbol".to_string(), |v| v.to_string()),
            dependencies.needed.join(" ")
        )),
        (exports, portability) => Err([exports.err(), portability.err()].into_iter().flatten().collect::<Vec<_>>().join("\n")),
    }
}

/// Builds every model's release library and the unwinding probe in one cargo invocation (cargo
/// zigbuild, glibc 2.17), so that cargo schedules the crates side by side on the available cores.
/// The default features are both FMI versions; no feature is named, so that any other build of
/// these packages for this target with the default features shares the fingerprints.
/// A model with `own_build` (it links contact_force without its exports) gets an invocation of
/// its own after that one.
fn build_libraries(toolchain: &Toolchain) -> Result {
    let packages: Vec<&str> = MODELS.iter().filter(|model| !model.own_build).map(|model| model.package).collect();
    println!("==> building the {} libraries and the unwinding probe (release, {})", packages.join(", "), zigbuild::zig_target());
    let mut command = toolchain.release_build();
    command.args(["--lib", "--package", "unwind_probe"]);
    for package in packages {
        command.args(["--package", package]);
    }
    run(command.current_dir(root()))?;
    for model in MODELS.iter().filter(|model| model.own_build) {
        println!("==> building the {} library on its own (release, {})", model.package, zigbuild::zig_target());
        let mut command = toolchain.release_build();
        command.args(["--lib", "--package", model.package]);
        run(command.current_dir(root()))?;
    }
    Ok(())
}

/// Copies a model's built library to [`staged_library`] and returns that path.
fn stage_library(model: &Model) -> Result<PathBuf> {
    let built = zigbuild::release_dir().join(format!("lib{}.so", model.package));
    let staged = staged_library(model.name);
    let staging = staged.parent().expect("a staging folder");
    fs::create_dir_all(staging).map_err(|e| format!("could not create {}: {e}", staging.display()))?;
    fs::copy(&built, &staged).map_err(|e| format!("could not copy {} to {}: {e}", built.display(), staged.display()))?;
    Ok(staged)
}

/// Checks crates/unwind_probe (built like the FMU binaries) like them (its one export, the glibc
/// floor), then loads it into Python with ctypes and calls it: a panic must unwind through its
/// frames and be caught, as the FMUs' `catch_unwind` at the C boundary needs.
fn check_unwinding(toolchain: &Toolchain) -> Result {
    println!("==> the unwinding probe (crates/unwind_probe, {})", zigbuild::zig_target());
    let library = zigbuild::release_dir().join("libunwind_probe.so");
    check_library(&library, &["unwind_probe"], &format!("the unwinding probe ({})", library.display()))?;
    let output = Command::new(toolchain.python())
        .args(["-c", "import ctypes, sys; sys.exit(0 if ctypes.CDLL(sys.argv[1]).unwind_probe() == 1 else 3)"])
        .arg(&library)
        .output()
        .map_err(|e| format!("could not run {}: {e}", toolchain.python().display()))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "a panic in a library linked like the FMU binaries was not caught (the probe {}; {}):\n{}",
            if output.status.code() == Some(3) { "returned 0: the panic was caught, but not every destructor ran" } else { "did not return" },
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

/// Writes the FMU archive of `model` for `flavor` with `library` as its binary (the same file for
/// both flavors).
fn package(model: &Model, flavor: &Flavor, library: &Path, archive: &Path) -> Result {
    let read = |path: &Path| fs::read(path).map_err(|e| format!("could not read {}: {e}", path.display()));
    let identifier = model.name;
    let mut entries: BTreeMap<String, (Vec<u8>, u32)> = BTreeMap::new();
    let description = root().join(model.model_descriptions).join(flavor.model_description);
    entries.insert("modelDescription.xml".to_string(), (read(&description)?, 0o644));
    entries.insert(format!("binaries/{}/{identifier}.so", flavor.platform), (read(library)?, 0o755));
    entries.insert(flavor.documentation.to_string(), ((model.documentation)(flavor.fmi_version).into_bytes(), 0o644));
    let bytes = zip_archive(&entries).map_err(|e| format!("could not write {}: {e}", archive.display()))?;
    // Write next to the target and rename, so an interrupted run never leaves a truncated FMU.
    let partial = archive.with_extension("fmu.partial");
    fs::write(&partial, bytes).map_err(|e| format!("could not write {}: {e}", partial.display()))?;
    fs::rename(&partial, archive).map_err(|e| format!("could not write {}: {e}", archive.display()))
}

/// A deterministic zip of `entries` (name -> contents, Unix permissions), in name order.
pub fn zip_archive(entries: &BTreeMap<String, (Vec<u8>, u32)>) -> zip::result::ZipResult<Vec<u8>> {
    let mut zip = ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, (contents, permissions)) in entries {
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .last_modified_time(DateTime::DEFAULT)
            .system(System::Unix)
            .unix_permissions(*permissions);
        zip.start_file(name.as_str(), options)?;
        zip.write_all(contents)?;
    }
    Ok(zip.finish()?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> BTreeMap<String, (Vec<u8>, u32)> {
        let mut entries = BTreeMap::new();
        entries.insert("modelDescription.xml".to_string(), (b"<xml/>".to_vec(), 0o644));
        entries.insert("binaries/linux64/ContactForce.so".to_string(), (vec![7; 1000], 0o755));
        entries
    }

    #[test]
    fn archives_of_the_same_entries_are_byte_identical() {
        assert_eq!(zip_archive(&sample()).unwrap(), zip_archive(&sample()).unwrap());
    }

    #[test]
    fn archive_entries_are_sorted_and_dated_1980() {
        let bytes = zip_archive(&sample()).unwrap();
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let mut in_order = Vec::new();
        for i in 0..archive.len() {
            let file = archive.by_index(i).unwrap();
            assert_eq!(file.last_modified(), Some(DateTime::DEFAULT));
            in_order.push(file.name().unwrap().to_string());
        }
        let mut sorted = in_order.clone();
        sorted.sort();
        assert_eq!(in_order.len(), 2);
        assert_eq!(in_order, sorted);
    }
}
