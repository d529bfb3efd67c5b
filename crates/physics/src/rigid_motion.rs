//! The motion of one body under a wrench, for the block's own integration of both bodies over a
//! communication step (`coupling.mode = StepAverage`).
//!
//! A body is described at its centre of mass C: position `c`, velocity `v_c`, orientation `q`
//! (body frame to W) and angular momentum `L` about C, all in W. The interface gives the frame
//! origin O instead; with `s = q com` (the centre of mass relative to O, in W):
//!
//! ```text
//! c = r_0 + s,   v_c = v_0 + w x s,   L = I_w w,   I_w = R I R^T
//! ```
//!
//! One sub-step of length `h` is velocity Verlet ("kick, drift, kick"): with the wrench `(f, t_c)`
//! (force, torque about C) at the start and `(f', t_c')` at the end,
//!
//! ```text
//! v_c <- v_c + h/2 (f/m + a),        L <- L + h/2 (t_c + t_e)          (half kick)
//! c   <- c + h v_c,                  q <- exp(h w) q,  w = I_w^-1 L     (drift)
//! v_c <- v_c + h/2 (f'/m + a),       L <- L + h/2 (t_c' + t_e)         (half kick)
//! ```
//!
//! where `a` and `t_e` are the other forces on the body (gravity, springs, drives) per unit mass
//! and as a torque about C. The momentum each body receives over the sub-step is exactly the
//! trapezoid `h/2 (f + f')`, which is what the block reports as its average force: so the
//! velocity a body reaches under the held average equals the one integrated here. The method is
//! second order for position-dependent forces (the contact's spring) and symplectic when the
//! force derives from a potential.
//!
//! A body of mass 0 is immovable: its motion is prescribed by its inputs (a constant twist over
//! the step), e.g. the ground or a driven part. A body with mass and an inertia of zero turns at
//! its input angular velocity (a point mass).
#![forbid(unsafe_code)]

use nalgebra::Matrix3;

use super::math::{BodyState, Pose, Rotation, Vec3};

/// Mass, inertia and centre of mass of one body (`body_X.mass`, `body_X.inertia`, `body_X.com`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// Mass (kg); 0 = immovable.
    pub mass: f64,
    /// Inertia tensor about the centre of mass in the body frame (kg.m2); zero = no rotational
    /// dynamics (the body turns at its input angular velocity).
    pub inertia: Matrix3<f64>,
    /// Centre of mass in the body frame (m).
    pub com: Vec3,
}

impl MassProperties {
    /// An immovable body.
    pub fn immovable() -> Self {
        MassProperties { mass: 0.0, inertia: Matrix3::zeros(), com: Vec3::zeros() }
    }

    /// From the interface's six inertia numbers (Ixx, Iyy, Izz, Ixy, Ixz, Iyz).
    pub fn new(mass: f64, inertia: &[f64; 6], com: &[f64; 3]) -> Self {
        let [xx, yy, zz, xy, xz, yz] = *inertia;
        #[rustfmt::skip]
        let inertia = Matrix3::new(
            xx, xy, xz,
            xy, yy, yz,
            xz, yz, zz,
        );
        MassProperties { mass, inertia, com: Vec3::from(*com) }
    }

    #[inline]
    pub fn is_movable(&self) -> bool {
        self.mass > 0.0
    }

    /// True when the body has rotational dynamics (a non-zero inertia).
    #[inline]
    pub fn rotates(&self) -> bool {
        self.is_movable() && self.inertia.iter().any(|x| *x != 0.0)
    }

    /// Why the inertia tensor is not physical, if it is not: it must be zero (a point mass) or
    /// symmetric positive definite and satisfy the triangle inequalities of principal moments.
    pub fn inertia_problem(&self) -> Option<String> {
        if self.inertia.iter().all(|x| *x == 0.0) {
            return None;
        }
        let eigen = self.inertia.symmetric_eigenvalues();
        let (mut m, mut lowest) = ([eigen[0], eigen[1], eigen[2]], f64::INFINITY);
        m.sort_by(f64::total_cmp);
        for x in m {
            lowest = lowest.min(x);
        }
        // Not > 0 (a NaN moment included).
        if lowest.is_nan() || lowest <= 0.0 {
            return Some(format!("its principal moments {:.6e}, {:.6e}, {:.6e} must all be > 0 (or all six numbers 0 for a point mass)", m[0], m[1], m[2]));
        }
        // Principal moments of a real body satisfy I1 + I2 >= I3 (rounding allowed).
        if m[0] + m[1] < m[2] * (1.0 - 1e-9) {
            return Some(format!(
                "its principal moments {:.6e}, {:.6e}, {:.6e} break the triangle inequality I1 + I2 >= I3 that every rigid body satisfies",
                m[0], m[1], m[2]
            ));
        }
        None
    }
}

