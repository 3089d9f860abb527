//! The game turn on the packed state (twins of [`twinsim_reference::xmas_rush::rules`]:
//! `play_turn`, `start_turn`, `collect`, the push and move resolutions). Events are optional: a
//! search passes [`NoEvents`] and pays nothing for them.

use super::bfs::{edges, step};
use super::board::*;
use super::push::push;
use twinsim_reference::game::StepError;
use twinsim_reference::xmas_rush::{
    Action as RefAction, Answer as RefAnswer, EndReason, Event, TurnType,
};

/// Where the referee's summary messages go.
pub trait Sink {
    /// Records the event `make()` builds (not called when events are not wanted).
    fn emit(&mut self, make: impl FnOnce() -> Event);
}

impl Sink for Vec<Event> {
    #[inline]
    fn emit(&mut self, make: impl FnOnce() -> Event) {
        self.push(make());
    }
}

/// Drops every event.
pub struct NoEvents;

impl Sink for NoEvents {
    #[inline]
    fn emit(&mut self, _: impl FnOnce() -> Event) {}
}

/// A well-formed action, without heap (twin of [`twinsim_reference::xmas_rush::Action`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PackedAction {
    /// `PUSH <line> <dir>` (§5 rule 2, §7.1).
    Push {
        /// Row (LEFT/RIGHT) or column (UP/DOWN) index, 0..6.
        line: u8,
        /// Direction index 0..3 ([`UP`](super::push::UP) … [`LEFT`](super::push::LEFT)).
        dir: u8,
    },
    /// `MOVE <dir>…` (§5 rule 3, §7.2).
    Move {
        /// Direction indices 0..3; only `steps[..len]` are meaningful.
        steps: [u8; 20],
        /// Number of steps, 1..20.
        len: u8,
    },
    /// `PASS` (§5 rule 4): a MOVE-turn action that does nothing.
    Pass,
}

impl PackedAction {
    /// The packed twin of a reference action (`None` for a push line over 6 or a MOVE without
    /// steps: the parser never makes those; more than 20 steps the reference type cannot hold).
    pub fn from_reference(a: &RefAction) -> Option<PackedAction> {
        match a {
            RefAction::Push { line, direction } if *line < 7 => {
                Some(PackedAction::Push { line: *line as u8, dir: direction.index() as u8 })
            }
            RefAction::Move(v) if !v.is_empty() => {
                let mut steps = [0u8; 20];
                for (slot, d) in steps.iter_mut().zip(v) {
                    *slot = d.index() as u8;
                }
                Some(PackedAction::Move { steps, len: v.len() as u8 })
            }
            RefAction::Pass => Some(PackedAction::Pass),
            _ => None,
        }
    }

    /// Whether the action is one the referee could read (line 0..6, directions 0..3, 1 to 20
    /// steps). [`play_turn`] treats any other as an invalid line.
    #[inline]
    pub fn is_well_formed(&self) -> bool {
        match self {
            PackedAction::Push { line, dir } => *line < 7 && *dir < 4,
            PackedAction::Move { steps, len } => {
                (1..=20).contains(len) && steps[..*len as usize].iter().all(|d| *d < 4)
            }
            PackedAction::Pass => true,
        }
    }

    /// The line a bot would print for this action (`?` for a direction index over 3).
    pub fn to_line(&self) -> String {
        const NAMES: [&str; 4] = ["UP", "RIGHT", "DOWN", "LEFT"];
        let name = |d: u8| NAMES.get(d as usize).copied().unwrap_or("?");
        match self {
            PackedAction::Push { line, dir } => format!("PUSH {line} {}", name(*dir)),
            PackedAction::Move { steps, len } => {
                let mut line = String::from("MOVE");
                for d in &steps[..(*len as usize).min(20)] {
                    line.push(' ');
                    line.push_str(name(*d));
                }
                line
            }
            PackedAction::Pass => "PASS".to_string(),
        }
    }

