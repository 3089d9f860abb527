//! Zuniq benchmark harness (not a timed test: it asserts nothing about speed and is ignored by
//! default). Runs each `twinsim_fast::zuniq::bench::bench_ops()` pair interleaved, reference and fast in
//! alternating batches, and prints medians per call and their ratio:
//!
//! `cargo test --release --test zuniq_bench -- --ignored --nocapture`

use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Nanoseconds per call of `f`, one batch.
fn batch(f: &mut (dyn FnMut() + Send), calls: u32) -> f64 {
    let start = Instant::now();
    for _ in 0..calls {
        f();
    }
    start.elapsed().as_nanos() as f64 / f64::from(calls)
}

#[test]
#[ignore = "benchmark: run with --release --ignored --nocapture"]
fn zuniq_bench() {
    for mut op in twinsim_fast::zuniq::bench::bench_ops() {
        // Calibrate batch sizes to about 2 ms each.
        let calls = |f: &mut (dyn FnMut() + Send)| {
            let once = batch(f, 3).max(1.0);
            ((2e6 / once) as u32).clamp(1, 1_000_000)
        };
        let (rc, fc) = (calls(op.reference.as_mut()), calls(op.fast.as_mut()));
        let (mut r, mut f) = (vec![], vec![]);
        for _ in 0..31 {
            r.push(batch(op.reference.as_mut(), rc));
            f.push(batch(op.fast.as_mut(), fc));
        }
        let (r, f) = (median(r), median(f));
        println!(
            "{}/{}: reference {:.1} ns, fast {:.1} ns, ratio {:.1}x",
            op.game,
            op.name,
            r,
            f,
            r / f
        );
    }
}
