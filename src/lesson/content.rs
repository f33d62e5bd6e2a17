//! The lessons themselves: steps of text, questions and the commands that show the answer.
//! Every number a question expects is computed by the same code the filter uses.

mod double_hashing;
mod murmur3;

use super::answer::{Expect, FalsePositive};
use crate::engine::bloom::{Answer, Bloom, Merge};
use crate::engine::scheme::{FilterSpec, Scheme, byte_sums, murmur3_32};
use crate::engine::theory;
use crate::experiment::{Plan, measure};
use crate::invoked;
use crate::script::command::{Command, Verb};
use crate::units::{and_list, group};

/// One lesson: a filter to work on and the steps to go through.
#[derive(Debug, Clone)]
pub struct Lesson {
    pub name: &'static str,
    pub title: &'static str,
    pub spec: FilterSpec,
    pub steps: Vec<Step>,
    /// The filter whose exercise the lesson's end points at, if it teaches one whole.
    pub exercise: Option<Scheme>,
}

/// One step: some text, commands run on the lesson's filter, and maybe a question.
#[derive(Debug, Clone, Default)]
pub struct Step {
    pub say: Vec<String>,
    /// Commands that change the lesson's filter, run (and shown) when the step starts.
    pub setup: Vec<String>,
    /// Run the setup without showing it (many keys, listed in `say` instead).
    pub quiet: bool,
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
    pub slips: Vec<Slip>,
    /// Commands run after the answer, to show it on the real filter (they change nothing).
    /// `{answer}` stands for the answer given (or shown, after skip).
    pub reveal: Vec<String>,
    /// What to take away, shown last.
    pub after: Vec<String>,
    /// Commands that would show the answer: at this question they wait until it is answered.
    pub withheld: Withheld,
}

/// The commands that would give a question's answer away: any command on one of `keys`
/// (ADD, CHECK and REMOVE print the key's positions, EXPLAIN its arithmetic), and the
/// keyless `verbs` (BITS, STATS, COUNTS) that would show it.
#[derive(Debug, Clone, Default)]
pub struct Withheld {
    pub keys: Vec<String>,
    pub verbs: Vec<Verb>,
}

impl Withheld {
    /// Nothing is withheld: any command may help and none gives the answer.
    pub fn none() -> Withheld {
        Withheld::default()
    }

    /// Commands on these keys.
    pub fn keys(keys: &[&str]) -> Withheld {
        Withheld {
            keys: keys.iter().map(|k| k.to_string()).collect(),
            verbs: Vec::new(),
        }
    }

    /// These keyless commands.
    pub fn verbs(verbs: &[Verb]) -> Withheld {
        Withheld {
            keys: Vec::new(),
            verbs: verbs.to_vec(),
        }
    }

    /// These keyless commands, as well as those already withheld.
    pub fn and(mut self, verbs: &[Verb]) -> Withheld {
        self.verbs.extend_from_slice(verbs);
        self
    }

    /// Whether `cmd` would give the answer away.
    pub fn holds(&self, cmd: &Command<'_>) -> bool {
        match cmd.key() {
            Some(key) => self.keys.iter().any(|k| k.as_bytes() == key),
            None => self.verbs.contains(&cmd.verb()),
        }
    }
}

/// A likely wrong answer and what to say about it.
#[derive(Debug, Clone)]
pub struct Slip {
    pub expect: Expect,
    pub why: String,
    /// The hint `hint` shows next after this slip: the slip's message already says what the
    /// hints before it would (`310 is the sum` makes "add the bytes" needless).
    pub next_hint: Option<usize>,
}

/// A slip with its message.
fn slip(expect: Expect, why: impl Into<String>) -> Slip {
    Slip {
        expect,
        why: why.into(),
        next_hint: None,
    }
}

/// The slip of answering h2 where h1 was asked for: the method, not the answer.
fn h2_for_h1(h2: u64) -> Slip {
    slip(
        Expect::number(h2 as f64),
        format!(
            "{h2} is h2, which multiplies each byte by its place first. h1 just adds the bytes, \
             then takes mod 64."
        ),
    )
}

impl Slip {
    /// After this slip, `hint` goes on from hint number `n` (0 is the first).
    fn then_hint(mut self, n: usize) -> Slip {
        self.next_hint = Some(n);
        self
    }
}

/// Paragraphs from text written with line breaks for the source's sake: a line joins the one
/// before it unless it is indented (a formula, a command), so prose wraps to fit the screen.
fn lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        match out.last_mut() {
            Some(last) if !line.starts_with(' ') && !last.is_empty() && !last.starts_with(' ') => {
                last.push(' ');
                last.push_str(line);
            }
            _ => out.push(line.to_string()),
        }
    }
    out
}

