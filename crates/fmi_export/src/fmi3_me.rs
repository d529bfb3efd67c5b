//! The FMI 3.0 Model Exchange functions (fmi3Functions.h, "Functions for Model Exchange" and
//! the Event Mode functions they share with co-simulation), with their part of the FMI 3.0
//! state table: Instantiated -> Initialization Mode -> (fmi3ExitInitializationMode) Event Mode
//! <-> Continuous-Time Mode -> Terminated. Each function is a thin adapter over
//! [`crate::model_exchange`].

#![allow(non_snake_case)]

use super::fmi3::{new_instance, Fmi3Boolean, Fmi3Instance, Fmi3InstanceEnvironment, Fmi3String};
use super::instance::{guarded, require_non_null, slice, slice_mut, State};
use super::logger::Fmi3LoggerCallback;
use super::model_exchange::{dispatch_me, dispatch_me_or, is_co_simulation};
use super::status::{Failure, Status};
use crate::model::FmuModel;

/// Where each Model Exchange function may be called (FMI 3.0, "Model Exchange" state machine).
mod table {
    use crate::instance::{Function, State::*, States};

    const fn f(name: &'static str, allowed: States) -> Function {
        Function { name, allowed }
    }

    /// Where the states, derivatives and event indicators can be read.
    const READABLE: States = States::of(&[InitializationMode, EventMode, ContinuousTimeMode, Terminated, Error]);

    pub const ENTER_EVENT_MODE: Function = f("fmi3EnterEventMode", States::of(&[EventMode, ContinuousTimeMode]));
    pub const UPDATE_DISCRETE_STATES: Function = f("fmi3UpdateDiscreteStates", States::of(&[EventMode]));
    pub const ENTER_CONTINUOUS_TIME_MODE: Function = f("fmi3EnterContinuousTimeMode", States::of(&[EventMode]));
    pub const COMPLETED_INTEGRATOR_STEP: Function = f("fmi3CompletedIntegratorStep", States::of(&[ContinuousTimeMode]));
    pub const SET_TIME: Function = f("fmi3SetTime", States::of(&[EventMode, ContinuousTimeMode]));
    pub const SET_CONTINUOUS_STATES: Function = f("fmi3SetContinuousStates", States::of(&[ContinuousTimeMode]));
    pub const GET_CONTINUOUS_STATE_DERIVATIVES: Function = f("fmi3GetContinuousStateDerivatives", READABLE);
    pub const GET_EVENT_INDICATORS: Function = f("fmi3GetEventIndicators", READABLE);
    pub const GET_CONTINUOUS_STATES: Function = f("fmi3GetContinuousStates", READABLE);
    pub const GET_NOMINALS_OF_CONTINUOUS_STATES: Function =
        f("fmi3GetNominalsOfContinuousStates", States::of(&[Instantiated, InitializationMode, EventMode, ContinuousTimeMode, Terminated, Error]));
    pub const GET_NUMBER_OF_EVENT_INDICATORS: Function = f("fmi3GetNumberOfEventIndicators", States::NOT_FATAL);
    pub const GET_NUMBER_OF_CONTINUOUS_STATES: Function = f("fmi3GetNumberOfContinuousStates", States::NOT_FATAL);
}

/// Why Event Mode is refused to an instance made for co-simulation.
const NO_EVENT_MODE: &str = "hasEventMode is false: the FMU runs in Step Mode only";

