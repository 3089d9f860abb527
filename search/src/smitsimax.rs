//! Smitsimax: one tree per player for simultaneous games, as the X-mas Rush runner-up (MSmits)
//! describes it in his post-mortem.
//!
//! Unlike [`super::duct`], whose nodes are keyed by *joint* actions, each player here has a tree
//! of his **own** choices only: a node of player `p`'s tree is "the sequence of choices `p` made
//! so far", whatever the others did. In an iteration every player descends his own tree by UCB1
//! over his own statistics, the chosen actions are played together, and every player's path is
//! credited with his own reward. The trees are smaller than a joint tree (`b^d` instead of
//! `b^(k·d)` nodes), which is what let the runner-up search three push layers deep.
//!
//! Not every turn has to be a tree layer: a [`Playbook`] says at which turns a player chooses in
//! his tree ([`Playbook::chooses`], e.g. X-mas Rush's PUSH turns) and plays the other turns with
//! a cheap [`Playbook::policy`] (the runner-up's "random greedy move" between pushes: "no
//! statistics were gathered on move nodes", which he measured to be better). An iteration plays
//! [`SmitsimaxConfig::turns`] game turns (or up to the end of the game) and scores the leaf with
//! [`rank_rewards`] if the game is over, else with [`Playbook::evaluate`].
//!
//! Hidden information is handled by determinization: the search takes several root states
//! (e.g. different orders of a hidden deck) and iteration `i` starts from root `i mod n`, so the
//! statistics average over them.
//!
//! Deterministic: all randomness comes from one [`SearchRng`] seeded by the config, and a
//! node's children are tried in an order shuffled once at expansion (so that the untried-first
//! rule of UCB does not make every shallow node play the first legal action: with 28 pushes
//! and few visits deep in the tree, a fixed order would model the opponent as always pushing
//! line 0).

use super::duct::PlayerRoot;
use super::{rank_rewards, Budget, SearchRng};
use twinsim_fast::game::{MoveBuffer, SearchGame};
use twinsim_reference::game::{PlayerId, TurnStructure};

/// Game knowledge the search needs beyond the [`SearchGame`] API.
///
/// Requirement: the list [`Playbook::choices`] returns for a player at a tree layer may depend
/// on the turn and on the player's own earlier choices, but not on the other players' choices
/// or on the policy's random moves (a node stores the list of its first expansion). X-mas Rush
/// fits: below the root its tree layers are PUSH turns, always the same 28 pushes.
pub trait Playbook<G: SearchGame> {
    /// Whether `player` chooses by UCB in his tree at `state` (`at_root`: the searched turn).
    fn chooses(&self, state: &G::State, player: PlayerId, at_root: bool) -> bool;
    /// Writes his candidates there (non-empty, legal) into `out` (cleared first).
    fn choices(&self, state: &G::State, player: PlayerId, at_root: bool, out: &mut G::MoveList);
    /// His action at a turn where he does not choose in the tree.
    fn policy(&self, state: &G::State, player: PlayerId, rng: &mut SearchRng) -> G::Action;
    /// The value of an unfinished `state` for `player`, in [0, 1] (comparable with
    /// [`rank_rewards`]).
    fn evaluate(&self, state: &G::State, player: PlayerId) -> f64;
}

/// Tuning of [`search`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmitsimaxConfig {
    /// UCB exploration constant (rewards in [0, 1]).
    pub exploration: f64,
    /// Seed of the generator (child orders, policy moves, random choices below the trees).
    pub seed: i64,
    /// Game turns played per iteration before the evaluation.
    pub turns: usize,
    /// A node gets children once it has been visited this often (at least 1); below a leaf of
    /// his tree a player's choices are uniformly random. Keeps the trees from growing by a
    /// whole layer of 28 nodes per player per turn of every iteration.
    pub expand_after: u32,
}

impl Default for SmitsimaxConfig {
    fn default() -> Self {
        SmitsimaxConfig { exploration: 0.6, seed: 1, turns: 6, expand_after: 1 }
    }
}

