//! The FMI 2.0 C API (fmi2Functions.h): co-simulation here, Model Exchange in `fmi2_me.rs`.
//!
//! Every function is a thin adapter: it converts the C arguments and calls [`dispatch`] with its
//! entry of the state table below. The optional functions this FMU does not provide log why and
//! answer fmi2Error.

#![allow(non_snake_case)]

use std::ffi::{c_char, c_int, c_uint, c_void};

use super::instance::{self, c_str, dispatch, guarded, slice, slice_mut, Function, Instance, State, States};
use super::logger::{Fmi2LoggerCallback, Logger};
use super::resources;
use super::status::{Failure, Status};
use crate::model::FmuModel;
use crate::table::IntKind;

pub use super::fmi2_me::{
    fmi2CompletedIntegratorStep, fmi2EnterContinuousTimeMode, fmi2EnterEventMode, fmi2GetContinuousStates, fmi2GetDerivatives,
    fmi2GetEventIndicators, fmi2GetNominalsOfContinuousStates, fmi2NewDiscreteStates, fmi2SetContinuousStates, fmi2SetTime, Fmi2EventInfo,
};

pub type Fmi2Component = *mut c_void;
pub type Fmi2FmuState = *mut c_void;
pub type Fmi2Boolean = c_int;
pub type Fmi2ValueReference = c_uint;
pub type Fmi2String = *const c_char;

pub const FMI2_TRUE: Fmi2Boolean = 1;
pub const FMI2_FALSE: Fmi2Boolean = 0;

/// `fmi2Type`.
pub const FMI2_MODEL_EXCHANGE: c_int = 0;
pub const FMI2_CO_SIMULATION: c_int = 1;

/// `fmi2StatusKind`.
pub const FMI2_DO_STEP_STATUS: c_int = 0;
pub const FMI2_PENDING_STATUS: c_int = 1;
pub const FMI2_LAST_SUCCESSFUL_TIME: c_int = 2;
pub const FMI2_TERMINATED: c_int = 3;

/// The types of the exported signatures, for the export macro.
pub mod abi {
    pub use super::{Fmi2Boolean, Fmi2CallbackFunctions, Fmi2Component, Fmi2FmuState, Fmi2String, Fmi2ValueReference};
    pub use crate::status::Status;
    pub use std::ffi::{c_char, c_int, c_uint, c_void};
}

/// `fmi2CallbackFunctions`.
#[repr(C)]
pub struct Fmi2CallbackFunctions {
    pub logger: Option<Fmi2LoggerCallback>,
    pub allocate_memory: Option<unsafe extern "C" fn(usize, usize) -> *mut c_void>,
    pub free_memory: Option<unsafe extern "C" fn(*mut c_void)>,
    pub step_finished: Option<unsafe extern "C" fn(*mut c_void, c_int)>,
    pub component_environment: *mut c_void,
}

/// The FMI 2.0 co-simulation state table: where each function may be called.
mod table {
    use super::{Function, State::*, States};

    const fn f(name: &'static str, allowed: States) -> Function {
        Function { name, allowed }
    }

    /// Where variable values can be read: after initialisation has begun.
    const READABLE: States = States::of(&[InitializationMode, StepMode, StepFailed, Terminated, Error, EventMode, ContinuousTimeMode]);
    /// Where FMU states can be handled.
    const STATEFUL: States =
        States::of(&[Instantiated, InitializationMode, StepMode, StepFailed, Terminated, Error, EventMode, ContinuousTimeMode]);
    /// Where variables can be set (Model Exchange: inputs in Event and Continuous-Time Mode).
    const WRITABLE: States = States::of(&[Instantiated, InitializationMode, StepMode, EventMode, ContinuousTimeMode]);
    const STATUS: States = States::of(&[StepMode, StepFailed, Terminated, Error]);

