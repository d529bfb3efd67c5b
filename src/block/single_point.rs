//! The lean path of [`Block::evaluate`] for a sphere or a point on a plane (either order) under
//! stateless laws without couples: one contact point, computed in straight-line code.
//!
//! The general path collects the point, evaluates its [`PointForce`](crate::physics::contact::PointForce),
//! adds it into the sums and derives the outputs from them; here the same quantities come from
//! straight-line code, without the intermediate structures and copies, without the deflection
//! and couple work the laws do not need, and without normalising the sphere's quaternion (only
//! its norm is checked: a sphere's orientation does not matter).
//!
//! Where the last bits may differ from the general path (both are exact up to rounding): the
//! plane's normal is the third column of the rotation matrix of `q / |q|` with one division by
//! `|q|^2` (the general path rotates z by the normalised quaternion); the separation is the
//! sphere's height over the plane, `(c - o) . n - R` (the general path takes the surface point
//! `c - R n` first and projects the witnesses' difference on the normal again); the relative
//! velocity at the force point is the centre's plus `w_rel x (p - c)`, and its normal part the
//! centre's (so that the laws do not wait for the force point: the evaluation's time is one
//! chain of dependent operations); a carrying point's contact
//! point `p_0` is the point itself (the general path divides `p f_n` by `f_n`) and the slip speed
//! there is the point's; the friction force's size is the slip speed times `f_n mu(v) / v` (the
//! general path takes the norm of the force); on the ground (a plane whose quaternion is exactly
//! (1, 0, 0, 0)) the products with the normal z are written out ([`Up`]), which for finite
//! inputs changes at most the sign of a zero; the sums' zeros are not added (so a zero force or
//! torque component may keep a minus sign). Everything else is computed with the general path's
//! operations in its order. `tests::the_lean_path_gives_the_general_outputs` checks every output against the
//! general path to 1e-12 relative to the size of its kind (forces, torques, positions, speeds),
//! the forces also within the depth's rounding (64 eps times the positions' size) times the
//! measured slope of the force, and at a separation within that rounding of zero (where the
//! two may disagree on touching) the geometry only; over every stateless law pair, both
//! orders, sphere and point, offsets and `max_depth`. Notes and refusals are the same exactly.
//!
//! The derivatives ([`SinglePoint::tangents`]) are those of the same function: the physics is
//! written once, over `f64` and the dual ([`SinglePoint::wrench`]).

use super::{checked_quaternion, Block, Frame, Inputs, InputError, Notes, Outputs, PointOutput, POINT_OUTPUTS};
use super::derivative_layout::{input_vector, DERIVATIVE_OUTPUTS, INPUTS};
use crate::physics::contact::Laws;
use crate::physics::dual::Dual;
use crate::physics::geometry::{sphere_radius, GeometryPair};
use crate::physics::math::{normalised, Pose, Vec3};
use crate::physics::shape::Shape;
use crate::physics::real::Real;
use nalgebra::{Quaternion, Vector3};

/// A sphere (or a point, radius 0) on a plane, and which body is the plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SinglePoint {
    plane_is_a: bool,
    radius: f64,
}

impl SinglePoint {
    /// The lean path for this pair and these laws, or `None` when they need the general one:
    /// another pair, a stateful law (its per-point state), or a spin or rolling couple.
    pub(super) fn new(pair: &GeometryPair, laws: &Laws) -> Option<SinglePoint> {
        if laws.is_stateful() || laws.is_provided() || laws.torque_radius > 0.0 || laws.rolling > 0.0 {
            return None;
        }
        let round = |s: &Shape| matches!(s, Shape::Sphere { .. } | Shape::Point);
        match (pair.shape_a(), pair.shape_b()) {
            (Shape::Plane, b) if round(b) => Some(SinglePoint { plane_is_a: true, radius: sphere_radius(b) }),
            (a, Shape::Plane) if round(a) => Some(SinglePoint { plane_is_a: false, radius: sphere_radius(a) }),
            _ => None,
        }
    }

    /// [`Block::evaluate`] of `block` (whose pair and laws made this `SinglePoint`).
    #[inline]
    pub(super) fn evaluate(&self, block: &Block, inputs: &Inputs, out: &mut Outputs) -> Result<Notes, InputError> {
        // One copy of the code for each order: no selection between the bodies at run time.
        if self.plane_is_a {
            self.evaluate_ordered::<true>(block, inputs, out)
        } else {
            self.evaluate_ordered::<false>(block, inputs, out)
        }
    }

