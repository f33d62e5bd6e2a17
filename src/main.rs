use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match bloom_tutor::cli::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match bloom_tutor::run(cli) {
        Ok(code) => code,
        Err(err) if bloom_tutor::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // The one place that prints an error that reached the top; a stderr that cannot
            // be written must not turn it into a panic.
            let _ = writeln!(std::io::stderr(), "{}", bloom_tutor::error_message(&err));
            ExitCode::from(2)
        }
    }
}
