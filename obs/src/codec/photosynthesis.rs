//! Photosynthesis: 37 hexagonal cells, two players.
//!
//! Observation `(18, 37)` int16, `[feature, cell]` (cells numbered as the referee numbers
//! them; "my" = the observing player):
//! - 0: soil richness (0 = unusable, 1..3), remembered from the first view;
//! - 1..5: my tree of size 0..3 on the cell (one-hot); 5..9: the opponent's;
//! - 9: my tree there is dormant; 10: the opponent's is;
//! - constant rows: 11 day, 12 nutrients, 13 my sun, 14 my score, 15 the opponent's sun,
//!   16 the opponent's score, 17 the opponent is waiting (1/0).
//!
//! Actions `Discrete(1444)`: 0 `WAIT`; `1 + i` `GROW i`; `38 + i` `COMPLETE i`;
//! `75 + 37·s + t` `SEED s t`.

use super::{int_at, ints, Number};

/// Shape of an observation.
pub const SHAPE: [usize; 2] = [18, CELLS];
/// Size of the action space.
pub const NUM_ACTIONS: usize = SEED_BASE + CELLS * CELLS;
const CELLS: usize = 37;
const GROW_BASE: usize = 1;
const COMPLETE_BASE: usize = 1 + CELLS;
const SEED_BASE: usize = 1 + 2 * CELLS;

/// One player's side: the board's richness (from the first view) and the latest turn view.
#[derive(Clone, Debug, Default)]
pub struct Seat {
    richness: Vec<i64>,
    /// day, nutrients, my sun, my score, opponent's sun, opponent's score, opponent waiting.
    scalars: [i64; 7],
    /// cell, size, mine, dormant.
    trees: Vec<[i64; 4]>,
    /// The indices of the actions the view lists (the referee prints the legal list).
    listed: Vec<usize>,
}

impl Seat {
    /// Reads the first view (board, then the turn) or a turn view.
    pub fn absorb_view(&mut self, view: &str) {
        let mut lines: Vec<&str> = view.lines().collect();
        let is_initial = lines.len() > 1 && lines[1].split_whitespace().count() == 8;
        if is_initial {
            let cells = int_at(lines[0], 0).max(0) as usize;
            let board = lines.get(1..1 + cells).unwrap_or(&[]);
            self.richness = vec![0; CELLS];
            for line in board {
                let cell = int_at(line, 0);
                if (0..CELLS as i64).contains(&cell) {
                    self.richness[cell as usize] = int_at(line, 1);
                }
            }
            lines.drain(..(1 + cells).min(lines.len()));
        }
        if lines.len() < 5 {
            return;
        }
        self.scalars = [
            int_at(lines[0], 0),
            int_at(lines[1], 0),
            int_at(lines[2], 0),
            int_at(lines[2], 1),
            int_at(lines[3], 0),
            int_at(lines[3], 1),
            int_at(lines[3], 2),
        ];
        let count = int_at(lines[4], 0).max(0) as usize;
        self.trees = lines.iter().skip(5).take(count).map(|l| ints(l)).collect();
        let list_at = 5 + count;
        self.listed = super::listed(&lines, list_at, index_of);
    }

    /// The actions the latest view lists.
    pub fn listed(&self) -> &[usize] {
        &self.listed
    }

    /// Writes the planes documented at the top of this module.
    pub fn encode<T: Number>(&self, out: &mut [T]) {
        for (cell, richness) in self.richness.iter().enumerate() {
            out[cell] = T::of(*richness);
        }
        for [cell, size, mine, dormant] in &self.trees {
            if !(0..CELLS as i64).contains(cell) || !(0..4).contains(size) {
                continue;
            }
            let side = if *mine == 1 { 0 } else { 1 };
            out[(1 + 4 * side + *size as usize) * CELLS + *cell as usize] = T::of(1);
            out[(9 + side) * CELLS + *cell as usize] = T::of(*dormant);
        }
        for (i, value) in self.scalars.iter().enumerate() {
            out[(11 + i) * CELLS..(12 + i) * CELLS].fill(T::of(*value));
        }
    }
}

fn cell(word: Option<&str>) -> Option<usize> {
    word?.parse().ok().filter(|c| *c < CELLS)
}

/// The index of a legal line.
pub fn index_of(line: &str) -> Option<usize> {
    let mut words = line.split_whitespace();
    match words.next()? {
        "WAIT" => Some(0),
        "GROW" => Some(GROW_BASE + cell(words.next())?),
        "COMPLETE" => Some(COMPLETE_BASE + cell(words.next())?),
        "SEED" => Some(SEED_BASE + CELLS * cell(words.next())? + cell(words.next())?),
        _ => None,
    }
}

/// The line of an index (below [`NUM_ACTIONS`]).
pub fn line(index: usize) -> String {
    match index {
        0 => "WAIT".to_string(),
        i if i < COMPLETE_BASE => format!("GROW {}", i - GROW_BASE),
        i if i < SEED_BASE => format!("COMPLETE {}", i - COMPLETE_BASE),
        i => format!("SEED {} {}", (i - SEED_BASE) / CELLS, (i - SEED_BASE) % CELLS),
    }
}
