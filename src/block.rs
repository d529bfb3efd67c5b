//! The contact block: a geometry pair and its laws, from the two bodies' inputs to the outputs.
//!
//! [`Parameters`], [`Inputs`] and [`Outputs`] hold the user-facing values exactly as the interface
//! names them (shared/spec/interface.md); their `Default` impls are the documented defaults.
//! [`Block::new`] validates the parameters once, when initialisation ends, and turns them into
//! typed physics; [`Block::evaluate`] is the per-call work.

use crate::physics::contact::{self, PointForce};
use crate::physics::friction::{FrictionLaw, FrictionLawKind, TanhFriction};
use crate::physics::geometry::{ContactPoint, GeometryPair};
use crate::physics::material::MaterialPair;
use crate::physics::math::{rotation_from_wxyz, BodyState, Pose, Vec3};
use crate::physics::normal::{HuntCrossley, LinearSpringDamper, NormalLaw, NormalLawKind, RestitutionModel};
use crate::physics::shape::{Shape, ShapeKind};

/// Quaternion norms further than this from 1 are normalised with a warning.
pub const QUATERNION_NORM_TOLERANCE: f64 = 1e-3;

/// Geometry of one body (`geometry_a.*` or `geometry_b.*`).
#[derive(Clone, Debug, PartialEq)]
pub struct GeometryParameters {
    /// Stable number of a [`ShapeKind`].
    pub shape: i64,
    pub radius: f64,
    pub length: f64,
    pub size: [f64; 3],
    pub file: String,
    /// Position of the geometry frame in the body frame.
    pub r: [f64; 3],
    /// Orientation of the geometry frame in the body frame, (w, x, y, z).
    pub q: [f64; 4],
}

impl GeometryParameters {
    fn with_shape(shape: ShapeKind) -> Self {
        GeometryParameters {
            shape: shape.value(),
            radius: 0.1,
            length: 0.1,
            size: [0.1, 0.1, 0.1],
            file: String::new(),
            r: [0.0; 3],
            q: [1.0, 0.0, 0.0, 0.0],
        }
    }
}

/// Normal force law parameters (`normal.*`); which law reads which is in interface.md.
#[derive(Clone, Debug, PartialEq)]
pub struct NormalParameters {
    /// Stable number of a [`NormalLawKind`].
    pub law: i64,
    pub stiffness: f64,
    pub damping: f64,
    pub exponent: f64,
    pub damping_exponent: f64,
    pub velocity_exponent: f64,
    pub transition_width: f64,
    pub full_damping_depth: f64,
    pub restitution: f64,
    /// Stable number of a [`RestitutionModel`].
    pub restitution_model: i64,
    pub max_depth: f64,
}

impl Default for NormalParameters {
    fn default() -> Self {
        NormalParameters {
            law: NormalLawKind::LinearSpringDamper.value(),
            stiffness: 1e6,
            damping: 1e3,
            exponent: 1.5,
            damping_exponent: 1.5,
            velocity_exponent: 1.0,
            transition_width: 1e-4,
            full_damping_depth: 1e-4,
            restitution: 0.5,
            restitution_model: RestitutionModel::HuntCrossley.value(),
            max_depth: 0.0,
        }
    }
}

/// Friction law parameters (`friction.*`).
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionParameters {
    /// Stable number of a [`FrictionLawKind`].
    pub law: i64,
    pub mu_static: f64,
    pub mu_dynamic: f64,
    pub v_stiction: f64,
    pub v_transition: f64,
    pub viscous: f64,
    pub tanh_gain: f64,
    pub stiffness: f64,
    pub damping: f64,
    pub max_deformation: f64,
    pub torque_radius: f64,
    pub rolling: f64,
}

impl Default for FrictionParameters {
    fn default() -> Self {
        FrictionParameters {
            law: FrictionLawKind::Tanh.value(),
            mu_static: 0.5,
            mu_dynamic: 0.3,
            v_stiction: 1e-3,
            v_transition: 1e-2,
            viscous: 0.0,
            tanh_gain: 1e3,
            stiffness: 1e6,
            damping: 1e3,
            max_deformation: 1e-4,
            torque_radius: 0.0,
            rolling: 0.0,
        }
    }
}

