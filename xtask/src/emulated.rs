//! `cargo xtask test`, step "other platforms": the C importer of the valgrind step
//! (tests/valgrind/driver.c) on the binaries that do not run natively here, through the same call
//! sequences: the Windows binaries under wine (the importer built with mingw-w64), the aarch64
//! Linux ones under qemu-user (the importer built with zig, Debian's aarch64 glibc as the
//! sysroot). Each binary comes out of the FMU archive as it ships. Each run writes the outputs of
//! its steps, which must equal those of the x86-64 Linux binary (run natively with the same
//! arguments) within [`RELATIVE_TOLERANCE`] (values that are the rounding of zero, [`ABSOLUTE_TOLERANCE`] of the largest); and the unwinding probe, built like the FMU binaries,
//! must catch its panic on each platform.
//!
//! wine 8 (Debian 12) lacks `ProcessPrng` in bcryptprimitives.dll, which Rust's standard library
//! imports and Windows 10 and later have: tests/wine/process_prng.c builds a stand-in DLL that the
//! runs load from the importer's folder (WINEDLLOVERRIDES=bcryptprimitives=n). It is test-only and
//! never ships. The macOS binaries cannot run here; `cargo xtask fmu` checks them with the
//! object-file reader ([`crate::macho`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::compile::MINGW_GCC;
use crate::platforms::{self, Platform, Runner, PLATFORMS};
use crate::valgrind::{self, Case};
use crate::zigbuild::Toolchain;
use crate::{apt, root, run, target_dir, Result};

/// Two outputs agree when they differ by at most this, relative to the larger magnitude of the
/// two or, for a value near zero, to the largest magnitude the output takes over the host's
/// trace (a torque of 4e-15 N.m that should be 0, in a trace where it reaches 10 N.m, differs by
/// its rounding, not relatively).
pub const RELATIVE_TOLERANCE: f64 = 1e-12;

/// Outputs that differ by less than this share of the largest output of the host's trace agree
/// whatever their relative difference: an output that is the rounding of zero throughout a trace
/// (a torque of 3e-14 N.m that the aarch64 build gives with the other sign, a force of 1e-12 N
/// beside contact forces of 6 kN) has no scale of its own to be relative to; its rounding
/// follows the magnitudes summed into it.
pub const ABSOLUTE_TOLERANCE: f64 = 1e-12;

fn output_dir() -> PathBuf {
    target_dir().join("emulated")
}

/// One platform's importer: how to start it on a library.
struct Importer {
    platform: &'static Platform,
    dir: PathBuf,
    driver: PathBuf,
}

impl Importer {
    /// Builds the importer for `platform` into `target/emulated/<platform>/`.
    fn build(platform: &'static Platform, toolchain: &Toolchain) -> Result<Importer> {
        let dir = output_dir().join(platform.fmi3);
        fs::create_dir_all(&dir).map_err(|e| format!("could not create {}: {e}", dir.display()))?;
        let source = root().join("tests/valgrind/driver.c");
        let warnings = ["-std=gnu11", "-O1", "-Wall", "-Wextra", "-Werror"];
        let driver = match platform.runner {
            Runner::Native => {
                apt::ensure_tool("cc", "gcc")?;
                let driver = dir.join("driver");
                run(Command::new("cc").args(warnings).arg("-o").arg(&driver).arg(&source).args(["-ldl", "-lm"]))?;
                driver
            }
            Runner::Wine => {
                apt::ensure_tool(MINGW_GCC, "gcc-mingw-w64-x86-64")?;
                apt::ensure_tool("wine", "wine")?;
                let driver = dir.join("driver.exe");
                run(Command::new(MINGW_GCC).args(warnings).arg("-o").arg(&driver).arg(&source))?;
                // The stand-in for wine's bcryptprimitives.dll, beside the importer.
                run(Command::new(MINGW_GCC)
                    .args(warnings)
                    .arg("-shared")
                    .arg("-o")
                    .arg(dir.join("bcryptprimitives.dll"))
                    .arg(root().join("tests/wine/process_prng.c"))
                    .arg("-ladvapi32"))?;
                driver
            }
            Runner::Qemu { qemu, sysroot, package, zig_target } => {
                apt::ensure_tool(qemu, "qemu-user")?;
                apt::ensure_file(&Path::new(sysroot).join("lib/libc.so.6"), package)?;
                let driver = dir.join("driver");
                run(toolchain.zig_cc().args(["-target", zig_target]).args(warnings).arg("-o").arg(&driver).arg(&source).args(["-ldl", "-lm"]))?;
                driver
            }
            Runner::Unavailable => return Err(format!("{} binaries cannot run here", platform.fmi3)),
        };
        Ok(Importer { platform, dir, driver })
    }

    /// A path as the importer sees it: wine maps the Unix root to drive Z:.
    fn path(&self, path: &Path) -> String {
        let text = path.to_str().expect("a UTF-8 path").to_string();
        match self.platform.runner {
            Runner::Wine => format!("Z:{}", text.replace('/', "\\")),
            _ => text,
        }
    }

