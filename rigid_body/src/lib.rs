//! RigidBody: the physics of a free 6-DoF rigid body, the companion of the ContactForce block.
//!
//! The physics is pure Rust, with no FMI words (`body`, `integrator`); [`RigidBody`] holds the validated parameters (mass, inertia tensor,
//! gravity), [`State`] the motion (pose and twist of the centre-of-mass frame, resolved in W), and
//! [`RigidBody::step`] advances the state over a communication step with the external force and
//! torque held, by the splitting integrator documented in [`integrator`]. `model` and `variables`
//! make it an FMU through the `fmi_export` crate (`fmi`).
//!
//! Conventions are those of ContactForce (shared/spec/interface.md): SI units; W is the world frame;
//! the body frame sits at the centre of mass; the quaternion `q` rotates body-frame vectors into W
//! and is written scalar first `(w, x, y, z)` at the interface; velocities, angular velocities,
//! forces and torques are resolved in W, torques about the centre of mass.

pub mod body;
pub mod fmi;
pub mod integrator;
pub mod joint;
pub mod joint_motion;
pub mod model;
mod rotor;
pub mod variables;

pub use body::{ParameterError, RigidBody, State, DEFAULT_GRAVITY};
pub use integrator::substeps;
pub use joint::{effective_mass, Joint, JointKind, Reaction};

/// A vector resolved in a frame named by the variable (`_w`: the world frame W).
pub type Vec3 = nalgebra::Vector3<f64>;

/// An orientation: a unit quaternion rotating vectors of one frame into another.
pub type Rotation = nalgebra::UnitQuaternion<f64>;
