//! Model Exchange, shared by both versions: where the continuous states, their derivatives and
//! the event indicators are in the variable table ([`Layout`]), and what each Model Exchange
//! function does to an instance. The version files (`fmi2_me.rs`, `fmi3_me.rs`) only adapt the C
//! arguments and carry their standard's state table.
//!
//! The states are variables of the table (`Variable::state`), so reading and writing them is a
//! get or a write through their accessors; derivatives and event indicators are calculated
//! variables that [`FmuModel::update_locals`] brings up to date before they are read.

use std::ffi::c_void;

use crate::instance::{dispatch, Function, Instance, Interface};
use crate::model::{FmuModel, ModelError};
use crate::status::{Failure, FmiResult, Status};
use crate::table::{Access, Role, Table};

/// Value references of the Model Exchange quantities, in the order of the C API's vectors.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The continuous states, in table order.
    pub states: Vec<u32>,
    /// `derivatives[i]` is the derivative of `states[i]`.
    pub derivatives: Vec<u32>,
    /// The event indicators, in table order.
    pub indicators: Vec<u32>,
}

impl Layout {
    /// The layout of a table. Panics when a state has no derivative or a derivative no state:
    /// such a table cannot describe a Model Exchange FMU (the model description tests catch it).
    pub fn of<M: FmuModel>(table: &Table<M>) -> Layout {
        let scalars = table.scalars();
        let states: Vec<u32> = scalars.iter().filter(|s| s.variable.role == Role::State).map(|s| s.vr).collect();
        let derivatives = states
            .iter()
            .map(|vr| {
                scalars
                    .iter()
                    .find(|d| matches!(d.variable.role, Role::Derivative { state } if state + d.element as u32 == *vr))
                    .unwrap_or_else(|| panic!("continuous state with value reference {vr} has no derivative variable"))
                    .vr
            })
            .collect();
        let indicators = scalars.iter().filter(|s| s.variable.role == Role::EventIndicator).map(|s| s.vr).collect();
        Layout { states, derivatives, indicators }
    }
}

/// Why a Model Exchange function was refused on an instance made for co-simulation.
fn not_model_exchange<M: FmuModel>() -> String {
    if M::MODEL_EXCHANGE {
        "the instance was instantiated for co-simulation; the Model Exchange functions need an instance instantiated for Model Exchange"
            .to_string()
    } else {
        format!("{} is a co-simulation FMU (Model Exchange is not provided)", M::NAME)
    }
}

/// [`dispatch`] for a Model Exchange function: an instance made for co-simulation gets Error
/// with the reason logged and keeps its state (as an optional function it does not provide).
///
/// # Safety
/// As [`dispatch`].
pub unsafe fn dispatch_me<M: FmuModel>(ptr: *mut c_void, function: Function, body: impl FnOnce(&mut Instance<M>) -> FmiResult) -> Status {
    // SAFETY: as above.
    unsafe { dispatch_me_or::<M>(ptr, function, &not_model_exchange::<M>(), body) }
}

/// [`dispatch_me`] with the reason an instance made for co-simulation is given.
///
/// # Safety
/// As [`dispatch`].
pub unsafe fn dispatch_me_or<M: FmuModel>(
    ptr: *mut c_void,
    function: Function,
    co_simulation_reason: &str,
    body: impl FnOnce(&mut Instance<M>) -> FmiResult,
) -> Status {
    if ptr.is_null() {
        return Status::Error;
    }
    {
        // SAFETY: non-null and a live instance by the caller's contract; this shared borrow
        // ends before dispatch takes the instance.
        let instance = unsafe { &*ptr.cast::<Instance<M>>() };
        if instance.interface != Interface::ModelExchange {
            return instance.unsupported(function.name, co_simulation_reason);
        }
    }
    // SAFETY: as above.
    unsafe { dispatch::<M>(ptr, function, None, body) }
}

/// True when `ptr` is a live instance made for co-simulation (the functions both interfaces share,
/// such as FMI 3's Event Mode ones, choose their behaviour by it); false for null.
///
/// # Safety
/// `ptr` is null or a live instance.
pub unsafe fn is_co_simulation<M: FmuModel>(ptr: *mut c_void) -> bool {
    // SAFETY: non-null and live by the caller's contract; the borrow ends here.
    !ptr.is_null() && unsafe { &*ptr.cast::<Instance<M>>() }.interface == Interface::CoSimulation
}

