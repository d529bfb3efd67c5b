//! Inside surfaces (`geometry_X.inside`) through the block: a ball resting in a spherical socket
//! and a shaft resting in a bearing carry their weight at the closed-form depth, a tilted shaft
//! gets a restoring couple, exchanging A and B mirrors every wrench, Newton III holds on random
//! poses, and every inside pair the block does not offer is refused naming the switch, the pair
//! and what is offered.

use contact_force::block::{Block, Frame, GeometryParameters, Inputs, Outputs, Parameters};
use contact_force::physics::math::Vec3;
use contact_force::physics::shape::ShapeKind;

mod support;
use support::Rng;

/// The offered inside pairs: the inside shape, then what lies in it.
const OFFERED: [(ShapeKind, ShapeKind); 33] = {
    use ShapeKind::*;
    [
        (Sphere, Point),
        (Sphere, Sphere),
        (Sphere, Capsule),
        (Sphere, Cylinder),
        (Sphere, Box),
        (Sphere, ConvexHull),
        (Sphere, PointCloud),
        (Box, Point),
        (Box, Sphere),
        (Box, Capsule),
        (Box, Cylinder),
        (Box, Box),
        (Box, ConvexHull),
        (Box, PointCloud),
        (Cylinder, Point),
        (Cylinder, Sphere),
        (Cylinder, Capsule),
        (Cylinder, Cylinder),
        (Cylinder, Box),
        (Cylinder, ConvexHull),
        (Cylinder, PointCloud),
        (Capsule, Point),
        (Capsule, Sphere),
        (Capsule, Capsule),
        (Capsule, Box),
        (Capsule, ConvexHull),
        (Capsule, PointCloud),
        (Ellipsoid, Point),
        (Ellipsoid, Sphere),
        (Ellipsoid, Capsule),
        (Ellipsoid, Box),
        (Ellipsoid, ConvexHull),
        (Ellipsoid, PointCloud),
    ]
};

/// A hull (an irregular octahedron) and a cloud (20 points) of about 0.06 across, written once
/// into the temporary folder: their paths.
fn files() -> (String, String) {
    let dir = support::scratch_dir("inside");
    // Written under a name of this thread's and renamed: the tests run on several threads, and a
    // reader sees the old file or the new one, never a half-written one.
    let write = |path: &std::path::Path, text: &str| {
        let scratch = path.with_extension(format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_alphanumeric(), ""));
        std::fs::write(&scratch, text).unwrap();
        std::fs::rename(&scratch, path).unwrap();
    };
    let hull = dir.join("hull.csv");
    write(&hull, "0.05,0,0\n-0.04,0.01,0\n0,0.06,0.01\n0.01,-0.05,0\n0,0,0.07\n0.01,0.01,-0.045\n");
    let cloud = dir.join("cloud.csv");
    let mut rng = Rng(0xc10d_0021);
    let text: String = (0..20).map(|_| rng.vec(0.05)).map(|p| format!("{},{},{}\n", p.x, p.y, p.z)).collect();
    write(&cloud, &text);
    (hull.to_str().unwrap().to_string(), cloud.to_str().unwrap().to_string())
}

fn evaluate(block: &Block, inputs: &Inputs) -> Outputs {
    let mut out = Outputs::default();
    block.evaluate(inputs, &mut Vec::new(), &[], &mut out).unwrap();
    out
}

fn at_rest(r_0: [f64; 3], q: [f64; 4]) -> Frame {
    Frame { r_0, q, v_0: [0.0; 3], w_0: [0.0; 3] }
}

const IDENTITY: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

