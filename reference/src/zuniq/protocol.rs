//! Rules doc §8 "Protocol (stdin/stdout, one item per line)": what a bot prints (a wall name,
//! optionally followed by `!`) and what it reads (`Start`, the opponent's bare move, `Quit`).
//!
//! A bot reads its input with [`parse_turn`] and rebuilds a state to search on with
//! [`state_from_view`], whose documentation says what the view hides and what is assumed instead.

use super::board::{Orientation, Wall};
use super::rules::{self, Event};
use super::state::{Action, State};
use crate::game::{ParseError, StepError};
use std::fmt;
use std::str::FromStr;

impl FromStr for Action {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_line(s)
    }
}

/// The character at 0-based position `i` of `chars` as a string, or "" (end of input).
fn found_at(chars: &[char], i: usize) -> String {
    chars.get(i).map(|c| c.to_string()).unwrap_or_default()
}

/// §2, §8: a wall name, exactly `[A-F][1-5]h` or `[A-E][1-6]v`, nothing before or after.
/// The error names the 1-based column of the first wrong character.
pub fn parse_wall(text: &str) -> Result<Wall, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let row = match chars.first() {
        Some(&c @ 'A'..='F') => c as u8 - b'A',
        _ => return Err(ParseError::at(1, "a row letter A-F", found_at(&chars, 0))),
    };
    let col = match chars.get(1) {
        Some(&c @ '1'..='6') => c as u8 - b'1',
        _ => return Err(ParseError::at(2, "a column digit 1-6", found_at(&chars, 1))),
    };
    let orientation = match chars.get(2) {
        Some('h') => Orientation::Horizontal,
        Some('v') => Orientation::Vertical,
        _ => return Err(ParseError::at(3, "h or v", found_at(&chars, 2))),
    };
    if chars.len() > 3 {
        let rest: String = chars[3..].iter().collect();
        return Err(ParseError::at(4, "end of the wall name", rest));
    }
    match Wall::new(row, col, orientation) {
        Some(wall) => Ok(wall),
        // §10 pitfall 6: `A6h` and `F1v` look like walls but do not exist.
        None if orientation == Orientation::Horizontal => {
            Err(ParseError::at(2, "a column 1-5 for a horizontal wall", found_at(&chars, 1)))
        }
        None => Err(ParseError::at(1, "a row A-E for a vertical wall", found_at(&chars, 0))),
    }
}

/// §8 check 2: a bot's output line. If it is exactly 4 characters long and the 4th is `!`, the
/// `!` is a claim and is removed; the rest must be exactly a wall name. No spaces, no other
/// case, nothing else.
pub fn parse_line(line: &str) -> Result<Action, ParseError> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() == 4 && chars[3] == '!' {
        let name: String = chars[..3].iter().collect();
        return parse_wall(&name).map(|wall| Action { wall, claim: true });
    }
    match parse_wall(line) {
        Ok(wall) => Ok(Action { wall, claim: false }),
        Err(mut error) => {
            if error.column == 4 {
                error.expected = "`!` (exactly one) or the end of the line".into();
            }
            Err(error)
        }
    }
}

/// What a bot reads next (§8, §9 `views`): one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// `Start`: White's first input.
    Start,
    /// The opponent's move, bare (without `!`).
    Move(Wall),
    /// `Quit`: the game is over.
    Quit,
    /// Nothing is sent (the trace's `""`): the player has just moved and waits.
    Nothing,
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            View::Start => write!(f, "Start"),
            View::Move(wall) => write!(f, "{wall}"),
            View::Quit => write!(f, "Quit"),
            View::Nothing => Ok(()),
        }
    }
}

/// §8: reads the line a bot receives (`Start`, a wall name or `Quit`; `""` = nothing sent)
/// into a typed view. The one call a bot author makes per input line.
pub fn parse_turn(text: &str) -> Result<View, ParseError> {
    match text {
        "" => Ok(View::Nothing),
        "Start" => Ok(View::Start),
        "Quit" => Ok(View::Quit),
        _ => parse_wall(text).map(View::Move).map_err(|mut error| {
            error.expected = format!("Start, Quit or a wall name ({})", error.expected);
            error
        }),
    }
}

