//! Tests of the lean single-point path against the general path: outputs, notes, refusals
//! and derivatives.

use super::super::jacobian::INPUTS;
use super::super::{Block, Frame, InputError, Inputs, Notes, Outputs, Parameters, PointOutput, POINT_OUTPUTS};
use crate::physics::friction::FrictionLawKind;
use crate::physics::normal::NormalLawKind;
use crate::physics::shape::ShapeKind;

use crate::test_rng::XorShift64 as Rng;

/// Outputs left by an earlier evaluation of another scene: every slot non-zero.
fn stale() -> Outputs {
    let mut out = Outputs { active: true, points: 3, separation: -1.0, normal_force: 2.0, sticking: true, slip_speed: 4.0, ..Outputs::default() };
    for (i, slot) in out.point.iter_mut().enumerate() {
        *slot = PointOutput { active: true, separation: -(i as f64), normal_force: 1.0, friction_force: 0.5, p_0: [1.0, 2.0, 3.0] };
    }
    out.frame_a.t_0 = [7.0; 3];
    out.slots_written = POINT_OUTPUTS as u8;
    out
}

/// Both paths' outputs for `inputs` from the same stale outputs, with their notes or errors.
fn both(block: &Block, inputs: &Inputs) -> (Result<Notes, InputError>, Outputs, Result<Notes, InputError>, Outputs) {
    let (mut lean, mut general) = (stale(), stale());
    let lean_result = block.evaluate(inputs, &mut Vec::new(), &[], &mut lean);
    let general_result = block.evaluate_points(inputs, &mut Vec::new(), &[], &mut general);
    (lean_result, lean, general_result, general)
}

/// Every output of `lean` equals the one of `general` to 1e-12 relative to the size of its
/// kind of output (forces, torques, positions, speeds) at these inputs, the flags and counts
/// exactly. The depth is a small difference of positions of the size of `reach`, so its
/// rounding (taken as 64 eps reach) moves the force by `slope` (|df/dd|, measured) times as
/// much: that is allowed on top.
fn agree(lean: &Outputs, general: &Outputs, inputs: &Inputs, slope: f64) -> Result<bool, String> {
    let max = |xs: &[f64]| xs.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    let g = general;
    let reach = 1.0 + max(&inputs.frame_a.r_0) + max(&inputs.frame_b.r_0);
    let rounding = 64.0 * f64::EPSILON * reach;
    // At a separation within that rounding of 0 the paths may disagree on touching, and a
    // law with damping jumps there (b dd at the least depth): the geometry is compared, the
    // forces are not.
    let edge = g.separation.abs() <= rounding;
    let force = if edge { f64::INFINITY } else { max(&[max(&g.frame_b.f_0), g.normal_force, g.friction_force]) + slope * rounding / 1e-12 };
    let speed = max(&inputs.frame_a.v_0) + max(&inputs.frame_b.v_0) + (max(&inputs.frame_a.w_0) + max(&inputs.frame_b.w_0)) * reach;
    let mut pairs: Vec<(&str, f64, f64, f64)> = Vec::new();
    for k in 0..3 {
        pairs.push(("frame_a.f_0", lean.frame_a.f_0[k], g.frame_a.f_0[k], force));
        pairs.push(("frame_b.f_0", lean.frame_b.f_0[k], g.frame_b.f_0[k], force));
        pairs.push(("frame_a.t_0", lean.frame_a.t_0[k], g.frame_a.t_0[k], force * reach));
        pairs.push(("frame_b.t_0", lean.frame_b.t_0[k], g.frame_b.t_0[k], force * reach));
        pairs.push(("p_0", lean.p_0[k], g.p_0[k], reach));
        pairs.push(("n_0", lean.n_0[k], g.n_0[k], 1.0));
    }
    pairs.push(("separation", lean.separation, g.separation, reach));
    pairs.push(("normal_force", lean.normal_force, g.normal_force, force));
    pairs.push(("friction_force", lean.friction_force, g.friction_force, force));
    pairs.push(("slip_speed", lean.slip_speed, g.slip_speed, speed));
    for (i, (l, p)) in lean.point.iter().zip(&g.point).enumerate() {
        if l.active != p.active && !edge {
            return Err(format!("point[{i}].active {} {}", l.active, p.active));
        }
        pairs.push(("point.separation", l.separation, p.separation, reach));
        pairs.push(("point.normal_force", l.normal_force, p.normal_force, force));
        pairs.push(("point.friction_force", l.friction_force, p.friction_force, force));
        for k in 0..3 {
            pairs.push(("point.p_0", l.p_0[k], p.p_0[k], reach));
        }
    }
    for (name, l, p, scale) in pairs {
        // Equal numbers (both MAX when apart) or within the tolerance.
        if !(l == p || (l - p).abs() <= 1e-12 * scale) {
            return Err(format!("{name}: lean {l:e}, general {p:e}, scale {scale:e}"));
        }
    }
    if (lean.active, lean.points, lean.sticking) != (g.active, g.points, g.sticking) && !edge {
        return Err(format!("active/points/sticking: lean {:?}, general {:?}", (lean.active, lean.points, lean.sticking), (g.active, g.points, g.sticking)));
    }
    Ok(edge)
}

