//! The built-in cases of each filter's exercise: the exercise's worked example (and the
//! lesson's, where it works through another), then cases built to tell each typical
//! mistake from a correct program.

use super::Case;
use crate::engine::bloom::{Answer, Bloom};
use crate::engine::scheme::{self, FilterSpec, Scheme};
use crate::invoked;
use crate::units::and_list;
use crate::worked;

/// A case from its lines (each gets a newline).
fn case(name: &str, checks: &str, lines: &[&str]) -> Case {
    let mut script = Vec::new();
    for line in lines {
        script.extend_from_slice(line.as_bytes());
        script.push(b'\n');
    }
    Case::new(name, checks, script)
}

/// A case from lines built at run time.
fn case_of(name: &str, checks: &str, lines: &[String]) -> Case {
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    case(name, checks, &lines)
}

/// Every built-in case of the exercise on a filter of shape `spec`, in the order they run.
pub fn all(spec: FilterSpec) -> Vec<Case> {
    let mut cases = vec![exercise_example(spec)];
    cases.extend(match spec.scheme() {
        Scheme::ByteSum => bytesum(spec),
        Scheme::Djb2Fnv => djb2_fnv(spec),
        Scheme::Murmur3 => murmur3(spec),
    });
    cases.extend(shared(spec));
    cases
}

/// The name of the case that is the exercise's worked example, in every filter.
pub const EXERCISE_EXAMPLE: &str = "exercise-example";

/// The exercise's worked example, exactly as `bloom-tutor exercise --example` prints it, so
/// that a learner who ran it by hand sees it pass by name.
fn exercise_example(spec: FilterSpec) -> Case {
    let scheme = spec.scheme();
    let (adds, checks) = worked::example(scheme);
    let tutor = invoked::tutor();
    let lesson = match worked::lesson_has_example(scheme) {
        true => format!(" (and of `{tutor} lesson {}`)", worked::lesson(scheme)),
        false => String::new(),
    };
    let described = format!(
        "the worked example of `{tutor} exercise{}`{lesson}: {} added, BITS, then {} \
         checked{}",
        invoked::scheme_flag(scheme),
        and_list(adds),
        and_list(checks),
        false_positives(spec, adds, checks)
    );
    case_of(
        EXERCISE_EXAMPLE,
        &described,
        &worked::example_script(scheme),
    )
}

/// Which of `checks` are false positives once `adds` are added to a filter of shape
/// `spec`, as a note to a case's description: ` (sun is a false positive)`, or nothing.
fn false_positives(spec: FilterSpec, adds: &[&str], checks: &[&str]) -> String {
    let mut bloom = Bloom::new(spec);
    for key in adds {
        bloom.add(key.as_bytes());
    }
    let found: Vec<&str> = checks
        .iter()
        .copied()
        .filter(|k| !adds.contains(k) && bloom.check(k.as_bytes()) == Answer::Maybe)
        .collect();
    match found.as_slice() {
        [] => String::new(),
        [one] => format!(" ({one} is a false positive)"),
        many => format!(" ({} are false positives)", and_list(many)),
    }
}

/// The first of `candidates` for which `fits` holds, or the first of them when none does
/// (on a filter so small that every key looks like any other).
fn first_that<'a>(candidates: &[&'a str], fits: impl Fn(&str) -> bool) -> &'a str {
    candidates
        .iter()
        .copied()
        .find(|c| fits(c))
        .unwrap_or(candidates[0])
}

