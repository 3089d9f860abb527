//! §6.2 Output syntax and parsing (bot → referee) and §8 Protocol (referee → bot): the
//! possible-actions list with its shuffles, the view texts, and a typed view a bot can parse.
//!
//! A bot reads its input with [`parse_turn`] (the first turn's carries the init block) and rebuilds a state to search on with
//! [`state_from_view`], whose documentation says what the view hides and what is assumed instead.

use super::board::{self, NUM_CELLS};
use super::rules;
use super::state::{Action, Params, Player, State, Tree};
use crate::game::ParseError;

// ---------------------------------------------------------------------------------------------
// §6.2 Output syntax and parsing
// ---------------------------------------------------------------------------------------------

/// A parsed bot line: the action and its cosmetic message (§6.2 "The message").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The command.
    pub action: Action,
    /// The message, trimmed and cut to 46 chars + "..." when longer than 48; `None` if absent.
    pub message: Option<String>,
}

/// A line the referee rejects (§6.2): what and where, plus the text its messages quote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// Where the line stops matching every enabled pattern, and what was expected there.
    pub error: ParseError,
    /// `<GOT>` of the invalid-input messages (§13a): the line itself, or for a number above
    /// 2147483647 `java.lang.NumberFormatException: For input string: "<digits>"`.
    pub got: String,
}

/// Java's `\s` without flags: space, tab, LF, VT, FF, CR (§6.2).
pub use crate::java_text::is_java_space;

/// The characters Java's `.` does not match without flags: the line terminators (§6.2).
pub use crate::java_text::is_java_line_terminator;

/// A failed match: 0-based char position and what was expected there.
type Miss = (usize, String);

/// §6.2 `(?:\s+(?<message>.*))?` at the end of a pattern, under `matches()`: the rest is empty,
/// or starts with at least one `\s` and, after the run of `\s`, holds no line terminator.
fn match_tail(chars: &[char], at: usize) -> Result<Option<String>, Miss> {
    if at == chars.len() {
        return Ok(None);
    }
    if !is_java_space(chars[at]) {
        return Err((at, "whitespace or end of line".into()));
    }
    let mut start = at;
    while start < chars.len() && is_java_space(chars[start]) {
        start += 1;
    }
    if let Some(bad) = (start..chars.len()).find(|&i| is_java_line_terminator(chars[i])) {
        return Err((bad, "a message without line terminators".into()));
    }
    Ok(Some(chars[start..].iter().collect()))
}

/// A literal (case-sensitive) at `at`.
fn match_literal(chars: &[char], at: usize, literal: &str) -> Result<usize, Miss> {
    for (k, want) in literal.chars().enumerate() {
        if chars.get(at + k) != Some(&want) {
            return Err((at + k, format!("{literal:?}")));
        }
    }
    Ok(at + literal.chars().count())
}

/// `\d+` (ASCII digits only) at `at`: the digit string and the position after it.
fn match_digits(chars: &[char], at: usize) -> Result<(String, usize), Miss> {
    let mut end = at;
    while end < chars.len() && chars[end].is_ascii_digit() {
        end += 1;
    }
    if end == at {
        return Err((at, "a digit".into()));
    }
    Ok((chars[at..end].iter().collect(), end))
}

/// One §6.2 pattern matched as a whole: the digit strings and the message.
type Matched = (Vec<String>, Option<String>);

/// Matches `^<KEYWORD>( \d+){numbers}(?:\s+(?<message>.*))?` against the whole line.
fn match_pattern(chars: &[char], keyword: &str, numbers: usize) -> Result<Matched, Miss> {
    let mut at = match_literal(chars, 0, keyword)?;
    let mut digits = vec![];
    for _ in 0..numbers {
        at = match_literal(chars, at, " ")?;
        let (d, end) = match_digits(chars, at)?;
        digits.push(d);
        at = end;
    }
    let message = match_tail(chars, at)?;
    Ok((digits, message))
}

