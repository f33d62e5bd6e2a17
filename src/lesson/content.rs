//! The lessons themselves: steps of text, questions and the commands that show the answer.
//! Every number a question expects is computed by the same code the filter uses.

use super::answer::Expect;
use crate::engine::bloom::{Answer, Bloom, Merge};
use crate::engine::scheme::{FilterSpec, Scheme, byte_sums, djb2_fnv, floor_mod, murmur3_32};
use crate::engine::theory;
use crate::experiment::{Plan, measure};

/// One lesson: a filter to work on and the steps to go through.
#[derive(Debug, Clone)]
pub struct Lesson {
    pub name: &'static str,
    pub title: &'static str,
    pub spec: FilterSpec,
    pub steps: Vec<Step>,
}

/// One step: some text, commands run on the lesson's filter, and maybe a question.
#[derive(Debug, Clone, Default)]
pub struct Step {
    pub say: Vec<String>,
    /// Commands that change the lesson's filter, run (and shown) when the step starts.
    pub setup: Vec<String>,
    pub question: Option<Question>,
}

/// A question the learner answers before the tutor shows the result.
#[derive(Debug, Clone)]
pub struct Question {
    /// A stable id, for progress.
    pub id: &'static str,
    pub ask: String,
    pub expect: Expect,
    /// Hints, in order, for `hint`.
    pub hints: Vec<String>,
    /// Likely wrong answers, each with a hint aimed at the slip behind it.
    pub slips: Vec<(Expect, String)>,
    /// Commands run after the answer, to show it on the real filter (they change nothing).
    pub reveal: Vec<String>,
    /// What to take away, shown last.
    pub after: Vec<String>,
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

fn positions(spec: &FilterSpec, key: &str) -> Vec<u64> {
    let mut out = Vec::new();
    spec.positions(key.as_bytes(), &mut out);
    out
}

/// The arithmetic from bytes to positions (what EXPLAIN prints), then `closing` if any.
/// Steps before any ADD show this rather than EXPLAIN, whose bit states would all be 0.
fn arithmetic(spec: &FilterSpec, key: &str, closing: &str) -> Vec<String> {
    let key = key.as_bytes();
    let mut lines: Vec<String> =
        crate::render::commentary::derivation(spec, key, &spec.derivation(key))
            .into_iter()
            .map(|l| format!("  {l}"))
            .collect();
    if !closing.is_empty() {
        lines.push(closing.to_string());
    }
    lines
}

/// Every lesson, in order.
pub fn all() -> Vec<Lesson> {
    LESSONS.iter().map(|(_, make)| make()).collect()
}

/// A function that builds one lesson.
type MakeLesson = fn() -> Lesson;

/// Each lesson's name and the function that builds it: a lesson is built only when asked
/// for (hash-quality runs a small experiment to get its numbers).
const LESSONS: [(&str, MakeLesson); 4] = [
    ("basics", basics),
    ("sizing", sizing),
    ("hash-quality", hash_quality),
    ("deletion", deletion),
];

/// The lesson called `name`.
pub fn find(name: &str) -> Option<Lesson> {
    LESSONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, make)| make())
}

/// The lesson after `name`, if there is one.
pub fn next_after(name: &str) -> Option<Lesson> {
    let i = LESSONS.iter().position(|(n, _)| *n == name)?;
    LESSONS.get(i + 1).map(|(_, make)| make())
}

