//! PlanarContact against closed forms and against ContactForce itself: a disc on a line is the
//! spatial sphere on a plane in the same motion; a cam and its follower give the analytic force;
//! exchanging A and B mirrors the outputs; every force obeys Newton's third law.

use std::f64::consts::{FRAC_1_SQRT_2, PI};

use contact_force::block::{Block as SpatialBlock, Frame as SpatialFrame, Inputs as SpatialInputs, Outputs as SpatialOutputs, Parameters as SpatialParameters};
use contact_force::physics::contact::PointState;
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::shape::ShapeKind;
use planar_contact::block::{Frame, Inputs, Outputs, Parameters};
use planar_contact::shape::PlanarShapeKind;

fn evaluate(p: &Parameters, inputs: &Inputs) -> Outputs {
    let (block, _) = p.validate(None).unwrap();
    let mut out = Outputs::default();
    block.evaluate(inputs, &mut Vec::new(), &[PointState::default(); 8], &mut out);
    out
}

fn frame(x: f64, y: f64, phi: f64, vx: f64, vy: f64, w: f64) -> Frame {
    Frame { r_0: [x, y], phi, v_0: [vx, vy], w }
}

fn close(a: f64, b: f64, scale: f64, what: &str) {
    assert!((a - b).abs() <= 1e-12 * scale, "{what}: {a} against {b} (difference {:e}, scale {scale})", a - b);
}

/// The spatial frame of a planar one: the same motion in the x-y plane, turned about z.
fn spatial(f: &Frame) -> SpatialFrame {
    let (s, c) = (f.phi / 2.0).sin_cos();
    SpatialFrame { r_0: [f.r_0[0], f.r_0[1], 0.0], q: [c, 0.0, 0.0, s], v_0: [f.v_0[0], f.v_0[1], 0.0], w_0: [0.0, 0.0, f.w] }
}

/// Every built-in law (ProvidedByInput, ContactForce's own, is refused: see below) with
/// parameters that make each of its terms count.
fn law_settings() -> Vec<(i64, i64)> {
    let mut all = Vec::new();
    let provided = [NormalLawKind::ProvidedByInput.value(), FrictionLawKind::ProvidedByInput.value()];
    for normal in NormalLawKind::ITEMS.iter().filter(|i| i.value != provided[0]) {
        for friction in FrictionLawKind::ITEMS.iter().filter(|i| i.value != provided[1]) {
            all.push((normal.value, friction.value));
        }
    }
    all
}

/// ContactForce's laws provided by input need its per-slot force inputs, which PlanarContact does
/// not have: refused, naming the law parameter.
#[test]
fn laws_provided_by_input_are_refused() {
    let mut p = Parameters::default();
    p.normal.law = NormalLawKind::ProvidedByInput.value();
    let message = p.validate(None).expect_err("refused").to_string();
    assert!(message.contains("normal.law") && message.contains("ProvidedByInput"), "{message}");
    let mut p = Parameters::default();
    p.friction.law = FrictionLawKind::ProvidedByInput.value();
    let message = p.validate(None).expect_err("refused").to_string();
    assert!(message.contains("friction.law") && message.contains("ProvidedByInput"), "{message}");
}

