//! Path searches a bot runs in a MOVE turn, written plainly (rules doc §7.2 steps, §6 collects):
//! distances by breadth-first search, the greedy "nearest quest item first, then the next"
//! walk, and the exact "most quest items this move" search. Reference twins of the fast
//! crate's bitboard searches.

use super::rules::step_target;
use super::state::*;
use crate::game::PlayerId;
use std::collections::VecDeque;

/// Shortest number of valid steps from `(x, y)` to every cell (`None`: unreachable).
pub fn distances(state: &State, x: usize, y: usize) -> [[Option<usize>; SIZE]; SIZE] {
    let mut dist = [[None; SIZE]; SIZE];
    if x >= SIZE || y >= SIZE {
        return dist;
    }
    dist[x][y] = Some(0);
    let mut queue = VecDeque::from([(x, y)]);
    while let Some((cx, cy)) = queue.pop_front() {
        let here = dist[cx][cy].unwrap_or(0);
        for d in Direction::ALL {
            if let Some((nx, ny)) = step_target(state, cx, cy, d) {
                if dist[nx][ny].is_none() {
                    dist[nx][ny] = Some(here + 1);
                    queue.push_back((nx, ny));
                }
            }
        }
    }
    dist
}

/// The board cells of player `p`'s revealed quest items, in quest order (items on a hand tile
/// cannot be collected and are left out).
pub fn quest_cells(state: &State, p: PlayerId) -> Vec<(usize, usize)> {
    let mut cells = Vec::new();
    for name in &state.players[p].quests {
        if let Some(ItemPlace::Board(x, y)) = state.find_item(Item { name: *name, owner: p }) {
            cells.push((x, y));
        }
    }
    cells
}

/// What a walk achieved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Walk {
    /// Quest items collected.
    pub items: usize,
    /// Steps used (at most 20).
    pub steps: usize,
    /// Where the walk ends.
    pub end: (usize, usize),
}

/// Greedy: from player `p`'s cell, walk to the nearest quest item not yet collected (ties: the
/// earliest in quest order) while the total stays within 20 steps; repeat from there.
pub fn greedy_walk(state: &State, p: PlayerId) -> Walk {
    let mut left = quest_cells(state, p);
    let mut walk = Walk { items: 0, steps: 0, end: (state.players[p].x, state.players[p].y) };
    loop {
        let dist = distances(state, walk.end.0, walk.end.1);
        let mut best: Option<(usize, usize)> = None; // (distance, index in `left`)
        for (i, &(x, y)) in left.iter().enumerate() {
            if let Some(d) = dist[x][y] {
                if walk.steps + d <= MAX_STEPS
                    && (best.is_none() || best.is_some_and(|(bd, _)| d < bd))
                {
                    best = Some((d, i));
                }
            }
        }
        let Some((d, i)) = best else { return walk };
        walk.steps += d;
        walk.end = left.remove(i);
        walk.items += 1;
    }
}

/// Exact: the most quest items player `p` can collect this MOVE turn (within 20 steps), trying
/// every order of every subset of his quest items (at most 3).
pub fn most_items(state: &State, p: PlayerId) -> usize {
    let start = (state.players[p].x, state.players[p].y);
    let targets = quest_cells(state, p);
    fn best(state: &State, from: (usize, usize), left: &[(usize, usize)], budget: usize) -> usize {
        let dist = distances(state, from.0, from.1);
        let mut most = 0;
        for (i, &(x, y)) in left.iter().enumerate() {
            if let Some(d) = dist[x][y] {
                if d <= budget {
                    let mut rest = left.to_vec();
                    rest.remove(i);
                    most = most.max(1 + best(state, (x, y), &rest, budget - d));
                }
            }
        }
        most
    }
    best(state, start, &targets, MAX_STEPS)
}

/// One entry of the move cache: what a pair of pushes leaves player `p`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PushPair {
    /// Every cell `p` can reach in the MOVE turn that follows (BFS order).
    pub reachable: Vec<(usize, usize)>,
    /// Quests `p` completed during the push turn (collects after the push groups, §7.1).
    pub collected: i64,
    /// The most quest items `p` can then collect in the MOVE turn ([`most_items`]).
    pub most_items: usize,
}

/// The runner-up's move cache, written as the plain loop: for a position at a PUSH turn, every
/// pair (push `a` of player `p`, push `b` of the opponent), indexed `[a][b]` with push `k` =
/// line `k / 4`, direction index `k % 4` (the order of the legal actions), resolved as a full
/// game turn (§4, §7.1).
pub fn move_cache(state: &State, p: PlayerId) -> Vec<Vec<PushPair>> {
    use super::actions::Action;
    use super::rules::{play_turn, reachable, Answer};
    let push = |k: usize| Action::Push { line: k / 4, direction: Direction::ALL[k % 4] };
    let mut cache = Vec::new();
    for a in 0..28 {
        let mut row = Vec::new();
        for b in 0..28 {
            let mut next = state.clone();
            let mut answers = [Answer::Action(push(a)), Answer::Action(push(b))];
            if p == 1 {
                answers.swap(0, 1);
            }
            let _ = play_turn(&mut next, &answers);
            let me = &next.players[p];
            row.push(PushPair {
                reachable: reachable(&next, me.x, me.y),
                collected: me.score - state.players[p].score,
                most_items: most_items(&next, p),
            });
        }
        cache.push(row);
    }
    cache
}
