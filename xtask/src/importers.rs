//! `cargo xtask importers`: every SSP archive of `cargo xtask ssp` in OMSimulator 3, in Ecos and in
//! libcosim (its SSP loader), each scenario's checks evaluated as cosim evaluates them
//! (examples/python/ssp_importers.py), and the table of engine, scenario, step and figures into
//! target/importers/.
//!
//! Not part of `cargo xtask test` or CI: OMSimulator has no package this project can install (its
//! pip package downloads a native build at install time), so this command builds it from its
//! sources, once, under target/tools/OMSimulator, at the pinned commits below: it clones
//! `OMSIMULATOR_GIT` and `OMSIMULATOR_3RDPARTY_GIT` (by default the public repositories; either may
//! be a local clone or mirror), checks out the commits without the test suite (a sparse checkout:
//! the build does not need it), and builds with CMake (about 25 minutes on 2 cores). Nothing of
//! it is committed. Ecos is the PyPI package `ecospy`, pinned, in its own virtual environment
//! target/tools/importers-venv (with libcosimpy, and lxml, which OMSimulator's Python package
//! needs); its native library needs Debian's libtbb12. Where the xtask runs as root, the Debian packages (cmake,
//! g++, git, libtbb12) install themselves.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::platforms::Selection;
use crate::{apt, fmu, python, root, run, ssp, target_dir, Result};

/// OMSimulator v3.0.0-114 (the version the SSPs were first tried with): the newest commit whose
/// 3rdParty submodule commit builds it.
pub const OMSIMULATOR_COMMIT: &str = "acb56d9d9c8ecbe4408fcee0f2a548daf3d7573b";
/// Its 3rdParty submodule ("Prepare for cmake 4.0").
pub const OMSIMULATOR_3RDPARTY_COMMIT: &str = "1168b8e255c1d57563a5f90ae31df2ba62f3c676";
const OMSIMULATOR_GIT: &str = "https://github.com/OpenModelica/OMSimulator.git";
const OMSIMULATOR_3RDPARTY_GIT: &str = "https://github.com/OpenModelica/OMSimulator-3rdParty.git";
/// The Python packages of the importers' environment.
const REQUIREMENTS: [&str; 4] = ["ecospy==0.7.2", "libcosimpy==0.0.6", "lxml==6.1.3", "numpy==2.4.6"];
/// Where Debian's libtbb12 puts the library Ecos loads.
const LIBTBB: &str = "/usr/lib/x86_64-linux-gnu/libtbb.so.12";

/// The engines `ssp_importers.py` knows.
pub const ENGINES: [&str; 3] = ["omsimulator", "ecos", "libcosim"];

fn tools() -> PathBuf {
    target_dir().join("tools")
}

fn omsimulator_dir() -> PathBuf {
    tools().join("OMSimulator")
}

/// Where the results go: table.md and rows.json.
pub fn output_dir() -> PathBuf {
    target_dir().join("importers")
}

/// Builds the host FMUs and the SSPs, makes sure OMSimulator and Ecos are there (OMSimulator only
/// when it is one of `engines`), and runs every SSP in each engine of `engines` (all when empty).
pub fn run_all(engines: &[String]) -> Result {
    for engine in engines {
        if !ENGINES.contains(&engine.as_str()) {
            return Err(format!("unknown engine {engine:?}; the engines are {}", ENGINES.join(", ")));
        }
    }
    let wanted = |engine: &str| engines.is_empty() || engines.iter().any(|e| e == engine);
    fmu::build(Selection::Host)?;
    ssp::build(&[])?;
    let python = ensure_venv()?;
    let mut command = Command::new(&python);
    if wanted("omsimulator") {
        let python_path = ensure_omsimulator()?;
        command.env("PYTHONPATH", python_path);
    }
    if wanted("ecos") {
        apt::ensure_file(Path::new(LIBTBB), "libtbb12")?;
    }
    let mut archives: Vec<PathBuf> = fs::read_dir(ssp::output_dir())
        .map_err(|e| format!("could not list {}: {e}", ssp::output_dir().display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "ssp"))
        .collect();
    archives.sort();
    let out = output_dir();
    fs::create_dir_all(&out).map_err(|e| format!("could not create {}: {e}", out.display()))?;
    command.arg(root().join("examples/python/ssp_importers.py")).args(&archives);
    for engine in engines {
        command.args(["--engine", engine]);
    }
    command.arg("--markdown").arg(out.join("table.md")).arg("--json").arg(out.join("rows.json")).current_dir(root());
    println!("==> every SSP in {}", if engines.is_empty() { ENGINES.join(" and ") } else { engines.join(" and ") });
    run(&mut command).map_err(|e| format!("{e}: a run failed or a check does not hold (table in {})", out.join("table.md").display()))?;
    println!("==> table in {}", out.join("table.md").display());
    Ok(())
}

