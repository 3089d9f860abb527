//! MCTS (UCT) for alternating games, with a transposition table: nodes are positions keyed by
//! [`SearchGame::hash`] (the zobrist hash for Zuniq), and the statistics live on the edges (UCT over a
//! DAG: each edge keeps its own visits and rewards, the parent's visits count passes through
//! the node by any path). Expansion adds one untried edge per iteration, in `legal_actions`
//! order; when that edge leads to a position already in the table (a transposition), the
//! descent continues from the shared node instead of starting a playout. Playouts are uniformly
//! random to the end of the game; the reward of each mover is its [`rank_rewards`] share.
//!
//! Why the game's hash rather than `G::State: Hash + Eq`: the fast Zuniq state already carries an
//! incremental zobrist hash that also merges positions differing only by dead walls (more
//! transpositions than structural equality), and a `u64` key keeps the table small. The price
//! is that both twins must compute the same key (the contract of [`SearchGame::hash`]) and a 64-bit collision may
//! merge two positions: if an edge of a merged node is then illegal, the iteration stops there
//! and scores the state it reached by a playout (no panic, no illegal action at the root, since
//! the root's edges are always its own legal actions).

use super::{rank_rewards, Budget, SearchRng};
use std::collections::HashMap;
use twinsim_fast::game::{MoveBuffer, SearchGame};
use twinsim_reference::game::{PlayerId, TurnStructure};

/// Tuning of [`search`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// UCB exploration constant `c` in `mean + c·sqrt(ln N / n)` (rewards in [0, 1]).
    pub exploration: f64,
    /// Seed of the playout generator.
    pub seed: i64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig { exploration: 0.7, seed: 1 }
    }
}

/// One root action's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct RootEdge<A> {
    /// A legal action of the player to move at the root.
    pub action: A,
    /// Iterations whose descent took this edge first.
    pub visits: u32,
    /// Sum of the mover's rewards over those iterations.
    pub reward: f64,
}

/// What [`search`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<A> {
    /// The most visited root action (ties: the higher reward, then the first); `None` when the
    /// game is over.
    pub action: Option<A>,
    /// Iterations completed (descent, expansion, playout, backup), as counted by the
    /// [`Budget`].
    pub iterations: u64,
    /// Positions in the transposition table.
    pub nodes: usize,
    /// Iterations that reached an existing node through a new edge (transpositions).
    pub transpositions: u64,
    /// The root's edges in `legal_actions` order.
    pub root: Vec<RootEdge<A>>,
}

struct Edge<A> {
    action: A,
    visits: u32,
    reward: f64,
}

/// A position: its mover and its edges, `edges[start..start + len]` of the search's one edge
/// arena (growing one flat `Vec` instead of a `Vec` per node: expanding a node allocates nothing
/// once the arena has grown).
struct Node {
    mover: PlayerId,
    visits: u32,
    expanded: usize,
    start: usize,
    len: usize,
}

/// Appends the node of `state` (its legal moves written into `moves`, then into the arena).
fn new_node<G: SearchGame>(
    state: &G::State,
    moves: &mut G::MoveList,
    edges: &mut Vec<Edge<G::Action>>,
) -> Node {
    let start = edges.len();
    let mover = G::to_act(state).first();
    if let Some(mover) = mover {
        G::legal_moves(state, mover, moves);
        for i in 0..moves.len() {
            edges.push(Edge { action: moves.get(i).clone(), visits: 0, reward: 0.0 });
        }
    }
    Node { mover: mover.unwrap_or(0), visits: 0, expanded: 0, start, len: edges.len() - start }
}

/// Longest descent or playout, a guard against games that could cycle.
const MAX_PLIES: usize = 100_000;

/// Uniformly random legal moves to the end; the rank rewards of each player (equal shares if
/// the game could not be finished).
fn playout<G: SearchGame>(
    state: &mut G::State,
    rng: &mut SearchRng,
    slots: &mut [Option<G::Action>],
    moves: &mut G::MoveList,
) -> Vec<f64> {
    let n = slots.len();
    for _ in 0..MAX_PLIES {
        let Some(mover) = G::to_act(state).first() else { break };
        G::legal_moves(state, mover, moves);
        if moves.is_empty() {
            break;
        }
        slots[mover] = Some(moves.get(rng.below(moves.len())).clone());
        let stepped = G::play(state, slots);
        slots[mover] = None;
        if stepped.is_err() {
            break;
        }
    }
    match G::outcome(state) {
        Some(outcome) => rank_rewards(&outcome),
        None => vec![0.5; n],
    }
}

