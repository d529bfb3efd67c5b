//! One RigidBody instance: parameters, inputs, outputs, time and the body's state, with its
//! state; the FMU's lifecycle over them is in `fmi.rs`.
//!
//! Co-simulation steps the state with the splitting integrator (`integrator`). Model Exchange
//! gives the importer's integrator the same motion as thirteen continuous states ([`Continuous`]:
//! r, q, v, w) and their Newton-Euler derivatives (`RigidBody::acceleration`,
//! `RigidBody::angular_acceleration`, `body::quaternion_rate`). The importer's integrator does
//! not keep `|q| = 1` (the flow does, its errors do not), so the derivatives and outputs use `q`
//! normalised, and a completed integrator step whose `|q|` is further than
//! [`QUATERNION_DRIFT`] from 1 asks for Event Mode, where `q` is renormalised.
//!
//! A body with a joint to the world (`joint`) keeps the same thirteen states: its derivatives are
//! the constrained accelerations, and, as for `q`, the derivatives and outputs are those of the
//! nearest state on the joint (`RigidBody::project` through the start pose); a state further than
//! [`JOINT_DRIFT`] from the joint asks for Event Mode, where it is projected back.
#![forbid(unsafe_code)]

use std::path::PathBuf;

use fmi_export::ModelError;

use crate::body::quaternion_rate;
use crate::joint::{upper_triangle, Joint, JointKind};
use crate::{RigidBody, Rotation, State, Vec3, DEFAULT_GRAVITY};

/// The most sub-steps of `solver.max_step` one DoStep takes. A longer step (a communication
/// step of 1e300 s, or `solver.max_step = 1e-300`) is discarded instead of keeping the importer
/// waiting for ever; the importer can retry with a shorter step.
pub const MAX_SUBSTEPS: f64 = 1e6;

/// Quaternion norms further than this from 1 are normalised with a warning.
const QUATERNION_NORM_TOLERANCE: f64 = 1e-3;

/// How far `|q|` of Model Exchange's state may drift from 1 before a completed integrator step
/// asks for Event Mode to renormalise it. The derivatives and outputs use `q / |q|`, so the drift
/// changes no physics; the bound keeps the state's norm from walking over a long run without
/// stopping the importer's integrator often, since an event restarts it at first order. Measured
/// with FMPy's CVode on a tumbling body over 10 s (tests/python/test_rigid_body_me.py's): at a
/// relative tolerance of 1e-6 the norm drifted by 3e-6 and no event was needed, and the angular
/// momentum held to 1.2e-5; a bound of 1e-6 instead made an event at each of the 1000 output
/// points and the momentum drift 1e-3.
pub const QUATERNION_DRIFT: f64 = 1e-3;

/// How far Model Exchange's state of a jointed body may drift from the joint before a completed
/// integrator step asks for Event Mode to project it back: a change of position by more than
/// `JOINT_DRIFT (1 + |r|)`, or of velocity or angular velocity by more than `JOINT_DRIFT (1 + |v|)`.
/// The outputs and the derivatives are those of the nearest state on the joint (as they use `q`
/// normalised), so the drift, the importer's integration error alone, changes no physics; the
/// bound only keeps the states from walking. Measured with FMPy's CVode on a pendulum swinging
/// from 60 deg for 10 s (tests/python/test_rigid_body_joint.py's): a bound of 1e-6 made an event at
/// nearly every output point at rtol 1e-6, and each restart of the integrator cost accuracy (the
/// energy grew by 0.6 %); with this bound and the projected outputs no event was needed at rtol
/// 1e-6 and the energy error was CVode's, 3.3e-4 (the guide's RigidBody page has the figures).
pub const JOINT_DRIFT: f64 = 1e-3;

/// Parameters as the user sets them; `Default` holds the documented defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameters {
    pub mass: f64,
    /// Ixx, Iyy, Izz, Ixy, Ixz, Iyz in the body frame [kg.m2].
    pub inertia: [f64; 6],
    pub gravity: [f64; 3],
    pub r_0_start: [f64; 3],
    /// (w, x, y, z).
    pub q_start: [f64; 4],
    pub v_0_start: [f64; 3],
    pub w_0_start: [f64; 3],
    /// Largest internal sub-step \[s\].
    pub max_step: f64,
    /// `joint.kind`: a [`JointKind`] value (Free = 1, Revolute = 2, Prismatic = 3).
    pub joint_kind: i64,
    /// A point on the joint axis, in W \[m\].
    pub joint_pivot: [f64; 3],
    /// The joint axis, in W (normalised when used).
    pub joint_axis: [f64; 3],
}

