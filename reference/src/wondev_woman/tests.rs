//! Unit tests, one per rule (named after the rules doc's sections and pitfalls), and quickcheck
//! properties over random playouts.

use super::protocol::{self, Command, Word};
use super::referee;
use super::rules;
use super::setup;
use super::state::*;
use super::WondevWoman;
use crate::game::{Game, StepError};
use quickcheck::{QuickCheck, TestResult};

// ---------------------------------------------------------------- helpers

/// A hand-made position: `rows` as printed (`.` hole, digits heights), units per player.
fn board(rows: &[&str], units: [&[(i32, i32)]; 2], league: League) -> State {
    let heights =
        rows.iter().map(|r| r.chars().map(|c| c.to_digit(10).map(|d| d as u8)).collect()).collect();
    let units: [Vec<Point>; 2] =
        [0, 1].map(|p| units[p].iter().map(|&(x, y)| Point::new(x, y)).collect());
    setup::start_state(Params { league, map_index: -1, symmetric: false }, 2, heights, units)
}

fn play(s: &mut State, line: &str) -> Vec<Event> {
    referee::play_turn(s, Some(line)).expect("game running");
    s.last_turn.clone().unwrap().events
}

fn elimination(s: &mut State, line: &str) -> (Reason, String) {
    match play(s, line).as_slice() {
        [Event::Eliminated { reason, message, .. }] => (*reason, message.clone()),
        other => panic!("expected an elimination for {line:?}, got {other:?}"),
    }
}

fn legal_strings(s: &State, p: usize) -> Vec<String> {
    rules::legal_actions(s, p).iter().map(|a| a.to_string()).collect()
}

fn pt(x: i32, y: i32) -> Point {
    Point::new(x, y)
}

// ---------------------------------------------------------------- §1

#[test]
fn s1_directions_follow_the_letters() {
    assert_eq!(Dir::N.delta(), (0, -1));
    assert_eq!(Dir::NE.delta(), (1, -1));
    assert_eq!(Dir::SW.delta(), (-1, 1));
    assert_eq!(pt(0, 0).neighbour(Dir::NW), pt(-1, -1));
    assert_eq!(pt(2, 2).distance(pt(4, 3)), 2);
}

// ---------------------------------------------------------------- §2

#[test]
fn s2_square_and_diamond_maps() {
    assert_eq!(setup::square_map().len(), 25);
    let d = setup::diamond_map();
    assert_eq!(d.len(), 25);
    assert!(d.contains(&pt(3, 0)) && d.contains(&pt(0, 3)) && !d.contains(&pt(0, 0)));
}

#[test]
fn s2_random_maps_are_mirrored_connected_and_big_enough() {
    for seed in -50..50i64 {
        let mut r = crate::java_random::JavaRandom::new(seed);
        let map = setup::generate_random_map(&mut r);
        assert!(map.len() >= 25, "seed {seed}");
        assert_eq!(setup::count_islands(&map), 1, "seed {seed}");
        for p in &map {
            assert!(map.contains(&pt(5 - p.x, p.y)));
        }
    }
}

/// Vectors from the referee traces: seed, mapIndex, symmetric → map, size and spawns.
#[test]
fn s2_setup_matches_referee_vectors() {
    type Vector = (i64, i32, bool, usize, usize, [[(i32, i32); 2]; 2]);
    let vectors: [Vector; 9] = [
        (1530356547, -1, false, 2, 6, [[(5, 1), (1, 0)], [(2, 1), (4, 3)]]),
        (2, -1, false, 1, 7, [[(5, 4), (1, 2)], [(2, 1), (2, 4)]]),
        (-571441438904360238, -1, false, 0, 5, [[(0, 3), (1, 2)], [(4, 3), (2, 1)]]),
        (3853234266269288394, -1, true, 0, 5, [[(0, 2), (0, 3)], [(4, 2), (4, 3)]]),
        (56055134, -1, true, 2, 6, [[(0, 3), (1, 3)], [(5, 3), (4, 3)]]),
        (2033512612, 2, false, 2, 6, [[(1, 0), (4, 3)], [(5, 3), (2, 4)]]),
        (11, 1, false, 1, 7, [[(3, 5), (4, 4)], [(2, 2), (2, 3)]]),
        (-8064156050439675307, 0, false, 0, 5, [[(0, 2), (2, 4)], [(2, 1), (4, 2)]]),
        (17, -1, true, 1, 7, [[(1, 4), (4, 3)], [(5, 4), (2, 3)]]),
    ];
    for (seed, map_index, symmetric, resolved, size, units) in vectors {
        let params = Params { league: League::Bronze, map_index, symmetric };
        let s = setup::new_game(seed, &params);
        assert_eq!(s.map_index, resolved, "seed {seed}");
        assert_eq!(s.size, size, "seed {seed}");
        for (p, want) in units.iter().enumerate() {
            let want: Vec<Point> = want.iter().map(|&(x, y)| pt(x, y)).collect();
            assert_eq!(s.units[p], want, "seed {seed} player {p}");
        }
    }
    let s = setup::new_game(
        56055134,
        &Params { league: League::Bronze, map_index: -1, symmetric: true },
    );
    let grid: Vec<String> = super::trace::state_json(&s)["grid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    assert_eq!(grid, ["00..00", ".0000.", "000000", "000000", "000000", "0.00.0"]);
}

#[test]
fn s2_symmetric_spawns_mirror() {
    for seed in 0..40 {
        let s = setup::new_game(seed, &Params { symmetric: true, ..Params::default() });
        for i in 0..2 {
            let (a, b) = (s.units[0][i], s.units[1][i]);
            assert_eq!(b, pt(s.size as i32 - 1 - a.x, a.y));
            assert_ne!(a, b);
        }
    }
}

#[test]
fn s2_lower_leagues_take_the_same_map_and_fewer_units() {
    for seed in 0..20 {
        let top = setup::new_game(seed, &Params::default());
        let wood = setup::new_game(seed, &Params { league: League::Wood2, ..Params::default() });
        assert_eq!(top.heights, wood.heights);
        assert_eq!(wood.units[0], vec![top.units[0][0]]);
        // Player 1's single unit is the second cell of the shuffle, p0u1 in the top league.
        assert_eq!(wood.units[1], vec![top.units[0][1]]);
    }
}

// ---------------------------------------------------------------- §3

#[test]
fn s3_turns_alternate_and_rounds_advance_after_player_1() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    play(&mut s, "MOVE&BUILD 0 E S");
    assert_eq!((s.round, s.to_move), (0, Some(1)));
    play(&mut s, "MOVE&BUILD 0 E N");
    assert_eq!((s.round, s.to_move), (1, Some(0)));
}

