//! The variable table of ContactScene. Value references: `time` 0, `scene.bodies` 10,
//! `scene.file` 11, the scene's outputs 20 and 21; the laws' parameters 300 to 411 and
//! `solver.max_step` 600 (ContactForce's rows), `coupling.*` 700 to 703 (ContactForce's); per
//! body i (1 to 16): inputs from `1000 + 20 (i - 1)`, outputs from `2000 + 10 (i - 1)`,
//! parameters from `5000 + 50 (i - 1)` (its geometry at ContactForce's `geometry_X.*` offsets 0
//! to 22, its frame's pose named `geometry.r` and `geometry.q` since `q` is the body's input), then `mass` 30, `inertia` 31, `com` 37, `material` 40, `group` 41, `mask` 42).
//!
//! FMI 3 arrays sized by a structural parameter are not used yet: both versions declare 16 bodies.
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use contact_fmi::geometry_names;
use contact_fmi::geometry_rows::{coupling_rows, geometry_rows, Coupled, Geometries, COUPLING_MODE, SHAPE};
use contact_fmi::law_rows::{friction_rows, normal_rows, solver_row, LawRowNotes, FRICTION_LAW, NORMAL_LAW, RESTITUTION_MODEL};
use contact_physics::geometry_parameters::GeometryParameters;
use contact_physics::parameters::CouplingParameters;
use fmi_export::table::{Access, Causality, Table, ValueType, Variable};

use crate::model::Model;

type V = Variable<Model>;

/// What ContactScene says of ContactForce's laws' parameters: one law set for every pair.
/// The model's name in both model descriptions.
pub const MODEL_NAME: &str = "ContactScene";
/// The model's description in both model descriptions.
pub const MODEL_DESCRIPTION: &str =
    "Contact scene: every contact among up to 16 bodies, their contact forces and torques from their poses and twists";

const LAW_ROW_NOTES: LawRowNotes = LawRowNotes {
    normal_law: "Normal force law of every pair (ContactForce's; stateless laws only)",
    friction_law: "Friction law of every pair (ContactForce's; stateless laws only)",
    rolling: "Rolling resistance coefficient mu_r (0 = off)",
    spin_torque: true,
};

contact_fmi::law_parameters!(Model, m => m.parameters.normal, m.parameters.friction, m.parameters.solver_max_step);

impl Geometries for Model {
    fn geometry(&mut self, body: usize) -> &mut GeometryParameters {
        &mut self.parameters.body[body].geometry
    }
}

impl Coupled for Model {
    fn coupling(&mut self) -> &mut CouplingParameters {
        &mut self.parameters.coupling
    }
}

/// The model-specific sections of the documentation page.
pub const DOCUMENTATION: &str = "<h2>What the block does</h2>\n\
<p>Up to 16 bodies (<code>scene.bodies</code> of <code>body[1]</code> to <code>body[16]</code>), each with ContactForce's \
shapes, a mass (0 = immovable or driven by its inputs), an inertia, a centre of mass, a material and a collision group and \
mask (bodies i and j may touch when each one's group meets the other's mask). Every pair that may touch is found by a sweep \
and prune broad phase and evaluated by ContactForce's pairs and laws, with one law set. Each body receives the sum of its \
contacts: the force <code>body[i].f_0</code> and the torque <code>body[i].t_0</code> about its frame origin, in W. Of a \
pair (i, j), i &lt; j, body i is ContactForce's A and body j its B.</p>\n\
<h2>Coupling</h2>\n<p><code>coupling.mode = Instantaneous</code>: the wrenches at the current inputs. \
<code>StepAverage</code>: the block integrates all its movable bodies together over the coming step and reports the impulse \
each receives divided by the step, so that stacks and piles stay right at steps far above the contacts' time scale.</p>\n\
<h2>Scene file</h2>\n<p><code>scene.file</code> (TOML or JSON, a path in the FMU's resources folder or absolute) describes \
the whole scene: bodies, materials, pairs of materials, laws and coupling mode. When it is set, <code>body[i].*</code>, \
<code>normal.*</code>, <code>friction.*</code>, <code>solver.max_step</code>, <code>coupling.mode</code> and \
<code>coupling.max_substep</code> and <code>coupling.gravity</code> are not used, and <code>scene.bodies</code> is 0 or the file's count.</p>\n\
<h2>Not yet</h2>\n<p>Model Exchange, stateful friction laws and FMI 3 arrays sized by a structural parameter.</p>\n";

/// A new table; each FMU instance owns one.
pub fn build() -> Table<Model> {
    Table::new(build_table(), vec![&SHAPE, &NORMAL_LAW, &RESTITUTION_MODEL, &FRICTION_LAW, &COUPLING_MODE])
}

/// The table for tools and tests, built once per process; the C API never uses it.
pub fn table() -> &'static Table<Model> {
    static TABLE: OnceLock<Table<Model>> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// Body `K`'s inputs, outputs and parameters, named `$prefix` (`"body[3]"`), `$i` = K + 1.
