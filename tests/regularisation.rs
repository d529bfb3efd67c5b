//! Every normal law with every friction law, through the block, near the singular places: slip
//! speed -> 0 (including exactly 0 and subnormal), depth -> 0, f_n -> 0. Outputs stay finite,
//! f_n >= 0, and the friction force stays inside each law's cone.

use contact_force::block::{Block, Inputs, Outputs, Parameters};
use contact_force::physics::contact::PointState;
use contact_force::physics::friction::{FrictionLawKind, TangentialState};
use contact_force::physics::math::Vec3;
use contact_force::physics::normal::NormalLawKind;

mod support;
use support::Rng;

/// This file's random draw: a speed near the singular end.
trait SingularSpeed {
    fn speed(&mut self) -> f64;
}

impl SingularSpeed for Rng {
    /// A speed from the singular end: exactly 0, subnormal, tiny, or ordinary.
    fn speed(&mut self) -> f64 {
        match (self.next() * 5.0) as u32 {
            0 => 0.0,
            1 => 1e-310,
            2 => 1e-15 * self.next(),
            3 => 1e-4 * self.next(),
            _ => self.next() - 0.5,
        }
    }
}

/// The largest friction coefficient a law may reach with the parameters below.
fn mu_max(law: FrictionLawKind, p: &Parameters) -> f64 {
    match law {
        FrictionLawKind::None => 0.0,
        FrictionLawKind::Tanh => p.friction.mu_dynamic,
        // Stribeck without viscous friction stays below mu_s (see stribeck.rs). ProvidedByInput
        // (either law) gets no forces here: its inputs stay 0, so it carries nothing.
        _ => p.friction.mu_static,
    }
}

#[test]
fn every_law_pair_is_finite_and_inside_its_cone_near_zero_slip_and_zero_force() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let mut checked = 0;
    for normal in NormalLawKind::ITEMS {
        for friction in FrictionLawKind::ITEMS {
            let mut p = Parameters::default();
            p.normal.law = normal.value;
            p.friction.law = friction.value;
            p.friction.v_stiction = 1e-3;
            p.friction.v_transition = 1e-2;
            let (block, _) = Block::new(&p, None).unwrap_or_else(|e| panic!("{} + {}: {e}", normal.name, friction.name));
            let law = FrictionLawKind::from_value(friction.value).unwrap();
            for _ in 0..400 {
                let mut inputs = Inputs::default();
                let depth = match (rng.next() * 3.0) as u32 {
                    0 => 1e-300,
                    1 => 1e-12 * rng.next(),
                    _ => 2e-3 * rng.next(),
                };
                inputs.frame_b.r_0 = [0.0, 0.0, 0.1 - depth];
                inputs.frame_b.v_0 = [rng.speed(), rng.speed(), rng.speed()];
                inputs.frame_b.w_0 = [rng.speed(), rng.speed(), rng.speed()];
                // A deflection the laws can reach: inside the Stiction spring's range.
                let deflection = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, 0.0) * (1.4 * p.friction.max_deformation);
                let deflection = if deflection.norm() > p.friction.max_deformation {
                    deflection.normalize() * p.friction.max_deformation
                } else {
                    deflection
                };
                let states = [PointState {
                    tangential: TangentialState { deflection, slipping: rng.next() < 0.5 },
                    onset_speed: rng.speed().abs(),
                }];
                let mut out = Outputs::default();
                block.evaluate(&inputs, &mut Vec::new(), &states, &mut out).unwrap();
                let what = format!("{} + {}: depth {depth}, v {:?}", normal.name, friction.name, inputs.frame_b.v_0);
                assert!(out.all_finite(), "{what}: {out:?}");
                assert!(out.normal_force >= 0.0, "{what}");
                let bound = mu_max(law, &p) * out.normal_force * (1.0 + 1e-9) + 1e-300;
                assert!(out.friction_force <= bound, "{what}: |f_t| = {} > {bound}", out.friction_force);
                if out.normal_force == 0.0 {
                    assert_eq!(out.friction_force, 0.0, "{what}");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, NormalLawKind::ITEMS.len() * FrictionLawKind::ITEMS.len() * 400);
}
