//! Rule tests (one per pitfall of rules doc §10, plus §5–§9 details) and quickcheck properties
//! over positions reached by random playouts.

use super::board::{all_walls, transform_wall, Wall};
use super::protocol::{parse_line, parse_turn, placed_wall, views_after, View};
use super::referee::play_turn;
use super::rules::{
    apply_move, check_wall, claim_bonus, legal_walls, scores, Event, Illegal, InvalidReason,
};
use super::state::{Action, End, State};
use super::trace::{trace_outcome, Play};
use super::zones::{closed_zones, zones_closed_by, Zone};
use super::{Params, Zuniq};
use crate::game::{Game, StepError, TracePlay};
use crate::java_random::JavaRandom;
use quickcheck::{Arbitrary, Gen, QuickCheck};
use std::collections::BTreeSet;

fn wall(name: &str) -> Wall {
    super::protocol::parse_wall(name).unwrap()
}

fn walls(names: &str) -> BTreeSet<Wall> {
    names.split_whitespace().map(wall).collect()
}

/// A state with these walls placed, `ply` = their number (the referee's view of a position).
fn position(names: &str) -> State {
    let mut state = State::new();
    state.walls = walls(names);
    state.ply = state.walls.len() as u32;
    state
}

/// Plays lines through the referee, panicking (in the test) if a turn is refused.
fn play(state: &mut State, lines: &[&str]) -> Vec<Vec<Event>> {
    lines.iter().map(|l| play_turn(state, Some(l)).unwrap()).collect()
}

fn sizes(state: &State) -> Vec<usize> {
    state.zones().iter().map(Zone::size).collect()
}

// ---------------------------------------------------------------------------------------------
// §10 pitfalls, one test each.

#[test]
fn pitfall_1_the_board_edge_is_not_a_wall() {
    // The two interior walls of corner cell A1 do not close it: the edge is open.
    let state = position("A2v B1h");
    assert!(state.zones().is_empty());
    // Its border walls are ordinary moves; with both, A1 is a closed zone of size 1.
    assert!(legal_walls(&state).contains(&wall("A1h")));
    let mut state = position("A2v B1h A1h");
    play(&mut state, &["A1v"]);
    assert_eq!(sizes(&state), vec![1]);
}

#[test]
fn pitfall_2_uniqueness_is_global_over_the_game() {
    // White closes A1 (size 1); later Black may not close E5 (size 1) although that zone is
    // closed by another player and another move.
    let mut state = State::new();
    play(&mut state, &["A1h", "A1v", "A2v", "E5h", "F5h", "E5v", "B1h"]);
    assert_eq!(sizes(&state), vec![1]);
    assert_eq!(check_wall(&state.walls, wall("E6v")), Err(Illegal::DuplicateZoneSize(1)));
    assert!(!legal_walls(&state).contains(&wall("E6v")));
    let events = play_turn(&mut state, Some("E6v")).unwrap();
    assert_eq!(events[0].to_string(), "invalid action by player 1: duplicate_zone_size");
    assert_eq!(state.winner, Some(0));
}

#[test]
fn pitfall_3_walls_inside_closed_zones_are_dead() {
    // A1-A2 closed (size 2): A2v lies inside; placing it would create nothing, yet it is illegal.
    let state = position("A1h A2h A1v A3v B1h B2h");
    assert_eq!(sizes(&state), vec![2]);
    assert_eq!(check_wall(&state.walls, wall("A2v")), Err(Illegal::InsideClosedZone));
    assert!(!legal_walls(&state).contains(&wall("A2v")));
    // A ring around a closed zone does not count the inner zone's cells.
    let ring = position("B2h B2v B3v C2h A1h A2h A3h A1v B1v C1v A4v B4v C4v D1h D2h D3h");
    assert_eq!(sizes(&ring), vec![1, 8]);
}

