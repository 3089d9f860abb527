//! Arbitrary text at the Wondev Woman protocol parsers and line resolution (both engines).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| twinsim_fast::wondev_woman::check::parse_diff(data));
