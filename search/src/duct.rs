//! Decoupled UCT (Smitsimax-style) for simultaneous games.
//!
//! Each tree node keeps one statistics table per player to act: its legal actions, with visits
//! and reward sums. In an iteration every player picks its own action by UCB1 over its own
//! table (untried actions first, in `legal_actions` order), not knowing the others' choices;
//! the joint action steps the state, and the child is the node of that joint action (the tree
//! is keyed by paths of joint actions, which is exact: the state's own generator makes `step`
//! deterministic). A new node ends the descent; from there every player plays uniformly random
//! legal actions for `playout_depth` turns, and the leaf is scored by [`rank_rewards`] if the
//! game is over, else by the game's [`Evaluate`]. Every player's table on the path is credited
//! with that player's own reward.
//!
//! The returned action of the searching player is its most visited root action (the other
//! players' root tables are returned too: a prediction of their moves).

use super::{rank_rewards, Budget, Evaluate, SearchRng};
use std::collections::HashMap;
use twinsim_fast::game::{MoveBuffer, SearchGame};
use twinsim_reference::game::{PlayerId, TurnStructure};

/// Tuning of [`search`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DuctConfig {
    /// UCB exploration constant (rewards in [0, 1]).
    pub exploration: f64,
    /// Seed of the playout generator.
    pub seed: i64,
    /// Random turns played below a new node before the evaluation.
    pub playout_depth: u32,
}

impl Default for DuctConfig {
    fn default() -> Self {
        DuctConfig { exploration: 0.7, seed: 1, playout_depth: 8 }
    }
}

/// One player's root statistics: three parallel vectors, entry `i` about `actions[i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRoot<A> {
    /// The player these statistics belong to (absolute id).
    pub player: PlayerId,
    /// Its legal actions, in `legal_actions` order.
    pub actions: Vec<A>,
    /// Iterations in which the player chose `actions[i]` at the root.
    pub visits: Vec<u32>,
    /// Sum of the player's own rewards (each in [0, 1]) over those iterations; the mean is
    /// `reward[i] / visits[i]`.
    pub reward: Vec<f64>,
}

/// What [`search`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct DuctResult<A> {
    /// The most visited root action of the searching player (ties: higher reward, then
    /// first); `None` if it is not to act.
    pub action: Option<A>,
    /// Iterations completed (descent, playout, backup), as counted by the [`Budget`].
    pub iterations: u64,
    /// Nodes in the tree, root included: one per distinct path of joint actions expanded.
    pub nodes: usize,
    /// Root statistics of every player to act.
    pub root: Vec<PlayerRoot<A>>,
}

/// Most players to act at once (Olymbits' three).
const MAX_PLAYERS: usize = 3;

/// A node: the visits through it and, for every player to act, `(player, start, len)` into the
/// tree's `actions` and `stats` arenas (a player's actions contiguous, the players one after
/// the other), so a new node allocates nothing once the arenas have grown.
struct Node {
    visits: u32,
    players: [(PlayerId, usize, usize); MAX_PLAYERS],
    count: usize,
}

impl Node {
    fn players(&self) -> &[(PlayerId, usize, usize)] {
        &self.players[..self.count]
    }
}

/// The whole tree in flat arenas.
struct Tree<A> {
    nodes: Vec<Node>,
    actions: Vec<A>,
    /// (visits, reward sum) per action of a node.
    stats: Vec<(u32, f64)>,
    /// (node, joint choice as a mixed-radix index over the players' choices) → child node.
    children: HashMap<(usize, u64), usize>,
}

impl<A: Clone> Tree<A> {
    /// Appends the node of `state` (legal moves written into `moves`, then into the arenas).
    fn push_node<G: SearchGame<Action = A>>(&mut self, state: &G::State, moves: &mut G::MoveList) {
        let mut node = Node { visits: 0, players: [(0, 0, 0); MAX_PLAYERS], count: 0 };
        for player in G::to_act(state).iter() {
            G::legal_moves(state, player, moves);
            if !moves.is_empty() {
                node.players[node.count] = (player, self.actions.len(), moves.len());
                node.count += 1;
                self.actions.extend_from_slice(moves.as_slice());
            }
        }
        self.stats.resize(self.actions.len(), (0, 0.0));
        self.nodes.push(node);
    }

    fn root_tables(&self) -> Vec<PlayerRoot<A>> {
        self.nodes[0]
            .players()
            .iter()
            .map(|&(player, start, len)| PlayerRoot {
                player,
                actions: self.actions[start..start + len].to_vec(),
                visits: self.stats[start..start + len].iter().map(|s| s.0).collect(),
                reward: self.stats[start..start + len].iter().map(|s| s.1).collect(),
            })
            .collect()
    }
}

