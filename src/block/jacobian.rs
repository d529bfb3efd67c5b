//! The exact derivatives of the block's continuous outputs with respect to its 26 inputs, by
//! forward automatic differentiation ([`Dual`]) through the same laws and the contact
//! kinematics of the points the `f64` evaluation found, with the points' states held.
//!
//! Inputs are numbered as their value references minus one: `frame_a.r_0` 0-2, `frame_a.q` 3-6,
//! `frame_a.v_0` 7-9, `frame_a.w_0` 10-12, then the same for `frame_b` from 13. The quaternions
//! enter through their normalisation, so a seed along a quaternion's own direction changes no
//! output. Outputs are [`DERIVATIVE_OUTPUTS`].

use nalgebra::Vector3;

use super::cloud_plane;
use super::single_point::{Motion as Motion3, SinglePoint};
use super::{Block, Frame as InputFrame, InputError, Inputs};
use crate::physics::shape::Shape;
use crate::physics::contact::{self, Motion, PointState};
use crate::physics::dual::Dual;
use crate::physics::geometry::kinematics::{Frame, NotDifferentiable};
use crate::physics::geometry::ContactPoint;
use crate::physics::provided::Given;
use crate::physics::real::Real;

pub use super::derivative_layout::{input_vector, DERIVATIVE_OUTPUTS, INPUTS, PROVIDED_INPUTS};

/// Why derivatives could not be computed.
#[derive(Clone, Debug, PartialEq)]
pub enum DerivativeError {
    Input(InputError),
    Pair(NotDifferentiable),
}

impl std::fmt::Display for DerivativeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DerivativeError::Input(e) => write!(f, "{e}"),
            DerivativeError::Pair(e) => write!(f, "{e}"),
        }
    }
}

/// The inputs' time derivatives along the block's own kinematics: `dr/dt = v`,
/// `dq/dt = 1/2 (0, w) ⊗ q` (w resolved in W, q rotating body vectors into W), and the twists'
/// rates `given` by the importer (FMI input derivatives of the twists, indices 7-12 and 20-25),
/// zero where none are given. Positions' and quaternions' given rates are ignored: the twists
/// define them.
pub fn input_rates(inputs: &Inputs, given: Option<&[f64; INPUTS]>) -> [f64; INPUTS] {
    let mut rates = [0.0; INPUTS];
    for (k, frame) in [&inputs.frame_a, &inputs.frame_b].into_iter().enumerate() {
        let o = 13 * k;
        rates[o..o + 3].copy_from_slice(&frame.v_0);
        rates[o + 3..o + 7].copy_from_slice(&quaternion_rate(frame));
        if let Some(given) = given {
            rates[o + 7..o + 13].copy_from_slice(&given[o + 7..o + 13]);
        }
    }
    rates
}

/// `1/2 (0, w) ⊗ q` for q = (w0, x, y, z): the rate of a quaternion rotating body vectors into W
/// with the angular velocity w resolved in W.
fn quaternion_rate(frame: &InputFrame) -> [f64; 4] {
    let [q0, q1, q2, q3] = frame.q;
    let [w1, w2, w3] = frame.w_0;
    [
        0.5 * (-w1 * q1 - w2 * q2 - w3 * q3),
        0.5 * (w1 * q0 + w2 * q3 - w3 * q2),
        0.5 * (w2 * q0 + w3 * q1 - w1 * q3),
        0.5 * (w3 * q0 + w1 * q2 - w2 * q1),
    ]
}

impl Block {
    /// Whether [`Block::output_tangents`] is available for this block's geometry pair.
    pub fn differentiable(&self) -> Result<(), NotDifferentiable> {
        self.pair.differentiable()
    }

    /// The directional derivatives of [`DERIVATIVE_OUTPUTS`] at `inputs` and `states` along
    /// each of the `N` seed directions of the inputs: row i, column j is d output_i along
    /// `seeds[j]`. `scratch` holds the contact points, as for [`Block::evaluate`].
    pub fn output_tangents<const N: usize>(
        &self,
        inputs: &Inputs,
        states: &[PointState],
        scratch: &mut Vec<ContactPoint>,
        seeds: &[[f64; INPUTS]; N],
    ) -> Result<[[f64; N]; DERIVATIVE_OUTPUTS.len()], DerivativeError> {
        self.tangents(inputs, states, scratch, seeds, None, false)
    }

    /// [`Block::output_tangents`] along seeds that also move the provided forces
    /// (`provided_seeds[j]`, indexed as [`PROVIDED_INPUTS`]): where a law is ProvidedByInput
    /// the forces depend on them (linearly, but for the clip at 0 and a built-in friction law's
    /// dependence on a provided normal force); elsewhere their derivatives are zero.
    pub fn output_tangents_provided<const N: usize>(
        &self,
        inputs: &Inputs,
        states: &[PointState],
        scratch: &mut Vec<ContactPoint>,
        seeds: &[[f64; INPUTS]; N],
        provided_seeds: &[[f64; PROVIDED_INPUTS]; N],
    ) -> Result<[[f64; N]; DERIVATIVE_OUTPUTS.len()], DerivativeError> {
        self.tangents(inputs, states, scratch, seeds, Some(provided_seeds), false)
    }

