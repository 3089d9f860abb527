//! `twinsim payoff`: what the fast twin buys. A game's search bot on the fast twin plays the same
//! search on the reference engine under the same wall-clock budget per move (seats rotating),
//! then plays `builtin:greedy`; the table says the win rates with their 95% intervals, the
//! iterations per move each engine afforded, and the timeouts and illegal answers (which must be
//! zero).

use crate::arena::{self, stats, ArenaConfig, BotSpec, GameResult};
use crate::search::bot::{SearchSpec, ALGORITHMS};
use reference::game::EngineKind;

/// One payoff measurement: a run of the arena and the bots' totals.
#[derive(Clone, Debug)]
pub struct Row {
    /// What was measured (`fast vs reference`, `fast vs greedy`).
    pub matchup: String,
    /// Games played.
    pub games: usize,
    /// Win rate of bot 0 (the fast search) with its 95% interval: (mean, low, high).
    pub win_rate: (f64, f64, f64),
    /// Share of games bot 0 ranked strictly first when a random seat would win 1/players.
    pub baseline: f64,
    /// Iterations per move of each distinct bot (search bots only).
    pub iterations_per_move: Vec<(String, Option<f64>)>,
    /// Timeouts and illegal answers of the search bots, summed.
    pub timeouts: usize,
    pub illegal: usize,
}

/// The bots of a payoff run: the fast search in seat 0, then `opponent` in every other seat.
fn lineup(game: &str, players: usize, opponent: BotSpec) -> Result<Vec<BotSpec>, String> {
    let algorithm = ALGORITHMS
        .iter()
        .find(|(g, _)| *g == game)
        .map(|(_, a)| a.to_string())
        .ok_or_else(|| format!("{game} has no search bot"))?;
    let fast =
        BotSpec::Search(SearchSpec { algorithm, engine: EngineKind::Fast, iterations: None });
    let mut bots = vec![fast];
    bots.extend(std::iter::repeat_n(opponent, players - 1));
    Ok(bots)
}

/// The reference-engine twin of the game's search bot.
pub fn reference_search(game: &str) -> Result<BotSpec, String> {
    let algorithm = ALGORITHMS
        .iter()
        .find(|(g, _)| *g == game)
        .map(|(_, a)| a.to_string())
        .ok_or_else(|| format!("{game} has no search bot"))?;
    Ok(BotSpec::Search(SearchSpec { algorithm, engine: EngineKind::Reference, iterations: None }))
}

/// Players of a game (Olymbits: 3, the others: 2).
pub fn players(game: &str) -> usize {
    if game == "olymbits" {
        3
    } else {
        2
    }
}

/// Runs one matchup: the fast search against `opponent` in every other seat.
pub fn measure(
    base: &ArenaConfig,
    opponent: BotSpec,
    matchup: &str,
    games: usize,
    progress: &(dyn Fn(&[GameResult]) + Sync),
) -> Result<Row, String> {
    let n = players(&base.game);
    let config = ArenaConfig {
        bots: lineup(&base.game, n, opponent)?,
        games,
        out: None,
        resume: false,
        ..base.clone()
    };
    let results = arena::run(&config, progress)?;
    let totals = arena::totals(&results, config.bots.len());
    let rate = stats::win_rate(&totals[0].points).ok_or("no games were played")?;
    // Seats with the same spec are one bot (Olymbits' two opponents): pool their counters.
    let mut iterations_per_move: Vec<(String, Option<f64>)> = Vec::new();
    let (mut timeouts, mut illegal) = (0, 0);
    for (bot, spec) in config.bots.iter().enumerate() {
        if !matches!(spec, BotSpec::Search(_)) {
            continue;
        }
        timeouts += totals[bot].timeouts;
        illegal += totals[bot].illegal;
        let name = spec.to_string();
        if iterations_per_move.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let same = || (0..config.bots.len()).filter(|&c| config.bots[c].to_string() == name);
        let moves: u64 = same().map(|c| totals[c].moves).sum();
        let iterations: u64 = same().map(|c| totals[c].iterations).sum();
        iterations_per_move.push((name, (moves > 0).then(|| iterations as f64 / moves as f64)));
    }
    Ok(Row {
        matchup: matchup.to_string(),
        games: results.len(),
        win_rate: (rate.mean, rate.low, rate.high),
        baseline: 1.0 / n as f64,
        iterations_per_move,
        timeouts,
        illegal,
    })
}

/// The Markdown table of a game's rows, `budget` describing the time per move.
pub fn table(game: &str, budget: &str, rows: &[Row]) -> String {
    let mut text = String::from(
        "| game | time limit | matchup | games | fast search win rate (95% CI) | iterations per move | timeouts | illegal |\n|---|---|---|---|---|---|---|---|\n",
    );
    for row in rows {
        let iterations: Vec<String> = row
            .iterations_per_move
            .iter()
            .map(|(name, i)| {
                let engine = if name.contains("@reference") { "reference" } else { "fast" };
                format!("{engine} {}", i.map_or("-".into(), |i| format!("{i:.0}")))
            })
            .collect();
        text.push_str(&format!(
            "| {game} | {budget} | {} | {} | {:.1}% [{:.1}, {:.1}] (even: {:.0}%) | {} | {} | {} |\n",
            row.matchup,
            row.games,
            100.0 * row.win_rate.0,
            100.0 * row.win_rate.1,
            100.0 * row.win_rate.2,
            100.0 * row.baseline,
            iterations.join(", "),
            row.timeouts,
            row.illegal,
        ));
    }
    text
}
