//! Shared by the benchmarks: the deterministic generator, the geometry files they read, and the
//! order file that `cargo xtask bench` reads to print its table in the benchmarks' order.
//!
//! Each `benches/*.rs` is a crate of its own that compiles this module again and uses only some of
//! it, hence the `#[allow(dead_code)]` on the helpers a file may leave unused.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// xorshift64*, so every run benchmarks the same shapes.
pub struct Rng(pub u64);

impl Rng {
    /// Uniform in [0, 1).
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// Where criterion writes its results: `$CRITERION_HOME`, or target/criterion of the workspace.
pub fn criterion_home() -> PathBuf {
    std::env::var_os("CRITERION_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join("criterion"))
}

/// The benchmarks' geometry files (made once, reused while their content is the same).
#[allow(dead_code)] // Not used by every bench file (see the module comment).
pub fn data_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join("bench-data");
    std::fs::create_dir_all(&dir).expect("create target/bench-data");
    dir
}

/// Writes `name` in [`data_dir`] from `make` unless it exists; returns its path.
#[allow(dead_code)] // Not used by every bench file (see the module comment).
pub fn data_file(name: &str, make: impl FnOnce() -> String) -> String {
    let path = data_dir().join(name);
    if !path.exists() {
        let partial = path.with_extension("partial");
        std::fs::write(&partial, make()).expect("write a benchmark geometry file");
        std::fs::rename(&partial, &path).expect("rename a benchmark geometry file");
    }
    path.to_string_lossy().into_owned()
}

/// `n` points uniformly on a sphere of radius `r` (all of them vertices of their convex hull).
#[allow(dead_code)] // Not used by every bench file (see the module comment).
pub fn sphere_points(n: usize, r: f64, seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut text = String::new();
    for _ in 0..n {
        let z: f64 = rng.range(-1.0, 1.0);
        let phi = rng.range(0.0, std::f64::consts::TAU);
        let s = (1.0 - z * z).sqrt();
        writeln!(text, "{:.17e} {:.17e} {:.17e}", r * s * phi.cos(), r * s * phi.sin(), r * z).unwrap();
    }
    text
}

/// A closed UV sphere of radius `r` with `rings` x `segments` cells (2 segments (rings - 1)
/// triangles), as OBJ.
#[allow(dead_code)] // Not used by every bench file (see the module comment).
pub fn uv_sphere_obj(rings: usize, segments: usize, r: f64) -> String {
    let mut text = String::new();
    writeln!(text, "v 0 0 {r}").unwrap();
    for i in 1..rings {
        let theta = std::f64::consts::PI * i as f64 / rings as f64;
        for j in 0..segments {
            let phi = std::f64::consts::TAU * j as f64 / segments as f64;
            writeln!(text, "v {:.17e} {:.17e} {:.17e}", r * theta.sin() * phi.cos(), r * theta.sin() * phi.sin(), r * theta.cos()).unwrap();
        }
    }
    writeln!(text, "v 0 0 {}", -r).unwrap();
    let ring = |i: usize, j: usize| 2 + (i - 1) * segments + j % segments;
    let bottom = 2 + (rings - 1) * segments;
    for j in 0..segments {
        writeln!(text, "f 1 {} {}", ring(1, j), ring(1, j + 1)).unwrap();
        for i in 1..rings - 1 {
            let (a, b, c, d) = (ring(i, j), ring(i + 1, j), ring(i + 1, j + 1), ring(i, j + 1));
            writeln!(text, "f {a} {b} {c}\nf {a} {c} {d}").unwrap();
        }
        writeln!(text, "f {} {} {bottom}", ring(rings - 1, j + 1), ring(rings - 1, j)).unwrap();
    }
    text
}

/// `n` points on a jittered square grid of side `side` centred at the origin, heights uniform in
/// [-depth, depth] (about half of them below z = 0).
#[allow(dead_code)] // Not used by every bench file (see the module comment).
pub fn cloud_points(n: usize, side: f64, depth: f64, seed: u64) -> String {
    let mut rng = Rng(seed);
    let per_row = (n as f64).sqrt().ceil() as usize;
    let spacing = side / per_row as f64;
    let mut text = String::with_capacity(n * 60);
    for k in 0..n {
        let (i, j) = (k % per_row, k / per_row);
        let x = -side / 2.0 + (i as f64 + rng.next()) * spacing;
        let y = -side / 2.0 + (j as f64 + rng.next()) * spacing;
        writeln!(text, "{x:.17e} {y:.17e} {:.17e}", rng.range(-depth, depth)).unwrap();
    }
    text
}

/// A height field of `nodes` x `nodes` over [-side/2, side/2]^2: gentle waves of amplitude 1 mm.
#[allow(dead_code)] // Not used by every bench file (see the module comment).
pub fn grid_text(nodes: usize, side: f64) -> String {
    let spacing = side / (nodes - 1) as f64;
    let mut text = String::with_capacity(nodes * nodes * 24);
    writeln!(text, "{} {} {spacing} {spacing}", -side / 2.0, -side / 2.0).unwrap();
    for j in 0..nodes {
        for i in 0..nodes {
            let (x, y) = (i as f64 * spacing, j as f64 * spacing);
            let h = 1e-3 * (7.0 * x).sin() * (5.0 * y).cos();
            if i > 0 {
                text.push(' ');
            }
            write!(text, "{h:.17e}").unwrap();
        }
        text.push('\n');
    }
    text
}

/// Records the benchmarks in the order they are defined, for `cargo xtask bench`'s table:
/// `group/id` and the points one evaluation works on, one per line, in
/// `$CRITERION_HOME/contactforce-order/<bench>.txt`.
pub struct Order {
    bench: &'static str,
    lines: String,
}

impl Order {
    pub fn new(bench: &'static str) -> Order {
        Order { bench, lines: String::new() }
    }

    pub fn add(&mut self, group: &str, id: &str, points: usize) {
        writeln!(self.lines, "{group}/{id}\t{points}").unwrap();
    }
}

impl Drop for Order {
    fn drop(&mut self) {
        // A profile run covers some benchmarks only: it keeps the full run's order.
        if std::env::var_os("CONTACTFORCE_BENCH_PROFILE").is_some() {
            return;
        }
        let dir = criterion_home().join("contactforce-order");
        if std::fs::create_dir_all(&dir).is_ok() {
            let _ = std::fs::write(dir.join(format!("{}.txt", self.bench)), &self.lines);
        }
    }
}

/// Profile mode, for `valgrind --tool=callgrind`: with `CONTACTFORCE_BENCH_PROFILE=TEXT:N` set,
/// every benchmark whose `group/id` contains TEXT runs N times without criterion (whose own
/// analysis would swamp the profile), and the others not at all. `None` without the variable:
/// criterion runs as usual.
pub fn profile_iterations(name: &str) -> Option<u64> {
    let setting = std::env::var("CONTACTFORCE_BENCH_PROFILE").ok()?;
    let (text, count) = setting.rsplit_once(':').unwrap_or((&setting, "1000"));
    Some(if name.contains(text) { count.parse().unwrap_or(1000) } else { 0 })
}