#[test]
fn a_disc_on_a_line_is_the_sphere_on_a_plane_of_contact_force() {
    let radius = 0.1;
    // The plane's normal z turned onto the line's normal y: a quarter turn about x.
    let plane_q = [FRAC_1_SQRT_2, -FRAC_1_SQRT_2, 0.0, 0.0];
    let motions = [
        (frame(0.0, 0.0, 0.0, 0.0, 0.0, 0.0), frame(0.3, 0.099, 0.2, 0.4, -0.3, 5.0)),
        (frame(0.1, -0.2, 0.3, 0.05, 0.1, -0.7), frame(0.2, -0.1, 1.0, 0.3, 0.2, 2.0)),
        (frame(0.0, 0.0, -0.4, 0.0, 0.0, 0.0), frame(-0.05, 0.097, 0.0, -1.0, -0.5, 0.0)),
    ];
    let (mut compared, mut forced) = (0, 0);
    for (normal, friction) in law_settings() {
        let mut p = Parameters::default();
        p.normal.law = normal;
        p.friction.law = friction;
        p.normal.damping = 300.0;
        p.friction.rolling = if FrictionLawKind::from_value(friction).is_some_and(|f| !matches!(f, FrictionLawKind::ElasticCone | FrictionLawKind::Stiction)) { 0.02 } else { 0.0 };
        p.geometry_b.radius = radius;
        let mut s = SpatialParameters::default();
        s.geometry_a.shape = ShapeKind::Plane.value();
        s.geometry_a.q = plane_q;
        s.geometry_b.shape = ShapeKind::Sphere.value();
        s.geometry_b.radius = radius;
        s.normal = p.normal.clone();
        s.friction = p.friction.clone();
        let (spatial_block, _) = SpatialBlock::new(&s, None).unwrap();
        for (a, b) in &motions {
            let planar = evaluate(&p, &Inputs { frame_a: a.clone(), frame_b: b.clone() });
            let mut out = SpatialOutputs::default();
            let inputs = SpatialInputs::of_frames(spatial(a), spatial(b));
            spatial_block.evaluate(&inputs, &mut Vec::new(), &[PointState::default(); 8], &mut out).unwrap();
            let scale = out.normal_force.max(1.0);
            forced += usize::from(out.normal_force > 0.0);
            for i in 0..2 {
                close(planar.frame_a.f_0[i], out.frame_a.f_0[i], scale, &format!("laws {normal}/{friction}: frame_a.f_0[{i}]"));
                close(planar.frame_b.f_0[i], out.frame_b.f_0[i], scale, &format!("laws {normal}/{friction}: frame_b.f_0[{i}]"));
            }
            close(out.frame_a.f_0[2], 0.0, scale, "no force out of the plane");
            close(planar.frame_a.t, out.frame_a.t_0[2], scale, &format!("laws {normal}/{friction}: frame_a torque"));
            close(planar.frame_b.t, out.frame_b.t_0[2], scale, &format!("laws {normal}/{friction}: frame_b torque"));
            close(planar.separation, out.separation, 1.0, "separation");
            close(planar.normal_force, out.normal_force, scale, "normal force");
            close(planar.friction_force, out.friction_force, scale, "friction force");
            close(planar.slip_speed, out.slip_speed, 1.0, "slip speed");
            compared += 1;
        }
    }
    assert_eq!(compared, 7 * 7 * 3);
    // Restitution and GroundModel carry nothing while the disc leaves fast enough.
    assert!(forced >= 7 * 7 * 2, "only {forced} comparisons with a force");
}

