//! A lesson that quits and resumes: two runs against one progress file, each compared with a
//! golden transcript in `tests/golden/lesson_resume/`. `TRYCMD=overwrite` rewrites them.
//! Then the progress file under attack: failed writes, many writers, another lesson's file,
//! FIFOs and devices, and endless answers.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// PATH with the tutor's folder first, as after `cargo install`, so the commands it prints
/// read `bloom-tutor ...`.
fn path_with_tutor() -> std::ffi::OsString {
    let exe = Path::new(env!("CARGO_BIN_EXE_bloom-tutor"));
    let mut path = vec![exe.parent().unwrap().to_path_buf()];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(path).unwrap()
}

/// `text` with every run of spaces and line ends made one space: prose is wrapped to fit
/// the screen, and a sentence may be split across lines.
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn lesson(progress: &Path, args: &[&str], stdin: &str) -> (String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .env("PATH", path_with_tutor())
        .arg("lesson")
        .args(args)
        .arg("--progress-file")
        .arg(progress)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the tutor runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[track_caller]
fn golden(name: &str, got: &str) {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "golden",
        "lesson_resume",
        name,
    ]
    .iter()
    .collect();
    if std::env::var_os("TRYCMD").is_some_and(|v| v == "overwrite") {
        std::fs::write(&path, got).unwrap();
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("no golden file {}: {e}", path.display()));
    assert!(
        got == want,
        "{name} differs from {}:\n{got}",
        path.display()
    );
}

#[test]
fn quits_and_resumes_where_it_left_off() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("basics.json");

    let (first, code) = lesson(&progress, &[], "NO\n54\nquit\n");
    assert_eq!(code, 0);
    // The progress file's folder is new each run: the transcript calls it DIR.
    let dir_name = dir.path().to_string_lossy().into_owned();
    golden("first.stdout", &first.replace(&dir_name, "DIR"));
    let saved = std::fs::read_to_string(&progress).expect("progress was saved");
    assert!(saved.contains("\"step\": 2"), "{saved}");

    let (listed, _) = lesson(&progress, &["--list"], "");
    let listed = crate::flat(&listed);
    assert!(
        listed.contains("basics") && listed.contains("at step 3 of 13"),
        "{listed}"
    );

    let answers = "45\n25 39\n22\n22 25 30 39 45 54\nNO\nMAYBE\nmiel\nno\nNO\n7\n9586\n";
    let (second, code) = lesson(&progress, &[], answers);
    assert_eq!(code, 0);
    golden("second.stdout", &second.replace(&dir_name, "DIR"));
    assert!(
        second.contains("Welcome back: going on from step 3 of 13."),
        "{second}"
    );
    assert!(
        second.contains("You answered 13 of 13 questions right at the first try."),
        "{second}"
    );

    let (third, _) = lesson(&progress, &[], "");
    assert!(third.contains("You have finished `basics`."), "{third}");
    let (restarted, _) = lesson(&progress, &["--restart"], "");
    assert!(restarted.contains("--- step 1 of 13 ---"), "{restarted}");
}

#[test]
fn unknown_lessons_are_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args(["lesson", "nope", "--progress-file"])
        .arg(dir.path().join("p.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no lesson called `nope`"), "{stderr}");
}

