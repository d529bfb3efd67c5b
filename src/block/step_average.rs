//! The wrench averaged over a communication step (`coupling.mode = StepAverage`): the block
//! integrates both bodies over the coming step itself, in fine sub-steps with the contact laws
//! evaluated at each, and reports the impulse each body receives divided by the step.
//!
//! Why: an importer holds the block's output over its communication step. The instantaneous
//! force at the start of a step is right only when the step is far below the contact's time
//! scale (omega h << 1); at the 1 to 10 ms steps that co-simulations run, a stiff contact held
//! for a step creates energy. The average over the step, held, gives each body exactly the
//! momentum the contact law gives it over that step, at any step size (the sketch of the maths
//! is in the guide, "Co-simulation and step sizes"). The body motion is in
//! [`crate::physics::rigid_motion`]; what the model keeps from step to step (the other forces'
//! estimate, the positional drift, the prediction for Jacobi masters) is in
//! `src/model/coupling.rs`.
#![forbid(unsafe_code)]

use super::{Block, Frame, InputError, Inputs, Notes, Outputs};
use crate::physics::contact::PointState;
use crate::physics::enums::stable_enum;
use crate::physics::geometry::ContactPoint;
use crate::physics::math::{BodyState, Vec3};
use crate::physics::rigid_motion::{External, MassProperties, Motion};

stable_enum! {
    /// How the block couples to the importer over a communication step.
    pub enum CouplingMode {
        /// The wrench at the current inputs, held by the importer over the step (the exact
        /// coupling for small steps, omega h << 1).
        Instantaneous = 1,
        /// The wrench averaged over the coming communication step, from the block's own
        /// integration of both bodies over it (needs body_a.mass or body_b.mass > 0).
        StepAverage = 2,
    }
}

/// The bodies as the block integrates them over a step: mass properties and the other forces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bodies {
    pub mass: [MassProperties; 2],
    pub external: [External; 2],
}

/// The frame of a body state, as the block's inputs carry it.
pub fn frame_of(body: &BodyState) -> Frame {
    let q = body.pose.q.quaternion();
    Frame { r_0: body.pose.r.into(), q: [q.w, q.i, q.j, q.k], v_0: body.v.into(), w_0: body.w.into() }
}

/// What one averaged step gives besides the outputs: both bodies' motion at its end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepEnd {
    pub motion: [Motion; 2],
}

impl Block {
    /// The outputs averaged over a step of `h` (s) from the bodies' states `start` (A, B), in
    /// `ceil(h / max_substep)` sub-steps of velocity Verlet (physics/rigid_motion.rs): the
    /// wrenches are the impulses over the step divided by `h`, `contact.normal_force` and
    /// `contact.friction_force` their averages, `contact.max_normal_force` the largest normal
    /// force at any sub-step; the other outputs describe the contact at the start of the step.
    ///
    /// `states` are the points' states at the start of the step; `end_states` receives them at
    /// its end (the stateful laws advance along the integrated motion).
    #[allow(clippy::too_many_arguments)]
    pub fn step_average(
        &self,
        start: &[BodyState; 2],
        bodies: &Bodies,
        h: f64,
        max_substep: f64,
        states: &[PointState],
        end_states: &mut Vec<PointState>,
        scratch: &mut Vec<ContactPoint>,
        out: &mut Outputs,
    ) -> Result<(Notes, StepEnd), InputError> {
        let substeps = (h / max_substep * (1.0 - 1e-12)).ceil().max(1.0) as u64;
        let dt = h / substeps as f64;
        let mass = &bodies.mass;
        let ext = &bodies.external;
        end_states.clear();
        end_states.extend_from_slice(states);
        let mut motion = [Motion::from_frame(&start[0], &mass[0]), Motion::from_frame(&start[1], &mass[1])];
        // The frames only: the block refuses StepAverage with a law provided by input, so the
        // provided forces stay zero and are not rewritten at every sub-step.
        let frames_of = |m: &[Motion; 2]| (frame_of(&m[0].to_frame(&mass[0])), frame_of(&m[1].to_frame(&mass[1])));

        let (frame_a, frame_b) = frames_of(&motion);
        let mut inputs = Inputs::of_frames(frame_a, frame_b);
        let mut notes = self.evaluate(&inputs, scratch, end_states, out)?;
        let mut now = out.clone();
        let mut impulse = [(Vec3::zeros(), Vec3::zeros()); 2];
        let (mut normal_integral, mut friction_integral) = (0.0, 0.0);
        let mut max_normal_force = now.normal_force;
        let mut max_points = now.points;
        let torque_about_com = |m: &Motion, k: usize, w: &(Vec3, Vec3)| m.torque_about_com(&mass[k], &w.0, &w.1);
        for _ in 0..substeps {
            let before = now.wrenches();
            let (normal_before, friction_before) = (now.normal_force, now.friction_force);
            if self.is_stateful() {
                self.advance(&inputs, scratch, end_states, dt)?;
            }
            for k in 0..2 {
                let t_c = torque_about_com(&motion[k], k, &before[k]);
                motion[k].half_kick(&mass[k], &before[k].0, &t_c, &ext[k], dt);
                motion[k].drift(&mass[k], dt);
            }
            // The law sees the velocity at the end of the sub-step as the held wrench would
            // make it (its damping term needs a velocity before the end's wrench is known).
            let mut predicted = motion;
            for k in 0..2 {
                let t_c = torque_about_com(&motion[k], k, &before[k]);
                predicted[k].half_kick(&mass[k], &before[k].0, &t_c, &ext[k], dt);
            }
            (inputs.frame_a, inputs.frame_b) = frames_of(&predicted);
            let n = self.evaluate(&inputs, scratch, end_states, &mut now)?;
            notes.passed_through |= n.passed_through;
            let after = now.wrenches();
            for k in 0..2 {
                impulse[k].0 += (before[k].0 + after[k].0) * (0.5 * dt);
                impulse[k].1 += (before[k].1 + after[k].1) * (0.5 * dt);
                let t_c = torque_about_com(&motion[k], k, &after[k]);
                motion[k].half_kick(&mass[k], &after[k].0, &t_c, &ext[k], dt);
            }
            normal_integral += 0.5 * dt * (normal_before + now.normal_force);
            friction_integral += 0.5 * dt * (friction_before + now.friction_force);
            max_normal_force = max_normal_force.max(now.normal_force);
            max_points = max_points.max(now.points);
        }
        out.frame_a.f_0 = (impulse[0].0 / h).into();
        out.frame_a.t_0 = (impulse[0].1 / h).into();
        out.frame_b.f_0 = (impulse[1].0 / h).into();
        out.frame_b.t_0 = (impulse[1].1 / h).into();
        out.normal_force = normal_integral / h;
        out.friction_force = friction_integral / h;
        out.max_normal_force = max_normal_force;
        out.points = max_points;
        out.active = max_normal_force > 0.0;
        Ok((notes, StepEnd { motion }))
    }
}
