//! Where a learner is in each lesson, kept between runs.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

/// A learner's place in one lesson.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// The index of the step to show next.
    pub step: usize,
    /// Question ids answered right at the first try.
    pub first_try: Vec<String>,
    /// Question ids answered at all (right after retries, or skipped).
    pub answered: Vec<String>,
    /// The lesson was finished.
    pub done: bool,
}

impl Progress {
    /// Reads progress from `path`; a missing file is a fresh start.
    pub fn load(path: &Path) -> anyhow::Result<Progress> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text).with_context(|| {
                format!(
                    "could not read lesson progress in `{}` (use --restart to start over)",
                    path.display()
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Progress::default()),
            Err(e) => Err(e).with_context(|| format!("could not read `{}`", path.display())),
        }
    }

    /// Writes progress to `path`, making its folder if needed.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("could not make `{}`", dir.display()))?;
        }
        let text = serde_json::to_string_pretty(self)?;
        std::fs::write(path, text)
            .with_context(|| format!("could not save lesson progress to `{}`", path.display()))
    }

    /// Records an answered question; `first` when it was right at the first try.
    pub fn record(&mut self, id: &str, first: bool) {
        if !self.answered.iter().any(|a| a == id) {
            self.answered.push(id.to_string());
            if first {
                self.first_try.push(id.to_string());
            }
        }
    }
}

/// The default progress file for a lesson: `bloom-tutor/lesson-NAME.json` in the state folder.
pub fn default_path(lesson: &str) -> Option<PathBuf> {
    let dir = dirs::state_dir().or_else(dirs::data_dir)?;
    Some(
        dir.join("bloom-tutor")
            .join(format!("lesson-{lesson}.json")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_and_loads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("p.json");
        assert_eq!(Progress::load(&path).unwrap(), Progress::default());
        let mut p = Progress {
            step: 3,
            ..Progress::default()
        };
        p.record("h1", true);
        p.record("h2", false);
        p.record("h1", false);
        p.save(&path).unwrap();
        let back = Progress::load(&path).unwrap();
        assert_eq!(back, p);
        assert_eq!(back.first_try, ["h1"]);
        assert_eq!(back.answered, ["h1", "h2"]);
    }
}
