//! `cargo xtask fmu`: the FMU archives, an FMI 2 and an FMI 3 one per model, with the binaries of
//! every platform of [`crate::platforms::PLATFORMS`] (or of the host alone: `cargo xtask fmu
//! --host`).
//!
//! Each model is built once per platform, with both FMI versions' exports (the default features):
//! the fmi2* and fmi3* names differ, so one binary serves both FMUs of a model, and the release
//! build of each crate runs once per platform instead of once per version. The invocations are the
//! same on every run, so a run with nothing changed finds every unit fresh (builds with alternating
//! features shared one output file and invalidated each other); [`crate::compile`] says how each
//! platform is linked. Before anything is packaged, every binary is
//! checked with the object-file reader: its architecture, exactly the FMI functions exported, and
//! what it needs from the system ([`crate::symbols`] for ELF: glibc symbol versions and DT_NEEDED;
//! [`crate::pe`]: the imported DLLs; [`crate::macho`]: libSystem alone). The unwinding probe proves
//! that a panic is still caught in a library linked like the host binary (zig's libunwind in place
//! of libgcc_s); `cargo xtask test` runs the Windows and aarch64 probes and FMUs under wine and qemu
//! ([`crate::emulated`]). The archives are deterministic: sorted entries, the 1980-01-01 timestamp
//! and fixed permissions, so that two builds differ only where a binary differs.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, System, ZipWriter};

use crate::models::{Model, MODELS};
use crate::platforms::{self, Build, Format, Platform, Selection};
use crate::symbols::{self, GlibcVersion};
use crate::zigbuild::Toolchain;
use crate::{codegen, compile, macho, pe, root, target_dir, Result};

/// What differs between the two FMUs of a model (they share the binaries).
struct Flavor {
    /// The FMU's file name suffix: `<model>-fmi2.fmu`, `<model>-fmi3.fmu`.
    name: &'static str,
    fmi_version: &'static str,
    /// The committed model description that ships, in the model's folder.
    model_description: &'static str,
    /// Entry point of the documentation: FMI 2 names it _main.html, FMI 3 index.html.
    documentation: &'static str,
}

const FLAVORS: [Flavor; 2] = [
    Flavor { name: "fmi2", fmi_version: "2.0", model_description: "fmi2.xml", documentation: "documentation/_main.html" },
    Flavor { name: "fmi3", fmi_version: "3.0", model_description: "fmi3.xml", documentation: "documentation/index.html" },
];

/// Where the FMUs are written (target/fmu).
pub fn output_dir() -> PathBuf {
    target_dir().join("fmu")
}

/// The packaged host binary of a model, as the last `cargo xtask fmu` checked it: the FMI cycle
/// benchmark loads it from here.
pub fn staged_library(model_name: &str) -> PathBuf {
    target_dir().join("xtask").join(model_name).join(format!("{model_name}.so"))
}

/// Where a model's checked binary for `platform` is kept (the host's at [`staged_library`]).
fn staged(model: &Model, platform: &Platform) -> PathBuf {
    if std::ptr::eq(platform, platforms::host()) {
        staged_library(model.name)
    } else {
        target_dir().join("xtask").join(model.name).join(platform.fmi3).join(platform.fmu_file_name(model.name))
    }
}

/// The archive path of a model's FMU of one version ("fmi2", "fmi3").
pub fn archive(model_name: &str, flavor: &str) -> PathBuf {
    output_dir().join(format!("{model_name}-{flavor}.fmu"))
}

/// The binaries' entries of one FMU: (path inside the archive, file to copy).
type Binaries = Vec<(String, PathBuf)>;

pub fn build(selection: Selection) -> Result {
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        return Err("packaging runs on x86_64 Linux only (it builds and checks every platform's binaries from there)".to_string());
    }
    // The committed XML is what ships, so a stale file is an error rather than silently regenerated.
    codegen::check()?;
    let platforms = selection.platforms();
    let toolchain = Toolchain::ensure()?;
    compile::build_libraries(&toolchain, &platforms)?;
    check_unwinding(&toolchain, &platforms)?;

    fs::create_dir_all(output_dir()).map_err(|e| format!("could not create {}: {e}", output_dir().display()))?;
    let required = symbols::fmi_functions();
    let mut problems = Vec::new();
    let mut binaries: BTreeMap<&str, [Binaries; 2]> = BTreeMap::new();
    for model in MODELS {
        let [fmi2, fmi3] = binaries.entry(model.name).or_default();
        for &platform in &platforms {
            let library = stage(model, platform)?;
            let what = format!("the {} binary for {} ({})", model.name, platform.fmi3, library.display());
            match check_library(platform, &library, &required, &what) {
                Ok(summary) => println!("{} {}: {summary}", model.name, platform.fmi3),
                Err(problem) => problems.push(problem),
            }
            fmi3.push((format!("binaries/{}/{}", platform.fmi3, platform.fmu_file_name(model.name)), library));
        }
        for (folder, rows) in platforms::fmi2_folders(&platforms) {
            let library = match rows.as_slice() {
                [one] => staged(model, one),
                several => join_universal(model, folder, several)?,
            };
            fmi2.push((format!("binaries/{folder}/{}", rows[0].fmu_file_name(model.name)), library));
        }
    }
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    for model in MODELS {
        for (flavor, binaries) in FLAVORS.iter().zip(&binaries[model.name]) {
            let archive = archive(model.name, flavor.name);
            package(model, flavor, binaries, &archive)?;
            println!("wrote {} ({})", archive.display(), size_text(&archive));
        }
    }
    Ok(())
}

/// "2.9 MB": an archive's size for the summary lines.
fn size_text(path: &Path) -> String {
    fs::metadata(path).map(|m| format!("{:.1} MB", m.len() as f64 / 1e6)).unwrap_or_else(|_| "?".to_string())
}

