//! The rules on the packed state: §5 sun and shadows, §6.3 costs and validation, §8 legal
//! actions, §6.1 the ACTIONS frame, §9 the end.

// Masks and tables are indexed by cell and size on purpose: the index is the cell.
#![allow(clippy::needless_range_loop)]

use super::tables::*;
use super::*;
use twinsim_reference::game::{Outcome, StepError};
use twinsim_reference::photosynthesis::{Action, Answer};

impl State {
    // --- §5 sun and shadows ------------------------------------------------------------------

    /// Shadow masks for the current sun direction (twin: `rules::compute_shadows`).
    #[inline]
    pub fn compute_shadows(&mut self) {
        let dir = self.sun_direction as usize;
        let mut acc = [0u64; 4];
        for (s, a) in acc.iter_mut().enumerate().skip(1) {
            let mut m = self.size[s];
            while m != 0 {
                *a |= SHADOW[dir][m.trailing_zeros() as usize][s];
                m &= m - 1;
            }
        }
        self.shadow = [0, acc[1] | acc[2] | acc[3], acc[2] | acc[3], acc[3]];
    }

    /// Sun each player collects at a gathering with the current shadows (twin:
    /// `rules::sun_income`).
    #[inline]
    pub fn sun_income(&self) -> [i32; 2] {
        let mut out = [0; 2];
        for (p, o) in out.iter_mut().enumerate() {
            let mine = self.owner[p];
            *o = (mine & self.size[1] & !self.shadow[1]).count_ones() as i32
                + 2 * (mine & self.size[2] & !self.shadow[2]).count_ones() as i32
                + 3 * (mine & self.size[3] & !self.shadow[3]).count_ones() as i32;
        }
        out
    }

    /// GATHERING (twin: `rules::gathering`).
    pub(super) fn gathering(&mut self, events: Option<&mut Vec<String>>) {
        self.set_flags(self.flags & !3);
        self.wake_all();
        let income = self.sun_income();
        for (p, n) in income.into_iter().enumerate() {
            self.set_sun(p, self.sun[p] + n);
        }
        if let Some(ev) = events {
            ev.push(format!("Round {}/23", self.day));
            for (p, n) in income.into_iter().enumerate() {
                if n > 0 {
                    ev.push(format!("${p} has collected {n} sun points"));
                }
            }
        }
    }

    /// SUN_MOVE (twin: `rules::sun_move`).
    pub(super) fn sun_move(&mut self, events: Option<&mut Vec<String>>) {
        let ended = self.day;
        self.set_day(ended + 1);
        if self.day < self.max_rounds() {
            self.set_direction((self.sun_direction + 1) % 6);
            if self.league >= 3 {
                self.compute_shadows();
            }
        }
        if let Some(ev) = events {
            ev.push(format!("Round {ended} ends"));
            if ended + 1 < 24 {
                ev.push(format!("The sun is now pointing towards direction {}", (ended + 1) % 6));
                ev.push(format!("Round {} starts", ended + 1));
            }
        }
        if self.day >= self.max_rounds() {
            self.set_flags(self.flags | FLAG_GAME_OVER);
        }
    }

    // --- §6.3 costs and validation -----------------------------------------------------------

    /// Twin of `rules::count_own`.
    #[inline]
    pub fn count_own(&self, p: usize, size: usize) -> i32 {
        (self.owner[p] & self.size[size]).count_ones() as i32
    }

    /// Twin of `rules::grow_cost` (size < 3).
    #[inline]
    pub fn grow_cost(&self, p: usize, size: usize) -> i32 {
        [1, 3, 7, 0][size] + self.count_own(p, (size + 1).min(3))
    }

