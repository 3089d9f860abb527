//! X-mas Rush's typed lane: the fast packed state; the planes, numbering, mask and canonical
//! MOVE paths of `codec::xmas_rush` from the state.
//!
//! What the view shows, and only that: the board, both positions and hand tiles, every item in
//! the game with its owner, the revealed quest cards of both players and each player's number of
//! cards; the hidden quest stacks (which card comes next) never reach an observation, only their
//! sizes. Both players get a view every turn. A MOVE index stands for the shortest path the
//! codec finds on the view's board (BFS, neighbours tried up, right, down, left), found here on
//! the same board.

use super::Rules;
use crate::codec::xmas_rush::{bfs, path, DIRECTIONS, DX, DY, MAX_STEPS, MOVE_BASE};
use crate::codec::{spread, Number};
use twinsim_fast::xmas_rush::typed::path_tree;
use twinsim_fast::xmas_rush::{bfs, play_turn, Answer, NoEvents, PackedAction, State};
use twinsim_reference::xmas_rush::{self as r, League, TurnType};

/// The league.
pub struct XmasRush {
    league: League,
}

impl XmasRush {
    /// From a trace's params object.
    pub fn new(params: &serde_json::Value) -> Result<XmasRush, String> {
        Ok(XmasRush { league: r::league_from_params(params)? })
    }
}

/// Whether a step from `(x, y)` towards `d` stays on the board through two open paths.
fn open(s: &State, x: i32, y: i32, d: usize) -> bool {
    let (nx, ny) = (x + DX[d], y + DY[d]);
    (0..7).contains(&nx)
        && (0..7).contains(&ny)
        && s.tile(x as usize, y as usize) >> d & 1 == 1
        && s.tile(nx as usize, ny as usize) >> ((d + 2) % 4) & 1 == 1
}

/// The answer action `index` of `player` stands for: the codec's canonical line. A MOVE is the
/// path the codec's breadth-first search keeps, which is the one the fast twin's [`path_tree`]
/// keeps (both are twins of the reference's `shortest_paths`).
fn answer(s: &State, player: usize, index: usize) -> Answer {
    if index < MOVE_BASE {
        return Answer::Action(PackedAction::Push {
            line: (index / 4) as u8,
            dir: (index % 4) as u8,
        });
    }
    let me = &s.players[player];
    let (x, y) = (usize::from(me.x), usize::from(me.y));
    let cell = (index - MOVE_BASE) as u8;
    if x < 7 && y < 7 {
        let tree = path_tree(s, x, y);
        let reached = tree.order[..tree.len].contains(&cell);
        // `path_to`: `None` past 20 steps.
        if let Some(path) = tree.path_to(cell).filter(|_| reached) {
            let mut steps = [0u8; MAX_STEPS];
            for (slot, d) in steps.iter_mut().zip(path) {
                *slot = d.index() as u8;
            }
            return Answer::Action(match path.len() {
                0 => PackedAction::Pass,
                len => PackedAction::Move { steps, len: len as u8 },
            });
        }
    }
    // Unreachable, or too far for the referee: the codec's straight or too long line, read
    // as the referee reads it (cold path).
    let (came, dist) = if x < 7 && y < 7 {
        bfs(y * 7 + x, |x, y, d| open(s, x, y, d))
    } else {
        ([usize::MAX; 49], [usize::MAX; 49])
    };
    let steps = path(&came, &dist, (i32::from(me.x), i32::from(me.y)), usize::from(cell));
    let words: Vec<&str> = steps.iter().map(|d| DIRECTIONS[*d]).collect();
    let line = format!("MOVE {}", words.join(" "));
    Answer::from_reference(&r::Answer::from_line(Some(&line)))
}

/// The cells holding each player's items, as two 49-bit sets, from the state's item bytes (a
/// byte per cell: `id + 1`, the owner being `id % 2`) a row of seven cells at a time: a byte's
/// lowest bit says which player owns it, and one multiplication gathers a bit from each byte.
fn items_by_owner(state: &State) -> [u64; 2] {
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;
    const LOW_7_BITS: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // Byte i's lowest bit lands on bit 56 + i, and no two partial products meet or carry.
    let gather = |bytes: u64| bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let mut owned = [0u64; 2];
    for (y, &row) in state.item_rows.iter().enumerate() {
        // The highest bit of each byte that is not zero (item bytes are below 128), moved down.
        let occupied = ((row & LOW_7_BITS).wrapping_add(LOW_7_BITS) | row) >> 7 & LOW_BITS;
        // `id + 1` odd: an even id, player 0's.
        let first = row & LOW_BITS;
        owned[0] |= gather(first) << (7 * y);
        owned[1] |= gather(occupied & !first) << (7 * y);
    }
    owned
}

