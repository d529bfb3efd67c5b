//! The FMI 2.0 Model Exchange functions (fmi2Functions.h, "Functions for FMI2 for Model
//! Exchange"), with their part of the FMI 2.0 state table. Instantiated -> Initialization Mode
//! -> (fmi2ExitInitializationMode) Event Mode <-> Continuous-Time Mode -> Terminated; each
//! function is a thin adapter over [`crate::model_exchange`].

#![allow(non_snake_case)]

use std::ffi::c_void;

use super::fmi2::{Fmi2Boolean, Fmi2Component, FMI2_FALSE, FMI2_TRUE};
use super::instance::{slice, slice_mut, State};
use super::model_exchange::dispatch_me;
use super::status::{Failure, Status};
use crate::model::FmuModel;

/// `fmi2EventInfo`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fmi2EventInfo {
    pub new_discrete_states_needed: Fmi2Boolean,
    pub terminate_simulation: Fmi2Boolean,
    pub nominals_of_continuous_states_changed: Fmi2Boolean,
    pub values_of_continuous_states_changed: Fmi2Boolean,
    pub next_event_time_defined: Fmi2Boolean,
    pub next_event_time: f64,
}

/// Where each Model Exchange function may be called (FMI 2.0, section 3.2.3).
mod table {
    use crate::instance::{Function, State::*, States};

    const fn f(name: &'static str, allowed: States) -> Function {
        Function { name, allowed }
    }

    /// Where the states, derivatives and event indicators can be read.
    const READABLE: States = States::of(&[InitializationMode, EventMode, ContinuousTimeMode, Terminated, Error]);

    pub const ENTER_EVENT_MODE: Function = f("fmi2EnterEventMode", States::of(&[EventMode, ContinuousTimeMode]));
    pub const NEW_DISCRETE_STATES: Function = f("fmi2NewDiscreteStates", States::of(&[EventMode]));
    pub const ENTER_CONTINUOUS_TIME_MODE: Function = f("fmi2EnterContinuousTimeMode", States::of(&[EventMode]));
    pub const COMPLETED_INTEGRATOR_STEP: Function = f("fmi2CompletedIntegratorStep", States::of(&[ContinuousTimeMode]));
    pub const SET_TIME: Function = f("fmi2SetTime", States::of(&[EventMode, ContinuousTimeMode]));
    pub const SET_CONTINUOUS_STATES: Function = f("fmi2SetContinuousStates", States::of(&[ContinuousTimeMode]));
    pub const GET_DERIVATIVES: Function = f("fmi2GetDerivatives", READABLE);
    pub const GET_EVENT_INDICATORS: Function = f("fmi2GetEventIndicators", READABLE);
    pub const GET_CONTINUOUS_STATES: Function = f("fmi2GetContinuousStates", READABLE);
    pub const GET_NOMINALS_OF_CONTINUOUS_STATES: Function =
        f("fmi2GetNominalsOfContinuousStates", States::of(&[Instantiated, InitializationMode, EventMode, ContinuousTimeMode, Terminated, Error]));
}

