//! The hot position: walls as one 60-bit set, closed cells as a 25-bit set, used sizes as a
//! 25-bit mask, dead walls as a mask, an incremental zobrist hash. `Copy`, allocation-free.

use super::tables::*;

/// Cells of column 0 (`A1`..`E1`).
const COL0: u32 = 0x0010_8421;
/// Cells of column 4 (`A5`..`E5`).
const COL4: u32 = COL0 << 4;
/// The five low bits of each 6-bit row (bit `6*row + col`, col < 5).
const ROW5_6: u64 = 0x1F7DF7DF;

/// Moves bit `6*row + col` to `5*row + col` (col < 5; other bits must be clear), in each 32-bit
/// half independently. The trick: row r moves down by r, done in three parallel shifts by the
/// bits of r (rows 1 and 3 by 1, then rows 2 and 3 by 2, then row 4 by 4), lowest rows first,
/// so that no row ever lands on another.
#[inline(always)]
const fn compact6(mut x: u64) -> u64 {
    const R13: u64 = ((0x1F << 6) | (0x1F << 18)) * 0x1_0000_0001;
    x = (x & !R13) | ((x & R13) >> 1);
    const R23: u64 = (0x3FF << 12) * 0x1_0000_0001;
    x = (x & !R23) | ((x & R23) >> 2);
    const R4: u64 = (0x1F << 24) * 0x1_0000_0001;
    (x & !R4) | ((x & R4) >> 4)
}

/// Spreads 5-bit rows to 6-bit rows, bit `5*row + col` to `6*row + col` (rows 0..5): row r moves
/// up by r in three parallel shifts (rows 4 and 5 by 4, rows 2 and 3 by 2, rows 1, 3 and 5 by
/// 1), highest rows first so that no row lands on another. Cells (25 bits) go to the vertical
/// wall layout; horizontal walls (30 bits) go to the dot layout.
#[inline(always)]
const fn spread6(mut x: u64) -> u64 {
    const R45: u64 = 0x3FF << 20;
    x = (x & !R45) | ((x & R45) << 4);
    const R23: u64 = 0x3FF << 10;
    x = (x & !R23) | ((x & R23) << 2);
    const R135: u64 = (0x1F << 5) | (0x1F << 17) | (0x1F << 29);
    (x & !R135) | ((x & R135) << 1)
}

/// Dot index `6*row + col` (rows and columns 0..5) of the dots at the two ends of each wall:
/// horizontal wall (r, c) joins dots (r, c) and (r, c+1), vertical wall (r, c) joins (r, c) and
/// (r+1, c).
const fn build_wall_dot() -> [u8; 60] {
    let mut t = [0u8; 60];
    let mut w = 0;
    while w < 60 {
        let (r, c, _) = wall_coords(w);
        t[w] = (6 * r + c) as u8;
        w += 1;
    }
    t
}

/// The first dot (top or left end) of each wall.
const WALL_DOT: [u8; 60] = build_wall_dot();

/// The placed walls as edges between the 36 dots (bit `6*row + col`): the dual of the cell
/// graph. By planar duality a free wall is a bridge of the cell graph with OUTSIDE (placing it
/// cuts cells off, §4) exactly when its two end dots are already joined by placed walls.
#[derive(Clone, Copy, Debug)]
struct Dots {
    /// Bit p: the horizontal wall from dot p to dot p+1 is placed.
    right: u64,
    /// Bit p: the vertical wall from dot p to dot p+6 is placed.
    down: u64,
}

/// The 30 low bits.
const LOW30: u64 = (1 << 30) - 1;
/// The five low bits of each of six 6-bit rows (dots with a dot to their right).
const ROW5_36: u64 = ROW5_6 | (0x1F << 30);

impl Dots {
    #[inline(always)]
    fn of(walls: u64) -> Dots {
        Dots { right: spread6(walls & LOW30), down: (walls >> 30) & LOW30 }
    }

    /// The dots joined to `start` by placed walls (bit-parallel flood).
    #[inline(always)]
    fn component(&self, start: u64) -> u64 {
        let mut s = start;
        loop {
            let next = s
                | ((s & self.right) << 1)
                | ((s >> 1) & self.right)
                | ((s & self.down) << 6)
                | ((s >> 6) & self.down);
            if next == s {
                return s;
            }
            s = next;
        }
    }