    pub const SET_DEBUG_LOGGING: Function = f("fmi2SetDebugLogging", States::NOT_FATAL);
    pub const SETUP_EXPERIMENT: Function = f("fmi2SetupExperiment", States::of(&[Instantiated]));
    pub const ENTER_INITIALIZATION_MODE: Function = f("fmi2EnterInitializationMode", States::of(&[Instantiated]));
    pub const EXIT_INITIALIZATION_MODE: Function = f("fmi2ExitInitializationMode", States::of(&[InitializationMode]));
    pub const TERMINATE: Function = f("fmi2Terminate", States::of(&[StepMode, StepFailed, EventMode, ContinuousTimeMode]));
    pub const RESET: Function = f("fmi2Reset", States::NOT_FATAL);
    pub const GET_REAL: Function = f("fmi2GetReal", READABLE);
    pub const GET_INTEGER: Function = f("fmi2GetInteger", READABLE);
    pub const GET_BOOLEAN: Function = f("fmi2GetBoolean", READABLE);
    pub const GET_STRING: Function = f("fmi2GetString", READABLE);
    pub const SET_REAL: Function = f("fmi2SetReal", WRITABLE);
    pub const SET_INTEGER: Function = f("fmi2SetInteger", WRITABLE);
    pub const SET_BOOLEAN: Function = f("fmi2SetBoolean", WRITABLE);
    pub const SET_STRING: Function = f("fmi2SetString", WRITABLE);
    pub const GET_FMU_STATE: Function = f("fmi2GetFMUstate", STATEFUL);
    pub const SET_FMU_STATE: Function = f("fmi2SetFMUstate", STATEFUL);
    pub const FREE_FMU_STATE: Function = f("fmi2FreeFMUstate", STATEFUL);
    pub const SERIALIZED_FMU_STATE_SIZE: Function = f("fmi2SerializedFMUstateSize", STATEFUL);
    pub const SERIALIZE_FMU_STATE: Function = f("fmi2SerializeFMUstate", STATEFUL);
    pub const DESERIALIZE_FMU_STATE: Function = f("fmi2DeSerializeFMUstate", STATEFUL);
    pub const DO_STEP: Function = f("fmi2DoStep", States::of(&[StepMode]));
    /// Where inputs can be set (the standard's rule for fmi2SetRealInputDerivatives).
    pub const SET_REAL_INPUT_DERIVATIVES: Function =
        f("fmi2SetRealInputDerivatives", States::of(&[Instantiated, InitializationMode, StepMode]));
    pub const GET_DIRECTIONAL_DERIVATIVE: Function = f("fmi2GetDirectionalDerivative", READABLE);
    pub const GET_REAL_OUTPUT_DERIVATIVES: Function = f("fmi2GetRealOutputDerivatives", STATUS);
    pub const GET_STATUS: Function = f("fmi2GetStatus", STATUS);
    pub const GET_REAL_STATUS: Function = f("fmi2GetRealStatus", STATUS);
    pub const GET_INTEGER_STATUS: Function = f("fmi2GetIntegerStatus", STATUS);
    pub const GET_BOOLEAN_STATUS: Function = f("fmi2GetBooleanStatus", STATUS);
    pub const GET_STRING_STATUS: Function = f("fmi2GetStringStatus", STATUS);
}

/// Logs and answers Error for a function this FMU does not provide.
///
/// # Safety
/// `c` must be null or a live instance.
unsafe fn unsupported<M: FmuModel>(c: Fmi2Component, function: &str, why: &str) -> Status {
    guarded(Status::Error, || {
        if c.is_null() {
            return Status::Error;
        }
        // SAFETY: non-null and live by the caller's contract.
        let instance = unsafe { &*c.cast::<Instance<M>>() };
        instance.unsupported(function, why)
    })
}

/// Why the Model Exchange functions answer Error.
fn model_exchange<M: FmuModel>() -> String {
    format!("{} is a co-simulation FMU (Model Exchange is not provided)", M::NAME)
}

fn boolean(b: bool) -> Fmi2Boolean {
    if b {
        FMI2_TRUE
    } else {
        FMI2_FALSE
    }
}

// ---------------------------------------------------------------------------------------------
// Inquire platform and version, logging.

pub fn fmi2GetTypesPlatform<M: FmuModel>() -> *const c_char {
    c"default".as_ptr()
}

pub fn fmi2GetVersion<M: FmuModel>() -> *const c_char {
    c"2.0".as_ptr()
}

