//! The contact block: a geometry pair and its laws, from the two bodies' inputs to the outputs.
//!
//! [`Parameters`], [`Inputs`] and [`Outputs`] hold the user-facing values exactly as the interface
//! names them (shared/spec/interface.md); their `Default` impls are the documented defaults.
//! [`Block::new`] validates the parameters once, when initialisation ends, and turns them into
//! typed physics; [`Block::evaluate`] is the per-call work.
#![forbid(unsafe_code)]

mod parameters;

pub use parameters::{FrictionParameters, GeometryParameters, NormalParameters, ParameterError, Parameters};


use crate::physics::contact::{self, Laws, PointForce, PointState};
use crate::physics::geometry::{ContactPoint, GeometryPair};
use crate::physics::math::{rotation_from_wxyz, BodyState, Pose, Vec3};

/// Quaternion norms further than this from 1 are normalised with a warning.
pub const QUATERNION_NORM_TOLERANCE: f64 = 1e-3;

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
}

/// Force [N] and torque [N.m] about the body frame origin, resolved in W.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Wrench {
    pub f_0: [f64; 3],
    pub t_0: [f64; 3],
}

/// How many contact points have their own outputs (`contact.point[i].*`): the points with ids
/// 0 to 7 (box corners, manifold slots, the first points of a cloud).
pub const POINT_OUTPUTS: usize = 8;

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
    pub point: [PointOutput; POINT_OUTPUTS],
}

impl Outputs {
    /// True when every real output is finite.
    pub fn all_finite(&self) -> bool {
        let reals = self.frame_a.f_0.iter().chain(&self.frame_a.t_0).chain(&self.frame_b.f_0).chain(&self.frame_b.t_0);
        reals.chain(&self.p_0).chain(&self.n_0).all(|x| x.is_finite())
            && [self.separation, self.normal_force, self.friction_force, self.slip_speed].iter().all(|x| x.is_finite())
            && self.point.iter().all(|p| {
                p.p_0.iter().chain([p.separation, p.normal_force, p.friction_force].iter()).all(|x| x.is_finite())
            })
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
    /// Largest internal sub-step [s] of the stateful laws.
    max_step: f64,
}

impl Block {
    /// Validates every parameter and builds the block; also returns warnings worth logging.
    ///
    /// Relative geometry file names are looked up in `resources` (the FMU's resources folder).
    pub fn new(p: &Parameters, resources: Option<&std::path::Path>) -> Result<(Block, Vec<String>), ParameterError> {
        let (v, warnings) = p.validate(resources)?;
        let block = Block {
            pair: v.pair,
            offset_a: v.offset_a,
            offset_b: v.offset_b,
            laws: v.laws,
            max_step: v.solver_max_step,
        };
        Ok((block, warnings))
    }

    pub fn pair(&self) -> &GeometryPair {
        &self.pair
    }

    /// True when the laws keep a state per contact point that DoStep must advance.
    pub fn is_stateful(&self) -> bool {
        self.laws.is_stateful()
    }

    /// The bodies' states and the contact points for `inputs` (points into `scratch`).
    fn locate(&self, inputs: &Inputs, scratch: &mut Vec<ContactPoint>, notes: &mut Notes) -> Result<(BodyState, BodyState), InputError> {
        let body_a = body_state("frame_a.q", &inputs.frame_a, &mut notes.frame_a_q_not_unit)?;
        let body_b = body_state("frame_b.q", &inputs.frame_b, &mut notes.frame_b_q_not_unit)?;
        let geometry_a = body_a.pose.compose(&self.offset_a);
        let geometry_b = body_b.pose.compose(&self.offset_b);
        scratch.clear();
        self.pair.contacts(&geometry_a, &geometry_b, scratch);
        Ok((body_a, body_b))
    }

