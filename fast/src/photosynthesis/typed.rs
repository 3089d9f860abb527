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
    fn apply(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        // Validated once, here: the frame resolves these effects without validating again.
        let mut effects = [Err(None), Err(None)];
        for (player, action) in actions.iter().enumerate() {
            if let Some(a) = *action {
                if !state.enabled(a) {
                    let reason =
                        format!("{a} is not a command of league {} (§6.2, §10)", state.league);
                    return Err(StepError::Illegal { player, error: IllegalAction { reason } });
                }
                let effect = state.validate(player, a, state.sun[player]).map_err(|e| {
                    StepError::Illegal { player, error: IllegalAction { reason: e.message() } }
                })?;
                effects[player] = Ok(effect);
            }
        }
        // An asked player without an action times out (§6.1 step 3).
        let answered = [actions[0].is_some(), actions[1].is_some()];
        state.play_quiet(answered, effects, None);
        Ok(())
    }
    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome()
    }
}
