//! `cargo bench`: each hot operation, reference vs fast, interleaved in one run; prints median
//! ns/op and the speedup ratio (the same measurement as `twinsim bench`).

fn main() {
    // `cargo test --benches` passes no `--bench`; run one quick round then, so the harness is
    // exercised without taking bench time.
    let quick = !std::env::args().any(|a| a == "--bench");
    let mut ops = twinsim_fast::bench::ops(None);
    if ops.is_empty() {
        println!("no benchmark pairs yet");
        return;
    }
    let (rounds, batch) = if quick { (1, 1) } else { (15, 20) };
    let results: Vec<_> = ops
        .iter_mut()
        .map(|op| twinsim::bench::measure(op, rounds, std::time::Duration::from_millis(batch)))
        .collect();
    print!("{}", twinsim::bench::table(&results));
}
