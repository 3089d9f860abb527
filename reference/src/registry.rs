//! The games: one [`GameId`] per game and one [`GameInfo`] per game, exported by the game's own
//! module (`xmas_rush::INFO`, ...). Tools outside the game folders ask here (players, time
//! limits, league key, input framing, ...) instead of switching on a game's name.
//!
//! ```
//! use twinsim_reference::registry::GameId;
//!
//! let game: GameId = "olymbits".parse().unwrap();
//! assert_eq!(game.info().players, 3);
//! assert_eq!(game.to_string(), "olymbits");
//! let unknown = "chess".parse::<GameId>().unwrap_err().to_string();
//! assert!(unknown.contains("wondev-woman"), "the error names the games: {unknown}");
//! ```
//!
//! Adding a game: its module exports its `INFO`, and its module name joins the `game_table!`
//! list below and its variant [`GameId`] (the bundler keeps only the bundled game of that list).
//!
//! The lookups (and each game's `INFO`) are under the `registry` feature (on by default): a
//! contest bot reads its input through its game's `FRAMING` and `TIME_LIMITS` (the
//! [`crate::framing`] types) instead, and `twinsim bundle` leaves every feature-gated item out
//! (the table below and the games' `INFO`s name each other, which its shaker cannot drop).

pub use crate::framing::{Framing, Part, SeatRule, TimeLimits};
use crate::game::TurnStructure;
#[cfg(feature = "registry")]
use std::fmt;

/// One of the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameId {
    /// X-mas Rush (CodinGame 2018).
    XmasRush,
    /// Photosynthesis (CodinGame Spring Challenge 2021).
    Photosynthesis,
    /// Zuniq (CodeCup 2021).
    Zuniq,
    /// Olymbits (CodinGame Summer Challenge 2024).
    Olymbits,
    /// Wondev Woman (CodinGame 2017).
    WondevWoman,
}

/// What the tools need to know of a game, from its own module.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameInfo {
    /// Which game.
    pub id: GameId,
    /// The trace name (`"zuniq"`): the `game` of a trace, the CLI's and Python's game argument.
    pub name: &'static str,
    /// The name people write (`"Wondev Woman"`).
    pub display_name: &'static str,
    /// The module name in every crate (`zuniq`, `wondev_woman`).
    pub module: &'static str,
    /// Players in a game.
    pub players: usize,
    /// Simultaneous or alternating turns.
    pub turns: TurnStructure,
    /// The referee's response-time rules.
    pub time_limits: TimeLimits,
    /// The key of the setup params that selects the league, where the game has leagues.
    pub league_key: Option<&'static str>,
    /// Whether setup draws anything from the seed (Zuniq's board is always the same).
    pub seeded: bool,
    /// Lines of init input that the referee's own trace files put at the start of the first view
    /// instead of under `init_input` (`trace::normalize_setup` splits them off).
    pub embedded_init_lines: usize,
    /// The fields every state record has, which the replay viewer draws from.
    pub state_keys: &'static [&'static str],
    /// How a bot's input divides into turns.
    pub framing: Framing,
}

#[cfg(feature = "registry")]
/// The games' `INFO`s, in [`GameId::ALL`]'s order, from a list of module names (a bundle keeps
/// only its own game's: `twinsim bundle` cuts such a list down).
macro_rules! game_table {
    ($($module:ident),*) => {
        const INFOS: &[&GameInfo] = &[$(&crate::$module::INFO),*];
    };
}
#[cfg(feature = "registry")]
game_table!(xmas_rush, photosynthesis, zuniq, olymbits, wondev_woman);

#[cfg(feature = "registry")]
/// The trace names of the games, in [`GameId::ALL`]'s order.
pub const NAMES: [&str; INFOS.len()] = {
    let mut names = [""; INFOS.len()];
    let mut i = 0;
    while i < INFOS.len() {
        names[i] = INFOS[i].name;
        i += 1;
    }
    names
};

#[cfg(feature = "registry")]
/// The module names of the games, in [`GameId::ALL`]'s order.
pub const MODULES: [&str; INFOS.len()] = {
    let mut modules = [""; INFOS.len()];
    let mut i = 0;
    while i < INFOS.len() {
        modules[i] = INFOS[i].module;
        i += 1;
    }
    modules
};

