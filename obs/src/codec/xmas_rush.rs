//! X-mas Rush: a 7×7 board of tiles, two players.
//!
//! Observation `(23, 7, 7)` int8 planes, `[plane, y, x]`, from the player's own point of view
//! ("my" = the observing player):
//! - 0..4: the tile's paths up, right, down, left (1 = open);
//! - 4: my position; 5: the opponent's position;
//! - 6: items I can collect (mine) lying on the board; 7: the opponent's;
//! - 8: cells holding one of my revealed quests' items; 9: the opponent's;
//! - 10: 1 everywhere on a MOVE turn, 0 on a PUSH turn;
//! - 11, 12: my / the opponent's number of quest cards left (constant planes);
//! - 13..17: my hand tile's paths up, right, down, left (constant planes); 17..21: the opponent's;
//! - 21, 22: one of my / the opponent's quest items sits on that player's hand tile (constant).
//!
//! Actions `Discrete(77)`: index `4·id + d` (0..28) is `PUSH id D` with `D` in UP, RIGHT, DOWN,
//! LEFT; index `28 + 7·y + x` is a MOVE to cell `(x, y)`: the canonical line is the shortest path
//! there (BFS, neighbours tried up, right, down, left; `PASS` for the player's own cell). A cell
//! no path of at most 20 steps reaches is masked; played anyway, its line is the straight path
//! (x first, then y), which the referee judges as it would from a bot.

use super::{int_at, Number};
use std::collections::VecDeque;

/// Shape of an observation.
pub const SHAPE: [usize; 3] = [23, 7, 7];
/// Size of the action space.
pub const NUM_ACTIONS: usize = 28 + 49;
/// First MOVE index.
pub(crate) const MOVE_BASE: usize = 28;
/// Longest MOVE the referee accepts.
pub(crate) const MAX_STEPS: usize = 20;
pub(crate) const DIRECTIONS: [&str; 4] = ["UP", "RIGHT", "DOWN", "LEFT"];
pub(crate) const DX: [i32; 4] = [0, 1, 0, -1];
pub(crate) const DY: [i32; 4] = [-1, 0, 1, 0];

/// One player's side of the table: its latest view, parsed.
#[derive(Clone, Debug, Default)]
pub struct Seat {
    move_turn: bool,
    /// Open paths of every board tile, `[y * 7 + x][direction]`.
    tiles: Vec<[bool; 4]>,
    /// Me, then the opponent.
    players: [PlayerView; 2],
    /// Items: name, x, y, owner (0 = me).
    items: Vec<(String, i32, i32, usize)>,
    /// Revealed quests: name, owner (0 = me).
    quests: Vec<(String, usize)>,
}

#[derive(Clone, Debug, Default)]
struct PlayerView {
    cards: i64,
    x: i32,
    y: i32,
    tile: [bool; 4],
}

fn paths(text: &str) -> [bool; 4] {
    let b = text.as_bytes();
    std::array::from_fn(|d| b.get(d) == Some(&b'1'))
}

impl Seat {
    /// Reads a turn's view (turn type, board, players, items, quests).
    pub fn absorb_view(&mut self, view: &str) {
        let lines: Vec<&str> = view.lines().collect();
        if lines.len() < 11 {
            return;
        }
        self.move_turn = lines[0].trim() == "1";
        self.tiles = lines[1..8].iter().flat_map(|l| l.split_whitespace().map(paths)).collect();
        self.tiles.resize(49, [false; 4]);
        for (p, line) in lines[8..10].iter().enumerate() {
            let tile = line.split_whitespace().nth(3).unwrap_or("");
            self.players[p] = PlayerView {
                cards: int_at(line, 0),
                x: int_at(line, 1) as i32,
                y: int_at(line, 2) as i32,
                tile: paths(tile),
            };
        }
        let num_items = int_at(lines[10], 0).max(0) as usize;
        let item_lines = lines.iter().skip(11).take(num_items);
        self.items = item_lines
            .map(|l| {
                let name = l.split_whitespace().next().unwrap_or("").to_string();
                (name, int_at(l, 1) as i32, int_at(l, 2) as i32, int_at(l, 3) as usize)
            })
            .collect();
        let quest_at = 11 + num_items;
        let num_quests = lines.get(quest_at).map_or(0, |l| int_at(l, 0).max(0) as usize);
        self.quests = lines
            .iter()
            .skip(quest_at + 1)
            .take(num_quests)
            .map(|l| (l.split_whitespace().next().unwrap_or("").to_string(), int_at(l, 1) as usize))
            .collect();
    }

    /// The latest view asked for a MOVE.
    pub fn is_move_turn(&self) -> bool {
        self.move_turn
    }

    /// Writes the planes documented at the top of this module.
    pub fn encode<T: Number>(&self, out: &mut [T]) {
        if self.tiles.len() != 49 {
            return;
        }
        let mut set = |plane: usize, x: i32, y: i32, value: i64| {
            if (0..7).contains(&x) && (0..7).contains(&y) {
                out[plane * 49 + y as usize * 7 + x as usize] = T::of(value);
            }
        };
        for (cell, open) in self.tiles.iter().enumerate() {
            for (d, is_open) in open.iter().enumerate() {
                set(d, (cell % 7) as i32, (cell / 7) as i32, i64::from(*is_open));
            }
        }
        for (p, player) in self.players.iter().enumerate() {
            set(4 + p, player.x, player.y, 1);
        }
        let is_quest =
            |name: &str, owner: usize| self.quests.iter().any(|(n, o)| n == name && *o == owner);
        let mut held = [false; 2];
        for (name, x, y, owner) in &self.items {
            let owner = (*owner).min(1);
            set(6 + owner, *x, *y, 1);
            if is_quest(name, owner) {
                set(8 + owner, *x, *y, 1);
                // -1: on my hand tile, -2: on the opponent's.
                if *x < 0 && (-*x - 1) as usize == owner {
                    held[owner] = true;
                }
            }
        }
        for y in 0..7 {
            for x in 0..7 {
                set(10, x, y, i64::from(self.move_turn));
                for (p, player) in self.players.iter().enumerate() {
                    set(11 + p, x, y, player.cards);
                    for d in 0..4 {
                        set(13 + 4 * p + d, x, y, i64::from(player.tile[d]));
                    }
                    set(21 + p, x, y, i64::from(held[p]));
                }
            }
        }
    }