/// §8 the view → a search state: the state after `view`, from the state the bot knew before it
/// (`known`: the position after its own last move, or [`State::new`] before the first input).
/// Zuniq hides nothing on the board: the bot keeps the position by playing its own moves and
/// the opponent's moves its views relay. What a view does not show, and what is assumed:
/// - the opponent's `!` claim (§7: the relayed move is bare): assumed not made, so the rebuilt
///   state has no claim of the opponent's; only the final bonus depends on it;
/// - the last move of the game: `Quit` replaces it (§8), so the state is left as known.
///
/// `Start`, `Quit` and nothing sent change nothing; a relayed wall that is illegal on `known` is
/// refused with the rules' error (the views do not come from one game with `known`).
pub fn state_from_view(known: &State, view: &View) -> Result<State, StepError> {
    let mut state = known.clone();
    if let View::Move(wall) = *view {
        rules::apply_move(&mut state, Action { wall, claim: false })?;
    }
    Ok(state)
}

/// §8: what each player is sent before the first move: `Start` to White, nothing to Black.
pub fn initial_views() -> [View; 2] {
    [View::Start, View::Nothing]
}

/// §8, §9: what each player is sent after a turn: both `Quit` once the game is over; otherwise
/// the opponent of the mover (now to move) gets the bare wall, the mover nothing.
pub fn views_after(state: &State, placed: Option<Wall>) -> [View; 2] {
    match placed {
        Some(wall) if !state.finished => {
            let mut views = [View::Nothing, View::Nothing];
            views[state.to_move()] = View::Move(wall);
            views
        }
        _ => [View::Quit, View::Quit],
    }
}

/// The wall a turn placed: the one wall `after` has and `before` has not (None for a refused
/// line, which places nothing, §8).
pub fn placed_wall(before: &State, after: &State) -> Option<Wall> {
    after.walls.difference(&before.walls).next().copied()
}

/// The events of a turn as the trace's strings (§9).
pub fn event_lines(events: &[Event]) -> Vec<String> {
    events.iter().map(Event::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wall_name_parses_back() {
        for wall in super::super::board::all_walls() {
            assert_eq!(parse_wall(&wall.name()), Ok(wall));
            let claimed = parse_line(&format!("{wall}!")).unwrap();
            assert!(claimed.claim);
            assert_eq!(claimed.wall, wall);
        }
    }

    #[test]
    fn malformed_lines_say_what_and_where() {
        let err = |s: &str| parse_line(s).unwrap_err();
        assert_eq!(err("").column, 1);
        assert_eq!(err("a1h").column, 1);
        assert_eq!(err("A1H").column, 3);
        assert_eq!(err("A6h").column, 2);
        assert_eq!(err("F1v").column, 1);
        assert_eq!(err("G1h").column, 1);
        assert_eq!(err("B7v").column, 2);
        assert_eq!(err("A1h!!").column, 4);
        assert_eq!(err("A1h ").column, 4);
        assert_eq!(err(" A1h").column, 1);
        assert_eq!(err("Quit").column, 1);
        assert_eq!(err("pass").column, 1);
        assert_eq!(err("A1!").column, 3);
        assert_eq!(err("A1h!!").found, "!!");
    }

    #[test]
    fn non_ascii_input_is_malformed_not_a_panic() {
        for s in ["é1h", "A1h\u{e9}", "Aé!!", "\u{1F600}\u{1F600}\u{1F600}!", "A\u{0}h"] {
            assert!(parse_line(s).is_err(), "{s:?}");
        }
    }

    #[test]
    fn views_round_trip() {
        let mut views = vec![View::Start, View::Quit, View::Nothing];
        views.extend(super::super::board::all_walls().into_iter().map(View::Move));
        for view in views {
            assert_eq!(parse_turn(&view.to_string()), Ok(view));
        }
        assert!(parse_turn("A1h!").is_err());
        assert!(parse_turn("start").is_err());
    }
}
