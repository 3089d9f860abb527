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
pub mod out_dir;
pub mod registry;
pub mod stats;
pub mod times;

use bots::{Answer, Bot, GreedyBot, ProcessBot, RandomBot, SearchBot};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use twinsim_reference::game::{EngineKind, TracePlay, TurnStructure};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::registry::GameId;
use twinsim_reference::trace::{self, Moment};
use twinsim_search::bot::{is_search_name, make_player, SearchSpec, ALGORITHMS};

/// A player of the arena, as given with `--bot`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    /// `builtin:random`: a uniformly random legal action.
    Random,
    /// `builtin:greedy`: one ply of lookahead on the game's typed evaluation (see
    /// [`greedy_line`]).
    Greedy,
    /// `builtin:<search>[@reference|@fast][:iterations=N][:ms=N]`: a search bot playing from
    /// its views (see [`twinsim_search::bot`]).
    Search(SearchSpec),
    /// Any other text: a shell command started once per game.
    Command(String),
}

impl FromStr for BotSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "builtin:random" => Ok(BotSpec::Random),
            "builtin:greedy" => Ok(BotSpec::Greedy),
            other if other.starts_with("builtin:") => {
                let name = &other["builtin:".len()..];
                if is_search_name(name) {
                    return name.parse().map(BotSpec::Search);
                }
                let searches: Vec<String> =
                    ALGORITHMS.iter().map(|(g, a)| format!("builtin:{a} ({g})")).collect();
                Err(format!(
                    "unknown built-in bot {other:?} (builtin:random, builtin:greedy, {})",
                    searches.join(", ")
                ))
            }
            "" => Err("an empty bot command".into()),
            other => Ok(BotSpec::Command(other.to_string())),
        }
    }
}

impl std::fmt::Display for BotSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotSpec::Random => f.write_str("builtin:random"),
            BotSpec::Greedy => f.write_str("builtin:greedy"),
            BotSpec::Search(spec) => spec.fmt(f),
            BotSpec::Command(c) => f.write_str(c),
        }
    }
}

pub use twinsim_reference::framing::TimeLimits;
pub use twinsim_search::stdio::time_limits;

/// Everything an arena run is given.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Game name (`xmas-rush`, `photosynthesis`, `zuniq`, `olymbits`, `wondev-woman`).
    pub game: String,
    /// The players, one per seat (seats rotate over each seed).
    pub bots: Vec<BotSpec>,
    /// Games to play in all (each seed is played once per seat rotation).
    pub games: usize,
    /// Master seed: the games' setup seeds are drawn from it.
    pub seed: i64,
    /// League (default: the top league).
    pub league: Option<u32>,
    /// Multiplies every time limit (for slow machines, or fast tests).
    pub time_scale: f64,
    /// Per bot (by index in `bots`), a time scale that replaces `time_scale` for that bot's
    /// limits: a slow process bot gets more time without its opponent getting it too
    /// (`--bot-time-scale BOT=X`). Missing or `None`: `time_scale`.
    pub bot_time_scales: Vec<Option<f64>>,
    /// The engine that referees (the fast twin by default; both are exact).
    pub engine: EngineKind,
    /// Games played at once (default: one per core).
    pub threads: Option<usize>,
    /// Folder for `traces.jsonl`, `results.jsonl` and each bot's stderr.
    pub out: Option<PathBuf>,
    /// Continue the run found in `out`: play only the games it has not finished.
    pub resume: bool,
    /// Most bytes of each process bot's stderr kept per game (the rest is counted and dropped,
    /// with a marker line).
    pub stderr_limit: usize,
    /// Set (e.g. by a Ctrl-C handler) to stop the run: no new game starts, and games still
    /// being played are discarded (their bots got the same signal); `--resume` plays them.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Also play every game on the other twin in lockstep, comparing every turn's records; the
    /// run stops at the first divergence with its differences (`arena --engine both`).
    pub lockstep: bool,
}

/// Most games one run accepts: counters and seed indices stay far from overflow.
pub const MAX_GAMES: usize = 1_000_000_000;
/// Most games played at once (`threads`).
pub const MAX_THREADS: usize = 256;
/// Largest time scale: the longest limit (30 s) times this is still a valid duration.
pub const MAX_TIME_SCALE: f64 = 1000.0;

impl ArenaConfig {
    /// A run of `games` games of `game` between `bots`, with every other setting at its
    /// default, as `twinsim arena` has it without flags: master seed 1, the top league, time
    /// scale 1, the fast twin referees, one game per core, no output folder, no resume,
    /// [`bots::DEFAULT_STDERR_LIMIT`], no interrupt flag, no lockstep. Change a field with
    /// struct update syntax: `ArenaConfig { seed: 7, ..ArenaConfig::new(game, bots, 100) }`.
    pub fn new(game: &str, bots: Vec<BotSpec>, games: usize) -> ArenaConfig {
        ArenaConfig {
            game: game.to_string(),
            bots,
            games,
            seed: 1,
            league: None,
            time_scale: 1.0,
            bot_time_scales: Vec::new(),
            engine: EngineKind::Fast,
            threads: None,
            out: None,
            resume: false,
            stderr_limit: bots::DEFAULT_STDERR_LIMIT,
            interrupt: None,
            lockstep: false,
        }
    }

    /// The time scale of bot `b`'s limits: its own (`bot_time_scales`) or the run's.
    pub fn time_scale_of(&self, b: usize) -> f64 {
        self.bot_time_scales.get(b).copied().flatten().unwrap_or(self.time_scale)
    }

