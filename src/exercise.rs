//! `bloom-tutor exercise`: the program a learner writes, stated in full (rules, what the
//! grader checks, a worked example computed by the tutor's own filter), and starter
//! programs in Python, C and Rust with the bit array and the hashes left as marked gaps.
//!
//! The starters are templates in `src/exercise/starters/` (not Rust modules: plain text
//! with `{PLACEHOLDERS}`), filled in here for the scheme asked for.

use std::collections::BTreeSet;
use std::io::Write;

use crate::cli::{DEFAULT_TIMEOUT, ExerciseArgs, Language};
use crate::engine::scheme::{FilterSpec, Scheme, byte_sums, djb2_fnv, murmur3_32};
use crate::grade::{self, cases};
use crate::invoked::{self, scheme_flag};
use crate::piped::ScriptRunner;
use crate::render::help::filter_name;
use crate::render::wrap::{CODE_INDENT, PIPED_WIDTH, Width, Wrapped, wrap_line, wrap_note};
use crate::script::reader::Source;
use crate::worked::example_script;

/// Runs `bloom-tutor exercise` as `args` asks: the statement, or one starter program.
pub(crate) fn run(args: &ExerciseArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let scheme = args.scheme.unwrap_or(Scheme::ByteSum);
    let tutor = invoked::tutor();
    match args.starter {
        // Program text is never wrapped.
        Some(language) => out.write_all(starter(scheme, language, tutor).as_bytes())?,
        None if args.example => {
            for line in example_script(scheme) {
                writeln!(out, "{line}")?;
            }
        }
        None => {
            let mut out = Wrapped::new(out, Width::for_stdout());
            for line in statement(scheme, tutor) {
                writeln!(out, "{line}")?;
            }
            out.flush()?;
        }
    }
    Ok(())
}

/// What the tutor writes for `script` on the filter of `spec`, with or without `--explain`.
fn tutor_output(spec: FilterSpec, script: &[String], explain: bool) -> Vec<String> {
    let mut runner = ScriptRunner::new(spec, explain, true);
    let input = script.join("\n") + "\n";
    let (mut out, mut err) = (Vec::new(), Vec::new());
    // Writing to a Vec cannot fail, and the example's lines are valid commands.
    let _ = runner.run(input.as_bytes(), Source::Stdin, &mut out, &mut err);
    String::from_utf8_lossy(&out)
        .lines()
        .map(str::to_string)
        .collect()
}

