//! The FMI 3.0 C API (fmi3Functions.h), co-simulation; models that declare
//! [`FmuModel::MIGHT_RETURN_EARLY`] also return early from DoStep and have the co-simulation
//! Event Mode (`hasEventMode`).
//!
//! Every function is a thin adapter: it converts the C arguments and calls [`dispatch`] with its
//! entry of the state table below. All variables are flattened scalars, so every typed get and set
//! takes exactly one value per value reference. Model Exchange, Scheduled Execution, event mode,
//! clocks and the optional functions this FMU does not provide log why and answer fmi3Error.

#![allow(non_snake_case)]
// The argument lists are fixed by the standard.
#![allow(clippy::too_many_arguments)]

use std::ffi::{c_char, c_int, c_void};

use super::instance::{self, c_str, dispatch, guarded, require_non_null, slice, slice_mut, Function, Instance, State, States};
use super::logger::{Fmi3LoggerCallback, Logger};
use super::resources;
use super::status::{Failure, FmiResult, Status};
use crate::model::FmuModel;
use crate::table::{IntKind, Table};

pub use super::fmi3_me::{
    fmi3CompletedIntegratorStep, fmi3EnterContinuousTimeMode, fmi3EnterEventMode, fmi3GetContinuousStateDerivatives, fmi3GetContinuousStates,
    fmi3GetEventIndicators, fmi3GetNominalsOfContinuousStates, fmi3GetNumberOfContinuousStates, fmi3GetNumberOfEventIndicators,
    fmi3InstantiateModelExchange, fmi3SetContinuousStates, fmi3SetTime, fmi3UpdateDiscreteStates,
};

/// The types of the exported signatures, for the export macro.
pub mod abi {
    pub use super::{
        Fmi3Binary, Fmi3Boolean, Fmi3Byte, Fmi3Clock, Fmi3ClockUpdateCallback, Fmi3DependencyKind, Fmi3FmuState, Fmi3Instance,
        Fmi3InstanceEnvironment, Fmi3IntermediateUpdateCallback, Fmi3IntervalQualifier, Fmi3LockPreemptionCallback, Fmi3String,
        Fmi3UnlockPreemptionCallback, Fmi3ValueReference,
    };
    pub use crate::logger::Fmi3LoggerCallback;
    pub use crate::status::Status;
    pub use std::ffi::{c_char, c_int, c_uint, c_void};
}

pub type Fmi3Instance = *mut c_void;
pub type Fmi3InstanceEnvironment = *mut c_void;
pub type Fmi3FmuState = *mut c_void;
pub type Fmi3ValueReference = u32;
/// C99 `bool`.
pub type Fmi3Boolean = bool;
pub type Fmi3Clock = bool;
pub type Fmi3String = *const c_char;
pub type Fmi3Byte = u8;
pub type Fmi3Binary = *const Fmi3Byte;

/// `fmi3DependencyKind`; only `fmi3Dependent` is used.
pub type Fmi3DependencyKind = c_int;
pub const FMI3_DEPENDENT: Fmi3DependencyKind = 5;

/// `fmi3IntervalQualifier`.
pub type Fmi3IntervalQualifier = c_int;

/// `fmi3IntermediateUpdateCallback`: accepted, never called (early return is never used).
pub type Fmi3IntermediateUpdateCallback = unsafe extern "C" fn(
    instance_environment: Fmi3InstanceEnvironment,
    intermediate_update_time: f64,
    intermediate_variable_set_requested: Fmi3Boolean,
    intermediate_variable_get_allowed: Fmi3Boolean,
    intermediate_step_finished: Fmi3Boolean,
    can_return_early: Fmi3Boolean,
    early_return_requested: *mut Fmi3Boolean,
    early_return_time: *mut f64,
);
/// `fmi3ClockUpdateCallback` (Scheduled Execution, not provided).
pub type Fmi3ClockUpdateCallback = unsafe extern "C" fn(instance_environment: Fmi3InstanceEnvironment);
/// `fmi3LockPreemptionCallback` (Scheduled Execution, not provided).
pub type Fmi3LockPreemptionCallback = unsafe extern "C" fn();
/// `fmi3UnlockPreemptionCallback` (Scheduled Execution, not provided).
pub type Fmi3UnlockPreemptionCallback = unsafe extern "C" fn();

/// The FMI 3.0 co-simulation state table (hasEventMode = false): where each function may be
/// called. Instantiated -> InitializationMode -> StepMode -> Terminated; Error and Fatal as in
/// [`dispatch`].
mod table {
    use super::{Function, State::*, States};

    const fn f(name: &'static str, allowed: States) -> Function {
        Function { name, allowed }
    }

    /// Where variable values can be read: after initialisation has begun, and in Error for
    /// diagnosis.
    const READABLE: States = States::of(&[InitializationMode, StepMode, Terminated, Error, EventMode, ContinuousTimeMode]);
    /// Where variable values can be set; the variable table itself refuses fixed parameters
    /// after initialisation.
    const WRITABLE: States = States::of(&[Instantiated, InitializationMode, StepMode, EventMode, ContinuousTimeMode]);

    pub const SET_DEBUG_LOGGING: Function = f("fmi3SetDebugLogging", States::NOT_FATAL);
    pub const ENTER_INITIALIZATION_MODE: Function = f("fmi3EnterInitializationMode", States::of(&[Instantiated]));
    pub const EXIT_INITIALIZATION_MODE: Function = f("fmi3ExitInitializationMode", States::of(&[InitializationMode]));
    pub const TERMINATE: Function = f("fmi3Terminate", States::of(&[StepMode, EventMode, ContinuousTimeMode]));
    pub const RESET: Function = f("fmi3Reset", States::NOT_FATAL);

    pub const GET_FLOAT32: Function = f("fmi3GetFloat32", READABLE);
    pub const GET_FLOAT64: Function = f("fmi3GetFloat64", READABLE);
    pub const GET_DIRECTIONAL_DERIVATIVE: Function = f("fmi3GetDirectionalDerivative", READABLE);
    pub const GET_ADJOINT_DERIVATIVE: Function = f("fmi3GetAdjointDerivative", READABLE);
    pub const GET_OUTPUT_DERIVATIVES: Function = f("fmi3GetOutputDerivatives", States::of(&[StepMode]));
    pub const GET_INT8: Function = f("fmi3GetInt8", READABLE);
    pub const GET_UINT8: Function = f("fmi3GetUInt8", READABLE);
    pub const GET_INT16: Function = f("fmi3GetInt16", READABLE);
    pub const GET_UINT16: Function = f("fmi3GetUInt16", READABLE);
    pub const GET_INT32: Function = f("fmi3GetInt32", READABLE);
    pub const GET_UINT32: Function = f("fmi3GetUInt32", READABLE);
    pub const GET_INT64: Function = f("fmi3GetInt64", READABLE);
    pub const GET_UINT64: Function = f("fmi3GetUInt64", READABLE);
    pub const GET_BOOLEAN: Function = f("fmi3GetBoolean", READABLE);
    pub const GET_STRING: Function = f("fmi3GetString", READABLE);
    pub const GET_BINARY: Function = f("fmi3GetBinary", READABLE);
    pub const GET_CLOCK: Function = f("fmi3GetClock", READABLE);

