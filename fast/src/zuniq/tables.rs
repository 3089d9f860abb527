//! Index tables, built at compile time.
//!
//! Wall index (elkasimi's numbering, rules doc §2): horizontal `Xnh` → `5*row + (n-1)` (0..29),
//! vertical `Xnv` → `30 + 6*row + (n-1)` (30..59). Cell index: `5*row + col` (0..24). With these,
//! the horizontal walls of dot row r+1 sit exactly 5 bits above the cells of row r.
//!
//! Reference twin of every table: [`twinsim_reference::zuniq::board`] (`Wall::sides`,
//! `Cell::walls`, `all_walls`), checked entry by entry in the tests.

/// No cell (the OUTSIDE side of a border wall).
pub const NONE: u8 = 255;
/// All 60 wall bits.
pub const ALL_WALLS: u64 = (1 << 60) - 1;
/// All 25 cell bits.
pub const ALL_CELLS: u32 = (1 << 25) - 1;

/// (row, col, vertical) of a wall index.
pub const fn wall_coords(w: usize) -> (usize, usize, bool) {
    if w < 30 {
        (w / 5, w % 5, false)
    } else {
        ((w - 30) / 6, (w - 30) % 6, true)
    }
}

/// The index of wall (row, col, vertical); the coordinates must exist.
pub const fn wall_index(row: usize, col: usize, vertical: bool) -> usize {
    if vertical {
        30 + 6 * row + col
    } else {
        5 * row + col
    }
}

const fn build_sides() -> [[u8; 2]; 60] {
    let mut t = [[NONE; 2]; 60];
    let mut w = 0;
    while w < 60 {
        let (r, c, v) = wall_coords(w);
        let (a, b) = if v {
            (if c > 0 { 5 * r + c - 1 } else { 255 }, if c < 5 { 5 * r + c } else { 255 })
        } else {
            (if r > 0 { 5 * (r - 1) + c } else { 255 }, if r < 5 { 5 * r + c } else { 255 })
        };
        // The first side is always a cell: for a border wall, its only cell.
        if a == 255 {
            t[w] = [b as u8, NONE];
        } else {
            t[w] = [a as u8, b as u8];
        }
        w += 1;
    }
    t
}

/// The cells next to each wall: `[a, b]`, `b` = [`NONE`] for a border wall (then `a` is its
/// only cell). Twin of `Wall::sides`.
pub const SIDES: [[u8; 2]; 60] = build_sides();

const fn build_cell_walls() -> [u64; 25] {
    let mut t = [0u64; 25];
    let mut cell = 0;
    while cell < 25 {
        let (r, c) = (cell / 5, cell % 5);
        t[cell] = (1 << wall_index(r, c, false))
            | (1 << wall_index(r + 1, c, false))
            | (1 << wall_index(r, c, true))
            | (1 << wall_index(r, c + 1, true));
        cell += 1;
    }
    t
}

/// The four walls of each cell, as a wall mask. Twin of `Cell::walls`.
pub const CELL_WALLS: [u64; 25] = build_cell_walls();

const fn build_border() -> u64 {
    let mut m = 0u64;
    let mut w = 0;
    while w < 60 {
        if SIDES[w][1] == NONE {
            m |= 1 << w;
        }
        w += 1;
    }
    m
}

/// The 20 border walls. Twin of `Wall::is_border`.
pub const BORDER: u64 = build_border();

const fn build_ascii_order() -> [u8; 60] {
    // Names sort by row letter, column digit, then h before v.
    let mut t = [0u8; 60];
    let mut i = 0;
    let mut r = 0;
    while r < 6 {
        let mut c = 0;
        while c < 6 {
            if c < 5 {
                t[i] = wall_index(r, c, false) as u8;
                i += 1;
            }
            if r < 5 {
                t[i] = wall_index(r, c, true) as u8;
                i += 1;
            }
            c += 1;
        }
        r += 1;
    }
    t
}

/// Wall indices in ASCII order of their names (the traces' order). Twin of `all_walls`.
pub const ASCII_ORDER: [u8; 60] = build_ascii_order();

/// The name of a wall index, e.g. `A1h`, as bytes.
pub const fn wall_name(w: usize) -> [u8; 3] {
    let (r, c, v) = wall_coords(w);
    [b'A' + r as u8, b'1' + c as u8, if v { b'v' } else { b'h' }]
}

use crate::rng::splitmix64 as splitmix;

const fn build_keys<const N: usize>(salt: u64) -> [u64; N] {
    let mut t = [0u64; N];
    let mut i = 0;
    while i < N {
        t[i] = splitmix(salt.wrapping_mul(1_000_003).wrapping_add(i as u64));
        i += 1;
    }
    t
}

/// Zobrist keys: one per wall in its fixed state (placed, or dead inside a closed zone).
pub const Z_WALL: [u64; 60] = build_keys(1);
/// One per used zone size (index = size, 1..=25).
pub const Z_SIZE: [u64; 26] = build_keys(2);
/// One per (player, claim ply): index `64 * player + ply`.
pub const Z_CLAIM: [u64; 128] = build_keys(3);
/// Black to move.
pub const Z_BLACK: u64 = splitmix(0xB1AC);

const fn build_cell_border() -> [u64; 25] {
    let mut t = [0u64; 25];
    let mut cell = 0;
    while cell < 25 {
        t[cell] = CELL_WALLS[cell] & BORDER;
        cell += 1;
    }
    t
}

/// The border walls of each cell (none for inner cells, two for corners).
pub const CELL_BORDER: [u64; 25] = build_cell_border();
