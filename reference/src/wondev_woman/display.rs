//! A picture of the board (§1): heights, holes, domes, both players' units, optionally with the
//! fog of one player's point of view (§7).

use super::rules;
use super::state::{Point, State};

const RESET: &str = "\x1b[0m";
const COLOURS: [&str; 2] = ["\x1b[1;31m", "\x1b[1;34m"];

/// Draws `state` with box-drawing characters. Each cell shows its height (`▲` for a dome,
/// `░` for a hole or off-map cell) and the unit standing on it: `A`/`B` for player 0's units 0/1,
/// `a`/`b` for player 1's. With `viewer = Some(p)`, enemy units hidden from `p` are not drawn.
/// `colour` adds ANSI colours (red player 0, blue player 1).
pub fn render(state: &State, viewer: Option<usize>, colour: bool) -> String {
    let n = state.size;
    let mut out = String::new();
    let status = if state.game_over {
        format!(
            "round {} · game over ({})",
            state.round,
            state.end_reason.map_or("?", |r| r.code())
        )
    } else {
        format!("round {} · player {} to move", state.round, state.to_move.unwrap_or(0))
    };
    out.push_str(&status);
    out.push('\n');
    for p in 0..2 {
        out.push_str(&format!(
            "player {p} ({}): score {}{}\n",
            if p == 0 { "A B" } else { "a b" },
            state.scores[p],
            if state.dead[p] { ", eliminated" } else { "" }
        ));
    }
    if let Some(v) = viewer {
        out.push_str(&format!("seen by player {v}\n"));
    }
    let line = |left: &str, mid: &str, right: &str| {
        let mut s = String::from("   ");
        s.push_str(left);
        for x in 0..n {
            s.push_str("───");
            s.push_str(if x + 1 == n { right } else { mid });
        }
        s.push('\n');
        s
    };
    out.push_str("    ");
    for x in 0..n {
        out.push_str(&format!(" {x}  "));
    }
    out.push('\n');
    out.push_str(&line("┌", "┬", "┐"));
    for y in 0..n {
        out.push_str(&format!("{y:>2} │"));
        for x in 0..n {
            let p = Point::new(x as i32, y as i32);
            let cell = match state.height(p) {
                None => "░░░".to_string(),
                Some(h) => {
                    let height =
                        if h >= rules::FINAL_HEIGHT { "▲".to_string() } else { h.to_string() };
                    let unit = state
                        .unit_at(p)
                        .filter(|&(q, _)| viewer.map_or(true, |v| rules::visible(state, q, p, v)));
                    match unit {
                        None => format!(" {height} "),
                        Some((q, i)) => {
                            let letter = (if q == 0 { b'A' } else { b'a' } + i as u8) as char;
                            if colour {
                                format!("{height}{}{letter}{RESET} ", COLOURS[q])
                            } else {
                                format!("{height}{letter} ")
                            }
                        }
                    }
                }
            };
            out.push_str(&cell);
            out.push('│');
        }
        out.push('\n');
        out.push_str(&if y + 1 == n {
            line("└", "┴", "┘")
        } else {
            line("├", "┼", "┤")
        });
    }
    out
}
