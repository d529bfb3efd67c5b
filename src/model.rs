//! One block instance's data and its lifecycle, free of FMI words: parameters, inputs, lazily
//! computed outputs, time, and the typed block built when initialisation ends.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

mod coupling;
mod early_return;
mod exchange;
mod flat;
mod input_derivatives;

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
                crate::block::refuse_provided_laws(&self.parameters, crate::variables::EXTENSION_NAME)?;
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

    /// Advances from `time` to `time + step` with the inputs held: the stateful laws integrate
    /// their point states over the step, and the outputs then belong to `time + step`. A step
    /// whose results are not finite leaves the state as it was.
    pub fn do_step(&mut self, step: f64) -> Result<(), ModelError> {
        self.start();
        if let Some(setup) = self.build_block().map_err(ModelError::Parameter)?.step_average_setup() {
            let setup = *setup;
            // do_step_average changes the point states and the drift only once nothing can fail;
            // before that it may update the other forces' estimate, which a failed step undoes.
            let saved = self.coupling.checkpoint();
            let result = self.do_step_average(setup, step);
            if result.is_err() {
                self.coupling.restore(saved);
                self.outputs_valid = false;
            }
            return result;
        }
        if self.has_input_derivatives() {
            return self.do_step_interpolated(step);
        }
        self.update_outputs()?;
        let block = self.block.as_ref().expect("update_outputs built the block");
        if block.is_stateful() {
            check_substeps(step, self.parameters.solver_max_step, "solver.max_step").map_err(ModelError::NotFinite)?;
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

impl fmi_export::FmuModel for Model {
    const NAME: &'static str = crate::variables::MODEL_NAME;
    const DESCRIPTION: &'static str = crate::variables::MODEL_DESCRIPTION;
    const DEFAULT_EXPERIMENT: (f64, f64, f64) = (0.0, 1.0, 1e-3);
    const CAN_INTERPOLATE_INPUTS: bool = true;
    const MIGHT_RETURN_EARLY: bool = true;

    const EXTENSION: Option<fmi_export::Extension> =
        Some(fmi_export::Extension { name: crate::variables::EXTENSION_NAME, description: crate::variables::EXTENSION_DESCRIPTION });

    fn set_extension(&mut self, extension: bool) {
        self.provided_inputs = extension;
    }

    fn build_table() -> fmi_export::table::Table<Model> {
        crate::variables::build()
    }

    fn table() -> &'static fmi_export::table::Table<Model> {
        crate::variables::table()
    }

    fn new(resources: Option<PathBuf>) -> Self {
        Model::with_resources(resources)
    }

    fn resources(&self) -> Option<&Path> {
        self.resources.as_deref()
    }

    fn set_resources(&mut self, resources: Option<PathBuf>) {
        Model::set_resources(self, resources);
    }

    fn time(&self) -> f64 {
        self.time
    }

    fn set_time(&mut self, time: f64) {
        self.time = time;
    }

    fn inputs_changed(&mut self) {
        Model::inputs_changed(self);
    }

    fn parameters_changed(&mut self) {
        Model::parameters_changed(self);
    }

    fn initialize(&mut self) -> Result<(), String> {
        Model::initialize(self).map_err(|e| e.to_string())
    }

    #[inline]
    fn update_outputs(&mut self) -> Result<(), fmi_export::ModelError> {
        Model::update_outputs(self).map(|_| ()).map_err(exported)
    }

    fn do_step(&mut self, step: f64) -> Result<(), fmi_export::ModelError> {
        Model::do_step(self, step).map_err(exported)
    }

    fn take_warnings(&mut self) -> Vec<String> {
        Model::take_warnings(self).collect()
    }

    const MODEL_EXCHANGE: bool = true;

    fn update_locals(&mut self) -> Result<(), fmi_export::ModelError> {
        Model::update_locals(self).map(|_| ()).map_err(exported)
    }

    fn check_model_exchange(&mut self) -> Result<(), String> {
        Model::check_model_exchange(self)
    }

    fn update_discrete_states(&mut self) -> Result<bool, fmi_export::ModelError> {
        Model::update_discrete_states(self).map_err(exported)
    }

    fn step_event(&mut self) -> Result<bool, fmi_export::ModelError> {
        Model::step_event(self).map_err(exported)
    }

    fn state_nominal(&self, index: usize) -> f64 {
        Model::state_nominal(self, index)
    }

    /// The inputs have value references 1 to 26, in the order of `input_derivatives`.
    fn set_input_derivative(&mut self, vr: u32, value: f64) -> Result<(), String> {
        if crate::variables::provided_input_index(vr).is_some() {
            return Err(format!(
                "value reference {vr} is a provided force (contact.point[i].provided.*): input derivatives are taken for the \
                 frames' inputs (value references 1 to 26); the provided forces are held over a step"
            ));
        }
        let index = (vr as usize).checked_sub(1).filter(|i| *i < INPUT_COUNT).ok_or_else(|| format!("value reference {vr} is not an input"))?;
        Model::set_input_derivative(self, index, value)
    }

    /// The predicted contact onset (see `model/early_return.rs`).
    fn early_return_time(&mut self, step: f64) -> Result<Option<f64>, fmi_export::ModelError> {
        Model::contact_onset(self, step).map_err(exported)
    }

    const PROVIDES_DIRECTIONAL_DERIVATIVES: bool = true;
    const MAX_OUTPUT_DERIVATIVE_ORDER: u32 = 1;

    fn directional_derivative(&mut self, unknowns: &[u32], knowns: &[u32], seed: &[f64], sensitivity: &mut [f64]) -> Result<(), fmi_export::DerivativeError> {
        crate::derivatives::directional(self, unknowns, knowns, seed, sensitivity)
    }

    fn adjoint_derivative(&mut self, unknowns: &[u32], knowns: &[u32], seed: &[f64], sensitivity: &mut [f64]) -> Result<(), fmi_export::DerivativeError> {
        crate::derivatives::adjoint(self, unknowns, knowns, seed, sensitivity)
    }

    fn output_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &mut [f64]) -> Result<(), fmi_export::DerivativeError> {
        crate::derivatives::output_rates(self, vrs, orders, values)
    }

    fn with_output_refs(&self, f: &mut dyn FnMut(&[&f64])) {
        flat::with_output_refs(&self.outputs, f);
    }

    fn with_flag_refs(&self, f: &mut dyn FnMut(&[&bool])) {
        flat::with_flag_refs(&self.outputs, f);
    }

    fn with_input_refs(&mut self, f: &mut dyn FnMut(&mut [&mut f64])) {
        flat::with_input_refs(&mut self.inputs, f);
    }

    fn has_warnings(&self) -> bool {
        !self.warnings.is_empty()
    }

    /// The stateful laws' point states: a count, then per point the deflection (3 numbers), the
    /// onset speed and the slipping flag; then the 26 input derivatives.
    fn write_internal_state(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.states.len() as u64).to_le_bytes());
        for state in &self.states {
            for x in state.tangential.deflection.iter().chain(std::iter::once(&state.onset_speed)) {
                out.extend_from_slice(&x.to_le_bytes());
            }
            out.push(u8::from(state.tangential.slipping));
        }
        for x in &self.input_derivatives {
            out.extend_from_slice(&x.to_le_bytes());
        }
        self.coupling.write(out);
    }

    fn read_internal_state(&mut self, reader: &mut fmi_export::table::Reader<'_>) -> Result<(), String> {
        let count = reader.u64()?;
        // Each point state takes 33 bytes; a count the bytes cannot hold is damage, not a size.
        if count > (reader.remaining() / 33) as u64 {
            return Err("the serialized FMU state is truncated".to_string());
        }
        let mut states = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let mut state = PointState::default();
            for x in state.tangential.deflection.iter_mut() {
                *x = reader.f64()?;
            }
            state.onset_speed = reader.f64()?;
            state.tangential.slipping = reader.take(1)?[0] != 0;
            if !state.onset_speed.is_finite() || state.tangential.deflection.iter().any(|x| !x.is_finite()) {
                return Err("the serialized FMU state holds a non-finite contact state".to_string());
            }
            states.push(state);
        }
        let mut derivatives = [0.0; INPUT_COUNT];
        for x in derivatives.iter_mut() {
            *x = reader.f64()?;
            if !x.is_finite() {
                return Err("the serialized FMU state holds a non-finite input derivative".to_string());
            }
        }
        let coupling = Coupling::read(reader)?;
        self.set_point_states(states);
        self.set_input_derivatives(derivatives);
        self.coupling = coupling;
        Ok(())
    }

    fn documentation_html() -> String {
        let mut page = String::from(
        "<h2>What the block does</h2>\n\
         <p>The importer integrates the motion of two rigid bodies, A (the base body, <code>frame_a</code>) and B \
         (the follower body, <code>frame_b</code>), and feeds their poses and twists to this block at every \
         communication point. The block finds the contact between the two geometries and returns the contact \
         force and torque on each body. Stateful friction laws advance their internal state in <code>DoStep</code>; \
         every output is direct feedthrough of the inputs.</p>\n\
         <h2>Conventions</h2>\n<ul>\n\
         <li>SI units everywhere. W is the world frame; every vector input and output is resolved in W.</li>\n\
         <li>Quaternions are (w, x, y, z), scalar first, and rotate body-frame vectors into W. The block normalises \
         them; a norm off by more than 1e-3 logs a warning, a zero or non-finite quaternion is an error (an all-zero one before the first step is an input not yet connected: zero force and one warning).</li>\n\
         <li>The contact normal <code>contact.n_0</code> points from A toward B.</li>\n\
         <li><code>contact.separation</code> is positive when the geometries are apart and negative (the deepest \
         penetration) when they overlap.</li>\n\
         <li>Forces on B are the negative of the forces on A (<code>frame_b.f_0 = -frame_a.f_0</code>). \
         Torques act about each body's own frame origin.</li>\n\
         <li>Parameters are checked when initialisation ends; an invalid or unsupported combination (including a \
         law or shape pair this build does not implement) is refused there with a message naming the variable.</li>\n\
         </ul>\n",
        );
        let law_list = |page: &mut String, ty: &fmi_export::table::EnumerationType| {
            page.push_str("<ul>\n");
            for (_, name, description) in ty.items {
                page.push_str(&format!("<li><code>{name}</code>: {}</li>\n", description.trim()));
            }
            page.push_str("</ul>\n");
        };
        page.push_str(
            "<h2>Model Exchange</h2>\n<p>The same variables are also offered for Model Exchange. The continuous states are \
             the tangential deflections <code>contact.point[i].deflection</code> of the eight point slots (ElasticCone, \
             Stiction; constant 0 for the other laws), with their derivatives. Each slot has two event indicators: \
             <code>contact.point[i].indicator.separation</code> (make/break: the point's separation, 1 m for a slot \
             without a point) and <code>contact.point[i].indicator.stick</code> (stick/slip, in N, positive while the \
             point sticks, 1 N without normal force or stateful friction). Event Mode takes the Restitution onset speed at \
             the make event and switches Stiction between sticking and slipping. A stateful law on a pair that can have \
             more than eight points is refused at the end of initialisation.</p>\n",
        );
        page.push_str(
            "<h2>Coupling over a communication step (<code>coupling.mode</code>)</h2>\n<p><code>Instantaneous</code> (the default) \
             outputs the wrench at the current inputs, which the importer holds over its step: right when the step is far below the \
             contact's time scale (omega h &lt;&lt; 1, omega = sqrt(k / m)). <code>StepAverage</code> outputs the wrench averaged over the \
             coming step, from the block's own integration of both bodies over it in sub-steps of at most \
             <code>coupling.max_substep</code>: the momentum each body receives over a step is then what the contact law gives, at 1 to \
             10 ms steps. It needs <code>body_a.mass</code> or <code>body_b.mass</code> (0 = immovable), and for rotation \
             <code>body_X.inertia</code> and <code>body_X.com</code>. The other forces on the bodies (gravity, drives) are estimated \
             from the inputs at consecutive steps, or from FMI 2 input derivatives of <code>frame_X.v_0</code>. Read right after \
             DoStep (a Jacobi master), the outputs come from the block's prediction of the bodies at the end of the step; after new \
             inputs (Gauss-Seidel), from those inputs. <code>contact.max_normal_force</code> is the peak within the step, which the \
             average hides. Directional derivatives are refused under StepAverage; Model Exchange always uses the instantaneous \
             wrench.</p>\n",
        );
        page.push_str(
            "<h2>Laws provided by input</h2>\n<p>With <code>normal.law = ProvidedByInput</code> or <code>friction.law = \
             ProvidedByInput</code> (Simscape's Provided by Input, Adams' CNFSUB and CFFSUB) the block still finds the contact points; \
             per point slot i it outputs what a law needs, <code>contact.point[i].depth</code>, <code>depth_rate</code>, \
             <code>slip_velocity</code> (along <code>tangent1_0</code> and <code>tangent2_0</code>), <code>n_0</code>, \
             <code>tangent1_0</code>, <code>tangent2_0</code> and <code>weight</code> (these depend on the frames only), and takes \
             <code>contact.point[i].provided.normal_force</code> (clipped at 0, applied while the point penetrates) and \
             <code>contact.point[i].provided.friction_force</code> (two components along the tangents, applied while the point \
             carries a normal force). Either may be provided while the other is a built-in law (a built-in friction law uses the \
             provided normal force). A point cloud's slots follow its file's order. Refused: a pair that can have more than eight \
             contact points, <code>coupling.mode = StepAverage</code>, and the spin friction torque with provided friction. \
             Directional derivatives are exact with respect to the provided forces too; input derivatives are not taken for them \
             (they are held over a step).</p>\n",
        );
        page.push_str("<h2>Normal force laws (<code>normal.law</code>)</h2>\n");
        law_list(&mut page, &crate::variables::NORMAL_LAW);
        page.push_str("<h2>Friction laws (<code>friction.law</code>)</h2>\n");
        law_list(&mut page, &crate::variables::FRICTION_LAW);
        page
    }
}

/// Numerical trouble becomes Discard in DoStep; every other failure is an error.
pub(crate) fn exported(e: ModelError) -> fmi_export::ModelError {
    match e {
        ModelError::NotFinite(message) => fmi_export::ModelError::NotFinite(message),
        other => fmi_export::ModelError::Invalid(other.to_string()),
    }
}
