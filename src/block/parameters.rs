//! The block's parameters as users set them, their documented defaults, and their validation into
//! typed physics (the rules that are not plain intervals; the table checks min and max).

use std::path::Path;

use crate::physics::contact::Laws;
use crate::physics::enums::not_an_item;
use crate::physics::friction::{FrictionLaw, FrictionLawKind};
use crate::physics::material::MaterialPair;
use crate::physics::math::Vec3;
use crate::physics::geometry::GeometryPair;
pub use crate::physics::geometry_parameters::GeometryParameters;
use crate::physics::geometry_parameters::geometry;
use crate::physics::math::Pose;
use crate::physics::normal::{NormalLaw, NormalLawKind};
pub use crate::physics::parameters::{check, friction_law, normal_law, refuse, BodyParameters, FrictionParameters, NormalParameters, ParameterError};
use crate::physics::parameters::pair_laws;
use crate::physics::shape::ShapeKind;

use super::step_average::CouplingMode;
use crate::physics::rigid_motion::MassProperties;

pub use crate::physics::parameters::CouplingParameters;

/// Every parameter of the block.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameters {
    pub geometry_a: GeometryParameters,
    pub geometry_b: GeometryParameters,
    pub normal: NormalParameters,
    pub friction: FrictionParameters,
    /// Stable number of a [`MaterialPair`].
    pub material_pair: i64,
    /// Largest internal sub-step \[s\] for stateful laws.
    pub solver_max_step: f64,
    pub coupling: CouplingParameters,
    pub body_a: BodyParameters,
    pub body_b: BodyParameters,
}

impl Default for Parameters {
    fn default() -> Self {
        Parameters {
            geometry_a: GeometryParameters::with_shape(ShapeKind::Plane),
            geometry_b: GeometryParameters::with_shape(ShapeKind::Sphere),
            normal: NormalParameters::default(),
            friction: FrictionParameters::default(),
            material_pair: MaterialPair::None.value(),
            solver_max_step: 1e-3,
            coupling: CouplingParameters::default(),
            body_a: BodyParameters::default(),
            body_b: BodyParameters::default(),
        }
    }
}

/// Parameters checked and turned into typed physics.
#[derive(Clone, Debug)]
pub struct Validated {
    pub pair: GeometryPair,
    /// Geometry frames in the body frames.
    pub offset_a: Pose,
    pub offset_b: Pose,
    pub laws: Laws,
    pub solver_max_step: f64,
    /// StepAverage's setup; `None` under Instantaneous.
    pub step_average: Option<StepAverageSetup>,
}

/// What StepAverage needs, checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepAverageSetup {
    pub mass: [MassProperties; 2],
    /// `coupling.step` (s); 0 = the last DoStep's size only.
    pub step: f64,
    pub max_substep: f64,
    /// `coupling.gravity` (m/s2): the other forces on each movable body until a step measures them.
    pub gravity: Vec3,
}

/// StepAverage's parameters checked: at least one body with mass, physical inertias, a sub-step.
fn step_average(p: &Parameters) -> Result<Option<StepAverageSetup>, ParameterError> {
    let c = &p.coupling;
    let mode = CouplingMode::from_value(c.mode).ok_or_else(|| refuse("coupling.mode", c.mode, not_an_item("coupling mode", CouplingMode::ITEMS)))?;
    check("coupling.step", c.step, c.step >= 0.0, "must be >= 0 (0 = the last DoStep's size)")?;
    check("coupling.max_substep", c.max_substep, c.max_substep > 0.0, "must be > 0")?;
    if mode == CouplingMode::Instantaneous {
        return Ok(None);
    }
    let mut mass = [MassProperties::immovable(); 2];
    for (k, (prefix, b)) in [("body_a", &p.body_a), ("body_b", &p.body_b)].into_iter().enumerate() {
        mass[k] = b.checked(prefix)?;
    }
    if !mass[0].is_movable() && !mass[1].is_movable() {
        return Err(refuse(
            "body_a.mass, body_b.mass",
            "0, 0",
            "coupling.mode = StepAverage integrates the bodies over each step and needs the mass of at least one of them \
             (0 means immovable, e.g. the ground)",
        ));
    }
    if !c.gravity.iter().all(|x| x.is_finite()) {
        return Err(refuse("coupling.gravity", format!("{:?}", c.gravity), "must be finite"));
    }
    Ok(Some(StepAverageSetup { mass, step: c.step, max_substep: c.max_substep, gravity: Vec3::from(c.gravity) }))
}

/// Refuses `normal.law` or `friction.law` = ProvidedByInput in an FMU without the provided
/// forces' inputs: they are in the FMU `extension` (the same binary).
pub fn refuse_provided_laws(parameters: &Parameters, extension: &str) -> Result<(), ParameterError> {
    let laws = [
        ("normal.law", parameters.normal.law, NormalLawKind::ProvidedByInput.value()),
        ("friction.law", parameters.friction.law, FrictionLawKind::ProvidedByInput.value()),
    ];
    for (variable, value, provided) in laws {
        if value == provided {
            return Err(refuse(
                variable,
                format!("{value} (ProvidedByInput)"),
                format!(
                    "this FMU has no inputs for a law provided by input; the FMU {extension} (the same binary, \
                     {extension}-fmi2.fmu and -fmi3.fmu) has them (contact.point[i].provided.*)"
                ),
            ));
        }
    }
    Ok(())
}