    fn type_name(&self) -> &'static str {
        match self {
            PackedAction::Push { .. } => "PUSH",
            PackedAction::Move { .. } => "MOVE",
            PackedAction::Pass => "PASS",
        }
    }

    fn fits(&self, t: TurnType) -> bool {
        matches!(
            (self, t),
            (PackedAction::Push { .. }, TurnType::Push)
                | (PackedAction::Move { .. } | PackedAction::Pass, TurnType::Move)
        )
    }
}

/// What a player answered (twin of [`twinsim_reference::xmas_rush::Answer`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// A well-formed line; it may still be of the wrong type for the turn (§5), which is checked
    /// when the turn is played.
    Action(PackedAction),
    /// An invalid line, with the referee's reason.
    Invalid(String),
    /// No answer in time (trace action `null`): fatal, reason `timeout` (§8).
    Timeout,
}

impl Answer {
    /// The twin of a reference answer (an action the packed form cannot hold becomes invalid,
    /// which the reference parser never produces).
    pub fn from_reference(a: &RefAnswer) -> Answer {
        match &a.normalized() {
            RefAnswer::Action(action) => match PackedAction::from_reference(action) {
                Some(fast) => Answer::Action(fast),
                None => Answer::Invalid(action.to_string()),
            },
            RefAnswer::Invalid(error) => Answer::Invalid(error.reason()),
            RefAnswer::Timeout => Answer::Timeout,
        }
    }
}

/// Reveals cards from the deck top until `V` quests are revealed (twin of `rules::reveal`); the
/// newly revealed items join the player's quest set (or set his bit of the holding hand's
/// quest bits). Out of line: most turns reveal nothing ([`start_turn`] tests first).
#[inline(never)]
fn reveal(s: &mut State, p: usize) {
    let max = s.league.max_revealed() as u8;
    while s.players[p].quests_len < max && s.players[p].deck_len > 0 {
        let pl = &mut s.players[p];
        pl.deck_len -= 1;
        let card = pl.deck[pl.deck_len as usize];
        pl.quests[pl.quests_len as usize] = card;
        pl.quests_len += 1;
        let cell = s.item_cell(card * 2 + p as u8);
        if cell < 49 {
            s.quest_sets[p] |= 1 << cell;
        } else if let Some(h) = HAND.iter().position(|&c| c == cell) {
            s.hand_quests[h] |= 1 << p;
        }
    }
}

/// §6 `collect()` (twin of `rules::collect`): a player collects exactly when his cell is in his
/// quest set, so the usual case is one bit test per player, both tested before any loop.
#[inline(always)]
pub fn collect<S: Sink>(s: &mut State, sink: &mut S) {
    let hit = |p: usize| s.quest_sets[p] >> (s.players[p].y * 7 + s.players[p].x) & 1;
    if hit(0) | hit(1) == 0 {
        return;
    }
    collect_slow(s, sink);
}

/// [`collect`] once some player stands on one of his quest items.
#[inline(never)]
fn collect_slow<S: Sink>(s: &mut State, sink: &mut S) {
    for p in 0..2 {
        let cell = s.players[p].y * 7 + s.players[p].x;
        if s.quest_sets[p] >> cell & 1 == 0 {
            continue;
        }
        let id = s.item_byte(cell) - 1;
        s.clear_item(cell);
        s.quest_sets[p] &= !(1 << cell);
        let pl = &mut s.players[p];
        let len = pl.quests_len as usize;
        if let Some(k) = pl.quests[..len].iter().position(|&q| q == id / 2) {
            pl.quests.copy_within(k + 1..len, k);
            pl.quests_len -= 1;
        }
        pl.score += 1;
        let n = s.order_len as usize;
        if let Some(i) = s.order[..n].iter().position(|&o| o == id) {
            s.order.copy_within(i + 1..n, i);
            s.order_len -= 1;
        }
        sink.emit(|| Event::CompletedQuest(p));
    }
}

fn force_game_end(s: &mut State) {
    for pl in s.players.iter_mut() {
        if pl.active {
            pl.active = false;
        } else {
            pl.score = -1;
        }
    }
}