    #[inline(always)]
    fn evaluate_ordered<const PLANE_IS_A: bool>(&self, block: &Block, inputs: &Inputs, out: &mut Outputs) -> Result<Notes, InputError> {
        let mut notes = Notes::default();
        let (frame_a, frame_b) = (&inputs.frame_a, &inputs.frame_b);
        // Checked in the general path's order, with its messages and notes.
        checked_near_unit("frame_a.q", frame_a, &mut notes.frame_a_q_not_unit)?;
        checked_near_unit("frame_b.q", frame_b, &mut notes.frame_b_q_not_unit)?;
        // Only slot 0 has a point: any other that another path wrote is cleared first, while no
        // register is busy.
        if out.slots_written > 1 {
            for slot in &mut out.point[1..POINT_OUTPUTS] {
                *slot = PointOutput { active: false, separation: 0.0, normal_force: 0.0, friction_force: 0.0, p_0: [0.0; 3] };
            }
        }
        out.slots_written = 1;
        // The order is a constant: these only name the inputs.
        let (plane, sphere) = if PLANE_IS_A { (frame_a, frame_b) } else { (frame_b, frame_a) };
        // The plane's normal (its frame's z axis) and origin, and the sphere's centre, in W.
        if block.no_offsets {
            // The third column of the rotation matrix of q / |q|, with one division by |q|^2
            // (summed here rather than squared from the norm: no square root to wait for).
            // The origin and the centre read in place (no copy through the stack to wait for).
            notes.passed_through = if plane.q == [1.0, 0.0, 0.0, 0.0] {
                // The ground: a plane in W's orientation. Its normal is z, exactly what
                // `plane_normal` gives for this q, known before the inputs are read, and the
                // products with it are written out ([`Up`]).
                self.point::<PLANE_IS_A>(block, inputs, &Up, &plane.r_0, &sphere.r_0, true, out)
            } else {
                self.point::<PLANE_IS_A>(block, inputs, &plane_normal(&plane.q), &plane.r_0, &sphere.r_0, true, out)
            };
        } else {
            let (plane_offset, sphere_offset) = if PLANE_IS_A { (&block.offset_a, &block.offset_b) } else { (&block.offset_b, &block.offset_a) };
            let (normal, origin, centre) = with_offsets(plane, plane_offset, sphere, sphere_offset);
            notes.passed_through = self.point::<PLANE_IS_A>(block, inputs, &normal, &origin, &centre, false, out);
        }
        Ok(notes)
    }

