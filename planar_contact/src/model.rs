//! One PlanarContact instance: parameters, inputs, lazily computed outputs, time and the
//! per-point states of the stateful laws. Under Model Exchange the slots' tangential deflections
//! (x, y) are continuous states and each slot has a make/break and a stick/slip event indicator:
//! ContactForce's point slots (`contact_fmi::point_slots`). The FMU's lifecycle is in
//! `fmi.rs`.
#![forbid(unsafe_code)]

use std::path::PathBuf;

use contact_fmi::point_slots;
use contact_physics::contact::{PointForce, PointState};
use fmi_export::transaction::Rollback;
use fmi_export::ModelError;

use crate::block::{Block, Frame, Inputs, Outputs, Parameters, POINT_OUTPUTS};
use crate::geometry::PlanarPoint;

pub use point_slots::{DEFLECTION_NOMINAL, EMPTY_SLOT_SEPARATION};

/// Derivatives and event indicators of the slots (two deflection components each).
pub type Locals = point_slots::Locals<2>;

#[derive(Clone, Debug)]
pub struct Model {
    pub parameters: Parameters,
    pub inputs: Inputs,
    pub outputs: Outputs,
    pub time: f64,
    pub locals: Locals,
    pub(crate) block: Option<Block>,
    /// Per-point states, indexed by the candidates' ids (at least [`POINT_OUTPUTS`] long).
    pub(crate) states: Vec<PointState>,
    /// `states` before the current step, to restore when the step is discarded.
    pub(crate) states_before: Vec<PointState>,
    pub(crate) scratch: Vec<PlanarPoint>,
    pub(crate) outputs_valid: bool,
    pub(crate) warnings: Vec<String>,
    pub(crate) resources: Option<PathBuf>,
}

impl Default for Model {
    fn default() -> Self {
        let parameters = Parameters::default();
        // At the start values B's circle rests on A's line (the x axis, its normal +y): its centre
        // one radius above it, touching, with no force.
        let frame_b = Frame { r_0: [0.0, parameters.geometry_b.radius], ..Frame::default() };
        Model {
            inputs: Inputs { frame_b, ..Inputs::default() },
            parameters,
            outputs: Outputs::default(),
            time: 0.0,
            locals: Locals::default(),
            block: None,
            states: vec![PointState::default(); POINT_OUTPUTS],
            states_before: Vec::new(),
            scratch: Vec::new(),
            outputs_valid: false,
            warnings: Vec::new(),
            resources: None,
        }
    }
}

impl Model {
    /// The block, built from the parameters when first needed.
    pub fn block(&mut self) -> Result<&Block, String> {
        if self.block.is_none() {
            let (block, warnings) = self.parameters.validate(self.resources.as_deref()).map_err(|e| e.to_string())?;
            self.warnings.extend(warnings);
            self.block = Some(block);
        }
        Ok(self.block.as_ref().expect("just built"))
    }

    /// The deflection of slot `slot` (x, y in W): the state variable's accessor.
    pub(crate) fn deflection_mut(&mut self, slot: usize) -> &mut [f64] {
        &mut self.states[slot].tangential.deflection.as_mut_slice()[..2]
    }

    /// The per-point states, indexed by the candidates' ids.
    pub fn point_states(&self) -> &[PointState] {
        &self.states
    }

    /// The point of each slot, evaluated for the current inputs and states.
    pub(crate) fn slot_forces(&mut self) -> Result<[Option<PointForce>; POINT_OUTPUTS], ModelError> {
        self.block().map_err(ModelError::Invalid)?;
        let block = self.block.as_ref().expect("built");
        Ok(block.slot_forces(&self.inputs, &mut self.scratch, &self.states))
    }
}

/// What a DoStep may change before it can still fail: the point states.
impl Rollback for Model {
    fn save(&mut self) {
        self.states_before.clone_from(&self.states);
    }

    fn roll_back(&mut self) {
        std::mem::swap(&mut self.states, &mut self.states_before);
        self.outputs_valid = false;
    }
}

contact_fmi::slot_model!(Model, ModelError);
