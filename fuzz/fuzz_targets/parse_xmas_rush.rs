//! Arbitrary text at the X-mas Rush protocol parsers (a bot's line, a turn's input).
//! The check lives in `twinsim_fast::xmas_rush`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| twinsim_fast::xmas_rush::check::parse_diff(data));
