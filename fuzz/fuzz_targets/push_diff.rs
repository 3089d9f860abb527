//! Raw pushes chosen by the fuzzer's bytes, fast vs reference after each push.
//! The check lives in `twinsim_fast::xmas_rush`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| twinsim_fast::xmas_rush::check::push_diff(data));
