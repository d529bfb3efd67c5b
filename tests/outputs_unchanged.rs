//! ContactForce's outputs, bit for bit, over a recorded set of parameters and inputs: every pair
//! of shapes (the inside surfaces too), every normal law with every friction law, the restitution
//! models, the material pairs, the laws provided by input, both couplings (Instantaneous and
//! StepAverage) and FMI 2's input derivatives, through both FMI versions; through FMI 3, the
//! directional derivatives of the outputs along every frame input at the end of each pair's and
//! each law's run. The golden file is
//! tests/outputs/contact_force.txt; tests/outputs/driver.rs says how to record it again.

#[path = "outputs/driver.rs"]
mod driver;

use std::path::Path;

use contact_force::model::Model;
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::normal::{NormalLawKind, RestitutionModel};
use contact_force::physics::shape::ShapeKind;
use driver::{item, names, v, Case, Version};


/// The inputs the directional derivatives are taken along (FMI 3 cases): every pose and twist
/// component of both frames.
const FRAME_INPUTS: [&str; 26] = [
    "frame_a.r_0[1]", "frame_a.r_0[2]", "frame_a.r_0[3]", "frame_a.q[1]", "frame_a.q[2]", "frame_a.q[3]", "frame_a.q[4]",
    "frame_a.v_0[1]", "frame_a.v_0[2]", "frame_a.v_0[3]", "frame_a.w_0[1]", "frame_a.w_0[2]", "frame_a.w_0[3]",
    "frame_b.r_0[1]", "frame_b.r_0[2]", "frame_b.r_0[3]", "frame_b.q[1]", "frame_b.q[2]", "frame_b.q[3]", "frame_b.q[4]",
    "frame_b.v_0[1]", "frame_b.v_0[2]", "frame_b.v_0[3]", "frame_b.w_0[1]", "frame_b.w_0[2]", "frame_b.w_0[3]",
];

/// The outputs whose directional derivatives the FMU gives.
const DIFFERENTIATED: [&str; 14] = [
    "frame_a.f_0[1]", "frame_a.f_0[2]", "frame_a.f_0[3]", "frame_a.t_0[1]", "frame_a.t_0[2]", "frame_a.t_0[3]",
    "frame_b.f_0[1]", "frame_b.f_0[2]", "frame_b.f_0[3]", "frame_b.t_0[1]", "frame_b.t_0[2]", "frame_b.t_0[3]",
    "contact.separation", "contact.normal_force",
];

/// The geometry files the file-based shapes read, written into `dir`.
fn files(dir: &Path) {
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("hull.txt", "0.06 0.05 0.04\n-0.05 0.06 0.05\n-0.06 -0.05 0.04\n0.05 -0.06 0.05\n0.04 0.05 -0.06\n-0.05 0.04 -0.05\n-0.04 -0.05 -0.06\n0.05 -0.04 -0.05\n0 0 0.08\n");
    let mut obj = String::new();
    for v in [
        [-1., -1., -1.],
        [1., -1., -1.],
        [1., 1., -1.],
        [-1., 1., -1.],
        [-1., -1., 1.],
        [1., -1., 1.],
        [1., 1., 1.],
        [-1., 1., 1.],
    ] {
        obj.push_str(&format!(
            "v {} {} {}\n",
            0.05 * v[0],
            0.04 * v[1],
            0.03 * v[2]
        ));
    }
    for f in [
        [1, 3, 2],
        [1, 4, 3],
        [5, 6, 7],
        [5, 7, 8],
        [1, 2, 6],
        [1, 6, 5],
        [2, 3, 7],
        [2, 7, 6],
        [3, 4, 8],
        [3, 8, 7],
        [4, 1, 5],
        [4, 5, 8],
    ] {
        obj.push_str(&format!("f {} {} {}\n", f[0], f[1], f[2]));
    }
    write("mesh.obj", &obj);
    let mut cloud = String::from("x,y,z\n");
    for i in 0..4 {
        for j in 0..3 {
            cloud.push_str(&format!(
                "{},{},{}\n",
                -0.06 + 0.04 * i as f64,
                -0.04 + 0.04 * j as f64,
                -0.01 * (i + j) as f64
            ));
        }
    }
    write("cloud.txt", &cloud);
    write("grid.txt", "# x0 y0 dx dy\n-0.3 -0.3 0.2 0.2\n0 0.01 0.02 0.01\n0.01 0.03 0.02 0\n0.02 0.02 0.04 0.01\n0 0.01 0.02 0.03\n");
    write("compound.txt", "Box 0.08 0.06 0.03 0.02 0 0\nSphere 0.03 -0.05 0.01 -0.01\nCapsule 0.02 0.06 0 0.03 0.01 0.9238795 0.3826834 0 0\n");
}

