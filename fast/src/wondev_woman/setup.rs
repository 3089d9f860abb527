//! §2 setup and map generation, with bit sets (twin:
//! [`twinsim_reference::wondev_woman::setup`]).
//!
//! The reference builds the random map in a `BTreeSet<Point>` and floods it again after every
//! pair of cells it adds (up to 1000 times per game); here a map is one `u64` in the board's own
//! layout (cell `y * 8 + x`, see [`super::board`]), a flood fill is a handful of shifts per step,
//! and the state is built directly instead of through the reference state. The generator is the
//! reference's [`JavaRandom`], drawn call for call in the same order: every later draw (the map
//! choice, the spawn shuffle) depends on how many the random map consumed.

use super::board::{State, NONE};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::wondev_woman::setup::GENERATED_MAP_SIZE;
use twinsim_reference::wondev_woman::state::Params;

/// Bit of the point `(x, y)` in the board layout (`y * 8 + x`).
const fn bit(x: i32, y: i32) -> u64 {
    1u64 << (y * 8 + x)
}

/// Column 0 of the 8-wide layout (cells `(0, y)`, y = 0..8).
const COLUMN_0: u64 = 0x0101_0101_0101_0101;
/// Column 7 of the 8-wide layout.
const COLUMN_7: u64 = COLUMN_0 << 7;

/// The cells of a map given per row as an inclusive x range (`ranges[y] = (lo, hi)`).
const fn rows_mask(ranges: &[(i32, i32)]) -> u64 {
    let mut m = 0;
    let mut y = 0;
    while y < ranges.len() {
        let mut x = ranges[y].0;
        while x <= ranges[y].1 {
            m |= bit(x, y as i32);
            x += 1;
        }
        y += 1;
    }
    m
}

/// §2 step 2, map 0: the 5×5 square (twin: `setup::square_map`).
pub const SQUARE: u64 = rows_mask(&[(0, 4), (0, 4), (0, 4), (0, 4), (0, 4)]);

/// §2 step 2, map 1: the diamond of size 7, per row the x range of the rules table (twin:
/// `setup::diamond_map`).
pub const DIAMOND: u64 = rows_mask(&[(3, 3), (2, 4), (1, 5), (0, 6), (1, 5), (2, 4), (3, 3)]);

/// The cells 8-adjacent to `m` or in it: one step of a king, by shifts. The horizontal steps
/// are masked so that a bit does not wrap from column 7 to column 0 of the next row (or back);
/// the vertical steps of the widened row then add the diagonals (twin: `Point::neighbour` over
/// `Dir::ALL`, the eight directions).
#[inline]
pub fn king_step(m: u64) -> u64 {
    let row = m | ((m << 1) & !COLUMN_0) | ((m >> 1) & !COLUMN_7);
    row | (row << 8) | (row >> 8)
}

/// The 8-connected component of `cells` holding the cells of `seed` (a subset of `cells`):
/// king steps inside `cells` until nothing grows, a whole breadth-first layer per step.
#[inline]
pub fn flood(cells: u64, seed: u64) -> u64 {
    let mut reached = seed;
    loop {
        let next = king_step(reached) & cells;
        if next == reached {
            return reached;
        }
        reached = next;
    }
}

/// §2 step 1: the number of 8-connected components of `cells` (twin: `setup::count_islands`,
/// which uses the eight directions of `Dir::ALL`): flood from the lowest remaining cell, remove
/// the island, count.
pub fn count_islands(cells: u64) -> usize {
    let mut rest = cells;
    let mut islands = 0;
    while rest != 0 {
        rest &= !flood(rest, rest & rest.wrapping_neg());
        islands += 1;
    }
    islands
}

/// §2 step 1: the random map (twin: `setup::generate_random_map`): `cells = 25 + nextInt(10)`,
/// then pairs `(x, y)`, `(5 - x, y)` while there are fewer cells than that or more than one
/// island, at most 1000 iterations.
///
/// The reference counts the islands after every pair; the loop only asks whether the count
/// exceeds one, and only once the map has enough cells (the count it tests is always the one of
/// the current map, recomputed in the previous iteration). So the islands are looked at only
/// when the size test passes, and then as one flood from any cell compared with the whole map:
/// the map (never empty there) is one island exactly when the flood reaches every cell.
pub fn generate_random_map(random: &mut JavaRandom) -> u64 {
    let wanted = 25 + random.next_below(10) as u32;
    let mut set = 0u64;
    let mut iterations = 0;
    loop {
        if iterations >= 1000 {
            break;
        }
        if set.count_ones() >= wanted && set != 0 && flood(set, set & set.wrapping_neg()) == set {
            break;
        }
        let x = random.next_below(GENERATED_MAP_SIZE);
        let y = random.next_below(GENERATED_MAP_SIZE);
        set |= bit(x, y) | bit(GENERATED_MAP_SIZE - 1 - x, y);
        iterations += 1;
    }
    set
}

