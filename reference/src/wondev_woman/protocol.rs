//! §4 Output syntax (bot → referee) and §9 Protocol (referee → bot), both directions.
//!
//! A bot reads its input with [`parse_turn`] (after [`parse_init`]) and rebuilds a state to search on with
//! [`state_from_view`], whose documentation says what the view hides and what is assumed instead.

use super::rules;
use super::state::{Action, Dir, Kind, League, Params, Point, State};
use crate::game::ParseError;

/// §4: `\s` of a Java regex: exactly `[ \t\n\x0B\f\r]`.
pub use crate::java_text::is_java_space;

/// §4: the characters Java's `.` does not match (line terminators).
pub use crate::java_text::is_java_line_terminator as is_line_terminator;

/// The command word of an action line, as §4 and §10 classify it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Word {
    /// `MOVE&BUILD` in any ASCII case (accepted).
    Move,
    /// `PUSH&BUILD` in some ASCII case; only `exact` (upper case) is accepted by §10.
    Push {
        /// Spelled exactly `PUSH&BUILD`.
        exact: bool,
    },
}

/// A line that matched one of the two patterns of §4.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// Pattern 1: `ACCEPT-DEFEAT [message]`.
    AcceptDefeat {
        /// The message, if any.
        message: Option<String>,
    },
    /// Pattern 2: `<word> <index> <dir> <dir> [message]`.
    Act {
        /// The command word.
        word: Word,
        /// The index digit (0..=9; only 0 and 1 name units).
        index: usize,
        /// First direction (upper-cased).
        dir1: Dir,
        /// Second direction (upper-cased).
        dir2: Dir,
        /// The message, if any.
        message: Option<String>,
    },
}

/// A cursor over the characters of a line, with 1-based columns for errors.
struct Cursor<'a> {
    chars: &'a [char],
    pos: usize,
}

impl Cursor<'_> {
    fn rest(&self) -> String {
        self.chars[self.pos..].iter().collect()
    }
    fn error(&self, expected: &str) -> ParseError {
        ParseError::at(self.pos + 1, expected, self.rest())
    }
    /// Case-insensitive (ASCII only) literal.
    fn literal(&mut self, word: &str) -> Option<String> {
        let n = word.chars().count();
        let got = self.chars.get(self.pos..self.pos + n)?;
        if got.iter().zip(word.chars()).all(|(a, b)| a.eq_ignore_ascii_case(&b)) {
            self.pos += n;
            Some(got.iter().collect())
        } else {
            None
        }
    }
    /// `\s+`: at least one Java whitespace character.
    fn spaces(&mut self, expected: &str) -> Result<(), ParseError> {
        let start = self.pos;
        while self.chars.get(self.pos).is_some_and(|&c| is_java_space(c)) {
            self.pos += 1;
        }
        if self.pos == start {
            Err(self.error(expected))
        } else {
            Ok(())
        }
    }
    fn at_space(&self, at: usize) -> bool {
        self.chars.get(at).is_some_and(|&c| is_java_space(c))
    }
    /// A direction `N|S|W|E|NW|NE|SW|SE` that must be followed by whitespace or (when `last`)
    /// the end of the line. Only one of the one- or two-letter readings can be followed by
    /// that, so the regex's backtracking reduces to "two letters if they name a direction".
    fn direction(&mut self, last: bool) -> Result<Dir, ParseError> {
        let expected = "a direction (N, S, W, E, NW, NE, SW or SE)";
        for len in [2, 1] {
            let Some(got) = self.chars.get(self.pos..self.pos + len) else {
                continue;
            };
            if !got.iter().all(|c| c.is_ascii_alphabetic()) {
                continue;
            }
            let name: String = got.iter().map(|c| c.to_ascii_uppercase()).collect();
            if let Some(d) = Dir::from_name(&name) {
                let end = self.pos + len;
                if self.at_space(end) || (last && end == self.chars.len()) {
                    self.pos = end;
                    return Ok(d);
                }
                return Err(ParseError::at(
                    end + 1,
                    if last { "whitespace or the end of the line" } else { "whitespace" },
                    self.chars[end..].iter().collect::<String>(),
                ));
            }
        }
        Err(self.error(expected))
    }
    /// `(?:\s+)?(?:\s+(?<message>.+))?` up to the end of the line: nothing, only whitespace, or
    /// whitespace then a message free of line terminators.
    fn tail(&mut self) -> Result<Option<String>, ParseError> {
        let n = self.chars.len();
        if self.pos == n {
            return Ok(None);
        }
        if !self.at_space(self.pos) {
            return Err(self.error("whitespace or the end of the line"));
        }
        let mut k = self.pos;
        while k < n && is_java_space(self.chars[k]) {
            k += 1;
        }
        if k == n {
            self.pos = n;
            return Ok(None);
        }
        if let Some(bad) = (k..n).find(|&i| is_line_terminator(self.chars[i])) {
            return Err(ParseError::at(
                bad + 1,
                "no line terminator in a message",
                self.chars[bad..].iter().collect::<String>(),
            ));
        }
        self.pos = n;
        Ok(Some(self.chars[k..].iter().collect()))
    }
}

