//! Legal actions from masks, make/undo with incremental hash, perft (twins: `rules::legal_actions`,
//! `rules::apply_action`, `game::typed_perft`).

use super::board::{Rec, State, KEYS, KING, NB, NONE, PUSH_OK, PUSH_TO, SORTED};
use twinsim_reference::wondev_woman::rules::MAX_ROUNDS;
use twinsim_reference::wondev_woman::state::{Action, EndReason, Kind};

/// A compact action: kind, unit, and the two directions as indexes into [`SORTED`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Mv {
    /// 0: MOVE&BUILD, 1: PUSH&BUILD.
    pub push: bool,
    /// Unit index (0 or 1).
    pub unit: u8,
    /// First direction (sorted index).
    pub d1: u8,
    /// Second direction (sorted index).
    pub d2: u8,
}

impl Mv {
    /// The reference action.
    pub fn to_action(self) -> Action {
        Action::Build {
            kind: if self.push { Kind::Push } else { Kind::Move },
            unit: self.unit as usize,
            dir1: SORTED[self.d1 as usize],
            dir2: SORTED[self.d2 as usize],
        }
    }
    /// From a reference action (`None` for `ACCEPT-DEFEAT` or a unit index above 1).
    pub fn from_action(a: &Action) -> Option<Mv> {
        match *a {
            Action::Build { kind, unit, dir1, dir2 } if unit < 2 => Some(Mv {
                push: kind == Kind::Push,
                unit: unit as u8,
                d1: super::board::sorted_index(dir1),
                d2: super::board::sorted_index(dir2),
            }),
            _ => None,
        }
    }
}

/// Upper bound of legal actions: 2 units × (8 × 8 moves + 8 × 3 pushes).
pub const MAX_MOVES: usize = 176;

/// A fixed-capacity action list (no allocation).
#[derive(Clone, Copy)]
pub struct MoveList {
    /// Number of actions.
    pub len: usize,
    /// The actions; the first `len` are valid.
    pub moves: [Mv; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList { len: 0, moves: [Mv::default(); MAX_MOVES] }
    }
}

impl MoveList {
    /// The valid part.
    pub fn as_slice(&self) -> &[Mv] {
        &self.moves[..self.len]
    }
    #[inline]
    fn push(&mut self, m: Mv) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
}

const fn build_dirs9() -> [u8; 512] {
    // Bit of the 3×3 window (row-major, NW = 0 .. SE = 8) of each sorted direction.
    let window: [u32; 8] = [5, 1, 2, 0, 7, 8, 6, 3];
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        let mut d = 0;
        while d < 8 {
            if i & (1 << window[d]) != 0 {
                t[i] |= 1 << d;
            }
            d += 1;
        }
        i += 1;
    }
    t
}

/// `DIRS9[w]`: the sorted directions (bit `d` for [`SORTED`]`[d]`) present in a 3×3 window
/// `w` of a mask, read row by row from the north-west corner.
pub static DIRS9: [u8; 512] = build_dirs9();

/// The sorted directions `d` for which `NB[c][d]` is in `mask` (twin: testing each
/// `NB[c][d]` bit; `mask` must hold only neighbours of `c`).
#[inline(always)]
pub fn dirs_in(mask: u64, c: u8) -> u8 {
    // Cells stop at bit 54, so `mask << 9` cannot overflow; cell `c` lands on bit 9.
    let w = (mask << 9) >> c;
    DIRS9[((w & 7) | ((w >> 5) & 0o70) | ((w >> 10) & 0o700)) as usize]
}

