//! One push by shifts and masks. Twin of `reference::xmas_rush::rules::apply_push`.

use super::board::*;

/// Direction indices (rules doc §1).
pub const UP: u8 = 0;
pub const RIGHT: u8 = 1;
pub const DOWN: u8 = 2;
pub const LEFT: u8 = 3;

/// Player `p` pushes line `line` (0..6) in direction `dir` (0..3): the hand tile enters, the far
/// tile goes to the hand, items travel with their tiles, players on the line move along with
/// wrap-around. Twin of `reference::xmas_rush::rules::apply_push`.
#[inline]
pub fn push(s: &mut State, p: usize, line: usize, dir: u8) {
    let hand = u32::from(s.hands[p]);
    let popped;
    // Entry and exit cells, for the items.
    let (entry, exit);
    match dir {
        LEFT => {
            let row = s.rows[line];
            popped = row & 0xF;
            s.rows[line] = (row >> 4) | (hand << 24);
            entry = (line * 7 + 6) as u8;
            exit = (line * 7) as u8;
        }
        RIGHT => {
            let row = s.rows[line];
            popped = (row >> 24) & 0xF;
            s.rows[line] = ((row << 4) & ROW_MASK) | hand;
            entry = (line * 7) as u8;
            exit = (line * 7 + 6) as u8;
        }
        UP => {
            let shift = 4 * line;
            let m = 0xF << shift;
            popped = (s.rows[0] >> shift) & 0xF;
            for y in 0..6 {
                s.rows[y] = (s.rows[y] & !m) | (s.rows[y + 1] & m);
            }
            s.rows[6] = (s.rows[6] & !m) | (hand << shift);
            entry = (42 + line) as u8;
            exit = line as u8;
        }
        _ => {
            let shift = 4 * line;
            let m = 0xF << shift;
            popped = (s.rows[6] >> shift) & 0xF;
            for y in (1..7).rev() {
                s.rows[y] = (s.rows[y] & !m) | (s.rows[y - 1] & m);
            }
            s.rows[0] = (s.rows[0] & !m) | (hand << shift);
            entry = line as u8;
            exit = (42 + line) as u8;
        }
    }
    s.hands[p] = popped as u8;
    // Items: on the line they shift, the exit one goes to the hand, the hand one enters.
    let horizontal = dir == LEFT || dir == RIGHT;
    let delta: i8 = match dir {
        UP => -7,
        DOWN => 7,
        LEFT => -1,
        _ => 1,
    };
    for pos in s.item_pos.iter_mut() {
        let c = *pos;
        if c == HAND[p] {
            *pos = entry;
        } else if c == exit {
            *pos = HAND[p];
        } else if c < 49 {
            let on_line = if horizontal { c / 7 == line as u8 } else { c % 7 == line as u8 };
            if on_line {
                *pos = (c as i8 + delta) as u8;
            }
        }
    }
    // Players on the line move one cell, wrapping around.
    for pl in s.players.iter_mut() {
        if horizontal && pl.y as usize == line {
            pl.x = if dir == LEFT { (pl.x + 6) % 7 } else { (pl.x + 1) % 7 };
        } else if !horizontal && pl.x as usize == line {
            pl.y = if dir == UP { (pl.y + 6) % 7 } else { (pl.y + 1) % 7 };
        }
    }
}
