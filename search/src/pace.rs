//! How late answers come on this machine, so that the bots keep that much time free.
//!
//! A search checks the clock between iterations, so it stops on time while it runs; what can
//! make an answer late is what happens after its thinking deadline: the last iteration, the
//! answer's rendering and the search tree's release, and above all a stall, when the scheduler
//! takes the processor away from the thread just before or after the deadline and gives it back
//! only after the other runnable threads had their turn. On an idle machine that is microseconds;
//! on a loaded 2-core machine it is 4–12 ms typically and tens of milliseconds now and then,
//! and no fixed margin fits every machine.
//!
//! So the bots measure it: every answer whose search stopped on its clock notes how long after
//! that thinking deadline the answer was ready ([`Answer::end`]), and the process keeps the
//! largest such lateness, decaying by half every [`HALF_LIFE`] (the machine's load changes
//! over seconds) and by [`ANSWER_DECAY`] with each answer on time. [`reserve`] is that figure times [`SAFETY_FACTOR`]: the time every bot keeps
//! free before its deadline on top of its own margin ([`crate::bot::think_until`]), however
//! little thinking time that leaves. Measured in interleaved arena runs of the four per-move
//! games' searches on a 2-core machine at a load average of 12 to 22: without the reserve 1.5 to
//! 44 % of the answers timed out (the games ended early), with it 0 to 1.8 %; capped at two thirds
//! of the time left it cut nothing (a thread that loses the processor there waits longer than a
//! third of a 50 ms limit). One figure for the whole process, since the load is the machine's: in
//! the arena, where every built-in bot of every game runs in one process, a bot's first answer
//! already knows what the previous games saw.

use std::cell::Cell;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a lateness counts fully: it then fades, halving every this long.
pub const HALF_LIFE: Duration = Duration::from_secs(5);
/// The reserve is the decayed largest lateness times this (the next stall can be longer).
pub const SAFETY_FACTOR: f64 = 1.5;
/// Each answer that comes on time (later than its deadline by less than the figure kept) lowers
/// the figure by this factor, besides its decay with time: bots that keep their whole turn free
/// answer at once, so a run can play many games within one half-life, and with time alone a
/// single 0.3 s stall left every built-in bot of the arena thinking nothing for the next ten
/// Photosynthesis games (all 19-19 draws of waiting players; 5 seconds of wall clock).
pub const ANSWER_DECAY: f64 = 0.8;
/// The largest reserve: a lateness longer than any time limit is noise for this purpose (a
/// machine suspended for minutes should not make every later answer think nothing).
pub const MAX_RESERVE: Duration = Duration::from_secs(1);

/// The largest lateness seen, decaying: its value in µs when last brought up to date, and when.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Lateness {
    us: f64,
    at: Option<Instant>,
}

impl Lateness {
    /// The decayed value at `now`, in µs.
    fn at(&self, now: Instant) -> f64 {
        match self.at {
            None => 0.0,
            Some(at) => {
                let elapsed = now.saturating_duration_since(at).as_secs_f64();
                self.us * 0.5f64.powf(elapsed / HALF_LIFE.as_secs_f64())
            }
        }
    }

    /// Counts a lateness of `lateness` seen at `now` (capped at [`MAX_RESERVE`]): a longer one
    /// than the figure kept replaces it, a shorter one lowers it by [`ANSWER_DECAY`].
    fn observe(&mut self, now: Instant, lateness: Duration) {
        let us = lateness.min(MAX_RESERVE).as_secs_f64() * 1e6;
        let kept = self.at(now);
        let us = if us >= kept { us } else { (kept * ANSWER_DECAY).max(us) };
        *self = Lateness { us, at: Some(now) };
    }

    /// The reserve at `now`.
    fn reserve(&self, now: Instant) -> Duration {
        Duration::from_secs_f64(self.at(now) * SAFETY_FACTOR / 1e6).min(MAX_RESERVE)
    }
}

/// The process's lateness.
static LATENESS: Mutex<Lateness> = Mutex::new(Lateness { us: 0.0, at: None });