/// What the laws provided by input need: a slot for every point the pair can have, the
/// instantaneous coupling (StepAverage evaluates the laws at sub-steps inside the block, where no
/// input can answer), and a velocity-based friction law for the spin friction torque.
fn provided_laws(laws: &Laws, pair: &GeometryPair, step_average: bool) -> Result<(), ParameterError> {
    let provided: Vec<&str> = [(laws.normal == NormalLaw::ProvidedByInput, "normal.law"), (laws.friction == FrictionLaw::ProvidedByInput, "friction.law")]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
    if provided.is_empty() {
        return Ok(());
    }
    let variables = provided.join(", ");
    let values = vec!["ProvidedByInput"; provided.len()].join(", ");
    let points = pair.max_points();
    if points > super::POINT_OUTPUTS {
        let slots = super::POINT_OUTPUTS;
        return Err(ParameterError {
            variable: format!("{variables}, geometry_a.shape, geometry_b.shape"),
            value: format!("{values}, {}, {}", pair.shape_a().kind().name(), pair.shape_b().kind().name()),
            rule: format!(
                "a law provided by input takes the force of each contact point from the inputs of its slot, and there are {slots} \
                 slots (contact.point[1] to contact.point[{slots}]); this pair can have {points} contact points, whose points \
                 beyond the {slots}th would carry no force: use a pair with at most {slots} points (a point cloud of at most {slots} \
                 points, whose slots follow the file's order), or a built-in law"
            ),
        });
    }
    if step_average {
        return Err(ParameterError {
            variable: format!("{variables}, coupling.mode"),
            value: format!("{values}, StepAverage"),
            rule: "coupling.mode = StepAverage integrates both bodies over sub-steps of the coming step inside the block, where \
                   the user's law cannot be asked for the force; use coupling.mode = Instantaneous with a law provided by input"
                .to_string(),
        });
    }
    Ok(())
}

/// Applies a material preset: each of mu_s, mu_d and e left at its default takes the preset's
/// value; a value the user changed overrides the preset. (A value set explicitly to exactly the
/// default counts as left at the default.)
fn with_material(p: &Parameters) -> Result<Parameters, ParameterError> {
    let material =
        MaterialPair::from_value(p.material_pair).ok_or_else(|| refuse("material.pair", p.material_pair, not_an_item("material pair", MaterialPair::ITEMS)))?;
    let mut p = p.clone();
    if let Some(preset) = material.properties() {
        let (friction, normal) = (FrictionParameters::default(), NormalParameters::default());
        if p.friction.mu_static == friction.mu_static {
            p.friction.mu_static = preset.mu_static;
        }
        if p.friction.mu_dynamic == friction.mu_dynamic {
            p.friction.mu_dynamic = preset.mu_dynamic;
        }
        if p.normal.restitution == normal.restitution {
            p.normal.restitution = preset.restitution;
        }
    }
    Ok(p)
}

impl Parameters {
    /// Checks every rule that is not a plain interval (the table checks those) and builds the
    /// typed physics; also returns warnings worth logging.
    ///
    /// Relative geometry file names are looked up in `resources` (the FMU's resources folder).
    pub fn validate(&self, resources: Option<&Path>) -> Result<(Validated, Vec<String>), ParameterError> {
        let p = &with_material(self)?;
        let mut warnings = Vec::new();
        let (shape_a, offset_a) = geometry("geometry_a", &p.geometry_a, resources, &mut warnings)?;
        let (shape_b, offset_b) = geometry("geometry_b", &p.geometry_b, resources, &mut warnings)?;
        for (prefix, g) in [("geometry_a", &p.geometry_a), ("geometry_b", &p.geometry_b)] {
            for (field, on) in [("end_bottom", g.end_bottom), ("end_top", g.end_top)] {
                let cylinder = g.shape == ShapeKind::Cylinder.value();
                if on && !(g.inside && cylinder) {
                    let why = if cylinder { format!("{prefix}.inside is false") } else { format!("{prefix}.shape is not a Cylinder") };
                    return Err(refuse(
                        &format!("{prefix}.{field}"),
                        "true",
                        format!("an end face is a wall of an inside Cylinder ({prefix}.shape = Cylinder, {prefix}.inside = true), and {why}"),
                    ));
                }
            }
        }
        let (inside_a, inside_b) = (p.geometry_a.inside, p.geometry_b.inside);
        let pair = GeometryPair::with_surfaces(shape_a, p.geometry_a.surface(), shape_b, p.geometry_b.surface()).map_err(|e| {
            // An inside pair is refused naming the switches that made it one.
            let switches: Vec<&str> = [(inside_a, "geometry_a.inside"), (inside_b, "geometry_b.inside")]
                .into_iter()
                .filter_map(|(on, name)| on.then_some(name))
                .collect();
            let (variable, value) = if switches.is_empty() {
                ("geometry_a.shape, geometry_b.shape".to_string(), format!("{}, {}", e.a.name(), e.b.name()))
            } else {
                (
                    format!("{}, geometry_a.shape, geometry_b.shape", switches.join(", ")),
                    format!("{}, {}, {}", vec!["true"; switches.len()].join(", "), e.a.name(), e.b.name()),
                )
            };
            ParameterError { variable, value, rule: e.to_string() }
        })?;
        let laws = pair_laws(&p.normal, &p.friction, p.solver_max_step, &pair)?;
        let step_average = step_average(p)?;
        provided_laws(&laws, &pair, step_average.is_some())?;
        Ok((Validated { pair, offset_a, offset_b, laws, solver_max_step: p.solver_max_step, step_average }, warnings))
    }
}
