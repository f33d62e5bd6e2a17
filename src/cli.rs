//! The command line: flags and subcommands, with help text in the doc comments.

use std::path::PathBuf;

use std::ffi::OsString;

use clap::{Args, Parser, Subcommand};

use clap::ValueEnum;
use clap::builder::PossibleValue;

use crate::engine::counters::CounterBits;
use crate::engine::scheme::{FilterSpec, Scheme, SpecError};

/// A Bloom filter you can run, one command at a time, with a tutor that explains every answer.
///
/// With no FILE and a terminal on both ends, starts an interactive session; otherwise reads
/// commands (ADD key, CHECK key, BITS, ...) from the files, or from stdin, and prints the answers.
#[derive(Debug, Parser)]
#[command(name = "bloom-tutor", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Sub>,

    /// Script files to run, in order, against one filter (`-` reads stdin)
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    #[command(flatten)]
    pub filter: FilterArgs,

    /// Explain every ADD and CHECK in commentary lines that start with `#`
    #[arg(long)]
    pub explain: bool,

    /// Start from a filter saved with SAVE (its shape comes from the file)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scheme", "bits", "hashes", "counting", "counter_bits"])]
    pub load: Option<PathBuf>,

    /// Neither read nor write the interactive session's history file
    #[arg(long)]
    pub no_history: bool,
}

/// The filter's shape: scheme, bits and hashes.
#[derive(Debug, Clone, Default, Args)]
pub struct FilterArgs {
    /// Hash scheme (default: bytesum)
    #[arg(long, value_name = "NAME")]
    pub scheme: Option<Scheme>,

    /// Number of bits, m (default: the scheme's own: 64, 16 or 100)
    #[arg(short = 'm', long = "bits", value_name = "M")]
    pub bits: Option<u64>,

    /// Number of hashes, k (default: the scheme's own: 2, 3 or 10)
    #[arg(short = 'k', long = "hashes", value_name = "K")]
    pub hashes: Option<u32>,

    /// Make each position a counter, so REMOVE can take a key out (a counting filter)
    #[arg(long)]
    pub counting: bool,

    /// Bits in each counter of a counting filter, 1 to 8 (default: 4); implies --counting
    #[arg(long, value_name = "B", value_parser = clap::value_parser!(u8).range(1..=8))]
    pub counter_bits: Option<u8>,
}

impl FilterArgs {
    /// Whether scheme, bits or hashes was given, so that a script's `# filter:` line must
    /// yield. (`--counting` alone does not: it adds counters to the script's own filter.)
    pub fn any_given(&self) -> bool {
        self.scheme.is_some() || self.bits.is_some() || self.hashes.is_some()
    }

    /// The counter width `--counting` or `--counter-bits` asked for, if either was given.
    pub fn counters(&self) -> Option<u8> {
        match (self.counting, self.counter_bits) {
            (_, Some(b)) => Some(b),
            (true, None) => Some(CounterBits::DEFAULT.get()),
            (false, None) => None,
        }
    }

    /// The spec these flags describe, with the scheme's own defaults filled in.
    pub fn spec(&self) -> Result<FilterSpec, SpecError> {
        FilterSpec::new(
            self.scheme.unwrap_or(Scheme::ByteSum),
            self.bits,
            self.hashes,
        )?
        .with_counters(self.counters())
    }
}

impl ValueEnum for Scheme {
    fn value_variants<'a>() -> &'a [Scheme] {
        &Scheme::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(crate::render::help::scheme_summary(*self)))
    }
}

/// The tutor's other tools.
#[derive(Debug, Subcommand)]
pub enum Sub {
    /// Check a learner's solution to the exercise, and name the mistake behind a wrong answer
    Grade(GradeArgs),
    /// Size a filter: give some of --items, --fp, --bits and --hashes, and it works out the rest
    Calc(CalcArgs),
    /// Measure false positives on real filters and compare them with the theory
    Experiment(ExperimentArgs),
    /// A guided lesson: predict each answer, then see it on a real filter
    Lesson(LessonArgs),
}

