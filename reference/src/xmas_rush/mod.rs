//! X-mas Rush (CodinGame, December 2018), the executable rulebook.
//!
//! Read next to `docs/rules/xmas-rush.md`; the files follow the doc's sections in order:
//! - [`state`]: §1 board, coordinates, tiles and §2 the state kept by the referee (§10 league
//!   constants);
//! - [`setup`]: §3 setup and its exact `java.util.Random` calls;
//! - [`rules`]: §4 the game turn, §6 the collect check, §7 resolution, §8 end of game;
//! - [`actions`]: §5 actions and how a bot's line is read; [`path`]: a MOVE's steps, inline;
//! - [`protocol`]: §9 the per-turn input (typed view, render, parse, the state a view rebuilds);
//! - [`search`]: plain path searches a bot runs in a MOVE turn (§7.2), twins of the fast ones;
//! - [`json`](mod@json): §12 the trace state schema; [`display`]: a picture for terminals.
//!
//! [`XmasRush`] is the typed [`Game`]; [`engine`] the text-level [`TraceEngine`].

pub mod actions;
pub mod display;
pub mod json;
pub mod path;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod setup;
pub mod state;

#[cfg(test)]
mod tests;

pub use actions::{parse_line, Action, LineError};
pub use path::{Path, PathFull};
pub use protocol::{parse_turn, render_view, view, View};
pub use rules::{new_game, Answer, Event};
pub use state::*;

use crate::game::{
    EngineKind, Game, IllegalAction, Outcome, PlayerId, StepError, TraceEngine, TracePlay,
    TurnStructure,
};
use serde_json::{json, Map, Value};

/// The typed game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct XmasRush;

/// Every legal action of `player` (§5): in a PUSH turn the 28 pushes; in a MOVE turn `PASS`
/// and, for every other cell reachable within 20 steps, one shortest `MOVE` to it (a
/// representative subset: any sequence of 1–20 directions is accepted, §5).
pub fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
    if state.game_over || player > 1 {
        return Vec::new();
    }
    match state.turn_type {
        TurnType::Push => {
            let mut pushes = Vec::new();
            for line in 0..SIZE {
                for direction in Direction::ALL {
                    pushes.push(Action::Push { line, direction });
                }
            }
            pushes
        }
        TurnType::Move => {
            let p = &state.players[player];
            let mut moves = vec![Action::Pass];
            for (_, steps) in rules::shortest_paths(state, p.x, p.y) {
                // The start's empty path is the PASS above; a cell more than 20 steps away has
                // no MOVE (§5).
                match Path::try_from(&steps[..]) {
                    Ok(path) if !path.is_empty() => moves.push(Action::Move(path)),
                    _ => {}
                }
            }
            moves
        }
    }
}

/// The final result (§8): scores as reported, ranks from them, the trace's reason word.
pub fn outcome(state: &State) -> Option<Outcome> {
    let reason = state.end_reason.filter(|_| state.game_over)?;
    let scores = vec![state.players[0].score, state.players[1].score];
    Some(Outcome {
        ranks: Outcome::ranks_from_scores(&scores),
        scores,
        reason: reason.name().into(),
    })
}

impl Game for XmasRush {
    type State = State;
    type Action = Action;
    type Params = League;

    const NAME: &'static str = "xmas-rush";
    const TURNS: TurnStructure = TurnStructure::Simultaneous;

    fn new_game(seed: i64, params: &League) -> State {
        rules::new_game(seed, *params)
    }

    fn num_players(_: &State) -> usize {
        2
    }

    fn players_to_act(state: &State) -> Vec<PlayerId> {
        if state.game_over {
            Vec::new()
        } else {
            vec![0, 1]
        }
    }

    fn legal_actions(state: &State, player: PlayerId) -> Vec<Action> {
        legal_actions(state, player)
    }

