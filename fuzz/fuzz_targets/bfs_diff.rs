//! Reachable sets, greedy walk and exact best on fuzzer-chosen states, fast vs reference.
//! The check lives in `twinsim_fast::xmas_rush`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| twinsim_fast::xmas_rush::check::bfs_diff(data));
