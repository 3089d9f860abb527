//! Random top-league games driven by the input bytes: the reference and fast fog trackers agree
//! on every view of both seats, and the true enemy placement is always a hypothesis.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    twinsim_fast::wondev_woman::bot::fog::fog_diff(data);
});
