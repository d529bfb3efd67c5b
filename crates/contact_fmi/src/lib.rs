//! The FMU plumbing shared by the models whose parameters hold ContactForce's laws (ContactForce
//! and PlanarContact), between the generic FMI machinery (`fmi_export`) and the physics
//! (`contact_physics`): the point slots of Model Exchange ([`point_slots`]), the point states'
//! bytes in an FMU state ([`point_states`]), the rows of the law parameters with their
//! enumeration types ([`law_rows`]), and those of a body's geometry and of the coupling
//! ([`geometry_rows`]). A model crate depends on this crate, never on another model
//! crate (each model's binary exports its own FMI functions).
#![forbid(unsafe_code)]

pub mod geometry_rows;
pub mod law_rows;
pub mod point_slots;
pub mod point_states;

pub use contact_physics;

/// How many contact points have their own outputs (`contact.point[i].*`): the points with ids
/// 0 to 7 (box corners, manifold slots, the first points of a cloud).
pub const POINT_OUTPUTS: usize = 8;
