//! Precomputed geometry, built at compile time by `const fn`s that restate §1 of the rules doc
//! (spiral numbering, six directions, hex distance) and tested entry by entry against the
//! reference's `board` functions (see the tests at the bottom).

/// Number of cells.
pub const N: usize = 37;
/// Mask of all 37 cells.
pub const ALL: u64 = (1u64 << N) - 1;

const DIRS: [(i32, i32, i32); 6] =
    [(1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1)];

const fn build_coords() -> [(i32, i32, i32); N] {
    let mut out = [(0, 0, 0); N];
    let mut next = 1;
    let mut cur = DIRS[0];
    let mut ring = 1;
    while ring <= 3 {
        let mut o = 0;
        while o < 6 {
            let mut k = 0;
            while k < ring {
                out[next] = cur;
                next += 1;
                let d = DIRS[(o + 2) % 6];
                cur = (cur.0 + d.0, cur.1 + d.1, cur.2 + d.2);
                k += 1;
            }
            o += 1;
        }
        cur = (cur.0 + DIRS[0].0, cur.1 + DIRS[0].1, cur.2 + DIRS[0].2);
        ring += 1;
    }
    out
}

/// Cube coordinates by cell index (twin of `twinsim_reference::photosynthesis::board::coord`).
pub const COORDS: [(i32, i32, i32); N] = build_coords();

const fn find(c: (i32, i32, i32)) -> i32 {
    let mut i = 0;
    while i < N {
        if COORDS[i].0 == c.0 && COORDS[i].1 == c.1 && COORDS[i].2 == c.2 {
            return i as i32;
        }
        i += 1;
    }
    -1
}

const fn abs(x: i32) -> i32 {
    if x < 0 {
        -x
    } else {
        x
    }
}

const fn dist(a: usize, b: usize) -> i32 {
    let (p, q) = (COORDS[a], COORDS[b]);
    (abs(p.0 - q.0) + abs(p.1 - q.1) + abs(p.2 - q.2)) / 2
}

const fn build_neighbours() -> [[i8; 6]; N] {
    let mut out = [[-1i8; 6]; N];
    let mut i = 0;
    while i < N {
        let mut d = 0;
        while d < 6 {
            let c = COORDS[i];
            out[i][d] = find((c.0 + DIRS[d].0, c.1 + DIRS[d].1, c.2 + DIRS[d].2)) as i8;
            d += 1;
        }
        i += 1;
    }
    out
}

/// Neighbour of each cell in each direction, −1 off the board (twin of `board::neighbour`).
pub const NEIGHBOURS: [[i8; 6]; N] = build_neighbours();

const fn build_mirror() -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        let c = COORDS[i];
        out[i] = find((-c.0, -c.1, -c.2)) as u8;
        i += 1;
    }
    out
}

/// Mirror cell (twin of `board::mirror`).
pub const MIRROR: [u8; N] = build_mirror();

const fn build_within() -> [[u64; 4]; N] {
    let mut out = [[0u64; 4]; N];
    let mut i = 0;
    while i < N {
        let mut j = 0;
        while j < N {
            let d = dist(i, j);
            let mut k = 0;
            while k < 4 {
                if d <= k as i32 {
                    out[i][k] |= 1u64 << j;
                }
                k += 1;
            }
            j += 1;
        }
        i += 1;
    }
    out
}

/// `WITHIN[c][d]`: cells at hex distance ≤ d of c (c included) (twin of `board::distance`).
pub const WITHIN: [[u64; 4]; N] = build_within();

/// [`WITHIN`] padded with empty rows to 65: indexed by a mask's `trailing_zeros` (at most 64,
/// which the compiler knows), a lookup needs no bounds check (two instructions a source tree in
/// the seed count of `State::group_counts`, which every exact frame makes).
pub const WITHIN_BY_ZEROS: [[u64; 4]; 65] = {
    let mut out = [[0u64; 4]; 65];
    let mut i = 0;
    while i < N {
        out[i] = WITHIN[i];
        i += 1;
    }
    out
};

