//! Zuniq, the fast twin: walls as one 60-bit set, cells as a 25-bit set, zone closure by a
//! bit-parallel flood fill with early exit, used sizes and dead walls as masks, legal moves as
//! one 60-bit mask, an incremental zobrist hash that folds dead walls into their fixed state.
//!
//! Every operation names its reference twin ([`twinsim_reference::zuniq`]) and is checked against
//! it: tables entry by entry, quickcheck properties over random playouts, the differential check
//! `check::game_diff` (built with the `testing` feature) that the fuzz target and the regression
//! test drive, and the traces.

pub mod api;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod bench;
pub mod board;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod check;
pub mod engine;
pub mod tables;
pub mod typed;

#[cfg(test)]
mod tests;

pub use board::{Board, Check, Links};
pub use typed::{FastZuniq, State};

use twinsim_reference::game::TraceEngine;

/// The text-level fast engine for replay and verification.
pub fn engine() -> Option<&'static dyn TraceEngine> {
    Some(&engine::ENGINE)
}

/// Legal move sequences of length `depth` from `board` (walls only). Twin of
/// [`twinsim_reference::zuniq::rules::perft`].
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(board.legal_mask().count_ones()),
        _ => {
            let mut legal = board.legal_mask();
            let mut count = 0;
            while legal != 0 {
                let w = legal.trailing_zeros() as usize;
                legal &= legal - 1;
                let mut child = *board;
                child.place(w, board.cut(w));
                count += perft(&child, depth - 1);
            }
            count
        }
    }
}

/// A tiny deterministic generator (xorshift64*) for playouts and benchmarks.
#[derive(Clone, Copy, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n` (n > 0).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) * u64::from(n)) >> 32) as u32
    }
}

/// The `k`-th set bit of `mask` (k < popcount).
#[inline]
pub fn nth_bit(mut mask: u64, k: u32) -> usize {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

/// Plays one uniformly random game (legal walls only) from `board` to its end; returns the
/// final board. Rejection sampling, as the 2021 winner did: draw a live free wall uniformly,
/// keep it if legal, else draw again (uniform over the legal walls); the end test stops at the
/// first legal wall. Twin: the same game loop over
/// [`twinsim_reference::zuniq::rules::legal_walls`].
pub fn random_game(mut board: Board, rng: &mut Rng) -> Board {
    loop {
        let links = Links::of(board.walls);
        if !board.has_legal_move_with(&links) {
            return board;
        }
        let mut live = tables::ALL_WALLS & !board.walls & !board.dead;
        loop {
            let w = nth_bit(live, rng.below(live.count_ones()));
            match board.check_with(&links, w) {
                Check::Legal(cut) => {
                    board.place(w, cut);
                    break;
                }
                // Illegal now (a used size): draw among the others.
                _ => live &= !(1 << w),
            }
        }
    }
}
