//! The fast Photosynthesis: 37-bit masks in `u64`s, precomputed shadow and distance tables,
//! popcount costs and sun, set-wise legal-action counting, an inline `java.util.Random`, and an
//! incrementally updated Zobrist hash. Plays exactly like `twinsim_reference::photosynthesis`: every
//! operation names its reference twin and is checked against it (tests, `check`, fuzz targets).

// Masks and tables are indexed by cell and size on purpose: the index is the cell.
#![allow(clippy::needless_range_loop)]

pub mod benches;
pub mod check;
pub mod engine;
pub mod tables;

use tables::*;
use twinsim_reference::game::{Game, IllegalAction, Outcome, PlayerId, StepError, TurnStructure};
use twinsim_reference::photosynthesis as r;
use twinsim_reference::photosynthesis::{Action, Answer, Params};

pub use benches::bench_ops;
pub use engine::engine;

// ---------------------------------------------------------------------------------------------
// java.util.Random, inline (twin: twinsim_reference::java_random::JavaRandom)
// ---------------------------------------------------------------------------------------------

const MULTIPLIER: u64 = 0x5DEECE66D;
const MASK48: u64 = (1 << 48) - 1;

/// `next(31)` (twin: `JavaRandom::next(31)`).
#[inline]
pub fn next31(seed: &mut u64) -> i32 {
    *seed = (seed.wrapping_mul(MULTIPLIER).wrapping_add(0xB)) & MASK48;
    (*seed >> 17) as i32
}

/// `nextInt(bound)` for bound > 0 (twin: `JavaRandom::next_below`).
#[inline]
pub fn next_int(seed: &mut u64, bound: i32) -> i32 {
    let mut r = next31(seed);
    let m = bound - 1;
    if bound & m == 0 {
        return ((bound as i64 * r as i64) >> 31) as i32;
    }
    let mut u = r;
    loop {
        r = u % bound;
        if u.wrapping_sub(r).wrapping_add(m) >= 0 {
            return r;
        }
        u = next31(seed);
    }
}

const REJECT_TABLE: usize = 512;

const fn build_reject_limits() -> [u32; REJECT_TABLE] {
    let mut out = [0u32; REJECT_TABLE];
    let mut b = 1;
    while b < REJECT_TABLE {
        out[b] = if b & (b - 1) == 0 { 1 << 31 } else { (1u32 << 31) - ((1u32 << 31) % b as u32) };
        b += 1;
    }
    out
}

/// `REJECT_LIMIT[b]`: `nextInt(b)` rejects a draw `u` (31 bits) iff `u >= REJECT_LIMIT[b]`
/// (Java's `u - r + m < 0` restated without the division; never for powers of two).
pub const REJECT_LIMIT: [u32; REJECT_TABLE] = build_reject_limits();

const fn build_jumps() -> [(u64, u64); REJECT_TABLE] {
    let mut out = [(1u64, 0u64); REJECT_TABLE];
    let mut k = 1;
    while k < REJECT_TABLE {
        let (a, c) = out[k - 1];
        out[k] = (
            a.wrapping_mul(MULTIPLIER) & MASK48,
            (c.wrapping_mul(MULTIPLIER).wrapping_add(0xB)) & MASK48,
        );
        k += 1;
    }
    out
}

/// `JUMP[k] = (A, C)`: k steps of the generator are `state ↦ (A·state + C) mod 2^48`.
pub const JUMP: [(u64, u64); REJECT_TABLE] = build_jumps();

/// The draws of `Collections.shuffle` on a list of `n` elements, without a list and without
/// divisions: only the rejection test matters for the generator's state (twin:
/// `JavaRandom::shuffle`'s consumption). The n − 1 draws are computed independently by
/// jump-ahead (no dependency chain); the sequential path is taken only if one of them would be
/// rejected (probability below n²/2³¹).
#[inline]
pub fn skip_shuffle(seed: &mut u64, n: u32) {
    let n = n as usize;
    if n < 2 {
        return;
    }
    if n < REJECT_TABLE {
        let s = *seed;
        let mut rejected = false;
        for k in 1..n {
            let (a, c) = JUMP[k];
            let u = ((a.wrapping_mul(s).wrapping_add(c) & MASK48) >> 17) as u32;
            rejected |= u >= REJECT_LIMIT[n + 1 - k];
        }
        if !rejected {
            let (a, c) = JUMP[n - 1];
            *seed = a.wrapping_mul(s).wrapping_add(c) & MASK48;
            return;
        }
    }
    skip_shuffle_sequential(seed, n);
}

