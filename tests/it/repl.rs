//! The interactive session in a real pseudo-terminal: prompt, answers, notes, Ctrl-C, Ctrl-D
//! and history. Timeouts are generous: these tests check behaviour, never speed.
//!
//! Ctrl-D is sent only once the prompt is on the screen. Between prompts the line editor hands
//! the terminal back to its normal mode, where the terminal itself takes a Ctrl-D as the end of
//! input and the tutor never sees it (a slow machine showed this).

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
    p.exp_string("bits 22 and 39 are 0, so sun was never added")
        .expect("a note says which bits are 0");
    p.exp_string("bloom> ").unwrap();
    p.send_line("BITS").unwrap();
    p.exp_string("0         10        20        30        40        50        60")
        .expect("a ruler numbers every tenth bit");
    p.exp_string("0123456789012345678901234567890123456789012345678901234567890123")
        .expect("and every bit's last digit");
    p.exp_string("0000000000000000000000000000000000000000000001000000001000000000")
        .expect("BITS answers");
    p.exp_string("newly set by the last ADD: 54, 45")
        .expect("BITS names the bits the last ADD newly set");
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
    p.exp_string("bloom> ").unwrap();
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
    p.exp_string("bloom> ").unwrap();
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
    // A space typed after the completion is the one TAB already put there.
    p.send("CH\t").unwrap();
    p.flush().unwrap();
    p.exp_string("CHECK ").expect("TAB completed the word");
    p.send_line(" fig").unwrap();
    p.exp_string("MAYBE")
        .expect("`CH<TAB> fig` checks fig, not the key ` fig`");
    p.exp_string("CHECK fig: positions 54, 45").unwrap();
    p.exp_string("bloom> ").unwrap();
    // Typed by hand, two spaces still make a key that starts with a space.
    p.send_line("CHECK  fig").unwrap();
    p.exp_string("CHECK \" fig\"").expect("the key ` fig`");
    p.exp_string("bloom> ").unwrap();
    p.send_line("HELP").unwrap();
    p.exp_string("EXPLAIN key")
        .expect("HELP lists the tutor's commands");
    p.exp_string("bloom> ").unwrap();
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
    p.exp_string("Progress saved at step 2 of 13")
        .expect("Ctrl-D saves and leaves");
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 0);
    let saved = std::fs::read_to_string(&progress).expect("progress file written");
    assert!(saved.contains("\"step\": 1"), "{saved}");
}

#[test]
fn a_bracketed_paste_of_several_lines_runs_each_line() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path(), &[]);
    // What a terminal sends when the README's example is pasted, then Enter.
    p.send("\x1b[200~ADD fig\nADD lime\nADD date\nCHECK plum\nCHECK sun\n\x1b[201~")
        .unwrap();
    p.send("\r").unwrap();
    p.flush().unwrap();
    p.exp_string("ADD fig: positions 54, 45")
        .expect("first line runs");
    p.exp_string("ADD lime: positions 39, 25")
        .expect("second line runs");
    p.exp_string("ADD date: positions 30, 22")
        .expect("third line runs");
    p.exp_string("NO").expect("CHECK plum answers");
    p.exp_string("MAYBE").expect("CHECK sun answers");
    p.exp_string("a false positive").expect("and is explained");
    p.exp_string("bloom> ").unwrap();
    let history = leave_and_read_history(p, state.path());
    assert_eq!(
        history.lines().collect::<Vec<_>>(),
        ["ADD fig", "ADD lime", "ADD date", "CHECK plum", "CHECK sun"],
        "each pasted line is its own history entry"
    );
}

#[test]
fn lines_typed_ahead_of_the_prompt_are_not_lost() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path(), &[]);
    // A burst, as a fast unbracketed paste or a quick typist sends it.
    p.send("ADD a\rCHECK a\rCHECK zz\rADD key103\rCHECK key103\r")
        .unwrap();
    p.flush().unwrap();
    p.exp_string("ADD a: positions").expect("line 1");
    p.exp_string("MAYBE").expect("line 2");
    p.exp_string("NO").expect("line 3");
    p.exp_string("ADD key103: positions")
        .expect("line 4, whole");
    p.exp_string("CHECK key103: positions").expect("line 5");
    p.exp_string("bloom> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
}

#[test]
fn history_survives_a_closed_terminal_and_a_second_session() {
    let state = tempfile::tempdir().unwrap();
    let mut first = start(state.path(), &[]);
    let mut second = start(state.path(), &[]);
    first.send_line("ADD from-first").unwrap();
    first.exp_string("ADD from-first: positions").unwrap();
    second.send_line("ADD from-second").unwrap();
    second.exp_string("ADD from-second: positions").unwrap();
    second.exp_string("bloom> ").unwrap();
    // The first terminal closes: SIGHUP, no clean exit.
    first
        .process_mut()
        .signal(nix::sys::signal::Signal::SIGHUP)
        .unwrap();
    let _ = first.process().wait();
    second.send_control('d').unwrap();
    second.exp_eof().unwrap();
    let history =
        std::fs::read_to_string(state.path().join("bloom-tutor").join("history.txt")).unwrap();
    assert!(
        history.contains("ADD from-first") && history.contains("ADD from-second"),
        "both sessions' lines are kept: {history:?}"
    );
}

