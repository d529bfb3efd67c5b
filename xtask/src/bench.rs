//! `cargo xtask bench [--quick] [FILTER]`: the benchmarks and their table.
//!
//! Builds the FMUs (the FMI cycle benchmark loads the packaged FMI 2 library with dlopen), runs
//! `cargo bench --bench physics --bench fmi_cycle --bench scene` (criterion; `--quick` passes criterion's quick
//! mode, FILTER its name filter), then prints one table of every result in the benchmarks' own
//! order: the time per evaluation (criterion's median), its ratio to the sphere-plane
//! evaluation, and for the benchmarks that evaluate many points the points per second.
//! `cargo xtask bench --table` prints the table of the last results without running anything.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::{cargo, fmu, root, run, target_dir, Result};

/// The benchmark every ratio is relative to.
pub const BASELINE: &str = "pair/sphere-plane";

/// The bench targets, in the order their tables are printed.
const BENCHES: [&str; 3] = ["physics", "fmi_cycle", "scene"];

pub fn run_benchmarks(quick: bool, filter: Option<&str>) -> Result {
    fmu::build(crate::platforms::Selection::All)?;
    let home = criterion_home();
    let mut command = cargo();
    command.args(["bench", "--package", "contact_force"]);
    for bench in BENCHES {
        command.args(["--bench", bench]);
    }
    command.arg("--");
    if quick {
        command.arg("--quick");
    }
    if let Some(filter) = filter {
        command.arg(filter);
    }
    run(command.env("CRITERION_HOME", &home).current_dir(root()))?;
    print_table()?;
    if filter.is_none() {
        sphere_drop_wall_times()?;
    }
    Ok(())
}

/// The sphere drop through the cosim master at 5 us (Instantaneous, scenarios/sphere_drop.toml)
/// and at 1 ms (StepAverage, scenarios/sphere_drop_1ms.toml), side by side in one run: the
/// summary table gives each one's wall time per simulated second.
fn sphere_drop_wall_times() -> Result {
    println!("==> the sphere drop through cosim at 5 us (Instantaneous) and at 1 ms (StepAverage): wall time per simulated second");
    run(cargo()
        .args(["run", "--quiet", "--release", "--package", "cosim", "--", "run", "scenarios/sphere_drop.toml", "scenarios/sphere_drop_1ms.toml"])
        .arg("--out")
        .arg(target_dir().join("bench-cosim"))
        .arg("--fmu-dir")
        .arg(fmu::output_dir())
        .current_dir(root()))
}

/// Prints the table of the results criterion last wrote (`$CRITERION_HOME`, else
/// target/criterion).
pub fn print_table() -> Result {
    let home = std::env::var_os("CRITERION_HOME").map(PathBuf::from).unwrap_or_else(criterion_home);
    let rows = collect(&home)?;
    println!("\n{}", table(&rows));
    let ratios = derivative_ratios(&rows);
    if !ratios.is_empty() {
        println!("Exact derivatives against the outputs, same scene, same run (target: a directional derivative costs less than 10 output evaluations):\n\n{ratios}");
    }
    Ok(())
}

/// Where criterion's results go.
fn criterion_home() -> PathBuf {
    target_dir().join("criterion")
}

/// One benchmark's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// `group/id`, as criterion names it.
    pub name: String,
    /// Points one evaluation works on.
    pub points: usize,
    /// Median time per iteration \[ns\].
    pub nanoseconds: f64,
}

/// Every result named in the benchmarks' order files that criterion has an estimate for.
fn collect(home: &Path) -> Result<Vec<Row>> {
    let estimates = estimates(home)?;
    let mut rows = Vec::new();
    for bench in BENCHES {
        let path = home.join("contactforce-order").join(format!("{bench}.txt"));
        let text = fs::read_to_string(&path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
        for line in text.lines() {
            let Some((name, points)) = line.split_once('\t') else { continue };
            if let Some(nanoseconds) = estimates.get(name) {
                rows.push(Row { name: name.to_string(), points: points.parse().unwrap_or(1), nanoseconds: *nanoseconds });
            }
        }
    }
    if rows.is_empty() {
        return Err(format!("no benchmark results under {}", home.display()));
    }
    Ok(rows)
}

/// The median of every benchmark criterion has measured, by its full id (`group/id`).
fn estimates(home: &Path) -> Result<HashMap<String, f64>> {
    let mut found = HashMap::new();
    let mut folders = vec![home.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "new") {
                    if let Some((name, median)) = read_estimate(&path) {
                        found.insert(name, median);
                    }
                } else if path.file_name().is_none_or(|n| n != "base" && n != "change" && n != "report") {
                    folders.push(path);
                }
            }
        }
    }
    Ok(found)
}

