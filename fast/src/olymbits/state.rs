//! The packed state: three players × up to four mini-games in fixed-size, `Copy` arrays
//! (no heap), with conversions from and to the reference state.

// Per-player loops index several parallel arrays by the player index.
#![allow(clippy::needless_range_loop)]

use super::prng::RefereeDice;
use super::tables::{hurdle_tables, mask_of, UNKNOWN_TRACK};
use twinsim_reference::olymbits as r;

/// Action codes: the referee's enum order; `NONE` = no action.
pub const UP: u8 = 0;
/// `DOWN`.
pub const DOWN: u8 = 1;
/// `LEFT`.
pub const LEFT: u8 = 2;
/// `RIGHT`.
pub const RIGHT: u8 = 3;
/// No action (inactive or deactivated this turn).
pub const NONE: u8 = 4;

/// Mini-game kind codes.
pub const HURDLES: u8 = 0;
/// Archery.
pub const ARCHERY: u8 = 1;
/// Skating.
pub const SKATING: u8 = 2;
/// Diving.
pub const DIVING: u8 = 3;

/// Capacity of the wind / goal sequences (runs have at most 15).
pub const SEQ: usize = 16;

/// One mini-game slot. Fields a kind does not use stay 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Slot {
    /// `HURDLES`, `ARCHERY`, `SKATING` or `DIVING`.
    pub kind: u8,
    /// The run ended on the last tick.
    pub should_reset: bool,
    /// This turn was a reset turn.
    pub resetting: bool,
    /// Bit `i`: player `i` is dead in this mini-game.
    pub dead: u8,
    /// Hurdles and skating: positions; diving: points; archery: x.
    pub a: [i16; 3],
    /// Hurdles: stun timers; skating: risk; diving: combo; archery: y.
    pub b: [i8; 3],
    /// Archery: wind digits; diving: goal action codes; current at `head`.
    pub seq: [u8; SEQ],
    /// Index of the current wind / goal entry.
    pub head: u8,
    /// Length of the sequence.
    pub len: u8,
    /// Skating: risk order (action codes).
    pub directions: [u8; 4],
    /// Skating: ticks left.
    pub timer: i8,
    /// Hurdles: bit mask of hurdle cells.
    pub track: u32,
    /// Hurdles: id of the track among the 251 (`UNKNOWN_TRACK` if none).
    pub track_id: u8,
    /// Hurdles: −1 or finishing rank.
    pub finished: [i8; 3],
    /// Hurdles: number of finishers.
    pub rank: i8,
}

/// What the last turn did, to rebuild its events (§11.5) without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TurnLog {
    /// Bit `g`: mini-game `g`'s run ended this turn.
    pub ended: u8,
    /// Medal rank of each player in each ended run.
    pub ranks: [[u8; 3]; 4],
    /// Bit `i`: player `i` was deactivated this turn.
    pub deactivated: u8,
    /// Bit `i`: ... because it timed out (else: an invalid line).
    pub timed_out: u8,
}

/// The fast state, generic over its generator ([`super::dice`]): `State` is the exact one
/// (the referee's SHA1PRNG, bit-exact), `State<SearchDice>` the search one (same rules,
/// different dice).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State<D = RefereeDice> {
    /// The generator: the referee's SHA1PRNG, bit-exact ([`RefereeDice`]), by default.
    pub rng: D,
    /// Which league.
    pub league: r::League,
    /// Resolved turns.
    pub turn: u8,
    /// Bit `i`: player `i` is active.
    pub active: u8,
    /// 0 running, 1 turn limit, 2 fewer than two active players.
    pub end: u8,
    /// Number of mini-games.
    pub nb_games: u8,
    /// `medals[player][game][rank]`.
    pub medals: [[[u8; 3]; 4]; 3],
    /// The mini-games.
    pub games: [Slot; 4],
    /// The last turn, for its events.
    pub log: TurnLog,
}

fn kind_code(kind: r::MiniGameKind) -> u8 {
    match kind {
        r::MiniGameKind::Hurdles => HURDLES,
        r::MiniGameKind::Archery => ARCHERY,
        r::MiniGameKind::Skating => SKATING,
        r::MiniGameKind::Diving => DIVING,
    }
}

fn bits(flags: [bool; 3]) -> u8 {
    (0..3).filter(|&i| flags[i]).fold(0, |m, i| m | 1 << i)
}

fn flags(bits: u8) -> [bool; 3] {
    std::array::from_fn(|i| bits >> i & 1 == 1)
}

fn action(code: u8) -> r::Action {
    r::Action::ALL[(code & 3) as usize]
}

fn code(a: r::Action) -> u8 {
    a.index() as u8
}

fn load_seq(slot: &mut Slot, items: impl Iterator<Item = u8>) {
    for (k, v) in items.take(SEQ).enumerate() {
        slot.seq[k] = v;
        slot.len = k as u8 + 1;
    }
}

