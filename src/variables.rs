//! The single table of FMI variables.
//!
//! Every variable of shared/spec/interface.md is one [`Variable`] here, with all its attributes and
//! an accessor into the [`Model`]. The C API get/set dispatch, both modelDescription.xml files,
//! the instantiation token, the FMU state serialization and the documentation page all come from
//! this table. Start values are read from `Model::default()` through the accessors, so the
//! defaults live in exactly one place (the `Default` impls in `block.rs`).
//!
//! Arrays are flattened into scalars named `x[1]`, `x[2]`, ... with consecutive value references,
//! the same in FMI 2.0 and FMI 3.0. Value references are unique across all types.

use std::sync::OnceLock;

use crate::block::{GeometryParameters, Wrench};
use crate::model::{Model, ModelError};
use crate::physics::contact::PointState;
use crate::physics::enums::EnumItem;
use crate::physics::friction::FrictionLawKind;
use crate::physics::material::MaterialPair;
use crate::physics::normal::{NormalLawKind, RestitutionModel};
use crate::physics::shape::ShapeKind;

pub const MODEL_NAME: &str = "ContactForce";
pub const MODEL_IDENTIFIER: &str = "ContactForce";
pub const MODEL_DESCRIPTION: &str =
    "Rigid-body contact block: contact force and torque between two bodies from their poses and twists";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Causality {
    Parameter,
    Input,
    Output,
    Independent,
}

impl Causality {
    pub fn as_str(self) -> &'static str {
        match self {
            Causality::Parameter => "parameter",
            Causality::Input => "input",
            Causality::Output => "output",
            Causality::Independent => "independent",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variability {
    Fixed,
    Discrete,
    Continuous,
}

impl Variability {
    pub fn as_str(self) -> &'static str {
        match self {
            Variability::Fixed => "fixed",
            Variability::Discrete => "discrete",
            Variability::Continuous => "continuous",
        }
    }
}

/// An enumeration type as it appears in TypeDefinitions.
#[derive(Debug)]
pub struct EnumerationType {
    pub name: &'static str,
    pub description: &'static str,
    pub items: &'static [EnumItem],
}

pub static SHAPE: EnumerationType =
    EnumerationType { name: "Shape", description: "Shape of a contact geometry", items: ShapeKind::ITEMS };
pub static NORMAL_LAW: EnumerationType =
    EnumerationType { name: "NormalLaw", description: "Normal force law", items: NormalLawKind::ITEMS };
pub static RESTITUTION_MODEL: EnumerationType = EnumerationType {
    name: "RestitutionModel",
    description: "Damping from the coefficient of restitution",
    items: RestitutionModel::ITEMS,
};
pub static FRICTION_LAW: EnumerationType =
    EnumerationType { name: "FrictionLaw", description: "Friction law", items: FrictionLawKind::ITEMS };
pub static MATERIAL_PAIR: EnumerationType = EnumerationType {
    name: "MaterialPair",
    description: "Material pair preset from the Adams material table",
    items: MaterialPair::ITEMS,
};

/// Every enumeration type, in the order the model descriptions declare them.
pub static ENUMERATION_TYPES: [&EnumerationType; 5] = [&SHAPE, &NORMAL_LAW, &RESTITUTION_MODEL, &FRICTION_LAW, &MATERIAL_PAIR];

/// The value type of a variable, with the attributes that belong to it.
#[derive(Clone, Copy, Debug)]
pub enum ValueType {
    /// FMI 2 Real, FMI 3 Float64.
    Float64 { unit: &'static str, min: Option<f64>, max: Option<f64> },
    /// FMI 2 Integer, FMI 3 Int32.
    Int32,
    Boolean,
    String,
    /// FMI 2 Integer-valued Enumeration, FMI 3 Int64-valued Enumeration.
    Enumeration(&'static EnumerationType),
}

/// Where a variable's value lives in the [`Model`].
#[derive(Clone, Copy)]
pub enum Access {
    Float(fn(&mut Model) -> &mut [f64]),
    Int(fn(&mut Model) -> &mut i64),
    Bool(fn(&mut Model) -> &mut bool),
    Str(fn(&mut Model) -> &mut String),
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Access::Float(_) => "Float",
            Access::Int(_) => "Int",
            Access::Bool(_) => "Bool",
            Access::Str(_) => "Str",
        })
    }
}

/// Which inputs an output depends on (for ModelStructure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dependencies {
    /// Not an output.
    None,
    /// Positions and orientations of both frames only (geometry outputs).
    Poses,
    /// Every input.
    AllInputs,
}