    /// Advances the per-point states over `h` [s] with `inputs` held, in equal sub-steps no larger
    /// than `solver.max_step`. `states` is indexed like the contact points and grows as needed.
    pub fn advance(&self, inputs: &Inputs, scratch: &mut Vec<ContactPoint>, states: &mut Vec<PointState>, h: f64) -> Result<(), InputError> {
        if !self.is_stateful() {
            return Ok(());
        }
        let (body_a, body_b) = self.locate(inputs, scratch, &mut Notes::default())?;
        if states.len() < self.pair.max_points() {
            states.resize(self.pair.max_points(), PointState::default());
        }
        let substeps = (h / self.max_step).ceil().max(1.0);
        let substep = h / substeps;
        for cp in scratch.iter() {
            let state = &mut states[cp.id as usize];
            // With the inputs held the point's depth, rates and normal force do not change over
            // the step (a Restitution onset speed is frozen to the same approach speed).
            let at = contact::evaluate(cp, &body_a, &body_b, &self.laws, state);
            for _ in 0..substeps as u64 {
                contact::advance(&at, &self.laws, state, substep);
            }
        }
        Ok(())
    }

    /// Evaluates the contact for `inputs` and the points' `states` into `out`. `scratch` holds
    /// the contact points; it is cleared and reused, so a warm call allocates nothing.
    pub fn evaluate(&self, inputs: &Inputs, scratch: &mut Vec<ContactPoint>, states: &[PointState], out: &mut Outputs) -> Result<Notes, InputError> {
        let mut notes = Notes::default();
        let (body_a, body_b) = self.locate(inputs, scratch, &mut notes)?;

        let mut force_b = Vec3::zeros();
        let mut torque_a = Vec3::zeros();
        let mut torque_b = Vec3::zeros();
        let mut friction_sum = Vec3::zeros();
        let mut weighted_point = Vec3::zeros();
        let mut normal_force = 0.0;
        let mut points = 0;
        let mut sticking = true;
        // The deepest point stands for the contact when no point carries force.
        let mut deepest: Option<(ContactPoint, PointForce)> = None;
        out.point = Default::default();
        for cp in scratch.iter() {
            let state = states.get(cp.id as usize).copied().unwrap_or_default();
            let pf = contact::evaluate(cp, &body_a, &body_b, &self.laws, &state);
            if let Some(slot) = out.point.get_mut(cp.id as usize) {
                *slot = PointOutput {
                    active: pf.normal_force > 0.0,
                    separation: pf.separation,
                    normal_force: pf.normal_force,
                    friction_force: pf.friction_force_w.norm(),
                    p_0: pf.point_w.into(),
                };
            }
            notes.passed_through |= pf.passed_through;
            let f = pf.force_on_b_w();
            force_b += f;
            torque_b += (pf.point_w - body_b.pose.r).cross(&f) + pf.couple_w;
            torque_a -= (pf.point_w - body_a.pose.r).cross(&f) + pf.couple_w;
            friction_sum += pf.friction_force_w;
            if pf.normal_force > 0.0 {
                points += 1;
                normal_force += pf.normal_force;
                weighted_point += pf.point_w * pf.normal_force;
                sticking &= pf.sticking == Some(true);
            }
            if deepest.as_ref().is_none_or(|(_, d)| pf.separation < d.separation) {
                deepest = Some((*cp, pf));
            }
        }

        out.frame_b = Wrench { f_0: force_b.into(), t_0: torque_b.into() };
        out.frame_a = Wrench { f_0: (-force_b).into(), t_0: torque_a.into() };
        out.active = points > 0;
        out.points = points;
        out.normal_force = normal_force;
        out.friction_force = friction_sum.norm();
        out.sticking = points > 0 && sticking;
        match deepest {
            Some((cp, pf)) => {
                let p_0 = if normal_force > 0.0 {
                    weighted_point / normal_force
                } else if cp.separation < 0.0 {
                    pf.point_w
                } else {
                    cp.p_a_w
                };
                let n = pf.normal_ab_w;
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
        Ok(notes)
    }
}

fn body_state(q_name: &'static str, frame: &Frame, not_unit: &mut bool) -> Result<BodyState, InputError> {
    let (q, norm) = rotation_from_wxyz(&frame.q).ok_or_else(|| InputError {
        variable: q_name,
        message: format!("the quaternion {:?} is zero or not finite", frame.q),
    })?;
    *not_unit = (norm - 1.0).abs() > QUATERNION_NORM_TOLERANCE;
    Ok(BodyState { pose: Pose { r: Vec3::from(frame.r_0), q }, v: Vec3::from(frame.v_0), w: Vec3::from(frame.w_0) })
}
