//! The saved-filter format, version 1: a filter's shape, its bits or counters and its count of
//! ADDs, with checksums, as bytes. No files here: the caller writes and reads the bytes (see
//! `script/saved_file.rs`). The README documents the layout byte by byte.
//!
//! ```text
//! offset  size  field
//!      0     8  magic: the ASCII bytes `BLOOMTUT`
//!      8     2  format version, 1 (u16, little-endian like every number here)
//!     10     1  scheme: 0 bytesum, 1 djb2-fnv, 2 murmur3
//!     11     1  counter width B: 0 for a plain filter of bits, 1 to 8 for a counting filter
//!     12     4  k, the number of hashes (u32)
//!     16     8  m, the number of bits or counters (u64)
//!     24     8  keys: the ADDs that built the filter, less its REMOVEs (u64)
//!     32     8  payload length in bytes: ceil(m / 8), or ceil(m * B / 8) when counting (u64)
//!     40     4  CRC-32 of bytes 0 to 39 (u32)
//!     44     n  payload: element i (a bit, or a B-bit counter) is stream bits i*W to i*W+W-1,
//!               least significant bit first (W = 1 or B); stream bit j is bit j mod 8 of
//!               payload byte j div 8; the bits after the last element are 0
//!   44+n     4  CRC-32 of bytes 0 to 43+n, everything before it (u32)
//! ```
//!
//! CRC-32 is the IEEE polynomial as zlib, PNG and Python's `zlib.crc32` compute it.

use crate::engine::bloom::Bloom;
use crate::engine::counters::{CounterBits, Counters};
use crate::engine::filter::{Filter, OutOfMemory};
use crate::engine::scheme::{FilterSpec, Scheme};

/// The first eight bytes of every saved filter.
pub(crate) const MAGIC: [u8; 8] = *b"BLOOMTUT";
/// The format this tutor writes, and the only one it reads.
pub(crate) const VERSION: u16 = 1;
/// Bytes before the payload.
pub(crate) const HEADER_LEN: usize = 44;
/// Bytes after the payload: the file's checksum.
pub(crate) const TRAILER_LEN: usize = 4;
/// The longest file version 1 allows: 2^32 counters of 8 bits.
pub(crate) const MAX_FILE_LEN: u64 = HEADER_LEN as u64 + (1 << 32) + TRAILER_LEN as u64;

/// Why some bytes are not a saved filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FormatError {
    /// The bytes stop before the format says they end: `len` of `expected` (at least).
    Truncated { len: u64, expected: u64 },
    /// The bytes do not start with [`MAGIC`]: some other kind of file.
    Foreign,
    /// A saved filter in a format version this tutor does not read.
    Version(u16),
    /// The bytes start like a saved filter, but something in them is wrong.
    Corrupt(Corruption),
}

/// What is wrong in a file that starts like a saved filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Corruption {
    /// The header's checksum does not match its bytes.
    HeaderChecksum,
    /// The file's checksum does not match its bytes.
    Checksum,
    /// The header names a value no filter has (`what`: "scheme", "counter width", ...).
    Field(&'static str),
    /// The file goes on past its end: `len` bytes where the header says `expected`.
    TooLong { len: u64, expected: u64 },
    /// A bit after the last element of the payload is 1.
    PastTheEnd,
}

/// What a saved filter's header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Header {
    pub spec: FilterSpec,
    /// The ADDs that built the filter, less its REMOVEs.
    pub keys: u64,
}

impl Header {
    /// Bits each element of the payload takes: 1 for a bit, B for a counter.
    fn width(&self) -> u64 {
        self.spec.counter_bits().map_or(1, u64::from)
    }

    /// The payload's length in bytes.
    pub(crate) fn payload_len(&self) -> u64 {
        (self.spec.bits() * self.width()).div_ceil(8)
    }

    /// The whole file's length in bytes.
    pub(crate) fn file_len(&self) -> u64 {
        HEADER_LEN as u64 + self.payload_len() + TRAILER_LEN as u64
    }