    /// The contact point of the plane through `origin` with unit `normal` and the sphere
    /// centred at `centre` (`centre_at_origin`: the sphere's frame origin), its force, and every output; true when the point passed through.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn point<const PLANE_IS_A: bool>(
        &self,
        block: &Block,
        inputs: &Inputs,
        normal: &impl Normal<f64>,
        origin: &[f64; 3],
        centre: &[f64; 3],
        centre_at_origin: bool,
        out: &mut Outputs,
    ) -> bool {
        let (frame_a, frame_b) = (&inputs.frame_a, &inputs.frame_b);
        let (a, b) = (Motion::of(frame_a), Motion::of(frame_b));
        let w = self.wrench::<f64, PLANE_IS_A>(&block.laws, normal, origin, centre, centre_at_origin, &a, &b);
        let (separation, n, point_w, normal_force) = (w.separation, w.n, w.point_w, w.normal_force);
        out.separation = separation;
        out.n_0 = n;
        out.point[0].separation = separation;
        out.point[0].p_0 = point_w;
        let friction_norm = w.friction_force;
        let carries = normal_force > 0.0;

        // The sums of one point and Block::finish. Where the point carries, the contact point
        // is the point itself (the general path's mean weighted by the normal force gives it to
        // within rounding), and the slip speed there is the point's.
        out.frame_b.f_0 = w.f;
        out.frame_a.f_0 = neg(&w.f);
        out.frame_b.t_0 = w.t_b;
        out.frame_a.t_0 = w.t_a;
        let at_point = carries || separation < 0.0;
        if at_point {
            out.p_0 = point_w;
            out.slip_speed = w.slip_speed;
        } else {
            // The witness on A, and the slip there.
            let normal = normal.array();
            let p_sphere = sub(centre, &scale(&normal, self.radius));
            let p_a = if PLANE_IS_A { sub(&p_sphere, &scale(&normal, separation)) } else { p_sphere };
            out.p_0 = p_a;
            let v_rel = v_rel_at(&a, &b, &p_a);
            let slip = sub(&v_rel, &scale(&n, dot(&v_rel, &n)));
            out.slip_speed = dot(&slip, &slip).sqrt();
        }
        out.active = carries;
        out.points = carries as i64;
        out.normal_force = if carries { normal_force } else { 0.0 };
        out.friction_force = friction_norm;
        // A stateless law never sticks.
        out.sticking = false;
        let slot = &mut out.point[0];
        slot.active = carries;
        slot.normal_force = normal_force;
        slot.friction_force = friction_norm;
        w.passed_through
    }

    /// The point of the plane through `origin` with unit `normal` and the sphere centred at
    /// `centre` (`centre_at_origin`: the sphere's frame origin), and its force and torques: over `f64` for the outputs ([`SinglePoint::point`]),
    /// over [`Dual`] for their derivatives ([`SinglePoint::tangents`]).
    ///
    /// geometry::plane_sphere::contact, then contact::point_force_deflected with weight 1, no
    /// deflection and no couple, and the sums of one point. The height is `(c - o) . n - R` (the
    /// general path takes the surface point `c - R n` first) and the force point lies midway
    /// between the witnesses, `reach` below the centre along the normal. The relative velocity
    /// there is the centre's plus `w_rel x (p - c)` with `p - c = -reach normal`, and its normal
    /// part is the centre's, since `w_rel x n` is normal to n: the laws need not wait for the
    /// force point (the evaluation's time is one chain of dependent operations).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn wrench<R: Real, const PLANE_IS_A: bool>(
        &self,
        laws: &Laws,
        normal: &impl Normal<R>,
        origin: &[R; 3],
        centre: &[R; 3],
        centre_at_origin: bool,
        a: &Motion<'_, R>,
        b: &Motion<'_, R>,
    ) -> Wrench<R> {
        // What needs the inputs alone, first (off the chain that waits for the normal).
        let v_centre = match (centre_at_origin, PLANE_IS_A) {
            // The centre is the sphere's frame origin: its velocity there is its own.
            (true, true) => sub(b.v, &add(a.v, &cross(a.w, &sub(centre, a.r)))),
            (true, false) => sub(&add(b.v, &cross(b.w, &sub(centre, b.r))), a.v),
            (false, _) => v_rel_at(a, b, centre),
        };
        let w_rel = sub(b.w, a.w);
        let height = normal.dot(&sub(centre, origin)) - self.radius;
        let reach = height * 0.5 + self.radius;
        let point_w = sub(centre, &normal.times(reach));
        // Seen from A to B: n is the normal or its opposite (`n s` is `normal s` or its
        // opposite, exactly).
        let toward_b = |v: [R; 3]| if PLANE_IS_A { v } else { neg(&v) };
        let v_normal = if PLANE_IS_A { normal.dot(&v_centre) } else { -normal.dot(&v_centre) };
        let v_rel = sub(&v_centre, &normal.cross_times(&w_rel, reach));
        let slip = sub(&v_rel, &toward_b(normal.times(v_normal)));
        let depth = (-height).max(R::c(0.0));
        let passed_through = laws.max_depth > 0.0 && depth.v() > laws.max_depth;
        let normal_force = if passed_through { R::c(0.0) } else { laws.normal.force(depth, -v_normal, 0.0) };
        // FrictionLaw::force_over of a velocity-based law, on the arrays.
        let slip_speed = norm(&slip);
        // Its size is the slip speed times `f_n mu(v) / v` (the general path takes the norm of
        // the force: one square root more on the way to the outputs).
        let (friction, friction_force) = if normal_force.v() > 0.0 {
            let mu_over_speed = laws.friction.mu_over_speed(slip_speed).unwrap_or(R::c(0.0));
            let per_speed = normal_force * mu_over_speed;
            (scale_c(&slip, -per_speed), slip_speed * per_speed.abs())
        } else {
            ([R::c(0.0); 3], R::c(0.0))
        };
        let f = add(&toward_b(normal.times(normal_force)), &friction);
        let t_b = cross(&sub(&point_w, b.r), &f);
        let t_a = neg(&cross(&sub(&point_w, a.r), &f));
        Wrench { separation: height, n: toward_b(normal.array()), point_w, normal_force, slip_speed, friction_force, f, t_a, t_b, passed_through }
    }

    /// The force on B and the torques on A and B of a point at `point` on the plane through
    /// `origin` with unit `normal` (plane as A when `plane_is_a`), and its normal force when it
    /// carries: [`SinglePoint::wrench`] of a point (radius 0) over the dual, for the derivatives
    /// of a point cloud on a plane under stateless laws without couples
    /// (`Block::tangents_of_points`), which the cloud's points take one by one.
    #[allow(clippy::type_complexity)]
    pub(super) fn point_on_plane<const N: usize>(
        laws: &Laws,
        plane_is_a: bool,
        normal: &[Dual<N>; 3],
        origin: &[Dual<N>; 3],
        point: &[Dual<N>; 3],
        a: &Motion<'_, Dual<N>>,
        b: &Motion<'_, Dual<N>>,
    ) -> ([Dual<N>; 3], [Dual<N>; 3], [Dual<N>; 3], Dual<N>) {
        let single = SinglePoint { plane_is_a, radius: 0.0 };
        let w = if plane_is_a {
            single.wrench::<Dual<N>, true>(laws, normal, origin, point, false, a, b)
        } else {
            single.wrench::<Dual<N>, false>(laws, normal, origin, point, false, a, b)
        };
        let normal_force = if w.normal_force.v > 0.0 { w.normal_force } else { Dual::c(0.0) };
        (w.f, w.t_a, w.t_b, normal_force)
    }

    /// [`Block::output_tangents`] of `block` (whose pair and laws made this `SinglePoint`): the
    /// forward derivatives of [`SinglePoint::wrench`], the function whose values the outputs are,
    /// along each of the `N` seeds. The plane's normal, origin and the sphere's centre are the
    /// same functions of the inputs as in [`SinglePoint::evaluate`], rotations written with
    /// `q / |q|` (a seed along a quaternion's own direction changes nothing).
    pub(super) fn tangents<const N: usize>(&self, block: &Block, inputs: &Inputs, seeds: &[[f64; INPUTS]; N]) -> Result<[[f64; N]; DERIVATIVE_OUTPUTS.len()], InputError> {
        if self.plane_is_a {
            self.tangents_ordered::<N, true>(block, inputs, seeds)
        } else {
            self.tangents_ordered::<N, false>(block, inputs, seeds)
        }
    }

    fn tangents_ordered<const N: usize, const PLANE_IS_A: bool>(
        &self,
        block: &Block,
        inputs: &Inputs,
        seeds: &[[f64; INPUTS]; N],
    ) -> Result<[[f64; N]; DERIVATIVE_OUTPUTS.len()], InputError> {
        // The general path's checks, in its order.
        let mut notes = Notes::default();
        checked_quaternion("frame_a.q", &inputs.frame_a, &mut notes.frame_a_q_not_unit)?;
        checked_quaternion("frame_b.q", &inputs.frame_b, &mut notes.frame_b_q_not_unit)?;
        let x = input_vector(inputs);
        let dual: [Dual<N>; INPUTS] = std::array::from_fn(|k| Dual::new(x[k], std::array::from_fn(|j| seeds[j][k])));
        // Body k's position, quaternion, velocity and angular velocity start at 13 k.
        let vector = |o: usize| [dual[o], dual[o + 1], dual[o + 2]];
        let (position_a, velocity_a, angular_a) = (vector(0), vector(7), vector(10));
        let (position_b, velocity_b, angular_b) = (vector(13), vector(20), vector(23));
        let a = Motion { r: &position_a, v: &velocity_a, w: &angular_a };
        let b = Motion { r: &position_b, v: &velocity_b, w: &angular_b };
        let (plane, sphere) = if PLANE_IS_A { (0, 13) } else { (13, 0) };
        let quaternion = |o: usize| [dual[o + 3], dual[o + 4], dual[o + 5], dual[o + 6]];
        let (normal, origin, centre) = if block.no_offsets {
            (plane_normal(&quaternion(plane)), vector(plane), vector(sphere))
        } else {
            let (plane_offset, sphere_offset) = if PLANE_IS_A { (&block.offset_a, &block.offset_b) } else { (&block.offset_b, &block.offset_a) };
            let constant = |v: &Vec3| [Dual::c(v.x), Dual::c(v.y), Dual::c(v.z)];
            let q_plane = quaternion(plane);
            let normal = rotate(&q_plane, &constant(&(plane_offset.q * Vec3::z())));
            let origin = add(&vector(plane), &rotate(&q_plane, &constant(&plane_offset.r)));
            let centre = add(&vector(sphere), &rotate(&quaternion(sphere), &constant(&sphere_offset.r)));
            (normal, origin, centre)
        };
        let w = self.wrench::<Dual<N>, PLANE_IS_A>(&block.laws, &normal, &origin, &centre, block.no_offsets, &a, &b);
        // As Block::output_tangents: a point apart carries exactly nothing, with zero derivative.
        let zero = [Dual::c(0.0); 3];
        let (f, t_a, t_b) = if w.separation.v >= 0.0 { (zero, zero, zero) } else { (w.f, w.t_a, w.t_b) };
        let normal_force = if w.separation.v < 0.0 && w.normal_force.v > 0.0 { w.normal_force } else { Dual::c(0.0) };
        let rows = [-f[0], -f[1], -f[2], t_a[0], t_a[1], t_a[2], f[0], f[1], f[2], t_b[0], t_b[1], t_b[2], w.separation, normal_force];
        Ok(rows.map(|r| r.d))
    }
}