impl Default for Parameters {
    fn default() -> Self {
        // A solid sphere of 1 kg and radius 0.1 m: I = 2/5 m r^2.
        Parameters {
            mass: 1.0,
            inertia: [4e-3, 4e-3, 4e-3, 0.0, 0.0, 0.0],
            gravity: DEFAULT_GRAVITY,
            // Resting on ContactForce's default plane (z = 0) when its outputs feed a default
            // ContactForce's frame_b: the centre one radius (0.1 m) above the plane.
            r_0_start: [0.0, 0.0, 0.1],
            q_start: [1.0, 0.0, 0.0, 0.0],
            v_0_start: [0.0; 3],
            w_0_start: [0.0; 3],
            max_step: 1e-3,
            joint_kind: JointKind::Free as i64,
            joint_pivot: [0.0; 3],
            joint_axis: [0.0, 0.0, 1.0],
        }
    }
}

/// External force \[N\] and torque about the centre of mass [N.m], resolved in W.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs {
    pub f_0: [f64; 3],
    pub t_0: [f64; 3],
}

/// The body's state as ContactForce's `frame_X` inputs take it, and its energy.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outputs {
    pub r_0: [f64; 3],
    pub q: [f64; 4],
    pub v_0: [f64; 3],
    pub w_0: [f64; 3],
    /// Kinetic plus potential energy (gravity) \[J\].
    pub energy: f64,
    /// The joint's reaction force on the body, in W \[N\] (zero when free).
    pub joint_f_0: [f64; 3],
    /// The joint's reaction torque on the body about its frame origin, in W \[N.m\].
    pub joint_t_0: [f64; 3],
    /// The mobility matrix at the frame origin, in W: its upper triangle row by row.
    pub mobility: [f64; 21],
}

/// The body's motion as the continuous states of Model Exchange (and the same numbers as local
/// variables in co-simulation), or their time derivatives: flat, in the interface's order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Continuous {
    pub r_0: [f64; 3],
    /// (w, x, y, z); not exactly unit between Model Exchange's events.
    pub q: [f64; 4],
    pub v_0: [f64; 3],
    pub w_0: [f64; 3],
}

impl Continuous {
    pub(crate) fn of(state: &State) -> Continuous {
        Continuous { r_0: state.r.into(), q: state.q_wxyz(), v_0: state.v.into(), w_0: state.w.into() }
    }

    pub(crate) fn norm_of_q(&self) -> f64 {
        State::quaternion_norm(self.q)
    }

    /// The state these values stand for, with `q` normalised; a `q` of norm 0 names no rotation.
    pub(crate) fn state(&self) -> Result<State, ModelError> {
        let norm = self.norm_of_q();
        if !(norm.is_finite() && norm > 1e-12) {
            return Err(ModelError::NotFinite(format!("the continuous state q = {:?} is not a rotation (norm {norm})", self.q)));
        }
        let [w, x, y, z] = self.q.map(|c| c / norm);
        Ok(State {
            r: Vec3::from(self.r_0),
            q: Rotation::new_unchecked(nalgebra::Quaternion::new(w, x, y, z)),
            v: Vec3::from(self.v_0),
            w: Vec3::from(self.w_0),
        })
    }
}

#[derive(Clone, Debug)]
pub struct Model {
    pub parameters: Parameters,
    pub inputs: Inputs,
    pub outputs: Outputs,
    pub time: f64,
    /// The continuous states once initialisation has ended: in Model Exchange what the importer
    /// integrates (the truth), in co-simulation a copy of `state` after each step.
    pub(crate) continuous: Continuous,
    /// Their derivatives (Model Exchange), computed when read.
    pub(crate) derivatives: Continuous,
    /// True for an instance of Model Exchange from the end of its initialisation on.
    pub(crate) exchange: bool,
    /// Built from the parameters; `None` until needed and after a parameter change.
    pub(crate) body: Option<RigidBody>,
    /// The motion; `None` until initialisation ends (the start values stand in before).
    pub(crate) state: Option<State>,
    pub(crate) warnings: Vec<String>,
    pub(crate) resources: Option<PathBuf>,
    /// The inputs the joint's reaction outputs balance: in co-simulation those held over the last
    /// step (set at initialisation and at each DoStep), in Model Exchange those of the last
    /// completed integrator step or event. Sampled rather than current, so that no output depends
    /// on an input: RigidBody keeps no direct feedthrough (masters order it before ContactForce).
    pub(crate) held: Inputs,
}

