//! The game turn (rules doc §4 "Game-turn structure", §6 "The collect check", §7 "Resolution",
//! §8 "End of game, scores, ranking"), in the doc's order.

use super::actions::Action;
use super::protocol::{parse_line, LineError};
use super::state::*;
use crate::game::{PlayerId, StepError};
use std::collections::VecDeque;
use std::fmt;

/// What one player answered this turn, before the turn type is checked (§4 step 8).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// A well-formed line (§5 rules 2–4).
    Action(Action),
    /// A line the referee rejects (§5 rules 1, 5, 6).
    Invalid(LineError),
    /// No answer in time (§5, §8); a trace action `null`. An empty line is not a timeout but
    /// an [`Answer::Invalid`] line.
    Timeout,
}

impl Answer {
    /// An answer as the referee sees it: a typed action that would not be read back as itself
    /// from its printed line (a push line over 6, a MOVE with no step; more than 20 steps the
    /// [`Path`](super::Path) type cannot hold) is handled as that printed line, i.e. rejected
    /// with the referee's reason.
    pub fn normalized(&self) -> Answer {
        let in_grammar = match self {
            Answer::Action(Action::Push { line, .. }) => *line < SIZE,
            Answer::Action(Action::Move(steps)) => !steps.is_empty(),
            _ => true,
        };
        match self {
            Answer::Action(action) if !in_grammar => Answer::from_line(Some(&action.to_string())),
            other => other.clone(),
        }
    }

    /// Reads a trace action: `None` is a timeout, a line is parsed by [`parse_line`].
    pub fn from_line(line: Option<&str>) -> Answer {
        match line {
            None => Answer::Timeout,
            Some(text) => match parse_line(text) {
                Ok(action) => Answer::Action(action),
                Err(error) => Answer::Invalid(error),
            },
        }
    }
}

/// A referee summary message (§12 templates), `$i` being the player (absolute id). `Display`
/// prints the exact trace text; the order of a turn's events is the one §12 lists.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `$i completed a quest`: a collect check (§6) found his revealed quest's item under him.
    CompletedQuest(PlayerId),
    /// `$i passed`: an accepted `PASS`, emitted while parsing (§7.2).
    Passed(PlayerId),
    /// `$i: invalid input - <reason>`: a fatal line (§5); the string is [`LineError::reason`]
    /// or the wrong-type message `can't "<T>" while expecting a <TT> action`.
    InvalidInput(PlayerId, String),
    /// `$i: timeout - no input provided`: no answer in time (§8), fatal.
    Timeout(PlayerId),
    /// `$i pushed row L to the D` / `$i pushed column L D`
    Pushed {
        /// Who pushed (absolute id).
        player: PlayerId,
        /// Row or column index 0..6 (`L`).
        line: usize,
        /// `D`: LEFT/RIGHT print `row L to the D`, UP/DOWN print `column L D`.
        direction: Direction,
    },
    /// `Both players tried to push the same line. Nothing happens!`: a same-index conflict in
    /// one push group (§7.1); the stale counter goes up by one.
    Conflict,
    /// `$i moved D`: one valid step of a MOVE, in its step round (§7.2).
    Moved(PlayerId, Direction),
    /// `$i: invalid input - MOVE D`: a step into a wall (§7.2). Not fatal: the player stays and
    /// his remaining steps are discarded.
    Wall(PlayerId, Direction),
    /// `Max turns reached!`: the game ends at the start of turn 151 (§4 step 1).
    MaxTurns,
    /// `The game ended in a deadlock!`: the stale counter reached [`STALE_LIMIT`] (§4 step 2).
    Deadlock,
    /// `$i won!`: the last event of a game whose scores differ (§8).
    Won(PlayerId),
    /// `It's a draw!`: the last event of a game with equal scores (§8).
    Draw,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::CompletedQuest(p) => write!(f, "${p} completed a quest"),
            Event::Passed(p) => write!(f, "${p} passed"),
            Event::InvalidInput(p, reason) => write!(f, "${p}: invalid input - {reason}"),
            Event::Timeout(p) => write!(f, "${p}: timeout - no input provided"),
            Event::Pushed { player, line, direction } if direction.is_horizontal() => {
                write!(f, "${player} pushed row {line} to the {direction}")
            }
            Event::Pushed { player, line, direction } => {
                write!(f, "${player} pushed column {line} {direction}")
            }
            Event::Conflict => {
                f.write_str("Both players tried to push the same line. Nothing happens!")
            }
            Event::Moved(p, d) => write!(f, "${p} moved {d}"),
            Event::Wall(p, d) => write!(f, "${p}: invalid input - MOVE {d}"),
            Event::MaxTurns => f.write_str("Max turns reached!"),
            Event::Deadlock => f.write_str("The game ended in a deadlock!"),
            Event::Won(p) => write!(f, "${p} won!"),
            Event::Draw => f.write_str("It's a draw!"),
        }
    }
}