/// Waits for `child` at most `limit`; a child still running then is killed and the test fails.
#[track_caller]
fn wait_within(mut child: Child, limit: Duration, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The tutor run by `sh -c SCRIPT` (which ends in `exec "$0" "$@"`), with `stdin` piped in.
fn lesson_under_sh(script: &str, args: &[&std::ffi::OsStr], stdin: &str) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_bloom-tutor"))
        .arg("lesson")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    wait_within(child, Duration::from_secs(60), script)
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_failed_write_keeps_the_old_progress_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("basics.json");
    let (_, code) = lesson(&progress, &[], "NO\n54\nquit\n");
    assert_eq!(code, 0);
    let before = std::fs::read(&progress).expect("progress was saved");

    // `ulimit -f 0` makes every write to a file fail (EFBIG once SIGXFSZ is ignored), as a
    // full disk or a quota would.
    let args = [
        std::ffi::OsStr::new("--progress-file"),
        progress.as_os_str(),
    ];
    let out = lesson_under_sh(
        "trap '' XFSZ; ulimit -f 0; exec \"$0\" \"$@\"",
        &args,
        "45\nquit\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a lost save is status 1: {stdout}"
    );
    assert_eq!(
        std::fs::read(&progress).unwrap(),
        before,
        "a failed write changed the progress file"
    );
    assert!(
        !stdout.contains("Progress saved"),
        "claims saved after a failed write:\n{stdout}"
    );
    assert!(
        squash(&stdout).contains("(progress not saved: could not save lesson progress")
            && squash(&stdout).contains("Progress not saved: you were at step 4 of 13."),
        "no word of the failed save:\n{stdout}"
    );
    assert_eq!(
        files_in(dir.path()),
        ["basics.json"],
        "a temporary file was left"
    );

    // With SIGXFSZ at its default (a signal that would end the tutor mid-write), the tutor
    // catches it: the write fails, the lesson says so, the old file stays whole.
    let out = lesson_under_sh("ulimit -f 0; exec \"$0\" \"$@\"", &args, "45\nquit\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the tutor died at the write limit:\n{stdout}"
    );
    assert!(squash(&stdout).contains("Progress not saved"), "{stdout}");
    assert_eq!(
        std::fs::read(&progress).unwrap(),
        before,
        "a write cut short changed the progress file"
    );
    assert_eq!(
        files_in(dir.path()),
        ["basics.json"],
        "a temporary file was left"
    );
}

#[test]
fn a_run_left_open_does_not_undo_another_runs_progress() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("basics.json");
    let step_in_file = || {
        std::fs::read_to_string(&progress)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|j| j["step"].as_u64())
    };
    // Run A skips one question and waits at the next.
    let mut a = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args(["lesson", "basics", "--progress-file"])
        .arg(&progress)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut a_in = a.stdin.take().unwrap();
    a_in.write_all(b"skip\n").unwrap();
    let started = std::time::Instant::now();
    while step_in_file().is_none_or(|s| s < 1) {
        assert!(started.elapsed() < Duration::from_secs(30), "A never saved");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Run B, on the same file, goes further and quits.
    let (_, code) = lesson(&progress, &["basics"], &"skip\n".repeat(6));
    assert_eq!(code, 0);
    let b_step = step_in_file().unwrap();
    assert!(b_step > 2, "B saved step {b_step}");
    // A quits: it must not put the file back to its own step.
    a_in.write_all(b"quit\n").unwrap();
    drop(a_in);
    let out = wait_within(a, Duration::from_secs(30), "run A");
    let stdout = squash(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(step_in_file(), Some(b_step), "{stdout}");
    assert!(stdout.contains("saved it further along"), "{stdout}");
    assert_eq!(out.status.code(), Some(0), "{stdout}");
}

#[test]
fn many_lessons_at_once_on_one_file_never_see_a_torn_file() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("shared.json");
    let skips = "skip\n".repeat(12);
    for round in 0..3 {
        // Half start over and write at every step; half resume (reading) and quit (writing).
        let children: Vec<(usize, Child)> = (0..12)
            .map(|i| {
                let mut cmd = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"));
                cmd.arg("lesson").arg("--progress-file").arg(&progress);
                if i % 2 == 0 {
                    cmd.arg("--restart");
                }
                let mut child = cmd
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                let answers = if i % 2 == 0 { skips.as_str() } else { "quit\n" };
                // A run that fails early closes its stdin; its status below says why.
                let _ = child.stdin.take().unwrap().write_all(answers.as_bytes());
                (i, child)
            })
            .collect();
        for (i, child) in children {
            let out = wait_within(child, Duration::from_secs(60), "a concurrent lesson");
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success() && stderr.is_empty(),
                "round {round}, run {i} failed ({:?}): {stderr}",
                out.status
            );
            // A run behind another keeps the other's progress, and says so.
            assert!(
                !stdout.contains("not saved") || stdout.contains("saved it further along"),
                "round {round}, run {i} could not save:\n{stdout}"
            );
        }
        let text = std::fs::read_to_string(&progress).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("round {round}: torn progress file ({e}):\n{text}"));
        assert_eq!(json["lesson"], "basics", "{text}");
    }
    assert_eq!(
        files_in(dir.path()),
        ["shared.json"],
        "temporary files were left"
    );
}

