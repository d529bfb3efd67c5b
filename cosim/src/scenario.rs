//! Scenario files: which FMUs, their parameters, the connections, prescribed inputs, what to
//! record and what to check. The format is documented in cosim/README.md; this module only parses
//! the TOML into plain structs. Names are checked against the FMUs later, in [`crate::plan`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::Error;

/// A parsed scenario file. Every field is public so that Rust code may build or alter a scenario
/// (a parameter sweep, say) before running it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Shown in the summary and used for the CSV file name; defaults to the file's stem.
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub start_time: f64,
    pub stop_time: f64,
    /// Communication step (s).
    pub step: f64,
    /// FMU instances by name (the name is the first component of every variable path).
    pub fmus: BTreeMap<String, FmuEntry>,
    #[serde(default)]
    pub connections: Vec<Connection>,
    #[serde(default)]
    pub inputs: Vec<Input>,
    /// Variables to record (array shorthands allowed); empty: every output of every instance.
    #[serde(default)]
    pub record: Vec<String>,
    /// Time between the rows written to the CSV file (s); absent or 0: every communication
    /// point. Checks and plots always see every communication point, so a coarse interval only
    /// makes the file smaller.
    #[serde(default)]
    pub output_interval: Option<f64>,
    #[serde(default)]
    pub checks: Vec<CheckSpec>,
    /// The folder of the scenario file: relative FMU paths start here.
    #[serde(skip)]
    pub base_dir: PathBuf,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FmuEntry {
    /// The FMU archive: absolute, relative to the scenario file, or a file name found in one of
    /// the FMU folders of [`crate::Options`] (the workspace's target/fmu by default).
    pub path: String,
    /// Start values by variable name. TOML dotted keys are joined back into names, so
    /// `normal.law = 3` and `"normal.law" = 3` mean the same. Arrays set `name[1]`, `name[2]`, ...
    #[serde(default)]
    pub parameters: toml::Table,
    /// Internal sub-steps per communication step, passed to the FMU as
    /// `sub_step_parameter = step / sub_steps`.
    #[serde(default)]
    pub sub_steps: Option<u32>,
    /// The parameter that takes the internal step size, e.g. `solver.max_step`.
    #[serde(default)]
    pub sub_step_parameter: Option<String>,
    /// fmi2Instantiate's loggingOn (debug logging); warnings and errors are logged regardless.
    #[serde(default)]
    pub logging: bool,
}

/// `from` (an output) drives `to` (an input). Either both are scalars (`body.r_0[3]`) or both
/// name arrays of the same length (`body.r_0` to `contact.frame_b.r_0`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Connection {
    pub from: String,
    pub to: String,
}

/// An input driven by the scenario rather than by another FMU: a constant `value`, or a `table`
/// of rows `[t, v1, v2, ...]` interpolated linearly in time (held constant outside the table).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Input {
    pub to: String,
    #[serde(default)]
    pub value: Option<toml::Value>,
    #[serde(default)]
    pub table: Option<Vec<Vec<f64>>>,
}

/// What a check reduces a recorded column to.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Statistic {
    /// The value at the stop time.
    #[default]
    Final,
    /// The value at the start time.
    Initial,
    Min,
    Max,
    /// The largest absolute value.
    MaxAbs,
    /// The mean over the recorded samples.
    Mean,
    /// The value at `time`, interpolated linearly between samples.
    At,
    /// How many times the value rises from at most `threshold` to above it (impacts, say).
    RisingEdges,
    /// max - min: how far the value moved (creep over a window, say).
    Range,
    /// The least-squares slope of the value against time (an acceleration from a velocity).
    Slope,
}

impl Statistic {
    pub fn name(self) -> &'static str {
        match self {
            Statistic::Final => "final",
            Statistic::Initial => "initial",
            Statistic::Min => "min",
            Statistic::Max => "max",
            Statistic::MaxAbs => "max_abs",
            Statistic::Mean => "mean",
            Statistic::At => "at",
            Statistic::RisingEdges => "rising_edges",
            Statistic::Range => "range",
            Statistic::Slope => "slope",
        }
    }
}

