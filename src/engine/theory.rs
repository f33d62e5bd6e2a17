//! The formulas of Bloom-filter theory, written once for STATS, calc, experiment and lessons.

use std::f64::consts::LN_2;

/// The chance that a key never added answers MAYBE now: (X/m)^k, from the bits set X.
pub fn fp_from_fill(bits_set: u64, m: u64, k: u32) -> f64 {
    (bits_set as f64 / m as f64).powi(k as i32)
}

/// The textbook estimate after n distinct keys: (1 − e^(−kn/m))^k.
pub fn fp_textbook(n: f64, m: u64, k: u32) -> f64 {
    // 1 − e^(−x) as −expm1(−x), which keeps its digits when x is tiny.
    (-(-(k as f64) * n / m as f64).exp_m1()).powi(k as i32)
}

/// The number of distinct keys that most likely set X of m bits: −(m/k)·ln(1 − X/m).
/// Infinite when every bit is set.
pub fn keys_from_fill(bits_set: u64, m: u64, k: u32) -> f64 {
    -(m as f64 / k as f64) * (-(bits_set as f64) / m as f64).ln_1p()
}

/// The best number of hashes for m bits and n keys: round((m/n)·ln 2), at least 1.
pub fn best_hashes(m: f64, n: f64) -> u32 {
    ((m / n) * LN_2).round().clamp(1.0, f64::from(u32::MAX)) as u32
}

/// The fewest bits that hold n keys at false-positive rate p: ⌈−n·ln p / (ln 2)²⌉.
pub fn bits_for(n: f64, p: f64) -> f64 {
    (-n * p.ln() / (LN_2 * LN_2)).ceil()
}

/// The most keys m bits and k hashes hold before the textbook rate passes p:
/// n = −(m/k)·ln(1 − p^(1/k)).
pub fn keys_for(m: f64, k: u32, p: f64) -> f64 {
    -(m / k as f64) * (-p.powf(1.0 / k as f64)).ln_1p()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizing_matches_the_usual_reference_values() {
        assert_eq!(bits_for(1000.0, 0.01), 9586.0);
        assert_eq!(best_hashes(9586.0, 1000.0), 7);
        assert_eq!(bits_for(40e6, 1e-6), 1_150_207_006.0);
        assert_eq!(best_hashes(1_150_207_006.0, 40e6), 20);
    }

    #[test]
    fn intro_example_is_about_eight_percent() {
        let p = fp_textbook(3.0, 16, 3);
        assert!((p - 0.0796).abs() < 0.0001, "got {p}");
    }

    #[test]
    fn keys_for_inverts_the_textbook_rate() {
        let n = keys_for(9586.0, 7, 0.01);
        assert!((fp_textbook(n, 9586, 7) - 0.01).abs() < 1e-9);
        assert!((n - 1000.0).abs() < 5.0, "got {n}");
    }

    #[test]
    fn fill_estimates() {
        assert_eq!(fp_from_fill(6, 64, 2), (6.0f64 / 64.0).powi(2));
        assert!(keys_from_fill(64, 64, 2).is_infinite());
        assert_eq!(keys_from_fill(0, 64, 2), 0.0);
    }
}
