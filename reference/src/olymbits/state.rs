//! The state the referee keeps (rules doc §1–§2), as plain data.

use crate::sha1prng::Sha1Prng;
use std::fmt;

/// Exactly three players (§1).
pub const PLAYER_COUNT: usize = 3;
/// The engine turn counter runs 1..=100 (§1, §8.1).
pub const MAX_TURNS: u32 = 100;
/// Hurdle tracks have 30 cells, 0..=29 (§4.1).
pub const TRACK_LENGTH: usize = 30;
/// The last cell of a hurdle track (`maxX`, §4.3).
pub const FINISH_CELL: i32 = 29;

/// One of the four actions, in the referee's enum order (§1): `UP`=0, `DOWN`=1, `LEFT`=2,
/// `RIGHT`=3. The same action is fed to every mini-game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// `UP`: hurdles jump (2 cells), archery y − wind, diving letter `U`.
    Up,
    /// `DOWN`: hurdles 2 cells, archery y + wind, diving letter `D`.
    Down,
    /// `LEFT`: hurdles 1 cell, archery x − wind, diving letter `L`.
    Left,
    /// `RIGHT`: hurdles 3 cells, archery x + wind, diving letter `R`.
    Right,
}

impl Action {
    /// The four actions in enum order (§1).
    pub const ALL: [Action; 4] = [Action::Up, Action::Down, Action::Left, Action::Right];

    /// The keyword a bot prints (§11.2).
    pub fn keyword(self) -> &'static str {
        match self {
            Action::Up => "UP",
            Action::Down => "DOWN",
            Action::Left => "LEFT",
            Action::Right => "RIGHT",
        }
    }

    /// The one-letter form used by skating's risk order and diving's goal (§1: `U D L R`).
    pub fn letter(self) -> char {
        match self {
            Action::Up => 'U',
            Action::Down => 'D',
            Action::Left => 'L',
            Action::Right => 'R',
        }
    }

    /// The action of a letter `U D L R` (upper case only).
    pub fn from_letter(letter: char) -> Option<Action> {
        match letter {
            'U' => Some(Action::Up),
            'D' => Some(Action::Down),
            'L' => Some(Action::Left),
            'R' => Some(Action::Right),
            _ => None,
        }
    }

    /// The enum ordinal (§1).
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// League (§12): which mini-games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum League {
    /// League 1: one mini-game, hurdles only.
    Wood1,
    /// League 2: four mini-games, all hurdles.
    Wood2,
    /// League 3 and above (the default): hurdles, archery, skating, diving.
    #[default]
    Top,
}

impl League {
    /// The league of `getLeagueLevel()` (§12): 1, 2, or anything ≥ 3. `None` below 1 (the
    /// platform has no such league).
    pub fn from_level(level: i64) -> Option<League> {
        match level {
            1 => Some(League::Wood1),
            2 => Some(League::Wood2),
            l if l >= 3 => Some(League::Top),
            _ => None,
        }
    }

    /// The league level (1, 2 or 3).
    pub fn level(self) -> u8 {
        match self {
            League::Wood1 => 1,
            League::Wood2 => 2,
            League::Top => 3,
        }
    }

    /// The mini-games of this league, in index order (§1, §12).
    pub fn mini_games(self) -> Vec<MiniGameKind> {
        match self {
            League::Wood1 => vec![MiniGameKind::Hurdles],
            League::Wood2 => vec![MiniGameKind::Hurdles; 4],
            League::Top => vec![
                MiniGameKind::Hurdles,
                MiniGameKind::Archery,
                MiniGameKind::Skating,
                MiniGameKind::Diving,
            ],
        }
    }
}

/// Setup parameters: the league (top league by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Params {
    /// Which mini-games are played (§12).
    pub league: League,
}

/// The four kinds of mini-game (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MiniGameKind {
    /// §4 Hurdle Race.
    Hurdles,
    /// §5 Archery.
    Archery,
    /// §6 Roller Speed Skating.
    Skating,
    /// §7 Diving.
    Diving,
}

impl MiniGameKind {
    /// The name in `Game over: <name>` (§11.5).
    pub fn name(self) -> &'static str {
        match self {
            MiniGameKind::Hurdles => "Hurdle Race",
            MiniGameKind::Archery => "Archery",
            MiniGameKind::Skating => "Roller Speed Skating",
            MiniGameKind::Diving => "Diving",
        }
    }

    /// The `type` of the traces' state schema (§15).
    pub fn trace_type(self) -> &'static str {
        match self {
            MiniGameKind::Hurdles => "hurdles",
            MiniGameKind::Archery => "archery",
            MiniGameKind::Skating => "skating",
            MiniGameKind::Diving => "diving",
        }
    }
}