/// Keys with spaces and tabs at their ends, each checked without them. Each key is chosen so
/// that the check without the spaces answers NO on this filter: a MAYBE there, by chance,
/// would read as if the spaces did not count, and a program that strips them would pass.
fn trailing_space_keys(spec: FilterSpec) -> Case {
    const WORDS: [&str; 12] = [
        "fig", "kiwi", "date", "lime", "plum", "pear", "sloe", "yuzu", "lemon", "mango", "olive",
        "peach",
    ];
    const PHRASES: [&str; 12] = [
        "to be",
        "as is",
        "so be it",
        "go on",
        "at last",
        "up to",
        "in time",
        "for now",
        "all in",
        "of course",
        "by and by",
        "on and on",
    ];
    let mut bloom = Bloom::new(spec);
    let mut lines: Vec<String> = Vec::new();
    let mut chosen: Vec<&str> = Vec::new();
    // A word with a space (shown by BITS), one with a tab, one with two spaces.
    for ending in [" ", "\t", "  "] {
        let word = first_that(&WORDS, |w| {
            let mut after = bloom.clone();
            after.add(format!("{w}{ending}").as_bytes());
            !chosen.contains(&w) && after.check(w.as_bytes()) == Answer::No
        });
        chosen.push(word);
        let key = format!("{word}{ending}");
        bloom.add(key.as_bytes());
        lines.push(format!("ADD {key}"));
        match ending {
            " " => {
                lines.push("BITS".into());
                lines.extend([format!("CHECK {word}"), format!("CHECK {key}")]);
            }
            "\t" => lines.extend([format!("CHECK {word}"), format!("CHECK {key}")]),
            _ => lines.extend([format!("CHECK {word}"), "BITS".into()]),
        }
    }
    // A key of two words and a space: neither the key without the space nor its first word
    // was added.
    let phrase = first_that(&PHRASES, |p| {
        let mut after = bloom.clone();
        after.add(format!("{p} ").as_bytes());
        let first = p.split(' ').next().unwrap_or(p);
        [p, first]
            .iter()
            .all(|k| after.check(k.as_bytes()) == Answer::No)
    });
    let first = phrase.split(' ').next().unwrap_or(phrase);
    lines.extend([
        format!("ADD {phrase} "),
        format!("CHECK {phrase}"),
        format!("CHECK {first}"),
        "BITS".into(),
    ]);
    let fig = chosen[0];
    case_of(
        "trailing-space-keys",
        &format!("spaces and tabs at the end of a key belong to it: \"{fig} \" is not \"{fig}\""),
        &lines,
    )
}

/// The cases every filter has.
fn shared(spec: FilterSpec) -> Vec<Case> {
    let long_a = "a".repeat(300);
    // Ends with a space, as each repetition does: a program that strips lines loses it.
    let long_mixed = "the quick brown fox jumps over the lazy dog ".repeat(8);
    let add_a = format!("ADD {long_a}");
    let check_a = format!("CHECK {long_a}");
    let check_a2 = format!("CHECK {long_a}b");
    let add_mixed = format!("ADD {long_mixed}");
    let check_mixed = format!("CHECK {long_mixed}");
    let check_mixed_trimmed = format!("CHECK {}", long_mixed.trim_end());
    let saturation_keys = [
        "apple",
        "banana",
        "cherry",
        "grape",
        "kiwi",
        "lemon",
        "mango",
        "melon",
        "olive",
        "peach",
        "pear",
        "plum",
        "quince",
        "berry",
        "guava",
        "papaya",
        "lychee",
        "orange",
        "apricot",
        "nectarine",
        "coconut",
        "durian",
        "jackfruit",
        "persimmon",
        "tangerine",
        "pomelo",
        "yuzu",
        "kumquat",
        "loquat",
        "medlar",
        "sloe",
        "rowan",
        "elder",
        "damson",
        "greengage",
        "mulberry",
        "salak",
        "longan",
        "rambutan",
        "feijoa",
    ];
    let saturation: Vec<String> = saturation_keys
        .iter()
        .map(|k| format!("ADD {k}"))
        .chain(["BITS".to_string()])
        .chain(
            ["fig", "sun", "moon", "star", "rock", "tree"]
                .iter()
                .map(|k| format!("CHECK {k}")),
        )
        .collect();
    let saturation: Vec<&str> = saturation.iter().map(String::as_str).collect();
    let m = spec.bits();
    vec![
        case(
            "empty-filter",
            "a new filter has every bit 0 and answers NO",
            &["BITS", "CHECK fig", "CHECK a"],
        ),
        case(
            "bits-order",
            "BITS prints bit 0 first",
            &["ADD a", "BITS", "ADD b", "BITS", "ADD ~~", "BITS"],
        ),
        case(
            "bytes-not-characters",
            "keys are hashed as UTF-8 bytes: café is 5 bytes, not 4 characters",
            &[
                "ADD café",
                "BITS",
                "CHECK café",
                "CHECK cafe",
                "ADD naïve",
                "CHECK naive",
                "BITS",
            ],
        ),
        case(
            "multibyte-keys",
            "keys of 2-, 3- and 4-byte characters",
            &[
                "ADD 漢字",
                "ADD ß",
                "ADD 🦀",
                "BITS",
                "CHECK 漢",
                "CHECK 🦀",
                "CHECK 字漢",
                "CHECK ss",
            ],
        ),
        case(
            "spaces-in-keys",
            "the key is everything after the first space: \"hello world\" is one key",
            &[
                "ADD hello world",
                "BITS",
                "CHECK hello world",
                "CHECK hello",
                "CHECK world",
                "CHECK helloworld",
                "ADD a b c",
                "CHECK a",
                "CHECK a b c",
            ],
        ),
        case(
            "leading-space-key",
            "a second space belongs to the key: `ADD  fig` adds \" fig\"",
            &["ADD  fig", "BITS", "CHECK  fig", "CHECK fig"],
        ),
        case(
            "long-keys",
            "keys of hundreds of bytes (the second ends with a space)",
            &[
                &add_a,
                &add_mixed,
                "BITS",
                &check_a,
                &check_a2,
                &check_mixed,
                &check_mixed_trimmed,
            ],
        ),
        trailing_space_keys(spec),
        case(
            "repeated-adds",
            "adding a key again changes nothing",
            &["ADD fig", "ADD fig", "ADD fig", "BITS", "CHECK fig"],
        ),
        case(
            "digits-and-punctuation",
            "keys of digits and punctuation are keys like any other",
            &[
                "ADD 12345",
                "ADD a-b_c!",
                "ADD #1",
                "BITS",
                "CHECK 54321",
                "CHECK a-b_c!",
                "CHECK #1",
                "CHECK 1",
            ],
        ),
        case(
            "saturation",
            &format!("forty keys fill most of the {m} bits, and false positives follow"),
            &saturation,
        ),
        case(
            "checks-before-adds",
            "CHECK before any ADD, then again after",
            &["CHECK fig", "ADD fig", "CHECK fig", "CHECK plum", "BITS"],
        ),
    ]
}

