//! One block instance's data and its lifecycle, free of FMI words: parameters, inputs, lazily
//! computed outputs, time, and the typed block built when initialisation ends.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use fmi_export::transaction::{transaction, Rollback};

mod coupling;
mod early_return;
mod exchange;
mod input_derivatives;
pub use contact_fmi::point_slots;

pub use coupling::{Coupling, Drift};
pub use exchange::{Locals, DEFLECTION_NOMINAL, EMPTY_SLOT_SEPARATION};

use crate::block::{Block, Frame, InputError, Inputs, Notes, Outputs, ParameterError, Parameters, INPUT_COUNT, POINT_OUTPUTS};
use crate::physics::contact::PointState;
use crate::physics::geometry::ContactPoint;

/// Why outputs could not be produced.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelError {
    Parameter(ParameterError),
    Input(InputError),
    /// Numerical trouble: the laws produced a non-finite output (for example from enormous
    /// velocities), or a step would take more than [`MAX_SUBSTEPS`] sub-steps.
    NotFinite(String),
}

/// How the FMI adapters report a model's failure: numerical trouble is `NotFinite` (Discard in
/// DoStep, so that the importer may retry shorter); every other failure is invalid (an error).
impl From<ModelError> for fmi_export::ModelError {
    fn from(e: ModelError) -> fmi_export::ModelError {
        match e {
            ModelError::NotFinite(message) => fmi_export::ModelError::NotFinite(message),
            other => fmi_export::ModelError::Invalid(other.to_string()),
        }
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::Parameter(e) => write!(f, "{e}"),
            ModelError::Input(e) => write!(f, "{e}"),
            ModelError::NotFinite(what) => write!(f, "{what}"),
        }
    }
}

pub use crate::physics::substeps::{check_substeps, MAX_SUBSTEPS};

/// The block, the inputs, the point states and the scratch points, for the derivatives.
/// The second FMU of the same binary: ContactForce with the point slots of the laws provided by
/// input (`contact.point[i].depth`, ..., `contact.point[i].provided.*`, value references from
/// 1100), which the ContactForce FMU leaves out (the model refuses those laws without them).
pub const EXTENSION_NAME: &str = "ContactForceProvidedLaws";

pub(crate) type DerivativeParts<'a> = (&'a Block, &'a Inputs, &'a [PointState], &'a mut Vec<ContactPoint>);

#[derive(Clone, Debug)]
pub struct Model {
    pub parameters: Parameters,
    pub inputs: Inputs,
    pub outputs: Outputs,
    /// Current time \[s\]: the end of the last step.
    pub time: f64,
    /// Built from `parameters`; `None` until first needed and after any parameter change.
    block: Option<Block>,
    /// Outputs belong to the current inputs, parameters and state.
    outputs_valid: bool,
    /// State of each contact point for the stateful laws (deflections, onset speeds), indexed
    /// like the contact points; part of the FMU state.
    states: Vec<PointState>,
    /// `states` before the current step, to restore when the step is discarded.
    states_before: Vec<PointState>,
    /// `inputs` before the current step (an interpolated step moves them), likewise.
    inputs_before: Inputs,
    /// What StepAverage carried over before the current step, likewise.
    coupling_before: coupling::Checkpoint,
    /// The coupling was checkpointed by the step under way (StepAverage only: no other DoStep
    /// changes it).
    coupling_saved: bool,
    /// Contact points of the last evaluation, reused so that warm calls do not allocate.
    scratch: Vec<ContactPoint>,
    /// One-time warnings already given.
    warned: Notes,
    /// Warnings waiting to be logged by the caller.
    warnings: Vec<String>,
    /// The FMU's resources folder, where relative geometry file names are looked up.
    resources: Option<PathBuf>,
    /// How many times the outputs were computed (lazy evaluation is visible in tests).
    evaluations: u64,
    /// Model Exchange: derivatives and event indicators of the point slots (see exchange.rs).
    locals: Locals,
    /// First time derivatives of the 26 inputs, in value-reference order 1..26 (zero when not
    /// given): the inputs move along them during the next step (see `model/input_derivatives.rs`).
    input_derivatives: [f64; INPUT_COUNT],
    /// `coupling.mode = StepAverage`: what carries over from step to step (model/coupling.rs).
    coupling: Coupling,
    /// The first DoStep (or, in Model Exchange, the first completed integrator step) has begun:
    /// from then on an all-zero quaternion input is an error (see [`Model::unconnected`]).
    started: bool,
    /// The outputs are the zero force of an input not yet connected ([`Model::unconnected`]).
    unconnected: bool,
    /// The warning about a not yet connected quaternion was given.
    warned_unconnected: bool,
    /// `body_a.mobility`, `body_b.mobility`: each body's 6x6 mobility at its frame origin, the
    /// upper triangle row by row, as a body FMU gives it (all zero: not given).
    pub mobility: [[f64; crate::physics::mobility::MOBILITY_VALUES]; 2],
    /// The instance has the inputs of the laws provided by input: false in an instance of the
    /// ContactForce FMU, which leaves them out (they are in ContactForceProvidedLaws).
    provided_inputs: bool,
}

