//! §4 setup (twin: `twinsim_reference::photosynthesis::setup`).

// Masks and tables are indexed by cell and size on purpose: the index is the cell.
#![allow(clippy::needless_range_loop)]

use super::tables::*;
use super::*;
use twinsim_reference::photosynthesis as r;
use twinsim_reference::photosynthesis::Params;

impl State {
    // --- §4 setup ---------------------------------------------------------------------------

    /// Seeded setup (twin: `twinsim_reference::photosynthesis::setup::new_game`): holes, starting trees,
    /// shadows, the day-0 gathering. Events go to `events` when given.
    pub fn new_game(seed: i64, params: Params, events: Option<&mut Vec<String>>) -> State {
        let mut st = State {
            size: [0; 4],
            owner: [0; 2],
            dormant: 0,
            holes: 0,
            shadow: [0; 4],
            sun: [0; 2],
            score: [0; 2],
            nutrients: 20,
            day: 0,
            sun_direction: 0,
            league: params.league_level,
            flags: 0,
            executions: 0,
            rng: (seed as u64 ^ MULTIPLIER) & MASK48,
            pending: Pending::default(),
            exact_views: true,
            seed_reach: [0; 2],
            hash: 0,
        };
        let full = st.league >= 3;
        if full {
            let wanted = next_int(&mut st.rng, 11);
            let mut actual = 0;
            while actual < wanted - 1 {
                let cell = r::board::HASHMAP_ORDER[next_int(&mut st.rng, 37) as usize];
                if st.holes >> cell & 1 == 0 {
                    st.holes |= 1 << cell;
                    actual += 1;
                    if cell != 0 {
                        st.holes |= 1 << MIRROR[cell];
                        actual += 1;
                    }
                }
            }
        }
        let (count, distance, size) = match st.league {
            0 | 1 => (6, 0, 3u8),
            2 => (4, 1, 1),
            _ => (2, 2, 1),
        };
        let candidates: u64 = if full { (ALL ^ ((1 << 19) - 1)) & !st.holes } else { ALL & !1 };
        let mut picked = [0usize; 12];
        for _attempt in 0..1_000_000 {
            let mut avail = candidates;
            let mut n = 0;
            for _ in 0..count {
                if avail == 0 {
                    break;
                }
                let k = next_int(&mut st.rng, avail.count_ones() as i32) as u32;
                let c = nth_bit(avail, k);
                let m = MIRROR[c] as usize;
                avail &= !(WITHIN[c][distance] | WITHIN[m][distance]);
                picked[n] = c;
                picked[n + 1] = m;
                n += 2;
            }
            if n >= 2 * count {
                break;
            }
        }
        for i in 0..count {
            st.put_tree::<false>(picked[2 * i], size, 0, false);
            st.put_tree::<false>(picked[2 * i + 1], size, 1, false);
        }
        st.seed_reach = st.seed_reach_from_scratch();
        if full {
            st.compute_shadows();
        }
        st.gathering(events);
        st
    }
}