/// Anagrams and their added keys: the same script checks each filter's hashes of the same
/// bytes in another order.
const ANAGRAMS: [&str; 7] = [
    "ADD fig",
    "CHECK gif",
    "CHECK ifg",
    "ADD stop",
    "CHECK pots",
    "CHECK tops",
    "BITS",
];

/// The 64-bit byte-sum filter.
fn bytesum(_spec: FilterSpec) -> Vec<Case> {
    vec![
        case(
            "every-bit-needed",
            "CHECK answers MAYBE only when all of the key's bits are set",
            &[
                "ADD fig",
                "CHECK gif",
                "CHECK fig",
                "ADD date",
                "CHECK dune",
                "CHECK lime",
                "BITS",
            ],
        ),
        case(
            "anagrams",
            "keys with the same letters in another order: their h1 is the same, so only h2 can \
             tell them apart",
            &ANAGRAMS,
        ),
        case(
            "h2-weights",
            "h2 weights the first byte by 1, the second by 2, and so on",
            &["ADD z", "ADD ab", "BITS", "CHECK ba", "CHECK az"],
        ),
    ]
}

/// The first of `candidates` (`w0`, `w1`, ...) for which `test` holds: keys with a given
/// property, found with the engine's own hash functions.
fn key_where(prefix: &str, test: impl Fn(&[u8]) -> bool) -> String {
    (0..100_000)
        .map(|i| format!("{prefix}{i}"))
        .find(|k| test(k.as_bytes()))
        // Every property searched for holds for about one key in m or fewer.
        .unwrap_or_else(|| format!("{prefix}0"))
}

