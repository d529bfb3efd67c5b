//! `coupling.mode = StepAverage` from step to step: where each averaged step starts, and how the
//! block reconciles its own integration of the bodies with what the bodies actually did.
//!
//! The block integrates its own copy of both bodies over the coming step (block/step_average.rs)
//! and reports the average of the contact's wrench. The bodies belong to the importer: joints,
//! other contacts and drives act on them, their FMUs integrate with whatever integrator their
//! exporter chose, and the master orders the calls and sizes the steps as it likes. So at the end
//! of every step the block compares its copy with the bodies as reported (`reconcile`), and
//! nothing rests on a prediction of how a body integrates:
//!
//! - **The master's order.** Outputs read after inputs were set start from those inputs
//!   (Gauss-Seidel, the block first). Outputs read after a DoStep and before any input start from
//!   the block's own bodies at the step's end (Jacobi). Inputs that arrive between the read and
//!   the DoStep are the bodies at the step's start (Jacobi) or, when they lie where the block's
//!   own bodies end the step rather than where they start it, at its end (Gauss-Seidel with the
//!   bodies stepped first): the step is then reconciled at once and the next outputs start from
//!   those inputs. Outputs read after a DoStep and before any input stay what they are until the
//!   next DoStep: a master that reads them again after setting the inputs (Ecos) passes on the
//!   first read.
//! - **The step.** Outputs read before a DoStep cannot know its size: they average over the last
//!   step's (or `coupling.step` before the first). When the DoStep is longer or shorter, or the
//!   step's start was not what the outputs were computed from (Jacobi), the block integrates the
//!   step again as it was, and the difference between that impulse and the one the bodies
//!   received (the held output times the actual step) is owed to them: it is added to the next
//!   step's output, so that momentum is conserved over the steps that follow.
//! - **Where the bodies went** (the drift). A body that moved under the held average ends its
//!   step off the block's own copy (by the force's first moment about the middle of the step, and
//!   by whatever its integrator does differently): the offset is measured, not predicted, as the
//!   body's displacement beyond the block's own, less what a different start velocity explains.
//!   The next step starts from the reported pose less the offset, so the contact's physics
//!   happens in the block's consistent world and no energy comes from reading one step's extra
//!   depth at the next. Out of contact the offset is removed where that cannot add potential
//!   energy under the other forces; in steady contact (a body at rest) it is removed gradually,
//!   at what the energy bound below allows, so that a resting body sits at its static depth.
//! - **The other forces** on each body (gravity, springs, a joint's slow reaction): its change of
//!   velocity over the step less what the held wrench gave it, or the FMI 2 input derivatives of
//!   `v_0` where the importer gives them.
//! - **The mass a body shows in the contact direction**: from the input `body_X.mobility` when a
//!   body FMU gives it, else learnt from the body's response to the block's impulses
//!   (physics/mobility.rs), starting from a free body of `body_X.mass` and `body_X.inertia`. The
//!   block's copy of the body answers the contact with that mobility.
//! - **Never an energy gain.** The kinetic energy the held outputs gave the bodies, measured from
//!   the reported velocities, is compared at every step with the work the law did on the block's
//!   own bodies; what the coupling put in beyond it (a balance, kept over a contact and carried to
//!   the next) is taken out again by an extra damping along the contact normal that never pulls
//!   (after Sadjina et al., "Energy conservation and power bonds in co-simulations", 2017:
//!   energy-residual correction), in the steps of an impact, not while a contact lasts.
#![forbid(unsafe_code)]

use super::{check_substeps, Model, ModelError};
use crate::block::{frame_of, Bodies, Inputs, Notes, Outputs, StepAverageSetup, StepEnd, ForceTorque};
use crate::physics::contact::PointState;
use crate::physics::master_order;
use crate::physics::math::{BodyState, Rotation, Vec3};
use crate::physics::mobility::{free_mobility, held_work, is_impact, mobility_along, step_noise, Response, MOBILITY_VALUES};
use crate::physics::rigid_motion::{External, MassProperties, Motion};
use crate::physics::state_bytes::{Reader, Visit, Writer};

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

impl Drift {
    /// No offset: equal to the default, compared component by component (this runs several
    /// times at every step).
    #[inline]
    fn is_none(&self) -> bool {
        let (r, q) = (&self.r, self.q.quaternion());
        r.x == 0.0 && r.y == 0.0 && r.z == 0.0 && q.w == 1.0 && q.i == 0.0 && q.j == 0.0 && q.k == 0.0
    }
}

/// How fast the offset of a body in a lasting contact is removed: this share per step.
const REST_RELAXATION: f64 = 0.25;

/// An offset along the normal below this (m) is left alone by the pull.
const REST_DEADBAND: f64 = 1e-6;

/// The share of a lasting contact's energy balance settled at each step.
const SETTLE: f64 = 0.05;

/// An averaged step computed for the outputs: what DoStep commits.
#[derive(Clone, Debug)]
struct Run {
    h: f64,
    /// The bodies as the block integrated them from (its own world).
    start: [BodyState; 2],
    end: StepEnd,
    end_states: Vec<PointState>,
    /// The rate at which this run's outputs pay the owed impulse.
    pay: [ForceTorque; 2],
    /// The contact point and normal at the run's start.
    contact: (Vec3, Vec3),
    /// The average normal force over the run (N).
    normal_force: f64,
    /// The separation at the run's start (m).
    separation: f64,
}

impl Default for Run {
    fn default() -> Self {
        let zero = (Vec3::zeros(), Vec3::zeros());
        let still = Motion::still();
        Run {
            h: 0.0,
            start: [BodyState::at_rest(); 2],
            end: StepEnd { motion: [still; 2], law_work: 0.0, dissipated: 0.0, forceless: true, free_flight: false },
            end_states: Vec::new(),
            pay: [zero; 2],
            contact: (Vec3::zeros(), Vec3::zeros()),
            normal_force: 0.0,
            separation: 0.0,
        }
    }
}

