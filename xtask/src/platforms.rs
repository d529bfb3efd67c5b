//! The platforms the FMU binaries are built for: one row each in [`PLATFORMS`], everything else
//! (the builds, the checks, the packaging, the runs under wine and qemu) reads the table.
//!
//! Every model is compiled once per platform, with both FMI versions' exports, and that binary goes
//! into both FMUs of the model under the platform's FMI 2 and FMI 3 folder names. FMI 2 names no
//! folder for aarch64 Linux, so that binary is in the FMI 3 FMU only; FMI 2's `darwin64` is one
//! universal Mach-O that joins the two macOS rows (x86-64 and arm64), so that both kinds of Mac
//! load it.
//!
//! How a row is built ([`Build`], carried out by [`crate::compile`]): cargo-zigbuild links the
//! Linux binaries with zig against glibc 2.17 ([`crate::zigbuild`]); Debian's mingw-w64 gcc links
//! the Windows one; the toolchain's own rust-lld links the macOS ones against zig's stubs of
//! libSystem (zig's Mach-O linker ignores the list of exported symbols, so a zig-linked dylib
//! exports every Rust symbol). The standard library of each Rust target comes from rustup.

use std::path::PathBuf;

use crate::target_dir;

/// How a platform's binaries are linked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// cargo-zigbuild; `glibc` is the floor of a Linux target (`<triple>.2.17`).
    Zig { glibc: Option<(u32, u32)> },
    /// cargo build with `x86_64-w64-mingw32-gcc` as the linker (Debian's gcc-mingw-w64-x86-64).
    Mingw,
    /// cargo build with rust-lld as a Mach-O linker (`-Clinker-flavor=ld64.lld`).
    Lld,
}

/// The object file format of a platform's binaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Elf,
    Pe,
    MachO,
}

impl Format {
    /// The file name extension of a shared library (FMI: `.so`, `.dll`, `.dylib`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Elf => "so",
            Format::Pe => "dll",
            Format::MachO => "dylib",
        }
    }
}

/// How `cargo xtask test` runs a platform's binaries on this (x86-64 Linux) machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runner {
    /// Natively (and under valgrind).
    Native,
    /// Under wine, the C importer built with mingw-w64.
    Wine,
    /// Under qemu-user, the C importer built with zig, with the loader and glibc of Debian's
    /// cross package for the architecture.
    Qemu { qemu: &'static str, sysroot: &'static str, package: &'static str, zig_target: &'static str },
    /// Not at all: the object-file checks of `cargo xtask fmu` are the proof (macOS).
    Unavailable,
}

/// One platform: where its binary goes in each FMU and how it is built.
#[derive(Debug)]
pub struct Platform {
    /// The FMI 3 platform tuple (`binaries/<fmi3>/`); also the platform's name in messages.
    pub fmi3: &'static str,
    /// The FMI 2 folder (`binaries/<fmi2>/`), None where FMI 2 defines none. Rows that share a
    /// folder (darwin64) are joined into one universal Mach-O.
    pub fmi2: Option<&'static str>,
    /// The Rust target.
    pub triple: &'static str,
    pub build: Build,
    pub format: Format,
    /// The architecture the binary must be for (checked with the object-file reader).
    pub architecture: object::Architecture,
    pub runner: Runner,
}

pub const GLIBC_2_17: Option<(u32, u32)> = Some((2, 17));

pub const PLATFORMS: [Platform; 5] = [
    Platform {
        fmi3: "x86_64-linux",
        fmi2: Some("linux64"),
        triple: "x86_64-unknown-linux-gnu",
        build: Build::Zig { glibc: GLIBC_2_17 },
        format: Format::Elf,
        architecture: object::Architecture::X86_64,
        runner: Runner::Native,
    },
    Platform {
        fmi3: "x86_64-windows",
        fmi2: Some("win64"),
        triple: "x86_64-pc-windows-gnu",
        build: Build::Mingw,
        format: Format::Pe,
        architecture: object::Architecture::X86_64,
        runner: Runner::Wine,
    },
    Platform {
        fmi3: "aarch64-linux",
        fmi2: None,
        triple: "aarch64-unknown-linux-gnu",
        build: Build::Zig { glibc: GLIBC_2_17 },
        format: Format::Elf,
        architecture: object::Architecture::Aarch64,
        runner: Runner::Qemu {
            qemu: "qemu-aarch64",
            sysroot: "/usr/aarch64-linux-gnu",
            package: "libc6-arm64-cross",
            zig_target: "aarch64-linux-gnu.2.17",
        },
    },
    Platform {
        fmi3: "x86_64-darwin",
        fmi2: Some("darwin64"),
        triple: "x86_64-apple-darwin",
        build: Build::Lld,
        format: Format::MachO,
        architecture: object::Architecture::X86_64,
        runner: Runner::Unavailable,
    },
    Platform {
        fmi3: "aarch64-darwin",
        fmi2: Some("darwin64"),
        triple: "aarch64-apple-darwin",
        build: Build::Lld,
        format: Format::MachO,
        architecture: object::Architecture::Aarch64,
        runner: Runner::Unavailable,
    },
];

