//! The referee trace format (`traces/FORMAT.md`) and the replayer that checks an engine against
//! it, turn by turn.
//!
//! A trace line is one game played by the official referee: seed, params, the state after setup,
//! and for every turn the exact lines the bots printed with the state, views (and, where the
//! game's traces have them, legal lists and events) the referee produced. [`replay`] feeds the
//! lines to a [`TraceEngine`] and compares every field the engine reproduces; the first turn that
//! differs is reported as game, seed, turn, field path, expected and found.

use crate::game::{Outcome, PlayerId, TraceEngine, TracePlay};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// One game of a trace file (one JSON line).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TraceGame {
    /// `xmas-rush`, `photosynthesis`, `zuniq`, `olymbits` or `wondev-woman`.
    pub game: String,
    /// The referee repository and commit that played the game.
    #[serde(default)]
    pub source: String,
    /// The seed the referee was given (`null` where the game has no seeded setup).
    #[serde(default)]
    pub seed: Option<i64>,
    /// League and other setup parameters, plus informational bot names.
    #[serde(default)]
    pub params: Value,
    /// The resolved turns, in order.
    #[serde(default)]
    pub turns: Vec<TraceTurn>,
    /// Final result of the full game (`null` where it was not played out).
    #[serde(default)]
    pub outcome: Option<TraceOutcome>,
    /// Only the first turns are stored.
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// `initial`, `initial_views` and the other setup fields, by their trace keys.
    #[serde(flatten)]
    pub setup: SetupRecord,
}

fn is_false(flag: &bool) -> bool {
    !flag
}

/// What setup produced, as the traces record it and [`TracePlay::initial_record`] reproduces
/// it: the fields every game has (`initial`, `initial_views`), typed, the ones some games have
/// (`init_input`, `initial_legal`, `setup_events`), and any other envelope field a trace writes
/// beside them (X-mas Rush's informational `players`) under `extra`. The envelope's `seed` and
/// `params` are [`TraceGame`]'s own fields: an engine is set up from them, it does not produce
/// them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SetupRecord {
    /// The game's own state object after setup, before the first turn (`null` where a record
    /// lacks it, which [`replay`] reports; not written then).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub initial: Value,
    /// What each seat is sent before its first action, `null` for a seat that is not asked
    /// (like a turn's [`TurnRecord::views`]). Where `init_input` is absent, the referee traces
    /// of some games start these with the init lines ([`normalize_setup`]).
    #[serde(default)]
    pub initial_views: Vec<Option<String>>,
    /// What each seat reads once before its first turn (`""` where it reads nothing), where the
    /// record has it apart from the first view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_input: Option<Vec<String>>,
    /// The legal lines after setup, where the game's traces list them (the shapes of a turn's
    /// [`TurnRecord::legal`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_legal: Option<Legal>,
    /// The referee's messages during setup, where the game's traces have them (Photosynthesis'
    /// day-0 gathering).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup_events: Option<Vec<Event>>,
    /// Other envelope fields, by their trace keys (X-mas Rush's `players`).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl SetupRecord {
    /// A record of the state and first views alone.
    pub fn new(initial: Value, initial_views: Vec<Option<String>>) -> SetupRecord {
        SetupRecord { initial, initial_views, ..SetupRecord::default() }
    }

    /// The record as JSON object fields of a trace envelope.
    pub fn to_map(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            _ => unreachable!("a setup record serializes to an object"),
        }
    }

    /// Seat `seat`'s first view (`""` where there is none).
    pub fn initial_view(&self, seat: PlayerId) -> &str {
        self.initial_views.get(seat).and_then(Option::as_deref).unwrap_or("")
    }

    /// Seat `seat`'s init input (`None` where the record has none for it).
    pub fn init_input_of(&self, seat: PlayerId) -> Option<&str> {
        self.init_input.as_ref()?.get(seat).map(String::as_str)
    }
}

/// One resolved turn of a trace: the lines the bots printed and what the referee made of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceTurn {
    /// The exact line each player printed (`null`: no answer); for alternating games, the
    /// mover's line alone.
    pub actions: Vec<Option<String>>,
    /// The referee's record of the turn (what an engine reproduces, [`TracePlay::turn_record`]).
    #[serde(flatten)]
    pub record: TurnRecord,
}