/// One body's position and twist in W: the inputs' own arrays, or dual numbers.
pub(super) struct Motion<'a, R> {
    pub(super) r: &'a [R; 3],
    pub(super) v: &'a [R; 3],
    pub(super) w: &'a [R; 3],
}

impl<'a> Motion<'a, f64> {
    #[inline(always)]
    fn of(frame: &'a Frame) -> Self {
        Motion { r: &frame.r_0, v: &frame.v_0, w: &frame.w_0 }
    }
}

/// What [`SinglePoint::wrench`] gives.
struct Wrench<R> {
    /// The sphere's height over the plane.
    separation: R,
    /// The unit normal from A to B.
    n: [R; 3],
    /// The force point, midway between the witnesses.
    point_w: [R; 3],
    /// The normal law's force (zero where the point passed through).
    normal_force: R,
    /// The slip speed at the force point.
    slip_speed: R,
    /// The size of the friction force.
    friction_force: R,
    /// The force on B, and the torques on A and B about their frames' origins.
    f: [R; 3],
    t_a: [R; 3],
    t_b: [R; 3],
    passed_through: bool,
}

/// The plane's unit normal in W, and the products [`SinglePoint::wrench`] takes with it.
trait Normal<R: Real> {
    /// `self . v`
    fn dot(&self, v: &[R; 3]) -> R;
    /// `self s`
    fn times(&self, s: R) -> [R; 3];
    /// `(w x self) s`
    fn cross_times(&self, w: &[R; 3], s: R) -> [R; 3];
    fn array(&self) -> [R; 3];
}

