//! Photosynthesis (CodinGame Spring Challenge 2021), written to be read next to
//! `docs/rules/photosynthesis.md`.
//!
//! - [`board`]: §1 board and geometry.
//! - [`state`]: §2 the state, §10 league parameters, the typed action.
//! - [`setup`]: §3 the RNG, §4 setup (holes, starting trees, first shadows, day-0 gathering).
//! - [`rules`]: §5 days and the sun, §6 an ACTIONS frame, §7 disqualification, §8 the
//!   possible-actions list (the legal moves), §9 scoring.
//! - [`protocol`]: §6.2 parsing bot lines, §8 the views (the possible-actions lists shuffled as
//!   printed) and the search state a view rebuilds.
//! - [`trace`]: §13 the trace schema and the text-level engine.
//! - [`display`]: the board picture.
//!
//! The typed API is [`Photosynthesis`] (the [`Game`] trait); the text-level one is
//! [`engine()`].

pub mod board;
pub mod display;
pub mod protocol;
pub mod rules;
pub mod setup;
pub mod state;
#[cfg(feature = "json")]
pub mod trace;

#[cfg(test)]
mod tests;

pub use protocol::{parse_init, parse_line, parse_turn, render_view, Command, LineError, View};
pub use rules::Answer;
pub use state::{Action, Params, Player, State, Tree};

use crate::framing::{Framing, Part, SeatRule, TimeLimits};
use crate::game::{Game, IllegalAction, Outcome, PlayerId, StepError, TurnStructure};
use std::time::Duration;

/// The typed game (the [`Game`] trait).
#[derive(Clone, Copy, Debug, Default)]
pub struct Photosynthesis;

/// The referee's response-time rules.
pub const TIME_LIMITS: TimeLimits = TimeLimits {
    first: Duration::from_millis(1000),
    later: Duration::from_millis(100),
    total: None,
};

/// How a bot's input divides into turns: init: the cells. Each turn: day, nutrients, 2 sun and
/// score lines; trees; possible actions.
pub const FRAMING: Framing = Framing {
    end_line: None,
    seat: SeatRule::Own,
    init: &[Part::Counted("the number of cells")],
    turn: &[
        Part::Lines(4, "the day, nutrients or a sun and score line"),
        Part::Counted("the number of trees"),
        Part::Counted("the number of possible actions"),
    ],
};

/// This game's facts for the tools (`registry::GameId::Photosynthesis`).
// Behind the `registry` feature, so that a bundled bot leaves the registry out.
#[cfg(feature = "registry")]
pub const INFO: crate::registry::GameInfo = crate::registry::GameInfo {
    id: crate::registry::GameId::Photosynthesis,
    name: "photosynthesis",
    display_name: "Photosynthesis",
    module: "photosynthesis",
    players: 2,
    turns: TurnStructure::Simultaneous,
    time_limits: TIME_LIMITS,
    league_key: Some("league_level"),
    seeded: true,
    // The cell count and 37 cells.
    embedded_init_lines: 38,
    state_keys: &["day", "sun_direction", "nutrients", "players", "trees", "richness"],
    framing: FRAMING,
};

impl Game for Photosynthesis {
    type State = State;
    type Action = Action;
    type Params = Params;

    const NAME: &'static str = "photosynthesis";
    const TURNS: TurnStructure = TurnStructure::Simultaneous;

    /// §4: the state at the first decision point (after setup and the day-0 gathering).
    fn new_game(seed: i64, params: &Params) -> State {
        setup::new_game(seed, *params).0
    }

    fn num_players(_state: &State) -> usize {
        2
    }

    fn is_over(state: &State) -> bool {
        state.game_over
    }

    fn is_to_act(state: &State, player: PlayerId) -> bool {
        state.is_asked(player)
    }

    /// §6.1 step 2: the active, non-waiting players.
    fn players_to_act(state: &State) -> Vec<PlayerId> {
        (0..2).filter(|&p| state.is_asked(p)).collect()
    }

    /// §8: WAIT, then the completes, grows and seeds in the referee's pre-shuffle order (the
    /// shuffle only changes the order of the printed list, never its content).
    fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
        if !state.is_asked(player) {
            return vec![];
        }
        let mut out = vec![Action::Wait];
        for group in rules::possible_action_groups(state, player) {
            out.extend(group);
        }
        out
    }

    /// §6.1: one ACTIONS frame (and the automatic frames after it). Each `Some` action must be
    /// legal (§6.3) for a player who is asked; a `None` for an asked player is "no answer",
    /// which the referee treats as a timeout (disqualification, §7). For the referee's handling
    /// of arbitrary lines (illegal = silent WAIT, malformed = disqualification) use
    /// [`rules::play_turn`] with [`protocol::read_answer`].
    fn apply(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        for (player, action) in actions.iter().enumerate() {
            if let Some(action) = action {
                if !rules::command_enabled(state, *action) {
                    let reason = format!(
                        "{action} is not a command of league {} (§6.2, §10)",
                        state.params.league_level
                    );
                    return Err(StepError::Illegal { player, error: IllegalAction { reason } });
                }
                rules::validate(state, player, *action, state.players[player].sun).map_err(
                    |reason| StepError::Illegal { player, error: IllegalAction { reason } },
                )?;
            }
        }
        let answers = [0, 1]
            .map(|p| state.is_asked(p).then(|| actions[p].map_or(Answer::Timeout, Answer::Action)));
        rules::play_turn(state, &answers).map(|_| ())
    }

    /// §9.
    fn outcome(state: &State) -> Option<Outcome> {
        rules::outcome(state)
    }
}

#[cfg(feature = "json")]
/// The text-level engine for replay and verification.
pub fn engine() -> Option<&'static dyn crate::game::TraceEngine> {
    Some(&trace::ENGINE)
}
