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

    /// The samples at an output interval: the first sample at or after each multiple of
    /// `interval` from the first sample's time, and the last sample. An interval of 0 (or one
    /// not above zero) keeps every sample. The statistics of checks are computed on the full
    /// recording; this is for what is written.
    pub fn thinned(&self, interval: f64) -> Recording {
        let Some(&start) = self.time.first() else { return self.clone() };
        if interval.is_nan() || interval <= 0.0 {
            return self.clone();
        }
        // A sample counts as on the k-th output time when it is within a millionth of the interval
        // of it, so that t = start + k h computed in floating point is not pushed one row later.
        let slot = |t: f64| ((t - start) / interval + 1e-6).floor();
        let last = self.time.len() - 1;
        let kept: Vec<usize> =
            (0..self.time.len()).filter(|&i| i == 0 || i == last || slot(self.time[i]) > slot(self.time[i - 1])).collect();
        Recording {
            names: self.names.clone(),
            time: kept.iter().map(|&i| self.time[i]).collect(),
            columns: self.columns.iter().map(|column| kept.iter().map(|&i| column[i]).collect()).collect(),
        }
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
    /// NaN for a check against bounds (`lower`, `upper`).
    pub expected: f64,
    /// NaN when the quantity could not be evaluated (see `note`).
    pub obtained: f64,
    /// The allowed |obtained - expected|: tolerance + relative_tolerance |expected| (NaN for a
    /// check against bounds).
    pub allowed: f64,
    /// `obtained >= lower` is required (bounds check).
    pub lower: Option<f64>,
    /// `obtained <= upper` is required (bounds check).
    pub upper: Option<f64>,
    pub passed: bool,
    /// Why a check could not be evaluated; empty otherwise.
    pub note: String,
}

impl CheckResult {
    /// A check computed outside the scenario file (by Rust code looking at the recording), for
    /// the same summary table: passes when |obtained - expected| <= allowed.
    pub fn new(label: &str, quantity: &str, expected: f64, obtained: f64, allowed: f64) -> CheckResult {
        CheckResult {
            label: label.to_string(),
            quantity: quantity.to_string(),
            statistic: Statistic::Final,
            expected,
            obtained,
            allowed,
            lower: None,
            upper: None,
            passed: (obtained - expected).abs() <= allowed,
            note: String::new(),
        }
    }

    /// A check against bounds computed outside the scenario file: passes when
    /// `lower <= obtained <= upper` (a missing bound is no constraint).
    pub fn bounded(label: &str, quantity: &str, lower: Option<f64>, upper: Option<f64>, obtained: f64) -> CheckResult {
        CheckResult {
            label: label.to_string(),
            quantity: quantity.to_string(),
            statistic: Statistic::Final,
            expected: f64::NAN,
            obtained,
            allowed: f64::NAN,
            lower,
            upper,
            passed: within(obtained, lower, upper),
            note: String::new(),
        }
    }
}

fn within(x: f64, lower: Option<f64>, upper: Option<f64>) -> bool {
    !x.is_nan() && lower.is_none_or(|low| x >= low) && upper.is_none_or(|high| x <= high)
}

/// The least-squares slope of `values` against `times` (None for fewer than two distinct times).
fn slope(times: &[f64], values: &[f64]) -> Option<f64> {
    let n = times.len() as f64;
    let (t_mean, v_mean) = (times.iter().sum::<f64>() / n, values.iter().sum::<f64>() / n);
    let (mut tt, mut tv) = (0.0, 0.0);
    for (t, v) in times.iter().zip(values) {
        tt += (t - t_mean) * (t - t_mean);
        tv += (t - t_mean) * (v - v_mean);
    }
    (tt > 0.0).then(|| tv / tt)
}

