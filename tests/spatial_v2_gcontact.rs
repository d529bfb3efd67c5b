//! ElasticCone friction with the GroundModel normal law and equal tangential and normal constants
//! reproduces Featherstone's spatial_v2 `gcontact` (seed 002): normal force, tangential force,
//! deflection rate and stick/slip, on thousands of random states, in 3-D and in the 2-D style
//! (motion in a vertical plane).
//!
//! The reference below is written from gcontact's algorithm, not from this crate's code: ground
//! at z = 0 with z up, `zr = sqrt(max(0, -z))`, `fn = zr (-K z - D zd)`, in contact iff `fn > 0`;
//! trial `ft = -zr (K u + D xd)`; `fslip = mu fn`; slipping iff `|ft| > fslip`, then
//! `ft = ft fslip / |ft|` and `ud = -(ft / zr + K u) / D`; sticking `ud = xd`; out of contact
//! `ft = 0`, `ud = -(K / D) u`.

use contact_force::block::{Block, Frame, Inputs, Outputs, Parameters};
use contact_force::physics::contact::{self, Laws, PointState};
use contact_force::physics::friction::{ElasticCone, FrictionLaw, FrictionLawKind, TangentialState};
use contact_force::physics::geometry::{ContactPoint, GeometryPair};
use contact_force::physics::math::{BodyState, Pose, Vec3};
use contact_force::physics::normal::{GroundModel, NormalLaw, NormalLawKind};
use contact_force::physics::shape::{Shape, ShapeKind};

mod support;
use support::Rng;

/// gcontact's three states of a point.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Status {
    Apart,
    Sticking,
    Slipping,
}

/// The reference for one point in 3-D: returns (fn, ft[2], ud[2], status).
fn gcontact_3d(k: f64, d: f64, mu: f64, p: [f64; 3], pd: [f64; 3], u: [f64; 2]) -> (f64, [f64; 2], [f64; 2], Status) {
    let (z, zd) = (p[2], pd[2]);
    let zr = (-z).max(0.0).sqrt();
    let normal = zr * (-k * z - d * zd);
    if normal <= 0.0 {
        return (0.0, [0.0; 2], [-k / d * u[0], -k / d * u[1]], Status::Apart);
    }
    let mut ft = [-zr * (k * u[0] + d * pd[0]), -zr * (k * u[1] + d * pd[1])];
    let fslip = mu * normal;
    let magnitude = (ft[0] * ft[0] + ft[1] * ft[1]).sqrt();
    if magnitude > fslip {
        ft = [ft[0] * fslip / magnitude, ft[1] * fslip / magnitude];
        let ud = [-(ft[0] / zr + k * u[0]) / d, -(ft[1] / zr + k * u[1]) / d];
        (normal, ft, ud, Status::Slipping)
    } else {
        (normal, ft, [pd[0], pd[1]], Status::Sticking)
    }
}

/// The reference in 2-D (x along the ground, y up): returns (fn, ft, ud, status).
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

/// The crate's evaluation of a point B at `p` moving at `pd` against a fixed plane A with
/// deflection `u`, through the same path the block takes (geometry pair, contact point, laws).
fn ours(laws: &Laws, p: Vec3, pd: Vec3, u: Vec3) -> (f64, Vec3, Vec3, Status) {
    let pair = GeometryPair::new(Shape::Plane, Shape::Point).unwrap();
    let mut points: Vec<ContactPoint> = Vec::new();
    pair.contacts(&Pose::identity(), &Pose { r: p, q: Default::default() }, &mut points);
    let ground = BodyState { pose: Pose::identity(), v: Vec3::zeros(), w: Vec3::zeros() };
    // The point's body has its frame origin at the point and does not spin.
    let body = BodyState { pose: Pose { r: p, q: Default::default() }, v: pd, w: Vec3::zeros() };
    let state = PointState { tangential: TangentialState { deflection: u, slipping: false }, onset_speed: 0.0 };
    let force = contact::evaluate(&points[0], &ground, &body, laws, &state);
    let FrictionLaw::ElasticCone(cone) = laws.friction else { unreachable!() };
    let rate = cone.evaluate(force.depth(), force.normal_force, &force.slip_velocity_w, &u).deflection_rate;
    // The step integration agrees with that rate to first order: over h the deflection moves by
    // rate h, up to the O(h^2) curvature of the exponential slip solution.
    let h = 1e-7;
    let mut next = state;
    contact::advance(&force, laws, &mut next, h);
    let moved = next.tangential.deflection - u;
    let curvature = (laws_rate_scale(laws) * h) * rate.norm() * h + 1e-18;
    assert!((moved - rate * h).norm() <= curvature, "advance moved {moved}, rate h = {}", rate * h);
    let status = match force.sticking {
        _ if force.normal_force <= 0.0 => Status::Apart,
        Some(true) => Status::Sticking,
        _ => Status::Slipping,
    };
    (force.normal_force, force.friction_force_w, rate, status)
}

/// K / D: the rate at which the slip solution curves.
fn laws_rate_scale(laws: &Laws) -> f64 {
    let FrictionLaw::ElasticCone(cone) = laws.friction else { unreachable!() };
    cone.stiffness / cone.damping
}

fn laws(k: f64, d: f64, mu: f64) -> Laws {
    Laws {
        normal: NormalLaw::GroundModel(GroundModel { stiffness: k, damping: d }),
        friction: FrictionLaw::ElasticCone(ElasticCone { mu, stiffness: k, damping: d }),
        max_depth: 0.0,
        torque_radius: 0.0,
        rolling: 0.0,
        rolling_radius: 0.0,
        rolling_speed: 1.0,
    }
}

