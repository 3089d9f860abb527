//! Olymbits' face in the shared search API ([`SearchGame`]): the same names in every
//! `twinsim_fast::<game>::api` (`State`, `Action`, `MoveList`, `CAPACITY`, `Fast`, `Reference`),
//! re-exported at the game's root (`twinsim_fast::<game>::MoveList` is this list in every game).

use super::typed::{SeededDice, Typed};
use crate::game::{Players, SearchGame};
use twinsim_reference::game::PlayerId;
use twinsim_reference::olymbits as r;
pub use twinsim_reference::olymbits::Action;

/// The fast state with the referee's generator. The root's [`super::State`] is the same
/// struct, generic over its dice (`State<D = Sha1Prng>`): written without a parameter, it is
/// this type.
pub type State = super::State;
/// The fast twin's typed API (the referee's dice; [`super::SearchOlymbits`] has search dice).
pub type Fast = super::FastOlymbits;
/// The reference twin's typed API.
pub type Reference = r::Olymbits;

/// Every active player has the same four actions (§4).
pub const CAPACITY: usize = 4;

/// One player's legal actions, without allocation.
pub type MoveList = crate::game::MoveList<Action, CAPACITY>;

impl<D: SeededDice> SearchGame for Typed<D> {
    type MoveList = MoveList;

    fn to_act(state: &super::State<D>) -> Players {
        if state.is_over() {
            return Players::NONE;
        }
        (0..r::PLAYER_COUNT).filter(|&p| state.is_active(p)).fold(Players::NONE, Players::with)
    }

    fn legal_moves(state: &super::State<D>, player: PlayerId, moves: &mut MoveList) {
        moves.clear();
        if !state.is_over() && player < r::PLAYER_COUNT && state.is_active(player) {
            for a in Action::ALL {
                moves.push(a);
            }
        }
    }
}
