//! What a bot reads each turn (rules doc §9 "Per-turn input"): a typed view, the exact text the
//! referee sends, and a parser of that text back into the view.
//!
//! A bot reads its input with [`parse_turn`] and rebuilds a state to search on with
//! [`state_from_view`], whose documentation says what the view hides and what is assumed instead.

use super::actions::Action;
use super::path::Path;
use super::state::*;
use crate::game::{ParseError, PlayerId};
use std::fmt;

/// One player line of the input (§9 item 3): `numPlayerCards x y tile`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerView {
    /// Hidden + revealed quests not yet completed.
    pub num_cards: usize,
    /// Column 0..6, absolute (never mirrored for player 1).
    pub x: usize,
    /// Row 0..6, absolute.
    pub y: usize,
    /// The hand tile's pattern.
    pub tile: Pattern,
}

/// One item line (§9 item 5): `itemName itemX itemY itemPlayerId`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ItemView {
    /// Which item; with `owner` it names a unique [`Item`].
    pub name: ItemName,
    /// Board column, or −1 (on my hand tile) / −2 (on the opponent's).
    pub x: i32,
    /// Board row, or −1 / −2 like `x`.
    pub y: i32,
    /// 0 = mine, 1 = the opponent's.
    pub owner: usize,
}

/// One quest line (§9 item 7): `itemName questPlayerId`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QuestView {
    /// The item the quest asks for (owned by the same player).
    pub name: ItemName,
    /// 0 = mine, 1 = the opponent's.
    pub owner: usize,
}

/// Everything one player reads in one game turn (§9), ids relative to him (0 = me).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// The first input line: `0` = PUSH turn, `1` = MOVE turn.
    pub turn_type: TurnType,
    /// `tiles[y][x]`, row by row, as the input lists them.
    pub tiles: [[Pattern; SIZE]; SIZE],
    /// Me, then the opponent.
    pub players: [PlayerView; 2],
    /// In the order of the referee's item list.
    pub items: Vec<ItemView>,
    /// My revealed quests, then the opponent's.
    pub quests: Vec<QuestView>,
}

/// §9: the view of player `p` (coordinates never mirrored; ids and hand markers relative to `p`).
pub fn view(state: &State, p: PlayerId) -> View {
    let relative = |owner: PlayerId| usize::from(owner != p);
    let mut tiles = [[Pattern { open: [false; 4] }; SIZE]; SIZE];
    for (y, row) in tiles.iter_mut().enumerate() {
        for (x, cell) in row.iter_mut().enumerate() {
            *cell = state.tiles[x][y].pattern;
        }
    }
    let player_view = |q: PlayerId| {
        let player = &state.players[q];
        PlayerView {
            num_cards: player.deck.len() + player.quests.len(),
            x: player.x,
            y: player.y,
            tile: player.hand.pattern,
        }
    };
    let items = state
        .items
        .iter()
        .map(|item| {
            let (x, y) = match state.find_item(*item) {
                Some(ItemPlace::Board(x, y)) => (x as i32, y as i32),
                Some(ItemPlace::Hand(h)) if h == p => (-1, -1),
                // On the opponent's hand (an item missing everywhere cannot happen: §2).
                _ => (-2, -2),
            };
            ItemView { name: item.name, x, y, owner: relative(item.owner) }
        })
        .collect();
    let mut quests = Vec::new();
    for q in [p, 1 - p] {
        for name in &state.players[q].quests {
            quests.push(QuestView { name: *name, owner: relative(q) });
        }
    }
    View {
        turn_type: state.turn_type,
        tiles,
        players: [player_view(p), player_view(1 - p)],
        items,
        quests,
    }
}

/// §9: the exact text the referee sends player `p` (lines joined by `\n`, no final newline).
pub fn render_view(state: &State, p: PlayerId) -> String {
    view(state, p).to_string()
}

impl fmt::Display for View {
    /// The input lines of §9, joined by `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let turn = match self.turn_type {
            TurnType::Push => 0,
            TurnType::Move => 1,
        };
        write!(f, "{turn}")?;
        for row in &self.tiles {
            let cells: Vec<String> = row.iter().map(Pattern::to_string).collect();
            write!(f, "\n{}", cells.join(" "))?;
        }
        for pl in &self.players {
            write!(f, "\n{} {} {} {}", pl.num_cards, pl.x, pl.y, pl.tile)?;
        }
        write!(f, "\n{}", self.items.len())?;
        for item in &self.items {
            write!(f, "\n{} {} {} {}", item.name, item.x, item.y, item.owner)?;
        }
        write!(f, "\n{}", self.quests.len())?;
        for quest in &self.quests {
            write!(f, "\n{} {}", quest.name, quest.owner)?;
        }
        Ok(())
    }
}

