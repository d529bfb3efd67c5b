//! The contact physics of ContactForce and PlanarContact: pure Rust, no FMI words, no `unsafe`.
//! ContactForce re-exports this crate as `contact_force::physics` (and [`files`] as
//! `contact_force::files`).
//!
//! Frames and signs follow shared/spec/physics.md "Symbols and signs", stated once here:
//! A is the base body, B the follower, W the world frame. The contact normal `normal_ab_w` points
//! from A toward B. `separation` is positive when apart; the penetration depth is
//! `depth = max(0, -separation)`. The force on B at a contact point is `f_n n + f_t`; A receives
//! the opposite force at the same point.
#![forbid(unsafe_code)]

pub mod contact;
pub mod dual;
pub mod enums;
pub mod files;
pub mod friction;
pub mod geometry;
pub mod geometry_parameters;
pub mod hyperbolic;
pub mod master_order;
pub mod material;
pub mod mobility;
pub mod math;
pub mod normal;
pub mod point_events;
pub mod provided;
pub mod onset;
pub mod parameters;
pub mod real;
pub mod rigid_motion;
pub mod shape;
pub mod state_bytes;
pub mod step;
pub mod substeps;
#[doc(hidden)]
pub mod test_rng;
