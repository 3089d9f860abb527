//! The typed API ([`Game`]) on the fast state.

use super::*;
use twinsim_reference::game::{Game, IllegalAction, Outcome, PlayerId, StepError, TurnStructure};
use twinsim_reference::photosynthesis::{Action, Params};

/// The fast game through the shared typed API (twin: `twinsim_reference::photosynthesis::Photosynthesis`).
#[derive(Clone, Copy, Debug, Default)]
pub struct FastPhotosynthesis;

impl Game for FastPhotosynthesis {
    type State = State;
    type Action = Action;
    type Params = Params;
    const NAME: &'static str = "photosynthesis";
    const TURNS: TurnStructure = TurnStructure::Simultaneous;

    fn new_game(seed: i64, params: &Params) -> State {
        State::new_game(seed, *params, None)
    }
    fn num_players(_: &State) -> usize {
        2
    }
    fn is_over(state: &State) -> bool {
        state.game_over()
    }
    fn is_to_act(state: &State, player: PlayerId) -> bool {
        state.is_asked(player)
    }
    fn players_to_act(state: &State) -> Vec<PlayerId> {
        (0..2).filter(|&p| state.is_asked(p)).collect()
    }
    fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
        let mut list = CompactMoves::default();
        state.legal_moves(player, &mut list);
        list.as_slice().iter().map(|m| m.action()).collect()
    }
    // The provided `step` (the shared `check_turn`, then `apply`) written out for two seats:
    // the same checks in the same order, the same errors (tests/all/photosynthesis_typed.rs
    // steps both against the reference's provided `step`, refusals included), without the
    // generic checks' calls and loops (twinsim bench photosynthesis --instructions: step
    // 826 -> 769).
    fn step(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        if state.game_over() {
            return Err(StepError::GameOver);
        }
        let Ok(actions) = <&[Option<Action>; 2]>::try_from(actions) else {
            return Err(StepError::WrongArity { expected: 2, found: actions.len() });
        };
        for player in 0..2 {
            if actions[player].is_some() && !state.is_asked(player) {
                return Err(StepError::NotToAct { player });
            }
        }
        resolve(state, actions)
    }
    fn apply(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        resolve(state, &[actions[0], actions[1]])
    }
    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome()
    }
}

/// [`Game::apply`] on a turn the shared checks accepted: validates both actions, then plays
/// the frame on the effects found (validated once, here: the frame does not validate again).
#[inline(always)]
fn resolve(state: &mut State, actions: &[Option<Action>; 2]) -> Result<(), StepError> {
    let mut effects = [Effect::Wait; 2];
    for player in 0..2 {
        if let Some(a) = actions[player] {
            if !state.enabled(a) {
                return Err(refused(player, Refusal::League(a, state.league)));
            }
            match state.validate(player, a, state.sun[player]) {
                Ok(effect) => effects[player] = effect,
                Err(invalid) => return Err(refused(player, Refusal::Rules(invalid))),
            }
        }
    }
    // An asked player without an action times out (§6.1 step 3).
    let answered = [actions[0].is_some(), actions[1].is_some()];
    state.play_quiet(answered, effects, None);
    Ok(())
}

/// Why [`resolve`] refused an action.
enum Refusal {
    /// The league lacks the command (§6.2, §10).
    League(Action, u8),
    /// The rules refuse it (§6.3).
    Rules(Invalid),
}

/// The error of a refused action, with the referee's message: out of the step's path (the
/// message is a formatted string).
#[cold]
#[inline(never)]
fn refused(player: PlayerId, why: Refusal) -> StepError {
    let reason = match why {
        Refusal::League(a, league) => {
            format!("{a} is not a command of league {league} (§6.2, §10)")
        }
        Refusal::Rules(invalid) => invalid.message(),
    };
    StepError::Illegal { player, error: IllegalAction { reason } }
}