/// What a turn produced, as the traces record it and [`TracePlay::turn_record`] reproduces it:
/// the fields every game has, typed, and the few that are one game's own under `extra`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The game's own state object after the turn (its schema is the game's `FORMAT.md`
    /// section; kept as JSON so one record type serves every game).
    pub state: Value,
    /// The input each seat reads for its next turn, `null` for a seat that is not asked.
    pub views: Vec<Option<String>>,
    /// The legal lines after the turn, where the game's traces list them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal: Option<Legal>,
    /// What happened during the turn, in the referee's order.
    #[serde(default)]
    pub events: Vec<Event>,
    /// One game's own turn fields, by their trace keys (Photosynthesis' `executions`, Wondev
    /// Woman's `player` and `round`).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl TurnRecord {
    /// A record with no legal list, no events and no extra fields.
    pub fn new(state: Value, views: Vec<Option<String>>) -> TurnRecord {
        TurnRecord { state, views, legal: None, events: Vec::new(), extra: Map::new() }
    }

    /// The record as the JSON object of a trace turn (without `actions`).
    pub fn to_map(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            _ => unreachable!("a turn record serializes to an object"),
        }
    }
}

/// A turn's `legal` field: the two shapes the traces use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Legal {
    /// The legal lines of the one player to move (alternating games: Zuniq, Wondev Woman;
    /// `[]` once the game is over).
    Mover(Vec<String>),
    /// Each seat's legal lines, `null` for a seat that is not asked (Photosynthesis).
    PerSeat(Vec<Option<Vec<String>>>),
}

/// One event of a turn: a line of the referee's game summary, or a structured record where
/// the game's traces write one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Event {
    /// A summary line (X-mas Rush, Photosynthesis, Zuniq, Olymbits).
    Text(String),
    /// A Wondev Woman event object (its `FORMAT.md` §13.1).
    WondevWoman(crate::wondev_woman::trace::EventRecord),
}

impl Event {
    /// The summary line, for a text event.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Event::Text(text) => Some(text),
            Event::WondevWoman(_) => None,
        }
    }

    /// Text events, one per summary line.
    pub fn texts<T: ToString>(lines: impl IntoIterator<Item = T>) -> Vec<Event> {
        lines.into_iter().map(|line| Event::Text(line.to_string())).collect()
    }
}

impl From<String> for Event {
    fn from(text: String) -> Event {
        Event::Text(text)
    }
}

/// How a game's outcome records write the winner and the ranks: the traces of the five games
/// differ, and a record is written back the way it was read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OutcomeKeys {
    /// The record has a `winner` key (`null`: no single winner).
    pub winner: bool,
    /// Under which key and in which convention the record has the ranks, if it has them.
    pub ranks: Option<RanksKey>,
}

/// The key and convention of an outcome's ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RanksKey {
    /// `ranks`, 1-based (Photosynthesis).
    Ranks,
    /// `ranking`, 1-based (Olymbits).
    Ranking,
    /// `ranking`, 0-based: `0` is first (Wondev Woman). Read from a record whose best rank
    /// is 0, which a 1-based ranking never has.
    RankingFromZero,
}

/// The final result of a game, as the traces' `outcome` object and [`TracePlay::outcome`] give
/// it: what every game records, typed, and each game's own fields under `extra`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "OutcomeRecord", into = "OutcomeRecord")]
pub struct TraceOutcome {
    /// Each seat's final score.
    pub scores: Vec<i64>,
    /// The single winner, if there is one: the record's `winner`, or where the game's records
    /// have none (Olymbits) the one seat ranked first alone.
    pub winner: Option<PlayerId>,
    /// Each seat's 1-based rank, tied seats sharing one: the record's own where it has them,
    /// else [`TraceOutcome::derived_ranks`].
    pub ranks: Vec<usize>,
    /// Why the game ended, in the trace vocabulary.
    pub reason: String,
    /// One game's own outcome fields, by their trace keys (`turns`, `plies`, `claims`,
    /// `turns_played`, `rounds_played`, `eliminated`, `active`, ...).
    pub extra: Map<String, Value>,
    /// Which of `winner` and the ranks the record writes, and how.
    pub keys: OutcomeKeys,
}

impl TraceOutcome {
    /// An outcome whose ranks are [`TraceOutcome::derived_ranks`], written with `keys`.
    pub fn new(
        scores: Vec<i64>,
        winner: Option<PlayerId>,
        reason: impl Into<String>,
        keys: OutcomeKeys,
    ) -> TraceOutcome {
        let ranks = TraceOutcome::derived_ranks(&scores, winner);
        TraceOutcome { scores, winner, ranks, reason: reason.into(), extra: Map::new(), keys }
    }

