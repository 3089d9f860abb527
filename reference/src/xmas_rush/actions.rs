//! Actions and how the referee reads a bot's line (rules doc §5 "Actions, syntax and
//! validation").

use super::path::Path;
use super::state::*;
use crate::game::ParseError;
use std::fmt;

/// A well-formed action (§5 rules 2–4). `Copy`: a MOVE's steps are held inline ([`Path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `PUSH <id> <dir>`: UP/DOWN push column `id`, LEFT/RIGHT push row `id`.
    Push {
        /// The row (LEFT/RIGHT) or column (UP/DOWN) index, 0..6.
        line: usize,
        /// Where the tiles of the line move; the hand tile enters at the opposite end (§7.1).
        direction: Direction,
    },
    /// `MOVE <dir> …`: 1 to 20 steps. The type holds at most 20; an empty path is representable
    /// and is refused as the bare line `MOVE` would be (§5).
    Move(Path),
    /// `PASS`.
    Pass,
}

impl Action {
    /// The action's type word in `can't "<T>" while expecting a <TT> action` (§5).
    pub fn type_name(&self) -> &'static str {
        match self {
            Action::Push { .. } => "PUSH",
            Action::Move(_) => "MOVE",
            Action::Pass => "PASS",
        }
    }

    /// Whether the action fits the turn type (§5: PUSH in a PUSH turn, MOVE or PASS in a MOVE
    /// turn).
    pub fn fits(&self, turn_type: TurnType) -> bool {
        match self {
            Action::Push { .. } => turn_type == TurnType::Push,
            Action::Move(_) | Action::Pass => turn_type == TurnType::Move,
        }
    }
}

impl fmt::Display for Action {
    /// The exact line a bot prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Push { line, direction } => write!(f, "PUSH {line} {direction}"),
            Action::Move(steps) => {
                f.write_str("MOVE")?;
                for d in steps {
                    write!(f, " {d}")?;
                }
                Ok(())
            }
            Action::Pass => f.write_str("PASS"),
        }
    }
}

/// Why the referee rejects a line (§5 rules 1, 5, 6). Every one is fatal (§8).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LineError {
    /// Rule 1: longer than 124 characters (`length` in Java `String.length()` units).
    TooLong {
        /// The line's length in UTF-16 code units; always > [`MAX_LINE_LENGTH`].
        length: usize,
    },
    /// Rule 5: a MOVE with 21 or more well-formed directions.
    TooManySteps {
        /// How many directions the line has; always > [`MAX_STEPS`].
        steps: usize,
        /// The whole line, echoed in the reason `max 20 steps - <line>`.
        line: String,
    },
    /// Rule 6 (and the `PUSH   UP` convention of rule 2): no pattern matches; `error` says where
    /// the line leaves the grammar.
    Unrecognized {
        /// The whole line as printed; it is the event's reason word for word (possibly empty).
        line: String,
        /// Where and why the line leaves the grammar (for humans; the referee reports only
        /// `line`).
        error: ParseError,
    },
}

