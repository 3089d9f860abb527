//! Hurdle races on arbitrary tracks, positions, stuns and actions: fast tick and solved table
//! against the reference tick and search (the issue's `hurdle_diff`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| twinsim_fast::olymbits::check::hurdle_diff(data).unwrap());
