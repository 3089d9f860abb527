//! §13 State schema: the JSON of the traces, and the text-level engine (`TraceEngine`).

use super::protocol;
use super::rules;
use super::setup;
use super::state::{Event, League, Params, Point, Reason, State};
use crate::game::{EngineKind, PlayerId, TraceEngine, TracePlay, TurnStructure};
use crate::trace::{Refusal, RefusalKind};
use serde_json::{json, Map, Value};

fn point(p: Point) -> Value {
    json!([p.x, p.y])
}

/// §13: the `State` object.
pub fn state_json(state: &State) -> Value {
    let grid: Vec<String> = state
        .heights
        .iter()
        .map(|row| row.iter().map(|h| h.map_or('.', |h| (b'0' + h) as char)).collect())
        .collect();
    let units: Vec<Vec<Value>> =
        state.units.iter().map(|us| us.iter().map(|&u| point(u)).collect()).collect();
    json!({
        "round": state.round,
        "to_move": state.to_move,
        "game_over": state.game_over,
        "size": state.size,
        "grid": grid,
        "units": units,
        "scores": state.scores,
        "dead": state.dead,
    })
}

/// §13.1: one event object.
pub fn event_json(event: &Event) -> Value {
    match event {
        Event::Move { player, unit, to, build, build_cancelled, scored } => json!({
            "type": "MOVE&BUILD",
            "player": player,
            "unit": unit,
            "to": point(*to),
            "build": point(*build),
            "build_cancelled": build_cancelled,
            "scored": scored,
        }),
        Event::Push { player, unit, pushed, push_to, build, cancelled } => json!({
            "type": "PUSH&BUILD",
            "player": player,
            "unit": unit,
            "pushed": [pushed.0, pushed.1],
            "push_to": point(*push_to),
            "build": point(*build),
            "cancelled": cancelled,
        }),
        Event::Eliminated { player, reason, message } => json!({
            "type": "eliminated",
            "player": player,
            "reason_code": reason.code(),
            "message": message,
        }),
    }
}

/// The refused seats of a turn, from its typed `eliminated` events (§5, §6, §8): a line that
/// matches no pattern or names the wrong command (invalid), a move or push the rules forbid
/// (illegal), no answer (timeout), `ACCEPT-DEFEAT` (resigned); the message is
/// `<reason code>: <message>`.
pub fn refusals(events: &[Event]) -> Vec<Refusal> {
    let refusal = |event: &Event| match event {
        Event::Eliminated { player, reason, message } => {
            let kind = match reason {
                Reason::SelfDestruct => RefusalKind::Resigned,
                Reason::Timeout => RefusalKind::Timeout,
                Reason::InvalidInput | Reason::InvalidCommand => RefusalKind::Invalid,
                _ => RefusalKind::Illegal,
            };
            Some(Refusal::new(*player, kind, format!("{}: {message}", reason.code())))
        }
        _ => None,
    };
    Refusal::first_per_seat(events.iter().filter_map(refusal))
}

/// §13: `views`: the input of the player to move next; `null` for the other one and for all at
/// game over.
pub fn views_json(state: &State) -> Value {
    let views: Vec<Value> = (0..2)
        .map(|p| {
            if !state.game_over && state.to_move == Some(p) {
                Value::String(protocol::render_turn_input(state, p))
            } else {
                Value::Null
            }
        })
        .collect();
    Value::Array(views)
}

/// §13: `legal`: the sorted legal list of the player to move (`[]` at game over).
pub fn legal_json(state: &State) -> Value {
    match state.to_move.filter(|_| !state.game_over) {
        Some(p) => rules::legal_actions(state, p).iter().map(|a| a.to_string()).collect(),
        None => json!([]),
    }
}

/// §13 `outcome`: scores, winner, ranking (0 = first, `[0,0]` a draw), reason, rounds played,
/// eliminated flags.
pub fn outcome_json(state: &State) -> Option<Value> {
    if !state.game_over {
        return None;
    }
    let scores = rules::final_scores(state);
    let (winner, ranking) = match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => (json!(0), json!([0, 1])),
        std::cmp::Ordering::Less => (json!(1), json!([1, 0])),
        std::cmp::Ordering::Equal => (Value::Null, json!([0, 0])),
    };
    Some(json!({
        "scores": scores,
        "winner": winner,
        "ranking": ranking,
        "reason": state.end_reason.map(|r| r.code()),
        "rounds_played": state.round,
        "eliminated": state.dead,
    }))
}

