//! The command line: flags and subcommands, with help text in the doc comments.

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use clap::ValueEnum;
use clap::builder::PossibleValue;

use crate::engine::counters::CounterBits;
use crate::engine::filter::MAX_BITS;
use crate::engine::scheme::{FilterSpec, MAX_HASHES, Scheme, SpecError};
use crate::units;

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

/// Parses the command line, with usage and errors naming the tutor as the learner's shell
/// runs it (`target/release/bloom-tutor` when it is not on PATH). `--help` and `--version`
/// are written here, and a failure to write them is an error (status 2), as is a bad command
/// line; `Err` is the status to exit with.
pub fn parse() -> Result<Cli, ExitCode> {
    use clap::{CommandFactory, FromArgMatches};
    let mut command = Cli::command().bin_name(crate::invoked::tutor());
    if !io::IsTerminal::is_terminal(&io::stdout()) {
        // Help read from a file or a pipe fits 80 columns, as the rest of the tutor's text.
        command = command.term_width(crate::render::wrap::PIPED_WIDTH);
    }
    let parsed = command
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let err = match parsed {
        Ok(cli) => return Ok(cli),
        Err(err) => err,
    };
    if err.use_stderr() {
        // clap's message echoes the user's words as they were typed: escape what a terminal
        // would act on (`-m $'6\e]0;title\a4'`), without colour.
        let text = crate::escape::text_lines(&err.render().to_string());
        let _ = io::stderr().write_all(text.as_bytes());
        return Err(ExitCode::from(2));
    }
    // Help and version go to stdout, in colour on a terminal.
    let printed = err.print().and_then(|()| io::stdout().flush());
    match printed {
        Ok(()) => Err(ExitCode::SUCCESS),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(ExitCode::SUCCESS),
        Err(e) => {
            let _ = writeln!(io::stderr(), "error: could not write the help: {e}");
            Err(ExitCode::from(2))
        }
    }
}

/// The filter's shape: scheme, bits and hashes.
#[derive(Debug, Clone, Default, Args)]
pub struct FilterArgs {
    /// Hash scheme (default: bytesum)
    #[arg(long, value_name = "NAME")]
    pub scheme: Option<Scheme>,

    /// Number of bits, m (default: the scheme's own: 64, 16 or 100)
    #[arg(short = 'm', long = "bits", value_name = "M", allow_negative_numbers = true,
          value_parser = whole_number::<u64>)]
    pub bits: Option<u64>,

    /// Number of hashes, k (default: the scheme's own: 2, 3 or 10)
    #[arg(short = 'k', long = "hashes", value_name = "K", allow_negative_numbers = true,
          value_parser = whole_number::<u32>)]
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

/// A whole number of plain digits that fits in `T`. Negative numbers are taken as values
/// (not options) so that they get this message rather than clap's tip to write `-- -1`,
/// which would make them a file name.
fn whole_number<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let shown = crate::escape::escape_prefix(s.as_bytes());
    match s.parse::<T>() {
        Ok(n) if digits => Ok(n),
        _ if s.starts_with('-') => Err(format!("expected a positive whole number, got `{shown}`")),
        _ if digits => Err(format!("`{shown}` is too large")),
        _ => Err(format!("expected a whole number, got `{shown}`")),
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
    /// A guided lesson: predict each answer, then see it on a real filter
    Lesson(LessonArgs),
    /// The program to write: its rules, what the grader checks, a worked example, starters
    Exercise(ExerciseArgs),
    /// Check a learner's solution to the exercise, and name the mistake behind a wrong answer
    Grade(Box<GradeArgs>),
    /// Size a filter: give some of --items, --fp, --bits and --hashes, and it works out the rest
    Calc(CalcArgs),
    /// Measure false positives on real filters and compare them with the theory
    Experiment(ExperimentArgs),
}

/// `bloom-tutor exercise [--scheme NAME] [--starter LANGUAGE]`
#[derive(Debug, Args)]
pub struct ExerciseArgs {
    /// The filter to write (default: bytesum)
    #[arg(long, value_name = "NAME")]
    pub scheme: Option<Scheme>,

    /// Print a starter program in this language instead: input and output done, the bit
    /// array and the positions left to you
    #[arg(long, value_name = "LANGUAGE", conflicts_with = "example")]
    pub starter: Option<Language>,

    /// Print the worked example's commands instead, to save as a file and run programs on
    #[arg(long)]
    pub example: bool,
}

