//! The typical mistakes of each filter's exercise, with stable ids and hints, so that a
//! failing program's answers can be matched to the mistake behind them (`model` answers a
//! script as a program with given mistakes would; `diagnose` finds the ones that fit).

pub mod diagnose;
pub mod model;

use serde::Serialize;

use crate::engine::scheme::{self, FilterSpec, Scheme};

pub use diagnose::{Diagnosis, Ending, Seen, contradicted, diagnose_run};
pub use model::{OutOfBounds, answers_with, stops};

/// The lengths a program reading into a fixed buffer may cut its lines at: a power of two
/// (Python's `readline(64)` reads 64 bytes at most), or one less (`fgets` into a buffer of
/// 64 bytes reads 63, keeping one for the terminating 0).
pub const LINE_BUFFERS: [usize; 18] = [
    15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 511, 512, 1023, 1024, 2047, 2048, 4095, 4096,
];

/// A mistake a learner's program can make, with a stable id for course tooling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "&'static str")]
pub enum Mistake {
    // Every filter: how CHECK decides, how the line is read, how BITS is printed.
    AnyBit,
    SplitEverySpace,
    WhitespaceStripped,
    KeyStripped,
    BitsReversed,
    AnswersSwapped,
    NoBitsSet,
    // bytesum and djb2-fnv, whose hashes take the key one unit at a time.
    CharsNotBytes,
    // bytesum.
    H2FromZero,
    NoMod,
    // djb2-fnv.
    StepModM,
    NoWrap32,
    Djb2FromZero,
    Fnv1Order,
    Djb2Additive,
    StepsFromOne,
    StepWithoutPlusOne,
    // murmur3.
    UnsignedHash,
    TruncatingMod,
    SeedsFromOne,
    AbsHash,
    // How the answers are written, for every filter.
    PromptPrinted,
    NoFinalNewline,
    AnswerCase,
    ExtraWhitespace,
    // How the program reads its lines, for every filter: a line longer than this many
    // bytes is read in pieces, each taken as a line of its own.
    LinesSplit(usize),
    // The shape of a run, for every filter: seen in how its output or its end looks,
    // rather than in answers a model gives.
    NoOutput,
    NoStopAtEof,
    OutOfOrder,
}

impl From<Mistake> for &'static str {
    fn from(m: Mistake) -> &'static str {
        m.id()
    }
}

impl Mistake {
    /// Every mistake, in the order reports list them when nothing else decides.
    pub const ALL: [Mistake; 29] = [
        Mistake::AnyBit,
        Mistake::SplitEverySpace,
        Mistake::WhitespaceStripped,
        Mistake::KeyStripped,
        Mistake::BitsReversed,
        Mistake::AnswersSwapped,
        Mistake::NoBitsSet,
        Mistake::CharsNotBytes,
        Mistake::H2FromZero,
        Mistake::NoMod,
        Mistake::StepModM,
        Mistake::NoWrap32,
        Mistake::Djb2FromZero,
        Mistake::Fnv1Order,
        Mistake::Djb2Additive,
        Mistake::StepsFromOne,
        Mistake::StepWithoutPlusOne,
        Mistake::UnsignedHash,
        Mistake::TruncatingMod,
        Mistake::SeedsFromOne,
        Mistake::AbsHash,
        Mistake::PromptPrinted,
        Mistake::NoFinalNewline,
        Mistake::AnswerCase,
        Mistake::ExtraWhitespace,
        // One length stands for all: the id is the same for each.
        Mistake::LinesSplit(LINE_BUFFERS[0]),
        Mistake::NoOutput,
        Mistake::NoStopAtEof,
        Mistake::OutOfOrder,
    ];