impl<R: Real> Normal<R> for [R; 3] {
    #[inline(always)]
    fn dot(&self, v: &[R; 3]) -> R {
        dot(v, self)
    }
    #[inline(always)]
    fn times(&self, s: R) -> [R; 3] {
        scale_c(self, s)
    }
    #[inline(always)]
    fn cross_times(&self, w: &[R; 3], s: R) -> [R; 3] {
        scale_c(&cross(w, self), s)
    }
    #[inline(always)]
    fn array(&self) -> [R; 3] {
        *self
    }
}

/// The ground's normal, W's z axis: the products with it written out. For finite inputs they
/// are the array `[0, 0, 1]`'s to the sign of a zero, without multiplying by its zeros.
struct Up;

impl Normal<f64> for Up {
    #[inline(always)]
    fn dot(&self, v: &[f64; 3]) -> f64 {
        v[2]
    }
    #[inline(always)]
    fn times(&self, s: f64) -> [f64; 3] {
        [0.0, 0.0, s]
    }
    #[inline(always)]
    fn cross_times(&self, w: &[f64; 3], s: f64) -> [f64; 3] {
        [w[1] * s, -w[0] * s, 0.0]
    }
    #[inline(always)]
    fn array(&self) -> [f64; 3] {
        [0.0, 0.0, 1.0]
    }
}

/// contact::point_force_deflected's relative velocity at `p`, `v_B(p) - v_A(p)`.
#[inline(always)]
fn v_rel_at<R: Real>(a: &Motion<'_, R>, b: &Motion<'_, R>, p: &[R; 3]) -> [R; 3] {
    let v_b = add(b.v, &cross(b.w, &sub(p, b.r)));
    let v_a = add(a.v, &cross(a.w, &sub(p, a.r)));
    sub(&v_b, &v_a)
}

