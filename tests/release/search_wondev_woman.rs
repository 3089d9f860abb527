//! `builtin:alphabeta` for Wondev Woman (issue 15): the generic alpha-beta against plain
//! minimax, the twins' equality under a node budget, the bot playing honestly from views (every
//! answer checked against the true state's legal list, which the bot never sees), the clock, and
//! (ignored, `--release`) the strength against `builtin:greedy` in the arena.

use crate::answer_time::Stopwatch;
use std::time::{Duration, Instant};
use twinsim_fast::game::SearchGame;
use twinsim_fast::wondev_woman::FastWondevWoman;
use twinsim_reference::game::{Game, PlayerId};
use twinsim_reference::wondev_woman::bot::fog::Hypothesis;
use twinsim_reference::wondev_woman::protocol::{self, View};
use twinsim_reference::wondev_woman::{
    referee, rules, setup, League, Params, Point, State, WondevWoman,
};
use twinsim_search::alphabeta::{AlphaBeta, AlphaBetaConfig, Heuristic, MoveHints, WIN};
use twinsim_search::bot::{SearchSpec, ViewPlayer};
use twinsim_search::wondev_woman::{choose_hypothesis, player};
use twinsim_search::{rank_rewards, Budget, SearchRng};

/// Plain negamax to `depth` with the same leaf and end values as the alpha-beta.
fn minimax<G: Game>(state: &G::State, mover: PlayerId, depth: u32, ply: i32) -> i32
where
    G::State: Heuristic,
{
    if depth == 0 {
        return state.heuristic(mover);
    }
    let mut best = i32::MIN;
    for a in G::legal_actions(state, mover) {
        let mut child = state.clone();
        let mut acts = vec![None; G::num_players(state)];
        acts[mover] = Some(a);
        G::step(&mut child, &acts).unwrap();
        let v = match G::players_to_act(&child).first() {
            None => {
                let r = rank_rewards(&G::outcome(&child).unwrap())[mover];
                let win = WIN - ply - 1;
                if r > 0.5 {
                    win
                } else if r < 0.5 {
                    -win
                } else {
                    0
                }
            }
            Some(&m) if m == mover => minimax::<G>(&child, m, depth - 1, ply + 1),
            Some(&m) => -minimax::<G>(&child, m, depth - 1, ply + 1),
        };
        best = best.max(v);
    }
    best
}

/// The alpha-beta's value and move at exactly `depth` from a fresh searcher.
fn alphabeta<G: twinsim_fast::game::SearchGame>(
    state: &G::State,
    depth: u32,
) -> (i32, G::Action, u64)
where
    G::State: Heuristic + MoveHints<G::Action>,
{
    let mut ab = AlphaBeta::new(AlphaBetaConfig { max_depth: depth, ..AlphaBetaConfig::default() });
    let r = ab.search::<G>(state, Budget::iterations(1 << 40));
    assert_eq!(r.depth, depth);
    (r.value, r.action.unwrap(), r.nodes)
}

fn value_after<G: Game>(state: &G::State, action: &G::Action, depth: u32) -> i32
where
    G::State: Heuristic,
{
    let mover = G::players_to_act(state)[0];
    let mut child = state.clone();
    let mut acts = vec![None; 2];
    acts[mover] = Some(action.clone());
    G::step(&mut child, &acts).unwrap();
    match G::players_to_act(&child).first() {
        None => panic!("test positions do not end in one move"),
        Some(&m) if m == mover => minimax::<G>(&child, m, depth - 1, 1),
        Some(&m) => -minimax::<G>(&child, m, depth - 1, 1),
    }
}

