//! The per-turn input from the packed state (twin of
//! [`twinsim_reference::xmas_rush::render_view`]).

use super::board::*;
use std::fmt::Write;
use twinsim_reference::xmas_rush::{ItemName, TurnType};

/// Appends the text of a nibble (`0110` style).
fn tile_text(out: &mut String, n: u8) {
    for i in 0..4 {
        out.push(if n & (1 << i) != 0 { '1' } else { '0' });
    }
}

/// §9: the exact text sent to player `p` (twin of [`twinsim_reference::xmas_rush::render_view`]).
pub fn render_view(s: &State, p: usize) -> String {
    let mut out = String::with_capacity(600);
    out.push(if s.turn_type == TurnType::Push { '0' } else { '1' });
    for y in 0..7 {
        out.push('\n');
        for x in 0..7 {
            if x > 0 {
                out.push(' ');
            }
            tile_text(&mut out, s.tile(x, y));
        }
    }
    for q in [p, 1 - p] {
        let pl = &s.players[q];
        let cards = pl.deck_len as usize + pl.quests_len as usize;
        let _ = write!(out, "\n{} {} {} ", cards, pl.x, pl.y);
        tile_text(&mut out, s.hands[q]);
    }
    let _ = write!(out, "\n{}", s.order_len);
    for &id in &s.order[..s.order_len as usize] {
        let item = item_of(id);
        let pos = s.item_cell(id);
        let owner = usize::from(item.owner != p);
        let _ = match pos {
            0..=48 => write!(out, "\n{} {} {} {owner}", item.name, pos % 7, pos / 7),
            _ if pos == HAND[p] => write!(out, "\n{} -1 -1 {owner}", item.name),
            _ => write!(out, "\n{} -2 -2 {owner}", item.name),
        };
    }
    let (a, b) = (&s.players[p], &s.players[1 - p]);
    let _ = write!(out, "\n{}", a.quests_len as usize + b.quests_len as usize);
    for (pl, owner) in [(a, 0), (b, 1)] {
        for &q in &pl.quests[..pl.quests_len as usize] {
            let _ = write!(out, "\n{} {owner}", ItemName::ALL[q as usize % 12]);
        }
    }
    out
}