/// target/tools/importers-venv with [`REQUIREMENTS`] (installed again only when they change).
fn ensure_venv() -> Result<PathBuf> {
    let venv = tools().join("importers-venv");
    let python = venv.join("bin").join("python");
    if !python.exists() {
        python::create_venv(&venv)?;
    }
    let stamp = venv.join("requirements.installed.txt");
    let wanted = REQUIREMENTS.join("\n");
    if fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        println!("==> installing {} into {}", REQUIREMENTS.join(" "), venv.display());
        run(Command::new(&python).args(["-m", "pip", "install", "--quiet"]).args(REQUIREMENTS))?;
        fs::write(&stamp, &wanted).map_err(|e| format!("could not write {}: {e}", stamp.display()))?;
    }
    Ok(python)
}

/// OMSimulator built and installed under target/tools/OMSimulator/install at the pinned commits
/// (once: a stamp names the commits); returns the folder of its Python package's parent.
fn ensure_omsimulator() -> Result<PathBuf> {
    let dir = omsimulator_dir();
    let install = dir.join("install");
    let stamp = install.join("built-from.txt");
    let wanted = format!("{OMSIMULATOR_COMMIT}\n{OMSIMULATOR_3RDPARTY_COMMIT}\n");
    if fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) {
        if let Some(python_path) = python_package_parent(&install) {
            return Ok(python_path);
        }
    }
    apt::ensure_tool("git", "git")?;
    apt::ensure_tool("cmake", "cmake")?;
    apt::ensure_tool("g++", "g++")?;
    let source = std::env::var("OMSIMULATOR_GIT").unwrap_or_else(|_| OMSIMULATOR_GIT.to_string());
    let third_party = std::env::var("OMSIMULATOR_3RDPARTY_GIT").unwrap_or_else(|_| OMSIMULATOR_3RDPARTY_GIT.to_string());
    checkout(&source, &dir, OMSIMULATOR_COMMIT, &["/*", "!/testsuite/"])?;
    // The submodule, checked out in its place by hand (a clone of the superproject has it empty).
    let third_party_dir = dir.join("3rdParty");
    if !third_party_dir.join(".git").exists() {
        let _ = fs::remove_dir_all(&third_party_dir);
    }
    checkout(&third_party, &third_party_dir, OMSIMULATOR_3RDPARTY_COMMIT, &["/*"])?;
    let build = dir.join("build");
    println!("==> building OMSimulator {OMSIMULATOR_COMMIT} (CMake, Release; about 25 minutes on 2 cores)");
    run(Command::new("cmake")
        .arg("-S")
        .arg(&dir)
        .arg("-B")
        .arg(&build)
        .arg(format!("-DCMAKE_INSTALL_PREFIX={}", install.display()))
        .arg("-DCMAKE_BUILD_TYPE=Release"))?;
    let jobs = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).to_string();
    run(Command::new("nice").arg("cmake").arg("--build").arg(&build).args(["--target", "install", "-j", &jobs]))?;
    let python_path = python_package_parent(&install)
        .ok_or_else(|| format!("the OMSimulator build installed no Python package (OMSimulator/__init__.py) under {}", install.display()))?;
    fs::write(&stamp, wanted).map_err(|e| format!("could not write {}: {e}", stamp.display()))?;
    Ok(python_path)
}

/// The folder holding the installed package `OMSimulator` (its library folder: lib, or
/// `lib/<multiarch>` on Debian), whose `capi.py` finds libOMSimulator.so beside the package.
fn python_package_parent(install: &Path) -> Option<PathBuf> {
    let lib = install.join("lib");
    let mut candidates = vec![lib.clone()];
    if let Ok(entries) = fs::read_dir(&lib) {
        candidates.extend(entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()));
    }
    candidates.into_iter().find(|dir| dir.join("OMSimulator").join("__init__.py").is_file())
}

/// `commit` of the repository at `url` in `dir` (cloned when `dir` has no clone), with only the
/// paths of the sparse-checkout `patterns`.
fn checkout(url: &str, dir: &Path, commit: &str, patterns: &[&str]) -> Result {
    let git = |args: &[&str]| {
        let mut command = Command::new("git");
        command.arg("-C").arg(dir).args(args);
        command
    };
    if !dir.join(".git").exists() {
        println!("==> cloning {url} into {}", dir.display());
        run(Command::new("git").args(["clone", "--no-checkout", "--quiet", url]).arg(dir))?;
    }
    run(git(&["sparse-checkout", "set", "--no-cone"]).args(patterns))?;
    run(&mut git(&["-c", "advice.detachedHead=false", "checkout", "--quiet", "--force", "--detach", commit]))
        .map_err(|e| format!("{e}: {url} has no commit {commit}? (set OMSIMULATOR_GIT / OMSIMULATOR_3RDPARTY_GIT to a clone that has it)"))
}
