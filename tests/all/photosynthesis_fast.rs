//! The fast twin against the reference: differential quickcheck properties over whole games,
//! shadows and parsers, and the Java random generator's fast paths. (Trace replays are in
//! `tests/all/conformance.rs`, fuzz regressions in `tests/all/fuzz_corpus.rs`.)

use quickcheck::{quickcheck, TestResult};
use twinsim_fast::photosynthesis::{check, next_int, shuffle, State};
use twinsim_reference::java_random::JavaRandom;

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
    let mut rng = JavaRandom::new(0xDEADBEEF);
    for _ in 0..150 {
        let len = 40 + rng.next_below(600);
        let data: Vec<u8> = (0..len).map(|_| rng.next(8) as u8).collect();
        check::game_diff(&data);
    }
}

/// Search mode against the exact state and the reference: whole games from arbitrary bytes.
#[test]
fn search_games_equal_reference_games_from_arbitrary_bytes() {
    fn prop(data: Vec<u8>) -> TestResult {
        check::search_diff(&data);
        TestResult::passed()
    }
    quickcheck(prop as fn(Vec<u8>) -> TestResult);
}

/// Search mode deep into day 23 and to the end of games, in every league.
#[test]
fn search_games_equal_reference_games_deep() {
    let mut rng = JavaRandom::new(0x5EA2C4);
    for _ in 0..150 {
        let len = 40 + rng.next_below(900);
        let data: Vec<u8> = (0..len).map(|_| rng.next(8) as u8).collect();
        check::search_diff(&data);
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

/// `skip_shuffles` over consecutive lists (lengths past the rejection table included) consumes
/// what the JDK's shuffles of those lists, one after the other, draw.
#[test]
fn skip_shuffles_consume_exactly_what_consecutive_shuffles_draw() {
    fn prop(seed: i64, lens: Vec<u16>) -> bool {
        let lens: Vec<u32> = lens.iter().map(|&n| n as u32 % 600).collect();
        let mut a = JavaRandom::new(seed);
        for &n in &lens {
            a.shuffle(&mut vec![0u8; n as usize]);
        }
        let mut b = JavaRandom::new(seed).state() as u64;
        twinsim_fast::photosynthesis::skip_shuffles(&mut b, &lens);
        a.state() as u64 == b
    }
    quickcheck(prop as fn(i64, Vec<u16>) -> bool);
}

/// The owed draws of noted frames ([`Pending`](twinsim_fast::photosynthesis::Pending)) are made
/// in the referee's order (frame by frame, player by player, group by group) also when a draw
/// is rejected: for every position k of the frames' draws, from the generator state whose k-th
/// draw is 2^31 - 1 (rejected by every bound but a power of two), `sync_views` ends where the
/// JDK's shuffles of the lists in that order do. Lengths mix powers of two and others, so a
/// list taken out of order gives the big draw another kind of bound.
#[test]
fn owed_draws_are_made_in_the_referees_order_when_one_is_rejected() {
    use twinsim_fast::photosynthesis::{Pending, PENDING_FRAMES};
    use twinsim_reference::photosynthesis::Params;
    // java.util.Random's generator: state' = state * MULTIPLIER + 0xB mod 2^48.
    const MULTIPLIER: u64 = 0x5DEECE66D;
    const MASK48: u64 = (1 << 48) - 1;
    // lens[i][p] = (completes, grows, seeds) of player p in frame i.
    let lens: [[[u16; 3]; 2]; PENDING_FRAMES] = [
        [[2, 3, 4], [5, 0, 8]],
        [[0, 2, 6], [3, 4, 0]],
        [[7, 2, 0], [1, 16, 3]],
        [[4, 0, 9], [2, 2, 5]],
    ];
    let total: u32 = lens.iter().flatten().flatten().map(|&n| (n as u32).saturating_sub(1)).sum();
    // The generator's multiplier inverted mod 2^48 (Newton: each step doubles the bits).
    let mut inverse = MULTIPLIER;
    for _ in 0..6 {
        inverse = inverse.wrapping_mul(2u64.wrapping_sub(MULTIPLIER.wrapping_mul(inverse)));
    }
    assert_eq!(MULTIPLIER.wrapping_mul(inverse) & MASK48, 1);
    let mut state = State::new_game(3, Params::default(), None);
    state.pending = Pending { len: PENDING_FRAMES as u8, ..Pending::default() };
    for (i, frame) in lens.iter().enumerate() {
        for (p, groups) in frame.iter().enumerate() {
            for (g, &n) in groups.iter().enumerate() {
                state.pending.lens[Pending::index(i, p, g)] = n;
            }
        }
    }
    let (mut accepted, mut rejected) = (0, 0);
    for k in 0..total {
        // The state after draw k, its draw 2^31 - 1, stepped back k + 1 times.
        let mut seed = (((1u64 << 31) - 1) << 17 | 12_345) & MASK48;
        for _ in 0..=k {
            seed = seed.wrapping_sub(0xB).wrapping_mul(inverse) & MASK48;
        }
        let mut jdk = JavaRandom::from_state(seed as i64);
        for &n in lens.iter().flatten().flatten() {
            jdk.shuffle(&mut vec![0u8; n as usize]);
        }
        let mut fast = state;
        fast.rng = seed;
        fast.sync_views();
        assert_eq!(fast.rng, jdk.state() as u64, "the big draw at {k}");
        let mut unrejected = seed;
        for _ in 0..total {
            unrejected = unrejected.wrapping_mul(MULTIPLIER).wrapping_add(0xB) & MASK48;
        }
        if jdk.state() as u64 == unrejected {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    // Both kinds of bound met the big draw.
    assert!(accepted > 0 && rejected > 0, "accepted {accepted}, rejected {rejected}");
}

/// `skip_shuffles`' slow path: from generator states whose next draw lies in the zone where
/// some bound rejects (the last 512 values below 2^31), lists whose first draw has a bound
/// that accepts it and lists whose first bound rejects it both end where the JDK's do.
#[test]
fn skip_shuffles_near_the_rejection_zone() {
    use twinsim_fast::photosynthesis::{next31, skip_shuffles, REJECT_LIMIT};
    let (mut accepted, mut rejected) = (0, 0);
    let mut state = 777u64;
    for _ in 0..400_000_000u64 {
        let mut probe = state;
        let u = next31(&mut probe) as u32;
        if u >= (1 << 31) - 512 {
            for first in 2..512u32 {
                let lens = [1, first, 0, 7, first / 2];
                let mut a = JavaRandom::from_state(state as i64);
                for &n in &lens {
                    a.shuffle(&mut vec![0u8; n as usize]);
                }
                let mut b = state;
                skip_shuffles(&mut b, &lens);
                assert_eq!(a.state() as u64, b, "draw {u}, lists {lens:?}");
                if u >= REJECT_LIMIT[first as usize] {
                    rejected += 1;
                } else {
                    accepted += 1;
                }
            }
            if rejected > 0 && accepted > 0 {
                break;
            }
        }
        state = probe;
    }
    assert!(rejected > 0 && accepted > 0, "no draw near the zone found ({accepted}, {rejected})");
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
    use twinsim_fast::photosynthesis::CompactMoves;
    let mut rng = JavaRandom::new(3);
    let mut list = CompactMoves::default();
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
                let m = list.moves[rng.next_below(list.len as i32) as usize];
                answers[p] = Some(twinsim_reference::photosynthesis::Answer::Action(m.action()));
            }
            s.play_turn(&answers, None).unwrap();
        }
    }
}

/// Search mode plays the same game: from the same seed and the same answers, a state that does
/// not replay the view shuffles (`without_views`) equals the exact one at every frame in every
/// field but the generator (the fast state's views are the only thing the generator decides)
/// and the hash, which search mode alone keeps up to date: it is the hash from scratch at every
/// frame, played through the text layer and the typed step in turn.
#[test]
fn without_views_plays_the_same_game_as_the_exact_state() {
    use twinsim_fast::photosynthesis::{CompactMoves, FastPhotosynthesis};
    use twinsim_reference::game::Game;
    use twinsim_reference::photosynthesis::{Answer, Params};
    fn prop(seed: i64, picks: i64) -> bool {
        let mut rng = JavaRandom::new(picks);
        let mut exact = State::new_game(seed, Params::default(), None);
        let mut search = exact.without_views();
        let mut list = CompactMoves::default();
        let mut turn = 0;
        while !exact.game_over() {
            let actions = [0, 1].map(|p| {
                exact.is_asked(p).then(|| {
                    exact.legal_moves(p, &mut list);
                    let moves = list.as_slice();
                    moves[rng.next_below(moves.len() as i32) as usize].action()
                })
            });
            let answers = actions.map(|a| a.map(Answer::Action));
            let a = exact.play_turn(&answers, None);
            let b = if turn % 2 == 0 {
                search.play_turn(&answers, None)
            } else {
                FastPhotosynthesis::step(&mut search, &actions)
            };
            turn += 1;
            if a.is_err() != b.is_err() || search.hash != search.hash_from_scratch() {
                return false;
            }
            let same = State {
                rng: exact.rng,
                pending: exact.pending,
                exact_views: true,
                seed_reach: exact.seed_reach,
                hash: exact.hash,
                ..search
            };
            if same != exact || search.zobrist() != exact.zobrist() {
                return false;
            }
        }
        search.game_over()
    }
    quickcheck(prop as fn(i64, i64) -> bool);
}

/// Lazy views: the exact state notes its frames' shuffle draws and makes them only when asked.
/// Whenever the views are rendered (every turn, never until the end, at random turns; from the
/// state or after bringing it up to date in place), they are the referee's text, and at the end
/// the generator and the whole state are the reference's. The frames are played through all
/// three fast entry points (`play_turn`, `play_turn_counted`, the typed step).
#[test]
fn lazy_views_render_the_referees_text_whenever_asked() {
    use twinsim_fast::photosynthesis::{engine, CompactMoves, FastPhotosynthesis};
    use twinsim_reference::game::Game;
    use twinsim_reference::photosynthesis::{protocol, rules, setup, Answer, Params};
    fn prop(seed: i64, picks: i64, when: u64, mode: u8) -> bool {
        let mut rng = JavaRandom::new(picks);
        let params = Params::default();
        let (mut reference, _) = setup::new_game(seed, params);
        let mut fast = State::new_game(seed, params, None);
        let mut list = CompactMoves::default();
        let mut turn = 0u32;
        while !reference.game_over {
            let render = match mode % 3 {
                0 => true,
                1 => false,
                _ => when >> (turn % 64) & 1 == 1,
            };
            if render {
                if protocol::view_texts(&reference) != engine::view_texts(&fast) {
                    return false;
                }
                if turn & 2 == 0 {
                    fast.sync_views();
                }
            }
            let actions = [0, 1].map(|p| {
                fast.is_asked(p).then(|| {
                    fast.legal_moves(p, &mut list);
                    let moves = list.as_slice();
                    moves[rng.next_below(moves.len() as i32) as usize].action()
                })
            });
            let answers = actions.map(|a| a.map(Answer::Action));
            if rules::play_turn(&mut reference, &answers).is_err() {
                return false;
            }
            let played = match turn % 3 {
                0 => fast.play_turn(&answers, None),
                1 => {
                    let counts = [fast.group_counts(0), fast.group_counts(1)];
                    fast.play_turn_counted(&answers, counts, None)
                }
                _ => FastPhotosynthesis::step(&mut fast, &actions),
            };
            if played.is_err() {
                return false;
            }
            turn += 1;
        }
        protocol::view_texts(&reference) == engine::view_texts(&fast)
            && fast.generator() == reference.rng.state() as u64
            && fast.to_reference() == reference
            && fast.synced() == State::from(&reference)
    }
    quickcheck(prop as fn(i64, i64, u64, u8) -> bool);
}

/// A random (not necessarily reachable) fast state: random trees, dormancy, day, nutrients,
/// sun, score and flags, converted from the reference (so its hash is computed from scratch).
fn random_state(rng: &mut JavaRandom) -> State {
    use twinsim_reference::photosynthesis::{Params, State as RefState, Tree};
    let mut s = RefState::blank(0, Params::default());
    for _ in 0..rng.next_below(30) {
        let cell = rng.next_below(37) as usize;
        let info = rng.next_below(16) as usize;
        s.trees.insert(
            cell,
            Tree { size: (info % 4) as u8, owner: (info >> 2) & 1, dormant: info & 8 != 0 },
        );
    }
    s.day = rng.next_below(24) as u32;
    s.sun_direction = rng.next_below(6) as usize;
    s.nutrients = rng.next_below(21);
    for player in s.players.iter_mut() {
        player.sun = rng.next_below(60);
        player.score = rng.next_below(120);
        player.waiting = rng.next_boolean();
    }
    State::from(&s)
}

/// The Zobrist keys tell states apart: no two distinct random states among 200 000 share a
/// hash (a repeated or missing key makes many of them collide).
#[test]
fn distinct_random_states_have_distinct_hashes() {
    let mut by_hash: std::collections::HashMap<u64, State> = std::collections::HashMap::new();
    let mut rng = JavaRandom::new(2024);
    let mut collisions = 0;
    for _ in 0..200_000 {
        let state = random_state(&mut rng);
        match by_hash.get(&state.zobrist()) {
            Some(seen) if *seen != state => collisions += 1,
            Some(_) => {}
            None => {
                by_hash.insert(state.zobrist(), state);
            }
        }
    }
    assert!(by_hash.len() > 150_000, "the generator repeats itself: {}", by_hash.len());
    assert_eq!(collisions, 0);
}
