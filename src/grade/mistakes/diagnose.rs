//! Which mistakes explain a program's answers: first the slips in how the answers are
//! written are undone, then the filter's modelled mistakes are tried, alone and in pairs,
//! until one set answers exactly as the program did; then what the shape of the run shows
//! (no output at all, the right lines in another order, lines read in pieces, no end).

use super::model::OutOfBounds;
use super::{LINE_BUFFERS, Mistake, answers_with};
use crate::engine::scheme::FilterSpec;

/// How a program's run ended, as far as telling its mistakes goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// It ended by itself with status 0: its output is all it had to say.
    Exited,
    /// It ended by itself with another status, its output written out; `index_error` when
    /// its stderr tells of an index past the end (or before the start) of an array.
    Failed { index_error: bool },
    /// A signal ended it: answers still in its buffer are lost, and its last line may be
    /// cut. `out_of_bounds` for a bad memory access (SIGSEGV, SIGBUS) or an index error.
    Signalled { out_of_bounds: bool },
    /// The grader stopped it (time, output, memory, CPU time or file size limit): its last
    /// line may be cut.
    Stopped,
}

/// The mistakes behind a program's answers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnosis {
    /// The mistake that explains the first wrong answer comes first.
    pub mistakes: Vec<Mistake>,
    /// Whether together they reproduce every answer the program gave; when false they
    /// explain only part of what went wrong.
    pub complete: bool,
    /// Other sets of as many mistakes that explain the answers just as well (this case
    /// cannot tell them apart; the rest of the run may).
    pub alternatives: Vec<Vec<Mistake>>,
}

impl Diagnosis {
    /// The mistakes every explanation of this case has in common: those it names for
    /// certain.
    pub fn certain(&self) -> Vec<Mistake> {
        self.mistakes
            .iter()
            .copied()
            .filter(|m| self.alternatives.iter().all(|set| set.contains(m)))
            .collect()
    }

    /// Among this diagnosis and its alternatives, takes the one whose mistakes `named`
    /// (how many cases named each for certain) counts most, keeping the first on a tie.
    pub fn prefer(&mut self, named: impl Fn(Mistake) -> usize) {
        let score = |set: &[Mistake]| set.iter().map(|&m| named(m)).sum::<usize>();
        let best = self
            .alternatives
            .iter()
            .enumerate()
            .max_by_key(|(i, set)| (score(set), std::cmp::Reverse(*i)))
            .filter(|(_, set)| score(set) > score(&self.mistakes))
            .map(|(i, _)| i);
        if let Some(i) = best {
            std::mem::swap(&mut self.mistakes, &mut self.alternatives[i]);
        }
    }
}

impl Diagnosis {
    /// Every explanation of the case: the mistakes named, then the alternatives. None when
    /// nothing explains every answer.
    fn explanations(&self) -> impl Iterator<Item = &Vec<Mistake>> {
        let sets = self.complete.then_some(&self.mistakes);
        sets.into_iter().chain(&self.alternatives)
    }

    /// Drops the explanations that have one of `ruled_out`; when none is left, the case is
    /// explained by nothing the grader knows, and only its slips stay named.
    pub fn rule_out(&mut self, ruled_out: &[Mistake]) {
        let kept = |set: &Vec<Mistake>| !set.iter().any(|m| ruled_out.contains(m));
        self.alternatives.retain(kept);
        if !self.complete || kept(&self.mistakes) {
            return;
        }
        if self.alternatives.is_empty() {
            self.mistakes.retain(|m| m.is_formatting());
            self.complete = false;
        } else {
            self.mistakes = self.alternatives.remove(0);
        }
    }
}

/// One case of a run, as the rule across cases reads it.
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    pub script: &'a [u8],
    pub expected: &'a [u8],
    pub got: &'a [u8],
    /// Whether the program ran to its end: then `got` is all it had to say.
    pub finished: bool,
    pub diagnosis: &'a Diagnosis,
}

