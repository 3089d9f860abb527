//! `twinsim ladder`: how much stronger one bot is than another, measured. Bot A plays bot B on
//! fixed seeds, every seed in both seat orders (A first, then B first), and the table gives A's
//! wins, draws and losses in each order and in all, A's score (win 1, draw ½, loss 0) with its
//! 95% interval, and the Elo difference that score implies, with the interval mapped through
//! the same formula.
//!
//! The Elo difference of an expected score `p` is `400 · log10(p / (1 − p))` (the logistic Elo
//! model: a 400-point edge is 10-to-1 odds). The score's interval is the normal approximation
//! from the per-game points' sample variance, `p ± 1.96 · s / √n`, clamped to [0, 1]; since
//! the Elo formula is increasing, its interval is the formula at the score interval's ends (an
//! end at 0 or 1 is −∞ or +∞: no finite bound is measured). Two-player games only: in
//! three-player Olymbits a win against two copies of B is not a pairwise result.

use twinsim_arena::{self as arena, stats, ArenaConfig, BotSpec, GameResult};

/// A's results in one seat order (or both): games won, drawn and lost, and the points.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Record {
    /// A ranked alone first.
    pub wins: u64,
    /// A and B ranked equal.
    pub draws: u64,
    /// B ranked first.
    pub losses: u64,
    /// A's points per game (win 1, draw ½, loss 0).
    pub points: stats::PointTally,
}

impl Record {
    /// Counts one game of A's: `point` 1 (win), 0.5 (draw) or 0 (loss).
    pub fn add(&mut self, point: f64) {
        if point > 0.5 {
            self.wins += 1;
        } else if point < 0.5 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        self.points.add(point);
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// `W-D-L`.
    pub fn wdl(&self) -> String {
        format!("{}-{}-{}", self.wins, self.draws, self.losses)
    }

    /// A's score with its 95% interval; `None` before any game.
    pub fn score(&self) -> Option<stats::Interval> {
        self.points.win_rate()
    }

    /// The Elo difference A − B with its 95% interval; `None` before any game.
    pub fn elo(&self) -> Option<stats::Interval> {
        self.score().map(stats::elo_interval)
    }
}

/// A ladder match's results.
#[derive(Clone, Debug, Default)]
pub struct Ladder {
    /// A in the first seat (seat 0).
    pub a_first: Record,
    /// A in the second seat.
    pub a_second: Record,
    /// Timeouts of A and of B over all games.
    pub timeouts: [usize; 2],
    /// Answer times of A and of B (median, p99, max).
    pub answer_times: [Option<arena::times::Summary>; 2],
}

impl Ladder {
    /// Both seat orders together.
    pub fn both(&self) -> Record {
        let (f, s) = (&self.a_first, &self.a_second);
        Record {
            wins: f.wins + s.wins,
            draws: f.draws + s.draws,
            losses: f.losses + s.losses,
            points: stats::PointTally {
                games: f.points.games + s.points.games,
                sum: f.points.sum + s.points.sum,
                sum_of_squares: f.points.sum_of_squares + s.points.sum_of_squares,
            },
        }
    }

    /// Counts one game of the match (bot 0 is A, bot 1 is B).
    pub fn add(&mut self, game: &GameResult) {
        let Some(seat_a) = game.seats.iter().position(|&b| b == 0) else { return };
        let (rank_a, rank_b) = (game.ranks[seat_a], game.ranks[1 - seat_a]);
        let point = match rank_a.cmp(&rank_b) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        };
        if seat_a == 0 { &mut self.a_first } else { &mut self.a_second }.add(point);
    }
}

/// Plays the match: `seeds` seeds of `base` (its game, master seed, time scale, engine,
/// threads), each in both seat orders, A as bot 0 and B as bot 1; `progress` sees each game.
pub fn play(
    base: &ArenaConfig,
    a: BotSpec,
    b: BotSpec,
    seeds: usize,
    progress: &(dyn Fn(&GameResult, &arena::Standings) + Sync),
) -> Result<Ladder, String> {
    if crate::payoff::players(&base.game) != Some(2) {
        return Err(format!(
            "{} is not a two-player game: a ladder needs one (use `twinsim arena` or `payoff`)",
            base.game
        ));
    }
    let games = seeds.checked_mul(2).ok_or("too many seeds")?;
    let config = ArenaConfig { bots: vec![a, b], games, out: None, resume: false, ..base.clone() };
    let ladder = std::sync::Mutex::new(Ladder::default());
    let end = arena::run(&config, &|game, standings| {
        ladder.lock().unwrap_or_else(|e| e.into_inner()).add(game);
        progress(game, standings);
    })?;
    let mut ladder = ladder.into_inner().unwrap_or_else(|e| e.into_inner());
    let totals = end.standings.totals();
    ladder.timeouts = [totals[0].timeouts, totals[1].timeouts];
    ladder.answer_times = [totals[0].answer_times.summary(), totals[1].answer_times.summary()];
    Ok(ladder)
}

/// An Elo figure as printed: signed, whole points, `+inf`/`-inf` at a score of 1 or 0.
fn elo_text(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "+inf".into() } else { "-inf".into() };
    }
    // Adding 0.0 turns a rounded -0 into 0.
    format!("{:+.0}", x.round() + 0.0)
}

/// The answer times of one bot, `median/p99/max ms`.
fn times_text(summary: Option<arena::times::Summary>) -> String {
    summary.map_or("-".into(), |s| {
        let ms = |us: u64| us as f64 / 1000.0;
        format!("{:.1}/{:.1}/{:.1}", ms(s.median), ms(s.p99), ms(s.max))
    })
}

