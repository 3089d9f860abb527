//! The arena and the built-in search bots from Python: `twinsim.arena(...)` runs the arena of
//! the `twinsim arena` command and returns its results as data; `twinsim.bot(...)` is a search
//! bot as a callable from the text a referee sends to the line it prints.

use crate::{engine_kind, game_id};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use twinsim_arena::{ArenaConfig, BotSpec, GameResult, Standings};
use twinsim_reference::game::EngineKind;
use twinsim_search::bot::ViewPlayer;
use twinsim_search::stdio::TurnClock;

/// Each bot's own time scale, by index in `bots` (`ArenaConfig::bot_time_scales`), from the
/// `(bot, scale)` pairs of Python's `bot_time_scales` (`--bot-time-scale BOT=X`: `bot` counted
/// from 0), refused as `twinsim arena` refuses its flags: an index that is not a bot's, or a bot
/// given twice (the scales' range is [`ArenaConfig::validate`]'s to check).
fn bot_time_scales(pairs: &[(i64, f64)], bots: usize) -> PyResult<Vec<Option<f64>>> {
    let mut scales: Vec<Option<f64>> = vec![None; bots];
    for &(bot, scale) in pairs {
        let index = usize::try_from(bot).map_err(|_| {
            PyValueError::new_err(format!(
                "bot_time_scales: bot {bot}: a bot's index counts from 0 (0 for the first bot)"
            ))
        })?;
        match scales.get_mut(index) {
            Some(slot @ None) => *slot = Some(scale),
            Some(Some(_)) => {
                return Err(PyValueError::new_err(format!("bot_time_scales: bot {bot} twice")))
            }
            None => {
                return Err(PyValueError::new_err(format!(
                    "bot_time_scales: a time scale for bot {bot}: there are {bots} bots (0 to {})",
                    bots.saturating_sub(1)
                )))
            }
        }
    }
    Ok(scales)
}

