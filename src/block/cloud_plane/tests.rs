//! The kernel against the per-point path: the same sums, bit for bit.

use super::super::{Block, Parameters, Sums};
use crate::physics::friction::FrictionLawKind;
use crate::physics::math::{rotation_from_wxyz, BodyState, Pose, Vec3};
use crate::physics::normal::NormalLawKind;
use crate::physics::shape::ShapeKind;

use crate::test_rng::XorShift64 as Rng;

/// A cloud of `n` points on a 0.2 m square with heights of +-2 mm, in a file.
fn cloud_file(rng: &mut Rng, n: usize, tag: &str) -> std::path::PathBuf {
    let mut text = String::new();
    for _ in 0..n {
        text.push_str(&format!("{:e} {:e} {:e}\n", rng.range(-0.1, 0.1), rng.range(-0.1, 0.1), rng.range(-2e-3, 2e-3)));
    }
    let path = std::env::temp_dir().join(format!("contactforce-cloud-plane-{}-{tag}.txt", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

fn body(rng: &mut Rng, tilt: f64) -> BodyState {
    let axis = rng.vec(tilt);
    let (q, _) = rotation_from_wxyz(&[1.0, axis[0], axis[1], axis[2]]).unwrap();
    BodyState { pose: Pose { r: Vec3::from(rng.vec(0.5)), q }, v: Vec3::from(rng.vec(0.3)), w: Vec3::from(rng.vec(2.0)) }
}

/// Every bit of the sums.
fn bits(sums: &Sums) -> String {
    format!("{sums:?}")
}

/// Every stateless normal law with every velocity-based friction law, the cloud as B and as A,
/// random poses and twists, with and without `max_depth`: the kernel's sums of a leaf (several
/// blocks and a partial one, starting off a block boundary) are the per-point path's, bit for bit.
#[test]
fn the_kernel_gives_the_per_point_sums_bit_for_bit() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let path = cloud_file(&mut rng, 1500, "sums");
    let frictions = [FrictionLawKind::None, FrictionLawKind::SmoothStickSlip, FrictionLawKind::AdamsCoulomb, FrictionLawKind::Tanh, FrictionLawKind::Stribeck];
    let mut checked = 0;
    let mut penetrating = 0;
    for item in NormalLawKind::ITEMS {
        let normal = NormalLawKind::from_value(item.value).unwrap();
        if normal == NormalLawKind::Restitution {
            continue; // Stateful: the per-point path.
        }
        if normal == NormalLawKind::ProvidedByInput {
            continue; // The forces come from inputs: the provided path (tests/provided_laws.rs).
        }
        for friction in frictions {
            for cloud_is_a in [false, true] {
                for max_depth in [0.0, 1.5e-3] {
                    let mut p = Parameters::default();
                    let (cloud, plane) = if cloud_is_a { (&mut p.geometry_a, &mut p.geometry_b) } else { (&mut p.geometry_b, &mut p.geometry_a) };
                    cloud.shape = ShapeKind::PointCloud.value();
                    cloud.file = path.to_string_lossy().into_owned();
                    plane.shape = ShapeKind::Plane.value();
                    p.normal.law = normal.value();
                    p.normal.max_depth = max_depth;
                    p.friction.law = friction.value();
                    let block = Block::new(&p, None).unwrap().0;
                    assert!(super::applies(&block.laws));
                    for _ in 0..3 {
                        let (plane_body, mut cloud_body) = (body(&mut rng, 0.05), body(&mut rng, 0.05));
                        // The cloud about the plane's surface, a little in.
                        cloud_body.pose.r = plane_body.pose.r + plane_body.pose.q * Vec3::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3), rng.range(-3e-4, 0.0));
                        let (body_a, body_b) = if cloud_is_a { (cloud_body, plane_body) } else { (plane_body, cloud_body) };
                        let queries = block.pair.point_queries(&body_a.pose, &body_b.pose).unwrap();
                        let cloud = queries.on_plane().unwrap();
                        for range in [0..1500, 37..1024, 1000..1001, 0..0] {
                            let kernel = super::leaf(&queries, &cloud, &block.laws, &body_a, &body_b, range.clone());
                            let per_point = block.cloud_leaf(&queries, &body_a, &body_b, &[], range.clone());
                            assert_eq!(bits(&kernel), bits(&per_point), "{normal:?} {friction:?} cloud_is_a {cloud_is_a} max_depth {max_depth} {range:?}");
                            penetrating += kernel.points;
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 6 * 5 * 2 * 2 * 3 * 4);
    // The clouds did touch: many points carried force.
    assert!(penetrating > 100_000, "{penetrating}");
}

/// Stateful laws and couples stay on the per-point path.
#[test]
fn stateful_laws_and_couples_take_the_per_point_path() {
    let mut p = Parameters::default();
    p.friction.law = FrictionLawKind::ElasticCone.value();
    assert!(!super::applies(&p.validate(None).unwrap().0.laws));
    let mut p = Parameters::default();
    p.normal.law = NormalLawKind::Restitution.value();
    assert!(!super::applies(&p.validate(None).unwrap().0.laws));
    let p = Parameters::default();
    let mut laws = p.validate(None).unwrap().0.laws;
    assert!(super::applies(&laws));
    laws.torque_radius = 0.01;
    assert!(!super::applies(&laws));
}
