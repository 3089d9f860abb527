//! `twinsim arena`: bots against each other under the exact rules, many games in parallel.
//!
//! Each bot is a child process speaking the game's protocol byte-exact (the views the referee
//! sends, init input first) or a built-in bot. The referee's time limits are enforced per turn
//! (per game for Zuniq's 30-second budget), and timeouts, crashes and bad output get the rules'
//! consequences because the engine is handed exactly what the referee would see: `null` for no
//! answer, the line as printed otherwise. Seats rotate over each seed so every bot plays every
//! seat.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bots;
pub mod config;
pub mod game;
pub mod out_dir;
pub mod progress;
pub mod registry;
pub mod report;
pub mod results;
pub mod standings;
pub mod stats;
pub mod times;

pub use config::{has_leagues, ArenaConfig, BotSpec, MAX_GAMES, MAX_THREADS, MAX_TIME_SCALE};
pub use game::{game_seed, play_game, PlayedGame};
pub use report::{answer_time_table, report, skill_ranking};
pub use results::{BotSummary, GameResult, PROBLEM_KINDS};
pub use standings::{totals, BotTotals, Standings};
pub use twinsim_reference::framing::TimeLimits;
pub use twinsim_search::stdio::time_limits;

use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The run's identity, written to `arena.json` so `--resume` continues only the same run.
pub fn run_identity(config: &ArenaConfig) -> Value {
    json!({
        "game": config.game, "bots": config.bots.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
        "seed": config.seed, "league": config.league, "engine": config.engine.to_string(),
    })
}

/// Ends a run's iteration over its games early (the reason is kept beside it).
struct Stop;

/// How a run ended.
pub struct RunEnd {
    /// Every counted game's totals.
    pub standings: Standings,
    /// The run was interrupted (see [`ArenaConfig::interrupt`]) before every game was played.
    pub interrupted: bool,
}

/// Runs the whole arena. `on_game` sees every counted game, in index order (games resumed from
/// `--out` first), with the standings including it (and any later games counted at once). Results are streamed: memory does not grow
/// with the number of games.
pub fn run(
    config: &ArenaConfig,
    on_game: &(dyn Fn(&GameResult, &Standings) + Sync),
) -> Result<RunEnd, String> {
    config.validate()?;
    let out = match &config.out {
        None => None,
        Some(dir) => Some(
            out_dir::OutDir::create(dir, &run_identity(config), config.resume)
                .map_err(|e| e.to_string())?,
        ),
    };
    let previous: Vec<GameResult> = match (&out, config.resume) {
        (Some(o), true) => {
            o.previous(config.games).map_err(|e| format!("{}: {e}", o.dir().display()))?
        }
        _ => Vec::new(),
    };
    let done_before: HashSet<usize> = previous.iter().map(|r| r.index).collect();
    let standings = Mutex::new(Standings::new(config.bots.len()));
    let deliver = |standings: &Standings, counted: Vec<GameResult>| {
        for result in &counted {
            on_game(result, standings);
        }
    };
    {
        let mut s = standings.lock().unwrap_or_else(|e| e.into_inner());
        for result in previous {
            let counted = s.add(result);
            deliver(&s, counted);
        }
    }
    let interrupted = || config.interrupt.as_ref().is_some_and(|f| f.load(Ordering::SeqCst));
    let games = (0..config.games).filter(|i| !done_before.contains(i));
    play_games(config, games, &|game| {
        if let Some(o) = &out {
            let _ = o.write_stderr(&game.stderr_files());
            o.append_game(&game.trace_line(), &game.result_line())
                .map_err(|e| format!("writing results to {}: {e}", o.dir().display()))?;
        }
        let mut s = standings.lock().unwrap_or_else(|e| e.into_inner());
        let counted = s.add(game.result);
        deliver(&s, counted);
        Ok(())
    })?;
    let mut standings = standings.into_inner().unwrap_or_else(|e| e.into_inner());
    let rest = standings.flush();
    for result in &rest {
        on_game(result, &standings);
    }
    let interrupted = interrupted() && standings.games() < config.games;
    Ok(RunEnd { standings, interrupted })
}