/// The geometry parameters of one side: its shape, sizes and (for file shapes) its file.
fn geometry(case: Case, side: &str, shape: &str, dir: &Path) -> Case {
    let case = case.int(&format!("geometry_{side}.shape"), item(ShapeKind::ITEMS, shape));
    let file = match shape {
        "ConvexHull" => "hull.txt",
        "Mesh" => "mesh.obj",
        "PointCloud" => "cloud.txt",
        "GridSurface" => "grid.txt",
        "Compound" => "compound.txt",
        _ => return case,
    };
    case.string(
        &format!("geometry_{side}.file"),
        dir.join(file).to_str().unwrap(),
    )
}

/// Body A still at the origin but spinning slowly; body B coming down from `z0` at 4 m/s, sliding
/// and spinning, tilted so that no edge is axis-aligned.
fn approach(z0: f64) -> impl Fn(f64) -> Vec<(String, f64)> {
    move |t| {
        let (w, x, y, z) = (0.98_f64, 0.12_f64, -0.09_f64, 0.13_f64);
        let n = (w * w + x * x + y * y + z * z).sqrt();
        vec![
            v("frame_a.w_0[3]", 0.3),
            v("frame_b.r_0[1]", 0.02 + 0.3 * t),
            v("frame_b.r_0[2]", -0.01),
            v("frame_b.r_0[3]", z0 - 4.0 * t),
            v("frame_b.q[1]", w / n),
            v("frame_b.q[2]", x / n),
            v("frame_b.q[3]", y / n),
            v("frame_b.q[4]", z / n),
            v("frame_b.v_0[1]", 0.3),
            v("frame_b.v_0[3]", -4.0),
            v("frame_b.w_0[1]", 0.5),
            v("frame_b.w_0[2]", -0.2),
            v("frame_b.w_0[3]", 1.0),
        ]
    }
}

/// A box (0.1 m) settling on a plane: 1 mm deep at the start, pressing at 0.3 m/s, sliding and
/// spinning, slightly tilted so that its four corners carry different forces.
fn box_on_plane(t: f64) -> Vec<(String, f64)> {
    let (w, x, y) = (1.0_f64, 0.01_f64, -0.02_f64);
    let n = (w * w + x * x + y * y).sqrt();
    vec![
        v("frame_b.r_0[1]", 0.2 * t),
        v("frame_b.r_0[3]", 0.049 - 0.3 * t),
        v("frame_b.q[1]", w / n),
        v("frame_b.q[2]", x / n),
        v("frame_b.q[3]", y / n),
        v("frame_b.v_0[1]", 0.2),
        v("frame_b.v_0[2]", 0.05),
        v("frame_b.v_0[3]", -0.3),
        v("frame_b.w_0[1]", 0.3),
        v("frame_b.w_0[2]", -0.2),
        v("frame_b.w_0[3]", 0.5),
    ]
}

/// A sphere (0.1 m) pressing into a plane and sliding.
fn sphere_on_plane(t: f64) -> Vec<(String, f64)> {
    vec![
        v("frame_b.r_0[1]", 0.2 * t),
        v("frame_b.r_0[3]", 0.0995 - 0.2 * t),
        v("frame_b.v_0[1]", 0.2),
        v("frame_b.v_0[3]", -0.2),
        v("frame_b.w_0[2]", 1.0),
    ]
}

