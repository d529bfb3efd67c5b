//! The contact block: a geometry pair and its laws, from the two bodies' inputs to the outputs.
//!
//! [`Parameters`], [`Inputs`] and [`Outputs`] hold the user-facing values exactly as the interface
//! names them (shared/spec/interface.md); their `Default` impls are the documented defaults.
//! [`Block::new`] validates the parameters once, when initialisation ends, and turns them into
//! typed physics; [`Block::evaluate`] is the per-call work.
#![forbid(unsafe_code)]

mod cloud_plane;
mod interpolate;
mod onset;
mod derivative_layout;
pub mod jacobian;
mod parameters;
mod single_point;
mod slots;
mod step_average;

pub use interpolate::INPUT_COUNT;
pub use step_average::{frame_of, Bodies, CouplingMode, ForceTorque, StepEnd};
pub use parameters::{
    friction_law, normal_law, refuse_provided_laws, BodyParameters, CouplingParameters, FrictionParameters, GeometryParameters, NormalParameters, ParameterError, Parameters, StepAverageSetup,
};


use crate::physics::contact::{self, Laws, PointForce, PointState};
use crate::physics::geometry::{ContactPoint, GeometryPair, PointQueries};
use crate::physics::math::{normalised, quaternion_from_wxyz, quaternion_problem, BodyState, Pose, Vec3};
use crate::physics::provided::{Given, LawInputs};
use nalgebra::Quaternion;

pub use crate::physics::math::QUATERNION_NORM_TOLERANCE;

/// Pose and twist of one body's frame, resolved in W.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub r_0: [f64; 3],
    /// (w, x, y, z), rotates body-frame vectors into W.
    pub q: [f64; 4],
    pub v_0: [f64; 3],
    pub w_0: [f64; 3],
}

impl Default for Frame {
    fn default() -> Self {
        Frame { r_0: [0.0; 3], q: [1.0, 0.0, 0.0, 0.0], v_0: [0.0; 3], w_0: [0.0; 3] }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs {
    pub frame_a: Frame,
    pub frame_b: Frame,
    /// Per point slot, the forces a user's law gives where `normal.law` or `friction.law` is
    /// ProvidedByInput (`contact.point[i].provided.*`); unread under the built-in laws.
    pub provided: [Given; POINT_OUTPUTS],
}

impl Inputs {
    /// The inputs of two frames, with no provided forces.
    pub fn of_frames(frame_a: Frame, frame_b: Frame) -> Inputs {
        Inputs { frame_a, frame_b, provided: Default::default() }
    }

    /// The name of the first orientation input whose four components are all zero (`frame_a.q`,
    /// then `frame_b.q`): the value a master's connector has before the master passes the body's
    /// output along (interface.md, "Co-simulation semantics"). A quaternion of tiny but nonzero
    /// components is not this: it stays an error.
    pub fn unconnected_quaternion(&self) -> Option<&'static str> {
        let zero = |q: &[f64; 4]| q.iter().all(|x| *x == 0.0);
        if zero(&self.frame_a.q) {
            Some("frame_a.q")
        } else if zero(&self.frame_b.q) {
            Some("frame_b.q")
        } else {
            None
        }
    }
}

/// Force \[N\] and torque (N.m) about the body frame origin, resolved in W.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Wrench {
    pub f_0: [f64; 3],
    pub t_0: [f64; 3],
}

/// How many contact points have their own outputs (`contact.point[i].*`).
pub use contact_fmi::POINT_OUTPUTS;

