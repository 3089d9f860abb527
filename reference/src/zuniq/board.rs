//! Rules doc §2 "Board, coordinates, notation": dots, walls, cells and their names.
//!
//! The board has 6 × 6 dots (rows `A`..`F`, columns `1`..`6`) and 5 × 5 cells. A wall joins two
//! orthogonally adjacent dots; there are 60 of them, the 20 border walls included.

use std::fmt;

/// Number of dot rows and dot columns (§2).
pub const DOTS: u8 = 6;
/// Number of cell rows and cell columns (§2).
pub const CELLS: u8 = 5;

/// Which way a wall runs (§2). `Horizontal` sorts before `Vertical`, like `h` before `v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Orientation {
    /// `Xnh`: from dot `Xn` to dot `X(n+1)`.
    Horizontal,
    /// `Xnv`: from dot `Xn` down to dot `(X+1)n`.
    Vertical,
}

/// One of the 60 walls (§2). Rows and columns are 0-based (row 0 = `A`, column 0 = `1`).
///
/// The derived order (row, column, orientation) is the ASCII order of the names
/// (`A1h` < `A1v` < `A2h` …), the order the traces sort walls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Wall {
    row: u8,
    col: u8,
    orientation: Orientation,
}

/// One of the 25 cells (§2): cell `Xn` is the square whose top-left dot is `Xn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// 0-based row (0 = `A`).
    pub row: u8,
    /// 0-based column (0 = `1`).
    pub col: u8,
}

/// What lies on one side of a wall: a cell, or the single OUTSIDE node (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// A cell of the board.
    Cell(Cell),
    /// Everything beyond the board's edge, as one node.
    Outside,
}

impl Wall {
    /// The wall with these 0-based coordinates, if it exists (§2): horizontal walls on rows
    /// `A`..`F` and columns `1`..`5`, vertical walls on rows `A`..`E` and columns `1`..`6`.
    pub fn new(row: u8, col: u8, orientation: Orientation) -> Option<Wall> {
        let exists = match orientation {
            Orientation::Horizontal => row < DOTS && col < CELLS,
            Orientation::Vertical => row < CELLS && col < DOTS,
        };
        exists.then_some(Wall { row, col, orientation })
    }

    /// 0-based row of the wall's first dot (0 = `A`).
    pub fn row(self) -> u8 {
        self.row
    }

    /// 0-based column of the wall's first dot (0 = `1`).
    pub fn col(self) -> u8 {
        self.col
    }

    /// Horizontal or vertical.
    pub fn orientation(self) -> Orientation {
        self.orientation
    }

    /// The two dots the wall joins, as 0-based (row, column) pairs, first dot first.
    pub fn dots(self) -> [(u8, u8); 2] {
        match self.orientation {
            Orientation::Horizontal => [(self.row, self.col), (self.row, self.col + 1)],
            Orientation::Vertical => [(self.row, self.col), (self.row + 1, self.col)],
        }
    }

    /// The wall joining two dots, if they are orthogonally adjacent (§2).
    pub fn between(a: (u8, u8), b: (u8, u8)) -> Option<Wall> {
        if a.0 == b.0 && a.1.abs_diff(b.1) == 1 {
            Wall::new(a.0, a.1.min(b.1), Orientation::Horizontal)
        } else if a.1 == b.1 && a.0.abs_diff(b.0) == 1 {
            Wall::new(a.0.min(b.0), a.1, Orientation::Vertical)
        } else {
            None
        }
    }

    /// The two sides of the wall (§2, §4): above then below for a horizontal wall, left then
    /// right for a vertical one; OUTSIDE beyond the board's edge.
    pub fn sides(self) -> [Side; 2] {
        let cell = |row: u8, col: u8| {
            if row < CELLS && col < CELLS {
                Side::Cell(Cell { row, col })
            } else {
                Side::Outside
            }
        };
        match self.orientation {
            Orientation::Horizontal => {
                let above =
                    if self.row == 0 { Side::Outside } else { cell(self.row - 1, self.col) };
                [above, cell(self.row, self.col)]
            }
            Orientation::Vertical => {
                let left = if self.col == 0 { Side::Outside } else { cell(self.row, self.col - 1) };
                [left, cell(self.row, self.col)]
            }
        }
    }

    /// The cells next to the wall (one for a border wall, two otherwise).
    pub fn cells(self) -> Vec<Cell> {
        self.sides()
            .into_iter()
            .filter_map(|side| match side {
                Side::Cell(cell) => Some(cell),
                Side::Outside => None,
            })
            .collect()
    }

    /// A border wall: row `A` or `F` (horizontal), column `1` or `6` (vertical) (§2).
    pub fn is_border(self) -> bool {
        self.sides().contains(&Side::Outside)
    }

    /// The wall's name, e.g. `A1h` (§2).
    pub fn name(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Wall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = match self.orientation {
            Orientation::Horizontal => 'h',
            Orientation::Vertical => 'v',
        };
        write!(f, "{}{}{}", (b'A' + self.row) as char, self.col + 1, letter)
    }
}