/// One (possibly array-valued) variable of the interface.
#[derive(Clone, Debug)]
pub struct Variable {
    /// Base name; elements of arrays are named `name[i]`, i from 1.
    pub name: &'static str,
    /// Value reference of the first element; element i has `vr + i - 1`.
    pub vr: u32,
    /// Number of scalar elements (1 for scalars).
    pub size: usize,
    pub causality: Causality,
    pub variability: Variability,
    pub ty: ValueType,
    pub description: &'static str,
    pub access: Access,
    pub dependencies: Dependencies,
}

/// One scalar of the flattened table.
#[derive(Clone, Debug)]
pub struct Scalar {
    pub variable: &'static Variable,
    /// 0-based element within the variable.
    pub element: usize,
    pub vr: u32,
    /// `name` or `name[element + 1]`.
    pub name: String,
}

impl Scalar {
    pub fn causality(&self) -> Causality {
        self.variable.causality
    }
}

// ---------------------------------------------------------------------------------------------
// The table.

/// Value reference of `time`.
pub const VR_TIME: u32 = 0;

fn float(
    name: &'static str,
    vr: u32,
    size: usize,
    causality: Causality,
    unit: &'static str,
    description: &'static str,
    access: fn(&mut Model) -> &mut [f64],
) -> Variable {
    let (variability, dependencies) = match causality {
        Causality::Parameter => (Variability::Fixed, Dependencies::None),
        Causality::Output => (Variability::Continuous, Dependencies::AllInputs),
        _ => (Variability::Continuous, Dependencies::None),
    };
    Variable {
        name,
        vr,
        size,
        causality,
        variability,
        ty: ValueType::Float64 { unit, min: None, max: None },
        description,
        access: Access::Float(access),
        dependencies,
    }
}

impl Variable {
    fn min(mut self, min: f64) -> Self {
        if let ValueType::Float64 { min: m, .. } = &mut self.ty {
            *m = Some(min);
        }
        self
    }

    fn max(mut self, max: f64) -> Self {
        if let ValueType::Float64 { max: m, .. } = &mut self.ty {
            *m = Some(max);
        }
        self
    }

    fn depends_on_poses_only(mut self) -> Self {
        self.dependencies = Dependencies::Poses;
        self
    }
}

fn parameter(name: &'static str, vr: u32, unit: &'static str, description: &'static str, access: fn(&mut Model) -> &mut [f64]) -> Variable {
    float(name, vr, 1, Causality::Parameter, unit, description, access)
}

fn enumeration(
    name: &'static str,
    vr: u32,
    ty: &'static EnumerationType,
    description: &'static str,
    access: fn(&mut Model) -> &mut i64,
) -> Variable {
    Variable {
        name,
        vr,
        size: 1,
        causality: Causality::Parameter,
        variability: Variability::Fixed,
        ty: ValueType::Enumeration(ty),
        description,
        access: Access::Int(access),
        dependencies: Dependencies::None,
    }
}

fn output_discrete(name: &'static str, vr: u32, ty: ValueType, description: &'static str, access: Access) -> Variable {
    Variable {
        name,
        vr,
        size: 1,
        causality: Causality::Output,
        variability: Variability::Discrete,
        ty,
        description,
        access,
        dependencies: Dependencies::AllInputs,
    }
}

