//! The joint to the world against closed forms: the small-angle period of a pendulum, energy
//! conserved to the integrator's second order, the rod's tension at the bottom of a swing and the
//! reaction of a released rod, a slide down an inclined axis, the mobility matrix against an
//! impulse, and the effective mass `m / cos²θ` of a pendulum hit at an angle to its path.

mod common;

use std::f64::consts::PI;

use nalgebra::{Matrix6, Vector6};
use rigid_body::joint::{from_upper_triangle, upper_triangle};
use rigid_body::{effective_mass, Joint, JointKind, RigidBody, Rotation, State, Vec3, DEFAULT_GRAVITY};

const G: f64 = 9.81;

/// A hinge about y through the origin.
fn hinge() -> Joint {
    Joint::new(JointKind::Revolute, [0.0; 3], [0.0, 1.0, 0.0]).unwrap()
}

/// A point of mass `m` at distance `d` below the pivot turned by `theta` about y, at rest.
fn pendulum_at(d: f64, theta: f64) -> State {
    State { r: Vec3::new(d * theta.sin(), 0.0, -d * theta.cos()), q: Rotation::identity(), v: Vec3::zeros(), w: Vec3::zeros() }
}

/// Times at which `x` crosses zero upward, linearly interpolated, over `steps` steps of `h`.
fn upward_crossings(body: &RigidBody, mut state: State, h: f64, max_substep: f64, steps: usize) -> Vec<f64> {
    let mut crossings = Vec::new();
    let mut previous = state.r[0];
    for i in 1..=steps {
        body.step(&mut state, Vec3::zeros(), Vec3::zeros(), h, max_substep);
        let x = state.r[0];
        if previous < 0.0 && x >= 0.0 {
            crossings.push(h * (i as f64 - 1.0 + previous / (previous - x)));
        }
        previous = x;
    }
    crossings
}

/// `T = 2π sqrt(I_p / (m g d))` for a point mass (`I_p = m d²`) and for a body with inertia of
/// its own about the axis (`I_p = m d² + I_c`), at 0.01 rad (the amplitude's correction
/// `θ0²/16` is 6e-6).
#[test]
fn small_angle_pendulum_period_is_the_closed_form() {
    let (m, d) = (1.0, 0.5);
    for (inertia, i_c) in [([0.0; 6], 0.0), ([0.02, 0.03, 0.01, 0.0, 0.0, 0.0], 0.03)] {
        let body = RigidBody::with_joint(m, inertia, Vec3::from(DEFAULT_GRAVITY), hinge()).unwrap();
        let period = 2.0 * PI * ((m * d * d + i_c) / (m * G * d)).sqrt();
        let crossings = upward_crossings(&body, pendulum_at(d, -0.01), 1e-3, 1e-4, 6000);
        assert!(crossings.len() >= 3, "{crossings:?}");
        let measured = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
        assert!((measured / period - 1.0).abs() < 2e-5, "I_c {i_c}: period {measured} against {period}");
    }
}

/// The largest relative energy error over 10 s of a swing from 1 rad, for the sub-step `h`.
fn energy_error(body: &RigidBody, h: f64) -> f64 {
    let mut state = pendulum_at(0.5, 1.0);
    state.w = Vec3::new(0.0, 0.5, 0.0);
    let (state0, _) = body.onto_joint(&state);
    let e0 = body.kinetic_energy(&state0) + body.potential_energy(&state0);
    let mut state = state0;
    let mut worst = 0.0f64;
    for _ in 0..1000 {
        body.step(&mut state, Vec3::zeros(), Vec3::zeros(), 0.01, h);
        let e = body.kinetic_energy(&state) + body.potential_energy(&state);
        worst = worst.max((e / e0 - 1.0).abs());
    }
    worst
}

/// Störmer-Verlet is symplectic and second order: the energy error is bounded and quarters when
/// the sub-step halves. The distance to the axis stays the rod's length to round-off.
#[test]
fn swinging_pendulum_conserves_energy_to_second_order() {
    let body = RigidBody::with_joint(1.0, [0.0; 6], Vec3::from(DEFAULT_GRAVITY), hinge()).unwrap();
    let coarse = energy_error(&body, 2e-3);
    let fine = energy_error(&body, 1e-3);
    assert!(coarse < 1e-4, "energy error {coarse}");
    assert!((coarse / fine - 4.0).abs() < 0.4, "errors {coarse} and {fine}: not second order");
    let mut state = pendulum_at(0.5, 1.0);
    body.step(&mut state, Vec3::zeros(), Vec3::zeros(), 10.0, 1e-3);
    assert!((state.r.norm() - 0.5).abs() < 1e-12 && state.r[1] == 0.0, "left the circle: {}", state.r);
}

