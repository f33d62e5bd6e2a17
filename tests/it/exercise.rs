//! The exercise's starter programs: each, with its two gaps filled by the reference in
//! `tests/fixtures/exercise/`, passes the grader (or, for the filters `grade` cannot take
//! yet, answers every case's commands as the tutor does), and the bare starter fails.
//! Needs `python3`, `cc` and `rustc`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const SCHEMES: [&str; 3] = ["bytesum", "djb2-fnv", "murmur3"];
const LANGUAGES: [(&str, &str); 3] = [("python", "py"), ("c", "c"), ("rust", "rs")];

/// The tutor, run with its own folder first on PATH, as after `cargo install`.
fn tutor(args: &[&str]) -> Command {
    let exe = Path::new(env!("CARGO_BIN_EXE_bloom-tutor"));
    let mut path = vec![exe.parent().unwrap().to_path_buf()];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .env("PATH", std::env::join_paths(path).unwrap());
    cmd
}

fn stdout(out: &Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"))
}

fn starter(scheme: &str, language: &str) -> String {
    let out = tutor(&["exercise", "--scheme", scheme, "--starter", language])
        .output()
        .unwrap();
    stdout(
        &out,
        &format!("exercise --scheme {scheme} --starter {language}"),
    )
}

fn reference(scheme: &str, ext: &str) -> (PathBuf, String) {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "fixtures",
        "exercise",
        &format!("{scheme}.{ext}"),
    ]
    .iter()
    .collect();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("no reference {}: {e}", path.display()));
    (path, text)
}

/// The program's lines outside its TODO gaps (the marker lines kept), and how many gaps.
fn outside_gaps(program: &str) -> (Vec<&str>, usize) {
    let (mut kept, mut gaps, mut inside) = (Vec::new(), 0, false);
    for line in program.lines() {
        if line.contains("---- end of TODO") {
            assert!(inside, "an end marker without a start: {line}");
            inside = false;
        }
        if !inside {
            kept.push(line);
        }
        if line.contains("---- TODO ") {
            assert!(!inside, "a gap inside a gap: {line}");
            inside = true;
            gaps += 1;
        }
    }
    assert!(!inside, "a gap without an end marker");
    (kept, gaps)
}

/// A command that runs `source` (a Python, C or Rust file), building it first in `dir`.
fn runnable(source: &Path, ext: &str, dir: &Path) -> Vec<String> {
    let exe = dir.join(format!(
        "{}-{ext}",
        source.file_stem().unwrap().to_string_lossy()
    ));
    let build = match ext {
        "py" => return vec!["python3".into(), source.to_string_lossy().into_owned()],
        "c" => Command::new("cc")
            .args(["-O2", "-o"])
            .arg(&exe)
            .arg(source)
            .output(),
        _ => Command::new("rustc")
            .args(["-O", "--edition", "2021", "-o"])
            .arg(&exe)
            .arg(source)
            .output(),
    }
    .unwrap_or_else(|e| panic!("could not run the {ext} compiler: {e}"));
    assert!(
        build.status.success(),
        "{} does not build: {}",
        source.display(),
        String::from_utf8_lossy(&build.stderr)
    );
    vec![exe.to_string_lossy().into_owned()]
}

/// Each built-in case's commands, read from `grade --show` as a learner would.
fn case_scripts() -> Vec<(String, String)> {
    let list = stdout(
        &tutor(&["grade", "--list"]).output().unwrap(),
        "grade --list",
    );
    // A wrapped description goes on under its column; a case's name starts a line.
    list.lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .map(|name| {
            let shown = stdout(
                &tutor(&["grade", "--show", name]).output().unwrap(),
                "grade --show",
            );
            let script: String = shown
                .lines()
                .skip_while(|l| !l.starts_with("script"))
                .skip(1)
                .take_while(|l| !l.is_empty())
                .map(|l| format!("{}\n", l.strip_prefix("  ").unwrap_or(l)))
                .collect();
            assert!(!script.is_empty(), "no script in `grade --show {name}`");
            (name.to_string(), script)
        })
        .collect()
}

/// What `cmd` writes on stdout with `input` on stdin.
fn output_for(mut cmd: Command, input: &str) -> String {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // A program that stops reading early makes this fail; its output says the rest.
    let _ = std::io::Write::write_all(child.stdin.as_mut().unwrap(), input.as_bytes());
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn program(argv: &[String]) -> Command {
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..]);
    cmd
}

/// The case names on which `program` answers unlike the tutor on the filter of `scheme`.
fn failing_cases(scheme: &str, program: &[String]) -> Vec<String> {
    if scheme == "bytesum" {
        let out = tutor(&["grade", "--json", "--"])
            .args(program)
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "grade --json: {e}: {}",
                String::from_utf8_lossy(&out.stdout)
            )
        });
        let failed: Vec<String> = report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["status"] != "pass")
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            out.status.code(),
            Some(if failed.is_empty() { 0 } else { 1 }),
            "grade's exit status and its report disagree"
        );
        return failed;
    }
    // `grade --scheme` is not there for every filter yet: compare with the tutor directly.
    case_scripts()
        .into_iter()
        .filter(|(_, script)| {
            let want = output_for(tutor(&["--scheme", scheme]), script);
            output_for(self::program(program), script) != want
        })
        .map(|(name, _)| name)
        .collect()
}

#[test]
fn each_reference_is_its_starter_with_the_gaps_filled() {
    for scheme in SCHEMES {
        for (language, ext) in LANGUAGES {
            let bare = starter(scheme, language);
            let (path, filled) = reference(scheme, ext);
            let (bare_lines, gaps) = outside_gaps(&bare);
            assert_eq!(gaps, 2, "{scheme} {language}: the starter has two gaps");
            let (filled_lines, _) = outside_gaps(&filled);
            assert_eq!(
                bare_lines,
                filled_lines,
                "{} differs from the starter outside its gaps",
                path.display()
            );
        }
    }
}

#[test]
fn filled_starters_pass_and_bare_starters_fail() {
    let dir = tempfile::tempdir().unwrap();
    for scheme in SCHEMES {
        for (language, ext) in LANGUAGES {
            let (path, _) = reference(scheme, ext);
            let filled = runnable(&path, ext, dir.path());
            let failed = failing_cases(scheme, &filled);
            assert!(failed.is_empty(), "{} fails {failed:?}", path.display());

            let bare_path = dir.path().join(format!("bare-{scheme}.{ext}"));
            std::fs::write(&bare_path, starter(scheme, language)).unwrap();
            let bare = runnable(&bare_path, ext, dir.path());
            let failed = failing_cases(scheme, &bare);
            assert!(
                failed.len() >= 10,
                "the bare {scheme} {language} starter fails only {failed:?}"
            );
        }
    }
}

#[test]
fn every_starter_fits_80_columns() {
    for scheme in SCHEMES {
        for (language, _) in LANGUAGES {
            for line in starter(scheme, language).lines() {
                assert!(
                    line.chars().count() <= 80,
                    "{scheme} {language}: {} columns: {line}",
                    line.chars().count()
                );
            }
        }
    }
}
