//! Whole Photosynthesis games in search mode from fuzzer bytes, against the exact state and the reference.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| twinsim_fast::photosynthesis::check::search_diff(data));
