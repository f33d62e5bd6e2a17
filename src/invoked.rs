//! How to run this tutor again from the learner's shell, so every command it prints runs
//! as printed: `bloom-tutor` when that name on PATH is this program, else the path it was
//! started by (`target/release/bloom-tutor` after `cargo run --release`).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The name the tutor is installed as (`cargo install --path .`).
const NAME: &str = "bloom-tutor";

/// The command that runs this tutor from the shell it was started in, quoted for a POSIX
/// shell where it needs quotes. Worked out once per process.
pub(crate) fn tutor() -> &'static str {
    static TUTOR: OnceLock<String> = OnceLock::new();
    TUTOR.get_or_init(|| {
        let argv0 = std::env::args_os().next().map(PathBuf::from);
        let exe = std::env::current_exe().ok();
        let path = std::env::var_os("PATH");
        let cwd = std::env::current_dir().ok();
        command_name(
            argv0.as_deref(),
            exe.as_deref(),
            path.as_deref(),
            cwd.as_deref(),
        )
    })
}

/// `path` quoted for a POSIX shell: as is when every byte is safe, else in single quotes.
/// Any bytes, not only text: text a terminal would act on (an escape sequence, a
/// bidi mark) or bytes that are not UTF-8 go in `$'...'` with `\xHH` and `\uHHHH` escapes,
/// which bash and zsh read back to the same bytes, so the command runs as printed and
/// cannot act on the terminal that shows it.
pub(crate) fn shell_quote_bytes(bytes: &[u8]) -> String {
    let safe = |b: &u8| b.is_ascii_alphanumeric() || b"_-./=:,+@%".contains(b);
    if !bytes.is_empty() && bytes.iter().all(safe) {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let plain = std::str::from_utf8(bytes)
        .ok()
        .filter(|t| !t.chars().any(crate::escape::hidden));
    if let Some(text) = plain {
        return format!("'{}'", text.replace('\'', r"'\''"));
    }
    let mut out = String::from("$'");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' | '\'' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", u32::from(c))),
                c if crate::escape::hidden(c) => {
                    out.push_str(&format!("\\u{:04x}", u32::from(c)));
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('\'');
    out
}

/// The flags that choose `scheme` on the tutor's command line: nothing for the default,
/// ` --scheme NAME` for the others.
pub(crate) fn scheme_flag(scheme: crate::engine::scheme::Scheme) -> String {
    use crate::engine::scheme::Scheme;
    match scheme {
        Scheme::ByteSum => String::new(),
        Scheme::Djb2Fnv | Scheme::Murmur3 => format!(" --scheme {}", scheme.name()),
    }
}

/// A path as the shell should see it, quoted when it needs to be.
pub(crate) fn shell_path(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    // `-x.json` would be read as options: `./-x.json` is the same file and reads as a path.
    if bytes.first() == Some(&b'-') {
        let mut dotted = b"./".to_vec();
        dotted.extend_from_slice(bytes);
        return shell_quote_bytes(&dotted);
    }
    shell_quote_bytes(bytes)
}

/// [`shell_path`] for a command the learner runs next from the same folder: a path below
/// the current folder is given relative to it, so the command stays short.
pub(crate) fn shell_path_from_here(path: &Path) -> String {
    let here = std::env::current_dir().ok();
    match here.as_deref().and_then(|h| path.strip_prefix(h).ok()) {
        Some(rel) if path.is_absolute() && !rel.as_os_str().is_empty() => shell_path(rel),
        _ => shell_path(path),
    }
}

/// The pure part of [`tutor`]: from argv[0], this program's path, `$PATH` and the current
/// folder, the shortest command that runs this very program.
fn command_name(
    argv0: Option<&Path>,
    exe: Option<&Path>,
    path_var: Option<&OsStr>,
    cwd: Option<&Path>,
) -> String {
    let Some(exe) = exe.and_then(|e| e.canonicalize().ok()) else {
        // Nothing to compare with: the name it was started by is the best guess.
        return argv0.map(shell_path).unwrap_or_else(|| NAME.to_string());
    };
    let is_this = |p: &Path| p.canonicalize().is_ok_and(|c| c == exe);
    // Installed, or on PATH under its own name or the one it was started by.
    let bare = argv0
        .filter(|a| a.components().count() == 1)
        .and_then(|a| a.to_str())
        .filter(|a| !a.is_empty());
    for name in [Some(NAME), bare].into_iter().flatten() {
        if search_path(name, path_var).is_some_and(|found| is_this(&found)) {
            return name.to_string();
        }
    }
    // Not on PATH: a path to it, relative to the current folder when it is below it.
    if let Some(rel) = cwd
        .and_then(|c| c.canonicalize().ok())
        .and_then(|c| exe.strip_prefix(c).ok().map(Path::to_path_buf))
    {
        let rel = if rel.components().count() == 1 {
            Path::new(".").join(rel)
        } else {
            rel
        };
        return shell_path(&rel);
    }
    // Started by a path the shell can run again (`../bin/bloom-tutor`), else the full path.
    match argv0 {
        Some(a) if a.components().count() > 1 && is_this(a) => shell_path(a),
        _ => shell_path(&exe),
    }
}

/// Where a shell would find `name` on `path_var`: the first executable file of that name.
fn search_path(name: &str, path_var: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path_var?)
        // An empty entry means the current folder, as the shell reads PATH.
        .map(|dir| {
            if dir.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                dir
            }
        })
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder with an executable `bloom-tutor` in `bin/`, and the path to it.
    fn installed() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let exe = bin.join(NAME);
        std::fs::write(&exe, "").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        (dir, exe)
    }

    #[test]
    fn a_path_that_starts_with_a_dash_is_never_read_as_an_option() {
        assert_eq!(shell_path(Path::new("-x.json")), "./-x.json");
        assert_eq!(shell_path(Path::new("--")), "./--");
        assert_eq!(shell_path(Path::new("a-b.json")), "a-b.json");
        assert_eq!(shell_path(Path::new("-a b")), "'./-a b'");
    }

    #[test]
    fn on_path_it_is_its_own_name() {
        let (dir, exe) = installed();
        let path = std::env::join_paths([Path::new("/nowhere"), &dir.path().join("bin")]).unwrap();
        let got = command_name(Some(&exe), Some(&exe), Some(&path), Some(Path::new("/")));
        assert_eq!(got, "bloom-tutor", "the tutor is on PATH");
    }

    #[test]
    fn off_path_below_the_current_folder_it_is_a_relative_path() {
        let (dir, exe) = installed();
        let got = command_name(
            Some(&exe),
            Some(&exe),
            Some(OsStr::new("/nowhere")),
            Some(dir.path()),
        );
        assert_eq!(got, "bin/bloom-tutor");
        let got = command_name(
            Some(Path::new("bloom-tutor")),
            Some(&exe),
            None,
            Some(&dir.path().join("bin")),
        );
        assert_eq!(
            got, "./bloom-tutor",
            "a program in the current folder needs ./"
        );
    }

    #[test]
    fn off_path_elsewhere_it_is_the_full_path() {
        let (_dir, exe) = installed();
        let elsewhere = tempfile::tempdir().unwrap();
        let got = command_name(
            Some(Path::new("bloom-tutor")),
            Some(&exe),
            Some(OsStr::new("/nowhere")),
            Some(elsewhere.path()),
        );
        let want = exe.canonicalize().unwrap();
        assert_eq!(got, shell_path(&want));
    }

    #[test]
    fn another_bloom_tutor_on_path_is_not_this_one() {
        let (dir, exe) = installed();
        let (other, _) = installed();
        let path = std::env::join_paths([other.path().join("bin")]).unwrap();
        let got = command_name(Some(&exe), Some(&exe), Some(&path), Some(dir.path()));
        assert_eq!(
            got, "bin/bloom-tutor",
            "the first bloom-tutor on PATH is another file"
        );
    }

    #[test]
    fn quotes_what_a_shell_would_split() {
        assert_eq!(
            shell_quote_bytes(b"target/release/bloom-tutor"),
            "target/release/bloom-tutor"
        );
        assert_eq!(
            shell_quote_bytes("my dir/p.json".as_bytes()),
            "'my dir/p.json'"
        );
        assert_eq!(shell_quote_bytes("it's".as_bytes()), r"'it'\''s'");
        assert_eq!(shell_quote_bytes("".as_bytes()), "''");
        assert_eq!(
            shell_quote_bytes("x\u{1b}]0;T\u{7}'\u{202e}.json".as_bytes()),
            r"$'x\x1b]0;T\x07\'\u202e.json'"
        );
        assert_eq!(shell_quote_bytes(b"a\xffb"), r"$'a\xffb'");
    }
}
