//! Charts of measured false-positive rates against the theory: text for the terminal, SVG
//! for a file.

use std::fmt::Write as _;

use crate::units::{group, significant};

/// One line on a chart: a label, a mark for the terminal, and (n, rate) points.
#[derive(Debug, Clone)]
pub struct Series {
    pub label: String,
    pub mark: char,
    pub points: Vec<(f64, f64)>,
    /// Drawn as a curve through every column (the theory), not as marks at the points.
    pub curve: bool,
}

/// Marks for measured series, given out by index (a scheme's place in `Scheme::ALL`), so a
/// mark never depends on a name.
pub const MARKS: [char; 6] = ['o', 'x', '#', '@', '%', '&'];

/// The theory's curve.
pub const CURVE: char = '.';

/// Where marks of two or more series fall in one place.
pub const OVERLAP: char = '*';

const WIDTH: usize = 60;
const HEIGHT: usize = 16;

fn bounds(series: &[Series]) -> (f64, f64) {
    let all = series.iter().flat_map(|s| s.points.iter());
    let max_n = all.clone().map(|p| p.0).fold(1.0, f64::max);
    let max_p = all.map(|p| p.1).fold(0.0, f64::max).max(1e-9);
    (max_n, max_p)
}

/// What one character of the text chart holds.
#[derive(Debug, Clone, Default)]
struct Cell {
    /// The curve drawn through it, if any (the last one drawn).
    curve: Option<usize>,
    /// Series with a mark here, each once, in drawing order.
    marks: Vec<usize>,
}

impl Cell {
    fn shows(&self, series: &[Series]) -> char {
        match (self.marks.as_slice(), self.curve) {
            ([], None) => ' ',
            ([], Some(c)) => series[c].mark,
            ([one], _) => series[*one].mark,
            _ => OVERLAP,
        }
    }

    /// Whether this cell shows series `i`'s own mark.
    fn shows_own(&self, i: usize) -> bool {
        self.marks == [i] || (self.marks.is_empty() && self.curve == Some(i))
    }
}

/// A text chart: rate up, keys added across. Marks of different series in one place show
/// as [`OVERLAP`], and the legend says which series are seen only there, so no series
/// disappears behind another.
pub fn text(series: &[Series]) -> Vec<String> {
    let (max_n, max_p) = bounds(series);
    let mut grid = vec![vec![Cell::default(); WIDTH]; HEIGHT];
    let cell = |n: f64, p: f64| {
        let x = ((n / max_n) * (WIDTH - 1) as f64).round() as usize;
        let y = ((p / max_p) * (HEIGHT - 1) as f64).round() as usize;
        (HEIGHT - 1 - y.min(HEIGHT - 1), x.min(WIDTH - 1))
    };
    for (i, s) in series.iter().enumerate() {
        if s.curve {
            // Linear between the points, one value per column.
            for pair in s.points.windows(2) {
                let ((n0, p0), (n1, p1)) = (pair[0], pair[1]);
                let cols = (((n1 - n0) / max_n) * WIDTH as f64).ceil().max(1.0) as usize;
                for c in 0..=cols {
                    let t = c as f64 / cols as f64;
                    let (row, col) = cell(n0 + t * (n1 - n0), p0 + t * (p1 - p0));
                    grid[row][col].curve = Some(i);
                }
            }
        } else {
            for &(n, p) in &s.points {
                let (row, col) = cell(n, p);
                let marks = &mut grid[row][col].marks;
                if !marks.contains(&i) {
                    marks.push(i);
                }
            }
        }
    }
    let mut lines = Vec::new();
    for (i, row) in grid.iter().enumerate() {
        let label = match i {
            0 => format!("{:>8}", significant(max_p)),
            _ if i == HEIGHT - 1 => format!("{:>8}", 0),
            _ => " ".repeat(8),
        };
        let chars: String = row.iter().map(|c| c.shows(series)).collect();
        lines.push(format!("{label} |{}", chars.trim_end()));
    }
    lines.push(format!("{} +{}", " ".repeat(8), "-".repeat(WIDTH)));
    lines.push(format!(
        "{}  0{:>w$}",
        " ".repeat(8),
        format!("{} keys added", group(max_n.round() as u64)),
        w = WIDTH - 1
    ));
    let cells = || grid.iter().flatten();
    let mut legend: Vec<String> = series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let own = cells().any(|c| c.shows_own(i));
            let under_overlap = cells().any(|c| c.marks.len() > 1 && c.marks.contains(&i));
            match (own, under_overlap, s.curve) {
                (true, _, _) => format!("{} {}", s.mark, s.label),
                (false, true, _) => format!("{} {} (only at {OVERLAP})", s.mark, s.label),
                (false, false, true) => format!("{} {} (under the marks)", s.mark, s.label),
                (false, false, false) => format!("{} {} (off the chart)", s.mark, s.label),
            }
        })
        .collect();
    if cells().any(|c| c.marks.len() > 1) {
        legend.push(format!("{OVERLAP} marks that overlap"));
    }
    // As many entries a line as fit under the chart's width.
    let mut line = String::new();
    for entry in legend {
        if !line.is_empty() && line.chars().count() + 3 + entry.chars().count() > WIDTH + 2 {
            lines.push(format!("{}  {line}", " ".repeat(8)));
            line.clear();
        }
        if !line.is_empty() {
            line.push_str("   ");
        }
        line.push_str(&entry);
    }
    lines.push(format!("{}  {line}", " ".repeat(8)));
    lines
}

