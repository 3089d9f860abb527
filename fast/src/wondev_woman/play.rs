//! The full text-level turn on the fast state: parse the printed line (with the reference
//! parser: parsing is not a hot path and must read exactly as the referee), check it in the
//! referee's order with its reason codes and messages, apply, pass the turn (twins:
//! `referee::play_turn`, `referee::resolve_output`, `rules::check_move`, `rules::check_push`,
//! `rules::act`).

use super::board::{delta, point, sorted_index, Rec, State, NB, NONE, PUSH_OK};
use super::movegen::{apply_record, kill, pass_turn};
use twinsim_reference::wondev_woman::protocol::{self, Command, Word};
use twinsim_reference::wondev_woman::referee::TurnError;
use twinsim_reference::wondev_woman::rules;
use twinsim_reference::wondev_woman::state::{Dir, Elimination, Event, Kind, Reason};

fn coords(c: u8, d: usize) -> (i32, i32) {
    let p = point(c);
    let (dx, dy) = delta(d);
    (p.x + dx, p.y + dy)
}

/// The cell of `c + d` if it exists on the map.
#[inline]
fn existing(s: &State, c: u8, d: usize) -> Option<u8> {
    let n = NB[c as usize][d];
    (n != NONE && s.cells & (1u64 << n) != 0).then_some(n)
}

/// §4, §13: the `InvalidInput` elimination for the text `line` (twin: `rules::invalid_input`).
pub(crate) fn invalid_input(s: &State, line: &str) -> Elimination {
    Elimination::new(Reason::InvalidInput, rules::expected(s.league), line)
}

/// §5 in the referee's order (twin: `rules::check_move`).
pub fn check_move(
    s: &State,
    player: usize,
    unit: usize,
    d1: Dir,
    d2: Dir,
) -> Result<Rec, Elimination> {
    let g = player * 2 + unit;
    let c = s.units[g];
    let (a, b) = (sorted_index(d1) as usize, sorted_index(d2) as usize);
    let Some(t) = existing(s, c, a) else {
        let (x, y) = coords(c, a);
        return Err(Elimination::new(Reason::BadCoords, x, y));
    };
    let (hc, ht) = (s.h[c as usize], s.h[t as usize]);
    let tp = point(t);
    if ht > hc + 1 {
        return Err(Elimination::new(Reason::InvalidMove, hc, ht));
    }
    if ht >= 4 {
        return Err(Elimination::new(Reason::MoveTooHigh, tp.x, tp.y));
    }
    let occ = s.occupied();
    if occ & (1u64 << t) != 0 {
        return Err(Elimination::new(Reason::MoveOnUnit, tp.x, tp.y));
    }
    let Some(place) = existing(s, t, b) else {
        let (x, y) = coords(t, b);
        return Err(Elimination::new(Reason::InvalidPlace, x, y));
    };
    if s.h[place as usize] >= 4 {
        return Err(Elimination::new(Reason::PlaceTooHigh, ht, ""));
    }
    let bit = 1u64 << place;
    let mut place_valid = true;
    if occ & !(1u64 << c) & bit != 0 {
        if s.visible_units(player) & bit != 0 {
            let pp = point(place);
            return Err(Elimination::new(Reason::PlaceOnUnit, pp.x, pp.y));
        }
        place_valid = false;
    }
    Ok(Rec {
        kind: Kind::Move,
        player: player as u8,
        unit: unit as u8,
        moved: g as u8,
        move_target: t,
        place_target: place,
        move_valid: true,
        place_valid,
        score: ht == 3,
    })
}

/// §6 in the referee's order (twin: `rules::check_push`).
pub fn check_push(
    s: &State,
    player: usize,
    unit: usize,
    d1: Dir,
    d2: Dir,
) -> Result<Rec, Elimination> {
    let c = s.units[player * 2 + unit];
    let (a, b) = (sorted_index(d1) as usize, sorted_index(d2) as usize);
    if PUSH_OK[a] & (1 << b) == 0 {
        return Err(Elimination::new(Reason::PushInvalid, d1, d2));
    }
    let t = NB[c as usize][a];
    let victim = if t == NONE { None } else { s.unit_on(t) };
    let Some(victim) = victim else {
        let (x, y) = coords(c, a);
        return Err(Elimination::new(Reason::PushVoid, x, y));
    };
    if victim / 2 == player {
        return Err(Elimination::new(Reason::FriendlyFire, unit, victim % 2));
    }
    let to = existing(s, t, b).filter(|&d| {
        let hd = s.h[d as usize];
        hd < 4 && hd <= s.h[t as usize] + 1
    });
    let Some(to) = to else {
        return Err(Elimination::new(Reason::PushInvalid, d1, d2));
    };
    let bit = 1u64 << to;
    let mut valid = true;
    if s.occupied() & bit != 0 {
        if s.visible_units(player) & bit != 0 {
            return Err(Elimination::new(Reason::PushOnUnit, d1, d2));
        }
        valid = false;
    }
    Ok(Rec {
        kind: Kind::Push,
        player: player as u8,
        unit: unit as u8,
        moved: victim as u8,
        move_target: to,
        place_target: t,
        move_valid: valid,
        place_valid: valid,
        score: false,
    })
}

/// §4/§10: what the referee makes of a printed line (`None`: timeout).
pub fn resolve_output(s: &State, player: usize, line: Option<&str>) -> Result<Rec, Elimination> {
    let Some(line) = line else {
        return Err(Elimination::new(Reason::Timeout, player, ""));
    };
    match protocol::parse_line(line) {
        Err(_) => Err(invalid_input(s, line)),
        Ok(Command::AcceptDefeat { .. }) => Err(Elimination::new(Reason::SelfDestruct, player, "")),
        Ok(Command::Act { word, index, dir1, dir2, .. }) => {
            if index >= s.per_player as usize {
                return Err(invalid_input(s, line));
            }
            match word {
                Word::Move => check_move(s, player, index, dir1, dir2),
                Word::Push { exact: true } if s.league.can_push() => {
                    check_push(s, player, index, dir1, dir2)
                }
                Word::Push { .. } => Err(Elimination::new(Reason::InvalidCommand, "", "")),
            }
        }
    }
}

/// The event of a record.
pub fn event_of(rec: &Rec) -> Event {
    Event::from_record(&rec.to_reference())
}

/// §10 + §3: one whole turn from a printed line; returns the turn's events (§13.1) (twin:
/// `referee::play_turn`).
pub fn play_turn(s: &mut State, line: Option<&str>) -> Result<Vec<Event>, TurnError> {
    if s.game_over || s.to_move > 1 {
        return Err(TurnError::GameOver);
    }
    let player = s.to_move as usize;
    let events = match resolve_output(s, player, line) {
        Err(e) => {
            kill(s, player);
            vec![Event::Eliminated { player, reason: e.reason, message: e.message }]
        }
        Ok(rec) => {
            apply_record(s, &rec);
            s.records[player * 2..player * 2 + 2].iter().flatten().map(event_of).collect()
        }
    };
    pass_turn(s, player);
    Ok(events)
}
