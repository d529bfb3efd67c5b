//! The variable table of PlanarContact. Value references: `time` 0, inputs 1 to 12, outputs from
//! 100, per-point outputs from 1000, geometry parameters from 200 (A) and 250 (B), the normal
//! law's from 300 and friction's from 400 (the numbers and names of ContactForce's), `solver.max_step`
//! 600, Model Exchange's states, derivatives and event indicators from 3000.
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use contact_fmi::law_rows::{friction_rows, item_rows, normal_rows, solver_row, LawParameters, LawRowNotes, FRICTION_LAW, NORMAL_LAW, RESTITUTION_MODEL};
use contact_physics::parameters::{FrictionParameters, NormalParameters};
use fmi_export::table::{Access, Causality, EnumerationType, Table, ValueType, Variable};

use crate::model::Model;
use crate::shape::PlanarShapeKind;

type V = Variable<Model>;

/// modelName and modelIdentifier, and the model description's `description`.
pub const MODEL_NAME: &str = "PlanarContact";
pub const MODEL_DESCRIPTION: &str =
    "Planar contact block: contact force and torque between two bodies held in one plane, from their planar poses and twists";

/// What PlanarContact says of ContactForce's laws' parameters: the laws are ContactForce's, the
/// rolling resistance is a Circle's, and there is no spin friction torque in the plane.
const LAW_ROW_NOTES: LawRowNotes = LawRowNotes {
    normal_law: "Normal force law (ContactForce's)",
    friction_law: "Friction law (ContactForce's)",
    rolling: "Rolling resistance coefficient mu_r of a Circle (0 = off)",
    spin_torque: false,
};

impl LawParameters for Model {
    fn normal_parameters(&mut self) -> &mut NormalParameters {
        &mut self.parameters.normal
    }
    fn friction_parameters(&mut self) -> &mut FrictionParameters {
        &mut self.parameters.friction
    }
    fn solver_max_step(&mut self) -> &mut f64 {
        &mut self.parameters.solver_max_step
    }
}

const SHAPE_ROWS: [(i64, &str, &str); PlanarShapeKind::ITEMS.len()] = item_rows(PlanarShapeKind::ITEMS);

pub static PLANAR_SHAPE: EnumerationType = EnumerationType { name: "PlanarShape", description: "Shape of a planar contact geometry", items: &SHAPE_ROWS };

/// The inputs the geometry-only outputs (separation, normal) depend on.
pub const POSE_INPUTS: [&str; 4] = ["frame_a.r_0", "frame_a.phi", "frame_b.r_0", "frame_b.phi"];

/// The model-specific sections of the documentation page.
pub const DOCUMENTATION: &str = "<h2>What the block does</h2>\n\
<p>Two bodies move in the x-y plane of the world frame W: each has a position <code>frame_X.r_0</code>, an angle \
<code>frame_X.phi</code> about z, a velocity <code>frame_X.v_0</code> and an angular velocity <code>frame_X.w</code>. \
The block finds where their planar shapes (Point, Circle, Arc, Segment, Line, Polyline, Curve) touch and evaluates \
ContactForce's normal and friction laws at each contact point, with the same parameters. The outputs are the force \
<code>frame_X.f_0</code> in the plane and the torque <code>frame_X.t</code> about z (about the body frame's origin) on \
each body, and the contact's sensing. The normal points from A toward B; the separation is positive apart.</p>\n\
<h2>Shapes</h2>\n<p>Each geometry sits in its body at <code>geometry_X.r</code>, turned by <code>geometry_X.phi</code>. \
A Line is the local x axis with the solid below it (the planar form of ContactForce's Plane). A Segment is a thin wall \
along the local x axis. A Polyline joins the points of <code>geometry_X.file</code> (x y per line) with straight \
segments, a Curve with a cubic (Catmull-Rom) spline sampled at 16 pieces per interval; <code>geometry_X.closed</code> \
makes either a solid region. Offered pairs: a round shape (Point, Circle) against any shape (a Point needs a solid: not \
a Segment or an open chain, nor another Point); a Line against an Arc, a Segment, a Polyline or a Curve (one point per \
vertex); two chains of which one is closed (each vertex inside the closed one); an Arc against a Point, Circle or Line. \
Other pairs are refused at initialisation with a message.</p>\n\
<h2>Model Exchange</h2>\n<p>As ContactForce: the tangential deflections of the point slots are continuous states \
(stateful friction laws), and each slot has a make/break and a stick/slip event indicator. A stateful law on a pair \
with more than 8 candidate points is refused under Model Exchange.</p>\n";

/// A new table; each FMU instance owns one.
pub fn build() -> Table<Model> {
    Table::new(build_table(), vec![&PLANAR_SHAPE, &NORMAL_LAW, &RESTITUTION_MODEL, &FRICTION_LAW])
}

