//! The tutor's three hash schemes: how a key's bytes become bit positions, and the numbers
//! behind each step, so the tutor can show them.

use std::fmt;

use crate::engine::counters::CounterBits;
use crate::engine::filter::MAX_BITS;

/// The most hash functions a filter may use.
pub const MAX_HASHES: u32 = 1000;

/// A way of turning a key into k positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// The 64-bit byte-sum filter: h1 = sum of bytes, h2 = sum of byte × 1-based index,
    /// both mod m.
    ByteSum,
    /// The 16-bit double-hashing filter: djb2-xor and FNV-1a (32-bit), positions
    /// (a + j·step) mod m.
    Djb2Fnv,
    /// The 100-bit murmur3 filter: MurmurHash3 x86 32-bit with seed i, signed, floor
    /// modulo m.
    Murmur3,
}

impl Scheme {
    /// Every scheme, in the order the tutor lists them.
    pub const ALL: [Scheme; 3] = [Scheme::ByteSum, Scheme::Djb2Fnv, Scheme::Murmur3];

    /// The scheme called `name` on the command line (`bytesum`, `djb2-fnv`, `murmur3`).
    pub fn from_name(name: &str) -> Option<Scheme> {
        Scheme::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }

    /// Every scheme's name, for messages: `bytesum, djb2-fnv or murmur3`.
    pub fn names() -> String {
        let names: Vec<&str> = Scheme::ALL.iter().map(|s| s.name()).collect();
        match names.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// The name used on the command line and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::ByteSum => "bytesum",
            Scheme::Djb2Fnv => "djb2-fnv",
            Scheme::Murmur3 => "murmur3",
        }
    }

    /// m of the filter this scheme is taught with.
    pub fn default_bits(self) -> u64 {
        match self {
            Scheme::ByteSum => 64,
            Scheme::Djb2Fnv => 16,
            Scheme::Murmur3 => 100,
        }
    }

    /// k of the filter this scheme is taught with.
    pub fn default_hashes(self) -> u32 {
        match self {
            Scheme::ByteSum => 2,
            Scheme::Djb2Fnv => 3,
            Scheme::Murmur3 => 10,
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A filter's shape: its scheme, m bits and k hashes, checked to be a combination that works,
/// and whether each position is a bit or a counter (a counting filter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilterSpec {
    scheme: Scheme,
    m: u64,
    k: u32,
    counting: Option<CounterBits>,
}

/// Why a scheme, m and k cannot make a filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    ZeroBits,
    TooManyBits(u64),
    ZeroHashes,
    TooManyHashes(u32),
    ByteSumNeedsTwo(u32),
    Djb2FnvNeedsTwoBits,
    /// A counter width outside 1 to 8 bits.
    CounterBits(u64),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::ZeroBits => write!(f, "a filter needs at least 1 bit, got m = 0"),
            SpecError::TooManyBits(m) => {
                write!(
                    f,
                    "m = {m} is too large, the most is {MAX_BITS} (2^32) bits"
                )
            }
            SpecError::ZeroHashes => write!(f, "a filter needs at least 1 hash, got k = 0"),
            SpecError::TooManyHashes(k) => {
                write!(f, "k = {k} is too large, the most is {MAX_HASHES} hashes")
            }
            SpecError::ByteSumNeedsTwo(k) => write!(
                f,
                "the bytesum scheme has exactly 2 hashes (h1 and h2), got k = {k}; \
                 use --scheme djb2-fnv or murmur3 for other k"
            ),
            SpecError::Djb2FnvNeedsTwoBits => write!(
                f,
                "the djb2-fnv scheme needs m of at least 2 (its step is b mod (m-1) + 1)"
            ),
            SpecError::CounterBits(b) => {
                write!(f, "a counter has 1 to {} bits, got {b}", CounterBits::MAX)
            }
        }
    }
}

impl std::error::Error for SpecError {}

