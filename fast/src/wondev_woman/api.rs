//! Wondev Woman's face in the shared search API ([`SearchGame`]): the same names in every
//! `twinsim_fast::<game>::api` (`State`, `Action`, `MoveList`, `CAPACITY`, `Fast`, `Reference`),
//! re-exported at the game's root (`twinsim_fast::<game>::MoveList` is this list in every game).

pub use super::board::State;
use super::movegen::{self, legal};
use crate::game::{Players, SearchGame};
use twinsim_reference::game::PlayerId;
pub use twinsim_reference::wondev_woman::state::Action;

/// The fast twin's typed API.
pub type Fast = super::FastWondevWoman;
/// The reference twin's typed API.
pub type Reference = twinsim_reference::wondev_woman::WondevWoman;

/// The move generator's own bound on a legal list (two units, eight moves or pushes, eight
/// builds; `ACCEPT-DEFEAT` only when that list is empty).
pub const CAPACITY: usize = movegen::MAX_MOVES;

/// One player's legal actions, without allocation.
pub type MoveList = crate::game::MoveList<Action, CAPACITY>;

impl SearchGame for Fast {
    type MoveList = MoveList;

    fn to_act(state: &State) -> Players {
        if state.game_over || state.to_move > 1 {
            Players::NONE
        } else {
            Players::one(state.to_move as usize)
        }
    }

    /// The generator's sorted list converted at the boundary; a stuck player's only action is
    /// `ACCEPT-DEFEAT` (§9), as in `legal_actions`.
    fn legal_moves(state: &State, player: PlayerId, moves: &mut MoveList) {
        moves.clear();
        if state.game_over || state.to_move as usize != player {
            return;
        }
        let mut compact = movegen::MoveList::default();
        legal(state, player, &mut compact);
        if compact.len == 0 {
            moves.push(Action::AcceptDefeat);
        }
        for m in compact.as_slice() {
            moves.push(m.to_action());
        }
    }
}