fn finish<S: Sink>(s: &mut State, reason: EndReason, sink: &mut S) {
    s.game_over = true;
    s.end_reason = Some(reason);
    let (a, b) = (s.players[0].score, s.players[1].score);
    sink.emit(|| {
        if a > b {
            Event::Won(0)
        } else if b > a {
            Event::Won(1)
        } else {
            Event::Draw
        }
    });
}

/// §4 steps 1–5 (twin of `rules::start_turn`).
#[inline]
pub fn start_turn<S: Sink>(s: &mut State, sink: &mut S) {
    let n = s.league.quests_per_player() as i64;
    let end = if s.turns_left <= 0 {
        Some(EndReason::MaxTurns)
    } else if s.stale >= 10 {
        Some(EndReason::Deadlock)
    } else if s.players.iter().any(|p| p.active && p.score == n) {
        Some(EndReason::QuestsCompleted)
    } else {
        None
    };
    if let Some(reason) = end {
        match reason {
            EndReason::MaxTurns => sink.emit(|| Event::MaxTurns),
            EndReason::Deadlock => sink.emit(|| Event::Deadlock),
            _ => {}
        }
        force_game_end(s);
        finish(s, reason, sink);
        return;
    }
    s.turn_type = s.turn_type.switched();
    s.turns_left -= 1;
    let max = s.league.max_revealed() as u8;
    for p in 0..2 {
        let pl = &s.players[p];
        if pl.active && pl.quests_len < max && pl.deck_len > 0 {
            reveal(s, p);
        }
    }
}

/// One game turn (twin of `rules::play_turn`).
pub fn play_turn<S: Sink>(
    s: &mut State,
    answers: &[Answer; 2],
    sink: &mut S,
) -> Result<(), StepError> {
    if s.game_over {
        return Err(StepError::GameOver);
    }
    collect(s, sink);
    // The search's usual turn, two well-formed pushes in a PUSH turn: no answer can fail and
    // none emits an event, so straight to the pushes (the general path below gives the same).
    if let (
        TurnType::Push,
        [Answer::Action(PackedAction::Push { line: l0, dir: d0 }), Answer::Action(PackedAction::Push { line: l1, dir: d1 })],
    ) = (s.turn_type, answers)
    {
        if *l0 < 7 && *l1 < 7 && (*d0 | *d1) < 4 {
            push_units(s, [(0, *l0, *d0), (1, *l1, *d1)], 2, false, sink);
            start_turn(s, sink);
            return Ok(());
        }
    }
    let mut accepted: [Option<PackedAction>; 2] = [None, None];
    let (mut failed, mut timeout) = (false, false);
    for p in 0..2 {
        let fail = match &answers[p] {
            Answer::Timeout => {
                sink.emit(|| Event::Timeout(p));
                timeout = true;
                true
            }
            Answer::Invalid(reason) => {
                sink.emit(|| Event::InvalidInput(p, reason.clone()));
                true
            }
            Answer::Action(a) if !a.is_well_formed() => {
                // As the referee reads the printed line (cold path).
                let line = a.to_line();
                let reason = twinsim_reference::xmas_rush::parse_line(&line)
                    .err()
                    .map_or(line, |e| e.reason());
                sink.emit(|| Event::InvalidInput(p, reason));
                true
            }
            Answer::Action(a) if !a.fits(s.turn_type) => {
                let t = s.turn_type.name();
                sink.emit(|| {
                    Event::InvalidInput(
                        p,
                        format!("can't \"{}\" while expecting a {t} action", a.type_name()),
                    )
                });
                true
            }
            Answer::Action(a) => {
                if *a == PackedAction::Pass {
                    sink.emit(|| Event::Passed(p));
                }
                accepted[p] = Some(*a);
                false
            }
        };
        if fail {
            failed = true;
            s.players[p].active = false;
            force_game_end(s);
        }
    }
    match s.turn_type {
        TurnType::Push => resolve_pushes(s, &accepted, failed, sink),
        TurnType::Move => resolve_moves(s, &accepted, failed, sink),
    }
    if failed {
        let reason = if timeout { EndReason::Timeout } else { EndReason::InvalidAction };
        finish(s, reason, sink);
    } else {
        start_turn(s, sink);
    }
    Ok(())
}

