//! PlanarContact's outputs, bit for bit, over a recorded set of parameters and inputs: every pair
//! of planar shapes, every normal law with every friction law, the restitution models, through
//! both FMI versions. The golden file is tests/outputs/planar_contact.txt at the workspace root;
//! tests/outputs/driver.rs says how to record it again.

#[path = "../../tests/outputs/driver.rs"]
mod driver;

use std::path::{Path, PathBuf};

use driver::{Case, Version};
use planar_contact::model::Model;

const SHAPES: [&str; 7] = [
    "Point", "Circle", "Arc", "Segment", "Line", "Polyline", "Curve",
];
const NORMAL_LAWS: [&str; 7] = [
    "LinearSpringDamper",
    "LimitedDamper",
    "HuntCrossley",
    "SmoothSpringDamper",
    "Impact",
    "GroundModel",
    "Restitution",
];
const FRICTION_LAWS: [&str; 7] = [
    "None",
    "SmoothStickSlip",
    "AdamsCoulomb",
    "Tanh",
    "Stribeck",
    "ElasticCone",
    "Stiction",
];

fn item(list: &[&str], name: &str) -> i64 {
    list.iter().position(|n| *n == name).unwrap() as i64 + 1
}

/// The points file of the Polyline and the Curve, written once into a folder of this process.
fn files() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("planar_contact_outputs_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("chain.txt"),
        "# x y\n-0.1 -0.02\n-0.05 0.01\n0 -0.01\n0.06 0.02\n0.1 -0.03\n0.02 -0.08\n",
    )
    .unwrap();
    dir
}

fn geometry(case: Case, side: &str, shape: &str, dir: &Path) -> Case {
    let case = case.int(&format!("geometry_{side}.shape"), item(&SHAPES, shape));
    match shape {
        "Polyline" | "Curve" => case.string(
            &format!("geometry_{side}.file"),
            dir.join("chain.txt").to_str().unwrap(),
        ),
        _ => case,
    }
}

fn v(name: &str, x: f64) -> (String, f64) {
    (name.to_string(), x)
}

/// Body A still but turning slowly; body B coming down from `y0` at 3 m/s, sliding and turning.
fn approach(y0: f64) -> impl Fn(f64) -> Vec<(String, f64)> {
    move |t| {
        vec![
            v("frame_a.w", 0.2),
            v("frame_b.r_0[1]", 0.01 + 0.3 * t),
            v("frame_b.r_0[2]", y0 - 3.0 * t),
            v("frame_b.phi", 0.3 + 2.0 * t),
            v("frame_b.v_0[1]", 0.3),
            v("frame_b.v_0[2]", -3.0),
            v("frame_b.w", 2.0),
        ]
    }
}

fn cases(dir: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    for a in SHAPES {
        for b in SHAPES {
            let case = Case::new(format!("pair.{a}.{b}"), Version::Fmi3)
                .steps(30, 1e-3)
                .inputs(approach(0.15));
            cases.push(geometry(geometry(case, "a", a, dir), "b", b, dir));
        }
    }
    for version in [Version::Fmi2, Version::Fmi3] {
        for normal in NORMAL_LAWS {
            for friction in FRICTION_LAWS {
                let case = Case::new(format!("law.{normal}.{friction}"), version)
                    .steps(30, 1e-3)
                    .inputs(approach(0.1005));
                cases.push(
                    case.int("normal.law", item(&NORMAL_LAWS, normal))
                        .int("friction.law", item(&FRICTION_LAWS, friction)),
                );
            }
        }
        for model in 1..=3 {
            let case = Case::new(format!("law.Restitution.model_{model}"), version)
                .steps(30, 1e-3)
                .inputs(approach(0.1005));
            cases.push(
                case.int("normal.law", 7)
                    .int("normal.restitution_model", model)
                    .real("normal.restitution", 0.7),
            );
        }
        let case = Case::new("pair.Curve.Circle.open", version)
            .steps(30, 1e-3)
            .inputs(approach(0.15))
            .boolean("geometry_a.closed", false);
        cases.push(geometry(case, "a", "Curve", dir));
        let case = Case::new("pair.Arc.Circle.angles", version)
            .steps(30, 1e-3)
            .inputs(approach(0.15))
            .real("geometry_a.angles[1]", -0.5)
            .real("geometry_a.angles[2]", 2.0);
        cases.push(geometry(case, "a", "Arc", dir));
    }
    cases
}

#[test]
fn outputs_are_those_recorded() {
    let dir = files();
    let cases = cases(&dir);
    driver::check::<Model>(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/outputs/planar_contact.txt"),
        &cases,
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
