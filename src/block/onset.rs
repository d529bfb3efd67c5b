//! The block's contact onset prediction for early return (see [`crate::physics::onset`]).
#![forbid(unsafe_code)]

use super::{Block, InputError, Inputs, Notes};
use crate::physics::geometry::ContactPoint;
use crate::physics::onset;

impl Block {
    /// The first time `tau` in `(0, h]` \[s\] at which the geometries touch when both bodies keep
    /// the twists of `inputs` (constant-velocity extrapolation of their poses), if they are apart
    /// now; `None` when they touch already or stay apart over the step. `scratch` is reused.
    pub fn contact_onset(&self, inputs: &Inputs, h: f64, scratch: &mut Vec<ContactPoint>) -> Result<Option<f64>, InputError> {
        let (body_a, body_b, _, _) = self.locate(inputs, &mut Notes::default())?;
        Ok(onset::predict_onset(&self.pair, &body_a, &self.offset_a, &body_b, &self.offset_b, h, scratch))
    }
}
