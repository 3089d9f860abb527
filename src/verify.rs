//! `twinsim verify`: the main job. Replays the shipped traces through both engines, then plays
//! random games through both engines in lockstep, comparing every record at every turn, and
//! measures each engine's speed on the same turns.

use crate::replay::{self, ReplaySummary};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use twinsim_arena::registry;
use twinsim_reference::game::{EngineKind, TracePlay, TurnStructure};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::trace::{self, Moment, TraceGame};

/// A random game gives up after this many turns (no game of the five is longer; a runaway loop
/// in an engine must not hang the tool).
const MAX_TURNS: usize = 2_000;

/// One random game in `CORRUPT_ONE_GAME_IN` has one corrupted action line, at a random turn of
/// its first [`CORRUPT_WITHIN_TURNS`], to exercise the referee's handling of bad output in both
/// engines. (Corrupting lines at a steady rate would end most games early: bad output is fatal
/// in most of these games, and deep positions matter more.)
const CORRUPT_ONE_GAME_IN: i32 = 4;
const CORRUPT_WITHIN_TURNS: i32 = 150;

/// What `verify` found for one game.
#[derive(Debug, Clone, Default)]
pub struct GameVerification {
    /// The game's name (`wondev-woman`).
    pub game: String,
    /// Trace replays through the reference engine that matched / were run (`None`: engine not
    /// implemented).
    pub traces_reference: Option<(usize, usize)>,
    /// The same for the fast twin.
    pub traces_fast: Option<(usize, usize)>,
    /// Random games played through both engines / that agreed at every turn (`None`: one of the
    /// engines is missing).
    pub random_games: Option<(usize, usize)>,
    /// Turns played in random games.
    pub random_turns: usize,
    /// Time each engine spent in `play_turn` (parse + rules) over those turns.
    pub reference_time: Duration,
    /// The same for the fast twin, over the same turns.
    pub fast_time: Duration,
    /// Turns the reference engine played alone when no fast engine exists.
    pub reference_only_turns: usize,
    /// First random-game divergences, readable.
    pub divergences: Vec<String>,
}

impl GameVerification {
    /// Reference turns per second (per core).
    pub fn reference_rate(&self) -> Option<f64> {
        let turns = self.random_turns.max(self.reference_only_turns);
        rate(turns, self.reference_time)
    }

    /// Fast turns per second (per core).
    pub fn fast_rate(&self) -> Option<f64> {
        self.random_games?;
        rate(self.random_turns, self.fast_time)
    }

    /// Fast over reference.
    pub fn speedup(&self) -> Option<f64> {
        Some(self.fast_rate()? / self.reference_rate()?)
    }

    /// Everything run agreed (skips are not failures here; they are shown as such).
    pub fn has_mismatch(&self) -> bool {
        let bad = |c: Option<(usize, usize)>| c.is_some_and(|(ok, all)| ok != all);
        bad(self.traces_reference) || bad(self.traces_fast) || bad(self.random_games)
    }

    /// Some part could not run because an engine is missing.
    pub fn has_skip(&self) -> bool {
        self.traces_reference.is_none() || self.traces_fast.is_none() || self.random_games.is_none()
    }

    /// The machine-readable form.
    pub fn to_json(&self) -> Value {
        let pair = |c: Option<(usize, usize)>| match c {
            Some((ok, all)) => json!({"ok": ok, "total": all}),
            None => Value::Null,
        };
        json!({
            "game": self.game,
            "traces_reference": pair(self.traces_reference),
            "traces_fast": pair(self.traces_fast),
            "random_games": pair(self.random_games),
            "random_turns": self.random_turns,
            "reference_only_turns": self.reference_only_turns,
            "reference_turns_per_second": self.reference_rate(),
            "fast_turns_per_second": self.fast_rate(),
            "speedup": self.speedup(),
            "divergences": self.divergences,
        })
    }
}

fn rate(turns: usize, time: Duration) -> Option<f64> {
    (turns > 0 && time > Duration::ZERO).then(|| turns as f64 / time.as_secs_f64())
}

/// Trace replay counts for one game and engine from a replay summary.
fn trace_counts(
    games: &[TraceGame],
    summary: &ReplaySummary,
    game: &str,
    kind: EngineKind,
) -> Option<(usize, usize)> {
    registry::engine(game, kind)?;
    let total = games.iter().filter(|g| g.game == game).count();
    let bad = summary.failures.iter().filter(|(k, r)| *k == kind && r.game == game).count();
    Some((total - bad, total))
}

