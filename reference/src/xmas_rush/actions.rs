//! The typed action (rules doc §5 "Actions, syntax and validation"); how the referee reads a
//! bot's line is [`super::protocol::parse_line`].

use super::path::Path;
use super::state::*;
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
