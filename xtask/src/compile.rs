//! How the FMU binaries of every platform are compiled and linked ([`crate::platforms::Build`]).
//!
//! Each package is built for each platform by one `cargo rustc --lib --crate-type cdylib`
//! invocation (cargo passes a crate type for one target only): `cargo zigbuild rustc` for the
//! zig-linked Linux targets, `cargo rustc` for the others (Windows linked by mingw-w64 gcc, macOS
//! by rust-lld). The first package of a platform compiles the dependencies the others share.
//!
//! `--crate-type cdylib` is what makes the release profile's LTO happen: the models' `[lib]`
//! sections also name `rlib` (for the tests and the xtask), and cargo silently leaves LTO out of a
//! library that emits an rlib as well (rustc cannot run LTO for an rlib). On Windows, LTO is what
//! drops the code a model never calls: rustc compiles `x86_64-pc-windows-gnu` without a section per
//! function (`function-sections: false` in its target spec), so the linker's `--gc-sections` can
//! only drop whole codegen units, and RigidBody's DLL kept most of parry3d.
//!
//! Every invocation is the same on every run, and each target's settings are per-target variables
//! (`CARGO_TARGET_<TRIPLE>_LINKER`, `..._RUSTFLAGS`), so the host's build scripts and proc macros
//! keep their fingerprints and a run with nothing changed compiles nothing.
//!
//! The standard library of each Rust target comes from rustup (`rustup target add`, once).
//! macOS: rust-lld (shipped with every rustup toolchain) links as Apple's ld64 does, exported
//! symbols list included, against the text stubs (.tbd) of libSystem that zig ships; libc and libm
//! are libSystem on macOS, so their stubs are the same file. No Apple SDK is needed; rustc warns
//! that it found none (xcrun), which is expected here.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::models::MODELS;
use crate::platforms::{self, Build, Platform};
use crate::zigbuild::Toolchain;
use crate::{apt, cargo, root, run, target_dir, Result};

/// The linker of the Windows binaries (Debian's gcc-mingw-w64-x86-64).
pub const MINGW_GCC: &str = "x86_64-w64-mingw32-gcc";

/// Builds every model's release library and the unwinding probe for `platforms` ([`packages`]):
/// one invocation per package and platform (cargo passes a crate type for one target only).
pub fn build_libraries(toolchain: &Toolchain, platforms: &[&Platform]) -> Result {
    ensure_rust_targets(platforms)?;
    let packages = packages();
    for platform in platforms {
        println!("==> building {} (release; {})", packages.join(", "), how_built(platform));
        for package in &packages {
            let mut command = match platform.build {
                Build::Zig { .. } => toolchain.release_rustc(&platform.cargo_target()),
                Build::Mingw | Build::Lld => cargo_rustc(toolchain, platform)?,
            };
            run(command.args(cdylib_arguments(package)).current_dir(root()))?;
        }
    }
    Ok(())
}

/// The arguments that build `package`'s library as a cdylib alone, in the target directory.
fn cdylib_arguments(package: &str) -> Vec<String> {
    let target_dir = target_dir().display().to_string();
    ["--lib", "--crate-type", "cdylib", "--target-dir", &target_dir, "--package", package].map(str::to_string).to_vec()
}

/// The packages built: the unwinding probe and every model's package, once each. No model links
/// another's library (the physics they share is the `contact_physics` crate), so each is built
/// alone into the same target directory.
fn packages() -> Vec<&'static str> {
    let mut packages: Vec<&'static str> = vec!["unwind_probe"];
    for model in MODELS {
        if !packages.contains(&model.package) {
            packages.push(model.package);
        }
    }
    packages
}

/// `cargo rustc --release --target T` for a platform cargo links without zig, with the target's
/// linker and flags; the caller adds the package.
fn cargo_rustc(toolchain: &Toolchain, platform: &Platform) -> Result<Command> {
    let mut command = cargo();
    command.args(["rustc", "--release", "--target", platform.triple]);
    match platform.build {
        Build::Mingw => {
            apt::ensure_tool(MINGW_GCC, "gcc-mingw-w64-x86-64")?;
            command.env(platform.cargo_variable("LINKER"), MINGW_GCC);
        }
        Build::Lld => {
            let libraries = macos_stubs(toolchain)?;
            command.env(platform.cargo_variable("LINKER"), rust_lld()?);
            command.env(platform.cargo_variable("RUSTFLAGS"), format!("-Clinker-flavor=ld64.lld -Clink-arg=-L{}", libraries.display()));
        }
        Build::Zig { .. } => unreachable!("zig-linked platforms are built by cargo zigbuild"),
    }
    Ok(command)
}