macro_rules! body_rows {
    ($t:ident, $k:literal, $i:literal) => {{
        const K: usize = $k;
        let input = 1000 + 20 * K as u32;
        let output = 2000 + 10 * K as u32;
        let parameter = 5000 + 50 * K as u32;
        $t.extend([
            V::float(concat!("body[", $i, "].r_0"), input, 3, Causality::Input, "m", concat!("Position of body ", $i, "'s frame origin in W"), |m| &mut m.inputs[K].r_0),
            V::float(concat!("body[", $i, "].q"), input + 3, 4, Causality::Input, "1", concat!("Orientation of body ", $i, "'s frame in W (unit quaternion w, x, y, z)"), |m| &mut m.inputs[K].q),
            V::float(concat!("body[", $i, "].v_0"), input + 7, 3, Causality::Input, "m/s", concat!("Velocity of body ", $i, "'s frame origin in W"), |m| &mut m.inputs[K].v_0),
            V::float(concat!("body[", $i, "].w_0"), input + 10, 3, Causality::Input, "rad/s", concat!("Angular velocity of body ", $i, " in W"), |m| &mut m.inputs[K].w_0),
            V::float(concat!("body[", $i, "].f_0"), output, 3, Causality::Output, "N", concat!("Total contact force on body ", $i, ", in W"), |m| &mut m.outputs.body[K].f_0),
            V::float(concat!("body[", $i, "].t_0"), output + 3, 3, Causality::Output, "N.m", concat!("Total contact torque on body ", $i, " about its frame origin, in W"), |m| &mut m.outputs.body[K].t_0),
            V::discrete_output(concat!("body[", $i, "].touching"), output + 6, ValueType::Int32,
                concat!("Number of bodies pushing body ", $i, " (StepAverage: the most within the step)"), Access::Int(|m| &mut m.outputs.body[K].touching)),
            V::float(concat!("body[", $i, "].max_normal_force"), output + 7, 1, Causality::Output, "N",
                concat!("Largest normal force of one contact of body ", $i, " (a pair's points summed; StepAverage: the largest within the step)"),
                |m| std::slice::from_mut(&mut m.outputs.body[K].max_normal_force)),
        ]);
        // The body's `q` is its input: the geometry frame's pose is `geometry.r`, `geometry.q`.
        let names = geometry_names!(concat!("body[", $i, "]"), concat!("body ", $i), concat!("body[", $i, "].geometry.r"), concat!("body[", $i, "].geometry.q"));
        $t.extend(geometry_rows::<Model, K>(&names, parameter));
        $t.extend([
            V::parameter(concat!("body[", $i, "].mass"), parameter + 30, "kg", concat!("Mass of body ", $i, " (0 = immovable or driven: its motion is its inputs')"),
                |m| std::slice::from_mut(&mut m.parameters.body[K].body.mass)).min(0.0),
            V::float(concat!("body[", $i, "].inertia"), parameter + 31, 6, Causality::Parameter, "kg.m2",
                concat!("Inertia of body ", $i, " about its centre of mass in its body frame: Ixx, Iyy, Izz, Ixy, Ixz, Iyz (all 0 = a point mass)"),
                |m| &mut m.parameters.body[K].body.inertia),
            V::float(concat!("body[", $i, "].com"), parameter + 37, 3, Causality::Parameter, "m", concat!("Centre of mass of body ", $i, " in its body frame"),
                |m| &mut m.parameters.body[K].body.com),
            V::int_parameter(concat!("body[", $i, "].material"), parameter + 40, concat!("Material of body ", $i, " (0-based index; without scene.file there is one material, 0)"),
                |m| &mut m.parameters.body[K].material),
            V::int_parameter(concat!("body[", $i, "].group"), parameter + 41, concat!("Collision group bits of body ", $i, " (it touches a body whose mask meets them)"),
                |m| &mut m.parameters.body[K].group),
            V::int_parameter(concat!("body[", $i, "].mask"), parameter + 42, concat!("Collision mask bits of body ", $i, " (the groups it touches; -1 = all)"),
                |m| &mut m.parameters.body[K].mask),
        ]);
    }};
}

fn build_table() -> Vec<V> {
    let mut t = vec![V::time(|m: &mut Model| std::slice::from_mut(&mut m.time))];
    t.extend([
        V::int_parameter("scene.bodies", 10, "Number of bodies in the scene: body[1] to body[scene.bodies] (0 to 16; 0 with scene.file = the file's)", |m| {
            &mut m.parameters.bodies
        }),
        V::string_parameter(
            "scene.file",
            11,
            "Scene file (TOML or JSON: bodies, materials, laws, coupling), read at initialisation instead of the body[i], law and coupling parameters: a path in the FMU's resources folder or absolute (empty = none)",
            |m| &mut m.parameters.file,
        ),
        V::discrete_output("scene.active_contacts", 20, ValueType::Int32, "Number of contact points carrying force (StepAverage: the most within the step)", Access::Int(|m| {
            &mut m.outputs.active_contacts
        })),
        V::float("scene.max_penetration", 21, 1, Causality::Output, "m", "Largest penetration depth of any contact point (StepAverage: the largest within the step; 0 when nothing touches)", |m| {
            std::slice::from_mut(&mut m.outputs.max_penetration)
        }),
    ]);
    body_rows!(t, 0, 1);
    body_rows!(t, 1, 2);
    body_rows!(t, 2, 3);
    body_rows!(t, 3, 4);
    body_rows!(t, 4, 5);
    body_rows!(t, 5, 6);
    body_rows!(t, 6, 7);
    body_rows!(t, 7, 8);
    body_rows!(t, 8, 9);
    body_rows!(t, 9, 10);
    body_rows!(t, 10, 11);
    body_rows!(t, 11, 12);
    body_rows!(t, 12, 13);
    body_rows!(t, 13, 14);
    body_rows!(t, 14, 15);
    body_rows!(t, 15, 16);
    t.extend(normal_rows(&LAW_ROW_NOTES));
    t.extend(friction_rows(&LAW_ROW_NOTES));
    t.push(solver_row());
    t.extend(coupling_rows());
    t
}
