//! Not implemented yet: `engine()` returns `None`, so the tools report this game as skipped.

use reference::game::TraceEngine;

/// The text-level engine for replay and verification (`None`: not implemented yet).
pub fn engine() -> Option<&'static dyn TraceEngine> {
    None
}

/// Hot operations to benchmark, reference vs fast (empty: none yet).
pub fn bench_ops() -> Vec<crate::bench::BenchOp> {
    Vec::new()
}
