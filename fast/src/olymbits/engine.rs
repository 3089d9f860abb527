//! The fast text-level engine: bot lines parsed the referee's way (the reference parser), the
//! turn resolved on the packed state, events rebuilt from the compact turn log; states and
//! views printed through the reference schema.

use super::state::*;
use super::step::Input;
use serde_json::Value;
use twinsim_reference::game::Outcome;
use twinsim_reference::game::{EngineKind, PlayerId, TraceEngine, TracePlay, TurnStructure};
use twinsim_reference::olymbits::rules::{bad_command_summary, deactivation_reason, MEDAL_NAMES};
use twinsim_reference::olymbits::trace::{
    deactivation, outcome_record, params_from_json, state_json, turn_record,
};
use twinsim_reference::olymbits::{parse_line, render_first_input, MiniGameKind};
use twinsim_reference::trace::{Refusal, SetupRecord, TraceOutcome, TurnRecord};

/// The fast Olymbits engine.
pub struct FastEngine;

/// The static engine object.
pub static ENGINE: FastEngine = FastEngine;

/// The text-level engine for replay and verification.
pub fn engine() -> Option<&'static dyn TraceEngine> {
    Some(&ENGINE)
}

impl TraceEngine for FastEngine {
    fn game(&self) -> &'static str {
        "olymbits"
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

/// A game in progress behind [`FastEngine`].
#[derive(Clone, Debug)]
pub struct FastPlay {
    /// The packed state.
    pub state: State,
    /// The last turn's lines (for the texts of its events).
    pub lines: [Option<String>; 3],
}

/// The input a trace line stands for (§8.2 step 3, §11). Reference twin:
/// `twinsim_reference::olymbits::trace::inputs_from_lines`.
pub fn input_of(line: Option<&str>) -> Input {
    match line {
        None => Input::Timeout,
        Some(l) => match parse_line(l) {
            Ok(c) => Input::Action(c.action.index() as u8),
            Err(_) => Input::Invalid,
        },
    }
}

/// The events of the last turn (§11.5), rebuilt from the turn log and the lines.
pub fn events(state: &State, lines: &[Option<String>; 3]) -> Vec<String> {
    let log = &state.log;
    let mut out = Vec::new();
    let line = |i: usize| lines[i].as_deref().unwrap_or("");
    for i in 0..3 {
        if log.deactivated >> i & 1 == 1 {
            if log.timed_out >> i & 1 == 1 {
                out.push(format!("${i} has not provided 1 lines in time"));
            } else {
                out.push(bad_command_summary(line(i)));
            }
        }
    }
    for g in 0..state.nb_games as usize {
        if log.ended >> g & 1 == 1 {
            let kind = match state.games[g].kind {
                HURDLES => MiniGameKind::Hurdles,
                ARCHERY => MiniGameKind::Archery,
                SKATING => MiniGameKind::Skating,
                _ => MiniGameKind::Diving,
            };
            out.push(format!("Game over: {}", kind.name()));
            for i in 0..3 {
                out.push(format!("${i} earns a {} medal", MEDAL_NAMES[log.ranks[g][i] as usize]));
            }
        }
    }
    for i in 0..3 {
        if log.deactivated >> i & 1 == 1 {
            let reason = if log.timed_out >> i & 1 == 1 {
                "Timeout!".to_string()
            } else {
                deactivation_reason(line(i))
            };
            out.push(format!("Deactivated ${i}: {reason}"));
        }
    }
    out
}

impl TracePlay for FastPlay {
    fn boxed_clone(&self) -> Box<dyn TracePlay> {
        Box::new(self.clone())
    }

    fn num_players(&self) -> usize {
        3
    }

    /// From the turn log's deactivation bits, in seat order, as the reference's
    /// `trace::refusals`.
    fn refusals(&self) -> Vec<Refusal> {
        let log = &self.state.log;
        (0..3)
            .filter(|i| log.deactivated >> i & 1 == 1)
            .map(|i| {
                let timed_out = log.timed_out >> i & 1 == 1;
                deactivation(i, self.lines[i].as_deref().filter(|_| !timed_out))
            })
            .collect()
    }

    fn running_scores(&self) -> Vec<i64> {
        (0..3).map(|i| self.state.points(i)).collect()
    }

    fn initial_record(&self) -> SetupRecord {
        let r = self.state.to_reference();
        SetupRecord::new(state_json(&r), (0..3).map(|i| Some(render_first_input(&r, i))).collect())
    }

    fn players_to_act(&self) -> Vec<PlayerId> {
        if self.state.is_over() {
            return vec![];
        }
        (0..3).filter(|&i| self.state.is_active(i)).collect()
    }

    fn legal_lines(&self, player: PlayerId) -> Vec<String> {
        if self.players_to_act().contains(&player) {
            ["UP", "DOWN", "LEFT", "RIGHT"].iter().map(|s| s.to_string()).collect()
        } else {
            vec![]
        }
    }

    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        if actions.len() != 3 {
            return Err(format!("expected 3 action entries, got {}", actions.len()));
        }
        let inputs: [Input; 3] = std::array::from_fn(|i| input_of(actions[i].as_deref()));
        self.state.play_turn(&inputs).map_err(|e| e.to_string())?;
        self.lines = std::array::from_fn(|i| actions[i].clone());
        Ok(())
    }

    fn turn_record(&self) -> TurnRecord {
        turn_record(&self.state.to_reference(), &events(&self.state, &self.lines))
    }

    fn is_over(&self) -> bool {
        self.state.is_over()
    }

    fn outcome(&self) -> Option<TraceOutcome> {
        if !self.state.is_over() {
            return None;
        }
        let scores: Vec<i64> = (0..3)
            .map(|i| if self.state.is_active(i) { self.state.points(i) } else { -1 })
            .collect();
        let ranks = Outcome::ranks_from_scores(&scores);
        let reason =
            if self.state.end == 1 { "turn_limit" } else { "fewer_than_two_active_players" };
        Some(outcome_record(Outcome { scores, ranks, reason: reason.into() }, self.state.turn))
    }

    fn render(&self, colour: bool) -> String {
        twinsim_reference::olymbits::render_board(&self.state.to_reference(), colour)
    }
}

impl twinsim_reference::game::TypedTraceEngine for FastEngine {
    type Play = FastPlay;
    fn setup_play(&self, seed: Option<i64>, params: &Value) -> Result<FastPlay, String> {
        let seed = seed.ok_or("olymbits needs a seed")?;
        let params = params_from_json(params)?;
        let state = State::new(seed, &params).map_err(|e| e.to_string())?;
        Ok(FastPlay { state, lines: Default::default() })
    }
}

impl twinsim_reference::game::TypedPlay for FastPlay {
    type Game = super::FastOlymbits;
    fn typed_state(&self) -> &<Self::Game as twinsim_reference::game::Game>::State {
        &self.state
    }
}