/// A committed step, until the bodies' states at its end arrive.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pending {
    /// The bodies as reported at the step's start.
    start: [BodyState; 2],
    /// The block's own bodies at the step's start and end.
    own_start: [BodyState; 2],
    own_end: [Motion; 2],
    /// The wrench the importer held over the step.
    held: [ForceTorque; 2],
    h: f64,
    /// The law's work on the block's own bodies over the step, and the energy the extra
    /// damping took out of them.
    law_work: f64,
    dissipated: f64,
    forceless: bool,
    /// The contact point and normal (A toward B) at the step's start.
    contact: (Vec3, Vec3),
}

/// What carries over from step to step (part of the FMU state); copied whole to undo a failed
/// DoStep.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Carry {
    /// Size (s) of the last completed DoStep; 0 before the first.
    last_step: f64,
    external: [External; 2],
    drift: [Drift; 2],
    /// The bodies at the start of the next step as the block expects them (reported world),
    /// used until the importer sets inputs.
    predicted: Option<[BodyState; 2]>,
    /// An input was set since the last DoStep (or, after a read, since that read).
    fresh: bool,
    pending: Option<Pending>,
    /// The inputs that arrive between a read and a DoStep are the bodies at the step's end.
    inputs_at_end: bool,
    /// The last DoStep's size differed from the one before.
    steps_vary: bool,
    /// Steps in a row whose inputs fit the other order clearly better.
    order_votes: f64,
    response: [Response; 2],
    /// Impulse (N.s) and angular impulse about the frame origin (N.m.s) owed to each body.
    owed: [ForceTorque; 2],
    /// Energy (J) the held outputs gave the bodies beyond the law's work, over the contact going
    /// on (it swings within a contact as the bodies lag and lead the block's own).
    balance: f64,
    /// The last committed step's average normal force (N), and how many steps in a row the
    /// contact has pushed with an average within a fifth of the step before's (a lasting contact,
    /// not an impact).
    normal_force: f64,
    steady_steps: f64,
    /// Energy (J) the coupling put in and has yet to take out: what a contact's balance ended
    /// at, and a share of a lasting one's at every step.
    dissipate: f64,
    /// The mass each body shows in the contact direction (kg; 0 for an immovable body).
    effective_mass: [f64; 2],
    /// The contact normal (A toward B) at the last reconciled step.
    normal: Vec3,
    /// The force each body held over the last reconciled step.
    last_held: [Vec3; 2],
    /// The wrench the importer holds now (the last one reported), for the input derivatives.
    applied: [ForceTorque; 2],
    warned_no_step: bool,
    warned_mass: [bool; 2],
    /// The outputs were computed since the last DoStep, so the importer holds their wrench.
    evaluated: bool,
    /// They were read after the last DoStep and before any input (from the block's own bodies at
    /// the step's end): what a Jacobi master passes on, so they stay until the next DoStep.
    held_from_prediction: bool,
    /// Where the averaged step behind the held outputs started, so that it can be integrated
    /// again after a restored FMU state or a failed DoStep (the run itself is not kept).
    run_from: Option<RunFrom>,
    /// The other forces' acceleration on each body as the last two steps that measured it found
    /// it (m/s2), latest first: see [`Carry::reconcile`].
    measured: [[Option<Vec3>; 2]; 2],
}

/// What an averaged step is computed from: its size, the bodies at its start (the block's own
/// world) and the rate at which it pays the owed impulse.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RunFrom {
    h: f64,
    start: [BodyState; 2],
    pay: [ForceTorque; 2],
}

/// What StepAverage keeps from step to step.
#[derive(Clone, Debug, Default)]
pub struct Coupling {
    carry: Carry,
    /// The averaged step behind the current outputs when `has_run` (not serialized: integrated
    /// again from `Carry::run_from` when needed). Kept in place from run to run, so that nothing
    /// moves it: its buffer of point states and the model's swap at every DoStep, so that a step
    /// in steady use allocates nothing.
    run: Run,
    has_run: bool,
    /// The outputs of a run integrated again at DoStep, whose wrench only sets what is owed (the
    /// importer keeps the outputs it read): kept here, so that a DoStep copies no outputs.
    redo_outputs: Outputs,
}

/// What a failed DoStep restores ([`Coupling::checkpoint`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Checkpoint(Carry);

/// The bodies' states in the block's own world: the reported ones less the drift.
fn own_world(reported: &[BodyState; 2], drift: &[Drift; 2], mass: &[MassProperties; 2]) -> [BodyState; 2] {
    shifted(reported, drift, mass, -1.0)
}

/// The block's own bodies moved by the drift (`sign` 1) or back (`sign` -1).
#[inline]
fn shifted(bodies: &[BodyState; 2], drift: &[Drift; 2], mass: &[MassProperties; 2], sign: f64) -> [BodyState; 2] {
    let mut out = *bodies;
    for k in 0..2 {
        if mass[k].is_movable() && !drift[k].is_none() {
            let mut m = Motion::from_frame(&bodies[k], &mass[k]);
            m.c += drift[k].r * sign;
            m.q = if sign > 0.0 { drift[k].q * m.q } else { drift[k].q.inverse() * m.q };
            out[k] = m.to_frame(&mass[k]);
        }
    }
    out
}

/// How far apart two sets of body velocities are (m/s; the angular ones at 0.1 m): over a step
/// the held wrench changes the velocities, not yet the positions, so the velocities tell best
/// which instant an input belongs to.
fn distance(a: &[BodyState; 2], b: &[BodyState; 2], mass: &[MassProperties; 2]) -> f64 {
    (0..2).filter(|k| mass[*k].is_movable()).map(|k| (a[k].v - b[k].v).norm() + 0.1 * (a[k].w - b[k].w).norm()).sum()
}

