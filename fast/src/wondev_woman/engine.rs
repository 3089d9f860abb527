//! The fast text-level engine: the trace fields produced from the fast state (twin:
//! [`twinsim_reference::wondev_woman::trace`]).

use super::board::{point, State, NONE};
use super::movegen::{legal, MoveList};
use super::play;
use serde_json::{json, Value};
use twinsim_reference::game::{EngineKind, PlayerId, TraceEngine, TracePlay, TurnStructure};
use twinsim_reference::trace::{Legal, Refusal, SetupRecord, TraceOutcome, TurnRecord};
use twinsim_reference::wondev_woman::state::{Event, LastTurn};
use twinsim_reference::wondev_woman::trace::{outcome_of, params_from_json, refusals, turn_record};

/// The referee's sorted legal lines of `player` (twin: `rules::legal_actions` + `Display`).
pub fn legal_lines(s: &State, player: usize) -> Vec<String> {
    let mut list = MoveList::default();
    legal(s, player, &mut list);
    list.as_slice().iter().map(|m| m.to_action().to_string()).collect()
}

fn grid_rows(s: &State) -> Vec<String> {
    let n = s.size as usize;
    (0..n)
        .map(|y| {
            (0..n)
                .map(|x| {
                    let c = y * 8 + x;
                    if s.cells & (1u64 << c) != 0 {
                        (b'0' + s.h[c]) as char
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}

/// §9: the turn input of `player` (twin: `protocol::render_turn_input`).
pub fn render_turn_input(s: &State, player: usize) -> String {
    let mut lines = grid_rows(s);
    let vis = s.visible_units(player);
    for p in [player, 1 - player] {
        for &u in &s.units[p * 2..p * 2 + 2] {
            if u == NONE {
                continue;
            }
            if vis & (1u64 << u) != 0 {
                let q = point(u);
                lines.push(format!("{} {}", q.x, q.y));
            } else {
                lines.push("-1 -1".into());
            }
        }
    }
    let legal = legal_lines(s, player);
    lines.push(legal.len().to_string());
    lines.extend(legal);
    lines.join("\n")
}

/// §13 state object (twin: `trace::state_json`).
pub fn state_json(s: &State) -> Value {
    let units: Vec<Vec<Value>> = (0..2)
        .map(|p| {
            s.units[p * 2..p * 2 + 2]
                .iter()
                .filter(|&&u| u != NONE)
                .map(|&u| {
                    let q = point(u);
                    json!([q.x, q.y])
                })
                .collect()
        })
        .collect();
    json!({
        "round": s.round,
        "to_move": if s.to_move < 2 { json!(s.to_move) } else { Value::Null },
        "game_over": s.game_over,
        "size": s.size,
        "grid": grid_rows(s),
        "units": units,
        "scores": s.scores,
        "dead": s.dead,
    })
}

fn views(s: &State) -> Vec<Option<String>> {
    (0..2)
        .map(|p| (!s.game_over && s.to_move as usize == p).then(|| render_turn_input(s, p)))
        .collect()
}

fn legal_list(s: &State) -> Vec<String> {
    if s.game_over || s.to_move > 1 {
        vec![]
    } else {
        legal_lines(s, s.to_move as usize)
    }
}

/// §13 outcome (twin: `trace::trace_outcome`).
pub fn trace_outcome(s: &State) -> Option<TraceOutcome> {
    if !s.game_over {
        return None;
    }
    let scores = super::typed::final_scores(s).map(i64::from);
    Some(outcome_of(&scores, s.end_reason, s.round, s.dead))
}

/// The fast engine, text level.
pub struct FastEngine;

/// The static engine object.
pub static ENGINE: FastEngine = FastEngine;

/// The fast text-level engine.
pub fn engine() -> Option<&'static dyn TraceEngine> {
    Some(&ENGINE)
}

impl TraceEngine for FastEngine {
    fn game(&self) -> &'static str {
        "wondev-woman"
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

/// A game in progress behind [`FastEngine`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FastPlay {
    /// The fast state.
    pub state: State,
    /// The last turn's summary.
    pub last: Option<LastTurn>,
}

impl FastPlay {
    /// The last turn's events.
    pub fn events(&self) -> &[Event] {
        self.last.as_ref().map_or(&[], |l| &l.events)
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
        let s = &self.state;
        let init = format!("{}\n{}", s.size, s.per_player);
        let views = (0..2).map(|p| Some(render_turn_input(s, p))).collect();
        SetupRecord {
            init_input: Some(vec![init.clone(), init]),
            initial_legal: Some(Legal::Mover(legal_list(s))),
            ..SetupRecord::new(state_json(s), views)
        }
    }
    fn players_to_act(&self) -> Vec<PlayerId> {
        if self.state.game_over || self.state.to_move > 1 {
            vec![]
        } else {
            vec![self.state.to_move as usize]
        }
    }
    fn legal_lines(&self, player: PlayerId) -> Vec<String> {
        if self.players_to_act() != [player] {
            return vec![];
        }
        let lines = legal_lines(&self.state, player);
        if lines.is_empty() {
            vec!["ACCEPT-DEFEAT".to_string()]
        } else {
            lines
        }
    }
    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        let [line] = twinsim_reference::game::turn_lines::<1>(actions)?;
        let (player, round) = (self.state.to_move as usize, self.state.round);
        let events =
            play::play_turn(&mut self.state, line.as_deref()).map_err(|e| format!("{e:?}"))?;
        self.last = Some(LastTurn { player, round, events });
        Ok(())
    }
    fn refusals(&self) -> Vec<Refusal> {
        self.last.as_ref().map_or_else(Vec::new, |last| refusals(&last.events))
    }
    fn running_scores(&self) -> Vec<i64> {
        self.state.scores.iter().map(|&s| i64::from(s)).collect()
    }
    fn turn_record(&self) -> TurnRecord {
        let s = &self.state;
        turn_record(state_json(s), views(s), legal_list(s), self.last.as_ref())
    }
    fn is_over(&self) -> bool {
        self.state.game_over
    }
    fn outcome(&self) -> Option<TraceOutcome> {
        trace_outcome(&self.state)
    }
    fn render(&self, colour: bool) -> String {
        twinsim_reference::wondev_woman::display::render(&self.state.to_reference(), None, colour)
    }
    fn perft(&self, depth: u32) -> Option<u64> {
        let mut s = self.state;
        Some(super::movegen::perft_bulk(&mut s, depth))
    }
}

impl twinsim_reference::game::TypedTraceEngine for FastEngine {
    type Play = FastPlay;
    fn setup_play(&self, seed: Option<i64>, params: &Value) -> Result<FastPlay, String> {
        let seed = seed.ok_or("wondev-woman needs a seed")?;
        let params = params_from_json(params)?;
        Ok(FastPlay { state: State::new_game(seed, &params), last: None })
    }
}

impl twinsim_reference::game::TypedPlay for FastPlay {
    type Game = super::FastWondevWoman;
    fn typed_state(&self) -> &<Self::Game as twinsim_reference::game::Game>::State {
        &self.state
    }
}