impl GameId {
    /// Every game, in the order the tools list them.
    pub const ALL: [GameId; 5] = [
        GameId::XmasRush,
        GameId::Photosynthesis,
        GameId::Zuniq,
        GameId::Olymbits,
        GameId::WondevWoman,
    ];
}

#[cfg(feature = "registry")]
impl GameId {
    /// The game's facts, from its module.
    pub fn info(self) -> &'static GameInfo {
        INFOS.iter().find(|info| info.id == self).expect("every game's INFO is in the table")
    }

    /// The trace name (`"wondev-woman"`).
    pub fn name(self) -> &'static str {
        self.info().name
    }
}

#[cfg(feature = "registry")]
impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(feature = "registry")]
/// A name that is none of the games' trace names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

#[cfg(feature = "registry")]
impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown game {:?} (known: {})", self.0, NAMES.join(", "))
    }
}

#[cfg(feature = "registry")]
impl std::error::Error for UnknownGame {}

#[cfg(feature = "registry")]
impl std::str::FromStr for GameId {
    type Err = UnknownGame;
    /// The game of a trace name.
    fn from_str(name: &str) -> Result<GameId, UnknownGame> {
        INFOS
            .iter()
            .find(|info| info.name == name)
            .map(|info| info.id)
            .ok_or_else(|| UnknownGame(name.to_string()))
    }
}

#[cfg(feature = "clap")]
impl clap::ValueEnum for GameId {
    fn value_variants<'a>() -> &'a [Self] {
        &GameId::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_info_in_order() {
        assert_eq!(INFOS.len(), GameId::ALL.len());
        for (i, game) in GameId::ALL.into_iter().enumerate() {
            assert_eq!(INFOS[i].id, game, "INFOS is in ALL's order");
            assert_eq!(game.info().id, game);
            assert_eq!(NAMES[i], game.name());
            assert_eq!(MODULES[i].replace('_', "-"), game.name(), "module and trace name agree");
        }
    }

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        for game in GameId::ALL {
            assert_eq!(game.to_string().parse::<GameId>(), Ok(game));
        }
        let error = "Zuniq".parse::<GameId>().unwrap_err();
        assert_eq!(error, UnknownGame("Zuniq".into()));
        let text = error.to_string();
        for game in GameId::ALL {
            assert!(text.contains(game.name()), "{text}");
        }
    }

    #[test]
    fn infos_say_what_the_typed_games_say() {
        use crate::game::Game;
        fn check<G: Game>(info: &GameInfo) {
            assert_eq!(G::NAME, info.name, "the typed game's name is the trace name");
            assert_eq!(G::TURNS, info.turns);
            let state = G::new_game(1, &Default::default());
            assert_eq!(G::num_players(&state), info.players, "{}", info.name);
        }
        check::<crate::xmas_rush::XmasRush>(GameId::XmasRush.info());
        check::<crate::photosynthesis::Photosynthesis>(GameId::Photosynthesis.info());
        check::<crate::zuniq::Zuniq>(GameId::Zuniq.info());
        check::<crate::olymbits::Olymbits>(GameId::Olymbits.info());
        check::<crate::wondev_woman::WondevWoman>(GameId::WondevWoman.info());
    }

    #[test]
    fn seeded_says_whether_the_seed_changes_the_setup() {
        use crate::game::Game;
        fn differs<G: Game>() -> bool {
            (2..12).any(|seed| {
                G::new_game(1, &Default::default()) != G::new_game(seed, &Default::default())
            })
        }
        assert_eq!(differs::<crate::xmas_rush::XmasRush>(), GameId::XmasRush.info().seeded);
        assert_eq!(
            differs::<crate::photosynthesis::Photosynthesis>(),
            GameId::Photosynthesis.info().seeded
        );
        assert_eq!(differs::<crate::zuniq::Zuniq>(), GameId::Zuniq.info().seeded);
        assert_eq!(differs::<crate::olymbits::Olymbits>(), GameId::Olymbits.info().seeded);
        assert_eq!(
            differs::<crate::wondev_woman::WondevWoman>(),
            GameId::WondevWoman.info().seeded
        );
    }
}
