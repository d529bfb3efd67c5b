//! StepAverage for a whole scene: the scene integrates ALL its movable bodies together over the
//! coming step, in sub-steps of velocity Verlet (`contact_physics::rigid_motion`, ContactForce's
//! StepAverage's rule: `ceil(h / max_substep)` equal sub-steps, every contact evaluated at each,
//! the law's damping read at the velocity the held wrench would give at the sub-step's end), and
//! reports the impulse each body receives over the step divided by the step. Held by the
//! importer over the step, that wrench gives every body exactly the momentum the contacts give
//! it, whatever the step and however many contacts a body has.
//!
//! From step to step ([`Coupling`]) the scene reconciles its own copy of the bodies with the
//! bodies as reported, as ContactForce's StepAverage does for its two (src/model/coupling.rs):
//!
//! - **The other forces** on each body (gravity, joints, drives): its change of velocity over the
//!   last step less what the held wrench gave it (and the change of angular momentum about its
//!   centre of mass less the held torque), used over the next step.
//! - **The drift**: a body that moved under the held average ends its step off the scene's own
//!   copy (by the force's first moment over the step); the offset is measured at each step's end
//!   and the next step starts from the reported position less it, so the contacts' physics
//!   happens in the scene's own consistent world. In a lasting contact a force on the body alone
//!   (not on the copy) takes a quarter of the offset out per step, so that a resting body comes
//!   to its static depth. When a body's contacts have ended (a step without any), its offset is
//!   corrected by an impulse pair on the body alone over the next two steps (`m d / h` then its
//!   opposite): it ends on the copy with the copy's velocity, momentum unchanged, so it keeps the
//!   energy the contacts gave the copy (a ball whose impact ends inside a 10 ms step would
//!   otherwise rebound lower by the offset, 2.5 % of its speed).
//! - **The step's size**: outputs cannot know the coming step's size; they average over the
//!   longest of the last few steps. Held over another step, it is integrated again over the
//!   actual one; the difference of impulse is owed to the bodies and paid with the next outputs
//!   (at the rate that pays it over that longest step, so that a shorter step never overpays).
//! - **The master's order** is the caller's to say ([`Inputs`]): the states a DoStep is given are
//!   the bodies at its start (Jacobi) or at its end (Gauss-Seidel, the bodies stepped first), or
//!   none (Gauss-Seidel, the scene first: its outputs were computed from the step's start).

mod state;

use contact_physics::master_order;
use contact_physics::mobility::{is_impact, learnt, response_sample, step_noise};
use contact_physics::math::{BodyState, Vec3};
use contact_physics::rigid_motion::{External, MassProperties, Motion};

use crate::scene::{Scene, SceneOutputs, Workspace};

/// Force (N) and torque about the frame origin (N.m), in W.
pub type ForceTorque = (Vec3, Vec3);

fn zero() -> ForceTorque {
    (Vec3::zeros(), Vec3::zeros())
}

/// One step of the scene's own integration.
#[derive(Clone, Debug)]
pub struct Averaged {
    /// The impulse of the contacts over the step divided by the step, per body.
    pub wrenches: Vec<ForceTorque>,
    /// The bodies' motion at the step's end.
    pub end: Vec<Motion>,
    /// The outputs at the sub-steps' extremes: per body the largest contact normal force and
    /// the most touching bodies; the most active contacts and the deepest penetration.
    pub peak: SceneOutputs,
    /// Per body: whether any contact pushed it at any sub-step, whether one does at the last,
    /// and its contacts' normal force (summed) averaged over the step (N).
    pub touched: Vec<bool>,
    pub touching_at_end: Vec<bool>,
    pub normal_force: Vec<f64>,
    /// The pairs (i < j) whose contacts pushed at any sub-step, sorted.
    pub pairs: Vec<(u32, u32)>,
}

/// Mass properties that answer forces with the share `response` of `mass`'s answer.
fn shown_mass(mass: &MassProperties, response: f64) -> MassProperties {
    if response == 1.0 {
        *mass
    } else {
        MassProperties { mass: mass.mass / response, inertia: mass.inertia / response, com: mass.com }
    }
}

/// A driven body (mass 0: its motion is its inputs') keeps the acceleration measured over the
/// last step (`ext.accel`): half of a sub-step's change of velocity.
fn driven_kick(motion: &mut Motion, mass: &MassProperties, ext: &External, dt: f64) {
    if !mass.is_movable() {
        motion.v_c += ext.accel * (0.5 * dt);
    }
}

