//! Inputs that change linearly over a step: an importer that gives the inputs' first time
//! derivatives u' (FMI 2 `fmi2SetRealInputDerivatives`) has the stateful laws see
//! `u(t + tau) = u(t) + u' tau` within the step instead of the held `u(t)`.
#![forbid(unsafe_code)]

use super::{Block, Frame, InputError, Inputs, Notes};
use crate::physics::contact::{self, PointState};

use crate::physics::geometry::ContactPoint;

/// How many real inputs the block has: both frames' pose and twist.
pub const INPUT_COUNT: usize = 26;

fn frame_to(frame: &Frame, out: &mut [f64]) {
    out[0..3].copy_from_slice(&frame.r_0);
    out[3..7].copy_from_slice(&frame.q);
    out[7..10].copy_from_slice(&frame.v_0);
    out[10..13].copy_from_slice(&frame.w_0);
}

fn frame_from(x: &[f64]) -> Frame {
    let mut frame = Frame::default();
    frame.r_0.copy_from_slice(&x[0..3]);
    frame.q.copy_from_slice(&x[3..7]);
    frame.v_0.copy_from_slice(&x[7..10]);
    frame.w_0.copy_from_slice(&x[10..13]);
    frame
}

impl Inputs {
    /// The inputs in the order of the interface: `frame_a.r_0`, `frame_a.q`, `frame_a.v_0`,
    /// `frame_a.w_0`, then the same for `frame_b` (value references 1 to 26).
    pub fn to_array(&self) -> [f64; INPUT_COUNT] {
        let mut x = [0.0; INPUT_COUNT];
        frame_to(&self.frame_a, &mut x[..13]);
        frame_to(&self.frame_b, &mut x[13..]);
        x
    }

    /// Inverse of [`Inputs::to_array`] for the frames; the provided forces are `provided`'s.
    pub fn from_array(x: &[f64; INPUT_COUNT], provided: &Inputs) -> Inputs {
        Inputs { frame_a: frame_from(&x[..13]), frame_b: frame_from(&x[13..]), provided: provided.provided }
    }

    /// The inputs `tau` \[s\] later along their derivatives (in the order of [`Inputs::to_array`]):
    /// `u + u' tau`. The quaternions move linearly too; the block normalises them. The forces of
    /// laws provided by input are held.
    pub fn interpolated(&self, derivatives: &[f64; INPUT_COUNT], tau: f64) -> Inputs {
        let mut x = self.to_array();
        for (x, dx) in x.iter_mut().zip(derivatives) {
            *x += dx * tau;
        }
        Inputs::from_array(&x, self)
    }
}

impl Block {
    /// Advances the per-point states over `h` \[s\] while the inputs move along their
    /// `derivatives`, in equal sub-steps no larger than `solver.max_step`: each sub-step finds
    /// the contact points at the inputs of its midpoint, `u + u' (k + 1/2) dt`, evaluates them with
    /// the points' current states and advances those states over the sub-step.
    ///
    /// With all derivatives zero this is a (slower) equivalent of [`Block::advance`]; the model
    /// calls that one then, so that held inputs stay bit-identical to the held-input path.
    pub fn advance_interpolated(
        &self,
        inputs: &Inputs,
        derivatives: &[f64; INPUT_COUNT],
        scratch: &mut Vec<ContactPoint>,
        states: &mut Vec<PointState>,
        h: f64,
    ) -> Result<(), InputError> {
        if !self.is_stateful() {
            return Ok(());
        }
        if states.len() < self.pair.max_points() {
            states.resize(self.pair.max_points(), PointState::default());
        }
        let substeps = (h / self.max_step).ceil().max(1.0);
        let substep = h / substeps;
        for k in 0..substeps as u64 {
            let at_inputs = inputs.interpolated(derivatives, (k as f64 + 0.5) * substep);
            let (body_a, body_b, geometry_a, geometry_b) = self.locate(&at_inputs, &mut Notes::default())?;
            let step = |cp: &ContactPoint, state: &mut PointState| {
                let at = self.point_force(cp, &body_a, &body_b, state, &at_inputs);
                contact::advance(&at, &self.laws, state, substep);
            };
            scratch.clear();
            if let Some(queries) = self.pair.point_queries(&geometry_a, &geometry_b) {
                for (id, state) in states[..queries.len()].iter_mut().enumerate() {
                    if let Some(cp) = queries.contact(id) {
                        step(&cp, state);
                    }
                }
                continue;
            }
            self.pair.contacts(&geometry_a, &geometry_b, scratch);
            for cp in scratch.iter() {
                step(cp, &mut states[cp.id as usize]);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_array_order_is_the_value_reference_order_and_round_trips() {
        let mut inputs = Inputs::default();
        inputs.frame_a.r_0 = [1.0, 2.0, 3.0];
        inputs.frame_a.q = [4.0, 5.0, 6.0, 7.0];
        inputs.frame_a.v_0 = [8.0, 9.0, 10.0];
        inputs.frame_a.w_0 = [11.0, 12.0, 13.0];
        inputs.frame_b.r_0 = [14.0, 15.0, 16.0];
        inputs.frame_b.q = [17.0, 18.0, 19.0, 20.0];
        inputs.frame_b.v_0 = [21.0, 22.0, 23.0];
        inputs.frame_b.w_0 = [24.0, 25.0, 26.0];
        let x = inputs.to_array();
        for (i, value) in x.iter().enumerate() {
            assert_eq!(*value, (i + 1) as f64);
        }
        assert_eq!(Inputs::from_array(&x, &inputs), inputs);
        let mut derivatives = [0.0; INPUT_COUNT];
        derivatives[15] = 2.0; // frame_b.r_0[3]
        assert_eq!(inputs.interpolated(&derivatives, 0.25).frame_b.r_0, [14.0, 15.0, 16.5]);
    }
}
