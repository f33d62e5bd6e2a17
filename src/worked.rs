//! The keys each filter's worked examples use, shared by the exercise that states them,
//! the lessons that work them through and the grader's cases that check them, so that
//! none of them can drift apart.

use crate::engine::scheme::Scheme;

/// The lesson that teaches each filter, as `bloom-tutor lesson NAME` names it.
pub(crate) fn lesson(scheme: Scheme) -> &'static str {
    match scheme {
        Scheme::ByteSum => "basics",
        Scheme::Djb2Fnv => "double-hashing",
        Scheme::Murmur3 => "murmur3",
    }
}

/// The worked example of each filter's exercise (`bloom-tutor exercise --example`): the
/// keys added, then the keys checked.
pub(crate) fn example(scheme: Scheme) -> (&'static [&'static str], &'static [&'static str]) {
    match scheme {
        Scheme::ByteSum => (&["fig", "lime", "date"], &["plum", "sun"]),
        Scheme::Djb2Fnv => (&["cat", "dog", "bird"], &["sheep", "cow", "fish"]),
        Scheme::Murmur3 => (&["dog", "cat", "bird"], &["cat", "cow"]),
    }
}

/// Whether the filter's lesson works through the exercise's own example (the murmur3
/// lesson works through a larger one, [`MURMUR3_ADDED`] and [`MURMUR3_OTHERS`]).
pub(crate) fn lesson_has_example(scheme: Scheme) -> bool {
    match scheme {
        Scheme::ByteSum | Scheme::Djb2Fnv => true,
        Scheme::Murmur3 => false,
    }
}

/// The exercise's example as a script: the ADDs, BITS, then the CHECKs.
pub(crate) fn example_script(scheme: Scheme) -> Vec<String> {
    let (adds, checks) = example(scheme);
    script(adds, checks)
}

/// A script that adds `adds`, prints BITS, then checks `checks`.
pub(crate) fn script(adds: &[&str], checks: &[&str]) -> Vec<String> {
    adds.iter()
        .map(|k| format!("ADD {k}"))
        .chain(["BITS".to_string()])
        .chain(checks.iter().map(|k| format!("CHECK {k}")))
        .collect()
}

/// The 100-bit murmur3 filter's example: the 19 animals added.
pub(crate) const MURMUR3_ADDED: [&str; 19] = [
    "dog",
    "cat",
    "giraffe",
    "fly",
    "mosquito",
    "horse",
    "eagle",
    "bird",
    "bison",
    "boar",
    "butterfly",
    "ant",
    "anaconda",
    "bear",
    "chicken",
    "dolphin",
    "donkey",
    "crow",
    "crocodile",
];

/// The 100-bit murmur3 filter's example: the 20 animals checked but never added (exactly
/// sheep, shark, fish and elephant are false positives).
pub(crate) const MURMUR3_OTHERS: [&str; 20] = [
    "badger", "cow", "pig", "sheep", "bee", "wolf", "fox", "whale", "shark", "fish", "turkey",
    "duck", "dove", "deer", "elephant", "frog", "falcon", "goat", "gorilla", "hawk",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::content;

    /// Every command a lesson runs on its filter, in order: each step's setup, then the
    /// commands that reveal its answer.
    fn commands(name: &str) -> Vec<String> {
        let lesson = content::find(name).unwrap_or_else(|| panic!("no lesson {name}"));
        lesson
            .steps
            .iter()
            .flat_map(|s| {
                let reveal = s.question.iter().flat_map(|q| q.reveal.iter());
                s.setup.iter().chain(reveal).cloned().collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn each_filter_has_its_lesson() {
        for scheme in Scheme::ALL {
            let lesson = content::find(lesson(scheme)).expect("the lesson exists");
            assert_eq!(lesson.spec.scheme(), scheme, "{}", lesson.name);
        }
    }

    #[test]
    fn a_lesson_said_to_work_the_exercises_example_runs_it_in_order() {
        for scheme in Scheme::ALL {
            let script = example_script(scheme);
            let run = commands(lesson(scheme));
            let found = run.windows(script.len()).any(|w| w == script.as_slice());
            assert_eq!(
                found,
                lesson_has_example(scheme),
                "{scheme}: the lesson {} runs {run:?}, the example is {script:?}",
                lesson(scheme)
            );
        }
    }

    #[test]
    fn the_murmur3_lesson_adds_the_animals() {
        let added: Vec<String> = MURMUR3_ADDED.iter().map(|k| format!("ADD {k}")).collect();
        let run = commands(lesson(Scheme::Murmur3));
        assert!(
            run.windows(added.len()).any(|w| w == added.as_slice()),
            "{run:?}"
        );
    }
}
