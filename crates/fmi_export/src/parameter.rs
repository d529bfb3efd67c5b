//! Parameter errors, the same for every model: the variable's interface name, the value as the
//! user gave it and the rule it breaks, displayed as `variable = value: rule`.
#![forbid(unsafe_code)]

/// A parameter or start value refused by validation, with the rule it breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct ParameterError {
    /// Interface name of the offending variable.
    pub variable: String,
    /// The value as the user gave it.
    pub value: String,
    /// The rule, as a sentence fragment ("must be > 0").
    pub rule: String,
}

impl std::fmt::Display for ParameterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} = {}: {}", self.variable, self.value, self.rule)
    }
}

impl std::error::Error for ParameterError {}

impl ParameterError {
    /// The error of `variable = value` breaking `rule`.
    pub fn new(variable: &str, value: impl std::fmt::Display, rule: impl Into<String>) -> ParameterError {
        refuse(variable, value, rule)
    }
}

/// The error of `variable = value` breaking `rule`.
pub fn refuse(variable: &str, value: impl std::fmt::Display, rule: impl Into<String>) -> ParameterError {
    ParameterError { variable: variable.to_string(), value: value.to_string(), rule: rule.into() }
}

/// Checks `value` against a rule (`ok`), naming the variable when it fails; a value that is not
/// finite always fails.
pub fn check(variable: &str, value: f64, ok: bool, rule: &str) -> Result<(), ParameterError> {
    if ok && value.is_finite() {
        Ok(())
    } else {
        Err(refuse(variable, value, rule))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_names_the_variable_and_refuses_non_finite_values() {
        assert_eq!(check("mass", 2.0, true, "must be > 0"), Ok(()));
        let e = check("mass", -1.0, false, "must be > 0").unwrap_err();
        assert_eq!(e.to_string(), "mass = -1: must be > 0");
        let e = check("mass", f64::NAN, true, "must be > 0").unwrap_err();
        assert_eq!(e.to_string(), "mass = NaN: must be > 0");
    }
}
