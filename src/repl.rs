//! The interactive session: line editing, history, completion, hints and short notes.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::{Hint, Hinter};
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{
    Cmd, CompletionType, ConditionalEventHandler, Config, Context, Editor, Event, EventContext,
    EventHandler, Helper, KeyEvent, RepeatCount,
};

use crate::cli::Cli;
use crate::engine::scheme::FilterSpec;
use crate::history::HistoryFile;
use crate::render::help::filter_name;
use crate::render::terminal::{self, Style};
use crate::render::wrap::{Width, Wrapped};
use crate::script::command::{Command, Takes, Verb};
use crate::script::reader::MAX_LINE;
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
    let style = Style {
        on: options.colour,
        ruler: None,
    };
    let mut session = TracedSession::try_new(spec)?;
    let loaded =
        match &options.load {
            Some(path) => Some(*session.load_path(path).map_err(|e| {
                anyhow::anyhow!("could not load `{}`: {e}", crate::escape::path(path))
            })?),
            None => None,
        };
    let config = Config::builder()
        .auto_add_history(false)
        .history_ignore_space(true)
        .history_ignore_dups(true)?
        .max_history_size(crate::history::MAX_ENTRIES)?
        .completion_type(CompletionType::List)
        .build();
    let mut editor: Editor<TutorHelper, DefaultHistory> = Editor::with_config(config)?;
    let completed = Completed::default();
    editor.set_helper(Some(TutorHelper {
        style,
        completed: completed.clone(),
    }));
    // TAB after `CH` gives `CHECK `; a space typed next is the one already there.
    editor.bind_sequence(
        KeyEvent::from(' '),
        EventHandler::Conditional(Box::new(SpaceAfterCompletion { completed })),
    );
    // Notes, help and messages wrap at the window's width, read again for every line.
    let mut stdout = Wrapped::new(io::stdout(), Width::Terminal);
    let mut stderr = Wrapped::new(io::stderr(), Width::Terminal);

    let mut history = options
        .history
        .as_ref()
        .and_then(|path| match HistoryFile::open(path) {
            Ok((file, entries)) => {
                for entry in &entries {
                    let _ = editor.add_history_entry(entry.as_str());
                }
                if file.skipped > 0 {
                    let _ = writeln!(stderr, "{}", skipped_note(file.skipped, path));
                }
                Some(file)
            }
            Err(e) => {
                let _ = writeln!(
                    stderr,
                    "warning: no history this time: could not use `{}`: {e}",
                    crate::escape::path(path)
                );
                None
            }
        });

    match (loaded, &options.load) {
        (Some(report), Some(path)) => {
            writeln!(
                stdout,
                "bloom-tutor: a Bloom filter loaded from `{}`: {}, {} bits set.",
                crate::escape::path(path),
                report.spec,
                report.bits_set
            )?;
            writeln!(
                stdout,
                "A saved filter holds no keys, so the tutor does not know which were added."
            )?;
            writeln!(stdout, "HELP lists every command; Ctrl-D leaves.")?;
        }
        _ => {
            for line in greeting(spec) {
                writeln!(stdout, "{line}")?;
            }
        }
    }
    stdout.flush()?;
    // While a command runs the terminal sends Ctrl-C as a signal, which would end the
    // session and lose the filter: it is noted instead, and the command runs to its end
    // (a SAVE is whole or not at all either way).
    let interrupted = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&interrupted));
    loop {
        let line = match editor.readline(PROMPT) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            // Bytes that are not UTF-8 typed at the terminal: the line is lost, the session is not.
            Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::InvalidData => {
                let _ = writeln!(
                    stderr,
                    "{} that line was not valid UTF-8 text; to use raw bytes as keys, pipe a script in",
                    style.error("error:")
                );
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        // A bracketed paste of several lines comes back as one string: each line is a
        // command of its own, run in order, each echoed before its answer.
        let lines: Vec<&str> = line.lines().collect();
        let pasted = lines.len() > 1;
        interrupted.store(false, Ordering::Relaxed);
        for line in lines {
            if line.len() > MAX_LINE {
                let _ = writeln!(stderr, "{} {}", style.error("error:"), too_long(line));
                continue;
            }
            // Not blank, and nothing a terminal would act on when the line is recalled.
            if crate::history::keeps(line) {
                let _ = editor.add_history_entry(line);
                if let Some(file) = &mut history
                    && let Err(e) = file.append(line)
                {
                    let _ = writeln!(stderr, "warning: history not saved from now on: {e}");
                    history = None;
                }
            }
            if pasted {
                let echo = format!("{PROMPT}{}", crate::escape::escaped(line.as_bytes()));
                writeln!(stdout, "{}", style.note(&echo))?;
            }
            if run_line(&mut session, line, style, &mut stdout, &mut stderr)? == Flow::Quit {
                return Ok(());
            }
        }
        if interrupted.swap(false, Ordering::Relaxed) {
            let _ = writeln!(
                stderr,
                "note: Ctrl-C does not stop a command that has started; it ran to its end"
            );
        }
        stdout.flush()?;
    }
    Ok(())
}

