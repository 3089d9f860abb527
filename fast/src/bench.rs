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

impl BenchOp {
    /// The usual pair: each call takes the next prepared input (cycling through the list) and
    /// its index, so that both sides see the same sequence of positions and parameters.
    pub fn cycling<R, F>(
        game: &'static str,
        name: &'static str,
        reference_inputs: Vec<R>,
        fast_inputs: Vec<F>,
        mut reference: impl FnMut(&R, usize) + Send + 'static,
        mut fast: impl FnMut(&F, usize) + Send + 'static,
    ) -> BenchOp
    where
        R: Send + 'static,
        F: Send + 'static,
    {
        assert!(
            !reference_inputs.is_empty() && !fast_inputs.is_empty(),
            "{game} {name}: no inputs"
        );
        let (mut i, mut j) = (0usize, 0usize);
        BenchOp {
            game,
            name,
            reference: Box::new(move || {
                i = (i + 1) % reference_inputs.len();
                reference(&reference_inputs[i], i);
            }),
            fast: Box::new(move || {
                j = (j + 1) % fast_inputs.len();
                fast(&fast_inputs[j], j);
            }),
        }
    }
}

/// A game's constructor of benchmark pairs.
type BenchOpsFn = fn() -> Vec<BenchOp>;

/// The benchmark pairs of `game` (all games when `None`).
pub fn ops(game: Option<&str>) -> Vec<BenchOp> {
    let all: [(&str, BenchOpsFn); 5] = [
        ("xmas-rush", crate::xmas_rush::bench::bench_ops),
        ("photosynthesis", crate::photosynthesis::bench_ops),
        ("zuniq", crate::zuniq::bench::bench_ops),
        ("olymbits", crate::olymbits::bench_ops),
        ("wondev-woman", crate::wondev_woman::bench::bench_ops),
    ];
    all.iter()
        .filter(|(name, _)| game.is_none_or(|g| g == *name))
        .flat_map(|(_, ops)| ops())
        .collect()
}
