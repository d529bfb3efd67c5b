//! The Python virtual environment in target/venv, shared by `cargo xtask test` and `demo`.
//!
//! The requirements are pinned in tests/python/requirements.txt; they are installed again only when
//! that file changes (a copy of the installed version is kept as a stamp in the venv), so that a
//! repeated run does not touch the network.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{root, run, target_dir, Result};

const REQUIREMENTS: &str = "tests/python/requirements.txt";
const STAMP: &str = "requirements.installed.txt";

fn venv_dir() -> PathBuf {
    target_dir().join("venv")
}

/// The Python that creates the venv: `CONTACTFORCE_PYTHON` if set, else `python3`.
fn base_python() -> Command {
    Command::new(std::env::var_os("CONTACTFORCE_PYTHON").unwrap_or_else(|| "python3".into()))
}

/// Creates the venv if needed, installs the requirements if they changed, and returns the venv's
/// Python interpreter.
pub fn ensure_venv() -> Result<PathBuf> {
    let venv = venv_dir();
    let python = venv.join("bin").join("python");
    if !python.exists() {
        create_venv(&venv)?;
    }
    let requirements_path = root().join(REQUIREMENTS);
    let requirements =
        fs::read_to_string(&requirements_path).map_err(|e| format!("could not read {}: {e}", requirements_path.display()))?;
    let stamp = venv.join(STAMP);
    if fs::read_to_string(&stamp).ok().as_deref() != Some(requirements.as_str()) {
        println!("==> installing {REQUIREMENTS} into {}", venv.display());
        run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "--requirement"]).arg(&requirements_path))?;
        fs::write(&stamp, &requirements).map_err(|e| format!("could not write {}: {e}", stamp.display()))?;
    }
    Ok(python)
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
