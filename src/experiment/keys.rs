//! Deterministic keys that look like real ones: words, identifiers and URLs.

/// SplitMix64: a tiny, well-mixed generator, so runs repeat exactly for a seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

const SYLLABLES: [&str; 24] = [
    "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ber", "dan", "fel", "gor", "hul", "jin",
    "mar", "nor", "pel", "quin", "ros", "tam", "ul", "wen", "xo", "zed",
];
const WORDS: [&str; 16] = [
    "apple", "river", "stone", "cloud", "maple", "ember", "harbor", "meadow", "copper", "lantern",
    "orchid", "falcon", "willow", "canyon", "pepper", "silver",
];
const HOSTS: [&str; 6] = [
    "example.org",
    "shop.example.com",
    "docs.example.net",
    "news.example.io",
    "api.example.dev",
    "cdn.example.org",
];

/// Writes key number `serial` into `out` (cleared first). Distinct serials give distinct
/// keys, because the serial is part of every key; `seed` varies the rest.
pub fn key(seed: u64, serial: u64, out: &mut Vec<u8>) {
    out.clear();
    let mut rng = Rng::new(seed ^ serial.wrapping_mul(0x2545_f491_4f6c_dd1d));
    let word = |rng: &mut Rng, out: &mut Vec<u8>| {
        for _ in 0..2 + rng.below(2) {
            out.extend_from_slice(SYLLABLES[rng.below(SYLLABLES.len())].as_bytes());
        }
    };
    let mut number = itoa::Buffer::new();
    let serial = number.format(serial).as_bytes();
    // Built by hand rather than with `write!`: a million keys a second is the goal.
    match rng.below(3) {
        0 => {
            word(&mut rng, out);
            out.extend_from_slice(serial);
        }
        1 => {
            out.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
            out.push(b'_');
            word(&mut rng, out);
            out.push(b'_');
            out.extend_from_slice(serial);
        }
        _ => {
            out.extend_from_slice(b"https://");
            out.extend_from_slice(HOSTS[rng.below(HOSTS.len())].as_bytes());
            out.push(b'/');
            out.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
            out.push(b'/');
            word(&mut rng, out);
            out.push(b'-');
            out.extend_from_slice(serial);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_repeat_for_a_seed_and_differ_by_serial() {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        key(7, 42, &mut a);
        key(7, 42, &mut b);
        assert_eq!(a, b);
        key(7, 43, &mut b);
        assert_ne!(a, b);
        key(7, 5, &mut a);
        assert!(a.ends_with(b"5"), "{}", String::from_utf8_lossy(&a));
        let mut seen = std::collections::HashSet::new();
        for serial in 0..10_000 {
            key(1, serial, &mut a);
            assert!(seen.insert(a.clone()), "key {serial} repeated");
        }
    }
}
