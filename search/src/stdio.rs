//! Contest bots on standard input and output: read exactly one turn's lines of a game's protocol
//! (never more, so a bot does not block waiting for input the referee has not sent), and learn
//! the bot's seat from what the protocol reveals.
//!
//! The line structure of each game's input (init input, then each turn) is the one its rules doc
//! gives in its protocol section; the text returned is what a [`ViewPlayer`](crate::bot::ViewPlayer)
//! reads: the turn's lines joined by `\n` (the init input first on the first turn), no trailing
//! newline.
//!
//! ```
//! use twinsim_search::stdio::TurnReader;
//!
//! let input = "0\n4\n0 0 0 0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0 0 0 0\n\
//!              0 0 0 0 0 0 0 0 0 0 0 0 0\nGAME_OVER 0 0 0 0 0 0 0\n\
//!              GAME_OVER 0 0 0 0 0 0 0\nGAME_OVER 0 0 0 0 0 0 0\nGAME_OVER 0 0 0 0 0 0 0\n";
//! let mut turns = TurnReader::new(twinsim_reference::olymbits::FRAMING, input.as_bytes());
//! let first = turns.next_turn().unwrap().expect("one turn was sent");
//! assert_eq!(first.lines().count(), 2 + 3 + 4, "init lines, three score lines, four games");
//! assert_eq!(turns.seat(), Some(0));
//! assert_eq!(turns.next_turn().unwrap(), None, "end of input");
//! ```

use std::fmt;
use std::io::{self, BufRead, Read};
use std::time::{Duration, Instant};
use twinsim_reference::framing::{Framing, Part, TimeLimits};
use twinsim_reference::game::PlayerId;
// The registry by full paths, behind the `registry` feature: a bundled bot reads through its
// game's `FRAMING` and leaves the registry out (`twinsim bundle`).

/// What went wrong while reading a turn.
#[derive(Debug)]
pub enum ReadError {
    /// The input stream failed.
    Io(io::Error),
    /// The input ended in the middle of a turn: `line` is the 1-based line number in the stream
    /// where a line was still expected, `expected` what it should have held.
    Truncated {
        /// 1-based line number of the missing line.
        line: usize,
        /// What that line should have held.
        expected: &'static str,
    },
    /// A count line (number of items, trees, actions, ...) was not a small non-negative number.
    BadCount {
        /// 1-based line number of the bad line.
        line: usize,
        /// What the line should have held.
        expected: &'static str,
        /// The line as read.
        found: String,
    },
    /// A line ran past [`MAX_LINE_BYTES`] without an end of line (not a referee's input: its
    /// longest line is a few hundred bytes).
    TooLong {
        /// 1-based line number of the long line.
        line: usize,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "reading standard input: {e}"),
            ReadError::Truncated { line, expected } => {
                write!(f, "line {line}: input ended, expected {expected}")
            }
            ReadError::BadCount { line, expected, found } => {
                write!(f, "line {line}: expected {expected}, found {found:?}")
            }
            ReadError::TooLong { line } => {
                write!(f, "line {line}: over {MAX_LINE_BYTES} bytes")
            }
        }
    }
}

impl std::error::Error for ReadError {}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// Reads a game's input one turn at a time, as the game's [`Framing`] describes it.
pub struct TurnReader<R> {
    framing: Framing,
    reader: R,
    /// Lines read so far (for error positions).
    line_number: usize,
    /// Whether the init input is still to come.
    first: bool,
    /// The numbers the init input kept ([`Part::Number`]: Olymbits' mini-games, Wondev Woman's
    /// board size and units per player).
    numbers: Vec<usize>,
    /// A turn's first line, read to tell the end of the input from a turn.
    pending: Option<String>,
    seat: Option<PlayerId>,
}

/// The largest count a count line may hold: more than any game sends, small enough that a
/// garbage number cannot make the reader wait for billions of lines.
const MAX_COUNT: usize = 10_000;

/// The longest line a bot reads, in bytes, end of line included: a stream without line ends
/// (`/dev/zero`) stops the bot with [`ReadError::TooLong`] instead of growing its memory.
pub const MAX_LINE_BYTES: u64 = 1 << 20;

impl<R: BufRead> TurnReader<R> {
    /// A reader of the protocol a game's `FRAMING` describes (`twinsim_reference::zuniq::FRAMING`)
    /// over `reader`.
    pub fn new(framing: Framing, reader: R) -> Self {
        TurnReader {
            framing,
            reader,
            line_number: 0,
            first: true,
            numbers: vec![],
            pending: None,
            seat: None,
        }
    }

