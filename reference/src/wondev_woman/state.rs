//! §1 Board, coordinates and state; the action, record and event types of §5, §6, §10, §13.

use std::fmt;

/// A cell coordinate (§1): `x` is the column (grows east), `y` the row (grows south). Off-board
/// points are representable: neighbours are never clipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

impl Point {
    /// A point.
    pub const fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }

    /// §1: Chebyshev distance `max(|dx|, |dy|)`.
    pub fn distance(self, other: Point) -> i32 {
        (self.x - other.x).abs().max((self.y - other.y).abs())
    }

    /// §1: the neighbour in direction `d` (never clipped).
    pub fn neighbour(self, d: Dir) -> Point {
        let (dx, dy) = d.delta();
        Point::new(self.x + dx, self.y + dy)
    }
}

/// The eight directions of §1, in the referee's enum order (`NW, N, NE, W, E, SW, S, SE`), which
/// is the order the legal list is generated in before it is sorted (§9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// (-1, -1)
    NW,
    /// (0, -1)
    N,
    /// (1, -1)
    NE,
    /// (-1, 0)
    W,
    /// (1, 0)
    E,
    /// (-1, 1)
    SW,
    /// (0, 1)
    S,
    /// (1, 1)
    SE,
}

impl Dir {
    /// All directions in the referee's enum order.
    pub const ALL: [Dir; 8] = [Dir::NW, Dir::N, Dir::NE, Dir::W, Dir::E, Dir::SW, Dir::S, Dir::SE];

    /// The upper-case name, as printed in actions and messages.
    pub fn name(self) -> &'static str {
        match self {
            Dir::NW => "NW",
            Dir::N => "N",
            Dir::NE => "NE",
            Dir::W => "W",
            Dir::E => "E",
            Dir::SW => "SW",
            Dir::S => "S",
            Dir::SE => "SE",
        }
    }

    /// The direction named exactly `name` (upper case), if any.
    pub fn from_name(name: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.name() == name)
    }

    /// §1: `(dx, dy)`: a name containing `E` gives x+1, else `W` gives x-1; `S` gives y+1, else
    /// `N` gives y-1.
    pub fn delta(self) -> (i32, i32) {
        let name = self.name();
        let dx = if name.contains('E') {
            1
        } else if name.contains('W') {
            -1
        } else {
            0
        };
        let dy = if name.contains('S') {
            1
        } else if name.contains('N') {
            -1
        } else {
            0
        };
        (dx, dy)
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The league (`GAME_VERSION`, §11). `Bronze` (3) is the top league and the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum League {
    /// Version 0: 1 unit, no push, no fog; win by standing on height 3 at a round boundary.
    Wood3,
    /// Version 1: 1 unit, no push, no fog; points as in the top league.
    Wood2,
    /// Version 2: 2 units, push, no fog.
    Wood1,
    /// Version 3: 2 units, push, fog of war (Bronze to Legend).
    #[default]
    Bronze,
}

impl League {
    /// The league of `GAME_VERSION` `v` (0..=3).
    pub fn from_version(v: i64) -> Option<League> {
        match v {
            0 => Some(League::Wood3),
            1 => Some(League::Wood2),
            2 => Some(League::Wood1),
            3 => Some(League::Bronze),
            _ => None,
        }
    }

    /// `GAME_VERSION`.
    pub fn version(self) -> u8 {
        match self {
            League::Wood3 => 0,
            League::Wood2 => 1,
            League::Wood1 => 2,
            League::Bronze => 3,
        }
    }

    /// §11: units per player (1 below version 2).
    pub fn units_per_player(self) -> usize {
        if self >= League::Wood1 {
            2
        } else {
            1
        }
    }

    /// §11: `PUSH&BUILD` exists from version 2.
    pub fn can_push(self) -> bool {
        self >= League::Wood1
    }

    /// §11: fog of war from version 3.
    pub fn fog(self) -> bool {
        self >= League::Bronze
    }

    /// §11: version 0 is won by standing on height 3 at a round boundary.
    pub fn win_on_max_height(self) -> bool {
        self == League::Wood3
    }
}

/// Setup parameters (§2, §11). `Default` is the top league with a random map.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// The league.
    pub league: League,
    /// `mapIndex`: 0, 1 or 2 forces the map; anything else means "the drawn one".
    pub map_index: i32,
    /// `symmetric` spawns.
    pub symmetric: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params { league: League::Bronze, map_index: -1, symmetric: false }
    }
}

/// §5/§6: the two commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `MOVE&BUILD`.
    Move,
    /// `PUSH&BUILD`.
    Push,
}

impl Kind {
    /// The command word as the referee prints it.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Move => "MOVE&BUILD",
            Kind::Push => "PUSH&BUILD",
        }
    }
}

