//! Spin friction torque (Adams), rolling resistance (Modelica idealized contact, Modia3D) and
//! material presets (the Adams material table), through the block, against closed forms.

use contact_force::block::{Block, Inputs, Outputs, Parameters};
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::material::MaterialPair;
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::shape::ShapeKind;

const RADIUS: f64 = 0.1;
const DEPTH: f64 = 1e-3;
const STIFFNESS: f64 = 1e6;

/// A sphere pressed DEPTH into the default plane, at rest but for `w`; linear law, no damping,
/// so f_n = k d exactly.
fn pressed_sphere(p: &mut Parameters, w: [f64; 3]) -> Outputs {
    p.geometry_b.radius = RADIUS;
    p.normal.law = NormalLawKind::LinearSpringDamper.value();
    p.normal.stiffness = STIFFNESS;
    p.normal.damping = 0.0;
    let mut inputs = Inputs::default();
    inputs.frame_b.r_0 = [0.0, 0.0, RADIUS - DEPTH];
    inputs.frame_b.w_0 = w;
    let (block, _) = Block::new(p, None).expect("valid parameters");
    let mut out = Outputs::default();
    block.evaluate(&inputs, &mut Vec::new(), &[], &mut out).unwrap();
    out
}

#[test]
fn spin_torque_is_two_thirds_mu_f_n_r_against_the_spin() {
    let (mu, gain, r) = (0.4, 50.0, 0.02);
    for w_n in [-30.0, -2.0, -1e-3, 0.0, 1e-3, 2.0, 30.0_f64] {
        let mut p = Parameters::default();
        p.friction.law = FrictionLawKind::Tanh.value();
        p.friction.mu_dynamic = mu;
        p.friction.tanh_gain = gain;
        p.friction.torque_radius = r;
        // Spinning about the vertical axis through the contact point: no slip, only the couple.
        let out = pressed_sphere(&mut p, [0.0, 0.0, w_n]);
        let f_n = STIFFNESS * DEPTH;
        let expected = -(2.0 / 3.0) * mu * (gain * w_n.abs() * r / 2.0).tanh() * f_n * r * w_n.signum();
        let torque = out.frame_b.t_0[2];
        assert!((torque - expected).abs() <= 1e-12 * f_n * r, "w_n = {w_n}: {torque} vs {expected}");
        assert_eq!(out.frame_a.t_0[2], -torque);
        assert!(out.frame_b.t_0.iter().all(|t| t.is_finite()));
    }
}

#[test]
fn spin_torque_follows_the_adams_coulomb_curve_through_mu_s_at_the_stiction_speed() {
    let (mu_s, mu_d, vs, vd, r) = (0.5, 0.3, 1e-3, 1e-2, 0.02);
    let mut p = Parameters::default();
    p.friction.law = FrictionLawKind::AdamsCoulomb.value();
    p.friction.mu_static = mu_s;
    p.friction.mu_dynamic = mu_d;
    p.friction.v_stiction = vs;
    p.friction.v_transition = vd;
    p.friction.torque_radius = r;
    // |w_n| R / 2 = vs: mu = mu_s.
    let out = pressed_sphere(&mut p, [0.0, 0.0, 2.0 * vs / r]);
    let expected = -(2.0 / 3.0) * mu_s * STIFFNESS * DEPTH * r;
    assert!((out.frame_b.t_0[2] - expected).abs() <= 1e-12 * expected.abs());
}

#[test]
fn rolling_resistance_opposes_the_rolling_with_mu_r_r_f_n() {
    let (mu_r, vs) = (0.01, 1e-3);
    for w in [-5.0, -0.02, 0.0, 0.005, 5.0_f64] {
        let mut p = Parameters::default();
        p.friction.law = FrictionLawKind::None.value();
        p.friction.rolling = mu_r;
        p.friction.v_stiction = vs;
        let out = pressed_sphere(&mut p, [w, 0.0, 0.0]);
        let f_n = STIFFNESS * DEPTH;
        // The rolling radius of a sphere on a plane is its radius; w_s = v_stiction / R.
        let expected = -mu_r * RADIUS * f_n * (w.abs() * RADIUS / vs).tanh() * w.signum();
        assert!((out.frame_b.t_0[0] - expected).abs() <= 1e-12 * mu_r * RADIUS * f_n, "w = {w}");
        assert_eq!(out.frame_b.t_0[1], 0.0);
        assert_eq!(out.frame_a.t_0[0], -out.frame_b.t_0[0]);
    }
}

#[test]
fn torques_that_cannot_apply_are_refused_with_the_reason() {
    let mut p = Parameters::default();
    p.friction.law = FrictionLawKind::ElasticCone.value();
    p.friction.torque_radius = 0.01;
    let e = Block::new(&p, None).unwrap_err().to_string();
    assert!(e.contains("friction.torque_radius = 0.01") && e.contains("ElasticCone"), "{e}");

    let mut p = Parameters::default();
    p.geometry_b.shape = ShapeKind::Point.value();
    p.friction.rolling = 0.01;
    let e = Block::new(&p, None).unwrap_err().to_string();
    assert!(e.contains("friction.rolling = 0.01") && e.contains("Plane - Point"), "{e}");
}

#[test]
fn material_presets_set_mu_and_e_unless_given_explicitly() {
    let mut p = Parameters { material_pair: MaterialPair::DrySteel_DrySteel.value(), ..Parameters::default() };
    p.friction.law = FrictionLawKind::SmoothStickSlip.value();
    p.normal.law = NormalLawKind::Restitution.value();
    let (validated, _) = p.validate(None).unwrap();
    let debug = format!("{:?}", validated.laws);
    assert!(debug.contains("mu_static: 0.7") && debug.contains("mu_dynamic: 0.57"), "{debug}");
    assert!(debug.contains("restitution: 0.8"), "{debug}");

    // An explicit value wins over the preset.
    p.friction.mu_dynamic = 0.2;
    let (validated, _) = p.validate(None).unwrap();
    let debug = format!("{:?}", validated.laws);
    assert!(debug.contains("mu_static: 0.7") && debug.contains("mu_dynamic: 0.2"), "{debug}");

    // A preset whose mu_s is below an explicit mu_d is refused by the usual rule.
    p.material_pair = MaterialPair::Nylon_Nylon.value();
    p.friction.mu_dynamic = 0.35;
    let e = p.validate(None).unwrap_err().to_string();
    assert!(e.contains("friction.mu_dynamic = 0.35: must not exceed friction.mu_static = 0.1"), "{e}");
}
