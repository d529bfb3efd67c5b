//! The functions each FMI version's binary must export, and the check against a built library.
//!
//! The lists are the `#define fmiXName fmiXFullName(fmiXName)` lines of fmi2Functions.h (44 names)
//! and fmi3Functions.h (75 names). Each FMU's binary must export all of its own version's functions
//! and none of the other's, so that an importer never picks up the wrong API.

use std::collections::BTreeSet;
use std::path::Path;

use object::{Object, ObjectSymbol};

use crate::Result;

pub const FMI2_FUNCTIONS: [&str; 44] = [
    "fmi2GetTypesPlatform",
    "fmi2GetVersion",
    "fmi2SetDebugLogging",
    "fmi2Instantiate",
    "fmi2FreeInstance",
    "fmi2SetupExperiment",
    "fmi2EnterInitializationMode",
    "fmi2ExitInitializationMode",
    "fmi2Terminate",
    "fmi2Reset",
    "fmi2GetReal",
    "fmi2GetInteger",
    "fmi2GetBoolean",
    "fmi2GetString",
    "fmi2SetReal",
    "fmi2SetInteger",
    "fmi2SetBoolean",
    "fmi2SetString",
    "fmi2GetFMUstate",
    "fmi2SetFMUstate",
    "fmi2FreeFMUstate",
    "fmi2SerializedFMUstateSize",
    "fmi2SerializeFMUstate",
    "fmi2DeSerializeFMUstate",
    "fmi2GetDirectionalDerivative",
    "fmi2EnterEventMode",
    "fmi2NewDiscreteStates",
    "fmi2EnterContinuousTimeMode",
    "fmi2CompletedIntegratorStep",
    "fmi2SetTime",
    "fmi2SetContinuousStates",
    "fmi2GetDerivatives",
    "fmi2GetEventIndicators",
    "fmi2GetContinuousStates",
    "fmi2GetNominalsOfContinuousStates",
    "fmi2SetRealInputDerivatives",
    "fmi2GetRealOutputDerivatives",
    "fmi2DoStep",
    "fmi2CancelStep",
    "fmi2GetStatus",
    "fmi2GetRealStatus",
    "fmi2GetIntegerStatus",
    "fmi2GetBooleanStatus",
    "fmi2GetStringStatus",
];

pub const FMI3_FUNCTIONS: [&str; 75] = [
    "fmi3GetVersion",
    "fmi3SetDebugLogging",
    "fmi3InstantiateModelExchange",
    "fmi3InstantiateCoSimulation",
    "fmi3InstantiateScheduledExecution",
    "fmi3FreeInstance",
    "fmi3EnterInitializationMode",
    "fmi3ExitInitializationMode",
    "fmi3EnterEventMode",
    "fmi3Terminate",
    "fmi3Reset",
    "fmi3GetFloat32",
    "fmi3GetFloat64",
    "fmi3GetInt8",
    "fmi3GetUInt8",
    "fmi3GetInt16",
    "fmi3GetUInt16",
    "fmi3GetInt32",
    "fmi3GetUInt32",
    "fmi3GetInt64",
    "fmi3GetUInt64",
    "fmi3GetBoolean",
    "fmi3GetString",
    "fmi3GetBinary",
    "fmi3GetClock",
    "fmi3SetFloat32",
    "fmi3SetFloat64",
    "fmi3SetInt8",
    "fmi3SetUInt8",
    "fmi3SetInt16",
    "fmi3SetUInt16",
    "fmi3SetInt32",
    "fmi3SetUInt32",
    "fmi3SetInt64",
    "fmi3SetUInt64",
    "fmi3SetBoolean",
    "fmi3SetString",
    "fmi3SetBinary",
    "fmi3SetClock",
    "fmi3GetNumberOfVariableDependencies",
    "fmi3GetVariableDependencies",
    "fmi3GetFMUState",
    "fmi3SetFMUState",
    "fmi3FreeFMUState",
    "fmi3SerializedFMUStateSize",
    "fmi3SerializeFMUState",
    "fmi3DeserializeFMUState",
    "fmi3GetDirectionalDerivative",
    "fmi3GetAdjointDerivative",
    "fmi3EnterConfigurationMode",
    "fmi3ExitConfigurationMode",
    "fmi3GetIntervalDecimal",
    "fmi3GetIntervalFraction",
    "fmi3GetShiftDecimal",
    "fmi3GetShiftFraction",
    "fmi3SetIntervalDecimal",
    "fmi3SetIntervalFraction",
    "fmi3SetShiftDecimal",
    "fmi3SetShiftFraction",
    "fmi3EvaluateDiscreteStates",
    "fmi3UpdateDiscreteStates",
    "fmi3EnterContinuousTimeMode",
    "fmi3CompletedIntegratorStep",
    "fmi3SetTime",
    "fmi3SetContinuousStates",
    "fmi3GetContinuousStateDerivatives",
    "fmi3GetEventIndicators",
    "fmi3GetContinuousStates",
    "fmi3GetNominalsOfContinuousStates",
    "fmi3GetNumberOfEventIndicators",
    "fmi3GetNumberOfContinuousStates",
    "fmi3EnterStepMode",
    "fmi3GetOutputDerivatives",
    "fmi3DoStep",
    "fmi3ActivateModelPartition",
];