/// The outputs of one contact point; all zero when the pair has no point with that id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PointOutput {
    /// The point carries force.
    pub active: bool,
    pub separation: f64,
    pub normal_force: f64,
    pub friction_force: f64,
    /// Where the force acts, in W.
    pub p_0: [f64; 3],
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outputs {
    pub frame_a: Wrench,
    pub frame_b: Wrench,
    pub active: bool,
    pub points: i64,
    pub separation: f64,
    pub normal_force: f64,
    pub friction_force: f64,
    pub p_0: [f64; 3],
    pub n_0: [f64; 3],
    pub slip_speed: f64,
    pub sticking: bool,
    /// The largest normal force (N) within the last communication step: under StepAverage the
    /// peak of the block's own sub-steps (the averaged force hides it); under Instantaneous the
    /// force is held over the step, so it is `normal_force`.
    pub max_normal_force: f64,
    /// The mass each body shows in the contact normal direction (kg), as StepAverage learns it
    /// or takes it from `body_X.mobility`; `body_X.mass` under Instantaneous, 0 for an immovable body.
    pub effective_mass: [f64; 2],
    pub point: [PointOutput; POINT_OUTPUTS],
    /// Per point slot, what a law provided by input reads (`contact.point[i].depth`, ...):
    /// written only where a law is ProvidedByInput (all zero under the built-in laws, which need
    /// not pay for them).
    pub law: [LawInputs; POINT_OUTPUTS],
    /// `law` was written by the last evaluation (then `all_finite` checks it too).
    law_written: bool,
    /// How many leading slots of `point` an evaluation may have written: the slots from here on
    /// are all zero (their default). The block's evaluations are the only writers of the slots
    /// and keep it, so that the lean single-point path clears only slots another path wrote.
    slots_written: u8,
}

impl Outputs {
    /// Force and torque (about the frame origin) on A and on B, in W.
    pub fn wrenches(&self) -> [(Vec3, Vec3); 2] {
        [
            (Vec3::from(self.frame_a.f_0), Vec3::from(self.frame_a.t_0)),
            (Vec3::from(self.frame_b.f_0), Vec3::from(self.frame_b.t_0)),
        ]
    }

    /// True when every real output is finite.
    pub fn all_finite(&self) -> bool {
        // x * 0 is a signed zero for a finite x and NaN for an infinite or NaN one, so the bits
        // of every x * 0 ORed together are at most the sign bit exactly when every output is
        // finite: one pass without a branch per number, and an OR (unlike a sum of floats) the
        // compiler may regroup, so the pass is not one chain of dependent additions.
        let mut bits = 0_u64;
        let mut add = |xs: &[f64]| xs.iter().for_each(|x| bits |= (x * 0.0).to_bits());
        for w in [&self.frame_a, &self.frame_b] {
            add(&w.f_0);
            add(&w.t_0);
        }
        add(&self.p_0);
        add(&self.n_0);
        add(&[self.separation, self.normal_force, self.friction_force, self.slip_speed, self.max_normal_force]);
        for p in &self.point {
            add(&p.p_0);
            add(&[p.separation, p.normal_force, p.friction_force]);
        }
        if self.law_written {
            for l in &self.law {
                add(&l.n_0);
                add(&l.tangent1_0);
                add(&l.tangent2_0);
                add(&l.slip_velocity);
                add(&[l.depth, l.depth_rate, l.weight]);
            }
        }
        bits & !(1 << 63) == 0
    }
}

/// An input the block cannot evaluate.
#[derive(Clone, Debug, PartialEq)]
pub struct InputError {
    pub variable: &'static str,
    pub message: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.variable, self.message)
    }
}

/// Things worth a one-time warning that an evaluation noticed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// `frame_a.q` has a norm further than [`QUATERNION_NORM_TOLERANCE`] from 1.
    pub frame_a_q_not_unit: bool,
    pub frame_b_q_not_unit: bool,
    /// A contact point is deeper than `normal.max_depth`.
    pub passed_through: bool,
}

/// The validated, typed block.
#[derive(Clone, Debug)]
pub struct Block {
    pair: GeometryPair,
    /// Geometry frames in the body frames.
    offset_a: Pose,
    offset_b: Pose,
    laws: Laws,
    /// Largest internal sub-step (s) of the stateful laws.
    max_step: f64,
    /// Both geometry frames are the body frames (no offset to compose).
    no_offsets: bool,
    /// A sphere or a point on a plane under stateless laws without couples: the lean path.
    single: Option<single_point::SinglePoint>,
    /// `coupling.mode = StepAverage`: the bodies' mass properties and the sub-step.
    step_average: Option<StepAverageSetup>,
    /// A law is ProvidedByInput: the points take their slots' provided forces (`evaluate_provided`).
    provided: bool,
}

