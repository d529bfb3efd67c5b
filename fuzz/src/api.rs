//! Both FMI versions' C APIs as two traits, each implemented for ContactForce (through its exported
//! functions, `contact_force::fmi::fmi2::*` and `fmi3::*`, the symbols an importer calls) and for
//! RigidBody and PlanarContact (through the generic functions of `fmi_export` that their exports
//! wrap one to one: two crates exporting the same `#[no_mangle]` symbols cannot be linked into one
//! binary, so they are built without their export features here).
//!
//! The signature lists are the standard's headers as `fmi_export`'s export macros declare them.

#![allow(non_snake_case, clippy::too_many_arguments, clippy::missing_safety_doc)]

use std::ffi::{c_char, c_int, c_void};

use fmi_export::fmi2::{Fmi2Boolean, Fmi2CallbackFunctions, Fmi2Component, Fmi2FmuState, Fmi2String, Fmi2ValueReference};
use fmi_export::fmi3::abi::*;
use fmi_export::status::Status;
use fmi_export::FmuModel;

use contact_force::fmi::fmi2 as cf_fmi2;
use contact_force::fmi::fmi3 as cf_fmi3;

/// ContactForce, through its exported C functions.
pub struct ContactForce;
/// RigidBody, through the generic functions its exports call.
pub struct RigidBody;
/// PlanarContact, likewise.
pub struct PlanarContact;

