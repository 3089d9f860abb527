//! Wondev Woman fog-of-war deduction (`twinsim_reference::wondev_woman::bot::fog`, `twinsim_fast::wondev_woman::bot::fog`):
//! soundness and reference/fast equality on every trace game from both seats, quickcheck
//! properties over random games and insta snapshots of the set sizes (the fuzz regressions
//! replay in `tests/all/fuzz_corpus.rs`).

use quickcheck::{QuickCheck, TestResult};
use serde_json::Value;
use twinsim_reference::trace::{parse_jsonl, TraceGame};
use twinsim_reference::wondev_woman::bot::fog::{self, Hypothesis, Status, Tracker};
use twinsim_reference::wondev_woman::protocol::{self, View};
use twinsim_reference::wondev_woman::{rules, setup, Action, Kind, Params, Point, State};

fn games() -> Vec<TraceGame> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/wondev-woman.jsonl");
    let text = std::fs::read_to_string(path).expect("trace file");
    parse_jsonl(&text).expect("valid trace")
}

/// What one seat of a trace game sees: each view with the action the bot printed before it,
/// and the truth (enemy placement and alive flag) from the trace's full state.
struct Seat {
    views: Vec<SeatView>,
}

/// A view, the action printed before it, and the truth.
type SeatView = (View, Option<Action>, Hypothesis);

fn truth_of(state: &Value, me: usize) -> Hypothesis {
    let units = &state["units"][1 - me];
    let pt = |u: &Value| Point::new(u[0].as_i64().unwrap() as i32, u[1].as_i64().unwrap() as i32);
    Hypothesis {
        enemy: [pt(&units[0]), pt(&units[1])],
        enemy_alive: !state["dead"][1 - me].as_bool().unwrap(),
    }
}

fn seat(game: &TraceGame, me: usize) -> Seat {
    let size = game.setup.initial["size"].as_u64().unwrap() as usize;
    let parse = |text: &str| protocol::parse_turn(text, size, 2).expect("trace view parses");
    let mut views = vec![];
    if me == 0 {
        let text = game.setup.initial_view(0);
        views.push((parse(text), None, truth_of(&game.setup.initial, 0)));
    }
    let mut last: Option<Action> = None;
    for turn in &game.turns {
        if turn.record.extra["player"].as_u64() == Some(me as u64) {
            // An unreadable line eliminates the bot: it gets no more views.
            last = turn.actions[0].as_deref().and_then(|l| protocol::parse_action(l).ok());
        }
        if let Some(text) = turn.record.views[me].as_deref() {
            views.push((parse(text), last, truth_of(&turn.record.state, me)));
        }
    }
    Seat { views }
}

/// §7 alone: visible enemy units where shown, hidden ones at distance more than 1 from ours.
fn allowed_by_view(view: &View, p: &fog::Placement) -> bool {
    p[0] != p[1]
        && (0..2).all(|i| match view.theirs[i] {
            Some(q) => q == p[i],
            None => view.mine.iter().all(|m| m.distance(p[i]) > 1),
        })
}

#[derive(Default)]
struct Stats {
    turns: usize,
    total: usize,
    max: usize,
    max_at: String,
}

/// Every trace game, both seats, a tracker that knows its seat and one that does not: the truth
/// is always a hypothesis, no restart happens, every placement is allowed by the view alone,
/// and the fast tracker gives exactly the same deduction and hypotheses.
#[test]
fn every_trace_game_is_tracked_soundly_and_fast_agrees() {
    let games = games();
    assert!(games.len() >= 60);
    let mut stats = Stats::default();
    let mut views = 0;
    for game in &games {
        for me in 0..2 {
            let seat = seat(game, me);
            let mut trackers = [
                (
                    Tracker::with_seat(me),
                    twinsim_fast::wondev_woman::bot::fog::Tracker::with_seat(me),
                ),
                (Tracker::new(), twinsim_fast::wondev_woman::bot::fog::Tracker::new()),
            ];
            for (k, (view, last, truth)) in seat.views.iter().enumerate() {
                views += 1;
                for (known, (r, f)) in trackers.iter_mut().enumerate() {
                    let d = r.update(view, last.as_ref()).clone();
                    let at = format!(
                        "seed {:?} seat {me} view {k} seat known {}",
                        game.seed,
                        known == 0
                    );
                    assert!(r.hypotheses().contains(truth), "{at}: {truth:?} missing from {d:?}");
                    assert_ne!(d.status, Status::Restarted, "{at}");
                    assert_eq!(&d, f.update(view, last.as_ref()), "{at}");
                    assert_eq!(r.hypotheses(), &f.hypotheses(), "{at}");
                    assert!(d.placements.iter().all(|p| allowed_by_view(view, p)), "{at}");
                    if known == 0 {
                        stats.turns += 1;
                        stats.total += d.placements.len();
                        if d.placements.len() > stats.max {
                            stats.max = d.placements.len();
                            stats.max_at = at;
                        }
                    }
                }
            }
        }
    }
    assert!(views > 3900, "{views} views");
    println!(
        "trace views {}: average set size {:.2}, maximum {} ({})",
        stats.turns,
        stats.total as f64 / stats.turns as f64,
        stats.max,
        stats.max_at
    );
}