impl Default for Model {
    fn default() -> Self {
        Model {
            parameters: Parameters::default(),
            inputs: Inputs::default(),
            outputs: Outputs::default(),
            time: 0.0,
            continuous: Continuous::default(),
            derivatives: Continuous::default(),
            exchange: false,
            body: None,
            state: None,
            warnings: Vec::new(),
            resources: None,
            held: Inputs::default(),
        }
    }
}

impl Model {
    /// The body with its joint, validated.
    pub(crate) fn build_body(p: &Parameters) -> Result<RigidBody, String> {
        let kind = JointKind::from_value(p.joint_kind)
            .ok_or_else(|| format!("joint.kind = {}: must be 1 (Free), 2 (Revolute) or 3 (Prismatic)", p.joint_kind))?;
        let joint = Joint::new(kind, p.joint_pivot, p.joint_axis).map_err(|e| e.to_string())?;
        RigidBody::with_joint(p.mass, p.inertia, Vec3::from(p.gravity), joint).map_err(|e| e.to_string())
    }

    /// The body built at initialisation, or from the parameters.
    pub(crate) fn current_body(&self) -> Result<RigidBody, String> {
        match &self.body {
            Some(body) => Ok(body.clone()),
            None => Self::build_body(&self.parameters),
        }
    }

    /// The start state as the start values give it, validated and projected onto the joint (see
    /// [`RigidBody::onto_joint`]), with the warnings of what was changed when `warn`.
    pub(crate) fn start_state(body: &RigidBody, p: &Parameters, warnings: Option<&mut Vec<String>>) -> Result<State, String> {
        let raw = State::from_start(p.r_0_start, p.q_start, p.v_0_start, p.w_0_start).map_err(|e| e.to_string())?;
        body.check_joint(&raw).map_err(|e| e.to_string())?;
        let (state, moved) = body.onto_joint(&raw);
        if let (true, Some(warnings)) = (moved, warnings) {
            warnings.push(format!(
                "v_0_start = {:?}, w_0_start = {:?} are not a motion of the joint (joint.kind = {}); they are projected onto it \
                 keeping the momentum along the joint: v_0 = {:?}, w_0 = {:?}",
                p.v_0_start,
                p.w_0_start,
                p.joint_kind,
                <[f64; 3]>::from(state.v),
                <[f64; 3]>::from(state.w)
            ));
        }
        Ok(state)
    }

    /// The body and, before initialisation has fixed it, the start state, both validated.
    pub(crate) fn body_and_state(&mut self) -> Result<(RigidBody, State), String> {
        let p = &self.parameters;
        let body = match &self.body {
            Some(body) => body.clone(),
            None => Self::build_body(p)?,
        };
        let state = match &self.state {
            Some(_) if self.exchange => {
                let state = self.continuous.state().map_err(|e| e.to_string())?;
                if body.joint().kind == JointKind::Free {
                    state
                } else {
                    // Outputs and derivatives of the nearest state on the joint, as they use q
                    // normalised: the importer's integration error off the joint changes no physics.
                    body.project(&Self::start_state(&body, p, None)?, &state)
                }
            }
            Some(state) => *state,
            None => {
                let norm = State::quaternion_norm(p.q_start);
                if norm.is_finite() && norm > 0.0 && (norm - 1.0).abs() > QUATERNION_NORM_TOLERANCE {
                    self.warnings.push(format!("q_start = {:?} has norm {norm}; it is normalised", p.q_start));
                }
                Self::start_state(&body, p, Some(&mut self.warnings))?
            }
        };
        Ok((body, state))
    }

    /// The outputs of `state`; the energy overflows (to infinity) before the state does, so
    /// finite states can still give outputs that are not all finite.
    pub(crate) fn outputs_of(body: &RigidBody, state: &State, inputs: &Inputs) -> Outputs {
        let reaction = body.reaction(state, &Vec3::from(inputs.f_0), &Vec3::from(inputs.t_0));
        Outputs {
            r_0: state.r.into(),
            q: state.q_wxyz(),
            v_0: state.v.into(),
            w_0: state.w.into(),
            energy: body.kinetic_energy(state) + body.potential_energy(state),
            joint_f_0: reaction.force.into(),
            joint_t_0: reaction.torque.into(),
            mobility: upper_triangle(&body.mobility(state)),
        }
    }

