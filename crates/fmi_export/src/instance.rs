//! One FMU instance behind the C API, and the single helper every exported function goes
//! through: null check, state table check, `catch_unwind`, status mapping and logging.

use std::ffi::{c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use super::logger::Logger;
use super::status::{Failure, FmiResult, Status};
use crate::model::{FmuModel, ModelError};
use crate::table::{IntKind, SetPhase, Table, VariableError};

/// The states of the co-simulation state machines of both versions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u16)]
pub enum State {
    Instantiated = 1,
    InitializationMode = 2,
    /// FMI 2 "slave initialized / step complete", FMI 3 "Step Mode".
    StepMode = 4,
    /// FMI 2 only: DoStep returned Discard.
    StepFailed = 8,
    Terminated = 16,
    Error = 32,
    Fatal = 64,
    /// Event Mode: Model Exchange, and FMI 3 co-simulation with `eventModeUsed`.
    EventMode = 128,
    /// Model Exchange: Continuous-Time Mode.
    ContinuousTimeMode = 256,
}

/// A set of states in which a function may be called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct States(u16);

impl States {
    pub const fn of(states: &[State]) -> States {
        let mut bits = 0;
        let mut i = 0;
        while i < states.len() {
            bits |= states[i] as u16;
            i += 1;
        }
        States(bits)
    }

    pub const ANY: States = States(0x1ff);
    /// Every state but Fatal.
    pub const NOT_FATAL: States = States(0x1ff & !(State::Fatal as u16));

    pub fn contains(self, state: State) -> bool {
        self.0 & state as u16 != 0
    }
}

/// A function's entry in a version's state table.
#[derive(Clone, Copy, Debug)]
pub struct Function {
    pub name: &'static str,
    pub allowed: States,
}

/// An FMU's internal state as saved by GetFMUState: the model and the state machine's state.
#[derive(Clone, Debug)]
pub struct SavedState<M> {
    pub model: M,
    pub state: State,
}

/// One instance: the model plus what the C API needs around it.
pub struct Instance<M: 'static> {
    pub model: M,
    /// This instance's own variable table (see [`FmuModel::build_table`]).
    pub table: Table<M>,
    pub state: State,
    pub logger: Logger,
    /// The FMU's resources folder, when the importer gave one.
    pub resources: Option<PathBuf>,
    /// Time reached by the last successful step.
    pub last_successful_time: f64,
    /// Strings handed out by the last string get; valid until the next call.
    strings: Vec<CString>,
    /// Co-simulation or Model Exchange: fixed at instantiation.
    pub interface: Interface,
    /// Model Exchange: where the states, derivatives and event indicators are in the table.
    pub layout: Option<crate::model_exchange::Layout>,
    /// FMI 3: the importer allows DoStep to return early (`earlyReturnAllowed`) and the model can.
    pub early_return_allowed: bool,
    /// FMI 3: the importer uses Event Mode (`eventModeUsed`) and the model has it.
    pub event_mode_used: bool,
    /// Addresses of the FMU states this instance made (GetFMUState, DeserializeFMUState) and the
    /// importer has not freed: checked before use, and freed with the instance.
    saved_states: Vec<usize>,
}

/// The interface an instance was made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    CoSimulation,
    ModelExchange,
}

impl<M: 'static> Drop for Instance<M> {
    /// FreeInstance frees "all the allocated memory" (the standard), so also the FMU states the
    /// importer did not free.
    fn drop(&mut self) {
        for address in self.saved_states.drain(..) {
            // SAFETY: each listed address was made by Box::into_raw in `store_state` and is
            // listed until it is freed, so each is freed exactly once.
            drop(unsafe { Box::from_raw(address as *mut SavedState<M>) });
        }
    }
}

impl<M: FmuModel> Instance<M> {
    /// A new instance with `table`, which the caller built with [`FmuModel::build_table`] (and
    /// used to check the instantiation token).
    pub fn new(table: Table<M>, logger: Logger, resources: Option<PathBuf>) -> Instance<M> {
        let mut model = M::new(resources.clone());
        model.set_extension(table.extension());
        Instance {
            model,
            table,
            state: State::Instantiated,
            logger,
            resources,
            last_successful_time: 0.0,
            strings: Vec::new(),
            interface: Interface::CoSimulation,
            layout: None,
            early_return_allowed: false,
            event_mode_used: false,
            saved_states: Vec::new(),
        }
    }

