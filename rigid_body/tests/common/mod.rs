//! Bodies and measures shared by the integration tests.

#![allow(dead_code)]

use nalgebra::Matrix3;
use rigid_body::{RigidBody, Rotation, State, Vec3};

/// The six interface numbers `[Ixx, Iyy, Izz, Ixy, Ixz, Iyz]` of a tensor.
pub fn six(tensor: &Matrix3<f64>) -> [f64; 6] {
    [tensor[(0, 0)], tensor[(1, 1)], tensor[(2, 2)], tensor[(0, 1)], tensor[(0, 2)], tensor[(1, 2)]]
}

/// A fixed, non-trivial rotation of the principal axes inside the body frame, so that the body's
/// inertia tensor has off-diagonal terms.
pub fn tilt() -> Rotation {
    Rotation::from_euler_angles(0.3, -0.5, 0.8)
}

/// A body whose principal moments are `moments` about the axes `tilt() e_k`, under no gravity.
pub fn tilted_body(mass: f64, moments: [f64; 3]) -> RigidBody {
    let r = tilt().to_rotation_matrix();
    let tensor = r.matrix() * Matrix3::from_diagonal(&Vec3::from(moments)) * r.matrix().transpose();
    RigidBody::new(mass, six(&tensor), Vec3::zeros()).unwrap()
}

/// A generic start orientation.
pub fn q0() -> Rotation {
    Rotation::from_euler_angles(-0.7, 0.2, 1.9)
}

/// Angle of the rotation taking `a` to `b` [rad], `2 atan2(|vector part|, |scalar part|)` of
/// `a⁻¹ b`: accurate for tiny angles, where `2 acos(w)` loses half the digits.
pub fn angle_between(a: &Rotation, b: &Rotation) -> f64 {
    let d = a.inverse() * b;
    2.0 * d.imag().norm().atan2(d.w.abs())
}

/// Round-off allowance after `n` sub-steps: a few units of round-off per sub-step.
pub fn round_off(n: usize) -> f64 {
    8.0 * f64::EPSILON * n as f64
}

/// `|q| - 1` of the stored quaternion.
pub fn unit_defect(state: &State) -> f64 {
    (state.q.as_ref().norm() - 1.0).abs()
}
