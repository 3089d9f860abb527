//! Alpha-beta (negamax) with iterative deepening, a transposition table giving the hash move,
//! killer moves and the history heuristic, for alternating two-player games: the search of the
//! Wondev Woman runner-up's post-mortem ("Improving search depth"), written once against the
//! allocation-free [`SearchGame`] API so it runs unchanged on a reference engine and on its fast twin.
//!
//! # What the post-mortem asks for, and where it is
//!
//! - **Iterative deepening**: [`AlphaBeta::search`] searches depth 1, 2, ... until the
//!   [`Budget`] runs out (nodes, or the clock read every few nodes), and answers with the best
//!   move of the last *completed* depth. An unfinished depth is used only where it is proven
//!   better: at the root the previous best move is searched first, and any later move that beats
//!   it was searched with a full window, so its value is exact at the deeper depth.
//! - **Hash move**: every node stores its best (or cut-off) move in the transposition table,
//!   keyed by [`SearchGame::hash`]; a later visit (the next depth, a transposition, or the next turn: the
//!   table lives across searches) tries it first. Entries also give cut-offs when deep enough.
//! - **Killer heuristic**: the last two distinct moves that caused a cut-off at each ply are tried
//!   after the hash move.
//! - **History heuristic**: the best or cut-off move of every node earns `2^depth` (depth left),
//!   and the other moves are tried by decreasing history, then by the game's own hint
//!   ([`MoveHints::move_hint`]; for Wondev Woman, the height of the cell moved to or pushed from).
//!   The table starts at zero for every search.
//! - **Negascout** (principal variation search, [`AlphaBetaConfig::pvs`]): the first move of a
//!   node gets the full window, the others a null window that only proves them no better, and
//!   are searched again with the full window when the proof fails (about 10% fewer nodes at
//!   depth 4 on Wondev Woman openings with this ordering; the post-mortem warns to check that
//!   it pays, and it did).
//!
//! Moves are identified for the table, the killers and the history by [`MoveHints::move_id`]:
//! a small integer that may depend on the position (Wondev Woman uses the cell the unit stands on
//! rather than its id, so the two units are interchangeable, as in the post-mortem's "pawn
//! permutation symmetry").
//!
//! # Values
//!
//! Values are integers from the point of view of the player to move ([`Heuristic`] at the
//! leaves). A finished game is worth [`WIN`] minus the plies to reach it for a player ranked
//! first, the opposite for a player ranked last, and 0 for a tie, so faster wins are preferred.
//! A position where the same player moves again (the other one is eliminated) keeps the sign.
//!
//! # Twins
//!
//! Everything is deterministic: no hashing with random state (the table is an array indexed by
//! the key), ties keep the `legal_actions` order, the sort is stable. Both twins list the same
//! actions in the same order, compute the same keys, hints and evaluations, so the same state and
//! node budget give the same move, value, depth and node count on both.

use super::{rank_rewards, Budget};
use std::time::Instant;
use twinsim_fast::game::{MoveBuffer, SearchGame};
use twinsim_reference::game::PlayerId;

/// A leaf evaluation for alpha-beta: the value of a (possibly unfinished) position for
/// `player`, higher is better. Must stay well inside `±WIN / 2`.
pub trait Heuristic {
    /// The value for `player` (positive: good for him), in the same units at every depth.
    fn heuristic(&self, player: PlayerId) -> i32;
}

/// Per-position move identities and ordering hints.
pub trait MoveHints<A> {
    /// Number of distinct move identities (`move_id` is below it).
    const MOVE_IDS: usize;
    /// A small integer naming `action` of `mover` in this position, the same for the same move
    /// in related positions (so that history and killers carry over).
    fn move_id(&self, mover: PlayerId, action: &A) -> usize;
    /// A game-specific ordering hint, tried last (higher first; compared after clamping to
    /// `-128..=127`).
    fn move_hint(&self, mover: PlayerId, action: &A) -> i32;
}

