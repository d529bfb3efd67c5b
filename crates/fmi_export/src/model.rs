//! What a model must provide to be exported as an FMU by this crate.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use crate::table::{Reader, Table};

/// Why a model could not produce its outputs or finish a step.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelError {
    /// Numerical trouble (a non-finite result, or a step too long for the model to take): DoStep
    /// and the getters answer Discard and keep the old state.
    NotFinite(String),
    /// Anything else (an invalid input or parameter): Error.
    Invalid(String),
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::NotFinite(message) | ModelError::Invalid(message) => f.write_str(message),
        }
    }
}

/// Why a model could not give the derivatives asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum DerivativeError {
    /// This value reference is not an output (unknown) whose derivatives the model gives; the
    /// text says which are.
    Unknown(u32, String),
    /// This value reference is not an input (known) the derivatives are taken with respect to.
    Known(u32, String),
    /// The model cannot evaluate them (invalid inputs, a refused geometry pair, an order it does
    /// not provide, numerical trouble).
    Model(ModelError),
}

/// A second FMU of the same binary: the model's variables and those marked
/// [`crate::table::Variable::in_extension`], under a model name of its own. The model's own FMU
/// leaves those out, so that an importer which shows every input and output as a port (Simulink,
/// Dymola) shows only the ones most users need. The instantiation token tells the two apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extension {
    /// modelName and modelIdentifier of the extension's FMU (its binary: `<name>.so`, the same
    /// file as the model's).
    pub name: &'static str,
    /// The extension's model description's `description`.
    pub description: &'static str,
}

