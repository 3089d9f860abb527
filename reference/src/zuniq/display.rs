//! A picture of the position (rules doc §2 board and notation, §4 closed zones): dots, placed
//! walls drawn with box-drawing characters, closed zones labelled with their size (and shaded
//! when colour is asked for).

use super::board::{Cell, Orientation, Wall, CELLS, DOTS};
use super::rules::scores;
use super::state::State;

const RESET: &str = "\x1b[0m";
const WALL_COLOUR: &str = "\x1b[1;33m";
/// Background colours cycled over the closed zones.
const ZONE_COLOURS: [&str; 6] =
    ["\x1b[44m", "\x1b[42m", "\x1b[45m", "\x1b[46m", "\x1b[41m", "\x1b[43;30m"];

fn paint(text: &str, code: &str, colour: bool) -> String {
    if colour {
        format!("{code}{text}{RESET}")
    } else {
        text.to_string()
    }
}

/// Draws the board: row letters on the left, column digits on top, `·` for dots, `───` / `│`
/// for placed walls, each closed cell labelled with its zone's size. A status line follows.
pub fn render(state: &State, colour: bool) -> String {
    let zones = state.zones();
    let zone_of = |cell: Cell| zones.iter().position(|z| z.contains(cell));
    let mut out = String::from("   ");
    for col in 0..DOTS {
        out.push_str(&format!(" {}  ", col + 1));
    }
    let _ = out.pop();
    let _ = out.pop();
    out.push('\n');
    for row in 0..DOTS {
        // The dot line with the horizontal walls.
        out.push_str(&format!(" {}  ·", (b'A' + row) as char));
        for col in 0..CELLS {
            let placed = Wall::new(row, col, Orientation::Horizontal)
                .is_some_and(|w| state.walls.contains(&w));
            if placed {
                out.push_str(&paint("───", WALL_COLOUR, colour));
            } else {
                out.push_str("   ");
            }
            out.push('·');
        }
        out.push('\n');
        if row == CELLS {
            break;
        }
        // The cell line with the vertical walls and the zone labels.
        out.push_str("    ");
        for col in 0..DOTS {
            let placed = Wall::new(row, col, Orientation::Vertical)
                .is_some_and(|w| state.walls.contains(&w));
            if placed {
                out.push_str(&paint("│", WALL_COLOUR, colour));
            } else {
                out.push(' ');
            }
            if col == CELLS {
                break;
            }
            let label = match zone_of(Cell { row, col }) {
                Some(index) => {
                    let text = format!("{:^3}", zones[index].size());
                    paint(&text, ZONE_COLOURS[index % ZONE_COLOURS.len()], colour)
                }
                None => "   ".to_string(),
            };
            out.push_str(&label);
        }
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    }
    out.push_str(&status_line(state));
    out.push('\n');
    out
}

/// One line under the board: ply, side to move or result, claims.
fn status_line(state: &State) -> String {
    let name = |p: usize| if p == 0 { "White" } else { "Black" };
    let mut line = format!("ply {}", state.ply);
    match (state.finished, state.winner) {
        (true, Some(winner)) => {
            let [w, b] = scores(state).unwrap_or([0, 0]);
            line.push_str(&format!(", {} wins, scores {w}-{b}", name(winner)));
        }
        _ => line.push_str(&format!(", {} to move", name(state.to_move()))),
    }
    for player in 0..2 {
        if let Some(ply) = state.claims[player] {
            line.push_str(&format!(", {} claimed at ply {ply}", name(player)));
        }
    }
    line
}
