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
use crate::physics::geometry::ContactPoint;
use crate::physics::math::{BodyState, Vec3};
use crate::physics::rigid_motion::{External, MassProperties, Motion};

pub use crate::physics::parameters::CouplingMode;

/// Force and torque about the frame origin on one body, in W.
pub type ForceTorque = (Vec3, Vec3);

/// The bodies as the block integrates them over a step: mass properties, the other forces, and
/// what the coupling adds to the contact's own wrench (model/coupling.rs says where each comes
/// from).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bodies {
    pub mass: [MassProperties; 2],
    pub external: [External; 2],
    /// How much of a free body's response to the contact wrench each body shows (1: a free body
    /// of `mass`; below 1: a body that joints or other contacts make heavier in the contact
    /// direction): the block's own copy of the body turns and moves under the wrench times this.
    pub response: [f64; 2],
    /// The impulse (N.s) and angular impulse about the frame origin (N.m.s) each body lacks
    /// against the block's own copy of it (from earlier steps): the copies start as if the body
    /// had it.
    pub owed: [ForceTorque; 2],
    /// A wrench held over the step besides the contact's, on each body: how much of the owed
    /// impulse the step pays, reported with the average.
    pub pay: [ForceTorque; 2],
    /// A wrench held over the step that only the bodies receive, not the block's own copies of
    /// them (to move a body toward its copy).
    pub unseen: [ForceTorque; 2],
    /// Energy (J) to take out of the bodies over the step, by an extra damping along the contact
    /// normal that acts only while the law pushes and never pulls: how the coupling gives back
    /// energy it put in.
    pub dissipate: f64,
}

impl Bodies {
    /// Free bodies with nothing owed and no extra damping.
    pub fn free(mass: [MassProperties; 2], external: [External; 2]) -> Bodies {
        let zero = (Vec3::zeros(), Vec3::zeros());
        Bodies { mass, external, response: [1.0; 2], owed: [zero; 2], pay: [zero; 2], unseen: [zero; 2], dissipate: 0.0 }
    }
}

/// The frame of a body state, as the block's inputs carry it.
pub fn frame_of(body: &BodyState) -> Frame {
    let q = body.pose.q.quaternion();
    Frame { r_0: body.pose.r.into(), q: [q.w, q.i, q.j, q.k], v_0: body.v.into(), w_0: body.w.into() }
}

/// What one averaged step gives besides the outputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepEnd {
    /// Both bodies' motion at the step's end.
    pub motion: [Motion; 2],
    /// The work (J) the law's forces did on both bodies over the step (not the owed wrench's, nor
    /// the extra damping's): what the contact stored (negative) or gave back (positive).
    pub law_work: f64,
    /// The energy (J) the extra damping took out of the bodies (`Bodies::dissipate`).
    pub dissipated: f64,
    /// No force acted at any sub-step.
    pub forceless: bool,
    /// No contact could start within the step, which was integrated in one step, without
    /// evaluating the contact again ([`Block::free_flight_again`]).
    pub free_flight: bool,
}

/// [`Motion::to_frame`] with the body's `q com` (`arm`) already computed.
#[inline]
fn to_frame(m: &Motion, arm: &Vec3) -> BodyState {
    BodyState { pose: crate::physics::math::Pose { r: m.c - arm, q: m.q }, v: m.v_c - m.w.cross(arm), w: m.w }
}

/// [`Motion::torque_about_com`] with the body's `q com` (`arm`) already computed.
#[inline]
fn torque_about_com(arm: &Vec3, f: &Vec3, t_0: &Vec3) -> Vec3 {
    t_0 - arm.cross(f)
}