/// Why a line longer than [`MAX_LINE`] was not run: its length, the limit, how it starts.
fn too_long(line: &str) -> String {
    let mut cut = 24.min(line.len());
    while !line.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(
        "the line is {} bytes long, more than the {MAX_LINE} a line may have, so it was not \
         run or kept in history (it starts `{}...`)",
        line.len(),
        crate::escape::escaped(&line.as_bytes()[..cut])
    )
}

/// Says, once a session, that `n` lines of the history file at `path` were not loaded.
fn skipped_note(n: usize, path: &std::path::Path) -> String {
    format!(
        "note: skipped {} of the history in `{}`: too long, not UTF-8 text, or \
         holding control characters",
        crate::render::words::count(n, "line", "lines"),
        crate::escape::path(path)
    )
}

/// Whether the session goes on after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Runs one typed line: its answer and note to `stdout`, or its error to `stderr`.
fn run_line(
    session: &mut TracedSession,
    line: &str,
    style: Style,
    stdout: &mut impl Write,
    stderr: &mut impl Write,
) -> io::Result<Flow> {
    match Command::parse(line.as_bytes()) {
        Ok(None) => {}
        Ok(Some(cmd)) => match session.execute(&cmd) {
            Ok(Outcome::Quit) => return Ok(Flow::Quit),
            // Rulers fit the window as it is now.
            Ok(outcome) => terminal::show(&outcome, style.at_width(textwrap::termwidth()), stdout)?,
            // A person reads errors on stderr; one that cannot be written must not end the
            // session.
            Err(e) => {
                let _ = writeln!(stderr, "{} {e}", style.error("error:"));
            }
        },
        Err(e) => {
            let _ = writeln!(stderr, "{} {e}", style.error("error:"));
        }
    }
    Ok(Flow::Continue)
}

/// The first lines of a session, each under 80 columns: which filter this is, and what to
/// type first.
fn greeting(spec: FilterSpec) -> Vec<String> {
    let scheme = spec.scheme();
    // The filter the scheme is taught with, counters or not.
    let taught = FilterSpec::new(scheme, None, None).ok();
    let filter = if taught.is_some() && spec.with_counters(None).ok() == taught {
        format!(
            "{} (m = {}, k = {})",
            filter_name(scheme),
            spec.bits(),
            spec.hashes()
        )
    } else {
        format!(
            "a {scheme} filter of {} bits with k = {}",
            spec.bits(),
            spec.hashes()
        )
    };
    match spec.counter_bits() {
        Some(b) => vec![
            format!("bloom-tutor: {filter}, all 0."),
            format!("Each position is a {b}-bit counter: ADD adds 1, REMOVE takes 1 away."),
            "Try ADD fig, REMOVE fig and COUNTS. HELP lists commands; Ctrl-D leaves.".to_string(),
        ],
        None => vec![
            format!("bloom-tutor: {filter}, all bits 0."),
            "Try ADD fig, then CHECK fig and BITS. HELP lists commands; Ctrl-D leaves.".to_string(),
        ],
    }
}

/// The line as TAB completion left it, when it ended with the space after a command word:
/// a space typed right after that is dropped, so `CH<TAB> fig` and `CH<TAB>fig` both give
/// `CHECK fig` (two spaces would make the key ` fig`).
#[derive(Debug, Clone, Default)]
struct Completed(Arc<Mutex<Option<String>>>);

impl Completed {
    fn set(&self, line: Option<String>) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = line;
        }
    }

    /// Whether `line` is the one completion left (and forgets it either way).
    fn take_if(&self, line: &str) -> bool {
        self.0
            .lock()
            .ok()
            .and_then(|mut slot| slot.take())
            .is_some_and(|completed| completed == line)
    }
}

