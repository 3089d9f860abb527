//! `twinsim._core`: the engines behind the Python package `twinsim` (PettingZoo environments and
//! a batched VecEnv; see `python/twinsim/`). Everything a Python caller can get wrong raises a
//! Python exception: `ValueError` for bad input, `IndexError` for a player out of range,
//! `GameOverError` for a step after the end.

mod arena;
mod bench;
mod out_dir;
mod vec_env;

// The observation encoders live in the pure-Rust crate `twinsim-obs` (tested by cargo); this
// crate is the glue that hands their numbers to Python.
use twinsim_obs::{codec, lanes, slot};

use codec::{GameCodec, GameId};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use slot::{Slot, StepError};
use std::sync::Mutex;
use twinsim_reference::game::{EngineKind, TurnStructure};

create_exception!(
    _core,
    GameOverError,
    PyRuntimeError,
    "A step was asked of a game that is over: reset it first."
);

/// The Python exception of a refused step (`StepError` is `twinsim-obs`'s, `PyErr` pyo3's: no
/// `From` between them can live here).
pub(crate) fn step_error(error: StepError) -> PyErr {
    match error {
        StepError::GameOver => GameOverError::new_err("the game is over: call reset() first"),
        StepError::BadAction(message) => PyValueError::new_err(message),
    }
}

/// The game of a name, or a `ValueError` listing the five.
pub(crate) fn game_id(name: &str) -> PyResult<GameId> {
    name.parse::<GameId>().map_err(|_| {
        PyValueError::new_err(format!(
            "unknown game {name:?}: expected one of {}",
            codec::GAMES.join(", ")
        ))
    })
}

/// The engine kind of a name, or a `ValueError`.
pub(crate) fn engine_kind(name: &str) -> PyResult<EngineKind> {
    match name {
        "fast" => Ok(EngineKind::Fast),
        "reference" => Ok(EngineKind::Reference),
        _ => Err(PyValueError::new_err(format!(
            "unknown engine {name:?}: expected \"fast\" or \"reference\""
        ))),
    }
}

fn turns_name(turns: TurnStructure) -> &'static str {
    match turns {
        TurnStructure::Simultaneous => "simultaneous",
        TurnStructure::Alternating => "alternating",
    }
}

/// The trace names of the games.
#[pyfunction]
fn games() -> Vec<&'static str> {
    codec::GAMES.to_vec()
}

/// The built-in search bot of each game that has one, as `(game, algorithm)` (its default:
/// `builtin:<algorithm>`), from the search crate's table.
#[pyfunction]
fn search_bots() -> Vec<(&'static str, &'static str)> {
    GameId::ALL
        .into_iter()
        .filter_map(|game| Some((game.name(), twinsim_search::bot::default_algorithm(game)?)))
        .collect()
}

/// The referee seed played for `seed` (Olymbits' 0 becomes the seed the PettingZoo envs and
/// the VecEnv play for it; every other seed is itself).
#[pyfunction]
fn referee_seed(game: &str, seed: i64) -> PyResult<i64> {
    Ok(vec_env::referee_seed(game_id(game)?, seed))
}

/// The shape of a game's spaces: `(observation_shape, observation_dtype, (low, high),
/// num_actions, num_players, turns)`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn spec(
    game: &str,
) -> PyResult<(Vec<usize>, &'static str, (i64, i64), usize, usize, &'static str)> {
    let id = game_id(game)?;
    let slot = Slot::new(id, EngineKind::Fast, 1, None, None).map_err(PyValueError::new_err)?;
    Ok((
        id.observation_shape().to_vec(),
        id.dtype().name(),
        id.observation_bounds(),
        id.num_actions(),
        slot.num_players(),
        turns_name(slot.turns()),
    ))
}

/// One game, every seat: the core under `twinsim.env` and `twinsim.parallel_env`.
#[pyclass(module = "twinsim._core")]
struct Match {
    slot: Mutex<Slot>,
}

impl Match {
    fn slot(&self) -> std::sync::MutexGuard<'_, Slot> {
        // A panic inside the engine is a bug; the guard's data is still the last good state.
        self.slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn check_player(slot: &Slot, player: usize) -> PyResult<()> {
    if player >= slot.num_players() {
        return Err(PyIndexError::new_err(format!(
            "player {player} does not exist: this game has players 0..{}",
            slot.num_players() - 1
        )));
    }
    Ok(())
}

#[pymethods]
impl Match {
    /// Sets up `game` with the referee's setup for `seed`; `params_json` is a trace's params
    /// object as JSON (league, map, ...), which `league` overrides.
    #[new]
    #[pyo3(signature = (game, seed, league=None, engine="fast", params_json=None))]
    fn new(
        game: &str,
        seed: i64,
        league: Option<u32>,
        engine: &str,
        params_json: Option<&str>,
    ) -> PyResult<Self> {
        let params = params_json
            .map(serde_json::from_str::<serde_json::Value>)
            .transpose()
            .map_err(|e| PyValueError::new_err(format!("params: {e}")))?;
        let slot = Slot::new(game_id(game)?, engine_kind(engine)?, seed, league, params.as_ref())
            .map_err(PyValueError::new_err)?;
        Ok(Match { slot: Mutex::new(slot) })
    }

