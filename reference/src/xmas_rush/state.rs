//! The state the referee keeps (rules doc §1 "Board, coordinates, tiles" and §2 "State kept by
//! the referee"), as plain structs.

use crate::game::PlayerId;
use std::fmt;

/// Board width and height (§1): 7×7 tiles.
pub const SIZE: usize = 7;
/// Game turns in a game (§4): 75 PUSH + 75 MOVE.
pub const MAX_TURNS: i32 = 150;
/// Most directions in one MOVE (§5).
pub const MAX_STEPS: usize = 20;
/// Longest output line the referee accepts, in Java `String.length()` units (§5).
pub const MAX_LINE_LENGTH: usize = 124;
/// Same-line push conflicts in a row that end the game (§7.1, §8).
pub const STALE_LIMIT: u32 = 10;

/// A direction (§1). The discriminant is the direction index: UP=0, RIGHT=1, DOWN=2, LEFT=3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Towards row 0, vector (0,−1); index 0, the first character of a pattern string.
    Up = 0,
    /// Towards column 6, vector (+1,0); index 1.
    Right = 1,
    /// Towards row 6, vector (0,+1); index 2.
    Down = 2,
    /// Towards column 0, vector (−1,0); index 3.
    Left = 3,
}

impl Direction {
    /// All four, in index order.
    pub const ALL: [Direction; 4] =
        [Direction::Up, Direction::Right, Direction::Down, Direction::Left];

    /// The direction index of §1.
    pub fn index(self) -> usize {
        self as usize
    }

    /// §1: UP↔DOWN, LEFT↔RIGHT.
    pub fn opposite(self) -> Direction {
        Direction::ALL[(self.index() + 2) % 4]
    }

    /// §1: the direction vector `(dx, dy)`; `y` grows downwards.
    pub fn vector(self) -> (i32, i32) {
        match self {
            Direction::Up => (0, -1),
            Direction::Right => (1, 0),
            Direction::Down => (0, 1),
            Direction::Left => (-1, 0),
        }
    }

    /// The word bots print.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "UP",
            Direction::Right => "RIGHT",
            Direction::Down => "DOWN",
            Direction::Left => "LEFT",
        }
    }

    /// The direction whose word is exactly `word` (case-sensitive).
    pub fn from_name(word: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.name() == word)
    }

    /// LEFT and RIGHT push rows; UP and DOWN push columns (§5, §7.1).
    pub fn is_horizontal(self) -> bool {
        matches!(self, Direction::Left | Direction::Right)
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A tile's paths (§1): `open[i]` is true when the tile has a path towards direction index `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pattern {
    /// Indexed by [`Direction::index`] (UP, RIGHT, DOWN, LEFT): `"0110"` is
    /// `[false, true, true, false]`, a right + down corner. Patterns never change after setup:
    /// pushes move tiles, they do not rotate them (§7.1).
    pub open: [bool; 4],
}

impl Pattern {
    /// Reads a 4-character `0`/`1` string such as `"0110"`.
    pub fn parse(text: &str) -> Option<Pattern> {
        let bytes = text.as_bytes();
        if bytes.len() != 4 {
            return None;
        }
        let mut open = [false; 4];
        for (i, b) in bytes.iter().enumerate() {
            open[i] = match b {
                b'0' => false,
                b'1' => true,
                _ => return None,
            };
        }
        Some(Pattern { open })
    }

    /// A pattern from a string known to be well formed (the constant tables of §3 and §10).
    pub(crate) fn of(text: &str) -> Pattern {
        Pattern::parse(text).unwrap_or(Pattern { open: [false; 4] })
    }

    /// §1 `rot(p, n)`: turns the tile clockwise by 90°·n, i.e. rotates the string right by `n`
    /// characters: `rot(p,n) = p[4-n..4] + p[0..4-n]`.
    pub fn rotated(self, n: usize) -> Pattern {
        let mut open = [false; 4];
        for (i, slot) in open.iter_mut().enumerate() {
            *slot = self.open[(i + 4 - n % 4) % 4];
        }
        Pattern { open }
    }

    /// Whether the tile has a path towards `d`.
    pub fn has(self, d: Direction) -> bool {
        self.open[d.index()]
    }

    /// Number of paths (the `threeWay` item rule of §3 step 8 wants at least 3).
    pub fn openings(self) -> usize {
        self.open.iter().filter(|o| **o).count()
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for o in self.open {
            f.write_str(if o { "1" } else { "0" })?;
        }
        Ok(())
    }
}

