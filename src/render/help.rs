//! The tutor's help text, one entry per command, shared by the REPL, scripts and completion.

use crate::engine::scheme::Scheme;
use crate::escape::escape_prefix;
use crate::script::command::Verb;

/// The usage line and one-line summary of a command.
pub fn summary(verb: Verb) -> (&'static str, &'static str) {
    match verb {
        Verb::Add => ("ADD key", "set the key's bits to 1"),
        Verb::Check => (
            "CHECK key",
            "NO if any of the key's bits is 0 (certain), MAYBE if all are 1",
        ),
        Verb::Remove => (
            "REMOVE key",
            "subtract 1 from the key's counters (counting filters only)",
        ),
        Verb::Bits => ("BITS", "print every bit, bit 0 first"),
        Verb::Counts => (
            "COUNTS",
            "print a counting filter's counters, position 0 first",
        ),
        Verb::Explain => (
            "EXPLAIN key",
            "show how the key becomes positions; changes nothing",
        ),
        Verb::Stats => (
            "STATS",
            "how full the filter is, and the chance of a false positive",
        ),
        Verb::Clear => ("CLEAR", "empty the filter and forget every key"),
        Verb::Save => (
            "SAVE file",
            "write the filter to a file in the current folder",
        ),
        Verb::Load => ("LOAD file", "replace the filter with a saved one"),
        Verb::Union => (
            "UNION file",
            "add a saved filter of the same shape into this one",
        ),
        Verb::Intersect => (
            "INTERSECT file",
            "keep only what this filter and a saved one of the same shape share",
        ),
        Verb::Help => ("HELP [command]", "this list, or more about one command"),
        Verb::Quit => ("QUIT", "leave the tutor (EXIT works too)"),
    }
}

/// What a scheme is, in a few words, for `--help` and messages.
pub fn scheme_summary(scheme: Scheme) -> &'static str {
    match scheme {
        Scheme::ByteSum => {
            "the 64-bit byte-sum filter: h1 = sum of bytes, h2 = sum of byte × position (k = 2)"
        }
        Scheme::Djb2Fnv => {
            "the 16-bit double-hashing filter: djb2 and FNV-1a give 3 positions (k = 3)"
        }
        Scheme::Murmur3 => "the 100-bit murmur3 filter: MurmurHash3 with seeds 0 to 9 (k = 10)",
    }
}

/// The filter a scheme is taught with, named by what it is: `the 64-bit byte-sum filter`.
pub fn filter_name(scheme: Scheme) -> &'static str {
    match scheme {
        Scheme::ByteSum => "the 64-bit byte-sum filter",
        Scheme::Djb2Fnv => "the 16-bit double-hashing filter",
        Scheme::Murmur3 => "the 100-bit murmur3 filter",
    }
}