/// Reads the lines of one turn's input, remembering where it is for error messages.
struct Lines<'a> {
    lines: Vec<&'a str>,
    next: usize,
}

impl<'a> Lines<'a> {
    /// The next line split on single spaces, checking the number of fields.
    fn fields(&mut self, count: usize, what: &str) -> Result<(usize, Vec<&'a str>), ParseError> {
        let number = self.next + 1;
        let Some(line) = self.lines.get(self.next) else {
            return Err(ParseError {
                line: number,
                column: 1,
                expected: what.into(),
                found: String::new(),
            });
        };
        self.next += 1;
        let fields: Vec<&str> = line.split(' ').collect();
        if fields.len() != count {
            return Err(ParseError {
                line: number,
                column: 1,
                expected: format!("{what} ({count} fields)"),
                found: line.to_string(),
            });
        }
        Ok((number, fields))
    }
}

/// The 1-based column where field `index` of `fields` starts.
fn column(fields: &[&str], index: usize) -> usize {
    1 + fields[..index].iter().map(|f| f.chars().count() + 1).sum::<usize>()
}

fn bad(line: usize, fields: &[&str], index: usize, expected: &str) -> ParseError {
    ParseError {
        line,
        column: column(fields, index),
        expected: expected.into(),
        found: fields[index].to_string(),
    }
}

fn number<T: std::str::FromStr>(
    line: usize,
    fields: &[&str],
    index: usize,
    expected: &str,
) -> Result<T, ParseError> {
    let text = fields[index];
    // Only plain decimal numbers, as Java prints them (no '+').
    if text.is_empty() || text.starts_with('+') {
        return Err(bad(line, fields, index, expected));
    }
    text.parse().map_err(|_| bad(line, fields, index, expected))
}

fn coordinate(line: usize, fields: &[&str], index: usize) -> Result<usize, ParseError> {
    let v: usize = number(line, fields, index, "a coordinate 0..6")?;
    if v < SIZE {
        Ok(v)
    } else {
        Err(bad(line, fields, index, "a coordinate 0..6"))
    }
}

fn pattern(line: usize, fields: &[&str], index: usize) -> Result<Pattern, ParseError> {
    Pattern::parse(fields[index]).ok_or_else(|| bad(line, fields, index, "a tile such as 0110"))
}

fn item_name(line: usize, fields: &[&str], index: usize) -> Result<ItemName, ParseError> {
    ItemName::from_name(fields[index]).ok_or_else(|| bad(line, fields, index, "an item name"))
}

fn owner(line: usize, fields: &[&str], index: usize) -> Result<usize, ParseError> {
    match fields[index] {
        "0" => Ok(0),
        "1" => Ok(1),
        _ => Err(bad(line, fields, index, "0 or 1")),
    }
}

/// One `numPlayerCards x y tile` line (§9 item 3).
fn read_player(lines: &mut Lines<'_>) -> Result<PlayerView, ParseError> {
    let (n, f) = lines.fields(4, "numPlayerCards x y tile")?;
    Ok(PlayerView {
        num_cards: number(n, &f, 0, "a card count")?,
        x: coordinate(n, &f, 1)?,
        y: coordinate(n, &f, 2)?,
        tile: pattern(n, &f, 3)?,
    })
}

/// Parses one turn's input (§9) — the call a bot makes each turn. Strict: the exact format
/// the referee prints (single spaces, no extra lines).
pub fn parse_turn(text: &str) -> Result<View, ParseError> {
    let mut lines = Lines { lines: text.split('\n').collect(), next: 0 };
    let (n, f) = lines.fields(1, "the turn type 0 or 1")?;
    let turn_type = match f[0] {
        "0" => TurnType::Push,
        "1" => TurnType::Move,
        _ => return Err(bad(n, &f, 0, "the turn type 0 or 1")),
    };
    let mut tiles = [[Pattern { open: [false; 4] }; SIZE]; SIZE];
    for row in tiles.iter_mut() {
        let (n, f) = lines.fields(SIZE, "a row of 7 tiles")?;
        for (x, cell) in row.iter_mut().enumerate() {
            *cell = pattern(n, &f, x)?;
        }
    }
    let me = read_player(&mut lines)?;
    let opponent = read_player(&mut lines)?;
    let (n, f) = lines.fields(1, "numItems")?;
    let count: usize = number(n, &f, 0, "an item count")?;
    let mut items = Vec::new();
    for _ in 0..count {
        let (n, f) = lines.fields(4, "itemName itemX itemY itemPlayerId")?;
        let name = item_name(n, &f, 0)?;
        let x: i32 = number(n, &f, 1, "a coordinate, -1 or -2")?;
        let y: i32 = number(n, &f, 2, "a coordinate, -1 or -2")?;
        let on_board = (0..SIZE as i32).contains(&x) && (0..SIZE as i32).contains(&y);
        if !(on_board || (x == -1 && y == -1) || (x == -2 && y == -2)) {
            return Err(bad(n, &f, 1, "a board cell, -1 -1 or -2 -2"));
        }
        items.push(ItemView { name, x, y, owner: owner(n, &f, 3)? });
    }
    let (n, f) = lines.fields(1, "numQuests")?;
    let count: usize = number(n, &f, 0, "a quest count")?;
    let mut quests = Vec::new();
    for _ in 0..count {
        let (n, f) = lines.fields(2, "questItemName questPlayerId")?;
        quests.push(QuestView { name: item_name(n, &f, 0)?, owner: owner(n, &f, 1)? });
    }
    if lines.next < lines.lines.len() {
        return Err(ParseError {
            line: lines.next + 1,
            column: 1,
            expected: "end of input".into(),
            found: lines.lines[lines.next].to_string(),
        });
    }
    Ok(View { turn_type, tiles, players: [me, opponent], items, quests })
}