/// A typed action: one line a bot may print (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `MOVE&BUILD` or `PUSH&BUILD` `<unit> <dir1> <dir2>`.
    Build {
        /// Which command.
        kind: Kind,
        /// The acting unit's index (0 or 1).
        unit: usize,
        /// Move (or push) direction.
        dir1: Dir,
        /// Build (or push-to) direction, measured from the moved-to (or victim's) cell.
        dir2: Dir,
    },
    /// `ACCEPT-DEFEAT` (§4): the player is eliminated.
    AcceptDefeat,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Build { kind, unit, dir1, dir2 } => {
                write!(f, "{} {} {} {}", kind.word(), unit, dir1, dir2)
            }
            Action::AcceptDefeat => f.write_str("ACCEPT-DEFEAT"),
        }
    }
}

/// §13: the reason code of an elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Pattern 1 matched.
    SelfDestruct,
    /// No pattern matched, or index out of range.
    InvalidInput,
    /// Push word not exactly `PUSH&BUILD` (or no push in this league).
    InvalidCommand,
    /// §5.1
    BadCoords,
    /// §5.2
    InvalidMove,
    /// §5.3
    MoveTooHigh,
    /// §5.4
    MoveOnUnit,
    /// §5.5
    InvalidPlace,
    /// §5.6
    PlaceTooHigh,
    /// §5.7
    PlaceOnUnit,
    /// §6.1, §6.4
    PushInvalid,
    /// §6.2
    PushVoid,
    /// §6.3
    FriendlyFire,
    /// §6.5
    PushOnUnit,
    /// No answer in time (§8).
    Timeout,
}

impl Reason {
    /// The code as the traces spell it.
    pub fn code(self) -> &'static str {
        match self {
            Reason::SelfDestruct => "selfDestruct",
            Reason::InvalidInput => "InvalidInput",
            Reason::InvalidCommand => "InvalidCommand",
            Reason::BadCoords => "BadCoords",
            Reason::InvalidMove => "InvalidMove",
            Reason::MoveTooHigh => "MoveTooHigh",
            Reason::MoveOnUnit => "MoveOnUnit",
            Reason::InvalidPlace => "InvalidPlace",
            Reason::PlaceTooHigh => "PlaceTooHigh",
            Reason::PlaceOnUnit => "PlaceOnUnit",
            Reason::PushInvalid => "PushInvalid",
            Reason::PushVoid => "PushVoid",
            Reason::FriendlyFire => "FriendlyFire",
            Reason::PushOnUnit => "PushOnUnit",
            Reason::Timeout => "Timeout",
        }
    }
}

/// A failed check: the player is eliminated with this code and message (§13).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Elimination {
    /// Reason code.
    pub reason: Reason,
    /// The referee's message.
    pub message: String,
}

impl Elimination {
    /// The elimination for `reason` with the referee's message for it (§5, §6, §8, §13): the
    /// message's values `a` and `b` are the cell's x and y, the heights from and to, the push's
    /// two directions, the unit and the friendly unit, the expected text and the line read, or
    /// the player (`b` unused) and the height (`b` unused). Both twins build their eliminations
    /// here, so the messages are written once.
    pub fn new(reason: Reason, a: impl fmt::Display, b: impl fmt::Display) -> Elimination {
        let message = match reason {
            Reason::BadCoords | Reason::MoveTooHigh => {
                format!("Cannot move to position ({a},{b}).")
            }
            Reason::InvalidMove => format!("Cannot move from height {a} to {b}."),
            Reason::MoveOnUnit => format!("Trying to move onto an occupied cell at ({a},{b})."),
            Reason::InvalidPlace => format!("Cannot build on position ({a},{b})."),
            Reason::PlaceTooHigh => format!("Cannot build at height {a}."),
            Reason::PlaceOnUnit => format!("Trying to build on a unit at position ({a},{b})."),
            Reason::PushInvalid => format!("Not a valid push: {a} + {b}."),
            Reason::PushVoid => format!("Nobody to push at position ({a}, {b})."),
            Reason::FriendlyFire => format!("Unit {a} is tried to push friendly unit {b}."),
            Reason::PushOnUnit => format!("Trying to push onto another unit: {a} + {b}."),
            Reason::InvalidInput => format!("Invalid input. Expected '{a}' but found '{b}'"),
            Reason::Timeout => format!("${a} has not provided an action in time."),
            Reason::SelfDestruct => format!("${a} accepts defeat!"),
            Reason::InvalidCommand => "InvalidCommand".to_string(),
        };
        Elimination { reason, message }
    }
}

/// §10/§13.1: the action record (`ActionResult`) of a successful command, kept by the acting
/// unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// Move or push.
    pub kind: Kind,
    /// The player who acted.
    pub player: usize,
    /// The acting unit (the pusher for a push).
    pub unit: usize,
    /// The unit that moves: the actor for a move, the victim `[player, unit]` for a push.
    pub moved: (usize, usize),
    /// `moveTarget`: `T` for a move, `D` for a push.
    pub move_target: Point,
    /// `placeTarget`: `B` for a move, `T` for a push.
    pub place_target: Point,
    /// The unit moves (false only for a cancelled push).
    pub move_valid: bool,
    /// The build happens (false for a cancelled build or push).
    pub place_valid: bool,
    /// The move scores a point (move onto height 3).
    pub score_point: bool,
}