/// §4 steps 1–5, the start of a game turn: the end checks (max turns, deadlock, a player with
/// all `N` quests), then the switch of turn type, `turnsLeft − 1`, and the reveal.
pub fn start_turn(state: &mut State, events: &mut Vec<Event>) {
    // Steps 1–3.
    let n = state.league.quests_per_player() as i64;
    let end = if state.turns_left <= 0 {
        Some(EndReason::MaxTurns)
    } else if state.stale >= STALE_LIMIT {
        Some(EndReason::Deadlock)
    } else if state.players.iter().any(|p| p.active && p.score == n) {
        Some(EndReason::QuestsCompleted)
    } else {
        None
    };
    if let Some(reason) = end {
        match reason {
            EndReason::MaxTurns => events.push(Event::MaxTurns),
            EndReason::Deadlock => events.push(Event::Deadlock),
            _ => {}
        }
        force_game_end(state);
        finish(state, reason, events);
        return;
    }
    // Step 4.
    state.turn_type = state.turn_type.switched();
    state.turns_left -= 1;
    // Step 5.
    for p in 0..2 {
        if state.players[p].active {
            reveal(state, p);
        }
    }
}

/// §3 step 10 and §4 step 5: if player `p` has fewer than `V` revealed quests, the top cards of
/// his deck are moved to the end of his quests until he has `V` or the deck is empty.
pub fn reveal(state: &mut State, p: PlayerId) {
    let max = state.league.max_revealed();
    let player = &mut state.players[p];
    while player.quests.len() < max {
        match player.deck.pop() {
            Some(card) => player.quests.push(card),
            None => break,
        }
    }
}

/// §6 `collect()`: for player 0 then player 1 (active or not), the item on the board tile under
/// him is collected if it is his and its name is among his revealed quests.
pub fn collect(state: &mut State, events: &mut Vec<Event>) {
    for p in 0..2 {
        let (x, y) = (state.players[p].x, state.players[p].y);
        // Players are always on the board (§2); a hand-edited state is left alone.
        let Some(item) = state.tiles.get(x).and_then(|c| c.get(y)).and_then(|t| t.item) else {
            continue;
        };
        if item.owner != p {
            continue;
        }
        let Some(index) = state.players[p].quests.iter().position(|q| *q == item.name) else {
            continue;
        };
        state.players[p].quests.remove(index);
        state.players[p].score += 1;
        state.tiles[x][y].item = None;
        state.items.retain(|i| *i != item);
        events.push(Event::CompletedQuest(p));
    }
}

/// §5 (last paragraph): a well-formed action must fit the turn type, else the reason
/// `can't "<T>" while expecting a <TT> action`.
pub fn check_type(action: &Action, turn_type: TurnType) -> Result<(), String> {
    if action.fits(turn_type) {
        Ok(())
    } else {
        Err(format!(
            "can't \"{}\" while expecting a {} action",
            action.type_name(),
            turn_type.name()
        ))
    }
}

