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
use reference::game::{Game, PlayerId, TurnStructure};
use std::collections::HashMap;

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

/// One player's root statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRoot<A> {
    /// The player.
    pub player: PlayerId,
    /// Its legal actions, in `legal_actions` order.
    pub actions: Vec<A>,
    /// Iterations per action.
    pub visits: Vec<u32>,
    /// Reward sums per action.
    pub reward: Vec<f64>,
}

/// What [`search`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct DuctResult<A> {
    /// The most visited root action of the searching player (ties: higher reward, then
    /// first); `None` if it is not to act.
    pub action: Option<A>,
    /// Iterations done.
    pub iterations: u64,
    /// Tree nodes.
    pub nodes: usize,
    /// Root statistics of every player to act.
    pub root: Vec<PlayerRoot<A>>,
}

struct Node<A> {
    visits: u32,
    tables: Vec<PlayerRoot<A>>,
    /// Joint choice (mixed-radix index over the tables) → child node.
    children: HashMap<u64, usize>,
}

fn new_node<G: Game>(state: &G::State) -> Node<G::Action> {
    let tables = G::players_to_act(state)
        .into_iter()
        .map(|player| {
            let actions = G::legal_actions(state, player);
            let n = actions.len();
            PlayerRoot { player, actions, visits: vec![0; n], reward: vec![0.0; n] }
        })
        .filter(|t| !t.actions.is_empty())
        .collect();
    Node { visits: 0, tables, children: HashMap::new() }
}

fn ucb(table: &PlayerRoot<impl Sized>, parent_visits: u32, c: f64) -> usize {
    if let Some(i) = table.visits.iter().position(|&v| v == 0) {
        return i;
    }
    let log_n = f64::from(parent_visits.max(1)).ln();
    let mut best = 0;
    let mut best_value = f64::NEG_INFINITY;
    for i in 0..table.visits.len() {
        let n = f64::from(table.visits[i]);
        let value = table.reward[i] / n + c * (log_n / n).sqrt();
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
pub fn search<G: Game>(
    state: &G::State,
    me: PlayerId,
    budget: &Budget,
    config: &DuctConfig,
) -> DuctResult<G::Action>
where
    G::State: Evaluate,
{
    assert_eq!(G::TURNS, TurnStructure::Simultaneous, "duct::search is for simultaneous games");
    let root_node = new_node::<G>(state);
    let mine = root_node.tables.iter().position(|t| t.player == me);
    let Some(mine) = mine.filter(|&i| root_node.tables[i].actions.len() > 1) else {
        return DuctResult {
            action: mine.map(|i| root_node.tables[i].actions[0].clone()),
            iterations: 0,
            nodes: 1,
            root: root_node.tables,
        };
    };
    let players = G::num_players(state);
    let mut rng = SearchRng::new(config.seed);
    let mut nodes = vec![root_node];
    let mut slots: Vec<Option<G::Action>> = vec![None; players];
    let mut path: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut iterations = 0u64;

    while !budget.exhausted(iterations) {
        iterations += 1;
        path.clear();
        let mut s = state.clone();
        let mut node = 0usize;
        let mut stuck = false;
        for _ in 0..MAX_DEPTH {
            let n = &nodes[node];
            if n.tables.is_empty() {
                break;
            }
            let mut joint = 0u64;
            let mut choices = Vec::with_capacity(n.tables.len());
            for t in &n.tables {
                let i = ucb(t, n.visits, config.exploration);
                joint = joint * t.actions.len() as u64 + i as u64;
                slots[t.player] = Some(t.actions[i].clone());
                choices.push(i);
            }
            let stepped = G::step(&mut s, &slots);
            slots.iter_mut().for_each(|a| *a = None);
            if stepped.is_err() {
                stuck = true;
                break;
            }
            path.push((node, choices));
            match nodes[node].children.get(&joint) {
                Some(&child) => node = child,
                None => {
                    nodes.push(new_node::<G>(&s));
                    let child = nodes.len() - 1;
                    nodes[node].children.insert(joint, child);
                    break;
                }
            }
        }
        if !stuck {
            for _ in 0..config.playout_depth {
                let to_act = G::players_to_act(&s);
                if to_act.is_empty() {
                    break;
                }
                for &p in &to_act {
                    let legal = G::legal_actions(&s, p);
                    if !legal.is_empty() {
                        slots[p] = Some(legal[rng.below(legal.len())].clone());
                    }
                }
                let stepped = G::step(&mut s, &slots);
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
        for (n, choices) in &path {
            let node = &mut nodes[*n];
            node.visits += 1;
            for (t, &i) in node.tables.iter_mut().zip(choices) {
                t.visits[i] += 1;
                t.reward[i] += rewards[t.player];
            }
        }
    }

    let root = nodes.swap_remove(0);
    let t = &root.tables[mine];
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
        nodes: nodes.len() + 1,
        root: root.tables,
    }
}
