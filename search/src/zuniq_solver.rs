//! Exact Zuniq endgame solver: a win/loss proof search (negamax over two values, so every cut
//! is an alpha-beta cut) with a transposition table over the fast twin's zobrist hash.
//!
//! # Why it is exact and cheap
//!
//! Zuniq has no draws and no chance (rules doc §6): the player to move either wins or loses
//! with best play, and it loses exactly when every legal wall leads to a position the opponent
//! wins (no legal wall: lost at once). It is also *impartial*: both players have the same moves,
//! so the value of a position for the player to move does not depend on who that is, and the
//! table key drops the side to move (and the claims, which change scores, not who wins). The
//! fast twin's hash folds the walls inside closed zones into their placed state (they are
//! unplayable either way) and includes the used zone sizes, so positions that differ only by
//! order of play or by dead walls share one entry.
//!
//! Proven values never change, so the table is kept between moves and between the search's
//! calls: a proof attempt stopped by its node or time limit still leaves its proven sub-results
//! for the next attempt (and for the MCTS leaves that call it).
//!
//! # Order of moves
//!
//! First enhanced transposition cutoff: a child already known lost for its mover proves the
//! win without a search. Then children that leave the opponent no legal move (immediate wins),
//! then walls that close a zone (they change the parity of what is left and use up a size),
//! then the quiet walls.

use std::time::Instant;
use twinsim_fast::zuniq::tables::{Z_BLACK, Z_WALL};
use twinsim_fast::zuniq::{Board, Check, Links};

/// Default table size: 2^22 entries of 8 bytes (32 MiB).
pub const TABLE_BITS: u32 = 22;

/// The table key of a position: its zobrist hash without the side to move. The claims are
/// expected to be cleared in boards given to the solver (see [`search_board`]).
#[inline]
pub fn key(board: &Board) -> u64 {
    board.hash ^ if board.ply & 1 == 1 { Z_BLACK } else { 0 }
}

/// The table key of the child reached by quiet wall `w` (one that closes nothing) from a
/// position with key `parent`: [`Board::place`] with nothing cut folds in the wall's key and
/// flips the side to move, which the key drops.
#[inline]
pub fn quiet_child_key(parent: u64, w: usize) -> u64 {
    parent ^ Z_WALL[w]
}

/// The board a search works on: the same walls and ply, claims cleared (a claim changes the
/// score, never who wins: rules doc §7), so that its hash is a function of the position alone.
pub fn search_board(board: &Board) -> Board {
    Board::from_walls(board.walls, board.ply, [0, 0])
}

/// An entry: the key's bits from this one up, the work's log (7 bits) and the value (bit 0).
const ENTRY_KEY_SHIFT: u32 = 8;
/// The entry bits that are not the key.
const ENTRY_LOW_MASK: u64 = (1 << ENTRY_KEY_SHIFT) - 1;
/// The work's log field.
const WORK_MASK: u64 = ENTRY_LOW_MASK >> 1;

/// Most quiet legal walls for which the solver looks for an immediate win among them before
/// searching: a quiet child is tested for a legal wall only when the position has this many or
/// fewer (the test is a tenth of a node's cost, and with more quiet walls one nearly always
/// stays playable).
const QUIET_END_CHECK: u32 = 4;

/// When a proof attempt must give up.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limit {
    /// Node budget of this attempt (nodes searched, table hits not counted).
    pub nodes: u64,
    /// Wall-clock deadline, checked every 64 nodes.
    pub deadline: Option<Instant>,
}

/// The legal children of `board`: (wall, cut cells, child board) in proof order, at most 60.
/// Returns the number written to `out`.
fn children(board: &Board, out: &mut [(u8, Board); 60]) -> usize {
    let (legal, quiet) = board.legal_quiet();
    let links = Links::of(board.walls);
    let mut n = 0;
    // Zone-closing walls first, then quiet ones.
    let mut closing = legal & !quiet;
    while closing != 0 {
        let w = closing.trailing_zeros() as usize;
        closing &= closing - 1;
        let cut = match board.check_with(&links, w) {
            Check::Legal(cut) => cut,
            _ => continue,
        };
        let mut child = *board;
        child.place(w, cut);
        out[n] = (w as u8, child);
        n += 1;
    }
    let mut rest = legal & quiet;
    while rest != 0 {
        let w = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let mut child = *board;
        child.place(w, 0);
        out[n] = (w as u8, child);
        n += 1;
    }
    n
}

/// The win/loss solver with its table.
pub struct Solver {
    /// Entries in buckets of two (see [`Solver::store`]): the key's high bits, the log of the
    /// nodes its proof took, the value (bit 0; 1: the player to move wins); 0 = empty.
    table: Vec<u64>,
    /// Nodes searched over the solver's life.
    pub nodes: u64,
    /// Nodes searched in the current attempt.
    attempt: u64,
    limit: Limit,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(TABLE_BITS)
    }
}