    /// The outcome of a typed [`Outcome`]: its scores, ranks and reason, and its single winner.
    pub fn from_outcome(outcome: Outcome, keys: OutcomeKeys) -> TraceOutcome {
        let winner = outcome.winner();
        let Outcome { scores, ranks, reason } = outcome;
        TraceOutcome { scores, winner, ranks, reason, extra: Map::new(), keys }
    }

    /// The ranks of a record that writes none: the single winner first and every other seat
    /// second, else by score ([`Outcome::ranks_from_scores`]).
    pub fn derived_ranks(scores: &[i64], winner: Option<PlayerId>) -> Vec<usize> {
        match winner {
            Some(w) => (0..scores.len()).map(|p| if p == w { 1 } else { 2 }).collect(),
            None => Outcome::ranks_from_scores(scores),
        }
    }

    /// Adds one game-specific field.
    pub fn with(mut self, key: &str, value: impl Serialize) -> TraceOutcome {
        let value = serde_json::to_value(value).expect("an outcome field serializes");
        self.extra.insert(key.to_string(), value);
        self
    }

    /// The outcome as the JSON object of a trace.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("an outcome serializes")
    }
}

/// The outcome as the compact JSON of a trace.
impl fmt::Display for TraceOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_value())
    }
}

/// The wire layout of [`TraceOutcome`]: `winner` present or not, the ranks under one of two
/// keys.
#[derive(Clone, Serialize, Deserialize)]
struct OutcomeRecord {
    scores: Vec<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    winner: Option<Option<PlayerId>>,
    #[serde(flatten)]
    ranks: Option<RanksRecord>,
    reason: String,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

/// A key that is present, `null` or not (`Some(None)` for `null`; an absent key is the
/// field's default, `None`).
fn present<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<PlayerId>>, D::Error> {
    Option::<PlayerId>::deserialize(deserializer).map(Some)
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RanksRecord {
    Ranks(Vec<usize>),
    Ranking(Vec<usize>),
}

impl From<OutcomeRecord> for TraceOutcome {
    fn from(record: OutcomeRecord) -> TraceOutcome {
        let (key, ranks) = match record.ranks {
            None => (None, TraceOutcome::derived_ranks(&record.scores, record.winner.flatten())),
            Some(RanksRecord::Ranks(ranks)) => (Some(RanksKey::Ranks), ranks),
            Some(RanksRecord::Ranking(ranks)) if ranks.contains(&0) => {
                (Some(RanksKey::RankingFromZero), ranks.iter().map(|r| r + 1).collect())
            }
            Some(RanksRecord::Ranking(ranks)) => (Some(RanksKey::Ranking), ranks),
        };
        // A record without `winner` (Olymbits) has its unique first as the winner.
        let winner = match record.winner {
            Some(winner) => winner,
            None => {
                let mut first = (0..ranks.len()).filter(|&p| ranks[p] == 1);
                first.next().filter(|_| first.next().is_none())
            }
        };
        TraceOutcome {
            scores: record.scores,
            winner,
            ranks,
            reason: record.reason,
            extra: record.extra,
            keys: OutcomeKeys { winner: record.winner.is_some(), ranks: key },
        }
    }
}

impl From<TraceOutcome> for OutcomeRecord {
    fn from(outcome: TraceOutcome) -> OutcomeRecord {
        let TraceOutcome { scores, winner, ranks, reason, extra, keys } = outcome;
        let ranks = keys.ranks.map(|key| match key {
            RanksKey::Ranks => RanksRecord::Ranks(ranks),
            RanksKey::Ranking => RanksRecord::Ranking(ranks),
            RanksKey::RankingFromZero => {
                RanksRecord::Ranking(ranks.iter().map(|r| r.saturating_sub(1)).collect())
            }
        });
        OutcomeRecord { scores, winner: keys.winner.then_some(winner), ranks, reason, extra }
    }
}

/// Why the referee refused a seat's answer in a turn ([`TracePlay::refusals`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    /// The line is not a command of the game's protocol (it does not parse, names a command the
    /// league lacks, or is the wrong kind of command for the turn).
    Invalid,
    /// A well-formed command that the rules forbid in this position.
    Illegal,
    /// No answer in time.
    Timeout,
    /// The seat gave up on purpose (Wondev Woman's `ACCEPT-DEFEAT` of a stuck player).
    Resigned,
}

impl RefusalKind {
    /// The answer was given and refused for what it said (invalid or illegal), as opposed to
    /// missing or a resignation.
    pub fn is_bad_answer(self) -> bool {
        matches!(self, RefusalKind::Invalid | RefusalKind::Illegal)
    }
}

/// One seat's answer refused by the referee in a turn: who, why, and the referee's own message
/// for it (the text its event shows, markup removed), kept as data.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Refusal {
    /// The refused seat.
    pub seat: PlayerId,
    /// Why.
    pub kind: RefusalKind,
    /// The referee's message.
    pub message: String,
}