    /// The header as bytes, its checksum included.
    pub(crate) fn to_bytes(self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&VERSION.to_le_bytes());
        b[10] = scheme_code(self.spec.scheme());
        b[11] = self.spec.counter_bits().unwrap_or(0);
        b[12..16].copy_from_slice(&self.spec.hashes().to_le_bytes());
        b[16..24].copy_from_slice(&self.spec.bits().to_le_bytes());
        b[24..32].copy_from_slice(&self.keys.to_le_bytes());
        b[32..40].copy_from_slice(&self.payload_len().to_le_bytes());
        let crc = crc32(&b[..40]);
        b[40..44].copy_from_slice(&crc.to_le_bytes());
        b
    }

    /// Reads a header from the first bytes of a file (all of them if it is shorter than a
    /// header), saying which kind of file it is when it is not a saved filter.
    pub(crate) fn parse(head: &[u8]) -> Result<Header, FormatError> {
        let truncated = FormatError::Truncated {
            len: head.len() as u64,
            expected: HEADER_LEN as u64,
        };
        if head.len() < MAGIC.len() {
            return Err(if MAGIC.starts_with(head) {
                truncated
            } else {
                FormatError::Foreign
            });
        }
        if head[..8] != MAGIC {
            return Err(FormatError::Foreign);
        }
        let Some(version) = head.get(8..10) else {
            return Err(truncated);
        };
        let version = u16::from_le_bytes([version[0], version[1]]);
        if version != VERSION {
            return Err(FormatError::Version(version));
        }
        let Some(head) = head.get(..HEADER_LEN) else {
            return Err(truncated);
        };
        if crc32(&head[..40]) != le_u32(&head[40..44]) {
            return Err(FormatError::Corrupt(Corruption::HeaderChecksum));
        }
        let bad = |what| FormatError::Corrupt(Corruption::Field(what));
        let scheme = *Scheme::ALL
            .get(usize::from(head[10]))
            .ok_or(bad("scheme"))?;
        let counting = match head[11] {
            0 => None,
            b => Some(CounterBits::new(u64::from(b)).map_err(|_| bad("counter width"))?),
        };
        let k = le_u32(&head[12..16]);
        let m = le_u64(&head[16..24]);
        let spec = FilterSpec::new(scheme, Some(m), Some(k))
            .and_then(|s| s.with_counters(counting.map(CounterBits::get)))
            .map_err(|_| bad("shape (m or k)"))?;
        let header = Header {
            spec,
            keys: le_u64(&head[24..32]),
        };
        if le_u64(&head[32..40]) != header.payload_len() {
            return Err(bad("payload length"));
        }
        Ok(header)
    }
}

/// The code of a scheme in the header: its place in [`Scheme::ALL`].
fn scheme_code(scheme: Scheme) -> u8 {
    match scheme {
        Scheme::ByteSum => 0,
        Scheme::Djb2Fnv => 1,
        Scheme::Murmur3 => 2,
    }
}

fn le_u32(b: &[u8]) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[..4]);
    u32::from_le_bytes(a)
}

fn le_u64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// How many bytes the encoder hands over at a time.
const CHUNK: usize = 64 * 1024;

/// What [`encode`] wrote: the file's length in bytes and its last four bytes, its checksum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Encoded {
    pub len: u64,
    pub checksum: u32,
}