/// The value of a won game (minus the plies to reach it).
pub const WIN: i32 = 1_000_000;
const INF: i32 = 2 * WIN;
/// Values beyond this are wins or losses.
const WIN_BOUND: i32 = WIN / 2;
/// Leaves between two readings of the clock.
const CLOCK_EVERY: u64 = 8;
/// Deepest ply with killer slots (deeper nodes just have none).
const MAX_PLY: usize = 128;

/// Tuning of [`AlphaBeta`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// Deepest iteration of the iterative deepening, in plies (one ply = one player's move).
    pub max_depth: u32,
    /// The transposition table has `2^tt_bits` entries.
    pub tt_bits: u32,
    /// Longest principal variation returned (walking it costs a legal list per move, after the
    /// deadline: a bot asks only for what it uses).
    pub max_pv: usize,
    /// Principal variation search: null-window probes after the first move.
    pub pvs: bool,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig { max_depth: 40, tt_bits: 16, max_pv: 8, pvs: true }
    }
}

/// What [`AlphaBeta::search`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaResult<A> {
    /// The move to play (`None` when nobody is to move).
    pub action: Option<A>,
    /// Its value for the player to move: at `depth`, or at the unfinished deeper iteration when
    /// that iteration proved a different move better (0 if nothing was searched).
    pub value: i32,
    /// The deepest completed iteration (0: not even depth 1 completed; the action is then the
    /// best of the moves searched, or the first legal one).
    pub depth: u32,
    /// Nodes visited (every position entered, leaves included): the search's iterations.
    pub nodes: u64,
    /// The principal variation of the last completed depth, from the transposition table
    /// (starts with `action`; may be shorter than `depth`).
    pub pv: Vec<A>,
}

/// How a stored value bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Bound {
    #[default]
    Exact,
    /// The true value is at least this (a cut-off).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    value: i32,
    /// `move_id + 1` of the best move, 0 for none.
    best: u32,
    depth: u8,
    bound: Bound,
}

/// An alpha-beta searcher. Keep one per bot: its transposition table carries hash moves and
/// values over to the next turn (positions are keyed by their whole content, so entries stay
/// right).
pub struct AlphaBeta {
    config: AlphaBetaConfig,
    tt: Vec<Entry>,
    history: Vec<u32>,
    killers: Vec<[u32; 2]>,
    nodes: u64,
    budget: Budget,
    aborted: bool,
    /// Root: the move to search first (the previous iteration's best), and the best move of the
    /// current iteration so far with its value.
    root_first: u32,
    root_best: Option<(usize, i32)>,
    /// Per-ply buffers of the move ordering, kept across nodes and searches so that a node
    /// allocates nothing once its ply has been visited.
    scratch: Vec<Scratch>,
}

/// A node's ordering buffers (see [`AlphaBeta::negamax`]).
#[derive(Default)]
struct Scratch {
    /// `move_id + 1` of each legal move.
    ids: Vec<u32>,
    /// Indices into the legal list, in search order.
    order: Vec<usize>,
    /// The sort keys of the moves after the hash move and the killers.
    rest: Vec<u64>,
}

/// Most players any game of the workspace has (Olymbits): the size of a joint action buffer.
const MAX_PLAYERS: usize = 3;

impl AlphaBeta {
    /// A searcher with an empty table.
    pub fn new(config: AlphaBetaConfig) -> AlphaBeta {
        AlphaBeta {
            config,
            tt: vec![Entry::default(); 1usize << config.tt_bits],
            history: vec![],
            killers: vec![[0; 2]; MAX_PLY],
            nodes: 0,
            budget: Budget::default(),
            aborted: false,
            root_first: 0,
            root_best: None,
            scratch: vec![],
        }
    }