impl Refusal {
    /// A refusal of `seat`'s answer.
    pub fn new(seat: PlayerId, kind: RefusalKind, message: impl Into<String>) -> Refusal {
        Refusal { seat, kind, message: message.into() }
    }

    /// The first of each seat's refusals, in order (a seat is refused at most once a turn).
    pub fn first_per_seat(refusals: impl IntoIterator<Item = Refusal>) -> Vec<Refusal> {
        let mut out: Vec<Refusal> = Vec::new();
        for refusal in refusals {
            if out.iter().all(|r| r.seat != refusal.seat) {
                out.push(refusal);
            }
        }
        out
    }
}

/// A trace line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceReadError {
    /// 1-based line in the file.
    pub line: usize,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for TraceReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TraceReadError {}

/// Parses a JSON Lines trace file (blank lines are skipped).
pub fn parse_jsonl(text: &str) -> Result<Vec<TraceGame>, TraceReadError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| TraceReadError { line: i + 1, message: e.to_string() })
        })
        .collect()
}

/// Parses a JSON Lines trace file line by line, keeping every readable game: returns the games
/// and one error per unreadable line (blank lines are skipped), so one truncated last line does
/// not cost the rest of the file.
pub fn parse_jsonl_lenient(text: &str) -> (Vec<TraceGame>, Vec<TraceReadError>) {
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str(line) {
            Ok(game) => games.push(game),
            Err(e) => errors.push(TraceReadError { line: index + 1, message: e.to_string() }),
        }
    }
    (games, errors)
}

/// Lines of init input that the referee's own trace files put at the start of the first view
/// (`initial_views`) instead of under `init_input` ([`GameInfo::embedded_init_lines`]); 0 for
/// an unknown game.
///
/// [`GameInfo::embedded_init_lines`]: crate::registry::GameInfo::embedded_init_lines
fn embedded_init_lines(game: &str) -> usize {
    game.parse::<crate::registry::GameId>().map_or(0, |g| g.info().embedded_init_lines)
}

/// Brings a setup record to the one layout of every game: `init_input` holds what each seat
/// reads once before its first turn (`""` where the game has none) and `initial_views` only the
/// first turn's lines. Records that already have `init_input` are left as they are; older ones
/// (the referee traces of Photosynthesis and Olymbits) have their init lines split off.
pub fn normalize_setup(game: &str, setup: &mut SetupRecord) {
    if setup.init_input.is_some() {
        return;
    }
    let lines = embedded_init_lines(game);
    let mut init_input = Vec::with_capacity(setup.initial_views.len());
    for view in &mut setup.initial_views {
        match view {
            Some(text) if lines > 0 => {
                let parts: Vec<&str> = text.splitn(lines + 1, '\n').collect();
                let (init, rest) = parts.split_at(lines.min(parts.len()));
                init_input.push(init.join("\n"));
                *text = rest.first().copied().unwrap_or("").to_string();
            }
            _ => init_input.push(String::new()),
        }
    }
    setup.init_input = Some(init_input);
}

/// Where in a game a difference was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// After setup, before the first turn.
    Setup,
    /// After the n-th resolved turn (1-based index into `turns`).
    Turn(usize),
    /// The final outcome.
    Outcome,
}

impl fmt::Display for Moment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Moment::Setup => write!(f, "setup"),
            Moment::Turn(n) => write!(f, "turn {n}"),
            Moment::Outcome => write!(f, "outcome"),
        }
    }
}

/// One field that differs from the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// When.
    pub moment: Moment,
    /// The field's path, e.g. `state.players[1].score` or `views[0] line 4`.
    pub field: String,
    /// The referee's value (from the trace).
    pub expected: String,
    /// The engine's value.
    pub found: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: expected {}, found {}",
            self.moment, self.field, self.expected, self.found
        )
    }
}