/// Alpha-beta with its table, killers and history returns the minimax value, and a move that
/// reaches it, on both twins (depth 2), and on the fast twin at depth 3.
#[test]
fn alphabeta_equals_minimax() {
    let positions = twinsim_fast::wondev_woman::bench::sample_positions(6, 24);
    assert!(positions.len() >= 4);
    for (k, r) in positions.iter().enumerate() {
        let f = twinsim_fast::wondev_woman::State::from(r);
        let mover = r.to_move.unwrap();
        let exact = minimax::<WondevWoman>(r, mover, 2, 0);
        let (rv, ra, rn) = alphabeta::<WondevWoman>(r, 2);
        let (fv, fa, fn_) = alphabeta::<FastWondevWoman>(&f, 2);
        assert_eq!(rv, exact, "position {k}");
        assert_eq!((fv, fa, fn_), (rv, ra, rn), "position {k}: the twins differ");
        assert_eq!(value_after::<WondevWoman>(r, &ra, 2), exact, "position {k}");
        let exact3 = minimax::<FastWondevWoman>(&f, mover, 3, 0);
        let (v3, a3, nodes3) = alphabeta::<FastWondevWoman>(&f, 3);
        assert_eq!(v3, exact3, "position {k} depth 3");
        assert_eq!(value_after::<FastWondevWoman>(&f, &a3, 3), exact3, "position {k}");
        // Pruning works: far fewer nodes than the full tree (branching ~50-100).
        let full: u64 = twinsim_fast::wondev_woman::movegen::perft(&mut f.clone(), 3);
        if full > 5000 {
            assert!(nodes3 * 4 < full, "position {k}: {nodes3} nodes for a tree of {full} leaves");
        }
    }
}

/// The reference state's key is the fast twin's incremental zobrist hash, along a game.
#[test]
fn keys_agree_between_twins() {
    let mut r = setup::new_game(11, &Params::default());
    let mut f = twinsim_fast::wondev_woman::State::from(&r);
    let mut rng = SearchRng::new(3);
    while let Some(&p) = WondevWoman::players_to_act(&r).first() {
        assert_eq!(WondevWoman::hash(&r), FastWondevWoman::hash(&f));
        assert_eq!(r.heuristic(p), f.heuristic(p));
        let legal = WondevWoman::legal_actions(&r, p);
        for a in &legal {
            assert_eq!(r.move_id(p, a), f.move_id(p, a));
            assert_eq!(r.move_hint(p, a), f.move_hint(p, a));
        }
        let a = legal[rng.below(legal.len())];
        let mut acts = [None, None];
        acts[p] = Some(a);
        WondevWoman::step(&mut r, &acts).unwrap();
        FastWondevWoman::step(&mut f, &acts).unwrap();
    }
    assert_eq!(WondevWoman::hash(&r), FastWondevWoman::hash(&f));
}

/// How the other seat plays in these tests: from the true state, a fixed pseudo-random legal
/// line, or the greedy one-ply choice on the Voronoi evaluation when `strong`.
fn opponent(state: &State, turn: usize, strong: bool) -> Option<String> {
    let p = state.to_move?;
    let legal = rules::legal_actions(state, p);
    if legal.is_empty() {
        return Some("ACCEPT-DEFEAT".into());
    }
    if !strong {
        return Some(legal[(turn * 7919 + 13) % legal.len()].to_string());
    }
    let value = |a: &twinsim_reference::wondev_woman::Action| {
        let mut s = state.clone();
        rules::apply_action(&mut s, p, a);
        let v = twinsim_reference::wondev_woman::bot::eval::evaluate(&s);
        if p == 0 {
            v
        } else {
            -v
        }
    };
    legal.iter().max_by_key(|a| value(a)).map(|a| a.to_string())
}

/// What a bot sees of one game.
struct Played {
    state: State,
    answers: Vec<String>,
    /// The inputs the bot was given, in order.
    inputs: Vec<String>,
}

/// Plays a game on the reference engine: `bot` at `seat` gets exactly the referee's text (the
/// init input with its first view) and answers by the deadline (`first`, then `later`); the
/// other seat plays [`opponent`]. Every answer must be on the true legal list (or
/// `ACCEPT-DEFEAT` when that list is empty).
fn play(
    seed: i64,
    params: &Params,
    seat: usize,
    bot: &mut dyn ViewPlayer,
    (first, later): (Duration, Duration),
    strong: bool,
) -> Played {
    let mut state = setup::new_game(seed, params);
    let mut played = Played { state: state.clone(), answers: vec![], inputs: vec![] };
    let mut turn = 0;
    while let Some(p) = state.to_move.filter(|_| !state.game_over) {
        if p == seat {
            let mut input = protocol::render_turn_input(&state, seat);
            if played.inputs.is_empty() {
                input = format!("{}\n{input}", protocol::render_init(&state));
            }
            let limit = if played.inputs.is_empty() { first } else { later };
            let answer = bot.play(&input, Instant::now() + limit).expect("an answer");
            let legal: Vec<String> =
                rules::legal_actions(&state, seat).iter().map(|a| a.to_string()).collect();
            if legal.is_empty() {
                assert_eq!(answer, "ACCEPT-DEFEAT");
            } else {
                assert!(legal.contains(&answer), "seed {seed} turn {turn}: {answer} is illegal");
            }
            referee::play_turn(&mut state, Some(&answer)).unwrap();
            played.inputs.push(input);
            played.answers.push(answer);
        } else {
            let line = opponent(&state, turn, strong);
            referee::play_turn(&mut state, line.as_deref()).unwrap();
        }
        turn += 1;
    }
    played.state = state;
    played
}

