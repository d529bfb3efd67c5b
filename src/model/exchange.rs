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

use super::{Model, ModelError};
use crate::block::POINT_OUTPUTS;
use crate::physics::contact::PointForce;
use crate::physics::friction::FrictionLawKind;
use crate::physics::normal::NormalLawKind;
use crate::physics::point_events;
use crate::physics::shape::ShapeKind;

/// The separation indicator of a slot without a point \[m\]: apart.
pub const EMPTY_SLOT_SEPARATION: f64 = 1.0;

/// Nominal value of a deflection \[m\] (ElasticCone; Stiction uses its max_deformation).
pub const DEFLECTION_NOMINAL: f64 = 1e-4;

/// Derivatives and event indicators of the slots, computed when one of them is read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Locals {
    /// d/dt of `contact.point[i].deflection`.
    pub deflection_rate: [[f64; 3]; POINT_OUTPUTS],
    /// Make/break indicator of each slot \[m\].
    pub separation: [f64; POINT_OUTPUTS],
    /// Stick/slip indicator of each slot \[N\].
    pub stick: [f64; POINT_OUTPUTS],
    /// The evaluation of the outputs these values belong to (see `Model::evaluations`).
    computed_at: Option<u64>,
}

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
        if self.locals.computed_at == Some(self.evaluations) {
            return Ok(&self.locals);
        }
        let forces = self.slot_forces()?;
        let laws = *self.block.as_ref().expect("built").laws();
        for (i, force) in forces.iter().enumerate() {
            let (rate, separation, stick) = match force {
                Some(at) => {
                    let r = point_events::rates(at, &laws, &self.states[i]);
                    (r.deflection_rate.into(), at.separation, r.stick)
                }
                None => ([0.0; 3], EMPTY_SLOT_SEPARATION, point_events::NO_FORCE_STICK_INDICATOR),
            };
            self.locals.deflection_rate[i] = rate;
            self.locals.separation[i] = separation;
            self.locals.stick[i] = stick;
        }
        if self.locals.deflection_rate.iter().flatten().chain(&self.locals.stick).any(|x| !x.is_finite()) {
            return Err(ModelError::NotFinite("a deflection rate or stick/slip indicator is not finite for these inputs".to_string()));
        }
        self.locals.computed_at = Some(self.evaluations);
        Ok(&self.locals)
    }

    /// Mutable access for the variable table's accessors.
    pub(crate) fn locals_mut(&mut self) -> &mut Locals {
        &mut self.locals
    }

    /// Event Mode: the discrete states of every slot for the current instant; true when a
    /// deflection (a continuous state) changed.
    pub fn update_discrete_states(&mut self) -> Result<bool, ModelError> {
        let forces = self.slot_forces()?;
        let laws = *self.block.as_ref().expect("built").laws();
        let mut changed = false;
        let mut any = false;
        for (i, force) in forces.iter().enumerate() {
            if let Some(at) = force {
                let before = self.states[i];
                changed |= point_events::event_update(at, &laws, &mut self.states[i]);
                any |= self.states[i] != before;
            }
        }
        if any {
            self.outputs_valid = false;
        }
        Ok(changed)
    }

    /// After an integrator step: true when a slot needs Event Mode (a step event).
    pub fn step_event(&mut self) -> Result<bool, ModelError> {
        self.start();
        let forces = self.slot_forces()?;
        let laws = *self.block.as_ref().expect("built").laws();
        Ok(forces.iter().enumerate().any(|(i, force)| force.as_ref().is_some_and(|at| point_events::needs_event(at, &laws, &self.states[i]))))
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
        if FrictionLawKind::from_value(self.parameters.friction.law) == Some(FrictionLawKind::Stiction) && self.parameters.friction.max_deformation > 0.0 {
            self.parameters.friction.max_deformation
        } else {
            DEFLECTION_NOMINAL
        }
    }
}
