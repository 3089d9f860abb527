//! §13 Trace format and state schema: the state, views, legal lists, events and outcome as the
//! traces store them, and the text-level [`TraceEngine`] / [`TracePlay`] of the reference.

use super::display;
use super::protocol;
use super::rules;
use super::rules::{Answer, Effect};
use super::setup;
use super::state::{Params, State};
use crate::game::{EngineKind, PlayerId, TraceEngine, TracePlay, TurnStructure};
use crate::trace::{
    Event, Legal, OutcomeKeys, RanksKey, Refusal, RefusalKind, SetupRecord, TraceOutcome,
    TurnRecord,
};
use serde_json::{json, Value};
use std::borrow::Cow;

/// §11: the SDK aborts a game at its 301st execution.
pub const SDK_MAX_EXECUTIONS: u32 = 300;

/// §13: reads the league from a trace's `params` (`{}` or no `league_level`: the top league).
pub fn params_from_json(params: &Value) -> Result<Params, String> {
    match params.get("league_level") {
        None | Some(Value::Null) => Ok(Params::default()),
        Some(v) => match v.as_u64() {
            Some(level) if (1..=255).contains(&level) => Ok(Params { league_level: level as u8 }),
            _ => Err(format!("league_level must be a positive integer, got {v}")),
        },
    }
}

/// §13 State object.
pub fn state_json(state: &State) -> Value {
    let players: Vec<Value> = state
        .players
        .iter()
        .map(|p| json!({"sun": p.sun, "score": p.score, "waiting": p.waiting, "active": p.active}))
        .collect();
    let trees: Vec<Value> = state
        .trees
        .iter()
        .map(|(&cell, t)| json!([cell, t.size, t.owner, u8::from(t.dormant)]))
        .collect();
    json!({
        "day": state.day,
        "sun_direction": state.sun_direction,
        "nutrients": state.nutrients,
        "players": players,
        "trees": trees,
        "richness": state.richness.to_vec(),
        "rng_state": state.rng.state(),
        "game_over": state.game_over,
    })
}

/// §13 `views`: the texts of this decision point, `null` for a player not asked.
pub fn views(state: &State) -> Vec<Option<String>> {
    protocol::view_texts(state).to_vec()
}

/// §13 `legal`: each asked player's possible actions sorted by byte order, `null` otherwise.
pub fn legal(state: &State) -> Vec<Option<Vec<String>>> {
    protocol::decision_lists(state)
        .into_iter()
        .map(|list| {
            list.map(|list| {
                let mut lines: Vec<String> = list.iter().map(|a| a.to_string()).collect();
                lines.sort();
                lines
            })
        })
        .collect()
}

/// How Photosynthesis' outcome records write the winner (`null`: a draw) and the ranks
/// (1-based).
pub const OUTCOME_KEYS: OutcomeKeys = OutcomeKeys { winner: true, ranks: Some(RanksKey::Ranks) };

/// §13: a turn record from its parts: the state, views, legal lists, the turn's event lines and
/// the executions count so far (both twins build theirs here).
pub fn turn_record(
    state: Value,
    views: Vec<Option<String>>,
    legal: Vec<Option<Vec<String>>>,
    events: &[String],
    executions: u32,
) -> TurnRecord {
    let mut record = TurnRecord::new(state, views);
    record.legal = Some(Legal::PerSeat(legal));
    record.events = Event::texts(events);
    record.extra.insert("executions".into(), json!(executions));
    record
}

/// §13 `outcome`'s extra fields: the scores before the end bonus, who is still active, the
/// executions count and whether it exceeds the SDK's quota.
pub fn outcome_record(
    outcome: crate::game::Outcome,
    raw_scores: [i32; 2],
    active: [bool; 2],
    executions: u32,
) -> TraceOutcome {
    TraceOutcome::from_outcome(outcome, OUTCOME_KEYS)
        .with("raw_scores_before_end_bonus", raw_scores)
        .with("active", active)
        .with("total_executions", executions)
        .with("exceeds_sdk_time_quota", executions > SDK_MAX_EXECUTIONS)
}