/// Reduces the check's column (the samples in its window) and compares the result with the
/// expected value or the bounds.
pub fn evaluate(check: &CheckSpec, recording: &Recording) -> CheckResult {
    let bounded = check.at_least.is_some() || check.at_most.is_some();
    let expected = check.expected.unwrap_or(f64::NAN);
    let allowed = if bounded {
        f64::NAN
    } else {
        check.tolerance.unwrap_or(0.0) + check.relative_tolerance.unwrap_or(0.0) * expected.abs()
    };
    let mut result = CheckResult {
        label: check.label(),
        quantity: check.quantity.clone(),
        statistic: check.statistic,
        expected,
        obtained: f64::NAN,
        allowed,
        lower: check.at_least,
        upper: check.at_most,
        passed: false,
        note: String::new(),
    };
    let Some(column) = recording.column(&check.quantity).filter(|c| !c.is_empty()) else {
        result.note = format!("{} was not recorded", check.quantity);
        return result;
    };
    let time = recording.time();
    let (first, last) = match check.window {
        Some([from, to]) if check.statistic != Statistic::At => (time.partition_point(|&t| t < from), time.partition_point(|&t| t <= to)),
        _ => (0, column.len()),
    };
    if first >= last {
        result.note = "no sample in the window".to_string();
        return result;
    }
    let (times, column) = (&time[first..last], &column[first..last]);
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
        Statistic::Range => {
            column.iter().copied().fold(f64::NEG_INFINITY, f64::max) - column.iter().copied().fold(f64::INFINITY, f64::min)
        }
        Statistic::Slope => match slope(times, column) {
            Some(slope) => slope,
            None => {
                result.note = "a slope needs samples at two times at least".to_string();
                return result;
            }
        },
    };
    result.obtained *= check.scale.unwrap_or(1.0);
    result.passed = if bounded { within(result.obtained, check.at_least, check.at_most) } else { (result.obtained - expected).abs() <= allowed };
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
            window: None,
            scale: None,
            expected: Some(0.0),
            tolerance: Some(0.0),
            relative_tolerance: None,
            at_least: None,
            at_most: None,
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
        assert_eq!(obtained(Statistic::Range), 5.0);
        // Least squares through the five samples: sum (t - 1)(x - 0.1) / sum (t - 1)^2
        // = (0.1 - 0.95 + 0 + 0.45 + 0.4) / 2.5 = 0.
        assert!(obtained(Statistic::Slope).abs() < 1e-15);
        assert_eq!(recording.value_at("x", 5.0), Some(0.5));
        assert_eq!(recording.value_at("x", -1.0), Some(0.0));
    }

    #[test]
    fn a_check_passes_within_absolute_plus_relative_tolerance() {
        let mut recording = Recording::new(vec!["x".into()]);
        recording.push(0.0, &[10.5]);
        let mut check = spec(Statistic::Final);
        check.expected = Some(10.0);
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
    fn a_window_keeps_the_samples_between_its_times_inclusive() {
        let mut recording = Recording::new(vec!["x".into()]);
        for k in 0..=10 {
            let t = 0.1 * k as f64;
            recording.push(t, &[if t < 0.45 { 5.0 } else { 3.0 * t - 1.0 }]);
        }
        let mut check = spec(Statistic::Slope);
        check.window = Some([0.5, 1.0]);
        let result = evaluate(&check, &recording);
        assert!((result.obtained - 3.0).abs() < 1e-12, "{result:?}");
        assert!(result.label.contains("0.5 <= t <= 1"), "{}", result.label);
        check.statistic = Statistic::Max;
        check.window = Some([0.0, 0.4]);
        assert_eq!(evaluate(&check, &recording).obtained, 5.0);
        check.window = Some([0.4, 0.4]);
        assert_eq!(evaluate(&check, &recording).obtained, 5.0);
        check.statistic = Statistic::Range;
        check.window = Some([0.7, 1.0]);
        assert!((evaluate(&check, &recording).obtained - 0.9).abs() < 1e-12);
        check.window = Some([0.41, 0.49]);
        let result = evaluate(&check, &recording);
        assert!(!result.passed && result.obtained.is_nan() && result.note == "no sample in the window", "{result:?}");
        check.statistic = Statistic::Max;
        (check.window, check.scale) = (Some([0.5, 1.0]), Some(0.5));
        assert!((evaluate(&check, &recording).obtained - 1.0).abs() < 1e-12);
        check.statistic = Statistic::Slope;
        (check.window, check.scale) = (Some([0.5, 0.5]), None);
        assert_eq!(evaluate(&check, &recording).note, "a slope needs samples at two times at least");
    }

    #[test]
    fn a_bounds_check_passes_inside_its_bounds_and_shows_them() {
        let mut recording = Recording::new(vec!["x".into()]);
        recording.push(0.0, &[0.25]);
        let mut check = spec(Statistic::Final);
        (check.expected, check.tolerance, check.at_least) = (None, None, Some(0.2));
        let result = evaluate(&check, &recording);
        assert!(result.passed && result.expected_text() == ">= 0.2" && result.allowed_text() == "-", "{result:?}");
        check.at_most = Some(0.24);
        let result = evaluate(&check, &recording);
        assert!(!result.passed && result.expected_text() == "0.2 .. 0.24", "{result:?}");
        check.at_least = None;
        assert_eq!(evaluate(&check, &recording).expected_text(), "<= 0.24");
        assert!(CheckResult::bounded("b", "x", None, Some(1e-9), 5e-13).passed);
        assert!(!CheckResult::bounded("b", "x", Some(0.0), None, f64::NAN).passed);
        assert_eq!(CheckResult::new("r", "x", 0.744, 0.747, 0.00744).expected_text(), "0.744");
    }

    #[test]
    fn thinning_keeps_the_first_sample_of_each_interval_and_the_last() {
        // Samples every 0.3 ms from 0 to 2.1 ms; an interval of 1 ms keeps t = 0, the first sample
        // at or after 1 ms (1.2 ms) and after 2 ms (2.1 ms, also the last).
        let mut recording = Recording::new(vec!["x".into(), "y".into()]);
        for k in 0..8 {
            let t = k as f64 * 3e-4;
            recording.push(t, &[k as f64, -(k as f64)]);
        }
        let thin = recording.thinned(1e-3);
        assert_eq!(thin.column("x").unwrap(), [0.0, 4.0, 7.0]);
        assert_eq!(thin.column("y").unwrap(), [0.0, -4.0, -7.0]);
        assert_eq!(thin.time().len(), 3);
        // An interval on the sampling grid itself keeps the sample at each multiple, though
        // k * 1e-4 is not exactly a multiple of 1e-4 in floating point for every k.
        let mut fine = Recording::new(vec!["x".into()]);
        for k in 0..=1000 {
            fine.push(k as f64 * 1e-5, &[k as f64]);
        }
        let kept = fine.thinned(1e-4);
        assert_eq!(kept.len(), 101);
        assert!(kept.column("x").unwrap().iter().enumerate().all(|(j, &x)| x == (10 * j) as f64));
        // 0 (and anything not above zero) keeps every sample.
        assert_eq!(fine.thinned(0.0), fine);
        assert_eq!(Recording::new(vec!["x".into()]).thinned(1.0).len(), 0);
    }

    #[test]
    fn csv_numbers_read_back_exactly() {
        for x in [0.0, 1000.0000000000009, -0.0010000000000000009, 1.5e-7, 3e20, 0.1] {
            assert_eq!(csv_number(x).parse::<f64>().unwrap(), x);
        }
        assert_eq!(csv_number(1.5e-7), "1.5e-7");
    }
}
