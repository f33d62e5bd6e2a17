//! The grader on learner programs with known mistakes, and on programs that misbehave.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

fn fixture(name: &str) -> String {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "fixtures",
        "learners",
        name,
    ]
    .iter()
    .collect();
    path.to_string_lossy().into_owned()
}

fn grade(args: &[&str], program: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .arg("grade")
        .args(args)
        .arg("--")
        .args(program)
        .output()
        .expect("the tutor runs")
}

/// Runs `grade` and waits at most `limit` for it: a hang fails the test instead of
/// stopping the whole run.
fn grade_within(args: &[&str], program: &[&str], limit: Duration) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .arg("grade")
        .args(args)
        .arg("--")
        .args(program)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tutor starts");
    wait_within(child, limit, &format!("grade {args:?} -- {program:?}"))
}

/// Waits for `child` to end and collects its output, or kills it and fails after `limit`.
fn wait_within(child: std::process::Child, limit: Duration, what: &str) -> Output {
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.expect("the tutor's output can be read"),
        Err(_) => {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            panic!("{what} still running after {limit:?}");
        }
    }
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn a_correct_python_solution_passes() {
    let out = grade(&[], &["python3", &fixture("correct.py")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("16 of 16 cases passed"), "{text}");
}

#[test]
fn a_correct_c_solution_passes() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("bloom");
    let cc = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(fixture("correct.c"))
        .status()
        .expect("cc runs");
    assert!(cc.success(), "the C fixture compiles");
    let out = grade(&["--json"], &[exe.to_str().unwrap()]);
    let report = json(&out);
    assert_eq!(report["failed"], 0, "{report:#}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn each_mistake_is_named() {
    for (file, id) in [
        ("any_bit.py", "any-bit"),
        ("h2_from_zero.py", "h2-from-zero"),
        ("chars_not_bytes.py", "chars-not-bytes"),
        ("bits_reversed.py", "bits-reversed"),
        ("split_every_space.py", "split-every-space"),
        ("prompt_printed.py", "prompt-printed"),
        ("answer_case.py", "answer-case"),
        ("extra_whitespace.py", "extra-whitespace"),
        ("no_final_newline.py", "no-final-newline"),
    ] {
        let out = grade(&["--json"], &["python3", &fixture(file)]);
        let report = json(&out);
        assert_eq!(out.status.code(), Some(1), "{file} should fail");
        assert_eq!(report["mistake"], id, "{file}: {report:#}");
        let failing: Vec<&serde_json::Value> = report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["status"] != "pass")
            .collect();
        assert!(!failing.is_empty(), "{file} failed no case");
        for case in failing {
            assert_eq!(case["mistake"], id, "{file}, case {}", case["name"]);
            assert_ne!(case["expected"], case["got"]);
        }
    }
}

#[test]
fn the_human_report_shows_the_first_wrong_answer() {
    let out = grade(
        &["--case", "anagrams"],
        &["python3", &fixture("h2_from_zero.py")],
    );
    let text = crate::flat(&String::from_utf8_lossy(&out.stdout));
    assert!(text.contains("FAIL anagrams"), "{text}");
    assert!(
        text.contains(
            "first wrong answer: output line 3, the answer to CHECK \"pots\" (script line 5)"
        ),
        "{text}"
    );
    assert!(text.contains("expected: \"MAYBE\\n\""), "{text}");
    assert!(text.contains("got: \"NO\\n\""), "{text}");
    assert!(text.contains("> 5 | CHECK \"pots\""), "{text}");
    assert!(text.contains("likely mistake [h2-from-zero]"), "{text}");
    assert!(text.contains("0 of 1 case passed, 1 failed"), "{text}");
    assert!(
        text.contains("[h2-from-zero], which alone explains the failing case"),
        "{text}"
    );
    assert!(
        text.ends_with("score: 0 of 1 point"),
        "one point, not points: {text}"
    );
}

