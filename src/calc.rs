//! `bloom-tutor calc`: sizes a filter. Give some of n, p, m and k; it works out the rest.

use std::io::Write;

use anyhow::bail;
use serde::Serialize;

use crate::cli::CalcArgs;
use crate::engine::theory;
use crate::render::commentary::percent;

/// A worked-out filter size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sizing {
    /// Keys the filter holds.
    pub items: f64,
    /// Bits, m.
    pub bits: f64,
    /// Hashes, k.
    pub hashes: u32,
    /// The textbook false-positive rate with these n, m and k.
    pub fp: f64,
}

impl Sizing {
    /// n keys in m bits with k hashes, and the textbook rate that gives.
    fn new(items: f64, bits: f64, hashes: u32) -> Sizing {
        Sizing {
            items,
            bits,
            hashes,
            fp: theory::fp_textbook(items, bits as u64, hashes),
        }
    }
}

/// Works out what `args` leaves open.
pub fn solve(args: &CalcArgs) -> anyhow::Result<Sizing> {
    if let Some(p) = args.fp
        && !(p > 0.0 && p < 1.0)
    {
        bail!("the false-positive rate must be between 0 and 1 (0% and 100%), got {p}");
    }
    for (name, v) in [("--items", args.items), ("--bits", args.bits)] {
        if let Some(v) = v
            && !(v >= 1.0 && v.is_finite())
        {
            bail!("{name} must be at least 1, got {v}");
        }
    }
    if args.hashes == Some(0) {
        bail!("--hashes must be at least 1");
    }
    // n and m known: k is given or the best for them, and p follows.
    let from_n_and_m = |n: f64, m: f64| {
        let k = args.hashes.unwrap_or_else(|| theory::best_hashes(m, n));
        Sizing::new(n, m, k)
    };
    let s = match (args.items, args.fp, args.bits) {
        (Some(n), Some(p), None) => from_n_and_m(n, theory::bits_for(n, p)),
        (Some(n), None, Some(m)) => from_n_and_m(n, m),
        (None, Some(p), Some(m)) => {
            // With k free, the best k for a rate p is log2(1/p).
            let k = args
                .hashes
                .unwrap_or_else(|| (-p.log2()).round().max(1.0) as u32);
            Sizing::new(theory::keys_for(m, k, p).floor(), m, k)
        }
        (Some(_), Some(_), Some(_)) => bail!(
            "n, p and m are all given, so there is nothing to work out; leave one of --items, --fp and --bits out"
        ),
        _ => bail!(
            "give two of --items N, --fp P and --bits M (and --hashes K if you want a fixed k), \
             for example `{} calc --items 1000 --fp 1%`",
            crate::invoked::tutor()
        ),
    };
    Ok(s)
}

/// Runs `calc`, writing the result to `out`.
pub fn run(args: &CalcArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let s = solve(args)?;
    if args.json {
        #[derive(Serialize)]
        struct Json {
            items: f64,
            bits: f64,
            bytes: f64,
            bits_per_key: f64,
            hashes: u32,
            fp: f64,
        }
        let json = Json {
            items: s.items,
            bits: s.bits,
            bytes: (s.bits / 8.0).ceil(),
            bits_per_key: s.bits / s.items,
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
        "bits (m):             {} bits = {}",
        group(s.bits),
        bytes((s.bits / 8.0).ceil())
    )?;
    writeln!(out, "bits per key:         {:.2}", s.bits / s.items)?;
    writeln!(out, "hashes (k):           {}", s.hashes)?;
    writeln!(
        out,
        "false positives (p):  {} ({:.3e}), from (1 - e^(-kn/m))^k",
        percent(s.fp),
        s.fp
    )?;
    Ok(())
}

/// A whole number with thousands separators: 1,150,207,006.
pub(crate) fn group(x: f64) -> String {
    let digits = format!("{:.0}", x);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes in the largest binary unit that keeps the number at least 1.
fn bytes(b: f64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b;
    let mut i = 0;
    while v >= 1024.0 && i < units.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{} bytes", group(b))
    } else {
        format!("{} bytes ({v:.1} {})", group(b), units[i])
    }
}

/// A rate: `0.01`, `1%` or `1/100`.
pub fn parse_rate(s: &str) -> Result<f64, String> {
    let bad = || format!("expected a rate such as 0.01, 1% or 1/100, got `{s}`");
    let t = s.trim();
    let v = if let Some(pct) = t.strip_suffix('%') {
        pct.trim().parse::<f64>().map_err(|_| bad())? / 100.0
    } else if let Some((a, b)) = t.split_once('/') {
        let (a, b): (f64, f64) = (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        );
        if b == 0.0 {
            return Err(bad());
        }
        a / b
    } else {
        t.parse::<f64>().map_err(|_| bad())?
    };
    if v > 0.0 && v < 1.0 {
        Ok(v)
    } else {
        Err(format!(
            "a false-positive rate must be between 0 and 1, got `{s}`"
        ))
    }
}

/// A count: `1000`, `1e6`, `40M`, `2k`, `1,000`.
pub fn parse_count(s: &str) -> Result<f64, String> {
    let bad = || format!("expected a number such as 1000, 1e6 or 40M, got `{s}`");
    let t = s.trim().replace(['_', ','], "");
    let (num, mult) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1e3),
        Some('M') => (&t[..t.len() - 1], 1e6),
        Some('G' | 'B') => (&t[..t.len() - 1], 1e9),
        _ => (&t[..], 1.0),
    };
    let v = num.parse::<f64>().map_err(|_| bad())? * mult;
    if v.is_finite() && v > 0.0 {
        Ok(v.round())
    } else {
        Err(bad())
    }
}

