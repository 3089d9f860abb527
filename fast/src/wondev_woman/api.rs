//! Wondev Woman's face in the shared search API ([`SearchGame`]): the same names in every
//! `twinsim_fast::<game>::api` (`State`, `Action`, `MoveList`, `CAPACITY`, `Fast`, `Reference`),
//! re-exported at the game's root (`twinsim_fast::<game>::MoveList` is this list in every game).

pub use super::board::State;
use super::movegen::{self, legal};
use crate::game::{Players, SearchGame, UndoGame};
use twinsim_reference::game::PlayerId;
use twinsim_reference::game::StepError;
pub use twinsim_reference::wondev_woman::state::Action;

/// The fast twin's typed API.
pub type Fast = super::FastWondevWoman;
/// The reference twin's typed API.
#[cfg(feature = "reference-twin")]
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

    /// The incremental zobrist hash ([`State::hash_from_scratch`]): heights, units with one key
    /// per player and cell, side to move, scores, dead flags. Left out, and why:
    /// - which of a player's two units stands where: swapping a player's unit ids keeps the
    ///   hash (the post-mortem's pawn-permutation symmetry); the future is the same up to the
    ///   renaming of the unit index in the actions, and the alpha-beta's move ids follow the
    ///   cell a unit stands on, not its id;
    /// - the round: every action but `ACCEPT-DEFEAT` builds one floor, so within a game the
    ///   heights already count the actions played; two positions of one game with equal
    ///   hashes can differ in round only when an elimination came at different times, and
    ///   then only the 200-round limit (§3) could tell them apart;
    /// - the Wood 3 `won` flags (set at a round boundary from the units' heights), the end
    ///   reason, the action records (they feed only the trace's events) and the map and
    ///   league parameters (fixed at setup).
    fn hash(state: &State) -> u64 {
        state.hash
    }
}

/// Make/unmake: `play_undoable` is `step`'s checks and body (`check_turn`, then
/// `typed::apply_raising`, so the
/// same validation and result), with the changed fields saved before ([`movegen::Undo`], a
/// few dozen bytes: units, scores, turn, end, records, hash) and the raised cell noted;
/// `undo` is [`movegen::unmake`] (lowers that cell, restores the rest).
impl UndoGame for Fast {
    type Undo = movegen::Undo;

    fn play_undoable(
        state: &mut State,
        joint: &[Option<Action>],
    ) -> Result<movegen::Undo, StepError> {
        twinsim_reference::game::check_turn::<Self>(state, joint)?;
        let mut undo = movegen::Undo::before(state);
        undo.raised = super::typed::apply_raising(state, joint)?;
        Ok(undo)
    }

    fn undo(state: &mut State, undo: &movegen::Undo) {
        movegen::unmake(state, undo);
    }
}

/// The rulebook's undo is the simplest one: the whole state saved before the turn (a clone
/// with its heights grid and last turn), put back by `undo`. Readable, not fast.
#[cfg(feature = "reference-twin")]
impl UndoGame for Reference {
    type Undo = twinsim_reference::wondev_woman::State;

    fn play_undoable(
        state: &mut Self::State,
        joint: &[Option<Action>],
    ) -> Result<Self::Undo, StepError> {
        let before = state.clone();
        <Self as SearchGame>::play(state, joint)?;
        Ok(before)
    }

    fn undo(state: &mut Self::State, undo: &Self::Undo) {
        state.clone_from(undo);
    }
}

/// [`SearchGame::hash`] of the reference twin: the same zobrist hash as
/// [`State::hash_from_scratch`], computed from the reference state (cell `y * 8 + x`, the fast
/// twin's keys) without converting the whole state.
#[cfg(feature = "reference-twin")]
pub(crate) fn reference_hash(state: &twinsim_reference::wondev_woman::State) -> u64 {
    use super::board::{cell, KEYS};
    let mut hash = 0;
    for (y, row) in state.heights.iter().enumerate().take(7) {
        for (x, h) in row.iter().enumerate().take(7) {
            if let Some(h) = h {
                hash ^= KEYS.height[y * 8 + x][(*h).min(4) as usize];
            }
        }
    }
    for (p, units) in state.units.iter().enumerate() {
        for &u in units {
            hash ^= KEYS.unit[p][cell(u) as usize];
        }
    }
    hash ^= KEYS.side[state.to_move.map_or(2, |p| p.min(1))];
    for p in 0..2 {
        hash ^= KEYS.score[p][(state.scores[p] & 511) as usize];
        if state.dead[p] {
            hash ^= KEYS.dead[p];
        }
    }
    hash
}