/// Sum over the movable bodies of the distance between two sets of positions (m).
fn distance_of_positions(a: &[BodyState; 2], b: &[BodyState; 2], mass: &[MassProperties; 2]) -> f64 {
    (0..2).filter(|k| mass[*k].is_movable()).map(|k| (a[k].pose.r - b[k].pose.r).norm()).sum()
}

fn zero_wrench() -> ForceTorque {
    (Vec3::zeros(), Vec3::zeros())
}

impl Coupling {
    /// Saves into `saved` the parts a DoStep may change before it can still fail (in place: a
    /// checkpoint is taken at every DoStep).
    pub fn checkpoint(&self, saved: &mut Checkpoint) {
        saved.0 = self.carry;
    }

    pub fn restore(&mut self, saved: &Checkpoint) {
        self.carry = saved.0;
    }

    /// An input was set.
    pub fn inputs_set(&mut self) {
        self.carry.fresh = true;
    }

    /// The drift of body `k` (0 = A, 1 = B).
    pub fn drift(&self, k: usize) -> Drift {
        self.carry.drift[k]
    }

    /// The other forces estimated on body `k`.
    pub fn external(&self, k: usize) -> External {
        self.carry.external[k]
    }

    /// The mass body `k` shows in the contact direction (kg): `body_X.effective_mass`.
    pub fn effective_mass(&self, k: usize) -> f64 {
        self.carry.effective_mass[k]
    }

    /// The energy (J) the coupling put into the bodies and has yet to take out: the running
    /// balance of the contact going on and what is settled.
    pub fn energy_balance(&self) -> f64 {
        self.carry.balance + self.carry.dissipate
    }

    /// Whether the block takes the inputs that arrive before a DoStep for the bodies at the
    /// step's end (a Gauss-Seidel master stepping the bodies first).
    pub fn inputs_at_end(&self) -> bool {
        self.carry.inputs_at_end
    }
}

impl Carry {
    /// A step of `step` integrated again gave the bodies the wrench `got` where they held
    /// `applied`: the difference of impulse is owed to them.
    fn owe(&mut self, got: &[ForceTorque; 2], applied: &[ForceTorque; 2], step: f64) {
        for k in 0..2 {
            self.owed[k].0 += (got[k].0 - applied[k].0) * step;
            self.owed[k].1 += (got[k].1 - applied[k].1) * step;
        }
    }

    /// The bodies as an averaged step of `h` integrates them, paying the owed impulse at the rate
    /// `pay`.
    fn bodies(&self, setup: &StepAverageSetup, h: f64, pay: [ForceTorque; 2]) -> Bodies {
        Bodies {
            mass: setup.mass,
            external: self.external,
            response: [self.response[0].scale, self.response[1].scale],
            owed: self.owed,
            pay,
            unseen: std::array::from_fn(|k| self.pull(k, &setup.mass[k], h)),
            // The extra damping waits while a contact lasts (a body at rest, a stack), where the
            // pull brings a body to its static depth: there it would be a velocity feedback as
            // strong as a sub-step takes, and another contact's answer to it a step later (a
            // Jacobi master) swings the stack up until it is thrown.
            dissipate: if self.steady_steps >= 2.0 { 0.0 } else { self.dissipate },
        }
    }

    /// In a lasting contact, a force on body `k` alone (not on the block's own copy) that moves it
    /// toward the copy: a share of the drift per step, as its mass in the contact direction over
    /// a step of `h` turns it into motion. So a body at rest comes to its static depth.
    fn pull(&self, k: usize, mass: &MassProperties, h: f64) -> ForceTorque {
        if self.steady_steps < 2.0 || !mass.is_movable() {
            return zero_wrench();
        }
        // Along the contact normal only: the depth is what the drift puts off; across it (a body
        // sliding or sticking) the friction law's own state holds the body. An offset below the
        // dead band is left alone, so that a sticking contact is not stirred by round-off.
        let m = if self.effective_mass[k] > 0.0 { self.effective_mass[k] } else { mass.mass };
        let n = self.normal;
        let off = n.dot(&self.drift[k].r);
        if off.abs() < REST_DEADBAND {
            return zero_wrench();
        }
        (n * (off * (-REST_RELAXATION * m / (h * h))), Vec3::zeros())
    }

    /// A driven body (mass 0) that moved along the contact normal otherwise than the block's copy
    /// of it over a contact's step (the copy keeps the velocity the body had at the step's start)
    /// puts the other body off by as much: the drift of the movable body takes it. Without it a
    /// plate that a drive starts lifting within a step would show the body resting on it as deep
    /// as the plate rose, and the law would give back energy nothing put in.
    fn carry_driven_offset(&mut self, p: &Pending, now: &[BodyState; 2], mass: &[MassProperties; 2]) {
        let normal = p.contact.1;
        for (k, j) in [(0, 1), (1, 0)] {
            if mass[k].is_movable() || !mass[j].is_movable() {
                continue;
            }
            let (m0, m1) = (Motion::from_frame(&p.start[k], &mass[k]), Motion::from_frame(&now[k], &mass[k]));
            let own0 = Motion::from_frame(&p.own_start[k], &mass[k]);
            let off = (m1.c - m0.c - m0.v_c * p.h) - (p.own_end[k].c - own0.c - own0.v_c * p.h);
            self.drift[j].r -= normal * normal.dot(&off);
        }
    }

