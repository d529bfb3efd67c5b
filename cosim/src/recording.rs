//! Recorded time series, the checks evaluated on them, and the CSV file.

use std::io::Write;
use std::path::Path;

use crate::scenario::{CheckSpec, Statistic};
use crate::Error;

/// Recorded scalars against time: one sample per communication point, start and stop included.
/// Integer and Boolean variables are stored as numbers (false 0, true 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recording {
    names: Vec<String>,
    time: Vec<f64>,
    columns: Vec<Vec<f64>>,
}

impl Recording {
    pub fn new(names: Vec<String>) -> Recording {
        let columns = names.iter().map(|_| Vec::new()).collect();
        Recording { names, time: Vec::new(), columns }
    }

    pub fn reserve(&mut self, samples: usize) {
        self.time.reserve(samples);
        for column in &mut self.columns {
            column.reserve(samples);
        }
    }

    /// Appends one sample; `row` holds one value per name.
    pub fn push(&mut self, t: f64, row: &[f64]) {
        assert_eq!(row.len(), self.columns.len(), "one value per recorded variable");
        self.time.push(t);
        for (column, &value) in self.columns.iter_mut().zip(row) {
            column.push(value);
        }
    }

    /// The recorded variable paths (`instance.variable`), in column order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn time(&self) -> &[f64] {
        &self.time
    }

    /// The samples of one variable, by its path (`contact.frame_b.f_0[3]`).
    pub fn column(&self, name: &str) -> Option<&[f64]> {
        self.names.iter().position(|n| n == name).map(|i| self.columns[i].as_slice())
    }

    pub fn len(&self) -> usize {
        self.time.len()
    }

    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    /// The value of a variable at time t, interpolated linearly (held outside the recording).
    pub fn value_at(&self, name: &str, t: f64) -> Option<f64> {
        let column = self.column(name)?;
        if column.is_empty() {
            return None;
        }
        let i = self.time.partition_point(|&s| s <= t);
        Some(if i == 0 {
            column[0]
        } else if i == self.time.len() {
            column[i - 1]
        } else {
            let (t0, t1) = (self.time[i - 1], self.time[i]);
            column[i - 1] + (column[i] - column[i - 1]) * (t - t0) / (t1 - t0)
        })
    }

    /// Writes `time,name1,name2,...` and one line per sample.
    pub fn write_csv(&self, path: &Path) -> Result<(), Error> {
        let failed = |e: std::io::Error| Error::new(format!("could not write {}: {e}", path.display()));
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(failed)?;
        }
        let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(failed)?);
        let mut header = String::from("time");
        for name in &self.names {
            header.push(',');
            header.push_str(name);
        }
        writeln!(out, "{header}").map_err(failed)?;
        let mut line = String::new();
        for (i, t) in self.time.iter().enumerate() {
            line.clear();
            line.push_str(&csv_number(*t));
            for column in &self.columns {
                line.push(',');
                line.push_str(&csv_number(column[i]));
            }
            writeln!(out, "{line}").map_err(failed)?;
        }
        out.flush().map_err(failed)
    }
}