/// A language the exercise has a starter program in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Language {
    Python,
    C,
    Rust,
}

impl Language {
    /// Every language, in the order the tutor lists them.
    pub const ALL: [Language; 3] = [Language::Python, Language::C, Language::Rust];

    /// The name `--starter` takes.
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::C => "c",
            Language::Rust => "rust",
        }
    }

    /// The file the exercise suggests saving a starter as, for a program called `stem`.
    pub fn file(self, stem: &str) -> String {
        match self {
            Language::Python => format!("{stem}.py"),
            Language::C => format!("{stem}.c"),
            Language::Rust => format!("{stem}.rs"),
        }
    }
}

/// Seconds `grade` gives each case unless `--timeout` says otherwise.
pub const DEFAULT_TIMEOUT: f64 = 5.0;

/// `bloom-tutor lesson [NAME]`
#[derive(Debug, Args)]
pub struct LessonArgs {
    /// Which lesson (default: basics; --list lists them all)
    #[arg(value_name = "NAME")]
    pub name: Option<String>,

    /// List the lessons and how far you are in each
    #[arg(long)]
    pub list: bool,

    /// Start the lesson over from the first step
    #[arg(long)]
    pub restart: bool,

    /// Keep this lesson's progress in this file, one file per lesson (default: a file for each
    /// lesson in the platform's state folder)
    #[arg(long, value_name = "FILE")]
    pub progress_file: Option<PathBuf>,
}

/// `bloom-tutor experiment`
#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// bytesum, djb2-fnv, murmur3, or all to compare them at the same m and k
    #[arg(long, value_name = "NAME", default_value = "all")]
    pub scheme: String,

    /// Size, m: bits (10000, 1e6, 10M) or bytes with a unit (8KiB, 17MiB), at most 512MiB
    #[arg(short = 'm', long = "bits", value_name = "M", default_value_t = 10_000,
          allow_hyphen_values = true, value_parser = units::bits_in(1, MAX_BITS))]
    pub bits: u64,

    /// Number of hashes, k, from 1 to 1000 (bytesum, and so `all`, needs 2)
    #[arg(short = 'k', long = "hashes", value_name = "K", default_value_t = 2,
          allow_hyphen_values = true, value_parser = units::count_in(1, MAX_HASHES))]
    pub hashes: u32,

    /// Keys to add, in steps (1000, 1e6, 10M; at most 1T)
    #[arg(short = 'n', long, value_name = "N", default_value_t = 1000,
          allow_hyphen_values = true, value_parser = units::count_in(1, MAX_EXPERIMENT_KEYS))]
    pub items: u64,

    /// Keys never added, checked after each step (at most 1T)
    #[arg(short = 'q', long, value_name = "Q", default_value_t = 10_000,
          allow_hyphen_values = true, value_parser = units::count_in(1, MAX_EXPERIMENT_KEYS))]
    pub queries: u64,

    /// How many steps to add the keys in (one row each), from 1 to 1000
    #[arg(long, value_name = "S", default_value_t = 10,
          allow_hyphen_values = true, value_parser = units::count_in(1, MAX_EXPERIMENT_STEPS))]
    pub steps: u64,

    /// Seed for the generated keys: the same seed gives the same keys
    #[arg(long, value_name = "SEED", default_value_t = 1,
          allow_hyphen_values = true, value_parser = units::count_in(0, u64::MAX))]
    pub seed: u64,

    /// Also write the chart as an SVG figure (its folder is checked before the run)
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// The most keys `experiment` adds, or checks after each step: 10^12, hours of work already.
pub const MAX_EXPERIMENT_KEYS: u64 = 1_000_000_000_000;

/// The most steps (table rows) `experiment` measures at.
pub const MAX_EXPERIMENT_STEPS: u64 = 1000;

/// The most generated cases one grading run takes (`grade --random`): each is held in
/// memory with its expected answers, so the count is bounded.
pub const MAX_RANDOM_CASES: i64 = 10_000;

