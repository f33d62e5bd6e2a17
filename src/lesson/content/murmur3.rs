//! `murmur3`: the 100-bit filter with 10 positions per key from a real hash, signed results
//! and floor modulo.

use super::{Lesson, Question, Step, Withheld, lines, one_decimal, positions, slip};
use crate::engine::bloom::{Answer, Bloom};
use crate::engine::scheme::{FilterSpec, Scheme, floor_mod, murmur3_32};
use crate::engine::theory;
use crate::lesson::answer::Expect;
use crate::script::command::Verb;
use crate::units::and_list;

use crate::worked::{MURMUR3_ADDED as ADDED, MURMUR3_OTHERS as OTHERS};

pub(super) fn lesson() -> Lesson {
    let spec =
        FilterSpec::new(Scheme::Murmur3, None, None).unwrap_or_else(|_| FilterSpec::lesson());
    let (m, k) = (spec.bits(), spec.hashes());
    let dog = positions(&spec, "dog");
    let mut dog_bits = dog.clone();
    dog_bits.sort_unstable();
    dog_bits.dedup();
    // The first position that comes twice, and the seeds that give it.
    let repeat = dog
        .iter()
        .enumerate()
        .find_map(|(i, p)| dog[..i].iter().position(|q| q == p).map(|j| (*p, j, i)));
    let dog_hash = murmur3_32(b"dog", 0);
    let truncated = i64::from(dog_hash) % m as i64;
    let floored = floor_mod(dog_hash, m);
    let mut bloom = Bloom::new(spec);
    for key in ADDED {
        bloom.add(key.as_bytes());
    }
    let n = ADDED.len() as f64;
    let set = bloom.bits_set();
    let expected_set = m as f64 * (1.0 - (-f64::from(k) * n / m as f64).exp());
    let fill = theory::fp_from_fill(set, m, k);
    let expected_fp = fill * OTHERS.len() as f64;
    let answers: Vec<(&str, Answer)> = OTHERS
        .iter()
        .map(|key| (*key, bloom.check(key.as_bytes())))
        .collect();
    let maybes: Vec<&str> = answers
        .iter()
        .filter(|(_, a)| *a == Answer::Maybe)
        .map(|(key, _)| *key)
        .collect();
    let mut table = vec![format!(
        "The tutor checked the {} animals never added:",
        OTHERS.len()
    )];
    table.extend(answers.chunks(5).map(|row| {
        let cells: Vec<String> = row
            .iter()
            .map(|(key, a)| {
                let word = match a {
                    Answer::No => "NO",
                    Answer::Maybe => "MAYBE",
                };
                format!("{key} {word}")
            })
            .collect();
        format!("    {}", cells.join(", "))
    }));
    table.push(format!(
        "{} of them answer MAYBE: {}, all false positives. Every bit they need was set by \
         other animals.",
        maybes.len(),
        and_list(&maybes)
    ));
    Lesson {
        name: "murmur3",
        title: "A real hash: the 100-bit murmur3 filter",
        spec,
        exercise: Some(Scheme::Murmur3),
        steps: vec![
            Step {
                say: vec![
                    format!(
                        "This filter has m = {m} bits and k = {k} positions per key. Each \
                         position comes from MurmurHash3 (x86, 32-bit), a real hash: it mixes \
                         every bit of every byte, so keys that look alike get unrelated numbers."
                    ),
                    format!(
                        "Its {k} positions come from {k} seeds: position i = murmur3(key, seed \
                         i) mod {m}, for i = 0 to {}. EXPLAIN key shows all {k}.",
                        k - 1
                    ),
                    format!("dog's positions are {}.", and_list(&dog)),
                ],
                question: Some(Question {
                    id: "dog-bits",
                    ask: "How many different bits does ADD dog set?".into(),
                    expect: Expect::number(dog_bits.len() as f64),
                    hints: vec!["Look for a position that comes twice.".into()],
                    slips: vec![slip(
                        Expect::number(f64::from(k)),
                        match repeat {
                            Some((p, a, b)) => format!(
                                "One position comes twice: {p}, from seeds {a} and {b}. A bit \
                                 set twice is still one bit."
                            ),
                            None => "Count each different position once.".to_string(),
                        },
                    )],
                    reveal: vec![],
                    withheld: Withheld::keys(&["dog"]),
                    after: lines(
                        "Ten seeds make ten separate hashes, and two of them can land on the same\n\
                         bit by chance: then the key sets fewer bits.",
                    ),
                }),
                ..Step::default()
            },
            Step {
                say: vec![
                    "murmur3 gives 32 bits, and this filter reads them as a signed number, from \
                     -2147483648 to 2147483647: about half of all hashes are negative."
                        .into(),
                    format!(
                        "With seed 0, murmur3 of dog is {dog_hash}. A position must be from 0 to \
                         {}, so the filter takes floor modulo, as Python's % does: the remainder \
                         has the sign of {m}, never negative.",
                        m - 1
                    ),
                ],
                question: Some(Question {
                    id: "floor-modulo",
                    ask: format!("What is {dog_hash} mod {m}, as floor modulo?"),
                    expect: Expect::number(floored as f64),
                    hints: vec![format!(
                        "The remainder of {dog_hash} / {m} that keeps the sign is {truncated}. \
                         Floor modulo adds {m} to a negative remainder."
                    )],
                    slips: vec![
                        slip(
                            Expect::number(truncated as f64),
                            format!(
                                "{truncated} is what C's, Java's and Rust's % give: the \
                                 remainder keeps the sign of {dog_hash}. As a position it would \
                                 be outside the bits. Floor modulo adds {m} to it."
                            ),
                        ),
                        slip(
                            Expect::number(truncated.unsigned_abs() as f64),
                            format!(
                                "{} is the remainder without the sign. For a negative number \
                                 floor modulo gives {m} minus that.",
                                truncated.unsigned_abs()
                            ),
                        ),
                    ],
                    reveal: vec![],
                    withheld: Withheld::keys(&["dog"]),
                    after: vec![
                        format!("So seed 0 puts dog at bit {}.", dog[0]),
                        format!(
                            "C's % gets this wrong: it gives {truncated}, which as an index is \
                             outside the array. In C, Java or Rust, add {m} to a negative \
                             remainder (Rust's rem_euclid does it)."
                        ),
                    ],
                }),
                ..Step::default()
            },
            Step {
                say: vec![
                    format!("The tutor adds {} animals: {}.", ADDED.len(), and_list(&ADDED)),
                    format!(
                        "{} keys with {k} positions each make {} positions in {m} bits, and many \
                         land on bits already set. The number of bits set to expect is",
                        ADDED.len(),
                        ADDED.len() as u64 * u64::from(k),
                    ),
                    "  m * (1 - e^(-k*n/m))".into(),
                    "Why: each of the k*n positions misses a given bit with chance (1 - 1/m), so a \
                     bit is still 0 with chance (1 - 1/m)^(k*n), which is about e^(-k*n/m)."
                        .into(),
                    format!(
                        "Here that is {m} * (1 - e^(-{:.1})), and e^(-{:.1}) is about {:.3}.",
                        f64::from(k) * n / m as f64,
                        f64::from(k) * n / m as f64,
                        (-f64::from(k) * n / m as f64).exp()
                    ),
                ],
                setup: ADDED.iter().map(|key| format!("ADD {key}")).collect(),
                quiet: true,
                question: Some(Question {
                    id: "bits-set",
                    ask: "About how many bits are set now?".into(),
                    expect: Expect::about(expected_set, 1.5),
                    hints: vec![format!(
                        "1 - {:.3} = {:.3}; times {m}.",
                        (-f64::from(k) * n / m as f64).exp(),
                        1.0 - (-f64::from(k) * n / m as f64).exp()
                    )],
                    slips: vec![
                        slip(
                            Expect::number(ADDED.len() as f64 * f64::from(k)),
                            "Many of those positions land on bits already set; a bit set twice \
                             is still one bit. Use the formula.",
                        ),
                        slip(
                            Expect::number(m as f64),
                            "Not every bit: some are never hit. Use the formula.",
                        ),
                    ],
                    reveal: vec![],
                    withheld: Withheld::verbs(&[Verb::Bits, Verb::Stats]),
                    after: vec![format!(
                        "{set} of {m} bits are set; the formula said {expected_set:.1}. BITS \
                         shows them, and STATS counts them."
                    )],
                }),
            },
            Step {
                say: vec![format!(
                    "With X = {set} of the {m} bits set, a key never added finds all {k} of its \
                     bits set with a chance of about (X/m)^k."
                )],
                question: Some(Question {
                    id: "rate-from-fill",
                    ask: format!("What is ({set}/{m})^{k}, in percent? (one decimal)"),
                    expect: Expect::about(one_decimal(fill), 0.15),
                    hints: vec![format!(
                        "{:.2} to the power {k}, then times 100.",
                        set as f64 / m as f64
                    )],
                    slips: vec![
                        slip(
                            Expect::about(fill, 0.005),
                            "That is the chance as a fraction; in percent it is 100 times that.",
                        ),
                        slip(
                            Expect::number(set as f64),
                            format!("{set}% is X/m. Raise {set}/{m} to the power {k}."),
                        ),
                    ],
                    reveal: vec!["STATS".into()],
                    withheld: Withheld::verbs(&[Verb::Stats]),
                    after: vec![format!(
                        "About 1 key in {:.0} that was never added is a false positive here; \
                         STATS shows it as {fill:.4}.",
                        1.0 / fill
                    )],
                }),
                ..Step::default()
            },
            Step {
                say: vec![format!(
                    "The tutor now checks {} animals it never added: {}.",
                    OTHERS.len(),
                    and_list(&OTHERS)
                )],
                question: Some(Question {
                    id: "expected-false-positives",
                    ask: format!(
                        "Each has a chance of about {:.1}%. About how many of the {} do you \
                         expect to answer MAYBE?",
                        one_decimal(fill),
                        OTHERS.len()
                    ),
                    // About how many: the nearest whole number, not one either side.
                    expect: Expect::about(expected_fp, 0.6),
                    hints: vec![format!("{} times {:.3}.", OTHERS.len(), fill)],
                    slips: vec![slip(
                        Expect::number(0.0),
                        "They were never added, but each one can still find all its bits set \
                         by other animals.",
                    )],
                    reveal: vec![],
                    withheld: Withheld::keys(&OTHERS),
                    after: table,
                }),
                ..Step::default()
            },
        ],
    }
}