/// What [`search`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct SmitsimaxResult<A> {
    /// The most visited root choice of the searching player (ties: higher reward sum, then
    /// the earlier child); `None` if he does not choose at the root.
    pub action: Option<A>,
    /// Iterations completed (one simultaneous descent of every tree, then the evaluation and
    /// backup), as counted by the [`Budget`].
    pub iterations: u64,
    /// Nodes in all players' trees together, roots included.
    pub nodes: usize,
    /// Root statistics of every player who chooses at the root (children in tried order).
    pub root: Vec<PlayerRoot<A>>,
}

/// One node of a player's tree: the statistics of the choice leading to it and its children
/// (contiguous in the tree's arrays).
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// Index of the first child; 0 while the node has none (node 0 is the root, never a child).
    first: u32,
    /// Number of children.
    len: u32,
    visits: u32,
    reward: f64,
}

/// One player's tree: nodes and, aligned with them, the action leading to each node.
struct Tree<A> {
    nodes: Vec<Node>,
    actions: Vec<Option<A>>,
}

impl<A: Clone> Tree<A> {
    fn new() -> Self {
        Tree { nodes: vec![Node::default()], actions: vec![None] }
    }

    /// Gives `node` the children `choices`, in an order shuffled by `rng` (Fisher-Yates on the
    /// appended children, in place).
    fn expand(&mut self, node: usize, choices: &impl MoveBuffer<A>, rng: &mut SearchRng) {
        let first = self.nodes.len();
        self.nodes[node].first = first as u32;
        self.nodes[node].len = choices.len() as u32;
        for i in 0..choices.len() {
            self.nodes.push(Node::default());
            self.actions.push(Some(choices.get(i).clone()));
        }
        let children = &mut self.actions[first..];
        for i in (1..children.len()).rev() {
            children.swap(i, rng.below(i + 1));
        }
    }

    /// UCB1 over the children of `node` (untried first, in stored order; first maximum wins).
    fn select(&self, node: usize, c: f64) -> usize {
        let n = &self.nodes[node];
        let children = &self.nodes[n.first as usize..(n.first + n.len) as usize];
        if let Some(i) = children.iter().position(|k| k.visits == 0) {
            return n.first as usize + i;
        }
        let log_n = f64::from(n.visits.max(1)).ln();
        let mut best = 0;
        let mut best_value = f64::NEG_INFINITY;
        for (i, k) in children.iter().enumerate() {
            let v = f64::from(k.visits);
            let value = k.reward / v + c * (log_n / v).sqrt();
            if value > best_value {
                best = i;
                best_value = value;
            }
        }
        n.first as usize + best
    }

    fn root_table(&self, player: PlayerId) -> PlayerRoot<A> {
        let root = self.nodes[0];
        let range = root.first as usize..(root.first + root.len) as usize;
        PlayerRoot {
            player,
            actions: self.actions[range.clone()].iter().flatten().cloned().collect(),
            visits: self.nodes[range.clone()].iter().map(|n| n.visits).collect(),
            reward: self.nodes[range].iter().map(|n| n.reward).collect(),
        }
    }
}

