//! Wondev Woman, the fast twin: bit masks over an 8-wide padded 7×7 grid, legal actions
//! generated directly in the referee's sorted order, copy-free make/unmake with an incremental
//! zobrist hash that is symmetric under swapping a player's unit ids, and a bit-parallel
//! Voronoi evaluation. Every operation names its reference twin and is checked against it.

pub mod api;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod bench;
pub mod board;
pub mod bot;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod check;
#[cfg(feature = "json")]
pub mod engine;
pub mod movegen;
pub mod play;
pub mod setup;
pub mod typed;

#[cfg(test)]
mod tests;

#[cfg(feature = "reference-twin")]
pub use api::Reference;
pub use api::{Action, Fast, MoveList, State, CAPACITY};
#[cfg(feature = "json")]
pub use engine::{engine, FastEngine, FastPlay, ENGINE};
pub use typed::FastWondevWoman;