/// Writes `bloom` in the saved format through `emit`, a chunk of at most 64 KiB at a time,
/// so a filter of any size is saved without a second copy of it in memory.
pub(crate) fn encode<E>(
    bloom: &Bloom,
    keys: u64,
    mut emit: impl FnMut(&[u8]) -> Result<(), E>,
) -> Result<Encoded, E> {
    let header = Header {
        spec: bloom.spec(),
        keys,
    };
    let head = header.to_bytes();
    let mut crc = Crc32::new();
    crc.update(&head);
    emit(&head)?;
    let mut buf = Vec::with_capacity(CHUNK);
    let mut flush = |buf: &mut Vec<u8>, crc: &mut Crc32| {
        crc.update(buf);
        let r = emit(buf);
        buf.clear();
        r
    };
    match bloom.counters() {
        None => {
            let mut left = header.payload_len();
            for word in bloom.filter().words() {
                let bytes = word.to_le_bytes();
                let take = left.min(8) as usize;
                buf.extend_from_slice(&bytes[..take]);
                left -= take as u64;
                if buf.len() >= CHUNK - 8 {
                    flush(&mut buf, &mut crc)?;
                }
            }
        }
        Some(counters) => {
            let width = u32::from(counters.width().get());
            let (mut acc, mut held) = (0u32, 0u32);
            for &c in counters.counts() {
                acc |= u32::from(c) << held;
                held += width;
                while held >= 8 {
                    buf.push(acc as u8);
                    acc >>= 8;
                    held -= 8;
                }
                if buf.len() >= CHUNK - 8 {
                    flush(&mut buf, &mut crc)?;
                }
            }
            if held > 0 {
                buf.push(acc as u8);
            }
        }
    }
    flush(&mut buf, &mut crc)?;
    let checksum = crc.finish();
    emit(&checksum.to_le_bytes())?;
    Ok(Encoded {
        len: header.file_len(),
        checksum,
    })
}

/// Reads a saved filter's payload chunk by chunk into the filter it describes, checking the
/// file's checksum at the end.
#[derive(Debug)]
pub(crate) struct Decoder {
    header: Header,
    crc: Crc32,
    seen: u64,
    elements: Elements,
}

#[derive(Debug)]
enum Elements {
    Bits {
        words: Vec<u64>,
    },
    Counters {
        width: u32,
        counts: Vec<u8>,
        /// The bits, set from the counters at the end; had before the first byte is read.
        filter: Filter,
        acc: u32,
        held: u32,
        extra: bool,
    },
}

impl Decoder {
    /// A decoder for the payload after `header`, read from the file's first bytes `head`,
    /// holding all the memory the filter needs; an error, and nothing kept, when that memory
    /// cannot be had (a header of 44 bytes may name 2^32 counters, 4.5 GiB).
    pub(crate) fn new(header: Header, head: &[u8; HEADER_LEN]) -> Result<Decoder, OutOfMemory> {
        let mut crc = Crc32::new();
        crc.update(head);
        let m = header.spec.bits();
        let elements = match header.spec.counter_bits() {
            None => {
                let len = m.div_ceil(64) as usize;
                let mut words = Vec::new();
                words.try_reserve_exact(len).map_err(|_| OutOfMemory {
                    bytes: len as u64 * 8,
                    bits: m,
                })?;
                words.resize(len, 0);
                Elements::Bits { words }
            }
            Some(width) => {
                let mut counts = Vec::new();
                counts
                    .try_reserve_exact(m as usize)
                    .map_err(|_| OutOfMemory { bytes: m, bits: m })?;
                Elements::Counters {
                    width: u32::from(width),
                    counts,
                    filter: Filter::try_new(m)?,
                    acc: 0,
                    held: 0,
                    extra: false,
                }
            }
        };
        Ok(Decoder {
            header,
            crc,
            seen: 0,
            elements,
        })
    }

    /// The next bytes of the payload (the caller stops at its length).
    pub(crate) fn feed(&mut self, chunk: &[u8]) {
        self.crc.update(chunk);
        let m = self.header.spec.bits();
        match &mut self.elements {
            Elements::Bits { words } => {
                for (i, &b) in chunk.iter().enumerate() {
                    let at = self.seen + i as u64;
                    words[(at / 8) as usize] |= u64::from(b) << (8 * (at % 8));
                }
            }
            Elements::Counters {
                width,
                counts,
                acc,
                held,
                extra,
                ..
            } => {
                let mask = (1u32 << *width) - 1;
                for &b in chunk {
                    *acc |= u32::from(b) << *held;
                    *held += 8;
                    while *held >= *width {
                        let c = (*acc & mask) as u8;
                        if (counts.len() as u64) < m {
                            counts.push(c);
                        } else {
                            *extra |= c != 0;
                        }
                        *acc >>= *width;
                        *held -= *width;
                    }
                }
            }
        }
        self.seen += chunk.len() as u64;
    }

