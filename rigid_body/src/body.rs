//! The body's parameters and state, and the quantities its free motion conserves.
#![forbid(unsafe_code)]

use nalgebra::{Matrix3, Quaternion, SymmetricEigen};

use crate::rotor::FreeRotor;
use crate::joint::{Joint, JointKind};
use crate::{Rotation, Vec3};

/// Standard gravity along -z of W \[m/s2\], the default of the `gravity` parameter.
pub const DEFAULT_GRAVITY: [f64; 3] = [0.0, 0.0, -9.81];

/// Relative slack of the triangle inequality check, for the round-off of the eigen-decomposition:
/// a flat plate lies exactly on the boundary `I1 + I2 = I3` and must pass.
const TRIANGLE_SLACK: f64 = 1e-9;

pub use contact_physics::parameters::ParameterError;
use contact_physics::parameters::refuse;

/// Formats a list of numbers as `[a, b, c]` with each number's shortest exact decimal form.
fn list(values: &[f64]) -> String {
    let items: Vec<String> = values.iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

fn finite_vector(variable: &str, values: [f64; 3]) -> Result<Vec3, ParameterError> {
    if values.iter().all(|x| x.is_finite()) {
        Ok(Vec3::from(values))
    } else {
        Err(refuse(variable, list(&values), "must be finite"))
    }
}

/// A free rigid body whose frame sits at its centre of mass: mass `m` \[kg\], inertia tensor `I`
/// about the centre of mass resolved in the body frame \[kg.m2\], and a uniform gravity field `g`
/// \[m/s2\] resolved in W.
///
/// With the external force `f` and torque `τ` about the centre of mass (both in W), its motion is
/// Newton-Euler's:
///
/// ```text
/// dr/dt = v,   m dv/dt = m g + f,   dR/dt = [ω]× R,   dL/dt = τ,   L = R I Rᵀ ω,
/// ```
///
/// with `R` the rotation matrix of `q` and `L` the angular momentum about the centre of mass in W.
/// Writing the rotation through `L` rather than Euler's `I dω/dt = ...` is what lets the
/// integrator keep `L` constant when `τ = 0`, up to the round-off of converting it to and from `ω`.
#[derive(Clone, Debug)]
pub struct RigidBody {
    mass: f64,
    inertia: Matrix3<f64>,
    gravity: Vec3,
    joint: Joint,
    pub(crate) rotor: FreeRotor,
}

impl RigidBody {
    /// Validates the parameters and builds the body.
    ///
    /// `inertia` lists the tensor's elements `[Ixx, Iyy, Izz, Ixy, Ixz, Iyz]` in the body frame
    /// about the centre of mass. The off-diagonal entries are elements of the tensor,
    /// `Ixy = -∫ x y dm` (Modelica's `I_21`), not the products of inertia `∫ x y dm`.
    ///
    /// Rules, each refused with the parameter's name, value and the rule:
    /// - `mass` finite and > 0;
    /// - `inertia` finite and positive definite (every principal moment > 0: a body with a zero
    ///   moment, an ideal rod, has no finite angular velocity for a given angular momentum);
    /// - the principal moments satisfy the triangle inequalities `I1 + I2 >= I3` (in any order) of
    ///   every real mass distribution: in principal axes `I1 + I2 - I3 = 2 ∫ z² dm >= 0`;
    /// - `gravity` finite.
    pub fn new(mass: f64, inertia: [f64; 6], gravity: Vec3) -> Result<Self, ParameterError> {
        Self::with_joint(mass, inertia, gravity, Joint::FREE)
    }

    /// [`new`](Self::new) with a joint to the world. The rules are those of `new`, except that a
    /// jointed body's inertia need only be positive semi-definite (a point mass, all zero, on a
    /// revolute joint is a pendulum; a prismatic joint never turns the body). That the joint's
    /// generalized mass is > 0 depends on the start position too: see
    /// [`check_joint`](Self::check_joint).
    pub fn with_joint(mass: f64, inertia: [f64; 6], gravity: Vec3, joint: Joint) -> Result<Self, ParameterError> {
        if !(mass.is_finite() && mass > 0.0) {
            return Err(refuse("mass", mass, "must be > 0 and finite"));
        }
        let shown = list(&inertia);
        if !inertia.iter().all(|x| x.is_finite()) {
            return Err(refuse("inertia", shown, "must be finite"));
        }
        let [ixx, iyy, izz, ixy, ixz, iyz] = inertia;
        let tensor = Matrix3::new(ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz);
        let moments = SymmetricEigen::new(tensor).eigenvalues;
        let mut sorted = [moments[0], moments[1], moments[2]];
        sorted.sort_by(f64::total_cmp);
        if joint.kind == JointKind::Free && sorted[0] <= 0.0 {
            return Err(refuse("inertia", shown, format!("not positive definite (principal moments {})", list(&sorted))));
        }
        // The round-off of the eigen-decomposition of a semi-definite tensor: -1e-16 is zero.
        if sorted[0] < -TRIANGLE_SLACK * sorted[2].abs() {
            return Err(refuse("inertia", shown, format!("not positive semi-definite (principal moments {})", list(&sorted))));
        }
        if sorted[2] > (sorted[0] + sorted[1]) * (1.0 + TRIANGLE_SLACK) {
            return Err(refuse(
                "inertia",
                shown,
                format!(
                    "principal moments {} violate the triangle inequality I1 + I2 >= I3 of a real mass distribution",
                    list(&sorted)
                ),
            ));
        }
        let gravity = finite_vector("gravity", gravity.into())?;
        Ok(RigidBody { mass, inertia: tensor, gravity, joint, rotor: FreeRotor::new(&tensor) })
    }

    /// The joint to the world ([`Joint::FREE`] for a free body).
    pub fn joint(&self) -> &Joint {
        &self.joint
    }

    /// Mass \[kg\].
    pub fn mass(&self) -> f64 {
        self.mass
    }

    /// Inertia tensor about the centre of mass, resolved in the body frame \[kg.m2\].
    pub fn inertia(&self) -> Matrix3<f64> {
        self.inertia
    }

    /// Gravity, resolved in W \[m/s2\].
    pub fn gravity(&self) -> Vec3 {
        self.gravity
    }

    /// Principal moments of inertia in ascending order `I1 <= I2 <= I3` \[kg.m2\].
    pub fn principal_moments(&self) -> Vec3 {
        self.rotor.moments
    }

    /// Orientation of the principal frame in the body frame: its columns (as a rotation matrix) are
    /// the principal axes belonging to [`principal_moments`](Self::principal_moments).
    pub fn principal_axes(&self) -> Rotation {
        self.rotor.axes
    }

    /// Inertia tensor about the centre of mass resolved in W for orientation `q`: `R I Rᵀ`.
    pub fn inertia_w(&self, q: &Rotation) -> Matrix3<f64> {
        let r = q.to_rotation_matrix();
        r.matrix() * self.inertia * r.matrix().transpose()
    }

    /// Linear momentum `m v` in W \[N.s\].
    pub fn linear_momentum(&self, state: &State) -> Vec3 {
        state.v * self.mass
    }

    /// Angular momentum about the centre of mass in W, `L = R I Rᵀ ω` \[N.m.s\].
    pub fn angular_momentum(&self, state: &State) -> Vec3 {
        self.inertia_w(&state.q) * state.w
    }

    /// Kinetic energy `m |v|²/2 + ω·L/2` \[J\].
    pub fn kinetic_energy(&self, state: &State) -> f64 {
        0.5 * self.mass * state.v.norm_squared() + 0.5 * state.w.dot(&self.angular_momentum(state))
    }

    /// Acceleration of the centre of mass under the external force `force_w` (in W), Newton's
    /// `dv/dt = g + f/m`: the translation the integrator makes exact for a held force.
    pub fn acceleration(&self, force_w: &Vec3) -> Vec3 {
        self.gravity + force_w / self.mass
    }

    /// Angular acceleration in W under the torque `torque_w` about the centre of mass (in W).
    ///
    /// It follows from `dL/dt = τ` with `L = I_W ω`, `I_W = R I Rᵀ`: since `dR/dt = [ω]× R`,
    /// `dI_W/dt ω = ω × (I_W ω) - I_W (ω × ω) = ω × L`, so `I_W dω/dt = τ - ω × L` (Euler's
    /// equations resolved in W). The integrator integrates the same law through `L`.
    pub fn angular_acceleration(&self, state: &State, torque_w: &Vec3) -> Vec3 {
        let inertia_w = self.inertia_w(&state.q);
        let l_w = inertia_w * state.w;
        // I_W is symmetric positive definite (validated in `new`), so the solve cannot fail.
        let cholesky = inertia_w.cholesky().expect("the inertia tensor is positive definite");
        cholesky.solve(&(torque_w - state.w.cross(&l_w)))
    }

    /// Potential energy in the gravity field, `-m g·r`, zero at the origin of W \[J\].
    pub fn potential_energy(&self, state: &State) -> f64 {
        -self.mass * self.gravity.dot(&state.r)
    }
}

/// Time derivative of an orientation quaternion under the angular velocity `w` resolved in W:
/// `dq/dt = 1/2 (0, ω) ⊗ q`, scalar first `(w, x, y, z)`, for `q` of any norm.
///
/// `(0, ω) ⊗ q` is orthogonal to `q` in R⁴, so `d|q|²/dt = 0`: the flow keeps the norm, and an
/// integrator that follows it drifts from unit only by its own error (which Model Exchange
/// removes at events, see `model`).
pub fn quaternion_rate(q: [f64; 4], w: &Vec3) -> [f64; 4] {
    let [s, x, y, z] = q;
    let v = Vec3::new(x, y, z);
    let vector = w * s + w.cross(&v);
    [-0.5 * w.dot(&v), 0.5 * vector[0], 0.5 * vector[1], 0.5 * vector[2]]
}

/// The motion of the body: position `r` of the centre of mass, orientation `q` (rotates body-frame
/// vectors into W), velocity `v` of the centre of mass and angular velocity `w`, all resolved in W.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct State {
    pub r: Vec3,
    pub q: Rotation,
    pub v: Vec3,
    pub w: Vec3,
}

