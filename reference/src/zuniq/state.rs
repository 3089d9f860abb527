//! Rules doc §3 "State the referee keeps", and its JSON form from §9 "Trace format and state
//! schema".

use super::board::Wall;
use super::rules::InvalidReason;
use super::zones::{closed_zones, Zone};
use crate::game::PlayerId;
#[cfg(feature = "json")]
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::fmt;

/// One move as a bot prints it (§8): a wall, and whether the line ended with the `!` claim (§7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    /// The wall to place.
    pub wall: Wall,
    /// The line carried `!` (a victory claim, §7).
    pub claim: bool,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.wall, if self.claim { "!" } else { "" })
    }
}

/// How a finished game ended (§6, §8).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The player to move had no legal move; the last mover won (§6).
    NoLegalMoves,
    /// `player` printed an invalid line or gave no answer and lost at once (§8).
    InvalidAction {
        /// The offender.
        player: PlayerId,
        /// Why the line was refused.
        reason: InvalidReason,
    },
}

/// Everything the referee keeps (§3). There is no randomness and no hidden information.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The placed walls (§3: a set of walls).
    pub walls: BTreeSet<Wall>,
    /// Number of valid moves played so far (§3). White moves at plies 1, 3, …
    pub ply: u32,
    /// Ply of each player's first victory claim (§3, §7).
    pub claims: [Option<u32>; 2],
    /// Whether the game is over (§6, §8).
    pub finished: bool,
    /// The winner, once the game is over.
    pub winner: Option<PlayerId>,
    /// Why the game ended, once it is over (needed for the outcome's `reason` and scores).
    pub end: Option<End>,
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

impl State {
    /// The initial state: the empty board, White to move (§3: "The initial state is the empty
    /// board").
    pub fn new() -> State {
        State {
            walls: BTreeSet::new(),
            ply: 0,
            claims: [None, None],
            finished: false,
            winner: None,
            end: None,
        }
    }

    /// The player to move: `ply % 2`, 0 = White (§3, §9 `to_move`).
    pub fn to_move(&self) -> PlayerId {
        (self.ply % 2) as PlayerId
    }

    /// The closed zones, recomputed from the walls (§3: derived), sorted by size.
    pub fn zones(&self) -> Vec<Zone> {
        closed_zones(&self.walls)
    }

    /// 25 − the sum of the closed zones' sizes (§9 `open_cells`).
    pub fn open_cells(&self) -> usize {
        25 - self.zones().iter().map(Zone::size).sum::<usize>()
    }

    /// The state as the traces write it (§9), keys as documented.
    #[cfg(feature = "json")]
    pub fn to_json(&self) -> Value {
        let zones: Vec<Value> = self
            .zones()
            .iter()
            .map(|zone| {
                let cells: Vec<String> = zone.cells.iter().map(|c| c.name()).collect();
                json!({"size": zone.size(), "cells": cells})
            })
            .collect();
        let walls: Vec<String> = self.walls.iter().map(|w| w.name()).collect();
        json!({
            "ply": self.ply,
            "to_move": self.to_move(),
            "walls": walls,
            "zones": zones,
            "open_cells": self.open_cells(),
            "claims": self.claims,
            "finished": self.finished,
            "winner": self.winner,
        })
    }
}
