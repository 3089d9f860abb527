//! Path searches on 49-bit boards (bit `y * 7 + x`). Twins of the reference's BFS
//! ([`twinsim_reference::xmas_rush::rules::reachable`], `step_target`).

use super::board::State;

/// Cells not in column 6.
const NOT_LAST_COLUMN: u64 = {
    let mut m = 0u64;
    let mut c = 0;
    while c < 49 {
        if c % 7 != 6 {
            m |= 1 << c;
        }
        c += 1;
    }
    m
};
/// Cells not in row 6.
const NOT_LAST_ROW: u64 = (1 << 42) - 1;

/// The edges of the board graph: `right` bit `c` = a valid step between `c` and `c + 1`;
/// `down` bit `c` = between `c` and `c + 7` (rules doc §7.2: both tiles open towards each other).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edges {
    /// Bit `c` (never in column 6): cells `c` and `c + 1` are connected.
    pub right: u64,
    /// Bit `c` (never in row 6): cells `c` and `c + 7` are connected.
    pub down: u64,
}

/// The board's edges.
#[inline]
pub fn edges(s: &State) -> Edges {
    let open = &s.open;
    Edges {
        right: open[1] & (open[3] >> 1) & NOT_LAST_COLUMN,
        down: open[2] & (open[0] >> 7) & NOT_LAST_ROW,
    }
}

/// The cells of `reach` and every cell one valid step from one of them: one layer of a
/// breadth-first search (so `k` calls from a start give the cells within `k` steps: twin of the
/// path lengths of [`twinsim_reference::xmas_rush::rules::shortest_paths`]).
#[inline]
pub fn flood_step(e: Edges, reach: u64) -> u64 {
    reach
        | ((reach & e.right) << 1)
        | ((reach >> 1) & e.right)
        | ((reach & e.down) << 7)
        | ((reach >> 7) & e.down)
}

/// Flood fill from the cells of `start` (twin of
/// [`twinsim_reference::xmas_rush::rules::reachable`], as a set).
#[inline]
pub fn flood(e: Edges, start: u64) -> u64 {
    let mut reach = start;
    loop {
        let next = flood_step(e, reach);
        if next == reach {
            return reach;
        }
        reach = next;
    }
}

/// Every cell reachable from `(x, y)` this MOVE turn, as a 49-bit set (includes the start).
/// Twin of [`twinsim_reference::xmas_rush::rules::reachable`].
#[inline]
pub fn reachable(s: &State, x: usize, y: usize) -> u64 {
    flood(edges(s), 1 << (y * 7 + x))
}

/// The cell one valid step from cell `c` towards `d`, if the step is valid (twin of
/// [`twinsim_reference::xmas_rush::rules::step_target`]).
#[inline]
pub fn step(e: Edges, c: u8, d: u8) -> Option<u8> {
    let bit = |b: u64, i: u8| b >> i & 1 == 1;
    match d {
        0 => (c >= 7 && bit(e.down, c - 7)).then(|| c - 7),
        1 => (c < 49 && bit(e.right, c)).then(|| c + 1),
        2 => (c < 42 && bit(e.down, c)).then(|| c + 7),
        // Column 0 has no left neighbour: `right` is clear for column 6, the cell before it.
        _ => (c > 0 && bit(e.right, c - 1)).then(|| c - 1),
    }
}
