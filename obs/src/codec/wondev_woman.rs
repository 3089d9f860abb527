//! Wondev Woman: builders on a square grid of at most 7×7 cells, two players moving in turn.
//!
//! Observation `(11, 7, 7)` int8 planes, `[plane, y, x]` ("my" = the observing player):
//! - 0: a playable cell (inside the grid and not a hole);
//! - 1..6: its height 0..4 (one-hot; 4 is a dome);
//! - 6, 7: my unit 0 / unit 1; 8, 9: the opponent's unit 0 / 1 where my view shows it (the fog
//!   hides units no unit of mine is next to);
//! - 10: inside the grid (the grid is smaller than 7×7 in some leagues).
//!
//! Actions `Discrete(257)`: `128·kind + 64·unit + 8·move + build`, kind 0 `MOVE&BUILD`, 1
//! `PUSH&BUILD`, directions N, NE, E, SE, S, SW, W, NW; index 256 is `ACCEPT-DEFEAT`, legal
//! exactly when the referee lists no action (the player is eliminated whatever it prints).

use super::{int_at, Number};

/// Shape of an observation.
pub const SHAPE: [usize; 3] = [PLANES, MAX, MAX];
/// Size of the action space.
pub const NUM_ACTIONS: usize = 257;
/// The surrender index.
pub const ACCEPT_DEFEAT: usize = 256;
const PLANES: usize = 11;
const MAX: usize = 7;
const DIRECTIONS: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const KINDS: [&str; 2] = ["MOVE&BUILD", "PUSH&BUILD"];

/// One player's side: its latest view, parsed.
#[derive(Clone, Debug, Default)]
pub struct Seat {
    grid: Vec<Vec<u8>>,
    /// My units, then the opponent's (`(-1, -1)`: not seen).
    units: Vec<(i64, i64)>,
    /// The indices of the actions the view lists (the referee prints the legal list).
    listed: Vec<usize>,
}

impl Seat {
    /// Reads a view: grid rows, unit positions, then the legal list.
    pub fn absorb_view(&mut self, view: &str) {
        let lines: Vec<&str> = view.lines().collect();
        let Some(first) = lines.first() else { return };
        let size = first.trim().len().min(MAX);
        if lines.len() < size {
            return;
        }
        self.grid = lines[..size].iter().map(|l| l.trim().bytes().take(MAX).collect()).collect();
        self.units = lines[size..]
            .iter()
            .take_while(|l| l.split_whitespace().count() == 2)
            .map(|l| (int_at(l, 0), int_at(l, 1)))
            .collect();
        let list_at = size + self.units.len();
        self.listed = super::listed(&lines, list_at, index_of);
    }

    /// The actions the latest view lists.
    pub fn listed(&self) -> &[usize] {
        &self.listed
    }

    /// Writes the planes documented at the top of this module.
    pub fn encode<T: Number>(&self, out: &mut [T]) {
        let mut set =
            |plane: usize, x: usize, y: usize| out[plane * MAX * MAX + y * MAX + x] = T::of(1);
        for (y, row) in self.grid.iter().enumerate() {
            for (x, cell) in row.iter().enumerate() {
                set(10, x, y);
                if cell.is_ascii_digit() && *cell <= b'4' {
                    set(0, x, y);
                    set(1 + usize::from(cell - b'0'), x, y);
                }
            }
        }
        let per_player = self.units.len() / 2;
        for (i, (x, y)) in self.units.iter().enumerate() {
            let (owner, unit) = (i / per_player.max(1), i % per_player.max(1));
            if (0..MAX as i64).contains(x) && (0..MAX as i64).contains(y) && owner < 2 && unit < 2 {
                set(6 + 2 * owner + unit, *x as usize, *y as usize);
            }
        }
    }
}

/// The index of a legal line.
pub fn index_of(line: &str) -> Option<usize> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() == 1 && words[0] == "ACCEPT-DEFEAT" {
        return Some(ACCEPT_DEFEAT);
    }
    if words.len() != 4 {
        return None;
    }
    let kind = KINDS.iter().position(|k| *k == words[0])?;
    let unit: usize = words[1].parse().ok().filter(|u| *u < 2)?;
    let moved = DIRECTIONS.iter().position(|d| *d == words[2])?;
    let built = DIRECTIONS.iter().position(|d| *d == words[3])?;
    Some(128 * kind + 64 * unit + 8 * moved + built)
}

/// The line of an index (below [`NUM_ACTIONS`]).
pub fn line(index: usize) -> String {
    if index == ACCEPT_DEFEAT {
        return "ACCEPT-DEFEAT".to_string();
    }
    format!(
        "{} {} {} {}",
        KINDS[index / 128],
        (index / 64) % 2,
        DIRECTIONS[(index / 8) % 8],
        DIRECTIONS[index % 8]
    )
}
