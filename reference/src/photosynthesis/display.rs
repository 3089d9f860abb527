//! A picture of a position for a terminal: the hexagon with each cell's richness, tree (size,
//! owner, dormancy) and the current shadow (§1, §2, §5), framed with box-drawing characters.
//!
//! Each cell is `II:RTS` — index, richness (`×` for a hole), tree (`A`/`B` = player 0/1 with
//! its size, lower case when dormant, blank when empty), shadow (`░▒▓` = shadowed by a tree of
//! size 1/2/3, from the shadow map of the last sun move).

use super::board::{Cube, NUM_CELLS, RING_COUNT};
use super::rules;
use super::state::State;

const TOKEN_WIDTH: usize = 8;
const BOARD_WIDTH: usize = TOKEN_WIDTH * 7;
const RESET: &str = "\x1b[0m";

/// The sun's direction as an arrow on this picture (rows are constant z; §1 directions).
pub fn sun_arrow(direction: usize) -> char {
    ['→', '↗', '↖', '←', '↙', '↘'][direction % 6]
}

/// One cell's token: plain text (7 chars) and, when `colour`, the same with ANSI colours.
fn cell_token(state: &State, cell: usize, colour: bool) -> String {
    let richness = match state.richness[cell] {
        0 => '×',
        r => char::from(b'0' + r),
    };
    let tree = match state.trees.get(&cell) {
        None => "  ".to_string(),
        Some(t) => {
            let letter = match (t.owner, t.dormant) {
                (0, false) => 'A',
                (0, true) => 'a',
                (_, false) => 'B',
                (_, true) => 'b',
            };
            format!("{letter}{}", t.size)
        }
    };
    let shadow = match state.shadows[cell] {
        0 => ' ',
        1 => '░',
        2 => '▒',
        _ => '▓',
    };
    if !colour {
        return format!("{cell:>2}:{richness}{tree}{shadow}");
    }
    let rich_colour = if state.richness[cell] == 0 { "\x1b[2m" } else { "\x1b[32m" };
    let tree_colour = match state.trees.get(&cell).map(|t| t.owner) {
        Some(0) => "\x1b[1;34m",
        Some(_) => "\x1b[1;31m",
        None => "",
    };
    format!(
        "\x1b[2m{cell:>2}:{RESET}{rich_colour}{richness}{RESET}{tree_colour}{tree}{RESET}\x1b[90m{shadow}{RESET}"
    )
}

/// The board picture (ANSI colour when `colour`).
pub fn render(state: &State, colour: bool) -> String {
    let mut out = String::new();
    let title = format!(
        " day {} · sun {} {} · nutrients {}{} ",
        state.day,
        state.sun_direction,
        sun_arrow(state.sun_direction),
        state.nutrients,
        if state.game_over { " · game over" } else { "" }
    );
    let title_len = title.chars().count();
    out.push('╭');
    out.push_str(&title);
    out.push_str(&"─".repeat(BOARD_WIDTH + 2 - title_len.min(BOARD_WIDTH + 2)));
    out.push_str("╮\n");
    for z in -RING_COUNT..=RING_COUNT {
        let x_min = (-RING_COUNT).max(-RING_COUNT - z);
        let x_max = RING_COUNT.min(RING_COUNT - z);
        let indent = z.unsigned_abs() as usize * TOKEN_WIDTH / 2;
        let mut line = " ".repeat(indent);
        let mut width = indent;
        for x in x_min..=x_max {
            let cube = Cube { x, y: -x - z, z };
            if let Some(cell) = super::board::index_of(cube) {
                line.push_str(&cell_token(state, cell, colour));
                line.push(' ');
                width += TOKEN_WIDTH;
            }
        }
        line.push_str(&" ".repeat(BOARD_WIDTH.saturating_sub(width)));
        out.push_str(&format!("│ {line} │\n"));
    }
    out.push_str(&format!("├{}┤\n", "─".repeat(BOARD_WIDTH + 2)));
    let income = rules::sun_income(state);
    for (p, player) in state.players.iter().enumerate() {
        let text = format!(
            "{} sun {:>3}  score {:>3}  income {:>2}{}{}",
            ['A', 'B'][p],
            player.sun,
            player.score,
            income[p],
            if player.waiting { "  waiting" } else { "" },
            if player.active { "" } else { "  disqualified" }
        );
        let pad = (BOARD_WIDTH + 1).saturating_sub(text.chars().count());
        out.push_str(&format!("│ {text}{} │\n", " ".repeat(pad.saturating_sub(1))));
    }
    out.push_str(&format!("╰{}╯\n", "─".repeat(BOARD_WIDTH + 2)));
    debug_assert_eq!(NUM_CELLS, 37);
    out
}
