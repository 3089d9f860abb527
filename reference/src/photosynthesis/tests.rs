//! Unit tests: one per rule, and one named after each item of the rules doc's §12 pitfalls.

use super::board::{self, NUM_CELLS};
use super::protocol::{self, parse_line, parse_turn, render_view};
use super::rules::{self, Answer};
use super::setup;
use super::state::{Action, Params, State, Tree};
use super::Photosynthesis;
use crate::game::{Game, StepError};
use crate::java_random::JavaRandom;

/// A top-league position at day `day` with the given trees `(cell, size, owner, dormant)` and
/// sun, shadows computed for the day's sun direction, no holes.
fn position(day: u32, trees: &[(usize, u8, usize, bool)], sun: [i32; 2]) -> State {
    let mut s = State::blank(7, Params::default());
    s.day = day;
    s.sun_direction = (day % 6) as usize;
    for &(cell, size, owner, dormant) in trees {
        s.trees.insert(cell, Tree { size, owner, dormant });
    }
    s.players[0].sun = sun[0];
    s.players[1].sun = sun[1];
    s.executions = 2;
    rules::compute_shadows(&mut s);
    s
}

fn act(a: Action) -> Option<Answer> {
    Some(Answer::Action(a))
}

fn line(l: &str) -> Option<Answer> {
    Some(protocol::read_answer(Some(l), &Params::default()))
}

// ---------------------------------------------------------------------------------------------
// §1 geometry, §4 setup
// ---------------------------------------------------------------------------------------------

#[test]
fn setup_is_symmetric_for_every_league() {
    for league in 1..=4u8 {
        for seed in -50i64..50 {
            let s = Photosynthesis::new_game(seed * 7919, &Params { league_level: league });
            for i in 0..board::NUM_CELLS {
                assert_eq!(s.richness[i], s.richness[board::mirror(i)], "seed {seed}");
            }
            let count = s.params.starting_tree_count();
            assert_eq!(s.trees.len(), 2 * count);
            for (&cell, t) in &s.trees {
                let m = s.trees.get(&board::mirror(cell)).expect("mirror tree");
                assert_ne!(m.owner, t.owner);
                assert_eq!(t.size, s.params.starting_tree_size());
                assert!(s.richness[cell] != 0);
            }
            let holes = s.richness.iter().filter(|&&r| r == 0).count();
            assert!(holes <= 10);
            if league < 3 {
                assert_eq!(holes, 0);
            }
        }
    }
}

/// Seed 1 (first game of the traces): holes 1, 4, 24, 33; trees 21, 26 (player 0) and their
/// mirrors 30, 35 (player 1).
#[test]
fn setup_of_seed_1_matches_the_referee() {
    let s = Photosynthesis::new_game(1, &Params::default());
    let holes: Vec<usize> = (0..37).filter(|&i| s.richness[i] == 0).collect();
    assert_eq!(holes, vec![1, 4, 24, 33]);
    let trees: Vec<(usize, usize)> = s.trees.iter().map(|(&c, t)| (c, t.owner)).collect();
    assert_eq!(trees, vec![(21, 0), (26, 0), (30, 1), (35, 1)]);
    assert_eq!(s.rng.state(), 58466533952123);
    assert_eq!(s.players[0].sun, 2);
}

#[test]
fn wood_leagues_make_no_hole_draw() {
    // League 2: the first draw of the generator picks a starting tree among cells 1..36.
    let s = Photosynthesis::new_game(99, &Params { league_level: 2 });
    let mut rng = JavaRandom::new(99);
    let first = 1 + rng.next_below(36) as usize;
    assert!(s.trees.contains_key(&first));
    assert_eq!(s.trees[&first].owner, 0);
}

// ---------------------------------------------------------------------------------------------
// §5 days and the sun
// ---------------------------------------------------------------------------------------------

