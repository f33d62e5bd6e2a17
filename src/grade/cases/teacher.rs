//! A teacher's own cases, from a folder: `NAME.in` (the script), optionally `NAME.out` (the
//! expected answers, checked against the tutor's) and `NAME.toml` or a header of `# key:
//! value` lines at the top of `NAME.in` (description, weight in points, hidden).

use std::fmt;
use std::path::{Path, PathBuf};

use super::Case;
use crate::engine::scheme::FilterSpec;
use crate::escape;
use crate::script::command::Command;

/// The largest case file read.
const FILE_CAP: u64 = 16 << 20;

/// The most points one case may be worth.
const MAX_WEIGHT: u32 = 1000;

/// Why a folder of cases cannot be used: each names the file and what is wrong.
#[derive(Debug)]
pub enum CaseError {
    Folder(PathBuf, std::io::Error),
    Empty(PathBuf),
    Read(PathBuf, String),
    BadName(String),
    BadLine {
        file: String,
        line: usize,
        text: String,
    },
    Setting {
        file: String,
        line: usize,
        what: String,
    },
    Both(String),
    WrongOut {
        file: String,
        line: usize,
        given: String,
        tutor: String,
    },
}

fn shown(path: &Path) -> String {
    escape::escape(path.as_os_str().as_encoded_bytes())
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaseError::Folder(dir, e) => {
                write!(f, "could not read the cases in `{}`: {e}", shown(dir))
            }
            CaseError::Empty(dir) => write!(
                f,
                "no cases in `{}`, expected files NAME.in (with NAME.out and NAME.toml beside them when wanted)",
                shown(dir)
            ),
            CaseError::Read(path, e) => write!(f, "could not read `{}`: {e}", shown(path)),
            CaseError::BadName(name) => write!(
                f,
                "case `{name}` has a name reports cannot use, expected letters, digits, `-` and `_`"
            ),
            CaseError::BadLine { file, line, text } => write!(
                f,
                "{file} line {line}: `{text}` is not a command of the exercise, expected ADD key, CHECK key or BITS"
            ),
            CaseError::Setting { file, line, what } => write!(f, "{file} line {line}: {what}"),
            CaseError::Both(name) => write!(
                f,
                "case `{name}` has settings both in {name}.toml and in the header of {name}.in, expected one of them"
            ),
            CaseError::WrongOut {
                file,
                line,
                given,
                tutor,
            } => write!(
                f,
                "{file} line {line} is `{given}`, but the tutor answers `{tutor}`: fix {file}, or leave it out and the tutor's answers are used"
            ),
        }
    }
}

impl std::error::Error for CaseError {}

/// The settings of one case.
#[derive(Debug, Default)]
struct Settings {
    description: Option<String>,
    weight: Option<u32>,
    hidden: Option<bool>,
}

impl Settings {
    /// Takes `key = value` (TOML) or `key: value` (header): description, weight, hidden.
    fn set(&mut self, key: &str, value: &str, toml: bool) -> Result<(), String> {
        let value = value.trim();
        match key.trim() {
            "description" => {
                let text = if toml {
                    toml_string(value)?
                } else {
                    value.to_string()
                };
                self.description = Some(text);
            }
            "weight" => match value.parse::<u32>() {
                Ok(n @ 1..=MAX_WEIGHT) => self.weight = Some(n),
                _ => {
                    return Err(format!(
                        "weight `{value}` is not a whole number of points from 1 to {MAX_WEIGHT}"
                    ));
                }
            },
            "hidden" => match value {
                "true" => self.hidden = Some(true),
                "false" => self.hidden = Some(false),
                _ => return Err(format!("hidden `{value}` is neither true nor false")),
            },
            other => {
                return Err(format!(
                    "unknown setting `{}`, expected description, weight or hidden",
                    escape::escape(other.as_bytes())
                ));
            }
        }
        Ok(())
    }
}

/// A TOML basic string's text: `"..."` with `\"`, `\\`, `\n` and `\t`.
fn toml_string(value: &str) -> Result<String, String> {
    let inner = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| format!("expected a string in double quotes, got `{value}`"))?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            _ => {
                return Err(format!(
                    "an escape in `{value}` that TOML strings do not have here"
                ));
            }
        }
    }
    Ok(out)
}

/// Every case in `dir`, by name, with NAME.out checked against the tutor on `spec`.
pub fn load(dir: &Path, spec: FilterSpec) -> Result<Vec<Case>, CaseError> {
    let entries = std::fs::read_dir(dir).map_err(|e| CaseError::Folder(dir.to_path_buf(), e))?;
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".in").map(str::to_string))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(CaseError::Empty(dir.to_path_buf()));
    }
    names.iter().map(|name| one(dir, name, spec)).collect()
}

fn read(path: &Path) -> Result<Option<Vec<u8>>, CaseError> {
    crate::atomic::read_regular_capped(path, FILE_CAP)
        .map_err(|e| CaseError::Read(path.to_path_buf(), e.to_string()))
}

