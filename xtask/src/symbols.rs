//! What a built FMU binary exports and what it needs from the system, checked before packaging.
//!
//! Exports: the lists are the `#define fmiXName fmiXFullName(fmiXName)` lines of fmi2Functions.h
//! (44 names) and fmi3Functions.h (75 names). A model's one binary serves its FMI 2 and its FMI 3
//! FMU, so it must export exactly both lists: all of them, and nothing else (no Rust or libunwind
//! symbol that could interpose on the host's). The two lists share no name (every name carries its
//! version's prefix), so an importer of either version finds only its own functions under their
//! standard names.
//!
//! Needs: the binary must load on glibc 2.17 ([`crate::zigbuild`] builds it so): no symbol version
//! above GLIBC_2.17 in its version requirements (.gnu.version_r, what the dynamic loader checks)
//! and no DT_NEEDED library beyond glibc's own.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use object::read::elf::{ElfFile64, Sym as _};
use object::{elf, Endianness, Object, ObjectSymbol};

use crate::Result;

pub const FMI2_FUNCTIONS: [&str; 44] = [
    "fmi2GetTypesPlatform",
    "fmi2GetVersion",
    "fmi2SetDebugLogging",
    "fmi2Instantiate",
    "fmi2FreeInstance",
    "fmi2SetupExperiment",
    "fmi2EnterInitializationMode",
    "fmi2ExitInitializationMode",
    "fmi2Terminate",
    "fmi2Reset",
    "fmi2GetReal",
    "fmi2GetInteger",
    "fmi2GetBoolean",
    "fmi2GetString",
    "fmi2SetReal",
    "fmi2SetInteger",
    "fmi2SetBoolean",
    "fmi2SetString",
    "fmi2GetFMUstate",
    "fmi2SetFMUstate",
    "fmi2FreeFMUstate",
    "fmi2SerializedFMUstateSize",
    "fmi2SerializeFMUstate",
    "fmi2DeSerializeFMUstate",
    "fmi2GetDirectionalDerivative",
    "fmi2EnterEventMode",
    "fmi2NewDiscreteStates",
    "fmi2EnterContinuousTimeMode",
    "fmi2CompletedIntegratorStep",
    "fmi2SetTime",
    "fmi2SetContinuousStates",
    "fmi2GetDerivatives",
    "fmi2GetEventIndicators",
    "fmi2GetContinuousStates",
    "fmi2GetNominalsOfContinuousStates",
    "fmi2SetRealInputDerivatives",
    "fmi2GetRealOutputDerivatives",
    "fmi2DoStep",
    "fmi2CancelStep",
    "fmi2GetStatus",
    "fmi2GetRealStatus",
    "fmi2GetIntegerStatus",
    "fmi2GetBooleanStatus",
    "fmi2GetStringStatus",
];

pub const FMI3_FUNCTIONS: [&str; 75] = [
    "fmi3GetVersion",
    "fmi3SetDebugLogging",
    "fmi3InstantiateModelExchange",
    "fmi3InstantiateCoSimulation",
    "fmi3InstantiateScheduledExecution",
    "fmi3FreeInstance",
    "fmi3EnterInitializationMode",
    "fmi3ExitInitializationMode",
    "fmi3EnterEventMode",
    "fmi3Terminate",
    "fmi3Reset",
    "fmi3GetFloat32",
    "fmi3GetFloat64",
    "fmi3GetInt8",
    "fmi3GetUInt8",
    "fmi3GetInt16",
    "fmi3GetUInt16",
    "fmi3GetInt32",
    "fmi3GetUInt32",
    "fmi3GetInt64",
    "fmi3GetUInt64",
    "fmi3GetBoolean",
    "fmi3GetString",
    "fmi3GetBinary",
    "fmi3GetClock",
    "fmi3SetFloat32",
    "fmi3SetFloat64",
    "fmi3SetInt8",
    "fmi3SetUInt8",
    "fmi3SetInt16",
    "fmi3SetUInt16",
    "fmi3SetInt32",
    "fmi3SetUInt32",
    "fmi3SetInt64",
    "fmi3SetUInt64",
    "fmi3SetBoolean",
    "fmi3SetString",
    "fmi3SetBinary",
    "fmi3SetClock",
    "fmi3GetNumberOfVariableDependencies",
    "fmi3GetVariableDependencies",
    "fmi3GetFMUState",
    "fmi3SetFMUState",
    "fmi3FreeFMUState",
    "fmi3SerializedFMUStateSize",
    "fmi3SerializeFMUState",
    "fmi3DeserializeFMUState",
    "fmi3GetDirectionalDerivative",
    "fmi3GetAdjointDerivative",
    "fmi3EnterConfigurationMode",
    "fmi3ExitConfigurationMode",
    "fmi3GetIntervalDecimal",
    "fmi3GetIntervalFraction",
    "fmi3GetShiftDecimal",
    "fmi3GetShiftFraction",
    "fmi3SetIntervalDecimal",
    "fmi3SetIntervalFraction",
    "fmi3SetShiftDecimal",
    "fmi3SetShiftFraction",
    "fmi3EvaluateDiscreteStates",
    "fmi3UpdateDiscreteStates",
    "fmi3EnterContinuousTimeMode",
    "fmi3CompletedIntegratorStep",
    "fmi3SetTime",
    "fmi3SetContinuousStates",
    "fmi3GetContinuousStateDerivatives",
    "fmi3GetEventIndicators",
    "fmi3GetContinuousStates",
    "fmi3GetNominalsOfContinuousStates",
    "fmi3GetNumberOfEventIndicators",
    "fmi3GetNumberOfContinuousStates",
    "fmi3EnterStepMode",
    "fmi3GetOutputDerivatives",
    "fmi3DoStep",
    "fmi3ActivateModelPartition",
];