fn build_table() -> Vec<Variable> {
    use Causality::{Input, Output};
    let mut t = vec![Variable {
        name: "time",
        vr: VR_TIME,
        size: 1,
        causality: Causality::Independent,
        variability: Variability::Continuous,
        ty: ValueType::Float64 { unit: "s", min: None, max: None },
        description: "Simulation time",
        access: Access::Float(|m| std::slice::from_mut(&mut m.time)),
        dependencies: Dependencies::None,
    }];

    // Inputs: poses and twists of both frames (value references 1 to 26).
    t.extend([
        float("frame_a.r_0", 1, 3, Input, "m", "Position of A's frame origin, resolved in W", |m| &mut m.inputs.frame_a.r_0),
        float("frame_a.q", 4, 4, Input, "1", "Orientation of A as a quaternion (w, x, y, z) rotating A-frame vectors into W", |m| {
            &mut m.inputs.frame_a.q
        }),
        float("frame_a.v_0", 8, 3, Input, "m/s", "Velocity of A's frame origin, resolved in W", |m| &mut m.inputs.frame_a.v_0),
        float("frame_a.w_0", 11, 3, Input, "rad/s", "Angular velocity of A, resolved in W", |m| &mut m.inputs.frame_a.w_0),
        float("frame_b.r_0", 14, 3, Input, "m", "Position of B's frame origin, resolved in W", |m| &mut m.inputs.frame_b.r_0),
        float("frame_b.q", 17, 4, Input, "1", "Orientation of B as a quaternion (w, x, y, z) rotating B-frame vectors into W", |m| {
            &mut m.inputs.frame_b.q
        }),
        float("frame_b.v_0", 21, 3, Input, "m/s", "Velocity of B's frame origin, resolved in W", |m| &mut m.inputs.frame_b.v_0),
        float("frame_b.w_0", 24, 3, Input, "rad/s", "Angular velocity of B, resolved in W", |m| &mut m.inputs.frame_b.w_0),
    ]);

    // Outputs (value references 100 and up).
    fn wrench_a(m: &mut Model) -> &mut Wrench {
        &mut m.outputs.frame_a
    }
    fn wrench_b(m: &mut Model) -> &mut Wrench {
        &mut m.outputs.frame_b
    }
    t.extend([
        float("frame_a.f_0", 100, 3, Output, "N", "Total contact force on A, resolved in W", |m| &mut wrench_a(m).f_0),
        float("frame_a.t_0", 103, 3, Output, "N.m", "Total contact torque on A about A's frame origin, resolved in W", |m| {
            &mut wrench_a(m).t_0
        }),
        float("frame_b.f_0", 106, 3, Output, "N", "Total contact force on B, resolved in W (= -frame_a.f_0)", |m| &mut wrench_b(m).f_0),
        float("frame_b.t_0", 109, 3, Output, "N.m", "Total contact torque on B about B's frame origin, resolved in W", |m| {
            &mut wrench_b(m).t_0
        }),
        output_discrete(
            "contact.active",
            112,
            ValueType::Boolean,
            "At least one contact point carries force",
            Access::Bool(|m| &mut m.outputs.active),
        ),
        output_discrete(
            "contact.points",
            113,
            ValueType::Int32,
            "Number of contact points carrying force",
            Access::Int(|m| &mut m.outputs.points),
        ),
        float(
            "contact.separation",
            114,
            1,
            Output,
            "m",
            "Signed distance between the geometries (> 0 apart, < 0 deepest penetration)",
            |m| std::slice::from_mut(&mut m.outputs.separation),
        )
        .depends_on_poses_only(),
        float("contact.normal_force", 115, 1, Output, "N", "Sum of the normal force magnitudes", |m| {
            std::slice::from_mut(&mut m.outputs.normal_force)
        }),
        float("contact.friction_force", 116, 1, Output, "N", "Magnitude of the summed tangential force", |m| {
            std::slice::from_mut(&mut m.outputs.friction_force)
        }),
        float(
            "contact.p_0",
            117,
            3,
            Output,
            "m",
            "Contact point: normal-force-weighted mean of the active points (closest point on A when apart), in W",
            |m| &mut m.outputs.p_0,
        ),
        float("contact.n_0", 120, 3, Output, "1", "Unit contact normal from A toward B, in W", |m| &mut m.outputs.n_0)
            .depends_on_poses_only(),
        float("contact.slip_speed", 123, 1, Output, "m/s", "Tangential relative speed at contact.p_0", |m| {
            std::slice::from_mut(&mut m.outputs.slip_speed)
        }),
        output_discrete(
            "contact.sticking",
            124,
            ValueType::Boolean,
            "Stateful friction laws: every active point is inside its friction cone (false for the other laws)",
            Access::Bool(|m| &mut m.outputs.sticking),
        ),
    ]);

    // Per-point outputs contact.point[i].* (value references 1000 + 10 (i - 1) + k).
    macro_rules! point_outputs {
        ($($i:literal => $slot:literal),+) => {$(
            t.extend([
                output_discrete(
                    concat!("contact.point[", $i, "].active"),
                    1000 + 10 * ($i - 1),
                    ValueType::Boolean,
                    concat!("Contact point ", $i, " carries force"),
                    Access::Bool(|m| &mut m.outputs.point[$slot].active),
                ),
                float(concat!("contact.point[", $i, "].separation"), 1001 + 10 * ($i - 1), 1, Output, "m",
                    concat!("Signed distance at contact point ", $i, " (0 when the pair has no such point)"),
                    |m| std::slice::from_mut(&mut m.outputs.point[$slot].separation))
                .depends_on_poses_only(),
                float(concat!("contact.point[", $i, "].normal_force"), 1002 + 10 * ($i - 1), 1, Output, "N",
                    concat!("Normal force at contact point ", $i),
                    |m| std::slice::from_mut(&mut m.outputs.point[$slot].normal_force)),
                float(concat!("contact.point[", $i, "].friction_force"), 1003 + 10 * ($i - 1), 1, Output, "N",
                    concat!("Magnitude of the tangential force at contact point ", $i),
                    |m| std::slice::from_mut(&mut m.outputs.point[$slot].friction_force)),
                float(concat!("contact.point[", $i, "].p_0"), 1004 + 10 * ($i - 1), 3, Output, "m",
                    concat!("Where the force of contact point ", $i, " acts, in W"),
                    |m| &mut m.outputs.point[$slot].p_0),
            ]);
        )+};
    }
    point_outputs!(1 => 0, 2 => 1, 3 => 2, 4 => 3, 5 => 4, 6 => 5, 7 => 6, 8 => 7);

    // Geometry parameters (value references 200 to 299).
    fn geometry_a(m: &mut Model) -> &mut GeometryParameters {
        &mut m.parameters.geometry_a
    }
    fn geometry_b(m: &mut Model) -> &mut GeometryParameters {
        &mut m.parameters.geometry_b
    }
    macro_rules! geometry {
        ($prefix:literal, $base:expr, $g:ident, $body:literal) => {
            [
                enumeration(concat!($prefix, ".shape"), $base, &SHAPE, concat!("Shape of ", $body, "'s contact geometry"), |m| {
                    &mut $g(m).shape
                }),
                parameter(concat!($prefix, ".radius"), $base + 1, "m", "Radius (Sphere, Cylinder, Capsule, Disk)", |m| {
                    std::slice::from_mut(&mut $g(m).radius)
                })
                .min(0.0),
                parameter(concat!($prefix, ".length"), $base + 2, "m", "Length along the local z axis (Cylinder, Capsule)", |m| {
                    std::slice::from_mut(&mut $g(m).length)
                })
                .min(0.0),
                float(
                    concat!($prefix, ".size"),
                    $base + 3,
                    3,
                    Causality::Parameter,
                    "m",
                    "Full extents (Box, Rectangle) or semi-axes (Ellipsoid)",
                    |m| &mut $g(m).size,
                )
                .min(0.0),
                Variable {
                    name: concat!($prefix, ".file"),
                    vr: $base + 6,
                    size: 1,
                    causality: Causality::Parameter,
                    variability: Variability::Fixed,
                    ty: ValueType::String,
                    description: "Geometry file (ConvexHull, Mesh, PointCloud, GridSurface): a path in the FMU's resources folder or absolute",
                    access: Access::Str(|m| &mut $g(m).file),
                    dependencies: Dependencies::None,
                },
                float(
                    concat!($prefix, ".r"),
                    $base + 7,
                    3,
                    Causality::Parameter,
                    "m",
                    concat!("Position of the geometry frame in ", $body, "'s body frame"),
                    |m| &mut $g(m).r,
                ),
                float(
                    concat!($prefix, ".q"),
                    $base + 10,
                    4,
                    Causality::Parameter,
                    "1",
                    concat!("Orientation of the geometry frame in ", $body, "'s body frame (w, x, y, z)"),
                    |m| &mut $g(m).q,
                ),
            ]
        };
    }
    t.extend(geometry!("geometry_a", 200, geometry_a, "A"));
    t.extend(geometry!("geometry_b", 250, geometry_b, "B"));

    // Normal force parameters (value references 300 to 399).
    macro_rules! normal {
        ($field:ident) => {
            |m: &mut Model| std::slice::from_mut(&mut m.parameters.normal.$field)
        };
    }
    t.extend([
        enumeration("normal.law", 300, &NORMAL_LAW, "Normal force law", |m| &mut m.parameters.normal.law),
        parameter("normal.stiffness", 301, "N/m", "Contact stiffness k (N/m^n for the laws with an exponent n)", normal!(stiffness)).min(0.0),
        parameter("normal.damping", 302, "N.s/m", "Contact damping b (Impact: maximum damping cmax)", normal!(damping)).min(0.0),
        parameter("normal.exponent", 303, "1", "Stiffness exponent n (HuntCrossley, Restitution; Impact: e)", normal!(exponent)).min(0.0),
        parameter("normal.damping_exponent", 304, "1", "Depth exponent p of the damping term (HuntCrossley)", normal!(damping_exponent)).min(0.0),
        parameter("normal.velocity_exponent", 305, "1", "Velocity exponent q of the damping term (HuntCrossley)", normal!(velocity_exponent))
            .min(0.0),
        parameter("normal.transition_width", 306, "m", "Transition region width w (SmoothSpringDamper)", normal!(transition_width)).min(0.0),
        parameter("normal.full_damping_depth", 307, "m", "Depth dmax of full damping (Impact)", normal!(full_damping_depth)).min(0.0),
        parameter("normal.restitution", 308, "1", "Coefficient of restitution e (Restitution)", normal!(restitution)).min(0.0).max(1.0),
        enumeration("normal.restitution_model", 309, &RESTITUTION_MODEL, "Damping model of the Restitution law", |m| {
            &mut m.parameters.normal.restitution_model
        }),
        parameter("normal.max_depth", 310, "m", "Depth beyond which a point counts as passed through (0 = off)", normal!(max_depth)).min(0.0),
    ]);

    // Friction parameters (value references 400 to 499).
    macro_rules! friction {
        ($field:ident) => {
            |m: &mut Model| std::slice::from_mut(&mut m.parameters.friction.$field)
        };
    }
    t.extend([
        enumeration("friction.law", 400, &FRICTION_LAW, "Friction law", |m| &mut m.parameters.friction.law),
        parameter("friction.mu_static", 401, "1", "Static friction coefficient mu_s", friction!(mu_static)).min(0.0),
        parameter("friction.mu_dynamic", 402, "1", "Dynamic (kinetic) friction coefficient mu_d", friction!(mu_dynamic)).min(0.0),
        parameter("friction.v_stiction", 403, "m/s", "Stiction (critical) velocity vs, vc or ve1", friction!(v_stiction)).min(0.0),
        parameter("friction.v_transition", 404, "m/s", "Friction transition velocity vd or ve2", friction!(v_transition)).min(0.0),
        parameter("friction.viscous", 405, "s/m", "Viscous friction coefficient kv (Stribeck)", friction!(viscous)).min(0.0),
        parameter("friction.tanh_gain", 406, "s/m", "Gain k_mu of the Tanh law", friction!(tanh_gain)).min(0.0),
        parameter("friction.stiffness", 407, "N/m1.5", "Tangential stiffness Kt of the ElasticCone law (N/m^1.5)", friction!(stiffness)).min(0.0),
        parameter("friction.damping", 408, "N.s/m1.5", "Tangential damping Dt of the ElasticCone law (N.s/m^1.5)", friction!(damping)).min(0.0),
        parameter("friction.max_deformation", 409, "m", "Tangential deformation at which stiction breaks (Stiction)", friction!(max_deformation))
            .min(0.0),
        parameter("friction.torque_radius", 410, "m", "Radius R of the spin friction torque (0 = off)", friction!(torque_radius)).min(0.0),
        parameter("friction.rolling", 411, "1", "Rolling resistance coefficient mu_r (0 = off)", friction!(rolling)).min(0.0),
        enumeration("material.pair", 500, &MATERIAL_PAIR, "Material pair preset for mu_s, mu_d and e", |m| {
            &mut m.parameters.material_pair
        }),
        parameter("solver.max_step", 600, "s", "Largest internal sub-step of stateful laws within a communication step", |m| {
            std::slice::from_mut(&mut m.parameters.solver_max_step)
        })
        .min(0.0),
    ]);
    t
}