/// How a platform is built and linked, for the progress line.
fn how_built(platform: &Platform) -> String {
    match platform.build {
        Build::Zig { .. } => format!("cargo zigbuild: {}", platform.cargo_target()),
        Build::Mingw => format!("cargo: {} linked by {MINGW_GCC}", platform.triple),
        Build::Lld => format!("cargo: {} linked by rust-lld", platform.triple),
    }
}

/// Makes sure the standard library of every platform's Rust target is installed: the host's comes
/// with the toolchain, the others are added with `rustup target add` (once, from the network).
fn ensure_rust_targets(platforms: &[&Platform]) -> Result {
    let sysroot = sysroot()?;
    let missing: Vec<&str> =
        platforms.iter().map(|p| p.triple).filter(|triple| !sysroot.join("lib/rustlib").join(triple).join("lib").is_dir()).collect();
    if missing.is_empty() {
        return Ok(());
    }
    println!("==> installing the Rust standard library of {} (rustup target add, once)", missing.join(", "));
    match Command::new("rustup").arg("target").arg("add").args(&missing).status() {
        Ok(status) if status.success() => Ok(()),
        other => Err(format!(
            "the Rust targets {} are not installed and `rustup target add {}` failed ({}); install them, or build the host platform alone \
             with `cargo xtask fmu --host`",
            missing.join(", "),
            missing.join(" "),
            other.map_or_else(|e| e.to_string(), |status| status.to_string())
        )),
    }
}

/// The sysroot of the rustc that cargo uses (`rustc --print sysroot`).
fn sysroot() -> Result<PathBuf> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output =
        Command::new(&rustc).args(["--print", "sysroot"]).output().map_err(|e| format!("could not run rustc --print sysroot: {e}"))?;
    if !output.status.success() {
        return Err(format!("rustc --print sysroot failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()))
}

/// The toolchain's rust-lld (`<sysroot>/lib/rustlib/<host>/bin/rust-lld`).
fn rust_lld() -> Result<PathBuf> {
    let path = sysroot()?.join("lib/rustlib").join(platforms::host().triple).join("bin/rust-lld");
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!("the Rust toolchain has no rust-lld ({}), which links the macOS binaries", path.display()))
    }
}

/// target/tools/macos-stubs: libSystem.tbd from zig's package, and libc.tbd and libm.tbd as copies
/// of it (rustc links macOS libraries with -lSystem -lc -lm).
fn macos_stubs(toolchain: &Toolchain) -> Result<PathBuf> {
    let source = toolchain.zig_lib_dir()?.join("libc/darwin/libSystem.tbd");
    let stubs = target_dir().join("tools").join("macos-stubs");
    let bytes = fs::read(&source).map_err(|e| format!("could not read zig's libSystem stubs {}: {e}", source.display()))?;
    fs::create_dir_all(&stubs).map_err(|e| format!("could not create {}: {e}", stubs.display()))?;
    for name in ["libSystem.tbd", "libc.tbd", "libm.tbd"] {
        write_if_changed(&stubs.join(name), &bytes)?;
    }
    Ok(stubs)
}

/// Writes `bytes` unless the file holds them already (its time stamp then stays).
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result {
    if fs::read(path).ok().as_deref() == Some(bytes) {
        return Ok(());
    }
    fs::write(path, bytes).map_err(|e| format!("could not write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_is_built_once() {
        let packages = packages();
        assert_eq!(packages[0], "unwind_probe");
        let built: Vec<&str> = packages.iter().copied().filter(|p| *p != "unwind_probe").collect();
        let mut models: Vec<&str> = MODELS.iter().map(|m| m.package).collect();
        let mut sorted = built.clone();
        sorted.sort();
        models.sort();
        models.dedup();
        assert_eq!(sorted, models);
        assert_eq!(built.len(), models.len(), "a package built twice: {built:?}");
    }
}
