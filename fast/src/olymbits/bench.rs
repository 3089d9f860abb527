//! Benchmark pairs: each hot operation through the reference and through the fast twin, on the
//! same prepared inputs (cycled). The `_search` pairs run the fast twin in search mode
//! ([`SearchDice`]) against the reference's exact turn.

use super::check::reference_hurdle_solution;
use super::dice::{Dice, SearchDice};
use super::state::State;
use super::step::Input;
use super::tables::{hurdle_solution, hurdle_tables};
use crate::bench::BenchOp;
use std::hint::black_box;
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::olymbits as r;

/// Positions the fast twin reaches in its own random games (exact generator, every depth, not
/// over), with the actions played from them, and the reference state of each.
fn positions() -> Vec<(State, r::State, [r::Action; 3])> {
    let mut out = Vec::new();
    let mut rng = JavaRandom::new(2024);
    for seed in 1..=8i64 {
        let mut s = State::new_unchecked(seed * 7919, &r::Params::default());
        while !s.is_over() {
            let actions: [r::Action; 3] = std::array::from_fn(|_| {
                r::Action::ALL[rng.next_int_bounded(4).unwrap_or(0) as usize]
            });
            out.push((s.clone(), s.to_reference(), actions));
            s.step(&actions.map(Some)).expect("a joint turn of a game not over");
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

/// A copy-make joint turn pair: a reference state and its actions, the fast state (exact or
/// search dice) and the same actions.
fn joint_turn_op<D: Dice + Send + 'static>(
    name: &'static str,
    ref_pos: Vec<(r::State, [r::PlayerInput; 3])>,
    fast_pos: Vec<(State<D>, [Option<r::Action>; 3])>,
) -> BenchOp {
    BenchOp::cycling(
        "olymbits",
        name,
        ref_pos,
        fast_pos,
        |(s, a), _| {
            let mut s = s.clone();
            let _ = r::play_turn(&mut s, a);
            black_box(&s);
        },
        |(s, a), _| {
            let mut s = s.clone();
            let _ = s.step(a);
            black_box(&s);
        },
    )
}

/// A whole game pair: setup from seeds 1, 2, ... and the same 100 joint actions; the fast side's
/// setup is `new_fast` (exact or search dice).
fn whole_game_op<D: Dice + Send + 'static>(
    name: &'static str,
    new_fast: fn(i64) -> State<D>,
) -> BenchOp {
    let acts = whole_game_actions();
    let acts2 = acts.clone();
    let (mut k, mut l) = (1i64, 1i64);
    BenchOp {
        game: "olymbits",
        name,
        reference: Box::new(move || {
            let mut s = r::new_game_unchecked(k, &r::Params::default());
            k += 1;
            for a in &acts {
                if s.is_over() {
                    break;
                }
                let _ = r::play_turn(&mut s, &a.map(r::PlayerInput::Action));
            }
            black_box(&s);
        }),
        fast: Box::new(move || {
            let mut s = new_fast(l);
            l += 1;
            for a in &acts2 {
                if s.is_over() {
                    break;
                }
                let _ = s.play_turn(&a.map(|a| Input::Action(a.index() as u8)));
            }
            black_box(&s);
        }),
    }
}

/// The Olymbits pairs: `joint_turn` (copy-make: copy a state, play one turn; SHA-1 of the
/// skating shuffle included), `whole_game` (setup from a seed and 100 turns, exact generator),
/// `hurdle_best_action` (best actions and turns to finish for a runner: the reference's search
/// over its tick vs one table lookup).
pub fn bench_ops() -> Vec<BenchOp> {
    let pos = positions();
    let fast_pos: Vec<(State, [Option<r::Action>; 3])> =
        pos.iter().map(|(s, _, a)| (s.clone(), a.map(Some))).collect();
    let ref_pos: Vec<(r::State, [r::PlayerInput; 3])> =
        pos.iter().map(|(_, s, a)| (s.clone(), a.map(r::PlayerInput::Action))).collect();
    let joint_turn = joint_turn_op("joint_turn", ref_pos.clone(), fast_pos);
    let whole_game =
        whole_game_op("whole_game", |seed| State::new_unchecked(seed, &r::Params::default()));

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
        pos.iter().filter(|(_, s, _)| s.games.iter().all(|g| !g.should_reset)).collect();
    let calm_ref: Vec<(r::State, [r::PlayerInput; 3])> =
        calm.iter().map(|(_, s, a)| (s.clone(), a.map(r::PlayerInput::Action))).collect();
    let calm_fast: Vec<(State, [Option<r::Action>; 3])> =
        calm.iter().map(|(s, _, a)| (s.clone(), a.map(Some))).collect();
    let joint_turn_no_reset = joint_turn_op("joint_turn_no_reset", calm_ref, calm_fast);
    let mut ref_rng = twinsim_reference::sha1prng::Sha1Prng::new(3);
    let mut fast_rng = super::RefereeDice::from_reference(&ref_rng);
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
            super::Dice::shuffle4(&mut fast_rng, &mut fast_order);
            black_box(&fast_order);
        }),
    };
    // Search mode: the same joint turns and whole games on `State<SearchDice>` (same rules,
    // different dice); the reference side is the reference's exact turn, for scale.
    let search_pos: Vec<(State<SearchDice>, [Option<r::Action>; 3])> = pos
        .iter()
        .enumerate()
        .map(|(k, (s, _, a))| (s.with_search_dice(SearchDice::new(k as i64)), a.map(Some)))
        .collect();
    let joint_turn_search = joint_turn_op("joint_turn_search", ref_pos, search_pos);
    let whole_game_search = whole_game_op("whole_game_search", |seed| {
        State::with_dice(SearchDice::new(seed), &r::Params::default())
    });
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