/// Pushes one group (twin of `rules::resolve_push_group`).
#[inline]
fn push_group<S: Sink>(s: &mut State, group: &[(usize, u8, u8)], sink: &mut S) {
    if group.len() == 2 && group[0].1 == group[1].1 {
        s.stale += 1;
        sink.emit(|| Event::Conflict);
        return;
    }
    s.stale = 0;
    for &(p, line, dir) in group {
        push(s, p, line as usize, dir);
        sink.emit(|| Event::Pushed {
            player: p,
            line: line as usize,
            direction: twinsim_reference::xmas_rush::Direction::ALL[dir as usize],
        });
    }
}

/// §7.1 (twin of `rules::resolve_pushes`): rows, collect, columns, collect.
#[inline]
fn resolve_pushes<S: Sink>(
    s: &mut State,
    accepted: &[Option<PackedAction>; 2],
    first_unit_only: bool,
    sink: &mut S,
) {
    let mut pushes = [(0usize, 0u8, 0u8); 2];
    let mut n = 0;
    for (p, a) in accepted.iter().enumerate() {
        if let Some(PackedAction::Push { line, dir }) = a {
            pushes[n] = (p, *line, *dir);
            n += 1;
        }
    }
    push_units(s, pushes, n, first_unit_only, sink);
}

/// §7.1 on the first `n` accepted pushes `(player, line, dir)` in player order: the row group,
/// collect, the column group, collect (the second unit skipped when `first_unit_only`).
#[inline(always)]
fn push_units<S: Sink>(
    s: &mut State,
    pushes: [(usize, u8, u8); 2],
    n: usize,
    first_unit_only: bool,
    sink: &mut S,
) {
    let mut rows = [(0usize, 0u8, 0u8); 2];
    let mut columns = [(0usize, 0u8, 0u8); 2];
    let (mut nr, mut nc) = (0, 0);
    for &(p, line, dir) in &pushes[..n] {
        if dir % 2 == 1 {
            rows[nr] = (p, line, dir);
            nr += 1;
        } else {
            columns[nc] = (p, line, dir);
            nc += 1;
        }
    }
    if nr > 0 {
        push_group(s, &rows[..nr], sink);
        collect(s, sink);
        if first_unit_only {
            return;
        }
    }
    if nc > 0 {
        push_group(s, &columns[..nc], sink);
        collect(s, sink);
    }
}

/// §7.2 (twin of `rules::resolve_moves`): step rounds, player 0 first, collect after each.
#[inline]
fn resolve_moves<S: Sink>(
    s: &mut State,
    accepted: &[Option<PackedAction>; 2],
    first_unit_only: bool,
    sink: &mut S,
) {
    if accepted.iter().all(Option::is_none) {
        return;
    }
    let e = edges(s);
    let mut steps = [[0u8; 20]; 2];
    let mut len = [0usize; 2];
    for p in 0..2 {
        if let Some(PackedAction::Move { steps: st, len: l }) = accepted[p] {
            steps[p] = st;
            len[p] = l as usize;
        }
    }
    let mut round = 0;
    loop {
        for p in 0..2 {
            if round >= len[p] {
                continue;
            }
            let d = steps[p][round];
            let pl = &mut s.players[p];
            match step(e, pl.y * 7 + pl.x, d) {
                Some(c) => {
                    pl.x = c % 7;
                    pl.y = c / 7;
                    sink.emit(|| {
                        Event::Moved(p, twinsim_reference::xmas_rush::Direction::ALL[d as usize])
                    });
                }
                None => {
                    sink.emit(|| {
                        Event::Wall(p, twinsim_reference::xmas_rush::Direction::ALL[d as usize])
                    });
                    len[p] = 0;
                }
            }
        }
        collect(s, sink);
        round += 1;
        if first_unit_only || (round >= len[0] && round >= len[1]) {
            return;
        }
    }
}
