//! twinsim: the command-line tool's library half — the registry of engines and the replay,
//! verification and benchmark drivers that the CLI and the top-level tests share.

pub mod registry;
pub mod replay;
