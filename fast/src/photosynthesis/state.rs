//! The packed state (twin: `twinsim_reference::photosynthesis::State`): its fields, accessors,
//! hash-maintaining mutators, the Zobrist hash and the conversions from and to the reference.

// Masks and tables are indexed by cell and size on purpose: the index is the cell.
#![allow(clippy::needless_range_loop)]

use super::tables::*;
use twinsim_reference::photosynthesis as r;
use twinsim_reference::photosynthesis::Params;

pub(super) const F_DAY: u64 = 1;
pub(super) const F_DIR: u64 = 2;
pub(super) const F_NUTRIENTS: u64 = 3;
pub(super) const F_SUN: u64 = 4; // + player
pub(super) const F_SCORE: u64 = 6; // + player
pub(super) const F_FLAGS: u64 = 8;

pub(super) const FLAG_GAME_OVER: u8 = 1 << 4;

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
    /// Sun points of player 0 / 1.
    pub sun: [i32; 2],
    /// Score of player 0 / 1.
    pub score: [i32; 2],
    /// The nutrient value a harvest scores now (§2: starts at 20, never below 0).
    pub nutrients: i32,
    /// The day (round), from 0.
    pub day: u8,
    /// The sun's direction 0..5 (= day mod 6): where shadows fall (§5).
    pub sun_direction: u8,
    /// The league level (§10), as in the reference `Params`.
    pub league: u8,
    /// Bit p: player p waiting; bit 2 + p: player p disqualified; bit 4: game over.
    pub flags: u8,
    /// Frames the referee has executed (the trace's `executions`; §11, the SDK quota).
    pub executions: u32,
    /// The 48-bit `java.util.Random` state as of the last frame the views were brought up to
    /// date: the referee's generator is `rng` advanced by the [`Pending`] frames' shuffle draws
    /// ([`State::generator`], [`State::sync_views`]).
    pub rng: u64,
    /// The frames whose shuffle draws (§6.1 step 2) are owed to `rng`: the draws decide only
    /// the printed order of the action lists, never the rules, so a frame only notes what its
    /// draws need and they are made when a view, a trace or the generator is asked for.
    pub pending: Pending,
    /// Whether the frames keep the views exact at all (by noting their draws in `pending`).
    /// A search that renders no view and plays far ahead turns this off
    /// ([`State::without_views`]): it then never pays for the draws, even past
    /// [`PENDING_FRAMES`] frames; the game it plays is the same.
    pub exact_views: bool,
    /// Per player, the length of its seed group before the sun check (§8: a SEED from each of
    /// its awake trees of size ≥ 1 to each free cell, no hole and no tree, within the tree's
    /// size): [`State::seed_reach_from_scratch`], kept up to date tree change by tree change
    /// while `exact_views`, because every exact frame needs its group lengths (§6.1 step 2)
    /// and a recount loops over the trees. Zero in search mode, where no frame needs them.
    pub seed_reach: [u16; 2],
    /// The Zobrist hash ([`State::hash_from_scratch`]), maintained incrementally in search
    /// mode (`exact_views` off: the states a search hashes, [`State::without_views`]); zero
    /// while `exact_views`, where the frames skip its upkeep (a key lookup and an XOR at every
    /// change: twinsim bench photosynthesis --instructions, step 725 -> 658) and
    /// [`State::zobrist`] computes it. Read it with [`State::zobrist`].
    pub hash: u64,
}

/// How many frames' draws [`Pending`] holds before they are made.
pub const PENDING_FRAMES: usize = 4;

/// The frames whose shuffle draws are still owed to the generator, oldest first (twin: none;
/// the reference draws at every frame). A frame's draws need only its two players' group
/// counts ([`State::group_counts`]) before the frame, which the frame notes as it is played:
/// the draws themselves are made, for all the noted frames in one run, only when a view, a
/// trace or the generator is asked for. Entries past `len` are zero, so equal histories
/// compare equal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pending {
    /// Frames noted.
    pub len: u8,
    /// Per frame, per player, per group (completes, grows, seeds): the length of the printed
    /// list's group before the frame, zero for a player not asked; group `g` of player `p` in
    /// frame `i` at [`Pending::index`]`(i, p, g)`, group by group (a player's three lengths
    /// are then three plain stores: side by side the compiler merged them into one, built
    /// with shifts; twinsim bench photosynthesis --instructions). Every group is shorter than
    /// 512 on a 37-cell board (a seed group pairs own trees with free cells: at most
    /// 18 · 19 = 342), so every draw has a rejection limit tabled.
    pub lens: [u16; 6 * PENDING_FRAMES],
}

