//! Photosynthesis sun income and shadows over arbitrary boards, fast vs reference.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| twinsim_fast::photosynthesis::check::shadow_diff(data));
