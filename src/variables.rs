//! The variable table of ContactForce: every variable of shared/spec/interface.md with its
//! attributes and an accessor into the [`Model`]. The generic machinery (get/set dispatch, model
//! descriptions, token, serialization) is in the `fmi_export` crate; this file says what the
//! variables are. Start values come from `Model`'s defaults (the `Default` impls in `block/`).
//!
//! Value references: `time` 0, inputs 1 to 26, outputs from 100, per-point outputs from 1000,
//! geometry parameters from 200 (A) and 250 (B), normal law 300, friction 400, `material.pair`
//! 500, `solver.max_step` 600, coupling and the bodies' mass properties 700, the point slots of
//! the laws provided by input from 1100 (`1100 + 20 (i - 1) + k`, see [`PROVIDED_SLOT_BASE`]),
//! Model Exchange states, derivatives and event indicators from 3000.
#![forbid(unsafe_code)]

use std::sync::OnceLock;

pub use fmi_export::table::{Access, Causality, Dependencies, EnumerationType, Role, Scalar, ValueType, Variability, Variable};
use fmi_export::table::Table;

use contact_fmi::geometry_names;
use contact_fmi::geometry_rows::{coupling_rows, geometry_rows, Coupled, Geometries};

use crate::block::{BodyParameters, CouplingParameters, GeometryParameters};
use crate::model::Model;
use crate::physics::material::MaterialPair;




/// What ContactForce says of the laws' parameters where another model says otherwise.
const LAW_ROW_NOTES: LawRowNotes =
    LawRowNotes { normal_law: "Normal force law", friction_law: "Friction law", rolling: "Rolling resistance coefficient mu_r (0 = off)", spin_torque: true };

impl Geometries for Model {
    fn geometry(&mut self, body: usize) -> &mut GeometryParameters {
        if body == 0 {
            &mut self.parameters.geometry_a
        } else {
            &mut self.parameters.geometry_b
        }
    }
}

impl Coupled for Model {
    fn coupling(&mut self) -> &mut CouplingParameters {
        &mut self.parameters.coupling
    }
}

impl LawParameters for Model {
    fn normal_parameters(&mut self) -> &mut crate::block::NormalParameters {
        &mut self.parameters.normal
    }
    fn friction_parameters(&mut self) -> &mut crate::block::FrictionParameters {
        &mut self.parameters.friction
    }
    fn solver_max_step(&mut self) -> &mut f64 {
        &mut self.parameters.solver_max_step
    }
}

pub const MODEL_NAME: &str = "ContactForce";
pub const MODEL_DESCRIPTION: &str =
    "Rigid-body contact block: contact force and torque between two bodies from their poses and twists";

pub use crate::model::EXTENSION_NAME;
pub const EXTENSION_DESCRIPTION: &str =
    "Rigid-body contact block with the inputs and outputs of normal and friction laws provided by input, per contact point";

pub use contact_fmi::enumeration_type;
pub use contact_fmi::law_rows::{friction_rows, item_rows, normal_rows, solver_row, LawParameters, LawRowNotes, FRICTION_LAW, NORMAL_LAW, RESTITUTION_MODEL};

pub use contact_fmi::geometry_rows::{COUPLING_MODE, SHAPE};
pub static MATERIAL_PAIR: EnumerationType =
    enumeration_type!("MaterialPair", "Material pair preset from the Adams material table", MaterialPair);

/// The inputs the geometry-only outputs (separation, normal) depend on.
pub const POSE_INPUTS: [&str; 4] = ["frame_a.r_0", "frame_a.q", "frame_b.r_0", "frame_b.q"];

/// Both frames' inputs: what the kinematics a provided law reads depend on (not the provided
/// forces, so that a law outside the block closes no algebraic loop through them).
pub const FRAME_INPUTS: [&str; 8] =
    ["frame_a.r_0", "frame_a.q", "frame_a.v_0", "frame_a.w_0", "frame_b.r_0", "frame_b.q", "frame_b.v_0", "frame_b.w_0"];

