//! A lesson that quits and resumes: two runs against one progress file, each compared with a
//! golden transcript in `tests/golden/lesson_resume/`. `TRYCMD=overwrite` rewrites them.
//! Then the progress file under attack: failed writes, many writers, another lesson's file,
//! FIFOs and devices, and endless answers.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn lesson(progress: &Path, args: &[&str], stdin: &str) -> (String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
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
    golden("first.stdout", &first);
    let saved = std::fs::read_to_string(&progress).expect("progress was saved");
    assert!(saved.contains("\"step\": 2"), "{saved}");

    let (listed, _) = lesson(&progress, &["--list"], "");
    assert!(
        listed.contains("basics") && listed.contains("at step 3 of 12"),
        "{listed}"
    );

    let answers = "45\n25 39\n22\n22 25 30 39 45 54\nNO\nMAYBE\nno\nNO\n7\n9586\n";
    let (second, code) = lesson(&progress, &[], answers);
    assert_eq!(code, 0);
    golden("second.stdout", &second);
    assert!(
        second.contains("Welcome back: going on from step 3 of 12."),
        "{second}"
    );
    assert!(
        second.contains("You answered 12 of 12 questions right at the first try."),
        "{second}"
    );

    let (third, _) = lesson(&progress, &[], "");
    assert!(third.contains("You have finished `basics`."), "{third}");
    let (restarted, _) = lesson(&progress, &["--restart"], "");
    assert!(restarted.contains("--- step 1 of 12 ---"), "{restarted}");
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
        stdout.contains("without a line end; that is not typed answers, so the lesson stops here.")
            && stdout.contains("Progress saved at step 1 of 12."),
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
            && out.contains(
                "That answer was 100000 bytes long; answers are at most 4096 bytes, so it was skipped."
            )
            && out.contains("> NO\nRight!"),
        "{out}"
    );
}