/// UCB1 over one player's statistics (untried actions first, first maximum wins).
fn ucb(stats: &[(u32, f64)], parent_visits: u32, c: f64) -> usize {
    if let Some(i) = stats.iter().position(|&(v, _)| v == 0) {
        return i;
    }
    let log_n = f64::from(parent_visits.max(1)).ln();
    let mut best = 0;
    let mut best_value = f64::NEG_INFINITY;
    for (i, &(visits, reward)) in stats.iter().enumerate() {
        let n = f64::from(visits);
        let value = reward / n + c * (log_n / n).sqrt();
        if value > best_value {
            best = i;
            best_value = value;
        }
    }
    best
}

/// Longest descent, a guard against endless trees.
const MAX_DEPTH: usize = 10_000;

/// Runs decoupled UCT from `state` for player `me` within `budget`. Panics if `G` is not a
/// simultaneous game.
///
/// A state where `me` is not to act returns `None` at once; a single legal action is returned
/// at once with zero iterations.
pub fn search<G: SearchGame>(
    state: &G::State,
    me: PlayerId,
    budget: &Budget,
    config: &DuctConfig,
) -> DuctResult<G::Action>
where
    G::State: Evaluate,
{
    assert_eq!(G::TURNS, TurnStructure::Simultaneous, "duct::search is for simultaneous games");
    let mut moves = G::MoveList::default();
    let mut tree = Tree {
        nodes: Vec::new(),
        actions: Vec::new(),
        stats: Vec::new(),
        children: HashMap::new(),
    };
    tree.push_node::<G>(state, &mut moves);
    let root = tree.nodes[0].players();
    let mine = root.iter().position(|t| t.0 == me);
    let Some(mine) = mine.filter(|&k| root[k].2 > 1) else {
        return DuctResult {
            action: mine.map(|k| tree.actions[root[k].1].clone()),
            iterations: 0,
            nodes: 1,
            root: tree.root_tables(),
        };
    };
    let players = G::num_players(state);
    let mut rng = SearchRng::new(config.seed);
    let mut slots: Vec<Option<G::Action>> = vec![None; players];
    // (index into `stats`, player) for every player's choice along the descent.
    let mut path: Vec<(usize, PlayerId)> = Vec::new();
    let mut iterations = 0u64;

    while !budget.exhausted(iterations) {
        iterations += 1;
        path.clear();
        let mut s = state.clone();
        let mut node = 0usize;
        let mut stuck = false;
        for _ in 0..MAX_DEPTH {
            let n = &tree.nodes[node];
            if n.count == 0 {
                break;
            }
            let mut joint = 0u64;
            let first = path.len();
            for &(player, start, len) in n.players() {
                let i = ucb(&tree.stats[start..start + len], n.visits, config.exploration);
                joint = joint * len as u64 + i as u64;
                slots[player] = Some(tree.actions[start + i].clone());
                path.push((start + i, player));
            }
            let stepped = G::play(&mut s, &slots);
            slots.iter_mut().for_each(|a| *a = None);
            if stepped.is_err() {
                path.truncate(first);
                stuck = true;
                break;
            }
            tree.nodes[node].visits += 1;
            match tree.children.get(&(node, joint)) {
                Some(&child) => node = child,
                None => {
                    tree.push_node::<G>(&s, &mut moves);
                    tree.children.insert((node, joint), tree.nodes.len() - 1);
                    break;
                }
            }
        }
        if !stuck {
            for _ in 0..config.playout_depth {
                let to_act = G::to_act(&s);
                if to_act.is_empty() {
                    break;
                }
                for p in to_act.iter() {
                    G::legal_moves(&s, p, &mut moves);
                    if !moves.is_empty() {
                        slots[p] = Some(moves.get(rng.below(moves.len())).clone());
                    }
                }
                let stepped = G::play(&mut s, &slots);
                slots.iter_mut().for_each(|a| *a = None);
                if stepped.is_err() {
                    break;
                }
            }
        }
        let rewards = match G::outcome(&s) {
            Some(outcome) => rank_rewards(&outcome),
            None => (0..players).map(|p| s.evaluate(p)).collect(),
        };
        for &(i, player) in &path {
            let stat = &mut tree.stats[i];
            stat.0 += 1;
            stat.1 += rewards[player];
        }
    }

    let tables = tree.root_tables();
    let t = &tables[mine];
    let mut best = 0;
    for i in 1..t.actions.len() {
        if t.visits[i] > t.visits[best]
            || (t.visits[i] == t.visits[best] && t.reward[i] > t.reward[best])
        {
            best = i;
        }
    }
    DuctResult {
        action: Some(t.actions[best].clone()),
        iterations,
        nodes: tree.nodes.len(),
        root: tables,
    }
}