/// Drops a space typed right after the space TAB completion put there.
struct SpaceAfterCompletion {
    completed: Completed,
}

impl ConditionalEventHandler for SpaceAfterCompletion {
    fn handle(
        &self,
        _evt: &Event,
        _n: RepeatCount,
        _positive: bool,
        ctx: &EventContext,
    ) -> Option<Cmd> {
        let at_end = ctx.pos() == ctx.line().len();
        (self.completed.take_if(ctx.line()) && at_end).then_some(Cmd::Noop)
    }
}

/// Completion, hints and hint colour for the line editor.
struct TutorHelper {
    style: Style,
    /// What the last completion left, for [`SpaceAfterCompletion`].
    completed: Completed,
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
            // SAVE, LOAD, UNION and INTERSECT take a file name: complete it from the folder.
            Some((first, rest))
                if Verb::from_word(first.as_bytes()).is_some_and(|v| v.takes() == Takes::File) =>
            {
                self.completed.set(None);
                return Ok((first.len() + 1, file_candidates(rest)));
            }
            Some(_) => return Ok((pos, Vec::new())),
        };
        let candidates: Vec<String> = Verb::ALL
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
        // One candidate is inserted at once; remember the line it makes if it ends the
        // line with a space.
        self.completed.set(match candidates.as_slice() {
            [only] if only.ends_with(' ') && pos == line.len() => {
                Some(format!("{}{only}", &line[..start]))
            }
            _ => None,
        });
        Ok((start, candidates))
    }
}

/// The names in the folder `typed` points into that start as its last part does, each
/// written as `typed` writes the folder; a folder's name ends with `/`. Hidden names only when
/// asked for with a leading dot; names that are not UTF-8 or hold control characters are
/// left out (a completion must not write them to the terminal). A folder SAVE and LOAD would
/// refuse (absolute, `..`, or leading outside the current folder) gets no names. When more
/// than [`MAX_FILE_CANDIDATES`] match, the one candidate is what they all start with, so TAB
/// never completes past a name it did not show; a folder too large to read whole gets none.
fn file_candidates(typed: &str) -> Vec<String> {
    file_candidates_in(Path::new("."), typed)
}

/// [`file_candidates`], with `here` as the current folder.
fn file_candidates_in(here: &Path, typed: &str) -> Vec<String> {
    let (folder, start) = match typed.rfind('/') {
        Some(i) => (&typed[..=i], &typed[i + 1..]),
        None => ("", typed),
    };
    let named = Path::new(folder);
    let path = here.join(named);
    let inside = named.is_relative()
        && !named
            .components()
            .any(|c| c == std::path::Component::ParentDir)
        && match (std::fs::canonicalize(here), std::fs::canonicalize(&path)) {
            (Ok(here), Ok(there)) => there.starts_with(here),
            _ => false,
        };
    let Some(entries) = inside.then(|| std::fs::read_dir(&path).ok()).flatten() else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for (n, entry) in entries.enumerate() {
        if n == MAX_FOLDER_ENTRIES {
            return Vec::new();
        }
        let Ok(entry) = entry else { continue };
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let shown = name.starts_with(start)
            && (start.starts_with('.') || !name.starts_with('.'))
            && !name.chars().any(char::is_control);
        if shown {
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            names.push(format!("{folder}{name}{}", if is_dir { "/" } else { "" }));
        }
    }
    names.sort();
    if names.len() > MAX_FILE_CANDIDATES {
        let (first, last) = (&names[0], &names[names.len() - 1]);
        let common: String = first
            .chars()
            .zip(last.chars())
            .take_while(|(a, b)| a == b)
            .map(|(a, _)| a)
            .collect();
        return vec![common];
    }
    names
}

/// The most entries of a folder file completion reads, and the most names it offers.
const MAX_FOLDER_ENTRIES: usize = 10_000;
const MAX_FILE_CANDIDATES: usize = 200;