    /// The first time derivatives of [`DERIVATIVE_OUTPUTS`] while the inputs move at
    /// `input_rates(inputs, given)` ([`input_rates`]) and the points' deflection states at their
    /// own rates ([`contact::deflection_rate`]): `J u̇ + (∂y/∂x) ẋ`.
    pub fn output_rates(
        &self,
        inputs: &Inputs,
        states: &[PointState],
        scratch: &mut Vec<ContactPoint>,
        given: Option<&[f64; INPUTS]>,
    ) -> Result<[f64; DERIVATIVE_OUTPUTS.len()], DerivativeError> {
        // The provided forces have no known rates: they are held.
        let rows = self.tangents(inputs, states, scratch, &[input_rates(inputs, given)], None, true)?;
        Ok(rows.map(|r| r[0]))
    }

    /// [`Block::output_tangents`]; with `state_rates` (one seed, the time direction) the
    /// deflections carry their own rates as tangents.
    fn tangents<const N: usize>(
        &self,
        inputs: &Inputs,
        states: &[PointState],
        scratch: &mut Vec<ContactPoint>,
        seeds: &[[f64; INPUTS]; N],
        provided_seeds: Option<&[[f64; PROVIDED_INPUTS]; N]>,
        state_rates: bool,
    ) -> Result<[[f64; N]; DERIVATIVE_OUTPUTS.len()], DerivativeError> {
        debug_assert!(!state_rates || N == 1, "state rates go with the one time direction");
        self.pair.differentiable().map_err(DerivativeError::Pair)?;
        match &self.single {
            // The lean path's own function (its laws keep no state, so no state rates; no law
            // is provided there, so the provided forces' derivatives are zero).
            Some(single) => single.tangents(self, inputs, seeds).map_err(DerivativeError::Input),
            None => self.tangents_of_points(inputs, states, scratch, seeds, provided_seeds, state_rates),
        }
    }