impl Block {
    /// Validates every parameter and builds the block; also returns warnings worth logging.
    ///
    /// Relative geometry file names are looked up in `resources` (the FMU's resources folder).
    pub fn new(p: &Parameters, resources: Option<&std::path::Path>) -> Result<(Block, Vec<String>), ParameterError> {
        let (v, warnings) = p.validate(resources)?;
        let single = single_point::SinglePoint::new(&v.pair, &v.laws);
        let block = Block {
            pair: v.pair,
            offset_a: v.offset_a,
            offset_b: v.offset_b,
            laws: v.laws,
            max_step: v.solver_max_step,
            no_offsets: v.offset_a == Pose::identity() && v.offset_b == Pose::identity(),
            single,
            step_average: v.step_average,
            provided: v.laws.is_provided(),
        };
        Ok((block, warnings))
    }

    pub fn pair(&self) -> &GeometryPair {
        &self.pair
    }

    /// Turns StepAverage off (Model Exchange); true if it was on.
    pub fn drop_step_average(&mut self) -> bool {
        self.step_average.take().is_some()
    }

    /// StepAverage's setup, or `None` under Instantaneous.
    pub fn step_average_setup(&self) -> Option<&StepAverageSetup> {
        self.step_average.as_ref()
    }

    /// True when a law is ProvidedByInput.
    pub fn is_provided(&self) -> bool {
        self.provided
    }

    /// True when the laws keep a state per contact point that DoStep must advance.
    pub fn is_stateful(&self) -> bool {
        self.laws.is_stateful()
    }

    /// Both bodies' states (A, B) for `inputs`, their quaternions checked.
    pub fn body_states(&self, inputs: &Inputs, notes: &mut Notes) -> Result<[BodyState; 2], InputError> {
        let body_a = body_state("frame_a.q", &inputs.frame_a, &mut notes.frame_a_q_not_unit)?;
        let body_b = body_state("frame_b.q", &inputs.frame_b, &mut notes.frame_b_q_not_unit)?;
        Ok([body_a, body_b])
    }

    /// The bodies' states and their geometry frames in W for `inputs`.
    #[inline]
    fn locate(&self, inputs: &Inputs, notes: &mut Notes) -> Result<(BodyState, BodyState, Pose, Pose), InputError> {
        let body_a = body_state("frame_a.q", &inputs.frame_a, &mut notes.frame_a_q_not_unit)?;
        let body_b = body_state("frame_b.q", &inputs.frame_b, &mut notes.frame_b_q_not_unit)?;
        if self.no_offsets {
            // Composing with the identity would give the same numbers.
            return Ok((body_a, body_b, body_a.pose, body_b.pose));
        }
        let geometry_a = body_a.pose.compose(&self.offset_a);
        let geometry_b = body_b.pose.compose(&self.offset_b);
        Ok((body_a, body_b, geometry_a, geometry_b))
    }

    /// Advances the per-point states over `h` \[s\] with `inputs` held, in equal sub-steps no larger
    /// than `solver.max_step`. `states` is indexed like the contact points and grows as needed.
    /// A point cloud's points advance in place, in parallel chunks for large clouds (each point's
    /// state depends on its own contact only, so the result is the same on any number of threads).
    pub fn advance(&self, inputs: &Inputs, scratch: &mut Vec<ContactPoint>, states: &mut Vec<PointState>, h: f64) -> Result<(), InputError> {
        if !self.is_stateful() {
            return Ok(());
        }
        let (body_a, body_b, geometry_a, geometry_b) = self.locate(inputs, &mut Notes::default())?;
        if states.len() < self.pair.max_points() {
            states.resize(self.pair.max_points(), PointState::default());
        }
        let substeps = (h / self.max_step).ceil().max(1.0);
        let substep = h / substeps;
        let step = |cp: &ContactPoint, state: &mut PointState| {
            // With the inputs held the point's depth, rates and normal force do not change over
            // the step (a Restitution onset speed is frozen to the same approach speed).
            let at = self.point_force(cp, &body_a, &body_b, state, inputs);
            for _ in 0..substeps as u64 {
                contact::advance(&at, &self.laws, state, substep);
            }
        };
        scratch.clear();
        if let Some(queries) = self.pair.point_queries(&geometry_a, &geometry_b) {
            let chunk = |(k, chunk): (usize, &mut [PointState])| {
                for (j, state) in chunk.iter_mut().enumerate() {
                    if let Some(cp) = queries.contact(k * CLOUD_CHUNK + j) {
                        step(&cp, state);
                    }
                }
            };
            let states = &mut states[..queries.len()];
            if states.len() >= PARALLEL_POINTS {
                use rayon::prelude::*;
                states.par_chunks_mut(CLOUD_CHUNK).enumerate().for_each(chunk);
            } else {
                states.chunks_mut(CLOUD_CHUNK).enumerate().for_each(chunk);
            }
            return Ok(());
        }
        self.pair.contacts(&geometry_a, &geometry_b, scratch);
        for cp in scratch.iter() {
            step(cp, &mut states[cp.id as usize]);
        }
        Ok(())
    }

