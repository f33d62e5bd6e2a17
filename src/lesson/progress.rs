//! Where a learner is in one lesson, kept between runs in a file that names its lesson.

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::content::Lesson;
use crate::atomic::{self, StateFileError};

/// The format this tutor writes and reads: `{"version":1,"lesson":"basics",...}`.
pub const FORMAT_VERSION: u64 = 1;

/// A progress file larger than this (in bytes) is refused unread; a real one is under 2 KiB.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// A learner's place in one lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The lesson's name (`basics`); a file of another lesson is never used for this one.
    pub lesson: String,
    /// The index of the step to show next, at most the lesson's number of steps.
    pub step: usize,
    /// Question ids answered right at the first try (a subset of `answered`).
    pub first_try: Vec<String>,
    /// Question ids answered right, at the first try or after retries or hints.
    pub answered: Vec<String>,
    /// Question ids whose answer was shown after `skip`, and not answered since.
    pub skipped: Vec<String>,
    /// Question ids that got a wrong answer or a hint before the learner went back or left:
    /// answered later, they are not answered at the first try.
    pub missed: Vec<String>,
    /// The last step was passed (answered or skipped: see `skipped`).
    pub done: bool,
}

/// The file as written: the version and lesson first, so a person reading it sees them.
#[derive(Serialize)]
struct Written<'a> {
    version: u64,
    lesson: &'a str,
    step: usize,
    first_try: &'a [String],
    answered: &'a [String],
    skipped: &'a [String],
    missed: &'a [String],
    done: bool,
}

/// The file as read. Files from before version 1 have no `version`, `lesson` or `skipped`.
#[derive(Deserialize)]
struct Stored {
    version: Option<u64>,
    lesson: Option<String>,
    step: usize,
    first_try: Vec<String>,
    answered: Vec<String>,
    #[serde(default)]
    skipped: Vec<String>,
    #[serde(default)]
    missed: Vec<String>,
    done: bool,
}

/// Why a progress file was not used for a lesson. `Display` says what to do about it.
#[derive(Debug)]
pub enum LoadError {
    /// Not a regular file, too large, or unreadable.
    File(StateFileError),
    /// Not JSON in the shape of a progress file.
    NotProgress(serde_json::Error),
    /// A format version this tutor does not know (a newer tutor wrote it).
    Version(u64),
    /// The file belongs to another lesson.
    OtherLesson { found: String, wanted: String },
    /// A file from before version 1 whose name does not say its lesson.
    Unnamed,
    /// The step is past the lesson's end.
    StepPastEnd { step: usize, steps: usize },
    /// `--restart` was asked to replace a file that is not lesson progress.
    NotRestartable(serde_json::Error),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::File(e) => write!(f, "{e}"),
            LoadError::NotProgress(e) => {
                write!(
                    f,
                    "not a lesson progress file ({e}); give another --progress-file"
                )
            }
            LoadError::Version(v) => write!(
                f,
                "format version {v}, expected {FORMAT_VERSION} (a newer bloom-tutor wrote it?); \
                 --restart starts over"
            ),
            LoadError::OtherLesson { found, wanted } => write!(
                f,
                "it holds progress in lesson `{}`, not `{wanted}`; give each lesson its own \
                 --progress-file",
                crate::escape::escape_prefix(found.as_bytes())
            ),
            LoadError::Unnamed => write!(
                f,
                "an older bloom-tutor wrote it without naming its lesson; --restart starts over"
            ),
            LoadError::NotRestartable(e) => write!(
                f,
                "not a lesson progress file ({e}), so --restart will not replace it; remove it or \
                 give another --progress-file"
            ),
            LoadError::StepPastEnd { step, steps } => write!(
                f,
                "its \"step\" is {step}, but the lesson's steps are numbered 0 to {} in the \
                 file; --restart starts over",
                steps.saturating_sub(1)
            ),
        }
    }
}

// No `source`: `Display` already shows the inner error, and a chain would show it twice.
impl std::error::Error for LoadError {}

impl Progress {
    /// A fresh start in `lesson`.
    pub fn new(lesson: &str) -> Progress {
        Progress {
            lesson: lesson.to_string(),
            step: 0,
            first_try: Vec::new(),
            answered: Vec::new(),
            skipped: Vec::new(),
            missed: Vec::new(),
            done: false,
        }
    }

