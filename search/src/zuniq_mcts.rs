//! Zuniq's search bot `builtin:mcts` (v2), written on the fast twin's bitboard [`Board`]:
//! MCTS with transposition nodes, RAVE, MCTS-Solver proofs, exact endgame solving
//! ([`super::zuniq_solver`]), optional pruning of border walls early, tree reuse between moves, the claim
//! (`!`) made exactly when the win is proven, and the whole-game clock spent by phase.
//! The search of before is `builtin:mcts-v1` ([`super::zuniq`]).
//!
//! # The tree
//!
//! Nodes are positions keyed by the solver's key (the zobrist hash without side to move: Zuniq
//! is impartial, so a node's statistics, from its mover's point of view, hold for either
//! colour), edges keep their own visits and wins (UCT over the DAG, as the 2021 participants'
//! "hashnodes"). The table lives as long as the bot, so the position after the opponent's
//! answer is usually already in it with its statistics (tree reuse); at each move's start only
//! the part reachable from the new root is kept (walls are never removed, so nothing else can
//! be reached again), which bounds memory without throwing the reusable part away. A node's
//! edges are made only when an iteration reaches it a second time: most nodes are leaves
//! reached once, so this keeps a 30 s game's tree at about 1.5M edges (42 MiB) where making
//! them at creation reached 14M. A node with few live walls
//! is solved when it is created instead of being sampled by a playout; a proven node gives its
//! exact result to every iteration that reaches it, and proofs propagate up (MCTS-Solver: a
//! node with a child lost for its mover is won; one whose children are all won for their
//! movers is lost); the descent never enters a child proven won for its mover while others
//! remain. A root proven lost is searched on with the proofs ignored (playouts where a proof
//! would end the iteration): every wall loses, and the one that looks best to a search without
//! proofs is the one whose winning answers are the hardest for such a search to find (the
//! opponent's mistakes late in the midgame are where most of White's wins came from).
//!
//! # RAVE (rapid action value estimation)
//!
//! Zuniq's winner is decided by the parity of the number of walls placed (rules doc §6: one
//! wall per ply, the last mover wins), so the outcome is a function of the final wall set
//! alone, not of who placed which wall or when: as in Hex, a wall that ends up placed in won
//! simulations is likely a good wall to place now. Each edge keeps AMAF statistics (all
//! simulations through its node in which its wall got placed later, by anyone) and the
//! selection blends them with the edge's own mean by `β = sqrt(k / (3N + k))`; it is what
//! made the search beat the first one (see [`Config::default`]).
//!
//! # The claim (rules doc §7)
//!
//! A claim adds the bonus to a win but turns a loss's 50 points into 0. The bot claims only when
//! the root is proven won (by the solver or the tree's proofs), and from then on plays proven
//! winning walls: a proven win stays won whatever the opponent answers, and the solver's table
//! keeps the proof (it is re-proved, cheaply, when an entry was overwritten).
//!
//! # Clock (rules doc §7: 30 s per player for the whole game)
//!
//! Each move gets `(left − reserve) / own moves still expected × phase weight`: little in the
//! opening (no zone can close before ply 4, the position is nearly symmetric), the most in the
//! midgame where sizes get taken and the solver cannot reach the end yet, less once the solver
//! decides. A proven position is answered at once, so the moves are counted to the ply where
//! the solver usually decides (about 30), not to the game's end. The reserve is a fixed 6% of
//! the game plus the lateness this machine's answers showed lately ([`super::pace`]). The
//! search reads the clock every 4 iterations (an iteration is microseconds) and the solver
//! every 64 nodes.

use super::bot::{SearchSpec, SearchStats, ViewPlayer};
use super::zuniq::read_views;
use super::zuniq_solver::{key, live_walls, search_board, Limit, Solver};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use twinsim_fast::zuniq::tables::BORDER;
use twinsim_fast::zuniq::typed::{wall_of, State as FastState};
use twinsim_fast::zuniq::{random_game, Board, Check, Links, Rng};
use twinsim_reference::game::PlayerId;
use twinsim_reference::zuniq::rules::{apply_move, legal_walls};
use twinsim_reference::zuniq::{Action, State as RefState};

