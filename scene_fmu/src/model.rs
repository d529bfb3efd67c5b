//! One ContactScene instance: its parameters, its inputs and outputs per body, and the scene
//! built from the parameters (or from `scene.file`) at initialisation, with StepAverage's
//! coupling from step to step.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use contact_physics::geometry_parameters::GeometryParameters;
use contact_physics::math::{quaternion_problem, rotation_from_wxyz, BodyState, Pose, Vec3};
use contact_physics::parameters::{refuse, BodyParameters, CouplingMode, CouplingParameters, FrictionParameters, NormalParameters, ParameterError};
use contact_physics::shape::ShapeKind;
use contact_scene::description::body_name;
use contact_scene::{BodyDescription, CouplingDescription, Coupling, Scene, SceneDescription, SceneOutputs, Workspace};
use fmi_export::transaction::Rollback;

use crate::MAX_BODIES;

/// One body's parameters (`body[i].*`).
#[derive(Clone, Debug, PartialEq)]
pub struct BodyParams {
    pub geometry: GeometryParameters,
    pub body: BodyParameters,
    /// Index into the scene's materials (0-based; without a scene file there is one, 0).
    pub material: i64,
    /// Collision group and mask bits, as Int32 (-1 = every bit).
    pub group: i64,
    pub mask: i64,
}

impl Default for BodyParams {
    fn default() -> Self {
        BodyParams { geometry: GeometryParameters::with_shape(ShapeKind::Sphere), body: BodyParameters::default(), material: 0, group: 1, mask: -1 }
    }
}

/// Every parameter of the model.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameters {
    /// `scene.bodies`: how many of `body[1]` to `body[16]` the scene has.
    pub bodies: i64,
    /// `scene.file`: a scene file (TOML or JSON) that replaces the parameters below.
    pub file: String,
    pub body: Vec<BodyParams>,
    pub normal: NormalParameters,
    pub friction: FrictionParameters,
    pub solver_max_step: f64,
    pub coupling: CouplingParameters,
}

impl Default for Parameters {
    fn default() -> Self {
        Parameters {
            bodies: 0,
            file: String::new(),
            body: vec![BodyParams::default(); MAX_BODIES],
            normal: NormalParameters::default(),
            friction: FrictionParameters::default(),
            solver_max_step: 1e-3,
            coupling: CouplingParameters::default(),
        }
    }
}

/// One body's inputs: its frame's pose and twist in W.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyInputs {
    pub r_0: [f64; 3],
    /// (w, x, y, z).
    pub q: [f64; 4],
    pub v_0: [f64; 3],
    pub w_0: [f64; 3],
}

impl Default for BodyInputs {
    fn default() -> Self {
        BodyInputs { r_0: [0.0; 3], q: [1.0, 0.0, 0.0, 0.0], v_0: [0.0; 3], w_0: [0.0; 3] }
    }
}

/// One body's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyOutputs {
    pub f_0: [f64; 3],
    pub t_0: [f64; 3],
    /// How many bodies push it.
    pub touching: i64,
    /// The largest normal force of one of its contacts (N); under StepAverage the largest within
    /// the step.
    pub max_normal_force: f64,
}

/// The model's outputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Outputs {
    pub body: Vec<BodyOutputs>,
    pub active_contacts: i64,
    pub max_penetration: f64,
}

impl Default for Outputs {
    fn default() -> Self {
        Outputs { body: vec![BodyOutputs::default(); MAX_BODIES], active_contacts: 0, max_penetration: 0.0 }
    }
}

/// The scene and what StepAverage keeps from step to step.
#[derive(Clone, Debug)]
pub struct Built {
    pub scene: Scene,
    pub step_average: bool,
    pub coupling: Coupling,
    pub work: Workspace,
}

