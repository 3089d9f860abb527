//! From the referee's text to numbers and back, per game: the feature planes of an observation
//! (built from one player's views only), the fixed discrete action space, the action mask, and the
//! canonical line each action index stands for.
//!
//! Every seat keeps what its player has been told so far (its [`Seat`]); a view is absorbed as it
//! arrives, so hidden information never reaches an observation.

pub mod olymbits;
pub mod photosynthesis;
pub mod wondev_woman;
pub mod xmas_rush;
pub mod zuniq;

/// The games, by trace name, in the order the tools list them.
pub use twinsim_reference::registry::NAMES as GAMES;

pub use twinsim_reference::registry::GameId;

/// What the codecs add to a game: its observation and action spaces and its seats.
pub trait GameCodec {
    /// Shape of one player's observation array.
    fn observation_shape(self) -> &'static [usize];
    /// The number type of the game's observations.
    fn dtype(self) -> Dtype;
    /// The least and greatest value an observation can hold.
    fn observation_bounds(self) -> (i64, i64);
    /// Number of values in one observation.
    fn observation_len(self) -> usize;
    /// Number of players ([`twinsim_reference::registry::GameInfo::players`]).
    fn num_players(self) -> usize;
    /// Size `n` of the game's `Discrete(n)` action space.
    fn num_actions(self) -> usize;
    /// A fresh seat for `player`, who has been told nothing yet.
    fn seat(self, player: usize) -> Seat;
}

impl GameCodec for GameId {
    /// Shape of one player's observation array.
    fn observation_shape(self) -> &'static [usize] {
        match self {
            GameId::XmasRush => &xmas_rush::SHAPE,
            GameId::Photosynthesis => &photosynthesis::SHAPE,
            GameId::Zuniq => &zuniq::SHAPE,
            GameId::Olymbits => &olymbits::SHAPE,
            GameId::WondevWoman => &wondev_woman::SHAPE,
        }
    }

    /// The number type of the game's observations: the smallest integer type that holds every
    /// value they can take, so a batch writes (and a policy reads) as few bytes as it can.
    /// Every feature is a count or a flag: X-mas Rush's largest is 12 quest cards, Zuniq's and
    /// Wondev Woman's are flags (`int8`); Photosynthesis' sun and score stay far below 32,767
    /// (at most 111 sun a day for 24 days; `int16`); an Olymbits score is a product of four
    /// medal tallies and can pass it (`int32`).
    fn dtype(self) -> Dtype {
        match self {
            GameId::XmasRush | GameId::Zuniq | GameId::WondevWoman => Dtype::I8,
            GameId::Photosynthesis => Dtype::I16,
            GameId::Olymbits => Dtype::I32,
        }
    }

    /// The least and greatest value an observation can hold (the observation space's bounds):
    /// X-mas Rush's largest is a player's 12 quest cards, Zuniq's and Wondev Woman's planes are
    /// flags, Photosynthesis' are counts and scores, never negative; Olymbits' registers can be
    /// (archery's cursor), so its bounds are its type's.
    fn observation_bounds(self) -> (i64, i64) {
        match self {
            GameId::XmasRush => (0, 12),
            GameId::Zuniq | GameId::WondevWoman => (0, 1),
            GameId::Photosynthesis => (0, i16::MAX.into()),
            GameId::Olymbits => (i32::MIN.into(), i32::MAX.into()),
        }
    }

    /// Number of values in one observation.
    fn observation_len(self) -> usize {
        self.observation_shape().iter().product()
    }

    /// Number of players (Olymbits three, the others two).
    fn num_players(self) -> usize {
        self.info().players
    }

    /// Size `n` of the game's `Discrete(n)` action space.
    fn num_actions(self) -> usize {
        match self {
            GameId::XmasRush => xmas_rush::NUM_ACTIONS,
            GameId::Photosynthesis => photosynthesis::NUM_ACTIONS,
            GameId::Zuniq => zuniq::NUM_ACTIONS,
            GameId::Olymbits => olymbits::NUM_ACTIONS,
            GameId::WondevWoman => wondev_woman::NUM_ACTIONS,
        }
    }

    /// A fresh seat for `player`, who has been told nothing yet.
    fn seat(self, player: usize) -> Seat {
        match self {
            GameId::XmasRush => Seat::XmasRush(Default::default()),
            GameId::Photosynthesis => Seat::Photosynthesis(Default::default()),
            GameId::Zuniq => Seat::Zuniq(Default::default()),
            GameId::Olymbits => Seat::Olymbits(Box::new(olymbits::Seat::new(player))),
            GameId::WondevWoman => Seat::WondevWoman(Default::default()),
        }
    }
}

/// The number type of a game's observations ([`GameId::dtype`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// `int8`.
    I8,
    /// `int16`.
    I16,
    /// `int32`.
    I32,
}

