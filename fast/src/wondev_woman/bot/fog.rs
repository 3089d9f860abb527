//! The fast twin of `twinsim_reference::wondev_woman::bot::fog`: the same set of possible enemy placements,
//! computed on bitboards.
//!
//! Cells are indexed `y * 8 + x` (boards are at most 8 wide), a set of cells is a `u64`. A
//! hypothesis is packed in a `u16` (`enemy unit 0 << 7 | enemy unit 1 << 1 | alive`). Per
//! hypothesis the tracker applies our action on a copy of the 64 heights, then prunes the enemy's
//! actions by the observed height change: when one cell `x` was raised, only a move whose build
//! cell is `x` (the mover ends in `adjacent(x)`) or a push of our unit standing on `x` can explain
//! it; when nothing was built, only a build or push cancelled by one of our units hidden from the
//! enemy (or an eliminated enemy) can. The legal list of a view is a 256-bit set (unit, `d1`, `d2`,
//! kind), compared with the one computed from the hypothesis.
//!
//! It depends only on the reference crate's types (views, actions, points); results are returned
//! as the reference's [`Deduction`], so both twins can be compared directly.

use std::collections::BTreeSet;

use twinsim_reference::wondev_woman::bot::fog::{Deduction, Hypothesis, Placement, Status};
use twinsim_reference::wondev_woman::protocol::View;
use twinsim_reference::wondev_woman::{Action, Dir, Kind, Point};

const NONE: u8 = 255;
const DOME: u8 = 4;

/// `NB[c][d]`: the neighbour of cell `c` in direction `d` (referee order NW, N, NE, W, E, SW, S,
/// SE), or `NONE` off the 8x8 square.
const NB: [[u8; 8]; 64] = {
    let deltas: [(i32, i32); 8] =
        [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
    let mut t = [[NONE; 8]; 64];
    let mut c = 0;
    while c < 64 {
        let (x, y) = ((c % 8) as i32, (c / 8) as i32);
        let mut d = 0;
        while d < 8 {
            let (nx, ny) = (x + deltas[d].0, y + deltas[d].1);
            if nx >= 0 && nx < 8 && ny >= 0 && ny < 8 {
                t[c][d] = (ny * 8 + nx) as u8;
            }
            d += 1;
        }
        c += 1;
    }
    t
};

/// `NEAR[c]`: the cells at Chebyshev distance at most 1 from `c`, `c` included.
const NEAR: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut c = 0;
    while c < 64 {
        let mut m = 1u64 << c;
        let mut d = 0;
        while d < 8 {
            if NB[c][d] != NONE {
                m |= 1u64 << NB[c][d];
            }
            d += 1;
        }
        t[c] = m;
        c += 1;
    }
    t
};

/// `PUSH_OK[d1]`: the `d2` within 45° of `d1` (§6.1), as a bit set over direction indexes.
const PUSH_OK: [u8; 8] = {
    // NW, N, NE, W, E, SW, S, SE = 0..8
    [
        (1 << 0) | (1 << 1) | (1 << 3), // NW: NW, N, W
        (1 << 0) | (1 << 1) | (1 << 2), // N: NW, N, NE
        (1 << 2) | (1 << 1) | (1 << 4), // NE: NE, N, E
        (1 << 0) | (1 << 3) | (1 << 5), // W: NW, W, SW
        (1 << 2) | (1 << 4) | (1 << 7), // E: NE, E, SE
        (1 << 5) | (1 << 6) | (1 << 3), // SW: SW, S, W
        (1 << 5) | (1 << 6) | (1 << 7), // S: SW, S, SE
        (1 << 7) | (1 << 6) | (1 << 4), // SE: SE, S, E
    ]
};

#[inline]
fn bit(c: u8) -> u64 {
    1u64 << c
}

fn dir_index(d: Dir) -> usize {
    Dir::ALL.iter().position(|&e| e == d).unwrap_or(0)
}

fn cell(p: Point) -> Option<u8> {
    ((0..8).contains(&p.x) && (0..8).contains(&p.y)).then(|| (p.y * 8 + p.x) as u8)
}

fn point(c: u8) -> Point {
    Point::new((c % 8) as i32, (c / 8) as i32)
}

/// The heights of a board (0 where there is no cell) and the set of existing cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Grid {
    h: [u8; 64],
    exists: u64,
}