    /// `Ok` when `--restart` may write a fresh start to `path`: nothing is there, or a
    /// progress file of any lesson or version. Any other file (someone's notes given as
    /// `--progress-file` by mistake) is never replaced.
    pub fn check_restartable(path: &Path) -> Result<(), LoadError> {
        match atomic::read_regular_capped(path, MAX_FILE_BYTES).map_err(LoadError::File)? {
            None => Ok(()),
            Some(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => Ok(()),
            Some(bytes) => serde_json::from_slice::<Stored>(&bytes)
                .map(|_| ())
                .map_err(LoadError::NotRestartable),
        }
    }

    /// Reads the progress in `lesson` from `path`; `Ok(None)` when there is no file.
    ///
    /// Only a regular file of at most [`MAX_FILE_BYTES`] is read. A file that names another
    /// lesson, an unknown format version or a step past the lesson's end is refused. Question
    /// ids the lesson does not have (an older lesson's) are dropped, and so are repeats.
    ///
    /// A file from before version 1 (no `version`, no `lesson`) is used when its name is the
    /// one the default path gives this lesson (`lesson-basics.json`): each lesson had its own
    /// file there, so the name says which lesson it holds. Any other such file may have been
    /// shared by two lessons (one `--progress-file` for all made `sizing` "finished" after
    /// `basics`), so it is refused and `--restart` starts over.
    pub fn load(path: &Path, lesson: &Lesson) -> Result<Option<Progress>, LoadError> {
        let Some(bytes) =
            atomic::read_regular_capped(path, MAX_FILE_BYTES).map_err(LoadError::File)?
        else {
            return Ok(None);
        };
        let stored: Stored = serde_json::from_slice(&bytes).map_err(LoadError::NotProgress)?;
        match (stored.version, stored.lesson) {
            (Some(FORMAT_VERSION), Some(name)) if name == lesson.name => {}
            (Some(FORMAT_VERSION), Some(found)) => {
                return Err(LoadError::OtherLesson {
                    found,
                    wanted: lesson.name.to_string(),
                });
            }
            (Some(FORMAT_VERSION), None) => return Err(LoadError::Unnamed),
            (Some(v), _) => return Err(LoadError::Version(v)),
            (None, _) if path.file_name() == Some(default_file_name(lesson.name).as_ref()) => {}
            (None, _) => return Err(LoadError::Unnamed),
        }
        let steps = lesson.steps.len();
        if stored.step > steps {
            return Err(LoadError::StepPastEnd {
                step: stored.step,
                steps,
            });
        }
        let ids: Vec<&str> = lesson
            .steps
            .iter()
            .filter_map(|s| s.question.as_ref().map(|q| q.id))
            .collect();
        let known = |list: Vec<String>| -> Vec<String> {
            let mut kept: Vec<String> = Vec::new();
            for id in list {
                if ids.contains(&id.as_str()) && !kept.contains(&id) {
                    kept.push(id);
                }
            }
            kept
        };
        let answered = known(stored.answered);
        let first_try = known(stored.first_try)
            .into_iter()
            .filter(|id| answered.contains(id))
            .collect();
        let skipped = known(stored.skipped)
            .into_iter()
            .filter(|id| !answered.contains(id))
            .collect();
        let missed = known(stored.missed)
            .into_iter()
            .filter(|id| !answered.contains(id))
            .collect();
        Ok(Some(Progress {
            lesson: lesson.name.to_string(),
            step: stored.step,
            first_try,
            answered,
            skipped,
            missed,
            done: stored.done,
        }))
    }

    /// Writes progress to `path` all at once (see [`atomic::write_atomically`]), making its
    /// folder if needed. When this returns `Err`, the file is as it was.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("could not make `{}`", crate::escape::path(dir)))?;
        }
        let written = Written {
            version: FORMAT_VERSION,
            lesson: &self.lesson,
            step: self.step,
            first_try: &self.first_try,
            answered: &self.answered,
            skipped: &self.skipped,
            missed: &self.missed,
            done: self.done,
        };
        let mut text = serde_json::to_vec_pretty(&written)?;
        text.push(b'\n');
        atomic::write_atomically(path, &text).with_context(|| {
            format!(
                "could not save lesson progress to `{}`",
                crate::escape::path(path)
            )
        })
    }

    /// Records a question answered right; `first` when it was right at the first try. An
    /// answer after an earlier skip takes the question off the skipped list.
    pub fn record(&mut self, id: &str, first: bool) {
        self.skipped.retain(|s| s != id);
        let missed = self.missed.iter().any(|m| m == id);
        self.missed.retain(|m| m != id);
        if !self.answered.iter().any(|a| a == id) {
            self.answered.push(id.to_string());
            if first && !missed {
                self.first_try.push(id.to_string());
            }
        }
    }

    /// Records a wrong answer or a hint on a question not yet answered, so that answering
    /// it after going back or coming back later is no first try.
    pub fn miss(&mut self, id: &str) {
        let known = |list: &[String]| list.iter().any(|a| a == id);
        if !known(&self.answered) && !known(&self.missed) {
            self.missed.push(id.to_string());
        }
    }

    /// Records a question skipped (its answer shown), unless it was answered before.
    pub fn skip(&mut self, id: &str) {
        let known = |list: &[String]| list.iter().any(|a| a == id);
        if !known(&self.answered) && !known(&self.skipped) {
            self.skipped.push(id.to_string());
        }
    }
}

/// The default progress file for a lesson: `bloom-tutor/lesson-NAME.json` in the state folder.
pub fn default_path(lesson: &str) -> Option<PathBuf> {
    let dir = dirs::state_dir().or_else(dirs::data_dir)?;
    Some(dir.join("bloom-tutor").join(default_file_name(lesson)))
}

fn default_file_name(lesson: &str) -> String {
    format!("lesson-{lesson}.json")
}

