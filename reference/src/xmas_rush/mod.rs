//! X-mas Rush (CodinGame, December 2018), the executable rulebook.
//!
//! Read next to `docs/rules/xmas-rush.md`; the files follow the doc's sections in order:
//! - [`state`]: §1 board, coordinates, tiles and §2 the state kept by the referee (§10 league
//!   constants);
//! - [`setup`]: §3 setup and its exact `java.util.Random` calls;
//! - [`rules`]: §4 the game turn, §6 the collect check, §7 resolution, §8 end of game;
//! - [`actions`]: §5 the typed action; [`path`]: a MOVE's steps, inline;
//! - [`protocol`]: §5 how a bot's line is read, §9 the per-turn input (typed view, render,
//!   parse, the state a view rebuilds);
//! - [`search`]: plain path searches a bot runs in a MOVE turn (§7.2), twins of the fast ones;
//! - [`json`](mod@json): §12 the trace state schema; [`display`]: a picture for terminals.
//!
//! [`XmasRush`] is the typed [`Game`]; [`engine`] the text-level
//! [`TraceEngine`](crate::game::TraceEngine).

pub mod actions;
pub mod display;
#[cfg(feature = "json")]
pub mod json;
pub mod path;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod setup;
pub mod state;
#[cfg(feature = "json")]
pub mod trace;

#[cfg(test)]
mod tests;

pub use actions::Action;
pub use path::{Path, PathFull};
pub use protocol::{parse_line, parse_turn, render_view, view, LineError, View};
pub use rules::{Answer, Event};
pub use setup::new_game;
pub use state::*;
#[cfg(feature = "json")]
pub use trace::{engine, league_from_params, views, XmasRushEngine, ENGINE};

use crate::framing::{Framing, Part, SeatRule, TimeLimits};
use crate::game::{Game, IllegalAction, Outcome, PlayerId, StepError, TurnStructure};
use std::time::Duration;

/// The typed game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct XmasRush;

/// Every legal action of `player` (§5): in a PUSH turn the 28 pushes; in a MOVE turn `PASS`
/// and, for every other cell reachable within 20 steps, one shortest `MOVE` to it (a
/// representative subset: any sequence of 1–20 directions is accepted, §5).
pub fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
    if state.game_over || player > 1 {
        return Vec::new();
    }
    match state.turn_type {
        TurnType::Push => {
            let mut pushes = Vec::new();
            for line in 0..SIZE {
                for direction in Direction::ALL {
                    pushes.push(Action::Push { line, direction });
                }
            }
            pushes
        }
        TurnType::Move => {
            let p = &state.players[player];
            let mut moves = vec![Action::Pass];
            for (_, steps) in rules::shortest_paths(state, p.x, p.y) {
                // The start's empty path is the PASS above; a cell more than 20 steps away has
                // no MOVE (§5).
                match Path::try_from(&steps[..]) {
                    Ok(path) if !path.is_empty() => moves.push(Action::Move(path)),
                    _ => {}
                }
            }
            moves
        }
    }
}

/// The final result (§8): scores as reported, ranks from them, the trace's reason word.
pub fn outcome(state: &State) -> Option<Outcome> {
    let reason = state.end_reason.filter(|_| state.game_over)?;
    let scores = vec![state.players[0].score, state.players[1].score];
    Some(Outcome {
        ranks: Outcome::ranks_from_scores(&scores),
        scores,
        reason: reason.name().into(),
    })
}

/// The referee's response-time rules.
pub const TIME_LIMITS: TimeLimits = TimeLimits {
    first: Duration::from_millis(1000),
    later: Duration::from_millis(50),
    total: None,
};

/// How a bot's input divides into turns: The turn type, 7 board rows, 2 player lines; the items;
/// the quests.
pub const FRAMING: Framing = Framing {
    end_line: None,
    seat: SeatRule::Own,
    init: &[],
    turn: &[
        Part::Lines(10, "a board row or a player line"),
        Part::Counted("the number of items"),
        Part::Counted("the number of quests"),
    ],
};

/// This game's facts for the tools (`registry::GameId::XmasRush`).
// Behind the `registry` feature, so that a bundled bot leaves the registry out.
#[cfg(feature = "registry")]
pub const INFO: crate::registry::GameInfo = crate::registry::GameInfo {
    id: crate::registry::GameId::XmasRush,
    name: "xmas-rush",
    display_name: "X-mas Rush",
    module: "xmas_rush",
    players: 2,
    turns: TurnStructure::Simultaneous,
    time_limits: TIME_LIMITS,
    league_key: Some("league"),
    seeded: true,
    embedded_init_lines: 0,
    state_keys: &["turn", "turns_left", "turn_type", "tiles", "players", "items"],
    framing: FRAMING,
};

impl Game for XmasRush {
    type State = State;
    type Action = Action;
    type Params = League;

    const NAME: &'static str = "xmas-rush";
    const TURNS: TurnStructure = TurnStructure::Simultaneous;

    fn new_game(seed: i64, params: &League) -> State {
        setup::new_game(seed, *params)
    }

    fn num_players(_: &State) -> usize {
        2
    }

    fn is_over(state: &State) -> bool {
        state.game_over
    }

    /// Both players answer every turn until the end (§4).
    fn is_to_act(state: &State, player: PlayerId) -> bool {
        !state.game_over && player < 2
    }

    fn players_to_act(state: &State) -> Vec<PlayerId> {
        if state.game_over {
            Vec::new()
        } else {
            vec![0, 1]
        }
    }

    fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
        legal_actions(state, player)
    }

    /// One game turn. `None` for a player is a timeout (§8: fatal); an action of the wrong
    /// type is refused with [`StepError::Illegal`] and the state is left unchanged (the
    /// text-level engine instead applies the referee's consequence, §5).
    fn apply(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        let mut answers = [Answer::Timeout, Answer::Timeout];
        for (p, action) in actions.iter().enumerate() {
            if let Some(action) = action {
                let checked = rules::check_type(action, state.turn_type)
                    .and_then(|()| rules::check_shape(action));
                if let Err(reason) = checked {
                    return Err(StepError::Illegal { player: p, error: IllegalAction { reason } });
                }
                answers[p] = Answer::Action(*action);
            }
        }
        rules::play_turn(state, &answers).map(|_| ())
    }

    fn outcome(state: &State) -> Option<Outcome> {
        outcome(state)
    }
}