    /// The outputs of the current state (the start values before initialisation ends).
    pub fn update_outputs(&mut self) -> Result<(), ModelError> {
        let (body, state) = self.body_and_state().map_err(ModelError::Invalid)?;
        let outputs = Self::outputs_of(&body, &state, &self.held);
        if !outputs.all_finite() {
            return Err(ModelError::NotFinite(format!("the body's energy is {} for these start values", outputs.energy)));
        }
        self.outputs = outputs;
        Ok(())
    }

    /// The state projected onto the joint through the start pose (Model Exchange's events).
    pub(crate) fn projected(&self, body: &RigidBody, state: &State) -> Result<State, ModelError> {
        let reference = Self::start_state(body, &self.parameters, None).map_err(ModelError::Invalid)?;
        Ok(body.project(&reference, state))
    }
}

impl Model {
    /// The continuous state variable `select` of the accessors: until initialisation ends it is
    /// the start parameter itself (so the start values of the states are those of `r_0_start`,
    /// `q_start`, `v_0_start` and `w_0_start`, and setting either sets both), afterwards the
    /// running state.
    pub(crate) fn continuous_mut(&mut self, select: fn(&mut Continuous) -> &mut [f64], start: fn(&mut Parameters) -> &mut [f64]) -> &mut [f64] {
        if self.state.is_some() {
            select(&mut self.continuous)
        } else {
            start(&mut self.parameters)
        }
    }

    /// The derivative variable `select` of the accessors.
    pub(crate) fn derivative_mut(&mut self, select: fn(&mut Continuous) -> &mut [f64]) -> &mut [f64] {
        select(&mut self.derivatives)
    }

    /// The values of the continuous state variables as the accessors give them.
    fn continuous_values(&self) -> Continuous {
        if self.state.is_some() {
            self.continuous.clone()
        } else {
            let p = &self.parameters;
            Continuous { r_0: p.r_0_start, q: p.q_start, v_0: p.v_0_start, w_0: p.w_0_start }
        }
    }

    /// The derivatives of the continuous states at the current states and inputs: `dr/dt = v`,
    /// `dq/dt = 1/2 (0, ω) ⊗ q` of the state's own `q` (whose norm this keeps), and Newton-Euler
    /// for `v` and `ω` with the normalised orientation.
    pub(crate) fn update_derivatives(&mut self) -> Result<(), ModelError> {
        self.update_outputs()?;
        let (body, state) = self.body_and_state().map_err(ModelError::Invalid)?;
        let values = self.continuous_values();
        let (force, torque) = (Vec3::from(self.inputs.f_0), Vec3::from(self.inputs.t_0));
        let derivatives = if body.joint().kind == JointKind::Free {
            let (dv, dw) = (body.acceleration(&force), body.angular_acceleration(&state, &torque));
            Continuous { r_0: values.v_0, q: quaternion_rate(values.q, &state.w), v_0: dv.into(), w_0: dw.into() }
        } else {
            // `state` is the nearest state on the joint (`body_and_state`): the integrator's error
            // off the joint then has no derivative of its own to grow by (for a pendulum, a radial
            // velocity error would otherwise push the mass off its circle at the rate v_r^2 / d).
            let (dv, dw) = body.constrained_acceleration(&state, &force, &torque);
            Continuous { r_0: state.v.into(), q: quaternion_rate(values.q, &state.w), v_0: dv.into(), w_0: dw.into() }
        };
        let all = [derivatives.r_0.as_slice(), &derivatives.q, &derivatives.v_0, &derivatives.w_0].concat();
        if !finite(&all) {
            return Err(ModelError::NotFinite(format!(
                "the state derivatives are not finite (force {:?}, torque {:?}, angular velocity {:?})",
                self.inputs.f_0, self.inputs.t_0, values.w_0
            )));
        }
        self.derivatives = derivatives;
        Ok(())
    }
}

impl Outputs {
    pub(crate) fn all_finite(&self) -> bool {
        finite(&[self.r_0.as_slice(), &self.q, &self.v_0, &self.w_0, &[self.energy], &self.joint_f_0, &self.joint_t_0, &self.mobility].concat())
    }
}

pub(crate) fn finite(values: &[f64]) -> bool {
    values.iter().all(|x| x.is_finite())
}