/// Tuning of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// UCB exploration constant (rewards 0/1).
    pub exploration: f64,
    /// Below this ply, quiet border walls are left out of the tree when another wall is legal
    /// (the post-mortem's pruning: border walls only matter once zones form). Off (0) by
    /// default: it lost strength in our matches.
    pub border_ply: u8,
    /// A new node with at most this many live walls is solved instead of sampled.
    pub leaf_solve_live: u32,
    /// Node budget of one leaf proof.
    pub leaf_solve_nodes: u64,
    /// The root is solved first when it has at most this many live walls. 31 (was 26): in
    /// 30 s games against mcts-v1 the tree's search threw away won positions with 27–31 live
    /// walls (plies 28–30) that the solver proves in 0.1–0.8 s; a failed attempt (usually
    /// from 32 live walls up) costs half the move's share, and leaves its proofs in the table.
    pub root_solve_live: u32,
    /// Most live walls the root solver is tried from when its budget allows: one more than
    /// `root_solve_live` from `root_extra_nodes` nodes of budget, one more each time it doubles.
    pub root_solve_max: u32,
    /// The solver budget (in nodes) from which the root is tried with one live wall more than
    /// `root_solve_live`; each further wall needs twice as many.
    pub root_extra_nodes: u64,
    /// With an iteration budget, the root proof's node budget per iteration (a solver node
    /// costs about a fifth of an iteration).
    pub root_nodes_per_iteration: u64,
    /// RAVE equivalence parameter `k` (0: no RAVE): an edge's value blends its own mean with
    /// its AMAF mean by `β = sqrt(k / (3N + k))`, N the node's visits.
    pub rave: f64,
}

impl Default for Config {
    fn default() -> Self {
        // Chosen by 30-game matches against mcts-v1 at --time-scale 0.05 (seed 7; see the
        // report in the README): without RAVE 67% (exploration 0.6), 63% (0.35), 50% (1.0);
        // border pruning until ply 12 57% against 67% without; RAVE k = 300 with 0.3: 80%,
        // k = 1000 with 0.15: 87%. Leaf proofs above 10 live walls or 100 nodes cost more time
        // than they saved (47% with 14 walls and 400 nodes).
        Config {
            exploration: 0.15,
            border_ply: 0,
            leaf_solve_live: 10,
            leaf_solve_nodes: 100,
            root_solve_live: 31,
            // Fresh proofs of the ply-26 positions of 27 traced 30 s games (33-34 live walls,
            // `search/examples/zuniq_probe.rs`) took 0.26M-2.8M nodes, median 1.3M; 0.5M to
            // 0.6M at 32 live walls. Four of those positions were won for White and thrown
            // away by the tree's search (two of the games lost).
            root_solve_max: 34,
            root_extra_nodes: 400_000,
            root_nodes_per_iteration: 4,
            rave: 1000.0,
        }
    }
}

/// Most nodes in the tree; past it, an iteration that leaves the tree runs its playout
/// without adding a node. A node is 24 bytes (and about as much in the index).
const MAX_NODES: usize = 2_000_000;
/// Most edges in the tree (28 bytes each: 8M is 224 MiB); past it, nodes are no longer
/// expanded and iterations that reach one run a playout from it. Edges are made only for a
/// node reached a second time (most nodes are leaves reached once), so at the full 30 s clock
/// a move's search stays well below it.
const MAX_EDGES: usize = 8_000_000;
/// No child index yet.
const NO_CHILD: u32 = u32::MAX;
/// `Node::start` of a node whose edges are not made yet.
const UNEXPANDED: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Edge {
    wall: u8,
    cut: u32,
    visits: u32,
    wins: f32,
    /// AMAF: playouts through the node in which this wall got placed later, by anyone.
    amaf_visits: u32,
    /// Wins of the node's mover among those.
    amaf_wins: f32,
    child: u32,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The position's key (to rebuild the index when the tree is compacted).
    key: u64,
    /// First edge, or [`UNEXPANDED`].
    start: u32,
    len: u16,
    visits: u32,
    /// +1: the player to move wins (proven), −1: loses, 0: unknown.
    proven: i8,
    /// Whether border walls were left out: then all children won for their movers proves
    /// nothing (a left-out wall might win).
    pruned: bool,
}

/// What one search call found.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The wall to play (index 0..59).
    pub wall: usize,
    /// Whether the position is proven won for the player to move (the wall keeps the win).
    pub proven_win: bool,
    /// Whether it is proven lost.
    pub proven_loss: bool,
    /// MCTS iterations done.
    pub iterations: u64,
}

/// The search: tree, solver and playout generator, kept between moves.
pub struct Search {
    config: Config,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    index: HashMap<u64, u32>,
    solver: Solver,
    rng: Rng,
    /// Set while the root is proven lost: the search then ignores proofs (see
    /// [`Search::decide`]).
    swindle: bool,
    /// The root solver's speed measured in this process (nodes a second, a running mean of
    /// its attempts), which the reach of [`Search::root_reach`] counts a clock budget at: on
    /// a loaded machine it was a seventh of the unloaded one.
    solver_rate: f64,
}

impl Search {
    /// A search with `config`, its playouts seeded by `seed`.
    pub fn new(config: Config, seed: u64) -> Search {
        Search {
            config,
            nodes: Vec::new(),
            edges: Vec::new(),
            index: HashMap::new(),
            solver: Solver::default(),
            rng: Rng(seed | 1),
            swindle: false,
            solver_rate: SOLVER_NODES_PER_SECOND,
        }
    }

