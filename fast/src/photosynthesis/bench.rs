//! Benchmark pairs (reference vs fast) of the hot operations: sun income, one player's legal
//! actions, one joint turn step, and a whole random game.

use super::{search_random_game, CompactMoves, FastPhotosynthesis, Move, SearchState, State};
use crate::bench::BenchOp;
use std::hint::black_box;
use twinsim_reference::game::Game;
use twinsim_reference::photosynthesis::{self as r, rules, Action, Params, Photosynthesis};

/// xorshift64* for random playouts.
pub use crate::rng::XorShift64Star as XorShift;

/// Positions reached in play by the fast twin: random legal joint actions (uniform over each
/// list) through the typed step from seeds 1, 2, ..., every position kept with the joint action
/// played from it. The states owe their deferred shuffle draws ([`super::Pending`]) as play left
/// them, so an exact step on them pays what it pays in a game.
pub fn sample_positions(count: usize) -> Vec<(State, [Option<Action>; 2])> {
    let mut rng = XorShift(0x9E3779B97F4A7C15);
    let mut out = vec![];
    let mut seed = 1i64;
    let mut list = CompactMoves::default();
    while out.len() < count {
        let mut s = State::new_game(seed, Params::default(), None);
        seed += 1;
        while !s.game_over() && out.len() < count {
            let actions = [0, 1].map(|p| {
                s.legal_moves(p, &mut list);
                (list.len > 0).then(|| list.moves[rng.index(list.len)].action())
            });
            out.push((s, actions));
            FastPhotosynthesis::step(&mut s, &actions).expect("legal");
        }
    }
    out
}

/// Positions reached in play in search mode: [`SearchState`] games with uniformly random moves
/// from its own lists, from seeds 1, 2, ...; every position kept with the moves played from it.
pub fn sample_search_positions(count: usize) -> Vec<(SearchState, [Move; 2])> {
    let mut rng = XorShift(0x2545F4914F6CDD1D);
    let mut out = vec![];
    let mut seed = 1i64;
    let mut list = CompactMoves::default();
    while out.len() < count {
        let exact = State::new_game(seed, Params::default(), None);
        let mut s = SearchState::from_exact(&exact).expect("a new game fits");
        seed += 1;
        while !s.game_over() && out.len() < count {
            let moves = [0, 1].map(|p| {
                s.legal_moves(p, &mut list);
                if list.len == 0 {
                    Move::WAIT
                } else {
                    list.moves[rng.index(list.len)]
                }
            });
            out.push((s, moves));
            s.play(moves);
        }
    }
    out
}

/// A whole reference game with uniformly random legal actions; returns the number of frames.
pub fn reference_random_game(seed: i64, rng: &mut XorShift) -> u32 {
    let mut s = Photosynthesis::new_game(seed, &Params::default());
    let mut frames = 0;
    while !s.game_over {
        let actions = [0, 1].map(|p| {
            let legal = Photosynthesis::legal_actions(&s, p);
            (!legal.is_empty()).then(|| legal[rng.index(legal.len())])
        });
        let _ = Photosynthesis::step(&mut s, &actions);
        frames += 1;
    }
    frames
}

/// A whole fast game with uniformly random legal actions (same policy, same draws as
/// [`reference_random_game`]); returns the number of frames.
pub fn fast_random_game(seed: i64, rng: &mut XorShift) -> u32 {
    let mut s = State::new_game(seed, Params::default(), None);
    let mut frames = 0;
    while !s.game_over() {
        let mut answers = [None, None];
        let mut counts = [[0; 3]; 2];
        for (p, slot) in answers.iter_mut().enumerate() {
            if s.is_asked(p) {
                counts[p] = s.group_counts(p);
                let c = counts[p];
                let m = s.nth_legal(p, c, rng.below(1 + c[0] + c[1] + c[2]));
                *slot = Some(r::Answer::Action(m.action()));
            }
        }
        let _ = s.play_turn_counted(&answers, counts, None);
        frames += 1;
    }
    frames
}

