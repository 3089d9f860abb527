//! Rules doc §5 "Legal moves", §6 "Turn structure, end of game", §7 "Victory claim (`!`) and
//! scoring", and the consequences §8 gives to bad output, in the doc's order. The rules take
//! typed moves; reading a printed line is [`super::protocol`], and the referee's turn that
//! reads one and gives it its consequence is [`super::referee`].

use super::board::{all_walls, Wall};
use super::state::{Action, End, State};
use super::zones::{closed_zones, region_of, Zone};
use crate::game::{IllegalAction, ParseError, PlayerId, StepError};
use std::collections::BTreeSet;
use std::fmt;

/// Why a well-formed move is illegal (§5, reported as in §8 checks 3–5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// §5 rule 1: the wall is already placed.
    Occupied,
    /// §5 rule 2: a cell next to the wall belongs to a closed zone.
    InsideClosedZone,
    /// §5 rule 3: the move would close a zone of this size, already used earlier in the game.
    DuplicateZoneSize(usize),
}

impl Illegal {
    /// The trace's reason code (§8, §9).
    pub fn code(self) -> &'static str {
        match self {
            Illegal::Occupied => "occupied",
            Illegal::InsideClosedZone => "inside_closed_zone",
            Illegal::DuplicateZoneSize(_) => "duplicate_zone_size",
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::Occupied => write!(f, "the wall is already placed (rules §5.1)"),
            Illegal::InsideClosedZone => {
                write!(f, "the wall is inside a closed zone (rules §5.2)")
            }
            Illegal::DuplicateZoneSize(size) => {
                write!(f, "the move would close a second zone of size {size} (rules §5.3)")
            }
        }
    }
}

/// §5: checks the three conditions, in the order §8 reports them (occupied, inside a closed
/// zone, repeated size). On success returns the zone the move closes, if any.
pub fn check_wall(walls: &BTreeSet<Wall>, wall: Wall) -> Result<Option<Zone>, Illegal> {
    check_wall_with_zones(walls, &closed_zones(walls), wall)
}

/// [`check_wall`] with the position's closed zones already computed (`zones` must be
/// `closed_zones(walls)`), so that listing all legal walls computes them once.
pub fn check_wall_with_zones(
    walls: &BTreeSet<Wall>,
    zones: &[Zone],
    wall: Wall,
) -> Result<Option<Zone>, Illegal> {
    // 1. not already placed
    if walls.contains(&wall) {
        return Err(Illegal::Occupied);
    }
    // 2. not inside a closed zone: no cell next to the wall belongs to one
    let inside = wall.cells().into_iter().any(|cell| zones.iter().any(|z| z.contains(cell)));
    if inside {
        return Err(Illegal::InsideClosedZone);
    }
    // 3. a zone it closes has a size no earlier zone has. Both sides of the wall reach OUTSIDE
    // before the move (rule 2 holds), so a zone it closes is the region of a neighbouring cell
    // that no longer reaches OUTSIDE once the wall is placed (§4: at most one).
    let mut after = walls.clone();
    after.insert(wall);
    for cell in wall.cells() {
        let (cells, open) = region_of(cell, &after);
        if open {
            continue;
        }
        let zone = Zone { cells };
        if zones.iter().any(|old| old.size() == zone.size()) {
            return Err(Illegal::DuplicateZoneSize(zone.size()));
        }
        return Ok(Some(zone));
    }
    Ok(None)
}

/// §5: every legal wall for the player to move, in ASCII order of the names (the traces' `legal`
/// order). Empty once the game is over.
pub fn legal_walls(state: &State) -> Vec<Wall> {
    if state.finished {
        return Vec::new();
    }
    legal_walls_of(&state.walls)
}

/// §5: the legal walls of a wall set (who is to move does not matter for legality).
pub fn legal_walls_of(walls: &BTreeSet<Wall>) -> Vec<Wall> {
    let zones = closed_zones(walls);
    all_walls().into_iter().filter(|&w| check_wall_with_zones(walls, &zones, w).is_ok()).collect()
}

/// A referee message of one turn (§9 "Events", exact templates).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `player P claims victory at ply X` (§7: the first `!` of a player).
    Claim {
        /// The claimer: 0 = White, 1 = Black.
        player: PlayerId,
        /// `X`: the 1-based ply of the move carrying the `!` (the new ply count), which sets the
        /// bonus `min(10, max(0, (C − X) / 2))`, C = 39 for White, 40 for Black.
        ply: u32,
    },
    /// `player P repeats claim (ignored)` (§7: a later `!` of the same player).
    RepeatClaim {
        /// The player (0 = White, 1 = Black) who had already claimed.
        player: PlayerId,
    },
    /// `zone closed: size N` (§4, at most one per move).
    ZoneClosed {
        /// `N`: the new zone's cell count, 1..25, different from every earlier zone's (§5 rule 3).
        size: usize,
    },
    /// `player Q has no legal move` (§6: the game ends).
    NoLegalMove {
        /// `Q`: the player now to move, who loses; the mover wins.
        player: PlayerId,
    },
    /// `invalid action by player P: R` (§8).
    Invalid {
        /// `P`: the offender, who loses with 0 points (§7).
        player: PlayerId,
        /// `R`: the first of the §8 checks that failed (timeout, malformed, occupied, ...).
        reason: InvalidReason,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Claim { player, ply } => {
                write!(f, "player {player} claims victory at ply {ply}")
            }
            Event::RepeatClaim { player } => write!(f, "player {player} repeats claim (ignored)"),
            Event::ZoneClosed { size } => write!(f, "zone closed: size {size}"),
            Event::NoLegalMove { player } => write!(f, "player {player} has no legal move"),
            Event::Invalid { player, reason } => {
                write!(f, "invalid action by player {player}: {}", reason.code())
            }
        }
    }
}

