//! Which games exist and which of their engines are implemented.

use twinsim_reference::game::{EngineKind, TraceEngine};
use twinsim_reference::registry::GameId;

/// The games, by trace name, in the order the tools list them ([`GameId::ALL`]'s).
pub const GAMES: [&str; GameId::ALL.len()] = twinsim_reference::registry::NAMES;

/// The engine of `game` of the given kind, or `None` while it is not implemented (or the game is
/// unknown).
pub fn engine(game: &str, kind: EngineKind) -> Option<&'static dyn TraceEngine> {
    use EngineKind::*;
    use GameId::*;
    match (game.parse::<GameId>().ok()?, kind) {
        (XmasRush, Reference) => twinsim_reference::xmas_rush::engine(),
        (XmasRush, Fast) => twinsim_fast::xmas_rush::engine(),
        (Photosynthesis, Reference) => twinsim_reference::photosynthesis::engine(),
        (Photosynthesis, Fast) => twinsim_fast::photosynthesis::engine(),
        (Zuniq, Reference) => twinsim_reference::zuniq::engine(),
        (Zuniq, Fast) => twinsim_fast::zuniq::engine(),
        (Olymbits, Reference) => twinsim_reference::olymbits::engine(),
        (Olymbits, Fast) => twinsim_fast::olymbits::engine(),
        (WondevWoman, Reference) => twinsim_reference::wondev_woman::engine(),
        (WondevWoman, Fast) => twinsim_fast::wondev_woman::engine(),
    }
}

/// The params object that selects `league` for `game`, under the key its traces use
/// ([`GameInfo::league_key`](twinsim_reference::registry::GameInfo::league_key); `{}` for a game
/// without leagues or an unknown game).
pub fn league_params(game: &str, league: Option<u32>) -> serde_json::Value {
    let key = game.parse::<GameId>().ok().and_then(|game| game.info().league_key);
    match (key, league) {
        (Some(key), Some(level)) => serde_json::json!({ key: level }),
        _ => serde_json::json!({}),
    }
}