/// A check for the summary table: `statistic(quantity)` over the samples (those in `window`
/// when given), times `scale`, against either `expected`, passing when
/// `|obtained - expected| <= tolerance + relative_tolerance * |expected|`, or the bounds
/// `at_least <= obtained <= at_most` (either bound alone is allowed).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CheckSpec {
    /// A label for the table; defaults to `statistic(quantity)`.
    #[serde(default)]
    pub name: Option<String>,
    /// A scalar variable path, recorded automatically if `record` does not list it.
    pub quantity: String,
    #[serde(default)]
    pub statistic: Statistic,
    /// The time for `statistic = "at"`.
    #[serde(default)]
    pub time: Option<f64>,
    /// The level for `statistic = "rising_edges"` (default 0).
    #[serde(default)]
    pub threshold: Option<f64>,
    /// `[from, to]` (s): only the samples with `from <= t <= to` are reduced (not for `at`).
    #[serde(default)]
    pub window: Option<[f64; 2]>,
    /// Multiplies the statistic before it is compared (default 1): a unit change, or
    /// 1 / reference to compare a ratio (a rebound speed over the impact speed).
    #[serde(default)]
    pub scale: Option<f64>,
    #[serde(default)]
    pub expected: Option<f64>,
    /// Absolute tolerance (default 0).
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// Relative tolerance, a fraction of |expected| (default 0).
    #[serde(default)]
    pub relative_tolerance: Option<f64>,
    /// Lower bound, instead of `expected`.
    #[serde(default)]
    pub at_least: Option<f64>,
    /// Upper bound, instead of `expected`.
    #[serde(default)]
    pub at_most: Option<f64>,
}

impl CheckSpec {
    pub fn label(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        match (self.statistic, self.time, self.window) {
            (Statistic::At, Some(t), _) => format!("{}({}, t = {t})", self.statistic.name(), self.quantity),
            (_, _, Some([from, to])) => format!("{}({}, {from} <= t <= {to})", self.statistic.name(), self.quantity),
            _ => format!("{}({})", self.statistic.name(), self.quantity),
        }
    }

    /// What the check refuses before anything runs.
    fn validate(&self) -> Result<(), Error> {
        let label = self.label();
        let bad = |message: &str| Err(Error::new(format!("check {label}: {message}")));
        if self.statistic == Statistic::At && self.time.is_none() {
            return bad("statistic \"at\" needs a time");
        }
        if let Some([from, to]) = self.window {
            if self.statistic == Statistic::At {
                return bad("statistic \"at\" takes a time, not a window");
            }
            if !(from.is_finite() && to.is_finite() && from <= to) {
                return bad(&format!("window = [{from}, {to}] must be two finite times, the first not after the second"));
            }
        }
        if let Some(scale) = self.scale {
            if !scale.is_finite() || scale == 0.0 {
                return bad(&format!("scale = {scale} must be a finite, non-zero number"));
            }
        }
        let bounded = self.at_least.is_some() || self.at_most.is_some();
        match (self.expected, bounded) {
            (Some(_), true) => return bad("give either expected (with a tolerance) or bounds (at_least, at_most), not both"),
            (None, false) => return bad("give expected (with a tolerance) or at_least / at_most"),
            (Some(_), false) if self.tolerance.is_none() && self.relative_tolerance.is_none() => {
                return bad("give a tolerance, a relative_tolerance or both");
            }
            (None, true) if self.tolerance.is_some() || self.relative_tolerance.is_some() => {
                return bad("a tolerance goes with expected, not with bounds");
            }
            _ => {}
        }
        if let (Some(low), Some(high)) = (self.at_least, self.at_most) {
            if low > high {
                return bad(&format!("at_least = {low} is above at_most = {high}"));
            }
        }
        Ok(())
    }
}

