//! `twinsim bench` and `benches/engines.rs`: each hot operation, reference vs fast, measured
//! interleaved in one run (so both sides see the same machine state), as median nanoseconds per
//! operation and their ratio.

use serde_json::{json, Value};
use std::time::{Duration, Instant};
use twinsim_fast::bench::BenchOp;

/// The measurement of one operation.
#[derive(Debug, Clone)]
pub struct BenchResult {
    pub game: &'static str,
    pub name: &'static str,
    pub reference_ns: f64,
    pub fast_ns: f64,
}

impl BenchResult {
    /// How many times faster the fast twin is.
    pub fn speedup(&self) -> f64 {
        self.reference_ns / self.fast_ns
    }

    pub fn to_json(&self) -> Value {
        json!({
            "game": self.game,
            "operation": self.name,
            "reference_ns": self.reference_ns,
            "fast_ns": self.fast_ns,
            "speedup": self.speedup(),
        })
    }
}

/// How many calls fit in `target` (at least 1), measured on `f`.
fn calibrate(f: &mut dyn FnMut(), target: Duration) -> u64 {
    let mut n = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..n {
            f();
        }
        let took = start.elapsed();
        if took >= target / 4 || n >= 1 << 30 {
            let per = took.as_secs_f64() / n as f64;
            return ((target.as_secs_f64() / per.max(1e-12)) as u64).max(1);
        }
        n *= 4;
    }
}

fn time_batch(f: &mut dyn FnMut(), n: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..n {
        f();
    }
    start.elapsed().as_nanos() as f64 / n as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Measures one pair: `rounds` alternating batches of reference and fast calls, each batch about
/// `batch` long; the medians of the per-batch ns/op.
pub fn measure(op: &mut BenchOp, rounds: usize, batch: Duration) -> BenchResult {
    let n_ref = calibrate(&mut op.reference, batch);
    let n_fast = calibrate(&mut op.fast, batch);
    let (mut r, mut f) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds.max(1) {
        r.push(time_batch(&mut op.reference, n_ref));
        f.push(time_batch(&mut op.fast, n_fast));
    }
    BenchResult { game: op.game, name: op.name, reference_ns: median(r), fast_ns: median(f) }
}

/// A table of results for a terminal.
pub fn table(results: &[BenchResult]) -> String {
    let mut out = format!(
        "{:<16} {:<28} {:>14} {:>14} {:>9}\n",
        "game", "operation", "reference ns", "fast ns", "speedup"
    );
    for r in results {
        out.push_str(&format!(
            "{:<16} {:<28} {:>14.1} {:>14.1} {:>8.1}x\n",
            r.game,
            r.name,
            r.reference_ns,
            r.fast_ns,
            r.speedup()
        ));
    }
    out
}
