//! twinsim `reference`: the executable rulebooks.
//!
//! One module per game, each written to be read next to `rules/<game>.md`: plain structs, plain
//! loops, one function per rule. Correct above all; the `fast` crate is where speed lives.

pub mod game;
pub mod java_random;
pub mod sha1prng;
pub mod trace;

pub mod olymbits;
pub mod photosynthesis;
pub mod wondev_woman;
pub mod xmas_rush;
pub mod zuniq;
