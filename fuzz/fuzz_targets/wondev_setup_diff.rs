//! Wondev Woman's bit-set setup against the reference setup, for a seed and the league, map and
//! symmetric flags chosen by fuzzer bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| twinsim_fast::wondev_woman::check::setup_diff(data));
