//! Large point clouds are evaluated on every core, and the result does not depend on how many:
//! the block's outputs and the stateful laws' point states are bit-identical on 1, 2, 3 and 4
//! threads, and they agree with the plain sum of every point's force.

mod support;

use contact_force::block::{Block, Frame, Inputs, Outputs, Parameters, PARALLEL_POINTS};
use contact_force::physics::contact::{self, PointState};
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::math::{rotation_from_wxyz, BodyState, Pose, Vec3};
use contact_force::physics::shape::ShapeKind;
use support::Rng;

/// A cloud of `n` points on a 0.2 m square with heights of +-1 mm, in a file.
fn cloud_file(n: usize) -> std::path::PathBuf {
    let mut rng = Rng(0x5eed_c10d);
    let mut text = String::with_capacity(n * 64);
    for _ in 0..n {
        text.push_str(&format!("{} {} {}\n", rng.range(-0.1, 0.1), rng.range(-0.1, 0.1), rng.range(-1e-3, 1e-3)));
    }
    let path = std::env::temp_dir().join(format!("contactforce-determinism-{}-{n}.txt", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// A tilted, sliding, spinning cloud on a plane.
fn inputs() -> Inputs {
    let q = rotation_from_wxyz(&[1.0, 0.01, -0.02, 0.3]).unwrap().0.into_inner();
    Inputs::of_frames(
        Frame::default(),
        Frame { r_0: [0.01, -0.02, 0.0], q: [q.w, q.i, q.j, q.k], v_0: [0.05, 0.01, -0.02], w_0: [0.1, -0.2, 0.5] },
    )
}

fn block(path: &std::path::Path, friction: FrictionLawKind) -> Block {
    let mut p = Parameters::default();
    p.geometry_a.shape = ShapeKind::Plane.value();
    p.geometry_b.shape = ShapeKind::PointCloud.value();
    p.geometry_b.file = path.to_string_lossy().into_owned();
    p.friction.law = friction.value();
    Block::new(&p, None).unwrap().0
}

fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(work)
}

/// Every bit of the outputs: `{:?}` prints each f64 exactly (shortest round trip, signed zeros).
fn bits(out: &Outputs) -> String {
    format!("{out:?}")
}

#[test]
fn a_large_cloud_gives_bit_identical_outputs_on_any_number_of_threads() {
    let n = 3 * PARALLEL_POINTS + 123;
    let path = cloud_file(n);
    let block = block(&path, FrictionLawKind::Tanh);
    let inputs = inputs();
    let evaluate = || {
        let mut out = Outputs::default();
        block.evaluate(&inputs, &mut Vec::new(), &[], &mut out).unwrap();
        out
    };
    let reference = on_threads(1, evaluate);
    assert!(reference.points > 1000 && (reference.points as usize) < n - 1000, "{} of {n} points touch", reference.points);
    for threads in [2, 3, 4] {
        assert_eq!(bits(&on_threads(threads, evaluate)), bits(&reference), "{threads} threads");
    }

    // The same sums as adding every point's force one by one, to rounding.
    let pose_b = Pose { r: Vec3::from(inputs.frame_b.r_0), q: rotation_from_wxyz(&inputs.frame_b.q).unwrap().0 };
    let body_a = BodyState { pose: Pose::identity(), v: Vec3::zeros(), w: Vec3::zeros() };
    let body_b = BodyState { pose: pose_b, v: Vec3::from(inputs.frame_b.v_0), w: Vec3::from(inputs.frame_b.w_0) };
    let mut points = Vec::new();
    block.pair().contacts(&Pose::identity(), &pose_b, &mut points);
    assert_eq!(points.len(), n);
    let laws = block_laws(&path);
    let (mut force, mut torque_b, mut touching) = (Vec3::zeros(), Vec3::zeros(), 0);
    for cp in &points {
        let pf = contact::evaluate(cp, &body_a, &body_b, &laws, &PointState::default());
        force += pf.force_on_b_w();
        torque_b += (pf.point_w - pose_b.r).cross(&pf.force_on_b_w()) + pf.couple_w;
        touching += i64::from(pf.normal_force > 0.0);
    }
    assert_eq!(reference.points, touching);
    assert!((Vec3::from(reference.frame_b.f_0) - force).norm() <= 1e-12 * force.norm(), "{:?} vs {force}", reference.frame_b.f_0);
    assert!((Vec3::from(reference.frame_b.t_0) - torque_b).norm() <= 1e-12 * torque_b.norm().max(1e-9));
    std::fs::remove_file(path).ok();
}

fn block_laws(path: &std::path::Path) -> contact_force::physics::contact::Laws {
    let mut p = Parameters::default();
    p.geometry_b.shape = ShapeKind::PointCloud.value();
    p.geometry_b.file = path.to_string_lossy().into_owned();
    p.validate(None).unwrap().0.laws
}

#[test]
fn a_large_cloud_with_a_stateful_law_steps_to_bit_identical_states_on_any_number_of_threads() {
    let n = 2 * PARALLEL_POINTS + 7;
    let path = cloud_file(n);
    let block = block(&path, FrictionLawKind::ElasticCone);
    let inputs = inputs();
    let run = || {
        let mut states = Vec::new();
        let mut out = Outputs::default();
        for _ in 0..3 {
            block.advance(&inputs, &mut Vec::new(), &mut states, 1e-4).unwrap();
        }
        block.evaluate(&inputs, &mut Vec::new(), &states, &mut out).unwrap();
        (format!("{states:?}"), bits(&out))
    };
    let reference = on_threads(1, run);
    assert!(reference.0.contains("deflection"));
    for threads in [2, 4] {
        assert_eq!(on_threads(threads, run), reference, "{threads} threads");
    }
    std::fs::remove_file(path).ok();
}