/// The lean path's Jacobian (26 unit seeds) and a directional derivative equal the general
/// path's ([`Block::tangents_of_points`]) to 1e-9 relative to the largest entry of the
/// separation's row, or of the forces' and torques' rows (both are exact derivatives of the same function, rounded differently); at the `edge`
/// (a separation within rounding of zero) the separation's only. Errors agree exactly.
fn tangents_agree(block: &Block, inputs: &Inputs, edge: bool) -> Result<(), String> {
    let units: [[f64; INPUTS]; INPUTS] = std::array::from_fn(|i| std::array::from_fn(|j| (i == j) as u8 as f64));
    let direction: [[f64; INPUTS]; 1] = [std::array::from_fn(|j| ((j * 7 + 3) % 11) as f64 / 5.0 - 1.0)];
    let mut scratch = Vec::new();
    let lean = block.output_tangents(inputs, &[], &mut scratch, &units).map_err(|e| e.to_string())?;
    let general = block.tangents_of_points(inputs, &[], &mut scratch, &units, None, false).map_err(|e| e.to_string())?;
    let lean_direction = block.output_tangents(inputs, &[], &mut scratch, &direction).map_err(|e| e.to_string())?;
    let general_direction = block.tangents_of_points(inputs, &[], &mut scratch, &direction, None, false).map_err(|e| e.to_string())?;
    let rows = |m: &[[f64; INPUTS]; 14], d: &[[f64; 1]; 14]| -> Vec<Vec<f64>> { m.iter().zip(d).map(|(r, d)| r.iter().copied().chain([d[0]]).collect()).collect() };
    let (lean, general) = (rows(&lean, &lean_direction), rows(&general, &general_direction));
    let largest = |rows: &[Vec<f64>]| rows.iter().flatten().fold(0.0_f64, |m, x| m.max(x.abs()));
    // The forces' and torques' rows share one scale (the torques' arms are below 2 m).
    let wrench_scale = largest(&general[..12]).max(largest(&general[13..]));
    for (i, (l, g)) in lean.iter().zip(&general).enumerate() {
        if edge && i != 12 {
            continue;
        }
        let scale = if i == 12 { largest(&general[12..13]) } else { wrench_scale };
        for (j, (l, g)) in l.iter().zip(g).enumerate() {
            if !(l == g || (l - g).abs() <= 1e-9 * scale) {
                return Err(format!("row {i} column {j}: lean {l:e}, general {g:e}, row scale {scale:e}"));
            }
        }
    }
    Ok(())
}

