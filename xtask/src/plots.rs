//! The user guide's plots of the contact laws, drawn from the laws' own code: each law is built
//! from `Parameters` through `Parameters::validate`, as the FMU builds it, and sampled through
//! `NormalLaw::force` and `FrictionLaw` (the functions `Block::evaluate` calls), so a plot shows
//! what the FMU computes rather than a transcription of its formula.
//!
//! `cargo xtask docs` writes the PNGs into docs/src/plots/ (not committed: they are derived from
//! the code, and a committed copy could silently go stale). The tests below check the sampled
//! curves against the formulas of the guide at a few points.

use std::path::Path;
use std::sync::OnceLock;

use contact_force::block::Parameters;
use contact_force::physics::friction::{FrictionLaw, FrictionLawKind, TangentialState};
use contact_force::physics::math::Vec3;
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

/// The depth rates of the normal laws' plots [m/s]: separating (< 0), at rest, approaching (> 0).
pub const DEPTH_RATES: [f64; 5] = [-0.5, -0.2, 0.0, 0.2, 0.5];
/// The depths of the normal laws' plots: 0 to 1 mm in 200 steps.
pub const DEPTH_SAMPLES: usize = 201;
pub const MAX_DEPTH: f64 = 1e-3;
/// The approach speed the Restitution law is shown with, as if frozen at first touch [m/s].
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

/// The normal force of the stateful friction laws' plots [N] and the depth they act at [m].
pub const STATEFUL_NORMAL_FORCE: f64 = 10.0;
pub const STATEFUL_DEPTH: f64 = 1e-4;
/// Slip speeds of the stateful laws' plots [m/s] and their integration step [s].
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

/// Every law's plot: the seven normal laws, then the friction laws but None.
pub fn law_plots() -> Vec<Plot> {
    let normal = NormalLawKind::ITEMS.iter().filter_map(|item| NormalLawKind::from_value(item.value)).map(normal_plot);
    let friction = FrictionLawKind::ITEMS
        .iter()
        .filter_map(|item| FrictionLawKind::from_value(item.value))
        .filter(|kind| *kind != FrictionLawKind::None)
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
        .position(SeriesLabelPosition::UpperLeft)
        .label_font((FONT, 14))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .draw()
        .map_err(|e| failed(&e))?;
    root.present().map_err(|e| failed(&e))
}

/// Writes every law's plot into `dir` as `<stem>.png`; returns the files written.
pub fn write_all(dir: &Path) -> Result<Vec<String>> {
    std::fs::create_dir_all(dir).map_err(|e| format!("could not create {}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for plot in law_plots() {
        let file = format!("{}.png", plot.stem);
        write_png(&plot, &dir.join(&file))?;
        written.push(file);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    //! The curves against the formulas of docs/src/laws/*.md, written out here independently of
    //! the laws' code, at a few points of each curve.
    use super::*;

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
        let cases: [(FrictionLawKind, Box<dyn Fn(f64) -> f64>); 4] = [
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
    fn every_law_but_none_has_a_plot_with_a_distinct_file() {
        let stems: std::collections::BTreeSet<String> = law_plots().into_iter().map(|p| p.stem).collect();
        assert_eq!(stems.len(), NormalLawKind::ITEMS.len() + FrictionLawKind::ITEMS.len() - 1);
    }
}