impl Grid {
    fn from_rows(rows: &[Vec<Option<u8>>]) -> Grid {
        let mut g = Grid { h: [0; 64], exists: 0 };
        for (y, row) in rows.iter().enumerate().take(8) {
            for (x, h) in row.iter().enumerate().take(8) {
                if let Some(h) = h {
                    let c = (y * 8 + x) as u8;
                    g.h[c as usize] = *h;
                    g.exists |= bit(c);
                }
            }
        }
        g
    }
    #[inline]
    fn has(&self, c: u8) -> bool {
        c != NONE && self.exists & bit(c) != 0
    }
    /// Cells that exist and are not domes.
    fn standable(&self) -> u64 {
        let mut m = 0;
        let mut e = self.exists;
        while e != 0 {
            let c = e.trailing_zeros() as u8;
            e &= e - 1;
            if self.h[c as usize] < DOME {
                m |= bit(c);
            }
        }
        m
    }
}

/// Our units and the enemy's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Units {
    mine: [u8; 2],
    enemy: [u8; 2],
}

impl Units {
    #[inline]
    fn occupied(&self) -> u64 {
        bit(self.mine[0]) | bit(self.mine[1]) | bit(self.enemy[0]) | bit(self.enemy[1])
    }
    #[inline]
    fn mine_bits(&self) -> u64 {
        bit(self.mine[0]) | bit(self.mine[1])
    }
}

/// The observed height change between the grid before the enemy's turn and the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    Unchanged,
    Raised(u8),
    Impossible,
}

/// A received view, preprocessed.
#[derive(Clone, Debug)]
struct Seen {
    grid: Grid,
    mine: [u8; 2],
    theirs: [Option<u8>; 2],
    /// The legal list as a 256-bit set: `unit * 128 + d1 * 16 + d2 * 2 + (push as usize)`.
    legal: [u64; 4],
    /// The list is a possible referee list (sorted, no duplicates, known units): otherwise no
    /// state renders it.
    legal_ok: bool,
}

fn action_index(a: &Action) -> Option<usize> {
    match *a {
        Action::Build { kind, unit, dir1, dir2 } if unit < 2 => Some(
            unit * 128 + dir_index(dir1) * 16 + dir_index(dir2) * 2 + (kind == Kind::Push) as usize,
        ),
        _ => None,
    }
}

impl Seen {
    fn new(view: &View) -> Option<Seen> {
        if !supported(view) {
            return None;
        }
        let grid = Grid::from_rows(&view.grid);
        let mine = [cell(view.mine[0])?, cell(view.mine[1])?];
        let theirs = [view.theirs[0].and_then(cell), view.theirs[1].and_then(cell)];
        let mut legal_ok = true;
        let mut legal = [0u64; 4];
        let mut prev: Option<String> = None;
        for a in &view.legal {
            let s = a.to_string();
            if prev.as_ref().is_some_and(|p| *p >= s) {
                legal_ok = false;
            }
            prev = Some(s);
            match action_index(a) {
                Some(i) => legal[i / 64] |= 1 << (i % 64),
                None => legal_ok = false,
            }
        }
        Some(Seen { grid, mine, theirs, legal, legal_ok })
    }
}

/// Same as the reference: two units each, a square grid of at most 8 rows, units inside it.
fn supported(view: &View) -> bool {
    let size = view.grid.len();
    let inside = |p: &Point| (0..size as i32).contains(&p.x) && (0..size as i32).contains(&p.y);
    view.mine.len() == 2
        && view.theirs.len() == 2
        && (1..=8).contains(&size)
        && view.grid.iter().all(|row| row.len() == size)
        && view.mine.iter().all(inside)
        && view.theirs.iter().flatten().all(inside)
}

/// §5: a `MOVE&BUILD` of `player`'s unit `unit` (0 = us, 1 = the enemy) on `g`. Returns the new
/// units and the built cell (`None`: build cancelled), or `None` when illegal.
#[inline]
fn do_move(
    g: &Grid,
    u: &Units,
    player: usize,
    unit: usize,
    d1: usize,
    d2: usize,
) -> Option<(Units, Option<u8>)> {
    let own = if player == 0 { u.mine } else { u.enemy };
    let p = own[unit];
    let t = NB[p as usize][d1];
    if !g.has(t) {
        return None;
    }
    let ht = g.h[t as usize];
    if ht > g.h[p as usize] + 1 || ht >= DOME || u.occupied() & bit(t) != 0 {
        return None;
    }
    let b = NB[t as usize][d2];
    if !g.has(b) || g.h[b as usize] >= DOME {
        return None;
    }
    let mut build = Some(b);
    if b != p && u.occupied() & bit(b) != 0 {
        if b == own[1 - unit] {
            return None;
        }
        // An opponent unit: visible to the actor (§7, positions before the move) is illegal.
        let own_bits = bit(own[0]) | bit(own[1]);
        if NEAR[b as usize] & own_bits != 0 {
            return None;
        }
        build = None;
    }
    let mut next = *u;
    if player == 0 {
        next.mine[unit] = t;
    } else {
        next.enemy[unit] = t;
    }
    Some((next, build))
}