/// Every function an FMU binary exports: the FMI 2 functions, then the FMI 3 ones.
pub fn fmi_functions() -> Vec<&'static str> {
    FMI2_FUNCTIONS.iter().chain(&FMI3_FUNCTIONS).copied().collect()
}

/// The names of the symbols a shared library defines in its dynamic symbol table.
pub fn exported_functions(library: &Path) -> Result<BTreeSet<String>> {
    let bytes = read(library)?;
    let file = object::File::parse(&*bytes).map_err(|e| format!("{} is not a shared library: {e}", library.display()))?;
    Ok(file
        .dynamic_symbols()
        .filter(|symbol| symbol.is_definition() && symbol.is_global())
        .filter_map(|symbol| symbol.name().ok().map(str::to_string))
        .collect())
}

/// Checks that `exported` is exactly `required`; the error lists every missing and every extra
/// name.
pub fn check_exports(exported: &BTreeSet<String>, required: &[&str], what: &str) -> Result {
    let missing: Vec<&str> = required.iter().copied().filter(|name| !exported.contains(*name)).collect();
    let extra: Vec<&str> = exported.iter().map(String::as_str).filter(|name| !required.contains(name)).collect();
    let mut problems = Vec::new();
    if !missing.is_empty() {
        problems.push(format!("{what} does not export {} required function(s):\n  {}", missing.len(), missing.join("\n  ")));
    }
    if !extra.is_empty() {
        problems.push(format!("{what} exports {} symbol(s) that are not among its required functions:\n  {}", extra.len(), extra.join("\n  ")));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// The libraries a portable FMU binary may need: glibc's own, present on every Linux with glibc.
/// libgcc_s is not among them: cargo-zigbuild links zig's libunwind statically in its place.
pub const ALLOWED_NEEDED: [&str; 6] =
    ["libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"];

/// What the dynamic loader must find to load a library.
#[derive(Debug, Default, PartialEq)]
pub struct Dependencies {
    /// The DT_NEEDED entries, in file order.
    pub needed: Vec<String>,
    /// The version requirements (.gnu.version_r), in file order.
    pub versions: Vec<VersionNeed>,
}

/// One version requirement: a version of a needed library and the undefined symbols bound to it.
#[derive(Debug, Default, PartialEq)]
pub struct VersionNeed {
    pub file: String,
    pub version: String,
    pub symbols: BTreeSet<String>,
}

/// Reads the DT_NEEDED entries, the version requirements and which symbol needs which version.
pub fn dependencies(library: &Path) -> Result<Dependencies> {
    let bytes = read(library)?;
    let not_elf = |e: object::Error| format!("{}: {e}", library.display());
    let elf = ElfFile64::<Endianness>::parse(&*bytes).map_err(not_elf)?;
    let (endian, data, sections) = (elf.endian(), elf.data(), elf.elf_section_table());
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();

    let dynamic = elf.elf_dynamic_table().map_err(not_elf)?;
    let mut needed = Vec::new();
    for entry in dynamic.iter().filter(|entry| entry.tag == elf::DT_NEEDED) {
        needed.push(text(dynamic.string(entry).map_err(not_elf)?));
    }

    // Version index -> position in `versions`, to attach each symbol to its requirement.
    let mut versions = Vec::new();
    let mut by_index = BTreeMap::new();
    if let Some((mut verneeds, link)) = sections.gnu_verneed(endian, data).map_err(not_elf)? {
        let strings = sections.strings(endian, data, link).map_err(not_elf)?;
        while let Some((verneed, mut vernauxs)) = verneeds.next().map_err(not_elf)? {
            let file = text(verneed.file(endian, strings).map_err(not_elf)?);
            while let Some(vernaux) = vernauxs.next().map_err(not_elf)? {
                by_index.insert(vernaux.vna_other(endian).index().0, versions.len());
                let version = text(vernaux.name(endian, strings).map_err(not_elf)?);
                versions.push(VersionNeed { file: file.clone(), version, symbols: BTreeSet::new() });
            }
        }
    }
    if let Some(table) = sections.versions(endian, data).map_err(not_elf)? {
        let symbols = elf.elf_dynamic_symbol_table();
        for (index, symbol) in symbols.enumerate().filter(|(_, symbol)| symbol.is_undefined(endian)) {
            if let Some(&position) = by_index.get(&table.version_index(endian, index).index().0) {
                let name = symbols.symbol_name(endian, symbol).map_err(not_elf)?;
                versions[position].symbols.insert(text(name));
            }
        }
    }
    Ok(Dependencies { needed, versions })
}

/// A glibc symbol version, compared component by component: `GLIBC_2.3.4` is [2, 3, 4].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct GlibcVersion(Vec<u32>);

impl GlibcVersion {
    pub fn new(components: &[u32]) -> GlibcVersion {
        GlibcVersion(components.to_vec())
    }

    /// `GLIBC_2.17` -> [2, 17]. None for any other name, including GLIBC_PRIVATE.
    pub fn parse(name: &str) -> Option<GlibcVersion> {
        let numbers = name.strip_prefix("GLIBC_")?;
        let components: Option<Vec<u32>> = numbers.split('.').map(|part| part.parse().ok()).collect();
        components.filter(|c| c.len() >= 2).map(GlibcVersion)
    }
}

impl std::fmt::Display for GlibcVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(u32::to_string).collect();
        write!(f, "GLIBC_{}", parts.join("."))
    }
}

