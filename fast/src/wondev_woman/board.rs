//! The fast state: the board as 64-bit masks over an 8-wide padded grid (cell `y * 8 + x`,
//! column 7 and row 7 never hold a cell), heights as cumulative level masks (`le[k]`: height at
//! most k) plus a byte array for direct lookup, units as cell indexes, and an incremental zobrist
//! hash.

use twinsim_reference::wondev_woman::state::{self as r, EndReason, Kind, League, Params, Point};

/// Sentinel cell or unit index: "no cell" (outside the 7×7 frame, a hole, an off-board
/// neighbour) or "no unit". Real cell indexes are `y * 8 + x` ≤ 54.
pub const NONE: u8 = 255;

/// Directions in the order of the referee's sorted legal list (string order): `E, N, NE, NW,
/// S, SE, SW, W`.
pub const SORTED: [r::Dir; 8] =
    [r::Dir::E, r::Dir::N, r::Dir::NE, r::Dir::NW, r::Dir::S, r::Dir::SE, r::Dir::SW, r::Dir::W];

const DX: [i32; 8] = [1, 0, 1, -1, 0, 1, -1, -1];
const DY: [i32; 8] = [0, -1, -1, -1, 1, 1, 1, 0];

/// Index in [`SORTED`] of a reference direction.
pub fn sorted_index(d: r::Dir) -> u8 {
    match d {
        r::Dir::E => 0,
        r::Dir::N => 1,
        r::Dir::NE => 2,
        r::Dir::NW => 3,
        r::Dir::S => 4,
        r::Dir::SE => 5,
        r::Dir::SW => 6,
        r::Dir::W => 7,
    }
}

/// `(dx, dy)` of sorted direction `d` (twin:
/// [`twinsim_reference::wondev_woman::state::Dir::delta`]).
pub const fn delta(d: usize) -> (i32, i32) {
    (DX[d], DY[d])
}

const fn build_nb() -> [[u8; 8]; 64] {
    let mut t = [[NONE; 8]; 64];
    let mut c = 0;
    while c < 64 {
        let (x, y) = ((c % 8) as i32, (c / 8) as i32);
        let mut d = 0;
        while d < 8 {
            let (nx, ny) = (x + DX[d], y + DY[d]);
            if x < 7 && nx >= 0 && nx < 7 && ny >= 0 && ny < 7 && y < 7 {
                t[c][d] = (ny * 8 + nx) as u8;
            }
            d += 1;
        }
        c += 1;
    }
    t
}

/// `NB[c][d]`: the neighbour of cell `c` in sorted direction `d` inside the 7×7 frame, or
/// [`NONE`] (twin: `Point::neighbour` followed by a bounds check).
pub static NB: [[u8; 8]; 64] = build_nb();

const fn build_king() -> [u64; 64] {
    let nb = build_nb();
    let mut t = [0u64; 64];
    let mut c = 0;
    while c < 64 {
        let mut d = 0;
        while d < 8 {
            if nb[c][d] != NONE {
                t[c] |= 1u64 << nb[c][d];
            }
            d += 1;
        }
        c += 1;
    }
    t
}

/// `KING[c]`: the cells at Chebyshev distance exactly 1 from `c` (twin: `Point::distance`).
pub static KING: [u64; 64] = build_king();

