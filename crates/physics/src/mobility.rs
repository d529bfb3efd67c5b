//! How a body answers an impulse at a contact point, and what a held wrench does to it: the
//! quantities StepAverage uses to couple to bodies it does not integrate itself.
//!
//! - **Mobility along a contact normal.** An impulse `P` along the unit normal `n` at the point
//!   `p` changes the normal speed of the body's material point at `p` by `w P`. For a free rigid
//!   body of mass `m`, inertia `I_w` (about its centre of mass `c`, in W):
//!
//!   ```text
//!   w_free = 1/m + (rho x n)^T I_w^-1 (rho x n),   rho = p - c
//!   ```
//!
//!   A body held by joints or pressed by other contacts moves less: `w < w_free`, and `1 / w` is
//!   the mass it shows in the contact direction (a point mass on a rod hit at an angle theta to its
//!   path: `m / cos^2 theta`). Given the body's 6x6 mobility `Phi` at its frame origin `r_0`
//!   (twist change `(dv_0, dw)` per impulse `(f, t_0)`), `w = G^T Phi G` with `G = (n, (p - r_0) x n)`
//!   (Featherstone, "Rigid Body Dynamics Algorithms", 2008, section 11.3: the inverse
//!   operational-space inertia).
//! - **Learning it from the body's response** when nothing gives it: over two consecutive
//!   communication steps the held normal impulses `P_1`, `P_2` changed the point's normal speed by
//!   `du_1`, `du_2`; the other forces (gravity, a joint's slow reaction, drives) change little
//!   from one step to the next, so the secant `(du_2 - du_1) / (P_2 - P_1)` is `w` (a Broyden
//!   update of a 1x1 inverse mass, taken only where the impulse changed enough to dominate).
//! - **Work of a held wrench.** A force `f` and a torque `t_0` about the frame origin held over a
//!   step of `h` give the body the kinetic energy `(f . (v_0 + v_0') + t_0 . (w + w')) h / 2`
//!   (with `'` the step's end) whatever integrator moved it, as long as it turned the held wrench
//!   into the momentum `f h` (every consistent integrator does): `m v_avg . dv` is the change of
//!   `m v^2 / 2`, and the held force's share of `dv` is `f h / m`.
#![forbid(unsafe_code)]

use nalgebra::Matrix3;

use super::math::{BodyState, Vec3};
use super::rigid_motion::{world_inertia, MassProperties, Motion};

/// Number of values of a symmetric 6x6 matrix given as its upper triangle, row by row.
pub const MOBILITY_VALUES: usize = 21;

/// The unit of a mobility matrix: its blocks map impulses to velocity changes in different units,
/// so it is declared by name only (as RigidBody's `mobility` output, which connects to it).
pub const MOBILITY_UNIT: &str = "1/(kg.m^k)";

/// `w_free`: the change of the normal speed at `p` per unit impulse along `n` of a free body
/// moving as `motion` (0 for an immovable body).
pub fn free_mobility(mass: &MassProperties, motion: &Motion, p: &Vec3, n: &Vec3) -> f64 {
    if !mass.is_movable() {
        return 0.0;
    }
    let mut w = 1.0 / mass.mass;
    if mass.rotates() {
        let arm = (p - motion.c).cross(n);
        let inverse = world_inertia(&motion.q, mass).try_inverse().unwrap_or_else(Matrix3::zeros);
        w += arm.dot(&(inverse * arm));
    }
    w
}

/// `G^T Phi G` with `Phi` given as the upper triangle of a symmetric 6x6 matrix, row by row,
/// over `(v_0, w)` and `(f, t_0)`, and `G = (n, (p - r_0) x n)`.
pub fn mobility_along(phi: &[f64; MOBILITY_VALUES], r_0: &Vec3, p: &Vec3, n: &Vec3) -> f64 {
    let arm = (p - r_0).cross(n);
    let g = [n.x, n.y, n.z, arm.x, arm.y, arm.z];
    let mut sum = 0.0;
    let mut index = 0;
    for i in 0..6 {
        for j in i..6 {
            let term = phi[index] * g[i] * g[j];
            sum += if i == j { term } else { 2.0 * term };
            index += 1;
        }
    }
    sum
}

/// The kinetic energy (J) a wrench `(f, t_0)` held over `h` gave a body that went from `start`
/// to `end` (module documentation).
pub fn held_work(f: &Vec3, t_0: &Vec3, start: &BodyState, end: &BodyState, h: f64) -> f64 {
    0.5 * h * (f.dot(&(start.v + end.v)) + t_0.dot(&(start.w + end.w)))
}

/// What a body shows in a contact's normal direction, learnt from how it answered the held
/// impulses (module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Response {
    /// `w / w_free`: 1 for a free body; below 1 for a body held more firmly.
    pub scale: f64,
    /// The last step's normal impulse (N.s) and the change of the point's normal speed (m/s).
    last: Option<(f64, f64)>,
}

