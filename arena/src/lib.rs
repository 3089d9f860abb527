//! `twinsim arena`: bots against each other under the exact rules, many games in parallel.
//!
//! Each bot is a child process speaking the game's protocol byte-exact (the views the referee
//! sends, init input first) or a built-in bot. The referee's time limits are enforced per turn
//! (per game for Zuniq's 30-second budget), and timeouts, crashes and bad output get the rules'
//! consequences because the engine is handed exactly what the referee would see: `null` for no
//! answer, the line as printed otherwise. Seats rotate over each seed so every bot plays every
//! seat.

pub mod bots;
pub mod registry;
pub mod stats;

use bots::{Answer, Bot, GreedyBot, ProcessBot, RandomBot, SearchBot};
use serde_json::{json, Map, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use twinsim_reference::game::{EngineKind, TracePlay, TurnStructure};
use twinsim_reference::java_random::JavaRandom;
use twinsim_search::bot::{is_search_name, make_player, SearchSpec, ALGORITHMS};

/// A player of the arena, as given with `--bot`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    /// `builtin:random`: a uniformly random legal action.
    Random,
    /// `builtin:greedy`: one ply of lookahead on the game's score (see [`evaluate`]).
    Greedy,
    /// `builtin:<search>[@reference|@fast][:iterations=N]`: a search bot playing from its views
    /// (see [`twinsim_search::bot`]).
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

/// The referee's response-time rules of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLimits {
    /// Limit of a player's first answer.
    pub first: Duration,
    /// Limit of each later answer.
    pub later: Duration,
    /// A whole-game thinking budget per player instead (Zuniq: 30 s of wall-clock time).
    pub total: Option<Duration>,
}

/// The limits the rules docs give: X-mas Rush and Olymbits and Wondev Woman 1000 ms / 50 ms,
/// Photosynthesis 1000 ms / 100 ms, Zuniq 30 s for the whole game.
pub fn time_limits(game: &str) -> TimeLimits {
    let ms = Duration::from_millis;
    match game {
        "photosynthesis" => TimeLimits { first: ms(1000), later: ms(100), total: None },
        "zuniq" => TimeLimits { first: ms(30_000), later: ms(30_000), total: Some(ms(30_000)) },
        _ => TimeLimits { first: ms(1000), later: ms(50), total: None },
    }
}

/// Everything an arena run is given.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    pub game: String,
    pub bots: Vec<BotSpec>,
    pub games: usize,
    pub seed: i64,
    pub league: Option<u32>,
    /// Multiplies every time limit (for slow machines, or fast tests).
    pub time_scale: f64,
    pub engine: EngineKind,
    pub threads: Option<usize>,
    pub out: Option<PathBuf>,
    pub resume: bool,
}

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
    /// Whether each seat's process exited or crashed before the end.
    pub crashed: Vec<bool>,
    /// Illegal answers of each seat's search bot (0 for other bots): a line not among the
    /// engine's legal lines, or for an X-mas Rush MOVE (any walkable path is legal) one the
    /// referee's events refuse.
    pub illegal: Vec<usize>,
    /// Answers of each seat's search bot (0 for other bots).
    pub moves: Vec<u64>,
    /// Search iterations of each seat over the game (0 for other bots).
    pub iterations: Vec<u64>,
}

