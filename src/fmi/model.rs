//! ContactForce's [`Model`] as an FMU: the adapter of the `fmi_export` crate's [`FmuModel`]
//! trait (the model's lifecycle, its Model Exchange, derivatives and input derivatives), the
//! state it adds to a serialized FMU state, and its documentation page.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use crate::block::INPUT_COUNT;
use super::point_states;
use crate::model::{Coupling, Model, ModelError};

impl fmi_export::FmuModel for Model {
    const NAME: &'static str = crate::variables::MODEL_NAME;
    const DESCRIPTION: &'static str = crate::variables::MODEL_DESCRIPTION;
    const DEFAULT_EXPERIMENT: (f64, f64, f64) = (0.0, 1.0, 1e-3);
    const CAN_INTERPOLATE_INPUTS: bool = true;
    const MIGHT_RETURN_EARLY: bool = true;

    const EXTENSION: Option<fmi_export::Extension> =
        Some(fmi_export::Extension { name: crate::variables::EXTENSION_NAME, description: crate::variables::EXTENSION_DESCRIPTION });

    fn set_extension(&mut self, extension: bool) {
        self.set_provided_inputs(extension);
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
        Model::resources(self)
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
        super::flat::with_output_refs(&self.outputs, f);
    }

    fn with_flag_refs(&self, f: &mut dyn FnMut(&[&bool])) {
        super::flat::with_flag_refs(&self.outputs, f);
    }

    fn with_input_refs(&mut self, f: &mut dyn FnMut(&mut [&mut f64])) {
        super::flat::with_input_refs(&mut self.inputs, f);
    }

    fn has_warnings(&self) -> bool {
        Model::has_warnings(self)
    }

    /// The stateful laws' point states ([`point_states`]: a count, then per point the
    /// deflection (3 numbers), the onset speed and the slipping flag); then the 26 input
    /// derivatives and what StepAverage carries over.
    fn write_internal_state(&self, out: &mut Vec<u8>) {
        point_states::write(self.point_states(), out);
        for x in self.input_derivatives() {
            out.extend_from_slice(&x.to_le_bytes());
        }
        self.coupling().write(out);
    }

    fn read_internal_state(&mut self, reader: &mut fmi_export::table::Reader<'_>) -> Result<(), String> {
        let states = point_states::read(reader)?;
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
        self.set_coupling(coupling);
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

/// Numerical trouble becomes Discard in DoStep; every other failure is an error (the model's
/// `From` conversion).
pub fn exported(e: ModelError) -> fmi_export::ModelError {
    e.into()
}
