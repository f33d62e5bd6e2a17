//! The tutor's commentary: what a command did and why, in words, built only from the
//! numbers in its outcome.

use crate::engine::bloom::{Answer, Merge, Probe};
use crate::engine::counters::CounterBits;
use crate::engine::memory::{Knowledge, Limit, REMEMBERED_BYTES, REMEMBERED_KEYS};
use crate::engine::scheme::{Derivation, FilterSpec};
use crate::escape;
use crate::render::words::{count, listed, plural};
use crate::script::session::{
    Example, Explained, FileReport, FromFiles, MergeReport, Outcome, Recall, Removed, Stats,
};
use crate::units::{and_list, percent, rate};

/// What an outcome's commentary is to the person reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A note on a command that changes or asks the filter (ADD, CHECK, REMOVE, CLEAR,
    /// SAVE, LOAD, UNION, INTERSECT): shown in the REPL, and in scripts with `--explain`.
    Note,
    /// The whole answer of a command that is there to explain (EXPLAIN, STATS, HELP).
    Text,
    /// No words: BITS, COUNTS and QUIT (the terminal lays out BITS and COUNTS itself).
    None,
}

/// The role of an outcome's commentary, the one place that says which commands have which.
#[inline(always)]
pub(crate) fn role(outcome: &Outcome<'_>) -> Role {
    match outcome {
        Outcome::Added { .. }
        | Outcome::Checked { .. }
        | Outcome::Cleared { .. }
        | Outcome::Removed(_)
        | Outcome::Saved { .. }
        | Outcome::Loaded { .. }
        | Outcome::Merged { .. } => Role::Note,
        Outcome::Explained(_) | Outcome::Stats(_) | Outcome::Help(_) => Role::Text,
        Outcome::Bits { .. } | Outcome::Counts { .. } | Outcome::Quit => Role::None,
    }
}

/// The commentary lines for an outcome: one line for ADD, CHECK and CLEAR; a few for REMOVE,
/// SAVE, LOAD, UNION and INTERSECT; the whole text of EXPLAIN, STATS and HELP; nothing for
/// BITS, COUNTS and QUIT.
pub(crate) fn lines(outcome: &Outcome<'_>) -> Vec<String> {
    match outcome {
        Outcome::Added {
            key,
            probe,
            counting,
        } => vec![match counting {
            None => added(key, *probe),
            Some(width) => added_counting(key, *probe, *width),
        }],
        Outcome::Checked {
            key,
            probe,
            recall,
            counting,
            ..
        } => vec![checked(key, *probe, *recall, *counting)],
        Outcome::Removed(r) => removed(r),
        Outcome::Cleared { spec } => vec![cleared(spec)],
        Outcome::Explained(e) => explained(e),
        Outcome::Stats(s) => stats(s),
        Outcome::Saved { path, report } => vec![saved(path, report)],
        Outcome::Loaded { path, report } => vec![loaded(path, report)],
        Outcome::Merged { path, report } => merged(path, report),
        Outcome::Help(topic) => crate::render::help::text(*topic),
        Outcome::Bits { .. } | Outcome::Counts { .. } | Outcome::Quit => Vec::new(),
    }
}

/// A key as a person should read it: plain when it is printable text without edge spaces,
/// otherwise quoted with escapes (`"\xff"`); keys of more than 40 characters are shortened.
pub(crate) fn show_key(key: &[u8]) -> String {
    const LONG: usize = 40;
    const HEAD: usize = 30;
    let plain = std::str::from_utf8(key).is_ok_and(|text| {
        !text.starts_with(' ')
            && !text.ends_with(' ')
            && !text.contains('"')
            && !escape::needs_escape(text)
    });
    let (head, tail) = match cut_after(key, LONG) {
        Some(_) => (
            &key[..cut_after(key, HEAD).unwrap_or(key.len())],
            format!("... ({} bytes)", key.len()),
        ),
        None => (key, String::new()),
    };
    if plain {
        format!("{}{tail}", String::from_utf8_lossy(head))
    } else {
        let shown = escape::escape(head).replace('"', "\\\"");
        format!("\"{shown}{tail}\"")
    }
}

/// The byte length of the first `n` characters of `key` (a byte that is not UTF-8 counts as
/// one), or `None` when it has no more than `n`. Reads only as far as it needs.
fn cut_after(key: &[u8], n: usize) -> Option<usize> {
    let (mut count, mut offset) = (0, 0);
    for chunk in key.utf8_chunks() {
        let lens = chunk.valid().chars().map(char::len_utf8);
        for len in lens.chain(chunk.invalid().iter().map(|_| 1)) {
            if count == n {
                return Some(offset);
            }
            count += 1;
            offset += len;
        }
    }
    None
}

fn join(items: impl IntoIterator<Item = u64>) -> String {
    items
        .into_iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn bits_word(n: usize) -> &'static str {
    plural(n as u64, "bit", "bits")
}