/// `bloom-tutor calc`
#[derive(Debug, Args)]
pub struct CalcArgs {
    /// Keys the filter must hold, n (1000, 1e6, 40M)
    #[arg(short = 'n', long, value_name = "N", allow_hyphen_values = true,
          value_parser = units::parse_count)]
    pub items: Option<u64>,

    /// False-positive rate, p (0.01, 1%, 1/100)
    #[arg(short = 'p', long, value_name = "P", allow_hyphen_values = true,
          value_parser = units::parse_rate)]
    pub fp: Option<f64>,

    /// Size, m: bits (9586, 1e6, 10M) or bytes with a unit (8KiB, 1.5MB)
    #[arg(short = 'm', long, value_name = "M", allow_hyphen_values = true,
          value_parser = units::parse_bits)]
    pub bits: Option<u64>,

    /// Number of hashes, k, from 1 to 1000 (default: the best k for the rest)
    #[arg(short = 'k', long, value_name = "K", allow_hyphen_values = true,
          value_parser = units::count_in(1, MAX_HASHES))]
    pub hashes: Option<u32>,

    /// Write the result as JSON
    #[arg(long)]
    pub json: bool,
}

/// `bloom-tutor grade -- PROGRAM [ARGS...]`
// The exercise is a plain filter: --counting and --counter-bits are kept out of the help,
// and refused with a message that says why when given. No flag is taken and then left
// unused: each one that does nothing in a mode (`--timeout` with `--list`, `--scheme`
// with `--class`) conflicts with it, and clap refuses the pair. (`requires` alone is not
// enough: clap does not check it when the flag required conflicts with one given, so
// `--build` with `--class` would pass unseen.)
#[derive(Debug, Args)]
#[command(
    mut_arg("counting", |a| a.hide(true).conflicts_with("class")),
    mut_arg("counter_bits", |a| a.hide(true).conflicts_with("class")),
    mut_arg("scheme", |a| a.conflicts_with("class")),
    mut_arg("bits", |a| a.conflicts_with("class")),
    mut_arg("hashes", |a| a.conflicts_with("class")),
    after_long_help = GRADE_AFTER_HELP,
    group(clap::ArgGroup::new("whole_class").args(["submissions", "class"]))
)]
pub struct GradeArgs {
    /// The exercise's filter: --scheme, and -m/-k for a teacher's variant of another size
    #[command(flatten)]
    pub filter: FilterArgs,

    /// List the cases
    #[arg(long, conflicts_with_all = ["show", "case"])]
    pub list: bool,

    /// Print one case's script and expected answers, to reproduce it by hand
    #[arg(long, value_name = "NAME", conflicts_with = "case")]
    pub show: Option<String>,

    /// With --show, print only the script, byte for byte, to save and feed to a program
    #[arg(long, requires = "show", conflicts_with_all = ["list", "save", "class"])]
    pub raw: bool,

    /// Write every case to DIR as NAME.in (the script) and NAME.out (the expected answers)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["show", "list"])]
    pub save: Option<PathBuf>,

    /// Run only this case (repeat for more)
    #[arg(long, value_name = "NAME", conflicts_with = "class")]
    pub case: Vec<String>,

