//! Olymbits, the fast twin: the three players × four mini-games in fixed-size `Copy` arrays,
//! one joint turn without allocation, generic over the generator (the referee's SHA1PRNG, or
//! [`SearchDice`] for searches: same rules, different dice), hurdle tracks drawn as one table lookup among the 251
//! precomputed (and pre-solved) tracks, the SHA1PRNG stream kept bit-exact so whole referee
//! games replay. Every operation names its reference twin and is checked against it
//! (quickcheck, fuzz targets, the traces).

pub mod api;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod bench;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod check;
pub mod dice;
#[cfg(feature = "json")]
pub mod engine;
pub mod prng;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod sha_ni;
pub mod state;
pub mod step;
pub mod tables;
pub mod typed;

#[cfg(feature = "reference-twin")]
pub use api::Reference;
pub use api::{Action, Fast, MoveList, CAPACITY};
pub use dice::{Dice, SearchDice};
#[cfg(feature = "json")]
pub use engine::{engine, FastEngine, FastPlay, ENGINE};
pub use prng::{compression, Compression, RefereeDice};
pub use state::{Slot, State, TurnLog};
pub use step::Input;
pub use tables::{hurdle_solution, hurdle_tables, Solved};
pub use typed::{FastOlymbits, SearchOlymbits, SeededDice, Typed};

#[cfg(test)]
mod tests;