    /// The walls with their first end in `dots`, and those with their second end in it.
    #[inline(always)]
    fn walls_at(dots: u64) -> (u64, u64) {
        let first = compact6_36(dots & ROW5_36) | ((dots & LOW30) << 30);
        let second = compact6_36((dots >> 1) & ROW5_36) | (((dots >> 6) & LOW30) << 30);
        (first, second)
    }
}

/// Inverse of [`spread6`] on six rows: bit `6*row + col` (col < 5) to `5*row + col`.
#[inline(always)]
const fn compact6_36(mut x: u64) -> u64 {
    const R135: u64 = (0x1F << 6) | (0x1F << 18) | (0x1F << 30);
    x = (x & !R135) | ((x & R135) >> 1);
    const R23: u64 = 0x3FF << 12;
    x = (x & !R23) | ((x & R23) >> 2);
    const R45: u64 = 0x3FF << 24;
    (x & !R45) | ((x & R45) >> 4)
}

/// Neighbour masks of the cell graph for a wall set: `right` has bit i when cell i is linked to
/// cell i+1, `down` when cell i is linked to cell i+5, `border` when cell i is linked to OUTSIDE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Links {
    /// Bit `i` (cell index `5*row + col`, 0..24; never set for the rightmost cells `A5`..`E5`):
    /// the vertical wall between cell `i` and the cell to its right is not placed.
    pub right: u32,
    /// Bit `i` (never set for the bottom row `E1`..`E5`): the horizontal wall between cell `i`
    /// and the cell below it is not placed.
    pub down: u32,
    /// Bit `i`: cell `i` is on the edge and at least one of its border walls is not placed, so
    /// it reaches OUTSIDE directly (§4). Interior cells never have this bit.
    pub border: u32,
}

impl Links {
    /// Twin of the §4 graph of [`twinsim_reference::zuniq::zones`] (`region_of` walks the same
    /// links).
    #[inline]
    pub fn of(walls: u64) -> Links {
        let free = !walls;
        // Horizontal walls of dot row r+1 (bits 5(r+1)..) sit 5 bits above the cells of row r.
        let down = ((free >> 5) as u32) & ((1 << 20) - 1);
        // Vertical walls: row r's six walls at 6r..6r+5 of `v`. Wall (r, c) is the left wall of
        // cell (r, c) (a border wall for c = 0) and wall (r, c+1) its right one (right link for
        // c < 4, border wall for c = 4): both 5-bit row views, compacted at once (one per half).
        let v = free >> 30;
        let both = compact6((v & ROW5_6) | (((v >> 1) & ROW5_6) << 32));
        let (left, right_of) = (both as u32, (both >> 32) as u32);
        let right = right_of & !COL4;
        let border = (free as u32 & 0x1F)
            | ((((free >> 25) as u32) & 0x1F) << 20)
            | (left & COL0)
            | (right_of & COL4);
        Links { right, down, border }
    }

    /// One step of the bit-parallel flood fill.
    #[inline(always)]
    fn expand(&self, s: u32) -> u32 {
        s | ((s & self.right) << 1)
            | ((s >> 1) & self.right)
            | ((s & self.down) << 5)
            | ((s >> 5) & self.down)
    }

    /// Floods from `start` until the set meets `stop` (returns `Err` with the set reached so
    /// far) or cannot grow (returns `Ok` with the component: cut off from everything in
    /// `stop`).
    #[inline(always)]
    fn flood_until(&self, start: u32, stop: u32) -> Result<u32, u32> {
        let mut s = start;
        loop {
            if s & stop != 0 {
                return Err(s);
            }
            let next = self.expand(s);
            if next == s {
                return Ok(s);
            }
            s = next;
        }
    }

    /// The component of `start` (no stop condition).
    pub fn component(&self, start: u32) -> u32 {
        let mut s = start;
        loop {
            let next = self.expand(s);
            if next == s {
                return s;
            }
            s = next;
        }
    }
}

/// The position as a search sees it (rules doc §3), plus derived masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Placed walls (bit = wall index).
    pub walls: u64,
    /// Cells in closed zones (bit = cell index `5*row + col`, 0..24); `25 − popcount` is the
    /// trace's `open_cells`.
    pub closed: u32,
    /// Bit `s` (1..25) set when a zone of size `s` has been closed: §5 rule 3 forbids closing
    /// another one of that size.
    pub used: u32,
    /// Walls next to a closed cell (placed or not): never legal again.
    pub dead: u64,
    /// Number of valid moves played (§3); White (0) moves when it is even, Black (1) when odd.
    pub ply: u8,
    /// 1-based ply of each player's first `!` claim (§7), 0 = none.
    pub claims: [u8; 2],
    /// Zobrist hash of (fixed walls, used sizes, side to move, claims).
    pub hash: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

