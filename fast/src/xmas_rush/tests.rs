//! Fast vs reference: tables entry by entry, and quickcheck properties over whole random games
//! and states deep into them.

use super::bench::sample_states;
use super::board::*;
use super::check::*;
use super::*;
use quickcheck::{Gen, QuickCheck, TestResult};
use twinsim_reference::xmas_rush as r;

#[test]
fn nibble_table_matches_the_reference_patterns_entry_by_entry() {
    for n in 0..16u8 {
        let p = pattern(n);
        assert_eq!(nibble(p), n);
        for d in r::Direction::ALL {
            assert_eq!(p.has(d), n & (1 << d.index()) != 0);
        }
        let text: String = (0..4).map(|i| if n >> i & 1 == 1 { '1' } else { '0' }).collect();
        assert_eq!(r::Pattern::parse(&text), Some(p));
    }
}

#[test]
fn item_ids_cover_every_item_once() {
    let mut seen = [false; ITEM_IDS];
    for name in r::ItemName::ALL {
        for owner in 0..2 {
            let item = r::Item { name, owner };
            let id = item_id(item);
            assert!(!seen[id as usize]);
            seen[id as usize] = true;
            assert_eq!(item_of(id), item);
        }
    }
}

#[test]
fn the_fast_engine_replays_games_like_the_reference_on_fixed_inputs() {
    // A few fixed byte strings: leagues 0..7, junk and timeouts, long games.
    for k in 0..16u8 {
        let mut data: Vec<u8> = vec![k, 1, 2, 3, k, 5, 6, k];
        data.extend((0..400u32).map(|i| ((i * 37 + u32::from(k) * 11) % 251) as u8));
        game_diff(&data);
    }
    game_diff(&[6, 0, 0, 0, 0, 0, 0, 1, 10, 255]);
    game_diff(&[6, 0, 0, 0, 0, 0, 0, 1, 254, 254]);
}

#[test]
fn prop_whole_games_fast_equals_reference() {
    fn property(data: Vec<u8>) -> bool {
        game_diff(&data);
        true
    }
    let mut qc = QuickCheck::new().rng(Gen::new(400)).tests(200);
    qc.quickcheck(property as fn(Vec<u8>) -> bool);
}

#[test]
fn prop_push_and_reachable_match_the_reference_on_deep_states() {
    // States sampled along random games; every push from each and the reachable sets.
    let states = sample_states(300);
    for rs in &states {
        let fs = State::from(rs);
        assert_eq!(fs.to_reference(), *rs);
        for p in 0..2 {
            for line in 0..7 {
                for d in r::Direction::ALL {
                    let mut a = rs.clone();
                    r::rules::apply_push(&mut a, p, line, d);
                    let mut b = fs;
                    push::push(&mut b, p, line, d.index() as u8);
                    assert_eq!(b.to_reference(), a, "{}", state_diff(&a, &b.to_reference()));
                }
            }
        }
        for x in 0..7 {
            for y in 0..7 {
                let want: u64 =
                    r::rules::reachable(rs, x, y).iter().map(|(a, b)| 1u64 << (b * 7 + a)).sum();
                assert_eq!(bfs::reachable(&fs, x, y), want);
            }
        }
    }
}

/// `flood_step` taken `k` times from a cell gives exactly the cells the reference's shortest
/// paths reach in at most `k` steps (the Python lanes' MOVE mask is `k` = 20).
#[test]
fn flood_layers_are_the_cells_within_k_steps_of_the_reference() {
    for rs in &sample_states(120) {
        let fs = State::from(rs);
        let edges = bfs::edges(&fs);
        for (x, y) in [(0, 0), (3, 3), (6, 2), (1, 5)] {
            let paths = r::rules::shortest_paths(rs, x, y);
            let mut layer = 1u64 << (y * 7 + x);
            for k in 0..=24 {
                let want: u64 = paths
                    .iter()
                    .filter(|(_, path)| path.len() <= k)
                    .map(|((a, b), _)| 1u64 << (b * 7 + a))
                    .fold(1u64 << (y * 7 + x), |set, bit| set | bit);
                assert_eq!(layer, want, "from ({x}, {y}), {k} steps");
                layer = bfs::flood_step(edges, layer);
            }
        }
    }
}