    /// Moves the instance into the heap and hands the pointer to the importer.
    pub fn into_raw(self) -> *mut c_void {
        Box::into_raw(Box::new(self)).cast()
    }

    /// Takes back an instance made by [`Instance::into_raw`] and frees it.
    ///
    /// # Safety
    /// `ptr` must come from `into_raw` and not have been freed.
    pub unsafe fn free_raw(ptr: *mut c_void) {
        // SAFETY: guaranteed by the caller.
        drop(unsafe { Box::from_raw(ptr.cast::<Instance<M>>()) });
    }

    /// Logs the warnings the model collected.
    pub fn flush_warnings(&mut self) {
        if !self.model.has_warnings() {
            return;
        }
        let warnings = self.model.take_warnings();
        for warning in warnings {
            self.logger.log(Status::Warning, &warning);
        }
    }

    /// Reset: back to the state of a fresh instantiation.
    pub fn reset(&mut self) {
        self.model = M::new(self.resources.clone());
        self.model.set_extension(self.table.extension());
        self.state = State::Instantiated;
        self.last_successful_time = 0.0;
        self.strings.clear();
        self.logger.reset();
    }

    pub fn set_phase(&self) -> SetPhase {
        match self.state {
            State::Instantiated | State::InitializationMode => SetPhase::Initializing,
            _ => SetPhase::Running,
        }
    }

    pub fn enter_initialization_mode(&mut self, start_time: f64) -> FmiResult {
        if !start_time.is_finite() {
            return Err(Failure::error(format!("startTime = {start_time} must be finite")));
        }
        self.model.set_time(start_time);
        self.last_successful_time = start_time;
        self.state = State::InitializationMode;
        Ok(Status::Ok)
    }

    /// End of initialisation: every parameter is checked and the block built.
    pub fn exit_initialization_mode(&mut self) -> FmiResult {
        self.table.check_ranges(&mut self.model).map_err(Failure::error)?;
        self.model.initialize().map_err(Failure::error)?;
        self.flush_warnings();
        if self.interface == Interface::ModelExchange {
            self.model.check_model_exchange().map_err(|e| Failure::error(format!("Model Exchange: {e}")))?;
            self.state = State::EventMode;
            return Ok(Status::Ok);
        }
        self.state = State::StepMode;
        Ok(Status::Ok)
    }

    /// DoStep over [t, t + h] with the inputs held.
    pub fn do_step(&mut self, t: f64, h: f64) -> FmiResult {
        if !t.is_finite() || !h.is_finite() {
            return Err(Failure::error(format!("currentCommunicationPoint = {t} and communicationStepSize = {h} must be finite")));
        }
        if h <= 0.0 {
            return Err(Failure::error(format!("communicationStepSize = {h} must be > 0")));
        }
        if !(t + h).is_finite() {
            return Err(Failure::error(format!(
                "currentCommunicationPoint + communicationStepSize = {t} + {h} overflows: the time must stay finite"
            )));
        }
        let now = self.model.time();
        if (t - now).abs() > 1e-9 * t.abs().max(h).max(1.0) {
            return Err(Failure::error(format!(
                "currentCommunicationPoint = {t} does not match the FMU's time {now} (the end of the previous step)"
            )));
        }
        self.model.set_time(t);
        let result = self.model.do_step(h);
        self.flush_warnings();
        match result {
            Ok(()) => {
                self.last_successful_time = self.model.time();
                Ok(Status::Ok)
            }
            Err(ModelError::NotFinite(message)) => {
                self.model.set_time(t);
                self.last_successful_time = t;
                Err(Failure::discard(format!("step from t = {t} discarded: {message}")))
            }
            Err(e) => Err(Failure::error(e.to_string())),
        }
    }

    pub fn get_floats(&mut self, vrs: &[u32], values: &mut [f64]) -> FmiResult {
        self.table.get_floats(&mut self.model, vrs, values).map_err(variable_failure)?;
        self.flush_warnings();
        Ok(Status::Ok)
    }

