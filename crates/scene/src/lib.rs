//! ContactScene's physics: every contact among N bodies in one model, so that stacks, piles and
//! grasps are integrated together. Pure Rust, no FMI (the FMU wiring comes on top of it, as
//! PlanarContact's does).
//!
//! - [`description`]: the bodies (ContactForce's shape parameters, mass, inertia, centre of mass,
//!   material, collision group and mask), the material table and the law set, checked into a
//!   [`Scene`]; [`file`](mod@file): the same from a TOML or JSON scene file.
//! - [`broad`]: sweep and prune on the bodies' world boxes.
//! - [`scene`]: the instantaneous evaluation (ContactForce's pairs and laws from
//!   `contact_physics`, the wrenches summed per body).
//! - [`step_average`]: StepAverage for the whole scene: all its movable bodies integrated together
//!   over the coming step, the impulse each receives reported divided by the step.
#![forbid(unsafe_code)]

pub mod broad;
pub mod description;
pub mod file;
pub mod scene;
pub mod step_average;

pub use description::{BodyDescription, CouplingDescription, Material, MaterialPairLaws, SceneDescription};
pub use scene::{BodyOutput, Scene, SceneOutputs, Workspace};
pub use step_average::{Averaged, Coupling, ForceTorque, Inputs, UnknownStart};
