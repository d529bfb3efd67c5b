//! FMI 3 co-simulation early return: DoStep ends at an event the model predicts inside the step
//! (see [`FmuModel::early_return_time`]) when the importer allowed it at instantiation.

use super::instance::Instance;
use super::status::{Failure, Status};
use crate::model::FmuModel;

impl<M: FmuModel> Instance<M> {
    /// DoStep over [t, t + h], ending early at the model's predicted event when early return is
    /// allowed: then the step is [t, t + tau] and the second value is true. Arguments are checked
    /// by [`Instance::do_step`], which takes the (possibly shortened) step.
    pub fn do_step_early(&mut self, t: f64, h: f64) -> Result<(Status, bool), Failure> {
        let mut step = h;
        if self.early_return_allowed && t.is_finite() && h.is_finite() && h > 0.0 {
            // A model that cannot evaluate its inputs predicts nothing here; the step itself
            // then reports why.
            if let Ok(Some(tau)) = self.model.early_return_time(h) {
                if tau > 0.0 && tau < h {
                    step = tau;
                }
            }
        }
        let status = self.do_step(t, step)?;
        Ok((status, step < h))
    }
}
