//! Conformance: every shipped referee trace replays identically through every implemented
//! engine (state, views, legal lists, events, outcome; see `twinsim_reference::trace::replay`).
//!
//! A game whose engine is not implemented yet is reported on stderr and not counted; the
//! `twinsim replay` command (run by CI) is the one that fails on skipped games.

use twinsim::replay;
use twinsim_arena::registry;
use twinsim_reference::game::EngineKind;

fn check_game(game: &str) {
    let path = format!("{}/tests/traces/{game}.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("trace file is shipped");
    let records = twinsim_reference::trace::parse_jsonl(&text).expect("trace file parses");
    assert!(!records.is_empty(), "{path} has no games");
    for kind in [EngineKind::Reference, EngineKind::Fast] {
        if registry::engine(game, kind).is_none() {
            eprintln!("{game}: no {kind} engine yet, not checked");
            continue;
        }
        let summary = replay::replay_all(&records, &[kind]);
        let failures: Vec<String> =
            summary.failures.iter().map(|(k, r)| replay::describe_failure(*k, r)).collect();
        assert!(failures.is_empty(), "{}\n{}", summary.line(), failures.join("\n"));
        assert_eq!(summary.games, records.len());
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
