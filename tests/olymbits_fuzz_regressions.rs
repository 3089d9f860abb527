//! Replays the committed Olymbits fuzz inputs (`fuzz/regressions/{olymbits_diff,hurdle_diff,parse_olymbits}/`) through the
//! same checks the cargo-fuzz targets run, so CI needs no fuzzer.

use std::path::Path;
use twinsim_fast::olymbits::check::{hurdle_diff, olymbits_diff, parse_check};

fn replay(target: &str, check: fn(&[u8]) -> Result<(), String>) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions").join(target);
    let mut count = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let data = std::fs::read(&path).unwrap();
        if let Err(e) = check(&data) {
            panic!("{}: {e}", path.display());
        }
        count += 1;
    }
    count
}

#[test]
fn olymbits_diff_regressions_replay() {
    assert!(replay("olymbits_diff", olymbits_diff) >= 5);
}

#[test]
fn olymbits_hurdle_diff_regressions_replay() {
    assert!(replay("hurdle_diff", hurdle_diff) >= 3);
}

#[test]
fn olymbits_parse_regressions_replay() {
    assert!(replay("parse_olymbits", parse_check) >= 5);
}
