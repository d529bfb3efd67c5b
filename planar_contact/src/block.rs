//! The planar block: parameters, inputs and outputs as the interface names them, and their
//! evaluation: the pair's candidate points, ContactForce's laws at each (a planar point is a 3-D
//! point with z = 0), the sums into each body's force and torque.
#![forbid(unsafe_code)]

use std::path::Path;
use std::sync::Arc;

use contact_physics::parameters::{check, friction_law, laws, no_rolling_radius, normal_law, refuse, FrictionParameters, NormalParameters, ParameterError};
use contact_physics::files;
use contact_physics::contact::{self, BodyMotion, Laws, Motion, PointForce, PointState};
use contact_physics::friction::FrictionLaw;
use contact_physics::normal::NormalLaw;
use contact_physics::geometry::ContactPoint;
use contact_physics::math::Vec3;

use crate::curve::{self, Chain};
use crate::geometry::{PlanarPair, PlanarPoint};
use crate::shape::{PlanarShape, PlanarShapeKind};
use crate::{Pose2, Vec2};

/// How many contact points have their own outputs and, under Model Exchange, states and event
/// indicators (`contact.point[i].*`): the candidates with ids 0 to 7.
pub const POINT_OUTPUTS: usize = 8;

/// Geometry of one body (`geometry_a.*` or `geometry_b.*`).
#[derive(Clone, Debug, PartialEq)]
pub struct GeometryParameters {
    /// Stable number of a [`PlanarShapeKind`].
    pub shape: i64,
    pub radius: f64,
    pub length: f64,
    /// Arc: start and end angle (rad) in the geometry frame.
    pub angles: [f64; 2],
    pub file: String,
    /// Polyline, Curve: the last point joins the first and the inside is solid.
    pub closed: bool,
    /// Position of the geometry frame in the body frame (m).
    pub r: [f64; 2],
    /// Angle of the geometry frame in the body frame (rad).
    pub phi: f64,
}

impl GeometryParameters {
    fn with_shape(shape: PlanarShapeKind) -> Self {
        GeometryParameters {
            shape: shape.value(),
            radius: 0.1,
            length: 0.1,
            angles: [0.0, std::f64::consts::PI],
            file: String::new(),
            closed: true,
            r: [0.0; 2],
            phi: 0.0,
        }
    }
}

/// Every parameter; the laws' are ContactForce's own (same names, same defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct Parameters {
    pub geometry_a: GeometryParameters,
    pub geometry_b: GeometryParameters,
    pub normal: NormalParameters,
    pub friction: FrictionParameters,
    /// Largest internal sub-step (s) of the stateful laws.
    pub solver_max_step: f64,
}

impl Default for Parameters {
    fn default() -> Self {
        Parameters {
            geometry_a: GeometryParameters::with_shape(PlanarShapeKind::Line),
            geometry_b: GeometryParameters::with_shape(PlanarShapeKind::Circle),
            normal: NormalParameters::default(),
            friction: FrictionParameters::default(),
            solver_max_step: 1e-3,
        }
    }
}

/// Pose and twist of one body's frame in the plane of W.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    pub r_0: [f64; 2],
    pub phi: f64,
    pub v_0: [f64; 2],
    pub w: f64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs {
    pub frame_a: Frame,
    pub frame_b: Frame,
}

/// Force (N) in the plane and torque (N.m) about the body frame's origin, about z.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Wrench {
    pub f_0: [f64; 2],
    pub t: f64,
}

/// The outputs of one candidate point; all zero when the pair has no point with that id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PointOutput {
    pub active: bool,
    pub separation: f64,
    pub normal_force: f64,
    pub friction_force: f64,
    pub p_0: [f64; 2],
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
    pub p_0: [f64; 2],
    pub n_0: [f64; 2],
    pub slip_speed: f64,
    pub sticking: bool,
    pub point: [PointOutput; POINT_OUTPUTS],
}

impl Outputs {
    pub fn all_finite(&self) -> bool {
        let scalars = [self.frame_a.t, self.frame_b.t, self.separation, self.normal_force, self.friction_force, self.slip_speed];
        let vectors = self.frame_a.f_0.iter().chain(&self.frame_b.f_0).chain(&self.p_0).chain(&self.n_0);
        let points = self.point.iter().flat_map(|p| [p.separation, p.normal_force, p.friction_force, p.p_0[0], p.p_0[1]]);
        scalars.iter().chain(vectors).copied().chain(points).all(f64::is_finite)
    }
}