#[test]
fn pitfall_4_the_game_ends_when_the_next_player_has_no_legal_move() {
    // Every game of the traces that ends normally ends with free walls left.
    let mut seen = 0;
    for game in trace_games() {
        let mut state = State::new();
        let mut last_events = vec![];
        for line in &game {
            last_events = play_turn(&mut state, line.as_deref()).unwrap();
        }
        if state.end != Some(End::NoLegalMoves) {
            continue;
        }
        seen += 1;
        let free: Vec<Wall> =
            all_walls().into_iter().filter(|w| !state.walls.contains(w)).collect();
        assert!(!free.is_empty(), "the game ended with free walls left");
        assert!(free.iter().all(|&w| check_wall(&state.walls, w).is_err()));
        let mover = 1 - state.to_move();
        assert_eq!(state.winner, Some(mover), "the last mover wins");
        assert_eq!(
            last_events.last().unwrap(),
            &Event::NoLegalMove { player: state.to_move() },
            "the loser is the player to move"
        );
    }
    assert_eq!(seen, 30, "30 of the 46 traced games end normally");
}

#[test]
fn pitfall_5_claim_bonus_uses_the_global_ply_with_39_and_40_capped_at_10() {
    assert_eq!(claim_bonus(0, None), 0);
    assert_eq!(claim_bonus(0, Some(1)), 10, "(39-1)/2 = 19, capped");
    assert_eq!(claim_bonus(0, Some(19)), 10);
    assert_eq!(claim_bonus(0, Some(25)), 7);
    assert_eq!(claim_bonus(1, Some(38)), 1);
    assert_eq!(claim_bonus(0, Some(39)), 0);
    assert_eq!(claim_bonus(1, Some(40)), 0);
    assert_eq!(claim_bonus(0, Some(41)), 0, "clamped at 0");
    assert_eq!(claim_bonus(1, Some(44)), 0, "clamped at 0");
    // A claimer who loses gets 0 instead of 50.
    let mut state = State::new();
    state.claims = [Some(3), None];
    state.finished = true;
    state.winner = Some(1);
    state.end = Some(End::NoLegalMoves);
    assert_eq!(scores(&state), Some([0, 100]));
    state.claims = [None, Some(14)];
    assert_eq!(scores(&state), Some([50, 110]));
}

#[test]
fn pitfall_6_wall_ranges_are_validated() {
    for line in ["A6h", "F1v", "G1h", "B7v", "A0h", "F6h", "F6v"] {
        let mut state = State::new();
        let events = play_turn(&mut state, Some(line)).unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].to_string(), "invalid action by player 0: malformed", "{line}");
        assert!(state.walls.is_empty());
    }
    for line in ["F5h", "E6v", "A1h", "A1v", "F1h", "E1v", "A6v"] {
        assert!(parse_line(line).is_ok(), "{line}");
    }
}

#[test]
fn pitfall_7_legality_is_recomputed_not_cached() {
    // Sizes used: 3 (A1-A3). E3-E5 would be closed by E6v with size 3: illegal.
    let mut state = position("A1h A2h A3h B1h B2h B3h A1v A4v E3h E4h E5h F3h F4h F5h E3v");
    assert_eq!(sizes(&state), vec![3]);
    assert_eq!(check_wall(&state.walls, wall("E6v")), Err(Illegal::DuplicateZoneSize(3)));
    // E4v cuts E3 off (size 1, new). Now E6v would cut off E4-E5: size 2, legal.
    let events = play(&mut state, &["E4v"]);
    assert_eq!(events[0], vec![Event::ZoneClosed { size: 1 }]);
    assert_eq!(check_wall(&state.walls, wall("E6v")).map(|z| z.map(|z| z.size())), Ok(Some(2)));
    assert!(legal_walls(&state).contains(&wall("E6v")));
}