    /// The solver (its table of proofs).
    pub fn solver(&mut self) -> &mut Solver {
        &mut self.solver
    }

    /// Nodes in the tree.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// A new node for `board` (claims cleared), without edges yet ([`Search::expand`] makes
    /// them when an iteration reaches it again); proven at once when it has no legal wall or
    /// is small enough for the solver.
    fn new_node(&mut self, board: &Board, solve: bool) -> u32 {
        let mut proven = 0;
        if !board.has_legal_move() {
            proven = -1;
        } else if let Some(v) = self.solver.probe(board) {
            proven = if v { 1 } else { -1 };
        } else if solve && live_walls(board) <= self.config.leaf_solve_live {
            let limit = Limit { nodes: self.config.leaf_solve_nodes, deadline: None };
            if let Some(v) = self.solver.solve(board, limit) {
                proven = if v { 1 } else { -1 };
            }
        }
        let id = self.nodes.len() as u32;
        let key = key(board);
        self.nodes.push(Node { key, start: UNEXPANDED, len: 0, visits: 0, proven, pruned: false });
        self.index.insert(key, id);
        id
    }

    /// Makes the edges of node `n` (position `board`): one per legal wall (border walls
    /// left out early when configured), in random order.
    fn expand(&mut self, n: u32, board: &Board) {
        let (legal, quiet) = board.legal_quiet();
        let mut walls = legal;
        if board.ply < self.config.border_ply {
            let kept = legal & !(BORDER & quiet);
            if kept != 0 {
                walls = kept;
            }
        }
        let pruned = walls != legal;
        let links = Links::of(board.walls);
        let start = self.edges.len();
        while walls != 0 {
            let w = walls.trailing_zeros() as usize;
            walls &= walls - 1;
            let cut = if quiet >> w & 1 == 1 {
                0
            } else {
                match board.check_with(&links, w) {
                    Check::Legal(cut) => cut,
                    _ => continue,
                }
            };
            self.edges.push(Edge {
                wall: w as u8,
                cut,
                visits: 0,
                wins: 0.0,
                amaf_visits: 0,
                amaf_wins: 0.0,
                child: NO_CHILD,
            });
        }
        // Expansion order: random (Fisher-Yates), so that the first walls tried carry no bias.
        let len = self.edges.len() - start;
        for i in (1..len).rev() {
            let j = self.rng.below(i as u32 + 1) as usize;
            self.edges.swap(start + i, start + j);
        }
        let node = &mut self.nodes[n as usize];
        node.start = start as u32;
        node.len = len as u16;
        node.pruned = pruned;
    }

    /// Keeps only the part of the tree reachable from `root` (positions only grow by walls,
    /// so no other node can be reached again), renumbered; returns the root's new index.
    fn keep_reachable(&mut self, root: u32) -> u32 {
        let mut new_id = vec![NO_CHILD; self.nodes.len()];
        let mut order = vec![root];
        new_id[root as usize] = 0;
        let mut i = 0;
        while i < order.len() {
            let node = self.nodes[order[i] as usize];
            i += 1;
            if node.start == UNEXPANDED {
                continue;
            }
            for edge in &self.edges[node.start as usize..][..node.len as usize] {
                if edge.child != NO_CHILD && new_id[edge.child as usize] == NO_CHILD {
                    new_id[edge.child as usize] = order.len() as u32;
                    order.push(edge.child);
                }
            }
        }
        let mut nodes = Vec::with_capacity(order.len());
        let mut edges = Vec::new();
        self.index.clear();
        for (id, &old) in order.iter().enumerate() {
            let mut node = self.nodes[old as usize];
            if node.start != UNEXPANDED {
                let start = edges.len();
                edges.extend(self.edges[node.start as usize..][..node.len as usize].iter().map(
                    |e| {
                        let child =
                            if e.child == NO_CHILD { NO_CHILD } else { new_id[e.child as usize] };
                        Edge { child, ..*e }
                    },
                ));
                node.start = start as u32;
            }
            self.index.insert(node.key, id as u32);
            nodes.push(node);
        }
        self.nodes = nodes;
        self.edges = edges;
        0
    }

    /// The node of `board`, created when new (the flag says so).
    fn node_of(&mut self, board: &Board, solve: bool) -> (u32, bool) {
        match self.index.get(&key(board)) {
            Some(&id) => (id, false),
            None => (self.new_node(board, solve), true),
        }
    }