    /// Checks the numbers a run is given, so that no value can make it panic, abort on an
    /// allocation or start a thread storm: `games` up to [`MAX_GAMES`], `threads` 1 to
    /// [`MAX_THREADS`], `time_scale` finite, above 0 and at most [`MAX_TIME_SCALE`].
    pub fn validate(&self) -> Result<(), String> {
        if self.games > MAX_GAMES {
            return Err(format!("{} games: at most {MAX_GAMES}", self.games));
        }
        if let Some(t) = self.threads.filter(|t| !(1..=MAX_THREADS).contains(t)) {
            return Err(format!("{t} threads: from 1 to {MAX_THREADS}"));
        }
        let scale = self.time_scale;
        if !(scale.is_finite() && scale > 0.0 && scale <= MAX_TIME_SCALE) {
            return Err(format!(
                "time scale {scale}: a finite number above 0 and at most {MAX_TIME_SCALE}"
            ));
        }
        for (b, scale) in self.bot_time_scales.iter().enumerate() {
            let Some(scale) = *scale else { continue };
            if b >= self.bots.len() {
                return Err(format!(
                    "a time scale for bot {b}: there are {} bots (0 to {})",
                    self.bots.len(),
                    self.bots.len().saturating_sub(1)
                ));
            }
            if !(scale.is_finite() && scale > 0.0 && scale <= MAX_TIME_SCALE) {
                return Err(format!(
                    "time scale {scale} of bot {b}: a finite number above 0 and at most \
                     {MAX_TIME_SCALE}"
                ));
            }
        }
        if self.bots.is_empty() {
            return Err("no bots".into());
        }
        if self.league.is_some() && !has_leagues(&self.game) {
            return Err(format!("{} has no leagues: leave out --league", self.game));
        }
        Ok(())
    }
}

/// Whether `game` has leagues (a `--league` flag to select); Zuniq has one rule set.
pub fn has_leagues(game: &str) -> bool {
    registry::league_params(game, Some(1)).as_object().is_some_and(|o| !o.is_empty())
}

/// The kinds of misbehaviour counted per bot, by their key in `results.jsonl` and JSON output.
pub const PROBLEM_KINDS: [&str; 4] = ["invalid", "timeout", "crash", "not_started"];

/// A game gives up after this many turns (longer than any of the five games).
const MAX_TURNS: usize = 2_000;

/// What one finished game says, per seat and per bot.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Index of the game in the run (seed index × seats + rotation).
    pub index: usize,
    /// The game seed.
    pub seed: i64,
    /// `seats[s]` = index of the bot that played seat `s`.
    pub seats: Vec<usize>,
    /// Final score of each seat (the outcome's `scores`).
    pub scores: Vec<f64>,
    /// 1-based rank of each seat.
    pub ranks: Vec<usize>,
    /// Why the game ended (the outcome's `reason`).
    pub reason: String,
    /// Turns played.
    pub turns: usize,
    /// Unanswered requests (timeouts) of each seat.
    pub timeouts: Vec<usize>,
    /// Whether each seat's process exited or crashed before the end (not counting a command
    /// that could not be started).
    pub crashed: Vec<bool>,
    /// Answers of each seat that the referee refused or that were not a proper line: malformed,
    /// illegal, not UTF-8, or a flood (a line over 64 KiB).
    pub invalid: Vec<usize>,
    /// Whether each seat's command could not be started (shell status 126 or 127 before any
    /// output).
    pub not_started: Vec<bool>,
    /// The first reason of each kind of problem of each seat (keys from [`PROBLEM_KINDS`]),
    /// e.g. `turn 3: Deactivated $0: Invalid Input: ...`.
    pub problems: Vec<BTreeMap<String, String>>,
    /// Illegal answers of each seat's search bot (0 for other bots): a line not among the
    /// engine's legal lines, or for an X-mas Rush MOVE (any walkable path is legal) one the
    /// referee's events refuse.
    pub illegal: Vec<usize>,
    /// Answers of each seat's search bot (0 for other bots).
    pub moves: Vec<u64>,
    /// Search iterations of each seat over the game (0 for other bots).
    pub iterations: Vec<u64>,
    /// Each seat's answer times in microseconds, in turn order ([`times`]: process and search
    /// bots; none for `builtin:random` and `builtin:greedy`, and none in older results files).
    pub answer_us: Vec<Vec<u32>>,
}

impl GameResult {
    /// The result as one `results.jsonl` line (fields documented in the README).
    pub fn to_json(&self) -> Value {
        json!({
            "index": self.index, "seed": self.seed, "seats": self.seats, "scores": self.scores,
            "ranks": self.ranks, "reason": self.reason, "turns": self.turns,
            "timeouts": self.timeouts, "crashed": self.crashed, "invalid": self.invalid,
            "not_started": self.not_started, "problems": self.problems,
            "moves": self.moves, "iterations": self.iterations, "illegal": self.illegal,
            "answer_ms": self.answer_us.iter()
                .map(|t| times::Summary::of(t).map_or(Value::Null, |s| s.to_json()))
                .collect::<Vec<_>>(),
            "answer_us": self.answer_us,
        })
    }

    /// Reads a `results.jsonl` line back (older files without the newer fields too).
    pub fn from_json(v: &Value) -> Option<GameResult> {
        let usizes = |k: &str| -> Option<Vec<usize>> {
            v.get(k)?.as_array()?.iter().map(|x| x.as_u64().map(|x| x as usize)).collect()
        };
        let seats = usizes("seats")?;
        // Results written before search bots existed have no counters: zeros.
        let counters = |k: &str| -> Vec<u64> {
            v.get(k)
                .and_then(|a| a.as_array())
                .map(|a| a.iter().map(|x| x.as_u64().unwrap_or(0)).collect())
                .unwrap_or_else(|| vec![0; seats.len()])
        };
        let (moves, iterations) = (counters("moves"), counters("iterations"));
        let illegal = counters("illegal").into_iter().map(|x| x as usize).collect();
        // Results written before misbehaviour was counted per kind: none recorded.
        let invalid = counters("invalid").into_iter().map(|x| x as usize).collect();
        let not_started = v
            .get("not_started")
            .and_then(|a| a.as_array())
            .map(|a| a.iter().map(|x| x.as_bool().unwrap_or(false)).collect())
            .unwrap_or_else(|| vec![false; seats.len()]);
        // Results written before answer times were recorded: none (`answer_ms` is derived).
        let answer_us = v
            .get("answer_us")
            .and_then(|a| serde_json::from_value(a.clone()).ok())
            .unwrap_or_else(|| vec![Vec::new(); seats.len()]);
        let problems = v
            .get("problems")
            .and_then(|p| serde_json::from_value(p.clone()).ok())
            .unwrap_or_else(|| vec![BTreeMap::new(); seats.len()]);
        Some(GameResult {
            index: v.get("index")?.as_u64()? as usize,
            seed: v.get("seed")?.as_i64()?,
            seats,
            scores: v
                .get("scores")?
                .as_array()?
                .iter()
                .map(|x| x.as_f64())
                .collect::<Option<_>>()?,
            ranks: usizes("ranks")?,
            reason: v.get("reason")?.as_str()?.to_string(),
            turns: v.get("turns")?.as_u64()? as usize,
            timeouts: usizes("timeouts")?,
            crashed: v
                .get("crashed")?
                .as_array()?
                .iter()
                .map(|x| x.as_bool())
                .collect::<Option<_>>()?,
            invalid,
            not_started,
            problems,
            illegal,
            moves,
            iterations,
            answer_us,
        })
    }
}