/// Reads the trace `params` (§0/§2/§11): `game_version` (default 3), `mapIndex` (default -1),
/// `symmetric` (default false).
pub fn params_from_json(params: &Value) -> Result<Params, String> {
    let mut out = Params::default();
    if let Some(v) = params.get("game_version").filter(|v| !v.is_null()) {
        let v = v.as_i64().ok_or("game_version must be an integer")?;
        out.league = League::from_version(v).ok_or(format!("unknown game_version {v}"))?;
    }
    if let Some(v) = params.get("mapIndex").filter(|v| !v.is_null()) {
        out.map_index = v.as_i64().ok_or("mapIndex must be an integer")?.clamp(-1, 3) as i32;
    }
    if let Some(v) = params.get("symmetric").filter(|v| !v.is_null()) {
        out.symmetric = v.as_bool().ok_or("symmetric must be a boolean")?;
    }
    Ok(out)
}

/// The reference engine, text level.
pub struct Engine;

/// The static engine object.
pub static ENGINE: Engine = Engine;

impl TraceEngine for Engine {
    fn game(&self) -> &'static str {
        "wondev-woman"
    }
    fn kind(&self) -> EngineKind {
        EngineKind::Reference
    }
    fn turns(&self) -> TurnStructure {
        TurnStructure::Alternating
    }
    fn setup(&self, seed: Option<i64>, params: &Value) -> Result<Box<dyn TracePlay>, String> {
        let seed = seed.ok_or("wondev-woman needs a seed")?;
        let params = params_from_json(params)?;
        Ok(Box::new(Play { state: setup::new_game(seed, &params) }))
    }
}

/// A game in progress behind [`Engine`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The state.
    pub state: State,
}

impl TracePlay for Play {
    fn boxed_clone(&self) -> Box<dyn TracePlay> {
        Box::new(self.clone())
    }
    fn num_players(&self) -> usize {
        2
    }
    fn initial_record(&self) -> Map<String, Value> {
        let s = &self.state;
        let init = protocol::render_init(s);
        let mut m = Map::new();
        m.insert("init_input".into(), json!([init, init]));
        m.insert("initial".into(), state_json(s));
        m.insert(
            "initial_views".into(),
            json!([protocol::render_turn_input(s, 0), protocol::render_turn_input(s, 1)]),
        );
        m.insert("initial_legal".into(), legal_json(s));
        m
    }
    fn players_to_act(&self) -> Vec<PlayerId> {
        self.state.to_move.filter(|_| !self.state.game_over).into_iter().collect()
    }
    fn legal_lines(&self, player: PlayerId) -> Vec<String> {
        if self.state.game_over || self.state.to_move != Some(player) {
            return vec![];
        }
        let lines: Vec<String> =
            rules::legal_actions(&self.state, player).iter().map(|a| a.to_string()).collect();
        if lines.is_empty() {
            // §8: a stuck player must still print something; every line eliminates it.
            vec!["ACCEPT-DEFEAT".to_string()]
        } else {
            lines
        }
    }
    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        let [line] = crate::game::turn_lines::<1>(actions)?;
        super::referee::play_turn(&mut self.state, line.as_deref()).map_err(|e| format!("{e:?}"))
    }
    fn turn_record(&self) -> Map<String, Value> {
        let s = &self.state;
        let mut m = Map::new();
        if let Some(last) = &s.last_turn {
            m.insert("player".into(), json!(last.player));
            m.insert("round".into(), json!(last.round));
            m.insert("events".into(), last.events.iter().map(event_json).collect());
        }
        m.insert("state".into(), state_json(s));
        m.insert("views".into(), views_json(s));
        m.insert("legal".into(), legal_json(s));
        m
    }
    fn is_over(&self) -> bool {
        self.state.game_over
    }
    fn outcome(&self) -> Option<Value> {
        outcome_json(&self.state)
    }
    fn render(&self, colour: bool) -> String {
        super::display::render(&self.state, None, colour)
    }
    fn perft(&self, depth: u32) -> Option<u64> {
        Some(crate::game::typed_perft::<super::WondevWoman>(&self.state, depth))
    }
    fn refusals(&self) -> Vec<Refusal> {
        self.state.last_turn.as_ref().map_or_else(Vec::new, |last| refusals(&last.events))
    }
}
