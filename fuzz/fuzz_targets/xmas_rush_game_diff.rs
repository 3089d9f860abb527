//! Whole X-mas Rush games chosen by the fuzzer's bytes, fast vs reference after every turn
//! (state, events, views, reachable sets): the check lives in `twinsim_fast::xmas_rush`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| twinsim_fast::xmas_rush::check::game_diff(data));