#[test]
fn s3_records_are_cleared_before_player_0_acts() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    play(&mut s, "MOVE&BUILD 0 E S");
    assert!(s.records[0][0].is_some());
    play(&mut s, "MOVE&BUILD 0 E N");
    assert!(s.records.iter().flatten().all(|r| r.is_none()));
}

#[test]
fn s3_the_round_limit_ends_the_game_at_200() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    s.round = 199;
    s.to_move = Some(1);
    play(&mut s, "MOVE&BUILD 0 E N");
    assert!(s.game_over);
    assert_eq!(s.end_reason, Some(EndReason::MaxRounds));
    assert_eq!(s.round, 200);
}

#[test]
fn s3_the_end_test_runs_before_the_round_limit() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    s.round = 199;
    s.dead[0] = true;
    s.to_move = Some(1);
    play(&mut s, "ACCEPT-DEFEAT");
    assert_eq!(s.end_reason, Some(EndReason::BothEliminated));
    assert_eq!(s.round, 200);
}

// ---------------------------------------------------------------- §4

#[test]
fn s4_accept_defeat_spellings() {
    for line in [
        "ACCEPT-DEFEAT",
        "accept-defeat",
        "ACCEPT-DEFEAT  ",
        "ACCEPT-DEFEAT\t",
        "accept-defeat gg",
        "ACCEPT-DEFEAT a\u{a0}b",
    ] {
        assert!(matches!(protocol::parse_line(line), Ok(Command::AcceptDefeat { .. })), "{line:?}");
    }
    for line in ["ACCEPT-DEFEATxyz", "ACCEPT-DEFEAT\u{a0}b", " ACCEPT-DEFEAT", "ACCEPT DEFEAT"] {
        assert!(protocol::parse_line(line).is_err(), "{line:?}");
    }
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    assert_eq!(
        elimination(&mut s, "accept-defeat gg"),
        (Reason::SelfDestruct, "$0 accepts defeat!".into())
    );
}

#[test]
fn s4_action_pattern_whitespace_and_messages() {
    let ok = |l: &str| protocol::parse_line(l).is_ok();
    assert!(ok("MOVE&BUILD 0 N S"));
    assert!(ok("move&build\t0  n \u{0B}s"));
    assert!(ok("MOVE&BUILD 0 N S   "));
    assert!(ok("MOVE&BUILD 0 N S hi\u{a0}there"));
    assert!(ok("MOVE&BUILD 0 N S 日本"));
    assert!(ok("MOVE&BUILD 0 NE SW"));
    assert!(!ok(" MOVE&BUILD 0 N S"));
    assert!(!ok("MOVE&BUILD 0 N Sxyz"));
    assert!(!ok("MOVE&BUILD 1 E NExyz"));
    assert!(!ok("MOVE&BUILD 0 N S\u{a0}x"));
    assert!(!ok("MOVE&BUILD\u{a0}0 N S"));
    assert!(!ok("MOVE&BUILD\u{2003}0 N S"));
    assert!(!ok("MOVE&BUILD 01 N S"));
    assert!(!ok("MOVE&BUILD -1 N S"));
    assert!(!ok("MOVE&BUILD ١ N S"));
    assert!(!ok("MOVE&BUıLD 0 N S"));
    assert!(!ok("MOVE&BUİLD 0 N S"));
    assert!(!ok("MOVE&BUILD 0 N ſ"));
    assert!(!ok("MOVE & BUILD 0 N S"));
    assert!(!ok("WAIT"));
    assert!(!ok(""));
    assert!(!ok("MOVE&BUILD 0 N S x\ny"));
    match protocol::parse_line("MOVE&BUILD 0 n se  well done") {
        Ok(Command::Act { word: Word::Move, index: 0, dir1: Dir::N, dir2: Dir::SE, message }) => {
            assert_eq!(message.as_deref(), Some("well done"))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn s4_parse_errors_say_where() {
    let e = protocol::parse_line("MOVE&BUILD 0 N Sxyz").unwrap_err();
    assert_eq!((e.line, e.column), (1, 17));
    let e = protocol::parse_line("MOVE&BUILD 7 Q S").unwrap_err();
    assert_eq!(e.column, 14);
    assert_eq!(e.found, "Q S");
}

#[test]
fn s4_invalid_lines_eliminate_with_the_whole_line_quoted() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    let (r, m) = elimination(&mut s, " WAIT\t");
    assert_eq!(r, Reason::InvalidInput);
    assert_eq!(m, "Invalid input. Expected 'MOVE&BUILD | PUSH&BUILD <index> <direction> <direction>' but found ' WAIT\t'");
}

#[test]
fn s4_index_2_to_9_is_invalid_input() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    assert_eq!(elimination(&mut s, "MOVE&BUILD 2 E S").0, Reason::InvalidInput);
}

#[test]
fn s4_the_empty_line_is_invalid_input() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    let (r, m) = elimination(&mut s, "");
    assert_eq!(r, Reason::InvalidInput);
    assert!(m.ends_with("but found ''"));
}

