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
use twinsim_fast::zuniq::tables::Z_BLACK;
use twinsim_fast::zuniq::{Board, Check, Links};

/// Default table size: 2^22 entries of 8 bytes (32 MiB).
pub const TABLE_BITS: u32 = 22;

/// The table key of a position: its zobrist hash without the side to move. The claims are
/// expected to be cleared in boards given to the solver (see [`search_board`]).
#[inline]
pub fn key(board: &Board) -> u64 {
    board.hash ^ if board.ply & 1 == 1 { Z_BLACK } else { 0 }
}

/// The board a search works on: the same walls and ply, claims cleared (a claim changes the
/// score, never who wins: rules doc §7), so that its hash is a function of the position alone.
pub fn search_board(board: &Board) -> Board {
    Board::from_walls(board.walls, board.ply, [0, 0])
}

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
    /// Entries: the key with its lowest bit replaced by the value (1: the player to move
    /// wins); 0 = empty. Always-replace.
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

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key >> 20) as usize & (self.table.len() - 1)
    }

    /// The proven value of a position (true: the player to move wins), if in the table.
    #[inline]
    pub fn probe(&self, board: &Board) -> Option<bool> {
        self.probe_key(key(board))
    }

    #[inline]
    fn probe_key(&self, key: u64) -> Option<bool> {
        let entry = self.table[self.slot(key)];
        (entry != 0 && entry >> 1 == key >> 1).then_some(entry & 1 == 1)
    }

    #[inline]
    fn store(&mut self, key: u64, wins: bool) {
        let slot = self.slot(key);
        self.table[slot] = (key & !1) | u64::from(wins);
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
                self.store(key(board), true);
                return Some((true, Some(w as usize)));
            }
        }
        self.store(key(board), false);
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
        let mut kids = [(0u8, Board::new()); 60];
        let n = children(board, &mut kids);
        if n == 0 {
            self.store(k, false);
            return Some(false);
        }
        // Enhanced transposition cutoff, and immediate wins (the child has no legal wall).
        for (_, child) in &kids[..n] {
            if self.probe(child) == Some(false) || !child.has_legal_move() {
                self.store(k, true);
                return Some(true);
            }
        }
        for (_, child) in &kids[..n] {
            if !self.wins(child)? {
                self.store(k, true);
                return Some(true);
            }
        }
        self.store(k, false);
        Some(false)
    }
}

/// Free walls that may still be played (not placed, not next to a closed cell): the measure of
/// how far a position is from its end.
#[inline]
pub fn live_walls(board: &Board) -> u32 {
    (twinsim_fast::zuniq::tables::ALL_WALLS & !board.walls & !board.dead).count_ones()
}
