//! Every integration test, compiled into one test binary: they run the real `bloom-tutor`
//! binary (piped, on a pseudo-terminal, as a grader) and the public library API.

mod exercise;
mod golden;
mod grade;
mod lesson;
mod pipe;
mod printed_commands;
mod properties;
mod repl;
mod saved_files;

/// Text as one line, each run of spaces and line breaks one space: for finding a sentence
/// in prose that the tutor wraps to fit the window.
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
