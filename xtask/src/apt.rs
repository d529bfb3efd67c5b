//! Tools from Debian packages that some steps need (valgrind, gcc, mingw-w64, wine, qemu and a
//! cross glibc): where one is missing and the xtask runs as root (CI), it installs the package with
//! apt-get; otherwise it says which package to install.

use std::path::Path;
use std::process::Command;

use crate::{run, Result};

/// Makes sure `tool` runs (`tool --version`); installs the Debian package `package` if not.
pub fn ensure_tool(tool: &str, package: &str) -> Result {
    ensure(|| Command::new(tool).arg("--version").output().map(|o| o.status.success()).unwrap_or(false), tool, package)
}

/// Makes sure `file` exists; installs the Debian package `package` if not.
pub fn ensure_file(file: &Path, package: &str) -> Result {
    ensure(|| file.exists(), &file.display().to_string(), package)
}

/// When `present()` is false and this runs as root (CI), installs `package` with apt-get (after
/// an `apt-get update` if the first try fails), else says how to.
fn ensure(present: impl Fn() -> bool, what: &str, package: &str) -> Result {
    if present() {
        return Ok(());
    }
    if !crate::python::running_as_root() {
        return Err(format!("{what} is not installed; install the Debian/Ubuntu package {package} (apt-get install {package})"));
    }
    println!("==> {what} is missing; installing {package} with apt-get");
    if run(Command::new("apt-get").args(["install", "-y", "--no-install-recommends", package])).is_err() {
        run(Command::new("apt-get").arg("update"))?;
        run(Command::new("apt-get").args(["install", "-y", "--no-install-recommends", package]))?;
    }
    if present() {
        Ok(())
    } else {
        Err(format!("{what} is still missing after installing {package}"))
    }
}