/// The seed of the `k`-th seed group of a run (never 0: the Java referees cannot replay seed 0).
pub fn game_seed(master: i64, k: usize) -> i64 {
    let mut rng = JavaRandom::new(
        master.wrapping_add((k as i64).wrapping_mul(0x9E37_79B9_7F4A_7C15_u64 as i64)),
    );
    match rng.next_long() {
        0 => 1,
        s => s,
    }
}

/// `builtin:greedy`'s line for `player` in the position behind `play`, on either twin of any
/// game: [`twinsim_search::greedy::choose`] (one ply, the others answering with their first
/// legal action) on the engine's own typed state, scored by the game's typed evaluation (the
/// one its search uses), printed as the line a bot prints. `None` when the player is not to act
/// or `play` is not one of the workspace's engines.
pub fn greedy_line(
    play: &dyn TracePlay,
    player: usize,
    rng: &mut twinsim_search::SearchRng,
) -> Option<String> {
    let play: &dyn std::any::Any = play;
    // Each engine's play type holds its typed state as `state`; the first that matches plays.
    macro_rules! greedy_on {
        ($($play:ty => $game:ty),* $(,)?) => {$(
            if let Some(p) = play.downcast_ref::<$play>() {
                return twinsim_search::greedy::choose::<$game>(&p.state, player, rng)
                    .map(|a| a.to_string());
            }
        )*};
    }
    greedy_on!(
        twinsim_fast::xmas_rush::FastPlay => twinsim_fast::xmas_rush::FastXmasRush,
        twinsim_reference::xmas_rush::XmasRushPlay => twinsim_reference::xmas_rush::XmasRush,
        twinsim_fast::photosynthesis::FastPlay => twinsim_fast::photosynthesis::FastPhotosynthesis,
        twinsim_reference::photosynthesis::trace::ReferencePlay =>
            twinsim_reference::photosynthesis::Photosynthesis,
        twinsim_fast::zuniq::FastPlay => twinsim_fast::zuniq::FastZuniq,
        twinsim_reference::zuniq::trace::ZuniqPlay => twinsim_reference::zuniq::Zuniq,
        twinsim_fast::olymbits::FastPlay => twinsim_fast::olymbits::FastOlymbits,
        twinsim_reference::olymbits::trace::OlymbitsPlay => twinsim_reference::olymbits::Olymbits,
        twinsim_fast::wondev_woman::FastPlay => twinsim_fast::wondev_woman::FastWondevWoman,
        twinsim_reference::wondev_woman::trace::Play =>
            twinsim_reference::wondev_woman::WondevWoman,
    );
    None
}

/// Ranks of the seats from an outcome object: the `winner` where it names one, else by score.
pub fn ranks_from_outcome(outcome: &Value, players: usize) -> (Vec<f64>, Vec<usize>) {
    let scores: Vec<f64> = match outcome["scores"].as_array() {
        Some(a) => a.iter().map(|v| v.as_f64().unwrap_or(0.0)).collect(),
        None => vec![0.0; players],
    };
    if let Some(w) = outcome.get("winner").and_then(|w| w.as_u64()) {
        let ranks = (0..players).map(|p| if p as u64 == w { 1 } else { 2 }).collect();
        return (scores, ranks);
    }
    let ranks = scores.iter().map(|s| 1 + scores.iter().filter(|t| *t > s).count()).collect();
    (scores, ranks)
}

fn make_bot(
    game: &str,
    spec: &BotSpec,
    seat: usize,
    seed: i64,
    stderr_limit: usize,
) -> Result<Box<dyn Bot>, String> {
    Ok(match spec {
        BotSpec::Random => Box::new(RandomBot::new(seed)),
        BotSpec::Greedy => Box::new(GreedyBot::new(seed)),
        BotSpec::Search(search) => Box::new(SearchBot::new(make_player(game, search, seat, seed)?)),
        BotSpec::Command(c) => {
            Box::new(ProcessBot::spawn(c, stderr_limit).map_err(|e| e.to_string())?)
        }
    })
}

/// One game: its result, its trace record and each seat's stderr.
pub struct PlayedGame {
    /// What the game says, per seat and per bot.
    pub result: GameResult,
    /// The game in the referee trace format (`traces.jsonl`).
    pub trace: Value,
    /// What each seat's process wrote to stderr (cut at the stderr limit, with a marker).
    pub stderr: Vec<String>,
}

impl PlayedGame {
    /// The game's line of `results.jsonl`, as `run` writes it with `--out` (no newline).
    pub fn result_line(&self) -> String {
        self.result.to_json().to_string()
    }

    /// The game's line of `traces.jsonl`, as `run` writes it with `--out` (no newline).
    pub fn trace_line(&self) -> String {
        self.trace.to_string()
    }

    /// The files of `--out`'s `stderr/` folder for this game: `(file name, text)` of each seat
    /// whose process wrote to stderr.
    pub fn stderr_files(&self) -> Vec<(String, &str)> {
        self.stderr
            .iter()
            .enumerate()
            .filter(|(_, err)| !err.is_empty())
            .map(|(seat, err)| {
                let bot = self.result.seats[seat];
                (format!("game{}-seat{seat}-bot{bot}.txt", self.result.index), err.as_str())
            })
            .collect()
    }
}