    /// The filter and its count of keys, once the whole payload was fed, given the file's
    /// last four bytes.
    pub(crate) fn finish(self, trailer: [u8; TRAILER_LEN]) -> Result<(Bloom, u64), FormatError> {
        if self.crc.finish() != u32::from_le_bytes(trailer) {
            return Err(FormatError::Corrupt(Corruption::Checksum));
        }
        let spec = self.header.spec;
        let past = FormatError::Corrupt(Corruption::PastTheEnd);
        let (filter, counters) = match self.elements {
            Elements::Bits { words } => (Filter::from_words(spec.bits(), words).ok_or(past)?, None),
            Elements::Counters {
                counts,
                mut filter,
                acc,
                extra,
                ..
            } => {
                if extra || acc != 0 {
                    return Err(past);
                }
                let width = spec.counting().ok_or(past)?;
                let counters = Counters::from_counts(width, counts).ok_or(past)?;
                for (pos, &c) in counters.counts().iter().enumerate() {
                    if c > 0 {
                        filter.set(pos as u64);
                    }
                }
                (filter, Some(counters))
            }
        };
        let bloom = Bloom::from_parts(spec, filter, counters).ok_or(past)?;
        Ok((bloom, self.header.keys))
    }
}

/// CRC-32 (IEEE 802.3, reflected, as zlib computes it), a byte at a time from a table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Crc32(u32);

static CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut j = 0;
        while j < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            j += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

impl Crc32 {
    pub(crate) fn new() -> Crc32 {
        Crc32(!0)
    }

    pub(crate) fn update(&mut self, bytes: &[u8]) {
        let mut c = self.0;
        for &b in bytes {
            c = CRC_TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8);
        }
        self.0 = c;
    }

    pub(crate) fn finish(self) -> u32 {
        !self.0
    }
}