thread_local! {
    /// The thinking deadline at which this thread's current search stopped, if it stopped on
    /// the clock.
    static STOPPED_AT: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Called by a search that stops because its thinking `deadline` has passed.
pub fn deadline_reached(deadline: Instant) {
    STOPPED_AT.with(|s| s.set(Some(deadline)));
}

/// Forgets a stop noted on this thread by [`deadline_reached`]: for a search made of several
/// searches with deadlines of their own (the Photosynthesis day search deepening its horizon),
/// only the last one's stop says when the answer was due; an earlier stop would count the
/// later searches' thinking as lateness.
pub fn forget_stop() {
    STOPPED_AT.with(|s| s.set(None));
}

/// Notes that an answer was ready `lateness` after the thinking deadline it stopped at.
pub fn observe(lateness: Duration) {
    LATENESS.lock().unwrap_or_else(|e| e.into_inner()).observe(Instant::now(), lateness);
}

/// The time to keep free before a deadline for what comes after thinking (see the module
/// documentation): zero until some lateness was seen.
pub fn reserve() -> Duration {
    LATENESS.lock().unwrap_or_else(|e| e.into_inner()).reserve(Instant::now())
}

/// One answer being computed on this thread: [`Answer::begin`] before the bot reads its input,
/// [`Answer::end`] when its answer is ready.
pub struct Answer {
    begun: Instant,
}

impl Answer {
    /// Starts an answer (forgets any earlier search's stop).
    pub fn begin() -> Answer {
        STOPPED_AT.with(|s| s.set(None));
        Answer { begun: Instant::now() }
    }

    /// The answer is ready: if its search stopped on the clock, how late after that deadline
    /// the answer came is observed, counted from when the answer began if the deadline had
    /// passed before (an input handed over after its deadline is no stall of this machine's:
    /// counting it whole made every later bot of the process think almost nothing).
    pub fn end(self) {
        match STOPPED_AT.with(|s| s.take()) {
            Some(deadline) => {
                observe(Instant::now().saturating_duration_since(deadline.max(self.begun)))
            }
            // Done before its deadline: on time, which lowers the figure too.
            None => observe(Duration::ZERO),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_lateness_decays_by_half_each_half_life() {
        let now = Instant::now();
        let ms = Duration::from_millis;
        let mut lateness = Lateness::default();
        assert_eq!(lateness.reserve(now), Duration::ZERO);
        lateness.observe(now, ms(8));
        assert_eq!(lateness.reserve(now), ms(12), "8 ms times 1.5");
        // Half a life later it is down to 1/sqrt(2), three lives later to an eighth.
        let later = lateness.at(now + HALF_LIFE / 2);
        assert!((later - 8000.0 / 2f64.sqrt()).abs() < 1e-6, "{later}");
        let much_later = lateness.at(now + HALF_LIFE * 3);
        assert!((much_later - 1000.0).abs() < 1e-6, "{much_later}");
        // A longer one replaces it; none counts past the cap.
        lateness.observe(now + HALF_LIFE, ms(30));
        assert!((lateness.at(now + HALF_LIFE) - 30_000.0).abs() < 1e-6);
        lateness.observe(now, Duration::from_secs(3600));
        assert_eq!(lateness.reserve(now), MAX_RESERVE);
    }

    /// A stall long enough to fill a turn's time is forgotten after a few answers on time, however
    /// little wall clock they take (bots that keep their turn free answer in microseconds).
    #[test]
    fn answers_on_time_lower_the_figure_without_waiting() {
        let now = Instant::now();
        let ms = Duration::from_millis;
        let mut lateness = Lateness::default();
        lateness.observe(now, ms(300));
        assert_eq!(lateness.reserve(now), ms(450));
        lateness.observe(now, ms(2));
        assert!((lateness.at(now) - 240_000.0).abs() < 1e-6, "one answer on time: 300 ms x 0.8");
        for _ in 0..15 {
            lateness.observe(now, Duration::ZERO);
        }
        assert!(lateness.reserve(now) < ms(20), "{:?} after 16 answers", lateness.reserve(now));
        // Never below what the answers themselves showed.
        let mut lateness = Lateness::default();
        lateness.observe(now, ms(10));
        lateness.observe(now, ms(9));
        assert!((lateness.at(now) - 9000.0).abs() < 1e-6, "{}", lateness.at(now));
    }

    #[test]
    fn a_stop_is_taken_by_its_answer_and_forgotten_on_request() {
        let answer = Answer::begin();
        answer.end();
        // (The global figure is shared with other tests: this one leaves it untouched but for a
        // lateness of microseconds.)
        let answer = Answer::begin();
        deadline_reached(Instant::now());
        assert!(STOPPED_AT.with(|s| s.get()).is_some());
        answer.end();
        assert!(STOPPED_AT.with(|s| s.get()).is_none(), "taken by the answer");
        // A stop forgotten (an earlier part of a search) is not observed.
        deadline_reached(Instant::now());
        forget_stop();
        assert!(STOPPED_AT.with(|s| s.get()).is_none(), "forgotten");
    }
}