/// §6.2 the message: Java `trim()`, then cut to 46 chars + "..." when longer than 48.
fn clean_message(message: Option<String>) -> Option<String> {
    message.map(|m| {
        let trimmed = m.trim_matches(|c: char| c <= ' ');
        if trimmed.chars().count() > 48 {
            format!("{}...", trimmed.chars().take(46).collect::<String>())
        } else {
            trimmed.to_string()
        }
    })
}

/// §6.2: parses one bot line exactly as the referee does: the patterns WAIT, GROW (league ≥ 2),
/// COMPLETE, SEED (league ≥ 3) in that order, each against the whole line, then
/// `Integer.parseInt` of the numbers (source before target), whose overflow is also a failure.
pub fn parse_line(line: &str, params: &Params) -> Result<Command, LineError> {
    let chars: Vec<char> = line.chars().collect();
    let patterns: Vec<(&str, usize)> = [
        ("WAIT", 0, true),
        ("GROW", 1, params.grow_enabled()),
        ("COMPLETE", 1, true),
        ("SEED", 2, params.seed_enabled()),
    ]
    .iter()
    .filter(|p| p.2)
    .map(|p| (p.0, p.1))
    .collect();
    let mut furthest: Miss = (0, format!("one of {}", params.expected_text()));
    for (keyword, numbers) in &patterns {
        match match_pattern(&chars, keyword, *numbers) {
            Ok((digits, message)) => {
                let mut values = vec![];
                for d in &digits {
                    match d.parse::<i32>() {
                        Ok(v) => values.push(v),
                        Err(_) => {
                            let column =
                                line.find(d.as_str()).map_or(0, |b| line[..b].chars().count());
                            return Err(LineError {
                                error: ParseError::at(
                                    column + 1,
                                    "a number at most 2147483647",
                                    d.clone(),
                                ),
                                got: format!(
                                    "java.lang.NumberFormatException: For input string: \"{d}\""
                                ),
                            });
                        }
                    }
                }
                let action = match (*keyword, values.as_slice()) {
                    ("GROW", [i]) => Action::Grow(*i),
                    ("COMPLETE", [i]) => Action::Complete(*i),
                    ("SEED", [s, t]) => Action::Seed(*s, *t),
                    _ => Action::Wait,
                };
                return Ok(Command { action, message: clean_message(message) });
            }
            Err(miss) => {
                // Report the pattern that got furthest (a keyword that matched).
                if miss.0 > furthest.0 {
                    furthest = miss;
                }
            }
        }
    }
    let found: String = chars[furthest.0.min(chars.len())..].iter().collect();
    Err(LineError {
        error: ParseError::at(furthest.0 + 1, furthest.1, found),
        got: line.to_string(),
    })
}

/// §6.2 + §7: what the referee makes of an asked player's output (`None`: a timeout).
pub fn read_answer(line: Option<&str>, params: &Params) -> rules::Answer {
    match line {
        None => rules::Answer::Timeout,
        Some(line) => match parse_line(line, params) {
            Ok(command) => rules::Answer::Action(command.action),
            Err(e) => rules::Answer::Malformed { got: e.got },
        },
    }
}

// ---------------------------------------------------------------------------------------------
// §8 Protocol: the possible-actions lists printed (the list itself is the rules' legal list,
// `rules::possible_action_groups`)
// ---------------------------------------------------------------------------------------------

