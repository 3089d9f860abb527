//! Whole Photosynthesis games from fuzzer bytes through fast and reference, compared after every step.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| twinsim_fast::photosynthesis::check::game_diff(data));
