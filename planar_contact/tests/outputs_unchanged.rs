//! PlanarContact's outputs, bit for bit, over a recorded set of parameters and inputs: every pair
//! of planar shapes, every normal law with every friction law, the restitution models, through
//! both FMI versions. The golden file is tests/outputs/planar_contact.txt at the workspace root;
//! tests/outputs/driver.rs says how to record it again.

#[path = "../../tests/outputs/driver.rs"]
mod driver;

use std::path::Path;

use driver::{item, names, v, Case, Version};
use contact_physics::friction::FrictionLawKind;
use contact_physics::normal::NormalLawKind;
use planar_contact::model::Model;
use planar_contact::shape::PlanarShapeKind;


/// The points file of the Polyline and the Curve, written into `dir`.
fn files(dir: &Path) {
    std::fs::write(
        dir.join("chain.txt"),
        "# x y\n-0.1 -0.02\n-0.05 0.01\n0 -0.01\n0.06 0.02\n0.1 -0.03\n0.02 -0.08\n",
    )
    .unwrap();
}

fn geometry(case: Case, side: &str, shape: &str, dir: &Path) -> Case {
    let case = case.int(&format!("geometry_{side}.shape"), item(PlanarShapeKind::ITEMS, shape));
    match shape {
        "Polyline" | "Curve" => case.string(
            &format!("geometry_{side}.file"),
            dir.join("chain.txt").to_str().unwrap(),
        ),
        _ => case,
    }
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
    for a in names(PlanarShapeKind::ITEMS) {
        for b in names(PlanarShapeKind::ITEMS) {
            let case = Case::new(format!("pair.{a}.{b}"), Version::Fmi3)
                .steps(30, 1e-3)
                .inputs(approach(0.15));
            cases.push(geometry(geometry(case, "a", a, dir), "b", b, dir));
        }
    }
    for version in [Version::Fmi2, Version::Fmi3] {
        for normal in names(NormalLawKind::ITEMS) {
            for friction in names(FrictionLawKind::ITEMS) {
                let case = Case::new(format!("law.{normal}.{friction}"), version)
                    .steps(30, 1e-3)
                    .inputs(approach(0.1005));
                cases.push(
                    case.int("normal.law", item(NormalLawKind::ITEMS, normal))
                        .int("friction.law", item(FrictionLawKind::ITEMS, friction)),
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
    driver::check_on_files::<Model>(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/outputs/planar_contact.txt"), files, cases);
}
