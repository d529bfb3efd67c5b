//! A joint to the world: the body free (6 degrees of freedom), turning about a fixed axis
//! (Revolute) or sliding along one (Prismatic): its kind, pivot and axis, its motion subspace, and
//! the mass a body shows to a push through it. The body's motion on the joint (the constrained
//! Newton-Euler equations, the joint's reaction and the body's mobility matrix) is in
//! [`joint_motion`](crate::joint_motion).
//!
//! Notation (all in W, at the body's frame origin, which is its centre of mass): the twist
//! `V = (v, ω)`, the wrench `F = (f, τ)` with `τ` about the frame origin, the spatial inertia
//! `M = diag(m 1, I_W)` with `I_W = R I Rᵀ`, so that Newton-Euler reads
//! `M dV/dt + (0, ω × I_W ω) = F`. A joint with one degree of freedom `θ` (an angle or a
//! displacement) allows the twists `V = S θ'` of its motion subspace `S` (6x1), with `u` the unit
//! axis and `p` the pivot:
//!
//! ```text
//! Revolute:   S = [u × (r - p); u]      Prismatic:   S = [u; 0]
//! ```
//!
//! Mobility. An impulse `J = F dt` changes the twist by `dV = Φ J`: for the free body
//! `Φ = M⁻¹`; with a joint the impulse also passes through the joint, which lets only `dV = S dθ'`
//! with `(Sᵀ M S) dθ' = Sᵀ J`, so `Φ = S (Sᵀ M S)⁻¹ Sᵀ`. The mass the body shows to a push along
//! the unit `n` at the point `c` is `1 / (Gᵀ Φ G)` with `G = [n; (c - r) × n]`
//! ([`effective_mass`]).
#![forbid(unsafe_code)]

use contact_physics::parameters::ParameterError;
use nalgebra::{Matrix6, Vector6};

use crate::Vec3;

/// Relative tolerance under which start velocities count as consistent with the joint (their
/// projection onto it is then silent).
pub const CONSISTENCY_TOLERANCE: f64 = 1e-9;

/// The kind of joint to the world, with the values of the `joint.kind` enumeration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JointKind {
    /// No joint: the free 6-DoF body.
    #[default]
    Free = 1,
    /// Turns about the axis through the pivot.
    Revolute = 2,
    /// Slides along the axis without turning.
    Prismatic = 3,
}

impl JointKind {
    /// The kind of an enumeration value, `None` for a value that names none.
    pub fn from_value(value: i64) -> Option<JointKind> {
        match value {
            1 => Some(JointKind::Free),
            2 => Some(JointKind::Revolute),
            3 => Some(JointKind::Prismatic),
            _ => None,
        }
    }
}

/// A validated joint: its kind, the pivot (a point on the axis, in W \[m\]) and the unit axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Joint {
    pub kind: JointKind,
    pub pivot: Vec3,
    pub axis: Vec3,
}

impl Joint {
    /// The free body (no joint).
    pub const FREE: Joint =
        Joint { kind: JointKind::Free, pivot: Vec3::new(0.0, 0.0, 0.0), axis: Vec3::new(0.0, 0.0, 1.0) };

    /// Validates the parameters: `joint.pivot` finite, `joint.axis` finite and nonzero
    /// (normalised), whatever the kind, so that a bad value is caught before the kind changes.
    pub fn new(kind: JointKind, pivot: [f64; 3], axis: [f64; 3]) -> Result<Joint, ParameterError> {
        if !pivot.iter().all(|x| x.is_finite()) {
            return Err(ParameterError::new("joint.pivot", list(&pivot), "must be finite"));
        }
        let a = Vec3::from(axis);
        let norm = a.norm();
        if !(axis.iter().all(|x| x.is_finite()) && norm.is_finite() && norm > 1e-12) {
            return Err(ParameterError::new("joint.axis", list(&axis), "must be a finite, nonzero direction"));
        }
        Ok(Joint { kind, pivot: Vec3::from(pivot), axis: a / norm })
    }

    /// The motion subspace `S` at the frame origin `r` (`None` for the free body).
    pub fn subspace(&self, r: &Vec3) -> Option<Vector6<f64>> {
        let u = self.axis;
        match self.kind {
            JointKind::Free => None,
            JointKind::Revolute => {
                let t = u.cross(&(r - self.pivot));
                Some(Vector6::new(t[0], t[1], t[2], u[0], u[1], u[2]))
            }
            JointKind::Prismatic => Some(Vector6::new(u[0], u[1], u[2], 0.0, 0.0, 0.0)),
        }
    }
}

pub(crate) fn list(values: &[f64]) -> String {
    let items: Vec<String> = values.iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

pub(crate) fn twist(v: &Vec3, w: &Vec3) -> Vector6<f64> {
    Vector6::new(v[0], v[1], v[2], w[0], w[1], w[2])
}

/// The joint's reaction on the body, force and torque about the frame origin, in W.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reaction {
    pub force: Vec3,
    pub torque: Vec3,
}

/// The mass a body with mobility `phi` shows to a push along the unit direction `n` at the point
/// `c`, its frame origin at `r` (all in W): `1 / (Gᵀ Φ G)`, `G = [n; (c - r) × n]` (the impulse
/// `n` at `c` as a wrench at the frame origin), \[kg\]. Infinite when the body cannot move that way
/// (the form `Gᵀ Φ G` is 0, or negative by round-off).
pub fn effective_mass(phi: &Matrix6<f64>, n: &Vec3, c: &Vec3, r: &Vec3) -> f64 {
    let g = twist(n, &(c - r).cross(n));
    // Φ is positive semi-definite: a negative form is the round-off of a zero (a direction
    // the joint does not allow), an infinite mass.
    let form = g.dot(&(phi * g));
    if form > 0.0 {
        1.0 / form
    } else {
        f64::INFINITY
    }
}

/// The upper triangle of a symmetric 6x6 matrix row by row: `Φ11..Φ16, Φ22..Φ26, ..., Φ66`.
pub fn upper_triangle(phi: &Matrix6<f64>) -> [f64; 21] {
    let mut out = [0.0; 21];
    let mut k = 0;
    for i in 0..6 {
        for j in i..6 {
            out[k] = phi[(i, j)];
            k += 1;
        }
    }
    out
}

/// The symmetric 6x6 matrix of its [`upper_triangle`].
pub fn from_upper_triangle(values: &[f64; 21]) -> Matrix6<f64> {
    let mut phi = Matrix6::zeros();
    let mut k = 0;
    for i in 0..6 {
        for j in i..6 {
            phi[(i, j)] = values[k];
            phi[(j, i)] = values[k];
            k += 1;
        }
    }
    phi
}