impl Solver {
    /// A solver with a table of 2^`bits` entries.
    pub fn new(bits: u32) -> Solver {
        Solver { table: vec![0; 1 << bits], nodes: 0, attempt: 0, limit: Limit::default() }
    }

    /// The first slot of `key`'s bucket of two (one 16-byte pair, so one cache line).
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key >> 20) as usize & (self.table.len() - 2)
    }

    /// The proven value of a position (true: the player to move wins), if in the table.
    #[inline]
    pub fn probe(&self, board: &Board) -> Option<bool> {
        self.probe_key(key(board))
    }

    #[inline]
    fn probe_key(&self, key: u64) -> Option<bool> {
        let b = self.bucket(key);
        let hit = |entry: u64| entry != 0 && entry >> ENTRY_KEY_SHIFT == key >> ENTRY_KEY_SHIFT;
        let entry = if hit(self.table[b]) {
            self.table[b]
        } else if hit(self.table[b + 1]) {
            self.table[b + 1]
        } else {
            return None;
        };
        Some(entry & 1 == 1)
    }

    /// Stores a proof that took `work` nodes. The bucket's first entry keeps the proof that
    /// took the most work (the costliest to redo; an entry it displaces moves to the second),
    /// the second takes every other store: with always-replace, the proofs of big subtrees
    /// were overwritten by the many small ones below them once a search outgrew the table.
    #[inline]
    fn store(&mut self, key: u64, wins: bool, work: u64) {
        let work_log = u64::from(64 - work.leading_zeros()).min(WORK_MASK);
        let entry = (key & !ENTRY_LOW_MASK) | (work_log << 1) | u64::from(wins);
        let b = self.bucket(key);
        let first = self.table[b];
        let same_key = first >> ENTRY_KEY_SHIFT == key >> ENTRY_KEY_SHIFT;
        if first == 0 || same_key || work_log >= (first >> 1) & WORK_MASK {
            if !same_key && first != 0 {
                self.table[b + 1] = first;
            }
            self.table[b] = entry;
        } else {
            self.table[b + 1] = entry;
        }
    }

    /// Proves whether the player to move in `board` (claims cleared) wins; `None` when the
    /// limit stopped the attempt first.
    pub fn solve(&mut self, board: &Board, limit: Limit) -> Option<bool> {
        self.attempt = 0;
        self.limit = limit;
        self.wins(board)
    }

    /// Like [`Solver::solve`], and a wall proving the win when the player to move wins.
    pub fn solve_root(&mut self, board: &Board, limit: Limit) -> Option<(bool, Option<usize>)> {
        self.attempt = 0;
        self.limit = limit;
        let mut kids = [(0u8, Board::new()); 60];
        let n = children(board, &mut kids);
        // Known lost children first (cheap), then a full search in order.
        for &(w, ref child) in &kids[..n] {
            if self.probe(child) == Some(false) {
                return Some((true, Some(w as usize)));
            }
        }
        for &(w, ref child) in &kids[..n] {
            if !self.wins(child)? {
                self.store(key(board), true, u64::MAX);
                return Some((true, Some(w as usize)));
            }
        }
        self.store(key(board), false, u64::MAX);
        Some((false, None))
    }

    /// Nodes searched by the last attempt.
    pub fn attempt_nodes(&self) -> u64 {
        self.attempt
    }

    fn wins(&mut self, board: &Board) -> Option<bool> {
        let k = key(board);
        if let Some(v) = self.probe_key(k) {
            return Some(v);
        }
        self.attempt += 1;
        self.nodes += 1;
        let start = self.attempt - 1;
        if self.attempt > self.limit.nodes {
            return None;
        }
        if self.attempt & 63 == 0 {
            if let Some(deadline) = self.limit.deadline {
                if Instant::now() >= deadline {
                    return None;
                }
            }
        }
        let (legal, quiet) = board.legal_quiet();
        if legal == 0 {
            self.store(k, false, self.attempt - start);
            return Some(false);
        }
        // The zone-closing children are few and need their boards (cut, dead walls, used
        // size); the quiet ones are only made when searched: a quiet wall's child key is the
        // parent's with the wall's key folded in (`Board::place` with nothing cut), so the
        // enhanced transposition cutoff needs no board for them.
        let links = Links::of(board.walls);
        let mut closing = [(0u8, 0u32); 60];
        let mut n = 0;
        let mut rest = legal & !quiet;
        while rest != 0 {
            let w = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Check::Legal(cut) = board.check_with(&links, w) {
                let mut child = *board;
                child.place(w, cut);
                // Enhanced transposition cutoff, and an immediate win (no legal wall left).
                if self.probe(&child) == Some(false) || !child.has_legal_move() {
                    self.store(k, true, self.attempt - start);
                    return Some(true);
                }
                closing[n] = (w as u8, cut);
                n += 1;
            }
        }
        let quiet = legal & quiet;
        // Enhanced transposition cutoff for the quiet walls, by key alone.
        if walls_of(quiet).any(|w| self.probe_key(quiet_child_key(k, w)) == Some(false)) {
            self.store(k, true, self.attempt - start);
            return Some(true);
        }
        let quiet_child = |w: usize| {
            let mut child = *board;
            child.place(w, 0);
            child
        };
        // Immediate wins by a quiet wall: only possible near the end, when few walls are left
        // (with many, some other wall stays playable); the search below finds the rest.
        if quiet.count_ones() <= QUIET_END_CHECK
            && walls_of(quiet).any(|w| !quiet_child(w).has_legal_move())
        {
            self.store(k, true, self.attempt - start);
            return Some(true);
        }
        for &(w, cut) in &closing[..n] {
            let mut child = *board;
            child.place(usize::from(w), cut);
            if !self.wins(&child)? {
                self.store(k, true, self.attempt - start);
                return Some(true);
            }
        }
        for w in walls_of(quiet) {
            if !self.wins(&quiet_child(w))? {
                self.store(k, true, self.attempt - start);
                return Some(true);
            }
        }
        self.store(k, false, self.attempt - start);
        Some(false)
    }
}

