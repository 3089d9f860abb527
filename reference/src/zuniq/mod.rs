//! Zuniq (CodeCup 2021), the reference engine: `docs/rules/zuniq.md` as code.
//!
//! Files follow the rules doc's sections: [`board`] (§2 board and notation), [`state`] (§3 state,
//! §9 JSON), [`zones`] (§4 closed zones), [`rules`] (§5 legal moves, §6 turns and end, §7 claims
//! and scoring, §8 consequences of bad output), [`setup`] (§3 the empty board), [`protocol`]
//! (§8 lines read and printed), [`referee`] (§8 the referee's turn: a printed line read, then
//! given its consequence), [`trace`] (§9 trace records), [`display`] (the board picture).
//!
//! The game has no randomness and no leagues: every seed gives the empty board.

pub mod board;
pub mod display;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod setup;
pub mod state;
#[cfg(feature = "json")]
pub mod trace;
pub mod zones;

#[cfg(test)]
mod tests;

pub use board::{Cell, Orientation, Wall};
pub use protocol::{parse_line, parse_turn, View};
pub use rules::{Event, Illegal, InvalidReason};
pub use setup::new_game;
pub use state::{Action, End, State};
pub use zones::Zone;

use crate::framing::{Framing, Part, SeatRule, TimeLimits};
use crate::game::{Game, Outcome, PlayerId, StepError, TurnStructure};
use std::time::Duration;

#[cfg(feature = "json")]
/// The text-level engine for replay and verification.
pub fn engine() -> Option<&'static dyn crate::game::TraceEngine> {
    Some(&trace::ENGINE)
}

/// Zuniq has no setup parameters (§3: no leagues, no seed); the unit type is the only "league".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Params;

/// The typed game API.
#[derive(Clone, Copy, Debug, Default)]
pub struct Zuniq;

/// The referee's response-time rules (30 s of thinking for the whole game).
pub const TIME_LIMITS: TimeLimits = TimeLimits {
    first: Duration::from_millis(30_000),
    later: Duration::from_millis(30_000),
    total: Some(Duration::from_millis(30_000)),
};

/// How a bot's input divides into turns: One line a turn: `Start` or the opponent's move; `Quit`
/// ends the game.
pub const FRAMING: Framing = Framing {
    end_line: Some("Quit"),
    seat: SeatRule::FirstLineIs("Start"),
    init: &[],
    turn: &[Part::Lines(1, "a move")],
};

/// This game's facts for the tools (`registry::GameId::Zuniq`).
// Behind the `registry` feature, so that a bundled bot leaves the registry out.
#[cfg(feature = "registry")]
pub const INFO: crate::registry::GameInfo = crate::registry::GameInfo {
    id: crate::registry::GameId::Zuniq,
    name: "zuniq",
    display_name: "Zuniq",
    module: "zuniq",
    players: 2,
    turns: TurnStructure::Alternating,
    time_limits: TIME_LIMITS,
    league_key: None,
    // §3: no randomness at all.
    seeded: false,
    embedded_init_lines: 0,
    state_keys: &["ply", "to_move", "walls", "zones", "open_cells", "claims", "finished"],
    framing: FRAMING,
};

impl Game for Zuniq {
    type State = State;
    type Action = Action;
    type Params = Params;

    const NAME: &'static str = "zuniq";
    const TURNS: TurnStructure = TurnStructure::Alternating;

    /// §3: the empty board whatever the seed.
    fn new_game(seed: i64, params: &Params) -> State {
        setup::new_game(seed, params)
    }

    fn num_players(_state: &State) -> usize {
        2
    }

    fn is_over(state: &State) -> bool {
        state.finished
    }

    fn is_to_act(state: &State, player: PlayerId) -> bool {
        !state.finished && player == state.to_move()
    }

    /// §6: the player to move, until the game is over.
    fn players_to_act(state: &State) -> Vec<PlayerId> {
        if state.finished {
            vec![]
        } else {
            vec![state.to_move()]
        }
    }

    /// §5: the legal walls, without the `!` claim (a claim does not change the position; add it
    /// with `Action { claim: true, .. }`).
    fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
        if state.finished || player != state.to_move() {
            return vec![];
        }
        rules::legal_walls(state).into_iter().map(|wall| Action { wall, claim: false }).collect()
    }

    /// §6, §7: the mover's slot must hold a legal move; the other slot must be empty. An
    /// illegal move is refused with [`StepError::Illegal`] and changes nothing (a search asks
    /// for legal moves; the referee's consequence for bad output is [`referee::play_turn`]).
    fn apply(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        let mover = state.to_move();
        let Some(action) = actions.get(mover).copied().flatten() else {
            // `check_turn` refuses this already; `apply` called alone refuses it the same way.
            return Err(StepError::NotToAct { player: mover });
        };
        rules::apply_move(state, action).map(|_| ())
    }

    /// §7: scores, ranks and the §9 reason code.
    fn outcome(state: &State) -> Option<Outcome> {
        let scores = rules::scores(state)?.to_vec();
        let ranks = Outcome::ranks_from_scores(&scores);
        Some(Outcome { scores, ranks, reason: rules::end_reason(state)?.to_string() })
    }
}