/// What replaying one game found.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game's trace name.
    pub game: String,
    /// The game's seed.
    pub seed: Option<i64>,
    /// Turns compared (up to and including the first differing one).
    pub turns: usize,
    /// The differences of the first differing moment (empty: the game replayed identically).
    /// Replay stops there: later turns would only repeat the divergence.
    pub differences: Vec<Difference>,
}

impl GameReport {
    /// The game replayed identically.
    pub fn is_ok(&self) -> bool {
        self.differences.is_empty()
    }
}

/// How many differing fields of one moment are reported at most.
const MAX_DIFFERENCES: usize = 8;

/// Replays `record` through `engine` and compares every field the engine reproduces.
///
/// Setup keys the engine returns must match the trace's (`initial`, `initial_views`, ...); each
/// turn's `state` and `views` are always compared, other turn keys when both sides have them.
/// A truncated record is compared over its stored turns, and its outcome only if the engine
/// played the game to its end.
pub fn replay(engine: &dyn TraceEngine, record: &TraceGame) -> GameReport {
    let mut report =
        GameReport { game: record.game.clone(), seed: record.seed, turns: 0, differences: vec![] };
    let mut play = match engine.setup(record.seed, &record.params) {
        Ok(play) => play,
        Err(message) => {
            report.differences.push(Difference {
                moment: Moment::Setup,
                field: "setup".into(),
                expected: "a game".into(),
                found: format!("error: {message}"),
            });
            return report;
        }
    };
    // Both sides in the one layout, so old and new traces compare alike.
    let mut produced = play.initial_record();
    normalize_setup(&record.game, &mut produced);
    let mut expected = record.setup.clone();
    normalize_setup(&record.game, &mut expected);
    compare_record(
        Moment::Setup,
        &expected.to_map(),
        &produced.to_map(),
        &["initial", "initial_views"],
        &mut report.differences,
    );
    if !report.is_ok() {
        return report;
    }
    for (index, turn) in record.turns.iter().enumerate() {
        let moment = Moment::Turn(index + 1);
        report.turns += 1;
        if let Err(message) = play.play_turn(&turn.actions) {
            report.differences.push(Difference {
                moment,
                field: "actions".into(),
                expected: "the turn to resolve".into(),
                found: format!("error: {message}"),
            });
            return report;
        }
        let produced = play.turn_record().to_map();
        compare_record(
            moment,
            &turn.record.to_map(),
            &produced,
            &["state", "views"],
            &mut report.differences,
        );
        if !report.is_ok() {
            return report;
        }
    }
    let expected_outcome = record.outcome.as_ref().map_or(Value::Null, TraceOutcome::to_value);
    if record.truncated && !play.is_over() {
        return report;
    }
    if !play.is_over() && !expected_outcome.is_null() {
        report.differences.push(Difference {
            moment: Moment::Outcome,
            field: "outcome".into(),
            expected: "the game to be over".into(),
            found: "the game still running".into(),
        });
        return report;
    }
    let found_outcome = play.outcome().as_ref().map_or(Value::Null, TraceOutcome::to_value);
    diff_values(
        Moment::Outcome,
        "outcome",
        &expected_outcome,
        &found_outcome,
        &mut report.differences,
    );
    report
}

/// Compares the engine's `produced` fields with the trace's `expected` ones: every key the engine
/// produced that the trace has, and every `required` key (missing on either side is a
/// difference).
pub fn compare_record(
    moment: Moment,
    expected: &Map<String, Value>,
    produced: &Map<String, Value>,
    required: &[&str],
    out: &mut Vec<Difference>,
) {
    for key in required {
        if !produced.contains_key(*key) {
            out.push(Difference {
                moment,
                field: key.to_string(),
                expected: "a value".into(),
                found: "nothing (the engine does not produce it)".into(),
            });
        }
    }
    for (key, found) in produced {
        match expected.get(key) {
            Some(want) => diff_values(moment, key, want, found, out),
            None if required.contains(&key.as_str()) => out.push(Difference {
                moment,
                field: key.clone(),
                expected: "nothing (the trace lacks it)".into(),
                found: short(found),
            }),
            None => {}
        }
    }
}