/// Every stateless normal law with every velocity-based friction law, plane as A and as B,
/// sphere and point, with and without `max_depth` and geometry offsets, random poses (some
/// quaternions off unit, one plane in five in W's orientation: the ground), twists and
/// heights (apart, touching, passed through), and a few exact cases (at rest, zero
/// separation, refused quaternions): the lean path gives the general path's outputs to
/// rounding ([`agree`]) and their derivatives ([`tangents_agree`]), and its notes and errors
/// exactly.
#[test]
fn the_lean_path_gives_the_general_outputs() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let frictions = [FrictionLawKind::None, FrictionLawKind::SmoothStickSlip, FrictionLawKind::AdamsCoulomb, FrictionLawKind::Tanh, FrictionLawKind::Stribeck];
    let (mut checked, mut carrying, mut apart, mut passed, mut noted, mut identical, mut edges, mut grounds) = (0, 0, 0, 0, 0, 0, 0, 0);
    for item in NormalLawKind::ITEMS {
        let normal = NormalLawKind::from_value(item.value).unwrap();
        if normal == NormalLawKind::Restitution {
            continue; // Stateful: the general path.
        }
        if normal == NormalLawKind::ProvidedByInput {
            continue; // The forces come from inputs: the provided path (tests/provided_laws.rs).
        }
        for friction in frictions {
            for plane_is_a in [true, false] {
                for (round, radius) in [(ShapeKind::Sphere, 0.1), (ShapeKind::Point, 0.0)] {
                    for (max_depth, offsets) in [(0.0, false), (2e-3, false), (0.0, true), (2e-3, true)] {
                        let mut p = Parameters::default();
                        let (plane, sphere) = if plane_is_a { (&mut p.geometry_a, &mut p.geometry_b) } else { (&mut p.geometry_b, &mut p.geometry_a) };
                        plane.shape = ShapeKind::Plane.value();
                        sphere.shape = round.value();
                        if round == ShapeKind::Sphere {
                            sphere.radius = radius;
                        }
                        if offsets {
                            plane.r = rng.vec(0.2);
                            plane.q = rng.quaternion(0.0);
                            sphere.r = rng.vec(0.2);
                            sphere.q = rng.quaternion(0.0);
                        }
                        p.normal.law = normal.value();
                        p.normal.max_depth = max_depth;
                        p.friction.law = friction.value();
                        let block = Block::new(&p, None).unwrap().0;
                        assert!(block.single.is_some(), "{normal:?} {friction:?}");
                        for case in 0..40 {
                            let frame = |rng: &mut Rng| Frame {
                                r_0: rng.vec(0.5),
                                q: rng.quaternion(if case % 4 == 0 { 0.05 } else { 1e-9 }),
                                v_0: rng.vec(0.3),
                                w_0: rng.vec(2.0),
                            };
                            let mut inputs = Inputs::of_frames(frame(&mut rng), frame(&mut rng));
                            if case % 5 == 3 {
                                // The ground: the plane's frame in W's orientation exactly.
                                let plane_frame = if plane_is_a { &mut inputs.frame_a } else { &mut inputs.frame_b };
                                plane_frame.q = [1.0, 0.0, 0.0, 0.0];
                                grounds += 1;
                            }
                            if case == 1 {
                                inputs.frame_a.v_0 = [0.0; 3];
                                inputs.frame_b.v_0 = [0.0; 3];
                                inputs.frame_a.w_0 = [0.0; 3];
                                inputs.frame_b.w_0 = [0.0; 3];
                            }
                            // The sphere's geometry at a height about its radius over the
                            // plane's surface (geometry frames: through the general path's
                            // own contact, then moved along the normal).
                            let mut scratch = Vec::new();
                            let mut out = Outputs::default();
                            block.evaluate_points(&inputs, &mut scratch, &[], &mut out).unwrap();
                            let n = out.n_0;
                            let target = match case {
                                2 => 0.0,
                                _ => rng.range(-4e-3, 2e-3),
                            };
                            let shift = target - out.separation;
                            let sphere_frame = if plane_is_a { &mut inputs.frame_b } else { &mut inputs.frame_a };
                            // n points from A to B: B moves along it, A against it.
                            let sign = if plane_is_a { 1.0 } else { -1.0 };
                            for (r, n) in sphere_frame.r_0.iter_mut().zip(n) {
                                *r += sign * shift * n;
                            }
                            block.evaluate_points(&inputs, &mut scratch, &[], &mut out).unwrap();
                            match out.normal_force > 0.0 {
                                true => carrying += 1,
                                false if out.separation >= 0.0 => apart += 1,
                                false => passed += 1,
                            }
                            // |df/dd| here, from the general path 1 nm either side.
                            let force_at = |dz: f64| {
                                let mut moved = inputs.clone();
                                let sphere_frame = if plane_is_a { &mut moved.frame_b } else { &mut moved.frame_a };
                                for (r, n) in sphere_frame.r_0.iter_mut().zip(n) {
                                    *r += sign * dz * n;
                                }
                                let mut out = Outputs::default();
                                block.evaluate_points(&moved, &mut Vec::new(), &[], &mut out).unwrap();
                                out.frame_b.f_0
                            };
                            let (up, down) = (force_at(1e-9), force_at(-1e-9));
                            let slope = (0..3).map(|k| (up[k] - down[k]).powi(2)).sum::<f64>().sqrt() / 2e-9;
                            let (lean_result, lean, general_result, general) = both(&block, &inputs);
                            assert_eq!(lean_result, general_result);
                            let edge = match agree(&lean, &general, &inputs, slope) {
                                Ok(edge) => edge,
                                Err(e) => panic!("{e}: {normal:?} {friction:?} plane is A: {plane_is_a} {round:?} max_depth {max_depth} offsets {offsets} {inputs:?}"),
                            };
                            edges += edge as usize;
                            if let Err(e) = tangents_agree(&block, &inputs, edge) {
                                panic!("derivatives: {e}: {normal:?} {friction:?} plane is A: {plane_is_a} {round:?} max_depth {max_depth} offsets {offsets} {inputs:?}");
                            }
                            let bits = |o: &Outputs| format!("{o:?}");
                            identical += (bits(&lean) == bits(&general)) as usize;
                            let notes = lean_result.unwrap();
                            noted += (notes.frame_a_q_not_unit || notes.frame_b_q_not_unit) as usize;
                            checked += 1;
                        }
                        for bad in [[0.0; 4], [f64::NAN, 0.0, 0.0, 1.0], [1e300, 0.0, 0.0, 0.0]] {
                            for a in [true, false] {
                                let mut inputs = Inputs::default();
                                if a {
                                    inputs.frame_a.q = bad;
                                } else {
                                    inputs.frame_b.q = bad;
                                }
                                let (lean_result, lean, general_result, general) = both(&block, &inputs);
                                assert!(lean_result.is_err());
                                assert_eq!(lean_result, general_result);
                                // Nothing written on a refusal.
                                assert_eq!(format!("{lean:?}"), format!("{general:?}"));
                                let seed = [[1.0; INPUTS]];
                                let lean = block.output_tangents(&inputs, &[], &mut Vec::new(), &seed);
                                assert!(lean.is_err());
                                assert_eq!(lean, block.tangents_of_points(&inputs, &[], &mut Vec::new(), &seed, None, false));
                            }
                        }
                    }
                }
            }
        }
    }
    // The cases cover what they claim to.
    assert_eq!(checked, 6 * 5 * 2 * 2 * 4 * 40);
    assert!(carrying > checked / 3 && apart > checked / 5 && passed > checked / 50, "{carrying} {apart} {passed}");
    assert!(noted > checked / 8, "{noted}");
    assert_eq!(grounds, checked / 5);
    // Only the cases placed at separation 0 on purpose (one in 40) are at the edge.
    assert!(edges <= checked / 40, "{edges} of {checked} cases at the edge");
    // Most cases differ in some last bit (the lean normal, the contact point itself).
    eprintln!("{identical} of {checked} cases bit-identical, {edges} at the edge");
}

