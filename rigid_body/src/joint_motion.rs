//! The body's motion on its joint to the world ([`joint`](crate::joint), whose notation this
//! follows): the constrained Newton-Euler equations, the joint's reaction, the body's mobility
//! matrix and the symplectic step on the joint's coordinate.
//!
//! The generalized mass `S^T M S` is `m |u × (r - p)|² + uᵀ I_W u` (Revolute; both terms are
//! constant along the motion, since the distance to the axis and the body's inertia about a fixed
//! axis it turns about do not change) or `m` (Prismatic). The generalized force of the applied
//! wrench (the input force and torque plus gravity `m g`) is `Q = Sᵀ F`, and with constant `S^T M S`
//! the equation of motion is simply `(Sᵀ M S) θ'' = Q(θ)`: the gyroscopic torque
//! `θ'² u × (I_W u)` and the centripetal force `-m θ'² (r - p)⊥` are orthogonal to `S`, so they
//! do no work along the joint and only load it. The reaction wrench the joint exerts on the body
//! is what the Newton-Euler equations still need once the motion is known:
//! `F_joint = M A + (0, ω × I_W ω) - F`, `A = S θ'' + dS/dt θ'` the body's spatial acceleration.
#![forbid(unsafe_code)]

use contact_physics::parameters::{refuse, ParameterError};
use nalgebra::{Matrix3, Matrix6, Vector6};

use crate::body::{RigidBody, State};
use crate::joint::{list, twist, JointKind, Reaction, CONSISTENCY_TOLERANCE};
use crate::{Rotation, Vec3};

fn upper(x: &Vector6<f64>) -> Vec3 {
    Vec3::new(x[0], x[1], x[2])
}

fn lower(x: &Vector6<f64>) -> Vec3 {
    Vec3::new(x[3], x[4], x[5])
}

/// The rotation by `angle` \[rad\] about the unit `axis`.
fn turn(axis: &Vec3, angle: f64) -> Rotation {
    Rotation::from_scaled_axis(axis * angle)
}