#[test]
fn shadows_reach_size_cells_in_the_sun_direction() {
    // Day 0, sun direction 0: a size-2 tree on 0 shadows 1 and 7 with size 2.
    let s = position(0, &[(0, 2, 0, false)], [0, 0]);
    assert_eq!(s.shadows[1], 2);
    assert_eq!(s.shadows[7], 2);
    assert_eq!(s.shadows[19], 0);
    assert_eq!(s.shadows.iter().filter(|&&x| x > 0).count(), 2);
}

#[test]
fn own_trees_shadow_each_other_and_equal_size_spooks() {
    let s = position(0, &[(0, 2, 0, false), (1, 2, 0, false), (7, 3, 0, false)], [0, 0]);
    // 1 is shadowed by 0 (size 2 >= 2): 0; 7 by 0 and 1 (2 < 3: not spooked): 3; 0: 2.
    assert_eq!(rules::sun_income(&s), [5, 0]);
}

#[test]
fn gathering_wakes_players_and_trees() {
    let mut s = position(3, &[(0, 1, 0, true), (20, 3, 1, true)], [0, 0]);
    s.players[0].waiting = true;
    let mut events = vec![];
    rules::gathering(&mut s, &mut events);
    assert!(!s.players[0].waiting);
    assert!(s.trees.values().all(|t| !t.dormant));
    assert_eq!(
        events,
        vec!["Round 3/23", "$0 has collected 1 sun points", "$1 has collected 3 sun points"]
    );
}

// ---------------------------------------------------------------------------------------------
// §6.2 parsing
// ---------------------------------------------------------------------------------------------

#[test]
fn valid_lines_from_the_rules_doc_parse() {
    let top = Params::default();
    for l in [
        "WAIT",
        "WAIT ",
        "WAIT\tzz",
        "WAIT\r",
        "GROW 5\r",
        "WAIT\u{0B}vt",
        "COMPLETE 3\u{0C}",
        "GROW 5 msg\u{A0}nbsp",
        "GROW 05",
        "SEED 1 2 3",
    ] {
        assert!(parse_line(l, &top).is_ok(), "{l:?}");
    }
    assert_eq!(parse_line("GROW 05", &top).unwrap().action, Action::Grow(5));
    let seed = parse_line("SEED 1 2 3", &top).unwrap();
    assert_eq!(seed.action, Action::Seed(1, 2));
    assert_eq!(seed.message.as_deref(), Some("3"));
}

#[test]
fn invalid_lines_from_the_rules_doc_are_rejected() {
    let top = Params::default();
    for l in [
        "",
        "wait",
        "Grow 5",
        " WAIT",
        "\tWAIT",
        "WAITING",
        "WAIT\u{A0}",
        "WAIT\u{85}",
        "WAIT\u{3000}go",
        "WAIT hi\r",
        "WAIT \u{2028}",
        "COMPLETE 3 ok\u{2029}",
        "GROW 5 x\u{85}",
        "GROW  5",
        "GROW\t5",
        "COMPLETE\u{0B}3",
        "GROW -1",
        "GROW +5",
        "GROW 0x1F",
        "GROW",
        "SEED 1",
        "SEED 1  2",
        "SEED 1,2",
        "COMPLETE 5x",
        "PASS",
        "&lt;WAIT&gt;",
    ] {
        let e = parse_line(l, &top).expect_err(l);
        assert_eq!(e.got, l);
    }
}

#[test]
fn number_overflow_is_a_number_format_exception() {
    let top = Params::default();
    let e = parse_line("GROW 2147483648", &top).unwrap_err();
    assert_eq!(e.got, "java.lang.NumberFormatException: For input string: \"2147483648\"");
    assert_eq!(e.error.column, 6);
    assert_eq!(parse_line("GROW 2147483647", &top).unwrap().action, Action::Grow(i32::MAX));
    // The source is converted first.
    let e = parse_line("SEED 99999999999 88888888888", &top).unwrap_err();
    assert!(e.got.ends_with("\"99999999999\""));
}