impl Rules for XmasRush {
    type State = State;
    const PLAYERS: usize = 2;
    // The turn that ends the game sends no view: each seat's final observation is its last
    // view, as on the view path (and in the PettingZoo envs).
    const VIEWS_MAY_SKIP: bool = true;

    fn setup(&self, seed: i64) -> Result<State, String> {
        Ok(State::new_game(seed, self.league))
    }

    fn is_over(state: &State) -> bool {
        state.game_over
    }

    fn to_act(state: &State, out: &mut [bool]) {
        out.fill(!state.game_over);
    }

    fn play(&mut self, state: &mut State, indices: &[i64], _to_act: &[bool]) {
        let answers = [0, 1].map(|p| answer(state, p, indices[p] as usize));
        // The game is not over and both players answer: nothing can be refused.
        let _ = play_turn(state, &answers, &mut NoEvents);
    }

    fn scores(state: &State, out: &mut [f64]) {
        for (p, score) in out.iter_mut().enumerate() {
            *score = state.players[p].score as f64;
        }
    }

    fn ranks(state: &State) -> Option<Vec<usize>> {
        if !state.game_over {
            return None;
        }
        // Once per game: the outcome object the view path reads, read the same way.
        Some(r::json::trace_outcome(&state.to_reference())?.ranks)
    }

    fn sends_view(state: &State, _player: usize) -> bool {
        // Every turn's view goes to both players, but for the last turn's (the referee ends
        // the game instead of sending one).
        !state.game_over
    }

    // Both players read the same view, but each seat is encoded on its own: a seat's planes are
    // the other's with "my" and "the opponent's" swapped, yet copying and swapping the rows
    // (`SHARED_VIEW`) measured slower than writing them again from the state's bit sets.

    /// Planes 0–9 are spread from bit sets over the 49 cells, 10–22 filled: every number is
    /// written.
    const WHOLE_OBSERVATION: bool = true;

    fn encode<T: Number>(state: &State, player: usize, out: &mut [T]) {
        let seats = [player, 1 - player];
        // Planes 4–9 as cell sets, mine then the opponent's: positions, items, quest items.
        let mut position = [0u64; 2];
        for (side, &p) in seats.iter().enumerate() {
            let pl = &state.players[p];
            if pl.x < 7 && pl.y < 7 {
                position[side] = 1 << (usize::from(pl.y) * 7 + usize::from(pl.x));
            }
        }
        let owned = items_by_owner(state);
        let items = seats.map(|p| owned[p]);
        // The fast state keeps each player's revealed quest items' cells, and whether the item
        // on a hand tile is one of them.
        let quest_items = seats.map(|p| state.quest_sets[p]);
        let held = seats.map(|p| state.hand_quests[p] >> p & 1 == 1);
        let [up, right, down, left] = state.open;
        let sets = [up, right, down, left, position[0], position[1]];
        let sets = sets.into_iter().chain(items).chain(quest_items);
        for (plane, cells) in out[..10 * 49].chunks_exact_mut(49).zip(sets) {
            spread(cells, plane);
        }
        let move_turn = i64::from(state.turn_type == TurnType::Move);
        out[10 * 49..11 * 49].fill(T::of(move_turn));
        for (side, &p) in seats.iter().enumerate() {
            let pl = &state.players[p];
            let cards = i64::from(pl.deck_len) + i64::from(pl.quests_len);
            out[(11 + side) * 49..(12 + side) * 49].fill(T::of(cards));
            for d in 0..4 {
                let plane = 13 + 4 * side + d;
                out[plane * 49..(plane + 1) * 49].fill(T::of(i64::from(state.hands[p] >> d & 1)));
            }
            out[(21 + side) * 49..(22 + side) * 49].fill(T::of(i64::from(held[side])));
        }
    }

    fn mask(state: &State, player: usize, out: &mut [i8]) {
        if state.turn_type == TurnType::Push {
            out[..MOVE_BASE].fill(1);
            return;
        }
        // The cells within MAX_STEPS steps: the fast twin's flood, one layer per step.
        let me = &state.players[player];
        if me.x >= 7 || me.y >= 7 {
            return;
        }
        let edges = bfs::edges(state);
        let mut reach = 1u64 << (usize::from(me.y) * 7 + usize::from(me.x));
        for _ in 0..MAX_STEPS {
            let next = bfs::flood_step(edges, reach);
            if next == reach {
                break;
            }
            reach = next;
        }
        spread(reach, &mut out[MOVE_BASE..MOVE_BASE + 49]);
    }
}