#[test]
fn s4_timeout_eliminates() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    referee::play_turn(&mut s, None).unwrap();
    match s.last_turn.unwrap().events.as_slice() {
        [Event::Eliminated { reason: Reason::Timeout, message, .. }] => {
            assert_eq!(message, "$0 has not provided an action in time.")
        }
        other => panic!("{other:?}"),
    }
    assert!(s.dead[0]);
}

// ---------------------------------------------------------------- §5

fn move_board() -> State {
    // Unit A at (1,1) height 1; heights around: a 3 at (2,1), a dome at (0,1), a hole at (1,0).
    board(&["0.0", "413", "020"], [&[(1, 1), (2, 2)], &[(0, 2), (2, 0)]], League::Wood1)
}

#[test]
fn s5_move_checks_in_order_with_messages() {
    let cases = [
        ("MOVE&BUILD 0 N S", Reason::BadCoords, "Cannot move to position (1,0)."),
        ("MOVE&BUILD 1 SE N", Reason::BadCoords, "Cannot move to position (3,3)."),
        ("MOVE&BUILD 0 E W", Reason::InvalidMove, "Cannot move from height 1 to 3."),
        ("MOVE&BUILD 0 SW N", Reason::MoveOnUnit, "Trying to move onto an occupied cell at (0,2)."),
        ("MOVE&BUILD 0 NE N", Reason::MoveOnUnit, "Trying to move onto an occupied cell at (2,0)."),
        ("MOVE&BUILD 0 S S", Reason::InvalidPlace, "Cannot build on position (1,3)."),
        ("MOVE&BUILD 0 NW S", Reason::PlaceTooHigh, "Cannot build at height 0."),
    ];
    for (line, reason, message) in cases {
        let mut s = move_board();
        assert_eq!(elimination(&mut s, line), (reason, message.to_string()), "{line}");
    }
}

#[test]
fn s5_dome_checks() {
    // MoveTooHigh: from height 3 onto a dome. PlaceTooHigh quotes h(T).
    let mut s = board(&["34", "20"], [&[(0, 0)], &[(1, 1)]], League::Wood2);
    assert_eq!(
        elimination(&mut s, "MOVE&BUILD 0 E W"),
        (Reason::MoveTooHigh, "Cannot move to position (1,0).".into())
    );
    let mut s = board(&["14", "20"], [&[(0, 0)], &[(1, 1)]], League::Wood2);
    assert_eq!(
        elimination(&mut s, "MOVE&BUILD 0 S NE"),
        (Reason::PlaceTooHigh, "Cannot build at height 2.".into())
    );
}

#[test]
fn s5_climb_at_most_one_and_drop_any() {
    let mut s = board(&["30", "00"], [&[(0, 0)], &[(1, 1)]], League::Wood2);
    assert!(play(&mut s, "MOVE&BUILD 0 E W").len() == 1);
    assert_eq!(s.units[0][0], pt(1, 0));
    assert_eq!(s.height(pt(0, 0)), Some(4));
}

#[test]
fn s5_build_on_the_cell_just_left_is_allowed() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    play(&mut s, "MOVE&BUILD 0 E W");
    assert_eq!(s.height(pt(0, 0)), Some(1));
}

#[test]
fn s5_building_on_a_visible_unit_is_illegal() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    assert_eq!(
        elimination(&mut s, "MOVE&BUILD 0 E E"),
        (Reason::PlaceOnUnit, "Trying to build on a unit at position (2,0).".into())
    );
}

#[test]
fn s5_scoring_on_a_move_onto_height_3() {
    let mut s =
        board(&["230", "000", "000"], [&[(0, 0), (2, 2)], &[(0, 2), (2, 1)]], League::Bronze);
    let ev = play(&mut s, "MOVE&BUILD 0 E S");
    assert_eq!(s.scores, [1, 0]);
    assert!(matches!(ev[0], Event::Move { scored: true, build_cancelled: false, .. }));
}

// ---------------------------------------------------------------- §6

fn push_board() -> State {
    // A (p0u0) at (1,1); enemy a at (2,1), b at (1,2).
    board(&["0000", "0010", "0000", "0000"], [&[(1, 1), (0, 0)], &[(2, 1), (1, 2)]], League::Bronze)
}

#[test]
fn s6_push_checks_in_order_with_messages() {
    let cases = [
        ("PUSH&BUILD 0 E W", Reason::PushInvalid, "Not a valid push: E + W."),
        ("PUSH&BUILD 0 NE E", Reason::PushVoid, "Nobody to push at position (2, 0)."),
        ("PUSH&BUILD 0 N N", Reason::PushVoid, "Nobody to push at position (1, 0)."),
        ("PUSH&BUILD 0 NW NW", Reason::FriendlyFire, "Unit 0 is tried to push friendly unit 1."),
        ("PUSH&BUILD 1 SE S", Reason::FriendlyFire, "Unit 1 is tried to push friendly unit 0."),
        ("PUSH&BUILD 0 S SW", Reason::PushInvalid, "Not a valid push: S + SW."),
    ];
    for (line, reason, message) in cases {
        let mut s = push_board();
        if line == "PUSH&BUILD 0 S SW" {
            s.heights[3][0] = Some(2);
        }
        assert_eq!(elimination(&mut s, line), (reason, message.to_string()), "{line}");
    }
}

#[test]
fn s6_push_effect_builds_on_the_left_cell_and_never_scores() {
    let mut s = push_board();
    s.heights[1][3] = Some(3);
    s.heights[1][2] = Some(2);
    let ev = play(&mut s, "PUSH&BUILD 0 E E");
    assert_eq!(s.units[1][0], pt(3, 1));
    assert_eq!(s.units[0][0], pt(1, 1));
    assert_eq!(s.height(pt(2, 1)), Some(3));
    assert_eq!(s.scores, [0, 0]);
    assert_eq!(
        ev,
        vec![Event::Push {
            player: 0,
            unit: 0,
            pushed: (1, 0),
            push_to: pt(3, 1),
            build: pt(2, 1),
            cancelled: false
        }]
    );
}