/// §9: the legal actions of `player`, directly in the referee's sorted order: all moves (unit 0
/// then 1, directions in string order) before all pushes (twin: `rules::legal_actions`).
pub fn legal(s: &State, player: usize, out: &mut MoveList) {
    out.len = 0;
    let occ = s.occupied();
    let vis = s.visible_units(player);
    let open = s.cells & s.le[3];
    for i in 0..s.per_player as usize {
        let c = s.units[player * 2 + i];
        if c == NONE {
            continue;
        }
        let reach = open & s.at_most(s.h[c as usize] + 1) & !occ & KING[c as usize];
        if reach == 0 {
            continue;
        }
        let buildable = open & !(occ & vis & !(1u64 << c));
        let mut d1s = dirs_in(reach, c);
        while d1s != 0 {
            let d1 = d1s.trailing_zeros() as u8;
            d1s &= d1s - 1;
            let t = NB[c as usize][d1 as usize];
            let mut d2s = dirs_in(KING[t as usize] & buildable, t);
            while d2s != 0 {
                let d2 = d2s.trailing_zeros() as u8;
                d2s &= d2s - 1;
                out.push(Mv { push: false, unit: i as u8, d1, d2 });
            }
        }
    }
    if !s.league.can_push() {
        return;
    }
    let enemy = s.units_of(1 - player);
    for i in 0..s.per_player as usize {
        let c = s.units[player * 2 + i];
        if c == NONE {
            continue;
        }
        let mut d1s = dirs_in(KING[c as usize] & enemy, c);
        while d1s != 0 {
            let d1 = d1s.trailing_zeros() as u8;
            d1s &= d1s - 1;
            let t = NB[c as usize][d1 as usize];
            let limit = s.at_most(s.h[t as usize] + 1) & open & !(occ & vis);
            let mut d2s = dirs_in(KING[t as usize] & limit, t) & PUSH_OK[d1 as usize];
            while d2s != 0 {
                let d2 = d2s.trailing_zeros() as u8;
                d2s &= d2s - 1;
                out.push(Mv { push: true, unit: i as u8, d1, d2 });
            }
        }
    }
}

/// The number of legal actions of `player`, by popcounts (same count as [`legal`], twin of
/// `rules::legal_actions(..).len()`). The tricks: a unit's build targets are the cells `build`
/// without a visible unit plus its own cell (which it leaves), and its own cell neighbours
/// every cell it reaches, so a unit with reach `R` has `|R| + Σ_{t∈R} |KING[t] ∩ build|`
/// moves; the sum is taken direction by direction over `build` shifted once for both units
/// (the padded 8-wide grid makes the shifts exact: a shifted bit that leaves the 7×7 frame
/// lands on padding, where `build` has nothing). Pushes are counted only next to an enemy.
pub fn count(s: &State, player: usize) -> u32 {
    let player = player & 1;
    let occ = s.occupied();
    let vis = s.visible_units(player);
    let open = s.cells & s.le[3];
    let build = open & !(occ & vis);
    let enemy = if s.league.can_push() { s.umask[1 - player] } else { 0 };
    let mut n = 0;
    // Straight-line per unit (an iterator over the unit slots compiles to a long loop).
    let mut unit = |c: u8| -> u64 {
        if c == NONE {
            return 0;
        }
        let c = c & 63;
        let reach = open & s.at_most(s.h[c as usize] + 1) & !occ & KING[c as usize];
        n += reach.count_ones();
        if KING[c as usize] & enemy != 0 {
            n += push_count(s, c, enemy, build);
        }
        reach
    };
    let r0 = unit(s.units[player * 2]);
    let r1 = if s.per_player > 1 { unit(s.units[player * 2 + 1]) } else { 0 };
    // `build >> k` holds t when t + k is in `build` (neighbour E = +1, S = +8, SE = +9,
    // SW = +7), `build << k` when t - k is. A cell both units reach counts twice: the union
    // once, the (usually empty) overlap once more.
    let sum = |r: u64| {
        (r & (build >> 1)).count_ones()
            + (r & (build << 1)).count_ones()
            + (r & (build >> 8)).count_ones()
            + (r & (build << 8)).count_ones()
            + (r & (build >> 9)).count_ones()
            + (r & (build << 9)).count_ones()
            + (r & (build >> 7)).count_ones()
            + (r & (build << 7)).count_ones()
    };
    n += sum(r0 | r1);
    if r0 & r1 != 0 {
        n += sum(r0 & r1);
    }
    n
}