/// [`skip_shuffle`] one draw after the other (the path taken when a draw is rejected).
pub fn skip_shuffle_sequential(seed: &mut u64, n: usize) {
    let mut i = n;
    while i >= 2 {
        if i >= REJECT_TABLE {
            next_int(seed, i as i32);
        } else {
            let limit = REJECT_LIMIT[i];
            while next31(seed) as u32 >= limit {}
        }
        i -= 1;
    }
}

/// `Collections.shuffle` (twin: `JavaRandom::shuffle`).
pub fn shuffle<T>(seed: &mut u64, list: &mut [T]) {
    for i in (2..=list.len()).rev() {
        let j = next_int(seed, i as i32) as usize;
        list.swap(i - 1, j);
    }
}

// ---------------------------------------------------------------------------------------------
// Actions, compactly
// ---------------------------------------------------------------------------------------------

/// An action packed in 16 bits: kind (0 WAIT, 1 GROW, 2 COMPLETE, 3 SEED) << 12 | source << 6
/// | target. Only for cells 0..36 (legal actions); arbitrary actions use [`Action`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

impl Move {
    pub const WAIT: Move = Move(0);
    #[inline]
    pub fn grow(c: usize) -> Move {
        Move(1 << 12 | c as u16)
    }
    #[inline]
    pub fn complete(c: usize) -> Move {
        Move(2 << 12 | c as u16)
    }
    #[inline]
    pub fn seed(s: usize, t: usize) -> Move {
        Move(3 << 12 | (s as u16) << 6 | t as u16)
    }
    /// The reference action.
    pub fn action(self) -> Action {
        let t = (self.0 & 63) as i32;
        let s = ((self.0 >> 6) & 63) as i32;
        match self.0 >> 12 {
            1 => Action::Grow(t),
            2 => Action::Complete(t),
            3 => Action::Seed(s, t),
            _ => Action::Wait,
        }
    }
}

/// Upper bound of a legal list: WAIT + 37 + trees × empty cells (≤ 18 · 19).
pub const MAX_MOVES: usize = 400;

/// A fixed-capacity list of moves (no allocation).
#[derive(Clone, Debug)]
pub struct MoveList {
    pub len: usize,
    pub moves: [Move; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList { len: 0, moves: [Move::WAIT; MAX_MOVES] }
    }
}

impl MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    /// The moves.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

// ---------------------------------------------------------------------------------------------
// The state
// ---------------------------------------------------------------------------------------------

const F_DAY: u64 = 1;
const F_DIR: u64 = 2;
const F_NUTRIENTS: u64 = 3;
const F_SUN: u64 = 4; // + player
const F_SCORE: u64 = 6; // + player
const F_FLAGS: u64 = 8;

const FLAG_GAME_OVER: u8 = 1 << 4;

/// The fast state (twin: `twinsim_reference::photosynthesis::State`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Cells holding a tree of size 0 (seed), 1, 2, 3.
    pub size: [u64; 4],
    /// Cells holding a tree of player 0 / 1.
    pub owner: [u64; 2],
    /// Cells holding a dormant tree.
    pub dormant: u64,
    /// Holes (richness 0).
    pub holes: u64,
    /// `shadow[k]`: cells shadowed by a tree of size ≥ k (k = 1..3; `shadow[0]` unused).
    pub shadow: [u64; 4],
    pub sun: [i32; 2],
    pub score: [i32; 2],
    pub nutrients: i32,
    pub day: u8,
    pub sun_direction: u8,
    pub league: u8,
    /// Bit p: player p waiting; bit 2 + p: player p disqualified; bit 4: game over.
    pub flags: u8,
    pub executions: u32,
    /// The 48-bit `java.util.Random` state.
    pub rng: u64,
    /// Whether [`State::step`] replays the referee's shuffle draws of the printed action lists
    /// (§6.1 step 2), which keeps `rng`, hence views and traces, exact. The draws decide only
    /// the printed order, never the rules: a search that renders no view turns them off
    /// ([`State::without_views`]) and skips both players' group counts and the draws each
    /// frame; the game it plays is the same.
    pub exact_views: bool,
    /// Zobrist hash, maintained incrementally.
    pub hash: u64,
}

