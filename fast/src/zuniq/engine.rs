//! The fast engine behind `twinsim replay --engine fast`: the same records as the reference
//! ([`twinsim_reference::zuniq::trace`]), produced from the fast state.

use super::typed::{wall_names, State};
use serde_json::Value;
use twinsim_reference::game::{EngineKind, PlayerId, TraceEngine, TracePlay, TurnStructure};
use twinsim_reference::trace::{Legal, Refusal, SetupRecord, TraceOutcome, TurnRecord};
use twinsim_reference::zuniq::rules::Event;

/// The fast Zuniq engine.
pub struct FastEngine;

/// The static engine object.
pub static ENGINE: FastEngine = FastEngine;

/// The text-level fast engine for replay and verification.
pub fn engine() -> Option<&'static dyn TraceEngine> {
    Some(&ENGINE)
}

impl TraceEngine for FastEngine {
    fn game(&self) -> &'static str {
        "zuniq"
    }
    fn kind(&self) -> EngineKind {
        EngineKind::Fast
    }
    fn turns(&self) -> TurnStructure {
        TurnStructure::Alternating
    }
    fn setup(&self, seed: Option<i64>, params: &Value) -> Result<Box<dyn TracePlay>, String> {
        Ok(Box::new(twinsim_reference::game::TypedTraceEngine::setup_play(self, seed, params)?))
    }
}

/// A game in progress with the last turn's views and events.
#[derive(Clone, Debug)]
pub struct FastPlay {
    /// The fast state after the last turn.
    pub state: State,
    /// The text each program received after the last turn (§9 `views`: the bare move for the
    /// mover's opponent, `""` for the mover, `Quit` for both at the end); `["Start", ""]` at
    /// setup.
    pub views: [String; 2],
    /// Events of the last turn, in the §9 order (claim, zone closed, no legal move).
    pub events: Vec<Event>,
}

impl Default for FastPlay {
    fn default() -> Self {
        FastPlay::new(State::default())
    }
}

impl FastPlay {
    /// A game from `state`, with the views of a game's start.
    pub fn new(state: State) -> FastPlay {
        FastPlay { state, views: ["Start".into(), String::new()], events: Vec::new() }
    }
}

/// The outcome (§9). Twin of [`twinsim_reference::zuniq::trace::trace_outcome`].
pub fn trace_outcome(state: &State) -> Option<TraceOutcome> {
    let scores = state.scores()?;
    let reason = match state.end.as_ref()? {
        twinsim_reference::zuniq::End::NoLegalMoves => "no_legal_moves",
        twinsim_reference::zuniq::End::InvalidAction { .. } => "invalid_action",
    };
    let claim = |p: usize| (state.board.claims[p] != 0).then_some(u32::from(state.board.claims[p]));
    let (plies, claims) = (u32::from(state.board.ply), [claim(0), claim(1)]);
    Some(twinsim_reference::zuniq::trace::outcome_of(scores, state.winner, reason, plies, claims))
}

impl TracePlay for FastPlay {
    fn boxed_clone(&self) -> Box<dyn TracePlay> {
        Box::new(self.clone())
    }
    fn num_players(&self) -> usize {
        2
    }
    fn initial_record(&self) -> SetupRecord {
        let initial = State::default();
        SetupRecord {
            initial_legal: Some(Legal::Mover(wall_names(initial.legal_mask()))),
            ..SetupRecord::new(initial.to_json(), vec![Some("Start".into()), Some(String::new())])
        }
    }
    fn players_to_act(&self) -> Vec<PlayerId> {
        if self.state.finished {
            vec![]
        } else {
            vec![self.state.board.to_move()]
        }
    }
    fn legal_lines(&self, player: PlayerId) -> Vec<String> {
        if self.state.finished || player != self.state.board.to_move() {
            return vec![];
        }
        let plain = wall_names(self.state.legal_mask());
        let claimed: Vec<String> = plain.iter().map(|w| format!("{w}!")).collect();
        plain.into_iter().chain(claimed).collect()
    }
    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        let [line] = twinsim_reference::game::turn_lines::<1>(actions)?;
        let mut events = Vec::new();
        let placed =
            self.state.play_turn(line.as_deref(), &mut events).map_err(|e| e.to_string())?;
        self.views = match placed {
            Some(w) if !self.state.finished => {
                let mut views = [String::new(), String::new()];
                views[self.state.board.to_move()] = wall_names(1 << w).remove(0);
                views
            }
            _ => ["Quit".into(), "Quit".into()],
        };
        self.events = events;
        Ok(())
    }
    fn refusals(&self) -> Vec<Refusal> {
        twinsim_reference::zuniq::trace::refusals(&self.events)
    }
    /// Zuniq scores only at the end (the outcome's scores).
    fn running_scores(&self) -> Vec<i64> {
        vec![0; 2]
    }
    fn turn_record(&self) -> TurnRecord {
        let legal = wall_names(self.state.legal_mask());
        let events = self.events.iter().map(Event::to_string).collect();
        twinsim_reference::zuniq::trace::turn_record(
            self.state.to_json(),
            &self.views,
            legal,
            events,
        )
    }
    fn is_over(&self) -> bool {
        self.state.finished
    }
    fn outcome(&self) -> Option<TraceOutcome> {
        trace_outcome(&self.state)
    }
    fn render(&self, colour: bool) -> String {
        twinsim_reference::zuniq::display::render(&self.state.to_reference(), colour)
    }
    fn perft(&self, depth: u32) -> Option<u64> {
        if self.state.finished {
            return Some(u64::from(depth == 0));
        }
        Some(super::perft(&self.state.board, depth))
    }
}

impl twinsim_reference::game::TypedTraceEngine for FastEngine {
    type Play = FastPlay;
    fn setup_play(&self, _seed: Option<i64>, _params: &Value) -> Result<FastPlay, String> {
        Ok(FastPlay::default())
    }
}

impl twinsim_reference::game::TypedPlay for FastPlay {
    type Game = super::FastZuniq;
    fn typed_state(&self) -> &<Self::Game as twinsim_reference::game::Game>::State {
        &self.state
    }
}
