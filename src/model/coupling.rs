//! `coupling.mode = StepAverage` from step to step: which body states the averaged step starts
//! from, the other forces on the bodies, the positional drift, and the prediction that answers a
//! Jacobi master.
//!
//! - **Start of a step.** After a DoStep, until the importer sets new inputs, the bodies are
//!   where the block predicts them (the held average plus the other forces, integrated over the
//!   step): a Jacobi master (libcosim) reads the outputs right after DoStep, before the other
//!   FMUs' new states arrive, and gets the next step's average from that prediction. A
//!   Gauss-Seidel master sets the inputs first, and the step starts from them.
//! - **The other forces** (gravity, springs, drives) are unknown to the block: each body's
//!   acceleration and torque besides the contact are estimated from its inputs at consecutive
//!   steps, `a = (v_c(t + h) - v_c(t)) / h - F / m` with `F` the average the block reported for
//!   that step (and likewise for the angular momentum), or from the FMI 2 input derivatives of
//!   `v_0` when the importer gives them.
//! - **Positional drift.** A body moving with the held average ends its step off the block's
//!   own integration by `delta = (1/m) int (s - h/2) f(s) ds` (the force's first moment about the
//!   middle of the step); the velocity agrees. The block keeps `delta` per body (a centre-of-mass
//!   offset and a rotation) and integrates from the reported pose less `delta`, so that the
//!   contact's physics happens in its own, consistent world: no energy comes from reading a step's
//!   extra depth at the next. Out of contact the offset is removed where that cannot add
//!   potential energy under the estimated other forces (a shift across them is free; a shift
//!   against them would lift the body).
#![forbid(unsafe_code)]

use super::{check_substeps, Model, ModelError};
use crate::block::{frame_of, Bodies, Inputs, Notes, StepAverageSetup, StepEnd};
use crate::physics::contact::PointState;
use crate::physics::math::{BodyState, Rotation, Vec3};
use crate::physics::rigid_motion::{External, MassProperties, Motion};

/// Force and torque about the frame origin on one body, in W.
type Wrench = (Vec3, Vec3);

/// A body's offset from the block's own integration: `c_body = c_own + r`, `q_body = q q_own`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drift {
    pub r: Vec3,
    pub q: Rotation,
}

impl Default for Drift {
    fn default() -> Self {
        Drift { r: Vec3::zeros(), q: Rotation::identity() }
    }
}

/// An averaged step computed for the outputs: what DoStep commits.
#[derive(Clone, Debug)]
struct Run {
    h: f64,
    /// The bodies as the block integrated them from (its own world).
    start: [BodyState; 2],
    end: StepEnd,
    end_states: Vec<PointState>,
    /// No force acted at any sub-step of the step.
    forceless: bool,
}

/// Where a step started (the bodies as the importer reported them) and the wrench held over it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct StepRecord {
    start: [BodyState; 2],
    wrench: [Wrench; 2],
    h: f64,
}

/// What StepAverage keeps from step to step (part of the FMU state).
#[derive(Clone, Debug, Default)]
pub struct Coupling {
    /// Size (s) of the last completed DoStep; 0 before the first.
    last_step: f64,
    external: [External; 2],
    drift: [Drift; 2],
    /// The bodies at the current time as the block predicted them at the last DoStep, used until
    /// the importer sets inputs.
    predicted: Option<[BodyState; 2]>,
    /// An input was set since the last DoStep.
    fresh: bool,
    record: Option<StepRecord>,
    /// The averaged step behind the current outputs (not serialized: recomputed when needed).
    run: Option<Run>,
    /// The outputs were computed since the last DoStep, so the importer holds their wrench.
    evaluated: bool,
    /// The wrench the importer holds now (the last one reported), for the input derivatives.
    applied: [Wrench; 2],
    /// The one-time warning about a read before the first DoStep without coupling.step.
    warned_no_step: bool,
    /// A buffer of point states for the next run (the last committed step's old states), so that
    /// a step in steady use allocates nothing.
    spare: Vec<PointState>,
}