#[test]
fn disabled_commands_match_nothing_in_wood_leagues() {
    let l1 = Params { league_level: 1 };
    let l2 = Params { league_level: 2 };
    assert!(parse_line("GROW 5", &l1).is_err());
    assert!(parse_line("COMPLETE 5", &l1).is_ok());
    assert!(parse_line("SEED 1 2", &l2).is_err());
    assert_eq!(parse_line("SEED 1 2147483648", &l2).unwrap_err().got, "SEED 1 2147483648");
}

#[test]
fn parse_errors_say_where() {
    let e = parse_line("GROW x", &Params::default()).unwrap_err();
    assert_eq!(e.error.column, 6);
    assert_eq!(e.error.found, "x");
}

#[test]
fn long_messages_are_cut() {
    let long = format!("WAIT {}", "m".repeat(60));
    let c = parse_line(&long, &Params::default()).unwrap();
    assert_eq!(c.message.unwrap(), format!("{}...", "m".repeat(46)));
}

// ---------------------------------------------------------------------------------------------
// §6.3 validation
// ---------------------------------------------------------------------------------------------

#[test]
fn validation_messages_in_check_order() {
    let s = position(
        0,
        &[(0, 3, 0, false), (1, 0, 0, false), (2, 1, 1, false), (3, 2, 0, true), (19, 1, 0, false)],
        [100, 100],
    );
    let v = |a| rules::validate(&s, 0, a, 100).map(|_| ()).unwrap_err();
    assert_eq!(v(Action::Grow(37)), "Cell 37 not found");
    assert_eq!(v(Action::Grow(5)), "There is no tree on cell 5");
    assert_eq!(v(Action::Grow(2)), "The tree on cell 2 is owned by opponent");
    assert_eq!(v(Action::Grow(3)), "Tree on cell 3 is dormant (has already been used this round)");
    assert_eq!(v(Action::Grow(0)), "Tree on cell 0 cannot grow more (max size is 3).");
    assert_eq!(v(Action::Complete(1)), "The tree on cell 1 is not large enough");
    assert_eq!(v(Action::Seed(0, 1)), "There is already a tree on cell 1");
    assert_eq!(v(Action::Seed(1, 5)), "The seed on 1 cannot produce seeds");
    assert_eq!(v(Action::Seed(2, 5)), "The tree on cell 2 is owned by opponent");
    assert_eq!(
        v(Action::Seed(19, 5)),
        "The tree on cell 19 is too far from cell 5 to plant a seed there"
    );
    assert_eq!(v(Action::Seed(40, 41)), "Cell 41 not found");
    let mut holed = s.clone();
    holed.richness[20] = 0;
    assert_eq!(
        rules::validate(&holed, 0, Action::Seed(19, 20), 100).unwrap_err(),
        "You can't plant a seed on cell 20"
    );
    assert_eq!(
        rules::validate(&s, 0, Action::Complete(0), 3).unwrap_err(),
        "Not enough sun. You need 4 but have 3"
    );
}

// ---------------------------------------------------------------------------------------------
// §12 pitfalls, one test each
// ---------------------------------------------------------------------------------------------

