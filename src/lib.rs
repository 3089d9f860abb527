//! twinsim: the command-line tool's library half — the registry of engines and the replay,
//! verification, perft and benchmark drivers that the CLI, the benches and the top-level tests
//! share.

pub mod arena;
pub mod bench;
pub mod payoff;
pub mod perft;
pub mod registry;
pub mod replay;
pub mod search;
pub mod verify;
