//! The `#[ignore]`d checks that read no clock at all, so that `.ci/run` can run them at the lowest
//! priority beside the test command (a starved thread only takes longer): Zuniq's perft 5 from
//! the empty board and its differential soak (the fuzz targets' checks, `zuniq_diff` and the
//! parser's, over seeded random inputs), moved here from `twinsim-fast`'s unit tests so that the
//! release step builds one test binary. `ignored_tests::` refuses a clock in this file (no
//! `Instant`, no `Duration`, no arena, no time scale).

use twinsim_fast::zuniq::check::{game_diff, parse_diff};
use twinsim_fast::zuniq::{perft, Board, Rng};

#[test]
#[ignore = "deterministic (minutes in the test profile): run by .ci/run in release, in its background lane"]
fn perft_5_from_the_empty_board() {
    assert_eq!(perft(&Board::new(), 5), 655_381_440);
}

/// A longer differential run than the quickcheck property, for use without a fuzzer:
/// `ZUNIQ_SOAK` games (default 20,000; `.ci/run` plays 2,500), split over two workers, each
/// with its own seeded stream, so that the soak takes both cores of a CI machine.
#[test]
#[ignore = "deterministic (long): run by .ci/run in release, in its background lane, with ZUNIQ_SOAK=2500; more: ZUNIQ_SOAK=100000 cargo test --release --test release clock_free::zuniq_diff_soak -- --ignored"]
fn zuniq_diff_soak() {
    let games: u64 =
        std::env::var("ZUNIQ_SOAK").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    const WORKERS: u64 = 2;
    std::thread::scope(|scope| {
        for worker in 0..WORKERS {
            // Worker w plays games w, w + WORKERS, ...: `games` in all whatever the split.
            let share = (worker..games).step_by(WORKERS as usize).count();
            scope.spawn(move || soak(Rng(0x5EED + 2 * worker), share, worker));
        }
    });
}

/// `games` random byte strings through the whole-game differential, each followed by a random
/// line through the parser's; a failure names the worker, the game and its bytes.
fn soak(mut rng: Rng, games: usize, worker: u64) {
    for game in 0..games {
        let len = 1 + rng.below(80) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        if let Err(e) = game_diff(&data) {
            panic!("worker {worker}, game {game}, bytes {data:?}: {e}");
        }
        let text: String =
            (0..rng.below(6)).map(|_| (b' ' + rng.below(95) as u8) as char).collect();
        parse_diff(&text).unwrap();
    }
}