    /// UCT choice (RAVE-blended when configured) among the edges of node `n`, skipping children
    /// proven won for their mover; `Err(result)` when the node turns out proven (result for
    /// its mover). An edge never tried is valued by its AMAF mean (or 0.5).
    fn select(&mut self, n: u32) -> Result<usize, bool> {
        let node = self.nodes[n as usize];
        let parent = f64::from(node.visits);
        let log_n = (parent + 1.0).ln();
        let k = self.config.rave;
        let beta = if k > 0.0 { (k / (3.0 * parent + k)).sqrt() } else { 0.0 };
        let (mut best, mut best_value) = (usize::MAX, f64::NEG_INFINITY);
        for e in node.start as usize..(node.start as usize + node.len as usize) {
            let edge = self.edges[e];
            if edge.child != NO_CHILD && !self.swindle {
                match self.nodes[edge.child as usize].proven {
                    -1 => {
                        self.nodes[n as usize].proven = 1;
                        return Err(true);
                    }
                    1 => continue,
                    _ => {}
                }
            }
            let amaf = if edge.amaf_visits > 0 && k > 0.0 {
                f64::from(edge.amaf_wins) / f64::from(edge.amaf_visits)
            } else {
                0.5
            };
            let visits = f64::from(edge.visits);
            let mean = if edge.visits == 0 {
                amaf
            } else {
                (1.0 - beta) * f64::from(edge.wins) / visits + beta * amaf
            };
            let value = mean + self.config.exploration * (log_n / (visits + 1.0)).sqrt();
            if value > best_value {
                (best, best_value) = (e, value);
            }
        }
        if best == usize::MAX {
            if !node.pruned {
                self.nodes[n as usize].proven = -1;
            }
            return Err(false);
        }
        Ok(best)
    }

    /// One iteration from `root` (node `root_id`); `path` is scratch space.
    fn iterate(&mut self, root: &Board, root_id: u32, path: &mut Vec<(u32, usize, u64)>) {
        path.clear();
        let mut board = *root;
        // Walls placed at the end of the simulation (the tree part only, when no playout ran).
        let mut end_walls = 0u64;
        let mut n = root_id;
        // Result for the mover of the last node reached: true = it wins.
        let result = loop {
            let node = self.nodes[n as usize];
            if node.proven != 0 && !self.swindle {
                break node.proven > 0;
            }
            if node.start == UNEXPANDED {
                if self.edges.len() >= MAX_EDGES {
                    break playout(&board, &mut self.rng, &mut end_walls);
                }
                self.expand(n, &board);
            }
            let e = match self.select(n) {
                Ok(e) => e,
                Err(result) => break result,
            };
            path.push((n, e, board.walls));
            let edge = self.edges[e];
            board.place(edge.wall as usize, edge.cut);
            if edge.child != NO_CHILD {
                n = edge.child;
                continue;
            }
            if self.nodes.len() >= MAX_NODES {
                break playout(&board, &mut self.rng, &mut end_walls);
            }
            let (child, created) = self.node_of(&board, true);
            self.edges[e].child = child;
            n = child;
            if created {
                let proven = self.nodes[child as usize].proven;
                if proven != 0 && !self.swindle {
                    break proven > 0;
                }
                break playout(&board, &mut self.rng, &mut end_walls);
            }
        };
        // Back up: each step up flips the point of view.
        let end_walls = end_walls | board.walls;
        let mut wins = result;
        let mut child_proven = self.nodes[n as usize].proven;
        let rave = self.config.rave > 0.0;
        for &(p, e, before) in path.iter().rev() {
            wins = !wins;
            let edge = &mut self.edges[e];
            edge.visits += 1;
            edge.wins += f32::from(u8::from(wins));
            let node = self.nodes[p as usize];
            if rave {
                // The outcome is a function of the final wall set alone (its parity: rules doc
                // §6, one wall per ply), so every wall placed after this node, by either
                // player, shares the result of the node's mover.
                let placed = end_walls & !before;
                for edge in &mut self.edges[node.start as usize..][..node.len as usize] {
                    if placed >> edge.wall & 1 == 1 {
                        edge.amaf_visits += 1;
                        edge.amaf_wins += f32::from(u8::from(wins));
                    }
                }
            }
            let node = &mut self.nodes[p as usize];
            node.visits += 1;
            if node.proven == 0 && !self.swindle {
                if child_proven == -1 {
                    node.proven = 1;
                } else if child_proven == 1 && !node.pruned {
                    let all_lost = (node.start..node.start + u32::from(node.len)).all(|i| {
                        let c = self.edges[i as usize].child;
                        c != NO_CHILD && self.nodes[c as usize].proven == 1
                    });
                    if all_lost {
                        self.nodes[p as usize].proven = -1;
                    }
                }
            }
            child_proven = self.nodes[p as usize].proven;
        }
    }

