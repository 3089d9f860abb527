//! Generic searches written once against the allocation-free
//! [`SearchGame`](twinsim_fast::game::SearchGame) API, so the same code runs on the readable
//! reference engine and on its fast twin (groundwork for issue 15).
//!
//! # Design
//!
//! - A search is a plain function `search::<G>(state, budget, config)`, generic over
//!   `G: SearchGame`. It only calls `to_act` (a bit set), `legal_moves` (into a fixed-capacity
//!   list the search owns and refills), `play`, `outcome` and `hash` (the transposition key of
//!   [`mcts`], [`alphabeta`] and [`beam`], the same on both twins by the trait's contract),
//!   plus at most one small per-state trait such as [`Evaluate`] (the leaf evaluation of
//!   [`duct`]). Those traits are implemented here for both twins' state types, so
//!   a game's twins are interchangeable type parameters. No search builds a `Vec` of legal
//!   moves or of players per node: the lists are reused, and the trees of [`mcts`] and [`duct`]
//!   keep their nodes' actions in flat arenas.
//! - All randomness comes from one [`SearchRng`] (Java's LCG, [`JavaRandom`]) seeded by the
//!   caller, and every choice is deterministic given the seed (ties go to the first action in
//!   `legal_actions` order). Since the twins are exact (same legal action lists in the same
//!   order, same successors, same outcomes) and the keys/evaluations below are computed from
//!   the same integers with the same float operations, **the same seed and iteration budget
//!   give the same action and the same statistics on both twins**. The tests check this; it is
//!   what makes a reference-vs-fast payoff table a pure measure of speed.
//! - A [`Budget`] bounds the work: an iteration count (deterministic: tests, tables), a
//!   wall-clock deadline (bots), or both (whichever comes first).
//! - Rewards of finished games are rank-based ([`rank_rewards`]): 1 for beating every other
//!   player, 0 for losing to all, ties count one half; so rewards lie in [0, 1] for any number
//!   of players, and UCB's exploration constant has one scale for every game.

#![cfg_attr(not(feature = "builtin"), allow(unused_imports))] // what only `player` (the arena's dispatch) uses
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod alphabeta;
pub mod beam;
pub mod bot;
pub mod duct;
pub mod greedy;
pub mod mcts;
pub mod pace;
pub mod smitsimax;
pub mod stdio;

pub mod olymbits;
pub mod photosynthesis;
pub mod photosynthesis_days;
pub mod wondev_woman;
pub mod xmas_rush;
pub mod zuniq;
pub mod zuniq_mcts;
pub mod zuniq_solver;

use std::time::Instant;
use twinsim_reference::game::{Outcome, PlayerId};
use twinsim_reference::java_random::JavaRandom;

/// How much work a search may do: at most `iterations` iterations and/or until `deadline`.
/// With neither, a search does exactly one iteration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Maximum number of iterations (deterministic budget).
    pub iterations: Option<u64>,
    /// Wall-clock deadline (bot budget); checked before every iteration.
    pub deadline: Option<Instant>,
}

impl Budget {
    /// Exactly `n` iterations (no clock).
    pub fn iterations(n: u64) -> Budget {
        Budget { iterations: Some(n), deadline: None }
    }

    /// Until `deadline` (at least one iteration).
    pub fn until(deadline: Instant) -> Budget {
        Budget { iterations: None, deadline: Some(deadline) }
    }

    /// Whether a search that has done `done` iterations must stop now.
    pub fn exhausted(&self, done: u64) -> bool {
        if let Some(n) = self.iterations {
            if done >= n {
                return true;
            }
        }
        match self.deadline {
            Some(deadline) => {
                let passed = done > 0 && Instant::now() >= deadline;
                if passed {
                    pace::deadline_reached(deadline);
                }
                passed
            }
            None => self.iterations.is_none() && done >= 1,
        }
    }
}

/// The searches' deterministic generator: `java.util.Random` (the crate's [`JavaRandom`]).
#[derive(Clone, Debug)]
pub struct SearchRng(pub JavaRandom);

impl SearchRng {
    /// `new Random(seed)`.
    pub fn new(seed: i64) -> SearchRng {
        SearchRng(JavaRandom::new(seed))
    }

    /// Uniform in `0..n` (`n > 0`, below 2³¹).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.next_below(n as i32) as usize
    }
}

/// Rank-based rewards in [0, 1] of a finished game: for each player, the fraction of the other
/// players it ranks above, ties counting one half.
pub fn rank_rewards(outcome: &Outcome) -> Vec<f64> {
    let n = outcome.ranks.len();
    if n < 2 {
        return vec![1.0; n];
    }
    (0..n)
        .map(|p| {
            let mut won = 0.0;
            for q in (0..n).filter(|&q| q != p) {
                if outcome.ranks[q] > outcome.ranks[p] {
                    won += 1.0;
                } else if outcome.ranks[q] == outcome.ranks[p] {
                    won += 0.5;
                }
            }
            won / (n - 1) as f64
        })
        .collect()
}