/// Every parameter of the block.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameters {
    pub geometry_a: GeometryParameters,
    pub geometry_b: GeometryParameters,
    pub normal: NormalParameters,
    pub friction: FrictionParameters,
    /// Stable number of a [`MaterialPair`].
    pub material_pair: i64,
    /// Largest internal sub-step [s] for stateful laws.
    pub solver_max_step: f64,
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
        }
    }
}

/// Pose and twist of one body's frame, resolved in W.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub r_0: [f64; 3],
    /// (w, x, y, z), rotates body-frame vectors into W.
    pub q: [f64; 4],
    pub v_0: [f64; 3],
    pub w_0: [f64; 3],
}

impl Default for Frame {
    fn default() -> Self {
        Frame { r_0: [0.0; 3], q: [1.0, 0.0, 0.0, 0.0], v_0: [0.0; 3], w_0: [0.0; 3] }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs {
    pub frame_a: Frame,
    pub frame_b: Frame,
}

/// Force [N] and torque [N.m] about the body frame origin, resolved in W.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Wrench {
    pub f_0: [f64; 3],
    pub t_0: [f64; 3],
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outputs {
    pub frame_a: Wrench,
    pub frame_b: Wrench,
    pub active: bool,
    pub points: i64,
    pub separation: f64,
    pub normal_force: f64,
    pub friction_force: f64,
    pub p_0: [f64; 3],
    pub n_0: [f64; 3],
    pub slip_speed: f64,
    pub sticking: bool,
}

impl Outputs {
    /// True when every real output is finite.
    pub fn all_finite(&self) -> bool {
        let reals = self.frame_a.f_0.iter().chain(&self.frame_a.t_0).chain(&self.frame_b.f_0).chain(&self.frame_b.t_0);
        reals.chain(&self.p_0).chain(&self.n_0).all(|x| x.is_finite())
            && [self.separation, self.normal_force, self.friction_force, self.slip_speed].iter().all(|x| x.is_finite())
    }
}

/// A parameter value the block refuses, with the rule it breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct ParameterError {
    /// Interface name of the offending variable.
    pub variable: String,
    /// The value as the user gave it.
    pub value: String,
    /// The rule, as a sentence fragment ("must be > 0").
    pub rule: String,
}

impl std::fmt::Display for ParameterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} = {}: {}", self.variable, self.value, self.rule)
    }
}

fn refuse(variable: &str, value: impl std::fmt::Display, rule: impl Into<String>) -> ParameterError {
    ParameterError { variable: variable.to_string(), value: value.to_string(), rule: rule.into() }
}

/// Checks `value` against a rule, naming the variable when it fails.
fn check(variable: &str, value: f64, ok: bool, rule: &str) -> Result<(), ParameterError> {
    if ok && value.is_finite() {
        Ok(())
    } else {
        Err(refuse(variable, value, rule))
    }
}

/// An input the block cannot evaluate.
#[derive(Clone, Debug, PartialEq)]
pub struct InputError {
    pub variable: &'static str,
    pub message: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.variable, self.message)
    }
}

/// Things worth a one-time warning that an evaluation noticed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// `frame_a.q` has a norm further than [`QUATERNION_NORM_TOLERANCE`] from 1.
    pub frame_a_q_not_unit: bool,
    pub frame_b_q_not_unit: bool,
    /// A contact point is deeper than `normal.max_depth`.
    pub passed_through: bool,
}

/// The validated, typed block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pair: GeometryPair,
    /// Geometry frames in the body frames.
    offset_a: Pose,
    offset_b: Pose,
    normal_law: NormalLaw,
    friction_law: FrictionLaw,
    max_depth: f64,
}

fn geometry(prefix: &str, p: &GeometryParameters, warnings: &mut Vec<String>) -> Result<(Shape, Pose), ParameterError> {
    let shape_name = format!("{prefix}.shape");
    let kind = ShapeKind::from_value(p.shape).ok_or_else(|| refuse(&shape_name, p.shape, "is not a shape number (1 to 13)"))?;
    let radius_name = format!("{prefix}.radius");
    let shape = match kind {
        ShapeKind::Point => Shape::Point,
        ShapeKind::Sphere => {
            check(&radius_name, p.radius, p.radius > 0.0, "a sphere needs a radius > 0")?;
            Shape::Sphere { radius: p.radius }
        }
        ShapeKind::Plane => Shape::Plane,
        other => return Err(refuse(&shape_name, other.name(), "not supported yet")),
    };
    if !p.file.is_empty() {
        warnings.push(format!("{prefix}.file = \"{}\" is ignored: shape {} reads no file", p.file, kind.name()));
    }
    for (i, x) in p.r.iter().enumerate() {
        check(&format!("{prefix}.r[{}]", i + 1), *x, true, "must be finite")?;
    }
    let q_name = format!("{prefix}.q");
    let (q, norm) = rotation_from_wxyz(&p.q)
        .ok_or_else(|| refuse(&q_name, format!("{:?}", p.q), "a quaternion must be finite and non-zero"))?;
    if (norm - 1.0).abs() > QUATERNION_NORM_TOLERANCE {
        warnings.push(format!("{q_name} = {:?} has norm {norm}; it is normalised", p.q));
    }
    Ok((shape, Pose { r: Vec3::from(p.r), q }))
}