/// §12.1: each asked player's lists are shuffled with the game RNG (completes, grows, seeds,
/// player 0 then player 1) from the exact pre-shuffle order.
#[test]
fn pitfall_1_game_rng_shuffles_the_possible_actions_every_frame() {
    let s = position(0, &[(0, 1, 0, false), (20, 3, 1, false), (21, 1, 1, false)], [10, 10]);
    let groups = rules::possible_action_groups(&s, 0);
    // Seed targets of a size-1 tree on the centre, in the x/y loop order.
    let targets: Vec<Action> = [5, 4, 6, 3, 1, 2].iter().map(|&t| Action::Seed(0, t)).collect();
    assert_eq!(groups[2], targets);
    assert_eq!(groups[1], vec![Action::Grow(0)]);
    // The frame draws exactly what the two lists' shuffles draw.
    let mut rng = s.rng.clone();
    let mut p0 = rules::possible_actions_with(&s, 0, &mut rng);
    let _p1 = rules::possible_actions_with(&s, 1, &mut rng);
    let mut after = s.clone();
    rules::play_turn(&mut after, &[act(Action::Wait), act(Action::Wait)]).unwrap();
    // WAIT/WAIT ends the day, which draws nothing more.
    assert_eq!(after.rng, rng);
    assert_ne!(after.rng, s.rng);
    // And the view prints that shuffled list.
    let view = protocol::views(&s)[0].clone().unwrap();
    assert_eq!(view.possible_actions, std::mem::take(&mut p0));
}

/// §12.2: holes index the HashMap-ordered list L; `wanted` in 0..10; the loop runs while
/// `actual < wanted − 1`; the centre can be a hole and counts once.
#[test]
fn pitfall_2_holes_index_the_hashmap_order_and_the_centre_can_be_a_hole() {
    let mut centre_seen = false;
    for seed in 0..3000i64 {
        let mut rng = JavaRandom::new(seed);
        let wanted = rng.next_below(11);
        let s = Photosynthesis::new_game(seed, &Params::default());
        let holes = s.richness.iter().filter(|&&r| r == 0).count() as i32;
        if wanted <= 1 {
            assert_eq!(holes, 0);
        } else {
            assert!(holes == wanted - 1 || holes == wanted, "seed {seed}");
            let first = board::HASHMAP_ORDER[rng.next_below(37) as usize];
            assert_eq!(s.richness[first], 0, "seed {seed}: first pick is L[k]");
        }
        if s.richness[0] == 0 {
            centre_seen = true;
            assert_eq!(holes % 2, 1);
        }
    }
    assert!(centre_seen);
}

/// §12.3: sun at the start of a day from the previous sun move's shadows; final state day 24
/// and direction 5 (0 in league 1); a disqualifying frame ends without the sun move.
#[test]
fn pitfall_3_harvest_uses_previous_shadows_and_the_last_day_does_not_turn_the_sun() {
    for (league, days, direction) in [(3u8, 24, 5), (2, 6, 5), (1, 1, 0)] {
        let mut s = Photosynthesis::new_game(5, &Params { league_level: league });
        while !s.game_over {
            Photosynthesis::step(&mut s, &[Some(Action::Wait), Some(Action::Wait)]).unwrap();
        }
        assert_eq!((s.day, s.sun_direction), (days, direction), "league {league}");
        assert!(s.players.iter().all(|p| p.waiting));
    }
    // Harvest: a tree grown today is shadowed tomorrow according to the board at the sun move.
    let mut s = position(0, &[(0, 1, 0, false), (4, 1, 1, false)], [5, 5]);
    rules::play_turn(&mut s, &[act(Action::Wait), act(Action::Grow(4))]).unwrap();
    rules::play_turn(&mut s, &[None, act(Action::Wait)]).unwrap();
    // Day 1, direction 1: the size-2 tree on 4 shadows 3 and 10; 0 is not shadowed.
    assert_eq!((s.day, s.sun_direction), (1, 1));
    assert_eq!(s.shadows[3], 2);
    assert_eq!(s.players[0].sun, 5 + 1);
    // Disqualification with both waiting: no sun move.
    let mut s = position(4, &[(0, 1, 0, false), (20, 1, 1, false)], [0, 0]);
    s.players[1].waiting = true;
    rules::play_turn(&mut s, &[line("oops"), None]).unwrap();
    assert!(s.game_over);
    assert_eq!((s.day, s.sun_direction), (4, 4));
    assert!(s.players[0].waiting && !s.players[0].active && s.players[0].score == -1);
}

