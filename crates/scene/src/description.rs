//! A scene as users describe it (bodies, materials, the law set, the coupling) and its check into
//! the typed [`Scene`](crate::Scene). Every error names the body (`body[2]`, 1-based like the
//! FMUs' arrays), the key and the value: `body[2].radius = -1: a Sphere needs radius > 0`.

use std::path::Path;

use contact_physics::geometry_parameters::GeometryParameters;
use contact_physics::parameters::{refuse, BodyParameters, FrictionParameters, NormalParameters, ParameterError};
use contact_physics::shape::ShapeKind;

/// One body of the scene (`body[i].*`).
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDescription {
    /// A name for messages (optional; the index names the body in errors).
    pub name: String,
    /// Its geometry, with ContactForce's shape parameters (`shape`, `radius`, `length`, `size`,
    /// `file`, `r`, `q`, `inside`, `end_bottom`, `end_top`).
    pub geometry: GeometryParameters,
    /// `mass` (kg; 0 = immovable or driven: its motion is its inputs'), `inertia` (about the
    /// centre of mass; all 0 = a point mass) and `com`, as ContactForce's `body_X.*`.
    pub body: BodyParameters,
    /// Index into the scene's materials (0-based).
    pub material: usize,
    /// Collision `group` and `mask` bits: two bodies may touch when each one's group meets the
    /// other's mask.
    pub filter: [u32; 2],
}

impl BodyDescription {
    /// A body of `shape` with ContactForce's default dimensions, immovable, material 0, in group
    /// 1, touching every group.
    pub fn new(shape: ShapeKind) -> BodyDescription {
        BodyDescription {
            name: String::new(),
            geometry: GeometryParameters::with_shape(shape),
            body: BodyParameters::default(),
            material: 0,
            filter: [1, u32::MAX],
        }
    }
}

/// A material: its name, for the pair table.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    pub name: String,
}

/// The law parameters between two materials (in either order). The laws themselves
/// (`normal.law`, `friction.law`) are the scene's: a pair sets their parameters only.
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialPairLaws {
    pub materials: [usize; 2],
    pub normal: NormalParameters,
    pub friction: FrictionParameters,
}

/// StepAverage's setting (`coupling.*`, as ContactForce's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CouplingDescription {
    /// The wrench averaged over the coming step (the scene integrates its bodies over it) rather
    /// than the instantaneous one.
    pub step_average: bool,
    /// Largest sub-step (s) of the scene's own integration of the bodies.
    pub max_substep: f64,
    /// The acceleration (m/s2, in W) of the other forces on every movable body as known before
    /// the first step measures them (gravity); all 0 = unknown, and bodies that start touching
    /// and at rest are then taken to rest.
    pub gravity: [f64; 3],
}

impl Default for CouplingDescription {
    fn default() -> Self {
        CouplingDescription { step_average: false, max_substep: 1e-5, gravity: [0.0; 3] }
    }
}

/// Everything a scene is made of.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneDescription {
    pub bodies: Vec<BodyDescription>,
    pub materials: Vec<Material>,
    /// The law set and the parameters of every pair of materials not in `pairs`.
    pub normal: NormalParameters,
    pub friction: FrictionParameters,
    pub pairs: Vec<MaterialPairLaws>,
    /// Largest internal sub-step (s) of the stateful laws (`solver.max_step`).
    pub solver_max_step: f64,
    pub coupling: CouplingDescription,
}

impl Default for SceneDescription {
    fn default() -> Self {
        SceneDescription {
            bodies: Vec::new(),
            materials: vec![Material { name: "default".to_string() }],
            normal: NormalParameters::default(),
            friction: FrictionParameters::default(),
            pairs: Vec::new(),
            solver_max_step: 1e-3,
            coupling: CouplingDescription::default(),
        }
    }
}

/// The name of body `i` (0-based) in messages: `body[i + 1]`.
pub fn body_name(i: usize) -> String {
    format!("body[{}]", i + 1)
}

/// The material and the collision filter of body `i`, checked against `materials` materials.
pub(crate) fn check_material(i: usize, b: &BodyDescription, materials: usize) -> Result<(), ParameterError> {
    if b.material >= materials {
        return Err(refuse(
            &format!("{}.material", body_name(i)),
            b.material,
            format!("there are {materials} materials (0 to {})", materials.saturating_sub(1)),
        ));
    }
    Ok(())
}

/// Whether bodies `a` and `b` may touch: each one's group meets the other's mask.
pub fn may_touch(a: &BodyDescription, b: &BodyDescription) -> bool {
    let ([group_a, mask_a], [group_b, mask_b]) = (a.filter, b.filter);
    group_a & mask_b != 0 && group_b & mask_a != 0
}

/// The pairs of materials: each named pair's materials must exist and each pair be given once;
/// the laws' kinds are the scene's.
pub(crate) fn check_pairs(d: &SceneDescription) -> Result<(), ParameterError> {
    let n = d.materials.len();
    for (k, p) in d.pairs.iter().enumerate() {
        let name = format!("pair[{}]", k + 1);
        for m in p.materials {
            if m >= n {
                return Err(refuse(&format!("{name}.materials"), format!("{:?}", p.materials), format!("there are {n} materials (0 to {})", n.saturating_sub(1))));
            }
        }
        if p.normal.law != d.normal.law {
            return Err(refuse(&format!("{name}.normal.law"), p.normal.law, format!("the scene has one law set: normal.law = {}", d.normal.law)));
        }
        if p.friction.law != d.friction.law {
            return Err(refuse(&format!("{name}.friction.law"), p.friction.law, format!("the scene has one law set: friction.law = {}", d.friction.law)));
        }
        let key = sorted(p.materials);
        if let Some(j) = d.pairs[..k].iter().position(|q| sorted(q.materials) == key) {
            return Err(refuse(&format!("{name}.materials"), format!("{:?}", p.materials), format!("pair[{}] gives the same materials", j + 1)));
        }
    }
    Ok(())
}

fn sorted(m: [usize; 2]) -> [usize; 2] {
    [m[0].min(m[1]), m[0].max(m[1])]
}

impl SceneDescription {
    /// The law parameters between materials `a` and `b`: their pair's, else the scene's.
    pub fn laws_between(&self, a: usize, b: usize) -> (&NormalParameters, &FrictionParameters) {
        let key = sorted([a, b]);
        match self.pairs.iter().find(|p| sorted(p.materials) == key) {
            Some(p) => (&p.normal, &p.friction),
            None => (&self.normal, &self.friction),
        }
    }

    /// The scene checked and built (crate::Scene::new).
    pub fn build(&self, resources: Option<&Path>) -> Result<crate::Scene, ParameterError> {
        crate::Scene::new(self, resources)
    }
}