impl Default for Model {
    fn default() -> Self {
        let parameters = Parameters::default();
        // At the start values B's sphere rests on A's plane: its centre one radius above it, so
        // that a first evaluation with every value left alone shows touching bodies (no force),
        // not a sphere sunk to its centre.
        let frame_b = Frame { r_0: [0.0, 0.0, parameters.geometry_b.radius], ..Frame::default() };
        Model {
            inputs: Inputs { frame_b, ..Inputs::default() },
            parameters,
            outputs: Outputs::default(),
            time: 0.0,
            block: None,
            outputs_valid: false,
            // The point slots' states exist from the start: they are the continuous states of
            // Model Exchange (variables of the table).
            states: vec![PointState::default(); POINT_OUTPUTS],
            states_before: Vec::new(),
            inputs_before: Inputs::default(),
            coupling_before: coupling::Checkpoint::default(),
            coupling_saved: false,
            scratch: Vec::with_capacity(8),
            warned: Notes::default(),
            warnings: Vec::new(),
            resources: None,
            evaluations: 0,
            locals: Locals::default(),
            input_derivatives: [0.0; INPUT_COUNT],
            coupling: Coupling::default(),
            started: false,
            unconnected: false,
            warned_unconnected: false,
            mobility: [[0.0; crate::physics::mobility::MOBILITY_VALUES]; 2],
            provided_inputs: true,
        }
    }
}

impl Model {
    /// A fresh model whose relative geometry files are looked up in `resources`.
    pub fn with_resources(resources: Option<PathBuf>) -> Model {
        Model { resources, ..Model::default() }
    }

    /// Sets where relative geometry files are looked up; the block is rebuilt when next needed.
    pub fn set_resources(&mut self, resources: Option<PathBuf>) {
        self.resources = resources;
        self.parameters_changed();
    }

    /// The resources folder, kept across a Reset.
    pub fn resources(&self) -> Option<&Path> {
        self.resources.as_deref()
    }

    /// Marks the outputs stale after an input changed.
    pub fn inputs_changed(&mut self) {
        self.outputs_valid = false;
        self.coupling.inputs_set();
    }

    /// Marks the block and the outputs stale after a parameter changed.
    pub fn parameters_changed(&mut self) {
        self.block = None;
        self.outputs_valid = false;
    }

    /// Validates the parameters and builds the block (the end of initialisation).
    pub fn initialize(&mut self) -> Result<(), ParameterError> {
        self.build_block().map(|_| ())
    }

    fn build_block(&mut self) -> Result<&Block, ParameterError> {
        if self.block.is_none() {
            if !self.provided_inputs {
                crate::block::refuse_provided_laws(&self.parameters, EXTENSION_NAME)?;
            }
            let (block, warnings) = Block::new(&self.parameters, self.resources.as_deref())?;
            self.warnings.extend(warnings);
            if block.is_stateful() {
                // Every point's state exists from the start, so DoStep never allocates.
                let points = block.pair().max_points();
                if self.states.len() < points {
                    self.states.resize(points, PointState::default());
                }
                self.states_before.reserve(points);
            }
            self.block = Some(block);
        }
        Ok(self.block.as_ref().expect("block was just built"))
    }

