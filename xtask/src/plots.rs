//! The user guide's plots of the contact laws, drawn from the laws' own code: each law is built
//! from `Parameters` through `Parameters::validate`, as the FMU builds it, and sampled through
//! `NormalLaw::force` and `FrictionLaw` (the functions `Block::evaluate` calls), so a plot shows
//! what the FMU computes rather than a transcription of its formula.
//!
//! `cargo xtask docs` writes the PNGs into docs/src/plots/, where they are committed so that the
//! guide shows them on the repository's pages too; `cargo xtask docs --check` (a step of `cargo
//! xtask test`) draws them again into a scratch folder and fails when a committed picture differs
//! from its drawing ([`check`]). The tests below check the sampled curves against the formulas of
//! the guide at a few points.

use std::path::Path;
use std::sync::OnceLock;

use contact_force::block::Parameters;
use contact_force::physics::friction::{FrictionLaw, FrictionLawKind, TangentialState};
use contact_force::physics::geometry::{ContactPoint, GeometryPair};
use contact_force::physics::math::{rotation_from_wxyz, Pose, Vec3};
use contact_force::physics::shape::{Shape, ShapeKind};
use contact_force::physics::normal::{NormalLaw, NormalLawKind};
use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::Result;

const FONT: &str = "sans-serif";
const COLORS: [RGBColor; 6] =
    [RGBColor(31, 119, 180), RGBColor(214, 39, 40), RGBColor(44, 160, 44), RGBColor(255, 127, 14), RGBColor(148, 103, 189), RGBColor(23, 190, 207)];

