//! Whole Olymbits games from fuzzer bytes, fast against reference after every step.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| twinsim_fast::olymbits::check::olymbits_diff(data).unwrap());
