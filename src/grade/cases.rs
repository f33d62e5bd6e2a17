//! The built-in cases: short scripts that each test one thing the exercise asks for.

/// One case: a name, what it checks, and its script (uppercase commands, LF, UTF-8 keys).
#[derive(Debug, Clone)]
pub struct Case {
    pub name: &'static str,
    pub checks: &'static str,
    pub script: String,
}

fn case(name: &'static str, checks: &'static str, lines: &[&str]) -> Case {
    let mut script = lines.join("\n");
    script.push('\n');
    Case {
        name,
        checks,
        script,
    }
}

/// Every built-in case, in the order they run.
pub fn all() -> Vec<Case> {
    let fruit = [
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
    let saturation: Vec<String> = fruit
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
    let long_a = "a".repeat(300);
    let long_mixed: String = "the quick brown fox jumps over the lazy dog ".repeat(8);
    let add_a = format!("ADD {long_a}");
    let check_a = format!("CHECK {long_a}");
    let check_a2 = format!("CHECK {}b", long_a);
    let add_mixed = format!("ADD {long_mixed}");
    let check_mixed = format!("CHECK {long_mixed}");
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
            &[
                "ADD fig",
                "CHECK gif",
                "CHECK ifg",
                "ADD stop",
                "CHECK pots",
                "CHECK tops",
                "BITS",
            ],
        ),
        case(
            "h2-weights",
            "h2 weights the first byte by 1, the second by 2, and so on",
            &["ADD z", "ADD ab", "BITS", "CHECK ba", "CHECK az"],
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
            ],
        ),
        case(
            "spaces-in-keys",
            "the key is everything after the first space: hello world is one key",
            &[
                "ADD hello world",
                "BITS",
                "CHECK hello world",
                "CHECK hello",
                "CHECK world",
                "CHECK helloworld",
            ],
        ),
        case(
            "leading-space-key",
            "a second space belongs to the key: `ADD  fig` adds ` fig`",
            &["ADD  fig", "BITS", "CHECK  fig", "CHECK fig"],
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
            "long-keys",
            "keys of hundreds of bytes, where the sums grow large",
            &[
                &add_a,
                &add_mixed,
                "BITS",
                &check_a,
                &check_a2,
                &check_mixed,
            ],
        ),
        case(
            "saturation",
            "forty keys fill most of the 64 bits, and false positives follow",
            &saturation,
        ),
        case(
            "checks-before-adds",
            "CHECK before any ADD, then again after",
            &["CHECK fig", "ADD fig", "CHECK fig", "CHECK plum", "BITS"],
        ),
    ]
}

/// The case called `name`.
pub fn find(name: &str) -> Option<Case> {
    all().into_iter().find(|c| c.name == name)
}