impl FilterSpec {
    /// The spec for `scheme`, with the m and k it is taught with unless given.
    pub fn new(scheme: Scheme, m: Option<u64>, k: Option<u32>) -> Result<FilterSpec, SpecError> {
        let m = m.unwrap_or(scheme.default_bits());
        let k = k.unwrap_or(scheme.default_hashes());
        if m == 0 {
            return Err(SpecError::ZeroBits);
        }
        if m > MAX_BITS {
            return Err(SpecError::TooManyBits(m));
        }
        if k == 0 {
            return Err(SpecError::ZeroHashes);
        }
        if k > MAX_HASHES {
            return Err(SpecError::TooManyHashes(k));
        }
        if scheme == Scheme::ByteSum && k != 2 {
            return Err(SpecError::ByteSumNeedsTwo(k));
        }
        if scheme == Scheme::Djb2Fnv && m < 2 {
            return Err(SpecError::Djb2FnvNeedsTwoBits);
        }
        Ok(FilterSpec {
            scheme,
            m,
            k,
            counting: None,
        })
    }

    /// The same shape with `bits`-bit counters (a counting filter), or with plain bits for
    /// `None`.
    pub fn with_counters(self, bits: Option<u8>) -> Result<FilterSpec, SpecError> {
        let counting = bits.map(|b| CounterBits::new(u64::from(b))).transpose()?;
        Ok(FilterSpec { counting, ..self })
    }

    /// The width of each counter in a counting filter; `None` for a plain filter of bits.
    pub fn counter_bits(&self) -> Option<u8> {
        self.counting.map(CounterBits::get)
    }

    /// The counters' width, if this is a counting filter.
    pub(crate) fn counting(&self) -> Option<CounterBits> {
        self.counting
    }

    /// The 64-bit byte-sum filter: bytesum, m = 64, k = 2.
    pub fn lesson() -> FilterSpec {
        FilterSpec {
            scheme: Scheme::ByteSum,
            m: 64,
            k: 2,
            counting: None,
        }
    }

    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// Number of bits, m (1..=2^32).
    pub fn bits(&self) -> u64 {
        self.m
    }

    /// Number of hashes, k (1..=MAX_HASHES).
    pub fn hashes(&self) -> u32 {
        self.k
    }

    /// Replaces `out` with the key's k positions, each in `0..m`, in hash order
    /// (h1 first). Positions may repeat.
    pub fn positions(&self, key: &[u8], out: &mut Vec<u64>) {
        out.clear();
        self.all_positions(key, |pos| {
            out.push(pos);
            true
        });
    }

    /// Whether `test` holds for every one of the key's positions, computing them one at a
    /// time, in hash order, and stopping at the first that fails: a NO usually needs one or
    /// two hashes. This is the one place each scheme's positions are computed.
    #[inline(always)]
    pub fn all_positions(&self, key: &[u8], mut test: impl FnMut(u64) -> bool) -> bool {
        match self.scheme {
            Scheme::ByteSum => {
                let (h1, h2) = byte_sums(key);
                test(reduce(h1, self.m)) && test(reduce(h2, self.m))
            }
            Scheme::Djb2Fnv => {
                let (a, b) = djb2_fnv(key);
                let step = djb2_fnv_step(b, self.m);
                (0..u64::from(self.k)).all(|j| test(djb2_fnv_position(a, step, j, self.m)))
            }
            Scheme::Murmur3 => {
                (0..self.k).all(|seed| test(floor_mod(murmur3_32(key, seed), self.m)))
            }
        }
    }