    /// Starts a new game with `seed` (same game, engine and league).
    fn reset(&self, seed: i64) -> PyResult<()> {
        self.slot().reset(seed).map_err(PyValueError::new_err)
    }

    /// The game's trace name.
    #[getter]
    fn game(&self) -> &'static str {
        self.slot().game().name()
    }

    /// Number of players.
    #[getter]
    fn num_players(&self) -> usize {
        self.slot().num_players()
    }

    /// `"simultaneous"` or `"alternating"`.
    #[getter]
    fn turns(&self) -> &'static str {
        turns_name(self.slot().turns())
    }

    /// Turns resolved so far.
    #[getter]
    fn turn(&self) -> usize {
        self.slot().turn()
    }

    /// The players asked for an action now (empty once the game is over).
    fn to_act(&self) -> Vec<usize> {
        let slot = self.slot();
        (0..slot.num_players()).filter(|p| slot.to_act()[*p]).collect()
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.slot().is_over()
    }

    /// The init input each player read before its first turn view (Wondev Woman's grid size
    /// and units; `None` in games without one).
    fn init_inputs(&self) -> Vec<Option<String>> {
        self.slot().init_inputs().to_vec()
    }

    /// The exact text the referee sent each player last (`None`: nothing this turn).
    fn views(&self) -> Vec<Option<String>> {
        self.slot().views().to_vec()
    }

    /// The referee's legal lines of `player` now.
    fn legal(&self, player: usize) -> PyResult<Vec<String>> {
        let slot = self.slot();
        check_player(&slot, player)?;
        Ok(slot.legal(player))
    }

    /// The exact line action `index` of `player` stands for now.
    fn line(&self, player: usize, index: usize) -> PyResult<String> {
        let slot = self.slot();
        check_player(&slot, player)?;
        slot.line(player, index).map_err(PyValueError::new_err)
    }

    /// The action index `line` of `player` stands for now (`None`: outside the discrete space).
    /// For an X-mas Rush MOVE path, the index of the cell it ends on.
    fn index_of(&self, player: usize, line: &str) -> PyResult<Option<usize>> {
        let slot = self.slot();
        check_player(&slot, player)?;
        Ok(slot.index_of(player, line))
    }

    /// `player`'s observation (the game's documented planes, in its number type: int8,
    /// int16 or int32).
    fn observe<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Bound<'py, PyAny>> {
        let slot = self.slot();
        check_player(&slot, player)?;
        let id = slot.game();
        codec::with_number!(id.dtype(), N => {
            let mut data = vec![N::default(); id.observation_len()];
            slot.observe(player, &mut data);
            let flat = PyArray1::from_vec(py, data);
            Ok(flat.reshape(id.observation_shape())?.into_any())
        })
    }

    /// `player`'s action mask (int8 over the game's `Discrete(n)`).
    fn mask<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let slot = self.slot();
        check_player(&slot, player)?;
        let mut data = vec![0; slot.game().num_actions()];
        slot.mask(player, &mut data);
        Ok(PyArray1::from_vec(py, data))
    }

    /// Plays one turn from action indices, one per player (ignored for players not to act).
    fn step_indices(&self, indices: Vec<i64>) -> PyResult<()> {
        self.slot().step_indices(&indices).map_err(step_error)
    }

    /// Plays one turn from the exact lines the players print, one entry per player (`None` for
    /// players not to act; `None` from a player to act is a timeout).
    fn step_lines(&self, lines: Vec<Option<String>>) -> PyResult<()> {
        self.slot().step_lines(lines).map_err(step_error)
    }

    /// Each player's score now (the game's own score; Zuniq scores only at the end).
    fn scores(&self) -> Vec<f64> {
        self.slot().scores().0.to_vec()
    }

    /// Each player's score change in the last turn.
    fn score_deltas(&self) -> Vec<f64> {
        self.slot().scores().1
    }

    /// The rewards of the last step: the final ranking as +1/0/−1 once over, else 0.
    fn rewards(&self) -> Vec<f32> {
        self.slot().rewards().to_vec()
    }

    /// 1-based ranks once the game is over.
    fn ranks(&self) -> Option<Vec<usize>> {
        self.slot().ranks()
    }

    /// The engine's outcome object as JSON, once the game is over.
    fn outcome_json(&self) -> Option<String> {
        self.slot().outcome().map(|o| o.to_string())
    }

    /// The setup fields and the last turn's fields the engine reproduces (trace keys), as JSON.
    fn records_json(&self) -> (String, String) {
        let (setup, turn) = self.slot().records();
        (
            serde_json::Value::Object(setup.to_map()).to_string(),
            serde_json::Value::Object(turn.to_map()).to_string(),
        )
    }

    /// The position as the terminal shows it (ANSI colour when `colour`).
    #[pyo3(signature = (colour=false))]
    fn render(&self, colour: bool) -> String {
        self.slot().render(colour)
    }
}

