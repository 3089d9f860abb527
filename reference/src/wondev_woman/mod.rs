//! Not implemented yet: `engine()` returns `None`, so the tools report this game as skipped.

use crate::game::TraceEngine;

/// The text-level engine for replay and verification (`None`: not implemented yet).
pub fn engine() -> Option<&'static dyn TraceEngine> {
    None
}
