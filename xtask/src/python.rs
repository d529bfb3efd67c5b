//! The Python virtual environment in target/venv, shared by `cargo xtask test` and `demo`.
//!
//! The requirements are pinned in tests/python/requirements.txt; they are installed again only when
//! that file changes (a copy of the installed version is kept as a stamp in the venv), so that a
//! repeated run does not touch the network. The demo installs only the pinned lines of what its
//! examples import ([`DEMO_PACKAGES`]): a first run skips the test suite's packages (pytest, dask,
//! libcosimpy), which `cargo xtask test` adds to the same venv later.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{root, run, target_dir, Result};

const REQUIREMENTS: &str = "tests/python/requirements.txt";
const STAMP: &str = "requirements.installed.txt";
const DEMO_STAMP: &str = "requirements.demo.installed.txt";

/// The packages the demo's FMPy examples import (examples/python/falling_sphere.py, step_sizes.py).
pub const DEMO_PACKAGES: [&str; 3] = ["fmpy", "numpy", "matplotlib"];

fn venv_dir() -> PathBuf {
    target_dir().join("venv")
}

/// The Python that creates the venv: `CONTACTFORCE_PYTHON` if set, else `python3`.
fn base_python() -> Command {
    Command::new(std::env::var_os("CONTACTFORCE_PYTHON").unwrap_or_else(|| "python3".into()))
}

/// The venv's folder and Python interpreter (the venv created if missing), and the requirements
/// file's path and text.
fn venv_and_requirements() -> Result<(PathBuf, PathBuf, PathBuf, String)> {
    let venv = venv_dir();
    let python = venv.join("bin").join("python");
    if !python.exists() {
        create_venv(&venv)?;
    }
    let requirements_path = root().join(REQUIREMENTS);
    let requirements =
        fs::read_to_string(&requirements_path).map_err(|e| format!("could not read {}: {e}", requirements_path.display()))?;
    Ok((venv, python, requirements_path, requirements))
}

/// Creates the venv if needed, installs the requirements if they changed, and returns the venv's
/// Python interpreter.
pub fn ensure_venv() -> Result<PathBuf> {
    let (venv, python, requirements_path, requirements) = venv_and_requirements()?;
    let stamp = venv.join(STAMP);
    if fs::read_to_string(&stamp).ok().as_deref() != Some(requirements.as_str()) {
        println!("==> installing {REQUIREMENTS} into {}", venv.display());
        run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "--requirement"]).arg(&requirements_path))?;
        fs::write(&stamp, &requirements).map_err(|e| format!("could not write {}: {e}", stamp.display()))?;
    }
    Ok(python)
}

/// The venv with the pinned lines of [`DEMO_PACKAGES`] alone (nothing installed when the whole
/// requirements are in already); returns the venv's Python interpreter.
pub fn ensure_demo_venv() -> Result<PathBuf> {
    let (venv, python, _, requirements) = venv_and_requirements()?;
    if fs::read_to_string(venv.join(STAMP)).ok().as_deref() == Some(requirements.as_str()) {
        return Ok(python);
    }
    let pins = demo_pins(&requirements)?;
    let stamp = venv.join(DEMO_STAMP);
    let wanted = pins.join("\n");
    if fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        println!("==> installing {} (pinned in {REQUIREMENTS}) into {}", pins.join(" "), venv.display());
        run(Command::new(&python).args(["-m", "pip", "install", "--quiet"]).args(&pins))?;
        fs::write(&stamp, &wanted).map_err(|e| format!("could not write {}: {e}", stamp.display()))?;
    }
    Ok(python)
}

/// The requirement lines (`fmpy==0.3.32`, ...) of [`DEMO_PACKAGES`] in `requirements`, in its
/// order; an error names a package without a line.
fn demo_pins(requirements: &str) -> Result<Vec<String>> {
    let name = |line: &str| line.split(['=', '<', '>', '[', ' ', ';']).next().unwrap_or("").trim().to_ascii_lowercase();
    let pins: Vec<String> = requirements
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#') && DEMO_PACKAGES.contains(&name(line).as_str()))
        .map(str::to_string)
        .collect();
    match DEMO_PACKAGES.iter().find(|package| !pins.iter().any(|line| name(line) == **package)) {
        Some(missing) => Err(format!("{REQUIREMENTS} has no line for {missing}, which the demo's examples import")),
        None => Ok(pins),
    }
}

/// Creates a virtual environment at `venv` (also used for the zig toolchain's venv, see
/// [`crate::zigbuild`]).
pub fn create_venv(venv: &Path) -> Result {
    println!("==> creating the Python virtual environment {}", venv.display());
    if try_create_venv(venv) {
        return Ok(());
    }
    // Debian and Ubuntu ship `venv` without ensurepip unless python3-venv is installed.
    if !running_as_root() {
        return Err(format!(
            "`python3 -m venv {}` failed; install the Debian/Ubuntu package python3-venv (apt-get install python3-venv) \
             or set CONTACTFORCE_PYTHON to a Python with a working venv module",
            venv.display()
        ));
    }
    println!("==> python3 -m venv failed; installing python3-venv with apt-get");
    run(Command::new("apt-get").args(["install", "-y", "python3-venv"]))
        .map_err(|e| format!("python3 -m venv failed and installing python3-venv failed too: {e}"))?;
    if try_create_venv(venv) {
        Ok(())
    } else {
        Err(format!("`python3 -m venv {}` failed even after installing python3-venv", venv.display()))
    }
}

/// Runs `python3 -m venv`; a failed attempt leaves no half-made venv behind.
fn try_create_venv(venv: &Path) -> bool {
    let created = base_python().args(["-m", "venv"]).arg(venv).status().map(|s| s.success()).unwrap_or(false);
    if !created {
        let _ = fs::remove_dir_all(venv);
    }
    created
}

pub(crate) fn running_as_root() -> bool {
    Command::new("id").arg("-u").output().map(|out| String::from_utf8_lossy(&out.stdout).trim() == "0").unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_installs_the_pinned_lines_of_its_packages_alone() {
        let requirements = fs::read_to_string(root().join(REQUIREMENTS)).unwrap();
        let pins = demo_pins(&requirements).unwrap();
        assert_eq!(pins.len(), DEMO_PACKAGES.len(), "{pins:?}");
        for (pin, package) in pins.iter().zip(["fmpy", "numpy", "matplotlib"]) {
            assert!(pin.starts_with(&format!("{package}==")), "{pin} is not a pinned {package}");
        }
        assert!(!pins.iter().any(|pin| pin.starts_with("pytest") || pin.starts_with("dask") || pin.starts_with("libcosimpy")));
        let without_numpy: String = requirements.lines().filter(|l| !l.starts_with("numpy")).collect::<Vec<_>>().join("\n");
        assert!(demo_pins(&without_numpy).unwrap_err().contains("numpy"));
    }
}