/// Power (W) of a wrench (force, torque about C) on a body moving with `m`.
#[inline]
fn power(m: &Motion, f: &Vec3, t_c: &Vec3) -> f64 {
    f.dot(&m.v_c) + t_c.dot(&m.w)
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
        for k in 0..2 {
            // The owed impulse, times the response, as a kick (half kicks of length 2: the
            // velocity moves by the impulse over the mass).
            let (f, t) = &bodies.owed[k];
            if *f != Vec3::zeros() || *t != Vec3::zeros() {
                let s = bodies.response[k];
                let t_c = motion[k].torque_about_com(&mass[k], f, t);
                motion[k].half_kick(&mass[k], &(f * s), &(t_c * s), &External::default(), 2.0);
            }
        }
        // The frames only: the block refuses StepAverage with a law provided by input, so the
        // provided forces stay zero and are not rewritten at every sub-step.
        // Each body's centre of mass from its frame origin (`q com`, in W) as Motion's own
        // conversions compute it: only a drift turns a body, so it is computed once per sub-step
        // and shared by the conversions, the torques about C and the powers below.
        let arms = |m: &[Motion; 2]| -> [Vec3; 2] { std::array::from_fn(|k| m[k].q * mass[k].com) };
        let frames_of = |m: &[Motion; 2], arm: &[Vec3; 2]| (frame_of(&to_frame(&m[0], &arm[0])), frame_of(&to_frame(&m[1], &arm[1])));
        let mut arm = arms(&motion);

        let (frame_a, frame_b) = frames_of(&motion, &arm);
        let mut inputs = Inputs::of_frames(frame_a, frame_b);
        let mut notes = self.evaluate(&inputs, scratch, end_states, out)?;
        if let Some(end) = Self::free_flight(&mut motion, bodies, h, self.is_stateful(), states, out) {
            return Ok((notes, end));
        }
        let mut now = out.clone();
        let mut impulse = bodies.pay.map(|(f, t)| (f * h, t * h));
        let (mut normal_integral, mut friction_integral, mut law_work) = (0.0, 0.0, 0.0);
        let mut max_normal_force = now.normal_force;
        let mut max_points = now.points;
        // The wrench on each body as its own copy moves under it: the law's and the extra
        // damping's (about C), times the body's response.
        let applied = |arm: &[Vec3; 2], law: &[ForceTorque; 2], extra: &[ForceTorque; 2], k: usize| -> ForceTorque {
            let t_c = torque_about_com(&arm[k], &law[k].0, &law[k].1) + extra[k].1;
            let s = bodies.response[k];
            ((law[k].0 + extra[k].0) * s, t_c * s)
        };
        let law_power = |m: &[Motion; 2], arm: &[Vec3; 2], law: &[ForceTorque; 2]| -> f64 {
            (0..2).map(|k| power(&m[k], &law[k].0, &torque_about_com(&arm[k], &law[k].0, &law[k].1))).sum()
        };
        // The extra damping: as strong as a sub-step takes stably, until it has taken out the
        // energy asked for.
        let mobility: f64 = (0..2).filter(|k| mass[*k].is_movable()).map(|k| bodies.response[k] / mass[k].mass).sum();
        let strong = if mobility > 0.0 { 0.25 / (mobility * dt) } else { 0.0 };
        let mut dissipated = 0.0;
        // The damping for the next sub-step: no more than takes out what is left at the speed now.
        let damping_now = |m: &[Motion; 2], out: &Outputs, dissipated: f64| -> f64 {
            let left = bodies.dissipate - dissipated;
            if left <= 0.0 || out.normal_force <= 0.0 {
                return 0.0;
            }
            let v_n = Self::normal_speed(m, out);
            strong.min(left / (v_n * v_n * dt).max(f64::MIN_POSITIVE))
        };
        for _ in 0..substeps {
            let before = now.wrenches();
            let damping = damping_now(&motion, &now, dissipated);
            let extra_before = Self::extra_damping(&motion, &now, damping);
            let power_before = law_power(&motion, &arm, &before);
            let (normal_before, friction_before) = (now.normal_force, now.friction_force);
            if self.is_stateful() {
                self.advance(&inputs, scratch, end_states, dt)?;
            }
            let kick_before: [ForceTorque; 2] = std::array::from_fn(|k| applied(&arm, &before, &extra_before, k));
            for k in 0..2 {
                motion[k].half_kick(&mass[k], &kick_before[k].0, &kick_before[k].1, &ext[k], dt);
                motion[k].drift(&mass[k], dt);
            }
            arm = arms(&motion);
            // The law sees the velocity at the end of the sub-step as the held wrench would
            // make it (its damping term needs a velocity before the end's wrench is known).
            let mut predicted = motion;
            for k in 0..2 {
                predicted[k].half_kick(&mass[k], &kick_before[k].0, &kick_before[k].1, &ext[k], dt);
            }
            (inputs.frame_a, inputs.frame_b) = frames_of(&predicted, &arm);
            let n = self.evaluate(&inputs, scratch, end_states, &mut now)?;
            notes.passed_through |= n.passed_through;
            let after = now.wrenches();
            let extra_after = Self::extra_damping(&predicted, &now, damping);
            for k in 0..2 {
                let kick = applied(&arm, &after, &extra_after, k);
                motion[k].half_kick(&mass[k], &kick.0, &kick.1, &ext[k], dt);
                // The impulse reported: the law's and the extra damping's (its torque about the
                // frame origin), the owed wrench's counted at the start.
                // (The predicted motion has turned as the motion has.)
                let to_origin = |w: &ForceTorque| w.1 + arm[k].cross(&w.0);
                impulse[k].0 += (before[k].0 + after[k].0 + extra_before[k].0 + extra_after[k].0) * (0.5 * dt);
                impulse[k].1 += (before[k].1 + after[k].1 + to_origin(&extra_before[k]) + to_origin(&extra_after[k])) * (0.5 * dt);
            }
            law_work += 0.5 * dt * (power_before + law_power(&motion, &arm, &after));
            if damping > 0.0 {
                let extra_power = |m: &[Motion; 2], x: &[ForceTorque; 2]| -> f64 { (0..2).map(|k| power(&m[k], &x[k].0, &x[k].1)).sum() };
                dissipated -= 0.5 * dt * (extra_power(&motion, &extra_before) + extra_power(&motion, &extra_after));
            }
            normal_integral += 0.5 * dt * (normal_before + now.normal_force);
            friction_integral += 0.5 * dt * (friction_before + now.friction_force);
            max_normal_force = max_normal_force.max(now.normal_force);
            max_points = max_points.max(now.points);
        }
        // The wrench the bodies alone receive, never more than the contact's own (so that the
        // contact does not pull).
        for ((impulse, (f, t)), (paid, _)) in impulse.iter_mut().zip(&bodies.unseen).zip(&bodies.pay) {
            let contact = (impulse.0 - paid * h).norm() / h;
            let share = if f.norm() > contact { contact / f.norm() } else { 1.0 };
            impulse.0 += f * (share * h);
            impulse.1 += t * (share * h);
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
        Ok((notes, StepEnd { motion, law_work, dissipated, forceless: max_normal_force == 0.0, free_flight: false }))
    }

    /// A step in which no contact can start, in one step instead of sub-steps: when nothing
    /// touches at its start (`out` evaluated there), neither body turns nor is turned, nothing is
    /// owed or paid, and the bodies cannot close the separation within the step even at their
    /// relative speed and acceleration held (`|v| h + |a| h^2 / 2`, against half the separation).
    /// Under constant accelerations the motion is then exact in one step. The stateful laws'
    /// point states must be at rest (nothing to advance; the states of laws that are not
    /// `stateful` are never read).
    #[inline(never)]
    fn free_flight(motion: &mut [Motion; 2], bodies: &Bodies, h: f64, stateful: bool, states: &[PointState], out: &mut Outputs) -> Option<StepEnd> {
        if out.points != 0 || out.normal_force != 0.0 || !Self::flies(motion, bodies, h, out.separation) || Self::stirred(stateful, states) {
            return None;
        }
        let end = Self::fly(motion, bodies, h);
        for w in [&mut out.frame_a, &mut out.frame_b] {
            w.f_0 = [0.0; 3];
            w.t_0 = [0.0; 3];
        }
        out.normal_force = 0.0;
        out.friction_force = 0.0;
        out.max_normal_force = 0.0;
        out.active = false;
        Some(end)
    }

    /// A step whose run from `held` was a free flight (`StepEnd::free_flight`, `separation` apart
    /// at its start), flown again from `start` over `h` without evaluating the contact: where
    /// neither body turned between the two starts and the bodies, moved against each other by
    /// `d` between them, are still clear of the bound with the separation `separation - |d|`
    /// (a translation by `d` changes the distance between two shapes by at most `|d|`). The step
    /// from `start` is then a free flight too, its wrench zero and its end motion the one that
    /// [`Block::step_average`] would give. `None` where that cannot be shown so.
    pub fn free_flight_again(&self, held: &[BodyState; 2], separation: f64, start: &[BodyState; 2], bodies: &Bodies, h: f64, states: &[PointState]) -> Option<StepEnd> {
        if start[0].pose.q != held[0].pose.q || start[1].pose.q != held[1].pose.q {
            return None;
        }
        let moved = (start[1].pose.r - held[1].pose.r) - (start[0].pose.r - held[0].pose.r);
        let mass = &bodies.mass;
        let mut motion = [Motion::from_frame(&start[0], &mass[0]), Motion::from_frame(&start[1], &mass[1])];
        if !Self::flies(&motion, bodies, h, separation - moved.norm()) || Self::stirred(self.is_stateful(), states) {
            return None;
        }
        Some(Self::fly(&mut motion, bodies, h))
    }

    /// A stateful law's point states are not at rest.
    fn stirred(stateful: bool, states: &[PointState]) -> bool {
        stateful && states.iter().any(|s| *s != PointState::default())
    }

    /// The bounds of [`Block::free_flight`] on bodies moving as `motion`, `separation` apart.
    fn flies(motion: &[Motion; 2], bodies: &Bodies, h: f64, separation: f64) -> bool {
        let mass = &bodies.mass;
        // (Component by component: this runs at every step out of contact.)
        let zero = |v: &Vec3| v.x == 0.0 && v.y == 0.0 && v.z == 0.0;
        let still = |k: usize| zero(&motion[k].w) && (zero(&bodies.external[k].torque) || !mass[k].rotates());
        let none = |w: &[ForceTorque; 2]| w.iter().all(|(f, t)| zero(f) && zero(t));
        let apart = separation > 0.0 && separation.is_finite();
        if !(apart && still(0) && still(1) && none(&bodies.owed) && none(&bodies.pay) && none(&bodies.unseen)) {
            return false;
        }
        let accel = |k: usize| if mass[k].is_movable() { bodies.external[k].accel } else { Vec3::zeros() };
        let closing = (motion[1].v_c - motion[0].v_c).norm() * h + 0.5 * (accel(1) - accel(0)).norm() * h * h;
        !(closing.is_nan() || closing >= 0.5 * separation)
    }

    /// The free flight itself: both bodies under their other forces alone over `h`.
    fn fly(motion: &mut [Motion; 2], bodies: &Bodies, h: f64) -> StepEnd {
        let mass = &bodies.mass;
        for k in 0..2 {
            motion[k].half_kick(&mass[k], &Vec3::zeros(), &Vec3::zeros(), &bodies.external[k], h);
            motion[k].drift(&mass[k], h);
            motion[k].half_kick(&mass[k], &Vec3::zeros(), &Vec3::zeros(), &bodies.external[k], h);
        }
        StepEnd { motion: *motion, law_work: 0.0, dissipated: 0.0, forceless: true, free_flight: true }
    }

    /// The speed (m/s) at which B leaves A at the contact point along the normal.
    #[inline]
    fn normal_speed(m: &[Motion; 2], now: &Outputs) -> f64 {
        let p = Vec3::from(now.p_0);
        let point_velocity = |k: usize| m[k].v_c + m[k].w.cross(&(p - m[k].c));
        (point_velocity(1) - point_velocity(0)).dot(&Vec3::from(now.n_0))
    }

    /// The extra damping's force and torque about C on each body (A, B) with the bodies moving
    /// as `m`: `-c v_n` along the contact normal at the contact point, `v_n` the speed at which
    /// B leaves A there, only while the law pushes (`normal_force > 0`) and never more than it
    /// pushes when the bodies part (the contact does not pull).
    #[inline]
    fn extra_damping(m: &[Motion; 2], now: &Outputs, c: f64) -> [ForceTorque; 2] {
        let zero = (Vec3::zeros(), Vec3::zeros());
        if c == 0.0 || now.normal_force <= 0.0 {
            return [zero; 2];
        }
        let (n, p) = (Vec3::from(now.n_0), Vec3::from(now.p_0));
        let f = (-c * Self::normal_speed(m, now)).max(-now.normal_force);
        let on_b = n * f;
        [(-on_b, (p - m[0].c).cross(&-on_b)), (on_b, (p - m[1].c).cross(&on_b))]
    }
}
