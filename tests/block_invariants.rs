//! Invariants of the block on random, non-trivial poses and twists: exchanging A and B mirrors
//! the wrenches, Newton III holds for forces and for torques about a common point, the normal is
//! unit and points from A to B, friction stays inside its cone, and the separation is the
//! distance between the witness points.

use contact_force::block::{Frame, Inputs, Parameters};
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::math::Vec3;
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::shape::ShapeKind;
use nalgebra::{Quaternion, UnitQuaternion};

mod support;
use support::{close, evaluate, Rng};

/// Random frames (this file only): position, orientation, velocity and angular velocity.
trait RandomFrame {
    fn frame(&mut self) -> Frame;
}

impl RandomFrame for Rng {
    fn frame(&mut self) -> Frame {
        Frame { r_0: self.vec(0.2).into(), q: self.quaternion(), v_0: self.vec(1.0).into(), w_0: self.vec(3.0).into() }
    }
}

const PAIRS: [(ShapeKind, ShapeKind); 6] = [
    (ShapeKind::Plane, ShapeKind::Sphere),
    (ShapeKind::Plane, ShapeKind::Point),
    (ShapeKind::Sphere, ShapeKind::Sphere),
    (ShapeKind::Sphere, ShapeKind::Point),
    (ShapeKind::Sphere, ShapeKind::Plane),
    (ShapeKind::Point, ShapeKind::Plane),
];

fn parameters(rng: &mut Rng, a: ShapeKind, b: ShapeKind, hunt_crossley: bool) -> Parameters {
    let mut p = Parameters::default();
    p.geometry_a.shape = a.value();
    p.geometry_b.shape = b.value();
    p.geometry_a.radius = rng.range(0.05, 0.2);
    p.geometry_b.radius = rng.range(0.05, 0.2);
    p.geometry_a.r = rng.vec(0.05).into();
    p.geometry_b.r = rng.vec(0.05).into();
    p.geometry_a.q = rng.quaternion();
    p.geometry_b.q = rng.quaternion();
    if hunt_crossley {
        p.normal.law = NormalLawKind::HuntCrossley.value();
        p.normal.velocity_exponent = 0.8;
        p.normal.stiffness = 1e7;
        p.normal.damping = 1e4;
    }
    p.friction.law = FrictionLawKind::Tanh.value();
    p.friction.tanh_gain = 50.0;
    p
}

/// Places B so that its geometry overlaps A's a little: moves B's frame along the current normal.
fn bring_into_contact(p: &Parameters, inputs: &mut Inputs, depth: f64) {
    let out = evaluate(p, inputs);
    let shift = Vec3::from(out.n_0) * (-out.separation - depth);
    for (r, s) in inputs.frame_b.r_0.iter_mut().zip(shift.iter()) {
        *r += s;
    }
}

#[test]
fn swapping_a_and_b_mirrors_every_output() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (a, b) in PAIRS {
        for case in 0..200 {
            let p = parameters(&mut rng, a, b, case % 2 == 1);
            let mut inputs = Inputs::of_frames(rng.frame(), rng.frame());
            if case % 4 != 0 {
                bring_into_contact(&p, &mut inputs, rng.range(0.0, 2e-3));
            }
            let out = evaluate(&p, &inputs);
            let mut swapped = p.clone();
            std::mem::swap(&mut swapped.geometry_a, &mut swapped.geometry_b);
            let swapped_inputs = Inputs::of_frames(inputs.frame_b.clone(), inputs.frame_a.clone());
            let mirror = evaluate(&swapped, &swapped_inputs);
            let scale = out.normal_force.abs() + 1.0;
            let what = format!("{a:?}-{b:?} case {case}");
            assert!(close(&out.frame_a.f_0, &mirror.frame_b.f_0, scale), "{what}");
            assert!(close(&out.frame_a.t_0, &mirror.frame_b.t_0, scale), "{what}");
            assert!(close(&out.frame_b.f_0, &mirror.frame_a.f_0, scale), "{what}");
            assert!(close(&out.frame_b.t_0, &mirror.frame_a.t_0, scale), "{what}");
            assert!((out.separation - mirror.separation).abs() < 1e-12, "{what}");
            let flipped: Vec<f64> = mirror.n_0.iter().map(|x| -x).collect();
            assert!(close(&out.n_0, &flipped, 1.0), "{what}");
            assert_eq!(out.points, mirror.points, "{what}");
            if out.active {
                assert!(close(&out.p_0, &mirror.p_0, 1.0), "{what}");
            }
        }
    }
}

