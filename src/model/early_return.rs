//! Early return at contact onset (FMI 3 co-simulation): the model predicts when, within the next
//! step, the geometries that are apart now will first touch.
#![forbid(unsafe_code)]

use super::{Model, ModelError};

/// An onset closer to the start of the step than this fraction of the step is not worth an early
/// return: the bodies touch already for all practical purposes (this also keeps a step that
/// starts at a predicted onset, a rounding error before the touch, from returning at once).
pub const MIN_EARLY_FRACTION: f64 = 1e-6;

impl Model {
    /// The time `tau` \[s\] after the current time at which the step of `step` \[s\] should end
    /// because the geometries, apart now, touch then when both bodies keep their input twists;
    /// `None` when they touch already, stay apart over the step, touch only at its very end, or
    /// within `MIN_EARLY_FRACTION` of its start.
    pub fn contact_onset(&mut self, step: f64) -> Result<Option<f64>, ModelError> {
        self.build_block().map_err(ModelError::Parameter)?;
        let block = self.block.as_ref().expect("block built above");
        if block.step_average_setup().is_some() {
            // The averaged step resolves the onset within the step itself.
            return Ok(None);
        }
        let tau = block.contact_onset(&self.inputs, step, &mut self.scratch).map_err(ModelError::Input)?;
        Ok(tau.filter(|tau| *tau < step && *tau > MIN_EARLY_FRACTION * step))
    }
}