impl GameResult {
    pub fn to_json(&self) -> Value {
        json!({
            "index": self.index, "seed": self.seed, "seats": self.seats, "scores": self.scores,
            "ranks": self.ranks, "reason": self.reason, "turns": self.turns,
            "timeouts": self.timeouts, "crashed": self.crashed,
            "moves": self.moves, "iterations": self.iterations, "illegal": self.illegal,
        })
    }

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
            illegal,
            moves,
            iterations,
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

/// A position's value for `player`, as the greedy bot sees it: the game's own score, from the
/// state the engine reports, with a small tie-breaker of progress where the score alone is flat.
pub fn evaluate(play: &dyn TracePlay, player: usize) -> f64 {
    let record = play.turn_record();
    let state = record.get("state").cloned().unwrap_or(Value::Null);
    let num = |v: &Value| v.as_f64().unwrap_or(0.0);
    if play.is_over() {
        if let Some(outcome) = play.outcome() {
            let scores: Vec<f64> = outcome["scores"]
                .as_array()
                .map(|a| a.iter().map(num).collect())
                .unwrap_or_default();
            if let Some(mine) = scores.get(player) {
                let best_other = scores
                    .iter()
                    .enumerate()
                    .filter(|(p, _)| *p != player)
                    .map(|(_, s)| *s)
                    .fold(f64::MIN, f64::max);
                return if *mine > best_other {
                    1e6
                } else if *mine < best_other {
                    -1e6
                } else {
                    0.0
                };
            }
        }
    }
    match state.get("players").and_then(|p| p.get(player)) {
        // X-mas Rush: quests completed. Photosynthesis: points, then sun and tree sizes.
        Some(me) => {
            let mut value = num(&me["score"]) * 100.0;
            if let Some(trees) = state["trees"].as_array() {
                value += num(&me["sun"]);
                for t in trees {
                    if t[2].as_u64() == Some(player as u64) {
                        value += 2.0 * num(&t[1]);
                    }
                }
            }
            value
        }
        None => {
            if let Some(medals) =
                state.get("medals").and_then(|m| m.get(player)).and_then(|m| m.as_array())
            {
                // Olymbits: product over mini-games of (3 gold + silver), then medal count.
                let per_game: Vec<f64> =
                    medals.iter().map(|g| 3.0 * num(&g[0]) + num(&g[1])).collect();
                per_game.iter().product::<f64>() * 100.0 + per_game.iter().sum::<f64>()
            } else if let Some(scores) = state.get("scores").and_then(|s| s.as_array()) {
                // Wondev Woman: points, then the heights the own units stand on.
                let mut value = scores.get(player).map(num).unwrap_or(0.0) * 10.0;
                if let (Some(grid), Some(units)) = (
                    state["grid"].as_array(),
                    state["units"].get(player).and_then(|u| u.as_array()),
                ) {
                    for unit in units {
                        let (x, y) =
                            (unit[0].as_i64().unwrap_or(-1), unit[1].as_i64().unwrap_or(-1));
                        if let Some(row) = grid.get(y.max(0) as usize).and_then(|r| r.as_str()) {
                            if let Some(h) =
                                row.chars().nth(x.max(0) as usize).and_then(|c| c.to_digit(10))
                            {
                                if x >= 0 && y >= 0 {
                                    value += h as f64;
                                }
                            }
                        }
                    }
                }
                if state["dead"].get(player).and_then(|d| d.as_bool()) == Some(true) {
                    value -= 1e5;
                }
                value
            } else {
                0.0
            }
        }
    }
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

fn make_bot(game: &str, spec: &BotSpec, seat: usize, seed: i64) -> Result<Box<dyn Bot>, String> {
    Ok(match spec {
        BotSpec::Random => Box::new(RandomBot::new(seed)),
        BotSpec::Greedy => Box::new(GreedyBot::new(seed)),
        BotSpec::Search(search) => Box::new(SearchBot::new(make_player(game, search, seat, seed)?)),
        BotSpec::Command(c) => Box::new(ProcessBot::spawn(c).map_err(|e| e.to_string())?),
    })
}

/// One game: its result, its trace record and each seat's stderr.
pub struct PlayedGame {
    pub result: GameResult,
    pub trace: Value,
    pub stderr: Vec<String>,
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
            make_bot(&config.game, &config.bots[b], seat, bot_seed)
                .map_err(|e| format!("cannot start bot {}: {e}", config.bots[b]))?,
        );
    }
    let limits = time_limits(&config.game);
    let scale = |d: Duration| d.mul_f64(config.time_scale.max(0.0));
    let mut budget: Vec<Option<Duration>> = vec![limits.total.map(scale); n];
    let initial = play.initial_record();
    let mut views = strings(initial.get("initial_views"), n);
    let init_input = strings(initial.get("init_input"), n);
    let mut first = vec![true; n];
    let mut timeouts = vec![0; n];
    let mut crashed = vec![false; n];
    let mut illegal = vec![0; n];
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
                None => scale(if first[p] { limits.first } else { limits.later }),
            };
            first[p] = false;
            let start = Instant::now();
            bots[p].send(&input, play.as_ref(), p, start + limit);
            deadlines.push((p, start, start + limit));
        }
        let mut answers: Vec<Option<String>> = vec![None; n];
        for (p, start, deadline) in deadlines {
            answers[p] = match bots[p].receive(deadline) {
                Answer::Line(line) => Some(line),
                Answer::Timeout => {
                    timeouts[p] += 1;
                    None
                }
                Answer::Gone => {
                    crashed[p] = true;
                    None
                }
            };
            if let Some(left) = budget[p].as_mut() {
                *left = left.saturating_sub(start.elapsed());
            }
        }
        // Search bots are checked for illegal answers (a process bot's are the referee's business).
        let mut checked_moves = Vec::new();
        for &p in &acting {
            if let (BotSpec::Search(_), Some(line)) = (&config.bots[seats[p]], &answers[p]) {
                if config.game == "xmas-rush" && line.starts_with("MOVE") {
                    // Any walkable path is legal, not only the listed shortest ones: the
                    // referee's events of the turn say whether it was refused.
                    checked_moves.push(p);
                } else if !play.legal_lines(p).contains(line) {
                    illegal[p] += 1;
                }
            }
        }
        let actions: Vec<Option<String>> = if alternating {
            vec![acting.first().and_then(|&p| answers[p].clone())]
        } else {
            answers
        };
        play.play_turn(&actions).map_err(|e| format!("engine refused a turn: {e}"))?;
        let record = play.turn_record();
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
        illegal,
        moves: searched.iter().map(|s| s.0).collect(),
        iterations: searched.iter().map(|s| s.1).collect(),
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
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Points per game: win 1, draw ½, loss 0.
    pub points: Vec<f64>,
    pub score_sum: f64,
    pub timeouts: usize,
    pub crashes: usize,
    /// Search bots: answers and iterations over all games.
    pub moves: u64,
    pub iterations: u64,
    pub illegal: usize,
    pub rating: stats::Rating,
}