    /// Runs the importer with `arguments` (library first); the output, or an error with it.
    fn run(&self, arguments: &[String]) -> Result<Output> {
        let mut command = match self.platform.runner {
            Runner::Native => Command::new(&self.driver),
            Runner::Wine => {
                let mut command = Command::new("wine");
                command
                    .arg(&self.driver)
                    .env("WINEPREFIX", output_dir().join("wine-prefix"))
                    .env("WINEDEBUG", "-all")
                    .env("WINEDLLOVERRIDES", "bcryptprimitives=n");
                command
            }
            Runner::Qemu { qemu, sysroot, .. } => {
                let mut command = Command::new(qemu);
                command.args(["-L", sysroot]).arg(&self.driver);
                command
            }
            Runner::Unavailable => unreachable!("no importer is built"),
        };
        let output = command.args(arguments).env("RUST_BACKTRACE", "0").output().map_err(|e| format!("could not start {command:?}: {e}"))?;
        if output.status.success() {
            Ok(output)
        } else {
            Err(format!(
                "the C importer on {} ({}) failed with {}:\n{}{}",
                self.platform.fmi3,
                arguments.first().map_or("", String::as_str),
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ))
        }
    }

    /// Runs `case` on this platform's binary from its FMU; returns the trace, or None when the FMU
    /// has no binary for the platform.
    /// `case` names files as this importer sees them ([`Importer::path`]).
    fn trace(&self, case: &Case) -> Result<Option<Vec<Vec<f64>>>> {
        let Some((archive, binary)) = case.binary(self.platform) else { return Ok(None) };
        let library = valgrind::extract(&archive, &binary, &self.dir.join(case.name()))?;
        let trace = self.dir.join(format!("{}.trace", case.name()));
        let mut arguments = vec![self.path(&library), case.version.to_string(), case.token.clone()];
        arguments.extend(case.specs.iter().cloned());
        arguments.push(format!("trace={}", self.path(&trace)));
        self.run(&arguments)?;
        read_trace(&trace).map(Some)
    }

    /// Calls the unwinding probe built for this platform: its panic must be caught.
    fn probe(&self) -> Result {
        let library = self.platform.built_library("unwind_probe");
        self.run(&[self.path(&library), "probe".to_string()]).map(|_| ())
    }
}

/// One comparison of a binary's outputs with the host's.
pub struct Comparison {
    pub case: String,
    pub platform: &'static str,
    pub values: usize,
    pub identical: usize,
    pub largest_relative_difference: f64,
}

/// Runs every case on every platform with an emulator and compares with the host's outputs.
pub fn check() -> Result<Vec<Comparison>> {
    let toolchain = Toolchain::ensure()?;
    let dir = output_dir();
    fs::create_dir_all(&dir).map_err(|e| format!("could not create {}: {e}", dir.display()))?;
    let hull = valgrind::write_hull(&dir)?;
    let host = Importer::build(platforms::host(), &toolchain)?;
    println!("==> the C importer on the {} binaries (the reference)", host.platform.fmi3);
    let mut references = Vec::new();
    for case in valgrind::cases(&host.path(&hull)) {
        references.push(host.trace(&case)?.expect("the host has every FMU"));
    }
    let mut comparisons = Vec::new();
    for platform in PLATFORMS.iter().filter(|p| matches!(p.runner, Runner::Wine | Runner::Qemu { .. })) {
        println!("==> the C importer on the {} binaries ({})", platform.fmi3, if platform.runner == Runner::Wine { "wine" } else { "qemu" });
        let importer = Importer::build(platform, &toolchain)?;
        importer.probe()?;
        println!("{}: the unwinding probe caught its panic", platform.fmi3);
        for (case, reference) in valgrind::cases(&importer.path(&hull)).iter().zip(&references) {
            let Some(trace) = importer.trace(case)? else { continue };
            let comparison = compare(&case.name(), platform.fmi3, reference, &trace)?;
            println!(
                "{} {}: {} outputs over {} steps, {} bit-identical to x86_64-linux, largest relative difference {:.1e}",
                comparison.case,
                comparison.platform,
                comparison.values,
                trace.len(),
                comparison.identical,
                comparison.largest_relative_difference
            );
            comparisons.push(comparison);
        }
    }
    Ok(comparisons)
}

