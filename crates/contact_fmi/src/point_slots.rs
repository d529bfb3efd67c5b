//! The point slots under Model Exchange, for every contact model (ContactForce and
//! PlanarContact): the continuous states are the tangential deflections of the
//! [`POINT_OUTPUTS`] slots, the discrete states their Restitution onset speeds and Stiction's
//! slipping flags, and each slot has two event indicators, its separation (make/break) and its
//! stick/slip indicator, all from `physics::point_events` at the point that holds the slot.
//! A model gives the points of its slots (`Option<PointForce>` per slot) and keeps the states;
//! what it does with them is here once.

use crate::POINT_OUTPUTS;
use contact_physics::contact::{Laws, PointForce, PointState};
use contact_physics::friction::FrictionLawKind;
use contact_physics::point_events;

/// The separation indicator of a slot without a point \[m\]: apart.
pub const EMPTY_SLOT_SEPARATION: f64 = 1.0;

/// Nominal value of a deflection \[m\] (ElasticCone; Stiction uses its max_deformation).
pub const DEFLECTION_NOMINAL: f64 = 1e-4;

/// Derivatives and event indicators of the slots, computed when one of them is read; `D` is
/// how many components of a deflection are states (3 in space, 2 in the plane).
#[derive(Clone, Debug, PartialEq)]
pub struct Locals<const D: usize> {
    /// d/dt of `contact.point[i].deflection`.
    pub deflection_rate: [[f64; D]; POINT_OUTPUTS],
    /// Make/break indicator of each slot \[m\].
    pub separation: [f64; POINT_OUTPUTS],
    /// Stick/slip indicator of each slot \[N\].
    pub stick: [f64; POINT_OUTPUTS],
    /// The evaluation of the outputs these values belong to (a model that counts them).
    computed_at: Option<u64>,
}

impl<const D: usize> Default for Locals<D> {
    fn default() -> Self {
        Locals { deflection_rate: [[0.0; D]; POINT_OUTPUTS], separation: [0.0; POINT_OUTPUTS], stick: [0.0; POINT_OUTPUTS], computed_at: None }
    }
}

impl<const D: usize> Locals<D> {
    /// True when the values belong to the evaluation `evaluation` of the outputs.
    pub fn computed_at(&self, evaluation: u64) -> bool {
        self.computed_at == Some(evaluation)
    }

    /// Computes every slot's deflection rate and indicators from the point that holds it
    /// (`forces[i]`, `None` for an empty slot: rate 0, [`EMPTY_SLOT_SEPARATION`] and
    /// `NO_FORCE_STICK_INDICATOR`), and marks them as belonging to `evaluation`. The error says
    /// that a rate or an indicator is not finite.
    pub fn update(&mut self, forces: &[Option<PointForce>; POINT_OUTPUTS], laws: &Laws, states: &[PointState], evaluation: Option<u64>) -> Result<(), String> {
        for (i, force) in forces.iter().enumerate() {
            let (rate, separation, stick) = match force {
                Some(at) => {
                    let r = point_events::rates(at, laws, &states[i]);
                    let full: [f64; 3] = r.deflection_rate.into();
                    let mut rate = [0.0; D];
                    rate.copy_from_slice(&full[..D]);
                    (rate, at.separation, r.stick)
                }
                None => ([0.0; D], EMPTY_SLOT_SEPARATION, point_events::NO_FORCE_STICK_INDICATOR),
            };
            self.deflection_rate[i] = rate;
            self.separation[i] = separation;
            self.stick[i] = stick;
        }
        if self.deflection_rate.iter().flatten().chain(&self.stick).any(|x| !x.is_finite()) {
            self.computed_at = None;
            return Err("a deflection rate or stick/slip indicator is not finite for these inputs".to_string());
        }
        self.computed_at = evaluation;
        Ok(())
    }
}

/// A model with point slots: it gives the point of each slot and keeps their states; Event Mode
/// and the step events are then the same for every such model.
pub trait SlotModel {
    type Error;

    /// The point of each slot (`None`: no point with that id) for the current inputs and states,
    /// and the laws at them.
    fn slot_points(&mut self) -> Result<([Option<PointForce>; POINT_OUTPUTS], Laws), Self::Error>;

    /// The points' states, indexed like the points (at least [`POINT_OUTPUTS`] long).
    fn slot_states(&mut self) -> &mut [PointState];

    /// A state changed: the outputs are stale.
    fn slot_states_changed(&mut self);

    /// Event Mode: the discrete states of every slot for the current instant; true when a
    /// deflection (a continuous state) changed.
    fn update_slot_events(&mut self) -> Result<bool, Self::Error> {
        let (forces, laws) = self.slot_points()?;
        let (changed, any) = event_update(&forces, &laws, self.slot_states());
        if any {
            self.slot_states_changed();
        }
        Ok(changed)
    }

    /// After an integrator step: true when a slot needs Event Mode (a step event).
    fn slot_needs_event(&mut self) -> Result<bool, Self::Error> {
        let (forces, laws) = self.slot_points()?;
        Ok(needs_event(&forces, &laws, self.slot_states()))
    }
}

/// `impl SlotModel for $model` (with `Error = $error`) for a model whose struct has the fields
/// `states: Vec<PointState>`, `outputs_valid: bool` and `block: Option<_>` (a block with
/// `laws()`), and a method `slot_forces(&mut self)` giving the point of each slot. Invoke it in
/// the model's own module.
#[macro_export]
macro_rules! slot_model {
    ($model:ty, $error:ty) => {
        impl $crate::point_slots::SlotModel for $model {
            type Error = $error;

            fn slot_points(
                &mut self,
            ) -> Result<([Option<$crate::contact_physics::contact::PointForce>; $crate::POINT_OUTPUTS], $crate::contact_physics::contact::Laws), $error> {
                let forces = self.slot_forces()?;
                Ok((forces, *self.block.as_ref().expect("the slots' points built the block").laws()))
            }

            fn slot_states(&mut self) -> &mut [$crate::contact_physics::contact::PointState] {
                &mut self.states
            }

            fn slot_states_changed(&mut self) {
                self.outputs_valid = false;
            }
        }
    };
}

/// Event Mode: the discrete states of every slot with a point for the current instant. Answers
/// (a deflection, a continuous state, changed; some slot's state changed at all).
pub fn event_update(forces: &[Option<PointForce>; POINT_OUTPUTS], laws: &Laws, states: &mut [PointState]) -> (bool, bool) {
    let (mut changed, mut any) = (false, false);
    for (i, force) in forces.iter().enumerate() {
        if let Some(at) = force {
            let before = states[i];
            changed |= point_events::event_update(at, laws, &mut states[i]);
            any |= states[i] != before;
        }
    }
    (changed, any)
}

/// After an integrator step: true when a slot needs Event Mode (a step event).
pub fn needs_event(forces: &[Option<PointForce>; POINT_OUTPUTS], laws: &Laws, states: &[PointState]) -> bool {
    forces.iter().enumerate().any(|(i, force)| force.as_ref().is_some_and(|at| point_events::needs_event(at, laws, &states[i])))
}

/// Nominal of a deflection state: Stiction's `friction.max_deformation` when it is set, else
/// [`DEFLECTION_NOMINAL`].
pub fn deflection_nominal(friction_law: i64, max_deformation: f64) -> f64 {
    if FrictionLawKind::from_value(friction_law) == Some(FrictionLawKind::Stiction) && max_deformation > 0.0 {
        max_deformation
    } else {
        DEFLECTION_NOMINAL
    }
}
