//! X-mas Rush's `builtin:smitsimax` (issue 15): the state rebuilt from views, the move policy
//! and candidates, twin equivalence of the search, legality of every answer over whole games
//! (checked against the true state, which the bot never sees), the time limit, and strength
//! against `builtin:greedy` (ignored; run with `--release`).

use crate::answer_time::{LateCount, Stopwatch};
use std::time::{Duration, Instant};
use twinsim_reference::game::{Game, PlayerId};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::xmas_rush::protocol::{state_from_view, unseen_quests, ViewContext};
use twinsim_reference::xmas_rush::{self as r, parse_turn, Action, League, TurnType, XmasRush};
use twinsim_search::bot::{SearchSpec, ViewPlayer};
use twinsim_search::xmas_rush::{
    move_candidates, player, random_greedy_path, search_roots, Memory, RushState,
};
use twinsim_search::{Budget, SearchRng};

/// States from random games (both players random), a few per game.
fn sample_states(games: i64, every: usize) -> Vec<r::State> {
    let mut out = Vec::new();
    let mut rng = JavaRandom::new(5);
    for seed in 0..games {
        let mut s = r::new_game(seed * 7919 + 3, League::default());
        let mut turn = 0;
        while !s.game_over {
            if turn % every == 0 {
                out.push(s.clone());
            }
            turn += 1;
            let acts: Vec<Option<Action>> = (0..2)
                .map(|p| {
                    let l = r::legal_actions(&s, p);
                    Some(l[rng.next_below(l.len() as i32) as usize])
                })
                .collect();
            XmasRush::step(&mut s, &acts).unwrap();
        }
    }
    out
}

/// The true decks of a state as a bot of seat `me` could guess them: exactly right.
fn context_of(s: &r::State) -> ViewContext {
    ViewContext {
        league: s.league,
        turns_left: s.turns_left,
        stale: s.stale,
        decks: [s.players[0].deck.clone(), s.players[1].deck.clone()],
    }
}

#[test]
fn the_view_rebuilds_the_state() {
    for s in sample_states(6, 7) {
        for me in 0..2 {
            let view = parse_turn(&r::render_view(&s, me)).unwrap();
            let rebuilt = state_from_view(&view, me, &context_of(&s));
            assert_eq!(rebuilt, s, "seat {me}");
            // The unseen quests are the deck's cards (in some order).
            for (rel, abs) in [(0, me), (1, 1 - me)] {
                let mut unseen = unseen_quests(&view, rel);
                let mut deck = s.players[abs].deck.clone();
                unseen.sort();
                deck.sort();
                assert_eq!(unseen, deck);
            }
        }
    }
}

#[test]
fn memory_counts_turns_and_determinizes_consistently() {
    let s = &sample_states(1, 9)[3];
    let view = parse_turn(&r::render_view(s, 1)).unwrap();
    let mut memory = Memory::default();
    for _ in 0..s.turn() {
        memory.read(&view);
    }
    let roots = memory.determinize(&view, 1, 4, &mut SearchRng::new(3));
    assert_eq!(roots.len(), 4);
    for root in &roots {
        assert_eq!(root.turns_left, s.turns_left);
        assert_eq!(root.league, s.league);
        // Everything but the deck order is exact.
        let mut a = root.clone();
        let mut b = s.clone();
        for p in 0..2 {
            a.players[p].deck.sort();
            b.players[p].deck.sort();
        }
        a.stale = b.stale;
        assert_eq!(a, b);
    }
}

#[test]
fn memory_counts_stale_pushes() {
    // Two bots pushing the same row: the board never changes (§7.1 conflict).
    let mut s = r::new_game(11, League::default());
    let mut memory = Memory::default();
    for _ in 0..7 {
        memory.read(&parse_turn(&r::render_view(&s, 0)).unwrap());
        assert_eq!(memory.stale, s.stale);
        let acts = match s.turn_type {
            TurnType::Push => [
                Some(Action::Push { line: 3, direction: r::Direction::Left }),
                Some(Action::Push { line: 3, direction: r::Direction::Right }),
            ],
            TurnType::Move => [Some(Action::Pass), Some(Action::Pass)],
        };
        XmasRush::step(&mut s, &acts).unwrap();
    }
    assert_eq!(s.stale, 4);
}