#[test]
fn a_file_of_another_lesson_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("shared.json");
    let (done, code) = lesson(&progress, &["--restart"], &"skip\n".repeat(13));
    assert_eq!(code, 0);
    assert!(done.contains("That is the end of `basics`."), "{done}");
    let before = std::fs::read(&progress).unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args(["lesson", "sizing", "--progress-file"])
        .arg(&progress)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        !stdout.contains("finished"),
        "sizing finished by basics:\n{stdout}"
    );
    assert!(
        stderr.contains("it holds progress in lesson `basics`, not `sizing`"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(&progress).unwrap(),
        before,
        "basics' progress was changed"
    );

    let (listed, _) = lesson(&progress, &["--list"], "");
    let listed = crate::flat(&listed);
    assert!(
        listed.contains("(finished, 13 skipped)")
            && listed.contains("double-hashing filter (not started)"),
        "{listed}"
    );
}

#[test]
fn a_step_past_the_end_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("p.json");
    std::fs::write(
        &progress,
        r#"{"version":1,"lesson":"basics","step":12000,"first_try":[],"answered":[],"skipped":[],"done":false}"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args(["lesson", "--progress-file"])
        .arg(&progress)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(!stdout.contains("going on from"), "{stdout}");
    assert!(
        stderr.contains("its \"step\" is 12000, but the lesson's steps are numbered 0 to 12"),
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn fifos_and_devices_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let fifo = fifo.to_str().unwrap();
    for args in [
        &["lesson", "--progress-file", fifo][..],
        &["lesson", "--restart", "--progress-file", fifo],
        &["lesson", "--list", "--progress-file", fifo],
        &["lesson", "--progress-file", "/dev/null"],
        &["lesson", "--progress-file", "/dev/zero"],
        &["lesson", "--restart", "--progress-file", "/dev/full"],
    ] {
        let child = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = wait_within(child, Duration::from_secs(10), &args.join(" "));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if args.contains(&"--list") {
            assert!(
                stdout.contains("progress not read: not a regular file (a FIFO)"),
                "{args:?}: {stdout}"
            );
            continue;
        }
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout}");
        assert!(
            stderr.contains("not a regular file") && !stderr.contains("EOF while parsing"),
            "{args:?}: {stderr}"
        );
        assert!(
            !stdout.contains("Lesson `basics`"),
            "{args:?} began the lesson: {stdout}"
        );
    }
}

#[test]
fn endless_answers_end_the_lesson_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("p.json");
    // 512 MiB of address space: reading /dev/zero into one line would pass it in a second.
    let child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 524288; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_bloom-tutor"))
        .args(["lesson", "--restart", "--progress-file"])
        .arg(&progress)
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_within(child, Duration::from_secs(60), "lesson < /dev/zero");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        squash(&stdout)
            .contains("without a line end; that is not typed answers, so the lesson stops here.")
            && squash(&stdout).contains("Progress saved at step 1 of 13."),
        "{stdout}"
    );
}

#[test]
fn a_long_answer_is_skipped_and_the_lesson_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("p.json");
    let answers = format!("{}\nNO\nquit\n", "x".repeat(100_000));
    let (out, code) = lesson(&progress, &[], &answers);
    assert_eq!(code, 0);
    let long = format!("> {}...\n", "x".repeat(60));
    assert!(
        out.contains(&long)
            && squash(&out).contains(
                "That answer was 100000 bytes long; answers are at most 4096 bytes, so it was skipped."
            )
            && out.contains("> NO\nRight!"),
        "{out}"
    );
}

#[test]
fn skipped_questions_are_recorded_apart_from_answers() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("p.json");
    let (out, code) = lesson(&progress, &[], "skip\n54\nquit\n");
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(&progress).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        json["skipped"],
        serde_json::json!(["certain-answer"]),
        "{text}"
    );
    assert_eq!(json["answered"], serde_json::json!(["h1-fig"]), "{text}");
    assert_eq!(json["version"], 1, "{text}");

    let (out, _) = lesson(&progress, &[], &"skip\n".repeat(11));
    assert!(
        out.contains("You skipped 12 of 13 questions;")
            && out.contains("  - What is h1 for café? (skipped)"),
        "{out}"
    );
}