impl LineError {
    /// The `<reason>` of the event `$N: invalid input - <reason>` (§5, §12).
    pub fn reason(&self) -> String {
        match self {
            LineError::TooLong { .. } => "exceeded number of allowed characters".to_string(),
            LineError::TooManySteps { line, .. } => format!("max 20 steps - {line}"),
            LineError::Unrecognized { line, .. } => line.clone(),
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::TooLong { length } => {
                write!(f, "line of {length} characters, more than {MAX_LINE_LENGTH}")
            }
            LineError::TooManySteps { steps, .. } => {
                write!(f, "MOVE with {steps} steps, more than {MAX_STEPS}")
            }
            LineError::Unrecognized { error, .. } => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for LineError {}

/// Reads one output line the way the referee does (§5): the length cap first, then the whole-line,
/// case-sensitive patterns `PUSH [ 0-6] (UP|RIGHT|DOWN|LEFT)`, `MOVE( (UP|RIGHT|DOWN|LEFT)){1,20}`,
/// `PASS`, then the 21-or-more-steps MOVE, else the line is unrecognized.
///
/// The turn type is not checked here (see [`super::rules::check_type`]).
pub fn parse_line(line: &str) -> Result<Action, LineError> {
    // Rule 1: Java's String.length() counts UTF-16 code units.
    let length = line.encode_utf16().count();
    if length > MAX_LINE_LENGTH {
        return Err(LineError::TooLong { length });
    }
    let unrecognized =
        |error: ParseError| LineError::Unrecognized { line: line.to_string(), error };
    let chars: Vec<char> = line.chars().collect();
    match keyword(&chars) {
        Some("PUSH") => parse_push(&chars).map_err(unrecognized),
        Some("MOVE") => match parse_move(&chars) {
            Ok(steps) => match Path::try_from(&steps[..]) {
                Ok(path) => Ok(Action::Move(path)),
                // Rule 5: 21 or more well-formed steps.
                Err(_) => {
                    Err(LineError::TooManySteps { steps: steps.len(), line: line.to_string() })
                }
            },
            Err(error) => Err(unrecognized(error)),
        },
        Some("PASS") if chars.len() == 4 => Ok(Action::Pass),
        Some("PASS") => Err(unrecognized(ParseError::at(5, "end of line", rest(&chars, 4)))),
        _ => Err(unrecognized(ParseError::at(1, "PUSH, MOVE or PASS", rest(&chars, 0)))),
    }
}

/// The keyword the line starts with, if any.
fn keyword(chars: &[char]) -> Option<&'static str> {
    ["PUSH", "MOVE", "PASS"].into_iter().find(|k| chars.iter().take(4).copied().eq(k.chars()))
}

/// The characters from index `from` on, as found text.
fn rest(chars: &[char], from: usize) -> String {
    chars.iter().skip(from).collect()
}

/// Reads `<sep><DIR>` at index `at` (0-based): returns the direction and the index after it.
fn direction_at(chars: &[char], at: usize) -> Result<(Direction, usize), ParseError> {
    for d in Direction::ALL {
        let word: Vec<char> = d.name().chars().collect();
        if chars.len() >= at + word.len() && chars[at..at + word.len()] == word[..] {
            return Ok((d, at + word.len()));
        }
    }
    Err(ParseError::at(at + 1, "UP, RIGHT, DOWN or LEFT", rest(chars, at)))
}

/// Expects a single space at index `at`.
fn space_at(chars: &[char], at: usize) -> Result<(), ParseError> {
    if chars.get(at) == Some(&' ') {
        Ok(())
    } else {
        Err(ParseError::at(at + 1, "a single space", rest(chars, at)))
    }
}

/// `PUSH [ 0-6] (UP|RIGHT|DOWN|LEFT)`; the id ` ` (space) is the `PUSH   UP` quirk of §5 rule 2,
/// treated as an unrecognized line by project convention.
fn parse_push(chars: &[char]) -> Result<Action, ParseError> {
    space_at(chars, 4)?;
    let line = match chars.get(5) {
        Some(c @ '0'..='6') => *c as usize - '0' as usize,
        _ => return Err(ParseError::at(6, "a line number 0..6", rest(chars, 5))),
    };
    space_at(chars, 6)?;
    let (direction, end) = direction_at(chars, 7)?;
    if end != chars.len() {
        return Err(ParseError::at(end + 1, "end of line", rest(chars, end)));
    }
    Ok(Action::Push { line, direction })
}

/// `MOVE( (UP|RIGHT|DOWN|LEFT))+`: any number (≥ 1) of well-formed steps; the caller applies
/// the 20-step limit.
fn parse_move(chars: &[char]) -> Result<Vec<Direction>, ParseError> {
    let mut steps = Vec::new();
    let mut at = 4;
    loop {
        if at == chars.len() && !steps.is_empty() {
            return Ok(steps);
        }
        if at == chars.len() {
            return Err(ParseError::at(at + 1, "a space and a direction", ""));
        }
        space_at(chars, at)?;
        let (d, end) = direction_at(chars, at + 1)?;
        steps.push(d);
        at = end;
    }
}