/// One `Outputs` written in turn by a box on a plane (the general path, four slots), by a
/// sphere on a plane (the lean path) and by the box again: each time every slot is what a
/// fresh `Outputs` would hold after that evaluation alone.
#[test]
fn the_lean_path_clears_the_slots_another_path_wrote() {
    let block = |shape: ShapeKind| {
        let mut p = Parameters::default();
        p.geometry_a.shape = ShapeKind::Plane.value();
        p.geometry_b.shape = shape.value();
        p.geometry_b.size = [0.1, 0.1, 0.1];
        Block::new(&p, None).unwrap().0
    };
    let (boxed, sphere) = (block(ShapeKind::Box), block(ShapeKind::Sphere));
    assert!(boxed.single.is_none() && sphere.single.is_some());
    let mut inputs = Inputs::default();
    inputs.frame_b.r_0 = [0.0, 0.0, 0.0499];
    inputs.frame_b.v_0 = [0.1, 0.02, -0.01];
    let alone = |block: &Block| {
        let mut out = Outputs::default();
        block.evaluate(&inputs, &mut Vec::new(), &[], &mut out).unwrap();
        out
    };
    let mut shared = Outputs::default();
    for block in [&boxed, &sphere, &boxed, &sphere] {
        block.evaluate(&inputs, &mut Vec::new(), &[], &mut shared).unwrap();
        assert_eq!(shared.point, alone(block).point);
    }
    assert_eq!(alone(&boxed).point.iter().filter(|p| p.active).count(), 4);
    assert!(alone(&sphere).point[1..].iter().all(|p| *p == PointOutput::default()));
}

/// Stateful laws and couples keep the general path (they need its per-point work).
#[test]
fn stateful_laws_and_couples_take_the_general_path() {
    let plane_sphere = || {
        let mut p = Parameters::default();
        p.geometry_a.shape = ShapeKind::Plane.value();
        p.geometry_b.shape = ShapeKind::Sphere.value();
        p
    };
    assert!(Block::new(&plane_sphere(), None).unwrap().0.single.is_some());
    let mut p = plane_sphere();
    p.normal.law = NormalLawKind::Restitution.value();
    assert!(Block::new(&p, None).unwrap().0.single.is_none());
    let mut p = plane_sphere();
    p.friction.law = FrictionLawKind::ElasticCone.value();
    assert!(Block::new(&p, None).unwrap().0.single.is_none());
    let mut p = plane_sphere();
    p.friction.torque_radius = 0.01;
    assert!(Block::new(&p, None).unwrap().0.single.is_none());
    let mut p = plane_sphere();
    p.friction.rolling = 0.01;
    assert!(Block::new(&p, None).unwrap().0.single.is_none());
    let mut p = plane_sphere();
    p.geometry_b.shape = ShapeKind::Box.value();
    assert!(Block::new(&p, None).unwrap().0.single.is_none());
}
