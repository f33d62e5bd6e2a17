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