/// §8: the possible-actions lists of this decision point, as the referee prints them: player 0
/// first, then player 1, each drawn from the game RNG in turn; `None` for a player not asked.
/// The state's RNG is not advanced (the frame does that when it runs).
pub fn decision_lists(state: &State) -> [Option<Vec<Action>>; 2] {
    let mut rng = state.rng.clone();
    let mut out = [None, None];
    for (p, slot) in out.iter_mut().enumerate() {
        if state.is_asked(p) {
            *slot = Some(rules::possible_actions_with(state, p, &mut rng));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// §8 Protocol: the typed view and its text
// ---------------------------------------------------------------------------------------------

/// One line of the initialisation block (§8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellInfo {
    /// Cell index.
    pub index: usize,
    /// Richness (0 = hole).
    pub richness: u8,
    /// Neighbour in each direction, −1 off the board.
    pub neighbours: [i32; 6],
}

/// One tree line of the turn block (§8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewTree {
    /// `cellIndex`.
    pub cell: usize,
    /// `size`: 0 (seed) to 3.
    pub size: u8,
    /// `isMine`: the reader's tree.
    pub is_mine: bool,
    /// `isDormant`: used this day.
    pub is_dormant: bool,
}

/// Everything a bot reads at one decision point (§8): the init block on the first turn, then
/// the turn block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The initialisation block (first turn only).
    pub cells: Option<Vec<CellInfo>>,
    /// `day`, 0-based.
    pub day: i32,
    /// `nutrients`.
    pub nutrients: i32,
    /// `mySun`.
    pub my_sun: i32,
    /// `myScore`.
    pub my_score: i32,
    /// `oppSun`.
    pub opp_sun: i32,
    /// `oppScore`.
    pub opp_score: i32,
    /// `oppIsWaiting`: the opponent has said WAIT for the rest of the day.
    pub opp_is_waiting: bool,
    /// Trees in ascending cell index, seeds included.
    pub trees: Vec<ViewTree>,
    /// The possible actions, WAIT first.
    pub possible_actions: Vec<Action>,
}

/// §8 initialisation block, as typed lines.
pub fn init_cells(state: &State) -> Vec<CellInfo> {
    (0..NUM_CELLS)
        .map(|index| CellInfo {
            index,
            richness: state.richness[index],
            neighbours: std::array::from_fn(|d| {
                board::neighbour(index, d).map_or(-1, |n| n as i32)
            }),
        })
        .collect()
}

/// §8: the typed views of this decision point (`None` for a player not asked). The first
/// ACTIONS frame (no execution yet) carries the init block.
pub fn views(state: &State) -> [Option<View>; 2] {
    let lists = decision_lists(state);
    let mut out = [None, None];
    for (p, list) in lists.into_iter().enumerate() {
        if let Some(possible_actions) = list {
            let me = state.players[p];
            let opp = state.players[1 - p];
            out[p] = Some(View {
                cells: (state.executions == 0).then(|| init_cells(state)),
                day: state.day as i32,
                nutrients: state.nutrients,
                my_sun: me.sun,
                my_score: me.score,
                opp_sun: opp.sun,
                opp_score: opp.score,
                opp_is_waiting: opp.waiting,
                trees: state
                    .trees
                    .iter()
                    .map(|(&cell, t)| ViewTree {
                        cell,
                        size: t.size,
                        is_mine: t.owner == p,
                        is_dormant: t.dormant,
                    })
                    .collect(),
                possible_actions,
            });
        }
    }
    out
}

/// §8: the exact text of a view (lines joined by "\n").
pub fn render_view(view: &View) -> String {
    let mut lines: Vec<String> = vec![];
    if let Some(cells) = &view.cells {
        lines.push(cells.len().to_string());
        for c in cells {
            let ns: Vec<String> = c.neighbours.iter().map(|n| n.to_string()).collect();
            lines.push(format!("{} {} {}", c.index, c.richness, ns.join(" ")));
        }
    }
    lines.push(view.day.to_string());
    lines.push(view.nutrients.to_string());
    lines.push(format!("{} {}", view.my_sun, view.my_score));
    lines.push(format!("{} {} {}", view.opp_sun, view.opp_score, u8::from(view.opp_is_waiting)));
    lines.push(view.trees.len().to_string());
    for t in &view.trees {
        lines.push(format!(
            "{} {} {} {}",
            t.cell,
            t.size,
            u8::from(t.is_mine),
            u8::from(t.is_dormant)
        ));
    }
    lines.push(view.possible_actions.len().to_string());
    lines.extend(view.possible_actions.iter().map(|a| a.to_string()));
    lines.join("\n")
}

/// §8: the texts the referee sends at this decision point (`None`: not asked).
pub fn view_texts(state: &State) -> [Option<String>; 2] {
    views(state).map(|v| v.map(|v| render_view(&v)))
}

