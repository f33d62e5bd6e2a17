//! `bloom-tutor experiment`: fills real filters with generated keys and measures how often a
//! key never added answers MAYBE, next to what the theory predicts.

pub mod chart;
pub mod keys;

use std::fs::{self, OpenOptions};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::cli::ExperimentArgs;
use crate::engine::bloom::{Answer, Bloom};
use crate::engine::scheme::{FilterSpec, Scheme, SpecError};
use crate::engine::theory;
use crate::render::wrap::{Width, Wrapped};
use crate::units::{duration, group, significant};
use chart::Series;

/// One measurement: after n keys, the rate of MAYBE among keys never added.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Row {
    pub n: u64,
    /// False positives / queries.
    pub measured: f64,
    /// (X/m)^k from the bits actually set.
    pub from_fill: f64,
    /// (1 − e^(−kn/m))^k.
    pub textbook: f64,
}

/// What to measure. Keys get serials 2i (added) and 2i + 1 (never added), so `items` and
/// `queries` stay below 2^63; the command line allows at most 10^12 of each.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub items: u64,
    pub queries: u64,
    pub steps: u64,
    pub seed: u64,
}

impl Plan {
    /// Keys hashed on one filter: every key added, and the queries after each step.
    fn work(&self) -> u64 {
        self.items
            .saturating_add(self.steps.saturating_mul(self.queries))
    }
}

/// Adds keys 0, 2, 4, ... (even serials) in `plan.steps` steps up to `plan.items`, and after
/// each step checks `plan.queries` keys with odd serials, which were never added.
/// `tick` is called with the number of keys handled so far.
pub fn measure(spec: &FilterSpec, plan: Plan, tick: &mut dyn FnMut(u64)) -> Vec<Row> {
    let mut bloom = Bloom::new(*spec);
    let mut key = Vec::new();
    let mut added = 0u64;
    let mut handled = 0u64;
    let mut rows = Vec::new();
    for step in 1..=plan.steps {
        // In u128: items × step passes 2^64 for large plans.
        let target = (u128::from(plan.items) * u128::from(step) / u128::from(plan.steps)) as u64;
        while added < target {
            keys::key(plan.seed, 2 * added, &mut key);
            bloom.add(&key);
            added += 1;
            handled += 1;
            if handled.is_multiple_of(8192) {
                tick(handled);
            }
        }
        let mut maybes = 0u64;
        for q in 0..plan.queries {
            keys::key(plan.seed, 2 * q + 1, &mut key);
            match bloom.check(&key) {
                Answer::Maybe => maybes += 1,
                Answer::No => {}
            }
            handled += 1;
            if handled.is_multiple_of(8192) {
                tick(handled);
            }
        }
        let (m, k) = (spec.bits(), spec.hashes());
        rows.push(Row {
            n: added,
            measured: maybes as f64 / plan.queries.max(1) as f64,
            from_fill: theory::fp_from_fill(bloom.filter().count_ones(), m, k),
            textbook: theory::fp_textbook(added as f64, m, k),
        });
    }
    rows
}

/// Runs that should take longer than this say so, before they start.
const WARN_AFTER_SECONDS: f64 = 5.0;

/// Keys added, and checked, in the timing sample for each filter.
const SAMPLE_KEYS: u64 = 8192;

/// The largest filter the timing sample fills: 8 MiB, larger than the caches, small enough
/// that an untimed first batch of keys touches nearly all of its pages. On a larger filter
/// the sample would time the system handing out pages, which the run pays once per page,
/// not once per key.
const SAMPLE_MAX_BITS: u64 = 1 << 26;

