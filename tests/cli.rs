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
    if text.contains("skipped") && !text.contains(" 0 skipped") {
        return; // no zuniq reference engine yet: skipped, never passed (exit 1 checked above)
    }
    assert!(text.contains("MISMATCH zuniq seed 1"), "{text}");
    assert!(text.contains("setup  field initial.walls"), "{text}");
    assert!(text.contains("replayed 1 games, 0 turns: 1 mismatches, 0 skipped"), "{text}");
}