impl State {
    /// The state from its start values as the interface gives them, `q_start` scalar first
    /// `(w, x, y, z)`.
    ///
    /// `q_start` is normalised, so that a rounded quaternion such as `(0.7071, 0.7071, 0, 0)` is
    /// accepted; a zero or non-finite one names no rotation and is refused, as are non-finite
    /// vectors. [`quaternion_norm`](Self::quaternion_norm) tells a caller how far from unit it was.
    pub fn from_start(
        r_0_start: [f64; 3],
        q_start: [f64; 4],
        v_0_start: [f64; 3],
        w_0_start: [f64; 3],
    ) -> Result<State, ParameterError> {
        let r = finite_vector("r_0_start", r_0_start)?;
        let raw = Quaternion::new(q_start[0], q_start[1], q_start[2], q_start[3]);
        let norm = raw.norm();
        if !(norm.is_finite() && norm > 1e-12) {
            return Err(refuse("q_start", list(&q_start), "must be a finite, nonzero quaternion (w, x, y, z)"));
        }
        let q = Rotation::new_unchecked(raw / norm);
        let v = finite_vector("v_0_start", v_0_start)?;
        let w = finite_vector("w_0_start", w_0_start)?;
        Ok(State { r, q, v, w })
    }

    /// Euclidean norm of scalar-first quaternion components, for a caller's "not unit" warning.
    pub fn quaternion_norm(q_wxyz: [f64; 4]) -> f64 {
        Quaternion::new(q_wxyz[0], q_wxyz[1], q_wxyz[2], q_wxyz[3]).norm()
    }

    /// The orientation scalar first, `(w, x, y, z)`, as the interface writes it.
    pub fn q_wxyz(&self) -> [f64; 4] {
        [self.q.w, self.q.i, self.q.j, self.q.k]
    }
}