    /// Add N generated cases, named random-SEED-1 to random-SEED-N (at most 10000)
    #[arg(long, value_name = "N", default_value_t = 0, conflicts_with = "class",
          value_parser = clap::value_parser!(u32).range(0..=MAX_RANDOM_CASES))]
    pub random: u32,

    /// Seed for --random: the same seed gives the same cases (default: a new one, printed)
    #[arg(long, value_name = "S", conflicts_with = "class")]
    pub seed: Option<u64>,

    /// Cases run at once, or with --submissions students graded at once (default: the
    /// number of cores)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256),
          conflicts_with_all = NOT_RUN)]
    pub jobs: Option<u32>,

    /// Seconds each case (and each --build) may take before the program is stopped
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIMEOUT, value_parser = parse_timeout,
          conflicts_with_all = NOT_RUN)]
    pub timeout: f64,

    /// Report format: human, json (for course tooling), exercism (results.json) or junit
    ///
    /// With --submissions or --class, json is one document with each student's report
    /// and the class summary, and junit one testsuite per student; exercism is one
    /// learner's results and is refused for a class.
    #[arg(long, value_name = "FORMAT", default_value = "human",
          conflicts_with_all = ["list", "show", "save"])]
    pub format: GradeFormat,

    /// The same as --format json
    #[arg(long, conflicts_with_all = ["format", "list", "show", "save"])]
    pub json: bool,

    /// Summarise a class from JSON reports (one per student), instead of grading
    #[arg(long, value_name = "REPORT", num_args = 1.., conflicts_with_all = ["show", "list", "save"])]
    pub class: Vec<PathBuf>,

    /// Grade on the case files in DIR (NAME.in, and NAME.out, NAME.toml when given)
    /// instead of the built-in cases
    ///
    /// NAME.in is the script (ADD, CHECK and BITS lines). NAME.out, when there, must hold
    /// the tutor's answers. NAME.toml sets the case's description, points and whether it
    /// is hidden, one `key = value` a line: `description = "two keys with one h1"`,
    /// `weight = 3` (points, 1 to 1000, default 1), `hidden = true` (default false: a
    /// hidden case reports pass or fail, never its script or answers). The same settings
    /// may instead open NAME.in as `# key: value` lines (`# weight: 3`), which the program
    /// never sees. See the end of this help for an example.
    #[arg(long, value_name = "DIR", conflicts_with = "class")]
    pub cases: Option<PathBuf>,

    /// Memory (address space) each program may use: 512M, 2G, or none (at least 16M)
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_MEMORY, value_parser = memory_size,
          conflicts_with_all = NOT_RUN)]
    pub memory: Limited,

    /// CPU seconds each program may use, or none
    #[arg(long, value_name = "SECS", default_value = DEFAULT_CPU, value_parser = limit_seconds,
          conflicts_with_all = NOT_RUN)]
    pub cpu: Limited,

    /// The largest file each program may write: 16M, or none (at least 1M)
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_FILE_SIZE, value_parser = file_size,
          conflicts_with_all = NOT_RUN)]
    pub file_size: Limited,

    /// Run each program with no network and a private process view (Linux user namespaces)
    #[arg(long, conflicts_with_all = NOT_RUN)]
    pub isolate: bool,

    /// Grade a class: every folder in DIR is a student, `{}` in the program's words is
    /// replaced by that folder (`-- python3 {}/bloom.py`)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["show", "list", "save", "class"])]
    pub submissions: Option<PathBuf>,

    /// With --submissions, first run COMMAND once in each student's place, as
    /// `--build 'cc -O2 -o {}/bloom {}/bloom.c'`
    ///
    /// COMMAND is split at spaces (no shell: for more than one command, name a script),
    /// `{}` in it is the student's folder, and it runs with the programs' limits and
    /// --timeout. A student whose build fails is not graded, and their report says why
    /// with the compiler's first lines.
    #[arg(long, value_name = "COMMAND", requires = "submissions", conflicts_with_all = NOT_RUN)]
    pub build: Option<OsString>,

    /// With --submissions or --class, write one row per student to FILE
    ///
    /// Its columns: student; score and max_score (points); cases_passed and cases_total;
    /// status: pass, fail (wrong answers), timeout, crash, limit (stopped by --memory,
    /// --cpu, --file-size or for writing too much), used-tutor, error (a case the grader
    /// could not run) or not-graded (nothing could run: a missing file, a failed --build);
    /// a student whose cases failed in several ways gets the way of most of the cases
    /// stopped before their end, and fail only when every failing case gave wrong answers;
    /// mistakes (the ids named, most cases first); note (why, in words: `3 cases timed
    /// out, 2 gave wrong answers`, or why the student was not graded); report (the
    /// student's JSON report file, when there is one).
    #[arg(long, value_name = "FILE", requires = "whole_class",
          conflicts_with_all = ["list", "show", "save"])]
    pub csv: Option<PathBuf>,

    /// With --submissions, write each student's JSON report to DIR/NAME.json (a name that
    /// is not a safe file name is changed: the CSV's report column and the summary say so)
    #[arg(
        long,
        value_name = "DIR",
        requires = "submissions",
        conflicts_with_all = NOT_RUN
    )]
    pub reports: Option<PathBuf>,

    /// Run one program for a grader (internal)
    #[arg(long, hide = true)]
    pub worker: bool,

    /// Set limits and become the program (internal)
    #[arg(long, hide = true)]
    pub stage: bool,

    #[arg(long, hide = true)]
    pub stage_inner: bool,

    #[arg(long, hide = true)]
    pub stage_memory: Option<u64>,

    #[arg(long, hide = true)]
    pub stage_cpu: Option<u64>,

    #[arg(long, hide = true)]
    pub stage_file_size: Option<u64>,

    /// The program to grade and its arguments, after `--` (run directly, not through a shell)
    #[arg(last = true, value_name = "PROGRAM", conflicts_with_all = NOT_RUN)]
    pub program: Vec<OsString>,
}