/// Plays the games `indices` of the run `config` describes, in parallel on `config.threads`
/// threads, handing each finished game to `on_game` (in finishing order). A game finished after
/// an interrupt is discarded; an error of `on_game`, a game that cannot be played or a bot command
/// that never starts (in any of these games) stops the iteration with that error.
fn play_games(
    config: &ArenaConfig,
    indices: impl Iterator<Item = usize> + Send,
    on_game: &(dyn Fn(PlayedGame) -> Result<(), String> + Sync),
) -> Result<(), String> {
    let interrupted = || config.interrupt.as_ref().is_some_and(|f| f.load(Ordering::SeqCst));
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let fail = |e: String| {
        *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
        Stop
    };
    // Bots whose command started in some game: a command that never starts stops the run.
    let started: Vec<AtomicBool> = config.bots.iter().map(|_| AtomicBool::new(false)).collect();
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(t) = config.threads {
            b = b.num_threads(t.clamp(1, MAX_THREADS));
        }
        b.build().map_err(|e| e.to_string())?
    };
    pool.install(|| {
        use rayon::prelude::*;
        // `Err(Stop)` ends the iteration at once (an interrupt or a failure), so a run of 10^9
        // games does not walk the remaining indices.
        let _ = indices.par_bridge().try_for_each(|index| -> Result<(), Stop> {
            if interrupted() || failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                return Err(Stop);
            }
            let game = play_game(config, index).map_err(fail)?;
            if interrupted() {
                return Err(Stop); // its bots got the interrupt too: not a fair game
            }
            for (seat, &b) in game.result.seats.iter().enumerate() {
                if game.result.not_started[seat] {
                    if !started[b].load(Ordering::SeqCst) {
                        let why = game.result.problems[seat]
                            .get("not_started")
                            .cloned()
                            .unwrap_or_default();
                        return Err(fail(format!(
                            "bot {b} ({}) could not be started: {why}",
                            config.bots[b]
                        )));
                    }
                } else {
                    started[b].store(true, Ordering::SeqCst);
                }
            }
            on_game(game).map_err(fail)
        });
    });
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Plays only the games `indices` of the run `config` describes (a shard of it, e.g. one task of
/// a distributed tournament): each game gets exactly the seed, seat rotation, bot seeds and time
/// limits it gets in the whole run, so the shards of a run together give the run's results.
/// `on_game` receives each game as it finishes (in any order); `config.out` and `config.resume`
/// are not read (the caller writes the records: [`PlayedGame::result_line`],
/// [`PlayedGame::trace_line`], [`PlayedGame::stderr_files`]). Errors as [`run`]'s, and for a
/// range past `config.games`.
pub fn play_shard(
    config: &ArenaConfig,
    indices: std::ops::Range<usize>,
    on_game: &(dyn Fn(PlayedGame) + Sync),
) -> Result<(), String> {
    config.validate()?;
    if indices.end > config.games {
        return Err(format!(
            "games {}..{} of a run of {} games: the shard ends past the run",
            indices.start, indices.end, config.games
        ));
    }
    play_games(config, indices, &|game| {
        on_game(game);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use twinsim_reference::game::EngineKind;

    /// Edge values at the library entry point: an error or a result, never a panic.
    #[test]
    fn run_gives_an_error_or_a_result_for_edge_values() {
        let base = ArenaConfig {
            threads: Some(1),
            stderr_limit: 0,
            ..ArenaConfig::new("zuniq", vec![BotSpec::Random, BotSpec::Random], 1)
        };
        let scales = [0.0, -1.0, f64::NAN, f64::INFINITY, 1e300, f64::MAX, f64::MIN_POSITIVE, 1.0];
        for time_scale in scales {
            let config = ArenaConfig { time_scale, ..base.clone() };
            let valid = time_scale.is_finite() && time_scale > 0.0 && time_scale <= MAX_TIME_SCALE;
            assert_eq!(run(&config, &|_, _| {}).is_ok(), valid, "time scale {time_scale}");
        }
        for threads in [Some(0), Some(100_000), Some(usize::MAX), None] {
            let config = ArenaConfig { threads, ..base.clone() };
            let valid = threads.is_none_or(|t| (1..=MAX_THREADS).contains(&t));
            assert_eq!(run(&config, &|_, _| {}).is_ok(), valid, "threads {threads:?}");
        }
        for games in [0, usize::MAX, MAX_GAMES + 1] {
            let config = ArenaConfig { games, ..base.clone() };
            let end = run(&config, &|_, _| {});
            assert_eq!(end.is_ok(), games == 0, "{games} games");
        }
        for seed in [i64::MIN, -1, 0, i64::MAX] {
            let config = ArenaConfig { seed, ..base.clone() };
            let end = run(&config, &|_, _| {}).expect("any seed plays");
            assert_eq!(end.standings.games(), 1);
        }
        let config = ArenaConfig { league: Some(u32::MAX), game: "olymbits".into(), ..base };
        assert!(run(&config, &|_, _| {}).is_err(), "three players, two bots");
    }

    /// Shards of a run, played apart and in any grouping, give exactly the whole run's records.
    #[test]
    fn shards_give_the_whole_runs_records() {
        let dir = std::env::temp_dir().join(format!("twinsim-shards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let config = ArenaConfig {
            game: "zuniq".into(),
            bots: vec![BotSpec::Random, BotSpec::Greedy],
            games: 9,
            seed: -7,
            league: None,
            time_scale: 1.0,
            bot_time_scales: Vec::new(),
            engine: EngineKind::Fast,
            // One thread: each game's trace then result line, so the two files pair up.
            threads: Some(1),
            out: Some(dir.clone()),
            resume: false,
            stderr_limit: 0,
            interrupt: None,
            lockstep: false,
        };
        run(&config, &|_, _| {}).expect("the whole run plays");
        let read = |name: &str| -> Vec<String> {
            let text = std::fs::read_to_string(dir.join(name)).expect("written by --out");
            text.lines().map(str::to_string).collect()
        };
        let (results, traces) = (read("results.jsonl"), read("traces.jsonl"));
        let _ = std::fs::remove_dir_all(&dir);
        // The whole run's (result line, trace line) pairs by game index.
        let mut whole: Vec<(usize, String, String)> = results
            .into_iter()
            .zip(traces)
            .map(|(r, t)| {
                let index = serde_json::from_str::<Value>(&r).unwrap()["index"].as_u64().unwrap();
                (index as usize, r, t)
            })
            .collect();
        whole.sort();
        assert_eq!(whole.len(), 9);
        let shard_config = ArenaConfig { out: None, threads: Some(2), ..config };
        let mut sharded = Vec::new();
        for range in [0..4, 4..5, 5..5, 5..9] {
            let games = Mutex::new(Vec::new());
            play_shard(&shard_config, range.clone(), &|g| {
                let record = (g.result.index, g.result_line(), g.trace_line());
                games.lock().unwrap().push(record)
            })
            .expect("a shard plays");
            let mut games = games.into_inner().unwrap();
            games.sort();
            assert_eq!(games.iter().map(|g| g.0).collect::<Vec<_>>(), range.collect::<Vec<_>>());
            sharded.extend(games);
        }
        assert_eq!(sharded, whole);
        let past = play_shard(&shard_config, 8..10, &|_| {});
        assert!(past.unwrap_err().contains("past the run"));
    }
}
