//! Bounded reading of the files and standard input the CLI takes (traces, action lists, arena
//! folders): a file such as `/dev/zero`, or one far larger than any trace, is an error naming
//! the limit within a second, not a read that grows until memory runs out.
//!
//! Limits, both settable through the environment for a user who needs more:
//! - a line: 64 MiB (`TWINSIM_MAX_LINE_BYTES`); the longest game of the shipped traces is a
//!   few hundred kilobytes;
//! - a whole input: 4 GiB (`TWINSIM_MAX_INPUT_BYTES`).

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The default longest line, in bytes (64 MiB).
pub const DEFAULT_MAX_LINE_BYTES: u64 = 64 << 20;
/// The default largest input, in bytes (4 GiB).
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 4 << 30;

/// The limits in force: the environment's, else the defaults.
fn limits() -> (u64, u64) {
    let read = |name: &str, default: u64| {
        std::env::var(name).ok().and_then(|v| v.trim().parse().ok()).unwrap_or(default)
    };
    (
        read("TWINSIM_MAX_LINE_BYTES", DEFAULT_MAX_LINE_BYTES),
        read("TWINSIM_MAX_INPUT_BYTES", DEFAULT_MAX_INPUT_BYTES),
    )
}

/// The bytes of `path`, read up to the limits (see the module documentation); an input over
/// one is an `InvalidData` error whose message names the limit and how to raise it.
pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    read_bounded(std::fs::File::open(path)?, limits())
}

/// [`read_bytes`] as text (`InvalidData` if it is not UTF-8).
pub fn read_text(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_bytes(path)?)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// Everything `reader` holds, line by line, within `(max_line, max_total)` bytes.
fn read_bounded(reader: impl Read, (max_line, max_total): (u64, u64)) -> std::io::Result<Vec<u8>> {
    let too_big = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let mut reader = BufReader::new(reader.take(max_total.saturating_add(1)));
    let mut all = Vec::new();
    let mut line_number = 1u64;
    loop {
        let start = all.len();
        // One byte past the line limit tells a line over it.
        let read = (&mut reader).take(max_line + 1).read_until(b'\n', &mut all)?;
        if read == 0 {
            return Ok(all);
        }
        if all.len() as u64 > max_total {
            return Err(too_big(format!(
                "the input is larger than {max_total} bytes (TWINSIM_MAX_INPUT_BYTES raises it)"
            )));
        }
        let line = &all[start..];
        let content = line.len() as u64 - u64::from(line.last() == Some(&b'\n'));
        if content > max_line {
            return Err(too_big(format!(
                "line {line_number} is longer than {max_line} bytes \
                 (TWINSIM_MAX_LINE_BYTES raises it)"
            )));
        }
        line_number += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_within_the_limits_are_read_whole_and_others_name_their_limit() {
        assert_eq!(read_bounded(&b"ab\ncd"[..], (2, 5)).unwrap(), b"ab\ncd");
        let long = read_bounded(&b"ab\ncde\n"[..], (2, 100)).unwrap_err();
        assert!(long.to_string().contains("line 2 is longer than 2 bytes"), "{long}");
        let big = read_bounded(&b"ab\ncd\nef"[..], (2, 7)).unwrap_err();
        assert!(big.to_string().contains("larger than 7 bytes"), "{big}");
        // An endless input stops at the line limit.
        let endless = read_bounded(std::io::repeat(0), (1000, 1 << 40)).unwrap_err();
        assert!(endless.to_string().contains("line 1"), "{endless}");
    }
}