/// `bloom-tutor lesson [NAME]`
#[derive(Debug, Args)]
pub struct LessonArgs {
    /// Which lesson (default: basics, the main lesson)
    #[arg(value_name = "NAME")]
    pub name: Option<String>,

    /// List the lessons and how far you are in each
    #[arg(long)]
    pub list: bool,

    /// Start the lesson over from the first step
    #[arg(long)]
    pub restart: bool,

    /// Keep progress in this file (default: the platform's state folder)
    #[arg(long, value_name = "FILE")]
    pub progress_file: Option<PathBuf>,
}

/// `bloom-tutor experiment`
#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// bytesum, djb2-fnv, murmur3, or all to compare them at the same m and k
    #[arg(long, value_name = "NAME", default_value = "all")]
    pub scheme: String,

    /// Number of bits, m
    #[arg(short = 'm', long = "bits", value_name = "M", default_value_t = 10_000)]
    pub bits: u64,

    /// Number of hashes, k (bytesum, and so `all`, needs 2)
    #[arg(short = 'k', long = "hashes", value_name = "K", default_value_t = 2)]
    pub hashes: u32,

    /// Keys to add, in steps
    #[arg(short = 'n', long, value_name = "N", default_value_t = 1000)]
    pub items: u64,

    /// Keys never added, checked after each step
    #[arg(short = 'q', long, value_name = "Q", default_value_t = 10_000)]
    pub queries: u64,

    /// How many steps to add the keys in (one row each)
    #[arg(long, value_name = "S", default_value_t = 10)]
    pub steps: u64,

    /// Seed for the generated keys: the same seed gives the same keys
    #[arg(long, value_name = "SEED", default_value_t = 1)]
    pub seed: u64,

    /// Also write the chart as an SVG figure
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// `bloom-tutor calc`
#[derive(Debug, Args)]
pub struct CalcArgs {
    /// Keys the filter must hold, n (1000, 1e6, 40M)
    #[arg(short = 'n', long, value_name = "N", value_parser = crate::calc::parse_count)]
    pub items: Option<f64>,

    /// False-positive rate, p (0.01, 1%, 1/100)
    #[arg(short = 'p', long, value_name = "P", value_parser = crate::calc::parse_rate)]
    pub fp: Option<f64>,

    /// Size, m: bits (9586, 1e6) or bytes with a unit (8KiB, 1.5MB)
    #[arg(short = 'm', long, value_name = "M", value_parser = crate::calc::parse_bits)]
    pub bits: Option<f64>,

    /// Number of hashes, k (default: the best k for the rest)
    #[arg(short = 'k', long, value_name = "K")]
    pub hashes: Option<u32>,

    /// Write the result as JSON
    #[arg(long)]
    pub json: bool,
}

/// `bloom-tutor grade -- PROGRAM [ARGS...]`
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// List the built-in cases
    #[arg(long, conflicts_with_all = ["show", "case"])]
    pub list: bool,

    /// Print one case's script and expected answers, to reproduce it by hand
    #[arg(long, value_name = "NAME")]
    pub show: Option<String>,

    /// Run only this case
    #[arg(long, value_name = "NAME")]
    pub case: Option<String>,

    /// Seconds each case may take before the program is stopped
    #[arg(long, value_name = "SECS", default_value_t = 5.0, value_parser = parse_timeout)]
    pub timeout: f64,

    /// Write the report as JSON, for course tooling
    #[arg(long)]
    pub json: bool,

    /// The program to grade and its arguments, after `--` (run directly, not through a shell)
    #[arg(last = true, value_name = "PROGRAM")]
    pub program: Vec<OsString>,
}

fn parse_timeout(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 3600.0 => Ok(t),
        _ => Err(format!(
            "expected a number of seconds between 0 and 3600, got `{s}`"
        )),
    }
}