/// Walks two JSON values and records where they differ, by path. Multi-line strings (views) are
/// compared line by line so a difference names the line.
pub fn diff_values(
    moment: Moment,
    path: &str,
    expected: &Value,
    found: &Value,
    out: &mut Vec<Difference>,
) {
    if out.len() >= MAX_DIFFERENCES || expected == found {
        return;
    }
    match (expected, found) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, va) in a {
                let sub = format!("{path}.{key}");
                match b.get(key) {
                    Some(vb) => diff_values(moment, &sub, va, vb, out),
                    None => push(out, moment, sub, short(va), "nothing".into()),
                }
            }
            for (key, vb) in b {
                if !a.contains_key(key) {
                    push(out, moment, format!("{path}.{key}"), "nothing".into(), short(vb));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (va, vb)) in a.iter().zip(b).enumerate() {
                diff_values(moment, &format!("{path}[{i}]"), va, vb, out);
            }
        }
        (Value::Array(a), Value::Array(b)) => push(
            out,
            moment,
            format!("{path} (length {} vs {})", a.len(), b.len()),
            short(expected),
            short(found),
        ),
        (Value::String(a), Value::String(b)) if a.contains('\n') || b.contains('\n') => {
            let (la, lb): (Vec<_>, Vec<_>) = (a.split('\n').collect(), b.split('\n').collect());
            for i in 0..la.len().max(lb.len()) {
                let (x, y) = (la.get(i), lb.get(i));
                if x != y {
                    let show =
                        |s: Option<&&str>| s.map_or("end of text".into(), |s| format!("{s:?}"));
                    push(out, moment, format!("{path} line {}", i + 1), show(x), show(y));
                    break;
                }
            }
        }
        _ => push(out, moment, path.to_string(), short(expected), short(found)),
    }
}

fn push(out: &mut Vec<Difference>, moment: Moment, field: String, expected: String, found: String) {
    if out.len() < MAX_DIFFERENCES {
        out.push(Difference { moment, field, expected, found });
    }
}