/// `n` (the importer's vector length) must be the FMU's count of `what`.
fn check_count(n: usize, expected: usize, argument: &str, what: &str) -> Result<(), Failure> {
    if n != expected {
        return Err(Failure::error(format!("{argument} = {n}, but the FMU has {expected} {what}")));
    }
    Ok(())
}

impl<M: FmuModel> Instance<M> {
    /// Turns a fresh instance into a Model Exchange instance.
    pub fn into_model_exchange(mut self) -> Instance<M> {
        self.layout = Some(Layout::of(&self.table));
        self.interface = Interface::ModelExchange;
        self
    }

    fn layout(&self) -> &Layout {
        self.layout.as_ref().expect("a Model Exchange instance has a layout")
    }

    pub fn number_of_states(&self) -> usize {
        self.layout().states.len()
    }

    pub fn number_of_event_indicators(&self) -> usize {
        self.layout().indicators.len()
    }

    /// SetTime: the model's time (the inputs are set separately by the importer).
    pub fn me_set_time(&mut self, time: f64) -> FmiResult {
        if !time.is_finite() {
            return Err(Failure::error(format!("time = {time} must be finite")));
        }
        self.model.set_time(time);
        self.last_successful_time = time;
        Ok(Status::Ok)
    }

    /// SetContinuousStates: every value finite, the vector as long as the state vector.
    pub fn me_set_states(&mut self, x: &[f64]) -> FmiResult {
        check_count(x.len(), self.number_of_states(), "nx", "continuous states")?;
        for (vr, value) in self.layout().states.iter().zip(x) {
            let s = self.table.scalar(*vr).expect("states are scalars of the table");
            if !value.is_finite() {
                return Err(Failure::error(format!("continuous state {} = {value}: values must be finite", s.name)));
            }
        }
        let layout = self.layout.take().expect("a Model Exchange instance has a layout");
        for (vr, value) in layout.states.iter().zip(x) {
            let s = self.table.scalar(*vr).expect("states are scalars of the table");
            let Access::Float(access) = s.variable.access else { unreachable!("states are Float64") };
            access(&mut self.model)[s.element] = *value;
        }
        self.layout = Some(layout);
        self.model.inputs_changed();
        Ok(Status::Ok)
    }

    /// Reads the variables `vrs` (states, derivatives or indicators) into `values`.
    fn me_get(&mut self, which: fn(&Layout) -> &Vec<u32>, values: &mut [f64], argument: &str, what: &str) -> FmiResult {
        let layout = self.layout.take().expect("a Model Exchange instance has a layout");
        let result = check_count(values.len(), which(&layout).len(), argument, what).and_then(|()| self.get_floats(which(&layout), values));
        self.layout = Some(layout);
        result
    }

    pub fn me_get_states(&mut self, x: &mut [f64]) -> FmiResult {
        self.me_get(|l| &l.states, x, "nx", "continuous states")
    }

    pub fn me_get_derivatives(&mut self, dx: &mut [f64]) -> FmiResult {
        self.me_get(|l| &l.derivatives, dx, "nx", "continuous states")
    }

    pub fn me_get_event_indicators(&mut self, z: &mut [f64]) -> FmiResult {
        self.me_get(|l| &l.indicators, z, "ni", "event indicators")
    }

    pub fn me_get_nominals(&mut self, nominals: &mut [f64]) -> FmiResult {
        check_count(nominals.len(), self.number_of_states(), "nx", "continuous states")?;
        for (i, nominal) in nominals.iter_mut().enumerate() {
            *nominal = self.model.state_nominal(i);
        }
        Ok(Status::Ok)
    }

    /// NewDiscreteStates / UpdateDiscreteStates: true when continuous state values changed.
    pub fn me_update_discrete_states(&mut self) -> Result<bool, Failure> {
        let result = self.model.update_discrete_states();
        self.flush_warnings();
        result.map_err(model_failure)
    }

    /// CompletedIntegratorStep: true when the model asks for Event Mode.
    pub fn me_completed_integrator_step(&mut self) -> Result<bool, Failure> {
        let result = self.model.step_event();
        self.flush_warnings();
        result.map_err(model_failure)
    }
}

/// Numerical trouble while computing derivatives or events is Discard (the importer may retry
/// with a smaller step); anything else is Error.
fn model_failure(e: ModelError) -> Failure {
    match e {
        ModelError::NotFinite(message) => Failure::discard(message),
        ModelError::Invalid(message) => Failure::error(message),
    }
}
