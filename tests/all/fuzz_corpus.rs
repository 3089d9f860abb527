//! Replays every committed fuzz input (`fuzz/regressions/<target>/*`) through the check its
//! fuzz target runs, so CI needs no fuzzer: a regression found by fuzzing stays fixed. Each
//! target's check lives in library code and the target is one line calling it; the table below
//! must name every target in `fuzz/fuzz_targets/` (a test checks that it does).

use std::path::Path;

/// A fuzz target's check: panics on a difference between the twins (or on a parser panic).
type Check = fn(&[u8]);

/// Every fuzz target and the library check it calls.
const TARGETS: &[(&str, Check)] = &[
    ("trace_parse", |d| {
        if let Ok(text) = std::str::from_utf8(d) {
            let _ = twinsim_reference::trace::parse_jsonl(text);
        }
    }),
    ("xmas_rush_game_diff", twinsim_fast::xmas_rush::check::game_diff),
    ("push_diff", twinsim_fast::xmas_rush::check::push_diff),
    ("bfs_diff", twinsim_fast::xmas_rush::check::bfs_diff),
    ("parse_xmas_rush", twinsim_fast::xmas_rush::check::parse_diff),
    ("photosynthesis_diff", twinsim_fast::photosynthesis::check::game_diff),
    ("photosynthesis_search_diff", twinsim_fast::photosynthesis::check::search_diff),
    ("shadow_diff", twinsim_fast::photosynthesis::check::shadow_diff),
    ("parse_photosynthesis", twinsim_fast::photosynthesis::check::parse_diff),
    ("zuniq_diff", |d| twinsim_fast::zuniq::check::game_diff(d).unwrap()),
    ("parse_zuniq", |d| {
        twinsim_fast::zuniq::check::parse_diff(&String::from_utf8_lossy(d)).unwrap()
    }),
    ("olymbits_diff", |d| twinsim_fast::olymbits::check::olymbits_diff(d).unwrap()),
    ("hurdle_diff", |d| twinsim_fast::olymbits::check::hurdle_diff(d).unwrap()),
    ("parse_olymbits", |d| twinsim_fast::olymbits::check::parse_check(d).unwrap()),
    ("wondev_diff", twinsim_fast::wondev_woman::check::game_diff),
    ("wondev_setup_diff", twinsim_fast::wondev_woman::check::setup_diff),
    ("voronoi_diff", twinsim_fast::wondev_woman::check::voronoi_diff),
    ("parse_wondev_woman", twinsim_fast::wondev_woman::check::parse_diff),
    ("fog_diff", |d| {
        twinsim_fast::wondev_woman::bot::fog::fog_diff(d);
    }),
];

fn fuzz_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz"))
}

#[test]
fn every_fuzz_target_is_replayed_here() {
    let mut on_disk: Vec<String> = std::fs::read_dir(fuzz_dir().join("fuzz_targets"))
        .expect("fuzz_targets exists")
        .map(|e| e.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "fuzz targets and the replay table differ");
}

#[test]
fn every_committed_fuzz_input_passes_its_check() {
    let mut total = 0;
    for (target, check) in TARGETS {
        let dir = fuzz_dir().join("regressions").join(target);
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("{} has no regressions directory", dir.display()));
        let mut count = 0;
        for entry in entries {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            let result = std::panic::catch_unwind(|| check(&data));
            assert!(result.is_ok(), "{target}: {} fails its check", path.display());
            count += 1;
        }
        assert!(count > 0, "{target}: no committed inputs");
        total += count;
    }
    eprintln!("{total} committed fuzz inputs replayed");
}
