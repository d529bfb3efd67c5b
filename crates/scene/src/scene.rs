//! The checked scene and its instantaneous evaluation: every pair the broad phase finds,
//! evaluated by ContactForce's pairs and laws, the wrenches summed per body.
//!
//! Conventions are ContactForce's: body i's frame has the pose `r_0`, `q` and the twist `v_0`,
//! `w_0` in W; its output is the force `f_0` and the torque `t_0` about the frame origin, in W. Of
//! a pair (i, j), i < j, body i is the base A and body j the follower B: the force on j at a
//! contact point is `f_n n + f_t`, i receives the opposite at the same point.

use std::path::Path;

use contact_physics::contact::{self, Laws, PointState};
use contact_physics::geometry::{ContactPoint, GeometryPair};
use contact_physics::geometry_parameters::geometry;
use contact_physics::math::{BodyState, Pose, Vec3};
use contact_physics::parameters::{pair_laws, refuse, ParameterError};
use contact_physics::rigid_motion::MassProperties;
use contact_physics::shape::Shape;

use crate::broad::{self, Bound};
use crate::description::{body_name, check_material, check_pairs, may_touch, SceneDescription};

/// One body, checked.
#[derive(Clone, Debug)]
pub struct Body {
    pub shape: Shape,
    /// The geometry frame in the body frame.
    pub offset: Pose,
    pub mass: MassProperties,
    pub(crate) bound: Bound,
}

/// The contact model of one pair of bodies that may touch.
#[derive(Clone, Debug)]
struct PairModel {
    pair: GeometryPair,
    laws: Laws,
}

/// A scene, checked: its bodies and the contact model of every pair that may touch.
#[derive(Clone, Debug)]
pub struct Scene {
    pub bodies: Vec<Body>,
    /// `pair_index[i * n + j]` (i < j): the pair's model in `pairs`, or `NONE`.
    pair_index: Vec<u32>,
    pairs: Vec<PairModel>,
    pub step_average: bool,
    pub max_substep: f64,
    /// The other forces' acceleration on every movable body before a step measures them (m/s2;
    /// zero: unknown).
    pub gravity: Vec3,
}

const NONE: u32 = u32::MAX;

/// What one body receives from all its contacts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyOutput {
    /// Force (N) and torque about the frame origin (N.m), in W.
    pub f_0: Vec3,
    pub t_0: Vec3,
    /// How many other bodies push it (a pair with a point carrying force).
    pub touching: u32,
    /// The largest normal force (N) of one of its contacts (a pair's points summed).
    pub max_normal_force: f64,
}

/// The scene's outputs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SceneOutputs {
    pub bodies: Vec<BodyOutput>,
    /// Contact points carrying force, over all pairs.
    pub active_contacts: usize,
    /// The largest penetration depth (m) of any contact point (0 when nothing touches).
    pub max_penetration: f64,
}

impl SceneOutputs {
    /// Outputs for `n` bodies, all zero.
    pub fn zeros(n: usize) -> SceneOutputs {
        SceneOutputs { bodies: vec![BodyOutput::default(); n], active_contacts: 0, max_penetration: 0.0 }
    }

    fn clear(&mut self, n: usize) {
        self.bodies.clear();
        self.bodies.resize(n, BodyOutput::default());
        self.active_contacts = 0;
        self.max_penetration = 0.0;
    }
}

/// Buffers an evaluation reuses (so that a warm evaluation allocates nothing).
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    pub(crate) broad: broad::Workspace,
    pub(crate) candidates: Vec<(u32, u32)>,
    /// The pairs (i < j) whose points carried force at the last evaluation.
    pub(crate) touching: Vec<(u32, u32)>,
    points: Vec<ContactPoint>,
}