    fn open(&self, x: i32, y: i32, d: usize) -> bool {
        let (nx, ny) = (x + DX[d], y + DY[d]);
        (0..7).contains(&nx)
            && (0..7).contains(&ny)
            && self.tiles[(y * 7 + x) as usize][d]
            && self.tiles[(ny * 7 + nx) as usize][(d + 2) % 4]
    }

    /// Shortest paths from my cell (see [`bfs`]).
    fn bfs(&self) -> ([usize; 49], [usize; 49]) {
        let me = &self.players[0];
        if self.tiles.len() != 49 || !(0..7).contains(&me.x) || !(0..7).contains(&me.y) {
            return ([usize::MAX; 49], [usize::MAX; 49]);
        }
        bfs((me.y * 7 + me.x) as usize, |x, y, d| self.open(x, y, d))
    }

    /// Marks every cell a MOVE of at most 20 steps reaches (my own cell: PASS).
    pub fn move_mask(&self, out: &mut [i8]) {
        let (_, dist) = self.bfs();
        for (cell, d) in dist.iter().enumerate() {
            if *d <= MAX_STEPS {
                out[MOVE_BASE + cell] = 1;
            }
        }
    }

    /// The index a PUSH line or a MOVE path stands for (a path: the cell it ends on).
    pub fn index_of(&self, line: &str) -> Option<usize> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("PUSH") if words.len() == 3 => {
                let id: usize = words[1].parse().ok().filter(|i| *i < 7)?;
                let d = DIRECTIONS.iter().position(|n| *n == words[2])?;
                Some(4 * id + d)
            }
            Some("PASS") => self.cell_index(self.players[0].x, self.players[0].y),
            Some("MOVE") => {
                let (mut x, mut y) = (self.players[0].x, self.players[0].y);
                for word in &words[1..] {
                    let d = DIRECTIONS.iter().position(|n| n == word)?;
                    x += DX[d];
                    y += DY[d];
                }
                self.cell_index(x, y)
            }
            _ => None,
        }
    }

    fn cell_index(&self, x: i32, y: i32) -> Option<usize> {
        ((0..7).contains(&x) && (0..7).contains(&y)).then(|| MOVE_BASE + (y * 7 + x) as usize)
    }

    /// The canonical line of `index` (documented at the top of this module).
    pub fn line(&self, index: usize) -> String {
        if index < MOVE_BASE {
            return format!("PUSH {} {}", index / 4, DIRECTIONS[index % 4]);
        }
        let target = index - MOVE_BASE;
        let me = &self.players[0];
        let (came, dist) = self.bfs();
        let steps: Vec<&str> =
            path(&came, &dist, (me.x, me.y), target).into_iter().map(|d| DIRECTIONS[d]).collect();
        if steps.is_empty() {
            "PASS".to_string()
        } else {
            format!("MOVE {}", steps.join(" "))
        }
    }
}

/// Shortest paths from cell `start` where `open(x, y, d)` says a step from `(x, y)` towards `d`
/// is possible: for every cell, the direction taken to enter it and its distance
/// (`usize::MAX`: unreachable). Neighbours are tried up, right, down, left.
pub(crate) fn bfs(
    start: usize,
    open: impl Fn(i32, i32, usize) -> bool,
) -> ([usize; 49], [usize; 49]) {
    let mut came = [usize::MAX; 49];
    let mut dist = [usize::MAX; 49];
    dist[start] = 0;
    let mut queue = VecDeque::with_capacity(49);
    queue.push_back(start);
    while let Some(cell) = queue.pop_front() {
        let (x, y) = ((cell % 7) as i32, (cell / 7) as i32);
        for d in 0..4 {
            if open(x, y, d) {
                let next = ((y + DY[d]) * 7 + x + DX[d]) as usize;
                if dist[next] == usize::MAX {
                    dist[next] = dist[cell] + 1;
                    came[next] = d;
                    queue.push_back(next);
                }
            }
        }
    }
    (came, dist)
}

/// The directions of the canonical MOVE from `from` to cell `target`, given [`bfs`]'s result:
/// the shortest path if there is one, else the straight path (x first, then y).
pub(crate) fn path(
    came: &[usize; 49],
    dist: &[usize; 49],
    from: (i32, i32),
    target: usize,
) -> Vec<usize> {
    let mut steps = Vec::new();
    if dist[target] != usize::MAX {
        let mut cell = target;
        while dist[cell] > 0 {
            let d = came[cell];
            steps.push(d);
            let (x, y) = ((cell % 7) as i32 - DX[d], (cell / 7) as i32 - DY[d]);
            cell = (y * 7 + x) as usize;
        }
        steps.reverse();
    } else {
        let (tx, ty) = ((target % 7) as i32, (target / 7) as i32);
        let horizontal = if tx > from.0 { 1 } else { 3 };
        let vertical = if ty > from.1 { 2 } else { 0 };
        steps.extend(std::iter::repeat_n(horizontal, (tx - from.0).unsigned_abs() as usize));
        steps.extend(std::iter::repeat_n(vertical, (ty - from.1).unsigned_abs() as usize));
    }
    steps
}
