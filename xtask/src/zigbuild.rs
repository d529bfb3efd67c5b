//! The toolchain that links the Linux (glibc 2.17) and macOS FMU binaries: cargo-zigbuild and zig.
//!
//! `cargo zigbuild --target x86_64-unknown-linux-gnu.2.17` compiles as `cargo build --target
//! x86_64-unknown-linux-gnu` does but links with `zig cc`, which links against zig's stubs of glibc
//! 2.17 instead of the build machine's glibc (the same for aarch64, whose glibc starts at 2.17). A function that glibc 2.17 lacks then fails the link
//! instead of binding to a newer symbol version, and the binary loads on any glibc from 2.17 on
//! (RHEL/CentOS 7 and every later enterprise Linux). cargo-zigbuild also swaps `-lgcc_s` for zig's
//! LLVM libunwind, linked statically, so the binary needs no libgcc_s either.
//! [`crate::symbols::check_portability`] proves both on every build. For the macOS targets zig
//! links against its own stubs of libSystem, so no Apple SDK is needed.
//!
//! Both tools are pinned and installed on first use from PyPI into one virtual environment,
//! target/tools/zig-venv, so that a fresh clone needs nothing but cargo and Python 3 (and a
//! repeated run touches no network): the `ziglang` package ships the zig binary (cargo-zigbuild runs
//! it as `python -m ziglang`), the `cargo-zigbuild` package the cargo-zigbuild binary, prebuilt
//! (installing it from crates.io compiled it, some 1.5 CPU minutes of a first run).
//!
//! Zig's and cargo-zigbuild's caches live in target/tools too, so `cargo clean` removes everything.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{python, run, target_dir, Result};

pub const CARGO_ZIGBUILD_VERSION: &str = "0.24.0";
pub const ZIGLANG_VERSION: &str = "0.15.2";

fn tools_dir() -> PathBuf {
    target_dir().join("tools")
}

/// The installed toolchain.
pub struct Toolchain {
    cargo_zigbuild: PathBuf,
    /// The Python of the venv that holds the `ziglang` package.
    python: PathBuf,
}

impl Toolchain {
    /// Installs the pinned cargo-zigbuild and zig where they are missing or of another version.
    pub fn ensure() -> Result<Toolchain> {
        let python = ensure_venv()?;
        let cargo_zigbuild = python.parent().expect("the venv's bin folder").join("cargo-zigbuild");
        match installed_version(&cargo_zigbuild) {
            Some(version) if version == CARGO_ZIGBUILD_VERSION => Ok(Toolchain { cargo_zigbuild, python }),
            other => Err(format!("installed cargo-zigbuild {CARGO_ZIGBUILD_VERSION}, but {} reports {other:?}", cargo_zigbuild.display())),
        }
    }

    /// `cargo zigbuild rustc --release --target T` (`x86_64-unknown-linux-gnu.2.17`, ...), with the
    /// environment that makes it use this toolchain's zig and caches; the caller adds the package
    /// and its crate type.
    pub fn release_rustc(&self, target: &str) -> Command {
        let caches = tools_dir();
        let mut command = Command::new(&self.cargo_zigbuild);
        command.args(["rustc", "--release", "--target", target]);
        command
            .env("CARGO_ZIGBUILD_PYTHON_PATH", &self.python)
            .env("CARGO_ZIGBUILD_CACHE_DIR", caches.join("zigbuild-cache"))
            .env("ZIG_GLOBAL_CACHE_DIR", caches.join("zig-cache"))
            .env("ZIG_LOCAL_CACHE_DIR", caches.join("zig-cache"));
        // cargo-zigbuild runs the cargo named by CARGO, so the toolchain of this xtask carries over.
        if let Some(cargo) = std::env::var_os("CARGO") {
            command.env("CARGO", cargo);
        }
        command
    }

    /// `zig cc` (the test step builds the aarch64 C importer with it).
    pub fn zig_cc(&self) -> Command {
        let caches = tools_dir();
        let mut command = Command::new(&self.python);
        command
            .args(["-m", "ziglang", "cc"])
            .env("ZIG_GLOBAL_CACHE_DIR", caches.join("zig-cache"))
            .env("ZIG_LOCAL_CACHE_DIR", caches.join("zig-cache"));
        command
    }

    /// zig's `lib` folder (its libc headers and stubs, libSystem.tbd among them).
    pub fn zig_lib_dir(&self) -> Result<PathBuf> {
        let output = Command::new(&self.python)
            .args(["-c", "import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), 'lib'))"])
            .output()
            .map_err(|e| format!("could not run {}: {e}", self.python.display()))?;
        let dir = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
        if output.status.success() && dir.is_dir() {
            Ok(dir)
        } else {
            Err(format!("could not find zig's lib folder: {}", String::from_utf8_lossy(&output.stderr).trim()))
        }
    }

    /// The Python that has zig; the FMU check loads the unwinding probe with it (ctypes).
    pub fn python(&self) -> &Path {
        &self.python
    }
}

/// The version `cargo-zigbuild --version` prints ("cargo-zigbuild 0.24.0"), if the binary runs.
fn installed_version(binary: &Path) -> Option<String> {
    let output = Command::new(binary).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.trim().strip_prefix("cargo-zigbuild ").map(str::to_string)
}

/// The Python of target/tools/zig-venv with `ziglang` and `cargo-zigbuild` at the pinned
/// versions, installed from PyPI if needed. A stamp file records the installed versions, so that a
/// repeated run asks no registry.
fn ensure_venv() -> Result<PathBuf> {
    let venv = tools_dir().join("zig-venv");
    let python = venv.join("bin").join("python");
    let stamp = venv.join("tools.installed");
    let pins = [format!("ziglang=={ZIGLANG_VERSION}"), format!("cargo-zigbuild=={CARGO_ZIGBUILD_VERSION}")];
    let installed = pins.join(" ");
    if python.exists() && fs::read_to_string(&stamp).ok().as_deref() == Some(installed.as_str()) {
        return Ok(python);
    }
    if !python.exists() {
        python::create_venv(&venv)?;
    }
    println!("==> installing zig and cargo-zigbuild (PyPI {installed}) into {}", venv.display());
    run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).args(&pins))?;
    let output = Command::new(&python)
        .args(["-m", "ziglang", "version"])
        .output()
        .map_err(|e| format!("could not run {} -m ziglang version: {e}", python.display()))?;
    let version = String::from_utf8_lossy(&output.stdout).trim().to_string();
    if version != ZIGLANG_VERSION {
        return Err(format!(
            "installed ziglang {ZIGLANG_VERSION}, but `{} -m ziglang version` says {version:?} ({})",
            python.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    fs::write(&stamp, &installed).map_err(|e| format!("could not write {}: {e}", stamp.display()))?;
    Ok(python)
}