/// A geometry's parameters: the shape, its radius and length (and a box's or an ellipsoid's size
/// from them: `2 radius` across, `length` high), inside or not; a hull's or a cloud's file from
/// [`files`].
fn shape(kind: ShapeKind, radius: f64, length: f64, inside: bool) -> GeometryParameters {
    let mut p = Parameters::default().geometry_a;
    p.shape = kind.value();
    p.radius = radius;
    p.length = length;
    p.size = match kind {
        ShapeKind::Ellipsoid => [radius, 0.8 * radius, length / 2.0],
        _ => [2.0 * radius, 1.6 * radius, length],
    };
    p.inside = inside;
    match kind {
        ShapeKind::ConvexHull => p.file = files().0,
        ShapeKind::PointCloud => p.file = files().1,
        _ => {}
    }
    p
}

/// A holder (A, fixed at the origin) and what rests in it (B), with a linear spring of stiffness
/// `k` and nothing else: at rest the damping and the friction carry nothing.
fn resting(holder: GeometryParameters, held: GeometryParameters, k: f64) -> Block {
    let mut p = Parameters { geometry_a: holder, geometry_b: held, ..Parameters::default() };
    p.normal.stiffness = k;
    Block::new(&p, None).unwrap_or_else(|e| panic!("{e}")).0
}

#[test]
fn a_ball_in_a_socket_and_a_shaft_in_a_bearing_carry_their_weight_at_the_closed_form_depth() {
    let (k, m, g) = (1e6, 2.5, 9.81);
    let weight = m * g;
    // A ball of radius r in a socket of radius R, sunk by the static depth m g / k: its centre is
    // R - r + depth below the socket's centre.
    let (big_r, r) = (0.1, 0.03);
    let depth = weight / k;
    let block = resting(shape(ShapeKind::Sphere, big_r, 0.0, true), shape(ShapeKind::Sphere, r, 0.0, false), k);
    let inputs = Inputs::of_frames(at_rest([0.0; 3], IDENTITY), at_rest([0.0, 0.0, -(big_r - r + depth)], IDENTITY));
    let out = evaluate(&block, &inputs);
    assert!((out.frame_b.f_0[2] - weight).abs() <= 1e-9 * weight, "the socket holds {} N against {weight} N: {out:?}", out.frame_b.f_0[2]);
    assert!(out.frame_b.f_0[0].abs() + out.frame_b.f_0[1].abs() <= 1e-12 * weight);
    assert!((out.separation + depth).abs() <= 1e-12, "{}", out.separation);
    assert_eq!(out.points, 1);

    // A shaft (a cylinder and a capsule) of radius r lying in a bearing of radius R along W's x:
    // both ends of its part in the bearing carry half the weight, each m g / (2 k) deep.
    let (big_r, r) = (0.05, 0.045);
    let along_x = [std::f64::consts::FRAC_1_SQRT_2, 0.0, std::f64::consts::FRAC_1_SQRT_2, 0.0];
    for kind in [ShapeKind::Cylinder, ShapeKind::Capsule] {
        let mut bearing = shape(ShapeKind::Cylinder, big_r, 0.2, true);
        bearing.q = along_x;
        let mut shaft = shape(kind, r, 0.3, false);
        shaft.q = along_x;
        let block = resting(bearing, shaft, k);
        let depth = weight / (2.0 * k);
        let inputs = Inputs::of_frames(at_rest([0.0; 3], IDENTITY), at_rest([0.02, 0.0, -(big_r - r + depth)], IDENTITY));
        let out = evaluate(&block, &inputs);
        assert!((out.frame_b.f_0[2] - weight).abs() <= 1e-9 * weight, "{kind:?}: the bearing holds {} N against {weight} N", out.frame_b.f_0[2]);
        assert_eq!(out.points, 2, "{kind:?}");
        assert!((out.separation + depth).abs() <= 1e-12, "{kind:?}: {}", out.separation);
        // The two points at the bearing's ends (x = -0.1 and 0.1) share the load equally, so the
        // weight acts under the bearing's centre: no torque about it (B's origin is 0.02 off).
        let torque_about_centre = Vec3::from(out.frame_b.t_0) + Vec3::from(inputs.frame_b.r_0).cross(&Vec3::from(out.frame_b.f_0));
        assert!(torque_about_centre.norm() <= 1e-9 * weight, "{kind:?}: {torque_about_centre}");
    }
}