#[test]
fn s6_push_onto_a_visible_unit_is_illegal() {
    let mut s = board(
        &["0000", "0000", "0000", "0000"],
        [&[(1, 1), (3, 3)], &[(2, 1), (3, 2)]],
        League::Bronze,
    );
    assert_eq!(
        elimination(&mut s, "PUSH&BUILD 0 E SE"),
        (Reason::PushOnUnit, "Trying to push onto another unit: E + SE.".into())
    );
}

#[test]
fn s6_push_direction_within_45_degrees() {
    use rules::valid_push_direction as v;
    assert!(v(Dir::NE, Dir::NE) && v(Dir::NE, Dir::N) && v(Dir::NE, Dir::E));
    assert!(!v(Dir::NE, Dir::NW) && !v(Dir::NE, Dir::SE));
    assert!(v(Dir::N, Dir::NE) && v(Dir::N, Dir::NW) && v(Dir::E, Dir::SE));
    assert!(!v(Dir::N, Dir::E) && !v(Dir::S, Dir::N));
}

// ---------------------------------------------------------------- §7

#[test]
fn s7_hidden_enemies_print_as_minus_one() {
    let s = board(
        &["00000", "00000", "00000", "00000", "00000"],
        [&[(0, 0), (1, 0)], &[(2, 1), (4, 4)]],
        League::Bronze,
    );
    let v = protocol::view(&s, 0);
    assert_eq!(v.theirs, vec![Some(pt(2, 1)), None]);
    let text = protocol::render_turn_input(&s, 1);
    let lines: Vec<&str> = text.split('\n').collect();
    assert_eq!(&lines[5..9], &["2 1", "4 4", "-1 -1", "1 0"]);
    // Without fog (Wood 1) everything is visible.
    let mut s2 = s.clone();
    s2.params.league = League::Wood1;
    assert_eq!(protocol::view(&s2, 0).theirs, vec![Some(pt(2, 1)), Some(pt(4, 4))]);
}

// ---------------------------------------------------------------- §8

#[test]
fn s8_the_survivor_plays_on_until_strictly_ahead() {
    let mut s = board(
        &["2300", "0000", "0000", "0000"],
        [&[(0, 0), (3, 3)], &[(0, 2), (3, 2)]],
        League::Bronze,
    );
    play(&mut s, "WAIT");
    assert!(s.dead[0] && !s.game_over);
    play(&mut s, "MOVE&BUILD 0 E E"); // p1 moves without scoring: 0-0, round 1
    assert!(!s.game_over);
    assert_eq!(s.to_move, Some(1));
    assert_eq!(s.round, 1);
    s.heights[1][1] = Some(3);
    s.heights[2][1] = Some(2);
    s.units[1][0] = pt(1, 2);
    play(&mut s, "MOVE&BUILD 0 N S");
    assert!(s.game_over);
    assert_eq!(s.end_reason, Some(EndReason::SurvivorAhead));
    assert_eq!(s.round, 2);
}

#[test]
fn s8_ranking_is_by_score_only() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    s.scores = [3, 1];
    play(&mut s, "WAIT");
    play(&mut s, "WAIT");
    let o = WondevWoman::outcome(&s).unwrap();
    assert_eq!(o.scores, vec![3, 1]);
    assert_eq!(o.winner(), Some(0));
    assert_eq!(o.reason, "both_players_eliminated");
    let j = super::trace::trace_outcome(&s).unwrap().to_value();
    assert_eq!(j["ranking"], serde_json::json!([0, 1]));
    assert_eq!(j["rounds_played"], 1);
}

// ---------------------------------------------------------------- §9

#[test]
fn s9_legal_list_sorted_as_strings() {
    let s = board(
        &["00000", "00000", "00000", "00000", "00000"],
        [&[(2, 2), (0, 0)], &[(3, 2), (4, 4)]],
        League::Bronze,
    );
    let l = legal_strings(&s, 0);
    let mut sorted = l.clone();
    sorted.sort();
    assert_eq!(l, sorted);
    assert!(l.iter().any(|a| a.starts_with("PUSH&BUILD 0 E")));
    assert!(l.first().unwrap().starts_with("MOVE&BUILD 0 "));
    assert_eq!(protocol::render_init(&s), "5\n2");
}

#[test]
fn s9_view_text_round_trips() {
    let s = setup::new_game(7, &Params::default());
    for p in 0..2 {
        let v = protocol::view(&s, p);
        let text = protocol::render_view(&v);
        assert_eq!(protocol::parse_turn(&text, s.size, 2).unwrap(), v);
    }
    assert!(protocol::parse_turn("00\n0x", 2, 1).is_err());
}

// ---------------------------------------------------------------- §11

#[test]
fn s11_wood3_is_won_by_standing_on_height_3() {
    let mut s = board(&["230", "000", "000"], [&[(0, 0)], &[(2, 2)]], League::Wood3);
    play(&mut s, "MOVE&BUILD 0 E S");
    assert!(!s.game_over);
    play(&mut s, "MOVE&BUILD 0 W E");
    assert!(s.game_over);
    assert_eq!(s.end_reason, Some(EndReason::HeightReached));
    assert_eq!(rules::final_scores(&s), [1, 0]);
}

#[test]
fn s11_no_push_below_wood1() {
    let mut s = board(&["000", "000", "000"], [&[(0, 0)], &[(1, 0)]], League::Wood2);
    assert!(legal_strings(&s, 0).iter().all(|a| a.starts_with("MOVE")));
    assert_eq!(
        elimination(&mut s, "PUSH&BUILD 0 E E"),
        (Reason::InvalidCommand, "InvalidCommand".into())
    );
    let mut s = board(&["000", "000", "000"], [&[(0, 0)], &[(1, 0)]], League::Wood2);
    let (r, m) = elimination(&mut s, "MOVE&BUILD 1 S S");
    assert_eq!(r, Reason::InvalidInput);
    assert!(m.starts_with("Invalid input. Expected 'MOVE&BUILD <index>"));
}