macro_rules! fmi_api {
    ($trait:ident, $version:ident, $cf:ident; $( fn $name:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        /// Every function of this FMI version's header, for one model.
        pub trait $trait {
            /// The model behind the functions (its variable table and instantiation token).
            type Model: FmuModel;
            /// The model's name, for messages.
            const NAME: &'static str;
            $( unsafe fn $name($($arg: $ty),*) $(-> $ret)?; )*
        }

        impl $trait for ContactForce {
            type Model = contact_force::model::Model;
            const NAME: &'static str = "ContactForce";
            $(
                #[allow(unused_unsafe)]
                unsafe fn $name($($arg: $ty),*) $(-> $ret)? {
                    // SAFETY: the caller keeps the function's contract.
                    unsafe { $cf::$name($($arg),*) }
                }
            )*
        }

        fmi_api!(@generic $trait, $version, RigidBody, rigid_body::model::Model, "RigidBody"; $( fn $name($($arg: $ty),*) $(-> $ret)?; )*);
        fmi_api!(@generic $trait, $version, PlanarContact, planar_contact::model::Model, "PlanarContact"; $( fn $name($($arg: $ty),*) $(-> $ret)?; )*);
    };
    (@generic $trait:ident, $version:ident, $api:ident, $model:ty, $label:literal; $( fn $name:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        impl $trait for $api {
            type Model = $model;
            const NAME: &'static str = $label;
            $(
                #[allow(unused_unsafe)]
                unsafe fn $name($($arg: $ty),*) $(-> $ret)? {
                    // SAFETY: the caller keeps the function's contract.
                    unsafe { fmi_export::$version::$name::<$model>($($arg),*) }
                }
            )*
        }
    };
}

fmi_api! {
    Fmi2Api, fmi2, cf_fmi2;
    fn fmi2GetTypesPlatform() -> *const c_char;
    fn fmi2GetVersion() -> *const c_char;
    fn fmi2SetDebugLogging(c: Fmi2Component, loggingOn: Fmi2Boolean, nCategories: usize, categories: *const Fmi2String) -> Status;
    fn fmi2Instantiate(instanceName: Fmi2String, fmuType: c_int, fmuGUID: Fmi2String, fmuResourceLocation: Fmi2String, functions: *const Fmi2CallbackFunctions, visible: Fmi2Boolean, loggingOn: Fmi2Boolean) -> Fmi2Component;
    fn fmi2FreeInstance(c: Fmi2Component);
    fn fmi2SetupExperiment(c: Fmi2Component, toleranceDefined: Fmi2Boolean, tolerance: f64, startTime: f64, stopTimeDefined: Fmi2Boolean, stopTime: f64) -> Status;
    fn fmi2EnterInitializationMode(c: Fmi2Component) -> Status;
    fn fmi2ExitInitializationMode(c: Fmi2Component) -> Status;
    fn fmi2Terminate(c: Fmi2Component) -> Status;
    fn fmi2Reset(c: Fmi2Component) -> Status;
    fn fmi2GetReal(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut f64) -> Status;
    fn fmi2GetInteger(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut c_int) -> Status;
    fn fmi2GetBoolean(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2Boolean) -> Status;
    fn fmi2GetString(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2String) -> Status;
    fn fmi2SetReal(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const f64) -> Status;
    fn fmi2SetInteger(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const c_int) -> Status;
    fn fmi2SetBoolean(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2Boolean) -> Status;
    fn fmi2SetString(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2String) -> Status;
    fn fmi2GetFMUstate(c: Fmi2Component, state: *mut Fmi2FmuState) -> Status;
    fn fmi2SetFMUstate(c: Fmi2Component, state: Fmi2FmuState) -> Status;
    fn fmi2FreeFMUstate(c: Fmi2Component, state: *mut Fmi2FmuState) -> Status;
    fn fmi2SerializedFMUstateSize(c: Fmi2Component, state: Fmi2FmuState, size: *mut usize) -> Status;
    fn fmi2SerializeFMUstate(c: Fmi2Component, state: Fmi2FmuState, bytes: *mut c_char, size: usize) -> Status;
    fn fmi2DeSerializeFMUstate(c: Fmi2Component, bytes: *const c_char, size: usize, state: *mut Fmi2FmuState) -> Status;
    fn fmi2DoStep(c: Fmi2Component, currentCommunicationPoint: f64, communicationStepSize: f64, noSetFMUStatePriorToCurrentPoint: Fmi2Boolean) -> Status;
    fn fmi2CancelStep(c: Fmi2Component) -> Status;
    fn fmi2GetStatus(c: Fmi2Component, kind: c_int, value: *mut c_int) -> Status;
    fn fmi2GetRealStatus(c: Fmi2Component, kind: c_int, value: *mut f64) -> Status;
    fn fmi2GetIntegerStatus(c: Fmi2Component, kind: c_int, value: *mut c_int) -> Status;
    fn fmi2GetBooleanStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2Boolean) -> Status;
    fn fmi2GetStringStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2String) -> Status;
    fn fmi2GetDirectionalDerivative(c: Fmi2Component, vUnknown_ref: *const Fmi2ValueReference, nUnknown: usize, vKnown_ref: *const Fmi2ValueReference, nKnown: usize, dvKnown: *const f64, dvUnknown: *mut f64) -> Status;
    fn fmi2SetRealInputDerivatives(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, order: *const c_int, value: *const f64) -> Status;
    fn fmi2GetRealOutputDerivatives(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, order: *const c_int, value: *mut f64) -> Status;
    fn fmi2EnterEventMode(c: Fmi2Component) -> Status;
    fn fmi2NewDiscreteStates(c: Fmi2Component, eventInfo: *mut c_void) -> Status;
    fn fmi2EnterContinuousTimeMode(c: Fmi2Component) -> Status;
    fn fmi2CompletedIntegratorStep(c: Fmi2Component, noSetFMUStatePriorToCurrentPoint: Fmi2Boolean, enterEventMode: *mut Fmi2Boolean, terminateSimulation: *mut Fmi2Boolean) -> Status;
    fn fmi2SetTime(c: Fmi2Component, time: f64) -> Status;
    fn fmi2SetContinuousStates(c: Fmi2Component, x: *const f64, nx: usize) -> Status;
    fn fmi2GetDerivatives(c: Fmi2Component, derivatives: *mut f64, nx: usize) -> Status;
    fn fmi2GetEventIndicators(c: Fmi2Component, eventIndicators: *mut f64, ni: usize) -> Status;
    fn fmi2GetContinuousStates(c: Fmi2Component, x: *mut f64, nx: usize) -> Status;
    fn fmi2GetNominalsOfContinuousStates(c: Fmi2Component, x_nominal: *mut f64, nx: usize) -> Status;
}