/// A deterministic random playout: `picks` choose among the legal actions; a pick of 255 makes
/// the mover quit (`ACCEPT-DEFEAT`, §8) when `quits` is set.
fn playout(
    seed: i64,
    map: u8,
    picks: &[u8],
    quits: bool,
) -> Vec<(usize, View, Option<Action>, State)> {
    let params =
        Params { map_index: (map % 4) as i32 - 1, symmetric: map & 4 != 0, ..Params::default() };
    let mut state = setup::new_game(seed, &params);
    let mut out = vec![];
    let mut last: [Option<Action>; 2] = [None, None];
    for &pick in picks {
        let Some(p) = state.to_move.filter(|_| !state.game_over) else { break };
        let view = protocol::view(&state, p);
        out.push((p, view.clone(), last[p], state.clone()));
        let a = if view.legal.is_empty() || (quits && pick == 255) {
            Action::AcceptDefeat
        } else {
            view.legal[pick as usize % view.legal.len()]
        };
        rules::apply_action(&mut state, p, &a);
        last[p] = Some(a);
    }
    out
}

fn truth(state: &State, me: usize) -> Hypothesis {
    let e = &state.units[1 - me];
    Hypothesis { enemy: [e[0], e[1]], enemy_alive: !state.dead[1 - me] }
}

#[test]
fn quickcheck_random_games_are_tracked_soundly_and_fast_agrees() {
    fn prop(seed: i64, map: u8, picks: Vec<u8>, seats_known: bool) -> TestResult {
        let mut refs = [Tracker::new(), Tracker::new()];
        let mut fasts = [
            twinsim_fast::wondev_woman::bot::fog::Tracker::new(),
            twinsim_fast::wondev_woman::bot::fog::Tracker::new(),
        ];
        if seats_known {
            refs = [Tracker::with_seat(0), Tracker::with_seat(1)];
            fasts = [
                twinsim_fast::wondev_woman::bot::fog::Tracker::with_seat(0),
                twinsim_fast::wondev_woman::bot::fog::Tracker::with_seat(1),
            ];
        }
        let picks: Vec<u8> = picks.into_iter().take(40).collect();
        for (p, view, last, state) in playout(seed, map, &picks, true) {
            let d = refs[p].update(&view, last.as_ref()).clone();
            if !refs[p].hypotheses().contains(&truth(&state, p)) || d.status == Status::Restarted {
                return TestResult::error(format!(
                    "seed {seed} map {map}: {:?} not in {d:?}",
                    truth(&state, p)
                ));
            }
            if &d != fasts[p].update(&view, last.as_ref())
                || refs[p].hypotheses() != &fasts[p].hypotheses()
            {
                return TestResult::error(format!("seed {seed} map {map}: fast differs"));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new().tests(40).quickcheck(prop as fn(i64, u8, Vec<u8>, bool) -> TestResult);
}

/// A tracker fed a view, then the same view again after a move of ours (which cannot leave the
/// view unchanged), restarts from the view, and the fast one does the same.
#[test]
fn quickcheck_contradictions_restart_in_both_twins() {
    fn prop(seed: i64, map: u8, picks: Vec<u8>) -> TestResult {
        let run = playout(seed, map, &picks.iter().copied().take(12).collect::<Vec<_>>(), false);
        let Some((_, view, _, _)) = run.last().cloned() else {
            return TestResult::discard();
        };
        // A move always moves one of our units, and nothing can bring it back unseen.
        let Some(&a) =
            view.legal.iter().find(|a| matches!(a, Action::Build { kind: Kind::Move, .. }))
        else {
            return TestResult::discard();
        };
        let mut r = Tracker::new();
        let mut f = twinsim_fast::wondev_woman::bot::fog::Tracker::new();
        r.update(&view, None);
        f.update(&view, None);
        // Our action builds (or pushes) on the same grid: the view cannot be seen again.
        let d = r.update(&view, Some(&a)).clone();
        TestResult::from_bool(
            d.status == Status::Restarted
                && d.placements == fog::from_view(&view)
                && &d == f.update(&view, Some(&a)),
        )
    }
    QuickCheck::new().tests(30).quickcheck(prop as fn(i64, u8, Vec<u8>) -> TestResult);
}

fn sizes_report(seed: i64, map: u8) -> String {
    let picks: Vec<u8> = (0..60u32).map(|i| (i.wrapping_mul(2654435761) >> 7) as u8).collect();
    let mut trackers = [Tracker::with_seat(0), Tracker::with_seat(1)];
    let mut out = String::new();
    for (p, view, last, state) in playout(seed, map, &picks, false) {
        let d = trackers[p].update(&view, last.as_ref()).clone();
        let hidden = view.theirs.iter().filter(|t| t.is_none()).count();
        out.push_str(&format!(
            "round {:>2} p{p} hidden {hidden} placements {:>4} hypotheses {:>4} {:?}\n",
            state.round,
            d.placements.len(),
            trackers[p].hypotheses().len(),
            d.status
        ));
    }
    out
}

#[test]
fn snapshots_of_set_sizes_turn_by_turn() {
    twinsim_reference::testing::snapshot_settings("wondev_fog").bind(|| {
        insta::assert_snapshot!("sizes_square_seed_3", sizes_report(3, 1));
        insta::assert_snapshot!("sizes_diamond_seed_4", sizes_report(4, 2));
        insta::assert_snapshot!("sizes_random_seed_5", sizes_report(5, 3));
        insta::assert_snapshot!("sizes_symmetric_seed_6", sizes_report(6, 4));
    });
}