#[test]
fn s11_without_fog_building_on_any_unit_is_illegal() {
    let mut s = board(
        &["00000", "00000", "00000", "00000", "00000"],
        [&[(0, 0), (0, 4)], &[(2, 0), (4, 4)]],
        League::Wood1,
    );
    assert_eq!(elimination(&mut s, "MOVE&BUILD 0 E E").0, Reason::PlaceOnUnit);
}

// ---------------------------------------------------------------- §12 pitfalls

#[test]
fn pitfall_01_hidden_occupants() {
    // Player 0: A at (2,0), B at (0,4). Player 1: a at (4,4), b at (4,0), hidden (distance 2).
    let base = board(
        &["00000", "00000", "00000", "00000", "00000"],
        [&[(2, 0), (0, 4)], &[(4, 4), (4, 0)]],
        League::Bronze,
    );
    assert!(!rules::visible(&base, 1, pt(4, 0), 0));
    // Moving onto any unit is illegal and never listed (the target is adjacent, so a unit
    // there is never hidden; the check ignores visibility anyway).
    let mut m = base.clone();
    m.units[1][1] = pt(3, 0);
    assert!(!legal_strings(&m, 0).iter().any(|a| a.starts_with("MOVE&BUILD 0 E ")));
    assert_eq!(rules::check_move(&m, 0, 0, Dir::E, Dir::W).unwrap_err().reason, Reason::MoveOnUnit);
    // Building on the hidden unit: legal, listed, the build is cancelled, the move happens.
    let mut t = base.clone();
    assert!(legal_strings(&t, 0).contains(&"MOVE&BUILD 0 E E".to_string()));
    let ev = play(&mut t, "MOVE&BUILD 0 E E");
    assert_eq!(t.units[0][0], pt(3, 0));
    assert_eq!(t.height(pt(4, 0)), Some(0));
    assert_eq!(t.units[1][1], pt(4, 0));
    assert!(matches!(ev[0], Event::Move { build_cancelled: true, build, .. } if build == pt(4, 0)));
    // Pushing onto a hidden unit: legal but the whole action is cancelled.
    let mut u = board(
        &["00000", "00000", "00000", "00000", "00000"],
        [&[(0, 0), (0, 4)], &[(1, 0), (2, 0)]],
        League::Bronze,
    );
    assert!(!rules::visible(&u, 1, pt(2, 0), 0));
    let before = u.clone();
    assert!(legal_strings(&u, 0).contains(&"PUSH&BUILD 0 E E".to_string()));
    let ev = play(&mut u, "PUSH&BUILD 0 E E");
    assert_eq!((u.units.clone(), u.heights.clone()), (before.units, before.heights));
    assert!(matches!(ev[0], Event::Push { cancelled: true, pushed: (1, 0), .. }));
}

#[test]
fn pitfall_02_visibility_uses_positions_before_the_action() {
    // A at (1,0) sees b at (2,1)?? No: b at (3,1) is at distance 2 from A's old cell (1,0) and
    // from A's other unit; after moving to (2,0) A would see it, but the build on it is judged
    // before: hidden, so the build is cancelled, not illegal.
    let mut s = board(
        &["00000", "00000", "00000", "00000", "00000"],
        [&[(1, 0), (0, 4)], &[(4, 4), (3, 1)]],
        League::Bronze,
    );
    let ev = play(&mut s, "MOVE&BUILD 0 E SE");
    assert!(matches!(ev[0], Event::Move { build_cancelled: true, .. }));
}

#[test]
fn pitfall_03_push_height_rule_uses_the_victims_cell() {
    // Pusher on height 0, victim on height 2, destination height 3: legal (3 <= 2+1).
    let mut s = board(
        &["0230", "0000", "0000", "0000"],
        [&[(0, 0), (0, 3)], &[(1, 0), (3, 3)]],
        League::Bronze,
    );
    s.heights[0][1] = Some(2);
    s.heights[0][2] = Some(3);
    let ev = play(&mut s, "PUSH&BUILD 0 E E");
    assert!(matches!(ev[0], Event::Push { cancelled: false, .. }));
    assert_eq!(s.units[1][0], pt(2, 0));
    assert_eq!(s.units[0][0], pt(0, 0));
    assert_eq!(s.height(pt(1, 0)), Some(3));
    assert_eq!(s.scores, [0, 0]);
    // Victim on 0, destination on 2: illegal even though the pusher stands on 2.
    let mut s = board(
        &["2020", "0000", "0000", "0000"],
        [&[(0, 0), (0, 3)], &[(1, 0), (3, 3)]],
        League::Bronze,
    );
    assert_eq!(elimination(&mut s, "PUSH&BUILD 0 E E").0, Reason::PushInvalid);
}

#[test]
fn pitfall_04_every_move_onto_height_3_scores() {
    let mut s =
        board(&["330", "000", "000"], [&[(0, 0), (2, 2)], &[(0, 2), (2, 1)]], League::Bronze);
    play(&mut s, "MOVE&BUILD 0 E S");
    play(&mut s, "MOVE&BUILD 0 E N");
    play(&mut s, "MOVE&BUILD 0 W S");
    assert_eq!(s.scores[0], 2);
    // Building onto height 3 is not a point: only moves.
    let mut s =
        board(&["230", "000", "000"], [&[(0, 0), (2, 2)], &[(0, 2), (2, 1)]], League::Bronze);
    s.heights[1][0] = Some(2);
    play(&mut s, "MOVE&BUILD 0 S E");
    assert_eq!(s.scores[0], 0);
}

#[test]
fn pitfall_05_a_dome_is_printed_as_4() {
    let s = board(&["40", "0."], [&[(1, 0)], &[(0, 1)]], League::Wood2);
    assert!(protocol::render_turn_input(&s, 0).starts_with("40\n0.\n"));
    assert!(!legal_strings(&s, 0).iter().any(|a| a.starts_with("MOVE&BUILD 0 W")));
}

