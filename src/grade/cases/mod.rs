//! The cases a program is graded on: each filter's built-in ones, generated ones that
//! reproduce from their seed, and (from a folder) a teacher's own.

pub mod builtin;
pub mod random;
pub mod teacher;

use crate::engine::scheme::FilterSpec;

/// One case: a script of the exercise's commands, and what it checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// Unique in a run; built from letters, digits, `-` and `_`.
    pub name: String,
    /// What the case checks, in words.
    pub checks: String,
    /// The script, byte for byte, every line ending in a newline.
    pub script: Vec<u8>,
    /// Points for passing it: 1 for built-in and generated cases.
    pub weight: u32,
    /// A hidden case's script and answers are never shown.
    pub hidden: bool,
}

impl Case {
    /// A visible case worth one point.
    pub fn new(name: &str, checks: &str, script: Vec<u8>) -> Case {
        Case {
            name: name.to_string(),
            checks: checks.to_string(),
            script,
            weight: 1,
            hidden: false,
        }
    }
}

/// The built-in cases of the exercise on a filter of shape `spec`.
pub fn builtin(spec: FilterSpec) -> Vec<Case> {
    builtin::all(spec)
}

/// The case called `name`: a built-in one for `spec`, or a generated one (`random-SEED-N`),
/// which its name alone reproduces.
pub fn find(spec: FilterSpec, name: &str) -> Option<Case> {
    if let Some((seed, index)) = random::parse_name(name) {
        return Some(random::case(seed, index));
    }
    builtin(spec).into_iter().find(|c| c.name == name)
}
