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
        // By bytes of each size's mask (`SHADE_BYTES`), as search mode's end of day.
        let shade = SHADE_BY_DAY[self.sun_direction as usize & 31];
        let at_least3 = cast_shadows(&shade[2], self.size[3]);
        let at_least2 = cast_shadows(&shade[1], self.size[2]) | at_least3;
        let at_least1 = cast_shadows(&shade[0], self.size[1]) | at_least2;
        self.shadow = [0, at_least1, at_least2, at_least3];
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

    /// GATHERING (twin: `rules::gathering`), in the state's mode.
    #[inline(always)]
    pub(super) fn gathering(&mut self, events: Option<&mut Vec<String>>) {
        if self.exact_views {
            self.gathering_as::<false>(events)
        } else {
            self.gathering_as::<true>(events)
        }
    }

    /// [`State::gathering`], keeping the hash when `HASH` (search mode, see `set_flags`).
    // Inlined (as is `sun_move_as`): the frame's event-free copy then drops the event branches
    // and the call (twinsim bench photosynthesis --instructions: step 844 -> 827).
    #[inline(always)]
    fn gathering_as<const HASH: bool>(&mut self, events: Option<&mut Vec<String>>) {
        self.set_flags::<HASH>(self.flags & !3);
        self.wake_all::<HASH>();
        let income = self.sun_income();
        for (p, n) in income.into_iter().enumerate() {
            self.set_sun::<HASH>(p, self.sun[p] + n);
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

    /// SUN_MOVE (twin: `rules::sun_move`), in the state's mode: for the benchmark's end of
    /// day (the frames call `sun_move_as` in their own mode).
    #[cfg(any(test, feature = "testing"))]
    #[inline(always)]
    pub(super) fn sun_move(&mut self, events: Option<&mut Vec<String>>) {
        if self.exact_views {
            self.sun_move_as::<false>(events)
        } else {
            self.sun_move_as::<true>(events)
        }
    }

    /// `sun_move`, keeping the hash when `HASH` (search mode, see `set_flags`).
    #[inline(always)]
    fn sun_move_as<const HASH: bool>(&mut self, events: Option<&mut Vec<String>>) {
        let ended = self.day;
        self.set_day::<HASH>(ended + 1);
        let over = ended + 1 >= self.max_rounds();
        if !over {
            self.set_direction::<HASH>((self.sun_direction + 1) % 6);
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
        if over {
            self.set_flags::<HASH>(self.flags | FLAG_GAME_OVER);
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
        // 1, 3, 7 as 2^(size + 1) - 1: the array `[1, 3, 7, 0]` was built on the stack at
        // every GROW validated (the validation knows size < 3 and drops the test).
        let base = if size < 3 { (2 << size) - 1 } else { 0 };
        base + self.count_own(p, (size + 1).min(3))
    }

    /// Twin of `rules::validate`.
    // Inlined: its `Result` then stays in registers, in the typed step and the text layer
    // (twinsim bench photosynthesis --instructions, with `owe_draws` inlined: step 827 -> 780).
    #[inline(always)]
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
                let size = self.size_at(cell).ok_or(Invalid::NoTree(cell as u8))? as usize;
                if self.owner_at(cell) != p {
                    return Err(Invalid::Opponent(cell as u8));
                }
                let dormant = self.dormant >> cell & 1 == 1;
                if let Action::Grow(_) = action {
                    if dormant {
                        return Err(Invalid::Dormant(cell as u8));
                    }
                    if size >= 3 {
                        return Err(Invalid::MaxSize(cell as u8));
                    }
                    let cost = self.grow_cost(p, size);
                    if cost > available {
                        return Err(Invalid::Sun(cost, available));
                    }
                    Ok(Effect::Grow(cell as u8, size as u8, cost))
                } else {
                    if size < 3 {
                        return Err(Invalid::NotLarge(cell as u8));
                    }
                    if dormant {
                        return Err(Invalid::Dormant(cell as u8));
                    }
                    if 4 > available {
                        return Err(Invalid::Sun(4, available));
                    }
                    Ok(Effect::Complete(cell as u8))
                }
            }
            Action::Seed(s, t) => {
                let target = lookup(t)?;
                let source = lookup(s)?;
                if self.occupied() >> target & 1 == 1 {
                    return Err(Invalid::Occupied(target as u8));
                }
                let size = self.size_at(source).ok_or(Invalid::NoTree(source as u8))? as usize;
                if size == 0 {
                    return Err(Invalid::SeedSource(source as u8));
                }
                if self.owner_at(source) != p {
                    return Err(Invalid::Opponent(source as u8));
                }
                if self.dormant >> source & 1 == 1 {
                    return Err(Invalid::Dormant(source as u8));
                }
                if WITHIN[source][size] >> target & 1 == 0 {
                    return Err(Invalid::TooFar(source as u8, target as u8));
                }
                if self.holes >> target & 1 == 1 {
                    return Err(Invalid::Hole(target as u8));
                }
                let cost = self.count_own(p, 0);
                if cost > available {
                    return Err(Invalid::Sun(cost, available));
                }
                Ok(Effect::Seed(source as u8, target as u8, cost))
            }
        }
    }

    // --- §8 legal actions ----------------------------------------------------------------------

    /// Sizes of the three possible-action groups (completes, grows, seeds) of player `p`, by
    /// popcounts, and the seed group's from [`State::seed_reach`] in exact states (twin: the
    /// lengths of `rules::possible_action_groups`).
    #[inline(always)]
    pub fn group_counts(&self, p: usize) -> [u32; 3] {
        if self.exact_views {
            self.group_counts_as::<true>(p, self.league)
        } else {
            self.group_counts_as::<false>(p, self.league)
        }
    }

    /// [`State::group_counts`] with the mode a constant (`EXACT == exact_views`): the exact
    /// frames' note reads [`State::seed_reach`] without testing the mode (twinsim bench
    /// photosynthesis --instructions: see `owe_draws`). `league` is the state's league, or
    /// any league from 3 for one from 3 (only "from 2" and "from 3" are tested), given so that
    /// a caller that tested it can make it a constant.
    #[inline(always)]
    fn group_counts_as<const EXACT: bool>(&self, p: usize, league: u8) -> [u32; 3] {
        debug_assert_eq!(league.min(3), self.league.min(3), "the league");
        let (size, owner, sun) = (&self.size, &self.owner, self.sun[p]);
        let mine = owner[p] & !self.dormant;
        let completes = if 4 <= sun { (mine & size[3]).count_ones() } else { 0 };
        let grows = if league >= 2 { growable(size, owner[p], mine, sun).count_ones() } else { 0 };
        debug_assert!(
            !EXACT || self.seed_reach[p] as u32 == self.count_seed_reach(p),
            "seed_reach drifted"
        );
        let mut seeds = 0;
        if league >= 3 && (owner[p] & size[0]).count_ones() as i32 <= sun {
            seeds = if EXACT { self.seed_reach[p] as u32 } else { self.count_seed_reach(p) };
        }
        [completes, grows, seeds]
    }

    /// [`State::seed_reach`] of player `p` counted: a tree at a time, the free cells within
    /// its size.
    #[inline]
    fn count_seed_reach(&self, p: usize) -> u32 {
        let free = self.free();
        let mine = self.owner[p] & !self.dormant;
        let mut reach = 0;
        for s in 1..4 {
            let mut m = mine & self.size[s];
            while m != 0 {
                reach += (WITHIN_BY_ZEROS[m.trailing_zeros() as usize][s] & free).count_ones();
                m &= m - 1;
            }
        }
        reach
    }

    /// [`State::seed_reach`] counted from the trees, whatever `exact_views`.
    pub fn seed_reach_from_scratch(&self) -> [u16; 2] {
        [self.count_seed_reach(0) as u16, self.count_seed_reach(1) as u16]
    }

    /// Per player, its awake trees of size ≥ 1 that reach `cell` (within their size of it;
    /// distances are symmetric): how much its [`State::seed_reach`] changes when `cell` stops
    /// or starts being free.
    #[inline]
    fn reachers(&self, cell: usize) -> [u16; 2] {
        let within = &WITHIN[cell];
        let near = (within[1] & self.size[1] | within[2] & self.size[2] | within[3] & self.size[3])
            & !self.dormant;
        [(near & self.owner[0]).count_ones() as u16, (near & self.owner[1]).count_ones() as u16]
    }

    /// The free cells the awake tree of player `p` on `cell` (size `size`) reaches, taken
    /// from its [`State::seed_reach`] as it falls asleep (exact states only).
    #[inline]
    fn reach_sleeps<const HASH: bool>(&mut self, p: usize, cell: usize, size: usize) {
        if !HASH {
            self.seed_reach[p] -= (WITHIN[cell][size] & self.free()).count_ones() as u16;
        }
    }

    /// The seed targets of the tree on `c` (a source, size ≥ 1) among `free_xy`, both as masks
    /// of (x, y) ranks ([`XY_CELL`]): their set bits list them in the referee's order.
    #[inline]
    fn seed_targets_xy(&self, c: usize, free_xy: u64) -> u64 {
        WITHIN_XY[c][source_size(&self.size, c)] & free_xy
    }

    /// The possible actions of `p` (WAIT first) in the referee's pre-shuffle order (twin:
    /// `Game::legal_actions` of the reference). Empty for a player not asked. The seeds come
    /// from masks of (x, y) ranks, whose set bits are the referee's loop order ([`XY_CELL`]):
    /// only the free targets are visited.
    pub fn legal_moves(&self, p: usize, out: &mut CompactMoves) {
        out.len = 0;
        if !self.is_asked(p) {
            return;
        }
        // The length is kept in a register and stored once; a list never outgrows MAX_MOVES
        // (WAIT, at most one COMPLETE or GROW per tree, at most 18 · 19 SEEDs).
        let moves = &mut out.moves;
        moves[0] = Move::WAIT;
        let mut n = 1;
        let sun = self.sun[p];
        let mine = self.owner[p] & !self.dormant;
        if 4 <= sun {
            let mut m = mine & self.size[3];
            while m != 0 {
                moves[n] = Move::complete(m.trailing_zeros() as usize);
                n += 1;
                m &= m - 1;
            }
        }
        if self.league >= 2 {
            let mut growable = growable(&self.size, self.owner[p], mine, sun);
            while growable != 0 {
                moves[n] = Move::grow(growable.trailing_zeros() as usize);
                n += 1;
                growable &= growable - 1;
            }
        }
        if self.league >= 3 && self.count_own(p, 0) <= sun {
            let free_xy = to_xy(ALL & !self.holes & !self.occupied());
            let mut sources = mine & !self.size[0];
            while sources != 0 {
                let c = sources.trailing_zeros() as usize;
                sources &= sources - 1;
                let mut targets = self.seed_targets_xy(c, free_xy);
                while targets != 0 {
                    moves[n] = Move::seed(c, XY_CELL[targets.trailing_zeros() as usize] as usize);
                    n += 1;
                    targets &= targets - 1;
                }
            }
        }
        out.len = n;
    }

    /// The moves of [`State::legal_moves`] as sets (twin of that list taken as a set, and so of
    /// the reference's `Game::legal_actions`): WAIT is legal exactly when the player is asked,
    /// the COMPLETEs and GROWs are cell sets, a SEED from source `s` to target `t` is legal
    /// exactly when `s` is in `seed_sources` and `t` in [`State::seed_targets`]`(s, free)`.
    /// For writing an action mask a set at a time, where the list's order does not matter.
    pub fn legal_sets(&self, p: usize) -> LegalSets {
        let mut sets = LegalSets::default();
        if !self.is_asked(p) {
            return sets;
        }
        sets.asked = true;
        let sun = self.sun[p];
        let mine = self.owner[p] & !self.dormant;
        if 4 <= sun {
            sets.complete = mine & self.size[3];
        }
        if self.league >= 2 {
            sets.grow = growable(&self.size, self.owner[p], mine, sun);
        }
        if self.league >= 3 && self.count_own(p, 0) <= sun {
            sets.seed_sources = mine & !self.size[0];
            sets.free = ALL & !self.holes & !self.occupied();
        }
        sets
    }

    /// The cells a seed from `source` (a tree) may go to, given the free cells: within the
    /// tree's size of it (cell order; [`State::legal_sets`]).
    #[inline]
    pub fn seed_targets(&self, source: usize, free: u64) -> u64 {
        WITHIN[source][source_size(&self.size, source)] & free
    }

    /// The `k`-th move of [`State::legal_moves`] (k < 1 + the sum of `counts`, the player's
    /// [`State::group_counts`]) without building the list: for random playouts. Twin: indexing
    /// `Game::legal_actions` of the reference.
    #[inline]
    pub fn nth_legal(&self, p: usize, counts: [u32; 3], k: u32) -> Move {
        // WAIT (k = 0, two in five picks of the benchmark's random games) before the call.
        if k == 0 {
            return Move::WAIT;
        }
        self.nth_legal_action(p, counts, k - 1)
    }

    /// [`State::nth_legal`] past WAIT: the `k`-th COMPLETE, GROW or SEED.
    #[inline(never)]
    fn nth_legal_action(&self, p: usize, counts: [u32; 3], mut k: u32) -> Move {
        let mine = self.owner[p] & !self.dormant;
        if k < counts[0] {
            return Move::complete(nth_bit(mine & self.size[3], k));
        }
        k -= counts[0];
        if k < counts[1] {
            return Move::grow(nth_bit(growable(&self.size, self.owner[p], mine, self.sun[p]), k));
        }
        k -= counts[1];
        let free_xy = to_xy(ALL & !self.holes & !self.occupied());
        let mut sources = mine & !self.size[0];
        while sources != 0 {
            let c = sources.trailing_zeros() as usize;
            sources &= sources - 1;
            let targets = self.seed_targets_xy(c, free_xy);
            let n = targets.count_ones();
            if k < n {
                return Move::seed(c, XY_CELL[nth_bit(targets, k)] as usize);
            }
            k -= n;
        }
        Move::WAIT
    }

    /// The printed list of `p`, shuffled with `rng` (twin: `rules::possible_actions_with`).
    pub fn possible_actions_with(&self, p: usize, rng: &mut u64) -> Vec<Move> {
        let mut list = CompactMoves::default();
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

    // --- the views' generator, lazily --------------------------------------------------------

    /// Makes the shuffle draws of the [`Pending`] frames (twin: the draws of the reference's
    /// `rules::play_turn`, §6.1 step 2, made there at every frame), leaving `rng` the
    /// referee's generator and `pending` empty: one run of draws over the group lengths the
    /// frames noted, oldest first.
    pub fn sync_views(&mut self) {
        if self.pending.len == 0 {
            return;
        }
        skip_short_shuffles(&mut self.rng, &self.pending.lens, |seed| self.pending.redo(seed));
        self.pending = Pending::default();
    }

    /// This state with the views brought up to date ([`State::sync_views`]).
    pub fn synced(mut self) -> State {
        self.sync_views();
        self
    }

    /// The referee's generator now (twin: the reference state's `rng`): `rng` advanced by the
    /// pending frames' draws.
    pub fn generator(&self) -> u64 {
        self.synced().rng
    }

    /// The same position in search mode: the following steps play the same game but note no
    /// draws, so `rng` stays where it is and the views rendered from later states would print
    /// the lists in another order than the referee's (see [`State::exact_views`]). Worth it
    /// only to a search that plays more than [`PENDING_FRAMES`] frames ahead without
    /// rendering: exact states note their frames' draws at a few instructions a frame.
    pub fn without_views(mut self) -> State {
        self.exact_views = false;
        self.pending = Pending::default();
        self.seed_reach = [0; 2];
        // Search mode keeps the hash (exact states leave it zero).
        self.hash = self.hash_from_scratch();
        self
    }

    /// §6.1 step 2 for this frame, before anything changes: notes in `pending` the group
    /// lengths of the asked players' printed lists (`counts` when given, counted otherwise),
    /// whose draws are made later ([`State::sync_views`]), making the noted frames' draws first
    /// when `pending` is full.
    // Inlined into the frame (see `validate`), the group counts with it.
    #[inline(always)]
    fn owe_draws<const HASH: bool>(&mut self, asked: [bool; 2], counts: Option<[[u32; 3]; 2]>) {
        if HASH {
            return;
        }
        if self.pending.len as usize == PENDING_FRAMES {
            self.sync_views();
        }
        // Below PENDING_FRAMES (a power of two) after the sync: the mask only spares the
        // bounds checks of the stores.
        let i = self.pending.len as usize & (PENDING_FRAMES - 1);
        self.pending.len += 1;
        for p in 0..2 {
            let c = match (asked[p], counts) {
                (false, _) => [0; 3],
                (true, Some(given)) => given[p],
                // The common league from 3 (every command) a constant in the counts: its
                // tests go (twinsim bench photosynthesis --instructions: step 595 -> 589).
                (true, None) if self.league >= 3 => self.group_counts_as::<true>(p, 3),
                (true, None) => self.group_counts_as::<true>(p, self.league),
            };
            // At most 18 · 19 (see `Pending::lens`): fits.
            for g in 0..3 {
                self.pending.lens[Pending::index(i, p, g)] = c[g] as u16;
            }
        }
    }

    // --- §6.1 an ACTIONS frame -----------------------------------------------------------------

    /// One ACTIONS frame and the automatic frames after it, as the referee plays it (twin:
    /// `rules::play_turn`): an answer that fails validation gets the referee's consequence
    /// (§6.3, §7: the player waits), it is not refused. This is the text layer's step; the typed
    /// [`Game::step`](twinsim_reference::game::Game::step) of [`FastPhotosynthesis`] refuses an
    /// illegal action with an error instead. Entries of players not asked are
    /// ignored. Events are produced only when `events` is given. The shuffle draws of the
    /// printed lists are noted, not made ([`Pending`]).
    pub fn play_turn(
        &mut self,
        answers: &[Option<Answer>; 2],
        events: Option<&mut Vec<String>>,
    ) -> Result<(), StepError> {
        self.play_answers(answers, None, events)
    }

    /// [`State::play_turn`] given both players' [`State::group_counts`] of this state (a playout
    /// that already computed them to pick its moves): the frame notes them rather than counting
    /// again. Counts of a player not asked are ignored, and all counts when `exact_views` is off.
    pub fn play_turn_counted(
        &mut self,
        answers: &[Option<Answer>; 2],
        counts: [[u32; 3]; 2],
        events: Option<&mut Vec<String>>,
    ) -> Result<(), StepError> {
        self.play_answers(answers, Some(counts), events)
    }

    /// §6.1 step 3 on the text layer's answers: a timeout, a malformed line or a command the
    /// league lacks disqualifies (with the referee's events), then the frame is played.
    fn play_answers(
        &mut self,
        answers: &[Option<Answer>; 2],
        counts: Option<[[u32; 3]; 2]>,
        mut events: Option<&mut Vec<String>>,
    ) -> Result<(), StepError> {
        if self.game_over() {
            return Err(StepError::GameOver);
        }
        let mut reads = [None::<Action>; 2];
        // Made only with events: an empty vector still cost its drop at every quiet frame
        // (about 20 instructions, 2% of the benchmark's random game).
        let mut tooltips: Option<Vec<String>> = None;
        for p in 0..2 {
            if !self.is_asked(p) {
                continue;
            }
            reads[p] = match &answers[p] {
                Some(Answer::Action(a)) if self.enabled(*a) => Some(*a),
                _ => None,
            };
            if let (None, Some(ev)) = (reads[p], events.as_deref_mut()) {
                let tooltips = tooltips.get_or_insert_with(Vec::new);
                let expected = self.params().expected_text();
                let got = match &answers[p] {
                    Some(Answer::Action(a)) => Some(a.to_string()),
                    Some(Answer::Malformed { got }) => Some(got.clone()),
                    Some(Answer::Timeout) | None => None,
                };
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
        }
        let mut effects = [Effect::Wait; 2];
        let mut invalid = [None; 2];
        for p in 0..2 {
            if let Some(a) = reads[p] {
                match self.validate(p, a, self.sun[p]) {
                    Ok(effect) => effects[p] = effect,
                    Err(why) => invalid[p] = Some(why),
                }
            }
        }
        let answered = [reads[0].is_some(), reads[1].is_some()];
        match events {
            Some(events) => self.play_checked(
                answered,
                effects,
                invalid,
                counts,
                Some(tooltips.get_or_insert_with(Vec::new)),
                Some(events),
            ),
            // The frame inlined (an event-free copy, as `play_quiet`): the playouts' path
            // (twinsim bench photosynthesis --instructions: random_game 69,987 -> 68,763; the
            // typed step, whose validation comes first, loses by it: 734 -> 767).
            None if self.exact_views => {
                self.frame::<false>(answered, effects, [None; 2], counts, None, None)
            }
            None => self.frame::<true>(answered, effects, [None; 2], counts, None, None),
        }
        Ok(())
    }

    /// Whether the league has this command (§10: GROW from league 2, SEED from league 3).
    #[inline]
    pub(super) fn enabled(&self, a: Action) -> bool {
        match a {
            Action::Grow(_) => self.league >= 2,
            Action::Seed(..) => self.league >= 3,
            _ => true,
        }
    }

    /// The frame (§6.1 steps 2–8) once the answers are read: `answered[p]` false disqualifies
    /// an asked player; `effects[p]` is what p's action does once validated against this
    /// state (WAIT also for none, as it must be when `answered[p]` is false, and for an action
    /// that failed validation, whose reason is then `invalid[p]`: for the events only);
    /// `tooltips` (with `events`) holds those of the disqualifications. (A plain [`Effect`],
    /// not a `Result` with the reason: that nested enum was packed into one integer and
    /// unpacked again by shifts, spilled field by field; twinsim bench photosynthesis
    /// --instructions: step 612 -> 595, step_search 456 -> 435, random_game 59,132 -> 57,255.)
    /// Validating every action against the state before the frame decides the same: a
    /// player's resolution changes only its own trees and sun, and the seeds land after both
    /// are resolved; only one message can differ (see the invalid arm).
    fn play_checked(
        &mut self,
        answered: [bool; 2],
        effects: [Effect; 2],
        invalid: [Option<Invalid>; 2],
        counts: Option<[[u32; 3]; 2]>,
        tooltips: Option<&mut Vec<String>>,
        events: Option<&mut Vec<String>>,
    ) {
        if self.exact_views {
            self.frame::<false>(answered, effects, invalid, counts, tooltips, events);
        } else {
            self.frame::<true>(answered, effects, invalid, counts, tooltips, events);
        }
    }

    /// [`State::play_checked`] without events: its own copy of the frame, where the compiler
    /// drops every event branch (the typed step's path; the text layer's inlines the frame).
    /// The exact frame is inlined into the caller, search mode's is called.
    #[inline(always)]
    pub(super) fn play_quiet(
        &mut self,
        answered: [bool; 2],
        effects: [Effect; 2],
        counts: Option<[[u32; 3]; 2]>,
    ) {
        if self.exact_views {
            self.frame::<false>(answered, effects, [None; 2], counts, None, None);
        } else {
            self.play_quiet_search(answered, effects, counts);
        }
    }

    /// [`State::play_quiet`] in search mode.
    #[inline(never)]
    fn play_quiet_search(
        &mut self,
        answered: [bool; 2],
        effects: [Effect; 2],
        counts: Option<[[u32; 3]; 2]>,
    ) {
        self.frame::<true>(answered, effects, [None; 2], counts, None, None);
    }

    /// The body of [`State::play_checked`] and [`State::play_quiet`], in search mode when
    /// `HASH` (it must be `!exact_views`; see `set_flags`).
    #[inline(always)]
    fn frame<const HASH: bool>(
        &mut self,
        answered: [bool; 2],
        effects: [Effect; 2],
        invalid: [Option<Invalid>; 2],
        counts: Option<[[u32; 3]; 2]>,
        mut tooltips: Option<&mut Vec<String>>,
        mut events: Option<&mut Vec<String>>,
    ) {
        debug_assert_eq!(HASH, !self.exact_views, "the frame's mode");
        let asked = [self.is_asked(0), self.is_asked(1)];
        self.owe_draws::<HASH>(asked, counts);
        self.executions += asked[0] as u32 + asked[1] as u32;
        // The flags are kept in a local through steps 3-8 and written once, at step 8 (the
        // flag tests and sets then stay in a register: twinsim bench photosynthesis
        // --instructions).
        let mut flags = self.flags;
        for p in 0..2 {
            if asked[p] && !answered[p] {
                flags |= 1 << (2 + p);
                self.set_score::<HASH>(p, -1);
            }
        }
        if let Some(ev) = events.as_deref_mut() {
            ev.push(format!("Round {}/23", self.day));
        }
        let mut available = self.sun;
        // Step 4: resolve, player 0 then player 1, each with its constant index (unrolled:
        // `available`, the seeds and the harvests stay in registers, twinsim bench
        // photosynthesis --instructions).
        let mut seeds: [Option<usize>; 2] = [None; 2];
        let mut dying: [Option<usize>; 2] = [None; 2];
        for p in 0..2 {
            debug_assert!(
                answered[p] || (effects[p] == Effect::Wait && invalid[p].is_none()),
                "an effect not answered"
            );
            if flags >> p & 1 == 0 {
                (seeds[p], dying[p]) = self.resolve::<HASH>(
                    p,
                    effects[p],
                    invalid[p],
                    &mut flags,
                    &mut available[p],
                    events.as_deref_mut(),
                );
            }
        }
        // Step 5: seeds or conflict.
        if let [Some(first), Some(second)] = seeds {
            if first == second {
                if let Some(ev) = events.as_deref_mut() {
                    ev.push(format!("Seed conflict on cell {first}"));
                }
                seeds = [None; 2];
                available = self.sun;
            }
        }
        for (owner, target) in seeds.into_iter().enumerate() {
            if let Some(target) = target {
                if !HASH {
                    let lost = self.reachers(target);
                    self.seed_reach = [self.seed_reach[0] - lost[0], self.seed_reach[1] - lost[1]];
                }
                self.put_tree::<HASH>(target, 0, owner, true);
            }
        }
        if HASH {
            for p in 0..2 {
                if self.sun[p] != available[p] {
                    self.set_sun::<HASH>(p, available[p]);
                }
            }
        } else {
            // No hash to keep: one store, whether the sun changed or not.
            self.sun = available;
        }
        // Steps 6–7: completions with one nutrients value, then the decrements.
        let nutrients = self.nutrients;
        for (owner, cell) in dying.into_iter().enumerate() {
            let Some(cell) = cell else { continue };
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
            self.set_score::<HASH>(owner, self.score[owner] + points);
            self.remove_tree::<HASH>(cell, 3, owner);
            if !HASH {
                let gained = self.reachers(cell);
                self.seed_reach = [self.seed_reach[0] + gained[0], self.seed_reach[1] + gained[1]];
            }
            if let Some(ev) = events.as_deref_mut() {
                ev.push(format!(
                    "${owner} is ending their tree life on cell {cell}, scoring {points} points"
                ));
                if let Some(t) = tooltips.as_deref_mut() {
                    t.push(format!("TOOLTIP ${owner}: ${owner} scores {points} points"));
                }
            }
        }
        let n_dying = dying[0].is_some() as i32 + dying[1].is_some() as i32;
        if n_dying > 0 {
            self.set_nutrients::<HASH>((nutrients - n_dying).max(0));
        }
        if let (Some(ev), Some(t)) = (events.as_deref_mut(), tooltips) {
            ev.append(t);
        }
        // Step 8: end of game, or the day ends.
        if flags & 0b1100 != 0 {
            flags |= FLAG_GAME_OVER;
        }
        self.set_flags::<HASH>(flags);
        if flags & (FLAG_GAME_OVER | 0b11) == 0b11 {
            self.sun_move_as::<HASH>(events.as_deref_mut());
            if !self.game_over() {
                self.gathering_as::<HASH>(events);
            }
        }
    }

    /// Step 4 of the frame for player `p`, not waiting: its effect resolved on the state
    /// (a grow at once; a seed's source and a harvested tree fall asleep), its cost taken from
    /// `available`, WAIT (or no valid action) setting its waiting bit in `flags`. Returns the
    /// seed's target and the harvested cell, which land after both players are resolved.
    #[inline(always)]
    fn resolve<const HASH: bool>(
        &mut self,
        p: usize,
        effect: Effect,
        invalid: Option<Invalid>,
        flags: &mut u8,
        available: &mut i32,
        events: Option<&mut Vec<String>>,
    ) -> (Option<usize>, Option<usize>) {
        match effect {
            Effect::Grow(cell, size, cost) => {
                let (cell, size) = (cell as usize, size as usize);
                *available -= cost;
                if size > 0 {
                    self.reach_sleeps::<HASH>(p, cell, size);
                }
                self.grow_tree::<HASH>(cell, size, p);
                if let Some(ev) = events {
                    ev.push(format!("${p} is growing a tree on cell {cell}"));
                }
                (None, None)
            }
            Effect::Complete(cell) => {
                let cell = cell as usize;
                *available -= 4;
                self.reach_sleeps::<HASH>(p, cell, 3);
                self.make_dormant::<HASH>(cell);
                (None, Some(cell))
            }
            Effect::Seed(source, target, cost) => {
                let (source, target) = (source as usize, target as usize);
                *available -= cost;
                self.reach_sleeps::<HASH>(p, source, source_size(&self.size, source));
                self.make_dormant::<HASH>(source);
                if let Some(ev) = events {
                    ev.push(format!("${p} is planting a seed on cell {target} from cell {source}"));
                }
                (Some(target), None)
            }
            Effect::Wait => {
                *flags |= 1 << p;
                let Some(ev) = events else { return (None, None) };
                if let Some(invalid) = invalid {
                    // The referee validates player 1 after player 0's resolution: the one
                    // check that resolution can change is a SEED from a seed the opponent
                    // has just grown, which then fails on its owner instead.
                    let invalid = match invalid {
                        Invalid::SeedSource(c) if self.size[0] >> c & 1 == 0 => {
                            Invalid::Opponent(c)
                        }
                        other => other,
                    };
                    ev.push(format!("${p}: {}", invalid.message()));
                } else {
                    ev.push(format!("${p} is waiting"));
                }
                (None, None)
            }
        }
    }

    // --- §9 ---------------------------------------------------------------------------------------

    /// Twin of `rules::final_scores`.
    pub fn final_scores(&self) -> [i32; 2] {
        super::search::final_scores(
            self.score,
            self.sun,
            [self.active(0), self.active(1)],
            [self.owner[0].count_ones(), self.owner[1].count_ones()],
        )
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

/// The size (1..3) of the tree on `c`, known to be at least 1: its two bits, without branches.
#[inline]
pub(super) fn source_size(size: &[u64; 4], c: usize) -> usize {
    let low = (size[1] | size[3]) >> c & 1;
    let high = (size[2] | size[3]) >> c & 1;
    (low | high << 1) as usize
}

/// A player's legal moves as sets ([`State::legal_sets`]); all empty for a player not asked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LegalSets {
    /// The player is asked: WAIT is legal.
    pub asked: bool,
    /// The cells of the trees it may COMPLETE.
    pub complete: u64,
    /// The cells of the trees it may GROW.
    pub grow: u64,
    /// The trees it may SEED from (the targets: [`State::seed_targets`]).
    pub seed_sources: u64,
    /// The cells a seed may go to (neither a hole nor occupied), where it may seed.
    pub free: u64,
}

/// The non-dormant trees (`mine`) of a player owning `own` that it can afford to grow with
/// `sun`: by size, the cost 1/3/7 plus its trees of the next size (twin: the grow group of
/// `rules::possible_action_groups`).
/// Without branches: each size's trees are kept by a mask of all ones or zeros.
#[inline]
fn growable(size: &[u64; 4], own: u64, mine: u64, sun: i32) -> u64 {
    let affordable = |base: i32, next: u64| {
        ((base + (own & next).count_ones() as i32 <= sun) as u64).wrapping_neg()
    };
    mine & (size[0] & affordable(1, size[1])
        | size[1] & affordable(3, size[2])
        | size[2] & affordable(7, size[3]))
}

/// A validated action (twin: `rules::Effect`). Cells and sizes are bytes: a frame passes two
/// of these (in `Result`s with [`Invalid`]) by value, so they are kept small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// `WAIT`: the player sleeps until the next day.
    Wait,
    /// cell, current size, cost
    Grow(u8, u8, i32),
    /// `COMPLETE`: the large tree on this cell is harvested.
    Complete(u8),
    /// source, target, cost
    Seed(u8, u8, i32),
}

/// Why an action fails §6.3 (twin: the messages of `rules::validate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// "Cell i not found": the cell index is off the board.
    NotFound(i32),
    /// "There is no tree on cell c".
    NoTree(u8),
    /// "The tree on cell c is owned by opponent".
    Opponent(u8),
    /// "Tree on cell c is dormant": it has acted this day already.
    Dormant(u8),
    /// "cannot grow more": GROW on a large tree.
    MaxSize(u8),
    /// "not large enough": COMPLETE on a tree smaller than 3.
    NotLarge(u8),
    /// "Not enough sun": the cost needed, then the sun the player has.
    Sun(i32, i32),
    /// "There is already a tree on cell c": SEED onto an occupied cell.
    Occupied(u8),
    /// "The seed on c cannot produce seeds": SEED from a seed.
    SeedSource(u8),
    /// "too far": the target is farther from the source than the source tree's size.
    TooFar(u8, u8),
    /// "You can't plant a seed on cell t": the target is a hole.
    Hole(u8),
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