/// How a key becomes its positions, as rules a program can follow, with one key worked
/// through by the filter's own functions.
fn rules(scheme: Scheme) -> Vec<String> {
    let spec = spec_of(scheme);
    let (m, k) = (spec.bits(), spec.hashes());
    match scheme {
        Scheme::ByteSum => {
            let (h1, h2) = byte_sums(b"fig");
            let p = positions(spec, "fig");
            vec![
                format!("h1 = the sum of the key's bytes, mod {m}"),
                format!("h2 = the sum of each byte times its 1-based index, mod {m}"),
                format!(
                    "For fig (the bytes 102 105 103): h1 = {h1} mod {m} = {}, and \
                     h2 = 102*1 + 105*2 + 103*3 = {h2}, mod {m} = {}.",
                    p[0], p[1]
                ),
            ]
        }
        Scheme::Djb2Fnv => {
            let (a, b) = djb2_fnv(b"cat");
            let p = positions(spec, "cat");
            let step = u64::from(b) % (m - 1) + 1;
            vec![
                "a = 5381, then for each byte: a = (a * 33) xor byte, kept to 32 bits (djb2)"
                    .to_string(),
                "b = 2166136261, then for each byte: b = (b xor byte) * 16777619, kept to 32 \
                 bits (FNV-1a)"
                    .to_string(),
                format!(
                    "step = b mod (m - 1) + 1, here b mod {} + 1: from 1 to {}, never 0",
                    m - 1,
                    m - 1
                ),
                format!(
                    "position j = (a + j * step) mod m, here mod {m}, for j = 0 to {}",
                    k - 1
                ),
                "\"Kept to 32 bits\" means mod 2^32: use uint32_t in C, wrapping_mul in Rust, and \
                 in Python mask each result with 0xFFFFFFFF."
                    .to_string(),
                format!(
                    "For cat: a = {a}, b = {b}, step = {step}, positions {}.",
                    join(&p)
                ),
            ]
        }
        Scheme::Murmur3 => {
            let dog: Vec<i32> = (0..k).map(|seed| murmur3_32(b"dog", seed)).collect();
            let p = positions(spec, "dog");
            vec![
                format!(
                    "position i = murmur3(key, seed = i) mod {m}, for i = 0 to {}",
                    k - 1
                ),
                "murmur3 is MurmurHash3 x86 32-bit; read its result as a signed 32-bit number \
                 (it can be negative)."
                    .to_string(),
                format!(
                    "mod is floor modulo: the result is from 0 to {} even for a negative hash. \
                     Python's % does this; C's and Rust's % give a negative remainder, so add \
                     {m} to it (or use rem_euclid in Rust).",
                    m - 1
                ),
                "MurmurHash3 x86 32-bit, every step on 32 bits (mod 2^32):".to_string(),
                "  h = seed; c1 = 0xcc9e2d51; c2 = 0x1b873593".to_string(),
                "  for each whole 4-byte block, read little-endian as w:".to_string(),
                "    w = w * c1; w = rotl(w, 15); w = w * c2".to_string(),
                "    h = h xor w; h = rotl(h, 13); h = h * 5 + 0xe6546b64".to_string(),
                "  if 1 to 3 bytes are left, t = those bytes little-endian (byte 0 lowest):"
                    .to_string(),
                "    t = t * c1; t = rotl(t, 15); t = t * c2; h = h xor t".to_string(),
                "  h = h xor (the key's length in bytes)".to_string(),
                "  h = h xor (h >> 16); h = h * 0x85ebca6b; h = h xor (h >> 13)".to_string(),
                "  h = h * 0xc2b2ae35; h = h xor (h >> 16)".to_string(),
                "  (rotl(x, r) rotates the 32 bits of x left by r; >> shifts without sign)"
                    .to_string(),
                format!(
                    "For dog: murmur3 with seeds 0, 1, 2 is {}, {} and {}; its positions are {}.",
                    dog[0],
                    dog[1],
                    dog[2],
                    join(&p)
                ),
            ]
        }
    }
}

fn spec_of(scheme: Scheme) -> FilterSpec {
    // A scheme's own m and k always make a filter.
    FilterSpec::new(scheme, None, None).unwrap_or_else(|_| FilterSpec::lesson())
}

fn positions(spec: FilterSpec, key: &str) -> Vec<u64> {
    let mut out = Vec::new();
    spec.positions(key.as_bytes(), &mut out);
    out
}