/// §12.4: a seed conflict plants nothing and refunds all sun of the frame; sources dormant.
#[test]
fn pitfall_4_seed_conflict_refunds_all_sun_and_sources_stay_dormant() {
    let mut s = position(0, &[(1, 1, 0, false), (3, 1, 1, false), (7, 0, 0, false)], [5, 5]);
    let events =
        rules::play_turn(&mut s, &[act(Action::Seed(1, 2)), act(Action::Seed(3, 2))]).unwrap();
    assert!(!s.trees.contains_key(&2));
    assert_eq!([s.players[0].sun, s.players[1].sun], [5, 5]);
    assert!(s.trees[&1].dormant && s.trees[&3].dormant);
    assert!(events.contains(&"Seed conflict on cell 2".to_string()));
    // Without a conflict, seeds are planted dormant and sun is paid (player 0 owns one seed).
    let mut s = position(0, &[(1, 1, 0, false), (3, 1, 1, false), (7, 0, 0, false)], [5, 5]);
    rules::play_turn(&mut s, &[act(Action::Seed(1, 2)), act(Action::Seed(3, 4))]).unwrap();
    assert_eq!(s.trees[&2], Tree { size: 0, owner: 0, dormant: true });
    assert_eq!([s.players[0].sun, s.players[1].sun], [4, 5]);
}

/// §12.5: two COMPLETEs in one frame score the same nutrients; then nutrients drop by 2.
#[test]
fn pitfall_5_two_completes_in_a_frame_score_the_same_nutrients() {
    let mut s = position(0, &[(0, 3, 0, false), (19, 3, 1, false)], [4, 4]);
    s.nutrients = 1;
    let events =
        rules::play_turn(&mut s, &[act(Action::Complete(0)), act(Action::Complete(19))]).unwrap();
    assert_eq!([s.players[0].score, s.players[1].score], [1 + 4, 1]);
    assert_eq!(s.nutrients, 0);
    assert!(s.trees.is_empty());
    assert!(
        events.contains(&"$0 is ending their tree life on cell 0, scoring 5 points".to_string())
    );
    assert!(events.contains(&"TOOLTIP $1: $1 scores 1 points".to_string()));
}

/// §12.6: illegal but well-formed = silent WAIT for the day; malformed = disqualification, and
/// the other player's action still resolves.
#[test]
fn pitfall_6_illegal_is_a_silent_wait_and_malformed_disqualifies() {
    let mut s = position(0, &[(0, 1, 0, false), (20, 1, 1, false)], [10, 10]);
    let events = rules::play_turn(&mut s, &[line("GROW 20"), line("GROW 20")]).unwrap();
    assert!(s.players[0].waiting && s.players[0].active && s.players[0].score == 0);
    assert_eq!(events[1], "$0: The tree on cell 20 is owned by opponent");
    assert!(!s.game_over);
    let mut s = position(0, &[(0, 1, 0, false), (20, 1, 1, false)], [10, 10]);
    let events = rules::play_turn(&mut s, &[line("grow 0"), line("GROW 20")]).unwrap();
    assert!(s.game_over && !s.players[0].active && s.players[0].score == -1);
    assert_eq!(s.trees[&20].size, 2, "player 1's action still resolved");
    assert_eq!(events[2], "$0 was disqualified.");
    let outcome = rules::outcome(&s).unwrap();
    assert_eq!(outcome.reason, "player_deactivated");
}

/// §12.7: costs count own trees of the target size (dormant ones too); COMPLETE is a flat 4;
/// size 3 cannot grow; size < 3 cannot complete.
#[test]
fn pitfall_7_costs_count_own_trees_of_the_target_size() {
    let s = position(
        0,
        &[(0, 0, 0, false), (1, 1, 0, true), (2, 1, 0, false), (3, 2, 1, false), (4, 0, 0, true)],
        [100, 0],
    );
    assert_eq!(rules::grow_cost(&s, 0, 0), 1 + 2);
    assert_eq!(rules::grow_cost(&s, 0, 1), 3);
    assert_eq!(rules::grow_cost(&s, 0, 2), 7);
    assert_eq!(rules::seed_cost(&s, 0), 2);
    assert_eq!(rules::seed_cost(&s, 1), 0);
    let s = position(0, &[(0, 3, 0, false), (1, 2, 0, false)], [100, 0]);
    assert!(rules::validate(&s, 0, Action::Grow(0), 100).is_err());
    assert!(rules::validate(&s, 0, Action::Complete(1), 100).is_err());
    assert!(rules::validate(&s, 0, Action::Complete(0), 4).is_ok());
}

