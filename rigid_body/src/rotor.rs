//! The body's torque-free rotation: its principal frame, fixed at construction, and the exact flows
//! of the free flight, the part of the integrator's splitting that turns the body (the method is
//! documented in [`integrator`](crate::integrator)).
#![forbid(unsafe_code)]

use nalgebra::{Matrix3, Rotation3, SymmetricEigen};

use crate::{Rotation, Vec3};

/// Removes the round-off from a product of unit quaternions: `q / |q|`.
pub(crate) fn unit(q: Rotation) -> Rotation {
    Rotation::new_normalize(q.into_inner())
}

/// Rotation matrix of a quaternion by the homogeneous formula (each element divided by `|q|²`).
///
/// Why not the usual unit-quaternion formula: a normalised quaternion is unit only to round-off,
/// and that formula scales vectors by `|q|²`. Normalisation leaves `|q|² - 1` biased (about
/// +8e-17 on average), so the ω -> L -> ω round trip at every sub-step made `L` drift by about
/// 4e-16 (relative) per sub-step; the homogeneous formula removes the norm and leaves ~2e-17.
fn rotation_matrix(q: &Rotation) -> Matrix3<f64> {
    let (w, x, y, z) = (q.w, q.i, q.j, q.k);
    let n = w * w + x * x + y * y + z * z;
    #[rustfmt::skip]
    let m = Matrix3::new(
        w * w + x * x - y * y - z * z, 2.0 * (x * y - w * z),         2.0 * (x * z + w * y),
        2.0 * (x * y + w * z),         w * w - x * x + y * y - z * z, 2.0 * (y * z - w * x),
        2.0 * (x * z - w * y),         2.0 * (y * z + w * x),         w * w - x * x - y * y + z * z,
    );
    m / n
}

/// The rotational data of the body, fixed at construction: the principal frame and the
/// coefficients of the splitting (the integrator's module documentation).
#[derive(Clone, Debug)]
pub(crate) struct FreeRotor {
    /// Orientation of the principal frame in the body frame (columns: the principal axes).
    pub(crate) axes: Rotation,
    /// Principal moments, ascending `I1 <= I2 <= I3`.
    pub(crate) moments: Vec3,
    /// Precession rate per unit angular momentum, `1/I2`.
    inv_middle: f64,
    /// Spin rates per unit angular momentum about principal axes 1 and 3, `1/I_k - 1/I2`.
    spin_least: f64,
    spin_most: f64,
}

impl FreeRotor {
    /// Diagonalises a symmetric positive definite inertia tensor: `I = P diag(I1, I2, I3) Pᵀ`
    /// with `P` a proper rotation (a reflected eigenvector basis is turned right-handed).
    pub(crate) fn new(inertia: &Matrix3<f64>) -> Self {
        let eigen = SymmetricEigen::new(*inertia);
        let mut order = [0usize, 1, 2];
        order.sort_by(|&i, &j| eigen.eigenvalues[i].total_cmp(&eigen.eigenvalues[j]));
        let moments = Vec3::new(eigen.eigenvalues[order[0]], eigen.eigenvalues[order[1]], eigen.eigenvalues[order[2]]);
        let mut p = Matrix3::from_columns(&[
            eigen.eigenvectors.column(order[0]),
            eigen.eigenvectors.column(order[1]),
            eigen.eigenvectors.column(order[2]),
        ]);
        if p.determinant() < 0.0 {
            p.set_column(2, &(-p.column(2)));
        }
        let axes = unit(Rotation::from_rotation_matrix(&Rotation3::from_matrix(&p)));
        let inv_middle = 1.0 / moments[1];
        FreeRotor {
            axes,
            moments,
            inv_middle,
            spin_least: 1.0 / moments[0] - inv_middle,
            spin_most: 1.0 / moments[2] - inv_middle,
        }
    }

    /// Orientation of the principal frame in W, `Q = q ⊗ q_P`, normalised.
    pub(crate) fn principal(&self, q: &Rotation) -> Rotation {
        unit(*q * self.axes)
    }

    /// Angular momentum in W from the angular velocity in W: `L = R diag(I) Rᵀ ω`, `R` of `Q`.
    pub(crate) fn momentum(&self, q_p: &Rotation, w_w: &Vec3) -> Vec3 {
        let r = rotation_matrix(q_p);
        r * self.moments.component_mul(&(r.transpose() * w_w))
    }

    /// Angular velocity in W from the angular momentum in W: `ω = R diag(I)⁻¹ Rᵀ L`, `R` of `Q`.
    pub(crate) fn angular_velocity(&self, q_p: &Rotation, l_w: &Vec3) -> Vec3 {
        let r = rotation_matrix(q_p);
        r * (r.transpose() * l_w).component_div(&self.moments)
    }

    /// Exact flow of one spin part for time `t`: `Q ← Q R_k(θ)`, `θ = rate Π_k t`, `Π = Qᵀ L`.
    /// `L` in W is not touched: `Π ← R_kᵀ Π` is implied by recomputing `Π = Qᵀ L` from the new `Q`,
    /// which keeps `L` exactly (bit for bit) instead of turning `Q` and `Π` by rotations whose
    /// round-off need not cancel.
    fn spin(q_p: &mut Rotation, l_w: &Vec3, k: usize, rate: f64, t: f64) {
        let pi_k = q_p.inverse_transform_vector(l_w)[k];
        *q_p *= Rotation::from_axis_angle(&Vec3::ith_axis(k), rate * pi_k * t);
    }

    /// Torque-free rotation for time `h`: `spin1(h/2)`, `spin3(h)`, `precession(h)`, `spin1(h/2)`.
    pub(crate) fn free_flight(&self, q_p: &mut Rotation, l_w: &Vec3, h: f64) {
        Self::spin(q_p, l_w, 0, self.spin_least, 0.5 * h);
        Self::spin(q_p, l_w, 2, self.spin_most, h);
        // Precession: `Q exp(h Π / I2) = exp(h L / I2) Q`, a rotation about L in W.
        *q_p = Rotation::from_scaled_axis(l_w * (self.inv_middle * h)) * *q_p;
        Self::spin(q_p, l_w, 0, self.spin_least, 0.5 * h);
    }
}