/// §13 `outcome` of a finished game (§9).
pub fn trace_outcome(state: &State) -> Option<TraceOutcome> {
    let outcome = rules::outcome(state)?;
    let raw = [0, 1].map(|p| state.players[p].score);
    let active = [0, 1].map(|p| state.players[p].active);
    Some(outcome_record(outcome, raw, active, state.executions))
}

/// The reference engine's text-level face.
pub struct ReferenceEngine;

/// The static engine object `engine()` returns.
pub static ENGINE: ReferenceEngine = ReferenceEngine;

impl TraceEngine for ReferenceEngine {
    fn game(&self) -> &'static str {
        "photosynthesis"
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

/// The refusals of an ACTIONS frame (§6.1 steps 3–4, §7), from the typed answers of the asked
/// players (`None`: not asked) and the state `before` the frame, in the order the frame reports
/// them: a line that does not parse or names a command the league lacks (invalid, message
/// `$p provided invalid input. Expected '<pattern>'`), no answer (timeout), then each action
/// that fails §6.3 validation (illegal, message `$p: <why>`), player 1 validated after player
/// 0's action resolved as the referee does (a seed player 0 grew can then no longer be the
/// "cannot produce seeds" source of player 1's SEED; it fails on its owner instead).
pub fn refusals(before: &State, answers: &[Option<Answer>; 2]) -> Vec<Refusal> {
    let mut out = vec![];
    let mut actions = [None, None];
    for (p, answer) in answers.iter().enumerate() {
        match answer {
            None => {}
            Some(Answer::Action(action)) if rules::command_enabled(before, *action) => {
                actions[p] = Some(*action);
            }
            Some(Answer::Action(_) | Answer::Malformed { .. }) => {
                let expected = before.params.expected_text();
                let message = format!("${p} provided invalid input. Expected '{expected}'");
                out.push(Refusal::new(p, RefusalKind::Invalid, message));
            }
            Some(Answer::Timeout) => {
                let message = format!("${p} has not provided an action in time.");
                out.push(Refusal::new(p, RefusalKind::Timeout, message));
            }
        }
    }
    // Step 4 changes only the trees' size and dormancy before player 1 is validated; the state
    // is copied only when player 1 has an action to validate after such a change.
    let mut resolved = Cow::Borrowed(before);
    for (p, action) in actions.iter().enumerate() {
        let Some(action) = *action else { continue };
        let sun = before.players[p].sun;
        let (cell, grows) = match rules::validate(&resolved, p, action, sun) {
            Err(why) => {
                out.push(Refusal::new(p, RefusalKind::Illegal, format!("${p}: {why}")));
                continue;
            }
            Ok(None) => continue,
            Ok(Some(Effect::Grow { cell, .. })) => (cell, true),
            Ok(Some(Effect::Complete { cell } | Effect::Seed { source: cell, .. })) => {
                (cell, false)
            }
        };
        if p == 0 && actions[1].is_some() {
            if let Some(tree) = resolved.to_mut().trees.get_mut(&cell) {
                tree.size += u8::from(grows);
                tree.dormant = true;
            }
        }
    }
    out
}

/// A game in progress through the reference engine.
#[derive(Clone, Debug)]
pub struct Play {
    /// The state at the current decision point.
    pub state: State,
    /// The day-0 gathering events.
    pub setup_events: Vec<String>,
    /// The events of the last turn played.
    pub events: Vec<String>,
    /// The seats refused in the last turn ([`TracePlay::refusals`]).
    pub refused: Vec<Refusal>,
}

impl Play {
    /// A game from a seed and league.
    pub fn new(seed: i64, params: Params) -> Self {
        let (state, setup_events) = setup::new_game(seed, params);
        Play { state, setup_events, events: vec![], refused: vec![] }
    }
}

impl TracePlay for Play {
    fn boxed_clone(&self) -> Box<dyn TracePlay> {
        Box::new(self.clone())
    }

