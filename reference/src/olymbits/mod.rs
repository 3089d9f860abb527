//! Olymbits (CodinGame Summer Challenge 2024), the reference engine: three players, one action
//! a turn fed to four mini-games (hurdles, archery, roller speed skating, diving), medals and a
//! product score. Written to be read next to `docs/rules/olymbits.md`, section by section:
//!
//! - [`state`]: §1–§2, what the referee keeps;
//! - [`setup`]: §3–§7 generation (SHA1PRNG draws, each mini-game's `reset`, the 251 tracks);
//! - [`rules`]: §4–§9, ticks, ends of runs, ranks, medals, the turn, scoring, deactivation
//!   (and §11.3, the messages of a bad line);
//! - [`protocol`]: §10–§11, the input text (render and parse), the search state a view
//!   rebuilds, and the output line validation;
//! - [`display`]: a picture for the terminal;
//! - [`trace`]: §15, the traces' JSON state and the text-level engine.

pub mod display;
pub mod protocol;
pub mod rules;
pub mod setup;
pub mod state;
#[cfg(feature = "json")]
pub mod trace;

pub use display::render_board;
pub use protocol::{
    parse_first_input, parse_init, parse_line, parse_turn, render_first_input, render_turn_input,
    Command, GameLine, InitView, ScoreLine, TurnView,
};
pub use rules::{outcome, play_turn, points, ranks, PlayerInput};
pub use setup::{hurdle_track, hurdle_tracks, new_game, new_game_unchecked, SetupError};
pub use state::*;
#[cfg(feature = "json")]
pub use trace::{engine, OlymbitsEngine, ENGINE};

use crate::framing::{Framing, Part, SeatRule, TimeLimits};
use crate::game::{Game, Outcome, PlayerId, StepError, TurnStructure};
use std::time::Duration;

/// The typed API ([`Game`]) of Olymbits.
///
/// In [`Game::step`], `None` for an *active* player means it gave no answer in time: it is
/// deactivated like the referee does (§11.4). `Some` for an inactive player is refused.
/// [`Game::new_game`] cannot refuse seed 0; use [`new_game`] for the checked version.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Olymbits;

/// The referee's response-time rules.
pub const TIME_LIMITS: TimeLimits = TimeLimits {
    first: Duration::from_millis(1000),
    later: Duration::from_millis(50),
    total: None,
};

/// How a bot's input divides into turns: init: player index, mini-game count. Each turn: 3 score
/// lines, one line per mini-game.
pub const FRAMING: Framing = Framing {
    end_line: None,
    seat: SeatRule::Read,
    init: &[Part::Seat("the player index"), Part::Number("the number of mini-games")],
    turn: &[Part::PerNumber {
        number: 0,
        times: 1,
        plus: 3,
        expected: "a score line or a mini-game line",
    }],
};

/// This game's facts for the tools (`registry::GameId::Olymbits`).
// Behind the `registry` feature, so that a bundled bot leaves the registry out.
#[cfg(feature = "registry")]
pub const INFO: crate::registry::GameInfo = crate::registry::GameInfo {
    id: crate::registry::GameId::Olymbits,
    name: "olymbits",
    display_name: "Olymbits",
    module: "olymbits",
    players: 3,
    turns: TurnStructure::Simultaneous,
    time_limits: TIME_LIMITS,
    league_key: Some("league"),
    seeded: true,
    // The player index and the number of mini-games.
    embedded_init_lines: 2,
    state_keys: &["turn", "active", "medals", "games"],
    framing: FRAMING,
};

impl Game for Olymbits {
    type State = State;
    type Action = Action;
    type Params = Params;

    const NAME: &'static str = "olymbits";
    const TURNS: TurnStructure = TurnStructure::Simultaneous;

    fn new_game(seed: i64, params: &Params) -> State {
        new_game_unchecked(seed, params)
    }

    fn num_players(_state: &State) -> usize {
        PLAYER_COUNT
    }

    fn players_to_act(state: &State) -> Vec<PlayerId> {
        if state.is_over() {
            return vec![];
        }
        (0..PLAYER_COUNT).filter(|&i| state.active[i]).collect()
    }

    fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
        if Self::players_to_act(state).contains(&player) {
            Action::ALL.to_vec()
        } else {
            vec![]
        }
    }

    fn is_over(state: &State) -> bool {
        state.is_over()
    }

    fn is_to_act(state: &State, player: PlayerId) -> bool {
        !state.is_over() && state.active[player]
    }

    fn apply(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        let inputs: [PlayerInput; PLAYER_COUNT] = std::array::from_fn(|i| match actions[i] {
            _ if !state.active[i] => PlayerInput::NotAsked,
            Some(a) => PlayerInput::Action(a),
            None => PlayerInput::Timeout,
        });
        play_turn(state, &inputs)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        outcome(state)
    }
}

#[cfg(test)]
mod properties;
#[cfg(test)]
mod snapshot_tests;
#[cfg(test)]
mod tests;