impl Default for Response {
    fn default() -> Self {
        Response { scale: 1.0, last: None }
    }
}

/// The least share of the free response learnt (a body 50 times heavier in the contact
/// direction than its own mass): below it the secant is taken for noise.
pub const LEAST_RESPONSE: f64 = 0.02;

/// How much the other forces on a body may change its speed from one step of `h` to the next
/// (m/s), their acceleration having been `accel` (m/s2): what a change of held impulse must
/// outweigh to say anything about the body.
pub fn step_noise(accel: f64, h: f64) -> f64 {
    (accel + 1.0) * h
}

/// A step whose held force changed by `change` (N) over `h` by ten times `noise` (m/s), answered
/// freely (`w_free`, 1/kg): an impact, whose reactions (a joint's, a drive's, another body's
/// FMU's) do not last into the next step, so the step does not measure the other forces.
pub fn is_impact(change: f64, h: f64, w_free: f64, noise: f64) -> bool {
    change * h * w_free > 10.0 * noise
}

/// One secant sample of a body's response: the held impulse changed by `dp` (N.s) from one step
/// to the next and the speed it explains by `d_du` (m/s; `du` and `last_du` the two steps'
/// changes). Taken where `dp`, answered freely (`w_free`), changes the speed by more than ten
/// times `noise` and a tenth of either change: `d_du / (dp w_free)`, within
/// [`LEAST_RESPONSE`] and 1; `None` otherwise.
pub fn response_sample(dp: f64, d_du: f64, w_free: f64, noise: f64, du: f64, last_du: f64) -> Option<f64> {
    let expected = (dp * w_free).abs();
    (w_free > 0.0 && expected > 10.0 * noise && expected > 0.1 * du.abs().max(last_du.abs())).then(|| (d_du / (dp * w_free)).clamp(LEAST_RESPONSE, 1.0))
}

/// A learnt response moved halfway from `scale` to a new `sample`.
pub fn learnt(scale: f64, sample: f64) -> f64 {
    scale + 0.5 * (sample - scale)
}

impl Response {
    /// A step's sample: the held normal impulse `impulse` (N.s, positive pushing the body away
    /// from the other), the change `du` of the contact point's normal speed (m/s, positive away),
    /// with `w_free` and `noise` (m/s), how much the other forces may change the speed from one
    /// step to the next. The secant over this step and the last one is taken where the impulse
    /// changed the speed by more than ten times `noise` and more than a tenth of either change,
    /// and the scale moves halfway to it.
    pub fn learn(&mut self, impulse: f64, du: f64, w_free: f64, noise: f64) {
        if let Some((last_impulse, last_du)) = self.last {
            if let Some(sample) = response_sample(impulse - last_impulse, du - last_du, w_free, noise, du, last_du) {
                self.scale = learnt(self.scale, sample);
            }
        }
        self.last = Some((impulse, du));
    }

    /// Takes the scale from a given mobility (`w`), forgetting what was learnt.
    pub fn given(&mut self, w: f64, w_free: f64) {
        if w_free > 0.0 && w > 0.0 {
            self.scale = (w / w_free).clamp(LEAST_RESPONSE, 1.0);
        }
        self.last = None;
    }

    /// The last sample (for the FMU state).
    pub fn last(&self) -> Option<(f64, f64)> {
        self.last
    }

    /// A response from its parts (restoring an FMU state).
    pub fn from_parts(scale: f64, last: Option<(f64, f64)>) -> Response {
        Response { scale, last }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, Rotation};

    fn at_rest(r: Vec3) -> BodyState {
        BodyState { pose: Pose { r, q: Rotation::identity() }, v: Vec3::zeros(), w: Vec3::zeros() }
    }

    /// A point mass: 1/m whatever the point; a solid sphere hit at its surface along the normal
    /// through its centre: 1/m too (no arm); a rod of length L (I = m L^2 / 12) hit at its end
    /// perpendicular to it: 1/m + (L/2)^2 / I = 4/m.
    #[test]
    fn free_mobility_of_a_point_a_sphere_and_a_rod_end() {
        let point = MassProperties::new(2.0, &[0.0; 6], &[0.0; 3]);
        let motion = Motion::from_frame(&at_rest(Vec3::zeros()), &point);
        assert_eq!(free_mobility(&point, &motion, &Vec3::new(0.3, 0.1, 0.0), &Vec3::x()), 0.5);
        let (m, l) = (3.0, 0.8);
        let i = m * l * l / 12.0;
        let rod = MassProperties::new(m, &[i, i, 1e-6, 0.0, 0.0, 0.0], &[0.0; 3]);
        let motion = Motion::from_frame(&at_rest(Vec3::zeros()), &rod);
        let w = free_mobility(&rod, &motion, &Vec3::new(0.0, 0.0, l / 2.0), &Vec3::x());
        assert!((w - 4.0 / m).abs() < 1e-12, "{w}");
        let sphere = MassProperties::new(m, &[0.1, 0.1, 0.1, 0.0, 0.0, 0.0], &[0.0; 3]);
        let motion = Motion::from_frame(&at_rest(Vec3::zeros()), &sphere);
        assert!((free_mobility(&sphere, &motion, &Vec3::new(0.0, 0.0, -0.2), &-Vec3::z()) - 1.0 / m).abs() < 1e-15);
    }