    pub const SET_FLOAT32: Function = f("fmi3SetFloat32", WRITABLE);
    pub const SET_FLOAT64: Function = f("fmi3SetFloat64", WRITABLE);
    pub const SET_INT8: Function = f("fmi3SetInt8", WRITABLE);
    pub const SET_UINT8: Function = f("fmi3SetUInt8", WRITABLE);
    pub const SET_INT16: Function = f("fmi3SetInt16", WRITABLE);
    pub const SET_UINT16: Function = f("fmi3SetUInt16", WRITABLE);
    pub const SET_INT32: Function = f("fmi3SetInt32", WRITABLE);
    pub const SET_UINT32: Function = f("fmi3SetUInt32", WRITABLE);
    pub const SET_INT64: Function = f("fmi3SetInt64", WRITABLE);
    pub const SET_UINT64: Function = f("fmi3SetUInt64", WRITABLE);
    pub const SET_BOOLEAN: Function = f("fmi3SetBoolean", WRITABLE);
    pub const SET_STRING: Function = f("fmi3SetString", WRITABLE);
    pub const SET_BINARY: Function = f("fmi3SetBinary", WRITABLE);
    pub const SET_CLOCK: Function = f("fmi3SetClock", WRITABLE);

    pub const GET_NUMBER_OF_VARIABLE_DEPENDENCIES: Function = f("fmi3GetNumberOfVariableDependencies", States::NOT_FATAL);
    pub const GET_VARIABLE_DEPENDENCIES: Function = f("fmi3GetVariableDependencies", States::NOT_FATAL);

    pub const GET_FMU_STATE: Function = f("fmi3GetFMUState", States::NOT_FATAL);
    pub const SET_FMU_STATE: Function = f("fmi3SetFMUState", States::NOT_FATAL);
    pub const FREE_FMU_STATE: Function = f("fmi3FreeFMUState", States::NOT_FATAL);
    pub const SERIALIZED_FMU_STATE_SIZE: Function = f("fmi3SerializedFMUStateSize", States::NOT_FATAL);
    pub const SERIALIZE_FMU_STATE: Function = f("fmi3SerializeFMUState", States::NOT_FATAL);
    pub const DESERIALIZE_FMU_STATE: Function = f("fmi3DeserializeFMUState", States::NOT_FATAL);

    pub const DO_STEP: Function = f("fmi3DoStep", States::of(&[StepMode]));

    // Co-simulation Event Mode (hasEventMode, with eventModeUsed at instantiation).
    pub const ENTER_EVENT_MODE: Function = f("fmi3EnterEventMode", States::of(&[StepMode]));
    pub const UPDATE_DISCRETE_STATES: Function = f("fmi3UpdateDiscreteStates", States::of(&[EventMode]));
    pub const ENTER_STEP_MODE: Function = f("fmi3EnterStepMode", States::of(&[EventMode]));
}

/// Logs and answers Error for a function this FMU does not provide.
///
/// # Safety
/// `instance` must be null or a live instance.
unsafe fn unsupported<M: FmuModel>(instance: Fmi3Instance, function: &str, why: &str) -> Status {
    guarded(Status::Error, || {
        if instance.is_null() {
            return Status::Error;
        }
        // SAFETY: non-null and live by the caller's contract.
        let instance = unsafe { &*instance.cast::<Instance<M>>() };
        instance.unsupported(function, why)
    })
}

const NO_EVENT_MODE: &str = "hasEventMode is false: the FMU runs in Step Mode only";
const NO_CLOCKS: &str = "the FMU has no clocks";
const NO_STRUCTURAL_PARAMETERS: &str = "the FMU has no structural parameters, so there is no Configuration Mode";

/// Every variable is a scalar, so each value reference takes exactly one value.
fn same_count(n_value_references: usize, n_values: usize) -> Result<(), Failure> {
    if n_values != n_value_references {
        return Err(Failure::error(format!(
            "nValues = {n_values} differs from nValueReferences = {n_value_references}: every variable of this FMU is a \
             scalar, so each value reference takes exactly one value"
        )));
    }
    Ok(())
}

/// The answer to a get or set of a type this FMU has no variables of: OK for no value
/// references, else Error naming the first value reference and the type of its variable.
fn no_variables_of<M: FmuModel>(table: &Table<M>, requested: &str, vrs: &[Fmi3ValueReference]) -> FmiResult {
    let Some(vr) = vrs.first() else { return Ok(Status::Ok) };
    Err(Failure::error(match table.scalar(*vr) {
        Some(s) => format!("variable {} (vr {vr}) is of type {}, not {requested}", s.name, s.variable.ty.type_name()),
        None => format!("unknown value reference {vr}"),
    }))
}

/// Get or set of a type this FMU has no variables of; `n_values` is `None` for clocks, whose
/// functions have no such argument.
///
/// # Safety
/// `instance` is null or a live instance; `vrs` points to `n_value_references` elements.
unsafe fn absent_type<M: FmuModel>(
    instance: Fmi3Instance,
    function: Function,
    requested: &'static str,
    vrs: *const Fmi3ValueReference,
    n_value_references: usize,
    n_values: Option<usize>,
) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, function, None, |i| {
            if let Some(n_values) = n_values {
                same_count(n_value_references, n_values)?;
            }
            no_variables_of::<M>(&i.table, requested, slice(vrs, n_value_references, "valueReferences")?)
        })
    }
}

/// Builds a logger from an Instantiate function's callback and reports why this FMU cannot be
/// instantiated that way.
///
/// # Safety
/// `instance_name` is null or a C string; the callback and environment are the importer's.
unsafe fn co_simulation_only<M: FmuModel>(
    function: &str,
    interface: &str,
    instance_name: Fmi3String,
    logging_on: Fmi3Boolean,
    instance_environment: Fmi3InstanceEnvironment,
    log_message: Option<Fmi3LoggerCallback>,
) -> Fmi3Instance {
    guarded(std::ptr::null_mut(), || {
        // SAFETY: a C string or null, by the standard.
        let name = unsafe { c_str(instance_name, "instanceName") }.unwrap_or("");
        let logger = Logger::fmi3(log_message, instance_environment, name, logging_on);
        logger.log(
            Status::Error,
            &format!(
                "{function}: {} is a co-simulation FMU ({interface} is not provided); instantiate it with \
                 fmi3InstantiateCoSimulation",
                M::NAME
            ),
        );
        std::ptr::null_mut()
    })
}

// ---------------------------------------------------------------------------------------------
// Inquire version, logging.