/// The shortest text that reads back as the same f64, in exponent form when plain would be long.
fn csv_number(x: f64) -> String {
    if x == 0.0 || (1e-4..1e15).contains(&x.abs()) || !x.is_finite() {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// One row of the summary table.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckResult {
    pub label: String,
    pub quantity: String,
    pub statistic: Statistic,
    pub expected: f64,
    /// NaN when the quantity could not be evaluated (see `note`).
    pub obtained: f64,
    /// The allowed |obtained - expected|: tolerance + relative_tolerance |expected|.
    pub allowed: f64,
    pub passed: bool,
    /// Why a check could not be evaluated; empty otherwise.
    pub note: String,
}

impl CheckResult {
    /// A check computed outside the scenario file (by Rust code looking at the recording), for
    /// the same summary table.
    pub fn new(label: &str, quantity: &str, expected: f64, obtained: f64, allowed: f64) -> CheckResult {
        CheckResult {
            label: label.to_string(),
            quantity: quantity.to_string(),
            statistic: Statistic::Final,
            expected,
            obtained,
            allowed,
            passed: (obtained - expected).abs() <= allowed,
            note: String::new(),
        }
    }
}

/// Reduces the check's column and compares it with the expected value.
pub fn evaluate(check: &CheckSpec, recording: &Recording) -> CheckResult {
    let allowed = check.tolerance.unwrap_or(0.0) + check.relative_tolerance.unwrap_or(0.0) * check.expected.abs();
    let mut result = CheckResult {
        label: check.label(),
        quantity: check.quantity.clone(),
        statistic: check.statistic,
        expected: check.expected,
        obtained: f64::NAN,
        allowed,
        passed: false,
        note: String::new(),
    };
    let Some(column) = recording.column(&check.quantity).filter(|c| !c.is_empty()) else {
        result.note = format!("{} was not recorded", check.quantity);
        return result;
    };
    result.obtained = match check.statistic {
        Statistic::Final => column[column.len() - 1],
        Statistic::Initial => column[0],
        Statistic::Min => column.iter().copied().fold(f64::INFINITY, f64::min),
        Statistic::Max => column.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Statistic::MaxAbs => column.iter().fold(0.0, |m: f64, v| m.max(v.abs())),
        Statistic::Mean => column.iter().sum::<f64>() / column.len() as f64,
        Statistic::At => recording.value_at(&check.quantity, check.time.unwrap_or(f64::NAN)).unwrap_or(f64::NAN),
        Statistic::RisingEdges => {
            let level = check.threshold.unwrap_or(0.0);
            column.windows(2).filter(|w| w[0] <= level && w[1] > level).count() as f64
        }
    };
    result.passed = (result.obtained - result.expected).abs() <= allowed;
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(statistic: Statistic) -> CheckSpec {
        CheckSpec {
            name: None,
            quantity: "x".into(),
            statistic,
            time: Some(0.25),
            threshold: None,
            expected: 0.0,
            tolerance: Some(0.0),
            relative_tolerance: None,
        }
    }

    #[test]
    fn statistics_reduce_the_column_as_documented() {
        let mut recording = Recording::new(vec!["x".into()]);
        for (t, x) in [(0.0, 0.0), (0.5, 2.0), (1.0, -3.0), (1.5, 1.0), (2.0, 0.5)] {
            recording.push(t, &[x]);
        }
        let obtained = |statistic| evaluate(&spec(statistic), &recording).obtained;
        assert_eq!(obtained(Statistic::Final), 0.5);
        assert_eq!(obtained(Statistic::Initial), 0.0);
        assert_eq!(obtained(Statistic::Min), -3.0);
        assert_eq!(obtained(Statistic::Max), 2.0);
        assert_eq!(obtained(Statistic::MaxAbs), 3.0);
        assert_eq!(obtained(Statistic::Mean), 0.1);
        assert_eq!(obtained(Statistic::At), 1.0);
        // 0 -> 2 and -3 -> 1 cross zero upwards.
        assert_eq!(obtained(Statistic::RisingEdges), 2.0);
        assert_eq!(recording.value_at("x", 5.0), Some(0.5));
        assert_eq!(recording.value_at("x", -1.0), Some(0.0));
    }

    #[test]
    fn a_check_passes_within_absolute_plus_relative_tolerance() {
        let mut recording = Recording::new(vec!["x".into()]);
        recording.push(0.0, &[10.5]);
        let mut check = spec(Statistic::Final);
        check.expected = 10.0;
        check.tolerance = Some(0.2);
        check.relative_tolerance = Some(0.03);
        let result = evaluate(&check, &recording);
        assert!(result.passed && (result.allowed - 0.5).abs() < 1e-12, "{result:?}");
        check.relative_tolerance = Some(0.02);
        assert!(!evaluate(&check, &recording).passed);
        check.quantity = "y".into();
        let result = evaluate(&check, &recording);
        assert!(!result.passed && result.obtained.is_nan() && result.note == "y was not recorded");
    }

    #[test]
    fn csv_numbers_read_back_exactly() {
        for x in [0.0, 1000.0000000000009, -0.0010000000000000009, 1.5e-7, 3e20, 0.1] {
            assert_eq!(csv_number(x).parse::<f64>().unwrap(), x);
        }
        assert_eq!(csv_number(1.5e-7), "1.5e-7");
    }
}
