//! §2 State kept by the referee, §10 league parameters, and the typed action.

use super::board::NUM_CELLS;
use crate::java_random::JavaRandom;
use std::collections::BTreeMap;
use std::fmt;

/// The league parameters of §10 (level 1 = Wood 2, 2 = Wood 1, 3 and above = Bronze+).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// The referee's `league_level`; 4 and above behave exactly like 3.
    pub league_level: u8,
}

impl Default for Params {
    /// The top league: the real contest rules.
    fn default() -> Self {
        Params { league_level: 3 }
    }
}

impl Params {
    /// `MAX_ROUNDS`: 24 days in league ≥ 3, 6 in league 2, 1 in league 1 (§5, §10).
    pub fn max_rounds(&self) -> u32 {
        match self.league_level {
            0 | 1 => 1,
            2 => 6,
            _ => 24,
        }
    }

    /// Whether GROW is a command of this league (§6.2 table, §10).
    pub fn grow_enabled(&self) -> bool {
        self.league_level >= 2
    }

    /// Whether SEED is a command of this league (§6.2 table, §10).
    pub fn seed_enabled(&self) -> bool {
        self.league_level >= 3
    }

    /// Whether holes are dug and shadows computed (league ≥ 3; §4a, §5, §10).
    pub fn full_rules(&self) -> bool {
        self.league_level >= 3
    }

    /// `STARTING_TREE_COUNT` per player (§4b, §10).
    pub fn starting_tree_count(&self) -> usize {
        match self.league_level {
            0 | 1 => 6,
            2 => 4,
            _ => 2,
        }
    }

    /// `STARTING_TREE_DISTANCE` (§4b, §10).
    pub fn starting_tree_distance(&self) -> i32 {
        match self.league_level {
            0 | 1 => 0,
            2 => 1,
            _ => 2,
        }
    }

    /// Size of the starting trees (§4b, §10).
    pub fn starting_tree_size(&self) -> u8 {
        match self.league_level {
            0 | 1 => 3,
            _ => 1,
        }
    }

    /// The "expected" text of the invalid-input message (§10, §13a).
    pub fn expected_text(&self) -> &'static str {
        match self.league_level {
            0 | 1 => "COMPLETE <idx> | WAIT",
            2 => "GROW <idx> | COMPLETE <idx> | WAIT",
            _ => "SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT",
        }
    }
}

/// A tree (§2): size 0 is a seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tree {
    /// 0 (seed) to 3.
    pub size: u8,
    /// The owner, 0 or 1.
    pub owner: usize,
    /// Already used this day.
    pub dormant: bool,
}

/// One player's counters (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    /// Committed sun points.
    pub sun: i32,
    /// Score (−1 once disqualified).
    pub score: i32,
    /// Asleep for the rest of the day.
    pub waiting: bool,
    /// False once disqualified.
    pub active: bool,
}

impl Player {
    fn new() -> Self {
        Player { sun: 0, score: 0, waiting: false, active: true }
    }
}

/// Everything the referee keeps at a decision point (the start of an ACTIONS frame) or at the
/// end of the game (§2, §13 state schema).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// League parameters (§10).
    pub params: Params,
    /// `round`: the day, 0-based (§2).
    pub day: u32,
    /// `sun.orientation`, 0..6 (§2, §5).
    pub sun_direction: usize,
    /// Nutrients, from 20, never below 0 (§2).
    pub nutrients: i32,
    /// Both players (§2).
    pub players: [Player; 2],
    /// Trees by cell index, iterated in ascending index (§2).
    pub trees: BTreeMap<usize, Tree>,
    /// Richness of every cell, 0 = hole (§1, §4a).
    pub richness: [u8; NUM_CELLS],
    /// Largest size of a tree shadowing each cell, as computed at the last sun move (§5).
    pub shadows: [u8; NUM_CELLS],
    /// The game RNG, before this decision point's possible-action shuffles (§3, §8).
    pub rng: JavaRandom,
    /// The game is over (§5 "End of game").
    pub game_over: bool,
    /// Bot executions so far (§11).
    pub executions: u32,
}

impl State {
    /// The state before setup draws anything: default richness, no trees, day 0 (§2, §4a step 1).
    pub fn blank(seed: i64, params: Params) -> State {
        State {
            params,
            day: 0,
            sun_direction: 0,
            nutrients: 20,
            players: [Player::new(), Player::new()],
            trees: BTreeMap::new(),
            richness: std::array::from_fn(super::board::default_richness),
            shadows: [0; NUM_CELLS],
            rng: JavaRandom::new(seed),
            game_over: false,
            executions: 0,
        }
    }

    /// Whether `player` is asked for output at this decision point: active and not waiting, and
    /// the game not over (§6.1 step 2).
    pub fn is_asked(&self, player: usize) -> bool {
        !self.game_over
            && player < 2
            && self.players[player].active
            && !self.players[player].waiting
    }
}

/// One well-formed command (§6.2). The cosmetic message is not part of the action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `WAIT`: sleep until the next day.
    Wait,
    /// `GROW <idx>`.
    Grow(i32),
    /// `COMPLETE <idx>`.
    Complete(i32),
    /// `SEED <source> <target>`.
    Seed(i32, i32),
}

impl fmt::Display for Action {
    /// The line a bot prints for this action.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Wait => write!(f, "WAIT"),
            Action::Grow(i) => write!(f, "GROW {i}"),
            Action::Complete(i) => write!(f, "COMPLETE {i}"),
            Action::Seed(s, t) => write!(f, "SEED {s} {t}"),
        }
    }
}