/// §2 / §4: Hurdle Race state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HurdleRace {
    /// The track: 30 bytes, `.` or `#`.
    pub map: Vec<u8>,
    /// Cell of each player, 0..=29.
    pub positions: [i32; PLAYER_COUNT],
    /// Stun timers (2, 1, 0).
    pub stun_timers: [i32; PLAYER_COUNT],
    /// Ticked with no action (§2); never cleared by a reset.
    pub dead: [bool; PLAYER_COUNT],
    /// −1, or the finishing rank.
    pub finished: [i32; PLAYER_COUNT],
    /// Number of finishers so far.
    pub rank: i32,
}

/// §2 / §5: Archery state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Archery {
    /// Cursor `(x, y)` of each player, each in −20..=20.
    pub cursors: [(i32, i32); PLAYER_COUNT],
    /// Remaining wind strengths, current first.
    pub wind: Vec<u8>,
    /// Ticked with no action (§2); never cleared by a reset.
    pub dead: [bool; PLAYER_COUNT],
}

/// §2 / §6: Roller Speed Skating state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Skating {
    /// Total spaces travelled (unbounded).
    pub positions: [i32; PLAYER_COUNT],
    /// Risk 0..=4, or −2/−1 while stunned.
    pub risk: [i32; PLAYER_COUNT],
    /// Ticked with no action (§2); never cleared by a reset.
    pub dead: [bool; PLAYER_COUNT],
    /// The risk order: a permutation of the four actions (index 0 the slow, safe one).
    pub directions: [Action; 4],
    /// Ticks left in the run.
    pub timer: i32,
}

/// §2 / §7: Diving state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diving {
    /// Remaining goal letters, current first.
    pub goal: Vec<Action>,
    /// Points of the run.
    pub points: [i32; PLAYER_COUNT],
    /// Current combo.
    pub combo: [i32; PLAYER_COUNT],
    /// Ticked with no action (§2); never cleared by a reset.
    pub dead: [bool; PLAYER_COUNT],
}

/// The state of one mini-game's current run.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Run {
    /// §4.
    Hurdles(HurdleRace),
    /// §5.
    Archery(Archery),
    /// §6.
    Skating(Skating),
    /// §7.
    Diving(Diving),
}

impl Run {
    /// Which mini-game this is.
    pub fn kind(&self) -> MiniGameKind {
        match self {
            Run::Hurdles(_) => MiniGameKind::Hurdles,
            Run::Archery(_) => MiniGameKind::Archery,
            Run::Skating(_) => MiniGameKind::Skating,
            Run::Diving(_) => MiniGameKind::Diving,
        }
    }

    /// The per-mini-game `dead` flags (§2).
    pub fn dead(&self) -> [bool; PLAYER_COUNT] {
        match self {
            Run::Hurdles(g) => g.dead,
            Run::Archery(g) => g.dead,
            Run::Skating(g) => g.dead,
            Run::Diving(g) => g.dead,
        }
    }
}

/// One mini-game slot: its current run and the two common flags (§2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MiniGame {
    /// The run's own state.
    pub run: Run,
    /// The run ended on the last tick: the next turn is this mini-game's reset turn.
    pub should_reset: bool,
    /// This turn was a reset turn (informational).
    pub resetting: bool,
}

/// Why the game ended (§8.4, §9, §15 `outcome.reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// 100 turns were played with at least two active players.
    TurnLimit,
    /// Fewer than two players were active after a turn (even on turn 100).
    FewerThanTwoActivePlayers,
}

impl EndReason {
    /// The traces' `outcome.reason`.
    pub fn trace_name(self) -> &'static str {
        match self {
            EndReason::TurnLimit => "turn_limit",
            EndReason::FewerThanTwoActivePlayers => "fewer_than_two_active_players",
        }
    }
}

/// Everything the referee keeps (§2), plus the shared generator (§3) and the last turn's
/// summary lines (§11.5).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Which mini-games are played.
    pub league: League,
    /// Resolved turns (0 after setup).
    pub turn: u32,
    /// Still playing (not deactivated).
    pub active: [bool; PLAYER_COUNT],
    /// `medals[player][game][k]`: medals of rank `k` (0 gold, 1 silver, 2 bronze).
    pub medals: [Vec<[u32; 3]>; PLAYER_COUNT],
    /// The mini-games in index order.
    pub games: Vec<MiniGame>,
    /// The one generator every draw comes from (§3).
    pub rng: Sha1Prng,
    /// The game-summary lines of the last resolved turn, then its `Deactivated` entries (§11.5).
    pub events: Vec<String>,
    /// Set once the game is over.
    pub end: Option<EndReason>,
}

impl State {
    /// Number of mini-games (`nbGames`, §10).
    pub fn nb_games(&self) -> usize {
        self.games.len()
    }

    /// Whether the game is over (§8.4).
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// Number of active players.
    pub fn active_count(&self) -> usize {
        self.active.iter().filter(|a| **a).count()
    }
}