#[test]
fn a_tilted_shaft_gets_a_couple_that_turns_it_back_into_line() {
    // A bearing along W's z, a capsule pitched about x by 0.15 rad about the bearing's centre:
    // its ends press into opposite sides of the wall and the couple turns it back (about -x).
    let block = resting(shape(ShapeKind::Cylinder, 0.05, 0.4, true), shape(ShapeKind::Capsule, 0.04, 0.2, false), 1e6);
    let tilt = 0.15_f64;
    let q = [(tilt / 2.0).cos(), (tilt / 2.0).sin(), 0.0, 0.0];
    let out = evaluate(&block, &Inputs::of_frames(at_rest([0.0; 3], IDENTITY), at_rest([0.0; 3], q)));
    assert_eq!(out.points, 2);
    assert!(Vec3::from(out.frame_b.f_0).norm() <= 1e-9 * Vec3::from(out.frame_b.t_0).norm(), "a pure couple: {:?}", out.frame_b.f_0);
    // Each end is 0.1 sin(tilt) off the axis and presses 0.1 sin(tilt) + 0.04 - 0.05 deep; the
    // two forces k depth, 2 x 0.1 cos(tilt) apart along the axis, make the couple.
    let depth = 0.1 * tilt.sin() + 0.04 - 0.05;
    let couple = 1e6 * depth * 2.0 * 0.1 * tilt.cos();
    assert!((out.frame_b.t_0[0] + couple).abs() <= 1e-9 * couple, "{:?} against -{couple}", out.frame_b.t_0);
}

#[test]
fn exchanging_a_and_b_mirrors_every_inside_pair_and_newton_three_holds() {
    let mut rng = Rng(0x1b51_de5a_fe00_0021);
    let mut touching = 0;
    // Every offered pair, and a bore closed at one end and at both.
    let closed = |ends| OFFERED.iter().filter(|(holder, _)| *holder == ShapeKind::Cylinder).map(move |&(holder, held)| (holder, held, ends));
    let cases: Vec<_> = OFFERED.iter().map(|&(holder, held)| (holder, held, [false, false])).chain(closed([true, false])).chain(closed([false, true])).collect();
    for &(holder, held, [end_bottom, end_top]) in &cases {
        let mut p = Parameters { geometry_a: shape(holder, 0.2, 0.5, true), geometry_b: shape(held, 0.06, 0.1, false), ..Parameters::default() };
        (p.geometry_a.end_bottom, p.geometry_a.end_top) = (end_bottom, end_top);
        p.geometry_a.r = rng.vec(0.02).into();
        p.geometry_a.q = rng.quaternion();
        p.geometry_b.q = rng.quaternion();
        p.normal.damping = 50.0;
        p.friction.tanh_gain = 20.0;
        let (block, _) = Block::new(&p, None).unwrap_or_else(|e| panic!("{holder:?}-{held:?}: {e}"));
        let mut swapped = p.clone();
        std::mem::swap(&mut swapped.geometry_a, &mut swapped.geometry_b);
        let (mirror_block, _) = Block::new(&swapped, None).unwrap_or_else(|e| panic!("{held:?}-{holder:?} inside: {e}"));
        for case in 0..60 {
            let frame = |rng: &mut Rng, reach: f64| Frame { r_0: rng.vec(reach).into(), q: rng.quaternion(), v_0: rng.vec(0.5).into(), w_0: rng.vec(2.0).into() };
            let inputs = Inputs::of_frames(frame(&mut rng, 0.05), frame(&mut rng, 0.2));
            let out = evaluate(&block, &inputs);
            let what = format!("{holder:?} inside (ends {end_bottom}, {end_top}) - {held:?} case {case}");
            assert!(out.all_finite(), "{what}: {out:?}");
            let (f_a, f_b) = (Vec3::from(out.frame_a.f_0), Vec3::from(out.frame_b.f_0));
            let scale = f_b.norm() + 1.0;
            assert!((f_a + f_b).norm() <= 1e-12 * scale, "{what}");
            let (r_a, r_b) = (Vec3::from(inputs.frame_a.r_0), Vec3::from(inputs.frame_b.r_0));
            let total = r_a.cross(&f_a) + Vec3::from(out.frame_a.t_0) + r_b.cross(&f_b) + Vec3::from(out.frame_b.t_0);
            assert!(total.norm() <= 1e-10 * scale, "{what}: torques about the origin add up to {total}");
            touching += usize::from(out.active);

            let mirror = evaluate(&mirror_block, &Inputs::of_frames(inputs.frame_b.clone(), inputs.frame_a.clone()));
            let close = |a: &[f64; 3], b: &[f64; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-12 * scale);
            assert!(close(&out.frame_a.f_0, &mirror.frame_b.f_0) && close(&out.frame_b.f_0, &mirror.frame_a.f_0), "{what}");
            assert!(close(&out.frame_a.t_0, &mirror.frame_b.t_0) && close(&out.frame_b.t_0, &mirror.frame_a.t_0), "{what}");
            assert_eq!((out.separation, out.points), (mirror.separation, mirror.points), "{what}");
            assert!(close(&out.n_0, &mirror.n_0.map(|x| -x)) || !out.separation.is_finite() || out.separation == f64::MAX, "{what}");
        }
    }
    assert!(touching > cases.len() * 10, "only {touching} touching cases of {}", cases.len() * 60);
}

