//! Photosynthesis' face in the shared search API ([`SearchGame`]): the same names in every
//! `twinsim_fast::<game>::api` (`State`, `Action`, `MoveList`, `CAPACITY`, `Fast`, `Reference`),
//! re-exported at the game's root (`twinsim_fast::<game>::MoveList` is this list in every game).
//!
//! `MoveList` is the list of typed actions; the move generator's own list of 16-bit moves,
//! which fills it, is [`super::CompactMoves`].

pub use super::state::State;
use crate::game::{Players, SearchGame};
use twinsim_reference::game::PlayerId;
pub use twinsim_reference::photosynthesis::Action;

/// The fast twin's typed API.
pub type Fast = super::FastPhotosynthesis;
/// The reference twin's typed API.
#[cfg(feature = "reference-twin")]
pub type Reference = twinsim_reference::photosynthesis::Photosynthesis;

/// The compact generator's own bound on a legal list.
pub const CAPACITY: usize = super::MAX_MOVES;

/// One player's legal actions, without allocation.
pub type MoveList = crate::game::MoveList<Action, CAPACITY>;

impl SearchGame for Fast {
    type MoveList = MoveList;

    fn to_act(state: &State) -> Players {
        (0..2).filter(|&p| state.is_asked(p)).fold(Players::NONE, Players::with)
    }

    fn legal_moves(state: &State, player: PlayerId, moves: &mut MoveList) {
        moves.clear();
        let mut compact = super::CompactMoves::default();
        state.legal_moves(player, &mut compact);
        for m in compact.as_slice() {
            moves.push(m.action());
        }
    }

    /// The Zobrist hash ([`State::zobrist`]: kept incrementally in search mode, computed in
    /// exact states): trees (cell, size, owner),
    /// dormant flags, day, sun direction, nutrients, both players' sun and score, and the
    /// waiting / disqualified / game-over flags: everything the rules read. Left out, and why:
    /// - the holes and the league: fixed at setup, so equal for every state of one game, which
    ///   is all a search compares;
    /// - the shadows: a function of the trees and the sun direction;
    /// - the generator (`rng`, `pending`) and `exact_views`: the shuffles decide only the
    ///   printed order of the referee's action lists (§6.1), never the rules nor the legal
    ///   lists of this API, which come in the generator's own order;
    /// - `executions`: the frame counter of the traces (§11); no rule reads it.
    fn hash(state: &State) -> u64 {
        state.zobrist()
    }
}

/// [`SearchGame::hash`] of the reference twin: the fast hash of the converted state, so both
/// twins merge exactly the same states of a beam layer.
#[cfg(feature = "reference-twin")]
pub(crate) fn reference_hash(state: &twinsim_reference::photosynthesis::State) -> u64 {
    State::from(state).zobrist()
}
