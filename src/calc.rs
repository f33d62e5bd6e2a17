//! `bloom-tutor calc`: sizes a filter. Give some of n, p, m and k; it works out the rest.

use std::fmt;
use std::io::Write;

use serde::Serialize;

use crate::cli::CalcArgs;
use crate::engine::scheme::MAX_HASHES;
use crate::engine::theory;
use crate::units::{MAX_RATE, MIN_RATE, bytes, group, percent};

/// The most bits per key calc works with. Past it the filter is nearly empty, 1 − e^(−kn/m)
/// is a difference of nearly equal numbers and loses its digits in the theory's formulas, and
/// no real filter needs as many.
pub const MAX_BITS_PER_KEY: f64 = 1e6;

/// 2^64: m and n stay below it, so that they fit a u64.
const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;

/// A worked-out filter size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sizing {
    /// Keys the filter holds, n (at least 1).
    pub items: u64,
    /// Bits, m (at least 1).
    pub bits: u64,
    /// Hashes, k (1..=MAX_HASHES).
    pub hashes: u32,
    /// The textbook false-positive rate with these n, m and k (a normal f64: at least
    /// `f64::MIN_POSITIVE`, about 2.2e-308).
    pub fp: f64,
}

/// Why calc cannot answer, or will not because the answer would be wrong.
#[derive(Debug, Clone, PartialEq)]
pub enum CalcError {
    /// Fewer than two of n, p and m.
    TooFewGiven,
    /// n, p and m all given: nothing is left to work out.
    NothingToSolve,
    /// A value outside what the command line takes (for callers that build `CalcArgs`).
    OutOfRange {
        flag: &'static str,
        got: String,
        expected: &'static str,
    },
    /// The answer is 2^64 bits or more.
    TooManyBits { needed: f64 },
    /// The answer is 2^64 keys or more.
    TooManyKeys { found: f64 },
    /// More than [`MAX_BITS_PER_KEY`].
    TooSparse { items: u64, bits: u64 },
    /// Rate p with k hashes needs more than [`MAX_BITS_PER_KEY`].
    TooSparseFor { hashes: u32, fp: f64 },
    /// m bits with k hashes hold not even one key at rate p.
    HoldsNoKey {
        bits: u64,
        hashes: u32,
        fp: f64,
        /// The rate with one key in those bits.
        one_key_fp: f64,
        /// The fewest bits that hold one key at p with this k, when at most
        /// [`MAX_BITS_PER_KEY`].
        one_key_needs: Option<u64>,
    },
    /// The rate comes out below `f64::MIN_POSITIVE` (about 2.2e-308), past a float's digits.
    RateTooSmall { items: u64, bits: u64, hashes: u32 },
}

impl fmt::Display for CalcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CalcError::TooFewGiven => write!(
                f,
                "give two of --items N, --fp P and --bits M (and --hashes K if you want a fixed k), \
                 for example `{} calc --items 1000 --fp 1%`",
                crate::invoked::tutor()
            ),
            CalcError::NothingToSolve => write!(
                f,
                "n, p and m are all given, so there is nothing to work out; leave one of --items, --fp and --bits out"
            ),
            CalcError::OutOfRange {
                flag,
                got,
                expected,
            } => write!(f, "{flag} must be {expected}, got {got}"),
            CalcError::TooManyBits { needed } => write!(
                f,
                "the answer needs about {needed:.3e} bits, and calc works with fewer than 2^64 \
                 (at most {} bits)",
                group(u64::MAX)
            ),
            CalcError::TooManyKeys { found } => write!(
                f,
                "the answer is about {found:.3e} keys, and calc counts fewer than 2^64 (at most {})",
                group(u64::MAX)
            ),
            CalcError::TooSparse { items, bits } => write!(
                f,
                "m = {} bits for n = {} keys is {:.3e} bits per key, and calc works with at most {} \
                 bits per key (past it the formulas lose their digits)",
                group(*bits),
                group(*items),
                *bits as f64 / *items as f64,
                group(MAX_BITS_PER_KEY as u64)
            ),
            CalcError::TooSparseFor { hashes, fp } => write!(
                f,
                "k = {hashes} meets {} only with more than {} bits per key, past what calc works \
                 with (the formulas lose their digits there); give more hashes, or leave --hashes out",
                percent(*fp),
                group(MAX_BITS_PER_KEY as u64)
            ),
            CalcError::HoldsNoKey {
                bits,
                hashes,
                fp,
                one_key_fp,
                one_key_needs,
            } => {
                // Rates near 100% round alike as percentages; then show them in full.
                let (asked, one) = match (percent(*fp), percent(*one_key_fp)) {
                    (a, b) if a == b => (format!("{fp:e}"), format!("{one_key_fp:e}")),
                    pair => pair,
                };
                write!(
                    f,
                    "m = {} with k = {hashes} cannot hold even 1 key at {asked}: one key already \
                     gives {one}; ",
                    show_bits(*bits),
                )?;
                if let Some(needs) = one_key_needs {
                    write!(
                        f,
                        "1 key needs at least {} bits with k = {hashes}",
                        group(*needs)
                    )
                } else {
                    write!(
                        f,
                        "1 key needs more than {} bits with k = {hashes}",
                        group(MAX_BITS_PER_KEY as u64)
                    )
                }
            }
            CalcError::RateTooSmall {
                items,
                bits,
                hashes,
            } => write!(
                f,
                "n = {} keys in m = {} bits with k = {hashes} give a rate below 2.2e-308, \
                 too small for a 64-bit float; give fewer bits per key or fewer hashes",
                group(*items),
                group(*bits)
            ),
        }
    }
}