    /// The mistakes recognised by answering a case as such a program would, for a filter
    /// of shape `spec`: the shared ones, the scheme's own, then the wholesale ones.
    pub fn modelled(spec: FilterSpec) -> Vec<Mistake> {
        let mut list = vec![
            Mistake::AnyBit,
            Mistake::SplitEverySpace,
            Mistake::WhitespaceStripped,
            Mistake::KeyStripped,
            Mistake::BitsReversed,
        ];
        match spec.scheme() {
            Scheme::ByteSum => {
                list.extend([Mistake::CharsNotBytes, Mistake::H2FromZero, Mistake::NoMod])
            }
            Scheme::Djb2Fnv => list.extend([
                Mistake::CharsNotBytes,
                Mistake::StepModM,
                Mistake::NoWrap32,
                Mistake::Djb2FromZero,
                Mistake::Fnv1Order,
                Mistake::Djb2Additive,
                Mistake::StepsFromOne,
                Mistake::StepWithoutPlusOne,
            ]),
            Scheme::Murmur3 => {
                // When m divides 2^32, the unsigned hash mod m is the floor modulo.
                if !(1u64 << 32).is_multiple_of(spec.bits()) {
                    list.push(Mistake::UnsignedHash);
                }
                list.extend([
                    Mistake::TruncatingMod,
                    Mistake::SeedsFromOne,
                    Mistake::AbsHash,
                ]);
            }
        }
        // Last, so that a scheme's own mistake is named first where both fit a case.
        list.extend([Mistake::AnswersSwapped, Mistake::NoBitsSet]);
        list
    }

    /// Whether the mistake is in how answers are written rather than computed.
    pub fn is_formatting(self) -> bool {
        match self {
            Mistake::PromptPrinted
            | Mistake::NoFinalNewline
            | Mistake::AnswerCase
            | Mistake::ExtraWhitespace => true,
            Mistake::LinesSplit(_)
            | Mistake::NoOutput
            | Mistake::NoStopAtEof
            | Mistake::OutOfOrder
            | Mistake::AnyBit
            | Mistake::SplitEverySpace
            | Mistake::WhitespaceStripped
            | Mistake::KeyStripped
            | Mistake::BitsReversed
            | Mistake::AnswersSwapped
            | Mistake::NoBitsSet
            | Mistake::CharsNotBytes
            | Mistake::H2FromZero
            | Mistake::NoMod
            | Mistake::StepModM
            | Mistake::NoWrap32
            | Mistake::Djb2FromZero
            | Mistake::Fnv1Order
            | Mistake::Djb2Additive
            | Mistake::StepsFromOne
            | Mistake::StepWithoutPlusOne
            | Mistake::UnsignedHash
            | Mistake::TruncatingMod
            | Mistake::SeedsFromOne
            | Mistake::AbsHash => false,
        }
    }

    /// Whether the mistake is seen in the shape of a run (no output at all, the right lines
    /// in another order, no end after the right answers) rather than in answers a model
    /// gives: the answers of other cases cannot tell against it.
    pub fn is_shape(self) -> bool {
        match self {
            Mistake::NoOutput | Mistake::NoStopAtEof | Mistake::OutOfOrder => true,
            Mistake::AnyBit
            | Mistake::SplitEverySpace
            | Mistake::WhitespaceStripped
            | Mistake::KeyStripped
            | Mistake::BitsReversed
            | Mistake::AnswersSwapped
            | Mistake::NoBitsSet
            | Mistake::CharsNotBytes
            | Mistake::H2FromZero
            | Mistake::NoMod
            | Mistake::StepModM
            | Mistake::NoWrap32
            | Mistake::Djb2FromZero
            | Mistake::Fnv1Order
            | Mistake::Djb2Additive
            | Mistake::StepsFromOne
            | Mistake::StepWithoutPlusOne
            | Mistake::UnsignedHash
            | Mistake::TruncatingMod
            | Mistake::SeedsFromOne
            | Mistake::AbsHash
            | Mistake::PromptPrinted
            | Mistake::NoFinalNewline
            | Mistake::AnswerCase
            | Mistake::ExtraWhitespace
            // Read in pieces, the lines give answers a model gives too.
            | Mistake::LinesSplit(_) => false,
        }
    }

