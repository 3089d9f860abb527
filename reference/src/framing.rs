//! How a bot's input divides into turns, and the referee's time limits: the types of each game's
//! `FRAMING` and `TIME_LIMITS` (`zuniq::FRAMING`, ...), which a contest bot reads its standard
//! input and keeps its clock by (`twinsim_search::stdio`).

use crate::game::PlayerId;
use std::time::Duration;

/// The referee's response-time rules of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLimits {
    /// Limit of a player's first answer.
    pub first: Duration,
    /// Limit of each later answer.
    pub later: Duration,
    /// A whole-game thinking budget per player instead (Zuniq: 30 s of wall-clock time).
    pub total: Option<Duration>,
}

/// How a bot's standard input divides into turns (the protocol section of the rules doc): the
/// init parts once, before the first turn's parts, then the turn parts each turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Framing {
    /// A first line that ends the game instead of starting a turn (Zuniq's `Quit`).
    pub end_line: Option<&'static str>,
    /// How the bot learns its seat.
    pub seat: SeatRule,
    /// What is read once, before the first turn.
    pub init: &'static [Part],
    /// What is read each turn.
    pub turn: &'static [Part],
}

/// How a bot learns its seat from its input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SeatRule {
    /// The views are written from the reader's side ("me" first) and do not say the seat:
    /// seat 0, which is what a bot rebuilding its state from views assumes.
    Own,
    /// Seat 0 when the first line is this one, else seat 1 (Zuniq: `Start` for White).
    FirstLineIs(&'static str),
    /// A [`Part::Seat`] line says it.
    Read,
}

/// One part of a turn's input; `expected` says what the line holds, for error messages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Part {
    /// A fixed number of lines.
    Lines(usize, &'static str),
    /// A count line, then that many lines.
    Counted(&'static str),
    /// A number kept for [`Part::PerNumber`] (numbered in the order they are read).
    Number(&'static str),
    /// The reader's seat ([`SeatRule::Read`]).
    Seat(&'static str),
    /// `times * n + plus` lines, `n` the kept number `number`.
    PerNumber {
        /// Index of the kept number.
        number: usize,
        /// Lines per unit of it.
        times: usize,
        /// Lines besides.
        plus: usize,
        /// What the lines hold.
        expected: &'static str,
    },
}

impl SeatRule {
    /// The seat once the first turn's first line is read (`None` until a [`Part::Seat`] line).
    pub fn seat_from_first_line(&self, first: &str) -> Option<PlayerId> {
        match *self {
            SeatRule::Own => Some(0),
            SeatRule::FirstLineIs(line) => Some(if first == line { 0 } else { 1 }),
            SeatRule::Read => None,
        }
    }
}
