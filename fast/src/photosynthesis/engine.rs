//! The fast twin's text-level engine: the same trace keys as the reference's
//! (`twinsim_reference::photosynthesis::trace`), produced from the fast state.

use super::tables::{DEFAULT_RICHNESS, N, NEIGHBOURS};
use super::{Move, State};
use serde_json::{json, Value};
use twinsim_reference::game::{EngineKind, PlayerId, TraceEngine, TracePlay, TurnStructure};
use twinsim_reference::photosynthesis::{protocol, rules::Answer, trace as rtrace};
use twinsim_reference::trace::{Event, Legal, Refusal, SetupRecord, TraceOutcome, TurnRecord};

/// Richness of a cell in this state.
fn richness(s: &State, cell: usize) -> u8 {
    if s.holes >> cell & 1 == 1 {
        0
    } else {
        DEFAULT_RICHNESS[cell]
    }
}

/// The possible-actions lists of this decision point, shuffled as the referee prints them
/// (twin: `protocol::decision_lists`).
pub fn decision_lists(s: &State) -> [Option<Vec<Move>>; 2] {
    let s = &s.synced();
    let mut rng = s.rng;
    let mut out = [None, None];
    for (p, slot) in out.iter_mut().enumerate() {
        if s.is_asked(p) {
            *slot = Some(s.possible_actions_with(p, &mut rng));
        }
    }
    out
}

/// The view texts (twin: `protocol::view_texts`).
pub fn view_texts(s: &State) -> [Option<String>; 2] {
    let lists = decision_lists(s);
    let mut out = [None, None];
    for (p, list) in lists.into_iter().enumerate() {
        let Some(list) = list else { continue };
        let mut t = String::with_capacity(1024);
        if s.executions == 0 {
            t.push_str("37\n");
            for (c, ns) in NEIGHBOURS.iter().enumerate() {
                t.push_str(&format!(
                    "{c} {} {} {} {} {} {} {}\n",
                    richness(s, c),
                    ns[0],
                    ns[1],
                    ns[2],
                    ns[3],
                    ns[4],
                    ns[5]
                ));
            }
        }
        let o = 1 - p;
        t.push_str(&format!(
            "{}\n{}\n{} {}\n{} {} {}\n{}\n",
            s.day,
            s.nutrients,
            s.sun[p],
            s.score[p],
            s.sun[o],
            s.score[o],
            u8::from(s.waiting(o)),
            s.occupied().count_ones()
        ));
        for cell in 0..N {
            if let Some(size) = s.size_at(cell) {
                t.push_str(&format!(
                    "{cell} {size} {} {}\n",
                    u8::from(s.owner[p] >> cell & 1 == 1),
                    s.dormant >> cell & 1
                ));
            }
        }
        t.push_str(&list.len().to_string());
        for m in list {
            t.push('\n');
            t.push_str(&m.action().to_string());
        }
        out[p] = Some(t);
    }
    out
}

/// §13 state object from the fast state (twin: `trace::state_json`).
pub fn state_json(s: &State) -> Value {
    let players: Vec<Value> = (0..2)
        .map(|p| {
            json!({"sun": s.sun[p], "score": s.score[p], "waiting": s.waiting(p), "active": s.active(p)})
        })
        .collect();
    let trees: Vec<Value> = (0..N)
        .filter_map(|c| {
            s.size_at(c).map(|size| json!([c, size, s.owner[1] >> c & 1, s.dormant >> c & 1]))
        })
        .collect();
    let rich: Vec<u8> = (0..N).map(|c| richness(s, c)).collect();
    json!({
        "day": s.day,
        "sun_direction": s.sun_direction,
        "nutrients": s.nutrients,
        "players": players,
        "trees": trees,
        "richness": rich,
        "rng_state": s.generator(),
        "game_over": s.game_over(),
    })
}

fn views(s: &State) -> Vec<Option<String>> {
    view_texts(s).to_vec()
}