/// The shape and geometry frame of one geometry, its file read.
fn geometry(prefix: &str, p: &GeometryParameters, resources: Option<&Path>, warnings: &mut Vec<String>) -> Result<(PlanarShape, Pose2), ParameterError> {
    let name = |field: &str| format!("{prefix}.{field}");
    let kind = PlanarShapeKind::from_value(p.shape).ok_or_else(|| refuse(&name("shape"), p.shape, contact_physics::enums::not_an_item("planar shape", PlanarShapeKind::ITEMS)))?;
    let positive = |field: &str, x: f64| check(&name(field), x, x > 0.0, &format!("a {} needs {field} > 0", kind.name()));
    let uses_file = matches!(kind, PlanarShapeKind::Polyline | PlanarShapeKind::Curve);
    let shape = match kind {
        PlanarShapeKind::Point => PlanarShape::Point,
        PlanarShapeKind::Circle => {
            positive("radius", p.radius)?;
            PlanarShape::Circle { radius: p.radius }
        }
        PlanarShapeKind::Arc => {
            positive("radius", p.radius)?;
            let [start, end] = p.angles;
            check(&name("angles[1]"), start, true, "must be finite")?;
            let span = end - start;
            check(&name("angles[2]"), end, span > 0.0 && span <= std::f64::consts::TAU, &format!("must lie in (angles[1], angles[1] + 2 pi] = ({start}, {}]", start + std::f64::consts::TAU))?;
            PlanarShape::Arc { radius: p.radius, start, end }
        }
        PlanarShapeKind::Segment => {
            positive("length", p.length)?;
            PlanarShape::Segment { half_length: p.length / 2.0 }
        }
        PlanarShapeKind::Line => PlanarShape::Line,
        PlanarShapeKind::Polyline | PlanarShapeKind::Curve => {
            let file_name = name("file");
            if p.file.is_empty() {
                return Err(refuse(&file_name, "\"\"", format!("a {} needs a points file (x y per line)", kind.name())));
            }
            let quoted = format!("\"{}\"", p.file);
            let path = files::resolve(&p.file, resources).map_err(|e| refuse(&file_name, &quoted, e.to_string()))?;
            let mut points = curve::read_points(&path).map_err(|e| refuse(&file_name, &quoted, e.to_string()))?;
            if kind == PlanarShapeKind::Curve {
                let needed = if p.closed { 3 } else { 2 };
                if points.len() < needed {
                    return Err(refuse(&file_name, &quoted, format!("a Curve needs at least {needed} points, the file has {}", points.len())));
                }
                if p.closed && points.len() > 3 && points.first() == points.last() {
                    points.pop();
                }
                points = curve::spline(&points, p.closed);
            }
            let chain = Chain::new(points, p.closed).map_err(|e| refuse(&file_name, &quoted, e))?;
            PlanarShape::Chain { kind, chain: Arc::new(chain) }
        }
    };
    if !p.file.is_empty() && !uses_file {
        warnings.push(format!("{prefix}.file = \"{}\" is ignored: shape {} reads no file", p.file, kind.name()));
    }
    for (i, x) in p.r.iter().enumerate() {
        check(&format!("{prefix}.r[{}]", i + 1), *x, true, "must be finite")?;
    }
    check(&name("phi"), p.phi, true, "must be finite")?;
    Ok((shape, Pose2 { r: Vec2::from(p.r), phi: p.phi }))
}

