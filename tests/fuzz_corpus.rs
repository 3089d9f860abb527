//! Replays the committed fuzz regressions (`fuzz/regressions/<target>/*`) as ordinary tests, so
//! CI needs no fuzzer. Targets owned by a game replay their own regressions in that game's tests;
//! this file covers the shared targets.

use std::path::Path;

/// Every file of `fuzz/regressions/<target>/`.
fn regressions(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions").join(target);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("regression directory exists") {
        let path = entry.expect("readable directory entry").path();
        out.push((path.display().to_string(), std::fs::read(&path).expect("readable input")));
    }
    out
}

#[test]
fn trace_parse_regressions_do_not_panic() {
    let inputs = regressions("trace_parse");
    assert!(!inputs.is_empty());
    for (name, data) in inputs {
        // The fuzz target's body: reading any text as a trace must return, never panic.
        if let Ok(text) = std::str::from_utf8(&data) {
            let result = std::panic::catch_unwind(|| reference::trace::parse_jsonl(text).is_ok());
            assert!(result.is_ok(), "{name} panicked");
        }
    }
}
