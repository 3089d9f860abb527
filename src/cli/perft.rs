//! `twinsim perft GAME --depth D`: leaf counts of the legal-move tree, depth 0 to D.

use super::{known_game, seed_allowed, usage_error, EngineChoice};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;
use twinsim::perft;
use twinsim_arena::registry;
use twinsim_reference::game::TurnStructure;

/// Prints one table per engine: every depth from 0 (one leaf: the position itself) to `depth`.
/// `seed`: the start position's seed (default 1), refused for a game without randomness.
pub fn run(game: &str, depth: u32, seed: Option<i64>, engine: EngineChoice) -> ExitCode {
    if let Err(code) = known_game(game) {
        return code;
    }
    if let Err(message) = seed_allowed(game, seed) {
        return usage_error(message);
    }
    let seed = seed.unwrap_or(1);
    let mut any = false;
    for kind in engine.kinds() {
        let Some(engine) = registry::engine(game, kind) else {
            println!("{game}: no {kind} engine yet");
            continue;
        };
        if engine.turns() != TurnStructure::Alternating {
            return usage_error(format!(
                "perft is for alternating games (zuniq, wondev-woman); {game} is simultaneous"
            ));
        }
        let play = match engine.setup(Some(seed), &json!({})) {
            Ok(p) => p,
            Err(e) => return usage_error(format!("setup failed: {e}")),
        };
        any = true;
        if super::has_seed(game) {
            println!("{game} seed {seed}, {kind} engine");
        } else {
            println!("{game}, {kind} engine");
        }
        println!("{:>5} {:>16} {:>12}", "depth", "leaves", "ms");
        for d in 0..=depth {
            let start = Instant::now();
            let Some(n) = perft::perft(play.as_ref(), d) else {
                return usage_error(format!("the {kind} engine of {game} has no perft"));
            };
            println!("{d:>5} {n:>16} {:>12.1}", start.elapsed().as_secs_f64() * 1e3);
        }
    }
    if any {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
