//! Conformance: every Wondev Woman referee trace replays identically through the reference
//! engine (and through the fast one once it exists).

use twinsim_reference::trace::{parse_jsonl, replay};

fn games() -> Vec<twinsim_reference::trace::TraceGame> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/wondev-woman.jsonl");
    let text = std::fs::read_to_string(path).expect("trace file");
    parse_jsonl(&text).expect("valid trace")
}

#[test]
fn reference_replays_every_trace() {
    let engine = twinsim_reference::wondev_woman::engine().expect("reference engine");
    let games = games();
    assert!(games.len() >= 60);
    for game in &games {
        let report = replay(engine, game);
        assert!(
            report.is_ok(),
            "seed {:?}: {}",
            game.seed,
            report.differences.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")
        );
    }
}

#[test]
fn fast_replays_every_trace() {
    let Some(engine) = twinsim_fast::wondev_woman::engine() else {
        return;
    };
    for game in &games() {
        let report = replay(engine, game);
        assert!(
            report.is_ok(),
            "seed {:?}: {}",
            game.seed,
            report.differences.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")
        );
    }
}
