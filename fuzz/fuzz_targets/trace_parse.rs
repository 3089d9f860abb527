//! The trace reader never panics, whatever bytes it is given.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = twinsim_reference::trace::parse_jsonl(text);
    }
});
