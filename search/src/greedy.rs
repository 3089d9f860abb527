//! One ply of lookahead on the [`SearchGame`] API, scored by each game's typed evaluation: the
//! arena's `builtin:greedy` baseline.
//!
//! Every legal action of the player is played, the other players to act answering with their
//! first legal action (a fixed, dumb opponent model: the greedy player is a baseline, not a
//! search), and the position reached is scored: a finished game by its ranks (a win beats any
//! evaluation, a loss is below any), an unfinished one by [`GreedyValue`], which reuses the
//! evaluation each game's search already has. Ties are broken uniformly at random.

use super::alphabeta::Heuristic;
use super::beam::BeamEvaluate;
use super::{rank_rewards, Evaluate, SearchRng};
use twinsim_fast::game::{MoveBuffer, SearchGame};
use twinsim_reference::game::PlayerId;

/// The greedy player's value of an unfinished position for `player` (higher is better). Must
/// stay well inside `±WIN_VALUE`.
pub trait GreedyValue {
    /// The value for `player`.
    fn greedy_value(&self, player: PlayerId) -> f64;
}

/// A finished game's value for the winner (the loser gets its opposite, a tie 0).
pub const WIN_VALUE: f64 = 1e6;

/// The value for `player` of `state` as the greedy player sees it.
pub fn value<G: SearchGame>(state: &G::State, player: PlayerId) -> f64
where
    G::State: GreedyValue,
{
    match G::outcome(state) {
        Some(outcome) => {
            let reward = rank_rewards(&outcome).get(player).copied().unwrap_or(0.5);
            if reward > 0.5 {
                WIN_VALUE
            } else if reward < 0.5 {
                -WIN_VALUE
            } else {
                0.0
            }
        }
        None => state.greedy_value(player),
    }
}

/// `player`'s greedy action in `state` (see the module documentation), `None` if the player is
/// not to act. Allocates nothing but the joint action's slots.
pub fn choose<G: SearchGame>(
    state: &G::State,
    player: PlayerId,
    rng: &mut SearchRng,
) -> Option<G::Action>
where
    G::State: GreedyValue,
{
    let to_act = G::to_act(state);
    if !to_act.contains(player) {
        return None;
    }
    let mut slots: Vec<Option<G::Action>> = vec![None; G::num_players(state)];
    let mut moves = G::MoveList::default();
    for p in to_act.iter().filter(|&p| p != player) {
        G::legal_moves(state, p, &mut moves);
        slots[p] = (!moves.is_empty()).then(|| moves.get(0).clone());
    }
    G::legal_moves(state, player, &mut moves);
    let mut best: Option<(f64, usize)> = None;
    let mut ties = 0;
    for i in 0..moves.len() {
        let mut child = state.clone();
        slots[player] = Some(moves.get(i).clone());
        if G::play(&mut child, &slots).is_err() {
            continue; // a listed action is legal; never answer one that is not
        }
        let v = value::<G>(&child, player);
        match best {
            Some((b, _)) if v < b => {}
            // Reservoir sampling over the tied best: each is kept with equal probability.
            Some((b, _)) if v == b => {
                ties += 1;
                if rng.below(ties) == 0 {
                    best = Some((v, i));
                }
            }
            _ => {
                best = Some((v, i));
                ties = 1;
            }
        }
    }
    best.map(|(_, i)| moves.get(i).clone())
}

/// Zuniq has no score before its end (§7): the greedy player only sees wins and losses one ply
/// ahead and otherwise plays at random among the legal walls.
impl GreedyValue for twinsim_reference::zuniq::State {
    fn greedy_value(&self, _: PlayerId) -> f64 {
        0.0
    }
}

/// As the reference: no score before the end.
impl GreedyValue for twinsim_fast::zuniq::State {
    fn greedy_value(&self, _: PlayerId) -> f64 {
        0.0
    }
}

/// The smitsimax leaf evaluation ([`Evaluate`]: the smoothed medal points' share).
impl GreedyValue for twinsim_reference::olymbits::State {
    fn greedy_value(&self, player: PlayerId) -> f64 {
        self.evaluate(player)
    }
}

/// The same evaluation on the fast state (either dice).
impl<D> GreedyValue for twinsim_fast::olymbits::State<D> {
    fn greedy_value(&self, player: PlayerId) -> f64 {
        self.evaluate(player)
    }
}

/// The beam's layer heuristic ([`BeamEvaluate::heuristic`]): it ranks states reached by the
/// same number of actions, which is what one ply compares.
impl GreedyValue for twinsim_reference::photosynthesis::State {
    fn greedy_value(&self, player: PlayerId) -> f64 {
        self.heuristic(player)
    }
}

/// The same heuristic on the fast state.
impl GreedyValue for twinsim_fast::photosynthesis::State {
    fn greedy_value(&self, player: PlayerId) -> f64 {
        self.heuristic(player)
    }
}

/// The alpha-beta leaf evaluation ([`Heuristic`]: the runner-up's Voronoi evaluation).
#[cfg(feature = "reference-twin")]
impl GreedyValue for twinsim_reference::wondev_woman::State {
    fn greedy_value(&self, player: PlayerId) -> f64 {
        f64::from(Heuristic::heuristic(self, player))
    }
}

/// The same evaluation on bitboards.
impl GreedyValue for twinsim_fast::wondev_woman::State {
    fn greedy_value(&self, player: PlayerId) -> f64 {
        f64::from(Heuristic::heuristic(self, player))
    }
}

/// The smitsimax leaf evaluation ([`super::xmas_rush::value`]: a logistic of the quest
/// standings).
impl GreedyValue for twinsim_reference::xmas_rush::State {
    fn greedy_value(&self, player: PlayerId) -> f64 {
        super::xmas_rush::value(self, player)
    }
}

/// The same evaluation on the packed state.
impl GreedyValue for twinsim_fast::xmas_rush::State {
    fn greedy_value(&self, player: PlayerId) -> f64 {
        super::xmas_rush::value(self, player)
    }
}