fn one(dir: &Path, name: &str, spec: FilterSpec) -> Result<Case, CaseError> {
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(CaseError::BadName(escape::escape(name.as_bytes())));
    }
    let in_file = format!("{name}.in");
    let bytes = read(&dir.join(&in_file))?.unwrap_or_default();
    let mut settings = Settings::default();
    let mut from_header = false;
    // The header: `# key: value` lines at the top, which the program never sees.
    let mut script_start = 0;
    for (i, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let Some(rest) = line.strip_prefix(b"#") else {
            break;
        };
        let text = String::from_utf8_lossy(rest);
        let text = text.trim_end_matches(['\n', '\r']);
        let (key, value) = text.split_once(':').ok_or_else(|| CaseError::Setting {
            file: in_file.clone(),
            line: i + 1,
            what: "a header line is `# key: value` (description, weight or hidden)".to_string(),
        })?;
        settings
            .set(key, value, false)
            .map_err(|what| CaseError::Setting {
                file: in_file.clone(),
                line: i + 1,
                what,
            })?;
        from_header = true;
        script_start += line.len();
    }
    let script = bytes[script_start..].to_vec();
    let header_lines = bytes[..script_start]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    let lines = script.split(|&b| b == b'\n').count();
    for (i, line) in script.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let last = i + 1 == lines;
        if last && line.is_empty() {
            break;
        }
        if !matches!(
            Command::parse(line),
            Ok(Some(Command::Add(_) | Command::Check(_) | Command::Bits))
        ) {
            return Err(CaseError::BadLine {
                file: in_file.clone(),
                line: header_lines + i + 1,
                text: escape::escape_prefix(line),
            });
        }
    }
    let toml_file = format!("{name}.toml");
    if let Some(toml) = read(&dir.join(&toml_file))? {
        if from_header {
            return Err(CaseError::Both(name.to_string()));
        }
        let text = String::from_utf8_lossy(&toml);
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let setting = line.split_once('=').ok_or_else(|| {
                "expected `key = value` (description, weight or hidden)".to_string()
            });
            setting
                .and_then(|(key, value)| settings.set(key, value, true))
                .map_err(|what| CaseError::Setting {
                    file: toml_file.clone(),
                    line: i + 1,
                    what,
                })?;
        }
    }
    let out_file = format!("{name}.out");
    if let Some(given) = read(&dir.join(&out_file))? {
        check_out(
            &out_file,
            &given,
            &crate::grade::expected_answers(spec, &script),
        )?;
    }
    Ok(Case {
        name: name.to_string(),
        checks: settings
            .description
            .unwrap_or_else(|| "a case of the teacher's".to_string()),
        script,
        weight: settings.weight.unwrap_or(1),
        hidden: settings.hidden.unwrap_or(false),
    })
}

/// `Ok` when a teacher's answers are the tutor's; otherwise the first line that differs.
fn check_out(file: &str, given: &[u8], tutor: &[u8]) -> Result<(), CaseError> {
    let Some(d) = crate::grade::verdict::first_difference(tutor, given) else {
        return Ok(());
    };
    let show = |l: Option<&[u8]>| match l {
        Some(l) => escape::escape_prefix(l.strip_suffix(b"\n").unwrap_or(l)),
        None => "(nothing: the answers end here)".to_string(),
    };
    Err(CaseError::WrongOut {
        file: file.to_string(),
        line: d.line + 1,
        given: show(d.got),
        tutor: show(d.expected),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).expect("written");
        }
        dir
    }

    #[test]
    fn cases_come_with_their_settings_from_toml_or_a_header() {
        let dir = folder(&[
            (
                "b.in",
                "# description: the header's\n# weight: 3\n# hidden: true\nADD fig\nBITS\n",
            ),
            ("a.in", "ADD fig\nCHECK fig\n"),
            (
                "a.toml",
                "description = \"with \\\"quotes\\\"\"\nweight = 2\n",
            ),
            ("a.out", "MAYBE\n"),
        ]);
        let cases = load(dir.path(), FilterSpec::lesson()).expect("valid cases");
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].name, "a");
        assert_eq!(cases[0].checks, "with \"quotes\"");
        assert_eq!((cases[0].weight, cases[0].hidden), (2, false));
        assert_eq!(cases[1].checks, "the header's");
        assert_eq!((cases[1].weight, cases[1].hidden), (3, true));
        assert_eq!(
            cases[1].script, b"ADD fig\nBITS\n",
            "the header is not sent"
        );
    }

    #[test]
    fn a_wrong_out_file_is_refused_with_its_first_wrong_line() {
        let dir = folder(&[
            ("a.in", "ADD fig\nCHECK fig\nCHECK sun\n"),
            ("a.out", "MAYBE\nMAYBE\n"),
        ]);
        let err = load(dir.path(), FilterSpec::lesson()).expect_err("a wrong .out");
        assert_eq!(
            err.to_string(),
            "a.out line 2 is `MAYBE`, but the tutor answers `NO`: fix a.out, or leave it out and the tutor's answers are used"
        );
    }

    #[test]
    fn bad_files_are_refused_by_name() {
        for (files, want) in [
            (vec![("a.in", "ADD fig\nHELP\n")], "a.in line 2: `HELP`"),
            (
                vec![("a.in", "# weight: 0\nBITS\n")],
                "a.in line 1: weight `0`",
            ),
            (
                vec![("a.in", "# colour: red\nBITS\n")],
                "unknown setting `colour`",
            ),
            (vec![("a b.in", "BITS\n")], "case `a b`"),
            (
                vec![("a.in", "# weight: 2\nBITS\n"), ("a.toml", "weight = 3\n")],
                "both in a.toml",
            ),
            (vec![("a.txt", "BITS\n")], "no cases in"),
        ] {
            let dir = folder(&files);
            let err = load(dir.path(), FilterSpec::lesson()).expect_err("refused");
            assert!(err.to_string().contains(want), "{err} should say {want}");
        }
    }
}
