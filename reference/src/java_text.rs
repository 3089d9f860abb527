//! Java's text classes as the referees' regular expressions see them.
//!
//! The referees parse the bots' lines with `java.util.regex` patterns compiled without the
//! `UNICODE_CHARACTER_CLASS` flag, so `\s` is exactly the six ASCII characters
//! `[ \t\n\x0B\f\r]`: no-break spaces, `U+0085`, `U+2028` and the other Unicode spaces are not
//! whitespace to them (unlike Rust's `char::is_whitespace`), and `.` matches everything but the
//! five line terminators.

/// `\s` of a Java regular expression without flags: space, tab, LF, VT, FF, CR.
pub fn is_java_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r')
}

/// The line terminators, the characters Java's `.` does not match without flags: LF, CR,
/// `U+0085`, `U+2028` and `U+2029`.
pub fn is_java_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::{is_java_line_terminator, is_java_space};

    #[test]
    fn java_line_terminators_are_the_five_documented_ones() {
        let terminators: Vec<char> = (0..=0x3000u32)
            .filter_map(char::from_u32)
            .filter(|&c| is_java_line_terminator(c))
            .collect();
        assert_eq!(terminators, vec!['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']);
    }

    #[test]
    fn java_space_is_the_six_ascii_characters() {
        let spaces: Vec<char> =
            (0..=0x3000u32).filter_map(char::from_u32).filter(|&c| is_java_space(c)).collect();
        assert_eq!(spaces, vec!['\t', '\n', '\u{0B}', '\u{0C}', '\r', ' ']);
        for c in ['\u{1C}', '\u{85}', '\u{A0}', '\u{2007}', '\u{2028}', '\u{3000}'] {
            assert!(c.is_whitespace() || c == '\u{1C}', "{c:?} is Unicode whitespace");
            assert!(!is_java_space(c), "{c:?} is not Java's \\s");
        }
    }
}
