//! `twinsim payoff`: what the fast twin buys. A game's search bot on the fast twin plays the same
//! search on the reference engine under the same wall-clock budget per move (seats rotating),
//! then plays `builtin:greedy`; the table says the win rates with their 95% intervals, the
//! iterations per move each engine afforded, and the timeouts and illegal answers (which must be
//! zero).

use twinsim_arena::{self as arena, ArenaConfig, BotSpec, GameResult};
use twinsim_reference::game::EngineKind;
use twinsim_reference::registry::GameId;
use twinsim_search::bot::{default_algorithm, SearchSpec};

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
    /// Each distinct search bot (seats with the same spec pooled).
    pub searches: Vec<SearchFigures>,
}

/// What one search bot of a matchup did.
#[derive(Clone, Debug)]
pub struct SearchFigures {
    /// Its spec (`builtin:mcts@fast`).
    pub name: String,
    /// Mean iterations per answer.
    pub iterations_per_move: Option<f64>,
    /// Answers given, over all its seats and games (the two counts below are of these).
    pub moves: u64,
    /// Answers that came after the time limit.
    pub timeouts: usize,
    /// Answers the referee refused as illegal.
    pub illegal: usize,
}

impl SearchFigures {
    /// `fast` or `reference`.
    fn engine(&self) -> &'static str {
        if self.name.contains("@reference") {
            "reference"
        } else {
            "fast"
        }
    }
}

/// The game's search bot on `engine`, with the clock as its budget.
pub fn search_bot(game: &str, engine: EngineKind) -> Result<BotSpec, String> {
    let algorithm = game
        .parse::<GameId>()
        .ok()
        .and_then(default_algorithm)
        .ok_or_else(|| format!("{game} has no search bot"))?;
    Ok(BotSpec::Search(SearchSpec {
        algorithm: algorithm.to_string(),
        engine,
        iterations: None,
        ms: None,
    }))
}

/// The bots of a payoff run: the fast search in seat 0, then `opponent` in every other seat.
fn lineup(game: &str, players: usize, opponent: BotSpec) -> Result<Vec<BotSpec>, String> {
    let mut bots = vec![search_bot(game, EngineKind::Fast)?];
    bots.extend(std::iter::repeat_n(opponent, players - 1));
    Ok(bots)
}

/// Players of a game (Olymbits: 3, the others: 2; [`GameInfo::players`]); `None` for an
/// unknown game.
///
/// [`GameInfo::players`]: twinsim_reference::registry::GameInfo::players
pub fn players(game: &str) -> Option<usize> {
    game.parse::<GameId>().ok().map(|game| game.info().players)
}

/// Runs one matchup: the fast search against `opponent` in every other seat.
pub fn measure(
    base: &ArenaConfig,
    opponent: BotSpec,
    matchup: &str,
    games: usize,
    progress: &(dyn Fn(&GameResult, &arena::Standings) + Sync),
) -> Result<Row, String> {
    let n = players(&base.game).ok_or_else(|| format!("unknown game {:?}", base.game))?;
    let config = ArenaConfig {
        bots: lineup(&base.game, n, opponent)?,
        games,
        out: None,
        resume: false,
        ..base.clone()
    };
    let end = arena::run(&config, progress)?;
    let totals = end.standings.totals();
    let rate = totals[0].points.win_rate().ok_or("no games were played")?;
    // Seats with the same spec are one bot (Olymbits' two opponents): pool their counters.
    let mut searches: Vec<SearchFigures> = Vec::new();
    for spec in &config.bots {
        let name = spec.to_string();
        if !matches!(spec, BotSpec::Search(_)) || searches.iter().any(|s| s.name == name) {
            continue;
        }
        let same: Vec<&arena::BotTotals> = (0..config.bots.len())
            .filter(|&c| config.bots[c].to_string() == name)
            .map(|c| &totals[c])
            .collect();
        let moves: u64 = same.iter().map(|t| t.moves).sum();
        let iterations: u64 = same.iter().map(|t| t.iterations).sum();
        searches.push(SearchFigures {
            name,
            iterations_per_move: (moves > 0).then(|| iterations as f64 / moves as f64),
            moves,
            timeouts: same.iter().map(|t| t.timeouts).sum(),
            illegal: same.iter().map(|t| t.illegal).sum(),
        });
    }
    Ok(Row {
        matchup: matchup.to_string(),
        games: end.standings.games(),
        win_rate: (rate.mean, rate.low, rate.high),
        baseline: 1.0 / n as f64,
        searches,
    })
}

/// The Markdown table of a game's rows, `budget` describing the time per move.
pub fn table(game: &str, budget: &str, rows: &[Row]) -> String {
    let mut text = String::from(
        "| game | time limit | matchup | games | fast search win rate (95% CI) | iterations per move | timeouts (of answers) | illegal answers |\n|---|---|---|---|---|---|---|---|\n",
    );
    for row in rows {
        let per_bot = |f: &dyn Fn(&SearchFigures) -> String| -> String {
            let parts: Vec<String> =
                row.searches.iter().map(|s| format!("{} {}", s.engine(), f(s))).collect();
            parts.join(", ")
        };
        text.push_str(&format!(
            "| {game} | {budget} | {} | {} | {:.1}% [{:.1}, {:.1}] (even: {:.0}%) | {} | {} | {} |\n",
            row.matchup,
            row.games,
            100.0 * row.win_rate.0,
            100.0 * row.win_rate.1,
            100.0 * row.win_rate.2,
            100.0 * row.baseline,
            per_bot(&|s| s.iterations_per_move.map_or("-".into(), |i| format!("{i:.0}"))),
            per_bot(&|s| format!("{} of {}", s.timeouts, s.moves)),
            per_bot(&|s| s.illegal.to_string()),
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_search_and_others_are_refused() {
        let spec = search_bot("olymbits", EngineKind::Reference).unwrap();
        assert_eq!(spec.to_string(), "builtin:smitsimax@reference");
        assert_eq!(
            search_bot("wondev-woman", EngineKind::Fast).unwrap().to_string(),
            "builtin:alphabeta@fast"
        );
        assert!(search_bot("chess", EngineKind::Fast).is_err());
        let bots = lineup("olymbits", players("olymbits").unwrap(), BotSpec::Greedy).unwrap();
        assert_eq!(bots.len(), 3);
        assert_eq!(bots[2], BotSpec::Greedy);
    }

    #[test]
    fn the_table_names_each_engine_with_its_own_figures() {
        let figures = |name: &str, i: f64, timeouts: usize| SearchFigures {
            name: name.into(),
            iterations_per_move: Some(i),
            moves: 100,
            timeouts,
            illegal: 0,
        };
        let row = Row {
            matchup: "fast vs reference".into(),
            games: 10,
            win_rate: (0.7, 0.6, 0.8),
            baseline: 0.5,
            searches: vec![
                figures("builtin:mcts@fast", 5000.0, 0),
                figures("builtin:mcts@reference", 70.0, 2),
            ],
        };
        let text = table("zuniq", "0.60 s per game", &[row]);
        let line = text.lines().nth(2).unwrap();
        assert!(line.contains("70.0% [60.0, 80.0] (even: 50%)"), "{line}");
        assert!(line.contains("fast 5000, reference 70"), "{line}");
        assert!(line.contains("fast 0 of 100, reference 2 of 100"), "{line}");
    }
}
