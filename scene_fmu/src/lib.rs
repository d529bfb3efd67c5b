//! ContactScene: every contact among up to [`MAX_BODIES`] bodies in one FMU, so that a body
//! touched by several others is integrated with all of them together (issue 27). The physics is
//! the `contact_scene` crate's (the scene, the broad phase, the instantaneous evaluation,
//! StepAverage over all bodies); this crate makes it an FMU through `fmi_export`, as
//! PlanarContact does: [`variables`] is the variable table, [`model`] holds an instance's
//! parameters, inputs, outputs and the scene built from them, [`fmi`] its lifecycle.
//!
//! Conventions are ContactForce's: body i's frame has the pose `body[i].r_0`, `body[i].q` and the
//! twist `body[i].v_0`, `body[i].w_0` in W; its outputs are the force `body[i].f_0` and the torque
//! `body[i].t_0` about its frame origin, in W. Its geometry has ContactForce's `geometry_X.*`
//! parameters as `body[i].*`, but for the geometry frame's pose, `body[i].geometry.r` and
//! `body[i].geometry.q` (`body[i].q` is the body's input).

pub mod fmi;
pub mod model;
pub mod variables;

/// The bodies the model descriptions declare (`body[1]` to `body[16]`); `scene.bodies` says how
/// many a scene uses.
pub const MAX_BODIES: usize = 16;
