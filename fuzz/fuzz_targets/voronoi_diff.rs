//! The fast Voronoi evaluation against the plain reference one, on fuzzer-built positions.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| twinsim_fast::wondev_woman::check::voronoi_diff(data));
