//! The fast twin against the reference: trace replay, differential quickcheck properties over
//! whole games, shadows and parsers, and the committed fuzz regressions.

use quickcheck::{quickcheck, TestResult};
use twinsim_fast::photosynthesis::{benches::XorShift, check, next_int, shuffle, State};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::trace::{parse_jsonl, replay};

#[test]
fn fast_replays_every_trace() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/traces/photosynthesis.jsonl"
    ))
    .expect("trace file");
    let engine = twinsim_fast::photosynthesis::engine().expect("engine");
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
    use twinsim_reference::game::Game;
    use twinsim_reference::photosynthesis::{Params, Photosynthesis};
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

#[test]
fn skip_shuffle_consumes_exactly_what_shuffle_draws() {
    fn prop(seed: i64, n: u16) -> bool {
        let n = n as usize % 700;
        let mut a = JavaRandom::new(seed);
        let mut list = vec![0u8; n];
        a.shuffle(&mut list);
        let mut b = JavaRandom::new(seed).state() as u64;
        twinsim_fast::photosynthesis::skip_shuffle(&mut b, n as u32);
        a.state() as u64 == b
    }
    quickcheck(prop as fn(i64, u16) -> bool);
}

/// The rejection table is the JDK's test `u - r + m < 0`, entry by entry, at its boundary.
#[test]
fn reject_limits_match_the_jdk_test() {
    for bound in 2..twinsim_fast::photosynthesis::REJECT_LIMIT.len() as i32 {
        let limit = twinsim_fast::photosynthesis::REJECT_LIMIT[bound as usize] as i64;
        for u in [limit - 1, limit, i32::MAX as i64] {
            if u < 0 || u > i32::MAX as i64 {
                continue;
            }
            let u = u as i32;
            let r = u % bound;
            let rejected =
                bound & (bound - 1) != 0 && u.wrapping_sub(r).wrapping_add(bound - 1) < 0;
            assert_eq!(rejected, u as i64 >= limit, "bound {bound}, u {u}");
        }
    }
}

/// The jump-ahead path and the sequential path agree with the JDK shuffle also when a draw is
/// rejected: for the bound with the largest rejection zone below the table size, search
/// generator states whose next draw is rejected, and shuffle lists of that length from them.
#[test]
fn skip_shuffle_paths_agree_including_rejections() {
    use twinsim_fast::photosynthesis::{
        next31, skip_shuffle, skip_shuffle_sequential, REJECT_LIMIT,
    };
    let bound =
        (2..REJECT_LIMIT.len()).max_by_key(|&b| (1u64 << 31) - REJECT_LIMIT[b] as u64).unwrap();
    let mut found = 0;
    let mut state = 12345u64;
    for _ in 0..200_000_000u64 {
        let mut probe = state;
        if next31(&mut probe) as u32 >= REJECT_LIMIT[bound] {
            let mut a = JavaRandom::from_state(state as i64);
            a.shuffle(&mut vec![0u8; bound]);
            let (mut b, mut c) = (state, state);
            skip_shuffle(&mut b, bound as u32);
            skip_shuffle_sequential(&mut c, bound);
            assert_eq!(a.state() as u64, b);
            assert_eq!(b, c);
            found += 1;
            if found == 3 {
                break;
            }
        }
        state = probe;
    }
    assert!(found > 0, "no rejection found to test");
}

/// `nth_legal` is indexing into the legal list, for every index, deep into games.
#[test]
#[allow(clippy::needless_range_loop)]
fn nth_legal_indexes_the_legal_list() {
    use twinsim_fast::photosynthesis::MoveList;
    let mut rng = XorShift(3);
    let mut list = MoveList::default();
    for seed in 0..30 {
        let mut s =
            State::new_game(seed, twinsim_reference::photosynthesis::Params::default(), None);
        while !s.game_over() {
            let mut answers = [None, None];
            for p in 0..2 {
                if !s.is_asked(p) {
                    continue;
                }
                s.legal_moves(p, &mut list);
                let counts = s.group_counts(p);
                for (k, m) in list.as_slice().iter().enumerate() {
                    assert_eq!(s.nth_legal(p, counts, k as u32), *m);
                }
                let m = list.moves[rng.below(list.len)];
                answers[p] = Some(twinsim_reference::photosynthesis::Answer::Action(m.action()));
            }
            s.step(&answers, None).unwrap();
        }
    }
}

/// Search mode plays the same game: from the same seed and the same answers, a state that does
/// not replay the view shuffles (`without_views`) equals the exact one at every frame in every
/// field but the generator (the fast state's views are the only thing the generator decides).
#[test]
fn without_views_plays_the_same_game_as_the_exact_state() {
    use twinsim_fast::photosynthesis::MoveList;
    use twinsim_reference::photosynthesis::{Answer, Params};
    fn prop(seed: i64, picks: u64) -> bool {
        let mut rng = XorShift(picks | 1);
        let mut exact = State::new_game(seed, Params::default(), None);
        let mut search = exact.without_views();
        let mut list = MoveList::default();
        while !exact.game_over() {
            let answers = [0, 1].map(|p| {
                exact.is_asked(p).then(|| {
                    exact.legal_moves(p, &mut list);
                    let moves = list.as_slice();
                    Answer::Action(moves[rng.below(moves.len())].action())
                })
            });
            let (a, b) = (exact.step(&answers, None), search.step(&answers, None));
            if a.is_err() != b.is_err() {
                return false;
            }
            let same = State { rng: exact.rng, exact_views: true, ..search };
            if same != exact {
                return false;
            }
        }
        search.game_over()
    }
    quickcheck(prop as fn(i64, u64) -> bool);
}