/// The 16-bit double-hashing filter: djb2-xor and FNV-1a.
fn djb2_fnv(spec: FilterSpec) -> Vec<Case> {
    let m = spec.bits();
    let k = u64::from(spec.hashes());
    // b a multiple of m: a step of b mod m would be 0, and every position the same.
    let zero = key_where("zero", |key| u64::from(scheme::djb2_fnv(key).1) % m == 0);
    // The largest step, m - 1: each position is one before the last, wrapping round.
    let largest = key_where("wrap", |key| {
        u64::from(scheme::djb2_fnv(key).1) % (m - 1) == m - 2
    });
    // a's first position near the end, so that the next ones wrap past m.
    let wraps = key_where("past", |key| {
        let (a, b) = scheme::djb2_fnv(key);
        let step = u64::from(b) % (m - 1) + 1;
        u64::from(a) % m + (k - 1) * step >= 2 * m
    });
    let add = |k: &str| format!("ADD {k}");
    let check = |k: &str| format!("CHECK {k}");
    let steps = [
        add(&zero),
        "BITS".to_string(),
        check(&largest),
        add(&largest),
        "BITS".to_string(),
        add(&wraps),
        "BITS".to_string(),
        check(&zero),
        check(&wraps),
        check("cat"),
    ];
    let steps: Vec<&str> = steps.iter().map(String::as_str).collect();
    vec![
        case(
            "short-keys",
            "keys of one and two bytes, where djb2 and FNV-1a stay below 2^32",
            &[
                "ADD a", "BITS", "ADD z", "BITS", "CHECK b", "CHECK ab", "CHECK az",
            ],
        ),
        case(
            "overflow-keys",
            "keys of five bytes and more, where both hashes pass 2^32 and wrap",
            &[
                "ADD giraffe",
                "BITS",
                "ADD elephant",
                "BITS",
                "CHECK hippopotamus",
                "CHECK elephants",
                "CHECK giraffe",
            ],
        ),
        case(
            "steps",
            &format!(
                "keys whose step is the largest ({}), whose positions wrap round past bit {}, \
                 and whose b is a multiple of {m}: there a step of b mod {m} would be 0, not \
                 b mod {} + 1, and put all {k} positions on one bit",
                m - 1,
                m - 1,
                m - 1
            ),
            &steps,
        ),
        case(
            "near-keys",
            "keys one letter apart, and anagrams",
            &[
                "ADD cat",
                "CHECK act",
                "CHECK tac",
                "CHECK bat",
                "CHECK cats",
                "ADD stop",
                "CHECK pots",
                "BITS",
            ],
        ),
    ]
}