    /// The stable id.
    pub fn id(self) -> &'static str {
        match self {
            Mistake::AnyBit => "any-bit",
            Mistake::SplitEverySpace => "split-every-space",
            Mistake::WhitespaceStripped => "whitespace-stripped",
            Mistake::KeyStripped => "key-stripped",
            Mistake::BitsReversed => "bits-reversed",
            Mistake::AnswersSwapped => "answers-swapped",
            Mistake::NoBitsSet => "no-bits-set",
            Mistake::CharsNotBytes => "chars-not-bytes",
            Mistake::H2FromZero => "h2-from-zero",
            Mistake::NoMod => "no-mod",
            Mistake::StepModM => "step-mod-m",
            Mistake::NoWrap32 => "no-32-bit-wrap",
            Mistake::Djb2FromZero => "djb2-from-zero",
            Mistake::Fnv1Order => "fnv1-order",
            Mistake::Djb2Additive => "djb2-additive",
            Mistake::StepsFromOne => "steps-from-one",
            Mistake::StepWithoutPlusOne => "step-without-plus-one",
            Mistake::UnsignedHash => "unsigned-hash",
            Mistake::TruncatingMod => "truncating-mod",
            Mistake::SeedsFromOne => "seeds-from-one",
            Mistake::AbsHash => "abs-hash",
            Mistake::PromptPrinted => "prompt-printed",
            Mistake::NoFinalNewline => "no-final-newline",
            Mistake::AnswerCase => "answer-case",
            Mistake::ExtraWhitespace => "extra-whitespace",
            Mistake::LinesSplit(_) => "lines-split",
            Mistake::NoOutput => "no-output",
            Mistake::NoStopAtEof => "no-stop-at-eof",
            Mistake::OutOfOrder => "out-of-order",
        }
    }

    /// The mistake with this id.
    pub fn from_id(id: &str) -> Option<Mistake> {
        Mistake::ALL.into_iter().find(|m| m.id() == id)
    }

    /// A hint in the tutor's words: what the program seems to do, and what to look at. The
    /// numbers in it come from the engine, for the filter of shape `spec`.
    pub fn hint(self, spec: FilterSpec) -> String {
        let m = spec.bits();
        match self {
            Mistake::AnyBit => "your CHECK answers MAYBE when only some of the key's bits \
                 are set. MAYBE needs every one of them to be 1; a single 0 bit means NO"
                .to_string(),
            Mistake::SplitEverySpace => "your program seems to cut the key at the next \
                 space. The key is everything after the first space: `ADD hello world` \
                 adds \"hello world\""
                .to_string(),
            Mistake::WhitespaceStripped => "your program seems to strip spaces from the \
                 ends of each line (Python's `line.strip()`, for one), so a key that starts \
                 or ends with a space or a tab loses it. Remove only the line ending: \
                 `ADD \"fig \"` adds the four bytes f, i, g and a space"
                .to_string(),
            Mistake::KeyStripped => "your program seems to strip spaces from both ends of \
                 the key (Python's `key.strip()`, for one), so `ADD  fig` (two spaces) adds \
                 fig instead of \" fig\". The key is every byte after the first space, \
                 spaces and tabs included"
                .to_string(),
            Mistake::BitsReversed => "your BITS line is the right bits in reverse order. \
                 Print bit 0 first, on the left"
                .to_string(),
            Mistake::AnswersSwapped => "your CHECK answers seem swapped: MAYBE where NO is \
                 right, and NO where MAYBE is right. Answer MAYBE when every one of the key's \
                 bits is 1, and NO when any one of them is 0"
                .to_string(),
            Mistake::NoBitsSet => "your program never seems to set a bit: BITS is all 0 and \
                 every CHECK answers NO. ADD must set the bit at each of the key's positions \
                 to 1, and CHECK must read those bits back (in the starter, fill in `set_bit` \
                 and `bit_is_set`)"
                .to_string(),
            Mistake::CharsNotBytes => "your hashes seem to take characters, not bytes. \
                 Hash the key's UTF-8 bytes: é is the two bytes 195 169 and both count, so \
                 café is 5 bytes"
                .to_string(),
            Mistake::H2FromZero => {
                let (_, h2) = scheme::byte_sums(b"fig");
                format!(
                    "your h2 seems to weight the first byte by 0. The weights start at 1: \
                     for fig, h2 = 102*1 + 105*2 + 103*3 = {h2}, and {h2} mod {m} = {}",
                    h2 % u128::from(m)
                )
            }
            Mistake::NoMod => {
                let (_, h2) = scheme::byte_sums(b"fig");
                format!(
                    "your program seems to stop at the first position of {m} or more, as if \
                     h2 were not taken mod {m}: such a position is past the last bit, and \
                     reading or setting it fails (in Python, with an IndexError). Take h1 and \
                     h2 mod {m}, so that every position is from 0 to {}: for fig, h2 = {h2}, \
                     and {h2} mod {m} = {}",
                    m - 1,
                    h2 % u128::from(m)
                )
            }
            Mistake::StepModM => format!(
                "your step seems to be b mod m, which can be 0 and then every position \
                 is the same. {}",
                right_step(m)
            ),
            Mistake::StepWithoutPlusOne => format!(
                "your step seems to be b mod (m - 1), without the + 1, so it can be 0 and \
                 then every position of the key is the same bit. {}",
                right_step(m)
            ),
            Mistake::NoWrap32 => "your hashes seem to grow past 32 bits. Keep a and b to \
                 32 bits after every byte (in Python, `& 0xFFFFFFFF`; in C, `uint32_t`): \
                 both hashes are 32-bit"
                .to_string(),
            Mistake::Djb2FromZero => format!(
                "your djb2 seems to start from 0. It starts from 5381: {}",
                first_position(m)
            ),
            Mistake::Djb2Additive => format!(
                "your djb2 seems to add each byte (a * 33 + byte). This exercise's djb2 XORs \
                 it in: a = (a * 33) XOR byte, kept to 32 bits: {}",
                first_position(m)
            ),
            Mistake::StepsFromOne => {
                let mut right = Vec::new();
                spec.positions(b"cat", &mut right);
                let shown: Vec<String> = right.iter().map(u64::to_string).collect();
                format!(
                    "your positions seem to start one step too far: position j takes j + 1 \
                     steps. The first position is a mod m itself (j = 0 steps), then one \
                     step on, and so on: for cat, the positions are {}",
                    shown.join(", ")
                )
            }
            Mistake::Fnv1Order => "your FNV seems to multiply before the XOR (that is \
                 FNV-1). FNV-1a XORs the byte in first, then multiplies by 16777619"
                .to_string(),
            Mistake::UnsignedHash => {
                let h = scheme::murmur3_32(b"foo", 0);
                format!(
                    "your program seems to read murmur3 as unsigned. Read it as a signed \
                     32-bit int, as Python's mmh3.hash does: for foo with seed 0 it is {h}, \
                     and {h} mod {m} = {} (floor modulo), not {} mod {m} = {}",
                    scheme::floor_mod(h, m),
                    h as u32,
                    u64::from(h as u32) % m
                )
            }
            Mistake::TruncatingMod => {
                let h = scheme::murmur3_32(b"foo", 0);
                format!(
                    "your modulo seems to keep the hash's sign, as C's and Java's `%` do, so \
                     a negative hash gives a negative position, outside the bit array: \
                     reading or setting it gives wrong bits or a crash. Use floor modulo, as \
                     Python's `%` does (in C, add {m} to a negative remainder): {h} mod {m} \
                     = {}, not {}",
                    scheme::floor_mod(h, m),
                    i64::from(h) % (m as i64)
                )
            }
            Mistake::AbsHash => {
                let h = scheme::murmur3_32(b"foo", 0);
                format!(
                    "your program seems to take abs() of the hash, so a negative hash lands \
                     on the wrong position. Keep the hash's sign and use floor modulo, as \
                     Python's `%` does: for foo with seed 0 the hash is {h}, and {h} mod {m} \
                     = {}, not abs({h}) mod {m} = {}",
                    scheme::floor_mod(h, m),
                    i64::from(h).unsigned_abs() % m
                )
            }
            Mistake::SeedsFromOne => format!(
                "your seeds seem to count from 1. The {} hashes use seeds 0 to {}",
                spec.hashes(),
                spec.hashes() - 1
            ),
            Mistake::PromptPrinted => "your program prints a prompt or label before its \
                 answers. Print only NO, MAYBE or the bits, one answer per line"
                .to_string(),
            Mistake::NoFinalNewline => {
                "your last answer has no line ending. End every answer with a newline".to_string()
            }
            Mistake::ExtraWhitespace => "your answers carry extra spaces, tabs, carriage \
                 returns or blank lines. Print each answer with nothing before or after it \
                 but the newline"
                .to_string(),
            Mistake::AnswerCase => {
                "your answers are spelled differently. Print exactly NO and MAYBE, in capitals"
                    .to_string()
            }
            Mistake::LinesSplit(at) => {
                let how = if (at + 1).is_power_of_two() {
                    format!("as `fgets` into a buffer of {} bytes does", at + 1)
                } else {
                    format!("as reading into a buffer of {at} bytes does")
                };
                format!(
                    "lines longer than {at} bytes seem to be split: the rest of such a line \
                     is read as a line of its own ({how}), so a long key is cut short. Read \
                     whole lines (in C, with `getline`, as the starter does): a key can be \
                     hundreds of bytes long"
                )
            }
            Mistake::NoOutput => "your program wrote nothing to stdout in any case, though \
                 it ended with status 0. Its answers seem never to be written: left in a \
                 buffer that is never flushed (C's `_exit` and Python's `os._exit` end the \
                 program without flushing), or written to a file or to stderr. Print every \
                 answer to stdout, and end the program normally"
                .to_string(),
            Mistake::NoStopAtEof => "your program gave every answer right but did not stop \
                 at the end of its input, so the grader stopped it. When reading a line finds \
                 the end of input (EOF), end the program: in C, `fgets` returns NULL and \
                 `getline` returns -1 there; in Python, `for line in sys.stdin:` stops by \
                 itself"
                .to_string(),
            Mistake::OutOfOrder => "your program writes the right lines in another order: \
                 some answers overtake others, as when unbuffered writes (C's `write`, \
                 Python's `os.write`) are mixed with buffered ones (`printf`, `print`), or \
                 answers go to stdout through two streams. Write every answer the same way, \
                 or flush before writing another way"
                .to_string(),
        }
    }
}