impl Parameters {
    /// Checks the parameters and builds the block; also returns warnings worth logging.
    pub fn validate(&self, resources: Option<&Path>) -> Result<(Block, Vec<String>), ParameterError> {
        let mut warnings = Vec::new();
        let (shape_a, offset_a) = geometry("geometry_a", &self.geometry_a, resources, &mut warnings)?;
        let (shape_b, offset_b) = geometry("geometry_b", &self.geometry_b, resources, &mut warnings)?;
        let pair = PlanarPair::new(shape_a, shape_b)
            .map_err(|e| refuse("geometry_a.shape, geometry_b.shape", format!("{}, {}", e.a.name(), e.b.name()), e.to_string()))?;
        let normal = normal_law(&self.normal)?;
        let friction = friction_law(&self.friction)?;
        // ContactForce's laws provided by input take forces per point slot from inputs that
        // PlanarContact does not have.
        if normal == NormalLaw::ProvidedByInput {
            return Err(refuse("normal.law", "ProvidedByInput", "is offered by ContactForce only: PlanarContact has no provided-force inputs"));
        }
        if friction == FrictionLaw::ProvidedByInput {
            return Err(refuse("friction.law", "ProvidedByInput", "is offered by ContactForce only: PlanarContact has no provided-force inputs"));
        }
        let max_depth = self.normal.max_depth;
        check("normal.max_depth", max_depth, max_depth >= 0.0, "must be >= 0 (0 = off)")?;
        check("solver.max_step", self.solver_max_step, self.solver_max_step > 0.0, "must be > 0")?;
        let f = &self.friction;
        let rolling_radius = pair.rolling_radius();
        // Spin about the normal does not exist in the plane: no spin friction torque.
        let (a, b) = (pair.shape_a().kind().name(), pair.shape_b().kind().name());
        let laws = laws(normal, friction, max_depth, 0.0, f, rolling_radius, || {
            (rolling_radius <= 0.0).then(|| no_rolling_radius("a Circle that rolls", a, b))
        })?;
        Ok((Block { pair, offset_a, offset_b, laws, max_step: self.solver_max_step }, warnings))
    }
}

/// A planar vector as ContactForce's 3-D one (z = 0).
pub fn lift(v: &Vec2) -> Vec3 {
    Vec3::new(v.x, v.y, 0.0)
}

/// A body's motion as ContactForce's laws read it: in the x-y plane, spinning about z.
pub fn motion(frame: &Frame) -> Motion {
    Motion { r: Vec3::new(frame.r_0[0], frame.r_0[1], 0.0), v: Vec3::new(frame.v_0[0], frame.v_0[1], 0.0), w: Vec3::new(0.0, 0.0, frame.w) }
}

/// A planar candidate as ContactForce's contact point.
pub fn contact_point(p: &PlanarPoint) -> ContactPoint {
    ContactPoint { p_a_w: lift(&p.p_a), p_b_w: lift(&p.p_b), normal_ab_w: lift(&p.normal), separation: p.separation, weight: 1.0, id: p.id }
}

/// The checked pair and laws.
#[derive(Clone, Debug)]
pub struct Block {
    pair: PlanarPair,
    offset_a: Pose2,
    offset_b: Pose2,
    laws: Laws,
    max_step: f64,
}

impl Block {
    pub fn pair(&self) -> &PlanarPair {
        &self.pair
    }

    pub fn laws(&self) -> &Laws {
        &self.laws
    }

    pub fn is_stateful(&self) -> bool {
        self.laws.is_stateful()
    }

    /// The candidate points for `inputs` into `scratch` (cleared first).
    pub fn candidates(&self, inputs: &Inputs, scratch: &mut Vec<PlanarPoint>) {
        let pose = |f: &Frame, offset: &Pose2| Pose2 { r: Vec2::from(f.r_0), phi: f.phi }.compose(offset);
        scratch.clear();
        self.pair.contacts(&pose(&inputs.frame_a, &self.offset_a), &pose(&inputs.frame_b, &self.offset_b), scratch);
    }

    /// The force of each candidate in `scratch` (after [`Block::candidates`]), `states` indexed by id.
    pub fn point_force(&self, inputs: &Inputs, p: &PlanarPoint, states: &[PointState]) -> PointForce {
        let state = states.get(p.id as usize).copied().unwrap_or_default();
        contact::point_force(&contact_point(p), &motion(&inputs.frame_a), &motion(&inputs.frame_b), &self.laws, &state)
    }