/// The motion of a body from `start` under `wrench` held for `h` with the other forces `ext`:
/// where the importer's integrator takes it.
fn under_held(start: &BodyState, mass: &MassProperties, wrench: &Wrench, ext: &External, h: f64) -> Motion {
    let m = Motion::from_frame(start, mass);
    if !mass.is_movable() {
        let mut m = m;
        m.drift(mass, h);
        return m;
    }
    let t_c = m.torque_about_com(mass, &wrench.0, &wrench.1);
    // The translation is exact in one sub-step; the rotation takes a few.
    m.under_held(mass, &wrench.0, &t_c, ext, h, if mass.rotates() { 8 } else { 1 })
}

/// What a failed DoStep restores ([`Coupling::checkpoint`]).
#[derive(Clone, Copy, Debug)]
pub struct Checkpoint {
    external: [External; 2],
    record: Option<StepRecord>,
}

impl Coupling {
    /// The parts a DoStep may change before it can still fail.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint { external: self.external, record: self.record }
    }

    pub fn restore(&mut self, saved: Checkpoint) {
        self.external = saved.external;
        self.record = saved.record;
    }

    /// An input was set.
    pub fn inputs_set(&mut self) {
        self.fresh = true;
    }

    /// The bodies' start states in the block's own world: the reported ones less the drift.
    fn own_world(&self, reported: &[BodyState; 2], mass: &[MassProperties; 2]) -> [BodyState; 2] {
        let mut own = *reported;
        for k in 0..2 {
            if mass[k].is_movable() && self.drift[k] != Drift::default() {
                let mut m = Motion::from_frame(&reported[k], &mass[k]);
                m.c -= self.drift[k].r;
                m.q = self.drift[k].q.inverse() * m.q;
                own[k] = m.to_frame(&mass[k]);
            }
        }
        own
    }

    /// Updates the other forces from the step recorded at the last DoStep and the bodies now.
    fn estimate(&mut self, now: &[BodyState; 2], mass: &[MassProperties; 2]) {
        let Some(record) = self.record.take() else { return };
        for k in 0..2 {
            if !mass[k].is_movable() {
                continue;
            }
            let (m0, m1) = (Motion::from_frame(&record.start[k], &mass[k]), Motion::from_frame(&now[k], &mass[k]));
            let (f, t_0) = &record.wrench[k];
            self.external[k].accel = (m1.v_c - m0.v_c) / record.h - f / mass[k].mass;
            if mass[k].rotates() {
                self.external[k].torque = (m1.l - m0.l) / record.h - m0.torque_about_com(&mass[k], f, t_0);
            }
        }
    }
}

impl Model {
    /// The bodies as the importer reports them now (checked), or as predicted after a DoStep
    /// until it sets inputs.
    fn reported_bodies(&self, notes: &mut Notes) -> Result<([BodyState; 2], bool), ModelError> {
        let block = self.block.as_ref().expect("the block is built");
        match (&self.coupling.predicted, self.coupling.fresh) {
            (Some(predicted), false) => Ok((*predicted, false)),
            _ => Ok((block.body_states(&self.inputs, notes).map_err(ModelError::Input)?, true)),
        }
    }

    /// The other forces from the FMI 2 input derivatives of `v_0`, where the importer gave them:
    /// `a = dv_0/dt - F / m` with `F` the wrench it holds now.
    fn external_from_derivatives(&mut self, mass: &[MassProperties; 2]) {
        if !self.has_input_derivatives() {
            return;
        }
        for (k, first) in [(0, 7), (1, 20)] {
            if mass[k].is_movable() {
                let dv = Vec3::from_column_slice(&self.input_derivatives[first..first + 3]);
                self.coupling.external[k].accel = dv - self.coupling.applied[k].0 / mass[k].mass;
            }
        }
    }

