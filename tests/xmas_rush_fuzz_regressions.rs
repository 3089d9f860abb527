//! Replays the committed inputs of the `xmas_rush_diff` fuzz target (`fuzz/regressions/
//! xmas_rush_diff/`) through the same check, so CI needs no fuzzer.

#[test]
fn xmas_rush_diff_regressions_replay() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/regressions/xmas_rush_diff");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).expect("the regression directory") {
        let path = entry.expect("an entry").path();
        if path.is_file() {
            let data = std::fs::read(&path).expect("a regression input");
            fast::xmas_rush::check_game_bytes(&data);
            count += 1;
        }
    }
    assert!(count > 0, "no regression inputs in {dir}");
}
