//! The script layer: one line in, one command (or a typed error) out; the reader that finds
//! lines in a byte stream; and the session that runs commands into outcomes. It knows no
//! text: `render` turns outcomes into words, and `piped` ties the two together for scripts.

pub mod command;
pub mod directive;
pub mod reader;
pub(crate) mod saved_file;
pub(crate) mod session;