/// A co-simulation model: its variable table and its lifecycle, with no FMI words in it.
///
/// The C API (see [`crate::export_fmi2`] and [`crate::export_fmi3`]) keeps one value of this
/// type per instance; `Clone` is the FMU state. Outputs are direct feedthrough and computed
/// lazily: setters call `inputs_changed` / `parameters_changed`, getters of outputs call
/// `update_outputs` first.
pub trait FmuModel: Clone + Sized + 'static {
    /// modelName and modelIdentifier (the binary is `<NAME>.so`).
    const NAME: &'static str;
    /// The model description's `description`.
    const DESCRIPTION: &'static str;
    /// DefaultExperiment: start time, stop time, step size \[s\].
    const DEFAULT_EXPERIMENT: (f64, f64, f64);

    /// The extension's FMU, if the model has one ([`Extension`]).
    const EXTENSION: Option<Extension> = None;

    /// Called after every [`FmuModel::new`] of an instance: true when the importer instantiated
    /// the extension's FMU, false for the model's own (whose extension variables it cannot set).
    fn set_extension(&mut self, _extension: bool) {}

    /// A new variable table. Each instance builds and owns one, so that the C API keeps no
    /// process-wide heap memory: an importer that unloads the library (FMPy does after every
    /// FreeInstance) gets all of it back.
    fn build_table() -> Table<Self>;

    /// A process-wide copy of the table, built once, for tools and tests (model descriptions,
    /// lookups by name). The C API never calls it.
    fn table() -> &'static Table<Self>;

    /// A fresh model with every default, looking up relative files in `resources`.
    fn new(resources: Option<PathBuf>) -> Self;

    fn resources(&self) -> Option<&Path>;

    fn set_resources(&mut self, resources: Option<PathBuf>);

    fn time(&self) -> f64;

    fn set_time(&mut self, time: f64);

    /// An input changed: the outputs are stale.
    fn inputs_changed(&mut self);

    /// A parameter changed: whatever was built from the parameters is stale.
    fn parameters_changed(&mut self);

    /// The end of initialisation: validates the parameters (beyond the table's min/max) and
    /// builds what the model needs; the error names the variable, the value and the rule.
    fn initialize(&mut self) -> Result<(), String>;

    /// Brings the outputs up to date with the inputs, parameters and state.
    fn update_outputs(&mut self) -> Result<(), ModelError>;

    /// Advances from `time()` to `time() + step` with the inputs held; on error the state is
    /// as before the step.
    fn do_step(&mut self, step: f64) -> Result<(), ModelError>;

    /// Warnings collected since the last call, for the caller to log.
    fn take_warnings(&mut self) -> Vec<String>;

    /// False when [`FmuModel::take_warnings`] would give nothing: every call asks, so a model
    /// that answers spares the hot path an empty vector.
    fn has_warnings(&self) -> bool {
        true
    }

    /// Opt-in fast path for gets of many Float64 outputs: calls `f` once with references to
    /// real output scalars of the model (any number, any order; typically all of them), each
    /// the very memory the accessor of one output scalar of the table gives. The table matches
    /// them to its scalars by address on a fresh model when it is built, so a reference that is
    /// no scalar's memory is simply not used, and a get then reads each matched scalar with one
    /// index and one load instead of an accessor call. Called only after
    /// [`FmuModel::update_outputs`] succeeded. The default offers none.
    ///
    /// Contract: the references must be the same projections of the model as the accessors
    /// (field paths, not memory chosen by the model's state), so that the match made on a fresh
    /// model holds for every state.
    fn with_output_refs(&self, f: &mut dyn FnMut(&[&f64])) {
        f(&[]);
    }

    /// The same for gets of many Boolean outputs: references to Boolean output scalars (see
    /// [`FmuModel::with_output_refs`] for the contract).
    fn with_flag_refs(&self, f: &mut dyn FnMut(&[&bool])) {
        f(&[]);
    }

    /// The same for sets of many Float64 inputs: calls `f` once with mutable references to real
    /// input scalars of the model (see [`FmuModel::with_output_refs`] for the contract); a set
    /// writes each matched scalar through its reference, with the checks of the scalar path.
    fn with_input_refs(&mut self, f: &mut dyn FnMut(&mut [&mut f64])) {
        f(&mut []);
    }

    /// FMI 2 `canInterpolateInputs`: the model takes first time derivatives of its real inputs
    /// ([`FmuModel::set_input_derivative`]).
    const CAN_INTERPOLATE_INPUTS: bool = false;

    /// FMI 3 `mightReturnEarlyFromDoStep` and `hasEventMode`: the model may end a step early at
    /// an event it predicts ([`FmuModel::early_return_time`]) and asks for Event Mode there.
    const MIGHT_RETURN_EARLY: bool = false;

    /// Sets the first time derivative of the real input with value reference `vr` for the next
    /// step. The C API calls it only when [`FmuModel::CAN_INTERPOLATE_INPUTS`], for a real input
    /// and order 1; an error names what was wrong with the value.
    fn set_input_derivative(&mut self, _vr: u32, _value: f64) -> Result<(), String> {
        Err("this model takes no input derivatives".to_string())
    }

    /// The time `tau` in `(0, step)` after `time()` at which a step of `step` should end early
    /// because of an event the model predicts; `None` to take the whole step. Called before
    /// [`FmuModel::do_step`] when the importer allows early return.
    fn early_return_time(&mut self, _step: f64) -> Result<Option<f64>, ModelError> {
        Ok(None)
    }

    /// Appends the state that is not in the variable table (for example friction deflections)
    /// to a serialized FMU state.
    fn write_internal_state(&self, _out: &mut Vec<u8>) {}

    /// Reads what [`FmuModel::write_internal_state`] wrote.
    fn read_internal_state(&mut self, _reader: &mut Reader<'_>) -> Result<(), String> {
        Ok(())
    }

    // -----------------------------------------------------------------------------------------
    // Model Exchange (opt-in: a model that keeps the defaults is co-simulation only). The
    // continuous states, their derivatives and the event indicators are variables of the table
    // (`Variable::state`, `Variable::derivative`, `Variable::event_indicator`); the C API reads
    // and writes them through it. See `crate::model_exchange`.

    /// True when the FMUs declare `<ModelExchange>` and the Model Exchange functions work.
    const MODEL_EXCHANGE: bool = false;

    /// Brings the derivatives and event indicators up to date with the inputs, parameters,
    /// continuous and discrete states (called before one of them is read).
    fn update_locals(&mut self) -> Result<(), ModelError> {
        self.update_outputs()
    }

    /// The end of initialisation of a Model Exchange instance, after [`FmuModel::initialize`]:
    /// refuses what Model Exchange cannot do with these parameters (the error names them).
    fn check_model_exchange(&mut self) -> Result<(), String> {
        Ok(())
    }

    /// Event Mode: updates the discrete states for the current time, inputs and continuous
    /// states; answers true when it also changed the values of continuous states.
    fn update_discrete_states(&mut self) -> Result<bool, ModelError> {
        Ok(false)
    }

    /// After an accepted integrator step: true asks the importer for Event Mode (a step event).
    fn step_event(&mut self) -> Result<bool, ModelError> {
        Ok(false)
    }

    /// The nominal value of continuous state `index` (0-based, table order).
    fn state_nominal(&self, _index: usize) -> f64 {
        1.0
    }

    /// The model gives directional and adjoint derivatives ([`FmuModel::directional_derivative`],
    /// [`FmuModel::adjoint_derivative`]): the model descriptions say so.
    const PROVIDES_DIRECTIONAL_DERIVATIVES: bool = false;

    /// The highest order of [`FmuModel::output_derivatives`] (0: none).
    const MAX_OUTPUT_DERIVATIVE_ORDER: u32 = 0;

    /// `sensitivity = J seed`, with J the partial derivatives of the outputs `unknowns` with
    /// respect to the inputs `knowns` at the current inputs, parameters and state
    /// (`seed.len() == knowns.len()`, `sensitivity.len() == unknowns.len()`).
    fn directional_derivative(&mut self, _unknowns: &[u32], _knowns: &[u32], _seed: &[f64], _sensitivity: &mut [f64]) -> Result<(), DerivativeError> {
        Err(DerivativeError::Model(ModelError::Invalid("directional derivatives are not provided".into())))
    }

    /// `sensitivity = seed^T J` (`seed.len() == unknowns.len()`, `sensitivity.len() == knowns.len()`).
    fn adjoint_derivative(&mut self, _unknowns: &[u32], _knowns: &[u32], _seed: &[f64], _sensitivity: &mut [f64]) -> Result<(), DerivativeError> {
        Err(DerivativeError::Model(ModelError::Invalid("adjoint derivatives are not provided".into())))
    }

    /// The time derivatives of order `orders[i]` of the outputs `vrs[i]` (FMI output derivatives).
    fn output_derivatives(&mut self, _vrs: &[u32], _orders: &[i32], _values: &mut [f64]) -> Result<(), DerivativeError> {
        Err(DerivativeError::Model(ModelError::Invalid("output derivatives are not provided".into())))
    }

    /// Model-specific sections of the documentation page (HTML body fragments).
    fn documentation_html() -> String {
        String::new()
    }
}
