//! `bloom-tutor grade`: runs a learner's solution to any filter's exercise on that filter's
//! cases (built-in, generated, or a teacher's own), shows where it goes wrong, names the
//! mistake that explains it, and writes the report for a person or for course tools.

pub mod cases;
pub mod class;
pub mod interrupt;
pub mod mistakes;
pub mod report;
pub mod runner;
pub mod sandbox;
pub mod submissions;
pub mod verdict;
pub mod worker;

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::cli::{GradeArgs, GradeFormat};
use crate::engine::scheme::FilterSpec;
use crate::escape;
use crate::piped::ScriptRunner;
use crate::render::words::count;
use crate::render::wrap::Width;
use crate::script::reader::Source;
use cases::Case;
use report::Report;
use runner::{Limits, Run, RunError};
use sandbox::Sandbox;
use verdict::Verdict;

/// Output beyond this (or beyond twice the expected answers, when that is more) is a
/// flood: the program is stopped and the report stays small.
pub(crate) const OUTPUT_CAP: usize = 1 << 20;

/// The largest m the grader takes: every case prints BITS, one character a bit.
const MAX_GRADED_BITS: u64 = 1 << 20;

/// The tutor's own answers to `script` on a filter of shape `spec`.
pub fn expected_answers(spec: FilterSpec, script: &[u8]) -> Vec<u8> {
    let mut runner = ScriptRunner::new(spec, false, true);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    // Writing to a Vec cannot fail; bad lines only add messages to `err`.
    let _ = runner.run(script, Source::Stdin, &mut out, &mut err);
    out
}

