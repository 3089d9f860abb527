//! Rules doc §4 "Closed zones (the core definition)".
//!
//! The graph: the 25 cells plus one OUTSIDE node; two neighbouring cells are linked when the wall
//! between them is not placed, an edge cell is linked to OUTSIDE for each of its unplaced border
//! walls. A closed zone is a connected component that does not contain OUTSIDE.

use super::board::{across, all_cells, Cell, Side, Wall};
use std::collections::BTreeSet;

/// A closed zone (§4): a set of cells cut off from OUTSIDE.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Zone {
    /// The zone's cells, sorted.
    pub cells: BTreeSet<Cell>,
}

impl Zone {
    /// The zone's size: its number of cells (§4).
    pub fn size(&self) -> usize {
        self.cells.len()
    }

    /// Whether `cell` belongs to this zone.
    pub fn contains(&self, cell: Cell) -> bool {
        self.cells.contains(&cell)
    }
}

/// The connected component of `start` in the §4 graph: its cells, and whether it contains
/// OUTSIDE (reaches an unplaced border wall).
pub fn region_of(start: Cell, walls: &BTreeSet<Wall>) -> (BTreeSet<Cell>, bool) {
    let mut cells = BTreeSet::from([start]);
    let mut open = false;
    let mut stack = vec![start];
    while let Some(cell) = stack.pop() {
        for wall in cell.walls() {
            if walls.contains(&wall) {
                continue;
            }
            match across(wall, cell) {
                Side::Outside => open = true,
                Side::Cell(next) => {
                    if cells.insert(next) {
                        stack.push(next);
                    }
                }
            }
        }
    }
    (cells, open)
}

/// All closed zones of a wall set (§4), sorted by size (sizes are distinct in any legal
/// position; ties, which only hand-made positions can have, are broken by the cells).
pub fn closed_zones(walls: &BTreeSet<Wall>) -> Vec<Zone> {
    let mut seen = BTreeSet::new();
    let mut zones = Vec::new();
    for cell in all_cells() {
        if seen.contains(&cell) {
            continue;
        }
        let (cells, open) = region_of(cell, walls);
        seen.extend(cells.iter().copied());
        if !open {
            zones.push(Zone { cells });
        }
    }
    zones.sort_by(|a, b| (a.size(), &a.cells).cmp(&(b.size(), &b.cells)));
    zones
}

/// The zones that placing `wall` would close (§4): the closed zones after the move that did not
/// exist before. At most one in any position reachable by legal moves (§4 "one move closes at
/// most one zone"); returned as a list so that the claim can be tested rather than assumed.
pub fn zones_closed_by(walls: &BTreeSet<Wall>, wall: Wall) -> Vec<Zone> {
    let before = closed_zones(walls);
    let mut after_walls = walls.clone();
    after_walls.insert(wall);
    closed_zones(&after_walls).into_iter().filter(|zone| !before.contains(zone)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zuniq::protocol::parse_wall;

    fn walls(names: &str) -> BTreeSet<Wall> {
        names.split_whitespace().map(|n| parse_wall(n).unwrap()).collect()
    }

    #[test]
    fn the_empty_board_has_no_closed_zone() {
        assert!(closed_zones(&BTreeSet::new()).is_empty());
    }

    #[test]
    fn four_walls_around_a_corner_cell_close_a_zone_of_one() {
        let zones = closed_zones(&walls("A1h A1v A2v B1h"));
        assert_eq!(zones.len(), 1);
        assert_eq!(zones[0].size(), 1);
        assert!(zones[0].contains(Cell { row: 0, col: 0 }));
    }

    #[test]
    fn all_twenty_border_walls_close_one_zone_of_twenty_five() {
        let border: BTreeSet<Wall> =
            super::super::board::all_walls().into_iter().filter(|w| w.is_border()).collect();
        let zones = closed_zones(&border);
        assert_eq!(zones.len(), 1);
        assert_eq!(zones[0].size(), 25);
    }

    #[test]
    fn a_ring_around_a_closed_zone_does_not_count_the_inner_cells() {
        // Closed 1-cell zone B2, then a ring of 8 cells A1..C3 around it.
        let inner = "B2h B2v B3v C2h";
        let ring = "A1h A2h A3h A1v B1v C1v A4v B4v C4v D1h D2h D3h";
        let zones = closed_zones(&walls(&format!("{inner} {ring}")));
        let sizes: Vec<usize> = zones.iter().map(Zone::size).collect();
        assert_eq!(sizes, vec![1, 8]);
    }
}