/// Runs the whole verification. `progress` is called with (done, total) units of work.
pub fn verify(
    traces: &[TraceGame],
    games_per_game: usize,
    seed: i64,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> (Vec<GameVerification>, ReplaySummary) {
    use rayon::prelude::*;
    let summary = replay::replay_all(traces, &[EngineKind::Reference, EngineKind::Fast]);
    let total = games_per_game.saturating_mul(registry::GAMES.len());
    let done = AtomicUsize::new(0);
    // The random games' clock starts now, not before the trace replay above.
    progress(0, total);
    let mut results = Vec::new();
    for (index, game) in registry::GAMES.iter().enumerate() {
        let params: Vec<Value> =
            traces.iter().filter(|t| t.game == *game).map(|t| t.params.clone()).collect();
        // Folded as the games finish: memory does not grow with the number of games.
        let runs = (0..games_per_game)
            .into_par_iter()
            .map(|i| {
                // Wrapping: distinct seeds for any count, and no overflow panic.
                let index = (index as u64)
                    .wrapping_mul(games_per_game as u64)
                    .wrapping_add(i as u64) as i64;
                let run = random_game(game, &params, seed, index);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                RandomTotals::of(run)
            })
            .reduce(RandomTotals::default, RandomTotals::merge);
        let mut v = GameVerification {
            game: game.to_string(),
            traces_reference: trace_counts(traces, &summary, game, EngineKind::Reference),
            traces_fast: trace_counts(traces, &summary, game, EngineKind::Fast),
            random_turns: runs.turns_both,
            reference_only_turns: runs.turns_reference_only,
            reference_time: runs.reference_time,
            fast_time: runs.fast_time,
            divergences: runs.divergences,
            ..Default::default()
        };
        let both = registry::engine(game, EngineKind::Reference).is_some()
            && registry::engine(game, EngineKind::Fast).is_some();
        if both {
            v.random_games = Some((runs.games - runs.diverged, runs.games));
        }
        results.push(v);
    }
    (results, summary)
}

/// How many divergences of a game are kept for the report.
const KEPT_DIVERGENCES: usize = 5;

/// The random games of one game, summed.
#[derive(Default)]
struct RandomTotals {
    games: usize,
    diverged: usize,
    turns_both: usize,
    turns_reference_only: usize,
    reference_time: Duration,
    fast_time: Duration,
    /// The first [`KEPT_DIVERGENCES`], readable.
    divergences: Vec<String>,
}

impl RandomTotals {
    fn of(run: RandomGame) -> Self {
        RandomTotals {
            games: 1,
            diverged: usize::from(run.divergence.is_some()),
            turns_both: run.turns_both,
            turns_reference_only: run.turns_reference_only,
            reference_time: run.reference_time,
            fast_time: run.fast_time,
            divergences: run.divergence.into_iter().collect(),
        }
    }

    fn merge(mut self, other: Self) -> Self {
        self.games += other.games;
        self.diverged += other.diverged;
        self.turns_both += other.turns_both;
        self.turns_reference_only += other.turns_reference_only;
        self.reference_time += other.reference_time;
        self.fast_time += other.fast_time;
        self.divergences.extend(other.divergences);
        self.divergences.truncate(KEPT_DIVERGENCES);
        self
    }
}

#[derive(Default)]
struct RandomGame {
    turns_both: usize,
    turns_reference_only: usize,
    reference_time: Duration,
    fast_time: Duration,
    divergence: Option<String>,
}

/// One random game of `game`: seed and params drawn from `(master_seed, index)`, every acting
/// player picks a random legal line (now and then a corrupted one), and both engines must agree
/// on every record. Without a fast engine the reference plays alone (for its speed).
fn random_game(game: &str, params_pool: &[Value], master_seed: i64, index: i64) -> RandomGame {
    let mut out = RandomGame::default();
    let Some(reference_engine) = registry::engine(game, EngineKind::Reference) else {
        return out;
    };
    let fast_engine = registry::engine(game, EngineKind::Fast);
    let mut rng = JavaRandom::new(master_seed.wrapping_mul(1_000_003).wrapping_add(index));
    let mut game_seed = rng.next_long();
    if game_seed == 0 {
        game_seed = 1; // seed 0 is not reproducible in the Java referees (SecureRandom ignores it)
    }
    let params = if params_pool.is_empty() {
        json!({})
    } else {
        params_pool[rng.next_below(params_pool.len() as i32) as usize].clone()
    };
    let label = format!("{game} seed {game_seed} params {params}");
    let mut reference = match reference_engine.setup(Some(game_seed), &params) {
        Ok(p) => p,
        Err(e) => {
            out.divergence = Some(format!("{label}: reference setup failed: {e}"));
            return out;
        }
    };
    let mut fast: Option<Box<dyn TracePlay>> = match fast_engine {
        None => None,
        Some(engine) => match engine.setup(Some(game_seed), &params) {
            Ok(p) => Some(p),
            Err(e) => {
                out.divergence = Some(format!("{label}: fast setup failed: {e}"));
                return out;
            }
        },
    };
    if let Some(fast) = &fast {
        let mut diffs = vec![];
        trace::compare_record(
            Moment::Setup,
            &reference.initial_record().to_map(),
            &fast.initial_record().to_map(),
            &["initial", "initial_views"],
            &mut diffs,
        );
        if let Some(d) = diffs.first() {
            out.divergence = Some(format!("{label}: {d}"));
            return out;
        }
    }
    let alternating = reference_engine.turns() == TurnStructure::Alternating;
    let corrupt_turn = if rng.next_below(CORRUPT_ONE_GAME_IN) == 0 {
        1 + rng.next_below(CORRUPT_WITHIN_TURNS) as usize
    } else {
        0
    };
    for turn in 1..=MAX_TURNS {
        if reference.is_over() {
            break;
        }
        let actions =
            random_actions(reference.as_ref(), alternating, turn == corrupt_turn, &mut rng);
        let start = Instant::now();
        let result = reference.play_turn(&actions);
        out.reference_time += start.elapsed();
        if let Err(e) = result {
            out.divergence =
                Some(format!("{label}: turn {turn}: reference refused {actions:?}: {e}"));
            return out;
        }
        match fast.as_mut() {
            None => out.turns_reference_only += 1,
            Some(fast) => {
                let start = Instant::now();
                let result = fast.play_turn(&actions);
                out.fast_time += start.elapsed();
                out.turns_both += 1;
                if let Err(e) = result {
                    out.divergence =
                        Some(format!("{label}: turn {turn}: fast refused {actions:?}: {e}"));
                    return out;
                }
                let mut diffs = vec![];
                trace::diff_values(
                    Moment::Turn(turn),
                    "turn",
                    &Value::Object(reference.turn_record().to_map()),
                    &Value::Object(fast.turn_record().to_map()),
                    &mut diffs,
                );
                if reference.is_over() != fast.is_over() {
                    diffs.push(trace::Difference {
                        moment: Moment::Turn(turn),
                        field: "is_over".into(),
                        expected: reference.is_over().to_string(),
                        found: fast.is_over().to_string(),
                    });
                }
                if let Some(d) = diffs.first() {
                    out.divergence = Some(format!("{label}: after actions {actions:?}: {d}"));
                    return out;
                }
            }
        }
    }
    if let Some(fast) = &fast {
        let (expected, found) = (reference.outcome(), fast.outcome());
        if expected != found {
            out.divergence = Some(format!(
                "{label}: outcome: reference {:?}, fast {:?}",
                expected.map(|o| o.to_value()),
                found.map(|o| o.to_value())
            ));
        }
    }
    out
}

/// The actions of one turn, in the trace shape: one random legal line per acting player; with
/// `corrupt_one`, the first acting player's line is corrupted.
fn random_actions(
    play: &dyn TracePlay,
    alternating: bool,
    corrupt_one: bool,
    rng: &mut JavaRandom,
) -> Vec<Option<String>> {
    let acting = play.players_to_act();
    let pick = |player: usize, rng: &mut JavaRandom| -> String {
        let lines = play.legal_lines(player);
        let line = if lines.is_empty() {
            String::new()
        } else {
            lines[rng.next_below(lines.len() as i32) as usize].clone()
        };
        if corrupt_one && acting.first() == Some(&player) {
            corrupt(&line, rng)
        } else {
            line
        }
    };
    if alternating {
        acting.first().map(|&p| vec![Some(pick(p, rng))]).unwrap_or_default()
    } else {
        (0..play.num_players()).map(|p| acting.contains(&p).then(|| pick(p, rng))).collect()
    }
}

/// A plausible bad line: truncated, garbled, lower-cased, an out-of-range number, or empty.
fn corrupt(line: &str, rng: &mut JavaRandom) -> String {
    match rng.next_below(6) {
        0 => String::new(),
        1 => line.chars().take(line.len() / 2).collect(),
        2 => line.to_lowercase(),
        3 => format!("{line} 99999999999"),
        4 => line.replace(' ', "  "),
        _ => "HELLO WORLD".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Edge seeds and counts at the library entry point: a result, never a panic (the seed
    /// arithmetic wraps).
    #[test]
    fn verify_gives_a_result_for_edge_seeds_and_counts() {
        for seed in [i64::MIN, -1, 0, i64::MAX] {
            for games in [0, 1] {
                let (results, summary) = verify(&[], games, seed, &|_, _| {});
                assert_eq!(results.len(), registry::GAMES.len());
                assert_eq!(summary.games, 0);
                for r in &results {
                    assert_eq!(r.random_games, Some((games, games)), "{} seed {seed}", r.game);
                }
            }
        }
    }
}