impl BotTotals {
    /// Mean search iterations per answer (search bots only).
    pub fn iterations_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.iterations as f64 / self.moves as f64)
    }
}

/// Totals per bot over `results` (in index order, so ratings do not depend on thread timing).
pub fn totals(results: &[GameResult], bots: usize) -> Vec<BotTotals> {
    let mut sorted: Vec<&GameResult> = results.iter().collect();
    sorted.sort_by_key(|r| r.index);
    let mut out = vec![BotTotals::default(); bots];
    for r in sorted {
        let best = *r.ranks.iter().min().unwrap_or(&1);
        let leaders = r.ranks.iter().filter(|&&k| k == best).count();
        for (seat, &b) in r.seats.iter().enumerate() {
            let t = &mut out[b];
            let point = if r.ranks[seat] != best {
                t.losses += 1;
                0.0
            } else if leaders == 1 {
                t.wins += 1;
                1.0
            } else {
                t.draws += 1;
                0.5
            };
            t.points.push(point);
            t.score_sum += r.scores[seat];
            t.timeouts += r.timeouts[seat];
            t.crashes += r.crashed[seat] as usize;
            t.moves += r.moves.get(seat).copied().unwrap_or(0);
            t.illegal += r.illegal.get(seat).copied().unwrap_or(0);
            t.iterations += r.iterations.get(seat).copied().unwrap_or(0);
        }
        let mut ratings: Vec<stats::Rating> = r.seats.iter().map(|&b| out[b].rating).collect();
        stats::openskill_update(&mut ratings, &r.ranks);
        for (seat, &b) in r.seats.iter().enumerate() {
            out[b].rating = ratings[seat];
        }
    }
    out
}