#[test]
fn newton_three_friction_cone_and_unit_normal_on_random_states() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut active = 0;
    for (a, b) in PAIRS {
        for case in 0..300 {
            let p = parameters(&mut rng, a, b, case % 3 == 0);
            let mut inputs = Inputs::of_frames(rng.frame(), rng.frame());
            bring_into_contact(&p, &mut inputs, rng.range(-1e-3, 3e-3));
            let out = evaluate(&p, &inputs);
            let f_a = Vec3::from(out.frame_a.f_0);
            let f_b = Vec3::from(out.frame_b.f_0);
            let scale = f_b.norm() + 1.0;
            assert!((f_a + f_b).norm() <= 1e-12 * scale);
            // Torques about the world origin add up to zero: r_X x f_X + t_X summed over both bodies.
            let r_a = Vec3::from(inputs.frame_a.r_0);
            let r_b = Vec3::from(inputs.frame_b.r_0);
            let total = r_a.cross(&f_a) + Vec3::from(out.frame_a.t_0) + r_b.cross(&f_b) + Vec3::from(out.frame_b.t_0);
            assert!(total.norm() <= 1e-10 * scale, "{a:?}-{b:?}: {total}");
            let n = Vec3::from(out.n_0);
            assert!((n.norm() - 1.0).abs() < 1e-12);
            assert!(out.normal_force >= 0.0);
            // The force on B is f_n n plus a tangential part no larger than mu f_n (mu = 0.3).
            assert!((f_b.dot(&n) - out.normal_force).abs() <= 1e-10 * scale);
            assert!(out.friction_force <= 0.3 * out.normal_force * (1.0 + 1e-12) + 1e-12);
            if out.separation > 0.0 {
                assert_eq!(f_b.norm(), 0.0);
                assert!(!out.active);
            }
            active += usize::from(out.active);
        }
    }
    // The random states must exercise contact, or this test proves nothing.
    assert!(active > 500, "only {active} states in contact");
}

#[test]
fn separation_is_the_distance_between_the_surfaces() {
    let mut rng = Rng(42);
    for _ in 0..500 {
        let mut p = parameters(&mut rng, ShapeKind::Sphere, ShapeKind::Sphere, false);
        p.geometry_a.r = [0.0; 3];
        p.geometry_b.r = [0.0; 3];
        let inputs = Inputs::of_frames(rng.frame(), rng.frame());
        let out = evaluate(&p, &inputs);
        let distance = (Vec3::from(inputs.frame_b.r_0) - Vec3::from(inputs.frame_a.r_0)).norm();
        assert!((out.separation - (distance - p.geometry_a.radius - p.geometry_b.radius)).abs() < 1e-14);
    }
    // A tilted plane: the distance of B's point from the plane along its normal.
    for _ in 0..500 {
        let p = parameters(&mut rng, ShapeKind::Plane, ShapeKind::Point, false);
        let inputs = Inputs::of_frames(rng.frame(), rng.frame());
        let out = evaluate(&p, &inputs);
        let body_a = UnitQuaternion::from_quaternion(Quaternion::new(
            inputs.frame_a.q[0],
            inputs.frame_a.q[1],
            inputs.frame_a.q[2],
            inputs.frame_a.q[3],
        ));
        let offset_q = UnitQuaternion::from_quaternion(Quaternion::new(p.geometry_a.q[0], p.geometry_a.q[1], p.geometry_a.q[2], p.geometry_a.q[3]));
        let origin = Vec3::from(inputs.frame_a.r_0) + body_a * Vec3::from(p.geometry_a.r);
        let normal = body_a * offset_q * Vec3::z();
        let body_b = UnitQuaternion::from_quaternion(Quaternion::new(
            inputs.frame_b.q[0],
            inputs.frame_b.q[1],
            inputs.frame_b.q[2],
            inputs.frame_b.q[3],
        ));
        let point = Vec3::from(inputs.frame_b.r_0) + body_b * Vec3::from(p.geometry_b.r);
        assert!((out.separation - (point - origin).dot(&normal)).abs() < 1e-14);
    }
}

#[test]
fn regularised_friction_is_finite_at_zero_slip() {
    let mut p = Parameters::default();
    p.geometry_b.radius = 0.1;
    let mut inputs = Inputs::default();
    inputs.frame_b.r_0 = [0.0, 0.0, 0.0995];
    let out = evaluate(&p, &inputs);
    assert!(out.normal_force > 0.0);
    assert_eq!(out.friction_force, 0.0);
    inputs.frame_b.v_0 = [1e-300, 0.0, 0.0];
    let out = evaluate(&p, &inputs);
    assert!(out.frame_b.f_0.iter().all(|f| f.is_finite()));
}
