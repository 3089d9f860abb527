//! Beam search over one player's plan for a *stage* of the game (for Photosynthesis: a day's
//! actions), generic over [`SearchGame`].
//!
//! This is the search of the Photosynthesis Legend post-mortem
//! (`postmortems/photosynthesis-legend.txt`): "a beam over ACTIONS instead of DAYS", each layer
//! ranked by "a cheaper heuristic state evaluation", and "a more expensive playout policy for
//! the final layer to select the best action".
//!
//! - Layer `k` holds the states reached by `k` actions of the searching player within the
//!   root's stage. Expanding a state steps every legal action of the player, the other players
//!   to act answering with the caller's `opponent` policy.
//! - A child that leaves the stage (for Photosynthesis: the WAIT that ends the day) or ends the
//!   game closes a plan: it is scored by [`BeamEvaluate::plan_value`] (the expensive final
//!   evaluation) and competes for the answer. Any other child is ranked by the cheap
//!   [`BeamEvaluate::heuristic`]; the best `width` distinct ones (by [`SearchGame::hash`]: action orders
//!   that transpose are kept once) form the next layer.
//! - Widths grow geometrically from pass to pass (iterative widening): the first pass is
//!   narrow, so an answer exists almost at once, and every later pass looks at more plans. The
//!   answer is the first action of the best plan scored in *any* pass: all plans are scored by
//!   the same function, so a plan from an interrupted pass is as good a candidate as any. A
//!   pass that never had to cut a layer saw every plan; widening stops there, and after the
//!   pass of [`BeamConfig::max_width`]. So an iteration budget is a maximum: a search that has
//!   seen everything it would look at stops early (the same way on both twins).
//! - Each layer is expanded best first, so an interrupted pass has looked at its most promising
//!   states.
//!
//! One iteration is one generated child (one `step`). The budget is checked before each, so
//! a deadline interrupts a pass in the middle of a layer. Everything is deterministic given the
//! budget: layers are ranked by (heuristic, generation order) and `legal_actions` order decides
//! ties, so both twins of a game make the same choices from the same position.

use super::Budget;
use std::collections::HashSet;
use twinsim_fast::game::{MoveBuffer, Players, SearchGame};
use twinsim_reference::game::PlayerId;

/// The two evaluations of [`search`], for the searching `player` (higher is better).
pub trait BeamEvaluate {
    /// Cheap value ranking the states of one layer (all reached by the same number of actions).
    fn heuristic(&self, player: PlayerId) -> f64;
    /// Value of a state where a plan ends (the stage is over, or the game is).
    fn plan_value(&self, player: PlayerId) -> f64;
    /// The stage a state belongs to; a plan ends at the first state whose stage differs from
    /// the root's (for Photosynthesis: the day).
    fn stage(&self) -> u32;
}

/// Tuning of [`search`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeamConfig {
    /// Width of the first pass: the number of states kept per layer (≥ 1). Each later pass
    /// restarts from the root, `growth` times wider.
    pub initial_width: usize,
    /// Width factor from one pass to the next (≥ 2).
    pub growth: usize,
    /// Widest pass: passes stop growing at this width (and repeat it until the budget ends).
    pub max_width: usize,
    /// Most actions in a plan (the plan is closed by force after that many).
    pub max_depth: usize,
}

impl Default for BeamConfig {
    fn default() -> Self {
        BeamConfig { initial_width: 4, growth: 2, max_width: 4096, max_depth: 24 }
    }
}

/// What [`search`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct BeamResult<A> {
    /// The first action of the best plan (`None` if the player is not to act).
    pub action: Option<A>,
    /// The best plan, first action first (its last action closes it).
    pub plan: Vec<A>,
    /// Its [`BeamEvaluate::plan_value`].
    pub value: f64,
    /// Children generated, i.e. calls to `SearchGame::play`, over all passes: the unit the
    /// [`Budget`] counts.
    pub iterations: u64,
    /// Plans scored by [`BeamEvaluate::plan_value`] (children that close a plan).
    pub plans: u64,
    /// Passes started (the last may be incomplete).
    pub passes: u32,
    /// Width of the last pass started.
    pub width: usize,
}

/// A candidate of the next layer: (heuristic, generation order, node).
type Ranked<G> = (f64, usize, Node<G>);

/// The layer order of a candidate `(heuristic, generation order, node)`: higher heuristic
/// first, then earlier generated (a total order, so the kept set and its order do not depend on
/// how the selection is done).
pub(crate) fn rank<N>(a: &(f64, usize, N), b: &(f64, usize, N)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
}

