//! Arbitrary text at the Olymbits protocol parsers (the issue's `parse_olymbits`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| twinsim_fast::olymbits::check::parse_check(data).unwrap());