    /// The most live walls the root solver is tried from with a budget of `root_nodes` nodes
    /// until `solve_end`: `root_solve_live`, and one more each time the budget doubles from
    /// `root_extra_nodes` (the clock's budget counted at the measured solver speed), up to
    /// `root_solve_max`. A failed attempt costs its budget, so the reach follows what the
    /// solver usually proves in it.
    fn root_reach(&self, root_nodes: u64, solve_end: Option<Instant>) -> u32 {
        let by_clock = solve_end.map_or(u64::MAX, |end| {
            let secs = end.saturating_duration_since(Instant::now()).as_secs_f64();
            (secs * self.solver_rate) as u64
        });
        let budget = root_nodes.min(by_clock);
        let (mut reach, mut need) = (self.config.root_solve_live, self.config.root_extra_nodes);
        while reach < self.config.root_solve_max && budget >= need {
            reach += 1;
            need = need.saturating_mul(2);
        }
        reach
    }

    /// Searches `board` (the position to move in, claims cleared by the caller or not) until
    /// `iterations` (if any) or `think_end` (if any); the root is first given to the solver
    /// (node budget `root_nodes`, until `solve_end`) when it is small enough or `must_solve`
    /// (a position proven won before, whose proof must be kept).
    pub fn decide(
        &mut self,
        board: &Board,
        iterations: Option<u64>,
        think_end: Option<Instant>,
        root_nodes: u64,
        solve_end: Option<Instant>,
        must_solve: bool,
    ) -> Option<Decision> {
        let board = search_board(board);
        if board.legal_mask() == 0 {
            return None;
        }
        let mut proven_loss = false;
        if must_solve || live_walls(&board) <= self.root_reach(root_nodes, solve_end) {
            let limit = Limit { nodes: root_nodes, deadline: solve_end };
            let started = Instant::now();
            let result = self.solver.solve_root(&board, limit);
            let secs = started.elapsed().as_secs_f64();
            // Attempts long enough to time well update the speed (a mean over about 4).
            if secs >= 0.02 {
                let rate = self.solver.attempt_nodes() as f64 / secs;
                self.solver_rate += (rate - self.solver_rate) / 4.0;
            }
            match result {
                Some((true, Some(wall))) => {
                    return Some(Decision {
                        wall,
                        proven_win: true,
                        proven_loss: false,
                        iterations: 0,
                    })
                }
                Some(_) => proven_loss = true,
                None => {}
            }
        }
        let (root, _) = self.node_of(&board, false);
        let root = self.keep_reachable(root);
        self.swindle = proven_loss;
        if self.nodes[root as usize].start == UNEXPANDED {
            self.expand(root, &board);
        }
        let mut path = Vec::with_capacity(64);
        let mut done = 0u64;
        loop {
            if iterations.is_some_and(|n| done >= n) {
                break;
            }
            if done & 3 == 0 && done > 0 {
                if let Some(t) = think_end.filter(|&t| Instant::now() >= t) {
                    // Stopped on the clock: how late the answer comes after this is measured
                    // (scheduler stalls), and kept free in later moves.
                    super::pace::deadline_reached(t);
                    break;
                }
            }
            match self.nodes[root as usize].proven {
                0 => {}
                // Lost whatever we play: search on with proofs ignored (random playouts
                // where a proof would end the iteration), for the wall that looks best to a
                // search without proofs (like the opponent's, if it has none), i.e. the one
                // whose winning answers are the hardest to see. In 30 s games against
                // mcts-v1 most of White's wins came from such mistakes at plies 27–29.
                -1 => self.swindle = true,
                _ => break,
            }
            self.iterate(&board, root, &mut path);
            done += 1;
        }
        let node = self.nodes[root as usize];
        let edges = &self.edges[node.start as usize..(node.start + u32::from(node.len)) as usize];
        let child_proven =
            |e: &Edge| if e.child == NO_CHILD { 0 } else { self.nodes[e.child as usize].proven };
        let wall = if node.proven == 1 {
            edges.iter().find(|e| child_proven(e) == -1).map(|e| e.wall)
        } else if self.swindle {
            // Every wall loses: the proofs found (some children, not all) say nothing.
            edges
                .iter()
                .max_by(|a, b| a.visits.cmp(&b.visits).then(a.wins.total_cmp(&b.wins)))
                .map(|e| e.wall)
        } else {
            // Most visited among those not proven lost (ties: more wins), else any.
            edges
                .iter()
                .filter(|e| child_proven(e) != 1)
                .max_by(|a, b| a.visits.cmp(&b.visits).then(a.wins.total_cmp(&b.wins)))
                .or_else(|| edges.iter().max_by_key(|e| e.visits))
                .map(|e| e.wall)
        };
        // A root whose pruned edge list is empty cannot happen (pruning keeps some wall), but a
        // wall is always legal to answer: fall back to the first legal one.
        let wall = wall.map_or_else(|| board.legal_mask().trailing_zeros() as usize, usize::from);
        Some(Decision {
            wall,
            proven_win: node.proven == 1,
            proven_loss: proven_loss || node.proven == -1,
            iterations: done,
        })
    }
}