/// §12.8: seed range is hex distance ≤ source size; the target must be an empty non-hole cell;
/// seeds cannot seed.
#[test]
fn pitfall_8_seed_range_is_hex_distance_to_an_empty_usable_cell() {
    let mut s = position(0, &[(0, 2, 0, false), (1, 1, 1, false), (7, 0, 0, false)], [10, 0]);
    s.richness[8] = 0;
    let legal = Photosynthesis::legal_actions(&s, 0);
    let targets: Vec<i32> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Seed(0, t) => Some(*t),
            _ => None,
        })
        .collect();
    let mut want: Vec<i32> = (1..19).filter(|&c| ![1, 7, 8].contains(&c)).collect();
    let mut got = targets.clone();
    got.sort();
    want.sort();
    assert_eq!(got, want);
    assert!(!legal.iter().any(|a| matches!(a, Action::Seed(7, _))));
}

/// §12.9: a waiting player gets no input; its opponent plays alone and sees `oppIsWaiting`.
#[test]
fn pitfall_9_waiting_player_gets_no_input() {
    let mut s = position(0, &[(0, 1, 0, false), (20, 1, 1, false)], [10, 10]);
    rules::play_turn(&mut s, &[act(Action::Wait), act(Action::Grow(20))]).unwrap();
    let views = protocol::view_texts(&s);
    assert!(views[0].is_none());
    let v1 = parse_turn(views[1].as_deref().unwrap()).unwrap();
    assert!(v1.opp_is_waiting);
    assert_eq!(Photosynthesis::players_to_act(&s), vec![1]);
    // A None for the waiting player is not a timeout.
    rules::play_turn(&mut s, &[None, act(Action::Wait)]).unwrap();
    assert!(s.players[0].active);
}

/// §12.10: +1 per tree (seeds included) to every active player when all active scores tie,
/// including a single survivor; sun/3 first, integer division.
#[test]
fn pitfall_10_tie_break_counts_trees_and_the_single_survivor_gets_it() {
    let mut s = position(24, &[(0, 0, 0, false), (1, 3, 0, false), (20, 1, 1, false)], [5, 3]);
    s.game_over = true;
    s.players[0].score = 10;
    s.players[1].score = 10;
    // 10 + 5/3 = 11 vs 10 + 3/3 = 11: tie -> +2 and +1.
    assert_eq!(rules::final_scores(&s), [13, 12]);
    s.players[1].active = false;
    s.players[1].score = -1;
    assert_eq!(rules::final_scores(&s), [13, -1]);
    s.players[0].active = false;
    s.players[0].score = -1;
    assert_eq!(rules::final_scores(&s), [-1, -1]);
    assert_eq!(rules::end_reason(&s), "both_players_deactivated");
}

/// §12.11: both views of a frame show the same state.
#[test]
fn pitfall_11_both_views_of_a_frame_show_the_same_state() {
    let s = Photosynthesis::new_game(11, &Params::default());
    let views = protocol::views(&s);
    let (v0, v1) = (views[0].clone().unwrap(), views[1].clone().unwrap());
    assert_eq!(v0.my_sun, v1.opp_sun);
    assert_eq!(v0.trees.len(), v1.trees.len());
    for (a, b) in v0.trees.iter().zip(&v1.trees) {
        assert_eq!((a.cell, a.size, a.is_dormant), (b.cell, b.size, b.is_dormant));
        assert_ne!(a.is_mine, b.is_mine);
    }
}