/// Every variable, in declaration order.
pub fn variables() -> &'static [Variable] {
    static TABLE: OnceLock<Vec<Variable>> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

struct Index {
    scalars: Vec<Scalar>,
    /// Position in `scalars` by value reference.
    by_vr: Vec<Option<u32>>,
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut scalars = Vec::new();
        for variable in variables() {
            for element in 0..variable.size {
                let name = if variable.size == 1 { variable.name.to_string() } else { format!("{}[{}]", variable.name, element + 1) };
                scalars.push(Scalar { variable, element, vr: variable.vr + element as u32, name });
            }
        }
        let max_vr = scalars.iter().map(|s| s.vr).max().unwrap_or(0) as usize;
        let mut by_vr = vec![None; max_vr + 1];
        for (i, s) in scalars.iter().enumerate() {
            assert!(by_vr[s.vr as usize].is_none(), "value reference {} is used twice ({})", s.vr, s.name);
            by_vr[s.vr as usize] = Some(i as u32);
        }
        Index { scalars, by_vr }
    })
}

/// Every scalar of the flattened table, in declaration order.
pub fn scalars() -> &'static [Scalar] {
    &index().scalars
}

/// The scalar with this value reference.
pub fn scalar(vr: u32) -> Option<&'static Scalar> {
    let index = index();
    let position = (*index.by_vr.get(vr as usize)?)?;
    Some(&index.scalars[position as usize])
}