const fn build_shadow() -> [[[u64; 4]; N]; 6] {
    let mut out = [[[0u64; 4]; N]; 6];
    let mut dir = 0;
    while dir < 6 {
        let mut i = 0;
        while i < N {
            let mut s = 1;
            while s < 4 {
                let mut mask = 0u64;
                let mut k = 1;
                while k <= s {
                    let c = COORDS[i];
                    let t =
                        find((c.0 + k * DIRS[dir].0, c.1 + k * DIRS[dir].1, c.2 + k * DIRS[dir].2));
                    if t >= 0 {
                        mask |= 1u64 << t;
                    }
                    k += 1;
                }
                out[dir][i][s as usize] = mask;
                s += 1;
            }
            i += 1;
        }
        dir += 1;
    }
    out
}

/// `SHADOW[dir][c][s]`: the cells a size-s tree on c shadows when the sun points to `dir`
/// (twin of `rules::compute_shadows` for a single tree).
pub const SHADOW: [[[u64; 4]; N]; 6] = build_shadow();

/// The shadows of any set of trees of one size, by bytes of their mask:
/// `SHADE_BYTES[d][s - 1][i][b]` holds the cells shaded, when the sun points to d, by trees of
/// size s on the cells of byte i of a mask (cells 8i..8i + 7) whose byte is b. Five lookups
/// cast the shadows of every tree of a size (the end of day's three sizes: about 40
/// instructions, where a loop over the trees costs 6 a tree, 13 trees in an average position
/// reached in play). 180 KiB, of which a day of a search reads one direction's 30 KiB.
pub(super) static SHADE_BYTES: [[[[u64; 256]; 5]; 3]; 6] = {
    let mut out = [[[[0u64; 256]; 5]; 3]; 6];
    let mut d = 0;
    while d < 6 {
        let mut s = 0;
        while s < 3 {
            let mut i = 0;
            while i < 5 {
                // Each byte value adds its lowest tree to the byte without it.
                let mut b = 1;
                while b < 256 {
                    let c = 8 * i + (b as u32).trailing_zeros() as usize;
                    let tree = if c < N { SHADOW[d][c][s + 1] } else { 0 };
                    out[d][s][i][b] = out[d][s][i][b & (b - 1)] | tree;
                    b += 1;
                }
                i += 1;
            }
            s += 1;
        }
        d += 1;
    }
    out
};

/// `SHADE_BY_DAY[day]`: the [`SHADE_BYTES`] of the sun's direction on that day (day mod 6, §5;
/// for a direction 0..5, its own),
/// one load where `day % 6` would be a multiply and a table index a bounds check.
pub(super) static SHADE_BY_DAY: [&[[[u64; 256]; 5]; 3]; 32] = {
    let mut out: [&[[[u64; 256]; 5]; 3]; 32] = [&SHADE_BYTES[0]; 32];
    let mut day = 0;
    while day < 32 {
        out[day] = &SHADE_BYTES[day % 6];
        day += 1;
    }
    out
};

/// The cells shaded by the trees `trees` (all of one size) given that size's byte tables.
#[inline]
pub(super) fn cast_shadows(bytes: &[[u64; 256]; 5], trees: u64) -> u64 {
    bytes[0][(trees & 255) as usize]
        | bytes[1][(trees >> 8 & 255) as usize]
        | bytes[2][(trees >> 16 & 255) as usize]
        | bytes[3][(trees >> 24 & 255) as usize]
        | bytes[4][(trees >> 32 & 255) as usize]
}

/// The seed targets of a source in the referee's x/y loop order (§8), per cell and size.
#[derive(Clone, Copy, Debug)]
pub struct SeedOrder {
    /// Target cells, in loop order (the source itself included; filtered by masks at use).
    pub cells: [u8; N],
    /// How many entries of `cells` are used.
    pub len: u8,
}