/// The computing mistakes named for some case that another case contradicts: a program
/// with that mistake, and with whatever explains the other case, would have answered the
/// other case differently. On a small filter a wrong mistake fits a case now and then by
/// chance; the program's other answers then tell against it. Cases the program did not
/// finish say nothing (their output stops early).
pub fn contradicted(spec: FilterSpec, seen: &[Seen<'_>]) -> Vec<Mistake> {
    let mut named: Vec<Mistake> = Vec::new();
    for s in seen {
        for set in s.diagnosis.explanations() {
            for &m in set {
                if !m.is_formatting() && !m.is_shape() && !named.contains(&m) {
                    named.push(m);
                }
            }
        }
    }
    named.retain(|&m| {
        seen.iter()
            .filter(|s| s.finished)
            .any(|s| !fits_with(spec, s, m))
    });
    named
}

/// Whether some explanation of the case `s`, with `m` added, gives all of its answers as
/// the program did.
fn fits_with(spec: FilterSpec, s: &Seen<'_>, m: Mistake) -> bool {
    let normal = undo_slips(spec.bits(), s.expected, s.got).0;
    let right: Vec<Mistake> = Vec::new();
    let mut sets: Vec<&Vec<Mistake>> = s.diagnosis.explanations().collect();
    if sets.is_empty() {
        sets.push(&right);
    }
    sets.into_iter().any(|set| {
        let mut with: Vec<Mistake> = set
            .iter()
            .copied()
            .filter(|x| !x.is_formatting() && !x.is_shape())
            .collect();
        if !with.contains(&m) {
            with.push(m);
        }
        same_answers(spec, &answers_with(spec, s.script, &with), &normal, &with)
    })
}

/// Whether a model with `mistakes` that answers `model` answers as the program did,
/// `normal`. A program that reads lines in pieces (lines-split) may say something about a
/// piece it does not know as a command: only its answers are compared.
fn same_answers(spec: FilterSpec, model: &[u8], normal: &[u8], mistakes: &[Mistake]) -> bool {
    if model == normal {
        return true;
    }
    let split = mistakes.iter().any(|m| matches!(m, Mistake::LinesSplit(_)));
    split && model == answer_lines(spec.bits(), normal).as_slice()
}

/// The lines of `text` that are answers a program may print, each with its newline.
fn answer_lines(m: u64, text: &[u8]) -> Vec<u8> {
    text.split_inclusive(|&b| b == b'\n')
        .filter(|l| is_answer(l.strip_suffix(b"\n").unwrap_or(l), m))
        .flatten()
        .copied()
        .collect()
}

/// The mistakes that explain `got` where `expected` was right, for `script` on a filter of
/// shape `spec`, from a program that did not stop out of bounds. Empty when nothing does
/// (or when `got` is right).
pub fn diagnose(spec: FilterSpec, script: &[u8], expected: &[u8], got: &[u8]) -> Diagnosis {
    if got == expected {
        return Diagnosis::default();
    }
    let (normal, slips) = undo_slips(spec.bits(), expected, got);
    if normal == expected {
        let mistakes = order(spec, script, expected, got, &normal, slips, Vec::new());
        return Diagnosis {
            mistakes,
            complete: true,
            alternatives: Vec::new(),
        };
    }
    let mut found = fitting(spec, script, expected, got, &normal, slips.clone());
    // What the shape of the output shows, after the modelled mistakes: an alternative when
    // one of them fits too, so that it stands when other cases tell against that one.
    for set in shapes(spec, script, expected, &normal) {
        let set = order(spec, script, expected, got, &normal, slips.clone(), set);
        if found.complete {
            found.alternatives.push(set);
        } else {
            found = Diagnosis {
                mistakes: set,
                complete: true,
                alternatives: Vec::new(),
            };
        }
    }
    found
}

/// The mistakes seen in the shape of a program's answers, `normal` (its slips undone), each
/// alone: the right lines in another order; or answers a model gives when it reads lines
/// in pieces of a buffer's length, the shortest such length first.
fn shapes(spec: FilterSpec, script: &[u8], expected: &[u8], normal: &[u8]) -> Vec<Vec<Mistake>> {
    let mut found = Vec::new();
    fn sorted(text: &[u8]) -> Vec<&[u8]> {
        let mut lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
        lines.sort_unstable();
        lines
    }
    if normal != expected && sorted(normal) == sorted(expected) {
        found.push(vec![Mistake::OutOfOrder]);
    }
    let longest = script.split(|&b| b == b'\n').map(<[u8]>::len).max();
    for at in LINE_BUFFERS {
        // A buffer as long as every line changes nothing.
        if longest.is_none_or(|l| l <= at) {
            break;
        }
        let split = [Mistake::LinesSplit(at)];
        let model = answers_with(spec, script, &split);
        if model != expected && same_answers(spec, &model, normal, &split) {
            found.push(split.to_vec());
        }
    }
    found
}

/// The mistakes behind a run of `script` that ended as `ending`, whose output was `got`
/// where `expected` was right.
pub fn diagnose_run(
    spec: FilterSpec,
    script: &[u8],
    expected: &[u8],
    got: &[u8],
    ending: Ending,
) -> Diagnosis {
    match ending {
        Ending::Exited if got.is_empty() && !expected.is_empty() => Diagnosis {
            mistakes: vec![Mistake::NoOutput],
            complete: true,
            alternatives: Vec::new(),
        },
        Ending::Exited | Ending::Failed { index_error: false } => {
            diagnose(spec, script, expected, got)
        }
        Ending::Failed { index_error: true } => {
            diagnose_out_of_bounds(spec, script, expected, got, true)
        }
        Ending::Signalled { out_of_bounds } => {
            let got = whole_lines(got);
            if out_of_bounds {
                diagnose_out_of_bounds(spec, script, expected, got, false)
            } else {
                diagnose(spec, script, expected, got)
            }
        }
        Ending::Stopped => {
            // Every answer right, and then no end (or more output): the program went on
            // after the end of its input.
            let got = whole_lines(got);
            let (normal, slips) = undo_slips(spec.bits(), expected, got);
            if starts_with_lines(&normal, expected) {
                return Diagnosis {
                    mistakes: [vec![Mistake::NoStopAtEof], slips].concat(),
                    complete: true,
                    alternatives: Vec::new(),
                };
            }
            diagnose(spec, script, expected, got)
        }
    }
}

/// `got` without a last line that has no newline: a program stopped while writing it.
fn whole_lines(got: &[u8]) -> &[u8] {
    got.iter()
        .rposition(|&b| b == b'\n')
        .map_or(&got[..0], |i| &got[..=i])
}

/// [`diagnose`] for a program that stopped out of bounds: an index error, or with `flushed`
/// false a bad memory access (a crash, which may leave its last answers in its buffer,
/// unwritten). A mistake that puts a position out of bounds explains it when what it wrote
/// is right for a program with that mistake (or with that mistake and one other) up to a
/// command where such a position is reached: a program with the mistake stops at such a
/// command, the first one or a later one, as the order in which it reaches its positions
/// decides. With `flushed`, what it wrote is all it wrote before it stopped, so it stopped
/// right after it; without, anywhere after it.
fn diagnose_out_of_bounds(
    spec: FilterSpec,
    script: &[u8],
    expected: &[u8],
    got: &[u8],
    flushed: bool,
) -> Diagnosis {
    let (normal, slips) = undo_slips(spec.bits(), expected, got);
    let modelled = Mistake::modelled(spec);
    let written = normal.iter().filter(|&&b| b == b'\n').count();
    for cause in OutOfBounds::ALL {
        let stopping = cause.mistake();
        // A byte sum not taken mod m is some hundreds of bytes past the array, where C
        // reads and writes quietly far more often than it crashes: only an index error
        // tells of it. A negative position held in the starter's uint64_t is far past any
        // memory the program has, and crashes it.
        let crash_tells = match cause {
            OutOfBounds::PastTheEnd => flushed,
            OutOfBounds::BelowZero => true,
        };
        if !modelled.contains(&stopping) || !crash_tells {
            continue;
        }
        let others = modelled.iter().filter(|&&m| m != stopping);
        let sets = std::iter::once(vec![]).chain(others.map(|&m| vec![m]));
        for set in sets {
            // No-mod's model stops at the first position past the end; the other keeps a
            // negative position apart, as a program that does not stop there would.
            let with = match cause {
                OutOfBounds::PastTheEnd => set.clone(),
                OutOfBounds::BelowZero => [set.clone(), vec![stopping]].concat(),
            };
            let answers = answers_with(spec, script, &with);
            let stops = super::model::stops(spec, script, &set, cause);
            let stopped_there = if flushed {
                stops.contains(&written)
            } else {
                stops.iter().any(|&s| s >= written)
            };
            if starts_with_lines(&answers, &normal) && stopped_there {
                let set = [vec![stopping], set].concat();
                let mistakes = order(spec, script, expected, got, &normal, slips, set);
                return Diagnosis {
                    mistakes,
                    complete: true,
                    alternatives: Vec::new(),
                };
            }
        }
    }
    diagnose(spec, script, expected, got)
}

/// Whether `whole` begins with the lines of `part`, each whole.
fn starts_with_lines(whole: &[u8], part: &[u8]) -> bool {
    whole.starts_with(part) && (part.is_empty() || part.ends_with(b"\n"))
}

/// The modelled mistakes, alone or in pairs, that give `normal` (the program's answers with
/// its slips undone); no-mod needs a program that stopped out of bounds, and is left to
/// [`diagnose_out_of_bounds`].
fn fitting(
    spec: FilterSpec,
    script: &[u8],
    expected: &[u8],
    got: &[u8],
    normal: &[u8],
    slips: Vec<Mistake>,
) -> Diagnosis {
    let mut modelled = Mistake::modelled(spec);
    modelled.retain(|&m| m != Mistake::NoMod);
    let singles = modelled.iter().map(|&m| vec![m]);
    let pairs = modelled
        .iter()
        .enumerate()
        .flat_map(|(i, &a)| modelled[i + 1..].iter().map(move |&b| vec![a, b]));
    // Every single mistake that fits, then every pair that fits where neither mistake
    // alone does (a pair with a mistake that changes nothing here says nothing more). The
    // rest of the run decides between them (`prefer`); alone, the simplest comes first.
    let fits = |set: &Vec<Mistake>| answers_with(spec, script, set) == normal;
    let mut found: Vec<Vec<Mistake>> = singles.filter(fits).collect();
    let alone: Vec<Mistake> = found.iter().map(|set| set[0]).collect();
    found.extend(
        pairs
            .filter(|pair| !pair.iter().any(|m| alone.contains(m)))
            .filter(fits),
    );
    let mut sets = found
        .into_iter()
        .map(|set| order(spec, script, expected, got, normal, slips.clone(), set));
    match sets.next() {
        Some(mistakes) => Diagnosis {
            mistakes,
            complete: true,
            alternatives: sets.collect(),
        },
        None => Diagnosis {
            mistakes: slips,
            complete: false,
            alternatives: Vec::new(),
        },
    }
}

/// The slips and the computing mistakes in one list, the one that explains the first wrong
/// answer first: a slip when it changed that line, otherwise the computing mistake that
/// alone gives the program's answer there.
fn order(
    spec: FilterSpec,
    script: &[u8],
    expected: &[u8],
    got: &[u8],
    normal: &[u8],
    slips: Vec<Mistake>,
    mut computing: Vec<Mistake>,
) -> Vec<Mistake> {
    if let Some(line) = first_wrong_line(expected, normal) {
        let want = normal.split(|&b| b == b'\n').nth(line);
        if let Some(at) = computing.iter().position(|&m| {
            answers_with(spec, script, &[m])
                .split(|&b| b == b'\n')
                .nth(line)
                == want
        }) {
            let first = computing.remove(at);
            computing.insert(0, first);
        }
    }
    // A slip comes first when it changed the raw output's first wrong line.
    let slip_first = match first_wrong_line(expected, got) {
        Some(line) => {
            computing.is_empty()
                || got.split(|&b| b == b'\n').nth(line) != normal.split(|&b| b == b'\n').nth(line)
        }
        None => true,
    };
    if slip_first {
        slips.into_iter().chain(computing).collect()
    } else {
        computing.into_iter().chain(slips).collect()
    }
}

/// The 0-based index of the first line where `a` and `b` differ.
fn first_wrong_line(a: &[u8], b: &[u8]) -> Option<usize> {
    let mut x = a.split_inclusive(|&c| c == b'\n');
    let mut y = b.split_inclusive(|&c| c == b'\n');
    let mut i = 0;
    loop {
        match (x.next(), y.next()) {
            (None, None) => return None,
            (p, q) if p == q => i += 1,
            _ => return Some(i),
        }
    }
}

/// Whether `line` is an answer a program may print: NO, MAYBE or m bits.
fn is_answer(line: &[u8], m: u64) -> bool {
    line == b"NO"
        || line == b"MAYBE"
        || (line.len() as u64 == m && line.iter().all(|&b| b == b'0' || b == b'1'))
}

/// How long the answer at the end of `line` is, in any case: MAYBE, NO or m bits.
fn answer_at_end(line: &[u8], m: u64) -> Option<usize> {
    let upper = line.to_ascii_uppercase();
    if upper.ends_with(b"MAYBE") {
        return Some(5);
    }
    if upper.ends_with(b"NO") {
        return Some(2);
    }
    let m = usize::try_from(m).ok()?;
    let bits = line
        .iter()
        .rev()
        .take_while(|&&b| b == b'0' || b == b'1')
        .count();
    (bits >= m).then_some(m)
}

/// `got` with the slips in how it was written undone, and the slips found: a prompt or
/// label before answers, spaces and blank lines around them, their case, a missing final
/// newline. Each is undone only where doing so leaves answers a program may print.
fn undo_slips(m: u64, expected: &[u8], got: &[u8]) -> (Vec<u8>, Vec<Mistake>) {
    let unfinished = !got.is_empty() && !got.ends_with(b"\n");
    if !unfinished {
        return undo_line_slips(m, got);
    }
    let mut whole = got.to_vec();
    whole.push(b'\n');
    let (normal, mut slips) = undo_line_slips(m, &whole);
    // The unfinished line is a missing newline only when it holds an answer: a prompt
    // waiting for input, or spaces, are not.
    let head = got
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(&got[..0], |i| &got[..=i]);
    let (before, _) = undo_line_slips(m, head);
    let lines = |t: &[u8]| t.iter().filter(|&&b| b == b'\n').count();
    if lines(&normal) > lines(&before) && expected.ends_with(b"\n") {
        slips.push(Mistake::NoFinalNewline);
    }
    (normal, slips)
}

/// [`undo_slips`] for output whose every line ends in a newline.
fn undo_line_slips(m: u64, got: &[u8]) -> (Vec<u8>, Vec<Mistake>) {
    let mut slips = Vec::new();
    let mut lines: Vec<Vec<u8>> = got
        .split_inclusive(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\n").unwrap_or(l).to_vec())
        .collect();
    if let Some(stripped) = strip_prompt(&lines, m) {
        lines = stripped;
        slips.push(Mistake::PromptPrinted);
    }
    let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    let trimmed: Vec<Vec<u8>> = lines
        .iter()
        .map(|l| {
            let start = l.iter().position(|b| !space(b)).unwrap_or(l.len());
            let end = l.iter().rposition(|b| !space(b)).map_or(start, |e| e + 1);
            l[start..end].to_vec()
        })
        .filter(|l| !l.is_empty())
        .collect();
    if trimmed != lines
        && trimmed
            .iter()
            .all(|l| is_answer(&l.to_ascii_uppercase(), m))
    {
        lines = trimmed;
        slips.push(Mistake::ExtraWhitespace);
    }
    let cased: Vec<Vec<u8>> = lines.iter().map(|l| l.to_ascii_uppercase()).collect();
    if cased != lines && cased.iter().all(|l| is_answer(l, m)) {
        lines = cased;
        slips.push(Mistake::AnswerCase);
    }
    let mut normal = Vec::new();
    for line in &lines {
        normal.extend_from_slice(line);
        normal.push(b'\n');
    }
    (normal, slips)
}

/// The lines without a prompt repeated before the answers (`> > NO`, `Answer: MAYBE`), and
/// without lines that hold only prompts; `None` when the output has no such prompt.
fn strip_prompt(lines: &[Vec<u8>], m: u64) -> Option<Vec<Vec<u8>>> {
    let trim_end = |l: &[u8]| -> usize {
        l.iter()
            .rposition(|b| !matches!(b, b' ' | b'\t' | b'\r'))
            .map_or(0, |e| e + 1)
    };
    // The first prefix before an answer names the prompt; repeated prompts (`> > `) are
    // the shortest piece repeated.
    let prompt = lines.iter().find_map(|l| {
        let end = trim_end(l);
        let len = answer_at_end(&l[..end], m)?;
        let prefix = &l[..end - len];
        (!prefix.is_empty()).then(|| shortest_repeat(prefix).to_vec())
    })?;
    let only_prompts = |p: &[u8]| {
        p.chunks(prompt.len()).all(|c| c == prompt.as_slice())
            && p.len().is_multiple_of(prompt.len())
    };
    let mut out = Vec::new();
    for line in lines {
        let end = trim_end(line);
        let body = &line[..end];
        if only_prompts(body) || only_prompts(line) {
            continue;
        }
        let len = answer_at_end(body, m)?;
        let prefix = &body[..end - len];
        if !only_prompts(prefix) {
            return None;
        }
        out.push(line[prefix.len()..].to_vec());
    }
    Some(out)
}

/// The shortest piece that `s` is made of, repeated (`> ` for `> > > `).
fn shortest_repeat(s: &[u8]) -> &[u8] {
    (1..=s.len())
        .find(|&n| s.len().is_multiple_of(n) && s.chunks(n).all(|c| c == &s[..n]))
        .map_or(s, |n| &s[..n])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scheme::Scheme;

    fn lesson(expected: &str, got: &str) -> Vec<Mistake> {
        diagnose(
            FilterSpec::lesson(),
            b"",
            expected.as_bytes(),
            got.as_bytes(),
        )
        .mistakes
    }

    #[test]
    fn diagnoses_formatting_slips() {
        assert_eq!(lesson("NO\n", "NO"), [Mistake::NoFinalNewline]);
        let answers = "NO\nMAYBE\n";
        assert_eq!(lesson(answers, "no\nmaybe\n"), [Mistake::AnswerCase]);
        assert_eq!(lesson(answers, "> NO\n> MAYBE\n"), [Mistake::PromptPrinted]);
        assert_eq!(
            lesson(answers, "> > NO\n> MAYBE\n> "),
            [Mistake::PromptPrinted]
        );
        assert_eq!(
            lesson(answers, "Answer: NO\nAnswer: MAYBE\n"),
            [Mistake::PromptPrinted]
        );
        assert_eq!(
            lesson(answers, "NO \r\nMAYBE\t\n"),
            [Mistake::ExtraWhitespace]
        );
        assert_eq!(
            lesson(answers, "\nNO\n\nMAYBE\n"),
            [Mistake::ExtraWhitespace]
        );
        assert_eq!(
            lesson(answers, "no \nmaybe"),
            [
                Mistake::ExtraWhitespace,
                Mistake::AnswerCase,
                Mistake::NoFinalNewline
            ]
        );
        assert!(lesson("NO\n", "NO\n").is_empty());
        assert!(lesson("NO\n", "YES\n").is_empty());
        assert!(
            lesson("NO\nNO\n", "NO\n").is_empty(),
            "a missing answer is no slip"
        );
    }

    #[test]
    fn diagnoses_two_mistakes_together_first_wrong_answer_first() {
        let spec = FilterSpec::lesson();
        let both = [Mistake::H2FromZero, Mistake::BitsReversed];
        let script = b"ADD fig\nADD stop\nCHECK pots\nBITS\n";
        let expected = answers_with(spec, script, &[]);
        let got = answers_with(spec, script, &both);
        let found = diagnose(spec, script, &expected, &got);
        assert!(found.complete);
        // CHECK pots comes first, and only h2-from-zero changes it.
        assert_eq!(found.mistakes, both);
        // The bytes of `@` sum to 64, so h2 from 0 or 1 is the same; BITS comes first now.
        let script = b"ADD @\nBITS\nADD fig\nADD stop\nCHECK pots\n";
        let expected = answers_with(spec, script, &[]);
        let got = answers_with(spec, script, &both);
        let found = diagnose(spec, script, &expected, &got);
        assert_eq!(found.mistakes, [Mistake::BitsReversed, Mistake::H2FromZero]);
    }

    #[test]
    fn a_slip_and_a_computing_mistake_together() {
        let spec = FilterSpec::new(Scheme::Murmur3, None, None).expect("valid");
        let script = b"ADD fox\nBITS\nCHECK fox\nCHECK dog\n";
        let expected = answers_with(spec, script, &[]);
        let wrong = answers_with(spec, script, &[Mistake::SeedsFromOne]);
        let got: Vec<u8> = String::from_utf8(wrong)
            .expect("ASCII")
            .lines()
            .map(|l| format!("> {l}\n"))
            .collect::<String>()
            .into_bytes();
        let found = diagnose(spec, script, &expected, &got);
        assert!(found.complete, "{found:?}");
        assert_eq!(
            found.mistakes,
            [Mistake::PromptPrinted, Mistake::SeedsFromOne]
        );
    }

    const INDEX_ERROR: Ending = Ending::Failed { index_error: true };

    #[test]
    fn a_program_stopped_by_an_index_error_past_the_last_bit_is_told_no_mod() {
        let spec = FilterSpec::lesson();
        let script = b"BITS\nCHECK fig\nADD fig\nCHECK fig\nBITS\n";
        let expected = answers_with(spec, script, &[]);
        let zeros = format!("{}\n", "0".repeat(64));
        // h2 alone not taken mod 64: CHECK fig reads h1 (0) and answers NO; ADD fig stops.
        let h2_only = format!("{zeros}NO\n");
        assert_eq!(
            answers_with(spec, script, &[Mistake::NoMod]),
            h2_only.as_bytes()
        );
        // h1 not taken mod 64 either: CHECK fig stops at h1, 310.
        for got in [h2_only.as_str(), zeros.as_str()] {
            let found = diagnose_run(spec, script, &expected, got.as_bytes(), INDEX_ERROR);
            assert_eq!(found.mistakes, [Mistake::NoMod], "{got:?}");
            assert!(found.complete);
            // Without an index error, the same output is no-mod's by no evidence; nor
            // after a crash, which a position a few hundred bytes past the end seldom gives.
            let found = diagnose(spec, script, &expected, got.as_bytes());
            assert!(
                !found.mistakes.contains(&Mistake::NoMod),
                "{got:?}: {found:?}"
            );
            let segfault = Ending::Signalled {
                out_of_bounds: true,
            };
            let found = diagnose_run(spec, script, &expected, got.as_bytes(), segfault);
            assert!(
                !found.mistakes.contains(&Mistake::NoMod),
                "{got:?}: {found:?}"
            );
        }
        // Stopped where no hash is 64 or more (`#` is byte 35): not no-mod.
        let script = b"BITS\nADD #\nBITS\n";
        let expected = answers_with(spec, script, &[]);
        let found = diagnose_run(spec, script, &expected, zeros.as_bytes(), INDEX_ERROR);
        assert!(found.mistakes.is_empty(), "{found:?}");
        // A wrong answer before it stopped is another mistake's, named first.
        let script = b"ADD fig\nADD stop\nCHECK pots\nADD lime\n";
        let expected = answers_with(spec, script, &[]);
        let wrong = answers_with(spec, script, &[Mistake::H2FromZero]);
        assert_ne!(wrong, expected);
        let found = diagnose_run(spec, script, &expected, &wrong, INDEX_ERROR);
        assert_eq!(found.mistakes, [Mistake::H2FromZero, Mistake::NoMod]);
    }

    #[test]
    fn a_crash_at_a_negative_position_is_told_truncating_mod() {
        // One hash a key: sun's murmur3 is positive (with seed 1 too), foo's negative
        // (position -12).
        let spec = FilterSpec::new(Scheme::Murmur3, None, Some(1)).expect("valid");
        let script = b"ADD sun\nBITS\nADD foo\nBITS\n";
        let expected = answers_with(spec, script, &[]);
        let first_bits = expected
            .split_inclusive(|&b| b == b'\n')
            .next()
            .expect("BITS");
        let segfault = Ending::Signalled {
            out_of_bounds: true,
        };
        // Stopped at ADD foo, its answers so far written: by an index error or a crash.
        for ending in [INDEX_ERROR, segfault] {
            let found = diagnose_run(spec, script, &expected, first_bits, ending);
            assert_eq!(found.mistakes, [Mistake::TruncatingMod], "{ending:?}");
            assert!(found.complete, "{ending:?}");
        }
        // A crash may lose what is still in the program's buffer: nothing written fits too,
        // and so does a last line cut short.
        for got in [&b""[..], &first_bits[..10]] {
            let found = diagnose_run(spec, script, &expected, got, segfault);
            assert_eq!(found.mistakes, [Mistake::TruncatingMod], "{got:?}");
        }
        // An index error writes out everything before it: it stopped before any negative
        // position, so something else stopped it.
        let found = diagnose_run(spec, script, &expected, b"", INDEX_ERROR);
        assert!(found.mistakes.is_empty(), "{found:?}");
        // A wrong answer before the crash is not truncating-mod's.
        let mut wrong = first_bits.to_vec();
        wrong[0] = b'1';
        let found = diagnose_run(spec, script, &expected, &wrong, segfault);
        assert!(found.mistakes.is_empty(), "{found:?}");
        // Nor is a crash where no key has a negative hash.
        let script = b"ADD sun\nBITS\nBITS\n";
        let expected = answers_with(spec, script, &[]);
        let found = diagnose_run(spec, script, &expected, b"", segfault);
        assert!(found.mistakes.is_empty(), "{found:?}");
    }

    #[test]
    fn a_flooded_or_stopped_run_is_not_told_its_last_line_lacks_a_newline() {
        let spec = FilterSpec::lesson();
        let script = b"ADD fig\nCHECK fig\nCHECK sun\n";
        let expected = answers_with(spec, script, &[]);
        assert_eq!(expected, b"MAYBE\nNO\n");
        // Stopped in the middle of writing a line: no slip is read into the cut.
        let found = diagnose_run(spec, script, &expected, b"MAYBE\nMAY", Ending::Stopped);
        assert!(found.mistakes.is_empty(), "{found:?}");
        let found = diagnose_run(spec, script, &expected, b"MAYBE\nNO", Ending::Exited);
        assert_eq!(found.mistakes, [Mistake::NoFinalNewline], "ended by itself");
        // Every answer right, then no end: the same with more output, or a cut line.
        for got in [
            &b"MAYBE\nNO\n"[..],
            b"MAYBE\nNO\nNO\nNO\nN",
            b"> MAYBE\n> NO\n> ",
        ] {
            let found = diagnose_run(spec, script, &expected, got, Ending::Stopped);
            assert_eq!(
                found.mistakes.first(),
                Some(&Mistake::NoStopAtEof),
                "{got:?}"
            );
            assert!(found.complete, "{got:?}");
        }
        // Not every answer: where no end came from is not known.
        let found = diagnose_run(spec, script, &expected, b"MAYBE\n", Ending::Stopped);
        assert!(found.mistakes.is_empty(), "{found:?}");
    }

    #[test]
    fn no_output_from_a_program_that_ended_well_is_told_no_output() {
        let spec = FilterSpec::lesson();
        let script = b"ADD fig\nBITS\n";
        let expected = answers_with(spec, script, &[]);
        let found = diagnose_run(spec, script, &expected, b"", Ending::Exited);
        assert_eq!(found.mistakes, [Mistake::NoOutput]);
        assert!(found.complete);
        for ending in [
            Ending::Failed { index_error: false },
            Ending::Signalled {
                out_of_bounds: false,
            },
            Ending::Stopped,
        ] {
            let found = diagnose_run(spec, script, &expected, b"", ending);
            assert!(found.mistakes.is_empty(), "{ending:?}: {found:?}");
        }
    }

    #[test]
    fn the_right_lines_in_another_order_are_told_out_of_order() {
        let spec = FilterSpec::lesson();
        let script = b"ADD fig\nCHECK fig\nBITS\nCHECK sun\n";
        let expected = answers_with(spec, script, &[]);
        let lines: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
        // The BITS line, printed through a buffer, comes out last.
        let got = [lines[0], lines[2], lines[1]].concat();
        let found = diagnose(spec, script, &expected, &got);
        assert_eq!(found.mistakes, [Mistake::OutOfOrder], "{found:?}");
        assert!(found.complete);
        // A line missing is no order.
        let got = [lines[0], lines[2]].concat();
        let found = diagnose(spec, script, &expected, &got);
        assert!(!found.mistakes.contains(&Mistake::OutOfOrder), "{found:?}");
        // Where a modelled mistake fits as well (answers swapped, here), it comes first and
        // the order is the alternative that stands when other cases rule it out.
        let script = b"ADD fig\nCHECK fig\nCHECK sun\n";
        let expected = answers_with(spec, script, &[]);
        let mut found = diagnose(spec, script, &expected, b"NO\nMAYBE\n");
        assert_eq!(found.mistakes, [Mistake::AnswersSwapped], "{found:?}");
        found.rule_out(&[Mistake::AnswersSwapped]);
        assert_eq!(found.mistakes, [Mistake::OutOfOrder], "{found:?}");
    }

    #[test]
    fn lines_read_in_pieces_of_a_buffers_length_are_told_lines_split() {
        let spec = FilterSpec::lesson();
        let long = format!(
            "ADD {}\nBITS\nCHECK fig\n",
            "the quick brown fox ".repeat(5)
        );
        let script = long.as_bytes();
        let expected = answers_with(spec, script, &[]);
        // fgets into 64 bytes: 63 at a time.
        let got = answers_with(spec, script, &[Mistake::LinesSplit(63)]);
        assert_ne!(got, expected);
        let found = diagnose(spec, script, &expected, &got);
        assert_eq!(found.mistakes, [Mistake::LinesSplit(63)], "{found:?}");
        let hint = Mistake::LinesSplit(63).hint(spec);
        assert!(hint.starts_with("lines longer than 63 bytes"), "{hint}");
        assert!(hint.contains("`fgets` into a buffer of 64 bytes"), "{hint}");
        // Its complaints about the pieces on stdout change nothing.
        let noisy = [b"unknown command: own\n".as_slice(), &got].concat();
        let found = diagnose(spec, script, &expected, &noisy);
        assert_eq!(found.mistakes, [Mistake::LinesSplit(63)], "{found:?}");
        // Short lines: a buffer cannot explain a wrong answer.
        let script = b"ADD fig\nBITS\n";
        let expected = answers_with(spec, script, &[]);
        let found = diagnose(spec, script, &expected, b"0\n");
        assert!(found.mistakes.is_empty(), "{found:?}");
    }

    #[test]
    fn a_partial_explanation_says_so() {
        let script = b"ADD fig\nCHECK fig\nCHECK sun\n";
        let found = diagnose(
            FilterSpec::lesson(),
            script,
            b"MAYBE\nMAYBE\n",
            b"> NO\n> NO\n> NO\n",
        );
        assert_eq!(
            found.mistakes,
            [Mistake::PromptPrinted],
            "the prompt is named"
        );
        assert!(!found.complete, "but it does not explain the third answer");
    }
}

#[cfg(test)]
mod contradicted_tests {
    use super::*;
    use crate::engine::scheme::Scheme;

    fn seen<'a>(script: &'a [u8], expected: &'a [u8], got: &'a [u8], d: &'a Diagnosis) -> Seen<'a> {
        Seen {
            script,
            expected,
            got,
            finished: true,
            diagnosis: d,
        }
    }

    #[test]
    fn a_mistake_another_case_answers_against_is_taken_back() {
        let spec = FilterSpec::new(Scheme::Djb2Fnv, None, None).expect("valid");
        // A case that bits-reversed fits (by chance, for this program).
        let one = b"ADD cat\nBITS\n".as_slice();
        let expected_one = answers_with(spec, one, &[]);
        let reversed = answers_with(spec, one, &[Mistake::BitsReversed]);
        let got_one = reversed.as_slice();
        let mut first = diagnose(spec, one, &expected_one, got_one);
        assert_eq!(first.mistakes, [Mistake::BitsReversed], "{first:?}");
        // A case whose answers bits-reversed does not give (nothing known gives them).
        let two = b"ADD cat\nCHECK cat\n".as_slice();
        let got_two = b"MAYBE\nMAYBE\n".as_slice();
        let expected_two = answers_with(spec, two, &[]);
        let second = diagnose(spec, two, &expected_two, got_two);
        let ruled_out = contradicted(
            spec,
            &[
                seen(one, &expected_one, got_one, &first),
                seen(two, &expected_two, got_two, &second),
            ],
        );
        assert!(ruled_out.contains(&Mistake::BitsReversed), "{ruled_out:?}");
        first.rule_out(&ruled_out);
        assert!(first.mistakes.is_empty(), "{first:?}");
        assert!(!first.complete, "nothing explains the case now");
        // Unfinished, the second case says nothing.
        let mut unfinished = seen(two, &expected_two, got_two, &second);
        unfinished.finished = false;
        let first = diagnose(spec, one, &expected_one, got_one);
        let ruled_out = contradicted(
            spec,
            &[seen(one, &expected_one, got_one, &first), unfinished],
        );
        assert!(!ruled_out.contains(&Mistake::BitsReversed), "{ruled_out:?}");
    }

    #[test]
    fn a_true_mistake_seen_alone_in_one_case_and_paired_in_another_stands() {
        let spec = FilterSpec::lesson();
        let both = [Mistake::H2FromZero, Mistake::BitsReversed];
        let scripts: [&[u8]; 2] = [b"ADD fig\nCHECK gif\n", b"ADD fig\nBITS\n"];
        let runs: Vec<(Vec<u8>, Vec<u8>)> = scripts
            .iter()
            .map(|s| (answers_with(spec, s, &[]), answers_with(spec, s, &both)))
            .collect();
        let found: Vec<Diagnosis> = scripts
            .iter()
            .zip(&runs)
            .map(|(s, (e, g))| diagnose(spec, s, e, g))
            .collect();
        let all: Vec<Seen<'_>> = scripts
            .iter()
            .zip(&runs)
            .zip(&found)
            .map(|((s, (e, g)), d)| seen(s, e, g, d))
            .collect();
        assert_eq!(contradicted(spec, &all), [], "{found:?}");
    }
}

#[cfg(test)]
mod prefer_tests {
    use super::*;

    #[test]
    fn an_ambiguous_case_takes_the_mistake_named_elsewhere() {
        let mut d = Diagnosis {
            mistakes: vec![Mistake::SplitEverySpace],
            complete: true,
            alternatives: vec![vec![Mistake::WhitespaceStripped]],
        };
        d.prefer(|m| usize::from(m == Mistake::WhitespaceStripped));
        assert_eq!(d.mistakes, [Mistake::WhitespaceStripped]);
        assert_eq!(d.alternatives, [vec![Mistake::SplitEverySpace]]);
        d.prefer(|_| 0);
        assert_eq!(d.mistakes, [Mistake::WhitespaceStripped], "a tie keeps it");
    }
}