impl std::error::Error for CalcError {}

/// A computed size in bits, rounded up to a whole bit, if it fits a u64.
fn whole_bits(bits: f64) -> Result<u64, CalcError> {
    let bits = bits.ceil().max(1.0);
    if bits < TWO_POW_64 {
        Ok(bits as u64)
    } else {
        Err(CalcError::TooManyBits { needed: bits })
    }
}

/// n keys in m bits with k hashes, and the textbook rate that gives; refused when the rate
/// cannot be computed to the digits shown.
fn sized(items: u64, bits: u64, hashes: u32) -> Result<Sizing, CalcError> {
    if bits as f64 / items as f64 > MAX_BITS_PER_KEY {
        return Err(CalcError::TooSparse { items, bits });
    }
    let fp = theory::fp_textbook(items as f64, bits, hashes);
    // NaN cannot come from checked inputs, but would be refused here too.
    if fp.is_nan() || fp < f64::MIN_POSITIVE {
        return Err(CalcError::RateTooSmall {
            items,
            bits,
            hashes,
        });
    }
    Ok(Sizing {
        items,
        bits,
        hashes,
        fp,
    })
}

/// Checks what the command line's parsers check, for callers that build `CalcArgs` in code.
fn check(args: &CalcArgs) -> Result<(), CalcError> {
    if let Some(p) = args.fp
        && !(MIN_RATE..=MAX_RATE).contains(&p)
    {
        return Err(CalcError::OutOfRange {
            flag: "--fp",
            got: p.to_string(),
            expected: "from 1e-300 to 0.999999 (99.9999%)",
        });
    }
    for (flag, v) in [("--items", args.items), ("--bits", args.bits)] {
        if v == Some(0) {
            return Err(CalcError::OutOfRange {
                flag,
                got: "0".into(),
                expected: "at least 1",
            });
        }
    }
    if let Some(k) = args.hashes
        && !(1..=MAX_HASHES).contains(&k)
    {
        return Err(CalcError::OutOfRange {
            flag: "--hashes",
            got: k.to_string(),
            expected: "from 1 to 1000",
        });
    }
    Ok(())
}

/// Works out what `args` leaves open. With k given, the size is the one that meets p with
/// that k, not the best k's.
pub fn solve(args: &CalcArgs) -> Result<Sizing, CalcError> {
    check(args)?;
    let k_given = args.hashes;
    match (args.items, args.fp, args.bits) {
        (Some(n), Some(p), None) => match k_given {
            None => {
                let m = theory::bits_for(n as f64, p);
                // At most log2(1/p) ≤ 997 for p ≥ MIN_RATE; the cap only guards the cast.
                let k = theory::best_hashes(m, n as f64).min(MAX_HASHES);
                sized(n, whole_bits(m)?, k)
            }
            Some(k) => {
                // p = (1 − e^(−kn/m))^k solved for m: m = n / keys_for(1 bit, k, p), as
                // keys_for is linear in m.
                let per_bit = theory::keys_for(1.0, k, p);
                if per_bit.is_nan() || per_bit < 1.0 / MAX_BITS_PER_KEY {
                    return Err(CalcError::TooSparseFor { hashes: k, fp: p });
                }
                sized(n, whole_bits(n as f64 / per_bit)?, k)
            }
        },
        (Some(n), None, Some(m)) => {
            let k =
                k_given.unwrap_or_else(|| theory::best_hashes(m as f64, n as f64).min(MAX_HASHES));
            sized(n, m, k)
        }
        (None, Some(p), Some(m)) => {
            // With k free, the best k for a rate p is log2(1/p).
            let k = k_given
                .unwrap_or_else(|| (-p.log2()).round().clamp(1.0, f64::from(MAX_HASHES)) as u32);
            let n = theory::keys_for(m as f64, k, p).floor();
            if n < 1.0 {
                return Err(CalcError::HoldsNoKey {
                    bits: m,
                    hashes: k,
                    fp: p,
                    one_key_fp: theory::fp_textbook(1.0, m, k),
                    one_key_needs: Some((1.0 / theory::keys_for(1.0, k, p)).ceil())
                        .filter(|b| (1.0..=MAX_BITS_PER_KEY).contains(b))
                        .map(|b| b as u64),
                });
            }
            if n >= TWO_POW_64 {
                return Err(CalcError::TooManyKeys { found: n });
            }
            sized(n as u64, m, k)
        }
        (Some(_), Some(_), Some(_)) => Err(CalcError::NothingToSolve),
        _ => Err(CalcError::TooFewGiven),
    }
}

