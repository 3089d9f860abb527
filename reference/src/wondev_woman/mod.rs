//! Wondev Woman (CodinGame, June 2017), the reference engine, written to be read next to
//! `docs/rules/wondev-woman.md`.
//!
//! - [`state`]: §1 board, coordinates, state; the action, record and event types.
//! - [`setup`]: §2 seeded setup and map generation.
//! - [`rules`]: §3 turns, §4 validation, §5 MOVE&BUILD, §6 PUSH&BUILD, §7 fog, §8 end of game,
//!   §9 legal list, §10 one action, §11 leagues, in the doc's order.
//! - [`protocol`]: §4 output syntax and §9 input, both directions, and the search state a view
//!   rebuilds.
//! - [`referee`]: §4 and §10 the referee's turn: a printed line read, checked in the referee's
//!   order, and given its consequence.
//! - [`trace`]: §13 the JSON state schema and the text-level engine.
//! - [`display`]: a picture of the board.
//! - [`bot`]: not rules but what a bot computes from its views: the fog deduction
//!   ([`bot::fog`]) and the Voronoi evaluation ([`bot::eval`]).

pub mod bot;
pub mod display;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod setup;
pub mod state;
#[cfg(feature = "json")]
pub mod trace;

#[cfg(test)]
mod tests;

pub use state::{Action, Dir, Kind, League, Params, Point, State};

use crate::framing::{Framing, Part, SeatRule, TimeLimits};
use crate::game::{Game, IllegalAction, Outcome, PlayerId, StepError, TurnStructure};
use std::time::Duration;

#[cfg(feature = "json")]
/// The text-level engine for replay and verification.
pub fn engine() -> Option<&'static dyn crate::game::TraceEngine> {
    Some(&trace::ENGINE)
}

/// The typed game (see [`Game`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WondevWoman;

/// The referee's response-time rules.
pub const TIME_LIMITS: TimeLimits = TimeLimits {
    first: Duration::from_millis(1000),
    later: Duration::from_millis(50),
    total: None,
};

/// How a bot's input divides into turns: init: board size, units per player. Each turn: the rows,
/// both players' units, the actions.
pub const FRAMING: Framing = Framing {
    end_line: None,
    seat: SeatRule::Own,
    init: &[Part::Number("the board size"), Part::Number("the number of units per player")],
    turn: &[
        Part::PerNumber { number: 0, times: 1, plus: 0, expected: "a board row" },
        Part::PerNumber { number: 1, times: 2, plus: 0, expected: "a unit position" },
        Part::Counted("the number of legal actions"),
    ],
};

/// This game's facts for the tools (`registry::GameId::WondevWoman`).
// Behind the `registry` feature, so that a bundled bot leaves the registry out.
#[cfg(feature = "registry")]
pub const INFO: crate::registry::GameInfo = crate::registry::GameInfo {
    id: crate::registry::GameId::WondevWoman,
    name: "wondev-woman",
    display_name: "Wondev Woman",
    module: "wondev_woman",
    players: 2,
    turns: TurnStructure::Alternating,
    time_limits: TIME_LIMITS,
    league_key: Some("game_version"),
    seeded: true,
    embedded_init_lines: 0,
    state_keys: &["round", "to_move", "size", "grid", "units", "scores", "dead"],
    framing: FRAMING,
};

impl Game for WondevWoman {
    type State = State;
    type Action = Action;
    type Params = Params;

    const NAME: &'static str = "wondev-woman";
    const TURNS: TurnStructure = TurnStructure::Alternating;

    /// §2.
    fn new_game(seed: i64, params: &Params) -> State {
        setup::new_game(seed, params)
    }

    fn num_players(_state: &State) -> usize {
        2
    }

    fn is_over(state: &State) -> bool {
        state.game_over
    }

    fn is_to_act(state: &State, player: PlayerId) -> bool {
        !state.game_over && state.to_move == Some(player)
    }

    /// §3: the player to move (none once the game is over).
    fn players_to_act(state: &State) -> Vec<PlayerId> {
        state.to_move.filter(|_| !state.game_over).into_iter().collect()
    }

    /// §9: the referee's sorted legal list; when it is empty (a stuck player, §8) the only
    /// action offered is `ACCEPT-DEFEAT`, since the player must still print a line, and every
    /// line eliminates it.
    fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
        if state.game_over || state.to_move != Some(player) {
            return vec![];
        }
        let list = rules::legal_actions(state, player);
        if list.is_empty() {
            vec![Action::AcceptDefeat]
        } else {
            list
        }
    }

    /// §10 for typed actions. Unlike a printed line (see [`referee::play_turn`], which applies the
    /// referee's consequence, elimination), a typed action that the rules forbid is refused
    /// with [`StepError::Illegal`] and the state is left unchanged; `ACCEPT-DEFEAT` is always
    /// accepted.
    fn apply(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        let player = state.to_move.unwrap_or(0);
        let Some(Some(action)) = actions.get(player) else {
            // `check_turn` refuses this already; `apply` called alone refuses it the same way.
            return Err(StepError::NotToAct { player });
        };
        let resolution = rules::check_action(state, player, action);
        if let (Action::Build { .. }, Err(e)) = (action, &resolution) {
            return Err(StepError::Illegal {
                player,
                error: IllegalAction { reason: format!("{}: {}", e.reason.code(), e.message) },
            });
        }
        rules::act(state, player, resolution);
        Ok(())
    }

    /// §8: scores (`getScore`), ranks by score (equal scores share a rank), the end reason.
    fn outcome(state: &State) -> Option<Outcome> {
        if !state.game_over {
            return None;
        }
        let scores: Vec<i64> = rules::final_scores(state).iter().map(|&s| s as i64).collect();
        let ranks = Outcome::ranks_from_scores(&scores);
        Some(Outcome {
            scores,
            ranks,
            reason: state.end_reason.map_or("", |r| r.code()).to_string(),
        })
    }
}
