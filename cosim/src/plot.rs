//! PNG plots of a recording: one panel per kind of quantity (positions, velocities, angular
//! velocities, normal and friction forces) against time.
//!
//! Drawn with plotters' bitmap backend; the text is DejaVu Sans from the `dejavu` crate, rendered
//! by ab_glyph, so nothing is read from the system (no fontconfig, no freetype).

use std::path::Path;
use std::sync::OnceLock;

use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::recording::Recording;
use crate::Error;

const WIDTH: u32 = 1200;
const PANEL_HEIGHT: u32 = 280;
const TITLE_HEIGHT: u32 = 40;
const FONT: &str = "sans-serif";

/// A panel: its title, its unit, and which variables it shows, by the variable's name within its
/// instance (`r_0[3]` for `ball.r_0[3]`): RigidBody's outputs and ContactForce's totals.
struct Panel {
    title: &'static str,
    unit: &'static str,
    shows: fn(&str) -> bool,
}

const PANELS: [Panel; 5] = [
    Panel { title: "position", unit: "m", shows: |v| element_of(v, "r_0") },
    Panel { title: "velocity", unit: "m/s", shows: |v| element_of(v, "v_0") },
    Panel { title: "angular velocity", unit: "rad/s", shows: |v| element_of(v, "w_0") },
    Panel { title: "normal force", unit: "N", shows: |v| v == "contact.normal_force" },
    Panel { title: "friction force", unit: "N", shows: |v| v == "contact.friction_force" },
];

/// `r_0[2]` is an element of `r_0`.
fn element_of(variable: &str, array: &str) -> bool {
    variable.strip_prefix(array).is_some_and(|rest| rest.starts_with('[') && rest.ends_with(']'))
}

const COLORS: [RGBColor; 6] =
    [RGBColor(31, 119, 180), RGBColor(214, 39, 40), RGBColor(44, 160, 44), RGBColor(255, 127, 14), RGBColor(148, 103, 189), RGBColor(23, 190, 207)];

fn register_font() -> Result<(), Error> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok());
    if ok {
        Ok(())
    } else {
        Err(Error::new("the DejaVu Sans font shipped with the dejavu crate could not be loaded"))
    }
}

/// The samples to draw: all of them when they are few, else the first and last sample and the
/// smallest and largest value of each of `buckets` equal slices, in time order, so that short
/// peaks (impacts) survive the thinning.
fn thin(time: &[f64], values: &[f64], buckets: usize) -> Vec<(f64, f64)> {
    if time.len() <= 2 * buckets {
        return time.iter().copied().zip(values.iter().copied()).collect();
    }
    let mut points = vec![(time[0], values[0])];
    let size = time.len().div_ceil(buckets);
    for start in (0..time.len()).step_by(size) {
        let end = (start + size).min(time.len());
        let (mut low, mut high) = (start, start);
        for i in start..end {
            if values[i] < values[low] {
                low = i;
            }
            if values[i] > values[high] {
                high = i;
            }
        }
        let (a, b) = if low <= high { (low, high) } else { (high, low) };
        points.push((time[a], values[a]));
        if b != a {
            points.push((time[b], values[b]));
        }
    }
    points.push((time[time.len() - 1], values[values.len() - 1]));
    points
}

/// A range around [low, high] with a margin, never empty: a constant c gets c ± 5 % (± 1 for 0).
fn padded(low: f64, high: f64) -> std::ops::Range<f64> {
    if !(low.is_finite() && high.is_finite()) {
        return -1.0..1.0;
    }
    let span = high - low;
    let margin = if span > 0.0 {
        0.05 * span
    } else if low != 0.0 {
        0.05 * low.abs()
    } else {
        1.0
    };
    (low - margin)..(high + margin)
}

/// Tick labels for ticks about `spacing` apart: as many decimals as the spacing needs, no "-0".
fn tick_text(spacing: f64) -> impl Fn(&f64) -> String {
    let decimals = if spacing > 0.0 && spacing.is_finite() { (-spacing.log10().floor()).clamp(0.0, 12.0) as usize } else { 3 };
    move |value: &f64| {
        let text = format!("{value:.decimals$}");
        if text.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
            "0".to_string()
        } else {
            text
        }
    }
}