/// A number of bits, grouped: `9,586 bits`, `1 bit`.
fn show_bits(m: u64) -> String {
    match m {
        1 => "1 bit".to_string(),
        m => format!("{} bits", group(m)),
    }
}

/// Runs `calc`, writing the result to `out`.
pub fn run(args: &CalcArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let s = solve(args)?;
    if args.json {
        #[derive(Serialize)]
        struct Json {
            // Counts are integers; only the ratios are fractions.
            items: u64,
            bits: u64,
            bytes: u64,
            bits_per_key: f64,
            hashes: u32,
            fp: f64,
        }
        let json = Json {
            items: s.items,
            bits: s.bits,
            bytes: s.bits.div_ceil(8),
            bits_per_key: s.bits as f64 / s.items as f64,
            hashes: s.hashes,
            fp: s.fp,
        };
        serde_json::to_writer_pretty(&mut *out, &json)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(out, "keys (n):             {}", group(s.items))?;
    writeln!(
        out,
        "bits (m):             {} = {}",
        show_bits(s.bits),
        bytes(s.bits.div_ceil(8))
    )?;
    writeln!(
        out,
        "bits per key:         {:.2}",
        s.bits as f64 / s.items as f64
    )?;
    writeln!(out, "hashes (k):           {}", s.hashes)?;
    writeln!(
        out,
        "false positives (p):  {} ({:.3e}), from (1 - e^(-kn/m))^k",
        percent(s.fp),
        s.fp
    )?;
    // A fixed k costs something; say what the best k would give, from the same solver.
    if args.hashes.is_some() {
        let free = CalcArgs {
            items: args.items,
            fp: args.fp,
            bits: args.bits,
            hashes: None,
            json: false,
        };
        if let Ok(best) = solve(&free)
            && best.hashes != s.hashes
        {
            let what = match (args.items, args.fp, args.bits) {
                (Some(_), Some(_), None) => show_bits(best.bits),
                (Some(_), None, Some(_)) => format!("p = {}", percent(best.fp)),
                _ => format!("n = {} keys", group(best.items)),
            };
            writeln!(out, "best k instead:       {}, with {what}", best.hashes)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(
        items: Option<u64>,
        fp: Option<f64>,
        bits: Option<u64>,
        hashes: Option<u32>,
    ) -> CalcArgs {
        CalcArgs {
            items,
            fp,
            bits,
            hashes,
            json: false,
        }
    }

    #[track_caller]
    fn solved(
        items: Option<u64>,
        fp: Option<f64>,
        bits: Option<u64>,
        hashes: Option<u32>,
    ) -> Sizing {
        match solve(&args(items, fp, bits, hashes)) {
            Ok(s) => s,
            Err(e) => panic!("n={items:?} p={fp:?} m={bits:?} k={hashes:?}: {e}"),
        }
    }

    #[track_caller]
    fn refused(
        items: Option<u64>,
        fp: Option<f64>,
        bits: Option<u64>,
        hashes: Option<u32>,
    ) -> CalcError {
        match solve(&args(items, fp, bits, hashes)) {
            Ok(s) => panic!("n={items:?} p={fp:?} m={bits:?} k={hashes:?} gave {s:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn reference_values() {
        let s = solved(Some(1000), Some(0.01), None, None);
        assert_eq!((s.bits, s.hashes), (9586, 7));
        assert!((s.fp - 0.01).abs() < 0.0005, "{}", s.fp);
        let s = solved(Some(40_000_000), Some(1e-6), None, None);
        assert_eq!((s.bits, s.hashes), (1_150_207_006, 20));
    }

    #[test]
    fn solves_each_direction() {
        let s = solved(Some(1000), None, Some(9586), None);
        assert_eq!(s.hashes, 7);
        let s = solved(Some(1000), None, Some(9586), Some(3));
        assert_eq!(s.hashes, 3);
        assert!(s.fp > 0.01, "{}", s.fp);
        let s = solved(None, Some(0.01), Some(9586), Some(7));
        assert!(s.items.abs_diff(1000) < 5, "{}", s.items);
        // The 16-bit double-hashing filter: m = 16, k = 3, n = 3 gives about 8%.
        let s = solved(Some(3), None, Some(16), Some(3));
        assert!((s.fp - 0.0796).abs() < 0.0005, "{}", s.fp);
    }

    #[test]
    fn fixed_k_sizes_for_that_k() {
        // Issue 11: 10M keys at 0.1% with k = 5 need about 172.9 million bits, not the
        // 143.8 million that suit k = 10 (which give 0.22% with k = 5).
        let s = solved(Some(10_000_000), Some(0.001), None, Some(5));
        assert_eq!(s.hashes, 5);
        assert!(
            (172_800_000..173_000_000).contains(&s.bits),
            "m = {} for k = 5",
            s.bits
        );
        assert!(s.fp <= 0.001, "k = 5 gives {} over the 0.1% asked", s.fp);
        assert!(
            s.fp > 0.000_999,
            "k = 5 gives {}, more bits than needed",
            s.fp
        );
    }

    #[test]
    fn fixed_k_meets_the_rate_everywhere() {
        for n in [1, 7, 1000, 10_000_000, 1 << 40] {
            for p in [0.5, 0.1, 0.01, 1e-3, 1e-6, 1e-12] {
                for k in [1, 2, 3, 7, 20, 100, 1000] {
                    match solve(&args(Some(n), Some(p), None, Some(k))) {
                        Ok(s) => {
                            assert!(
                                s.fp <= p * (1.0 + 1e-9),
                                "n={n} p={p} k={k}: m = {} gives {}",
                                s.bits,
                                s.fp
                            );
                            // One bit fewer would not do (unless one bit is all it takes).
                            let fewer = theory::fp_textbook(n as f64, s.bits - 1, k);
                            assert!(
                                s.bits == 1 || fewer > p * (1.0 - 1e-9),
                                "n={n} p={p} k={k}: m - 1 = {} already gives {fewer}",
                                s.bits - 1
                            );
                        }
                        Err(
                            CalcError::TooSparse { .. }
                            | CalcError::TooSparseFor { .. }
                            | CalcError::TooManyBits { .. },
                        ) => {}
                        Err(e) => panic!("n={n} p={p} k={k}: {e}"),
                    }
                }
            }
        }
    }

    #[test]
    fn free_k_stays_near_the_rate() {
        // With k free the textbook size is kept (the lessons teach it); rounding k to a whole
        // number leaves the rate within 3% of the one asked.
        for n in [1, 3, 1000, 10_000_000] {
            for p in [0.4, 0.35, 0.1, 0.01, 1e-6, 1e-100, 1e-300] {
                let s = solved(Some(n), Some(p), None, None);
                assert!(s.fp <= p * 1.03, "n={n} p={p}: {}", s.fp);
            }
        }
    }

    #[test]
    fn huge_sizes_are_computed_or_refused() {
        // Issue 10: 1e20 keys at 1% reported 100%; n past 2^64 cannot be typed at all.
        assert!(matches!(
            refused(Some(u64::MAX), Some(0.01), None, None),
            CalcError::TooManyBits { .. }
        ));
        let s = solved(Some(1 << 60), Some(0.5), None, None);
        assert!((s.fp - 0.5).abs() < 0.01, "{}", s.fp);
        let s = solved(Some(u64::MAX), None, Some(u64::MAX), None);
        assert_eq!(s.hashes, 1, "m = n");
        assert!((s.fp - 0.6321).abs() < 0.001, "m = n: {}", s.fp);
        // 1000 keys in 1e19 bits: a million bits per key is the limit, not a wrong 85%.
        assert!(matches!(
            refused(Some(1000), None, Some(10_000_000_000_000_000_000), None),
            CalcError::TooSparse { .. }
        ));
        let s = solved(Some(1000), None, Some(1_400_000), None);
        assert_eq!(s.hashes, 970);
        assert!(s.fp > 1e-300 && s.fp < 1e-290, "{}", s.fp);
        // Past about 1,440 bits per key the best k passes 1000 and the rate 2.2e-308.
        assert!(matches!(
            refused(Some(1000), None, Some(1_000_000_000), None),
            CalcError::RateTooSmall { hashes: 1000, .. }
        ));
        assert!(matches!(
            refused(None, Some(0.99), Some(u64::MAX), Some(1)),
            CalcError::TooManyKeys { .. }
        ));
    }

    #[test]
    fn rates_near_the_ends_are_computed_or_refused() {
        // With k = 1, 1e-300 needs 1e300 bits per key: 1 - p rounded to 1 once made this
        // "1 bit, 63%".
        assert_eq!(
            refused(Some(1), Some(1e-300), None, Some(1)),
            CalcError::TooSparseFor {
                hashes: 1,
                fp: 1e-300
            }
        );
        // Near 1, p^(1/k) for k = 1000 rounded to 1 and made 1e17 keys fit in one bit;
        // the rate is now at most 99.9999%, where 1 - p^(1/k) keeps its digits.
        let s = solved(
            Some(100_000_000_000_000_000),
            Some(MAX_RATE),
            None,
            Some(1000),
        );
        assert!(
            (4_800_000_000_000_000_000..4_900_000_000_000_000_000).contains(&s.bits),
            "m = {}",
            s.bits
        );
        assert!(s.fp <= MAX_RATE, "{}", s.fp);
        assert!(matches!(
            refused(None, Some(MAX_RATE), Some(1), Some(1000)),
            CalcError::HoldsNoKey { .. }
        ));
    }

    #[test]
    fn huge_k_is_refused_or_computed() {
        // Issue 10: k past 2^31 gave `inf%`.
        assert!(matches!(
            refused(Some(1000), Some(0.01), None, Some(3_000_000_000)),
            CalcError::OutOfRange {
                flag: "--hashes",
                ..
            }
        ));
        let s = solved(Some(1000), None, Some(9586), Some(MAX_HASHES));
        assert!(s.fp > 0.99 && s.fp <= 1.0, "{}", s.fp);
        assert!(matches!(
            refused(Some(1), None, Some(1_000_000), Some(MAX_HASHES)),
            CalcError::RateTooSmall { .. }
        ));
    }

    #[test]
    fn too_small_a_filter_holds_no_key() {
        // Issue 10: `-p 1% -m 10 -k 1` answered 0 keys and "bits per key: inf".
        match refused(None, Some(0.01), Some(10), Some(1)) {
            CalcError::HoldsNoKey {
                one_key_needs,
                one_key_fp,
                ..
            } => {
                assert_eq!(one_key_needs, Some(100));
                assert!((one_key_fp - 0.0952).abs() < 0.001, "{one_key_fp}");
            }
            e => panic!("expected HoldsNoKey, got {e}"),
        }
        assert!(matches!(
            refused(None, Some(1e-12), Some(1000), Some(1)),
            CalcError::HoldsNoKey {
                one_key_needs: None,
                ..
            }
        ));
        assert_eq!(solved(None, Some(0.01), Some(10), None).items, 1);
    }

    #[test]
    fn refuses_what_it_cannot_solve() {
        assert_eq!(
            refused(Some(1000), None, None, None),
            CalcError::TooFewGiven
        );
        assert_eq!(refused(None, None, None, Some(3)), CalcError::TooFewGiven);
        assert_eq!(
            refused(Some(1), Some(0.1), Some(10), None),
            CalcError::NothingToSolve
        );
        for (n, p, m, k, flag) in [
            (Some(1000), Some(1.5), None, None, "--fp"),
            (Some(1000), Some(0.999_999_9), None, None, "--fp"),
            (Some(1000), Some(0.0), None, None, "--fp"),
            (Some(1000), Some(f64::NAN), None, None, "--fp"),
            (Some(0), Some(0.01), None, None, "--items"),
            (Some(10), None, Some(0), None, "--bits"),
            (Some(10), Some(0.01), None, Some(0), "--hashes"),
        ] {
            match refused(n, p, m, k) {
                CalcError::OutOfRange { flag: f, .. } => assert_eq!(f, flag),
                e => panic!("expected {flag} out of range, got {e}"),
            }
        }
    }

    #[test]
    fn shows_the_best_k_beside_a_fixed_one() {
        let mut out = Vec::new();
        run(
            &args(Some(10_000_000), Some(0.001), None, Some(5)),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("hashes (k):           5\n"), "{text}");
        assert!(
            text.contains("best k instead:       10, with 143,775,876 bits\n"),
            "{text}"
        );
    }
}
