//! One push by shifts and masks on the nibble rows and the direction sets, with items and
//! players moved through precomputed tables. Twin of `reference::xmas_rush::rules::apply_push`.

use super::board::*;

/// Direction indices (rules doc §1).
pub const UP: u8 = 0;
pub const RIGHT: u8 = 1;
pub const DOWN: u8 = 2;
pub const LEFT: u8 = 3;

/// Cells of column 0 (`COLUMN << x` is column `x`).
const COLUMN: u64 = 1 | 1 << 7 | 1 << 14 | 1 << 21 | 1 << 28 | 1 << 35 | 1 << 42;

/// Where a push of `line` towards `dir` by player `p` sends an item at position `pos` (a cell,
/// a hand, or [`GONE`]): along the line, off the far end into `p`'s hand, from that hand onto
/// the inserted tile. Generator of [`ITEM_MOVE`].
pub const fn moved_item(p: usize, line: usize, dir: u8, pos: u8) -> u8 {
    let (entry, exit, delta): (usize, usize, i32) = match dir {
        UP => (42 + line, line, -7),
        RIGHT => (line * 7, line * 7 + 6, 1),
        DOWN => (line, 42 + line, 7),
        _ => (line * 7 + 6, line * 7, -1),
    };
    if pos == HAND[p] {
        return entry as u8;
    }
    if pos as usize == exit {
        return HAND[p];
    }
    if pos >= 49 {
        return pos;
    }
    let horizontal = dir == LEFT || dir == RIGHT;
    let on_line = if horizontal { pos as usize / 7 == line } else { pos as usize % 7 == line };
    if on_line {
        (pos as i32 + delta) as u8
    } else {
        pos
    }
}

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

const fn item_table() -> [[[[u8; 256]; 4]; 7]; 2] {
    let mut t = [[[[0u8; 256]; 4]; 7]; 2];
    let mut p = 0;
    while p < 2 {
        let mut line = 0;
        while line < 7 {
            let mut dir = 0;
            while dir < 4 {
                let mut pos = 0;
                while pos < 256 {
                    t[p][line][dir][pos] = moved_item(p, line, dir as u8, pos as u8);
                    pos += 1;
                }
                dir += 1;
            }
            line += 1;
        }
        p += 1;
    }
    t
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

/// `ITEM_MOVE[p][line][dir][pos]` = [`moved_item`]`(p, line, dir, pos)`.
pub static ITEM_MOVE: [[[[u8; 256]; 4]; 7]; 2] = item_table();
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

/// Player `p` pushes line `line` (0..6) in direction `dir` (0..3): the hand tile enters, the far
/// tile goes to the hand, items travel with their tiles, players on the line move along with
/// wrap-around. Twin of `reference::xmas_rush::rules::apply_push`.
#[inline]
pub fn push(s: &mut State, p: usize, line: usize, dir: u8) {
    let hand = s.hands[p];
    let mut popped = 0u8;
    for d in 0..4 {
        popped |= shift_set(&mut s.open[d], line, dir, u64::from(hand >> d & 1)) << d;
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
    let table = &ITEM_MOVE[p][line][dir as usize];
    for pos in s.item_pos.iter_mut() {
        *pos = table[*pos as usize];
    }
    let cells = &CELL_MOVE[line][dir as usize];
    for pl in s.players.iter_mut() {
        let c = cells[(pl.y * 7 + pl.x) as usize % 49];
        pl.x = c % 7;
        pl.y = c / 7;
    }
}