/// What a bot knows besides the current view (§9 hides the deck order and the turn number, and
/// the stale-push counter is only seen through its effect): the league constants, the turn's
/// `turnsLeft` (a bot counts the inputs it has read: the `t`-th input has `150 − t`), the
/// stale-push count, and, for each player **by absolute index**, a deck order for his unseen
/// quests (a stack: the last card is revealed first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewContext {
    /// The league the game is played in (§10): fixes `N`, `V` and hence the scores.
    pub league: League,
    /// `gameTurnsLeft` already decremented for the turn being read: 149 at the first input.
    pub turns_left: i32,
    /// Consecutive same-line push conflicts so far (§7.1), 0..9 while the game goes on.
    pub stale: u32,
    /// `decks[p]`: a guessed (or known) order of absolute player `p`'s hidden cards, top last;
    /// it should hold the names [`unseen_quests`] gives for `p`.
    pub decks: [Vec<ItemName>; 2],
}

/// The names of the quests that the view's player `relative` (0 = the reader, 1 = the
/// opponent) has not revealed yet: his items still in the game (§2: an item leaves the game
/// when its quest is completed) whose name is not among his revealed quests, in item-list
/// order. These are exactly his hidden deck's cards (§9 `numPlayerCards` = deck + revealed).
pub fn unseen_quests(view: &View, relative: usize) -> Vec<ItemName> {
    view.items
        .iter()
        .filter(|i| i.owner == relative)
        .filter(|i| !view.quests.iter().any(|q| q.owner == relative && q.name == i.name))
        .map(|i| i.name)
        .collect()
}

/// A referee state that player `me` (absolute index) could be facing after reading `view`,
/// the unknowns taken from `context` (§9: the board, positions, hands, items in list order and
/// revealed quests are exact; the score of a player is `N − numPlayerCards`, `N` the league's
/// quests per player, §10). Ids in the view are relative to `me` and coordinates are never
/// mirrored; an item at `-1 -1` lies on `me`'s hand tile, at `-2 -2` on the opponent's.
pub fn state_from_view(view: &View, me: PlayerId, context: &ViewContext) -> State {
    let me = me.min(1);
    let absolute = |relative: usize| if relative == 0 { me } else { 1 - me };
    let mut tiles = [[Tile::plain(Pattern { open: [false; 4] }); SIZE]; SIZE];
    for (y, row) in view.tiles.iter().enumerate() {
        for (x, pattern) in row.iter().enumerate() {
            tiles[x][y] = Tile::plain(*pattern);
        }
    }
    let n = context.league.quests_per_player() as i64;
    let player = |relative: usize| {
        let pv = &view.players[relative];
        let quests = view.quests.iter().filter(|q| q.owner == relative).map(|q| q.name).collect();
        Player {
            x: pv.x,
            y: pv.y,
            hand: Tile::plain(pv.tile),
            deck: context.decks[absolute(relative)].clone(),
            quests,
            score: n - pv.num_cards as i64,
            active: true,
        }
    };
    let mut players = if me == 0 { [player(0), player(1)] } else { [player(1), player(0)] };
    let mut items = Vec::with_capacity(view.items.len());
    for iv in &view.items {
        let item = Item { name: iv.name, owner: absolute(iv.owner) };
        match (iv.x, iv.y) {
            (-1, -1) => players[me].hand.item = Some(item),
            (-2, -2) => players[1 - me].hand.item = Some(item),
            (x, y) => tiles[x as usize % SIZE][y as usize % SIZE].item = Some(item),
        }
        items.push(item);
    }
    State {
        league: context.league,
        tiles,
        players,
        items,
        stale: context.stale,
        turns_left: context.turns_left,
        turn_type: view.turn_type,
        game_over: false,
        end_reason: None,
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