impl Hinter for TutorHelper {
    type Hint = CommandHint;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<CommandHint> {
        // Without colour a hint cannot be told from typed text: none is shown.
        if !self.style.on || line.is_empty() || pos < line.len() {
            return None;
        }
        let (word, rest) = match line.split_once(' ') {
            Some((w, r)) => (w, Some(r)),
            None => (line, None),
        };
        // Only a word that can become one command gets a hint: `C` could be CHECK, CLEAR
        // or COUNTS.
        let mut matching = Verb::ALL.into_iter().filter(|v| {
            v.word().len() >= word.len() && v.word()[..word.len()].eq_ignore_ascii_case(word)
        });
        let verb = matching.next()?;
        if matching.next().is_some() && !verb.word().eq_ignore_ascii_case(word) {
            return None;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scheme::Scheme;

    fn helper(on: bool) -> TutorHelper {
        TutorHelper {
            style: Style { on, ruler: None },
            completed: Completed::default(),
        }
    }

    fn hint(on: bool, line: &str) -> Option<String> {
        let history = DefaultHistory::new();
        let ctx = Context::new(&history);
        helper(on).hint(line, line.len(), &ctx).map(|h| h.display)
    }

    #[test]
    fn a_hint_only_for_a_word_that_can_be_one_command_and_only_in_colour() {
        assert_eq!(hint(true, "CH").as_deref(), Some("ECK key"));
        assert_eq!(hint(true, "ad").as_deref(), Some("d key"));
        assert_eq!(hint(true, "ADD ").as_deref(), Some("key"));
        assert_eq!(hint(true, "C"), None, "C could be CHECK, CLEAR or COUNTS");
        assert_eq!(hint(false, "CH"), None, "without colour a hint looks typed");
    }

    #[test]
    fn file_names_complete_from_the_folder_without_hidden_or_control_names() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.bloom", "ab.bloom", ".hidden", "b\x1b[2J"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        std::fs::create_dir(dir.path().join("aside")).unwrap();
        std::fs::write(dir.path().join("aside").join("x.bloom"), "").unwrap();
        let names = |typed: &str| file_candidates_in(dir.path(), typed);
        assert_eq!(names("a"), ["a.bloom", "ab.bloom", "aside/"]);
        assert_eq!(names("ab"), ["ab.bloom"]);
        assert_eq!(names("aside/"), ["aside/x.bloom"]);
        assert_eq!(names(".h"), [".hidden"]);
        assert_eq!(
            names("b"),
            Vec::<String>::new(),
            "a control character is never shown"
        );
        assert!(names("nosuch/x").is_empty());
        assert!(names("/").is_empty(), "SAVE and LOAD refuse absolute paths");
        assert!(names("../").is_empty(), "and `..`");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/", dir.path().join("out")).unwrap();
            assert!(
                names("out/").is_empty(),
                "a link out of the folder is not followed"
            );
        }
    }

    #[test]
    fn many_matches_complete_only_as_far_as_all_of_them_agree() {
        let dir = tempfile::tempdir().unwrap();
        for n in 0..300 {
            std::fs::write(dir.path().join(format!("aaa{n:03}.bf")), "").unwrap();
        }
        std::fs::write(dir.path().join("ab.bf"), "").unwrap();
        assert_eq!(
            file_candidates_in(dir.path(), "a"),
            ["a"],
            "ab.bf must not be hidden"
        );
        assert_eq!(file_candidates_in(dir.path(), "aaa"), ["aaa"]);
        assert_eq!(file_candidates_in(dir.path(), "aaa29").len(), 10);
    }

    #[test]
    fn a_file_name_completes_after_load() {
        let history = DefaultHistory::new();
        let ctx = Context::new(&history);
        let (start, _) = helper(false).complete("LOAD x", 6, &ctx).unwrap();
        assert_eq!(start, 5, "the name is completed after the word");
    }

    #[test]
    fn the_greeting_fits_80_columns() {
        let mut specs: Vec<FilterSpec> = Scheme::ALL
            .iter()
            .filter_map(|&s| FilterSpec::new(s, None, None).ok())
            .collect();
        specs.extend(FilterSpec::new(Scheme::Djb2Fnv, Some(1 << 32), Some(1000)).ok());
        assert_eq!(specs.len(), 4);
        for spec in specs {
            for line in greeting(spec) {
                assert!(line.chars().count() <= 80, "{} columns: {line}", line.len());
            }
        }
        assert_eq!(
            greeting(FilterSpec::lesson())[0],
            "bloom-tutor: the 64-bit byte-sum filter (m = 64, k = 2), all bits 0."
        );
    }
}