/// All 60 walls, in ASCII order of their names (§2).
pub fn all_walls() -> Vec<Wall> {
    let mut walls = Vec::new();
    for row in 0..DOTS {
        for col in 0..DOTS {
            for orientation in [Orientation::Horizontal, Orientation::Vertical] {
                if let Some(wall) = Wall::new(row, col, orientation) {
                    walls.push(wall);
                }
            }
        }
    }
    walls
}

impl Cell {
    /// The cell with these 0-based coordinates, if it exists.
    pub fn new(row: u8, col: u8) -> Option<Cell> {
        (row < CELLS && col < CELLS).then_some(Cell { row, col })
    }

    /// The cell's four walls (§2): top `Xnh`, bottom `(X+1)nh`, left `Xnv`, right `X(n+1)v`.
    pub fn walls(self) -> [Wall; 4] {
        let (row, col) = (self.row, self.col);
        [
            Wall { row, col, orientation: Orientation::Horizontal },
            Wall { row: row + 1, col, orientation: Orientation::Horizontal },
            Wall { row, col, orientation: Orientation::Vertical },
            Wall { row, col: col + 1, orientation: Orientation::Vertical },
        ]
    }

    /// The cell's name, e.g. `A1` (§9).
    pub fn name(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.row) as char, self.col + 1)
    }
}

/// All 25 cells, row by row (`A1`, `A2`, …, `E5`).
pub fn all_cells() -> Vec<Cell> {
    (0..CELLS).flat_map(|row| (0..CELLS).map(move |col| Cell { row, col })).collect()
}

/// The other side of `wall` seen from `cell` (§4: the graph edge the wall blocks).
pub fn across(wall: Wall, cell: Cell) -> Side {
    let [a, b] = wall.sides();
    if a == Side::Cell(cell) {
        b
    } else {
        a
    }
}

/// One of the 8 symmetries of the square board (0 = identity; 1..3 rotations by 90°, 180°,
/// 270°; 4..7 the same followed by a left-right mirror), applied to a dot. Used to check that
/// the rules do not depend on orientation (§2: "the rules are symmetric").
pub fn transform_dot(symmetry: u8, dot: (u8, u8)) -> (u8, u8) {
    let n = DOTS - 1;
    let (mut r, mut c) = dot;
    for _ in 0..symmetry % 4 {
        (r, c) = (c, n - r);
    }
    if symmetry >= 4 {
        c = n - c;
    }
    (r, c)
}

/// [`transform_dot`] applied to both dots of a wall.
pub fn transform_wall(symmetry: u8, wall: Wall) -> Wall {
    let [a, b] = wall.dots();
    // A symmetry maps adjacent dots to adjacent dots, so the wall always exists.
    Wall::between(transform_dot(symmetry, a), transform_dot(symmetry, b)).unwrap_or(wall)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_sixty_walls_thirty_of_each_orientation() {
        let walls = all_walls();
        assert_eq!(walls.len(), 60);
        let h = walls.iter().filter(|w| w.orientation() == Orientation::Horizontal).count();
        assert_eq!(h, 30);
        assert_eq!(walls.iter().filter(|w| w.is_border()).count(), 20);
        let mut names: Vec<String> = walls.iter().map(|w| w.name()).collect();
        let sorted = {
            let mut s = names.clone();
            s.sort();
            s
        };
        assert_eq!(names, sorted, "all_walls is in ASCII order");
        names.dedup();
        assert_eq!(names.len(), 60);
    }

    #[test]
    fn doc_examples_of_border_walls() {
        let find = |name: &str| all_walls().into_iter().find(|w| w.name() == name).unwrap();
        let a1 = Side::Cell(Cell { row: 0, col: 0 });
        let e5 = Side::Cell(Cell { row: 4, col: 4 });
        assert_eq!(find("A1h").sides(), [Side::Outside, a1]);
        assert_eq!(find("A1v").sides(), [Side::Outside, a1]);
        assert_eq!(find("F5h").sides(), [e5, Side::Outside]);
        assert_eq!(find("E6v").sides(), [e5, Side::Outside]);
        assert!(Wall::new(0, 5, Orientation::Horizontal).is_none(), "A6h does not exist");
        assert!(Wall::new(5, 0, Orientation::Vertical).is_none(), "F1v does not exist");
    }

    #[test]
    fn each_cell_has_four_walls_that_touch_it() {
        for cell in all_cells() {
            for wall in cell.walls() {
                assert!(wall.cells().contains(&cell), "{wall} should touch {cell}");
            }
        }
    }

    #[test]
    fn symmetries_are_bijections_on_walls() {
        for s in 0..8 {
            let mut images: Vec<Wall> =
                all_walls().into_iter().map(|w| transform_wall(s, w)).collect();
            images.sort();
            images.dedup();
            assert_eq!(images.len(), 60);
        }
    }
}
