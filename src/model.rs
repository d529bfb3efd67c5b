//! One block instance's data and its lifecycle, free of FMI words: parameters, inputs, lazily
//! computed outputs, time, and the typed block built when initialisation ends.

use std::path::{Path, PathBuf};

use crate::block::{Block, InputError, Inputs, Notes, Outputs, ParameterError, Parameters};
use crate::physics::contact::PointState;
use crate::physics::geometry::ContactPoint;

/// Why outputs could not be produced.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelError {
    Parameter(ParameterError),
    Input(InputError),
    /// The laws produced a non-finite output (for example from enormous velocities).
    NotFinite(String),
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

#[derive(Clone, Debug)]
pub struct Model {
    pub parameters: Parameters,
    pub inputs: Inputs,
    pub outputs: Outputs,
    /// Current time [s]: the end of the last step.
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
    /// Contact points of the last evaluation, reused so that warm calls do not allocate.
    scratch: Vec<ContactPoint>,
    /// One-time warnings already given.
    warned: Notes,
    /// Warnings waiting to be logged by the caller.
    warnings: Vec<String>,
    /// The FMU's resources folder, where relative geometry file names are looked up.
    resources: Option<PathBuf>,
}

impl Default for Model {
    fn default() -> Self {
        Model {
            parameters: Parameters::default(),
            inputs: Inputs::default(),
            outputs: Outputs::default(),
            time: 0.0,
            block: None,
            outputs_valid: false,
            states: Vec::new(),
            states_before: Vec::new(),
            scratch: Vec::with_capacity(8),
            warned: Notes::default(),
            warnings: Vec::new(),
            resources: None,
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
            let (block, warnings) = Block::new(&self.parameters, self.resources.as_deref())?;
            self.warnings.extend(warnings);
            self.block = Some(block);
        }
        Ok(self.block.as_ref().expect("block was just built"))
    }

    /// Computes the outputs if an input, a parameter or the state changed since the last time.
    pub fn update_outputs(&mut self) -> Result<&Outputs, ModelError> {
        if !self.outputs_valid {
            self.build_block().map_err(ModelError::Parameter)?;
            let block = self.block.as_ref().expect("block built above");
            let notes = block.evaluate(&self.inputs, &mut self.scratch, &self.states, &mut self.outputs).map_err(ModelError::Input)?;
            self.note(notes);
            if !self.outputs.all_finite() {
                return Err(ModelError::NotFinite(format!(
                    "the contact force is not finite for these inputs (separation {}, normal force {}); check the input velocities",
                    self.outputs.separation, self.outputs.normal_force
                )));
            }
            self.outputs_valid = true;
        }
        Ok(&self.outputs)
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

    /// Advances from `time` to `time + step` with the inputs held: the stateful laws integrate
    /// their point states over the step, and the outputs then belong to `time + step`. A step
    /// whose results are not finite leaves the state as it was.
    pub fn do_step(&mut self, step: f64) -> Result<(), ModelError> {
        self.update_outputs()?;
        let block = self.block.as_ref().expect("update_outputs built the block");
        if block.is_stateful() {
            self.states_before.clone_from(&self.states);
            block.advance(&self.inputs, &mut self.scratch, &mut self.states, step).map_err(ModelError::Input)?;
            self.outputs_valid = false;
            if let Err(e) = self.update_outputs() {
                std::mem::swap(&mut self.states, &mut self.states_before);
                self.outputs_valid = false;
                return Err(e);
            }
        }
        self.time += step;
        Ok(())
    }

    /// The contact points' states (part of the FMU state).
    pub fn point_states(&self) -> &[PointState] {
        &self.states
    }

    /// Replaces the contact points' states (restoring an FMU state).
    pub fn set_point_states(&mut self, states: Vec<PointState>) {
        self.states = states;
        self.outputs_valid = false;
    }

    /// Warnings collected since the last call, for the caller to log.
    pub fn take_warnings(&mut self) -> std::vec::Drain<'_, String> {
        self.warnings.drain(..)
    }

    /// True once a block has been built from the current parameters.
    pub fn has_block(&self) -> bool {
        self.block.is_some()
    }
}
