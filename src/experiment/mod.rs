//! `bloom-tutor experiment`: fills real filters with generated keys and measures how often a
//! key never added answers MAYBE, next to what the theory predicts.

pub mod chart;
pub mod keys;

use std::io::{IsTerminal, Write};
use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::cli::ExperimentArgs;
use crate::engine::filter::Filter;
use crate::engine::scheme::{FilterSpec, Scheme};
use crate::engine::theory;
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

/// What to measure.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub items: u64,
    pub queries: u64,
    pub steps: u64,
    pub seed: u64,
}

/// Adds keys 0, 2, 4, ... (even serials) in `plan.steps` steps up to `plan.items`, and after
/// each step checks `plan.queries` keys with odd serials, which were never added.
/// `tick` is called with the number of keys handled so far.
pub fn measure(spec: &FilterSpec, plan: Plan, tick: &mut dyn FnMut(u64)) -> Vec<Row> {
    let mut filter = Filter::new(spec.bits());
    let mut key = Vec::new();
    let mut added = 0u64;
    let mut handled = 0u64;
    let mut rows = Vec::new();
    for step in 1..=plan.steps {
        let target = plan.items * step / plan.steps;
        while added < target {
            keys::key(plan.seed, 2 * added, &mut key);
            spec.all_positions(&key, |p| {
                filter.set(p);
                true
            });
            added += 1;
            handled += 1;
            if handled.is_multiple_of(8192) {
                tick(handled);
            }
        }
        let mut maybes = 0u64;
        for q in 0..plan.queries {
            keys::key(plan.seed, 2 * q + 1, &mut key);
            if spec.all_positions(&key, |p| filter.test(p)) {
                maybes += 1;
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
            from_fill: theory::fp_from_fill(filter.count_ones(), m, k),
            textbook: theory::fp_textbook(added as f64, m, k),
        });
    }
    rows
}

/// Runs `experiment` as `args` asks, writing the table and chart to `out`.
pub fn run(args: &ExperimentArgs, out: &mut impl Write) -> anyhow::Result<()> {
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
        .map_err(|e| {
            if schemes.len() > 1 {
                anyhow::anyhow!(
                    "{e}; --scheme all compares every scheme at the same m and k, so it needs k = 2"
                )
            } else {
                e.into()
            }
        })?;
    anyhow::ensure!(args.items >= 1, "--items must be at least 1");
    anyhow::ensure!(args.queries >= 1, "--queries must be at least 1");
    anyhow::ensure!(
        (1..=1000).contains(&args.steps),
        "--steps must be from 1 to 1000, got {}",
        args.steps
    );
    let plan = Plan {
        items: args.items,
        queries: args.queries,
        steps: args.steps.min(args.items),
        seed: args.seed,
    };

    let total = specs.len() as u64 * (plan.items + plan.steps * plan.queries);
    let started = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    let mut done_before = 0u64;
    let mut results = Vec::new();
    for spec in &specs {
        let mut tick = |handled: u64| {
            // A progress bar only for runs long enough to wonder about, and only on a terminal.
            if bar.is_none()
                && started.elapsed().as_secs_f64() > 1.0
                && std::io::stderr().is_terminal()
            {
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
        done_before += plan.items + plan.steps * plan.queries;
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }

    let (m, k) = (args.bits, args.hashes);
    writeln!(
        out,
        "{} keys added in {} to a filter of m = {m} bits, k = {k}; {} keys never added checked after each step (seed {})",
        plan.items,
        if plan.steps == 1 {
            "1 step".to_string()
        } else {
            format!("{} steps", plan.steps)
        },
        plan.queries,
        plan.seed
    )?;
    writeln!(out)?;
    if results.len() == 1 {
        let (spec, rows) = &results[0];
        writeln!(out, "scheme: {}", spec.scheme())?;
        writeln!(
            out,
            "{:>10}  {:>10}  {:>12}  {:>12}",
            "n", "measured", "(X/m)^k", "textbook"
        )?;
        for r in rows {
            writeln!(
                out,
                "{:>10}  {:>10.4}  {:>12.4}  {:>12.4}",
                r.n, r.measured, r.from_fill, r.textbook
            )?;
        }
    } else {
        // Each scheme's measured rate beside (X/m)^k from its own fill: a scheme that crowds
        // keys onto few bits sets fewer of them, and its fill shows it.
        let names: String = results
            .iter()
            .map(|(spec, _)| format!("  {:^18}", spec.scheme().name()))
            .collect();
        writeln!(out, "{:>8}{}", "", names.trim_end())?;
        write!(out, "{:>8}", "n")?;
        for _ in &results {
            write!(out, "  {:>8}  {:>8}", "measured", "(X/m)^k")?;
        }
        writeln!(out, "  {:>8}", "textbook")?;
        for i in 0..results[0].1.len() {
            write!(out, "{:>8}", results[0].1[i].n)?;
            for (_, rows) in &results {
                write!(
                    out,
                    "  {:>8.4}  {:>8.4}",
                    rows[i].measured, rows[i].from_fill
                )?;
            }
            writeln!(out, "  {:>8.4}", results[0].1[i].textbook)?;
        }
    }
    writeln!(out)?;

    let mut series = vec![Series {
        label: "theory (1 - e^(-kn/m))^k".to_string(),
        mark: '.',
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
            mark: spec.scheme().name().chars().next().unwrap_or('*'),
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
                b.n,
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
    if let Some(path) = &args.svg {
        let title = format!("false positives, m = {m}, k = {k}");
        std::fs::write(path, chart::svg(&title, &series))
            .with_context(|| format!("could not write the chart to `{}`", path.display()))?;
        writeln!(out, "chart written to {}", path.display())?;
    }
    Ok(())
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
}
