//! The interactive session in a real pseudo-terminal: prompt, answers, notes, Ctrl-C, Ctrl-D
//! and history. Timeouts are generous: these tests check behaviour, never speed.

use std::process::Command;

use rexpect::process::WaitStatus;
use rexpect::session::{PtySession, spawn_command};

const TIMEOUT_MS: u64 = 20_000;

/// Starts the tutor on a terminal, with its history kept under `state`.
fn start(state: &std::path::Path, args: &[&str]) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"));
    cmd.args(args)
        .env("XDG_STATE_HOME", state)
        .env("HOME", state)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut p = spawn_command(cmd, Some(TIMEOUT_MS)).expect("the tutor starts on a pty");
    p.exp_string("Ctrl-D leaves").expect("banner");
    p.exp_string("bloom> ").expect("first prompt");
    p
}

fn exit_code(p: &PtySession) -> i32 {
    match p.process().wait().expect("the tutor exits") {
        WaitStatus::Exited(_, code) => code,
        other => panic!("the tutor did not exit normally: {other:?}"),
    }
}

#[test]
fn answers_explains_and_leaves_on_ctrl_d() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path(), &[]);
    p.send_line("ADD fig").unwrap();
    p.exp_string("ADD fig: positions 54, 45; newly set bits 54, 45")
        .expect("a note after ADD");
    p.exp_string("bloom> ").unwrap();
    p.send_line("check sun").unwrap();
    p.exp_string("NO").expect("CHECK answers");
    p.exp_string("bits 22, 39 are 0, so sun was never added")
        .expect("a note says which bits are 0");
    p.exp_string("bloom> ").unwrap();
    p.send_line("BITS").unwrap();
    p.exp_string("0000000000000000000000000000000000000000000001000000001000000000")
        .expect("BITS answers");
    p.exp_string("the last ADD set 54, 45")
        .expect("BITS names the last ADD's bits");
    p.exp_string("bloom> ").unwrap();
    p.send_line("FOO").unwrap();
    p.exp_string("unknown command `FOO`")
        .expect("a bad line gets a message");
    p.exp_string("bloom> ").expect("and the session goes on");
    p.send_control('d').unwrap();
    p.exp_eof().expect("Ctrl-D ends the session");
    assert_eq!(exit_code(&p), 0, "Ctrl-D leaves with status 0");
}

#[test]
fn ctrl_c_drops_the_line_and_goes_on() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path(), &[]);
    p.send("ADD half-typed").unwrap();
    p.send_control('c').unwrap();
    p.exp_string("bloom> ")
        .expect("a fresh prompt after Ctrl-C");
    p.send_line("CHECK half-typed").unwrap();
    p.exp_string("NO").expect("the abandoned ADD did nothing");
    p.exp_string("bloom> ").unwrap();
    p.send_line("QUIT").unwrap();
    p.exp_eof().expect("QUIT ends the session");
    assert_eq!(exit_code(&p), 0);
}

#[test]
fn history_is_written_to_the_state_folder() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path(), &[]);
    p.send_line("ADD remembered").unwrap();
    p.exp_string("bloom> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 0);
    let path = state.path().join("bloom-tutor").join("history.txt");
    let history = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("no history at {}: {e}", path.display()));
    assert!(
        history.contains("ADD remembered"),
        "history was: {history:?}"
    );

    // A second session finds it: the up arrow brings the line back.
    let mut p = start(state.path(), &[]);
    p.send("\x1b[A").unwrap();
    p.flush().unwrap();
    p.send_line("").unwrap();
    p.exp_string("ADD remembered: positions")
        .expect("the recalled line runs");
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
}

#[test]
fn no_history_writes_nothing() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path(), &["--no-history"]);
    p.send_line("ADD secret").unwrap();
    p.exp_string("bloom> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
    assert!(
        !state.path().join("bloom-tutor").exists(),
        "--no-history created a history folder"
    );
}

#[test]
fn unwritable_history_warns_once_and_goes_on() {
    let state = tempfile::tempdir().unwrap();
    // A file where the folder should be: the folder cannot be made.
    std::fs::write(state.path().join("bloom-tutor"), "not a folder").unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"));
    cmd.env("XDG_STATE_HOME", state.path()).env("NO_COLOR", "1");
    let mut p = spawn_command(cmd, Some(TIMEOUT_MS)).unwrap();
    p.exp_string("warning: no history this time")
        .expect("one warning");
    p.exp_string("bloom> ").unwrap();
    p.send_line("CHECK fig").unwrap();
    p.exp_string("NO")
        .expect("the session works without history");
    p.send_control('d').unwrap();
    let rest = p.exp_eof().unwrap();
    assert!(!rest.contains("warning"), "warned again at exit: {rest:?}");
}

#[test]
fn tab_completes_command_words() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path(), &["--no-history"]);
    p.send_line("ADD fig").unwrap();
    p.exp_string("newly set").unwrap();
    p.exp_string("bloom> ").unwrap();
    // `ch` + TAB becomes `check ` (in the case typed), then the key.
    p.send("ch\t").unwrap();
    p.flush().unwrap();
    p.exp_string("check ").expect("TAB completed the word");
    p.send_line("fig").unwrap();
    p.exp_string("MAYBE").expect("the completed command ran");
    p.exp_string("CHECK fig: positions 54, 45").unwrap();
    p.exp_string("bloom> ").unwrap();
    p.send_line("HELP").unwrap();
    p.exp_string("EXPLAIN key")
        .expect("HELP lists the tutor's commands");
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
}

#[test]
fn the_lesson_runs_on_a_terminal_and_saves_progress() {
    let state = tempfile::tempdir().unwrap();
    let progress = state.path().join("lesson.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"));
    cmd.arg("lesson")
        .arg("--progress-file")
        .arg(&progress)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut p = spawn_command(cmd, Some(TIMEOUT_MS)).unwrap();
    p.exp_string("Which one: NO or MAYBE?")
        .expect("the first question");
    p.exp_string("answer> ").expect("a prompt on a terminal");
    p.send_line("maybe").unwrap();
    p.exp_string("Not quite.")
        .expect("a wrong answer gets a hint");
    p.exp_string("answer> ").unwrap();
    p.send_line("no").unwrap();
    p.exp_string("What is h1 for fig?").expect("the next step");
    p.exp_string("answer> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_string("Progress saved at step 2 of 12")
        .expect("Ctrl-D saves and leaves");
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 0);
    let saved = std::fs::read_to_string(&progress).expect("progress file written");
    assert!(saved.contains("\"step\": 1"), "{saved}");
}

#[test]
fn a_counting_filter_removes_and_counts_at_the_prompt() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path(), &["--counting", "--no-history"]);
    p.send_line("ADD fig").unwrap();
    p.exp_string("counters 54: 0 to 1, 45: 0 to 1")
        .expect("ADD names the counters it raised");
    p.exp_string("bloom> ").unwrap();
    p.send_line("REMOVE fig").unwrap();
    p.exp_string("fig was added, so its counts come out")
        .expect("REMOVE of an added key says so");
    p.exp_string("bloom> ").unwrap();
    p.send_line("REMOVE fig").unwrap();
    p.exp_string("REMOVE refused: counter 54 is 0")
        .expect("a second REMOVE is refused with the reason");
    p.exp_string("bloom> ").expect("and the session goes on");
    p.send_line("COUNTS").unwrap();
    p.exp_string("0 0 0 0").expect("COUNTS prints the counters");
    p.exp_string("bloom> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_eof().expect("Ctrl-D ends the session");
    assert_eq!(exit_code(&p), 0);
}