/// Why a bot's answer was refused (§8, checks in order: timeout, malformed, occupied,
/// inside_closed_zone, duplicate_zone_size).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InvalidReason {
    /// No answer at all (trace `null`).
    Timeout,
    /// The line is not a wall name with an optional `!`; says what and where.
    Malformed(ParseError),
    /// A well-formed move that §5 forbids.
    Illegal(Illegal),
}

impl InvalidReason {
    /// The trace's reason code (§8).
    pub fn code(&self) -> &'static str {
        match self {
            InvalidReason::Timeout => "timeout",
            InvalidReason::Malformed(_) => "malformed",
            InvalidReason::Illegal(illegal) => illegal.code(),
        }
    }
}

/// §6 and §7: plays a legal move for the player to move: places the wall, advances the ply,
/// records a first claim, and ends the game when the next player has no legal move. Returns
/// the turn's events in the §9 order (claim, zone closed, no legal move). Refuses (changing
/// nothing) when the game is over or the move is illegal.
pub fn apply_move(state: &mut State, action: Action) -> Result<Vec<Event>, StepError> {
    if state.finished {
        return Err(StepError::GameOver);
    }
    let mover = state.to_move();
    let closed = check_wall(&state.walls, action.wall).map_err(|illegal| StepError::Illegal {
        player: mover,
        error: IllegalAction { reason: illegal.to_string() },
    })?;
    let mut events = Vec::new();
    state.walls.insert(action.wall);
    state.ply += 1;
    // §7: only the first `!` of a player counts; x = the ply of this move.
    if action.claim {
        if state.claims[mover].is_none() {
            state.claims[mover] = Some(state.ply);
            events.push(Event::Claim { player: mover, ply: state.ply });
        } else {
            events.push(Event::RepeatClaim { player: mover });
        }
    }
    if let Some(zone) = closed {
        events.push(Event::ZoneClosed { size: zone.size() });
    }
    // §6: if the player now to move has no legal move, the last mover wins.
    let next = state.to_move();
    if legal_walls(state).is_empty() {
        state.finished = true;
        state.winner = Some(mover);
        state.end = Some(End::NoLegalMoves);
        events.push(Event::NoLegalMove { player: next });
    }
    Ok(events)
}

/// §8: the offender loses at once. Nothing is recorded (no wall, no ply, no claim); only
/// `finished`, `winner` (the opponent) and the reason change.
pub fn forfeit(state: &mut State, reason: InvalidReason) -> Vec<Event> {
    let offender = state.to_move();
    state.finished = true;
    state.winner = Some(1 - offender);
    state.end = Some(End::InvalidAction { player: offender, reason: reason.clone() });
    vec![Event::Invalid { player: offender, reason }]
}

/// §7: the claim bonus of `player` if it wins: min(10, max(0, (C − x) / 2)) with C = 39 for
/// White and 40 for Black, x the ply of its first claim; 0 without a claim.
pub fn claim_bonus(player: PlayerId, claim: Option<u32>) -> i64 {
    let Some(x) = claim else { return 0 };
    let c = if player == 0 { 39 } else { 40 };
    ((c - i64::from(x)).max(0) / 2).min(10)
}

/// §7: final scores of a finished game (None while it runs). No legal move: winner 100 (+ its
/// bonus), loser 50 or 0 if it had claimed. Invalid action or timeout: offender 0, the other 100
/// (+ its bonus).
pub fn scores(state: &State) -> Option<[i64; 2]> {
    let winner = state.winner.filter(|&w| w < 2)?;
    let loser = 1 - winner;
    let mut scores = [0; 2];
    scores[winner] = 100 + claim_bonus(winner, state.claims[winner]);
    scores[loser] = match state.end.as_ref()? {
        End::NoLegalMoves if state.claims[loser].is_none() => 50,
        End::NoLegalMoves => 0,
        End::InvalidAction { .. } => 0,
    };
    Some(scores)
}

/// The outcome's `reason` code (§9): `no_legal_moves` or `invalid_action`.
pub fn end_reason(state: &State) -> Option<&'static str> {
    match state.end.as_ref()? {
        End::NoLegalMoves => Some("no_legal_moves"),
        End::InvalidAction { .. } => Some("invalid_action"),
    }
}
