//! One PlanarContact instance: parameters, inputs, lazily computed outputs, time and the
//! per-point states of the stateful laws, with its lifecycle for the FMU (co-simulation and Model
//! Exchange, as ContactForce's: under Model Exchange the slots' tangential deflections are
//! continuous states and each slot has a make/break and a stick/slip event indicator, from
//! ContactForce's `physics::point_events`).
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use contact_physics::substeps::check_substeps;
use contact_physics::contact::{PointForce, PointState};
use contact_physics::friction::FrictionLawKind;
use contact_physics::point_events;
use fmi_export::table::{Reader, Table};
use fmi_export::{FmuModel, ModelError};

use crate::block::{Block, Frame, Inputs, Outputs, Parameters, POINT_OUTPUTS};
use crate::geometry::PlanarPoint;

/// The separation indicator of a slot without a point (m): apart.
pub const EMPTY_SLOT_SEPARATION: f64 = 1.0;

/// Nominal value of a deflection (m) (ElasticCone; Stiction uses its max_deformation).
pub const DEFLECTION_NOMINAL: f64 = 1e-4;

/// Derivatives and event indicators of the slots (Model Exchange), computed when read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Locals {
    pub deflection_rate: [[f64; 2]; POINT_OUTPUTS],
    pub separation: [f64; POINT_OUTPUTS],
    pub stick: [f64; POINT_OUTPUTS],
}

#[derive(Clone, Debug)]
pub struct Model {
    pub parameters: Parameters,
    pub inputs: Inputs,
    pub outputs: Outputs,
    pub time: f64,
    pub locals: Locals,
    block: Option<Block>,
    /// Per-point states, indexed by the candidates' ids (at least [`POINT_OUTPUTS`] long).
    states: Vec<PointState>,
    scratch: Vec<PlanarPoint>,
    outputs_valid: bool,
    warnings: Vec<String>,
    resources: Option<PathBuf>,
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

    fn slot_forces(&mut self) -> Result<[Option<PointForce>; POINT_OUTPUTS], ModelError> {
        self.block().map_err(ModelError::Invalid)?;
        let block = self.block.as_ref().expect("built");
        Ok(block.slot_forces(&self.inputs, &mut self.scratch, &self.states))
    }

    fn update_slot_locals(&mut self) -> Result<(), ModelError> {
        let forces = self.slot_forces()?;
        let laws = *self.block.as_ref().expect("built").laws();
        for (i, force) in forces.iter().enumerate() {
            let (rate, separation, stick) = match force {
                Some(at) => {
                    let r = point_events::rates(at, &laws, &self.states[i]);
                    ([r.deflection_rate.x, r.deflection_rate.y], at.separation, r.stick)
                }
                None => ([0.0; 2], EMPTY_SLOT_SEPARATION, point_events::NO_FORCE_STICK_INDICATOR),
            };
            self.locals.deflection_rate[i] = rate;
            self.locals.separation[i] = separation;
            self.locals.stick[i] = stick;
        }
        if self.locals.deflection_rate.iter().flatten().chain(&self.locals.stick).any(|x| !x.is_finite()) {
            return Err(ModelError::NotFinite("a deflection rate or stick/slip indicator is not finite for these inputs".to_string()));
        }
        Ok(())
    }
}

impl FmuModel for Model {
    const NAME: &'static str = "PlanarContact";
    const DESCRIPTION: &'static str =
        "Planar contact block: contact force and torque between two bodies held in one plane, from their planar poses and twists";
    const DEFAULT_EXPERIMENT: (f64, f64, f64) = (0.0, 1.0, 1e-3);

    fn build_table() -> Table<Model> {
        crate::variables::build()
    }

