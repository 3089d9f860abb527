//! §3 The game RNG and the seed, §4 Setup: holes, starting trees, the first shadows, and the
//! day-0 GATHERING frame that precedes the first decision point.

use super::board::{self, HASHMAP_ORDER, NUM_CELLS};
use super::rules;
use super::state::{Params, State, Tree};

/// `MAX_EMPTY_CELLS` (§4a).
pub const MAX_EMPTY_CELLS: i32 = 10;

/// How many failed starting-tree attempts are tolerated before setup gives up retrying (§4b).
/// The referee retries forever; no board reachable from §4a needs more than a handful, so this
/// bound only exists so that the library cannot hang.
const MAX_ATTEMPTS: usize = 1_000_000;

/// The whole setup (§4): `random = new Random(seed)` (§3), holes (§4a), starting trees (§4b),
/// shadows for direction 0 (§4b step 4), then the GATHERING of day 0 (§5). Returns the state at
/// the first decision point and the day-0 gathering events (`setup_events`, §13a item 8).
///
/// The only `setup::new_game` that returns events beside the state: Photosynthesis' setup
/// plays a frame of its own (the day-0 gathering), whose events the traces record.
pub fn new_game(seed: i64, params: Params) -> (State, Vec<String>) {
    let mut state = State::blank(seed, params);
    dig_holes(&mut state);
    plant_starting_trees(&mut state);
    if params.full_rules() {
        rules::compute_shadows(&mut state);
    }
    let mut events = vec![];
    rules::gathering(&mut state, &mut events);
    (state, events)
}

/// §4a Holes: `wanted = nextInt(11)`; while `actual < wanted − 1` draw `k = nextInt(37)` and dig
/// `L[k]` and its mirror unless it is already a hole (the centre counts once). Leagues 1 and 2
/// make no draw and dig nothing.
pub fn dig_holes(state: &mut State) {
    if !state.params.full_rules() {
        return;
    }
    let wanted = state.rng.next_below(MAX_EMPTY_CELLS + 1);
    let mut actual = 0;
    while actual < wanted - 1 {
        let k = state.rng.next_below(NUM_CELLS as i32) as usize;
        let cell = HASHMAP_ORDER[k];
        if state.richness[cell] != 0 {
            state.richness[cell] = 0;
            actual += 1;
            if cell != 0 {
                state.richness[board::mirror(cell)] = 0;
                actual += 1;
            }
        }
    }
}

/// §4b step 1: the candidate cells for starting trees, in ascending index order: ring 3 minus
/// holes (league ≥ 3), every cell but the centre (leagues 1 and 2).
pub fn starting_candidates(state: &State) -> Vec<usize> {
    if state.params.full_rules() {
        (19..NUM_CELLS).filter(|&c| state.richness[c] != 0).collect()
    } else {
        (1..NUM_CELLS).collect()
    }
}

/// §4b step 2 `attempt()`: pick a cell and its mirror `STARTING_TREE_COUNT` times, each pick
/// removing every candidate within `STARTING_TREE_DISTANCE` of either; may return a partial list.
pub fn attempt(state: &mut State, candidates: &[usize]) -> Vec<usize> {
    let count = state.params.starting_tree_count();
    let dist = state.params.starting_tree_distance();
    let mut avail = candidates.to_vec();
    let mut out = vec![];
    for _ in 0..count {
        if avail.is_empty() {
            return out;
        }
        let c = avail[state.rng.next_below(avail.len() as i32) as usize];
        let m = board::mirror(c);
        avail.retain(|&d| board::distance(d, c) > dist && board::distance(d, m) > dist);
        out.push(c);
        out.push(m);
    }
    out
}

/// §4b steps 2–3: retry `attempt()` until it yields `2 · STARTING_TREE_COUNT` cells, then give
/// player 0 the even entries and player 1 the odd ones (the mirrors), not dormant.
pub fn plant_starting_trees(state: &mut State) {
    let count = state.params.starting_tree_count();
    let size = state.params.starting_tree_size();
    let candidates = starting_candidates(state);
    let mut cells = attempt(state, &candidates);
    let mut tries = 1;
    while cells.len() < 2 * count && tries < MAX_ATTEMPTS {
        cells = attempt(state, &candidates);
        tries += 1;
    }
    for pair in cells.chunks(2) {
        for (owner, &cell) in pair.iter().enumerate() {
            state.trees.insert(cell, Tree { size, owner, dormant: false });
        }
    }
}