fn close(a: f64, b: f64, scale: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * scale.max(1e-300)
}

#[test]
fn reproduces_gcontact_in_three_dimensions_on_random_states() {
    let mut rng = Rng(0x5eed_0f5a_71a1_0002);
    let mut seen = [0usize; 3];
    for _ in 0..20_000 {
        let (k, d, mu) = (rng.range(1e3, 1e6), rng.range(10.0, 1e3), rng.range(0.1, 1.0));
        let p = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-0.01, 0.002)];
        let pd = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-0.5, 0.5)];
        let u = [rng.range(-0.01, 0.01), rng.range(-0.01, 0.01)];
        let (fn_ref, ft_ref, ud_ref, status_ref) = gcontact_3d(k, d, mu, p, pd, u);
        let (fn_ours, ft_ours, ud_ours, status_ours) =
            ours(&laws(k, d, mu), Vec3::from(p), Vec3::from(pd), Vec3::new(u[0], u[1], 0.0));
        let scale = fn_ref.abs() + 1.0;
        assert_eq!(status_ours, status_ref, "p = {p:?}, pd = {pd:?}, u = {u:?}");
        assert!(close(fn_ours, fn_ref, scale, 1e-12), "{fn_ours} vs {fn_ref}");
        for i in 0..2 {
            assert!(close(ft_ours[i], ft_ref[i], scale, 1e-12), "ft[{i}]: {} vs {}", ft_ours[i], ft_ref[i]);
            let rate_scale = ud_ref[0].abs().max(ud_ref[1].abs()) + 1e-9;
            assert!(close(ud_ours[i], ud_ref[i], rate_scale, 1e-12), "ud[{i}]: {} vs {}", ud_ours[i], ud_ref[i]);
        }
        assert_eq!(ft_ours.z, 0.0);
        seen[status_ref as usize] += 1;
    }
    // Every state must be well represented, or the comparison proves little.
    assert!(seen.iter().all(|n| *n > 1_000), "{seen:?}");
}

#[test]
fn reproduces_gcontact_in_the_two_dimensional_style() {
    let mut rng = Rng(0x2d2d_2d2d_0000_0001);
    let mut seen = [0usize; 3];
    for _ in 0..20_000 {
        let (k, d, mu) = (rng.range(1e3, 1e6), rng.range(10.0, 1e3), rng.range(0.1, 1.0));
        let p = [rng.range(-1.0, 1.0), rng.range(-0.01, 0.002)];
        let pd = [rng.range(-1.0, 1.0), rng.range(-0.5, 0.5)];
        let u = rng.range(-0.01, 0.01);
        let (fn_ref, ft_ref, ud_ref, status_ref) = gcontact_2d(k, d, mu, p, pd, u);
        // The 2-D plane (x, y) is the vertical plane (x, z) of W.
        let (fn_ours, ft_ours, ud_ours, status_ours) =
            ours(&laws(k, d, mu), Vec3::new(p[0], 0.0, p[1]), Vec3::new(pd[0], 0.0, pd[1]), Vec3::new(u, 0.0, 0.0));
        let scale = fn_ref.abs() + 1.0;
        assert_eq!(status_ours, status_ref);
        assert!(close(fn_ours, fn_ref, scale, 1e-12));
        assert!(close(ft_ours.x, ft_ref, scale, 1e-12), "{} vs {ft_ref}", ft_ours.x);
        assert_eq!(ft_ours.y, 0.0);
        assert!(close(ud_ours.x, ud_ref, ud_ref.abs() + 1e-9, 1e-12), "{} vs {ud_ref}", ud_ours.x);
        seen[status_ref as usize] += 1;
    }
    assert!(seen.iter().all(|n| *n > 1_000), "{seen:?}");
}

/// The whole block (FMU path: parameters, validation, evaluation) gives gcontact's forces.
#[test]
fn the_block_configured_like_gcontact_gives_its_forces() {
    let mut rng = Rng(7);
    let (k, d, mu) = (2e5, 400.0, 0.6);
    let mut p = Parameters::default();
    p.geometry_b.shape = ShapeKind::Point.value();
    p.normal.law = NormalLawKind::GroundModel.value();
    p.normal.stiffness = k;
    p.normal.damping = d;
    p.friction.law = FrictionLawKind::ElasticCone.value();
    p.friction.mu_static = mu;
    p.friction.stiffness = k;
    p.friction.damping = d;
    let (block, _) = Block::new(&p, None).unwrap();
    for _ in 0..5_000 {
        let pos = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-0.01, 0.002)];
        let vel = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-0.5, 0.5)];
        let u = [rng.range(-0.01, 0.01), rng.range(-0.01, 0.01)];
        let inputs = Inputs::of_frames(Frame::default(), Frame { r_0: pos, q: [1.0, 0.0, 0.0, 0.0], v_0: vel, w_0: [0.0; 3] });
        let states = [PointState { tangential: TangentialState { deflection: Vec3::new(u[0], u[1], 0.0), slipping: false }, onset_speed: 0.0 }];
        let mut out = Outputs::default();
        block.evaluate(&inputs, &mut Vec::new(), &states, &mut out).unwrap();
        let (fn_ref, ft_ref, _, status) = gcontact_3d(k, d, mu, pos, vel, u);
        let scale = fn_ref + 1.0;
        assert!(close(out.frame_b.f_0[2], fn_ref, scale, 1e-12));
        assert!(close(out.frame_b.f_0[0], ft_ref[0], scale, 1e-12));
        assert!(close(out.frame_b.f_0[1], ft_ref[1], scale, 1e-12));
        assert_eq!(out.sticking, status == Status::Sticking);
        assert_eq!(out.active, status != Status::Apart);
    }
}
