//! `twinsim payoff GAME`: the fast search against the reference search and against greedy.

use super::progress::Progress;
use super::{default_engine, known_game, usage_error};
use std::process::ExitCode;
use twinsim_arena as arena;

/// What `payoff` is asked for: its flags.
#[derive(clap::Args)]
pub struct PayoffArgs {
    /// Game.
    pub game: String,
    /// Games of the fast search against the reference search (1 to 1,000,000,000).
    #[arg(long, default_value_t = 500, value_parser = super::args::games_at_least_one)]
    pub games: usize,
    /// Games of the fast search against builtin:greedy (0: skip).
    #[arg(long, default_value_t = 100, value_parser = super::args::games)]
    pub greedy_games: usize,
    /// Multiplies the referee's time limits, hence every bot's budget per move (above 0, at
    /// most 1000).
    #[arg(long, default_value_t = 1.0, value_parser = super::args::time_scale)]
    pub time_scale: f64,
    /// Master seed.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: i64,
    /// Games run at once, 1 to 256 (default: all cores). Each game's bots think one at a
    /// time.
    #[arg(long, value_parser = super::args::threads)]
    pub threads: Option<usize>,
}

/// Plays both matchups and prints the Markdown table.
pub fn run(request: &PayoffArgs) -> ExitCode {
    let game = request.game.as_str();
    if let Err(code) = known_game(game) {
        return code;
    }
    let base = arena::ArenaConfig {
        seed: request.seed,
        time_scale: request.time_scale,
        engine: default_engine(game),
        threads: request.threads,
        ..arena::ArenaConfig::new(game, Vec::new(), request.games)
    };
    let budget = super::clock(game, request.time_scale);
    let reference_search =
        match twinsim::payoff::search_bot(game, twinsim_reference::game::EngineKind::Reference) {
            Ok(spec) => spec,
            Err(e) => return usage_error(format!("payoff: {e}")),
        };
    let mut matchups = vec![("fast vs reference", reference_search, request.games)];
    if request.greedy_games > 0 {
        matchups.push(("fast vs greedy", arena::BotSpec::Greedy, request.greedy_games));
    }
    let mut rows = Vec::new();
    for (name, opponent, n) in matchups {
        let progress = Progress::new(true);
        let report = |_: &arena::GameResult, standings: &arena::Standings| {
            let done = standings.games();
            progress.report(done, n, done == n, || name.to_string());
        };
        let row = twinsim::payoff::measure(&base, opponent, name, n, &report);
        match row {
            Ok(row) => rows.push(row),
            Err(e) => return usage_error(format!("payoff: {e}")),
        }
    }
    print!("{}", twinsim::payoff::table(game, &budget, &rows));
    ExitCode::SUCCESS
}