#[test]
fn every_inside_pair_not_offered_is_refused_naming_the_switch_the_pair_and_what_is_offered() {
    let kinds: Vec<ShapeKind> = ShapeKind::ITEMS.iter().map(|i| ShapeKind::from_value(i.value).unwrap()).collect();
    let mut refused = 0;
    for &holder in &kinds {
        for &held in &kinds {
            if matches!(holder, ShapeKind::Mesh | ShapeKind::GridSurface | ShapeKind::Compound)
                || matches!(held, ShapeKind::Mesh | ShapeKind::GridSurface | ShapeKind::Compound)
            {
                // Refused for their missing file before their pair (a Compound in a cavity:
                // tests/compound.rs and tests/pair_table.rs).
                continue;
            }
            for inside_is_a in [true, false] {
                let mut p = Parameters::default();
                let (a, b) = if inside_is_a { (holder, held) } else { (held, holder) };
                p.geometry_a = shape(a, 0.2, 0.3, inside_is_a);
                p.geometry_b = shape(b, 0.05, 0.1, !inside_is_a);
                let result = p.validate(None);
                if OFFERED.contains(&(holder, held)) {
                    assert!(result.is_ok(), "{holder:?} inside - {held:?}: {:?}", result.err());
                    continue;
                }
                let e = result.err().unwrap_or_else(|| panic!("{holder:?} inside - {held:?} was accepted"));
                let switch = if inside_is_a { "geometry_a.inside" } else { "geometry_b.inside" };
                let message = e.to_string();
                assert!(e.variable.starts_with(switch), "{message}");
                assert!(message.contains(&format!("{} inside", holder.name())) && message.contains(held.name()), "{message}");
                assert!(message.contains("inside surfaces are offered for a Sphere"), "{message}");
                refused += 1;
            }
        }
    }
    assert!(refused > 100, "only {refused} refusals");
    // Two inside surfaces never touch as solids.
    let p = Parameters { geometry_a: shape(ShapeKind::Sphere, 0.2, 0.0, true), geometry_b: shape(ShapeKind::Sphere, 0.1, 0.0, true), ..Parameters::default() };
    let message = p.validate(None).unwrap_err().to_string();
    assert!(message.starts_with("geometry_a.inside, geometry_b.inside, "), "{message}");
    assert!(message.contains("both geometries are inside surfaces"), "{message}");
}