/// The walls of `mask`, lowest first.
#[inline]
fn walls_of(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let w = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            w
        })
    })
}

/// Free walls that may still be played (not placed, not next to a closed cell): the measure of
/// how far a position is from its end.
#[inline]
pub fn live_walls(board: &Board) -> u32 {
    (twinsim_fast::zuniq::tables::ALL_WALLS & !board.walls & !board.dead).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;
    use twinsim_fast::zuniq::{nth_bit, Rng};

    /// The positions of a uniformly random game from the empty board.
    fn random_line(seed: u64) -> Vec<Board> {
        let mut rng = Rng(seed | 1);
        let mut boards = vec![Board::new()];
        loop {
            let board = boards[boards.len() - 1];
            let legal = board.legal_mask();
            if legal == 0 {
                return boards;
            }
            let wall = nth_bit(legal, rng.below(legal.count_ones()));
            let mut child = board;
            child.place(wall, board.cut(wall));
            boards.push(child);
        }
    }

    /// The solver's enhanced transposition cutoff probes the quiet children by key without
    /// making their boards: the key it folds must be the child's own, on either side to move.
    #[test]
    fn a_quiet_childs_key_is_its_parents_with_the_wall_folded_in() {
        let mut checked = 0;
        for seed in 1..6 {
            for board in random_line(seed) {
                let (legal, quiet) = board.legal_quiet();
                let mut walls = legal & quiet;
                while walls != 0 {
                    let w = walls.trailing_zeros() as usize;
                    walls &= walls - 1;
                    let mut child = board;
                    child.place(w, 0);
                    assert_eq!(quiet_child_key(key(&board), w), key(&child), "{board:?} {w}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// Keys that share a bucket: equal in the bits the bucket takes, different above them.
    fn colliding_keys(solver: &Solver, n: u64) -> Vec<u64> {
        let keys: Vec<u64> = (1..=n).map(|i| (i << 40) | (3 << 20) | 0x500).collect();
        assert!(keys.iter().all(|&k| solver.bucket(k) == solver.bucket(keys[0])));
        keys
    }

    /// A proof that took many nodes stays in the table while many cheap ones pass through its
    /// bucket (always-replace lost it to the first of them), and the cheap ones still find a
    /// place: the latest one is kept.
    #[test]
    fn a_costly_proof_outlives_cheap_ones_in_its_bucket() {
        let mut solver = Solver::new(4);
        let keys = colliding_keys(&solver, 20);
        solver.store(keys[0], true, 1_000_000);
        for &k in &keys[1..] {
            solver.store(k, false, 3);
        }
        assert_eq!(solver.probe_key(keys[0]), Some(true));
        assert_eq!(solver.probe_key(keys[19]), Some(false));
        assert_eq!(solver.probe_key(keys[5]), None);
        // A costlier proof takes the first place and moves the older one to the second.
        solver.store(keys[7], false, 1 << 30);
        assert_eq!(solver.probe_key(keys[7]), Some(false));
        assert_eq!(solver.probe_key(keys[0]), Some(true));
        // Storing a key again replaces its own entry, whatever the work.
        solver.store(keys[7], true, 1);
        assert_eq!(solver.probe_key(keys[7]), Some(true));
    }

    /// With a table of 16 entries nearly every store replaces another proof: the values must
    /// not change, only the work (the same values as with a large table, on endgames of random
    /// games).
    #[test]
    fn a_tiny_table_gives_the_same_values() {
        let limit = Limit { nodes: u64::MAX, deadline: None };
        let mut compared = 0;
        for seed in 10..16 {
            let line = random_line(seed);
            for board in line.iter().rev().take(9).map(search_board) {
                let (mut tiny, mut large) = (Solver::new(4), Solver::new(16));
                assert_eq!(tiny.solve(&board, limit), large.solve(&board, limit), "{board:?}");
                compared += 1;
            }
        }
        assert!(compared >= 50, "{compared}");
    }
}