#[test]
fn pitfall_06_the_random_map_consumes_rng_even_when_another_map_is_chosen() {
    // Forcing the square map must give the spawns of a generator that drew the random map and
    // the map index first: same as the game whose drawn map is the square (vector from a trace).
    let s = setup::new_game(-8064156050439675307, &Params { map_index: 0, ..Params::default() });
    assert_eq!(s.units[0], vec![pt(0, 2), pt(2, 4)]);
    let mut r = crate::java_random::JavaRandom::new(-8064156050439675307);
    let mut cells = setup::square_map();
    cells.sort_by_key(|p| (p.x, p.y));
    r.shuffle(&mut cells);
    assert_ne!(&cells[0..2], &[pt(0, 2), pt(2, 4)], "a fresh generator would spawn elsewhere");
}

#[test]
fn pitfall_07_case_rules() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (1, 1)]], League::Bronze);
    assert!(matches!(play(&mut s, "move&build 0 s n")[0], Event::Move { .. }));
    for line in ["push&build 0 se se", "Push&Build 0 SE SE"] {
        let mut s =
            board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (1, 1)]], League::Bronze);
        assert_eq!(elimination(&mut s, line).0, Reason::InvalidCommand);
    }
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (1, 1)]], League::Bronze);
    assert!(matches!(play(&mut s, "PUSH&BUILD 0 se se")[0], Event::Push { .. }));
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (1, 1)]], League::Bronze);
    assert_eq!(elimination(&mut s, "ACCEPT-DEFEATxyz").0, Reason::InvalidInput);
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (1, 1)]], League::Bronze);
    assert_eq!(elimination(&mut s, "\tMOVE&BUILD 0 E S").0, Reason::InvalidInput);
}

#[test]
fn pitfall_08_eliminated_players_keep_points_and_units() {
    let mut s = board(
        &["0000", "0000", "0000", "0000"],
        [&[(0, 0), (2, 1)], &[(0, 1), (2, 2)]],
        League::Bronze,
    );
    s.scores = [2, 0];
    play(&mut s, "ACCEPT-DEFEAT");
    assert!(s.dead[0] && !s.game_over);
    assert_eq!(s.scores[0], 2);
    assert_eq!(s.units[0], vec![pt(0, 0), pt(2, 1)]);
    // Its units still block moves.
    assert!(!legal_strings(&s, 1).iter().any(|a| a.starts_with("MOVE&BUILD 0 N ")));
    assert!(legal_strings(&s, 1).iter().any(|a| a == "PUSH&BUILD 1 N N"));
}

#[test]
fn pitfall_09_no_pass_move_a_stuck_player_is_eliminated_on_its_turn() {
    // Player 1 at (2,2) is boxed in by holes and domes: it gets an empty list, is not skipped.
    let mut s = board(&["00.", "4.4", "4.0"], [&[(0, 0)], &[(2, 2)]], League::Wood2);
    // Player 0 at (0,0) can move to (1,0) and build back on (0,0).
    play(&mut s, "MOVE&BUILD 0 E W");
    assert_eq!(s.to_move, Some(1));
    let text = protocol::render_turn_input(&s, 1);
    assert!(text.ends_with("\n0"), "{text}");
    assert!(WondevWoman::legal_actions(&s, 1) == vec![Action::AcceptDefeat]);
    play(&mut s, "MOVE&BUILD 0 N S");
    assert!(s.dead[1]);
}

#[test]
fn pitfall_10_legal_list_sorted_as_strings() {
    let s = board(&["000", "000", "000"], [&[(1, 1), (2, 2)], &[(0, 0), (0, 2)]], League::Wood1);
    let l = legal_strings(&s, 0);
    let ein = l.iter().position(|a| a == "MOVE&BUILD 0 E N").unwrap();
    let eine = l.iter().position(|a| a == "MOVE&BUILD 0 E NW").unwrap();
    assert!(ein < eine);
    assert!(l.iter().position(|a| a.starts_with("MOVE&BUILD 1")).unwrap() > eine);
}

#[test]
fn pitfall_11_size_is_the_bounding_box_and_holes_print_as_dots() {
    let d = setup::new_game(2, &Params::default());
    assert_eq!(d.size, 7);
    assert!(protocol::render_turn_input(&d, 0).starts_with("...0...\n..000..\n"));
    for seed in 0..200 {
        let s = setup::new_game(seed, &Params { map_index: 2, ..Params::default() });
        let cells = s.cells();
        let bound = cells.iter().map(|p| 1 + p.x.max(p.y)).max().unwrap();
        assert_eq!(s.size as i32, bound);
    }
}

#[test]
fn pitfall_12_the_game_ends_only_at_a_round_boundary() {
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    s.round = 45;
    s.dead[1] = true;
    play(&mut s, "WAIT");
    assert!(s.game_over);
    assert_eq!(s.round, 46);
    // Player 0 eliminated while player 1 leads: player 1 still acts in that round.
    let mut s =
        board(&["000", "000", "000"], [&[(0, 0), (2, 0)], &[(0, 2), (2, 2)]], League::Bronze);
    s.scores = [0, 1];
    play(&mut s, "WAIT");
    assert!(!s.game_over);
    assert_eq!(s.to_move, Some(1));
    play(&mut s, "MOVE&BUILD 0 E N");
    assert!(s.game_over);
    assert_eq!((s.round, s.end_reason), (1, Some(EndReason::SurvivorAhead)));
}

#[test]
fn pitfall_13_records_survive_while_player_0_is_eliminated() {
    let mut s = board(
        &["00000", "00000", "00000", "00000", "00000"],
        [&[(0, 0), (4, 0)], &[(0, 4), (4, 4)]],
        League::Bronze,
    );
    play(&mut s, "WAIT");
    assert_eq!(play(&mut s, "MOVE&BUILD 0 E N").len(), 1);
    let ev = play(&mut s, "MOVE&BUILD 1 W N");
    assert_eq!(ev.len(), 2);
    assert!(matches!(ev[0], Event::Move { unit: 0, to, .. } if to == pt(1, 4)));
    assert!(matches!(ev[1], Event::Move { unit: 1, .. }));
}