#[test]
fn prop_turns_match_on_random_answers_including_odd_ones() {
    fn property(seed: i64, turns: u8, lines: Vec<(u8, u8)>) -> TestResult {
        let mut rs = r::new_game(seed, r::League::default());
        let mut chooser = twinsim_reference::java_random::JavaRandom::new(seed);
        for _ in 0..turns {
            if rs.game_over {
                break;
            }
            let pick =
                |s: &r::State, p: usize, c: &mut twinsim_reference::java_random::JavaRandom| {
                    let l = r::legal_actions(s, p);
                    l[c.next_below(l.len() as i32) as usize].to_string()
                };
            let (a, b) = (pick(&rs, 0, &mut chooser), pick(&rs, 1, &mut chooser));
            let _ = r::rules::play_turn(
                &mut rs,
                &[r::Answer::from_line(Some(&a)), r::Answer::from_line(Some(&b))],
            );
        }
        const ODD: [&str; 10] = [
            "PUSH 3 UP",
            "PUSH 3 DOWN",
            "PUSH 3 LEFT",
            "PUSH 3 RIGHT",
            "MOVE UP RIGHT DOWN LEFT",
            "PASS",
            "",
            "PUSH   UP",
            "MOVE LEFT LEFT LEFT LEFT",
            "MOVE DOWN DOWN",
        ];
        let mut fs = State::from(&rs);
        for (a, b) in lines {
            if rs.game_over {
                break;
            }
            let ra = [
                r::Answer::from_line(Some(ODD[a as usize % 10])),
                if b == 0 {
                    r::Answer::Timeout
                } else {
                    r::Answer::from_line(Some(ODD[b as usize % 10]))
                },
            ];
            let re = r::rules::play_turn(&mut rs, &ra).unwrap_or_default();
            let mut fe = Vec::new();
            let _ = rules::play_turn(
                &mut fs,
                &[Answer::from_reference(&ra[0]), Answer::from_reference(&ra[1])],
                &mut fe,
            );
            if re != fe || fs.to_reference() != rs {
                return TestResult::error(state_diff(&rs, &fs.to_reference()));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new().tests(150).quickcheck(property as fn(i64, u8, Vec<(u8, u8)>) -> TestResult);
}

#[test]
fn searches_match_their_reference_twins_on_deep_states() {
    for rs in sample_states(400) {
        let fs = State::from(&rs);
        for p in 0..2 {
            assert_eq!(search::greedy_walk(&fs, p), r::search::greedy_walk(&rs, p));
            assert_eq!(search::most_items(&fs, p), r::search::most_items(&rs, p));
        }
    }
}

#[test]
fn player_push_table_matches_the_reference_push_entry_by_entry() {
    let empty = r::new_game(1, r::League::default());
    for p in 0..2 {
        for line in 0..7 {
            for d in r::Direction::ALL {
                for cell in 0..49u8 {
                    let mut s = empty.clone();
                    s.players[1 - p].x = (cell % 7) as usize;
                    s.players[1 - p].y = (cell / 7) as usize;
                    r::rules::apply_push(&mut s, p, line, d);
                    let [x, y] = push::PLAYER_MOVE[line][d.index()][cell as usize];
                    let pl = &s.players[1 - p];
                    assert_eq!((x as usize, y as usize), (pl.x, pl.y));
                }
            }
        }
    }
}

#[test]
fn quest_sets_and_hand_quest_bits_stay_in_step_through_pushes() {
    let mut hand_bits_seen = 0;
    for rs in sample_states(200) {
        let mut fs = State::from(&rs);
        let mut rs = rs;
        for k in 0..56 {
            push::push(&mut fs, k % 2, k % 7, (k % 4) as u8);
            r::rules::apply_push(&mut rs, k % 2, k % 7, r::Direction::ALL[k % 4]);
            assert_eq!(fs, State::from(&rs), "push {k}");
            assert_eq!((fs.quest_sets, fs.hand_quests), quest_sets_of(&fs));
            hand_bits_seen += fs.hand_quests.iter().filter(|&&b| b != 0).count();
        }
    }
    // The hand quest bits were exercised, not only zero.
    assert!(hand_bits_seen > 100, "{hand_bits_seen}");
}

#[test]
fn prop_fuzz_checks_hold_on_random_bytes() {
    fn property(data: Vec<u8>) -> bool {
        push_diff(&data);
        bfs_diff(&data);
        parse_diff(&data);
        true
    }
    QuickCheck::new().rng(Gen::new(300)).tests(200).quickcheck(property as fn(Vec<u8>) -> bool);
}

#[test]
fn move_cache_matches_the_plain_loop() {
    let states: Vec<r::State> = sample_states(120)
        .into_iter()
        .filter(|s| s.turn_type == r::TurnType::Push)
        .step_by(6)
        .collect();
    assert!(states.len() >= 8);
    let mut out = [[search::PushPair::default(); 28]; 28];
    for rs in &states {
        let fs = State::from(rs);
        for p in 0..2 {
            let want = r::search::move_cache(rs, p);
            search::move_cache(&fs, p, &mut out);
            for a in 0..28 {
                for b in 0..28 {
                    let w = &want[a][b];
                    let set: u64 = w.reachable.iter().map(|(x, y)| 1u64 << (y * 7 + x)).sum();
                    let got = out[a][b];
                    assert_eq!(
                        (got.reach, i64::from(got.collected), usize::from(got.most_items)),
                        (set, w.collected, w.most_items),
                        "pair {a} {b} for player {p}"
                    );
                }
            }
        }
    }
}

#[test]
fn malformed_packed_actions_are_invalid_lines_like_in_the_reference() {
    let rs = r::new_game(11, r::League::default());
    let twenty_ups = format!("MOVE{}", " UP".repeat(20));
    for (bad, reason) in [
        (PackedAction::Push { line: 9, dir: 0 }, "PUSH 9 UP".to_string()),
        (PackedAction::Push { line: 1, dir: 7 }, "PUSH 1 ?".to_string()),
        (PackedAction::Move { steps: [0; 20], len: 0 }, "MOVE".to_string()),
        // A length the array cannot hold: read as its first 20 steps, printed as the reason.
        (PackedAction::Move { steps: [0; 20], len: 30 }, twenty_ups),
    ] {
        let mut fs = State::from(&rs);
        let mut events = Vec::new();
        let ok = Answer::Action(PackedAction::Push { line: 2, dir: 3 });
        rules::play_turn(&mut fs, &[Answer::Action(bad), ok], &mut events).expect("a turn");
        assert!(fs.game_over);
        assert_eq!(events[0].to_string(), format!("$0: invalid input - {reason}"));
    }
}