/// §6: a `PUSH&BUILD`, as [`do_move`]. A cancelled push changes nothing and builds nothing.
#[inline]
fn do_push(
    g: &Grid,
    u: &Units,
    player: usize,
    unit: usize,
    d1: usize,
    d2: usize,
) -> Option<(Units, Option<u8>)> {
    if PUSH_OK[d1] & (1 << d2) == 0 {
        return None;
    }
    let (own, other) = if player == 0 { (u.mine, u.enemy) } else { (u.enemy, u.mine) };
    let p = own[unit];
    let t = NB[p as usize][d1];
    if t == NONE {
        return None;
    }
    let victim = if other[0] == t {
        0
    } else if other[1] == t {
        1
    } else {
        return None; // nobody, or a friend
    };
    let d = NB[t as usize][d2];
    if !g.has(d) {
        return None;
    }
    let hd = g.h[d as usize];
    if hd >= DOME || hd > g.h[t as usize] + 1 {
        return None;
    }
    if u.occupied() & bit(d) != 0 {
        // Own units are visible; an opponent unit is visible when near one of ours (§7).
        let own_bits = bit(own[0]) | bit(own[1]);
        if (own_bits & bit(d)) != 0 || NEAR[d as usize] & own_bits != 0 {
            return None;
        }
        return Some((*u, None));
    }
    let mut next = *u;
    if player == 0 {
        next.enemy[victim] = d;
    } else {
        next.mine[victim] = d;
    }
    Some((next, Some(t)))
}

/// Our typed action.
fn my_action(g: &Grid, u: &Units, a: &Action) -> Option<(Units, Option<u8>)> {
    match *a {
        Action::Build { kind, unit, dir1, dir2 } if unit < 2 => {
            let (d1, d2) = (dir_index(dir1), dir_index(dir2));
            match kind {
                Kind::Move => do_move(g, u, 0, unit, d1, d2),
                Kind::Push => do_push(g, u, 0, unit, d1, d2),
            }
        }
        _ => None,
    }
}

/// §9: our legal list on `g` with units `u`, as the 256-bit set of [`Seen::legal`].
fn legal_set(g: &Grid, u: &Units) -> [u64; 4] {
    let mut out = [0u64; 4];
    for unit in 0..2 {
        for d1 in 0..8 {
            for d2 in 0..8 {
                let i = unit * 128 + d1 * 16 + d2 * 2;
                if do_move(g, u, 0, unit, d1, d2).is_some() {
                    out[i / 64] |= 1 << (i % 64);
                }
                if do_push(g, u, 0, unit, d1, d2).is_some() {
                    out[i / 64] |= 1 << ((i + 1) % 64);
                }
            }
        }
    }
    out
}

/// §7, §9: the view renders these units (grid compared separately).
#[inline]
fn shows(seen: &Seen, u: &Units) -> bool {
    if u.mine != seen.mine {
        return false;
    }
    let mine = u.mine_bits();
    (0..2).all(|j| {
        let e = u.enemy[j];
        let shown = (NEAR[e as usize] & mine != 0).then_some(e);
        shown == seen.theirs[j]
    })
}

#[inline]
fn key(enemy: [u8; 2], alive: bool) -> u16 {
    ((enemy[0] as u16) << 7) | ((enemy[1] as u16) << 1) | alive as u16
}

#[inline]
fn unkey(k: u16) -> ([u8; 2], bool) {
    ([(k >> 7) as u8, ((k >> 1) & 63) as u8], k & 1 == 1)
}

/// The height change from `before` to the view.
fn change(before: &Grid, seen: &Seen) -> Change {
    if before.exists != seen.grid.exists {
        return Change::Impossible;
    }
    let mut ch = Change::Unchanged;
    for c in 0..64 {
        let (b, a) = (before.h[c], seen.grid.h[c]);
        if a == b {
            continue;
        }
        if a == b + 1 && ch == Change::Unchanged {
            ch = Change::Raised(c as u8);
        } else {
            return Change::Impossible;
        }
    }
    ch
}