impl Dtype {
    /// The name numpy gives it.
    pub fn name(self) -> &'static str {
        match self {
            Dtype::I8 => "int8",
            Dtype::I16 => "int16",
            Dtype::I32 => "int32",
        }
    }
}

/// Evaluates `$body` with `$number` standing for the Rust type of `$dtype`, a [`Dtype`]: the
/// one place a game's number type is chosen at run time.
#[macro_export]
macro_rules! with_number {
    ($dtype:expr, $number:ident => $body:expr) => {
        match $dtype {
            $crate::codec::Dtype::I8 => {
                type $number = i8;
                $body
            }
            $crate::codec::Dtype::I16 => {
                type $number = i16;
                $body
            }
            $crate::codec::Dtype::I32 => {
                type $number = i32;
                $body
            }
        }
    };
}
pub use with_number;

/// An observation's number type (`int8`, `int16` or `int32`, see [`GameId::dtype`]).
pub trait Number: Copy + Default + PartialEq + Send + Sync + 'static {
    /// Every value the games write is in range (see [`GameId::dtype`]); one out of range would
    /// saturate rather than wrap.
    fn of(value: i64) -> Self;
    /// The table of [`spread`]: byte `b` as eight numbers, number `i` being bit `i` of `b`.
    fn spread_table() -> &'static [[Self; 8]; 256];
}

macro_rules! number {
    ($t:ty) => {
        impl Number for $t {
            #[inline]
            fn of(value: i64) -> Self {
                value.clamp(<$t>::MIN.into(), <$t>::MAX.into()) as $t
            }
            #[inline]
            fn spread_table() -> &'static [[$t; 8]; 256] {
                static TABLE: [[$t; 8]; 256] = {
                    let mut table = [[0; 8]; 256];
                    let mut b = 0;
                    while b < 256 {
                        let mut i = 0;
                        while i < 8 {
                            table[b][i] = (b >> i & 1) as $t;
                            i += 1;
                        }
                        b += 1;
                    }
                    table
                };
                &TABLE
            }
        }
    };
}
number!(i8);
number!(i16);
number!(i32);

/// Writes bit `i` of `bits` as `out[i]` (0 or 1) for every slot of `out` (at most 64): eight
/// slots per table lookup, no branch per bit (planes and action masks from bit sets).
#[inline]
pub fn spread<T: Number>(bits: u64, out: &mut [T]) {
    let table = T::spread_table();
    let bytes = bits.to_le_bytes();
    let mut chunks = out.chunks_exact_mut(8);
    for (chunk, byte) in (&mut chunks).zip(bytes) {
        chunk.copy_from_slice(&table[usize::from(byte)]);
    }
    // A board of 49 or 37 cells ends in a partial byte: element by element, no call to memcpy.
    let done = out.len() / 8;
    if let Some(byte) = bytes.get(done) {
        for (slot, value) in out[8 * done..].iter_mut().zip(&table[usize::from(*byte)]) {
            *slot = *value;
        }
    }
}

/// What one player knows, in the shape its game's codec needs.
#[derive(Clone, Debug)]
pub enum Seat {
    /// An X-mas Rush player's seat.
    XmasRush(xmas_rush::Seat),
    /// A Photosynthesis player's seat.
    Photosynthesis(photosynthesis::Seat),
    /// A Zuniq player's seat.
    Zuniq(zuniq::Seat),
    /// An Olymbits player's seat.
    // Boxed: its score table is several times the size of the other seats.
    Olymbits(Box<olymbits::Seat>),
    /// A Wondev Woman player's seat.
    WondevWoman(wondev_woman::Seat),
}

impl Seat {
    /// Takes in a view the referee sent this player.
    pub fn absorb_view(&mut self, view: &str) {
        match self {
            Seat::XmasRush(s) => s.absorb_view(view),
            Seat::Photosynthesis(s) => s.absorb_view(view),
            Seat::Zuniq(s) => s.absorb_view(view),
            Seat::Olymbits(s) => s.absorb_view(view),
            Seat::WondevWoman(s) => s.absorb_view(view),
        }
    }

    /// Takes in the line this player printed (a player knows its own moves; Zuniq's views carry
    /// only the opponent's).
    pub fn absorb_own_line(&mut self, line: &str) {
        if let Seat::Zuniq(s) = self {
            s.absorb_move(line);
        }
    }

    /// Writes the observation (length `observation_len`) into `out`.
    pub fn encode<T: Number>(&self, out: &mut [T]) {
        out.fill(T::default());
        match self {
            Seat::XmasRush(s) => s.encode(out),
            Seat::Photosynthesis(s) => s.encode(out),
            Seat::Zuniq(s) => s.encode(out),
            Seat::Olymbits(s) => s.encode(out),
            Seat::WondevWoman(s) => s.encode(out),
        }
    }

