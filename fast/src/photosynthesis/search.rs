//! Photosynthesis in search mode: [`SearchState`], 64 bytes, the same rules as the exact
//! [`super::State`] with everything a search does not read left out (the way
//! [`crate::olymbits::SearchOlymbits`] is Olymbits with search dice):
//! - no generator: the referee's shuffle of the printed lists (§6.1 step 2) decides only their
//!   order, never the rules, so nothing of it is kept nor owed;
//! - no incremental hash: [`SearchState::hash`] computes the exact state's Zobrist hash on
//!   demand;
//! - no validation: [`SearchState::play`] applies moves taken from this state's own generator
//!   ([`SearchState::legal_moves`], [`SearchState::nth_legal`]) as they are;
//! - no stored shadows: the referee computes them at the sun move and reads them only at the
//!   gathering of the same frame (§5), so the end of day computes them in registers;
//! - no frame counter (the traces' `executions`), and the sun direction follows from the day.
//!
//! Its legal lists hold the same actions as the exact state's, seeds in cell order rather than
//! the referee's x/y order (it renders no list). This module uses no other crate; conversions
//! to and from the exact state are in [`super::search_convert`], the differential check in
//! `check::search_diff`.

use super::tables::{cast_shadows, ALL, N, RICH2, RICH3, SHADE_BY_DAY, WITHIN};
use super::{CompactMoves, Move};

/// First bit of the day (0..=24, 5 bits) in [`SearchState::holes_meta`].
const DAY_SHIFT: u32 = 40;
/// First bit of the nutrients (0..=31, 5 bits).
const NUTRIENTS_SHIFT: u32 = 45;
/// First bit of the flags (5 bits: waiting 0/1, disqualified 0/1, game over; as the exact
/// state's `flags`).
const FLAGS_SHIFT: u32 = 50;
/// First bit of the league (0..=7, 3 bits).
const LEAGUE_SHIFT: u32 = 56;
/// First bit of the league's number of days (1, 6 or 24; 5 bits, the top ones): kept beside the
/// league so that the end of a day reads it without a branch on the league.
const MAX_ROUNDS_SHIFT: u32 = 59;

/// The game-over flag (bit 4 of the flags, as in the exact state).
pub const SEARCH_GAME_OVER: u8 = 1 << 4;

/// Points a COMPLETE scores over the nutrients, by cell (§6.3: richness 3 gives 4, richness 2
/// gives 2; a hole holds no tree); 64 entries, indexed by a 6-bit cell field without a check.
const BONUS: [i16; 64] = {
    let mut out = [0i16; 64];
    let mut c = 0;
    while c < N {
        out[c] = if RICH3 >> c & 1 == 1 {
            4
        } else if RICH2 >> c & 1 == 1 {
            2
        } else {
            0
        };
        c += 1;
    }
    out
};

/// [`WITHIN`] with 64 cells (the extra ones reach nothing), for the same reason.
static WITHIN64: [[u64; 4]; 64] = {
    let mut out = [[0u64; 4]; 64];
    let mut c = 0;
    while c < N {
        out[c] = WITHIN[c];
        c += 1;
    }
    out
};

/// `DAY_MOD6[d]` = d mod 6: the sun's direction on day d (§5).
const DAY_MOD6: [u8; 32] = {
    let mut out = [0u8; 32];
    let mut d = 0;
    while d < 32 {
        out[d] = (d % 6) as u8;
        d += 1;
    }
    out
};

/// A Photosynthesis position for searches: 64 bytes (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchState {
    /// Cells holding a tree of player 0 / 1 (seeds included).
    pub owner: [u64; 2],
    /// `grown[k]`: cells holding a tree of size k + 1; a seed is a tree in neither.
    pub grown: [u64; 3],
    /// Cells holding a dormant tree.
    pub dormant: u64,
    /// The holes (bits 0..37, fixed for the game), then the day, nutrients, flags and league
    /// in the bits above (read them with the accessors).
    holes_meta: u64,
    /// Sun points of player 0 / 1.
    pub sun: [u16; 2],
    /// Score of player 0 / 1 (−1 for a disqualified player, as the referee sets it).
    pub score: [i16; 2],
}

const _: () = assert!(std::mem::size_of::<SearchState>() == 64);