/// The enemy's turn from `g` (our action applied), pruned by the observed change; candidate
/// keys go to `out` (legal lists checked later).
fn enemy_turn(g: &Grid, ch: Change, u: &Units, alive: bool, seen: &Seen, out: &mut Vec<u16>) {
    // Cells the enemy's build (move) must aim at, and the victim cells of its push.
    let (want_build, want_victim) = match ch {
        Change::Impossible => return,
        Change::Unchanged => {
            if shows(seen, u) {
                out.push(key(u.enemy, false));
            }
            // Only a cancelled build (on one of our units hidden from the enemy) or a cancelled
            // push (onto one) leave the heights unchanged.
            let hidden = u.mine_bits() & !(NEAR[u.enemy[0] as usize] | NEAR[u.enemy[1] as usize]);
            if hidden == 0 {
                return;
            }
            (hidden, u.mine_bits())
        }
        Change::Raised(x) => (bit(x), bit(x) & u.mine_bits()),
    };
    if !alive {
        return;
    }
    let occ = u.occupied();
    for unit in 0..2 {
        let p = u.enemy[unit];
        for (d1, &t) in NB[p as usize].iter().enumerate() {
            if !g.has(t) {
                continue;
            }
            if NEAR[t as usize] & want_build != 0 && occ & bit(t) == 0 {
                for (d2, &b) in NB[t as usize].iter().enumerate() {
                    if b == NONE || want_build & bit(b) == 0 {
                        continue;
                    }
                    if let Some((next, build)) = do_move(g, u, 1, unit, d1, d2) {
                        let ok = match ch {
                            Change::Raised(x) => build == Some(x),
                            _ => build.is_none(),
                        };
                        if ok && shows(seen, &next) {
                            out.push(key(next.enemy, true));
                        }
                    }
                }
            }
            if want_victim & bit(t) != 0 {
                for d2 in 0..8 {
                    if let Some((next, build)) = do_push(g, u, 1, unit, d1, d2) {
                        let ok = match ch {
                            Change::Raised(x) => build == Some(x),
                            _ => build.is_none(),
                        };
                        if ok && shows(seen, &next) {
                            out.push(key(next.enemy, true));
                        }
                    }
                }
            }
        }
    }
}

/// Sorts, deduplicates and keeps the candidates whose state has the view's legal list.
///
/// Every candidate here already shows the view: same grid, our units, and the same enemy units
/// visible at the same cells. Hidden enemy units cannot change our legal list: a move target `T`
/// is next to our unit, so a unit there is visible (§7); a hidden unit on a build cell `B` or a
/// push destination `D` makes the action legal but cancelled (§5.7, §6.5), exactly as an empty
/// cell makes it legal. So all candidates have the same legal list, and it is computed once.
/// (The reference checks each candidate; the differential tests compare the two.)
fn keep_same_legal_list(mut keys: Vec<u16>, seen: &Seen) -> Vec<u16> {
    keys.sort_unstable();
    keys.dedup();
    let Some(&first) = keys.first() else {
        return keys;
    };
    let (enemy, _) = unkey(first);
    if seen.legal_ok && legal_set(&seen.grid, &Units { mine: seen.mine, enemy }) == seen.legal {
        keys
    } else {
        vec![]
    }
}

/// `twinsim_reference::wondev_woman::bot::fog::from_view`, as keys with the enemy alive.
fn from_view_keys(seen: &Seen) -> Vec<u16> {
    let hidden =
        seen.grid.standable() & !(NEAR[seen.mine[0] as usize] | NEAR[seen.mine[1] as usize]);
    let options = |i: usize| -> u64 {
        match seen.theirs[i] {
            Some(c) => bit(c),
            None => hidden,
        }
    };
    let mut keys = vec![];
    let (o0, o1) = (options(0), options(1));
    let mut m0 = o0;
    while m0 != 0 {
        let a = m0.trailing_zeros() as u8;
        m0 &= m0 - 1;
        let mut m1 = o1 & !bit(a);
        while m1 != 0 {
            let b = m1.trailing_zeros() as u8;
            m1 &= m1 - 1;
            keys.push(key([a, b], true));
        }
    }
    keep_same_legal_list(keys, seen)
}

