//! Every command the tutor prints runs as printed, from a shell where the tutor is not on
//! PATH: a link to it in `bin/` below a fresh folder, run as `bin/bloom-tutor`. The lesson,
//! the exercise, the grader and HELP each print commands; each is run with `sh -c`, in that
//! folder, and must start (no "command not found") and do its job.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A folder with a link to the tutor in `bin/`, and a PATH without any bloom-tutor on it.
struct Shell {
    dir: tempfile::TempDir,
    path: std::ffi::OsString,
}

impl Shell {
    fn new() -> Shell {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("bin")).unwrap();
        // A link, not a copy: a copy is a file open for writing while other tests start
        // processes, and running it can then fail with "Text file busy".
        std::os::unix::fs::symlink(
            env!("CARGO_BIN_EXE_bloom-tutor"),
            dir.path().join("bin").join("bloom-tutor"),
        )
        .unwrap();
        let entries: Vec<PathBuf> =
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
                .filter(|d| !d.join("bloom-tutor").exists())
                .collect();
        Shell {
            path: std::env::join_paths(entries).unwrap(),
            dir,
        }
    }

    /// Runs `line` with `sh -c` in the folder, `stdin` on its stdin.
    fn run(&self, line: &str, stdin: &str) -> Output {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(line)
            .current_dir(self.dir.path())
            .env("PATH", &self.path)
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .env("HOME", self.dir.path())
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let _ = std::io::Write::write_all(child.stdin.as_mut().unwrap(), stdin.as_bytes());
        drop(child.stdin.take());
        child.wait_with_output().unwrap()
    }

    /// Runs `line` and returns its stdout; it must succeed.
    fn output(&self, line: &str, stdin: &str) -> String {
        let out = self.run(line, stdin);
        assert!(
            out.status.success(),
            "`{line}` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Runs a command the tutor printed: the shell must find everything in it, and the tutor
    /// must not fail to run (status 2). A grade that finds a failing case (status 1) ran.
    fn check_printed(&self, line: &str) {
        let out = self.run(line, "");
        let code = out.status.code();
        assert!(
            code == Some(0) || (code == Some(1) && line.contains(" grade ")),
            "the printed command `{line}` did not run: status {:?}\nstdout: {}\nstderr: {}",
            code,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

const TUTOR: &str = "bin/bloom-tutor";

/// The commands in `text`: each `quoted` one that runs the tutor, and each line indented as
/// code that runs it (with `any_code`, each code line that runs a learner's `bloom`
/// program too). Commands with a placeholder (`PROGRAM`, `CASE`) are templates.
fn printed_commands(text: &str, any_code: bool) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let code = line.strip_prefix("    ").map(str::trim_start);
        if let Some(code) = code.filter(|c| c.contains(TUTOR) || (any_code && c.contains("bloom")))
        {
            found.push(code.to_string());
        }
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 1 && part.starts_with(TUTOR) {
                found.push(part.to_string());
            }
        }
    }
    found.retain(|c| !c.contains("PROGRAM") && !c.contains("CASE"));
    found.dedup();
    found
}

fn assert_names_the_copy(text: &str, what: &str) {
    assert!(
        !text.contains("`bloom-tutor") && !text.contains(" bloom-tutor "),
        "{what} names `bloom-tutor`, which is not on PATH here:\n{text}"
    );
}

#[test]
fn exercise_commands_run_as_printed() {
    let shell = Shell::new();
    let text = shell.output(&format!("{TUTOR} exercise"), "");
    assert_names_the_copy(&text, "exercise");
    let commands = printed_commands(&text, true);
    assert!(commands.len() >= 10, "too few commands found: {commands:?}");
    // The starters first: the commands that try and grade a program need one.
    let (starters, rest): (Vec<_>, Vec<_>) = commands.iter().partition(|c| c.contains("--starter"));
    for line in starters.iter().chain(&rest) {
        shell.check_printed(line);
    }
    for file in [
        "bloom.py",
        "bloom.c",
        "bloom.rs",
        "bloom",
        "bloom_example.txt",
    ] {
        assert!(shell.dir.path().join(file).exists(), "no {file} was made");
    }
    // The grader's report names a command for each failing case.
    let report = shell.run(&format!("{TUTOR} grade -- python3 bloom.py"), "");
    let report = String::from_utf8_lossy(&report.stdout).into_owned();
    assert_names_the_copy(&report, "grade");
    let reproduce: Vec<&str> = report
        .lines()
        .filter_map(|l| l.trim().strip_prefix("reproduce: "))
        .collect();
    assert!(!reproduce.is_empty(), "no reproduce line in:\n{report}");
    for line in reproduce {
        shell.check_printed(line);
    }
}

#[test]
fn lesson_commands_keep_the_progress_file_and_run_as_printed() {
    let shell = Shell::new();
    let quit = shell.output(
        &format!("{TUTOR} lesson --progress-file 'my progress.json'"),
        "NO\nquit\n",
    );
    assert_names_the_copy(&quit, "lesson");
    let commands = printed_commands(&quit, false);
    assert_eq!(
        commands,
        [format!(
            "{TUTOR} lesson basics --progress-file 'my progress.json'"
        )],
        "{quit}"
    );
    let resumed = shell.output(&commands[0], &"skip\n".repeat(40));
    assert!(resumed.contains("Welcome back"), "{resumed}");
    let ended = printed_commands(&resumed, false);
    assert!(
        ended.iter().any(|c| c.contains(" exercise"))
            && ended.iter().any(|c| c.contains("--restart")),
        "{resumed}"
    );
    for line in &ended {
        shell.check_printed(line);
    }
}

#[test]
fn help_commands_run_as_printed() {
    let shell = Shell::new();
    let help = shell.output(TUTOR, "HELP\n");
    assert_names_the_copy(&help, "HELP");
    let commands = printed_commands(&help, false);
    assert!(commands.len() >= 2, "{help}");
    for line in &commands {
        shell.check_printed(line);
    }
    let usage = shell.run(&format!("{TUTOR} --no-such-flag"), "");
    let usage = String::from_utf8_lossy(&usage.stderr).into_owned();
    assert!(usage.contains(&format!("Usage: {TUTOR} ")), "{usage}");
}

#[test]
fn on_path_the_tutor_is_its_own_name() {
    let shell = Shell::new();
    let mut path = vec![shell.dir.path().join("bin")];
    path.extend(std::env::split_paths(&shell.path));
    let out = Command::new(shell.dir.path().join("bin").join("bloom-tutor"))
        .arg("exercise")
        .env("PATH", std::env::join_paths(path).unwrap())
        .current_dir(Path::new("/"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("    bloom-tutor grade -- python3 bloom.py"),
        "{text}"
    );
}

#[test]
fn grade_commands_keep_the_teachers_cases_and_the_filter() {
    let shell = Shell::new();
    let cases = shell.dir.path().join("my cases");
    std::fs::create_dir(&cases).unwrap();
    let script = "ADD fig\nCHECK gif\nADD stop\nCHECK pots\nBITS\n";
    std::fs::write(cases.join("fruit-weighted.in"), script).unwrap();
    std::fs::write(cases.join("fruit-weighted.toml"), "weight = 3\n").unwrap();
    let flags = "--cases 'my cases' --scheme djb2-fnv -m 32";
    let kept = |command: &str| {
        ["--cases 'my cases'", "--scheme djb2-fnv", "-m 32"]
            .iter()
            .all(|f| command.contains(f))
    };
    // --show's command that saves the script.
    let shown = shell.output(&format!("{TUTOR} grade {flags} --show fruit-weighted"), "");
    assert_names_the_copy(&shown, "grade --show");
    let commands = printed_commands(&shown, false);
    assert_eq!(commands.len(), 1, "one command to save the script: {shown}");
    assert!(
        kept(&commands[0]),
        "the command keeps the flags that chose the case: {shown}"
    );
    shell.check_printed(&commands[0]);
    let saved = std::fs::read(shell.dir.path().join("fruit-weighted.in")).unwrap();
    assert_eq!(saved, script.as_bytes(), "the saved script is the case's");
    // The command a wrong name points to.
    let out = shell.run(&format!("{TUTOR} grade {flags} --show nope"), "");
    let error = String::from_utf8_lossy(&out.stderr).into_owned();
    let commands = printed_commands(&error, false);
    assert_eq!(commands.len(), 1, "{error}");
    let listed = shell.output(&commands[0], "");
    assert!(
        listed.contains("fruit-weighted"),
        "it lists the teacher's cases: {listed}"
    );
    // The example a grade without a program gives.
    let fixture = format!(
        "{}/tests/fixtures/learners/h2_from_zero.py",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::copy(&fixture, shell.dir.path().join("bloom.py")).unwrap();
    let out = shell.run(&format!("{TUTOR} grade {flags}"), "");
    let error = String::from_utf8_lossy(&out.stderr).into_owned();
    let commands = printed_commands(&error, false);
    assert_eq!(
        commands.len(),
        1,
        "one example besides the template: {error}"
    );
    assert!(kept(&commands[0]), "{error}");
    shell.check_printed(&commands[0]);
    // A failing run's commands that reproduce each case.
    let out = shell.run(&format!("{TUTOR} grade {flags} -- python3 '{fixture}'"), "");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    let reproduce: Vec<String> = report
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with("reproduce:"))
        .filter_map(|l| {
            l.strip_prefix("reproduce:")
                .map(|c| c.trim().to_string())
                .or_else(|| l.starts_with(TUTOR).then(|| l.to_string()))
        })
        .filter(|c| !c.is_empty())
        .collect();
    assert!(!reproduce.is_empty(), "no reproduce line in:\n{report}");
    for line in &reproduce {
        assert!(kept(line), "{line}");
        shell.check_printed(line);
    }
}

#[test]
fn the_graders_fallback_command_runs_as_printed_and_explains_the_key() {
    // A mistake the grader has no model of: the report shows how to see the tutor's
    // positions for a key of the failing case, on the filter graded.
    let shell = Shell::new();
    let fixture: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "fixtures",
        "learners",
        "h1_off_by_one.py",
    ]
    .iter()
    .collect();
    let report = shell.run(
        &format!(
            "{TUTOR} grade --case anagrams -- python3 '{}'",
            fixture.display()
        ),
        "",
    );
    let report = crate::flat(&String::from_utf8_lossy(&report.stdout));
    let command = report
        .split('`')
        .find(|part| part.starts_with("echo ") && part.contains(TUTOR))
        .unwrap_or_else(|| panic!("no EXPLAIN command in: {report}"));
    let explained = shell.output(command, "");
    assert!(
        explained.starts_with("# EXPLAIN pots (bytesum, m = 64 bits, k = 2)"),
        "`{command}` gave: {explained}"
    );
}
