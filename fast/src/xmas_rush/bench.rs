//! Benchmark pairs and the sample states they run on.

use super::*;
use crate::bench::BenchOp;
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::xmas_rush as r;

/// States from random games (deterministic), for benchmarks.
pub fn sample_states(count: usize) -> Vec<r::State> {
    let mut out = Vec::new();
    let mut chooser = JavaRandom::new(99);
    let mut game = 0;
    while out.len() < count {
        let mut s = r::new_game(game, r::League::default());
        game += 1;
        while !s.game_over && out.len() < count {
            out.push(s.clone());
            let lines: Vec<String> = (0..2)
                .map(|p| {
                    let l = r::legal_actions(&s, p);
                    l[chooser.next_below(l.len() as i32) as usize].to_string()
                })
                .collect();
            let answers =
                [r::Answer::from_line(Some(&lines[0])), r::Answer::from_line(Some(&lines[1]))];
            let _ = r::rules::play_turn(&mut s, &answers);
        }
    }
    out
}

/// Positions from random games of the fast twin (its typed API, uniformly random legal
/// actions), for benchmarks.
pub fn played_states(count: usize) -> Vec<State> {
    crate::bench::typed_played_positions::<FastXmasRush>(count, 0, 0x9E37_79B9_7F4A_7C15)
        .into_iter()
        .map(|(s, _)| s)
        .collect()
}

/// Hot operations, reference vs fast: one push, the reachable set, a whole PUSH turn (both
/// players, events off in fast), on states from random games.
pub fn bench_ops() -> Vec<BenchOp> {
    use std::hint::black_box;
    // Positions the fast twin reaches in its own random games.
    let fasts: Vec<State> = played_states(256);
    let refs: Vec<r::State> = fasts.iter().map(State::to_reference).collect();
    let push_turns = |n: usize| -> (Vec<r::State>, Vec<State>) {
        refs[..n]
            .iter()
            .zip(&fasts)
            .filter(|(r, _)| r.turn_type == r::TurnType::Push)
            .map(|(r, f)| (r.clone(), *f))
            .unzip()
    };
    let (pushes, fast_pushes) = push_turns(refs.len());
    let (few, fast_few) = push_turns(64);
    let mut cache = Box::new([[search::PushPair::default(); 28]; 28]);
    let game = "xmas-rush";
    vec![
        BenchOp::cycling(
            game,
            "push",
            refs.clone(),
            fasts.clone(),
            |s, i| {
                let mut s = s.clone();
                r::rules::apply_push(&mut s, i % 2, i % 7, r::Direction::ALL[i % 4]);
                black_box(&s);
            },
            |s, j| {
                let mut s = *s;
                push::push(&mut s, j % 2, j % 7, (j % 4) as u8);
                black_box(&s);
            },
        ),
        BenchOp::cycling(
            game,
            "reachable",
            refs.clone(),
            fasts.clone(),
            |s, _| {
                let p = &s.players[0];
                black_box(r::rules::reachable(s, p.x, p.y));
            },
            |s, _| {
                let p = &s.players[0];
                black_box(bfs::reachable(s, p.x as usize, p.y as usize));
            },
        ),
        BenchOp::cycling(
            game,
            "push_turn",
            pushes,
            fast_pushes,
            |s, i| {
                let mut s = s.clone();
                let a = |k: usize| {
                    r::Answer::Action(r::Action::Push {
                        line: k % 7,
                        direction: r::Direction::ALL[k % 4],
                    })
                };
                let _ = black_box(r::rules::play_turn(&mut s, &[a(i), a(i / 3)]));
            },
            |s, j| {
                let mut s = *s;
                let a = |k: usize| {
                    Answer::Action(PackedAction::Push { line: (k % 7) as u8, dir: (k % 4) as u8 })
                };
                let _ = black_box(rules::play_turn(&mut s, &[a(j), a(j / 3)], &mut NoEvents));
            },
        ),
        BenchOp::cycling(
            game,
            "greedy_walk",
            refs.clone(),
            fasts.clone(),
            |s, i| {
                black_box(r::search::greedy_walk(s, i % 2));
            },
            |s, j| {
                black_box(search::greedy_walk(s, j % 2));
            },
        ),
        BenchOp::cycling(
            game,
            "most_items",
            refs,
            fasts,
            |s, i| {
                black_box(r::search::most_items(s, i % 2));
            },
            |s, j| {
                black_box(search::most_items(s, j % 2));
            },
        ),
        BenchOp::cycling(
            game,
            "move_cache",
            few,
            fast_few,
            |s, i| {
                black_box(r::search::move_cache(s, i % 2));
            },
            move |s, j| {
                search::move_cache(s, j % 2, &mut cache);
                black_box(&cache);
            },
        ),
        // Whole random games (setup included) through the typed API.
        crate::bench::typed_random_game_op::<
            twinsim_reference::xmas_rush::XmasRush,
            super::FastXmasRush,
        >("xmas-rush", 10_000),
    ]
}