/// §2 step 2: `size = 1 + max(x, y)` over the cells of `map` (0 for no cell; twin: the `size`
/// line of `setup::new_game`). The highest set bit's row is the largest `y`; the rows folded
/// onto row 0 give the columns used, whose highest bit is the largest `x`.
pub fn extent(map: u64) -> u8 {
    if map == 0 {
        return 0;
    }
    let max_y = (63 - map.leading_zeros()) / 8;
    let mut columns = map;
    columns |= columns >> 32;
    columns |= columns >> 16;
    columns |= columns >> 8;
    let max_x = 7 - (columns as u8).leading_zeros();
    1 + max_x.max(max_y) as u8
}

/// §2 step 3: the cells of `map` sorted by x, then y (twin: `list.sort_by_key(|p| (p.x, p.y))`
/// in `setup::new_game`), as cell indexes into `out`; returns their number. Column `x` shifted
/// down to column 0 lists its cells by increasing y in bit order.
pub fn sorted_cells(map: u64, out: &mut [u8; 64]) -> usize {
    let mut n = 0;
    for x in 0..8 {
        let mut column = (map >> x) & COLUMN_0;
        while column != 0 {
            out[n] = column.trailing_zeros() as u8 + x;
            column &= column - 1;
            n += 1;
        }
    }
    n
}

/// §2 step 3, `symmetric=true` (twin: the symmetric branch of `setup::new_game`): the shuffled
/// list as a queue; pop `a`, and when its mirror `(size - 1 - x, y)` is still queued, remove it
/// and give `a` to player 0 and the mirror to player 1; otherwise discard `a`. The queue's
/// membership is a mask (`queued`): removing the mirror clears its bit, and popping skips
/// entries whose bit is gone, so no element moves. Returns the units placed per player (fewer
/// than `per_player` only if the queue runs out, which no map of §2 allows).
fn symmetric_spawns(list: &[u8], size: u8, per_player: usize, units: &mut [u8; 4]) -> usize {
    let mut queued = list.iter().fold(0u64, |m, &c| m | 1u64 << c);
    let mut next = 0;
    for k in 0..per_player {
        loop {
            let Some(&a) = list.get(next) else { return k };
            next += 1;
            if queued & (1u64 << a) == 0 {
                continue;
            }
            queued &= !(1u64 << a);
            let b = (a / 8) * 8 + (size - 1 - a % 8);
            if queued & (1u64 << b) != 0 {
                queued &= !(1u64 << b);
                units[k] = a;
                units[2 + k] = b;
                break;
            }
        }
    }
    per_player
}

/// §2: the whole setup (twin: `setup::new_game`, then `State::from`): the random map (always
/// drawn), the map draw and its `mapIndex` override, the spawns from the sorted cell list shuffled
/// like `Collections.shuffle`, and the starting state (all heights 0, no score, player 0 to move,
/// the hash from scratch).
pub fn new_game(seed: i64, params: &Params) -> State {
    let mut random = JavaRandom::new(seed);
    // Step 1: the random map, whatever map is finally chosen.
    let random_map = generate_random_map(&mut random);
    // Step 2: the map draw (always consumed), then the property override.
    let drawn = random.next_below(3);
    let map_index = if (0..3).contains(&params.map_index) { params.map_index } else { drawn };
    let cells = match map_index {
        0 => SQUARE,
        1 => DIAMOND,
        _ => random_map,
    };
    let size = extent(cells);
    // Step 3: spawns.
    let mut list = [0u8; 64];
    let n = sorted_cells(cells, &mut list);
    random.shuffle(&mut list[..n]);
    let per_player = params.league.units_per_player();
    let mut units = [NONE; 4];
    let placed = if params.symmetric {
        symmetric_spawns(&list[..n], size, per_player, &mut units)
    } else {
        // Player 0 takes the first `per_player` cells, player 1 the next ones.
        for (k, &c) in list[..n].iter().take(2 * per_player).enumerate() {
            units[(k / per_player) * 2 + k % per_player] = c;
        }
        per_player.min(n)
    };
    let mut state = State {
        cells,
        le: [cells; 4],
        umask: [0, 0],
        h: [0; 64],
        units,
        // The conversion's rule: player 0's unit count, at least 1.
        per_player: placed.clamp(1, 2) as u8,
        scores: [0, 0],
        dead: [false, false],
        won: [false, false],
        round: 0,
        to_move: 0,
        game_over: false,
        end_reason: None,
        records: [None; 4],
        league: params.league,
        map_index_param: params.map_index,
        symmetric: params.symmetric,
        map_index: map_index as u8,
        size,
        hash: 0,
    };
    state.refresh_masks();
    state.hash = state.hash_from_scratch();
    state
}