/// Positions in order, each once.
fn distinct(positions: impl IntoIterator<Item = u64>) -> Vec<u64> {
    let mut seen = Vec::new();
    for p in positions {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen
}

/// The positions whose bit was (or was not, with `set` false) 1, in order, each once.
fn where_bit(probe: Probe<'_>, set: bool) -> Vec<u64> {
    distinct(
        probe
            .positions
            .iter()
            .zip(probe.before)
            .filter(|&(_, &was)| (was > 0) == set)
            .map(|(&p, _)| p),
    )
}

/// One line on an ADD: its positions and which bits it newly set.
pub(crate) fn added(key: &[u8], probe: Probe<'_>) -> String {
    let head = format!(
        "ADD {}: positions {}",
        show_key(key),
        join(probe.positions.iter().copied())
    );
    let new = where_bit(probe, false);
    let old: Vec<u64> = where_bit(probe, true)
        .into_iter()
        .filter(|p| !new.contains(p))
        .collect();
    match (new.len(), old.len()) {
        (0, _) => format!("{head}; every bit was already 1, so this ADD changed nothing"),
        (_, 0) => format!("{head}; newly set {} {}", bits_word(new.len()), join(new)),
        _ => format!(
            "{head}; newly set {} {}; {} {} already 1",
            bits_word(new.len()),
            join(new),
            bits_word(old.len()),
            join(old.iter().copied()) + if old.len() == 1 { " was" } else { " were" }
        ),
    }
}

/// Each distinct position a command visited, with its counter before the command and how
/// many times the key counts there.
fn counter_steps(probe: Probe<'_>) -> Vec<(u64, u8, u8)> {
    let mut steps: Vec<(u64, u8, u8)> = Vec::new();
    for (&p, &before) in probe.positions.iter().zip(probe.before) {
        match steps.iter_mut().find(|s| s.0 == p) {
            Some(s) => s.2 = s.2.saturating_add(1),
            None => steps.push((p, before, 1)),
        }
    }
    steps
}

/// One line on an ADD in a counting filter: each counter before and after, and which are full.
pub(crate) fn added_counting(key: &[u8], probe: Probe<'_>, width: CounterBits) -> String {
    let max = width.max();
    let mut stuck = false;
    let steps: Vec<String> = counter_steps(probe)
        .into_iter()
        .map(|(p, before, uses)| {
            let after = before.saturating_add(uses).min(max);
            if before == max {
                stuck = true;
                format!("{p}: {max}, full, so it stays {max}")
            } else if after == max {
                format!("{p}: {before} to {after}, now full")
            } else {
                format!("{p}: {before} to {after}")
            }
        })
        .collect();
    let mut line = format!(
        "ADD {}: positions {}; counters {}",
        show_key(key),
        join(probe.positions.iter().copied()),
        steps.join(", ")
    );
    if stuck {
        line += &format!(
            "; a {width} counter holds at most {max}, and a saturated counter can never come \
             down again"
        );
    }
    line
}

/// What the tutor says when memory is full and it cannot tell a MAYBE's kind.
fn memory_full(full: Option<Limit>) -> String {
    match full {
        Some(Limit::Bytes) => format!(
            "the tutor remembers at most {} MiB of keys and some were too long to keep",
            REMEMBERED_BYTES >> 20
        ),
        Some(Limit::SavedFile) => {
            "the tutor does not know the keys that came from a saved filter".to_string()
        }
        Some(Limit::Keys) | None => {
            format!("the tutor remembers only the first {REMEMBERED_KEYS} keys")
        }
    }
}

/// "bit 22 is 0", "counters 22, 39 are 0".
fn are_zero(noun: &str, zeros: &[u64]) -> String {
    let noun = if zeros.len() == 1 {
        noun.to_string()
    } else {
        format!("{noun}s")
    };
    format!("{noun} {} 0", listed(zeros))
}

/// One line on a CHECK: which bit makes NO certain, or what kind of MAYBE it is. In a counting
/// filter it names counters, and a NO for a key that was added is a false negative.
pub(crate) fn checked(
    key: &[u8],
    probe: Probe<'_>,
    recall: Recall<'_>,
    counting: Option<CounterBits>,
) -> String {
    let shown = show_key(key);
    let positions = join(probe.positions.iter().copied());
    let zeros = where_bit(probe, false);
    let Some(_) = counting else {
        let head = format!("CHECK {shown}: positions {positions}");
        if !zeros.is_empty() {
            // After an INTERSECT a key that was added may be gone: say only what NO proves.
            let proves = match (recall.knows(key), recall.full()) {
                (Knowledge::Unknown | Knowledge::RemovedHere, Some(Limit::SavedFile)) => {
                    "is not in the filter"
                }
                _ => "was never added",
            };
            return format!(
                "{head}; {}, so {shown} {proves} and NO is certain",
                are_zero("bit", &zeros)
            );
        }
        return match recall.knows(key) {
            Knowledge::Added => format!("{head}; all 1, and {shown} was added, so MAYBE is right"),
            Knowledge::NeverAdded | Knowledge::Removed => format!(
                "{head}; all 1, but {shown} was never added: a false positive ({})",
                blame(recall, probe.positions)
            ),
            Knowledge::Unknown | Knowledge::RemovedHere => format!(
                "{head}; all 1, but {}, so it cannot tell whether this MAYBE is real or a false positive",
                memory_full(recall.full())
            ),
        };
    };
    let head = format!(
        "CHECK {shown}: positions {positions} (counters {})",
        join(probe.before.iter().map(|&c| u64::from(c)))
    );
    if !zeros.is_empty() {
        let zero = are_zero("counter", &zeros);
        return match recall.knows(key) {
            Knowledge::NeverAdded => {
                format!("{head}; {zero}, so {shown} was never added and NO is right")
            }
            Knowledge::Removed => format!(
                "{head}; {zero}: {shown} was removed as often as it was added, so NO is right"
            ),
            Knowledge::Added => format!(
                "{head}; {zero}, yet {shown} was added: a false negative, because a REMOVE of a \
                 key that was not in the filter took its count"
            ),
            Knowledge::Unknown | Knowledge::RemovedHere => format!(
                "{head}; {zero}, so {shown} is not in the filter, unless a REMOVE of a key that \
                 was not in it took its count"
            ),
        };
    }
    match recall.knows(key) {
        Knowledge::Added => {
            format!("{head}; all above 0, and {shown} was added, so MAYBE is right")
        }
        Knowledge::NeverAdded => format!(
            "{head}; all above 0, but {shown} was never added: a false positive ({})",
            blame(recall, probe.positions)
        ),
        Knowledge::Removed => {
            let max = counting.map_or(u8::MAX, CounterBits::max);
            let full: Vec<u64> = distinct(
                probe
                    .positions
                    .iter()
                    .zip(probe.before)
                    .filter(|&(_, &c)| c == max)
                    .map(|(&p, _)| p),
            );
            let why = if full.is_empty() {
                blame(recall, probe.positions)
            } else {
                format!(
                    "{} {} full, and a saturated counter can never come down",
                    if full.len() == 1 {
                        "counter"
                    } else {
                        "counters"
                    },
                    listed(&full)
                )
            };
            format!(
                "{head}; all above 0, but {shown} was removed as often as it was added: a false \
                 positive ({why})"
            )
        }
        Knowledge::RemovedHere => format!(
            "{head}; all above 0, and {}, nor whether this MAYBE is real or a false positive",
            removed_here(&shown)
        ),
        Knowledge::Unknown => format!(
            "{head}; all above 0, but {}, so it cannot tell whether this MAYBE is real or a \
             false positive",
            memory_full(recall.full())
        ),
    }
}

/// "bit 22 was set by date, bit 39 by lime", or "bits 30 and 22 were set by date": the
/// remembered key that first set each bit, each key named once.
fn blame(recall: Recall<'_>, positions: &[u64]) -> String {
    let unknown = match recall.full() {
        Some(Limit::SavedFile) => "a key from a saved filter",
        Some(Limit::Keys | Limit::Bytes) | None => "a key added after the tutor's memory filled",
    };
    // Each setter with its bits, in the order the bits come.
    let mut groups: Vec<(String, Vec<u64>)> = Vec::new();
    for p in distinct(positions.iter().copied()) {
        let by = match recall.setter_of(p) {
            Some(k) => show_key(k),
            None => unknown.to_string(),
        };
        match groups.iter_mut().find(|(k, _)| *k == by) {
            Some((_, bits)) => bits.push(p),
            None => groups.push((by, vec![p])),
        }
    }
    groups
        .iter()
        .enumerate()
        .map(|(i, (by, bits))| {
            let (noun, verb) = match bits.len() {
                1 => ("bit", "was"),
                _ => ("bits", "were"),
            };
            let bits = and_list(bits);
            if i == 0 {
                format!("{noun} {bits} {verb} set by {by}")
            } else {
                format!("{noun} {bits} by {by}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// REMOVE: each counter before and after, then what the tutor knows about the key, and for
/// a key that was not in the filter, which added keys paid for it.
pub(crate) fn removed(r: &Removed<'_>) -> Vec<String> {
    let shown = show_key(r.key);
    let f = r.facts;
    let max = f.width.max();
    let steps = counter_steps(r.probe);
    let mut head = format!(
        "REMOVE {shown}: positions {}; counters {}",
        join(r.probe.positions.iter().copied()),
        steps
            .iter()
            .map(|&(p, before, uses)| if before == max {
                format!("{p}: {max}, full, so it stays {max}")
            } else {
                format!("{p}: {before} to {}", before.saturating_sub(uses))
            })
            .collect::<Vec<_>>()
            .join(", ")
    );
    if steps.iter().any(|s| s.1 == max) {
        head +=
            "; a saturated counter no longer knows how many keys it counts, so it never comes down";
    }
    let mut lines = vec![head];
    // A full counter stays full; every other counter gave up a count.
    let full: Vec<u64> = steps.iter().filter(|s| s.1 == max).map(|s| s.0).collect();
    let taken: Vec<u64> = steps.iter().filter(|s| s.1 != max).map(|s| s.0).collect();
    // "counter 22 is full and stays full", "counters 54 and 45 are full and stay full".
    let n = full.len() as u64;
    let still_full = format!(
        "{} {} full and {} full",
        plural(n, "counter", "counters"),
        listed(&full),
        plural(n, "stays", "stay")
    );
    let nothing_taken = format!("its {still_full}, so this REMOVE took nothing");
    match f.knew {
        Knowledge::Added if taken.is_empty() => lines.push(format!(
            "{shown} was added, but every one of its counters is full, so nothing came out: \
             CHECK {shown} will answer MAYBE for good"
        )),
        Knowledge::Added => lines.push(match (f.now, full.is_empty()) {
            (Knowledge::Added, _) => format!(
                "{shown} was added more often than removed, so it is still in the filter; \
                 the other keys keep their counts"
            ),
            (
                Knowledge::NeverAdded
                | Knowledge::Removed
                | Knowledge::RemovedHere
                | Knowledge::Unknown,
                true,
            ) => {
                format!("{shown} was added, so its counts come out and the other keys keep theirs")
            }
            (
                Knowledge::NeverAdded
                | Knowledge::Removed
                | Knowledge::RemovedHere
                | Knowledge::Unknown,
                false,
            ) => format!(
                "{shown} was added, so its counts come out at {} and the other keys keep theirs; \
                 {still_full}",
                and_list(&taken),
            ),
        }),
        Knowledge::NeverAdded | Knowledge::Removed => {
            let why = if f.knew == Knowledge::Removed {
                "was removed already, as often as it was added"
            } else {
                "was never added"
            };
            lines.push(match (f.knew, full.is_empty(), taken.is_empty()) {
                (_, true, _) => format!(
                    "but {shown} {why}: its CHECK said MAYBE by chance (a false positive), so \
                     this REMOVE took counts that other keys had added"
                ),
                // Its counters are full, whatever filled them, and will say MAYBE for good.
                (Knowledge::Removed, false, true) => format!(
                    "{shown} was removed already, as often as it was added, but {nothing_taken}: \
                     CHECK {shown} will answer MAYBE for good (a false positive)"
                ),
                (_, false, true) => format!(
                    "but {shown} {why}: its CHECK said MAYBE by chance (a false positive); \
                     {nothing_taken}"
                ),
                // A counter that is not full never was, so it counts exactly: after as
                // many REMOVEs as ADDs of this key, what is left there other keys added.
                (Knowledge::Removed, false, false) => format!(
                    "but {shown} {why}: its CHECK said MAYBE because {} {} full and other \
                     keys had raised {} (a false positive), so this REMOVE took counts at {} \
                     that other keys had added",
                    plural(n, "counter", "counters"),
                    listed(&full),
                    and_list(&taken),
                    and_list(&taken)
                ),
                (_, false, false) => format!(
                    "but {shown} {why}: its CHECK said MAYBE by chance (a false positive), so \
                     this REMOVE took counts at {} that other keys had added; {still_full}",
                    and_list(&taken),
                ),
            });
            if taken.is_empty() {
                return lines;
            }
            for v in &f.victims {
                let who = show_key(&v.key);
                let lost = format!(
                    "  {who} lost a count at {}",
                    join(v.positions.iter().copied())
                );
                lines.push(if v.now_no {
                    format!(
                        "{lost}, and CHECK {who} now answers NO: a false negative, the one thing \
                         a Bloom filter promised never to give"
                    )
                } else {
                    format!("{lost}; CHECK {who} still answers MAYBE")
                });
            }
            if f.lost > f.victims.len() {
                let more = f.lost - f.victims.len();
                lines.push(format!(
                    "  ... and {more} more {} lost counts",
                    plural(more as u64, "key", "keys")
                ));
            }
            let rule = "a counting filter must only REMOVE keys that are in it (added, and not \
                        removed since)";
            lines.push(match (f.lost, f.false_negatives) {
                (0, _) => "no key the tutor remembers lost a count this time".to_string(),
                (1, 0) => {
                    "1 added key lost counts; it does not answer NO yet, but it is closer to it"
                        .to_string()
                }
                (lost, 0) => format!(
                    "{lost} added keys lost counts; none answers NO yet, but each is closer to it"
                ),
                (1, _) => format!("the added key that lost counts now answers NO: {rule}"),
                (2, 2) => format!("both added keys that lost counts now answer NO: {rule}"),
                (lost, wrong) if wrong >= lost => {
                    format!("all {lost} added keys that lost counts now answer NO: {rule}")
                }
                (lost, wrong) => format!(
                    "{wrong} of the {lost} added keys that lost counts now {} NO: {rule}",
                    plural(wrong as u64, "answers", "answer")
                ),
            });
        }
        Knowledge::RemovedHere | Knowledge::Unknown => {
            let unsure = match f.knew {
                Knowledge::RemovedHere => removed_here(&shown),
                _ => format!(
                    "{}, so it cannot tell whether {shown} was added",
                    memory_full(f.full)
                ),
            };
            lines.push(if taken.is_empty() {
                format!("{unsure}; {nothing_taken}")
            } else {
                format!("{unsure}, nor whether this REMOVE took counts that belonged to other keys")
            });
        }
    }
    lines
}

/// What the tutor says of a key removed here as often as it was added, once a saved
/// filter's counts came in: "fig was removed ..., so the tutor cannot tell whether fig was
/// added there".
fn removed_here(shown: &str) -> String {
    format!(
        "{shown} was removed as often as it was added here, but counts came in with a saved \
         filter, which holds no keys, so the tutor cannot tell whether {shown} was added there"
    )
}

/// The line on a CLEAR.
pub(crate) fn cleared(spec: &FilterSpec) -> String {
    let (one, many) = match spec.counting() {
        Some(_) => ("counter", "counters"),
        None => ("bit", "bits"),
    };
    match spec.bits() {
        1 => format!("CLEAR: the 1 {one} is 0 again and every key is forgotten"),
        m => format!("CLEAR: all {m} {many} are 0 again and every key is forgotten"),
    }
}

/// A file name as the command gave it, shown escaped.
fn show_path(path: &[u8]) -> String {
    format!("`{}`", escape::escape_prefix(path))
}

/// "1 key added", "3 keys added".
fn keys_added(n: u64) -> String {
    format!("{} added", count(n, "key", "keys"))
}

/// The line on a SAVE.
pub(crate) fn saved(path: &[u8], r: &FileReport) -> String {
    format!(
        "SAVE {}: {}, {} set, {}, in {} bytes (checksum {:08x}); the keys themselves are \
         not saved",
        show_path(path),
        r.spec,
        count(r.bits_set, "bit", "bits"),
        match r.at_most {
            // An INTERSECT left only a bound, and the file has room for one number.
            true => format!("at most {} (after an INTERSECT)", keys_added(r.keys)),
            false => keys_added(r.keys),
        },
        r.file.len,
        r.file.checksum
    )
}

/// The line on a LOAD: what the filter is now, and that its keys are unknown.
pub(crate) fn loaded(path: &[u8], r: &FileReport) -> String {
    format!(
        "LOAD {}: {}, {} set, {}; a saved filter holds no keys, so the tutor no longer \
         knows which keys were added",
        show_path(path),
        r.spec,
        count(r.bits_set, "bit", "bits"),
        keys_added(r.keys)
    )
}

/// UNION or INTERSECT: what the result is, and what an intersection cannot tell.
pub(crate) fn merged(path: &[u8], r: &MergeReport) -> Vec<String> {
    let counting = r.spec.counting().is_some();
    let (word, rule) = match (r.how, counting) {
        (Merge::Union, false) => ("UNION", "each bit is 1 where either filter has a 1"),
        (Merge::Union, true) => (
            "UNION",
            "each counter is the sum of the two (a full counter stays full)",
        ),
        (Merge::Intersect, false) => (
            "INTERSECT",
            "a bit stays 1 only where both filters have a 1",
        ),
        (Merge::Intersect, true) => ("INTERSECT", "each counter is the smaller of the two"),
    };
    let mut lines = vec![format!(
        "{word} {}: {} here and {} in the file, {} after: {rule}",
        show_path(path),
        if counting {
            count(r.ours, "counter above 0", "counters above 0")
        } else {
            count(r.ours, "bit set", "bits set")
        },
        r.theirs,
        r.after
    )];
    match r.how {
        Merge::Union => lines.push(
            "that is exactly the filter that adding both sets of keys would give; the file holds \
             no keys, so the tutor does not know the ones it added"
                .to_string(),
        ),
        Merge::Intersect => {
            lines.push(
                "but a bit may have been set by different keys in each filter, so the result can \
                 answer MAYBE for keys that are not in both sets: more false positives than a \
                 filter built from the common keys"
                    .to_string(),
            );
            match &r.example {
                Example::Found { key, ours } => {
                    let who = show_key(key);
                    lines.push(format!(
                        "for example, CHECK {who} answers MAYBE now, yet {who} was only in {}",
                        if *ours {
                            "this filter, not in the file's"
                        } else {
                            "the file's filter, not in this one"
                        }
                    ));
                }
                Example::NoneFound { looked_at } => lines.push(match looked_at {
                    0 => "the tutor knows no key that is in just one of the sets, so it cannot \
                          point at such a key here"
                        .to_string(),
                    1 => "the one key the tutor knows to be in just one of the sets does not \
                          answer MAYBE this time"
                        .to_string(),
                    n => format!(
                        "none of the {n} keys the tutor knows to be in just one of the sets \
                         answers MAYBE this time"
                    ),
                }),
                Example::FileKeysUnknown => lines.push(
                    "the tutor knows the keys only of filters saved in this session, so it \
                     cannot point at such a key here"
                        .to_string(),
                ),
                Example::NotAsked => {}
            }
            lines.push("the tutor no longer knows which keys are in the filter".to_string());
        }
    }
    if let Some(full) = r.saturated.filter(|&n| n > 0) {
        lines.push(format!(
            "{full} {} full: a saturated counter can never come down again",
            if full == 1 {
                "counter is"
            } else {
                "counters are"
            }
        ));
    }
    lines
}

/// EXPLAIN: the arithmetic from bytes to positions, each bit's (or counter's) state, and
/// CHECK's answer.
pub(crate) fn explained(e: &Explained<'_>) -> Vec<String> {
    let shown = show_key(e.key);
    let counting = e.spec.counting().is_some();
    let noun = if counting { "counter" } else { "bit" };
    let mut lines = vec![format!("EXPLAIN {shown} ({})", e.spec)];
    lines.extend(
        derivation(&e.spec, e.key, &e.facts.derivation)
            .into_iter()
            .map(|l| format!("  {l}")),
    );
    let mut zeros = Vec::new();
    for &(p, value) in &e.facts.bits {
        if value > 0 {
            let by = match e.recall.setter_of(p) {
                Some(k) if counting => format!(" (first raised by {})", show_key(k)),
                Some(k) => format!(" (first set by {})", show_key(k)),
                None => String::new(),
            };
            lines.push(format!("  {noun} {p} is {value}{by}"));
        } else {
            zeros.push(p);
            lines.push(format!("  {noun} {p} is 0"));
        }
    }
    let all = if counting {
        "every counter is above 0"
    } else {
        "every bit is 1"
    };
    lines.push(match (e.facts.answer, e.recall.knows(e.key)) {
        (Answer::No, Knowledge::Added) => format!(
            "CHECK {shown} would answer NO: {}, yet {shown} was added: a false negative, because \
             a REMOVE of a key that was not in the filter took its count",
            are_zero(noun, &zeros)
        ),
        (Answer::No, Knowledge::Removed) => format!(
            "CHECK {shown} would answer NO: {}, and {shown} was removed as often as it was added",
            are_zero(noun, &zeros)
        ),
        // As CHECK says: after a saved filter came in, or a REMOVE, NO proves only that the
        // key is not in the filter now.
        (Answer::No, Knowledge::Unknown | Knowledge::RemovedHere) if counting => format!(
            "CHECK {shown} would answer NO: {}, so {shown} is not in the filter, unless a REMOVE \
             of a key that was not in it took its count",
            are_zero(noun, &zeros)
        ),
        (Answer::No, Knowledge::Unknown | Knowledge::RemovedHere)
            if e.recall.full() == Some(Limit::SavedFile) =>
        {
            format!(
                "CHECK {shown} would answer NO: {}, so {shown} is not in the filter",
                are_zero(noun, &zeros)
            )
        }
        (Answer::No, Knowledge::NeverAdded | Knowledge::Unknown | Knowledge::RemovedHere) => {
            format!(
                "CHECK {shown} would answer NO: {}, so {shown} was never added",
                are_zero(noun, &zeros)
            )
        }
        (Answer::Maybe, Knowledge::Added) => {
            format!("CHECK {shown} would answer MAYBE: {all}, and {shown} was added")
        }
        (Answer::Maybe, Knowledge::NeverAdded) => format!(
            "CHECK {shown} would answer MAYBE: {all}, but {shown} was never added, \
             so that MAYBE would be a false positive"
        ),
        (Answer::Maybe, Knowledge::Removed) => format!(
            "CHECK {shown} would answer MAYBE: {all}, but {shown} was removed as often as it \
             was added, so that MAYBE would be a false positive"
        ),
        (Answer::Maybe, Knowledge::RemovedHere) => format!(
            "CHECK {shown} would answer MAYBE: {all}, and {}",
            removed_here(&shown)
        ),
        (Answer::Maybe, Knowledge::Unknown) => format!(
            "CHECK {shown} would answer MAYBE: {all} ({}, so it cannot tell whether \
             {shown} was added)",
            memory_full(e.recall.full())
        ),
    });
    lines
}

/// How many bytes of a key the arithmetic writes out before it shortens the rest.
const SHOWN_BYTES: usize = 12;

/// A key's bytes as decimal numbers, shortened in the middle when long.
fn show_bytes(key: &[u8]) -> String {
    show_terms(key, |_, b| b.to_string()).replace(" + ", " ")
}

/// `f(i, byte)` for each byte joined by ` + `; keys longer than SHOWN_BYTES show the first
/// eight terms and the last two around a count of those left out.
fn show_terms(key: &[u8], f: impl Fn(usize, u8) -> String) -> String {
    let terms =
        |range: std::ops::Range<usize>| range.map(|i| f(i, key[i])).collect::<Vec<_>>().join(" + ");
    if key.len() <= SHOWN_BYTES {
        terms(0..key.len())
    } else {
        let hidden = key.len() - 10;
        format!(
            "{} + ... ({hidden} more) ... + {}",
            terms(0..8),
            terms(key.len() - 2..key.len())
        )
    }
}

/// The arithmetic that takes a key to its positions, one line per step.
pub(crate) fn derivation(spec: &FilterSpec, key: &[u8], d: &Derivation) -> Vec<String> {
    let mut lines = vec![format!("bytes: {}", show_bytes(key))];
    let m = spec.bits();
    match d {
        Derivation::ByteSum { h1, h2, positions } => {
            let terms1 = show_terms(key, |_, b| b.to_string());
            let terms2 = show_terms(key, |i, b| format!("{b}*{}", i + 1));
            lines.push(format!(
                "h1 = {terms1} = {h1}; {h1} mod {m} = {}",
                positions[0]
            ));
            lines.push(format!(
                "h2 = {terms2} = {h2}; {h2} mod {m} = {}",
                positions[1]
            ));
        }
        Derivation::Djb2Fnv {
            a,
            b,
            step,
            positions,
        } => {
            lines.push(format!(
                "a = djb2-xor: start at 5381, then a = (a*33) xor byte for each byte, kept to 32 bits = {a}"
            ));
            lines.push(format!(
                "b = FNV-1a: start at 2166136261, then b = (b xor byte)*16777619 for each byte, kept to 32 bits = {b}"
            ));
            lines.push(format!(
                "step = b mod (m-1) + 1 = {b} mod {} + 1 = {step}",
                m - 1
            ));
            for (j, (sum, pos)) in positions.iter().enumerate() {
                lines.push(format!(
                    "position {j} = (a + {j}*step) mod {m} = {sum} mod {m} = {pos}"
                ));
            }
        }
        Derivation::Murmur3 { hashes } => {
            for (seed, (h, pos)) in hashes.iter().enumerate() {
                lines.push(format!(
                    "seed {seed}: murmur3 = {h}; {h} mod {m} = {pos} (floor modulo)"
                ));
            }
        }
    }
    lines
}

/// STATS: keys, fill, and the chance of a false positive by fill and by formula.
pub(crate) fn stats(s: &Stats) -> Vec<String> {
    let (m, k) = (s.spec.bits(), s.spec.hashes());
    let (set, adds) = (s.bits_set, s.adds);
    let removes = match (s.spec.counting(), s.removes) {
        (None, _) => String::new(),
        (Some(_), 1) => ", 1 REMOVE".to_string(),
        (Some(_), n) => format!(", {n} REMOVEs"),
    };
    let label = match s.spec.counting() {
        Some(_) => "keys added and not removed",
        None => "keys added",
    };
    // The commands run here since the files came in, as a sum a reader can check.
    let here = match (s.adds, s.removes) {
        (0, 0) => String::new(),
        (adds, 0) => format!(", plus {}", count(adds, "ADD command", "ADD commands")),
        (0, removes) => format!(", less {}", count(removes, "REMOVE", "REMOVEs")),
        (adds, removes) => format!(
            ", plus {} less {}",
            count(adds, "ADD command", "ADD commands"),
            count(removes, "REMOVE", "REMOVEs")
        ),
    };
    let in_all = |files_keys: u64| {
        let total = s.keys;
        match (s.adds, s.removes) {
            (0, 0) => String::new(),
            (adds, removes) if files_keys.saturating_add(adds) < removes => {
                format!(" here: {total} in all, as a count does not go below 0")
            }
            _ => format!(" here: {total} in all"),
        }
    };
    let keys_line = match (s.from_files, s.distinct, s.full) {
        (FromFiles::Recorded { files, keys }, _, _) => format!(
            "{label}: {keys} recorded in {}{here}{}; a saved filter holds no keys, so the \
             estimates below count every ADD as a new key",
            match files {
                1 => "the saved file".to_string(),
                n => format!("the {n} saved files"),
            },
            in_all(keys)
        ),
        (FromFiles::AtMost { keys, files }, _, _) => {
            let bound = match files {
                0 => "the smaller of the two filters' counts".to_string(),
                1 => "the smaller of the two filters' counts, plus what the file united since \
                      recorded"
                    .to_string(),
                n => format!(
                    "the smaller of the two filters' counts, plus what the {n} files united \
                     since recorded"
                ),
            };
            let why =
                "an INTERSECT keeps only the keys in both filters, and no count says how many";
            if here.is_empty() {
                format!("{label}: at most {keys}, {bound}: {why}")
            } else {
                format!(
                    "{label}: at most {}: at most {keys} ({bound}){here} here; {why}",
                    s.keys
                )
            }
        }
        (FromFiles::None, Some(d), _) => format!(
            "{label}: {d} distinct ({adds} ADD {}{removes})",
            plural(adds, "command", "commands")
        ),
        (FromFiles::None, None, full) => format!(
            "{label}: {adds} ADD {}{removes}; {}, so the estimates below count every \
             ADD as a new key",
            plural(adds, "command", "commands"),
            match full {
                Some(Limit::Bytes) => format!(
                    "the keys passed the {} MiB the tutor remembers",
                    REMEMBERED_BYTES >> 20
                ),
                Some(Limit::Keys) | Some(Limit::SavedFile) | None => {
                    format!("more than {REMEMBERED_KEYS} distinct keys")
                }
            }
        ),
    };
    // In a counting filter a position is in use when its counter is above 0 (a 1 in BITS).
    let in_use = |n: u64| match (s.spec.counting(), n) {
        (Some(_), 1) => "counter above 0",
        (Some(_), _) => "counters above 0",
        (None, 1) => "bit set",
        (None, _) => "bits set",
    };
    let mut lines = vec![
        format!("STATS for {}", s.spec),
        keys_line,
        format!(
            "{}: {set} of {m} ({})",
            if s.spec.counting().is_some() {
                "counters above 0 (a 1 in BITS)"
            } else {
                "bits set"
            },
            percent(set as f64 / m as f64)
        ),
        // Both assume a key's positions fall at random, each apart from the others: byte
        // sums break that, so the words say so (HELP STATS says why).
        "chance of a false positive, if positions were independent:".to_string(),
        format!(
            "  from the X = {set} {}, (X/m)^k = ({set}/{m})^{k} = {}",
            in_use(set),
            rate(s.fp_fill)
        ),
        match (s.n, s.fp_textbook) {
            (Some(n), Some(fp)) => format!(
                "  textbook, from n = {n} {}, (1 - e^(-kn/m))^k = {}",
                if n == 1.0 { "key" } else { "keys" },
                rate(fp)
            ),
            _ => "  textbook, (1 - e^(-kn/m))^k: left out, as it needs n, the number of keys, \
                  and after an INTERSECT the tutor knows only a bound"
                .to_string(),
        },
        if s.keys_from_fill.is_finite() {
            // ln(1) is 0, and -(m/k)*0 is -0.0: an empty filter holds 0 keys, not -0.
            let keys = s.keys_from_fill + 0.0;
            format!(
                "keys estimated from the X = {set} {}, -(m/k)*ln(1 - X/m) = {}",
                in_use(set),
                if keys == 0.0 {
                    "0".to_string()
                } else {
                    format!("{keys:.1}")
                }
            )
        } else if s.spec.counting().is_some() {
            "distinct keys estimated from the fill: every counter is above 0, so the estimate \
             is unbounded"
                .to_string()
        } else {
            "distinct keys estimated from the fill: every bit is set, so the estimate is unbounded"
                .to_string()
        },
    ];
    if let (Some(width), Some(full)) = (s.spec.counting(), s.saturated) {
        let b = u64::from(width.get());
        lines.push(format!(
            "counters: {} each, 0 to {}; {full} saturated (a full counter can never come down \
             again)",
            count(b, "bit", "bits"),
            width.max()
        ));
        lines.push(format!(
            "memory: {m} counters x {} = {} bits, against {m} bits for a plain filter ({}), \
             when counters are packed; this tutor keeps each counter in a byte, to be quick",
            count(b, "bit", "bits"),
            m * b,
            if b == 1 {
                "the same".to_string()
            } else {
                format!("{b} times as much")
            }
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scheme::Scheme;

    #[test]
    fn keys_are_shown_readably() {
        assert_eq!(show_key(b"fig"), "fig");
        assert_eq!(show_key(b"hello world"), "hello world");
        assert_eq!(show_key(b" fig"), "\" fig\"");
        assert_eq!(show_key(b"a\tb"), "\"a\\tb\"");
        assert_eq!(show_key("café".as_bytes()), "café");
        assert_eq!(show_key(b"\xff"), "\"\\xff\"");
        assert_ne!(show_key(b"\xff"), show_key(b"\xfe"));
        assert_eq!(show_key(b"\x1b[2J"), "\"\\u{1b}[2J\"");
        assert_eq!(show_key(b"say \"hi\""), "\"say \\\"hi\\\"\"");
        assert!(show_key(&[b'x'; 100]).ends_with("... (100 bytes)"));
        assert_eq!(show_key(&[b'x'; 100]).len(), 30 + "... (100 bytes)".len());
    }

    #[test]
    fn a_huge_key_is_shown_in_a_few_bytes() {
        let key = vec![0xffu8; 50 << 20];
        let shown = show_key(&key);
        assert!(shown.len() < 200, "{shown}");
        assert!(
            shown.ends_with(&format!("... ({} bytes)\"", 50 << 20)),
            "{shown}"
        );
    }

    #[test]
    fn stats_on_an_empty_filter_say_0_and_define_x() {
        let session = crate::script::session::PlainSession::new(FilterSpec::lesson());
        let mut session = session;
        let lines = match session.execute(&crate::script::command::Command::Stats) {
            Ok(Outcome::Stats(s)) => stats(s),
            other => panic!("STATS gave {other:?}"),
        };
        let text = lines.join("\n");
        assert!(!text.contains("-0"), "{text}");
        assert!(
            text.contains("keys estimated from the X = 0 bits set, -(m/k)*ln(1 - X/m) = 0"),
            "{text}"
        );
    }

    /// Commentary from a fixed outcome, with no session behind it.
    #[test]
    fn add_and_check_lines_from_fixed_outcomes() {
        let probe = Probe {
            positions: &[9, 1, 9],
            before: &[0, 1, 1],
        };
        assert_eq!(
            added(b"cat", probe),
            "ADD cat: positions 9, 1, 9; newly set bit 9; bit 1 was already 1"
        );
        let all_old = Probe {
            positions: &[22, 39],
            before: &[1, 1],
        };
        assert_eq!(
            added(b"sun", all_old),
            "ADD sun: positions 22, 39; every bit was already 1, so this ADD changed nothing"
        );
    }

    #[test]
    fn counting_add_says_when_a_counter_is_full() {
        let width = CounterBits::new(2).unwrap();
        let probe = Probe {
            positions: &[54, 45, 54],
            before: &[2, 3, 3],
        };
        assert_eq!(
            added_counting(b"fig", probe, width),
            "ADD fig: positions 54, 45, 54; counters 54: 2 to 3, now full, 45: 3, full, so it \
             stays 3; a 2-bit counter holds at most 3, and a saturated counter can never come \
             down again"
        );
    }

    #[test]
    fn remove_of_a_false_positive_shows_the_damage() {
        use crate::script::session::{Removal, Removed, Victim};
        let facts = Removal {
            width: CounterBits::DEFAULT,
            knew: Knowledge::NeverAdded,
            now: Knowledge::NeverAdded,
            full: None,
            victims: vec![Victim {
                key: b"date".to_vec().into_boxed_slice(),
                positions: vec![22],
                now_no: true,
            }],
            lost: 1,
            false_negatives: 1,
        };
        let lines = removed(&Removed {
            key: b"sun",
            probe: Probe {
                positions: &[22, 39],
                before: &[1, 2],
            },
            facts: &facts,
        });
        assert_eq!(
            lines[0],
            "REMOVE sun: positions 22, 39; counters 22: 1 to 0, 39: 2 to 1"
        );
        assert!(
            lines[1].starts_with("but sun was never added"),
            "{}",
            lines[1]
        );
        assert_eq!(
            lines[2],
            "  date lost a count at 22, and CHECK date now answers NO: a false negative, the \
             one thing a Bloom filter promised never to give"
        );
        assert!(
            lines[3].starts_with("the added key that lost counts now answers NO"),
            "{}",
            lines[3]
        );
    }

    /// A REMOVE whose counters are all full takes nothing, whatever the tutor knows of the
    /// key; one whose counters are partly full names the counts it took.
    #[test]
    fn a_remove_on_full_counters_says_what_it_took() {
        use crate::script::session::{Removal, Removed};
        let note = |knew, before: &[u8]| {
            let facts = Removal {
                width: CounterBits::new(2).unwrap(),
                knew,
                now: knew,
                full: None,
                victims: Vec::new(),
                lost: 0,
                false_negatives: 0,
            };
            removed(&Removed {
                key: b"fig",
                probe: Probe {
                    positions: &[54, 45],
                    before,
                },
                facts: &facts,
            })
            .join("\n")
        };
        let saturated = note(Knowledge::Removed, &[3, 3]);
        assert!(
            saturated.contains(
                "its counters 54 and 45 are full and stay full, so this REMOVE took nothing"
            ) && saturated.contains("CHECK fig will answer MAYBE for good")
                && !saturated.contains("by chance")
                && !saturated.contains("took counts"),
            "{saturated}"
        );
        let half = note(Knowledge::Removed, &[3, 1]);
        assert!(
            half.contains("because counter 54 is full and other keys had raised 45")
                && half.contains("this REMOVE took counts at 45 that other keys had added"),
            "{half}"
        );
        let never = note(Knowledge::NeverAdded, &[3, 3]);
        assert!(
            never.contains("by chance") && never.ends_with("so this REMOVE took nothing"),
            "{never}"
        );
        let unknown = note(Knowledge::RemovedHere, &[3, 3]);
        assert!(
            unknown.contains("cannot tell whether fig was added there")
                && unknown.ends_with("so this REMOVE took nothing"),
            "{unknown}"
        );
    }

    #[test]
    fn a_counting_check_that_says_no_for_an_added_key_is_a_false_negative() {
        use crate::engine::memory::Memory;
        let mut memory = Memory::counting();
        memory.remember(b"date");
        let line = checked(
            b"date",
            Probe {
                positions: &[30, 22],
                before: &[1, 0],
            },
            Recall::of(&memory),
            Some(CounterBits::DEFAULT),
        );
        assert!(
            line.ends_with(
                "counter 22 is 0, yet date was added: a false negative, because a \
                 REMOVE of a key that was not in the filter took its count"
            ),
            "{line}"
        );
    }

    #[test]
    fn stats_lines_from_fixed_numbers() {
        let s = Stats {
            spec: FilterSpec::lesson(),
            adds: 3,
            removes: 0,
            from_files: FromFiles::None,
            keys: 3,
            distinct: Some(3),
            full: None,
            bits_set: 6,
            fp_fill: 0.0087890625,
            n: Some(3.0),
            fp_textbook: Some(0.0077),
            keys_from_fill: 3.1,
            saturated: None,
        };
        let lines = stats(&s);
        assert_eq!(lines[1], "keys added: 3 distinct (3 ADD commands)");
        assert_eq!(lines[2], "bits set: 6 of 64 (9.38%)");
        assert!(
            lines[3].contains("if positions were independent"),
            "{}",
            lines[3]
        );
        assert_eq!(
            lines[4],
            "  from the X = 6 bits set, (X/m)^k = (6/64)^2 = 0.0088 (0.88%)"
        );
        assert_eq!(
            lines[5],
            "  textbook, from n = 3 keys, (1 - e^(-kn/m))^k = 0.0077 (0.77%)"
        );
    }

    #[test]
    fn stats_of_a_counting_filter_count_counters_above_0_not_bits() {
        let s = Stats {
            spec: FilterSpec::lesson().with_counters(Some(1)).unwrap(),
            adds: 2,
            removes: 0,
            from_files: FromFiles::None,
            keys: 2,
            distinct: Some(1),
            full: None,
            bits_set: 1,
            fp_fill: 0.000244140625,
            n: Some(1.0),
            fp_textbook: Some(0.0009),
            keys_from_fill: 0.5,
            saturated: Some(1),
        };
        let lines = stats(&s);
        assert_eq!(
            lines[0],
            "STATS for bytesum, m = 64 counters of 1 bit, k = 2"
        );
        assert_eq!(lines[2], "counters above 0 (a 1 in BITS): 1 of 64 (1.56%)");
        assert!(
            lines[4].starts_with("  from the X = 1 counter above 0,"),
            "{}",
            lines[4]
        );
        assert!(
            lines[6].starts_with("keys estimated from the X = 1 counter above 0,"),
            "{}",
            lines[6]
        );
        assert!(
            lines
                .iter()
                .all(|l| !l.contains("bits set") && !l.contains("bit set")),
            "{lines:#?}"
        );
    }

    #[test]
    fn an_intersection_counts_its_keys_in_words_that_agree() {
        use crate::script::session::MergeReport;
        let report = |looked_at| MergeReport {
            how: Merge::Intersect,
            spec: FilterSpec::lesson(),
            ours: 1,
            theirs: 4,
            after: 1,
            saturated: None,
            example: Example::NoneFound { looked_at },
        };
        let text = |n| merged(b"b.bloom", &report(n)).join("\n");
        assert!(
            text(1).contains("1 bit set here and 4 in the file"),
            "{}",
            text(1)
        );
        let counting = MergeReport {
            spec: FilterSpec::lesson().with_counters(Some(4)).unwrap(),
            ..report(1)
        };
        assert!(
            merged(b"b.bloom", &counting)[0].contains("1 counter above 0 here and 4 in the file"),
            "{:?}",
            merged(b"b.bloom", &counting)
        );
        assert!(
            text(1).contains("the one key the tutor knows to be in just one of the sets does not"),
            "{}",
            text(1)
        );
        assert!(
            text(3).contains("none of the 3 keys the tutor knows"),
            "{}",
            text(3)
        );
        assert!(!text(0).contains("0 keys"), "{}", text(0));
    }

    #[test]
    fn derivation_shows_the_lessons_arithmetic() {
        let spec = FilterSpec::lesson();
        let lines = derivation(&spec, b"fig", &spec.derivation(b"fig"));
        assert_eq!(lines[0], "bytes: 102 105 103");
        assert_eq!(lines[1], "h1 = 102 + 105 + 103 = 310; 310 mod 64 = 54");
        assert_eq!(
            lines[2],
            "h2 = 102*1 + 105*2 + 103*3 = 621; 621 mod 64 = 45"
        );
        let spec = FilterSpec::new(Scheme::Murmur3, None, Some(1)).unwrap();
        let lines = derivation(&spec, b"foo", &spec.derivation(b"foo"));
        assert_eq!(
            lines[1],
            "seed 0: murmur3 = -156908512; -156908512 mod 100 = 88 (floor modulo)"
        );
    }

    #[test]
    fn derivation_shortens_long_keys() {
        let spec = FilterSpec::lesson();
        let key = [b'a'; 40];
        let lines = derivation(&spec, &key, &spec.derivation(&key));
        assert!(lines[1].contains("... (30 more) ..."), "{}", lines[1]);
        assert!(lines[1].ends_with(&format!(
            "= {}; {} mod 64 = {}",
            97 * 40,
            97 * 40,
            97 * 40 % 64
        )));
    }
}