    /// Evaluates the contact for `inputs` and the points' `states` into `out`. `scratch` holds
    /// the contact points; it is cleared and reused, so a warm call allocates nothing.
    ///
    /// A point cloud against a surface skips `scratch`: its points are independent queries,
    /// evaluated and summed in place in fixed chunks ([`CLOUD_CHUNK`]), on every core for large
    /// clouds ([`PARALLEL_POINTS`]); see `Block::evaluate_cloud`.
    ///
    /// A sphere or a point on a plane under stateless laws without couples takes a lean path
    /// (`single_point`) that gives the same outputs to rounding (compared in its tests).
    #[inline]
    pub fn evaluate(&self, inputs: &Inputs, scratch: &mut Vec<ContactPoint>, states: &[PointState], out: &mut Outputs) -> Result<Notes, InputError> {
        match &self.single {
            Some(single) => {
                scratch.clear();
                single.evaluate(self, inputs, out)
            }
            None => self.evaluate_points(inputs, scratch, states, out),
        }
    }

    /// [`Block::evaluate`] for every pair and law: the contact points, each point's force, the
    /// sums.
    fn evaluate_points(&self, inputs: &Inputs, scratch: &mut Vec<ContactPoint>, states: &[PointState], out: &mut Outputs) -> Result<Notes, InputError> {
        if self.provided {
            return self.evaluate_provided(inputs, scratch, states, out);
        }
        let mut notes = Notes::default();
        let (body_a, body_b, geometry_a, geometry_b) = self.locate(inputs, &mut notes)?;
        out.point = Default::default();
        out.slots_written = POINT_OUTPUTS as u8;
        if let Some(cp) = self.pair.single_contact(&geometry_a, &geometry_b) {
            // One point (a sphere or a point on a plane): no point list to fill and walk.
            scratch.clear();
            let state = states.first().copied().unwrap_or_default();
            let pf = contact::evaluate(&cp, &body_a, &body_b, &self.laws, &state);
            out.point[0] = point_output(&pf);
            let mut sums = Sums::default();
            sums.add(&cp, &pf, &body_a, &body_b);
            notes.passed_through |= sums.passed_through;
            self.finish(&sums, &body_a, &body_b, out);
            return Ok(notes);
        }
        let sums = match self.pair.point_queries(&geometry_a, &geometry_b) {
            Some(queries) => {
                scratch.clear();
                self.evaluate_cloud(&queries, &body_a, &body_b, states, out)
            }
            None => {
                scratch.clear();
                self.pair.contacts(&geometry_a, &geometry_b, scratch);
                let mut sums = Sums::default();
                for cp in scratch.iter() {
                    let state = states.get(cp.id as usize).copied().unwrap_or_default();
                    let pf = contact::evaluate(cp, &body_a, &body_b, &self.laws, &state);
                    if let Some(slot) = out.point.get_mut(cp.id as usize) {
                        *slot = point_output(&pf);
                    }
                    sums.add(cp, &pf, &body_a, &body_b);
                }
                sums
            }
        };
        notes.passed_through |= sums.passed_through;
        self.finish(&sums, &body_a, &body_b, out);
        Ok(notes)
    }