    /// Iterative deepening from `state` within `budget`: at most `budget.iterations` nodes
    /// (fewer when the result is proven or `max_depth` is completed) and/or until
    /// `budget.deadline`; with neither, depth 1 only. See the module documentation.
    pub fn search<G: SearchGame>(
        &mut self,
        state: &G::State,
        budget: Budget,
    ) -> AlphaBetaResult<G::Action>
    where
        G::State: Heuristic + MoveHints<G::Action>,
    {
        let mut result = AlphaBetaResult { action: None, value: 0, depth: 0, nodes: 0, pv: vec![] };
        let Some(mover) = G::to_act(state).first() else {
            return result;
        };
        let mut legal = G::MoveList::default();
        G::legal_moves(state, mover, &mut legal);
        if legal.is_empty() {
            return result;
        }
        result.action = Some(legal.get(0).clone());
        // Neither bound: one iteration (depth 1), as `Budget` means elsewhere.
        let budget = if budget.iterations.is_none() && budget.deadline.is_none() {
            Budget { iterations: Some(u64::MAX), deadline: None }
        } else {
            budget
        };
        let max_depth = if budget.iterations == Some(u64::MAX) { 1 } else { self.config.max_depth };
        self.budget = budget;
        self.nodes = 0;
        self.aborted = false;
        self.history = vec![0; 2 * <G::State as MoveHints<G::Action>>::MOVE_IDS];
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
        self.root_first = 0;
        // One legal list per ply, filled and refilled in place: a node allocates nothing.
        let mut lists: Vec<G::MoveList> = Vec::new();
        lists.resize_with(max_depth.min(255) as usize, Default::default);
        for depth in 1..=max_depth.min(255) {
            self.root_best = None;
            let value = self.negamax::<G>(state, mover, depth, -INF, INF, 0, &mut lists);
            let best = self.root_best.map(|(i, v)| (legal.get(i).clone(), v));
            if self.aborted {
                // Proven better than the previous depth's move (see the module documentation).
                if let Some((action, v)) = best {
                    if depth == 1 || state.move_id(mover, &action) as u32 + 1 != self.root_first {
                        result.action = Some(action);
                        result.value = v;
                    }
                }
                break;
            }
            let Some((action, _)) = best else { break };
            self.root_first = state.move_id(mover, &action) as u32 + 1;
            result.action = Some(action);
            result.value = value;
            result.depth = depth;
            // A proven result does not change with depth.
            if value.abs() > WIN_BOUND {
                break;
            }
        }
        result.nodes = self.nodes;
        result.pv = self.principal_variation::<G>(state, result.action.clone());
        result
    }

    /// The moves from `state` following the table's best moves, starting with `first`.
    fn principal_variation<G: SearchGame>(
        &self,
        state: &G::State,
        first: Option<G::Action>,
    ) -> Vec<G::Action>
    where
        G::State: Heuristic + MoveHints<G::Action>,
    {
        let mut pv = vec![];
        let mut s = state.clone();
        let mut next = first;
        let mut legal = G::MoveList::default();
        while let Some(action) = next.take() {
            let Some(mover) = G::to_act(&s).first() else { break };
            if pv.len() >= self.config.max_pv || step::<G>(&mut s, mover, &action).is_err() {
                break;
            }
            pv.push(action);
            let Some(m) = G::to_act(&s).first() else { break };
            let key = G::hash(&s);
            let e = self.tt[self.slot(key)];
            if e.key != key || e.best == 0 {
                break;
            }
            G::legal_moves(&s, m, &mut legal);
            next = (0..legal.len())
                .map(|i| legal.get(i))
                .find(|a| s.move_id(m, a) as u32 + 1 == e.best)
                .cloned();
        }
        pv
    }

