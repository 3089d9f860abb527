//! The referee's turn (rules doc §4 "Output syntax and validation", §10 "One action"): the
//! exact line the player to move printed is read ([`super::protocol::parse_line`]) and checked in
//! the referee's order, then its consequence is applied under the rules ([`rules::act`]): a bad
//! line eliminates its player, a legal action is played.

use super::protocol::{parse_line, Command, Word};
use super::rules::{self, accepts_defeat, check_action, invalid_command, invalid_input};
use super::state::{Action, Elimination, Kind, Reason, Record, State};

/// Why a turn could not be played at all (not a referee consequence: the game is over, or it is
/// not this player's turn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The game is over.
    GameOver,
    /// Someone else is to move.
    NotToMove {
        /// Who tried.
        player: usize,
    },
}

/// §10: the full text-level turn: the mover's printed line (`None`: timeout) with the referee's
/// consequences ([`resolve_output`], then [`rules::act`]).
pub fn play_turn(state: &mut State, line: Option<&str>) -> Result<(), TurnError> {
    let Some(player) = state.to_move.filter(|_| !state.game_over) else {
        return Err(TurnError::GameOver);
    };
    let resolution = resolve_output(state, player, line);
    rules::act(state, player, resolution);
    Ok(())
}

/// §4, §10: what the referee makes of one printed line (`None`: a timeout), before any effect:
/// the two patterns, then the unit index (quoting the whole line), then the command word (the
/// push word is case-sensitive), then [`check_action`].
pub fn resolve_output(
    state: &State,
    player: usize,
    line: Option<&str>,
) -> Result<Record, Elimination> {
    let Some(line) = line else {
        return Err(Elimination::new(Reason::Timeout, player, ""));
    };
    match parse_line(line) {
        Err(_) => Err(invalid_input(state, line)),
        Ok(Command::AcceptDefeat { .. }) => Err(accepts_defeat(player)),
        Ok(Command::Act { word, index, dir1, dir2, .. }) => {
            if index >= state.units[player].len() {
                return Err(invalid_input(state, line));
            }
            let kind = match word {
                Word::Move => Kind::Move,
                Word::Push { exact: true } => Kind::Push,
                Word::Push { exact: false } => return Err(invalid_command()),
            };
            check_action(state, player, &Action::Build { kind, unit: index, dir1, dir2 })
        }
    }
}