/// The inputs that geometry-only outputs ([`Dependencies::Poses`]) depend on.
pub const POSE_INPUTS: [&str; 4] = ["frame_a.r_0", "frame_a.q", "frame_b.r_0", "frame_b.q"];

/// The input scalars an output scalar depends on, in table order; empty for every other scalar.
/// Both the ModelStructure of the model descriptions and fmi3GetVariableDependencies read it.
pub fn dependencies_of(s: &Scalar) -> Vec<&'static Scalar> {
    let inputs = scalars().iter().filter(|input| input.causality() == Causality::Input);
    match s.variable.dependencies {
        Dependencies::None => Vec::new(),
        Dependencies::AllInputs => inputs.collect(),
        Dependencies::Poses => inputs.filter(|input| POSE_INPUTS.contains(&input.variable.name)).collect(),
    }
}

// ---------------------------------------------------------------------------------------------
// Get and set.

/// What the caller is allowed to set at this point of the FMU's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetPhase {
    /// Before initialisation ends: parameters and inputs.
    Initializing,
    /// After initialisation: inputs only (every parameter is fixed).
    Running,
}

/// Why a get or set was refused. Messages name the variable and the value.
#[derive(Clone, Debug, PartialEq)]
pub enum VariableError {
    UnknownReference(u32),
    WrongType { name: String, declared: &'static str, requested: &'static str },
    NotSettable { name: String, why: &'static str },
    NotFinite { name: String, value: f64 },
    NotAnItem { name: String, value: i64, ty: &'static str },
    Model(ModelError),
}

impl std::fmt::Display for VariableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VariableError::UnknownReference(vr) => write!(f, "unknown value reference {vr}"),
            VariableError::WrongType { name, declared, requested } => {
                write!(f, "variable {name} is of type {declared}, not {requested}")
            }
            VariableError::NotSettable { name, why } => write!(f, "variable {name} cannot be set: {why}"),
            VariableError::NotFinite { name, value } => write!(f, "variable {name} = {value}: values must be finite"),
            VariableError::NotAnItem { name, value, ty } => write!(f, "variable {name} = {value}: not an item of enumeration {ty}"),
            VariableError::Model(e) => write!(f, "{e}"),
        }
    }
}

