//! Golden files: each `tests/golden/NAME.toml` runs the binary with `NAME.stdin` and compares
//! its output with `NAME.stdout` and `NAME.stderr`. Rewrite with `TRYCMD=overwrite cargo test
//! --test it golden`, then read every changed file before committing.

#[test]
fn golden_files() {
    // The tutor's folder first on PATH, as after `cargo install`: the commands it prints
    // then read `bloom-tutor ...` (tests/printed_commands.rs runs them off PATH too).
    let exe = std::path::Path::new(env!("CARGO_BIN_EXE_bloom-tutor"));
    let mut path = vec![exe.parent().expect("a folder").to_path_buf()];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let path = std::env::join_paths(path).expect("PATH entries join");
    trycmd::TestCases::new()
        .env("PATH", path.to_string_lossy())
        .case("tests/golden/*.toml");
}
