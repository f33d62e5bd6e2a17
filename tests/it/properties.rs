//! Properties of the interpreter on generated scripts: it agrees with a tiny model of the
//! lesson's protocol, never loses a key, and never panics on any bytes.

use std::io::Write;
use std::process::{Command as Process, Stdio};

use bloom_tutor::{Answer, Bloom, FilterSpec, Scheme, ScriptRunner, Source};
use proptest::prelude::*;

/// The protocol as the lesson states it, written as plainly as possible.
/// Returns (stdout, number of bad lines).
fn model(script: &[u8]) -> (Vec<u8>, usize) {
    let mut bits = [false; 64];
    let (mut out, mut bad) = (Vec::new(), 0);
    let mut lines: Vec<&[u8]> = script.split(|&b| b == b'\n').collect();
    if script.ends_with(b"\n") || script.is_empty() {
        lines.pop();
    }
    for mut line in lines {
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        if line.first() == Some(&b'#') || line.iter().all(|&b| b == b' ' || b == b'\t') {
            continue;
        }
        let (word, key) = match line.iter().position(|&b| b == b' ') {
            Some(i) => (&line[..i], Some(&line[i + 1..])),
            None => (line, None),
        };
        let hashes = |key: &[u8]| {
            let h1: u64 = key.iter().map(|&b| b as u64).sum();
            let h2: u64 = key
                .iter()
                .enumerate()
                .map(|(i, &b)| b as u64 * (i as u64 + 1))
                .sum();
            [(h1 % 64) as usize, (h2 % 64) as usize]
        };
        match (word.to_ascii_uppercase().as_slice(), key) {
            (b"ADD", Some(key)) if !key.is_empty() => {
                for h in hashes(key) {
                    bits[h] = true;
                }
            }
            (b"CHECK", Some(key)) if !key.is_empty() => {
                let maybe = hashes(key).iter().all(|&h| bits[h]);
                out.extend_from_slice(if maybe { b"MAYBE\n" } else { b"NO\n" });
            }
            (b"BITS", None) | (b"BITS", Some(b"")) => {
                out.extend(bits.iter().map(|&b| if b { b'1' } else { b'0' }));
                out.push(b'\n');
            }
            _ => bad += 1,
        }
    }
    (out, bad)
}

/// Words the model does not know but the tutor does: scripts with them are skipped.
fn uses_tutor_only_words(script: &[u8]) -> bool {
    script.split(|&b| b == b'\n').any(|line| {
        let word = line.split(|&b| b == b' ').next().unwrap_or(b"");
        let word = word.strip_suffix(b"\r").unwrap_or(word);
        [
            "EXPLAIN",
            "STATS",
            "CLEAR",
            "HELP",
            "QUIT",
            "EXIT",
            "COUNTS",
            "SAVE",
            "LOAD",
            "UNION",
            "INTERSECT",
        ]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w.as_bytes()))
    })
}

/// Runs a script in-process through the binary's own path (the same constructor).
fn run_in_process(script: &[u8], spec: FilterSpec, explain: bool) -> (Vec<u8>, u64) {
    let mut runner = ScriptRunner::new(spec, explain, true);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let end = runner
        .run(script, Source::Stdin, &mut out, &mut err)
        .expect("writing to a Vec cannot fail");
    (out, end.bad_lines)
}

/// Any byte in any position: separators other than a space, control bytes, non-UTF-8.
fn noisy_line() -> impl Strategy<Value = Vec<u8>> {
    let word = prop::sample::select(vec!["ADD", "add", "CHECK", "cHECK", "BITS", "bits"]);
    (
        word,
        any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
        prop::collection::vec(
            any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
            0..10,
        ),
    )
        .prop_map(|(w, sep, rest)| [w.as_bytes(), &[sep], &rest].concat())
}