impl ValueType {
    pub fn type_name(&self) -> &'static str {
        match self {
            ValueType::Float64 { .. } => "Float64",
            ValueType::Int32 => "Int32",
            ValueType::Boolean => "Boolean",
            ValueType::String => "String",
            ValueType::Enumeration(_) => "Enumeration",
        }
    }
}

/// The integer-like types an importer may request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntKind {
    /// FMI 2 Integer: Int32 and Enumeration variables.
    Fmi2Integer,
    /// FMI 3 Int32.
    Int32,
    /// FMI 3 Int64: Enumeration variables.
    Int64,
}

fn lookup(vr: u32) -> Result<&'static Scalar, VariableError> {
    scalar(vr).ok_or(VariableError::UnknownReference(vr))
}

fn wrong_type(s: &Scalar, requested: &'static str) -> VariableError {
    VariableError::WrongType { name: s.name.clone(), declared: s.variable.ty.type_name(), requested }
}

/// Brings the outputs up to date before an output is read.
fn prepare_get(model: &mut Model, s: &Scalar) -> Result<(), VariableError> {
    if s.variable.causality == Causality::Output {
        model.update_outputs().map_err(VariableError::Model)?;
    }
    Ok(())
}

fn check_settable(s: &Scalar, phase: SetPhase) -> Result<(), VariableError> {
    match (s.variable.causality, phase) {
        (Causality::Input, _) | (Causality::Parameter, SetPhase::Initializing) => Ok(()),
        (Causality::Parameter, SetPhase::Running) => {
            Err(VariableError::NotSettable { name: s.name.clone(), why: "it is a fixed parameter and initialisation has ended" })
        }
        (Causality::Output, _) => Err(VariableError::NotSettable { name: s.name.clone(), why: "it is an output" }),
        (Causality::Independent, _) => {
            Err(VariableError::NotSettable { name: s.name.clone(), why: "time is advanced by the step function" })
        }
    }
}

fn changed(model: &mut Model, s: &Scalar) {
    match s.variable.causality {
        Causality::Parameter => model.parameters_changed(),
        _ => model.inputs_changed(),
    }
}

pub fn get_float(model: &mut Model, vr: u32) -> Result<f64, VariableError> {
    let s = lookup(vr)?;
    let Access::Float(access) = s.variable.access else { return Err(wrong_type(s, "Float64")) };
    prepare_get(model, s)?;
    Ok(access(model)[s.element])
}

pub fn set_float(model: &mut Model, vr: u32, value: f64, phase: SetPhase) -> Result<(), VariableError> {
    let s = lookup(vr)?;
    let Access::Float(access) = s.variable.access else { return Err(wrong_type(s, "Float64")) };
    check_settable(s, phase)?;
    if !value.is_finite() {
        return Err(VariableError::NotFinite { name: s.name.clone(), value });
    }
    let slot = &mut access(model)[s.element];
    if *slot != value {
        *slot = value;
        changed(model, s);
    }
    Ok(())
}

fn int_matches(ty: &ValueType, kind: IntKind) -> bool {
    matches!(
        (ty, kind),
        (ValueType::Int32, IntKind::Fmi2Integer | IntKind::Int32) | (ValueType::Enumeration(_), IntKind::Fmi2Integer | IntKind::Int64)
    )
}

fn int_name(kind: IntKind) -> &'static str {
    match kind {
        IntKind::Fmi2Integer => "Integer",
        IntKind::Int32 => "Int32",
        IntKind::Int64 => "Int64",
    }
}

pub fn get_int(model: &mut Model, vr: u32, kind: IntKind) -> Result<i64, VariableError> {
    let s = lookup(vr)?;
    let (Access::Int(access), true) = (s.variable.access, int_matches(&s.variable.ty, kind)) else {
        return Err(wrong_type(s, int_name(kind)));
    };
    prepare_get(model, s)?;
    Ok(*access(model))
}