const fn build_seed_order() -> [[SeedOrder; 4]; N] {
    let mut out = [[SeedOrder { cells: [0; N], len: 0 }; 4]; N];
    let mut i = 0;
    while i < N {
        let mut s = 1i32;
        while s < 4 {
            let c = COORDS[i];
            let mut len = 0usize;
            let mut x = -s;
            while x <= s {
                let lo = if -s > -x - s { -s } else { -x - s };
                let hi = if s < -x + s { s } else { -x + s };
                let mut y = lo;
                while y <= hi {
                    let t = find((c.0 + x, c.1 + y, c.2 - x - y));
                    if t >= 0 {
                        out[i][s as usize].cells[len] = t as u8;
                        len += 1;
                    }
                    y += 1;
                }
                x += 1;
            }
            out[i][s as usize].len = len as u8;
            s += 1;
        }
        i += 1;
    }
    out
}

/// `SEED_ORDER[c][s]`: the loop order of seed targets of a size-s tree on c.
pub const SEED_ORDER: [[SeedOrder; 4]; N] = build_seed_order();

const fn build_xy_cell() -> [u8; N] {
    // Cells sorted by (x, y): selection by the smallest (x, y) not yet taken.
    let mut out = [0u8; N];
    let mut taken = [false; N];
    let mut r = 0;
    while r < N {
        let mut best = N;
        let mut i = 0;
        while i < N {
            if !taken[i]
                && (best == N
                    || COORDS[i].0 < COORDS[best].0
                    || (COORDS[i].0 == COORDS[best].0 && COORDS[i].1 < COORDS[best].1))
            {
                best = i;
            }
            i += 1;
        }
        taken[best] = true;
        out[r] = best as u8;
        r += 1;
    }
    out
}

/// `XY_CELL[r]`: the cell of rank r in the order of the cube coordinates (x, y). The seed
/// loop of the referee ([`SEED_ORDER`]) runs over the offsets (dx, dy) in that order from every
/// source, so it visits its targets in increasing (x, y) rank: a mask of ranks lists them in
/// the referee's order by its set bits.
pub const XY_CELL: [u8; N] = build_xy_cell();

const fn xy_rank_bits() -> [u64; N] {
    let mut out = [0u64; N];
    let mut r = 0;
    while r < N {
        out[XY_CELL[r] as usize] = 1 << r;
        r += 1;
    }
    out
}

/// `XY_BYTES[i][b]`: the cells 8i + j (bits j of b) as a mask of (x, y) ranks ([`to_xy`]).
pub static XY_BYTES: [[u64; 256]; 5] = build_byte_tables(xy_rank_bits());

/// A mask of cells as a mask of (x, y) ranks ([`XY_CELL`]), bytewise: five lookups (the
/// rank bits are distinct, so their XOR is their union).
#[inline]
pub fn to_xy(mask: u64) -> u64 {
    bytewise(&XY_BYTES, mask)
}

const fn build_within_xy() -> [[u64; 4]; N] {
    let bits = xy_rank_bits();
    let mut out = [[0u64; 4]; N];
    let mut i = 0;
    while i < 4 * N {
        let mut m = WITHIN[i / 4][i % 4];
        while m != 0 {
            out[i / 4][i % 4] |= bits[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        i += 1;
    }
    out
}

/// [`WITHIN`] as masks of (x, y) ranks.
pub const WITHIN_XY: [[u64; 4]; N] = build_within_xy();

const fn build_richness() -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = match dist(i, 0) {
            0 | 1 => 3,
            2 => 2,
            _ => 1,
        };
        i += 1;
    }
    out
}

/// Richness before holes (twin of `board::default_richness`).
pub const DEFAULT_RICHNESS: [u8; N] = build_richness();

/// Cells of default richness 2 (ring 2) and 3 (centre and ring 1).
pub const RICH2: u64 = ((1 << 19) - 1) ^ ((1 << 7) - 1);
/// Centre and ring 1.
pub const RICH3: u64 = (1 << 7) - 1;

use crate::rng::splitmix64 as splitmix;

/// A Zobrist key for a scalar `field` holding `value` (computed, not tabled).
#[inline]
pub const fn scalar_key(field: u64, value: i64) -> u64 {
    splitmix((field << 40) ^ (value as u64 & 0xFF_FFFF_FFFF) ^ 0x5EED_0000_0000_0000)
}

/// Scalar values [`SCALAR_KEYS`] tables per field.
const SCALAR_TABLED: usize = 256;

