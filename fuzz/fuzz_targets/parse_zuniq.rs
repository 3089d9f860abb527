//! Arbitrary text through the fast and reference Zuniq line parsers
//! (`twinsim_fast::zuniq::check::parse_diff`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| twinsim_fast::zuniq::check::parse_diff(
    &String::from_utf8_lossy(data)
)
.unwrap());
