//! The hot position: walls as one 60-bit set, closed cells as a 25-bit set, used sizes as a
//! 25-bit mask, dead walls as a mask, an incremental zobrist hash. `Copy`, allocation-free.

use super::tables::*;

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
        let mut right = 0u32;
        let mut border = (free as u32 & 0x1F) | ((((free >> 25) as u32) & 0x1F) << 20);
        let mut row = 0;
        while row < 5 {
            let v = (free >> (30 + 6 * row)) as u32;
            right |= ((v >> 1) & 0xF) << (5 * row);
            border |= (v & 1) << (5 * row);
            border |= ((v >> 5) & 1) << (5 * row + 4);
            row += 1;
        }
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
        let (r, d) = (links.right, links.down);
        // Down-link a—a+5 (wall index a+5): square to the right or to the left.
        let square_down = d & ((r & (r >> 5) & (d >> 1)) | ((r << 1) & (r >> 4) & (d << 1)));
        // Right-link a—a+1 (wall index 30 + 6*row + col + 1): square below or above.
        let square_right = r & ((d & (d >> 1) & (r >> 5)) | ((d << 5) & (d << 4) & (r << 5)));
        let mut walls = u64::from(square_down) << 5;
        let mut row = 0;
        while row < 5 {
            walls |= u64::from((square_right >> (5 * row)) & 0xF) << (31 + 6 * row);
            row += 1;
        }
        walls
    }

    /// All legal walls as one mask. Twin of [`twinsim_reference::zuniq::rules::legal_walls_of`].
    #[inline]
    pub fn legal_mask(&self) -> u64 {
        let links = Links::of(self.walls);
        let live = ALL_WALLS & !self.walls & !self.dead;
        let mut legal = live & Board::on_square(&links);
        let mut candidates = live & !legal;
        while candidates != 0 {
            let w = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let cut = self.cut_with(&links, w);
            if cut == 0 || self.used & (1 << cut.count_ones()) == 0 {
                legal |= 1 << w;
            }
        }
        legal
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
        if live & Board::on_square(links) != 0 {
            return true;
        }
        let mut candidates = live;
        while candidates != 0 {
            let w = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let cut = self.cut_with(links, w);
            if cut == 0 || self.used & (1 << cut.count_ones()) == 0 {
                return true;
            }
        }
        false
    }

    /// Places legal wall `w` whose cut-off cells are `cut` (from [`Board::check`] or the
    /// caller's own knowledge); updates closed cells, used sizes, dead walls and the hash.
    /// Twin of the wall part of [`twinsim_reference::zuniq::rules::apply_move`].
    #[inline]
    pub fn place(&mut self, w: usize, cut: u32) {
        let bit = 1u64 << w;
        self.walls |= bit;
        self.ply = self.ply.wrapping_add(1);
        self.hash ^= Z_WALL[w] ^ Z_BLACK;
        if cut != 0 {
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

impl Links {
    /// Cells linked to OUTSIDE, directly or through other cells.
    pub fn component_from_outside(&self) -> u32 {
        if self.border == 0 {
            return 0;
        }
        self.component(self.border)
    }
}
