//! Fast against reference: tables entry by entry, whole games (quickcheck over fuzz-style
//! byte strings), hurdle ticks on arbitrary tracks, conversions, the typed step.

use super::check::{hurdle_diff, olymbits_diff, parse_check, reference_hurdle_solution};
use super::state::*;
use super::step::reset;
use super::tables::*;
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use twinsim_reference::game::Game;
use twinsim_reference::olymbits as r;

#[test]
fn draw_table_matches_the_reference_generator_entry_by_entry() {
    let t = hurdle_tables();
    for start in 0..5 {
        for count in 0..4 {
            for pattern in 0u32..64 {
                let mut k = 0;
                let map = r::hurdle_track(start, count, || {
                    let bit = pattern >> k & 1 == 1;
                    k += 1;
                    bit
                });
                let id = t.draw_to_track[((start * 4 + count) as usize) * 64 + pattern as usize];
                assert_eq!(t.masks[id as usize], mask_of(&map), "draw {start} {count} {pattern}");
            }
        }
    }
}

#[test]
fn track_list_and_weights_match_reference_hurdle_tracks() {
    let t = hurdle_tables();
    let tracks = r::hurdle_tracks();
    assert_eq!(tracks.len(), TRACK_COUNT);
    for (id, (text, weight)) in tracks.iter().enumerate() {
        assert_eq!(t.masks[id], mask_of(text.as_bytes()), "track {id}");
        assert_eq!(u32::from(t.weights[id]), *weight, "weight of track {id}");
        assert_eq!(t.index[&t.masks[id]], id as u8);
    }
}

#[test]
fn solved_table_matches_the_reference_search_entry_by_entry() {
    let t = hurdle_tables();
    for (id, mask) in t.masks.iter().enumerate() {
        let map: Vec<u8> = (0..30).map(|x| if mask >> x & 1 == 1 { b'#' } else { b'.' }).collect();
        for cell in 0..30u8 {
            for stun in 0..3u8 {
                assert_eq!(
                    hurdle_solution(t, id as u8, cell, stun),
                    reference_hurdle_solution(&map, cell, stun),
                    "track {id} cell {cell} stun {stun}"
                );
            }
        }
    }
}

/// Where the reference tick takes a lone runner from `pos` with action `a` on track `mask`, and
/// whether it stunned him.
fn reference_move(mask: u32, pos: i32, a: u8) -> (i32, bool) {
    let map: Vec<u8> = (0..30).map(|x| if mask >> x & 1 == 1 { b'#' } else { b'.' }).collect();
    let mut race = r::HurdleRace {
        map,
        positions: [pos, 0, 0],
        stun_timers: [0; 3],
        dead: [false; 3],
        finished: [-1; 3],
        rank: 0,
    };
    race.tick(&[Some(r::Action::ALL[a as usize]), None, None]);
    (race.positions[0], race.stun_timers[0] == 2)
}

#[test]
fn hurdle_move_matches_the_reference_tick() {
    let t = hurdle_tables();
    for mask in t.masks.iter().take(40) {
        for pos in 0..30 {
            for a in 0..4u8 {
                let (p, hit) = hurdle_move(*mask, pos as u32, a);
                assert_eq!((p as i32, hit), reference_move(*mask, pos, a));
            }
        }
    }
}

#[test]
fn hurdle_step_matches_the_reference_tick_on_every_local_pattern() {
    // A move depends only on the cells it may visit (at most 3 after the start): every start
    // cell, action and pattern of those cells, with the rest of the track alternating.
    for pos in 0..30i32 {
        for a in 0..4u8 {
            for local in 0..8u32 {
                let mask =
                    ((0x1555_5555u32 & !(7 << (pos + 1))) | local << (pos + 1)) & ((1 << 30) - 1);
                let got = super::step::hurdle_step(mask, pos, a);
                assert_eq!(
                    got,
                    reference_move(mask, pos, a),
                    "pos {pos} action {a} mask {mask:#x}"
                );
                assert_eq!(got, super::step::walk_hurdles(mask, pos, a));
            }
        }
    }
}