/// Reads a view's text line by line, reporting the line and column of the first problem.
struct ViewReader<'a> {
    lines: Vec<&'a str>,
    next: usize,
}

impl<'a> ViewReader<'a> {
    fn line(&mut self, what: &str) -> Result<&'a str, ParseError> {
        let line = self.lines.get(self.next).copied().ok_or_else(|| ParseError {
            line: self.next + 1,
            column: 1,
            expected: what.to_string(),
            found: String::new(),
        })?;
        self.next += 1;
        Ok(line)
    }

    /// A line of exactly `n` integers separated by single spaces.
    fn ints(&mut self, n: usize, what: &str) -> Result<Vec<i32>, ParseError> {
        let line = self.line(what)?;
        let number = self.next;
        let parts: Vec<&str> = line.split(' ').collect();
        if parts.len() != n {
            return Err(ParseError {
                line: number,
                column: 1,
                expected: format!("{n} integers ({what})"),
                found: line.to_string(),
            });
        }
        let mut column = 1;
        let mut out = vec![];
        for part in parts {
            let value = part.parse::<i32>().map_err(|_| ParseError {
                line: number,
                column,
                expected: format!("an integer ({what})"),
                found: part.to_string(),
            })?;
            out.push(value);
            column += part.chars().count() + 1;
        }
        Ok(out)
    }

    /// The 37 cell lines of the init block (§8): index, richness 0..3, six neighbours.
    fn cell_lines(&mut self) -> Result<Vec<CellInfo>, ParseError> {
        let mut cells = vec![];
        for _ in 0..NUM_CELLS {
            let v = self.ints(8, "cell line")?;
            self.index_and_level(&v, "a cell index and a richness 0..3")?;
            cells.push(CellInfo {
                index: v[0] as usize,
                richness: v[1] as u8,
                neighbours: [v[2], v[3], v[4], v[5], v[6], v[7]],
            });
        }
        Ok(cells)
    }

    /// The line just read (`values`) must start with a cell index (not negative) and a level
    /// 0..3 (a richness or a tree size); `expected` says which.
    fn index_and_level(&self, values: &[i32], expected: &str) -> Result<(), ParseError> {
        if values[0] >= 0 && (0..=3).contains(&values[1]) {
            return Ok(());
        }
        Err(ParseError {
            line: self.next,
            column: 1,
            expected: expected.into(),
            found: self.lines[self.next - 1].to_string(),
        })
    }

    /// The end of the input must come next.
    fn end(&self) -> Result<(), ParseError> {
        match self.lines.get(self.next) {
            None => Ok(()),
            Some(line) => Err(ParseError {
                line: self.next + 1,
                column: 1,
                expected: "end of input".into(),
                found: line.to_string(),
            }),
        }
    }

    fn flag(&self, value: i32, what: &str) -> Result<bool, ParseError> {
        match value {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(ParseError {
                line: self.next,
                column: 1,
                expected: format!("0 or 1 ({what})"),
                found: value.to_string(),
            }),
        }
    }
}

/// §8: parses the initialisation block alone: `numberOfCells` (37), then one line per cell
/// (index, richness, six neighbours). The first turn's input starts with it, and [`parse_turn`]
/// reads it there too (into [`View::cells`]).
pub fn parse_init(text: &str) -> Result<Vec<CellInfo>, ParseError> {
    let mut r = ViewReader { lines: text.split('\n').collect(), next: 0 };
    let count = r.ints(1, "numberOfCells")?[0];
    if count != NUM_CELLS as i32 {
        return Err(ParseError {
            line: 1,
            column: 1,
            expected: format!("numberOfCells {NUM_CELLS}"),
            found: count.to_string(),
        });
    }
    let cells = r.cell_lines()?;
    r.end()?;
    Ok(cells)
}