    pub fn set_floats(&mut self, vrs: &[u32], values: &[f64]) -> FmiResult {
        let phase = self.set_phase();
        self.table.set_floats(&mut self.model, vrs, values, phase).map_err(variable_failure)?;
        Ok(Status::Ok)
    }

    pub fn get_ints<T>(&mut self, vrs: &[u32], values: &mut [T], kind: IntKind, convert: impl Fn(i64) -> T) -> FmiResult {
        let mut fresh = false;
        for (vr, value) in vrs.iter().zip(values.iter_mut()) {
            *value = convert(self.table.get_int_once(&mut self.model, *vr, kind, &mut fresh).map_err(variable_failure)?);
        }
        self.flush_warnings();
        Ok(Status::Ok)
    }

    pub fn set_ints(&mut self, vrs: &[u32], values: impl Iterator<Item = i64>, kind: IntKind) -> FmiResult {
        let phase = self.set_phase();
        for (vr, value) in vrs.iter().zip(values) {
            self.table.set_int(&mut self.model, *vr, value, kind, phase).map_err(variable_failure)?;
        }
        Ok(Status::Ok)
    }

    pub fn get_bools<T>(&mut self, vrs: &[u32], values: &mut [T], convert: impl Fn(bool) -> T) -> FmiResult {
        self.table.get_bools(&mut self.model, vrs, values, convert).map_err(variable_failure)?;
        self.flush_warnings();
        Ok(Status::Ok)
    }

    pub fn set_bools(&mut self, vrs: &[u32], values: impl Iterator<Item = bool>) -> FmiResult {
        let phase = self.set_phase();
        for (vr, value) in vrs.iter().zip(values) {
            self.table.set_bool(&mut self.model, *vr, value, phase).map_err(variable_failure)?;
        }
        Ok(Status::Ok)
    }

    /// Fills `values` with pointers to strings owned by the instance until its next call.
    pub fn get_strings(&mut self, vrs: &[u32], values: &mut [*const std::ffi::c_char]) -> FmiResult {
        self.strings.clear();
        for vr in vrs {
            let text = self.table.get_string(&mut self.model, *vr).map_err(variable_failure)?;
            self.strings.push(CString::new(text.replace('\0', "")).expect("NUL removed"));
        }
        for (value, text) in values.iter_mut().zip(&self.strings) {
            *value = text.as_ptr();
        }
        Ok(Status::Ok)
    }

    /// # Safety
    /// Every non-null pointer in `values` must point to a NUL-terminated string.
    pub unsafe fn set_strings(&mut self, vrs: &[u32], values: &[*const std::ffi::c_char]) -> FmiResult {
        let phase = self.set_phase();
        for (vr, value) in vrs.iter().zip(values) {
            if value.is_null() {
                return Err(Failure::error(format!("the string for value reference {vr} is a null pointer")));
            }
            // SAFETY: non-null and NUL-terminated by the caller's contract.
            let text = unsafe { CStr::from_ptr(*value) };
            let text = text.to_str().map_err(|_| Failure::error(format!("the string for value reference {vr} is not UTF-8")))?;
            self.table.set_string(&mut self.model, *vr, text, phase).map_err(variable_failure)?;
        }
        Ok(Status::Ok)
    }

    pub fn save_state(&self) -> SavedState<M> {
        SavedState { model: self.model.clone(), state: self.state }
    }

    pub fn restore_state(&mut self, saved: &SavedState<M>) {
        self.model = saved.model.clone();
        // A deserialized state does not know where this instance's resources are.
        if self.model.resources().is_none() {
            self.model.set_resources(self.resources.clone());
        }
        self.state = saved.state;
        self.last_successful_time = self.model.time();
    }

    /// Writes a saved state into `*target` for GetFMUState and DeserializeFMUState, reusing the
    /// one already there (the standard lets the importer pass a previous state to be
    /// overwritten), which must be a live state of this instance.
    ///
    /// # Safety
    /// `target` is non-null and writable.
    pub unsafe fn store_state(&mut self, target: *mut *mut c_void, saved: SavedState<M>) -> Result<(), Failure> {
        // SAFETY: `target` is readable and writable by the caller's contract.
        let current = unsafe { *target };
        if current.is_null() {
            let made = Box::into_raw(Box::new(saved));
            self.saved_states.push(made as usize);
            // SAFETY: as above.
            unsafe { *target = made.cast() };
        } else {
            let live = self.saved_state(current)?;
            // SAFETY: a live state of this instance, made by Box::into_raw above and not freed.
            unsafe { *live = saved };
        }
        Ok(())
    }