/// The solver's speed assumed until measured (see `Search::solver_rate`): about 0.7M-1.1M
/// nodes a second on the positions of 31-34 live walls (one core of the shared 2-core
/// machine, load 3-5), the low end taken.
const SOLVER_NODES_PER_SECOND: f64 = 700_000.0;

/// A uniformly random playout from `board`: whether its player to move wins (the player who
/// cannot move loses, rules doc §6); the final walls go to `end_walls`.
fn playout(board: &Board, rng: &mut Rng, end_walls: &mut u64) -> bool {
    let end = random_game(*board, rng);
    *end_walls = end.walls;
    (end.ply.wrapping_sub(board.ply)) & 1 == 1
}

/// Fraction of the whole-game budget never planned for (the arena's own handling, a stall
/// at the last moves; at 3% the release set's 0.3 s and 0.6 s games overran on a loaded
/// machine); the machine's measured lateness ([`super::pace::reserve`]) is kept free on top
/// of it.
const RESERVE: f64 = 0.06;
/// Fixed reserve (parsing, conversions, scheduling).
const RESERVE_FIXED: Duration = Duration::from_millis(10);
/// The ply by which the bot plans to have spent its clock. Traced games last 37–41 plies, but
/// the root solver proves the game won or lost at about ply 28–30 at the full clock, after
/// which a won position is answered at once: planning to ply 40 left 3–8 s of the 30 s
/// unspent (each seat's answers summed to 22–27 s in 20 full-clock games).
const EXPECTED_PLIES: u32 = 34;
/// Own moves always assumed still to come: past the planned ply each move takes a third of
/// what is usable, so a long endgame still gets a geometric share.
const MIN_MOVES_LEFT: u32 = 3;

/// A move's weight by phase (see the module doc).
fn phase_weight(ply: u32) -> f64 {
    match ply {
        0..=3 => 0.3,
        4..=9 => 0.8,
        10..=27 => 1.7,
        _ => 1.0,
    }
}

/// The thinking time of a move at `ply` with `left` of the game's budget `total` left, keeping
/// `stall` free on top of the fixed reserve.
pub fn move_share(total: Duration, left: Duration, ply: u32, stall: Duration) -> Duration {
    let usable = left.saturating_sub(total.mul_f64(RESERVE) + RESERVE_FIXED + stall);
    let moves_left = ((EXPECTED_PLIES.saturating_sub(ply) + 1) / 2).max(MIN_MOVES_LEFT);
    (usable / moves_left).mul_f64(phase_weight(ply)).min(usable / 3)
}

/// The seat's bot.
pub struct ZuniqBot {
    seat: PlayerId,
    iterations: Option<u64>,
    state: RefState,
    total: Option<Duration>,
    /// Whether an earlier move was played from a proven win: the proof must then be kept, so
    /// the solver's node budget is lifted (the clock stays the safety net).
    proven: bool,
    search: Search,
    stats: SearchStats,
}

impl ZuniqBot {
    /// A bot for `seat`, with a fixed iteration budget per move or the clock (`None`).
    pub fn new(seat: PlayerId, seed: i64, iterations: Option<u64>) -> ZuniqBot {
        Self::with_config(seat, seed, iterations, Config::default())
    }

    /// The same with another tuning.
    pub fn with_config(
        seat: PlayerId,
        seed: i64,
        iterations: Option<u64>,
        config: Config,
    ) -> ZuniqBot {
        ZuniqBot {
            seat,
            iterations,
            state: RefState::new(),
            total: None,
            proven: false,
            search: Search::new(config, (seed as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5EED),
            stats: SearchStats::default(),
        }
    }

    /// A bot joining a game at `state`.
    pub fn resume(seat: PlayerId, seed: i64, iterations: Option<u64>, state: &RefState) -> Self {
        ZuniqBot { state: state.clone(), ..Self::new(seat, seed, iterations) }
    }

    /// The game as the bot knows it.
    pub fn state(&self) -> &RefState {
        &self.state
    }

    /// The move to play now (claim decided).
    fn choose(&mut self, deadline: Instant) -> Option<Action> {
        let legal = legal_walls(&self.state);
        let first = *legal.first()?;
        let now = Instant::now();
        let left = deadline.saturating_duration_since(now);
        let total = *self.total.get_or_insert(left);
        let ply = self.state.ply;
        let share = move_share(total, left, ply, super::pace::reserve());
        // Below a millisecond of share the clock is nearly gone: answer a legal wall at once.
        if share < Duration::from_millis(1) && self.iterations.is_none() {
            return Some(Action { wall: first, claim: false });
        }
        let board = FastState::from(&self.state).board;
        let claimed = self.state.claims[self.seat].is_some();
        let keep_proof = self.proven || claimed;
        let (think_end, root_nodes, solve_end) = match self.iterations {
            // Deterministic: the clock only as a safety net (a quarter of what is left).
            Some(n) => {
                let net = now + share.max(left / 4);
                let nodes = if keep_proof {
                    u64::MAX
                } else {
                    n * self.search.config.root_nodes_per_iteration
                };
                (Some(net), nodes, Some(net))
            }
            None => {
                // After a proven win the proof must be kept: the solver may take a quarter of
                // what is left (re-proving a position proven before is quick).
                let solve_end = if keep_proof { share.max(left / 4) } else { share / 2 };
                (Some(now + share), u64::MAX, Some(now + solve_end))
            }
        };
        let decision = self.search.decide(
            &board,
            self.iterations,
            think_end,
            root_nodes,
            solve_end,
            keep_proof,
        )?;
        self.stats.iterations += decision.iterations;
        self.proven |= decision.proven_win;
        let claim = decision.proven_win && !claimed;
        Some(Action { wall: wall_of(decision.wall), claim })
    }
}

impl ViewPlayer for ZuniqBot {
    fn play(&mut self, input: &str, deadline: Instant) -> Option<String> {
        if !read_views(&mut self.state, input)
            || self.state.finished
            || self.state.to_move() != self.seat
        {
            return None;
        }
        let action = self.choose(deadline)?;
        apply_move(&mut self.state, action).ok()?;
        self.stats.moves += 1;
        Some(action.to_string())
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }
}

/// The bot for `spec` (`builtin:mcts@fast`).
pub fn player(spec: &SearchSpec, seat: PlayerId, seed: i64) -> Box<dyn ViewPlayer> {
    Box::new(ZuniqBot::new(seat, seed, spec.iterations))
}

#[cfg(test)]
mod tests {
    use super::*;
    use twinsim_fast::zuniq::typed::parse_line;