    /// The outputs under StepAverage: the wrench averaged over the coming step.
    pub(super) fn evaluate_step_average(&mut self, setup: StepAverageSetup) -> Result<Notes, ModelError> {
        let mut notes = Notes::default();
        let (reported, from_inputs) = self.reported_bodies(&mut notes)?;
        if from_inputs {
            self.coupling.estimate(&reported, &setup.mass);
            self.external_from_derivatives(&setup.mass);
        }
        let h = if self.coupling.last_step > 0.0 { self.coupling.last_step } else { setup.step };
        let block = self.block.as_ref().expect("the block is built");
        if h <= 0.0 {
            // Read before the first DoStep without coupling.step: no step to average over yet.
            if !self.coupling.warned_no_step {
                self.coupling.warned_no_step = true;
                self.warnings.push(
                    "coupling.mode = StepAverage: the outputs were read before the first DoStep and coupling.step = 0, so the \
                     step to average over is unknown; they are the instantaneous wrench until the first DoStep (set coupling.step \
                     to the communication step to average from the start)"
                        .to_string(),
                );
            }
            let n = block.evaluate(&self.inputs, &mut self.scratch, &self.states, &mut self.outputs).map_err(ModelError::Input)?;
            self.outputs.max_normal_force = self.outputs.normal_force;
            self.coupling.run = None;
            self.coupling.evaluated = true;
            return Ok(n);
        }
        check_substeps(h, setup.max_substep, "coupling.max_substep").map_err(ModelError::NotFinite)?;
        let start = self.coupling.own_world(&reported, &setup.mass);
        let run = self.averaged_run(&setup, &start, h, None)?;
        notes.passed_through |= run.1.passed_through;
        self.coupling.run = Some(run.0);
        self.coupling.evaluated = true;
        Ok(notes)
    }

    /// One averaged step from `start` (the block's own world) over `h` into the outputs, or into
    /// `scratch_outputs` when given (the outputs are then left alone).
    fn averaged_run(
        &mut self,
        setup: &StepAverageSetup,
        start: &[BodyState; 2],
        h: f64,
        scratch_outputs: Option<&mut crate::block::Outputs>,
    ) -> Result<(Run, Notes), ModelError> {
        let block = self.block.as_ref().expect("the block is built");
        let bodies = Bodies { mass: setup.mass, external: self.coupling.external };
        let mut end_states = match self.coupling.run.take() {
            // The previous run of this step is replaced: its buffer is reused.
            Some(run) => run.end_states,
            None => std::mem::take(&mut self.coupling.spare),
        };
        let out = match scratch_outputs {
            Some(out) => out,
            None => &mut self.outputs,
        };
        let (notes, end) = block
            .step_average(start, &bodies, h, setup.max_substep, &self.states, &mut end_states, &mut self.scratch, out)
            .map_err(ModelError::Input)?;
        let forceless = out.max_normal_force == 0.0;
        Ok((Run { h, start: *start, end, end_states, forceless }, notes))
    }

