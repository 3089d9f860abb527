//! A picture of the position for a terminal: the mini-games side by side in boxes drawn with
//! box-drawing characters, then medals and points (ANSI colour on request).

use super::rules::points;
use super::state::*;

/// Width of one mini-game panel (a hurdle track is 30 cells).
const PANEL: usize = 32;

/// ANSI colours of players 0, 1, 2.
const COLOURS: [&str; 3] = ["\x1b[31m", "\x1b[32m", "\x1b[34m"];
const RESET: &str = "\x1b[0m";

fn paint(text: &str, player: usize, colour: bool) -> String {
    if colour {
        format!("{}{}{}", COLOURS[player % 3], text, RESET)
    } else {
        text.to_string()
    }
}

/// A panel line: `(plain width, text possibly with colour codes)`.
type Cell = (usize, String);

fn plain(text: String) -> Cell {
    (text.chars().count(), text)
}

fn hurdles_panel(g: &HurdleRace, colour: bool) -> Vec<Cell> {
    let mut out = Vec::new();
    for i in 0..PLAYER_COUNT {
        let mut cells = String::new();
        for (x, c) in g.map.iter().enumerate() {
            if x as i32 == g.positions[i] {
                cells.push_str(&paint(&i.to_string(), i, colour));
            } else {
                cells.push(if *c == b'#' { '┃' } else { '·' });
            }
        }
        out.push((g.map.len(), cells));
        let mut note = format!(" p{i} at {:>2}", g.positions[i]);
        if g.stun_timers[i] > 0 {
            note.push_str(&format!(" stunned {}", g.stun_timers[i]));
        }
        if g.dead[i] {
            note.push_str(" dead");
        }
        out.push(plain(note));
    }
    out
}

fn archery_panel(g: &Archery) -> Vec<Cell> {
    let wind: String = g.wind.iter().map(|w| w.to_string()).collect();
    let mut out = vec![plain(format!("wind {wind}"))];
    for i in 0..PLAYER_COUNT {
        let (x, y) = g.cursors[i];
        let d2 = (x as i64).pow(2) + (y as i64).pow(2);
        let mut line = format!("p{i} ({x:>3},{y:>3}) d²={d2:>3}");
        if g.dead[i] {
            line.push_str(" dead");
        }
        out.push(plain(line));
    }
    out
}

fn skating_panel(g: &Skating) -> Vec<Cell> {
    let order: String = g.directions.iter().map(|d| d.letter()).collect();
    let mut out = vec![plain(format!("order {order}  timer {}", g.timer))];
    for i in 0..PLAYER_COUNT {
        let mut line = format!("p{i} pos {:>3} (lap {})", g.positions[i], g.positions[i] % 10);
        if g.risk[i] < 0 {
            line.push_str(&format!(" stun {}", g.risk[i]));
        } else {
            line.push_str(&format!(" risk {}", "▮".repeat(g.risk[i].clamp(0, 9) as usize)));
        }
        if g.dead[i] {
            line.push_str(" dead");
        }
        out.push(plain(line));
    }
    out
}

fn diving_panel(g: &Diving) -> Vec<Cell> {
    let goal: String = g.goal.iter().map(|d| d.letter()).collect();
    let mut out = vec![plain(format!("goal {goal}"))];
    for i in 0..PLAYER_COUNT {
        let mut line = format!("p{i} points {:>3} combo {:>2}", g.points[i], g.combo[i]);
        if g.dead[i] {
            line.push_str(" dead");
        }
        out.push(plain(line));
    }
    out
}

fn panel(game: &MiniGame, colour: bool) -> (String, Vec<Cell>) {
    let mut title = game.run.kind().name().to_string();
    if game.should_reset {
        title.push_str(" · GAME_OVER");
    } else if game.resetting {
        title.push_str(" · new run");
    }
    let body = match &game.run {
        Run::Hurdles(g) => hurdles_panel(g, colour),
        Run::Archery(g) => archery_panel(g),
        Run::Skating(g) => skating_panel(g),
        Run::Diving(g) => diving_panel(g),
    };
    (title, body)
}

fn pad(cell: &Cell, width: usize) -> String {
    let (w, text) = cell;
    let mut s = text.clone();
    for _ in *w..width {
        s.push(' ');
    }
    s
}

/// The board: a header, the mini-games side by side, and a medal table.
pub fn render_board(state: &State, colour: bool) -> String {
    let panels: Vec<(String, Vec<Cell>)> = state.games.iter().map(|g| panel(g, colour)).collect();
    let mut out = String::new();
    let status = match state.end {
        Some(end) => format!("over ({})", end.trace_name()),
        None => "running".to_string(),
    };
    out.push_str(&format!(
        "Olymbits · league {} · turn {}/{} · {}\n",
        state.league.level(),
        state.turn,
        MAX_TURNS,
        status
    ));
    let bar = "─".repeat(PANEL + 2);
    let join = |l: &str, m: &str, r: &str| {
        let mut s = l.to_string();
        for k in 0..panels.len() {
            s.push_str(&bar);
            s.push_str(if k + 1 == panels.len() { r } else { m });
        }
        s.push('\n');
        s
    };
    out.push_str(&join("┌", "┬", "┐"));
    let title_line: Vec<String> =
        panels.iter().map(|(t, _)| pad(&plain(t.chars().take(PANEL).collect()), PANEL)).collect();
    out.push_str(&format!("│ {} │\n", title_line.join(" │ ")));
    out.push_str(&join("├", "┼", "┤"));
    let rows = panels.iter().map(|(_, b)| b.len()).max().unwrap_or(0);
    for r in 0..rows {
        let cells: Vec<String> = panels
            .iter()
            .map(|(_, b)| b.get(r).map_or_else(|| " ".repeat(PANEL), |c| pad(c, PANEL)))
            .collect();
        out.push_str(&format!("│ {} │\n", cells.join(" │ ")));
    }
    out.push_str(&join("└", "┴", "┘"));
    for i in 0..PLAYER_COUNT {
        let medals: Vec<String> =
            state.medals[i].iter().map(|m| format!("{}/{}/{}", m[0], m[1], m[2])).collect();
        let who = paint(&format!("player {i}"), i, colour);
        let status = if state.active[i] { "" } else { " (deactivated)" };
        out.push_str(&format!(
            "{who}: points {:>6}  medals g/s/b {}{status}\n",
            points(&state.medals[i]),
            medals.join(" ")
        ));
    }
    if !state.events.is_empty() {
        out.push_str("events:\n");
        for e in &state.events {
            out.push_str(&format!("  {e}\n"));
        }
    }
    out
}
