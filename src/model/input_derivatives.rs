//! Input derivatives (FMI 2 `canInterpolateInputs`, `fmi2SetRealInputDerivatives`).
//!
//! The FMI 2.0 standard (section 4.2.1) sets inputs and their derivatives "with respect to the
//! beginning of a communication time step": a derivative given at the communication point t
//! describes the input over the step that starts at t. So a derivative holds from the moment it
//! is set until the next completed DoStep, which moves the inputs along their derivatives to the
//! end of the step and then clears the derivatives: a step for which the importer gives none
//! holds its inputs, as without derivatives. A discarded step keeps them. Reset clears them, and
//! they are part of the FMU state.
#![forbid(unsafe_code)]

use super::{check_substeps, Model, ModelError};
use crate::block::INPUT_COUNT;

impl Model {
    /// First time derivatives of the 26 inputs in value-reference order 1..26 (the order of
    /// `Inputs::to_array`); zero when not given.
    pub fn input_derivatives(&self) -> &[f64; INPUT_COUNT] {
        &self.input_derivatives
    }

    /// True when some input has a non-zero derivative for the next step.
    pub fn has_input_derivatives(&self) -> bool {
        self.input_derivatives.iter().any(|d| *d != 0.0)
    }

    /// Sets the first derivative of input `index` (0 to 25 in value-reference order) for the next
    /// step; a non-finite value is refused and the old one kept.
    pub fn set_input_derivative(&mut self, index: usize, value: f64) -> Result<(), String> {
        let slot = self.input_derivatives.get_mut(index).ok_or_else(|| format!("input index {index} is not one of the {INPUT_COUNT} inputs"))?;
        if !value.is_finite() {
            return Err(format!("the derivative {value} is not finite"));
        }
        *slot = value;
        Ok(())
    }

    /// Replaces every input derivative (restoring an FMU state).
    pub fn set_input_derivatives(&mut self, derivatives: [f64; INPUT_COUNT]) {
        self.input_derivatives = derivatives;
    }

    /// DoStep with the inputs moving along their derivatives: the stateful laws' sub-steps see
    /// `u(t + tau) = u(t) + u' tau`, and at the end the inputs are `u(t + h)`, the outputs belong
    /// to them, and the derivatives are cleared. Run inside [`Model::do_step`]'s transaction: a
    /// step whose results are not finite, or whose interpolated inputs cannot be evaluated,
    /// leaves everything as it was (the derivatives too, for a retry).
    pub(super) fn do_step_interpolated(&mut self, step: f64) -> Result<(), ModelError> {
        self.update_outputs()?;
        let block = self.block.as_ref().expect("update_outputs built the block");
        let end_inputs = self.inputs.interpolated(&self.input_derivatives, step);
        if block.is_stateful() {
            check_substeps(step, self.parameters.solver_max_step, "solver.max_step").map_err(ModelError::NotFinite)?;
            block
                .advance_interpolated(&self.inputs, &self.input_derivatives, &mut self.scratch, &mut self.states, step)
                .map_err(ModelError::Input)?;
        }
        self.inputs = end_inputs;
        self.outputs_valid = false;
        self.update_outputs()?;
        self.input_derivatives = [0.0; INPUT_COUNT];
        self.time += step;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::friction::FrictionLawKind;

    /// ElasticCone friction, the default sphere 1 mm into the default plane, sliding along x.
    fn sliding() -> Model {
        let mut model = Model::default();
        model.parameters.friction.law = FrictionLawKind::ElasticCone as i64;
        model.initialize().unwrap();
        model.inputs.frame_b.r_0 = [0.0, 0.0, 0.099];
        model.inputs.frame_b.v_0 = [0.1, 0.0, 0.0];
        model.inputs_changed();
        model
    }

    #[test]
    fn zero_derivatives_take_the_held_input_path_bit_for_bit() {
        let (mut held, mut zeroed) = (sliding(), sliding());
        zeroed.set_input_derivative(20, 0.0).unwrap();
        assert!(!zeroed.has_input_derivatives());
        for k in 0..3 {
            held.do_step(1e-3).unwrap();
            zeroed.do_step(1e-3).unwrap();
            assert_eq!(held.point_states(), zeroed.point_states(), "step {k}");
            assert_eq!(held.update_outputs().unwrap().clone(), *zeroed.update_outputs().unwrap());
        }
    }

    #[test]
    fn a_step_whose_end_inputs_cannot_be_evaluated_changes_nothing() {
        let mut model = sliding();
        model.do_step(1e-3).unwrap();
        // frame_b.q[1] (index 16) reaches zero at the end of the step: no rotation there.
        model.set_input_derivative(16, -1e3).unwrap();
        let (inputs, states, time) = (model.inputs.clone(), model.point_states().to_vec(), model.time);
        let error = model.do_step(1e-3).unwrap_err();
        assert!(error.to_string().contains("frame_b.q"), "{error}");
        assert_eq!((&model.inputs, model.point_states(), model.time), (&inputs, &states[..], time));
        assert_eq!(model.input_derivatives()[16], -1e3, "kept for a retry");
    }

    #[test]
    fn non_finite_or_out_of_range_derivatives_are_refused() {
        let mut model = sliding();
        assert!(model.set_input_derivative(3, f64::INFINITY).unwrap_err().contains("not finite"));
        assert!(model.set_input_derivative(26, 1.0).is_err());
        assert!(!model.has_input_derivatives());
    }
}