/// The CRC-32 of `bytes`.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let mut c = Crc32::new();
    c.update(bytes);
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(bloom: &Bloom, keys: u64) -> Vec<u8> {
        let mut out = Vec::new();
        let n = encode(bloom, keys, |b| {
            out.extend_from_slice(b);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(
            n.len,
            out.len() as u64,
            "the length returned is the length written"
        );
        assert_eq!(n.checksum, le_u32(&out[out.len() - 4..]));
        out
    }

    fn decoded(bytes: &[u8]) -> Result<(Bloom, u64), FormatError> {
        let header = Header::parse(&bytes[..bytes.len().min(HEADER_LEN)])?;
        let expected = header.file_len();
        if (bytes.len() as u64) < expected {
            return Err(FormatError::Truncated {
                len: bytes.len() as u64,
                expected,
            });
        }
        if (bytes.len() as u64) > expected {
            return Err(FormatError::Corrupt(Corruption::TooLong {
                len: bytes.len() as u64,
                expected,
            }));
        }
        let mut head = [0u8; HEADER_LEN];
        head.copy_from_slice(&bytes[..HEADER_LEN]);
        let mut d = Decoder::new(header, &head).expect("a small filter fits in memory");
        let end = bytes.len() - TRAILER_LEN;
        // Fed in uneven pieces, as reads may come.
        for piece in bytes[HEADER_LEN..end].chunks(7) {
            d.feed(piece);
        }
        let mut trailer = [0u8; 4];
        trailer.copy_from_slice(&bytes[end..]);
        d.finish(trailer)
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn the_lesson_filter_is_56_bytes_laid_out_as_documented() {
        let mut bloom = Bloom::new(FilterSpec::lesson());
        for key in ["fig", "lime", "date"] {
            bloom.add(key.as_bytes());
        }
        let bytes = encoded(&bloom, 3);
        assert_eq!(bytes.len(), 44 + 8 + 4);
        assert_eq!(&bytes[..8], b"BLOOMTUT");
        assert_eq!(bytes[8..10], [1, 0], "version 1");
        assert_eq!(bytes[10..12], [0, 0], "bytesum, plain");
        assert_eq!(bytes[12..16], [2, 0, 0, 0], "k = 2");
        assert_eq!(bytes[16], 64, "m = 64");
        assert_eq!(bytes[24], 3, "three keys");
        assert_eq!(bytes[32], 8, "an 8-byte payload");
        // Bits 22, 25, 30, 39, 45, 54: byte 2 holds bit 22 as its bit 6, and so on.
        assert_eq!(bytes[44..52], [0, 0, 0x40, 0x42, 0x80, 0x20, 0x40, 0]);
        assert_eq!(
            le_u32(&bytes[52..]),
            crc32(&bytes[..52]),
            "the file ends with the CRC of everything before"
        );
    }

    #[test]
    fn round_trips_every_shape() {
        let shapes = [
            (Scheme::ByteSum, 64, 2, None),
            (Scheme::ByteSum, 1, 2, Some(4)),
            (Scheme::Djb2Fnv, 16, 3, Some(1)),
            (Scheme::Djb2Fnv, 37, 5, Some(3)),
            (Scheme::Murmur3, 100, 10, None),
            (Scheme::Murmur3, 100_003, 7, Some(8)),
            (Scheme::Murmur3, 65, 7, Some(5)),
        ];
        for (scheme, m, k, b) in shapes {
            let spec = FilterSpec::new(scheme, Some(m), Some(k))
                .unwrap()
                .with_counters(b)
                .unwrap();
            let mut bloom = Bloom::new(spec);
            for i in 0..200 {
                bloom.add(format!("key{}", i % 70).as_bytes());
            }
            let bytes = encoded(&bloom, 200);
            let (back, keys) = decoded(&bytes).unwrap_or_else(|e| panic!("{spec}: {e:?}"));
            assert_eq!(keys, 200);
            assert_eq!(back.spec(), spec);
            assert_eq!(back.filter(), bloom.filter(), "{spec}: bits");
            assert_eq!(back.counters(), bloom.counters(), "{spec}: counters");
        }
    }

    #[test]
    fn says_which_kind_of_bad_file() {
        let mut bloom = Bloom::new(FilterSpec::lesson().with_counters(Some(4)).unwrap());
        bloom.add(b"fig");
        let good = encoded(&bloom, 1);
        assert!(decoded(&good).is_ok());
        assert_eq!(
            decoded(&good[..20]).err(),
            Some(FormatError::Truncated {
                len: 20,
                expected: 44
            })
        );
        assert_eq!(
            decoded(&good[..50]).err(),
            Some(FormatError::Truncated {
                len: 50,
                expected: good.len() as u64
            })
        );
        assert_eq!(
            decoded(b"BLOOM").err(),
            Some(FormatError::Truncated {
                len: 5,
                expected: 44
            })
        );
        assert_eq!(
            decoded(b"{\"lesson\": 1}").err(),
            Some(FormatError::Foreign)
        );
        assert_eq!(
            decoded(b"").err(),
            Some(FormatError::Truncated {
                len: 0,
                expected: 44
            })
        );
        let mut newer = good.clone();
        newer[8] = 2;
        assert_eq!(decoded(&newer).err(), Some(FormatError::Version(2)));
        let mut longer = good.clone();
        longer.push(0);
        assert!(matches!(
            decoded(&longer),
            Err(FormatError::Corrupt(Corruption::TooLong { .. }))
        ));
    }

    #[test]
    fn every_flipped_byte_is_refused() {
        let spec = FilterSpec::new(Scheme::Murmur3, Some(45), Some(3))
            .unwrap()
            .with_counters(Some(3))
            .unwrap();
        let mut bloom = Bloom::new(spec);
        for key in ["a", "b", "c", "d"] {
            bloom.add(key.as_bytes());
        }
        let good = encoded(&bloom, 4);
        for i in 0..good.len() {
            for flip in [1u8, 0x80, 0xff] {
                let mut bad = good.clone();
                bad[i] ^= flip;
                assert!(
                    decoded(&bad).is_err(),
                    "byte {i} xor {flip:#x} was accepted"
                );
            }
        }
    }
}