/// The pushes of the unit on `c` (twin: the PUSH&BUILD part of `rules::legal_actions`):
/// for each enemy next to it, the cells behind within 45° ([`PUSH_TO`]) that are open, not
/// too high and without a visible unit (`free`).
#[inline]
fn push_count(s: &State, c: u8, enemy: u64, free: u64) -> u32 {
    let mut n = 0;
    let mut d1s = dirs_in(KING[c as usize] & enemy, c);
    while d1s != 0 {
        let d1 = d1s.trailing_zeros() as usize;
        d1s &= d1s - 1;
        let t = NB[c as usize][d1] as usize;
        n += (PUSH_TO[c as usize][d1] & s.at_most(s.h[t] + 1) & free).count_ones();
    }
    n
}

/// What [`make`] changed, for [`unmake`].
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    units: [u8; 4],
    umask: [u64; 2],
    scores: [i32; 2],
    dead: [bool; 2],
    won: [bool; 2],
    round: u32,
    to_move: u8,
    game_over: bool,
    end_reason: Option<EndReason>,
    records: [Option<Rec>; 4],
    hash: u64,
    /// The cell raised by the action ([`NONE`]: none).
    pub raised: u8,
}

impl Undo {
    /// Everything a turn may change but the heights, as `s` has it now; `raised` is [`NONE`]
    /// until the turn says which cell it raised.
    #[inline]
    pub fn before(s: &State) -> Undo {
        Undo {
            units: s.units,
            umask: s.umask,
            scores: s.scores,
            dead: s.dead,
            won: s.won,
            round: s.round,
            to_move: s.to_move,
            game_over: s.game_over,
            end_reason: s.end_reason,
            records: s.records,
            hash: s.hash,
            raised: NONE,
        }
    }
}

/// §10 effects of a record: the unit moves, the build, the point; the record is kept by the
/// acting unit. Returns the raised cell ([`NONE`] if none).
#[inline]
pub fn apply_record(s: &mut State, rec: &Rec) -> u8 {
    let player = rec.player as usize;
    s.records[player * 2 + rec.unit as usize] = Some(*rec);
    if rec.move_valid {
        let g = rec.moved as usize;
        let from = s.units[g];
        s.units[g] = rec.move_target;
        s.umask[g / 2] ^= (1u64 << from) | (1u64 << rec.move_target);
        s.hash ^= KEYS.unit[g / 2][from as usize] ^ KEYS.unit[g / 2][rec.move_target as usize];
    }
    let mut raised = NONE;
    if rec.place_valid {
        s.raise(rec.place_target);
        raised = rec.place_target;
    }
    if rec.score {
        let old = s.scores[player];
        s.scores[player] += 1;
        s.hash ^= KEYS.score[player][(old & 511) as usize]
            ^ KEYS.score[player][((old + 1) & 511) as usize];
    }
    raised
}

/// The record of a legal action (the caller guarantees legality, e.g. from [`legal`]).
#[inline]
pub fn record_of(s: &State, player: usize, mv: Mv) -> Rec {
    let g = player * 2 + mv.unit as usize;
    let c = s.units[g];
    let t = NB[c as usize][mv.d1 as usize];
    let b = NB[t as usize][mv.d2 as usize];
    if !mv.push {
        // A unit on B other than the mover is hidden here (the action is legal): build cancelled.
        let other_on_b = s.occupied() & !(1u64 << c) & (1u64 << b) != 0;
        Rec {
            kind: Kind::Move,
            player: player as u8,
            unit: mv.unit,
            moved: g as u8,
            move_target: t,
            place_target: b,
            move_valid: true,
            place_valid: !other_on_b,
            score: s.h[t as usize] == 3,
        }
    } else {
        let victim = s.unit_on(t).unwrap_or(0);
        let valid = s.occupied() & (1u64 << b) == 0;
        Rec {
            kind: Kind::Push,
            player: player as u8,
            unit: mv.unit,
            moved: victim as u8,
            move_target: b,
            place_target: t,
            move_valid: valid,
            place_valid: valid,
            score: false,
        }
    }
}