    /// [`Block::evaluate_points`] where a law is ProvidedByInput: every point has a slot (the
    /// parameters refuse a pair with more), takes its slot's provided forces, and writes what a
    /// user's law reads there (`Outputs::law`).
    #[cold]
    fn evaluate_provided(&self, inputs: &Inputs, scratch: &mut Vec<ContactPoint>, states: &[PointState], out: &mut Outputs) -> Result<Notes, InputError> {
        let mut notes = Notes::default();
        let (body_a, body_b, geometry_a, geometry_b) = self.locate(inputs, &mut notes)?;
        out.point = Default::default();
        out.law = Default::default();
        out.law_written = true;
        out.slots_written = POINT_OUTPUTS as u8;
        let mut sums = Sums::default();
        self.slot_points(&geometry_a, &geometry_b, scratch, |cp| {
            let id = cp.id as usize;
            let state = states.get(id).copied().unwrap_or_default();
            let pf = self.point_force(cp, &body_a, &body_b, &state, inputs);
            out.point[id] = point_output(&pf);
            out.law[id] = LawInputs::new(&pf.normal_ab_w, pf.depth(), pf.depth_rate, &pf.slip_velocity_w, cp.weight);
            sums.add(cp, &pf, &body_a, &body_b);
        });
        notes.passed_through |= sums.passed_through;
        self.finish(&sums, &body_a, &body_b, out);
        Ok(notes)
    }

    /// The sums of a point cloud's forces, in [`CLOUD_CHUNK`]s summed in a fixed binary tree
    /// over the ids, and the outputs of its first [`POINT_OUTPUTS`] points.
    ///
    /// The tree depends only on the number of points: each leaf is a chunk summed in id order,
    /// and each node adds its left half's sums to its right half's. Clouds of at least
    /// [`PARALLEL_POINTS`] points evaluate the two halves of a node on two threads (rayon), which
    /// changes where the work runs but not one operation, so the result is bit-identical
    /// whatever the number of threads, and no allocation is made for the sums.
    fn evaluate_cloud(&self, queries: &PointQueries, body_a: &BodyState, body_b: &BodyState, states: &[PointState], out: &mut Outputs) -> Sums {
        let sums = match queries.on_plane() {
            // A plane under stateless laws: the batched kernel, bit-identical to the leaf below.
            Some(cloud) if cloud_plane::applies(&self.laws) => {
                tree_sum(0..queries.len(), &|range| cloud_plane::leaf(queries, &cloud, &self.laws, body_a, body_b, range))
            }
            _ => tree_sum(0..queries.len(), &|range| self.cloud_leaf(queries, body_a, body_b, states, range)),
        };
        for id in 0..queries.len().min(POINT_OUTPUTS) {
            if let Some(cp) = queries.contact(id) {
                let state = states.get(id).copied().unwrap_or_default();
                out.point[id] = point_output(&contact::evaluate(&cp, body_a, body_b, &self.laws, &state));
            }
        }
        sums
    }

    /// The sums of the cloud points with ids in `range`, one point at a time (every pair and
    /// law; [`cloud_plane::leaf`] is the faster form for a plane under stateless laws).
    fn cloud_leaf(&self, queries: &PointQueries, body_a: &BodyState, body_b: &BodyState, states: &[PointState], range: std::ops::Range<usize>) -> Sums {
        // With stateless laws a point that does not penetrate carries exactly nothing: it only
        // competes for the deepest point.
        let skip_apart = !self.is_stateful();
        let mut sums = Sums::default();
        for id in range {
            if skip_apart {
                // On a plane the separation alone tells an apart point, which matters only
                // if it is the deepest so far.
                if let Some(separation) = queries.plane_separation(id) {
                    if separation >= 0.0 {
                        if sums.deepest.as_ref().is_none_or(|d| separation < d.separation) {
                            if let Some(cp) = queries.contact(id) {
                                sums.consider_deepest(&cp);
                            }
                        }
                        continue;
                    }
                }
            }
            let Some(cp) = queries.contact(id) else { continue };
            if skip_apart && cp.separation >= 0.0 {
                sums.consider_deepest(&cp);
                continue;
            }
            let state = states.get(id).copied().unwrap_or_default();
            let pf = contact::evaluate(&cp, body_a, body_b, &self.laws, &state);
            sums.add(&cp, &pf, body_a, body_b);
        }
        sums
    }

