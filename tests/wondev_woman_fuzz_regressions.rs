//! Replays the committed Wondev Woman fuzz inputs (`fuzz/regressions/{wondev_diff,voronoi_diff,parse_wondev_woman}/`) through
//! the same library checks the fuzz targets call, so CI needs no fuzzer.

use std::path::Path;

fn replay_dir(target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions").join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("entry").path();
        if path.is_file() {
            let bytes = std::fs::read(&path).expect("readable input");
            let result = std::panic::catch_unwind(|| check(&bytes));
            assert!(result.is_ok(), "{target}: {} fails", path.display());
            n += 1;
        }
    }
    n
}

#[test]
fn wondev_woman_diff_regressions() {
    assert!(replay_dir("wondev_diff", twinsim_fast::wondev_woman::check::game_diff) > 0);
}

#[test]
fn wondev_woman_voronoi_diff_regressions() {
    assert!(replay_dir("voronoi_diff", twinsim_fast::wondev_woman::check::voronoi_diff) > 0);
}

#[test]
fn wondev_woman_parse_regressions() {
    assert!(replay_dir("parse_wondev_woman", twinsim_fast::wondev_woman::check::parse_diff) > 0);
}
