//! MOVE-turn searches on the bitboard: layered flood fills give distances to the (at most 3)
//! quest items; the greedy walk and the exact best are built on them. Twins of
//! `twinsim_reference::xmas_rush::search::{greedy_walk, most_items}`.

use super::bfs::{edges, Edges};
use super::board::State;
use twinsim_reference::xmas_rush::search::Walk;

/// Not reachable within the budget.
pub const FAR: u8 = u8::MAX;

/// The cells one step from the cells of `reach`.
#[inline]
fn spread(e: Edges, reach: u64) -> u64 {
    reach
        | ((reach & e.right) << 1)
        | ((reach >> 1) & e.right)
        | ((reach & e.down) << 7)
        | ((reach >> 7) & e.down)
}

/// Distances from cell `start` to each of `targets` (cells), [`FAR`] beyond `budget` steps.
#[inline]
pub fn distances_to(e: Edges, start: u8, targets: &[u8], budget: u8) -> [u8; 3] {
    let mut out = [FAR; 3];
    let mut reach = 1u64 << start;
    let mut d = 0u8;
    loop {
        for (slot, &t) in out.iter_mut().zip(targets) {
            if *slot == FAR && reach >> t & 1 == 1 {
                *slot = d;
            }
        }
        if d == budget {
            return out;
        }
        let next = spread(e, reach);
        if next == reach {
            return out;
        }
        reach = next;
        d += 1;
    }
}

/// Player `p`'s revealed quest items that lie on the board, as cells, in quest order (the
/// quest set gives the cells; their item bytes give the order).
#[inline]
pub fn quest_cells(s: &State, p: usize) -> ([u8; 3], usize) {
    // Cells by quest index, then compacted in quest order.
    let mut by_quest = [FAR; 3];
    let mut set = s.quest_sets[p];
    let pl = &s.players[p];
    let quests = &pl.quests[..(pl.quests_len as usize).min(3)];
    while set != 0 {
        let cell = set.trailing_zeros() as u8;
        set &= set - 1;
        let name = s.item_byte(cell).wrapping_sub(1) / 2;
        if let Some(k) = quests.iter().position(|&q| q == name) {
            by_quest[k] = cell;
        }
    }
    let mut cells = [0u8; 3];
    let mut n = 0;
    for cell in by_quest {
        if cell != FAR {
            cells[n] = cell;
            n += 1;
        }
    }
    (cells, n)
}

/// Greedy: nearest quest item first (ties: quest order), then the next, within 20 steps.
/// Twin of [`twinsim_reference::xmas_rush::search::greedy_walk`].
pub fn greedy_walk(s: &State, p: usize) -> Walk {
    let e = edges(s);
    let (mut left, mut n) = quest_cells(s, p);
    let mut cur = s.players[p].y * 7 + s.players[p].x;
    let (mut steps, mut items) = (0u8, 0usize);
    loop {
        let dist = distances_to(e, cur, &left[..n], 20 - steps);
        let mut best: Option<usize> = None;
        for i in 0..n {
            if dist[i] != FAR && (best.is_none() || best.is_some_and(|b| dist[i] < dist[b])) {
                best = Some(i);
            }
        }
        let Some(i) = best else { break };
        steps += dist[i];
        cur = left[i];
        left.copy_within(i + 1..n, i);
        n -= 1;
        items += 1;
    }
    Walk { items, steps: steps as usize, end: ((cur % 7) as usize, (cur / 7) as usize) }
}

/// Exact: the most quest items collectable within 20 steps, over every order of every subset.
/// Twin of [`twinsim_reference::xmas_rush::search::most_items`].
pub fn most_items(s: &State, p: usize) -> usize {
    let e = edges(s);
    let (cells, n) = quest_cells(s, p);
    let start = s.players[p].y * 7 + s.players[p].x;
    // dist[i][j]: from point i (0 = start, 1.. = targets) to target j.
    let mut dist = [[FAR; 3]; 4];
    dist[0] = distances_to(e, start, &cells[..n], 20);
    for i in 0..n {
        dist[i + 1] = distances_to(e, cells[i], &cells[..n], 20);
    }
    fn best(dist: &[[u8; 3]; 4], from: usize, used: u8, n: usize, budget: u8) -> usize {
        let mut most = 0;
        for j in 0..n {
            let d = dist[from][j];
            if used & (1 << j) == 0 && d != FAR && d <= budget {
                most = most.max(1 + best(dist, j + 1, used | (1 << j), n, budget - d));
            }
        }
        most
    }
    best(&dist, 0, 0, n, 20)
}

/// One entry of the move cache (twin of [`twinsim_reference::xmas_rush::search::PushPair`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PushPair {
    /// Cells reachable after the pushes (49-bit set).
    pub reach: u64,
    /// Quests completed during the push turn.
    pub collected: i8,
    /// The most quest items collectable in the following MOVE turn.
    pub most_items: u8,
}

/// The move cache: every pair (push `a` of player `p`, push `b` of the opponent), `[a][b]`,
/// push `k` = line `k / 4`, direction `k % 4`, each resolved as a full turn on a copy of the
/// packed state, written into `out` (no allocation). Twin of
/// [`twinsim_reference::xmas_rush::search::move_cache`].
pub fn move_cache(s: &State, p: usize, out: &mut [[PushPair; 28]; 28]) {
    use super::rules::{play_turn, Answer, NoEvents, PackedAction};
    let push =
        |k: usize| Answer::Action(PackedAction::Push { line: (k / 4) as u8, dir: (k % 4) as u8 });
    let score = s.players[p].score;
    for (a, row) in out.iter_mut().enumerate() {
        for (b, entry) in row.iter_mut().enumerate() {
            let mut next = *s;
            let answers = if p == 0 { [push(a), push(b)] } else { [push(b), push(a)] };
            let _ = play_turn(&mut next, &answers, &mut NoEvents);
            let me = &next.players[p];
            *entry = PushPair {
                reach: super::bfs::reachable(&next, me.x as usize, me.y as usize),
                collected: (me.score - score) as i8,
                most_items: most_items(&next, p) as u8,
            };
        }
    }
}