/// One curve of a plot: its legend and its points (x, y) in the plot's units.
pub struct Curve {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// A plot: file stem, title, axis descriptions and curves.
pub struct Plot {
    pub stem: String,
    pub title: String,
    pub x_label: &'static str,
    pub y_label: &'static str,
    pub curves: Vec<Curve>,
}

/// The depth rates of the normal laws' plots (m/s): separating (< 0), at rest, approaching (> 0).
pub const DEPTH_RATES: [f64; 5] = [-0.5, -0.2, 0.0, 0.2, 0.5];
/// The depths of the normal laws' plots: 0 to 1 mm in 200 steps.
pub const DEPTH_SAMPLES: usize = 201;
pub const MAX_DEPTH: f64 = 1e-3;
/// The approach speed the Restitution law is shown with, as if frozen at first touch (m/s).
pub const RESTITUTION_ONSET_SPEED: f64 = 0.5;
/// Slip speeds of the velocity-based friction laws: 0 to 30 mm/s in 300 steps.
pub const SPEED_SAMPLES: usize = 301;
pub const MAX_SPEED: f64 = 0.03;

/// The parameters a law is plotted with: the FMU's defaults, changed where the defaults would
/// make a flat picture (a Hertzian k of 1e6 N/m^1.5 gives 32 N at 1 mm, its damping nothing).
pub fn normal_parameters(kind: NormalLawKind) -> Parameters {
    let mut p = Parameters::default();
    p.normal.law = kind.value();
    match kind {
        NormalLawKind::HuntCrossley => (p.normal.stiffness, p.normal.damping) = (1e7, 1e7),
        NormalLawKind::Impact => p.normal.stiffness = 1e7,
        NormalLawKind::GroundModel => (p.normal.stiffness, p.normal.damping) = (1e7, 1e4),
        NormalLawKind::Restitution => p.normal.stiffness = 1e7,
        NormalLawKind::SmoothSpringDamper => p.normal.transition_width = 2e-4,
        NormalLawKind::LinearSpringDamper | NormalLawKind::LimitedDamper => {}
        // No curve of its own: the user's law gives the force (law_plots leaves it out).
        NormalLawKind::ProvidedByInput => {}
    }
    p
}

/// The friction law's parameters: the FMU's defaults (mu_s 0.5, mu_d 0.3, 1 and 10 mm/s, ...).
pub fn friction_parameters(kind: FrictionLawKind) -> Parameters {
    let mut p = Parameters::default();
    p.friction.law = kind.value();
    p
}

fn laws(p: &Parameters) -> contact_force::physics::contact::Laws {
    p.validate(None).expect("the plotted parameters are valid").0.laws
}

/// Force against depth at each of [`DEPTH_RATES`], through `NormalLaw::force`.
pub fn normal_plot(kind: NormalLawKind) -> Plot {
    let law: NormalLaw = laws(&normal_parameters(kind)).normal;
    let curves = DEPTH_RATES
        .iter()
        .map(|&rate| Curve {
            label: format!("depth rate {rate:+} m/s"),
            points: (0..DEPTH_SAMPLES)
                .map(|i| {
                    let depth = MAX_DEPTH * i as f64 / (DEPTH_SAMPLES - 1) as f64;
                    (depth * 1e3, law.force(depth, rate, RESTITUTION_ONSET_SPEED))
                })
                .collect(),
        })
        .collect();
    Plot {
        stem: format!("normal_{}", kind.name()),
        title: format!("{}: normal force against depth", kind.name()),
        x_label: "depth [mm]",
        y_label: "normal force [N]",
        curves,
    }
}

/// The normal force of the stateful friction laws' plots (N) and the depth they act at (m).
pub const STATEFUL_NORMAL_FORCE: f64 = 10.0;
pub const STATEFUL_DEPTH: f64 = 1e-4;
/// Slip speeds of the stateful laws' plots (m/s) and their integration step (s).
pub const STATEFUL_SPEEDS: [f64; 2] = [1e-3, 1e-2];
pub const STATEFUL_STEP: f64 = 1e-5;

/// Velocity-based laws: mu(v) = v (mu(v) / v) through `FrictionLaw::mu_over_speed`. Stateful laws
/// (no mu(v)): |f_t| / f_n against the distance slid from rest at a constant slip speed, the
/// state advanced by `FrictionLaw::advance` as DoStep does.
pub fn friction_plot(kind: FrictionLawKind) -> Plot {
    let law: FrictionLaw = laws(&friction_parameters(kind)).friction;
    if law.mu_over_speed(1.0).is_some() {
        let points = (0..SPEED_SAMPLES)
            .map(|i| {
                let v = MAX_SPEED * i as f64 / (SPEED_SAMPLES - 1) as f64;
                (v * 1e3, v * law.mu_over_speed(v).expect("a velocity-based law"))
            })
            .collect();
        return Plot {
            stem: format!("friction_{}", kind.name()),
            title: format!("{}: friction coefficient against slip speed", kind.name()),
            x_label: "slip speed [mm/s]",
            y_label: "friction coefficient mu",
            curves: vec![Curve { label: "mu(v)".to_string(), points }],
        };
    }
    let distance = match kind {
        FrictionLawKind::Stiction => 3e-4,
        _ => 1e-3,
    };
    let curves = STATEFUL_SPEEDS
        .iter()
        .map(|&speed| {
            let slip = Vec3::new(speed, 0.0, 0.0);
            let mut state = TangentialState::default();
            let steps = (distance / speed / STATEFUL_STEP).round() as usize;
            let every = (steps / 400).max(1);
            let mut points = Vec::new();
            for step in 0..=steps {
                if step % every == 0 || step == steps {
                    let force = law.force(STATEFUL_DEPTH, STATEFUL_NORMAL_FORCE, &slip, &state).force;
                    points.push((speed * STATEFUL_STEP * step as f64 * 1e3, force.norm() / STATEFUL_NORMAL_FORCE));
                }
                law.advance(STATEFUL_DEPTH, STATEFUL_NORMAL_FORCE, &slip, &mut state, STATEFUL_STEP);
            }
            Curve { label: format!("slip speed {} mm/s", speed * 1e3), points }
        })
        .collect();
    Plot {
        stem: format!("friction_{}", kind.name()),
        title: format!("{}: |f_t| / f_n slid from rest (f_n = 10 N, depth 0.1 mm)", kind.name()),
        x_label: "distance slid [mm]",
        y_label: "|f_t| / f_n",
        curves,
    }
}

/// Every law's plot: the seven built-in normal laws, then the friction laws but None (ProvidedByInput
/// has no curve: the user's law gives the force).
pub fn law_plots() -> Vec<Plot> {
    let normal = NormalLawKind::ITEMS
        .iter()
        .filter_map(|item| NormalLawKind::from_value(item.value))
        .filter(|kind| *kind != NormalLawKind::ProvidedByInput)
        .map(normal_plot);
    let friction = FrictionLawKind::ITEMS
        .iter()
        .filter_map(|item| FrictionLawKind::from_value(item.value))
        .filter(|kind| !matches!(kind, FrictionLawKind::None | FrictionLawKind::ProvidedByInput))
        .map(friction_plot);
    normal.chain(friction).collect()
}

fn register_font() -> Result {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    if *REGISTERED.get_or_init(|| plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok()) {
        Ok(())
    } else {
        Err("the DejaVu Sans font of the dejavu crate could not be loaded".to_string())
    }
}

/// Where the legend hides no curve: the normal forces rise to the right (upper left is free), a
/// friction coefficient peaks on the left and then levels off (upper right), and the stateful
/// laws' ratio rises and saturates (lower right).
fn legend_position(plot: &Plot) -> SeriesLabelPosition {
    match (plot.stem.starts_with("friction_"), plot.curves.len()) {
        (false, _) => SeriesLabelPosition::UpperLeft,
        (true, 1) => SeriesLabelPosition::MiddleRight,
        (true, _) => SeriesLabelPosition::LowerRight,
    }
}

/// Draws a plot as a 900 x 520 PNG.
pub fn write_png(plot: &Plot, path: &Path) -> Result {
    register_font()?;
    let failed = |e: &dyn std::fmt::Display| format!("could not draw {}: {e}", path.display());
    let root = BitMapBackend::new(path, (900, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failed(&e))?;
    let all = plot.curves.iter().flat_map(|c| c.points.iter());
    let (x0, x1, y0, y1) = all.fold((f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY), |(a, b, c, d), &(x, y)| {
        (a.min(x), b.max(x), c.min(y), d.max(y))
    });
    let margin = 0.05 * (y1 - y0).max(1e-12);
    let mut chart = ChartBuilder::on(&root)
        .caption(&plot.title, (FONT, 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, (y0 - margin).min(0.0)..(y1 + margin))
        .map_err(|e| failed(&e))?;
    chart
        .configure_mesh()
        .x_desc(plot.x_label)
        .y_desc(plot.y_label)
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(225, 225, 225))
        .draw()
        .map_err(|e| failed(&e))?;
    for (i, curve) in plot.curves.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        chart
            .draw_series(LineSeries::new(curve.points.iter().copied(), color.stroke_width(2)))
            .map_err(|e| failed(&e))?
            .label(curve.label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(legend_position(plot))
        .label_font((FONT, 14))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .draw()
        .map_err(|e| failed(&e))?;
    root.present().map_err(|e| failed(&e))
}

// ---------------------------------------------------------------------------------------------
// The pairs' pictures: where the contact points of a pair are, as `GeometryPair::contacts` (what
// `Block::evaluate` calls) finds them, in a side view and a top view of the two shapes.


/// One scene: the pair, B's pose (A sits at the origin), and what the page says about it.
pub struct PairScene {
    pub stem: &'static str,
    pub title: &'static str,
    pub shape_a: ShapeKind,
    pub shape_b: ShapeKind,
    /// B's position (m) and its rotation as an angle (rad) about an axis.
    pub position: [f64; 3],
    pub angle: f64,
    pub axis: [f64; 3],
}

/// The scenes of docs/src/pairs.md. Sizes: spheres, cylinders and capsules of radius 0.1 m,
/// cylinders and capsules 0.3 m long, boxes of 0.2 x 0.2 x 0.1 m (A's box for box-box
/// 0.6 x 0.6 x 0.1 m); each B placed so that it sinks 0.5 to 1 mm into A.
pub const PAIR_SCENES: [PairScene; 6] = [
    PairScene { stem: "pair_sphere_plane", title: "Sphere on a plane", shape_a: ShapeKind::Plane, shape_b: ShapeKind::Sphere, position: [0.0, 0.0, 0.099], angle: 0.0, axis: [0.0, 0.0, 1.0] },
    PairScene { stem: "pair_box_plane_flat", title: "Box resting flat on a plane", shape_a: ShapeKind::Plane, shape_b: ShapeKind::Box, position: [0.0, 0.0, 0.049], angle: 0.0, axis: [0.0, 0.0, 1.0] },
    PairScene { stem: "pair_box_plane_edge", title: "Box on an edge (tilted 20 deg about y)", shape_a: ShapeKind::Plane, shape_b: ShapeKind::Box, position: [0.0, 0.0, 0.0807], angle: 0.349_065_850_398_865_9, axis: [0.0, 1.0, 0.0] },
    PairScene { stem: "pair_cylinder_plane", title: "Standing cylinder tilted 10 deg about x", shape_a: ShapeKind::Plane, shape_b: ShapeKind::Cylinder, position: [0.0, 0.0, 0.1646], angle: 0.174_532_925_199_432_95, axis: [1.0, 0.0, 0.0] },
    PairScene { stem: "pair_capsule_plane", title: "Capsule lying on a plane", shape_a: ShapeKind::Plane, shape_b: ShapeKind::Capsule, position: [0.0, 0.0, 0.099], angle: std::f64::consts::FRAC_PI_2, axis: [0.0, 1.0, 0.0] },
    PairScene { stem: "pair_box_box", title: "Box on a box, turned 30 deg about z", shape_a: ShapeKind::Box, shape_b: ShapeKind::Box, position: [0.05, 0.0, 0.099], angle: 0.523_598_775_598_298_8, axis: [0.0, 0.0, 1.0] },
];

/// The block's parameters for a scene's shapes (`geometry_X.*`), validated into its pair.
fn scene_pair(scene: &PairScene) -> GeometryPair {
    let mut p = Parameters::default();
    for (g, kind, big) in [(&mut p.geometry_a, scene.shape_a, true), (&mut p.geometry_b, scene.shape_b, false)] {
        g.shape = kind.value();
        g.radius = 0.1;
        g.length = 0.3;
        g.size = if big && scene.shape_b == ShapeKind::Box { [0.6, 0.6, 0.1] } else { [0.2, 0.2, 0.1] };
    }
    p.validate(None).expect("the scenes' parameters are valid").0.pair
}

fn scene_pose_b(scene: &PairScene) -> Pose {
    let (half, [x, y, z]) = (scene.angle / 2.0, scene.axis);
    let norm = (x * x + y * y + z * z).sqrt();
    let q = [half.cos(), half.sin() * x / norm, half.sin() * y / norm, half.sin() * z / norm];
    Pose { r: Vec3::new(scene.position[0], scene.position[1], scene.position[2]), q: rotation_from_wxyz(&q).expect("a unit quaternion").0 }
}

/// The pair's contact points (candidates apart included) for the scene.
pub fn scene_contacts(scene: &PairScene) -> Vec<ContactPoint> {
    let pair = scene_pair(scene);
    let mut out = Vec::new();
    pair.contacts(&Pose::identity(), &scene_pose_b(scene), &mut out);
    out
}

/// Points on a shape's surface whose projections outline it (in W).
fn outline(shape: &Shape, pose: &Pose) -> Vec<Vec3> {
    let ring = |radius: f64, z: f64| -> Vec<Vec3> {
        (0..48).map(|k| {
            let a = std::f64::consts::TAU * k as f64 / 48.0;
            Vec3::new(radius * a.cos(), radius * a.sin(), z)
        }).collect()
    };
    let local: Vec<Vec3> = match shape {
        Shape::Sphere { radius } => [ring(*radius, 0.0), ring(*radius, 0.0).iter().map(|p| Vec3::new(p.x, 0.0, p.y)).collect(), ring(*radius, 0.0).iter().map(|p| Vec3::new(0.0, p.x, p.y)).collect()].concat(),
        Shape::Box { half_extents: h } => {
            (0..8).map(|k| Vec3::new(if k & 1 == 0 { -h.x } else { h.x }, if k & 2 == 0 { -h.y } else { h.y }, if k & 4 == 0 { -h.z } else { h.z })).collect()
        }
        Shape::Cylinder { radius, half_length } => [ring(*radius, -half_length), ring(*radius, *half_length)].concat(),
        Shape::Capsule { radius, half_length } => {
            let ball = |z: f64| -> Vec<Vec3> {
                let mut points = ring(*radius, z);
                points.extend(ring(*radius, 0.0).iter().map(|p| Vec3::new(p.x, 0.0, z + p.y)));
                points.extend(ring(*radius, 0.0).iter().map(|p| Vec3::new(0.0, p.x, z + p.y)));
                points
            };
            [ball(-half_length), ball(*half_length)].concat()
        }
        _ => Vec::new(),
    };
    local.iter().map(|p| pose.transform_point(p)).collect()
}

/// The convex hull of 2D points, counter-clockwise and closed (monotone chain).
fn hull_2d(mut points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    points.sort_by(|a, b| a.partial_cmp(b).expect("finite coordinates"));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    let mut hull: Vec<(f64, f64)> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &(f64, f64)>> = if pass == 0 { Box::new(points.iter()) } else { Box::new(points.iter().rev()) };
        for &p in iter {
            while hull.len() >= start + 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull.push(hull[0]);
    hull
}

/// Draws a scene: side view (x, z) and top view (x, y), B's outline in blue, A's in black (a
/// plane as the line z = 0), the points at B's witnesses: in contact filled red, candidates apart
/// hollow grey.
pub fn write_pair_png(scene: &PairScene, path: &Path) -> Result {
    register_font()?;
    let failed = |e: &dyn std::fmt::Display| format!("could not draw {}: {e}", path.display());
    let pair = scene_pair(scene);
    let contacts = scene_contacts(scene);
    let (pose_a, pose_b) = (Pose::identity(), scene_pose_b(scene));
    let (outline_a, outline_b) = (outline(pair.shape_a(), &pose_a), outline(pair.shape_b(), &pose_b));
    let touching = contacts.iter().filter(|c| c.separation <= 0.0).count();
    let root = BitMapBackend::new(path, (900, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failed(&e))?;
    let title = format!("{}: {} candidate points, {} in contact", scene.title, contacts.len(), touching);
    let (top, body) = root.split_vertically(36);
    top.titled(&title, (FONT, 19)).map_err(|e| failed(&e))?;
    // Each view: its axes' labels and the projection of a point onto them.
    type View<'a> = (&'a str, &'a str, fn(&Vec3) -> (f64, f64));
    let views: [View; 2] = [("side view: x [m]", "z [m]", |p| (p.x, p.z)), ("top view: x [m]", "y [m]", |p| (p.x, p.y))];
    for ((x_label, y_label, project), area) in views.into_iter().zip(body.split_evenly((1, 2))) {
        let (lo, hi) = if scene.shape_a == ShapeKind::Plane && y_label == "z [m]" { (-0.1, 0.3) } else { (-0.2, 0.2) };
        let (x0, x1) = if scene.shape_b == ShapeKind::Box && scene.shape_a == ShapeKind::Box { (-0.35, 0.35) } else { (-0.25, 0.25) };
        let (lo, hi) = if scene.shape_a == ShapeKind::Box { if y_label == "z [m]" { (-0.1, 0.25) } else { (-0.35, 0.35) } } else { (lo, hi) };
        let mut chart = ChartBuilder::on(&area)
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(x0..x1, lo..hi)
            .map_err(|e| failed(&e))?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .label_style((FONT, 12))
            .axis_desc_style((FONT, 13))
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(230, 230, 230))
            .draw()
            .map_err(|e| failed(&e))?;
        if matches!(pair.shape_a(), Shape::Plane) {
            if y_label == "z [m]" {
                chart.draw_series(LineSeries::new([(x0, 0.0), (x1, 0.0)], BLACK.stroke_width(2))).map_err(|e| failed(&e))?;
            }
        } else {
            let hull = hull_2d(outline_a.iter().map(project).collect());
            chart.draw_series(LineSeries::new(hull, BLACK.stroke_width(2))).map_err(|e| failed(&e))?;
        }
        let hull = hull_2d(outline_b.iter().map(project).collect());
        chart.draw_series(LineSeries::new(hull, COLORS[0].stroke_width(2))).map_err(|e| failed(&e))?;
        for contact in &contacts {
            // At B's witness (the corner, rim point, ...), where the point sits on the shape; the
            // force acts midway between the two witnesses, which for a point apart is in the gap.
            let at = project(&contact.p_b_w);
            let style = if contact.separation <= 0.0 { COLORS[1].filled() } else { RGBColor(150, 150, 150).stroke_width(1) };
            chart.draw_series(std::iter::once(Circle::new(at, 5, style))).map_err(|e| failed(&e))?;
        }
    }
    root.present().map_err(|e| failed(&e))
}

/// Writes every law's plot and every pair scene into `dir` as `<stem>.png`; returns the files
/// written.
pub fn write_all(dir: &Path) -> Result<Vec<String>> {
    std::fs::create_dir_all(dir).map_err(|e| format!("could not create {}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for plot in law_plots() {
        let file = format!("{}.png", plot.stem);
        write_png(&plot, &dir.join(&file))?;
        written.push(file);
    }
    for scene in &PAIR_SCENES {
        let file = format!("{}.png", scene.stem);
        write_pair_png(scene, &dir.join(&file))?;
        written.push(file);
    }
    Ok(written)
}

/// The share of a picture's pixels that may differ (by more than [`PIXEL_TOLERANCE`] in a colour
/// channel) between a committed picture and its drawing: the font rasteriser and the encoder are
/// pure Rust and draw the same bytes here, but another machine's floating point may move an
/// antialiased edge by a shade. A stale plot (another curve, title or scale) changes far more.
pub const DIFFERING_PIXELS: f64 = 2e-3;
pub const PIXEL_TOLERANCE: u8 = 24;

/// Draws every plot into `scratch` and compares it with the committed one of the same name in
/// `committed`: an error lists every picture missing, extra or different (the drawings stay in
/// `scratch` to look at).
pub fn check(committed: &Path, scratch: &Path) -> Result {
    let _ = std::fs::remove_dir_all(scratch);
    let drawn = write_all(scratch)?;
    let mut problems = Vec::new();
    for file in &drawn {
        if let Some(problem) = compare(&committed.join(file), &scratch.join(file)) {
            problems.push(format!("{file}: {problem}"));
        }
    }
    // A missing folder: every picture is reported missing above.
    for entry in std::fs::read_dir(committed).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !drawn.contains(&name) {
            problems.push(format!("{name}: committed but no longer drawn (remove it)"));
        }
    }
    if problems.is_empty() {
        println!("every plot of the guide ({}) is up to date", drawn.len());
        Ok(())
    } else {
        Err(format!("the guide's plots in {} are stale: run `cargo xtask docs` and commit them\n{}", committed.display(), problems.join("\n")))
    }
}

/// Why the committed picture is not the drawn one, or None when it is (the same bytes, or the same
/// size with at most [`DIFFERING_PIXELS`] of its pixels off by more than [`PIXEL_TOLERANCE`]).
fn compare(committed: &Path, drawn: &Path) -> Option<String> {
    let (Ok(old), Ok(new)) = (std::fs::read(committed), std::fs::read(drawn)) else {
        return Some("missing (not committed)".to_string());
    };
    if old == new {
        return None;
    }
    let decode = |bytes: &[u8]| image::load_from_memory_with_format(bytes, image::ImageFormat::Png).map(|i| i.to_rgb8());
    let (old, new) = match (decode(&old), decode(&new)) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(e), _) | (_, Err(e)) => return Some(format!("not a readable PNG: {e}")),
    };
    if old.dimensions() != new.dimensions() {
        return Some(format!("{:?} pixels, drawn {:?}", old.dimensions(), new.dimensions()));
    }
    let differing = old.pixels().zip(new.pixels()).filter(|(a, b)| a.0.iter().zip(b.0.iter()).any(|(x, y)| x.abs_diff(*y) > PIXEL_TOLERANCE)).count();
    let share = differing as f64 / (old.width() as f64 * old.height() as f64);
    (share > DIFFERING_PIXELS).then(|| format!("{differing} pixels ({:.2} %) differ from the drawing", 100.0 * share))
}

#[cfg(test)]
mod tests {
    //! The curves against the formulas of docs/src/laws/*.md, written out here independently of
    //! the laws' code, at a few points of each curve.
    use super::*;

    #[test]
    fn a_redrawn_plot_is_the_same_and_another_plot_is_stale() {
        let dir = crate::target_dir().join("xtask").join("plots-compare-test");
        std::fs::create_dir_all(&dir).unwrap();
        let plots = law_plots();
        let (first, second) = (&plots[0], &plots[1]);
        let (a, b, c) = (dir.join("a.png"), dir.join("b.png"), dir.join("c.png"));
        write_png(first, &a).unwrap();
        write_png(first, &b).unwrap();
        write_png(second, &c).unwrap();
        // The drawing is deterministic: the same bytes.
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        assert_eq!(compare(&a, &b), None);
        let stale = compare(&a, &c).expect("another curve is stale");
        assert!(stale.contains("pixels"), "{stale}");
        assert_eq!(compare(&dir.join("none.png"), &a).as_deref(), Some("missing (not committed)"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The value of `plot`'s curve `curve` at sample `i`, and its x in SI units (`scale` undoes
    /// the plot's mm).
    fn sample(plot: &Plot, curve: usize, i: usize, scale: f64) -> (f64, f64) {
        let (x, y) = plot.curves[curve].points[i];
        (x * scale, y)
    }

    fn close(obtained: f64, expected: f64, what: &str) {
        assert!((obtained - expected).abs() <= 1e-9 * expected.abs().max(1.0), "{what}: plotted {obtained}, formula {expected}");
    }

    /// Adams' cubic STEP(x, x0, h0, x1, h1).
    fn adams_step(x: f64, x0: f64, h0: f64, x1: f64, h1: f64) -> f64 {
        if x <= x0 {
            h0
        } else if x >= x1 {
            h1
        } else {
            let u = (x - x0) / (x1 - x0);
            h0 + (h1 - h0) * u * u * (3.0 - 2.0 * u)
        }
    }

    #[test]
    fn every_normal_law_plot_follows_its_formula() {
        for item in NormalLawKind::ITEMS {
            let kind = NormalLawKind::from_value(item.value).unwrap();
            if kind == NormalLawKind::ProvidedByInput {
                continue;
            }
            let p = normal_parameters(kind).normal;
            let (k, b) = (p.stiffness, p.damping);
            let formula = |d: f64, dd: f64| -> f64 {
                let f = match kind {
                    NormalLawKind::LinearSpringDamper => k * d + b * dd,
                    NormalLawKind::LimitedDamper => {
                        let (fc, fd) = (k * d, b * dd);
                        if fc + fd > 0.0 {
                            fc + fc.min(fd)
                        } else {
                            0.0
                        }
                    }
                    NormalLawKind::HuntCrossley => k * d.powf(p.exponent) + b * dd * dd.abs().powf(p.velocity_exponent - 1.0) * d.powf(p.damping_exponent),
                    NormalLawKind::SmoothSpringDamper => {
                        let u = (d / p.transition_width).min(1.0);
                        (3.0 * u * u - 2.0 * u * u * u) * (k * d + b * dd)
                    }
                    NormalLawKind::Impact => k * d.powf(p.exponent) + adams_step(d, 0.0, 0.0, p.full_damping_depth, b) * dd,
                    NormalLawKind::GroundModel => d.sqrt() * (k * d + b * dd),
                    NormalLawKind::Restitution => {
                        // The plots use the Hunt-Crossley variant, the default restitution model.
                        let chi = 3.0 * (1.0 - p.restitution) / (2.0 * RESTITUTION_ONSET_SPEED);
                        k * d.powf(p.exponent) * (1.0 + chi * dd)
                    }
                    NormalLawKind::ProvidedByInput => unreachable!("skipped above"),
                };
                f.max(0.0)
            };
            let plot = normal_plot(kind);
            assert_eq!(plot.curves.len(), DEPTH_RATES.len());
            for (c, &rate) in DEPTH_RATES.iter().enumerate() {
                for i in [0, 7, 40, 100, 200] {
                    let (d, f) = sample(&plot, c, i, 1e-3);
                    close(f, if d > 0.0 { formula(d, rate) } else { 0.0 }, &format!("{} at d = {d}, rate {rate}", kind.name()));
                }
            }
        }
    }

    #[test]
    fn every_velocity_friction_plot_follows_its_formula() {
        let p = Parameters::default().friction;
        let (mu_s, mu_d, vs, vd) = (p.mu_static, p.mu_dynamic, p.v_stiction, p.v_transition);
        let s5 = |x: f64| 10.0 * x.powi(3) - 15.0 * x.powi(4) + 6.0 * x.powi(5);
        // Each law with its formula of the friction coefficient against the slip speed.
        type Formula<'a> = Box<dyn Fn(f64) -> f64 + 'a>;
        let cases: [(FrictionLawKind, Formula); 4] = [
            (FrictionLawKind::Tanh, Box::new(|v: f64| mu_d * (p.tanh_gain * v).tanh())),
            (
                FrictionLawKind::AdamsCoulomb,
                Box::new(move |v: f64| if v < vs { adams_step(v, -vs, -mu_s, vs, mu_s) } else { adams_step(v, vs, mu_s, vd, mu_d) }),
            ),
            (
                FrictionLawKind::SmoothStickSlip,
                Box::new(move |v: f64| {
                    if v < vs {
                        mu_s * s5(v / vs)
                    } else if v < 3.0 * vs {
                        mu_s - (mu_s - mu_d) * s5((v - vs) / (2.0 * vs))
                    } else {
                        mu_d
                    }
                }),
            ),
            (
                FrictionLawKind::Stribeck,
                Box::new(move |v: f64| {
                    let (ve1, ve2, kv) = (vs, vd, p.viscous);
                    let (g2, g3, g4, g6) = (2.0 / ve1, 3.0 / ve2, mu_d - kv * ve2, kv);
                    let g1 = (mu_s - (2.0 * ve1 / ve2).tanh() * g4 - 2.0 * kv * ve1) / ((2.0 * ve2 / ve1).tanh() - (2.0 * ve1 / ve2).tanh()) - g4;
                    g1 * ((g2 * v).tanh() - (g3 * v).tanh()) + g4 * (g2 * v).tanh() + g6 * v
                }),
            ),
        ];
        for (kind, formula) in cases {
            let plot = friction_plot(kind);
            for i in [0, 5, 33, 100, 300] {
                let (v, mu) = sample(&plot, 0, i, 1e-3);
                close(mu, formula(v), &format!("{} at v = {v}", kind.name()));
            }
        }
    }

    #[test]
    fn the_stateful_friction_plots_rise_as_springs_and_saturate_at_their_coefficients() {
        let p = Parameters::default().friction;
        // Stiction: while sticking, the spring gives mu_s f_n s / delta with s the distance slid;
        // past delta it slips at mu_d.
        let plot = friction_plot(FrictionLawKind::Stiction);
        for curve in 0..STATEFUL_SPEEDS.len() {
            let (s, ratio) = sample(&plot, curve, 40, 1e-3);
            assert!(s < p.max_deformation);
            close(ratio, p.mu_static * s / p.max_deformation, "Stiction while sticking");
            let (_, last) = *plot.curves[curve].points.last().unwrap();
            close(last, p.mu_dynamic, "Stiction slipping");
        }
        // ElasticCone: sticking, |f_t| = sqrt(d) (Kt u + Dt v) with u the distance slid; slipping,
        // the cone's edge mu f_n.
        let plot = friction_plot(FrictionLawKind::ElasticCone);
        for (curve, &speed) in STATEFUL_SPEEDS.iter().enumerate() {
            let (u, ratio) = sample(&plot, curve, 20, 1e-3);
            let expected = STATEFUL_DEPTH.sqrt() * (p.stiffness * u + p.damping * speed) / STATEFUL_NORMAL_FORCE;
            assert!(expected < p.mu_static, "sample 20 sticks");
            // The integration of u by DoStep's method against the exact u = v t: within 1e-6.
            assert!((ratio - expected).abs() <= 1e-6 * expected, "ElasticCone sticking: plotted {ratio}, formula {expected}");
            let (_, last) = *plot.curves[curve].points.last().unwrap();
            close(last, p.mu_static, "ElasticCone slipping");
        }
    }

    #[test]
    fn the_pair_pictures_show_the_points_in_contact_the_pages_describe() {
        // docs/src/pairs.md describes each picture by how many of its points touch.
        let touching = |stem: &str| {
            let scene = PAIR_SCENES.iter().find(|s| s.stem == stem).unwrap();
            scene_contacts(scene).iter().filter(|c| c.separation <= 0.0).count()
        };
        assert_eq!(touching("pair_sphere_plane"), 1);
        assert_eq!(touching("pair_box_plane_flat"), 4);
        assert_eq!(touching("pair_box_plane_edge"), 2);
        assert_eq!(touching("pair_capsule_plane"), 2);
        assert!(touching("pair_cylinder_plane") >= 1);
        assert!(touching("pair_box_box") >= 3);
        let closed = hull_2d(vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.5, 0.5)]);
        assert_eq!(closed, [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0)]);
    }

    #[test]
    fn every_law_but_none_has_a_plot_with_a_distinct_file() {
        let stems: std::collections::BTreeSet<String> = law_plots().into_iter().map(|p| p.stem).collect();
        // Neither ProvidedByInput has a curve, nor has friction None.
        assert_eq!(stems.len(), NormalLawKind::ITEMS.len() - 1 + FrictionLawKind::ITEMS.len() - 2);
    }
}