/// Sets `to_move` keeping the hash.
#[inline]
fn set_to_move(s: &mut State, p: u8) {
    s.hash ^= KEYS.side[s.to_move as usize] ^ KEYS.side[p as usize];
    s.to_move = p;
}

/// Marks `player` eliminated, keeping the hash.
#[inline]
pub fn kill(s: &mut State, player: usize) {
    if !s.dead[player] {
        s.dead[player] = true;
        s.hash ^= KEYS.dead[player];
    }
}

/// §3 turn passing (twin: `rules::pass_turn`).
#[inline]
pub fn pass_turn(s: &mut State, player: usize) {
    if player == 0 && !s.dead[1] {
        set_to_move(s, 1);
        return;
    }
    s.round += 1;
    if s.league.win_on_max_height() {
        for g in 0..4 {
            let u = s.units[g];
            if u != NONE && s.h[u as usize] == 3 {
                s.won[g / 2] = true;
            }
        }
    }
    let reason = end_test(s);
    if let Some(r) = reason {
        finish(s, r);
    } else if s.round >= MAX_ROUNDS {
        finish(s, EndReason::MaxRounds);
    } else if !s.dead[0] {
        s.records = [None; 4];
        set_to_move(s, 0);
    } else {
        set_to_move(s, 1);
    }
}

fn finish(s: &mut State, reason: EndReason) {
    s.game_over = true;
    s.end_reason = Some(reason);
    set_to_move(s, 2);
}

/// §8 end test (twin: `rules::end_test`).
pub fn end_test(s: &State) -> Option<EndReason> {
    let [d0, d1] = s.dead;
    if d0 && d1 {
        return Some(EndReason::BothEliminated);
    }
    if s.league.win_on_max_height() {
        if d0 || d1 {
            return Some(EndReason::PlayerEliminated);
        }
        if s.won[0] || s.won[1] {
            return Some(EndReason::HeightReached);
        }
        return None;
    }
    if (d0 && s.scores[1] > s.scores[0]) || (d1 && s.scores[0] > s.scores[1]) {
        return Some(EndReason::SurvivorAhead);
    }
    None
}

/// Plays legal action `mv` of the player to move (do), returning what [`unmake`] needs
/// (twin: `rules::apply_action`).
#[inline]
pub fn make(s: &mut State, mv: Mv) -> Undo {
    let undo = Undo::before(s);
    let player = s.to_move as usize;
    let rec = record_of(s, player, mv);
    let raised = apply_record(s, &rec);
    pass_turn(s, player);
    Undo { raised, ..undo }
}

/// Takes back the action [`make`] played.
#[inline]
pub fn unmake(s: &mut State, u: &Undo) {
    if u.raised != NONE {
        s.lower(u.raised);
    }
    s.units = u.units;
    s.umask = u.umask;
    s.scores = u.scores;
    s.dead = u.dead;
    s.won = u.won;
    s.round = u.round;
    s.to_move = u.to_move;
    s.game_over = u.game_over;
    s.end_reason = u.end_reason;
    s.records = u.records;
    s.hash = u.hash;
}

/// What [`make_search`] changed, for [`unmake_search`].
#[derive(Clone, Copy, Debug)]
pub struct SearchUndo {
    units: [u8; 4],
    umask: [u64; 2],
    scores: [i32; 2],
    hash: u64,
    round: u32,
    to_move: u8,
    raised: u8,
    dead: [bool; 2],
    won: [bool; 2],
    game_over: bool,
    end_reason: Option<EndReason>,
}