/// Writes `path` (a PNG) with one panel per kind of quantity that `recording` holds; returns
/// false, writing nothing, when it holds none of them.
pub fn write_png(recording: &Recording, title: &str, path: &Path) -> Result<bool, Error> {
    let variable = |name: &str| name.split_once('.').map(|(_, v)| v.to_string()).unwrap_or_default();
    let panels: Vec<(&Panel, Vec<&String>)> = PANELS
        .iter()
        .map(|panel| (panel, recording.names().iter().filter(|name| (panel.shows)(&variable(name))).collect::<Vec<_>>()))
        .filter(|(_, names)| !names.is_empty())
        .collect();
    if panels.is_empty() || recording.len() < 2 {
        return Ok(false);
    }
    register_font()?;
    let failed = |e: &dyn std::fmt::Display| Error::new(format!("could not draw {}: {e}", path.display()));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| failed(&e))?;
    }
    let height = TITLE_HEIGHT + PANEL_HEIGHT * panels.len() as u32;
    let root = BitMapBackend::new(path, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failed(&e))?;
    let (top, body) = root.split_vertically(TITLE_HEIGHT);
    top.titled(title, (FONT, 22)).map_err(|e| failed(&e))?;
    let time = recording.time();
    let (t0, t1) = (time[0], time[time.len() - 1]);
    for ((panel, names), area) in panels.iter().zip(body.split_evenly((panels.len(), 1))) {
        let series: Vec<(&String, Vec<(f64, f64)>)> = names
            .iter()
            .map(|name| (*name, thin(time, recording.column(name).expect("a recorded name"), WIDTH as usize)))
            .collect();
        let (low, high) = series
            .iter()
            .flat_map(|(_, points)| points.iter().map(|p| p.1))
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
        let range = padded(low, high);
        let tick = tick_text((range.end - range.start) / 10.0);
        let mut chart = ChartBuilder::on(&area)
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(80)
            .build_cartesian_2d(t0..t1, range)
            .map_err(|e| failed(&e))?;
        chart
            .configure_mesh()
            .x_desc("time [s]")
            .y_desc(format!("{} [{}]", panel.title, panel.unit))
            .y_label_formatter(&tick)
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 15))
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(225, 225, 225))
            .draw()
            .map_err(|e| failed(&e))?;
        for (i, (name, points)) in series.into_iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            chart
                .draw_series(LineSeries::new(points, color.stroke_width(1)))
                .map_err(|e| failed(&e))?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font((FONT, 14))
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(180, 180, 180))
            .draw()
            .map_err(|e| failed(&e))?;
    }
    root.present().map_err(|e| failed(&e))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_the_ends_and_every_slice_extreme_in_time_order() {
        let time: Vec<f64> = (0..1000).map(|i| i as f64).collect();
        let mut values = vec![0.0; 1000];
        values[503] = 7.0; // a one-sample peak
        values[250] = -2.0;
        let points = thin(&time, &values, 10);
        assert!(points.len() <= 2 * 10 + 2);
        assert_eq!(points[0], (0.0, 0.0));
        assert_eq!(*points.last().unwrap(), (999.0, 0.0));
        assert!(points.contains(&(503.0, 7.0)) && points.contains(&(250.0, -2.0)));
        assert!(points.windows(2).all(|w| w[0].0 <= w[1].0));
        assert_eq!(thin(&time[..15], &values[..15], 10).len(), 15);
    }

    #[test]
    fn value_ranges_have_a_margin_and_never_collapse() {
        assert_eq!(padded(0.0, 10.0), -0.5..10.5);
        assert_eq!(padded(2.0, 2.0), 1.9..2.1);
        assert_eq!(padded(0.0, 0.0), -1.0..1.0);
        assert_eq!(padded(f64::INFINITY, f64::NEG_INFINITY), -1.0..1.0);
    }

    #[test]
    fn tick_labels_carry_the_decimals_their_spacing_needs() {
        assert_eq!(tick_text(0.2)(&-1.4), "-1.4");
        assert_eq!(tick_text(0.2)(&-1e-17), "0");
        assert_eq!(tick_text(250.0)(&1250.0), "1250");
        assert_eq!(tick_text(2e-7)(&3.6e-6), "0.0000036");
    }

    #[test]
    fn panels_pick_body_outputs_and_contact_totals_by_name() {
        assert!(element_of("r_0[3]", "r_0") && !element_of("frame_b.r_0[3]", "r_0") && !element_of("r_0_start[1]", "r_0"));
        assert!((PANELS[3].shows)("contact.normal_force") && !(PANELS[3].shows)("contact.point[1].normal_force"));
    }

    #[test]
    fn writes_a_png_with_text_and_skips_a_recording_with_nothing_to_show() {
        let mut recording = Recording::new(vec!["ball.r_0[3]".into(), "ball.v_0[3]".into(), "contact.contact.normal_force".into()]);
        for k in 0..=500 {
            let t = k as f64 * 1e-3;
            recording.push(t, &[0.1 - 4.9 * t * t, -9.81 * t, if (200..210).contains(&k) { 50.0 } else { 0.0 }]);
        }
        let dir = std::env::temp_dir().join(format!("cosim-plot-test-{}", std::process::id()));
        let path = dir.join("drop.png");
        assert!(write_png(&recording, "drop", &path).unwrap());
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        let nothing = Recording::new(vec!["contact.frame_b.f_0[3]".into()]);
        assert!(!write_png(&nothing, "nothing", &dir.join("nothing.png")).unwrap());
        assert!(!dir.join("nothing.png").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