fn normal_law(p: &NormalParameters) -> Result<NormalLaw, ParameterError> {
    let kind = NormalLawKind::from_value(p.law).ok_or_else(|| refuse("normal.law", p.law, "is not a normal law number (1 to 7)"))?;
    let non_negative = |name: &str, x: f64| check(name, x, x >= 0.0, "must be >= 0");
    match kind {
        NormalLawKind::LinearSpringDamper => {
            non_negative("normal.stiffness", p.stiffness)?;
            non_negative("normal.damping", p.damping)?;
            Ok(NormalLaw::LinearSpringDamper(LinearSpringDamper { stiffness: p.stiffness, damping: p.damping }))
        }
        NormalLawKind::HuntCrossley => {
            non_negative("normal.stiffness", p.stiffness)?;
            non_negative("normal.damping", p.damping)?;
            check("normal.exponent", p.exponent, p.exponent > 0.0, "must be > 0")?;
            non_negative("normal.damping_exponent", p.damping_exponent)?;
            check("normal.velocity_exponent", p.velocity_exponent, p.velocity_exponent > 0.0, "must be > 0")?;
            Ok(NormalLaw::HuntCrossley(HuntCrossley {
                stiffness: p.stiffness,
                damping: p.damping,
                exponent: p.exponent,
                damping_exponent: p.damping_exponent,
                velocity_exponent: p.velocity_exponent,
            }))
        }
        other => Err(refuse("normal.law", other.name(), "not supported yet")),
    }
}

fn friction_law(p: &FrictionParameters) -> Result<FrictionLaw, ParameterError> {
    let kind =
        FrictionLawKind::from_value(p.law).ok_or_else(|| refuse("friction.law", p.law, "is not a friction law number (1 to 7)"))?;
    match kind {
        FrictionLawKind::None => Ok(FrictionLaw::None),
        FrictionLawKind::Tanh => {
            check("friction.mu_dynamic", p.mu_dynamic, p.mu_dynamic >= 0.0, "must be >= 0")?;
            check("friction.tanh_gain", p.tanh_gain, p.tanh_gain > 0.0, "must be > 0")?;
            Ok(FrictionLaw::Tanh(TanhFriction { mu: p.mu_dynamic, gain: p.tanh_gain }))
        }
        other => Err(refuse("friction.law", other.name(), "not supported yet")),
    }
}

impl Block {
    /// Validates every parameter and builds the block; also returns warnings worth logging.
    pub fn new(p: &Parameters) -> Result<(Block, Vec<String>), ParameterError> {
        let mut warnings = Vec::new();
        let (shape_a, offset_a) = geometry("geometry_a", &p.geometry_a, &mut warnings)?;
        let (shape_b, offset_b) = geometry("geometry_b", &p.geometry_b, &mut warnings)?;
        let pair = GeometryPair::new(shape_a, shape_b).map_err(|e| ParameterError {
            variable: "geometry_a.shape, geometry_b.shape".to_string(),
            value: format!("{}, {}", e.a.name(), e.b.name()),
            rule: e.to_string(),
        })?;
        let normal_law = normal_law(&p.normal)?;
        let friction_law = friction_law(&p.friction)?;
        let max_depth = p.normal.max_depth;
        check("normal.max_depth", max_depth, max_depth >= 0.0, "must be >= 0 (0 = off)")?;
        check("solver.max_step", p.solver_max_step, p.solver_max_step > 0.0, "must be > 0")?;
        if p.friction.torque_radius != 0.0 {
            return Err(refuse("friction.torque_radius", p.friction.torque_radius, "not supported yet (spin friction torque); use 0"));
        }
        if p.friction.rolling != 0.0 {
            return Err(refuse("friction.rolling", p.friction.rolling, "not supported yet (rolling resistance); use 0"));
        }
        let material =
            MaterialPair::from_value(p.material_pair).ok_or_else(|| refuse("material.pair", p.material_pair, "is not a material pair number"))?;
        if material != MaterialPair::None {
            return Err(refuse("material.pair", material.name(), "not supported yet; use None and set the friction parameters"));
        }
        Ok((Block { pair, offset_a, offset_b, normal_law, friction_law, max_depth }, warnings))
    }

