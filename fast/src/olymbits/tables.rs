//! Tables generated once from the reference generator: every hurdle track the referee can
//! draw (1280 equally likely draws → 251 tracks), each solved (turns to finish and best
//! actions from every cell and stun), and the wind thresholds.

use std::collections::HashMap;
use std::sync::OnceLock;
use twinsim_reference::olymbits::setup::{hurdle_track, WIND_CUMULATIVE_BITS};

/// Cells of a track.
pub const CELLS: usize = 30;
/// The finish cell.
pub const FINISH: usize = 29;
/// Number of distinct tracks (§4.2).
pub const TRACK_COUNT: usize = 251;
/// Track id of a track that is not one of the 251 (only in hand-made states).
pub const UNKNOWN_TRACK: u8 = u8::MAX;

/// A solved position: turns to reach cell 29 and the bit set of best actions (bit `a` for
/// action code `a`: 0 UP, 1 DOWN, 2 LEFT, 3 RIGHT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Solved {
    /// Ticks until the runner stands on cell 29 with best play (0 on cell 29).
    pub turns: u8,
    /// Actions reaching that (all four while stunned or finished).
    pub best: u8,
}

/// All hurdle tables.
pub struct HurdleTables {
    /// Track id of draw `(start * 4 + count) * 64 + pattern` (bit k of `pattern`: k-th
    /// `nextBoolean`).
    pub draw_to_track: [u8; 1280],
    /// The 251 tracks as bit masks (bit `x` set: hurdle on cell `x`), in ASCII order of
    /// their text (the reference's `hurdle_tracks()` order).
    pub masks: [u32; TRACK_COUNT],
    /// Weight of each track out of 1280.
    pub weights: [u16; TRACK_COUNT],
    /// `solved[(track * 30 + cell) * 3 + stun]`.
    pub solved: Vec<Solved>,
    /// Mask → track id.
    pub index: HashMap<u32, u8>,
}

/// The bit mask of a track text (`#` cells).
pub fn mask_of(map: &[u8]) -> u32 {
    map.iter().enumerate().filter(|(_, c)| **c == b'#').fold(0, |m, (x, _)| m | 1 << x)
}

/// One runner's hurdle move (§4.3 for a single player, not stunned, not finished): the new
/// cell and whether it hit a hurdle. Reference twin: `twinsim_reference::olymbits::HurdleRace::tick`.
#[inline]
pub fn hurdle_move(mask: u32, pos: u32, action: u8) -> (u32, bool) {
    let steps = [2u32, 2, 1, 3][action as usize & 3];
    let mut jump = action == 0;
    let mut p = pos;
    for _ in 0..steps {
        p = (p + 1).min(FINISH as u32);
        if mask >> p & 1 != 0 && !jump {
            return (p, true);
        }
        if p == FINISH as u32 {
            return (p, false);
        }
        jump = false;
    }
    (p, false)
}

fn solve(mask: u32) -> Vec<Solved> {
    let mut t = vec![Solved::default(); CELLS * 3];
    let at = |cell: usize, stun: usize| cell * 3 + stun;
    for cell in (0..CELLS).rev() {
        if cell == FINISH {
            for stun in 0..3 {
                t[at(cell, stun)] = Solved { turns: 0, best: 0b1111 };
            }
            continue;
        }
        let mut best_turns = u8::MAX;
        let mut best = 0u8;
        for action in 0..4u8 {
            let (p, hit) = hurdle_move(mask, cell as u32, action);
            let turns = 1 + t[at(p as usize, if hit { 2 } else { 0 })].turns;
            if turns < best_turns {
                best_turns = turns;
                best = 0;
            }
            if turns == best_turns {
                best |= 1 << action;
            }
        }
        t[at(cell, 0)] = Solved { turns: best_turns, best };
        t[at(cell, 1)] = Solved { turns: best_turns + 1, best: 0b1111 };
        t[at(cell, 2)] = Solved { turns: best_turns + 2, best: 0b1111 };
    }
    t
}

fn build() -> HurdleTables {
    let mut texts: Vec<Vec<u8>> = Vec::with_capacity(1280);
    for start in 0..5 {
        for count in 0..4 {
            for pattern in 0u32..64 {
                let mut k = 0;
                texts.push(hurdle_track(start, count, || {
                    let bit = pattern >> k & 1 == 1;
                    k += 1;
                    bit
                }));
            }
        }
    }
    let mut distinct = texts.clone();
    distinct.sort();
    distinct.dedup();
    let mut masks = [0u32; TRACK_COUNT];
    let mut weights = [0u16; TRACK_COUNT];
    let mut index = HashMap::new();
    for (id, text) in distinct.iter().enumerate().take(TRACK_COUNT) {
        masks[id] = mask_of(text);
        index.insert(masks[id], id as u8);
    }
    let mut draw_to_track = [0u8; 1280];
    for (d, text) in texts.iter().enumerate() {
        let id = index[&mask_of(text)];
        draw_to_track[d] = id;
        weights[id as usize] += 1;
    }
    let solved = masks.iter().flat_map(|m| solve(*m)).collect();
    HurdleTables { draw_to_track, masks, weights, solved, index }
}

/// The tables, built on first use.
pub fn hurdle_tables() -> &'static HurdleTables {
    static TABLES: OnceLock<HurdleTables> = OnceLock::new();
    TABLES.get_or_init(build)
}

/// Best actions and turns to finish for a runner on `cell` with stun `stun` of track `track`
/// (one lookup). Reference twin: a search over `twinsim_reference::olymbits::HurdleRace::tick`
/// (`check::reference_hurdle_solution`).
#[inline]
pub fn hurdle_solution(tables: &HurdleTables, track: u8, cell: u8, stun: u8) -> Solved {
    tables.solved[(track as usize * CELLS + cell as usize) * 3 + stun as usize]
}

/// §5.1 wind thresholds as doubles.
pub fn wind_thresholds() -> [f64; 10] {
    WIND_CUMULATIVE_BITS.map(f64::from_bits)
}
