//! Validation of the parameters and start values (errors name the parameter, the value and the
//! rule), the principal frame, and the meaning of the inertia numbers checked against point masses.

mod common;

use common::{six, tilt};
use nalgebra::Matrix3;
use rigid_body::{RigidBody, Rotation, State, Vec3, DEFAULT_GRAVITY};

fn g() -> Vec3 {
    Vec3::from(DEFAULT_GRAVITY)
}

fn error(mass: f64, inertia: [f64; 6], gravity: Vec3) -> String {
    RigidBody::new(mass, inertia, gravity).unwrap_err().to_string()
}

#[test]
fn mass_must_be_positive_and_finite() {
    let inertia = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0];
    assert_eq!(error(0.0, inertia, g()), "mass = 0: must be > 0 and finite");
    assert_eq!(error(-2.5, inertia, g()), "mass = -2.5: must be > 0 and finite");
    assert_eq!(error(f64::NAN, inertia, g()), "mass = NaN: must be > 0 and finite");
    assert_eq!(error(f64::INFINITY, inertia, g()), "mass = inf: must be > 0 and finite");
}

#[test]
fn inertia_must_be_finite() {
    assert_eq!(error(1.0, [1.0, f64::NAN, 1.0, 0.0, 0.0, 0.0], g()), "inertia = [1, NaN, 1, 0, 0, 0]: must be finite");
}

#[test]
fn inertia_must_be_positive_definite() {
    assert_eq!(
        error(1.0, [1.0, 2.0, -3.0, 0.0, 0.0, 0.0], g()),
        "inertia = [1, 2, -3, 0, 0, 0]: not positive definite (principal moments [-3, 1, 2])"
    );
    assert_eq!(
        error(1.0, [1.0, 1.0, 0.0, 0.0, 0.0, 0.0], g()),
        "inertia = [1, 1, 0, 0, 0, 0]: not positive definite (principal moments [0, 1, 1])"
    );
    // Positive diagonal, but the off-diagonal term makes one principal moment (1 - 2) negative.
    let message = error(1.0, [1.0, 1.0, 1.0, 2.0, 0.0, 0.0], g());
    assert!(message.starts_with("inertia = [1, 1, 1, 2, 0, 0]: not positive definite (principal moments [-1"), "{message}");
}

#[test]
fn principal_moments_must_satisfy_the_triangle_inequality() {
    assert_eq!(
        error(1.0, [1.0, 1.0, 3.0, 0.0, 0.0, 0.0], g()),
        "inertia = [1, 1, 3, 0, 0, 0]: principal moments [1, 1, 3] violate the triangle inequality \
         I1 + I2 >= I3 of a real mass distribution"
    );
    // A flat plate lies on the boundary, also when its axes are tilted in the body frame.
    assert!(RigidBody::new(1.0, [1.0, 2.0, 3.0, 0.0, 0.0, 0.0], g()).is_ok());
    let r = tilt().to_rotation_matrix();
    let plate = r.matrix() * Matrix3::from_diagonal(&Vec3::new(1.0, 2.0, 3.0)) * r.matrix().transpose();
    assert!(RigidBody::new(1.0, six(&plate), g()).is_ok());
}

#[test]
fn gravity_must_be_finite() {
    let inertia = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0];
    assert_eq!(
        error(1.0, inertia, Vec3::new(0.0, f64::NAN, -9.81)),
        "gravity = [0, NaN, -9.81]: must be finite"
    );
}

