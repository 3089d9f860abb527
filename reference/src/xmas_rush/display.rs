//! A picture of the position for a terminal: box-drawing tiles (the contest runner-up's
//! `╗ ═ ╔ ╦ ╝ ║ ╣ ╚ ╩ ╠ ╬`), players, items with their owners, both hand tiles and the quests.

use super::state::*;

/// The glyph of a pattern (up, right, down, left).
pub fn glyph(pattern: Pattern) -> char {
    match pattern.open {
        [false, false, false, false] => '·',
        [true, false, false, false] => '╨',
        [false, true, false, false] => '╞',
        [false, false, true, false] => '╥',
        [false, false, false, true] => '╡',
        [true, false, true, false] => '║',
        [false, true, false, true] => '═',
        [false, true, true, false] => '╔',
        [false, false, true, true] => '╗',
        [true, false, false, true] => '╝',
        [true, true, false, false] => '╚',
        [true, true, true, false] => '╠',
        [true, false, true, true] => '╣',
        [false, true, true, true] => '╦',
        [true, true, false, true] => '╩',
        [true, true, true, true] => '╬',
    }
}

/// A two-letter code per item name, for the board picture.
pub fn code(name: ItemName) -> &'static str {
    match name {
        ItemName::Arrow => "AR",
        ItemName::Book => "BO",
        ItemName::Cane => "CN",
        ItemName::Candy => "CY",
        ItemName::Diamond => "DI",
        ItemName::Fish => "FI",
        ItemName::Mask => "MA",
        ItemName::Key => "KE",
        ItemName::Potion => "PO",
        ItemName::Scroll => "SC",
        ItemName::Shield => "SH",
        ItemName::Sword => "SW",
    }
}

const RESET: &str = "\x1b[0m";
/// Player 0 red, player 1 blue.
const COLOURS: [&str; 2] = ["\x1b[1;31m", "\x1b[1;34m"];

fn paint(text: &str, owner: usize, colour: bool) -> String {
    if colour {
        format!("{}{text}{RESET}", COLOURS[owner])
    } else {
        text.to_string()
    }
}

/// One tile as three text lines of five cells: the up arm with the player marks (`0`, `1`) in
/// the corners, the left arm + glyph + right arm, and the item code + owner with the down arm.
fn tile_lines(
    state: &State,
    tile: &Tile,
    here: Option<(usize, usize)>,
    colour: bool,
) -> [String; 3] {
    let p = tile.pattern;
    let mark = |i: usize| match here {
        Some((x, y)) if state.players[i].x == x && state.players[i].y == y => {
            paint(&i.to_string(), i, colour)
        }
        _ => " ".to_string(),
    };
    let up = if p.has(Direction::Up) { '║' } else { ' ' };
    let down = if p.has(Direction::Down) { '║' } else { ' ' };
    let left = if p.has(Direction::Left) { "══" } else { "  " };
    let right = if p.has(Direction::Right) { "══" } else { "  " };
    let top = format!("{} {up} {}", mark(0), mark(1));
    let middle = format!("{left}{}{right}", glyph(p));
    let bottom = match tile.item {
        Some(item) => {
            let text = format!("{}{down}{}", code(item.name), item.owner);
            format!("{} ", paint(&text, item.owner, colour))
        }
        None => format!("  {down}  "),
    };
    [top, middle, bottom]
}

/// The whole picture: header, the 7×7 board with coordinates, hands, quests and decks.
pub fn render(state: &State, colour: bool) -> String {
    let mut out = String::new();
    let status = if state.game_over { " (game over)" } else { "" };
    out.push_str(&format!(
        "turn {} {} · {} turns left · stale {}{status}\n",
        state.turn(),
        state.turn_type.name(),
        state.turns_left,
        state.stale
    ));
    out.push_str("   ");
    for x in 0..SIZE {
        out.push_str(&format!("  {x}  "));
    }
    out.push('\n');
    for y in 0..SIZE {
        let mut rows = [String::new(), String::new(), String::new()];
        for x in 0..SIZE {
            let lines = tile_lines(state, &state.tiles[x][y], Some((x, y)), colour);
            for (row, line) in rows.iter_mut().zip(lines) {
                row.push_str(&line);
            }
        }
        out.push_str(&format!("   {}\n", rows[0]));
        out.push_str(&format!(" {y} {}\n", rows[1]));
        out.push_str(&format!("   {}\n", rows[2]));
    }
    for (i, player) in state.players.iter().enumerate() {
        let [_, middle, bottom] = tile_lines(state, &player.hand, None, colour);
        let quests: Vec<&str> = player.quests.iter().map(|q| q.name()).collect();
        out.push_str(&format!(
            "{} at ({},{}) score {}{} · hand {} {} · quests [{}] · deck {}\n",
            paint(&format!("player {i}"), i, colour),
            player.x,
            player.y,
            player.score,
            if player.active { "" } else { " (inactive)" },
            middle.trim(),
            bottom.trim(),
            quests.join(", "),
            player.deck.len()
        ));
    }
    out
}