#[test]
fn an_eccentric_cam_pushes_a_flat_follower_and_a_roller_with_the_analytic_force() {
    // Cam: a disc of radius R whose centre is e from the cam shaft (A's origin), turning at w.
    let (big_r, e, w, k, b) = (0.05, 0.01, 12.0, 2e5, 150.0);
    let mut p = Parameters::default();
    p.geometry_a.shape = PlanarShapeKind::Circle.value();
    p.geometry_a.radius = big_r;
    p.geometry_a.r = [e, 0.0];
    p.friction.law = FrictionLawKind::None.value();
    p.normal.stiffness = k;
    p.normal.damping = b;
    // Flat follower: a Line facing down (phi = pi) at the height h, held still.
    p.geometry_b.shape = PlanarShapeKind::Line.value();
    p.geometry_b.phi = PI;
    let depth = 2e-4;
    for theta in [0.1_f64, 0.7, 1.5, 2.4, -0.5] {
        let h = e * theta.sin() + big_r - depth;
        let out = evaluate(&p, &Inputs { frame_a: frame(0.0, 0.0, theta, 0.0, 0.0, w), frame_b: frame(0.0, h, 0.0, 0.0, 0.0, 0.0) });
        // Depth rate: the cam centre rises at e w cos(theta).
        let force = k * depth + b * e * w * theta.cos();
        close(out.separation, -depth, 1e-3, "flat follower depth");
        close(out.frame_b.f_0[1], force, force, "flat follower force");
        close(out.frame_b.f_0[0], 0.0, force, "no side force without friction");
        // The cam's torque: the force's line of action is e cos(theta) from the shaft.
        close(out.frame_a.t, -e * theta.cos() * force, force * e, "cam torque");
    }
    // Roller follower of radius rho on the line x = x0: its lift y(theta) closes the gap.
    let (rho, x0) = (0.02, 0.004);
    p.geometry_b.shape = PlanarShapeKind::Circle.value();
    p.geometry_b.radius = rho;
    p.geometry_b.phi = 0.0;
    for theta in [0.0_f64, 0.8, 2.0, 3.5] {
        let centre = [e * theta.cos(), e * theta.sin()];
        let lift = centre[1] + ((big_r + rho).powi(2) - (x0 - centre[0]).powi(2)).sqrt();
        let y = lift - depth;
        let out = evaluate(&p, &Inputs { frame_a: frame(0.0, 0.0, theta, 0.0, 0.0, w), frame_b: frame(x0, y, 0.0, 0.0, 0.0, 0.0) });
        let d = [x0 - centre[0], y - centre[1]];
        let dist = d[0].hypot(d[1]);
        let u = [d[0] / dist, d[1] / dist];
        let cam_centre_velocity = [-w * centre[1], w * centre[0]];
        let force = k * (big_r + rho - dist) + b * (u[0] * cam_centre_velocity[0] + u[1] * cam_centre_velocity[1]);
        close(out.separation, dist - big_r - rho, 1e-3, "roller separation");
        close(out.frame_b.f_0[0], force * u[0], force, "roller force x");
        close(out.frame_b.f_0[1], force * u[1], force, "roller force y");
        // A roller force points through the roller's centre: no torque on the follower.
        close(out.frame_b.t, 0.0, force * rho, "roller torque");
    }
}