    /// The most visited edge of node `n`.
    fn most_visited(search: &Search, n: u32) -> Edge {
        let node = search.nodes[n as usize];
        *search.edges[node.start as usize..][..node.len as usize]
            .iter()
            .max_by_key(|e| e.visits)
            .expect("an expanded node with edges")
    }

    /// The shares of a whole game on the 30 s clock, each move taking exactly its share from
    /// the first mover's seat: (ply, time left before the move).
    fn clock_left(stall: Duration) -> Vec<(u32, Duration)> {
        let total = Duration::from_secs(30);
        let mut left = total;
        let mut seen = Vec::new();
        for ply in (0..60).step_by(2) {
            seen.push((ply, left));
            let share = move_share(total, left, ply, stall);
            let usable = left.saturating_sub(total.mul_f64(RESERVE) + RESERVE_FIXED + stall);
            assert!(share <= usable / 3, "ply {ply}: {share:?} of {usable:?}");
            left -= share;
        }
        seen
    }

    /// The clock is spent by the ply where the solver usually decides (about 28 at the full
    /// clock), not kept for plies a proven game answers at once; the reserve and the stall
    /// figure are never planned for, however long the game.
    #[test]
    fn the_clock_is_spent_before_the_solver_decides() {
        let left_at = |stall, ply| clock_left(stall).iter().find(|(p, _)| *p == ply).unwrap().1;
        let none = Duration::ZERO;
        // Planning to ply 40 left 6.5 s at ply 28 (1.8 s of it the reserve).
        assert!(left_at(none, 28) < Duration::from_millis(4500), "{:?}", left_at(none, 28));
        let kept = Duration::from_secs(30).mul_f64(RESERVE) + RESERVE_FIXED;
        assert!(left_at(none, 58) >= kept);
        let stall = Duration::from_millis(300);
        assert!(left_at(stall, 58) >= kept + stall);
    }

    /// The position after `walls` (wall names, in the order played), at ply 30 with `live`
    /// live walls, and a fresh search of it with `iterations` (the root solver's budget ample).
    fn decide_at_ply_30(walls: &str, live: u32, iterations: u64) -> (Board, Search, Decision) {
        let mut board = Board::new();
        for name in walls.split_whitespace() {
            let (w, _) = parse_line(name.as_bytes()).unwrap();
            board.place(w, board.cut(w));
        }
        assert_eq!((board.ply, live_walls(&board)), (30, live));
        let mut search = Search::new(Config::default(), 30);
        let decision = search.decide(&board, Some(iterations), None, 200_000, None, false);
        (board, search, decision.unwrap())
    }