/// Value reference of the first variable of point slot 1 of the laws provided by input; slot i
/// (from 1) starts at `PROVIDED_SLOT_BASE + PROVIDED_SLOT_STRIDE (i - 1)`.
pub const PROVIDED_SLOT_BASE: u32 = 1100;
pub const PROVIDED_SLOT_STRIDE: u32 = 20;
/// Offset in a slot of `contact.point[i].provided.normal_force`; the two components of
/// `contact.point[i].provided.friction_force` follow it.
pub const PROVIDED_NORMAL_OFFSET: u32 = 14;

/// The index (as `block::jacobian::PROVIDED_INPUTS`: `3 slot + component`) of a provided force's
/// value reference, or `None` for any other value reference.
pub fn provided_input_index(vr: u32) -> Option<usize> {
    let offset = vr.checked_sub(PROVIDED_SLOT_BASE)?;
    let (slot, k) = ((offset / PROVIDED_SLOT_STRIDE) as usize, offset % PROVIDED_SLOT_STRIDE);
    let component = k.checked_sub(PROVIDED_NORMAL_OFFSET).filter(|c| *c < 3)?;
    (slot < crate::block::POINT_OUTPUTS).then_some(3 * slot + component as usize)
}

/// A new table; each FMU instance owns one (see `fmi_export::FmuModel::build_table`).
pub fn build() -> Table<Model> {
    Table::new(build_table(), vec![&SHAPE, &NORMAL_LAW, &RESTITUTION_MODEL, &FRICTION_LAW, &MATERIAL_PAIR, &COUPLING_MODE])
}

/// The table for tools and tests, built once per process; the C API never uses it.
pub fn table() -> &'static Table<Model> {
    static TABLE: OnceLock<Table<Model>> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// Every scalar of the flattened table, in declaration order.
pub fn scalars() -> &'static [Scalar<Model>] {
    table().scalars()
}

/// The GUID / instantiationToken of this build's interface.
pub fn instantiation_token() -> &'static str {
    table().instantiation_token()
}

/// The token of ContactForceProvidedLaws, the same binary with every variable (the point slots
/// of the laws provided by input included), for tools and tests.
pub fn extension_token() -> String {
    table().extension_token().expect("ContactForce has an extension")
}

/// The variables of ContactForce.
type V = Variable<Model>;

