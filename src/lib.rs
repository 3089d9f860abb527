//! twinsim: the command-line tool's library half, the drivers behind its subcommands (replay,
//! verification, perft, benchmarks, the payoff table) that the CLI, the benches and the top-level
//! tests share. The engines, searches and arena are their own crates: `twinsim-reference`,
//! `twinsim-fast`, `twinsim-search` and `twinsim-arena`.

#![warn(missing_docs)]

pub mod bench;
pub mod bundle;
pub mod input;
pub mod ladder;
pub mod payoff;
pub mod perft;
pub mod replay;
pub mod verify;
