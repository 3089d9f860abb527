//! Zuniq: walls on a 5×5 grid of cells (6×6 dots), two players moving in turn.
//!
//! Observation `(3, 6, 6)` int8, 1 where a wall stands: plane 0 the horizontal walls `Xnh`
//! at `[row X, column n-1]` (rows A..F, columns 1..5), plane 1 the vertical walls `Xnv` at
//! `[row X, column n-1]` (rows A..E, columns 1..6); plane 2 is 1 everywhere once I have claimed
//! victory (`!`; the opponent's claim is not relayed, so it is not seen). The player builds it
//! from the opponent's moves (its views) and its own.
//!
//! Actions `Discrete(120)`: the walls in the rules' suggested numbering, `Xnh` → `5·row + n − 1`,
//! `Xnv` → `30 + 6·row + n − 1` (row 0 for A); `60 + i` is wall `i` with the victory claim `!`.

use super::Number;

/// Shape of an observation.
pub const SHAPE: [usize; 3] = [3, 6, 6];
/// Size of the action space.
pub const NUM_ACTIONS: usize = 2 * WALLS;
/// Number of walls.
const WALLS: usize = 60;

/// One player's side: the walls it has seen placed.
#[derive(Clone, Debug)]
pub struct Seat {
    walls: [bool; WALLS],
    claimed: bool,
}

impl Default for Seat {
    fn default() -> Self {
        Seat { walls: [false; WALLS], claimed: false }
    }
}

impl Seat {
    /// A view is the opponent's last move (or `Start`, or empty for the player who just moved).
    pub fn absorb_view(&mut self, view: &str) {
        self.absorb_move(view.trim_end());
    }

    /// Records a wall (and a claim), if `line` names one.
    pub fn absorb_move(&mut self, line: &str) {
        if let Some(index) = index_of(line) {
            self.walls[index % WALLS] = true;
            self.claimed |= index >= WALLS;
        }
    }

    /// Writes the planes documented at the top of this module.
    pub fn encode<T: Number>(&self, out: &mut [T]) {
        for (index, _) in self.walls.iter().enumerate().filter(|(_, w)| **w) {
            let (plane, row, column) = if index < 30 {
                (0, index / 5, index % 5)
            } else {
                (1, (index - 30) / 6, (index - 30) % 6)
            };
            out[plane * 36 + row * 6 + column] = T::of(1);
        }
        if self.claimed {
            out[2 * 36..3 * 36].fill(T::of(1));
        }
    }
}

/// The index of a move: a wall name (exactly three characters, as the rules define them),
/// optionally followed by the claim `!`.
pub fn index_of(line: &str) -> Option<usize> {
    match line.strip_suffix('!') {
        Some(wall) => wall_index(wall).map(|i| WALLS + i),
        None => wall_index(line),
    }
}

fn wall_index(name: &str) -> Option<usize> {
    let b = name.as_bytes();
    if b.len() != 3 || !(b'1'..=b'6').contains(&b[1]) {
        return None;
    }
    let (row, column) = ((b[0].wrapping_sub(b'A')) as usize, (b[1] - b'1') as usize);
    match b[2] {
        b'h' if row < 6 && column < 5 => Some(5 * row + column),
        b'v' if row < 5 && column < 6 => Some(30 + 6 * row + column),
        _ => None,
    }
}

/// The move of an index (below [`NUM_ACTIONS`]).
pub fn line(index: usize) -> String {
    let claim = if index >= WALLS { "!" } else { "" };
    let index = index % WALLS;
    let (row, column, kind) = if index < 30 {
        (index / 5, index % 5, 'h')
    } else {
        ((index - 30) / 6, (index - 30) % 6, 'v')
    };
    format!("{}{}{}{claim}", (b'A' + row as u8) as char, column + 1, kind)
}