/// The search version of [`make`]: the same position afterwards (units, heights, scores, turn,
/// round, end of game, hash) except the action records, which only feed the viewer's events
/// and never influence play, so they are left stale (also by [`unmake_search`]). The common case
/// (both players alive, not the last round, not Wood 3) is a straight-line update; anything else
/// falls back to [`make`].
#[inline(always)]
pub fn make_search(s: &mut State, mv: Mv) -> SearchUndo {
    let player = s.to_move as usize;
    let mut undo = SearchUndo {
        units: s.units,
        umask: s.umask,
        scores: s.scores,
        hash: s.hash,
        round: s.round,
        to_move: s.to_move,
        raised: NONE,
        dead: s.dead,
        won: s.won,
        game_over: s.game_over,
        end_reason: s.end_reason,
    };
    if s.dead[0] || s.dead[1] || s.league.win_on_max_height() || s.round + 1 >= MAX_ROUNDS {
        undo.raised = make_raised(s, mv);
        return undo;
    }
    let g = player * 2 + mv.unit as usize;
    let c = s.units[g];
    let t = NB[c as usize][mv.d1 as usize];
    let b = NB[t as usize][mv.d2 as usize];
    let occ = s.umask[0] | s.umask[1];
    if !mv.push {
        s.units[g] = t;
        s.umask[player] ^= (1u64 << c) | (1u64 << t);
        s.hash ^= KEYS.unit[player][c as usize] ^ KEYS.unit[player][t as usize];
        if occ & !(1u64 << c) & (1u64 << b) == 0 {
            s.raise(b);
            undo.raised = b;
        }
        if s.h[t as usize] == 3 {
            let old = s.scores[player];
            s.scores[player] += 1;
            s.hash ^= KEYS.score[player][(old & 511) as usize]
                ^ KEYS.score[player][((old + 1) & 511) as usize];
        }
    } else if occ & (1u64 << b) == 0 {
        let q = 1 - player;
        let v = if s.units[q * 2] == t { q * 2 } else { q * 2 + 1 };
        s.units[v] = b;
        s.umask[q] ^= (1u64 << t) | (1u64 << b);
        s.hash ^= KEYS.unit[q][t as usize] ^ KEYS.unit[q][b as usize];
        s.raise(t);
        undo.raised = t;
    }
    let next = if player == 0 {
        1
    } else {
        s.round += 1;
        0
    };
    s.hash ^= KEYS.side[player] ^ KEYS.side[next];
    s.to_move = next as u8;
    undo
}

/// [`make`] returning the raised cell, out of line (the rare case of [`make_search`]).
#[cold]
#[inline(never)]
fn make_raised(s: &mut State, mv: Mv) -> u8 {
    make(s, mv).raised
}

/// Takes back [`make_search`].
#[inline(always)]
pub fn unmake_search(s: &mut State, u: &SearchUndo) {
    if u.raised != NONE {
        s.lower(u.raised);
    }
    s.units = u.units;
    s.umask = u.umask;
    s.scores = u.scores;
    s.hash = u.hash;
    s.round = u.round;
    s.to_move = u.to_move;
    s.dead = u.dead;
    s.won = u.won;
    s.game_over = u.game_over;
    s.end_reason = u.end_reason;
}

/// Perft with every leaf made (twin: `twinsim_reference::game::typed_perft`).
pub fn perft(s: &mut State, depth: u32) -> u64 {
    let mut lists = vec![MoveList::default(); depth as usize];
    perft_with::<false>(s, depth, &mut lists)
}

/// Perft with bulk counting at the last ply (same numbers as [`perft`]).
pub fn perft_bulk(s: &mut State, depth: u32) -> u64 {
    let mut lists = vec![MoveList::default(); depth as usize];
    perft_with::<true>(s, depth, &mut lists)
}

/// One body per counting mode (a runtime flag would put [`count`] inside the loop of the
/// plain perft too, where it costs registers).
fn perft_with<const BULK: bool>(s: &mut State, depth: u32, lists: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if s.game_over {
        return 0;
    }
    if BULK && depth == 1 {
        return count(s, s.to_move as usize) as u64;
    }
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    legal(s, s.to_move as usize, list);
    let mut total = 0;
    for k in 0..list.len {
        let u = make_search(s, list.moves[k]);
        total += perft_with::<BULK>(s, depth - 1, rest);
        unmake_search(s, &u);
    }
    total
}