    /// Game 22 of a 30 s match against mcts-v1 (issue 34, zuniq-tune's run F), at ply 30:
    /// White to move with 27 live walls, a win (the solver proves it in 22k nodes), but the
    /// root was solved only from 26 live walls and the tree's search played `A2v`, a loss.
    /// The root is now solved from 31 live walls: the win is found and kept.
    #[test]
    fn a_won_root_with_27_live_walls_is_solved_not_sampled() {
        let (board, _, decision) = decide_at_ply_30(
            "B4h A5h B5h A3h D1h B3v A3v C1v A4v A6v D5h F1h E2v E1v B3h D1v D2v C3v B1h C4v \
             E4h D3h B2h C5v E5h D6v B5v C4h E5v F4h",
            27,
            50,
        );
        let exact = |board: &Board| {
            let limit = Limit { nodes: u64::MAX, deadline: None };
            Solver::new(16).solve(&search_board(board), limit).unwrap()
        };
        let after = |wall: usize| {
            let mut child = board;
            child.place(wall, board.cut(wall));
            child
        };
        let played = parse_line(b"A2v").unwrap().0;
        assert!(exact(&after(played)), "the wall played in the game gives the opponent the win");
        assert!(decision.proven_win, "{decision:?}");
        assert!(!exact(&after(decision.wall)), "the chosen wall keeps the win: {decision:?}");
    }

    /// Game 4 of the same match at ply 30: White to move with 29 live walls, lost. The root
    /// solver proves it, and the children's proofs then come from its table at once, so the
    /// tree used to prove the root lost after a few dozen iterations and stop, answering with
    /// whatever wall earlier searches had visited most. The search now goes on to its budget
    /// with proofs ignored and answers the wall its playouts like best.
    #[test]
    fn a_lost_root_is_searched_on_to_the_budget() {
        let (board, search, decision) = decide_at_ply_30(
            "D5v F3h E2v C5v A3v C5h E4h B6v E4v A1v A5v D3h B5v A2h E5h F2h B1h C6v B2v D6v \
             B2h D3v D1h A2v C2v A4h E1h D1v C2h A4v",
            29,
            400,
        );
        assert!(decision.proven_loss && !decision.proven_win, "{decision:?}");
        assert_eq!(decision.iterations, 400);
        // The answer is the most visited wall, and the playouts went beyond the root's walls.
        let root = most_visited(&search, 0);
        assert_eq!(usize::from(root.wall), decision.wall);
        assert!(root.visits > 400 / 29, "{root:?}");
        assert!(board.legal_mask() >> decision.wall & 1 == 1);
    }

    /// The root solver is tried from one live wall more each time its budget doubles, from
    /// `root_extra_nodes` on (nodes, or the clock's time at the assumed speed), up to
    /// `root_solve_max`.
    #[test]
    fn the_root_solvers_reach_grows_with_its_budget() {
        let search = Search::new(Config::default(), 1);
        let reach = |nodes| search.root_reach(nodes, None);
        assert_eq!(reach(0), 31);
        assert_eq!(reach(399_999), 31);
        assert_eq!(reach(400_000), 32);
        assert_eq!(reach(800_000), 33);
        assert_eq!(reach(1_600_000), 34);
        assert_eq!(reach(u64::MAX), 34);
        let by_clock = |secs| search.root_reach(u64::MAX, Some(Instant::now() + secs));
        assert_eq!(by_clock(Duration::ZERO), 31);
        assert_eq!(by_clock(Duration::from_millis(1500)), 33);
        assert_eq!(by_clock(Duration::from_secs(60)), 34);
        // A clock budget counts at the speed measured in this process: on a loaded machine
        // the same time reaches less far.
        let slowed = Search { solver_rate: 100_000.0, ..Search::new(Config::default(), 1) };
        let reach = slowed.root_reach(u64::MAX, Some(Instant::now() + Duration::from_millis(1500)));
        assert_eq!(reach, 31);
    }

    #[test]
    fn a_move_keeps_the_new_roots_subtree_and_only_it() {
        let mut search = Search::new(Config::default(), 3);
        let mut board = Board::new();
        search.decide(&board, Some(3000), None, 0, None, false).unwrap();
        let before = search.tree_size();
        // Two plies down the most visited line: a node the search has expanded.
        let mine = most_visited(&search, search.index[&key(&board)]);
        board.place(usize::from(mine.wall), mine.cut);
        let answer = most_visited(&search, mine.child);
        board.place(usize::from(answer.wall), answer.cut);
        let kept = search.nodes[answer.child as usize];
        assert!(kept.visits > 1 && kept.start != UNEXPANDED, "{kept:?}");

        search.decide(&board, Some(0), None, 0, None, false).unwrap();
        // The new root is node 0 with its statistics; the rest was dropped.
        assert_eq!(search.index[&key(&board)], 0);
        assert_eq!(search.nodes[0].visits, kept.visits);
        assert!(search.tree_size() < before / 4, "{} of {before}", search.tree_size());
        // Links and index agree after the renumbering.
        for (id, node) in search.nodes.iter().enumerate() {
            assert_eq!(search.index[&node.key], id as u32);
            if node.start != UNEXPANDED {
                for edge in &search.edges[node.start as usize..][..node.len as usize] {
                    assert!(edge.child == NO_CHILD || (edge.child as usize) < search.nodes.len());
                }
            }
        }
        assert_eq!(search.index.len(), search.tree_size());
    }
}