/// A body's motion at its centre of mass (module documentation), in W.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    pub c: Vec3,
    pub v_c: Vec3,
    pub q: Rotation,
    /// Angular velocity (rad/s).
    pub w: Vec3,
    /// Angular momentum about C (N.m.s) (zero for a body without rotational dynamics).
    pub l: Vec3,
}

/// The other forces on a body, per unit mass (`accel`, m/s2) and as a torque about C (N.m), in W.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct External {
    pub accel: Vec3,
    pub torque: Vec3,
}

impl Motion {
    /// An immovable body at rest on W's frame: what a coupling holds before the first step.
    pub fn still() -> Motion {
        Motion::from_frame(&BodyState::at_rest(), &MassProperties::immovable())
    }

    /// The motion of a body whose frame has the state `body`.
    #[inline]
    pub fn from_frame(body: &BodyState, mass: &MassProperties) -> Motion {
        let s = body.pose.q * mass.com;
        let l = if mass.rotates() { world_inertia(&body.pose.q, mass) * body.w } else { Vec3::zeros() };
        Motion { c: body.pose.r + s, v_c: body.v + body.w.cross(&s), q: body.pose.q, w: body.w, l }
    }

    /// The state of the body's frame.
    #[inline]
    pub fn to_frame(&self, mass: &MassProperties) -> BodyState {
        let s = self.q * mass.com;
        BodyState { pose: Pose { r: self.c - s, q: self.q }, v: self.v_c - self.w.cross(&s), w: self.w }
    }

    /// The torque about C of a force `f` and a torque `t_0` about the frame origin (in W).
    #[inline]
    pub fn torque_about_com(&self, mass: &MassProperties, f: &Vec3, t_0: &Vec3) -> Vec3 {
        t_0 - (self.q * mass.com).cross(f)
    }

    /// Half a kick: the velocities move by `h/2` of the force `f` and torque `t_c` (about C) with
    /// the other forces `ext`.
    #[inline]
    pub fn half_kick(&mut self, mass: &MassProperties, f: &Vec3, t_c: &Vec3, ext: &External, h: f64) {
        if !mass.is_movable() {
            return;
        }
        self.v_c += (f / mass.mass + ext.accel) * (0.5 * h);
        if mass.rotates() {
            self.l += (t_c + ext.torque) * (0.5 * h);
            self.w = world_inertia(&self.q, mass).try_inverse().unwrap_or_else(Matrix3::zeros) * self.l;
        }
    }

    /// The drift: the centre of mass moves with its velocity and the body turns with its angular
    /// velocity for `h` (an immovable body likewise: its twist is prescribed).
    #[inline]
    pub fn drift(&mut self, mass: &MassProperties, h: f64) {
        self.c += self.v_c * h;
        if mass.rotates() {
            // The angular momentum is kept and the angular velocity follows the turning inertia:
            // the midpoint rule, `w` taken at the orientation half a step on (second order).
            let w_now = self.w;
            let q_half = Rotation::from_scaled_axis(w_now * (0.5 * h)) * self.q;
            let w_half = world_inertia(&q_half, mass).try_inverse().unwrap_or_else(Matrix3::zeros) * self.l;
            self.q = Rotation::new_normalize((Rotation::from_scaled_axis(w_half * h) * self.q).into_inner());
            self.w = world_inertia(&self.q, mass).try_inverse().unwrap_or_else(Matrix3::zeros) * self.l;
        } else if self.w != Vec3::zeros() {
            self.q = Rotation::new_normalize((Rotation::from_scaled_axis(self.w * h) * self.q).into_inner());
        }
    }

    /// The motion `h` later under a force `f` and a torque `t_c` about C held constant, with the
    /// other forces `ext`, in `substeps` equal sub-steps: what an importer's integrator does with
    /// a held output (the translation exactly; the rotation to second order).
    pub fn under_held(&self, mass: &MassProperties, f: &Vec3, t_c: &Vec3, ext: &External, h: f64, substeps: usize) -> Motion {
        let mut m = *self;
        let dt = h / substeps.max(1) as f64;
        for _ in 0..substeps.max(1) {
            m.half_kick(mass, f, t_c, ext, dt);
            m.drift(mass, dt);
            m.half_kick(mass, f, t_c, ext, dt);
        }
        m
    }
}