    /// Twin of `rules::validate`.
    pub fn validate(&self, p: usize, action: Action, available: i32) -> Result<Effect, Invalid> {
        let lookup = |i: i32| {
            if (0..N as i32).contains(&i) {
                Ok(i as usize)
            } else {
                Err(Invalid::NotFound(i))
            }
        };
        match action {
            Action::Wait => Ok(Effect::Wait),
            Action::Grow(i) | Action::Complete(i) => {
                let cell = lookup(i)?;
                let size = self.size_at(cell).ok_or(Invalid::NoTree(cell))? as usize;
                if self.owner_at(cell) != p {
                    return Err(Invalid::Opponent(cell));
                }
                let dormant = self.dormant >> cell & 1 == 1;
                if let Action::Grow(_) = action {
                    if dormant {
                        return Err(Invalid::Dormant(cell));
                    }
                    if size >= 3 {
                        return Err(Invalid::MaxSize(cell));
                    }
                    let cost = self.grow_cost(p, size);
                    if cost > available {
                        return Err(Invalid::Sun(cost, available));
                    }
                    Ok(Effect::Grow(cell, size, cost))
                } else {
                    if size < 3 {
                        return Err(Invalid::NotLarge(cell));
                    }
                    if dormant {
                        return Err(Invalid::Dormant(cell));
                    }
                    if 4 > available {
                        return Err(Invalid::Sun(4, available));
                    }
                    Ok(Effect::Complete(cell))
                }
            }
            Action::Seed(s, t) => {
                let target = lookup(t)?;
                let source = lookup(s)?;
                if self.occupied() >> target & 1 == 1 {
                    return Err(Invalid::Occupied(target));
                }
                let size = self.size_at(source).ok_or(Invalid::NoTree(source))? as usize;
                if size == 0 {
                    return Err(Invalid::SeedSource(source));
                }
                if self.owner_at(source) != p {
                    return Err(Invalid::Opponent(source));
                }
                if self.dormant >> source & 1 == 1 {
                    return Err(Invalid::Dormant(source));
                }
                if WITHIN[source][size] >> target & 1 == 0 {
                    return Err(Invalid::TooFar(source, target));
                }
                if self.holes >> target & 1 == 1 {
                    return Err(Invalid::Hole(target));
                }
                let cost = self.count_own(p, 0);
                if cost > available {
                    return Err(Invalid::Sun(cost, available));
                }
                Ok(Effect::Seed(source, target, cost))
            }
        }
    }

    // --- §8 legal actions ----------------------------------------------------------------------

    /// Sizes of the three possible-action groups (completes, grows, seeds) of player `p`, by
    /// popcounts and target masks (twin: the lengths of `protocol::possible_action_groups`).
    #[inline]
    pub fn group_counts(&self, p: usize) -> [u32; 3] {
        let sun = self.sun[p];
        let mine = self.owner[p] & !self.dormant;
        let completes = if 4 <= sun { (mine & self.size[3]).count_ones() } else { 0 };
        let mut grows = 0;
        if self.league >= 2 {
            for s in 0..3 {
                if self.grow_cost(p, s) <= sun {
                    grows += (mine & self.size[s]).count_ones();
                }
            }
        }
        let mut seeds = 0;
        if self.league >= 3 && self.count_own(p, 0) <= sun {
            let free = ALL & !self.holes & !self.occupied();
            for s in 1..4 {
                let mut m = mine & self.size[s];
                while m != 0 {
                    seeds += (WITHIN[m.trailing_zeros() as usize][s] & free).count_ones();
                    m &= m - 1;
                }
            }
        }
        [completes, grows, seeds]
    }

    /// The possible actions of `p` (WAIT first) in the referee's pre-shuffle order (twin:
    /// `Game::legal_actions` of the reference). Empty for a player not asked.
    pub fn legal_moves(&self, p: usize, out: &mut MoveList) {
        out.len = 0;
        if !self.is_asked(p) {
            return;
        }
        out.push(Move::WAIT);
        let sun = self.sun[p];
        let mine = self.owner[p] & !self.dormant;
        if 4 <= sun {
            let mut m = mine & self.size[3];
            while m != 0 {
                out.push(Move::complete(m.trailing_zeros() as usize));
                m &= m - 1;
            }
        }
        if self.league >= 2 {
            let mut growable = 0u64;
            for s in 0..3 {
                if self.grow_cost(p, s) <= sun {
                    growable |= mine & self.size[s];
                }
            }
            while growable != 0 {
                out.push(Move::grow(growable.trailing_zeros() as usize));
                growable &= growable - 1;
            }
        }
        if self.league >= 3 && self.count_own(p, 0) <= sun {
            let free = ALL & !self.holes & !self.occupied();
            let mut sources = mine & !self.size[0];
            while sources != 0 {
                let c = sources.trailing_zeros() as usize;
                sources &= sources - 1;
                let s = if self.size[1] >> c & 1 == 1 {
                    1
                } else if self.size[2] >> c & 1 == 1 {
                    2
                } else {
                    3
                };
                let targets = WITHIN[c][s] & free;
                if targets == 0 {
                    continue;
                }
                let order = &SEED_ORDER[c][s];
                for &t in &order.cells[..order.len as usize] {
                    if targets >> t & 1 == 1 {
                        out.push(Move::seed(c, t as usize));
                    }
                }
            }
        }
    }