/// At the bottom of a swing at speed `v` the rod pulls the point mass up with `m g + m v²/d` and
/// no torque; the body is still turning and its twist is on the joint.
#[test]
fn reaction_at_the_bottom_of_a_swing_is_gravity_plus_centripetal() {
    let (m, d) = (1.5, 0.5);
    let body = RigidBody::with_joint(m, [0.0; 6], Vec3::from(DEFAULT_GRAVITY), hinge()).unwrap();
    // Released from 60 deg: v² = 2 g d (1 - cos 60°) at the bottom.
    let mut state = pendulum_at(d, -PI / 3.0);
    let mut previous = state;
    while state.r[0] < 0.0 {
        previous = state;
        body.step(&mut state, Vec3::zeros(), Vec3::zeros(), 1e-4, 1e-5);
    }
    // The step that crosses the bottom: the reaction there, from the state nearest to it.
    let at = if -previous.r[0] < state.r[0] { previous } else { state };
    let reaction = body.reaction(&at, &Vec3::zeros(), &Vec3::zeros());
    let v2 = at.v.norm_squared();
    let angle = at.r[0].atan2(-at.r[2]);
    // Tension along the rod m g cos(angle) + m v²/d, toward the pivot.
    let tension = m * G * angle.cos() + m * v2 / d;
    let expected = -at.r / d * tension;
    assert!((reaction.force - expected).norm() < 1e-9 * tension, "{} against {expected}", reaction.force);
    assert!(reaction.torque.norm() < 1e-12, "{}", reaction.torque);
    assert!((v2 - 2.0 * G * d * 0.5).abs() < 1e-3 * v2, "speed² {v2} at the bottom");
}

/// A uniform rod (m, length 2d, pivot at its end) released horizontally: `θ'' = m g d / I_p`,
/// and the pivot carries `m g (1 - m d² / I_p) = m g / 4` upward (the rod's centre falls at
/// `3 g / 4`); the torque about the centre is the pivot force's moment, `d × f`.
#[test]
fn reaction_of_a_rod_released_horizontally() {
    let (m, d) = (2.0, 0.5);
    let i_c = m * (2.0 * d) * (2.0 * d) / 12.0;
    let body = RigidBody::with_joint(m, [i_c, i_c, 1e-6, 0.0, 0.0, 0.0], Vec3::from(DEFAULT_GRAVITY), hinge()).unwrap();
    // Rod along x, centre at (d, 0, 0); the body frame's z along the rod.
    let state =
        State { r: Vec3::new(d, 0.0, 0.0), q: Rotation::from_axis_angle(&Vec3::y_axis(), PI / 2.0), v: Vec3::zeros(), w: Vec3::zeros() };
    let i_p = i_c + m * d * d;
    assert!((body.joint_mass(&state).unwrap() - i_p).abs() < 1e-12);
    let reaction = body.reaction(&state, &Vec3::zeros(), &Vec3::zeros());
    let expected = Vec3::new(0.0, 0.0, m * G * (1.0 - m * d * d / i_p));
    assert!((reaction.force - expected).norm() < 1e-12, "{} against {expected}", reaction.force);
    let torque = (Vec3::zeros() - state.r).cross(&reaction.force);
    assert!((reaction.torque - torque).norm() < 1e-12, "{} against {torque}", reaction.torque);
    let (dv, dw) = body.constrained_acceleration(&state, &Vec3::zeros(), &Vec3::zeros());
    assert!((dv[2] + 0.75 * G).abs() < 1e-12 && (dw[1] - m * G * d / i_p).abs() < 1e-12, "{dv} {dw}");
}

/// Down an axis inclined by 30° below horizontal: `s = g sin 30° t² / 2` exactly (constant
/// acceleration), no turning under a held torque, and the reaction is the normal force
/// `-m g⊥` and the torque's opposite.
#[test]
fn prismatic_slide_down_an_inclined_axis_is_exact() {
    let m = 3.0;
    let axis = [30f64.to_radians().cos(), 0.0, -(30f64.to_radians().sin())];
    let joint = Joint::new(JointKind::Prismatic, [1.0, 2.0, 3.0], axis).unwrap();
    let body = RigidBody::with_joint(m, [0.1, 0.2, 0.25, 0.0, 0.0, 0.0], Vec3::from(DEFAULT_GRAVITY), joint).unwrap();
    let u = joint.axis;
    let r0 = Vec3::new(1.0, 2.0, 3.0);
    let q0 = Rotation::from_euler_angles(0.1, 0.2, 0.3);
    let mut state = State { r: r0, q: q0, v: Vec3::zeros(), w: Vec3::zeros() };
    let torque = Vec3::new(0.5, -1.0, 2.0);
    let g_axis = G * 0.5;
    for i in 1..=100 {
        body.step(&mut state, Vec3::zeros(), torque, 0.01, 1e-3);
        let t = 0.01 * i as f64;
        let expected = r0 + u * (g_axis * t * t / 2.0);
        assert!((state.r - expected).norm() < 1e-12, "t {t}: {} against {expected}", state.r);
        assert!((state.v - u * (g_axis * t)).norm() < 1e-12);
    }
    assert_eq!((state.q, state.w), (q0, Vec3::zeros()));
    let reaction = body.reaction(&state, &Vec3::zeros(), &torque);
    let gravity = Vec3::from(DEFAULT_GRAVITY) * m;
    let normal = -(gravity - u * u.dot(&gravity));
    assert!((reaction.force - normal).norm() < 1e-12, "{} against {normal}", reaction.force);
    assert_eq!(reaction.torque, -torque);
}