/// Plays game `index` of the run described by `config`.
pub fn play_game(config: &ArenaConfig, index: usize) -> Result<PlayedGame, String> {
    let engine = registry::engine(&config.game, config.engine)
        .ok_or_else(|| format!("{} has no {} engine yet", config.game, config.engine))?;
    let n = config.bots.len();
    let seed = game_seed(config.seed, index / n);
    let rotation = index % n;
    let seats: Vec<usize> = (0..n).map(|s| (s + rotation) % n).collect();
    let params = registry::league_params(&config.game, config.league);
    let mut play = engine.setup(Some(seed), &params)?;
    if play.num_players() != n {
        return Err(format!(
            "{} is played by {} players; {n} bots were given",
            config.game,
            play.num_players()
        ));
    }
    let mut bots = Vec::with_capacity(n);
    for (seat, &b) in seats.iter().enumerate() {
        let bot_seed = seed ^ ((index * 31 + seat) as i64);
        bots.push(
            make_bot(&config.game, &config.bots[b], seat, bot_seed, config.stderr_limit)
                .map_err(|e| format!("cannot start bot {}: {e}", config.bots[b]))?,
        );
    }
    let limits = time_limits(&config.game);
    // Seat `p`'s limit `d`, scaled for the bot in that seat. `validate` keeps the scales finite
    // and positive; the clamp guards direct callers.
    let scale = |p: usize, d: Duration| {
        d.mul_f64(config.time_scale_of(seats[p]).clamp(0.0, MAX_TIME_SCALE))
    };
    let mut budget: Vec<Option<Duration>> =
        (0..n).map(|p| limits.total.map(|t| scale(p, t))).collect();
    let mut shadow = if config.lockstep {
        let other = match config.engine {
            EngineKind::Reference => EngineKind::Fast,
            EngineKind::Fast => EngineKind::Reference,
        };
        let engine = registry::engine(&config.game, other)
            .ok_or_else(|| format!("{} has no {other} engine to check against", config.game))?;
        let shadow = engine.setup(Some(seed), &params)?;
        let mut differences = Vec::new();
        let (main_setup, shadow_setup) = (play.initial_record(), shadow.initial_record());
        trace::compare_record(Moment::Setup, &main_setup, &shadow_setup, &[], &mut differences);
        divergence(config, index, seed, &differences)?;
        Some(shadow)
    } else {
        None
    };
    // The one trace layout: init input apart from the first view, for every game.
    let mut initial = play.initial_record();
    trace::normalize_setup(&config.game, &mut initial);
    let mut views = strings(initial.get("initial_views"), n);
    let init_input = strings(initial.get("init_input"), n);
    let mut first = vec![true; n];
    let mut timeouts = vec![0; n];
    let mut crashed = vec![false; n];
    let mut illegal = vec![0; n];
    let mut invalid = vec![0; n];
    let mut not_started = vec![false; n];
    let mut answer_us: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut problems: Vec<BTreeMap<String, String>> = vec![BTreeMap::new(); n];
    let note = |problems: &mut Vec<BTreeMap<String, String>>, p: usize, kind: &str, why: String| {
        problems[p].entry(kind.to_string()).or_insert(why);
    };
    let mut turns: Vec<Value> = Vec::new();
    let alternating = engine.turns() == TurnStructure::Alternating;

    while !play.is_over() && turns.len() < MAX_TURNS {
        let acting = play.players_to_act();
        let mut deadlines = Vec::new();
        for &p in &acting {
            let mut input = String::new();
            if first[p] && !init_input[p].is_empty() {
                input.push_str(&init_input[p]);
                input.push('\n');
            }
            input.push_str(&views[p]);
            let limit = match budget[p] {
                Some(left) => left,
                None => scale(p, if first[p] { limits.first } else { limits.later }),
            };
            first[p] = false;
            let start = Instant::now();
            bots[p].send(&input, play.as_ref(), p, start + limit);
            deadlines.push((p, start, start + limit));
        }
        let mut answers: Vec<Option<String>> = vec![None; n];
        // Seats whose answer this turn is already counted as invalid (one count per answer).
        let mut counted = vec![false; n];
        let turn = turns.len() + 1;
        for (p, start, deadline) in deadlines {
            let answer = bots[p].receive(deadline);
            let received = Instant::now();
            // How long the answer took ([`times`]); a bot whose output closed has none.
            let took = (!matches!(answer, Answer::Gone) && bots[p].on_the_clock()).then(|| {
                bots[p].answer_ready_at().unwrap_or(received).saturating_duration_since(start)
            });
            if let Some(took) = took {
                answer_us[p].push(took.as_micros().min(u128::from(u32::MAX)) as u32);
            }
            answers[p] = match answer {
                Answer::Line(line) => Some(line),
                Answer::Flawed { line, flaw } => {
                    invalid[p] += 1;
                    counted[p] = true;
                    note(&mut problems, p, "invalid", format!("turn {turn}: {flaw}"));
                    Some(line)
                }
                Answer::Timeout => {
                    timeouts[p] += 1;
                    let limit = deadline.saturating_duration_since(start).as_secs_f64() * 1e3;
                    let why = format!("turn {turn}: no answer within {limit:.0} ms");
                    note(&mut problems, p, "timeout", why);
                    None
                }
                Answer::Gone => {
                    if !crashed[p] && !not_started[p] {
                        let report = bots[p].exit_report();
                        let why = report
                            .as_ref()
                            .map_or("its output closed".into(), |r| r.description.clone());
                        if report.is_some_and(|r| r.not_started) {
                            not_started[p] = true;
                            note(&mut problems, p, "not_started", why);
                        } else {
                            crashed[p] = true;
                            note(&mut problems, p, "crash", format!("turn {turn}: {why}"));
                        }
                    }
                    None
                }
            };
            if let Some(left) = budget[p].as_mut() {
                *left = left.saturating_sub(took.unwrap_or_else(|| start.elapsed()));
            }
        }
        // Search bots are checked for illegal answers (a process bot's are the referee's business).
        let mut checked_moves = Vec::new();
        for &p in &acting {
            if let (BotSpec::Search(_), Some(line)) = (&config.bots[seats[p]], &answers[p]) {
                if config.game == GameId::XmasRush.name() && line.starts_with("MOVE") {
                    // Any walkable path is legal, not only the listed shortest ones: the
                    // referee's events of the turn say whether it was refused.
                    checked_moves.push(p);
                } else if !play.legal_lines(p).contains(line) {
                    illegal[p] += 1;
                    if !counted[p] {
                        invalid[p] += 1;
                        counted[p] = true;
                        let why = format!("turn {turn}: {line:?} is not a legal action");
                        note(&mut problems, p, "invalid", why);
                    }
                }
            }
        }
        let answers_given: Vec<bool> = answers.iter().map(Option::is_some).collect();
        let actions: Vec<Option<String>> = if alternating {
            vec![acting.first().and_then(|&p| answers[p].clone())]
        } else {
            answers
        };
        let played = play.play_turn(&actions);
        if let Some(shadow) = shadow.as_mut() {
            let checked = shadow.play_turn(&actions);
            let moment = Moment::Turn(turn);
            let differences =
                trace::compare_plays(play.as_ref(), shadow.as_ref(), &played, &checked, moment);
            divergence(config, index, seed, &differences)?;
        }
        played.map_err(|e| format!("engine refused a turn: {e}"))?;
        let record = play.turn_record();
        let events: &[Value] =
            record.get("events").and_then(|e| e.as_array()).map_or(&[], |e| e.as_slice());
        for &p in &acting {
            if answers_given[p] && !counted[p] {
                if let Some(message) = refused_output(&config.game, events, p) {
                    invalid[p] += 1;
                    note(&mut problems, p, "invalid", format!("turn {turn}: {message}"));
                }
            }
        }
        for p in checked_moves {
            let refused = format!("${p}: invalid input");
            let events = record.get("events").and_then(|e| e.as_array());
            if events.is_some_and(|e| {
                e.iter().any(|e| e.as_str().is_some_and(|e| e.starts_with(&refused)))
            }) {
                illegal[p] += 1;
            }
        }
        views = strings(record.get("views"), n);
        let mut turn = Map::new();
        turn.insert("actions".into(), json!(actions));
        turn.extend(record);
        turns.push(Value::Object(turn));
    }
    let outcome = play.outcome().unwrap_or(Value::Null);
    for (p, bot) in bots.iter_mut().enumerate() {
        bot.finish(Some(views[p].as_str()).filter(|v| !v.is_empty()));
    }
    let stderr = bots.iter().map(|b| b.stderr()).collect();
    let searched: Vec<(u64, u64)> = bots.iter().map(|b| b.search_stats()).collect();
    let (scores, ranks) = ranks_from_outcome(&outcome, n);
    let result = GameResult {
        index,
        seed,
        seats: seats.clone(),
        scores,
        ranks,
        reason: outcome
            .get("reason")
            .and_then(|r| r.as_str())
            .unwrap_or(if play.is_over() { "" } else { "turn_cap" })
            .to_string(),
        turns: turns.len(),
        timeouts,
        crashed,
        invalid,
        not_started,
        problems,
        illegal,
        moves: searched.iter().map(|s| s.0).collect(),
        iterations: searched.iter().map(|s| s.1).collect(),
        answer_us,
    };
    let mut trace = Map::new();
    trace.insert("game".into(), json!(config.game));
    trace.insert("source".into(), json!(format!("twinsim arena ({} engine)", config.engine)));
    trace.insert("seed".into(), json!(seed));
    let mut trace_params = params.as_object().cloned().unwrap_or_default();
    trace_params.insert(
        "bots".into(),
        json!(seats.iter().map(|&b| config.bots[b].to_string()).collect::<Vec<_>>()),
    );
    trace.insert("params".into(), Value::Object(trace_params));
    trace.extend(initial);
    trace.insert("turns".into(), Value::Array(turns));
    trace.insert("outcome".into(), outcome);
    Ok(PlayedGame { result, trace: Value::Object(trace), stderr })
}