    /// The `k`-th move of [`State::legal_moves`] (k < 1 + the sum of `counts`, the player's
    /// [`State::group_counts`]) without building the list: for random playouts. Twin: indexing
    /// `Game::legal_actions` of the reference.
    pub fn nth_legal(&self, p: usize, counts: [u32; 3], mut k: u32) -> Move {
        if k == 0 {
            return Move::WAIT;
        }
        k -= 1;
        let mine = self.owner[p] & !self.dormant;
        if k < counts[0] {
            return Move::complete(nth_bit(mine & self.size[3], k));
        }
        k -= counts[0];
        if k < counts[1] {
            let sun = self.sun[p];
            let mut growable = 0u64;
            for s in 0..3 {
                if self.grow_cost(p, s) <= sun {
                    growable |= mine & self.size[s];
                }
            }
            return Move::grow(nth_bit(growable, k));
        }
        k -= counts[1];
        let free = ALL & !self.holes & !self.occupied();
        let mut sources = mine & !self.size[0];
        while sources != 0 {
            let c = sources.trailing_zeros() as usize;
            sources &= sources - 1;
            let s = if self.size[1] >> c & 1 == 1 {
                1
            } else if self.size[2] >> c & 1 == 1 {
                2
            } else {
                3
            };
            let targets = WITHIN[c][s] & free;
            let n = targets.count_ones();
            if k < n {
                let order = &SEED_ORDER[c][s];
                for &t in &order.cells[..order.len as usize] {
                    if targets >> t & 1 == 1 {
                        if k == 0 {
                            return Move::seed(c, t as usize);
                        }
                        k -= 1;
                    }
                }
            }
            k -= n;
        }
        Move::WAIT
    }

    /// The printed list of `p`, shuffled with `rng` (twin: `protocol::possible_actions_with`).
    pub fn possible_actions_with(&self, p: usize, rng: &mut u64) -> Vec<Move> {
        let mut list = MoveList::default();
        self.legal_moves(p, &mut list);
        let counts = self.group_counts(p);
        let mut out = list.as_slice().to_vec();
        let mut start = 1;
        for n in counts {
            let n = n as usize;
            if start + n <= out.len() {
                shuffle(rng, &mut out[start..start + n]);
            }
            start += n;
        }
        out
    }

    // --- §6.1 an ACTIONS frame -----------------------------------------------------------------

    /// One ACTIONS frame and the automatic frames after it, as the referee plays it (twin:
    /// `rules::play_frame`): an answer that fails validation gets the referee's consequence
    /// (§6.3, §7: the player waits), it is not refused. This is the text layer's step; the typed
    /// [`Game::step`](twinsim_reference::game::Game::step) of [`FastPhotosynthesis`] refuses an
    /// illegal action with an error instead. Entries of players not asked are
    /// ignored. Events are produced only when `events` is given.
    pub fn play_frame(
        &mut self,
        answers: &[Option<Answer>; 2],
        events: Option<&mut Vec<String>>,
    ) -> Result<(), StepError> {
        let counts = if self.exact_views {
            [self.group_counts(0), self.group_counts(1)]
        } else {
            [[0; 3]; 2]
        };
        self.play_frame_counted(answers, counts, events)
    }

    /// The same position in search mode: the following steps play the same game but no longer
    /// replay the referee's shuffle draws, so `rng` stays where it is and the views rendered
    /// from later states would print the lists in another order than the referee's (see
    /// [`State::exact_views`]).
    pub fn without_views(mut self) -> State {
        self.exact_views = false;
        self
    }

