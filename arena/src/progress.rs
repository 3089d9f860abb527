//! Progress of long runs on stderr: redrawn in place on a terminal, and one full line every few
//! seconds when stderr is a pipe or a file (so a logged run still shows it is alive).
//!
//! One display for the CLI's long runs and for Python's (`twinsim._core.Progress`, which
//! `twinsim.distributed.tournament` shows): [`Progress::line`] gives the text and Python writes
//! it to its own `sys.stderr`.

use crate::Standings;
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
    /// Units done before the reporter was made (a resumed run's): not part of the rate.
    done_before: usize,
}

/// The share of the units that must be done before an ETA is shown: the first units say little
/// about the rest (their cost varies by game, and the pool starts up).
pub const ETA_AFTER_SHARE: f64 = 0.05;

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
            done_before: 0,
        }
    }

    /// The same reporter for a run that had `done` units done before it started (a resume):
    /// its rate and ETA count only the units done since.
    pub fn with_done_before(self, done: usize) -> Self {
        Progress { done_before: done, ..self }
    }

    /// Time since the reporter was made.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Reports `done` of `total` units on stderr; `detail` is called only when a line is
    /// written. `force` writes regardless of the interval (the last unit). A report of 0 units
    /// done writes nothing and restarts the units' clock.
    pub fn report(&self, done: usize, total: usize, force: bool, detail: impl FnOnce() -> String) {
        if let Some(text) = self.line(done, total, force, detail) {
            eprint!("{text}");
        }
    }

    /// The text [`Progress::report`] would write now (`None`: nothing is due), for a caller that
    /// writes it elsewhere: with its `\r` and padding on a terminal (a newline once `done` is
    /// `total`), a whole line with its newline otherwise.
    pub fn line(
        &self,
        done: usize,
        total: usize,
        force: bool,
        detail: impl FnOnce() -> String,
    ) -> Option<String> {
        if !self.enabled {
            return None;
        }
        let now = Instant::now();
        let units_started = match self.units_started.lock() {
            Ok(mut started) if done == 0 => {
                *started = now;
                return None;
            }
            Ok(started) => *started,
            Err(_) => return None,
        };
        let interval = if self.terminal { TERMINAL_INTERVAL } else { PIPED_INTERVAL };
        let mut last = self.last.lock().ok()?;
        let due = match *last {
            None => !self.terminal || done > 0,
            Some(at) => now.duration_since(at) >= interval,
        };
        if !(due || force) {
            return None;
        }
        *last = Some(now);
        let elapsed = now.duration_since(units_started).as_secs_f64();
        let before = self.done_before.min(done);
        let rate = (done - before) as f64 / elapsed.max(1e-9);
        let eta = eta(done - before, total.saturating_sub(before), elapsed)
            .map_or(String::new(), |s| format!(", ETA {}", clock(s)));
        let line = format!("{done}/{total} games, {rate:.1} games/s{eta}  {}", detail());
        Some(if !self.terminal {
            format!("{line}\n")
        } else if done == total {
            format!("\r{line:<100}\n")
        } else {
            format!("\r{line:<100}")
        })
    }
}

/// The arena's progress detail: each bot's win rate over the games counted so far
/// (`win rates: bot0 61.0%  bot1 39.0%`).
pub fn win_rates(standings: &Standings) -> String {
    let rates: Vec<String> = standings
        .totals()
        .iter()
        .enumerate()
        .map(|(b, t)| {
            let rate = t.points.win_rate().map_or(0.0, |r| r.mean);
            format!("bot{b} {:.1}%", 100.0 * rate)
        })
        .collect();
    format!("win rates: {}", rates.join("  "))
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

    #[test]
    fn a_piped_line_is_whole_and_a_terminal_line_is_redrawn() {
        let piped = Progress::with_terminal(true, false);
        assert_eq!(piped.line(0, 10, false, || unreachable!()), None, "0 done: the clock starts");
        let text = piped.line(1, 10, false, || "detail".into()).expect("the first line is due");
        assert!(text.starts_with("1/10 games, ") && text.ends_with("  detail\n"), "{text:?}");
        assert!(piped.line(10, 10, true, String::new).is_some(), "forced");
        let terminal = Progress::with_terminal(true, true);
        let text = terminal.line(10, 10, true, String::new).unwrap();
        assert!(text.starts_with("\r10/10 games") && text.ends_with('\n'), "{text:?}");
        assert_eq!(Progress::with_terminal(false, false).line(1, 1, true, String::new), None);
    }

    /// A resumed run's rate and ETA count the units done since it started: 1 of the 100 left
    /// is under 5% of them, so no ETA yet, though 901 of 1000 is over 5% of the whole.
    #[test]
    fn a_resumed_runs_eta_counts_only_its_own_units() {
        let fresh = Progress::with_terminal(true, false);
        assert!(fresh.line(901, 1000, true, String::new).unwrap().contains("ETA"));
        let resumed = Progress::with_terminal(true, false).with_done_before(900);
        let text = resumed.line(901, 1000, true, String::new).unwrap();
        assert!(text.starts_with("901/1000 games") && !text.contains("ETA"), "{text:?}");
        assert!(resumed.line(950, 1000, true, String::new).unwrap().contains("ETA"));
    }
}
