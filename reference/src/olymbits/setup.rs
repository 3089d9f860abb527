//! Seeded setup and the random generation of each mini-game's runs (rules doc §3, §4.1–§4.2,
//! §5.1, §6.1, §7.1).

use super::state::*;
use crate::sha1prng::Sha1Prng;
use std::collections::BTreeMap;
use std::fmt;

/// Why a game cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SetupError {
    /// §3.1: `SecureRandom.setSeed(0)` is ignored by the JDK, which then self-seeds from OS
    /// entropy: the referee's game is not reproducible, so it is refused.
    SeedZero,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::SeedZero => write!(
                f,
                "seed 0 is not reproducible: the referee's SHA1PRNG ignores setSeed(0) and \
                 self-seeds from OS entropy (rules doc §3.1)"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// §3.1, §3.4 "Setup": a fresh SHA1PRNG seeded with `seed`, then each mini-game's `reset` in
/// index order. Seed 0 is refused (§3.1): the only `setup::new_game` that can fail, because
/// the referee's generator cannot be seeded with 0 the JDK's way ([`new_game_unchecked`]
/// plays it anyway).
pub fn new_game(seed: i64, params: &Params) -> Result<State, SetupError> {
    if seed == 0 {
        return Err(SetupError::SeedZero);
    }
    Ok(new_game_unchecked(seed, params))
}

/// [`new_game`] without the seed-0 check: seed 0 is played as the stream
/// `SHA-1(0 as 8 little-endian bytes)` gives, which is *not* what the JDK does (§3.1).
pub fn new_game_unchecked(seed: i64, params: &Params) -> State {
    let mut rng = Sha1Prng::new(seed);
    let kinds = params.league.mini_games();
    let mut games = Vec::with_capacity(kinds.len());
    for kind in &kinds {
        let mut run = empty_run(*kind);
        reset_run(&mut run, &mut rng);
        games.push(MiniGame { run, should_reset: false, resetting: false });
    }
    State {
        league: params.league,
        turn: 0,
        active: [true; PLAYER_COUNT],
        medals: std::array::from_fn(|_| vec![[0; 3]; kinds.len()]),
        games,
        rng,
        events: Vec::new(),
        end: None,
    }
}

/// A mini-game as constructed before its first `reset` (skating's order starts at
/// `[UP, DOWN, LEFT, RIGHT]`, §6.1).
pub fn empty_run(kind: MiniGameKind) -> Run {
    match kind {
        MiniGameKind::Hurdles => Run::Hurdles(HurdleRace {
            map: vec![b'.'; TRACK_LENGTH],
            positions: [0; PLAYER_COUNT],
            stun_timers: [0; PLAYER_COUNT],
            dead: [false; PLAYER_COUNT],
            finished: [-1; PLAYER_COUNT],
            rank: 0,
        }),
        MiniGameKind::Archery => Run::Archery(Archery {
            cursors: [(0, 0); PLAYER_COUNT],
            wind: Vec::new(),
            dead: [false; PLAYER_COUNT],
        }),
        MiniGameKind::Skating => Run::Skating(Skating {
            positions: [0; PLAYER_COUNT],
            risk: [0; PLAYER_COUNT],
            dead: [false; PLAYER_COUNT],
            directions: Action::ALL,
            timer: 0,
        }),
        MiniGameKind::Diving => Run::Diving(Diving {
            goal: Vec::new(),
            points: [0; PLAYER_COUNT],
            combo: [0; PLAYER_COUNT],
            dead: [false; PLAYER_COUNT],
        }),
    }
}

/// §3.4: a mini-game's `reset` (the same draws at setup and on a reset turn).
pub fn reset_run(run: &mut Run, rng: &mut Sha1Prng) {
    match run {
        Run::Hurdles(g) => g.reset(rng),
        Run::Archery(g) => g.reset(rng),
        Run::Skating(g) => g.reset(rng),
        Run::Diving(g) => g.reset(rng),
    }
}

/// §4.1: the track made from the draws `start` (`nextInt(5)`), `hurdles` (`nextInt(4)`) and
/// one `nextBoolean()` per hurdle (true: `#....`, false: `#...`), drawn in that order.
/// Cut to 29 cells and closed with a `.`.
pub fn hurdle_track(
    start_draw: i32,
    hurdles_draw: i32,
    mut long_gap: impl FnMut() -> bool,
) -> Vec<u8> {
    let start = 3 + start_draw;
    let hurdles = 3 + hurdles_draw;
    let mut s = String::new();
    for _ in 0..start {
        s.push('.');
    }
    for _ in 0..hurdles {
        s.push_str(if long_gap() { "#...." } else { "#..." });
    }
    while s.len() < TRACK_LENGTH {
        s.push('.');
    }
    let mut map: Vec<u8> = s.into_bytes();
    map.truncate(TRACK_LENGTH - 1);
    map.push(b'.');
    map
}

impl HurdleRace {
    /// §4.1 `reset`: a new track; positions, stuns, finishes cleared (`dead` kept).
    pub fn reset(&mut self, rng: &mut Sha1Prng) {
        let start_draw = rng.next_below(5);
        let hurdles_draw = rng.next_below(4);
        self.map = hurdle_track(start_draw, hurdles_draw, || rng.next_boolean());
        self.positions = [0; PLAYER_COUNT];
        self.stun_timers = [0; PLAYER_COUNT];
        self.finished = [-1; PLAYER_COUNT];
        self.rank = 0;
    }
}

/// §4.2: every track the referee can draw, with its weight out of 1280 equally likely draws
/// (5 starts × 4 counts × 64 boolean patterns), sorted in ASCII order. 251 tracks.
pub fn hurdle_tracks() -> Vec<(String, u32)> {
    let mut weights: BTreeMap<String, u32> = BTreeMap::new();
    for start_draw in 0..5 {
        for hurdles_draw in 0..4 {
            for pattern in 0u32..64 {
                let mut k = 0;
                let map = hurdle_track(start_draw, hurdles_draw, || {
                    let bit = pattern >> k & 1 == 1;
                    k += 1;
                    bit
                });
                let text = String::from_utf8(map).unwrap_or_default();
                *weights.entry(text).or_insert(0) += 1;
            }
        }
    }
    weights.into_iter().collect()
}

/// §5.1: the cumulative wind weights `C[v]`, as the exact IEEE-754 bit patterns the referee's
/// double arithmetic produces.
pub const WIND_CUMULATIVE_BITS: [u64; 10] = [
    0x0000000000000000,
    0x3fd019c2d14ee4a1,
    0x3fe019c2d14ee4a1,
    0x3fe826a439f656f2,
    0x3fea29dc94203386,
    0x3fec2d14ee4a101a,
    0x3fed2eb11b5efe64,
    0x3fee304d4873ecae,
    0x3fef31e97588daf8,
    0x3ff0000000000000,
];

/// §5.1: the wind weights of strengths 0..=9, as the referee lists them.
pub const WIND_WEIGHTS: [f64; 10] = [0.0, 2.0, 2.0, 2.0, 0.5, 0.5, 0.25, 0.25, 0.25, 0.2];

/// §5.1 `windDraw` after the draw: the smallest `v` with `r <= C[v]` (0 if none, unreachable).
pub fn wind_from_double(r: f64) -> u8 {
    for (v, bits) in WIND_CUMULATIVE_BITS.iter().enumerate() {
        if r <= f64::from_bits(*bits) {
            return v as u8;
        }
    }
    0
}

impl Archery {
    /// §5.1 `reset`: one start point for all cursors, then 12..=15 wind draws (`dead` kept).
    pub fn reset(&mut self, rng: &mut Sha1Prng) {
        let x = (5 + rng.next_below(5)) * if rng.next_boolean() { 1 } else { -1 };
        let y = (5 + rng.next_below(5)) * if rng.next_boolean() { 1 } else { -1 };
        self.cursors = [(x, y); PLAYER_COUNT];
        let rounds = 12 + rng.next_below(4);
        self.wind = (0..rounds).map(|_| wind_from_double(rng.next_double())).collect();
    }
}

impl Skating {
    /// §6.1 `reset`: positions and risks to 0 (`dead` kept), the risk order shuffled from its
    /// current permutation, timer 15.
    pub fn reset(&mut self, rng: &mut Sha1Prng) {
        self.positions = [0; PLAYER_COUNT];
        self.risk = [0; PLAYER_COUNT];
        rng.shuffle(&mut self.directions);
        self.timer = 15;
    }
}

impl Diving {
    /// §7.1 `reset`: 12..=15 goal letters, each `"UDLR"[nextInt(4)]`; points and combos to 0
    /// (`dead` kept).
    pub fn reset(&mut self, rng: &mut Sha1Prng) {
        let length = 12 + rng.next_below(4);
        self.goal = (0..length).map(|_| Action::ALL[rng.next_below(4) as usize]).collect();
        self.points = [0; PLAYER_COUNT];
        self.combo = [0; PLAYER_COUNT];
    }
}
