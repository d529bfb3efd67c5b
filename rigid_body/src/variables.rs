//! The variable table of RigidBody. Value references: `time` 0, parameters 1 to 24, inputs from
//! 100, outputs from 200. Arrays are flattened as `x[1]`, `x[2]`, ... like ContactForce's, so the
//! outputs `r_0`, `q`, `v_0`, `w_0` connect element by element to its `frame_X` inputs.
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use fmi_export::table::{Causality, Table, Variable};

use crate::model::Model;

type V = Variable<Model>;

/// No output depends on an input directly: outputs are the state at the end of the step.
const NO_INPUTS: &[&str] = &[];

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
        V::float("f_0", 100, 3, Input, "N", "External force at the centre of mass, resolved in W", |m| &mut m.inputs.f_0),
        V::float("t_0", 103, 3, Input, "N.m", "External torque about the centre of mass, resolved in W", |m| &mut m.inputs.t_0),
        V::float("r_0", 200, 3, Output, "m", "Position of the centre of mass (the body frame's origin), in W", |m| &mut m.outputs.r_0)
            .depends_on(NO_INPUTS),
        V::float("q", 203, 4, Output, "1", "Orientation (w, x, y, z), rotating body vectors into W", |m| &mut m.outputs.q)
            .depends_on(NO_INPUTS),
        V::float("v_0", 207, 3, Output, "m/s", "Velocity of the centre of mass, in W", |m| &mut m.outputs.v_0).depends_on(NO_INPUTS),
        V::float("w_0", 210, 3, Output, "rad/s", "Angular velocity, in W", |m| &mut m.outputs.w_0).depends_on(NO_INPUTS),
        V::float("energy", 213, 1, Output, "J", "Kinetic plus gravitational potential energy", |m| {
            std::slice::from_mut(&mut m.outputs.energy)
        })
        .depends_on(NO_INPUTS),
    ]
}

/// A new table; each FMU instance owns one (see `fmi_export::FmuModel::build_table`).
pub fn build() -> Table<Model> {
    Table::new(build_table(), vec![])
}

/// The table for tools and tests, built once per process; the C API never uses it.
pub fn table() -> &'static Table<Model> {
    static TABLE: OnceLock<Table<Model>> = OnceLock::new();
    TABLE.get_or_init(build)
}
