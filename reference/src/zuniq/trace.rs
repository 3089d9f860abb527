//! Rules doc §9 "Trace format and state schema": the text-level engine the replayer drives
//! (`initial`, `initial_views`, `initial_legal`; per turn `state`, `views`, `legal`, `events`;
//! the `outcome` object).

use super::display::render;
use super::protocol::{event_lines, initial_views, placed_wall, views_after, View};
use super::referee::play_turn;
use super::rules::{end_reason, legal_walls, scores, Event, InvalidReason};
use super::state::State;
use crate::game::{EngineKind, PlayerId, TraceEngine, TracePlay, TurnStructure};
use crate::trace::{
    Event as TraceEvent, Legal, OutcomeKeys, Refusal, RefusalKind, SetupRecord, TraceOutcome,
    TurnRecord,
};
use serde_json::Value;

/// The reference Zuniq engine for `twinsim replay` / `verify` / `show`.
pub struct ZuniqEngine;

/// The static engine object.
pub static ENGINE: ZuniqEngine = ZuniqEngine;

impl TraceEngine for ZuniqEngine {
    fn game(&self) -> &'static str {
        "zuniq"
    }
    fn kind(&self) -> EngineKind {
        EngineKind::Reference
    }
    fn turns(&self) -> TurnStructure {
        TurnStructure::Alternating
    }
    /// §3: no randomness and no leagues; the seed only seeded the trace's bots, and `params`
    /// (bot names) changes nothing.
    fn setup(&self, seed: Option<i64>, params: &Value) -> Result<Box<dyn TracePlay>, String> {
        Ok(Box::new(crate::game::TypedTraceEngine::setup_play(self, seed, params)?))
    }
}

/// A game in progress, with what the last turn produced.
#[derive(Clone, Debug)]
pub struct Play {
    /// The referee state after the last turn (the empty board at setup).
    pub state: State,
    /// The views sent after the last turn (the initial views before any turn).
    pub views: [View; 2],
    /// The events of the last turn, in the §9 order (claim, zone closed, no legal move; or the
    /// single invalid-action event).
    pub events: Vec<Event>,
}

impl Play {
    /// A game starting from `state` (views as at the start of a game).
    pub fn new(state: State) -> Play {
        Play { state, views: initial_views(), events: Vec::new() }
    }
}

/// The refused seat of a turn, from its typed events (§8): the `invalid action` event's
/// player, malformed (invalid), forbidden by §5 (illegal) or missing (timeout), with the
/// event's text as the message.
pub fn refusals(events: &[Event]) -> Vec<Refusal> {
    let refusal = |event: &Event| match event {
        Event::Invalid { player, reason } => {
            let kind = match reason {
                InvalidReason::Timeout => RefusalKind::Timeout,
                InvalidReason::Malformed(_) => RefusalKind::Invalid,
                InvalidReason::Illegal(_) => RefusalKind::Illegal,
            };
            Some(Refusal::new(*player, kind, event.to_string()))
        }
        _ => None,
    };
    events.iter().filter_map(refusal).take(1).collect()
}

/// How Zuniq's outcome records write the winner (there is always one) and the ranks (they have
/// none: the ranks are the winner's).
pub const OUTCOME_KEYS: OutcomeKeys = OutcomeKeys { winner: true, ranks: None };

/// §9: the envelope's `outcome` of a finished game.
pub fn trace_outcome(state: &State) -> Option<TraceOutcome> {
    Some(outcome_of(scores(state)?, state.winner, end_reason(state)?, state.ply, state.claims))
}

/// §9: the `outcome` from the final scores, the winner, the end reason, the plies played and
/// each player's claim (both twins build theirs here).
pub fn outcome_of(
    scores: [i64; 2],
    winner: Option<PlayerId>,
    reason: &str,
    plies: u32,
    claims: [Option<u32>; 2],
) -> TraceOutcome {
    TraceOutcome::new(scores.to_vec(), winner, reason, OUTCOME_KEYS)
        .with("plies", plies)
        .with("claims", claims)
}

/// §9: a turn record: the state, both views, the mover's legal walls and the turn's event lines
/// (both twins build theirs here).
pub fn turn_record(
    state: Value,
    views: &[String; 2],
    legal: Vec<String>,
    events: Vec<String>,
) -> TurnRecord {
    let views = views.iter().map(|v| Some(v.clone())).collect();
    let mut record = TurnRecord::new(state, views);
    record.legal = Some(Legal::Mover(legal));
    record.events = TraceEvent::texts(events);
    record
}

impl TracePlay for Play {
    fn boxed_clone(&self) -> Box<dyn TracePlay> {
        Box::new(self.clone())
    }
    fn num_players(&self) -> usize {
        2
    }
    fn initial_record(&self) -> SetupRecord {
        let initial = State::new();
        SetupRecord {
            initial_legal: Some(Legal::Mover(
                legal_walls(&initial).iter().map(|w| w.name()).collect(),
            )),
            ..SetupRecord::new(
                initial.to_json(),
                initial_views().map(|v| Some(v.to_string())).into(),
            )
        }
    }
    fn players_to_act(&self) -> Vec<PlayerId> {
        if self.state.finished {
            vec![]
        } else {
            vec![self.state.to_move()]
        }
    }
    /// Every legal wall, plain and with the `!` claim.
    fn legal_lines(&self, player: PlayerId) -> Vec<String> {
        if self.state.finished || player != self.state.to_move() {
            return vec![];
        }
        let walls = legal_walls(&self.state);
        let plain = walls.iter().map(|w| w.name());
        let claimed = walls.iter().map(|w| format!("{w}!"));
        plain.chain(claimed).collect()
    }
    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        let [line] = crate::game::turn_lines::<1>(actions)?;
        let before = self.state.clone();
        let events = play_turn(&mut self.state, line.as_deref()).map_err(|e| e.to_string())?;
        self.views = views_after(&self.state, placed_wall(&before, &self.state));
        self.events = events;
        Ok(())
    }
    fn turn_record(&self) -> TurnRecord {
        let views = self.views.map(|v| v.to_string());
        let legal = legal_walls(&self.state).iter().map(|w| w.name()).collect();
        turn_record(self.state.to_json(), &views, legal, event_lines(&self.events))
    }
    fn is_over(&self) -> bool {
        self.state.finished
    }
    fn outcome(&self) -> Option<TraceOutcome> {
        trace_outcome(&self.state)
    }
    fn render(&self, colour: bool) -> String {
        render(&self.state, colour)
    }
    fn perft(&self, depth: u32) -> Option<u64> {
        Some(crate::game::typed_perft::<super::Zuniq>(&self.state, depth))
    }
    fn refusals(&self) -> Vec<Refusal> {
        refusals(&self.events)
    }
    /// Zuniq scores only at the end (§9: the outcome's scores).
    fn running_scores(&self) -> Vec<i64> {
        vec![0; 2]
    }
}

impl crate::game::TypedTraceEngine for ZuniqEngine {
    type Play = Play;
    fn setup_play(&self, _seed: Option<i64>, _params: &Value) -> Result<Play, String> {
        Ok(Play::new(State::new()))
    }
}

impl crate::game::TypedPlay for Play {
    type Game = super::Zuniq;
    fn typed_state(&self) -> &<Self::Game as crate::game::Game>::State {
        &self.state
    }
}
