//! The interactive session: line editing, history, completion, hints and short notes.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::PathBuf;

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::{Hint, Hinter};
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor, Helper};

use crate::cli::Cli;
use crate::engine::scheme::FilterSpec;
use crate::render::terminal::{self, Style};
use crate::script::command::{Command, Takes, Verb};
use crate::script::session::{Outcome, TracedSession};

const PROMPT: &str = "bloom> ";

/// How the interactive session looks and where it keeps history.
#[derive(Debug, Clone)]
pub struct Options {
    /// The history file, or `None` for no history.
    pub history: Option<PathBuf>,
    /// Whether to colour output (a terminal, and `NO_COLOR` unset or empty).
    pub colour: bool,
    /// A saved filter to start from (`--load FILE`).
    pub load: Option<PathBuf>,
}

impl Options {
    /// Options from the command line and the environment.
    pub fn from_cli(cli: &Cli) -> Options {
        Options {
            history: if cli.no_history { None } else { history_path() },
            colour: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            load: cli.load.clone(),
        }
    }
}

/// The history file: `bloom-tutor/history.txt` in the platform's state folder
/// (`$XDG_STATE_HOME`, else `~/.local/state` on Linux), or its data folder elsewhere.
pub fn history_path() -> Option<PathBuf> {
    let dir = dirs::state_dir().or_else(dirs::data_dir)?;
    Some(dir.join("bloom-tutor").join("history.txt"))
}

/// Runs the interactive session until QUIT or Ctrl-D.
pub fn run(spec: FilterSpec, options: &Options) -> anyhow::Result<()> {
    let style = Style { on: options.colour };
    let mut session = TracedSession::new(spec);
    let loaded = match &options.load {
        Some(path) => Some(
            *session
                .load_path(path)
                .map_err(|e| anyhow::anyhow!("could not load `{}`: {e}", path.display()))?,
        ),
        None => None,
    };
    let config = Config::builder()
        .auto_add_history(false)
        .history_ignore_space(true)
        .history_ignore_dups(true)?
        .max_history_size(1000)?
        .completion_type(CompletionType::List)
        .build();
    let mut editor: Editor<TutorHelper, DefaultHistory> = Editor::with_config(config)?;
    editor.set_helper(Some(TutorHelper { style }));
    let mut stdout = io::stdout();
    let mut stderr = io::stderr();

    let history = options.history.as_ref().and_then(|path| {
        let ready = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| match editor.load_history(path) {
                Ok(()) => Ok(()),
                Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::NotFound => Ok(()),
                Err(e) => Err(io::Error::other(e)),
            });
        match ready {
            Ok(()) => Some(path.clone()),
            Err(e) => {
                let _ = writeln!(
                    stderr,
                    "warning: no history this time: could not use `{}`: {e}",
                    path.display()
                );
                None
            }
        }
    });

    match (loaded, spec.counter_bits()) {
        (Some(report), _) => writeln!(
            stdout,
            "bloom-tutor: a Bloom filter loaded from `{}`: {}, {} bits set.\n\
             A saved filter holds no keys, so the tutor does not know which keys were added.\n\
             HELP lists every command; Ctrl-D leaves.",
            options
                .load
                .as_deref()
                .map_or(String::new(), |p| p.display().to_string()),
            report.spec,
            report.bits_set
        )?,
        (None, Some(b)) => writeln!(
            stdout,
            "bloom-tutor: a counting Bloom filter of {} counters of {b} bits with {} hashes ({}), \
             all 0.\n\
             Try `ADD fig`, `REMOVE fig` and `COUNTS`. HELP lists every command; Ctrl-D leaves.",
            spec.bits(),
            spec.hashes(),
            spec.scheme()
        )?,
        (None, None) => writeln!(
            stdout,
            "bloom-tutor: a Bloom filter of {} bits with {} hashes ({}), all bits 0.\n\
             Try `ADD fig`, then `CHECK fig` and `BITS`. HELP lists every command; Ctrl-D leaves.",
            spec.bits(),
            spec.hashes(),
            spec.scheme()
        )?,
    }
    loop {
        let line = match editor.readline(PROMPT) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            // Bytes that are not UTF-8 typed at the terminal: the line is lost, the session is not.
            Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::InvalidData => {
                writeln!(
                    stderr,
                    "{} that line was not valid UTF-8 text; to use raw bytes as keys, pipe a script in",
                    style.error("error:")
                )?;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        if !line.trim().is_empty() {
            let _ = editor.add_history_entry(line.as_str());
        }
        match Command::parse(line.as_bytes()) {
            Ok(None) => {}
            Ok(Some(cmd)) => match session.execute(&cmd) {
                Ok(Outcome::Quit) => break,
                Ok(outcome) => terminal::show(&outcome, style, &mut stdout)?,
                Err(e) => writeln!(stderr, "{} {e}", style.error("error:"))?,
            },
            Err(e) => writeln!(stderr, "{} {e}", style.error("error:"))?,
        }
        stdout.flush()?;
    }
    if let Some(path) = history
        && let Err(e) = editor.save_history(&path)
    {
        writeln!(
            stderr,
            "warning: could not save history to `{}`: {e}",
            path.display()
        )?;
    }
    Ok(())
}