pub fn fmi3GetVersion<M: FmuModel>() -> *const c_char {
    c"3.0".as_ptr()
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation; `categories` holds `nCategories`
/// C strings.
pub unsafe fn fmi3SetDebugLogging<M: FmuModel>(
    instance: Fmi3Instance,
    loggingOn: Fmi3Boolean,
    nCategories: usize,
    categories: *const Fmi3String,
) -> Status {
    // SAFETY: pointers as documented by the standard; checked for null inside.
    unsafe {
        dispatch::<M>(instance, table::SET_DEBUG_LOGGING, None, |i| {
            let pointers = slice(categories, nCategories, "categories")?;
            let mut names = Vec::with_capacity(pointers.len());
            for (k, p) in pointers.iter().enumerate() {
                names.push(c_str(*p, &format!("categories[{k}]")).map_err(Failure::error)?);
            }
            i.logger.set_debug_logging(loggingOn, &names).map_err(Failure::error)?;
            Ok(Status::Ok)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Creation and destruction.

/// # Safety
/// Arguments as in the FMI 3.0 standard: C strings or null; `logMessage` null or a valid
/// callback that accepts `instanceEnvironment`.
pub unsafe fn fmi3InstantiateCoSimulation<M: FmuModel>(
    instanceName: Fmi3String,
    instantiationToken: Fmi3String,
    resourcePath: Fmi3String,
    _visible: Fmi3Boolean,
    loggingOn: Fmi3Boolean,
    eventModeUsed: Fmi3Boolean,
    earlyReturnAllowed: Fmi3Boolean,
    _requiredIntermediateVariables: *const Fmi3ValueReference,
    _nRequiredIntermediateVariables: usize,
    instanceEnvironment: Fmi3InstanceEnvironment,
    logMessage: Option<Fmi3LoggerCallback>,
    _intermediateUpdate: Option<Fmi3IntermediateUpdateCallback>,
) -> Fmi3Instance {
    guarded(std::ptr::null_mut(), || {
        // SAFETY: C strings or null, by the standard.
        let made = unsafe {
            new_instance::<M>("fmi3InstantiateCoSimulation", instanceName, instantiationToken, resourcePath, loggingOn, instanceEnvironment, logMessage, |logger| {
                if eventModeUsed && !M::MIGHT_RETURN_EARLY {
                    logger.log(
                        Status::Warning,
                        "fmi3InstantiateCoSimulation: eventModeUsed = true, but event mode is not supported and is not used \
                         (the FMU declares hasEventMode = false)",
                    );
                }
                Ok(())
            })
        };
        let Some(mut instance) = made else { return std::ptr::null_mut() };
        instance.early_return_allowed = earlyReturnAllowed && M::MIGHT_RETURN_EARLY;
        instance.event_mode_used = eventModeUsed && M::MIGHT_RETURN_EARLY;
        instance.into_raw()
    })
}

/// What both FMI 3 instantiate functions (`function`) do: read the instance name, make the
/// logger, run the interface's own `check` (an error is logged and refuses the instance), check
/// the instantiation token against the table's and resolve the resources folder. `None` once the
/// reason is logged.
///
/// # Safety
/// `instanceName`, `instantiationToken` and `resourcePath` are C strings or null; `logMessage` is
/// null or a valid callback that accepts `instanceEnvironment`.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn new_instance<M: FmuModel>(
    function: &str,
    instanceName: Fmi3String,
    instantiationToken: Fmi3String,
    resourcePath: Fmi3String,
    loggingOn: Fmi3Boolean,
    instanceEnvironment: Fmi3InstanceEnvironment,
    logMessage: Option<Fmi3LoggerCallback>,
    check: impl FnOnce(&Logger) -> Result<(), String>,
) -> Option<Instance<M>> {
    // SAFETY: a C string or null, by the caller's contract.
    let name = unsafe { c_str(instanceName, "instanceName") };
    let logger = Logger::fmi3(logMessage, instanceEnvironment, name.as_deref().unwrap_or(""), loggingOn);
    let fail = |message: String| {
        logger.log(Status::Error, &format!("{function}: {message}"));
        None
    };
    if let Err(e) = check(&logger) {
        return fail(e);
    }
    if let Err(e) = name {
        return fail(e);
    }
    let mut table = M::build_table();
    // SAFETY: a C string or null, by the caller's contract.
    match unsafe { c_str(instantiationToken, "instantiationToken") } {
        Ok(token) => {
            if let Err(e) = table.accept_token(token, "instantiationToken") {
                return fail(e);
            }
        }
        Err(e) => return fail(e),
    }
    let mut resources = None;
    if !resourcePath.is_null() {
        // SAFETY: non-null C string by the caller's contract.
        match unsafe { c_str(resourcePath, "resourcePath") } {
            Ok(path) => resources = Some(resources::from_fmi3_path(path)),
            Err(e) => logger.log(Status::Warning, &format!("{function}: {e}; geometry files must then be absolute paths")),
        }
    }
    Some(Instance::<M>::new(table, logger, resources))
}

/// # Safety
/// `instanceName` and `instantiationToken` are C strings.
pub unsafe fn fmi3InstantiateScheduledExecution<M: FmuModel>(
    instanceName: Fmi3String,
    _instantiationToken: Fmi3String,
    _resourcePath: Fmi3String,
    _visible: Fmi3Boolean,
    loggingOn: Fmi3Boolean,
    instanceEnvironment: Fmi3InstanceEnvironment,
    logMessage: Option<Fmi3LoggerCallback>,
    _clockUpdate: Option<Fmi3ClockUpdateCallback>,
    _lockPreemption: Option<Fmi3LockPreemptionCallback>,
    _unlockPreemption: Option<Fmi3UnlockPreemptionCallback>,
) -> Fmi3Instance {
    // SAFETY: arguments as the standard documents them.
    unsafe {
        co_simulation_only::<M>("fmi3InstantiateScheduledExecution", "Scheduled Execution", instanceName, loggingOn, instanceEnvironment, logMessage)
    }
}

/// # Safety
/// `instance` is null or an instance from fmi3InstantiateCoSimulation, not used afterwards.
pub unsafe fn fmi3FreeInstance<M: FmuModel>(instance: Fmi3Instance) {
    if !instance.is_null() {
        // SAFETY: made by fmi3InstantiateCoSimulation and freed once, by the standard's contract.
        guarded((), || unsafe { Instance::<M>::free_raw(instance) });
    }
}

// ---------------------------------------------------------------------------------------------
// Initialisation, termination, reset.

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3EnterInitializationMode<M: FmuModel>(
    instance: Fmi3Instance,
    _toleranceDefined: Fmi3Boolean,
    _tolerance: f64,
    startTime: f64,
    _stopTimeDefined: Fmi3Boolean,
    _stopTime: f64,
) -> Status {
    // SAFETY: see dispatch.
    unsafe { dispatch::<M>(instance, table::ENTER_INITIALIZATION_MODE, None, |i| i.enter_initialization_mode(startTime)) }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3ExitInitializationMode<M: FmuModel>(instance: Fmi3Instance) -> Status {
    // SAFETY: see dispatch.
    unsafe {
        dispatch::<M>(instance, table::EXIT_INITIALIZATION_MODE, None, |i| {
            let status = i.exit_initialization_mode()?;
            // With eventModeUsed, initialisation ends in Event Mode (the standard's co-simulation
            // state machine); the importer leaves it with fmi3EnterStepMode.
            if i.event_mode_used {
                i.state = State::EventMode;
            }
            Ok(status)
        })
    }
}

/// fmi3EnterEventMode of a co-simulation instance (`fmi3_me::fmi3EnterEventMode` sends it here).
///
/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn co_simulation_enter_event_mode<M: FmuModel>(instance: Fmi3Instance) -> Status {
    if !M::MIGHT_RETURN_EARLY {
        // SAFETY: see unsupported.
        return unsafe { unsupported::<M>(instance, "fmi3EnterEventMode", NO_EVENT_MODE) };
    }
    // SAFETY: see dispatch.
    unsafe {
        dispatch::<M>(instance, table::ENTER_EVENT_MODE, None, |i| {
            if !i.event_mode_used {
                return Ok(not_in_event_mode(i, "fmi3EnterEventMode"));
            }
            i.state = State::EventMode;
            Ok(Status::Ok)
        })
    }
}

/// Event Mode functions called on an instance made with eventModeUsed = false: an illegal call
/// sequence, logged and answered Error without changing the state.
fn not_in_event_mode<M: FmuModel>(i: &Instance<M>, function: &str) -> Status {
    i.logger.log(
        Status::Error,
        &format!("{function}: Illegal call sequence: the instance was made with eventModeUsed = false, so it never enters Event Mode"),
    );
    Status::Error
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3Terminate<M: FmuModel>(instance: Fmi3Instance) -> Status {
    // SAFETY: see dispatch.
    unsafe {
        dispatch::<M>(instance, table::TERMINATE, None, |i| {
            i.state = State::Terminated;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3Reset<M: FmuModel>(instance: Fmi3Instance) -> Status {
    // SAFETY: see dispatch.
    unsafe {
        dispatch::<M>(instance, table::RESET, None, |i| {
            i.reset();
            Ok(Status::Ok)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Getting variables.

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3GetFloat32<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *mut f32,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::GET_FLOAT32, "Float32", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements and `values` to `nValues`.
pub unsafe fn fmi3GetFloat64<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    values: *mut f64,
    nValues: usize,
) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, table::GET_FLOAT64, None, |i| {
            same_count(nValueReferences, nValues)?;
            i.get_floats(slice(valueReferences, nValueReferences, "valueReferences")?, slice_mut(values, nValues, "values")?)
        })
    }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3GetInt8<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *mut i8,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::GET_INT8, "Int8", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3GetUInt8<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *mut u8,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::GET_UINT8, "UInt8", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3GetInt16<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *mut i16,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::GET_INT16, "Int16", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3GetUInt16<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *mut u16,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::GET_UINT16, "UInt16", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements and `values` to `nValues`.
pub unsafe fn fmi3GetInt32<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    values: *mut i32,
    nValues: usize,
) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, table::GET_INT32, None, |i| {
            same_count(nValueReferences, nValues)?;
            let vrs = slice(valueReferences, nValueReferences, "valueReferences")?;
            // Int32 variables only ever hold Int32 values (they are outputs counting points).
            i.get_ints(vrs, slice_mut(values, nValues, "values")?, IntKind::Int32, |x| x as i32)
        })
    }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3GetUInt32<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *mut u32,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::GET_UINT32, "UInt32", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements and `values` to `nValues`.
pub unsafe fn fmi3GetInt64<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    values: *mut i64,
    nValues: usize,
) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, table::GET_INT64, None, |i| {
            same_count(nValueReferences, nValues)?;
            let vrs = slice(valueReferences, nValueReferences, "valueReferences")?;
            i.get_ints(vrs, slice_mut(values, nValues, "values")?, IntKind::Int64, |x| x)
        })
    }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3GetUInt64<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *mut u64,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::GET_UINT64, "UInt64", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements and `values` to `nValues`.
pub unsafe fn fmi3GetBoolean<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    values: *mut Fmi3Boolean,
    nValues: usize,
) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, table::GET_BOOLEAN, None, |i| {
            same_count(nValueReferences, nValues)?;
            i.get_bools(slice(valueReferences, nValueReferences, "valueReferences")?, slice_mut(values, nValues, "values")?, |b| b)
        })
    }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements and `values` to `nValues`.
pub unsafe fn fmi3GetString<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    values: *mut Fmi3String,
    nValues: usize,
) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, table::GET_STRING, None, |i| {
            same_count(nValueReferences, nValues)?;
            i.get_strings(slice(valueReferences, nValueReferences, "valueReferences")?, slice_mut(values, nValues, "values")?)
        })
    }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3GetBinary<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _valueSizes: *mut usize,
    _values: *mut Fmi3Binary,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::GET_BINARY, "Binary", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3GetClock<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *mut Fmi3Clock,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::GET_CLOCK, "Clock", valueReferences, nValueReferences, None) }
}

