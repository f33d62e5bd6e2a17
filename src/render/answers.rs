//! The protocol's answers, byte for byte: `NO` or `MAYBE` for CHECK, the bits for BITS, the
//! counters for COUNTS.

use std::io::{self, Write};

use crate::engine::bloom::Answer;
use crate::engine::counters::Counters;
use crate::engine::filter::Filter;
use crate::script::session::Outcome;

/// Writes the answer an outcome has in a script, if any: CHECK, BITS and COUNTS answer, every
/// other command is silent.
#[inline(always)]
pub(crate) fn write(outcome: &Outcome<'_>, out: &mut impl Write) -> io::Result<()> {
    match outcome {
        // Two calls with fixed lengths, each returning through `?`, so the compiler does
        // not merge them into one call with a variable length (a call to memcpy).
        Outcome::Checked {
            answer: Answer::Maybe,
            ..
        } => out.write_all(b"MAYBE\n")?,
        Outcome::Checked {
            answer: Answer::No, ..
        } => out.write_all(b"NO\n")?,
        Outcome::Bits { filter, .. } => {
            write_first_bits(filter, filter.len(), out)?;
            out.write_all(b"\n")?;
        }
        Outcome::Counts { counters, .. } => {
            write_first_counts(counters, counters.len(), out)?;
            out.write_all(b"\n")?;
        }
        Outcome::Added { .. }
        | Outcome::Removed(_)
        | Outcome::Saved { .. }
        | Outcome::Loaded { .. }
        | Outcome::Merged { .. }
        | Outcome::Explained(_)
        | Outcome::Stats(_)
        | Outcome::Cleared { .. }
        | Outcome::Help(_)
        | Outcome::Quit => {}
    }
    Ok(())
}

/// `0`/`1` for the first `limit` bits (all of them if the filter is shorter), bit 0 first,
/// without a line ending.
pub(crate) fn write_first_bits(
    filter: &Filter,
    limit: u64,
    out: &mut impl Write,
) -> io::Result<()> {
    // Eight characters for each byte value, least significant bit first.
    static DIGITS: [[u8; 8]; 256] = {
        let mut t = [[b'0'; 8]; 256];
        let mut v = 0;
        while v < 256 {
            let mut i = 0;
            while i < 8 {
                if v >> i & 1 == 1 {
                    t[v][i] = b'1';
                }
                i += 1;
            }
            v += 1;
        }
        t
    };
    let m = filter.len().min(limit) as usize;
    let mut chunk = [0u8; 512];
    let mut written = 0;
    for words in filter.words()[..m.div_ceil(64)].chunks(chunk.len() / 64) {
        let mut n = 0;
        for word in words {
            for byte in word.to_le_bytes() {
                chunk[n..n + 8].copy_from_slice(&DIGITS[byte as usize]);
                n += 8;
            }
        }
        let n = n.min(m - written);
        out.write_all(&chunk[..n])?;
        written += n;
    }
    Ok(())
}

/// The first `limit` counters (all of them if there are fewer) as decimal numbers separated
/// by single spaces, position 0 first, without a line ending.
pub(crate) fn write_first_counts(
    counters: &Counters,
    limit: u64,
    out: &mut impl Write,
) -> io::Result<()> {
    let n = counters.len().min(limit) as usize;
    let mut chunk = Vec::with_capacity(4 * 1024 + 8);
    for (i, &c) in counters.counts()[..n].iter().enumerate() {
        if i > 0 {
            chunk.push(b' ');
        }
        if c >= 100 {
            chunk.push(b'0' + c / 100);
        }
        if c >= 10 {
            chunk.push(b'0' + c / 10 % 10);
        }
        chunk.push(b'0' + c % 10);
        if chunk.len() >= 4 * 1024 {
            out.write_all(&chunk)?;
            chunk.clear();
        }
    }
    out.write_all(&chunk)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bloom::Probe;
    use crate::engine::scheme::{FilterSpec, Scheme};

    #[test]
    fn answers_from_fixed_outcomes() {
        let mut filter = Filter::new(16);
        filter.set(1);
        filter.set(15);
        let mut out = Vec::new();
        let bits = Outcome::Bits {
            filter: &filter,
            last_add: Probe::default(),
            counters: None,
        };
        write(&bits, &mut out).unwrap();
        write(&Outcome::Quit, &mut out).unwrap();
        write(
            &Outcome::Cleared {
                spec: FilterSpec::lesson(),
            },
            &mut out,
        )
        .unwrap();
        assert_eq!(out, b"0100000000000001\n");
    }

    #[test]
    fn counts_are_numbers_separated_by_spaces() {
        let width = crate::engine::counters::CounterBits::new(8).unwrap();
        let mut c = Counters::new(5, width);
        for _ in 0..255 {
            c.increment(0);
        }
        for _ in 0..10 {
            c.increment(2);
        }
        c.increment(4);
        let mut out = Vec::new();
        write(
            &Outcome::Counts {
                counters: &c,
                last_add: Probe::default(),
            },
            &mut out,
        )
        .unwrap();
        assert_eq!(out, b"255 0 10 0 1\n");
        out.clear();
        write_first_counts(&c, 2, &mut out).unwrap();
        assert_eq!(out, b"255 0");
    }

    #[test]
    fn bits_prints_m_characters() {
        for m in [1, 16, 63, 64, 65, 100, 4097, 70_000] {
            let spec = FilterSpec::new(Scheme::Murmur3, Some(m), Some(3)).unwrap();
            let mut filter = Filter::new(m);
            let mut want = Vec::new();
            spec.positions(b"a", &mut want);
            for &p in &want {
                filter.set(p);
            }
            let mut out = Vec::new();
            write_first_bits(&filter, u64::MAX, &mut out).unwrap();
            assert_eq!(out.len() as u64, m, "m = {m}");
            let ones: Vec<u64> = (0..m).filter(|&i| out[i as usize] == b'1').collect();
            want.sort();
            want.dedup();
            assert_eq!(ones, want, "m = {m}");
        }
    }

    #[test]
    fn writes_only_the_first_bits_asked_for() {
        let mut f = Filter::new(1000);
        f.set(3);
        f.set(700);
        let mut out = Vec::new();
        write_first_bits(&f, 5, &mut out).unwrap();
        assert_eq!(out, b"00010");
        out.clear();
        write_first_bits(&f, 5000, &mut out).unwrap();
        assert_eq!(out.len(), 1000);
        assert_eq!(out[700], b'1');
    }
}