fn basics() -> Lesson {
    let spec = FilterSpec::lesson();
    let m = spec.bits() as u128;
    let (fig1, fig2) = byte_sums(b"fig");
    let fig = positions(&spec, "fig");
    let lime = positions(&spec, "lime");
    let (lime1, lime2) = byte_sums(b"lime");
    let (cafe1, _) = byte_sums("café".as_bytes());
    let cafe_chars: u32 = "café".chars().map(u32::from).sum();
    let sun = positions(&spec, "sun");
    let plum = positions(&spec, "plum");
    let date = positions(&spec, "date");
    let after_three: Vec<u64> = [&fig, &lime, &date]
        .into_iter()
        .flatten()
        .copied()
        .collect();
    let best_k = theory::best_hashes(9586.0, 1000.0);
    let bits_1pc = theory::bits_for(1000.0, 0.01);
    let n = |x: u128| x as f64;
    Lesson {
        name: "basics",
        title: "The main lesson: 64 bits, two hashes, NO and MAYBE",
        spec,
        steps: vec![
            Step {
                say: lines(
                    "A Bloom filter answers one question: have I seen this key before?\n\
                     It keeps no keys, only bits. This one has 64 bits, all 0 to start.\n\
                     ADD key sets a few of them; CHECK key looks at the same bits and answers\n\
                     NO (some bit is 0) or MAYBE (every bit is 1).",
                ),
                question: Some(Question {
                    id: "certain-answer",
                    ask: "One of the two answers is always right. Which one: NO or MAYBE?".into(),
                    expect: Expect::word(&["NO"]),
                    hints: vec![
                        "Think about a key that was never added. Could its bits all be 1 anyway?".into(),
                    ],
                    slips: vec![(
                        Expect::word(&["MAYBE"]),
                        "MAYBE can be wrong: other keys may have set every bit a new key needs. \
                         Which answer can that never happen to?"
                            .into(),
                    )],
                    reveal: vec![],
                    after: lines(
                        "A 0 bit proves the key was never added, so NO is certain.\n\
                         A MAYBE for a key never added is called a false positive.",
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: lines(
                    "Each key becomes two positions, computed from its bytes:\n\
                     \x20 h1 = the sum of the bytes, mod 64\n\
                     \x20 h2 = the sum of each byte times its position (1 for the first byte), mod 64\n\
                     The key fig is the bytes 102 105 103.",
                ),
                question: Some(Question {
                    id: "h1-fig",
                    ask: "What is h1 for fig?".into(),
                    expect: Expect::number(fig[0] as f64),
                    hints: vec![
                        "Add the bytes: 102 + 105 + 103.".into(),
                        format!("102 + 105 + 103 = {fig1}. Now take the remainder after dividing by 64."),
                    ],
                    slips: vec![(
                        Expect::number(n(fig1)),
                        format!("{fig1} is the sum. The position must be below 64: take {fig1} mod 64."),
                    )],
                    reveal: vec![],
                    after: vec![format!("h1 = {fig1} mod 64 = {}.", fig[0])],
                }),
                ..Step::default()
            },
            Step {
                say: vec![],
                question: Some(Question {
                    id: "h2-fig",
                    ask: "And h2 for fig? (102 105 103, weights 1, 2, 3)".into(),
                    expect: Expect::number(fig[1] as f64),
                    hints: vec![
                        "Multiply each byte by its position: 102*1 + 105*2 + 103*3.".into(),
                        format!("102*1 + 105*2 + 103*3 = {fig2}. Now mod 64."),
                    ],
                    slips: vec![
                        (
                            Expect::number(n(fig2)),
                            format!("{fig2} is the weighted sum. Take it mod 64."),
                        ),
                        (
                            Expect::number(n((fig2 - fig1) % m)),
                            "It looks like your weights started at 0, so the first byte added nothing. \
                             The first byte has weight 1."
                                .into(),
                        ),
                        (
                            Expect::number(n(fig2 - fig1)),
                            "It looks like your weights started at 0, and the mod is missing too. \
                             Weights are 1, 2, 3; then mod 64."
                                .into(),
                        ),
                    ],
                    reveal: vec![],
                    after: arithmetic(&spec, "fig", &format!(
                        "So ADD fig sets bits {} and {}. EXPLAIN fig shows this arithmetic at any prompt.",
                        fig[0], fig[1]
                    )),
                }),
                ..Step::default()
            },
            Step {
                say: lines("Your turn with a whole key. lime is the bytes 108 105 109 101."),
                question: Some(Question {
                    id: "lime-positions",
                    ask: "Which two positions does lime set? Type both numbers.".into(),
                    expect: Expect::positions(lime.clone()),
                    hints: vec![
                        format!("h1: 108 + 105 + 109 + 101 = {lime1}, then mod 64."),
                        format!("h2: 108*1 + 105*2 + 109*3 + 101*4 = {lime2}, then mod 64."),
                    ],
                    slips: vec![
                        (
                            Expect::positions([(lime1 % m) as u64, ((lime2 - lime1) % m) as u64]),
                            "h1 is right; for h2 the weights start at 1, not 0.".into(),
                        ),
                        (
                            Expect::positions([lime1 as u64, lime2 as u64]),
                            "Those are the sums; each position is the sum mod 64.".into(),
                        ),
                    ],
                    reveal: vec![],
                    after: arithmetic(&spec, "lime", ""),
                }),
                ..Step::default()
            },
            Step {
                say: lines(
                    "Keys are hashed as bytes, not letters. In UTF-8, é is two bytes: 195 169.\n\
                     So café is five bytes: 99 97 102 195 169.",
                ),
                question: Some(Question {
                    id: "h1-cafe",
                    ask: "What is h1 for café?".into(),
                    expect: Expect::number(positions(&spec, "café")[0] as f64),
                    hints: vec![format!("99 + 97 + 102 + 195 + 169 = {cafe1}, then mod 64.")],
                    slips: vec![
                        (
                            Expect::number(f64::from(cafe_chars % 64)),
                            "It looks like é counted as one character (233). Hash the bytes: é is 195 and 169."
                                .into(),
                        ),
                        (Expect::number(n(cafe1)), format!("{cafe1} is the sum; take it mod 64.")),
                    ],
                    reveal: vec![],
                    after: arithmetic(&spec, "café", "The bytes, not the letters: that is what every hash in the lessons adds up."),
                }),
                ..Step::default()
            },
            Step {
                say: lines("Now the tutor adds three keys to the lesson's filter:"),
                setup: vec!["ADD fig".into(), "ADD lime".into(), "ADD date".into()],
                question: Some(Question {
                    id: "bits-after-three",
                    ask: format!(
                        "fig set {} and {}, lime {} and {}, date {} and {}. Which bits are 1 now? \
                         Type the positions (or the whole 64-character BITS line).",
                        fig[0], fig[1], lime[0], lime[1], date[0], date[1]
                    ),
                    expect: Expect::positions(after_three.clone()),
                    hints: vec!["Every position any of the three keys set is 1; there are six.".into()],
                    slips: vec![],
                    reveal: vec!["BITS".into()],
                    after: lines("BITS prints bit 0 first, on the left."),
                }),
            },
            Step {
                say: vec![format!(
                    "plum was never added. It hashes to positions {} and {}.",
                    plum[0], plum[1]
                )],
                question: Some(Question {
                    id: "check-plum",
                    ask: "What does CHECK plum answer: NO or MAYBE?".into(),
                    expect: Expect::word(&["NO"]),
                    hints: vec![format!("Is bit {} one of the six that are set?", plum[0])],
                    slips: vec![(
                        Expect::word(&["MAYBE"]),
                        format!("MAYBE needs every bit set. Is bit {} set?", plum[0]),
                    )],
                    reveal: vec!["CHECK plum".into()],
                    after: vec![],
                }),
                ..Step::default()
            },
            Step {
                say: vec![format!(
                    "sun was never added either. It hashes to positions {} and {}.",
                    sun[0], sun[1]
                )],
                question: Some(Question {
                    id: "check-sun",
                    ask: "What does CHECK sun answer?".into(),
                    expect: Expect::word(&["MAYBE"]),
                    hints: vec![format!("Look at bits {} and {} in the BITS line.", sun[0], sun[1])],
                    slips: vec![(
                        Expect::word(&["NO"]),
                        format!(
                            "It was never added, but CHECK only sees bits. Are bits {} and {} set?",
                            sun[0], sun[1]
                        ),
                    )],
                    reveal: vec!["CHECK sun".into()],
                    after: lines(
                        "A false positive: date and lime happened to set exactly the bits sun needs.\n\
                         The filter cannot tell; only a real lookup can.",
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: lines(
                    "ADD only ever turns bits from 0 to 1. Nothing turns them back.",
                ),
                question: Some(Question {
                    id: "no-false-negatives",
                    ask: "After ADD fig, can any later ADDs make CHECK fig answer NO? (yes or no)".into(),
                    expect: Expect::word(&["no", "n"]),
                    hints: vec!["For NO, one of fig's bits would have to become 0 again.".into()],
                    slips: vec![(
                        Expect::word(&["yes", "y"]),
                        "For NO, a bit of fig's would have to go back to 0. Which command could do that?"
                            .into(),
                    )],
                    reveal: vec!["CHECK fig".into()],
                    after: lines(
                        "So a Bloom filter has no false negatives: an added key always answers MAYBE.",
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: vec![
                    format!(
                        "Why is there no REMOVE? The tutor adds sun for real now: its bits {} and {}",
                        sun[0], sun[1]
                    ),
                    "were already set, by date and lime.".into(),
                ],
                setup: vec!["ADD sun".into()],
                question: Some(Question {
                    id: "why-no-remove",
                    ask: format!(
                        "Suppose REMOVE date cleared date's bits, {} and {}. What would CHECK sun answer then?",
                        date[0], date[1]
                    ),
                    expect: Expect::word(&["NO"]),
                    hints: vec![format!(
                        "sun needs bit {}. What would clearing date's bits do to it?",
                        sun[0]
                    )],
                    slips: vec![(
                        Expect::word(&["MAYBE"]),
                        format!(
                            "sun needs bits {} and {}. Clearing date's bits clears {} as well.",
                            sun[0], sun[1], date[1]
                        ),
                    )],
                    reveal: vec!["EXPLAIN sun".into()],
                    after: lines(
                        "sun was added, yet it would answer NO: a false negative. Bits are shared\n\
                         between keys, so a plain Bloom filter cannot remove one. (CLEAR empties it all.)",
                    ),
                }),
            },
            Step {
                say: lines(
                    "Real filters are sized for their keys. With m bits and n keys, the best\n\
                     number of hashes is k = (m/n) * ln 2, rounded.",
                ),
                question: Some(Question {
                    id: "best-k",
                    ask: "For m = 9586 bits and n = 1000 keys, what is the best k?".into(),
                    expect: Expect::number(f64::from(best_k)),
                    hints: vec!["9586 / 1000 = 9.586, and ln 2 is about 0.693.".into()],
                    slips: vec![(
                        Expect::number(f64::from(best_k) - 1.0),
                        "9.586 * 0.693 = 6.64: round it to the nearest whole number, not down.".into(),
                    )],
                    reveal: vec![],
                    after: vec![],
                }),
                ..Step::default()
            },
            Step {
                say: lines(
                    "The bits needed for n keys at false-positive rate p are m = -n * ln(p) / (ln 2)^2.\n\
                     ln(0.01) is about -4.605 and (ln 2)^2 about 0.4805.",
                ),
                question: Some(Question {
                    id: "bits-for-one-percent",
                    ask: "How many bits hold 1000 keys at a 1% false-positive rate? (round up)".into(),
                    expect: Expect::about(bits_1pc, 2.0),
                    hints: vec!["1000 * 4.605 / 0.4805".into()],
                    slips: vec![(
                        Expect::about((1000.0 * 0.01f64.ln().abs() / std::f64::consts::LN_2).ceil(), 2.0),
                        "Divide by (ln 2)^2, about 0.4805, not by ln 2.".into(),
                    )],
                    reveal: vec![],
                    after: lines(
                        "About 9.6 bits per key for 1%: far less than storing the keys.\n\
                         `bloom-tutor calc` works these out for any n, p, m and k.",
                    ),
                }),
                ..Step::default()
            },
        ],
    }
}

fn sizing() -> Lesson {
    let spec =
        FilterSpec::new(Scheme::Djb2Fnv, None, None).unwrap_or_else(|_| FilterSpec::lesson());
    let (m, k) = (spec.bits(), spec.hashes());
    let p3 = theory::fp_textbook(3.0, m, k);
    let best = theory::best_hashes(m as f64, 3.0);
    let p3_best = theory::fp_textbook(3.0, m, best);
    let p6 = theory::fp_textbook(6.0, m, k);
    let bits_6 = theory::bits_for(6.0, 0.01);
    let one_decimal = |p: f64| (p * 1000.0).round() / 10.0;
    Lesson {
        name: "sizing",
        title: "Choosing m and k, on the intro's 16-bit filter",
        spec,
        steps: vec![
            Step {
                say: lines(
                    "This filter is small: m = 16 bits and k = 3 positions per key, from two\n\
                     hashes of the bytes (djb2 and FNV-1a). The tutor adds cat, dog and bird:",
                ),
                setup: vec!["ADD cat".into(), "ADD dog".into(), "ADD bird".into()],
                question: Some(Question {
                    id: "bits-set",
                    ask: "Run BITS if you like. How many of the 16 bits are set now?".into(),
                    expect: Expect::number(7.0),
                    hints: vec!["Type BITS and count the 1s.".into()],
                    slips: vec![(
                        Expect::number(9.0),
                        "3 keys times 3 positions is 9, but some positions are shared. Count the 1s.".into(),
                    )],
                    reveal: vec!["BITS".into()],
                    after: vec![],
                }),
            },
            Step {
                say: lines(
                    "The textbook rate after n keys is (1 - e^(-k*n/m))^k. Here k = 3, n = 3, m = 16:\n\
                     k*n/m = 0.5625 and e^(-0.5625) is about 0.570.",
                ),
                question: Some(Question {
                    id: "rate-n3",
                    ask: "What false-positive rate does the formula give, in percent? (one decimal)".into(),
                    expect: Expect::about((p3 * 1000.0).round() / 10.0, 0.25),
                    hints: vec!["1 - 0.570 = 0.430; cube it.".into()],
                    slips: vec![(
                        Expect::about(43.0, 0.5),
                        "0.430 is 1 - e^(-kn/m); the formula raises it to the power k = 3.".into(),
                    )],
                    reveal: vec!["STATS".into()],
                    after: vec![],
                }),
                ..Step::default()
            },
            Step {
                say: vec![],
                question: Some(Question {
                    id: "check-sheep",
                    ask: "sheep was never added. Does CHECK sheep answer NO or MAYBE? (EXPLAIN sheep may help)".into(),
                    expect: Expect::word(&["MAYBE"]),
                    hints: vec!["EXPLAIN sheep lists its three positions and whether each is set.".into()],
                    slips: vec![],
                    reveal: vec!["CHECK sheep".into()],
                    after: lines("A false positive: roughly the 8% chance the formula gave."),
                }),
                ..Step::default()
            },
            Step {
                say: lines("The best k for m bits and n keys is (m/n) * ln 2, rounded."),
                question: Some(Question {
                    id: "best-k-16",
                    ask: "For m = 16 and n = 3, what is the best k?".into(),
                    expect: Expect::number(f64::from(best)),
                    hints: vec!["16 / 3 = 5.33, times 0.693.".into()],
                    slips: vec![],
                    reveal: vec![],
                    after: vec![],
                }),
                ..Step::default()
            },
            Step {
                say: vec![],
                question: Some(Question {
                    id: "rate-best-k",
                    ask: format!(
                        "With that k = {best} instead of 3 (m = 16, n = 3), what rate does the formula give, in percent?"
                    ),
                    // Tight: the rate for k = 3 is only 0.2 points away.
                    expect: Expect::about(one_decimal(p3_best), 0.06),
                    hints: vec![format!(
                        "k*n/m = {best}*3/16; then (1 - e^(-k*n/m))^k."
                    )],
                    slips: vec![(
                        Expect::about(one_decimal(p3), 0.06),
                        "That is the rate for k = 3; put the new k into both places in the formula.".into(),
                    )],
                    reveal: vec![],
                    after: vec![format!(
                        "{:.1}% against {:.1}%: the best k helps, but only a little when there are few bits per key.",
                        one_decimal(p3_best),
                        one_decimal(p3)
                    )],
                }),
                ..Step::default()
            },
            Step {
                say: lines("Keep m = 16 and k = 3, and add three more keys:"),
                setup: vec!["ADD cow".into(), "ADD pig".into(), "ADD hen".into()],
                question: Some(Question {
                    id: "rate-n6",
                    ask: "With n = 6 now, what rate does the formula give, in percent?".into(),
                    expect: Expect::about(one_decimal(p6), 0.25),
                    hints: vec!["k*n/m = 3*6/16 = 1.125, and e^(-1.125) is about 0.325.".into()],
                    slips: vec![(
                        Expect::about(one_decimal(p3), 0.25),
                        "That is the rate for 3 keys; n is 6 now.".into(),
                    )],
                    reveal: vec!["STATS".into()],
                    after: vec![
                        format!(
                            "Twice the keys, {:.1} times the false positives: the filter fills up, and",
                            p6 / p3
                        ),
                        "a key never added finds all k of its bits set more and more often.".into(),
                    ],
                }),
            },
            Step {
                say: lines(
                    "Sizing turns it around: choose the rate, and get the bits.\n\
                     m = -n * ln(p) / (ln 2)^2, with ln(0.01) about -4.605 and (ln 2)^2 about 0.4805.",
                ),
                question: Some(Question {
                    id: "bits-for-six",
                    ask: "How many bits do 6 keys need for a 1% rate? (round up)".into(),
                    expect: Expect::about(bits_6, 1.0),
                    hints: vec!["6 * 4.605 / 0.4805".into()],
                    slips: vec![(
                        Expect::about((6.0 * 0.01f64.ln().abs() / std::f64::consts::LN_2).ceil(), 1.0),
                        "Divide by (ln 2)^2, about 0.4805, not by ln 2.".into(),
                    )],
                    reveal: vec![],
                    after: vec![format!(
                        "{bits_6} bits, about {:.1} per key, where this filter has 16 for all six.",
                        bits_6 / 6.0
                    ), "`bloom-tutor calc --items 6 --fp 1%` works it out, k included.".into()],
                }),
                ..Step::default()
            },
        ],
    }
}

fn hash_quality() -> Lesson {
    let spec = FilterSpec::lesson();
    let abc = positions(&spec, "abc");
    // The same measurement `bloom-tutor experiment` makes, small enough to run right here.
    let plan = Plan {
        items: 10_000,
        queries: 4_000,
        steps: 1,
        seed: 1,
    };
    let measured = |scheme: Scheme| {
        FilterSpec::new(scheme, Some(100_000), Some(2))
            .ok()
            .and_then(|spec| measure(&spec, plan, &mut |_| {}).last().copied())
            .map_or(0.0, |row| row.measured)
    };
    let (bytesum, murmur3) = (measured(Scheme::ByteSum), measured(Scheme::Murmur3));
    let theory = theory::fp_textbook(10_000.0, 100_000, 2);
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    // The intro's scheme on sheep, and the article's on dog, with the same functions the
    // filters use.
    let intro = FilterSpec::new(Scheme::Djb2Fnv, None, None).unwrap_or(spec);
    let sheep = positions(&intro, "sheep");
    let (a, b) = djb2_fnv(b"sheep");
    let step = u64::from(b) % (intro.bits() - 1) + 1;
    let dog = murmur3_32(b"dog", 0);
    let dog_truncated = i64::from(dog) % 100;
    Lesson {
        name: "hash-quality",
        title: "Why hash quality matters: byte sums against murmur3",
        spec,
        steps: vec![
            Step {
                say: lines(
                    "The formula assumes each key's positions look random. The lesson's byte sums\n\
                     are easy to compute by hand, but they are far from random.",
                ),
                question: Some(Question {
                    id: "anagram",
                    ask: format!(
                        "abc sets positions {} and {}. Which position does h1 give for cba?",
                        abc[0], abc[1]
                    ),
                    expect: Expect::number(abc[0] as f64),
                    hints: vec!["h1 adds the same bytes in another order.".into()],
                    slips: vec![],
                    reveal: vec!["EXPLAIN cba".into()],
                    after: lines(
                        "Same letters, same h1: only h2 tells anagrams apart. Real hashes mix every\n\
                         bit of every byte, so similar keys land far apart.",
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: vec![
                    "The intro's scheme computes two real hashes of the bytes once, a (djb2) and".into(),
                    "b (FNV-1a), and makes its k positions from them: (a + j*step) mod m for".into(),
                    "j = 0, 1, 2, with step = b mod (m-1) + 1.".into(),
                    format!("For sheep, a = {a} and step = {step}; m = 16, and position 0 is {}.", sheep[0]),
                ],
                question: Some(Question {
                    id: "double-hashing",
                    ask: "What is position 1 for sheep?".into(),
                    expect: Expect::number(sheep[1] as f64),
                    hints: vec![format!("({a} + 1*{step}) mod 16: add the step to a, then take mod 16.")],
                    slips: vec![(
                        Expect::number((u64::from(a) + step) as f64),
                        "Take the result mod 16, so it is a bit position from 0 to 15.".into(),
                    )],
                    reveal: vec![],
                    after: arithmetic(
                        &intro,
                        "sheep",
                        "Two good hashes stretched to k positions: this is how many real filters work.",
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: vec![
                    "The article uses murmur3, read as a signed 32-bit number, so it can be negative.".into(),
                    format!("With seed 0, murmur3 of dog is {dog}."),
                    "Python's % (floor modulo) always gives a result from 0 to m-1.".into(),
                ],
                question: Some(Question {
                    id: "floor-modulo",
                    ask: format!("What is {dog} mod 100, as Python computes it?"),
                    expect: Expect::number(floor_mod(dog, 100) as f64),
                    hints: vec![format!(
                        "The remainder of {dog} / 100 keeps its sign: {dog_truncated}. Floor modulo adds 100 to it."
                    )],
                    slips: vec![(
                        Expect::number(dog_truncated as f64),
                        format!(
                            "{dog_truncated} is what C, Java or Rust's % gives: the sign of the dividend. \
                             Python's result has the sign of 100: add 100."
                        ),
                    )],
                    reveal: vec![],
                    after: lines(
                        "A negative position would be outside the bits; the article's numbers depend\n\
                         on floor modulo, and so does the tutor's murmur3 scheme.",
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: vec![
                    "A byte sum is also a small number: a 10-byte key sums to about 1000, so in a".into(),
                    "filter of 100,000 bits h1 only ever reaches the first few thousand.".into(),
                    format!(
                        "The tutor just filled two filters of 100,000 bits with 10,000 keys: murmur3 gave {}",
                        pct(murmur3)
                    ),
                    format!("false positives, and the formula says {}.", pct(theory)),
                ],
                question: Some(Question {
                    id: "which-worse",
                    ask: "Which scheme do you expect to do far worse than the formula: bytesum or murmur3?".into(),
                    expect: Expect::word(&["bytesum", "byte sum", "byte sums"]),
                    hints: vec!["Which one can only reach a few of the bits?".into()],
                    slips: vec![],
                    reveal: vec![],
                    after: vec![
                        format!(
                            "The byte sums gave {}: {:.0} times the formula. See it yourself with",
                            pct(bytesum),
                            bytesum / theory
                        ),
                        "`bloom-tutor experiment -m 100000 -n 10000`, and add --svg to draw it.".into(),
                    ],
                }),
                ..Step::default()
            },
        ],
    }
}

/// Replays `commands` (ADD and REMOVE lines) on a new filter of shape `spec`, as the
/// lesson's own steps do, so its questions can ask about the counters they leave.
fn replay(spec: FilterSpec, commands: &[&str]) -> Bloom {
    let mut bloom = Bloom::new(spec);
    for line in commands {
        match line.split_once(' ') {
            Some(("ADD", key)) => bloom.add(key.as_bytes()),
            Some(("REMOVE", key)) => {
                // Only REMOVEs of keys whose counters allow it appear in the lesson.
                let _ = bloom.remove_each(key.as_bytes(), |_, _| {});
            }
            _ => {}
        }
    }
    bloom
}

/// The lesson's commands as the steps run them.
fn owned(commands: &[&str]) -> Vec<String> {
    commands.iter().map(|c| c.to_string()).collect()
}

fn deletion() -> Lesson {
    let plain = FilterSpec::lesson();
    // Two-bit counters fill after three ADDs, so saturation shows in a few steps.
    let spec = plain.with_counters(Some(2)).unwrap_or(plain);
    let (m, b) = (spec.bits(), u64::from(spec.counter_bits().unwrap_or(1)));
    let max = (1u64 << b) - 1;
    let at = |key: &str| positions(&spec, key);
    let (date, sun, fig, lime, plum) = (at("date"), at("sun"), at("fig"), at("lime"), at("plum"));
    let shared = date[1];
    // Each step's setup, in order: the questions are about the filter they leave.
    let s1 = ["ADD date", "ADD sun", "ADD fig"];
    let s2 = ["REMOVE date"];
    let s3 = ["REMOVE sun", "ADD date", "ADD lime"];
    let s4 = ["REMOVE sun"];
    let s5 = ["ADD fig", "ADD fig", "ADD fig"];
    let s6 = ["REMOVE fig", "REMOVE fig", "REMOVE fig", "REMOVE fig"];
    let upto = |steps: &[&[&str]]| replay(spec, &steps.concat());
    let after1 = upto(&[&s1]);
    let after2 = upto(&[&s1, &s2]);
    let after4 = upto(&[&s1, &s2, &s3, &s4]);
    let after5 = upto(&[&s1, &s2, &s3, &s4, &s5]);
    let after6 = upto(&[&s1, &s2, &s3, &s4, &s5, &s6]);
    let word = |a: Answer| match a {
        Answer::No => "NO",
        Answer::Maybe => "MAYBE",
    };
    let not = |a: &str| if a == "NO" { "MAYBE" } else { "NO" };
    let sun_after_remove = word(after2.check(b"sun"));
    let date_after_trap = word(after4.check(b"date"));
    let wrong_now = ["fig", "date", "lime"]
        .iter()
        .filter(|k| after4.check(k.as_bytes()) == Answer::No)
        .count();
    let fig_full = u64::from(after5.value(fig[0]));
    let fig_after_removes = word(after6.check(b"fig"));
    // UNION and INTERSECT on filters built here, with the filter's own merge.
    let plain_of = |keys: &[&str]| {
        let mut bloom = Bloom::new(plain);
        for key in keys {
            bloom.add(key.as_bytes());
        }
        bloom
    };
    let mut union = plain_of(&["fig"]);
    let _ = union.merge(&plain_of(&["lime"]), Merge::Union);
    let union_bits: Vec<u64> = (0..m).filter(|&p| union.bit(p) == Some(true)).collect();
    let mut meet = plain_of(&["date", "lime"]);
    let _ = meet.merge(&plain_of(&["sun"]), Merge::Intersect);
    let sun_in_meet = word(meet.check(b"sun"));
    Lesson {
        name: "deletion",
        title: "Taking keys out: a counting filter, its trap, and keeping a filter",
        spec,
        steps: vec![
            Step {
                say: vec![
                    format!(
                        "A plain Bloom filter cannot remove a key: date sets bits {} and {}, sun sets {} and {},",
                        date[0], date[1], sun[0], sun[1]
                    ),
                    format!(
                        "so clearing date's bits would clear bit {shared}, which sun needs too."
                    ),
                    "A counting filter keeps a small counter at each position instead of a bit.".into(),
                    "ADD adds 1 to each of the key's counters, REMOVE subtracts 1, and CHECK".into(),
                    "answers MAYBE when all of the key's counters are above 0.".into(),
                    format!(
                        "This lesson's filter has {m} counters of {b} bits. The tutor adds date, sun and fig:"
                    ),
                ],
                setup: owned(&s1),
                question: Some(Question {
                    id: "shared-counter",
                    ask: format!("What is counter {shared} now?"),
                    expect: Expect::number(f64::from(after1.value(shared))),
                    hints: vec![format!(
                        "Which of date and sun count at position {shared}? Each ADD adds 1."
                    )],
                    slips: vec![(
                        Expect::number(1.0),
                        format!(
                            "1 is what a bit would say. A counter adds 1 for each key: date and sun both reach {shared}."
                        ),
                    )],
                    reveal: vec!["COUNTS".into()],
                    after: lines(
                        "BITS still shows a 1 wherever a counter is above 0, so every CHECK answers\n\
                         as it would in a plain filter with the same keys.",
                    ),
                }),
            },
            Step {
                say: vec![format!(
                    "Now the tutor removes date: counters {} and {} go down by 1.",
                    date[0], date[1]
                )],
                setup: owned(&s2),
                question: Some(Question {
                    id: "check-after-remove",
                    ask: "What does CHECK sun answer now: NO or MAYBE?".into(),
                    expect: Expect::word(&[sun_after_remove]),
                    hints: vec![format!(
                        "sun needs counters {} and {}. What is counter {shared} after one of its two keys left?",
                        sun[0], sun[1]
                    )],
                    slips: vec![(
                        Expect::word(&[not(sun_after_remove)]),
                        format!(
                            "Counter {shared} counted two keys; REMOVE date took only date's count away."
                        ),
                    )],
                    reveal: vec!["CHECK sun".into(), "CHECK date".into(), "REMOVE plum".into()],
                    after: vec![
                        "sun keeps its count: the counter remembers that two keys needed it.".into(),
                        format!(
                            "REMOVE plum is refused: plum's counter {} is 0, so plum cannot have been added.",
                            plum[0]
                        ),
                    ],
                }),
            },
            Step {
                say: lines(
                    "A counting filter cannot tell a key it holds from a false positive. The tutor\n\
                     takes sun out and adds date and lime, the main lesson's keys:",
                ),
                setup: owned(&s3),
                question: Some(Question {
                    id: "the-trap",
                    ask: format!(
                        "sun is out of the filter now, yet CHECK sun says MAYBE: date and lime cover {} and {}. \
                         If you REMOVE sun anyway, what will CHECK date answer?",
                        sun[0], sun[1]
                    ),
                    expect: Expect::word(&[date_after_trap]),
                    hints: vec![format!(
                        "REMOVE sun takes 1 from counters {} and {}. What is counter {shared}, which date needs?",
                        sun[0], sun[1]
                    )],
                    slips: vec![(
                        Expect::word(&[not(date_after_trap)]),
                        format!(
                            "Counter {shared} holds 1, date's own count. REMOVE sun takes it to 0."
                        ),
                    )],
                    reveal: vec![],
                    after: vec![],
                }),
            },
            Step {
                say: lines("The tutor removes sun, as a counting filter would:"),
                setup: owned(&s4),
                question: Some(Question {
                    id: "false-negatives",
                    ask: "fig, date and lime were added. How many of them does CHECK answer NO for now?".into(),
                    expect: Expect::number(wrong_now as f64),
                    hints: vec!["Look at the note after REMOVE sun: which keys lost a count?".into()],
                    slips: vec![(
                        Expect::number(0.0),
                        "A Bloom filter never says NO for a key it holds, unless a REMOVE took that key's count."
                            .into(),
                    )],
                    reveal: vec!["CHECK date".into(), "CHECK lime".into(), "CHECK fig".into()],
                    after: lines(
                        "False negatives: the one thing a Bloom filter promised never to give.\n\
                         A counting filter is only as right as its REMOVEs: remove only keys you know were added.",
                    ),
                }),
            },
            Step {
                say: vec![
                    format!("A counter of {b} bits holds 0 to {max}. The tutor adds fig three more times:"),
                ],
                setup: owned(&s5),
                question: Some(Question {
                    id: "saturated",
                    ask: format!(
                        "fig was added four times and counter {} is full at {fig_full}. If fig is now removed \
                         four times, what will CHECK fig answer?",
                        fig[0]
                    ),
                    expect: Expect::word(&[fig_after_removes]),
                    hints: vec![
                        "Once a counter is full, does it still know how many keys it counts?".into(),
                    ],
                    slips: vec![(
                        Expect::word(&[not(fig_after_removes)]),
                        "A full counter stays full: it no longer knows how many ADDs it lost, so REMOVE never lowers it."
                            .into(),
                    )],
                    reveal: vec![],
                    after: vec![],
                }),
            },
            Step {
                say: lines("The tutor removes fig four times:"),
                setup: owned(&s6),
                question: Some(Question {
                    id: "memory",
                    ask: format!(
                        "fig's counters stay at {max}: a saturated counter never comes down, so fig answers \
                         MAYBE for good. And the price of REMOVE: how many bits do {m} counters of {b} bits take?"
                    ),
                    expect: Expect::number((m * b) as f64),
                    hints: vec![format!("{m} counters times {b} bits each.")],
                    slips: vec![
                        (
                            Expect::number(m as f64),
                            format!("{m} bits is the plain filter: each counter here has {b} bits."),
                        ),
                        (
                            Expect::number((m * 4) as f64),
                            format!("{} bits is for 4-bit counters; these have {b}.", m * 4),
                        ),
                    ],
                    reveal: vec!["STATS".into()],
                    after: vec![format!(
                        "With the usual 4-bit counters (0 to 15) it is {} bits, 4 times a plain filter's {m}.",
                        m * 4
                    )],
                }),
            },
            Step {
                say: vec![
                    "A filter can also be kept. SAVE file writes its shape and its bits or counters to a".into(),
                    "file with a checksum, all or nothing; LOAD file reads it back. The file holds no keys,".into(),
                    "so after LOAD the tutor no longer knows which keys were added.".into(),
                    "UNION file ORs a saved filter of the same shape into this one.".into(),
                    format!(
                        "Filter A holds fig (bits {} and {}), filter B holds lime (bits {} and {}).",
                        fig[0], fig[1], lime[0], lime[1]
                    ),
                ],
                setup: vec![],
                question: Some(Question {
                    id: "union",
                    ask: "Which bits are 1 after A UNION B? Type the positions.".into(),
                    expect: Expect::positions(union_bits.clone()),
                    hints: vec!["A bit is 1 in the union if it is 1 in either filter.".into()],
                    slips: vec![],
                    reveal: vec![],
                    after: lines(
                        "The same bits ADD fig and ADD lime set in one filter: a union is the filter of\n\
                         both sets of keys. (The lesson does not touch files; try SAVE, LOAD and UNION\n\
                         at the `bloom-tutor` prompt.)",
                    ),
                }),
            },
            Step {
                say: vec![
                    "INTERSECT file keeps only the bits both filters have.".into(),
                    format!(
                        "Filter A holds date and lime (bits {}, {}, {}, {}); filter B holds sun (bits {} and {}).",
                        date[0], date[1], lime[0], lime[1], sun[0], sun[1]
                    ),
                ],
                setup: vec![],
                question: Some(Question {
                    id: "intersect",
                    ask: "sun is not in A. After A INTERSECT B, what does CHECK sun answer?".into(),
                    expect: Expect::word(&[sun_in_meet]),
                    hints: vec![format!(
                        "Are bits {} and {} 1 in A? In B?",
                        sun[0], sun[1]
                    )],
                    slips: vec![(
                        Expect::word(&[not(sun_in_meet)]),
                        format!(
                            "date set bit {} in A and lime set bit {}; sun set both in B. Both survive.",
                            sun[0], sun[1]
                        ),
                    )],
                    reveal: vec![],
                    after: lines(
                        "Bits set by different keys in each filter survive an intersection, so it can\n\
                         answer MAYBE for keys that are not in both sets: more false positives than a\n\
                         filter built from the common keys alone.",
                    ),
                }),
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basics_numbers_match_the_lesson_text() {
        let l = basics();
        let q = |id: &str| {
            l.steps
                .iter()
                .filter_map(|s| s.question.as_ref())
                .find(|q| q.id == id)
                .unwrap_or_else(|| panic!("no question {id}"))
                .clone()
        };
        assert!(q("h1-fig").expect.accepts("54"));
        assert!(q("h2-fig").expect.accepts("45"));
        assert!(q("lime-positions").expect.accepts("39 25"));
        assert!(q("bits-after-three").expect.accepts("22 25 30 39 45 54"));
        assert!(q("best-k").expect.accepts("7"));
        assert!(q("bits-for-one-percent").expect.accepts("9586"));
    }

    #[test]
    fn deletion_numbers_come_from_the_counting_filter() {
        let l = deletion();
        let q = |id: &str| {
            l.steps
                .iter()
                .filter_map(|s| s.question.as_ref())
                .find(|q| q.id == id)
                .unwrap_or_else(|| panic!("no question {id}"))
                .clone()
        };
        assert_eq!(l.spec.counter_bits(), Some(2));
        assert!(q("shared-counter").expect.accepts("2"));
        assert!(q("check-after-remove").expect.accepts("MAYBE"));
        assert!(q("the-trap").expect.accepts("NO"));
        assert!(q("false-negatives").expect.accepts("2"));
        assert!(q("saturated").expect.accepts("MAYBE"));
        assert!(q("memory").expect.accepts("128"));
        assert!(q("union").expect.accepts("25 39 45 54"));
        assert!(q("intersect").expect.accepts("MAYBE"));
    }

    #[test]
    fn no_slip_is_the_right_answer() {
        for lesson in all() {
            for q in lesson.steps.iter().filter_map(|s| s.question.as_ref()) {
                let right = q.expect.show();
                for (slip, _) in &q.slips {
                    assert!(
                        !slip.accepts(&right),
                        "{}: slip {slip:?} accepts the answer",
                        q.id
                    );
                }
                assert!(!q.hints.is_empty(), "{}: no hint", q.id);
            }
        }
    }

    #[test]
    fn lessons_are_found_by_their_own_names() {
        for (name, make) in LESSONS {
            assert_eq!(make().name, name);
        }
        assert_eq!(next_after("basics").map(|l| l.name), Some("sizing"));
        assert_eq!(next_after("hash-quality").map(|l| l.name), Some("deletion"));
        assert!(next_after("deletion").is_none());
    }

    #[test]
    fn question_ids_are_unique_in_each_lesson() {
        for lesson in all() {
            let mut ids: Vec<&str> = lesson
                .steps
                .iter()
                .filter_map(|s| s.question.as_ref())
                .map(|q| q.id)
                .collect();
            let n = ids.len();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), n, "{}", lesson.name);
        }
    }
}