impl Scene {
    /// The scene's bodies integrated together over `h` from `start` (their frames' states), with
    /// the other forces `external` on each, each body also given the impulse `owed` (N.s, N.m.s
    /// about the frame origin) spread evenly over the step, as the importer's body receives it
    /// (paid as a kick at the start instead, the copy ran ahead of the body by `owed h / 2m`,
    /// an offset the pull then took out with a second impulse): the contacts' wrench averaged
    /// over the step. Each body answers forces with the share `response` of its own mass
    /// properties' answer (1 for a free body; less for one that shows more mass than its own).
    pub fn integrate(&self, start: &[BodyState], external: &[External], owed: &[ForceTorque], response: &[f64], h: f64, work: &mut Workspace) -> Averaged {
        let n = self.len();
        let substeps = (h / self.max_substep * (1.0 - 1e-12)).ceil().max(1.0) as u64;
        let dt = h / substeps as f64;
        let mass: Vec<MassProperties> = self.bodies.iter().zip(response).map(|(b, s)| shown_mass(&b.mass, *s)).collect();
        let mut motion: Vec<Motion> = (0..n).map(|k| Motion::from_frame(&start[k], &mass[k])).collect();
        let external: Vec<External> = (0..n)
            .map(|k| {
                let (f, t) = &owed[k];
                let mut e = external[k];
                if mass[k].is_movable() && (*f != Vec3::zeros() || *t != Vec3::zeros()) {
                    e.accel += f / (mass[k].mass * h);
                    e.torque += motion[k].torque_about_com(&mass[k], f, t) / h;
                }
                e
            })
            .collect();
        let frames = |m: &[Motion]| -> Vec<BodyState> { m.iter().zip(&mass).map(|(m, mass)| m.to_frame(mass)).collect() };
        let mut now = SceneOutputs::zeros(n);
        self.evaluate(&frames(&motion), work, &mut now);
        let mut peak = now.clone();
        let mut impulse = vec![zero(); n];
        let mut normal = vec![0.0; n];
        let mut touched: Vec<bool> = now.bodies.iter().map(|b| b.touching > 0).collect();
        let mut pairs = work.touching.clone();
        let normal_of = |o: &SceneOutputs, k: usize| -> f64 { o.bodies[k].max_normal_force * f64::from(o.bodies[k].touching.min(1)) };
        let mut totals = vec![0.0; n];
        let mut after = SceneOutputs::zeros(n);
        for _ in 0..substeps {
            let kick_before: Vec<ForceTorque> = (0..n).map(|k| (now.bodies[k].f_0, motion[k].torque_about_com(&mass[k], &now.bodies[k].f_0, &now.bodies[k].t_0))).collect();
            for k in 0..n {
                motion[k].half_kick(&mass[k], &kick_before[k].0, &kick_before[k].1, &external[k], dt);
                driven_kick(&mut motion[k], &mass[k], &external[k], dt);
                motion[k].drift(&mass[k], dt);
            }
            // The laws see the velocity at the sub-step's end as the held wrench would make it.
            let mut predicted = motion.clone();
            for k in 0..n {
                predicted[k].half_kick(&mass[k], &kick_before[k].0, &kick_before[k].1, &external[k], dt);
                driven_kick(&mut predicted[k], &mass[k], &external[k], dt);
            }
            self.evaluate(&frames(&predicted), work, &mut after);
            pairs.extend_from_slice(&work.touching);
            for k in 0..n {
                let (f, t) = (after.bodies[k].f_0, after.bodies[k].t_0);
                let t_c = motion[k].torque_about_com(&mass[k], &f, &t);
                motion[k].half_kick(&mass[k], &f, &t_c, &external[k], dt);
                driven_kick(&mut motion[k], &mass[k], &external[k], dt);
                impulse[k].0 += (now.bodies[k].f_0 + f) * (0.5 * dt);
                impulse[k].1 += (now.bodies[k].t_0 + t) * (0.5 * dt);
                totals[k] = normal_of(&after, k);
                normal[k] += 0.5 * dt * (normal_of(&now, k) + totals[k]);
                touched[k] |= after.bodies[k].touching > 0;
                let p = &mut peak.bodies[k];
                p.max_normal_force = p.max_normal_force.max(after.bodies[k].max_normal_force);
                p.touching = p.touching.max(after.bodies[k].touching);
            }
            peak.active_contacts = peak.active_contacts.max(after.active_contacts);
            peak.max_penetration = peak.max_penetration.max(after.max_penetration);
            std::mem::swap(&mut now, &mut after);
        }
        pairs.sort_unstable();
        pairs.dedup();
        Averaged {
            pairs,
            wrenches: impulse.iter().map(|(p, l)| (p / h, l / h)).collect(),
            touching_at_end: now.bodies.iter().map(|b| b.touching > 0).collect(),
            end: motion,
            touched,
            normal_force: normal.iter().map(|x| x / h).collect(),
            peak,
        }
    }
}

/// The bodies' states at a step's start are needed and were never given: outputs asked for, or
/// a step taken, with no states before the first step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownStart;

impl std::fmt::Display for UnknownStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the bodies' states at the step's start are not known: give them (r_0, q, v_0, w_0 of every body) with the first outputs or the first step")
    }
}

impl std::error::Error for UnknownStart {}

