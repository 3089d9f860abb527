//! `twinsim arena GAME --bot CMD --bot CMD ...`: bots against each other, the table of results.

use super::progress::Progress;
use super::{default_engine, known_game, usage_error, EngineChoice};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;
use twinsim_arena as arena;
use twinsim_reference::game::EngineKind;

/// What `arena` is asked for: its flags.
#[derive(clap::Args)]
pub struct ArenaArgs {
    /// Game.
    pub game: String,
    /// A bot: a shell command, builtin:random, builtin:greedy, or a search
    /// (builtin:smitsimax, beam, mcts, alphabeta; add @reference or @fast, and optionally
    /// :iterations=N). One per seat.
    #[arg(long = "bot", required = true)]
    pub bots: Vec<String>,
    /// Games to play, 1 to 1,000,000,000 (seats rotate: every seed is played once per
    /// rotation).
    #[arg(long, default_value_t = 100, value_parser = super::args::games_at_least_one)]
    pub games: usize,
    /// Master seed (any 64-bit integer, negative too).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: i64,
    /// League (default: the top league).
    #[arg(long)]
    pub league: Option<u32>,
    /// Games run at once, 1 to 256 (default: all cores).
    #[arg(long, value_parser = super::args::threads)]
    pub threads: Option<usize>,
    /// Multiplies the referee's time limits (e.g. 2 on a slow machine): above 0, at most
    /// 1000.
    #[arg(long, default_value_t = 1.0, value_parser = super::args::time_scale)]
    pub time_scale: f64,
    /// Engine that referees (default: fast where built, else reference).
    #[arg(long, value_enum)]
    pub engine: Option<EngineChoice>,
    /// Write every game as a trace, each bot's stderr, and results.jsonl here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the run recorded in --out.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs the arena and prints the table (or JSON).
pub fn run(request: ArenaArgs) -> ExitCode {
    if let Err(code) = known_game(&request.game) {
        return code;
    }
    let specs: Result<Vec<arena::BotSpec>, String> =
        request.bots.iter().map(|b| b.parse()).collect();
    let specs = match specs {
        Ok(s) => s,
        Err(e) => return usage_error(e),
    };
    let engine =
        match request.engine {
            Some(EngineChoice::Reference) => EngineKind::Reference,
            Some(EngineChoice::Fast) => EngineKind::Fast,
            Some(EngineChoice::Both) => return usage_error(
                "arena --engine both is not supported: an arena game is refereed by one engine \
                 (check exactness on the run's games with `twinsim replay --engine both \
                 DIR/traces.jsonl`)",
            ),
            None => default_engine(&request.game),
        };
    let config = arena::ArenaConfig {
        game: request.game,
        bots: specs,
        games: request.games,
        seed: request.seed,
        league: request.league,
        time_scale: request.time_scale,
        engine,
        threads: request.threads,
        out: request.out,
        resume: request.resume,
    };
    let json_output = request.json;
    let progress = Progress::new(!json_output);
    let report = |results: &[arena::GameResult]| {
        let done = results.len();
        progress.report(done, config.games, done == config.games, || {
            let totals = arena::totals(results, config.bots.len());
            let rates: Vec<String> = totals
                .iter()
                .enumerate()
                .map(|(b, t)| {
                    let rate = t.points.iter().sum::<f64>() / t.points.len().max(1) as f64;
                    format!("bot{b} {:.1}%", 100.0 * rate)
                })
                .collect();
            rates.join("  ")
        });
    };
    match arena::run(&config, &report) {
        Ok(results) => {
            if json_output {
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
                print!("{}", arena::report(&config, &results));
            }
            ExitCode::SUCCESS
        }
        Err(e) => usage_error(format!("arena: {e}")),
    }
}
