//! Whole Zuniq games from fuzzer bytes through both engines, compared after every turn
//! (`twinsim_fast::zuniq::check::game_diff`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| twinsim_fast::zuniq::check::game_diff(data).unwrap());