    /// `state` as a live FMU state of this instance; an error for any other pointer (one freed
    /// already, made by another instance, or never made), which would otherwise be undefined
    /// behaviour.
    pub fn saved_state(&self, state: *mut c_void) -> Result<*mut SavedState<M>, Failure> {
        if state.is_null() {
            return Err(Failure::error("FMUstate is a null pointer"));
        }
        if !self.saved_states.contains(&(state as usize)) {
            return Err(Failure::error(format!(
                "FMUstate {state:p} is not a live FMU state of this instance (one it made with GetFMUState or \
                 DeserializeFMUState and that was not freed)"
            )));
        }
        Ok(state.cast())
    }

    /// Frees a live FMU state of this instance (FreeFMUState).
    pub fn free_saved_state(&mut self, state: *mut c_void) -> Result<(), Failure> {
        let live = self.saved_state(state)?;
        self.saved_states.retain(|address| *address != state as usize);
        // SAFETY: made by Box::into_raw in `store_state`, and no longer listed, so freed once.
        drop(unsafe { Box::from_raw(live) });
        Ok(())
    }

    /// Logs why an optional function this FMU does not provide was called and answers Error,
    /// without changing the instance's state.
    pub fn unsupported(&self, function: &str, why: &str) -> Status {
        self.logger.log(Status::Error, &format!("{function}: not supported: {why}"));
        Status::Error
    }
}

const STATES: [State; 9] = [
    State::Instantiated,
    State::InitializationMode,
    State::StepMode,
    State::StepFailed,
    State::Terminated,
    State::Error,
    State::Fatal,
    State::EventMode,
    State::ContinuousTimeMode,
];

/// The byte that stands for a state in a serialized FMU state: 1 + the position of its bit.
fn state_code(state: State) -> u8 {
    (state as u16).trailing_zeros() as u8 + 1
}

/// Serializes a saved state: the state machine's state as one byte, then the model in the format
/// of [`crate::table::Table::serialize`] (time included, with its own checksum).
pub fn serialize_state<M: FmuModel>(table: &Table<M>, saved: &SavedState<M>) -> Vec<u8> {
    let mut bytes = vec![state_code(saved.state)];
    bytes.extend(table.serialize(&mut saved.model.clone()));
    bytes
}

/// Inverse of [`serialize_state`]; damaged bytes are an error and nothing is made.
pub fn deserialize_state<M: FmuModel>(table: &Table<M>, bytes: &[u8]) -> Result<SavedState<M>, String> {
    let (first, rest) = bytes.split_first().ok_or("an empty buffer is not a serialized FMU state")?;
    let state = *STATES
        .iter()
        .find(|s| state_code(**s) == *first)
        .ok_or("these bytes are not a serialized ContactForce FMU state")?;
    let model = table.deserialize(rest)?;
    if !model.time().is_finite() {
        return Err("the serialized FMU state has a non-finite time".to_string());
    }
    Ok(SavedState { model, state })
}

/// A getter or setter that failed. Numerical trouble while computing outputs (finite but
/// enormous inputs whose forces overflow) is Discard: the instance stays in its state, the values
/// are not written, and the importer may change the inputs and ask again, as after a discarded
/// step. Everything else (an invalid input, an unknown reference, a wrong type) is Error.
fn variable_failure(e: VariableError) -> Failure {
    match e {
        VariableError::Model(ModelError::NotFinite(message)) => Failure::discard(message),
        VariableError::Model(ModelError::Invalid(message)) => Failure::error(message),
        other => Failure::error(other.to_string()),
    }
}