// ---------------------------------------------------------------- properties

/// A random playout: seed, league and a stream of choices (mostly legal actions, sometimes a
/// bad line). Returns every state along the way, with the line played from it.
fn playout(seed: i64, league: League, choices: &[u8]) -> Vec<(State, Option<String>)> {
    let mut s = setup::new_game(seed, &Params { league, ..Params::default() });
    let mut out = vec![];
    for &c in choices {
        if s.game_over {
            break;
        }
        let p = s.to_move.unwrap();
        let legal = rules::legal_actions(&s, p);
        let line = if c == 255 || legal.is_empty() {
            Some("WAIT".to_string())
        } else if c == 254 {
            None
        } else {
            Some(legal[c as usize % legal.len()].to_string())
        };
        out.push((s.clone(), line.clone()));
        referee::play_turn(&mut s, line.as_deref()).unwrap();
    }
    out.push((s, None));
    out
}

fn league_of(n: u8) -> League {
    League::from_version((n % 4) as i64).unwrap()
}

fn long_choices(choices: Vec<u8>) -> Vec<u8> {
    // Long enough to reach deep into games: repeat the generated bytes.
    let mut v = choices;
    if v.is_empty() {
        v.push(0);
    }
    let base = v.clone();
    while v.len() < 120 {
        v.extend(base.iter().map(|b| b.wrapping_mul(7).wrapping_add(3) % 250));
    }
    v
}

fn invariants_hold(before: &State, after: &State) -> Result<(), String> {
    for y in 0..after.size {
        for x in 0..after.size {
            let (a, b) = (before.heights[y][x], after.heights[y][x]);
            if a.is_some() != b.is_some() {
                return Err(format!("cell ({x},{y}) appeared or vanished"));
            }
            if let (Some(a), Some(b)) = (a, b) {
                if b < a || b > 4 {
                    return Err(format!("height ({x},{y}) {a} -> {b}"));
                }
            }
        }
    }
    let all: Vec<Point> = after.units.iter().flatten().copied().collect();
    for (i, u) in all.iter().enumerate() {
        match after.height(*u) {
            Some(h) if h < 4 => {}
            other => return Err(format!("unit on {u:?} height {other:?}")),
        }
        if all[..i].contains(u) {
            return Err(format!("two units on {u:?}"));
        }
    }
    for p in 0..2 {
        let gained = after.scores[p] - before.scores[p];
        if !(0..=1).contains(&gained) {
            return Err(format!("score of {p} went {} -> {}", before.scores[p], after.scores[p]));
        }
        if gained == 1 {
            let scored = after.last_turn.as_ref().is_some_and(|t| {
                t.player == p
                    && t.events.iter().any(|e| matches!(e, Event::Move { scored: true, to, .. } if before.height(*to) == Some(3)))
            });
            if !scored {
                return Err("a point without a move onto height 3".into());
            }
        }
    }
    Ok(())
}

#[test]
fn prop_invariants_along_random_games() {
    fn prop(seed: i64, league: u8, choices: Vec<u8>) -> TestResult {
        let states = playout(seed, league_of(league), &long_choices(choices));
        for w in states.windows(2) {
            if let Err(e) = invariants_hold(&w[0].0, &w[1].0) {
                return TestResult::error(e);
            }
        }
        TestResult::passed()
    }
    QuickCheck::new().tests(150).quickcheck(prop as fn(i64, u8, Vec<u8>) -> TestResult);
}

#[test]
fn prop_every_legal_action_is_accepted_and_changes_the_state() {
    fn prop(seed: i64, league: u8, choices: Vec<u8>) -> TestResult {
        for (s, _) in playout(seed, league_of(league), &long_choices(choices)).iter().step_by(7) {
            if s.game_over {
                continue;
            }
            let p = s.to_move.unwrap();
            for a in rules::legal_actions(s, p) {
                let mut t = s.clone();
                let mut slots = [None, None];
                slots[p] = Some(a);
                if let Err(e) = WondevWoman::step(&mut t, &slots) {
                    return TestResult::error(format!("{a} refused: {e}"));
                }
                if t == *s || t.dead[p] {
                    return TestResult::error(format!(
                        "{a} left the state unchanged or eliminated"
                    ));
                }
            }
        }
        TestResult::passed()
    }
    QuickCheck::new().tests(40).quickcheck(prop as fn(i64, u8, Vec<u8>) -> TestResult);
}

#[test]
fn prop_views_render_then_parse_back() {
    fn prop(seed: i64, league: u8, choices: Vec<u8>) -> bool {
        let league = league_of(league);
        playout(seed, league, &long_choices(choices)).iter().all(|(s, _)| {
            (0..2).all(|p| {
                let v = protocol::view(s, p);
                protocol::parse_turn(&protocol::render_view(&v), s.size, league.units_per_player())
                    == Ok(v)
            })
        })
    }
    QuickCheck::new().tests(60).quickcheck(prop as fn(i64, u8, Vec<u8>) -> bool);
}

#[test]
fn prop_stepping_a_finished_game_is_refused() {
    fn prop(seed: i64, choices: Vec<u8>) -> bool {
        let mut bytes = long_choices(choices);
        bytes.extend(std::iter::repeat_n(0u8, 800));
        let (last, _) = playout(seed, League::Bronze, &bytes).pop().unwrap();
        if !last.game_over {
            return false;
        }
        let mut t = last.clone();
        let refused_typed = WondevWoman::step(&mut t, &[Some(Action::AcceptDefeat), None])
            == Err(StepError::GameOver);
        let refused_text = referee::play_turn(&mut t, Some("ACCEPT-DEFEAT")).is_err();
        refused_typed && refused_text && t == last
    }
    QuickCheck::new().tests(30).quickcheck(prop as fn(i64, Vec<u8>) -> bool);
}

