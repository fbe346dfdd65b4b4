//! The training chart: losses (top) and Elo against each opponent with
//! its 95% interval (bottom), against training time. Plain SVG 1.1 text.

use std::fmt::Write as _;

use crate::run::CheckpointRecord;

const WIDTH: f64 = 760.0;
const PANEL: f64 = 240.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 190.0;
const TOP: f64 = 40.0;
const GAP: f64 = 60.0;
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
];
/// Elo beyond this (a score of 0 or 1) is drawn at the edge.
const ELO_CAP: f64 = 800.0;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One line of a panel: (minutes, value, low, high) points.
struct Line {
    label: String,
    points: Vec<(f64, f64, f64, f64)>,
}

/// Draws the chart of `records` with `title`.
pub fn training_chart(title: &str, records: &[CheckpointRecord]) -> String {
    let minutes: Vec<f64> = records.iter().map(|record| record.seconds / 60.0).collect();
    let max_minutes = minutes.iter().copied().fold(0.0, f64::max).max(1e-3);
    let losses = vec![
        Line {
            label: "policy loss".to_string(),
            points: records
                .iter()
                .zip(&minutes)
                .map(|(record, &m)| {
                    let value = f64::from(record.policy_loss);
                    (m, value, value, value)
                })
                .collect(),
        },
        Line {
            label: "value loss".to_string(),
            points: records
                .iter()
                .zip(&minutes)
                .map(|(record, &m)| {
                    let value = f64::from(record.value_loss);
                    (m, value, value, value)
                })
                .collect(),
        },
    ];
    let mut names: Vec<String> = Vec::new();
    for record in records {
        for result in &record.matches {
            if !names.contains(&result.opponent) {
                names.push(result.opponent.clone());
            }
        }
    }
    let cap = |elo: f64| elo.clamp(-ELO_CAP, ELO_CAP);
    let elos: Vec<Line> = names
        .iter()
        .map(|name| Line {
            label: format!("Elo vs {name}"),
            points: records
                .iter()
                .zip(&minutes)
                .filter_map(|(record, &m)| {
                    record
                        .matches
                        .iter()
                        .find(|result| &result.opponent == name)
                        .map(|result| {
                            (
                                m,
                                cap(result.elo),
                                cap(result.elo_low),
                                cap(result.elo_high),
                            )
                        })
                })
                .collect(),
        })
        .collect();
    let height = TOP + 2.0 * PANEL + GAP + 50.0;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    panel(&mut svg, TOP, "loss", &losses, max_minutes, false, 0);
    panel(
        &mut svg,
        TOP + PANEL + GAP,
        "Elo",
        &elos,
        max_minutes,
        true,
        2,
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">training time (minutes)</text>"#,
        LEFT + (WIDTH - LEFT - RIGHT) / 2.0,
        height - 12.0
    );
    svg.push_str("</svg>\n");
    svg
}

/// One panel at `top`: axes, the lines with their intervals, the legend.
fn panel(
    svg: &mut String,
    top: f64,
    y_label: &str,
    lines: &[Line],
    max_minutes: f64,
    zero_line: bool,
    first_colour: usize,
) {
    let plot_width = WIDTH - LEFT - RIGHT;
    let values = lines
        .iter()
        .flat_map(|line| line.points.iter().flat_map(|p| [p.1, p.2, p.3]));
    let (mut low, mut high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if zero_line {
        low = low.min(0.0);
        high = high.max(0.0);
    }
    if !low.is_finite() || !high.is_finite() {
        (low, high) = (0.0, 1.0);
    }
    if high - low < 1e-9 {
        high = low + 1.0;
    }
    let to_x = |minutes: f64| LEFT + minutes / max_minutes * plot_width;
    let to_y = |value: f64| top + (high - value) / (high - low) * PANEL;
    let _ = writeln!(
        svg,
        r##"<rect x="{LEFT}" y="{top}" width="{plot_width}" height="{PANEL}" fill="none" stroke="#444"/>"##
    );
    for tick in 0..=4 {
        let value = low + (high - low) * f64::from(tick) / 4.0;
        let y = to_y(value);
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT + plot_width,
            LEFT - 6.0,
            y + 4.0,
            if high - low > 20.0 {
                format!("{value:.0}")
            } else {
                format!("{value:.2}")
            }
        );
        let minutes = max_minutes * f64::from(tick) / 4.0;
        let x = to_x(minutes);
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{minutes:.1}</text>"#,
            top + PANEL + 16.0
        );
    }
    if zero_line {
        let y = to_y(0.0);
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#888" stroke-dasharray="4 3"/>"##,
            LEFT + plot_width
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="18" y="{:.1}" transform="rotate(-90 18 {:.1})" text-anchor="middle">{}</text>"#,
        top + PANEL / 2.0,
        top + PANEL / 2.0,
        escape(y_label)
    );
    for (index, line) in lines.iter().enumerate() {
        let colour = COLOURS[(first_colour + index) % COLOURS.len()];
        let path: Vec<String> = line
            .points
            .iter()
            .map(|&(m, v, _, _)| format!("{:.1},{:.1}", to_x(m), to_y(v)))
            .collect();
        if path.len() > 1 {
            let _ = writeln!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
                path.join(" ")
            );
        }
        for &(m, v, lo, hi) in &line.points {
            let x = to_x(m);
            if hi > lo {
                let _ = writeln!(
                    svg,
                    r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="{colour}" stroke-opacity="0.5"/>"#,
                    to_y(lo),
                    to_y(hi)
                );
            }
            let _ = writeln!(
                svg,
                r#"<circle cx="{x:.1}" cy="{:.1}" r="2.5" fill="{colour}"/>"#,
                to_y(v)
            );
        }
        let y = top + 16.0 + 18.0 * index as f64;
        let _ = writeln!(
            svg,
            r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{}</text>"#,
            WIDTH - RIGHT + 12.0,
            WIDTH - RIGHT + 32.0,
            WIDTH - RIGHT + 38.0,
            y + 4.0,
            escape(&line.label)
        );
    }
}