// ---------------------------------------------------------------------------------------------
// §8 views, §9 scoring, the Game API
// ---------------------------------------------------------------------------------------------

#[test]
fn the_first_view_carries_the_init_block_and_round_trips() {
    let s = Photosynthesis::new_game(1, &Params::default());
    let text = protocol::view_texts(&s)[0].clone().unwrap();
    assert!(text.starts_with("37\n0 3 1 2 3 4 5 6\n1 0 7 8 2 0 6 18\n"));
    let view = parse_turn(&text).unwrap();
    assert_eq!(render_view(&view), text);
    assert!(parse_turn("3\n20\n1 2\n").is_err());
}

#[test]
fn game_step_refuses_illegal_and_finished() {
    let mut s = Photosynthesis::new_game(3, &Params::default());
    let err = Photosynthesis::step(&mut s, &[Some(Action::Grow(36)), Some(Action::Wait)]);
    assert!(matches!(err, Err(StepError::Illegal { player: 0, .. })));
    assert!(matches!(Photosynthesis::step(&mut s, &[None]), Err(StepError::WrongArity { .. })));
    s.game_over = true;
    assert_eq!(Photosynthesis::step(&mut s, &[None, None]), Err(StepError::GameOver));
}

#[test]
fn timeouts_disqualify_with_their_own_messages() {
    let mut s = position(0, &[(0, 1, 0, false), (20, 1, 1, false)], [0, 0]);
    let events = rules::play_turn(&mut s, &[Some(Answer::Timeout), act(Action::Wait)]).unwrap();
    assert_eq!(events[0], "¤RED¤$0 has not provided an action in time.§RED§");
    assert_eq!(events.last().unwrap(), "TOOLTIP $0: Timeout!");
    assert!(s.game_over);
}

#[test]
fn setup_events_are_the_day_zero_gathering() {
    let (_, events) = setup::new_game(1, Params::default());
    assert_eq!(
        events,
        vec!["Round 0/23", "$0 has collected 2 sun points", "$1 has collected 2 sun points"]
    );
}

// ---------------------------------------------------------------------------------------------
// §8 both ways: render a view from the true state, parse it, rebuild the state
// ---------------------------------------------------------------------------------------------

/// The round trip at one decision point: every asked player's view renders to a text that parses
/// back to the same view, and the state rebuilt from it (`protocol::state_from_view`) has the
/// true state's trees, players (a deactivated opponent aside), richness, day, sun and nutrients,
/// and, in the top league with both players active, the same legal actions for both players and,
/// once both WAIT, the same next state but for the generator (and, at the end, the morning's
/// shadows). Returns the
/// number of views checked.
fn check_views_round_trip(truth: &State, context: &str) -> usize {
    let cells = protocol::init_cells(truth);
    let mut checked = 0;
    for (seat, view) in protocol::views(truth).into_iter().enumerate() {
        let Some(view) = view else { continue };
        let text = render_view(&view);
        let parsed = parse_turn(&text).unwrap_or_else(|e| panic!("{context}: {e}\n{text}"));
        assert_eq!(parsed, view, "{context}: seat {seat}");
        if let Some(init) = &view.cells {
            let block = text.lines().take(NUM_CELLS + 1).collect::<Vec<_>>();
            assert_eq!(protocol::parse_init(&block.join("\n")).as_ref(), Ok(init), "{context}");
        }
        let rebuilt = protocol::state_from_view(&cells, &parsed, seat, 5);
        assert_eq!(rebuilt.trees, truth.trees, "{context}: seat {seat}");
        // A deactivated opponent (§11) is not shown: the rebuilt one is active.
        let mut players = truth.players;
        players[1 - seat].active = true;
        assert_eq!(rebuilt.players, players, "{context}: seat {seat}");
        assert_eq!(rebuilt.richness, truth.richness, "{context}");
        assert_eq!(
            (rebuilt.day, rebuilt.sun_direction, rebuilt.nutrients),
            (truth.day, truth.sun_direction, truth.nutrients),
            "{context}"
        );
        if truth.params == Params::default() && truth.players.iter().all(|p| p.active) {
            for p in 0..2 {
                assert_eq!(
                    Photosynthesis::legal_actions(&rebuilt, p),
                    Photosynthesis::legal_actions(truth, p),
                    "{context}: seat {seat}, player {p}"
                );
            }
            let waits: Vec<Option<Action>> =
                (0..2).map(|p| truth.is_asked(p).then_some(Action::Wait)).collect();
            let (mut a, mut b) = (rebuilt.clone(), truth.clone());
            Photosynthesis::step(&mut a, &waits).expect("WAIT is always legal");
            Photosynthesis::step(&mut b, &waits).expect("WAIT is always legal");
            a.rng = b.rng.clone();
            a.executions = b.executions;
            if b.game_over {
                // §12.3: the last day does not turn the sun, so the final state keeps the
                // morning's shadow map, which the view does not show.
                a.shadows = b.shadows;
            }
            assert_eq!(a, b, "{context}: seat {seat}, after both WAIT");
        }
        checked += 1;
    }
    checked
}

