//! Renderers: outcomes in, text out. `answers` writes the protocol's byte-exact answers,
//! `commentary` explains in words, `terminal` adds the REPL's colour and layout, `help` is
//! the help text, `words` counts nouns.

pub(crate) mod answers;
pub(crate) mod commentary;
pub(crate) mod help;
pub(crate) mod terminal;
pub(crate) mod words;
pub(crate) mod wrap;
