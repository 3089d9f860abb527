//! Whole Wondev Woman games from fuzzer bytes through both engines, compared after every step
//! (state, legal lists, views, hash, Voronoi, events, outcome, make/unmake).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| twinsim_fast::wondev_woman::check::game_diff(data));