/// An error describing the first divergence of the two twins in a lockstep game, if any.
fn divergence(
    config: &ArenaConfig,
    index: usize,
    seed: i64,
    differences: &[trace::Difference],
) -> Result<(), String> {
    if differences.is_empty() {
        return Ok(());
    }
    let checked = match config.engine {
        EngineKind::Reference => EngineKind::Fast,
        EngineKind::Fast => EngineKind::Reference,
    };
    let mut text = format!(
        "the engines diverge in game {index} ({} seed {seed}); expected: the {} engine (the \
         referee), found: the {checked} engine",
        config.game, config.engine
    );
    for d in differences {
        text.push_str(&format!("\n  {d}"));
    }
    Err(text)
}

/// The referee's message when this turn's `events` say it refused `seat`'s output (malformed or
/// illegal; a timeout is counted by the arena itself), in each game's own event texts.
pub fn refused_output(game: &str, events: &[Value], seat: usize) -> Option<String> {
    let texts = || events.iter().filter_map(|e| e.as_str());
    match game.parse::<GameId>().ok()? {
        // Fatal parse errors, and the non-fatal step into a wall: `$0: invalid input - ...`.
        GameId::XmasRush => {
            let prefix = format!("${seat}: invalid input - ");
            texts().find(|e| e.starts_with(&prefix)).map(str::to_string)
        }
        // A malformed line (`¤RED¤$0 provided invalid input...`) or an illegal action, which the
        // referee reports as `$0: <why>` and answers by sleeping until the next day.
        GameId::Photosynthesis => {
            let malformed = format!("¤RED¤${seat} provided invalid input");
            let illegal = format!("${seat}: ");
            texts()
                .find(|e| e.starts_with(&malformed) || e.starts_with(&illegal))
                .map(|e| e.replace("¤RED¤", "").replace("§RED§", ""))
        }
        GameId::Zuniq => {
            let prefix = format!("invalid action by player {seat}: ");
            texts()
                .find(|e| e.starts_with(&prefix) && !e.ends_with(": timeout"))
                .map(str::to_string)
        }
        GameId::Olymbits => {
            let prefix = format!("Deactivated ${seat}: ");
            texts().find(|e| e.starts_with(&prefix) && !e.ends_with("Timeout!")).map(str::to_string)
        }
        // Structured events: an elimination other than a timeout or a resignation.
        GameId::WondevWoman => events.iter().find_map(|e| {
            let code = e.get("reason_code")?.as_str()?;
            let mine = e.get("type")?.as_str()? == "eliminated"
                && e.get("player")?.as_u64()? == seat as u64
                && code != "Timeout"
                && code != "selfDestruct";
            let message = e.get("message").and_then(|m| m.as_str()).unwrap_or("");
            mine.then(|| format!("{code}: {message}"))
        }),
    }
}