/// A twin's state built from the reference state a bot rebuilt from its views: the bots parse
/// and determinize once, on the readable reference types, then search on either twin.
pub trait FromReference<R>: Sized {
    /// The same position on this twin.
    fn from_reference(state: &R) -> Self;
}

/// The reference searches its own state.
impl<R: Clone> FromReference<R> for R {
    fn from_reference(state: &R) -> Self {
        state.clone()
    }
}

/// The fast twins convert through their `From<&reference state>`.
macro_rules! fast_from_reference {
    ($($game:ident),*) => {$(
        impl FromReference<twinsim_reference::$game::State> for twinsim_fast::$game::State {
            fn from_reference(state: &twinsim_reference::$game::State) -> Self {
                twinsim_fast::$game::State::from(state)
            }
        }
    )*};
}

fast_from_reference!(zuniq, olymbits, wondev_woman);

/// Olymbits in search mode: the same position with [`twinsim_fast::olymbits::SearchDice`] seeded
/// from the reference state's generator (the bots reseed it with their own seed every turn), so
/// the search's futures follow the bot's seed as on the exact twins.
impl FromReference<twinsim_reference::olymbits::State>
    for twinsim_fast::olymbits::State<twinsim_fast::olymbits::SearchDice>
{
    fn from_reference(state: &twinsim_reference::olymbits::State) -> Self {
        let seed = state.rng.clone().next_long();
        twinsim_fast::olymbits::State::from(state)
            .with_search_dice(twinsim_fast::olymbits::SearchDice::new(seed))
    }
}

/// A heuristic value of a (possibly unfinished) state for `player`, in [0, 1], comparable with
/// [`rank_rewards`] (higher is better). Used at the leaves of [`duct`]'s depth-limited playouts.
pub trait Evaluate {
    /// The value for `player`.
    fn evaluate(&self, player: PlayerId) -> f64;
}

/// Olymbits (§8.4 points = product over mini-games of `3·gold + silver`): each player's
/// smoothed points `∏ (3·gold + silver + 1)` (so one missing medal type does not zero the
/// product) as a share of the three players' sum. `medals(player, game)` gives (gold, silver).
fn olymbits_share(
    nb_games: usize,
    medals: impl Fn(usize, usize) -> (u32, u32),
    player: PlayerId,
) -> f64 {
    let smoothed = |p: usize| -> f64 {
        (0..nb_games)
            .map(|g| {
                let (gold, silver) = medals(p, g);
                f64::from(3 * gold + silver + 1)
            })
            .product()
    };
    let values = [smoothed(0), smoothed(1), smoothed(2)];
    values[player] / (values[0] + values[1] + values[2])
}

/// Olymbits, reference state: `olymbits_share` over its medal vectors.
impl Evaluate for twinsim_reference::olymbits::State {
    fn evaluate(&self, player: PlayerId) -> f64 {
        olymbits_share(self.nb_games(), |p, g| (self.medals[p][g][0], self.medals[p][g][1]), player)
    }
}

/// Olymbits, fast state (exact or search dice): the same formula over its public medal table
/// (no conversion needed).
impl<D> Evaluate for twinsim_fast::olymbits::State<D> {
    fn evaluate(&self, player: PlayerId) -> f64 {
        olymbits_share(
            self.nb_games as usize,
            |p, g| (u32::from(self.medals[p][g][0]), u32::from(self.medals[p][g][1])),
            player,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twinsim_fast::game::SearchGame;
    use twinsim_reference::game::Game;

    #[test]
    fn rank_rewards_win_loss_tie() {
        let o = |ranks: Vec<usize>| Outcome { scores: vec![], ranks, reason: String::new() };
        assert_eq!(rank_rewards(&o(vec![1, 2])), vec![1.0, 0.0]);
        assert_eq!(rank_rewards(&o(vec![1, 1])), vec![0.5, 0.5]);
        assert_eq!(rank_rewards(&o(vec![2, 1, 3])), vec![0.5, 1.0, 0.0]);
    }

    #[test]
    fn budget_counts_iterations() {
        let b = Budget::iterations(3);
        assert!(!b.exhausted(2));
        assert!(b.exhausted(3));
        assert!(!Budget::default().exhausted(0));
        assert!(Budget::default().exhausted(1));
    }

    #[test]
    fn zuniq_keys_agree_between_twins() {
        use twinsim_fast::zuniq::FastZuniq;
        use twinsim_reference::zuniq::Zuniq;
        let mut r = Zuniq::new_game(0, &Default::default());
        let mut f = FastZuniq::new_game(0, &Default::default());
        let mut rng = SearchRng::new(7);
        while let Some(&p) = Zuniq::players_to_act(&r).first() {
            assert_eq!(Zuniq::hash(&r), FastZuniq::hash(&f));
            let legal = Zuniq::legal_actions(&r, p);
            let a = legal[rng.below(legal.len())];
            let mut acts = [None, None];
            acts[p] = Some(a);
            Zuniq::step(&mut r, &acts).unwrap();
            FastZuniq::step(&mut f, &acts).unwrap();
        }
        assert_eq!(Zuniq::hash(&r), FastZuniq::hash(&f));
    }
}