impl Scenario {
    /// Reads and parses a scenario file; the error names the file and TOML's line and column.
    pub fn from_file(path: &Path) -> Result<Scenario, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::new(format!("could not read {}: {e}", path.display())))?;
        let mut scenario = Scenario::parse(&text).map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
        scenario.base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        if scenario.name.is_empty() {
            scenario.name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        }
        Ok(scenario)
    }

    /// Parses scenario text; relative FMU paths will start at the current directory.
    pub fn parse(text: &str) -> Result<Scenario, Error> {
        let scenario: Scenario = toml::from_str(text).map_err(|e| Error::new(e.to_string()))?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// Checks what can be checked without the FMUs.
    fn validate(&self) -> Result<(), Error> {
        let bad = |message: String| Err(Error::new(message));
        if !self.step.is_finite() || self.step <= 0.0 {
            return bad(format!("step = {} must be a positive number of seconds", self.step));
        }
        if let Some(interval) = self.output_interval.filter(|i| !i.is_finite() || *i < 0.0) {
            return bad(format!("output_interval = {interval} must be a non-negative number of seconds (0: every communication point)"));
        }
        if !self.start_time.is_finite() || !self.stop_time.is_finite() || self.stop_time <= self.start_time {
            return bad(format!("stop_time = {} must be finite and after start_time = {}", self.stop_time, self.start_time));
        }
        if self.fmus.is_empty() {
            return bad("the scenario names no FMU ([fmus.NAME] with a path)".to_string());
        }
        for (name, fmu) in &self.fmus {
            if name.is_empty() || name.contains(['.', '[', ']']) {
                return bad(format!("FMU instance name {name:?} must be non-empty without '.', '[' or ']'"));
            }
            match (fmu.sub_steps, &fmu.sub_step_parameter) {
                (Some(0), _) => return bad(format!("fmus.{name}.sub_steps must be at least 1")),
                (Some(_), None) => {
                    return bad(format!("fmus.{name}.sub_steps needs sub_step_parameter, the parameter that takes the internal step"))
                }
                _ => {}
            }
        }
        for input in &self.inputs {
            match (&input.value, &input.table) {
                (Some(_), None) | (None, Some(_)) => {}
                _ => return bad(format!("input to {} needs exactly one of value or table", input.to)),
            }
            if let Some(table) = &input.table {
                if table.is_empty() {
                    return bad(format!("input to {}: the table is empty", input.to));
                }
                let width = table[0].len();
                if width < 2 || table.iter().any(|row| row.len() != width) {
                    return bad(format!("input to {}: every table row must be [t, v1, ...] with the same length", input.to));
                }
                if table.windows(2).any(|w| w[1][0] < w[0][0]) {
                    return bad(format!("input to {}: the table's times must not decrease", input.to));
                }
            }
        }
        for check in &self.checks {
            check.validate()?;
        }
        Ok(())
    }

    /// Finds an FMU archive: an absolute path, or relative to the scenario's folder, or a name in
    /// one of `fmu_dirs`. The error lists every place tried.
    pub fn locate_fmu(&self, path: &str, fmu_dirs: &[PathBuf]) -> Result<PathBuf, Error> {
        let given = Path::new(path);
        let mut tried = Vec::new();
        let candidates: Vec<PathBuf> = if given.is_absolute() {
            vec![given.to_path_buf()]
        } else {
            std::iter::once(self.base_dir.join(given)).chain(fmu_dirs.iter().map(|dir| dir.join(given))).collect()
        };
        for candidate in candidates {
            if candidate.is_file() {
                return Ok(candidate);
            }
            tried.push(candidate.display().to_string());
        }
        Err(Error::new(format!("FMU {path} not found; tried {}", tried.join(", "))))
    }
}

/// Joins nested TOML tables into dotted variable names: `{normal = {law = 3}}` becomes
/// `normal.law = 3`. Arrays and scalars are values.
pub fn flatten_parameters(table: &toml::Table) -> Vec<(String, toml::Value)> {
    fn walk(prefix: &str, table: &toml::Table, out: &mut Vec<(String, toml::Value)>) {
        for (key, value) in table {
            let name = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
            match value {
                toml::Value::Table(inner) => walk(&name, inner, out),
                other => out.push((name, other.clone())),
            }
        }
    }
    let mut out = Vec::new();
    walk("", table, &mut out);
    out
}
