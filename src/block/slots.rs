//! The contact points with their own slots (ids 0 to [`POINT_OUTPUTS`] - 1), evaluated one by
//! one: what Model Exchange integrates and watches (see `physics::point_events`).

use super::{Block, InputError, Inputs, Notes, POINT_OUTPUTS};
use crate::physics::contact::{self, PointForce, PointState};
use crate::physics::geometry::ContactPoint;

impl Block {
    /// Evaluates the point of each slot for `inputs` in `states` (indexed like the points) into
    /// `out`: `None` where the pair has no point with that id for these inputs. `scratch` is
    /// reused as in [`Block::evaluate`].
    pub fn slot_forces(
        &self,
        inputs: &Inputs,
        scratch: &mut Vec<ContactPoint>,
        states: &[PointState],
        out: &mut [Option<PointForce>; POINT_OUTPUTS],
    ) -> Result<(), InputError> {
        let (body_a, body_b, geometry_a, geometry_b) = self.locate(inputs, &mut Notes::default())?;
        *out = [None; POINT_OUTPUTS];
        let mut put = |cp: &ContactPoint| {
            if let Some(slot) = out.get_mut(cp.id as usize) {
                let state = states.get(cp.id as usize).copied().unwrap_or_default();
                *slot = Some(contact::evaluate(cp, &body_a, &body_b, &self.laws, &state));
            }
        };
        scratch.clear();
        if let Some(cp) = self.pair.single_contact(&geometry_a, &geometry_b) {
            put(&cp);
        } else if let Some(queries) = self.pair.point_queries(&geometry_a, &geometry_b) {
            for id in 0..queries.len().min(POINT_OUTPUTS) {
                if let Some(cp) = queries.contact(id) {
                    put(&cp);
                }
            }
        } else {
            self.pair.contacts(&geometry_a, &geometry_b, scratch);
            for cp in scratch.iter() {
                put(cp);
            }
        }
        Ok(())
    }

    /// The laws of the block.
    pub fn laws(&self) -> &contact::Laws {
        &self.laws
    }
}