/// # Safety
/// `c` is an instance from fmi2Instantiate; `categories` holds `nCategories` C strings.
pub unsafe fn fmi2SetDebugLogging<M: FmuModel>(
    c: Fmi2Component,
    loggingOn: Fmi2Boolean,
    nCategories: usize,
    categories: *const Fmi2String,
) -> Status {
    // SAFETY: pointers as documented by the standard; checked for null inside.
    unsafe {
        dispatch::<M>(c, table::SET_DEBUG_LOGGING, None, |instance| {
            let pointers = slice(categories, nCategories, "categories")?;
            let mut names = Vec::with_capacity(pointers.len());
            for (i, p) in pointers.iter().enumerate() {
                names.push(c_str(*p, &format!("categories[{i}]")).map_err(Failure::error)?);
            }
            instance.logger.set_debug_logging(loggingOn != FMI2_FALSE, &names).map_err(Failure::error)?;
            Ok(Status::Ok)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Creation and destruction.

/// # Safety
/// Arguments as in the FMI 2.0 standard; `functions` must point to valid callbacks.
pub unsafe fn fmi2Instantiate<M: FmuModel>(
    instanceName: Fmi2String,
    fmuType: c_int,
    fmuGUID: Fmi2String,
    fmuResourceLocation: Fmi2String,
    functions: *const Fmi2CallbackFunctions,
    _visible: Fmi2Boolean,
    loggingOn: Fmi2Boolean,
) -> Fmi2Component {
    guarded(std::ptr::null_mut(), || {
        if functions.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: non-null, and the importer's callback struct by the standard.
        let functions = unsafe { &*functions };
        // SAFETY: a C string or null, by the standard.
        let name = unsafe { c_str(instanceName, "instanceName") };
        let logger = Logger::fmi2(functions.logger, functions.component_environment, name.as_ref().unwrap_or(&""), loggingOn != 0);
        let fail = |message: String| {
            logger.log(Status::Error, &format!("fmi2Instantiate: {message}"));
            std::ptr::null_mut()
        };
        if let Err(e) = name {
            return fail(e);
        }
        let for_model_exchange = fmuType == FMI2_MODEL_EXCHANGE && M::MODEL_EXCHANGE;
        if fmuType != FMI2_CO_SIMULATION && !for_model_exchange {
            if M::MODEL_EXCHANGE {
                return fail(format!("fmuType = {fmuType} is neither fmi2ModelExchange (0) nor fmi2CoSimulation (1)"));
            }
            return fail(format!("fmuType = {fmuType}: {}; instantiate with fmi2CoSimulation", model_exchange::<M>()));
        }
        // SAFETY: a C string or null, by the standard.
        let mut table = M::build_table();
        match unsafe { c_str(fmuGUID, "fmuGUID") } {
            Ok(guid) => {
                if let Err(e) = table.accept_token(guid, "fmuGUID") {
                    return fail(e);
                }
            }
            Err(e) => return fail(e),
        }
        let mut resources = None;
        if !fmuResourceLocation.is_null() {
            // SAFETY: non-null C string by the standard.
            match unsafe { c_str(fmuResourceLocation, "fmuResourceLocation") }.and_then(resources::from_fmi2_uri) {
                Ok(path) => resources = Some(path),
                Err(e) => logger.log(Status::Warning, &format!("fmi2Instantiate: {e}; geometry files must then be absolute paths")),
            }
        }
        let instance = Instance::<M>::new(table, logger, resources);
        if for_model_exchange {
            return instance.into_model_exchange().into_raw();
        }
        instance.into_raw()
    })
}

/// # Safety
/// `c` is null or an instance from fmi2Instantiate, not used afterwards.
pub unsafe fn fmi2FreeInstance<M: FmuModel>(c: Fmi2Component) {
    if !c.is_null() {
        // SAFETY: made by fmi2Instantiate and freed once, by the standard's contract.
        guarded((), || unsafe { Instance::<M>::free_raw(c) });
    }
}

// ---------------------------------------------------------------------------------------------
// Initialisation, termination, reset.

/// # Safety
/// `c` is an instance from fmi2Instantiate.
pub unsafe fn fmi2SetupExperiment<M: FmuModel>(
    c: Fmi2Component,
    _toleranceDefined: Fmi2Boolean,
    _tolerance: f64,
    startTime: f64,
    _stopTimeDefined: Fmi2Boolean,
    _stopTime: f64,
) -> Status {
    // SAFETY: see dispatch.
    unsafe {
        dispatch::<M>(c, table::SETUP_EXPERIMENT, None, |instance| {
            if !startTime.is_finite() {
                return Err(Failure::error(format!("startTime = {startTime} must be finite")));
            }
            instance.model.set_time(startTime);
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate.
pub unsafe fn fmi2EnterInitializationMode<M: FmuModel>(c: Fmi2Component) -> Status {
    // SAFETY: see dispatch.
    unsafe { dispatch::<M>(c, table::ENTER_INITIALIZATION_MODE, None, |i| i.enter_initialization_mode(i.model.time())) }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate.
pub unsafe fn fmi2ExitInitializationMode<M: FmuModel>(c: Fmi2Component) -> Status {
    // SAFETY: see dispatch.
    unsafe { dispatch::<M>(c, table::EXIT_INITIALIZATION_MODE, None, |i| i.exit_initialization_mode()) }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate.
pub unsafe fn fmi2Terminate<M: FmuModel>(c: Fmi2Component) -> Status {
    // SAFETY: see dispatch.
    unsafe {
        dispatch::<M>(c, table::TERMINATE, None, |i| {
            i.state = State::Terminated;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate.
pub unsafe fn fmi2Reset<M: FmuModel>(c: Fmi2Component) -> Status {
    // SAFETY: see dispatch.
    unsafe {
        dispatch::<M>(c, table::RESET, None, |i| {
            i.reset();
            Ok(Status::Ok)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Getting and setting variables.

/// # Safety
/// `vr` and `value` point to `nvr` elements.
pub unsafe fn fmi2GetReal<M: FmuModel>(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut f64) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe { dispatch::<M>(c, table::GET_REAL, None, |i| i.get_floats(slice(vr, nvr, "vr")?, slice_mut(value, nvr, "value")?)) }
}

/// # Safety
/// `vr` and `value` point to `nvr` elements.
pub unsafe fn fmi2GetInteger<M: FmuModel>(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut c_int) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(c, table::GET_INTEGER, None, |i| {
            i.get_ints(slice(vr, nvr, "vr")?, slice_mut(value, nvr, "value")?, IntKind::Fmi2Integer, |x| x as c_int)
        })
    }
}

/// # Safety
/// `vr` and `value` point to `nvr` elements.
pub unsafe fn fmi2GetBoolean<M: FmuModel>(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2Boolean) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe { dispatch::<M>(c, table::GET_BOOLEAN, None, |i| i.get_bools(slice(vr, nvr, "vr")?, slice_mut(value, nvr, "value")?, boolean)) }
}

/// # Safety
/// `vr` and `value` point to `nvr` elements.
pub unsafe fn fmi2GetString<M: FmuModel>(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2String) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe { dispatch::<M>(c, table::GET_STRING, None, |i| i.get_strings(slice(vr, nvr, "vr")?, slice_mut(value, nvr, "value")?)) }
}

/// # Safety
/// `vr` and `value` point to `nvr` elements.
pub unsafe fn fmi2SetReal<M: FmuModel>(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const f64) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe { dispatch::<M>(c, table::SET_REAL, None, |i| i.set_floats(slice(vr, nvr, "vr")?, slice(value, nvr, "value")?)) }
}

/// # Safety
/// `vr` and `value` point to `nvr` elements.
pub unsafe fn fmi2SetInteger<M: FmuModel>(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const c_int) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(c, table::SET_INTEGER, None, |i| {
            let values = slice(value, nvr, "value")?;
            i.set_ints(slice(vr, nvr, "vr")?, values.iter().map(|x| i64::from(*x)), IntKind::Fmi2Integer)
        })
    }
}

/// # Safety
/// `vr` and `value` point to `nvr` elements.
pub unsafe fn fmi2SetBoolean<M: FmuModel>(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2Boolean) -> Status {
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(c, table::SET_BOOLEAN, None, |i| {
            let values = slice(value, nvr, "value")?;
            i.set_bools(slice(vr, nvr, "vr")?, values.iter().map(|x| *x != FMI2_FALSE))
        })
    }
}

/// # Safety
/// `vr` and `value` point to `nvr` elements; each value is a C string.
pub unsafe fn fmi2SetString<M: FmuModel>(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2String) -> Status {
    // SAFETY: see dispatch and slice; set_strings checks each pointer.
    unsafe { dispatch::<M>(c, table::SET_STRING, None, |i| i.set_strings(slice(vr, nvr, "vr")?, slice(value, nvr, "value")?)) }
}

// ---------------------------------------------------------------------------------------------
// FMU state.

/// # Safety
/// `state` points to null or to a state from fmi2GetFMUstate.
pub unsafe fn fmi2GetFMUstate<M: FmuModel>(c: Fmi2Component, state: *mut Fmi2FmuState) -> Status {
    // SAFETY: see dispatch; `state` checked for null.
    unsafe {
        dispatch::<M>(c, table::GET_FMU_STATE, None, |i| {
            if state.is_null() {
                return Err(Failure::error("FMUstate is a null pointer"));
            }
            let saved = i.save_state();
            i.store_state(state, saved)?;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `state` is a state from fmi2GetFMUstate or fmi2DeSerializeFMUstate.
pub unsafe fn fmi2SetFMUstate<M: FmuModel>(c: Fmi2Component, state: Fmi2FmuState) -> Status {
    // SAFETY: see dispatch; `state` checked for null and made by this library.
    unsafe {
        dispatch::<M>(c, table::SET_FMU_STATE, None, |i| {
            if state.is_null() {
                return Err(Failure::error("FMUstate is a null pointer"));
            }
            let saved = &*i.saved_state(state)?;
            i.restore_state(saved);
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `state` points to null or to a state from this library.
pub unsafe fn fmi2FreeFMUstate<M: FmuModel>(c: Fmi2Component, state: *mut Fmi2FmuState) -> Status {
    // SAFETY: see dispatch; each pointer checked for null, the state made by this library.
    unsafe {
        dispatch::<M>(c, table::FREE_FMU_STATE, None, |i| {
            if state.is_null() {
                return Err(Failure::error("FMUstate is a null pointer"));
            }
            if !(*state).is_null() {
                i.free_saved_state(*state)?;
                *state = std::ptr::null_mut();
            }
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `state` is a state from this library; `size` is writable.
pub unsafe fn fmi2SerializedFMUstateSize<M: FmuModel>(c: Fmi2Component, state: Fmi2FmuState, size: *mut usize) -> Status {
    // SAFETY: see dispatch; pointers checked for null.
    unsafe {
        dispatch::<M>(c, table::SERIALIZED_FMU_STATE_SIZE, None, |i| {
            if state.is_null() || size.is_null() {
                return Err(Failure::error("FMUstate or size is a null pointer"));
            }
            *size = instance::serialize_state(&i.table, &*i.saved_state(state)?).len();
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `state` is a state from this library; `bytes` holds `size` writable bytes.
pub unsafe fn fmi2SerializeFMUstate<M: FmuModel>(c: Fmi2Component, state: Fmi2FmuState, bytes: *mut c_char, size: usize) -> Status {
    // SAFETY: see dispatch; pointers checked for null.
    unsafe {
        dispatch::<M>(c, table::SERIALIZE_FMU_STATE, None, |i| {
            if state.is_null() {
                return Err(Failure::error("FMUstate is a null pointer"));
            }
            let serialized = instance::serialize_state(&i.table, &*i.saved_state(state)?);
            if size < serialized.len() {
                return Err(Failure::error(format!("size = {size} is smaller than the serialized state ({} bytes)", serialized.len())));
            }
            slice_mut(bytes.cast::<u8>(), serialized.len(), "serializedState")?.copy_from_slice(&serialized);
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `bytes` holds `size` readable bytes; `state` is writable and null or a state from here.
pub unsafe fn fmi2DeSerializeFMUstate<M: FmuModel>(c: Fmi2Component, bytes: *const c_char, size: usize, state: *mut Fmi2FmuState) -> Status {
    // SAFETY: see dispatch; pointers checked for null.
    unsafe {
        dispatch::<M>(c, table::DESERIALIZE_FMU_STATE, None, |i| {
            if state.is_null() {
                return Err(Failure::error("FMUstate is a null pointer"));
            }
            let saved = instance::deserialize_state::<M>(&i.table, slice(bytes.cast::<u8>(), size, "serializedState")?).map_err(Failure::error)?;
            i.store_state(state, saved)?;
            Ok(Status::Ok)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Co-simulation.

/// # Safety
/// `c` is an instance from fmi2Instantiate.
pub unsafe fn fmi2DoStep<M: FmuModel>(
    c: Fmi2Component,
    currentCommunicationPoint: f64,
    communicationStepSize: f64,
    _noSetFMUStatePriorToCurrentPoint: Fmi2Boolean,
) -> Status {
    // SAFETY: see dispatch.
    unsafe {
        dispatch::<M>(c, table::DO_STEP, Some(State::StepFailed), |i| i.do_step(currentCommunicationPoint, communicationStepSize))
    }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate.
pub unsafe fn fmi2CancelStep<M: FmuModel>(c: Fmi2Component) -> Status {
    // SAFETY: see unsupported.
    unsafe { unsupported::<M>(c, "fmi2CancelStep", "DoStep never returns fmi2Pending, so there is no step to cancel") }
}

/// Answers a status query that has nothing to report with Discard, as the standard asks.
fn not_available(kind: c_int) -> Result<Status, Failure> {
    Err(Failure::discard(format!("status kind {kind} is not available (this FMU never returns fmi2Pending)")))
}

/// # Safety
/// `value` is writable.
pub unsafe fn fmi2GetStatus<M: FmuModel>(c: Fmi2Component, kind: c_int, value: *mut c_int) -> Status {
    // SAFETY: see dispatch; `value` checked for null.
    unsafe {
        dispatch::<M>(c, table::GET_STATUS, None, |_| {
            if value.is_null() {
                return Err(Failure::error("value is a null pointer"));
            }
            not_available(kind)
        })
    }
}

/// # Safety
/// `value` is writable.
pub unsafe fn fmi2GetRealStatus<M: FmuModel>(c: Fmi2Component, kind: c_int, value: *mut f64) -> Status {
    // SAFETY: see dispatch; `value` checked for null.
    unsafe {
        dispatch::<M>(c, table::GET_REAL_STATUS, None, |i| {
            if value.is_null() {
                return Err(Failure::error("value is a null pointer"));
            }
            if kind != FMI2_LAST_SUCCESSFUL_TIME {
                return not_available(kind);
            }
            *value = i.last_successful_time;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `value` is writable.
pub unsafe fn fmi2GetIntegerStatus<M: FmuModel>(c: Fmi2Component, kind: c_int, value: *mut c_int) -> Status {
    // SAFETY: see dispatch; `value` checked for null.
    unsafe {
        dispatch::<M>(c, table::GET_INTEGER_STATUS, None, |_| {
            if value.is_null() {
                return Err(Failure::error("value is a null pointer"));
            }
            not_available(kind)
        })
    }
}

/// # Safety
/// `value` is writable.
pub unsafe fn fmi2GetBooleanStatus<M: FmuModel>(c: Fmi2Component, kind: c_int, value: *mut Fmi2Boolean) -> Status {
    // SAFETY: see dispatch; `value` checked for null.
    unsafe {
        dispatch::<M>(c, table::GET_BOOLEAN_STATUS, None, |_| {
            if value.is_null() {
                return Err(Failure::error("value is a null pointer"));
            }
            if kind != FMI2_TERMINATED {
                return not_available(kind);
            }
            // The block never asks the master to end the simulation.
            *value = FMI2_FALSE;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `value` is writable.
pub unsafe fn fmi2GetStringStatus<M: FmuModel>(c: Fmi2Component, kind: c_int, value: *mut Fmi2String) -> Status {
    // SAFETY: see dispatch; `value` checked for null.
    unsafe {
        dispatch::<M>(c, table::GET_STRING_STATUS, None, |_| {
            if value.is_null() {
                return Err(Failure::error("value is a null pointer"));
            }
            not_available(kind)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Optional functions not provided yet, and Model Exchange.

/// # Safety
/// `c` is an instance from fmi2Instantiate; `vUnknown_ref` and `dvUnknown` point to `nUnknown`
/// elements, `vKnown_ref` and `dvKnown` to `nKnown`.
pub unsafe fn fmi2GetDirectionalDerivative<M: FmuModel>(
    c: Fmi2Component,
    vUnknown_ref: *const Fmi2ValueReference,
    nUnknown: usize,
    vKnown_ref: *const Fmi2ValueReference,
    nKnown: usize,
    dvKnown: *const f64,
    dvUnknown: *mut f64,
) -> Status {
    const NAME: &str = "fmi2GetDirectionalDerivative";
    if !M::PROVIDES_DIRECTIONAL_DERIVATIVES {
        // SAFETY: see unsupported.
        return unsafe { unsupported::<M>(c, NAME, "providesDirectionalDerivative is false") };
    }
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(c, table::GET_DIRECTIONAL_DERIVATIVE, None, |i| {
            let unknowns = slice(vUnknown_ref, nUnknown, "vUnknown_ref")?;
            let knowns = slice(vKnown_ref, nKnown, "vKnown_ref")?;
            let seed = slice(dvKnown, nKnown, "dvKnown")?;
            i.directional_derivative(NAME, unknowns, knowns, seed, slice_mut(dvUnknown, nUnknown, "dvUnknown")?)
        })
    }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate.
pub unsafe fn fmi2SetRealInputDerivatives<M: FmuModel>(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    order: *const c_int,
    value: *const f64,
) -> Status {
    if !M::CAN_INTERPOLATE_INPUTS {
        // SAFETY: see unsupported.
        return unsafe { unsupported::<M>(c, "fmi2SetRealInputDerivatives", "canInterpolateInputs is false") };
    }
    // SAFETY: see dispatch and slice; the three arrays hold `nvr` elements by the standard.
    unsafe {
        dispatch::<M>(c, table::SET_REAL_INPUT_DERIVATIVES, None, |i| {
            let vrs = slice(vr, nvr, "vr")?;
            let orders = slice(order, nvr, "order")?;
            let values = slice(value, nvr, "value")?;
            i.set_input_derivatives(vrs, orders, values)
        })
    }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate; `vr`, `order` and `value` point to `nvr` elements.
pub unsafe fn fmi2GetRealOutputDerivatives<M: FmuModel>(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    order: *const c_int,
    value: *mut f64,
) -> Status {
    const NAME: &str = "fmi2GetRealOutputDerivatives";
    if M::MAX_OUTPUT_DERIVATIVE_ORDER == 0 {
        // SAFETY: see unsupported.
        return unsafe { unsupported::<M>(c, NAME, "maxOutputDerivativeOrder is 0") };
    }
    // SAFETY: see dispatch and slice.
    unsafe {
        dispatch::<M>(c, table::GET_REAL_OUTPUT_DERIVATIVES, None, |i| {
            let orders = slice(order, nvr, "order")?;
            i.output_derivatives(NAME, slice(vr, nvr, "vr")?, orders, slice_mut(value, nvr, "value")?)
        })
    }
}

/// The signature of every function of fmi2Functions.h, one a line, in the standard's order: calls
/// the macro `$callback` with the tokens `$($args)*` and then `safe_functions { fn name(arg: Type,
/// ...) -> Return; ... } unsafe_functions { ... }` (the safe functions are those without pointer
/// arguments). The one list of the header: [`export_fmi2`](crate::export_fmi2) turns it into the
/// exports, and a harness that calls the functions of several models (the fuzz targets) into its
/// own forwarders. The types are those of [`abi`](crate::fmi2::abi), which must be in scope
/// where `$callback` expands.
#[macro_export]
macro_rules! fmi2_functions {
    ($callback:path; $($args:tt)*) => {
        $callback! {
            $($args)*
            safe_functions {
                fn fmi2GetTypesPlatform() -> *const c_char;
                fn fmi2GetVersion() -> *const c_char;
            }
            unsafe_functions {
                fn fmi2SetDebugLogging(c: Fmi2Component, loggingOn: Fmi2Boolean, nCategories: usize, categories: *const Fmi2String) -> Status;
                fn fmi2Instantiate(instanceName: Fmi2String, fmuType: c_int, fmuGUID: Fmi2String, fmuResourceLocation: Fmi2String, functions: *const Fmi2CallbackFunctions, _visible: Fmi2Boolean, loggingOn: Fmi2Boolean) -> Fmi2Component;
                fn fmi2FreeInstance(c: Fmi2Component);
                fn fmi2SetupExperiment(c: Fmi2Component, _toleranceDefined: Fmi2Boolean, _tolerance: f64, startTime: f64, _stopTimeDefined: Fmi2Boolean, _stopTime: f64) -> Status;
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
                fn fmi2DoStep(c: Fmi2Component, currentCommunicationPoint: f64, communicationStepSize: f64, _noSetFMUStatePriorToCurrentPoint: Fmi2Boolean) -> Status;
                fn fmi2CancelStep(c: Fmi2Component) -> Status;
                fn fmi2GetStatus(c: Fmi2Component, kind: c_int, value: *mut c_int) -> Status;
                fn fmi2GetRealStatus(c: Fmi2Component, kind: c_int, value: *mut f64) -> Status;
                fn fmi2GetIntegerStatus(c: Fmi2Component, kind: c_int, value: *mut c_int) -> Status;
                fn fmi2GetBooleanStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2Boolean) -> Status;
                fn fmi2GetStringStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2String) -> Status;
                fn fmi2GetDirectionalDerivative(c: Fmi2Component, _vUnknown_ref: *const Fmi2ValueReference, _nUnknown: usize, _vKnown_ref: *const Fmi2ValueReference, _nKnown: usize, _dvKnown: *const f64, _dvUnknown: *mut f64) -> Status;
                fn fmi2SetRealInputDerivatives(c: Fmi2Component, _vr: *const Fmi2ValueReference, _nvr: usize, _order: *const c_int, _value: *const f64) -> Status;
                fn fmi2GetRealOutputDerivatives(c: Fmi2Component, _vr: *const Fmi2ValueReference, _nvr: usize, _order: *const c_int, _value: *mut f64) -> Status;
                fn fmi2EnterEventMode(c: Fmi2Component) -> Status;
                fn fmi2NewDiscreteStates(c: Fmi2Component, _eventInfo: *mut c_void) -> Status;
                fn fmi2EnterContinuousTimeMode(c: Fmi2Component) -> Status;
                fn fmi2CompletedIntegratorStep(c: Fmi2Component, _noSetFMUStatePriorToCurrentPoint: Fmi2Boolean, _enterEventMode: *mut Fmi2Boolean, _terminateSimulation: *mut Fmi2Boolean) -> Status;
                fn fmi2SetTime(c: Fmi2Component, _time: f64) -> Status;
                fn fmi2SetContinuousStates(c: Fmi2Component, _x: *const f64, _nx: usize) -> Status;
                fn fmi2GetDerivatives(c: Fmi2Component, _derivatives: *mut f64, _nx: usize) -> Status;
                fn fmi2GetEventIndicators(c: Fmi2Component, _eventIndicators: *mut f64, _ni: usize) -> Status;
                fn fmi2GetContinuousStates(c: Fmi2Component, _x: *mut f64, _nx: usize) -> Status;
                fn fmi2GetNominalsOfContinuousStates(c: Fmi2Component, _x_nominal: *mut f64, _nx: usize) -> Status;
            }
        }
    };
}

/// Exports every function of fmi2Functions.h for the model type `$model`: each a thin
/// `#[no_mangle]` wrapper around the generic function of the same name in this module, generated
/// by [`forward_fmi_functions`](crate::forward_fmi_functions) from the one-line signatures of
/// [`fmi2_functions`](crate::fmi2_functions). Invoke it once, in a module of its own, in the
/// crate that builds the FMU's binary (or through [`export_fmu`](crate::export_fmu)).
#[macro_export]
macro_rules! export_fmi2 {
    ($model:ty) => {
        #[allow(unused_imports)]
        use $crate::fmi2::abi::*;
        $crate::fmi2_functions!($crate::forward_fmi_functions; fmi2, "2.0", $model;);
    };
}
