//! The typed API ([`Game`]) on the fast state, so a generic search runs on either twin.

use super::dice::{Dice, SearchDice};
use super::prng::RefereeDice;
use super::state::State;
use std::marker::PhantomData;
use twinsim_reference::game::{Game, Outcome, PlayerId, StepError, TurnStructure};
use twinsim_reference::olymbits as r;

/// The typed API of the fast Olymbits twin. Reference twin: [`twinsim_reference::olymbits::Olymbits`].
///
/// Same `Action` and `Params` types as the reference, the packed [`State`] as `State`
/// (compare through [`State::to_reference`]; the fast state keeps no event texts). Same
/// semantics: in [`Game::step`], `None` for an *active* player is a timeout and deactivates it
/// (§11.4); `Some` for an inactive player is refused with [`StepError::NotToAct`]; a finished
/// game gives [`StepError::GameOver`], a slice whose length is not 3
/// [`StepError::WrongArity`] (checked in that order, before anything changes). Every action of
/// an active player is legal, so [`StepError::Illegal`] never occurs. [`Game::new_game`] does
/// not refuse seed 0, like the reference's; [`State::new`] is the checked version.
pub type FastOlymbits = Typed<RefereeDice>;

/// The typed API for searches: [`FastOlymbits`] with [`SearchDice`] instead of the referee's
/// generator (same rules, different dice; [`Game::new_game`] seeds the dice with the seed).
pub type SearchOlymbits = Typed<SearchDice>;

/// The typed API over a state drawing from `D` (see [`FastOlymbits`], [`SearchOlymbits`]).
#[derive(Debug)]
pub struct Typed<D>(PhantomData<D>);

/// How a generator of the typed API is seeded by [`Game::new_game`].
pub trait SeededDice: Dice {
    /// The generator of game `seed`.
    fn from_seed(seed: i64) -> Self;
}

impl SeededDice for RefereeDice {
    fn from_seed(seed: i64) -> Self {
        RefereeDice::new(seed)
    }
}

impl SeededDice for SearchDice {
    fn from_seed(seed: i64) -> Self {
        SearchDice::new(seed)
    }
}

impl<D: SeededDice> Game for Typed<D> {
    type State = State<D>;
    type Action = r::Action;
    type Params = r::Params;

    const NAME: &'static str = "olymbits";
    const TURNS: TurnStructure = TurnStructure::Simultaneous;

    fn new_game(seed: i64, params: &r::Params) -> State<D> {
        State::with_dice(D::from_seed(seed), params)
    }

    fn num_players(_state: &State<D>) -> usize {
        r::PLAYER_COUNT
    }

    fn is_over(state: &State<D>) -> bool {
        state.is_over()
    }

    fn is_to_act(state: &State<D>, player: PlayerId) -> bool {
        !state.is_over() && player < r::PLAYER_COUNT && state.is_active(player)
    }

    fn players_to_act(state: &State<D>) -> Vec<PlayerId> {
        if state.is_over() {
            return vec![];
        }
        (0..r::PLAYER_COUNT).filter(|&i| state.is_active(i)).collect()
    }

    fn legal_actions(state: &State<D>, player: PlayerId) -> Vec<r::Action> {
        if !state.is_over() && player < r::PLAYER_COUNT && state.is_active(player) {
            r::Action::ALL.to_vec()
        } else {
            vec![]
        }
    }

    fn apply(state: &mut State<D>, actions: &[Option<r::Action>]) -> Result<(), StepError> {
        let actions: &[Option<r::Action>; r::PLAYER_COUNT] = actions.try_into().map_err(|_| {
            StepError::WrongArity { expected: r::PLAYER_COUNT, found: actions.len() }
        })?;
        state.step(actions)
    }

    fn outcome(state: &State<D>) -> Option<Outcome> {
        let reason = match state.end {
            0 => return None,
            1 => r::EndReason::TurnLimit,
            _ => r::EndReason::FewerThanTwoActivePlayers,
        };
        let scores: Vec<i64> = (0..r::PLAYER_COUNT)
            .map(|i| if state.is_active(i) { state.points(i) } else { -1 })
            .collect();
        let ranks = Outcome::ranks_from_scores(&scores);
        Some(Outcome { scores, ranks, reason: reason.trace_name().to_string() })
    }
}