#[test]
fn pitfall_8_invalid_reasons_are_checked_in_a_fixed_order() {
    // A1 closed (size 1). A2v is placed and borders the zone: occupied, not inside_closed_zone.
    let base = position("A1h A1v A2v B1h");
    let reason = |line: Option<&str>| {
        let mut state = base.clone();
        let events = play_turn(&mut state, line).unwrap();
        assert_eq!(events.len(), 1);
        match &events[0] {
            Event::Invalid { reason, .. } => reason.code(),
            other => panic!("expected an invalid action, got {other}"),
        }
    };
    assert_eq!(reason(None), "timeout");
    assert_eq!(reason(Some("")), "malformed");
    assert_eq!(reason(Some("A2v!!")), "malformed");
    assert_eq!(reason(Some("A2v")), "occupied");
    assert_eq!(reason(Some("A1h!")), "occupied");
    // E5 with three walls: closing it would repeat size 1.
    let mut state = base.clone();
    state.walls.extend(walls("E5h F5h E5v"));
    assert_eq!(check_wall(&state.walls, wall("E6v")), Err(Illegal::DuplicateZoneSize(1)));
    // An occupied wall is reported as occupied even where a dead or duplicate check would fire.
    assert_eq!(check_wall(&state.walls, wall("F5h")), Err(Illegal::Occupied));
    // Dead wall: inside A1-A2 (size 2).
    let dead = position("A1h A2h A1v A3v B1h B2h");
    assert_eq!(check_wall(&dead.walls, wall("A2v")), Err(Illegal::InsideClosedZone));
}

#[test]
fn pitfall_9_a_claim_on_an_invalid_move_is_not_a_claim() {
    let mut state = State::new();
    play(&mut state, &["A1h", "B2v"]);
    let before = state.clone();
    let events = play_turn(&mut state, Some("A1h!")).unwrap();
    assert_eq!(event_strings(&events), vec!["invalid action by player 0: occupied"]);
    assert_eq!(state.claims, [None, None]);
    assert_eq!(state.ply, 2, "the invalid move is not counted");
    assert_eq!(state.walls, before.walls);
    let outcome = trace_outcome(&state).unwrap().to_value();
    assert_eq!(outcome["plies"], 2);
    assert_eq!(outcome["scores"], serde_json::json!([0, 100]));
    assert_eq!(outcome["reason"], "invalid_action");
}

