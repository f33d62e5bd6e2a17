//! A lesson that quits and resumes: two runs against one progress file, each compared with a
//! golden transcript in `tests/golden/lesson_resume/`. `TRYCMD=overwrite` rewrites them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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
