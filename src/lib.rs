//! ContactForce: a rigid-body contact block as an FMI 2.0 and FMI 3.0 co-simulation FMU.
//!
//! Layers, each depending only on those above it (see ARCHITECTURE.md):
//! - [`physics`]: geometry pairs, normal and friction laws; pure Rust, no FMI words: the crate
//!   `contact_physics` (crates/physics), re-exported here with its shape [`files`].
//! - [`block`]: parameters, inputs and outputs of the block and their evaluation.
//! - [`model`]: one instance's data and lifecycle (lazy outputs, stepping); [`derivatives`]: its
//!   directional, adjoint and output derivatives by value reference.
//! - [`variables`]: the single table of FMI variables; get/set dispatch, serialization, token.
//! - [`fmi`]: the thin C API adapters for FMI 2.0 and FMI 3.0 and the model descriptions.

pub mod block;
pub mod derivatives;
pub mod fmi;
pub mod model;
pub mod variables;
pub use contact_physics as physics;
pub use contact_physics::files;
#[cfg(test)]
use contact_physics::test_rng;
