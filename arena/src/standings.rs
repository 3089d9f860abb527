//! The standings of a run: each bot's totals, counted game by game in index order.

use crate::results::{BotSummary, GameResult};
use crate::{stats, times, BotSpec};
use std::collections::BTreeMap;

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

    /// These totals in the one results schema, for the bot named `bot`.
    pub fn summary(&self, bot: &str) -> BotSummary {
        BotSummary {
            bot: bot.to_string(),
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            win_rate: self.points.win_rate(),
            average_score: self.average_score(),
            invalid: self.invalid,
            timeouts: self.timeouts,
            crashes: self.crashes,
            not_started: self.not_started,
            first_problems: self.first_problems.clone(),
            illegal: self.illegal,
            iterations_per_move: self.iterations_per_move(),
            skill: self.rating.ordinal(),
            openskill: self.rating,
            answer_ms: self.answer_times.summary(),
        }
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

    /// Each bot's totals in the one results schema, named as `bots` gives them.
    pub fn summaries(&self, bots: &[BotSpec]) -> Vec<BotSummary> {
        self.totals.iter().zip(bots).map(|(t, bot)| t.summary(&bot.to_string())).collect()
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
}