/// Checks that `dependencies` load on glibc `floor`: every GLIBC_x.y requirement at most `floor`,
/// no GLIBC_PRIVATE (or other non-numbered glibc version), and every DT_NEEDED library in
/// [`ALLOWED_NEEDED`]. Returns the highest glibc version required; the error lists every
/// requirement above the floor with the symbols that need it, and every other problem.
pub fn check_portability(dependencies: &Dependencies, floor: &GlibcVersion, what: &str) -> Result<Option<GlibcVersion>> {
    let mut problems = Vec::new();
    let mut highest: Option<GlibcVersion> = None;
    for need in &dependencies.versions {
        let symbols = if need.symbols.is_empty() {
            "no symbol (the requirement alone stops the load)".to_string()
        } else {
            need.symbols.iter().cloned().collect::<Vec<_>>().join(", ")
        };
        match GlibcVersion::parse(&need.version) {
            Some(version) => {
                if version > *floor {
                    problems.push(format!("{} from {}: {symbols}", need.version, need.file));
                }
                highest = highest.max(Some(version));
            }
            None if need.version.starts_with("GLIBC_") => {
                problems.push(format!("{} from {} (not a numbered glibc version): {symbols}", need.version, need.file));
            }
            // Versions of other libraries (GCC_3.0 of libgcc_s, ...) come with a DT_NEEDED entry,
            // which the allow list below checks.
            None => {}
        }
    }
    let mut report = Vec::new();
    if !problems.is_empty() {
        let highest = highest.as_ref().map_or_else(|| "none".to_string(), ToString::to_string);
        report.push(format!(
            "{what} needs {} symbol version(s) that glibc {} lacks (highest: {highest}):\n  {}",
            problems.len(),
            floor.to_string().trim_start_matches("GLIBC_"),
            problems.join("\n  ")
        ));
    }
    let foreign: Vec<&str> =
        dependencies.needed.iter().map(String::as_str).filter(|name| !ALLOWED_NEEDED.contains(name)).collect();
    if !foreign.is_empty() {
        report.push(format!("{what} links libraries that are not part of glibc (allowed: {}):\n  {}", ALLOWED_NEEDED.join(", "), foreign.join("\n  ")));
    }
    if report.is_empty() {
        Ok(highest)
    } else {
        Err(report.join("\n"))
    }
}

