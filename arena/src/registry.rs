//! Which games exist and which of their engines are implemented.

use twinsim_reference::game::{EngineKind, TraceEngine};

/// The five games, by trace name, in the order the tools list them.
pub const GAMES: [&str; 5] = ["xmas-rush", "photosynthesis", "zuniq", "olymbits", "wondev-woman"];

/// The engine of `game` of the given kind, or `None` while it is not implemented (or the game is
/// unknown).
pub fn engine(game: &str, kind: EngineKind) -> Option<&'static dyn TraceEngine> {
    use EngineKind::*;
    match (game, kind) {
        ("xmas-rush", Reference) => twinsim_reference::xmas_rush::engine(),
        ("xmas-rush", Fast) => twinsim_fast::xmas_rush::engine(),
        ("photosynthesis", Reference) => twinsim_reference::photosynthesis::engine(),
        ("photosynthesis", Fast) => twinsim_fast::photosynthesis::engine(),
        ("zuniq", Reference) => twinsim_reference::zuniq::engine(),
        ("zuniq", Fast) => twinsim_fast::zuniq::engine(),
        ("olymbits", Reference) => twinsim_reference::olymbits::engine(),
        ("olymbits", Fast) => twinsim_fast::olymbits::engine(),
        ("wondev-woman", Reference) => twinsim_reference::wondev_woman::engine(),
        ("wondev-woman", Fast) => twinsim_fast::wondev_woman::engine(),
        _ => None,
    }
}

/// The params object that selects `league` for `game`, under the key its traces use.
pub fn league_params(game: &str, league: Option<u32>) -> serde_json::Value {
    let key = match game {
        "xmas-rush" | "olymbits" => "league",
        "photosynthesis" => "league_level",
        "wondev-woman" => "game_version",
        _ => return serde_json::json!({}),
    };
    match league {
        Some(level) => serde_json::json!({ key: level }),
        None => serde_json::json!({}),
    }
}