/// Walks `path` from player `p`'s cell on `s`: every step must be valid (§7.2); returns the
/// quest items collected.
fn walk(s: &r::State, p: PlayerId, path: r::Path) -> usize {
    let path: Vec<r::Direction> = path.iter().collect();
    let (mut x, mut y) = (s.players[p].x, s.players[p].y);
    for &d in &path {
        let (nx, ny) = r::rules::step_target(s, x, y, d).expect("a step into a wall");
        (x, y) = (nx, ny);
    }
    r::rules::items_on_path(s, p, &path).len()
}

#[test]
fn moves_are_valid_and_collect_the_most_items() {
    let mut rng = SearchRng::new(1);
    for s in sample_states(8, 3).into_iter().filter(|s| s.turn_type == TurnType::Move) {
        let f = twinsim_fast::xmas_rush::State::from(&s);
        for p in 0..2 {
            let most = r::search::most_items(&s, p);
            let candidates = move_candidates(&s, p);
            assert_eq!(candidates, move_candidates(&f, p), "twins");
            assert!(!candidates.is_empty());
            let mut ends = std::collections::HashSet::new();
            for a in &candidates {
                let path = match a {
                    Action::Pass => r::Path::EMPTY,
                    Action::Move(path) => *path,
                    Action::Push { .. } => panic!("a push in a MOVE turn"),
                };
                assert_eq!(walk(&s, p, path), most, "{a}");
                let mut t = s.clone();
                let mut acts = [None, None];
                acts[p] = Some(*a);
                acts[1 - p] = Some(Action::Pass);
                XmasRush::step(&mut t, &acts).unwrap();
                assert!(ends.insert((t.players[p].x, t.players[p].y)), "one candidate per end");
            }
            let mut r1 = rng.clone();
            let path = random_greedy_path(&s, p, &mut rng);
            assert_eq!(path, random_greedy_path(&f, p, &mut r1), "twins");
            let greedy = r::search::greedy_walk(&s, p);
            assert!(walk(&s, p, path) >= greedy.items);
        }
    }
}

#[test]
fn twin_searches_agree() {
    let states = sample_states(3, 5);
    for (k, s) in states.iter().enumerate().take(12) {
        let me = k % 2;
        let roots = vec![s.clone(), s.clone()];
        let budget = Budget::iterations(60);
        let a = search_roots::<XmasRush>(&roots, me, &budget, k as i64);
        let b =
            search_roots::<twinsim_fast::xmas_rush::FastXmasRush>(&roots, me, &budget, k as i64);
        assert_eq!(a, b, "state {k}");
        assert_eq!(a.1, 60);
        let f = twinsim_fast::xmas_rush::State::from(s);
        assert_eq!(RushState::path_tree(s, 3), RushState::path_tree(&f, 3));
    }
}

