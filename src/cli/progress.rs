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
}

impl Progress {
    /// A reporter to stderr; `enabled = false` makes it silent (e.g. `--json`).
    pub fn new(enabled: bool) -> Self {
        Progress::with_terminal(enabled, std::io::stderr().is_terminal())
    }

    /// A reporter whose mode is given (terminal: redraw in place; else full lines).
    pub fn with_terminal(enabled: bool, terminal: bool) -> Self {
        Progress { terminal, enabled, started: Instant::now(), last: Mutex::new(None) }
    }

    /// Time since the reporter was made.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Reports `done` of `total` units; `detail` is called only when a line is written.
    /// `force` writes regardless of the interval (the last unit).
    pub fn report(&self, done: usize, total: usize, force: bool, detail: impl FnOnce() -> String) {
        if !self.enabled {
            return;
        }
        let interval = if self.terminal { TERMINAL_INTERVAL } else { PIPED_INTERVAL };
        let Ok(mut last) = self.last.lock() else { return };
        let now = Instant::now();
        let due = match *last {
            None => !self.terminal || done > 0,
            Some(at) => now.duration_since(at) >= interval,
        };
        if !(due || force) {
            return;
        }
        *last = Some(now);
        let elapsed = self.started.elapsed().as_secs_f64();
        let rate = done as f64 / elapsed.max(1e-9);
        let eta = if done > 0 && done < total {
            format!(", ETA {}", clock((total - done) as f64 / rate))
        } else {
            String::new()
        };
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
}