/// The right step, worked for the key cat on a filter of `m` bits.
fn right_step(m: u64) -> String {
    let (_, b) = scheme::djb2_fnv(b"cat");
    format!(
        "The step is b mod (m - 1) + 1, from 1 to m - 1: for cat, b = {b} and the step is \
         {b} mod {} + 1 = {}",
        m - 1,
        u64::from(b) % (m - 1) + 1
    )
}

/// The right djb2 hash of cat and the first position it gives on a filter of `m` bits.
fn first_position(m: u64) -> String {
    let (a, _) = scheme::djb2_fnv(b"cat");
    format!(
        "for cat, a = {a}, and its first position is {a} mod {m} = {}",
        u64::from(a) % m
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::cases;

    fn specs() -> Vec<FilterSpec> {
        let spec = |s, m, k| FilterSpec::new(s, m, k).expect("a valid spec");
        vec![
            FilterSpec::lesson(),
            spec(Scheme::Djb2Fnv, None, None),
            spec(Scheme::Murmur3, None, None),
            spec(Scheme::ByteSum, Some(100), None),
            spec(Scheme::Djb2Fnv, Some(100), Some(4)),
            spec(Scheme::Murmur3, Some(64), Some(3)),
        ]
    }

    #[test]
    fn each_modelled_mistake_is_caught_by_some_case_of_each_filter() {
        for spec in specs() {
            let suite = cases::builtin(spec);
            for m in Mistake::modelled(spec) {
                let caught = suite.iter().any(|c| {
                    let right = crate::grade::expected_answers(spec, &c.script);
                    answers_with(spec, &c.script, &[m]) != right
                });
                assert!(
                    caught,
                    "{spec}: no case tells {} from a correct program",
                    m.id()
                );
            }
        }
    }

    #[test]
    fn the_model_without_mistakes_answers_as_the_tutor() {
        for spec in specs() {
            for case in cases::builtin(spec) {
                assert_eq!(
                    answers_with(spec, &case.script, &[]),
                    crate::grade::expected_answers(spec, &case.script),
                    "{spec}, case {}",
                    case.name
                );
            }
        }
    }

    #[test]
    fn ids_are_unique_and_round_trip() {
        for m in Mistake::ALL {
            assert_eq!(Mistake::from_id(m.id()), Some(m), "{}", m.id());
        }
    }

    #[test]
    fn hints_use_the_filters_numbers() {
        let hint = Mistake::H2FromZero.hint(FilterSpec::lesson());
        assert!(hint.contains("621 mod 64 = 45"), "{hint}");
        let murmur = FilterSpec::new(Scheme::Murmur3, None, None).expect("valid");
        let hint = Mistake::UnsignedHash.hint(murmur);
        assert!(hint.contains("-156908512 mod 100 = 88"), "{hint}");
    }
}