pub fn set_int(model: &mut Model, vr: u32, value: i64, kind: IntKind, phase: SetPhase) -> Result<(), VariableError> {
    let s = lookup(vr)?;
    let (Access::Int(access), true) = (s.variable.access, int_matches(&s.variable.ty, kind)) else {
        return Err(wrong_type(s, int_name(kind)));
    };
    check_settable(s, phase)?;
    if let ValueType::Enumeration(ty) = s.variable.ty {
        if !ty.items.iter().any(|item| item.value == value) {
            return Err(VariableError::NotAnItem { name: s.name.clone(), value, ty: ty.name });
        }
    }
    let slot = access(model);
    if *slot != value {
        *slot = value;
        changed(model, s);
    }
    Ok(())
}

pub fn get_bool(model: &mut Model, vr: u32) -> Result<bool, VariableError> {
    let s = lookup(vr)?;
    let Access::Bool(access) = s.variable.access else { return Err(wrong_type(s, "Boolean")) };
    prepare_get(model, s)?;
    Ok(*access(model))
}

pub fn set_bool(model: &mut Model, vr: u32, value: bool, phase: SetPhase) -> Result<(), VariableError> {
    let s = lookup(vr)?;
    let Access::Bool(access) = s.variable.access else { return Err(wrong_type(s, "Boolean")) };
    check_settable(s, phase)?;
    let slot = access(model);
    if *slot != value {
        *slot = value;
        changed(model, s);
    }
    Ok(())
}

pub fn get_string(model: &mut Model, vr: u32) -> Result<&str, VariableError> {
    let s = lookup(vr)?;
    let Access::Str(access) = s.variable.access else { return Err(wrong_type(s, "String")) };
    prepare_get(model, s)?;
    Ok(access(model).as_str())
}

pub fn set_string(model: &mut Model, vr: u32, value: &str, phase: SetPhase) -> Result<(), VariableError> {
    let s = lookup(vr)?;
    let Access::Str(access) = s.variable.access else { return Err(wrong_type(s, "String")) };
    check_settable(s, phase)?;
    let slot = access(model);
    if slot != value {
        value.clone_into(slot);
        changed(model, s);
    }
    Ok(())
}