/// `n` strings from a JSON array of strings (missing entries are empty).
fn strings(value: Option<&Value>, n: usize) -> Vec<String> {
    let mut out: Vec<String> = value
        .and_then(|v| v.as_array())
        .map(|a| a.iter().map(|s| s.as_str().unwrap_or("").to_string()).collect())
        .unwrap_or_default();
    out.resize(n, String::new());
    out
}

/// Per-bot totals of a run.
#[derive(Clone, Debug, Default)]
pub struct BotTotals {
    /// Games won (alone at the best rank).
    pub wins: usize,
    /// Games drawn (sharing the best rank).
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
    /// Points per game (win 1, draw ½, loss 0), summed: memory does not grow with the games.
    pub points: stats::PointTally,
    /// Final scores summed (for the average score).
    pub score_sum: f64,
    /// Unanswered requests over all games.
    pub timeouts: usize,
    /// Games in which the bot's process exited or crashed before the end.
    pub crashes: usize,
    /// Answers refused or not a proper line (see [`GameResult::invalid`]).
    pub invalid: usize,
    /// Games whose bot command could not be started.
    pub not_started: usize,
    /// The first reason of each kind of problem, in game order (`game 3, turn 5: ...`).
    pub first_problems: BTreeMap<String, String>,
    /// Search bots: answers and iterations over all games.
    pub moves: u64,
    /// Search bots: iterations summed over those answers.
    pub iterations: u64,
    /// Search bots: answers not among the engine's legal ones.
    pub illegal: usize,
    /// Answer times over all games (process and search bots; see [`times`]).
    pub answer_times: times::Histogram,
    /// OpenSkill (Weng-Lin) rating over the games so far.
    pub rating: stats::Rating,
}

impl BotTotals {
    /// Mean search iterations per answer (search bots only).
    pub fn iterations_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.iterations as f64 / self.moves as f64)
    }

    /// Games played.
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// Mean final score per game.
    pub fn average_score(&self) -> f64 {
        self.score_sum / self.games().max(1) as f64
    }
}

/// The standings of a run, updated game by game in index order (so the ratings do not depend on
/// thread timing), holding only the per-bot totals and the games finished out of order.
#[derive(Clone, Debug)]
pub struct Standings {
    totals: Vec<BotTotals>,
    /// The next game index to count.
    next: usize,
    /// Finished games waiting for an earlier index.
    pending: BTreeMap<usize, GameResult>,
    /// Indices that will never come (not in this run: skipped or interrupted).
    counted: usize,
}

impl Standings {
    /// Empty standings of `bots` bots.
    pub fn new(bots: usize) -> Self {
        Standings {
            totals: vec![BotTotals::default(); bots],
            next: 0,
            pending: BTreeMap::new(),
            counted: 0,
        }
    }

    /// The per-bot totals of the games counted so far.
    pub fn totals(&self) -> &[BotTotals] {
        &self.totals
    }

    /// Games counted so far.
    pub fn games(&self) -> usize {
        self.counted
    }

    /// Adds a finished game; returns the games now counted, in index order (the new one, and any
    /// it unblocked).
    pub fn add(&mut self, result: GameResult) -> Vec<GameResult> {
        self.pending.insert(result.index, result);
        let mut flushed = Vec::new();
        while let Some(result) = self.pending.remove(&self.next) {
            self.count(&result);
            flushed.push(result);
            self.next += 1;
        }
        flushed
    }

    /// Counts every game still waiting (after an interrupted or resumed run with gaps).
    pub fn flush(&mut self) -> Vec<GameResult> {
        let rest: Vec<GameResult> = std::mem::take(&mut self.pending).into_values().collect();
        for result in &rest {
            self.count(result);
        }
        rest
    }

    fn count(&mut self, r: &GameResult) {
        self.counted += 1;
        let best = *r.ranks.iter().min().unwrap_or(&1);
        let leaders = r.ranks.iter().filter(|&&k| k == best).count();
        for (seat, &b) in r.seats.iter().enumerate() {
            let Some(t) = self.totals.get_mut(b) else { continue };
            let point = if r.ranks.get(seat) != Some(&best) {
                t.losses += 1;
                0.0
            } else if leaders == 1 {
                t.wins += 1;
                1.0
            } else {
                t.draws += 1;
                0.5
            };
            t.points.add(point);
            t.score_sum += r.scores.get(seat).copied().unwrap_or(0.0);
            t.timeouts += r.timeouts.get(seat).copied().unwrap_or(0);
            t.crashes += usize::from(r.crashed.get(seat).copied().unwrap_or(false));
            t.invalid += r.invalid.get(seat).copied().unwrap_or(0);
            t.not_started += usize::from(r.not_started.get(seat).copied().unwrap_or(false));
            if let Some(problems) = r.problems.get(seat) {
                for (kind, why) in problems {
                    t.first_problems
                        .entry(kind.clone())
                        .or_insert_with(|| format!("game {}, {why}", r.index));
                }
            }
            t.moves += r.moves.get(seat).copied().unwrap_or(0);
            t.illegal += r.illegal.get(seat).copied().unwrap_or(0);
            t.iterations += r.iterations.get(seat).copied().unwrap_or(0);
            t.answer_times.add_all(r.answer_us.get(seat).map_or(&[], |a| a.as_slice()));
        }
        let mut ratings: Vec<stats::Rating> = r
            .seats
            .iter()
            .map(|&b| self.totals.get(b).map(|t| t.rating).unwrap_or_default())
            .collect();
        stats::openskill_update(&mut ratings, &r.ranks);
        for (seat, &b) in r.seats.iter().enumerate() {
            if let Some(t) = self.totals.get_mut(b) {
                t.rating = ratings[seat];
            }
        }
    }
}