// ---------------------------------------------------------------------------------------------
// Setting variables.

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3SetFloat32<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *const f32,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::SET_FLOAT32, "Float32", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements and `values` to `nValues`.
pub unsafe fn fmi3SetFloat64<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    values: *const f64,
    nValues: usize,
) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, table::SET_FLOAT64, None, |i| {
            same_count(nValueReferences, nValues)?;
            i.set_floats(slice(valueReferences, nValueReferences, "valueReferences")?, slice(values, nValues, "values")?)
        })
    }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3SetInt8<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *const i8,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::SET_INT8, "Int8", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3SetUInt8<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *const u8,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::SET_UINT8, "UInt8", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3SetInt16<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *const i16,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::SET_INT16, "Int16", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3SetUInt16<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *const u16,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::SET_UINT16, "UInt16", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements and `values` to `nValues`.
pub unsafe fn fmi3SetInt32<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    values: *const i32,
    nValues: usize,
) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, table::SET_INT32, None, |i| {
            same_count(nValueReferences, nValues)?;
            let values = slice(values, nValues, "values")?;
            i.set_ints(slice(valueReferences, nValueReferences, "valueReferences")?, values.iter().map(|x| i64::from(*x)), IntKind::Int32)
        })
    }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3SetUInt32<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *const u32,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::SET_UINT32, "UInt32", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements and `values` to `nValues`.
pub unsafe fn fmi3SetInt64<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    values: *const i64,
    nValues: usize,
) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, table::SET_INT64, None, |i| {
            same_count(nValueReferences, nValues)?;
            let values = slice(values, nValues, "values")?;
            i.set_ints(slice(valueReferences, nValueReferences, "valueReferences")?, values.iter().copied(), IntKind::Int64)
        })
    }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3SetUInt64<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *const u64,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::SET_UINT64, "UInt64", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements and `values` to `nValues`.
pub unsafe fn fmi3SetBoolean<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    values: *const Fmi3Boolean,
    nValues: usize,
) -> Status {
    // SAFETY: see dispatch and slice. The values are read as bytes, so that an importer's byte
    // other than 0 or 1 is taken as true instead of being an invalid Rust bool.
    unsafe {
        dispatch::<M>(instance, table::SET_BOOLEAN, None, |i| {
            same_count(nValueReferences, nValues)?;
            let values = slice(values.cast::<u8>(), nValues, "values")?;
            i.set_bools(slice(valueReferences, nValueReferences, "valueReferences")?, values.iter().map(|x| *x != 0))
        })
    }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements and `values` to `nValues` C strings.
pub unsafe fn fmi3SetString<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    values: *const Fmi3String,
    nValues: usize,
) -> Status {
    // SAFETY: see dispatch and slice; set_strings checks each pointer.
    unsafe {
        dispatch::<M>(instance, table::SET_STRING, None, |i| {
            same_count(nValueReferences, nValues)?;
            i.set_strings(slice(valueReferences, nValueReferences, "valueReferences")?, slice(values, nValues, "values")?)
        })
    }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3SetBinary<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _valueSizes: *const usize,
    _values: *const Fmi3Binary,
    nValues: usize,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::SET_BINARY, "Binary", valueReferences, nValueReferences, Some(nValues)) }
}

/// # Safety
/// `valueReferences` points to `nValueReferences` elements.
pub unsafe fn fmi3SetClock<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    _values: *const Fmi3Clock,
) -> Status {
    // SAFETY: see absent_type.
    unsafe { absent_type::<M>(instance, table::SET_CLOCK, "Clock", valueReferences, nValueReferences, None) }
}

// ---------------------------------------------------------------------------------------------
// Variable dependencies.

/// # Safety
/// `nDependencies` is writable.
pub unsafe fn fmi3GetNumberOfVariableDependencies<M: FmuModel>(
    instance: Fmi3Instance,
    valueReference: Fmi3ValueReference,
    nDependencies: *mut usize,
) -> Status {
    // SAFETY: see dispatch; `nDependencies` checked for null.
    unsafe {
        dispatch::<M>(instance, table::GET_NUMBER_OF_VARIABLE_DEPENDENCIES, None, |i| {
            if nDependencies.is_null() {
                return Err(Failure::error("nDependencies is a null pointer"));
            }
            let s = i.table.scalar(valueReference).ok_or_else(|| Failure::error(format!("unknown value reference {valueReference}")))?;
            *nDependencies = i.table.dependencies_of(s).len();
            Ok(Status::Ok)
        })
    }
}

