//! The text-level engine (`TraceEngine` / `TracePlay`) and the traces' JSON state schema
//! (rules doc §15).

use super::protocol::{parse_line, render_first_input, render_turn_input};
use super::rules::{deactivation_reason, outcome, play_turn, PlayerInput};
use super::setup::new_game;
use super::state::*;
use crate::game::{EngineKind, PlayerId, TraceEngine, TracePlay, TurnStructure};
use crate::trace::{
    Event as TraceEvent, OutcomeKeys, RanksKey, Refusal, RefusalKind, SetupRecord, TraceOutcome,
    TurnRecord,
};
use serde_json::{json, Map, Value};

/// §15: the state as the traces record it.
pub fn state_json(state: &State) -> Value {
    let games: Vec<Value> = state
        .games
        .iter()
        .map(|g| {
            let common = |extra: Value| {
                let mut m = Map::new();
                m.insert("type".into(), json!(g.run.kind().trace_type()));
                m.insert("resetting".into(), json!(g.resetting));
                m.insert("should_reset".into(), json!(g.should_reset));
                if let Value::Object(extra) = extra {
                    m.extend(extra);
                }
                Value::Object(m)
            };
            match &g.run {
                Run::Hurdles(h) => common(json!({
                    "map": String::from_utf8_lossy(&h.map),
                    "pos": h.positions,
                    "stun": h.stun_timers,
                    "dead": h.dead,
                })),
                Run::Archery(a) => common(json!({
                    "wind": a.wind.iter().map(|w| w.to_string()).collect::<String>(),
                    "cursors": a.cursors.iter().map(|(x, y)| json!([x, y])).collect::<Vec<_>>(),
                    "dead": a.dead,
                })),
                Run::Skating(s) => common(json!({
                    "order": s.directions.iter().map(|d| d.letter()).collect::<String>(),
                    "pos": s.positions,
                    "risk": s.risk,
                    "timer": s.timer,
                    "dead": s.dead,
                })),
                Run::Diving(d) => common(json!({
                    "goal": d.goal.iter().map(|a| a.letter()).collect::<String>(),
                    "points": d.points,
                    "combo": d.combo,
                    "dead": d.dead,
                })),
            }
        })
        .collect();
    json!({
        "turn": state.turn,
        "active": state.active,
        "medals": state.medals,
        "games": games,
        "rng_bytes": state.rng.bytes_drawn(),
    })
}

/// §15 `turns[].views`: the next turn's input for each active player, `null` for the others.
pub fn views(state: &State) -> Vec<Option<String>> {
    let text = render_turn_input(state);
    (0..PLAYER_COUNT).map(|i| state.active[i].then(|| text.clone())).collect()
}

/// §15: a turn record: the state, views and event lines (both twins build theirs here).
pub fn turn_record(state: &State, events: &[String]) -> TurnRecord {
    TurnRecord {
        events: TraceEvent::texts(events),
        ..TurnRecord::new(state_json(state), views(state))
    }
}

/// How Olymbits' outcome records write the winner (they have none) and the ranks (`ranking`,
/// 1-based).
pub const OUTCOME_KEYS: OutcomeKeys = OutcomeKeys { winner: false, ranks: Some(RanksKey::Ranking) };

/// §15 `outcome`: the typed outcome and the turns played (both twins build theirs here).
pub fn outcome_record(
    outcome: crate::game::Outcome,
    turns_played: impl serde::Serialize,
) -> TraceOutcome {
    TraceOutcome::from_outcome(outcome, OUTCOME_KEYS).with("turns_played", turns_played)
}

/// §8.2 step 3 on text: what each player's trace entry means for the referee.
pub fn inputs_from_lines(state: &State, lines: &[Option<String>]) -> [PlayerInput; PLAYER_COUNT] {
    std::array::from_fn(|i| {
        if !state.active[i] {
            return PlayerInput::NotAsked;
        }
        match lines.get(i).and_then(|l| l.as_ref()) {
            None => PlayerInput::Timeout,
            Some(line) => match parse_line(line) {
                Ok(command) => PlayerInput::Action(command.action),
                Err(error) => PlayerInput::Invalid { line: line.clone(), error },
            },
        }
    })
}

/// Reads the league from a trace's `params` (`{}`: top league).
pub fn params_from_json(params: &Value) -> Result<Params, String> {
    match params.get("league") {
        None | Some(Value::Null) => Ok(Params::default()),
        Some(v) => {
            let level = v.as_i64().ok_or_else(|| format!("league must be an integer, got {v}"))?;
            let league = League::from_level(level)
                .ok_or_else(|| format!("league must be 1 or more, got {level}"))?;
            Ok(Params { league })
        }
    }
}

