//! The whole referee state around the hot [`Board`]: end of game, winner, why; the referee's
//! turn from a bot's line; the typed API [`FastZuniq`]; conversions from and to the reference
//! state; the §9 JSON.

use super::board::{Board, Check};
use super::tables::*;
#[cfg(feature = "json")]
use serde_json::{json, Value};
use twinsim_reference::game::{Game, IllegalAction, Outcome, PlayerId, StepError, TurnStructure};
use twinsim_reference::zuniq::rules::{Event, Illegal, InvalidReason};
use twinsim_reference::zuniq::{Action, End, Orientation, Params, State as RefState, Wall};

/// Fast Zuniq state: the board plus how the game ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    /// Walls, ply, claims and the derived zone masks (§3); twin of the reference's `walls`,
    /// `ply` and `claims`.
    pub board: Board,
    /// Whether the game is over (§6 no legal move, or §8 invalid output / timeout): the trace's
    /// `finished`.
    pub finished: bool,
    /// The winner once over: the last mover after §6, the offender's opponent after §8
    /// (0 = White, 1 = Black). Zuniq has no draws.
    pub winner: Option<PlayerId>,
    /// Why it ended, once it has: the reference's [`End`].
    pub end: Option<End>,
}

/// Wall index 0..59 of a reference wall (`Xnh` → `5*row + (n-1)`, `Xnv` → `30 + 6*row +
/// (n-1)`, rules doc §2).
pub fn index_of(wall: Wall) -> usize {
    wall_index(
        wall.row() as usize,
        wall.col() as usize,
        wall.orientation() == Orientation::Vertical,
    )
}

/// Reference wall of a wall index (< 60).
pub fn wall_of(w: usize) -> Wall {
    let (r, c, v) = wall_coords(w);
    let o = if v { Orientation::Vertical } else { Orientation::Horizontal };
    // Every index below 60 names an existing wall (tested).
    Wall::new(r as u8, c as u8, o).unwrap_or_else(|| unreachable!("wall index {w}"))
}

impl From<&RefState> for State {
    fn from(s: &RefState) -> State {
        let walls = s.walls.iter().fold(0u64, |m, &w| m | 1 << index_of(w));
        let claims = [s.claims[0].unwrap_or(0) as u8, s.claims[1].unwrap_or(0) as u8];
        State {
            board: Board::from_walls(walls, s.ply as u8, claims),
            finished: s.finished,
            winner: s.winner,
            end: s.end.clone(),
        }
    }
}

impl State {
    /// The reference state (walls, ply, claims, end).
    pub fn to_reference(&self) -> RefState {
        let b = &self.board;
        let claim = |p: usize| (b.claims[p] != 0).then_some(u32::from(b.claims[p]));
        RefState {
            walls: (0..60).filter(|w| b.walls >> w & 1 == 1).map(wall_of).collect(),
            ply: u32::from(b.ply),
            claims: [claim(0), claim(1)],
            finished: self.finished,
            winner: self.winner,
            end: self.end.clone(),
        }
    }

    /// Legal walls as a mask (0 once over). Twin of
    /// [`twinsim_reference::zuniq::rules::legal_walls`].
    pub fn legal_mask(&self) -> u64 {
        if self.finished {
            0
        } else {
            self.board.legal_mask()
        }
    }

    /// §8: the offender loses at once; nothing else changes. Twin of `rules::forfeit`.
    fn forfeit(&mut self, reason: InvalidReason, events: &mut Vec<Event>) {
        let offender = self.board.to_move();
        self.finished = true;
        self.winner = Some(1 - offender);
        self.end = Some(End::InvalidAction { player: offender, reason: reason.clone() });
        events.push(Event::Invalid { player: offender, reason });
    }

    /// A legal move: place, claim, end test (§6, §7). `cut` from [`Board::check`].
    /// Twin of [`twinsim_reference::zuniq::rules::apply_move`].
    pub fn apply(&mut self, w: usize, cut: u32, claim: bool, events: &mut Vec<Event>) {
        self.apply_with(w, cut, claim, |event| events.push(event));
    }