fn restart_keys(seen: &Seen) -> Vec<u16> {
    let mut out = vec![];
    for k in from_view_keys(seen) {
        out.push(k);
        out.push(k & !1);
    }
    out.sort_unstable();
    out
}

/// The first view of player 1 (see the reference's `after_first_enemy_action`).
fn after_first_enemy_action(seen: &Seen) -> Vec<u16> {
    let initial = Grid { h: [0; 64], exists: seen.grid.exists };
    let mut spawns = vec![seen.mine];
    for i in 0..2 {
        for &from in &NB[seen.mine[i] as usize] {
            if initial.has(from) && from != seen.mine[1 - i] {
                let mut s = seen.mine;
                s[i] = from;
                spawns.push(s);
            }
        }
    }
    let mut keys = vec![];
    let ch = change(&initial, seen);
    for mine in spawns {
        if !initial.has(mine[0]) || !initial.has(mine[1]) {
            continue;
        }
        // Our unit can only have left `from` by a push that built on `from` (§6): any other
        // spawn of ours gives nothing (the reference tries them all and finds nothing).
        if (0..2).any(|i| mine[i] != seen.mine[i] && ch != Change::Raised(mine[i])) {
            continue;
        }
        let free = initial.exists & !(bit(mine[0]) | bit(mine[1]));
        let mut m0 = free;
        while m0 != 0 {
            let a = m0.trailing_zeros() as u8;
            m0 &= m0 - 1;
            let mut m1 = free & !bit(a);
            while m1 != 0 {
                let b = m1.trailing_zeros() as u8;
                m1 &= m1 - 1;
                enemy_turn(&initial, ch, &Units { mine, enemy: [a, b] }, true, seen, &mut keys);
            }
        }
    }
    keep_same_legal_list(keys, seen)
}

/// The bitboard tracker; same API and results as `twinsim_reference::wondev_woman::bot::fog::Tracker`.
#[derive(Clone, Debug)]
pub struct Tracker {
    seat: Option<usize>,
    seen: Option<Seen>,
    keys: Vec<u16>,
    deduction: Deduction,
}

impl Default for Tracker {
    fn default() -> Self {
        Tracker::new()
    }
}

impl Tracker {
    /// A tracker for a bot that does not know its seat.
    pub fn new() -> Tracker {
        Tracker {
            seat: None,
            seen: None,
            keys: vec![],
            deduction: Deduction {
                placements: vec![],
                status: Status::Empty,
                enemy_may_be_alive: false,
                enemy_may_be_dead: false,
            },
        }
    }

    /// A tracker for player `seat` (any other value: unknown).
    pub fn with_seat(seat: usize) -> Tracker {
        Tracker { seat: (seat < 2).then_some(seat), ..Tracker::new() }
    }

    /// The hypotheses, as the reference's type.
    pub fn hypotheses(&self) -> BTreeSet<Hypothesis> {
        self.keys
            .iter()
            .map(|&k| {
                let (e, alive) = unkey(k);
                Hypothesis { enemy: [point(e[0]), point(e[1])], enemy_alive: alive }
            })
            .collect()
    }

    /// The number of hypotheses.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// No hypothesis.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The last result.
    pub fn deduction(&self) -> &Deduction {
        &self.deduction
    }

    /// One turn, as `twinsim_reference::wondev_woman::bot::fog::Tracker::update`.
    pub fn update(&mut self, view: &View, my_last_action: Option<&Action>) -> &Deduction {
        let Some(seen) = Seen::new(view) else {
            self.keys.clear();
            self.seen = None;
            self.deduction = Deduction {
                placements: vec![],
                status: Status::Unsupported,
                enemy_may_be_alive: false,
                enemy_may_be_dead: false,
            };
            return &self.deduction;
        };
        let deduced = match (&self.seen, my_last_action) {
            (None, _) => self.first_view(&seen),
            (Some(prev), Some(action)) => {
                let keys = step(prev, &self.keys, action, &seen);
                (!keys.is_empty()).then_some((keys, Status::Deduced))
            }
            (Some(_), None) => None,
        };
        let (keys, status) = deduced.unwrap_or_else(|| (restart_keys(&seen), Status::Restarted));
        self.keys = keys;
        self.seen = Some(seen);
        let mut placements: Vec<Placement> = self
            .keys
            .iter()
            .map(|&k| {
                let (e, _) = unkey(k);
                [point(e[0]), point(e[1])]
            })
            .collect();
        placements.sort();
        placements.dedup();
        self.deduction = Deduction {
            placements,
            status,
            enemy_may_be_alive: self.keys.iter().any(|k| k & 1 == 1),
            enemy_may_be_dead: self.keys.iter().any(|k| k & 1 == 0),
        };
        &self.deduction
    }