/// Totals per bot over `results` (counted in index order).
pub fn totals(results: &[GameResult], bots: usize) -> Vec<BotTotals> {
    let mut standings = Standings::new(bots);
    let mut sorted: Vec<&GameResult> = results.iter().collect();
    sorted.sort_by_key(|r| r.index);
    for r in sorted {
        standings.count(r);
    }
    standings.totals
}

/// A number rounded for display, without a negative zero.
fn rounded(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    // Adding 0.0 turns -0.0 into 0.0; infinities pass through.
    (x * scale).round() / scale + 0.0
}

/// The final report for a terminal.
pub fn report(config: &ArenaConfig, standings: &Standings) -> String {
    let totals = standings.totals();
    let checked = if config.lockstep { ", every turn checked against the other twin" } else { "" };
    let mut text = format!(
        "{} games of {} ({} engine{checked})\n",
        standings.games(),
        config.game,
        config.engine
    );
    text.push_str(&format!(
        "{:<4} {:<28} {:>5} {:>5} {:>6} {:>22} {:>9} {:>7} {:>8} {:>7} {:>11} {:>7} {:>10}\n",
        "bot",
        "command",
        "wins",
        "draws",
        "losses",
        "win rate (95% CI)",
        "avg score",
        "invalid",
        "timeouts",
        "crashes",
        "not started",
        "skill",
        "iters/move"
    ));
    for (b, t) in totals.iter().enumerate() {
        let rate = t.points.win_rate().map_or("-".into(), |r| {
            format!(
                "{:.1}% [{:.1}, {:.1}]",
                rounded(100.0 * r.mean, 1),
                rounded(100.0 * r.low, 1),
                rounded(100.0 * r.high, 1)
            )
        });
        let full = config.bots[b].to_string();
        let name: String = if full.chars().count() > 28 {
            full.chars().take(27).chain(std::iter::once('…')).collect()
        } else {
            full
        };
        text.push_str(&format!(
            "{:<4} {:<28} {:>5} {:>5} {:>6} {:>22} {:>9.2} {:>7} {:>8} {:>7} {:>11} {:>7.2} {:>10}\n",
            b,
            name,
            t.wins,
            t.draws,
            t.losses,
            rate,
            rounded(t.average_score(), 2),
            t.invalid,
            t.timeouts,
            t.crashes,
            t.not_started,
            rounded(t.rating.ordinal(), 2),
            t.iterations_per_move().map_or("-".into(), |i| format!("{i:.0}"))
        ));
    }
    text.push_str(&answer_time_table(totals));
    for (b, t) in totals.iter().enumerate() {
        for kind in PROBLEM_KINDS {
            if let Some(why) = t.first_problems.get(kind) {
                text.push_str(&format!("bot {b} first {}: {why}\n", kind.replace('_', " ")));
            }
        }
    }
    if config.bots.len() == 2 {
        if let Some(rate) = totals[0].points.win_rate() {
            let e = stats::elo_interval(rate);
            text.push_str(&format!(
                "Elo difference (bot 0 - bot 1): {:+.0} [{:+.0}, {:+.0}]\n",
                rounded(e.mean, 0),
                rounded(e.low, 0),
                rounded(e.high, 0)
            ));
        }
    } else {
        text.push_str(&format!("OpenSkill ranking (mu - 3 sigma): {}\n", skill_ranking(totals)));
    }
    text
}

/// The answer times of the bots that have some ([`times`]): median, 99th percentile and
/// maximum over all their answers, in milliseconds; empty when no bot was timed.
pub fn answer_time_table(totals: &[BotTotals]) -> String {
    let timed: Vec<(usize, times::Summary)> = totals
        .iter()
        .enumerate()
        .filter_map(|(b, t)| t.answer_times.summary().map(|s| (b, s)))
        .collect();
    if timed.is_empty() {
        return String::new();
    }
    let mut text = format!(
        "{:<17} {:>9} {:>9} {:>9} {:>9}\n",
        "answer times (ms)", "median", "p99", "max", "answers"
    );
    let ms = |us: u64| us as f64 / 1000.0;
    for (b, s) in timed {
        text.push_str(&format!(
            "{:<17} {:>9.1} {:>9.1} {:>9.1} {:>9}\n",
            format!("bot {b}"),
            ms(s.median),
            ms(s.p99),
            ms(s.max),
            s.answers
        ));
    }
    text
}

/// Bots by their OpenSkill ordinal, best first: `bot 2 > bot 0 = bot 1` (equal as printed, to
/// two decimals, is a tie).
pub fn skill_ranking(totals: &[BotTotals]) -> String {
    let shown = |b: usize| rounded(totals[b].rating.ordinal(), 2);
    let mut order: Vec<usize> = (0..totals.len()).collect();
    order.sort_by(|a, b| shown(*b).total_cmp(&shown(*a)).then(a.cmp(b)));
    let mut text = String::new();
    for (i, &b) in order.iter().enumerate() {
        if i > 0 {
            text.push_str(if shown(b) == shown(order[i - 1]) { " = " } else { " > " });
        }
        text.push_str(&format!("bot {b}"));
    }
    text
}

/// The run's identity, written to `arena.json` so `--resume` continues only the same run.
pub fn run_identity(config: &ArenaConfig) -> Value {
    json!({
        "game": config.game, "bots": config.bots.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
        "seed": config.seed, "league": config.league, "engine": config.engine.to_string(),
    })
}