    /// A point mass on a rod hinged at the origin about y, at (0, 0, -L): it moves along x only,
    /// so its mobility is (1/m) x x^T; along a normal at theta to x it shows m / cos^2 theta.
    #[test]
    fn a_pendulum_shows_m_over_cos_squared() {
        let m = 1.5;
        let mut phi = [0.0; MOBILITY_VALUES];
        phi[0] = 1.0 / m; // (v_x, f_x)
        for theta in [0.0f64, 0.3, 30f64.to_radians(), 60f64.to_radians()] {
            let n = Vec3::new(-theta.cos(), 0.0, -theta.sin());
            let w = mobility_along(&phi, &Vec3::new(0.0, 0.0, -0.5), &Vec3::new(0.05, 0.0, -0.5), &n);
            assert!((1.0 / w - m / theta.cos().powi(2)).abs() < 1e-12 * m / theta.cos().powi(2), "theta {theta}: {}", 1.0 / w);
        }
    }

    /// The free body's mobility matrix gives back free_mobility: Phi = [[1/m, -[s]x I^-1 ...]]
    /// is built here for a body at its centre of mass (s = 0): diag(1/m, I_w^-1).
    #[test]
    fn mobility_along_a_free_body_matrix_is_the_free_mobility() {
        let mass = MassProperties::new(2.0, &[0.2, 0.3, 0.4, 0.0, 0.0, 0.0], &[0.0; 3]);
        let motion = Motion::from_frame(&at_rest(Vec3::new(0.1, 0.2, 0.3)), &mass);
        let inverse = world_inertia(&motion.q, &mass).try_inverse().unwrap();
        let mut full = [[0.0; 6]; 6];
        for i in 0..3 {
            full[i][i] = 0.5;
            for j in 0..3 {
                full[3 + i][3 + j] = inverse[(i, j)];
            }
        }
        let mut phi = [0.0; MOBILITY_VALUES];
        let mut index = 0;
        for (i, row) in full.iter().enumerate() {
            for x in &row[i..] {
                phi[index] = *x;
                index += 1;
            }
        }
        let (p, n) = (Vec3::new(0.3, -0.1, 0.5), Vec3::new(1.0, 2.0, -0.5).normalize());
        let w = mobility_along(&phi, &motion.c, &p, &n);
        assert!((w - free_mobility(&mass, &motion, &p, &n)).abs() < 1e-14, "{w}");
    }

    /// A constant force on a body that moved under it with constant acceleration: the work is
    /// f . dx, the change of kinetic energy.
    #[test]
    fn held_work_is_the_kinetic_energy_given() {
        let (m, h) = (2.0, 0.01);
        let f = Vec3::new(3.0, -1.0, 4.0);
        let start = BodyState { v: Vec3::new(0.5, 0.2, -1.0), ..at_rest(Vec3::zeros()) };
        let end = BodyState { v: start.v + f * (h / m), ..at_rest(Vec3::zeros()) };
        let kinetic = 0.5 * m * (end.v.norm_squared() - start.v.norm_squared());
        assert!((held_work(&f, &Vec3::zeros(), &start, &end, h) - kinetic).abs() < 1e-15);
    }

    /// A body of mass 4 behind a contact, with gravity changing its speed by the same amount
    /// every step: from two steps with different impulses the scale is learnt as 1/4 of a free
    /// unit mass's response, halfway at each sample.
    #[test]
    fn the_response_is_learnt_from_two_steps() {
        let (w_free, w_true, gh) = (1.0, 0.25, -0.0981);
        let mut r = Response::default();
        r.learn(0.0, gh, w_free, 0.01);
        assert_eq!(r.scale, 1.0);
        r.learn(2.0, w_true * 2.0 + gh, w_free, 0.01);
        assert!((r.scale - (1.0 + 0.25) / 2.0).abs() < 1e-12, "{}", r.scale);
        r.learn(0.5, w_true * 0.5 + gh, w_free, 0.01);
        assert!((r.scale - (0.625 + 0.25) / 2.0).abs() < 1e-12, "{}", r.scale);
        // An impulse that barely changes is no sample.
        r.learn(0.5001, w_true * 0.5001 + gh + 0.003, w_free, 0.01);
        assert!((r.scale - 0.4375).abs() < 1e-12);
    }
}