#[test]
fn views_round_trip_and_rebuild_the_state_in_random_games() {
    let mut checked = 0;
    for seed in 1..=12 {
        let mut s = Photosynthesis::new_game(seed, &Params::default());
        let mut chooser = JavaRandom::new(seed * 31);
        while !s.game_over {
            checked += check_views_round_trip(&s, &format!("seed {seed}, day {}", s.day));
            let joint: Vec<Option<Action>> = (0..2)
                .map(|p| {
                    let legal = Photosynthesis::legal_actions(&s, p);
                    (!legal.is_empty()).then(|| {
                        legal[chooser.next_int_bounded(legal.len() as i32).unwrap_or(0) as usize]
                    })
                })
                .collect();
            Photosynthesis::step(&mut s, &joint).expect("legal actions");
        }
    }
    assert!(checked > 1000, "only {checked} views checked");
}

#[test]
fn referee_views_of_the_traces_parse_and_the_engine_views_round_trip() {
    let games = crate::trace::shipped_traces("photosynthesis.jsonl");
    let mut checked = 0;
    for game in &games {
        let seed = game.seed.expect("seeded");
        let params = super::trace::params_from_json(&game.params).expect("params");
        let mut play = super::trace::Play::new(seed, params);
        crate::trace::walk_trace(game, &mut play, |play, moment, texts| {
            let context = format!("seed {seed}, turn {moment}");
            for text in texts {
                let view = parse_turn(text).unwrap_or_else(|e| panic!("{context}: {e}"));
                assert_eq!(render_view(&view), text, "{context}");
            }
            checked += check_views_round_trip(&play.state, &context);
        });
    }
    assert!(games.len() > 40 && checked > 1000, "{} games, {checked} views", games.len());
}

#[test]
fn the_init_block_parses_alone_and_says_where_it_fails() {
    let s = Photosynthesis::new_game(1, &Params::default());
    let text = protocol::view_texts(&s)[0].clone().unwrap();
    let block: Vec<&str> = text.lines().take(NUM_CELLS + 1).collect();
    assert_eq!(protocol::parse_init(&block.join("\n")), Ok(protocol::init_cells(&s)));
    let e = protocol::parse_init("36").unwrap_err();
    assert_eq!((e.line, e.found.as_str()), (1, "36"));
    let e = protocol::parse_init(&block[..10].join("\n")).unwrap_err();
    assert_eq!(e.line, 11);
    let e = protocol::parse_init(&text).unwrap_err();
    assert_eq!((e.line, e.expected.as_str()), (NUM_CELLS + 2, "end of input"));
}
