//! One push by shifts and masks: the nibble rows, the item byte rows, the direction sets and the
//! quest sets all shift the same way; players move through a precomputed table. Twin of
//! [`twinsim_reference::xmas_rush::rules::apply_push`].

use super::board::*;

/// Direction index of UP (rules doc §1), twin of `Direction::Up as u8`: towards row 0.
pub const UP: u8 = 0;
/// Direction index of RIGHT (§1): towards column 6.
pub const RIGHT: u8 = 1;
/// Direction index of DOWN (§1): towards row 6.
pub const DOWN: u8 = 2;
/// Direction index of LEFT (§1): towards column 0.
pub const LEFT: u8 = 3;

/// Cells of column 0 (`COLUMN << x` is column `x`).
const COLUMN: u64 = 1 | 1 << 7 | 1 << 14 | 1 << 21 | 1 << 28 | 1 << 35 | 1 << 42;

/// Where a push of `line` towards `dir` sends a player on `cell`: along the line, wrapping
/// around onto the inserted tile. Generator of [`CELL_MOVE`].
pub const fn moved_player(line: usize, dir: u8, cell: u8) -> u8 {
    let (x, y) = (cell as usize % 7, cell as usize / 7);
    let (x, y) = match dir {
        UP if x == line => (x, (y + 6) % 7),
        DOWN if x == line => (x, (y + 1) % 7),
        LEFT if y == line => ((x + 6) % 7, y),
        RIGHT if y == line => ((x + 1) % 7, y),
        _ => (x, y),
    };
    (y * 7 + x) as u8
}

const fn cell_table() -> [[[u8; 49]; 4]; 7] {
    let mut t = [[[0u8; 49]; 4]; 7];
    let mut line = 0;
    while line < 7 {
        let mut dir = 0;
        while dir < 4 {
            let mut cell = 0;
            while cell < 49 {
                t[line][dir][cell] = moved_player(line, dir as u8, cell as u8);
                cell += 1;
            }
            dir += 1;
        }
        line += 1;
    }
    t
}

/// `CELL_MOVE[line][dir][cell]` = [`moved_player`]`(line, dir, cell)`.
pub static CELL_MOVE: [[[u8; 49]; 4]; 7] = cell_table();

/// Shifts the 7 bits of line `line` of one direction set and inserts `bit`; returns the bit
/// pushed out.
#[inline(always)]
fn shift_set(set: &mut u64, line: usize, dir: u8, bit: u64) -> u8 {
    let m = *set;
    match dir {
        LEFT => {
            let seg = (m >> (7 * line)) & 0x7F;
            let new = (seg >> 1) | (bit << 6);
            *set = (m & !(0x7F << (7 * line))) | (new << (7 * line));
            (seg & 1) as u8
        }
        RIGHT => {
            let seg = (m >> (7 * line)) & 0x7F;
            let new = ((seg << 1) & 0x7F) | bit;
            *set = (m & !(0x7F << (7 * line))) | (new << (7 * line));
            ((seg >> 6) & 1) as u8
        }
        UP => {
            let c = COLUMN << line;
            let col = m & c;
            *set = (m & !c) | (col >> 7) | (bit << (42 + line));
            ((m >> line) & 1) as u8
        }
        _ => {
            let c = COLUMN << line;
            let col = m & c;
            *set = (m & !c) | ((col << 7) & c) | (bit << line);
            ((m >> (42 + line)) & 1) as u8
        }
    }
}

/// Whether item byte `b` (`id + 1`, 0: none) is one of player `q`'s revealed quest items.
#[inline(always)]
pub fn is_quest_item(s: &State, q: usize, b: u8) -> bool {
    if b == 0 || usize::from((b - 1) % 2) != q {
        return false;
    }
    let pl = &s.players[q];
    pl.quests[..pl.quests_len as usize].contains(&((b - 1) / 2))
}

/// Shifts line `line` of 8-bit lanes (the item rows) and inserts `value`; returns the lane
/// pushed out.
#[inline(always)]
fn shift_item_rows(rows: &mut [u64; 7], line: usize, dir: u8, value: u64) -> u8 {
    match dir {
        LEFT => {
            let row = rows[line];
            rows[line] = (row >> 8) | (value << 48);
            row as u8
        }
        RIGHT => {
            let row = rows[line];
            rows[line] = ((row << 8) & ITEM_ROW_MASK) | value;
            (row >> 48) as u8
        }
        UP => {
            let shift = 8 * line;
            let m = 0xFF << shift;
            let popped = (rows[0] >> shift) as u8;
            for y in 0..6 {
                rows[y] = (rows[y] & !m) | (rows[y + 1] & m);
            }
            rows[6] = (rows[6] & !m) | (value << shift);
            popped
        }
        _ => {
            let shift = 8 * line;
            let m = 0xFF << shift;
            let popped = (rows[6] >> shift) as u8;
            for y in (1..7).rev() {
                rows[y] = (rows[y] & !m) | (rows[y - 1] & m);
            }
            rows[0] = (rows[0] & !m) | (value << shift);
            popped
        }
    }
}

/// Player `p` pushes line `line` (0..6) in direction `dir` (0..3): the hand tile enters, the far
/// tile goes to the hand, items travel with their tiles, players on the line move along with
/// wrap-around. Twin of [`twinsim_reference::xmas_rush::rules::apply_push`].
#[inline]
pub fn push(s: &mut State, p: usize, line: usize, dir: u8) {
    // One dispatch on the direction; each body is compiled with its direction constant.
    match dir {
        UP => push_towards::<UP>(s, p, line),
        RIGHT => push_towards::<RIGHT>(s, p, line),
        DOWN => push_towards::<DOWN>(s, p, line),
        _ => push_towards::<LEFT>(s, p, line),
    }
}

/// [`push`] for one direction.
#[inline(always)]
fn push_towards<const DIR: u8>(s: &mut State, p: usize, line: usize) {
    let dir = DIR;
    let hand = s.hands[p];
    let hand_item = s.hand_items[p];
    let mut popped = 0u8;
    for d in 0..4 {
        popped |= shift_set(&mut s.open[d], line, dir, u64::from(hand >> d & 1)) << d;
    }
    for q in 0..2 {
        let bit = u64::from(is_quest_item(s, q, hand_item));
        shift_set(&mut s.quest_sets[q], line, dir, bit);
    }
    let hand32 = u32::from(hand);
    match dir {
        LEFT => s.rows[line] = (s.rows[line] >> 4) | (hand32 << 24),
        RIGHT => s.rows[line] = ((s.rows[line] << 4) & ROW_MASK) | hand32,
        UP => {
            let m = 0xF << (4 * line);
            for y in 0..6 {
                s.rows[y] = (s.rows[y] & !m) | (s.rows[y + 1] & m);
            }
            s.rows[6] = (s.rows[6] & !m) | (hand32 << (4 * line));
        }
        _ => {
            let m = 0xF << (4 * line);
            for y in (1..7).rev() {
                s.rows[y] = (s.rows[y] & !m) | (s.rows[y - 1] & m);
            }
            s.rows[0] = (s.rows[0] & !m) | (hand32 << (4 * line));
        }
    }
    s.hands[p] = popped;
    s.hand_items[p] = shift_item_rows(&mut s.item_rows, line, dir, u64::from(hand_item));
    let cells = &CELL_MOVE[line][dir as usize];
    for pl in s.players.iter_mut() {
        let c = cells[(pl.y * 7 + pl.x) as usize % 49];
        pl.x = c % 7;
        pl.y = c / 7;
    }
}
