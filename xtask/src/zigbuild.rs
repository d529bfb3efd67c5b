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
//! Both tools are pinned and installed on first use under target/tools, so that a fresh clone
//! needs nothing but cargo and Python 3 (and a repeated run touches no network):
//! - cargo-zigbuild from crates.io: `cargo install --locked --root target/tools`;
//! - zig from PyPI, the `ziglang` package (which ships the zig binary), in its own virtual
//!   environment target/tools/zig-venv; cargo-zigbuild runs it as `python -m ziglang`.
//!
//! Zig's and cargo-zigbuild's caches live in target/tools too, so `cargo clean` removes everything.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, python, run, target_dir, Result};

pub const CARGO_ZIGBUILD_VERSION: &str = "0.24.1";
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
        Ok(Toolchain { cargo_zigbuild: ensure_cargo_zigbuild()?, python: ensure_zig()? })
    }

    /// `cargo zigbuild --release --target T...` (`x86_64-unknown-linux-gnu.2.17`, ...), with the
    /// environment that makes it use this toolchain's zig and caches; the caller adds the packages.
    pub fn release_build(&self, targets: &[String]) -> Command {
        let caches = tools_dir();
        let mut command = Command::new(&self.cargo_zigbuild);
        command.args(["zigbuild", "--release"]);
        for target in targets {
            command.args(["--target", target]);
        }
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

/// target/tools/bin/cargo-zigbuild at the pinned version, installed from crates.io if needed.
fn ensure_cargo_zigbuild() -> Result<PathBuf> {
    let binary = tools_dir().join("bin").join("cargo-zigbuild");
    if installed_version(&binary).as_deref() == Some(CARGO_ZIGBUILD_VERSION) {
        return Ok(binary);
    }
    println!("==> installing cargo-zigbuild {CARGO_ZIGBUILD_VERSION} into {} (once; about 2 minutes)", tools_dir().display());
    // No default features: they add only macOS universal2 (fat Mach-O) support.
    run(cargo()
        .args(["install", "--quiet", "--locked", "--force", "--no-default-features", "--version", CARGO_ZIGBUILD_VERSION, "cargo-zigbuild"])
        .arg("--root")
        .arg(tools_dir()))?;
    match installed_version(&binary) {
        Some(version) if version == CARGO_ZIGBUILD_VERSION => Ok(binary),
        other => Err(format!("installed cargo-zigbuild {CARGO_ZIGBUILD_VERSION}, but {} reports {other:?}", binary.display())),
    }
}

/// The version `cargo-zigbuild --version` prints ("cargo-zigbuild 0.24.1"), if the binary runs.
fn installed_version(binary: &Path) -> Option<String> {
    let output = Command::new(binary).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.trim().strip_prefix("cargo-zigbuild ").map(str::to_string)
}

/// The Python of target/tools/zig-venv with `ziglang` at the pinned version, installed from PyPI if
/// needed. A stamp file records the installed version, so that a repeated run asks no registry.
fn ensure_zig() -> Result<PathBuf> {
    let venv = tools_dir().join("zig-venv");
    let python = venv.join("bin").join("python");
    let stamp = venv.join("ziglang.installed");
    if python.exists() && fs::read_to_string(&stamp).ok().as_deref() == Some(ZIGLANG_VERSION) {
        return Ok(python);
    }
    if !python.exists() {
        python::create_venv(&venv)?;
    }
    println!("==> installing zig (PyPI ziglang=={ZIGLANG_VERSION}) into {}", venv.display());
    run(Command::new(&python)
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"])
        .arg(format!("ziglang=={ZIGLANG_VERSION}")))?;
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
    fs::write(&stamp, ZIGLANG_VERSION).map_err(|e| format!("could not write {}: {e}", stamp.display()))?;
    Ok(python)
}