    /// The numbers that take `key` to its positions, step by step, for the tutor to show.
    /// Uses the same functions as [`FilterSpec::positions`].
    pub(crate) fn derivation(&self, key: &[u8]) -> Derivation {
        let m = self.m;
        match self.scheme {
            Scheme::ByteSum => {
                let (h1, h2) = byte_sums(key);
                Derivation::ByteSum {
                    h1,
                    h2,
                    positions: [reduce(h1, m), reduce(h2, m)],
                }
            }
            Scheme::Djb2Fnv => {
                let (a, b) = djb2_fnv(key);
                let step = djb2_fnv_step(b, m);
                let positions = (0..u64::from(self.k))
                    .map(|j| {
                        let sum = u128::from(a) + u128::from(j) * u128::from(step);
                        (sum, djb2_fnv_position(a, step, j, m))
                    })
                    .collect();
                Derivation::Djb2Fnv {
                    a,
                    b,
                    step,
                    positions,
                }
            }
            Scheme::Murmur3 => Derivation::Murmur3 {
                hashes: (0..self.k)
                    .map(|seed| {
                        let h = murmur3_32(key, seed);
                        (h, floor_mod(h, m))
                    })
                    .collect(),
            },
        }
    }
}

/// The numbers behind one key's positions, as each scheme computes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Derivation {
    /// The two sums before the modulo, and the two positions.
    ByteSum {
        h1: u128,
        h2: u128,
        positions: [u64; 2],
    },
    /// The two 32-bit hashes, the step, and for each j the sum a + j·step and its position.
    Djb2Fnv {
        a: u32,
        b: u32,
        step: u64,
        positions: Vec<(u128, u64)>,
    },
    /// For each seed 0, 1, ...: the signed hash and its position.
    Murmur3 { hashes: Vec<(i32, u64)> },
}

impl fmt::Display for FilterSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.counting {
            None => write!(f, "{}, m = {} bits, k = {}", self.scheme, self.m, self.k),
            Some(width) => write!(
                f,
                "{}, m = {} counters of {} {}, k = {}",
                self.scheme,
                self.m,
                width.get(),
                if width.get() == 1 { "bit" } else { "bits" },
                self.k
            ),
        }
    }
}

/// The byte-sum filter's two sums before the modulo: (sum of bytes, sum of byte × 1-based index).
#[inline(always)]
pub fn byte_sums(key: &[u8]) -> (u128, u128) {
    // A u64 cannot overflow below 2^28 bytes (255 · n² / 2 < 2^64); longer keys use u128.
    if key.len() < 1 << 28 {
        // Walking from the last byte, a running sum adds each byte once more for every
        // position before it: h2 = Σ bytes[i]·(i+1) with no multiply.
        let (mut h1, mut h2) = (0u64, 0u64);
        for &b in key.iter().rev() {
            h1 += u64::from(b);
            h2 += h1;
        }
        (u128::from(h1), u128::from(h2))
    } else {
        let (mut h1, mut h2) = (0u128, 0u128);
        for (i, &b) in key.iter().enumerate() {
            h1 += u128::from(b);
            h2 += u128::from(b) * (i as u128 + 1);
        }
        (h1, h2)
    }
}

#[inline]
fn reduce(sum: u128, m: u64) -> u64 {
    if m.is_power_of_two() {
        (sum as u64) & (m - 1)
    } else {
        (sum % u128::from(m)) as u64
    }
}

/// The double-hashing filter's two 32-bit hashes: (djb2-xor, FNV-1a) of the bytes.
pub fn djb2_fnv(key: &[u8]) -> (u32, u32) {
    let (mut a, mut b) = (5381u32, 2166136261u32);
    for &byte in key {
        a = a.wrapping_mul(33) ^ u32::from(byte);
        b = (b ^ u32::from(byte)).wrapping_mul(16777619);
    }
    (a, b)
}

fn djb2_fnv_step(b: u32, m: u64) -> u64 {
    u64::from(b) % (m - 1) + 1
}

fn djb2_fnv_position(a: u32, step: u64, j: u64, m: u64) -> u64 {
    ((u128::from(a) + u128::from(j) * u128::from(step)) % u128::from(m)) as u64
}

/// `h mod m` as Python's `%` computes it: the result has the sign of m, so it is in `0..m`.
pub fn floor_mod(h: i32, m: u64) -> u64 {
    i64::from(h).rem_euclid(m as i64) as u64
}

