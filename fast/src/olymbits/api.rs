//! Olymbits' face in the shared search API ([`SearchGame`]): the same names in every
//! `twinsim_fast::<game>::api` (`State`, `Action`, `MoveList`, `CAPACITY`, `Fast`, `Reference`),
//! re-exported at the game's root (`twinsim_fast::<game>::MoveList` is this list in every game).

use super::typed::{SeededDice, Typed};
use crate::game::{FieldHasher, Players, SearchGame};
use std::hash::{Hash, Hasher};
use twinsim_reference::game::PlayerId;
use twinsim_reference::olymbits as r;
pub use twinsim_reference::olymbits::Action;

/// The fast state with the referee's generator. The root's [`super::State`] is the same
/// struct, generic over its dice (`State<D = RefereeDice>`): written without a parameter, it is
/// this type.
pub type State = super::State;
/// The fast twin's typed API (the referee's dice; [`super::SearchOlymbits`] has search dice).
pub type Fast = super::FastOlymbits;
/// The reference twin's typed API.
#[cfg(feature = "reference-twin")]
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

    /// A [`FieldHasher`] fold of the generator (the future mini-games and skating orders are
    /// drawn from it, so it is part of the future; a search that reseeds its dice gets new
    /// hashes), the league, the turn, the active players, the end, the medals and the
    /// mini-games: every slot field, with an archery wind or diving goal sequence hashed as
    /// what is left of it (`seq[head..len]`: the fast twin advances `head` where the
    /// reference drops the sequence's front, so only the rest is the position). The last
    /// turn's log (`TurnLog`) is left out: it only rebuilds that turn's events and is not
    /// carried by the conversion from the reference.
    fn hash(state: &super::State<D>) -> u64 {
        let mut h = FieldHasher::default();
        state.rng.hash(&mut h);
        state.league.hash(&mut h);
        (state.turn, state.active, state.end, state.nb_games, state.medals).hash(&mut h);
        for g in &state.games {
            (g.kind, g.should_reset, g.resetting, g.dead, g.a, g.b).hash(&mut h);
            g.seq[(g.head as usize).min(g.len as usize)..g.len as usize].hash(&mut h);
            (g.directions, g.timer, g.track, g.track_id, g.finished, g.rank).hash(&mut h);
        }
        h.finish()
    }
}

/// [`SearchGame::hash`] of the reference twin: the fast hash of the converted state (the same
/// generator, the referee's).
#[cfg(feature = "reference-twin")]
pub(crate) fn reference_hash(state: &r::State) -> u64 {
    <Fast as SearchGame>::hash(&State::from(state))
}
