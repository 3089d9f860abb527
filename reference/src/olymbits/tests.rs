//! Unit tests: one per rule (in the rules doc's order) and one named after each item of the
//! rules doc's pitfalls section (§14).

use super::protocol::*;
use super::rules::*;
use super::setup::*;
use super::state::*;
use super::trace::{inputs_from_lines, state_json};
use crate::sha1prng::Sha1Prng;
use sha1::{Digest, Sha1};

use Action::{Down, Left, Right, Up};

fn top(seed: i64) -> State {
    new_game(seed, &Params::default()).expect("non-zero seed")
}

fn hurdles(state: &mut State, g: usize) -> &mut HurdleRace {
    match &mut state.games[g].run {
        Run::Hurdles(h) => h,
        other => panic!("game {g} is {:?}", other.kind()),
    }
}

fn archery(state: &mut State) -> &mut Archery {
    match &mut state.games[1].run {
        Run::Archery(a) => a,
        _ => panic!("not archery"),
    }
}

fn skating(state: &mut State) -> &mut Skating {
    match &mut state.games[2].run {
        Run::Skating(s) => s,
        _ => panic!("not skating"),
    }
}

fn diving(state: &mut State) -> &mut Diving {
    match &mut state.games[3].run {
        Run::Diving(d) => d,
        _ => panic!("not diving"),
    }
}

fn all(a: Action) -> [PlayerInput; 3] {
    [PlayerInput::Action(a), PlayerInput::Action(a), PlayerInput::Action(a)]
}

fn acts(a: [Action; 3]) -> [PlayerInput; 3] {
    a.map(PlayerInput::Action)
}

fn track(text: &str) -> Vec<u8> {
    assert_eq!(text.len(), 30);
    text.as_bytes().to_vec()
}

fn race(map: &str) -> HurdleRace {
    HurdleRace {
        map: track(map),
        positions: [0; 3],
        stun_timers: [0; 3],
        dead: [false; 3],
        finished: [-1; 3],
        rank: 0,
    }
}

// §3 Randomness ---------------------------------------------------------------------------

#[test]
fn setup_seed_1_matches_the_rules_doc_vector() {
    let mut s = top(1);
    assert_eq!(hurdles(&mut s, 0).map, track("...#...#...#...#...#....#....."));
    let a = archery(&mut s).clone();
    assert_eq!(a.wind.iter().map(|w| w.to_string()).collect::<String>(), "1618447547991");
    assert_eq!(a.cursors, [(-6, 9); 3]);
    assert_eq!(skating(&mut s).directions, [Right, Down, Left, Up]);
    let goal: String = diving(&mut s).goal.iter().map(|a| a.letter()).collect();
    assert_eq!(goal, "DRLDDRLDRDDLRL");
    assert_eq!(s.rng.bytes_drawn(), 204);
}

#[test]
fn setup_seed_minus_1_matches_the_rules_doc_vector() {
    let mut s = top(-1);
    assert_eq!(hurdles(&mut s, 0).map, track("...#...#...#...#.............."));
    let a = archery(&mut s).clone();
    assert_eq!(a.wind.iter().map(|w| w.to_string()).collect::<String>(), "32324433412132");
    assert_eq!(a.cursors, [(-9, -7); 3]);
    assert_eq!(skating(&mut s).directions, [Left, Down, Right, Up]);
    let goal: String = diving(&mut s).goal.iter().map(|a| a.letter()).collect();
    assert_eq!(goal, "UDRRRLLRLLUDDD");
    assert_eq!(s.rng.bytes_drawn(), 210);
}

#[test]
fn seed_zero_is_refused() {
    assert_eq!(new_game(0, &Params::default()), Err(SetupError::SeedZero));
    assert!(SetupError::SeedZero.to_string().contains("seed 0"));
}

#[test]
fn setup_byte_counts_follow_the_draw_budget() {
    // §3.4: hurdles 8 + h, archery 14 + 8 * rounds, skating 12, diving 4 + 4 * length.
    for seed in [1i64, -1, 7, 123456789, i64::MIN, i64::MAX] {
        let mut s = top(seed);
        let h = hurdles(&mut s, 0).map.iter().filter(|c| **c == b'#').count() as u64;
        let rounds = archery(&mut s).wind.len() as u64;
        let length = diving(&mut s).goal.len() as u64;
        // Truncation can erase hurdles, so `h` is only a lower bound of the drawn count.
        let min = 8 + h + 14 + 8 * rounds + 12 + 4 + 4 * length;
        let drawn = s.rng.bytes_drawn();
        assert!(drawn >= min && drawn <= min + 6, "seed {seed}: {drawn} vs {min}");
    }
}

// §4 Hurdle Race --------------------------------------------------------------------------