    /// The step `p` ended with the bodies reported as `now`: the energy balance, the other forces,
    /// the drift, and the bodies' response in the contact direction.
    fn reconcile(&mut self, p: &Pending, now: &[BodyState; 2], mass: &[MassProperties; 2], mobility: &[[f64; MOBILITY_VALUES]; 2]) {
        let h = p.h;
        let work: f64 = (0..2).map(|k| held_work(&p.held[k].0, &p.held[k].1, &p.start[k], &now[k], h)).sum();
        self.balance += work - p.law_work + p.dissipated;
        // What a contact ended at (the bodies apart over a step) is settled: a gain is taken out
        // at the following steps, a loss stays. A lasting contact settles a share at each step.
        let settled = if p.forceless { self.balance } else { SETTLE * self.balance };
        self.dissipate += settled.max(0.0);
        self.balance -= settled;
        let (point, normal) = p.contact;
        self.normal = normal;
        if !p.forceless {
            self.carry_driven_offset(p, now, mass);
        }
        for k in 0..2 {
            if !mass[k].is_movable() {
                continue;
            }
            let (m0, m1) = (Motion::from_frame(&p.start[k], &mass[k]), Motion::from_frame(&now[k], &mass[k]));
            let s = self.response[k].scale;
            let (f, t_0) = &p.held[k];
            let held_accel = f * (s / mass[k].mass);
            let other_before = self.external[k].accel;
            let noise = step_noise(other_before.norm(), h);
            let w_free = free_mobility(&mass[k], &m0, &point, &normal);
            // The other forces from this step, unless the held force changed enough to dominate
            // it (an impact): a joint or another contact answers an impact with a reaction of its
            // own, which is not a force that lasts into the next step.
            let impact = is_impact((f - self.last_held[k]).norm(), h, w_free, noise);
            self.last_held[k] = *f;
            if !impact {
                // An estimate that swings back and forth from step to step is another stiff force
                // answering this contact a step late (the body rests on a second contact: a
                // stack); taken as measured, each contact feeds the other's swing and a stack
                // diverges. The mean of the last two measurements cancels the swing; a force
                // that changes steadily (a joint's reaction) is taken as measured.
                let now = (m1.v_c - m0.v_c) / h - held_accel;
                let [last, earlier] = self.measured[k];
                self.external[k].accel = match (last, earlier) {
                    (Some(last), Some(earlier)) if (now - last).dot(&(last - earlier)) < 0.0 => (now + last) * 0.5,
                    (Some(last), None) => (now + last) * 0.5,
                    _ => now,
                };
                self.measured[k] = [Some(now), last];
                if mass[k].rotates() {
                    self.external[k].torque = (m1.l - m0.l) / h - m0.torque_about_com(&mass[k], f, t_0) * s;
                }
            }
            // The drift grows by what the body moved beyond the block's own copy, each less what
            // its start velocity alone gives (a start velocity other than the copy's is not drift).
            // Out of contact the bodies' motion is theirs alone: only a contact's step is drift.
            if !p.forceless {
                let (own0, own1) = (Motion::from_frame(&p.own_start[k], &mass[k]), &p.own_end[k]);
                let moved = m1.c - m0.c - m0.v_c * h;
                let own_moved = own1.c - own0.c - own0.v_c * h;
                let turned = m1.q * m0.q.inverse();
                let own_turned = Rotation::from_scaled_axis((m0.w - own0.w) * h) * own1.q * own0.q.inverse();
                let drift = &mut self.drift[k];
                drift.r += moved - own_moved;
                drift.q = Rotation::new_normalize((turned * drift.q * own_turned.inverse()).into_inner());
            }
            // The response in the contact direction: given, or learnt from this step.
            let sign = if k == 1 { 1.0 } else { -1.0 };
            if mobility[k].iter().any(|x| *x != 0.0) {
                let w = mobility_along(&mobility[k], &p.start[k].pose.r, &point, &normal);
                self.response[k].given(w, w_free);
            } else if !mass[k].rotates() {
                // A body with rotational dynamics answers at a manifold of points, where one
                // secant along the normal is mostly noise: it keeps its parameters' response.
                let speed = |m: &Motion| (m.v_c + m.w.cross(&(point - m.c))).dot(&normal) * sign;
                // Less what the other forces known before this step gave (so that steps of
                // different sizes compare).
                let du = speed(&m1) - speed(&m0) - other_before.dot(&normal) * sign * h;
                self.response[k].learn(f.dot(&normal) * sign * h, du, w_free, noise);
            }
            self.effective_mass[k] = 1.0 / (self.response[k].scale * w_free);
        }
    }

}

impl Model {
    /// The other forces from the FMI 2 input derivatives of `v_0`, where the importer gave them:
    /// `a = dv_0/dt - F / m` with `F` the wrench it holds now.
    fn external_from_derivatives(&mut self, mass: &[MassProperties; 2]) {
        if !self.has_input_derivatives() {
            return;
        }
        for (k, first) in [(0, 7), (1, 20)] {
            if mass[k].is_movable() {
                let dv = Vec3::from_column_slice(&self.input_derivatives[first..first + 3]);
                let c = &mut self.coupling.carry;
                c.external[k].accel = dv - c.applied[k].0 * (c.response[k].scale / mass[k].mass);
            }
        }
    }

    /// The bodies as the inputs give them.
    fn reported(&self) -> Result<[BodyState; 2], ModelError> {
        let block = self.block.as_ref().expect("the block is built");
        block.body_states(&self.inputs, &mut Notes::default()).map_err(ModelError::Input)
    }

