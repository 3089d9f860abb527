//! `twinsim`: replay referee traces, verify both engines, draw positions, perft and benchmarks.

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{json, Value};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use twinsim::{bench, perft, replay, verify};
use twinsim_arena::{self as arena, registry};
use twinsim_reference::game::EngineKind;
use twinsim_reference::trace;

#[derive(Parser)]
#[command(
    name = "twinsim",
    version,
    about = "Exact, fast rule engines for five bot-programming games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EngineChoice {
    Reference,
    Fast,
    Both,
}

impl EngineChoice {
    fn kinds(self) -> Vec<EngineKind> {
        match self {
            EngineChoice::Reference => vec![EngineKind::Reference],
            EngineChoice::Fast => vec![EngineKind::Fast],
            EngineChoice::Both => vec![EngineKind::Reference, EngineKind::Fast],
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Replay referee trace files and compare every turn with the file.
    Replay {
        /// JSON Lines trace files (games may be mixed).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Which engine(s) to replay through.
        #[arg(long, value_enum, default_value = "both")]
        engine: EngineChoice,
    },
    /// The main job: replay the shipped traces through both engines, then play random games
    /// through both in lockstep, and print a table per game.
    Verify {
        /// Random games per game.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Master seed of the random games.
        #[arg(long, default_value_t = 1)]
        seed: i64,
        /// Directory of trace files (`<game>.jsonl`).
        #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces"))]
        traces: PathBuf,
        /// Fail (exit 1) when a game or engine is not implemented yet, not only on mismatches.
        #[arg(long)]
        strict: bool,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position in the terminal.
    Show {
        /// Game: xmas-rush, photosynthesis, zuniq, olymbits, wondev-woman.
        game: String,
        /// Game seed.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
        seed: i64,
        /// League (default: the top league).
        #[arg(long)]
        league: Option<u32>,
        /// Show the position after this many turns of `--actions`.
        #[arg(long, requires = "actions")]
        turn: Option<usize>,
        /// The turns to play: a trace file (`.jsonl`: the first game's actions) or a text file
        /// with one turn per line, players' lines separated by ` | ` in simultaneous games.
        #[arg(long)]
        actions: Option<PathBuf>,
        /// Which engine draws it.
        #[arg(long, value_enum, default_value = "reference")]
        engine: EngineChoice,
    },
    /// Count the leaves of the legal-move tree (alternating games: zuniq, wondev-woman).
    Perft {
        /// Game.
        game: String,
        /// Depth in plies; every depth from 1 up to it is printed.
        #[arg(long)]
        depth: u32,
        /// Game seed of the start position.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
        seed: i64,
        /// Which engine(s).
        #[arg(long, value_enum, default_value = "both")]
        engine: EngineChoice,
    },
    /// Play bots against each other under the exact rules, many games in parallel.
    Arena {
        /// Game.
        game: String,
        /// A bot: a shell command, builtin:random, builtin:greedy, or a search
        /// (builtin:smitsimax, beam, mcts, alphabeta; add @reference or @fast, and optionally
        /// :iterations=N). One per seat.
        #[arg(long = "bot", required = true)]
        bots: Vec<String>,
        /// Games to play (seats rotate: every seed is played once per rotation).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Master seed.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
        seed: i64,
        /// League (default: the top league).
        #[arg(long)]
        league: Option<u32>,
        /// Games run at once (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Multiplies the referee's time limits (e.g. 2 on a slow machine).
        #[arg(long, default_value_t = 1.0)]
        time_scale: f64,
        /// Engine that referees (default: fast where built, else reference).
        #[arg(long, value_enum)]
        engine: Option<EngineChoice>,
        /// Write every game as a trace, each bot's stderr, and results.jsonl here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Continue the run recorded in --out.
        #[arg(long, requires = "out")]
        resume: bool,
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
    },
    /// What speed buys: the game's search bot on the fast twin against the same search on the
    /// reference engine (same wall-clock budget per move, seats rotating), then against
    /// builtin:greedy. Prints a Markdown table.
    Payoff {
        /// Game.
        game: String,
        /// Games of the fast search against the reference search.
        #[arg(long, default_value_t = 500)]
        games: usize,
        /// Games of the fast search against builtin:greedy (0: skip).
        #[arg(long, default_value_t = 100)]
        greedy_games: usize,
        /// Multiplies the referee's time limits, hence every bot's budget per move.
        #[arg(long, default_value_t = 1.0)]
        time_scale: f64,
        /// Master seed.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
        seed: i64,
        /// Games run at once (default: all cores). Each game's bots think one at a time.
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Each hot operation, reference vs fast, interleaved in one run: median ns/op and ratio.
    Bench {
        /// Only this game.
        game: Option<String>,
        /// Alternating rounds per operation.
        #[arg(long, default_value_t = 15)]
        rounds: usize,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Count instructions per operation (under valgrind's callgrind) instead of timing.
        #[arg(long)]
        instructions: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Replay { files, engine } => run_replay(&files, engine),
        Command::Verify { games, seed, traces, strict, json } => {
            run_verify(games, seed, &traces, strict, json)
        }
        Command::Show { game, seed, league, turn, actions, engine } => {
            run_show(&game, seed, league, turn, actions.as_deref(), engine)
        }
        Command::Perft { game, depth, seed, engine } => run_perft(&game, depth, seed, engine),
        Command::Bench { game, rounds, json, instructions } => {
            run_bench(game.as_deref(), rounds, json, instructions)
        }
        Command::Payoff { game, games, greedy_games, time_scale, seed, threads } => {
            if let Err(code) = known_game(&game) {
                return code;
            }
            run_payoff(&game, games, greedy_games, time_scale, seed, threads)
        }
        Command::Arena {
            game,
            bots,
            games,
            seed,
            league,
            threads,
            time_scale,
            engine,
            out,
            resume,
            json,
        } => {
            if let Err(code) = known_game(&game) {
                return code;
            }
            let specs: Result<Vec<arena::BotSpec>, String> =
                bots.iter().map(|b| b.parse()).collect();
            let specs = match specs {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("twinsim: {e}");
                    return ExitCode::from(2);
                }
            };
            let engine = match engine {
                Some(EngineChoice::Reference) => EngineKind::Reference,
                Some(EngineChoice::Fast) => EngineKind::Fast,
                Some(EngineChoice::Both) | None => {
                    if registry::engine(&game, EngineKind::Fast).is_some() {
                        EngineKind::Fast
                    } else {
                        EngineKind::Reference
                    }
                }
            };
            let config = arena::ArenaConfig {
                game,
                bots: specs,
                games,
                seed,
                league,
                time_scale,
                engine,
                threads,
                out,
                resume,
            };
            run_arena(&config, json)
        }
    }
}

fn run_replay(files: &[PathBuf], engine: EngineChoice) -> ExitCode {
    let mut games = Vec::new();
    for file in files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("twinsim: cannot read {}: {e}", file.display());
                return ExitCode::from(2);
            }
        };
        match trace::parse_jsonl(&text) {
            Ok(mut parsed) => games.append(&mut parsed),
            Err(e) => {
                eprintln!("twinsim: {}: {e}", file.display());
                return ExitCode::from(2);
            }
        }
    }
    for game in &games {
        if !registry::GAMES.contains(&game.game.as_str()) {
            eprintln!(
                "twinsim: unknown game {:?} (known: {})",
                game.game,
                registry::GAMES.join(", ")
            );
            return ExitCode::from(2);
        }
    }
    let summary = replay::replay_all(&games, &engine.kinds());
    for (kind, report) in &summary.failures {
        print!("{}", replay::describe_failure(*kind, report));
    }
    for (game, kind) in &summary.skipped_engines {
        println!("skipped: {game} has no {kind} engine yet");
    }
    println!("{}", summary.line());
    if summary.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Every game's trace file in `dir` (missing files are skipped: a game without traces).
fn load_trace_dir(dir: &Path) -> Result<Vec<trace::TraceGame>, String> {
    let mut games = Vec::new();
    for game in registry::GAMES {
        let path = dir.join(format!("{game}.jsonl"));
        if !path.exists() {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut parsed =
            trace::parse_jsonl(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        games.append(&mut parsed);
    }
    Ok(games)
}

fn run_verify(games: usize, seed: i64, traces: &Path, strict: bool, json: bool) -> ExitCode {
    let records = match load_trace_dir(traces) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("twinsim: {e}");
            return ExitCode::from(2);
        }
    };
    let show_progress = !json && std::io::stderr().is_terminal();
    let started = Instant::now();
    let progress = |done: usize, total: usize| {
        if show_progress && (done.is_multiple_of(10) || done == total) {
            let width = 40;
            let filled = done * width / total.max(1);
            eprint!(
                "\r[{}{}] {done}/{total} random games",
                "=".repeat(filled),
                " ".repeat(width - filled)
            );
            if done == total {
                eprintln!();
            }
        }
    };
    let (results, summary) = verify::verify(&records, games, seed, &progress);
    let mismatch = results.iter().any(|r| r.has_mismatch());
    let skip = results.iter().any(|r| r.has_skip());
    if json {
        let out = json!({
            "games_per_game": games,
            "seed": seed,
            "replay": summary.line(),
            "results": results.iter().map(|r| r.to_json()).collect::<Vec<_>>(),
            "ok": !(mismatch || strict && skip),
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        for (kind, report) in &summary.failures {
            print!("{}", replay::describe_failure(*kind, report));
        }
        let pair = |c: Option<(usize, usize)>| match c {
            Some((ok, all)) => format!("{ok}/{all}"),
            None => "not built".into(),
        };
        let num = |x: Option<f64>| x.map_or("-".into(), |x| format!("{x:.0}"));
        println!(
            "{:<15} {:>12} {:>12} {:>13} {:>14} {:>14} {:>8}",
            "game",
            "traces ref",
            "traces fast",
            "random games",
            "ref turns/s",
            "fast turns/s",
            "speedup"
        );
        for r in &results {
            let random = match r.random_games {
                Some(c) => pair(Some(c)),
                None => "skipped".into(),
            };
            println!(
                "{:<15} {:>12} {:>12} {:>13} {:>14} {:>14} {:>8}",
                r.game,
                pair(r.traces_reference),
                pair(r.traces_fast),
                random,
                num(r.reference_rate()),
                num(r.fast_rate()),
                r.speedup().map_or("-".into(), |s| format!("{s:.1}x"))
            );
        }
        for r in &results {
            for d in &r.divergences {
                println!("DIVERGENCE {d}");
            }
        }
        println!(
            "{}; random games: {} per game, seed {seed}; {:.1}s",
            summary.line(),
            games,
            started.elapsed().as_secs_f64()
        );
        println!("(turns/s: text-level turns, parse + rules, per core; `twinsim bench` times the hot operations)");
        if skip {
            println!("some games or engines are not implemented yet: shown as \"not built\" / \"skipped\", never as passing");
        }
    }
    if mismatch || (strict && skip) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn known_game(game: &str) -> Result<(), ExitCode> {
    if registry::GAMES.contains(&game) {
        Ok(())
    } else {
        eprintln!("twinsim: unknown game {game:?} (known: {})", registry::GAMES.join(", "));
        Err(ExitCode::from(2))
    }
}

/// The turns of an actions file, each in the trace shape of `turns[].actions`.
fn read_actions(
    path: &Path,
    players: usize,
    alternating: bool,
) -> Result<Vec<Vec<Option<String>>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if path.extension().is_some_and(|e| e == "jsonl") {
        let games = trace::parse_jsonl(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let first = games.into_iter().next().ok_or("the trace file has no game")?;
        return Ok(first.turns.into_iter().map(|t| t.actions).collect());
    }
    Ok(text
        .lines()
        .map(|line| {
            if alternating {
                vec![Some(line.to_string())]
            } else {
                let mut parts: Vec<Option<String>> =
                    line.split(" | ").map(|p| Some(p.to_string())).collect();
                parts.resize(players, None);
                parts
            }
        })
        .collect())
}

fn run_show(
    game: &str,
    seed: i64,
    league: Option<u32>,
    turn: Option<usize>,
    actions: Option<&Path>,
    engine: EngineChoice,
) -> ExitCode {
    if let Err(code) = known_game(game) {
        return code;
    }
    let kind = if engine == EngineChoice::Fast { EngineKind::Fast } else { EngineKind::Reference };
    let Some(engine) = registry::engine(game, kind) else {
        println!("{game} has no {kind} engine yet");
        return ExitCode::FAILURE;
    };
    let mut play = match engine.setup(Some(seed), &registry::league_params(game, league)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("twinsim: setup failed: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(path) = actions {
        let alternating = engine.turns() == twinsim_reference::game::TurnStructure::Alternating;
        let turns = match read_actions(path, play.num_players(), alternating) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("twinsim: {e}");
                return ExitCode::from(2);
            }
        };
        let upto = turn.unwrap_or(turns.len()).min(turns.len());
        for (i, actions) in turns.iter().take(upto).enumerate() {
            if let Err(e) = play.play_turn(actions) {
                eprintln!("twinsim: turn {}: {e}", i + 1);
                return ExitCode::from(2);
            }
        }
    }
    println!("{}", play.render(std::io::stdout().is_terminal()));
    ExitCode::SUCCESS
}

fn run_perft(game: &str, depth: u32, seed: i64, engine: EngineChoice) -> ExitCode {
    if let Err(code) = known_game(game) {
        return code;
    }
    let mut any = false;
    for kind in engine.kinds() {
        let Some(engine) = registry::engine(game, kind) else {
            println!("{game}: no {kind} engine yet");
            continue;
        };
        if engine.turns() != twinsim_reference::game::TurnStructure::Alternating {
            println!(
                "perft is for alternating games (zuniq, wondev-woman); {game} is simultaneous"
            );
            return ExitCode::from(2);
        }
        let play = match engine.setup(Some(seed), &json!({})) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("twinsim: setup failed: {e}");
                return ExitCode::from(2);
            }
        };
        any = true;
        println!("{game} seed {seed}, {kind} engine");
        println!("{:>5} {:>16} {:>12}", "depth", "leaves", "ms");
        for d in 1..=depth {
            let start = Instant::now();
            let n = perft::perft(play.as_ref(), d);
            println!("{d:>5} {n:>16} {:>12.1}", start.elapsed().as_secs_f64() * 1e3);
        }
    }
    if any {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn run_bench(game: Option<&str>, rounds: usize, json: bool, instructions: bool) -> ExitCode {
    if let Some(g) = game {
        if let Err(code) = known_game(g) {
            return code;
        }
    }
    let mut ops = registry::bench_ops(game);
    if ops.is_empty() {
        println!("no benchmark pairs yet for {}", game.unwrap_or("any game"));
        return ExitCode::FAILURE;
    }
    if instructions {
        return bench::instructions::run(game, &mut ops, json);
    }
    let mut results = Vec::new();
    let live = !json && std::io::stdout().is_terminal();
    for op in ops.iter_mut() {
        let r = bench::measure(op, rounds, Duration::from_millis(20));
        if live {
            print!("\r{:<60}", format!("measured {} {}", r.game, r.name));
            let _ = std::io::stdout().flush();
        }
        results.push(r);
    }
    if json {
        let out: Vec<Value> = results.iter().map(|r| r.to_json()).collect();
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        if live {
            print!("\r{:<60}\r", "");
        }
        print!("{}", bench::table(&results));
    }
    ExitCode::SUCCESS
}

fn run_payoff(
    game: &str,
    games: usize,
    greedy_games: usize,
    time_scale: f64,
    seed: i64,
    threads: Option<usize>,
) -> ExitCode {
    let base = arena::ArenaConfig {
        game: game.to_string(),
        bots: Vec::new(),
        games,
        seed,
        league: None,
        time_scale,
        engine: if registry::engine(game, EngineKind::Fast).is_some() {
            EngineKind::Fast
        } else {
            EngineKind::Reference
        },
        threads,
        out: None,
        resume: false,
    };
    let limits = arena::time_limits(game);
    let budget = match limits.total {
        Some(total) => format!("{:.2} s per game", total.mul_f64(time_scale).as_secs_f64()),
        None => {
            format!("{:.1} ms per move", limits.later.mul_f64(time_scale).as_secs_f64() * 1000.0)
        }
    };
    let live = std::io::stderr().is_terminal();
    let mut rows = Vec::new();
    let reference_search = match twinsim::payoff::search_bot(game, EngineKind::Reference) {
        Ok(spec) => spec,
        Err(e) => {
            eprintln!("twinsim: payoff: {e}");
            return ExitCode::from(2);
        }
    };
    let mut matchups = vec![("fast vs reference", reference_search, games)];
    if greedy_games > 0 {
        matchups.push(("fast vs greedy", arena::BotSpec::Greedy, greedy_games));
    }
    for (name, opponent, n) in matchups {
        let progress = |results: &[arena::GameResult]| {
            if live {
                eprint!("\r{name}: {}/{n} games   ", results.len());
            }
        };
        let row = twinsim::payoff::measure(&base, opponent, name, n, &progress);
        if live {
            eprintln!();
        }
        match row {
            Ok(row) => rows.push(row),
            Err(e) => {
                eprintln!("twinsim: payoff: {e}");
                return ExitCode::from(2);
            }
        }
    }
    print!("{}", twinsim::payoff::table(game, &budget, &rows));
    ExitCode::SUCCESS
}

fn run_arena(config: &arena::ArenaConfig, json: bool) -> ExitCode {
    let live = !json && std::io::stderr().is_terminal();
    let progress = |results: &[arena::GameResult]| {
        if !live {
            return;
        }
        let totals = arena::totals(results, config.bots.len());
        let rates: Vec<String> = totals
            .iter()
            .enumerate()
            .map(|(b, t)| {
                let rate = t.points.iter().sum::<f64>() / t.points.len().max(1) as f64;
                format!("bot{b} {:.1}%", 100.0 * rate)
            })
            .collect();
        let width = 30;
        let filled = results.len() * width / config.games.max(1);
        eprint!(
            "\r[{}{}] {}/{} games  {}   ",
            "=".repeat(filled),
            " ".repeat(width - filled),
            results.len(),
            config.games,
            rates.join("  ")
        );
    };
    match arena::run(config, &progress) {
        Ok(results) => {
            if live {
                eprintln!();
            }
            if json {
                let totals = arena::totals(&results, config.bots.len());
                let bots: Vec<Value> = totals
                    .iter()
                    .enumerate()
                    .map(|(b, t)| {
                        json!({
                            "bot": config.bots[b].to_string(), "wins": t.wins, "draws": t.draws,
                            "losses": t.losses, "timeouts": t.timeouts, "crashes": t.crashes,
                            "illegal": t.illegal, "iterations_per_move": t.iterations_per_move(),
                            "win_rate": arena::stats::win_rate(&t.points).map(|r| json!([r.mean, r.low, r.high])),
                            "average_score": t.score_sum / t.points.len().max(1) as f64,
                            "openskill": [t.rating.mu, t.rating.sigma],
                        })
                    })
                    .collect();
                let games: Vec<Value> = results.iter().map(|r| r.to_json()).collect();
                println!("{}", json!({"bots": bots, "games": games}));
            } else {
                print!("{}", arena::report(config, &results));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            if live {
                eprintln!();
            }
            eprintln!("twinsim: arena: {e}");
            ExitCode::from(2)
        }
    }
}
