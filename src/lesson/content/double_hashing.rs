//! `double-hashing`: the 16-bit filter whose k = 3 positions come from two hashes.

use super::{
    Lesson, Question, Step, Withheld, and_list, arithmetic, bytes, lines, one_decimal, positions,
    setter, slip,
};
use crate::engine::bloom::Bloom;
use crate::engine::scheme::{FilterSpec, Scheme, djb2_fnv};
use crate::engine::theory;
use crate::lesson::answer::Expect;
use crate::script::command::Verb;

pub(super) fn lesson() -> Lesson {
    let spec =
        FilterSpec::new(Scheme::Djb2Fnv, None, None).unwrap_or_else(|_| FilterSpec::lesson());
    let (m, k) = (spec.bits(), spec.hashes());
    // a mod m and the step, the two numbers a learner needs for a key's positions.
    let start_and_step = |key: &str| {
        let (a, b) = djb2_fnv(key.as_bytes());
        (u64::from(a) % m, u64::from(b) % (m - 1) + 1, a, b)
    };
    let (cat0, cat_step, cat_a, cat_b) = start_and_step("cat");
    let cat = positions(&spec, "cat");
    let (dog0, dog_step, _, _) = start_and_step("dog");
    let dog = positions(&spec, "dog");
    let mut dog_bits = dog.clone();
    dog_bits.sort_unstable();
    dog_bits.dedup();
    let (bird0, bird_step, _, _) = start_and_step("bird");
    let three = ["cat", "dog", "bird"];
    let mut bloom = Bloom::new(spec);
    for key in three {
        bloom.add(key.as_bytes());
    }
    let all: Vec<u64> = three.iter().flat_map(|key| positions(&spec, key)).collect();
    let mut set: Vec<u64> = all.clone();
    set.sort_unstable();
    set.dedup();
    let twice: Vec<u64> = set
        .iter()
        .copied()
        .filter(|p| all.iter().filter(|q| *q == p).count() > 1)
        .collect();
    let sheep = positions(&spec, "sheep");
    let cow = positions(&spec, "cow");
    let fish = positions(&spec, "fish");
    let fish_zeros: Vec<u64> = fish
        .iter()
        .copied()
        .filter(|&p| bloom.bit(p) == Some(false))
        .collect();
    let fish_zero = fish_zeros.first().copied().unwrap_or(0);
    let fish_ones: Vec<u64> = fish
        .iter()
        .copied()
        .filter(|&p| bloom.bit(p) == Some(true))
        .collect();
    let n = |x: u64| x as f64;
    Lesson {
        name: "double-hashing",
        title: "Two hashes, three positions: the 16-bit double-hashing filter",
        spec,
        exercise: Some(Scheme::Djb2Fnv),
        steps: vec![
            Step {
                say: vec![
                    format!(
                        "This filter has m = {m} bits and k = {k} positions per key. It does not \
                         need {k} hash functions: it computes two hashes of the key's bytes once, \
                         a and b, and makes every position from them:"
                    ),
                    format!("  step = b mod {} + 1", m - 1),
                    format!("  position j = (a + j*step) mod {m}, for j = 0, 1, 2"),
                    "a is djb2 and b is FNV-1a, two well-known hashes of bytes. Each starts \
                     from a fixed number and takes in the key one byte at a time, kept to 32 \
                     bits (mod 2^32, so a result too big for 32 bits wraps around):"
                        .into(),
                    "  a = 5381, then for each byte: a = (a*33) xor byte".into(),
                    "  b = 2166136261, then for each byte: b = (b xor byte)*16777619".into(),
                    "This djb2 is its xor form; the better-known form adds the byte instead. \
                     EXPLAIN key shows both hashes worked out."
                        .into(),
                ],
                question: Some(Question {
                    id: "step-never-zero",
                    ask: "The + 1 keeps the step from being 0. If the step were 0, how many \
                          different positions would each key get?"
                        .into(),
                    expect: Expect::number(1.0),
                    hints: vec![format!(
                        "With step 0, position j is (a + j*0) mod {m}, whatever j is."
                    )],
                    slips: vec![slip(
                        Expect::number(f64::from(k)),
                        format!(
                            "With step 0 the positions are a, a + 0 and a + 0, all mod {m}: \
                             the same number each time."
                        ),
                    )],
                    reveal: vec![],
                    withheld: Withheld::none(),
                    after: vec![format!(
                        "One bit per key would make k = {k} pointless. b mod {} is 0 to {}, so \
                         the step is 1 to {}: never 0, and never {m}, which would come back to \
                         the same bit just as 0 does.",
                        m - 1,
                        m - 2,
                        m - 1
                    )],
                }),
                ..Step::default()
            },
            Step {
                say: vec![
                    format!(
                        "cat is the bytes {}. Its hashes are a = {cat_a} and b = {cat_b}, so \
                         step = {cat_b} mod {} + 1 = {cat_step}.",
                        bytes("cat"),
                        m - 1
                    ),
                    format!(
                        "Position 0 is a mod {m} = {cat0}. Only a mod {m} matters: (a + j*step) \
                         mod {m} is the same as ({cat0} + j*{cat_step}) mod {m}."
                    ),
                ],
                question: Some(Question {
                    id: "cat-position-1",
                    ask: "What is position 1 for cat?".into(),
                    expect: Expect::number(n(cat[1])),
                    hints: vec![format!("{cat0} + {cat_step}, then mod {m}.")],
                    slips: [
                        slip(
                            Expect::number(n(cat0 + cat_step)),
                            format!("{} is past the last bit: take it mod {m}.", cat0 + cat_step),
                        ),
                        slip(
                            Expect::number(n(cat_step)),
                            format!("{cat_step} is the step; add it to position 0, {cat0}."),
                        ),
                        slip(
                            Expect::number(n(u64::from(cat_a) + cat_step)),
                            format!("That is a + step; now mod {m}. Or start from a mod {m} = {cat0}."),
                        ),
                    ]
                    .into_iter()
                    // A sum below m is the answer itself, not a slip.
                    .filter(|s| !s.expect.accepts(&cat[1].to_string()))
                    .collect(),
                    reveal: vec![],
                    withheld: Withheld::keys(&["cat"]),
                    after: vec![],
                }),
                ..Step::default()
            },
            Step {
                say: vec![format!(
                    "Each position adds the step once more: position 2 is ({cat0} + 2*{cat_step}) \
                     mod {m}."
                )],
                question: Some(Question {
                    id: "cat-position-2",
                    ask: "What is position 2 for cat?".into(),
                    expect: Expect::number(n(cat[2])),
                    hints: vec![format!(
                        "{cat0} + 2*{cat_step} = {}, then mod {m}.",
                        cat0 + 2 * cat_step
                    )],
                    slips: [
                        slip(
                            Expect::number(n(cat0 + 2 * cat_step)),
                            format!("{} is past the last bit: take it mod {m}.", cat0 + 2 * cat_step),
                        ),
                        slip(
                            Expect::number(n(cat[1])),
                            format!(
                                "{} is position 1. Position 2 adds the step twice: {cat0} + 2*{cat_step}.",
                                cat[1]
                            ),
                        ),
                        slip(
                            Expect::number(n(u64::from(cat_a) + cat_step)),
                            "That is a + step, position 1 before the mod. Position 2 adds the \
                             step twice.",
                        ),
                        slip(
                            Expect::number(n(u64::from(cat_a) + 2 * cat_step)),
                            format!("That is a + 2*step; now mod {m}."),
                        ),
                    ]
                    .into_iter()
                    .filter(|s| !s.expect.accepts(&cat[2].to_string()))
                    .collect(),
                    reveal: vec![],
                    withheld: Withheld::keys(&["cat"]),
                    after: arithmetic(
                        &spec,
                        "cat",
                        &format!("So ADD cat sets bits {}.", and_list(&cat)),
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: vec![format!(
                    "dog: a mod {m} = {dog0}, and its step is {dog_step}."
                )],
                question: Some(Question {
                    id: "dog-bits",
                    ask: "Which bits does ADD dog set? Type the positions.".into(),
                    expect: Expect::positions(dog_bits.clone()),
                    hints: vec![format!(
                        "{dog0}, then {dog0} + {dog_step}, then {dog0} + 2*{dog_step}, each mod {m}."
                    )],
                    slips: vec![slip(
                        Expect::positions([dog0, dog0 + dog_step, dog0 + 2 * dog_step]),
                        format!("Each position is mod {m}: from 0 to {}.", m - 1),
                    )],
                    reveal: vec![],
                    withheld: Withheld::keys(&["dog"]),
                    after: arithmetic(
                        &spec,
                        "dog",
                        &format!(
                            "Position 2 is {dog0} + {} = {}, and {} mod {m} is {} again: a step of \
                             {dog_step} goes halfway round {m} bits, so two steps come back to the \
                             start. dog's positions are {}, and it sets only {} bits. A repeated \
                             position is allowed; that key just sets fewer bits.",
                            2 * dog_step,
                            dog0 + 2 * dog_step,
                            dog0 + 2 * dog_step,
                            dog[2],
                            and_list(&dog),
                            dog_bits.len()
                        ),
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: vec![format!(
                    "The tutor adds cat, dog and bird (bird: a mod {m} = {bird0}, step = \
                     {bird_step}):"
                )],
                setup: three.iter().map(|key| format!("ADD {key}")).collect(),
                question: Some(Question {
                    id: "bits-after-three",
                    ask: format!(
                        "Which bits are 1 now? Type the positions (or the whole {m}-character \
                         BITS line)."
                    ),
                    expect: Expect::positions(set.clone()),
                    hints: vec![format!(
                        "cat set {}; dog {}; bird {}. List each bit once.",
                        and_list(&cat),
                        and_list(&dog_bits),
                        and_list(&positions(&spec, "bird"))
                    )],
                    slips: vec![],
                    reveal: vec!["BITS".into()],
                    withheld: Withheld::verbs(&[Verb::Bits]),
                    after: vec![format!(
                        "{} positions, {} bits set: {} hit twice.",
                        all.len(),
                        set.len(),
                        match twice.as_slice() {
                            [one] => format!("bit {one} was"),
                            many => format!("bits {} were each", and_list(many)),
                        }
                    )],
                }),
                ..Step::default()
            },
            Step {
                say: vec![format!(
                    "sheep was never added. Its positions are {}.",
                    and_list(&sheep)
                )],
                question: Some(Question {
                    id: "check-sheep",
                    ask: "What does CHECK sheep answer: NO or MAYBE?".into(),
                    expect: Expect::word(&["MAYBE"]),
                    hints: vec![format!(
                        "Are bits {} all among the bits set?",
                        and_list(&sheep)
                    )],
                    slips: vec![slip(
                        Expect::word(&["NO"]),
                        format!(
                            "It was never added, but CHECK only sees bits. Are bits {} set?",
                            and_list(&sheep)
                        ),
                    )],
                    reveal: vec!["CHECK sheep".into()],
                    withheld: Withheld::keys(&["sheep"]),
                    after: vec![format!(
                        "A false positive: other keys set every bit sheep needs. With {} of {m} \
                         bits set, about ({}/{m})^{k} = {:.1}% of keys never added do that.",
                        set.len(),
                        set.len(),
                        one_decimal(theory::fp_from_fill(set.len() as u64, m, k))
                    )],
                }),
                ..Step::default()
            },
            Step {
                say: vec![format!(
                    "cow and fish were never added either. cow's positions are {}; fish's are {}.",
                    and_list(&cow),
                    and_list(&fish)
                )],
                question: Some(Question {
                    id: "fish-zero",
                    ask: "CHECK fish answers NO. Which bit makes that certain?".into(),
                    expect: Expect::number(n(fish_zero)),
                    hints: vec![format!(
                        "Which of bits {} is 0? BITS shows them.",
                        and_list(&fish)
                    )],
                    slips: fish_ones
                        .iter()
                        .map(|&p| {
                            slip(
                                Expect::number(n(p)),
                                format!(
                                    "Bit {p} is 1: {} set it. Look for the bit that is 0.",
                                    setter(&spec, &three, p)
                                ),
                            )
                        })
                        .collect(),
                    reveal: vec!["CHECK cow".into(), "CHECK fish".into()],
                    withheld: Withheld::keys(&["fish"]),
                    after: lines(
                        "Both NO, and both certain: one 0 bit is enough, however many of the\n\
                         others are set.",
                    ),
                }),
                ..Step::default()
            },
        ],
    }
}
