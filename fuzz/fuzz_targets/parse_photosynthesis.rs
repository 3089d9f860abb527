//! Arbitrary text at the Photosynthesis protocol parsers (bot lines, views).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| twinsim_fast::photosynthesis::check::parse_diff(data));
