//! The fast Photosynthesis: 37-bit masks in `u64`s, precomputed shadow and distance tables,
//! popcount costs and sun, set-wise legal-action counting, an inline `java.util.Random`, and a
//! Zobrist hash (kept incrementally in search mode, computed on demand in exact states). Plays
//! exactly like `twinsim_reference::photosynthesis`: every operation names its reference twin
//! and is checked against it (tests, `check`, fuzz targets).

// Masks and tables are indexed by cell and size on purpose: the index is the cell.
#![allow(clippy::needless_range_loop)]

pub mod api;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod bench;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod check;
#[cfg(feature = "json")]
pub mod engine;
pub mod moves;
pub mod random;
pub mod rules;
pub mod search;
pub mod search_convert;
mod setup;
pub mod state;
pub mod tables;
pub mod typed;

// The shared API names first; the globs below name other things (`CompactMoves`, `Move`, ...),
// and a name given explicitly here would shadow a glob's anyway.
#[cfg(feature = "reference-twin")]
pub use api::Reference;
pub use api::{Action, Fast, MoveList, State, CAPACITY};
#[cfg(feature = "json")]
pub use engine::{engine, FastEngine, FastPlay, ENGINE};
pub use moves::*;
pub use random::*;
pub use rules::*;
pub use search::{search_random_game, SearchState};
pub use state::*;
pub use typed::*;
