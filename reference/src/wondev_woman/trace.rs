//! §13 State schema: the JSON of the traces, and the text-level engine (`TraceEngine`).

use super::protocol;
use super::rules;
use super::setup;
use super::state::{Event, League, Params, Point, Reason, State};
use crate::game::{EngineKind, PlayerId, TraceEngine, TracePlay, TurnStructure};
use crate::trace::{
    Legal, OutcomeKeys, RanksKey, Refusal, RefusalKind, SetupRecord, TraceOutcome, TurnRecord,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

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

/// §13.1: one event object of a trace turn, by its `type`. Points are `[x, y]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum EventRecord {
    /// A unit moved and built.
    #[serde(rename = "MOVE&BUILD")]
    Move {
        /// Player.
        player: PlayerId,
        /// Unit.
        unit: usize,
        /// Where it moved.
        to: [i32; 2],
        /// Where it built.
        build: [i32; 2],
        /// The build was cancelled (hidden unit on the cell).
        build_cancelled: bool,
        /// A point was scored.
        scored: bool,
    },
    /// A unit pushed another and built.
    #[serde(rename = "PUSH&BUILD")]
    Push {
        /// Pushing player.
        player: PlayerId,
        /// Pushing unit.
        unit: usize,
        /// The victim, `[player, unit]`.
        pushed: [usize; 2],
        /// Where the victim was pushed.
        push_to: [i32; 2],
        /// Where the pusher built (the victim's cell).
        build: [i32; 2],
        /// The whole push was cancelled (hidden unit on the target cell).
        cancelled: bool,
    },
    /// A player was eliminated.
    #[serde(rename = "eliminated")]
    Eliminated {
        /// Player.
        player: PlayerId,
        /// The reason code (`Reason::code`).
        reason_code: String,
        /// The referee's message.
        message: String,
    },
}

/// §13.1: the trace event of one typed event.
pub fn event_record(event: &Event) -> crate::trace::Event {
    let xy = |p: &Point| [p.x, p.y];
    crate::trace::Event::WondevWoman(match event {
        Event::Move { player, unit, to, build, build_cancelled, scored } => EventRecord::Move {
            player: *player,
            unit: *unit,
            to: xy(to),
            build: xy(build),
            build_cancelled: *build_cancelled,
            scored: *scored,
        },
        Event::Push { player, unit, pushed, push_to, build, cancelled } => EventRecord::Push {
            player: *player,
            unit: *unit,
            pushed: [pushed.0, pushed.1],
            push_to: xy(push_to),
            build: xy(build),
            cancelled: *cancelled,
        },
        Event::Eliminated { player, reason, message } => EventRecord::Eliminated {
            player: *player,
            reason_code: reason.code().to_string(),
            message: message.clone(),
        },
    })
}

/// §13: the turn record after a turn: `player` and `round` of the turn played (where one was),
/// its events, the state, views and legal list.
pub fn turn_record(
    state: Value,
    views: Vec<Option<String>>,
    legal: Vec<String>,
    last: Option<&super::state::LastTurn>,
) -> TurnRecord {
    let mut record = TurnRecord::new(state, views);
    record.legal = Some(Legal::Mover(legal));
    if let Some(last) = last {
        record.extra.insert("player".into(), json!(last.player));
        record.extra.insert("round".into(), json!(last.round));
        record.events = last.events.iter().map(event_record).collect();
    }
    record
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
pub fn views(state: &State) -> Vec<Option<String>> {
    (0..2)
        .map(|p| {
            (!state.game_over && state.to_move == Some(p))
                .then(|| protocol::render_turn_input(state, p))
        })
        .collect()
}

/// §13: `legal`: the sorted legal list of the player to move (`[]` at game over).
pub fn legal(state: &State) -> Vec<String> {
    match state.to_move.filter(|_| !state.game_over) {
        Some(p) => rules::legal_actions(state, p).iter().map(|a| a.to_string()).collect(),
        None => vec![],
    }
}

/// How Wondev Woman's outcome records write the winner (`null`: a draw) and the ranking
/// (0-based: `[0, 1]`, `[1, 0]`, `[0, 0]` a draw).
pub const OUTCOME_KEYS: OutcomeKeys =
    OutcomeKeys { winner: true, ranks: Some(RanksKey::RankingFromZero) };

/// §13 `outcome`: scores, winner, ranking (0 = first, `[0,0]` a draw), reason, rounds played,
/// eliminated flags.
pub fn trace_outcome(state: &State) -> Option<TraceOutcome> {
    if !state.game_over {
        return None;
    }
    let scores = rules::final_scores(state).map(i64::from);
    Some(outcome_of(&scores, state.end_reason, state.round, state.dead))
}

/// The outcome from the final scores (the higher wins, equal scores draw), the end reason, the
/// rounds played and who was eliminated; both twins build theirs here.
pub fn outcome_of(
    scores: &[i64],
    reason: Option<super::state::EndReason>,
    rounds: impl Serialize,
    eliminated: [bool; 2],
) -> TraceOutcome {
    let winner = match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    let reason = reason.map_or("", |r| r.code());
    TraceOutcome::new(scores.to_vec(), winner, reason, OUTCOME_KEYS)
        .with("rounds_played", rounds)
        .with("eliminated", eliminated)
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
        Ok(Box::new(crate::game::TypedTraceEngine::setup_play(self, seed, params)?))
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
    fn initial_record(&self) -> SetupRecord {
        let s = &self.state;
        let init = protocol::render_init(s);
        let views = (0..2).map(|p| Some(protocol::render_turn_input(s, p))).collect();
        SetupRecord {
            init_input: Some(vec![init.clone(), init]),
            initial_legal: Some(Legal::Mover(legal(s))),
            ..SetupRecord::new(state_json(s), views)
        }
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
    fn turn_record(&self) -> TurnRecord {
        let s = &self.state;
        turn_record(state_json(s), views(s), legal(s), s.last_turn.as_ref())
    }
    fn is_over(&self) -> bool {
        self.state.game_over
    }
    fn outcome(&self) -> Option<TraceOutcome> {
        trace_outcome(&self.state)
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
    fn running_scores(&self) -> Vec<i64> {
        self.state.scores.iter().map(|&s| i64::from(s)).collect()
    }
}

impl crate::game::TypedTraceEngine for Engine {
    type Play = Play;
    fn setup_play(&self, seed: Option<i64>, params: &Value) -> Result<Play, String> {
        let seed = seed.ok_or("wondev-woman needs a seed")?;
        let params = params_from_json(params)?;
        Ok(Play { state: setup::new_game(seed, &params) })
    }
}

impl crate::game::TypedPlay for Play {
    type Game = super::WondevWoman;
    fn typed_state(&self) -> &<Self::Game as crate::game::Game>::State {
        &self.state
    }
}