impl SearchState {
    /// The state with these fields (`flags` as the exact state's). `None` when a value does not
    /// fit its bits: day > 24, nutrients outside 0..=31, league > 7, flags ≥ 32.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        owner: [u64; 2],
        sizes: [u64; 4],
        dormant: u64,
        holes: u64,
        sun: [u16; 2],
        score: [i16; 2],
        day: u8,
        nutrients: i32,
        flags: u8,
        league: u8,
    ) -> Option<SearchState> {
        if day > 24 || !(0..32).contains(&nutrients) || league > 7 || flags >= 32 {
            return None;
        }
        let max_rounds: u64 = match league {
            0 | 1 => 1,
            2 => 6,
            _ => 24,
        };
        let meta = (day as u64) << DAY_SHIFT
            | (nutrients as u64) << NUTRIENTS_SHIFT
            | (flags as u64) << FLAGS_SHIFT
            | (league as u64) << LEAGUE_SHIFT
            | max_rounds << MAX_ROUNDS_SHIFT;
        Some(SearchState {
            owner: [owner[0] & ALL, owner[1] & ALL],
            grown: [sizes[1] & ALL, sizes[2] & ALL, sizes[3] & ALL],
            dormant: dormant & ALL,
            holes_meta: holes & ALL | meta,
            sun,
            score,
        })
    }

    // --- accessors ----------------------------------------------------------------------------

    /// The holes (richness 0).
    #[inline]
    pub fn holes(&self) -> u64 {
        self.holes_meta & ALL
    }
    /// The day, from 0.
    #[inline]
    pub fn day(&self) -> u8 {
        (self.holes_meta >> DAY_SHIFT & 31) as u8
    }
    /// The nutrient value a harvest scores now.
    #[inline]
    pub fn nutrients(&self) -> i16 {
        (self.holes_meta >> NUTRIENTS_SHIFT & 31) as i16
    }
    /// Bit p: player p waiting; bit 2 + p: player p disqualified; bit 4: game over.
    #[inline]
    pub fn flags(&self) -> u8 {
        (self.holes_meta >> FLAGS_SHIFT & 31) as u8
    }
    /// The league level (§10).
    #[inline]
    pub fn league(&self) -> u8 {
        (self.holes_meta >> LEAGUE_SHIFT & 7) as u8
    }
    /// The days of a game in this league (§10).
    #[inline]
    pub fn max_rounds(&self) -> u8 {
        (self.holes_meta >> MAX_ROUNDS_SHIFT) as u8
    }
    /// The sun's direction: day mod 6, except after the last day, when the sun did not turn.
    #[inline]
    pub fn sun_direction(&self) -> u8 {
        let day = self.day();
        DAY_MOD6[day.min(self.max_rounds() - 1) as usize]
    }
    /// Whether player `p` is waiting (asleep until the next day).
    #[inline]
    pub fn waiting(&self, p: usize) -> bool {
        self.flags() >> p & 1 == 1
    }
    /// Whether player `p` is still in the game (not disqualified).
    #[inline]
    pub fn active(&self, p: usize) -> bool {
        self.flags() >> (2 + p) & 1 == 0
    }
    /// Whether the game has ended.
    #[inline]
    pub fn game_over(&self) -> bool {
        self.flags() & SEARCH_GAME_OVER != 0
    }
    /// Whether player `p` acts this frame: not over, not disqualified, not waiting.
    #[inline]
    pub fn is_asked(&self, p: usize) -> bool {
        p < 2 && self.flags() & (SEARCH_GAME_OVER | 4 << p | 1 << p) == 0
    }
    /// Cells holding a tree.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.owner[0] | self.owner[1]
    }
    /// Cells holding a tree of size `s` (0 = seed .. 3).
    #[inline]
    pub fn size_mask(&self, s: usize) -> u64 {
        match s {
            0 => self.occupied() & !(self.grown[0] | self.grown[1] | self.grown[2]),
            _ => self.grown[s - 1],
        }
    }
    /// The four size masks, seeds first (the exact state's `size`).
    #[inline]
    pub fn sizes(&self) -> [u64; 4] {
        [self.size_mask(0), self.grown[0], self.grown[1], self.grown[2]]
    }

    // --- §8 legal actions ----------------------------------------------------------------------

    /// The trees of `p` it can afford to grow (not dormant), by size's cost (§6.3: 1, 3, 7 plus
    /// its trees of the next size).
    #[inline]
    fn growable(&self, p: usize, mine: u64) -> u64 {
        let own = self.owner[p];
        let sun = self.sun[p] as u32;
        let g = &self.grown;
        let mut out = 0;
        if (own & g[0]).count_ones() < sun {
            out |= mine & !(g[0] | g[1] | g[2]);
        }
        if 3 + (own & g[1]).count_ones() <= sun {
            out |= mine & g[0];
        }
        if 7 + (own & g[2]).count_ones() <= sun {
            out |= mine & g[1];
        }
        out
    }

    /// Whether `p` may seed at all (league ≥ 3 and its seed cost, its own seeds, affordable).
    #[inline]
    fn can_seed(&self, p: usize) -> bool {
        self.league() >= 3 && (self.owner[p] & self.size_mask(0)).count_ones() <= self.sun[p] as u32
    }

    /// The cells a seed may land on: neither a hole nor occupied.
    #[inline]
    fn free(&self) -> u64 {
        ALL & !self.holes_meta & !self.occupied()
    }

    /// The seed targets of the tree of size `s` ≥ 1 on `c`.
    #[inline]
    fn targets(c: usize, s: usize, free: u64) -> u64 {
        WITHIN64[c & 63][s & 3] & free
    }

    /// Sizes of `p`'s COMPLETE, GROW and SEED groups (0 for a player not asked): the legal list
    /// holds 1 + their sum moves (WAIT first).
    #[inline]
    pub fn group_counts(&self, p: usize) -> [u32; 3] {
        if !self.is_asked(p) {
            return [0; 3];
        }
        let mine = self.owner[p] & !self.dormant;
        let completes = if 4 <= self.sun[p] { (mine & self.grown[2]).count_ones() } else { 0 };
        let grows = if self.league() >= 2 { self.growable(p, mine).count_ones() } else { 0 };
        let mut seeds = 0;
        if self.can_seed(p) {
            let free = self.free();
            for s in 1..4 {
                let mut m = mine & self.grown[s - 1];
                while m != 0 {
                    seeds += Self::targets(m.trailing_zeros() as usize, s, free).count_ones();
                    m &= m - 1;
                }
            }
        }
        [completes, grows, seeds]
    }

    /// The legal moves of `p` (empty for a player not asked): WAIT, the COMPLETEs, the GROWs
    /// (cell order), the SEEDs by source size, source and target in cell order. The same
    /// actions as the exact state's list (twin: `State::legal_moves`), in another order.
    pub fn legal_moves(&self, p: usize, out: &mut CompactMoves) {
        out.len = 0;
        if !self.is_asked(p) {
            return;
        }
        let moves = &mut out.moves;
        moves[0] = Move::WAIT;
        let mut n = 1;
        let mine = self.owner[p] & !self.dormant;
        if 4 <= self.sun[p] {
            let mut m = mine & self.grown[2];
            while m != 0 {
                moves[n] = Move::complete(m.trailing_zeros() as usize);
                n += 1;
                m &= m - 1;
            }
        }
        if self.league() >= 2 {
            let mut m = self.growable(p, mine);
            while m != 0 {
                moves[n] = Move::grow(m.trailing_zeros() as usize);
                n += 1;
                m &= m - 1;
            }
        }
        if self.can_seed(p) {
            let free = self.free();
            for s in 1..4 {
                let mut sources = mine & self.grown[s - 1];
                while sources != 0 {
                    let c = sources.trailing_zeros() as usize;
                    sources &= sources - 1;
                    let mut t = Self::targets(c, s, free);
                    while t != 0 {
                        moves[n] = Move::seed(c, t.trailing_zeros() as usize);
                        n += 1;
                        t &= t - 1;
                    }
                }
            }
        }
        out.len = n;
    }

    /// The `k`-th SEED of the list (in source size, source, target order) from the trees
    /// `mine` (not dormant) to the `free` cells; WAIT past the end.
    #[inline]
    fn nth_seed(&self, mine: u64, free: u64, mut k: u32) -> Move {
        for s in 1..4 {
            let mut sources = mine & self.grown[s - 1];
            while sources != 0 {
                let c = sources.trailing_zeros() as usize;
                sources &= sources - 1;
                let t = Self::targets(c, s, free);
                let n = t.count_ones();
                if k < n {
                    return Move::seed(c, nth_bit(t, k));
                }
                k -= n;
            }
        }
        Move::WAIT
    }

    /// The `k`-th move of [`SearchState::legal_moves`] (k < 1 + the sum of `counts`, the
    /// player's [`SearchState::group_counts`]) without building the list: for random playouts.
    pub fn nth_legal(&self, p: usize, counts: [u32; 3], mut k: u32) -> Move {
        if k == 0 {
            return Move::WAIT;
        }
        k -= 1;
        let mine = self.owner[p] & !self.dormant;
        if k < counts[0] {
            return Move::complete(nth_bit(mine & self.grown[2], k));
        }
        k -= counts[0];
        if k < counts[1] {
            return Move::grow(nth_bit(self.growable(p, mine), k));
        }
        self.nth_seed(mine, self.free(), k - counts[1])
    }

    // --- §6.1 the ACTIONS frame ------------------------------------------------------------------

    /// One ACTIONS frame, and the end of the day when both players then wait (§6.1 steps 4–8,
    /// §5). `moves[p]` must come from this state's legal moves of `p` (it is not checked; a
    /// player not asked is skipped, its entry ignored); the game must not be over.
    ///
    /// Each player's resolution touches only its own trees and sun, and every cost reads the
    /// state before the frame (§6.3), so the two players resolve one after the other; seeds
    /// land after both (a conflict plants nothing and charges nobody: §6.1 step 5), and both
    /// harvests score the nutrients before the frame (steps 6–7).
    // Always: with `#[inline]` alone, whether the benchmark's copy-make inlines it moved with
    // unrelated changes of the crate (turn_search 135 <-> 144 instructions).
    #[inline(always)]
    pub fn play(&mut self, moves: [Move; 2]) {
        debug_assert!(!self.game_over(), "play on a finished game");
        let flags = self.flags();
        let nutrients = self.nutrients();
        let mut frame = Frame { waiting: flags & 3, targets: [0; 2], seed_cost: [0; 2], dying: 0 };
        // The two players one after the other, each with its constants (unrolled by hand: the
        // loop the compiler kept cost a counter and variable shifts).
        if flags & 0b0101 == 0 {
            self.resolve(0, moves[0].0, nutrients, &mut frame);
        }
        if flags & 0b1010 == 0 {
            self.resolve(1, moves[1].0, nutrients, &mut frame);
        }
        let Frame { waiting, targets, seed_cost, dying } = frame;
        if targets[0] | targets[1] != 0 && targets[0] != targets[1] {
            for p in 0..2 {
                self.owner[p] |= targets[p];
                self.dormant |= targets[p];
                self.sun[p] -= seed_cost[p];
            }
        }
        if dying > 0 {
            let left = (nutrients - dying).max(0) as u64;
            self.holes_meta = self.holes_meta & !(31 << NUTRIENTS_SHIFT) | left << NUTRIENTS_SHIFT;
        }
        // Waiting bits only ever get set during a day: OR them in.
        self.holes_meta |= (waiting as u64) << FLAGS_SHIFT;
        if waiting == 3 {
            self.end_day();
        }
    }

    /// Player `p`'s move `m` (§6.1 step 4; see [`SearchState::play`]): its own trees and sun
    /// change now, a seed and the nutrients' fall are noted in `frame` for after both.
    #[inline(always)]
    fn resolve(&mut self, p: usize, m: u16, nutrients: i16, frame: &mut Frame) {
        let cell = (m & 63) as usize;
        let bit = 1u64 << cell;
        match m >> 12 {
            1 => {
                // GROW: the cost by the tree's size, then one size up (§6.3).
                let own = self.owner[p];
                let g = &mut self.grown;
                let cost = if g[0] & bit != 0 {
                    let cost = 3 + (own & g[1]).count_ones();
                    g[0] ^= bit;
                    g[1] |= bit;
                    cost
                } else if g[1] & bit != 0 {
                    let cost = 7 + (own & g[2]).count_ones();
                    g[1] ^= bit;
                    g[2] |= bit;
                    cost
                } else {
                    let cost = 1 + (own & g[0]).count_ones();
                    g[0] |= bit;
                    cost
                };
                self.sun[p] -= cost as u16;
                self.dormant |= bit;
            }
            2 => {
                // COMPLETE: the harvest scores now; the nutrients fall after both.
                self.sun[p] -= 4;
                self.score[p] += nutrients + BONUS[cell];
                self.owner[p] &= !bit;
                self.grown[2] &= !bit;
                self.dormant &= !bit;
                frame.dying += 1;
            }
            3 => {
                // SEED: the source sleeps now; the seed lands after both players.
                let own = self.owner[p];
                let g = &self.grown;
                frame.seed_cost[p] = (own & !(g[0] | g[1] | g[2])).count_ones() as u16;
                self.dormant |= 1u64 << (m >> 6 & 63);
                frame.targets[p] = bit;
            }
            _ => frame.waiting |= 1 << p,
        }
    }

    /// The end of a day (§5): SUN_MOVE (the day advances; unless the game ends, the sun turns
    /// and, league ≥ 3, the shadows are cast), then the next day's GATHERING (players wake,
    /// trees wake, sun income). In place: the shadows live in registers.
    #[inline]
    pub fn end_day(&mut self) {
        // The day field never overflows its bits (day ≤ max rounds ≤ 24): add one in place.
        let meta = self.holes_meta + (1 << DAY_SHIFT);
        let day = (meta >> DAY_SHIFT & 31) as usize;
        let max_rounds = (meta >> MAX_ROUNDS_SHIFT) as usize;
        if day >= max_rounds {
            self.holes_meta = meta | (SEARCH_GAME_OVER as u64) << FLAGS_SHIFT;
            return;
        }
        // Wake the players (the waiting bits), then the trees.
        self.holes_meta = meta & !(3 << FLAGS_SHIFT);
        self.dormant = 0;
        let g = self.grown;
        let (mut at_least1, mut at_least2, mut at_least3) = (0, 0, 0);
        // Shadows are cast in the full rules only (league ≥ 3, the 24-day leagues: §5).
        if max_rounds == 24 {
            let shade = SHADE_BY_DAY[day & 31];
            at_least3 = cast_shadows(&shade[2], g[2]);
            at_least2 = cast_shadows(&shade[1], g[1]) | at_least3;
            at_least1 = cast_shadows(&shade[0], g[0]) | at_least2;
        }
        // A tree of size s earns s unless shadowed by a tree of size ≥ s.
        let lit = [g[0] & !at_least1, g[1] & !at_least2, g[2] & !at_least3];
        for p in 0..2 {
            let own = self.owner[p];
            let income = (own & lit[0]).count_ones()
                + 2 * (own & lit[1]).count_ones()
                + 3 * (own & lit[2]).count_ones();
            self.sun[p] += income as u16;
        }
    }

    // --- §9 ---------------------------------------------------------------------------------------

    /// The final scores (twin: `State::final_scores`, one shared function).
    pub fn final_scores(&self) -> [i32; 2] {
        final_scores(
            [self.score[0] as i32, self.score[1] as i32],
            [self.sun[0] as i32, self.sun[1] as i32],
            [self.active(0), self.active(1)],
            [self.owner[0].count_ones(), self.owner[1].count_ones()],
        )
    }

    /// The exact state's Zobrist hash of this position, from scratch (twin:
    /// `State::hash_from_scratch` of [`SearchState::to_exact`], one shared function): equal
    /// positions of the two modes hash alike.
    pub fn hash(&self) -> u64 {
        zobrist(
            [self.day() as i64, self.sun_direction() as i64, self.nutrients() as i64],
            self.flags(),
            [self.sun[0] as i64, self.sun[1] as i64],
            [self.score[0] as i64, self.score[1] as i64],
            &self.sizes(),
            &self.owner,
            self.dormant,
        )
    }
}