    /// The node budget is checked at every node; the clock at every inner node (it costs a legal
    /// list and the successors: up to hundreds of microseconds on the reference) but only every
    /// [`CLOCK_EVERY`] leaves, since reading it costs about as much as a fast-twin leaf (tens of
    /// nanoseconds). The overshoot past the deadline stays below one inner node's own work plus
    /// a few leaves.
    fn out_of_budget(&self, leaf: bool) -> bool {
        if self.budget.iterations.is_some_and(|n| self.nodes >= n) {
            return true;
        }
        let passed = (!leaf || self.nodes % CLOCK_EVERY == 0)
            && self.nodes > 0
            && self.budget.deadline.is_some_and(|d| Instant::now() >= d);
        if let (true, Some(deadline)) = (passed, self.budget.deadline) {
            crate::pace::deadline_reached(deadline);
        }
        passed
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    /// The value of `state` (not finished, `mover` to move) for `mover`, searched `depth` plies
    /// deep inside the window `(alpha, beta)`. Sets `aborted` (and returns garbage) when the
    /// budget runs out. `lists` holds a legal list for this ply and each deeper one (one per
    /// depth left at least).
    #[allow(clippy::too_many_arguments)]
    fn negamax<G: SearchGame>(
        &mut self,
        state: &G::State,
        mover: PlayerId,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        lists: &mut [G::MoveList],
    ) -> i32
    where
        G::State: Heuristic + MoveHints<G::Action>,
    {
        if self.out_of_budget(depth == 0) {
            self.aborted = true;
            return 0;
        }
        self.nodes += 1;
        if depth == 0 {
            return state.heuristic(mover);
        }
        let key = G::hash(state);
        let slot = self.slot(key);
        let entry = self.tt[slot];
        let mut hash_move = 0;
        if entry.key == key {
            hash_move = entry.best;
            if ply > 0 && u32::from(entry.depth) >= depth {
                let v = from_tt(entry.value, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if usable {
                    return v;
                }
            }
        }
        if ply == 0 && self.root_first != 0 {
            hash_move = self.root_first;
        }
        // The legal list is this ply's of `lists`; the ordering buffers are this ply's, taken
        // out of `scratch` for the node and put back at the end.
        let (legal, deeper) =
            lists.split_first_mut().unwrap_or_else(|| unreachable!("a list per depth left"));
        G::legal_moves(state, mover, legal);
        if self.scratch.len() <= ply {
            self.scratch.resize_with(ply + 1, Scratch::default);
        }
        let mut sc = std::mem::take(&mut self.scratch[ply]);
        let Scratch { ids, order, rest } = &mut sc;
        ids.clear();
        ids.extend((0..legal.len()).map(|i| state.move_id(mover, legal.get(i)) as u32 + 1));
        let killers = self.killers.get(ply).copied().unwrap_or([0; 2]);
        let base = mover.min(1) * <G::State as MoveHints<G::Action>>::MOVE_IDS;
        // The order: the hash move, the killers, then the rest by history, then by the game's
        // hint (stable: ties keep the legal order). The rest is only sorted once the first ones
        // failed to cut off (post-mortem: sorting every node's list was a real cost).
        order.clear();
        for wanted in [hash_move, killers[0], killers[1]] {
            if wanted != 0 {
                if let Some(i) = ids.iter().position(|&id| id == wanted) {
                    if !order.contains(&i) {
                        order.push(i);
                    }
                }
            }
        }
        let front = order.len();

        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_id = 0;
        let mut joint: [Option<G::Action>; MAX_PLAYERS] = Default::default();
        let acts = &mut joint[..G::num_players(state)];
        let mut k = 0;
        loop {
            if k == order.len() {
                if order.len() > front || order.len() == legal.len() {
                    break;
                }
                // One u64 per move, smallest first: history (descending), hint (descending),
                // index (ascending, which makes keys unique, so the unstable sort is
                // deterministic and equals a stable sort by history then hint).
                rest.clear();
                rest.extend((0..legal.len()).filter(|i| !order[..front].contains(i)).map(|i| {
                    let history =
                        self.history.get(base + ids[i] as usize - 1).copied().unwrap_or(0);
                    let hint = state.move_hint(mover, legal.get(i)).clamp(-128, 127);
                    (u64::from(!history) << 32)
                        | (u64::from((127 - hint) as u8) << 24)
                        | (i as u64 & 0xFF_FFFF)
                }));
                rest.sort_unstable();
                order.extend(rest.iter().map(|key| (key & 0xFF_FFFF) as usize));
            }
            let i = order[k];
            k += 1;
            let mut child = state.clone();
            acts[mover] = Some(legal.get(i).clone());
            if G::play(&mut child, acts).is_err() {
                continue; // cannot happen for a listed action; never play it
            }
            let next = G::to_act(&child).first();
            // The child's value for `mover` within (lo, hi).
            let mut child_value = |this: &mut Self, lo: i32, hi: i32| match next {
                None => terminal_value::<G>(&child, mover, ply + 1),
                Some(m) if m == mover => {
                    this.negamax::<G>(&child, m, depth - 1, lo, hi, ply + 1, deeper)
                }
                Some(m) => -this.negamax::<G>(&child, m, depth - 1, -hi, -lo, ply + 1, deeper),
            };
            // (At depth 1 the children are leaves: a probe would cost as much as the value.)
            let value = if best == -INF || !self.config.pvs || depth == 1 {
                child_value(self, alpha, beta)
            } else {
                // Principal variation search (the post-mortem's Negascout): after the first
                // move, prove with a null window that a move is no better than alpha; search it
                // again with the full window only when it is.
                let probe = child_value(self, alpha, alpha + 1);
                if probe > alpha && probe < beta && !self.aborted {
                    child_value(self, alpha, beta)
                } else {
                    probe
                }
            };
            if self.aborted {
                self.scratch[ply] = sc;
                return 0;
            }
            if value > best {
                best = value;
                best_id = ids[i];
                if ply == 0 {
                    self.root_best = Some((i, value));
                }
            }
            if value > alpha {
                alpha = value;
            }
            if alpha >= beta {
                if let Some(k) = self.killers.get_mut(ply) {
                    if k[0] != best_id {
                        *k = [best_id, k[0]];
                    }
                }
                break;
            }
        }
        if best_id == 0 {
            // No playable move (cannot happen: the legal list is never empty while a player is
            // to move); score the position as a leaf.
            self.scratch[ply] = sc;
            return state.heuristic(mover);
        }
        self.scratch[ply] = sc;
        if let Some(h) = self.history.get_mut(base + best_id as usize - 1) {
            *h = h.saturating_add(1u32 << depth.min(31));
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt[slot] = Entry {
            key,
            value: to_tt(best, ply),
            best: best_id,
            depth: depth.min(255) as u8,
            bound,
        };
        best
    }
}

/// Plays `action` of `mover`.
fn step<G: SearchGame>(
    state: &mut G::State,
    mover: PlayerId,
    action: &G::Action,
) -> Result<(), twinsim_reference::game::StepError> {
    let mut joint: [Option<G::Action>; MAX_PLAYERS] = Default::default();
    joint[mover] = Some(action.clone());
    G::play(state, &joint[..G::num_players(state)])
}

/// A finished game's value for `player`, reached `ply` plies from the root.
fn terminal_value<G: SearchGame>(state: &G::State, player: PlayerId, ply: usize) -> i32 {
    let Some(outcome) = G::outcome(state) else { return 0 };
    let reward = rank_rewards(&outcome).get(player).copied().unwrap_or(0.5);
    let win = WIN - ply as i32;
    if reward > 0.5 {
        win
    } else if reward < 0.5 {
        -win
    } else {
        0
    }
}

/// Win values are stored relative to the node (plies to the end from there), so that an entry
/// is right wherever the position is met again.
fn to_tt(v: i32, ply: usize) -> i32 {
    if v > WIN_BOUND {
        v + ply as i32
    } else if v < -WIN_BOUND {
        v - ply as i32
    } else {
        v
    }
}

fn from_tt(v: i32, ply: usize) -> i32 {
    if v > WIN_BOUND {
        v - ply as i32
    } else if v < -WIN_BOUND {
        v + ply as i32
    } else {
        v
    }
}
