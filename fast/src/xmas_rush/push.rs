//! One push by shifts and masks: the direction sets, the quest sets and the item byte rows all
//! shift the same way; players move through a precomputed table. Twin of
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
/// around onto the inserted tile. Generator of [`PLAYER_MOVE`].
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

/// `PLAYER_MOVE[line][dir][cell]` = the `[x, y]` of [`moved_player`]`(line, dir, cell)`: a
/// moved player's coordinates in one load.
pub static PLAYER_MOVE: [[[[u8; 2]; 49]; 4]; 7] = {
    let mut t = [[[[0u8; 2]; 49]; 4]; 7];
    let mut line = 0;
    while line < 7 {
        let mut dir = 0;
        while dir < 4 {
            let mut cell = 0;
            while cell < 49 {
                let c = moved_player(line, dir as u8, cell as u8);
                t[line][dir][cell] = [c % 7, c / 7];
                cell += 1;
            }
            dir += 1;
        }
        line += 1;
    }
    t
};

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

/// [`push`] for one direction. The trick: a push is the same rotation of the line's 7 bits in
/// each of the six cell sets (four directions, two quest sets), so one mask `line_mask`, one
/// shift and one `inner` mask (where the shifted bits land) serve them all; the hand tile's six
/// bits (`hands` nibble, `hand_quests` above it) enter at `in_at` and the six bits at `out_at`
/// become the new hand. Items shift as bytes of the row words, players through
/// [`PLAYER_MOVE`].
#[inline(always)]
fn push_towards<const DIR: u8>(s: &mut State, p: usize, line: usize) {
    let (line_mask, inner, out_at, in_at) = match DIR {
        LEFT => (0x7F << (7 * line), 0x3F << (7 * line), 7 * line, 7 * line + 6),
        RIGHT => (0x7F << (7 * line), 0x7E << (7 * line), 7 * line + 6, 7 * line),
        UP => (COLUMN << line, (COLUMN >> 7) << line, line, 42 + line),
        _ => (COLUMN << line, (COLUMN & !1) << line, 42 + line, line),
    };
    let shifted = |m: u64| match DIR {
        LEFT => m >> 1,
        RIGHT => m << 1,
        UP => m >> 7,
        _ => m << 7,
    };
    let hand = u64::from(s.hands[p]) | u64::from(s.hand_quests[p]) << 4;
    let mut out = 0u64;
    for (d, m) in s.open.iter_mut().enumerate() {
        out |= (*m >> out_at & 1) << d;
        *m = (*m & !line_mask) | (shifted(*m) & inner) | ((hand >> d & 1) << in_at);
    }
    for (q, m) in s.quest_sets.iter_mut().enumerate() {
        out |= (*m >> out_at & 1) << (4 + q);
        *m = (*m & !line_mask) | (shifted(*m) & inner) | ((hand >> (4 + q) & 1) << in_at);
    }
    s.hands[p] = (out & 0xF) as u8;
    s.hand_quests[p] = (out >> 4) as u8;
    let hand_item = s.hand_items[p];
    s.hand_items[p] = shift_item_rows(&mut s.item_rows, line, DIR, u64::from(hand_item));
    let moves = &PLAYER_MOVE[line][DIR as usize];
    for pl in s.players.iter_mut() {
        let [x, y] = moves[usize::from(pl.y * 7 + pl.x).min(48)];
        pl.x = x;
        pl.y = y;
    }
}
