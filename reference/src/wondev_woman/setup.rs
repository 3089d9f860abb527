//! §2 Setup and map generation (exact RNG sequence).

use super::state::{Params, Point, State};
use crate::java_random::JavaRandom;
use std::collections::{BTreeSet, VecDeque};

/// Extent of generated maps (§2.1).
pub const GENERATED_MAP_SIZE: i32 = 6;

/// §2 step 2, map 0: the 5×5 square.
pub fn square_map() -> Vec<Point> {
    let mut cells = vec![];
    for y in 0..5 {
        for x in 0..5 {
            cells.push(Point::new(x, y));
        }
    }
    cells
}

/// §2 step 2, map 1: the diamond of size 7 (per row, the x range of the rules table).
pub fn diamond_map() -> Vec<Point> {
    let ranges = [(3, 3), (2, 4), (1, 5), (0, 6), (1, 5), (2, 4), (3, 3)];
    let mut cells = vec![];
    for (y, (lo, hi)) in ranges.iter().enumerate() {
        for x in *lo..=*hi {
            cells.push(Point::new(x, y as i32));
        }
    }
    cells
}

/// §2 step 1: number of 8-connected components of `cells`.
pub fn count_islands(cells: &BTreeSet<Point>) -> usize {
    let mut seen: BTreeSet<Point> = BTreeSet::new();
    let mut islands = 0;
    for start in cells {
        if seen.contains(start) {
            continue;
        }
        islands += 1;
        let mut queue = VecDeque::from([*start]);
        seen.insert(*start);
        while let Some(p) = queue.pop_front() {
            for d in super::state::Dir::ALL {
                let n = p.neighbour(d);
                if cells.contains(&n) && !seen.contains(&n) {
                    seen.insert(n);
                    queue.push_back(n);
                }
            }
        }
    }
    islands
}

/// §2 step 1: the random map, always generated (it consumes generator calls whatever map is
/// used): `cells = 25 + nextInt(10)`, then pairs `(x, y)`, `(5-x, y)` until there are enough
/// cells in one island, at most 1000 iterations.
pub fn generate_random_map(random: &mut JavaRandom) -> BTreeSet<Point> {
    let cells = 25 + random.next_below(10) as usize;
    let mut set = BTreeSet::new();
    let mut islands = 0;
    let mut iterations = 0;
    while (set.len() < cells || islands > 1) && iterations < 1000 {
        let x = random.next_below(GENERATED_MAP_SIZE);
        let y = random.next_below(GENERATED_MAP_SIZE);
        set.insert(Point::new(x, y));
        set.insert(Point::new(GENERATED_MAP_SIZE - 1 - x, y));
        islands = count_islands(&set);
        iterations += 1;
    }
    set
}

/// §2: the whole setup: random map, map choice, spawns from the shuffled sorted cell list.
pub fn new_game(seed: i64, params: &Params) -> State {
    let mut random = JavaRandom::new(seed);
    // Step 1: the random map, whatever map is finally chosen.
    let random_map = generate_random_map(&mut random);
    // Step 2: the map draw, then the property override.
    let drawn = random.next_below(3);
    let map_index = if (0..3).contains(&params.map_index) { params.map_index } else { drawn };
    let cells: Vec<Point> = match map_index {
        0 => square_map(),
        1 => diamond_map(),
        _ => random_map.into_iter().collect(),
    };
    let size = cells.iter().map(|p| 1 + p.x.max(p.y)).max().unwrap_or(0).max(0) as usize;
    let mut heights = vec![vec![None; size]; size];
    for p in &cells {
        heights[p.y as usize][p.x as usize] = Some(0);
    }
    // Step 3: spawns. Sort by x then y, shuffle like Collections.shuffle.
    let mut list = cells.clone();
    list.sort_by_key(|p| (p.x, p.y));
    random.shuffle(&mut list);
    let per_player = params.league.units_per_player();
    let mut units: [Vec<Point>; 2] = [vec![], vec![]];
    if params.symmetric {
        let mut queue: VecDeque<Point> = list.into_iter().collect();
        for _ in 0..per_player {
            // The referee would throw on an exhausted queue; no map of §2 can exhaust it.
            while let Some(a) = queue.pop_front() {
                let b = Point::new(size as i32 - 1 - a.x, a.y);
                if let Some(pos) = queue.iter().position(|q| *q == b) {
                    queue.remove(pos);
                    units[0].push(a);
                    units[1].push(b);
                    break;
                }
            }
        }
    } else {
        let mut queue = list.into_iter();
        for player_units in units.iter_mut() {
            for _ in 0..per_player {
                if let Some(p) = queue.next() {
                    player_units.push(p);
                }
            }
        }
    }
    start_state(params.clone(), map_index as usize, heights, units)
}

/// The state before the first turn on a board: `heights[y][x]` (`None`: no cell), the units
/// placed, no score, player 0 to move (§3).
pub fn start_state(
    params: Params,
    map_index: usize,
    heights: Vec<Vec<Option<u8>>>,
    units: [Vec<Point>; 2],
) -> State {
    let records = [vec![None; units[0].len()], vec![None; units[1].len()]];
    State {
        params,
        map_index,
        size: heights.len(),
        heights,
        units,
        scores: [0, 0],
        dead: [false, false],
        won: [false, false],
        round: 0,
        to_move: Some(0),
        game_over: false,
        end_reason: None,
        records,
        last_turn: None,
    }
}