impl Pending {
    /// Where [`Pending::lens`] holds group `g` (0 completes, 1 grows, 2 seeds) of player `p`
    /// in the noted frame `i`.
    #[inline]
    pub fn index(i: usize, p: usize, g: usize) -> usize {
        2 * PENDING_FRAMES * g + 2 * i + p
    }

    /// The shuffles of the noted lists made draw by draw from `seed`, in their order: the
    /// path [`State::sync_views`] takes when a draw may be rejected (about once in 2^22
    /// draws), out of its line.
    #[cold]
    #[inline(never)]
    pub(super) fn redo(&self, seed: &mut u64) {
        for n in self.in_draw_order() {
            super::random::skip_shuffle_sequential(seed, n as usize);
        }
    }

    /// The noted lengths in the order the referee draws their shuffles: frame by frame,
    /// player by player, group by group.
    pub fn in_draw_order(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.len as usize).flat_map(move |i| {
            (0..2).flat_map(move |p| (0..3).map(move |g| self.lens[Pending::index(i, p, g)]))
        })
    }
}

impl State {
    pub(super) fn params(&self) -> Params {
        Params { league_level: self.league }
    }
    /// The cells a seed may land on: neither a hole nor holding a tree.
    #[inline]
    pub fn free(&self) -> u64 {
        ALL & !self.holes & !self.occupied()
    }
    /// Cells holding a tree of either player.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.owner[0] | self.owner[1]
    }
    /// Whether player `p` is waiting (asleep until the next day).
    #[inline]
    pub fn waiting(&self, p: usize) -> bool {
        self.flags >> p & 1 == 1
    }
    /// Whether player `p` is still in the game (not disqualified).
    #[inline]
    pub fn active(&self, p: usize) -> bool {
        self.flags >> (2 + p) & 1 == 0
    }
    /// Whether the game has ended.
    #[inline]
    pub fn game_over(&self) -> bool {
        self.flags & FLAG_GAME_OVER != 0
    }
    /// Twin of `State::is_asked`.
    #[inline]
    pub fn is_asked(&self, p: usize) -> bool {
        // Not over, not disqualified, not waiting: three flag bits clear, in one test.
        p < 2 && self.flags & (FLAG_GAME_OVER | 4 << p | 1 << p) == 0
    }
    #[inline]
    pub(super) fn max_rounds(&self) -> u8 {
        // A match, not an array indexed by the league: the array was built on the stack at
        // every end of day.
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
    pub(super) fn owner_at(&self, cell: usize) -> usize {
        (self.owner[1] >> cell & 1) as usize
    }

    // --- hash-maintaining mutators -------------------------------------------------------

    // `HASH`: whether the mutator keeps [`State::hash`] up to date, as it must exactly in
    // search mode (`HASH == !exact_views`): a constant, so that the exact frames hold no trace of
    // the upkeep and the search-mode frames no test of the mode (twinsim bench photosynthesis
    // --instructions, the mode read at every change: step 700, step_search 486, end_of_day 262).

    /// The Zobrist hash of this position ([`State::hash_from_scratch`]): the field kept up to
    /// date in search mode, computed here in exact states (see [`State::hash`]).
    #[inline]
    pub fn zobrist(&self) -> u64 {
        if !self.exact_views {
            self.hash
        } else {
            self.hash_from_scratch()
        }
    }

    pub(super) fn set_flags<const HASH: bool>(&mut self, flags: u8) {
        if HASH {
            self.hash ^= scalar_key_tabled(F_FLAGS, self.flags as i64)
                ^ scalar_key_tabled(F_FLAGS, flags as i64);
        }
        self.flags = flags;
    }
    pub(super) fn set_sun<const HASH: bool>(&mut self, p: usize, v: i32) {
        if HASH {
            let f = F_SUN + p as u64;
            self.hash ^= scalar_key_tabled(f, self.sun[p] as i64) ^ scalar_key_tabled(f, v as i64);
        }
        self.sun[p] = v;
    }
    pub(super) fn set_score<const HASH: bool>(&mut self, p: usize, v: i32) {
        if HASH {
            let f = F_SCORE + p as u64;
            self.hash ^=
                scalar_key_tabled(f, self.score[p] as i64) ^ scalar_key_tabled(f, v as i64);
        }
        self.score[p] = v;
    }
    pub(super) fn set_nutrients<const HASH: bool>(&mut self, v: i32) {
        if HASH {
            self.hash ^= scalar_key_tabled(F_NUTRIENTS, self.nutrients as i64)
                ^ scalar_key_tabled(F_NUTRIENTS, v as i64);
        }
        self.nutrients = v;
    }
    pub(super) fn set_day<const HASH: bool>(&mut self, v: u8) {
        if HASH {
            self.hash ^=
                scalar_key_tabled(F_DAY, self.day as i64) ^ scalar_key_tabled(F_DAY, v as i64);
        }
        self.day = v;
    }
    pub(super) fn set_direction<const HASH: bool>(&mut self, v: u8) {
        if HASH {
            self.hash ^= scalar_key_tabled(F_DIR, self.sun_direction as i64)
                ^ scalar_key_tabled(F_DIR, v as i64);
        }
        self.sun_direction = v;
    }
    pub(super) fn put_tree<const HASH: bool>(
        &mut self,
        cell: usize,
        size: u8,
        owner: usize,
        dormant: bool,
    ) {
        let bit = 1u64 << cell;
        self.size[size as usize] |= bit;
        self.owner[owner] |= bit;
        if HASH {
            self.hash ^= CELL_KEYS[cell][1 + size as usize * 2 + owner];
            if dormant {
                self.hash ^= DORMANT_KEYS[cell];
            }
        }
        if dormant {
            self.dormant |= bit;
        }
    }
    pub(super) fn remove_tree<const HASH: bool>(&mut self, cell: usize, size: u8, owner: usize) {
        let bit = 1u64 << cell;
        if HASH {
            self.hash ^= CELL_KEYS[cell][1 + size as usize * 2 + owner];
            if self.dormant & bit != 0 {
                self.hash ^= DORMANT_KEYS[cell];
            }
        }
        self.size[size as usize] &= !bit;
        self.owner[owner] &= !bit;
        self.dormant &= !bit;
    }
    /// The awake tree of `owner` on `cell`, of size `size` < 3, grows by one and falls asleep
    /// (§6.1 GROW): [`State::remove_tree`] then [`State::put_tree`] in one, without clearing
    /// and setting again the owner's and the dormant bits (twinsim bench photosynthesis
    /// --instructions).
    #[inline]
    pub(super) fn grow_tree<const HASH: bool>(&mut self, cell: usize, size: usize, owner: usize) {
        debug_assert!(size < 3 && self.dormant >> cell & 1 == 0, "an awake tree below 3");
        let bit = 1u64 << cell;
        if HASH {
            self.hash ^= CELL_KEYS[cell][1 + size * 2 + owner]
                ^ CELL_KEYS[cell][3 + size * 2 + owner]
                ^ DORMANT_KEYS[cell];
        }
        self.size[size & 3] &= !bit;
        self.size[(size + 1) & 3] |= bit;
        self.dormant |= bit;
    }
    pub(super) fn make_dormant<const HASH: bool>(&mut self, cell: usize) {
        let bit = 1u64 << cell;
        if HASH && self.dormant & bit == 0 {
            self.hash ^= DORMANT_KEYS[cell];
        }
        self.dormant |= bit;
    }
    /// Every tree wakes: in search mode the dormant keys leave the hash five byte lookups at a
    /// time; in exact states the trees that wake add their reach to their owner's
    /// [`State::seed_reach`].
    pub(super) fn wake_all<const HASH: bool>(&mut self) {
        if !HASH {
            // Size by size and owner by owner: the loops' bodies need neither the tree's size
            // nor its owner (twinsim bench photosynthesis --instructions).
            let free = self.free();
            let dormant = self.dormant;
            if dormant & !self.size[0] != 0 {
                for p in 0..2 {
                    let mut reach = 0;
                    for size in 1..4 {
                        let mut waking = dormant & self.owner[p] & self.size[size];
                        while waking != 0 {
                            let cell = waking.trailing_zeros() as usize;
                            waking &= waking - 1;
                            reach += (WITHIN_BY_ZEROS[cell][size] & free).count_ones() as u16;
                        }
                    }
                    self.seed_reach[p] += reach;
                }
            }
        } else {
            self.hash ^= dormant_keys(self.dormant);
        }
        self.dormant = 0;
    }

    /// The Zobrist hash from scratch: trees (cell × 9 contents), dormant flags, day, sun
    /// direction, nutrients, sun, score and the waiting/active/game-over flags.
    pub fn hash_from_scratch(&self) -> u64 {
        super::search::zobrist(
            [self.day as i64, self.sun_direction as i64, self.nutrients as i64],
            self.flags,
            [self.sun[0] as i64, self.sun[1] as i64],
            [self.score[0] as i64, self.score[1] as i64],
            &self.size,
            &self.owner,
            self.dormant,
        )
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
        s.rng = twinsim_reference::java_random::JavaRandom::from_state(self.generator() as i64);
        s.game_over = self.game_over();
        s.executions = self.executions;
        s
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
            pending: Pending::default(),
            exact_views: true,
            seed_reach: [0; 2],
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
        st.seed_reach = st.seed_reach_from_scratch();
        st
    }
}