#[test]
fn derivatives_of_an_inside_pair_are_refused_with_the_reason() {
    let block = resting(shape(ShapeKind::Sphere, 0.1, 0.0, true), shape(ShapeKind::Sphere, 0.03, 0.0, false), 1e6);
    let message = block.differentiable().unwrap_err().to_string();
    assert!(message.contains("inside surface (geometry_X.inside) has no exact derivatives yet"), "{message}");
}

#[test]
fn end_faces_are_refused_on_anything_but_an_inside_cylinder() {
    for (kind, inside) in [(ShapeKind::Cylinder, false), (ShapeKind::Sphere, true), (ShapeKind::Box, false)] {
        for top in [false, true] {
            let mut p = Parameters { geometry_a: shape(ShapeKind::Sphere, 0.05, 0.0, false), geometry_b: shape(kind, 0.2, 0.3, inside), ..Parameters::default() };
            (p.geometry_b.end_bottom, p.geometry_b.end_top) = (!top, top);
            let e = p.validate(None).unwrap_err();
            let field = if top { "geometry_b.end_top" } else { "geometry_b.end_bottom" };
            assert_eq!((e.variable.as_str(), e.value.as_str()), (field, "true"), "{e}");
            assert!(e.to_string().contains("an end face is a wall of an inside Cylinder"), "{e}");
        }
    }
}

#[test]
fn a_box_on_a_container_floor_a_ball_on_a_closed_bore_and_balls_in_a_pill_and_an_egg_carry_their_weight_at_the_closed_form_depth() {
    let (k, m, g) = (1e6, 3.0, 9.81);
    let weight = m * g;
    // A box of 0.2 x 0.1 x 0.04 on the floor of a container 1 x 0.8 x 0.6, off centre: its four
    // bottom corners each carry a quarter of the weight, m g / (4 k) deep.
    let mut container = shape(ShapeKind::Box, 0.0, 0.0, true);
    container.size = [1.0, 0.8, 0.6];
    let mut part = shape(ShapeKind::Box, 0.0, 0.0, false);
    part.size = [0.2, 0.1, 0.04];
    let depth = weight / (4.0 * k);
    let block = resting(container, part, k);
    let inputs = Inputs::of_frames(at_rest([0.0; 3], IDENTITY), at_rest([0.2, -0.1, -0.3 + 0.02 - depth], IDENTITY));
    let out = evaluate(&block, &inputs);
    assert!((out.frame_b.f_0[2] - weight).abs() <= 1e-9 * weight, "the floor holds {} N against {weight} N", out.frame_b.f_0[2]);
    assert_eq!(out.points, 4);
    assert!((out.separation + depth).abs() <= 1e-12, "{}", out.separation);
    assert!(Vec3::from(out.frame_b.t_0).norm() <= 1e-9 * weight, "the corners share the load: {:?}", out.frame_b.t_0);

    // A ball of radius 0.02 on the closed bottom of an upright bore of radius 0.05 (the wall
    // clear): m g / k deep at the bottom face, 0.1 below the bore's centre.
    let mut bore = shape(ShapeKind::Cylinder, 0.05, 0.2, true);
    bore.end_bottom = true;
    let depth = weight / k;
    let block = resting(bore.clone(), shape(ShapeKind::Sphere, 0.02, 0.0, false), k);
    let out = evaluate(&block, &Inputs::of_frames(at_rest([0.0; 3], IDENTITY), at_rest([0.01, 0.0, -0.1 + 0.02 - depth], IDENTITY)));
    assert!((out.frame_b.f_0[2] - weight).abs() <= 1e-9 * weight && out.points == 1, "{out:?}");
    assert!((out.separation + depth).abs() <= 1e-12);
    // Open at the bottom, the same ball falls out: no force.
    bore.end_bottom = false;
    let block = resting(bore, shape(ShapeKind::Sphere, 0.02, 0.0, false), k);
    let out = evaluate(&block, &Inputs::of_frames(at_rest([0.0; 3], IDENTITY), at_rest([0.01, 0.0, -0.1 + 0.02 - depth], IDENTITY)));
    assert_eq!((out.points, out.frame_b.f_0), (0, [0.0; 3]));

    // A ball of radius r in the bottom cap of an upright pill of radius R (a socket there), and
    // on the smallest axis of an egg with semi-axes (0.3, 0.2, 0.1), where the pole is the
    // closest wall point (the ball's centre is nearer to it than the wall's radii of curvature).
    let (big_r, r) = (0.1, 0.03);
    let depth = weight / k;
    let block = resting(shape(ShapeKind::Capsule, big_r, 0.4, true), shape(ShapeKind::Sphere, r, 0.0, false), k);
    let out = evaluate(&block, &Inputs::of_frames(at_rest([0.0; 3], IDENTITY), at_rest([0.0, 0.0, -0.2 - (big_r - r + depth)], IDENTITY)));
    assert!((out.frame_b.f_0[2] - weight).abs() <= 1e-9 * weight && (out.separation + depth).abs() <= 1e-12, "{out:?}");
    let mut egg = shape(ShapeKind::Ellipsoid, 0.0, 0.0, true);
    egg.size = [0.3, 0.2, 0.1];
    let block = resting(egg, shape(ShapeKind::Sphere, r, 0.0, false), k);
    let out = evaluate(&block, &Inputs::of_frames(at_rest([0.0; 3], IDENTITY), at_rest([0.0, 0.0, -(0.1 - r + depth)], IDENTITY)));
    assert!((out.frame_b.f_0[2] - weight).abs() <= 1e-9 * weight && (out.separation + depth).abs() <= 1e-12, "{out:?}");
    assert!(out.frame_b.f_0[0].abs() + out.frame_b.f_0[1].abs() <= 1e-12 * weight);
}

