//! The bare fast twin's speed through its typed API, the baseline of `python/bench.py`.

use crate::codec::GameId;
use crate::game_id;
use pyo3::prelude::*;
use std::time::{Duration, Instant};
use twinsim_fast::game::{MoveBuffer, SearchGame};
use twinsim_reference::java_random::JavaRandom;

/// Random games of `G` through the allocation-free search API (a uniformly random legal action
/// for every player to act, from [`SearchGame::legal_moves`]; a finished game set up again with
/// the next seed; default parameters: the top league) until `turns` turns are played. Returns
/// the time spent in setup and [`SearchGame::play`] alone, or with `whole` the time of the whole
/// loop: the legal lists and the random choices too, everything a Rust program stepping the same
/// random games does.
fn typed_seconds<G: SearchGame>(turns: usize, seed: i64, whole: bool) -> Result<Duration, String> {
    let params = G::Params::default();
    let mut rng = JavaRandom::new(seed);
    let mut seed = seed;
    let mut spent = Duration::ZERO;
    let begin = Instant::now();
    let mut state = G::new_game(seed, &params);
    spent += begin.elapsed();
    let mut moves = G::MoveList::default();
    let mut joint: Vec<Option<G::Action>> = Vec::new();
    for _ in 0..turns {
        if G::to_act(&state).is_empty() {
            seed += 1;
            let start = Instant::now();
            state = G::new_game(seed, &params);
            spent += start.elapsed();
        }
        joint.clear();
        joint.resize(G::num_players(&state), None);
        for player in G::to_act(&state).iter() {
            G::legal_moves(&state, player, &mut moves);
            if !moves.is_empty() {
                let pick = rng.next_below(moves.len() as i32) as usize;
                joint[player] = Some(moves.get(pick).clone());
            }
        }
        let start = Instant::now();
        G::play(&mut state, &joint).map_err(|e| e.to_string())?;
        spent += start.elapsed();
    }
    Ok(if whole { begin.elapsed() } else { spent })
}

/// The bare fast twin's speed through its allocation-free search API (`new_game`, `to_act`,
/// `legal_moves`, `play`: no text, no views, no observations), for `python/bench.py`: plays
/// random games of `game` until `turns` turns are played and returns the seconds spent in setup
/// and `play` alone, or with `whole` the seconds of the whole loop (legal lists and random
/// choices included). The GIL is released.
#[pyfunction]
#[pyo3(signature = (game, turns, seed=1, whole=false))]
pub fn typed_engine_seconds(
    py: Python<'_>,
    game: &str,
    turns: usize,
    seed: i64,
    whole: bool,
) -> PyResult<f64> {
    use twinsim_fast::*;
    let game = game_id(game)?;
    let spent = py.allow_threads(|| match game {
        GameId::XmasRush => typed_seconds::<xmas_rush::FastXmasRush>(turns, seed, whole),
        GameId::Photosynthesis => {
            typed_seconds::<photosynthesis::FastPhotosynthesis>(turns, seed, whole)
        }
        GameId::Zuniq => typed_seconds::<zuniq::FastZuniq>(turns, seed, whole),
        GameId::Olymbits => typed_seconds::<olymbits::FastOlymbits>(turns, seed, whole),
        GameId::WondevWoman => typed_seconds::<wondev_woman::FastWondevWoman>(turns, seed, whole),
    });
    spent.map(|d| d.as_secs_f64()).map_err(pyo3::exceptions::PyRuntimeError::new_err)
}

/// `num_envs` games of `game` in VecEnv's typed lanes stepped `steps` times from Rust alone
/// (one thread, reused rows, random allowed actions drawn outside the timed region): the
/// seconds spent stepping, for `python/bench.py`, which compares them with `VecEnv.step` to
/// separate what computing observations and masks costs from what the Python binding costs.
/// The GIL is released.
#[pyfunction]
#[pyo3(signature = (game, num_envs, steps, seed=1))]
pub fn lanes_seconds(
    py: Python<'_>,
    game: &str,
    num_envs: usize,
    steps: usize,
    seed: i64,
) -> PyResult<f64> {
    let game = game_id(game)?;
    let spent = py.allow_threads(|| crate::vec_env::lanes_seconds(game, num_envs, steps, seed));
    spent.map(|d| d.as_secs_f64()).map_err(pyo3::exceptions::PyRuntimeError::new_err)
}