/// §9 final scores of both modes: score plus a third of the sun for an active player; on a tie
/// (or when one player is out), plus its trees (`trees[p]`).
pub(super) fn final_scores(
    mut scores: [i32; 2],
    sun: [i32; 2],
    active: [bool; 2],
    trees: [u32; 2],
) -> [i32; 2] {
    for p in 0..2 {
        if active[p] {
            scores[p] += sun[p] / 3;
        }
    }
    let tie = match (active[0], active[1]) {
        (true, true) => scores[0] == scores[1],
        (false, false) => false,
        _ => true,
    };
    if tie {
        for p in 0..2 {
            if active[p] {
                scores[p] += trees[p] as i32;
            }
        }
    }
    scores
}

/// The Zobrist hash of both modes, from scratch: trees (cell × 9 contents), dormant flags, day,
/// sun direction, nutrients (`day_dir_nutrients`), sun, score and the waiting / active /
/// game-over flags.
pub(super) fn zobrist(
    day_dir_nutrients: [i64; 3],
    flags: u8,
    sun: [i64; 2],
    score: [i64; 2],
    size: &[u64; 4],
    owner: &[u64; 2],
    dormant: u64,
) -> u64 {
    use super::state::{F_DAY, F_DIR, F_FLAGS, F_NUTRIENTS, F_SCORE, F_SUN};
    use super::tables::{scalar_key, CELL_KEYS, DORMANT_KEYS};
    let [day, dir, nutrients] = day_dir_nutrients;
    let mut h = scalar_key(F_DAY, day)
        ^ scalar_key(F_DIR, dir)
        ^ scalar_key(F_NUTRIENTS, nutrients)
        ^ scalar_key(F_FLAGS, flags as i64);
    for p in 0..2 {
        h ^= scalar_key(F_SUN + p as u64, sun[p]);
        h ^= scalar_key(F_SCORE + p as u64, score[p]);
    }
    for (s, &cells) in size.iter().enumerate() {
        for p in 0..2 {
            let mut m = cells & owner[p];
            while m != 0 {
                h ^= CELL_KEYS[m.trailing_zeros() as usize][1 + s * 2 + p];
                m &= m - 1;
            }
        }
    }
    let mut m = dormant;
    while m != 0 {
        h ^= DORMANT_KEYS[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    h
}

/// What a frame of [`SearchState::play`] settles after both players' resolution.
struct Frame {
    /// The waiting bits after the frame.
    waiting: u8,
    /// The cell each player seeds (one bit), or 0.
    targets: [u64; 2],
    /// What each player's seed costs (its seeds before the frame).
    seed_cost: [u16; 2],
    /// Trees completed this frame.
    dying: i16,
}

/// The index of the `k`-th set bit of `m` (k < popcount).
#[inline]
fn nth_bit(mut m: u64, k: u32) -> usize {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// A whole game in search mode from `state` with uniformly random legal moves (`rng`, an
/// xorshift64* stream): the frames played. For benchmarks and playouts. Each move is the one
/// [`SearchState::nth_legal`] gives for the drawn index (`(r >> 32) · len >> 32` of the 64-bit
/// draw `r`), found with one pass over the groups ([`SearchState::random_move`]).
pub fn search_random_game(mut state: SearchState, rng: &mut u64) -> u32 {
    let mut frames = 0;
    while !state.game_over() {
        let mut moves = [Move::WAIT; 2];
        for (p, slot) in moves.iter_mut().enumerate() {
            if state.is_asked(p) {
                *rng ^= *rng >> 12;
                *rng ^= *rng << 25;
                *rng ^= *rng >> 27;
                *slot = state.random_move(p, rng.wrapping_mul(0x2545_F491_4F6C_DD1D));
            }
        }
        state.play(moves);
        frames += 1;
    }
    frames
}

impl SearchState {
    /// The move of asked player `p` at index `(r >> 32) · len >> 32` of its legal list (`len`
    /// = 1 + the sum of [`SearchState::group_counts`]): the same move as
    /// [`SearchState::nth_legal`] at that index, the groups' masks computed once for both the
    /// count and the pick.
    pub fn random_move(&self, p: usize, r: u64) -> Move {
        let mine = self.owner[p] & !self.dormant;
        let completes = if 4 <= self.sun[p] { mine & self.grown[2] } else { 0 };
        let grows = if self.league() >= 2 { self.growable(p, mine) } else { 0 };
        let (n_complete, n_grow) = (completes.count_ones(), grows.count_ones());
        let free = self.free();
        let seeding = self.can_seed(p);
        let mut n_seed = 0;
        if seeding {
            for s in 1..4 {
                let mut m = mine & self.grown[s - 1];
                while m != 0 {
                    n_seed += Self::targets(m.trailing_zeros() as usize, s, free).count_ones();
                    m &= m - 1;
                }
            }
        }
        let len = 1 + n_complete + n_grow + n_seed;
        let mut k = (((r >> 32) * len as u64) >> 32) as u32;
        if k == 0 {
            return Move::WAIT;
        }
        k -= 1;
        if k < n_complete {
            return Move::complete(nth_bit(completes, k));
        }
        k -= n_complete;
        if k < n_grow {
            return Move::grow(nth_bit(grows, k));
        }
        self.nth_seed(mine, free, k - n_grow)
    }
}