#[cfg(test)]
mod tests {
    use super::super::content;
    use super::*;

    fn basics() -> Lesson {
        content::find("basics").unwrap()
    }

    fn load_text(name: &str, text: &str) -> Result<Option<Progress>, LoadError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        Progress::load(&path, &basics())
    }

    #[test]
    fn saves_and_loads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("p.json");
        assert_eq!(Progress::load(&path, &basics()).unwrap(), None);
        let mut p = Progress {
            step: 3,
            ..Progress::new("basics")
        };
        p.record("certain-answer", true);
        p.skip("h1-fig");
        p.record("h1-fig", false);
        p.record("certain-answer", false);
        p.skip("certain-answer");
        p.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("{\n  \"version\": 1,\n  \"lesson\": \"basics\","),
            "{text}"
        );
        let back = Progress::load(&path, &basics()).unwrap().unwrap();
        assert_eq!(back, p);
        assert_eq!(back.first_try, ["certain-answer"]);
        assert_eq!(back.answered, ["certain-answer", "h1-fig"]);
        assert!(back.skipped.is_empty(), "answered after a skip: {back:?}");
    }

    #[test]
    fn skipped_questions_are_kept_apart() {
        let mut p = Progress::new("basics");
        p.skip("h1-fig");
        p.skip("h1-fig");
        p.record("certain-answer", true);
        assert_eq!(p.skipped, ["h1-fig"]);
        assert_eq!(p.answered, ["certain-answer"]);
    }

    #[test]
    fn refuses_another_lessons_file() {
        let text = r#"{"version":1,"lesson":"sizing","step":2,"first_try":[],"answered":[],"skipped":[],"done":true}"#;
        match load_text("p.json", text) {
            Err(e @ LoadError::OtherLesson { .. }) => {
                assert!(
                    e.to_string().contains("lesson `sizing`, not `basics`"),
                    "{e}"
                );
            }
            other => panic!("expected OtherLesson, got {other:?}"),
        }
    }

    #[test]
    fn refuses_a_step_past_the_end() {
        let text = r#"{"version":1,"lesson":"basics","step":99,"first_try":[],"answered":[],"done":false}"#;
        let steps = content::find("basics").map_or(0, |l| l.steps.len());
        match load_text("p.json", text) {
            Err(e @ LoadError::StepPastEnd { step: 99, steps: s }) if s == steps => {
                assert!(
                    e.to_string().contains(&format!(
                        "\"step\" is 99, but the lesson's steps are numbered 0 to {}",
                        steps - 1
                    )),
                    "{e}"
                );
            }
            other => panic!("expected StepPastEnd, got {other:?}"),
        }
    }

    #[test]
    fn refuses_absurd_numbers_and_unknown_versions() {
        let huge = r#"{"version":1,"lesson":"basics","step":1e300,"first_try":[],"answered":[],"done":false}"#;
        assert!(matches!(
            load_text("p.json", huge),
            Err(LoadError::NotProgress(_))
        ));
        let negative = r#"{"version":1,"lesson":"basics","step":-1,"first_try":[],"answered":[],"done":false}"#;
        assert!(matches!(
            load_text("p.json", negative),
            Err(LoadError::NotProgress(_))
        ));
        let past = r#"{"version":1,"lesson":"basics","step":18446744073709551615,"first_try":[],"answered":[],"done":false}"#;
        assert!(matches!(
            load_text("p.json", past),
            Err(LoadError::StepPastEnd { .. })
        ));
        let newer =
            r#"{"version":2,"lesson":"basics","step":0,"first_try":[],"answered":[],"done":false}"#;
        assert!(matches!(
            load_text("p.json", newer),
            Err(LoadError::Version(2))
        ));
        assert!(matches!(
            load_text("p.json", ""),
            Err(LoadError::NotProgress(_))
        ));
    }

    #[test]
    fn an_old_file_is_used_only_under_its_lessons_default_name() {
        let old = r#"{"step":2,"first_try":["certain-answer"],"answered":["certain-answer","h1-fig"],"done":false}"#;
        let p = load_text("lesson-basics.json", old).unwrap().unwrap();
        assert_eq!((p.step, p.lesson.as_str()), (2, "basics"));
        assert_eq!(p.answered, ["certain-answer", "h1-fig"]);
        assert!(matches!(
            load_text("lesson-sizing.json", old),
            Err(LoadError::Unnamed)
        ));
        assert!(matches!(
            load_text("shared.json", old),
            Err(LoadError::Unnamed)
        ));
    }

    #[test]
    fn drops_unknown_and_repeated_ids() {
        let text = r#"{"version":1,"lesson":"basics","step":1,"first_try":["nope","certain-answer"],"answered":["certain-answer","certain-answer","nope"],"skipped":["certain-answer","h1-fig"],"done":false}"#;
        let p = load_text("p.json", text).unwrap().unwrap();
        assert_eq!(p.answered, ["certain-answer"]);
        assert_eq!(p.first_try, ["certain-answer"]);
        assert_eq!(p.skipped, ["h1-fig"]);
    }
}
