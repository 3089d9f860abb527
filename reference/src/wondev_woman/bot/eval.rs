//! The Voronoi evaluation of the contest runner-up's seed (postmortem "Evaluation"), written
//! plainly: it is not part of the rules, but the reference twin of the fast engine's evaluation.
//!
//! - Movement graph: from cell `a` a unit may step to a neighbour `b` that exists, is no dome,
//!   holds no unit, and has `h(b) <= h(a) + 1` (§5 checks 1 to 4).
//! - Each side's distance to every cell is a breadth-first search from its units.
//! - A cell belongs to the side that reaches it first; the side to move wins ties.
//! - Accessible neighbours: per unit, the cells it could step to right now.
//! - `score = 2 * (voronoi0 - voronoi1) + (score0 - score1) + (access0 - access1)`.

use crate::wondev_woman::state::{Dir, Point, State};
use std::collections::VecDeque;

/// The parts of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Voronoi {
    /// Cells owned by each player.
    pub owned: [u32; 2],
    /// Accessible neighbour cells of each player's units.
    pub access: [u32; 2],
}

/// Whether a unit at `from` may step onto `to` (movement graph, units block).
pub fn can_step(state: &State, from: Point, to: Point) -> bool {
    let (Some(hf), Some(ht)) = (state.height(from), state.height(to)) else {
        return false;
    };
    ht < 4 && ht <= hf + 1 && state.unit_at(to).is_none()
}

/// Breadth-first distances from `player`'s units (`None`: unreachable).
pub fn distances(state: &State, player: usize) -> Vec<Vec<Option<u32>>> {
    let n = state.size;
    let mut dist = vec![vec![None; n]; n];
    let mut queue = VecDeque::new();
    for &u in &state.units[player] {
        dist[u.y as usize][u.x as usize] = Some(0);
        queue.push_back(u);
    }
    while let Some(p) = queue.pop_front() {
        let d = dist[p.y as usize][p.x as usize].unwrap_or(0);
        for dir in Dir::ALL {
            let q = p.neighbour(dir);
            if can_step(state, p, q) && dist[q.y as usize][q.x as usize].is_none() {
                dist[q.y as usize][q.x as usize] = Some(d + 1);
                queue.push_back(q);
            }
        }
    }
    dist
}

/// The Voronoi counts and accessible neighbours of `state` (ties to the player to move;
/// player 0 when the game is over).
pub fn voronoi(state: &State) -> Voronoi {
    let mover = state.to_move.unwrap_or(0);
    let d = [distances(state, 0), distances(state, 1)];
    let mut out = Voronoi::default();
    for p in state.cells() {
        if state.unit_at(p).is_some() {
            continue;
        }
        let (x, y) = (p.x as usize, p.y as usize);
        let owner = match (d[0][y][x], d[1][y][x]) {
            (Some(a), Some(b)) if a < b => Some(0),
            (Some(a), Some(b)) if b < a => Some(1),
            (Some(_), Some(_)) => Some(mover),
            (Some(_), None) => Some(0),
            (None, Some(_)) => Some(1),
            (None, None) => None,
        };
        if let Some(o) = owner {
            out.owned[o] += 1;
        }
    }
    for player in 0..2 {
        for &u in &state.units[player] {
            for dir in Dir::ALL {
                if can_step(state, u, u.neighbour(dir)) {
                    out.access[player] += 1;
                }
            }
        }
    }
    out
}

/// `2 * voronoi difference + score difference + accessible neighbours difference`, from player
/// 0's point of view.
pub fn evaluate(state: &State) -> i32 {
    let v = voronoi(state);
    2 * (v.owned[0] as i32 - v.owned[1] as i32)
        + (state.scores[0] - state.scores[1])
        + (v.access[0] as i32 - v.access[1] as i32)
}