/// Plays whole games: seat `bot_seat` is a search bot reading only the views; the other seat
/// plays random legal actions (with the true state). Every answer must parse, fit the turn
/// type, walk without hitting a wall, and be accepted by the engine. Returns (bot score,
/// opponent score) per game, the answers counted against their limits, and each answer's own
/// time (the processor time of the bot's thread: [`crate::answer_time`]).
fn play_games(
    spec: &str,
    games: i64,
    limit: Duration,
    first: Duration,
) -> (Vec<(i64, i64)>, LateCount, Vec<Duration>) {
    let spec: SearchSpec = spec.parse().unwrap();
    let mut results = Vec::new();
    let mut late = LateCount::default();
    let mut own_times = Vec::new();
    for g in 0..games {
        let bot_seat = (g % 2) as usize;
        let mut bot: Box<dyn ViewPlayer> = player(&spec, bot_seat, g).unwrap();
        let mut s = r::new_game(1000 + g, League::default());
        let mut rng = JavaRandom::new(g);
        let mut first_turn = true;
        while !s.game_over {
            let input = r::render_view(&s, bot_seat);
            let allowed = if first_turn { first } else { limit };
            first_turn = false;
            let watch = Stopwatch::start();
            let line = bot.play(&input, Instant::now() + allowed).expect("an answer");
            let took = watch.read();
            late.count(took, allowed);
            own_times.push(took.own);
            let action = r::parse_line(&line).unwrap_or_else(|e| panic!("{line:?}: {e:?}"));
            assert!(action.fits(s.turn_type), "{line} in a {:?} turn", s.turn_type);
            match &action {
                Action::Move(path) => {
                    walk(&s, bot_seat, *path);
                }
                Action::Push { .. } => {
                    assert!(r::legal_actions(&s, bot_seat).contains(&action));
                }
                Action::Pass => {}
            }
            let other = r::legal_actions(&s, 1 - bot_seat);
            let mut acts = [None, None];
            acts[bot_seat] = Some(action);
            acts[1 - bot_seat] = Some(other[rng.next_below(other.len() as i32) as usize]);
            XmasRush::step(&mut s, &acts).unwrap();
        }
        assert!(bot.stats().moves > 0);
        results.push((s.players[bot_seat].score, s.players[1 - bot_seat].score));
    }
    (results, late, own_times)
}

#[test]
fn whole_games_are_legal_on_both_engines() {
    // Iteration budgets and an hour a move, so the clock never binds, and no answer's time is
    // looked at (issue 33: no wall-clock limit in a debug-build test; the clock is checked in
    // release by `timing_never_late_by_its_own_time`).
    let hour = Duration::from_secs(3600);
    for spec in ["smitsimax@fast:iterations=30", "smitsimax@reference:iterations=10"] {
        let (results, _, _) = play_games(spec, 2, hour, hour);
        for (me, them) in results {
            assert!(me >= 0, "{spec}");
            assert!(me > them, "{spec}: {me} vs {them} against a random bot");
        }
    }
}

/// 50 ms × 0.05 = 2.5 ms per move (1000 ms × 0.05 the first). The bot stops thinking at a
/// tenth of the time left (`think_deadline`), so its typical answer takes a small part of the
/// limit: the median of its own time (the processor time of its thread, [`crate::answer_time`])
/// is at most 1.5 ms. A bot that does not watch the clock fails. Timing, so release only
/// (issue 33: a debug build on a busy machine is slower).
#[test]
#[ignore = "timing (a clock decides the result): run by .ci/run in release, alone: cargo test --release --test release -- --ignored --test-threads 1 timing_"]
fn timing_answers_in_time_at_a_twentieth_of_the_limit() {
    for spec in ["smitsimax@fast", "smitsimax@reference"] {
        let (_, late, own_times) =
            play_games(spec, 2, Duration::from_micros(2500), Duration::from_millis(50));
        let mut later: Vec<Duration> = own_times[1..].to_vec();
        later.sort();
        let median = later[later.len() / 2];
        eprintln!("{spec}: median own time {median:?}; {late}");
        assert!(median <= Duration::from_micros(1500), "{spec}: median answer after {median:?}");
    }
}

/// The timing check at a twentieth of the referee's limits: at most 2% of the answers late by
/// the bot's own time. A thread that loses the processor for longer than the 2.5 ms limit (a
/// scheduler tick is 4 ms; on CI's virtual machines the hypervisor takes tens of milliseconds
/// now and then) answers late on the wall clock whatever it does, so the wall-clock count is
/// printed, not judged ([`crate::answer_time`]).
#[test]
#[ignore = "timing (a clock decides the result): run by .ci/run in release, alone: cargo test --release --test release -- --ignored --test-threads 1 timing_"]
fn timing_never_late_by_its_own_time() {
    for spec in ["smitsimax@fast", "smitsimax@reference"] {
        let (_, late, _) =
            play_games(spec, 4, Duration::from_micros(2500), Duration::from_millis(50));
        eprintln!("{spec}: {late}");
        assert!(late.within_two_percent(), "{spec}: {late}");
    }
}

