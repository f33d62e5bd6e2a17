//! The signals that end the grader (Ctrl-C, SIGTERM, SIGHUP), caught so that the learner's
//! programs are stopped before the grader exits.

use std::sync::atomic::{AtomicUsize, Ordering};

/// A request to stop grading, set from a signal handler: the signal's number, 0 for none.
/// Once set it stays set.
#[derive(Debug, Default)]
pub struct Stop(AtomicUsize);

impl Stop {
    /// No stop requested yet.
    pub const fn new() -> Stop {
        Stop(AtomicUsize::new(0))
    }

    /// The signal that asked to stop, if one did.
    pub fn signal(&self) -> Option<i32> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            n => i32::try_from(n).ok(),
        }
    }

    /// Asks to stop, as signal `signal` (1 or more) would; the handlers do this for real.
    #[cfg(test)]
    pub fn request(&self, signal: i32) {
        if let Ok(n @ 1..) = usize::try_from(signal) {
            self.0.store(n, Ordering::SeqCst);
        }
    }
}

/// The conventional exit status of a program ended by `signal`: 128 plus its number
/// (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
pub fn exit_status(signal: i32) -> u8 {
    u8::try_from(128 + signal.clamp(0, 127)).unwrap_or(u8::MAX)
}

/// The signal's name, as `SIGINT`, when the system has one for it.
pub fn signal_name(signal: i32) -> Option<&'static str> {
    #[cfg(unix)]
    {
        nix::sys::signal::Signal::try_from(signal)
            .ok()
            .map(|s| s.as_str())
    }
    #[cfg(not(unix))]
    {
        let _ = signal;
        None
    }
}

/// From the first call on, SIGINT, SIGTERM and SIGHUP no longer end the process: they set
/// the returned request instead, which the grading loop checks between and during runs.
/// The handlers stay for the rest of the process (signal-hook cannot restore the default
/// action), which is fine for `bloom-tutor grade`: it exits once grading stops.
///
/// A signal the process was started with ignored stays ignored, as under `nohup` or in a
/// shell's background job (known on Linux; elsewhere every one of the three is caught).
///
/// On systems without Unix signals the request is never set, and Ctrl-C ends the grader
/// as it would any program.
pub fn on_signals() -> std::io::Result<&'static Stop> {
    static STOP: Stop = Stop::new();
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        use std::sync::Mutex;
        static INSTALLED: Mutex<bool> = Mutex::new(false);
        let mut installed = INSTALLED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !*installed {
            for signal in [SIGINT, SIGTERM, SIGHUP] {
                if ignored_from_the_start(signal) {
                    continue;
                }
                // The value stored is the signal's number, a small positive integer.
                let value = usize::try_from(signal).unwrap_or(usize::MAX);
                signal_hook::flag::register_usize(signal, &STOP.0, value)?;
            }
            *installed = true;
        }
    }
    Ok(&STOP)
}

#[cfg(unix)]
/// Whether `signal` is ignored now, which before [`on_signals`] means it was ignored when
/// the process started: read from `SigIgn` in `/proc/self/status`, a mask with bit n - 1
/// for signal n. Not known elsewhere: false.
fn ignored_from_the_start(signal: i32) -> bool {
    #[cfg(target_os = "linux")]
    {
        let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
            return false;
        };
        let mask = status
            .lines()
            .find_map(|l| l.strip_prefix("SigIgn:"))
            .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok());
        match (mask, u32::try_from(signal - 1)) {
            (Some(mask), Ok(bit @ 0..64)) => mask & (1 << bit) != 0,
            _ => false,
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = signal;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_request_keeps_its_signal() {
        let stop = Stop::new();
        assert_eq!(stop.signal(), None, "nothing asked to stop yet");
        stop.request(15);
        assert_eq!(stop.signal(), Some(15), "SIGTERM asked to stop");
        stop.request(0);
        assert_eq!(
            stop.signal(),
            Some(15),
            "0 is not a signal and changes nothing"
        );
    }

    #[test]
    fn exit_status_is_128_plus_the_signal() {
        assert_eq!(exit_status(2), 130, "SIGINT");
        assert_eq!(exit_status(15), 143, "SIGTERM");
        assert_eq!(exit_status(1), 129, "SIGHUP");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_ignored_signal_is_seen_as_ignored() {
        // The Rust runtime ignores SIGPIPE in every program it starts, tests included.
        assert!(ignored_from_the_start(13), "SIGPIPE is ignored");
        assert!(!ignored_from_the_start(10), "SIGUSR1 is not");
    }

    #[cfg(unix)]
    #[test]
    fn signals_are_named() {
        assert_eq!(signal_name(2), Some("SIGINT"));
        assert_eq!(signal_name(15), Some("SIGTERM"));
        assert_eq!(signal_name(1), Some("SIGHUP"));
    }
}