/// A key's bytes as numbers: `102 105 103`.
fn bytes(key: &str) -> String {
    key.bytes()
        .map(|b| b.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A number with at most four decimals, without trailing zeros: `0.75`, `0.5625`.
fn dec(x: f64) -> String {
    let shown = format!("{x:.4}");
    shown
        .trim_end_matches('0')
        .trim_end_matches('.')
        .to_string()
}

/// A probability in percent with one decimal, as the lessons ask for it.
fn one_decimal(p: f64) -> f64 {
    (p * 1000.0).round() / 10.0
}

/// The first of `keys` whose positions include `bit`, the key that set it.
fn setter<'a>(spec: &FilterSpec, keys: &[&'a str], bit: u64) -> &'a str {
    keys.iter()
        .find(|k| positions(spec, k).contains(&bit))
        .copied()
        .unwrap_or("?")
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
const LESSONS: [(&str, MakeLesson); 6] = [
    ("basics", basics),
    ("double-hashing", double_hashing::lesson),
    ("murmur3", murmur3::lesson),
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

/// The first false positive a learner could find by hand on the byte-sum filter holding
/// `added`: every rearrangement of a key's bytes keeps its h1, so rearrange each added key
/// in turn and take the first rearrangement whose bits are all set. Returns the key
/// rearranged and the false positive; `None` if no rearrangement is one.
fn rearranged_false_positive(
    spec: &FilterSpec,
    added: &[&str],
    seen: &[&str],
) -> Option<(String, String)> {
    let mut bloom = Bloom::new(*spec);
    for key in added {
        bloom.add(key.as_bytes());
    }
    let found = |candidate: &str| {
        let known = added.contains(&candidate) || seen.contains(&candidate);
        !known && bloom.check(candidate.as_bytes()) == Answer::Maybe
    };
    // Better one whose h2 lands on another key's bit than one that only repeats its own.
    let own_bits = |key: &str, candidate: &str| {
        let mut a = positions(spec, key);
        let mut b = positions(spec, candidate);
        a.sort_unstable();
        b.sort_unstable();
        a == b
    };
    for fresh in [true, false] {
        for key in added {
            for candidate in rearrangements(key) {
                if found(&candidate) && (!fresh || !own_bits(key, &candidate)) {
                    return Some((key.to_string(), candidate));
                }
            }
        }
    }
    None
}

/// Every distinct order of `key`'s characters, in the order a person would list them
/// (by the positions of the characters taken, first to last).
fn rearrangements(key: &str) -> Vec<String> {
    fn walk(left: &[char], built: &mut String, out: &mut Vec<String>) {
        if left.is_empty() {
            if !out.contains(built) {
                out.push(built.clone());
            }
            return;
        }
        for i in 0..left.len() {
            let mut rest = left.to_vec();
            let c = rest.remove(i);
            built.push(c);
            walk(&rest, built, out);
            built.pop();
        }
    }
    let chars: Vec<char> = key.chars().collect();
    let mut out = Vec::new();
    walk(&chars, &mut String::new(), &mut out);
    out
}

fn basics() -> Lesson {
    let spec = FilterSpec::lesson();
    let m = spec.bits() as u128;
    let tutor = invoked::tutor();
    let (fig1, fig2) = byte_sums(b"fig");
    let fig = positions(&spec, "fig");
    let lime = positions(&spec, "lime");
    let (lime1, lime2) = byte_sums(b"lime");
    // h2 with the weights counted from the end: 108*4 + 105*3 + 109*2 + 101*1.
    let lime_reversed: u128 = b"lime"
        .iter()
        .rev()
        .zip(1u128..)
        .map(|(&b, w)| u128::from(b) * w)
        .sum();
    let (cafe1, _) = byte_sums("café".as_bytes());
    let cafe_chars: u32 = "café".chars().map(u32::from).sum();
    let sun = positions(&spec, "sun");
    let plum = positions(&spec, "plum");
    let date = positions(&spec, "date");
    let three = ["fig", "lime", "date"];
    let after_three: Vec<u64> = [&fig, &lime, &date]
        .into_iter()
        .flatten()
        .copied()
        .collect();
    let mut set_bits = after_three.clone();
    set_bits.sort_unstable();
    set_bits.dedup();
    // The challenge: a false positive found the way the give-up text explains.
    let found = rearranged_false_positive(&spec, &three, &["sun"]);
    let (found_from, found_key) = found.clone().unwrap_or_default();
    let found_positions = positions(&spec, &found_key);
    let from_positions = positions(&spec, &found_from);
    // What REMOVE date would clear under sun.
    let lost: Vec<u64> = sun.iter().copied().filter(|p| date.contains(p)).collect();
    let best_k = theory::best_hashes(9586.0, 1000.0);
    let bits_1pc = theory::bits_for(1000.0, 0.01);
    let n = |x: u128| x as f64;
    Lesson {
        name: "basics",
        title: "How a Bloom filter works, on the 64-bit byte-sum filter",
        spec,
        exercise: Some(Scheme::ByteSum),
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
                        "Think about a key that was never added: what can other keys' ADDs do to its bits?"
                            .into(),
                    ],
                    slips: vec![slip(
                        Expect::word(&["MAYBE"]),
                        "MAYBE can be wrong: other keys may have set every bit a new key needs. \
                         Which answer can that never happen to?",
                    )],
                    reveal: vec![],
                    withheld: Withheld::none(),
                    after: lines(
                        "A 0 bit proves the key was never added, so NO is certain.\n\
                         A MAYBE for a key never added is called a false positive.",
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: vec![
                    "Each key becomes two positions, computed from its bytes:".into(),
                    "  h1 = the sum of the bytes, mod 64".into(),
                    "  h2 = the sum of each byte times its place in the key (1 for the first), mod 64".into(),
                    format!("The key fig is the bytes {}.", bytes("fig")),
                ],
                question: Some(Question {
                    id: "h1-fig",
                    ask: "What is h1 for fig?".into(),
                    expect: Expect::number(fig[0] as f64),
                    hints: vec![
                        "Add the bytes: 102 + 105 + 103.".into(),
                        format!("102 + 105 + 103 = {fig1}. Now take the remainder after dividing by 64."),
                    ],
                    slips: vec![
                        slip(
                            Expect::number(n(fig1)),
                            format!("{fig1} is the sum. The position must be below 64: take {fig1} mod 64."),
                        )
                        .then_hint(1),
                        h2_for_h1(fig[1]),
                    ],
                    reveal: vec![],
                    withheld: Withheld::keys(&["fig"]),
                    after: vec![format!("h1 = {fig1} mod 64 = {}.", fig[0])],
                }),
                ..Step::default()
            },
            Step {
                say: lines(
                    "h2 weights each byte by its place in the key: the first byte times 1, the\n\
                     second times 2, the third times 3. Then it adds them up and takes mod 64,\n\
                     as h1 does.",
                ),
                question: Some(Question {
                    id: "h2-fig",
                    ask: "What is h2 for fig? (102 105 103)".into(),
                    expect: Expect::number(fig[1] as f64),
                    hints: vec![
                        "Multiply each byte by its place: 102*1 + 105*2 + 103*3.".into(),
                        format!("102*1 + 105*2 + 103*3 = {fig2}. Now mod 64."),
                    ],
                    slips: vec![
                        slip(
                            Expect::number(n(fig2)),
                            format!("{fig2} is the weighted sum. Take it mod 64."),
                        )
                        .then_hint(1),
                        slip(
                            Expect::number(fig[0] as f64),
                            format!(
                                "{} is h1, the plain sum. h2 multiplies each byte by its place \
                                 before adding.",
                                fig[0]
                            ),
                        ),
                        slip(
                            Expect::number(n((fig2 - fig1) % m)),
                            "It looks like your weights started at 0, so the first byte added \
                             nothing. The first byte has weight 1.",
                        ),
                        slip(
                            Expect::number(n(fig2 - fig1)),
                            "It looks like your weights started at 0, and the mod is missing too. \
                             Weights are 1, 2, 3; then mod 64.",
                        ),
                    ],
                    reveal: vec![],
                    withheld: Withheld::keys(&["fig"]),
                    after: arithmetic(&spec, "fig", &format!(
                        "So ADD fig sets bits {} and {}. At any question, EXPLAIN key shows this arithmetic \
                         for a key, unless it is the key the question asks about.",
                        fig[0], fig[1]
                    )),
                }),
                ..Step::default()
            },
            Step {
                say: vec![format!(
                    "Your turn with a whole key: lime is the bytes {}.",
                    bytes("lime")
                )],
                question: Some(Question {
                    id: "lime-positions",
                    ask: "Which two positions does lime get? Type both numbers.".into(),
                    expect: Expect::positions(lime.clone()),
                    hints: vec![
                        format!("h1: 108 + 105 + 109 + 101 = {lime1}, then mod 64."),
                        format!("h2: 108*1 + 105*2 + 109*3 + 101*4 = {lime2}, then mod 64."),
                    ],
                    // Wrong answers get a word on the method: the general feedback would
                    // name the missing position, which is the answer.
                    slips: vec![
                        slip(
                            Expect::positions([(lime1 % m) as u64, ((lime2 - lime1) % m) as u64]),
                            "h1 is right; for h2 the weights start at 1, not 0.",
                        ),
                        slip(
                            Expect::positions([lime1 as u64, lime2 as u64]),
                            "Those are the sums; each position is the sum mod 64.",
                        ),
                        slip(
                            Expect::positions([lime[0]]),
                            "That is h1, one of the two. Now h2: each byte times its place, \
                             added up, mod 64.",
                        ),
                        slip(
                            Expect::positions([lime[1]]),
                            "That is h2, one of the two. Now h1: the bytes added up, mod 64.",
                        ),
                        slip(
                            Expect::positions([lime[0], lime2 as u64]),
                            "h1 is right, and so is the weighted sum; take it mod 64 too.",
                        ),
                        slip(
                            Expect::positions([lime1 as u64, lime[1]]),
                            "h2 is right, and so is the sum of the bytes; take it mod 64 too.",
                        ),
                        slip(
                            Expect::positions([lime[0], (lime_reversed % m) as u64]),
                            "h1 is right. For h2 the first byte has weight 1 and the last \
                             weight 4, not the other way round.",
                        ),
                    ],
                    reveal: vec![],
                    withheld: Withheld::keys(&["lime"]),
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
                        slip(
                            Expect::number(f64::from(cafe_chars % 64)),
                            "It looks like é counted as one character (233). Hash the bytes: é is \
                             195 and 169.",
                        ),
                        slip(Expect::number(n(cafe1)), format!("{cafe1} is the sum; take it mod 64.")),
                        h2_for_h1(positions(&spec, "café")[1]),
                    ],
                    reveal: vec![],
                    withheld: Withheld::keys(&["café"]),
                    after: arithmetic(
                        &spec,
                        "café",
                        "The bytes, not the letters: every hash the tutor teaches works on the key's bytes.",
                    ),
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
                    hints: vec![format!(
                        "Every position any of the three keys set is 1; there are {}.",
                        set_bits.len()
                    )],
                    slips: vec![],
                    reveal: vec!["BITS".into()],
                    withheld: Withheld::verbs(&[Verb::Bits]),
                    after: lines("BITS prints bit 0 first, on the left."),
                }),
                ..Step::default()
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
                    slips: vec![slip(
                        Expect::word(&["MAYBE"]),
                        format!("MAYBE needs every bit set. Is bit {} set?", plum[0]),
                    )],
                    reveal: vec!["CHECK plum".into()],
                    withheld: Withheld::keys(&["plum"]),
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
                    slips: vec![slip(
                        Expect::word(&["NO"]),
                        format!(
                            "It was never added, but CHECK only sees bits. Are bits {} and {} set?",
                            sun[0], sun[1]
                        ),
                    )],
                    reveal: vec!["CHECK sun".into()],
                    withheld: Withheld::keys(&["sun"]),
                    after: vec![format!(
                        "A false positive: {} and {} happened to set exactly the bits sun needs. \
                         The filter cannot tell; only a real lookup can.",
                        setter(&spec, &three, sun[0]),
                        setter(&spec, &three, sun[1])
                    )],
                }),
                ..Step::default()
            },
            Step {
                say: vec![
                    format!(
                        "Now find a false positive of your own: a key never added that CHECK \
                         answers MAYBE. The filter holds fig, lime and date; the bits set are {}.",
                        and_list(&set_bits)
                    ),
                    "Try keys with CHECK key or EXPLAIN key as often as you like, then type \
                     the key alone as your answer. sun does not count: you have seen it."
                        .into(),
                ],
                question: Some(Question {
                    id: "own-false-positive",
                    ask: "Which key, never added, does CHECK answer MAYBE?".into(),
                    expect: Expect::FalsePositive(Box::new(FalsePositive {
                        spec,
                        added: three.iter().map(|k| k.to_string()).collect(),
                        seen: vec!["sun".into()],
                        example: found_key.clone(),
                    })),
                    hints: vec![
                        format!(
                            "A key needs both of its positions among the set bits. Guessing at \
                             random takes a while: with {} of 64 bits set, about 1 key in {:.0} \
                             works.",
                            set_bits.len(),
                            1.0 / theory::fp_from_fill(set_bits.len() as u64, 64, 2)
                        ),
                        "h1 only adds the bytes, so every rearrangement of a key's letters has \
                         the same h1. Rearrange an added key: its h1 is a set bit already."
                            .into(),
                        format!(
                            "{found_from} has h1 = {}. EXPLAIN each rearrangement of its letters \
                             and look for an h2 that is a set bit.",
                            from_positions.first().copied().unwrap_or(0)
                        ),
                    ],
                    slips: vec![],
                    reveal: vec!["CHECK {answer}".into()],
                    withheld: Withheld::none(),
                    after: vec![format!(
                        "How to find one on purpose: rearrange an added key's letters, which \
                         keeps h1, and look at h2. {found_from} has h1 = {}; of its \
                         rearrangements, {found_key} has h2 = {}, also a set bit. Real hashes \
                         mix the bytes, so this trick fails on them: there, finding a false \
                         positive takes many tries at random.",
                        from_positions.first().copied().unwrap_or(0),
                        found_positions.get(1).copied().unwrap_or(0)
                    )],
                }),
                ..Step::default()
            },
            Step {
                say: lines("ADD only ever turns bits from 0 to 1. Nothing turns them back."),
                question: Some(Question {
                    id: "no-false-negatives",
                    ask: "After ADD fig, can any later ADDs make CHECK fig answer NO? (yes or no)".into(),
                    expect: Expect::word(&["no", "n"]),
                    hints: vec!["For NO, one of fig's bits would have to become 0 again.".into()],
                    slips: vec![slip(
                        Expect::word(&["yes", "y"]),
                        "For NO, a bit of fig's would have to go back to 0. Which command could do that?",
                    )],
                    reveal: vec!["CHECK fig".into()],
                    withheld: Withheld::none(),
                    after: lines(
                        "So a Bloom filter has no false negatives: an added key always answers MAYBE.",
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: vec![format!(
                    "Why is there no REMOVE? The tutor adds sun for real now: its bits {} and {} \
                     were already set, by {} and {}.",
                    sun[0],
                    sun[1],
                    setter(&spec, &three, sun[0]),
                    setter(&spec, &three, sun[1])
                )],
                setup: vec!["ADD sun".into()],
                question: Some(Question {
                    id: "why-no-remove",
                    ask: format!(
                        "Suppose REMOVE date cleared date's bits, {} and {}. What would CHECK sun \
                         answer then?",
                        date[0], date[1]
                    ),
                    expect: Expect::word(&["NO"]),
                    hints: vec![format!(
                        "sun needs bit {}. What would clearing date's bits do to it?",
                        sun[0]
                    )],
                    slips: vec![slip(
                        Expect::word(&["MAYBE"]),
                        format!(
                            "sun needs bits {} and {}. Clearing date's bits clears {} as well.",
                            sun[0],
                            sun[1],
                            and_list(&lost)
                        ),
                    )],
                    reveal: vec![],
                    withheld: Withheld::none(),
                    after: vec![format!(
                        "With bit {} cleared, CHECK sun would answer NO, although sun was added: \
                         a false negative, the one mistake a Bloom filter must never make. Keys \
                         share bits, so a plain Bloom filter cannot remove one. (CLEAR empties \
                         it all.)",
                        and_list(&lost)
                    )],
                }),
                ..Step::default()
            },
            Step {
                say: lines(
                    "Real filters are sized for their keys. With m bits and n keys, the best\n\
                     number of hashes is k = (m/n) * ln(2), rounded. Why: more hashes check\n\
                     more bits for each key, but also fill the filter faster; the two balance\n\
                     when about half the bits are 1, and this k sets about half of them.",
                ),
                question: Some(Question {
                    id: "best-k",
                    ask: "For m = 9586 bits and n = 1000 keys, what is the best k?".into(),
                    expect: Expect::number(f64::from(best_k)),
                    hints: vec!["9586 / 1000 = 9.586, and ln(2) is about 0.693.".into()],
                    slips: vec![slip(
                        Expect::number(f64::from(best_k) - 1.0),
                        "9.586 * 0.693 = 6.64: round it to the nearest whole number, not down.",
                    )],
                    reveal: vec![],
                    withheld: Withheld::none(),
                    after: vec![],
                }),
                ..Step::default()
            },
            Step {
                say: lines(
                    "The bits needed for n keys at false-positive rate p are, rounded up:\n\
                     \x20 m = -n * ln(p) / ln(2)^2\n\
                     Why: with the best k about half the bits are 1, so p = (1/2)^k; put in\n\
                     k = (m/n) * ln(2) and solve for m. ln(0.01) is about -4.605, and ln(2)^2\n\
                     is about 0.4805.",
                ),
                question: Some(Question {
                    id: "bits-for-one-percent",
                    ask: "How many bits hold 1000 keys at a 1% false-positive rate? (round up)".into(),
                    // The lesson's constants (4.605 and 0.4805) give a little less than the exact value.
                    expect: Expect::rounded_up(bits_1pc, 1000.0 * 4.605 / 0.4805),
                    hints: vec!["1000 * 4.605 / 0.4805".into()],
                    slips: vec![slip(
                        Expect::about((1000.0 * 0.01f64.ln().abs() / std::f64::consts::LN_2).ceil(), 2.0),
                        "Divide by ln(2)^2, about 0.4805, not by ln(2).",
                    )],
                    reveal: vec![],
                    withheld: Withheld::none(),
                    after: vec![
                        format!(
                            "About {:.1} bits per key for 1%: far less than storing the keys.",
                            bits_1pc / 1000.0
                        ),
                        format!(
                            "`{tutor} calc --items 1000 --fp 1%` works it out, k included, and so \
                             for any n, p, m and k."
                        ),
                    ],
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
    let tutor = invoked::tutor();
    let three = ["cat", "dog", "bird"];
    let mut bloom = Bloom::new(spec);
    for key in three {
        bloom.add(key.as_bytes());
    }
    let set = bloom.bits_set();
    let dog = positions(&spec, "dog");
    let fill = theory::fp_from_fill(set, m, k);
    let p3 = theory::fp_textbook(3.0, m, k);
    let best = theory::best_hashes(m as f64, 3.0);
    let best_exact = m as f64 / 3.0 * std::f64::consts::LN_2;
    let p3_best = theory::fp_textbook(3.0, m, best);
    let p6 = theory::fp_textbook(6.0, m, k);
    let bits_6 = theory::bits_for(6.0, 0.01);
    let e = |kn: f64| (-kn / m as f64).exp();
    Lesson {
        name: "sizing",
        title: "Choosing m and k, on the 16-bit double-hashing filter",
        spec,
        exercise: None,
        steps: vec![
            Step {
                say: vec![format!(
                    "The 16-bit double-hashing filter again: m = {m} bits, k = {k} positions per \
                     key, each (a + j*step) mod {m} for j = 0, 1, 2. A position can repeat: \
                     dog's step is 8, so its positions are {}. The tutor adds cat, dog and bird:",
                    and_list(&dog)
                )],
                setup: three.iter().map(|key| format!("ADD {key}")).collect(),
                question: Some(Question {
                    id: "bits-set",
                    ask: format!("Run BITS if you like. How many of the {m} bits are set now?"),
                    expect: Expect::number(set as f64),
                    hints: vec!["Type BITS and count the 1s.".into()],
                    slips: vec![slip(
                        Expect::number(f64::from(k) * three.len() as f64),
                        "3 keys times 3 positions is 9, but some land on the same bit: dog's 9 \
                         comes twice. Count the 1s.",
                    )],
                    reveal: vec!["BITS".into()],
                    withheld: Withheld::none(),
                    after: vec![],
                }),
                ..Step::default()
            },
            Step {
                say: vec![format!(
                    "A key never added is a false positive when all {k} of its bits are set. \
                     With X of the m bits set, a position that falls at random lands on a set \
                     bit with chance X/m, so all k of them do with chance about (X/m)^k. Here X \
                     is {set}, m is {m} and k is {k}."
                )],
                question: Some(Question {
                    id: "rate-from-fill",
                    ask: "What is (X/m)^k, in percent? (one decimal)".into(),
                    expect: Expect::about(one_decimal(fill), 0.06),
                    hints: vec![format!(
                        "{set}/{m} = {:.4}; cube it, then times 100.",
                        set as f64 / m as f64
                    )],
                    slips: vec![slip(
                        Expect::about(one_decimal(set as f64 / m as f64), 0.06),
                        format!("That is X/m; raise it to the power k = {k}."),
                    )],
                    reveal: vec!["STATS".into()],
                    withheld: Withheld::verbs(&[Verb::Stats]),
                    after: vec![format!(
                        "STATS shows it too: ({set}/{m})^{k} = {fill:.4}, or {:.2}%.",
                        fill * 100.0
                    )],
                }),
                ..Step::default()
            },
            Step {
                say: vec![
                    "Before any key is added, a formula predicts the rate from n, the number of \
                     keys, alone:"
                        .into(),
                    "  (1 - e^(-k*n/m))^k".into(),
                    "Why: each of the k*n positions the keys set misses a given bit with chance \
                     (1 - 1/m), so a bit is still 0 with chance (1 - 1/m)^(k*n), which is about \
                     e^(-k*n/m); a key never added needs all k of its bits to be 1."
                        .into(),
                    format!(
                        "Here k*n/m = {k}*3/{m} = {}, and e^(-{}) is about {:.3}.",
                        dec(f64::from(k) * 3.0 / m as f64),
                        dec(f64::from(k) * 3.0 / m as f64),
                        e(f64::from(k) * 3.0)
                    ),
                ],
                question: Some(Question {
                    id: "rate-n3",
                    ask: "What rate does the formula give for n = 3, in percent? (one decimal)".into(),
                    expect: Expect::about(one_decimal(p3), 0.25),
                    hints: vec![
                        format!(
                            "1 - {:.3} = {:.3}; cube it.",
                            e(f64::from(k) * 3.0),
                            1.0 - e(f64::from(k) * 3.0)
                        ),
                        format!(
                            "{0:.3} * {0:.3} * {0:.3}, then times 100 for percent.",
                            1.0 - e(f64::from(k) * 3.0)
                        ),
                    ],
                    slips: vec![
                        slip(
                            Expect::about(one_decimal(1.0 - e(f64::from(k) * 3.0)), 0.5),
                            format!(
                                "{:.3} is 1 - e^(-kn/m); the formula raises it to the power k = {k}.",
                                1.0 - e(f64::from(k) * 3.0)
                            ),
                        )
                        .then_hint(1),
                        slip(
                            Expect::about(one_decimal(fill), 0.06),
                            "That is (X/m)^k from the bits set. The formula uses n, the number \
                             of keys, instead.",
                        ),
                    ],
                    reveal: vec![],
                    withheld: Withheld::verbs(&[Verb::Stats]),
                    after: vec![
                        format!(
                            "{:.1}% from the formula, {:.1}% from the bits set: close, as they \
                             should be. STATS shows both.",
                            one_decimal(p3),
                            one_decimal(fill)
                        ),
                        "STATS also goes the other way, from bits to keys: m * (1 - e^(-k*n/m)) \
                         is the number of bits set to expect, and -(m/k)*ln(1 - X/m) solves \
                         that for n, from the X bits set."
                            .into(),
                    ],
                }),
                ..Step::default()
            },
            Step {
                say: lines(
                    "The best k for m bits and n keys is (m/n) * ln(2), rounded. Why: more\n\
                     hashes check more bits for each key, but also fill the filter faster; the\n\
                     two balance when about half the bits are still 0, that is when\n\
                     e^(-k*n/m) = 1/2, and that k is (m/n) * ln(2).",
                ),
                question: Some(Question {
                    id: "best-k-16",
                    ask: format!("For m = {m} and n = 3, what is the best k?"),
                    expect: Expect::number(f64::from(best)),
                    hints: vec![format!("{m} / 3 = {:.2}, times 0.693.", m as f64 / 3.0)],
                    slips: vec![
                        slip(
                            Expect::about(best_exact, 0.05),
                            format!("{best_exact:.2} is right before rounding: k is a whole number."),
                        ),
                        slip(
                            Expect::number(f64::from(k)),
                            if f64::from(k) == best_exact.floor() {
                                format!(
                                    "{k} is the k this filter has now. Work out (m/n) * ln(2) for \
                                     m = {m} and n = 3, and round it to the nearest whole number \
                                     (not down)."
                                )
                            } else {
                                format!(
                                    "{k} is the k this filter has now. Work out (m/n) * ln(2) for \
                                     m = {m} and n = 3."
                                )
                            },
                        ),
                    ],
                    reveal: vec![],
                    withheld: Withheld::none(),
                    after: vec![],
                }),
                ..Step::default()
            },
            Step {
                say: vec![format!(
                    "Try that k in the formula: with k = {best}, n = 3 and m = {m}, \
                     k*n/m = {}, and e^(-{}) is about {:.3}.",
                    dec(f64::from(best) * 3.0 / m as f64),
                    dec(f64::from(best) * 3.0 / m as f64),
                    e(f64::from(best) * 3.0)
                )],
                question: Some(Question {
                    id: "rate-best-k",
                    ask: format!(
                        "With k = {best} instead of {k}, what rate does the formula give, in \
                         percent? (one decimal)"
                    ),
                    // Tight: the rate for k = 3 is only 0.2 points away. One decimal either
                    // side is accepted, as e^(-x) rounded to three decimals moves it so far.
                    expect: Expect::about(one_decimal(p3_best), 0.11),
                    hints: vec![format!(
                        "1 - {:.3} = {:.3}; raise it to the power {best}.",
                        e(f64::from(best) * 3.0),
                        1.0 - e(f64::from(best) * 3.0)
                    )],
                    slips: vec![slip(
                        Expect::about(one_decimal(p3), 0.06),
                        format!(
                            "That is the rate for k = {k}; put k = {best} into both places in the \
                             formula."
                        ),
                    )],
                    reveal: vec![],
                    withheld: Withheld::none(),
                    after: vec![format!(
                        "{:.1}% against {:.1}%: the best k helps, but only a little when there are \
                         few bits per key.",
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
                    ask: "With n = 6 now, what rate does the formula give, in percent? (one decimal)"
                        .into(),
                    expect: Expect::about(one_decimal(p6), 0.25),
                    hints: vec![format!(
                        "k*n/m = 3*6/16 = 1.125, and e^(-1.125) is about {:.3}.",
                        e(18.0)
                    )],
                    slips: vec![slip(
                        Expect::about(one_decimal(p3), 0.25),
                        "That is the rate for 3 keys; n is 6 now.",
                    )],
                    reveal: vec!["STATS".into()],
                    withheld: Withheld::verbs(&[Verb::Stats]),
                    after: vec![format!(
                        "Twice the keys, {:.1} times the false positives: the filter fills up, \
                         and a key never added finds all k of its bits set more and more often.",
                        p6 / p3
                    )],
                }),
                ..Step::default()
            },
            Step {
                say: lines(
                    "Sizing turns it around: choose the rate, and get the bits, rounded up:\n\
                     \x20 m = -n * ln(p) / ln(2)^2\n\
                     Why: with the best k half the bits are 1, so p = (1/2)^k; put in\n\
                     k = (m/n) * ln(2) and solve for m. ln(0.01) is about -4.605 and ln(2)^2\n\
                     about 0.4805.",
                ),
                question: Some(Question {
                    id: "bits-for-six",
                    ask: "How many bits do 6 keys need for a 1% rate? (round up)".into(),
                    expect: Expect::rounded_up(bits_6, 6.0 * 4.605 / 0.4805),
                    hints: vec!["6 * 4.605 / 0.4805".into()],
                    slips: vec![slip(
                        Expect::about((6.0 * 0.01f64.ln().abs() / std::f64::consts::LN_2).ceil(), 1.0),
                        "Divide by ln(2)^2, about 0.4805, not by ln(2).",
                    )],
                    reveal: vec![],
                    withheld: Withheld::none(),
                    after: vec![
                        format!(
                            "{bits_6} bits, about {:.1} per key, where this filter has 16 for all six.",
                            bits_6 / 6.0
                        ),
                        format!("`{tutor} calc --items 6 --fp 1%` works it out, k included."),
                    ],
                }),
                ..Step::default()
            },
        ],
    }
}

fn hash_quality() -> Lesson {
    let spec = FilterSpec::lesson();
    let tutor = invoked::tutor();
    let abc = positions(&spec, "abc");
    let cba = positions(&spec, "cba");
    let (abc1, _) = byte_sums(b"abc");
    // The measurement `experiment -m 100000 -n 10000 --steps 1` makes (its other settings
    // are its defaults: k = 2, 10000 keys checked, seed 1), so the numbers here are the
    // ones that command prints.
    let (m, n) = (100_000, 10_000);
    let plan = Plan {
        items: n,
        queries: 10_000,
        steps: 1,
        seed: 1,
    };
    let measured = |scheme: Scheme| {
        FilterSpec::new(scheme, Some(m), Some(2))
            .ok()
            .and_then(|spec| measure(&spec, plan, &mut |_| {}).last().copied())
            .map_or(0.0, |row| row.measured)
    };
    let (bytesum, murmur3) = (measured(Scheme::ByteSum), measured(Scheme::Murmur3));
    let theory = theory::fp_textbook(n as f64, m, 2);
    let rate = |x: f64| format!("{x:.4} ({:.2}%)", x * 100.0);
    Lesson {
        name: "hash-quality",
        title: "Why hash quality matters: byte sums against murmur3",
        spec,
        exercise: None,
        steps: vec![
            Step {
                say: lines(
                    "The formula for false positives assumes each key's positions look random.\n\
                     The byte sums of the 64-bit byte-sum filter are easy to work by hand, but\n\
                     far from random. The tutor adds abc:",
                ),
                setup: vec!["ADD abc".into()],
                question: Some(Question {
                    id: "anagram",
                    ask: format!(
                        "abc set positions {} and {}. Which position does h1 give for cba?",
                        abc[0], abc[1]
                    ),
                    expect: Expect::number(cba[0] as f64),
                    hints: vec![
                        "h1 adds the same bytes in another order.".into(),
                        format!("97 + 98 + 99 = {abc1}, then mod 64."),
                    ],
                    slips: vec![
                        slip(
                            Expect::number(abc1 as f64),
                            format!("{abc1} is the sum; the position is the sum mod 64."),
                        ),
                        h2_for_h1(cba[1]),
                    ],
                    reveal: vec!["EXPLAIN cba".into()],
                    withheld: Withheld::keys(&["cba"]),
                    after: lines(
                        "Same bytes, same h1: cba lands on the bit abc set. Only h2 tells\n\
                         anagrams apart.",
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: vec![
                    format!(
                        "A real hash mixes every bit of every byte. murmur3 with seed 0 gives abc \
                         {} and cba {}: no trace of the shared letters.",
                        murmur3_32(b"abc", 0),
                        murmur3_32(b"cba", 0)
                    ),
                    "Byte sums are also small numbers: a 10-byte key sums to about 1,000, so in \
                     a filter of 100,000 bits h1 only ever reaches the first few thousand."
                        .into(),
                    format!(
                        "The tutor filled two filters of {} bits, k = 2, with {} keys each, and \
                         checked {} keys never added. The formula says {}; murmur3 gave {}.",
                        group(m),
                        group(n),
                        group(plan.queries),
                        rate(theory),
                        rate(murmur3)
                    ),
                ],
                question: Some(Question {
                    id: "which-worse",
                    ask: "Which scheme do you expect to do far worse than the formula: bytesum or murmur3?".into(),
                    expect: Expect::word(&["bytesum", "byte sum", "byte sums"]),
                    hints: vec!["Which one can only reach a few of the bits?".into()],
                    slips: vec![slip(
                        Expect::word(&["murmur3"]),
                        "murmur3 spreads keys over all the bits, as the formula assumes. Which \
                         one crowds them onto a few?",
                    )],
                    reveal: vec![],
                    withheld: Withheld::none(),
                    after: vec![
                        format!(
                            "The byte sums gave {}: {:.0} times the formula.",
                            rate(bytesum),
                            bytesum / theory
                        ),
                        "The formula, and STATS's (X/m)^k too, assume that each of a key's \
                         positions falls at random, apart from the others. Byte sums do not: \
                         they crowd into the first bits, and every rearrangement of a key \
                         shares its h1, so far more keys never added find all their bits set."
                            .into(),
                        format!(
                            "`{tutor} experiment -m {m} -n {n} --steps 1` measures the same and \
                             prints these numbers in its measured column; without --steps 1 it \
                             shows how the rate grows, and --svg FILE draws it."
                        ),
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
        exercise: None,
        name: "deletion",
        title: "Taking keys out: a counting filter, its trap, and keeping a filter",
        spec,
        steps: vec![
            Step {
                say: vec![
                    format!(
                        "A plain Bloom filter cannot remove a key: date sets bits {} and {}, sun \
                         sets {} and {}, so clearing date's bits would clear bit {shared}, which \
                         sun needs too.",
                        date[0], date[1], sun[0], sun[1]
                    ),
                    "A counting filter keeps a small counter at each position instead of a bit. \
                     ADD adds 1 to each of the key's counters, REMOVE subtracts 1, and CHECK \
                     answers MAYBE when all of the key's counters are above 0."
                        .into(),
                    format!(
                        "This lesson's filter has {m} counters of {b} bits. The tutor adds date, \
                         sun and fig:"
                    ),
                ],
                setup: owned(&s1),
                quiet: false,
                question: Some(Question {
                    id: "shared-counter",
                    ask: format!("What is counter {shared} now?"),
                    expect: Expect::number(f64::from(after1.value(shared))),
                    hints: vec![format!(
                        "Which of date and sun count at position {shared}? Each ADD adds 1."
                    )],
                    slips: vec![slip(
                        Expect::number(1.0),
                        format!(
                            "1 is what a bit would say. A counter adds 1 for each key: date and sun both reach {shared}."
                        ),
                    )],
                    reveal: vec!["COUNTS".into()],
                    withheld: Withheld::verbs(&[Verb::Counts]),
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
                quiet: false,
                question: Some(Question {
                    id: "check-after-remove",
                    ask: "What does CHECK sun answer now: NO or MAYBE?".into(),
                    expect: Expect::word(&[sun_after_remove]),
                    hints: vec![format!(
                        "sun needs counters {} and {}. What is counter {shared} after one of its two keys left?",
                        sun[0], sun[1]
                    )],
                    slips: vec![slip(
                        Expect::word(&[not(sun_after_remove)]),
                        format!(
                            "Counter {shared} counted two keys; REMOVE date took only date's count away."
                        ),
                    )],
                    reveal: vec!["CHECK sun".into(), "CHECK date".into(), "REMOVE plum".into()],
                    withheld: Withheld::keys(&["sun"]),
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
                     takes sun out and adds date and lime:",
                ),
                setup: owned(&s3),
                quiet: false,
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
                    slips: vec![slip(
                        Expect::word(&[not(date_after_trap)]),
                        format!(
                            "Counter {shared} holds 1, date's own count. REMOVE sun takes it to 0."
                        ),
                    )],
                    reveal: vec![],
                    withheld: Withheld::keys(&["date"]),
                    after: vec![],
                }),
            },
            Step {
                say: lines("The tutor removes sun, as a counting filter would:"),
                setup: owned(&s4),
                quiet: false,
                question: Some(Question {
                    id: "false-negatives",
                    ask: "fig, date and lime were added. How many of them does CHECK answer NO for now?".into(),
                    expect: Expect::number(wrong_now as f64),
                    hints: vec!["Look at the note after REMOVE sun: which keys lost a count?".into()],
                    slips: vec![slip(
                        Expect::number(0.0),
                        "A Bloom filter never says NO for a key it holds, unless a REMOVE took that key's count.",
                    )],
                    reveal: vec!["CHECK date".into(), "CHECK lime".into(), "CHECK fig".into()],
                    withheld: Withheld::keys(&["fig", "date", "lime"]),
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
                quiet: false,
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
                    slips: vec![slip(
                        Expect::word(&[not(fig_after_removes)]),
                        "A full counter stays full: it no longer knows how many ADDs it lost, so REMOVE never lowers it.",
                    )],
                    // One REMOVE shows what each of the four does; step 6 runs all four.
                    reveal: vec!["REMOVE fig".into()],
                    withheld: Withheld::keys(&["fig"]).and(&[Verb::Counts]),
                    after: lines(
                        "Every REMOVE fig goes the same way, so however often fig is removed,\n\
                         CHECK fig still answers MAYBE.",
                    ),
                }),
            },
            Step {
                say: vec![format!(
                    "The tutor has now removed fig as often as it was added. Counters {} and {} \
                     are still {}.",
                    fig[0],
                    fig[1],
                    after6.value(fig[0])
                )],
                setup: owned(&s6),
                quiet: true,
                question: Some(Question {
                    id: "memory",
                    ask: format!(
                        "The price of REMOVE is memory: how many bits do {m} counters of {b} bits take?"
                    ),
                    expect: Expect::number((m * b) as f64),
                    hints: vec![format!("{m} counters times {b} bits each.")],
                    slips: vec![
                        slip(
                            Expect::number(m as f64),
                            format!("{m} bits is the plain filter: each counter here has {b} bits."),
                        ),
                        slip(
                            Expect::number((m * 4) as f64),
                            format!("{} bits is for 4-bit counters; these have {b}.", m * 4),
                        ),
                    ],
                    reveal: vec!["CHECK fig".into(), "STATS".into()],
                    withheld: Withheld::verbs(&[Verb::Stats]),
                    after: vec![format!(
                        "With the usual 4-bit counters (0 to 15) it is {} bits, 4 times a plain filter's {m}.",
                        m * 4
                    )],
                }),
            },
            Step {
                say: vec![
                    "A filter can also be kept. SAVE file writes its shape (scheme, m, k) and \
                     its bits or counters to a file: the whole file or, if the save fails, \
                     none of it. The file ends with a checksum, a number computed from its \
                     contents, so LOAD file can tell a damaged file and refuse it. The file \
                     holds no keys, so after LOAD the tutor no longer knows which keys were \
                     added."
                        .into(),
                    "UNION file merges a saved filter of the same shape into this one: each \
                     bit becomes 1 if it is 1 in either filter (a bitwise OR)."
                        .into(),
                    format!(
                        "Filter A holds fig (bits {} and {}), filter B holds lime (bits {} and {}).",
                        fig[0], fig[1], lime[0], lime[1]
                    ),
                ],
                setup: vec![],
                quiet: false,
                question: Some(Question {
                    id: "union",
                    ask: "Which bits are 1 after A UNION B? Type the positions.".into(),
                    expect: Expect::positions(union_bits.clone()),
                    hints: vec!["A bit is 1 in the union if it is 1 in either filter.".into()],
                    slips: vec![],
                    reveal: vec![],
                    withheld: Withheld::none(),
                    after: lines(
                        "The same bits ADD fig and ADD lime set in one filter: a union is the filter of\n\
                         both sets of keys. (The lesson does not touch files; try SAVE, LOAD and UNION\n\
                         in the interactive tutor: run the tutor with no arguments.)",
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
                quiet: false,
                question: Some(Question {
                    id: "intersect",
                    ask: "sun is not in A. After A INTERSECT B, what does CHECK sun answer?".into(),
                    expect: Expect::word(&[sun_in_meet]),
                    hints: vec![format!(
                        "Are bits {} and {} 1 in A? In B?",
                        sun[0], sun[1]
                    )],
                    slips: vec![slip(
                        Expect::word(&[not(sun_in_meet)]),
                        format!(
                            "date set bit {} in A and lime set bit {}; sun set both in B. Both survive.",
                            sun[0], sun[1]
                        ),
                    )],
                    reveal: vec![],
                    withheld: Withheld::none(),
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
    fn withheld_commands_are_those_on_its_keys_and_its_verbs() {
        let parse = |line: &'static str| Command::parse(line.as_bytes()).unwrap().unwrap();
        let w = Withheld::keys(&["fig"]).and(&[Verb::Counts]);
        for line in [
            "ADD fig",
            "check fig",
            "REMOVE fig",
            "EXPLAIN fig",
            "COUNTS",
        ] {
            assert!(w.holds(&parse(line)), "{line}");
        }
        for line in ["ADD figs", "CHECK  fig", "BITS", "STATS", "HELP ADD"] {
            assert!(!w.holds(&parse(line)), "{line}");
        }
        assert!(!Withheld::none().holds(&parse("BITS")));
    }

    /// Every question that asks for a key's positions or answer withholds the commands
    /// that print them; spot checks on each lesson.
    #[test]
    fn questions_on_a_key_withhold_its_commands() {
        let question = |lesson: &str, id: &str| {
            find(lesson)
                .unwrap()
                .steps
                .into_iter()
                .filter_map(|s| s.question)
                .find(|q| q.id == id)
                .unwrap_or_else(|| panic!("{lesson} has no question {id}"))
        };
        let parse = |line: &'static str| Command::parse(line.as_bytes()).unwrap().unwrap();
        for (lesson, id, line) in [
            ("basics", "lime-positions", "EXPLAIN lime"),
            ("basics", "bits-after-three", "BITS"),
            ("sizing", "rate-from-fill", "STATS"),
            ("double-hashing", "cat-position-2", "ADD cat"),
            ("murmur3", "floor-modulo", "EXPLAIN dog"),
            ("deletion", "shared-counter", "COUNTS"),
        ] {
            assert!(
                question(lesson, id).withheld.holds(&parse(line)),
                "{lesson} {id}: {line}"
            );
        }
    }

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
        // 9584 from the lesson's constants, 9586 exactly; below 9584 is rounded down.
        let bits = q("bits-for-one-percent").expect;
        assert!(bits.accepts("9586") && bits.accepts("9584"));
        assert!(!bits.accepts("9583") && !bits.accepts("9584.5") && !bits.accepts("9587"));
        let challenge = q("own-false-positive").expect;
        assert!(
            challenge.accepts("miel"),
            "miel: h1 39 (lime's), h2 30 (date's)"
        );
        assert!(
            !challenge.accepts("sun"),
            "sun was shown, it does not count"
        );
        assert_eq!(
            challenge.show(),
            "miel",
            "the example prefers another key's bit"
        );
    }

    #[test]
    fn each_filter_lesson_reproduces_its_numbers() {
        let q = |lesson: &Lesson, id: &str| {
            lesson
                .steps
                .iter()
                .filter_map(|s| s.question.as_ref())
                .find(|q| q.id == id)
                .unwrap_or_else(|| panic!("no question {id} in {}", lesson.name))
                .clone()
        };
        let dh = double_hashing::lesson();
        assert!(q(&dh, "cat-position-1").expect.accepts("15"));
        assert!(q(&dh, "cat-position-2").expect.accepts("11"));
        assert!(q(&dh, "dog-bits").expect.accepts("9 1 9"));
        assert!(
            q(&dh, "bits-after-three")
                .expect
                .accepts("1 3 8 9 11 14 15")
        );
        assert!(
            q(&dh, "bits-after-three")
                .expect
                .accepts("0101000011010011")
        );
        assert!(q(&dh, "fish-zero").expect.accepts("0"));
        let mm = murmur3::lesson();
        assert!(q(&mm, "dog-bits").expect.accepts("9"));
        assert!(q(&mm, "floor-modulo").expect.accepts("7"));
        assert!(q(&mm, "bits-set").expect.accepts("85"));
        let table = q(&mm, "expected-false-positives").after.join("\n");
        assert!(
            table.contains("4 of them answer MAYBE: sheep, shark, fish and elephant"),
            "{table}"
        );
    }

    #[test]
    fn every_lesson_step_says_something_first() {
        for lesson in all() {
            for (i, step) in lesson.steps.iter().enumerate() {
                assert!(
                    !step.say.is_empty(),
                    "{} step {} has no text before its question",
                    lesson.name,
                    i + 1
                );
            }
        }
    }

    #[test]
    fn rearrangements_are_listed_once_each() {
        assert_eq!(rearrangements("ab"), ["ab", "ba"]);
        assert_eq!(rearrangements("aab"), ["aab", "aba", "baa"]);
        assert_eq!(rearrangements("lime").len(), 24);
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
                assert!(
                    q.expect.accepts(&right),
                    "{}: {right} is not accepted",
                    q.id
                );
                for s in &q.slips {
                    assert!(
                        !s.expect.accepts(&right),
                        "{}: slip {:?} accepts the answer",
                        q.id,
                        s.expect
                    );
                    if let Some(n) = s.next_hint {
                        assert!(n < q.hints.len(), "{}: no hint {n}", q.id);
                    }
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
        assert_eq!(next_after("basics").map(|l| l.name), Some("double-hashing"));
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