    /// Computes the outputs if an input, a parameter or the state changed since the last time.
    #[inline]
    pub fn update_outputs(&mut self) -> Result<&Outputs, ModelError> {
        // Up to date (every get after the first of a cycle): inlined into the caller, no call.
        if !self.outputs_valid {
            self.evaluate_outputs()?;
        }
        Ok(&self.outputs)
    }

    /// [`Model::update_outputs`] where the outputs are stale: one evaluation of the block.
    fn evaluate_outputs(&mut self) -> Result<(), ModelError> {
        self.build_block().map_err(ModelError::Parameter)?;
        self.evaluations += 1;
        if self.unconnected() {
            self.outputs_valid = true;
            return Ok(());
        }
        let block = self.block.as_ref().expect("block built above");
        let notes = match block.step_average_setup() {
            None => {
                let notes = block.evaluate(&self.inputs, &mut self.scratch, &self.states, &mut self.outputs).map_err(ModelError::Input)?;
                // Held over the step, the force is its own maximum; the bodies' masses are the
                // parameters'.
                self.outputs.max_normal_force = self.outputs.normal_force;
                self.outputs.effective_mass = [self.parameters.body_a.mass, self.parameters.body_b.mass];
                notes
            }
            Some(setup) => {
                let setup = *setup;
                self.evaluate_step_average(setup)?
            }
        };
        self.note(notes);
        if !self.outputs.all_finite() {
            return Err(ModelError::NotFinite(format!(
                "the contact force is not finite for these inputs (separation {}, normal force {}); check the input velocities",
                self.outputs.separation, self.outputs.normal_force
            )));
        }
        self.outputs_valid = true;
        Ok(())
    }

    /// Before the first step, an all-zero quaternion input means that the master has not yet
    /// passed the body's pose along its connection (it evaluates in initialisation mode from
    /// connectors that start at 0): the outputs are then zero force, with one warning naming the
    /// input, and the block is not evaluated. From the first step on it is the block's error
    /// (interface.md, "Co-simulation semantics").
    fn unconnected(&mut self) -> bool {
        let input = if self.started { None } else { self.inputs.unconnected_quaternion() };
        self.unconnected = input.is_some();
        let Some(name) = input else { return false };
        self.outputs = Outputs::default();
        if !self.warned_unconnected {
            self.warned_unconnected = true;
            self.warnings.push(format!(
                "{name} = [0, 0, 0, 0] before the first step: taken as not yet connected, the outputs are zero force \
                 until it is set; from the first step on a zero quaternion is an error"
            ));
        }
        true
    }

    /// The first DoStep or completed integrator step begins: the zero-force answer to an
    /// all-zero quaternion ends, and outputs computed under it are stale.
    fn start(&mut self) {
        if !self.started {
            self.started = true;
            if self.unconnected {
                self.unconnected = false;
                self.outputs_valid = false;
            }
        }
    }

    /// The outputs are the zero force of a quaternion input not yet connected (before the first
    /// step): Model Exchange then reports no contact point in any slot.
    fn is_unconnected(&self) -> bool {
        self.unconnected
    }

    fn note(&mut self, notes: Notes) {
        if notes.frame_a_q_not_unit && !self.warned.frame_a_q_not_unit {
            self.warned.frame_a_q_not_unit = true;
            self.warnings.push(format!("frame_a.q = {:?} is not a unit quaternion; it is normalised", self.inputs.frame_a.q));
        }
        if notes.frame_b_q_not_unit && !self.warned.frame_b_q_not_unit {
            self.warned.frame_b_q_not_unit = true;
            self.warnings.push(format!("frame_b.q = {:?} is not a unit quaternion; it is normalised", self.inputs.frame_b.q));
        }
        if notes.passed_through && !self.warned.passed_through {
            self.warned.passed_through = true;
            self.warnings.push(format!(
                "a contact point is deeper than normal.max_depth = {} m: it is treated as passed through and carries no force",
                self.parameters.normal.max_depth
            ));
        }
    }

