//! Which games exist and which of their engines are implemented.

use serde_json::Value;
use twinsim_fast::game::SearchGame;
use twinsim_reference::game::{EngineKind, Game, PlayerId, TraceEngine, TracePlay};
use twinsim_reference::game::{TypedPlay, TypedTraceEngine};
use twinsim_reference::registry::GameId;
use twinsim_search::greedy::{self, GreedyValue};
use twinsim_search::SearchRng;

/// The games, by trace name, in the order the tools list them ([`GameId::ALL`]'s).
pub const GAMES: [&str; GameId::ALL.len()] = twinsim_reference::registry::NAMES;

/// A game in progress as the arena referees it: the text-level play, and `builtin:greedy`'s
/// line on its typed state.
pub trait ArenaPlay: TracePlay {
    /// `builtin:greedy`'s line for `player`: [`twinsim_search::greedy::choose`] (one ply, the
    /// others answering with their first legal action) on the engine's own typed state, scored
    /// by the game's typed evaluation (the one its search uses), printed as the line a bot
    /// prints. `None` when the player is not to act.
    fn greedy_line(&self, player: PlayerId, rng: &mut SearchRng) -> Option<String>;
}

impl<P: TypedPlay> ArenaPlay for P
where
    P::Game: SearchGame,
    <P::Game as Game>::State: GreedyValue,
{
    fn greedy_line(&self, player: PlayerId, rng: &mut SearchRng) -> Option<String> {
        greedy::choose::<P::Game>(self.typed_state(), player, rng).map(|a| a.to_string())
    }
}

/// An engine as the arena uses it: the text-level engine whose setup gives an [`ArenaPlay`].
pub trait ArenaEngine: TraceEngine {
    /// [`TraceEngine::setup`], with the play's greedy line.
    fn setup_arena(&self, seed: Option<i64>, params: &Value) -> Result<Box<dyn ArenaPlay>, String>;
}

impl<E: TypedTraceEngine> ArenaEngine for E
where
    E::Play: ArenaPlay + 'static,
{
    fn setup_arena(&self, seed: Option<i64>, params: &Value) -> Result<Box<dyn ArenaPlay>, String> {
        Ok(Box::new(self.setup_play(seed, params)?))
    }
}

/// The engine of `game` of the given kind, or `None` for an unknown game.
pub fn arena_engine(game: &str, kind: EngineKind) -> Option<&'static dyn ArenaEngine> {
    use EngineKind::*;
    use GameId::*;
    Some(match (game.parse::<GameId>().ok()?, kind) {
        (XmasRush, Reference) => &twinsim_reference::xmas_rush::ENGINE,
        (XmasRush, Fast) => &twinsim_fast::xmas_rush::ENGINE,
        (Photosynthesis, Reference) => &twinsim_reference::photosynthesis::trace::ENGINE,
        (Photosynthesis, Fast) => &twinsim_fast::photosynthesis::ENGINE,
        (Zuniq, Reference) => &twinsim_reference::zuniq::trace::ENGINE,
        (Zuniq, Fast) => &twinsim_fast::zuniq::ENGINE,
        (Olymbits, Reference) => &twinsim_reference::olymbits::trace::ENGINE,
        (Olymbits, Fast) => &twinsim_fast::olymbits::ENGINE,
        (WondevWoman, Reference) => &twinsim_reference::wondev_woman::trace::ENGINE,
        (WondevWoman, Fast) => &twinsim_fast::wondev_woman::ENGINE,
    })
}

/// The engine of `game` of the given kind, or `None` for an unknown game.
pub fn engine(game: &str, kind: EngineKind) -> Option<&'static dyn TraceEngine> {
    arena_engine(game, kind).map(|engine| engine as &'static dyn TraceEngine)
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
