//! The variable table of RigidBody. Value references: `time` 0, parameters 1 to 31, inputs from
//! 100, outputs from 200, Model Exchange's continuous states from 300 and their derivatives from
//! 320. Arrays are flattened as `x[1]`, `x[2]`, ... like ContactForce's, so the
//! outputs `r_0`, `q`, `v_0`, `w_0` connect element by element to its `frame_X` inputs.
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use fmi_export::table::{Causality, EnumerationType, Table, Variable};

use crate::model::{Continuous, Model, Parameters};

type V = Variable<Model>;

/// modelName and modelIdentifier, and the model description's `description`.
pub const MODEL_NAME: &str = "RigidBody";
pub const MODEL_DESCRIPTION: &str =
    "A rigid body, free or jointed to the world, with its frame at the centre of mass, driven by a world-resolved force and torque";

// No output depends on an input directly (the joint's reaction balances the inputs sampled at the
// last step, see `Model::held`): outputs are the state at the end of the step (in
// co-simulation) or the continuous states themselves (Model Exchange), so each depends on its
// state and the energy on all four. An input in these lists would make a false algebraic loop
// with ContactForce, whose outputs depend on its inputs.
const ON_R: &[&str] = &["state.r_0"];
const ON_Q: &[&str] = &["state.q"];
const ON_V: &[&str] = &["state.v_0"];
const ON_W: &[&str] = &["state.w_0"];
const ON_ALL_STATES: &[&str] = &["state.r_0", "state.q", "state.v_0", "state.w_0"];
// The mobility depends on the pose only (S on r, I_W on q).
const ON_POSE: &[&str] = &["state.r_0", "state.q"];

/// The `joint.kind` enumeration (values of [`crate::JointKind`]): constant data, whose references
/// are promoted to `'static`.
pub const JOINT_KIND: EnumerationType = EnumerationType {
    name: "JointKind",
    description: "Joint of the body to the world",
    items: &[
        (1, "Free", "No joint: the free 6-DoF body"),
        (2, "Revolute", "Turns about joint.axis through joint.pivot"),
        (3, "Prismatic", "Slides along joint.axis without turning"),
    ],
};

/// The unit of `mobility`: its blocks map impulses to velocity changes with different units
/// (ARCHITECTURE.md, "Units of the law parameters by name"), so it is declared by name only.
pub const MOBILITY_UNIT: &str = "1/(kg.m^k)";

