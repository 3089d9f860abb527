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
#[cfg(feature = "json")]
pub mod engine;
pub mod tables;
pub mod typed;

#[cfg(test)]
mod tests;

#[cfg(feature = "reference-twin")]
pub use api::Reference;
pub use api::{Action, Fast, MoveList, State, CAPACITY};
pub use board::{Board, Check, Links};
#[cfg(feature = "json")]
pub use engine::{engine, FastEngine, FastPlay, ENGINE};
pub use typed::FastZuniq;

/// Legal move sequences of length `depth` from `board` (walls only). Twin of
/// [`twinsim_reference::game::typed_perft`].
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(board.legal_mask().count_ones()),
        _ => {
            let (mut legal, quiet) = board.legal_quiet();
            let mut count = 0;
            while legal != 0 {
                let w = legal.trailing_zeros() as usize;
                legal &= legal - 1;
                let mut child = *board;
                child.place(w, if quiet >> w & 1 == 1 { 0 } else { board.cut(w) });
                count += perft(&child, depth - 1);
            }
            count
        }
    }
}

/// A tiny deterministic generator (xorshift64*) for playouts and benchmarks.
pub use crate::rng::XorShift64Star as Rng;

/// The `k`-th set bit of `mask` (k < popcount). The trick: popcounts of the low half, quarter
/// and byte pick the byte that holds it in three branch-free steps; at most seven bits are then
/// cleared in that byte (the plain loop clears up to 59).
#[inline]
pub fn nth_bit(mask: u64, mut k: u32) -> usize {
    let (mut m, mut base) = (mask, 0);
    let lo = (m as u32).count_ones();
    if k >= lo {
        (k, m, base) = (k - lo, m >> 32, 32);
    }
    let lo = (m as u16).count_ones();
    if k >= lo {
        (k, m, base) = (k - lo, m >> 16, base + 16);
    }
    let lo = (m as u8).count_ones();
    if k >= lo {
        (k, m, base) = (k - lo, m >> 8, base + 8);
    }
    for _ in 0..k {
        m &= m - 1;
    }
    base + m.trailing_zeros() as usize
}

/// Plays one uniformly random game (legal walls only) from `board` to its end; returns the
/// final board. Rejection sampling, as the 2021 winner did: draw a live free wall uniformly,
/// keep it if legal, else draw again among the others (uniform over the legal walls); the
/// game ends when every live wall has been refused. A wall on one of its local cycles
/// ([`Board::quiet_wall`], table lookups, no links) is legal with nothing cut; the others go
/// to an out-of-line loop that computes the links once. Twin: the same game loop over
/// [`twinsim_reference::zuniq::rules::legal_walls`].
pub fn random_game(mut board: Board, rng: &mut Rng) -> Board {
    loop {
        let live = tables::ALL_WALLS & !board.walls & !board.dead;
        if live == 0 {
            return board;
        }
        let w = draw(live, rng);
        if board.quiet_wall(w) {
            board.place(w, 0);
            continue;
        }
        match checked_draw(&board, live, w, rng) {
            Some((w, cut)) => board.place(w, cut),
            None => return board,
        }
    }
}

/// A wall drawn uniformly from `live` (not empty). While most walls are live, a wall index
/// drawn from 0..60 until it is live takes fewer instructions than selecting the k-th bit.
#[inline(always)]
fn draw(live: u64, rng: &mut Rng) -> usize {
    let n = live.count_ones();
    if n >= 40 {
        loop {
            let w = rng.below(60) as usize;
            if live >> w & 1 == 1 {
                return w;
            }
        }
    }
    nth_bit(live, rng.below(n))
}

/// The rest of one ply of [`random_game`] after drawing `w` (live, not known quiet): checks it
/// and draws again among the others until one is legal (`None`: none is, the game is over).
#[inline(never)]
fn checked_draw(board: &Board, mut live: u64, mut w: usize, rng: &mut Rng) -> Option<(usize, u32)> {
    let links = Links::of(board.walls);
    loop {
        if let Check::Legal(cut) = board.check_with(&links, w) {
            return Some((w, cut));
        }
        // Illegal now (a used size): draw among the others.
        live &= !(1 << w);
        if live == 0 {
            return None;
        }
        w = draw(live, rng);
        if board.quiet_wall(w) {
            return Some((w, 0));
        }
    }
}