/// Completion, hints and hint colour for the line editor.
struct TutorHelper {
    style: Style,
}

/// The rest of a command word and what it takes, shown after the cursor.
struct CommandHint {
    display: String,
    /// How much of `display` TAB or → accepts: the rest of the word.
    complete: usize,
}

impl Hint for CommandHint {
    fn display(&self) -> &str {
        &self.display
    }
    fn completion(&self) -> Option<&str> {
        (self.complete > 0).then(|| &self.display[..self.complete])
    }
}

/// `word` in the case the user is typing in: lowercase if `typed` has a lowercase letter.
fn in_case_of(typed: &str, word: &str) -> String {
    if typed.chars().any(|c| c.is_ascii_lowercase()) {
        word.to_ascii_lowercase()
    } else {
        word.to_string()
    }
}

impl Completer for TutorHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let before = &line[..pos];
        // The first word, or the topic after HELP.
        let (start, typed) = match before.split_once(' ') {
            None => (0, before),
            Some((first, rest))
                if Verb::from_word(first.as_bytes()) == Some(Verb::Help) && !rest.contains(' ') =>
            {
                (first.len() + 1, rest)
            }
            Some(_) => return Ok((pos, Vec::new())),
        };
        let candidates = Verb::ALL
            .iter()
            .filter(|v| v.word().len() >= typed.len())
            .filter(|v| v.word()[..typed.len()].eq_ignore_ascii_case(typed))
            .map(|v| {
                let word = in_case_of(typed, v.word());
                if start == 0 && v.takes() != Takes::Nothing {
                    word + " "
                } else {
                    word
                }
            })
            .collect();
        Ok((start, candidates))
    }
}

impl Hinter for TutorHelper {
    type Hint = CommandHint;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<CommandHint> {
        if line.is_empty() || pos < line.len() {
            return None;
        }
        let (word, rest) = match line.split_once(' ') {
            Some((w, r)) => (w, Some(r)),
            None => (line, None),
        };
        let verb = Verb::ALL.into_iter().find(|v| {
            v.word().len() >= word.len() && v.word()[..word.len()].eq_ignore_ascii_case(word)
        })?;
        let (usage, _) = crate::render::help::summary(verb);
        let args = usage.strip_prefix(verb.word()).unwrap_or("");
        match rest {
            None => {
                let tail = in_case_of(word, &verb.word()[word.len()..]);
                Some(CommandHint {
                    complete: tail.len(),
                    display: tail + args,
                })
            }
            Some("") if word.len() == verb.word().len() && !args.is_empty() => Some(CommandHint {
                display: args.trim_start().to_string(),
                complete: 0,
            }),
            Some(_) => None,
        }
    }
}

impl Highlighter for TutorHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.style.on {
            Cow::Owned(self.style.note(hint))
        } else {
            Cow::Borrowed(hint)
        }
    }
}

impl Validator for TutorHelper {}

impl Helper for TutorHelper {}
