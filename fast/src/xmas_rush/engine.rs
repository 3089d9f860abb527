//! The text-level engine: the referee's own lines in, trace records and views out.

use super::*;
use serde_json::Value;
use twinsim_reference::game::{EngineKind, PlayerId, TraceEngine, TracePlay, TurnStructure};
use twinsim_reference::trace::{Refusal, SetupRecord, TraceOutcome, TurnRecord};
use twinsim_reference::xmas_rush as r;

/// The fast text-level engine.
pub struct FastEngine;

/// The engine object `twinsim` uses.
pub static ENGINE: FastEngine = FastEngine;

/// The text-level engine for replay and verification.
pub fn engine() -> Option<&'static dyn TraceEngine> {
    Some(&ENGINE)
}

impl TraceEngine for FastEngine {
    fn game(&self) -> &'static str {
        "xmas-rush"
    }

    fn kind(&self) -> EngineKind {
        EngineKind::Fast
    }

    fn turns(&self) -> TurnStructure {
        TurnStructure::Simultaneous
    }

    fn setup(&self, seed: Option<i64>, params: &Value) -> Result<Box<dyn TracePlay>, String> {
        Ok(Box::new(twinsim_reference::game::TypedTraceEngine::setup_play(self, seed, params)?))
    }
}

/// A game in progress on the packed state, with the last turn's events.
#[derive(Clone, Debug)]
pub struct FastPlay {
    /// The packed state the next input describes (or the finished game).
    pub state: State,
    /// The events of the turn just played, in emission order (§12), the reference's type;
    /// empty after setup.
    pub events: Vec<r::Event>,
}

fn views(s: &State) -> Vec<Option<String>> {
    if s.game_over {
        vec![]
    } else {
        vec![Some(protocol::render_view(s, 0)), Some(protocol::render_view(s, 1))]
    }
}

impl TracePlay for FastPlay {
    fn boxed_clone(&self) -> Box<dyn TracePlay> {
        Box::new(self.clone())
    }

    fn num_players(&self) -> usize {
        2
    }

    fn initial_record(&self) -> SetupRecord {
        SetupRecord::new(r::json::state_json(&self.state.to_reference()), views(&self.state))
    }

    fn players_to_act(&self) -> Vec<PlayerId> {
        if self.state.game_over {
            vec![]
        } else {
            vec![0, 1]
        }
    }

    fn legal_lines(&self, player: PlayerId) -> Vec<String> {
        legal_lines(&self.state, player)
    }

    fn lists_every_legal(&self, line: &str) -> bool {
        twinsim_reference::xmas_rush::trace::lists_every_legal(line)
    }

    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        let actions = twinsim_reference::game::turn_lines::<2>(actions)?;
        let answer =
            |a: &Option<String>| Answer::from_reference(&r::Answer::from_line(a.as_deref()));
        let answers = [answer(&actions[0]), answer(&actions[1])];
        self.events.clear();
        rules::play_turn(&mut self.state, &answers, &mut self.events).map_err(|e| e.to_string())
    }

    fn refusals(&self) -> Vec<Refusal> {
        r::trace::refusals(&self.events)
    }

    fn running_scores(&self) -> Vec<i64> {
        self.state.players.iter().map(|p| p.score).collect()
    }

    fn turn_record(&self) -> TurnRecord {
        let state = r::json::state_json(&self.state.to_reference());
        r::trace::turn_record(state, views(&self.state), &self.events)
    }

    fn is_over(&self) -> bool {
        self.state.game_over
    }

    fn outcome(&self) -> Option<TraceOutcome> {
        r::json::trace_outcome(&self.state.to_reference())
    }

    fn render(&self, colour: bool) -> String {
        r::display::render(&self.state.to_reference(), colour)
    }
}

/// Legal lines for random play: the 28 pushes, or PASS and one path per reachable cell (the
/// same list as the reference's `legal_actions`, which is the twin; cold path, through it).
pub fn legal_lines(s: &State, player: PlayerId) -> Vec<String> {
    r::legal_actions(&s.to_reference(), player).iter().map(|a| a.to_string()).collect()
}

impl twinsim_reference::game::TypedTraceEngine for FastEngine {
    type Play = FastPlay;
    fn setup_play(&self, seed: Option<i64>, params: &Value) -> Result<FastPlay, String> {
        let league = r::league_from_params(params)?;
        Ok(FastPlay { state: State::new_game(seed.unwrap_or(0), league), events: vec![] })
    }
}

impl twinsim_reference::game::TypedPlay for FastPlay {
    type Game = super::FastXmasRush;
    fn typed_state(&self) -> &<Self::Game as twinsim_reference::game::Game>::State {
        &self.state
    }
}
