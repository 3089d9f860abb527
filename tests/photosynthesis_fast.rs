//! The fast twin against the reference: trace replay, differential quickcheck properties over
//! whole games, shadows and parsers, and the committed fuzz regressions.

use fast::photosynthesis::{benches::XorShift, check, next_int, shuffle, State};
use quickcheck::{quickcheck, TestResult};
use reference::java_random::JavaRandom;
use reference::trace::{parse_jsonl, replay};

#[test]
fn fast_replays_every_trace() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/traces/photosynthesis.jsonl"
    ))
    .expect("trace file");
    let engine = fast::photosynthesis::engine().expect("engine");
    for game in parse_jsonl(&text).expect("trace") {
        let report = replay(engine, &game);
        assert!(report.is_ok(), "seed {:?}: {:?}", game.seed, report.differences);
    }
}

#[test]
fn fast_java_random_equals_the_reference() {
    fn prop(seed: i64, bounds: Vec<u16>) -> bool {
        let mut a = JavaRandom::new(seed);
        let mut b = a.state() as u64;
        let ok = bounds.iter().all(|&n| {
            let n = 1 + n as i32;
            a.next_below(n) == next_int(&mut b, n) && a.state() as u64 == b
        });
        let mut list_a: Vec<u16> = bounds.clone();
        let mut list_b = bounds;
        a.shuffle(&mut list_a);
        shuffle(&mut b, &mut list_b);
        ok && list_a == list_b && a.state() as u64 == b
    }
    quickcheck(prop as fn(i64, Vec<u16>) -> bool);
}

#[test]
fn fast_games_equal_reference_games_from_arbitrary_bytes() {
    fn prop(data: Vec<u8>) -> TestResult {
        check::game_diff(&data);
        TestResult::passed()
    }
    quickcheck(prop as fn(Vec<u8>) -> TestResult);
}

/// Long games (deep into day 23), including odd corners: random bytes drive both engines.
#[test]
fn fast_games_equal_reference_games_deep() {
    let mut rng = XorShift(0xDEADBEEF);
    for _ in 0..150 {
        let len = 40 + rng.below(600);
        let data: Vec<u8> = (0..len).map(|_| (rng.next_u64() >> 7) as u8).collect();
        check::game_diff(&data);
    }
}

#[test]
fn fast_shadows_equal_reference_on_arbitrary_boards() {
    fn prop(data: Vec<u8>) -> bool {
        check::shadow_diff(&data);
        true
    }
    quickcheck(prop as fn(Vec<u8>) -> bool);
}

#[test]
fn protocol_parsers_survive_arbitrary_text() {
    fn prop(data: Vec<u8>, s: String) -> bool {
        check::parse_diff(&data);
        check::parse_diff(s.as_bytes());
        true
    }
    quickcheck(prop as fn(Vec<u8>, String) -> bool);
}

#[test]
fn incremental_hash_equals_scratch_and_conversions_round_trip() {
    use reference::game::Game;
    use reference::photosynthesis::{Params, Photosynthesis};
    let mut rng = XorShift(99);
    for seed in 0..40 {
        let mut rs = Photosynthesis::new_game(seed, &Params::default());
        while !rs.game_over {
            let fs = State::from(&rs);
            assert_eq!(fs.hash, fs.hash_from_scratch());
            assert_eq!(fs.to_reference(), rs);
            let actions = [0, 1].map(|p| {
                let l = Photosynthesis::legal_actions(&rs, p);
                (!l.is_empty()).then(|| l[rng.below(l.len())])
            });
            Photosynthesis::step(&mut rs, &actions).unwrap();
        }
    }
}

/// Minimized fuzz inputs worth keeping (`fuzz/regressions/photosynthesis_diff/`), replayed
/// without a fuzzer.
#[test]
fn fuzz_regressions_replay() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/regressions/photosynthesis_diff");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).expect("regressions dir") {
        let path = entry.unwrap().path();
        check::game_diff(&std::fs::read(&path).unwrap());
        count += 1;
    }
    assert!(count > 0, "no regression inputs found");
}