    pub fn pair(&self) -> &GeometryPair {
        &self.pair
    }

    /// Evaluates the contact for `inputs` into `out`. `scratch` holds the contact points; it is
    /// cleared and reused, so a warm call allocates nothing.
    pub fn evaluate(&self, inputs: &Inputs, scratch: &mut Vec<ContactPoint>, out: &mut Outputs) -> Result<Notes, InputError> {
        let mut notes = Notes::default();
        let body_a = body_state("frame_a.q", &inputs.frame_a, &mut notes.frame_a_q_not_unit)?;
        let body_b = body_state("frame_b.q", &inputs.frame_b, &mut notes.frame_b_q_not_unit)?;
        let geometry_a = body_a.pose.compose(&self.offset_a);
        let geometry_b = body_b.pose.compose(&self.offset_b);
        scratch.clear();
        self.pair.contacts(&geometry_a, &geometry_b, scratch);

        let mut force_b = Vec3::zeros();
        let mut torque_a = Vec3::zeros();
        let mut torque_b = Vec3::zeros();
        let mut friction_sum = Vec3::zeros();
        let mut weighted_point = Vec3::zeros();
        let mut normal_force = 0.0;
        let mut points = 0;
        // The deepest point stands for the contact when no point carries force.
        let mut deepest: Option<(ContactPoint, PointForce)> = None;
        for cp in scratch.iter() {
            let pf = contact::evaluate(cp, &body_a, &body_b, &self.normal_law, &self.friction_law, self.max_depth);
            notes.passed_through |= pf.passed_through;
            let f = pf.force_on_b_w();
            force_b += f;
            torque_b += (pf.point_w - body_b.pose.r).cross(&f);
            torque_a -= (pf.point_w - body_a.pose.r).cross(&f);
            friction_sum += pf.friction_force_w;
            if pf.normal_force > 0.0 {
                points += 1;
                normal_force += pf.normal_force;
                weighted_point += pf.point_w * pf.normal_force;
            }
            if deepest.as_ref().is_none_or(|(_, d)| pf.separation < d.separation) {
                deepest = Some((*cp, pf));
            }
        }

        out.frame_b = Wrench { f_0: force_b.into(), t_0: torque_b.into() };
        out.frame_a = Wrench { f_0: (-force_b).into(), t_0: torque_a.into() };
        out.active = points > 0;
        out.points = points;
        out.normal_force = normal_force;
        out.friction_force = friction_sum.norm();
        out.sticking = false;
        match deepest {
            Some((cp, pf)) => {
                let p_0 = if normal_force > 0.0 {
                    weighted_point / normal_force
                } else if cp.separation < 0.0 {
                    pf.point_w
                } else {
                    cp.p_a_w
                };
                let n = pf.normal_ab_w;
                let v_rel = body_b.velocity_at(&p_0) - body_a.velocity_at(&p_0);
                out.separation = cp.separation;
                out.p_0 = p_0.into();
                out.n_0 = n.into();
                out.slip_speed = (v_rel - n * v_rel.dot(&n)).norm();
            }
            None => {
                out.separation = f64::MAX;
                out.p_0 = [0.0; 3];
                out.n_0 = [0.0, 0.0, 1.0];
                out.slip_speed = 0.0;
            }
        }
        Ok(notes)
    }
}

fn body_state(q_name: &'static str, frame: &Frame, not_unit: &mut bool) -> Result<BodyState, InputError> {
    let (q, norm) = rotation_from_wxyz(&frame.q).ok_or_else(|| InputError {
        variable: q_name,
        message: format!("the quaternion {:?} is zero or not finite", frame.q),
    })?;
    *not_unit = (norm - 1.0).abs() > QUATERNION_NORM_TOLERANCE;
    Ok(BodyState { pose: Pose { r: Vec3::from(frame.r_0), q }, v: Vec3::from(frame.v_0), w: Vec3::from(frame.w_0) })
}