/// Replays a referee trace file through `engine` (`"fast"`, `"reference"` or `"both"`) and
/// returns one `(game, seed, engine, turns, differences)` per diverging game replay, where
/// `differences` lists `(moment, field, expected, found)`. An empty list: every game replayed
/// identically.
#[pyfunction]
#[pyo3(signature = (path, engine="both"))]
#[allow(clippy::type_complexity)]
fn replay(
    py: Python<'_>,
    path: std::path::PathBuf,
    engine: &str,
) -> PyResult<Vec<(String, Option<i64>, String, usize, Vec<(String, String, String, String)>)>> {
    let kinds = match engine {
        "both" => vec![EngineKind::Reference, EngineKind::Fast],
        other => vec![engine_kind(other)?],
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
    let records = twinsim_reference::trace::parse_jsonl(&text)
        .map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))?;
    let mut mismatches = Vec::new();
    for record in &records {
        let game = game_id(&record.game)?;
        for kind in &kinds {
            let engine = slot::engine(game, *kind);
            let report = py.allow_threads(|| twinsim_reference::trace::replay(engine, record));
            if !report.is_ok() {
                let differences = report
                    .differences
                    .iter()
                    .map(|d| {
                        (d.moment.to_string(), d.field.clone(), d.expected.clone(), d.found.clone())
                    })
                    .collect();
                mismatches.push((
                    report.game,
                    report.seed,
                    kind.to_string(),
                    report.turns,
                    differences,
                ));
            }
        }
    }
    Ok(mismatches)
}

/// The text-level engine's speed, `python/bench.py`'s `text eng` column (its baseline is
/// `bench::typed_engine_seconds`): plays random games of `game` (a random legal
/// line for every player to act; a finished game is set up again with the next seed) until
/// `turns` turns are played and returns the seconds spent in setup and `play_turn` alone, the
/// text engine's share of a view-path environment step. The GIL is released.
#[pyfunction]
#[pyo3(signature = (game, turns, seed=1, engine="fast"))]
fn engine_seconds(
    py: Python<'_>,
    game: &str,
    turns: usize,
    seed: i64,
    engine: &str,
) -> PyResult<f64> {
    let engine = slot::engine(game_id(game)?, engine_kind(engine)?);
    py.allow_threads(|| {
        let params = serde_json::json!({});
        let mut rng = twinsim_reference::java_random::JavaRandom::new(seed);
        let mut seed = seed;
        let mut spent = std::time::Duration::ZERO;
        let start = std::time::Instant::now();
        let mut play = engine.setup(Some(seed), &params)?;
        spent += start.elapsed();
        for _ in 0..turns {
            if play.is_over() {
                seed += 1;
                let start = std::time::Instant::now();
                play = engine.setup(Some(seed), &params)?;
                spent += start.elapsed();
            }
            let acting = play.players_to_act();
            let choose = |player: usize, rng: &mut twinsim_reference::java_random::JavaRandom| {
                let lines = play.legal_lines(player);
                (!lines.is_empty())
                    .then(|| lines[rng.next_below(lines.len() as i32) as usize].clone())
            };
            let actions: Vec<Option<String>> = match engine.turns() {
                TurnStructure::Alternating => vec![choose(acting[0], &mut rng)],
                TurnStructure::Simultaneous => (0..play.num_players())
                    .map(|p| if acting.contains(&p) { choose(p, &mut rng) } else { None })
                    .collect(),
            };
            let start = std::time::Instant::now();
            play.play_turn(&actions)?;
            spent += start.elapsed();
        }
        Ok::<_, String>(spent.as_secs_f64())
    })
    .map_err(PyValueError::new_err)
}

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(search_bots, m)?)?;
    m.add_function(wrap_pyfunction!(referee_seed, m)?)?;
    m.add_function(wrap_pyfunction!(spec, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(engine_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(bench::typed_engine_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(bench::lanes_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_json, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_shard, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_identity, m)?)?;
    m.add_class::<arena::Tally>()?;
    m.add_class::<arena::Bot>()?;
    out_dir::register(m)?;
    m.add_class::<Match>()?;
    m.add_class::<vec_env::VecEnv>()?;
    m.add("GameOverError", m.py().get_type::<GameOverError>())?;
    Ok(())
}