/// A line of a script: mostly commands, sometimes noise, in any case, with any key bytes.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let key = prop::collection::vec(
        any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
        0..12,
    );
    let word = prop::sample::select(vec![
        "ADD", "add", "Add", "CHECK", "check", "BITS", "bits", "ADDx", "", "#", "REMOVE", "CHECK\t",
    ]);
    prop_oneof![
        4 => (word, key.clone()).prop_map(|(w, k)| [w.as_bytes(), b" ", &k].concat()),
        2 => noisy_line(),
        1 => prop::sample::select(vec!["BITS", "bits", "BITS ", "BITS x", "ADD", "CHECK", "", "  "])
            .prop_map(|s| s.as_bytes().to_vec()),
        1 => key,
    ]
}

fn script() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(line(), 0..40),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf, final_newline)| {
            let mut s = lines.join(if crlf { &b"\r\n"[..] } else { &b"\n"[..] });
            if final_newline && !s.is_empty() {
                s.push(b'\n');
            }
            s
        })
}

fn any_spec() -> impl Strategy<Value = FilterSpec> {
    (
        prop::sample::select(Scheme::ALL.to_vec()),
        2u64..300,
        1u32..12,
    )
        .prop_map(|(s, m, k)| {
            let k = if s == Scheme::ByteSum { 2 } else { k };
            FilterSpec::new(s, Some(m), Some(k)).expect("generated specs are valid")
        })
}

/// Any spec, plain or counting with counters of 1 to 8 bits.
fn any_shape() -> impl Strategy<Value = FilterSpec> {
    (any_spec(), prop::option::of(1u8..=8))
        .prop_map(|(spec, bits)| spec.with_counters(bits).expect("widths 1 to 8 are valid"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn output_equals_the_model(script in script()) {
        prop_assume!(!uses_tutor_only_words(&script));
        let (want, want_bad) = model(&script);
        let (got, bad) = run_in_process(&script, FilterSpec::lesson(), false);
        prop_assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&want));
        prop_assert_eq!(bad as usize, want_bad, "bad line count");
    }

    #[test]
    fn no_false_negatives(keys in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..20), 1..60), spec in any_spec()) {
        let mut bloom = Bloom::new(spec);
        for key in &keys {
            bloom.add(key);
        }
        for key in &keys {
            prop_assert_eq!(bloom.check(key), Answer::Maybe, "key {:?} lost in {}", key, spec);
        }
    }

    #[test]
    fn any_bytes_run_without_panic(bytes in prop::collection::vec(any::<u8>(), 0..400), spec in any_shape(), explain in any::<bool>()) {
        let _ = run_in_process(&bytes, spec, explain);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The same property through the real binary, exit status included.
    #[test]
    fn binary_equals_the_model(script in script()) {
        prop_assume!(!uses_tutor_only_words(&script));
        let (want, want_bad) = model(&script);
        let mut child = Process::new(env!("CARGO_BIN_EXE_bloom-tutor"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        child.stdin.take().expect("stdin is piped").write_all(&script).expect("script written");
        let output = child.wait_with_output().expect("the binary finishes");
        prop_assert_eq!(String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&want));
        prop_assert_eq!(output.status.code(), Some(if want_bad > 0 { 1 } else { 0 }));
        let messages = String::from_utf8_lossy(&output.stderr)
            .lines()
            .filter(|l| l.starts_with("error: "))
            .count();
        prop_assert_eq!(messages, want_bad, "one message per bad line: {}", String::from_utf8_lossy(&output.stderr));
    }
}

/// Lines without commentary: what `grep -v '^#'` leaves.
fn without_commentary(out: &[u8]) -> Vec<u8> {
    out.split_inclusive(|&b| b == b'\n')
        .filter(|line| !line.starts_with(b"#"))
        .flatten()
        .copied()
        .collect()
}

/// Scripts that also use the tutor's own commands, whose output is commentary.
fn tutor_script() -> impl Strategy<Value = Vec<u8>> {
    let extra = prop::sample::select(vec![
        "EXPLAIN fig",
        "EXPLAIN sun",
        "STATS",
        "HELP",
        "HELP add",
        "CLEAR",
        "explain \u{e9}",
        "REMOVE fig",
        "REMOVE sun",
        "COUNTS",
    ])
    .prop_map(|s| s.as_bytes().to_vec());
    prop::collection::vec(prop_oneof![4 => line(), 1 => extra], 0..40)
        .prop_map(|lines| lines.join(&b"\n"[..]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `bloom-tutor --explain s | grep -v '^#'` prints what `bloom-tutor s` prints.
    #[test]
    fn commentary_is_only_ever_hash_lines(script in tutor_script(), spec in any_shape()) {
        let (plain, bad_plain) = run_in_process(&script, spec, false);
        let (explained, bad_explained) = run_in_process(&script, spec, true);
        prop_assert_eq!(bad_plain, bad_explained);
        let kept = String::from_utf8_lossy(&without_commentary(&explained)).into_owned();
        let plain_kept = String::from_utf8_lossy(&without_commentary(&plain)).into_owned();
        prop_assert_eq!(&kept, &plain_kept);
        if !uses_tutor_only_words(&script) {
            prop_assert_eq!(&kept, &String::from_utf8_lossy(&plain).into_owned());
        }
    }
}

/// A line of ADD, CHECK and BITS, with noise, but never REMOVE: the protocol a plain filter
/// and a counting filter share.
fn protocol_line() -> impl Strategy<Value = Vec<u8>> {
    line().prop_filter("no REMOVE", |l| {
        !l.get(..6)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"remove"))
    })
}

/// Keys for commands: any bytes but the line end and CR (which the reader strips).
fn key() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        any::<u8>().prop_filter("not a line end", |b| *b != b'\n' && *b != b'\r'),
        1..10,
    )
}