fn boolean(b: bool) -> Fmi2Boolean {
    if b {
        FMI2_TRUE
    } else {
        FMI2_FALSE
    }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate.
pub unsafe fn fmi2EnterEventMode<M: FmuModel>(c: Fmi2Component) -> Status {
    // SAFETY: see dispatch_me.
    unsafe {
        dispatch_me::<M>(c, table::ENTER_EVENT_MODE, |i| {
            i.state = State::EventMode;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate; `eventInfo` points to a writable `fmi2EventInfo`.
pub unsafe fn fmi2NewDiscreteStates<M: FmuModel>(c: Fmi2Component, eventInfo: *mut c_void) -> Status {
    // SAFETY: see dispatch_me; `eventInfo` checked for null, an fmi2EventInfo by the standard.
    unsafe {
        dispatch_me::<M>(c, table::NEW_DISCRETE_STATES, |i| {
            let info = eventInfo.cast::<Fmi2EventInfo>();
            if info.is_null() {
                return Err(Failure::error("fmi2EventInfo is a null pointer"));
            }
            let changed = i.me_update_discrete_states()?;
            *info = Fmi2EventInfo { values_of_continuous_states_changed: boolean(changed), ..Fmi2EventInfo::default() };
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate.
pub unsafe fn fmi2EnterContinuousTimeMode<M: FmuModel>(c: Fmi2Component) -> Status {
    // SAFETY: see dispatch_me.
    unsafe {
        dispatch_me::<M>(c, table::ENTER_CONTINUOUS_TIME_MODE, |i| {
            i.state = State::ContinuousTimeMode;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate; the two flags are writable.
pub unsafe fn fmi2CompletedIntegratorStep<M: FmuModel>(
    c: Fmi2Component,
    _noSetFMUStatePriorToCurrentPoint: Fmi2Boolean,
    enterEventMode: *mut Fmi2Boolean,
    terminateSimulation: *mut Fmi2Boolean,
) -> Status {
    // SAFETY: see dispatch_me; the flags are checked for null before they are written.
    unsafe {
        dispatch_me::<M>(c, table::COMPLETED_INTEGRATOR_STEP, |i| {
            if enterEventMode.is_null() || terminateSimulation.is_null() {
                return Err(Failure::error("enterEventMode or terminateSimulation is a null pointer"));
            }
            let event = i.me_completed_integrator_step()?;
            *enterEventMode = boolean(event);
            *terminateSimulation = FMI2_FALSE;
            Ok(Status::Ok)
        })
    }
}

/// # Safety
/// `c` is an instance from fmi2Instantiate.
pub unsafe fn fmi2SetTime<M: FmuModel>(c: Fmi2Component, time: f64) -> Status {
    // SAFETY: see dispatch_me.
    unsafe { dispatch_me::<M>(c, table::SET_TIME, |i| i.me_set_time(time)) }
}

/// # Safety
/// `x` points to `nx` values.
pub unsafe fn fmi2SetContinuousStates<M: FmuModel>(c: Fmi2Component, x: *const f64, nx: usize) -> Status {
    // SAFETY: see dispatch_me and slice.
    unsafe { dispatch_me::<M>(c, table::SET_CONTINUOUS_STATES, |i| i.me_set_states(slice(x, nx, "x")?)) }
}

/// # Safety
/// `derivatives` points to `nx` writable values.
pub unsafe fn fmi2GetDerivatives<M: FmuModel>(c: Fmi2Component, derivatives: *mut f64, nx: usize) -> Status {
    // SAFETY: see dispatch_me and slice_mut.
    unsafe { dispatch_me::<M>(c, table::GET_DERIVATIVES, |i| i.me_get_derivatives(slice_mut(derivatives, nx, "derivatives")?)) }
}

/// # Safety
/// `eventIndicators` points to `ni` writable values.
pub unsafe fn fmi2GetEventIndicators<M: FmuModel>(c: Fmi2Component, eventIndicators: *mut f64, ni: usize) -> Status {
    // SAFETY: see dispatch_me and slice_mut.
    unsafe { dispatch_me::<M>(c, table::GET_EVENT_INDICATORS, |i| i.me_get_event_indicators(slice_mut(eventIndicators, ni, "eventIndicators")?)) }
}

/// # Safety
/// `x` points to `nx` writable values.
pub unsafe fn fmi2GetContinuousStates<M: FmuModel>(c: Fmi2Component, x: *mut f64, nx: usize) -> Status {
    // SAFETY: see dispatch_me and slice_mut.
    unsafe { dispatch_me::<M>(c, table::GET_CONTINUOUS_STATES, |i| i.me_get_states(slice_mut(x, nx, "x")?)) }
}

/// # Safety
/// `x_nominal` points to `nx` writable values.
pub unsafe fn fmi2GetNominalsOfContinuousStates<M: FmuModel>(c: Fmi2Component, x_nominal: *mut f64, nx: usize) -> Status {
    // SAFETY: see dispatch_me and slice_mut.
    unsafe { dispatch_me::<M>(c, table::GET_NOMINALS_OF_CONTINUOUS_STATES, |i| i.me_get_nominals(slice_mut(x_nominal, nx, "x_nominal")?)) }
}