/// §4: reads one output line the way the referee's two regular expressions do (`matches()`,
/// ASCII-only case folding, Java `\s`, `\d` and `.`): pattern 1 (`ACCEPT-DEFEAT`) first, then
/// pattern 2. A line matching neither is an error saying where pattern 2 failed.
pub fn parse_line(line: &str) -> Result<Command, ParseError> {
    let chars: Vec<char> = line.chars().collect();
    // Pattern 1.
    let mut c = Cursor { chars: &chars, pos: 0 };
    if c.literal("ACCEPT-DEFEAT").is_some() {
        if let Ok(message) = c.tail() {
            return Ok(Command::AcceptDefeat { message });
        }
    }
    // Pattern 2.
    let mut c = Cursor { chars: &chars, pos: 0 };
    let word = if let Some(w) = c.literal("MOVE&BUILD") {
        let _ = w;
        Word::Move
    } else if let Some(w) = c.literal("PUSH&BUILD") {
        Word::Push { exact: w == "PUSH&BUILD" }
    } else {
        return Err(c.error("MOVE&BUILD, PUSH&BUILD or ACCEPT-DEFEAT"));
    };
    c.spaces("whitespace")?;
    let index = match c.chars.get(c.pos) {
        Some(d) if d.is_ascii_digit() => (*d as u8 - b'0') as usize,
        _ => return Err(c.error("a unit index (one digit 0-9)")),
    };
    c.pos += 1;
    c.spaces("whitespace")?;
    let dir1 = c.direction(false)?;
    c.spaces("whitespace")?;
    let dir2 = c.direction(true)?;
    let message = c.tail()?;
    Ok(Command::Act { word, index, dir1, dir2, message })
}

/// A typed action from a line, for the typed API: `ACCEPT-DEFEAT`, or a command whose word is
/// accepted by §10 (`PUSH&BUILD` exactly). Index range and legality are the rules' business.
pub fn parse_action(line: &str) -> Result<Action, ParseError> {
    match parse_line(line)? {
        Command::AcceptDefeat { .. } => Ok(Action::AcceptDefeat),
        Command::Act { word, index, dir1, dir2, .. } => {
            let kind = match word {
                Word::Move => Kind::Move,
                Word::Push { exact: true } => Kind::Push,
                Word::Push { exact: false } => {
                    return Err(ParseError::at(
                        1,
                        "MOVE&BUILD (any case) or PUSH&BUILD (exact case)",
                        line,
                    ))
                }
            };
            Ok(Action::Build { kind, unit: index, dir1, dir2 })
        }
    }
}

impl std::str::FromStr for Action {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_action(s)
    }
}

/// §9 initialisation input: the size, then units per player.
pub fn render_init(state: &State) -> String {
    format!("{}\n{}", state.size, state.params.league.units_per_player())
}

/// §9 the turn input of `player`, as the typed value a bot reads.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// `grid[y][x]`: `None` for `.`, else the height 0..=4.
    pub grid: Vec<Vec<Option<u8>>>,
    /// Own units.
    pub mine: Vec<Point>,
    /// Enemy units; `None` when hidden (`-1 -1`).
    pub theirs: Vec<Option<Point>>,
    /// The legal actions, in the referee's sorted order.
    pub legal: Vec<Action>,
}

/// §9, §7: what `player` is told about `state`.
pub fn view(state: &State, player: usize) -> View {
    let other = 1 - player;
    View {
        grid: state.heights.clone(),
        mine: state.units[player].clone(),
        theirs: state.units[other]
            .iter()
            .map(|&u| rules::visible(state, other, u, player).then_some(u))
            .collect(),
        legal: rules::legal_actions(state, player),
    }
}

/// §9: the text of a view, lines joined by `\n` (no trailing newline), byte-exact.
pub fn render_view(view: &View) -> String {
    let mut lines: Vec<String> = vec![];
    for row in &view.grid {
        lines.push(row.iter().map(|h| h.map_or('.', |h| (b'0' + h) as char)).collect());
    }
    for u in &view.mine {
        lines.push(format!("{} {}", u.x, u.y));
    }
    for u in &view.theirs {
        lines.push(match u {
            Some(u) => format!("{} {}", u.x, u.y),
            None => "-1 -1".to_string(),
        });
    }
    lines.push(view.legal.len().to_string());
    for a in &view.legal {
        lines.push(a.to_string());
    }
    lines.join("\n")
}

/// §9: the text `player` receives for its turn.
pub fn render_turn_input(state: &State, player: usize) -> String {
    render_view(&view(state, player))
}

/// §9: reads the initialisation input: `(size, units per player)`.
pub fn parse_init(text: &str) -> Result<(usize, usize), ParseError> {
    let lines: Vec<&str> = text.split('\n').collect();
    let number = |i: usize| -> Result<usize, ParseError> {
        let l = lines.get(i).copied().unwrap_or("");
        l.trim().parse::<usize>().map_err(|_| ParseError {
            line: i + 1,
            column: 1,
            expected: "a non-negative integer".into(),
            found: l.into(),
        })
    };
    Ok((number(0)?, number(1)?))
}