const fn build_scalar_keys() -> [[u64; SCALAR_TABLED]; 9] {
    let mut out = [[0u64; SCALAR_TABLED]; 9];
    let mut f = 0;
    while f < 9 {
        let mut v = 0;
        while v < SCALAR_TABLED {
            out[f][v] = scalar_key(f as u64, v as i64);
            v += 1;
        }
        f += 1;
    }
    out
}

/// `SCALAR_KEYS[field][v] = scalar_key(field, v)` for v < 256: the values a game reaches
/// (day, direction, nutrients, flags; sun and score mostly) without the two multiplications.
pub static SCALAR_KEYS: [[u64; SCALAR_TABLED]; 9] = build_scalar_keys();

/// [`scalar_key`] through [`SCALAR_KEYS`] when the value is tabled (the same key either way).
#[inline]
pub fn scalar_key_tabled(field: u64, value: i64) -> u64 {
    if (value as u64) < SCALAR_TABLED as u64 {
        SCALAR_KEYS[field as usize][value as usize]
    } else {
        scalar_key(field, value)
    }
}

const fn build_cell_keys() -> [[u64; 9]; N] {
    let mut out = [[0u64; 9]; N];
    let mut i = 0;
    while i < N {
        let mut k = 1;
        while k < 9 {
            out[i][k] = splitmix((i * 16 + k) as u64 ^ 0xCE11_0000);
            k += 1;
        }
        i += 1;
    }
    out
}

/// Zobrist keys per cell and content (0 empty: no key; 1 + size·2 + owner for a tree).
pub const CELL_KEYS: [[u64; 9]; N] = build_cell_keys();

const fn build_dormant_keys() -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix(i as u64 ^ 0xD0_0000_0000);
        i += 1;
    }
    out
}

/// Zobrist keys of the dormant flag per cell.
pub const DORMANT_KEYS: [u64; N] = build_dormant_keys();

/// `out[i][b]`: the XOR of `per_cell[8i + j]` over the bits j of b: a function of a mask of
/// cells that is XOR-linear in its cells, looked up five bytes at a time ([`bytewise`]).
const fn build_byte_tables(per_cell: [u64; N]) -> [[u64; 256]; 5] {
    let mut out = [[0u64; 256]; 5];
    let mut i = 0;
    while i < 5 {
        let mut b = 0;
        while b < 256 {
            let mut k = 0;
            let mut bit = 0;
            while bit < 8 {
                if b >> bit & 1 == 1 && 8 * i + bit < N {
                    k ^= per_cell[8 * i + bit];
                }
                bit += 1;
            }
            out[i][b] = k;
            b += 1;
        }
        i += 1;
    }
    out
}

/// The XOR over the cells of `mask` of the per-cell values `tables` was built from
/// ([`build_byte_tables`]): five lookups.
#[inline]
fn bytewise(tables: &[[u64; 256]; 5], mask: u64) -> u64 {
    let b = mask.to_le_bytes();
    tables[0][b[0] as usize]
        ^ tables[1][b[1] as usize]
        ^ tables[2][b[2] as usize]
        ^ tables[3][b[3] as usize]
        ^ tables[4][b[4] as usize]
}

/// `DORMANT_BYTE_KEYS[i][b]`: the XOR of the [`DORMANT_KEYS`] of the cells 8i + j for the bits
/// j of b, so that a whole dormant mask's keys take five lookups ([`dormant_keys`]).
pub static DORMANT_BYTE_KEYS: [[u64; 256]; 5] = build_byte_tables(DORMANT_KEYS);

