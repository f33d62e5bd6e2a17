//! Stopping the grader: a request, set by a signal, that the runner checks while the
//! learner's program runs.

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

    /// Asks to stop, as signal `signal` (1 or more) would.
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

    #[cfg(unix)]
    #[test]
    fn signals_are_named() {
        assert_eq!(signal_name(2), Some("SIGINT"));
        assert_eq!(signal_name(15), Some("SIGTERM"));
        assert_eq!(signal_name(1), Some("SIGHUP"));
    }
}
