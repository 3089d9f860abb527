//! One game of a run: its seed and seats, the turn loop (bots asked under the referee's time
//! limits, their misbehaviour recorded per seat), and its records ([`PlayedGame`]).

use crate::bots::{Answer, Bot, GreedyBot, ProcessBot, RandomBot, SearchBot};
use crate::results::GameResult;
use crate::{registry, time_limits, ArenaConfig, BotSpec, MAX_TIME_SCALE};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use twinsim_reference::game::{EngineKind, PlayerId, TurnStructure};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::trace::{self, Moment, TraceGame, TraceTurn};
use twinsim_search::bot::make_player;

/// A game gives up after this many turns (longer than any of the five games).
const MAX_TURNS: usize = 2_000;

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
        self.result.to_line()
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

/// What one seat did in a game, gathered as it is played (the per-seat lists of
/// [`GameResult`]).
#[derive(Clone, Debug, Default)]
struct SeatRecord {
    /// Unanswered requests.
    timeouts: usize,
    /// The process exited or crashed before the end.
    crashed: bool,
    /// A search bot's illegal answers.
    illegal: usize,
    /// Answers refused or not a proper line.
    invalid: usize,
    /// The command could not be started.
    not_started: bool,
    /// Answer times in microseconds, in turn order.
    answer_us: Vec<u32>,
    /// The first reason of each kind of problem.
    problems: BTreeMap<String, String>,
}

impl SeatRecord {
    /// Keeps `why` as the seat's first problem of `kind` unless it has one.
    fn note(&mut self, kind: &str, why: String) {
        self.problems.entry(kind.to_string()).or_insert(why);
    }

    /// Counts an invalid answer, keeping `why` if it is the first.
    fn invalid(&mut self, why: String) {
        self.invalid += 1;
        self.note("invalid", why);
    }
}