fn err(line: usize, column: usize, expected: &str, found: &str) -> ParseError {
    ParseError { line, column, expected: expected.into(), found: found.into() }
}

fn parse_xy(line: &str, n: usize) -> Result<(i32, i32), ParseError> {
    let parts: Vec<&str> = line.split(' ').collect();
    if parts.len() != 2 {
        return Err(err(n, 1, "two integers \"x y\"", line));
    }
    let x = parts[0].parse::<i32>().map_err(|_| err(n, 1, "an integer", parts[0]))?;
    let y =
        parts[1].parse::<i32>().map_err(|_| err(n, parts[0].len() + 2, "an integer", parts[1]))?;
    Ok((x, y))
}

/// §9: reads a turn input (given the init values) into a [`View`]: the call a bot makes each
/// turn.
pub fn parse_turn(text: &str, size: usize, units: usize) -> Result<View, ParseError> {
    let lines: Vec<&str> = text.split('\n').collect();
    let get = |i: usize| lines.get(i).copied().ok_or_else(|| err(i + 1, 1, "another line", ""));
    let mut grid = vec![];
    for y in 0..size {
        let l = get(y)?;
        let chars: Vec<char> = l.chars().collect();
        if chars.len() != size {
            return Err(err(y + 1, 1, &format!("{size} cells"), l));
        }
        let mut row = vec![];
        for (x, c) in chars.iter().enumerate() {
            row.push(match c {
                '.' => None,
                '0'..='4' => Some(*c as u8 - b'0'),
                _ => return Err(err(y + 1, x + 1, "'.' or a height 0-4", &c.to_string())),
            });
        }
        grid.push(row);
    }
    let mut n = size;
    let mut mine = vec![];
    for _ in 0..units {
        let (x, y) = parse_xy(get(n)?, n + 1)?;
        mine.push(Point::new(x, y));
        n += 1;
    }
    let mut theirs = vec![];
    for _ in 0..units {
        let (x, y) = parse_xy(get(n)?, n + 1)?;
        theirs.push(if (x, y) == (-1, -1) { None } else { Some(Point::new(x, y)) });
        n += 1;
    }
    let count_line = get(n)?;
    let count = count_line
        .parse::<usize>()
        .map_err(|_| err(n + 1, 1, "the number of legal actions", count_line))?;
    n += 1;
    let mut legal = vec![];
    for _ in 0..count {
        let l = get(n)?;
        let a = parse_action(l).map_err(|e| ParseError { line: n + 1, ..e })?;
        legal.push(a);
        n += 1;
    }
    if n != lines.len() {
        return Err(err(n + 1, 1, "the end of the input", lines[n]));
    }
    Ok(View { grid, mine, theirs, legal })
}

/// §9 the view → a search state, from player 0's seat (the rules do not depend on the seat, §5
/// to §7; only the turn order does, §3): the view's grid and own units as shown, the enemy's
/// units at `enemy` (`[unit 0, unit 1]`), and the enemy alive or not (`enemy_alive`, §8).
///
/// What the view hides, and what is assumed instead:
/// - the hidden enemy units (§7, `-1 -1`): placed where `enemy` says. A bot knows the visible
///   ones and can deduce the set of possible placements of the others
///   (`bot::fog::Tracker`); choosing one of them is the determinization;
/// - whether the enemy was eliminated (§8, not shown): `enemy_alive`;
/// - the scores (not shown, §9): both 0, so a search counts the points scored from now on;
/// - the seat and the round: we are player 0 to move in round `round` (the caller counts its own
///   turns; capped below the 200-round limit of §3 so the state is still running);
/// - the league: the top league (Bronze, `GAME_VERSION` 3, §11: fog and pushes), whose views
///   are the only ones with hidden units; no action records (they only feed trace events).
///
/// For a top-league view, with `enemy` the true placement (the shown units where shown), the
/// rebuilt state's own view (§9) is the view itself: same grid, units and legal list.
pub fn state_from_view(view: &View, enemy: [Point; 2], enemy_alive: bool, round: u32) -> State {
    let mut state = state_from_parts(&view.grid, &view.mine, enemy, enemy_alive);
    state.round = round.min(rules::MAX_ROUNDS - 1);
    state
}

/// The state of [`state_from_view`] from its parts (a grid and own units that need not come from
/// a parsed view, as in the fog deduction's replays), in round 0.
pub fn state_from_parts(
    grid: &[Vec<Option<u8>>],
    mine: &[Point],
    enemy: [Point; 2],
    enemy_alive: bool,
) -> State {
    State {
        params: Params { league: League::Bronze, map_index: -1, symmetric: false },
        map_index: 0,
        size: grid.len(),
        heights: grid.to_vec(),
        units: [mine.to_vec(), enemy.to_vec()],
        scores: [0, 0],
        dead: [false, !enemy_alive],
        won: [false, false],
        round: 0,
        to_move: Some(0),
        game_over: false,
        end_reason: None,
        records: [vec![None; mine.len()], vec![None; 2]],
        last_turn: None,
    }
}
