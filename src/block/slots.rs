//! The contact points with their own slots (ids 0 to [`POINT_OUTPUTS`] - 1), evaluated one by
//! one: what Model Exchange integrates and watches (see `physics::point_events`).

use super::{Block, InputError, Inputs, Notes, POINT_OUTPUTS};
use crate::physics::contact::{self, PointForce, PointState};
use crate::physics::geometry::ContactPoint;
use crate::physics::math::{BodyState, Pose};

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
        self.slot_points(&geometry_a, &geometry_b, scratch, |cp| {
            if let Some(slot) = out.get_mut(cp.id as usize) {
                let state = states.get(cp.id as usize).copied().unwrap_or_default();
                *slot = Some(self.point_force(cp, &body_a, &body_b, &state, inputs));
            }
        });
        Ok(())
    }

    /// Calls `f` with each of the pair's points for the geometry frames `geometry_a`,
    /// `geometry_b` (in W) that has a slot (id below [`POINT_OUTPUTS`]), in the pair's order.
    pub(super) fn slot_points(&self, geometry_a: &Pose, geometry_b: &Pose, scratch: &mut Vec<ContactPoint>, mut f: impl FnMut(&ContactPoint)) {
        scratch.clear();
        if let Some(cp) = self.pair.single_contact(geometry_a, geometry_b) {
            f(&cp);
        } else if let Some(queries) = self.pair.point_queries(geometry_a, geometry_b) {
            for id in 0..queries.len().min(POINT_OUTPUTS) {
                if let Some(cp) = queries.contact(id) {
                    f(&cp);
                }
            }
        } else {
            self.pair.contacts(geometry_a, geometry_b, scratch);
            for cp in scratch.iter().filter(|cp| (cp.id as usize) < POINT_OUTPUTS) {
                f(cp);
            }
        }
    }

    /// The force at one point in `state`: through the laws, or, where a law is provided by input,
    /// with the point slot's provided forces of `inputs`.
    #[inline]
    pub(super) fn point_force(&self, cp: &ContactPoint, body_a: &BodyState, body_b: &BodyState, state: &PointState, inputs: &Inputs) -> PointForce {
        if self.provided {
            let given = inputs.provided.get(cp.id as usize).copied().unwrap_or_default();
            contact::evaluate_given(cp, body_a, body_b, &self.laws, state, &given)
        } else {
            contact::evaluate(cp, body_a, body_b, &self.laws, state)
        }
    }

    /// The laws of the block.
    pub fn laws(&self) -> &contact::Laws {
        &self.laws
    }
}