/// Runs UCT from `state` within `budget`. Panics if `G` is not an alternating game.
///
/// A finished game returns `None` at once; a single legal move is returned at once with zero
/// iterations (nothing to search).
pub fn search<G: SearchGame>(
    state: &G::State,
    budget: &Budget,
    config: &MctsConfig,
) -> MctsResult<G::Action> {
    assert_eq!(G::TURNS, TurnStructure::Alternating, "mcts::search is for alternating games");
    let mut moves = G::MoveList::default();
    let mut edges: Vec<Edge<G::Action>> = Vec::new();
    let root_node = new_node::<G>(state, &mut moves, &mut edges);
    if root_node.len <= 1 {
        return MctsResult {
            action: edges.first().map(|e| e.action.clone()),
            iterations: 0,
            nodes: 1,
            transpositions: 0,
            root: edges
                .into_iter()
                .map(|e| RootEdge { action: e.action, visits: 0, reward: 0.0 })
                .collect(),
        };
    }
    let players = G::num_players(state);
    let mut rng = SearchRng::new(config.seed);
    let mut nodes = vec![root_node];
    let mut table: HashMap<u64, usize> = HashMap::new();
    table.insert(G::hash(state), 0);
    let mut slots: Vec<Option<G::Action>> = vec![None; players];
    let mut path: Vec<(usize, usize)> = Vec::new();
    let mut iterations = 0u64;
    let mut transpositions = 0u64;

    while !budget.exhausted(iterations) {
        iterations += 1;
        path.clear();
        let mut s = state.clone();
        let mut node = 0usize;
        for _ in 0..MAX_PLIES {
            let n = &mut nodes[node];
            if n.len == 0 {
                break;
            }
            let (edge, untried) = if n.expanded < n.len {
                n.expanded += 1;
                (n.start + n.expanded - 1, true)
            } else {
                (n.start + ucb(n, &edges[n.start..n.start + n.len], config.exploration), false)
            };
            let mover = n.mover;
            slots[mover] = Some(edges[edge].action.clone());
            let stepped = G::play(&mut s, &slots);
            slots[mover] = None;
            if stepped.is_err() {
                // A key collision merged two positions; score what we have.
                break;
            }
            path.push((node, edge));
            let key = G::hash(&s);
            match table.get(&key) {
                Some(&child) => {
                    if untried {
                        transpositions += 1;
                    }
                    node = child;
                }
                None => {
                    nodes.push(new_node::<G>(&s, &mut moves, &mut edges));
                    node = nodes.len() - 1;
                    table.insert(key, node);
                    break;
                }
            }
        }
        let rewards = playout::<G>(&mut s, &mut rng, &mut slots, &mut moves);
        for &(n, e) in &path {
            let node = &mut nodes[n];
            node.visits += 1;
            let edge = &mut edges[e];
            edge.visits += 1;
            edge.reward += rewards[node.mover];
        }
    }

    let root = &edges[nodes[0].start..nodes[0].start + nodes[0].len];
    let best = best_edge(root);
    MctsResult {
        action: Some(root[best].action.clone()),
        iterations,
        nodes: nodes.len(),
        transpositions,
        root: root
            .iter()
            .map(|e| RootEdge { action: e.action.clone(), visits: e.visits, reward: e.reward })
            .collect(),
    }
}

/// UCB1 over a fully expanded node's edges (first maximum wins).
fn ucb<A>(node: &Node, edges: &[Edge<A>], c: f64) -> usize {
    let log_n = f64::from(node.visits.max(1)).ln();
    let mut best = 0;
    let mut best_value = f64::NEG_INFINITY;
    for (i, e) in edges.iter().enumerate() {
        let value = if e.visits == 0 {
            f64::INFINITY
        } else {
            let n = f64::from(e.visits);
            e.reward / n + c * (log_n / n).sqrt()
        };
        if value > best_value {
            best = i;
            best_value = value;
        }
    }
    best
}

/// Most visits, then higher reward, then first.
fn best_edge<A>(edges: &[Edge<A>]) -> usize {
    let mut best = 0;
    for (i, e) in edges.iter().enumerate().skip(1) {
        let b = &edges[best];
        if e.visits > b.visits || (e.visits == b.visits && e.reward > b.reward) {
            best = i;
        }
    }
    best
}