#[test]
fn a_program_that_hangs_is_stopped_with_its_children() {
    let started = std::time::Instant::now();
    let out = grade(
        &["--json", "--timeout", "1", "--case", "exercise-example"],
        &["python3", &fixture("forks_and_hangs.py")],
    );
    let report = json(&out);
    assert_eq!(report["cases"][0]["status"], "timeout", "{report:#}");
    assert_eq!(out.status.code(), Some(1));
    // The child kept the pipe open: the grader must not have waited for it.
    assert!(
        started.elapsed().as_secs() < 60,
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn crashes_floods_and_deaf_programs_are_reported() {
    for (file, status, timeout) in [
        ("crashes.py", "crash", "10"),
        ("floods.py", "flood", "10"),
        ("ignores_input.py", "fail", "10"),
        ("hangs.py", "timeout", "1"),
    ] {
        // A generous timeout where none is expected, so a loaded machine cannot turn a
        // crash into a timeout.
        let out = grade(
            &["--json", "--timeout", timeout, "--case", "exercise-example"],
            &["python3", &fixture(file)],
        );
        let report = json(&out);
        assert_eq!(report["cases"][0]["status"], status, "{file}: {report:#}");
        assert_eq!(out.status.code(), Some(1), "{file}");
        assert!(
            out.stdout.len() < 64 * 1024,
            "{file}: the report stays small"
        );
    }
}

#[test]
fn a_program_that_does_not_run_is_told_to_read_its_stderr() {
    let out = grade(&[], &["python3", "nosuch.py"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let summary = text
        .rsplit_once("0 of 16 cases passed, 16 failed")
        .map(|(_, s)| crate::flat(s))
        .unwrap_or_else(|| panic!("no count: {text}"));
    assert!(
        summary.contains("your program did not run: each of the 16 cases ended before its first answer (exited with status 2)"),
        "{summary}"
    );
    assert!(
        summary.contains("| ") && summary.contains("can't open file"),
        "{summary}"
    );
    assert!(
        !summary.contains("no mistake the grader knows"),
        "{summary}"
    );
}

#[test]
fn a_program_that_cannot_start_is_one_clear_error() {
    let out = grade(&[], &["/no/such/program"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("could not start `/no/such/program`"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "a report was started: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn cases_can_be_listed_and_shown() {
    let out = grade(&["--list"], &[]);
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(list.lines().count() >= 12, "{list}");
    let out = grade(&["--show", "exercise-example"], &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("  ADD \"fig\""), "keys are quoted: {text}");
    assert!(
        text.contains("  0000000000000000000000100100001000000001000001000000001000000000"),
        "{text}"
    );
    let out = grade(&["--show", "nope"], &[]);
    assert_eq!(out.status.code(), Some(2));
}

/// Whether `line` is one a person cannot have shorter: a BITS line (quoted, as the report
/// shows it, or not), or a command to copy standing alone on its line.
fn unbreakable(line: &str) -> bool {
    let text = line.trim();
    let answer = text.trim_matches('"').trim_end_matches("\\n");
    let bits = !answer.is_empty() && answer.bytes().all(|b| b == b'0' || b == b'1');
    let first = text.trim_start_matches('`').split(' ').next().unwrap_or("");
    let command = line.starts_with(' ') && first.ends_with("bloom-tutor");
    bits || command
}

/// Whether `line` is a command to copy standing alone on its line, indented.
fn a_command_alone(line: &str) -> bool {
    let first = line.trim_start().split(' ').next().unwrap_or("");
    line.starts_with("    ") && first.ends_with("bloom-tutor")
}

#[test]
fn every_case_of_every_filter_is_shown_in_80_columns() {
    for (scheme, bits) in [
        ("bytesum", "64"),
        ("djb2-fnv", "16"),
        ("murmur3", "100"),
        ("bytesum", "300"),
    ] {
        let out = grade(&["--scheme", scheme, "-m", bits, "--list"], &[]);
        let list = String::from_utf8_lossy(&out.stdout).into_owned();
        let names: Vec<&str> = list
            .lines()
            .filter(|l| !l.starts_with(' '))
            .filter_map(|l| l.split(' ').next())
            .collect();
        assert!(names.len() >= 16, "{scheme}: {list}");
        for line in list.lines() {
            assert!(
                line.chars().count() <= 80 || unbreakable(line),
                "{scheme} --list: {line}"
            );
        }
        for name in names {
            let out = grade(&["--scheme", scheme, "-m", bits, "--show", name], &[]);
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{scheme} {name}: {text}");
            // A long BITS line is shown in rows: only a command to copy may be longer.
            for line in text.lines() {
                assert!(
                    line.chars().count() <= 80 || a_command_alone(line),
                    "{scheme} --show {name}: a line of {} columns:\n{line}",
                    line.chars().count()
                );
            }
        }
    }
}

#[test]
fn two_mistakes_at_once_are_both_named() {
    let out = grade(&["--json"], &["python3", &fixture("two_mistakes.py")]);
    let report = json(&out);
    let cases = report["cases"].as_array().unwrap();
    let failing: Vec<&serde_json::Value> = cases.iter().filter(|c| c["status"] != "pass").collect();
    assert!(!failing.is_empty());
    for case in &failing {
        assert!(
            !case["mistakes"].as_array().unwrap().is_empty(),
            "case {} is not explained: {case:#}",
            case["name"]
        );
    }
    // In exercise-example the BITS line is the first wrong answer: the reversal comes first.
    let trace = failing
        .iter()
        .find(|c| c["name"] == "exercise-example")
        .expect("exercise-example fails");
    let both = serde_json::json!(["bits-reversed", "h2-from-zero"]);
    assert_eq!(trace["mistakes"], both, "{report:#}");
    assert_eq!(trace["explained"], true, "{report:#}");
    let out = grade(
        &["--case", "exercise-example"],
        &["python3", &fixture("two_mistakes.py")],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("likely mistake [h2-from-zero]"), "{text}");
    assert!(text.contains("likely mistake [bits-reversed]"), "{text}");
}

/// A number no other process has on its command line: the misbehaving fixtures start
/// `sleep MARKER`, and the process table is searched for it afterwards. Whatever still
/// has it when the marker is dropped is killed, so a failing test leaves nothing behind.
struct Marker(String);

impl Marker {
    fn new(test: u32) -> Marker {
        // Ten minutes and a unique fraction, should one outlive even the drop.
        Marker(format!("600.98765{test:02}{}", std::process::id()))
    }
}

impl Drop for Marker {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        for (pid, _) in processes_with(&self.0) {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
    }
}

/// The processes whose command line has `marker` as an argument, with their command lines.
#[cfg(target_os = "linux")]
fn processes_with(marker: &str) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc can be read") {
        let Ok(entry) = entry else { continue };
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        // A process may end between the listing and the read.
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if cmdline
            .split(|&b| b == 0)
            .any(|arg| arg == marker.as_bytes())
        {
            let shown = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            found.push((pid, shown));
        }
    }
    found
}

/// Whether the learner's program has started `sleep MARKER` (the grader and the program
/// have the marker on their command lines too).
#[cfg(target_os = "linux")]
fn sleeping(marker: &Marker) -> bool {
    processes_with(&marker.0)
        .iter()
        .any(|(_, cmdline)| cmdline.starts_with("sleep "))
}

/// Fails if a process with `marker` is still running.
#[cfg(target_os = "linux")]
#[track_caller]
fn assert_nothing_left(marker: &Marker, what: &str) {
    // The grader reaps what it kills before it exits; the wait only covers a slow machine.
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut left = processes_with(&marker.0);
    while !left.is_empty() && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(50));
        left = processes_with(&marker.0);
    }
    assert!(
        left.is_empty(),
        "{what}: still running after the grader ended: {left:?}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn programs_that_escape_hold_pipes_or_ignore_signals_are_stopped_with_everything_they_started() {
    for (n, (file, status, timeout)) in [
        // A child in a new session holds stdout; the program hangs, then only exits.
        ("escapes_and_hangs.py", "timeout", "2"),
        ("escapes_and_exits.py", "fail", "20"),
        // Every signal but SIGKILL ignored, by the program and its child in a new session.
        ("ignores_sigterm.py", "timeout", "2"),
        // A helper in its own process group, and a flood.
        ("floods_with_a_helper.py", "flood", "20"),
        // An orphaned grandchild in a new process group that holds stdout.
        ("daemonizes.py", "fail", "20"),
    ]
    .into_iter()
    .enumerate()
    {
        let marker = Marker::new(n as u32);
        // Far past the timeout: only a grader that waits for a pipe or a process it
        // should have stopped takes this long.
        let out = grade_within(
            &["--json", "--timeout", timeout, "--case", "exercise-example"],
            &["python3", &fixture(file), &marker.0],
            Duration::from_secs(30),
        );
        let report = json(&out);
        assert_eq!(report["cases"][0]["status"], status, "{file}: {report:#}");
        assert_eq!(out.status.code(), Some(1), "{file}");
        assert_nothing_left(&marker, file);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_signal_to_the_grader_stops_the_program_and_gives_the_signal_status() {
    for (n, (signal, status)) in [("TERM", 143), ("INT", 130), ("HUP", 129)]
        .into_iter()
        .enumerate()
    {
        let marker = Marker::new(10 + n as u32);
        // A signal this test was started with ignored would be ignored by the grader too,
        // as it should: give the grader the default action back.
        let mut command = if ignored_here(signal) {
            let mut env = Command::new("env");
            env.arg(format!("--default-signal={signal}"))
                .arg(env!("CARGO_BIN_EXE_bloom-tutor"));
            env
        } else {
            Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        };
        let child = command
            .args([
                "grade",
                "--timeout",
                "60",
                "--case",
                "exercise-example",
                "--",
            ])
            .args(["python3", &fixture("ignores_sigterm.py"), &marker.0])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the tutor starts");
        let started = Instant::now();
        while !sleeping(&marker) {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "SIG{signal}: the learner's program never started `sleep {}`",
                marker.0
            );
            thread::sleep(Duration::from_millis(20));
        }
        let kill = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(kill.success(), "SIG{signal} could not be sent");
        let out = wait_within(child, Duration::from_secs(30), &format!("SIG{signal}"));
        assert_eq!(
            out.status.code(),
            Some(status),
            "SIG{signal}: {:?}, stderr {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert_nothing_left(&marker, &format!("SIG{signal}"));
    }
}

/// Whether this process ignores the signal named `name` (`HUP`, `INT` or `TERM`).
#[cfg(target_os = "linux")]
fn ignored_here(name: &str) -> bool {
    let number = match name {
        "HUP" => 1,
        "INT" => 2,
        "TERM" => 15,
        _ => panic!("no number for SIG{name}"),
    };
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let mask = status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
        .expect("a SigIgn line");
    mask & (1 << (number - 1)) != 0
}

#[cfg(target_os = "linux")]
#[test]
fn a_hangup_under_nohup_stays_ignored() {
    let marker = Marker::new(20);
    let child = Command::new("nohup")
        .arg(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args([
            "grade",
            "--json",
            "--timeout",
            "3",
            "--case",
            "exercise-example",
            "--",
        ])
        .args(["python3", &fixture("ignores_sigterm.py"), &marker.0])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nohup starts the tutor");
    let started = Instant::now();
    while !sleeping(&marker) {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the learner's program never started"
        );
        thread::sleep(Duration::from_millis(20));
    }
    // nohup execs the tutor: the same process.
    let kill = Command::new("kill")
        .args(["-HUP", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success(), "SIGHUP could not be sent");
    let out = wait_within(child, Duration::from_secs(30), "grade under nohup");
    let report = json(&out);
    assert_eq!(
        report["cases"][0]["status"], "timeout",
        "the case ran to its timeout: {report:#}"
    );
    assert_eq!(out.status.code(), Some(1), "the grading ended as usual");
    assert_nothing_left(&marker, "nohup");
}

#[test]
fn what_the_program_prints_is_shown_escaped() {
    let out = grade(
        &["--case", "exercise-example"],
        &["python3", &fixture("prints_escapes.py")],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for (byte, name) in [(0x1b, "ESC"), (b'\r', "CR"), (0x07, "BEL")] {
        assert!(
            !out.stdout.contains(&byte),
            "the report has a raw {name}: {text:?}"
        );
    }
    assert!(text.contains("CRASH  exercise-example"), "{text}");
    assert!(
        text.contains(r"| \u{1b}]0;owned\u{7}\u{1b}[2J\r15 of 15 case(s) passed"),
        "stderr not shown escaped: {text}"
    );
    assert!(
        crate::flat(&text).contains(r#"got: "\u{1b}[2J\rMAYBE\n""#),
        "stdout not shown escaped: {text}"
    );
    assert!(
        !text.lines().any(|l| l.starts_with("15 of 15")),
        "a forged summary line: {text}"
    );
    assert!(text.contains("0 of 1 case passed, 1 failed"), "{text}");
}

#[test]
fn a_directory_as_the_program_is_named_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    let out = grade(&[], &[path]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("could not start `{path}`: it is a directory")),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "a report was started");
}

// ---- Every filter's exercise (issue 12) ----

/// Compiles a C fixture into `dir` and returns the program's path.
fn compile(dir: &std::path::Path, name: &str) -> String {
    let exe = dir.join(name.trim_end_matches(".c"));
    let cc = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(fixture(name))
        .status()
        .expect("cc runs");
    assert!(cc.success(), "{name} compiles");
    exe.to_string_lossy().into_owned()
}

/// Each filter, its configurable Python fixture, and the mistakes modelled for it.
fn filters() -> [(&'static str, &'static str, Vec<&'static str>); 3] {
    let shared = [
        "any-bit",
        "split-every-space",
        "whitespace-stripped",
        "key-stripped",
        "bits-reversed",
        "answers-swapped",
        "no-bits-set",
        "prompt-printed",
        "no-final-newline",
        "answer-case",
        "extra-whitespace",
    ];
    let with = |own: &[&'static str]| shared.iter().chain(own).copied().collect::<Vec<_>>();
    [
        (
            "bytesum",
            "bytesum.py",
            with(&["chars-not-bytes", "h2-from-zero"]),
        ),
        (
            "djb2-fnv",
            "djb2_fnv.py",
            with(&[
                "chars-not-bytes",
                "step-mod-m",
                "no-32-bit-wrap",
                "djb2-from-zero",
                "fnv1-order",
                "djb2-additive",
                "steps-from-one",
                "step-without-plus-one",
            ]),
        ),
        (
            "murmur3",
            "murmur3.py",
            with(&[
                "unsigned-hash",
                "truncating-mod",
                "seeds-from-one",
                "abs-hash",
            ]),
        ),
    ]
}

/// Grades `python3 FIXTURE MISTAKES...` on `scheme` and checks that every failing case is
/// fully explained by some of `mistakes` (a case may not show every one of them), that
/// together the cases name them all, and that the report names one of them.
#[track_caller]
fn assert_named(scheme: &str, file: &str, mistakes: &[&str]) {
    let mut program = vec!["python3".to_string(), fixture(file)];
    program.extend(mistakes.iter().map(|m| m.to_string()));
    let program: Vec<&str> = program.iter().map(String::as_str).collect();
    let out = grade(&["--json", "--scheme", scheme], &program);
    let report = json(&out);
    let what = format!("{scheme}, {mistakes:?}");
    assert_eq!(out.status.code(), Some(1), "{what} should fail");
    let failing: Vec<&serde_json::Value> = report["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["status"] != "pass")
        .collect();
    assert!(!failing.is_empty(), "{what}: no case failed");
    let mut all_named: Vec<&str> = Vec::new();
    for case in &failing {
        let named: Vec<&str> = case["mistakes"]
            .as_array()
            .expect("mistakes")
            .iter()
            .filter_map(|m| m.as_str())
            .collect();
        assert!(
            !named.is_empty() && named.iter().all(|m| mistakes.contains(m)),
            "{what}, case {}: {case:#}",
            case["name"]
        );
        assert_eq!(case["explained"], true, "{what}, case {}", case["name"]);
        all_named.extend(named);
    }
    for m in mistakes {
        assert!(
            all_named.contains(m),
            "{what}: {m} is never named: {report:#}"
        );
    }
    if mistakes.len() == 2 {
        assert!(
            failing
                .iter()
                .any(|c| c["mistakes"].as_array().is_some_and(|a| a.len() == 2)),
            "{what}: no case names both: {report:#}"
        );
    }
    assert!(
        mistakes.iter().any(|m| report["mistake"] == *m),
        "{what}: the report names {}",
        report["mistake"]
    );
}

#[test]
fn a_correct_solution_to_every_filter_passes_in_python_and_c() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (scheme, python, c) in [
        ("bytesum", "bytesum.py", "correct.c"),
        ("djb2-fnv", "djb2_fnv.py", "correct_djb2_fnv.c"),
        ("murmur3", "murmur3.py", "correct_murmur3.c"),
    ] {
        let exe = compile(dir.path(), c);
        for program in [vec!["python3", &fixture(python)], vec![exe.as_str()]] {
            let out = grade(
                &[
                    "--json", "--scheme", scheme, "--random", "10", "--seed", "12",
                ],
                &program,
            );
            let report = json(&out);
            assert_eq!(report["failed"], 0, "{scheme} {program:?}: {report:#}");
            assert_eq!(report["score"], report["max_score"], "{scheme}");
            assert_eq!(out.status.code(), Some(0), "{scheme} {program:?}");
        }
    }
}

#[test]
fn every_filters_mistakes_are_named_alone() {
    for (scheme, file, mistakes) in filters() {
        for m in mistakes {
            assert_named(scheme, file, &[m]);
        }
    }
    // The new mistake, as a learner would write it.
    assert_named(
        "bytesum",
        "whitespace_stripped.py",
        &["whitespace-stripped"],
    );
}

#[test]
fn every_filters_mistakes_are_named_in_pairs() {
    for (scheme, file, _) in filters() {
        let own = match scheme {
            "bytesum" => "h2-from-zero",
            "djb2-fnv" => "fnv1-order",
            _ => "seeds-from-one",
        };
        for pair in [
            [own, "bits-reversed"],
            [own, "prompt-printed"],
            [own, "whitespace-stripped"],
            ["answer-case", "no-final-newline"],
            ["any-bit", "extra-whitespace"],
        ] {
            assert_named(scheme, file, &pair);
        }
    }
    assert_named("djb2-fnv", "djb2_fnv.py", &["step-mod-m", "djb2-from-zero"]);
    assert_named(
        "murmur3",
        "murmur3.py",
        &["unsigned-hash", "split-every-space"],
    );
}

#[test]
fn a_whitespace_stripping_program_is_told_what_it_did_with_the_key_quoted() {
    let out = grade(
        &["--case", "long-keys"],
        &["python3", &fixture("whitespace_stripped.py")],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("likely mistake [whitespace-stripped]"),
        "{text}"
    );
    // The key's trailing space shows: it is quoted, and its end is in the quotes.
    assert!(text.contains("lazy dog \""), "{text}");
    assert!(
        !text.contains("sums grow large"),
        "no hint at overflow: {text}"
    );
}

#[test]
fn many_cases_failing_the_same_way_show_the_first_in_full() {
    let out = grade(&[], &["python3", &fixture("bits_reversed.py")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.matches("likely mistake [bits-reversed]").count(),
        1,
        "one full block: {text}"
    );
    let short = text
        .lines()
        .filter(|l| l.contains(": the same as exercise-example ([bits-reversed])"))
        .count();
    assert!(short >= 10, "one line for each later case: {text}");
    let text = crate::flat(&text);
    assert!(
        text.contains("[bits-reversed], which alone explains 15 of the 15 failing cases"),
        "{text}"
    );
}

#[test]
fn two_mistakes_together_are_said_to_explain_in_combination() {
    let out = grade(&[], &["python3", &fixture("two_mistakes.py")]);
    let text = String::from_utf8_lossy(&out.stdout);
    let summary: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("cases passed"))
        .collect();
    let summary = summary.join("\n");
    assert!(summary.contains("in combination with"), "{summary}");
}

#[test]
fn generated_cases_reproduce_from_their_seed() {
    let list = |seed: &str| {
        let out = grade(&["--random", "4", "--seed", seed, "--list"], &[]);
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let first = list("42");
    assert_eq!(first, list("42"), "the same seed, the same cases");
    assert_ne!(first, list("43"), "another seed, other cases");
    assert!(first.contains("random-42-4"), "{first}");
    // A case's name alone reproduces it, without --random.
    let a = grade(&["--show", "random-42-3", "--raw"], &[]);
    let b = grade(
        &[
            "--random",
            "4",
            "--seed",
            "42",
            "--show",
            "random-42-3",
            "--raw",
        ],
        &[],
    );
    assert_eq!(a.stdout, b.stdout);
    assert!(!a.stdout.is_empty());
    // Without --seed, one is chosen and printed so the run can be repeated.
    let out = grade(
        &["--random", "2", "--case", "empty-filter"],
        &["python3", &fixture("correct.py")],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("generated cases from seed "), "{text}");
    let report = json(&grade(
        &["--json", "--random", "2"],
        &["python3", &fixture("correct.py")],
    ));
    let seed = report["seed"].as_u64().expect("the seed is in the report");
    assert_eq!(report["cases"][16]["name"], format!("random-{seed}-1"));
}

#[test]
fn raw_scripts_fed_to_the_tutor_give_the_expected_answers() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (scheme, _, _) in filters() {
        let saved = dir.path().join(scheme);
        let out = grade(
            &[
                "--scheme",
                scheme,
                "--random",
                "3",
                "--seed",
                "9",
                "--save",
                saved.to_str().expect("UTF-8"),
            ],
            &[],
        );
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let mut names: Vec<String> = std::fs::read_dir(&saved)
            .expect("saved")
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter_map(|n| n.strip_suffix(".in").map(str::to_string))
            .collect();
        names.sort();
        assert!(names.len() >= 18, "{scheme}: {names:?}");
        for name in names {
            let raw = grade(&["--scheme", scheme, "--show", &name, "--raw"], &[]);
            let saved_in = std::fs::read(saved.join(format!("{name}.in"))).expect(".in");
            assert_eq!(raw.stdout, saved_in, "{scheme} {name}: --raw is the .in");
            let mut tutor = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
                .args(["--scheme", scheme])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("the tutor starts");
            use std::io::Write;
            tutor
                .stdin
                .take()
                .expect("stdin")
                .write_all(&raw.stdout)
                .expect("the script goes in");
            let answers = tutor.wait_with_output().expect("answers");
            let saved_out = std::fs::read(saved.join(format!("{name}.out"))).expect(".out");
            assert_eq!(
                answers.status.code(),
                Some(0),
                "{scheme} {name}: no bad line"
            );
            assert_eq!(answers.stdout, saved_out, "{scheme} {name}");
        }
    }
}

/// A report without its timings, which differ from run to run.
fn without_times(mut report: serde_json::Value) -> serde_json::Value {
    for case in report["cases"].as_array_mut().expect("cases") {
        case["seconds"] = serde_json::Value::Null;
    }
    report
}

#[test]
fn parallel_runs_give_the_same_report_as_one_at_a_time() {
    for file in ["two_mistakes.py", "correct.py", "crashes.py"] {
        let run = |jobs: &str| {
            let out = grade(
                &["--json", "--jobs", jobs, "--random", "6", "--seed", "5"],
                &["python3", &fixture(file)],
            );
            without_times(json(&out))
        };
        assert_eq!(run("1"), run("4"), "{file}");
    }
    let human = |jobs: &str| {
        let out = grade(&["--jobs", jobs], &["python3", &fixture("two_mistakes.py")]);
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    assert_eq!(human("1"), human("3"), "the human report's order is fixed");
}

#[test]
fn exercism_results_are_version_2_as_the_test_runner_reads_them() {
    let out = grade(
        &["--format", "exercism"],
        &["python3", &fixture("h2_from_zero.py")],
    );
    let results = json(&out);
    assert_eq!(results["version"], 2);
    assert_eq!(results["status"], "fail");
    assert_eq!(results["max_score"], 16, "the points are in every format");
    let passing = results["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter(|t| t["status"] == "pass")
        .count();
    assert_eq!(results["score"], passing, "a point a case: {results:#}");
    assert!(
        results.get("message").is_none(),
        "no message when tests ran"
    );
    let tests = results["tests"].as_array().expect("tests");
    assert_eq!(tests.len(), 16);
    for t in tests {
        assert!(t["name"].is_string(), "{t:#}");
        let status = t["status"].as_str().expect("status");
        assert!(["pass", "fail", "error"].contains(&status), "{t:#}");
        if status == "pass" {
            assert!(t["message"].is_null(), "{t:#}");
        } else {
            let message = t["message"].as_str().expect("a message");
            assert!(message.contains("[h2-from-zero]"), "{t:#}");
        }
        if let Some(output) = t["output"].as_str() {
            assert!(output.chars().count() <= 500, "{t:#}");
        }
        assert!(
            t["test_code"].as_str().is_some_and(|c| !c.is_empty()),
            "{t:#}"
        );
    }
    let out = grade(
        &["--format", "exercism"],
        &["python3", &fixture("floods.py")],
    );
    let results = json(&out);
    let flooded = &results["tests"][0];
    assert_eq!(flooded["status"], "error", "{flooded:#}");
    let output = flooded["output"].as_str().expect("output");
    assert_eq!(
        output.chars().count(),
        500,
        "output is cut to 500 characters"
    );
}

#[test]
fn junit_xml_is_parsed_by_a_real_xml_parser() {
    for (file, failures) in [("h2_from_zero.py", 9), ("prints_escapes.py", 0)] {
        let out = grade(&["--format", "junit"], &["python3", &fixture(file)]);
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        let doc = roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("{file}: not XML ({e}): {text}"));
        let suite = doc
            .descendants()
            .find(|n| n.has_tag_name("testsuite"))
            .expect("a testsuite");
        assert_eq!(suite.attribute("tests"), Some("16"), "{file}");
        let cases: Vec<_> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(cases.len(), 16, "{file}");
        let failed: Vec<_> = cases
            .iter()
            .filter_map(|c| c.children().find(|n| n.has_tag_name("failure")))
            .collect();
        if failures > 0 {
            assert!(failed.len() >= failures, "{file}: {text}");
            for f in &failed {
                assert!(
                    f.attribute("message")
                        .is_some_and(|m| m.contains("first wrong answer")),
                    "{file}: {text}"
                );
                assert_eq!(f.attribute("type"), Some("h2-from-zero"), "{file}");
                assert!(
                    f.text()
                        .is_some_and(|t| t.contains("script (keys are shown in quotes")),
                    "{file}"
                );
            }
        }
        let errors: usize = suite
            .attribute("errors")
            .and_then(|e| e.parse().ok())
            .expect("errors");
        let fails: usize = suite
            .attribute("failures")
            .and_then(|e| e.parse().ok())
            .expect("failures");
        assert_eq!(
            errors
                + fails
                + cases
                    .iter()
                    .filter(|c| c.children().all(|n| !n.is_element()))
                    .count(),
            16,
            "{file}"
        );
    }
}

#[test]
fn a_class_summary_reads_several_reports() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut paths = Vec::new();
    for (student, file) in [
        ("ada", "correct.py"),
        ("ben", "h2_from_zero.py"),
        ("cy", "two_mistakes.py"),
        ("dee", "bits_reversed.py"),
    ] {
        let out = grade(&["--json"], &["python3", &fixture(file)]);
        let path = dir.path().join(format!("{student}.json"));
        std::fs::write(&path, &out.stdout).expect("a report is written");
        paths.push(path.to_string_lossy().into_owned());
    }
    let mut args = vec!["--class"];
    args.extend(paths.iter().map(String::as_str));
    let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .arg("grade")
        .args(&args)
        .output()
        .expect("the tutor runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("class of 4 students: 1 passed every case"),
        "{text}"
    );
    assert!(
        text.contains("[bits-reversed]  2 of 4 students: cy, dee"),
        "most common first: {text}"
    );
    assert!(
        text.contains("[h2-from-zero]  2 of 4 students: ben, cy"),
        "{text}"
    );
    let empty_filter = text
        .lines()
        .find(|l| l.trim_start().starts_with("empty-filter"))
        .expect("a line per case");
    assert!(empty_filter.contains("4 of 4"), "{empty_filter}");
    let trace = text
        .lines()
        .find(|l| l.trim_start().starts_with("exercise-example"))
        .expect("a line per case");
    assert!(trace.contains("1 of 4"), "{trace}");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{}").expect("written");
    let out = grade(&["--class", bad.to_str().expect("UTF-8")], &[]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a file that is no report is refused"
    );
    // Among good reports, a bad one is named and the others are still summed up.
    args.push(bad.to_str().expect("UTF-8"));
    let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .arg("grade")
        .args(&args)
        .output()
        .expect("the tutor runs");
    let text = crate::flat(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("class of 4 students"), "{text}");
    assert!(
        text.contains("1 report that could not be read") && text.contains("bad.json"),
        "{text}"
    );
}

#[test]
fn a_teachers_variant_grades_the_same_exercise_on_another_size() {
    let out = grade(
        &["--json", "--scheme", "djb2-fnv", "-m", "32"],
        &["python3", &fixture("djb2_fnv.py"), "-m", "32"],
    );
    let report = json(&out);
    assert_eq!(report["bits"], 32);
    assert_eq!(report["failed"], 0, "{report:#}");
    // The 16-bit program fails the 32-bit variant.
    let out = grade(
        &["--json", "--scheme", "djb2-fnv", "-m", "32"],
        &["python3", &fixture("djb2_fnv.py")],
    );
    assert_eq!(out.status.code(), Some(1));
}

// ---- A class, safely (issue 14) ----

/// A folder of teacher's cases: one visible, one hidden worth 5 points.
fn teacher_cases() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(
        dir.path().join("visible.in"),
        "ADD fig\nADD lime\nCHECK sun\nBITS\n",
    )
    .expect("written");
    std::fs::write(
        dir.path().join("secret.in"),
        "# description: anagrams, hidden\n# weight: 5\n# hidden: true\nADD zebra\nADD fig\nCHECK arbez\nBITS\n",
    )
    .expect("written");
    dir
}

#[test]
fn teacher_cases_are_graded_with_their_weights() {
    let dir = teacher_cases();
    let cases = dir.path().to_str().expect("UTF-8");
    let report = json(&grade(
        &["--json", "--cases", cases],
        &["python3", &fixture("h2_from_zero.py")],
    ));
    let names: Vec<&str> = report["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(
        names,
        ["secret", "visible"],
        "only the teacher's cases, by name"
    );
    assert_eq!(report["max_score"], 6, "1 + 5 points");
    assert_eq!(report["score"], 0, "{report:#}");
    let report = json(&grade(
        &["--json", "--cases", cases],
        &["python3", &fixture("correct.py")],
    ));
    assert_eq!(report["score"], 6, "{report:#}");
    let out = grade(&["--cases", cases], &["python3", &fixture("correct.py")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.ends_with("score: 6 of 6 points\n"), "{text}");
}

#[test]
fn a_hidden_case_never_shows_its_script_or_answers_in_any_format() {
    let dir = teacher_cases();
    let cases = dir.path().to_str().expect("UTF-8");
    // A program that also echoes its input to stderr.
    let echo = dir.path().join("echo.py");
    std::fs::write(
        &echo,
        "import sys\nd = sys.stdin.read()\nsys.stderr.write(d)\nsys.stdout.write(d)\n",
    )
    .expect("written");
    for format in ["human", "json", "exercism", "junit"] {
        for program in [
            fixture("h2_from_zero.py"),
            echo.to_string_lossy().into_owned(),
        ] {
            let out = grade(
                &["--format", format, "--cases", cases],
                &["python3", &program],
            );
            let text = String::from_utf8_lossy(&out.stdout);
            for secret in ["zebra", "arbez"] {
                assert!(
                    !text.contains(secret),
                    "{format}, {program}: the hidden script shows: {text}"
                );
            }
            assert!(
                text.contains("secret"),
                "{format}: the case is reported: {text}"
            );
            assert!(
                text.contains("visible"),
                "{format}: the visible case is reported: {text}"
            );
        }
    }
    let out = grade(&["--cases", cases, "--show", "secret"], &[]);
    assert_eq!(out.status.code(), Some(2), "--show refuses a hidden case");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("zebra"));
    let saved = tempfile::tempdir().expect("a temporary folder");
    let out = grade(
        &[
            "--cases",
            cases,
            "--save",
            saved.path().to_str().expect("UTF-8"),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        !saved.path().join("secret.in").exists(),
        "--save skips a hidden case"
    );
    assert!(saved.path().join("visible.in").exists());
}

#[test]
fn a_wrong_out_file_is_refused_with_the_line_that_differs() {
    let dir = teacher_cases();
    std::fs::write(dir.path().join("visible.out"), "MAYBE\nwrong bits\n").expect("written");
    let out = grade(
        &["--cases", dir.path().to_str().expect("UTF-8")],
        &["python3", &fixture("correct.py")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("visible.out line 1 is `MAYBE`, but the tutor answers `NO`"),
        "{stderr}"
    );
}

#[test]
fn programs_stopped_by_a_limit_get_a_status_that_names_it() {
    for (file, status, words) in [
        ("hogs_memory.py", "memory-limit", "memory limit"),
        ("burns_cpu.py", "cpu-limit", "CPU time limit"),
        ("writes_huge_file.py", "file-limit", "file size limit"),
    ] {
        let out = grade_within(
            &[
                "--json",
                "--cpu",
                "1",
                "--memory",
                "512M",
                "--file-size",
                "1M",
                "--timeout",
                "30",
                "--case",
                "exercise-example",
            ],
            &["python3", &fixture(file)],
            Duration::from_secs(60),
        );
        let report = json(&out);
        let case = &report["cases"][0];
        assert_eq!(case["status"], status, "{file}: {report:#}");
        assert!(
            case["reason"].as_str().is_some_and(|r| r.contains(words)),
            "{file}: {case:#}"
        );
    }
}

#[test]
fn a_program_runs_in_an_empty_folder_with_a_scrubbed_environment() {
    let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args(["grade", "--json", "--case", "empty-filter", "--"])
        .args(["python3", &fixture("inspects.py")])
        .env("BLOOM_TUTOR_TEST_SECRET", "hunter2")
        .output()
        .expect("the tutor runs");
    let report = json(&out);
    let got = report["cases"][0]["got"].as_str().expect("what it printed");
    let seen: serde_json::Value = serde_json::from_str(got).expect("the fixture's JSON");
    assert_eq!(
        seen["files"],
        serde_json::json!([]),
        "an empty folder: {seen:#}"
    );
    assert!(
        seen["secret"].is_null(),
        "the grader's environment leaked: {seen:#}"
    );
    let cwd = seen["cwd"].as_str().expect("cwd");
    assert_ne!(
        std::path::Path::new(cwd),
        std::env::current_dir().expect("cwd"),
        "not the grader's folder"
    );
    assert!(
        !std::path::Path::new(cwd).exists(),
        "the folder is removed afterwards"
    );
    let tutor_dir = std::path::Path::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .parent()
        .expect("a folder");
    let path = seen["path"].as_str().expect("PATH");
    assert!(
        !path
            .split(':')
            .any(|d| std::path::Path::new(d) == tutor_dir),
        "the tutor's folder is on the PATH: {path}"
    );
}

/// The tutor's folder first on PATH, as for a teacher who installed it.
fn path_with_tutor() -> std::ffi::OsString {
    let dir = std::path::Path::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .parent()
        .expect("a folder")
        .to_path_buf();
    let mut paths = vec![dir];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(paths).expect("a PATH")
}

#[test]
fn programs_that_run_the_tutor_are_failed_with_a_named_verdict() {
    for file in [
        "cheat_by_path.py",
        "cheat_by_ppid.py",
        "cheat_by_copy.py",
        "cheat_by_modified_copy.py",
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
            .args([
                "grade",
                "--json",
                "--file-size",
                "none",
                "--case",
                "exercise-example",
                "--",
            ])
            .args(["python3", &fixture(file)])
            .env("PATH", path_with_tutor())
            .output()
            .expect("the tutor runs");
        let report = json(&out);
        let case = &report["cases"][0];
        assert_eq!(case["status"], "used-tutor", "{file}: {report:#}");
        assert!(
            case["reason"]
                .as_str()
                .is_some_and(|r| r.contains("answer key")),
            "{file}: {case:#}"
        );
        assert_eq!(out.status.code(), Some(1), "{file}");
    }
}

#[test]
fn a_tutor_run_in_a_process_view_of_its_own_is_seen_too() {
    if !isolation_works() {
        return;
    }
    let report = json(&grade(
        &[
            "--json",
            "--file-size",
            "none",
            "--case",
            "exercise-example",
        ],
        &["python3", &fixture("cheat_in_own_view.py")],
    ));
    assert_eq!(report["cases"][0]["status"], "used-tutor", "{report:#}");
}

#[test]
fn the_tutor_refuses_to_answer_under_a_grading_worker() {
    // A program that runs the tutor and prints what it said; the grader must see the run,
    // and the tutor must not have answered.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let program = dir.path().join("ask.py");
    std::fs::write(
        &program,
        format!(
            "import subprocess, sys\nr = subprocess.run([{:?}], input=b'ADD fig\\nBITS\\n', capture_output=True)\nsys.stdout.buffer.write(r.stdout)\nsys.stderr.buffer.write(r.stderr)\n",
            env!("CARGO_BIN_EXE_bloom-tutor")
        ),
    )
    .expect("written");
    let report = json(&grade(
        &["--json", "--case", "exercise-example"],
        &["python3", program.to_str().expect("UTF-8")],
    ));
    let case = &report["cases"][0];
    assert_eq!(case["status"], "used-tutor", "{report:#}");
    assert!(
        !case["got"].as_str().unwrap_or("").contains('1'),
        "the tutor answered: {case:#}"
    );
}

#[test]
fn a_class_is_graded_into_a_csv() {
    let class = tempfile::tempdir().expect("a temporary folder");
    for (student, file) in [
        ("ada", Some("correct.py")),
        ("ben", Some("h2_from_zero.py")),
        ("cy, jr", None),
        ("dee", Some("hangs.py")),
        ("eve", Some("hogs_memory.py")),
    ] {
        let folder = class.path().join(student);
        std::fs::create_dir(&folder).expect("a student's folder");
        if let Some(file) = file {
            std::fs::copy(fixture(file), folder.join("bloom.py")).expect("copied");
        }
    }
    let out_dir = tempfile::tempdir().expect("a temporary folder");
    let csv = out_dir.path().join("grades.csv");
    let reports = out_dir.path().join("reports");
    let out = grade_within(
        &[
            "--submissions",
            class.path().to_str().expect("UTF-8"),
            "--csv",
            csv.to_str().expect("UTF-8"),
            "--reports",
            reports.to_str().expect("UTF-8"),
            "--timeout",
            "1",
            "--memory",
            "512M",
            "--case",
            "exercise-example",
            "--case",
            "anagrams",
        ],
        &["python3", "{}/bloom.py"],
        Duration::from_secs(120),
    );
    let summary = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "not every student passed: {summary}"
    );
    assert!(
        summary.starts_with("class of 5 students"),
        "the summary starts with the class: {summary}"
    );
    let text = std::fs::read_to_string(&csv).expect("the CSV is written");
    let mut reader = csv_rows(&text);
    assert_eq!(
        reader.remove(0),
        [
            "student",
            "score",
            "max_score",
            "cases_passed",
            "cases_total",
            "status",
            "mistakes",
            "note",
            "report"
        ]
    );
    let row = |name: &str| {
        reader
            .iter()
            .find(|r| r[0] == name)
            .unwrap_or_else(|| panic!("no row for {name}: {text}"))
            .clone()
    };
    let report_of = |name: &str| reports.join(name).to_string_lossy().into_owned();
    assert_eq!(
        row("ada")[1..],
        ["2", "2", "2", "2", "pass", "", "", &report_of("ada.json")],
        "{text}"
    );
    assert_eq!(
        row("ben")[5..8],
        ["fail", "h2-from-zero", "2 cases gave wrong answers"],
        "{text}"
    );
    let missing = format!(
        "the submission has no `{}`",
        class.path().join("cy, jr").join("bloom.py").display()
    );
    assert_eq!(
        row("cy, jr")[1..],
        [
            "0",
            "2",
            "0",
            "2",
            "not-graded",
            "",
            &missing,
            &report_of("cy__jr.json")
        ],
        "a missing submission says why, and where its report went: {text}"
    );
    assert_eq!(
        row("dee")[1..8],
        ["0", "2", "0", "2", "timeout", "", "2 cases timed out"],
        "a program that hangs is not one with wrong answers: {text}"
    );
    assert_eq!(
        row("eve")[5..8],
        ["limit", "", "2 cases hit the memory limit (--memory)"],
        "{text}"
    );
    assert_eq!(reader.len(), 5, "one row per student: {text}");
    let dee = std::fs::read(reports.join("dee.json")).expect("a report per student");
    let dee: serde_json::Value = serde_json::from_slice(&dee).expect("JSON");
    assert_eq!(dee["cases"][0]["status"], "timeout", "{dee:#}");
    let flat = crate::flat(&summary);
    for said in [
        "timed out: dee (2 cases)",
        "hit the memory limit (--memory): eve (2 cases)",
        &format!("not graded, 1 student: cy, jr: {missing}"),
        &format!(
            "reports not named after their student: cy, jr: {}",
            report_of("cy__jr.json")
        ),
    ] {
        assert!(
            flat.contains(said),
            "the summary should say `{said}`: {summary}"
        );
    }
    assert!(
        out.stderr.is_empty(),
        "no progress bar when piped: {:?}",
        out.stderr
    );
}

/// The rows of a CSV (RFC 4180: quoted fields may hold commas and doubled quotes).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let (mut row, mut field, mut quoted, mut chars) =
            (Vec::new(), String::new(), false, line.chars().peekable());
        while let Some(c) = chars.next() {
            match (c, quoted) {
                ('"', true) if chars.peek() == Some(&'"') => {
                    field.push('"');
                    chars.next();
                }
                ('"', _) => quoted = !quoted,
                (',', false) => row.push(std::mem::take(&mut field)),
                (c, _) => field.push(c),
            }
        }
        row.push(field);
        rows.push(row);
    }
    rows
}

#[test]
fn a_program_in_this_folder_named_without_dot_slash_gets_a_hint() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::copy(fixture("correct.c"), dir.path().join("run")).expect("a file named run");
    let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args(["grade", "--", "run"])
        .current_dir(dir.path())
        .output()
        .expect("the tutor runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("write `./run`"), "{stderr}");
}

#[test]
fn every_format_is_written_when_nothing_could_run() {
    let out = grade(&["--format", "json"], &["/no/such/program"]);
    assert_eq!(out.status.code(), Some(2));
    let report = json(&out);
    assert_eq!(report["status"], "error");
    assert!(
        report["message"]
            .as_str()
            .is_some_and(|m| m.contains("could not start")),
        "{report:#}"
    );
    let out = grade(&["--format", "exercism"], &["/no/such/program"]);
    assert_eq!(out.status.code(), Some(2));
    let results = json(&out);
    assert_eq!(results["version"], 2);
    assert_eq!(results["status"], "error");
    assert!(
        results["message"]
            .as_str()
            .is_some_and(|m| m.contains("/no/such/program"))
    );
    let out = grade(&["--format", "junit"], &["/no/such/program"]);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let doc = roxmltree::Document::parse(&text).expect("XML");
    let error = doc
        .descendants()
        .find(|n| n.has_tag_name("error"))
        .expect("an error element");
    assert!(
        error
            .attribute("message")
            .is_some_and(|m| m.contains("could not start"))
    );
}

#[test]
fn a_wrong_bits_line_names_the_positions_that_differ() {
    let out = grade(
        &["--case", "exercise-example"],
        &["python3", &fixture("h2_from_zero.py")],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("bits that differ: expected 1, got 0 at bits"),
        "{text}"
    );
}

/// Whether this system lets a process make the namespaces `--isolate` needs, with a /proc
/// of their own (a container may allow the namespaces but refuse the /proc).
fn isolation_works() -> bool {
    Command::new("unshare")
        .args(["--user", "--map-current-user", "--net", "--pid", "--fork"])
        .args(["--mount", "--mount-proc", "true"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// What `grade --isolate` says where isolation cannot be set up: status 2, the reason, and
/// no case blamed on the program.
fn assert_isolation_refused(out: &std::process::Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--isolate cannot be set up on this system"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("CRASH"), "{stdout}");
}

#[test]
fn isolate_takes_the_network_and_the_process_view_away() {
    let run = |args: &[&str]| {
        let mut all = vec!["--json", "--case", "empty-filter"];
        all.extend(args);
        let report = json(&grade(&all, &["python3", &fixture("pid_view.py")]));
        report["cases"][0]["got"].as_str().unwrap_or("").to_string()
    };
    let open = run(&[]);
    assert!(
        !open.ends_with("unreachable\n"),
        "without --isolate: {open}"
    );
    if !isolation_works() {
        // Where the system refuses, --isolate must say so, not run open or blame the program.
        assert_isolation_refused(&grade(
            &["--isolate", "--case", "empty-filter"],
            &["python3", &fixture("pid_view.py")],
        ));
        return;
    }
    let closed = run(&["--isolate"]);
    let (count, net) = closed.trim().split_once(' ').expect("count and network");
    assert_eq!(net, "unreachable", "{closed}");
    let count: u32 = count.parse().expect("a count");
    assert!(
        count <= 3,
        "a private process view shows a few processes: {closed}"
    );
    let report = json(&grade(
        &["--json", "--isolate"],
        &["python3", &fixture("correct.py")],
    ));
    assert_eq!(
        report["failed"], 0,
        "a correct program passes isolated: {report:#}"
    );
}

/// A container that allows user namespaces but not a new /proc, made here: a user and
/// mount namespace with a file system over part of /proc, as container runtimes mask it.
#[test]
fn isolate_where_the_system_refuses_a_new_proc_is_the_graders_error() {
    let masked = |script: &str| {
        Command::new("unshare")
            .args(["--user", "--map-root-user", "--mount", "sh", "-c"])
            .arg(format!(
                "mount -t tmpfs none /proc/sys || exit 97; {script}"
            ))
            .output()
            .expect("unshare runs")
    };
    if masked("exit 0").status.code() != Some(0) {
        // This system cannot make a masked /proc to test against.
        return;
    }
    let tutor = env!("CARGO_BIN_EXE_bloom-tutor");
    let program = fixture("pid_view.py");
    let human = masked(&format!(
        "exec '{tutor}' grade --isolate --case empty-filter -- python3 '{program}'"
    ));
    assert_isolation_refused(&human);
    // Course tools still get a report, with the error in it.
    let report = masked(&format!(
        "exec '{tutor}' grade --json --isolate --case empty-filter -- python3 '{program}'"
    ));
    assert_eq!(report.status.code(), Some(2));
    let text = String::from_utf8_lossy(&report.stdout);
    assert!(text.contains("--isolate cannot be set up"), "{text}");
}

#[test]
fn a_program_cannot_write_to_the_graders_terminal() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"));
    command.args(["grade", "--case", "empty-filter", "--"]);
    command.args(["python3", &fixture("writes_to_the_terminal.py")]);
    let mut p =
        rexpect::session::spawn_command(command, Some(60_000)).expect("the grader starts on a pty");
    let seen = p.exp_eof().expect("the grading ends");
    assert!(
        !seen.contains("FORGED"),
        "the program wrote to the terminal: {seen}"
    );
    assert!(seen.contains("no tty"), "it was refused a terminal: {seen}");
}

#[test]
fn a_step_without_its_plus_one_is_named() {
    let out = grade(
        &["--scheme", "djb2-fnv"],
        &["python3", &fixture("double_step_without_plus_one.py")],
    );
    let text = crate::flat(&String::from_utf8_lossy(&out.stdout));
    assert!(
        text.contains("most likely mistake: [step-without-plus-one], which alone explains 15 of the 15 failing cases"),
        "{text}"
    );
    assert!(
        text.contains("without the + 1"),
        "the hint says what to change: {text}"
    );
}

/// Grades `file` on `scheme` and checks that every failing case names `id` and nothing else.
#[track_caller]
fn assert_only_named(scheme: &str, file: &str, id: &str) {
    let out = grade(
        &["--json", "--scheme", scheme],
        &["python3", &fixture(file)],
    );
    let report = json(&out);
    assert_eq!(out.status.code(), Some(1), "{file} should fail");
    assert_eq!(report["mistake"], id, "{file}: {report:#}");
    for case in report["cases"].as_array().expect("cases") {
        if case["status"] != "pass" {
            assert_eq!(
                case["mistakes"],
                serde_json::json!([id]),
                "{file}, case {}",
                case["name"]
            );
        }
    }
}

#[test]
fn a_mistake_that_fits_a_small_filters_case_by_chance_is_not_named() {
    // On 16 bits, bits-reversed and djb2-from-zero each reproduced one case of these
    // programs: the other cases contradict them.
    assert_only_named("djb2-fnv", "djb2_additive.py", "djb2-additive");
    assert_only_named("djb2-fnv", "steps_from_one.py", "steps-from-one");
    assert_only_named("murmur3", "abs_hash.py", "abs-hash");
    assert_only_named("bytesum", "answers_swapped.py", "answers-swapped");
}

#[test]
fn a_mistake_the_grader_does_not_know_is_not_blamed_on_one_it_does() {
    // h1 one too large is no mistake the grader models: on the 64-bit filter other models
    // fit a case here and there by chance, and each is contradicted by other cases.
    let out = grade(&[], &["python3", &fixture("h1_off_by_one.py")]);
    let text = crate::flat(&String::from_utf8_lossy(&out.stdout));
    assert!(
        text.contains("no mistake the grader knows explains any of the 15 failing cases"),
        "{text}"
    );
    assert!(!text.contains("likely mistake"), "{text}");
    let out = grade(&["--json"], &["python3", &fixture("h1_off_by_one.py")]);
    let report = json(&out);
    for case in report["cases"].as_array().expect("cases") {
        assert_eq!(case["mistakes"], serde_json::json!([]), "{case:#}");
    }
}

#[test]
fn a_key_stripped_at_both_ends_is_named_as_such() {
    // key.strip() loses a key's spaces at both ends: neither split-every-space (a leading
    // space) nor whitespace-stripped (a trailing one) alone, but a mistake of its own.
    let out = grade(&["--json"], &["python3", &fixture("key_stripped.py")]);
    let report = json(&out);
    assert_eq!(report["mistake"], "key-stripped", "{report:#}");
    for case in report["cases"].as_array().expect("cases") {
        if case["status"] != "pass" {
            assert_eq!(
                case["mistakes"],
                serde_json::json!(["key-stripped"]),
                "{case:#}"
            );
        }
    }
}

#[test]
fn an_unfilled_starter_is_told_it_sets_no_bits() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for scheme in ["bytesum", "djb2-fnv", "murmur3"] {
        let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
            .args(["exercise", "--scheme", scheme, "--starter", "python"])
            .output()
            .expect("the tutor runs");
        let path = dir.path().join(format!("{scheme}.py"));
        std::fs::write(&path, &out.stdout).expect("the starter is written");
        let out = grade(
            &["--json", "--scheme", scheme],
            &["python3", &path.to_string_lossy()],
        );
        let report = json(&out);
        assert_eq!(report["mistake"], "no-bits-set", "{scheme}: {report:#}");
    }
}

#[test]
fn a_program_stopped_by_a_position_past_the_last_bit_is_told_no_mod() {
    // h2 not taken mod 64: the first key whose h2 is 64 or more stops the program with an
    // IndexError, after the answers it wrote so far (all of them right).
    let out = grade(&[], &["python3", &fixture("no_mod.py")]);
    let text = crate::flat(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "most likely mistake: [no-mod], which alone explains 15 of the 15 failing cases"
        ),
        "{text}"
    );
    assert!(
        text.contains("621 mod 64 = 45"),
        "the hint works fig: {text}"
    );
    // h1 not taken mod 64 either stops it sooner, at the same keys: no-mod all the same.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let source = std::fs::read_to_string(fixture("no_mod.py")).expect("the fixture");
    let both = dir.path().join("both.py");
    std::fs::write(
        &both,
        source.replace("h1 = sum(data) % 64", "h1 = sum(data)"),
    )
    .unwrap();
    let report = json(&grade(&["--json"], &["python3", &both.to_string_lossy()]));
    assert_eq!(report["mistake"], "no-mod", "{report:#}");
    for case in report["cases"].as_array().expect("cases") {
        assert_eq!(case["mistakes"], serde_json::json!(["no-mod"]), "{case:#}");
    }
    // Nor one that stops with an index error before it reads a line: each case that
    // begins with ADD fits no-mod, but the case that begins with BITS shows it is not.
    let argv = dir.path().join("argv.py");
    std::fs::write(&argv, "import sys\nFILE = sys.argv[1]\n").unwrap();
    let report = json(&grade(&["--json"], &["python3", &argv.to_string_lossy()]));
    for case in report["cases"].as_array().expect("cases") {
        assert_eq!(case["mistakes"], serde_json::json!([]), "{case:#}");
    }
    // A program that stops at the same keys for another reason is not told no-mod.
    let other = dir.path().join("other.py");
    let broken = source.replace("h2 = sum(", "h2 = key + sum(");
    assert_ne!(broken, source);
    std::fs::write(&other, broken).unwrap();
    let report = json(&grade(&["--json"], &["python3", &other.to_string_lossy()]));
    assert_ne!(report["mistake"], "no-mod", "{report:#}");
    for case in report["cases"].as_array().expect("cases") {
        assert_eq!(case["mistakes"], serde_json::json!([]), "{case:#}");
    }
}

#[test]
fn a_bits_line_of_another_length_is_told_how_long_it_must_be() {
    // A program for the 16-bit filter, graded on 100 bits.
    let out = grade(
        &["--scheme", "djb2-fnv", "-m", "100"],
        &["python3", &fixture("djb2_fnv.py")],
    );
    let report = String::from_utf8_lossy(&out.stdout);
    for line in report.lines().filter(|l| !l.contains(" | ")) {
        assert!(
            line.chars().count() <= 80 || unbreakable(line),
            "a line of {} columns:\n{line}",
            line.chars().count()
        );
    }
    let text = crate::flat(&report);
    assert!(
        text.contains(
            "your BITS line has 16 characters; this filter has m = 100 bits, so it needs 100"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "your BITS lines have 16 characters; this filter has m = 100 bits, so each needs 100"
        ),
        "the summary says it once: {text}"
    );
}

// ---- A class in every format, and the flags each mode takes (trial 5) ----

/// A class of three in a temporary folder: ada (correct), ben (h2-from-zero) and cy, who
/// handed in nothing.
fn small_class() -> tempfile::TempDir {
    let class = tempfile::tempdir().expect("a temporary folder");
    for (student, file) in [
        ("ada", Some("correct.py")),
        ("ben", Some("h2_from_zero.py")),
        ("cy", None),
    ] {
        let folder = class.path().join(student);
        std::fs::create_dir(&folder).expect("a student's folder");
        if let Some(file) = file {
            std::fs::copy(fixture(file), folder.join("bloom.py")).expect("copied");
        }
    }
    class
}

/// `grade --submissions CLASS ARGS -- python3 {}/bloom.py` on two cases.
fn grade_class(class: &std::path::Path, args: &[&str]) -> Output {
    let mut all = vec![
        "--submissions",
        class.to_str().expect("UTF-8"),
        "--case",
        "exercise-example",
        "--case",
        "anagrams",
    ];
    all.extend_from_slice(args);
    grade_within(&all, &["python3", "{}/bloom.py"], Duration::from_secs(120))
}

#[test]
fn a_class_is_written_in_the_format_asked_for() {
    let class = small_class();
    let out = grade_class(class.path(), &["--format", "junit"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("--format junit is JUnit XML ({e}): {text}"));
    let root = doc.root_element();
    assert!(root.has_tag_name("testsuites"), "{text}");
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    let names: Vec<_> = suites.iter().filter_map(|s| s.attribute("name")).collect();
    assert_eq!(
        names,
        ["ada", "ben", "cy"],
        "a testsuite per student: {text}"
    );
    for suite in &suites {
        let cases = suite.children().filter(|n| n.has_tag_name("testcase"));
        assert_eq!(cases.count(), 2, "each student's cases: {text}");
    }
    assert_eq!(root.attribute("tests"), Some("6"), "{text}");
    assert!(
        suites[2].children().any(|n| n.has_tag_name("error")),
        "cy was not graded: {text}"
    );

    for format in [&["--format", "json"][..], &["--json"]] {
        let out = grade_class(class.path(), format);
        assert_eq!(out.status.code(), Some(1));
        let doc = json(&out);
        let students = doc["students"].as_array().expect("a list of students");
        let names: Vec<_> = students.iter().map(|s| s["student"].clone()).collect();
        assert_eq!(names, ["ada", "ben", "cy"], "{doc:#}");
        assert_eq!(students[1]["status"], "fail", "{doc:#}");
        assert_eq!(students[1]["report"]["mistake"], "h2-from-zero", "{doc:#}");
        assert_eq!(students[2]["status"], "not-graded", "{doc:#}");
        assert_eq!(doc["summary"]["students"], 3, "{doc:#}");
        assert_eq!(doc["summary"]["passed_every_case"], 1, "{doc:#}");
        assert_eq!(
            doc["summary"]["mistakes"][0]["students"][0], "ben",
            "{doc:#}"
        );
    }

    let out = grade_class(class.path(), &["--format", "exercism"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot hold a class") && stderr.contains("--format junit"),
        "exercism is refused for a class, saying what to use: {stderr}"
    );
    assert!(out.stdout.is_empty(), "nothing graded");
}

#[test]
fn a_class_read_back_from_reports_gives_the_same_csv_and_formats() {
    let class = small_class();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (csv, reports) = (dir.path().join("graded.csv"), dir.path().join("reports"));
    let out = grade_class(
        class.path(),
        &[
            "--csv",
            csv.to_str().expect("UTF-8"),
            "--reports",
            reports.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let graded = std::fs::read_to_string(&csv).expect("the CSV");
    let files: Vec<String> = ["ada", "ben", "cy"]
        .iter()
        .map(|n| {
            reports
                .join(format!("{n}.json"))
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let read_back = dir.path().join("read.csv");
    let mut args = vec!["--class"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--csv", read_back.to_str().expect("UTF-8")]);
    let out = grade(&args, &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let again = std::fs::read_to_string(&read_back).expect("--class writes the CSV");
    assert_eq!(again, graded, "the same rows from the reports");
    for (format, root) in [("junit", "<testsuites"), ("json", "{")] {
        let mut args = vec!["--class"];
        args.extend(files.iter().map(String::as_str));
        args.extend(["--format", format]);
        let out = grade(&args, &[]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.trim_start().starts_with(root) || text.contains(root),
            "--class --format {format}: {text}"
        );
        assert!(
            !text.contains("pass rate per case"),
            "not the human summary: {text}"
        );
    }
}

#[test]
fn flags_a_mode_does_not_use_are_refused() {
    let report = tempfile::NamedTempFile::new().expect("a file");
    let report = report.path().to_str().expect("UTF-8");
    for (args, program) in [
        (vec!["--class", report, "--timeout", "3"], vec![]),
        (vec!["--class", report, "--scheme", "murmur3"], vec![]),
        (vec!["--class", report, "-m", "32"], vec![]),
        (vec!["--class", report, "--case", "anagrams"], vec![]),
        (vec!["--class", report, "--random", "3"], vec![]),
        (vec!["--class", report, "--seed", "3"], vec![]),
        (vec!["--class", report, "--cases", "."], vec![]),
        (vec!["--class", report, "--memory", "2G"], vec![]),
        (vec!["--class", report, "--jobs", "2"], vec![]),
        (vec!["--class", report, "--isolate"], vec![]),
        (vec!["--class", report, "--reports", "r"], vec![]),
        (vec!["--class", report], vec!["python3", "x.py"]),
        (vec!["--list", "--format", "json"], vec![]),
        (vec!["--list", "--timeout", "3"], vec![]),
        (vec!["--show", "anagrams", "--json"], vec![]),
        (vec!["--show", "anagrams", "--case", "bits-order"], vec![]),
        (vec!["--save", "x", "--cpu", "3"], vec![]),
        (vec!["--csv", "x.csv"], vec!["python3", "x.py"]),
        (vec!["--reports", "r"], vec!["python3", "x.py"]),
        (vec!["--build", "cc x.c"], vec!["./x"]),
        (vec!["--class", report, "--build", "cc x.c"], vec![]),
        (vec!["--class", report, "--raw"], vec![]),
        (vec!["--list", "--raw"], vec![]),
        (vec!["--list", "--build", "cc x.c"], vec![]),
        (vec!["--list", "--csv", "x.csv"], vec![]),
        (vec!["--save", "x", "--reports", "r"], vec![]),
        (vec!["--show", "anagrams", "--build", "cc x.c"], vec![]),
    ] {
        let out = grade(&args, &program);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?} -- {program:?} is refused, not ignored: {stderr}"
        );
        assert!(
            stderr.contains("cannot be used with") || stderr.contains("required arguments"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn sizes_without_a_unit_are_refused_before_any_student_is_failed() {
    for (flag, value, says) in [
        ("--memory", "10", "`10` is 10 bytes"),
        ("--memory", "8M", "`8M` is 8 MiB"),
        ("--file-size", "16", "`16` is 16 bytes"),
    ] {
        let out = grade(&[flag, value], &["python3", &fixture("correct.py")]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {stderr}");
        assert!(
            stderr.contains(says) && stderr.contains("write the unit"),
            "{flag} {value}: {stderr}"
        );
    }
    let out = grade(&["--timeout", "0"], &["python3", &fixture("correct.py")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("above 0 and at most 3600"),
        "no range that holds 0 when 0 is refused: {stderr}"
    );
}

#[test]
fn a_program_stopped_by_the_memory_limit_before_any_answer_is_told_the_limit() {
    let out = grade_within(
        &[
            "--memory",
            "512M",
            "--case",
            "exercise-example",
            "--case",
            "anagrams",
        ],
        &["python3", &fixture("hogs_memory.py")],
        Duration::from_secs(60),
    );
    let text = crate::flat(&String::from_utf8_lossy(&out.stdout));
    assert!(text.contains("MEM exercise-example"), "{text}");
    assert!(
        text.contains("grade again with a higher --memory (the default is --memory 1G)"),
        "the limit is named: {text}"
    );
    assert!(
        !text.contains("fix that first") && !text.contains("no mistake the grader knows"),
        "the program is not blamed for the limit: {text}"
    );
}

#[test]
fn a_class_where_no_program_ran_is_told_so_first() {
    let class = small_class();
    // `sh` reads a Python program as a shell script: every student's program fails.
    let out = grade_within(
        &[
            "--submissions",
            class.path().to_str().expect("UTF-8"),
            "--case",
            "anagrams",
        ],
        &["sh", "{}/bloom.py"],
        Duration::from_secs(60),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("no student's program gave a single answer: check the command and"),
        "{text}"
    );
    // Programs that hang after their first answer: each one ran, and each timed out.
    let class = tempfile::tempdir().expect("a temporary folder");
    for student in ["ann", "bob"] {
        let folder = class.path().join(student);
        std::fs::create_dir(&folder).expect("a folder");
        std::fs::write(
            folder.join("bloom.py"),
            "import sys, time\nprint('NO', flush=True)\ntime.sleep(60)\n",
        )
        .expect("written");
    }
    let out = grade_within(
        &[
            "--submissions",
            class.path().to_str().expect("UTF-8"),
            "--case",
            "anagrams",
            "--case",
            "random-5-1",
            "--random",
            "1",
            "--seed",
            "5",
            "--timeout",
            "1",
        ],
        &["python3", "{}/bloom.py"],
        Duration::from_secs(60),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    assert_eq!(
        first, "every student graded has the status timeout: check the command and the limits",
        "{text}"
    );
    assert!(
        crate::flat(&text).contains(
            "every student had the same 1 generated case, from seed 5 (--random 1 --seed 5)"
        ),
        "{text}"
    );
}

#[test]
fn keys_in_exercism_and_junit_are_quoted_and_escaped_as_in_the_human_report() {
    let cases = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(
        cases.path().join("tabs.in"),
        "ADD tab\there\nCHECK tab\\there\nCHECK sheep\t\nBITS\n",
    )
    .expect("a case");
    let dir = cases.path().to_str().expect("UTF-8");
    let program = ["python3", &fixture("h2_from_zero.py")];
    let out = grade(&["--cases", dir, "--format", "exercism"], &program);
    let results = json(&out);
    let code = results["tests"][0]["test_code"]
        .as_str()
        .expect("test_code");
    assert!(code.starts_with("# keys are shown in quotes"), "{code}");
    for line in [
        r#"ADD "tab\there""#,
        r#"CHECK "tab\\there""#,
        r#"CHECK "sheep\t""#,
    ] {
        assert!(code.contains(line), "`{line}` in {code}");
    }
    let out = grade(&["--cases", dir, "--format", "junit"], &program);
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let doc = roxmltree::Document::parse(&text).expect("XML");
    let body = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .and_then(|n| n.text())
        .unwrap_or_else(|| panic!("a failure: {text}"));
    assert!(body.contains("keys are shown in quotes"), "{body}");
    for line in [
        r#"ADD "tab\there""#,
        r#"CHECK "tab\\there""#,
        r#"CHECK "sheep\t""#,
    ] {
        assert!(body.contains(line), "`{line}` in {body}");
    }
}

#[test]
fn the_documented_case_settings_are_the_ones_read() {
    let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args(["grade", "--help"])
        .output()
        .expect("the tutor runs");
    let help = String::from_utf8_lossy(&out.stdout);
    let block = |after: &str| -> String {
        help.split(after)
            .nth(1)
            .unwrap_or_else(|| panic!("`{after}` in the help: {help}"))
            .lines()
            .skip_while(|l| !l.starts_with("    "))
            .take_while(|l| l.starts_with("    "))
            .map(|l| format!("{}\n", &l[4..]))
            .collect()
    };
    let toml = block("beside NAME.in");
    let header = block("before its first command");
    assert!(toml.contains("weight = 3"), "{help}");
    let cases = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(cases.path().join("a.in"), "ADD fig\nBITS\n").expect("a case");
    std::fs::write(cases.path().join("a.toml"), &toml).expect("its settings");
    // The README's example too.
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("the README");
    let example: String = readme
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a TOML example in the README")
        .lines()
        .map(|l| format!("{}\n", l.trim()))
        .collect();
    std::fs::write(cases.path().join("c.in"), "ADD fig\nBITS\n").expect("a case");
    std::fs::write(cases.path().join("c.toml"), &example).expect("its settings");
    std::fs::write(
        cases.path().join("b.in"),
        format!("{header}ADD fig\nBITS\n"),
    )
    .expect("a case");
    let out = grade(
        &["--cases", cases.path().to_str().expect("UTF-8"), "--list"],
        &[],
    );
    let list = crate::flat(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{list} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["a", "b"] {
        assert!(
            list.contains(&format!(
                "{name} anagrams: the same h1, told apart by h2 (3 points)"
            )),
            "{list}"
        );
    }
    assert!(
        list.contains("c anagrams: the same h1, told apart by h2 (3 points, hidden)"),
        "the README's example: {list}"
    );
    // A description's line break is shown escaped, in --show as in --list.
    std::fs::write(
        cases.path().join("a.toml"),
        "description = \"two\\nlines\"\n",
    )
    .expect("its settings");
    let out = grade(
        &[
            "--cases",
            cases.path().to_str().expect("UTF-8"),
            "--show",
            "a",
        ],
        &[],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .next()
            .is_some_and(|l| l.ends_with(r"two\nlines")),
        "{text}"
    );
}

#[test]
fn a_class_in_c_is_built_as_the_help_shows() {
    let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args(["grade", "--help"])
        .output()
        .expect("the tutor runs");
    let help = String::from_utf8_lossy(&out.stdout);
    let flags = help
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("--build 'cc"))
        .unwrap_or_else(|| panic!("a C build in the help: {help}"))
        .to_string();
    let class = tempfile::tempdir().expect("a temporary folder");
    for (student, source) in [
        (
            "ann",
            Some(std::fs::read_to_string(fixture("correct.c")).expect("C")),
        ),
        (
            "bob",
            Some("int main(void) { return undeclared; }\n".to_string()),
        ),
        ("cat", None),
    ] {
        let folder = class.path().join(student);
        std::fs::create_dir(&folder).expect("a folder");
        if let Some(source) = source {
            std::fs::write(folder.join("bloom.c"), source).expect("written");
        }
    }
    let csv = class.path().join("grades.csv");
    let line = format!(
        "{} grade --submissions subs --case anagrams --csv {} {flags}",
        env!("CARGO_BIN_EXE_bloom-tutor"),
        csv.display()
    );
    std::fs::create_dir(class.path().join("subs")).expect("subs");
    for student in ["ann", "bob", "cat"] {
        std::fs::rename(
            class.path().join(student),
            class.path().join("subs").join(student),
        )
        .expect("moved");
    }
    let out = Command::new("sh")
        .args(["-c", &line])
        .current_dir(class.path())
        .output()
        .expect("sh runs");
    let summary = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{line}: {summary} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&csv).expect("the CSV");
    let rows = csv_rows(&text);
    let row = |name: &str| rows.iter().find(|r| r[0] == name).expect("a row").clone();
    assert_eq!(row("ann")[5], "pass", "{text}");
    assert_eq!(row("bob")[5], "not-graded", "{text}");
    assert!(
        row("bob")[7].contains("the build `cc -O2 -o subs/bob/bloom subs/bob/bloom.c` failed")
            && row("bob")[7].contains("undeclared"),
        "the compiler's words: {text}"
    );
    assert_eq!(row("cat")[5], "not-graded", "{text}");
    assert!(
        crate::flat(&summary).contains("not graded, 2 students: bob: the build"),
        "{summary}"
    );
}

#[test]
fn a_class_in_rust_is_built_as_the_help_shows() {
    // Where Rust is not installed through rustup, the help's command cannot be tried.
    let rustup = Command::new("rustup").args(["which", "rustc"]).output();
    if !rustup.is_ok_and(|o| o.status.success()) {
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args(["grade", "--help"])
        .output()
        .expect("the tutor runs");
    let help = String::from_utf8_lossy(&out.stdout);
    let flags = help
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("--build \"$(rustup which rustc)"))
        .unwrap_or_else(|| panic!("a Rust build in the help: {help}"))
        .to_string();
    let class = tempfile::tempdir().expect("a temporary folder");
    let folder = class.path().join("subs").join("ann");
    std::fs::create_dir_all(&folder).expect("a folder");
    let source: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "fixtures",
        "exercise",
        "bytesum.rs",
    ]
    .iter()
    .collect();
    std::fs::copy(source, folder.join("bloom.rs")).expect("copied");
    let line = format!(
        "{} grade --submissions subs --case anagrams --timeout 60 {flags}",
        env!("CARGO_BIN_EXE_bloom-tutor")
    );
    let out = Command::new("sh")
        .args(["-c", &line])
        .current_dir(class.path())
        .output()
        .expect("sh runs");
    let summary = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{line}: {summary}");
    assert!(summary.contains("1 passed every case"), "{summary}");
}

/// A descriptor the grader's caller left open never reaches the program graded.
#[cfg(target_os = "linux")]
#[test]
fn descriptors_the_grader_inherited_are_closed_for_the_program() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "teacher's secret").unwrap();
    // The program fails on purpose and names the descriptors it has on stderr.
    let program = "import os,sys; sys.stderr.write('fds %s\\n' % sorted(os.listdir('/proc/self/fd'))); sys.exit(3)";
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec 7<\"$1\"; shift; exec \"$@\"")
        .arg("sh")
        .arg(&secret)
        .arg(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args(["grade", "--case", "exercise-example", "--", "python3", "-c"])
        .arg(program)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("fds ["),
        "the program's stderr is in the report: {text}"
    );
    assert!(
        !text.contains("'7'"),
        "descriptor 7 reached the program: {text}"
    );
}

// ---- When no modelled mistake fits (trial 5) ----

/// The failing cases of a JSON report, as (name, mistakes named).
fn failing(report: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    report["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["status"] != "pass")
        .map(|c| {
            (
                c["name"].as_str().unwrap_or("").to_string(),
                c["mistakes"].clone(),
            )
        })
        .collect()
}

/// The human report's summary: what follows the count of cases passed.
fn summary(text: &str) -> String {
    let (_, after) = text
        .split_once(" passed, ")
        .unwrap_or_else(|| panic!("no count: {text}"));
    crate::flat(after)
}

#[test]
fn the_fallback_names_a_key_of_the_failing_case_and_the_filter() {
    // h1 one too large: no mistake the grader knows. The first wrong answer of anagrams
    // is CHECK pots.
    let out = grade(
        &["--case", "anagrams"],
        &["python3", &fixture("h1_off_by_one.py")],
    );
    let text = summary(&String::from_utf8_lossy(&out.stdout));
    assert!(
        text.contains("no mistake the grader knows explains the failing case"),
        "{text}"
    );
    assert!(text.contains("for a key of case anagrams"), "{text}");
    assert!(
        text.contains("`echo 'EXPLAIN pots' | ")
            && text.contains(" --scheme bytesum -m 64 -k 2` shows"),
        "{text}"
    );
    // A key with a space and one with a trailing space are quoted whole.
    for (case, line) in [
        ("spaces-in-keys", "'EXPLAIN hello world'"),
        ("trailing-space-keys", "'EXPLAIN fig '"),
    ] {
        let out = grade(
            &["--case", case],
            &["python3", &fixture("h1_off_by_one.py")],
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(&format!("`echo {line} | ")), "{case}: {text}");
    }
}

#[test]
fn a_program_that_never_writes_its_answers_is_told_no_output() {
    let out = grade(
        &["--json"],
        &["python3", &fixture("exits_without_flushing.py")],
    );
    let report = json(&out);
    assert_eq!(report["mistake"], "no-output", "{report:#}");
    for (name, mistakes) in failing(&report) {
        assert_eq!(mistakes, serde_json::json!(["no-output"]), "{name}");
    }
    let out = grade(&[], &["python3", &fixture("exits_without_flushing.py")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("likely mistake [no-output]"), "{text}");
    assert!(!summary(&text).contains("EXPLAIN"), "{text}");
    // A program that writes in some cases and not in others is not told so.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let some = dir.path().join("some.py");
    std::fs::write(
        &some,
        "import sys\nif sys.stdin.read().startswith('BITS'):\n    print('NO')\n",
    )
    .unwrap();
    let report = json(&grade(&["--json"], &["python3", &some.to_string_lossy()]));
    assert!(!failing(&report).is_empty(), "{report:#}");
    for (name, mistakes) in failing(&report) {
        assert_eq!(mistakes, serde_json::json!([]), "{name}");
    }
}

#[test]
fn right_answers_and_no_end_are_told_no_stop_at_eof() {
    for (args, status) in [(vec![], "timeout"), (vec!["repeats"], "flood")] {
        let mut program = vec!["python3".to_string(), fixture("no_stop_at_eof.py")];
        program.extend(args.iter().map(|a| a.to_string()));
        let program: Vec<&str> = program.iter().map(String::as_str).collect();
        let flags = [
            "--timeout",
            "3",
            "--case",
            "exercise-example",
            "--case",
            "anagrams",
        ];
        let out = grade_within(
            &[&["--json"], &flags[..]].concat(),
            &program,
            Duration::from_secs(60),
        );
        let report = json(&out);
        for case in report["cases"].as_array().expect("cases") {
            assert_eq!(case["status"], status, "{args:?}: {case:#}");
            assert_eq!(
                case["mistakes"],
                serde_json::json!(["no-stop-at-eof"]),
                "{args:?}: {case:#}"
            );
        }
        let out = grade_within(&flags, &program, Duration::from_secs(60));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("likely mistake [no-stop-at-eof]"), "{text}");
        assert!(!text.contains("no-final-newline"), "{text}");
        assert!(!summary(&text).contains("EXPLAIN"), "{text}");
    }
}

#[test]
fn a_flood_is_told_about_the_flood_and_nothing_from_its_cut_line() {
    let out = grade(
        &["--timeout", "10", "--case", "exercise-example"],
        &["python3", &fixture("floods.py")],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("no-final-newline"), "{text}");
    let summary = summary(&text);
    assert!(
        summary.contains("your program wrote far more than its answers in 1 case"),
        "{summary}"
    );
    assert!(
        !summary.contains("no mistake the grader knows") && !summary.contains("fits only"),
        "{summary}"
    );
}

#[test]
fn programs_stopped_by_a_limit_are_told_about_the_limit() {
    for (file, words) in [
        (
            "hangs.py",
            "your program did not end in time in 1 case: look for a loop",
        ),
        (
            "burns_cpu.py",
            "your program used up its CPU time in 1 case: look for a loop",
        ),
        ("hogs_memory.py", "your program ran out of memory in 1 case"),
        (
            "writes_huge_file.py",
            "your program wrote a file past the size limit in 1 case",
        ),
    ] {
        let out = grade_within(
            &[
                "--cpu",
                "1",
                "--memory",
                "512M",
                "--file-size",
                "1M",
                "--timeout",
                if file == "hangs.py" { "1" } else { "30" },
                "--case",
                "exercise-example",
            ],
            &["python3", &fixture(file)],
            Duration::from_secs(60),
        );
        let text = summary(&String::from_utf8_lossy(&out.stdout));
        assert!(text.contains(words), "{file}: {text}");
        assert!(!text.contains("EXPLAIN"), "{file}: {text}");
    }
}

#[test]
fn the_right_lines_in_another_order_are_told_out_of_order() {
    let out = grade(&["--json"], &["python3", &fixture("out_of_order.py")]);
    let report = json(&out);
    assert_eq!(report["mistake"], "out-of-order", "{report:#}");
    let failing = failing(&report);
    assert!(failing.len() >= 10, "{report:#}");
    for (name, mistakes) in failing {
        assert_eq!(mistakes, serde_json::json!(["out-of-order"]), "{name}");
    }
}

#[test]
fn long_lines_read_in_pieces_are_told_lines_split() {
    // readline(64): only long-keys has lines longer than 64 bytes. What the program says
    // about the pieces goes to stderr, or with `stdout` among its answers.
    for arg in ["stderr", "stdout"] {
        let program = ["python3", &fixture("short_line_buffer.py"), arg];
        let report = json(&grade(&["--json"], &program));
        assert_eq!(
            failing(&report),
            [("long-keys".to_string(), serde_json::json!(["lines-split"]))],
            "{arg}: {report:#}"
        );
    }
    let out = grade(
        &["--case", "long-keys"],
        &["python3", &fixture("short_line_buffer.py")],
    );
    let text = crate::flat(&String::from_utf8_lossy(&out.stdout));
    assert!(
        text.contains("likely mistake [lines-split]: lines longer than 64 bytes seem to be split"),
        "{text}"
    );
}

#[test]
fn crashes_at_a_negative_position_are_told_truncating_mod() {
    // The trial's C program: the starter's uint64_t positions, filled with C's `%` on the
    // signed hash. A negative position becomes a huge one: SIGSEGV, and what stdout held
    // in its buffer is lost.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let exe = compile(dir.path(), "truncating_mod_segfault.c");
    let out = grade(&["--scheme", "murmur3"], &[&exe]);
    let report = String::from_utf8_lossy(&out.stdout);
    let text = crate::flat(&report);
    assert!(
        text.contains("CRASH exercise-example ended by signal 11"),
        "{text}"
    );
    assert!(
        text.contains(
            "most likely mistake: [truncating-mod], which alone explains 16 of the 16 \
             failing cases"
        ),
        "{text}"
    );
    assert!(
        report.contains("CRASH  lesson-example: the same as exercise-example ([truncating-mod])"),
        "{report}"
    );
    // The script from its first line, and the note filled to the width.
    assert!(report.contains("       1 | ADD \"dog\""), "{report}");
    assert!(
        report.contains("likely mistake [truncating-mod]: your modulo seems to keep the hash's\n"),
        "{report}"
    );
    for line in report.lines().filter(|l| !l.contains(" | ")) {
        assert!(
            line.chars().count() <= 80 || unbreakable(line),
            "a line of {} columns:\n{line}",
            line.chars().count()
        );
    }
    // A program that crashes before its first answer in every case shows nothing of how
    // far it got: it is not told truncating-mod, but that it did not run.
    let source = dir.path().join("at_once.c");
    std::fs::write(
        &source,
        "int main(void) { volatile int *p = 0; return *p; }\n",
    )
    .unwrap();
    let exe = dir.path().join("at_once");
    let cc = Command::new("cc")
        .arg("-o")
        .arg(&exe)
        .arg(&source)
        .status()
        .expect("cc runs");
    assert!(cc.success(), "at_once.c compiles");
    let out = grade(&["--scheme", "murmur3"], &[&exe.to_string_lossy()]);
    let text = crate::flat(&String::from_utf8_lossy(&out.stdout));
    assert!(!text.contains("truncating-mod"), "{text}");
    assert!(text.contains("your program did not run"), "{text}");
}