/// `word key` lines, one per key.
fn lines_of(word: &str, keys: &[Vec<u8>]) -> Vec<u8> {
    keys.iter()
        .flat_map(|k| [word.as_bytes(), b" ", k, b"\n"].concat())
        .collect()
}

/// A folder inside the current one, for the relative paths scripts must use, and a file
/// name in it.
fn local_file(name: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir_in(".").expect("a folder in the current folder");
    let file = format!(
        "{}/{name}",
        dir.path()
            .file_name()
            .expect("a temporary folder has a name")
            .to_string_lossy()
    );
    (dir, file)
}

/// Runs `script` on a filter of shape `spec`, as a plain script would.
fn run_on(spec: FilterSpec, script: &[u8]) -> (Vec<u8>, u64) {
    run_in_process(script, spec, false)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A counting filter gives a plain filter's answers to any script of ADD, CHECK and
    /// BITS, bad lines included.
    #[test]
    fn counting_answers_as_plain(
        lines in prop::collection::vec(protocol_line(), 0..40),
        spec in any_spec(),
        bits in 1u8..=8,
    ) {
        let script = lines.join(&b"\n"[..]);
        let plain = run_on(spec, &script);
        let counted = run_on(spec.with_counters(Some(bits)).expect("valid width"), &script);
        prop_assert_eq!(String::from_utf8_lossy(&counted.0), String::from_utf8_lossy(&plain.0));
        prop_assert_eq!(counted.1, plain.1, "bad lines");
    }

    /// ADD then REMOVE of the same keys, in any order, brings every counter back to 0,
    /// but for counters that were full at some point, which stay full.
    #[test]
    fn add_then_remove_leaves_only_saturated_counters(
        (keys, order) in prop::collection::vec(key(), 1..30)
            .prop_flat_map(|keys| (Just(keys.clone()), Just(keys).prop_shuffle())),
        spec in any_spec(),
        bits in 1u8..=8,
    ) {
        let spec = spec.with_counters(Some(bits)).expect("valid width");
        let mut script = lines_of("ADD", &keys);
        script.extend(lines_of("REMOVE", &order));
        script.extend(b"COUNTS\n");
        let (out, bad) = run_on(spec, &script);
        prop_assert_eq!(bad, 0, "a REMOVE of an added key was refused");
        // How high each counter would have gone with no cap.
        let mut uncapped = vec![0u32; spec.bits() as usize];
        let mut positions = Vec::new();
        for k in &keys {
            spec.positions(k, &mut positions);
            for &p in &positions {
                uncapped[p as usize] += 1;
            }
        }
        let max = (1u32 << bits) - 1;
        let text = String::from_utf8_lossy(&out);
        let counts: Vec<u32> = text
            .trim_end()
            .split(' ')
            .map(|c| c.parse().expect("COUNTS prints numbers"))
            .collect();
        prop_assert_eq!(counts.len(), uncapped.len());
        for (pos, (&got, &peak)) in counts.iter().zip(&uncapped).enumerate() {
            let want = if peak >= max { max } else { 0 };
            prop_assert_eq!(got, want, "counter {} went up to {} of {}", pos, peak, max);
        }
    }

    /// SAVE then LOAD gives back the same BITS, COUNTS and answers, for every scheme, size
    /// and kind of filter.
    #[test]
    fn save_then_load_gives_the_filter_back(
        added in prop::collection::vec(key(), 0..30),
        checked in prop::collection::vec(key(), 0..20),
        spec in any_shape(),
    ) {
        let (_dir, file) = local_file("f.bloom");
        let mut looks = b"BITS\nCOUNTS\n".to_vec();
        looks.extend(lines_of("CHECK", &added));
        looks.extend(lines_of("CHECK", &checked));
        let mut first = lines_of("ADD", &added);
        first.extend(format!("SAVE {file}\n").as_bytes());
        first.extend(&looks);
        let mut second = format!("LOAD {file}\n").into_bytes();
        second.extend(&looks);
        let (before, bad_before) = run_on(spec, &first);
        let (after, bad_after) = run_on(FilterSpec::lesson(), &second);
        prop_assert_eq!(String::from_utf8_lossy(&after), String::from_utf8_lossy(&before));
        prop_assert_eq!(bad_after, bad_before, "COUNTS is a bad line on a plain filter only");
    }

    /// UNION with a saved filter gives the filter that adding both sets of keys gives.
    #[test]
    fn union_equals_adding_both_key_sets(
        ours in prop::collection::vec(key(), 0..20),
        theirs in prop::collection::vec(key(), 0..20),
        spec in any_shape(),
    ) {
        let (_dir, file) = local_file("theirs.bloom");
        let mut merged = lines_of("ADD", &theirs);
        merged.extend(format!("SAVE {file}\nCLEAR\n").as_bytes());
        merged.extend(lines_of("ADD", &ours));
        merged.extend(format!("UNION {file}\nBITS\nCOUNTS\n").as_bytes());
        let mut added = lines_of("ADD", &ours);
        added.extend(lines_of("ADD", &theirs));
        added.extend(b"BITS\nCOUNTS\n");
        let (got, _) = run_on(spec, &merged);
        let (want, _) = run_on(spec, &added);
        prop_assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&want));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any one byte of a saved file changed is refused, and the filter stays as it was.
    #[test]
    fn a_corrupted_byte_anywhere_is_refused(
        added in prop::collection::vec(key(), 0..20),
        spec in any_shape(),
        at in any::<prop::sample::Index>(),
        flip in 1u8..=255,
    ) {
        let (_dir, file) = local_file("f.bloom");
        let mut script = lines_of("ADD", &added);
        script.extend(format!("SAVE {file}\n").as_bytes());
        run_on(spec, &script);
        let mut bytes = std::fs::read(&file).expect("the saved file is there");
        let i = at.index(bytes.len());
        bytes[i] ^= flip;
        std::fs::write(&file, &bytes).expect("the changed file is written");
        let probe = format!("ADD fig\nBITS\nLOAD {file}\nBITS\n");
        let (out, bad) = run_on(FilterSpec::lesson(), probe.as_bytes());
        prop_assert_eq!(bad, 1, "byte {} xor {:#x} was accepted", i, flip);
        let text = String::from_utf8_lossy(&out);
        let lines: Vec<&str> = text.lines().collect();
        prop_assert_eq!(lines.len(), 2);
        prop_assert_eq!(lines[0], lines[1], "a refused LOAD changed the filter");
    }
}