    /// Writes the action mask (length `num_actions`) into `out`: 1 for every index whose
    /// canonical line is in `legal`, the referee's legal lines for this player (all zeros when the
    /// player is not to act).
    pub fn mask(&self, to_act: bool, legal: &[String], out: &mut [i8]) {
        out.fill(0);
        if !to_act {
            return;
        }
        // Where the view itself says what is legal, the mask comes from it: no list of strings
        // is asked of the engine (see `needs_legal_lines`).
        let listed = |indices: &[usize], out: &mut [i8]| indices.iter().for_each(|i| out[*i] = 1);
        match self {
            // A MOVE turn's legal set is every reachable cell (the engine lists a sample of
            // paths); the view holds all that is needed to find them.
            Seat::XmasRush(s) if s.is_move_turn() => s.move_mask(out),
            Seat::Photosynthesis(s) => listed(s.listed(), out),
            // A player with no legal action must still answer, and is eliminated whatever it
            // prints: surrender is its one action.
            Seat::WondevWoman(s) if s.listed().is_empty() => out[wondev_woman::ACCEPT_DEFEAT] = 1,
            Seat::WondevWoman(s) => listed(s.listed(), out),
            // Every action is legal for an Olymbits player asked to act.
            Seat::Olymbits(_) => out.fill(1),
            _ => {
                for line in legal {
                    if let Some(index) = self.index_of(line) {
                        out[index] = 1;
                    }
                }
            }
        }
    }

    /// Whether [`Seat::mask`] reads the engine's legal lines now: not where the view lists
    /// them (Photosynthesis, Wondev Woman), all actions are always legal (Olymbits), or the view
    /// is enough to find them (an X-mas Rush MOVE).
    pub fn needs_legal_lines(&self) -> bool {
        match self {
            Seat::XmasRush(s) => !s.is_move_turn(),
            Seat::Photosynthesis(_) | Seat::Olymbits(_) | Seat::WondevWoman(_) => false,
            Seat::Zuniq(_) => true,
        }
    }

    /// The action index a legal line stands for (`None` for lines outside the discrete space).
    pub fn index_of(&self, line: &str) -> Option<usize> {
        match self {
            Seat::XmasRush(s) => s.index_of(line),
            Seat::Photosynthesis(_) => photosynthesis::index_of(line),
            Seat::Zuniq(_) => zuniq::index_of(line),
            Seat::Olymbits(_) => olymbits::index_of(line),
            Seat::WondevWoman(_) => wondev_woman::index_of(line),
        }
    }

    /// The exact line action `index` stands for now (`Err` when `index` is outside the space).
    pub fn line(&self, index: usize) -> Result<String, String> {
        let n = match self {
            Seat::XmasRush(_) => xmas_rush::NUM_ACTIONS,
            Seat::Photosynthesis(_) => photosynthesis::NUM_ACTIONS,
            Seat::Zuniq(_) => zuniq::NUM_ACTIONS,
            Seat::Olymbits(_) => olymbits::NUM_ACTIONS,
            Seat::WondevWoman(_) => wondev_woman::NUM_ACTIONS,
        };
        if index >= n {
            return Err(format!("action index {index} is outside Discrete({n})"));
        }
        Ok(match self {
            Seat::XmasRush(s) => s.line(index),
            Seat::Photosynthesis(_) => photosynthesis::line(index),
            Seat::Zuniq(_) => zuniq::line(index),
            Seat::Olymbits(_) => olymbits::line(index),
            Seat::WondevWoman(_) => wondev_woman::line(index),
        })
    }
}

/// The indices of a legal list printed from line `at` of a view (its length, then one line per
/// action; lines outside the discrete space are left out).
pub(crate) fn listed(lines: &[&str], at: usize, index_of: fn(&str) -> Option<usize>) -> Vec<usize> {
    let count = lines.get(at).map_or(0, |l| int_at(l, 0).max(0) as usize);
    lines.iter().skip(at + 1).take(count).filter_map(|l| index_of(l)).collect()
}

/// The first `N` integers of `line`, read in one pass (0 where absent or unreadable, as for
/// [`int_at`]).
pub(crate) fn ints<const N: usize>(line: &str) -> [i64; N] {
    let mut out = [0; N];
    for (slot, token) in out.iter_mut().zip(line.split_whitespace()) {
        *slot = token.parse().unwrap_or(0);
    }
    out
}

/// The integer at token `i` of `line` (0 when absent or unreadable: views are the engine's own
/// output, so this only guards against a game variant printing fewer fields).
pub(crate) fn int_at(line: &str, i: usize) -> i64 {
    line.split_whitespace().nth(i).and_then(|t| t.parse().ok()).unwrap_or(0)
}