#[test]
fn fixed_iterations_are_deterministic() {
    let spec: SearchSpec = "smitsimax@fast:iterations=40".parse().unwrap();
    let s = r::new_game(77, League::default());
    let input = r::render_view(&s, 0);
    let deadline = Instant::now() + Duration::from_secs(3600);
    let a = player(&spec, 0, 9).unwrap().play(&input, deadline);
    let b = player(&spec, 0, 9).unwrap().play(&input, deadline);
    assert_eq!(a, b);
    let spec: SearchSpec = "smitsimax@reference:iterations=40".parse().unwrap();
    assert_eq!(player(&spec, 0, 9).unwrap().play(&input, deadline), a, "twins");
}

/// Strength (run with `--release -- --ignored`): through the arena, seats rotating, against
/// `builtin:greedy`, with a fixed budget of 300 iterations per move (≈ 0.3 ms on the fast
/// engine, well under the 5 ms a 0.1 time scale gives) at the referee's real limits, so that
/// the machine's load cannot turn the result into timeouts: 40 games, at least 80% won, no
/// timeout, no illegal answer.
#[test]
#[ignore = "deterministic (iteration budgets, the clock a mere safety net): run by .ci/run in release beside the other deterministic checks: cargo test --release --test release -- --ignored --skip timing_"]
fn beats_greedy_clearly() {
    use twinsim_arena::{run, ArenaConfig, BotSpec};
    for engine in ["fast", "reference"] {
        let spec: BotSpec = format!("builtin:smitsimax@{engine}:iterations=300").parse().unwrap();
        let bots = vec![spec, "builtin:greedy".parse().unwrap()];
        let config = ArenaConfig { threads: Some(1), ..ArenaConfig::new("xmas-rush", bots, 40) };
        let end = run(&config, &|_, _| {}).unwrap();
        let t = end.standings.totals();
        let rate = t[0].points.sum / t[0].points.games as f64;
        eprintln!(
            "{engine}: won {rate:.3} of {} games vs greedy, {} timeouts, {} illegal",
            t[0].points.games, t[0].timeouts, t[0].illegal
        );
        assert_eq!(t[0].timeouts, 0, "{engine}");
        assert_eq!(t[0].illegal, 0, "{engine}");
        assert!(rate >= 0.8, "{engine}: won {rate}");
    }
}

/// Over a whole game, the bot on the reference engine and the bot on the fast twin, same seed
/// and iteration budget, read the same views and give the same answer every turn.
#[test]
fn twin_bots_agree_over_a_game() {
    let deadline = || Instant::now() + Duration::from_secs(3600);
    let fast_spec: SearchSpec = "smitsimax@fast:iterations=40".parse().unwrap();
    let ref_spec: SearchSpec = "smitsimax@reference:iterations=40".parse().unwrap();
    let mut fast_bot = player(&fast_spec, 1, 5).unwrap();
    let mut ref_bot = player(&ref_spec, 1, 5).unwrap();
    let mut s = r::new_game(4242, League::default());
    let mut rng = JavaRandom::new(3);
    while !s.game_over {
        let input = r::render_view(&s, 1);
        let a = fast_bot.play(&input, deadline()).unwrap();
        assert_eq!(Some(a.clone()), ref_bot.play(&input, deadline()), "turn {}", s.turn());
        let other = r::legal_actions(&s, 0);
        let acts = [
            Some(other[rng.next_below(other.len() as i32) as usize]),
            Some(r::parse_line(&a).unwrap()),
        ];
        XmasRush::step(&mut s, &acts).unwrap();
    }
    assert_eq!(fast_bot.stats(), ref_bot.stats());
}