    /// [`State::apply`] handing each event to `event` (in the §9 order) instead of a list, so
    /// that a caller who ignores them allocates nothing. Twin of
    /// [`twinsim_reference::zuniq::rules::apply_move`].
    #[inline]
    pub fn apply_with(&mut self, w: usize, cut: u32, claim: bool, mut event: impl FnMut(Event)) {
        let mover = self.board.to_move();
        self.board.place(w, cut);
        if claim {
            if self.board.claim(mover) {
                event(Event::Claim { player: mover, ply: u32::from(self.board.ply) });
            } else {
                event(Event::RepeatClaim { player: mover });
            }
        }
        if cut != 0 {
            event(Event::ZoneClosed { size: cut.count_ones() as usize });
        }
        if !self.board.has_legal_move() {
            self.finished = true;
            self.winner = Some(mover);
            self.end = Some(End::NoLegalMoves);
            event(Event::NoLegalMove { player: 1 - mover });
        }
    }

    /// §8: one referee turn from the mover's line (`None`: timeout). Returns the placed wall
    /// and the events, or `Err` when the game is already over. Twin of `referee::play_turn`.
    pub fn play_turn(
        &mut self,
        line: Option<&str>,
        events: &mut Vec<Event>,
    ) -> Result<Option<usize>, StepError> {
        if self.finished {
            return Err(StepError::GameOver);
        }
        let Some(line) = line else {
            self.forfeit(InvalidReason::Timeout, events);
            return Ok(None);
        };
        let Some((w, claim)) = parse_line(line.as_bytes()) else {
            // Cold path: the reference parser says what and where.
            let error = match twinsim_reference::zuniq::parse_line(line) {
                Err(error) => error,
                Ok(_) => twinsim_reference::game::ParseError::at(
                    1,
                    "a move the fast parser accepts",
                    line,
                ),
            };
            self.forfeit(InvalidReason::Malformed(error), events);
            return Ok(None);
        };
        match self.board.check(w).legality() {
            Ok(cut) => {
                self.apply(w, cut, claim, events);
                Ok(Some(w))
            }
            Err(illegal) => {
                self.forfeit(InvalidReason::Illegal(illegal), events);
                Ok(None)
            }
        }
    }

    /// §9 state JSON, built from the fast representation. Twin of `State::to_json`.
    #[cfg(feature = "json")]
    pub fn to_json(&self) -> Value {
        let b = &self.board;
        let links = super::board::Links::of(b.walls);
        let mut zones: Vec<(u32, Vec<String>)> = Vec::new();
        let mut rest = b.closed;
        while rest != 0 {
            let zone = links.component(1 << rest.trailing_zeros()) & b.closed;
            rest &= !zone;
            let cells = (0..25)
                .filter(|c| zone >> c & 1 == 1)
                .map(|c| format!("{}{}", (b'A' + (c / 5) as u8) as char, c % 5 + 1))
                .collect();
            zones.push((zone.count_ones(), cells));
        }
        zones.sort();
        let zones: Vec<Value> =
            zones.into_iter().map(|(size, cells)| json!({"size": size, "cells": cells})).collect();
        let claim = |p: usize| (b.claims[p] != 0).then_some(b.claims[p]);
        json!({
            "ply": b.ply,
            "to_move": b.to_move(),
            "walls": wall_names(b.walls),
            "zones": zones,
            "open_cells": 25 - b.closed.count_ones(),
            "claims": [claim(0), claim(1)],
            "finished": self.finished,
            "winner": self.winner,
        })
    }

    /// §7 scores (None while running). Twin of `rules::scores`.
    pub fn scores(&self) -> Option<[i64; 2]> {
        let winner = self.winner.filter(|&w| w < 2)?;
        let loser = 1 - winner;
        let bonus = |p: usize| {
            let x = i64::from(self.board.claims[p]);
            if x == 0 {
                0
            } else {
                ((39 + p as i64 - x).max(0) / 2).min(10)
            }
        };
        let mut scores = [0; 2];
        scores[winner] = 100 + bonus(winner);
        scores[loser] = match self.end.as_ref()? {
            End::NoLegalMoves if self.board.claims[loser] == 0 => 50,
            _ => 0,
        };
        Some(scores)
    }
}

impl Check {
    /// The cells a legal wall cuts off, or the reference's reason for refusing it (§5, in
    /// §8's order). Twin of the result of [`twinsim_reference::zuniq::rules::check_wall`].
    #[inline]
    pub fn legality(self) -> Result<u32, Illegal> {
        match self {
            Check::Legal(cut) => Ok(cut),
            Check::Occupied => Err(Illegal::Occupied),
            Check::InsideClosedZone => Err(Illegal::InsideClosedZone),
            Check::DuplicateZoneSize(size) => Err(Illegal::DuplicateZoneSize(size as usize)),
        }
    }
}

