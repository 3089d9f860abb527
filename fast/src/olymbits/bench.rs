//! Benchmark pairs: each hot operation through the reference and through the fast twin, on the
//! same prepared inputs (cycled). The `_search` pairs run the fast twin in search mode
//! ([`SearchDice`]) against the reference's exact turn.

use super::check::reference_hurdle_solution;
use super::dice::SearchDice;
use super::state::State;
use super::step::Input;
use super::tables::{hurdle_solution, hurdle_tables};
use crate::bench::BenchOp;
use std::hint::black_box;
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::olymbits as r;

/// States from random games at every depth (not over), with the actions to play from them.
fn positions() -> Vec<(r::State, [r::Action; 3])> {
    let mut out = Vec::new();
    let mut rng = JavaRandom::new(2024);
    for seed in 1..=8i64 {
        let mut s = r::new_game(seed * 7919, &r::Params::default()).unwrap();
        while !s.is_over() {
            let actions: [r::Action; 3] = std::array::from_fn(|_| {
                r::Action::ALL[rng.next_int_bounded(4).unwrap_or(0) as usize]
            });
            out.push((s.clone(), actions));
            r::resolve_turn(&mut s, &actions.map(r::PlayerInput::Action)).unwrap();
        }
    }
    out
}

fn whole_game_actions() -> Vec<[r::Action; 3]> {
    let mut rng = JavaRandom::new(99);
    (0..100)
        .map(|_| {
            std::array::from_fn(|_| r::Action::ALL[rng.next_int_bounded(4).unwrap_or(0) as usize])
        })
        .collect()
}