/// The Markdown table of a match: one row, `clock` describing the time limit.
pub fn table(game: &str, a: &str, b: &str, clock: &str, ladder: &Ladder) -> String {
    let both = ladder.both();
    let score = both.score().map_or("-".into(), |r| {
        format!("{:.1}% [{:.1}, {:.1}]", 100.0 * r.mean, 100.0 * r.low, 100.0 * r.high)
    });
    let elo = both.elo().map_or("-".into(), |e| {
        format!("{} [{}, {}]", elo_text(e.mean), elo_text(e.low), elo_text(e.high))
    });
    let mut text = String::from(
        "| game | A | B | clock | games | A W-D-L | A first | A second | A score (95% CI) | Elo A − B (95% CI) | timeouts A, B | answer ms A (median/p99/max) | answer ms B |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    text.push_str(&format!(
        "| {game} | `{a}` | `{b}` | {clock} | {} | {} | {} | {} | {score} | {elo} | {}, {} | {} | {} |\n",
        both.games(),
        both.wdl(),
        ladder.a_first.wdl(),
        ladder.a_second.wdl(),
        ladder.timeouts[0],
        ladder.timeouts[1],
        times_text(ladder.answer_times[0]),
        times_text(ladder.answer_times[1]),
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(wins: u64, draws: u64, losses: u64) -> Record {
        let mut r = Record::default();
        (0..wins).for_each(|_| r.add(1.0));
        (0..draws).for_each(|_| r.add(0.5));
        (0..losses).for_each(|_| r.add(0.0));
        r
    }

    /// 60-20-20: score 0.7; points' sample variance (60·0.09 + 20·0.04 + 20·0.49) / 99 =
    /// 16/99, so the half-width is 1.959964 · √(16/99/100) = 0.0787935; Elo 400·log10(0.7/0.3)
    /// = 147.19, and at the ends 400·log10(0.6212065/0.3787935) = 85.93 and
    /// 400·log10(0.7787935/0.2212065) = 218.65 (computed from the formulas apart).
    #[test]
    fn elo_and_its_interval_from_known_results() {
        let r = record(60, 20, 20);
        assert_eq!(r.wdl(), "60-20-20");
        let score = r.score().unwrap();
        assert!((score.mean - 0.7).abs() < 1e-12);
        assert!((score.high - score.mean - 0.078_793_5).abs() < 1e-6, "{score:?}");
        let elo = r.elo().unwrap();
        assert!((elo.mean - 147.19).abs() < 0.01, "{elo:?}");
        assert!((elo.low - 85.93).abs() < 0.01, "{elo:?}");
        assert!((elo.high - 218.65).abs() < 0.01, "{elo:?}");
        // Even: 0 Elo, symmetric interval. 10-0-10: variance 0.25·20/19, half-width
        // 1.959964·√(0.25/19) = 0.22482, Elo ends ±400·log10(0.72482/0.27518) = ±168.25.
        let even = record(10, 0, 10).elo().unwrap();
        assert!(even.mean.abs() < 1e-9);
        assert!((even.high - 168.25).abs() < 0.01 && (even.low + 168.25).abs() < 0.01, "{even:?}");
        // All won: the score's interval is [1, 1], no finite Elo is measured.
        let all = record(5, 0, 0).elo().unwrap();
        assert_eq!((all.mean, all.low, all.high), (f64::INFINITY, f64::INFINITY, f64::INFINITY));
        assert_eq!(elo_text(all.mean), "+inf");
        assert_eq!(elo_text(-0.2), "+0");
        assert_eq!(Record::default().elo(), None);
    }

    fn game(index: usize, seats: Vec<usize>, ranks: Vec<usize>) -> GameResult {
        GameResult {
            index,
            seed: 1,
            seats,
            scores: vec![0.0; 2],
            ranks,
            reason: String::new(),
            turns: 1,
            timeouts: vec![0; 2],
            crashed: vec![false; 2],
            invalid: vec![0; 2],
            not_started: vec![false; 2],
            problems: vec![Default::default(); 2],
            illegal: vec![0; 2],
            moves: vec![0; 2],
            iterations: vec![0; 2],
            answer_us: vec![Vec::new(); 2],
        }
    }

    #[test]
    fn games_count_for_a_by_its_seat() {
        let mut ladder = Ladder::default();
        ladder.add(&game(0, vec![0, 1], vec![1, 2])); // A first, wins
        ladder.add(&game(1, vec![1, 0], vec![1, 2])); // A second, loses
        ladder.add(&game(2, vec![0, 1], vec![1, 1])); // A first, draw
        ladder.add(&game(3, vec![1, 0], vec![2, 1])); // A second, wins
        assert_eq!(ladder.a_first.wdl(), "1-1-0");
        assert_eq!(ladder.a_second.wdl(), "1-0-1");
        let both = ladder.both();
        assert_eq!(both.wdl(), "2-1-1");
        assert_eq!(both.points.sum, 2.5);
        let text = table("zuniq", "builtin:greedy", "builtin:random", "30 s per game", &ladder);
        let row = text.lines().nth(2).unwrap();
        assert!(row.starts_with("| zuniq | `builtin:greedy` | `builtin:random` | 30 s per game | 4 | 2-1-1 | 1-1-0 | 1-0-1 | 62.5% ["), "{row}");
    }
}