/// Checks every Float64 parameter against its declared min and max (the interval rules of the
/// table); the block checks the rules that are not plain intervals.
pub fn check_ranges(model: &mut Model) -> Result<(), String> {
    for s in scalars() {
        let (Causality::Parameter, ValueType::Float64 { min, max, .. }, Access::Float(access)) =
            (s.variable.causality, s.variable.ty, s.variable.access)
        else {
            continue;
        };
        let value = access(model)[s.element];
        if let Some(min) = min.filter(|min| value < *min) {
            return Err(format!("{} = {value}: must be >= {min}", s.name));
        }
        if let Some(max) = max.filter(|max| value > *max) {
            return Err(format!("{} = {value}: must be <= {max}", s.name));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Start values, instantiation token and serialization.

/// A start value as text, read from `Model::default()`; `None` for outputs and time.
pub fn start_value(s: &Scalar) -> Option<String> {
    if matches!(s.variable.causality, Causality::Output | Causality::Independent) {
        return None;
    }
    let mut model = Model::default();
    Some(match s.variable.access {
        Access::Float(access) => format_real(access(&mut model)[s.element]),
        Access::Int(access) => access(&mut model).to_string(),
        Access::Bool(access) => access(&mut model).to_string(),
        Access::Str(access) => access(&mut model).clone(),
    })
}

/// Shortest text that reads back to the same f64.
pub fn format_real(x: f64) -> String {
    let text = format!("{x:?}");
    text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
}

/// FNV-1a 64-bit over `bytes`, starting from `seed`.
fn fnv1a(seed: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(seed, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// A canonical text of the whole interface: every attribute of every scalar and every item.
fn interface_text() -> String {
    let mut text = format!("{MODEL_NAME}\n");
    for s in scalars() {
        let v = s.variable;
        text.push_str(&format!(
            "{}|{}|{}|{}|{:?}|{:?}|{}|{:?}\n",
            s.name,
            s.vr,
            v.causality.as_str(),
            v.variability.as_str(),
            v.ty,
            start_value(s),
            v.description,
            v.dependencies
        ));
    }
    for ty in ENUMERATION_TYPES {
        for item in ty.items {
            text.push_str(&format!("{}|{}|{}\n", ty.name, item.value, item.name));
        }
    }
    text
}

/// The GUID (FMI 2) and instantiationToken (FMI 3): a 128-bit hash of the interface, so that it
/// changes whenever the interface changes.
pub fn instantiation_token() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| {
        let text = interface_text();
        let hi = fnv1a(0xcbf2_9ce4_8422_2325, text.as_bytes());
        let lo = fnv1a(0x8422_2325_cbf2_9ce4, text.as_bytes());
        format!(
            "{{{:08x}-{:04x}-{:04x}-{:04x}-{:012x}}}",
            hi >> 32,
            (hi >> 16) & 0xffff,
            hi & 0xffff,
            lo >> 48,
            lo & 0xffff_ffff_ffff
        )
    })
}

const STATE_MAGIC: &[u8; 8] = b"CFSTATE1";

/// Serializes the parameters, inputs and time of `model`: magic, token hash, values in table
/// order, and an FNV-1a checksum of everything before it.
pub fn serialize(model: &mut Model) -> Vec<u8> {
    // Sized for the table; point states add 33 bytes each.
    let mut out = Vec::with_capacity(2048);
    out.extend_from_slice(STATE_MAGIC);
    out.extend_from_slice(&fnv1a(0xcbf2_9ce4_8422_2325, instantiation_token().as_bytes()).to_le_bytes());
    for s in scalars() {
        if s.variable.causality == Causality::Output {
            continue;
        }
        match s.variable.access {
            Access::Float(access) => out.extend_from_slice(&access(model)[s.element].to_le_bytes()),
            Access::Int(access) => out.extend_from_slice(&access(model).to_le_bytes()),
            Access::Bool(access) => out.push(u8::from(*access(model))),
            Access::Str(access) => {
                let text = access(model);
                out.extend_from_slice(&(text.len() as u64).to_le_bytes());
                out.extend_from_slice(text.as_bytes());
            }
        }
    }
    // The stateful laws' point states follow the table's values.
    out.extend_from_slice(&(model.point_states().len() as u64).to_le_bytes());
    for state in model.point_states() {
        for x in state.tangential.deflection.iter().chain(std::iter::once(&state.onset_speed)) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.push(u8::from(state.tangential.slipping));
    }
    let checksum = fnv1a(0xcbf2_9ce4_8422_2325, &out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.bytes.len() < n {
            return Err("the serialized FMU state is truncated".to_string());
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
}

/// Rebuilds a model from [`serialize`]d bytes; any damage is an error and nothing is changed.
pub fn deserialize(bytes: &[u8]) -> Result<Model, String> {
    if bytes.len() < STATE_MAGIC.len() + 16 || &bytes[..STATE_MAGIC.len()] != STATE_MAGIC {
        return Err("these bytes are not a serialized ContactForce FMU state".to_string());
    }
    let (body, checksum) = bytes.split_at(bytes.len() - 8);
    if fnv1a(0xcbf2_9ce4_8422_2325, body).to_le_bytes() != checksum {
        return Err("the serialized FMU state is damaged (checksum mismatch)".to_string());
    }
    let mut reader = Reader { bytes: &body[STATE_MAGIC.len()..] };
    if reader.u64()? != fnv1a(0xcbf2_9ce4_8422_2325, instantiation_token().as_bytes()) {
        return Err("the serialized FMU state belongs to a different version of this FMU".to_string());
    }
    let mut model = Model::default();
    for s in scalars() {
        if s.variable.causality == Causality::Output {
            continue;
        }
        match s.variable.access {
            Access::Float(access) => access(&mut model)[s.element] = f64::from_bits(reader.u64()?),
            Access::Int(access) => *access(&mut model) = reader.u64()? as i64,
            Access::Bool(access) => *access(&mut model) = reader.take(1)?[0] != 0,
            Access::Str(access) => {
                let len = reader.u64()?;
                let len = usize::try_from(len).map_err(|_| "string length out of range".to_string())?;
                let text = std::str::from_utf8(reader.take(len)?).map_err(|_| format!("{} is not UTF-8", s.name))?;
                *access(&mut model) = text.to_string();
            }
        }
    }
    let count = reader.u64()?;
    // Each point state takes 33 bytes; a count the bytes cannot hold is damage, not a size.
    if count > (reader.bytes.len() / 33) as u64 {
        return Err("the serialized FMU state is truncated".to_string());
    }
    let mut states = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let mut state = PointState::default();
        for x in state.tangential.deflection.iter_mut() {
            *x = f64::from_bits(reader.u64()?);
        }
        state.onset_speed = f64::from_bits(reader.u64()?);
        state.tangential.slipping = reader.take(1)?[0] != 0;
        if !state.onset_speed.is_finite() || state.tangential.deflection.iter().any(|x| !x.is_finite()) {
            return Err("the serialized FMU state holds a non-finite contact state".to_string());
        }
        states.push(state);
    }
    model.set_point_states(states);
    if !reader.bytes.is_empty() {
        return Err("the serialized FMU state has trailing bytes".to_string());
    }
    Ok(model)
}