/// What [`Board::check`] found for a wall (twin of
/// [`twinsim_reference::zuniq::rules::check_wall`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Legal; the cells it closes (0: none).
    Legal(u32),
    /// Already placed.
    Occupied,
    /// Next to a closed cell.
    InsideClosedZone,
    /// Would close a zone of a used size.
    DuplicateZoneSize(u32),
}

impl Board {
    /// The empty board.
    pub const fn new() -> Board {
        Board { walls: 0, closed: 0, used: 0, dead: 0, ply: 0, claims: [0, 0], hash: 0 }
    }

    /// Player to move (0 = White).
    #[inline]
    pub fn to_move(&self) -> usize {
        (self.ply & 1) as usize
    }

    /// The cells placing free, live wall `w` would cut off from OUTSIDE (0: none), with the
    /// position's links precomputed. Twin of the rule-3 part of `check_wall`.
    #[inline(always)]
    fn cut_with(&self, links: &Links, w: usize) -> u32 {
        let [a, b] = SIDES[w];
        let bit = 1u64 << w;
        if b == NONE {
            // A border wall: if its cell keeps another border wall free, it stays linked to
            // OUTSIDE and nothing is cut; else it floods until it meets OUTSIDE elsewhere.
            if !self.walls & CELL_BORDER[a as usize] & !bit != 0 {
                return 0;
            }
            let border = links.border & !(1 << a);
            return links.flood_until(1 << a, border).unwrap_or(0);
        }
        let (a, b) = (a as u32, b as u32);
        let mut after = *links;
        if b == a + 1 {
            after.right &= !(1 << a);
        } else {
            after.down &= !(1 << a);
        }
        // Side a: cut off unless it meets side b or OUTSIDE.
        match after.flood_until(1 << a, after.border | (1 << b)) {
            Ok(cut) => cut,
            // a still reaches b: the wall is not a bridge, nothing is cut.
            Err(reached) if reached & (1 << b) != 0 => 0,
            // a reaches OUTSIDE: side b is cut off unless it meets a or OUTSIDE.
            Err(_) => after.flood_until(1 << b, after.border | (1 << a)).unwrap_or(0),
        }
    }

    /// The cells placing `w` would cut off (0: none). `w` must be free and live.
    pub fn cut(&self, w: usize) -> u32 {
        self.cut_with(&Links::of(self.walls), w)
    }

    /// Rules §5 with §8's order of reasons. Twin of
    /// [`twinsim_reference::zuniq::rules::check_wall`].
    pub fn check(&self, w: usize) -> Check {
        self.check_with(&Links::of(self.walls), w)
    }

    /// [`Board::check`] with the position's links precomputed (`links` = `Links::of(walls)`).
    #[inline]
    pub fn check_with(&self, links: &Links, w: usize) -> Check {
        let bit = 1u64 << w;
        if self.walls & bit != 0 {
            Check::Occupied
        } else if self.dead & bit != 0 {
            Check::InsideClosedZone
        } else {
            let cut = self.cut_with(links, w);
            let size = cut.count_ones();
            if cut != 0 && self.used & (1 << size) != 0 {
                Check::DuplicateZoneSize(size)
            } else {
                Check::Legal(cut)
            }
        }
    }

    /// Inner walls that lie on a 4-cycle of free links (the two cells they separate and the
    /// two next to them on one side), computed for all walls at once: such a wall is not a
    /// bridge, so placing it cuts nothing (§4) and it is legal whenever it is free and live.
    #[inline(always)]
    pub fn on_square(links: &Links) -> u64 {
        let (down, right) = Board::square_links(links);
        link_walls(down, right, 0)
    }

    /// The down and right links on a free 4-cycle of cells (see [`Board::on_square`]).
    #[inline(always)]
    fn square_links(links: &Links) -> (u32, u32) {
        let (r, d) = (links.right, links.down);
        // Down-link a—a+5 (wall index a+5): square to the right or to the left.
        let square_down = d & ((r & (r >> 5) & (d >> 1)) | ((r << 1) & (r >> 4) & (d << 1)));
        // Right-link a—a+1 (wall index 30 + 6*row + col + 1): square below or above.
        let square_right = r & ((d & (d >> 1) & (r >> 5)) | ((d << 5) & (d << 4) & (r << 5)));
        (square_down, square_right)
    }