#[test]
fn a_ball_in_a_sphere_and_a_cylinder_concentric_in_a_sphere_have_the_closed_form_clearance() {
    // A sphere in a sphere, offset by d: R - d - r. A cylinder of radius r and half length h
    // concentric with a socket: every rim point is sqrt(r^2 + h^2) from the centre.
    let block = resting(shape(ShapeKind::Sphere, 0.3, 0.0, true), shape(ShapeKind::Sphere, 0.1, 0.0, false), 1e6);
    let out = evaluate(&block, &Inputs::of_frames(at_rest([0.1, 0.2, 0.3], IDENTITY), at_rest([0.15, 0.2, 0.3], IDENTITY)));
    assert!((out.separation - (0.3 - 0.05 - 0.1)).abs() <= 1e-15, "{}", out.separation);
    let block = resting(shape(ShapeKind::Sphere, 0.3, 0.0, true), shape(ShapeKind::Cylinder, 0.1, 0.4, false), 1e6);
    let q = [0.9f64.cos(), 0.9f64.sin(), 0.0, 0.0];
    let out = evaluate(&block, &Inputs::of_frames(at_rest([0.1, 0.2, 0.3], IDENTITY), at_rest([0.1, 0.2, 0.3], q)));
    assert!((out.separation - (0.3 - 0.05f64.sqrt())).abs() <= 1e-15, "{}", out.separation);
    // Pressed 1 mm into the wall all round (R = sqrt(r^2 + h^2) - 0.001): the eight rim points
    // press equally along lines through the centre, so the net force and torque vanish.
    let block = resting(shape(ShapeKind::Sphere, 0.05f64.sqrt() - 0.001, 0.0, true), shape(ShapeKind::Cylinder, 0.1, 0.4, false), 1e6);
    let out = evaluate(&block, &Inputs::of_frames(at_rest([0.1, 0.2, 0.3], IDENTITY), at_rest([0.1, 0.2, 0.3], q)));
    assert_eq!(out.points, 8);
    assert!(Vec3::from(out.frame_b.f_0).norm() <= 1e-9 && Vec3::from(out.frame_b.t_0).norm() <= 1e-9, "{out:?}");
}