/// Runs an exported function's body on the instance behind `ptr`.
///
/// Null instance: Error (nothing to log through). Wrong state: "Illegal call sequence" logged and
/// Error. Otherwise the body runs under `catch_unwind`, so a panic becomes Error (with its message
/// logged) instead of aborting the host. A Discard, Error or Fatal is logged; Error and Fatal move
/// the instance into the Error and Fatal states, from which only Reset, SetFMUState, getters and
/// FreeInstance lead on. Discard moves it to `discard_state` when given.
///
/// # Safety
/// `ptr` must be null or an instance made by [`Instance::into_raw`] and not yet freed, used by
/// one thread at a time (the FMI standard's rule).
pub unsafe fn dispatch<M: FmuModel>(
    ptr: *mut c_void,
    function: Function,
    discard_state: Option<State>,
    body: impl FnOnce(&mut Instance<M>) -> FmiResult,
) -> Status {
    if ptr.is_null() {
        return Status::Error;
    }
    // SAFETY: non-null and a live instance by the caller's contract; FMI forbids concurrent calls
    // on one instance, so this is the only reference.
    let instance = unsafe { &mut *ptr.cast::<Instance<M>>() };
    if !function.allowed.contains(instance.state) {
        instance.logger.log(
            Status::Error,
            &format!("{}: Illegal call sequence: not allowed in state {:?}", function.name, instance.state),
        );
        return Status::Error;
    }
    let result = catch_unwind(AssertUnwindSafe(|| body(&mut *instance)));
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(Failure::error(format!("internal error (please report): {what}")))
        }
    };
    match outcome {
        Ok(status) => status,
        Err(failure) => {
            instance.logger.log(failure.status, &format!("{}: {}", function.name, failure.message));
            match failure.status {
                Status::Error => instance.state = State::Error,
                Status::Fatal => instance.state = State::Fatal,
                Status::Discard => {
                    if let Some(state) = discard_state {
                        instance.state = state;
                    }
                }
                Status::Ok | Status::Warning => {}
            }
            failure.status
        }
    }
}

/// Runs a body that needs no instance (for example Instantiate) under `catch_unwind`; a panic
/// gives `fallback`.
pub fn guarded<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// An error naming the first of `pointers` (whether it is null, the argument's name) that is null.
pub fn require_non_null(pointers: &[(bool, &str)]) -> Result<(), Failure> {
    match pointers.iter().find(|(null, _)| *null) {
        Some((_, name)) => Err(Failure::error(format!("{name} is a null pointer"))),
        None => Ok(()),
    }
}

/// Views a C array as a slice; null with a non-zero length is an error naming the argument.
///
/// # Safety
/// When non-null, `ptr` must point to `len` readable elements.
pub unsafe fn slice<'a, T>(ptr: *const T, len: usize, what: &str) -> Result<&'a [T], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Failure::error(format!("{what} is a null pointer")));
    }
    // SAFETY: non-null and `len` elements by the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Mutable version of [`slice`](fn@slice).
///
/// # Safety
/// When non-null, `ptr` must point to `len` writable elements not aliased elsewhere.
pub unsafe fn slice_mut<'a, T>(ptr: *mut T, len: usize, what: &str) -> Result<&'a mut [T], Failure> {
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(Failure::error(format!("{what} is a null pointer")));
    }
    // SAFETY: as above.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
}

