//! The summary table printed after a run: one row per check, or one per scenario without checks.

use crate::master::Outcome;
use crate::recording::CheckResult;

/// A plain-text table: scenario, simulated time, wall time, check, expected, obtained, allowed
/// deviation and the verdict.
pub fn summary_table(outcomes: &[Outcome]) -> String {
    let header = ["scenario", "simulated [s]", "wall [s]", "check", "expected", "obtained", "allowed ±", "result"];
    let mut rows: Vec<Vec<String>> = Vec::new();
    for outcome in outcomes {
        let simulated = number(outcome.simulated_time);
        let wall = number(outcome.wall_time.as_secs_f64());
        if outcome.checks.is_empty() {
            rows.push(vec![outcome.scenario.clone(), simulated, wall, "-".into(), "-".into(), "-".into(), "-".into(), "ran".into()]);
            continue;
        }
        for (i, check) in outcome.checks.iter().enumerate() {
            let (name, simulated, wall) =
                if i == 0 { (outcome.scenario.clone(), simulated.clone(), wall.clone()) } else { (String::new(), String::new(), String::new()) };
            let verdict = if check.passed {
                "pass".to_string()
            } else if check.note.is_empty() {
                "FAIL".to_string()
            } else {
                format!("FAIL ({})", check.note)
            };
            rows.push(vec![name, simulated, wall, check.label.clone(), check.expected_text(), number(check.obtained), check.allowed_text(), verdict]);
        }
    }
    let widths: Vec<usize> =
        (0..header.len()).map(|c| rows.iter().map(|r| r[c].chars().count()).chain([header[c].chars().count()]).max().unwrap_or(0)).collect();
    let line = |cells: Vec<String>| {
        let padded: Vec<String> = cells.iter().zip(&widths).map(|(cell, &w)| format!("{cell:<w$}")).collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut table = line(header.iter().map(|h| h.to_string()).collect());
    table.push_str(&line(widths.iter().map(|&w| "-".repeat(w)).collect()));
    for row in rows {
        table.push_str(&line(row));
    }
    table
}

impl CheckResult {
    /// The expected value as the summary table shows it: a number, `>= a`, `<= b` or `a .. b`.
    pub fn expected_text(&self) -> String {
        match (self.lower, self.upper) {
            (None, None) => number(self.expected),
            (Some(low), None) => format!(">= {}", number(low)),
            (None, Some(high)) => format!("<= {}", number(high)),
            (Some(low), Some(high)) => format!("{} .. {}", number(low), number(high)),
        }
    }

    /// The allowed deviation as the summary table shows it ("-" for bounds).
    pub fn allowed_text(&self) -> String {
        if self.lower.is_some() || self.upper.is_some() {
            "-".to_string()
        } else {
            number(self.allowed)
        }
    }
}

/// Six significant digits, trailing zeros removed; exponent form for very large or small values.
pub fn number(x: f64) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if !(-3..6).contains(&magnitude) {
        return format!("{x:.5e}");
    }
    let decimals = (5 - magnitude).max(0) as usize;
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn numbers_keep_six_significant_digits() {
        assert_eq!(number(1000.0), "1000");
        assert_eq!(number(0.1234567), "0.123457");
        assert_eq!(number(-9.81), "-9.81");
        assert_eq!(number(1.5e-7), "1.50000e-7");
        assert_eq!(number(0.0), "0");
    }
}