fn bot(spec: &str, seed: i64) -> Box<dyn ViewPlayer> {
    let spec: SearchSpec = spec.parse().unwrap();
    player(&spec, 0, seed).unwrap()
}

/// An hour a move: with a node budget the clock (a safety net) never binds, however loaded the
/// machine, so the games are deterministic.
const PATIENT: (Duration, Duration) = (Duration::from_secs(3600), Duration::from_secs(3600));

/// With a node budget the bot is deterministic and both twins give the same answers to the same
/// views, over whole games, from both seats; every answer is legal; the stats count the nodes.
#[test]
fn twins_answer_alike_under_a_node_budget() {
    for (seed, seat) in [(1, 0), (2, 1), (3, 0)] {
        let mut fast = bot("alphabeta@fast:iterations=300", seed);
        let played = play(seed, &Params::default(), seat, fast.as_mut(), PATIENT, false);
        assert!(played.answers.len() > 5);
        let mut reference = bot("alphabeta@reference:iterations=300", seed);
        let mut again = bot("alphabeta@fast:iterations=300", seed);
        for (input, answer) in played.inputs.iter().zip(&played.answers) {
            let deadline = Instant::now() + PATIENT.1;
            assert_eq!(reference.play(input, deadline).as_ref(), Some(answer), "seed {seed}");
            assert_eq!(again.play(input, deadline).as_ref(), Some(answer), "seed {seed}");
        }
        let stats = fast.stats();
        assert_eq!(stats.moves, played.answers.len() as u64);
        assert!(stats.iterations <= 300 * stats.moves, "{stats:?}");
        assert!(stats.iterations >= 100 * stats.moves, "{stats:?}");
        assert_eq!(reference.stats(), stats);
    }
}

/// The bot beats a fixed pseudo-random opponent and a one-ply Voronoi-greedy one (a handful of
/// deterministic games, small node budget), from both seats, always answering legal lines.
#[test]
fn beats_simple_opponents_from_views() {
    let mut wins = 0;
    let mut games = 0;
    for seed in 1..=4 {
        for seat in 0..2 {
            for strong in [false, true] {
                let mut b = bot("alphabeta@fast:iterations=3000", seed);
                let played = play(seed, &Params::default(), seat, b.as_mut(), PATIENT, strong);
                let s = &played.state;
                assert!(s.game_over);
                games += 1;
                if rules::final_scores(s)[seat] > rules::final_scores(s)[1 - seat] {
                    wins += 1;
                }
                assert!(!s.dead[seat] || s.dead[1 - seat], "seed {seed} seat {seat}: eliminated");
            }
        }
    }
    assert!(wins * 4 >= games * 3, "{wins} wins in {games} games");
}

/// Views the fog deduction does not cover (§11: one unit, no fog) still get a legal answer.
#[test]
fn lower_league_views_get_legal_answers() {
    for league in [League::Wood2, League::Wood1] {
        let params = Params { league, ..Params::default() };
        let mut b = bot("alphabeta@fast:iterations=200", 5);
        let played = play(5, &params, 0, b.as_mut(), PATIENT, false);
        assert!(!played.answers.is_empty());
    }
}

