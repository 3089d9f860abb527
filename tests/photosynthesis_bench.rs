//! A measurement harness (not a test of speed: it asserts nothing about time) for the
//! Photosynthesis benchmark pairs until `twinsim bench` exists. Run with
//! `cargo test --release --test photosynthesis_bench -- --ignored --nocapture`.

use std::time::Instant;

#[test]
#[ignore = "measurement, run explicitly"]
fn photosynthesis_bench_pairs() {
    for mut op in twinsim_fast::photosynthesis::bench_ops() {
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

/// A random (not necessarily reachable) fast state number `i`: random trees, dormancy, day,
/// nutrients, sun, score and flags, with a consistent hash.
fn random_state(i: u64) -> twinsim_fast::photosynthesis::State {
    use twinsim_fast::photosynthesis::benches::XorShift;
    use twinsim_reference::photosynthesis::{Params, State, Tree};
    let mut rng = XorShift(i.wrapping_mul(0x9E3779B97F4A7C15) | 1);
    let mut s = State::blank(0, Params::default());
    let trees = rng.below(30);
    for _ in 0..trees {
        let cell = rng.below(37);
        let info = rng.below(16);
        s.trees.insert(
            cell,
            Tree { size: (info % 4) as u8, owner: (info >> 2) & 1, dormant: info & 8 != 0 },
        );
    }
    s.day = rng.below(24) as u32;
    s.sun_direction = rng.below(6);
    s.nutrients = rng.below(21) as i32;
    for p in 0..2 {
        s.players[p].sun = rng.below(60) as i32;
        s.players[p].score = rng.below(120) as i32;
        s.players[p].waiting = rng.below(2) == 1;
    }
    twinsim_fast::photosynthesis::State::from(&s)
}

/// Zobrist collisions among 10^7 random states (distinct ones: equal hashes are re-checked
/// state by state). Prints the count; 0 is expected at 64 bits.
#[test]
#[ignore = "measurement, run explicitly"]
fn photosynthesis_zobrist_collisions() {
    let n: u64 = 10_000_000;
    let mut hashes: Vec<u64> = (0..n).map(|i| random_state(i).hash).collect();
    hashes.sort_unstable();
    let dup: Vec<u64> = hashes.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]).collect();
    drop(hashes);
    let mut collisions = 0;
    for h in &dup {
        let states: Vec<_> = (0..n).map(random_state).filter(|s| s.hash == *h).collect();
        for (a, b) in states.iter().zip(states.iter().skip(1)) {
            if a != b {
                collisions += 1;
            }
        }
    }
    println!(
        "zobrist: {n} random states, {} equal hashes, {collisions} collisions of distinct states",
        dup.len()
    );
}