    /// A reader of `game`'s protocol (its trace name: `zuniq`, `wondev-woman`, ...) over `reader`.
    #[cfg(feature = "registry")]
    pub fn for_game(game: &str, reader: R) -> Result<Self, String> {
        let game: twinsim_reference::registry::GameId =
            game.parse().map_err(|e: twinsim_reference::registry::UnknownGame| e.to_string())?;
        Ok(TurnReader::new(game.info().framing, reader))
    }

    /// The bot's seat, once the input has revealed it ([`SeatRule`](twinsim_reference::framing::SeatRule)): Olymbits says the player
    /// index in its init input, Zuniq's first line is `Start` for White (seat 0) and a move for
    /// Black (seat 1). The other games' views are written from the reader's side ("me" first)
    /// and do not say the seat: `Some(0)` there, which is what a bot rebuilding its state from
    /// views assumes.
    pub fn seat(&self) -> Option<PlayerId> {
        self.seat
    }

    /// The next turn's text, `None` at the end of the input (or at the game's end line, Zuniq's
    /// `Quit`).
    pub fn next_turn(&mut self) -> Result<Option<String>, ReadError> {
        // The first line decides between the end of input and a turn.
        let Some(first) = self.line()? else { return Ok(None) };
        if self.framing.end_line == Some(first.as_str()) {
            return Ok(None);
        }
        let first_turn = std::mem::replace(&mut self.first, false);
        if first_turn {
            self.seat = self.framing.seat.seat_from_first_line(&first);
        }
        self.pending = Some(first);
        let mut lines = Vec::new();
        let init: &[Part] = if first_turn { self.framing.init } else { &[] };
        for part in init.iter().chain(self.framing.turn) {
            self.part(part, &mut lines)?;
        }
        Ok(Some(lines.join("\n")))
    }

    /// One part of the input into `lines`.
    fn part(&mut self, part: &Part, lines: &mut Vec<String>) -> Result<(), ReadError> {
        match *part {
            Part::Lines(count, expected) => self.lines(lines, count, expected),
            Part::PerNumber { number, times, plus, expected } => {
                self.lines(lines, times * self.numbers[number] + plus, expected)
            }
            Part::Counted(expected) => self.counted(lines, expected),
            Part::Number(expected) => {
                let number = self.number(lines, expected)?;
                self.numbers.push(number);
                Ok(())
            }
            Part::Seat(expected) => {
                self.seat = Some(self.number(lines, expected)?);
                Ok(())
            }
        }
    }

    /// One line without its end of line, `None` at the end of the input.
    fn line(&mut self) -> Result<Option<String>, ReadError> {
        if let Some(line) = self.pending.take() {
            return Ok(Some(line));
        }
        let mut line = String::new();
        let read = (&mut self.reader).take(MAX_LINE_BYTES).read_line(&mut line)?;
        if read == 0 {
            return Ok(None);
        }
        self.line_number += 1;
        if read as u64 == MAX_LINE_BYTES && !line.ends_with('\n') {
            return Err(ReadError::TooLong { line: self.line_number });
        }
        let trimmed = line.trim_end_matches(['\n', '\r']).len();
        line.truncate(trimmed);
        Ok(Some(line))
    }

    /// `count` more lines into `lines`.
    fn lines(
        &mut self,
        lines: &mut Vec<String>,
        count: usize,
        expected: &'static str,
    ) -> Result<(), ReadError> {
        for _ in 0..count {
            match self.line()? {
                Some(l) => lines.push(l),
                None => return Err(ReadError::Truncated { line: self.line_number + 1, expected }),
            }
        }
        Ok(())
    }

    /// A count line, then that many lines.
    fn counted(
        &mut self,
        lines: &mut Vec<String>,
        expected: &'static str,
    ) -> Result<(), ReadError> {
        let count = self.number(lines, expected)?;
        self.lines(lines, count, "a line of the counted list")
    }

    /// A count or index line into `lines`, and its number.
    fn number(
        &mut self,
        lines: &mut Vec<String>,
        expected: &'static str,
    ) -> Result<usize, ReadError> {
        self.lines(lines, 1, expected)?;
        parse_count(lines.last().map_or("", String::as_str))
            .map_err(|found| self.bad_count(expected, found))
    }