/// The clock: with 5 ms per turn (the 50 ms limit at `--time-scale 0.1`) and 2.5 ms (at 0.05),
/// every answer's own time (the processor time of the bot's thread, [`crate::answer_time`]) is
/// within the limit: on the wall clock a thread that lost the processor during the turn (on a
/// loaded machine that happens, and no bot can prevent it) is late through no fault of the bot,
/// which never sleeps or does input/output while thinking; and the bot searches more than a
/// token amount. Timing, so release only (issue 33: a debug build on a busy machine searches
/// too little in 2.5 ms).
#[test]
#[ignore = "timing (a clock decides the result): run by .ci/run in release, alone: cargo test --release --test release -- --ignored --test-threads 1 timing_"]
fn timing_answers_within_short_limits() {
    for later in [Duration::from_micros(5000), Duration::from_micros(2500)] {
        let mut b = bot("alphabeta@fast", 9);
        let mut state = setup::new_game(9, &Params::default());
        let mut first = true;
        let mut turn = 0;
        while let Some(p) = state.to_move.filter(|_| !state.game_over) {
            if p == 0 {
                let mut input = protocol::render_turn_input(&state, 0);
                if first {
                    input = format!("{}\n{input}", protocol::render_init(&state));
                }
                let limit = if first { later * 20 } else { later };
                first = false;
                let watch = Stopwatch::start();
                let answer = b.play(&input, Instant::now() + limit).unwrap();
                let took = watch.read();
                assert!(took.own <= limit, "turn {turn}: {took:?} for a limit of {limit:?}");
                referee::play_turn(&mut state, Some(&answer)).unwrap();
            } else {
                let line = opponent(&state, turn, true);
                referee::play_turn(&mut state, line.as_deref()).unwrap();
            }
            turn += 1;
        }
        let stats = b.stats();
        assert!(stats.iterations > 50 * stats.moves, "{stats:?}");
    }
}

/// A deadline already passed stops the search after a few nodes, with an action, though the
/// position has far more to search: counted in nodes, so it holds however loaded the machine
/// (the clock itself is checked in release by [`search_honours_the_deadline`]).
#[test]
fn a_passed_deadline_stops_the_search_within_a_few_nodes() {
    let r = twinsim_fast::wondev_woman::bench::sample_positions(1, 4).remove(0);
    let f = twinsim_fast::wondev_woman::State::from(&r);
    let passed = Instant::now();
    let mut ab = AlphaBeta::new(AlphaBetaConfig::default());
    let fast = ab.search::<FastWondevWoman>(&f, Budget::until(passed));
    let mut ab = AlphaBeta::new(AlphaBetaConfig::default());
    let reference = ab.search::<WondevWoman>(&r, Budget::until(passed));
    let mut ab = AlphaBeta::new(AlphaBetaConfig::default());
    let more = ab.search::<FastWondevWoman>(&f, Budget::iterations(10_000));
    assert_eq!(more.nodes, 10_000, "the position has far more to search");
    for (twin, result) in [("fast", fast), ("reference", reference)] {
        assert!(result.action.is_some(), "{twin}");
        // The clock is read at every inner node and every 8th leaf (`CLOCK_EVERY`).
        assert!(result.nodes <= 16, "{twin}: {} nodes past the deadline", result.nodes);
    }
}

/// The search stops at its deadline even when it has far more to do.
#[test]
#[ignore = "timing (a clock decides the result): run by .ci/run in release, alone: cargo test --release --test release -- --ignored --test-threads 1 timing_"]
fn timing_search_honours_the_deadline() {
    let ms = Duration::from_millis;
    let r = twinsim_fast::wondev_woman::bench::sample_positions(1, 4).remove(0);
    let f = twinsim_fast::wondev_woman::State::from(&r);
    // Judged on the search's own time (crate::answer_time): a stall of the machine is not its.
    let mut ab = AlphaBeta::new(AlphaBetaConfig::default());
    let watch = Stopwatch::start();
    let result = ab.search::<FastWondevWoman>(&f, Budget::until(Instant::now() + ms(3)));
    assert!(watch.read().own < ms(60), "{:?}", watch.read());
    assert!(result.action.is_some());
    let mut ab = AlphaBeta::new(AlphaBetaConfig::default());
    let watch = Stopwatch::start();
    let result = ab.search::<WondevWoman>(&r, Budget::until(Instant::now() + ms(3)));
    assert!(watch.read().own < ms(60), "{:?}", watch.read());
    assert!(result.action.is_some());
}