/// Starts the tutor on a terminal `cols` columns wide (set with `stty` before it starts).
fn start_at_width(state: &std::path::Path, cols: u16) -> PtySession {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!(
            "stty cols {cols} rows 40 && exec \"$0\" --no-history"
        ))
        .arg(env!("CARGO_BIN_EXE_bloom-tutor"))
        .env("XDG_STATE_HOME", state)
        .env("HOME", state)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut p = spawn_command(cmd, Some(TIMEOUT_MS)).expect("the tutor starts on a pty");
    p.exp_string("Ctrl-D leaves").expect("banner");
    p.exp_string("bloom> ").expect("first prompt");
    p
}

/// `text` without terminal control sequences (`ESC [ ... letter`) and carriage returns.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                // CSI: ESC [ then parameters up to a final letter.
                if chars.next() == Some('[') {
                    for d in chars.by_ref() {
                        if d.is_ascii_alphabetic() || d == '~' {
                            break;
                        }
                    }
                }
            }
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// The lines the tutor wrote after `answer` (the first line of what `command` prints), up
/// to the next prompt.
fn lines_after(p: &mut PtySession, command: &str, answer: &str) -> Vec<String> {
    p.send_line(command).unwrap();
    p.exp_string(&format!("{answer}\r\n")).expect("the answer");
    let shown = p.exp_string("bloom> ").expect("the next prompt");
    plain(&shown)
        .split('\n')
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn notes_wrap_between_words_at_the_window_width() {
    let note = "CHECK sun: positions 22, 39; bits 22 and 39 are 0, so sun was never added and \
                NO is certain";
    let words = |lines: &[String]| {
        lines
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    for cols in [50u16, 120] {
        let state = tempfile::tempdir().unwrap();
        let mut p = start_at_width(state.path(), cols);
        let note_lines = &lines_after(&mut p, "CHECK sun", "NO");
        assert_eq!(
            words(note_lines),
            note,
            "at {cols} columns the note reads {note_lines:?}"
        );
        for line in note_lines {
            assert!(
                line.chars().count() <= usize::from(cols),
                "at {cols} columns a line is longer: {line:?}"
            );
        }
        let expected_lines = if cols < 80 { 2 } else { 1 };
        assert_eq!(
            note_lines.len(),
            expected_lines,
            "at {cols} columns: {note_lines:?}"
        );
        p.send_control('d').unwrap();
        p.exp_eof().unwrap();
    }
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

/// Leaves with Ctrl-D and returns the history file under `state`.
fn leave_and_read_history(mut p: PtySession, state: &std::path::Path) -> String {
    p.send_control('d').unwrap();
    p.exp_eof().expect("Ctrl-D ends the session");
    let path = state.join("bloom-tutor").join("history.txt");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("no history at {}: {e}", path.display()))
}

/// The longest line the tutor reads (`MAX_LINE` in `src/script/reader.rs`).
const MAX_LINE: usize = 1 << 20;

#[test]
fn a_line_longer_than_a_line_may_be_is_refused_and_not_kept() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path(), &[]);
    let key = "x".repeat(MAX_LINE);
    p.send(&format!("\x1b[200~ADD {key}\x1b[201~")).unwrap();
    p.send("\r").unwrap();
    p.flush().unwrap();
    p.exp_regex(r"the\s+line\s+is\s+1048580\s+bytes\s+long,\s+more\s+than\s+the\s+1048576")
        .expect("the line is refused with its length and the limit");
    p.exp_regex(r"not\s+run\s+or\s+kept\s+in\s+history\s+\(it\s+starts\s+`ADD\s+xxxx")
        .expect("the message says what became of the line and how it starts");
    p.exp_string("bloom> ").expect("the session goes on");
    p.send_line("BITS").unwrap();
    p.exp_string(&"0".repeat(64))
        .expect("the refused ADD set no bits");
    p.exp_string("bloom> ").unwrap();
    let history = leave_and_read_history(p, state.path());
    assert_eq!(
        history, "BITS\n",
        "only the line that ran is in the history"
    );
}

