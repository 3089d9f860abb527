//! The text-level engine (§12 traces): serde_json, behind the `json` feature.

use super::json;
use super::*;
use crate::game::{EngineKind, TraceEngine, TracePlay};
use crate::trace::{
    Event as TraceEvent, Refusal, RefusalKind, SetupRecord, TraceOutcome, TurnRecord,
};
use serde_json::Value;

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
        Ok(Box::new(crate::game::TypedTraceEngine::setup_play(self, seed, params)?))
    }
}

/// A game in progress behind the text-level engine, with the last turn's events.
#[derive(Clone, Debug)]
pub struct Play {
    /// The referee state the next input describes (or the finished game).
    pub state: State,
    /// The events of the turn just played, in emission order (§12); empty after setup.
    pub events: Vec<Event>,
}

/// The refused seats of a turn, from its typed events (§5, §7.2, §8): a fatal line
/// ([`Event::InvalidInput`]: invalid), a step into a wall ([`Event::Wall`], not fatal: illegal),
/// no answer ([`Event::Timeout`]); the first of each seat, the message its event shows.
pub fn refusals(events: &[Event]) -> Vec<Refusal> {
    let refusal = |event: &Event| {
        let (seat, kind) = match *event {
            Event::InvalidInput(p, _) => (p, RefusalKind::Invalid),
            Event::Wall(p, _) => (p, RefusalKind::Illegal),
            Event::Timeout(p) => (p, RefusalKind::Timeout),
            _ => return None,
        };
        Some(Refusal::new(seat, kind, event.to_string()))
    };
    Refusal::first_per_seat(events.iter().filter_map(refusal))
}

/// §12 `views`: both inputs, or `[]` once the game is over.
pub fn views(state: &State) -> Vec<Option<String>> {
    if state.game_over {
        vec![]
    } else {
        vec![Some(render_view(state, 0)), Some(render_view(state, 1))]
    }
}

/// §12: a turn record: the state, the views and the turn's events (both twins build theirs
/// here).
pub fn turn_record(state: Value, views: Vec<Option<String>>, events: &[Event]) -> TurnRecord {
    TurnRecord { events: TraceEvent::texts(events), ..TurnRecord::new(state, views) }
}

impl TracePlay for Play {
    fn boxed_clone(&self) -> Box<dyn TracePlay> {
        Box::new(self.clone())
    }

    fn num_players(&self) -> usize {
        2
    }

    fn initial_record(&self) -> SetupRecord {
        SetupRecord::new(json::state_json(&self.state), views(&self.state))
    }

    fn players_to_act(&self) -> Vec<PlayerId> {
        XmasRush::players_to_act(&self.state)
    }

    fn legal_lines(&self, player: PlayerId) -> Vec<String> {
        legal_actions(&self.state, player).iter().map(Action::to_string).collect()
    }

    fn lists_every_legal(&self, line: &str) -> bool {
        lists_every_legal(line)
    }

    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        let actions = crate::game::turn_lines::<2>(actions)?;
        let answers =
            [Answer::from_line(actions[0].as_deref()), Answer::from_line(actions[1].as_deref())];
        self.events = rules::play_turn(&mut self.state, &answers).map_err(|e| e.to_string())?;
        Ok(())
    }

    fn turn_record(&self) -> TurnRecord {
        turn_record(json::state_json(&self.state), views(&self.state), &self.events)
    }

    fn is_over(&self) -> bool {
        self.state.game_over
    }

    fn outcome(&self) -> Option<TraceOutcome> {
        json::trace_outcome(&self.state)
    }

    fn render(&self, colour: bool) -> String {
        display::render(&self.state, colour)
    }

    fn refusals(&self) -> Vec<Refusal> {
        refusals(&self.events)
    }

    fn running_scores(&self) -> Vec<i64> {
        self.state.players.iter().map(|p| p.score).collect()
    }
}

/// [`TracePlay::lists_every_legal`] for both twins: the legal lines list every PUSH but only the
/// shortest MOVE paths; any walkable path is legal (§7.2), so a MOVE line is judged by the
/// turn's refusals (a step into a wall), not by the list.
pub fn lists_every_legal(line: &str) -> bool {
    !line.starts_with("MOVE")
}

impl crate::game::TypedTraceEngine for XmasRushEngine {
    type Play = Play;
    fn setup_play(&self, seed: Option<i64>, params: &Value) -> Result<Play, String> {
        let league = league_from_params(params)?;
        let state = super::setup::new_game(seed.unwrap_or(0), league);
        Ok(Play { state, events: Vec::new() })
    }
}

impl crate::game::TypedPlay for Play {
    type Game = super::XmasRush;
    fn typed_state(&self) -> &<Self::Game as crate::game::Game>::State {
        &self.state
    }
}

#[cfg(test)]
mod lists_tests {
    use super::*;
    use serde_json::json;

    /// A MOVE path off the shortest ones is legal yet missing from the list, so a MOVE line is
    /// left to the turn's refusals; PUSH lines are all listed.
    #[test]
    fn only_push_lines_are_judged_by_the_list() {
        let engine = XmasRushEngine;
        let play = engine.setup(Some(1), &json!({})).unwrap();
        assert!(play.lists_every_legal("PUSH 3 UP"));
        assert!(!play.lists_every_legal("MOVE UP LEFT"));
        assert!(!play.lists_every_legal("MOVE"));
    }
}
