//! Saved filters under attack, through the real binary: devices and FIFOs behind innocent
//! names, symbolic links out of the folder, a disk that fills up, a file too large for the
//! memory there is, and a file changed behind the tutor's back.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs the tutor in `dir` on `script` (through `sh -c PREFIX` when given), with a deadline
/// so a blocked open fails the test instead of hanging it.
fn run_in(dir: &Path, prefix: Option<&str>, script: &str) -> Output {
    run_with(dir, prefix, &[], script)
}

/// [`run_in`], with arguments for the tutor.
fn run_with(dir: &Path, prefix: Option<&str>, args: &[&str], script: &str) -> Output {
    let bin = env!("CARGO_BIN_EXE_bloom-tutor");
    let mut cmd = match prefix {
        Some(p) => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("{p}; exec \"$0\" \"$@\"")).arg(bin);
            c
        }
        None => Command::new(bin),
    };
    let mut child = cmd
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tutor starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    std::io::Write::write_all(&mut stdin, script.as_bytes()).expect("the script is sent");
    drop(stdin);
    let deadline = Instant::now() + Duration::from_secs(20);
    while child
        .try_wait()
        .expect("the tutor can be waited for")
        .is_none()
    {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the tutor did not finish `{script}`");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("the output is read")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(unix)]
#[test]
fn names_that_lead_to_devices_or_fifos_are_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::os::unix::fs::symlink("/dev/full", d.join("full.bloom")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.bloom")).unwrap();
    let made = Command::new("mkfifo").arg(d.join("fifo.bloom")).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let out = run_in(
        d,
        None,
        "ADD fig\nSAVE full.bloom\nSAVE fifo.bloom\nLOAD zero.bloom\nLOAD fifo.bloom\nUNION fifo.bloom\nBITS\n",
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("SAVE `full.bloom`: it is not a regular file (a character device)"),
        "{err}"
    );
    assert!(
        err.contains("SAVE `fifo.bloom`: it is not a regular file (a FIFO)"),
        "{err}"
    );
    assert!(
        err.contains("LOAD `zero.bloom`: it is not a regular file (a character device)"),
        "{err}"
    );
    assert!(
        err.contains("LOAD `fifo.bloom`: it is not a regular file (a FIFO)"),
        "{err}"
    );
    assert!(
        err.contains("UNION `fifo.bloom`: it is not a regular file (a FIFO)"),
        "{err}"
    );
    assert_eq!(
        text(&out.stdout),
        "0000000000000000000000000000000000000000000001000000001000000000\n",
        "the filter is unchanged"
    );
}

#[cfg(unix)]
#[test]
fn a_save_that_cannot_be_written_leaves_the_old_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let first = run_in(d, None, "ADD fig\nSAVE f.bloom\n");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let old = std::fs::read(d.join("f.bloom")).unwrap();
    // `ulimit -f 0` makes every write to a file fail (EFBIG once SIGXFSZ is ignored).
    let out = run_in(
        d,
        Some("trap '' XFSZ; ulimit -f 0"),
        "ADD lime\nSAVE f.bloom\n",
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("could not SAVE `f.bloom`"), "{err}");
    assert!(err.contains("nothing was saved"), "{err}");
    assert_eq!(
        std::fs::read(d.join("f.bloom")).unwrap(),
        old,
        "the old file changed"
    );
    let names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["f.bloom"], "a temporary file was left behind");
}

#[test]
fn a_file_changed_after_saving_is_refused_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let first = run_in(d, None, "ADD fig\nADD lime\nSAVE f.bloom\n");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let good = std::fs::read(d.join("f.bloom")).unwrap();
    for (name, bytes, says) in [
        ("cut.bloom", good[..good.len() - 1].to_vec(), "truncated"),
        ("flip.bloom", flip(&good, 50), "corrupt"),
        ("head.bloom", flip(&good, 13), "corrupt"),
        ("magic.bloom", flip(&good, 0), "not a saved filter"),
    ] {
        std::fs::write(d.join(name), bytes).unwrap();
        let out = run_in(d, None, &format!("ADD date\nLOAD {name}\nCHECK date\n"));
        let err = text(&out.stderr);
        assert!(err.contains(says), "{name}: {err}");
        assert!(err.contains("the filter is unchanged"), "{name}: {err}");
        assert_eq!(text(&out.stdout), "MAYBE\n", "{name}: the filter changed");
    }
}

fn flip(bytes: &[u8], at: usize) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at] ^= 0x10;
    b
}

