//! The command-line contract: exit codes, the summary line, readable mismatches.

use std::process::Command;

fn twinsim(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_twinsim")).args(args).output().expect("runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn temp_file(name: &str, content: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("twinsim-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, content).expect("temp file written");
    path
}

#[test]
fn unreadable_input_exits_2() {
    let (code, text) = twinsim(&["replay", "/nonexistent/trace.jsonl"]);
    assert_eq!(code, 2, "{text}");
    let bad = temp_file("bad.jsonl", "{not json\n");
    let (code, text) = twinsim(&["replay", bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("line 1"), "{text}");
}

#[test]
fn unknown_game_exits_2() {
    let file = temp_file("chess.jsonl", r#"{"game":"chess","seed":1,"params":{},"turns":[]}"#);
    let (code, text) = twinsim(&["replay", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{text}");
}

#[test]
fn replay_ends_with_exactly_one_summary_line_and_fails_unless_all_pass() {
    let traces = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/zuniq.jsonl");
    let (code, text) = twinsim(&["replay", traces]);
    let summaries: Vec<&str> = text.lines().filter(|l| l.starts_with("replayed ")).collect();
    assert_eq!(summaries.len(), 1, "{text}");
    let line = summaries[0];
    let ok = line.ends_with(": 0 mismatches, 0 skipped");
    assert_eq!(code == 0, ok, "exit {code} with {line}");
}

#[test]
fn a_doctored_trace_is_reported_as_a_readable_mismatch() {
    let traces =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/zuniq.jsonl"))
            .unwrap();
    let first = traces.lines().next().unwrap();
    // Claim the first game started with a wall already placed.
    let doctored = first.replacen(r#""walls":[]"#, r#""walls":["A1h"]"#, 1);
    assert_ne!(first, doctored);
    let file = temp_file("doctored.jsonl", &doctored);
    let (code, text) = twinsim(&["replay", file.to_str().unwrap(), "--engine", "reference"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("MISMATCH zuniq seed 1"), "{text}");
    assert!(text.contains("setup  field initial.walls"), "{text}");
    assert!(text.contains("replayed 1 games, 0 turns: 1 mismatches, 0 skipped"), "{text}");
}

#[test]
fn verify_json_reports_every_game_and_passes() {
    let (code, text) = twinsim(&["verify", "--games", "3", "--json", "--strict"]);
    assert_eq!(code, 0, "{text}");
    let report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(report["ok"], true);
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 5);
    for r in results {
        assert_eq!(r["random_games"]["ok"], 3, "{r}");
        assert_eq!(r["traces_fast"]["ok"], r["traces_fast"]["total"], "{r}");
    }
}

#[test]
fn perft_is_the_same_through_both_engines() {
    let (code, text) = twinsim(&["perft", "wondev-woman", "--depth", "2", "--seed", "5"]);
    assert_eq!(code, 0, "{text}");
    let leaves: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("2 "))
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(leaves.len(), 2, "{text}");
    assert_eq!(leaves[0], leaves[1], "reference and fast perft differ: {text}");
    let (code, _) = twinsim(&["perft", "olymbits", "--depth", "1"]);
    assert_eq!(code, 2, "perft of a simultaneous game is refused");
}

#[test]
fn show_draws_a_position_after_some_turns_of_an_actions_file() {
    let actions = temp_file("zuniq-actions.txt", "A1h\nB2v\nC3h\n");
    let (code, text) =
        twinsim(&["show", "zuniq", "--turn", "2", "--actions", actions.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    let (_, after_three) = twinsim(&["show", "zuniq", "--actions", actions.to_str().unwrap()]);
    assert_ne!(text, after_three, "the position depends on --turn");
    let (code, _) = twinsim(&["show", "no-such-game"]);
    assert_eq!(code, 2);
}
