//! The Voronoi evaluation by bit-parallel breadth-first search: both sides' frontiers grow one
//! step at a time as 64-bit masks, the side to move taking the cells both reach together; no
//! queue, no visited array to clear, no allocation (twin:
//! [`twinsim_reference::wondev_woman::bot::eval`]).

use crate::wondev_woman::board::{State, KING, NONE};
use twinsim_reference::wondev_woman::bot::eval::Voronoi;

/// All 8-neighbours of the cells of `m` (padding column 7 and row 7 hold no cell, so shifts
/// that wrap land on cells the caller masks out).
#[inline(always)]
fn dilate(m: u64) -> u64 {
    (m << 1) | (m >> 1) | (m << 8) | (m >> 8) | (m << 7) | (m >> 7) | (m << 9) | (m >> 9)
}

/// One step of the movement graph from `frontier`: neighbours at most one level above the cell
/// they are reached from (a unit never stands on a dome).
#[inline(always)]
fn step_exact(s: &State, frontier: u64) -> u64 {
    let le = &s.le;
    (dilate(frontier & le[0]) & le[1])
        | (dilate(frontier & le[1] & !le[0]) & le[2])
        | (dilate(frontier & !le[1]) & le[3])
}

/// Voronoi counts and accessible neighbours (twin: `eval::voronoi`).
pub fn voronoi(s: &State) -> Voronoi {
    let occ = s.occupied();
    let passable = s.le[3] & !occ;
    let mut f = [s.units_of(0), s.units_of(1)];
    let mover = if s.to_move == 1 { 1 } else { 0 };
    let mut seen = occ;
    let mut owned = [0u32; 2];
    while f[0] | f[1] != 0 {
        let mut n0 = step_exact(s, f[0]) & passable & !seen;
        let mut n1 = step_exact(s, f[1]) & passable & !seen;
        if mover == 0 {
            n1 &= !n0;
        } else {
            n0 &= !n1;
        }
        owned[0] += n0.count_ones();
        owned[1] += n1.count_ones();
        seen |= n0 | n1;
        f = [n0, n1];
    }
    let mut access = [0u32; 2];
    for (g, &u) in s.units.iter().enumerate() {
        if u != NONE {
            let reach = KING[u as usize] & passable & s.at_most(s.h[u as usize] + 1);
            access[g / 2] += reach.count_ones();
        }
    }
    Voronoi { owned, access }
}

/// `2 * voronoi difference + score difference + accessible neighbours difference` for player 0
/// (twin: `eval::evaluate`).
pub fn evaluate(s: &State) -> i32 {
    let v = voronoi(s);
    2 * (v.owned[0] as i32 - v.owned[1] as i32)
        + (s.scores[0] - s.scores[1])
        + (v.access[0] as i32 - v.access[1] as i32)
}
