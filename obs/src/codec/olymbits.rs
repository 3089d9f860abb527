//! Olymbits: four mini-games played at once by three players.
//!
//! Observation `(190,)` int32:
//! - 0..3: which player I am (one-hot);
//! - 3..42: the three score lines of the view (player 0, 1, 2; 13 numbers each: total score,
//!   then gold, silver, bronze per mini-game);
//! - 42..190: per mini-game (hurdles, archery, skating, diving, in the referee's order), 37
//!   numbers: the 30 characters of its `gpu` (`.` 0, `#` 1, a digit its value, `U D L R` 1..4,
//!   past the end or `GAME_OVER` −1), then its 7 registers.
//!
//! Actions `Discrete(4)`: `UP`, `DOWN`, `LEFT`, `RIGHT` (the rules' enum order).

use super::{int_at, ints, Number};

/// Shape of an observation.
pub const SHAPE: [usize; 1] = [190];
/// Size of the action space.
pub const NUM_ACTIONS: usize = 4;
const ACTIONS: [&str; 4] = ["UP", "DOWN", "LEFT", "RIGHT"];
const GPU: usize = 30;
const REGISTERS: usize = 7;

/// One player's side: who it is and the latest turn view.
#[derive(Clone, Debug)]
pub struct Seat {
    me: usize,
    /// The number of mini-games the first view announced (4 in the top league, fewer below);
    /// `None` until the first view.
    games: Option<usize>,
    scores: [[i64; 13]; 3],
    gpus: Vec<String>,
    registers: [[i64; REGISTERS]; 4],
}

impl Seat {
    /// A seat for player `me`.
    pub fn new(me: usize) -> Seat {
        let registers = [[0; REGISTERS]; 4];
        Seat { me, games: None, scores: [[0; 13]; 3], gpus: vec![], registers }
    }

    /// Reads the first view (player index, number of games, then a turn) or a turn view (the
    /// three score lines, then a line per mini-game).
    pub fn absorb_view(&mut self, view: &str) {
        let mut lines: Vec<&str> = view.lines().collect();
        if self.games.is_none() && lines.len() >= 2 {
            self.me = int_at(lines[0], 0).clamp(0, 2) as usize;
            self.games = Some(int_at(lines[1], 0).clamp(0, 4) as usize);
            lines.drain(..2);
        }
        let games = self.games.unwrap_or(4);
        if lines.len() < 3 + games {
            return;
        }
        for (p, line) in lines[..3].iter().enumerate() {
            self.scores[p] = ints(line);
        }
        self.gpus.clear();
        for (g, line) in lines[3..3 + games].iter().enumerate() {
            let (gpu, registers) = line.split_once(' ').unwrap_or((line, ""));
            self.gpus.push(gpu.to_string());
            self.registers[g] = ints(registers);
        }
    }

    /// Writes the features documented at the top of this module.
    pub fn encode<T: Number>(&self, out: &mut [T]) {
        out[self.me] = T::of(1);
        for (p, line) in self.scores.iter().enumerate() {
            for (i, v) in line.iter().enumerate() {
                out[3 + 13 * p + i] = T::of(*v);
            }
        }
        for (g, gpu) in self.gpus.iter().enumerate() {
            let base = 42 + g * (GPU + REGISTERS);
            let over = gpu == "GAME_OVER";
            for i in 0..GPU {
                out[base + i] = T::of(match gpu.as_bytes().get(i) {
                    _ if over => -1,
                    None => -1,
                    Some(b'.') => 0,
                    Some(b'#') => 1,
                    Some(c @ b'0'..=b'9') => i64::from(c - b'0'),
                    Some(c) => match ACTIONS.iter().position(|a| a.as_bytes()[0] == *c) {
                        Some(a) => a as i64 + 1,
                        None => -1,
                    },
                });
            }
            for (i, v) in self.registers[g].iter().enumerate() {
                out[base + GPU + i] = T::of(*v);
            }
        }
    }
}

/// The index of a legal line.
pub fn index_of(line: &str) -> Option<usize> {
    ACTIONS.iter().position(|a| *a == line.trim())
}

/// The line of an index (below [`NUM_ACTIONS`]).
pub fn line(index: usize) -> String {
    ACTIONS[index].to_string()
}