#[test]
fn bad_history_lines_are_skipped_and_the_rest_recalled() {
    let state = tempfile::tempdir().unwrap();
    let dir = state.path().join("bloom-tutor");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("history.txt");
    let mut text: String = (0..1000).map(|i| format!("ADD k{i}\n")).collect();
    text.push_str("ADD safe\n");
    text.push_str(&format!("ADD {}\n", "x".repeat(MAX_LINE + 1)));
    text.push_str("ADD \x1b]0;PWNED\x07\x1b[31mred\u{202e}\n");
    std::fs::write(&path, &text).unwrap();

    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"));
    cmd.env("XDG_STATE_HOME", state.path())
        .env("HOME", state.path())
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut p = spawn_command(cmd, Some(TIMEOUT_MS)).unwrap();
    p.exp_regex(r"note:\s+skipped\s+2\s+lines\s+of\s+the\s+history")
        .expect("one note says lines were skipped");
    p.exp_string("bloom> ").unwrap();
    // Up brings back the newest entry that was kept, never the one with escape sequences.
    p.send("\x1b[A").unwrap();
    p.flush().unwrap();
    p.send_line("").unwrap();
    let shown = p
        .exp_string("ADD safe: positions")
        .expect("the newest good entry is recalled and runs");
    assert!(
        !shown.contains("PWNED"),
        "a history entry reached the terminal raw: {shown:?}"
    );
    p.exp_string("bloom> ").unwrap();
    // Up twice more: the entries before it are there too.
    p.send("\x1b[A\x1b[A").unwrap();
    p.flush().unwrap();
    p.send_line("").unwrap();
    p.exp_string("ADD k999: positions")
        .expect("older entries are kept");
    p.exp_string("bloom> ").unwrap();
    p.send_control('d').unwrap();
    let rest = p.exp_eof().unwrap();
    assert!(!rest.contains("skipped"), "noted again: {rest:?}");
    let after = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = after.lines().collect();
    for i in 0..1000 {
        assert!(
            lines.contains(&format!("ADD k{i}").as_str()),
            "entry {i} was lost from the file"
        );
    }
    assert_eq!(
        lines.last(),
        Some(&"ADD k999"),
        "this session's lines are added"
    );
}

#[test]
fn lines_with_control_characters_run_but_are_not_kept() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path(), &[]);
    // A paste with a BEL in its first line.
    p.send("\x1b[200~ADD a\x07b\nCHECK zz\n\x1b[201~").unwrap();
    p.send("\r").unwrap();
    p.flush().unwrap();
    p.exp_string("bloom> ADD a\\u{7}b")
        .expect("the pasted line is echoed escaped");
    p.exp_string("ADD \"a\\u{7}b\": positions")
        .expect("and runs");
    p.exp_string("NO").expect("the next pasted line runs");
    p.exp_string("bloom> ").unwrap();
    // Ctrl-V ESC types a raw ESC into the line.
    p.send("ADD c\x16\x1b[31md\r").unwrap();
    p.flush().unwrap();
    p.exp_string("ADD \"c\\u{1b}[31md\": positions")
        .expect("a typed ESC is shown escaped");
    p.exp_string("bloom> ").unwrap();
    let history = leave_and_read_history(p, state.path());
    assert_eq!(
        history, "CHECK zz\n",
        "lines with control characters are not kept"
    );
}

#[test]
fn ctrl_c_while_a_save_runs_lets_it_finish_and_the_session_goes_on() {
    let state = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bloom-tutor"));
    // A filter large enough that its SAVE takes a moment: 2^26 counters, a 32 MiB file.
    cmd.args(["--no-history", "--counting", "-m", "67108864"])
        .current_dir(state.path())
        .env("HOME", state.path())
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut p = spawn_command(cmd, Some(TIMEOUT_MS)).unwrap();
    p.exp_string("bloom> ").unwrap();
    p.send_line("ADD fig").unwrap();
    p.exp_string("bloom> ").unwrap();
    p.send_line("SAVE big.bf").unwrap();
    // The SAVE has started once its temporary file is there; Ctrl-C then reaches the tutor
    // as a signal (the terminal is out of raw mode while a command runs).
    let started = std::time::Instant::now();
    while !std::fs::read_dir(state.path())
        .unwrap()
        .any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".tmp"))
    {
        assert!(started.elapsed().as_secs() < 20, "the SAVE never started");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    p.process_mut()
        .signal(nix::sys::signal::Signal::SIGINT)
        .unwrap();
    p.exp_string("Ctrl-C does not stop a command that has started")
        .expect("the interrupt is noted, and the session goes on");
    p.exp_string("bloom> ").unwrap();
    p.send_line("CHECK fig").unwrap();
    p.exp_string("MAYBE").expect("the filter is still there");
    p.exp_string("bloom> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 0);
    assert_eq!(
        std::fs::metadata(state.path().join("big.bf"))
            .unwrap()
            .len(),
        44 + (1 << 25) + 4,
        "the SAVE ran to its end"
    );
}

#[test]
fn an_interrupt_signal_does_not_end_the_session() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path(), &["--no-history"]);
    p.send_line("ADD fig").unwrap();
    p.exp_string("bloom> ").unwrap();
    // A SIGINT that is not a key typed at the prompt: what Ctrl-C sends while a long
    // command (a SAVE of a large filter) runs, when the terminal is not in raw mode.
    p.process_mut()
        .signal(nix::sys::signal::Signal::SIGINT)
        .unwrap();
    p.send_line("CHECK fig").unwrap();
    let shown = p.exp_string("MAYBE").expect("the filter is still there");
    assert!(
        !shown.contains("Ctrl-C does not stop"),
        "no command was running: {shown:?}"
    );
    p.exp_string("bloom> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
    assert_eq!(exit_code(&p), 0);
}