/// # Safety
/// Arguments as in the FMI 3.0 standard: C strings or null; `logMessage` null or a valid
/// callback that accepts `instanceEnvironment`.
pub unsafe fn fmi3InstantiateModelExchange<M: FmuModel>(
    instanceName: Fmi3String,
    instantiationToken: Fmi3String,
    resourcePath: Fmi3String,
    _visible: Fmi3Boolean,
    loggingOn: Fmi3Boolean,
    instanceEnvironment: Fmi3InstanceEnvironment,
    logMessage: Option<Fmi3LoggerCallback>,
) -> Fmi3Instance {
    guarded(std::ptr::null_mut(), || {
        // SAFETY: C strings or null, by the standard.
        let made = unsafe {
            new_instance::<M>("fmi3InstantiateModelExchange", instanceName, instantiationToken, resourcePath, loggingOn, instanceEnvironment, logMessage, |_| {
                if M::MODEL_EXCHANGE {
                    Ok(())
                } else {
                    Err(format!(
                        "{} is a co-simulation FMU (Model Exchange is not provided); instantiate it with fmi3InstantiateCoSimulation",
                        M::NAME
                    ))
                }
            })
        };
        made.map_or(std::ptr::null_mut(), |instance| instance.into_model_exchange().into_raw())
    })
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateModelExchange.
pub unsafe fn fmi3EnterEventMode<M: FmuModel>(instance: Fmi3Instance) -> Status {
    // SAFETY: null or a live instance, by the caller's contract.
    if unsafe { is_co_simulation::<M>(instance) } {
        // SAFETY: as above.
        return unsafe { crate::fmi3::co_simulation_enter_event_mode::<M>(instance) };
    }
    // SAFETY: see dispatch_me.
    unsafe {
        dispatch_me_or::<M>(instance, table::ENTER_EVENT_MODE, NO_EVENT_MODE, |i| {
            i.state = State::EventMode;
            Ok(Status::Ok)
        })
    }
}

/// Writes one of UpdateDiscreteStates' flags; a null pointer is an error naming it.
///
/// # Safety
/// `target` is null or writable.
unsafe fn write<T>(target: *mut T, value: T, name: &str) -> Result<(), Failure> {
    if target.is_null() {
        return Err(Failure::error(format!("{name} is a null pointer")));
    }
    // SAFETY: non-null and writable by the caller's contract.
    unsafe { *target = value };
    Ok(())
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateModelExchange; the six pointers are writable.
pub unsafe fn fmi3UpdateDiscreteStates<M: FmuModel>(
    instance: Fmi3Instance,
    discreteStatesNeedUpdate: *mut Fmi3Boolean,
    terminateSimulation: *mut Fmi3Boolean,
    nominalsOfContinuousStatesChanged: *mut Fmi3Boolean,
    valuesOfContinuousStatesChanged: *mut Fmi3Boolean,
    nextEventTimeDefined: *mut Fmi3Boolean,
    nextEventTime: *mut f64,
) -> Status {
    // SAFETY: null or a live instance, by the caller's contract.
    if unsafe { is_co_simulation::<M>(instance) } {
        // SAFETY: as above; the co-simulation function checks every pointer for null.
        return unsafe {
            crate::fmi3::co_simulation_update_discrete_states::<M>(
                instance,
                discreteStatesNeedUpdate,
                terminateSimulation,
                nominalsOfContinuousStatesChanged,
                valuesOfContinuousStatesChanged,
                nextEventTimeDefined,
                nextEventTime,
            )
        };
    }
    // SAFETY: see dispatch_me; every pointer is checked for null before it is written.
    unsafe {
        dispatch_me_or::<M>(instance, table::UPDATE_DISCRETE_STATES, NO_EVENT_MODE, |i| {
            require_non_null(&[
                (discreteStatesNeedUpdate.is_null(), "discreteStatesNeedUpdate"),
                (terminateSimulation.is_null(), "terminateSimulation"),
                (nominalsOfContinuousStatesChanged.is_null(), "nominalsOfContinuousStatesChanged"),
                (valuesOfContinuousStatesChanged.is_null(), "valuesOfContinuousStatesChanged"),
                (nextEventTimeDefined.is_null(), "nextEventTimeDefined"),
                (nextEventTime.is_null(), "nextEventTime"),
            ])?;
            let changed = i.me_update_discrete_states()?;
            write(discreteStatesNeedUpdate, false, "discreteStatesNeedUpdate")?;
            write(terminateSimulation, false, "terminateSimulation")?;
            write(nominalsOfContinuousStatesChanged, false, "nominalsOfContinuousStatesChanged")?;
            write(valuesOfContinuousStatesChanged, changed, "valuesOfContinuousStatesChanged")?;
            write(nextEventTimeDefined, false, "nextEventTimeDefined")?;
            write(nextEventTime, 0.0, "nextEventTime")?;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateModelExchange.
pub unsafe fn fmi3EnterContinuousTimeMode<M: FmuModel>(instance: Fmi3Instance) -> Status {
    // SAFETY: see dispatch_me.
    unsafe {
        dispatch_me::<M>(instance, table::ENTER_CONTINUOUS_TIME_MODE, |i| {
            i.state = State::ContinuousTimeMode;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateModelExchange; the two flags are writable.
pub unsafe fn fmi3CompletedIntegratorStep<M: FmuModel>(
    instance: Fmi3Instance,
    _noSetFMUStatePriorToCurrentPoint: Fmi3Boolean,
    enterEventMode: *mut Fmi3Boolean,
    terminateSimulation: *mut Fmi3Boolean,
) -> Status {
    // SAFETY: see dispatch_me; the flags are checked for null before they are written.
    unsafe {
        dispatch_me::<M>(instance, table::COMPLETED_INTEGRATOR_STEP, |i| {
            if enterEventMode.is_null() || terminateSimulation.is_null() {
                return Err(Failure::error("enterEventMode or terminateSimulation is a null pointer"));
            }
            let event = i.me_completed_integrator_step()?;
            *enterEventMode = event;
            *terminateSimulation = false;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `instance` is an instance from fmi3InstantiateModelExchange.
pub unsafe fn fmi3SetTime<M: FmuModel>(instance: Fmi3Instance, time: f64) -> Status {
    // SAFETY: see dispatch_me.
    unsafe { dispatch_me::<M>(instance, table::SET_TIME, |i| i.me_set_time(time)) }
}

/// # Safety
/// `continuousStates` points to `nContinuousStates` values.
pub unsafe fn fmi3SetContinuousStates<M: FmuModel>(instance: Fmi3Instance, continuousStates: *const f64, nContinuousStates: usize) -> Status {
    // SAFETY: see dispatch_me and slice.
    unsafe {
        dispatch_me::<M>(instance, table::SET_CONTINUOUS_STATES, |i| i.me_set_states(slice(continuousStates, nContinuousStates, "continuousStates")?))
    }
}

/// # Safety
/// `derivatives` points to `nContinuousStates` writable values.
pub unsafe fn fmi3GetContinuousStateDerivatives<M: FmuModel>(instance: Fmi3Instance, derivatives: *mut f64, nContinuousStates: usize) -> Status {
    // SAFETY: see dispatch_me and slice_mut.
    unsafe {
        dispatch_me::<M>(instance, table::GET_CONTINUOUS_STATE_DERIVATIVES, |i| {
            i.me_get_derivatives(slice_mut(derivatives, nContinuousStates, "derivatives")?)
        })
    }
}

/// # Safety
/// `eventIndicators` points to `nEventIndicators` writable values.
pub unsafe fn fmi3GetEventIndicators<M: FmuModel>(instance: Fmi3Instance, eventIndicators: *mut f64, nEventIndicators: usize) -> Status {
    // SAFETY: see dispatch_me and slice_mut.
    unsafe {
        dispatch_me::<M>(instance, table::GET_EVENT_INDICATORS, |i| {
            i.me_get_event_indicators(slice_mut(eventIndicators, nEventIndicators, "eventIndicators")?)
        })
    }
}

/// # Safety
/// `continuousStates` points to `nContinuousStates` writable values.
pub unsafe fn fmi3GetContinuousStates<M: FmuModel>(instance: Fmi3Instance, continuousStates: *mut f64, nContinuousStates: usize) -> Status {
    // SAFETY: see dispatch_me and slice_mut.
    unsafe {
        dispatch_me::<M>(instance, table::GET_CONTINUOUS_STATES, |i| i.me_get_states(slice_mut(continuousStates, nContinuousStates, "continuousStates")?))
    }
}

/// # Safety
/// `nominals` points to `nContinuousStates` writable values.
pub unsafe fn fmi3GetNominalsOfContinuousStates<M: FmuModel>(instance: Fmi3Instance, nominals: *mut f64, nContinuousStates: usize) -> Status {
    // SAFETY: see dispatch_me and slice_mut.
    unsafe {
        dispatch_me::<M>(instance, table::GET_NOMINALS_OF_CONTINUOUS_STATES, |i| i.me_get_nominals(slice_mut(nominals, nContinuousStates, "nominals")?))
    }
}

/// # Safety
/// `nEventIndicators` is writable.
pub unsafe fn fmi3GetNumberOfEventIndicators<M: FmuModel>(instance: Fmi3Instance, nEventIndicators: *mut usize) -> Status {
    // SAFETY: see dispatch_me; the count is checked for null before it is written.
    unsafe {
        dispatch_me::<M>(instance, table::GET_NUMBER_OF_EVENT_INDICATORS, |i| {
            write(nEventIndicators, i.number_of_event_indicators(), "nEventIndicators")?;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `nContinuousStates` is writable.
pub unsafe fn fmi3GetNumberOfContinuousStates<M: FmuModel>(instance: Fmi3Instance, nContinuousStates: *mut usize) -> Status {
    // SAFETY: see dispatch_me; the count is checked for null before it is written.
    unsafe {
        dispatch_me::<M>(instance, table::GET_NUMBER_OF_CONTINUOUS_STATES, |i| {
            write(nContinuousStates, i.number_of_states(), "nContinuousStates")?;
            Ok(Status::Ok)
        })
    }
}
