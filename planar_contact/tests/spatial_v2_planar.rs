//! spatial_v2's planar ground model (`gcontact` in 2-D: ground y = 0, y up) reproduced by the
//! PlanarContact block as ContactForce reproduces the spatial one (tests/spatial_v2_gcontact.rs):
//! GroundModel with ElasticCone, the tangential constants equal to the normal ones, a Point on a
//! Line. Normal force, tangential force, stick/slip and the deflection rate (Model Exchange's
//! derivative) on thousands of random states.
//!
//! The reference is written from gcontact's algorithm: `zr = sqrt(max(0, -y))`,
//! `fn = zr (-K y - D yd)`, in contact iff `fn > 0`; trial `ft = -zr (K u + D xd)`;
//! slipping iff `|ft| > mu fn`, then `ft = mu fn sign(ft)` and `ud = -(ft / zr + K u) / D`;
//! sticking `ud = xd`; apart `ft = 0`, `ud = -(K / D) u`.

use contact_force::physics::contact::PointState;
use contact_force::physics::friction::{FrictionLawKind, TangentialState};
use contact_force::physics::math::Vec3;
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::point_events;
use planar_contact::block::{Frame, Inputs, Outputs, Parameters};
use planar_contact::shape::PlanarShapeKind;

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Status {
    Apart,
    Sticking,
    Slipping,
}

fn gcontact_2d(k: f64, d: f64, mu: f64, p: [f64; 2], pd: [f64; 2], u: f64) -> (f64, f64, f64, Status) {
    let (y, yd) = (p[1], pd[1]);
    let zr = (-y).max(0.0).sqrt();
    let normal = zr * (-k * y - d * yd);
    if normal <= 0.0 {
        return (0.0, 0.0, -k / d * u, Status::Apart);
    }
    let ft = -zr * (k * u + d * pd[0]);
    let fslip = mu * normal;
    if ft.abs() > fslip {
        let ft = ft.signum() * fslip;
        (normal, ft, -(ft / zr + k * u) / d, Status::Slipping)
    } else {
        (normal, ft, pd[0], Status::Sticking)
    }
}

/// xorshift64*, as the workspace's tests draw.
struct Rng(u64);

impl Rng {
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        lo + (hi - lo) * ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64)
    }
}

fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-12 * scale
}

#[test]
fn the_planar_block_configured_like_gcontact_gives_its_forces_and_rates() {
    let mut rng = Rng(0x2d2d_2d2d_0000_0021);
    let mut seen = [0usize; 3];
    for _ in 0..20_000 {
        let (k, d, mu) = (rng.range(1e3, 1e6), rng.range(10.0, 1e3), rng.range(0.1, 1.0));
        let mut p = Parameters::default();
        p.geometry_b.shape = PlanarShapeKind::Point.value();
        p.normal.law = NormalLawKind::GroundModel.value();
        p.normal.stiffness = k;
        p.normal.damping = d;
        p.friction.law = FrictionLawKind::ElasticCone.value();
        p.friction.mu_static = mu;
        p.friction.stiffness = k;
        p.friction.damping = d;
        let (block, _) = p.validate(None).unwrap();
        let pos = [rng.range(-1.0, 1.0), rng.range(-0.01, 0.002)];
        let vel = [rng.range(-1.0, 1.0), rng.range(-0.5, 0.5)];
        let u = rng.range(-0.01, 0.01);
        let inputs = Inputs { frame_a: Frame::default(), frame_b: Frame { r_0: pos, phi: rng.range(-3.0, 3.0), v_0: vel, w: 0.0 } };
        let mut states = vec![PointState::default(); 8];
        states[0] = PointState { tangential: TangentialState { deflection: Vec3::new(u, 0.0, 0.0), slipping: false }, onset_speed: 0.0 };
        let mut out = Outputs::default();
        block.evaluate(&inputs, &mut Vec::new(), &states, &mut out);
        let (fn_ref, ft_ref, ud_ref, status) = gcontact_2d(k, d, mu, pos, vel, u);
        let scale = fn_ref + 1.0;
        assert!(close(out.frame_b.f_0[1], fn_ref, scale), "{} vs {fn_ref}", out.frame_b.f_0[1]);
        assert!(close(out.frame_b.f_0[0], ft_ref, scale), "{} vs {ft_ref}", out.frame_b.f_0[0]);
        assert_eq!(out.active, status != Status::Apart);
        assert_eq!(out.sticking, status == Status::Sticking);
        // Model Exchange's derivative of the slot's deflection.
        let at = block.slot_forces(&inputs, &mut Vec::new(), &states)[0].expect("a point on a line has its slot");
        let rate = point_events::rates(&at, block.laws(), &states[0]).deflection_rate;
        assert!(close(rate.x, ud_ref, ud_ref.abs() + 1e-9), "{} vs {ud_ref}", rate.x);
        assert_eq!(rate.y, 0.0);
        seen[status as usize] += 1;
    }
    assert!(seen.iter().all(|n| *n > 1_000), "{seen:?}");
}
