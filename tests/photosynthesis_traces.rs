//! Conformance: every Photosynthesis referee trace replays through the reference engine with no
//! difference (states, views, legal lists, events, executions, outcome).

use serde_json::Value;
use twinsim_reference::trace::{parse_jsonl, replay};

fn games() -> Vec<twinsim_reference::trace::TraceGame> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/traces/photosynthesis.jsonl"
    ))
    .expect("trace file");
    parse_jsonl(&text).expect("valid trace")
}

#[test]
fn reference_replays_every_trace() {
    let engine = twinsim_reference::photosynthesis::engine().expect("engine");
    let games = games();
    assert_eq!(games.len(), 61);
    for game in &games {
        let report = replay(engine, game);
        assert!(report.is_ok(), "seed {:?}: {:?}", game.seed, report.differences);
    }
}

/// The replay really compares events, legal lists and views: a one-character change is found.
#[test]
fn a_tampered_trace_is_caught() {
    let engine = twinsim_reference::photosynthesis::engine().expect("engine");
    let game = games().remove(0);
    for key in ["events", "legal", "views", "executions"] {
        let mut bad = game.clone();
        let field = bad.turns[3].fields.get_mut(key).expect("key");
        *field = match field.take() {
            Value::Array(mut a) => {
                a.swap(0, 1);
                if a[0] == a[1] {
                    a.push(Value::Null);
                }
                Value::Array(a)
            }
            Value::Number(n) => Value::from(n.as_u64().unwrap() + 1),
            other => other,
        };
        let report = replay(engine, &bad);
        assert!(!report.is_ok(), "a change of {key} went unnoticed");
    }
}