#[derive(Clone, Debug)]
pub struct Model {
    pub parameters: Parameters,
    pub inputs: Vec<BodyInputs>,
    pub outputs: Outputs,
    pub time: f64,
    pub(crate) built: Option<Built>,
    pub(crate) outputs_valid: bool,
    /// Inputs were set since the outputs were last computed (or since the last DoStep).
    pub(crate) inputs_fresh: bool,
    /// StepAverage: the outputs held are a run computed for the coming step (`Coupling::outputs`).
    pub(crate) run_ready: bool,
    /// That run was computed from where the scene expects the bodies (outputs read after a DoStep
    /// and before any input: what a Jacobi master passes on), so it stays until the next DoStep.
    pub(crate) held_from_prediction: bool,
    /// The size of the last DoStep (0 before the first).
    pub(crate) last_step: f64,
    pub(crate) saved: Option<(Coupling, bool, bool, f64)>,
    /// StepAverage's coupling read from a serialized FMU state, for the scene built next.
    pub(crate) restored: Option<Coupling>,
    pub(crate) resources: Option<PathBuf>,
    /// Warnings for the importer's logger (the scene's checks give errors only, so none yet).
    pub(crate) warnings: Vec<String>,
}

impl Default for Model {
    fn default() -> Self {
        Model {
            parameters: Parameters::default(),
            inputs: vec![BodyInputs::default(); MAX_BODIES],
            outputs: Outputs::default(),
            time: 0.0,
            built: None,
            outputs_valid: false,
            inputs_fresh: true,
            run_ready: false,
            held_from_prediction: false,
            last_step: 0.0,
            saved: None,
            restored: None,
            resources: None,
            warnings: Vec::new(),
        }
    }
}

/// A file named in a parameter: absolute, or relative to the FMU's resources folder.
fn resolve(file: &str, resources: Option<&Path>) -> PathBuf {
    let path = PathBuf::from(file);
    match resources {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path,
    }
}

/// An error about a body's geometry frame (`body[i].r[k]`, `body[i].q` in the scene's words)
/// named as the FMU's variable (`body[i].geometry.r[k]`, `body[i].geometry.q`).
fn geometry_pose_name(mut e: ParameterError) -> ParameterError {
    if let Some((body, key)) = e.variable.split_once("].") {
        if body.starts_with("body[") && (key == "q" || key.starts_with("r[")) {
            e.variable = format!("{body}].geometry.{key}");
        }
    }
    e
}

impl Parameters {
    /// The scene these parameters describe: from `scene.file` when set, else from `body[i].*`
    /// and the law and coupling parameters. Errors name the variable and the value.
    pub fn description(&self, resources: Option<&Path>) -> Result<SceneDescription, ParameterError> {
        let n = self.bodies;
        if !(0..=MAX_BODIES as i64).contains(&n) {
            return Err(refuse("scene.bodies", n, format!("must be 0 to {MAX_BODIES}")));
        }
        if !self.file.is_empty() {
            let path = resolve(&self.file, resources);
            let d = contact_scene::file::read(&path).map_err(|e| ParameterError { variable: format!("scene.file ({}): {}", self.file, e.variable), ..e })?;
            if d.bodies.len() > MAX_BODIES {
                return Err(refuse("scene.file", &self.file, format!("lists {} bodies; this FMU has {MAX_BODIES}", d.bodies.len())));
            }
            if n != 0 && n as usize != d.bodies.len() {
                return Err(refuse("scene.bodies", n, format!("scene.file = {} lists {} bodies (0 takes the file's count)", self.file, d.bodies.len())));
            }
            return Ok(d);
        }
        let mode = CouplingMode::from_value(self.coupling.mode)
            .ok_or_else(|| refuse("coupling.mode", self.coupling.mode, contact_physics::enums::not_an_item("coupling mode", CouplingMode::ITEMS)))?;
        let mut bodies = Vec::with_capacity(n as usize);
        for (i, p) in self.body[..n as usize].iter().enumerate() {
            let material = usize::try_from(p.material).map_err(|_| refuse(&format!("{}.material", body_name(i)), p.material, "must be >= 0"))?;
            bodies.push(BodyDescription {
                name: body_name(i),
                geometry: p.geometry.clone(),
                body: p.body.clone(),
                material,
                // The Int32's bits.
                filter: [p.group as u32, p.mask as u32],
            });
        }
        Ok(SceneDescription {
            bodies,
            normal: self.normal.clone(),
            friction: self.friction.clone(),
            solver_max_step: self.solver_max_step,
            coupling: CouplingDescription { step_average: mode == CouplingMode::StepAverage, max_substep: self.coupling.max_substep, gravity: self.coupling.gravity },
            ..SceneDescription::default()
        })
    }
}

