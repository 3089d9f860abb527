//! The rules, in the order of `docs/rules/wondev-woman.md`: §1 heights, §3 turn structure, §4 the
//! eliminations of a bad printed line, §5 MOVE&BUILD, §6 PUSH&BUILD, §7 fog of war, §8 elimination and
//! end of game, §9 the legal list, §10 one action, §11 the league differences.
//!
//! An action played goes through one path whatever its source (a printed line,
//! [`super::referee::play_turn`]; a
//! typed action, [`apply_action`] and [`crate::game::Game::step`]; our own action replayed by
//! the fog deduction, `bot::fog`): [`check_action`] (§5, §6, with the league's §11
//! restrictions) gives the action's [`Record`] or the elimination, [`apply_effects`] applies a
//! record (§10), and [`act`] keeps the record, or eliminates, and passes the turn (§3). A printed
//! line is read and checked by the referee ([`super::referee::resolve_output`], §4), which ends in
//! [`check_action`]; the eliminations it gives are here. The legal
//! list (§9, [`legal_actions`]) tries [`check_move`] and [`check_push`] on every unit and
//! direction pair, as the referee does.

use super::state::{
    Action, Dir, Elimination, EndReason, Event, Kind, LastTurn, League, Point, Reason, Record,
    State,
};

// ---------------------------------------------------------------------------------------------
// §1 Board

/// §1: height of a dome.
pub const FINAL_HEIGHT: u8 = 4;

// ---------------------------------------------------------------------------------------------
// §3 Turn structure

/// §3: the round limit (`getMaxRoundCount`).
pub const MAX_ROUNDS: u32 = 200;

/// §3: after `player`'s action, the turn goes to player 1 (if it was player 0 and player 1 is
/// alive) or across the round boundary: `round++`, `updateGame` (§11), the end test (§8), the
/// round limit; then player 0 (records cleared) or, if it is eliminated, player 1.
pub fn pass_turn(state: &mut State, player: usize) {
    if player == 0 && !state.dead[1] {
        state.to_move = Some(1);
        return;
    }
    state.round += 1;
    update_game(state);
    if let Some(reason) = end_test(state) {
        finish(state, reason);
    } else if state.round >= MAX_ROUNDS {
        finish(state, EndReason::MaxRounds);
    } else if !state.dead[0] {
        clear_records(state);
        state.to_move = Some(0);
    } else {
        state.to_move = Some(1);
    }
}

/// §3, §8: the game ends at a round boundary, for `reason`; nobody is to move any more.
fn finish(state: &mut State, reason: EndReason) {
    state.game_over = true;
    state.to_move = None;
    state.end_reason = Some(reason);
}