/// §5: the typed API's shape check, after [`check_type`]: a MOVE has 1 to [`MAX_STEPS`] steps
/// and a PUSH names a line of the board (a printed line cannot express anything else). The
/// upper bound on steps is enforced by the type ([`Path`](super::Path) holds at most
/// [`MAX_STEPS`]); the lower bound is checked here.
pub fn check_shape(action: &Action) -> Result<(), String> {
    match action {
        Action::Move(steps) if steps.is_empty() => {
            Err(format!("a MOVE has 1 to {MAX_STEPS} steps (§5)"))
        }
        Action::Push { line, .. } if *line >= SIZE => Err("a PUSH line is 0..6 (§5)".to_string()),
        _ => Ok(()),
    }
}

/// §8 `forceGameEnd`: every active player is deactivated and keeps his score; every player
/// already inactive gets −1.
pub fn force_game_end(state: &mut State) {
    for player in state.players.iter_mut() {
        if player.active {
            player.active = false;
        } else {
            player.score = -1;
        }
    }
}

/// §8: a player fails (invalid output or timeout): he is deactivated first, then
/// `forceGameEnd` runs.
fn fail(state: &mut State, p: PlayerId) {
    state.players[p].active = false;
    force_game_end(state);
}

/// §8: the game is over; the final event names the higher score, or a draw.
fn finish(state: &mut State, reason: EndReason, events: &mut Vec<Event>) {
    state.game_over = true;
    state.end_reason = Some(reason);
    let (a, b) = (state.players[0].score, state.players[1].score);
    events.push(if a > b {
        Event::Won(0)
    } else if b > a {
        Event::Won(1)
    } else {
        Event::Draw
    });
}

/// One game turn from the state its input describes (§4 steps 7–9), followed by the next turn's
/// start (§4 steps 1–5) unless a player failed. Returns the turn's events in emission order
/// (§12). `answers[p]` is what player `p` answered.
pub fn play_turn(state: &mut State, answers: &[Answer; 2]) -> Result<Vec<Event>, StepError> {
    if state.game_over {
        return Err(StepError::GameOver);
    }
    let mut events = Vec::new();
    // Step 7: the turn-start collect check.
    collect(state, &mut events);
    // Step 8: both answers are always parsed, player 0 first.
    let mut accepted: [Option<Action>; 2] = [None, None];
    let mut failures: [Option<Failure>; 2] = [None, None];
    for p in 0..2 {
        match &answers[p].normalized() {
            Answer::Timeout => {
                events.push(Event::Timeout(p));
                failures[p] = Some(Failure::Timeout);
            }
            Answer::Invalid(error) => {
                events.push(Event::InvalidInput(p, error.reason()));
                failures[p] = Some(Failure::InvalidAction);
            }
            Answer::Action(action) => match check_type(action, state.turn_type) {
                Err(reason) => {
                    events.push(Event::InvalidInput(p, reason));
                    failures[p] = Some(Failure::InvalidAction);
                }
                Ok(()) => {
                    if *action == Action::Pass {
                        events.push(Event::Passed(p));
                    }
                    accepted[p] = Some(*action);
                }
            },
        }
        if failures[p].is_some() {
            fail(state, p);
        }
    }
    let someone_failed = failures.iter().any(Option::is_some);
    // Step 9: resolve all units, or only the first one after a failure (§7.4).
    match state.turn_type {
        TurnType::Push => resolve_pushes(state, &accepted, someone_failed, &mut events),
        TurnType::Move => resolve_moves(state, &accepted, someone_failed, &mut events),
    }
    if someone_failed {
        // §8: timeout takes precedence over invalid_action in the trace reason.
        let reason = if failures.contains(&Some(Failure::Timeout)) {
            EndReason::Timeout
        } else {
            EndReason::InvalidAction
        };
        finish(state, reason, &mut events);
    } else {
        start_turn(state, &mut events);
    }
    Ok(events)
}

