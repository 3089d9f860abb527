//! `twinsim replay`: trace files through one or both engines.

use twinsim_arena::registry;
use twinsim_reference::game::EngineKind;
use twinsim_reference::trace::{self, GameReport, TraceGame};

/// What replaying a set of games found, per engine.
#[derive(Debug, Default)]
pub struct ReplaySummary {
    /// Games replayed through at least one engine (a game replayed through both engines counts
    /// once).
    pub games: usize,
    /// Turns of those games (counted once per game, whatever the number of engines).
    pub turns: usize,
    /// Games whose replay differed from the file through at least one engine.
    pub mismatches: usize,
    /// Replays not run because the game or engine is not implemented yet.
    pub skipped: usize,
    /// The reports of the replays that differed, with the engine that ran them.
    pub failures: Vec<(EngineKind, GameReport)>,
    /// `(game, engine)` pairs that were skipped, once each.
    pub skipped_engines: Vec<(String, EngineKind)>,
}

impl ReplaySummary {
    /// The one summary line the tool ends with.
    pub fn line(&self) -> String {
        format!(
            "replayed {} games, {} turns: {} mismatches, {} skipped",
            self.games, self.turns, self.mismatches, self.skipped
        )
    }

    /// Everything replayed identically and nothing was skipped.
    pub fn is_clean(&self) -> bool {
        self.mismatches == 0 && self.skipped == 0
    }
}

/// Replays `games` through each engine of `kinds` (in parallel over games).
pub fn replay_all(games: &[TraceGame], kinds: &[EngineKind]) -> ReplaySummary {
    use rayon::prelude::*;
    let mut summary = ReplaySummary::default();
    let mut replayed = vec![false; games.len()];
    let mut mismatched = vec![false; games.len()];
    for &kind in kinds {
        let results: Vec<Result<GameReport, String>> = games
            .par_iter()
            .map(|record| match registry::engine(&record.game, kind) {
                Some(engine) => Ok(trace::replay(engine, record)),
                None => Err(record.game.clone()),
            })
            .collect();
        for (index, result) in results.into_iter().enumerate() {
            match result {
                Ok(report) => {
                    if !replayed[index] {
                        replayed[index] = true;
                        summary.games += 1;
                        summary.turns += report.turns;
                    }
                    if !report.is_ok() {
                        if !mismatched[index] {
                            mismatched[index] = true;
                            summary.mismatches += 1;
                        }
                        summary.failures.push((kind, report));
                    }
                }
                Err(game) => {
                    summary.skipped += 1;
                    if !summary.skipped_engines.contains(&(game.clone(), kind)) {
                        summary.skipped_engines.push((game, kind));
                    }
                }
            }
        }
    }
    summary
}

/// The readable account of one differing replay.
pub fn describe_failure(kind: EngineKind, report: &GameReport) -> String {
    let seed = report.seed.map_or("none".to_string(), |s| s.to_string());
    let mut text = format!("MISMATCH {} seed {} ({kind} engine):\n", report.game, seed);
    for d in &report.differences {
        text.push_str(&format!(
            "  {}  field {}\n    expected: {}\n    found:    {}\n",
            d.moment, d.field, d.expected, d.found
        ));
    }
    text
}