/// Converts a reachable reference state (sequences of at most 16 entries, coordinates and
/// counters in their rule ranges; the last turn's events are not carried).
impl From<&r::State> for State {
    fn from(s: &r::State) -> State {
        let mut games = [Slot::default(); 4];
        for (g, game) in s.games.iter().take(4).enumerate() {
            let slot = &mut games[g];
            slot.kind = kind_code(game.run.kind());
            slot.should_reset = game.should_reset;
            slot.resetting = game.resetting;
            slot.dead = bits(game.run.dead());
            match &game.run {
                r::Run::Hurdles(h) => {
                    slot.a = h.positions.map(|p| p as i16);
                    slot.b = h.stun_timers.map(|t| t as i8);
                    slot.track = mask_of(&h.map);
                    slot.track_id =
                        hurdle_tables().index.get(&slot.track).copied().unwrap_or(UNKNOWN_TRACK);
                    slot.finished = h.finished.map(|f| f as i8);
                    slot.rank = h.rank as i8;
                }
                r::Run::Archery(a) => {
                    slot.a = a.cursors.map(|c| c.0 as i16);
                    slot.b = a.cursors.map(|c| c.1 as i8);
                    load_seq(slot, a.wind.iter().copied());
                }
                r::Run::Skating(k) => {
                    slot.a = k.positions.map(|p| p as i16);
                    slot.b = k.risk.map(|x| x as i8);
                    slot.directions = k.directions.map(code);
                    slot.timer = k.timer as i8;
                }
                r::Run::Diving(d) => {
                    slot.a = d.points.map(|p| p as i16);
                    slot.b = d.combo.map(|c| c as i8);
                    load_seq(slot, d.goal.iter().map(|a| code(*a)));
                }
            }
        }
        let mut medals = [[[0u8; 3]; 4]; 3];
        for i in 0..3 {
            for (g, m) in s.medals[i].iter().take(4).enumerate() {
                medals[i][g] = m.map(|v| v.min(255) as u8);
            }
        }
        State {
            rng: RefereeDice::from_reference(&s.rng),
            league: s.league,
            turn: s.turn.min(255) as u8,
            active: bits(s.active),
            end: match s.end {
                None => 0,
                Some(r::EndReason::TurnLimit) => 1,
                Some(r::EndReason::FewerThanTwoActivePlayers) => 2,
            },
            nb_games: s.games.len().min(4) as u8,
            medals,
            games,
            log: TurnLog::default(),
        }
    }
}

impl State {
    /// The same position with the search generator `dice` instead of the exact one (what a
    /// search that cannot know the referee's stream plays on).
    pub fn with_search_dice(&self, dice: super::SearchDice) -> State<super::SearchDice> {
        State {
            rng: dice,
            league: self.league,
            turn: self.turn,
            active: self.active,
            end: self.end,
            nb_games: self.nb_games,
            medals: self.medals,
            games: self.games,
            log: self.log,
        }
    }

    /// The reference state (its `events` are left empty: the fast state keeps a compact
    /// [`TurnLog`] instead; the trace engine rebuilds the texts).
    pub fn to_reference(&self) -> r::State {
        let n = self.nb_games as usize;
        let games = self.games[..n]
            .iter()
            .map(|slot| {
                let dead = flags(slot.dead);
                let run = match slot.kind {
                    HURDLES => r::Run::Hurdles(r::HurdleRace {
                        map: (0..30)
                            .map(|x| if slot.track >> x & 1 == 1 { b'#' } else { b'.' })
                            .collect(),
                        positions: slot.a.map(i32::from),
                        stun_timers: slot.b.map(i32::from),
                        dead,
                        finished: slot.finished.map(i32::from),
                        rank: i32::from(slot.rank),
                    }),
                    ARCHERY => r::Run::Archery(r::Archery {
                        cursors: std::array::from_fn(|i| {
                            (i32::from(slot.a[i]), i32::from(slot.b[i]))
                        }),
                        wind: slot.seq[slot.head as usize..slot.len as usize].to_vec(),
                        dead,
                    }),
                    SKATING => r::Run::Skating(r::Skating {
                        positions: slot.a.map(i32::from),
                        risk: slot.b.map(i32::from),
                        dead,
                        directions: slot.directions.map(action),
                        timer: i32::from(slot.timer),
                    }),
                    _ => r::Run::Diving(r::Diving {
                        goal: slot.seq[slot.head as usize..slot.len as usize]
                            .iter()
                            .map(|c| action(*c))
                            .collect(),
                        points: slot.a.map(i32::from),
                        combo: slot.b.map(i32::from),
                        dead,
                    }),
                };
                r::MiniGame { run, should_reset: slot.should_reset, resetting: slot.resetting }
            })
            .collect();
        r::State {
            league: self.league,
            turn: u32::from(self.turn),
            active: flags(self.active),
            medals: std::array::from_fn(|i| {
                self.medals[i][..n].iter().map(|m| m.map(u32::from)).collect()
            }),
            games,
            rng: self.rng.to_reference(),
            events: Vec::new(),
            end: match self.end {
                0 => None,
                1 => Some(r::EndReason::TurnLimit),
                _ => Some(r::EndReason::FewerThanTwoActivePlayers),
            },
        }
    }
}

impl<D> State<D> {
    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.end != 0
    }

    /// Whether player `i` is active.
    #[inline]
    pub fn is_active(&self, i: usize) -> bool {
        self.active >> i & 1 == 1
    }

    /// Points of player `i` (§8.4).
    pub fn points(&self, i: usize) -> i64 {
        self.medals[i][..self.nb_games as usize]
            .iter()
            .map(|m| 3 * i64::from(m[0]) + i64::from(m[1]))
            .product()
    }
}