const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#7f7f7f",
];

/// The same chart as an SVG figure. Measured series also get a ring at each point, wider
/// for series drawn earlier, so points in one place show as rings around each other.
pub fn svg(title: &str, series: &[Series]) -> String {
    let (w, h, left, bottom, top, right) = (760.0, 440.0, 70.0, 60.0, 40.0, 240.0);
    let (max_n, max_p) = bounds(series);
    let px = |n: f64| left + n / max_n * (w - left - right);
    let py = |p: f64| h - bottom - p / max_p * (h - bottom - top);
    let rings = series.iter().filter(|s| !s.curve).count();
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
            group((max_n * f).round() as u64)
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            x0 - 6.0,
            ty + 4.0,
            significant(max_p * f)
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
    let mut ring = 0;
    for (i, series) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let dash = if series.curve {
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
        if !series.curve {
            let r = 3.0 + 2.0 * (rings - 1 - ring) as f64;
            ring += 1;
            for &(n, p) in &series.points {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="none" stroke="{colour}" stroke-width="1.5"/>"#,
                    px(n),
                    py(p)
                );
            }
            let _ = writeln!(
                s,
                r#"<circle cx="{}" cy="{ly}" r="{r}" fill="white" stroke="{colour}" stroke-width="1.5"/>"#,
                lx + 12.0
            );
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn series(label: &str, mark: char, points: &[(f64, f64)], curve: bool) -> Series {
        Series {
            label: label.into(),
            mark,
            points: points.to_vec(),
            curve,
        }
    }

    /// The legend's entries, on as many lines as they take, as one line.
    fn legend(lines: &[String]) -> String {
        let start = lines.iter().position(|l| l.contains("keys added")).unwrap() + 1;
        assert!(lines.iter().all(|l| l.chars().count() <= 80), "{lines:#?}");
        let rows: Vec<&str> = lines[start..].iter().map(|l| l.trim()).collect();
        rows.join("   ")
    }

    #[test]
    fn overlapping_marks_are_said_to_overlap() {
        let a = series("a measured", 'o', &[(50.0, 0.1), (100.0, 0.2)], false);
        let b = series("b measured", 'x', &[(50.0, 0.1), (100.0, 0.2)], false);
        let lines = text(&[a, b]);
        let drawn: String = lines[..HEIGHT].concat();
        assert!(!drawn.contains('o') && !drawn.contains('x'), "{drawn}");
        assert_eq!(drawn.matches(OVERLAP).count(), 2, "{lines:#?}");
        assert_eq!(
            legend(&lines),
            "o a measured (only at *)   x b measured (only at *)   * marks that overlap"
        );
    }

    #[test]
    fn a_series_seen_apart_needs_no_note() {
        let curve = series("theory", CURVE, &[(0.0, 0.0), (100.0, 0.2)], true);
        let a = series("a measured", 'o', &[(50.0, 0.1), (100.0, 0.2)], false);
        let b = series("b measured", 'x', &[(50.0, 0.15), (100.0, 0.2)], false);
        let lines = text(&[curve, a, b]);
        assert_eq!(
            legend(&lines),
            ". theory   o a measured   x b measured   * marks that overlap"
        );
        let c = series("c measured", '#', &[(100.0, 0.05)], false);
        let lines = text(&[c]);
        assert_eq!(legend(&lines), "# c measured");
    }

    #[test]
    fn small_rates_label_the_axis_without_rounding_to_zero() {
        let a = series("a", 'o', &[(10.0, 0.000_03), (20.0, 0.000_04)], false);
        let lines = text(&[a]);
        assert!(lines[0].starts_with(" 4.00e-5 |"), "{}", lines[0]);
    }

    #[test]
    fn svg_rings_every_measured_series() {
        let curve = series("theory", CURVE, &[(0.0, 0.0), (100.0, 0.2)], true);
        let a = series("a", 'o', &[(50.0, 0.1)], false);
        let b = series("b", 'x', &[(50.0, 0.1)], false);
        let svg = svg("t", &[curve, a, b]);
        // One ring per point and one in the legend for each measured series, the earlier wider.
        assert_eq!(svg.matches(r#"r="5""#).count(), 2, "{svg}");
        assert_eq!(svg.matches(r#"r="3""#).count(), 2, "{svg}");
    }
}