/// Seconds `plan` should take on `specs`. Per key: the same keys on a filter of the same
/// scheme and k (at most [`SAMPLE_MAX_BITS`]), timed after an untimed batch. Per step: one
/// count of the full-size filter's bits, the second of two (the first read of untouched
/// pages costs more than every later one).
fn estimate(specs: &[FilterSpec], plan: Plan) -> f64 {
    let mut seconds = 0.0;
    let mut key = Vec::new();
    for spec in specs {
        let small = FilterSpec::new(
            spec.scheme(),
            Some(spec.bits().min(SAMPLE_MAX_BITS)),
            Some(spec.hashes()),
        )
        .unwrap_or(*spec);
        let mut bloom = Bloom::new(small);
        let (adds, checks) = (SAMPLE_KEYS.min(plan.items), SAMPLE_KEYS.min(plan.queries));
        for i in adds..2 * adds {
            keys::key(plan.seed, 2 * i, &mut key);
            bloom.add(&key);
        }
        let started = Instant::now();
        for i in 0..adds {
            keys::key(plan.seed, 2 * i, &mut key);
            bloom.add(&key);
        }
        let mut maybes = 0u64;
        for q in 0..checks {
            keys::key(plan.seed, 2 * q + 1, &mut key);
            maybes += u64::from(bloom.check(&key) == Answer::Maybe);
        }
        std::hint::black_box(maybes);
        let per_key = started.elapsed().as_secs_f64() / (adds + checks).max(1) as f64;
        let full = Bloom::new(*spec);
        std::hint::black_box(full.filter().count_ones());
        let started = Instant::now();
        std::hint::black_box(full.filter().count_ones());
        let per_count = started.elapsed().as_secs_f64();
        seconds += per_key * plan.work() as f64 + per_count * plan.steps as f64;
    }
    seconds
}

/// Says on `err` that the run should take about `seconds`. A note that cannot be written is
/// no reason to stop the run (stderr may be closed while stdout is not).
fn long_run_note(err: &mut dyn Write, seconds: f64, plan: Plan, m: u64, filters: usize) {
    let _ = writeln!(
        err,
        "note: this run should take about {} ({} keys hashed and {} bits counted {} on {}, \
         timed on a sample); Ctrl-C stops it",
        duration(seconds),
        group(plan.work()),
        group(m),
        match plan.steps {
            1 => "once".to_string(),
            s => format!("{} times", group(s)),
        },
        match filters {
            1 => "one filter".to_string(),
            n => format!("each of {n} filters"),
        },
    );
    let _ = err.flush();
}

/// Where the chart goes: checked before the run (the folder exists and takes a new file),
/// written after it through a temporary file and a rename, so a run that fails or is
/// stopped never leaves half a figure or an emptied old one. A path that already names
/// something other than a regular file (`/dev/stdout`, `/dev/null`, a pipe) is written in
/// place: renaming over it would replace the device or pipe itself.
#[derive(Debug)]
struct SvgFile {
    /// As the user gave it, for messages.
    path: PathBuf,
    /// Where the figure goes: the path, or the file a symbolic link points to (so that the
    /// rename replaces the file, not the link).
    target: PathBuf,
    /// The temporary file beside `target`, or `None` to write `target` in place.
    temp: Option<PathBuf>,
    /// For a target that is not a regular file (`/dev/stdout`, a FIFO): opened already, so
    /// a FIFO nobody reads is found out before the run instead of blocking after it.
    opened: Option<fs::File>,
}