#[cfg(unix)]
#[test]
fn symbolic_links_out_of_the_folder_are_refused_and_links_inside_followed() {
    use std::os::unix::fs::symlink;
    let top = tempfile::tempdir().unwrap();
    let (d, elsewhere) = (top.path().join("here"), top.path().join("elsewhere"));
    std::fs::create_dir(&d).unwrap();
    std::fs::create_dir(&elsewhere).unwrap();
    let first = run_in(&elsewhere, None, "ADD fig\nSAVE x.bf\n");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let before = std::fs::read(elsewhere.join("x.bf")).unwrap();
    symlink(&elsewhere, d.join("extlink")).unwrap();
    symlink(elsewhere.join("x.bf"), d.join("extfile")).unwrap();
    std::fs::create_dir(d.join("real")).unwrap();
    symlink("real", d.join("inlink")).unwrap();
    let out = run_in(
        &d,
        None,
        "ADD lime\nSAVE extlink/x.bf\nSAVE extlink/new.bf\nSAVE extfile\nLOAD extlink/x.bf\n\
         UNION extfile\nSAVE inlink/f.bf\nCLEAR\nLOAD inlink/f.bf\nCHECK lime\n",
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let outside =
        "a symbolic link leads it outside the current folder, and a path must stay inside it";
    for (verb, path, then) in [
        ("SAVE", "extlink/x.bf", "nothing was saved"),
        ("SAVE", "extlink/new.bf", "nothing was saved"),
        ("SAVE", "extfile", "nothing was saved"),
        ("LOAD", "extlink/x.bf", "the filter is unchanged"),
        ("UNION", "extfile", "the filter is unchanged"),
    ] {
        let says = format!("could not {verb} `{path}`: {outside}; {then}");
        assert!(err.contains(&says), "expected {says:?} in {err:?}");
    }
    assert_eq!(err.lines().count(), 5, "one message a refused line: {err}");
    assert_eq!(
        text(&out.stdout),
        "MAYBE\n",
        "the link inside was not followed"
    );
    assert!(
        d.join("real/f.bf").exists(),
        "SAVE inlink/f.bf went elsewhere"
    );
    assert_eq!(
        std::fs::read(elsewhere.join("x.bf")).unwrap(),
        before,
        "the filter outside changed"
    );
    assert_eq!(
        std::fs::read_dir(&elsewhere).unwrap().count(),
        1,
        "a file was made outside the folder"
    );
}

/// CRC-32 as zlib computes it, bit by bit: enough for a header.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// A saved murmur3 filter of 2^32 bits (or 8-bit counters), k = 7, of the right length but
/// sparse: the tutor asks for its memory before it reads the payload, so the payload's
/// checksum is never reached.
fn huge_filter(path: &Path, counting: bool) {
    let m: u64 = 1 << 32;
    let payload = if counting { m } else { m / 8 };
    let mut head = Vec::with_capacity(44);
    head.extend_from_slice(b"BLOOMTUT");
    head.extend_from_slice(&1u16.to_le_bytes());
    head.extend_from_slice(&[2, if counting { 8 } else { 0 }]);
    head.extend_from_slice(&7u32.to_le_bytes());
    head.extend_from_slice(&m.to_le_bytes());
    head.extend_from_slice(&0u64.to_le_bytes());
    head.extend_from_slice(&payload.to_le_bytes());
    head.extend_from_slice(&crc32(&head).to_le_bytes());
    let file = std::fs::File::create(path).unwrap();
    std::io::Write::write_all(&mut &file, &head).unwrap();
    file.set_len(44 + payload + 4).unwrap();
}

#[cfg(unix)]
#[test]
fn a_filter_too_large_for_the_memory_there_is_is_refused_and_the_session_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    huge_filter(&d.join("big.bf"), false);
    huge_filter(&d.join("count.bf"), true);
    let limit = Some("ulimit -v 400000");
    let out = run_in(
        d,
        limit,
        "ADD x\nLOAD big.bf\nUNION big.bf\nINTERSECT big.bf\nLOAD count.bf\nCHECK x\n",
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    // UNION and INTERSECT refuse a file of another shape from its header, before any
    // memory is had for it.
    for verb in ["UNION", "INTERSECT"] {
        let says = format!(
            "could not {verb} `big.bf`: the two filters differ in scheme (bytesum here, murmur3 \
             in the file), size (m = 64 here, 4294967296 in the file)"
        );
        assert!(err.contains(&says), "expected {says:?} in {err:?}");
    }
    for (verb, path, what) in [
        ("LOAD", "big.bf", "a filter of 4294967296 bits"),
        (
            "LOAD",
            "count.bf",
            "a counting filter of 4294967296 counters",
        ),
    ] {
        let says = format!(
            "could not {verb} `{path}`: not enough memory for {what}; the filter is unchanged"
        );
        assert!(err.contains(&says), "expected {says:?} in {err:?}");
    }
    assert_eq!(text(&out.stdout), "MAYBE\n", "the session did not go on");
    let out = run_with(d, limit, &["--load", "big.bf"], "CHECK x\n");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "could not load `big.bf`: not enough memory for a filter of 4294967296 bits; nothing was run"
        ),
        "{err}"
    );
}

#[test]
fn a_name_as_long_as_the_system_allows_can_be_saved() {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("{}.bf", "n".repeat(252));
    let out = run_in(
        dir.path(),
        None,
        &format!("ADD fig\nSAVE {name}\nSAVE {name}\nCLEAR\nLOAD {name}\nCHECK fig\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "MAYBE\n");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [name], "a temporary file was left behind");
}
