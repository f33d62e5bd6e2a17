//! Saved filters under attack, through the real binary: devices and FIFOs behind innocent
//! names, a disk that fills up, and a file changed behind the tutor's back.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs the tutor in `dir` on `script` (through `sh -c PREFIX` when given), with a deadline
/// so a blocked open fails the test instead of hanging it.
fn run_in(dir: &Path, prefix: Option<&str>, script: &str) -> Output {
    let bin = env!("CARGO_BIN_EXE_bloom-tutor");
    let mut cmd = match prefix {
        Some(p) => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("{p}; exec \"$0\"")).arg(bin);
            c
        }
        None => Command::new(bin),
    };
    let mut child = cmd
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