    /// Walls that are surely not bridges of the cell graph with OUTSIDE (§4), for all walls at
    /// once from local cycles: the free squares of [`Board::on_square`], inner links whose two
    /// cells both touch OUTSIDE (a triangle through OUTSIDE), and the border walls of a cell
    /// linked to a neighbour that touches OUTSIDE by another wall (the same triangle). Placing
    /// a free, live one cuts nothing, so it is legal. Twin: `check_wall` finding no zone
    /// ([`twinsim_reference::zuniq::rules::check_wall`]), tested wall by wall.
    #[inline(always)]
    pub fn quiet(links: &Links) -> u64 {
        let (r, d, o) = (links.right, links.down, links.border);
        let (square_down, square_right) = Board::square_links(links);
        let near = (r & (o >> 1)) | ((r & o) << 1) | (d & (o >> 5)) | ((d & o) << 5);
        link_walls(square_down | (d & o & (o >> 5)), square_right | (r & o & (o >> 1)), near)
    }

    /// All legal walls as one mask. Twin of [`twinsim_reference::zuniq::rules::legal_walls_of`].
    #[inline]
    pub fn legal_mask(&self) -> u64 {
        self.legal_quiet().0
    }

    /// All legal walls as one mask, and those of them that cut nothing (the search places
    /// these with `cut = 0` without a flood). The trick: [`Board::quiet`] decides most walls
    /// by bit operations; only the rest are flooded. Twin of
    /// [`twinsim_reference::zuniq::rules::legal_walls_of`] and, per wall, of `check_wall`
    /// finding no zone.
    #[inline]
    pub fn legal_quiet(&self) -> (u64, u64) {
        let links = Links::of(self.walls);
        let live = ALL_WALLS & !self.walls & !self.dead;
        let quiet = live & Board::quiet(&links);
        let (legal, rest_quiet) = self.decide(&links, live & !quiet);
        (legal | quiet, quiet | rest_quiet)
    }

    /// The legal walls among `rest` (free, live walls [`Board::quiet`] did not decide) and those
    /// of them that cut nothing. The trick is duality: one flood of the placed walls from an end dot of an
    /// undecided wall decides every undecided wall with an end in that dot component: both
    /// ends in it, a bridge (then a cell flood for the size it cuts); one end, not a bridge.
    #[inline]
    fn decide(&self, links: &Links, mut rest: u64) -> (u64, u64) {
        let (mut legal, mut quiet) = (0, 0);
        if rest == 0 {
            return (0, 0);
        }
        let dots = Dots::of(self.walls);
        while rest != 0 {
            let start = 1u64 << WALL_DOT[rest.trailing_zeros() as usize];
            let (first, second) = Dots::walls_at(dots.component(start));
            let mut bridges = rest & first & second;
            quiet |= rest & (first ^ second);
            rest &= !(first | second);
            while bridges != 0 {
                let w = bridges.trailing_zeros() as usize;
                bridges &= bridges - 1;
                if self.used & (1 << self.cut_with(links, w).count_ones()) == 0 {
                    legal |= 1 << w;
                }
            }
        }
        (legal | quiet, quiet)
    }