/// What the bodies' states given with a DoStep are (the master's order).
#[derive(Clone, Copy, Debug)]
pub enum Inputs<'a> {
    /// None: the outputs were computed from the step's start (Gauss-Seidel, the scene first).
    None,
    /// The bodies at the step's start, set after the outputs were read (Jacobi).
    AtStart(&'a [BodyState]),
    /// The bodies at the step's end (Gauss-Seidel, the bodies stepped first).
    AtEnd(&'a [BodyState]),
}

/// The averaged step behind the current outputs.
#[derive(Clone, Debug)]
struct Run {
    h: f64,
    /// The bodies as reported at the step's start, and the scene's own world there.
    reported: Vec<BodyState>,
    own: Vec<BodyState>,
    averaged: Averaged,
    /// The wrench reported: the contacts' average, the owed impulse's rate, and the forces on
    /// the bodies alone (`unseen`: the pull and the correction).
    output: Vec<ForceTorque>,
    pay: Vec<ForceTorque>,
    unseen: Vec<Vec3>,
    /// The part of `unseen` that is the correction of an offset (the rest is the pull).
    correction: Vec<Vec3>,
}

/// A committed step, until the bodies' states at its end arrive.
#[derive(Clone, Debug)]
struct Pending {
    start: Vec<BodyState>,
    own_start: Vec<BodyState>,
    own_end: Vec<Motion>,
    held: Vec<ForceTorque>,
    touched: Vec<bool>,
    /// The bodies' velocity offsets from the scene's copy at the step's start.
    v_offset: Vec<Vec3>,
    /// The impulse owed to each body because the step was integrated again after its outputs
    /// were read (N.s): the copy received it over the step, the body not.
    redo_owed: Vec<Vec3>,
    h: f64,
}

/// How fast the offset of a body in a lasting contact is removed: this share per step.
const REST_RELAXATION: f64 = 0.25;
/// An offset below this (m) is left alone by the pull.
const REST_DEADBAND: f64 = 1e-7;

/// StepAverage from step to step (module documentation).
#[derive(Clone, Debug)]
pub struct Coupling {
    external: Vec<External>,
    /// Each body's offset from the scene's own copy: `c_body = c_own + drift`, and while a
    /// correction moves it back, its velocity's: `v_body = v_own + v_offset` (zero otherwise).
    drift: Vec<Vec3>,
    v_offset: Vec<Vec3>,
    /// Which bodies exchanged impulse since their offsets were last corrected (a label per
    /// body, shared by those that touched, directly or through others): their offsets sum to
    /// no momentum, so they are corrected together.
    island: Vec<u64>,
    next_island: u64,
    /// The other forces were measured (a step was reconciled).
    measured: bool,
    /// Impulse (N.s) and angular impulse about the frame origin (N.m.s) owed to each body.
    owed: Vec<ForceTorque>,
    /// The bodies at the next step's start as the scene expects them (reported world).
    predicted: Option<Vec<BodyState>>,
    pending: Option<Pending>,
    run: Option<Run>,
    /// The correction of a body's offset once its contacts ended: the impulse (N.s) on the body
    /// alone planned for the coming step, and the one due after it that takes the velocity it
    /// gave back (together they move the body onto the scene's copy, momentum unchanged).
    correction: Vec<[Vec3; 2]>,
    /// Steps in a row each body's contacts pushed with an average within a fifth of the step
    /// before's (a lasting contact), and that average.
    steady: Vec<u32>,
    normal_force: Vec<f64>,
    /// The sizes of the last steps taken, newest first (0 before there were any).
    recent_steps: [f64; RECENT_STEPS],
    /// The master's order as [`Coupling::do_step_given`] tells it: the states given with a
    /// DoStep are the bodies at its end; and the steps in a row that said otherwise.
    inputs_at_end: bool,
    order_votes: u32,
    /// The share of its own mass properties' answer with which each body answered the held
    /// forces (learnt; 1 for a free body), and the last step's sample: the impulse held (N.s)
    /// and the change of velocity the other forces known then did not explain (m/s).
    response: Vec<f64>,
    response_sample: Vec<Option<(Vec3, Vec3)>>,
    /// The force each body held over the last reconciled step (N).
    last_held: Vec<Vec3>,
    work: Workspace,
}

/// How many of the last steps' sizes the outputs' averaging (and the owed impulse's payment)
/// looks at.
const RECENT_STEPS: usize = 4;

/// The other forces on body `k` before a step measures them: its weight when the scene knows
/// gravity (`coupling.gravity`), else none.
fn known_forces(scene: &Scene, k: usize) -> External {
    let movable = scene.bodies[k].mass.is_movable();
    External { accel: if movable { scene.gravity } else { Vec3::zeros() }, torque: Vec3::zeros() }
}

/// A body's frame state moved by `dr` (its centre of mass and so its frame).
fn moved(state: &BodyState, dr: &Vec3) -> BodyState {
    let mut s = *state;
    s.pose.r += dr;
    s
}

impl Coupling {
    /// The mass body `k` shows to the held forces (kg): its own over its learnt response.
    fn shown(&self, scene: &Scene, k: usize) -> f64 {
        scene.bodies[k].mass.mass / self.response[k]
    }

    /// The share of its own mass properties' answer with which body `k` answered the held
    /// forces: 1 for a free body, less for one that shows more mass (a joint, a drive, a body
    /// whose motion its FMU prescribes).
    pub fn response(&self, k: usize) -> f64 {
        self.response[k]
    }

    pub fn new(scene: &Scene) -> Coupling {
        let n = scene.len();
        Coupling {
            external: (0..n).map(|k| known_forces(scene, k)).collect(),
            drift: vec![Vec3::zeros(); n],
            v_offset: vec![Vec3::zeros(); n],
            island: (0..n as u64).collect(),
            next_island: n as u64,
            measured: false,
            owed: vec![zero(); n],
            predicted: None,
            pending: None,
            run: None,
            correction: vec![[Vec3::zeros(); 2]; n],
            steady: vec![0; n],
            normal_force: vec![0.0; n],
            recent_steps: [0.0; RECENT_STEPS],
            inputs_at_end: false,
            order_votes: 0,
            response: vec![1.0; n],
            response_sample: vec![None; n],
            last_held: vec![Vec3::zeros(); n],
            work: Workspace::default(),
        }
    }

    /// The other forces estimated on body `k`.
    pub fn external(&self, k: usize) -> External {
        self.external[k]
    }

    /// The impulse (N.s) and angular impulse about the frame origin (N.m.s) owed to body `k`.
    pub fn owed(&self, k: usize) -> ForceTorque {
        self.owed[k]
    }

    /// Body `k`'s offset from the scene's own copy (m).
    pub fn drift(&self, k: usize) -> Vec3 {
        self.drift[k]
    }

    /// The peaks of the step behind the current outputs (largest normal force per body, most
    /// active contacts, deepest penetration), once [`Coupling::outputs`] ran.
    pub fn peak(&self) -> Option<&SceneOutputs> {
        self.run.as_ref().map(|r| &r.averaged.peak)
    }

    /// The wrench on each body averaged over the coming step of `h`, from the bodies as reported
    /// at its start (`start`), or, when the master reads the outputs before it sets the inputs
    /// (Jacobi, or the bodies stepped first), from where the scene expects them.
    ///
    /// Fails only when `start` is `None` before any step: the scene expects nothing yet.
    pub fn outputs(&mut self, scene: &Scene, start: Option<&[BodyState]>, h: f64) -> Result<&[ForceTorque], UnknownStart> {
        let run = self.start_run(scene, start, h)?;
        Ok(self.run.insert(run).output.as_slice())
    }

    /// The averaged step of `h` from `start` (the step before reconciled with it), or from where
    /// the scene expects the bodies.
    fn start_run(&mut self, scene: &Scene, start: Option<&[BodyState]>, h: f64) -> Result<Run, UnknownStart> {
        let reported = match start {
            Some(s) => {
                if let Some(p) = self.pending.take() {
                    self.reconcile(scene, &p, s);
                }
                s.to_vec()
            }
            None => self.predicted.clone().ok_or(UnknownStart)?,
        };
        if !self.measured && self.pending.is_none() {
            self.assume_rest(scene, &reported);
        }
        Ok(self.run_from(scene, reported, h))
    }

    /// Before the first step the other forces are unknown (the first step measures them), unless
    /// the scene was told gravity (`coupling.gravity`: each movable body's weight). A body
    /// that starts at rest and touching is otherwise taken to rest there: its other forces balance its
    /// contacts' wrench, as for a stack placed at its static depths (ContactForce does the same).
    /// Without it the scene's copy of a resting stack springs up over the first step, without
    /// gravity, and the stack drops while the scene learns its weight (1.6 mm under a Jacobi
    /// master at 10 ms).
    fn assume_rest(&mut self, scene: &Scene, reported: &[BodyState]) {
        if scene.gravity != Vec3::zeros() {
            // Known: every movable body's other forces are its weight until measured.
            return;
        }
        let n = scene.len();
        let mut out = SceneOutputs::zeros(n);
        scene.evaluate(reported, &mut self.work, &mut out);
        for (k, body) in scene.bodies.iter().enumerate() {
            let (mass, state) = (&body.mass, &reported[k]);
            self.external[k] = External::default();
            if !mass.is_movable() || state.v != Vec3::zeros() || state.w != Vec3::zeros() || out.bodies[k].touching == 0 {
                continue;
            }
            let (f, t_0) = (out.bodies[k].f_0, out.bodies[k].t_0);
            self.external[k].accel = -f / self.shown(scene, k);
            if mass.rotates() {
                self.external[k].torque = -Motion::from_frame(state, mass).torque_about_com(mass, &f, &t_0);
            }
        }
    }

    fn run_from(&mut self, scene: &Scene, reported: Vec<BodyState>, h: f64) -> Run {
        let n = scene.len();
        let own: Vec<BodyState> = (0..n).map(|k| self.own(scene, k, &reported[k])).collect();
        // The outputs cannot know the coming step's size: they average the contacts over the
        // longest of `h` and the last steps, and pay the owed impulse at the rate that pays it
        // over that. Held over a shorter step, such an average gives less than the step's own
        // impulse and the payment pays less than is owed, and the step integrated again owes the
        // rest; averaged over a shorter step and held over a longer one, a stiff contact's
        // force at omega h ~ 3 is held far past where it changes sign, and the owed payment
        // overpays by the ratio less one: a stack under a master cycling through 1, 3 and 10 ms
        // steps (or 1 and 10 ms) was thrown within ten cycles, in every order.
        let h = self.recent_steps.iter().fold(h, |a, b| a.max(*b));
        let pay: Vec<ForceTorque> = self.owed.iter().map(|(f, t)| (f / h, t / h)).collect();
        let averaged = scene.integrate(&own, &self.external, &self.owed, &self.response, h, &mut self.work);
        let correction: Vec<Vec3> = (0..n)
            .map(|k| {
                let [first, second] = self.correction[k];
                (if first != Vec3::zeros() { first } else { second }) / h
            })
            .collect();
        let unseen: Vec<Vec3> = (0..n).map(|k| self.pull(scene, k, h, averaged.wrenches[k].0.norm()) + correction[k]).collect();
        let output = (0..n)
            .map(|k| {
                let (f, t) = averaged.wrenches[k];
                let extra = unseen[k];
                (f + pay[k].0 + extra, t + pay[k].1 + (reported[k].pose.q * scene.bodies[k].mass.com).cross(&extra))
            })
            .collect();
        Run { h, reported, own, averaged, output, pay, unseen, correction }
    }

    /// Body `k` as the scene's own copy has it, from its state as reported.
    fn own(&self, scene: &Scene, k: usize, reported: &BodyState) -> BodyState {
        if !scene.bodies[k].mass.is_movable() {
            return *reported;
        }
        let mut s = moved(reported, &-self.drift[k]);
        s.v -= self.v_offset[k];
        s
    }

    /// In a lasting contact, a force on body `k` alone (not on the scene's copy) that moves it a
    /// quarter of its offset toward the copy per step, never more than its contacts' force.
    fn pull(&self, scene: &Scene, k: usize, h: f64, contact: f64) -> Vec3 {
        let mass = &scene.bodies[k].mass;
        if self.steady[k] < 2 || !mass.is_movable() || self.drift[k].norm() < REST_DEADBAND {
            return Vec3::zeros();
        }
        let f = self.drift[k] * (-REST_RELAXATION * self.shown(scene, k) / (h * h));
        if f.norm() > contact {
            f * (contact / f.norm())
        } else {
            f
        }
    }

    /// DoStep over `h`: commits the step whose outputs the importer holds. `inputs` are the
    /// bodies' states set since the outputs were read ([`Inputs`]).
    ///
    /// Outputs not computed since the last step (the caller read none) are computed now, as
    /// [`Coupling::outputs`] would have, over `h`: from the bodies given at the step's start
    /// (Jacobi), else from where the scene expects them (which, before the first step, it cannot
    /// know: [`UnknownStart`]).
    // The bodies' arrays are walked together by index.
    #[allow(clippy::needless_range_loop)]
    pub fn do_step(&mut self, scene: &Scene, h: f64, inputs: Inputs) -> Result<(), UnknownStart> {
        let mut run = match self.run.take() {
            Some(run) => run,
            None => {
                let start = match inputs {
                    Inputs::AtStart(start) => Some(start),
                    Inputs::None | Inputs::AtEnd(_) => None,
                };
                self.start_run(scene, start, h)?
            }
        };
        let held = run.output.clone();
        let mut moved = false;
        if let Inputs::AtStart(start) = inputs {
            // Jacobi: the step's start arrives now; the step before ends there.
            if let Some(p) = self.pending.take() {
                self.reconcile(scene, &p, start);
            }
            // The run was computed from where the scene expected the bodies. Where they started
            // elsewhere (a driven finger, a joint, the body's integrator), the step is
            // integrated again from there, with the other forces now measured.
            let own: Vec<BodyState> = (0..scene.len()).map(|k| self.own(scene, k, &start[k])).collect();
            moved = own != run.own;
            run.own = own;
            run.reported = start.to_vec();
        }
        let mut redo_owed = vec![Vec3::zeros(); scene.len()];
        if moved || run.h != h {
            // Integrated again from the bodies' start over the actual step, with the owed impulse
            // the held outputs pay over it (not what was owed: held over a longer step than
            // computed for, they pay more); the difference between the contacts' impulse then and
            // the one held is owed to the bodies.
            let paid: Vec<ForceTorque> = run.pay.iter().map(|(f, t)| (f * h, t * h)).collect();
            let again = scene.integrate(&run.own, &self.external, &paid, &self.response, h, &mut self.work);
            for k in 0..scene.len() {
                // The forces on the bodies alone were held as they were meant: not owed.
                let got = again.wrenches[k];
                let extra = (run.unseen[k], (run.reported[k].pose.q * scene.bodies[k].mass.com).cross(&run.unseen[k]));
                redo_owed[k] = (got.0 + run.pay[k].0 + extra.0 - held[k].0) * h;
                self.owed[k].0 += redo_owed[k];
                self.owed[k].1 += (got.1 + run.pay[k].1 + extra.1 - held[k].1) * h;
            }
            run.averaged = again;
            run.h = h;
        }
        for k in 0..scene.len() {
            self.owed[k].0 -= run.pay[k].0 * h;
            self.owed[k].1 -= run.pay[k].1 * h;
            // The correction paid over this step (its force held, whatever the step's size); the
            // first impulse is taken back by the second.
            let given = run.correction[k] * h;
            let [first, second] = &mut self.correction[k];
            if *first != Vec3::zeros() {
                *second = -given;
                *first = Vec3::zeros();
            } else if *second != Vec3::zeros() {
                let left = *second - given;
                *second = if left.norm() <= 1e-12 * second.norm() { Vec3::zeros() } else { left };
            }
        }
        let pending = Pending {
            start: run.reported.clone(),
            own_start: run.own.clone(),
            own_end: run.averaged.end.clone(),
            held,
            touched: run.averaged.touched.clone(),
            v_offset: self.v_offset.clone(),
            redo_owed,
            h,
        };
        let predicted = match inputs {
            Inputs::AtEnd(end) => {
                self.reconcile(scene, &pending, end);
                end.to_vec()
            }
            _ => {
                let p = self.reported_end(scene, &run, h, Some(&pending.redo_owed));
                self.pending = Some(pending);
                p
            }
        };
        self.correct_offsets(scene, &run, h);
        for k in 0..scene.len() {
            let force = run.averaged.normal_force[k];
            self.steady[k] = if force > 0.0 && (force - self.normal_force[k]).abs() < 0.2 * force { self.steady[k] + 1 } else { 0 };
            self.normal_force[k] = force;
        }
        self.recent_steps.rotate_right(1);
        self.recent_steps[0] = h;
        self.predicted = Some(predicted);
        Ok(())
    }

    /// Where the bodies are expected to be reported at the end of the step `run` held over `h`:
    /// the scene's copy there, moved by the offsets and by the forces on the bodies alone, less
    /// the impulse `lacking` (none: zero) that the copy received over the step and the bodies did not (what
    /// the step integrated again owed them). Not less all that is owed: the copy was paid what
    /// the bodies were (the rate `pay`), and what is still owed from earlier steps neither has
    /// yet (taken off the prediction, it put a Jacobi master's every start off the scene's
    /// expectation under a varying step, and the stack was thrown).
    fn reported_end(&self, scene: &Scene, run: &Run, h: f64, lacking: Option<&[Vec3]>) -> Vec<BodyState> {
        (0..scene.len())
            .map(|k| {
                let mass = &scene.bodies[k].mass;
                let mut m = run.averaged.end[k];
                if mass.is_movable() {
                    let shown = self.shown(scene, k);
                    let a = run.unseen[k] / shown;
                    m.c += self.drift[k] + self.v_offset[k] * h + a * (0.5 * h * h);
                    m.v_c += self.v_offset[k] + a * h - lacking.map_or_else(Vec3::zeros, |l| l[k]) / shown;
                }
                m.to_frame(mass)
            })
            .collect()
    }

    /// DoStep over `h` given the bodies' states set since the outputs were read, for a caller
    /// that does not know the master's order (an FMU): they are the bodies at the step's start
    /// (Jacobi) or at its end (Gauss-Seidel with the bodies stepped first), told apart, as
    /// ContactForce does, by which of the two the scene expects them nearer
    /// ([`master_order::inputs_at_end`]). Before the first step, states that differ from those the
    /// outputs were computed from can only be the bodies after a step. When the order turns over,
    /// what was measured against the other one (the step waiting for its end, the offsets) is
    /// dropped.
    pub fn do_step_given(&mut self, scene: &Scene, h: f64, given: &[BodyState]) -> Result<(), UnknownStart> {
        if let Some(run) = &self.run {
            let movable: Vec<usize> = (0..scene.len()).filter(|&k| scene.bodies[k].mass.is_movable()).collect();
            // Velocities tell best (the held wrench changes them over a step, not yet the
            // positions); the angular ones at 0.1 m.
            let distance = |a: &[BodyState]| -> f64 { movable.iter().map(|&k| (given[k].v - a[k].v).norm() + 0.1 * (given[k].w - a[k].w).norm()).sum() };
            let to_start = distance(&run.reported);
            let at_end = if self.recent_steps[0] == 0.0 {
                to_start > 0.0 || movable.iter().any(|&k| given[k].pose.r != run.reported[k].pose.r)
            } else {
                let to_end = distance(&self.reported_end(scene, run, h, None));
                master_order::inputs_at_end(self.inputs_at_end, &mut self.order_votes, to_start, to_end)
            };
            if at_end != self.inputs_at_end {
                self.inputs_at_end = at_end;
                self.pending = None;
                self.drift.iter_mut().chain(self.v_offset.iter_mut()).for_each(|d| *d = Vec3::zeros());
                self.correction.iter_mut().for_each(|c| *c = [Vec3::zeros(); 2]);
            }
        }
        self.do_step(scene, h, if self.inputs_at_end { Inputs::AtEnd(given) } else { Inputs::AtStart(given) })
    }

    /// The offsets after the step `run` held over `h`, and the corrections they call for.
    ///
    /// Out of contact over a whole step, the offset the contacts left is corrected over the next
    /// two steps by an impulse pair on the body alone: it ends where the scene's copy is, with
    /// the copy's velocity (and so the energy the contacts gave the copy). Until it does, the
    /// copy stays where the body would be without the correction (the offset and the velocity
    /// offset follow the correction's force), so the contacts never see a body the correction
    /// has moved halfway. The bodies that exchanged impulse since their last correction (an
    /// island) are corrected together, once none of them touches anything: their offsets,
    /// weighted by their masses, sum to zero, and so do the corrections, whose momentum is
    /// therefore zero at every step.
    // The bodies' arrays are walked together by index.
    #[allow(clippy::needless_range_loop)]
    fn correct_offsets(&mut self, scene: &Scene, run: &Run, h: f64) {
        let n = scene.len();
        let movable = |k: usize| scene.bodies[k].mass.is_movable();
        // The correction's force moved each body off the copy (the touched ones' offsets are
        // measured at the step's end instead).
        for k in 0..n {
            if !movable(k) {
                continue;
            }
            let a = run.correction[k] / self.shown(scene, k);
            if !run.averaged.touched[k] {
                self.drift[k] += self.v_offset[k] * h + a * (0.5 * h * h);
            }
            self.v_offset[k] += a * h;
            if self.correction[k] == [Vec3::zeros(); 2] && run.correction[k] != Vec3::zeros() {
                // The pair paid: the body is on the copy.
                self.drift[k] = Vec3::zeros();
                self.v_offset[k] = Vec3::zeros();
            }
        }
        // Bodies that pushed each other share an island.
        for &(i, j) in &run.averaged.pairs {
            let (i, j) = (i as usize, j as usize);
            if movable(i) && movable(j) && self.island[i] != self.island[j] {
                let (from, to) = (self.island[j], self.island[i]);
                self.island.iter_mut().filter(|l| **l == from).for_each(|l| *l = to);
            }
        }
        let busy = |c: &Coupling, k: usize| run.averaged.touched[k] || run.averaged.touching_at_end[k] || c.correction[k] != [Vec3::zeros(); 2];
        for k in 0..n {
            let label = self.island[k];
            let members: Vec<usize> = (0..n).filter(|&m| self.island[m] == label).collect();
            if members[0] != k || members.iter().any(|&m| busy(self, m)) {
                continue;
            }
            let moving: Vec<usize> = members.iter().copied().filter(|&m| movable(m) && self.drift[m] != Vec3::zeros()).collect();
            // The offsets' momentum is zero but for the copy's rounding over its sub-steps
            // (1e-15 m on positions of 0.1 m): the mean is taken out, so that the corrections'
            // impulses sum to zero to the last bits.
            let total: Vec3 = moving.iter().map(|&m| self.drift[m] * self.shown(scene, m)).sum();
            let island_mass: f64 = moving.iter().map(|&m| self.shown(scene, m)).sum();
            for &m in &moving {
                let mass = self.shown(scene, m);
                let offset = if moving.len() > 1 { self.drift[m] - total / island_mass } else { self.drift[m] };
                self.correction[m][0] = -offset * (mass / h);
            }
            // A new island for each member, once its correction (if any) is planned.
            for &m in &members {
                self.island[m] = self.next_island;
                self.next_island += 1;
            }
        }
    }

    /// Body `k` (of mass `m`) held the impulse `impulse` over the last step and changed its
    /// velocity by `dv` beyond what the other forces known then explain: the secant over this
    /// step and the one before, along the change of impulse, is a sample of its response, taken
    /// where the change of impulse, answered freely, moves the body by more than ten times
    /// `noise` (m/s, how much the other forces may change from step to step) and a tenth of
    /// either change of velocity; the response moves halfway to it: the rule of
    /// `contact_physics::mobility` by which ContactForce learns a body's response along its
    /// contact's normal. A body whose motion its FMU
    /// prescribes, answering nothing, shows 50 times its mass: taken as free, the scene's copy
    /// moved where the body did not, the impulses owed for it grew at every step, and the
    /// outputs grew without bound (by 3 times a step under a Jacobi master).
    fn learn_response(&mut self, k: usize, m: f64, impulse: Vec3, dv: Vec3, noise: f64) {
        if let Some((last_impulse, last_dv)) = self.response_sample[k] {
            let change = impulse - last_impulse;
            let dp = change.norm();
            if dp > 0.0 {
                let d_du = (dv - last_dv).dot(&(change / dp));
                if let Some(sample) = response_sample(dp, d_du, 1.0 / m, noise, dv.norm(), last_dv.norm()) {
                    self.response[k] = learnt(self.response[k], sample);
                }
            }
        }
        self.response_sample[k] = Some((impulse, dv));
    }

    /// The step `p` ended with the bodies reported as `now`: the other forces and the drift.
    ///
    /// The first step was integrated without the other forces (nothing measured them yet): once
    /// they are, it is integrated again with them from the same start, and the difference of
    /// impulse is owed to the bodies; the part of the offset the other forces made (the body
    /// moved by them, the copy not) is the importer's, not the contacts' (a box held between
    /// fingers fell freely over the first 10 ms step, 0.49 mm, and the pull, taking that offset
    /// out over twenty steps, braked its slide by up to 1.2 N of its 8 N): the copy follows the
    /// body there.
    // The bodies' arrays are walked together by index.
    #[allow(clippy::needless_range_loop)]
    fn reconcile(&mut self, scene: &Scene, p: &Pending, now: &[BodyState]) {
        let h = p.h;
        let first = !self.measured;
        self.measured = true;
        for (k, body) in scene.bodies.iter().enumerate() {
            let mass = &body.mass;
            if !mass.is_movable() {
                // A driven body: its acceleration over the step, which the next step keeps (its
                // inputs give its velocity at the step's start only; a finger lifting at 2 m/s^2
                // held at that velocity over a 1 ms step leaves the box it carries 1 mm/s behind).
                self.external[k].accel = (now[k].v - p.start[k].v) / h;
                continue;
            }
            let (m0, m1) = (Motion::from_frame(&p.start[k], mass), Motion::from_frame(&now[k], mass));
            let (f, t_0) = &p.held[k];
            let assumed = self.external[k].accel;
            let noise = step_noise(assumed.norm(), h);
            self.learn_response(k, mass.mass, f * h, m1.v_c - m0.v_c - assumed * h, noise);
            let s = self.response[k];
            // The other forces from this step, unless the held force changed enough to dominate
            // them (an impact): a joint, a drive or another body's FMU answers an impact with a
            // reaction of its own, which is not a force that lasts into the next step.
            let impact = is_impact((f - self.last_held[k]).norm(), h, 1.0 / mass.mass, noise);
            self.last_held[k] = *f;
            if !impact {
                self.external[k].accel = (m1.v_c - m0.v_c) / h - f * (s / mass.mass);
                if mass.rotates() {
                    self.external[k].torque = (m1.l - m0.l) / h - m0.torque_about_com(mass, f, t_0) * s;
                }
            }
            if p.touched[k] {
                // The copy started with the body's velocity less its offset.
                let own0 = Motion::from_frame(&p.own_start[k], mass);
                let moved = m1.c - m0.c - m0.v_c * h;
                let own_moved = p.own_end[k].c - own0.c - own0.v_c * h;
                // The impulse owed by the step integrated again moved the copy and not the body
                // (by its uniform part, `J h / 2m`): it is paid to both over the next step, and
                // the offset it left is the importer's, as the first step's: the copy follows the
                // body there. Taken out by the pull instead, it braked a box sliding between
                // fingers under a Jacobi master at 10 ms by 0.36 N of its 8 N.
                let shown = self.shown(scene, k);
                self.drift[k] += moved - own_moved + p.v_offset[k] * h + p.redo_owed[k] * (0.5 * h / shown);
                if first {
                    // The other forces moved the body, and the copy only as far as they were
                    // assumed (a body at rest): the rest is not the contacts'.
                    self.drift[k] -= (self.external[k].accel - assumed) * (0.5 * h * h);
                }
            }
        }
        if first && p.touched.iter().any(|t| *t) {
            let n = scene.len();
            let again = scene.integrate(&p.own_start, &self.external, &vec![zero(); n], &self.response, h, &mut self.work);
            for k in 0..n {
                if scene.bodies[k].mass.is_movable() && (p.touched[k] || again.touched[k]) {
                    self.owed[k].0 += (again.wrenches[k].0 - p.held[k].0) * h;
                    self.owed[k].1 += (again.wrenches[k].1 - p.held[k].1) * h;
                }
            }
        }
    }
}