/// §3: the `prepare` step: clears every unit's action record.
pub fn clear_records(state: &mut State) {
    for player_records in state.records.iter_mut() {
        for r in player_records.iter_mut() {
            *r = None;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// §4 Output syntax and validation: the eliminations (the referee's reading of a line is
// `referee::resolve_output`)

/// §13: the `expected` part of the `InvalidInput` message (no push below version 2).
pub fn expected(league: League) -> &'static str {
    if league.can_push() {
        "MOVE&BUILD | PUSH&BUILD <index> <direction> <direction>"
    } else {
        "MOVE&BUILD <index> <direction> <direction>"
    }
}

/// §4, §13: the `InvalidInput` elimination for the printed (or typed) text `found`.
pub fn invalid_input(state: &State, found: &str) -> Elimination {
    Elimination::new(Reason::InvalidInput, expected(state.params.league), found)
}

/// §8, §10: the elimination of a player whose line was `ACCEPT-DEFEAT`.
pub fn accepts_defeat(player: usize) -> Elimination {
    Elimination::new(Reason::SelfDestruct, player, "")
}

/// §4, §11: the `InvalidCommand` elimination: a push word not exactly `PUSH&BUILD`, or a push in
/// a league without pushes.
pub fn invalid_command() -> Elimination {
    Elimination::new(Reason::InvalidCommand, "", "")
}

// ---------------------------------------------------------------------------------------------
// §5 MOVE&BUILD

/// §5: checks a `MOVE&BUILD i d1 d2` of `player`'s unit `unit`, in the referee's order, and
/// returns its record (effects not applied) or the failing check.
pub fn check_move(
    state: &State,
    player: usize,
    unit: usize,
    d1: Dir,
    d2: Dir,
) -> Result<Record, Elimination> {
    let Some(&from) = state.units[player].get(unit) else {
        return Err(invalid_input(state, ""));
    };
    let target = from.neighbour(d1);
    // 1. T must exist.
    let Some(target_height) = state.height(target) else {
        return Err(Elimination::new(Reason::BadCoords, target.x, target.y));
    };
    let current_height = state.height(from).unwrap_or(0);
    // 2. Climb at most one.
    if target_height > current_height + 1 {
        return Err(Elimination::new(Reason::InvalidMove, current_height, target_height));
    }
    // 3. Not onto a dome.
    if target_height >= FINAL_HEIGHT {
        return Err(Elimination::new(Reason::MoveTooHigh, target.x, target.y));
    }
    // 4. Not onto any unit, hidden or not.
    if state.unit_at(target).is_some() {
        return Err(Elimination::new(Reason::MoveOnUnit, target.x, target.y));
    }
    let place = target.neighbour(d2);
    // 5. B must exist.
    let Some(place_height) = state.height(place) else {
        return Err(Elimination::new(Reason::InvalidPlace, place.x, place.y));
    };
    // 6. B must not be a dome (the message quotes h(T), a referee quirk).
    if place_height >= FINAL_HEIGHT {
        return Err(Elimination::new(Reason::PlaceTooHigh, target_height, ""));
    }
    // 7. Another unit on B: a hidden one cancels the build, a visible one is illegal.
    let mut place_valid = true;
    if let Some((q, j)) = state.unit_at(place).filter(|&o| o != (player, unit)) {
        if visible(state, q, state.units[q][j], player) {
            return Err(Elimination::new(Reason::PlaceOnUnit, place.x, place.y));
        }
        place_valid = false;
    }
    Ok(Record {
        kind: Kind::Move,
        player,
        unit,
        moved: (player, unit),
        move_target: target,
        place_target: place,
        move_valid: true,
        place_valid,
        score_point: target_height == FINAL_HEIGHT - 1,
    })
}

// ---------------------------------------------------------------------------------------------
// §6 PUSH&BUILD

/// §6.1: `d2` within 45° of `d1`.
pub fn valid_push_direction(d1: Dir, d2: Dir) -> bool {
    let (a, b) = (d1.name(), d2.name());
    if a.len() == 2 {
        b == a || b == &a[0..1] || b == &a[1..2]
    } else {
        b.contains(a)
    }
}

/// §6: checks a `PUSH&BUILD i d1 d2`, in the referee's order.
pub fn check_push(
    state: &State,
    player: usize,
    unit: usize,
    d1: Dir,
    d2: Dir,
) -> Result<Record, Elimination> {
    let Some(&from) = state.units[player].get(unit) else {
        return Err(invalid_input(state, ""));
    };
    // 1. Direction within 45°.
    if !valid_push_direction(d1, d2) {
        return Err(Elimination::new(Reason::PushInvalid, d1, d2));
    }
    let target = from.neighbour(d1);
    // 2. Somebody to push.
    let Some((q, j)) = state.unit_at(target) else {
        return Err(Elimination::new(Reason::PushVoid, target.x, target.y));
    };
    // 3. Not a friend.
    if q == player {
        return Err(Elimination::new(Reason::FriendlyFire, unit, j));
    }
    // 4. D exists, is no dome, and is at most one above the victim's cell T.
    let push_to = target.neighbour(d2);
    let from_height = state.height(target).unwrap_or(0);
    match state.height(push_to) {
        Some(h) if h < FINAL_HEIGHT && h <= from_height + 1 => {}
        _ => return Err(Elimination::new(Reason::PushInvalid, d1, d2)),
    }
    // 5. A unit on D: hidden cancels the whole push, visible is illegal.
    let mut valid = true;
    if let Some((r, k)) = state.unit_at(push_to) {
        if visible(state, r, state.units[r][k], player) {
            return Err(Elimination::new(Reason::PushOnUnit, d1, d2));
        }
        valid = false;
    }
    Ok(Record {
        kind: Kind::Push,
        player,
        unit,
        moved: (q, j),
        move_target: push_to,
        place_target: target,
        move_valid: valid,
        place_valid: valid,
        score_point: false,
    })
}

// ---------------------------------------------------------------------------------------------
// §7 Fog of war

/// §7: whether the unit of `owner` at `pos` is visible to `viewer`: own units always; enemy units
/// when within Chebyshev distance 1 of one of the viewer's units; everything without fog (§11).
pub fn visible(state: &State, owner: usize, pos: Point, viewer: usize) -> bool {
    if !state.params.league.fog() || owner == viewer {
        return true;
    }
    state.units[viewer].iter().any(|u| u.distance(pos) <= 1)
}

// ---------------------------------------------------------------------------------------------
// §8 Elimination, end of game, ranking

/// §8 end test (`gameIsOver`): both eliminated; or one eliminated and the other strictly ahead.
/// Version 0 (§11): over as soon as a player won or is eliminated.
pub fn end_test(state: &State) -> Option<EndReason> {
    let [d0, d1] = state.dead;
    if d0 && d1 {
        return Some(EndReason::BothEliminated);
    }
    if state.params.league.win_on_max_height() {
        if d0 || d1 {
            return Some(EndReason::PlayerEliminated);
        }
        if state.won[0] || state.won[1] {
            return Some(EndReason::HeightReached);
        }
        return None;
    }
    if d0 && state.scores[1] > state.scores[0] {
        return Some(EndReason::SurvivorAhead);
    }
    if d1 && state.scores[0] > state.scores[1] {
        return Some(EndReason::SurvivorAhead);
    }
    None
}

/// §8 ranking (`getScore`): the score of each player; in version 0, -1 eliminated, 1 won, else 0.
pub fn final_scores(state: &State) -> [i32; 2] {
    if state.params.league.win_on_max_height() {
        let score = |p: usize| {
            if state.dead[p] {
                -1
            } else if state.won[p] {
                1
            } else {
                0
            }
        };
        [score(0), score(1)]
    } else {
        state.scores
    }
}

// ---------------------------------------------------------------------------------------------
// §9 The legal list

/// §9: the legal list of `player`: every unit, `d1`, `d2` in the referee's direction order, a
/// move then a push, kept when the check passes; sorted as strings (Java `compareTo`).
pub fn legal_actions(state: &State, player: usize) -> Vec<Action> {
    let mut actions = vec![];
    for unit in 0..state.units[player].len() {
        for d1 in Dir::ALL {
            for d2 in Dir::ALL {
                if check_move(state, player, unit, d1, d2).is_ok() {
                    actions.push(Action::Build { kind: Kind::Move, unit, dir1: d1, dir2: d2 });
                }
                if state.params.league.can_push() && check_push(state, player, unit, d1, d2).is_ok()
                {
                    actions.push(Action::Build { kind: Kind::Push, unit, dir1: d1, dir2: d2 });
                }
            }
        }
    }
    actions.sort_by_cached_key(|a| a.to_string());
    actions
}

// ---------------------------------------------------------------------------------------------
// §10 One action

/// §5, §6, §10, §11: checks `player`'s typed action in the referee's order and returns its
/// record (effects not applied) or the elimination: `ACCEPT-DEFEAT` eliminates (§8); a unit the
/// player does not have is `InvalidInput` (the referee's failed unit lookup, quoting the action);
/// a push where the league has none is `InvalidCommand` (§11); then §5 or §6. Every action
/// played is checked here: printed lines ([`super::referee::resolve_output`]), typed actions ([`apply_action`],
/// [`crate::game::Game::step`]) and the fog deduction's replays.
pub fn check_action(state: &State, player: usize, action: &Action) -> Result<Record, Elimination> {
    let Action::Build { kind, unit, dir1, dir2 } = *action else {
        return Err(accepts_defeat(player));
    };
    if unit >= state.units[player].len() {
        return Err(invalid_input(state, &action.to_string()));
    }
    match kind {
        Kind::Move => check_move(state, player, unit, dir1, dir2),
        Kind::Push if state.params.league.can_push() => check_push(state, player, unit, dir1, dir2),
        Kind::Push => Err(invalid_command()),
    }
}

/// §10: the effects of a checked action's record: the moved unit (own unit for a move, victim
/// for a push) goes to its target unless the move was cancelled, the build happens unless it was
/// cancelled, and a move onto height 3 scores. Nothing else: no record is kept and the turn does
/// not pass (see [`act`]).
pub fn apply_effects(state: &mut State, record: &Record) {
    if record.move_valid {
        let (q, j) = record.moved;
        state.units[q][j] = record.move_target;
    }
    if record.place_valid {
        let p = record.place_target;
        if let Some(Some(h)) = state.heights[p.y as usize].get_mut(p.x as usize) {
            *h += 1;
        }
    }
    if record.score_point {
        state.scores[record.player] += 1;
    }
}

/// §10: one action of `player`, from the result of its check: an elimination, or the record's
/// effects ([`apply_effects`]) with the record kept as the acting unit's; then §3 passes the
/// turn. The caller makes sure the game is running and `player` is to move.
pub fn act(state: &mut State, player: usize, resolution: Result<Record, Elimination>) {
    let round = state.round;
    let events = match resolution {
        Err(e) => {
            state.dead[player] = true;
            vec![Event::Eliminated { player, reason: e.reason, message: e.message }]
        }
        Ok(r) => {
            if let Some(slot) = state.records[player].get_mut(r.unit) {
                *slot = Some(r);
            }
            apply_effects(state, &r);
            state.records[player].iter().flatten().map(Event::from_record).collect()
        }
    };
    state.last_turn = Some(LastTurn { player, round, events });
    pass_turn(state, player);
}

/// §10 for a typed action of `player` (who must be the player to move): [`check_action`], then
/// [`act`]: an action the rules forbid eliminates, as its printed line would.
pub fn apply_action(state: &mut State, player: usize, action: &Action) {
    let resolution = check_action(state, player, action);
    act(state, player, resolution);
}

// ---------------------------------------------------------------------------------------------
// §11 League differences

/// §11 (`updateGame`): in version 0, a unit standing on height 3 makes its owner win. Nothing in
/// later versions.
pub fn update_game(state: &mut State) {
    if !state.params.league.win_on_max_height() {
        return;
    }
    for player in 0..2 {
        for &u in &state.units[player] {
            if state.height(u) == Some(FINAL_HEIGHT - 1) {
                state.won[player] = true;
            }
        }
    }
}