    /// DoStep under StepAverage: commits the averaged step the importer holds, predicts where the
    /// bodies end, and updates the drift.
    pub(super) fn do_step_average(&mut self, setup: StepAverageSetup, step: f64) -> Result<(), ModelError> {
        check_substeps(step, setup.max_substep, "coupling.max_substep").map_err(ModelError::NotFinite)?;
        if !self.coupling.evaluated {
            // The importer read nothing since the last step: it holds the last outputs it read,
            // but the block averages from the present state.
            self.outputs_valid = false;
            self.update_outputs()?;
        }
        let applied = self.outputs.wrenches();
        let mut notes = Notes::default();
        let (reported_now, _) = self.reported_bodies(&mut notes)?;
        let fresh = self.coupling.fresh;
        if fresh {
            // Jacobi: the inputs of this step's start arrived after the outputs were read.
            self.coupling.estimate(&reported_now, &setup.mass);
        }
        let run = match self.coupling.run.take() {
            Some(run) if run.h == step => run,
            other => {
                let start = match other {
                    Some(run) => run.start,
                    None => self.coupling.own_world(&reported_now, &setup.mass),
                };
                let mut scratch = self.outputs.clone();
                self.averaged_run(&setup, &start, step, Some(&mut scratch))?.0
            }
        };
        // Where the importer's integration takes the bodies under the held wrench.
        let motion: [Motion; 2] =
            std::array::from_fn(|k| under_held(&reported_now[k], &setup.mass[k], &applied[k], &self.coupling.external[k], step));
        let predicted: [BodyState; 2] = std::array::from_fn(|k| motion[k].to_frame(&setup.mass[k]));
        // The drift grows by what the held wrench moves a body more than the block's own
        // integration does over the step, each from its own start. (In Gauss-Seidel order the
        // run started from the reported bodies less the drift, and this is simply the end's
        // difference; in Jacobi order it started from the prediction, and where and how fast the
        // bodies were reported instead is not drift: the block's world follows them.)
        let mut drift = self.coupling.drift;
        for k in 0..2 {
            if setup.mass[k].is_movable() {
                let (own_start, own_end) = (Motion::from_frame(&run.start[k], &setup.mass[k]), &run.end.motion[k]);
                let body_start = Motion::from_frame(&reported_now[k], &setup.mass[k]);
                // Each displacement less what its start velocity alone gives, so that a start
                // velocity other than the predicted one (Jacobi) is not taken for drift either.
                let moved = motion[k].c - body_start.c - body_start.v_c * step;
                let own_moved = own_end.c - own_start.c - own_start.v_c * step;
                let turned = motion[k].q * body_start.q.inverse();
                let own_turned = Rotation::from_scaled_axis((body_start.w - own_start.w) * step) * own_end.q * own_start.q.inverse();
                drift[k] = Drift {
                    r: drift[k].r + moved - own_moved,
                    q: Rotation::new_normalize((turned * drift[k].q * own_turned.inverse()).into_inner()),
                };
            }
        }
        let cleared = self.coupling.drift_cleared(&drift, &setup);
        if run.forceless && drift != cleared {
            // Out of contact over the whole step: remove the offset where the bodies as reported
            // are apart too and no potential energy is gained.
            let block = self.block.as_ref().expect("the block is built");
            let inputs = Inputs::of_frames(frame_of(&predicted[0]), frame_of(&predicted[1]));
            let mut probe = self.outputs.clone();
            block.evaluate(&inputs, &mut self.scratch, &run.end_states, &mut probe).map_err(ModelError::Input)?;
            if probe.normal_force == 0.0 && probe.separation > 0.0 {
                drift = cleared;
            }
        }
        let mut end_states = run.end_states;
        if end_states.len() < crate::block::POINT_OUTPUTS {
            end_states.resize(crate::block::POINT_OUTPUTS, PointState::default());
        }
        self.coupling.spare = std::mem::replace(&mut self.states, end_states);
        let c = &mut self.coupling;
        c.record = if fresh { Some(StepRecord { start: reported_now, wrench: applied, h: step }) } else { None };
        c.drift = drift;
        c.predicted = Some(predicted);
        c.fresh = false;
        c.evaluated = false;
        c.applied = applied;
        c.last_step = step;
        c.run = None;
        self.input_derivatives = [0.0; crate::block::INPUT_COUNT];
        self.outputs_valid = false;
        self.time += step;
        Ok(())
    }

    /// `contact.max_normal_force` and the averaged outputs' state, for tests.
    pub fn coupling(&self) -> &Coupling {
        &self.coupling
    }
}

impl Coupling {
    /// `drift` with what can be removed out of contact removed: the rotation, and the shift
    /// except its part against the other forces.
    fn drift_cleared(&self, drift: &[Drift; 2], setup: &StepAverageSetup) -> [Drift; 2] {
        let mut cleared = *drift;
        for k in 0..2 {
            if !setup.mass[k].is_movable() {
                continue;
            }
            let a = self.external[k].accel;
            let r = drift[k].r;
            let along = a.dot(&r);
            cleared[k] = Drift {
                // Moving the body's own position by r changes its potential energy by -m a.r:
                // only the part of r against a (a.r < 0) would raise it, and that part stays.
                r: if along < 0.0 && a.norm_squared() > 0.0 { a * (along / a.norm_squared()) } else { Vec3::zeros() },
                q: Rotation::identity(),
            };
        }
        cleared
    }

    /// The drift of body `k` (0 = A, 1 = B).
    pub fn drift(&self, k: usize) -> Drift {
        self.drift[k]
    }

    /// The other forces estimated on body `k`.
    pub fn external(&self, k: usize) -> External {
        self.external[k]
    }

