//! Golden files: each `tests/golden/NAME.toml` runs the binary with `NAME.stdin` and compares
//! its output with `NAME.stdout` and `NAME.stderr`. Rewrite with `TRYCMD=overwrite cargo test
//! --test it golden`, then read every changed file before committing.

#[test]
fn golden_files() {
    trycmd::TestCases::new().case("tests/golden/*.toml");
}