/// The benchmark pairs.
pub fn bench_ops() -> Vec<BenchOp> {
    let positions = sample_positions(512);
    let fast_states: Vec<State> = positions.iter().map(|(s, _)| *s).collect();
    let ref_states: Vec<r::State> = fast_states.iter().map(State::to_reference).collect();
    let actions: Vec<[Option<Action>; 2]> = positions.iter().map(|(_, a)| *a).collect();
    let mut ops = vec![];

    let (rs, fs) = (ref_states.clone(), fast_states.clone());
    let (mut i, mut j) = (0, 0);
    ops.push(BenchOp {
        game: "photosynthesis",
        name: "sun_income",
        reference: Box::new(move || {
            i = (i + 1) % rs.len();
            black_box(rules::sun_income(black_box(&rs[i])));
        }),
        fast: Box::new(move || {
            j = (j + 1) % fs.len();
            black_box(black_box(&fs[j]).sun_income());
        }),
    });

    let (rs, fs) = (ref_states.clone(), fast_states.clone());
    let (mut i, mut j) = (0, 0);
    let mut list = CompactMoves::default();
    ops.push(BenchOp {
        game: "photosynthesis",
        name: "legal_actions",
        reference: Box::new(move || {
            i = (i + 1) % rs.len();
            black_box(Photosynthesis::legal_actions(black_box(&rs[i]), 0));
        }),
        fast: Box::new(move || {
            j = (j + 1) % fs.len();
            black_box(&fs[j]).legal_moves(0, &mut list);
            black_box(list.len);
        }),
    });

    // One joint turn (copy-make), exact; then in search mode, on states that do not replay the
    // view shuffles.
    let ref_inputs: Vec<(r::State, [Option<Action>; 2])> =
        ref_states.into_iter().zip(actions.iter().copied()).collect();
    for (name, views) in [("step", true), ("step_search", false)] {
        let fast_inputs: Vec<(State, [Option<Action>; 2])> = fast_states
            .iter()
            .zip(&actions)
            .map(|(s, a)| (if views { *s } else { s.without_views() }, *a))
            .collect();
        ops.push(BenchOp::cycling(
            "photosynthesis",
            name,
            ref_inputs.clone(),
            fast_inputs,
            |(s, a), _| {
                let mut s = s.clone();
                let _ = black_box(Photosynthesis::step(&mut s, a));
                black_box(&s);
            },
            |(s, a), _| {
                let mut s = *s;
                let _ = black_box(FastPhotosynthesis::step(&mut s, a));
                black_box(&s);
            },
        ));
    }

    // Search mode: one joint turn (copy-make) of `SearchState` on positions its own games
    // reach; the reference side plays the same actions on the same positions, for scale.
    let search_positions = sample_search_positions(512);
    let search_refs: Vec<(r::State, [Option<Action>; 2])> = search_positions
        .iter()
        .map(|(s, m)| {
            let asked = [s.is_asked(0), s.is_asked(1)];
            (s.to_exact().to_reference(), [0, 1].map(|p| asked[p].then(|| m[p].action())))
        })
        .collect();
    ops.push(BenchOp::cycling(
        "photosynthesis",
        "turn_search",
        search_refs.clone(),
        search_positions.clone(),
        |(s, a), _| {
            let mut s = s.clone();
            let _ = black_box(Photosynthesis::step(&mut s, a));
            black_box(&s);
        },
        |(s, m), _| {
            let mut s = *s;
            s.play(*m);
            black_box(&s);
        },
    ));

    // The end of a day (sun move, shadows, gathering) on the same positions: the reference's
    // `sun_move` and `gathering` (events and all), the exact fast state's, and search mode's.
    let day_refs: Vec<r::State> = search_refs.iter().map(|(s, _)| s.clone()).collect();
    let day_exact: Vec<State> = search_positions.iter().map(|(s, _)| s.to_exact()).collect();
    let day_search: Vec<SearchState> = search_positions.iter().map(|(s, _)| *s).collect();
    let reference_end_of_day = |s: &r::State, _| {
        let mut s = s.clone();
        let mut events = Vec::new();
        rules::sun_move(&mut s, &mut events);
        if !s.game_over {
            rules::gathering(&mut s, &mut events);
        }
        black_box((&s, &events));
    };
    ops.push(BenchOp::cycling(
        "photosynthesis",
        "end_of_day",
        day_refs.clone(),
        day_exact,
        reference_end_of_day,
        |s, _| {
            let mut s = *s;
            s.sun_move(None);
            if !s.game_over() {
                s.gathering(None);
            }
            black_box(&s);
        },
    ));
    ops.push(BenchOp::cycling(
        "photosynthesis",
        "end_of_day_search",
        day_refs,
        day_search,
        reference_end_of_day,
        |s, _| {
            let mut s = *s;
            s.end_day();
            black_box(&s);
        },
    ));

    let (mut rr, mut fr) = (XorShift(7), XorShift(7));
    let (mut rseed, mut fseed) = (0i64, 0i64);
    ops.push(BenchOp {
        game: "photosynthesis",
        name: "random_game",
        reference: Box::new(move || {
            rseed += 1;
            black_box(reference_random_game(rseed, &mut rr));
        }),
        fast: Box::new(move || {
            fseed += 1;
            black_box(fast_random_game(fseed, &mut fr));
        }),
    });
    let (mut rr, mut sr) = (XorShift(7), 7u64);
    let (mut rseed, mut sseed) = (0i64, 0i64);
    ops.push(BenchOp {
        game: "photosynthesis",
        name: "random_game_search",
        reference: Box::new(move || {
            rseed += 1;
            black_box(reference_random_game(rseed, &mut rr));
        }),
        fast: Box::new(move || {
            sseed += 1;
            let exact = State::new_game(sseed, Params::default(), None);
            let start = SearchState::from_exact(&exact).expect("a new game fits");
            black_box(search_random_game(start, &mut sr));
        }),
    });
    ops
}