/// A body of each kind, turning or moving, with a general inertia and a pivot off its centre.
fn bodies() -> Vec<(RigidBody, State)> {
    let inertia = [0.3, 0.4, 0.5, 0.01, -0.02, 0.03];
    let state = State {
        r: Vec3::new(0.3, -0.2, 0.4),
        q: Rotation::from_euler_angles(0.4, -0.3, 1.1),
        v: Vec3::new(0.2, 0.1, -0.3),
        w: Vec3::new(0.5, -0.4, 0.3),
    };
    let mut out = Vec::new();
    for joint in [
        Joint::FREE,
        Joint::new(JointKind::Revolute, [0.1, 0.5, -0.2], [1.0, 2.0, -0.5]).unwrap(),
        Joint::new(JointKind::Prismatic, [0.0; 3], [0.3, -1.0, 0.2]).unwrap(),
    ] {
        let body = RigidBody::with_joint(2.0, inertia, Vec3::zeros(), joint).unwrap();
        let (state, _) = body.onto_joint(&state);
        out.push((body, state));
    }
    out
}

/// A short impulse changes the twist by `Φ J`: a large force and torque held over 1e-7 s change
/// the twist by `Φ (f, τ) dt` to first order in `dt` (the velocity-dependent terms add
/// `O(|V| dt)`, here 1e-7 against a change of order 1).
#[test]
fn an_impulse_changes_the_twist_by_the_mobility_times_it() {
    let dt = 1e-7;
    let force = Vec3::new(3.0, -2.0, 5.0) / dt;
    let torque = Vec3::new(-0.4, 0.7, 0.2) / dt;
    let impulse = Vector6::new(3.0, -2.0, 5.0, -0.4, 0.7, 0.2);
    for (body, state) in bodies() {
        let phi = body.mobility(&state);
        let mut after = state;
        body.step(&mut after, force, torque, dt, dt);
        let change = Vector6::new(after.v[0] - state.v[0], after.v[1] - state.v[1], after.v[2] - state.v[2], after.w[0] - state.w[0], after.w[1] - state.w[1], after.w[2] - state.w[2]);
        let expected = phi * impulse;
        assert!((change - expected).norm() < 1e-5 * expected.norm(), "{:?}: {change} against {expected}", body.joint().kind);
        // Symmetric positive semi-definite, and the upper triangle round-trips.
        assert!((phi - phi.transpose()).norm() < 1e-15 * phi.norm());
        assert_eq!(from_upper_triangle(&upper_triangle(&phi)), phi);
    }
}

/// Free: `Φ = diag(1/m, I_W⁻¹)`. Jointed: `Φ S = S / (Sᵀ M S)`, rank one, and `Φ M Φ = Φ` (the
/// pseudo-inverse of the spatial inertia restricted to the joint).
#[test]
fn mobility_is_the_inverse_inertia_restricted_to_the_joint() {
    for (body, state) in bodies() {
        let phi = body.mobility(&state);
        let m = body.spatial_inertia(&state.q);
        match body.joint().subspace(&state.r) {
            None => assert!((phi * m - Matrix6::identity()).norm() < 1e-12),
            Some(s) => {
                assert!((phi * m * phi - phi).norm() < 1e-12 * phi.norm());
                assert!((phi * m * s - s).norm() < 1e-12 * s.norm());
                assert_eq!(phi.rank(1e-9), 1);
            }
        }
    }
}