    /// Whether any wall is legal (stops at the first). Twin of `!legal_walls(..).is_empty()`.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        self.has_legal_move_with(&Links::of(self.walls))
    }

    /// [`Board::has_legal_move`] with the position's links precomputed.
    #[inline]
    pub fn has_legal_move_with(&self, links: &Links) -> bool {
        let live = ALL_WALLS & !self.walls & !self.dead;
        if live & Board::quiet(links) != 0 {
            return true;
        }
        // Late in the game most walls left are bridges: a cell flood each (the dot floods of
        // `decide` would come on top).
        let mut candidates = live;
        while candidates != 0 {
            let w = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if self.used & (1 << self.cut_with(links, w).count_ones()) == 0 {
                return true;
            }
        }
        false
    }

    /// Places legal wall `w` whose cut-off cells are `cut` (from [`Board::check`] or the
    /// caller's own knowledge); updates closed cells, used sizes, dead walls and the hash.
    /// Twin of the wall part of [`twinsim_reference::zuniq::rules::apply_move`]. Inlined
    /// whole: the common case (nothing closed) is a handful of instructions, the zone part is
    /// out of line.
    #[inline(always)]
    pub fn place(&mut self, w: usize, cut: u32) {
        self.walls |= 1u64 << w;
        self.ply = self.ply.wrapping_add(1);
        self.hash ^= Z_WALL[w] ^ Z_BLACK;
        if cut != 0 {
            self.close(cut);
        }
    }

    /// The zone part of [`Board::place`], out of line (most walls close nothing): the cells
    /// `cut` become closed, their size used, the walls around them dead (folded into the hash).
    #[inline(never)]
    fn close(&mut self, cut: u32) {
        let size = cut.count_ones();
        self.closed |= cut;
        self.used |= 1 << size;
        self.hash ^= Z_SIZE[size as usize];
        let mut around = 0u64;
        let mut cells = cut;
        while cells != 0 {
            around |= CELL_WALLS[cells.trailing_zeros() as usize];
            cells &= cells - 1;
        }
        // Walls that become fixed now: dead and not placed, not dead before.
        let mut newly = around & !self.walls & !self.dead;
        self.dead |= around;
        while newly != 0 {
            self.hash ^= Z_WALL[newly.trailing_zeros() as usize];
            newly &= newly - 1;
        }
    }

    /// Records `player`'s first claim at the current ply (after [`Board::place`]); returns
    /// false (changing nothing) for a repeat claim. Twin of the claim part of `apply_move`.
    #[inline]
    pub fn claim(&mut self, player: usize) -> bool {
        if self.claims[player] != 0 {
            return false;
        }
        self.claims[player] = self.ply;
        self.hash ^= Z_CLAIM[64 * player + (self.ply & 63) as usize];
        true
    }

    /// The hash recomputed from scratch (for tests of the incremental one).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        let mut fixed = self.walls | (self.dead & ALL_WALLS);
        while fixed != 0 {
            h ^= Z_WALL[fixed.trailing_zeros() as usize];
            fixed &= fixed - 1;
        }
        let mut used = self.used;
        while used != 0 {
            h ^= Z_SIZE[used.trailing_zeros() as usize];
            used &= used - 1;
        }
        if self.ply & 1 == 1 {
            h ^= Z_BLACK;
        }
        for player in 0..2 {
            if self.claims[player] != 0 {
                h ^= Z_CLAIM[64 * player + (self.claims[player] & 63) as usize];
            }
        }
        h
    }

    /// Rebuilds closed cells, used sizes, dead walls and hash from walls, ply and claims.
    /// Sizes of the closed components are what was used (§4: zones never change).
    pub fn from_walls(walls: u64, ply: u8, claims: [u8; 2]) -> Board {
        let links = Links::of(walls & ALL_WALLS);
        let open = links.component_from_outside();
        let closed = ALL_CELLS & !open;
        let mut used = 0;
        let mut rest = closed;
        let mut dead = 0u64;
        while rest != 0 {
            let zone = links.component(1 << rest.trailing_zeros());
            used |= 1 << zone.count_ones();
            rest &= !zone;
        }
        let mut cells = closed;
        while cells != 0 {
            dead |= CELL_WALLS[cells.trailing_zeros() as usize];
            cells &= cells - 1;
        }
        let mut board =
            Board { walls: walls & ALL_WALLS, closed, used, dead, ply, claims, hash: 0 };
        board.hash = board.hash_from_scratch();
        board
    }

    /// The closed zones as cell masks, in no particular order.
    pub fn zones(&self) -> Vec<u32> {
        let links = Links::of(self.walls);
        let mut zones = Vec::new();
        let mut rest = self.closed;
        while rest != 0 {
            let zone = links.component(1 << rest.trailing_zeros()) & self.closed;
            zones.push(zone);
            rest &= !zone;
        }
        zones
    }
}

/// One local-cycle test of [`CYCLES`]: the walls in `free` are all free, and `any_a` and
/// `any_b` each hold a free wall (an empty mask never does).
#[derive(Clone, Copy, Debug)]
pub struct Cycle {
    /// Walls that must all be free.
    pub free: u64,
    /// At least one of these must be free.
    pub any_a: u64,
    /// At least one of these must be free.
    pub any_b: u64,
}