/// The arena run of Python's arguments, checked as `twinsim arena` checks its flags (`engine`:
/// `fast`, `reference`, or `both`: the fast twin referees and the reference replays each turn).
#[allow(clippy::too_many_arguments)]
fn arena_config(
    game: &str,
    bots: &[String],
    games: usize,
    seed: i64,
    league: Option<u32>,
    engine: &str,
    threads: Option<usize>,
    time_scale: f64,
    stderr_limit: usize,
) -> PyResult<ArenaConfig> {
    let id = game_id(game)?;
    let players = crate::spec(game)?.4;
    if bots.len() != players {
        return Err(PyValueError::new_err(format!(
            "{game} has {players} seats: give {players} bots, not {}",
            bots.len()
        )));
    }
    if !(time_scale.is_finite() && time_scale > 0.0) {
        return Err(PyValueError::new_err("time_scale must be a positive number"));
    }
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let specs = bots
        .iter()
        .map(|b| b.parse::<BotSpec>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(PyValueError::new_err)?;
    let (engine, lockstep) = match engine {
        "both" => (EngineKind::Fast, true),
        other => (engine_kind(other)?, false),
    };
    let config = ArenaConfig {
        seed,
        league,
        time_scale,
        engine,
        threads,
        stderr_limit,
        lockstep,
        ..ArenaConfig::new(id.name(), specs, games)
    };
    config.validate().map_err(PyValueError::new_err)?;
    Ok(config)
}

/// `config` with each bot's own time scale of the `(bot, scale)` pairs (see
/// [`bot_time_scales`]), checked again as a whole.
fn with_bot_time_scales(mut config: ArenaConfig, pairs: &[(i64, f64)]) -> PyResult<ArenaConfig> {
    config.bot_time_scales = bot_time_scales(pairs, config.bots.len())?;
    config.validate().map_err(PyValueError::new_err)?;
    Ok(config)
}

/// Each bot's totals in the arena's one results schema ([`twinsim_arena::BotSummary`]: the
/// `bots` list of `twinsim arena --json` too).
fn bot_totals(standings: &Standings, config: &ArenaConfig) -> Value {
    serde_json::to_value(standings.summaries(&config.bots)).expect("the totals serialize")
}

/// Runs `games` arena games of `game` between `bots` (one per seat: `builtin:random`,
/// `builtin:greedy`, `builtin:<search>[@engine][:iterations=N]`, or a shell command), seats
/// rotating, and returns `{"results": [...], "bots": [...]}` as JSON: every game's result and
/// each bot's totals. `bot_time_scales`: `(bot, scale)` pairs, a bot's own scale instead of
/// `time_scale` (`twinsim arena --bot-time-scale BOT=X`).
#[pyfunction]
#[pyo3(signature = (game, bots, games=10, seed=1, league=None, engine="fast", threads=None, time_scale=1.0, bot_time_scales=Vec::new()))]
#[allow(clippy::too_many_arguments)]
pub fn arena_json(
    py: Python<'_>,
    game: &str,
    bots: Vec<String>,
    games: usize,
    seed: i64,
    league: Option<u32>,
    engine: &str,
    threads: Option<usize>,
    time_scale: f64,
    bot_time_scales: Vec<(i64, f64)>,
) -> PyResult<String> {
    let stderr_limit = twinsim_arena::bots::DEFAULT_STDERR_LIMIT;
    let config =
        arena_config(game, &bots, games, seed, league, engine, threads, time_scale, stderr_limit)
            .and_then(|config| with_bot_time_scales(config, &bot_time_scales))?;
    // Results arrive streamed, in game order; a notebook's runs are small enough to keep them.
    let results = Mutex::new(Vec::new());
    let end = py
        .allow_threads(|| {
            twinsim_arena::run(&config, &|result, _| {
                results.lock().unwrap_or_else(|e| e.into_inner()).push(result.clone())
            })
        })
        .map_err(PyValueError::new_err)?;
    let bots = bot_totals(&end.standings, &config);
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(json!({ "results": results, "bots": bots }).to_string())
}

/// One played game of a shard: its index, its `results.jsonl` and `traces.jsonl` lines (the
/// bytes `twinsim arena --out` writes, without the newline) and its `stderr/` files.
type ShardGame = (usize, String, String, Vec<(String, String)>);

/// Plays games `start..stop` of the arena run of these arguments (a shard of a distributed
/// tournament): each game with exactly the seed, seats and bot seeds it has in the whole run of
/// `games` games. Returns the games in index order.
#[pyfunction]
#[pyo3(signature = (game, bots, games, seed, start, stop, league=None, engine="fast", threads=None, time_scale=1.0, stderr_limit=twinsim_arena::bots::DEFAULT_STDERR_LIMIT, bot_time_scales=Vec::new()))]
#[allow(clippy::too_many_arguments)]
pub fn arena_shard(
    py: Python<'_>,
    game: &str,
    bots: Vec<String>,
    games: usize,
    seed: i64,
    start: usize,
    stop: usize,
    league: Option<u32>,
    engine: &str,
    threads: Option<usize>,
    time_scale: f64,
    stderr_limit: usize,
    bot_time_scales: Vec<(i64, f64)>,
) -> PyResult<Vec<ShardGame>> {
    let config =
        arena_config(game, &bots, games, seed, league, engine, threads, time_scale, stderr_limit)
            .and_then(|config| with_bot_time_scales(config, &bot_time_scales))?;
    let played = Mutex::new(Vec::new());
    py.allow_threads(|| {
        twinsim_arena::play_shard(&config, start..stop.max(start), &|g| {
            let files = g.stderr_files().into_iter().map(|(n, t)| (n, t.to_string())).collect();
            let record = (g.result.index, g.result_line(), g.trace_line(), files);
            played.lock().unwrap_or_else(|e| e.into_inner()).push(record);
        })
    })
    .map_err(PyValueError::new_err)?;
    let mut played = played.into_inner().unwrap_or_else(|e| e.into_inner());
    played.sort_by_key(|g| g.0);
    Ok(played)
}

/// The `arena.json` text of the arena run of these arguments (`twinsim arena --out` writes it,
/// and `--resume` continues only a run of the same identity).
#[pyfunction]
#[pyo3(signature = (game, bots, seed, league=None, engine="fast"))]
pub fn arena_identity(
    game: &str,
    bots: Vec<String>,
    seed: i64,
    league: Option<u32>,
    engine: &str,
) -> PyResult<String> {
    let config = arena_config(game, &bots, 0, seed, league, engine, None, 1.0, 0)?;
    Ok(twinsim_arena::run_identity(&config).to_string())
}

/// The standings of an arena run fed its `results.jsonl` lines one by one (any order; each
/// game index counted once): the final table `twinsim arena` prints, and each bot's totals.
#[pyclass(module = "twinsim._core")]
pub struct Tally {
    config: ArenaConfig,
    standings: Standings,
    seen: HashSet<usize>,
}

#[pymethods]
impl Tally {
    /// The standings of the run of `game` between `bots` (the table's header names the
    /// `engine`).
    #[new]
    #[pyo3(signature = (game, bots, league=None, engine="fast"))]
    fn new(game: &str, bots: Vec<String>, league: Option<u32>, engine: &str) -> PyResult<Self> {
        let config = arena_config(game, &bots, 0, 1, league, engine, None, 1.0, 0)?;
        let standings = Standings::new(config.bots.len());
        Ok(Tally { config, standings, seen: HashSet::new() })
    }

    /// Counts the game of a `results.jsonl` line; `False` if its index was already counted.
    fn add(&mut self, line: &str) -> PyResult<bool> {
        let result = GameResult::from_line(line)
            .ok_or_else(|| PyValueError::new_err(format!("not a results line: {line:.80}")))?;
        if result.seats.len() != self.config.bots.len() {
            return Err(PyValueError::new_err(format!("a result of another run: {line:.80}")));
        }
        if !self.seen.insert(result.index) {
            return Ok(false);
        }
        self.standings.add(result);
        Ok(true)
    }

    /// `(table, bots)`: the final table `twinsim arena` prints over the games counted so far,
    /// and each bot's totals as a JSON list (as `arena_json` gives them).
    fn report(&self) -> (String, String) {
        let mut standings = self.standings.clone();
        standings.flush();
        let bots = bot_totals(&standings, &self.config).to_string();
        (twinsim_arena::report(&self.config, &standings), bots)
    }
}

impl Tally {
    /// The standings counted so far (games in index order; see [`Standings::add`]).
    pub(crate) fn standings(&self) -> &Standings {
        &self.standings
    }
}

/// A built-in search bot of one seat: called with the text the referee sends (init input
/// first on the first call), it returns the line to print.
#[pyclass(module = "twinsim._core")]
pub struct Bot {
    player: Mutex<Box<dyn ViewPlayer>>,
    /// The referee's time rules, kept as a bot on standard input keeps them (Zuniq's budget
    /// counts the bot's own turns only); `fixed` replaces them with one time per answer.
    clock: Mutex<TurnClock>,
    fixed: Option<Duration>,
}

#[pymethods]
impl Bot {
    /// The bot `spec` (`builtin:<search>[@reference|@fast][:iterations=N]`) of `game` for
    /// `seat`, its randomness seeded by `seed`; `time_ms` replaces the referee's time limits.
    #[new]
    #[pyo3(signature = (game, spec, seat, seed=1, time_ms=None))]
    fn new(game: &str, spec: &str, seat: usize, seed: i64, time_ms: Option<u64>) -> PyResult<Self> {
        let id = game_id(game)?;
        let players = crate::spec(game)?.4;
        if seat >= players {
            return Err(PyValueError::new_err(format!("{game} has seats 0..{}", players - 1)));
        }
        let search = match spec.parse::<BotSpec>().map_err(PyValueError::new_err)? {
            BotSpec::Search(search) => search,
            other => {
                return Err(PyValueError::new_err(format!(
                    "{other} is not a search bot: builtin:random and builtin:greedy read the true \
                     state, not the views (sample the action mask instead); a command is a process"
                )))
            }
        };
        let player = twinsim_search::bot::make_player(id.name(), &search, seat, seed)
            .map_err(PyValueError::new_err)?;
        Ok(Bot {
            player: Mutex::new(player),
            clock: Mutex::new(TurnClock::new(id.info().time_limits)),
            fixed: time_ms.map(Duration::from_millis),
        })
    }

    /// The line this bot prints after reading `input` (`None`: it says nothing). The GIL is
    /// released while it thinks.
    fn __call__(&self, py: Python<'_>, input: &str) -> Option<String> {
        let mut clock = self.clock.lock().unwrap_or_else(|p| p.into_inner());
        let deadline = match self.fixed {
            Some(fixed) => Instant::now() + fixed,
            None => clock.start_turn(),
        };
        let mut guard = self.player.lock().unwrap_or_else(|p| p.into_inner());
        let player: &mut Box<dyn ViewPlayer> = &mut guard;
        let line = py.allow_threads(|| player.play(input, deadline));
        clock.end_turn();
        line
    }

    /// `(answers, search iterations)` so far.
    fn stats(&self) -> (u64, u64) {
        let stats = self.player.lock().unwrap_or_else(|p| p.into_inner()).stats();
        (stats.moves, stats.iterations)
    }
}