    /// The outputs under StepAverage: the wrench averaged over the coming step.
    pub(super) fn evaluate_step_average(&mut self, setup: StepAverageSetup) -> Result<Notes, ModelError> {
        let mut notes = Notes::default();
        let c = &self.coupling.carry;
        if c.evaluated && !self.coupling.has_run && (c.held_from_prediction || !c.fresh) {
            // A restored FMU state or a failed DoStep: the outputs the importer holds, integrated
            // again from where they were.
            if let Some(n) = self.rerun(&setup)? {
                return Ok(n);
            }
        }
        if self.coupling.carry.evaluated && self.coupling.carry.held_from_prediction {
            // Read after a DoStep before any input, the outputs are what a Jacobi master passes on
            // to the bodies; a master that reads them again after setting the inputs (Ecos
            // refreshes its copy of an instance's outputs whenever it sets its inputs) still
            // passes on the first read. So they stay until the next DoStep, and the inputs set
            // since are the bodies at the step's start, which DoStep reconciles with.
            return Ok(notes);
        }
        let block = self.block.as_ref().expect("the block is built");
        let inputs = block.body_states(&self.inputs, &mut notes).map_err(ModelError::Input)?;
        self.coupling.carry.held_from_prediction = !self.coupling.carry.fresh && self.coupling.carry.predicted.is_some();
        let c = &mut self.coupling.carry;
        let start = match (c.fresh, c.predicted) {
            (false, Some(predicted)) => predicted,
            _ => {
                // Inputs set since the last step: the bodies now, at the end of the step that is
                // waiting for them.
                if let Some(p) = c.pending.take() {
                    c.reconcile(&p, &inputs, &setup.mass, &self.mobility);
                    self.warn_effective_mass(&setup);
                }
                self.external_from_derivatives(&setup.mass);
                self.coupling.carry.predicted = None;
                inputs
            }
        };
        self.coupling.carry.fresh = false;
        let c = &self.coupling.carry;
        let h = if c.last_step > 0.0 { c.last_step } else { setup.step };
        if h <= 0.0 {
            // Read before the first DoStep without coupling.step: no step to average over yet.
            if !c.warned_no_step {
                self.coupling.carry.warned_no_step = true;
                self.warnings.push(
                    "coupling.mode = StepAverage: the outputs were read before the first DoStep and coupling.step = 0, so the \
                     step to average over is unknown; they are the instantaneous wrench until the first DoStep (set coupling.step \
                     to the communication step to average from the start)"
                        .to_string(),
                );
            }
            let block = self.block.as_ref().expect("the block is built");
            let n = block.evaluate(&self.inputs, &mut self.scratch, &self.states, &mut self.outputs).map_err(ModelError::Input)?;
            self.outputs.max_normal_force = self.outputs.normal_force;
            self.finish_outputs(&setup);
            self.coupling.has_run = false;
            self.coupling.carry.run_from = None;
            self.coupling.carry.evaluated = true;
            return Ok(n);
        }
        check_substeps(h, setup.max_substep, "coupling.max_substep").map_err(ModelError::NotFinite)?;
        self.assume_rest_at_start(&setup, &start)?;
        let c = &self.coupling.carry;
        let own = own_world(&start, &c.drift, &setup.mass);
        // The owed impulse over the coming step (a step of another size pays more or less of it,
        // and the rest stays owed).
        let pay = c.owed.map(|(f, t)| (f / h, t / h));
        let n = self.averaged_run(&setup, &own, h, pay, false)?;
        notes.passed_through |= n.passed_through;
        self.finish_outputs(&setup);
        let c = &mut self.coupling.carry;
        c.run_from = Some(RunFrom { h, start: own, pay });
        c.evaluated = true;
        Ok(notes)
    }

    /// The averaged step behind the held outputs, integrated again into the outputs from where it
    /// started (the carried state is what it was then: nothing changes it between the outputs'
    /// evaluation and the DoStep). `None` when the held outputs were no averaged step.
    fn rerun(&mut self, setup: &StepAverageSetup) -> Result<Option<Notes>, ModelError> {
        let Some(from) = self.coupling.carry.run_from else {
            return Ok(None);
        };
        let notes = self.averaged_run(setup, &from.start, from.h, from.pay, false)?;
        self.finish_outputs(setup);
        Ok(Some(notes))
    }

    /// The run for a DoStep whose held outputs were the instantaneous wrench (read before the
    /// first DoStep with `coupling.step = 0`): the step averaged from the bodies as reported, and
    /// the difference between its impulse and the one the bodies received owed to them.
    fn run_for_instantaneous(&mut self, setup: &StepAverageSetup, step: f64, applied: &[ForceTorque; 2]) -> Result<(), ModelError> {
        let inputs = self.reported()?;
        self.assume_rest_at_start(setup, &inputs)?;
        let c = &self.coupling.carry;
        let own = own_world(&inputs, &c.drift, &setup.mass);
        let pay = c.owed.map(|(f, t)| (f / step, t / step));
        self.integrate_and_owe(setup, &own, step, pay, applied)
    }

    /// The step integrated from `from` over `step` (the outputs left as the importer holds them),
    /// and the difference between its impulse and the one the bodies received, the held wrench
    /// `applied` times the step, owed to them.
    fn integrate_and_owe(&mut self, setup: &StepAverageSetup, from: &[BodyState; 2], step: f64, pay: [ForceTorque; 2], applied: &[ForceTorque; 2]) -> Result<(), ModelError> {
        self.averaged_run(setup, from, step, pay, true)?;
        let got = self.coupling.redo_outputs.wrenches();
        self.coupling.carry.owe(&got, applied, step);
        Ok(())
    }

    /// Before the first step the other forces are unknown (the first step measures them), unless
    /// the block was told gravity (`coupling.gravity`: each movable body's weight). Otherwise bodies
    /// that start touching and at rest are taken to rest there: each body's other forces balance
    /// the contact's wrench on it, as for a body placed at its static depth (or a stack started at
    /// equilibrium). Without it the block's copy of a resting body would be pushed out of the
    /// contact over the first step and the body would drop, then be thrown.
    fn assume_rest_at_start(&mut self, setup: &StepAverageSetup, start: &[BodyState; 2]) -> Result<(), ModelError> {
        if self.coupling.carry.last_step != 0.0 {
            // A step has measured the other forces.
            return Ok(());
        }
        let movable = |k: usize| setup.mass[k].is_movable();
        let derivatives = self.has_input_derivatives();
        let c = &mut self.coupling.carry;
        if setup.gravity != Vec3::zeros() {
            // Told gravity: each movable body's other forces are its weight until a step measures
            // them (a box held on an incline by friction shows no force that reveals the pull
            // down the slope).
            if !derivatives {
                for k in (0..2).filter(|k| movable(*k)) {
                    c.external[k] = External { accel: setup.gravity, torque: Vec3::zeros() };
                }
            }
            return Ok(());
        }
        let c = &self.coupling.carry;
        let at_rest = (0..2).all(|k| start[k].v == Vec3::zeros() && start[k].w == Vec3::zeros());
        if !at_rest || derivatives || c.external != [External::default(); 2] || !(movable(0) || movable(1)) {
            return Ok(());
        }
        let block = self.block.as_ref().expect("the block is built");
        let mut probe = self.outputs.clone();
        block.evaluate(&self.inputs, &mut self.scratch, &self.states, &mut probe).map_err(ModelError::Input)?;
        if probe.normal_force <= 0.0 {
            return Ok(());
        }
        let wrenches = probe.wrenches();
        for k in (0..2).filter(|k| movable(*k)) {
            let mass = &setup.mass[k];
            let m = Motion::from_frame(&start[k], mass);
            let (f, t_0) = &wrenches[k];
            let e = &mut self.coupling.carry.external[k];
            e.accel = -f / mass.mass;
            if mass.rotates() {
                e.torque = -m.torque_about_com(mass, f, t_0);
            }
        }
        Ok(())
    }