impl RigidBody {
    /// Refuses a joint that cannot move the body from `state`: a revolute joint whose axis passes
    /// through the centre of mass of a body with no moment of inertia about it (a point mass on
    /// the axis) has no finite angular acceleration.
    pub fn check_joint(&self, state: &State) -> Result<(), ParameterError> {
        match self.joint_mass(state) {
            Some(mass) if !(mass > 0.0 && mass.is_finite()) => Err(refuse(
                "joint.pivot",
                list(&[self.joint().pivot[0], self.joint().pivot[1], self.joint().pivot[2]]),
                format!(
                    "the moment of inertia about the joint axis {} through it is {mass} for r_0_start = {}: \
                     put the axis away from a point mass's centre or give the body inertia about it",
                    list(&[self.joint().axis[0], self.joint().axis[1], self.joint().axis[2]]),
                    list(&[state.r[0], state.r[1], state.r[2]])
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The spatial inertia `diag(m 1, I_W)` at the centre of mass, in W.
    pub fn spatial_inertia(&self, q: &Rotation) -> Matrix6<f64> {
        let mut m = Matrix6::zeros();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(&(Matrix3::identity() * self.mass()));
        m.fixed_view_mut::<3, 3>(3, 3).copy_from(&self.inertia_w(q));
        m
    }

    /// The generalized mass `Sᵀ M S` of the joint at `state` \[kg or kg.m2\] (`None` when free).
    pub fn joint_mass(&self, state: &State) -> Option<f64> {
        let s = self.joint().subspace(&state.r)?;
        Some(s.dot(&(self.spatial_inertia(&state.q) * s)))
    }

    /// The joint's rate `θ'` \[rad/s or m/s\] that keeps the momentum of the twist `(v, ω)` along
    /// the joint: `Sᵀ M V / Sᵀ M S`, the rate after an impulse in the joint locks out every other
    /// motion (`None` when free).
    pub fn joint_rate(&self, state: &State) -> Option<f64> {
        let s = self.joint().subspace(&state.r)?;
        let m = self.spatial_inertia(&state.q);
        Some(s.dot(&(m * twist(&state.v, &state.w))) / s.dot(&(m * s)))
    }

    /// `state` with its twist projected onto the joint ([`joint_rate`](Self::joint_rate)), and
    /// whether that changed it by more than [`CONSISTENCY_TOLERANCE`] (relative to the twist, per
    /// vector). The pose is always consistent: a revolute joint turns the body about the axis from
    /// wherever it is, a prismatic one slides it from there. Free: the state as it is.
    pub fn onto_joint(&self, state: &State) -> (State, bool) {
        let Some(rate) = self.joint_rate(state) else {
            return (*state, false);
        };
        let s = self.joint().subspace(&state.r).expect("jointed");
        let projected = State { v: upper(&s) * rate, w: lower(&s) * rate, ..*state };
        let far = |a: &Vec3, b: &Vec3| (a - b).norm() > CONSISTENCY_TOLERANCE * (1.0 + a.norm().max(b.norm()));
        (projected, far(&state.v, &projected.v) || far(&state.w, &projected.w))
    }

    /// The pose `(r, q)` reached from `reference` by the joint's coordinate `θ` (Revolute: a turn
    /// by `θ` about the axis through the pivot; Prismatic: a slide by `θ` along the axis).
    pub fn pose_at(&self, reference: &State, theta: f64) -> (Vec3, Rotation) {
        let joint = self.joint();
        match joint.kind {
            JointKind::Free => (reference.r, reference.q),
            JointKind::Revolute => {
                let turn = turn(&joint.axis, theta);
                (joint.pivot + turn * (reference.r - joint.pivot), Rotation::new_normalize((turn * reference.q).into_inner()))
            }
            JointKind::Prismatic => (reference.r + joint.axis * theta, reference.q),
        }
    }

    /// The joint's coordinate of the pose `state` relative to `reference` (the inverse of
    /// [`pose_at`](Self::pose_at) on the joint; off it, the coordinate of the nearest pose):
    /// Revolute from the orientation (the angle about the axis of `q q_ref⁻¹`), or, for a body
    /// whose orientation does not matter (a point mass, no inertia about the axis), from the
    /// position; Prismatic the displacement along the axis.
    pub fn joint_coordinate(&self, reference: &State, state: &State) -> f64 {
        let joint = self.joint();
        let u = joint.axis;
        match joint.kind {
            JointKind::Free => 0.0,
            JointKind::Revolute => {
                let arm0 = reference.r - joint.pivot;
                let arm0 = arm0 - u * u.dot(&arm0);
                if u.dot(&(self.inertia_w(&reference.q) * u)) == 0.0 && arm0.norm() > 0.0 {
                    let arm = state.r - joint.pivot;
                    let arm = arm - u * u.dot(&arm);
                    arm0.cross(&arm).dot(&u).atan2(arm0.dot(&arm))
                } else {
                    let relative = (state.q * reference.q.inverse()).into_inner();
                    2.0 * u.dot(&relative.imag()).atan2(relative.w)
                }
            }
            JointKind::Prismatic => u.dot(&(state.r - reference.r)),
        }
    }

    /// `state` projected onto the joint through `reference` (the start pose): the pose at the
    /// joint coordinate of `state`, then the twist as in [`onto_joint`](Self::onto_joint).
    pub fn project(&self, reference: &State, state: &State) -> State {
        if self.joint().kind == JointKind::Free {
            return *state;
        }
        let (r, q) = self.pose_at(reference, self.joint_coordinate(reference, state));
        self.onto_joint(&State { r, q, ..*state }).0
    }

    /// The generalized force of the applied wrench (`force_w` + `m g`, `torque_w` about the frame
    /// origin) at the frame origin `r`.
    fn generalized_force(&self, r: &Vec3, force_w: &Vec3, torque_w: &Vec3) -> f64 {
        let s = self.joint().subspace(r).expect("jointed");
        s.dot(&twist(&(force_w + self.gravity() * self.mass()), torque_w))
    }

    /// The joint's acceleration `θ''` at `state` under the applied force and torque.
    pub fn joint_acceleration(&self, state: &State, force_w: &Vec3, torque_w: &Vec3) -> f64 {
        let mass = self.joint_mass(state).expect("jointed");
        self.generalized_force(&state.r, force_w, torque_w) / mass
    }

    /// The constrained accelerations `(dv/dt, dω/dt)` at `state` (whose twist is taken on the
    /// joint, `θ' =` [`joint_rate`](Self::joint_rate)): `A = S θ'' + dS/dt θ'`, with
    /// `dS/dt θ' = (θ'² u × (u × (r - p)), 0)` for Revolute and 0 for Prismatic.
    pub fn constrained_acceleration(&self, state: &State, force_w: &Vec3, torque_w: &Vec3) -> (Vec3, Vec3) {
        let joint = self.joint();
        let u = joint.axis;
        let s = joint.subspace(&state.r).expect("jointed");
        let rate = self.joint_rate(state).expect("jointed");
        let acceleration = self.joint_acceleration(state, force_w, torque_w);
        let mut dv = upper(&s) * acceleration;
        if joint.kind == JointKind::Revolute {
            dv += u.cross(&u.cross(&(state.r - joint.pivot))) * (rate * rate);
        }
        (dv, lower(&s) * acceleration)
    }

    /// The joint's reaction on the body at `state` under the applied force and torque, from
    /// Newton-Euler with the constrained accelerations: `F_joint = M A + (0, ω × I_W ω) - F`
    /// (`F` includes gravity). Zero for the free body.
    pub fn reaction(&self, state: &State, force_w: &Vec3, torque_w: &Vec3) -> Reaction {
        if self.joint().kind == JointKind::Free {
            return Reaction::default();
        }
        let (dv, dw) = self.constrained_acceleration(state, force_w, torque_w);
        let inertia_w = self.inertia_w(&state.q);
        let rate = self.joint_rate(state).expect("jointed");
        let w = lower(&self.joint().subspace(&state.r).expect("jointed")) * rate;
        Reaction {
            force: dv * self.mass() - force_w - self.gravity() * self.mass(),
            torque: inertia_w * dw + w.cross(&(inertia_w * w)) - torque_w,
        }
    }

    /// The mobility matrix `Φ` (6x6, symmetric, in W at the frame origin): `dV = Φ J` for an
    /// impulse `J = (f dt, τ dt)`. Free: `M⁻¹ = diag(1/m, I_W⁻¹)`; jointed: `S (Sᵀ M S)⁻¹ Sᵀ`.
    pub fn mobility(&self, state: &State) -> Matrix6<f64> {
        match self.joint().subspace(&state.r) {
            None => {
                let mut phi = Matrix6::zeros();
                phi.fixed_view_mut::<3, 3>(0, 0).copy_from(&(Matrix3::identity() / self.mass()));
                // I_W is positive definite for a free body (validated), so it has an inverse.
                let inverse = self.inertia_w(&state.q).try_inverse().expect("the inertia tensor is positive definite");
                // Symmetric to the bit, as the upper triangle output takes it.
                phi.fixed_view_mut::<3, 3>(3, 3).copy_from(&((inverse + inverse.transpose()) * 0.5));
                phi
            }
            Some(s) => s * s.transpose() / self.joint_mass(state).expect("jointed"),
        }
    }

    /// Advances a jointed body by `h` in `n` equal sub-steps of the velocity Verlet (Störmer-Verlet)
    /// scheme on the joint's coordinate, with the force and torque held in W (their generalized
    /// force follows the pose) and gravity: half kick `θ' += h/2 θ''(θ)`, drift `θ += h θ'`, half
    /// kick. Symplectic and time-reversible, second order; exact for Prismatic (constant `θ''`).
    /// The pose is rebuilt from the step's start pose at the reached `θ`, so it stays on the joint
    /// to round-off.
    pub(crate) fn step_joint(&self, state: &mut State, force_w: &Vec3, torque_w: &Vec3, h: f64, n: usize) {
        let start = *state;
        let mass = self.joint_mass(&start).expect("jointed");
        let mut theta = 0.0;
        let mut rate = self.joint_rate(&start).expect("jointed");
        let h_sub = h / n as f64;
        let force_at = |theta: f64| {
            let (r, _) = self.pose_at(&start, theta);
            self.generalized_force(&r, force_w, torque_w) / mass
        };
        let mut acceleration = force_at(theta);
        for _ in 0..n {
            rate += 0.5 * h_sub * acceleration;
            theta += h_sub * rate;
            acceleration = force_at(theta);
            rate += 0.5 * h_sub * acceleration;
        }
        let (r, q) = self.pose_at(&start, theta);
        let s = self.joint().subspace(&r).expect("jointed");
        *state = State { r, q, v: upper(&s) * rate, w: lower(&s) * rate };
    }
}