/// §7.1: the accepted pushes in two groups, rows (LEFT/RIGHT) first, then columns (UP/DOWN);
/// each non-empty group is one resolution unit followed by `collect()`. With `first_unit_only`
/// (§7.4) only the first non-empty group is resolved.
fn resolve_pushes(
    state: &mut State,
    accepted: &[Option<Action>; 2],
    first_unit_only: bool,
    events: &mut Vec<Event>,
) {
    let mut rows = Vec::new();
    let mut columns = Vec::new();
    for (p, action) in accepted.iter().enumerate() {
        if let Some(Action::Push { line, direction }) = action {
            if direction.is_horizontal() {
                rows.push((p, *line, *direction));
            } else {
                columns.push((p, *line, *direction));
            }
        }
    }
    for group in [rows, columns] {
        if group.is_empty() {
            continue;
        }
        resolve_push_group(state, &group, events);
        collect(state, events);
        if first_unit_only {
            return;
        }
    }
}

/// §7.1 "Resolving a group": two pushes of the same index conflict (nothing happens,
/// `staleCount + 1`); otherwise `staleCount = 0` and each push is applied in player order.
fn resolve_push_group(
    state: &mut State,
    group: &[(PlayerId, usize, Direction)],
    events: &mut Vec<Event>,
) {
    let conflict = group.len() == 2 && group[0].1 == group[1].1;
    if conflict {
        state.stale += 1;
        events.push(Event::Conflict);
        return;
    }
    state.stale = 0;
    for &(player, line, direction) in group {
        apply_push(state, player, line, direction);
        events.push(Event::Pushed { player, line, direction });
    }
}

/// §7.1 "Applying one push": player `p`'s hand tile enters line `line` from the side opposite
/// to `direction`, the tile at the far end goes to his hand, and every player on the line moves
/// one cell in `direction`, wrapping around onto the inserted tile.
pub fn apply_push(state: &mut State, p: PlayerId, line: usize, direction: Direction) {
    if line >= SIZE || p > 1 {
        return; // not a push (§5 accepts lines 0..6 only)
    }
    let last = SIZE - 1;
    // The cells of the line, in the order the tiles travel (from entry side to exit side).
    let cells: Vec<(usize, usize)> = match direction {
        Direction::Up => (0..SIZE).rev().map(|i| (line, i)).collect(),
        Direction::Down => (0..SIZE).map(|i| (line, i)).collect(),
        Direction::Left => (0..SIZE).rev().map(|i| (i, line)).collect(),
        Direction::Right => (0..SIZE).map(|i| (i, line)).collect(),
    };
    let (ex, ey) = cells[last];
    let popped = state.tiles[ex][ey];
    for k in (1..SIZE).rev() {
        let (tx, ty) = cells[k];
        let (fx, fy) = cells[k - 1];
        state.tiles[tx][ty] = state.tiles[fx][fy];
    }
    let (sx, sy) = cells[0];
    state.tiles[sx][sy] = state.players[p].hand;
    state.players[p].hand = popped;
    // Both players on the line move along, with wrap-around modulo 7.
    let (dx, dy) = direction.vector();
    for player in state.players.iter_mut() {
        let on_line = if direction.is_horizontal() { player.y == line } else { player.x == line };
        if on_line {
            player.x = (player.x as i32 + dx).rem_euclid(SIZE as i32) as usize;
            player.y = (player.y as i32 + dy).rem_euclid(SIZE as i32) as usize;
        }
    }
}

/// §7.2: a step from `(x, y)` towards `d` is valid iff the tile has an opening towards `d`, the
/// next cell is on the board and its tile has an opening towards the opposite direction.
/// Returns the next cell when the step is valid.
pub fn step_target(state: &State, x: usize, y: usize, d: Direction) -> Option<(usize, usize)> {
    if x >= SIZE || y >= SIZE || !state.tiles[x][y].pattern.has(d) {
        return None;
    }
    let (dx, dy) = d.vector();
    let (nx, ny) = (x as i32 + dx, y as i32 + dy);
    if !(0..SIZE as i32).contains(&nx) || !(0..SIZE as i32).contains(&ny) {
        return None;
    }
    let (nx, ny) = (nx as usize, ny as usize);
    state.tiles[nx][ny].pattern.has(d.opposite()).then_some((nx, ny))
}