/// The typed game API ([`Game`]) over the fast state. Reference twin:
/// [`twinsim_reference::zuniq::Zuniq`]. Same `Action` and `Params` types as the reference (a wall
/// index is converted at the boundary); `new_game`, `players_to_act`, `legal_actions` (ASCII order,
/// no claims), `step` (same refusals, same errors, same resulting state) and `outcome` agree with
/// it exactly.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastZuniq;

impl Game for FastZuniq {
    type State = State;
    type Action = Action;
    type Params = Params;

    const NAME: &'static str = "zuniq";
    const TURNS: TurnStructure = TurnStructure::Alternating;

    /// §3: the empty board whatever the seed. Twin of `Zuniq::new_game`.
    fn new_game(_seed: i64, _params: &Params) -> State {
        State::default()
    }

    fn num_players(_state: &State) -> usize {
        2
    }

    fn is_over(state: &State) -> bool {
        state.finished
    }

    fn is_to_act(state: &State, player: PlayerId) -> bool {
        !state.finished && player == state.board.to_move()
    }

    /// §6: the player to move, until the game is over. Twin of `Zuniq::players_to_act`.
    fn players_to_act(state: &State) -> Vec<PlayerId> {
        if state.finished {
            vec![]
        } else {
            vec![state.board.to_move()]
        }
    }

    /// §5: the legal walls in ASCII order of their names, without the `!` claim. Twin of
    /// `Zuniq::legal_actions`.
    fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
        if state.finished || player != state.board.to_move() {
            return vec![];
        }
        let legal = state.board.legal_mask();
        ASCII_ORDER
            .iter()
            .filter(|&&w| legal >> w & 1 == 1)
            .map(|&w| Action { wall: wall_of(w as usize), claim: false })
            .collect()
    }

    /// §6, §7: the mover's slot must hold a legal move and the other slot must be empty; an
    /// illegal move is refused with [`StepError::Illegal`] (the reference's message) and
    /// changes nothing. Twin of `Zuniq::step`.
    fn apply(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        let mover = state.board.to_move();
        let Some(action) = actions[mover] else {
            // `check_turn` refuses this already; `apply` called alone refuses it the same way.
            return Err(StepError::NotToAct { player: mover });
        };
        let w = index_of(action.wall);
        match state.board.check(w).legality() {
            Ok(cut) => {
                state.apply_with(w, cut, action.claim, |_| ());
                Ok(())
            }
            Err(illegal) => Err(StepError::Illegal {
                player: mover,
                error: IllegalAction { reason: illegal.to_string() },
            }),
        }
    }

    /// §7: scores, ranks and the §9 reason code. Twin of `Zuniq::outcome`.
    fn outcome(state: &State) -> Option<Outcome> {
        let scores = state.scores()?.to_vec();
        let reason = match state.end.as_ref()? {
            End::NoLegalMoves => "no_legal_moves",
            End::InvalidAction { .. } => "invalid_action",
        };
        let ranks = Outcome::ranks_from_scores(&scores);
        Some(Outcome { scores, ranks, reason: reason.to_string() })
    }
}

/// Names of the walls of a mask, in ASCII order (§9 `walls`, `legal`).
pub fn wall_names(mask: u64) -> Vec<String> {
    ASCII_ORDER
        .iter()
        .filter(|&&w| mask >> w & 1 == 1)
        .map(|&w| String::from_utf8_lossy(&wall_name(w as usize)).into_owned())
        .collect()
}

/// §8 check 2 on bytes: `[A-F][1-5]h` or `[A-E][1-6]v`, optionally followed by one `!`.
/// Twin of [`twinsim_reference::zuniq::parse_line`] (which also says what is wrong).
#[inline]
pub fn parse_line(line: &[u8]) -> Option<(usize, bool)> {
    let (name, claim) = match line {
        [a, b, c] => ([*a, *b, *c], false),
        [a, b, c, b'!'] => ([*a, *b, *c], true),
        _ => return None,
    };
    let row = name[0].wrapping_sub(b'A') as usize;
    let col = name[1].wrapping_sub(b'1') as usize;
    let w = match name[2] {
        b'h' if row < 6 && col < 5 => wall_index(row, col, false),
        b'v' if row < 5 && col < 6 => wall_index(row, col, true),
        _ => return None,
    };
    Some((w, claim))
}