/// A size in bits (`9586`, `1e6`) or in bytes with a unit (`8KiB`, `1.5MB`, `512B`).
pub fn parse_bits(s: &str) -> Result<f64, String> {
    let bad =
        || format!("expected bits such as 9586 or 1e6, or bytes such as 8KiB or 1.5MB, got `{s}`");
    let t = s.trim().replace(['_', ','], "");
    let units: [(&str, f64); 9] = [
        ("KiB", 1024.0),
        ("MiB", 1024.0 * 1024.0),
        ("GiB", 1024.0 * 1024.0 * 1024.0),
        ("KB", 1e3),
        ("kB", 1e3),
        ("MB", 1e6),
        ("GB", 1e9),
        ("B", 1.0),
        ("", 0.125),
    ];
    for (unit, bytes) in units {
        if let Some(num) = t.strip_suffix(unit)
            && let Ok(v) = num.trim().parse::<f64>()
        {
            let bits = (v * bytes * 8.0).round();
            return if bits.is_finite() && bits >= 1.0 {
                Ok(bits)
            } else {
                Err(bad())
            };
        }
    }
    Err(bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(
        items: Option<f64>,
        fp: Option<f64>,
        bits: Option<f64>,
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

    #[test]
    fn reference_values() {
        let s = solve(&args(Some(1000.0), Some(0.01), None, None)).unwrap();
        assert_eq!((s.bits, s.hashes), (9586.0, 7));
        assert!((s.fp - 0.01).abs() < 0.0005, "{}", s.fp);
        let s = solve(&args(Some(40e6), Some(1e-6), None, None)).unwrap();
        assert_eq!((s.bits, s.hashes), (1_150_207_006.0, 20));
    }

    #[test]
    fn solves_each_direction() {
        let s = solve(&args(Some(1000.0), None, Some(9586.0), None)).unwrap();
        assert_eq!(s.hashes, 7);
        let s = solve(&args(Some(1000.0), None, Some(9586.0), Some(3))).unwrap();
        assert_eq!(s.hashes, 3);
        assert!(s.fp > 0.01);
        let s = solve(&args(None, Some(0.01), Some(9586.0), Some(7))).unwrap();
        assert!((s.items - 1000.0).abs() < 5.0, "{}", s.items);
        // The 16-bit double-hashing filter: m = 16, k = 3, n = 3 gives about 8%.
        let s = solve(&args(Some(3.0), None, Some(16.0), Some(3))).unwrap();
        assert!((s.fp - 0.0796).abs() < 0.0005, "{}", s.fp);
    }

    #[test]
    fn refuses_what_it_cannot_solve() {
        assert!(solve(&args(Some(1000.0), None, None, None)).is_err());
        assert!(solve(&args(Some(1.0), Some(0.1), Some(10.0), None)).is_err());
        assert!(solve(&args(Some(1000.0), Some(1.5), None, None)).is_err());
    }

    #[test]
    fn parses_units() {
        assert_eq!(parse_rate("0.01"), Ok(0.01));
        assert_eq!(parse_rate("1%"), Ok(0.01));
        assert_eq!(parse_rate("1/100"), Ok(0.01));
        assert!(parse_rate("150%").is_err());
        assert!(parse_rate("1/0").is_err());
        assert_eq!(parse_bits("9586"), Ok(9586.0));
        assert_eq!(parse_bits("1e6"), Ok(1e6));
        assert_eq!(parse_bits("8KiB"), Ok(65536.0));
        assert_eq!(parse_bits("1.5MB"), Ok(12e6));
        assert!(parse_bits("lots").is_err());
        assert_eq!(parse_count("1e6"), Ok(1e6));
        assert_eq!(parse_count("40M"), Ok(40e6));
        assert_eq!(parse_count("1,000"), Ok(1000.0));
        assert!(parse_count("-3").is_err());
    }

    #[test]
    fn groups_thousands() {
        assert_eq!(group(1_150_207_006.0), "1,150,207,006");
        assert_eq!(group(9586.0), "9,586");
        assert_eq!(group(12.0), "12");
    }
}