/// Runs Smitsimax for player `me` from the determinized `roots` (at least one; all the same
/// turn of the same game, differing only in hidden information) within `budget`. Panics if `G`
/// is not a simultaneous game or `roots` is empty.
///
/// If `me` does not choose at the root, returns `None` at once; a single candidate is returned
/// at once with zero iterations.
pub fn search<G: SearchGame, P: Playbook<G>>(
    roots: &[G::State],
    me: PlayerId,
    budget: &Budget,
    config: &SmitsimaxConfig,
    playbook: &P,
) -> SmitsimaxResult<G::Action> {
    assert_eq!(G::TURNS, TurnStructure::Simultaneous, "smitsimax is for simultaneous games");
    assert!(!roots.is_empty(), "smitsimax needs a root state");
    let first = &roots[0];
    let players = G::num_players(first);
    let mut rng = SearchRng::new(config.seed);
    let mut trees: Vec<Tree<G::Action>> = (0..players).map(|_| Tree::new()).collect();
    let root_choosers: Vec<PlayerId> =
        G::to_act(first).iter().filter(|&p| playbook.chooses(first, p, true)).collect();
    let mut choices = G::MoveList::default();
    for &p in &root_choosers {
        playbook.choices(first, p, true, &mut choices);
        trees[p].expand(0, &choices, &mut rng);
    }
    let done = |trees: &[Tree<G::Action>], iterations: u64| {
        let tables: Vec<PlayerRoot<G::Action>> =
            root_choosers.iter().map(|&p| trees[p].root_table(p)).collect();
        let action = tables.iter().find(|t| t.player == me).and_then(|t| {
            let mut best = None::<usize>;
            for i in 0..t.actions.len() {
                if best.is_none()
                    || best.is_some_and(|b| {
                        t.visits[i] > t.visits[b]
                            || (t.visits[i] == t.visits[b] && t.reward[i] > t.reward[b])
                    })
                {
                    best = Some(i);
                }
            }
            best.map(|i| t.actions[i].clone())
        });
        SmitsimaxResult {
            action,
            iterations,
            nodes: trees.iter().map(|t| t.nodes.len()).sum(),
            root: tables,
        }
    };
    if trees[me].nodes[0].len <= 1 {
        return done(&trees, 0);
    }

    let expand_after = config.expand_after.max(1);
    let mut slots: Vec<Option<G::Action>> = vec![None; players];
    // Per player: his current node (None once he is below his tree) and the nodes he visited.
    let mut cursor: Vec<Option<usize>> = vec![Some(0); players];
    let mut paths: Vec<Vec<usize>> = vec![Vec::new(); players];
    let mut iterations = 0u64;
    while !budget.exhausted(iterations) {
        let mut s = roots[(iterations % roots.len() as u64) as usize].clone();
        iterations += 1;
        cursor.iter_mut().for_each(|c| *c = Some(0));
        paths.iter_mut().for_each(Vec::clear);
        for turn in 0..config.turns {
            let to_act = G::to_act(&s);
            if to_act.is_empty() {
                break;
            }
            let at_root = turn == 0;
            for p in to_act.iter() {
                let action = if playbook.chooses(&s, p, at_root) {
                    let tree = &mut trees[p];
                    let mut node = cursor[p];
                    if let Some(n) = node {
                        if tree.nodes[n].len == 0 && tree.nodes[n].visits >= expand_after {
                            playbook.choices(&s, p, at_root, &mut choices);
                            tree.expand(n, &choices, &mut rng);
                        }
                        if tree.nodes[n].len == 0 {
                            node = None;
                        }
                    }
                    match node {
                        Some(n) => {
                            let child = tree.select(n, config.exploration);
                            paths[p].push(child);
                            cursor[p] = Some(child);
                            tree.actions[child].clone()
                        }
                        None => {
                            cursor[p] = None;
                            playbook.choices(&s, p, at_root, &mut choices);
                            (!choices.is_empty())
                                .then(|| choices.get(rng.below(choices.len())).clone())
                        }
                    }
                } else {
                    Some(playbook.policy(&s, p, &mut rng))
                };
                slots[p] = action;
            }
            let stepped = G::play(&mut s, &slots);
            slots.iter_mut().for_each(|a| *a = None);
            if stepped.is_err() {
                break;
            }
        }
        let rewards: Vec<f64> = match G::outcome(&s) {
            Some(outcome) => rank_rewards(&outcome),
            None => (0..players).map(|p| playbook.evaluate(&s, p)).collect(),
        };
        for (p, tree) in trees.iter_mut().enumerate() {
            tree.nodes[0].visits += 1;
            for &n in &paths[p] {
                let node = &mut tree.nodes[n];
                node.visits += 1;
                node.reward += rewards[p];
            }
        }
    }
    done(&trees, iterations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Evaluate;
    use twinsim_fast::olymbits::FastOlymbits;
    use twinsim_reference::game::Game;
    use twinsim_reference::olymbits::Olymbits;

    /// Olymbits as a Smitsimax game: every turn a tree layer (its four actions never depend
    /// on the others' choices), leaves scored by its [`Evaluate`].
    struct EveryTurn;

    impl<G: SearchGame> Playbook<G> for EveryTurn
    where
        G::State: Evaluate,
    {
        fn chooses(&self, _: &G::State, _: PlayerId, _: bool) -> bool {
            true
        }
        fn choices(&self, s: &G::State, p: PlayerId, _: bool, out: &mut G::MoveList) {
            G::legal_moves(s, p, out);
        }
        fn policy(&self, s: &G::State, p: PlayerId, rng: &mut SearchRng) -> G::Action {
            let mut legal = G::MoveList::default();
            G::legal_moves(s, p, &mut legal);
            legal.get(rng.below(legal.len())).clone()
        }
        fn evaluate(&self, s: &G::State, p: PlayerId) -> f64 {
            s.evaluate(p)
        }
    }

    fn position<G: SearchGame>(seed: i64, turns: usize) -> G::State {
        let mut s = G::new_game(seed, &Default::default());
        let mut rng = SearchRng::new(seed);
        for _ in 0..turns {
            let to_act = G::players_to_act(&s);
            if to_act.is_empty() {
                break;
            }
            let mut slots = vec![None; G::num_players(&s)];
            for p in to_act {
                let legal = G::legal_actions(&s, p);
                slots[p] = Some(legal[rng.below(legal.len())].clone());
            }
            G::step(&mut s, &slots).unwrap();
        }
        s
    }

    #[test]
    fn twins_agree_and_statistics_add_up() {
        for (seed, turns, me) in [(1, 0, 0), (2, 30, 1), (3, 60, 2)] {
            let r = position::<Olymbits>(seed, turns);
            let f = position::<FastOlymbits>(seed, turns);
            let cfg = SmitsimaxConfig { seed, turns: 4, ..Default::default() };
            let b = Budget::iterations(150);
            let a = search::<Olymbits, _>(std::slice::from_ref(&r), me, &b, &cfg, &EveryTurn);
            let c = search::<FastOlymbits, _>(&[f], me, &b, &cfg, &EveryTurn);
            assert_eq!(a, c, "seed {seed}");
            assert_eq!(
                a,
                search::<Olymbits, _>(std::slice::from_ref(&r), me, &b, &cfg, &EveryTurn)
            );
            assert_eq!(a.iterations, 150);
            assert!(Olymbits::legal_actions(&r, me).contains(&a.action.unwrap()));
            assert_eq!(a.root.len(), 3);
            for t in &a.root {
                assert_eq!(t.visits.iter().map(|&v| u64::from(v)).sum::<u64>(), 150);
            }
        }
    }

    #[test]
    fn trees_grow_one_layer_per_visit() {
        let f = position::<FastOlymbits>(4, 10);
        let b = Budget::iterations(100);
        let shallow = SmitsimaxConfig { turns: 6, expand_after: 1_000, ..Default::default() };
        let res = search::<FastOlymbits, _>(std::slice::from_ref(&f), 0, &b, &shallow, &EveryTurn);
        // Only the three roots were expanded (4 children each).
        assert_eq!(res.nodes, 3 * (1 + 4));
        let deep = SmitsimaxConfig { turns: 6, ..Default::default() };
        let res = search::<FastOlymbits, _>(&[f], 0, &b, &deep, &EveryTurn);
        // At most one new layer per player and iteration.
        assert!(res.nodes > 15 && res.nodes <= 3 * (5 + 100 * 4), "{}", res.nodes);
    }

    #[test]
    fn finished_game_has_no_answer() {
        let over = position::<FastOlymbits>(5, 200);
        assert!(FastOlymbits::players_to_act(&over).is_empty());
        let res = search::<FastOlymbits, _>(
            &[over],
            0,
            &Budget::iterations(50),
            &SmitsimaxConfig::default(),
            &EveryTurn,
        );
        assert_eq!((res.action, res.iterations), (None, 0));
    }
}