#[test]
fn hurdle_track_is_cut_to_29_cells_and_closed_with_a_dot() {
    // start 7, six long gaps: 7 + 30 = 37 cells before the cut.
    let map = hurdle_track(4, 3, || true);
    assert_eq!(map.len(), 30);
    assert_eq!(map, track(".......#....#....#....#....#.."));
    // A hurdle drawn on cell 29 is erased.
    let map = hurdle_track(1, 3, || true);
    assert_eq!(map[29], b'.');
}

#[test]
fn hurdle_tracks_are_the_251_of_appendix_a() {
    let tracks = hurdle_tracks();
    assert_eq!(tracks.len(), 251);
    assert_eq!(tracks.iter().map(|(_, w)| w).sum::<u32>(), 1280);
    let joined: Vec<&str> = tracks.iter().map(|(t, _)| t.as_str()).collect();
    let digest: String =
        Sha1::digest(joined.join("\n").as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(digest, "fbe6429bbe074bd96e4a5d8214dfe118284d8121");
    let count = |w: u32| tracks.iter().filter(|(_, x)| *x == w).count();
    assert_eq!([count(16), count(8), count(6), count(4), count(2)], [20, 57, 15, 48, 111]);
    let by_hurdles = |n: usize| -> u32 {
        tracks.iter().filter(|(t, _)| t.matches('#').count() == n).map(|(_, w)| w).sum()
    };
    assert_eq!([by_hurdles(3), by_hurdles(4), by_hurdles(5), by_hurdles(6)], [320, 320, 418, 222]);
    // Appendix A spot checks: a weight-16 and a weight-2 track.
    assert!(tracks.contains(&("...#...#...#..................".to_string(), 16)));
    assert!(tracks.contains(&(".......#....#...#...#...#...#.".to_string(), 2)));
}

#[test]
fn hurdle_moves_are_1_2_2_3() {
    let mut h = race("..............................");
    h.tick(&[Some(Left), Some(Down), Some(Right)]);
    assert_eq!(h.positions, [1, 2, 3]);
    h.tick(&[Some(Up), None, Some(Up)]);
    assert_eq!(h.positions, [3, 2, 5]);
    assert_eq!(h.dead, [false, true, false]);
}

#[test]
fn hurdle_collision_stops_on_the_hurdle_and_stuns_two_ticks() {
    let mut h = race("..#...........................");
    h.tick(&[Some(Right), Some(Down), Some(Left)]);
    assert_eq!(h.positions, [2, 2, 1]);
    assert_eq!(h.stun_timers, [2, 2, 0]);
    h.tick(&[Some(Right); 3]);
    assert_eq!(h.positions[0], 2);
    assert_eq!(h.stun_timers[0], 1);
    h.tick(&[Some(Right); 3]);
    assert_eq!((h.positions[0], h.stun_timers[0]), (2, 0));
    h.tick(&[Some(Right); 3]);
    assert_eq!(h.positions[0], 5, "moves again on the third tick after the collision");
}

#[test]
fn hurdle_run_ends_on_a_finish_and_ranks_by_position() {
    let mut h = race("..............................");
    h.positions = [27, 28, 20];
    h.tick(&[Some(Right), Some(Left), Some(Right)]);
    assert_eq!(h.positions, [29, 29, 23]);
    assert_eq!(h.finished, [0, 0, -1]);
    assert_eq!(h.rank, 2);
    assert!(h.is_run_over());
    assert_eq!(ranks(h.scores(), [true; 3]), [0, 0, 2]);
}

#[test]
fn hurdle_run_ends_when_two_players_are_dead() {
    let mut h = race("..............................");
    h.tick(&[Some(Left), None, None]);
    assert!(h.is_run_over());
    assert_eq!(ranks(h.scores(), [true, false, false]), [0, 2, 2]);
}

// §5 Archery ------------------------------------------------------------------------------

#[test]
fn wind_table_is_the_running_sum_of_normalised_weights() {
    let total: f64 = WIND_WEIGHTS.iter().sum();
    let b = 1.0 / total;
    let mut c = 0.0;
    for (v, w) in WIND_WEIGHTS.iter().enumerate() {
        c += w * b;
        assert_eq!(c.to_bits(), WIND_CUMULATIVE_BITS[v], "C[{v}]");
    }
    assert_eq!(wind_from_double(0.0), 0);
    assert_eq!(wind_from_double(1e-300), 1);
    assert_eq!(wind_from_double(f64::from_bits(WIND_CUMULATIVE_BITS[3])), 3);
    assert_eq!(wind_from_double(0.9999999999999999), 9);
}

#[test]
fn archery_moves_by_the_wind_and_uses_it_up() {
    let mut a = Archery { cursors: [(0, 0); 3], wind: vec![3, 9], dead: [false; 3] };
    a.tick(&[Some(Up), Some(Right), None]);
    assert_eq!(a.cursors, [(0, -3), (3, 0), (0, 0)]);
    assert_eq!(a.wind, vec![9]);
    assert!(!a.is_run_over());
    a.tick(&[Some(Down), Some(Left), None]);
    assert!(a.is_run_over());
    assert_eq!(a.cursors, [(0, 6), (-6, 0), (0, 0)]);
}

#[test]
fn archery_dead_scores_below_every_live_score() {
    let a =
        Archery { cursors: [(20, 20), (0, 0), (0, 0)], wind: vec![], dead: [false, false, true] };
    let s = a.scores();
    assert_eq!(s[0], -800.0);
    assert_eq!(s[2], -f64::MAX);
    assert_eq!(ranks(s, [true; 3]), [1, 0, 2]);
}

// §6 Skating ------------------------------------------------------------------------------

fn rink(directions: [Action; 4]) -> Skating {
    Skating { positions: [0; 3], risk: [0; 3], dead: [false; 3], directions, timer: 15 }
}

#[test]
fn skating_moves_by_risk_order_index() {
    let mut rng = Sha1Prng::new(5);
    let mut s = rink([Up, Down, Left, Right]);
    s.positions = [0, 10, 20];
    // Index 0: 1 space, risk −1 (floored at 0); index 3: 3 spaces, risk +2.
    s.tick(&[Some(Up), Some(Right), Some(Left)], &mut rng);
    assert_eq!(s.positions, [1, 13, 22]);
    assert_eq!(s.risk, [0, 2, 1]);
    assert_eq!(s.timer, 14);
}

#[test]
fn skating_stun_is_minus_2_then_minus_1_then_0() {
    let mut rng = Sha1Prng::new(5);
    let mut s = rink([Up, Down, Left, Right]);
    s.positions = [0, 1, 2];
    s.risk = [4, 0, 0];
    s.tick(&[Some(Right), Some(Up), Some(Up)], &mut rng);
    assert_eq!(s.risk[0], -2, "4 + 2 = 6 ≥ 5 without any collision");
    let dirs = s.directions;
    s.tick(&[Some(dirs[3]); 3], &mut rng);
    assert_eq!((s.positions[0], s.risk[0]), (3, -1));
    let dirs = s.directions;
    s.tick(&[Some(dirs[3]); 3], &mut rng);
    assert_eq!((s.positions[0], s.risk[0]), (3, 0));
}

#[test]
fn skating_run_ends_after_15_ticks_with_a_shuffle_each() {
    let mut rng = Sha1Prng::new(5);
    let mut s = rink([Up, Down, Left, Right]);
    for _ in 0..15 {
        assert!(!s.is_run_over());
        s.tick(&[Some(Up); 3], &mut rng);
    }
    assert!(s.is_run_over());
    assert_eq!(rng.bytes_drawn(), 15 * 12);
}

// §7 Diving -------------------------------------------------------------------------------

#[test]
fn diving_combo_adds_up_and_a_miss_resets_it_to_zero() {
    let mut d =
        Diving { goal: vec![Up, Up, Up, Down], points: [0; 3], combo: [0; 3], dead: [false; 3] };
    d.tick(&[Some(Up), Some(Up), Some(Down)]);
    d.tick(&[Some(Up), Some(Left), Some(Up)]);
    d.tick(&[Some(Up), Some(Up), Some(Up)]);
    assert_eq!(d.points, [6, 2, 3]);
    assert_eq!(d.combo, [3, 1, 2]);
    d.tick(&[Some(Up), Some(Down), None]);
    assert_eq!(d.combo, [0, 2, 2]);
    assert_eq!(d.points, [6, 4, 3]);
    assert!(d.is_run_over());
    assert_eq!(ranks(d.scores(), [true; 3]), [0, 1, 2]);
}

// §8 Turn structure -----------------------------------------------------------------------

#[test]
fn ranks_are_competition_style_with_inactive_forced_to_bronze() {
    assert_eq!(ranks([3.0, 2.0, 1.0], [true; 3]), [0, 1, 2]);
    assert_eq!(ranks([3.0, 3.0, 1.0], [true; 3]), [0, 0, 2]);
    assert_eq!(ranks([3.0, 1.0, 1.0], [true; 3]), [0, 1, 1]);
    assert_eq!(ranks([1.0, 1.0, 1.0], [true; 3]), [0, 0, 0]);
    assert_eq!(ranks([-1.0, 5.0, 5.0], [false, true, true]), [2, 0, 0]);
    // The forced bronze does not re-rank the others (unreachable in play: an inactive player
    // is always dead, hence lowest, when a run ends).
    assert_eq!(ranks([9.0, 1.0, 1.0], [false, true, true]), [2, 1, 1]);
}

#[test]
fn medals_are_awarded_when_a_run_ends_with_summary_lines() {
    let mut s = top(1);
    hurdles(&mut s, 0).positions = [28, 27, 0];
    play_turn(&mut s, &acts([Left, Left, Left])).unwrap();
    assert!(s.games[0].should_reset);
    assert_eq!(s.medals[0][0], [1, 0, 0]);
    assert_eq!(s.medals[1][0], [0, 1, 0]);
    assert_eq!(s.medals[2][0], [0, 0, 1]);
    assert_eq!(
        s.events,
        vec![
            "Game over: Hurdle Race",
            "$0 earns a GOLD medal",
            "$1 earns a SILVER medal",
            "$2 earns a BRONZE medal"
        ]
    );
}

#[test]
fn final_scores_are_points_or_minus_one() {
    let mut s = top(3);
    s.medals[0] = vec![[1, 1, 0], [2, 0, 0], [0, 1, 0], [1, 0, 1]];
    s.medals[1] = vec![[5, 0, 0], [5, 0, 0], [5, 0, 0], [5, 0, 0]];
    s.active[1] = false;
    assert_eq!(final_scores(&s), [4 * 6 * 3, -1, 0]);
}

#[test]
fn the_game_ends_after_turn_100() {
    let mut s = top(11);
    for _ in 0..100 {
        play_turn(&mut s, &all(Right)).unwrap();
    }
    assert_eq!(s.turn, 100);
    let o = outcome(&s).unwrap();
    assert_eq!(o.reason, "turn_limit");
    assert_eq!(o.ranks, vec![1, 1, 1]);
}

// §10 Input protocol ----------------------------------------------------------------------

#[test]
fn first_input_matches_the_rules_doc_example() {
    let s = top(1);
    assert_eq!(
        render_first_input(&s, 2),
        "2\n4\n0 0 0 0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0 0 0 0\n\
         ...#...#...#...#...#....#..... 0 0 0 0 0 0 0\n1618447547991 -6 9 -6 9 -6 9 0\n\
         RDLU 0 0 0 0 0 0 15\nDRLDDRLDRDDLRL 0 0 0 0 0 0 0"
    );
}

#[test]
fn league_1_has_one_hurdle_line_and_four_integer_score_lines() {
    let s = new_game(5, &Params { league: League::Wood1 }).unwrap();
    let text = render_first_input(&s, 0);
    let lines: Vec<&str> = text.split('\n').collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[1], "1");
    assert_eq!(lines[2], "0 0 0 0");
    let (init, view) = parse_first_input(&text).unwrap();
    assert_eq!(init.nb_games, 1);
    assert_eq!(view, TurnView::from_state(&s));
}