    fn table() -> &'static Table<Model> {
        crate::variables::table()
    }

    fn new(resources: Option<PathBuf>) -> Self {
        Model { resources, ..Model::default() }
    }

    fn resources(&self) -> Option<&Path> {
        self.resources.as_deref()
    }

    fn set_resources(&mut self, resources: Option<PathBuf>) {
        self.resources = resources;
    }

    fn time(&self) -> f64 {
        self.time
    }

    fn set_time(&mut self, time: f64) {
        self.time = time;
    }

    fn inputs_changed(&mut self) {
        self.outputs_valid = false;
    }

    fn parameters_changed(&mut self) {
        self.block = None;
        self.outputs_valid = false;
    }

    fn initialize(&mut self) -> Result<(), String> {
        self.block = None;
        self.block()?;
        Ok(())
    }

    fn update_outputs(&mut self) -> Result<(), ModelError> {
        if self.outputs_valid {
            return Ok(());
        }
        self.block().map_err(ModelError::Invalid)?;
        let block = self.block.as_ref().expect("built");
        let mut outputs = Outputs::default();
        block.evaluate(&self.inputs, &mut self.scratch, &self.states, &mut outputs);
        if !outputs.all_finite() {
            return Err(ModelError::NotFinite(format!(
                "the contact outputs are not finite for frame_a = {:?}, frame_b = {:?}",
                self.inputs.frame_a, self.inputs.frame_b
            )));
        }
        self.outputs = outputs;
        self.outputs_valid = true;
        Ok(())
    }

    fn do_step(&mut self, step: f64) -> Result<(), ModelError> {
        self.update_outputs()?;
        let block = self.block.as_ref().expect("built");
        if block.is_stateful() {
            check_substeps(step, self.parameters.solver_max_step, "solver.max_step").map_err(ModelError::NotFinite)?;
            let before = self.states.clone();
            block.advance(&self.inputs, &mut self.scratch, &mut self.states, step);
            self.outputs_valid = false;
            if let Err(e) = self.update_outputs() {
                self.states = before;
                self.outputs_valid = false;
                return Err(e);
            }
        }
        self.time += step;
        Ok(())
    }

    fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    fn has_warnings(&self) -> bool {
        !self.warnings.is_empty()
    }

    /// The per-point states: their count, then each deflection (x, y, z), slipping flag and
    /// onset speed.
    fn write_internal_state(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.states.len() as u64).to_le_bytes());
        for s in &self.states {
            for x in s.tangential.deflection.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
            out.push(u8::from(s.tangential.slipping));
            out.extend_from_slice(&s.onset_speed.to_le_bytes());
        }
    }

    fn read_internal_state(&mut self, reader: &mut Reader<'_>) -> Result<(), String> {
        let bytes = reader.take(8)?;
        let count = u64::from_le_bytes(bytes.try_into().map_err(|_| "the serialized FMU state is damaged (state count)")?) as usize;
        if !(POINT_OUTPUTS..=1 << 24).contains(&count) {
            return Err(format!("the serialized FMU state is damaged (it holds {count} point states)"));
        }
        let mut states = Vec::with_capacity(count);
        for _ in 0..count {
            let mut s = PointState::default();
            for i in 0..3 {
                s.tangential.deflection[i] = reader.f64()?;
            }
            s.tangential.slipping = match reader.take(1)?[0] {
                0 => false,
                1 => true,
                _ => return Err("the serialized FMU state is damaged (slipping flag)".to_string()),
            };
            s.onset_speed = reader.f64()?;
            if !(s.tangential.deflection.iter().all(|x| x.is_finite()) && s.onset_speed.is_finite()) {
                return Err("the serialized FMU state holds a non-finite point state".to_string());
            }
            states.push(s);
        }
        self.states = states;
        self.outputs_valid = false;
        Ok(())
    }

    const MODEL_EXCHANGE: bool = true;

    fn update_locals(&mut self) -> Result<(), ModelError> {
        self.update_outputs()?;
        self.update_slot_locals()
    }

    /// A stateful law on a pair with more candidates than slots is refused.
    fn check_model_exchange(&mut self) -> Result<(), String> {
        let block = self.block()?;
        let points = block.pair().max_points();
        if !block.is_stateful() || points <= POINT_OUTPUTS {
            return Ok(());
        }
        Err(format!(
            "normal.law = {} and friction.law = {} keep a state per contact point, and geometry_a.shape = {} against \
             geometry_b.shape = {} has {points} candidate points; Model Exchange has states and event indicators for \
             {POINT_OUTPUTS} (contact.point[1] to contact.point[{POINT_OUTPUTS}]): use fewer points, stateless laws, or co-simulation",
            block.laws().normal.kind().name(),
            block.laws().friction.kind().name(),
            block.pair().shape_a().kind().name(),
            block.pair().shape_b().kind().name(),
        ))
    }

    fn update_discrete_states(&mut self) -> Result<bool, ModelError> {
        let forces = self.slot_forces()?;
        let laws = *self.block.as_ref().expect("built").laws();
        let mut changed = false;
        for (i, force) in forces.iter().enumerate() {
            if let Some(at) = force {
                let before = self.states[i];
                changed |= point_events::event_update(at, &laws, &mut self.states[i]);
                if self.states[i] != before {
                    self.outputs_valid = false;
                }
            }
        }
        Ok(changed)
    }

    fn step_event(&mut self) -> Result<bool, ModelError> {
        let forces = self.slot_forces()?;
        let laws = *self.block.as_ref().expect("built").laws();
        Ok(forces.iter().enumerate().any(|(i, force)| force.as_ref().is_some_and(|at| point_events::needs_event(at, &laws, &self.states[i]))))
    }

    fn state_nominal(&self, _index: usize) -> f64 {
        let f = &self.parameters.friction;
        if FrictionLawKind::from_value(f.law) == Some(FrictionLawKind::Stiction) && f.max_deformation > 0.0 {
            f.max_deformation
        } else {
            DEFLECTION_NOMINAL
        }
    }

    fn documentation_html() -> String {
        crate::variables::DOCUMENTATION.to_string()
    }
}