fn build_table() -> Vec<V> {
    use Causality::{Input, Output, Parameter};
    vec![
        V::time(|m| std::slice::from_mut(&mut m.time)),
        V::parameter("mass", 1, "kg", "Mass", |m| std::slice::from_mut(&mut m.parameters.mass)).min(0.0),
        V::float(
            "inertia",
            2,
            6,
            Parameter,
            "kg.m2",
            "Inertia tensor about the centre of mass in the body frame: Ixx, Iyy, Izz, Ixy, Ixz, Iyz (Ixy = -integral of x y dm)",
            |m| &mut m.parameters.inertia,
        ),
        V::float("gravity", 8, 3, Parameter, "m/s2", "Gravitational acceleration, resolved in W", |m| &mut m.parameters.gravity),
        V::float("r_0_start", 11, 3, Parameter, "m", "Initial position of the centre of mass, in W", |m| &mut m.parameters.r_0_start),
        V::float("q_start", 14, 4, Parameter, "1", "Initial orientation (w, x, y, z), rotating body vectors into W", |m| {
            &mut m.parameters.q_start
        }),
        V::float("v_0_start", 18, 3, Parameter, "m/s", "Initial velocity of the centre of mass, in W", |m| &mut m.parameters.v_0_start),
        V::float("w_0_start", 21, 3, Parameter, "rad/s", "Initial angular velocity, in W", |m| &mut m.parameters.w_0_start),
        V::parameter("solver.max_step", 24, "s", "Largest internal sub-step within a communication step", |m| {
            std::slice::from_mut(&mut m.parameters.max_step)
        })
        .min(0.0),
        V::enumeration("joint.kind", 25, &JOINT_KIND, "Joint to the world: Free, Revolute or Prismatic", |m| &mut m.parameters.joint_kind),
        V::float("joint.pivot", 26, 3, Parameter, "m", "A point on the joint axis, in W (Revolute, Prismatic)", |m| &mut m.parameters.joint_pivot),
        V::float("joint.axis", 29, 3, Parameter, "1", "Direction of the joint axis, in W, normalised (nonzero)", |m| {
            &mut m.parameters.joint_axis
        }),
        V::float("f_0", 100, 3, Input, "N", "External force at the centre of mass, resolved in W", |m| &mut m.inputs.f_0),
        V::float("t_0", 103, 3, Input, "N.m", "External torque about the centre of mass, resolved in W", |m| &mut m.inputs.t_0),
        V::float("r_0", 200, 3, Output, "m", "Position of the centre of mass (the body frame's origin), in W", |m| &mut m.outputs.r_0)
            .depends_on(ON_R),
        V::float("q", 203, 4, Output, "1", "Orientation (w, x, y, z), rotating body vectors into W", |m| &mut m.outputs.q)
            .depends_on(ON_Q),
        V::float("v_0", 207, 3, Output, "m/s", "Velocity of the centre of mass, in W", |m| &mut m.outputs.v_0).depends_on(ON_V),
        V::float("w_0", 210, 3, Output, "rad/s", "Angular velocity, in W", |m| &mut m.outputs.w_0).depends_on(ON_W),
        V::float("energy", 213, 1, Output, "J", "Kinetic plus gravitational potential energy", |m| {
            std::slice::from_mut(&mut m.outputs.energy)
        })
        .depends_on(ON_ALL_STATES),
        V::float("joint.f_0", 214, 3, Output, "N", "Reaction force of the joint on the body, in W, under the inputs held over the last step (zero when Free)", |m| {
            &mut m.outputs.joint_f_0
        })
        .depends_on(ON_ALL_STATES),
        V::float(
            "joint.t_0",
            217,
            3,
            Output,
            "N.m",
            "Reaction torque of the joint on the body about the centre of mass, in W, under the inputs held over the last step (zero when Free)",
            |m| &mut m.outputs.joint_t_0,
        )
        .depends_on(ON_ALL_STATES),
        V::float(
            "mobility",
            220,
            21,
            Output,
            MOBILITY_UNIT,
            "Mobility matrix Phi at the centre of mass in W, d(v_0, w_0) = Phi (f_0, t_0) dt: its upper triangle row by row \
             (Phi11..Phi16, Phi22..Phi26, ..., Phi66); unit 1/kg for the v_0-f_0 block, 1/(kg.m) for v_0-t_0 and w_0-f_0, \
             1/(kg.m2) for w_0-t_0",
            |m| &mut m.outputs.mobility,
        )
        .depends_on(ON_POSE),
        // Model Exchange: the motion as continuous states, their start values those of the start
        // parameters (the accessors give the parameters until initialisation ends).
        V::state("state.r_0", 300, 3, "m", "Continuous state: position of the centre of mass, in W (starts at r_0_start)", |m| {
            m.continuous_mut(|c| &mut c.r_0, |p: &mut Parameters| &mut p.r_0_start)
        }),
        V::state("state.q", 303, 4, "1", "Continuous state: orientation (w, x, y, z), renormalised at events (starts at q_start)", |m| {
            m.continuous_mut(|c| &mut c.q, |p: &mut Parameters| &mut p.q_start)
        }),
        V::state("state.v_0", 307, 3, "m/s", "Continuous state: velocity of the centre of mass, in W (starts at v_0_start)", |m| {
            m.continuous_mut(|c| &mut c.v_0, |p: &mut Parameters| &mut p.v_0_start)
        }),
        V::state("state.w_0", 310, 3, "rad/s", "Continuous state: angular velocity, in W (starts at w_0_start)", |m| {
            m.continuous_mut(|c| &mut c.w_0, |p: &mut Parameters| &mut p.w_0_start)
        }),
        V::derivative("der(state.r_0)", 320, 3, 300, "m/s", "Velocity of the centre of mass, in W", |m| {
            m.derivative_mut(|c: &mut Continuous| &mut c.r_0)
        }),
        V::derivative("der(state.q)", 323, 4, 303, "1/s", "Rate of the orientation quaternion, 1/2 (0, w_0) * q", |m| {
            m.derivative_mut(|c: &mut Continuous| &mut c.q)
        }),
        V::derivative("der(state.v_0)", 327, 3, 307, "m/s2", "Acceleration of the centre of mass, g + f_0 / mass, in W", |m| {
            m.derivative_mut(|c: &mut Continuous| &mut c.v_0)
        }),
        V::derivative("der(state.w_0)", 330, 3, 310, "rad/s2", "Angular acceleration from Euler's equations, in W", |m| {
            m.derivative_mut(|c: &mut Continuous| &mut c.w_0)
        }),
    ]
}

/// A new table; each FMU instance owns one (see `fmi_export::FmuModel::build_table`).
pub fn build() -> Table<Model> {
    Table::new(build_table(), vec![&JOINT_KIND])
}

/// The table for tools and tests, built once per process; the C API never uses it.
pub fn table() -> &'static Table<Model> {
    static TABLE: OnceLock<Table<Model>> = OnceLock::new();
    TABLE.get_or_init(build)
}
