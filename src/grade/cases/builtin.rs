//! The built-in cases of each filter's exercise: the text's worked example, then cases
//! built to tell each typical mistake from a correct program.

use super::Case;
use crate::engine::scheme::{self, FilterSpec, Scheme};

/// A case from its lines (each gets a newline).
fn case(name: &str, checks: &str, lines: &[&str]) -> Case {
    let mut script = Vec::new();
    for line in lines {
        script.extend_from_slice(line.as_bytes());
        script.push(b'\n');
    }
    Case::new(name, checks, script)
}

/// Every built-in case of the exercise on a filter of shape `spec`, in the order they run.
pub fn all(spec: FilterSpec) -> Vec<Case> {
    let mut cases = match spec.scheme() {
        Scheme::ByteSum => bytesum(spec),
        Scheme::Djb2Fnv => djb2_fnv(spec),
        Scheme::Murmur3 => murmur3(spec),
    };
    cases.extend(shared(spec));
    cases
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
        case(
            "trailing-space-keys",
            "spaces and tabs at the end of a key belong to it: \"fig \" is not \"fig\"",
            &[
                "ADD fig ",
                "BITS",
                "CHECK fig",
                "CHECK fig ",
                "ADD kiwi\t",
                "CHECK kiwi",
                "CHECK kiwi\t",
                "ADD date  ",
                "CHECK date",
                "BITS",
                "ADD to be ",
                "CHECK to be",
                "CHECK to",
                "BITS",
            ],
        ),
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
            "lesson-trace",
            "the worked example: fig, lime, date, BITS, plum and sun",
            &[
                "ADD fig",
                "ADD lime",
                "ADD date",
                "BITS",
                "CHECK plum",
                "CHECK sun",
            ],
        ),
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
            "keys with the same letters in another order: only h2 tells them apart",
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
            "intro-trace",
            "the worked example: cat, dog and bird, BITS, then sheep (a false \
             positive), cow and cat",
            &[
                "ADD cat",
                "ADD dog",
                "ADD bird",
                "BITS",
                "CHECK sheep",
                "CHECK cow",
                "CHECK cat",
            ],
        ),
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
            "keys whose step is the largest, m - 1, whose positions wrap past the end, and \
             whose b is a multiple of m",
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
    let (added, others) = (crate::worked::MURMUR3_ADDED, crate::worked::MURMUR3_OTHERS);
    let trace: Vec<String> = added
        .iter()
        .map(|k| format!("ADD {k}"))
        .chain(["BITS".to_string()])
        .chain(others.iter().map(|k| format!("CHECK {k}")))
        .collect();
    let trace: Vec<&str> = trace.iter().map(String::as_str).collect();
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
        case(
            "article-trace",
            "the worked example: 19 animals added, BITS, then 20 others checked \
             (sheep, shark, fish and elephant are false positives)",
            &trace,
        ),
        case(
            "negative-hashes",
            &format!(
                "keys whose murmur3 is negative as a signed 32-bit int: floor modulo {m} \
                 keeps the position in 0..{m}"
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