/// The reference Olymbits engine for the conformance tools.
pub struct OlymbitsEngine;

/// The static engine object.
pub static ENGINE: OlymbitsEngine = OlymbitsEngine;

/// The text-level engine for replay and verification.
pub fn engine() -> Option<&'static dyn TraceEngine> {
    Some(&ENGINE)
}

impl TraceEngine for OlymbitsEngine {
    fn game(&self) -> &'static str {
        "olymbits"
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

/// §11.3–§11.4: the refusal of an active `seat` deactivated for `invalid_line` (`None`: for
/// no answer in time), with the message of its `Deactivated $i: <reason>` event.
pub fn deactivation(seat: PlayerId, invalid_line: Option<&str>) -> Refusal {
    let (kind, reason) = match invalid_line {
        Some(line) => (RefusalKind::Invalid, deactivation_reason(line)),
        None => (RefusalKind::Timeout, "Timeout!".to_string()),
    };
    Refusal::new(seat, kind, format!("Deactivated ${seat}: {reason}"))
}

/// The refusals of a turn from the typed inputs the active players gave (before the turn:
/// `active`), as `rules::play_turn` deactivates them (§8.2 steps 2–3), in seat order.
pub fn refusals(
    active: &[bool; PLAYER_COUNT],
    inputs: &[PlayerInput; PLAYER_COUNT],
) -> Vec<Refusal> {
    (0..PLAYER_COUNT)
        .filter(|&i| active[i])
        .filter_map(|i| match &inputs[i] {
            PlayerInput::Action(_) => None,
            PlayerInput::Invalid { line, .. } => Some(deactivation(i, Some(line))),
            PlayerInput::Timeout | PlayerInput::NotAsked => Some(deactivation(i, None)),
        })
        .collect()
}

/// A game in progress behind [`OlymbitsEngine`].
#[derive(Clone, Debug)]
pub struct Play {
    /// The reference state.
    pub state: State,
    /// The seats refused in the last turn ([`TracePlay::refusals`]).
    pub refused: Vec<Refusal>,
}

impl Play {
    /// A game from `state`, no turn played yet.
    pub fn new(state: State) -> Play {
        Play { state, refused: Vec::new() }
    }
}

impl TracePlay for Play {
    fn boxed_clone(&self) -> Box<dyn TracePlay> {
        Box::new(self.clone())
    }

    fn num_players(&self) -> usize {
        PLAYER_COUNT
    }

    fn initial_record(&self) -> SetupRecord {
        let views = (0..PLAYER_COUNT).map(|i| Some(render_first_input(&self.state, i))).collect();
        SetupRecord::new(state_json(&self.state), views)
    }

    fn players_to_act(&self) -> Vec<PlayerId> {
        if self.state.is_over() {
            return vec![];
        }
        (0..PLAYER_COUNT).filter(|&i| self.state.active[i]).collect()
    }

    fn legal_lines(&self, player: PlayerId) -> Vec<String> {
        if self.players_to_act().contains(&player) {
            Action::ALL.iter().map(|a| a.keyword().to_string()).collect()
        } else {
            vec![]
        }
    }

    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        if actions.len() != PLAYER_COUNT {
            return Err(format!("expected {PLAYER_COUNT} action entries, got {}", actions.len()));
        }
        let inputs = inputs_from_lines(&self.state, actions);
        let active = self.state.active;
        play_turn(&mut self.state, &inputs).map_err(|e| e.to_string())?;
        self.refused = refusals(&active, &inputs);
        Ok(())
    }

    fn turn_record(&self) -> TurnRecord {
        turn_record(&self.state, &self.state.events)
    }

    fn is_over(&self) -> bool {
        self.state.is_over()
    }

    fn outcome(&self) -> Option<TraceOutcome> {
        Some(outcome_record(outcome(&self.state)?, self.state.turn))
    }

    fn render(&self, colour: bool) -> String {
        super::display::render_board(&self.state, colour)
    }

    fn refusals(&self) -> Vec<Refusal> {
        self.refused.clone()
    }

    fn running_scores(&self) -> Vec<i64> {
        self.state.medals.iter().map(|medals| super::rules::points(medals)).collect()
    }
}

impl crate::game::TypedTraceEngine for OlymbitsEngine {
    type Play = Play;
    fn setup_play(&self, seed: Option<i64>, params: &Value) -> Result<Play, String> {
        let seed = seed.ok_or("olymbits needs a seed")?;
        let params = params_from_json(params)?;
        let state = new_game(seed, &params).map_err(|e| e.to_string())?;
        Ok(Play::new(state))
    }
}

impl crate::game::TypedPlay for Play {
    type Game = super::Olymbits;
    fn typed_state(&self) -> &<Self::Game as crate::game::Game>::State {
        &self.state
    }
}