#[test]
fn wind_thresholds_are_the_reference_bits() {
    let c = wind_thresholds();
    for (v, bits) in r::setup::WIND_CUMULATIVE_BITS.iter().enumerate() {
        assert_eq!(c[v].to_bits(), *bits);
    }
}

#[test]
fn resets_match_the_reference_resets() {
    for seed in 1..200i64 {
        let reference = r::new_game(seed, &r::Params::default()).unwrap();
        let fast = State::new(seed, &r::Params::default()).unwrap();
        assert_eq!(fast.to_reference(), reference, "seed {seed}");
        // A second round of resets from the same generator.
        let mut rr = reference.clone();
        let mut ff = fast.clone();
        for g in 0..4 {
            r::setup::reset_run(&mut rr.games[g].run, &mut rr.rng);
            reset(&mut ff.games[g], &mut ff.rng);
        }
        assert_eq!(ff.to_reference(), rr, "seed {seed}, second resets");
    }
    for league in [r::League::Wood1, r::League::Wood2] {
        let p = r::Params { league };
        for seed in [-3i64, 5, 99] {
            assert_eq!(
                State::new(seed, &p).unwrap().to_reference(),
                r::new_game(seed, &p).unwrap()
            );
        }
    }
    assert_eq!(State::new(0, &r::Params::default()), Err(r::SetupError::SeedZero));
}

/// Fuzz-style bytes long enough to play whole games.
#[derive(Clone, Debug)]
struct GameBytes(Vec<u8>);

impl Arbitrary for GameBytes {
    fn arbitrary(g: &mut Gen) -> Self {
        let n = 9 + usize::from(u16::arbitrary(g) % 320);
        GameBytes((0..n).map(|_| u8::arbitrary(g)).collect())
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(GameBytes))
    }
}

#[test]
fn prop_whole_games_fast_equals_reference() {
    fn prop(b: GameBytes) -> TestResult {
        match olymbits_diff(&b.0) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(e),
        }
    }
    QuickCheck::new().tests(300).quickcheck(prop as fn(GameBytes) -> TestResult);
}

/// Whole games on each SHA-1 compression this CPU has, forced in turn (the SHA-extension half
/// runs where the CPU has them, e.g. under `.ci/sha-ni`'s emulator; the run says when it did
/// not): the reference's games, the same fixed set on both.
#[test]
fn whole_games_match_the_reference_on_each_compression() {
    let test = "whole_games_match_the_reference_on_each_compression";
    for compression in super::prng::testable_compressions(test) {
        let _only_this_test_sets_it = super::prng::with_compression(compression);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for game in 0..24 {
            let bytes: Vec<u8> = (0..400)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x >> 32) as u8
                })
                .collect();
            if let Err(e) = olymbits_diff(&bytes) {
                panic!("{compression:?}, game {game}: {e}");
            }
        }
        assert_eq!(super::compression(), compression);
    }
}

#[test]
fn prop_hurdle_ticks_fast_equals_reference() {
    fn prop(bytes: Vec<u8>) -> TestResult {
        match hurdle_diff(&bytes) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(e),
        }
    }
    QuickCheck::new().tests(1000).quickcheck(prop as fn(Vec<u8>) -> TestResult);
}

#[test]
fn prop_parsers_hold_on_any_text() {
    fn prop(bytes: Vec<u8>, text: String) -> TestResult {
        for data in [bytes.as_slice(), text.as_bytes()] {
            if let Err(e) = parse_check(data) {
                return TestResult::error(e);
            }
        }
        TestResult::passed()
    }
    QuickCheck::new().tests(1000).quickcheck(prop as fn(Vec<u8>, String) -> TestResult);
}