/// Keeps the best `width` candidates of a layer (by [`rank`]) once it holds more than `limit`;
/// whether it cut any. With `limit = 2 * width - 1` while a layer grows, it stays bounded
/// (memory, and the time to drop it when the clock stops a pass): the best `width` so far are a
/// superset of the best `width` at the end, whatever comes next.
pub(crate) fn keep_best<N>(layer: &mut Vec<(f64, usize, N)>, width: usize, limit: usize) -> bool {
    if layer.len() <= limit {
        return false;
    }
    layer.select_nth_unstable_by(width - 1, rank);
    layer.truncate(width);
    true
}

/// A state of a layer with the plan that reached it.
struct Node<G: SearchGame> {
    state: G::State,
    plan: Vec<G::Action>,
}

/// Writes into `slots` (one per player, all `None` on entry and on return of the caller) the
/// joint action where `player` plays `action` and every other player to act plays
/// `opponent(state, p)`.
fn joint<G: SearchGame>(
    slots: &mut [Option<G::Action>],
    state: &G::State,
    to_act: Players,
    player: PlayerId,
    action: &G::Action,
    opponent: &impl Fn(&G::State, PlayerId) -> Option<G::Action>,
) {
    for p in to_act.iter() {
        slots[p] = if p == player { Some(action.clone()) } else { opponent(state, p) };
    }
}

/// Beam search of `player`'s plan for the root's stage (see the module documentation).
/// `opponent(state, p)` is the action of another player `p` to act (the opponent model).
pub fn search<G: SearchGame>(
    root: &G::State,
    player: PlayerId,
    budget: &Budget,
    config: &BeamConfig,
    opponent: impl Fn(&G::State, PlayerId) -> Option<G::Action>,
) -> BeamResult<G::Action>
where
    G::State: BeamEvaluate,
{
    let mut best: Option<(f64, Vec<G::Action>)> = None;
    let mut iterations = 0u64;
    let mut plans = 0u64;
    let mut passes = 0u32;
    let mut width = config.initial_width.max(1);
    if !G::to_act(root).contains(player) {
        return BeamResult {
            action: None,
            plan: vec![],
            value: 0.0,
            iterations,
            plans,
            passes,
            width: 0,
        };
    }
    let stage = root.stage();
    let mut moves = G::MoveList::default();
    let mut slots: Vec<Option<G::Action>> = vec![None; G::num_players(root)];
    'passes: loop {
        passes += 1;
        let mut cut = false;
        let mut layer: Vec<Node<G>> = vec![Node { state: root.clone(), plan: vec![] }];
        for depth in 0..config.max_depth.max(1) {
            if layer.is_empty() {
                break;
            }
            let last = depth + 1 == config.max_depth.max(1);
            let mut next: Vec<Ranked<G>> = vec![];
            let mut seen: HashSet<u64> = HashSet::new();
            let mut order = 0usize;
            for node in &layer {
                let to_act = G::to_act(&node.state);
                G::legal_moves(&node.state, player, &mut moves);
                for i in 0..moves.len() {
                    if budget.exhausted(iterations) {
                        break 'passes;
                    }
                    iterations += 1;
                    let action = moves.get(i);
                    let mut child = node.state.clone();
                    joint::<G>(&mut slots, &node.state, to_act, player, action, &opponent);
                    let played = G::play(&mut child, &slots);
                    slots.iter_mut().for_each(|a| *a = None);
                    if played.is_err() {
                        continue; // cannot happen with legal actions; never answered
                    }
                    let mut plan = node.plan.clone();
                    plan.push(action.clone());
                    let closed = child.stage() != stage
                        || G::outcome(&child).is_some()
                        || !G::to_act(&child).contains(player);
                    if closed || last {
                        plans += 1;
                        let value = child.plan_value(player);
                        if best.is_none() || best.as_ref().is_some_and(|(v, _)| value > *v) {
                            best = Some((value, plan));
                        }
                    } else if seen.insert(G::hash(&child)) {
                        next.push((child.heuristic(player), order, Node { state: child, plan }));
                        order += 1;
                        cut |= keep_best(&mut next, width, 2 * width - 1);
                    }
                }
            }
            cut |= keep_best(&mut next, width, width);
            // Expansion order of the next layer: best first (so an interrupted pass has
            // expanded the most promising states).
            next.sort_by(rank);
            layer = next.into_iter().map(|(_, _, n)| n).collect();
        }
        if !cut || width >= config.max_width {
            break;
        }
        width = (width * config.growth.max(2)).min(config.max_width);
    }
    let (value, plan) = best.unwrap_or((f64::NEG_INFINITY, vec![]));
    BeamResult { action: plan.first().cloned(), plan, value, iterations, plans, passes, width }
}