/// The modes of `grade` that run no program: a flag that only matters to a run (a limit,
/// `--jobs`, the program) conflicts with each of them.
const NOT_RUN: [&str; 4] = ["list", "show", "save", "class"];

/// The end of `grade --help`: a teacher's case settings, and compiled languages. Its
/// examples are flags to add to a grade command, short enough that clap never wraps them.
const GRADE_AFTER_HELP: &str = "\
A case's settings, in NAME.toml beside NAME.in (lines starting with # are
comments; description is in double quotes, with \\\" \\\\ \\n \\t as escapes):

    description = \"anagrams: the same h1, told apart by h2\"
    weight = 3
    hidden = false

or at the top of NAME.in, before its first command (no quotes there):

    # description: anagrams: the same h1, told apart by h2
    # weight: 3

Compiled languages: with --submissions, --build compiles each student's
program before their cases, and the program graded is the file it made. For
students who hand in bloom.c, add to the grade command:

    --build 'cc -O2 -o {}/bloom {}/bloom.c' -- {}/bloom

A build runs like the programs: with their limits and --timeout (give a slow
compiler more), in an empty folder that is also its HOME, and with a PATH of
the system's folders only. So rustup's `rustc`, which needs your HOME, cannot
run there; the toolchain's own rustc, which `rustup which rustc` names, can:

    --build \"$(rustup which rustc) -O -o {}/bloom {}/bloom.rs\" -- {}/bloom

For one learner, compile first, then grade the program it made: `-- ./bloom`.
";

/// A limit: a number, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limited(pub Option<u64>);

/// `--memory` unless given: the address space each graded program may use.
pub const DEFAULT_MEMORY: &str = "1G";

/// `--cpu` unless given, in seconds.
pub const DEFAULT_CPU: &str = "10";

/// `--file-size` unless given.
pub const DEFAULT_FILE_SIZE: &str = "16M";

/// `--memory`: below this a program cannot even start (a dynamic loader maps more), so a
/// smaller size is a unit left out (`--memory 512` for 512M), refused before any student
/// is failed for it.
pub const MIN_MEMORY: u64 = 16 << 20;

/// `--file-size`: below this a compiler (`--build`) cannot write a program, and a size
/// without its unit (`--file-size 16`) is the likely mistake.
pub const MIN_FILE_SIZE: u64 = 1 << 20;

fn memory_size(s: &str) -> Result<Limited, String> {
    limit_size(s, MIN_MEMORY, "for a program to start", "512M or 2G")
}

fn file_size(s: &str) -> Result<Limited, String> {
    limit_size(s, MIN_FILE_SIZE, "for a compiled program", "16M or 1G")
}

/// A size of at least `least` bytes (the least `for` something), or none; `examples` are
/// sizes to write instead.
fn limit_size(s: &str, least: u64, what_for: &str, examples: &str) -> Result<Limited, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(Limited(None));
    }
    let n = crate::units::parse_size(s)?;
    if n < least {
        let shown = crate::escape::escape_prefix(s.as_bytes());
        let at_least = crate::units::show_size(least);
        return Err(format!(
            "`{shown}` is {}, too little {what_for} (at least {at_least}); \
             write the unit, K, M or G, as in {examples}, or none for no limit",
            crate::units::show_size(n)
        ));
    }
    Ok(Limited(Some(n)))
}

fn limit_seconds(s: &str) -> Result<Limited, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(Limited(None));
    }
    match s.parse::<u64>() {
        Ok(n @ 1..=86_400) => Ok(Limited(Some(n))),
        _ => Err(format!(
            "expected a whole number of seconds from 1 to 86400, or none, got `{s}`"
        )),
    }
}

/// How `grade` writes its report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GradeFormat {
    /// For a person, case by case as they finish
    Human,
    /// The report as JSON, for course tooling and `grade --class`
    Json,
    /// Exercism's test-runner results.json (version 2)
    Exercism,
    /// JUnit XML, which CI systems display
    Junit,
}

impl GradeArgs {
    /// The format asked for, `--json` included.
    pub fn format(&self) -> GradeFormat {
        if self.json {
            GradeFormat::Json
        } else {
            self.format
        }
    }
}

fn parse_timeout(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 3600.0 => Ok(t),
        _ => Err(format!(
            "expected a number of seconds above 0 and at most 3600, got `{s}`"
        )),
    }
}