/// The platform the xtask runs on and tests natively (the first row).
pub fn host() -> &'static Platform {
    &PLATFORMS[0]
}

/// Which platforms a build covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Every row of [`PLATFORMS`]: what the README's commands and CI build.
    All,
    /// The host platform alone (`cargo xtask fmu --host`), for quick local work.
    Host,
}

impl Selection {
    pub fn platforms(self) -> Vec<&'static Platform> {
        match self {
            Selection::All => PLATFORMS.iter().collect(),
            Selection::Host => vec![host()],
        }
    }
}

impl Platform {
    /// The `--target` argument: cargo-zigbuild reads a glibc floor from a suffix.
    pub fn cargo_target(&self) -> String {
        match self.build {
            Build::Zig { glibc: Some((major, minor)) } => format!("{}.{major}.{minor}", self.triple),
            _ => self.triple.to_string(),
        }
    }

    /// `CARGO_TARGET_<TRIPLE>_<KEY>`: cargo's per-target environment variable.
    pub fn cargo_variable(&self, key: &str) -> String {
        format!("CARGO_TARGET_{}_{key}", self.triple.to_uppercase().replace('-', "_"))
    }

    /// The file cargo writes for the cdylib of `package` (`lib<p>.so`, `<p>.dll`, `lib<p>.dylib`),
    /// in the target directory.
    pub fn built_library(&self, package: &str) -> PathBuf {
        let prefix = if self.format == Format::Pe { "" } else { "lib" };
        let release = target_dir().join(self.triple).join("release");
        release.join(format!("{prefix}{package}.{}", self.format.extension()))
    }

    /// `<ContactForce>.so` etc.: the binary's name inside an FMU.
    pub fn fmu_file_name(&self, model_name: &str) -> String {
        format!("{model_name}.{}", self.format.extension())
    }
}


/// The FMI 2 folders in table order, each with its rows (more than one: a universal binary).
pub fn fmi2_folders<'a>(platforms: &[&'a Platform]) -> Vec<(&'static str, Vec<&'a Platform>)> {
    let mut folders: Vec<(&'static str, Vec<&'a Platform>)> = Vec::new();
    for &platform in platforms {
        let Some(folder) = platform.fmi2 else { continue };
        match folders.iter_mut().find(|(name, _)| *name == folder) {
            Some((_, rows)) => rows.push(platform),
            None => folders.push((folder, vec![platform])),
        }
    }
    folders
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fmi_folder_is_a_standard_one_and_used_once() {
        let fmi3: Vec<&str> = PLATFORMS.iter().map(|p| p.fmi3).collect();
        assert_eq!(fmi3, ["x86_64-linux", "x86_64-windows", "aarch64-linux", "x86_64-darwin", "aarch64-darwin"]);
        let all: Vec<&Platform> = PLATFORMS.iter().collect();
        let fmi2: Vec<(&str, Vec<&str>)> = fmi2_folders(&all).into_iter().map(|(f, rows)| (f, rows.iter().map(|p| p.fmi3).collect())).collect();
        assert_eq!(
            fmi2,
            [("linux64", vec!["x86_64-linux"]), ("win64", vec!["x86_64-windows"]), ("darwin64", vec!["x86_64-darwin", "aarch64-darwin"])]
        );
        // A universal binary joins Mach-O rows only, of different architectures.
        for (_, rows) in fmi2_folders(&all).iter().filter(|(_, rows)| rows.len() > 1) {
            assert!(rows.iter().all(|p| p.format == Format::MachO));
            assert_ne!(rows[0].architecture, rows[1].architecture);
        }
    }

    #[test]
    fn targets_and_library_names_follow_the_platform() {
        assert_eq!(host().cargo_target(), "x86_64-unknown-linux-gnu.2.17");
        assert_eq!(PLATFORMS[1].cargo_target(), "x86_64-pc-windows-gnu");
        assert_eq!(PLATFORMS[2].cargo_target(), "aarch64-unknown-linux-gnu.2.17");
        assert_eq!(PLATFORMS[4].cargo_target(), "aarch64-apple-darwin");
        assert!(host().built_library("rigid_body").ends_with("x86_64-unknown-linux-gnu/release/librigid_body.so"));
        assert!(PLATFORMS[1].built_library("rigid_body").ends_with("x86_64-pc-windows-gnu/release/rigid_body.dll"));
        assert!(PLATFORMS[3].built_library("rigid_body").ends_with("x86_64-apple-darwin/release/librigid_body.dylib"));
        assert_eq!(PLATFORMS[1].fmu_file_name("RigidBody"), "RigidBody.dll");
        assert_eq!(PLATFORMS[4].cargo_variable("LINKER"), "CARGO_TARGET_AARCH64_APPLE_DARWIN_LINKER");
        assert_eq!(Selection::Host.platforms().len(), 1);
        assert_eq!(Selection::All.platforms().len(), PLATFORMS.len());
    }
}