#[test]
fn a_cam_profile_from_a_file_follows_the_analytic_cam() {
    // The eccentric cam as a closed Polyline of 720 points and a closed Curve through 24 points.
    let (big_r, e) = (0.05, 0.01);
    let dir = std::env::temp_dir().join(format!("planar21-cam-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, n: usize| {
        let text: String = (0..n)
            .map(|i| {
                let a = 2.0 * PI * i as f64 / n as f64;
                format!("{} {}\n", e + big_r * a.cos(), big_r * a.sin())
            })
            .collect();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    for (kind, file, tolerance) in [(PlanarShapeKind::Polyline, write("cam720.txt", 720), 5e-7), (PlanarShapeKind::Curve, write("cam24.txt", 24), 1e-5)] {
        let mut p = Parameters::default();
        p.geometry_a.shape = kind.value();
        p.geometry_a.file = file;
        p.geometry_a.closed = true;
        p.friction.law = FrictionLawKind::None.value();
        p.normal.damping = 0.0;
        p.geometry_b.shape = PlanarShapeKind::Circle.value();
        p.geometry_b.radius = 0.02;
        for theta in [0.0, 0.9, 2.2, 4.0] {
            let centre = [e * f64::cos(theta), e * f64::sin(theta)];
            let y = centre[1] + big_r + 0.02 - 1e-3;
            let out = evaluate(&p, &Inputs { frame_a: frame(0.0, 0.0, theta, 0.0, 0.0, 0.0), frame_b: frame(centre[0], y, 0.0, 0.0, 0.0, 0.0) });
            assert!((out.separation + 1e-3).abs() < tolerance, "{}: theta {theta}: separation {}", kind.name(), out.separation);
            assert!((out.n_0[1] - 1.0).abs() < 1e-3 && out.n_0[0].abs() < 0.03, "{}: normal {:?}", kind.name(), out.n_0);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A scene of every offered family with motion: (A shape, B shape, their parameters).
fn scenes() -> Vec<Parameters> {
    let mut all = Vec::new();
    let kinds = [PlanarShapeKind::Point, PlanarShapeKind::Circle, PlanarShapeKind::Arc, PlanarShapeKind::Segment, PlanarShapeKind::Line];
    for a in kinds {
        for b in kinds {
            let mut p = Parameters::default();
            p.geometry_a.shape = a.value();
            p.geometry_b.shape = b.value();
            p.geometry_a.radius = 0.1;
            p.geometry_b.radius = 0.08;
            p.geometry_a.length = 0.3;
            p.geometry_b.length = 0.25;
            p.geometry_a.angles = [-2.5, 0.5];
            p.geometry_b.angles = [-3.0, -0.2];
            p.friction.rolling = 0.0;
            if p.validate(None).is_ok() {
                all.push(p);
            }
        }
    }
    all
}

#[test]
fn exchanging_a_and_b_mirrors_the_outputs_and_every_wrench_balances() {
    let a = frame(0.01, -0.02, 0.3, 0.2, -0.1, 1.5);
    let b = frame(0.03, 0.09, -0.6, -0.3, -0.4, -2.0);
    let scenes = scenes();
    assert_eq!(scenes.len(), 17);
    let mut touching = 0;
    for p in scenes {
        let mut swapped = p.clone();
        std::mem::swap(&mut swapped.geometry_a, &mut swapped.geometry_b);
        let out = evaluate(&p, &Inputs { frame_a: a.clone(), frame_b: b.clone() });
        let back = evaluate(&swapped, &Inputs { frame_a: b.clone(), frame_b: a.clone() });
        let what = format!("{} - {}", p.geometry_a.shape, p.geometry_b.shape);
        let scale = out.normal_force.max(1.0);
        for i in 0..2 {
            close(out.frame_a.f_0[i], back.frame_b.f_0[i], scale, &what);
            close(out.frame_b.f_0[i], back.frame_a.f_0[i], scale, &what);
            // Newton III: the forces are opposite...
            assert_eq!(out.frame_a.f_0[i], -out.frame_b.f_0[i]);
        }
        close(out.frame_a.t, back.frame_b.t, scale, &what);
        close(out.frame_b.t, back.frame_a.t, scale, &what);
        close(out.separation, back.separation, 1.0, &what);
        close(out.normal_force, back.normal_force, scale, &what);
        // ... and the torques about W's origin cancel: t_a + r_a x f_a + t_b + r_b x f_b = 0.
        let moment = |f: &Frame, w: &planar_contact::block::Wrench| w.t + f.r_0[0] * w.f_0[1] - f.r_0[1] * w.f_0[0];
        close(moment(&a, &out.frame_a) + moment(&b, &out.frame_b), 0.0, scale, &format!("{what}: angular momentum"));
        touching += usize::from(out.active);
    }
    assert!(touching >= 7, "only {touching} scenes touch");
}

#[test]
fn each_slot_reports_its_candidate_touching_or_not() {
    // A Segment of 0.2 m tilted by 0.6 rad above a Line: its right end (id 1) 1 mm deep, its left
    // end (id 0) 0.2 sin(0.6) - 1 mm above.
    let mut p = Parameters::default();
    p.geometry_b.shape = PlanarShapeKind::Segment.value();
    p.geometry_b.length = 0.2;
    p.normal.damping = 0.0;
    p.friction.law = FrictionLawKind::None.value();
    let height = 0.1 * f64::sin(0.6) - 1e-3;
    let out = evaluate(&p, &Inputs { frame_a: frame(0.0, 0.0, 0.0, 0.0, 0.0, 0.0), frame_b: frame(0.0, height, -0.6, 0.0, 0.0, 0.0) });
    let (low, high) = (&out.point[1], &out.point[0]);
    assert!(low.active && (low.separation + 1e-3).abs() < 1e-15 && (low.normal_force - 1e6 * 1e-3).abs() < 1e-9);
    assert!(!high.active && (high.separation - (0.2 * f64::sin(0.6) - 1e-3)).abs() < 1e-15 && high.normal_force == 0.0);
    assert!((high.p_0[0] + 0.1 * f64::cos(0.6)).abs() < 1e-15);
    assert_eq!(out.points, 1);
    assert!(out.point[2..].iter().all(|slot| *slot == Default::default()));
}