/// Criterion's full id and median \[ns\] from a `new/` folder.
fn read_estimate(folder: &Path) -> Option<(String, f64)> {
    let benchmark: serde_json::Value = serde_json::from_str(&fs::read_to_string(folder.join("benchmark.json")).ok()?).ok()?;
    let estimates: serde_json::Value = serde_json::from_str(&fs::read_to_string(folder.join("estimates.json")).ok()?).ok()?;
    let name = benchmark.get("full_id")?.as_str()?.to_string();
    let median = estimates.get("median")?.get("point_estimate")?.as_f64()?;
    Some((name, median))
}

/// A time in the unit that keeps three significant digits readable.
pub fn format_time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

/// A rate in points per second, as `1.23e8`.
fn format_rate(points: usize, ns: f64) -> String {
    if points <= 1 {
        return String::new();
    }
    format!("{:.2e}", points as f64 / (ns * 1e-9))
}

/// The Markdown table: benchmark, points, time, ratio to [`BASELINE`], points per second.
pub fn table(rows: &[Row]) -> String {
    let baseline = rows.iter().find(|r| r.name == BASELINE).map(|r| r.nanoseconds);
    let mut text = String::from(
        "| benchmark | points | time per evaluation | ratio to sphere-plane | points/s |\n| --- | ---: | ---: | ---: | ---: |\n",
    );
    for row in rows {
        let ratio = baseline.map_or_else(|| "-".to_string(), |b| format!("{:.2}", row.nanoseconds / b));
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            row.name,
            row.points,
            format_time(row.nanoseconds),
            ratio,
            format_rate(row.points, row.nanoseconds)
        ));
    }
    text
}

/// For each scene of the `derivative` group: the times of the outputs, of one directional
/// derivative and of the whole Jacobian, and their ratios to the outputs.
pub fn derivative_ratios(rows: &[Row]) -> String {
    let time = |name: String| rows.iter().find(|r| r.name == name).map(|r| r.nanoseconds);
    let mut text = String::new();
    for row in rows {
        let Some(scene) = row.name.strip_prefix("derivative/").and_then(|n| n.strip_suffix(": outputs")) else { continue };
        let outputs = row.nanoseconds;
        let (Some(directional), Some(jacobian)) = (time(format!("derivative/{scene}: directional")), time(format!("derivative/{scene}: jacobian"))) else {
            continue;
        };
        if text.is_empty() {
            text.push_str("| scene | outputs | directional derivative | ratio | 26-column Jacobian | ratio |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
        }
        text.push_str(&format!(
            "| {scene} | {} | {} | {:.2} | {} | {:.2} |\n",
            format_time(outputs),
            format_time(directional),
            directional / outputs,
            format_time(jacobian),
            jacobian / outputs
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derivative_ratios_pair_each_scene_with_its_outputs() {
        let row = |name: &str, ns: f64| Row { name: name.to_string(), points: 1, nanoseconds: ns };
        let rows = vec![
            row("derivative/s: outputs", 100.0),
            row("derivative/s: directional", 250.0),
            row("derivative/s: jacobian", 1000.0),
            row("derivative/lonely: outputs", 1.0),
        ];
        let text = derivative_ratios(&rows);
        assert!(text.contains("| s | 100.0 ns | 250.0 ns | 2.50 | 1.00 µs | 10.00 |"), "{text}");
        assert!(!text.contains("lonely"));
    }

    #[test]
    fn the_table_gives_times_ratios_and_rates() {
        let rows = vec![
            Row { name: BASELINE.to_string(), points: 1, nanoseconds: 10.0 },
            Row { name: "cloud-plane/1e6 points".to_string(), points: 1_000_000, nanoseconds: 5e6 },
        ];
        let text = table(&rows);
        assert!(text.contains("| pair/sphere-plane | 1 | 10.0 ns | 1.00 |  |"), "{text}");
        assert!(text.contains("| cloud-plane/1e6 points | 1000000 | 5.00 ms | 500000.00 | 2.00e8 |"), "{text}");
    }

    #[test]
    fn times_take_their_unit() {
        assert_eq!(format_time(12.34), "12.3 ns");
        assert_eq!(format_time(1234.0), "1.23 µs");
        assert_eq!(format_time(2.5e7), "25.00 ms");
    }
}