fn legal(s: &State) -> Vec<Option<Vec<String>>> {
    decision_lists(s)
        .into_iter()
        .map(|l| {
            l.map(|l| {
                let mut lines: Vec<String> = l.iter().map(|m| m.action().to_string()).collect();
                lines.sort();
                lines
            })
        })
        .collect()
}

/// The envelope's outcome (twin: `trace::trace_outcome`).
pub fn trace_outcome(s: &State) -> Option<TraceOutcome> {
    let o = s.outcome()?;
    Some(rtrace::outcome_record(o, s.score, [s.active(0), s.active(1)], s.executions))
}

/// The fast engine's text-level face.
pub struct FastEngine;

/// The static engine object.
pub static ENGINE: FastEngine = FastEngine;

/// The text-level engine for replay and verification.
pub fn engine() -> Option<&'static dyn TraceEngine> {
    Some(&ENGINE)
}

impl TraceEngine for FastEngine {
    fn game(&self) -> &'static str {
        "photosynthesis"
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

/// A game in progress through the fast engine.
#[derive(Clone, Debug)]
pub struct FastPlay {
    /// The game's packed state.
    pub state: State,
    /// The referee's events of the setup (for the trace's setup record).
    pub setup_events: Vec<String>,
    /// The events of the last frame played.
    pub events: Vec<String>,
    /// The state before the last frame and its typed answers, for its refusals (read from them
    /// only when asked: the reference's `trace::refusals`).
    pub before: State,
    /// The asked players' answers of the last frame (`None`: not asked; none after setup).
    pub answers: [Option<Answer>; 2],
}

impl TracePlay for FastPlay {
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
        let mut list = super::CompactMoves::default();
        self.state.legal_moves(player, &mut list);
        list.as_slice().iter().map(|m| m.action().to_string()).collect()
    }
    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        if actions.len() != 2 {
            return Err(format!("expected 2 action slots, found {}", actions.len()));
        }
        let params = twinsim_reference::photosynthesis::Params { league_level: self.state.league };
        let answers = [0, 1].map(|p| {
            self.state.is_asked(p).then(|| protocol::read_answer(actions[p].as_deref(), &params))
        });
        let mut events = vec![];
        let before = self.state;
        self.state.play_turn(&answers, Some(&mut events)).map_err(|e| e.to_string())?;
        (self.before, self.answers) = (before, answers);
        // Every turn record renders the views: make the draws once, here.
        self.state.sync_views();
        self.events = events;
        Ok(())
    }
    fn refusals(&self) -> Vec<Refusal> {
        rtrace::refusals(&self.before.to_reference(), &self.answers)
    }
    fn running_scores(&self) -> Vec<i64> {
        self.state.score.iter().map(|&s| i64::from(s)).collect()
    }
    fn turn_record(&self) -> TurnRecord {
        let s = &self.state;
        rtrace::turn_record(state_json(s), views(s), legal(s), &self.events, s.executions)
    }
    fn is_over(&self) -> bool {
        self.state.game_over()
    }
    fn outcome(&self) -> Option<TraceOutcome> {
        trace_outcome(&self.state)
    }
    fn render(&self, colour: bool) -> String {
        twinsim_reference::photosynthesis::display::render(&self.state.to_reference(), colour)
    }
}

impl twinsim_reference::game::TypedTraceEngine for FastEngine {
    type Play = FastPlay;
    fn setup_play(&self, seed: Option<i64>, params: &Value) -> Result<FastPlay, String> {
        let seed = seed.ok_or("photosynthesis needs a seed")?;
        let params = rtrace::params_from_json(params)?;
        let mut setup_events = vec![];
        let state = State::new_game(seed, params, Some(&mut setup_events));
        Ok(FastPlay { before: state, state, setup_events, events: vec![], answers: [None, None] })
    }
}

impl twinsim_reference::game::TypedPlay for FastPlay {
    type Game = super::FastPhotosynthesis;
    fn typed_state(&self) -> &<Self::Game as twinsim_reference::game::Game>::State {
        &self.state
    }
}