    fn bad_count(&self, expected: &'static str, found: String) -> ReadError {
        ReadError::BadCount { line: self.line_number, expected, found }
    }
}

/// A count or index line: a non-negative number up to [`MAX_COUNT`]; the line itself otherwise.
fn parse_count(line: &str) -> Result<usize, String> {
    match line.trim().parse::<usize>() {
        Ok(n) if n <= MAX_COUNT => Ok(n),
        _ => Err(line.to_string()),
    }
}

/// The limits the rules docs give ([`GameInfo::time_limits`](twinsim_reference::registry::GameInfo)):
/// X-mas Rush and Olymbits and Wondev Woman 1000 ms / 50 ms, Photosynthesis 1000 ms / 100 ms,
/// Zuniq 30 s for the whole game.
///
/// # Panics
/// If `game` is not a game's trace name (callers check names first; the arena and the CLI do).
#[cfg(feature = "registry")]
pub fn time_limits(game: &str) -> TimeLimits {
    match game.parse::<twinsim_reference::registry::GameId>() {
        Ok(game) => game.info().time_limits,
        Err(unknown) => panic!("{unknown}"),
    }
}

/// The clock of a bot on standard input: the deadline of each turn, measured from when its
/// input was read, under the game's [`TimeLimits`].
pub struct TurnClock {
    limits: TimeLimits,
    /// Answers given so far.
    turns: u32,
    /// Zuniq: thinking time used so far (the budget counts only the bot's own turns).
    used: Duration,
    /// When the current turn's input was read.
    started: Option<Instant>,
}

impl TurnClock {
    /// The share of a limit a bot plans to use: the rest is left for reading, printing and the
    /// scheduler's jitter between the referee's clock and the bot's (on a loaded 2-core machine
    /// a process can stall 8-16 ms; at 90% of a 50 ms limit the example bots timed out there).
    const SAFETY: f64 = 0.6;