/// The final report for a terminal.
pub fn report(config: &ArenaConfig, results: &[GameResult]) -> String {
    let totals = totals(results, config.bots.len());
    let mut text =
        format!("{} games of {} ({} engine)\n", results.len(), config.game, config.engine);
    text.push_str(&format!(
        "{:<4} {:<28} {:>5} {:>5} {:>5} {:>22} {:>10} {:>8} {:>8} {:>8} {:>8} {:>11}\n",
        "bot",
        "command",
        "wins",
        "draws",
        "losses",
        "win rate (95% CI)",
        "avg score",
        "timeouts",
        "crashes",
        "illegal",
        "skill",
        "iters/move"
    ));
    for (b, t) in totals.iter().enumerate() {
        let rate = stats::win_rate(&t.points).map_or("-".into(), |r| {
            format!("{:.1}% [{:.1}, {:.1}]", 100.0 * r.mean, 100.0 * r.low, 100.0 * r.high)
        });
        let full = config.bots[b].to_string();
        let name: String = if full.chars().count() > 28 {
            full.chars().take(27).chain(std::iter::once('…')).collect()
        } else {
            full
        };
        text.push_str(&format!(
            "{:<4} {:<28} {:>5} {:>5} {:>5} {:>22} {:>10.2} {:>8} {:>8} {:>8} {:>8.2} {:>11}\n",
            b,
            name,
            t.wins,
            t.draws,
            t.losses,
            rate,
            t.score_sum / t.points.len().max(1) as f64,
            t.timeouts,
            t.crashes,
            t.illegal,
            t.rating.ordinal(),
            t.iterations_per_move().map_or("-".into(), |i| format!("{i:.0}"))
        ));
    }
    if config.bots.len() == 2 {
        if let Some(rate) = stats::win_rate(&totals[0].points) {
            let e = stats::elo_interval(rate);
            text.push_str(&format!(
                "Elo difference (bot 0 - bot 1): {:+.0} [{:+.0}, {:+.0}]\n",
                e.mean, e.low, e.high
            ));
        }
    } else {
        let mut order: Vec<usize> = (0..totals.len()).collect();
        order.sort_by(|a, b| totals[*b].rating.ordinal().total_cmp(&totals[*a].rating.ordinal()));
        let ranking: Vec<String> = order.iter().map(|b| format!("bot {b}")).collect();
        text.push_str(&format!("OpenSkill ranking (mu - 3 sigma): {}\n", ranking.join(" > ")));
    }
    text
}

/// Files of an `--out` directory.
struct OutDir {
    dir: PathBuf,
    lock: Mutex<()>,
}

impl OutDir {
    fn append(&self, name: &str, line: &Value) -> std::io::Result<()> {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let mut file =
            std::fs::OpenOptions::new().create(true).append(true).open(self.dir.join(name))?;
        writeln!(file, "{line}")?;
        file.sync_data()
    }
}

/// The run's identity, written to `arena.json` so `--resume` continues only the same run.
fn run_identity(config: &ArenaConfig) -> Value {
    json!({
        "game": config.game, "bots": config.bots.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
        "seed": config.seed, "league": config.league, "engine": config.engine.to_string(),
    })
}

/// Results already in `dir/results.jsonl` (for `--resume`).
fn previous_results(dir: &Path) -> Vec<GameResult> {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| GameResult::from_json(&v))
        .collect()
}

/// Runs the whole arena; `progress` sees every finished result.
pub fn run(
    config: &ArenaConfig,
    progress: &(dyn Fn(&[GameResult]) + Sync),
) -> Result<Vec<GameResult>, String> {
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
            Some(OutDir { dir: dir.clone(), lock: Mutex::new(()) })
        }
    };
    let mut done: Vec<GameResult> = match (&out, config.resume) {
        (Some(o), true) => {
            previous_results(&o.dir).into_iter().filter(|r| r.index < config.games).collect()
        }
        _ => Vec::new(),
    };
    done.sort_by_key(|r| r.index);
    done.dedup_by_key(|r| r.index);
    let todo: Vec<usize> =
        (0..config.games).filter(|i| done.binary_search_by_key(i, |r| r.index).is_err()).collect();
    let results = Mutex::new(done);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(t) = config.threads {
            b = b.num_threads(t.max(1));
        }
        b.build().map_err(|e| e.to_string())?
    };
    pool.install(|| {
        use rayon::prelude::*;
        todo.par_iter().for_each(|&index| {
            if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                return;
            }
            match play_game(config, index) {
                Ok(game) => {
                    if let Some(o) = &out {
                        for (seat, err) in game.stderr.iter().enumerate() {
                            if !err.is_empty() {
                                let name = format!(
                                    "game{index}-seat{seat}-bot{}.txt",
                                    game.result.seats[seat]
                                );
                                let _ = std::fs::write(o.dir.join("stderr").join(name), err);
                            }
                        }
                        let written = o
                            .append("traces.jsonl", &game.trace)
                            .and_then(|_| o.append("results.jsonl", &game.result.to_json()));
                        if let Err(e) = written {
                            *failure.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some(format!("writing results: {e}"));
                        }
                    }
                    let mut all = results.lock().unwrap_or_else(|e| e.into_inner());
                    all.push(game.result);
                    progress(&all);
                }
                Err(e) => *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e),
            }
        });
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut all = results.into_inner().unwrap_or_else(|e| e.into_inner());
    all.sort_by_key(|r| r.index);
    Ok(all)
}