#[test]
fn start_values_are_checked_and_the_quaternion_normalised() {
    let e = State::from_start([0.0; 3], [0.0; 4], [0.0; 3], [0.0; 3]).unwrap_err();
    assert_eq!(e.to_string(), "q_start = [0, 0, 0, 0]: must be a finite, nonzero quaternion (w, x, y, z)");
    let e = State::from_start([0.0; 3], [1.0, f64::INFINITY, 0.0, 0.0], [0.0; 3], [0.0; 3]).unwrap_err();
    assert_eq!(e.variable, "q_start");
    let e = State::from_start([0.0, 0.0, f64::NAN], [1.0, 0.0, 0.0, 0.0], [0.0; 3], [0.0; 3]).unwrap_err();
    assert_eq!(e.to_string(), "r_0_start = [0, 0, NaN]: must be finite");
    let e = State::from_start([0.0; 3], [1.0, 0.0, 0.0, 0.0], [f64::INFINITY, 0.0, 0.0], [0.0; 3]).unwrap_err();
    assert_eq!(e.variable, "v_0_start");
    let e = State::from_start([0.0; 3], [1.0, 0.0, 0.0, 0.0], [0.0; 3], [0.0, f64::NAN, 0.0]).unwrap_err();
    assert_eq!(e.variable, "w_0_start");

    // (0.6, 0.8, 0, 0) scaled by 1.001: a turn about x by 2 atan2(0.8, 0.6), cos = -0.28, sin = 0.96.
    let scaled = [0.6006, 0.8008, 0.0, 0.0];
    let s = State::from_start([1.0, 2.0, 3.0], scaled, [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]).unwrap();
    let q = s.q_wxyz();
    for (got, want) in q.iter().zip([0.6, 0.8, 0.0, 0.0]) {
        assert!((got - want).abs() < 1e-15, "{q:?}");
    }
    assert!((State::quaternion_norm(scaled) - 1.001).abs() < 1e-15);
    assert!((s.q * Vec3::y() - Vec3::new(0.0, -0.28, 0.96)).norm() < 1e-15, "q rotates body vectors into W");
    assert_eq!((s.r, s.v, s.w), (Vec3::new(1.0, 2.0, 3.0), Vec3::new(4.0, 5.0, 6.0), Vec3::new(7.0, 8.0, 9.0)));
}

#[test]
fn principal_frame_diagonalises_the_inertia_tensor() {
    let r = tilt().to_rotation_matrix();
    let tensor = r.matrix() * Matrix3::from_diagonal(&Vec3::new(3.0, 1.0, 2.0)) * r.matrix().transpose();
    let body = RigidBody::new(1.0, six(&tensor), g()).unwrap();
    assert!((body.principal_moments() - Vec3::new(1.0, 2.0, 3.0)).norm() < 1e-14);
    let p = body.principal_axes().to_rotation_matrix();
    let back = p.matrix() * Matrix3::from_diagonal(&body.principal_moments()) * p.matrix().transpose();
    assert!((back - tensor).norm() < 1e-14, "{back} vs {tensor}");
}

/// The inertia numbers are tensor elements (`Ixy = -Σ m x y`) and `q` rotates body vectors into W:
/// for point masses, the body's `L = R I Rᵀ ω` and kinetic energy must equal the sums over the
/// particles, `Σ m p × (ω × p)` and `Σ m |ω × p|²/2` with `p = R p_body`.
#[test]
fn inertia_numbers_and_orientation_match_point_masses() {
    let particles = [
        (1.0, Vec3::new(0.3, -0.2, 0.5)),
        (2.0, Vec3::new(-0.4, 0.1, 0.2)),
        (0.5, Vec3::new(0.2, 0.6, -0.3)),
        (1.5, Vec3::new(0.1, -0.3, -0.4)),
    ];
    let mass: f64 = particles.iter().map(|(m, _)| m).sum();
    let centre = particles.iter().map(|(m, p)| p * *m).sum::<Vec3>() / mass;
    let at_centre: Vec<(f64, Vec3)> = particles.iter().map(|(m, p)| (*m, p - centre)).collect();
    let sum = |f: &dyn Fn(&Vec3) -> f64| at_centre.iter().map(|(m, p)| m * f(p)).sum::<f64>();
    let inertia = [
        sum(&|p| p.y * p.y + p.z * p.z),
        sum(&|p| p.x * p.x + p.z * p.z),
        sum(&|p| p.x * p.x + p.y * p.y),
        -sum(&|p| p.x * p.y),
        -sum(&|p| p.x * p.z),
        -sum(&|p| p.y * p.z),
    ];
    let body = RigidBody::new(mass, inertia, g()).unwrap();
    let q = Rotation::from_euler_angles(0.4, 1.1, -2.0);
    let w = Vec3::new(0.7, -1.3, 2.1);
    let state = State { r: Vec3::zeros(), q, v: Vec3::zeros(), w };
    let l: Vec3 = at_centre.iter().map(|(m, p)| (q * p).cross(&w.cross(&(q * p))) * *m).sum();
    let energy: f64 = at_centre.iter().map(|(m, p)| 0.5 * m * w.cross(&(q * p)).norm_squared()).sum();
    assert!((body.angular_momentum(&state) - l).norm() < 1e-14 * l.norm(), "{} vs {l}", body.angular_momentum(&state));
    assert!((body.kinetic_energy(&state) - energy).abs() < 1e-14 * energy);
}