/// Results already in `dir/results.jsonl` (for `--resume`); an unreadable line (one cut by an
/// interruption) is left out: its game is played again.
fn previous_results(dir: &Path) -> Vec<GameResult> {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| GameResult::from_json(&v))
        .collect()
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
        Some(dir) => {
            std::fs::create_dir_all(dir.join("stderr"))
                .map_err(|e| format!("{}: {e}", dir.display()))?;
            let identity = run_identity(config);
            let id_path = dir.join("arena.json");
            if config.resume {
                if let Ok(text) = std::fs::read_to_string(&id_path) {
                    let before: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                    if before != identity {
                        return Err(format!(
                            "--resume: {} was a different run: {before}",
                            dir.display()
                        ));
                    }
                }
            } else if dir.join("results.jsonl").exists() {
                return Err(format!(
                    "{} already holds results: pass --resume to continue it",
                    dir.display()
                ));
            }
            std::fs::write(&id_path, identity.to_string()).map_err(|e| e.to_string())?;
            let out = out_dir::OutDir::open(dir, config.resume)
                .map_err(|e| format!("{}: {e}", dir.display()))?;
            Some(out)
        }
    };
    let previous: Vec<GameResult> = match (&out, config.resume) {
        (Some(o), true) => {
            previous_results(&o.dir).into_iter().filter(|r| r.index < config.games).collect()
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
        let mut seen = HashSet::new();
        for result in previous {
            if seen.insert(result.index) {
                let counted = s.add(result);
                deliver(&s, counted);
            }
        }
    }
    let interrupted = || config.interrupt.as_ref().is_some_and(|f| f.load(Ordering::SeqCst));
    let games = (0..config.games).filter(|i| !done_before.contains(i));
    play_games(config, games, &|game| {
        if let Some(o) = &out {
            for (name, err) in game.stderr_files() {
                let _ = std::fs::write(o.dir.join("stderr").join(name), err);
            }
            o.append_game(&game.trace_line(), &game.result_line())
                .map_err(|e| format!("writing results to {}: {e}", o.dir.display()))?;
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

    fn result(index: usize, ranks: Vec<usize>) -> GameResult {
        let n = ranks.len();
        GameResult {
            index,
            seed: 1,
            seats: (0..n).collect(),
            scores: vec![0.0; n],
            ranks,
            reason: String::new(),
            turns: 1,
            timeouts: vec![0; n],
            crashed: vec![false; n],
            invalid: vec![0; n],
            not_started: vec![false; n],
            problems: vec![BTreeMap::new(); n],
            illegal: vec![0; n],
            moves: vec![0; n],
            iterations: vec![0; n],
            answer_us: vec![Vec::new(); n],
        }
    }

    #[test]
    fn standings_count_in_index_order_whatever_the_finishing_order() {
        let games: Vec<GameResult> =
            (0..6).map(|i| result(i, if i % 3 == 0 { vec![2, 1] } else { vec![1, 2] })).collect();
        let mut forward = Standings::new(2);
        for g in games.iter().cloned() {
            forward.add(g);
        }
        let mut shuffled = Standings::new(2);
        let mut counted = Vec::new();
        for i in [3, 1, 0, 5, 2, 4] {
            counted.extend(shuffled.add(games[i].clone()).into_iter().map(|g| g.index));
        }
        assert_eq!(counted, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(forward.totals()[0].rating, shuffled.totals()[0].rating);
        assert_eq!(shuffled.totals()[0].wins, 4);
        assert_eq!(shuffled.games(), 6);
    }

    #[test]
    fn display_rounding_has_no_negative_zero_and_equal_ratings_tie() {
        assert_eq!(format!("{:+.0}", rounded(-0.3, 0)), "+0");
        assert_eq!(format!("{:+.0}", rounded(stats::elo(0.5), 0)), "+0");
        assert_eq!(rounded(f64::INFINITY, 0), f64::INFINITY);
        let mut totals = vec![BotTotals::default(); 3];
        assert_eq!(skill_ranking(&totals), "bot 0 = bot 1 = bot 2");
        totals[2].rating.mu = 30.0;
        assert_eq!(skill_ranking(&totals), "bot 2 > bot 0 = bot 1");
    }

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

    /// A search bot's answers are timed, one time per answer, when its search returned; random
    /// and greedy are not timed. The record reads back, and a line written before answer
    /// times existed still reads (with none).
    #[test]
    fn answer_times_are_recorded_per_answer_and_old_lines_still_read() {
        let search: SearchSpec = "mcts:iterations=30".parse().unwrap();
        let config = ArenaConfig {
            threads: Some(1),
            ..ArenaConfig::new("zuniq", vec![BotSpec::Search(search), BotSpec::Random], 2)
        };
        for index in 0..2 {
            let game = play_game(&config, index).expect("plays");
            let r = &game.result;
            let search_seat = r.seats.iter().position(|&b| b == 0).unwrap();
            assert_eq!(r.answer_us[search_seat].len() as u64, r.moves[search_seat]);
            assert!(r.answer_us[1 - search_seat].is_empty(), "random is not timed");
            let line: Value = serde_json::from_str(&game.result_line()).unwrap();
            assert_eq!(GameResult::from_json(&line).as_ref(), Some(r));
            let summary = &line["answer_ms"][search_seat];
            assert_eq!(summary["answers"], json!(r.moves[search_seat]));
            assert!(summary["max"].as_f64().unwrap() >= summary["median"].as_f64().unwrap());
            assert!(line["answer_ms"][1 - search_seat].is_null());
            let mut old = line.clone();
            old.as_object_mut().unwrap().retain(|k, _| k != "answer_ms" && k != "answer_us");
            let read = GameResult::from_json(&old).expect("an old line reads");
            assert_eq!(read.answer_us, vec![Vec::<u32>::new(); 2]);
        }
    }

    #[test]
    fn refused_output_reads_each_games_events() {
        let texts = |v: &[&str]| -> Vec<Value> { v.iter().map(|t| json!(t)).collect() };
        let xmas = texts(&["$1: invalid input - WAIT", "$0 passed"]);
        assert_eq!(
            refused_output("xmas-rush", &xmas, 1).as_deref(),
            Some("$1: invalid input - WAIT")
        );
        assert_eq!(refused_output("xmas-rush", &xmas, 0), None);
        let zuniq = texts(&["invalid action by player 0: timeout"]);
        assert_eq!(refused_output("zuniq", &zuniq, 0), None, "a timeout is counted apart");
        let wondev = vec![json!({"type": "eliminated", "player": 1, "reason_code": "BadCoords",
            "message": "Cannot move to 7 7"})];
        assert_eq!(
            refused_output("wondev-woman", &wondev, 1).as_deref(),
            Some("BadCoords: Cannot move to 7 7")
        );
    }
}