/// A trace file: one step a line, the outputs separated by spaces.
fn read_trace(path: &Path) -> Result<Vec<Vec<f64>>> {
    let text = fs::read_to_string(path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
    text.lines()
        .map(|line| line.split_whitespace().map(|v| v.parse::<f64>().map_err(|e| format!("{}: {v:?}: {e}", path.display()))).collect())
        .collect()
}

/// Compares a trace with the reference: the same shape, every value within the tolerance.
fn compare(case: &str, platform: &'static str, reference: &[Vec<f64>], trace: &[Vec<f64>]) -> Result<Comparison> {
    let shape = |t: &[Vec<f64>]| t.iter().map(Vec::len).collect::<Vec<_>>();
    if shape(reference) != shape(trace) || reference.is_empty() {
        return Err(format!("{case} on {platform}: the trace has another shape than the host's"));
    }
    let mut comparison = Comparison { case: case.to_string(), platform, values: 0, identical: 0, largest_relative_difference: 0.0 };
    let mut worst = None;
    let scale: Vec<f64> = (0..reference[0].len()).map(|output| reference.iter().map(|row| row[output].abs()).filter(|x| x.is_finite()).fold(0.0, f64::max)).collect();
    let largest = scale.iter().fold(0.0, |a: f64, b| a.max(*b));
    let rounding = ABSOLUTE_TOLERANCE * largest;
    for (step, (a, b)) in reference.iter().zip(trace).enumerate() {
        for (output, (&x, &y)) in a.iter().zip(b).enumerate() {
            comparison.values += 1;
            if x.to_bits() == y.to_bits() {
                comparison.identical += 1;
                continue;
            }
            // Both values the rounding of zero beside the trace's largest.
            if (x - y).abs() < rounding && x.abs().max(y.abs()) < 1e3 * rounding {
                continue;
            }
            let relative = relative_difference(x, y, scale[output]);
            if relative > comparison.largest_relative_difference {
                comparison.largest_relative_difference = relative;
                worst = Some((step, output, x, y));
            }
        }
    }
    match worst {
        Some((step, output, x, y)) if comparison.largest_relative_difference > RELATIVE_TOLERANCE => Err(format!(
            "{case} on {platform}: step {step}, output {output} is {y:e} where x86_64-linux gives {x:e} (relative difference {:.1e}, \
             tolerance {RELATIVE_TOLERANCE:e})",
            comparison.largest_relative_difference
        )),
        _ => Ok(comparison),
    }
}

/// |x - y| relative to the larger magnitude of the two and `scale`; infinite when one is NaN and
/// the other not.
fn relative_difference(x: f64, y: f64, scale: f64) -> f64 {
    if x == y || (x.is_nan() && y.is_nan()) {
        return 0.0;
    }
    let difference = (x - y).abs() / x.abs().max(y.abs()).max(scale);
    if difference.is_nan() {
        f64::INFINITY
    } else {
        difference
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traces_agree_within_the_tolerance_and_the_worst_value_is_named() {
        let reference = vec![vec![1.0, 0.0, -2.5], vec![3.0, 1e-300, 4.0]];
        let close = vec![vec![1.0 + 4e-16, 0.0, -2.5], vec![3.0, 1e-300, 4.0 * (1.0 + 5e-13)]];
        let comparison = compare("M-fmi2", "p", &reference, &close).unwrap();
        assert_eq!((comparison.values, comparison.identical), (6, 4));
        assert!(comparison.largest_relative_difference > 4e-13 && comparison.largest_relative_difference < 6e-13);
        let far = vec![vec![1.0, 0.0, -2.5], vec![3.0, 1e-300, 4.0 * (1.0 + 3e-12)]];
        let error = compare("M-fmi2", "p", &reference, &far).err().unwrap();
        assert!(error.starts_with("M-fmi2 on p: step 1, output 2 is 4.000000000012e0 where x86_64-linux gives 4e0"), "{error}");
        assert!(compare("M-fmi2", "p", &reference, &reference[..1]).is_err());
        assert_eq!(relative_difference(0.0, 1e-20, 0.0), 1.0);
        assert_eq!(relative_difference(f64::NAN, 1.0, 0.0), f64::INFINITY);
        // Near zero, relative to the output's largest magnitude over the trace.
        assert!(relative_difference(3.72e-15, 3.70e-15, 10.0) < 1e-17);
        let reference = vec![vec![10.0, 0.0], vec![3.70e-15, 1e-16]];
        let rounded = vec![vec![10.0, 0.0], vec![3.72e-15, -1.1e-16]];
        assert!(compare("M-fmi2", "p", &reference, &rounded).is_ok(), "differences below the rounding of zero agree");
        let reference = vec![vec![10.0, 0.0], vec![3.70e-15, 1e-10]];
        let rounded = vec![vec![10.0, 0.0], vec![3.72e-15, 1.3e-10]];
        let error = compare("M-fmi2", "p", &reference, &rounded).err().unwrap();
        assert!(error.starts_with("M-fmi2 on p: step 1, output 1 is"), "only the output whose scale is its own differs: {error}");
    }

    #[test]
    fn wine_sees_unix_paths_on_drive_z() {
        let importer = Importer { platform: &PLATFORMS[1], dir: PathBuf::new(), driver: PathBuf::new() };
        assert_eq!(importer.path(Path::new("/work/target/box.csv")), "Z:\\work\\target\\box.csv");
        let importer = Importer { platform: &PLATFORMS[2], ..importer };
        assert_eq!(importer.path(Path::new("/work/target/box.csv")), "/work/target/box.csv");
    }
}