    /// [`State::play_frame`] given both players' [`State::group_counts`] of this state (a playout
    /// that already computed them to pick its moves saves computing them twice). Counts of a
    /// player not asked are ignored, and all counts when `exact_views` is off.
    pub fn play_frame_counted(
        &mut self,
        answers: &[Option<Answer>; 2],
        counts: [[u32; 3]; 2],
        mut events: Option<&mut Vec<String>>,
    ) -> Result<(), StepError> {
        if self.game_over() {
            return Err(StepError::GameOver);
        }
        let mut available = self.sun;
        let mut actions = [None::<Action>; 2];
        let mut seeds: [(usize, usize); 2] = [(0, 0); 2];
        let mut n_seeds = 0;
        let mut dying = [0usize; 2];
        let mut n_dying = 0;
        let mut tooltips: Vec<String> = vec![];

        // §6.1 step 2: the asked players' lists are shuffled (only the draws matter here).
        let asked = [self.is_asked(0), self.is_asked(1)];
        for (p, &a) in asked.iter().enumerate() {
            if a {
                if self.exact_views {
                    for n in counts[p] {
                        skip_shuffle(&mut self.rng, n);
                    }
                }
                self.executions += 1;
            }
        }
        // Step 3: answers; timeouts and malformed lines disqualify.
        let expected = self.params().expected_text();
        for p in 0..2 {
            if !asked[p] {
                continue;
            }
            let bad: Option<Option<String>> = match &answers[p] {
                Some(Answer::Action(a)) => match a {
                    Action::Grow(_) if self.league < 2 => Some(Some(a.to_string())),
                    Action::Seed(..) if self.league < 3 => Some(Some(a.to_string())),
                    _ => {
                        actions[p] = Some(*a);
                        None
                    }
                },
                Some(Answer::Malformed { got }) => Some(Some(got.clone())),
                Some(Answer::Timeout) | None => Some(None),
            };
            if let Some(got) = bad {
                if let Some(ev) = events.as_deref_mut() {
                    match got {
                        None => {
                            ev.push(format!("¤RED¤${p} has not provided an action in time.§RED§"));
                            ev.push(format!("${p} was disqualified."));
                            tooltips.push(format!("TOOLTIP ${p}: Timeout!"));
                        }
                        Some(got) => {
                            let m = format!(
                                "¤RED¤${p} provided invalid input. Expected '{expected}'\nGot '{got}'§RED§"
                            );
                            ev.extend(m.split('\n').map(String::from));
                            ev.push(format!("${p} was disqualified."));
                            let t = format!("Invalid Input: Expected {expected} but got '{got}'")
                                .replace("&lt;", "<")
                                .replace("&gt;", ">");
                            tooltips.push(format!("TOOLTIP ${p}: {t}"));
                        }
                    }
                }
                self.set_flags(self.flags | 1 << (2 + p));
                self.set_score(p, -1);
            }
        }
        if let Some(ev) = events.as_deref_mut() {
            ev.push(format!("Round {}/23", self.day));
        }
        // Step 4: resolve.
        for p in 0..2 {
            if self.waiting(p) {
                continue;
            }
            let effect = match actions[p] {
                None | Some(Action::Wait) => Err(None),
                Some(a) => self.validate(p, a, available[p]).map_err(Some),
            };
            match effect {
                Ok(Effect::Grow(cell, size, cost)) => {
                    available[p] -= cost;
                    self.remove_tree(cell, size as u8, p);
                    self.put_tree(cell, size as u8 + 1, p, true);
                    if let Some(ev) = events.as_deref_mut() {
                        ev.push(format!("${p} is growing a tree on cell {cell}"));
                    }
                }
                Ok(Effect::Complete(cell)) => {
                    available[p] -= 4;
                    self.make_dormant(cell);
                    dying[n_dying] = cell;
                    n_dying += 1;
                }
                Ok(Effect::Seed(source, target, cost)) => {
                    available[p] -= cost;
                    self.make_dormant(source);
                    seeds[n_seeds] = (p, target);
                    n_seeds += 1;
                    if let Some(ev) = events.as_deref_mut() {
                        ev.push(format!(
                            "${p} is planting a seed on cell {target} from cell {source}"
                        ));
                    }
                }
                Ok(Effect::Wait) | Err(None) => {
                    self.set_flags(self.flags | 1 << p);
                    if let Some(ev) = events.as_deref_mut() {
                        ev.push(format!("${p} is waiting"));
                    }
                }
                Err(Some(invalid)) => {
                    self.set_flags(self.flags | 1 << p);
                    if let Some(ev) = events.as_deref_mut() {
                        ev.push(format!("${p}: {}", invalid.message()));
                    }
                }
            }
        }
        // Step 5: seeds or conflict.
        if n_seeds == 2 && seeds[0].1 == seeds[1].1 {
            if let Some(ev) = events.as_deref_mut() {
                ev.push(format!("Seed conflict on cell {}", seeds[0].1));
            }
        } else {
            for &(owner, target) in &seeds[..n_seeds] {
                self.put_tree(target, 0, owner, true);
            }
            for (p, &a) in available.iter().enumerate() {
                if self.sun[p] != a {
                    self.set_sun(p, a);
                }
            }
        }
        // Steps 6–7: completions with one nutrients value, then the decrements.
        let nutrients = self.nutrients;
        for &cell in &dying[..n_dying] {
            let owner = self.owner_at(cell);
            let bit = 1u64 << cell;
            let bonus = if self.holes & bit != 0 {
                0
            } else if RICH3 & bit != 0 {
                4
            } else if RICH2 & bit != 0 {
                2
            } else {
                0
            };
            let points = nutrients + bonus;
            self.set_score(owner, self.score[owner] + points);
            self.remove_tree(cell, 3, owner);
            if let Some(ev) = events.as_deref_mut() {
                ev.push(format!(
                    "${owner} is ending their tree life on cell {cell}, scoring {points} points"
                ));
                tooltips.push(format!("TOOLTIP ${owner}: ${owner} scores {points} points"));
            }
        }
        if n_dying > 0 {
            self.set_nutrients((nutrients - n_dying as i32).max(0));
        }
        if let Some(ev) = events.as_deref_mut() {
            ev.append(&mut tooltips);
        }
        // Step 8: end of game, or the day ends.
        if !self.active(0) || !self.active(1) {
            self.set_flags(self.flags | FLAG_GAME_OVER);
        } else if self.waiting(0) && self.waiting(1) {
            self.sun_move(events.as_deref_mut());
            if !self.game_over() {
                self.gathering(events);
            }
        }
        Ok(())
    }

