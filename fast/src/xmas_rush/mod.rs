//! X-mas Rush, the fast twin: the board as four 49-bit direction sets, pushes by shifts and
//! masks, a bitboard flood fill for the reachable set, and a turn function whose events cost nothing when not
//! asked for. Every operation names its reference twin and is checked against it (traces,
//! quickcheck, the `xmas_rush_game_diff` fuzz target).
//!
//! [`FastXmasRush`] is the typed `Game` (twin of [`twinsim_reference::xmas_rush::XmasRush`]);
//! [`engine()`] returns the text-level `TraceEngine`.
//!
//! Cold paths reuse the reference: setup (once per game, then packed), parsing a bot's line,
//! and the trace JSON of a state (through [`State::to_reference`]).

pub mod api;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod bench;
pub mod bfs;
pub mod board;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod check;
#[cfg(feature = "json")]
pub mod engine;
pub mod protocol;
pub mod push;
pub mod rules;
pub mod search;
pub mod typed;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod typed_tests;

#[cfg(feature = "reference-twin")]
pub use api::Reference;
pub use api::{Action, Fast, MoveList, State, CAPACITY};
#[cfg(feature = "json")]
pub use engine::{engine, legal_lines, FastEngine, FastPlay, ENGINE};
pub use rules::{play_turn, Answer, NoEvents, PackedAction, Sink};
pub use typed::FastXmasRush;