/// A value as compact JSON, cut to a readable length.
fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 160 {
        let cut: String = text.chars().take(157).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// Replays a record through two engines in lockstep (used for fast-vs-reference checks on the
/// same actions): returns the first moment where their produced fields differ.
pub fn lockstep_difference(
    a: &mut dyn TracePlay,
    b: &mut dyn TracePlay,
    actions: &[Option<String>],
    moment: Moment,
) -> Vec<Difference> {
    let ra = a.play_turn(actions);
    let rb = b.play_turn(actions);
    compare_plays(a, b, &ra, &rb, moment)
}

/// Compares two engines that were just given the same turn: their `play_turn` results, turn
/// records and whether the game is over (empty: they agree).
pub fn compare_plays(
    a: &dyn TracePlay,
    b: &dyn TracePlay,
    ra: &Result<(), String>,
    rb: &Result<(), String>,
    moment: Moment,
) -> Vec<Difference> {
    let mut out = vec![];
    if ra != rb {
        out.push(Difference {
            moment,
            field: "play_turn".into(),
            expected: format!("{ra:?}"),
            found: format!("{rb:?}"),
        });
        return out;
    }
    let (fa, fb) = (a.turn_record().to_map(), b.turn_record().to_map());
    diff_values(moment, "turn", &Value::Object(fa), &Value::Object(fb), &mut out);
    let (refused_a, refused_b) = (a.refusals(), b.refusals());
    if refused_a != refused_b {
        out.push(Difference {
            moment,
            field: "refusals".into(),
            expected: format!("{refused_a:?}"),
            found: format!("{refused_b:?}"),
        });
    }
    if a.is_over() != b.is_over() {
        out.push(Difference {
            moment,
            field: "is_over".into(),
            expected: a.is_over().to_string(),
            found: b.is_over().to_string(),
        });
    }
    out
}

/// The shipped referee traces `tests/traces/<file>`, for the crate's own tests.
#[cfg(test)]
pub(crate) fn shipped_traces(file: &str) -> Vec<TraceGame> {
    let path = format!("{}/../tests/traces/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_jsonl(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Replays `game` through `play` (set up for it) for the crate's tests: calls `visit` at every
/// decision point (moment 0 after setup, moment `n` after the `n`-th turn) with the state there
/// and the referee's view texts of that moment (`initial_views`, then each turn's `views`; the
/// players sent nothing left out). Every moment must have its views.
#[cfg(test)]
pub(crate) fn walk_trace<P: TracePlay>(
    game: &TraceGame,
    play: &mut P,
    mut visit: impl FnMut(&P, usize, Vec<&str>),
) {
    let initial = &game.setup.initial_views;
    assert!(!initial.is_empty(), "a trace without initial_views");
    visit(play, 0, initial.iter().filter_map(Option::as_deref).collect());
    for (n, turn) in game.turns.iter().enumerate() {
        play.play_turn(&turn.actions).unwrap_or_else(|e| panic!("turn {}: {e}", n + 1));
        visit(play, n + 1, turn.record.views.iter().filter_map(Option::as_deref).collect());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn view_differences_name_the_line() {
        let mut out = vec![];
        diff_values(Moment::Turn(3), "views[0]", &json!("a\nb\nc"), &json!("a\nB\nc"), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].field, "views[0] line 2");
        assert_eq!(out[0].to_string(), "turn 3: views[0] line 2: expected \"b\", found \"B\"");
    }

    #[test]
    fn nested_differences_name_the_path() {
        let mut out = vec![];
        let a = json!({"players": [{"score": 1}, {"score": 2}]});
        let b = json!({"players": [{"score": 1}, {"score": 3}]});
        diff_values(Moment::Setup, "state", &a, &b, &mut out);
        assert_eq!(out[0].field, "state.players[1].score");
    }

    #[test]
    fn a_missing_required_field_is_a_difference() {
        let mut out = vec![];
        let expected: Map<String, Value> =
            json!({"state": 1, "views": []}).as_object().unwrap().clone();
        let produced: Map<String, Value> = json!({"state": 1}).as_object().unwrap().clone();
        compare_record(Moment::Turn(1), &expected, &produced, &["state", "views"], &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].field, "views");
    }

    #[test]
    fn trace_lines_parse_with_their_extra_fields() {
        let line = r#"{"game":"zuniq","seed":null,"params":{},"initial":{"ply":0},"initial_views":["Start",""],"turns":[{"actions":["A1h"],"state":{},"views":["",""]}],"outcome":null}"#;
        let games = parse_jsonl(line).unwrap();
        assert_eq!(games[0].turns[0].actions, vec![Some("A1h".to_string())]);
        assert_eq!(games[0].turns[0].record.views, vec![Some(String::new()); 2]);
        assert_eq!(
            games[0].setup.initial_views,
            vec![Some("Start".to_string()), Some(String::new())]
        );
        assert_eq!(games[0].setup.initial, json!({"ply": 0}));
        assert!(parse_jsonl("{").is_err());
    }

    #[test]
    fn setups_are_brought_to_one_layout() {
        let setup = |value: Value| -> SetupRecord { serde_json::from_value(value).unwrap() };
        let mut old = setup(
            json!({"initial_views": ["0\n4\nmedals\nhurdles", "1\n4\nmedals\nhurdles", null]}),
        );
        normalize_setup("olymbits", &mut old);
        assert_eq!(old.init_input, Some(vec!["0\n4".into(), "1\n4".into(), String::new()]));
        assert_eq!(
            old.to_map()["initial_views"],
            json!(["medals\nhurdles", "medals\nhurdles", null])
        );
        let mut zuniq = setup(json!({"initial_views": ["Start", ""]}));
        normalize_setup("zuniq", &mut zuniq);
        assert_eq!(zuniq.init_input, Some(vec![String::new(); 2]));
        assert_eq!(zuniq.initial_views, vec![Some("Start".into()), Some(String::new())]);
        let mut wondev = setup(json!({"init_input": ["6\n2"], "initial_views": ["grid"]}));
        let before = wondev.clone();
        normalize_setup("wondev-woman", &mut wondev);
        assert_eq!(wondev, before);
    }

    #[test]
    fn compare_plays_finds_two_games_apart() {
        let engine = crate::xmas_rush::engine().expect("built");
        let mut a = engine.setup(Some(1), &json!({})).unwrap();
        let mut b = engine.setup(Some(2), &json!({})).unwrap();
        let mut same = engine.setup(Some(1), &json!({})).unwrap();
        let actions = vec![Some("PUSH 0 UP".to_string()), Some("PUSH 1 LEFT".to_string())];
        let ra = a.play_turn(&actions);
        let rb = b.play_turn(&actions);
        let rs = same.play_turn(&actions);
        assert!(!compare_plays(a.as_ref(), b.as_ref(), &ra, &rb, Moment::Turn(1)).is_empty());
        assert!(compare_plays(a.as_ref(), same.as_ref(), &ra, &rs, Moment::Turn(1)).is_empty());
        let refused = Err("GameOver".to_string());
        let found = compare_plays(a.as_ref(), same.as_ref(), &ra, &refused, Moment::Turn(1));
        assert_eq!(found[0].field, "play_turn");
    }

    /// Every line of every shipped trace reads into the typed records and writes back as the
    /// same JSON; each game's turns and outcomes have the typed shape its trace module says
    /// (legal list, structured events, outcome keys); the setup record alone writes back the
    /// line's setup fields, with the game's shape (init input, initial legal list, setup
    /// events, extra keys).
    #[test]
    fn every_shipped_trace_line_reads_typed_and_writes_back_the_same() {
        use crate::{olymbits, photosynthesis, wondev_woman, xmas_rush, zuniq};
        // (file, outcome keys, legal: per seat?, structured events?,
        //  setup: [init_input?, setup_events?], setup's extra keys)
        type Shape =
            (&'static str, OutcomeKeys, Option<bool>, bool, [bool; 2], &'static [&'static str]);
        let games: [Shape; 5] = [
            ("xmas-rush", xmas_rush::json::OUTCOME_KEYS, None, false, [false; 2], &["players"]),
            (
                "photosynthesis",
                photosynthesis::trace::OUTCOME_KEYS,
                Some(true),
                false,
                [false, true],
                &[],
            ),
            ("zuniq", zuniq::trace::OUTCOME_KEYS, Some(false), false, [false; 2], &[]),
            ("olymbits", olymbits::trace::OUTCOME_KEYS, None, false, [false; 2], &[]),
            (
                "wondev-woman",
                wondev_woman::trace::OUTCOME_KEYS,
                Some(false),
                true,
                [true, false],
                &[],
            ),
        ];
        for (game, keys, per_seat, structured, [init_input, setup_events], extra) in games {
            let path = format!("{}/../tests/traces/{game}.jsonl", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let mut lines = 0;
            for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let context = format!("{game} line {}", n + 1);
                let original: Value = serde_json::from_str(line).expect(&context);
                let typed: TraceGame = serde_json::from_str(line).expect(&context);
                assert_eq!(serde_json::to_value(&typed).unwrap(), original, "{context}");
                // The setup record alone, as an engine's `initial_record` gives it, also
                // writes back the same envelope fields.
                let setup = &typed.setup;
                let mut envelope = original.as_object().unwrap().clone();
                let own = ["game", "source", "seed", "params", "turns", "outcome", "truncated"];
                envelope.retain(|key, _| !own.contains(&key.as_str()));
                assert_eq!(setup.to_map(), envelope, "{context}");
                assert!(setup.initial.is_object(), "{context}");
                assert!(setup.initial_views.iter().all(Option::is_some), "{context}");
                assert_eq!(setup.init_input.is_some(), init_input, "{context}");
                let shape = setup.initial_legal.as_ref().map(|l| matches!(l, Legal::PerSeat(_)));
                assert_eq!(shape, per_seat, "{context}");
                let texts = setup.setup_events.iter().flatten().all(|e| e.as_text().is_some());
                assert_eq!(
                    (setup.setup_events.is_some(), texts),
                    (setup_events, true),
                    "{context}"
                );
                let extra_keys: Vec<&str> = setup.extra.keys().map(String::as_str).collect();
                assert_eq!(extra_keys, extra, "{context}");
                if let Some(outcome) = &typed.outcome {
                    assert_eq!(outcome.keys, keys, "{context}");
                    assert_eq!(outcome.ranks.len(), outcome.scores.len(), "{context}");
                    assert_eq!(outcome.ranks.iter().min(), Some(&1), "{context}");
                }
                for turn in &typed.turns {
                    let shape = turn.record.legal.as_ref().map(|l| matches!(l, Legal::PerSeat(_)));
                    assert_eq!(shape, per_seat, "{context}");
                    let texts = turn.record.events.iter().filter(|e| e.as_text().is_some());
                    let expected = if structured { 0 } else { turn.record.events.len() };
                    assert_eq!(texts.count(), expected, "{context}");
                }
                lines += 1;
            }
            assert!(lines > 0, "{game}: no trace line");
        }
    }

    #[test]
    fn a_lenient_read_keeps_the_readable_games_and_numbers_the_bad_lines() {
        let good = r#"{"game":"zuniq","seed":1,"params":{},"turns":[]}"#;
        let text = format!("{good}\n\n{{not json\n{good}\n{{\"game\":\"zu");
        let (games, errors) = parse_jsonl_lenient(&text);
        assert_eq!(games.len(), 2);
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![3, 5]);
    }
}
