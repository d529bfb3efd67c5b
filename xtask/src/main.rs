//! Project automation: `cargo xtask <command>` (the alias is in .cargo/config.toml).
//!
//! Commands:
//! - `codegen [--check]`: write (or check) modelDescription/fmi2.xml and fmi3.xml.
//! - `fmu [--host]`: build each model's FMI 2 and FMI 3 FMU into target/fmu/ from the committed
//!   model descriptions, with one binary per model and platform for both (Linux x86-64 and
//!   aarch64, Windows x86-64, macOS x86-64 and arm64; `--host`: Linux x86-64 alone), built with
//!   cargo zigbuild (glibc 2.17; the tools install themselves under target/tools on first use) and
//!   mingw-w64, and checked for their architecture, exports and what they need from the system.
//! - `ssp [SCENARIO.toml...]`: build the FMUs, then one SSP archive per scenario into target/ssp/.
//! - `test`: the whole test suite: codegen check, cargo tests, cargo doc without warnings, the
//!   user guide, FMUs, SSPs, the Python tests (FMPy, libcosim), valgrind (memcheck) over a C
//!   importer driving every host FMU binary, and the same importer on the Windows binaries under
//!   wine and on the aarch64 Linux ones under qemu, compared with the host's outputs.
//! - `demo`: build the FMUs of the host platform (Linux x86-64; no other tool, no root), run every scenario of scenarios/ through the `cosim` master (CSV, PNG
//!   and the summary table into results/), then examples/python/falling_sphere.py and
//!   examples/python/step_sizes.py (FMPy).
//! - `docs [--check]`: the user guide (docs/, an mdBook): the laws' plots (committed), the link
//!   check, `mdbook build` into target/book (mdbook installs itself under target/tools on first
//!   use); `--check`: fail if a committed plot is not what the code draws, or a link is broken.
//! - `bench [--quick] [FILTER]`: the criterion benchmarks (physics and the FMI 2 cycle through
//!   the packaged library) and their table: time per evaluation and ratio to sphere-plane.
//! - `venv`: create target/venv with the pinned Python requirements (for running tests by hand).
//! - `fuzz [--seconds N]`: run the `c_api` fuzz target (fuzz/, nightly, cargo-fuzz) for N seconds;
//!   not part of `test` or CI.
//! - `importers [--engine NAME]...`: every SSP in OMSimulator 3 (built from its sources under
//!   target/tools on first use), Ecos and libcosim, with the scenarios' checks; not part of `test`
//!   or CI.

mod apt;
mod bench;
mod codegen;
mod compile;
mod docs;
mod emulated;
mod fmu;
mod fuzz;
mod importers;
mod macho;
mod models;
mod pe;
mod platforms;
mod plots;
mod python;
mod reference;
mod ssp;
mod symbols;
mod valgrind;
mod zigbuild;