    /// The outputs besides the wrench that StepAverage writes.
    fn finish_outputs(&mut self, setup: &StepAverageSetup) {
        for k in 0..2 {
            self.outputs.effective_mass[k] = if setup.mass[k].is_movable() {
                let m = self.coupling.carry.effective_mass[k];
                if m > 0.0 {
                    m
                } else {
                    setup.mass[k].mass
                }
            } else {
                0.0
            };
        }
    }

    /// One warning per body whose mass in the contact direction differs from what its
    /// parameters give it by more than 20 %, once the contact has pushed (before, the mass a
    /// jointed body shows is that of a pose away from the contact).
    fn warn_effective_mass(&mut self, setup: &StepAverageSetup) {
        for (k, prefix) in [(0, "body_a"), (1, "body_b")] {
            let c = &mut self.coupling.carry;
            let scale = c.response[k].scale;
            if !setup.mass[k].is_movable() || c.warned_mass[k] || c.normal_force <= 0.0 || (1.0 / scale - 1.0).abs() <= 0.2 {
                continue;
            }
            c.warned_mass[k] = true;
            let shown = c.effective_mass[k];
            self.warnings.push(format!(
                "{prefix}.effective_mass = {shown:.4} kg: the body shows {:.2} times the mass that {prefix}.mass = {} kg and \
                 {prefix}.inertia give it in the contact direction (a joint or another contact holds it); StepAverage uses the \
                 mass it shows",
                1.0 / scale,
                setup.mass[k].mass
            ));
        }
    }

    /// One averaged step from `start` (the block's own world) over `h`, paying the owed impulse at
    /// the rate `pay` besides the contact's wrench, into the outputs or, `redo`, into
    /// `Coupling::redo_outputs`; the run is written into `Coupling::run`, in place.
    fn averaged_run(
        &mut self,
        setup: &StepAverageSetup,
        start: &[BodyState; 2],
        h: f64,
        pay: [ForceTorque; 2],
        redo: bool,
    ) -> Result<Notes, ModelError> {
        let block = self.block.as_ref().expect("the block is built");
        let bodies = self.coupling.carry.bodies(setup, h, pay);
        // The previous run is replaced (its buffer of point states reused); until the new one is
        // complete there is none.
        let Coupling { run, has_run, redo_outputs, .. } = &mut self.coupling;
        *has_run = false;
        let out = if redo { redo_outputs } else { &mut self.outputs };
        let (notes, end) = block
            .step_average(start, &bodies, h, setup.max_substep, &self.states, &mut run.end_states, &mut self.scratch, out)
            .map_err(ModelError::Input)?;
        run.h = h;
        run.start = *start;
        run.end = end;
        run.pay = pay;
        run.contact = (Vec3::from(out.p_0), Vec3::from(out.n_0));
        run.normal_force = out.normal_force;
        run.separation = out.separation;
        *has_run = true;
        Ok(notes)
    }

    /// The run behind the held outputs, integrated again from `start` over `step` when either
    /// differs from it; the difference between its impulse and the one the bodies received is
    /// owed to them.
    fn redo(&mut self, setup: &StepAverageSetup, start: Option<[BodyState; 2]>, step: f64, applied: &[ForceTorque; 2]) -> Result<(), ModelError> {
        let run = &self.coupling.run;
        if run.h == step && start.is_none() {
            return Ok(());
        }
        let from = start.unwrap_or(run.start);
        let pay = run.pay;
        if run.end.free_flight && self.fly_again(setup, &from, step, applied) {
            return Ok(());
        }
        self.integrate_and_owe(setup, &from, step, pay, applied)
    }

    /// [`Model::redo`] of a run that was a free flight, from where the bodies actually started,
    /// without evaluating the contact, where the bound of a free flight still holds from there
    /// ([`crate::block::Block::free_flight_again`]): the step's wrench is zero, as the held one
    /// was, so nothing more is owed. The run's contact point and normal stay the held run's
    /// (out of contact they only give the direction in which `reconcile` measures the bodies'
    /// mass). False, with nothing changed, where the bound cannot be shown so.
    fn fly_again(&mut self, setup: &StepAverageSetup, from: &[BodyState; 2], step: f64, applied: &[ForceTorque; 2]) -> bool {
        let block = self.block.as_ref().expect("the block is built");
        let Coupling { carry: c, run, .. } = &mut self.coupling;
        let bodies = c.bodies(setup, step, run.pay);
        let Some(end) = block.free_flight_again(&run.start, run.separation, from, &bodies, step, &self.states) else {
            return false;
        };
        run.h = step;
        run.start = *from;
        run.end = end;
        // As `integrate_and_owe` with the free flight's zero wrench.
        c.owe(&[zero_wrench(); 2], applied, step);
        true
    }