fn read(library: &Path) -> Result<Vec<u8>> {
    std::fs::read(library).map_err(|e| format!("could not read {}: {e}", library.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_lists_are_unique_and_carry_their_version_prefix() {
        for (list, prefix) in [(&FMI2_FUNCTIONS[..], "fmi2"), (&FMI3_FUNCTIONS[..], "fmi3")] {
            let unique: BTreeSet<&str> = list.iter().copied().collect();
            assert_eq!(unique.len(), list.len(), "duplicate name in the {prefix} list");
            assert!(list.iter().all(|name| name.starts_with(prefix)));
        }
    }

    #[test]
    fn both_versions_are_required_once_each() {
        let all = fmi_functions();
        assert_eq!(all.len(), FMI2_FUNCTIONS.len() + FMI3_FUNCTIONS.len());
        assert_eq!(all.iter().collect::<BTreeSet<_>>().len(), all.len(), "a name in both lists");
        assert!(all.contains(&"fmi2DoStep") && all.contains(&"fmi3DoStep") && all.contains(&"fmi3InstantiateCoSimulation"));
    }

    #[test]
    fn check_lists_missing_and_extra_exports() {
        let required = fmi_functions();
        // A binary built with one version's feature only: the other version's functions are missing.
        let fmi2_only: BTreeSet<String> = FMI2_FUNCTIONS.iter().map(|s| s.to_string()).collect();
        let error = check_exports(&fmi2_only, &required, "test.so").unwrap_err();
        assert!(error.starts_with("test.so does not export 75 required function(s):\n  fmi3GetVersion\n"), "{error}");
        assert!(!error.contains("fmi2") && !error.contains("not among"), "{error}");

        let exported: BTreeSet<String> = ["fmi2GetVersion", "fmi3DoStep", "rust_helper"].iter().map(|s| s.to_string()).collect();
        let error = check_exports(&exported, &["fmi2GetVersion", "fmi2DoStep", "fmi2Reset"], "test.so").unwrap_err();
        assert!(error.contains("does not export 2 required function(s):\n  fmi2DoStep\n  fmi2Reset"), "{error}");
        assert!(error.contains("exports 2 symbol(s) that are not among its required functions:\n  fmi3DoStep\n  rust_helper"), "{error}");
        let error = check_exports(&exported, &["fmi2GetVersion", "fmi3DoStep"], "test.so").unwrap_err();
        assert!(error.ends_with("not among its required functions:\n  rust_helper"), "{error}");
        assert!(check_exports(&exported, &["fmi2GetVersion", "fmi3DoStep", "rust_helper"], "test.so").is_ok());
    }

    #[test]
    fn glibc_versions_parse_and_order_by_number_not_text() {
        let parse = |name| GlibcVersion::parse(name);
        assert_eq!(parse("GLIBC_2.2.5"), Some(GlibcVersion::new(&[2, 2, 5])));
        assert_eq!(parse("GLIBC_2.17"), Some(GlibcVersion::new(&[2, 17])));
        assert_eq!(parse("GLIBC_PRIVATE"), None);
        assert_eq!(parse("GLIBC_2"), None);
        assert_eq!(parse("GLIBC_2.x"), None);
        assert_eq!(parse("GCC_3.0"), None);
        // As text "GLIBC_2.3.4" > "GLIBC_2.17" and "GLIBC_2.9" > "GLIBC_2.14"; as versions, not.
        assert!(parse("GLIBC_2.3.4") < parse("GLIBC_2.17"));
        assert!(parse("GLIBC_2.9") < parse("GLIBC_2.14"));
        assert!(parse("GLIBC_2.17") < parse("GLIBC_2.17.1"));
        assert!(parse("GLIBC_2.18") > parse("GLIBC_2.17"));
        assert_eq!(GlibcVersion::new(&[2, 3, 4]).to_string(), "GLIBC_2.3.4");
    }

    fn need(file: &str, version: &str, symbols: &[&str]) -> VersionNeed {
        VersionNeed { file: file.to_string(), version: version.to_string(), symbols: symbols.iter().map(|s| s.to_string()).collect() }
    }

    fn floor() -> GlibcVersion {
        GlibcVersion::new(&[2, 17])
    }

    #[test]
    fn a_library_within_the_floor_passes_and_reports_its_highest_version() {
        let dependencies = Dependencies {
            needed: vec!["libc.so.6".to_string(), "libm.so.6".to_string(), "ld-linux-x86-64.so.2".to_string()],
            versions: vec![
                need("libc.so.6", "GLIBC_2.2.5", &["free", "malloc"]),
                need("libc.so.6", "GLIBC_2.14", &["memcpy"]),
                need("libc.so.6", "GLIBC_2.3.4", &["__memcpy_chk"]),
                need("libm.so.6", "GLIBC_2.17", &["fma"]),
            ],
        };
        assert_eq!(check_portability(&dependencies, &floor(), "test.so"), Ok(Some(GlibcVersion::new(&[2, 17]))));
    }

    #[test]
    fn every_version_above_the_floor_is_listed_with_its_symbols() {
        let dependencies = Dependencies {
            needed: vec!["libc.so.6".to_string()],
            versions: vec![
                need("libc.so.6", "GLIBC_2.2.5", &["free"]),
                need("libc.so.6", "GLIBC_2.34", &["__libc_start_main", "pthread_create"]),
                need("libc.so.6", "GLIBC_2.18", &["__cxa_thread_atexit_impl"]),
                need("libc.so.6", "GLIBC_2.25", &[]),
                need("libc.so.6", "GLIBC_PRIVATE", &["__libc_secure_getenv"]),
            ],
        };
        let error = check_portability(&dependencies, &floor(), "test.so").unwrap_err();
        assert!(
            error.starts_with("test.so needs 4 symbol version(s) that glibc 2.17 lacks (highest: GLIBC_2.34):\n")
                && error.contains("\n  GLIBC_2.34 from libc.so.6: __libc_start_main, pthread_create")
                && error.contains("\n  GLIBC_2.18 from libc.so.6: __cxa_thread_atexit_impl")
                && error.contains("\n  GLIBC_2.25 from libc.so.6: no symbol (the requirement alone stops the load)")
                && error.contains("\n  GLIBC_PRIVATE from libc.so.6 (not a numbered glibc version): __libc_secure_getenv")
                && !error.contains("GLIBC_2.2.5"),
            "{error}"
        );
    }

    #[test]
    fn a_needed_library_outside_glibc_is_refused_whatever_its_versions() {
        let dependencies = Dependencies {
            needed: vec!["libc.so.6".to_string(), "libgcc_s.so.1".to_string(), "libstdc++.so.6".to_string()],
            versions: vec![need("libgcc_s.so.1", "GCC_4.2.0", &["_Unwind_Backtrace"]), need("libc.so.6", "GLIBC_2.2.5", &["free"])],
        };
        let error = check_portability(&dependencies, &floor(), "test.so").unwrap_err();
        assert!(error.starts_with("test.so links libraries that are not part of glibc (allowed: libc.so.6, "), "{error}");
        assert!(error.ends_with(":\n  libgcc_s.so.1\n  libstdc++.so.6"), "{error}");
        assert!(!error.contains("GCC_4.2.0"), "{error}");
    }

    /// The reader on a real ELF file: this test binary, linked against the build machine's glibc.
    #[test]
    fn the_reader_finds_libc_and_the_symbols_of_each_glibc_version_in_a_real_binary() {
        let mut dependencies = dependencies(&std::env::current_exe().unwrap()).unwrap();
        assert!(dependencies.needed.iter().any(|name| name == "libc.so.6"), "{dependencies:?}");
        // Every program calls malloc, at GLIBC_2.2.5 on x86_64 (the first glibc of that target).
        assert!(
            dependencies.versions.iter().any(|need| need.file == "libc.so.6" && need.version == "GLIBC_2.2.5" && need.symbols.contains("malloc")),
            "{dependencies:?}"
        );
        // With the floor at the highest glibc version found the check passes and reports it; one
        // minor version lower, that version is listed with its symbols.
        dependencies.needed.clear();
        let top = dependencies.versions.iter().filter_map(|need| GlibcVersion::parse(&need.version)).max().unwrap();
        assert_eq!(check_portability(&dependencies, &top, "x"), Ok(Some(top.clone())));
        let mut below = top.0.clone();
        below.truncate(2);
        below[1] -= 1;
        let error = check_portability(&dependencies, &GlibcVersion(below), "x").unwrap_err();
        assert!(error.contains(&format!("\n  {top} from ")), "{error}");
    }
}