/// Every variable is a scalar, so every element index is 0.
///
/// # Safety
/// The four arrays hold `nDependencies` writable elements each.
pub unsafe fn fmi3GetVariableDependencies<M: FmuModel>(
    instance: Fmi3Instance,
    dependent: Fmi3ValueReference,
    elementIndicesOfDependent: *mut usize,
    independents: *mut Fmi3ValueReference,
    elementIndicesOfIndependents: *mut usize,
    dependencyKinds: *mut Fmi3DependencyKind,
    nDependencies: usize,
) -> Status {
    // SAFETY: see dispatch and slice_mut.
    unsafe {
        dispatch::<M>(instance, table::GET_VARIABLE_DEPENDENCIES, None, |i| {
            let s = i.table.scalar(dependent).ok_or_else(|| Failure::error(format!("unknown value reference {dependent}")))?;
            let dependencies = i.table.dependencies_of(s);
            if nDependencies != dependencies.len() {
                return Err(Failure::error(format!(
                    "nDependencies = {nDependencies}, but {} (vr {dependent}) has {} dependencies (see fmi3GetNumberOfVariableDependencies)",
                    s.name,
                    dependencies.len()
                )));
            }
            let n = nDependencies;
            let element_of_dependent = slice_mut(elementIndicesOfDependent, n, "elementIndicesOfDependent")?;
            let independent = slice_mut(independents, n, "independents")?;
            let element_of_independent = slice_mut(elementIndicesOfIndependents, n, "elementIndicesOfIndependents")?;
            let kind = slice_mut(dependencyKinds, n, "dependencyKinds")?;
            for (k, d) in dependencies.iter().enumerate() {
                element_of_dependent[k] = 0;
                independent[k] = d.vr;
                element_of_independent[k] = 0;
                kind[k] = FMI3_DEPENDENT;
            }
            Ok(Status::Ok)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// FMU state.

/// # Safety
/// `FMUState` points to null or to a state from fmi3GetFMUState.
pub unsafe fn fmi3GetFMUState<M: FmuModel>(instance: Fmi3Instance, FMUState: *mut Fmi3FmuState) -> Status {
    // SAFETY: see dispatch; `FMUState` checked for null.
    unsafe {
        dispatch::<M>(instance, table::GET_FMU_STATE, None, |i| {
            if FMUState.is_null() {
                return Err(Failure::error("FMUState is a null pointer"));
            }
            let saved = i.save_state();
            i.store_state(FMUState, saved)?;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `FMUState` is a state from fmi3GetFMUState or fmi3DeserializeFMUState.
pub unsafe fn fmi3SetFMUState<M: FmuModel>(instance: Fmi3Instance, FMUState: Fmi3FmuState) -> Status {
    // SAFETY: see dispatch; `FMUState` checked for null and made by this library.
    unsafe {
        dispatch::<M>(instance, table::SET_FMU_STATE, None, |i| {
            if FMUState.is_null() {
                return Err(Failure::error("FMUState is a null pointer"));
            }
            let saved = &*i.saved_state(FMUState)?;
            i.restore_state(saved);
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `FMUState` points to null or to a state from this library.
pub unsafe fn fmi3FreeFMUState<M: FmuModel>(instance: Fmi3Instance, FMUState: *mut Fmi3FmuState) -> Status {
    // SAFETY: see dispatch; each pointer checked for null, the state made by this library.
    unsafe {
        dispatch::<M>(instance, table::FREE_FMU_STATE, None, |i| {
            if FMUState.is_null() {
                return Err(Failure::error("FMUState is a null pointer"));
            }
            if !(*FMUState).is_null() {
                i.free_saved_state(*FMUState)?;
                *FMUState = std::ptr::null_mut();
            }
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `FMUState` is a state from this library; `size` is writable.
pub unsafe fn fmi3SerializedFMUStateSize<M: FmuModel>(instance: Fmi3Instance, FMUState: Fmi3FmuState, size: *mut usize) -> Status {
    // SAFETY: see dispatch; pointers checked for null.
    unsafe {
        dispatch::<M>(instance, table::SERIALIZED_FMU_STATE_SIZE, None, |i| {
            if FMUState.is_null() || size.is_null() {
                return Err(Failure::error("FMUState or size is a null pointer"));
            }
            *size = instance::serialize_state(&i.table, &*i.saved_state(FMUState)?).len();
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `FMUState` is a state from this library; `serializedState` holds `size` writable bytes.
pub unsafe fn fmi3SerializeFMUState<M: FmuModel>(
    instance: Fmi3Instance,
    FMUState: Fmi3FmuState,
    serializedState: *mut Fmi3Byte,
    size: usize,
) -> Status {
    // SAFETY: see dispatch; pointers checked for null.
    unsafe {
        dispatch::<M>(instance, table::SERIALIZE_FMU_STATE, None, |i| {
            if FMUState.is_null() {
                return Err(Failure::error("FMUState is a null pointer"));
            }
            let serialized = instance::serialize_state(&i.table, &*i.saved_state(FMUState)?);
            if size < serialized.len() {
                return Err(Failure::error(format!("size = {size} is smaller than the serialized state ({} bytes)", serialized.len())));
            }
            slice_mut(serializedState, serialized.len(), "serializedState")?.copy_from_slice(&serialized);
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `serializedState` holds `size` readable bytes; `FMUState` is writable and points to null or
/// to a state from here.
pub unsafe fn fmi3DeserializeFMUState<M: FmuModel>(
    instance: Fmi3Instance,
    serializedState: *const Fmi3Byte,
    size: usize,
    FMUState: *mut Fmi3FmuState,
) -> Status {
    // SAFETY: see dispatch; pointers checked for null.
    unsafe {
        dispatch::<M>(instance, table::DESERIALIZE_FMU_STATE, None, |i| {
            if FMUState.is_null() {
                return Err(Failure::error("FMUState is a null pointer"));
            }
            let saved = instance::deserialize_state::<M>(&i.table, slice(serializedState, size, "serializedState")?).map_err(Failure::error)?;
            i.store_state(FMUState, saved)?;
            Ok(Status::Ok)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Partial derivatives, configuration mode, clocks and event mode: not provided.

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation; each pointer points to as many
/// elements as its count says.
pub unsafe fn fmi3GetDirectionalDerivative<M: FmuModel>(
    instance: Fmi3Instance,
    unknowns: *const Fmi3ValueReference,
    nUnknowns: usize,
    knowns: *const Fmi3ValueReference,
    nKnowns: usize,
    seed: *const f64,
    nSeed: usize,
    sensitivity: *mut f64,
    nSensitivity: usize,
) -> Status {
    const NAME: &str = "fmi3GetDirectionalDerivative";
    if !M::PROVIDES_DIRECTIONAL_DERIVATIVES {
        // SAFETY: see unsupported.
        return unsafe { unsupported::<M>(instance, NAME, "providesDirectionalDerivatives is false") };
    }
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, table::GET_DIRECTIONAL_DERIVATIVE, None, |i| {
            let unknowns = slice(unknowns, nUnknowns, "unknowns")?;
            let knowns = slice(knowns, nKnowns, "knowns")?;
            let seed = slice(seed, nSeed, "seed")?;
            i.directional_derivative(NAME, unknowns, knowns, seed, slice_mut(sensitivity, nSensitivity, "sensitivity")?)
        })
    }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation; each pointer points to as many
/// elements as its count says.
pub unsafe fn fmi3GetAdjointDerivative<M: FmuModel>(
    instance: Fmi3Instance,
    unknowns: *const Fmi3ValueReference,
    nUnknowns: usize,
    knowns: *const Fmi3ValueReference,
    nKnowns: usize,
    seed: *const f64,
    nSeed: usize,
    sensitivity: *mut f64,
    nSensitivity: usize,
) -> Status {
    const NAME: &str = "fmi3GetAdjointDerivative";
    if !M::PROVIDES_DIRECTIONAL_DERIVATIVES {
        // SAFETY: see unsupported.
        return unsafe { unsupported::<M>(instance, NAME, "providesAdjointDerivatives is false") };
    }
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, table::GET_ADJOINT_DERIVATIVE, None, |i| {
            let unknowns = slice(unknowns, nUnknowns, "unknowns")?;
            let knowns = slice(knowns, nKnowns, "knowns")?;
            let seed = slice(seed, nSeed, "seed")?;
            i.adjoint_derivative(NAME, unknowns, knowns, seed, slice_mut(sensitivity, nSensitivity, "sensitivity")?)
        })
    }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3EnterConfigurationMode<M: FmuModel>(instance: Fmi3Instance) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3EnterConfigurationMode", NO_STRUCTURAL_PARAMETERS) }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3ExitConfigurationMode<M: FmuModel>(instance: Fmi3Instance) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3ExitConfigurationMode", NO_STRUCTURAL_PARAMETERS) }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3GetIntervalDecimal<M: FmuModel>(
    instance: Fmi3Instance,
    _valueReferences: *const Fmi3ValueReference,
    _nValueReferences: usize,
    _intervals: *mut f64,
    _qualifiers: *mut Fmi3IntervalQualifier,
) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3GetIntervalDecimal", NO_CLOCKS) }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3GetIntervalFraction<M: FmuModel>(
    instance: Fmi3Instance,
    _valueReferences: *const Fmi3ValueReference,
    _nValueReferences: usize,
    _counters: *mut u64,
    _resolutions: *mut u64,
    _qualifiers: *mut Fmi3IntervalQualifier,
) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3GetIntervalFraction", NO_CLOCKS) }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3GetShiftDecimal<M: FmuModel>(
    instance: Fmi3Instance,
    _valueReferences: *const Fmi3ValueReference,
    _nValueReferences: usize,
    _shifts: *mut f64,
) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3GetShiftDecimal", NO_CLOCKS) }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3GetShiftFraction<M: FmuModel>(
    instance: Fmi3Instance,
    _valueReferences: *const Fmi3ValueReference,
    _nValueReferences: usize,
    _counters: *mut u64,
    _resolutions: *mut u64,
) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3GetShiftFraction", NO_CLOCKS) }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3SetIntervalDecimal<M: FmuModel>(
    instance: Fmi3Instance,
    _valueReferences: *const Fmi3ValueReference,
    _nValueReferences: usize,
    _intervals: *const f64,
) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3SetIntervalDecimal", NO_CLOCKS) }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3SetIntervalFraction<M: FmuModel>(
    instance: Fmi3Instance,
    _valueReferences: *const Fmi3ValueReference,
    _nValueReferences: usize,
    _counters: *const u64,
    _resolutions: *const u64,
) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3SetIntervalFraction", NO_CLOCKS) }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3SetShiftDecimal<M: FmuModel>(
    instance: Fmi3Instance,
    _valueReferences: *const Fmi3ValueReference,
    _nValueReferences: usize,
    _shifts: *const f64,
) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3SetShiftDecimal", NO_CLOCKS) }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3SetShiftFraction<M: FmuModel>(
    instance: Fmi3Instance,
    _valueReferences: *const Fmi3ValueReference,
    _nValueReferences: usize,
    _counters: *const u64,
    _resolutions: *const u64,
) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3SetShiftFraction", NO_CLOCKS) }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3EvaluateDiscreteStates<M: FmuModel>(instance: Fmi3Instance) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3EvaluateDiscreteStates", NO_EVENT_MODE) }
}

/// fmi3UpdateDiscreteStates of a co-simulation instance (`fmi3_me::fmi3UpdateDiscreteStates`
/// sends it here).
///
/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn co_simulation_update_discrete_states<M: FmuModel>(
    instance: Fmi3Instance,
    discreteStatesNeedUpdate: *mut Fmi3Boolean,
    terminateSimulation: *mut Fmi3Boolean,
    nominalsOfContinuousStatesChanged: *mut Fmi3Boolean,
    valuesOfContinuousStatesChanged: *mut Fmi3Boolean,
    nextEventTimeDefined: *mut Fmi3Boolean,
    nextEventTime: *mut f64,
) -> Status {
    if !M::MIGHT_RETURN_EARLY {
        // SAFETY: see unsupported.
        return unsafe { unsupported::<M>(instance, "fmi3UpdateDiscreteStates", NO_EVENT_MODE) };
    }
    // SAFETY: see dispatch; every output pointer is checked for null before it is written.
    unsafe {
        dispatch::<M>(instance, table::UPDATE_DISCRETE_STATES, None, |_| {
            let flags = [
                (discreteStatesNeedUpdate, "discreteStatesNeedUpdate"),
                (terminateSimulation, "terminateSimulation"),
                (nominalsOfContinuousStatesChanged, "nominalsOfContinuousStatesChanged"),
                (valuesOfContinuousStatesChanged, "valuesOfContinuousStatesChanged"),
                (nextEventTimeDefined, "nextEventTimeDefined"),
            ];
            if let Some((_, name)) = flags.iter().find(|(pointer, _)| pointer.is_null()) {
                return Err(Failure::error(format!("{name} is a null pointer")));
            }
            if nextEventTime.is_null() {
                return Err(Failure::error("nextEventTime is a null pointer".to_string()));
            }
            // The contact has no discrete states to iterate on: the state of the stateful laws
            // is continuous and advances in DoStep, so one update settles the event, and no time
            // event is scheduled.
            for (pointer, _) in flags {
                *pointer = false;
            }
            *nextEventTime = 0.0;
            Ok(Status::Ok)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Co-simulation.

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3EnterStepMode<M: FmuModel>(instance: Fmi3Instance) -> Status {
    if !M::MIGHT_RETURN_EARLY {
        // SAFETY: see unsupported.
        return unsafe { unsupported::<M>(instance, "fmi3EnterStepMode", NO_EVENT_MODE) };
    }
    // SAFETY: see dispatch.
    unsafe {
        dispatch::<M>(instance, table::ENTER_STEP_MODE, None, |i| {
            i.state = State::StepMode;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation; `valueReferences` and `orders`
/// point to `nValueReferences` elements, `values` to `nValues`.
pub unsafe fn fmi3GetOutputDerivatives<M: FmuModel>(
    instance: Fmi3Instance,
    valueReferences: *const Fmi3ValueReference,
    nValueReferences: usize,
    orders: *const i32,
    values: *mut f64,
    nValues: usize,
) -> Status {
    const NAME: &str = "fmi3GetOutputDerivatives";
    if M::MAX_OUTPUT_DERIVATIVE_ORDER == 0 {
        // SAFETY: see unsupported.
        return unsafe { unsupported::<M>(instance, NAME, "maxOutputDerivativeOrder is 0") };
    }
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(instance, table::GET_OUTPUT_DERIVATIVES, None, |i| {
            if nValues != nValueReferences {
                return Err(Failure::error(format!(
                    "{NAME}: nValues = {nValues} for {nValueReferences} value references; every output with derivatives is a scalar"
                )));
            }
            let vrs = slice(valueReferences, nValueReferences, "valueReferences")?;
            let orders = slice(orders, nValueReferences, "orders")?;
            i.output_derivatives(NAME, vrs, orders, slice_mut(values, nValues, "values")?)
        })
    }
}

/// Steps over [t, t + h] with the inputs held. The four outputs are written whenever the
/// pointers are valid, also when the step is discarded: `lastSuccessfulTime` then tells the
/// importer where the FMU stayed. A Discard keeps the instance in Step Mode.
///
/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation; the four pointers are writable.
pub unsafe fn fmi3DoStep<M: FmuModel>(
    instance: Fmi3Instance,
    currentCommunicationPoint: f64,
    communicationStepSize: f64,
    _noSetFMUStatePriorToCurrentPoint: Fmi3Boolean,
    eventHandlingNeeded: *mut Fmi3Boolean,
    terminateSimulation: *mut Fmi3Boolean,
    earlyReturn: *mut Fmi3Boolean,
    lastSuccessfulTime: *mut f64,
) -> Status {
    // SAFETY: see dispatch; the output pointers are checked for null before they are written.
    unsafe {
        dispatch::<M>(instance, table::DO_STEP, None, |i| {
            require_non_null(&[
                (eventHandlingNeeded.is_null(), "eventHandlingNeeded"),
                (terminateSimulation.is_null(), "terminateSimulation"),
                (earlyReturn.is_null(), "earlyReturn"),
                (lastSuccessfulTime.is_null(), "lastSuccessfulTime"),
            ])?;
            // With earlyReturnAllowed the step may end at a predicted event (contact onset):
            // earlyReturn and lastSuccessfulTime say where, and with eventModeUsed the importer
            // is asked to handle the event in Event Mode. The block never asks to end the
            // simulation.
            let result = i.do_step_early(currentCommunicationPoint, communicationStepSize);
            let early = matches!(result, Ok((_, true)));
            *eventHandlingNeeded = early && i.event_mode_used;
            *terminateSimulation = false;
            *earlyReturn = early;
            *lastSuccessfulTime = i.last_successful_time;
            result.map(|(status, _)| status)
        })
    }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateCoSimulation.
pub unsafe fn fmi3ActivateModelPartition<M: FmuModel>(instance: Fmi3Instance, _clockReference: Fmi3ValueReference, _activationTime: f64) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(instance, "fmi3ActivateModelPartition", NO_CLOCKS) }
}

/// The signature of every function of fmi3Functions.h, one a line, in the standard's order: calls
/// the macro `$callback` with the tokens `$($args)*` and then `safe_functions { fn name(arg: Type,
/// ...) -> Return; ... } unsafe_functions { ... }` (the safe functions are those without pointer
/// arguments). The one list of the header: [`export_fmi3`](crate::export_fmi3) turns it into the
/// exports, and a harness that calls the functions of several models (the fuzz targets) into its
/// own forwarders. The types are those of [`abi`](crate::fmi3::abi), which must be in scope
/// where `$callback` expands.
#[macro_export]
macro_rules! fmi3_functions {
    ($callback:path; $($args:tt)*) => {
        $callback! {
            $($args)*
            safe_functions {
                fn fmi3GetVersion() -> *const c_char;
            }
            unsafe_functions {
                fn fmi3SetDebugLogging(instance: Fmi3Instance, loggingOn: Fmi3Boolean, nCategories: usize, categories: *const Fmi3String) -> Status;
                fn fmi3InstantiateModelExchange(instanceName: Fmi3String, _instantiationToken: Fmi3String, _resourcePath: Fmi3String, _visible: Fmi3Boolean, loggingOn: Fmi3Boolean, instanceEnvironment: Fmi3InstanceEnvironment, logMessage: Option<Fmi3LoggerCallback>) -> Fmi3Instance;
                fn fmi3InstantiateCoSimulation(instanceName: Fmi3String, instantiationToken: Fmi3String, resourcePath: Fmi3String, _visible: Fmi3Boolean, loggingOn: Fmi3Boolean, eventModeUsed: Fmi3Boolean, _earlyReturnAllowed: Fmi3Boolean, _requiredIntermediateVariables: *const Fmi3ValueReference, _nRequiredIntermediateVariables: usize, instanceEnvironment: Fmi3InstanceEnvironment, logMessage: Option<Fmi3LoggerCallback>, _intermediateUpdate: Option<Fmi3IntermediateUpdateCallback>) -> Fmi3Instance;
                fn fmi3InstantiateScheduledExecution(instanceName: Fmi3String, _instantiationToken: Fmi3String, _resourcePath: Fmi3String, _visible: Fmi3Boolean, loggingOn: Fmi3Boolean, instanceEnvironment: Fmi3InstanceEnvironment, logMessage: Option<Fmi3LoggerCallback>, _clockUpdate: Option<Fmi3ClockUpdateCallback>, _lockPreemption: Option<Fmi3LockPreemptionCallback>, _unlockPreemption: Option<Fmi3UnlockPreemptionCallback>) -> Fmi3Instance;
                fn fmi3FreeInstance(instance: Fmi3Instance);
                fn fmi3EnterInitializationMode(instance: Fmi3Instance, _toleranceDefined: Fmi3Boolean, _tolerance: f64, startTime: f64, _stopTimeDefined: Fmi3Boolean, _stopTime: f64) -> Status;
                fn fmi3ExitInitializationMode(instance: Fmi3Instance) -> Status;
                fn fmi3EnterEventMode(instance: Fmi3Instance) -> Status;
                fn fmi3Terminate(instance: Fmi3Instance) -> Status;
                fn fmi3Reset(instance: Fmi3Instance) -> Status;
                fn fmi3GetFloat32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *mut f32, nValues: usize) -> Status;
                fn fmi3GetFloat64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut f64, nValues: usize) -> Status;
                fn fmi3GetInt8(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *mut i8, nValues: usize) -> Status;
                fn fmi3GetUInt8(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *mut u8, nValues: usize) -> Status;
                fn fmi3GetInt16(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *mut i16, nValues: usize) -> Status;
                fn fmi3GetUInt16(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *mut u16, nValues: usize) -> Status;
                fn fmi3GetInt32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut i32, nValues: usize) -> Status;
                fn fmi3GetUInt32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *mut u32, nValues: usize) -> Status;
                fn fmi3GetInt64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut i64, nValues: usize) -> Status;
                fn fmi3GetUInt64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *mut u64, nValues: usize) -> Status;
                fn fmi3GetBoolean(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut Fmi3Boolean, nValues: usize) -> Status;
                fn fmi3GetString(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *mut Fmi3String, nValues: usize) -> Status;
                fn fmi3GetBinary(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _valueSizes: *mut usize, _values: *mut Fmi3Binary, nValues: usize) -> Status;
                fn fmi3GetClock(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *mut Fmi3Clock) -> Status;
                fn fmi3SetFloat32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *const f32, nValues: usize) -> Status;
                fn fmi3SetFloat64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const f64, nValues: usize) -> Status;
                fn fmi3SetInt8(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *const i8, nValues: usize) -> Status;
                fn fmi3SetUInt8(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *const u8, nValues: usize) -> Status;
                fn fmi3SetInt16(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *const i16, nValues: usize) -> Status;
                fn fmi3SetUInt16(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *const u16, nValues: usize) -> Status;
                fn fmi3SetInt32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const i32, nValues: usize) -> Status;
                fn fmi3SetUInt32(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *const u32, nValues: usize) -> Status;
                fn fmi3SetInt64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const i64, nValues: usize) -> Status;
                fn fmi3SetUInt64(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *const u64, nValues: usize) -> Status;
                fn fmi3SetBoolean(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const Fmi3Boolean, nValues: usize) -> Status;
                fn fmi3SetString(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, values: *const Fmi3String, nValues: usize) -> Status;
                fn fmi3SetBinary(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _valueSizes: *const usize, _values: *const Fmi3Binary, nValues: usize) -> Status;
                fn fmi3SetClock(instance: Fmi3Instance, valueReferences: *const Fmi3ValueReference, nValueReferences: usize, _values: *const Fmi3Clock) -> Status;
                fn fmi3GetNumberOfVariableDependencies(instance: Fmi3Instance, valueReference: Fmi3ValueReference, nDependencies: *mut usize) -> Status;
                fn fmi3GetVariableDependencies(instance: Fmi3Instance, dependent: Fmi3ValueReference, elementIndicesOfDependent: *mut usize, independents: *mut Fmi3ValueReference, elementIndicesOfIndependents: *mut usize, dependencyKinds: *mut Fmi3DependencyKind, nDependencies: usize) -> Status;
                fn fmi3GetFMUState(instance: Fmi3Instance, FMUState: *mut Fmi3FmuState) -> Status;
                fn fmi3SetFMUState(instance: Fmi3Instance, FMUState: Fmi3FmuState) -> Status;
                fn fmi3FreeFMUState(instance: Fmi3Instance, FMUState: *mut Fmi3FmuState) -> Status;
                fn fmi3SerializedFMUStateSize(instance: Fmi3Instance, FMUState: Fmi3FmuState, size: *mut usize) -> Status;
                fn fmi3SerializeFMUState(instance: Fmi3Instance, FMUState: Fmi3FmuState, serializedState: *mut Fmi3Byte, size: usize) -> Status;
                fn fmi3DeserializeFMUState(instance: Fmi3Instance, serializedState: *const Fmi3Byte, size: usize, FMUState: *mut Fmi3FmuState) -> Status;
                fn fmi3GetDirectionalDerivative(instance: Fmi3Instance, _unknowns: *const Fmi3ValueReference, _nUnknowns: usize, _knowns: *const Fmi3ValueReference, _nKnowns: usize, _seed: *const f64, _nSeed: usize, _sensitivity: *mut f64, _nSensitivity: usize) -> Status;
                fn fmi3GetAdjointDerivative(instance: Fmi3Instance, _unknowns: *const Fmi3ValueReference, _nUnknowns: usize, _knowns: *const Fmi3ValueReference, _nKnowns: usize, _seed: *const f64, _nSeed: usize, _sensitivity: *mut f64, _nSensitivity: usize) -> Status;
                fn fmi3EnterConfigurationMode(instance: Fmi3Instance) -> Status;
                fn fmi3ExitConfigurationMode(instance: Fmi3Instance) -> Status;
                fn fmi3GetIntervalDecimal(instance: Fmi3Instance, _valueReferences: *const Fmi3ValueReference, _nValueReferences: usize, _intervals: *mut f64, _qualifiers: *mut Fmi3IntervalQualifier) -> Status;
                fn fmi3GetIntervalFraction(instance: Fmi3Instance, _valueReferences: *const Fmi3ValueReference, _nValueReferences: usize, _counters: *mut u64, _resolutions: *mut u64, _qualifiers: *mut Fmi3IntervalQualifier) -> Status;
                fn fmi3GetShiftDecimal(instance: Fmi3Instance, _valueReferences: *const Fmi3ValueReference, _nValueReferences: usize, _shifts: *mut f64) -> Status;
                fn fmi3GetShiftFraction(instance: Fmi3Instance, _valueReferences: *const Fmi3ValueReference, _nValueReferences: usize, _counters: *mut u64, _resolutions: *mut u64) -> Status;
                fn fmi3SetIntervalDecimal(instance: Fmi3Instance, _valueReferences: *const Fmi3ValueReference, _nValueReferences: usize, _intervals: *const f64) -> Status;
                fn fmi3SetIntervalFraction(instance: Fmi3Instance, _valueReferences: *const Fmi3ValueReference, _nValueReferences: usize, _counters: *const u64, _resolutions: *const u64) -> Status;
                fn fmi3SetShiftDecimal(instance: Fmi3Instance, _valueReferences: *const Fmi3ValueReference, _nValueReferences: usize, _shifts: *const f64) -> Status;
                fn fmi3SetShiftFraction(instance: Fmi3Instance, _valueReferences: *const Fmi3ValueReference, _nValueReferences: usize, _counters: *const u64, _resolutions: *const u64) -> Status;
                fn fmi3EvaluateDiscreteStates(instance: Fmi3Instance) -> Status;
                fn fmi3UpdateDiscreteStates(instance: Fmi3Instance, _discreteStatesNeedUpdate: *mut Fmi3Boolean, _terminateSimulation: *mut Fmi3Boolean, _nominalsOfContinuousStatesChanged: *mut Fmi3Boolean, _valuesOfContinuousStatesChanged: *mut Fmi3Boolean, _nextEventTimeDefined: *mut Fmi3Boolean, _nextEventTime: *mut f64) -> Status;
                fn fmi3EnterContinuousTimeMode(instance: Fmi3Instance) -> Status;
                fn fmi3CompletedIntegratorStep(instance: Fmi3Instance, _noSetFMUStatePriorToCurrentPoint: Fmi3Boolean, _enterEventMode: *mut Fmi3Boolean, _terminateSimulation: *mut Fmi3Boolean) -> Status;
                fn fmi3SetTime(instance: Fmi3Instance, _time: f64) -> Status;
                fn fmi3SetContinuousStates(instance: Fmi3Instance, _continuousStates: *const f64, _nContinuousStates: usize) -> Status;
                fn fmi3GetContinuousStateDerivatives(instance: Fmi3Instance, _derivatives: *mut f64, _nContinuousStates: usize) -> Status;
                fn fmi3GetEventIndicators(instance: Fmi3Instance, _eventIndicators: *mut f64, _nEventIndicators: usize) -> Status;
                fn fmi3GetContinuousStates(instance: Fmi3Instance, _continuousStates: *mut f64, _nContinuousStates: usize) -> Status;
                fn fmi3GetNominalsOfContinuousStates(instance: Fmi3Instance, _nominals: *mut f64, _nContinuousStates: usize) -> Status;
                fn fmi3GetNumberOfEventIndicators(instance: Fmi3Instance, _nEventIndicators: *mut usize) -> Status;
                fn fmi3GetNumberOfContinuousStates(instance: Fmi3Instance, _nContinuousStates: *mut usize) -> Status;
                fn fmi3EnterStepMode(instance: Fmi3Instance) -> Status;
                fn fmi3GetOutputDerivatives(instance: Fmi3Instance, _valueReferences: *const Fmi3ValueReference, _nValueReferences: usize, _orders: *const i32, _values: *mut f64, _nValues: usize) -> Status;
                fn fmi3DoStep(instance: Fmi3Instance, currentCommunicationPoint: f64, communicationStepSize: f64, _noSetFMUStatePriorToCurrentPoint: Fmi3Boolean, eventHandlingNeeded: *mut Fmi3Boolean, terminateSimulation: *mut Fmi3Boolean, earlyReturn: *mut Fmi3Boolean, lastSuccessfulTime: *mut f64) -> Status;
                fn fmi3ActivateModelPartition(instance: Fmi3Instance, _clockReference: Fmi3ValueReference, _activationTime: f64) -> Status;
            }
        }
    };
}

/// Exports every function of fmi3Functions.h for the model type `$model`: each a thin
/// `#[no_mangle]` wrapper around the generic function of the same name in this module, generated
/// by [`forward_fmi_functions`](crate::forward_fmi_functions) from the one-line signatures of
/// [`fmi3_functions`](crate::fmi3_functions). Invoke it once, in a module of its own, in the
/// crate that builds the FMU's binary (or through [`export_fmu`](crate::export_fmu)).
#[macro_export]
macro_rules! export_fmi3 {
    ($model:ty) => {
        #[allow(unused_imports)]
        use $crate::fmi3::abi::*;
        $crate::fmi3_functions!($crate::forward_fmi_functions; fmi3, "3.0", $model;);
    };
}