impl State {
    fn params(&self) -> Params {
        Params { league_level: self.league }
    }
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.owner[0] | self.owner[1]
    }
    #[inline]
    pub fn waiting(&self, p: usize) -> bool {
        self.flags >> p & 1 == 1
    }
    #[inline]
    pub fn active(&self, p: usize) -> bool {
        self.flags >> (2 + p) & 1 == 0
    }
    #[inline]
    pub fn game_over(&self) -> bool {
        self.flags & FLAG_GAME_OVER != 0
    }
    /// Twin of `State::is_asked`.
    #[inline]
    pub fn is_asked(&self, p: usize) -> bool {
        !self.game_over() && p < 2 && self.active(p) && !self.waiting(p)
    }
    fn max_rounds(&self) -> u8 {
        match self.league {
            0 | 1 => 1,
            2 => 6,
            _ => 24,
        }
    }
    /// Size of the tree on `cell`, if any.
    #[inline]
    pub fn size_at(&self, cell: usize) -> Option<u8> {
        let bit = 1u64 << cell;
        (0..4).find(|&s| self.size[s] & bit != 0).map(|s| s as u8)
    }
    #[inline]
    fn owner_at(&self, cell: usize) -> usize {
        (self.owner[1] >> cell & 1) as usize
    }

    // --- hash-maintaining mutators -------------------------------------------------------

    fn set_flags(&mut self, flags: u8) {
        self.hash ^= scalar_key(F_FLAGS, self.flags as i64) ^ scalar_key(F_FLAGS, flags as i64);
        self.flags = flags;
    }
    fn set_sun(&mut self, p: usize, v: i32) {
        let f = F_SUN + p as u64;
        self.hash ^= scalar_key(f, self.sun[p] as i64) ^ scalar_key(f, v as i64);
        self.sun[p] = v;
    }
    fn set_score(&mut self, p: usize, v: i32) {
        let f = F_SCORE + p as u64;
        self.hash ^= scalar_key(f, self.score[p] as i64) ^ scalar_key(f, v as i64);
        self.score[p] = v;
    }
    fn set_nutrients(&mut self, v: i32) {
        self.hash ^=
            scalar_key(F_NUTRIENTS, self.nutrients as i64) ^ scalar_key(F_NUTRIENTS, v as i64);
        self.nutrients = v;
    }
    fn set_day(&mut self, v: u8) {
        self.hash ^= scalar_key(F_DAY, self.day as i64) ^ scalar_key(F_DAY, v as i64);
        self.day = v;
    }
    fn set_direction(&mut self, v: u8) {
        self.hash ^= scalar_key(F_DIR, self.sun_direction as i64) ^ scalar_key(F_DIR, v as i64);
        self.sun_direction = v;
    }
    fn put_tree(&mut self, cell: usize, size: u8, owner: usize, dormant: bool) {
        let bit = 1u64 << cell;
        self.size[size as usize] |= bit;
        self.owner[owner] |= bit;
        self.hash ^= CELL_KEYS[cell][1 + size as usize * 2 + owner];
        if dormant {
            self.dormant |= bit;
            self.hash ^= DORMANT_KEYS[cell];
        }
    }
    fn remove_tree(&mut self, cell: usize, size: u8, owner: usize) {
        let bit = 1u64 << cell;
        self.hash ^= CELL_KEYS[cell][1 + size as usize * 2 + owner];
        if self.dormant & bit != 0 {
            self.hash ^= DORMANT_KEYS[cell];
        }
        self.size[size as usize] &= !bit;
        self.owner[owner] &= !bit;
        self.dormant &= !bit;
    }
    fn make_dormant(&mut self, cell: usize) {
        let bit = 1u64 << cell;
        if self.dormant & bit == 0 {
            self.dormant |= bit;
            self.hash ^= DORMANT_KEYS[cell];
        }
    }
    fn wake_all(&mut self) {
        let mut m = self.dormant;
        while m != 0 {
            self.hash ^= DORMANT_KEYS[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        self.dormant = 0;
    }

    /// The Zobrist hash from scratch: trees (cell × 9 contents), dormant flags, day, sun
    /// direction, nutrients, sun, score and the waiting/active/game-over flags.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = scalar_key(F_DAY, self.day as i64)
            ^ scalar_key(F_DIR, self.sun_direction as i64)
            ^ scalar_key(F_NUTRIENTS, self.nutrients as i64)
            ^ scalar_key(F_FLAGS, self.flags as i64);
        for p in 0..2 {
            h ^= scalar_key(F_SUN + p as u64, self.sun[p] as i64);
            h ^= scalar_key(F_SCORE + p as u64, self.score[p] as i64);
        }
        for s in 0..4 {
            for p in 0..2 {
                let mut m = self.size[s] & self.owner[p];
                while m != 0 {
                    h ^= CELL_KEYS[m.trailing_zeros() as usize][1 + s * 2 + p];
                    m &= m - 1;
                }
            }
        }
        let mut m = self.dormant;
        while m != 0 {
            h ^= DORMANT_KEYS[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        h
    }

    // --- conversions ----------------------------------------------------------------------

    /// The reference state (twin direction: `From<&reference State>`).
    pub fn to_reference(&self) -> r::State {
        let mut s = r::State::blank(0, self.params());
        s.day = self.day as u32;
        s.sun_direction = self.sun_direction as usize;
        s.nutrients = self.nutrients;
        for p in 0..2 {
            s.players[p] = r::Player {
                sun: self.sun[p],
                score: self.score[p],
                waiting: self.waiting(p),
                active: self.active(p),
            };
        }
        for cell in 0..N {
            if let Some(size) = self.size_at(cell) {
                s.trees.insert(
                    cell,
                    r::Tree {
                        size,
                        owner: self.owner_at(cell),
                        dormant: self.dormant >> cell & 1 == 1,
                    },
                );
            }
            s.richness[cell] = if self.holes >> cell & 1 == 1 { 0 } else { DEFAULT_RICHNESS[cell] };
            s.shadows[cell] =
                (1..4u8).rev().find(|&k| self.shadow[k as usize] >> cell & 1 == 1).unwrap_or(0);
        }
        s.rng = twinsim_reference::java_random::JavaRandom::from_state(self.rng as i64);
        s.game_over = self.game_over();
        s.executions = self.executions;
        s
    }

    // --- §4 setup ---------------------------------------------------------------------------

    /// Seeded setup (twin: `twinsim_reference::photosynthesis::setup::new_game`): holes, starting trees,
    /// shadows, the day-0 gathering. Events go to `events` when given.
    pub fn new_game(seed: i64, params: Params, events: Option<&mut Vec<String>>) -> State {
        let mut st = State {
            size: [0; 4],
            owner: [0; 2],
            dormant: 0,
            holes: 0,
            shadow: [0; 4],
            sun: [0; 2],
            score: [0; 2],
            nutrients: 20,
            day: 0,
            sun_direction: 0,
            league: params.league_level,
            flags: 0,
            executions: 0,
            rng: (seed as u64 ^ MULTIPLIER) & MASK48,
            exact_views: true,
            hash: 0,
        };
        let full = st.league >= 3;
        if full {
            let wanted = next_int(&mut st.rng, 11);
            let mut actual = 0;
            while actual < wanted - 1 {
                let cell = r::board::HASHMAP_ORDER[next_int(&mut st.rng, 37) as usize];
                if st.holes >> cell & 1 == 0 {
                    st.holes |= 1 << cell;
                    actual += 1;
                    if cell != 0 {
                        st.holes |= 1 << MIRROR[cell];
                        actual += 1;
                    }
                }
            }
        }
        let (count, distance, size) = match st.league {
            0 | 1 => (6, 0, 3u8),
            2 => (4, 1, 1),
            _ => (2, 2, 1),
        };
        let candidates: u64 = if full { (ALL ^ ((1 << 19) - 1)) & !st.holes } else { ALL & !1 };
        let mut picked = [0usize; 12];
        for _attempt in 0..1_000_000 {
            let mut avail = candidates;
            let mut n = 0;
            for _ in 0..count {
                if avail == 0 {
                    break;
                }
                let k = next_int(&mut st.rng, avail.count_ones() as i32) as u32;
                let c = nth_bit(avail, k);
                let m = MIRROR[c] as usize;
                avail &= !(WITHIN[c][distance] | WITHIN[m][distance]);
                picked[n] = c;
                picked[n + 1] = m;
                n += 2;
            }
            if n >= 2 * count {
                break;
            }
        }
        st.hash = st.hash_from_scratch();
        for i in 0..count {
            st.put_tree(picked[2 * i], size, 0, false);
            st.put_tree(picked[2 * i + 1], size, 1, false);
        }
        if full {
            st.compute_shadows();
        }
        st.gathering(events);
        st
    }

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
    fn gathering(&mut self, events: Option<&mut Vec<String>>) {
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
    fn sun_move(&mut self, events: Option<&mut Vec<String>>) {
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

    /// One ACTIONS frame and the automatic frames after it (twin: `rules::play_frame`).
    /// Entries of players not asked are ignored. Events are produced only when `events` is given.
    pub fn step(
        &mut self,
        answers: &[Option<Answer>; 2],
        events: Option<&mut Vec<String>>,
    ) -> Result<(), StepError> {
        let counts = if self.exact_views {
            [self.group_counts(0), self.group_counts(1)]
        } else {
            [[0; 3]; 2]
        };
        self.step_counted(answers, counts, events)
    }

    /// The same position in search mode: the following steps play the same game but no longer
    /// replay the referee's shuffle draws, so `rng` stays where it is and the views rendered
    /// from later states would print the lists in another order than the referee's (see
    /// [`State::exact_views`]).
    pub fn without_views(mut self) -> State {
        self.exact_views = false;
        self
    }

    /// [`State::step`] given both players' [`State::group_counts`] of this state (a playout
    /// that already computed them to pick its moves saves computing them twice). Counts of a
    /// player not asked are ignored, and all counts when `exact_views` is off.
    pub fn step_counted(
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
fn nth_bit(mut m: u64, k: u32) -> usize {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// A validated action (twin: `rules::Effect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Wait,
    /// cell, current size, cost
    Grow(usize, usize, i32),
    Complete(usize),
    /// source, target, cost
    Seed(usize, usize, i32),
}

/// Why an action fails §6.3 (twin: the messages of `rules::validate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    NotFound(i32),
    NoTree(usize),
    Opponent(usize),
    Dormant(usize),
    MaxSize(usize),
    NotLarge(usize),
    Sun(i32, i32),
    Occupied(usize),
    SeedSource(usize),
    TooFar(usize, usize),
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

impl From<&r::State> for State {
    /// Twin direction of [`State::to_reference`].
    fn from(s: &r::State) -> State {
        let mut st = State {
            size: [0; 4],
            owner: [0; 2],
            dormant: 0,
            holes: 0,
            shadow: [0; 4],
            sun: [s.players[0].sun, s.players[1].sun],
            score: [s.players[0].score, s.players[1].score],
            nutrients: s.nutrients,
            day: s.day as u8,
            sun_direction: s.sun_direction as u8,
            league: s.params.league_level,
            flags: 0,
            executions: s.executions,
            rng: s.rng.state() as u64,
            exact_views: true,
            hash: 0,
        };
        for (p, pl) in s.players.iter().enumerate() {
            if pl.waiting {
                st.flags |= 1 << p;
            }
            if !pl.active {
                st.flags |= 1 << (2 + p);
            }
        }
        if s.game_over {
            st.flags |= FLAG_GAME_OVER;
        }
        for (&cell, t) in &s.trees {
            let bit = 1u64 << cell;
            st.size[t.size.min(3) as usize] |= bit;
            st.owner[t.owner.min(1)] |= bit;
            if t.dormant {
                st.dormant |= bit;
            }
        }
        for cell in 0..N {
            if s.richness[cell] == 0 {
                st.holes |= 1 << cell;
            }
            for k in 1..4u8 {
                if s.shadows[cell] >= k {
                    st.shadow[k as usize] |= 1 << cell;
                }
            }
        }
        st.hash = st.hash_from_scratch();
        st
    }
}

/// The fast game through the shared typed API (twin: `twinsim_reference::photosynthesis::Photosynthesis`).
#[derive(Clone, Copy, Debug, Default)]
pub struct FastPhotosynthesis;

impl Game for FastPhotosynthesis {
    type State = State;
    type Action = Action;
    type Params = Params;
    const NAME: &'static str = "photosynthesis";
    const TURNS: TurnStructure = TurnStructure::Simultaneous;

    fn new_game(seed: i64, params: &Params) -> State {
        State::new_game(seed, *params, None)
    }
    fn num_players(_: &State) -> usize {
        2
    }
    fn players_to_act(state: &State) -> Vec<PlayerId> {
        (0..2).filter(|&p| state.is_asked(p)).collect()
    }
    fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
        let mut list = MoveList::default();
        state.legal_moves(player, &mut list);
        list.as_slice().iter().map(|m| m.action()).collect()
    }
    fn step(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        if state.game_over() {
            return Err(StepError::GameOver);
        }
        if actions.len() != 2 {
            return Err(StepError::WrongArity { expected: 2, found: actions.len() });
        }
        for (player, action) in actions.iter().enumerate() {
            if let Some(a) = *action {
                if !state.is_asked(player) {
                    return Err(StepError::NotToAct { player });
                }
                let enabled = match a {
                    Action::Grow(_) => state.league >= 2,
                    Action::Seed(..) => state.league >= 3,
                    _ => true,
                };
                if !enabled {
                    let reason =
                        format!("{a} is not a command of league {} (§6.2, §10)", state.league);
                    return Err(StepError::Illegal { player, error: IllegalAction { reason } });
                }
                state.validate(player, a, state.sun[player]).map_err(|e| StepError::Illegal {
                    player,
                    error: IllegalAction { reason: e.message() },
                })?;
            }
        }
        let answers = [0, 1]
            .map(|p| state.is_asked(p).then(|| actions[p].map_or(Answer::Timeout, Answer::Action)));
        state.step(&answers, None)
    }
    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome()
    }
}
