//! The piped path as other programs use it: answers arrive before the next command is sent,
//! a reader that goes away ends the tutor quietly, and exit statuses say whether lines were valid.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn tutor() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bloom-tutor"))
}

#[test]
fn a_driving_program_gets_each_answer_before_the_next_command() {
    let mut child = tutor()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let wait = Duration::from_secs(20);
    for (command, want) in [
        ("ADD fig\nCHECK fig\n", "MAYBE"),
        ("CHECK plum\n", "NO"),
        (
            "BITS\n",
            "0000000000000000000000000000000000000000000001000000001000000000",
        ),
    ] {
        stdin.write_all(command.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let got = rx
            .recv_timeout(wait)
            .unwrap_or_else(|_| panic!("no answer to {command:?} while the pipe stayed open"));
        assert_eq!(got, want, "answer to {command:?}");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_reader_that_goes_away_ends_the_tutor_quietly() {
    let script: String = (0..200_000)
        .map(|i| format!("ADD k{i}\nCHECK k{i}\n"))
        .collect();
    let mut child = tutor()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The tutor may stop reading once its output is closed.
        let _ = stdin.write_all(script.as_bytes());
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first, "MAYBE\n");
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    writer.join().unwrap();
    assert_eq!(stderr, "", "no error text when the reader goes away");
    assert!(status.success(), "status {status:?}");
}

#[test]
fn refuses_impossible_filters_before_running() {
    for (args, says) in [
        (&["--scheme", "bytesum", "-k", "3"][..], "exactly 2 hashes"),
        (&["--scheme", "djb2-fnv", "-m", "1"][..], "m of at least 2"),
        (&["--scheme", "murmur3", "-m", "0"][..], "at least 1 bit"),
        (&["--scheme", "murmur3", "-k", "0"][..], "at least 1 hash"),
        (
            &["--scheme", "murmur3", "-m", "4294967297"][..],
            "too large",
        ),
        (
            &["--scheme", "sha1"][..],
            "[possible values: bytesum, djb2-fnv, murmur3]",
        ),
    ] {
        let out = tutor().args(args).stdin(Stdio::null()).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(says),
            "{args:?} should say {says:?}, said {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?} ran anyway");
        assert!(
            !stderr.contains("-- -"),
            "{args:?} suggests `--`, which makes a file name"
        );
    }
}

#[test]
fn grading_a_counting_filter_is_refused_for_what_it_is() {
    // The exercise is a plain filter: its cases could not tell a counting program apart.
    let out = tutor()
        .args(["grade", "--counting", "--", "python3", "bloom.py"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--counting is not graded"), "{stderr}");
    assert!(out.stdout.is_empty());
    let out = tutor()
        .args(["grade", "--counter-bits", "3", "--list"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--counter-bits is not graded"), "{stderr}");
}

#[test]
fn grade_help_offers_no_flag_it_refuses_and_fits_80_columns() {
    let out = tutor().args(["grade", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{help}");
    for flag in ["--counting", "--counter-bits"] {
        assert!(!help.contains(flag), "grade --help offers {flag}: {help}");
    }
    for line in help.lines() {
        assert!(line.chars().count() <= 80, "wider than 80 columns: {line}");
    }
    // The tutor's own help still offers them.
    let out = tutor().arg("--help").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("--counting"));
}

#[test]
fn experiment_writes_an_svg_chart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chart.svg");
    let out = tutor()
        .args(["experiment", "-n", "100", "-q", "500", "--svg"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&path).expect("the chart was written");
    assert!(svg.starts_with("<svg"), "{svg}");
    assert_eq!(
        svg.matches("<polyline").count(),
        4,
        "theory and three schemes"
    );
    assert!(svg.contains("murmur3 measured"));
}

/// Runs `sh -c SCRIPT` with the tutor's path in `$T`; returns (status, stdout, stderr).
fn shell(script: &str) -> (Option<i32>, String, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("T", env!("CARGO_BIN_EXE_bloom-tutor"))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_full_stderr_does_not_stop_the_answers() {
    let (code, stdout, stderr) =
        shell(r#"printf 'FOO\nADD a\nCHECK a\nBAR\nCHECK b\n' | "$T" 2>/dev/full"#);
    assert_eq!(stdout, "MAYBE\nNO\n", "every answer still comes");
    assert_eq!(
        code,
        Some(1),
        "bad lines still make the status 1; stderr: {stderr}"
    );
}

#[test]
fn a_closed_stderr_pipe_does_not_stop_the_answers() {
    let mut child = tutor()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader of stderr goes away before anything is written.
    drop(child.stderr.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"FOO\nADD a\nCHECK a\nBAR\nCHECK b\n")
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "MAYBE\nNO\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn output_that_cannot_be_written_is_an_error() {
    for (script, says) in [
        (
            r#"printf 'CHECK a\n' | "$T" >/dev/full"#,
            "could not write the answers: No space left",
        ),
        (r#""$T" --help >/dev/full"#, "could not write the help"),
        (r#""$T" --version >/dev/full"#, "could not write the help"),
        (
            r#""$T" calc -n 1000 -p 1% >/dev/full"#,
            "could not write the output: No space left",
        ),
        (
            r#""$T" grade --list >/dev/full"#,
            "could not write the output: No space left",
        ),
        (
            r#""$T" lesson --list >/dev/full"#,
            "could not write the output: No space left",
        ),
    ] {
        let (code, _, stderr) = shell(script);
        assert_eq!(code, Some(2), "{script}: {stderr}");
        assert!(
            stderr.contains(says),
            "{script} should say {says:?}, said {stderr}"
        );
    }
    let (code, stdout, _) = shell(r#"printf 'CHECK a\n' | "$T" >/dev/null; echo $?"#);
    assert_eq!(
        (code, stdout.as_str()),
        (Some(0), "0\n"),
        "> /dev/null is fine"
    );
    // Python's subprocess.DEVNULL opens /dev/null for reading and writing, as Rust's runtime
    // does in place of a closed stdout (`>&-`): the two cannot be told apart, so both run.
    let (code, stdout, _) = shell(r#"printf 'CHECK a\n' | "$T" 1<>/dev/null; echo $?"#);
    assert_eq!(
        (code, stdout.as_str()),
        (Some(0), "0\n"),
        "1<> /dev/null is fine"
    );
}

#[test]
fn memory_stays_bounded_on_an_endless_line() {
    // 256 MiB of address space is far more than the tutor needs, and far less than the
    // 200 MB line would need if it were kept (the buffer used to double until it was).
    for flags in ["", "--explain"] {
        let (code, stdout, stderr) = shell(&format!(
            r#"ulimit -v 262144; {{ head -c 200000000 /dev/zero; printf '\nADD a\nCHECK a\n'; }} | "$T" {flags}"#
        ));
        assert_eq!(code, Some(1), "{flags}: {stderr}");
        assert!(
            stderr.contains("the line is 200000000 bytes long"),
            "{flags}: the message names the length: {stderr}"
        );
        assert!(
            stderr.len() < 400,
            "{flags}: the message is bounded: {} bytes",
            stderr.len()
        );
        assert!(
            stdout.ends_with("MAYBE\n"),
            "{flags}: the script goes on: {stdout:?}"
        );
    }
}

#[test]
fn a_chart_to_a_fifo_nobody_reads_is_an_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("chart.svg");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (code, _, stderr) = shell(&format!(
        r#"timeout 60 "$T" experiment -n 10 --svg '{}'"#,
        fifo.display()
    ));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("could not write the chart"), "{stderr}");
}

#[test]
fn names_and_values_from_the_command_line_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let evil = dir.path().join("e\x1b[31mvil\nerror: forged");
    std::fs::write(&evil, "BOGUS\n").unwrap();
    for (args, says) in [
        (
            vec![evil.to_str().unwrap()],
            "e\\u{1b}[31mvil\\nerror: forged, line 1",
        ),
        (vec!["no\x1b]0;pwn\x07such"], "`no\\u{1b}]0;pwn\\u{7}such`"),
        (
            vec!["lesson", "ev\x1b[31mil"],
            "no lesson called `ev\\u{1b}[31mil`",
        ),
        (
            vec!["-m", "6\x1b]0;PWNED\x074"],
            "got `6\\u{1b}]0;PWNED\\u{7}4`",
        ),
    ] {
        let out = tutor().args(&args).stdin(Stdio::null()).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(says),
            "{args:?} should say {says:?}, said {stderr:?}"
        );
        assert!(
            !out.stderr.iter().any(|&b| b == 0x1b || b == 0x07),
            "{args:?}: raw control bytes on stderr: {stderr:?}"
        );
        assert!(
            !stderr.lines().any(|l| l.starts_with("error: forged")),
            "{args:?}: a file name forged a line: {stderr:?}"
        );
    }
}

#[test]
fn limits_on_files_and_memory_give_a_message_not_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("s.txt");
    std::fs::write(&script, "ADD fig\nCHECK fig\n").unwrap();
    let (code, _, stderr) = shell(&format!(
        r#"ulimit -f 0; "$T" '{}' > '{}'"#,
        script.display(),
        dir.path().join("out.txt").display()
    ));
    assert_eq!(code, Some(2), "a file-size limit: {stderr}");
    assert!(
        stderr.contains("could not write the answers: File too large"),
        "{stderr}"
    );
    for run in [
        r#"printf 'ADD fig\n' | "$T" -m 4294967296"#,
        r#"printf '# filter: bits=4294967296\nADD fig\n' | "$T""#,
        r#""$T" experiment -m 4294967296 -n 10"#,
    ] {
        let (code, _, stderr) = shell(&format!("ulimit -v 300000; {run}"));
        assert_eq!(code, Some(2), "{run}: {stderr}");
        assert!(
            stderr.contains(
                "could not get 536870912 bytes of memory for a filter of 4294967296 bits"
            ),
            "{run}: {stderr}"
        );
    }
}