/// §8: parses a view text (what a bot reads at one decision point) into a typed [`View`]. The
/// init block is recognised by its first line `37` (a day is at most 23).
pub fn parse_turn(text: &str) -> Result<View, ParseError> {
    let mut r = ViewReader { lines: text.split('\n').collect(), next: 0 };
    let first = r.ints(1, "numberOfCells or day")?[0];
    let mut cells = None;
    let day;
    if first == NUM_CELLS as i32 {
        cells = Some(r.cell_lines()?);
        day = r.ints(1, "day")?[0];
    } else {
        day = first;
    }
    let nutrients = r.ints(1, "nutrients")?[0];
    let me = r.ints(2, "mySun myScore")?;
    let opp = r.ints(3, "oppSun oppScore oppIsWaiting")?;
    let opp_is_waiting = r.flag(opp[2], "oppIsWaiting")?;
    let count = r.ints(1, "numberOfTrees")?[0];
    let mut trees = vec![];
    for _ in 0..count.max(0) {
        let v = r.ints(4, "tree line")?;
        r.index_and_level(&v, "a cell index and a size 0..3")?;
        trees.push(ViewTree {
            cell: v[0] as usize,
            size: v[1] as u8,
            is_mine: r.flag(v[2], "isMine")?,
            is_dormant: r.flag(v[3], "isDormant")?,
        });
    }
    let count = r.ints(1, "numberOfPossibleActions")?[0];
    let mut possible_actions = vec![];
    for _ in 0..count.max(0) {
        let line = r.line("a possible action")?;
        let number = r.next;
        let command = parse_line(line, &Params::default())
            .map_err(|e| ParseError { line: number, ..e.error })?;
        possible_actions.push(command.action);
    }
    r.end()?;
    Ok(View {
        cells,
        day,
        nutrients,
        my_sun: me[0],
        my_score: me[1],
        opp_sun: opp[0],
        opp_score: opp[1],
        opp_is_waiting,
        trees,
        possible_actions,
    })
}

/// §8 the view → a search state: rebuilds the state of the decision point a view describes, for
/// the player `seat` who reads it, from the init block's `cells` (richness, read on the first
/// turn) and the turn's `view`.
///
/// Photosynthesis has no fog: the view shows the whole board, the day, the nutrients, both suns
/// and scores and whether the opponent waits, which is everything the rules read to go on. What
/// it does not show, and what is assumed instead:
/// - the referee's generator (§4), used only to shuffle the printed lists of possible actions
///   (§8, [`rules::possible_actions_with`]), so no rule outcome depends on it: determinized as
///   `new Random(rng_seed)`;
/// - the shadow map of the morning (§5), read only by the gathering that already happened (the
///   next gathering uses the map recomputed when the sun moves): set to the map of the current
///   trees;
/// - the league: the contest rules (league 3, [`Params::default`], 24 days);
/// - whether the opponent was deactivated (§11, a timeout or a malformed line): assumed active;
/// - the executions count (§11): 1, this execution (views after the first carry no init block).
///
/// `seat` is 0 or 1 (a larger value is taken as 1); cells of `cells` outside the board are
/// ignored.
pub fn state_from_view(cells: &[CellInfo], view: &View, seat: usize, rng_seed: i64) -> State {
    let seat = seat.min(1);
    let mut state = State::blank(rng_seed, Params::default());
    for c in cells {
        if c.index < NUM_CELLS {
            state.richness[c.index] = c.richness;
        }
    }
    let day = view.day.max(0) as u32;
    state.day = day;
    state.sun_direction = (day % 6) as usize;
    state.nutrients = view.nutrients;
    state.players[seat] =
        Player { sun: view.my_sun, score: view.my_score, waiting: false, active: true };
    state.players[1 - seat] = Player {
        sun: view.opp_sun,
        score: view.opp_score,
        waiting: view.opp_is_waiting,
        active: true,
    };
    for t in &view.trees {
        let owner = if t.is_mine { seat } else { 1 - seat };
        state.trees.insert(t.cell, Tree { size: t.size, owner, dormant: t.is_dormant });
    }
    rules::compute_shadows(&mut state);
    state.executions = 1;
    state
}