fmi_api! {
    Fmi3Api, fmi3, cf_fmi3;
    fn fmi3GetVersion() -> *const c_char;
    fn fmi3SetDebugLogging(instance: Fmi3Instance, loggingOn: Fmi3Boolean, nCategories: usize, categories: *const Fmi3String) -> Status;
    fn fmi3InstantiateModelExchange(instanceName: Fmi3String, instantiationToken: Fmi3String, resourcePath: Fmi3String, visible: Fmi3Boolean, loggingOn: Fmi3Boolean, instanceEnvironment: Fmi3InstanceEnvironment, logMessage: Option<Fmi3LoggerCallback>) -> Fmi3Instance;
    fn fmi3InstantiateCoSimulation(instanceName: Fmi3String, instantiationToken: Fmi3String, resourcePath: Fmi3String, visible: Fmi3Boolean, loggingOn: Fmi3Boolean, eventModeUsed: Fmi3Boolean, earlyReturnAllowed: Fmi3Boolean, requiredIntermediateVariables: *const Fmi3ValueReference, nRequiredIntermediateVariables: usize, instanceEnvironment: Fmi3InstanceEnvironment, logMessage: Option<Fmi3LoggerCallback>, intermediateUpdate: Option<Fmi3IntermediateUpdateCallback>) -> Fmi3Instance;
    fn fmi3InstantiateScheduledExecution(instanceName: Fmi3String, instantiationToken: Fmi3String, resourcePath: Fmi3String, visible: Fmi3Boolean, loggingOn: Fmi3Boolean, instanceEnvironment: Fmi3InstanceEnvironment, logMessage: Option<Fmi3LoggerCallback>, clockUpdate: Option<Fmi3ClockUpdateCallback>, lockPreemption: Option<Fmi3LockPreemptionCallback>, unlockPreemption: Option<Fmi3UnlockPreemptionCallback>) -> Fmi3Instance;
    fn fmi3FreeInstance(instance: Fmi3Instance);
    fn fmi3EnterInitializationMode(instance: Fmi3Instance, toleranceDefined: Fmi3Boolean, tolerance: f64, startTime: f64, stopTimeDefined: Fmi3Boolean, stopTime: f64) -> Status;
    fn fmi3ExitInitializationMode(instance: Fmi3Instance) -> Status;
    fn fmi3EnterEventMode(instance: Fmi3Instance) -> Status;
    fn fmi3Terminate(instance: Fmi3Instance) -> Status;
    fn fmi3Reset(instance: Fmi3Instance) -> Status;
    fn fmi3GetFloat32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut f32, nValues: usize) -> Status;
    fn fmi3GetFloat64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut f64, nValues: usize) -> Status;
    fn fmi3GetInt8(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut i8, nValues: usize) -> Status;
    fn fmi3GetUInt8(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut u8, nValues: usize) -> Status;
    fn fmi3GetInt16(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut i16, nValues: usize) -> Status;
    fn fmi3GetUInt16(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut u16, nValues: usize) -> Status;
    fn fmi3GetInt32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut i32, nValues: usize) -> Status;
    fn fmi3GetUInt32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut u32, nValues: usize) -> Status;
    fn fmi3GetInt64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut i64, nValues: usize) -> Status;
    fn fmi3GetUInt64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut u64, nValues: usize) -> Status;
    fn fmi3GetBoolean(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut Fmi3Boolean, nValues: usize) -> Status;
    fn fmi3GetString(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut Fmi3String, nValues: usize) -> Status;
    fn fmi3GetBinary(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, valueSizes: *mut usize, values: *mut Fmi3Binary, nValues: usize) -> Status;
    fn fmi3GetClock(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut Fmi3Clock) -> Status;
    fn fmi3SetFloat32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const f32, nValues: usize) -> Status;
    fn fmi3SetFloat64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const f64, nValues: usize) -> Status;
    fn fmi3SetInt8(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const i8, nValues: usize) -> Status;
    fn fmi3SetUInt8(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const u8, nValues: usize) -> Status;
    fn fmi3SetInt16(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const i16, nValues: usize) -> Status;
    fn fmi3SetUInt16(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const u16, nValues: usize) -> Status;
    fn fmi3SetInt32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const i32, nValues: usize) -> Status;
    fn fmi3SetUInt32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const u32, nValues: usize) -> Status;
    fn fmi3SetInt64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const i64, nValues: usize) -> Status;
    fn fmi3SetUInt64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const u64, nValues: usize) -> Status;
    fn fmi3SetBoolean(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const Fmi3Boolean, nValues: usize) -> Status;
    fn fmi3SetString(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const Fmi3String, nValues: usize) -> Status;
    fn fmi3SetBinary(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, valueSizes: *const usize, values: *const Fmi3Binary, nValues: usize) -> Status;
    fn fmi3SetClock(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const Fmi3Clock) -> Status;
    fn fmi3GetNumberOfVariableDependencies(instance: Fmi3Instance, valueReference: Fmi3ValueReference, nDependencies: *mut usize) -> Status;
    fn fmi3GetVariableDependencies(instance: Fmi3Instance, dependent: Fmi3ValueReference, elementIndicesOfDependent: *mut usize, independents: *mut Fmi3ValueReference, elementIndicesOfIndependents: *mut usize, dependencyKinds: *mut Fmi3DependencyKind, nDependencies: usize) -> Status;
    fn fmi3GetFMUState(instance: Fmi3Instance, FMUState: *mut Fmi3FmuState) -> Status;
    fn fmi3SetFMUState(instance: Fmi3Instance, FMUState: Fmi3FmuState) -> Status;
    fn fmi3FreeFMUState(instance: Fmi3Instance, FMUState: *mut Fmi3FmuState) -> Status;
    fn fmi3SerializedFMUStateSize(instance: Fmi3Instance, FMUState: Fmi3FmuState, size: *mut usize) -> Status;
    fn fmi3SerializeFMUState(instance: Fmi3Instance, FMUState: Fmi3FmuState, serializedState: *mut Fmi3Byte, size: usize) -> Status;
    fn fmi3DeserializeFMUState(instance: Fmi3Instance, serializedState: *const Fmi3Byte, size: usize, FMUState: *mut Fmi3FmuState) -> Status;
    fn fmi3GetDirectionalDerivative(instance: Fmi3Instance, unknowns: *const Fmi3ValueReference, nUnknowns: usize, knowns: *const Fmi3ValueReference, nKnowns: usize, seed: *const f64, nSeed: usize, sensitivity: *mut f64, nSensitivity: usize) -> Status;
    fn fmi3GetAdjointDerivative(instance: Fmi3Instance, unknowns: *const Fmi3ValueReference, nUnknowns: usize, knowns: *const Fmi3ValueReference, nKnowns: usize, seed: *const f64, nSeed: usize, sensitivity: *mut f64, nSensitivity: usize) -> Status;
    fn fmi3EnterConfigurationMode(instance: Fmi3Instance) -> Status;
    fn fmi3ExitConfigurationMode(instance: Fmi3Instance) -> Status;
    fn fmi3GetIntervalDecimal(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, intervals: *mut f64, qualifiers: *mut Fmi3IntervalQualifier) -> Status;
    fn fmi3GetIntervalFraction(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, counters: *mut u64, resolutions: *mut u64, qualifiers: *mut Fmi3IntervalQualifier) -> Status;
    fn fmi3GetShiftDecimal(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, shifts: *mut f64) -> Status;
    fn fmi3GetShiftFraction(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, counters: *mut u64, resolutions: *mut u64) -> Status;
    fn fmi3SetIntervalDecimal(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, intervals: *const f64) -> Status;
    fn fmi3SetIntervalFraction(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, counters: *const u64, resolutions: *const u64) -> Status;
    fn fmi3SetShiftDecimal(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, shifts: *const f64) -> Status;
    fn fmi3SetShiftFraction(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, counters: *const u64, resolutions: *const u64) -> Status;
    fn fmi3EvaluateDiscreteStates(instance: Fmi3Instance) -> Status;
    fn fmi3UpdateDiscreteStates(instance: Fmi3Instance, discreteStatesNeedUpdate: *mut Fmi3Boolean, terminateSimulation: *mut Fmi3Boolean, nominalsOfContinuousStatesChanged: *mut Fmi3Boolean, valuesOfContinuousStatesChanged: *mut Fmi3Boolean, nextEventTimeDefined: *mut Fmi3Boolean, nextEventTime: *mut f64) -> Status;
    fn fmi3EnterContinuousTimeMode(instance: Fmi3Instance) -> Status;
    fn fmi3CompletedIntegratorStep(instance: Fmi3Instance, noSetFMUStatePriorToCurrentPoint: Fmi3Boolean, enterEventMode: *mut Fmi3Boolean, terminateSimulation: *mut Fmi3Boolean) -> Status;
    fn fmi3SetTime(instance: Fmi3Instance, time: f64) -> Status;
    fn fmi3SetContinuousStates(instance: Fmi3Instance, continuousStates: *const f64, nContinuousStates: usize) -> Status;
    fn fmi3GetContinuousStateDerivatives(instance: Fmi3Instance, derivatives: *mut f64, nContinuousStates: usize) -> Status;
    fn fmi3GetEventIndicators(instance: Fmi3Instance, eventIndicators: *mut f64, nEventIndicators: usize) -> Status;
    fn fmi3GetContinuousStates(instance: Fmi3Instance, continuousStates: *mut f64, nContinuousStates: usize) -> Status;
    fn fmi3GetNominalsOfContinuousStates(instance: Fmi3Instance, nominals: *mut f64, nContinuousStates: usize) -> Status;
    fn fmi3GetNumberOfEventIndicators(instance: Fmi3Instance, nEventIndicators: *mut usize) -> Status;
    fn fmi3GetNumberOfContinuousStates(instance: Fmi3Instance, nContinuousStates: *mut usize) -> Status;
    fn fmi3EnterStepMode(instance: Fmi3Instance) -> Status;
    fn fmi3GetOutputDerivatives(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, orders: *const i32, values: *mut f64, nValues: usize) -> Status;
    fn fmi3DoStep(instance: Fmi3Instance, currentCommunicationPoint: f64, communicationStepSize: f64, noSetFMUStatePriorToCurrentPoint: Fmi3Boolean, eventHandlingNeeded: *mut Fmi3Boolean, terminateSimulation: *mut Fmi3Boolean, earlyReturn: *mut Fmi3Boolean, lastSuccessfulTime: *mut f64) -> Status;
    fn fmi3ActivateModelPartition(instance: Fmi3Instance, clockReference: Fmi3ValueReference, activationTime: f64) -> Status;
}