/// The twelve item names of §3 step 5, in the referee's list order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemName {
    /// `ARROW`, index 0 of [`ItemName::ALL`].
    Arrow,
    /// `BOOK`, index 1 of [`ItemName::ALL`].
    Book,
    /// `CANE`, index 2 of [`ItemName::ALL`].
    Cane,
    /// `CANDY`, index 3 of [`ItemName::ALL`].
    Candy,
    /// `DIAMOND`, index 4 of [`ItemName::ALL`].
    Diamond,
    /// `FISH`, index 5 of [`ItemName::ALL`].
    Fish,
    /// `MASK`, index 6 of [`ItemName::ALL`].
    Mask,
    /// `KEY`, index 7 of [`ItemName::ALL`].
    Key,
    /// `POTION`, index 8 of [`ItemName::ALL`].
    Potion,
    /// `SCROLL`, index 9 of [`ItemName::ALL`].
    Scroll,
    /// `SHIELD`, index 10 of [`ItemName::ALL`].
    Shield,
    /// `SWORD`, index 11 of [`ItemName::ALL`].
    Sword,
}

impl ItemName {
    /// §3 step 5: `[ARROW, BOOK, CANE, CANDY, DIAMOND, FISH, MASK, KEY, POTION, SCROLL, SHIELD,
    /// SWORD]`, before the shuffle.
    pub const ALL: [ItemName; 12] = [
        ItemName::Arrow,
        ItemName::Book,
        ItemName::Cane,
        ItemName::Candy,
        ItemName::Diamond,
        ItemName::Fish,
        ItemName::Mask,
        ItemName::Key,
        ItemName::Potion,
        ItemName::Scroll,
        ItemName::Shield,
        ItemName::Sword,
    ];

    /// The word in the input and the traces.
    pub fn name(self) -> &'static str {
        match self {
            ItemName::Arrow => "ARROW",
            ItemName::Book => "BOOK",
            ItemName::Cane => "CANE",
            ItemName::Candy => "CANDY",
            ItemName::Diamond => "DIAMOND",
            ItemName::Fish => "FISH",
            ItemName::Mask => "MASK",
            ItemName::Key => "KEY",
            ItemName::Potion => "POTION",
            ItemName::Scroll => "SCROLL",
            ItemName::Shield => "SHIELD",
            ItemName::Sword => "SWORD",
        }
    }

    /// The name whose word is exactly `word`.
    pub fn from_name(word: &str) -> Option<ItemName> {
        ItemName::ALL.into_iter().find(|n| n.name() == word)
    }
}

impl fmt::Display for ItemName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An item (§2): a name and the player who may collect it. Unique in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Item {
    /// Which of the twelve items; each name exists once per player (when `N` = 12).
    pub name: ItemName,
    /// The only player who can collect it (§6): 0 or 1, absolute (not relative to a viewer).
    pub owner: PlayerId,
}

/// A tile (§1): a pattern and at most one item, which travels with the tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    /// The paths of the tile; fixed for the whole game.
    pub pattern: Pattern,
    /// The item on the tile, if any. It can only be collected while the tile is on the board (§6),
    /// never while it is a hand tile.
    pub item: Option<Item>,
}

impl Tile {
    /// A tile without an item.
    pub fn plain(pattern: Pattern) -> Tile {
        Tile { pattern, item: None }
    }
}

/// PUSH or MOVE (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnType {
    /// Only `PUSH <id> <dir>` is accepted (§5); input code `0` (§9). Odd game turns 1, 3, …, 149.
    Push,
    /// `MOVE <dir>…` or `PASS` is accepted (§5); input code `1` (§9). Even game turns 2, …, 150.
    Move,
}

impl TurnType {
    /// The word of the event messages and the traces.
    pub fn name(self) -> &'static str {
        match self {
            TurnType::Push => "PUSH",
            TurnType::Move => "MOVE",
        }
    }

    /// The other one (§4 step 4 alternates them).
    pub fn switched(self) -> TurnType {
        match self {
            TurnType::Push => TurnType::Move,
            TurnType::Move => TurnType::Push,
        }
    }
}

/// League constants (§10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct League {
    /// `leagueLevel` as the platform passes it (≥ 6 is the top league).
    pub level: i64,
}

impl Default for League {
    /// The top league (level 6, Legend).
    fn default() -> Self {
        League { level: 6 }
    }
}

impl League {
    /// §10: `N`, the quests per player.
    pub fn quests_per_player(self) -> usize {
        match self.level {
            l if l >= 3 => 12,
            2 => 6,
            1 => 1,
            _ => 3,
        }
    }

    /// §10: `V`, the most quests revealed at once.
    pub fn max_revealed(self) -> usize {
        if self.level >= 3 {
            3
        } else {
            1
        }
    }

    /// §10: whether items may only lie on tiles with at least three openings.
    pub fn three_way(self) -> bool {
        self.level == 1 || self.level == 2
    }