    /// The block's outputs from the sums over its points.
    #[inline]
    fn finish(&self, sums: &Sums, body_a: &BodyState, body_b: &BodyState, out: &mut Outputs) {
        let Sums { force_b, torque_a, torque_b, friction: friction_sum, weighted_point, normal_force, points, sticking, ref deepest, .. } = *sums;
        out.frame_b = Wrench { f_0: force_b.into(), t_0: torque_b.into() };
        out.frame_a = Wrench { f_0: (-force_b).into(), t_0: torque_a.into() };
        out.active = points > 0;
        out.points = points;
        out.normal_force = normal_force;
        out.friction_force = friction_sum.norm();
        out.sticking = points > 0 && sticking;
        match deepest {
            Some(cp) => {
                let p_0 = if normal_force > 0.0 {
                    weighted_point / normal_force
                } else if cp.separation < 0.0 {
                    cp.point_w()
                } else {
                    cp.p_a_w
                };
                let n = cp.normal_ab_w;
                let v_rel = body_b.velocity_at(&p_0) - body_a.velocity_at(&p_0);
                out.separation = cp.separation;
                out.p_0 = p_0.into();
                out.n_0 = n.into();
                out.slip_speed = (v_rel - n * v_rel.dot(&n)).norm();
            }
            None => {
                out.separation = f64::MAX;
                out.p_0 = [0.0; 3];
                out.n_0 = [0.0, 0.0, 1.0];
                out.slip_speed = 0.0;
            }
        }
    }
}

/// Points per leaf of a point cloud's summation tree: the unit of work that is never split.
pub const CLOUD_CHUNK: usize = 1024;

/// Clouds with at least this many points are evaluated on every core.
pub const PARALLEL_POINTS: usize = 16 * 1024;

/// Sums `leaf` over `range` in the fixed tree of [`Block::evaluate_cloud`]: a range of more than
/// [`CLOUD_CHUNK`] ids splits at the chunk boundary nearest its middle, and its halves run in
/// parallel when it holds at least [`PARALLEL_POINTS`] ids.
fn tree_sum<F: Fn(std::ops::Range<usize>) -> Sums + Sync>(range: std::ops::Range<usize>, leaf: &F) -> Sums {
    let len = range.end - range.start;
    if len <= CLOUD_CHUNK {
        return leaf(range);
    }
    let chunks = len.div_ceil(CLOUD_CHUNK);
    let middle = range.start + chunks / 2 * CLOUD_CHUNK;
    let (left, right) = (range.start..middle, middle..range.end);
    let (mut sums, right) = if len >= PARALLEL_POINTS {
        rayon::join(|| tree_sum(left, leaf), || tree_sum(right, leaf))
    } else {
        (tree_sum(left, leaf), tree_sum(right, leaf))
    };
    sums.merge(right);
    sums
}

/// What the outputs need from a set of contact points, summed in a fixed order.
#[derive(Clone, Copy, Debug)]
struct Sums {
    force_b: Vec3,
    torque_a: Vec3,
    torque_b: Vec3,
    friction: Vec3,
    weighted_point: Vec3,
    normal_force: f64,
    /// Points carrying force.
    points: i64,
    /// Every point carrying force sticks.
    sticking: bool,
    passed_through: bool,
    /// The deepest point (the first of equally deep ones), which stands for the contact when no
    /// point carries force.
    deepest: Option<ContactPoint>,
}

impl Default for Sums {
    fn default() -> Self {
        Sums {
            force_b: Vec3::zeros(),
            torque_a: Vec3::zeros(),
            torque_b: Vec3::zeros(),
            friction: Vec3::zeros(),
            weighted_point: Vec3::zeros(),
            normal_force: 0.0,
            points: 0,
            sticking: true,
            passed_through: false,
            deepest: None,
        }
    }
}

impl Sums {
    fn consider_deepest(&mut self, cp: &ContactPoint) {
        if self.deepest.as_ref().is_none_or(|d| cp.separation < d.separation) {
            self.deepest = Some(*cp);
        }
    }

    /// Adds one point's force (`pf`, evaluated at `cp`).
    #[inline]
    fn add(&mut self, cp: &ContactPoint, pf: &PointForce, body_a: &BodyState, body_b: &BodyState) {
        self.passed_through |= pf.passed_through;
        let f = pf.force_on_b_w();
        self.force_b += f;
        self.torque_b += (pf.point_w - body_b.pose.r).cross(&f) + pf.couple_w;
        self.torque_a -= (pf.point_w - body_a.pose.r).cross(&f) + pf.couple_w;
        self.friction += pf.friction_force_w;
        if pf.normal_force > 0.0 {
            self.points += 1;
            self.normal_force += pf.normal_force;
            self.weighted_point += pf.point_w * pf.normal_force;
            self.sticking &= pf.sticking == Some(true);
        }
        self.consider_deepest(cp);
    }