/// The inertia tensor about C in W: `R I R^T`.
#[inline]
pub fn world_inertia(q: &Rotation, mass: &MassProperties) -> Matrix3<f64> {
    let r = q.to_rotation_matrix();
    r.matrix() * mass.inertia * r.matrix().transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(r: [f64; 3], v: [f64; 3], w: [f64; 3], q: Rotation) -> BodyState {
        BodyState { pose: Pose { r: Vec3::from(r), q }, v: Vec3::from(v), w: Vec3::from(w) }
    }

    #[test]
    fn frame_and_centre_of_mass_round_trip() {
        let mass = MassProperties::new(2.0, &[0.1, 0.2, 0.25, 0.01, 0.0, -0.02], &[0.1, -0.05, 0.2]);
        let q = Rotation::from_euler_angles(0.3, -0.4, 1.1);
        let body = state([1.0, 2.0, 3.0], [0.5, -0.2, 0.1], [0.3, 1.5, -0.7], q);
        let back = Motion::from_frame(&body, &mass).to_frame(&mass);
        assert!((back.pose.r - body.pose.r).norm() < 1e-15);
        assert!((back.v - body.v).norm() < 1e-15);
        assert!((back.w - body.w).norm() < 1e-15);
    }

    /// Under a held force the translation is exact: c + v h + (f/m + a) h^2 / 2.
    #[test]
    fn held_force_moves_the_centre_of_mass_by_the_closed_form() {
        let mass = MassProperties::new(3.0, &[0.0; 6], &[0.0; 3]);
        let start = Motion::from_frame(&state([0.0, 0.0, 1.0], [1.0, 0.0, 2.0], [0.0; 3], Rotation::identity()), &mass);
        let f = Vec3::new(3.0, 0.0, 6.0);
        let ext = External { accel: Vec3::new(0.0, 0.0, -9.81), torque: Vec3::zeros() };
        let h = 0.01;
        let end = start.under_held(&mass, &f, &Vec3::zeros(), &ext, h, 7);
        let a = f / 3.0 + ext.accel;
        let expected = start.c + start.v_c * h + a * (h * h / 2.0);
        assert!((end.c - expected).norm() < 1e-15, "{} vs {}", end.c, expected);
        assert!((end.v_c - (start.v_c + a * h)).norm() < 1e-15);
    }

    /// A torque-free symmetric top keeps its angular momentum and precesses at |L| / I1 about it
    /// (body axis z symmetric: I1 = I2): after time t the body z axis has turned about L by
    /// |L| t / I1.
    #[test]
    fn free_symmetric_top_precesses_about_its_angular_momentum() {
        let (i1, i3) = (0.2, 0.1);
        let mass = MassProperties::new(1.0, &[i1, i1, i3, 0.0, 0.0, 0.0], &[0.0; 3]);
        let w0 = Vec3::new(0.5, 0.0, 4.0);
        let start = Motion::from_frame(&state([0.0; 3], [0.0; 3], w0.into(), Rotation::identity()), &mass);
        let t = 1.0;
        let end = start.under_held(&mass, &Vec3::zeros(), &Vec3::zeros(), &External::default(), t, 20_000);
        assert!((end.l - start.l).norm() < 1e-12 * start.l.norm());
        let l = start.l;
        let expected_axis = Rotation::from_scaled_axis(l.normalize() * (l.norm() / i1 * t)) * Vec3::z();
        let axis = end.q * Vec3::z();
        assert!((axis - expected_axis).norm() < 1e-7, "{axis} vs {expected_axis}: off by {}", (axis - expected_axis).norm());
    }

    #[test]
    fn inertia_that_no_body_has_is_named() {
        let flat = MassProperties::new(1.0, &[1.0, 1.0, 3.0, 0.0, 0.0, 0.0], &[0.0; 3]);
        assert!(flat.inertia_problem().unwrap().contains("triangle"));
        let negative = MassProperties::new(1.0, &[1.0, -1.0, 1.0, 0.0, 0.0, 0.0], &[0.0; 3]);
        assert!(negative.inertia_problem().unwrap().contains("must all be > 0"));
        assert_eq!(MassProperties::new(1.0, &[0.0; 6], &[0.0; 3]).inertia_problem(), None);
        assert_eq!(MassProperties::new(1.0, &[0.1, 0.2, 0.25, 0.0, 0.0, 0.0], &[0.0; 3]).inertia_problem(), None);
    }
}