    /// Advances from `time` to `time + step`: with the inputs held (the stateful laws integrate
    /// their point states over the step, and the outputs then belong to `time + step`), along
    /// their derivatives (`model/input_derivatives.rs`), or under StepAverage (`model/coupling.rs`).
    /// Each is one transaction ([`fmi_export::transaction`]): a step that fails leaves the model as
    /// it was.
    pub fn do_step(&mut self, step: f64) -> Result<(), ModelError> {
        self.start();
        let setup = self.build_block().map_err(ModelError::Parameter)?.step_average_setup().copied();
        transaction(self, |model| match setup {
            Some(setup) => model.do_step_average(setup, step),
            None if model.has_input_derivatives() => model.do_step_interpolated(step),
            None => model.do_step_held(step),
        })
    }

    /// DoStep with the inputs held (see [`Model::do_step`]).
    fn do_step_held(&mut self, step: f64) -> Result<(), ModelError> {
        self.update_outputs()?;
        let block = self.block.as_ref().expect("update_outputs built the block");
        if block.is_stateful() {
            check_substeps(step, self.parameters.solver_max_step, "solver.max_step").map_err(ModelError::NotFinite)?;
            block.advance(&self.inputs, &mut self.scratch, &mut self.states, step).map_err(ModelError::Input)?;
            self.outputs_valid = false;
            self.update_outputs()?;
        }
        self.time += step;
        Ok(())
    }

    /// How many times the outputs have been computed since the model was made.
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// The contact points' states (part of the FMU state).
    pub fn point_states(&self) -> &[PointState] {
        &self.states
    }

    /// Replaces the contact points' states (restoring an FMU state); the point slots always
    /// have one.
    pub fn set_point_states(&mut self, mut states: Vec<PointState>) {
        if states.len() < POINT_OUTPUTS {
            states.resize(POINT_OUTPUTS, PointState::default());
        }
        self.states = states;
        self.outputs_valid = false;
    }

    /// Warnings collected since the last call, for the caller to log.
    pub fn take_warnings(&mut self) -> std::vec::Drain<'_, String> {
        self.warnings.drain(..)
    }

    /// Whether the instance has the inputs of the laws provided by input (an instance of the
    /// extension) or leaves them out.
    pub fn set_provided_inputs(&mut self, provided_inputs: bool) {
        self.provided_inputs = provided_inputs;
    }

    /// True when warnings wait to be taken.
    pub fn has_warnings(&self) -> bool {
        !self.warnings.is_empty()
    }

    /// Replaces what StepAverage carries over (restoring an FMU state).
    pub fn set_coupling(&mut self, coupling: Coupling) {
        self.coupling = coupling;
    }

    /// True once a block has been built from the current parameters.
    pub fn has_block(&self) -> bool {
        self.block.is_some()
    }

    /// What the derivatives need (src/derivatives.rs), with the outputs brought up to date
    /// first, so that the inputs, the parameters and the forces have passed their checks.
    pub(crate) fn derivative_parts(&mut self) -> Result<DerivativeParts<'_>, ModelError> {
        self.update_outputs()?;
        let block = self.block.as_ref().expect("update_outputs built the block");
        if block.step_average_setup().is_some() {
            return Err(ModelError::Parameter(crate::block::ParameterError {
                variable: "coupling.mode".to_string(),
                value: "StepAverage".to_string(),
                rule: "the outputs are averages over the coming step, whose derivatives the block does not provide; \
                       use coupling.mode = Instantaneous for directional, adjoint and output derivatives"
                    .to_string(),
            }));
        }
        Ok((block, &self.inputs, &self.states, &mut self.scratch))
    }
}

/// What a DoStep may change before it can still fail: the point states, the inputs (moved along
/// their derivatives) and what StepAverage carries over. `do_step_average` changes the point
/// states and the drift only once nothing can fail; before that it may update the other forces'
/// estimate, which its checkpoint undoes.
impl Rollback for Model {
    fn save(&mut self) {
        self.states_before.clone_from(&self.states);
        self.inputs_before = self.inputs.clone();
        self.coupling_saved = self.block.as_ref().is_some_and(|b| b.step_average_setup().is_some());
        if self.coupling_saved {
            self.coupling.checkpoint(&mut self.coupling_before);
        }
    }

    fn roll_back(&mut self) {
        std::mem::swap(&mut self.states, &mut self.states_before);
        std::mem::swap(&mut self.inputs, &mut self.inputs_before);
        if self.coupling_saved {
            self.coupling.restore(&self.coupling_before);
        }
        self.outputs_valid = false;
    }
}