/// A few more sentences about one command, one paragraph each: a terminal wraps them at
/// its width.
fn details(verb: Verb) -> &'static [&'static str] {
    match verb {
        Verb::Add => &[
            "Hashes the key to k positions and sets the bit at each one to 1. Bits only ever go \
             from 0 to 1, so nothing an ADD does can be undone.",
            "The key is every byte after the first space: `ADD hello world` adds `hello world`.",
        ],
        Verb::Check => &[
            "Hashes the key to the same k positions that ADD would use. If any of those bits is \
             0 the key was never added: NO, and NO is always right.",
            "If all are 1 the answer is MAYBE: the key was probably added, but other keys may \
             have set those bits. A MAYBE for a key never added is a false positive.",
        ],
        Verb::Remove => &[
            "A plain Bloom filter cannot remove a key. Two keys can share a bit: clearing the \
             bits of one key could clear a bit another key needs, and CHECK would then answer NO \
             for a key that was added: a false negative. CLEAR empties the whole filter instead.",
            "A counting filter (start the tutor with --counting, or make `# filter: counting=4` \
             the first line of a script) keeps a counter at each \
             position: ADD adds 1 to each of the key's counters, REMOVE subtracts 1, and a bit \
             is 1 while its counter is above 0. REMOVE is refused when a counter is 0: that key \
             cannot have been added. But a key that only looks added (a false positive) is \
             removed all the same, and takes counts other keys need: they may answer NO.",
            "A full counter stays full, so a saturated counter never comes down.",
        ],
        Verb::Bits => &["Prints the whole filter as 0s and 1s on one line, bit 0 on the left."],
        Verb::Counts => &[
            "Prints each counter of a counting filter as a number, separated by spaces, \
             position 0 first. BITS prints a 1 wherever a counter is above 0.",
        ],
        Verb::Explain => &[
            "Shows the key's bytes, the arithmetic that turns them into positions, whether each \
             bit is set and which key set it, and what CHECK would answer.",
        ],
        Verb::Stats => &[
            "Counts the keys added and the bits set, X, then gives the chance of a false \
             positive two ways.",
            "(X/m)^k, from the fill: a key never added is a false positive when all k of its \
             positions land on set bits, and a position that falls at random lands on one with \
             chance X/m.",
            "(1 - e^(-kn/m))^k, the textbook, from the n keys added: each of the k*n \
             positions misses a given bit with chance (1 - 1/m), so a bit is still 0 with \
             chance (1 - 1/m)^(kn), about e^(-kn/m). It is smallest when k is (m/n)*ln(2), \
             the k that leaves about half the bits 0.",
            "-(m/k)*ln(1 - X/m) estimates the keys from the fill: it is m(1 - e^(-kn/m)), the \
             bits set to expect after n keys, solved for n.",
            "Both chances assume a key's positions are independent, each falling at random. \
             Byte sums are not: every rearrangement of a key shares its h1, and in a large \
             filter the sums reach only the first bits, so the byte-sum filter's real rate is \
             far higher (the hash-quality lesson measures it).",
            "A saved filter holds no keys, only its count of ADDs: after LOAD or UNION, STATS \
             counts what the files recorded plus the ADDs, less REMOVEs, run on this filter; \
             after INTERSECT it knows only a \
             bound, so it leaves the textbook chance out.",
        ],
        Verb::Clear => &[
            "Sets every bit back to 0. A plain Bloom filter cannot remove one key, because that \
             key's bits may be the same bits another key needs.",
        ],
        Verb::Save => &[
            "Writes the filter's shape, its bits or counters and its count of ADDs to the \
             file, with a checksum, through a temporary file and a rename: a failed save \
             leaves the old file. The keys are not saved. The file is named relative to the \
             current folder and stays inside it, symbolic links too; an existing file is \
             replaced only if it is a saved filter, and never a device or a folder.",
        ],
        Verb::Load => &[
            "Replaces the filter with the one saved in the file, inside the current folder as \
             for SAVE. A missing, truncated, corrupt or foreign file, or one too large for the \
             memory there is, is refused and the filter is unchanged. A saved filter holds no \
             keys, so after LOAD the tutor no longer knows which keys were added.",
        ],
        Verb::Union => &[
            "ORs the bits of a saved filter of the same scheme, size, k and counting into \
             this one (a counting filter adds the counters): exactly the filter that adding \
             both sets of keys would give.",
        ],
        Verb::Intersect => &[
            "ANDs the bits of a saved filter of the same shape into this one (a counting \
             filter keeps the smaller counter). Bits set by different keys in each filter \
             survive, so the result may answer MAYBE for keys that are not in both sets.",
        ],
        Verb::Help => &["`HELP CHECK` says more about CHECK, and so on for each command."],
        Verb::Quit => {
            &["Ctrl-D at an empty prompt leaves too; Ctrl-C only drops the line you were typing."]
        }
    }
}

/// The help for `topic` (a command word), or the list of every command. Lines without a
/// line ending; the topic is shown escaped.
pub fn text(topic: Option<&[u8]>) -> Vec<String> {
    match topic {
        None => overview(),
        Some(word) => match Verb::from_word(word.trim_ascii()) {
            Some(verb) => {
                let (usage, line) = summary(verb);
                let mut lines = vec![format!("{usage}: {line}")];
                lines.extend(details(verb).iter().map(|s| format!("  {s}")));
                lines
            }
            None => {
                let mut lines = vec![format!(
                    "no help for `{}`; the commands are:",
                    escape_prefix(word)
                )];
                lines.extend(overview().into_iter().skip(1));
                lines
            }
        },
    }
}

fn overview() -> Vec<String> {
    let mut lines =
        vec!["Commands (any case; the key is everything after the first space):".to_string()];
    for verb in Verb::ALL {
        let (usage, line) = summary(verb);
        lines.push(format!("  {usage:<15} {line}"));
    }
    let tutor = crate::invoked::tutor();
    lines.push("From the shell:".to_string());
    lines.push(format!(
        "  `{tutor} lesson` teaches Bloom filters step by step"
    ));
    lines.push(format!("  `{tutor} exercise` sets a program to write"));
    lines.push(format!("  `{tutor} grade -- PROGRAM` checks it"));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overview_lists_every_command() {
        let text = text(None).join("\n");
        for verb in Verb::ALL {
            assert!(text.contains(verb.word()), "help does not mention {verb}");
        }
    }

    #[test]
    fn topic_help_is_case_insensitive() {
        assert!(text(Some(b"check"))[0].starts_with("CHECK key:"));
        assert!(text(Some(b"nope"))[0].starts_with("no help for `nope`"));
    }
}