/// The Olymbits pairs: `joint_turn` (copy-make: copy a state, play one turn; SHA-1 of the
/// skating shuffle included), `whole_game` (setup from a seed and 100 turns, exact generator),
/// `hurdle_best_action` (best actions and turns to finish for a runner: the reference's search
/// over its tick vs one table lookup).
pub fn ops() -> Vec<BenchOp> {
    let pos = positions();
    let fast_pos: Vec<(State, [Option<r::Action>; 3])> =
        pos.iter().map(|(s, a)| (State::from(s), a.map(Some))).collect();
    let ref_pos: Vec<(r::State, [r::PlayerInput; 3])> =
        pos.iter().map(|(s, a)| (s.clone(), a.map(r::PlayerInput::Action))).collect();
    let (mut i, mut j) = (0usize, 0usize);
    let joint_turn = BenchOp {
        game: "olymbits",
        name: "joint_turn",
        reference: Box::new(move || {
            let (s, a) = &ref_pos[i % ref_pos.len()];
            i += 1;
            let mut s = s.clone();
            let _ = r::resolve_turn(&mut s, a);
            black_box(&s);
        }),
        fast: Box::new(move || {
            let (s, a) = &fast_pos[j % fast_pos.len()];
            j += 1;
            let mut s = s.clone();
            let _ = s.step(a);
            black_box(&s);
        }),
    };

    let acts = whole_game_actions();
    let acts2 = acts.clone();
    let (mut k, mut l) = (1i64, 1i64);
    let whole_game = BenchOp {
        game: "olymbits",
        name: "whole_game",
        reference: Box::new(move || {
            let mut s = r::new_game_unchecked(k, &r::Params::default());
            k += 1;
            for a in &acts {
                if s.is_over() {
                    break;
                }
                let _ = r::resolve_turn(&mut s, &a.map(r::PlayerInput::Action));
            }
            black_box(&s);
        }),
        fast: Box::new(move || {
            let mut s = State::new_unchecked(l, &r::Params::default());
            l += 1;
            for a in &acts2 {
                if s.is_over() {
                    break;
                }
                let _ = s.step_inputs(&a.map(|a| Input::Action(a.index() as u8)));
            }
            black_box(&s);
        }),
    };

    let tables = hurdle_tables();
    let queries: Vec<(Vec<u8>, u8, u8, u8)> = (0..512usize)
        .map(|q| {
            let id = (q * 37) % tables.masks.len();
            let mask = tables.masks[id];
            let map = (0..30).map(|x| if mask >> x & 1 == 1 { b'#' } else { b'.' }).collect();
            (map, id as u8, (q % 29) as u8, ((q / 29) % 3) as u8)
        })
        .collect();
    let fast_queries: Vec<(u8, u8, u8)> = queries.iter().map(|(_, t, c, s)| (*t, *c, *s)).collect();
    let (mut m, mut n) = (0usize, 0usize);
    let hurdle_best_action = BenchOp {
        game: "olymbits",
        name: "hurdle_best_action",
        reference: Box::new(move || {
            let (map, _, cell, stun) = &queries[m & 511];
            m += 1;
            black_box(reference_hurdle_solution(map, *cell, *stun));
        }),
        fast: Box::new(move || {
            let (t, cell, stun) = fast_queries[n & 511];
            n += 1;
            black_box(hurdle_solution(tables, black_box(t), cell, stun));
        }),
    };
    // The same joint turn on positions where no mini-game regenerates (only the skating
    // shuffle draws), and that shuffle alone: the generator's share of a turn.
    let calm: Vec<_> =
        pos.iter().filter(|(s, _)| s.games.iter().all(|g| !g.should_reset)).collect();
    let calm_ref: Vec<(r::State, [r::PlayerInput; 3])> =
        calm.iter().map(|(s, a)| (s.clone(), a.map(r::PlayerInput::Action))).collect();
    let calm_fast: Vec<(State, [Option<r::Action>; 3])> =
        calm.iter().map(|(s, a)| (State::from(s), a.map(Some))).collect();
    let (mut p, mut q) = (0usize, 0usize);
    let joint_turn_no_reset = BenchOp {
        game: "olymbits",
        name: "joint_turn_no_reset",
        reference: Box::new(move || {
            let (s, a) = &calm_ref[p % calm_ref.len()];
            p += 1;
            let mut s = s.clone();
            let _ = r::resolve_turn(&mut s, a);
            black_box(&s);
        }),
        fast: Box::new(move || {
            let (s, a) = &calm_fast[q % calm_fast.len()];
            q += 1;
            let mut s = s.clone();
            let _ = s.step(a);
            black_box(&s);
        }),
    };
    let mut ref_rng = twinsim_reference::sha1prng::Sha1Prng::new(3);
    let mut fast_rng = ref_rng.clone();
    let mut ref_order = [r::Action::Up, r::Action::Down, r::Action::Left, r::Action::Right];
    let mut fast_order = [0u8, 1, 2, 3];
    let skating_shuffle = BenchOp {
        game: "olymbits",
        name: "skating_shuffle_draws",
        reference: Box::new(move || {
            ref_rng.shuffle(&mut ref_order);
            black_box(&ref_order);
        }),
        fast: Box::new(move || {
            super::step::shuffle4(&mut fast_rng, &mut fast_order);
            black_box(&fast_order);
        }),
    };
    // Search mode: the same joint turns and whole games on `State<SearchDice>` (same rules,
    // different dice); the reference side is the reference's exact turn, for scale.
    let search_pos: Vec<(State<SearchDice>, [Option<r::Action>; 3])> = pos
        .iter()
        .enumerate()
        .map(|(k, (s, a))| {
            (State::from(s).with_search_dice(SearchDice::new(k as i64)), a.map(Some))
        })
        .collect();
    let ref_pos2: Vec<(r::State, [r::PlayerInput; 3])> =
        pos.iter().map(|(s, a)| (s.clone(), a.map(r::PlayerInput::Action))).collect();
    let (mut i2, mut j2) = (0usize, 0usize);
    let joint_turn_search = BenchOp {
        game: "olymbits",
        name: "joint_turn_search",
        reference: Box::new(move || {
            let (s, a) = &ref_pos2[i2 % ref_pos2.len()];
            i2 += 1;
            let mut s = s.clone();
            let _ = r::resolve_turn(&mut s, a);
            black_box(&s);
        }),
        fast: Box::new(move || {
            let (s, a) = &search_pos[j2 % search_pos.len()];
            j2 += 1;
            let mut s = s.clone();
            let _ = s.step(a);
            black_box(&s);
        }),
    };
    let acts3 = whole_game_actions();
    let acts4 = acts3.clone();
    let (mut k3, mut l3) = (1i64, 1i64);
    let whole_game_search = BenchOp {
        game: "olymbits",
        name: "whole_game_search",
        reference: Box::new(move || {
            let mut s = r::new_game_unchecked(k3, &r::Params::default());
            k3 += 1;
            for a in &acts3 {
                if s.is_over() {
                    break;
                }
                let _ = r::resolve_turn(&mut s, &a.map(r::PlayerInput::Action));
            }
            black_box(&s);
        }),
        fast: Box::new(move || {
            let mut s = State::with_dice(SearchDice::new(l3), &r::Params::default());
            l3 += 1;
            for a in &acts4 {
                if s.is_over() {
                    break;
                }
                let _ = s.step_inputs(&a.map(|a| Input::Action(a.index() as u8)));
            }
            black_box(&s);
        }),
    };
    vec![
        joint_turn,
        joint_turn_no_reset,
        joint_turn_search,
        skating_shuffle,
        whole_game,
        whole_game_search,
        hurdle_best_action,
    ]
}