/// Reads an importer's C string; null is an error naming the argument.
///
/// # Safety
/// When non-null, `ptr` must point to a NUL-terminated string.
pub unsafe fn c_str<'a>(ptr: *const std::ffi::c_char, what: &str) -> Result<&'a str, String> {
    if ptr.is_null() {
        return Err(format!("{what} is a null pointer"));
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    unsafe { CStr::from_ptr(ptr) }.to_str().map_err(|_| format!("{what} is not UTF-8"))
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::{Path, PathBuf};
    use std::sync::OnceLock;

    use super::*;
    use crate::table::{Causality, Table, Variable};

    /// The smallest model: one input x, one output y = 2 x, one parameter.
    #[derive(Clone, Debug, Default)]
    pub(crate) struct Doubler {
        time: f64,
        x: f64,
        y: f64,
        gain: f64,
    }

    impl FmuModel for Doubler {
        const NAME: &'static str = "Doubler";
        const DESCRIPTION: &'static str = "y = gain x";
        const DEFAULT_EXPERIMENT: (f64, f64, f64) = (0.0, 1.0, 0.1);

        fn build_table() -> Table<Self> {
            Table::new(
                vec![
                    Variable::time(|m: &mut Doubler| std::slice::from_mut(&mut m.time)),
                    Variable::float("x", 1, 1, Causality::Input, "1", "input", |m| std::slice::from_mut(&mut m.x)),
                    Variable::float("y", 2, 1, Causality::Output, "1", "output", |m| std::slice::from_mut(&mut m.y)),
                    Variable::parameter("gain", 3, "1", "gain", |m| std::slice::from_mut(&mut m.gain)),
                ],
                vec![],
            )
        }
        fn table() -> &'static Table<Self> {
            static TABLE: OnceLock<Table<Doubler>> = OnceLock::new();
            TABLE.get_or_init(Self::build_table)
        }
        fn new(_: Option<PathBuf>) -> Self {
            Doubler { gain: 2.0, ..Default::default() }
        }
        fn resources(&self) -> Option<&Path> {
            None
        }
        fn set_resources(&mut self, _: Option<PathBuf>) {}
        fn time(&self) -> f64 {
            self.time
        }
        fn set_time(&mut self, time: f64) {
            self.time = time;
        }
        fn inputs_changed(&mut self) {}
        fn parameters_changed(&mut self) {}
        fn initialize(&mut self) -> Result<(), String> {
            Ok(())
        }
        fn update_outputs(&mut self) -> Result<(), ModelError> {
            self.y = self.gain * self.x;
            Ok(())
        }
        fn do_step(&mut self, step: f64) -> Result<(), ModelError> {
            self.time += step;
            Ok(())
        }
        fn take_warnings(&mut self) -> Vec<String> {
            Vec::new()
        }
    }

    const ANYWHERE: Function = Function { name: "testFunction", allowed: States::ANY };

    #[test]
    fn a_panic_in_a_body_becomes_error_and_the_error_state() {
        let ptr = Instance::<Doubler>::new(Doubler::build_table(), Logger::fmi3(None, std::ptr::null_mut(), "panics", true), None).into_raw();
        // SAFETY: `ptr` was just made by into_raw and is freed below.
        let status = unsafe { dispatch::<Doubler>(ptr, ANYWHERE, None, |_| panic!("forced panic")) };
        assert_eq!(status, Status::Error);
        // SAFETY: as above.
        let instance = unsafe { &*ptr.cast::<Instance<Doubler>>() };
        assert_eq!(instance.state, State::Error);
        // SAFETY: made by into_raw, freed once.
        unsafe { Instance::<Doubler>::free_raw(ptr) };
    }

    #[test]
    fn a_null_instance_is_an_error_not_a_crash() {
        // SAFETY: null is allowed and answered before any dereference.
        let status = unsafe { dispatch::<Doubler>(std::ptr::null_mut(), ANYWHERE, None, |_| Ok(Status::Ok)) };
        assert_eq!(status, Status::Error);
    }

    #[test]
    fn serialized_state_round_trips_and_rejects_damage() {
        let model = Doubler { time: 1.25, x: -0.5, y: 0.0, gain: 3.0 };
        let saved = SavedState { model, state: State::StepMode };
        let table = Doubler::build_table();
        let bytes = serialize_state(&table, &saved);
        let back = deserialize_state::<Doubler>(&table, &bytes).unwrap();
        assert_eq!((back.model.time, back.model.x, back.model.gain), (1.25, -0.5, 3.0));
        assert_eq!(back.state, State::StepMode);
        for i in [0, 1, 10, bytes.len() / 2, bytes.len() - 1] {
            let mut damaged = bytes.clone();
            damaged[i] ^= 0x40;
            assert!(deserialize_state::<Doubler>(&table, &damaged).is_err(), "byte {i}");
        }
        assert!(deserialize_state::<Doubler>(&table, &bytes[..bytes.len() - 3]).is_err());
        assert!(deserialize_state::<Doubler>(&table, b"garbage bytes that are not a state").is_err());
    }

    #[test]
    fn outputs_are_computed_when_read() {
        let mut instance = Instance::<Doubler>::new(Doubler::build_table(), Logger::fmi3(None, std::ptr::null_mut(), "d", false), None);
        instance.enter_initialization_mode(0.0).unwrap();
        instance.set_floats(&[1], &[4.0]).unwrap();
        let mut y = [0.0];
        instance.get_floats(&[2], &mut y).unwrap();
        assert_eq!(y, [8.0]);
    }
}