use platforms::Selection;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Every failure is a message for the user; `main` prints it and exits non-zero.
pub type Result<T = ()> = std::result::Result<T, String>;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  codegen [--check]  write modelDescription/fmi2.xml and fmi3.xml from the variable table
                     (--check: fail if the committed files differ from the generated ones)
  fmu [--host]       build target/fmu/<Model>-fmi2.fmu and <Model>-fmi3.fmu (ContactForce,
                     RigidBody, PlanarContact) with the binaries of Linux x86-64 and aarch64, Windows x86-64
                     and macOS x86-64 and arm64 (cargo zigbuild for glibc 2.17 and macOS,
                     mingw-w64 for Windows; installed on first use) and check each binary's
                     architecture, exports and libraries (--host: Linux x86-64 alone)
  ssp [SCENARIO...]  fmu, then target/ssp/<name>.ssp (SSP 1.0) from each scenarios/*.toml
                     (or from the scenario files named; a scenario with a tabulated input
                     is skipped, or refused when named)
  test               codegen --check, cargo test --workspace, cargo doc (warnings are errors),
                     docs, fmu, ssp, the Python tests, then
                     valgrind (memcheck) over a C importer driving every host FMU binary, and
                     the same importer on the Windows binaries under wine and the aarch64 Linux
                     ones under qemu, their outputs compared with the host's
  valgrind           fmu, then the valgrind step of test alone
  emulated           fmu, then the wine and qemu step of test alone
  demo               fmu --host, then every scenarios/*.toml through the cosim master (results/: CSV,
                     PNG, summary table), then examples/python/falling_sphere.py and
                     step_sizes.py (FMPy)
  docs [--check]     the user guide: plots of the laws into docs/src/plots (committed), a check
                     of every relative link and anchor of docs/src, then mdbook (installed into
                     target/tools on first use) builds it into target/book (--check: fail if a
                     committed plot differs from its drawing or a link is broken; no build)
  bench [--quick] [FILTER]
                     fmu, then the criterion benchmarks (cargo bench: physics, FMI 2 cycle)
                     and the table of time per evaluation and ratio to sphere-plane
                     (--quick: criterion's quick mode; FILTER: criterion's name filter;
                     bench --table: only the table of the last results)
  venv               create target/venv with tests/python/requirements.txt
  fuzz [--seconds N] run the c_api fuzz target (fuzz/README.md) for N seconds (default 300);
                     needs the nightly toolchain, installs cargo-fuzz when missing; not in CI
  importers [--engine omsimulator|ecos|libcosim]...
                     fmu --host, ssp, then every SSP in OMSimulator 3, Ecos and libcosim with each
                     scenario's checks; the table into target/importers/table.md. OMSimulator
                     is built from its sources under target/tools on first use (about 25
                     minutes; OMSIMULATOR_GIT, OMSIMULATOR_3RDPARTY_GIT: where to clone from);
                     not in test or CI";

#[derive(Debug)]
enum Task {
    Codegen { check: bool },
    Fmu { selection: Selection },
    Ssp { scenarios: Vec<PathBuf> },
    Test,
    Valgrind,
    Emulated,
    Demo,
    Docs { check: bool },
    Bench { quick: bool, filter: Option<String>, table_only: bool },
    Venv,
    Fuzz { seconds: u64 },
    Importers { engines: Vec<String> },
    Help,
}

fn parse(args: &[String]) -> Result<Task> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["codegen"] => Ok(Task::Codegen { check: false }),
        ["codegen", "--check"] => Ok(Task::Codegen { check: true }),
        ["fmu"] => Ok(Task::Fmu { selection: Selection::All }),
        ["fmu", "--host"] => Ok(Task::Fmu { selection: Selection::Host }),
        ["ssp", scenarios @ ..] if scenarios.iter().all(|s| !s.starts_with('-')) => {
            Ok(Task::Ssp { scenarios: scenarios.iter().map(PathBuf::from).collect() })
        }
        ["test"] => Ok(Task::Test),
        ["valgrind"] => Ok(Task::Valgrind),
        ["emulated"] => Ok(Task::Emulated),
        ["demo"] => Ok(Task::Demo),
        ["docs"] => Ok(Task::Docs { check: false }),
        ["docs", "--check"] => Ok(Task::Docs { check: true }),
        ["venv"] => Ok(Task::Venv),
        ["bench", "--table"] => Ok(Task::Bench { quick: false, filter: None, table_only: true }),
        ["bench", rest @ ..] => {
            let quick = rest.contains(&"--quick");
            let others: Vec<&str> = rest.iter().copied().filter(|a| *a != "--quick").collect();
            match others.as_slice() {
                [] => Ok(Task::Bench { quick, filter: None, table_only: false }),
                [filter] if !filter.starts_with('-') => Ok(Task::Bench { quick, filter: Some(filter.to_string()), table_only: false }),
                _ => Err(format!("unknown arguments: {}\n\n{USAGE}", args.join(" "))),
            }
        }
        ["fuzz"] => Ok(Task::Fuzz { seconds: fuzz::DEFAULT_SECONDS }),
        ["fuzz", "--seconds", n] => {
            n.parse().map(|seconds| Task::Fuzz { seconds }).map_err(|_| format!("--seconds {n}: not a whole number of seconds"))
        }
        ["importers", rest @ ..] if rest.len() % 2 == 0 && rest.chunks(2).all(|pair| pair[0] == "--engine") => {
            Ok(Task::Importers { engines: rest.chunks(2).map(|pair| pair[1].to_string()).collect() })
        }
        [] | ["help"] | ["-h"] | ["--help"] => Ok(Task::Help),
        _ => Err(format!("unknown arguments: {}\n\n{USAGE}", args.join(" "))),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = parse(&args).and_then(|task| match task {
        Task::Codegen { check: false } => codegen::write(),
        Task::Codegen { check: true } => codegen::check(),
        Task::Fmu { selection } => fmu::build(selection),
        Task::Ssp { scenarios } => fmu::build(Selection::All).and_then(|()| ssp::build(&scenarios)),
        Task::Test => test(),
        Task::Valgrind => fmu::build(Selection::All).and_then(|()| valgrind::check().map(|_| ())),
        Task::Emulated => fmu::build(Selection::All).and_then(|()| emulated::check().map(|_| ())),
        Task::Demo => demo(),
        Task::Docs { check: false } => docs::build(),
        Task::Docs { check: true } => docs::check(),
        Task::Bench { table_only: true, .. } => bench::print_table(),
        Task::Bench { quick, filter, .. } => bench::run_benchmarks(quick, filter.as_deref()),
        Task::Venv => python::ensure_venv().map(|python| println!("{}", python.display())),
        Task::Fuzz { seconds } => fuzz::run(seconds),
        Task::Importers { engines } => importers::run_all(&engines),
        Task::Help => {
            println!("{USAGE}");
            Ok(())
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The whole test suite in one command; the error names the step that failed.
fn test() -> Result {
    let root = root();
    step("(a) cargo xtask codegen --check", codegen::check)?;
    step("(a) cargo xtask docs --check (the committed plots are the drawn ones)", docs::check)?;
    step("(b) cargo test --workspace", || run(cargo().args(["test", "--workspace"]).current_dir(&root)))?;
    // Warnings are errors here so that a broken intra-doc link or an unescaped unit in brackets
    // fails the suite instead of piling up unseen.
    step("(c) cargo doc --no-deps --workspace (RUSTDOCFLAGS=-Dwarnings)", || {
        run(cargo().args(["doc", "--no-deps", "--workspace"]).env("RUSTDOCFLAGS", "-Dwarnings").current_dir(&root))
    })?;
    step("(c) cargo clippy --workspace --all-targets (-D warnings)", || {
        run(cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]).current_dir(&root))
    })?;
    step("(d) cargo xtask docs (the user guide: plots, links, mdbook)", docs::build)?;
    step("(e) cargo xtask fmu (every platform)", || fmu::build(Selection::All))?;
    step("(f) cargo xtask ssp", || ssp::build(&[]))?;
    let python = step("(g) Python virtual environment", python::ensure_venv)?;
    step("(h) pytest tests/python", || {
        run(Command::new(&python)
            .args(["-m", "pytest", "-q", "tests/python"])
            .env("CONTACTFORCE_FMU_DIR", fmu::output_dir())
            .env("CONTACTFORCE_SSP_DIR", ssp::output_dir())
            .current_dir(&root))
    })?;
    step("(i) valgrind (memcheck) over tests/valgrind/driver.c and the host FMU binaries", valgrind::check)?;
    step("(j) the other platforms: the C importer on the Windows binaries under wine, the aarch64 Linux ones under qemu", emulated::check)?;
    println!("xtask test: every step passed");
    Ok(())
}

/// The scenarios in the order the demo runs them; any other scenarios/*.toml follow by name.
const SCENARIO_ORDER: [&str; 6] =
    ["sphere_drop", "modelica_experiment_1", "modelica_experiment_2", "modelica_experiment_3", "incline_stick", "incline_slide"];

/// scenarios/*.toml, in SCENARIO_ORDER and then by name.
fn scenario_files() -> Result<Vec<PathBuf>> {
    let dir = root().join("scenarios");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("could not read {}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries.filter_map(|entry| entry.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "toml")).collect();
    let rank = |path: &PathBuf| {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        (SCENARIO_ORDER.iter().position(|s| *s == stem).unwrap_or(SCENARIO_ORDER.len()), stem)
    };
    files.sort_by_key(rank);
    if files.is_empty() {
        return Err(format!("no scenario file in {}", dir.display()));
    }
    Ok(files)
}

/// Builds the host's FMUs (the demo runs nothing else, and the host build needs neither mingw-w64
/// nor root), runs every scenario through the co-simulation master (release build) into results/,
/// then the FMPy examples.
fn demo() -> Result {
    fmu::build(Selection::Host)?;
    let scenarios = scenario_files()?;
    println!("==> running {} scenarios through the cosim master (results/: CSV, PNG)", scenarios.len());
    run(cargo()
        .args(["run", "--quiet", "--release", "--package", "cosim", "--", "run"])
        .args(&scenarios)
        .args(["--out", "results", "--fmu-dir"])
        .arg(fmu::output_dir())
        .current_dir(root()))?;
    println!("==> FMPy: examples/python/falling_sphere.py");
    let python = python::ensure_demo_venv()?;
    run(Command::new(&python)
        .arg("examples/python/falling_sphere.py")
        .arg("--fmu-dir")
        .arg(fmu::output_dir())
        .args(["--out", "results"])
        .current_dir(root()))?;
    println!("==> FMPy: examples/python/step_sizes.py (restitution against the communication step, both couplings)");
    run(Command::new(&python)
        .arg("examples/python/step_sizes.py")
        .arg("--fmu-dir")
        .arg(fmu::output_dir())
        .args(["--out", "results"])
        .current_dir(root()))
}

fn step<T>(name: &str, body: impl FnOnce() -> Result<T>) -> Result<T> {
    println!("==> xtask test: step {name}");
    body().map_err(|e| format!("step {name} failed: {e}"))
}

/// The workspace root (the parent of this crate).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives inside the workspace").to_path_buf()
}

/// Cargo's target directory: `CARGO_TARGET_DIR` if set, else target/ in the workspace.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root().join(dir),
        None => root().join("target"),
    }
}

/// The cargo that runs this xtask, so that toolchain overrides carry over to nested builds.
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo")))
}

/// Runs a command to completion with inherited output; a non-zero exit is an error naming it.
pub fn run(command: &mut Command) -> Result {
    let status = command.status().map_err(|e| format!("could not start {command:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} exited with {status}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parses_every_command_and_refuses_unknown_ones() {
        assert!(matches!(parse(&args("codegen")), Ok(Task::Codegen { check: false })));
        assert!(matches!(parse(&args("codegen --check")), Ok(Task::Codegen { check: true })));
        assert!(matches!(parse(&args("fmu")), Ok(Task::Fmu { selection: Selection::All })));
        assert!(matches!(parse(&args("fmu --host")), Ok(Task::Fmu { selection: Selection::Host })));
        assert!(parse(&args("fmu --windows")).is_err());
        assert!(matches!(parse(&args("emulated")), Ok(Task::Emulated)));
        assert!(matches!(parse(&args("ssp")), Ok(Task::Ssp { scenarios }) if scenarios.is_empty()));
        assert!(matches!(parse(&args("ssp scenarios/a.toml")), Ok(Task::Ssp { scenarios }) if scenarios == [PathBuf::from("scenarios/a.toml")]));
        assert!(parse(&args("ssp --all")).is_err());
        assert!(matches!(parse(&args("test")), Ok(Task::Test)));
        assert!(matches!(parse(&args("valgrind")), Ok(Task::Valgrind)));
        assert!(matches!(parse(&args("demo")), Ok(Task::Demo)));
        assert!(matches!(parse(&args("docs")), Ok(Task::Docs { check: false })));
        assert!(matches!(parse(&args("docs --check")), Ok(Task::Docs { check: true })));
        assert!(matches!(parse(&args("venv")), Ok(Task::Venv)));
        assert!(matches!(parse(&args("bench")), Ok(Task::Bench { quick: false, filter: None, table_only: false })));
        assert!(matches!(parse(&args("bench --quick pair")), Ok(Task::Bench { quick: true, filter: Some(f), .. }) if f == "pair"));
        assert!(matches!(parse(&args("bench --table")), Ok(Task::Bench { table_only: true, .. })));
        assert!(parse(&args("bench --fast")).is_err());
        assert!(matches!(parse(&args("fuzz")), Ok(Task::Fuzz { seconds: fuzz::DEFAULT_SECONDS })));
        assert!(matches!(parse(&args("fuzz --seconds 1500")), Ok(Task::Fuzz { seconds: 1500 })));
        assert!(parse(&args("fuzz --seconds soon")).unwrap_err().contains("--seconds soon"));
        assert!(matches!(parse(&args("importers")), Ok(Task::Importers { engines }) if engines.is_empty()));
        assert!(matches!(parse(&args("importers --engine ecos")), Ok(Task::Importers { engines }) if engines == ["ecos"]));
        assert!(parse(&args("importers ecos")).is_err());
        assert!(matches!(parse(&args("")), Ok(Task::Help)));
        assert!(parse(&args("codegen --force")).unwrap_err().contains("unknown arguments: codegen --force"));
    }

    #[test]
    fn the_demo_runs_every_scenario_file_in_the_documented_order() {
        let names: Vec<String> =
            scenario_files().unwrap().iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names[..SCENARIO_ORDER.len()], SCENARIO_ORDER.map(String::from));
    }
}