/// §7.2: MOVEs in step rounds, player 0 first in each round, a `collect()` after each round; a
/// step into a wall ends that player's move. With `first_unit_only` (§7.4) only round 1 runs;
/// a PASS still gets its `collect()` then.
fn resolve_moves(
    state: &mut State,
    accepted: &[Option<Action>; 2],
    first_unit_only: bool,
    events: &mut Vec<Event>,
) {
    let mut remaining: [VecDeque<Direction>; 2] = [VecDeque::new(), VecDeque::new()];
    for p in 0..2 {
        if let Some(Action::Move(steps)) = &accepted[p] {
            remaining[p] = steps.iter().collect();
        }
    }
    if accepted.iter().all(Option::is_none) {
        // Both players failed: nothing is resolved, no collect (§7.4).
        return;
    }
    loop {
        for (p, steps) in remaining.iter_mut().enumerate() {
            let Some(d) = steps.pop_front() else { continue };
            let (x, y) = (state.players[p].x, state.players[p].y);
            match step_target(state, x, y, d) {
                Some((nx, ny)) => {
                    state.players[p].x = nx;
                    state.players[p].y = ny;
                    events.push(Event::Moved(p, d));
                }
                None => {
                    events.push(Event::Wall(p, d));
                    steps.clear();
                }
            }
        }
        collect(state, events);
        if first_unit_only || remaining.iter().all(VecDeque::is_empty) {
            return;
        }
    }
}

/// Every cell player-reachable from `(x, y)` this MOVE turn (the board does not change in a
/// MOVE turn, §7.3), found by breadth-first search over valid steps (§7.2), in BFS order
/// (directions tried in index order). Includes `(x, y)` itself.
pub fn reachable(state: &State, x: usize, y: usize) -> Vec<(usize, usize)> {
    shortest_paths(state, x, y).into_iter().map(|(cell, _)| cell).collect()
}

/// Every reachable cell with one shortest path to it (directions tried in index order), in BFS
/// order; the start comes first with the empty path.
pub fn shortest_paths(state: &State, x: usize, y: usize) -> Vec<((usize, usize), Vec<Direction>)> {
    let mut found: Vec<((usize, usize), Vec<Direction>)> = vec![((x, y), Vec::new())];
    let mut next = 0;
    while next < found.len() {
        let ((cx, cy), path) = found[next].clone();
        next += 1;
        for d in Direction::ALL {
            if let Some(cell) = step_target(state, cx, cy, d) {
                if !found.iter().any(|(seen, _)| *seen == cell) {
                    let mut longer = path.clone();
                    longer.push(d);
                    found.push((cell, longer));
                }
            }
        }
    }
    found
}

/// The quest items that player `p` would collect walking `path` from his position, step by
/// step (§7.2 with §6: after each valid step, his item under him is collected if its name is
/// among his revealed quests; a wall ends the walk). The board does not change in a MOVE turn.
pub fn items_on_path(state: &State, p: PlayerId, path: &[Direction]) -> Vec<Item> {
    let (mut x, mut y) = (state.players[p].x, state.players[p].y);
    let mut quests = state.players[p].quests.clone();
    let mut collected = Vec::new();
    for &d in path {
        let Some((nx, ny)) = step_target(state, x, y, d) else { break };
        (x, y) = (nx, ny);
        if let Some(item) = state.tiles[x][y].item {
            if item.owner == p && !collected.contains(&item) {
                if let Some(index) = quests.iter().position(|q| *q == item.name) {
                    quests.remove(index);
                    collected.push(item);
                }
            }
        }
    }
    collected
}

/// The final scores and the single winner, if any (§8).
pub fn winner(state: &State) -> Option<PlayerId> {
    let (a, b) = (state.players[0].score, state.players[1].score);
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}
