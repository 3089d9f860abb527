//! The final report of a run for a terminal: the standings table, answer times, first
//! problems, and the Elo difference or the OpenSkill ranking.

use crate::standings::{BotTotals, Standings};
use crate::{stats, times, ArenaConfig, PROBLEM_KINDS};

/// A number rounded for display, without a negative zero.
fn rounded(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    // Adding 0.0 turns -0.0 into 0.0; infinities pass through.
    (x * scale).round() / scale + 0.0
}

/// The final report for a terminal.
pub fn report(config: &ArenaConfig, standings: &Standings) -> String {
    let totals = standings.totals();
    let checked = if config.lockstep { ", every turn checked against the other twin" } else { "" };
    let mut text = format!(
        "{} games of {} ({} engine{checked})\n",
        standings.games(),
        config.game,
        config.engine
    );
    text.push_str(&format!(
        "{:<4} {:<28} {:>5} {:>5} {:>6} {:>22} {:>9} {:>7} {:>8} {:>7} {:>11} {:>7} {:>10}\n",
        "bot",
        "command",
        "wins",
        "draws",
        "losses",
        "win rate (95% CI)",
        "avg score",
        "invalid",
        "timeouts",
        "crashes",
        "not started",
        "skill",
        "iters/move"
    ));
    for (b, t) in totals.iter().enumerate() {
        let rate = t.points.win_rate().map_or("-".into(), |r| {
            format!(
                "{:.1}% [{:.1}, {:.1}]",
                rounded(100.0 * r.mean, 1),
                rounded(100.0 * r.low, 1),
                rounded(100.0 * r.high, 1)
            )
        });
        let full = config.bots[b].to_string();
        let name: String = if full.chars().count() > 28 {
            full.chars().take(27).chain(std::iter::once('…')).collect()
        } else {
            full
        };
        text.push_str(&format!(
            "{:<4} {:<28} {:>5} {:>5} {:>6} {:>22} {:>9.2} {:>7} {:>8} {:>7} {:>11} {:>7.2} {:>10}\n",
            b,
            name,
            t.wins,
            t.draws,
            t.losses,
            rate,
            rounded(t.average_score(), 2),
            t.invalid,
            t.timeouts,
            t.crashes,
            t.not_started,
            rounded(t.rating.ordinal(), 2),
            t.iterations_per_move().map_or("-".into(), |i| format!("{i:.0}"))
        ));
    }
    text.push_str(&answer_time_table(totals));
    for (b, t) in totals.iter().enumerate() {
        for kind in PROBLEM_KINDS {
            if let Some(why) = t.first_problems.get(kind) {
                text.push_str(&format!("bot {b} first {}: {why}\n", kind.replace('_', " ")));
            }
        }
    }
    if config.bots.len() == 2 {
        if let Some(rate) = totals[0].points.win_rate() {
            let e = stats::elo_interval(rate);
            text.push_str(&format!(
                "Elo difference (bot 0 - bot 1): {:+.0} [{:+.0}, {:+.0}]\n",
                rounded(e.mean, 0),
                rounded(e.low, 0),
                rounded(e.high, 0)
            ));
        }
    } else {
        text.push_str(&format!("OpenSkill ranking (mu - 3 sigma): {}\n", skill_ranking(totals)));
    }
    text
}

/// The answer times of the bots that have some ([`times`]): median, 99th percentile and
/// maximum over all their answers, in milliseconds; empty when no bot was timed.
pub fn answer_time_table(totals: &[BotTotals]) -> String {
    let timed: Vec<(usize, times::Summary)> = totals
        .iter()
        .enumerate()
        .filter_map(|(b, t)| t.answer_times.summary().map(|s| (b, s)))
        .collect();
    if timed.is_empty() {
        return String::new();
    }
    let mut text = format!(
        "{:<17} {:>9} {:>9} {:>9} {:>9}\n",
        "answer times (ms)", "median", "p99", "max", "answers"
    );
    let ms = |us: u64| us as f64 / 1000.0;
    for (b, s) in timed {
        text.push_str(&format!(
            "{:<17} {:>9.1} {:>9.1} {:>9.1} {:>9}\n",
            format!("bot {b}"),
            ms(s.median),
            ms(s.p99),
            ms(s.max),
            s.answers
        ));
    }
    text
}

/// Bots by their OpenSkill ordinal, best first: `bot 2 > bot 0 = bot 1` (equal as printed, to
/// two decimals, is a tie).
pub fn skill_ranking(totals: &[BotTotals]) -> String {
    let shown = |b: usize| rounded(totals[b].rating.ordinal(), 2);
    let mut order: Vec<usize> = (0..totals.len()).collect();
    order.sort_by(|a, b| shown(*b).total_cmp(&shown(*a)).then(a.cmp(b)));
    let mut text = String::new();
    for (i, &b) in order.iter().enumerate() {
        if i > 0 {
            text.push_str(if shown(b) == shown(order[i - 1]) { " = " } else { " > " });
        }
        text.push_str(&format!("bot {b}"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_rounding_has_no_negative_zero_and_equal_ratings_tie() {
        assert_eq!(format!("{:+.0}", rounded(-0.3, 0)), "+0");
        assert_eq!(format!("{:+.0}", rounded(stats::elo(0.5), 0)), "+0");
        assert_eq!(rounded(f64::INFINITY, 0), f64::INFINITY);
        let mut totals = vec![BotTotals::default(); 3];
        assert_eq!(skill_ranking(&totals), "bot 0 = bot 1 = bot 2");
        totals[2].rating.mu = 30.0;
        assert_eq!(skill_ranking(&totals), "bot 2 > bot 0 = bot 1");
    }
}