fn swap_units(s: &State, p: usize) -> State {
    let mut t = s.clone();
    t.units[p].swap(0, 1);
    t.records[p].swap(0, 1);
    t
}

fn relabel(a: &Action) -> Action {
    match *a {
        Action::Build { kind, unit, dir1, dir2 } => {
            Action::Build { kind, unit: 1 - unit, dir1, dir2 }
        }
        other => other,
    }
}

#[test]
fn prop_swapping_a_players_unit_ids_relabels_the_legal_moves() {
    fn prop(seed: i64, league: u8, choices: Vec<u8>) -> TestResult {
        let league = league_of(league);
        if league.units_per_player() < 2 {
            return TestResult::discard();
        }
        for (s, _) in playout(seed, league, &long_choices(choices)) {
            for swapped in 0..2 {
                let t = swap_units(&s, swapped);
                for p in 0..2 {
                    let mut a: Vec<String> = rules::legal_actions(&s, p)
                        .iter()
                        .map(|a| if p == swapped { relabel(a) } else { *a }.to_string())
                        .collect();
                    let mut b: Vec<String> =
                        rules::legal_actions(&t, p).iter().map(|a| a.to_string()).collect();
                    a.sort();
                    b.sort();
                    if a != b {
                        return TestResult::error(format!("seed {seed}: player {p} differs"));
                    }
                }
            }
        }
        TestResult::passed()
    }
    QuickCheck::new().tests(40).quickcheck(prop as fn(i64, u8, Vec<u8>) -> TestResult);
}

#[test]
fn prop_parser_never_panics_and_accepts_the_printed_form() {
    fn prop(s: String) -> bool {
        let _ = protocol::parse_line(&s);
        let _ = protocol::parse_turn(&s, 5, 2);
        true
    }
    QuickCheck::new().tests(500).quickcheck(prop as fn(String) -> bool);
    for kind in [Kind::Move, Kind::Push] {
        for unit in 0..2 {
            for dir1 in Dir::ALL {
                for dir2 in Dir::ALL {
                    let a = Action::Build { kind, unit, dir1, dir2 };
                    assert_eq!(a.to_string().parse::<Action>(), Ok(a));
                }
            }
        }
    }
}

#[test]
fn perft_small_depths() {
    let s = setup::new_game(1530356547, &Params::default());
    assert_eq!(crate::game::typed_perft::<super::WondevWoman>(&s, 0), 1);
    assert_eq!(crate::game::typed_perft::<super::WondevWoman>(&s, 1), 20);
    let d2 = crate::game::typed_perft::<super::WondevWoman>(&s, 2);
    assert!(d2 > 20);
}

// ---------------------------------------------------------------- §9 both ways

/// The round trip at one decision point: the init input and the mover's view render to texts
/// that parse back to them, and in the top league the state rebuilt from the view
/// (`protocol::state_from_view`, with the true enemy placement and liveness) shows that same
/// view from its player 0 (grid, own units, the visible enemy units, the legal list) and has its
/// units and heights. Returns whether a view was checked.
fn check_view_round_trip(truth: &State, context: &str) -> bool {
    let units = truth.params.league.units_per_player();
    assert_eq!(
        protocol::parse_init(&protocol::render_init(truth)),
        Ok((truth.size, units)),
        "{context}"
    );
    let Some(me) = truth.to_move.filter(|_| !truth.game_over) else {
        return false;
    };
    let view = protocol::view(truth, me);
    let text = protocol::render_view(&view);
    let parsed = protocol::parse_turn(&text, truth.size, units)
        .unwrap_or_else(|e| panic!("{context}: {e}\n{text}"));
    assert_eq!(parsed, view, "{context}");
    if truth.params.league == League::Bronze {
        let enemy = [truth.units[1 - me][0], truth.units[1 - me][1]];
        let rebuilt = protocol::state_from_view(&parsed, enemy, !truth.dead[1 - me], truth.round);
        assert_eq!(protocol::view(&rebuilt, 0), parsed, "{context}: the rebuilt state's view");
        assert_eq!(rebuilt.heights, truth.heights, "{context}");
        assert_eq!(rebuilt.units, [truth.units[me].clone(), truth.units[1 - me].clone()]);
        assert_eq!((rebuilt.round, rebuilt.to_move), (truth.round, Some(0)), "{context}");
    }
    true
}

#[test]
fn prop_views_rebuild_the_state_they_show() {
    fn prop(seed: i64, league: u8, choices: Vec<u8>) -> bool {
        let league = league_of(league);
        let games = playout(seed, league, &long_choices(choices));
        for (s, _) in &games {
            check_view_round_trip(s, &format!("seed {seed}, round {}", s.round));
        }
        true
    }
    QuickCheck::new().tests(60).quickcheck(prop as fn(i64, u8, Vec<u8>) -> bool);
}

#[test]
fn referee_views_of_the_traces_parse_and_the_engine_views_round_trip() {
    let games = crate::trace::shipped_traces("wondev-woman.jsonl");
    let mut checked = 0;
    for game in &games {
        let seed = game.seed.expect("seeded");
        let params = super::trace::params_from_json(&game.params).expect("params");
        let mut play = super::trace::Play { state: setup::new_game(seed, &params) };
        let (size, units) = (play.state.size, params.league.units_per_player());
        let init = game.setup.init_input_of(0).expect("init_input");
        assert_eq!(protocol::parse_init(init), Ok((size, units)));
        crate::trace::walk_trace(game, &mut play, |play, moment, texts| {
            let context = format!("seed {seed}, turn {moment}");
            for text in texts {
                let view = protocol::parse_turn(text, size, units)
                    .unwrap_or_else(|e| panic!("{context}: {e}"));
                assert_eq!(protocol::render_view(&view), text, "{context}");
            }
            checked += usize::from(check_view_round_trip(&play.state, &context));
        });
    }
    assert!(games.len() > 40 && checked > 1000, "{} games, {checked} views", games.len());
}