    /// One game turn. `None` for a player is a timeout (§8: fatal); an action of the wrong
    /// type is refused with [`StepError::Illegal`] and the state is left unchanged (the
    /// text-level engine instead applies the referee's consequence, §5).
    fn step(state: &mut State, actions: &[Option<Action>]) -> Result<(), StepError> {
        if state.game_over {
            return Err(StepError::GameOver);
        }
        if actions.len() != 2 {
            return Err(StepError::WrongArity { expected: 2, found: actions.len() });
        }
        let mut answers = [Answer::Timeout, Answer::Timeout];
        for (p, action) in actions.iter().enumerate() {
            if let Some(action) = action {
                let checked = rules::check_type(action, state.turn_type)
                    .and_then(|()| rules::check_shape(action));
                if let Err(reason) = checked {
                    return Err(StepError::Illegal { player: p, error: IllegalAction { reason } });
                }
                answers[p] = Answer::Action(*action);
            }
        }
        rules::play_turn(state, &answers).map(|_| ())
    }

    fn outcome(state: &State) -> Option<Outcome> {
        outcome(state)
    }
}

/// The text-level engine (static, see [`engine`]).
pub struct XmasRushEngine;

/// The engine object `twinsim` uses.
pub static ENGINE: XmasRushEngine = XmasRushEngine;

/// The text-level engine for replay and verification.
pub fn engine() -> Option<&'static dyn TraceEngine> {
    Some(&ENGINE)
}

/// Reads the trace's `params` (§12): `{"league": L}`, or `{}` for the top league.
pub fn league_from_params(params: &Value) -> Result<League, String> {
    match params.get("league") {
        None | Some(Value::Null) => Ok(League::default()),
        Some(value) => value
            .as_i64()
            .map(|level| League { level })
            .ok_or_else(|| format!("league must be an integer, found {value}")),
    }
}

impl TraceEngine for XmasRushEngine {
    fn game(&self) -> &'static str {
        "xmas-rush"
    }

    fn kind(&self) -> EngineKind {
        EngineKind::Reference
    }

    fn turns(&self) -> TurnStructure {
        TurnStructure::Simultaneous
    }

    fn setup(&self, seed: Option<i64>, params: &Value) -> Result<Box<dyn TracePlay>, String> {
        let league = league_from_params(params)?;
        let state = rules::new_game(seed.unwrap_or(0), league);
        Ok(Box::new(XmasRushPlay { state, events: Vec::new() }))
    }
}

/// A game in progress behind the text-level engine, with the last turn's events.
#[derive(Clone, Debug)]
pub struct XmasRushPlay {
    /// The referee state the next input describes (or the finished game).
    pub state: State,
    /// The events of the turn just played, in emission order (§12); empty after setup.
    pub events: Vec<Event>,
}

/// §12 `views`: both inputs, or `[]` once the game is over.
pub fn views_json(state: &State) -> Value {
    if state.game_over {
        json!([])
    } else {
        json!([render_view(state, 0), render_view(state, 1)])
    }
}

impl TracePlay for XmasRushPlay {
    fn boxed_clone(&self) -> Box<dyn TracePlay> {
        Box::new(self.clone())
    }

    fn num_players(&self) -> usize {
        2
    }

    fn initial_record(&self) -> Map<String, Value> {
        let mut record = Map::new();
        record.insert("initial".into(), json::state_json(&self.state));
        record.insert("initial_views".into(), views_json(&self.state));
        record
    }

    fn players_to_act(&self) -> Vec<PlayerId> {
        XmasRush::players_to_act(&self.state)
    }

    fn legal_lines(&self, player: PlayerId) -> Vec<String> {
        legal_actions(&self.state, player).iter().map(Action::to_string).collect()
    }

    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        let actions = crate::game::turn_lines::<2>(actions)?;
        let answers =
            [Answer::from_line(actions[0].as_deref()), Answer::from_line(actions[1].as_deref())];
        self.events = rules::play_turn(&mut self.state, &answers).map_err(|e| e.to_string())?;
        Ok(())
    }

    fn turn_record(&self) -> Map<String, Value> {
        let mut record = Map::new();
        record.insert("state".into(), json::state_json(&self.state));
        record.insert("views".into(), views_json(&self.state));
        let events: Vec<String> = self.events.iter().map(Event::to_string).collect();
        record.insert("events".into(), json!(events));
        record
    }

    fn is_over(&self) -> bool {
        self.state.game_over
    }

    fn outcome(&self) -> Option<Value> {
        json::outcome_json(&self.state)
    }

    fn render(&self, colour: bool) -> String {
        display::render(&self.state, colour)
    }
}