const fn build_push_ok() -> [u8; 8] {
    // Names in sorted order; `d2` is valid for `d1` per §6.1.
    let names: [&[u8]; 8] = [b"E", b"N", b"NE", b"NW", b"S", b"SE", b"SW", b"W"];
    let mut t = [0u8; 8];
    let mut a = 0;
    while a < 8 {
        let mut b = 0;
        while b < 8 {
            let (na, nb) = (names[a], names[b]);
            let ok = if na.len() == 2 {
                (nb.len() == 2 && nb[0] == na[0] && nb[1] == na[1])
                    || (nb.len() == 1 && (nb[0] == na[0] || nb[0] == na[1]))
            } else {
                nb[0] == na[0] || (nb.len() == 2 && nb[1] == na[0])
            };
            if ok {
                t[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

/// `PUSH_OK[d1]`: bit `d2` set when a push `d1 d2` is within 45° (twin:
/// `rules::valid_push_direction`).
pub static PUSH_OK: [u8; 8] = build_push_ok();

const fn build_push_to() -> [[u64; 8]; 64] {
    let nb = build_nb();
    let ok = build_push_ok();
    let mut t = [[0u64; 8]; 64];
    let mut c = 0;
    while c < 64 {
        let mut d1 = 0;
        while d1 < 8 {
            let v = nb[c][d1];
            let mut d2 = 0;
            while v != NONE && d2 < 8 {
                if ok[d1] & (1 << d2) != 0 && nb[v as usize][d2] != NONE {
                    t[c][d1] |= 1u64 << nb[v as usize][d2];
                }
                d2 += 1;
            }
            d1 += 1;
        }
        c += 1;
    }
    t
}

/// `PUSH_TO[c][d1]`: the cells a unit next to `c` in direction `d1` can be pushed to by the
/// unit on `c` (`NB[t][d2]` for the `d2` of [`PUSH_OK`]`[d1]`, inside the frame; twin:
/// `rules::valid_push_direction` and `Point::neighbour`).
pub static PUSH_TO: [[u64; 8]; 64] = build_push_to();

/// One splitmix64 step of the generator state `$s`: advance, then mix (a macro, not a
/// `const fn` over `&mut u64`, which needs Rust 1.83: bundles build on Rust 1.70).
macro_rules! splitmix {
    ($s:ident) => {{
        $s = $s.wrapping_add(crate::rng::GOLDEN_GAMMA);
        crate::rng::splitmix64_mix($s)
    }};
}

/// Zobrist keys: one random 64-bit key per (feature, value); [`State::hash`] is the XOR of the
/// keys of the features the state has. Not part of the rules: only searches read it.
pub struct Keys {
    /// `height[cell][h]`: cell index `y * 8 + x`, height 0..4 (4 = dome).
    pub height: [[u64; 5]; 64],
    /// `unit[player][cell]`: the same key for both units of a player, so the hash is symmetric
    /// under swapping a player's two unit ids.
    pub unit: [[u64; 64]; 2],
    /// `side[to_move]` (2: nobody, game over).
    pub side: [u64; 3],
    /// `score[player][score & 511]`: a player acts at most once per round and a game has at
    /// most 200 rounds (§3), so a score stays below 512 and the mask never folds two values.
    pub score: [[u64; 512]; 2],
    /// `dead[player]`: XORed in while the player is eliminated (§8).
    pub dead: [u64; 2],
}

const fn build_keys() -> Keys {
    let mut s = 0x005E_ED0F_3E11_u64;
    let mut k = Keys {
        height: [[0; 5]; 64],
        unit: [[0; 64]; 2],
        side: [0; 3],
        score: [[0; 512]; 2],
        dead: [0; 2],
    };
    let mut c = 0;
    while c < 64 {
        let mut h = 0;
        while h < 5 {
            k.height[c][h] = splitmix!(s);
            h += 1;
        }
        k.unit[0][c] = splitmix!(s);
        k.unit[1][c] = splitmix!(s);
        c += 1;
    }
    let mut i = 0;
    while i < 512 {
        k.score[0][i] = splitmix!(s);
        k.score[1][i] = splitmix!(s);
        i += 1;
    }
    k.side = [splitmix!(s), splitmix!(s), splitmix!(s)];
    k.dead = [splitmix!(s), splitmix!(s)];
    k
}

/// The zobrist keys (fixed, generated at compile time).
pub static KEYS: Keys = build_keys();

/// The cell index of a point, or [`NONE`] outside the 7×7 frame.
pub fn cell(p: Point) -> u8 {
    if (0..7).contains(&p.x) && (0..7).contains(&p.y) {
        (p.y * 8 + p.x) as u8
    } else {
        NONE
    }
}

/// The point `(x, y)` of a cell index `y * 8 + x` (inverse of [`cell`] inside the frame).
pub fn point(c: u8) -> Point {
    Point::new((c % 8) as i32, (c / 8) as i32)
}

/// A unit's action record (twin: [`twinsim_reference::wondev_woman::state::Record`]), cells as
/// indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rec {
    /// `MOVE&BUILD` (§5) or `PUSH&BUILD` (§6).
    pub kind: Kind,
    /// The player who acted, 0 or 1.
    pub player: u8,
    /// The acting unit's index 0 or 1 (the pusher for a push).
    pub unit: u8,
    /// The unit that moves, as a global id `player * 2 + index`: the actor for a move, the
    /// victim on `T` for a push (the event's `pushed`).
    pub moved: u8,
    /// `moveTarget` as a cell index: `T` for a move (event `to`), `D = T + d2` for a push
    /// (event `push_to`).
    pub move_target: u8,
    /// `placeTarget` as a cell index: `B` for a move, `T` for a push (event `build`), also when
    /// the build was cancelled.
    pub place_target: u8,
    /// The unit moved: false only for a cancelled push (§6.5, event `cancelled`).
    pub move_valid: bool,
    /// The build happened: false for a cancelled build (§5.7, event `build_cancelled`) or a
    /// cancelled push.
    pub place_valid: bool,
    /// The move scored a point: `h(T) == 3` before the action (event `scored`).
    pub score: bool,
}

impl Rec {
    /// The reference record: cell indexes become points, `moved` becomes `(player, unit)`.
    pub fn to_reference(&self) -> r::Record {
        r::Record {
            kind: self.kind,
            player: self.player as usize,
            unit: self.unit as usize,
            moved: ((self.moved / 2) as usize, (self.moved % 2) as usize),
            move_target: point(self.move_target),
            place_target: point(self.place_target),
            move_valid: self.move_valid,
            place_valid: self.place_valid,
            score_point: self.score,
        }
    }
    /// From a reference record (points inside the 7×7 frame; others become [`NONE`]).
    pub fn from_reference(x: &r::Record) -> Rec {
        Rec {
            kind: x.kind,
            player: x.player as u8,
            unit: x.unit as u8,
            moved: (x.moved.0 * 2 + x.moved.1) as u8,
            move_target: cell(x.move_target),
            place_target: cell(x.place_target),
            move_valid: x.move_valid,
            place_valid: x.place_valid,
            score: x.score_point,
        }
    }
}

/// The whole game state, `Copy` and allocation-free (twin:
/// [`twinsim_reference::wondev_woman::State`], without its last-turn summary, which the text engine
/// keeps beside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// The cells of the map (§1: a cell exists or is a hole; this never changes), one bit per
    /// cell index `y * 8 + x`. Domes (height 4) are included.
    pub cells: u64,
    /// `le[k]`: the cells of height at most `k` (k = 0..=3; domes are `cells & !le[3]`).
    pub le: [u64; 4],
    /// `umask[player]`: the cells of the player's units (kept in step with `units`).
    pub umask: [u64; 2],
    /// Height of each cell (0 where there is no cell).
    pub h: [u8; 64],
    /// Cell of each unit by global id `player * 2 + index` ([`NONE`]: no such unit).
    pub units: [u8; 4],
    /// Units per player: 1 in versions 0–1 (Wood 3, Wood 2), else 2 (§11).
    pub per_player: u8,
    /// Each player's score: one point per move onto height 3 (§5); kept when eliminated (§8).
    pub scores: [i32; 2],
    /// Eliminated players (§8): no more turns, units stay on the board, score kept.
    pub dead: [bool; 2],
    /// Version 0 (Wood 3) only: the player stood on height 3 at a round boundary (§11).
    pub won: [bool; 2],
    /// Round of the next action, 0..200 (§3); once the game is over, the round reached at the
    /// final boundary (= `rounds_played`).
    pub round: u32,
    /// Player to move; 2 once the game is over.
    pub to_move: u8,
    /// Whether the game is over (decided only at round boundaries, §3, §8).
    pub game_over: bool,
    /// Why it ended, once it has (§13 `outcome.reason`).
    pub end_reason: Option<EndReason>,
    /// Each unit's action record by global id `player * 2 + index` (§13.1): its last successful
    /// command, cleared before player 0 is asked to act. Decides only the trace `events`.
    pub records: [Option<Rec>; 4],
    /// The league, i.e. the referee's `GAME_VERSION` (§11): units, PUSH&BUILD, fog.
    pub league: League,
    /// The `mapIndex` parameter as given.
    pub map_index_param: i32,
    /// The `symmetric` parameter (§2 step 3: mirrored spawns).
    pub symmetric: bool,
    /// The map used (§2 step 2): 0 square, 1 diamond, 2 random.
    pub map_index: u8,
    /// `size` of §1: `1 + max(x, y)` over the cells; 5, 6 or 7. The input's grid is
    /// `size × size`.
    pub size: u8,
    /// Zobrist hash (see [`State::hash_from_scratch`]).
    pub hash: u64,
}

impl State {
    /// Seeded setup (§2; twin: `twinsim_reference::wondev_woman::setup::new_game`, converted):
    /// [`super::setup::new_game`], which draws the same generator calls over bit sets. Random
    /// games and batched environments pay a setup per game, and the reference's random map
    /// (a flood fill over a `BTreeSet` after every added pair) used to be most of their cost.
    pub fn new_game(seed: i64, params: &Params) -> State {
        super::setup::new_game(seed, params)
    }

    /// Mask of the cells holding a unit.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.umask[0] | self.umask[1]
    }

    /// Mask of `player`'s unit cells.
    #[inline]
    pub fn units_of(&self, player: usize) -> u64 {
        self.umask[player]
    }

    /// Domes (height 4, §1): cells nothing can move, be pushed or build onto.
    #[inline]
    pub fn domes(&self) -> u64 {
        self.cells & !self.le[3]
    }

    /// The global id of the unit on cell `c`, in the referee's order (twin: `State::unit_at`).
    #[inline]
    pub fn unit_on(&self, c: u8) -> Option<usize> {
        self.units.iter().position(|&u| u == c && u != NONE)
    }

    /// §7: mask of the unit cells `viewer` can see (own units always; all without fog)
    /// (twin: `rules::visible`).
    #[inline]
    pub fn visible_units(&self, viewer: usize) -> u64 {
        let own = self.units_of(viewer);
        let enemy = self.units_of(1 - viewer);
        if !self.league.fog() {
            return own | enemy;
        }
        // An enemy unit is seen when it is next to an own unit: the own units' neighbours at once.
        let [a, b] = [self.units[viewer * 2], self.units[viewer * 2 + 1]];
        let near =
            KING.get(a as usize).copied().unwrap_or(0) | KING.get(b as usize).copied().unwrap_or(0);
        own | (enemy & near)
    }

    /// Cells of height at most `k` (k ≥ 4: all cells).
    #[inline]
    pub fn at_most(&self, k: u8) -> u64 {
        if k >= 4 {
            self.cells
        } else {
            self.le[k as usize]
        }
    }

    /// Raises cell `c` by one (a build), keeping masks and hash in step.
    #[inline]
    pub fn raise(&mut self, c: u8) {
        let h = self.h[c as usize] as usize;
        self.le[h] &= !(1u64 << c);
        self.h[c as usize] += 1;
        self.hash ^= KEYS.height[c as usize][h] ^ KEYS.height[c as usize][h + 1];
    }

    /// Lowers cell `c` by one (undo of a build).
    #[inline]
    pub fn lower(&mut self, c: u8) {
        let h = self.h[c as usize] as usize;
        self.le[h - 1] |= 1u64 << c;
        self.h[c as usize] -= 1;
        self.hash ^= KEYS.height[c as usize][h] ^ KEYS.height[c as usize][h - 1];
    }

    /// Recomputes `umask` from `units`.
    pub fn refresh_masks(&mut self) {
        self.umask = [0, 0];
        for (g, &u) in self.units.iter().enumerate() {
            if u != NONE {
                self.umask[g / 2] |= 1u64 << u;
            }
        }
    }

    /// The zobrist hash computed from nothing: heights, units (one key per player and cell,
    /// so swapping a player's unit ids keeps the hash), side to move, scores, dead flags.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        let mut m = self.cells;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            hash ^= KEYS.height[c][self.h[c] as usize];
        }
        for (g, &u) in self.units.iter().enumerate() {
            if u != NONE {
                hash ^= KEYS.unit[g / 2][u as usize];
            }
        }
        hash ^= KEYS.side[self.to_move as usize];
        for p in 0..2 {
            hash ^= KEYS.score[p][(self.scores[p] & 511) as usize];
            if self.dead[p] {
                hash ^= KEYS.dead[p];
            }
        }
        hash
    }

    /// The reference state (its `last_turn` is `None`: the fast state does not keep it).
    pub fn to_reference(&self) -> r::State {
        let n = self.size as usize;
        let mut heights = vec![vec![None; n]; n];
        for (y, row) in heights.iter_mut().enumerate() {
            for (x, h) in row.iter_mut().enumerate() {
                let c = y * 8 + x;
                if self.cells & (1u64 << c) != 0 {
                    *h = Some(self.h[c]);
                }
            }
        }
        let units: [Vec<Point>; 2] = [0, 1].map(|p| {
            self.units[p * 2..p * 2 + 2].iter().filter(|&&u| u != NONE).map(|&u| point(u)).collect()
        });
        let records: [Vec<Option<r::Record>>; 2] = [0, 1].map(|p| {
            (0..units[p].len()).map(|i| self.records[p * 2 + i].map(|x| x.to_reference())).collect()
        });
        r::State {
            params: Params {
                league: self.league,
                map_index: self.map_index_param,
                symmetric: self.symmetric,
            },
            map_index: self.map_index as usize,
            size: n,
            heights,
            units,
            scores: self.scores,
            dead: self.dead,
            won: self.won,
            round: self.round,
            to_move: (self.to_move < 2).then_some(self.to_move as usize),
            game_over: self.game_over,
            end_reason: self.end_reason,
            records,
            last_turn: None,
        }
    }
}

