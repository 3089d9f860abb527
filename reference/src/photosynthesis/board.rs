//! §1 Board and geometry: the 37-cell hexagon, cube coordinates, cell numbering, neighbours,
//! mirror cells and hex distance.
//!
//! Everything here is a pure function of the cell index; nothing depends on a game.

/// Number of cells of the radius-3 hexagon (§1).
pub const NUM_CELLS: usize = 37;

/// `MAP_RING_COUNT` (§1).
pub const RING_COUNT: i32 = 3;

/// A cube coordinate `(x, y, z)` with `x + y + z = 0` (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cube {
    /// Cube x (the axis of direction 0, east).
    pub x: i32,
    /// Cube y.
    pub y: i32,
    /// Cube z (= -x - y).
    pub z: i32,
}

/// The six directions, used for neighbours and for the sun (§1 table).
pub const DIRECTIONS: [Cube; 6] = [
    Cube { x: 1, y: -1, z: 0 },
    Cube { x: 1, y: 0, z: -1 },
    Cube { x: 0, y: 1, z: -1 },
    Cube { x: -1, y: 1, z: 0 },
    Cube { x: -1, y: 0, z: 1 },
    Cube { x: 0, y: -1, z: 1 },
];

impl Cube {
    /// The centre cell.
    pub const ORIGIN: Cube = Cube { x: 0, y: 0, z: 0 };

    /// `self + k * other`.
    pub fn add_scaled(self, other: Cube, k: i32) -> Cube {
        Cube { x: self.x + k * other.x, y: self.y + k * other.y, z: self.z + k * other.z }
    }

    /// The neighbour in direction `dir` (0..6), `distance` steps away.
    pub fn step(self, dir: usize, distance: i32) -> Cube {
        self.add_scaled(DIRECTIONS[dir % 6], distance)
    }

    /// Hex distance: `(|dx| + |dy| + |dz|) / 2` (§1).
    pub fn distance(self, other: Cube) -> i32 {
        ((self.x - other.x).abs() + (self.y - other.y).abs() + (self.z - other.z).abs()) / 2
    }

    /// The distance to the centre: the ring the cell lies on.
    pub fn ring(self) -> i32 {
        self.distance(Cube::ORIGIN)
    }
}

/// The cube coordinate of every cell index, generated as §1 describes: the centre, then each
/// ring r = 1..3 as a spiral that starts at the centre's direction-0 neighbour, emits r cells per
/// orientation o = 0..5 stepping in direction (o + 2) mod 6 after each, and steps once more in
/// direction 0 after the ring.
pub fn cell_coordinates() -> [Cube; NUM_CELLS] {
    let mut out = [Cube::ORIGIN; NUM_CELLS];
    let mut next = 1;
    let mut cursor = Cube::ORIGIN.step(0, 1);
    for ring in 1..=RING_COUNT {
        for orientation in 0..6 {
            for _ in 0..ring {
                out[next] = cursor;
                next += 1;
                cursor = cursor.step((orientation + 2) % 6, 1);
            }
        }
        cursor = cursor.step(0, 1);
    }
    out
}

/// [`cell_coordinates`], computed once.
fn coordinates() -> &'static [Cube; NUM_CELLS] {
    static TABLE: std::sync::OnceLock<[Cube; NUM_CELLS]> = std::sync::OnceLock::new();
    TABLE.get_or_init(cell_coordinates)
}

/// The cube coordinate of cell `index` (0..37).
pub fn coord(index: usize) -> Cube {
    coordinates()[index]
}

/// The index of the cell at `cube`, or `None` off the board.
pub fn index_of(cube: Cube) -> Option<usize> {
    if cube.ring() > RING_COUNT {
        return None;
    }
    coordinates().iter().position(|&c| c == cube)
}

/// The neighbour of `index` in direction `dir`, or `None` off the board (§1 columns n0..n5).
pub fn neighbour(index: usize, dir: usize) -> Option<usize> {
    index_of(coord(index).step(dir, 1))
}

/// The point-reflected cell `(−x, −y, −z)` (§1 "mirror").
pub fn mirror(index: usize) -> usize {
    let c = coord(index);
    index_of(Cube { x: -c.x, y: -c.y, z: -c.z }).unwrap_or(index)
}