/// The wall between two neighbouring cells.
const fn wall_between(a: usize, n: usize) -> usize {
    let (r, c) = (a / 5, a % 5);
    if n == a + 1 {
        wall_index(r, c + 1, true)
    } else if n + 1 == a {
        wall_index(r, c, true)
    } else if n == a + 5 {
        wall_index(r + 1, c, false)
    } else {
        wall_index(r, c, false)
    }
}

const fn build_cycles() -> [[Cycle; 4]; 60] {
    const NO: Cycle = Cycle { free: 0, any_a: 0, any_b: 0 };
    const ANY: u64 = u64::MAX;
    let mut t = [[NO; 4]; 60];
    let mut w = 0;
    while w < 60 {
        let [a, b] = SIDES[w];
        let a = a as usize;
        if b == NONE {
            // A border wall of cell a: a free link to a neighbour with a free border wall (a
            // triangle through OUTSIDE), or another free border wall of a (corners; last, as
            // the rarer one).
            let (r, c) = (a / 5, a % 5);
            let nbs = [
                if c < 4 { a + 1 } else { 99 },
                if c > 0 { a - 1 } else { 99 },
                if r < 4 { a + 5 } else { 99 },
                if r > 0 { a - 5 } else { 99 },
            ];
            let (mut i, mut k) = (0, 0);
            while i < 4 {
                let n = nbs[i];
                if n != 99 && CELL_BORDER[n] != 0 {
                    t[w][k] =
                        Cycle { free: 1 << wall_between(a, n), any_a: CELL_BORDER[n], any_b: ANY };
                    k += 1;
                }
                i += 1;
            }
            t[w][k] = Cycle { free: 0, any_a: CELL_BORDER[a] & !(1 << w), any_b: ANY };
        } else {
            let b = b as usize;
            // A free square on either side (a, b and their neighbours a+s, b+s), then both
            // cells reaching OUTSIDE directly (a triangle through OUTSIDE).
            let (r, c) = (a / 5, a % 5);
            let steps: [(bool, usize, bool); 2] = if b == a + 1 {
                [(r < 4, 5, true), (r > 0, 5, false)]
            } else {
                [(c < 4, 1, true), (c > 0, 1, false)]
            };
            let (mut i, mut k) = (0, 0);
            while i < 2 {
                let (exists, s, up) = steps[i];
                if exists {
                    let (a2, b2) = if up { (a + s, b + s) } else { (a - s, b - s) };
                    let free = (1u64 << wall_between(a, a2))
                        | (1u64 << wall_between(b, b2))
                        | (1u64 << wall_between(a2, b2));
                    t[w][k] = Cycle { free, any_a: ANY, any_b: ANY };
                    k += 1;
                }
                i += 1;
            }
            t[w][k] = Cycle { free: 0, any_a: CELL_BORDER[a], any_b: CELL_BORDER[b] };
        }
        w += 1;
    }
    t
}

/// Per wall, up to four local cycles through it (unused entries never pass): free squares,
/// triangles through OUTSIDE, a corner's second border wall. The per-wall form of
/// [`Board::quiet`] (plus corners), for callers that test one wall without the links.
pub static CYCLES: [[Cycle; 4]; 60] = build_cycles();

impl Board {
    /// Whether free, live wall `w` surely cuts nothing: it lies on one of its [`CYCLES`] of free
    /// walls. Twin: `check_wall` finding no zone, tested wall by wall.
    #[inline(always)]
    pub fn quiet_wall(&self, w: usize) -> bool {
        let free = !self.walls;
        CYCLES[w]
            .iter()
            .any(|t| self.walls & t.free == 0 && free & t.any_a != 0 && free & t.any_b != 0)
    }
}

/// The walls of links and border cells given as cell masks: `down` bit a → wall a+5 (between
/// a and a+5), `right` bit a → the vertical wall between a and a+1, `border` bit a → every
/// border wall of cell a. Horizontal walls are shifts; vertical ones go through [`spread6`].
#[inline(always)]
fn link_walls(down: u32, right: u32, border: u32) -> u64 {
    let horizontal =
        (u64::from(down) << 5) | u64::from(border & 0x1F) | (u64::from(border & (0x1F << 20)) << 5);
    let vertical = (spread6(u64::from(border & COL0)) << 30)
        | (spread6(u64::from(right | (border & COL4))) << 31);
    horizontal | vertical
}

impl Links {
    /// Cells linked to OUTSIDE, directly or through other cells.
    pub fn component_from_outside(&self) -> u32 {
        if self.border == 0 {
            return 0;
        }
        self.component(self.border)
    }
}