/// The table for tools and tests, built once per process; the C API never uses it.
pub fn table() -> &'static Table<Model> {
    static TABLE: OnceLock<Table<Model>> = OnceLock::new();
    TABLE.get_or_init(build)
}

fn build_table() -> Vec<V> {
    use Causality::{Input, Output};
    let mut t = vec![V::time(|m: &mut Model| std::slice::from_mut(&mut m.time))];
    t.extend([
        V::float("frame_a.r_0", 1, 2, Input, "m", "Position of A's frame origin in the plane (x, y of W)", |m| &mut m.inputs.frame_a.r_0),
        V::float("frame_a.phi", 3, 1, Input, "rad", "Angle of A's frame about z", |m| std::slice::from_mut(&mut m.inputs.frame_a.phi)),
        V::float("frame_a.v_0", 4, 2, Input, "m/s", "Velocity of A's frame origin in the plane", |m| &mut m.inputs.frame_a.v_0),
        V::float("frame_a.w", 6, 1, Input, "rad/s", "Angular velocity of A about z", |m| std::slice::from_mut(&mut m.inputs.frame_a.w)),
        V::float("frame_b.r_0", 7, 2, Input, "m", "Position of B's frame origin in the plane (x, y of W)", |m| &mut m.inputs.frame_b.r_0),
        V::float("frame_b.phi", 9, 1, Input, "rad", "Angle of B's frame about z", |m| std::slice::from_mut(&mut m.inputs.frame_b.phi)),
        V::float("frame_b.v_0", 10, 2, Input, "m/s", "Velocity of B's frame origin in the plane", |m| &mut m.inputs.frame_b.v_0),
        V::float("frame_b.w", 12, 1, Input, "rad/s", "Angular velocity of B about z", |m| std::slice::from_mut(&mut m.inputs.frame_b.w)),
    ]);

    t.extend([
        V::float("frame_a.f_0", 100, 2, Output, "N", "Total contact force on A in the plane", |m| &mut m.outputs.frame_a.f_0),
        V::float("frame_a.t", 102, 1, Output, "N.m", "Total contact torque on A about z, about A's frame origin", |m| {
            std::slice::from_mut(&mut m.outputs.frame_a.t)
        }),
        V::float("frame_b.f_0", 103, 2, Output, "N", "Total contact force on B in the plane (= -frame_a.f_0)", |m| &mut m.outputs.frame_b.f_0),
        V::float("frame_b.t", 105, 1, Output, "N.m", "Total contact torque on B about z, about B's frame origin", |m| {
            std::slice::from_mut(&mut m.outputs.frame_b.t)
        }),
        V::discrete_output("contact.active", 106, ValueType::Boolean, "At least one contact point carries force", Access::Bool(|m| &mut m.outputs.active)),
        V::discrete_output("contact.points", 107, ValueType::Int32, "Number of contact points carrying force", Access::Int(|m| &mut m.outputs.points)),
        V::float("contact.separation", 108, 1, Output, "m", "Signed distance of the deepest candidate point (> 0 apart, < 0 penetration)", |m| {
            std::slice::from_mut(&mut m.outputs.separation)
        })
        .depends_on(&POSE_INPUTS),
        V::float("contact.normal_force", 109, 1, Output, "N", "Sum of the normal force magnitudes", |m| std::slice::from_mut(&mut m.outputs.normal_force)),
        V::float("contact.friction_force", 110, 1, Output, "N", "Magnitude of the summed tangential force", |m| {
            std::slice::from_mut(&mut m.outputs.friction_force)
        }),
        V::float(
            "contact.p_0",
            111,
            2,
            Output,
            "m",
            "Contact point: normal-force-weighted mean of the active points (closest point on A when apart), in the plane",
            |m| &mut m.outputs.p_0,
        ),
        V::float("contact.n_0", 113, 2, Output, "1", "Unit contact normal from A toward B, in the plane", |m| &mut m.outputs.n_0).depends_on(&POSE_INPUTS),
        V::float("contact.slip_speed", 115, 1, Output, "m/s", "Tangential relative speed at contact.p_0", |m| std::slice::from_mut(&mut m.outputs.slip_speed)),
        V::discrete_output(
            "contact.sticking",
            116,
            ValueType::Boolean,
            "Stateful friction laws: every active point is inside its friction cone (false for the other laws)",
            Access::Bool(|m| &mut m.outputs.sticking),
        ),
    ]);

    macro_rules! point_outputs {
        ($($i:literal => $slot:literal),+) => {$(
            t.extend([
                V::discrete_output(concat!("contact.point[", $i, "].active"), 1000 + 10 * ($i - 1), ValueType::Boolean,
                    concat!("Contact point ", $i, " carries force"), Access::Bool(|m| &mut m.outputs.point[$slot].active)),
                V::float(concat!("contact.point[", $i, "].separation"), 1001 + 10 * ($i - 1), 1, Output, "m",
                    concat!("Signed distance at candidate point ", $i, " (0 when the pair has no such point)"),
                    |m| std::slice::from_mut(&mut m.outputs.point[$slot].separation)).depends_on(&POSE_INPUTS),
                V::float(concat!("contact.point[", $i, "].normal_force"), 1002 + 10 * ($i - 1), 1, Output, "N",
                    concat!("Normal force at contact point ", $i), |m| std::slice::from_mut(&mut m.outputs.point[$slot].normal_force)),
                V::float(concat!("contact.point[", $i, "].friction_force"), 1003 + 10 * ($i - 1), 1, Output, "N",
                    concat!("Magnitude of the tangential force at contact point ", $i), |m| std::slice::from_mut(&mut m.outputs.point[$slot].friction_force)),
                V::float(concat!("contact.point[", $i, "].p_0"), 1004 + 10 * ($i - 1), 2, Output, "m",
                    concat!("Where the force of contact point ", $i, " acts, in the plane"), |m| &mut m.outputs.point[$slot].p_0),
            ]);
        )+};
    }
    point_outputs!(1 => 0, 2 => 1, 3 => 2, 4 => 3, 5 => 4, 6 => 5, 7 => 6, 8 => 7);

    macro_rules! geometry {
        ($prefix:literal, $base:expr, $g:ident, $body:literal) => {
            [
                V::enumeration(concat!($prefix, ".shape"), $base, &PLANAR_SHAPE, concat!("Shape of ", $body, "'s planar contact geometry"), |m| &mut m.parameters.$g.shape),
                V::parameter(concat!($prefix, ".radius"), $base + 1, "m", "Radius (Circle, Arc)", |m| std::slice::from_mut(&mut m.parameters.$g.radius)).min(0.0),
                V::parameter(concat!($prefix, ".length"), $base + 2, "m", "Length along the local x axis (Segment)", |m| std::slice::from_mut(&mut m.parameters.$g.length)).min(0.0),
                V::float(concat!($prefix, ".angles"), $base + 3, 2, Causality::Parameter, "rad",
                    "Start and end angle of an Arc, counter-clockwise from the local x axis (end - start in (0, 2 pi])", |m| &mut m.parameters.$g.angles),
                V::string_parameter(concat!($prefix, ".file"), $base + 5,
                    "Points file of a Polyline or Curve (x y per line): a path in the FMU's resources folder or absolute", |m| &mut m.parameters.$g.file),
                V::boolean_parameter(concat!($prefix, ".closed"), $base + 6,
                    "Polyline, Curve: the last point joins the first and the region inside is solid (false: an open wall)", |m| &mut m.parameters.$g.closed),
                V::float(concat!($prefix, ".r"), $base + 7, 2, Causality::Parameter, "m",
                    concat!("Position of the geometry frame in ", $body, "'s body frame"), |m| &mut m.parameters.$g.r),
                V::parameter(concat!($prefix, ".phi"), $base + 9, "rad", concat!("Angle of the geometry frame in ", $body, "'s body frame"),
                    |m| std::slice::from_mut(&mut m.parameters.$g.phi)),
            ]
        };
    }
    t.extend(geometry!("geometry_a", 200, geometry_a, "A"));
    t.extend(geometry!("geometry_b", 250, geometry_b, "B"));

    t.extend(normal_rows(&LAW_ROW_NOTES));
    t.extend(friction_rows(&LAW_ROW_NOTES));
    t.push(solver_row());

    macro_rules! point_states {
        ($($i:literal => $slot:literal),+) => {$(
            t.extend([
                V::state(concat!("contact.point[", $i, "].deflection"), 3000 + 10 * ($i - 1), 2, "m",
                    concat!("Tangential deflection of contact point ", $i, " (ElasticCone, Stiction; 0 for the other laws), in the plane"),
                    |m| m.deflection_mut($slot)),
                V::derivative(concat!("der(contact.point[", $i, "].deflection)"), 3003 + 10 * ($i - 1), 2, 3000 + 10 * ($i - 1), "m/s",
                    concat!("Rate of the tangential deflection of contact point ", $i),
                    |m| &mut m.locals.deflection_rate[$slot]),
                V::event_indicator(concat!("contact.point[", $i, "].indicator.separation"), 3006 + 10 * ($i - 1), "m",
                    concat!("Make/break event indicator of contact point ", $i, ": its separation (1 when the pair has no such point)"),
                    |m| std::slice::from_mut(&mut m.locals.separation[$slot])),
                V::event_indicator(concat!("contact.point[", $i, "].indicator.stick"), 3007 + 10 * ($i - 1), "N",
                    concat!("Stick/slip event indicator of contact point ", $i, " (> 0 sticks, < 0 slips; 1 without normal force or stateful friction)"),
                    |m| std::slice::from_mut(&mut m.locals.stick[$slot])),
            ]);
        )+};
    }
    point_states!(1 => 0, 2 => 1, 3 => 2, 4 => 3, 5 => 4, 6 => 5, 7 => 6, 8 => 7);
    t
}