/// The 100-bit murmur3 filter: murmur3 with seeds 0 to k - 1.
fn murmur3(spec: FilterSpec) -> Vec<Case> {
    let (added, others) = (worked::MURMUR3_ADDED, worked::MURMUR3_OTHERS);
    let lesson = format!(
        "the example of `{} lesson {}`: {} animals added, BITS, then {} others checked{}",
        invoked::tutor(),
        worked::lesson(Scheme::Murmur3),
        added.len(),
        others.len(),
        false_positives(spec, &added, &others)
    );
    // Keys whose hash with seed 0 is negative as a signed 32-bit int.
    let negative: Vec<String> = (0..)
        .map(|i| format!("neg{i}"))
        .filter(|k| scheme::murmur3_32(k.as_bytes(), 0) < 0)
        .take(3)
        .collect();
    let m = spec.bits();
    let lines = [
        format!("ADD {}", negative[0]),
        "BITS".to_string(),
        format!("ADD {}", negative[1]),
        "BITS".to_string(),
        format!("CHECK {}", negative[0]),
        format!("CHECK {}", negative[2]),
        "CHECK foo".to_string(),
    ];
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    vec![
        case_of("lesson-example", &lesson, &worked::script(&added, &others)),
        case(
            "negative-hashes",
            &format!(
                "keys whose murmur3 is negative as a signed 32-bit int: floor modulo {m} \
                 keeps each position from 0 to {}",
                m - 1
            ),
            &lines,
        ),
        case(
            "block-tails",
            "keys of 1 to 9 bytes: murmur3 reads 4-byte blocks, then a tail of 1 to 3 bytes",
            &[
                "ADD a",
                "ADD ab",
                "ADD abc",
                "BITS",
                "ADD abcd",
                "ADD abcde",
                "BITS",
                "CHECK abcdefgh",
                "CHECK abcdefghi",
                "CHECK abc",
            ],
        ),
        case(
            "anagrams",
            "keys with the same letters in another order",
            &ANAGRAMS,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::command::Command;

    /// The shapes the grader is tested on: each filter's own, and a teacher's variant of
    /// each.
    fn specs() -> Vec<FilterSpec> {
        let spec = |s, m, k| FilterSpec::new(s, m, k).expect("a valid spec");
        vec![
            spec(Scheme::ByteSum, None, None),
            spec(Scheme::Djb2Fnv, None, None),
            spec(Scheme::Murmur3, None, None),
            spec(Scheme::ByteSum, Some(100), None),
            spec(Scheme::Djb2Fnv, Some(100), Some(4)),
            spec(Scheme::Murmur3, Some(64), Some(3)),
        ]
    }

    /// Whether `checked` is `added` with different spaces: the same once the spaces and
    /// tabs at its ends are gone, one of its words, or the same words run together.
    fn spaced_differently(added: &str, checked: &str) -> bool {
        let joined = |s: &str| s.split_whitespace().collect::<String>();
        added != checked
            && (added.trim() == checked.trim()
                || added.split_whitespace().any(|w| w == checked)
                || joined(added) == joined(checked))
    }

    #[test]
    fn a_key_spaced_differently_from_one_added_answers_no() {
        // The cases about spaces in keys make their point with a NO: a MAYBE by chance
        // reads as if the spaces did not count.
        for spec in specs() {
            for case in all(spec) {
                let mut bloom = Bloom::new(spec);
                let mut added: Vec<String> = Vec::new();
                for line in case.script.split(|&b| b == b'\n') {
                    if let Ok(Some(Command::Add(key))) = Command::parse(line) {
                        bloom.add(key);
                        added.push(String::from_utf8_lossy(key).into_owned());
                    } else if let Ok(Some(Command::Check(key))) = Command::parse(line) {
                        let key = String::from_utf8_lossy(key).into_owned();
                        let like = added.iter().find(|a| spaced_differently(a, &key));
                        if let Some(like) = like.filter(|_| !added.contains(&key)) {
                            assert_eq!(
                                bloom.check(key.as_bytes()),
                                Answer::No,
                                "{spec}, case {}: CHECK {key:?} after ADD {like:?}",
                                case.name
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn trailing_space_keys_make_their_point_with_a_no() {
        for spec in specs() {
            let case = trailing_space_keys(spec);
            let answers = crate::grade::expected_answers(spec, &case.script);
            let answers = String::from_utf8(answers).expect("ASCII");
            // The CHECKs without the spaces answer NO; those of the keys as added, MAYBE.
            let words: Vec<&str> = answers
                .lines()
                .filter(|l| !l.starts_with(['0', '1']))
                .collect();
            assert_eq!(
                words,
                ["NO", "MAYBE", "NO", "MAYBE", "NO", "NO", "NO"],
                "{spec}"
            );
        }
    }

    #[test]
    fn the_exercise_example_is_the_exercises_own() {
        for scheme in Scheme::ALL {
            let spec = FilterSpec::new(scheme, None, None).expect("a valid spec");
            let case = &all(spec)[0];
            assert_eq!(case.name, EXERCISE_EXAMPLE);
            let want = worked::example_script(scheme).join("\n") + "\n";
            assert_eq!(String::from_utf8_lossy(&case.script), want, "{scheme}");
        }
    }

    #[test]
    fn no_case_names_a_text_the_learner_never_saw() {
        for spec in specs() {
            for case in all(spec) {
                let text = format!("{} {}", case.name, case.checks).to_lowercase();
                for word in ["intro", "article", "seed text", "the text"] {
                    assert!(
                        !text.contains(word),
                        "{spec}, {}: {}",
                        case.name,
                        case.checks
                    );
                }
            }
        }
    }

    #[test]
    fn descriptions_use_the_exercises_words_and_say_why() {
        let described = |scheme, m, name: &str| {
            let spec = FilterSpec::new(scheme, m, None).expect("a valid spec");
            let case = all(spec).into_iter().find(|c| c.name == name);
            case.expect("the case").checks
        };
        // The exercise: "the result is from 0 to 99 even for a negative hash".
        let negative = described(Scheme::Murmur3, None, "negative-hashes");
        assert!(negative.contains("from 0 to 99"), "{negative}");
        // What a b that is a multiple of m catches, and the rule it breaks, for any m.
        let steps = described(Scheme::Djb2Fnv, None, "steps");
        assert!(
            steps.contains("b mod 16 would be 0, not b mod 15 + 1"),
            "{steps}"
        );
        let steps = described(Scheme::Djb2Fnv, Some(100), "steps");
        assert!(
            steps.contains("b mod 100 would be 0, not b mod 99 + 1"),
            "{steps}"
        );
    }

    #[test]
    fn false_positives_are_named_from_the_filter() {
        let spec = FilterSpec::lesson();
        assert_eq!(
            false_positives(spec, &["fig", "lime", "date"], &["plum", "sun"]),
            " (sun is a false positive)"
        );
        assert_eq!(false_positives(spec, &["fig"], &["fig", "plum"]), "");
    }
}