    /// DoStep under StepAverage: commits the averaged step the importer holds and reconciles
    /// what the block knows of the bodies (module documentation).
    pub(super) fn do_step_average(&mut self, setup: StepAverageSetup, step: f64) -> Result<(), ModelError> {
        check_substeps(step, setup.max_substep, "coupling.max_substep").map_err(ModelError::NotFinite)?;
        if !self.coupling.carry.evaluated {
            // The importer read nothing since the last step: it holds the last outputs it read,
            // but the block averages from the present state.
            self.outputs_valid = false;
            self.update_outputs()?;
        } else if !self.coupling.has_run {
            // A restored FMU state or a failed DoStep: the held outputs' step integrated again.
            self.rerun(&setup)?;
        }
        let applied = self.outputs.wrenches();
        if !self.coupling.has_run {
            self.run_for_instantaneous(&setup, step, &applied)?;
        }
        // The step commits the run (a step that fails after this point leaves none: the next
        // integrates the held outputs' step again). Integrated again below where the step
        // differs from it, in place.
        self.coupling.has_run = false;
        let fresh = self.coupling.carry.fresh;
        let mass = setup.mass;
        let (start, end) = if fresh {
            // Inputs arrived after the read: the bodies at this step's start (Jacobi) or end
            // (the bodies stepped first). Told apart by where the block's own bodies are then.
            let inputs = self.reported()?;
            let Coupling { carry: c, run, .. } = &mut self.coupling;
            let expected_start = shifted(&run.start, &c.drift, &mass, 1.0);
            let own_end = [run.end.motion[0].to_frame(&mass[0]), run.end.motion[1].to_frame(&mass[1])];
            let expected_end = shifted(&own_end, &c.drift, &mass, 1.0);
            let (to_start, to_end) = (distance(&inputs, &expected_start, &mass), distance(&inputs, &expected_end, &mass));
            let at_end = if c.last_step == 0.0 {
                // Before the first DoStep the outputs were read from the inputs then: inputs
                // set since, and not equal to them, can only be the bodies after a step.
                to_start > 0.0 || distance_of_positions(&inputs, &expected_start, &mass) > 0.0
            } else {
                // Later, only clear evidence, three times in a row, turns the order over.
                let mut votes = c.order_votes as u32;
                let at_end = master_order::inputs_at_end(c.inputs_at_end, &mut votes, to_start, to_end);
                c.order_votes = f64::from(votes);
                at_end
            };
            if at_end != c.inputs_at_end {
                // The order was taken for the other one so far: what was measured against it
                // (the drift, the step waiting for its end) is dropped.
                c.inputs_at_end = at_end;
                c.drift = [Drift::default(); 2];
                c.pending = None;
            }
            if c.inputs_at_end {
                // The run started from the bodies as last reported, which are this step's start.
                let reported_start = c.predicted.unwrap_or(expected_start);
                self.redo(&setup, None, step, &applied)?;
                (reported_start, Some(inputs))
            } else {
                if let Some(p) = c.pending.take() {
                    c.reconcile(&p, &inputs, &mass, &self.mobility);
                    self.warn_effective_mass(&setup);
                }
                self.external_from_derivatives(&mass);
                // The outputs were computed from where the block expected the bodies at the step's
                // start (its own bodies at the last step's end, with the other forces as then
                // known). Where they started elsewhere (a joint, another contact, a drive or the
                // body's integrator took them off the block's course; a box on an incline whose
                // pull down the slope no step had measured yet), the step is integrated again from
                // there, with the other forces now measured, and the difference between its
                // impulse and the one the bodies received is owed to them.
                let own = own_world(&inputs, &self.coupling.carry.drift, &mass);
                let actual = (own != self.coupling.run.start).then_some(own);
                self.redo(&setup, actual, step, &applied)?;
                (inputs, None)
            }
        } else {
            let start = self.coupling.carry.predicted.map_or_else(|| self.reported(), Ok)?;
            self.redo(&setup, None, step, &applied)?;
            (start, None)
        };
        self.coupling.has_run = false;
        // The owed wrench the held outputs carried was paid over this step, and the energy the
        // extra damping took out is out.
        let Coupling { carry: c, run, .. } = &mut self.coupling;
        c.dissipate = (c.dissipate - run.end.dissipated).max(0.0);
        for k in 0..2 {
            c.owed[k].0 -= run.pay[k].0 * step;
            c.owed[k].1 -= run.pay[k].1 * step;
        }
        let pending = Pending {
            start,
            own_start: run.start,
            own_end: run.end.motion,
            held: applied,
            h: step,
            law_work: run.end.law_work,
            dissipated: run.end.dissipated,
            forceless: run.end.forceless,
            contact: run.contact,
        };
        let predicted = match end {
            Some(now) => {
                c.reconcile(&pending, &now, &mass, &self.mobility);
                c.pending = None;
                now
            }
            None => {
                c.pending = Some(pending);
                // Where the bodies will be: the block's own ones at the end, moved by the drift,
                // less the impulse still owed to them (which the next run starts with).
                let end = |k: usize| {
                    let mut m = run.end.motion[k];
                    let (f, t) = &c.owed[k];
                    if mass[k].is_movable() && (*f != Vec3::zeros() || *t != Vec3::zeros()) {
                        let s = -c.response[k].scale;
                        let t_c = m.torque_about_com(&mass[k], f, t);
                        m.half_kick(&mass[k], &(f * s), &(t_c * s), &External::default(), 2.0);
                    }
                    m.to_frame(&mass[k])
                };
                let own_end = [end(0), end(1)];
                shifted(&own_end, &c.drift, &mass, 1.0)
            }
        };
        let force = run.normal_force;
        self.clear_drift(&predicted)?;
        self.warn_effective_mass(&setup);
        // The run's point states become the model's, and the model's old ones the next run's
        // buffer.
        let end_states = &mut self.coupling.run.end_states;
        if end_states.len() < crate::block::POINT_OUTPUTS {
            end_states.resize(crate::block::POINT_OUTPUTS, PointState::default());
        }
        std::mem::swap(&mut self.states, end_states);
        let c = &mut self.coupling.carry;
        c.predicted = Some(predicted);
        c.fresh = false;
        c.applied = applied;
        c.steps_vary = c.last_step > 0.0 && c.last_step != step;
        c.last_step = step;
        c.steady_steps = if force > 0.0 && (force - c.normal_force).abs() < 0.2 * force { c.steady_steps + 1.0 } else { 0.0 };
        c.normal_force = force;
        c.evaluated = false;
        c.held_from_prediction = false;
        c.run_from = None;
        self.input_derivatives = [0.0; crate::block::INPUT_COUNT];
        self.outputs_valid = false;
        self.time += step;
        Ok(())
    }