#[test]
fn a_command_that_would_give_the_answer_away_waits_until_the_question_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("p.json");
    // Step 2 asks h1 for fig: EXPLAIN fig and ADD fig would print it, EXPLAIN lime would not.
    let (out, code) = lesson(
        &progress,
        &[],
        "NO\nexplain fig\nADD fig\nEXPLAIN lime\n54\nquit\n",
    );
    assert_eq!(code, 0, "{out}");
    let flat = squash(&out);
    for shown in ["EXPLAIN fig", "ADD fig"] {
        assert!(
            flat.contains(&format!(
                "Not yet: {shown} would give this question's answer away."
            )),
            "{out}"
        );
    }
    assert!(
        !out.contains("ADD fig: positions 54"),
        "the withheld ADD ran: {out}"
    );
    assert!(
        out.contains("EXPLAIN lime (bytesum, m = 64 bits, k = 2)"),
        "another key's arithmetic is shown: {out}"
    );
    // Asking for what is withheld is not a wrong answer: 54 is still right at the first try.
    let text = std::fs::read_to_string(&progress).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        json["first_try"],
        serde_json::json!(["certain-answer", "h1-fig"]),
        "{text}"
    );
}

#[test]
fn clear_in_a_lesson_says_why_it_does_not_run_and_help_on_a_command_answers() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("p.json");
    let (out, code) = lesson(
        &progress,
        &[],
        "NO\nADD lime\nCLEAR\nBITS\nhelp add\nquit\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        squash(&out).contains("CLEAR does not run in a lesson: it would undo the steps so far."),
        "{out}"
    );
    // The copy of the filter still holds lime: CLEAR changed nothing.
    assert!(
        out.contains("0000000000000000000000000100000000000001000000000000000000000000"),
        "{out}"
    );
    assert!(out.contains("ADD key: set the key's bits to 1"), "{out}");
}

#[test]
fn a_yes_to_a_hints_question_is_not_taken_as_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("p.json");
    // Step 7 asks what CHECK plum answers; its hint asks whether bit 62 is set.
    let answers = "NO\n54\n45\n39 25\n22\n22 25 30 39 45 54\nhint\nyes\nNO\nquit\n";
    let (out, code) = lesson(&progress, &[], answers);
    assert_eq!(code, 0, "{out}");
    assert!(
        squash(&out).contains(
            "That answers the hint's question. Now the step's question: What does CHECK plum \
             answer: NO or MAYBE?"
        ),
        "{out}"
    );
    assert!(!out.contains("> yes\nNot quite"), "{out}");
}

#[test]
fn a_wrong_answer_before_going_back_or_leaving_is_no_first_try_later() {
    let first_try = |progress: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(progress).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        json["first_try"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    let to_plum = "NO\n54\n45\n39 25\n22\n22 25 30 39 45 54\n";
    // Wrong at the plum question, back a step, forward again, then right.
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("p.json");
    let answers = format!("{to_plum}MAYBE\nback\n22 25 30 39 45 54\nNO\nquit\n");
    let (out, code) = lesson(&progress, &[], &answers);
    assert_eq!(code, 0, "{out}");
    assert!(first_try(&progress).contains(&"lime-positions".to_string()));
    assert!(
        !first_try(&progress).contains(&"check-plum".to_string()),
        "{:?}",
        first_try(&progress)
    );
    // Wrong, then quit; resumed and right.
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("p.json");
    let (out, _) = lesson(&progress, &[], &format!("{to_plum}MAYBE\nquit\n"));
    assert!(out.contains("Progress saved at step 7"), "{out}");
    let (out, _) = lesson(&progress, &[], "NO\nquit\n");
    assert!(
        out.contains("> NO\nRight.\n"),
        "no first try after a wrong answer: {out}"
    );
    assert!(!first_try(&progress).contains(&"check-plum".to_string()));
}

#[test]
fn restart_starts_over_even_from_further_along() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("p.json");
    let (_, _) = lesson(&progress, &[], "NO\n54\nquit\n");
    let (out, code) = lesson(&progress, &["--restart"], "quit\n");
    assert_eq!(code, 0, "{out}");
    assert!(
        squash(&out).contains("Progress saved at step 1 of 13."),
        "the restarted run's progress is kept: {out}"
    );
    assert!(!out.contains("another run"), "{out}");
    let (out, _) = lesson(&progress, &[], "quit\n");
    assert!(
        !out.contains("Welcome back"),
        "resumed where --restart left: {out}"
    );
}