fn join(ps: &[u64]) -> String {
    ps.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

/// What the grader's cases send, measured on the cases themselves.
struct CaseFacts {
    count: usize,
    shortest_key: usize,
    longest_key: usize,
    /// Some key holds a tab.
    tabs: bool,
    beyond_ascii: String,
}

fn case_facts(spec: FilterSpec) -> CaseFacts {
    let all = cases::builtin(spec);
    let (mut shortest_key, mut longest_key) = (usize::MAX, 0);
    let mut tabs = false;
    let mut beyond_ascii = BTreeSet::new();
    for case in &all {
        for line in String::from_utf8_lossy(&case.script).lines() {
            if let Some((_, key)) = line.split_once(' ') {
                shortest_key = shortest_key.min(key.len());
                longest_key = longest_key.max(key.len());
                tabs |= key.contains('\t');
                beyond_ascii.extend(key.chars().filter(|c| !c.is_ascii()));
            }
        }
    }
    let chars: Vec<String> = beyond_ascii.iter().map(char::to_string).collect();
    CaseFacts {
        count: all.len(),
        shortest_key,
        longest_key,
        tabs,
        beyond_ascii: chars.join(", "),
    }
}

/// The exercise for `scheme`, one paragraph or code line per entry, with `tutor` as the
/// command that runs the tutor.
pub(crate) fn statement(scheme: Scheme, tutor: &str) -> Vec<String> {
    let spec = spec_of(scheme);
    let (m, k) = (spec.bits(), spec.hashes());
    let name = filter_name(scheme);
    let flag = scheme_flag(scheme);
    let facts = case_facts(spec);
    let script = example_script(scheme);
    let answers = tutor_output(spec, &script, false);
    let explained = tutor_output(spec, &script, true);
    let mut s: Vec<String> = Vec::new();
    let mut say = |line: String| s.push(line);

    say(format!("The exercise: {name}, as a program"));
    say(String::new());
    say(format!(
        "Write a program, in any language you like, that keeps one Bloom filter of \
         m = {m} bits, all 0 at the start, with {k} positions per key. It reads commands on \
         stdin, one a line, and writes its answers on stdout:"
    ));
    say("  ADD key     set the bit at each of the key's positions to 1; write nothing".into());
    say("  CHECK key   write NO if any of those bits is 0, MAYBE if every one is 1".into());
    say(format!(
        "  BITS        write the {m} bits as 0s and 1s on one line, bit 0 first"
    ));
    say(String::new());
    say("How a key becomes its positions:".into());
    for rule in rules(scheme) {
        say(format!("  {rule}"));
    }
    say(String::new());
    say("The rules your program must follow:".into());
    say(
        "- The command is the line up to its first space. The key is every byte after that \
         space up to the end of the line: it may hold any bytes but a newline, and spaces and \
         tabs belong to it, at the start and at the end too. `ADD hello world` adds the key \
         `hello world`, and `ADD  fig`, with two spaces, adds the key ` fig`."
            .into(),
    );
    say(
        "- Hash the key's bytes (UTF-8), not its characters: café is 5 bytes, since é is the \
         two bytes 195 169."
            .into(),
    );
    say(
        "- Write each answer on a line of its own, ending in a newline: NO, MAYBE, or the \
         bits. Write nothing else to stdout: no prompt, no label, no blank line. stderr is \
         yours to use."
            .into(),
    );
    say("- Read until stdin ends, then exit with status 0.".into());
    say(String::new());
    say(format!(
        "How the grader checks it: `grade` runs your program once for each of its {} cases. \
         It sends the case's commands on stdin, closes stdin, and compares all of stdout, byte \
         for byte, with the tutor's own answers.",
        facts.count
    ));
    say(format!(
        "- A case fails when an answer differs (wrong, missing, extra, in lowercase, with a \
         space or a \\r too many), when the program exits with a status other than 0 or is \
         stopped by a signal, when it runs for more than {} seconds, or when it writes more \
         than {}.",
        DEFAULT_TIMEOUT,
        size(grade::OUTPUT_CAP)
    ));
    say(format!(
        "- It sends only ADD, CHECK and BITS, in capitals, with one space after ADD and CHECK, \
         each line ending in \\n (never \\r\\n). Keys are UTF-8 text of {} to {} bytes: \
         letters, digits, punctuation, spaces{}, and the characters {}.",
        facts.shortest_key,
        facts.longest_key,
        if facts.tabs { ", tabs" } else { "" },
        facts.beyond_ascii
    ));
    say(
        "- It does not check stderr (a failing case shows its last lines), lowercase \
         commands, \\r\\n line ends, blank lines, comments, unknown commands, keys that are \
         not UTF-8, or when your answers arrive (all at the end is fine). The tutor itself \
         accepts all of these, but your program need not."
            .into(),
    );
    say(String::new());
    say("A worked example. These commands:".into());
    for line in &script {
        say(format!("    {line}"));
    }
    say("must give exactly these answers:".into());
    for line in &answers {
        say(format!("    {line}"));
    }
    say(
        "Why, as the tutor explains it with --explain: each line that starts with # is \
         commentary on the command, just before its answer, if it has one. (Here its lines \
         are wrapped 4 columns narrower than the tutor's own 80, to fit.)"
            .into(),
    );
    for line in narrower(explained, PIPED_WIDTH - CODE_INDENT) {
        say(format!("    {line}"));
    }
    say(String::new());
    say(
        "A starter program does the reading and the writing, and leaves the bit array and the \
         positions to you, in two parts marked TODO. Choose python, c or rust:"
            .into(),
    );
    for language in Language::ALL {
        say(format!(
            "    {tutor} exercise{flag} --starter {} > {}",
            language.name(),
            language.file(stem(scheme))
        ));
    }
    say(
        "Build a C program with the first command, a Rust one with the second (Python needs no \
         build):"
            .into(),
    );
    for language in Language::ALL {
        if let Some(build) = build_command(language, scheme) {
            say(format!("    {build}"));
        }
    }
    say(String::new());
    say(format!(
        "Save the example's commands as a file, then run your program on it, and the tutor \
         too; the answers must be the same. A C or Rust program runs as `{}`:",
        run_command(Language::C, scheme)
    ));
    // Each filter's example has its own file, as each solution has: saving one never
    // writes over another.
    let example = format!("{}_example.txt", stem(scheme));
    say(format!("    {tutor} exercise{flag} --example > {example}"));
    say(format!(
        "    {} < {example}",
        run_command(Language::Python, scheme)
    ));
    say(format!("    {tutor}{flag} < {example}"));
    say(format!("    {tutor}{flag} --explain < {example}"));
    say(String::new());
    say(format!(
        "Then grade it. The grader's first case, {}, is the example above. The first command \
         grades a Python program, the second a C or Rust one:",
        cases::builtin::EXERCISE_EXAMPLE
    ));
    for language in [Language::Python, Language::C] {
        say(format!("    {}", grade_command(language, scheme, tutor)));
    }
    say(format!(
        "For each failing case, the grader shows the first wrong answer and the mistake that \
         likely explains it; `{tutor} grade{flag} --show CASE` prints a case's commands and \
         the answers expected, and `{tutor} grade{flag} --list` lists the cases."
    ));
    s
}

/// A size in bytes as a person reads it: `1 MiB`, `4 KiB`.
fn size(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// What the exercise calls the learner's program for `scheme`: each filter its own name, so
/// that saving a starter for one never writes over the solution to another.
fn stem(scheme: Scheme) -> &'static str {
    match scheme {
        Scheme::ByteSum => "bloom",
        Scheme::Djb2Fnv => "bloom_double",
        Scheme::Murmur3 => "bloom_murmur3",
    }
}

/// The command that runs a solution in `language` (after it is built).
fn run_command(language: Language, scheme: Scheme) -> String {
    match language {
        Language::Python => format!("python3 {}.py", stem(scheme)),
        Language::C | Language::Rust => format!("./{}", stem(scheme)),
    }
}

/// The command that grades a solution in `language` (once it is built).
fn grade_command(language: Language, scheme: Scheme, tutor: &str) -> String {
    format!(
        "{tutor} grade{} -- {}",
        scheme_flag(scheme),
        run_command(language, scheme)
    )
}

/// The command that builds a solution in `language`, if it needs building.
fn build_command(language: Language, scheme: Scheme) -> Option<String> {
    let s = stem(scheme);
    match language {
        Language::Python => None,
        Language::C => Some(format!("cc -O2 -o {s} {s}.c")),
        Language::Rust => Some(format!("rustc -O {s}.rs")),
    }
}

/// `--explain` output wrapped again to fit `width` columns. The example's commentary (ADD
/// and CHECK) is one line a command, which the runner wrapped at the window's width with its
/// later lines hung two spaces in (`#   `): those are joined first, then wrapped anew.
fn narrower(lines: Vec<String>, width: usize) -> Vec<String> {
    let mut joined: Vec<String> = Vec::new();
    for line in lines {
        match (line.strip_prefix("#   "), joined.last_mut()) {
            (Some(rest), Some(last)) if last.starts_with("# ") => {
                last.push(' ');
                last.push_str(rest.trim_start());
            }
            _ => joined.push(line),
        }
    }
    joined
        .into_iter()
        .flat_map(|line| match line.strip_prefix("# ") {
            Some(text) => wrap_note(text, width - 2)
                .into_iter()
                .map(|part| format!("# {part}"))
                .collect(),
            None => vec![line],
        })
        .collect()
}

/// Width of a starter program's comments, the comment mark included.
const COMMENT_WIDTH: usize = 80;

/// `text` as comment lines, each starting with `comment` and a space, wrapped between words.
fn comment_lines(text: &str, comment: &str) -> Vec<String> {
    wrap_line(text, COMMENT_WIDTH - comment.len() - 1)
        .into_iter()
        .map(|l| format!("{comment} {l}"))
        .collect()
}

/// A starter program: the language's template with the filter's numbers and rules.
pub(crate) fn starter(scheme: Scheme, language: Language, tutor: &str) -> String {
    let spec = spec_of(scheme);
    let template = match language {
        Language::Python => include_str!("exercise/starters/bloom.py"),
        Language::C => include_str!("exercise/starters/bloom.c"),
        Language::Rust => include_str!("exercise/starters/bloom.rs.txt"),
    };
    let comment = match language {
        Language::Python => "#",
        Language::C | Language::Rust => "//",
    };
    let rules: Vec<String> = rules(scheme)
        .iter()
        .flat_map(|r| comment_lines(&format!("  {r}"), comment))
        .collect();
    let title = filter_name(scheme);
    let mut title_case = title.to_string();
    if let Some(first) = title_case.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    let made_by = format!(
        "Made by `{tutor} exercise{} --starter {}`; `{tutor} exercise{}` states the task.",
        scheme_flag(scheme),
        language.name(),
        scheme_flag(scheme)
    );
    // The template's line is `# {MADE_BY}`: the first line's comment mark is there.
    let made_by = comment_lines(&made_by, comment).join("\n");
    let made_by = made_by
        .strip_prefix(comment)
        .map_or(made_by.as_str(), str::trim_start);
    let grade = format!(
        "{tutor} grade{} -- {}",
        scheme_flag(scheme),
        run_command(language, scheme)
    );
    template
        .replace("{TITLE}", &title_case)
        .replace("{MADE_BY}", made_by)
        .replace("{GRADE}", &grade)
        .replace("{STEM}", stem(scheme))
        .replace("{M}", &spec.bits().to_string())
        .replace("{K}", &spec.hashes().to_string())
        .replace("{RULES}", &rules.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_starter_is_filled_in() {
        for scheme in Scheme::ALL {
            for language in Language::ALL {
                let text = starter(scheme, language, "bloom-tutor");
                assert!(
                    !text.contains("{M}") && !text.contains("{RULES}") && !text.contains("{K}"),
                    "{scheme} {language:?}: a placeholder is left"
                );
                assert_eq!(
                    text.matches("---- TODO ").count(),
                    2,
                    "{scheme} {language:?}: two gaps"
                );
                assert_eq!(text.matches("---- end of TODO").count(), 2);
            }
        }
    }

    #[test]
    fn the_statement_shows_the_tutors_own_answers() {
        let text = statement(Scheme::ByteSum, "bloom-tutor").join("\n");
        assert!(
            text.contains("    0000000000000000000000100100001000000001000001000000001000000000"),
            "{text}"
        );
        assert!(
            text.contains("bloom-tutor grade -- python3 bloom.py"),
            "{text}"
        );
        let text = statement(Scheme::Djb2Fnv, "bloom-tutor").join("\n");
        assert!(text.contains("    0101000011010011"), "{text}");
        assert!(
            text.contains("bloom-tutor grade --scheme djb2-fnv -- ./bloom"),
            "{text}"
        );
    }

    #[test]
    fn code_lines_fit_80_columns_but_for_a_long_bits_answer() {
        for scheme in Scheme::ALL {
            for line in statement(scheme, "bloom-tutor") {
                let code = line.trim_start();
                if line.len() - code.len() < CODE_INDENT {
                    // Prose: the renderer wraps it.
                    continue;
                }
                let bits_answer = code.bytes().all(|b| b == b'0' || b == b'1');
                assert!(
                    bits_answer || textwrap::core::display_width(&line) <= PIPED_WIDTH,
                    "{scheme}: a code line is wider than {PIPED_WIDTH} columns:\n{line}"
                );
            }
        }
    }

    #[test]
    fn the_statement_says_what_a_key_may_hold() {
        let text = statement(Scheme::ByteSum, "bloom-tutor").join("\n");
        assert!(text.contains("any bytes but a"), "{text}");
        assert!(
            case_facts(FilterSpec::lesson()).tabs,
            "the cases send a tab"
        );
        assert!(text.contains("spaces, tabs,"), "{text}");
    }

    #[test]
    fn case_facts_come_from_the_cases() {
        let facts = case_facts(FilterSpec::lesson());
        assert_eq!(facts.count, cases::builtin(FilterSpec::lesson()).len());
        assert!(facts.longest_key >= 300, "{}", facts.longest_key);
        assert!(facts.beyond_ascii.contains('é'), "{}", facts.beyond_ascii);
    }
}
