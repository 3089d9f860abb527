//! Benchmark pairs: one hot operation, its reference twin and its fast twin, run interleaved by
//! `twinsim bench` and the `benches/` harness so that both see the same machine state.

/// One hot operation measured in both engines.
pub struct BenchOp {
    /// Game trace name (`"xmas-rush"`, ...).
    pub game: &'static str,
    /// Operation name (`"push"`, `"legal_moves"`, ...).
    pub name: &'static str,
    /// Runs the operation once through the reference engine (on prepared inputs, cycling).
    pub reference: Box<dyn FnMut() + Send>,
    /// Runs the same operation once through the fast engine.
    pub fast: Box<dyn FnMut() + Send>,
}
