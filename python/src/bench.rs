//! The bare fast twin's speed through its typed API, the baseline of `python/bench.py`.

use crate::codec::GameId;
use crate::game_id;
use pyo3::prelude::*;
use std::time::{Duration, Instant};
use twinsim_reference::game::{Game, TurnStructure};
use twinsim_reference::java_random::JavaRandom;

/// Random games of `G` through the typed API (a random legal action for every player to act, a
/// finished game set up again with the next seed, default parameters: the top league) until
/// `turns` turns are played; returns the time spent in `new_game` and `step` alone, and in
/// `legal_actions` too when `legal`.
fn typed_seconds<G: Game>(turns: usize, seed: i64, legal: bool) -> Result<Duration, String> {
    let params = G::Params::default();
    let mut rng = JavaRandom::new(seed);
    let mut seed = seed;
    let mut spent = Duration::ZERO;
    let start = Instant::now();
    let mut state = G::new_game(seed, &params);
    spent += start.elapsed();
    let mut actions = Vec::new();
    for _ in 0..turns {
        if G::outcome(&state).is_some() {
            seed += 1;
            let start = Instant::now();
            state = G::new_game(seed, &params);
            spent += start.elapsed();
        }
        let start = Instant::now();
        let acting = G::players_to_act(&state);
        let lists: Vec<Vec<G::Action>> =
            (0..G::num_players(&state)).map(|p| G::legal_actions(&state, p)).collect();
        if legal {
            spent += start.elapsed();
        }
        let mut choose = |player: usize| {
            let list = &lists[player];
            (!list.is_empty()).then(|| list[rng.next_below(list.len() as i32) as usize].clone())
        };
        actions.clear();
        match G::TURNS {
            TurnStructure::Alternating => {
                actions.resize(G::num_players(&state), None);
                actions[acting[0]] = choose(acting[0]);
            }
            TurnStructure::Simultaneous => {
                for p in 0..G::num_players(&state) {
                    actions.push(if acting.contains(&p) { choose(p) } else { None });
                }
            }
        }
        let start = Instant::now();
        G::step(&mut state, &actions).map_err(|e| e.to_string())?;
        spent += start.elapsed();
    }
    Ok(spent)
}

/// The bare fast twin's speed through its typed API (`Game::new_game` and `Game::step`, the
/// state stepped directly: no text, no views), for `python/bench.py`: plays random games of
/// `game` until `turns` turns are played and returns the seconds spent in setup and `step`
/// alone, or with `legal` in the players' `legal_actions` lists too (what choosing the random
/// actions needs). The GIL is released.
#[pyfunction]
#[pyo3(signature = (game, turns, seed=1, legal=false))]
pub fn typed_engine_seconds(
    py: Python<'_>,
    game: &str,
    turns: usize,
    seed: i64,
    legal: bool,
) -> PyResult<f64> {
    use twinsim_fast::*;
    let game = game_id(game)?;
    let spent = py.allow_threads(|| match game {
        GameId::XmasRush => typed_seconds::<xmas_rush::FastXmasRush>(turns, seed, legal),
        GameId::Photosynthesis => {
            typed_seconds::<photosynthesis::FastPhotosynthesis>(turns, seed, legal)
        }
        GameId::Zuniq => typed_seconds::<zuniq::FastZuniq>(turns, seed, legal),
        GameId::Olymbits => typed_seconds::<olymbits::FastOlymbits>(turns, seed, legal),
        GameId::WondevWoman => typed_seconds::<wondev_woman::FastWondevWoman>(turns, seed, legal),
    });
    spent.map(|d| d.as_secs_f64()).map_err(pyo3::exceptions::PyRuntimeError::new_err)
}
