//! `cosim run <scenario.toml>... [--out DIR] [--fmu-dir DIR] [--output-interval SECONDS]`: runs
//! scenarios with a progress bar each, writes `DIR/<scenario>.csv` (at the output interval) and
//! `DIR/<scenario>.png` (positions, velocities, forces against time, from every communication
//! point), and prints the summary table. Exits non-zero when a scenario
//! fails to run or a check fails.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cosim::{summary_table, Options, Outcome, Scenario, Simulation};
use indicatif::{ProgressBar, ProgressStyle};

const USAGE: &str = "usage: cosim run <scenario.toml>... [--out DIR] [--fmu-dir DIR] [--output-interval SECONDS]

  run               run each scenario, write DIR/<name>.csv and DIR/<name>.png (default DIR:
                    results) and print a summary
  --out             folder for the CSV files
  --fmu-dir         another folder to look for FMUs in (before the workspace's target/fmu)
  --output-interval time between CSV rows for every scenario, in place of the scenario's
                    output_interval key (0: every communication point); checks and plots
                    always use every communication point";

struct Arguments {
    scenarios: Vec<PathBuf>,
    out: PathBuf,
    fmu_dirs: Vec<PathBuf>,
    /// Overrides each scenario's `output_interval` when given.
    output_interval: Option<f64>,
}

fn parse(args: &[String]) -> Result<Arguments, String> {
    let mut args = args.iter();
    match args.next().map(String::as_str) {
        Some("run") => {}
        Some("-h" | "--help" | "help") | None => return Err(USAGE.to_string()),
        Some(other) => return Err(format!("unknown command {other:?}\n\n{USAGE}")),
    }
    let mut parsed = Arguments { scenarios: Vec::new(), out: PathBuf::from("results"), fmu_dirs: Vec::new(), output_interval: None };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => parsed.out = args.next().ok_or("--out needs a folder")?.into(),
            "--fmu-dir" => parsed.fmu_dirs.push(args.next().ok_or("--fmu-dir needs a folder")?.into()),
            "--output-interval" => {
                let text = args.next().ok_or("--output-interval needs a number of seconds")?;
                match text.parse::<f64>() {
                    Ok(interval) if interval.is_finite() && interval >= 0.0 => parsed.output_interval = Some(interval),
                    _ => return Err(format!("--output-interval {text}: not a non-negative number of seconds")),
                }
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}\n\n{USAGE}")),
            path => parsed.scenarios.push(path.into()),
        }
    }
    if parsed.scenarios.is_empty() {
        return Err(format!("no scenario file given\n\n{USAGE}"));
    }
    Ok(parsed)
}

/// File name for a scenario's CSV: its name with anything but letters, digits, '-' and '_' as '_'.
fn file_name(scenario: &str) -> String {
    scenario.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

fn run_one(path: &Path, options: &Options, arguments: &Arguments) -> Result<Outcome, cosim::Error> {
    let scenario = Scenario::from_file(path)?;
    let simulation = Simulation::new(&scenario, options)?;
    let progress = ProgressBar::new(simulation.steps() as u64);
    progress.set_style(
        ProgressStyle::with_template("{prefix} [{wide_bar}] {pos}/{len} steps, {elapsed} (eta {eta})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    progress.set_prefix(scenario.name.clone());
    let outcome = simulation.run_with_progress(&progress);
    progress.finish_and_clear();
    let outcome = outcome?;
    let csv = arguments.out.join(format!("{}.csv", file_name(&outcome.scenario)));
    let interval = arguments.output_interval.or(scenario.output_interval).unwrap_or(0.0);
    let written = outcome.results().thinned(interval);
    written.write_csv(&csv)?;
    eprintln!("{}: wrote {} ({} of {} samples)", outcome.scenario, csv.display(), written.len(), outcome.results().len());
    let png = arguments.out.join(format!("{}.png", file_name(&outcome.scenario)));
    let title = if scenario.description.is_empty() { outcome.scenario.clone() } else { format!("{}: {}", outcome.scenario, scenario.description) };
    if cosim::plot::write_png(outcome.results(), &title, &png)? {
        eprintln!("{}: wrote {}", outcome.scenario, png.display());
    }
    for warning in &outcome.warnings {
        eprintln!("{}: {warning}", outcome.scenario);
    }
    Ok(outcome)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arguments = match parse(&args) {
        Ok(arguments) => arguments,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let mut options = Options::default();
    options.fmu_dirs.splice(0..0, arguments.fmu_dirs.iter().cloned());

    let mut outcomes = Vec::new();
    let mut failures = Vec::new();
    for path in &arguments.scenarios {
        match run_one(path, &options, &arguments) {
            Ok(outcome) => outcomes.push(outcome),
            Err(error) => failures.push(error.to_string()),
        }
    }
    if !outcomes.is_empty() {
        print!("{}", summary_table(&outcomes));
    }
    for failure in &failures {
        eprintln!("error: {failure}");
    }
    let failed_checks = outcomes.iter().flat_map(|o| &o.checks).filter(|c| !c.passed).count();
    if failed_checks > 0 {
        eprintln!("{failed_checks} check(s) failed");
    }
    if failures.is_empty() && failed_checks == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
