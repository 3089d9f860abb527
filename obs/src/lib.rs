//! twinsim `obs`: what a learning agent sees of each game and how it acts, as numbers.
//!
//! Two encoders per game, kept equal by the tests in `tests/`:
//! - [`codec`]: from the referee's text, one player's views only (a [`codec::Seat`] per player);
//! - [`lanes`]: from the fast twin's typed state, with no text at all (what `VecEnv` steps).
//!
//! [`slot::Slot`] is one game on the text-level engine seen from every seat (the view path).
//! The Python binding (`python/`, `twinsim._core`) is glue over this crate.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod codec;
pub mod lanes;
pub mod slot;