/// The XOR of the [`DORMANT_KEYS`] of the cells of `mask` (a mask of cells), bytewise.
#[inline]
pub fn dormant_keys(mask: u64) -> u64 {
    bytewise(&DORMANT_BYTE_KEYS, mask)
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use twinsim_reference::photosynthesis::board;

    /// The tabled keys are the computed ones: scalar keys around the tabled range (negative
    /// and large values take the computed path), dormant keys of masks bit by bit.
    #[test]
    fn tabled_keys_equal_the_computed_keys() {
        for f in 0..9 {
            for v in -300..300 {
                assert_eq!(scalar_key_tabled(f, v), scalar_key(f, v), "field {f}, value {v}");
            }
        }
        let mut m = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            m = m.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mask = m & ALL;
            let bitwise =
                (0..N).filter(|&c| mask >> c & 1 == 1).fold(0, |h, c| h ^ DORMANT_KEYS[c]);
            assert_eq!(dormant_keys(mask), bitwise, "mask {mask:#x}");
        }
    }

    #[test]
    fn geometry_tables_equal_the_reference_entry_by_entry() {
        for i in 0..N {
            let c = board::coord(i);
            assert_eq!(COORDS[i], (c.x, c.y, c.z));
            assert_eq!(MIRROR[i] as usize, board::mirror(i));
            assert_eq!(DEFAULT_RICHNESS[i], board::default_richness(i));
            assert_eq!(RICH2 >> i & 1 == 1, board::default_richness(i) == 2);
            assert_eq!(RICH3 >> i & 1 == 1, board::default_richness(i) == 3);
            for d in 0..6 {
                assert_eq!(
                    NEIGHBOURS[i][d] as i32,
                    board::neighbour(i, d).map_or(-1, |n| n as i32)
                );
            }
            for j in 0..N {
                for k in 0..4 {
                    assert_eq!(WITHIN[i][k] >> j & 1 == 1, board::distance(i, j) <= k as i32);
                }
            }
        }
        for (i, row) in WITHIN_BY_ZEROS.iter().enumerate() {
            assert_eq!(*row, if i < N { WITHIN[i] } else { [0; 4] }, "padded row {i}");
        }
    }

    #[test]
    fn shadow_table_equals_reference_shadows_of_single_trees() {
        use twinsim_reference::photosynthesis::{rules, Params, State, Tree};
        for dir in 0..6 {
            for cell in 0..N {
                for size in 1..4u8 {
                    let mut s = State::blank(0, Params::default());
                    s.sun_direction = dir;
                    s.trees.insert(cell, Tree { size, owner: 0, dormant: false });
                    rules::compute_shadows(&mut s);
                    let want: u64 = (0..N).filter(|&t| s.shadows[t] > 0).map(|t| 1u64 << t).sum();
                    assert_eq!(SHADOW[dir][cell][size as usize], want);
                }
            }
        }
    }

    /// Listing a rank mask's bits is the referee's seed loop: for every source, size and a
    /// spread of free masks, the targets in rank order are [`SEED_ORDER`]'s free cells.
    #[test]
    fn rank_masks_list_seed_targets_in_the_loop_order() {
        let mut m = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200 {
            m = m.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let free = m & ALL;
            for c in 0..N {
                for s in 1..4 {
                    let order = SEED_ORDER[c][s];
                    let want: Vec<u8> = order.cells[..order.len as usize]
                        .iter()
                        .copied()
                        .filter(|&t| (WITHIN[c][s] & free) >> t & 1 == 1)
                        .collect();
                    let mut got = vec![];
                    let mut targets = WITHIN_XY[c][s] & to_xy(free);
                    while targets != 0 {
                        got.push(XY_CELL[targets.trailing_zeros() as usize]);
                        targets &= targets - 1;
                    }
                    assert_eq!(got, want, "source {c}, size {s}, free {free:#x}");
                }
            }
        }
    }

    #[test]
    fn seed_order_equals_the_reference_loop() {
        use twinsim_reference::photosynthesis::{rules, Action, Params, State, Tree};
        for cell in 0..N {
            for size in 1..4u8 {
                let mut s = State::blank(0, Params::default());
                s.players[0].sun = 100;
                s.trees.insert(cell, Tree { size, owner: 0, dormant: false });
                let seeds = &rules::possible_action_groups(&s, 0)[2];
                let order = SEED_ORDER[cell][size as usize];
                let mine: Vec<Action> = order.cells[..order.len as usize]
                    .iter()
                    .filter(|&&t| t as usize != cell)
                    .map(|&t| Action::Seed(cell as i32, t as i32))
                    .collect();
                assert_eq!(&mine, seeds);
            }
        }
    }
}
