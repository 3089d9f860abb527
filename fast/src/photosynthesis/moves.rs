//! Actions, compactly: a move in 16 bits and a fixed-capacity list of them, [`CompactMoves`]
//! (the generator's own list; the search API's list of typed actions is [`super::MoveList`]).

use twinsim_reference::photosynthesis::Action;

/// An action packed in 16 bits: kind (0 WAIT, 1 GROW, 2 COMPLETE, 3 SEED) << 12 | source << 6
/// | target. Only for cells 0..36 (legal actions); arbitrary actions use [`Action`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

impl Move {
    /// `WAIT`.
    pub const WAIT: Move = Move(0);
    /// `GROW c`.
    #[inline]
    pub fn grow(c: usize) -> Move {
        Move(1 << 12 | c as u16)
    }
    /// `COMPLETE c`.
    #[inline]
    pub fn complete(c: usize) -> Move {
        Move(2 << 12 | c as u16)
    }
    /// `SEED s t`: from the tree on `s` to the empty cell `t`.
    #[inline]
    pub fn seed(s: usize, t: usize) -> Move {
        Move(3 << 12 | (s as u16) << 6 | t as u16)
    }
    /// The reference action.
    pub fn action(self) -> Action {
        let t = (self.0 & 63) as i32;
        let s = ((self.0 >> 6) & 63) as i32;
        match self.0 >> 12 {
            1 => Action::Grow(t),
            2 => Action::Complete(t),
            3 => Action::Seed(s, t),
            _ => Action::Wait,
        }
    }
}

/// Upper bound of a legal list: WAIT + 37 + trees × empty cells (≤ 18 · 19).
pub const MAX_MOVES: usize = 400;

/// A fixed-capacity list of compact moves (no allocation): what the move generator
/// ([`super::State::legal_moves`]) fills.
#[derive(Clone, Debug)]
pub struct CompactMoves {
    /// Moves in use: `moves[..len]`.
    pub len: usize,
    /// The storage (entries past `len` are stale).
    pub moves: [Move; MAX_MOVES],
}

impl Default for CompactMoves {
    fn default() -> Self {
        CompactMoves { len: 0, moves: [Move::WAIT; MAX_MOVES] }
    }
}

impl CompactMoves {
    /// The moves.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}