    /// [`Block::tangents`] for every pair and law: through the contact points the `f64`
    /// evaluation finds, as [`Block::evaluate_points`] evaluates them.
    pub(super) fn tangents_of_points<const N: usize>(
        &self,
        inputs: &Inputs,
        states: &[PointState],
        scratch: &mut Vec<ContactPoint>,
        seeds: &[[f64; INPUTS]; N],
        provided_seeds: Option<&[[f64; PROVIDED_INPUTS]; N]>,
        state_rates: bool,
    ) -> Result<[[f64; N]; DERIVATIVE_OUTPUTS.len()], DerivativeError> {
        let (body_a, body_b, geometry_a, geometry_b) = self.locate(inputs, &mut Default::default()).map_err(DerivativeError::Input)?;
        let x = input_vector(inputs);
        let dual: [Dual<N>; INPUTS] = std::array::from_fn(|k| Dual::new(x[k], std::array::from_fn(|j| seeds[j][k])));
        let vector = |o: usize| Vector3::new(dual[o], dual[o + 1], dual[o + 2]);
        let body = |o: usize| {
            let frame = Frame::from_quaternion(vector(o), [dual[o + 3], dual[o + 4], dual[o + 5], dual[o + 6]]);
            (frame, Motion { r: vector(o), v: vector(o + 7), w: vector(o + 10) })
        };
        let (frame_a, motion_a) = body(0);
        let (frame_b, motion_b) = body(13);
        let (frame_a, frame_b) =
            if self.no_offsets { (frame_a, frame_b) } else { (frame_a.compose(&self.offset_a), frame_b.compose(&self.offset_b)) };

        // The points one by one, as the evaluation finds them: a single contact's or a point
        // cloud's from its per-point queries (nothing collected), the others' through `scratch`,
        // which the kinematics take whole (the polytope pairs re-derive them together).
        scratch.clear();
        let single = self.pair.single_contact(&geometry_a, &geometry_b);
        let queries = if single.is_none() { self.pair.point_queries(&geometry_a, &geometry_b) } else { None };
        if single.is_none() && queries.is_none() {
            self.pair.contacts(&geometry_a, &geometry_b, scratch);
        }
        let kinematics = self.pair.kinematics(&geometry_a, &geometry_b, &frame_a, &frame_b, scratch);
        let skip_apart = !self.is_stateful();
        // A point cloud on a plane under stateless laws without couples: each point's force and
        // torques through the lean single-point function over the dual (a point on a plane,
        // `SinglePoint::point_on_plane`) rather than its contact and the general per-point force.
        let array = |v: &Vector3<Dual<N>>| [v.x, v.y, v.z];
        let cloud_on_plane = match (self.pair.shape_a(), self.pair.shape_b()) {
            (Shape::Plane, Shape::PointCloud(cloud)) if cloud_plane::applies(&self.laws) => Some((true, cloud, &frame_a, &frame_b)),
            (Shape::PointCloud(cloud), Shape::Plane) if cloud_plane::applies(&self.laws) => Some((false, cloud, &frame_b, &frame_a)),
            _ => None,
        }
        .map(|(plane_is_a, cloud, plane, cloud_frame)| (plane_is_a, cloud, array(&plane.axes[2]), array(&plane.r), cloud_frame));
        let (r_a, v_a, w_a) = (array(&motion_a.r), array(&motion_a.v), array(&motion_a.w));
        let (r_b, v_b, w_b) = (array(&motion_b.r), array(&motion_b.v), array(&motion_b.w));
        let (lean_a, lean_b) = (Motion3 { r: &r_a, v: &v_a, w: &w_a }, Motion3 { r: &r_b, v: &v_b, w: &w_b });
        let zero = Vector3::<Dual<N>>::zeros();
        let (mut force_b, mut torque_a, mut torque_b, mut normal_force) = (zero, zero, zero, Dual::c(0.0));
        // The deepest point found (its derivatives are taken at the end).
        let mut deepest: Option<ContactPoint> = None;
        let mut add = |found: &ContactPoint| {
            if deepest.is_none_or(|d| found.separation < d.separation) {
                deepest = Some(*found);
            }
            if skip_apart && found.separation >= 0.0 {
                // Stateless laws carry exactly nothing there, with zero derivative.
                return;
            }
            if let Some((plane_is_a, cloud, normal, origin, cloud_frame)) = &cloud_on_plane {
                let point = array(&cloud_frame.fixed_point(&cloud.points[found.id as usize]));
                let (f, t_a, t_b, carried) = SinglePoint::point_on_plane(&self.laws, *plane_is_a, normal, origin, &point, &lean_a, &lean_b);
                force_b += Vector3::from(f);
                torque_a += Vector3::from(t_a);
                torque_b += Vector3::from(t_b);
                normal_force += carried;
                return;
            }
            let cp = kinematics.point(found);
            let state = states.get(cp.id as usize).copied().unwrap_or_default();
            let u = state.tangential.deflection;
            let rate = if state_rates && self.is_stateful() {
                contact::deflection_rate(&self.point_force(found, &body_a, &body_b, &state, inputs), &self.laws, &state)
            } else {
                Vector3::zeros()
            };
            let deflection = Vector3::new(Dual::new(u.x, [rate.x; N]), Dual::new(u.y, [rate.y; N]), Dual::new(u.z, [rate.z; N]));
            let pf = if self.provided {
                // The slot's provided forces, moving along their seeds.
                let id = cp.id as usize;
                let value = inputs.provided.get(id).copied().unwrap_or_default();
                let dual = |c: usize, v: f64| match provided_seeds {
                    Some(seeds) if id < crate::block::POINT_OUTPUTS => Dual::new(v, std::array::from_fn(|j| seeds[j][3 * id + c])),
                    _ => Dual::c(v),
                };
                let given = Given {
                    normal_force: dual(0, value.normal_force),
                    friction_force: [dual(1, value.friction_force[0]), dual(2, value.friction_force[1])],
                };
                contact::point_force_given(&cp, &motion_a, &motion_b, &self.laws, &state, deflection, Some(&given))
            } else {
                contact::point_force_deflected(&cp, &motion_a, &motion_b, &self.laws, &state, deflection)
            };
            let f = pf.force_on_b_w();
            force_b += f;
            torque_b += (pf.point_w - motion_b.r).cross(&f) + pf.couple_w;
            torque_a -= (pf.point_w - motion_a.r).cross(&f) + pf.couple_w;
            if pf.normal_force.v > 0.0 {
                normal_force += pf.normal_force;
            }
        };
        if let Some(cp) = single {
            add(&cp);
        } else if let Some(queries) = queries {
            // Under stateless laws a point apart from a plane carries nothing and matters only
            // if it is the deepest so far: its separation alone tells (as in the evaluation's
            // `Block::cloud_leaf`), without its whole contact.
            let mut least = f64::INFINITY;
            for id in 0..queries.len() {
                if skip_apart {
                    if let Some(separation) = queries.plane_separation(id) {
                        if separation >= 0.0 && separation >= least {
                            continue;
                        }
                    }
                }
                if let Some(cp) = queries.contact(id) {
                    least = least.min(cp.separation);
                    add(&cp);
                }
            }
        } else {
            scratch.iter().for_each(&mut add);
        }
        let separation = deepest.map_or(Dual::c(f64::MAX), |cp| kinematics.point(&cp).separation);
        let rows: [Dual<N>; 14] = [
            -force_b.x,
            -force_b.y,
            -force_b.z,
            torque_a.x,
            torque_a.y,
            torque_a.z,
            force_b.x,
            force_b.y,
            force_b.z,
            torque_b.x,
            torque_b.y,
            torque_b.z,
            separation,
            normal_force,
        ];
        Ok(rows.map(|r| r.d))
    }
}