/// Plays game `index` of the run described by `config`.
pub fn play_game(config: &ArenaConfig, index: usize) -> Result<PlayedGame, String> {
    let engine = registry::arena_engine(&config.game, config.engine)
        .ok_or_else(|| format!("{} has no {} engine yet", config.game, config.engine))?;
    let n = config.bots.len();
    let seed = game_seed(config.seed, index / n);
    let rotation = index % n;
    let seats: Vec<usize> = (0..n).map(|s| (s + rotation) % n).collect();
    let params = registry::league_params(&config.game, config.league);
    let mut play = engine.setup_arena(Some(seed), &params)?;
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
        let (main_setup, shadow_setup) = (main_setup.to_map(), shadow_setup.to_map());
        trace::compare_record(Moment::Setup, &main_setup, &shadow_setup, &[], &mut differences);
        divergence(config, index, seed, &differences)?;
        Some(shadow)
    } else {
        None
    };
    // The one trace layout: init input apart from the first view, for every game.
    let mut initial = play.initial_record();
    trace::normalize_setup(&config.game, &mut initial);
    let mut views: Vec<String> = (0..n).map(|p| initial.initial_view(p).to_string()).collect();
    let init_input: Vec<&str> = (0..n).map(|p| initial.init_input_of(p).unwrap_or("")).collect();
    let mut first = vec![true; n];
    let mut per_seat: Vec<SeatRecord> = vec![SeatRecord::default(); n];
    let mut turns: Vec<TraceTurn> = Vec::new();
    let alternating = engine.turns() == TurnStructure::Alternating;

    while !play.is_over() && turns.len() < MAX_TURNS {
        let acting = play.players_to_act();
        let mut deadlines = Vec::new();
        for &p in &acting {
            let mut input = String::new();
            if first[p] && !init_input[p].is_empty() {
                input.push_str(init_input[p]);
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
                per_seat[p].answer_us.push(took.as_micros().min(u128::from(u32::MAX)) as u32);
            }
            answers[p] = match answer {
                Answer::Line(line) => Some(line),
                Answer::Flawed { line, flaw } => {
                    per_seat[p].invalid(format!("turn {turn}: {flaw}"));
                    counted[p] = true;
                    Some(line)
                }
                Answer::Timeout => {
                    per_seat[p].timeouts += 1;
                    let limit = deadline.saturating_duration_since(start).as_secs_f64() * 1e3;
                    let why = format!("turn {turn}: no answer within {limit:.0} ms");
                    per_seat[p].note("timeout", why);
                    None
                }
                Answer::Gone => {
                    if !per_seat[p].crashed && !per_seat[p].not_started {
                        let report = bots[p].exit_report();
                        let why = report
                            .as_ref()
                            .map_or("its output closed".into(), |r| r.description.clone());
                        if report.is_some_and(|r| r.not_started) {
                            per_seat[p].not_started = true;
                            per_seat[p].note("not_started", why);
                        } else {
                            per_seat[p].crashed = true;
                            per_seat[p].note("crash", format!("turn {turn}: {why}"));
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
                if !play.lists_every_legal(line) {
                    // Not judged by the list (X-mas Rush MOVE paths): the turn's refusals say.
                    checked_moves.push(p);
                } else if !play.legal_lines(p).contains(line) {
                    per_seat[p].illegal += 1;
                    if !counted[p] {
                        counted[p] = true;
                        per_seat[p].invalid(format!("turn {turn}: {line:?} is not a legal action"));
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
        // The referee's typed verdict on the turn's answers: who was refused for what the
        // answer said (a missing answer is counted above, from the arena's own clock).
        let refusals = play.refusals();
        let refused = |p: PlayerId| refusals.iter().find(|r| r.seat == p && r.kind.is_bad_answer());
        for &p in &acting {
            if answers_given[p] && !counted[p] {
                if let Some(refusal) = refused(p) {
                    per_seat[p].invalid(format!("turn {turn}: {}", refusal.message));
                }
            }
        }
        for p in checked_moves {
            if refused(p).is_some() {
                per_seat[p].illegal += 1;
            }
        }
        views =
            (0..n).map(|p| record.views.get(p).cloned().flatten().unwrap_or_default()).collect();
        turns.push(TraceTurn { actions, record });
    }
    let outcome = play.outcome();
    for (p, bot) in bots.iter_mut().enumerate() {
        bot.finish(Some(views[p].as_str()).filter(|v| !v.is_empty()));
    }
    let stderr = bots.iter().map(|b| b.stderr()).collect();
    let searched: Vec<(u64, u64)> = bots.iter().map(|b| b.search_stats()).collect();
    // A game stopped at the turn cap has no outcome: every seat scores 0 and ranks first.
    let (scores, ranks) = match &outcome {
        Some(o) => (o.scores.iter().map(|&s| s as f64).collect(), o.ranks.clone()),
        None => (vec![0.0; n], vec![1; n]),
    };
    let reason = match &outcome {
        Some(o) => o.reason.clone(),
        None => if play.is_over() { "" } else { "turn_cap" }.to_string(),
    };
    let result = GameResult {
        index,
        seed,
        seats: seats.clone(),
        scores,
        ranks,
        reason,
        turns: turns.len(),
        timeouts: per_seat.iter().map(|s| s.timeouts).collect(),
        crashed: per_seat.iter().map(|s| s.crashed).collect(),
        invalid: per_seat.iter().map(|s| s.invalid).collect(),
        not_started: per_seat.iter().map(|s| s.not_started).collect(),
        illegal: per_seat.iter().map(|s| s.illegal).collect(),
        moves: searched.iter().map(|s| s.0).collect(),
        iterations: searched.iter().map(|s| s.1).collect(),
        problems: per_seat.iter_mut().map(|s| std::mem::take(&mut s.problems)).collect(),
        answer_us: per_seat.into_iter().map(|s| s.answer_us).collect(),
    };
    let mut trace_params = params.as_object().cloned().unwrap_or_default();
    trace_params.insert(
        "bots".into(),
        json!(seats.iter().map(|&b| config.bots[b].to_string()).collect::<Vec<_>>()),
    );
    let trace = TraceGame {
        game: config.game.clone(),
        source: format!("twinsim arena ({} engine)", config.engine),
        seed: Some(seed),
        params: Value::Object(trace_params),
        turns,
        outcome,
        truncated: false,
        setup: initial,
    };
    // As a JSON value, whose object keys are sorted: the trace line's bytes are those of the
    // key-by-key map the arena wrote before the record was typed.
    let trace = serde_json::to_value(&trace).expect("a trace record serializes");
    Ok(PlayedGame { result, trace, stderr })
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

#[cfg(test)]
mod tests {
    use super::*;
    use twinsim_search::bot::SearchSpec;

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

    /// Who was refused and why, as the arena recorded it before the refusals were typed (the
    /// same seeded games played by the old event-text reader, run 5fc9977): per game, bot 0 is
    /// a shell one-liner that repeats one bad line; games 0 and 1 of seed 7 on both engines.
    #[test]
    fn refused_answers_are_counted_as_before_from_the_typed_refusals() {
        // (game, bot 0, other bots, per game: (invalid counts, turns, bot 0's first problem)).
        type Expected = [(Vec<usize>, usize, &'static str); 2];
        let cases: [(&str, &str, usize, Expected); 5] = [
            ("xmas-rush", "echo WAIT", 1, [
                (vec![1, 0], 1, "turn 1: $0: invalid input - WAIT"),
                (vec![0, 1], 1, "turn 1: $1: invalid input - WAIT"),
            ]),
            ("photosynthesis", "echo GROW 0", 1, [
                (vec![24, 0], 60, "turn 1: $0: There is no tree on cell 0"),
                (vec![0, 24], 61, "turn 1: $1: There is no tree on cell 0"),
            ]),
            ("zuniq", "echo A1h", 1, [
                (vec![1, 0], 3, "turn 3: invalid action by player 0: occupied"),
                (vec![0, 1], 4, "turn 4: invalid action by player 1: occupied"),
            ]),
            ("olymbits", "echo UPLEFT", 2, [
                (vec![1, 0, 0], 100, "turn 1: Deactivated $0: Invalid Input: Expected UP | DOWN | LEFT | RIGHT but got 'UPLEFT'"),
                (vec![0, 0, 1], 100, "turn 1: Deactivated $2: Invalid Input: Expected UP | DOWN | LEFT | RIGHT but got 'UPLEFT'"),
            ]),
            ("wondev-woman", "echo 'PUSH&BUILD 0 N S'", 1, [
                (vec![1, 0], 38, "turn 1: PushInvalid: Not a valid push: N + S."),
                (vec![0, 1], 54, "turn 2: PushInvalid: Not a valid push: N + S."),
            ]),
        ];
        for (game, line, others, expected) in cases {
            let mut bots = vec![BotSpec::Command(format!("while read l; do {line}; done"))];
            bots.extend(std::iter::repeat_n(BotSpec::Random, others));
            for engine in [EngineKind::Reference, EngineKind::Fast] {
                let config = ArenaConfig {
                    seed: 7,
                    time_scale: 5.0,
                    threads: Some(1),
                    engine,
                    ..ArenaConfig::new(game, bots.clone(), 4)
                };
                for (index, (invalid, turns, problem)) in expected.iter().enumerate() {
                    let r = play_game(&config, index).expect("plays").result;
                    let seat = r.seats.iter().position(|&b| b == 0).unwrap();
                    let context = format!("{game} {engine} game {index}: {r:?}");
                    assert_eq!(&r.invalid, invalid, "{context}");
                    assert_eq!(r.turns, *turns, "{context}");
                    assert_eq!(r.problems[seat].get("invalid").map(String::as_str), Some(*problem));
                    assert_eq!(r.timeouts, vec![0; others + 1], "{context}");
                    assert_eq!(r.illegal, vec![0; others + 1], "{context}");
                }
            }
        }
    }
}