/// The plane's normal and origin and the sphere's centre in W where the geometry frames are
/// offset from the body frames: [`Pose::compose`], as the general path composes them.
#[inline(never)]
fn with_offsets(plane: &Frame, plane_offset: &Pose, sphere: &Frame, sphere_offset: &Pose) -> ([f64; 3], [f64; 3], [f64; 3]) {
    // The checked quaternions' rotations, with the norms the general path's check takes.
    let rotation = |frame: &Frame| {
        let raw = Quaternion::new(frame.q[0], frame.q[1], frame.q[2], frame.q[3]);
        normalised(&raw, raw.norm())
    };
    let plane = Pose { r: Vec3::from(plane.r_0), q: rotation(plane) }.compose(plane_offset);
    let centre = Vec3::from(sphere.r_0) + rotation(sphere) * sphere_offset.r;
    ((plane.q * Vec3::z()).into(), plane.r.into(), centre.into())
}

/// [`checked_quaternion`] without its square root where `|q|^2` alone decides: within
/// `1 +- 1.99e-3` the norm is within `1 +- 0.995e-3`, a unit quaternion to the tolerance
/// ([`QUATERNION_NORM_TOLERANCE`](super::QUATERNION_NORM_TOLERANCE), 1e-3), accepted without a
/// note. Elsewhere (and for a NaN or an infinity) the check itself decides.
#[inline(always)]
fn checked_near_unit(q_name: &'static str, frame: &Frame, not_unit: &mut bool) -> Result<(), InputError> {
    let [w, x, y, z] = frame.q;
    if ((w * w + x * x) + (y * y + z * z) - 1.0).abs() <= 1.99e-3 {
        *not_unit = false;
        return Ok(());
    }
    checked_quaternion(q_name, frame, not_unit).map(|_| ())
}

/// The plane frame's z axis in W: the third column of the rotation matrix of `q / |q|`, with
/// one division by `|q|^2` (summed here rather than squared from the norm: no square root to
/// wait for).
#[inline(always)]
fn plane_normal<R: Real>(q: &[R; 4]) -> [R; 3] {
    let [w, x, y, z] = *q;
    let s = R::c(2.0) / ((w * w + x * x) + (y * y + z * z));
    [(x * z + w * y) * s, (y * z - w * x) * s, R::c(1.0) - (x * x + y * y) * s]
}

/// `v` rotated by `q / |q|`: `v + 2 / |q|^2 (w u x v + u x (u x v))` with `q = (w, u)`.
fn rotate<R: Real>(q: &[R; 4], v: &[R; 3]) -> [R; 3] {
    let [w, x, y, z] = *q;
    let u = [x, y, z];
    let s = R::c(2.0) / ((w * w + x * x) + (y * y + z * z));
    let uv = cross(&u, v);
    add(v, &scale_c(&add(&scale_c(&uv, w), &cross(&u, &uv)), s))
}

// Vector arithmetic on plain arrays, with nalgebra's operations in its order (`dot` is
// `x x' + y y' + z z'`, `cross` is nalgebra's), which leaves the compiler free to keep the
// lanes apart where packing them would cost shuffles.
#[inline(always)]
fn add<R: Real>(a: &[R; 3], b: &[R; 3]) -> [R; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

#[inline(always)]
fn sub<R: Real>(a: &[R; 3], b: &[R; 3]) -> [R; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline(always)]
fn neg<R: Real>(a: &[R; 3]) -> [R; 3] {
    [-a[0], -a[1], -a[2]]
}

/// `a s` for a constant `s`.
#[inline(always)]
fn scale(a: &[f64; 3], s: f64) -> [f64; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// `a s`.
#[inline(always)]
fn scale_c<R: Real>(a: &[R; 3], s: R) -> [R; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}

#[inline(always)]
fn dot<R: Real>(a: &[R; 3], b: &[R; 3]) -> R {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `|a|`, as [`Real::norm`] takes it (a dual's at zero has zero tangents).
#[inline(always)]
fn norm<R: Real>(a: &[R; 3]) -> R {
    R::norm(&Vector3::new(a[0], a[1], a[2]))
}

#[inline(always)]
fn cross<R: Real>(a: &[R; 3], b: &[R; 3]) -> [R; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

#[cfg(test)]
mod tests;
