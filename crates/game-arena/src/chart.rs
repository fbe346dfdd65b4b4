//! A line chart with error bars as an SVG document: score against budget
//! for a budget sweep. Plain SVG 1.1 text, no dependencies.

use std::fmt::Write as _;

/// One point: `y` with its interval `[low, high]` at `x`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The position on the x axis (a budget).
    pub x: f64,
    /// The value (a score in `[0, 1]`).
    pub y: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// One line of the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Its name in the legend.
    pub label: String,
    /// Its points, drawn in order of `x`.
    pub points: Vec<Point>,
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 200.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;
const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];

/// Escapes text for an SVG text node or attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Draws `series` as score (y, `[0, 1]` shown as percentages, with the
/// 50% line) against `x`. The x axis is logarithmic when every `x` is
/// positive and they span a factor of 4 or more (budgets usually double).
pub fn score_chart(title: &str, x_label: &str, series: &[Series]) -> String {
    let xs: Vec<f64> = series
        .iter()
        .flat_map(|series| series.points.iter().map(|point| point.x))
        .collect();
    let (min_x, max_x) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), &x| {
            (low.min(x), high.max(x))
        });
    let (min_x, max_x) = if xs.is_empty() {
        (0.0, 1.0)
    } else {
        (min_x, max_x)
    };
    let log = min_x > 0.0 && max_x / min_x >= 4.0;
    let scale = |x: f64| if log { x.ln() } else { x };
    let (lo, hi) = (scale(min_x), scale(max_x));
    let span = if hi > lo { hi - lo } else { 1.0 };
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let to_x = |x: f64| {
        if hi > lo {
            LEFT + (scale(x) - lo) / span * plot_width
        } else {
            LEFT + plot_width / 2.0
        }
    };
    let to_y = |y: f64| TOP + (1.0 - y.clamp(0.0, 1.0)) * plot_height;

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r#"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="24" text-anchor="middle" font-size="15">{}</text>"#,
        LEFT + plot_width / 2.0,
        escape(title)
    );
    // Horizontal grid: every 10%, the 50% line darker.
    for step in 0..=10 {
        let y = to_y(f64::from(step) / 10.0);
        let stroke = if step == 5 { "#888" } else { "#e4e4e4" };
        let _ = writeln!(
            svg,
            r#"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{stroke}"/>"#,
            LEFT + plot_width
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}%</text>"#,
            LEFT - 6.0,
            y + 4.0,
            step * 10
        );
    }
    // x ticks at the distinct budgets.
    let mut ticks = xs.clone();
    ticks.sort_by(f64::total_cmp);
    ticks.dedup();
    for &x in &ticks {
        let px = to_x(x);
        let _ = writeln!(
            svg,
            r##"<line x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{:.1}" stroke="#f0f0f0"/>"##,
            TOP + plot_height
        );
        let _ = writeln!(
            svg,
            r#"<text x="{px:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            TOP + plot_height + 18.0,
            format_tick(x)
        );
    }
    let _ = writeln!(
        svg,
        r#"<rect x="{LEFT}" y="{TOP}" width="{plot_width}" height="{plot_height}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}{}</text>"#,
        LEFT + plot_width / 2.0,
        HEIGHT - 16.0,
        escape(x_label),
        if log { " (log scale)" } else { "" }
    );
    let _ = writeln!(
        svg,
        r#"<text x="18" y="{:.1}" text-anchor="middle" transform="rotate(-90 18 {:.1})">score (95% interval)</text>"#,
        TOP + plot_height / 2.0,
        TOP + plot_height / 2.0
    );
    for (index, series) in series.iter().enumerate() {
        let colour = COLOURS[index % COLOURS.len()];
        let mut points = series.points.clone();
        points.sort_by(|a, b| a.x.total_cmp(&b.x));
        let path: Vec<String> = points
            .iter()
            .map(|point| format!("{:.1},{:.1}", to_x(point.x), to_y(point.y)))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            path.join(" ")
        );
        for point in &points {
            let (px, py) = (to_x(point.x), to_y(point.y));
            let _ = writeln!(
                svg,
                r#"<line x1="{px:.1}" y1="{:.1}" x2="{px:.1}" y2="{:.1}" stroke="{colour}"/>"#,
                to_y(point.low),
                to_y(point.high)
            );
            let _ = writeln!(
                svg,
                r#"<circle cx="{px:.1}" cy="{py:.1}" r="3.5" fill="{colour}"><title>{}: {:.1}% ({:.1}%-{:.1}%) at {}</title></circle>"#,
                escape(&series.label),
                100.0 * point.y,
                100.0 * point.low,
                100.0 * point.high,
                format_tick(point.x)
            );
        }
        let legend_y = TOP + 10.0 + 20.0 * index as f64;
        let legend_x = LEFT + plot_width + 14.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{legend_x:.1}" y1="{legend_y:.1}" x2="{:.1}" y2="{legend_y:.1}" stroke="{colour}" stroke-width="2"/>"#,
            legend_x + 18.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            legend_x + 24.0,
            legend_y + 4.0,
            escape(&series.label)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

fn format_tick(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_has_a_line_per_series_and_escapes_labels() {
        let point = |x, y| Point {
            x,
            y,
            low: y - 0.1,
            high: y + 0.1,
        };
        let series = vec![
            Series {
                label: "vs greedy".to_string(),
                points: vec![point(400.0, 0.7), point(100.0, 0.4), point(200.0, 0.55)],
            },
            Series {
                label: "vs <random> & co".to_string(),
                points: vec![point(100.0, 0.8), point(400.0, 0.95)],
            },
        ];
        let svg = score_chart("uct: score against iters", "iters", &series);
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 5);
        assert!(svg.contains("vs &lt;random&gt; &amp; co"));
        assert!(svg.contains("(log scale)"));
        // Points are drawn in order of x: 100 is left of 200, left of 400.
        let polyline = svg.lines().find(|line| line.contains("<polyline")).unwrap();
        let xs: Vec<f64> = polyline
            .split('"')
            .nth(1)
            .unwrap()
            .split(' ')
            .map(|pair| pair.split(',').next().unwrap().parse().unwrap())
            .collect();
        assert!(xs.windows(2).all(|pair| pair[0] < pair[1]), "{xs:?}");
        // An empty chart is still a document.
        assert!(score_chart("empty", "iters", &[]).contains("</svg>"));
    }
}