    /// Evaluates the contact for `inputs` and the points' `states` into `out`.
    pub fn evaluate(&self, inputs: &Inputs, scratch: &mut Vec<PlanarPoint>, states: &[PointState], out: &mut Outputs) {
        self.candidates(inputs, scratch);
        let (a, b) = (motion(&inputs.frame_a), motion(&inputs.frame_b));
        let (mut force_b, mut torque_a, mut torque_b, mut friction, mut weighted, mut normal_force) = (Vec3::zeros(), 0.0, 0.0, Vec3::zeros(), Vec3::zeros(), 0.0);
        let (mut points, mut sticking) = (0, true);
        let mut deepest: Option<&PlanarPoint> = None;
        out.point = Default::default();
        for p in scratch.iter() {
            if deepest.is_none_or(|d| p.separation < d.separation) {
                deepest = Some(p);
            }
            if p.separation >= 0.0 && !self.is_stateful() {
                // Apart under stateless laws: no force, only its slot's separation and point.
                if let Some(slot) = out.point.get_mut(p.id as usize) {
                    let c = p.point();
                    *slot = PointOutput { separation: p.separation, p_0: [c.x, c.y], ..PointOutput::default() };
                }
                continue;
            }
            let pf = self.point_force(inputs, p, states);
            let f = pf.force_on_b_w();
            force_b += f;
            torque_b += ((pf.point_w - b.r).cross(&f) + pf.couple_w).z;
            torque_a -= ((pf.point_w - a.r).cross(&f) + pf.couple_w).z;
            friction += pf.friction_force_w;
            if pf.normal_force > 0.0 {
                points += 1;
                normal_force += pf.normal_force;
                weighted += pf.point_w * pf.normal_force;
                sticking &= pf.sticking == Some(true);
            }
            if let Some(slot) = out.point.get_mut(p.id as usize) {
                *slot = PointOutput {
                    active: pf.normal_force > 0.0,
                    separation: pf.separation,
                    normal_force: pf.normal_force,
                    friction_force: pf.friction_force_w.norm(),
                    p_0: [pf.point_w.x, pf.point_w.y],
                };
            }
        }
        out.frame_b = Wrench { f_0: [force_b.x, force_b.y], t: torque_b };
        out.frame_a = Wrench { f_0: [-force_b.x, -force_b.y], t: torque_a };
        out.active = points > 0;
        out.points = points;
        out.normal_force = normal_force;
        out.friction_force = friction.norm();
        out.sticking = points > 0 && sticking;
        match deepest {
            Some(p) => {
                let p_0 = if normal_force > 0.0 {
                    weighted / normal_force
                } else if p.separation < 0.0 {
                    lift(&p.point())
                } else {
                    lift(&p.p_a)
                };
                let n = lift(&p.normal);
                let v_rel = b.velocity_at(&p_0) - a.velocity_at(&p_0);
                out.separation = p.separation;
                out.p_0 = [p_0.x, p_0.y];
                out.n_0 = [n.x, n.y];
                out.slip_speed = (v_rel - n * v_rel.dot(&n)).norm();
            }
            None => {
                out.separation = f64::MAX;
                out.p_0 = [0.0; 2];
                out.n_0 = [0.0, 1.0];
                out.slip_speed = 0.0;
            }
        }
    }

    /// Advances the per-point states over `h` (s) with `inputs` held, in equal sub-steps no
    /// larger than `solver.max_step`, as ContactForce's `Block::advance` does.
    pub fn advance(&self, inputs: &Inputs, scratch: &mut Vec<PlanarPoint>, states: &mut Vec<PointState>, h: f64) {
        if !self.is_stateful() {
            return;
        }
        if states.len() < self.pair.max_points() {
            states.resize(self.pair.max_points(), PointState::default());
        }
        let substeps = (h / self.max_step).ceil().max(1.0);
        let substep = h / substeps;
        self.candidates(inputs, scratch);
        for p in scratch.iter() {
            let state = &mut states[p.id as usize];
            let at = contact::point_force(&contact_point(p), &motion(&inputs.frame_a), &motion(&inputs.frame_b), &self.laws, state);
            for _ in 0..substeps as u64 {
                contact::advance(&at, &self.laws, state, substep);
            }
        }
    }

    /// The force at the candidate of each slot (`None` where the pair has no such id).
    pub fn slot_forces(&self, inputs: &Inputs, scratch: &mut Vec<PlanarPoint>, states: &[PointState]) -> [Option<PointForce>; POINT_OUTPUTS] {
        self.candidates(inputs, scratch);
        let mut out = [None; POINT_OUTPUTS];
        for p in scratch.iter() {
            if let Some(slot) = out.get_mut(p.id as usize) {
                *slot = Some(self.point_force(inputs, p, states));
            }
        }
        out
    }
}