/// Hex distance between two cells (§1).
pub fn distance(a: usize, b: usize) -> i32 {
    coord(a).distance(coord(b))
}

/// Richness of a cell before holes are dug: 3 for the centre and ring 1, 2 for ring 2, 1 for
/// ring 3 (§1 "Richness").
pub fn default_richness(index: usize) -> u8 {
    match coord(index).ring() {
        0 | 1 => 3,
        2 => 2,
        _ => 1,
    }
}

/// Bonus points of completing a tree on a cell of this richness: 0 / +2 / +4 for richness
/// 1 / 2 / 3 (§6.1 step 6).
pub fn richness_bonus(richness: u8) -> i32 {
    match richness {
        2 => 2,
        3 => 4,
        _ => 0,
    }
}

/// L, the iteration order of the referee's `HashMap<CubeCoord, Cell>` (§4a): the hole generator
/// indexes this list, not the cell index order.
pub const HASHMAP_ORDER: [usize; NUM_CELLS] = [
    1, 6, 8, 16, 21, 32, 19, 34, 35, 36, 11, 12, 13, 24, 29, 0, 2, 5, 9, 15, 22, 31, 7, 17, 18, 20,
    33, 25, 26, 27, 28, 3, 4, 10, 14, 23, 30,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_match_the_rules_table() {
        assert_eq!(coord(0), Cube { x: 0, y: 0, z: 0 });
        assert_eq!(coord(1), Cube { x: 1, y: -1, z: 0 });
        assert_eq!(coord(6), Cube { x: 0, y: -1, z: 1 });
        assert_eq!(coord(7), Cube { x: 2, y: -2, z: 0 });
        assert_eq!(coord(18), Cube { x: 1, y: -2, z: 1 });
        assert_eq!(coord(19), Cube { x: 3, y: -3, z: 0 });
        assert_eq!(coord(25), Cube { x: 0, y: 3, z: -3 });
        assert_eq!(coord(36), Cube { x: 2, y: -3, z: 1 });
        for c in cell_coordinates() {
            assert_eq!(c.x + c.y + c.z, 0);
        }
    }

    #[test]
    fn neighbours_match_the_rules_table() {
        let rows: [(usize, [i32; 6]); 6] = [
            (0, [1, 2, 3, 4, 5, 6]),
            (1, [7, 8, 2, 0, 6, 18]),
            (7, [19, 20, 8, 1, 18, 36]),
            (19, [-1, -1, 20, 7, 36, -1]),
            (23, [22, -1, -1, 24, 10, 9]),
            (36, [-1, 19, 7, 18, 35, -1]),
        ];
        for (i, ns) in rows {
            for (d, &n) in ns.iter().enumerate() {
                assert_eq!(neighbour(i, d).map_or(-1, |x| x as i32), n, "cell {i} dir {d}");
            }
        }
    }

    #[test]
    fn mirror_matches_the_formula() {
        for i in 0..NUM_CELLS {
            let want = match i {
                0 => 0,
                1..=6 => ((i - 1 + 3) % 6) + 1,
                7..=18 => ((i - 7 + 6) % 12) + 7,
                _ => ((i - 19 + 9) % 18) + 19,
            };
            assert_eq!(mirror(i), want);
        }
    }

    /// L is what a Java HashMap of capacity 64 iterates: buckets by spread hash, insertion order
    /// within a bucket (§4a).
    #[test]
    fn hashmap_order_is_the_java_iteration_order() {
        let mut buckets: Vec<Vec<usize>> = vec![vec![]; 64];
        for (i, c) in cell_coordinates().iter().enumerate() {
            let h: i32 = 31i32
                .wrapping_mul(31i32.wrapping_mul(31 + c.x).wrapping_add(c.y))
                .wrapping_add(c.z);
            let spread = h ^ ((h as u32) >> 16) as i32;
            buckets[(spread & 63) as usize].push(i);
        }
        let order: Vec<usize> = buckets.concat();
        assert_eq!(order, HASHMAP_ORDER.to_vec());
    }
}