    /// Removes the drift out of contact over the whole step, where the bodies as reported are
    /// apart too: what the drift put between the two worlds' energies is in the energy balance,
    /// settled when the contact ended. (In a lasting contact [`Carry::pull`] takes it out.)
    fn clear_drift(&mut self, predicted: &[BodyState; 2]) -> Result<(), ModelError> {
        let Coupling { carry, run, redo_outputs: probe, .. } = &mut self.coupling;
        if !run.end.forceless || carry.drift.iter().all(Drift::is_none) {
            return Ok(());
        }
        let block = self.block.as_ref().expect("the block is built");
        let inputs = Inputs::of_frames(frame_of(&predicted[0]), frame_of(&predicted[1]));
        block.evaluate(&inputs, &mut self.scratch, &run.end_states, probe).map_err(ModelError::Input)?;
        if probe.normal_force == 0.0 && probe.separation > 0.0 {
            self.coupling.carry.drift = [Drift::default(); 2];
        }
        Ok(())
    }

    /// `contact.max_normal_force` and the averaged outputs' state, for tests.
    pub fn coupling(&self) -> &Coupling {
        &self.coupling
    }
}

impl Carry {
    fn visit(&mut self, v: &mut dyn Visit) {
        v.num(&mut self.last_step);
        for k in 0..2 {
            v.vec(&mut self.external[k].accel);
            v.vec(&mut self.external[k].torque);
            v.vec(&mut self.drift[k].r);
            v.rotation(&mut self.drift[k].q);
            v.wrench(&mut self.owed[k]);
            v.wrench(&mut self.applied[k]);
            let (mut scale, last) = (self.response[k].scale, self.response[k].last());
            let mut has_last = last.is_some();
            let (mut impulse, mut du) = last.unwrap_or((0.0, 0.0));
            v.num(&mut scale);
            v.flag(&mut has_last);
            v.num(&mut impulse);
            v.num(&mut du);
            self.response[k] = Response::from_parts(scale, has_last.then_some((impulse, du)));
            v.num(&mut self.effective_mass[k]);
            v.vec(&mut self.last_held[k]);
            v.flag(&mut self.warned_mass[k]);
        }
        v.num(&mut self.balance);
        v.vec(&mut self.normal);
        v.num(&mut self.dissipate);
        v.flag(&mut self.fresh);
        v.num(&mut self.normal_force);
        v.num(&mut self.steady_steps);
        v.flag(&mut self.inputs_at_end);
        v.num(&mut self.order_votes);
        v.flag(&mut self.steps_vary);
        v.flag(&mut self.warned_no_step);
        let mut has = self.predicted.is_some();
        v.flag(&mut has);
        let mut predicted = self.predicted.unwrap_or([BodyState::at_rest(); 2]);
        if has {
            predicted.iter_mut().for_each(|b| v.body(b));
        }
        self.predicted = has.then_some(predicted);
        let mut has = self.pending.is_some();
        v.flag(&mut has);
        let mut p = self.pending.unwrap_or(Pending {
            start: [BodyState::at_rest(); 2],
            own_start: [BodyState::at_rest(); 2],
            own_end: [Motion::still(); 2],
            held: [zero_wrench(); 2],
            h: 0.0,
            law_work: 0.0,
            dissipated: 0.0,
            forceless: false,
            contact: (Vec3::zeros(), Vec3::zeros()),
        });
        if has {
            for k in 0..2 {
                v.body(&mut p.start[k]);
                v.body(&mut p.own_start[k]);
                v.motion(&mut p.own_end[k]);
                v.wrench(&mut p.held[k]);
            }
            v.num(&mut p.h);
            v.num(&mut p.law_work);
            v.num(&mut p.dissipated);
            v.flag(&mut p.forceless);
            v.vec(&mut p.contact.0);
            v.vec(&mut p.contact.1);
        }
        self.pending = has.then_some(p);
        v.flag(&mut self.evaluated);
        v.flag(&mut self.held_from_prediction);
        let mut has = self.run_from.is_some();
        v.flag(&mut has);
        let mut from = self.run_from.unwrap_or(RunFrom { h: 0.0, start: [BodyState::at_rest(); 2], pay: [zero_wrench(); 2] });
        if has {
            v.num(&mut from.h);
            from.start.iter_mut().for_each(|b| v.body(b));
            from.pay.iter_mut().for_each(|w| v.wrench(w));
        }
        self.run_from = has.then_some(from);
        for measured in self.measured.iter_mut().flatten() {
            let mut has = measured.is_some();
            let mut value = measured.unwrap_or_else(Vec3::zeros);
            v.flag(&mut has);
            v.vec(&mut value);
            *measured = has.then_some(value);
        }
    }
}

impl Coupling {
    /// The FMU state: every number that carries over a step (the averaged step behind the
    /// current outputs is recomputed after a restore).
    pub fn write(&self, out: &mut Vec<u8>) {
        self.carry.clone().visit(&mut Writer(out));
    }

    /// Inverse of [`Coupling::write`].
    pub fn read(reader: &mut fmi_export::table::Reader<'_>) -> Result<Coupling, String> {
        let mut carry = Carry::default();
        let mut r = Reader { next: || reader.f64(), error: None };
        carry.visit(&mut r);
        match r.error {
            Some(e) => Err(e),
            None => Ok(Coupling { carry, ..Coupling::default() }),
        }
    }
}
