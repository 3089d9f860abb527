//! Replays the committed inputs of the X-mas Rush fuzz targets (`fuzz/regressions/<target>/`)
//! through the same library checks the targets call, so CI needs no fuzzer.

fn replay(target: &str, check: fn(&[u8])) {
    let dir = format!("{}/fuzz/regressions/{target}", env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("the regression directory") {
        let path = entry.expect("an entry").path();
        if path.is_file() {
            check(&std::fs::read(&path).expect("a regression input"));
            count += 1;
        }
    }
    assert!(count > 0, "no regression inputs in {dir}");
}

#[test]
fn xmas_rush_diff_regressions_replay() {
    replay("xmas_rush_game_diff", twinsim_fast::xmas_rush::check::game_diff);
}

#[test]
fn xmas_rush_push_diff_regressions_replay() {
    replay("push_diff", twinsim_fast::xmas_rush::check::push_diff);
}

#[test]
fn xmas_rush_bfs_diff_regressions_replay() {
    replay("bfs_diff", twinsim_fast::xmas_rush::check::bfs_diff);
}

#[test]
fn xmas_rush_parse_regressions_replay() {
    replay("parse_xmas_rush", twinsim_fast::xmas_rush::check::parse_diff);
}