    // --- §9 ---------------------------------------------------------------------------------------

    /// Twin of `rules::final_scores`.
    pub fn final_scores(&self) -> [i32; 2] {
        let mut scores = self.score;
        for (p, sc) in scores.iter_mut().enumerate() {
            if self.active(p) {
                *sc += self.sun[p] / 3;
            }
        }
        let tie = match (self.active(0), self.active(1)) {
            (true, true) => scores[0] == scores[1],
            (false, false) => false,
            _ => true,
        };
        if tie {
            for (p, sc) in scores.iter_mut().enumerate() {
                if self.active(p) {
                    *sc += self.owner[p].count_ones() as i32;
                }
            }
        }
        scores
    }

    /// Twin of `rules::outcome`.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.game_over() {
            return None;
        }
        let scores: Vec<i64> = self.final_scores().iter().map(|&s| s as i64).collect();
        let ranks = Outcome::ranks_from_scores(&scores);
        let reason = match (self.active(0), self.active(1)) {
            (true, true) => "max_days",
            (false, false) => "both_players_deactivated",
            _ => "player_deactivated",
        };
        Some(Outcome { scores, ranks, reason: reason.into() })
    }
}

/// The index of the `k`-th set bit of `m` (k < popcount).
#[inline]
pub(super) fn nth_bit(mut m: u64, k: u32) -> usize {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// A validated action (twin: `rules::Effect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// `WAIT`: the player sleeps until the next day.
    Wait,
    /// cell, current size, cost
    Grow(usize, usize, i32),
    /// `COMPLETE`: the large tree on this cell is harvested.
    Complete(usize),
    /// source, target, cost
    Seed(usize, usize, i32),
}

/// Why an action fails §6.3 (twin: the messages of `rules::validate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// "Cell i not found": the cell index is off the board.
    NotFound(i32),
    /// "There is no tree on cell c".
    NoTree(usize),
    /// "The tree on cell c is owned by opponent".
    Opponent(usize),
    /// "Tree on cell c is dormant": it has acted this day already.
    Dormant(usize),
    /// "cannot grow more": GROW on a large tree.
    MaxSize(usize),
    /// "not large enough": COMPLETE on a tree smaller than 3.
    NotLarge(usize),
    /// "Not enough sun": the cost needed, then the sun the player has.
    Sun(i32, i32),
    /// "There is already a tree on cell c": SEED onto an occupied cell.
    Occupied(usize),
    /// "The seed on c cannot produce seeds": SEED from a seed.
    SeedSource(usize),
    /// "too far": the target is farther from the source than the source tree's size.
    TooFar(usize, usize),
    /// "You can't plant a seed on cell t": the target is a hole.
    Hole(usize),
}

impl Invalid {
    /// The referee's message (§13a).
    pub fn message(&self) -> String {
        match *self {
            Invalid::NotFound(i) => format!("Cell {i} not found"),
            Invalid::NoTree(c) => format!("There is no tree on cell {c}"),
            Invalid::Opponent(c) => format!("The tree on cell {c} is owned by opponent"),
            Invalid::Dormant(c) => {
                format!("Tree on cell {c} is dormant (has already been used this round)")
            }
            Invalid::MaxSize(c) => format!("Tree on cell {c} cannot grow more (max size is 3)."),
            Invalid::NotLarge(c) => format!("The tree on cell {c} is not large enough"),
            Invalid::Sun(need, have) => format!("Not enough sun. You need {need} but have {have}"),
            Invalid::Occupied(c) => format!("There is already a tree on cell {c}"),
            Invalid::SeedSource(c) => format!("The seed on {c} cannot produce seeds"),
            Invalid::TooFar(s, t) => {
                format!("The tree on cell {s} is too far from cell {t} to plant a seed there")
            }
            Invalid::Hole(t) => format!("You can't plant a seed on cell {t}"),
        }
    }
}
