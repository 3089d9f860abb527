//! Conformance: every shipped referee trace replays identically through both engines of every
//! game (setup, state, views, legal lists, events, executions, outcome; see
//! `twinsim_reference::trace::replay`), and a trace with one field changed is reported at that
//! turn and field, so the replay really compares what it claims to.
//!
//! Every game has both engines: a missing one fails here.

use serde_json::Value;
use twinsim::replay;
use twinsim_arena::registry;
use twinsim_reference::game::{EngineKind, TraceEngine};
use twinsim_reference::trace::{self, Moment, TraceGame};

/// Every game, with the number of games its shipped trace file holds (a truncated or
/// accidentally emptied file fails instead of replaying fewer games).
const GAMES: [(&str, usize); 5] = [
    ("xmas-rush", 57),
    ("photosynthesis", 61),
    ("zuniq", 46),
    ("olymbits", 52),
    ("wondev-woman", 63),
];

/// The turn (0-based index into `turns`) whose fields the tampering test changes.
const TAMPERED_TURN: usize = 3;

fn trace_games(game: &str) -> Vec<TraceGame> {
    let path = format!("{}/tests/traces/{game}.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("trace file is shipped");
    let records = trace::parse_jsonl(&text).expect("trace file parses");
    let expected = GAMES.iter().find(|(name, _)| *name == game).expect("a listed game").1;
    assert_eq!(records.len(), expected, "{path}: number of games");
    records
}

fn engine(game: &str, kind: EngineKind) -> &'static dyn TraceEngine {
    registry::engine(game, kind).unwrap_or_else(|| panic!("{game} has no {kind} engine"))
}

fn check_game(game: &str) {
    let records = trace_games(game);
    for kind in [EngineKind::Reference, EngineKind::Fast] {
        engine(game, kind);
        let summary = replay::replay_all(&records, &[kind]);
        let failures: Vec<String> =
            summary.failures.iter().map(|(k, r)| replay::describe_failure(*k, r)).collect();
        assert!(failures.is_empty(), "{}\n{}", summary.line(), failures.join("\n"));
        assert_eq!((summary.games, summary.skipped), (records.len(), 0), "{}", summary.line());
    }
}

#[test]
fn xmas_rush_traces_replay_identically() {
    check_game("xmas-rush");
}

#[test]
fn photosynthesis_traces_replay_identically() {
    check_game("photosynthesis");
}

#[test]
fn zuniq_traces_replay_identically() {
    check_game("zuniq");
}

#[test]
fn olymbits_traces_replay_identically() {
    check_game("olymbits");
}

#[test]
fn wondev_woman_traces_replay_identically() {
    check_game("wondev-woman");
}

/// Changes the first leaf value (depth first) of `value` that can change without changing its
/// type, so the typed records still read it (a `null` is skipped; an empty list gets a string);
/// returns false when it has none.
fn tamper(value: &mut Value) -> bool {
    match value {
        Value::Null => return false,
        Value::Bool(b) => *b = !*b,
        Value::Number(n) => match n.as_i64() {
            Some(i) => *value = Value::from(i + 1),
            None => *value = Value::from(n.as_f64().expect("a finite number") + 1.0),
        },
        Value::String(s) => s.insert(0, '~'),
        Value::Array(items) if items.is_empty() => items.push(Value::from("~")),
        Value::Array(items) => return items.iter_mut().any(tamper),
        Value::Object(map) => {
            if !map.values_mut().any(tamper) {
                map.insert("tampered".into(), Value::Null);
            }
        }
    }
    true
}

/// Replays `record` through `engine` and checks that the first difference is at `moment`, in
/// `key` or below it.
fn assert_reported(engine: &dyn TraceEngine, record: &TraceGame, moment: Moment, key: &str) {
    let report = trace::replay(engine, record);
    let first = report
        .differences
        .first()
        .unwrap_or_else(|| panic!("a change of {key} at {moment} went unnoticed"));
    assert_eq!(first.moment, moment, "{key}: {first}");
    assert!(first.field.starts_with(key), "{key} changed at {moment}, reported: {first}");
}

/// One changed field of the setup, of one turn (every trace field but the actions) or of the
/// outcome is reported at that moment and field, by both engines of every game.
#[test]
fn a_changed_field_is_reported_at_its_turn_and_field() {
    for (game, _) in GAMES {
        let record = trace_games(game).into_iter().find(|g| g.turns.len() > TAMPERED_TURN).unwrap();
        let turn_keys: Vec<String> =
            record.turns[TAMPERED_TURN].record.to_map().keys().cloned().collect();
        assert!(turn_keys.len() >= 3, "{game}: turn fields {turn_keys:?}");
        for kind in [EngineKind::Reference, EngineKind::Fast] {
            let engine = engine(game, kind);
            assert!(trace::replay(engine, &record).is_ok(), "{game} {kind}: untampered replay");
            for key in &turn_keys {
                let mut bad = record.clone();
                let mut fields = bad.turns[TAMPERED_TURN].record.to_map();
                assert!(
                    tamper(fields.get_mut(key).unwrap()),
                    "{game}: {key} has a value to change"
                );
                bad.turns[TAMPERED_TURN].record =
                    serde_json::from_value(Value::Object(fields)).expect("still a turn record");
                assert_reported(engine, &bad, Moment::Turn(TAMPERED_TURN + 1), key);
            }
            let mut bad = record.clone();
            tamper(&mut bad.setup.initial);
            assert_reported(engine, &bad, Moment::Setup, "initial");
            let mut bad = record.clone();
            let mut outcome = bad.outcome.as_ref().expect("an outcome").to_value();
            tamper(&mut outcome);
            bad.outcome = Some(serde_json::from_value(outcome).expect("still an outcome"));
            assert_reported(engine, &bad, Moment::Outcome, "outcome");
        }
    }
}