    /// The clock of a game under the referee's limits (its `TIME_LIMITS`:
    /// `twinsim_reference::zuniq::TIME_LIMITS`), scaled by the environment variable
    /// `TWINSIM_TIME_SCALE` when it holds a finite positive number (as `twinsim arena
    /// --time-scale` scales the arena's limits, so that a bot run in a fast test thinks as long
    /// as it is allowed to).
    pub fn new(limits: TimeLimits) -> Self {
        let scale = std::env::var("TWINSIM_TIME_SCALE")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0 && *s <= 1e3)
            .unwrap_or(1.0);
        let limits = TimeLimits {
            first: limits.first.mul_f64(scale),
            later: limits.later.mul_f64(scale),
            total: limits.total.map(|t| t.mul_f64(scale)),
        };
        TurnClock { limits, turns: 0, used: Duration::ZERO, started: None }
    }

    /// Call when a turn's input has been read: the deadline of its answer (for Zuniq, when the
    /// game's budget runs out, which is what its bot expects).
    pub fn start_turn(&mut self) -> Instant {
        let now = Instant::now();
        self.started = Some(now);
        let left = match self.limits.total {
            Some(total) => total.saturating_sub(self.used),
            None if self.turns == 0 => self.limits.first,
            None => self.limits.later,
        };
        now + left.mul_f64(Self::SAFETY)
    }

    /// Call when the answer has been printed.
    pub fn end_turn(&mut self) {
        if let Some(start) = self.started.take() {
            self.used += start.elapsed();
        }
        self.turns += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twinsim_reference::game::TraceEngine;

    /// Every view of every trace game, concatenated as a bot would receive them, splits back into
    /// exactly those views: the reader consumes neither less nor more than one turn.
    fn reads_back_the_trace_views(game: &str, engine: &dyn TraceEngine) {
        let path = format!("{}/../tests/traces/{game}.jsonl", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let mut checked = 0;
        for line in text.lines().take(6) {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            let seed = record["seed"].as_i64();
            let params = record.get("params").cloned().unwrap_or(serde_json::json!({}));
            let play = engine.setup(seed, &params).unwrap();
            let players = play.initial_record().initial_views.len();
            for seat in 0..players {
                // Replay the trace's actions, collecting the texts this seat is sent.
                let mut play = engine.setup(seed, &params).unwrap();
                let mut sent = vec![];
                let initial = play.initial_record();
                // Wondev Woman's traces keep the init input apart; a bot reads it first.
                let init = initial.init_input_of(seat).map(|i| format!("{i}\n"));
                if let Some(v) = Some(initial.initial_view(seat)).filter(|v| !v.is_empty()) {
                    sent.push(format!("{}{v}", init.unwrap_or_default()));
                }
                for turn in record["turns"].as_array().unwrap() {
                    let actions: Vec<Option<String>> = turn["actions"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|a| a.as_str().map(str::to_string))
                        .collect();
                    if play.play_turn(&actions).is_err() {
                        break;
                    }
                    let rec = play.turn_record();
                    if let Some(v) =
                        rec.views.get(seat).and_then(Option::as_deref).filter(|v| !v.is_empty())
                    {
                        sent.push(v.to_string());
                    }
                }
                let stream: String = sent.iter().map(|v| format!("{v}\n")).collect();
                let mut reader = TurnReader::for_game(game, stream.as_bytes()).unwrap();
                for want in &sent {
                    if game == "zuniq" && want == "Quit" {
                        break;
                    }
                    let got = reader.next_turn().unwrap().expect("a turn");
                    assert_eq!(&got, want, "{game} seat {seat}");
                    checked += 1;
                }
                if game == "olymbits" {
                    assert_eq!(reader.seat(), Some(seat));
                }
            }
        }
        assert!(checked > 20, "{game}: only {checked} views checked");
    }

    /// A stream with no line end (`/dev/zero`) ends in `TooLong` after `MAX_LINE_BYTES`, not in
    /// a bot whose memory grows until it is killed; a line just under the limit still reads.
    #[test]
    fn a_line_without_end_is_refused_at_the_limit() {
        let zeros = io::BufReader::new(io::repeat(0));
        let mut reader = TurnReader::new(twinsim_reference::zuniq::FRAMING, zeros);
        let error = reader.next_turn().unwrap_err();
        assert!(matches!(error, ReadError::TooLong { line: 1 }), "{error}");
        assert_eq!(error.to_string(), "line 1: over 1048576 bytes");

        let long = "x".repeat(MAX_LINE_BYTES as usize - 1) + "\n";
        let mut reader = TurnReader::new(twinsim_reference::zuniq::FRAMING, long.as_bytes());
        assert_eq!(reader.next_turn().unwrap().map(|t| t.len()), Some(long.len() - 1));
    }

    #[test]
    fn splits_every_games_input_into_its_turns() {
        for (game, engine) in [
            ("xmas-rush", twinsim_reference::xmas_rush::engine()),
            ("photosynthesis", twinsim_reference::photosynthesis::engine()),
            ("zuniq", twinsim_reference::zuniq::engine()),
            ("olymbits", twinsim_reference::olymbits::engine()),
            ("wondev-woman", twinsim_reference::wondev_woman::engine()),
        ] {
            reads_back_the_trace_views(game, engine.expect("every reference engine exists"));
        }
    }

    #[test]
    fn zuniq_seat_and_quit() {
        let mut r = TurnReader::for_game("zuniq", "A2h\nB3h\nQuit\n".as_bytes()).unwrap();
        assert_eq!(r.next_turn().unwrap().as_deref(), Some("A2h"));
        assert_eq!(r.seat(), Some(1), "a move first: Black");
        assert_eq!(r.next_turn().unwrap().as_deref(), Some("B3h"));
        assert_eq!(r.next_turn().unwrap(), None);
        let mut r = TurnReader::for_game("zuniq", "Start\n".as_bytes()).unwrap();
        r.next_turn().unwrap();
        assert_eq!(r.seat(), Some(0));
    }

    #[test]
    fn bad_input_is_an_error_that_says_where() {
        let mut r = TurnReader::for_game("wondev-woman", "5\n2\n.....\n".as_bytes()).unwrap();
        let e = r.next_turn().unwrap_err().to_string();
        assert_eq!(e, "line 4: input ended, expected a board row");
        let mut r = TurnReader::for_game("olymbits", "x\n".as_bytes()).unwrap();
        let e = r.next_turn().unwrap_err().to_string();
        assert_eq!(e, "line 1: expected the player index, found \"x\"");
        let text = "0\n".to_string() + &"0 0 0 0 0 0 0\n".repeat(9) + "99999999999\n";
        let mut r = TurnReader::for_game("xmas-rush", text.as_bytes()).unwrap();
        let e = r.next_turn().unwrap_err().to_string();
        assert_eq!(e, "line 11: expected the number of items, found \"99999999999\"");
        assert!(TurnReader::for_game("chess", "".as_bytes()).is_err());
    }
}