impl From<&r::State> for State {
    fn from(s: &r::State) -> State {
        let mut cells = 0u64;
        let mut le = [0u64; 4];
        let mut h = [0u8; 64];
        for (y, row) in s.heights.iter().enumerate().take(7) {
            for (x, v) in row.iter().enumerate().take(7) {
                if let Some(v) = v {
                    let c = y * 8 + x;
                    let v = (*v).min(4);
                    cells |= 1u64 << c;
                    for l in le.iter_mut().skip(v as usize) {
                        *l |= 1u64 << c;
                    }
                    h[c] = v;
                }
            }
        }
        let mut units = [NONE; 4];
        let mut records = [None; 4];
        for p in 0..2 {
            for (i, &u) in s.units[p].iter().enumerate().take(2) {
                units[p * 2 + i] = cell(u);
                records[p * 2 + i] =
                    s.records[p].get(i).copied().flatten().map(|x| Rec::from_reference(&x));
            }
        }
        let mut out = State {
            cells,
            le,
            umask: [0, 0],
            h,
            units,
            per_player: s.units[0].len().clamp(1, 2) as u8,
            scores: s.scores,
            dead: s.dead,
            won: s.won,
            round: s.round,
            to_move: s.to_move.map_or(2, |p| p.min(1) as u8),
            game_over: s.game_over,
            end_reason: s.end_reason,
            records,
            league: s.params.league,
            map_index_param: s.params.map_index,
            symmetric: s.params.symmetric,
            map_index: s.map_index as u8,
            size: s.size.min(7) as u8,
            hash: 0,
        };
        out.refresh_masks();
        out.hash = out.hash_from_scratch();
        out
    }
}
