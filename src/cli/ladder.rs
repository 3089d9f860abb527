//! `twinsim ladder GAME --a SPEC --b SPEC`: bot A against bot B on fixed seeds, both seat
//! orders, with A's Elo difference and its interval.

use super::progress::Progress;
use super::{default_engine, known_game, usage_error};
use std::process::ExitCode;
use twinsim_arena as arena;

/// What `ladder` is asked for: its flags.
#[derive(clap::Args)]
pub struct LadderArgs {
    /// Game (two-player: xmas-rush, photosynthesis, zuniq, wondev-woman).
    pub game: String,
    /// Bot A, as `arena --bot` takes it (e.g. builtin:mcts@fast, or a command).
    #[arg(long)]
    pub a: String,
    /// Bot B (e.g. the search of today, or builtin:mcts@reference).
    #[arg(long)]
    pub b: String,
    /// Seeds to play (1 to 500,000,000); each is played twice, A first and B first.
    #[arg(long, default_value_t = 100, value_parser = seeds)]
    pub seeds: usize,
    /// Master seed: the same master seed gives the same game seeds.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: i64,
    /// Multiplies the referee's time limits, both bots' (above 0, at most 1000; 1: the
    /// referee's clock). For a budget of one bot only, give it `:ms=N`.
    #[arg(long, default_value_t = 1.0, value_parser = super::args::time_scale)]
    pub time_scale: f64,
    /// Games run at once, 1 to 256 (default: all cores).
    #[arg(long, value_parser = super::args::threads)]
    pub threads: Option<usize>,
}

/// Seeds from 1 to half the arena's most games (each seed is two games).
fn seeds(text: &str) -> Result<usize, String> {
    let most = arena::MAX_GAMES / 2;
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=most).contains(&n) => Ok(n),
        _ => Err(format!("{text:?}: seeds must be a whole number from 1 to {most}")),
    }
}

/// Plays the match and prints its Markdown table.
pub fn run(request: &LadderArgs) -> ExitCode {
    let game = request.game.as_str();
    if let Err(code) = known_game(game) {
        return code;
    }
    let (a, b) = match (request.a.parse::<arena::BotSpec>(), request.b.parse::<arena::BotSpec>()) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return usage_error(format!("ladder: {e}")),
    };
    let base = arena::ArenaConfig {
        seed: request.seed,
        time_scale: request.time_scale,
        engine: default_engine(game),
        threads: request.threads,
        ..arena::ArenaConfig::new(game, Vec::new(), 0)
    };
    let clock = super::clock(game, request.time_scale);
    let games = request.seeds * 2;
    let progress = Progress::new(true);
    let report = |_: &arena::GameResult, standings: &arena::Standings| {
        let done = standings.games();
        progress.report(done, games, done == games, || "A against B".to_string());
    };
    match twinsim::ladder::play(&base, a.clone(), b.clone(), request.seeds, &report) {
        Ok(ladder) => {
            let (a, b) = (a.to_string(), b.to_string());
            print!("{}", twinsim::ladder::table(game, &a, &b, &clock, &ladder));
            ExitCode::SUCCESS
        }
        Err(e) => usage_error(format!("ladder: {e}")),
    }
}