/// One entry of a turn's `events` (§13.1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A unit's `MOVE&BUILD` record.
    Move {
        /// Player.
        player: usize,
        /// Unit.
        unit: usize,
        /// `T`.
        to: Point,
        /// `B`.
        build: Point,
        /// The build was cancelled (hidden unit on `B`).
        build_cancelled: bool,
        /// A point was scored.
        scored: bool,
    },
    /// A unit's `PUSH&BUILD` record.
    Push {
        /// Pushing player.
        player: usize,
        /// Pushing unit.
        unit: usize,
        /// The victim, `(player, unit)`.
        pushed: (usize, usize),
        /// `D`.
        push_to: Point,
        /// `T`.
        build: Point,
        /// The whole push was cancelled (hidden unit on `D`).
        cancelled: bool,
    },
    /// A player was eliminated.
    Eliminated {
        /// Player.
        player: usize,
        /// Reason code.
        reason: Reason,
        /// Message.
        message: String,
    },
}

impl Event {
    /// The event built from a unit's record (§13.1).
    pub fn from_record(r: &Record) -> Event {
        match r.kind {
            Kind::Move => Event::Move {
                player: r.player,
                unit: r.unit,
                to: r.move_target,
                build: r.place_target,
                build_cancelled: !r.place_valid,
                scored: r.score_point,
            },
            Kind::Push => Event::Push {
                player: r.player,
                unit: r.unit,
                pushed: r.moved,
                push_to: r.move_target,
                build: r.place_target,
                cancelled: !r.move_valid,
            },
        }
    }
}

/// §8: why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// One player eliminated, the other strictly ahead.
    SurvivorAhead,
    /// Both eliminated.
    BothEliminated,
    /// 200 rounds.
    MaxRounds,
    /// Version 0 only: a unit stood on height 3 at a round boundary.
    HeightReached,
    /// Version 0 only: one player eliminated (the game stops at once).
    PlayerEliminated,
}

impl EndReason {
    /// The trace vocabulary (the version 0 names are this engine's own: no trace has them).
    pub fn code(self) -> &'static str {
        match self {
            EndReason::SurvivorAhead => "survivor_ahead",
            EndReason::BothEliminated => "both_players_eliminated",
            EndReason::MaxRounds => "max_rounds",
            EndReason::HeightReached => "height_reached",
            EndReason::PlayerEliminated => "player_eliminated",
        }
    }
}

/// What the last resolved turn did (for the trace's per-turn fields).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LastTurn {
    /// Who acted.
    pub player: usize,
    /// In which round.
    pub round: u32,
    /// The turn's `events` (§13.1).
    pub events: Vec<Event>,
}

/// The whole referee state (§1), plus the bookkeeping of §3 and §13.1.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// League, map and spawn parameters.
    pub params: Params,
    /// Which map was used: 0 square, 1 diamond, 2 random.
    pub map_index: usize,
    /// Bounding size of the map.
    pub size: usize,
    /// `heights[y][x]`: `None` for a hole, else 0..=4.
    pub heights: Vec<Vec<Option<u8>>>,
    /// `units[player][index]`, true positions.
    pub units: [Vec<Point>; 2],
    /// The referee's `score` field of each player.
    pub scores: [i32; 2],
    /// Eliminated flags.
    pub dead: [bool; 2],
    /// Version 0 only: the player stood on height 3 at a round boundary.
    pub won: [bool; 2],
    /// Round of the next action (at game over: the round reached at the final boundary).
    pub round: u32,
    /// Who acts next (`None` once the game is over).
    pub to_move: Option<usize>,
    /// Whether the game is over.
    pub game_over: bool,
    /// Why it ended.
    pub end_reason: Option<EndReason>,
    /// `records[player][unit]`: the action record of each unit (§13.1).
    pub records: [Vec<Option<Record>>; 2],
    /// The last resolved turn.
    pub last_turn: Option<LastTurn>,
}

impl State {
    /// §1: the height of the cell at `p`, or `None` when `p` is a hole or off the board.
    pub fn height(&self, p: Point) -> Option<u8> {
        if p.x < 0 || p.y < 0 {
            return None;
        }
        let (x, y) = (p.x as usize, p.y as usize);
        self.heights.get(y).and_then(|row| row.get(x)).copied().flatten()
    }

    /// Every existing cell, by row then column.
    pub fn cells(&self) -> Vec<Point> {
        let mut out = vec![];
        for y in 0..self.size {
            for x in 0..self.size {
                let p = Point::new(x as i32, y as i32);
                if self.height(p).is_some() {
                    out.push(p);
                }
            }
        }
        out
    }

    /// §1: the unit standing on `p`, as `(player, index)`, in the referee's unit order (p0u0,
    /// p0u1, p1u0, p1u1).
    pub fn unit_at(&self, p: Point) -> Option<(usize, usize)> {
        for player in 0..2 {
            for (i, u) in self.units[player].iter().enumerate() {
                if *u == p {
                    return Some((player, i));
                }
            }
        }
        None
    }
}