#[test]
fn prop_typed_step_fast_equals_reference() {
    fn prop(seed: i64, moves: Vec<u8>) -> TestResult {
        let seed = if seed == 0 { 1 } else { seed };
        let mut reference = r::new_game(seed, &r::Params::default()).unwrap();
        let mut fast = State::new(seed, &r::Params::default()).unwrap();
        for chunk in moves.chunks(3).cycle().take(120) {
            let actions: [Option<r::Action>; 3] = std::array::from_fn(|i| {
                let b = chunk.get(i).copied().unwrap_or(1);
                if !reference.active[i] || b == 0 {
                    None
                } else {
                    Some(r::Action::ALL[(b % 4) as usize])
                }
            });
            let a = r::Olymbits::step(&mut reference, &actions);
            let b = fast.step(&actions);
            if a != b {
                return TestResult::error(format!("{a:?} vs {b:?}"));
            }
            reference.events.clear();
            if fast.to_reference() != reference {
                return TestResult::error(super::check::state_diff(
                    &reference,
                    &fast.to_reference(),
                ));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new().tests(150).quickcheck(prop as fn(i64, Vec<u8>) -> TestResult);
}

/// Search mode: whole games on `State<SearchDice>` through the typed API (the same rule code
/// as the exact state, other draws): they end by the rules (turn 100 or fewer than two active
/// players), every ended run hands out exactly one medal per player, the state stays in the
/// rule ranges, and the same seed replays the same game.
#[test]
fn search_dice_games_follow_the_rules() {
    use super::{SearchDice, SearchOlymbits};
    let mut pick = SearchDice::new(77);
    for seed in 0..200i64 {
        let play = |pick: &mut SearchDice| {
            let mut s = SearchOlymbits::new_game(seed, &r::Params::default());
            let mut ended_runs = [0u32; 4];
            while !s.is_over() {
                let actions: [Option<r::Action>; 3] = std::array::from_fn(|i| {
                    s.is_active(i).then(|| r::Action::ALL[super::Dice::below(pick, 4) as usize])
                });
                SearchOlymbits::step(&mut s, &actions).expect("legal");
                for (g, ended) in ended_runs.iter_mut().enumerate() {
                    *ended += u32::from(s.log.ended >> g & 1);
                }
                for slot in &s.games[..s.nb_games as usize] {
                    assert!(slot.len as usize <= SEQ && slot.head <= slot.len);
                    if slot.kind == SKATING {
                        let mut d = slot.directions;
                        d.sort();
                        assert_eq!(d, [UP, DOWN, LEFT, RIGHT]);
                    }
                    if slot.kind == ARCHERY {
                        assert!(slot.a.iter().all(|x| (-20..=20).contains(x)));
                    }
                }
            }
            for i in 0..3 {
                for (g, ended) in ended_runs.iter().enumerate().take(s.nb_games as usize) {
                    let medals: u32 = s.medals[i][g].iter().map(|&m| u32::from(m)).sum();
                    assert_eq!(medals, *ended, "seed {seed} player {i} game {g}");
                }
            }
            assert!(s.turn == 100 || s.active.count_ones() < 2);
            s
        };
        let (mut p1, mut p2) = (pick, pick);
        assert_eq!(play(&mut p1), play(&mut p2), "seed {seed}: not reproducible");
        pick = p1;
        let _ = super::Dice::boolean(&mut pick);
    }
}

/// A hurdle on the finish cell (hand-made tracks only): a runner stopped there, not finished,
/// walks into it again (every step is capped to cell 29) unless it jumps.
#[test]
fn hurdle_step_matches_the_walk_with_a_hurdle_on_the_finish_cell() {
    for mask in [1u32 << 29, 0x1555_5555 | 1 << 29, (1 << 30) - 1] {
        for pos in 0..30i32 {
            for a in 0..4u8 {
                let got = super::step::hurdle_step(mask, pos, a);
                assert_eq!(got, reference_move(mask, pos, a), "pos {pos} action {a} {mask:#x}");
                assert_eq!(got, super::step::walk_hurdles(mask, pos, a));
            }
        }
    }
}