    fn num_players(&self) -> usize {
        2
    }

    fn initial_record(&self) -> SetupRecord {
        SetupRecord {
            initial_legal: Some(Legal::PerSeat(legal(&self.state))),
            setup_events: Some(Event::texts(&self.setup_events)),
            ..SetupRecord::new(state_json(&self.state), views(&self.state))
        }
    }

    fn players_to_act(&self) -> Vec<PlayerId> {
        (0..2).filter(|&p| self.state.is_asked(p)).collect()
    }

    fn legal_lines(&self, player: PlayerId) -> Vec<String> {
        if !self.state.is_asked(player) {
            return vec![];
        }
        let mut lines = vec!["WAIT".to_string()];
        for group in rules::possible_action_groups(&self.state, player) {
            lines.extend(group.iter().map(|a| a.to_string()));
        }
        lines
    }

    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        let actions = crate::game::turn_lines::<2>(actions)?;
        let params = self.state.params;
        let answers = [0, 1].map(|p| {
            self.state.is_asked(p).then(|| protocol::read_answer(actions[p].as_deref(), &params))
        });
        let refused = refusals(&self.state, &answers);
        self.events = rules::play_turn(&mut self.state, &answers).map_err(|e| e.to_string())?;
        self.refused = refused;
        Ok(())
    }

    fn turn_record(&self) -> TurnRecord {
        let s = &self.state;
        turn_record(state_json(s), views(s), legal(s), &self.events, s.executions)
    }

    fn is_over(&self) -> bool {
        self.state.game_over
    }

    fn outcome(&self) -> Option<TraceOutcome> {
        trace_outcome(&self.state)
    }

    fn render(&self, colour: bool) -> String {
        display::render(&self.state, colour)
    }

    fn refusals(&self) -> Vec<Refusal> {
        self.refused.clone()
    }

    fn running_scores(&self) -> Vec<i64> {
        self.state.players.iter().map(|p| i64::from(p.score)).collect()
    }
}

impl crate::game::TypedTraceEngine for ReferenceEngine {
    type Play = Play;
    fn setup_play(&self, seed: Option<i64>, params: &Value) -> Result<Play, String> {
        let seed = seed.ok_or("photosynthesis needs a seed")?;
        let params = params_from_json(params)?;
        let (state, setup_events) = setup::new_game(seed, params);
        Ok(Play { state, setup_events, events: vec![], refused: vec![] })
    }
}

impl crate::game::TypedPlay for Play {
    type Game = super::Photosynthesis;
    fn typed_state(&self) -> &<Self::Game as crate::game::Game>::State {
        &self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::photosynthesis::{Action, Tree};

    /// §6.1 step 4: player 1's SEED from player 0's seed, which player 0 grows in the same
    /// frame, fails on its owner, as the referee (which validates player 1 after player 0's
    /// action) says; validated on the state before the frame it would fail on the seed's size.
    #[test]
    fn player_one_is_validated_after_player_zero_resolved() {
        let mut state = State::blank(1, Params::default());
        state.trees.insert(0, Tree { size: 0, owner: 0, dormant: false });
        for player in &mut state.players {
            player.sun = 10;
        }
        let answers =
            [Some(Answer::Action(Action::Grow(0))), Some(Answer::Action(Action::Seed(0, 1)))];
        let refused = refusals(&state, &answers);
        let message = "$1: The tree on cell 0 is owned by opponent";
        assert_eq!(refused, [Refusal::new(1, RefusalKind::Illegal, message)]);
        let events = rules::play_turn(&mut state.clone(), &answers).expect("a frame");
        assert!(events.iter().any(|e| e == message), "{events:?}");
    }
}