    /// §10: the league's 24 tile patterns, in the exact order `pool.remove(i)` sees them.
    pub fn tile_pool(self) -> Vec<Pattern> {
        let counts: &[(&str, usize)] = if self.level >= 6 {
            &[("0110", 10), ("1101", 3), ("0111", 2), ("1010", 9)]
        } else if self.level >= 4 {
            &[("0110", 8), ("1101", 3), ("0111", 4), ("1010", 9)]
        } else {
            &[("0110", 8), ("1101", 3), ("0111", 6), ("1010", 6), ("1111", 1)]
        };
        let mut pool = Vec::new();
        for (text, count) in counts {
            for _ in 0..*count {
                pool.push(Pattern::of(text));
            }
        }
        pool
    }
}

/// One player (§2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    /// Column, 0..6.
    pub x: usize,
    /// Row, 0..6.
    pub y: usize,
    /// The hand tile (pattern and possibly an item).
    pub hand: Tile,
    /// Hidden quest cards: a stack, as in the referee; the **last** element is the top, the next
    /// card to be revealed.
    pub deck: Vec<ItemName>,
    /// Revealed quest cards, in reveal order.
    pub quests: Vec<ItemName>,
    /// Completed quests; −1 after a forced deactivation (§8).
    pub score: i64,
    /// Cleared when the game ends (§8).
    pub active: bool,
}

/// Why a player failed (§5, §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Failure {
    /// He printed an invalid line (trace reason `invalid_action`).
    InvalidAction,
    /// He gave no answer in time (trace reason `timeout`).
    Timeout,
}

/// How the game ended (§8), in the trace's `reason` vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// `max_turns`: all 150 game turns were played (§4 step 1, event `Max turns reached!`).
    MaxTurns,
    /// `deadlock`: [`STALE_LIMIT`] PUSH turns in a row had a same-line conflict (§4 step 2, §7.1,
    /// event `The game ended in a deadlock!`).
    Deadlock,
    /// `timeout`: a player gave no answer in time. Takes precedence over `invalid_action` when both
    /// players fail in the same turn (§8).
    Timeout,
    /// `invalid_action`: a player printed a line that is malformed or of the wrong type (§5).
    InvalidAction,
    /// `quests_completed`: at a turn start an active player had completed all `N` quests
    /// (§4 step 3).
    QuestsCompleted,
}

impl EndReason {
    /// The trace's `outcome.reason` word.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::MaxTurns => "max_turns",
            EndReason::Deadlock => "deadlock",
            EndReason::Timeout => "timeout",
            EndReason::InvalidAction => "invalid_action",
            EndReason::QuestsCompleted => "quests_completed",
        }
    }
}

/// Everything the referee keeps (§2), between two game turns: the state that the next input
/// describes (start steps 1–5 of §4 done), or a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// League constants (§10): `N`, `V`, the tile pool and the `threeWay` rule.
    pub league: League,
    /// `tiles[x][y]`, column `x`, row `y`.
    pub tiles: [[Tile; SIZE]; SIZE],
    /// Players 0 and 1 (absolute ids; player 0 starts at (0,0), player 1 at (6,6)).
    pub players: [Player; 2],
    /// Every item not yet collected, in the order fixed at setup (§2, §3 step 9).
    pub items: Vec<Item>,
    /// `numStalePushTurns` (§7.1): PUSH turns in a row with a same-line conflict, 0..10;
    /// reaching [`STALE_LIMIT`] ends the game at the next turn start.
    pub stale: u32,
    /// `gameTurnsLeft` (§4), already decremented for the announced turn.
    pub turns_left: i32,
    /// The type of the announced turn (of the last turn played once the game is over).
    pub turn_type: TurnType,
    /// Whether the game is over (then no further turn starts; both players are inactive).
    pub game_over: bool,
    /// Why it ended, once it has (§8).
    pub end_reason: Option<EndReason>,
}

/// Where an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemPlace {
    /// On the board tile at `(x, y)`.
    Board(usize, usize),
    /// On this player's hand tile (absolute id); the input shows it as `-1 -1` to him and
    /// `-2 -2` to the opponent (§9).
    Hand(PlayerId),
}

impl State {
    /// The 1-based number of the announced game turn (the last one played once the game is
    /// over): `150 − turnsLeft` (§12).
    pub fn turn(&self) -> i32 {
        MAX_TURNS - self.turns_left
    }

    /// The tile at `(x, y)`.
    pub fn tile(&self, x: usize, y: usize) -> &Tile {
        &self.tiles[x][y]
    }

    /// Where `item` lies now, if it is still in the game: searched on the board, then in the
    /// hands.
    pub fn find_item(&self, item: Item) -> Option<ItemPlace> {
        for x in 0..SIZE {
            for y in 0..SIZE {
                if self.tiles[x][y].item == Some(item) {
                    return Some(ItemPlace::Board(x, y));
                }
            }
        }
        (0..2).find(|&p| self.players[p].hand.item == Some(item)).map(ItemPlace::Hand)
    }
}