#[test]
fn league_2_plays_four_independent_hurdle_races() {
    let s = new_game(5, &Params { league: League::Wood2 }).unwrap();
    assert_eq!(s.games.len(), 4);
    assert!(s.games.iter().all(|g| g.run.kind() == MiniGameKind::Hurdles));
    let bytes: u64 = s
        .games
        .iter()
        .map(|g| match &g.run {
            Run::Hurdles(h) => 8 + h.map.iter().filter(|c| **c == b'#').count() as u64,
            _ => 0,
        })
        .sum();
    assert!(s.rng.bytes_drawn() >= bytes);
}

#[test]
fn turn_input_parse_errors_say_where() {
    let e = parse_turn("0 0 0 0\n0 0 0 0\n0 x 0 0\n.... 0 0 0 0 0 0 0", 1).unwrap_err();
    assert_eq!((e.line, e.column, e.found.as_str()), (3, 3, "x"));
    let e = parse_turn("0 0 0 0\n0 0 0 0", 1).unwrap_err();
    assert_eq!(e.line, 3);
    let e = parse_first_input("7\n4").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(parse_first_input("").is_err());
}

// §11 Output ------------------------------------------------------------------------------

#[test]
fn valid_lines_in_any_ascii_case_with_a_message() {
    for (line, action, message) in [
        ("UP", Up, None),
        ("up", Up, None),
        ("dOwN", Down, None),
        ("Left", Left, None),
        ("rIgHt", Right, None),
        ("UP hello", Up, Some("hello")),
        ("LEFT RIGHT", Left, Some("RIGHT")),
        ("Down \u{a0}msg", Down, Some("\u{a0}msg")),
        ("UP ", Up, None),
        ("UP\t", Up, None),
        ("UP\x0B", Up, None),
        ("left\x0C", Left, None),
        ("RIGHT  a b  ", Right, Some("a b  ")),
    ] {
        let c = parse_line(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        assert_eq!(c.action, action, "{line:?}");
        if message.is_some() {
            assert_eq!(c.message.as_deref(), message, "{line:?}");
        }
    }
}

#[test]
fn invalid_lines_say_what_and_where() {
    for (line, column) in [
        ("", 1),
        (" UP", 1),
        ("UP2", 3),
        ("UPLEFT", 3),
        ("RIGHT!", 6),
        ("DOWN;", 5),
        ("RIGHT&gt;", 6),
        ("WAIT", 1),
        ("JUMP", 1),
        ("MOVE UP", 1),
        ("U", 1),
        ("2", 1),
        ("ＵＰ", 1),
        ("RıGHT", 1),
        ("UP\u{a0}", 3),
        ("DOWN\x1c", 5),
        ("UP hi\u{2028}there", 6),
        ("LEFT \u{2029}", 6),
        ("UP x\u{85}", 5),
        ("UP a\nb", 5),
    ] {
        let e = parse_line(line).expect_err(line);
        assert_eq!(e.column, column, "{line:?}: {e}");
        assert_eq!(e.line, 1);
    }
}

#[test]
fn an_invalid_line_deactivates_at_once() {
    let mut s = top(1);
    let inputs = inputs_from_lines(&s, &[Some("UP2".into()), Some("UP".into()), None]);
    play_turn(&mut s, &inputs).unwrap();
    assert_eq!(s.active, [false, true, false]);
    assert_eq!(hurdles(&mut s, 0).positions, [0, 2, 0], "no move this turn");
    assert_eq!(hurdles(&mut s, 0).dead, [true, false, true]);
    assert!(s.is_over());
    assert_eq!(outcome(&s).unwrap().reason, "fewer_than_two_active_players");
    assert_eq!(
        s.events,
        vec![
            "Bad command: Invalid Input: Expected UP | DOWN | LEFT | RIGHT but got 'UP2'",
            "$2 has not provided 1 lines in time",
            "Game over: Hurdle Race",
            "$0 earns a BRONZE medal",
            "$1 earns a GOLD medal",
            "$2 earns a BRONZE medal",
            "Deactivated $0: Invalid Input: Expected UP | DOWN | LEFT | RIGHT but got 'UP2'",
            "Deactivated $2: Timeout!",
        ]
    );
}

// §14 Pitfalls ----------------------------------------------------------------------------

#[test]
fn pitfall_01_the_prng_is_sha1prng_seeded_with_little_endian_bytes() {
    let mut a = Sha1Prng::new(1);
    let mut b = Sha1Prng::new(1i64.swap_bytes());
    assert_ne!(a.next_int(), b.next_int(), "byte order matters");
    let mut java = crate::java_random::JavaRandom::new(1);
    let mut s = top(1);
    // java.util.Random(1) would draw another first track.
    let start = java.next_int_bounded(5).unwrap();
    let count = java.next_int_bounded(4).unwrap();
    let java_track = hurdle_track(start, count, || java.next_int_bounded(2) == Some(1));
    assert_ne!(hurdles(&mut s, 0).map, java_track);
    assert_eq!(new_game(0, &Params::default()), Err(SetupError::SeedZero));
}

#[test]
fn pitfall_02_skating_draws_every_turn_and_shuffles_the_current_order() {
    let mut s = top(1);
    let before = s.rng.bytes_drawn();
    let order_before = skating(&mut s).directions;
    let mut expected_rng = s.rng.clone();
    let mut expected_order = order_before;
    expected_rng.shuffle(&mut expected_order);
    play_turn(&mut s, &all(Left)).unwrap();
    assert_eq!(s.rng.bytes_drawn() - before, 12);
    assert_eq!(skating(&mut s).directions, expected_order);
    // Two shuffles between the last tick of a run and the first of the next.
    skating(&mut s).timer = 1;
    let b = s.rng.bytes_drawn();
    play_turn(&mut s, &all(Left)).unwrap();
    assert!(s.games[2].should_reset);
    play_turn(&mut s, &all(Left)).unwrap();
    assert!(s.games[2].resetting);
    assert_eq!(s.rng.bytes_drawn() - b, 24);
}

#[test]
fn pitfall_03_draws_follow_mini_game_index_order() {
    let mut s = top(9);
    s.games[0].should_reset = true;
    s.games[3].should_reset = true;
    let mut rng = s.rng.clone();
    let mut h = hurdles(&mut s, 0).clone();
    let mut sk = skating(&mut s).clone();
    let mut d = diving(&mut s).clone();
    h.reset(&mut rng);
    sk.tick(&[Some(Up); 3], &mut rng);
    d.reset(&mut rng);
    play_turn(&mut s, &all(Up)).unwrap();
    assert_eq!(hurdles(&mut s, 0).map, h.map);
    assert_eq!(skating(&mut s).directions, sk.directions);
    assert_eq!(diving(&mut s).goal, d.goal);
    assert_eq!(s.rng, rng);
}

#[test]
fn pitfall_04_the_reset_turn_ignores_actions_and_shows_game_over() {
    let mut s = top(1);
    hurdles(&mut s, 0).positions = [28, 0, 0];
    play_turn(&mut s, &all(Left)).unwrap();
    assert!(s.games[0].should_reset);
    let text = render_turn_input(&s);
    assert_eq!(text.split('\n').nth(3).unwrap(), "GAME_OVER 29 1 1 0 0 0 0");
    play_turn(&mut s, &all(Right)).unwrap();
    assert!(s.games[0].resetting && !s.games[0].should_reset);
    assert_eq!(hurdles(&mut s, 0).positions, [0, 0, 0], "actions ignored on the reset turn");
    play_turn(&mut s, &all(Left)).unwrap();
    assert_eq!(hurdles(&mut s, 0).positions, [1, 1, 1]);
}

#[test]
fn pitfall_05_hurdles_first_finish_ends_up_protects_one_cell_position_capped() {
    // UP over a hurdle on the first cell it enters, but not the second.
    let mut h = race(".#............................");
    h.tick(&[Some(Up), None, None]);
    assert_eq!((h.positions[0], h.stun_timers[0]), (2, 0));
    let mut h = race("..#...........................");
    h.tick(&[Some(Up), Some(Up), Some(Up)]);
    assert_eq!((h.positions[0], h.stun_timers[0]), (2, 2));
    // Capped at 29; two on 29 share gold, the third gets bronze.
    let mut h = race("..............................");
    h.positions = [28, 28, 5];
    h.tick(&[Some(Right), Some(Down), Some(Right)]);
    assert_eq!(h.positions, [29, 29, 8]);
    assert!(h.is_run_over());
    assert_eq!(ranks(h.scores(), [true; 3]), [0, 0, 2]);
    // The last cell is never a hurdle, even when the draw put one there.
    for (t, _) in hurdle_tracks() {
        assert!(t.ends_with('.'));
    }
}

#[test]
fn pitfall_06_skating_collisions_use_all_positions_mod_10_and_unstunned_players() {
    let mut rng = Sha1Prng::new(3);
    let mut s = rink([Up, Down, Left, Right]);
    // Player 0 is stunned at 12; player 1 comes out of stun at 2: same lap cell → +2.
    s.positions = [12, 2, 30];
    s.risk = [-2, -1, 4];
    s.dead = [false, false, true];
    s.tick(&[Some(Up), Some(Up), None], &mut rng);
    assert_eq!(s.risk[1], 2, "out of stun, collision-checked against a stunned player");
    assert_eq!(s.risk[0], -1);
    // The dead player at 30 ≡ 0 does not collide here; risk ≥ 5 applies even without collision.
    assert_eq!(s.risk[2], 4);
}

#[test]
fn pitfall_07_archery_clamps_each_coordinate_separately() {
    let mut a =
        Archery { cursors: [(18, -19), (0, 0), (-20, 20)], wind: vec![9], dead: [false; 3] };
    a.tick(&[Some(Right), Some(Down), Some(Left)]);
    assert_eq!(a.cursors, [(20, -19), (0, 9), (-20, 20)]);
}

#[test]
fn pitfall_08_ties_are_competition_style() {
    let mut s = top(2);
    diving(&mut s).goal = vec![Up];
    play_turn(&mut s, &acts([Up, Up, Down])).unwrap();
    let diving_medals: Vec<[u32; 3]> = (0..3).map(|i| s.medals[i][3]).collect();
    assert_eq!(diving_medals, vec![[1, 0, 0], [1, 0, 0], [0, 0, 1]]);
}

#[test]
fn pitfall_09_dead_flags_persist_and_inactive_players_get_bronze() {
    let mut s = top(4);
    let inputs =
        inputs_from_lines(&s, &[Some("UP".into()), Some("UP".into()), Some("nope".into())]);
    play_turn(&mut s, &inputs).unwrap();
    play_turn(&mut s, &all(Up)).unwrap();
    assert!(hurdles(&mut s, 0).dead[2]);
    // Finish the diving run: the inactive player gets bronze even if its points were highest.
    diving(&mut s).points = [0, 0, 50];
    diving(&mut s).goal = vec![Up];
    play_turn(&mut s, &all(Up)).unwrap();
    assert_eq!(s.medals[2][3], [0, 0, 1]);
    play_turn(&mut s, &all(Up)).unwrap();
    assert!(s.games[3].resetting);
    assert!(diving(&mut s).dead[2], "dead survives the reset");
    assert_eq!(final_scores(&s)[2], -1);
}

#[test]
fn pitfall_10_the_game_ends_right_after_the_second_deactivation() {
    let mut s = top(4);
    play_turn(&mut s, &[PlayerInput::Timeout, PlayerInput::Action(Up), PlayerInput::Action(Up)])
        .unwrap();
    assert!(!s.is_over());
    let bytes = s.rng.bytes_drawn();
    play_turn(&mut s, &[PlayerInput::NotAsked, PlayerInput::Timeout, PlayerInput::Action(Up)])
        .unwrap();
    assert!(s.is_over());
    assert_eq!(s.turn, 2);
    assert!(s.rng.bytes_drawn() > bytes, "the turn was still resolved");
    assert_eq!(play_turn(&mut s, &all(Up)), Err(crate::game::StepError::GameOver));
    let o = outcome(&s).unwrap();
    assert_eq!(o.reason, "fewer_than_two_active_players");
    assert_eq!(o.scores[..2], [-1, -1]);
    assert_eq!(o.ranks, vec![2, 2, 1]);
}

#[test]
fn pitfall_11_output_follows_java_regex_semantics() {
    assert!(parse_line("rIgHt").is_ok());
    assert!(parse_line("UP hello there").is_ok());
    assert!(parse_line(" UP").is_err());
    for line in ["UP\u{a0}", "RıGHT", "DOWN\x1c", "UP hi\u{2028}there"] {
        assert!(parse_line(line).is_err(), "{line:?} must be rejected like Java does");
    }
}

#[test]
fn pitfall_12_points_are_a_product() {
    assert_eq!(points(&[[1, 0, 5], [0, 1, 0], [2, 2, 0], [0, 0, 9]]), 0);
    assert_eq!(points(&[[1, 0, 5], [0, 1, 0], [2, 2, 0], [0, 1, 9]]), 3 * 8);
    assert_eq!(points(&[[0, 3, 0]]), 3);
}

#[test]
fn pitfall_13_the_reason_unescapes_lt_gt_but_the_summary_does_not() {
    let mut s = top(5);
    let inputs =
        inputs_from_lines(&s, &[Some("&lt;UP&gt;".into()), Some("UP".into()), Some("UP".into())]);
    play_turn(&mut s, &inputs).unwrap();
    assert_eq!(
        s.events,
        vec![
            "Bad command: Invalid Input: Expected UP | DOWN | LEFT | RIGHT but got '&lt;UP&gt;'",
            "Deactivated $0: Invalid Input: Expected UP | DOWN | LEFT | RIGHT but got '<UP>'",
        ]
    );
    assert_eq!(deactivation_reason("&amp;lt;&gt;gt;"), invalid_input_message("&amp;lt;>gt;"));
}

#[test]
fn pitfall_14_deactivated_events_come_after_the_medal_lines() {
    let mut s = top(6);
    diving(&mut s).goal = vec![Up];
    let inputs = inputs_from_lines(&s, &[Some("UP".into()), None, Some("UP".into())]);
    play_turn(&mut s, &inputs).unwrap();
    assert_eq!(s.events.first().unwrap(), "$1 has not provided 1 lines in time");
    assert_eq!(s.events.last().unwrap(), "Deactivated $1: Timeout!");
    assert!(s.events[s.events.len() - 2].starts_with("$2 earns a "));
    assert!(s.events.contains(&"$1 earns a BRONZE medal".to_string()));
}

// §15 Trace schema ------------------------------------------------------------------------

#[test]
fn trace_state_has_the_schema_keys() {
    let v = state_json(&top(1));
    assert_eq!(v["rng_bytes"], 204);
    assert_eq!(v["games"][1]["cursors"][0], serde_json::json!([-6, 9]));
    assert_eq!(v["games"][2]["order"], "RDLU");
    assert_eq!(v["games"][3]["type"], "diving");
}

// ---------------------------------------------------------------------------------------------
// §10 both ways: render the inputs from the true state, parse them, rebuild the state
// ---------------------------------------------------------------------------------------------

/// The round trip at one turn: every player's first input and the turn input render to texts
/// that parse back to the state's view; the league is read back from the first view; and the
/// state rebuilt from the view (`protocol::state_from_view`, the deactivated players given) is
/// the true state but for the generator, the events, the runs a `GAME_OVER` line hides and the
/// `dead` flags a deactivated player gets at each mini-game's next tick.
/// Returns the rebuilt state (the next turn's `previous`).
fn check_inputs_round_trip(truth: &State, previous: Option<&State>, context: &str) -> State {
    let view = TurnView::from_state(truth);
    let kinds = truth.league.mini_games();
    for p in 0..PLAYER_COUNT {
        let first = parse_first_input(&render_first_input(truth, p))
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        let init = InitView { player: p, nb_games: kinds.len() };
        assert_eq!(first, (init, view.clone()), "{context}");
        assert_eq!(parse_init(&init.render()), Ok(init), "{context}");
    }
    let parsed = parse_turn(&render_turn_input(truth), kinds.len())
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    assert_eq!(parsed, view, "{context}");
    if truth.turn == 0 {
        assert_eq!(mini_games_of_first_view(&parsed), kinds, "{context}");
    }
    let inactive = truth.active.map(|a| !a);
    let rebuilt = state_from_view(&parsed, &kinds, truth.turn, 5, previous, inactive);
    assert_eq!(TurnView::from_state(&rebuilt), view, "{context}: the rebuilt state's view");
    let mut expected = truth.clone();
    expected.rng = rebuilt.rng.clone();
    expected.events = rebuilt.events.clone();
    for (g, game) in expected.games.iter_mut().enumerate() {
        if game.should_reset {
            game.run = rebuilt.games[g].run.clone();
        }
        game.resetting = rebuilt.games[g].resetting;
        // A deactivated player is marked dead by each mini-game at its next tick (§9), which
        // its missing action makes certain; the rebuilt state marks it at once.
        for p in (0..PLAYER_COUNT).filter(|&p| inactive[p]) {
            match &mut game.run {
                Run::Hurdles(h) => h.dead[p] = true,
                Run::Archery(a) => a.dead[p] = true,
                Run::Skating(s) => s.dead[p] = true,
                Run::Diving(d) => d.dead[p] = true,
            }
        }
    }
    assert_eq!(rebuilt, expected, "{context}");
    rebuilt
}

#[test]
fn inputs_round_trip_and_rebuild_the_state_in_random_games() {
    let mut turns = 0;
    for seed in 1..=6i64 {
        for league in [League::Wood1, League::Wood2, League::Top] {
            let mut state = new_game(seed, &Params { league }).expect("seed is not 0");
            let mut chooser = crate::java_random::JavaRandom::new(seed * 7 + 3);
            let mut previous: Option<State> = None;
            let mut before: Option<TurnView> = None;
            // One player stops answering in some games (§11.4): deactivated players too.
            let quitter = (seed % 3) as usize;
            while !state.is_over() {
                let context = format!("seed {seed}, {league:?}, turn {}", state.turn);
                previous = Some(check_inputs_round_trip(&state, previous.as_ref(), &context));
                let view = TurnView::from_state(&state);
                if let Some(before) = &before {
                    let seen = deactivated(before, &view, &state.league.mini_games());
                    for (p, (&seen, &active)) in seen.iter().zip(&state.active).enumerate() {
                        assert!(!seen || !active, "{context}: player {p} is active");
                    }
                }
                before = Some(view);
                let inputs: [PlayerInput; 3] = std::array::from_fn(|p| {
                    let quits = seed % 2 == 0 && p == quitter && state.turn >= 40;
                    if !state.active[p] {
                        PlayerInput::NotAsked
                    } else if quits {
                        PlayerInput::Timeout
                    } else {
                        let pick = chooser.next_int_bounded(4).unwrap_or(0) as usize;
                        PlayerInput::Action(Action::ALL[pick])
                    }
                });
                play_turn(&mut state, &inputs).expect("the game is running");
                turns += 1;
            }
        }
    }
    assert!(turns > 1000, "only {turns} turns");
}

#[test]
fn referee_inputs_of_the_traces_parse_and_the_engine_inputs_round_trip() {
    let games = crate::trace::shipped_traces("olymbits.jsonl");
    let mut checked = 0;
    for game in &games {
        let seed = game.seed.expect("seeded");
        let params = super::trace::params_from_json(&game.params).expect("params");
        let mut play = super::trace::Play::new(new_game(seed, &params).expect("seed"));
        let nb_games = play.state.nb_games();
        let mut previous = None;
        crate::trace::walk_trace(game, &mut play, |play, moment, texts| {
            let context = format!("seed {seed}, turn {moment}");
            for text in texts {
                let view = if moment == 0 {
                    let (init, view) = parse_first_input(text).unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(format!("{}\n{}", init.render(), view.render()), text, "{context}");
                    view
                } else {
                    let view = parse_turn(text, nb_games).unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(view.render(), text, "{context}");
                    view
                };
                assert_eq!(view, TurnView::from_state(&play.state), "{context}");
            }
            if !play.state.is_over() {
                previous = Some(check_inputs_round_trip(&play.state, previous.as_ref(), &context));
                checked += 1;
            }
        });
    }
    assert!(games.len() > 40 && checked > 1000, "{} games, {checked} turns", games.len());
}

#[test]
fn init_lines_parse_alone_and_say_where_they_fail() {
    assert_eq!(parse_init("2\n4"), Ok(InitView { player: 2, nb_games: 4 }));
    assert_eq!(parse_init("0\n1"), Ok(InitView { player: 0, nb_games: 1 }));
    let e = parse_init("3\n4").unwrap_err();
    assert_eq!((e.line, e.found.as_str()), (1, "3"));
    let e = parse_init("1\n2").unwrap_err();
    assert_eq!((e.line, e.found.as_str()), (2, "2"));
    let e = parse_init("1").unwrap_err();
    assert_eq!(e.line, 2);
    let e = parse_init("1\n4\n0 0 0").unwrap_err();
    assert_eq!((e.line, e.found.as_str()), (3, "0 0 0"));
}
