//! Charts of measured false-positive rates against the theory: text for the terminal, SVG
//! for a file.

use std::fmt::Write as _;

/// One line on a chart: a label, a mark for the terminal, and (n, rate) points.
#[derive(Debug, Clone)]
pub struct Series {
    pub label: String,
    pub mark: char,
    pub points: Vec<(f64, f64)>,
    /// Drawn as a curve through every column (the theory), not as marks at the points.
    pub curve: bool,
}

const WIDTH: usize = 60;
const HEIGHT: usize = 16;

fn bounds(series: &[Series]) -> (f64, f64) {
    let all = series.iter().flat_map(|s| s.points.iter());
    let max_n = all.clone().map(|p| p.0).fold(1.0, f64::max);
    let max_p = all.map(|p| p.1).fold(0.0, f64::max).max(1e-9);
    (max_n, max_p)
}

/// A text chart: rate up, keys added across. Later series draw over earlier ones.
pub fn text(series: &[Series]) -> Vec<String> {
    let (max_n, max_p) = bounds(series);
    let mut grid = vec![vec![' '; WIDTH]; HEIGHT];
    let mut plot = |n: f64, p: f64, mark: char| {
        let x = ((n / max_n) * (WIDTH - 1) as f64).round() as usize;
        let y = ((p / max_p) * (HEIGHT - 1) as f64).round() as usize;
        grid[HEIGHT - 1 - y.min(HEIGHT - 1)][x.min(WIDTH - 1)] = mark;
    };
    for s in series {
        if s.curve {
            // Linear between the points, one value per column.
            for pair in s.points.windows(2) {
                let ((n0, p0), (n1, p1)) = (pair[0], pair[1]);
                let cols = (((n1 - n0) / max_n) * WIDTH as f64).ceil().max(1.0) as usize;
                for c in 0..=cols {
                    let t = c as f64 / cols as f64;
                    plot(n0 + t * (n1 - n0), p0 + t * (p1 - p0), s.mark);
                }
            }
        } else {
            for &(n, p) in &s.points {
                plot(n, p, s.mark);
            }
        }
    }
    let mut lines = Vec::new();
    for (i, row) in grid.iter().enumerate() {
        let label = match i {
            0 => format!("{max_p:>8.4}"),
            _ if i == HEIGHT - 1 => format!("{:>8}", 0),
            _ => " ".repeat(8),
        };
        lines.push(format!(
            "{label} |{}",
            row.iter().collect::<String>().trim_end()
        ));
    }
    lines.push(format!("{} +{}", " ".repeat(8), "-".repeat(WIDTH)));
    lines.push(format!(
        "{}  0{:>w$}",
        " ".repeat(8),
        format!("{max_n} keys added"),
        w = WIDTH - 1
    ));
    let legend: Vec<String> = series
        .iter()
        .map(|s| format!("{} {}", s.mark, s.label))
        .collect();
    lines.push(format!("{}  {}", " ".repeat(8), legend.join("   ")));
    lines
}

const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#7f7f7f",
];

/// The same chart as an SVG figure.
pub fn svg(title: &str, series: &[Series]) -> String {
    let (w, h, left, bottom, top, right) = (760.0, 440.0, 70.0, 60.0, 40.0, 240.0);
    let (max_n, max_p) = bounds(series);
    let px = |n: f64| left + n / max_n * (w - left - right);
    let py = |p: f64| h - bottom - p / max_p * (h - bottom - top);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="24" font-size="15">{}</text>"#,
        escape(title)
    );
    // Axes and ticks.
    let (x0, y0, x1, y1) = (px(0.0), py(0.0), px(max_n), py(max_p));
    let _ = writeln!(
        s,
        r#"<path d="M{x0},{y1} L{x0},{y0} L{x1},{y0}" stroke="black" fill="none"/>"#
    );
    for i in 0..=4 {
        let f = i as f64 / 4.0;
        let (tx, ty) = (px(max_n * f), py(max_p * f));
        let _ = writeln!(
            s,
            r#"<text x="{tx}" y="{}" text-anchor="middle">{}</text>"#,
            y0 + 18.0,
            (max_n * f).round()
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{:.4}</text>"#,
            x0 - 6.0,
            ty + 4.0,
            max_p * f
        );
        let _ = writeln!(
            s,
            r##"<line x1="{x0}" y1="{ty}" x2="{x1}" y2="{ty}" stroke="#ddd"/>"##
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">keys added (n)</text>"#,
        (x0 + x1) / 2.0,
        h - 18.0
    );
    let _ = writeln!(
        s,
        r#"<text x="18" y="{}" text-anchor="middle" transform="rotate(-90 18 {})">false-positive rate</text>"#,
        (y0 + y1) / 2.0,
        (y0 + y1) / 2.0
    );
    for (i, series) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let dash = if series.label.contains("theory") {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let points: Vec<String> = series
            .points
            .iter()
            .map(|&(n, p)| format!("{:.1},{:.1}", px(n), py(p)))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
            points.join(" ")
        );
        let ly = top + 20.0 + 20.0 * i as f64;
        let lx = w - right + 16.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/>"#,
            lx + 24.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{}</text>"#,
            lx + 30.0,
            ly + 4.0,
            escape(&series.label)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