impl Scene {
    /// Checks the description and builds the scene; relative file names are looked up in
    /// `resources`.
    pub fn new(d: &SceneDescription, resources: Option<&Path>) -> Result<Scene, ParameterError> {
        let mut warnings = Vec::new();
        if d.materials.is_empty() {
            return Err(refuse("material", "[]", "a scene needs at least one material"));
        }
        check_pairs(d)?;
        contact_physics::parameters::check("coupling.max_substep", d.coupling.max_substep, d.coupling.max_substep > 0.0, "must be > 0")?;
        if !d.coupling.gravity.iter().all(|x| x.is_finite()) {
            return Err(contact_physics::parameters::refuse("coupling.gravity", format!("{:?}", d.coupling.gravity), "must be finite"));
        }
        let mut bodies = Vec::with_capacity(d.bodies.len());
        for (i, b) in d.bodies.iter().enumerate() {
            let (shape, offset) = geometry(&body_name(i), &b.geometry, resources, &mut warnings)?;
            let mass = b.body.checked(&body_name(i))?;
            check_material(i, b, d.materials.len())?;
            let bound = Bound::of(&shape);
            bodies.push(Body { shape, offset, mass, bound });
        }
        let n = bodies.len();
        let mut pair_index = vec![NONE; n * n];
        let mut pairs = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let (bi, bj) = (&d.bodies[i], &d.bodies[j]);
                // Two bodies whose motion is their inputs' (the ground, walls, drives) act on no
                // body the scene integrates: their pair is not evaluated.
                if !may_touch(bi, bj) || !(bodies[i].mass.is_movable() || bodies[j].mass.is_movable()) {
                    continue;
                }
                let pair = GeometryPair::with_surfaces(bodies[i].shape.clone(), bi.geometry.surface(), bodies[j].shape.clone(), bj.geometry.surface())
                    .map_err(|e| {
                        let (a, b) = (body_name(i), body_name(j));
                        ParameterError {
                            variable: format!("{a}.shape, {b}.shape"),
                            value: format!("{}, {}", e.a.name(), e.b.name()),
                            rule: format!("{e}; keep the two bodies apart with their group and mask"),
                        }
                    })?;
                let (normal, friction) = d.laws_between(bi.material, bj.material);
                let laws = pair_laws(normal, friction, d.solver_max_step, &pair).map_err(|e| ParameterError {
                    variable: format!("{} (between {} and {})", e.variable, body_name(i), body_name(j)),
                    ..e
                })?;
                if laws.is_stateful() || laws.is_provided() {
                    return Err(refuse(
                        "normal.law, friction.law",
                        format!("{}, {}", laws.normal.kind().name(), laws.friction.kind().name()),
                        "a scene takes the stateless laws for now (no ElasticCone, Stiction or Restitution, no law provided by input)",
                    ));
                }
                pair_index[i * n + j] = pairs.len() as u32;
                pairs.push(PairModel { pair, laws });
            }
        }
        Ok(Scene { bodies, pair_index, pairs, step_average: d.coupling.step_average, max_substep: d.coupling.max_substep, gravity: Vec3::from(d.coupling.gravity) })
    }

    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// True when bodies `i` < `j` have a contact model (they may touch).
    pub fn has_pair(&self, i: usize, j: usize) -> bool {
        self.pair_index[i * self.len() + j] != NONE
    }

    /// The geometry frames of the bodies in W.
    fn geometry_pose(&self, i: usize, state: &BodyState) -> Pose {
        state.pose.compose(&self.bodies[i].offset)
    }

    /// The pairs whose bounds overlap at `states` and that may touch, sorted (i < j): the broad
    /// phase's answer.
    pub fn candidates(&self, states: &[BodyState], work: &mut Workspace) {
        let poses: Vec<Pose> = (0..self.len()).map(|i| self.geometry_pose(i, &states[i])).collect();
        broad::sweep_and_prune(self.bodies.iter().map(|b| &b.bound), &poses, &mut work.broad, &mut work.candidates);
        let n = self.len();
        work.candidates.retain(|(i, j)| self.pair_index[*i as usize * n + *j as usize] != NONE);
        work.candidates.sort_unstable();
    }

    /// Every contact at the bodies' `states` (as ContactForce reads them: `r_0`, `q`, `v_0`,
    /// `w_0`), into `out`.
    pub fn evaluate(&self, states: &[BodyState], work: &mut Workspace, out: &mut SceneOutputs) {
        assert_eq!(states.len(), self.len(), "one state per body");
        self.candidates(states, work);
        out.clear(self.len());
        work.touching.clear();
        let n = self.len();
        for &(i, j) in &work.candidates {
            let (i, j) = (i as usize, j as usize);
            let model = &self.pairs[self.pair_index[i * n + j] as usize];
            let (a, b) = (&states[i], &states[j]);
            work.points.clear();
            model.pair.contacts(&self.geometry_pose(i, a), &self.geometry_pose(j, b), &mut work.points);
            let mut normal_sum = 0.0;
            for cp in &work.points {
                let pf = contact::evaluate(cp, a, b, &model.laws, &PointState::default());
                out.max_penetration = out.max_penetration.max(pf.depth());
                let f = pf.force_on_b_w();
                let ob = &mut out.bodies[j];
                ob.f_0 += f;
                ob.t_0 += (pf.point_w - b.pose.r).cross(&f) + pf.couple_w;
                let oa = &mut out.bodies[i];
                oa.f_0 -= f;
                oa.t_0 -= (pf.point_w - a.pose.r).cross(&f) + pf.couple_w;
                if pf.normal_force > 0.0 {
                    out.active_contacts += 1;
                    normal_sum += pf.normal_force;
                }
            }
            if normal_sum > 0.0 {
                work.touching.push((i as u32, j as u32));
                for k in [i, j] {
                    let o = &mut out.bodies[k];
                    o.touching += 1;
                    o.max_normal_force = o.max_normal_force.max(normal_sum);
                }
            }
        }
    }
}
