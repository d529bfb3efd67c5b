//! Model Exchange of the block: the continuous states are the tangential deflections of the
//! point slots (`contact.point[i].deflection`, 3 per slot, [`POINT_OUTPUTS`] slots), the
//! discrete states the Restitution onset speeds and Stiction's slipping flags of the same
//! slots, and each slot has two event indicators: its separation (make/break) and its
//! stick/slip indicator (see `physics::point_events`).
//!
//! A slot without a point (the pair has no point with that id) reads the indicators
//! [`EMPTY_SLOT_SEPARATION`] and `NO_FORCE_STICK_INDICATOR` and a deflection rate of 0. The pairs
//! of this block always report their points with fixed ids (a sphere its one point, a box its
//! corners), so a slot does not come and go while the integrator runs; a point cloud's first
//! points keep their ids too.

use super::point_slots::{self, deflection_nominal, SlotModel};
use super::{Model, ModelError};
use crate::block::POINT_OUTPUTS;
use crate::physics::contact::PointForce;
use crate::physics::friction::FrictionLawKind;
use crate::physics::normal::NormalLawKind;
use crate::physics::shape::ShapeKind;

pub use super::point_slots::{DEFLECTION_NOMINAL, EMPTY_SLOT_SEPARATION};

/// Derivatives and event indicators of the slots (three deflection components each).
pub type Locals = point_slots::Locals<3>;

impl Model {
    /// The deflection of slot `slot` as a slice (the state variable's accessor).
    pub(crate) fn deflection_mut(&mut self, slot: usize) -> &mut [f64] {
        self.states[slot].tangential.deflection.as_mut_slice()
    }

    /// The point of each slot, evaluated for the current inputs and states.
    fn slot_forces(&mut self) -> Result<[Option<PointForce>; POINT_OUTPUTS], ModelError> {
        self.update_outputs()?;
        let mut forces = [None; POINT_OUTPUTS];
        if self.is_unconnected() {
            // Zero force before the first step (Model::unconnected): no point in any slot.
            return Ok(forces);
        }
        let block = self.block.as_ref().expect("update_outputs built the block");
        block.slot_forces(&self.inputs, &mut self.scratch, &self.states, &mut forces).map_err(ModelError::Input)?;
        Ok(forces)
    }

    /// Brings the derivatives and event indicators up to date (with the outputs).
    pub fn update_locals(&mut self) -> Result<&Locals, ModelError> {
        self.update_outputs()?;
        if self.locals.computed_at(self.evaluations) {
            return Ok(&self.locals);
        }
        let forces = self.slot_forces()?;
        let laws = *self.block.as_ref().expect("built").laws();
        self.locals.update(&forces, &laws, &self.states, Some(self.evaluations)).map_err(ModelError::NotFinite)?;
        Ok(&self.locals)
    }

    /// Mutable access for the variable table's accessors.
    pub(crate) fn locals_mut(&mut self) -> &mut Locals {
        &mut self.locals
    }

    /// Event Mode: the discrete states of every slot for the current instant; true when a
    /// deflection (a continuous state) changed.
    pub fn update_discrete_states(&mut self) -> Result<bool, ModelError> {
        self.update_slot_events()
    }

    /// After an integrator step: true when a slot needs Event Mode (a step event).
    pub fn step_event(&mut self) -> Result<bool, ModelError> {
        self.start();
        self.slot_needs_event()
    }

    /// Refuses what Model Exchange cannot integrate: a stateful law on a pair that can have more
    /// points than there are slots with states and event indicators.
    pub fn check_model_exchange(&mut self) -> Result<(), String> {
        self.build_block().map_err(|e| e.to_string())?;
        // The importer integrates the bodies with the contact itself: there is no communication
        // step to average over.
        if self.block.as_mut().expect("built").drop_step_average() {
            self.warnings.push("coupling.mode = StepAverage applies to co-simulation; Model Exchange uses the instantaneous wrench".to_string());
        }
        let block = self.block.as_ref().expect("built");
        let points = block.pair().max_points();
        if !block.is_stateful() || points <= POINT_OUTPUTS {
            return Ok(());
        }
        let p = &self.parameters;
        let shape = |value: i64| ShapeKind::from_value(value).map_or("?", ShapeKind::name);
        Err(format!(
            "normal.law = {} and friction.law = {} keep a state per contact point, and geometry_a.shape = {} against \
             geometry_b.shape = {} can have {points} contact points; Model Exchange has states and event indicators for \
             {POINT_OUTPUTS} points (contact.point[1] to contact.point[{POINT_OUTPUTS}]): use a pair with at most \
             {POINT_OUTPUTS} points, stateless laws, or co-simulation",
            NormalLawKind::from_value(p.normal.law).map_or("?", NormalLawKind::name),
            FrictionLawKind::from_value(p.friction.law).map_or("?", FrictionLawKind::name),
            shape(p.geometry_a.shape),
            shape(p.geometry_b.shape),
        ))
    }

    /// Nominal of continuous state `index`: the scale of a deflection.
    pub fn state_nominal(&self, _index: usize) -> f64 {
        deflection_nominal(self.parameters.friction.law, self.parameters.friction.max_deformation)
    }
}

contact_fmi::slot_model!(Model, ModelError);