impl Model {
    /// The scene, built from the parameters when first needed.
    pub fn built(&mut self) -> Result<&mut Built, String> {
        if self.built.is_none() {
            let d = self.parameters.description(self.resources.as_deref()).map_err(|e| e.to_string())?;
            let from_parameters = self.parameters.file.is_empty();
            let scene = Scene::new(&d, self.resources.as_deref()).map_err(|e| if from_parameters { geometry_pose_name(e) } else { e }.to_string())?;
            let coupling = match self.restored.take() {
                Some(c) if c.bodies() == scene.len() => {
                    // The outputs held when the state was taken are its run's.
                    if let (true, Some((wrenches, peak))) = (self.run_ready, c.held()) {
                        let (wrenches, peak) = (wrenches.to_vec(), peak.clone());
                        self.set_outputs(&wrenches, &peak);
                        self.outputs_valid = true;
                    }
                    c
                }
                _ => Coupling::new(&scene),
            };
            self.built = Some(Built { step_average: d.coupling.step_average, scene, coupling, work: Workspace::default() });
        }
        Ok(self.built.as_mut().expect("just built"))
    }

    /// The bodies' states from the inputs (the scene's bodies only); an error names the input.
    pub fn states(&self, n: usize) -> Result<Vec<BodyState>, String> {
        (0..n)
            .map(|k| {
                let b = &self.inputs[k];
                let name = body_name(k);
                let finite = |v: &[f64], what: &str| -> Result<(), String> {
                    if v.iter().all(|x| x.is_finite()) {
                        Ok(())
                    } else {
                        Err(format!("{name}.{what} = {v:?}: must be finite"))
                    }
                };
                finite(&b.r_0, "r_0")?;
                finite(&b.q, "q")?;
                finite(&b.v_0, "v_0")?;
                finite(&b.w_0, "w_0")?;
                let (q, _) = rotation_from_wxyz(&b.q).ok_or_else(|| format!("{name}.q = {:?}: {}", b.q, quaternion_problem(&b.q)))?;
                Ok(BodyState { pose: Pose { r: Vec3::from(b.r_0), q }, v: Vec3::from(b.v_0), w: Vec3::from(b.w_0) })
            })
            .collect()
    }

    /// The outputs from an instantaneous evaluation or StepAverage's peaks and wrenches.
    pub(crate) fn set_outputs(&mut self, wrenches: &[(Vec3, Vec3)], peak: &SceneOutputs) {
        let mut outputs = Outputs::default();
        for (k, (f, t)) in wrenches.iter().enumerate() {
            let o = &mut outputs.body[k];
            o.f_0 = (*f).into();
            o.t_0 = (*t).into();
            o.touching = i64::from(peak.bodies[k].touching);
            o.max_normal_force = peak.bodies[k].max_normal_force;
        }
        outputs.active_contacts = peak.active_contacts as i64;
        outputs.max_penetration = peak.max_penetration;
        self.outputs = outputs;
    }
}

/// What a DoStep changes before it can still fail: StepAverage's coupling.
impl Rollback for Model {
    fn save(&mut self) {
        self.saved = self.built.as_ref().map(|b| (b.coupling.clone(), self.run_ready, self.held_from_prediction, self.last_step));
    }

    fn roll_back(&mut self) {
        if let (Some(b), Some((coupling, run_ready, held_from_prediction, last_step))) = (self.built.as_mut(), self.saved.take()) {
            b.coupling = coupling;
            self.run_ready = run_ready;
            self.held_from_prediction = held_from_prediction;
            self.last_step = last_step;
        }
        self.outputs_valid = false;
    }
}
