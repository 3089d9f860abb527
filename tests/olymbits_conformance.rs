//! Every Olymbits referee trace replays identically through the reference and the fast engine.

use twinsim_reference::trace::{parse_jsonl, replay};

fn games() -> Vec<twinsim_reference::trace::TraceGame> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/olymbits.jsonl");
    parse_jsonl(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn reference_replays_every_olymbits_trace() {
    let engine = twinsim_reference::olymbits::engine().unwrap();
    let games = games();
    assert!(games.len() >= 52);
    for game in &games {
        let report = replay(engine, game);
        assert!(report.is_ok(), "seed {:?}: {:?}", game.seed, report.differences);
    }
}

#[test]
fn fast_replays_every_olymbits_trace() {
    let engine = twinsim_fast::olymbits::engine().unwrap();
    for game in &games() {
        let report = replay(engine, game);
        assert!(report.is_ok(), "seed {:?}: {:?}", game.seed, report.differences);
    }
}