impl SvgFile {
    fn check(path: &Path) -> anyhow::Result<SvgFile> {
        let fail = || {
            format!(
                "could not write the chart to `{}`",
                crate::escape::path(path)
            )
        };
        let mut target = path.to_path_buf();
        if let Ok(meta) = fs::metadata(path) {
            if meta.is_dir() {
                bail!("{}: it is a folder", fail());
            }
            if !meta.is_file() {
                let file = open_without_waiting(path).with_context(fail)?;
                return Ok(SvgFile {
                    path: target.clone(),
                    target,
                    temp: None,
                    opened: Some(file),
                });
            }
            if meta.permissions().readonly() {
                bail!("{}: the file is read-only", fail());
            }
            target = fs::canonicalize(path).with_context(fail)?;
        }
        let Some(name) = target.file_name() else {
            bail!("{}: that names no file", fail());
        };
        let temp = target.with_file_name(format!(
            ".{}.{}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
            .with_context(fail)?;
        fs::remove_file(&temp).with_context(fail)?;
        Ok(SvgFile {
            path: path.to_path_buf(),
            target,
            temp: Some(temp),
            opened: None,
        })
    }

    fn write(&self, svg: &str) -> anyhow::Result<()> {
        let fail = || {
            format!(
                "could not write the chart to `{}`",
                crate::escape::path(&self.path)
            )
        };
        let Some(temp) = &self.temp else {
            let mut file = match &self.opened {
                Some(file) => file.try_clone(),
                None => OpenOptions::new().write(true).open(&self.target),
            }
            .with_context(fail)?;
            return file.write_all(svg.as_bytes()).with_context(fail);
        };
        let written = fs::write(temp, svg).and_then(|()| fs::rename(temp, &self.target));
        if written.is_err() {
            let _ = fs::remove_file(temp);
        }
        written.with_context(fail)
    }
}

/// Opens a file that is not a regular file for writing without waiting for a reader: a FIFO
/// that nobody reads is an error ("No such device or address") rather than a hang.
#[cfg(unix)]
fn open_without_waiting(path: &Path) -> std::io::Result<fs::File> {
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    use std::os::unix::fs::OpenOptionsExt;
    let file = OpenOptions::new()
        .write(true)
        .custom_flags(OFlag::O_NONBLOCK.bits())
        .open(path)?;
    // Writes then wait as usual.
    let flags = OFlag::from_bits_truncate(fcntl(&file, FcntlArg::F_GETFL)?);
    fcntl(&file, FcntlArg::F_SETFL(flags - OFlag::O_NONBLOCK))?;
    Ok(file)
}

#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> std::io::Result<fs::File> {
    OpenOptions::new().write(true).open(path)
}

/// Runs `experiment` as `args` asks, writing the table and chart to `out`, and a warning
/// for a long run and the progress bar to stderr.
pub fn run(args: &ExperimentArgs, out: &mut impl Write) -> anyhow::Result<()> {
    // Prose wrapped to the window; the table and the chart are laid out to fit 80 columns.
    let mut out = Wrapped::new(out, Width::for_stdout());
    run_with(args, &mut out, &mut io::stderr(), WARN_AFTER_SECONDS)?;
    Ok(out.flush()?)
}

/// [`run`], with notes to `err` and a warning for runs estimated past `warn_after` seconds.
fn run_with(
    args: &ExperimentArgs,
    out: &mut impl Write,
    err: &mut impl Write,
    warn_after: f64,
) -> anyhow::Result<()> {
    let schemes: Vec<Scheme> = match args.scheme.as_str() {
        "all" => Scheme::ALL.to_vec(),
        name => vec![Scheme::from_name(name).with_context(|| {
            format!("unknown scheme `{name}`, expected bytesum, djb2-fnv, murmur3 or all")
        })?],
    };
    let specs = schemes
        .iter()
        .map(|&s| FilterSpec::new(s, Some(args.bits), Some(args.hashes)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| match e {
            SpecError::ByteSumNeedsTwo(_) if schemes.len() > 1 => anyhow::anyhow!(
                "{e}; --scheme all compares every scheme at the same m and k, so it needs k = 2"
            ),
            e => e.into(),
        })?;
    // The command line checks these; a caller building ExperimentArgs in code is held to the
    // same ranges.
    use crate::cli::{MAX_EXPERIMENT_KEYS, MAX_EXPERIMENT_STEPS};
    for (flag, v, max) in [
        ("--items", args.items, MAX_EXPERIMENT_KEYS),
        ("--queries", args.queries, MAX_EXPERIMENT_KEYS),
        ("--steps", args.steps, MAX_EXPERIMENT_STEPS),
    ] {
        anyhow::ensure!(
            (1..=max).contains(&v),
            "{flag} must be from 1 to {}, got {}",
            group(max),
            group(v)
        );
    }
    // Every scheme here has the same m: one filter tried now says whether its bits fit in
    // memory, rather than an abort in the middle of the run.
    if let Some(spec) = specs.first() {
        drop(Bloom::try_new(*spec)?);
    }
    let svg = args.svg.as_deref().map(SvgFile::check).transpose()?;
    let plan = Plan {
        items: args.items,
        queries: args.queries,
        steps: args.steps.min(args.items),
        seed: args.seed,
    };

    let seconds = estimate(&specs, plan);
    if seconds > warn_after {
        long_run_note(err, seconds, plan, args.bits, specs.len());
    }

    let total = specs.len() as u64 * plan.work();
    let started = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    let mut done_before = 0u64;
    let mut results = Vec::new();
    for spec in &specs {
        let mut tick = |handled: u64| {
            let elapsed = started.elapsed().as_secs_f64();
            // A progress bar only for runs long enough to wonder about, and only on a terminal.
            if bar.is_none() && elapsed > 1.0 && std::io::stderr().is_terminal() {
                let b = ProgressBar::new(total);
                if let Ok(style) = ProgressStyle::with_template("{bar:40} {percent}% {msg}") {
                    b.set_style(style);
                }
                b.set_message("keys hashed");
                bar = Some(b);
            }
            if let Some(b) = &bar {
                b.set_position(done_before + handled);
            }
        };
        results.push((spec, measure(spec, plan, &mut tick)));
        done_before += plan.work();
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }

    let (m, k) = (args.bits, args.hashes);
    writeln!(
        out,
        "{} keys added in {} to a filter of m = {} bits, k = {k}; {} keys never added checked after each step (seed {})",
        group(plan.items),
        if plan.steps == 1 {
            "1 step".to_string()
        } else {
            format!("{} steps", plan.steps)
        },
        group(m),
        group(plan.queries),
        plan.seed
    )?;
    let example = |serial: u64| {
        let mut key = Vec::new();
        keys::key(plan.seed, serial, &mut key);
        String::from_utf8_lossy(&key).into_owned()
    };
    writeln!(
        out,
        "The keys are made up, like {}, {} and {} (added), and {} (never added).",
        example(0),
        example(2),
        example(4),
        example(1)
    )?;
    writeln!(out)?;
    let n_width = group(plan.items).len();
    if results.len() == 1 {
        let (spec, rows) = &results[0];
        let w = n_width.max(10);
        writeln!(out, "scheme: {}", spec.scheme())?;
        writeln!(
            out,
            "{:>w$}  {:>10}  {:>12}  {:>12}",
            "n", "measured", "(X/m)^k", "textbook"
        )?;
        for r in rows {
            writeln!(
                out,
                "{:>w$}  {:>10}  {:>12}  {:>12}",
                group(r.n),
                significant(r.measured),
                significant(r.from_fill),
                significant(r.textbook)
            )?;
        }
    } else {
        // Each scheme's measured rate beside (X/m)^k from its own fill: a scheme that crowds
        // keys onto few bits sets fewer of them, and its fill shows it.
        let w = n_width.max(8);
        let names: String = results
            .iter()
            .map(|(spec, _)| format!("  {:^18}", spec.scheme().name()))
            .collect();
        writeln!(out, "{:>w$}{}", "", names.trim_end())?;
        write!(out, "{:>w$}", "n")?;
        for _ in &results {
            write!(out, "  {:>8}  {:>8}", "measured", "(X/m)^k")?;
        }
        writeln!(out, "  {:>8}", "textbook")?;
        for i in 0..results[0].1.len() {
            write!(out, "{:>w$}", group(results[0].1[i].n))?;
            for (_, rows) in &results {
                write!(
                    out,
                    "  {:>8}  {:>8}",
                    significant(rows[i].measured),
                    significant(rows[i].from_fill)
                )?;
            }
            writeln!(out, "  {:>8}", significant(results[0].1[i].textbook))?;
        }
    }
    writeln!(out)?;
    let legend = "measured: the share of keys never added that answered MAYBE; (X/m)^k: the \
                  same chance worked out from X, the number of bits set; textbook: \
                  (1 - e^(-kn/m))^k, worked out from n alone.";
    writeln!(out, "{legend}")?;
    writeln!(out)?;

    let mut series = vec![Series {
        label: "theory (1 - e^(-kn/m))^k".to_string(),
        mark: chart::CURVE,
        curve: true,
        points: results[0]
            .1
            .iter()
            .map(|r| (r.n as f64, r.textbook))
            .collect(),
    }];
    for (spec, rows) in &results {
        series.push(Series {
            label: format!("{} measured", spec.scheme()),
            mark: mark_of(spec.scheme()),
            points: rows.iter().map(|r| (r.n as f64, r.measured)).collect(),
            curve: false,
        });
    }
    for line in chart::text(&series) {
        writeln!(out, "{line}")?;
    }
    if results.len() > 1 {
        let last = |s: Scheme| {
            results
                .iter()
                .find(|(spec, _)| spec.scheme() == s)
                .and_then(|(_, rows)| rows.last().copied())
        };
        if let (Some(b), Some(mm)) = (last(Scheme::ByteSum), last(Scheme::Murmur3)) {
            writeln!(out)?;
            writeln!(
                out,
                "at n = {}: bytesum measured {:.1} times the theory, murmur3 {:.1} times.",
                group(b.n),
                b.measured / b.textbook,
                mm.measured / mm.textbook
            )?;
            writeln!(
                out,
                "The sum of a short key's bytes is a small number, so the byte-sum hashes reach few of a large \
                 filter's bits and keys crowd onto them; murmur3 spreads keys evenly, as the formula assumes."
            )?;
        }
    }
    if let Some(svg) = &svg {
        let title = format!("false positives, m = {}, k = {k}", group(m));
        // The table first, in case the figure goes to the same place (`--svg /dev/stdout`).
        out.flush()?;
        svg.write(&chart::svg(&title, &series))?;
        writeln!(out, "chart written to {}", crate::escape::path(&svg.path))?;
    }
    Ok(())
}

/// A scheme's mark on the text chart: by its place in `Scheme::ALL`, never by its name.
fn mark_of(scheme: Scheme) -> char {
    let i = Scheme::ALL.iter().position(|&s| s == scheme).unwrap_or(0);
    chart::MARKS[i % chart::MARKS.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_one(scheme: Scheme, m: u64, k: u32, items: u64) -> Vec<Row> {
        let spec = FilterSpec::new(scheme, Some(m), Some(k)).unwrap();
        let plan = Plan {
            items,
            queries: 20_000,
            steps: 4,
            seed: 3,
        };
        measure(&spec, plan, &mut |_| {})
    }

    fn args(scheme: &str, m: u64, k: u32, items: u64, queries: u64) -> ExperimentArgs {
        ExperimentArgs {
            scheme: scheme.into(),
            bits: m,
            hashes: k,
            items,
            queries,
            steps: 5,
            seed: 1,
            svg: None,
        }
    }

    fn run_text(args: &ExperimentArgs, warn_after: f64) -> anyhow::Result<(String, String)> {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run_with(args, &mut out, &mut err, warn_after)?;
        Ok((
            String::from_utf8(out).expect("utf-8 table"),
            String::from_utf8(err).expect("utf-8 notes"),
        ))
    }

    #[test]
    fn murmur3_matches_the_formula() {
        for (m, k, n) in [(1000, 2, 500), (9586, 7, 1000), (4096, 3, 2000)] {
            for r in run_one(Scheme::Murmur3, m, k, n) {
                // Five standard deviations of a rate measured on 20,000 queries.
                let sigma = (r.from_fill * (1.0 - r.from_fill) / 20_000.0).sqrt();
                assert!(
                    (r.measured - r.from_fill).abs() <= 5.0 * sigma + 1e-4,
                    "m={m} k={k} n={}: measured {} vs fill {}",
                    r.n,
                    r.measured,
                    r.from_fill
                );
                assert!(
                    (r.measured - r.textbook).abs() <= 0.15 * r.textbook + 5.0 * sigma + 1e-4,
                    "m={m} k={k} n={}: measured {} vs textbook {}",
                    r.n,
                    r.measured,
                    r.textbook
                );
            }
        }
    }

    #[test]
    fn bytesum_does_far_worse_than_the_formula() {
        let last = *run_one(Scheme::ByteSum, 100_000, 2, 10_000).last().unwrap();
        assert!(
            last.measured > 3.0 * last.textbook,
            "bytesum {} vs textbook {}",
            last.measured,
            last.textbook
        );
        let murmur = *run_one(Scheme::Murmur3, 100_000, 2, 10_000).last().unwrap();
        assert!(
            last.measured > 3.0 * murmur.measured,
            "bytesum {} vs murmur3 {}",
            last.measured,
            murmur.measured
        );
    }

    #[test]
    fn measures_with_the_library_filter() {
        // The experiment's filter is `Bloom`: after the run, every added key answers MAYBE
        // and the fill matches a filter built by hand from the same keys.
        let spec = FilterSpec::new(Scheme::Murmur3, Some(2000), Some(5)).unwrap();
        let plan = Plan {
            items: 300,
            queries: 100,
            steps: 3,
            seed: 9,
        };
        let rows = measure(&spec, plan, &mut |_| {});
        let mut bloom = Bloom::new(spec);
        let mut key = Vec::new();
        for i in 0..300 {
            keys::key(9, 2 * i, &mut key);
            bloom.add(&key);
        }
        let last = rows.last().unwrap();
        let fill = theory::fp_from_fill(bloom.filter().count_ones(), 2000, 5);
        assert_eq!(last.from_fill, fill, "fill of the measured filter");
        assert_eq!(last.n, 300);
    }

    #[test]
    fn small_rates_keep_their_digits() {
        // Issue 11: at about 0.1% the table read 0.0000 in the early rows.
        let a = args("murmur3", 14_378, 10, 1000, 20_000);
        let (out, _) = run_text(&a, f64::INFINITY).unwrap();
        let table: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("n "))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(table.len(), 5, "{out}");
        for line in &table {
            let cols: Vec<&str> = line.split_whitespace().collect();
            for (name, value) in ["measured", "(X/m)^k", "textbook"].iter().zip(&cols[1..]) {
                let v: f64 = value.parse().expect("a number");
                assert!(
                    *value == "0" || v > 0.0,
                    "{name} printed as {value} in {line:?}"
                );
                assert!(
                    !value.starts_with("0.0000"),
                    "{name} lost its digits: {line:?}"
                );
            }
        }
        // The textbook rate is never 0 after a key is added.
        assert!(table.iter().all(|l| !l.ends_with(" 0")), "{out}");
        assert!(
            out.starts_with("1,000 keys added in 5 steps to a filter of m = 14,378 bits"),
            "{out}"
        );
        // The keys themselves are shown: the conclusion talks about what they look like.
        let mut first = Vec::new();
        keys::key(a.seed, 0, &mut first);
        assert!(
            out.contains(&format!("like {}", String::from_utf8(first).unwrap())),
            "{out}"
        );
    }

    #[test]
    fn a_long_run_says_so_first() {
        let a = args("murmur3", 1000, 2, 100, 100);
        let (_, err) = run_text(&a, 0.0).unwrap();
        assert!(
            err.starts_with("note: this run should take about "),
            "{err}"
        );
        assert!(
            err.ends_with(
                " (600 keys hashed and 1,000 bits counted 5 times on one filter, timed on a \
                 sample); Ctrl-C stops it\n"
            ),
            "{err}"
        );
        let (_, err) = run_text(&a, f64::INFINITY).unwrap();
        assert_eq!(err, "", "a short run says nothing");
    }

    #[test]
    fn estimates_grow_with_the_work() {
        let spec = FilterSpec::new(Scheme::Murmur3, Some(10_000), Some(7)).unwrap();
        let plan = |items| Plan {
            items,
            queries: items,
            steps: 1,
            seed: 1,
        };
        let (small, large) = (
            estimate(&[spec], plan(1000)),
            estimate(&[spec], plan(1 << 40)),
        );
        assert!(
            small > 0.0 && large > 1e6 * small,
            "{small} s, then {large} s"
        );
    }

    #[test]
    fn the_svg_path_is_checked_before_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = args("murmur3", 1000, 2, 100, 100);
        a.svg = Some(dir.path().join("missing-folder").join("chart.svg"));
        let e = run_text(&a, f64::INFINITY).unwrap_err();
        assert!(
            format!("{e:#}").starts_with("could not write the chart to `"),
            "{e:#}"
        );
        a.svg = Some(dir.path().to_path_buf());
        let e = run_text(&a, f64::INFINITY).unwrap_err();
        assert!(format!("{e:#}").ends_with("it is a folder"), "{e:#}");
        // A good path gets the figure, and nothing else is left in the folder.
        let path = dir.path().join("chart.svg");
        a.svg = Some(path.clone());
        let (out, _) = run_text(&a, f64::INFINITY).unwrap();
        assert!(out.ends_with(&format!(
            "chart written to {}\n",
            crate::escape::path(&path)
        )));
        assert!(fs::read_to_string(&path).unwrap().starts_with("<svg"));
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "a leftover file"
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_svg_goes_through_links_and_into_devices_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.svg");
        fs::write(&real, "old").unwrap();
        let link = dir.path().join("link.svg");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let mut a = args("murmur3", 1000, 2, 100, 100);
        a.svg = Some(link.clone());
        run_text(&a, f64::INFINITY).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "the link was replaced"
        );
        assert!(fs::read_to_string(&real).unwrap().starts_with("<svg"));
        // Renaming over /dev/null (as root) would replace the device itself. Reached through
        // a link in the test's folder, so that a regression replaces the link, not the device.
        let null = dir.path().join("null.svg");
        std::os::unix::fs::symlink("/dev/null", &null).unwrap();
        a.svg = Some(null.clone());
        run_text(&a, f64::INFINITY).unwrap();
        assert!(
            fs::symlink_metadata(&null)
                .unwrap()
                .file_type()
                .is_symlink(),
            "the link to /dev/null was replaced"
        );
        assert!(
            !fs::metadata("/dev/null").unwrap().is_file(),
            "/dev/null became a regular file"
        );
    }

    #[test]
    fn zero_bits_blame_m() {
        // Issue 10: `-m 0` with --scheme all said k must be 2.
        let e = run_text(&args("all", 0, 2, 10, 10), f64::INFINITY).unwrap_err();
        assert_eq!(e.to_string(), SpecError::ZeroBits.to_string());
        let e = run_text(&args("all", 1000, 7, 10, 10), f64::INFINITY).unwrap_err();
        assert!(e.to_string().ends_with("so it needs k = 2"), "{e}");
    }

    #[test]
    fn marks_come_from_the_list_not_the_name() {
        let marks: Vec<char> = Scheme::ALL.iter().map(|&s| mark_of(s)).collect();
        assert_eq!(marks, chart::MARKS[..Scheme::ALL.len()].to_vec());
    }
}
