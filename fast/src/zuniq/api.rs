//! Zuniq's face in the shared search API ([`SearchGame`]): the same names in every
//! `twinsim_fast::<game>::api` (`State`, `Action`, `MoveList`, `CAPACITY`, `Fast`, `Reference`),
//! re-exported at the game's root (`twinsim_fast::<game>::MoveList` is this list in every game).

use super::tables::ASCII_ORDER;
use super::typed::wall_of;
pub use super::typed::State;
use crate::game::{Players, SearchGame};
use twinsim_reference::game::PlayerId;
pub use twinsim_reference::zuniq::Action;

/// The fast twin's typed API.
pub type Fast = super::FastZuniq;
/// The reference twin's typed API.
#[cfg(feature = "reference-twin")]
pub type Reference = twinsim_reference::zuniq::Zuniq;

/// Legal walls never exceed the 60 walls of the board (§2).
pub const CAPACITY: usize = 60;

/// One player's legal actions, without allocation.
pub type MoveList = crate::game::MoveList<Action, CAPACITY>;

impl SearchGame for Fast {
    type MoveList = MoveList;

    fn to_act(state: &State) -> Players {
        if state.finished {
            Players::NONE
        } else {
            Players::one(state.board.to_move())
        }
    }

    /// The legal-wall mask walked in ASCII order of the names, as `legal_actions` lists them.
    fn legal_moves(state: &State, player: PlayerId, moves: &mut MoveList) {
        moves.clear();
        if state.finished || player != state.board.to_move() {
            return;
        }
        let legal = state.board.legal_mask();
        for &w in ASCII_ORDER.iter().filter(|&&w| legal >> w & 1 == 1) {
            moves.push(Action { wall: wall_of(w as usize), claim: false });
        }
    }

    /// The board's incremental zobrist hash ([`super::Board::hash`]): fixed walls (placed or
    /// dead), used zone sizes, side to move, claims. Positions that differ only by dead walls
    /// share it on purpose (a dead wall can never be placed, so the future is the same: the
    /// 2021 winner's transposition table). `finished`, `winner` and `end` are left out: in a
    /// game played by `play` the game ends exactly when the board has no legal wall, and the
    /// winner is then the last mover, both functions of the hashed board (§8's forfeits are
    /// applied only by the text engine).
    fn hash(state: &State) -> u64 {
        state.board.hash
    }
}

/// [`SearchGame::hash`] of the reference twin: the fast hash of the converted board
/// (`Board::from_walls`: a flood fill and a hash from scratch). A hash of its own (of the wall
/// set, say) would merge fewer positions than the fast twin's and break the twins' equality of
/// search statistics.
#[cfg(feature = "reference-twin")]
pub(crate) fn reference_hash(state: &twinsim_reference::zuniq::State) -> u64 {
    State::from(state).board.hash
}