fn build_table() -> Vec<Variable<Model>> {
    use Causality::{Input, Output};
    let mut t = vec![V::time(|m: &mut Model| std::slice::from_mut(&mut m.time))];

    // Inputs: poses and twists of both frames (value references 1 to 26).
    t.extend([
        V::float("frame_a.r_0", 1, 3, Input, "m", "Position of A's frame origin, resolved in W", |m| &mut m.inputs.frame_a.r_0),
        V::float("frame_a.q", 4, 4, Input, "1", "Orientation of A as a quaternion (w, x, y, z) rotating A-frame vectors into W", |m| {
            &mut m.inputs.frame_a.q
        }),
        V::float("frame_a.v_0", 8, 3, Input, "m/s", "Velocity of A's frame origin, resolved in W", |m| &mut m.inputs.frame_a.v_0),
        V::float("frame_a.w_0", 11, 3, Input, "rad/s", "Angular velocity of A, resolved in W", |m| &mut m.inputs.frame_a.w_0),
        V::float("frame_b.r_0", 14, 3, Input, "m", "Position of B's frame origin, resolved in W", |m| &mut m.inputs.frame_b.r_0),
        V::float("frame_b.q", 17, 4, Input, "1", "Orientation of B as a quaternion (w, x, y, z) rotating B-frame vectors into W", |m| {
            &mut m.inputs.frame_b.q
        }),
        V::float("frame_b.v_0", 21, 3, Input, "m/s", "Velocity of B's frame origin, resolved in W", |m| &mut m.inputs.frame_b.v_0),
        V::float("frame_b.w_0", 24, 3, Input, "rad/s", "Angular velocity of B, resolved in W", |m| &mut m.inputs.frame_b.w_0),
    ]);

    // Outputs (value references 100 and up).
    t.extend([
        V::float("frame_a.f_0", 100, 3, Output, "N", "Total contact force on A, resolved in W", |m| &mut m.outputs.frame_a.f_0),
        V::float("frame_a.t_0", 103, 3, Output, "N.m", "Total contact torque on A about A's frame origin, resolved in W", |m| {
            &mut m.outputs.frame_a.t_0
        }),
        V::float("frame_b.f_0", 106, 3, Output, "N", "Total contact force on B, resolved in W (= -frame_a.f_0)", |m| &mut m.outputs.frame_b.f_0),
        V::float("frame_b.t_0", 109, 3, Output, "N.m", "Total contact torque on B about B's frame origin, resolved in W", |m| {
            &mut m.outputs.frame_b.t_0
        }),
        V::discrete_output(
            "contact.active",
            112,
            ValueType::Boolean,
            "At least one contact point carries force",
            Access::Bool(|m| &mut m.outputs.active),
        ),
        V::discrete_output(
            "contact.points",
            113,
            ValueType::Int32,
            "Number of contact points carrying force",
            Access::Int(|m| &mut m.outputs.points),
        ),
        V::float(
            "contact.separation",
            114,
            1,
            Output,
            "m",
            "Signed distance between the geometries (> 0 apart, < 0 deepest penetration): the least over all points, over all pairs of parts for a Compound",
            |m| std::slice::from_mut(&mut m.outputs.separation),
        )
        .depends_on(&POSE_INPUTS),
        V::float("contact.normal_force", 115, 1, Output, "N", "Sum of the normal force magnitudes", |m| {
            std::slice::from_mut(&mut m.outputs.normal_force)
        }),
        V::float("contact.friction_force", 116, 1, Output, "N", "Magnitude of the summed tangential force", |m| {
            std::slice::from_mut(&mut m.outputs.friction_force)
        }),
        V::float(
            "contact.p_0",
            117,
            3,
            Output,
            "m",
            "Contact point: normal-force-weighted mean of the active points, of every pair of parts for a Compound (closest point on A when apart), in W",
            |m| &mut m.outputs.p_0,
        ),
        V::float("contact.n_0", 120, 3, Output, "1", "Unit contact normal from A toward B at the deepest point (of the deepest pair of parts for a Compound), in W", |m| &mut m.outputs.n_0)
            .depends_on(&POSE_INPUTS),
        V::float("contact.slip_speed", 123, 1, Output, "m/s", "Tangential relative speed at contact.p_0", |m| {
            std::slice::from_mut(&mut m.outputs.slip_speed)
        }),
        V::discrete_output(
            "contact.sticking",
            124,
            ValueType::Boolean,
            "Stateful friction laws: every active point is inside its friction cone (false for the other laws)",
            Access::Bool(|m| &mut m.outputs.sticking),
        ),
        V::float(
            "contact.max_normal_force",
            125,
            1,
            Output,
            "N",
            "Largest normal force within the communication step the outputs are held over (StepAverage: the peak of the block's own sub-steps, which the averaged force hides; Instantaneous: contact.normal_force)",
            |m| std::slice::from_mut(&mut m.outputs.max_normal_force),
        ),
    ]);

    // Per-point outputs contact.point[i].* (value references 1000 + 10 (i - 1) + k).
    macro_rules! point_outputs {
        ($($i:literal => $slot:literal),+) => {$(
            t.extend([
                V::discrete_output(
                    concat!("contact.point[", $i, "].active"),
                    1000 + 10 * ($i - 1),
                    ValueType::Boolean,
                    concat!("Contact point ", $i, " carries force (the pair's point with id ", $i, " - 1; a Compound numbers the points of its pairs of parts one pair after the other, A's parts outer, in file order)"),
                    Access::Bool(|m| &mut m.outputs.point[$slot].active),
                ),
                V::float(concat!("contact.point[", $i, "].separation"), 1001 + 10 * ($i - 1), 1, Output, "m",
                    concat!("Signed distance at contact point ", $i, " (0 when the pair has no such point)"),
                    |m| std::slice::from_mut(&mut m.outputs.point[$slot].separation))
                .depends_on(&POSE_INPUTS),
                // Not on the friction inputs (a user's friction law reads it): on the frames, the
                // slot's provided normal force and its deflection (none of the laws uses it).
                V::float(concat!("contact.point[", $i, "].normal_force"), 1002 + 10 * ($i - 1), 1, Output, "N",
                    concat!("Normal force at contact point ", $i),
                    |m| std::slice::from_mut(&mut m.outputs.point[$slot].normal_force))
                .depends_on(&["frame_a.r_0", "frame_a.q", "frame_a.v_0", "frame_a.w_0", "frame_b.r_0", "frame_b.q", "frame_b.v_0", "frame_b.w_0",
                    concat!("contact.point[", $i, "].provided.normal_force")]),
                V::float(concat!("contact.point[", $i, "].friction_force"), 1003 + 10 * ($i - 1), 1, Output, "N",
                    concat!("Magnitude of the tangential force at contact point ", $i),
                    |m| std::slice::from_mut(&mut m.outputs.point[$slot].friction_force)),
                V::float(concat!("contact.point[", $i, "].p_0"), 1004 + 10 * ($i - 1), 3, Output, "m",
                    concat!("Where the force of contact point ", $i, " acts, in W"),
                    |m| &mut m.outputs.point[$slot].p_0)
                .depends_on(&POSE_INPUTS),
            ]);
        )+};
    }
    point_outputs!(1 => 0, 2 => 1, 3 => 2, 4 => 3, 5 => 4, 6 => 5, 7 => 6, 8 => 7);

    // Laws provided by input, per point slot (value references 1100 + 20 (i - 1) + k): what a
    // user's law reads (outputs, on the frames only) and the forces it gives (inputs). Only the
    // extension's FMU (EXTENSION_NAME, the same binary) lists them, so that the ports of an
    // importer that shows every variable are the ones a user of the built-in laws needs.
    macro_rules! provided_slots {
        ($($i:literal => $slot:literal),+) => {$(
            t.extend([
                V::float(concat!("contact.point[", $i, "].depth"), 1100 + 20 * ($i - 1), 1, Output, "m",
                    concat!("Penetration depth max(0, -separation) at contact point ", $i, " (written where a law is ProvidedByInput; 0 under the built-in laws)"),
                    |m| std::slice::from_mut(&mut m.outputs.law[$slot].depth))
                .depends_on(&POSE_INPUTS)
                .in_extension(),
                V::float(concat!("contact.point[", $i, "].depth_rate"), 1101 + 20 * ($i - 1), 1, Output, "m/s",
                    concat!("Penetration rate -v_rel . n at contact point ", $i, ", positive while approaching (written where a law is ProvidedByInput)"),
                    |m| std::slice::from_mut(&mut m.outputs.law[$slot].depth_rate))
                .depends_on(&FRAME_INPUTS)
                .in_extension(),
                V::float(concat!("contact.point[", $i, "].slip_velocity"), 1102 + 20 * ($i - 1), 2, Output, "m/s",
                    concat!("Slip velocity of B relative to A at contact point ", $i, " along tangent1_0 and tangent2_0 (written where a law is ProvidedByInput)"),
                    |m| &mut m.outputs.law[$slot].slip_velocity)
                .depends_on(&FRAME_INPUTS)
                .in_extension(),
                V::float(concat!("contact.point[", $i, "].n_0"), 1104 + 20 * ($i - 1), 3, Output, "1",
                    concat!("Unit normal from A toward B at contact point ", $i, ", in W (written where a law is ProvidedByInput)"),
                    |m| &mut m.outputs.law[$slot].n_0)
                .depends_on(&POSE_INPUTS)
                .in_extension(),
                V::float(concat!("contact.point[", $i, "].tangent1_0"), 1107 + 20 * ($i - 1), 3, Output, "1",
                    concat!("First tangent t1 of contact point ", $i, ": W's x axis in the contact plane (W's y axis where |n_x| > 0.9), in W (written where a law is ProvidedByInput)"),
                    |m| &mut m.outputs.law[$slot].tangent1_0)
                .depends_on(&POSE_INPUTS)
                .in_extension(),
                V::float(concat!("contact.point[", $i, "].tangent2_0"), 1110 + 20 * ($i - 1), 3, Output, "1",
                    concat!("Second tangent t2 = n x t1 of contact point ", $i, ", in W (written where a law is ProvidedByInput)"),
                    |m| &mut m.outputs.law[$slot].tangent2_0)
                .depends_on(&POSE_INPUTS)
                .in_extension(),
                V::float(concat!("contact.point[", $i, "].weight"), 1113 + 20 * ($i - 1), 1, Output, "1",
                    concat!("Share of its laws' forces contact point ", $i, " carries (1 but at a partly covered finite face; written where a law is ProvidedByInput)"),
                    |m| std::slice::from_mut(&mut m.outputs.law[$slot].weight))
                .depends_on(&POSE_INPUTS)
                .in_extension(),
                V::float(concat!("contact.point[", $i, "].provided.normal_force"), 1114 + 20 * ($i - 1), 1, Input, "N",
                    concat!("normal.law = ProvidedByInput: normal force magnitude at contact point ", $i, ", applied (clipped at 0, times the point's weight) while the point penetrates"),
                    |m| std::slice::from_mut(&mut m.inputs.provided[$slot].normal_force))
                .in_extension(),
                V::float(concat!("contact.point[", $i, "].provided.friction_force"), 1115 + 20 * ($i - 1), 2, Input, "N",
                    concat!("friction.law = ProvidedByInput: friction force on B at contact point ", $i, " along tangent1_0 and tangent2_0, applied (times the point's weight) while the point carries a normal force"),
                    |m| &mut m.inputs.provided[$slot].friction_force)
                .in_extension(),
            ]);
        )+};
    }
    provided_slots!(1 => 0, 2 => 1, 3 => 2, 4 => 3, 5 => 4, 6 => 5, 7 => 6, 8 => 7);

    // Geometry parameters (value references 200 to 299).
    t.extend(geometry_rows::<Model, 0>(&geometry_names!("geometry_a", "A"), 200));
    t.extend(geometry_rows::<Model, 1>(&geometry_names!("geometry_b", "B"), 250));

    // The laws' parameters (value references 300 to 411, then 600), as every contact model has them.
    t.extend(normal_rows(&LAW_ROW_NOTES));
    t.extend(friction_rows(&LAW_ROW_NOTES));
    t.extend([V::enumeration("material.pair", 500, &MATERIAL_PAIR, "Material pair preset for mu_s, mu_d and e", |m| {
        &mut m.parameters.material_pair
    })]);
    t.push(solver_row());

    // Coupling over a communication step (value references 700 to 799): the mode, and the
    // bodies' mass properties that StepAverage integrates with.
    fn body_a(m: &mut Model) -> &mut BodyParameters {
        &mut m.parameters.body_a
    }
    fn body_b(m: &mut Model) -> &mut BodyParameters {
        &mut m.parameters.body_b
    }
    macro_rules! body {
        ($prefix:literal, $base:expr, $b:ident, $body:literal, $k:literal, $mobility:expr) => {
            [
                V::parameter(concat!($prefix, ".mass"), $base, "kg", concat!("Mass of ", $body, " (StepAverage; 0 = immovable, e.g. the ground)"), |m| {
                    std::slice::from_mut(&mut $b(m).mass)
                })
                .min(0.0),
                V::float(
                    concat!($prefix, ".inertia"),
                    $base + 1,
                    6,
                    Causality::Parameter,
                    "kg.m2",
                    concat!("Inertia of ", $body, " about its centre of mass in its body frame: Ixx, Iyy, Izz, Ixy, Ixz, Iyz (StepAverage; all 0 = a point mass)"),
                    |m| &mut $b(m).inertia,
                ),
                V::float(
                    concat!($prefix, ".com"),
                    $base + 7,
                    3,
                    Causality::Parameter,
                    "m",
                    concat!("Centre of mass of ", $body, " in its body frame (StepAverage)"),
                    |m| &mut $b(m).com,
                ),
                V::float(
                    concat!($prefix, ".effective_mass"),
                    $base + 10,
                    1,
                    Output,
                    "kg",
                    concat!(
                        "Mass ", $body, " shows in the contact normal direction at the contact point (StepAverage: from ", $prefix,
                        ".mobility when given, else learnt from its response to the contact's impulses; Instantaneous: ", $prefix,
                        ".mass; 0 for an immovable body)"
                    ),
                    |m| std::slice::from_mut(&mut m.outputs.effective_mass[$k]),
                ),
                V::float(
                    concat!($prefix, ".mobility"),
                    $mobility,
                    21,
                    Input,
                    crate::physics::mobility::MOBILITY_UNIT,
                    concat!(
                        "Mobility of ", $body, " at its frame origin in W, as a body FMU gives it (RigidBody's mobility output): ",
                        "d(v_0, w_0) = Phi (f_0, t_0) dt, the upper triangle of the 6x6 Phi row by row; unit 1/kg for the ",
                        "v_0-f_0 block, 1/(kg.m) for v_0-t_0 and w_0-f_0, 1/(kg.m2) for w_0-t_0; all 0 = not given ",
                        "(StepAverage then learns the mass the body shows)"
                    ),
                    |m| &mut m.mobility[$k],
                )
                .in_extension(),
            ]
        };
    }
    t.extend(coupling_rows());
    t.extend(body!("body_a", 710, body_a, "A", 0, 750));
    t.extend(body!("body_b", 730, body_b, "B", 1, 780));

    // Model Exchange, per point slot (value references 3000 + 10 (i - 1) + k): the tangential
    // deflection (a continuous state), its derivative and the two event indicators.
    macro_rules! point_states {
        ($($i:literal => $slot:literal),+) => {$(
            t.extend([
                V::state(concat!("contact.point[", $i, "].deflection"), 3000 + 10 * ($i - 1), 3, "m",
                    concat!("Tangential deflection of contact point ", $i, " (ElasticCone, Stiction; 0 for the other laws), in W"),
                    |m| m.deflection_mut($slot)),
                V::derivative(concat!("der(contact.point[", $i, "].deflection)"), 3003 + 10 * ($i - 1), 3, 3000 + 10 * ($i - 1), "m/s",
                    concat!("Rate of the tangential deflection of contact point ", $i),
                    |m| &mut m.locals_mut().deflection_rate[$slot]),
                V::event_indicator(concat!("contact.point[", $i, "].indicator.separation"), 3006 + 10 * ($i - 1), "m",
                    concat!("Make/break event indicator of contact point ", $i, ": its separation (1 when the pair has no such point)"),
                    |m| std::slice::from_mut(&mut m.locals_mut().separation[$slot])),
                V::event_indicator(concat!("contact.point[", $i, "].indicator.stick"), 3007 + 10 * ($i - 1), "N",
                    concat!("Stick/slip event indicator of contact point ", $i, " (> 0 sticks, < 0 slips; 1 without normal force or stateful friction)"),
                    |m| std::slice::from_mut(&mut m.locals_mut().stick[$slot])),
            ]);
        )+};
    }
    point_states!(1 => 0, 2 => 1, 3 => 2, 4 => 3, 5 => 4, 6 => 5, 7 => 6, 8 => 7);
    t
}