    fn first_view(&self, seen: &Seen) -> Option<(Vec<u16>, Status)> {
        let flat = (0..64).all(|c| seen.grid.h[c] == 0);
        let keys = match (self.seat, flat) {
            (Some(0), true) => from_view_keys(seen),
            (Some(0), false) => vec![],
            (None, true) => restart_keys(seen),
            _ => {
                let keys = after_first_enemy_action(seen);
                return (!keys.is_empty()).then_some((keys, Status::FirstViewAfterEnemy));
            }
        };
        (!keys.is_empty()).then_some((keys, Status::FirstView))
    }
}

/// One turn from the previous view `prev` with hypotheses `keys`.
fn step(prev: &Seen, keys: &[u16], action: &Action, seen: &Seen) -> Vec<u16> {
    let mut out = vec![];
    // The height change seen after our action, by the cell our action built on (64: none).
    let mut changes: [Option<Change>; 65] = [None; 65];
    for &k in keys {
        let (enemy, alive) = unkey(k);
        let u = Units { mine: prev.mine, enemy };
        let Some((next, build)) = my_action(&prev.grid, &u, action) else {
            continue;
        };
        let mut g = prev.grid;
        if let Some(b) = build {
            g.h[b as usize] += 1;
        }
        let ch = *changes[build.unwrap_or(64) as usize].get_or_insert_with(|| change(&g, seen));
        enemy_turn(&g, ch, &next, alive, seen, &mut out);
    }
    keep_same_legal_list(out, seen)
}

/// The fuzz target `fog_diff`'s body: plays a random top-league game chosen by `data` with the
/// reference engine and, for both seats, checks every turn that the reference and the fast
/// trackers agree and that the truth is a hypothesis. Panics on any difference.
#[cfg(any(test, feature = "testing"))]
pub fn fog_diff(data: &[u8]) {
    use twinsim_reference::wondev_woman::{rules, setup, Params};
    let mut bytes = data.iter().copied();
    let mut next = move || bytes.next().unwrap_or(0);
    let seed = i32::from_le_bytes([next(), next(), next(), next()]) as i64;
    let flags = next();
    let params = Params {
        map_index: (flags % 4) as i32 - 1,
        symmetric: flags & 4 != 0,
        ..Params::default()
    };
    let mut state = setup::new_game(seed, &params);
    let seats_known = flags & 8 != 0;
    let make_ref = |p: usize| {
        if seats_known {
            twinsim_reference::wondev_woman::bot::fog::Tracker::with_seat(p)
        } else {
            twinsim_reference::wondev_woman::bot::fog::Tracker::new()
        }
    };
    let make_fast = |p: usize| if seats_known { Tracker::with_seat(p) } else { Tracker::new() };
    let mut refs = [make_ref(0), make_ref(1)];
    let mut fasts = [make_fast(0), make_fast(1)];
    let mut last: [Option<Action>; 2] = [None, None];
    let turns = 6 + (next() % 40) as usize;
    for turn in 0..turns {
        let Some(p) = state.to_move.filter(|_| !state.game_over) else { break };
        let view = twinsim_reference::wondev_woman::protocol::view(&state, p);
        let choice = next();
        // Now and then the bot forgets its action (a restart).
        let told = if choice == 255 { None } else { last[p].as_ref() };
        let r = refs[p].update(&view, told).clone();
        let f = fasts[p].update(&view, told);
        assert_eq!(&r, f, "turn {turn} player {p}");
        assert_eq!(refs[p].hypotheses(), &fasts[p].hypotheses(), "turn {turn} player {p}");
        let e = &state.units[1 - p];
        let truth = Hypothesis { enemy: [e[0], e[1]], enemy_alive: !state.dead[1 - p] };
        assert!(refs[p].hypotheses().contains(&truth), "turn {turn} player {p}: truth missing");
        let action = if view.legal.is_empty() || choice == 254 {
            Action::AcceptDefeat
        } else {
            view.legal[choice as usize % view.legal.len()]
        };
        rules::apply_action(&mut state, p, &action);
        last[p] = Some(action);
    }
}
