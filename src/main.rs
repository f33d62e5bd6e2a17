use std::process::ExitCode;

// The one place that prints: an error that reached the top.
#[allow(clippy::print_stderr)]
fn main() -> ExitCode {
    let cli = bloom_tutor::cli::Cli::from_env();
    match bloom_tutor::run(cli) {
        Ok(code) => code,
        Err(err) if bloom_tutor::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
