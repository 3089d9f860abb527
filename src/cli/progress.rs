//! Progress of long runs on stderr: redrawn in place on a terminal, and one full line every few
//! seconds when stderr is a pipe or a file (so a logged run still shows it is alive).

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a line is written when stderr is not a terminal.
pub const PIPED_INTERVAL: Duration = Duration::from_secs(5);

/// How often the terminal line is redrawn (more often only costs time).
const TERMINAL_INTERVAL: Duration = Duration::from_millis(100);

/// A progress reporter; `report` may be called from many threads.
pub struct Progress {
    terminal: bool,
    enabled: bool,
    started: Instant,
    last: Mutex<Option<Instant>>,
    /// When the units started: when the reporter was made, or the last report of 0 units done
    /// (so work before the units, such as `verify`'s trace replay, is not part of their rate).
    units_started: Mutex<Instant>,
}

/// The share of the units that must be done before an ETA is shown: the first units say little
/// about the rest (their cost varies by game, and the pool starts up).
const ETA_AFTER_SHARE: f64 = 0.05;

/// Seconds left for `total - done` units at the rate measured over `elapsed` seconds, once
/// enough units are done to say ([`ETA_AFTER_SHARE`]); `None` before that and when finished.
pub fn eta(done: usize, total: usize, elapsed: f64) -> Option<f64> {
    if done == 0 || done >= total || (done as f64) < ETA_AFTER_SHARE * total as f64 {
        return None;
    }
    Some((total - done) as f64 * elapsed / done as f64)
}

impl Progress {
    /// A reporter to stderr; `enabled = false` makes it silent (e.g. `--json`).
    pub fn new(enabled: bool) -> Self {
        Progress::with_terminal(enabled, std::io::stderr().is_terminal())
    }

    /// A reporter whose mode is given (terminal: redraw in place; else full lines).
    pub fn with_terminal(enabled: bool, terminal: bool) -> Self {
        let now = Instant::now();
        Progress {
            terminal,
            enabled,
            started: now,
            last: Mutex::new(None),
            units_started: Mutex::new(now),
        }
    }

    /// Time since the reporter was made.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Reports `done` of `total` units; `detail` is called only when a line is written.
    /// `force` writes regardless of the interval (the last unit). A report of 0 units done
    /// writes nothing and restarts the units' clock.
    pub fn report(&self, done: usize, total: usize, force: bool, detail: impl FnOnce() -> String) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let units_started = match self.units_started.lock() {
            Ok(mut started) if done == 0 => {
                *started = now;
                return;
            }
            Ok(started) => *started,
            Err(_) => return,
        };
        let interval = if self.terminal { TERMINAL_INTERVAL } else { PIPED_INTERVAL };
        let Ok(mut last) = self.last.lock() else { return };
        let due = match *last {
            None => !self.terminal || done > 0,
            Some(at) => now.duration_since(at) >= interval,
        };
        if !(due || force) {
            return;
        }
        *last = Some(now);
        let elapsed = now.duration_since(units_started).as_secs_f64();
        let rate = done as f64 / elapsed.max(1e-9);
        let eta =
            eta(done, total, elapsed).map_or(String::new(), |s| format!(", ETA {}", clock(s)));
        let line = format!("{done}/{total} games, {rate:.1} games/s{eta}  {}", detail());
        if self.terminal {
            eprint!("\r{line:<100}");
            if done == total {
                eprintln!();
            }
        } else {
            eprintln!("{line}");
        }
    }
}

/// Seconds as `1h02m03s`, `2m03s` or `3s`.
pub fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, min, sec) => format!("{min}m{sec:02}s"),
        (h, min, sec) => format!("{h}h{min:02}m{sec:02}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_reads_as_hours_minutes_seconds() {
        assert_eq!(clock(3.4), "3s");
        assert_eq!(clock(125.0), "2m05s");
        assert_eq!(clock(3723.0), "1h02m03s");
        assert_eq!(clock(f64::NAN), "0s");
    }

    /// The first unit of a 1,000-unit run, done 6.5 s in, said "ETA 1h48m" for a run that took
    /// 38 s: no ETA until 5% of the units are done.
    #[test]
    fn no_eta_from_the_first_few_units() {
        assert_eq!(eta(1, 1000, 6.5), None);
        assert_eq!(eta(49, 1000, 2.0), None);
        assert_eq!(eta(50, 1000, 2.0), Some(38.0));
        assert_eq!(eta(1000, 1000, 40.0), None);
        assert_eq!(eta(0, 0, 1.0), None);
    }
}
