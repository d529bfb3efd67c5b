//! Helpers shared by the integration tests: the deterministic random generator and its common
//! draws, the block evaluation and comparison used by several files, FMI 2 and FMI 3 importers
//! ([`fmi2`], [`fmi3`]) and the walk over the workspace's sources ([`source_files`]). Each test
//! file says `mod support;` (Cargo builds no test target from `tests/support/mod.rs` itself).
//!
//! Every `tests/*.rs` is a crate of its own that compiles this module again and uses only some of
//! it, so the items a file may leave unused carry `#[allow(dead_code)]`: without it each file
//! would warn about the helpers it does not need.
//!
//! Helpers used by one file only (random shapes, frames, speeds, other rotation draws) stay in
//! that file, as an extension trait on [`Rng`].

pub mod fmi2;
pub mod fmi3;
pub mod source_files;

use contact_force::block::{Block, Inputs, Outputs, Parameters};
use contact_force::physics::math::{Pose, Rotation, Vec3};
use nalgebra::Quaternion;

/// A folder of this test process's own for the files a test writes (shapes read from files,
/// bad files), made if missing: under cargo's scratch folder for integration tests
/// (`target/tmp`), so what a run leaves goes with `cargo clean` instead of piling up in the
/// system's temporary folder.
#[allow(dead_code)] // Not used by every test file (see the module comment).
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small deterministic generator (xorshift64*), so failures reproduce: the same seed gives the
/// same sequence of draws in every file.
pub struct Rng(pub u64);

impl Rng {
    /// Uniform in [0, 1), from the top 53 bits.
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi): one draw.
    #[allow(dead_code)] // Not used by every test file (see the module comment).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }

    /// A vector in the cube [-scale, scale]^3: three draws, x, y, z. Files that need an array
    /// (block parameters and frames) take `.into()`.
    #[allow(dead_code)] // Not used by every test file (see the module comment).
    pub fn vec(&mut self, scale: f64) -> Vec3 {
        Vec3::new(self.range(-scale, scale), self.range(-scale, scale), self.range(-scale, scale))
    }

    /// A unit quaternion: a quaternion in [-1, 1]^4 (four draws, w, x, y, z), normalised.
    #[allow(dead_code)] // Not used by every test file (see the module comment).
    pub fn rotation(&mut self) -> Rotation {
        Rotation::from_quaternion(Quaternion::new(self.range(-1., 1.), self.range(-1., 1.), self.range(-1., 1.), self.range(-1., 1.)))
    }

    /// [`Rng::rotation`] as the block's [w, x, y, z].
    #[allow(dead_code)] // Not used by every test file (see the module comment).
    pub fn quaternion(&mut self) -> [f64; 4] {
        let q = self.rotation();
        [q.w, q.i, q.j, q.k]
    }

    /// A pose: the origin from [`Rng::vec`] (`scale`), then the orientation from [`Rng::rotation`].
    #[allow(dead_code)] // Not used by every test file (see the module comment).
    pub fn pose(&mut self, scale: f64) -> Pose {
        Pose { r: self.vec(scale), q: self.rotation() }
    }
}

/// Builds the block from `p` and evaluates it once from the inputs.
#[allow(dead_code)] // Not used by every test file (see the module comment).
pub fn evaluate(p: &Parameters, inputs: &Inputs) -> Outputs {
    let (block, _) = Block::new(p, None).expect("valid parameters");
    let mut out = Outputs::default();
    block.evaluate(inputs, &mut Vec::new(), &[], &mut out).expect("valid inputs");
    out
}

/// Every component equal within 1e-10 of `scale` (at least 1).
#[allow(dead_code)] // Not used by every test file (see the module comment).
pub fn close(a: &[f64], b: &[f64], scale: f64) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-10 * scale.max(1.0))
}
