//! `cargo xtask fuzz [--seconds N]`: the `c_api` fuzz target (fuzz/) for a fixed time.
//!
//! cargo-fuzz needs the nightly toolchain (AddressSanitizer and libFuzzer's instrumentation), so
//! the fuzz crate is a workspace of its own and this command is not part of `test` or CI. The
//! libFuzzer options are the ones fuzz/README.md explains; the corpus grows in fuzz/corpus/c_api
//! and a crash is written to fuzz/artifacts/c_api/ (neither is committed).

use std::process::Command;

use crate::{root, Result};

pub const DEFAULT_SECONDS: u64 = 300;

/// libFuzzer's options besides the time: a hang of 10 s or an allocation over 4 GiB is a
/// finding; inputs up to 2 KiB from the start (a long operation sequence reaches deeper states).
const OPTIONS: [&str; 5] = ["-timeout=10", "-rss_limit_mb=4096", "-len_control=0", "-max_len=2048", "-print_final_stats=1"];

/// The rustup proxy with an explicit toolchain: `$CARGO` names the stable toolchain's binary,
/// which cannot switch to nightly.
fn nightly_cargo() -> Command {
    let mut command = Command::new("cargo");
    command.arg("+nightly");
    command
}

pub fn run(seconds: u64) -> Result {
    let fuzz_dir = root().join("fuzz");
    if !nightly_cargo().arg("--version").output().is_ok_and(|o| o.status.success()) {
        return Err("the nightly toolchain is needed for cargo fuzz (rustup toolchain install nightly)".to_string());
    }
    if !nightly_cargo().args(["fuzz", "--version"]).output().is_ok_and(|o| o.status.success()) {
        println!("==> cargo install cargo-fuzz");
        crate::run(Command::new("cargo").args(["install", "--locked", "cargo-fuzz"]))?;
    }
    println!("==> cargo +nightly fuzz run c_api for {seconds} s (fuzz/README.md)");
    crate::run(nightly_cargo()
        .args(["fuzz", "run", "--release", "--debug-assertions", "c_api", "--"])
        .arg(format!("-max_total_time={seconds}"))
        .args(OPTIONS)
        .current_dir(fuzz_dir))
}
