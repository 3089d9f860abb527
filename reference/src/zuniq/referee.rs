//! The referee's turn (rules doc §8 "Protocol" checks 1–5, in order): the exact line the player
//! to move printed is read ([`super::protocol::parse_line`]) and gets its consequence under the
//! rules ([`super::rules`]): a bad line loses at once, a legal move is played. The typed API
//! ([`crate::game::Game::step`]) refuses what this turn punishes.

use super::protocol::parse_line;
use super::rules::{apply_move, check_wall, forfeit, Event, InvalidReason};
use super::state::State;
use crate::game::StepError;

/// §8: one turn as the referee runs it, from the exact line the player to move printed (`None`:
/// no answer in time). Bad output gets its consequence (§8: the offender loses); only a finished
/// game is refused.
pub fn play_turn(state: &mut State, line: Option<&str>) -> Result<Vec<Event>, StepError> {
    if state.finished {
        return Err(StepError::GameOver);
    }
    // Check 1: no answer at all.
    let Some(line) = line else {
        return Ok(forfeit(state, InvalidReason::Timeout));
    };
    // Check 2: the line must be a wall name, optionally followed by one `!`.
    let action = match parse_line(line) {
        Ok(action) => action,
        Err(error) => return Ok(forfeit(state, InvalidReason::Malformed(error))),
    };
    // Checks 3-5: the move must be legal (§5).
    if let Err(illegal) = check_wall(&state.walls, action.wall) {
        return Ok(forfeit(state, InvalidReason::Illegal(illegal)));
    }
    apply_move(state, action)
}
