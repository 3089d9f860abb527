//! Whole Zuniq games from fuzzer bytes through both engines, compared after every turn
//! (`twinsim_fast::zuniq::diff::check_game_bytes`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| twinsim_fast::zuniq::diff::check_game_bytes(data).unwrap());