/// MurmurHash3 x86 32-bit (Austin Appleby's reference), read as a signed 32-bit integer
/// as `mmh3.hash` returns it in Python (the `mmh3` package on PyPI).
pub fn murmur3_32(key: &[u8], seed: u32) -> i32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mut h = seed;
    let mut blocks = key.chunks_exact(4);
    for block in &mut blocks {
        let mut k = u32::from_le_bytes([block[0], block[1], block[2], block[3]]);
        k = k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h ^= k;
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let mut k = 0u32;
        for (i, &b) in tail.iter().enumerate() {
            k |= u32::from(b) << (8 * i);
        }
        k = k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h ^= k;
    }
    // The length is mixed in modulo 2^32, as the reference does.
    h ^= key.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(spec: FilterSpec, key: &str) -> Vec<u64> {
        let mut out = Vec::new();
        spec.positions(key.as_bytes(), &mut out);
        out
    }

    #[test]
    fn bytesum_matches_the_lesson_trace() {
        let s = FilterSpec::lesson();
        assert_eq!(positions(s, "fig"), [54, 45]);
        assert_eq!(positions(s, "lime"), [39, 25]);
        assert_eq!(positions(s, "date"), [30, 22]);
        assert_eq!(positions(s, "plum"), [62, 27]);
        assert_eq!(positions(s, "sun"), [22, 39]);
    }

    #[test]
    fn bytesum_hashes_bytes_not_characters() {
        // café is c a f 0xC3 0xA9: five bytes.
        let (h1, h2) = byte_sums("café".as_bytes());
        assert_eq!(h1, 99 + 97 + 102 + 195 + 169);
        assert_eq!(h2, 99 + 97 * 2 + 102 * 3 + 195 * 4 + 169 * 5);
    }

    #[test]
    fn byte_sums_agree_with_the_plain_definition() {
        let key: Vec<u8> = (0..=255u8)
            .chain((0..=255u8).rev())
            .cycle()
            .take(1000)
            .collect();
        for len in 0..key.len() {
            let k = &key[..len];
            let h1: u128 = k.iter().map(|&b| u128::from(b)).sum();
            let h2: u128 = k
                .iter()
                .enumerate()
                .map(|(i, &b)| u128::from(b) * (i as u128 + 1))
                .sum();
            assert_eq!(byte_sums(k), (h1, h2), "key of {len} bytes");
        }
        assert_eq!(byte_sums(&[255; 8]), (2040, 255 * 36));
    }

    #[test]
    fn bytesum_reduces_mod_any_m() {
        let s = FilterSpec::new(Scheme::ByteSum, Some(100), None).unwrap();
        assert_eq!(positions(s, "fig"), [310 % 100, 621 % 100]);
    }

    #[test]
    fn djb2_fnv_matches_the_intro() {
        let s = FilterSpec::new(Scheme::Djb2Fnv, None, None).unwrap();
        let mut set: Vec<u64> = ["cat", "dog", "bird"]
            .iter()
            .flat_map(|k| positions(s, k))
            .collect();
        set.sort();
        set.dedup();
        assert_eq!(set, [1, 3, 8, 9, 11, 14, 15]);
        assert!(positions(s, "sheep").iter().all(|p| set.contains(p)));
        assert!(!positions(s, "cow").iter().all(|p| set.contains(p)));
    }

    #[test]
    fn murmur3_matches_published_vectors() {
        // Vectors from the SMHasher reference and its widely quoted test table.
        let cases: [(&[u8], u32, u32); 9] = [
            (b"", 0, 0),
            (b"", 1, 0x514E_28B7),
            (b"", 0xffff_ffff, 0x81F1_6F39),
            (b"\0\0\0\0", 0, 0x2362_F9DE),
            (b"aaaa", 0x9747_b28c, 0x5A97_808A),
            (b"abc", 0, 0xB3DD_93FA),
            (b"Hello, world!", 0x9747_b28c, 0x2488_4CBA),
            (
                b"The quick brown fox jumps over the lazy dog",
                0x9747_b28c,
                0x2FA8_26CD,
            ),
            (b"a", 0x9747_b28c, 0x7FA0_9EA6),
        ];
        for (key, seed, want) in cases {
            assert_eq!(
                murmur3_32(key, seed) as u32,
                want,
                "murmur3({:?}, {seed:#x})",
                String::from_utf8_lossy(key)
            );
        }
    }

    #[test]
    fn murmur3_is_signed_like_mmh3() {
        // mmh3.hash("foo") == -156908512 in Python, with the `mmh3` package from PyPI.
        assert_eq!(murmur3_32(b"foo", 0), -156908512);
        assert_eq!(floor_mod(-156908512, 100), 88);
    }

    #[test]
    fn floor_mod_is_never_negative() {
        assert_eq!(floor_mod(-1, 100), 99);
        assert_eq!(
            floor_mod(i32::MIN, MAX_BITS),
            (MAX_BITS as i64 + i64::from(i32::MIN)) as u64
        );
        assert_eq!(floor_mod(7, 100), 7);
    }

    #[test]
    fn all_positions_agrees_with_positions() {
        for spec in [
            FilterSpec::lesson(),
            FilterSpec::new(Scheme::Djb2Fnv, Some(37), Some(5)).unwrap(),
            FilterSpec::new(Scheme::Murmur3, Some(1000), Some(7)).unwrap(),
        ] {
            for key in ["fig", "sun", "", "a longer key"] {
                let mut want = Vec::new();
                spec.positions(key.as_bytes(), &mut want);
                let mut got = Vec::new();
                assert!(spec.all_positions(key.as_bytes(), |p| {
                    got.push(p);
                    true
                }));
                assert_eq!(got, want, "{spec} {key}");
                let mut calls = 0;
                assert!(!spec.all_positions(key.as_bytes(), |_| {
                    calls += 1;
                    false
                }));
                assert_eq!(calls, 1, "stops at the first failing position");
            }
        }
    }

    #[test]
    fn refuses_combinations_that_cannot_work() {
        use SpecError::*;
        let err = |s, m, k| FilterSpec::new(s, m, k).unwrap_err();
        assert_eq!(err(Scheme::ByteSum, None, Some(3)), ByteSumNeedsTwo(3));
        assert_eq!(err(Scheme::Djb2Fnv, Some(1), None), Djb2FnvNeedsTwoBits);
        assert_eq!(err(Scheme::Murmur3, Some(0), None), ZeroBits);
        assert_eq!(err(Scheme::Murmur3, None, Some(0)), ZeroHashes);
        assert_eq!(
            err(Scheme::Murmur3, Some(MAX_BITS + 1), None),
            TooManyBits(MAX_BITS + 1)
        );
        assert!(FilterSpec::new(Scheme::Murmur3, Some(MAX_BITS), Some(7)).is_ok());
    }

    #[test]
    fn derivation_holds_the_lessons_numbers() {
        assert_eq!(
            FilterSpec::lesson().derivation(b"fig"),
            Derivation::ByteSum {
                h1: 310,
                h2: 621,
                positions: [54, 45]
            }
        );
    }

    #[test]
    fn derivation_agrees_with_positions() {
        for spec in [
            FilterSpec::new(Scheme::Djb2Fnv, Some(37), Some(5)).unwrap(),
            FilterSpec::new(Scheme::Murmur3, Some(1000), Some(7)).unwrap(),
        ] {
            let got: Vec<u64> = match spec.derivation(b"fig") {
                Derivation::Djb2Fnv { positions, .. } => positions.iter().map(|p| p.1).collect(),
                Derivation::Murmur3 { hashes } => hashes.iter().map(|h| h.1).collect(),
                Derivation::ByteSum { positions, .. } => positions.to_vec(),
            };
            let mut want = Vec::new();
            spec.positions(b"fig", &mut want);
            assert_eq!(got, want, "{spec}");
        }
    }
}