/// A point mass `m` on a 0.5 m rod hit at the mass along `n`, `θ` off its path: the effective mass
/// is `m / cos²θ`; along the rod (θ = 90°) it is infinite. The free sphere shows `m` at its centre
/// and `1 / (1/m + |c × n|²/I)` at an offset point.
#[test]
fn effective_mass_of_a_pendulum_hit_at_an_angle_is_m_over_cos_squared() {
    let m = 1.0;
    let body = RigidBody::with_joint(m, [0.0; 6], Vec3::from(DEFAULT_GRAVITY), hinge()).unwrap();
    for swing in [0.0, 0.4, -1.0] {
        let state = pendulum_at(0.5, swing);
        let phi = body.mobility(&state);
        let path = Vec3::y().cross(&state.r).normalize();
        let radial = state.r.normalize();
        for theta in [0.0f64, 30f64.to_radians(), 60f64.to_radians(), 85f64.to_radians()] {
            let n = path * theta.cos() + radial * theta.sin();
            let expected = m / theta.cos().powi(2);
            let measured = effective_mass(&phi, &n, &state.r, &state.r);
            assert!((measured / expected - 1.0).abs() < 1e-12, "swing {swing}, θ {theta}: {measured} against {expected}");
        }
        let along_rod = effective_mass(&phi, &radial, &state.r, &state.r);
        assert!(along_rod > 1e12, "swing {swing}: {along_rod}");
    }
    let i = 4e-3;
    let sphere = RigidBody::new(m, [i, i, i, 0.0, 0.0, 0.0], Vec3::zeros()).unwrap();
    let state = State { r: Vec3::new(1.0, 2.0, 3.0), q: Rotation::identity(), v: Vec3::zeros(), w: Vec3::zeros() };
    let phi = sphere.mobility(&state);
    let n = Vec3::z();
    assert!((effective_mass(&phi, &n, &state.r, &state.r) - m).abs() < 1e-14);
    let c = state.r + Vec3::new(0.1, 0.0, 0.0);
    let expected = 1.0 / (1.0 / m + 0.01 / i);
    assert!((effective_mass(&phi, &n, &c, &state.r) / expected - 1.0).abs() < 1e-14);
}

/// Start twists off the joint are projected keeping the momentum along it, and flagged; twists on
/// it pass silently. The pose is always on the joint.
#[test]
fn start_twists_are_projected_onto_the_joint() {
    let body = RigidBody::with_joint(1.0, [0.0; 6], Vec3::zeros(), hinge()).unwrap();
    let at = pendulum_at(0.5, 0.0);
    let (on, moved) = body.onto_joint(&State { v: Vec3::new(2.0, 0.0, 0.0), w: Vec3::new(0.0, -4.0, 0.0), ..at });
    assert!(!moved, "{on:?}");
    // A point mass: only the velocity carries momentum; its component along the path is kept.
    let (on, moved) = body.onto_joint(&State { v: Vec3::new(2.0, 3.0, 1.0), w: Vec3::new(5.0, 0.0, 0.0), ..at });
    assert!(moved);
    assert!((on.v - Vec3::new(2.0, 0.0, 0.0)).norm() < 1e-15 && (on.w - Vec3::new(0.0, -4.0, 0.0)).norm() < 1e-14, "{on:?}");
}

/// The joint's parameters and the inertia a joint allows.
#[test]
fn joint_parameters_are_validated() {
    let zero = Joint::new(JointKind::Revolute, [0.0; 3], [0.0; 3]).unwrap_err();
    assert_eq!(zero.to_string(), "joint.axis = [0, 0, 0]: must be a finite, nonzero direction");
    let nan = Joint::new(JointKind::Prismatic, [0.0; 3], [f64::NAN, 1.0, 0.0]).unwrap_err();
    assert_eq!(nan.variable, "joint.axis");
    assert_eq!(Joint::new(JointKind::Free, [f64::INFINITY, 0.0, 0.0], [0.0, 0.0, 1.0]).unwrap_err().variable, "joint.pivot");
    assert!((Joint::new(JointKind::Revolute, [0.0; 3], [0.0, 3.0, 4.0]).unwrap().axis - Vec3::new(0.0, 0.6, 0.8)).norm() < 1e-16);
    // A free point mass is still refused; jointed it is fine, unless the axis passes through it.
    let g = Vec3::from(DEFAULT_GRAVITY);
    assert_eq!(RigidBody::new(1.0, [0.0; 6], g).unwrap_err().variable, "inertia");
    assert_eq!(RigidBody::with_joint(1.0, [-1e-3, 0.0, 0.0, 0.0, 0.0, 0.0], g, hinge()).unwrap_err().variable, "inertia");
    let body = RigidBody::with_joint(1.0, [0.0; 6], g, hinge()).unwrap();
    assert!(body.check_joint(&pendulum_at(0.5, 0.3)).is_ok());
    let on_axis = State { r: Vec3::new(0.0, 0.7, 0.0), ..pendulum_at(0.5, 0.0) };
    let error = body.check_joint(&on_axis).unwrap_err();
    assert_eq!(error.variable, "joint.pivot");
    assert!(error.rule.contains("moment of inertia about the joint axis"), "{error}");
}
