//! Progress of long runs on stderr: the arena crate's display, which Python shows too.

pub use twinsim_arena::progress::Progress;