/// Laws on a plane: the box (several points) or the sphere (the lean single-point path).
fn on_plane(name: &str, version: Version, body: &str) -> Case {
    let case = Case::new(name, version)
        .steps(30, 1e-3)
        .int("geometry_a.shape", item(ShapeKind::ITEMS, "Plane"));
    match body {
        "box" => case
            .int("geometry_b.shape", item(ShapeKind::ITEMS, "Box"))
            .inputs(box_on_plane),
        _ => case
            .int("geometry_b.shape", item(ShapeKind::ITEMS, "Sphere"))
            .inputs(sphere_on_plane),
    }
}

fn laws(case: Case, normal: &str, friction: &str) -> Case {
    case.int("normal.law", item(NormalLawKind::ITEMS, normal))
        .int("friction.law", item(FrictionLawKind::ITEMS, friction))
}

fn cases(dir: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    // Every ordered pair of shapes (unsupported pairs record their refusal), through FMI 3, and
    // a few through FMI 2.
    for a in names(ShapeKind::ITEMS) {
        for b in names(ShapeKind::ITEMS) {
            let case = Case::new(format!("pair.{a}.{b}"), Version::Fmi3)
                .steps(30, 1e-3)
                .inputs(approach(0.2))
                .directional(&DIFFERENTIATED, &FRAME_INPUTS);
            cases.push(geometry(geometry(case, "a", a, dir), "b", b, dir));
        }
    }
    for (a, b) in [
        ("Plane", "Box"),
        ("Sphere", "Capsule"),
        ("Mesh", "ConvexHull"),
        ("GridSurface", "Sphere"),
    ] {
        let case = Case::new(format!("pair.{a}.{b}"), Version::Fmi2)
            .steps(30, 1e-3)
            .inputs(approach(0.2));
        cases.push(geometry(geometry(case, "a", a, dir), "b", b, dir));
    }
    // The inside surfaces: a large hollow A, a small B hitting its bottom wall.
    for a in ["Sphere", "Box", "Cylinder", "Capsule", "Ellipsoid"] {
        for b in [
            "Point",
            "Sphere",
            "Box",
            "Cylinder",
            "Capsule",
            "Ellipsoid",
            "ConvexHull",
            "Mesh",
            "Compound",
        ] {
            let case = Case::new(format!("inside.{a}.{b}"), Version::Fmi3)
                .steps(30, 1e-3)
                .inputs(approach(-0.35))
                .boolean("geometry_a.inside", true)
                .real("geometry_a.radius", 0.5)
                .real("geometry_a.length", 1.0)
                .real("geometry_a.size[1]", 1.0)
                .real("geometry_a.size[2]", 1.0)
                .real("geometry_a.size[3]", 1.0);
            cases.push(geometry(geometry(case, "a", a, dir), "b", b, dir));
        }
    }
    for (bottom, top) in [(true, false), (true, true)] {
        let case = Case::new(
            format!("inside.Cylinder.Sphere.ends_{bottom}_{top}"),
            Version::Fmi3,
        )
        .steps(30, 1e-3)
        .inputs(approach(-0.35))
        .int("geometry_a.shape", item(ShapeKind::ITEMS, "Cylinder"))
        .boolean("geometry_a.inside", true)
        .boolean("geometry_a.end_bottom", bottom)
        .boolean("geometry_a.end_top", top)
        .real("geometry_a.radius", 0.5)
        .real("geometry_a.length", 0.8)
        .int("geometry_b.shape", item(ShapeKind::ITEMS, "Sphere"));
        cases.push(case);
    }
    // Every normal law with every friction law, on the box and on the sphere, in both versions.
    for version in [Version::Fmi2, Version::Fmi3] {
        for normal in names(NormalLawKind::ITEMS) {
            for friction in names(FrictionLawKind::ITEMS) {
                for body in ["box", "sphere"] {
                    let case = on_plane(&format!("law.{body}.{normal}.{friction}"), version, body);
                    let case = if version == Version::Fmi3 { case.directional(&DIFFERENTIATED, &FRAME_INPUTS) } else { case };
                    cases.push(laws(case, normal, friction));
                }
            }
        }
        for model in names(RestitutionModel::ITEMS) {
            let case = on_plane(&format!("law.box.Restitution.{model}"), version, "box")
                .int("normal.restitution_model", item(RestitutionModel::ITEMS, model));
            cases.push(laws(case, "Restitution", "Tanh").real("normal.restitution", 0.7));
        }
        let case = on_plane("law.sphere.limits", version, "sphere")
            .real("normal.max_depth", 0.002)
            .real("friction.torque_radius", 0.01)
            .real("friction.rolling", 0.001);
        cases.push(
            laws(case, "HuntCrossley", "Stribeck")
                .real("friction.viscous", 0.5)
                .real("solver.max_step", 2e-4),
        );
        for pair in [2, 21, 35] {
            cases.push(
                on_plane(&format!("material.{pair}"), version, "sphere").int("material.pair", pair),
            );
        }
        // The laws provided by input (the extension's FMU): forces given per slot.
        for (normal, friction) in [(8, 4), (3, 8), (8, 8)] {
            let mut case = on_plane(&format!("provided.box.{normal}.{friction}"), version, "box")
                .int("normal.law", normal)
                .int("friction.law", friction);
            case.extension = true;
            let motion = case.inputs;
            case.inputs = Box::new(move |t| {
                let mut inputs = motion(t);
                for k in 1..=4 {
                    inputs.push(v(
                        &format!("contact.point[{k}].provided.normal_force"),
                        10.0 * k as f64 + 1e3 * t,
                    ));
                    inputs.push(v(
                        &format!("contact.point[{k}].provided.friction_force[1]"),
                        -(k as f64),
                    ));
                    inputs.push(v(
                        &format!("contact.point[{k}].provided.friction_force[2]"),
                        0.5 - t,
                    ));
                }
                inputs
            });
            cases.push(case);
        }
        // StepAverage: the block integrates both bodies over each step.
        for (body, normal, friction) in [
            ("sphere", "HuntCrossley", "Tanh"),
            ("box", "HuntCrossley", "Tanh"),
            ("box", "LinearSpringDamper", "ElasticCone"),
            ("sphere", "Restitution", "Stiction"),
            ("box", "Impact", "AdamsCoulomb"),
        ] {
            let case = on_plane(
                &format!("step_average.{body}.{normal}.{friction}"),
                version,
                body,
            )
            .int("coupling.mode", 2)
            .real("coupling.step", 1e-3)
            .real("body_b.mass", 1.5)
            .real("body_b.inertia[1]", 0.004)
            .real("body_b.inertia[2]", 0.005)
            .real("body_b.inertia[3]", 0.006)
            .real("body_b.inertia[4]", 0.0002)
            .real("body_b.com[3]", -0.01);
            cases.push(laws(case, normal, friction));
        }
        let case = on_plane("step_average.box.both_bodies", version, "box")
            .int("coupling.mode", 2)
            .real("coupling.step", 1e-3)
            .real("coupling.max_substep", 2e-5)
            .real("body_a.mass", 5.0)
            .real("body_a.inertia[1]", 0.1)
            .real("body_a.inertia[2]", 0.1)
            .real("body_a.inertia[3]", 0.1)
            .real("body_b.mass", 1.0)
            .real("body_b.inertia[1]", 0.002)
            .real("body_b.inertia[2]", 0.002)
            .real("body_b.inertia[3]", 0.002);
        cases.push(laws(case, "HuntCrossley", "Stribeck"));
    }
    // FMI 2's input derivatives: the inputs move along them over each step.
    for body in ["sphere", "box"] {
        let case =
            on_plane(&format!("input_derivatives.{body}"), Version::Fmi2, body).derivatives(|t| {
                vec![
                    ("frame_b.r_0[1]".to_string(), 1, 0.2),
                    ("frame_b.r_0[3]".to_string(), 1, -0.3 + t),
                    ("frame_b.v_0[3]".to_string(), 1, 1.0),
                    ("frame_b.w_0[3]".to_string(), 1, 3.0),
                ]
            });
        cases.push(laws(case, "HuntCrossley", "SmoothStickSlip"));
    }
    cases
}

#[test]
fn outputs_are_those_recorded() {
    driver::check_on_files::<Model>(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/outputs/contact_force.txt"), files, cases);
}
