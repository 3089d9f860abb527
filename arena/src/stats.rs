//! Arena statistics: win/draw/loss, win rate with a 95% interval, Elo difference, and an
//! OpenSkill (Weng–Lin, Bradley–Terry full pairing) rating for any number of bots.

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959964;

/// A mean and its 95% interval from per-game points (win 1, draw ½, loss 0).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    /// The mean.
    pub mean: f64,
    /// Lower end of the 95% interval (clamped to 0).
    pub low: f64,
    /// Upper end of the 95% interval (clamped to 1).
    pub high: f64,
}

/// Per-game points (win 1, draw ½, loss 0) summed as they come: count, sum and sum of squares,
/// enough for the mean and its interval without keeping every game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointTally {
    /// Games counted.
    pub games: u64,
    /// Sum of the points.
    pub sum: f64,
    /// Sum of the squared points (for the variance).
    pub sum_of_squares: f64,
}

impl PointTally {
    /// Counts one game's points.
    pub fn add(&mut self, point: f64) {
        self.games += 1;
        self.sum += point;
        self.sum_of_squares += point * point;
    }

    /// The mean with a normal-approximation 95% interval (clamped to [0, 1]); `None` before any
    /// game.
    pub fn win_rate(&self) -> Option<Interval> {
        if self.games == 0 {
            return None;
        }
        let n = self.games as f64;
        let mean = self.sum / n;
        // Sample variance from the sums; rounding can make it a hair negative.
        let var = ((self.sum_of_squares - n * mean * mean) / (n - 1.0).max(1.0)).max(0.0);
        let half = Z95 * (var / n).sqrt();
        Some(Interval { mean, low: (mean - half).max(0.0), high: (mean + half).min(1.0) })
    }
}

/// The mean of `points` with a normal-approximation 95% interval (clamped to [0, 1]).
pub fn win_rate(points: &[f64]) -> Option<Interval> {
    let mut tally = PointTally::default();
    for &p in points {
        tally.add(p);
    }
    tally.win_rate()
}

/// Elo difference implied by an expected score `p` (±inf at 0 and 1).
pub fn elo(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Elo difference with the interval mapped from the win-rate interval.
pub fn elo_interval(rate: Interval) -> Interval {
    Interval { mean: elo(rate.mean), low: elo(rate.low), high: elo(rate.high) }
}

/// One bot's OpenSkill rating.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    /// Estimated skill.
    pub mu: f64,
    /// Uncertainty of the estimate (the conservative skill is mu - 3 sigma).
    pub sigma: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating { mu: 25.0, sigma: 25.0 / 3.0 }
    }
}

impl Rating {
    /// The conservative estimate used to rank: μ − 3σ.
    pub fn ordinal(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// Updates `ratings` (one per player of a game) from the players' ranks (1 = best, ties equal)
/// with the Weng–Lin Bradley–Terry full-pairing model (β = 25/6, κ = 0.0001, γ = σ/c).
pub fn openskill_update(ratings: &mut [Rating], ranks: &[usize]) {
    const BETA: f64 = 25.0 / 6.0;
    const KAPPA: f64 = 0.0001;
    let old = ratings.to_vec();
    for i in 0..old.len() {
        let (mut omega, mut delta) = (0.0, 0.0);
        let var_i = old[i].sigma.powi(2);
        for q in 0..old.len() {
            if q == i {
                continue;
            }
            let c = (var_i + old[q].sigma.powi(2) + 2.0 * BETA * BETA).sqrt();
            let p = 1.0 / (1.0 + ((old[q].mu - old[i].mu) / c).exp());
            let s = match ranks[i].cmp(&ranks[q]) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            omega += var_i / c * (s - p);
            let gamma = old[i].sigma / c;
            delta += gamma * var_i / (c * c) * p * (1.0 - p);
        }
        ratings[i].mu = old[i].mu + omega;
        ratings[i].sigma = (var_i * (1.0 - delta).max(KAPPA)).sqrt();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_results_give_half_and_zero_elo() {
        let r = win_rate(&[1.0, 0.0, 0.5, 0.5]).unwrap();
        assert!((r.mean - 0.5).abs() < 1e-12);
        assert!(r.low < 0.5 && r.high > 0.5);
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.01);
    }

    #[test]
    fn the_winner_gains_rating_and_everyone_gains_certainty() {
        let mut ratings = vec![Rating::default(); 3];
        openskill_update(&mut ratings, &[1, 2, 3]);
        assert!(ratings[0].mu > 25.0 && ratings[2].mu < 25.0);
        assert!((ratings[1].mu - 25.0).abs() < 1e-9, "the middle player is even");
        assert!(ratings.iter().all(|r| r.sigma < 25.0 / 3.0));
        let mut tied = vec![Rating::default(); 2];
        openskill_update(&mut tied, &[1, 1]);
        assert!((tied[0].mu - 25.0).abs() < 1e-9);
    }
}