/// The names of the functions a shared library defines in its dynamic symbol table.
pub fn exported_functions(library: &Path) -> Result<BTreeSet<String>> {
    let bytes = std::fs::read(library).map_err(|e| format!("could not read {}: {e}", library.display()))?;
    let file = object::File::parse(&*bytes).map_err(|e| format!("{} is not a shared library: {e}", library.display()))?;
    Ok(file
        .dynamic_symbols()
        .filter(|symbol| symbol.is_definition() && symbol.is_global())
        .filter_map(|symbol| symbol.name().ok().map(str::to_string))
        .collect())
}

/// Checks that `exported` holds every function of `required` and no function whose name starts
/// with `forbidden_prefix` (the other FMI version); the error lists every offending name.
pub fn check_exports(exported: &BTreeSet<String>, required: &[&str], forbidden_prefix: &str, what: &str) -> Result {
    let missing: Vec<&str> = required.iter().copied().filter(|name| !exported.contains(*name)).collect();
    let foreign: Vec<&str> = exported.iter().map(String::as_str).filter(|name| name.starts_with(forbidden_prefix)).collect();
    let mut problems = Vec::new();
    if !missing.is_empty() {
        problems.push(format!("{what} does not export {} required function(s):\n  {}", missing.len(), missing.join("\n  ")));
    }
    if !foreign.is_empty() {
        problems.push(format!(
            "{what} exports {} function(s) of the other FMI version ({forbidden_prefix}*):\n  {}",
            foreign.len(),
            foreign.join("\n  ")
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_lists_are_unique_and_carry_their_version_prefix() {
        for (list, prefix) in [(&FMI2_FUNCTIONS[..], "fmi2"), (&FMI3_FUNCTIONS[..], "fmi3")] {
            let unique: BTreeSet<&str> = list.iter().copied().collect();
            assert_eq!(unique.len(), list.len(), "duplicate name in the {prefix} list");
            assert!(list.iter().all(|name| name.starts_with(prefix)));
        }
    }

    #[test]
    fn check_lists_missing_and_foreign_functions() {
        let exported: BTreeSet<String> = ["fmi2GetVersion", "fmi3DoStep", "rust_helper"].iter().map(|s| s.to_string()).collect();
        let error = check_exports(&exported, &["fmi2GetVersion", "fmi2DoStep", "fmi2Reset"], "fmi3", "test.so").unwrap_err();
        assert!(error.contains("does not export 2 required function(s):\n  fmi2DoStep\n  fmi2Reset"), "{error}");
        assert!(error.contains("exports 1 function(s) of the other FMI version (fmi3*):\n  fmi3DoStep"), "{error}");
        assert!(check_exports(&exported, &["fmi2GetVersion"], "fmi4", "test.so").is_ok());
    }
}
