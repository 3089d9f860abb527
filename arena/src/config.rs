//! What a run is given: the bots ([`BotSpec`], parsed from `--bot`) and the run's settings
//! ([`ArenaConfig`]), checked before anything plays.

use crate::{bots, registry};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use twinsim_reference::game::EngineKind;
use twinsim_search::bot::{is_search_name, SearchSpec, ALGORITHMS};

/// A player of the arena, as given with `--bot`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    /// `builtin:random`: a uniformly random legal action.
    Random,
    /// `builtin:greedy`: one ply of lookahead on the game's typed evaluation (see
    /// [`crate::registry::ArenaPlay::greedy_line`]).
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