    /// The FMU state: every number that carries over a step (the averaged step behind the
    /// current outputs is recomputed after a restore).
    pub fn write(&self, out: &mut Vec<u8>) {
        let mut put = |x: f64| out.extend_from_slice(&x.to_le_bytes());
        put(self.last_step);
        for k in 0..2 {
            self.external[k].accel.iter().chain(self.external[k].torque.iter()).for_each(|x| put(*x));
            self.drift[k].r.iter().for_each(|x| put(*x));
            self.drift[k].q.coords.iter().for_each(|x| put(*x));
            self.applied[k].0.iter().chain(self.applied[k].1.iter()).for_each(|x| put(*x));
        }
        let body = |b: &BodyState, put: &mut dyn FnMut(f64)| {
            b.pose.r.iter().chain(b.pose.q.coords.iter()).chain(b.v.iter()).chain(b.w.iter()).for_each(|x| put(*x));
        };
        put(if self.predicted.is_some() { 1.0 } else { 0.0 });
        for b in self.predicted.iter().flatten() {
            body(b, &mut put);
        }
        put(match self.record {
            Some(_) => 1.0,
            None => 0.0,
        });
        if let Some(record) = &self.record {
            for k in 0..2 {
                body(&record.start[k], &mut put);
                record.wrench[k].0.iter().chain(record.wrench[k].1.iter()).for_each(|x| put(*x));
            }
            put(record.h);
        }
        put(if self.fresh { 1.0 } else { 0.0 });
        put(if self.warned_no_step { 1.0 } else { 0.0 });
    }

    /// Inverse of [`Coupling::write`].
    pub fn read(reader: &mut fmi_export::table::Reader<'_>) -> Result<Coupling, String> {
        let mut get = || -> Result<f64, String> {
            let x = reader.f64()?;
            if x.is_finite() {
                Ok(x)
            } else {
                Err("the serialized FMU state holds a non-finite coupling value".to_string())
            }
        };
        let mut c = Coupling { last_step: get()?, ..Coupling::default() };
        let vec = |get: &mut dyn FnMut() -> Result<f64, String>| -> Result<Vec3, String> { Ok(Vec3::new(get()?, get()?, get()?)) };
        let rotation = |get: &mut dyn FnMut() -> Result<f64, String>| -> Result<Rotation, String> {
            let (i, j, k, w) = (get()?, get()?, get()?, get()?);
            Ok(Rotation::new_normalize(nalgebra::Quaternion::new(w, i, j, k)))
        };
        for k in 0..2 {
            c.external[k] = External { accel: vec(&mut get)?, torque: vec(&mut get)? };
            c.drift[k] = Drift { r: vec(&mut get)?, q: rotation(&mut get)? };
            c.applied[k] = (vec(&mut get)?, vec(&mut get)?);
        }
        let body = |get: &mut dyn FnMut() -> Result<f64, String>| -> Result<BodyState, String> {
            let r = Vec3::new(get()?, get()?, get()?);
            let (i, j, k, w) = (get()?, get()?, get()?, get()?);
            let q = Rotation::new_normalize(nalgebra::Quaternion::new(w, i, j, k));
            let v = Vec3::new(get()?, get()?, get()?);
            let w = Vec3::new(get()?, get()?, get()?);
            Ok(BodyState { pose: crate::physics::math::Pose { r, q }, v, w })
        };
        if get()? != 0.0 {
            c.predicted = Some([body(&mut get)?, body(&mut get)?]);
        }
        if get()? != 0.0 {
            let mut start = [BodyState { pose: crate::physics::math::Pose::identity(), v: Vec3::zeros(), w: Vec3::zeros() }; 2];
            let mut wrench = [(Vec3::zeros(), Vec3::zeros()); 2];
            for k in 0..2 {
                start[k] = body(&mut get)?;
                wrench[k] = (vec(&mut get)?, vec(&mut get)?);
            }
            c.record = Some(StepRecord { start, wrench, h: get()? });
        }
        c.fresh = get()? != 0.0;
        c.warned_no_step = get()? != 0.0;
        Ok(c)
    }
}