/// Checks a built binary of `platform`: exactly `required` exported, the right architecture, and
/// nothing needed that the platform's machines may lack; returns a one-line summary.
fn check_library(platform: &Platform, library: &Path, required: &[&str], what: &str) -> Result<String> {
    let bytes = fs::read(library).map_err(|e| format!("could not read {}: {e}", library.display()))?;
    match platform.format {
        Format::Elf => check_elf(platform, library, &bytes, required, what),
        Format::Pe => pe::check(&pe::read(&bytes).map_err(|e| format!("{what}: {e}"))?, platform.architecture, required, what),
        Format::MachO => macho::check(&macho::read(&bytes).map_err(|e| format!("{what}: {e}"))?, platform.architecture, required, what),
    }
}

/// The ELF checks: exports, architecture, and that the binary loads on the glibc floor.
fn check_elf(platform: &Platform, library: &Path, bytes: &[u8], required: &[&str], what: &str) -> Result<String> {
    let Build::Zig { glibc: Some((major, minor)) } = platform.build else {
        return Err(format!("{what}: a Linux platform without a glibc floor in the platform table"));
    };
    let architecture = object::File::parse(bytes).map(|file| object::Object::architecture(&file)).map_err(|e| format!("{what}: {e}"))?;
    let arch = if architecture == platform.architecture { Ok(()) } else { Err(format!("{what} is for {architecture:?}, not {:?}", platform.architecture)) };
    let exports = symbols::exported_functions(library).and_then(|exported| symbols::check_exports(&exported, required, what));
    let floor = GlibcVersion::new(&[major, minor]);
    let dependencies = symbols::dependencies(library)?;
    let portability = symbols::check_portability(&dependencies, &floor, what);
    match (arch, exports, portability) {
        (Ok(()), Ok(()), Ok(highest)) => Ok(format!(
            "{architecture:?} ELF, exports its {} required functions and nothing else; highest glibc symbol version {} (floor {floor}); DT_NEEDED {}",
            required.len(),
            highest.map_or_else(|| "no versioned symbol".to_string(), |v| v.to_string()),
            dependencies.needed.join(" ")
        )),
        (arch, exports, portability) => Err([arch.err(), exports.err(), portability.err()].into_iter().flatten().collect::<Vec<_>>().join("\n")),
    }
}

/// Copies a model's built library for `platform` to its staging path and returns that path.
fn stage(model: &Model, platform: &Platform) -> Result<PathBuf> {
    let built = platform.built_library(model.package);
    let staged = staged(model, platform);
    let staging = staged.parent().expect("a staging folder");
    fs::create_dir_all(staging).map_err(|e| format!("could not create {}: {e}", staging.display()))?;
    fs::copy(&built, &staged).map_err(|e| format!("could not copy {} to {}: {e}", built.display(), staged.display()))?;
    Ok(staged)
}

/// Joins a model's staged Mach-O binaries of `rows` into one universal file for the FMI 2 folder
/// `folder`, and returns its path.
fn join_universal(model: &Model, folder: &str, rows: &[&Platform]) -> Result<PathBuf> {
    let mut thin = Vec::new();
    for platform in rows {
        let path = staged(model, platform);
        thin.push(fs::read(&path).map_err(|e| format!("could not read {}: {e}", path.display()))?);
    }
    let slices: Vec<&[u8]> = thin.iter().map(Vec::as_slice).collect();
    let joined = macho::universal(&slices)?;
    // Read back: one slice per row, of the row's architecture.
    let architectures = macho::slices(&joined)?.iter().map(|slice| macho::read(slice).map(|l| l.architecture)).collect::<Result<Vec<_>>>()?;
    let expected: Vec<object::Architecture> = rows.iter().map(|p| p.architecture).collect();
    if architectures != expected {
        return Err(format!("the universal {folder} binary of {} holds {architectures:?}, not {expected:?}", model.name));
    }
    let path = target_dir().join("xtask").join(model.name).join(folder).join(rows[0].fmu_file_name(model.name));
    fs::create_dir_all(path.parent().expect("a folder")).map_err(|e| format!("could not create {}: {e}", path.display()))?;
    fs::write(&path, joined).map_err(|e| format!("could not write {}: {e}", path.display()))?;
    Ok(path)
}

/// Checks crates/unwind_probe (built like the FMU binaries) of every platform like them (its one
/// export, what it needs from the system), then loads the host's into Python with ctypes and calls
/// it: a panic must unwind through its frames and be caught, as the FMUs' `catch_unwind` at the C
/// boundary needs. `cargo xtask test` calls the Windows and aarch64 ones under wine and qemu.
fn check_unwinding(toolchain: &Toolchain, platforms: &[&Platform]) -> Result {
    let host = platforms::host();
    println!("==> the unwinding probe (crates/unwind_probe, {})", host.cargo_target());
    for platform in platforms {
        let library = platform.built_library("unwind_probe");
        check_library(platform, &library, &["unwind_probe"], &format!("the unwinding probe ({})", library.display()))?;
    }
    let library = host.built_library("unwind_probe");
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

/// Writes the FMU archive of `model` for `flavor` with `binaries` (archive path, file).
fn package(model: &Model, flavor: &Flavor, binaries: &Binaries, archive: &Path) -> Result {
    let read = |path: &Path| fs::read(path).map_err(|e| format!("could not read {}: {e}", path.display()));
    let mut entries: BTreeMap<String, (Vec<u8>, u32)> = BTreeMap::new();
    let description = root().join(model.model_descriptions).join(flavor.model_description);
    entries.insert("modelDescription.xml".to_string(), (read(&description)?, 0o644));
    for (name, library) in binaries {
        entries.insert(name.clone(), (read(library)?, 0o755));
    }
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