    /// Adds the sums of the points that follow these ones.
    fn merge(&mut self, next: Sums) {
        self.force_b += next.force_b;
        self.torque_a += next.torque_a;
        self.torque_b += next.torque_b;
        self.friction += next.friction;
        self.weighted_point += next.weighted_point;
        self.normal_force += next.normal_force;
        self.points += next.points;
        self.sticking &= next.sticking;
        self.passed_through |= next.passed_through;
        if let Some(cp) = next.deepest {
            self.consider_deepest(&cp);
        }
    }
}

fn point_output(pf: &PointForce) -> PointOutput {
    PointOutput {
        active: pf.normal_force > 0.0,
        separation: pf.separation,
        normal_force: pf.normal_force,
        friction_force: pf.friction_force_w.norm(),
        p_0: pf.point_w.into(),
    }
}

fn body_state(q_name: &'static str, frame: &Frame, not_unit: &mut bool) -> Result<BodyState, InputError> {
    let (raw, norm) = checked_quaternion(q_name, frame, not_unit)?;
    let q = normalised(&raw, norm);
    Ok(BodyState { pose: Pose { r: Vec3::from(frame.r_0), q }, v: Vec3::from(frame.v_0), w: Vec3::from(frame.w_0) })
}

/// `frame.q` as a quaternion with its norm, or the error naming `q_name`; sets `not_unit` when
/// the norm is further than [`QUATERNION_NORM_TOLERANCE`] from 1.
#[inline]
fn checked_quaternion(q_name: &'static str, frame: &Frame, not_unit: &mut bool) -> Result<(Quaternion<f64>, f64), InputError> {
    let Some((raw, norm)) = quaternion_from_wxyz(&frame.q) else { return Err(quaternion_error(q_name, &frame.q)) };
    *not_unit = (norm - 1.0).abs() > QUATERNION_NORM_TOLERANCE;
    Ok((raw, norm))
}

#[cold]
fn quaternion_error(q_name: &'static str, q: &[f64; 4]) -> InputError {
    InputError { variable: q_name, message: format!("the quaternion {:?} {}", q, quaternion_problem(q)) }
}

#[cfg(test)]
mod tests {
    use super::{Outputs, POINT_OUTPUTS};

    /// The k-th real output: the wrenches, `p_0`, `n_0`, the five scalars, then each slot's.
    fn field(o: &mut Outputs, k: usize) -> &mut f64 {
        match k {
            0..=2 => &mut o.frame_a.f_0[k],
            3..=5 => &mut o.frame_a.t_0[k - 3],
            6..=8 => &mut o.frame_b.f_0[k - 6],
            9..=11 => &mut o.frame_b.t_0[k - 9],
            12..=14 => &mut o.p_0[k - 12],
            15..=17 => &mut o.n_0[k - 15],
            18 => &mut o.separation,
            19 => &mut o.normal_force,
            20 => &mut o.friction_force,
            21 => &mut o.slip_speed,
            22 => &mut o.max_normal_force,
            _ => {
                let slot = &mut o.point[(k - 23) / 6];
                match (k - 23) % 6 {
                    i @ 0..=2 => &mut slot.p_0[i],
                    3 => &mut slot.separation,
                    4 => &mut slot.normal_force,
                    _ => &mut slot.friction_force,
                }
            }
        }
    }

    /// Finite outputs of every size and sign pass; an infinity or a NaN in any one real output
    /// fails.
    #[test]
    fn all_finite_finds_any_output_that_is_not() {
        let reals = 23 + 6 * POINT_OUTPUTS;
        let finite = [0.0, -0.0, 1.0, -2.5, f64::MAX, -f64::MAX, f64::MIN_POSITIVE, -5e-324];
        let mut out = Outputs::default();
        for k in 0..reals {
            *field(&mut out, k) = finite[k % finite.len()];
        }
        assert!(out.all_finite());
        for k in 0..reals {
            for bad in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -f64::NAN] {
                let mut broken = out.clone();
                *field(&mut broken, k) = bad;
                assert!(!broken.all_finite(), "output {k} = {bad}");
            }
        }
    }
}