/// Runs the grader as `args` asks, writing the report to `out`. A SIGINT, SIGTERM or
/// SIGHUP while grading stops the learner's programs and everything they started, and ends
/// the grading with status 128 + the signal's number.
pub fn run(args: &GradeArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    #[cfg(unix)]
    if args.worker {
        worker::serve(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    #[cfg(unix)]
    if args.stage {
        let limits = Sandbox {
            memory: args.stage_memory,
            cpu: args.stage_cpu,
            file_size: args.stage_file_size,
            isolate: args.isolate,
        };
        return sandbox::stage::run(limits, args.stage_inner, &args.program);
    }
    let whole_class = !args.class.is_empty() || args.submissions.is_some();
    if whole_class && args.format() == GradeFormat::Exercism {
        anyhow::bail!(class::EXERCISM_CLASS);
    }
    if !args.class.is_empty() {
        return class::run(args, out);
    }
    let spec = args.filter.spec()?;
    if spec.counting().is_some() {
        // The exercise (`bloom-tutor exercise`) is a plain filter; its cases have no REMOVE.
        // The flags are hidden from grade's help, so the message names the one given.
        let flag = match args.filter.counter_bits {
            Some(_) => "--counter-bits",
            None => "--counting",
        };
        anyhow::bail!(
            "{flag} is not graded: the exercise is a plain filter of ADD, CHECK and BITS, \
             with no counters; grade without {flag}"
        );
    }
    if spec.bits() > MAX_GRADED_BITS {
        anyhow::bail!(
            "m = {} is too large to grade, the most is {MAX_GRADED_BITS} (every case prints BITS)",
            spec.bits()
        );
    }
    if args.seed.is_some() && args.random == 0 {
        anyhow::bail!("--seed chooses the generated cases, expected --random N with it");
    }
    let seed = (args.random > 0).then(|| args.seed.unwrap_or_else(cases::random::fresh_seed));
    let mut all = match &args.cases {
        Some(dir) => cases::teacher::load(dir, spec)?,
        None => cases::builtin(spec),
    };
    if let Some(seed) = seed {
        all.extend(cases::random::cases(seed, args.random));
    }
    if args.list {
        // Each description hangs under its column when it wraps.
        let mut out = crate::render::wrap::Wrapped::new(&mut *out, Width::for_stdout());
        for case in &all {
            let mut notes = Vec::new();
            if case.weight != 1 {
                notes.push(format!("{} points", case.weight));
            }
            if case.hidden {
                notes.push("hidden".to_string());
            }
            let notes = match notes.is_empty() {
                true => String::new(),
                false => format!(" ({})", notes.join(", ")),
            };
            writeln!(
                out,
                "{:<24}  {}{notes}",
                case.name,
                escape::escape(case.checks.as_bytes())
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    // The flags that choose these cases, for every grade command printed below.
    let flags = format!("{}{}", report::human::spec_flags(spec), cases_flag(args));
    let list = match seed {
        Some(seed) => format!("{flags} --random {} --seed {seed}", args.random),
        None => flags.clone(),
    };
    if let Some(name) = &args.show {
        let case = find(&all, spec, name, &list)?;
        show(out, spec, &case, args.raw, &flags)?;
        return Ok(ExitCode::SUCCESS);
    }
    let chosen = if args.case.is_empty() {
        all
    } else {
        args.case
            .iter()
            .map(|name| find(&all, spec, name, &list))
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    if let Some(dir) = &args.save {
        save(out, spec, &chosen, dir)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.program.is_empty() {
        // The example keeps the flags given, so that it grades on the same cases.
        let tutor = crate::invoked::tutor();
        let (flags, program) = match &args.submissions {
            Some(dir) => (
                format!("{list} --submissions {}", crate::invoked::shell_path(dir)),
                "python3 {}/bloom.py",
            ),
            None => (list, "python3 bloom.py"),
        };
        anyhow::bail!(
            "no program to grade, expected `{tutor} grade{flags} -- PROGRAM [ARGS...]` (for example `{tutor} grade{flags} -- {program}`)"
        );
    }
    let expected = chosen
        .iter()
        .map(|c| expected_answers(spec, &c.script))
        .collect();
    let plan = Plan {
        spec,
        seed: seed.map(|s| (s, args.random)),
        cases: chosen,
        expected,
        timeout: args.timeout,
        sandbox: sandbox(args),
    };
    if let Some(dir) = &args.submissions {
        return submissions::run(args, dir, &plan, jobs(args), out);
    }
    grade(args, &plan, out)
}

/// Keeps the expected answers in this process's memory out of other programs' reach: a
/// process that is not dumpable cannot be read through /proc/PID/mem (or have its binary
/// followed through /proc/PID/exe) by processes of the same user without privileges.
pub fn hide_answers() {
    #[cfg(target_os = "linux")]
    {
        let _ = nix::sys::prctl::set_dumpable(false);
    }
}

/// Bytes as an OS string: as they are on Unix, as UTF-8 (lossy) elsewhere.
pub fn os_from_bytes(bytes: Vec<u8>) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        OsString::from_vec(bytes)
    }
    #[cfg(not(unix))]
    {
        OsString::from(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// Why the tutor refuses to run at all: it was started by a program it is grading. `None`
/// for the grader's own helpers, and everywhere but Linux.
pub fn refusal(cli: &crate::cli::Cli) -> Option<String> {
    if let Some(crate::cli::Sub::Grade(args)) = &cli.command
        && (args.worker || args.stage)
    {
        return None;
    }
    #[cfg(target_os = "linux")]
    {
        let refused = sandbox::detect::refuse_under_grader();
        // In a process view of its own (a container, or `unshare --pid` by a graded program
        // hiding from the ancestor walk above), the tutor waits a moment, so that a grading
        // worker outside sees it run before it could answer.
        if refused.is_none() && !sandbox::detect::in_first_process_view() {
            std::thread::sleep(sandbox::detect::LINGER);
        }
        refused
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// ` --cases DIR` when `args` grade on a teacher's cases, quoted for the shell: with
/// [`report::human::spec_flags`], what a printed grade command needs to find a case.
fn cases_flag(args: &GradeArgs) -> String {
    match &args.cases {
        Some(dir) => format!(" --cases {}", crate::invoked::shell_path(dir)),
        None => String::new(),
    }
}

/// The case called `name` among `all`, or a generated one its name reproduces. `flags`
/// choose the cases (`--cases DIR`, `--scheme`...) in the command that lists them.
fn find(all: &[Case], spec: FilterSpec, name: &str, flags: &str) -> anyhow::Result<Case> {
    all.iter()
        .find(|c| c.name == name)
        .cloned()
        .or_else(|| cases::find(spec, name))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "no case called `{}`; `{} grade{flags} --list` lists them",
                escape::escape(name.as_bytes()),
                crate::invoked::tutor(),
            )
        })
}

/// The widest piece of a long answer line `--show` shows on one line.
const SHOWN_PIECE: usize = 64;

/// `--show`: the case's script and answers for a person, or with `raw` its script alone,
/// byte for byte. `flags` choose the case set in the command that saves the script.
fn show(
    out: &mut impl Write,
    spec: FilterSpec,
    case: &Case,
    raw: bool,
    flags: &str,
) -> anyhow::Result<()> {
    if case.hidden {
        anyhow::bail!("case `{}` is hidden: its script is not shown", case.name);
    }
    if raw {
        out.write_all(&case.script)?;
        return Ok(());
    }
    let width = Width::for_stdout().columns();
    // The description is the teacher's text: a line break or an escape in it is shown.
    let title = format!(
        "case {} ({spec}): {}",
        case.name,
        escape::escape(case.checks.as_bytes())
    );
    for line in crate::render::wrap::hanging(&title, "", "  ", width) {
        writeln!(out, "{line}")?;
    }
    let save = format!(
        "{} grade{flags} --show {} --raw > {}.in",
        crate::invoked::tutor(),
        case.name,
        case.name
    );
    let inline = format!("script (to save it: `{save}`):");
    // A command is copied whole: when it does not fit beside its words, it stands on a
    // line of its own, set apart from the script below it.
    if inline.chars().count() <= width {
        writeln!(out, "\n{inline}")?;
    } else {
        writeln!(
            out,
            "\nto save the script as a file:\n    {save}\n\nscript:"
        )?;
    }
    for line in case.script.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        writeln!(out, "  {}", report::shown_line(line))?;
    }
    writeln!(out, "\nexpected output:")?;
    let expected = expected_answers(spec, &case.script);
    for line in expected.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let shown = escape::escape(line);
        if 2 + shown.len() <= width {
            writeln!(out, "  {shown}")?;
            continue;
        }
        // A BITS line longer than the window: in pieces, each after the position of its
        // first bit, so that a bit can be found by its number.
        let lead = format!(
            "one BITS line of {} bits, shown in rows of {SHOWN_PIECE}, each after the number \
             of its first bit:",
            shown.len()
        );
        for line in crate::render::wrap::hanging(&lead, "  ", "    ", width) {
            writeln!(out, "{line}")?;
        }
        let digits = shown.len().to_string().len();
        let chars: Vec<char> = shown.chars().collect();
        for (i, piece) in chars.chunks(SHOWN_PIECE).enumerate() {
            let piece: String = piece.iter().collect();
            writeln!(out, "  {:>digits$}  {piece}", i * SHOWN_PIECE)?;
        }
    }
    writeln!(out)?;
    let note = format!("{} (--raw prints it as it is)", report::KEYS_NOTE);
    for line in crate::render::wrap::wrap_line(&note, width) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `--save DIR`: every visible case as NAME.in and NAME.out.
fn save(out: &mut impl Write, spec: FilterSpec, chosen: &[Case], dir: &Path) -> anyhow::Result<()> {
    let shown = escape::escape(dir.as_os_str().as_encoded_bytes());
    std::fs::create_dir_all(dir).with_context(|| format!("could not create `{shown}`"))?;
    let mut written = 0;
    for case in chosen.iter().filter(|c| !c.hidden) {
        for (ext, bytes) in [
            ("in", case.script.clone()),
            ("out", expected_answers(spec, &case.script)),
        ] {
            let path = dir.join(format!("{}.{ext}", case.name));
            crate::atomic::write_atomically(&path, &bytes).with_context(|| {
                format!(
                    "could not write `{}`",
                    escape::escape(path.as_os_str().as_encoded_bytes())
                )
            })?;
        }
        written += 1;
    }
    writeln!(
        out,
        "wrote {} to {shown} as NAME.in (the script) and NAME.out (the answers)",
        count(written, "case", "cases")
    )?;
    Ok(())
}

/// What every program of a grading run is graded on, and how.
pub struct Plan {
    pub spec: FilterSpec,
    /// The seed of the generated cases, and how many there are.
    pub seed: Option<(u64, u32)>,
    pub cases: Vec<Case>,
    /// The tutor's answers to each case, computed before any program starts.
    pub expected: Vec<Vec<u8>>,
    /// Seconds each case may take.
    pub timeout: f64,
    pub sandbox: Sandbox,
}

impl Plan {
    /// The most a program may print for case `i` before it is a flood.
    fn output_cap(&self, i: usize) -> usize {
        OUTPUT_CAP.max(2 * self.expected[i].len() + (64 << 10))
    }

    /// An empty report for `program`.
    fn report(&self, program: &[OsString]) -> Report {
        Report {
            program: program
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            spec: self.spec,
            seed: self.seed.map(|(s, _)| s),
            verdicts: Vec::new(),
            error: None,
        }
    }
}

/// Why a program's grading stopped before its report was complete.
#[derive(Debug)]
pub enum Stopped {
    /// The program could not be run at all (or a signal asked to stop: `Interrupted`).
    Run(RunError),
    /// The report could not be written.
    Write(std::io::Error),
}

impl From<std::io::Error> for Stopped {
    fn from(e: std::io::Error) -> Stopped {
        Stopped::Write(e)
    }
}

/// Runs `program` on every case of `plan`, `jobs` at a time, calling `each` with every
/// verdict in the cases' order as soon as it and those before it are in.
pub fn run_cases(
    plan: &Plan,
    program: &[OsString],
    jobs: usize,
    stop: &interrupt::Stop,
    each: &mut dyn FnMut(usize, &Verdict) -> std::io::Result<()>,
) -> Result<Report, Stopped> {
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Result<(Run, f64), RunError>)>();
    let mut report = plan.report(program);
    let mut fatal: Option<Stopped> = None;
    // How many cases `each` has had, in order.
    let mut shown = 0;
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, plan.cases.len().max(1)) {
            let tx = tx.clone();
            let (next, abort) = (&next, &abort);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= plan.cases.len() || abort.load(Ordering::SeqCst) {
                        return;
                    }
                    let limits = Limits {
                        timeout: Duration::from_secs_f64(plan.timeout),
                        output_cap: plan.output_cap(i),
                    };
                    let started = Instant::now();
                    let result =
                        run_one(program, &plan.cases[i].script, limits, plan.sandbox, stop).map(
                            |mut run| {
                                // Cases wait here for the ones before them: each keeps only
                                // as much output as its verdict can use, not a whole flood.
                                run.stdout = verdict::kept(run.stdout, plan.expected[i].len());
                                (run, started.elapsed().as_secs_f64())
                            },
                        );
                    if tx.send((i, result)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut slots: Vec<Option<Result<(Run, f64), RunError>>> =
            (0..plan.cases.len()).map(|_| None).collect();
        let mut done = 0;
        for (i, result) in rx {
            slots[i] = Some(result);
            // In the cases' order, whatever order they finish in.
            while done < plan.cases.len() && fatal.is_none() {
                let Some(result) = slots[done].take() else {
                    break;
                };
                let case = &plan.cases[done];
                let expected = plan.expected[done].clone();
                let mut verdict = match result {
                    Ok((run, seconds)) => verdict::judge(
                        plan.spec,
                        case,
                        expected,
                        run,
                        plan.timeout,
                        plan.output_cap(done),
                        seconds,
                    ),
                    Err(RunError::Worker(what)) => Verdict::error(case, expected, what),
                    Err(err) => {
                        abort.store(true, Ordering::SeqCst);
                        fatal = Some(Stopped::Run(err));
                        break;
                    }
                };
                // A case that cannot tell two mistakes apart names the one earlier cases did.
                let named = named_alone(&report.verdicts);
                verdict.diagnosis.prefer(named);
                // A case that names a computing mistake waits for every case: a later one
                // may contradict it, and a learner told a wrong mistake looks for it.
                let blames = verdict.mistakes().iter().any(|m| !m.is_formatting());
                if shown == done
                    && !blames
                    && let Err(e) = each(done, &verdict)
                {
                    abort.store(true, Ordering::SeqCst);
                    fatal = Some(Stopped::Write(e));
                    break;
                }
                if shown == done && !blames {
                    shown += 1;
                }
                report.verdicts.push(verdict);
                done += 1;
            }
        }
    });
    if let Some(stopped) = fatal {
        return Err(stopped);
    }
    if let Some(signal) = stop.signal() {
        return Err(Stopped::Run(RunError::Interrupted(signal)));
    }
    rule_out_contradicted(plan.spec, &mut report.verdicts);
    verdict::rule_out_across(plan.spec, &mut report.verdicts);
    // Now that every case is in, the same for cases run before the one that told them apart.
    let named = named_alone(&report.verdicts);
    for v in &mut report.verdicts {
        v.diagnosis.prefer(&named);
    }
    for (i, v) in report.verdicts.iter().enumerate().skip(shown) {
        each(i, v).map_err(Stopped::Write)?;
    }
    Ok(report)
}

/// The limits and isolation `args` ask for.
fn sandbox(args: &GradeArgs) -> Sandbox {
    Sandbox {
        memory: args.memory.0,
        cpu: args.cpu.0,
        file_size: args.file_size.0,
        isolate: args.isolate,
    }
}

/// Runs the program on every case, `--jobs` at a time, and writes the report.
fn grade(args: &GradeArgs, plan: &Plan, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let format = args.format();
    let shown: Vec<String> = args
        .program
        .iter()
        .map(|a| escape::escape(a.as_encoded_bytes()))
        .collect();
    let program = match runner::resolve(&args.program) {
        Ok(program) => program,
        Err(err) => return not_run(out, format, plan.report(&args.program), err),
    };
    // Before any case: a system that refuses isolation is the grader's trouble, never
    // a crash of the learner's program.
    if let Err(err) = check_isolation(&plan.sandbox) {
        return not_run(out, format, plan.report(&args.program), err);
    }
    hide_answers();
    // From here on a signal stops the programs being graded before the grader goes.
    let stop = interrupt::on_signals().context("could not catch Ctrl-C and SIGTERM")?;
    let mut writer = report::human::CaseWriter::with_flags(cases_flag(args));
    let mut each = |i: usize, verdict: &Verdict| -> std::io::Result<()> {
        if format != GradeFormat::Human {
            return Ok(());
        }
        if i == 0 {
            report::human::write_header(
                out,
                &shown.join(" "),
                plan.spec,
                plan.cases.len(),
                plan.seed,
            )?;
        }
        // Each case as it finishes: a slow program still shows progress.
        writer.write(out, plan.spec, verdict)?;
        out.flush()
    };
    let result = run_cases(plan, &program, jobs(args), stop, &mut each);
    // Anything a killed worker left behind.
    runner::stop_leftovers();
    let report = match result {
        Ok(report) => report,
        Err(Stopped::Write(e)) => return Err(e.into()),
        Err(Stopped::Run(RunError::Interrupted(signal))) => {
            // `each` may have written part of the report: it is done with.
            return Ok(interrupted(out, format == GradeFormat::Human, signal));
        }
        Err(Stopped::Run(err)) => return not_run(out, format, plan.report(&args.program), err),
    };
    write_report(out, format, &report)?;
    Ok(if report.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `Err` when `sandbox` asks for `--isolate` and this system cannot set it up: tried once
/// with a program that does nothing.
fn check_isolation(limits: &Sandbox) -> Result<(), RunError> {
    #[cfg(unix)]
    if limits.isolate {
        sandbox::stage::probe(limits).map_err(RunError::NoIsolation)?;
    }
    #[cfg(not(unix))]
    let _ = limits;
    Ok(())
}

/// `--jobs`, or the number of cores.
fn jobs(args: &GradeArgs) -> usize {
    args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
}

fn write_report(out: &mut impl Write, format: GradeFormat, report: &Report) -> std::io::Result<()> {
    match format {
        GradeFormat::Human => report::human::write_summary(out, report),
        GradeFormat::Json => report::json::write(out, report),
        GradeFormat::Exercism => report::exercism::write(out, report),
        GradeFormat::Junit => report::junit::write(out, report),
    }
}

/// When nothing could run: the error on stderr, and a report with status `error` in the
/// formats course tools read, so that a report is never missing. Status 2.
fn not_run(
    out: &mut impl Write,
    format: GradeFormat,
    mut report: Report,
    err: RunError,
) -> anyhow::Result<ExitCode> {
    if format == GradeFormat::Human {
        return Err(err.into());
    }
    report.error = Some(err.to_string());
    write_report(out, format, &report)?;
    out.flush()?;
    // The report went to stdout; a person running it by hand sees why on stderr.
    let _ = writeln!(std::io::stderr(), "error: {err}");
    Ok(ExitCode::from(2))
}

/// Takes back every mistake named for a case that another case contradicts, until none
/// is: a mistake may fit a case only together with one that is taken back.
fn rule_out_contradicted(spec: FilterSpec, verdicts: &mut [Verdict]) {
    loop {
        let seen: Vec<mistakes::Seen<'_>> = verdicts
            .iter()
            .map(|v| mistakes::Seen {
                script: &v.script,
                expected: &v.expected,
                got: &v.got,
                finished: matches!(v.status, verdict::Status::Pass | verdict::Status::Fail),
                diagnosis: &v.diagnosis,
            })
            .collect();
        // Each round takes back at least one mistake from every explanation, so it ends.
        let ruled_out = mistakes::contradicted(spec, &seen);
        if ruled_out.is_empty() {
            return;
        }
        for v in verdicts.iter_mut() {
            v.diagnosis.rule_out(&ruled_out);
        }
    }
}

/// How many cases named each mistake for certain (every explanation of them has it).
fn named_alone(verdicts: &[Verdict]) -> impl Fn(mistakes::Mistake) -> usize + use<> {
    let told_apart: Vec<mistakes::Mistake> = verdicts
        .iter()
        .flat_map(|v| v.diagnosis.certain())
        .collect();
    move |m| told_apart.iter().filter(|&&n| n == m).count()
}

/// One run of the program, in a worker process where there are workers.
fn run_one(
    program: &[OsString],
    script: &[u8],
    limits: Limits,
    sandbox: Sandbox,
    stop: &interrupt::Stop,
) -> Result<Run, RunError> {
    #[cfg(unix)]
    {
        worker::run(program, script, limits, sandbox, stop)
    }
    #[cfg(not(unix))]
    {
        let _ = sandbox;
        runner::run(program, script, limits, stop)
    }
}

/// Ends grading after a signal: the human report says so (unless the terminal hung up, when
/// there is no one to tell), and the status is the signal's.
fn interrupted(out: &mut impl Write, human: bool, signal: i32) -> ExitCode {
    let hung_up = interrupt::signal_name(signal) == Some("SIGHUP");
    if human && !hung_up {
        let reason = RunError::Interrupted(signal);
        // The status matters more than the note: a failed write changes nothing.
        let _ = writeln!(
            out,
            "\n{reason}; the programs and everything they started were stopped"
        );
        let _ = out.flush();
    }
    ExitCode::from(interrupt::exit_status(signal))
}