#[test]
fn pitfall_10_event_order_is_claim_then_zone_then_no_legal_move() {
    let mut state = position("A1h A1v A2v");
    let events = play_turn(&mut state, Some("B1h!")).unwrap();
    assert_eq!(
        event_strings(&events),
        vec!["player 1 claims victory at ply 4", "zone closed: size 1"]
    );
    // The end of a game: from the traces, a claim, a zone and the end in one move.
    for game in trace_games() {
        let mut state = State::new();
        for line in &game {
            let events = play_turn(&mut state, line.as_deref()).unwrap();
            let rank = |e: &Event| match e {
                Event::Claim { .. } | Event::RepeatClaim { .. } => 0,
                Event::ZoneClosed { .. } => 1,
                Event::NoLegalMove { .. } => 2,
                Event::Invalid { .. } => 3,
            };
            let ranks: Vec<u8> = events.iter().map(rank).collect();
            let mut sorted = ranks.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(ranks, sorted, "events in order, at most one of each kind");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Other rules.

fn event_strings(events: &[Event]) -> Vec<String> {
    events.iter().map(Event::to_string).collect()
}

/// The action lines of every game of the trace file.
fn trace_games() -> Vec<Vec<Option<String>>> {
    let text = include_str!("../../../tests/traces/zuniq.jsonl");
    crate::trace::parse_jsonl(text)
        .unwrap()
        .into_iter()
        .map(|g| g.turns.into_iter().map(|t| t.actions.into_iter().next().flatten()).collect())
        .collect()
}

#[test]
fn setup_is_the_empty_board_for_every_seed() {
    for seed in [0, 1, -1, 42, 200_013, i64::MAX, i64::MIN] {
        let state = Zuniq::new_game(seed, &Params);
        assert_eq!(state, State::new());
        assert_eq!(legal_walls(&state).len(), 60);
    }
    let json = State::new().to_json();
    assert_eq!(
        json.to_string(),
        r#"{"claims":[null,null],"finished":false,"open_cells":25,"ply":0,"to_move":0,"walls":[],"winner":null,"zones":[]}"#
    );
}

#[test]
fn only_the_first_claim_of_a_player_counts() {
    let mut state = State::new();
    let events = play(&mut state, &["A1h!", "B2h!", "C3h!"]);
    assert_eq!(event_strings(&events[0]), vec!["player 0 claims victory at ply 1"]);
    assert_eq!(event_strings(&events[1]), vec!["player 1 claims victory at ply 2"]);
    assert_eq!(event_strings(&events[2]), vec!["player 0 repeats claim (ignored)"]);
    assert_eq!(state.claims, [Some(1), Some(2)]);
}

#[test]
fn a_timeout_loses_with_zero_and_the_opponent_keeps_its_bonus() {
    let mut state = State::new();
    play(&mut state, &["A1h!"]);
    let events = play_turn(&mut state, None).unwrap();
    assert_eq!(event_strings(&events), vec!["invalid action by player 1: timeout"]);
    assert_eq!(scores(&state), Some([110, 0]));
    assert_eq!(views_after(&state, None), [View::Quit, View::Quit]);
}

#[test]
fn views_relay_the_bare_move_to_the_opponent() {
    let mut state = State::new();
    let before = state.clone();
    play(&mut state, &["C3v!"]);
    let views = views_after(&state, placed_wall(&before, &state));
    assert_eq!(views, [View::Nothing, View::Move(wall("C3v"))]);
    assert_eq!(views[1].to_string(), "C3v");
}

#[test]
fn typed_step_refuses_illegal_moves_and_changes_nothing() {
    let mut state = position("A1h A1v A2v B1h");
    let before = state.clone();
    let action = Action { wall: wall("A1h"), claim: false };
    let mover = state.to_move();
    let mut slots = [None, None];
    slots[mover] = Some(action);
    assert!(matches!(Zuniq::step(&mut state, &slots), Err(StepError::Illegal { .. })));
    assert_eq!(state, before);
    slots.swap(0, 1);
    assert!(matches!(Zuniq::step(&mut state, &slots), Err(StepError::NotToAct { .. })));
    assert!(matches!(Zuniq::step(&mut state, &[None]), Err(StepError::WrongArity { .. })));
}

#[test]
fn perft_from_the_empty_board() {
    let state = State::new();
    assert_eq!(crate::game::typed_perft::<super::Zuniq>(&state, 1), 60);
    assert_eq!(crate::game::typed_perft::<super::Zuniq>(&state, 2), 3_540);
    assert_eq!(crate::game::typed_perft::<super::Zuniq>(&state, 3), 205_320);
}

#[test]
fn perft_from_the_doc_positions() {
    let cases = [
        ("A4v B1v B6v C3h C4h C5v D1v D2h D4h D5h E5v F3h", 48, 2_256),
        (
            "A4h A4v B1v B2h B6v C2v C3h C3v C4h C5v D1h D1v D2h D4h D4v D5h E2v E5v F1h F3h",
            40,
            1_556,
        ),
        (
            "A2v A4h A5v A6v B1v B2h B2v B4h C2h C2v C3v C4v C5h C5v D1h D2h D3v D5v E1h E4h E4v \
             E5h E6v F4h",
            33,
            1_034,
        ),
        (
            "A1v A3v A4h A4v A5h A5v A6v B1h B1v B2h B4h B4v C1h C2h C4h C4v D1h D1v D3h D4h D5h \
             D6v E2h E2v E3h E4h E5v E6v",
            28,
            732,
        ),
    ];
    for (names, p1, p2) in cases {
        let state = position(names);
        assert_eq!(crate::game::typed_perft::<super::Zuniq>(&state, 1), p1, "{names}");
        assert_eq!(crate::game::typed_perft::<super::Zuniq>(&state, 2), p2, "{names}");
    }
    // Depth 3 of the last position (the most constrained one).
    assert_eq!(crate::game::typed_perft::<super::Zuniq>(&position(cases[3].0), 3), 17_726);
}

// ---------------------------------------------------------------------------------------------
// Property tests over positions reached by random playouts.

/// A game played from the empty board by random legal moves (with random claims), stopped
/// after `plies` moves or at the end.
#[derive(Clone, Debug)]
struct Playout {
    seed: u64,
    /// The lines played, in order.
    lines: Vec<String>,
    /// The state after each line (index 0: after the first).
    states: Vec<State>,
}

fn playout(seed: u64, plies: usize) -> Playout {
    let mut rng = JavaRandom::new(seed as i64);
    let mut state = State::new();
    let mut lines = Vec::new();
    let mut states = Vec::new();
    while !state.finished && lines.len() < plies {
        let legal = legal_walls(&state);
        let wall = legal[rng.next_below(legal.len() as i32) as usize];
        let claim = rng.next_below(8) == 0;
        let line = Action { wall, claim }.to_string();
        play_turn(&mut state, Some(&line)).unwrap();
        lines.push(line);
        states.push(state.clone());
    }
    Playout { seed, lines, states }
}

impl Arbitrary for Playout {
    fn arbitrary(g: &mut Gen) -> Self {
        let seed = u64::arbitrary(g);
        // Mostly whole games, sometimes cut short.
        let plies = if bool::arbitrary(g) { 60 } else { usize::arbitrary(g) % 60 };
        playout(seed, plies)
    }
}

impl Playout {
    fn last(&self) -> State {
        self.states.last().cloned().unwrap_or_default()
    }
}

fn check(tests: u64, property: fn(Playout) -> bool) {
    QuickCheck::new().tests(tests).quickcheck(property);
}

#[test]
fn property_a_move_closes_at_most_one_zone() {
    fn prop(p: Playout) -> bool {
        p.states.iter().all(|state| {
            all_walls().into_iter().filter(|w| !state.walls.contains(w)).all(|w| {
                let dead = w.cells().iter().any(|&c| state.zones().iter().any(|z| z.contains(c)));
                let naive = zones_closed_by(&state.walls, w);
                let direct = match check_wall(&state.walls, w) {
                    Ok(zone) => zone.map(|z| z.size()),
                    Err(Illegal::DuplicateZoneSize(size)) => Some(size),
                    Err(_) => return dead,
                };
                dead || (naive.len() <= 1 && naive.first().map(Zone::size) == direct)
            })
        })
    }
    check(20, prop);
}

#[test]
fn property_closed_zones_have_distinct_sizes() {
    fn prop(p: Playout) -> bool {
        p.states.iter().all(|state| {
            let sizes = sizes(state);
            let distinct: BTreeSet<usize> = sizes.iter().copied().collect();
            distinct.len() == sizes.len() && state.open_cells() + sizes.iter().sum::<usize>() == 25
        })
    }
    check(50, prop);
}

#[test]
fn property_a_legal_move_never_touches_a_closed_zone() {
    fn prop(p: Playout) -> bool {
        p.states.iter().all(|state| {
            let zones = state.zones();
            legal_walls(state)
                .iter()
                .all(|w| w.cells().iter().all(|&c| zones.iter().all(|z| !z.contains(c))))
        })
    }
    check(30, prop);
}

#[test]
fn property_zones_never_change_once_closed() {
    fn prop(p: Playout) -> bool {
        let mut previous: Vec<Zone> = vec![];
        for state in &p.states {
            let zones = state.zones();
            if !previous.iter().all(|z| zones.contains(z)) || zones.len() > previous.len() + 1 {
                return false;
            }
            previous = zones;
        }
        true
    }
    check(50, prop);
}

#[test]
fn property_the_rules_are_symmetric_under_the_8_board_symmetries() {
    fn prop(p: Playout, symmetry: u8) -> bool {
        let state = p.last();
        let mut image = state.clone();
        image.walls = state.walls.iter().map(|&w| transform_wall(symmetry % 8, w)).collect();
        let legal: BTreeSet<Wall> =
            legal_walls(&state).into_iter().map(|w| transform_wall(symmetry % 8, w)).collect();
        let image_legal: BTreeSet<Wall> = legal_walls(&image).into_iter().collect();
        sizes(&state) == sizes(&image) && legal == image_legal
    }
    QuickCheck::new().tests(40).quickcheck(prop as fn(Playout, u8) -> bool);
}

#[test]
fn property_rendered_views_parse_back() {
    fn prop(p: Playout) -> bool {
        let mut before = State::new();
        p.states.iter().all(|state| {
            let views = views_after(state, placed_wall(&before, state));
            before = state.clone();
            views.iter().all(|v| parse_turn(&v.to_string()) == Ok(*v))
        })
    }
    check(30, prop);
}

#[test]
fn property_stepping_a_finished_game_is_refused() {
    fn prop(seed: u64) -> bool {
        let p = playout(seed, 60);
        let mut state = p.last();
        if !state.finished {
            return false;
        }
        let frozen = state.clone();
        let any = Action { wall: wall("A1h"), claim: false };
        Zuniq::step(&mut state, &[Some(any), None]) == Err(StepError::GameOver)
            && Zuniq::step(&mut state, &[None, Some(any)]) == Err(StepError::GameOver)
            && play_turn(&mut state, Some("A1h")) == Err(StepError::GameOver)
            && play_turn(&mut state, None) == Err(StepError::GameOver)
            && apply_move(&mut state, any) == Err(StepError::GameOver)
            && state == frozen
            && Zuniq::players_to_act(&state).is_empty()
            && Zuniq::outcome(&state).is_some()
    }
    QuickCheck::new().tests(30).quickcheck(prop as fn(u64) -> bool);
}

#[test]
fn property_the_engine_never_panics_on_arbitrary_lines() {
    fn prop(p: Playout, line: String) -> bool {
        let mut play = Play::new(p.last());
        let over = play.is_over();
        let result = play.play_turn(&[Some(line)]);
        let _ = play.turn_record();
        result.is_err() == over
            && (over || play.is_over() || play.state.ply == p.lines.len() as u32 + 1)
    }
    QuickCheck::new().tests(200).quickcheck(prop as fn(Playout, String) -> bool);
}

#[test]
fn property_whole_games_end_normally_with_consistent_outcomes() {
    fn prop(seed: u64) -> bool {
        let p = playout(seed, 60);
        let state = p.last();
        let Some(outcome) = Zuniq::outcome(&state) else { return false };
        let winner = state.winner.unwrap();
        state.finished
            && legal_walls(&state).is_empty()
            && outcome.winner() == Some(winner)
            && outcome.reason == "no_legal_moves"
            && winner == (p.lines.len() + 1) % 2
            && matches!(state.end, Some(End::NoLegalMoves))
            && p.seed == seed
    }
    QuickCheck::new().tests(30).quickcheck(prop as fn(u64) -> bool);
}

#[test]
fn invalid_reason_codes() {
    assert_eq!(InvalidReason::Timeout.code(), "timeout");
    assert_eq!(InvalidReason::Illegal(Illegal::InsideClosedZone).code(), "inside_closed_zone");
    let malformed = InvalidReason::Malformed(parse_line("x").unwrap_err());
    assert_eq!(malformed.code(), "malformed");
    assert!(closed_zones(&BTreeSet::new()).is_empty());
}

#[test]
fn hand_made_states_do_not_panic() {
    let mut state = State::new();
    state.finished = true;
    state.winner = Some(7);
    state.end = Some(End::NoLegalMoves);
    assert_eq!(scores(&state), None);
    assert_eq!(Zuniq::outcome(&state), None);
    let _ = super::display::render(&state, true);
    let mut odd = State::new();
    odd.ply = u32::MAX - 1;
    odd.claims = [Some(u32::MAX), Some(0)];
    assert_eq!(claim_bonus(0, odd.claims[0]), 0);
    assert_eq!(claim_bonus(1, odd.claims[1]), 10);
    let _ = odd.to_json();
    let _ = play_turn(&mut odd, Some("A1h!"));
}

// §8 both ways: each seat keeps the position from its views and its own moves.

/// Plays `lines` (the mover's printed line each turn) through the referee, each seat keeping its
/// own state from what it reads (`parse_turn` of the rendered view, then
/// `protocol::state_from_view`) and from its own valid moves; while the game runs, each kept
/// state must be the true state but for the opponent's hidden claim. Returns the turns checked.
fn check_kept_states(lines: &[Option<String>], context: &str) -> usize {
    let mut play = Play::new(State::new());
    let mut known = [State::new(), State::new()];
    let mut checked = 0;
    for (turn, line) in lines.iter().enumerate() {
        if play.state.finished {
            break;
        }
        let mover = play.state.to_move();
        play.play_turn(std::slice::from_ref(line)).expect("running");
        if play.state.finished {
            break;
        }
        let own = line.as_deref().map(parse_line).and_then(Result::ok).expect("a valid move");
        apply_move(&mut known[mover], own).expect("a legal move");
        for (seat, kept) in known.iter_mut().enumerate() {
            let text = play.views[seat].to_string();
            let view = parse_turn(&text).unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(view, play.views[seat], "{context}, turn {turn}");
            *kept = super::protocol::state_from_view(kept, &view)
                .unwrap_or_else(|e| panic!("{context}, turn {turn}: {e}"));
            let mut expected = play.state.clone();
            expected.claims[1 - seat] = kept.claims[1 - seat];
            assert_eq!(*kept, expected, "{context}, turn {turn}, seat {seat}");
            assert_eq!(kept.claims[1 - seat], None, "{context}: the opponent's claim is unseen");
        }
        checked += 1;
    }
    checked
}

#[test]
fn seats_keep_the_true_state_from_their_views_in_random_games() {
    let mut checked = 0;
    for seed in 1..=20i64 {
        let mut state = State::new();
        let mut chooser = crate::java_random::JavaRandom::new(seed);
        let mut lines = vec![];
        while !state.finished {
            let legal = legal_walls(&state);
            let wall = legal[chooser.next_int_bounded(legal.len() as i32).unwrap_or(0) as usize];
            let claim = chooser.next_int_bounded(8) == Some(0);
            let action = Action { wall, claim };
            lines.push(Some(action.to_string()));
            apply_move(&mut state, action).expect("legal");
        }
        checked += check_kept_states(&lines, &format!("seed {seed}"));
    }
    assert!(checked > 500, "only {checked} turns");
}

#[test]
fn seats_keep_the_true_state_from_their_views_in_the_traces() {
    let games = crate::trace::shipped_traces("zuniq.jsonl");
    let mut checked = 0;
    for (index, game) in games.iter().enumerate() {
        let mut play = Play::new(State::new());
        crate::trace::walk_trace(game, &mut play, |_, moment, texts| {
            for text in texts {
                let view = parse_turn(text).unwrap_or_else(|e| panic!("game {index}: {e}"));
                assert_eq!(view.to_string(), text, "game {index}, turn {moment}");
            }
        });
        let lines: Vec<Option<String>> =
            game.turns.iter().map(|t| t.actions.first().cloned().flatten()).collect();
        checked += check_kept_states(&lines, &format!("game {index}"));
    }
    assert!(games.len() > 40 && checked > 500, "{} games, {checked} turns", games.len());
}
