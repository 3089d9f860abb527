//! A measurement harness (not a test of speed: it asserts nothing about time) for the
//! Photosynthesis benchmark pairs until `twinsim bench` exists. Run with
//! `cargo test --release --test photosynthesis_bench -- --ignored --nocapture`.

use std::time::Instant;

#[test]
#[ignore = "measurement, run explicitly"]
fn photosynthesis_bench_pairs() {
    for mut op in fast::photosynthesis::bench_ops() {
        let iters = if op.name == "random_game" { 20 } else { 20_000 };
        let rounds = if op.name == "random_game" { 15 } else { 31 };
        let (mut r, mut f) = (vec![], vec![]);
        for _ in 0..rounds {
            let t = Instant::now();
            for _ in 0..iters {
                (op.reference)();
            }
            r.push(t.elapsed().as_nanos() as f64 / iters as f64);
            let t = Instant::now();
            for _ in 0..iters * if op.name == "random_game" { 10 } else { 1 } {
                (op.fast)();
            }
            let n = iters * if op.name == "random_game" { 10 } else { 1 };
            f.push(t.elapsed().as_nanos() as f64 / n as f64);
        }
        r.sort_by(|a, b| a.partial_cmp(b).unwrap());
        f.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let (rm, fm) = (r[r.len() / 2], f[f.len() / 2]);
        println!(
            "{:<16} reference {:>12.1} ns   fast {:>10.1} ns   ratio {:>7.1}x",
            op.name,
            rm,
            fm,
            rm / fm
        );
    }
}
