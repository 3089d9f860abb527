//! The fast twin through the shared typed API ([`twinsim_reference::game::Game`]): the fast state
//! as `State`, the reference's own `Action` and `Params` (actions convert from the compact
//! [`Mv`](super::movegen::Mv) at the boundary), the reference's step contract.

use super::board::{State, NONE};
use super::movegen::{apply_record, kill, legal, pass_turn, MoveList};
use super::play;
use twinsim_reference::game::{Game, IllegalAction, Outcome, PlayerId, StepError, TurnStructure};
use twinsim_reference::wondev_woman::state::{Action, Elimination, Kind, Params, Reason};

/// The fast game through the shared typed API (twin:
/// [`twinsim_reference::wondev_woman::WondevWoman`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FastWondevWoman;

/// The number of units `player` has (twin: `state.units[player].len()`).
fn unit_count(s: &State, player: usize) -> usize {
    s.units[player * 2..player * 2 + 2].iter().filter(|&&u| u != NONE).count()
}

/// §8 ranking (`getScore`): in version 0, -1 eliminated, 1 won, else 0; otherwise the points
/// (twin: `rules::final_scores`).
pub(super) fn final_scores(s: &State) -> [i32; 2] {
    if s.league.win_on_max_height() {
        [0, 1].map(|p| {
            if s.dead[p] {
                -1
            } else if s.won[p] {
                1
            } else {
                0
            }
        })
    } else {
        s.scores
    }
}

impl Game for FastWondevWoman {
    type State = State;
    type Action = Action;
    type Params = Params;

    const NAME: &'static str = "wondev-woman";
    const TURNS: TurnStructure = TurnStructure::Alternating;

    /// §2: the bit-set setup, [`super::setup::new_game`] (twin: `WondevWoman::new_game`).
    fn new_game(seed: i64, params: &Params) -> State {
        State::new_game(seed, params)
    }

    fn num_players(_state: &State) -> usize {
        2
    }

    fn is_over(state: &State) -> bool {
        state.game_over
    }

    fn is_to_act(state: &State, player: PlayerId) -> bool {
        !state.game_over && state.to_move as usize == player
    }

    /// §3: the player to move, none once the game is over (twin: `WondevWoman::players_to_act`).
    fn players_to_act(state: &State) -> Vec<PlayerId> {
        if state.game_over || state.to_move > 1 {
            vec![]
        } else {
            vec![state.to_move as usize]
        }
    }

    /// §9: the referee's sorted legal list, or only `ACCEPT-DEFEAT` for a stuck player (twin:
    /// `WondevWoman::legal_actions`).
    fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
        if state.game_over || state.to_move as usize != player {
            return vec![];
        }
        let mut list = MoveList::default();
        legal(state, player, &mut list);
        if list.len == 0 {
            vec![Action::AcceptDefeat]
        } else {
            list.as_slice().iter().map(|m| m.to_action()).collect()
        }
    }

    /// §10 for typed actions, with the reference's contract (twin: `WondevWoman::step`): errors
    /// in the same order (game over, arity, a non-mover's action, the mover's missing action,
    /// an illegal action with the referee's reason code and message), the state unchanged on
    /// error; `ACCEPT-DEFEAT` is always accepted and eliminates.
    fn apply(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        apply_raising(state, actions).map(|_| ())
    }

    /// §8: scores (`getScore`), ranks by score, the end reason (twin: `WondevWoman::outcome`).
    fn outcome(state: &State) -> Option<Outcome> {
        if !state.game_over {
            return None;
        }
        let scores: Vec<i64> = final_scores(state).iter().map(|&s| s as i64).collect();
        let ranks = Outcome::ranks_from_scores(&scores);
        Some(Outcome {
            scores,
            ranks,
            reason: state.end_reason.map_or("", |r| r.code()).to_string(),
        })
    }
}

/// [`FastWondevWoman::apply`]'s body, which also returns the cell the action raised ([`NONE`]
/// for `ACCEPT-DEFEAT`): what [`super::movegen::unmake`] needs to take the turn back
/// ([`crate::game::UndoGame`]). For a turn that `check_turn` accepted.
pub(crate) fn apply_raising(
    state: &mut State,
    actions: &[Option<Action>],
) -> Result<u8, StepError> {
    let player = if state.to_move < 2 { state.to_move as usize } else { 0 };
    let Some(action) = &actions[player] else {
        // `check_turn` refuses this already; `apply` called alone refuses it the same way.
        return Err(StepError::NotToAct { player });
    };
    let raised = match *action {
        Action::AcceptDefeat => {
            kill(state, player);
            NONE
        }
        Action::Build { kind, unit, dir1, dir2 } => {
            let check = if unit >= unit_count(state, player) {
                Err(play::invalid_input(state, &action.to_string()))
            } else {
                match kind {
                    Kind::Move => play::check_move(state, player, unit, dir1, dir2),
                    Kind::Push if state.league.can_push() => {
                        play::check_push(state, player, unit, dir1, dir2)
                    }
                    Kind::Push => Err(Elimination {
                        reason: Reason::InvalidCommand,
                        message: "InvalidCommand".into(),
                    }),
                }
            };
            let rec = check.map_err(|e| StepError::Illegal {
                player,
                error: IllegalAction { reason: format!("{}: {}", e.reason.code(), e.message) },
            })?;
            apply_record(state, &rec)
        }
    };
    pass_turn(state, player);
    Ok(raised)
}