/// The determinization: the expected placement when the views allow it, else the placement
/// worst for us by the static evaluation.
#[test]
fn determinization_prefers_the_prediction_then_the_worst_case() {
    let state = setup::new_game(4, &Params::default());
    let view: View = protocol::view(&state, 0);
    let mut tracker = twinsim_fast::wondev_woman::bot::fog::Tracker::new();
    tracker.update(&view, None);
    let hypotheses: Vec<Hypothesis> = tracker.hypotheses().into_iter().collect();
    assert!(hypotheses.len() > 10);
    let mut rng = SearchRng::new(1);
    let pick = |p: Option<&Hypothesis>, rng: &mut SearchRng| {
        choose_hypothesis(&view, &hypotheses, p, 0, rng).unwrap()
    };
    let predicted = hypotheses[hypotheses.len() / 2];
    assert_eq!(pick(Some(&predicted), &mut rng), predicted);
    let impossible =
        Hypothesis { enemy: [Point::new(-5, -5), Point::new(-6, -6)], enemy_alive: true };
    let worst = pick(Some(&impossible), &mut rng);
    assert_eq!(worst, pick(None, &mut rng));
    let value = |h: &Hypothesis| {
        let s = twinsim_reference::wondev_woman::protocol::state_from_view(
            &view,
            h.enemy,
            h.enemy_alive,
            0,
        );
        twinsim_reference::wondev_woman::bot::eval::evaluate(&s)
    };
    if hypotheses.len() <= 256 {
        assert!(hypotheses.iter().all(|h| value(h) >= value(&worst)));
    }
    assert!(worst.enemy_alive);
}

/// `--release`: 40 arena games against `builtin:greedy` at 1,000 nodes a move (an iteration
/// budget, issue 34: on the 5 ms turns of `--time-scale 0.1` the result was the machine's load's,
/// 25 of 40 for the reference twin at 179 nodes a move), seats swapped, on each engine, the
/// clock never binding: a clear win rate, no timeout, and (from the traces) every line printed
/// in every game on the legal list of its turn.
#[test]
#[ignore = "deterministic (iteration budgets, the clock a mere safety net): run by .ci/run in release beside the other deterministic checks: cargo test --release --test release -- --ignored --skip timing_"]
fn strength_against_greedy() {
    for engine in ["fast", "reference"] {
        let dir =
            std::env::temp_dir().join(format!("search_wondev_{engine}_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_twinsim"))
            .args([
                "arena",
                "wondev-woman",
                "--bot",
                &format!("builtin:alphabeta@{engine}:iterations=1000"),
            ])
            .args(["--bot", "builtin:greedy", "--games", "40", "--threads", "1"])
            .args(["--time-scale", "10", "--json", "--out"])
            .arg(&dir)
            .output()
            .expect("arena runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let me = &report["bots"][0];
        let iterations: f64 = report["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                g["iterations"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).sum::<f64>()
            })
            .sum();
        let moves: f64 = report["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                g["moves"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).sum::<f64>()
            })
            .sum();
        println!("{engine}: {me}, {:.0} nodes per move", iterations / moves);
        let traces = std::fs::read_to_string(dir.join("traces.jsonl")).unwrap();
        let mut games = 0;
        for line in traces.lines() {
            let game: serde_json::Value = serde_json::from_str(line).unwrap();
            let mut legal = game["initial_legal"].clone();
            for turn in game["turns"].as_array().unwrap() {
                let action = &turn["actions"][0];
                let legal_list = legal.as_array().unwrap();
                // A stuck player's list is empty and its only line is ACCEPT-DEFEAT (§8, §9); a
                // timeout (null) is counted in the report.
                assert!(
                    legal_list.contains(action)
                        || action.is_null()
                        || (legal_list.is_empty() && action == "ACCEPT-DEFEAT"),
                    "{action} not in {legal}"
                );
                legal = turn["legal"].clone();
            }
            games += 1;
        }
        assert_eq!(games, 40);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(me["timeouts"], 0, "{me}");
        let wins = me["wins"].as_f64().unwrap();
        assert!(wins >= 30.0, "{engine}: {me}");
    }
}
