//! X-mas Rush's typed lane: the fast packed state; the planes, numbering, mask and canonical
//! MOVE paths of `codec::xmas_rush` from the state.
//!
//! What the view shows, and only that: the board, both positions and hand tiles, every item in
//! the game with its owner, the revealed quest cards of both players and each player's number of
//! cards; the hidden quest stacks (which card comes next) never reach an observation, only their
//! sizes. Both players get a view every turn. A MOVE index stands for the shortest path the
//! codec finds on the view's board (BFS, neighbours tried up, right, down, left), found here on
//! the same board.

use super::{spread_bits, spread_floats, Rules};
use crate::codec::xmas_rush::{bfs, path, DIRECTIONS, DX, DY, MAX_STEPS, MOVE_BASE};
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

/// Shortest paths from `player`'s cell (the codec's [`bfs`] on this board).
fn paths_from(s: &State, player: usize) -> ([usize; 49], [usize; 49]) {
    let me = &s.players[player];
    if me.x >= 7 || me.y >= 7 {
        return ([usize::MAX; 49], [usize::MAX; 49]);
    }
    bfs(usize::from(me.y) * 7 + usize::from(me.x), |x, y, d| open(s, x, y, d))
}

/// The answer action `index` of `player` stands for (the codec's canonical line).
fn answer(s: &State, player: usize, index: usize) -> Answer {
    if index < MOVE_BASE {
        return Answer::Action(PackedAction::Push {
            line: (index / 4) as u8,
            dir: (index % 4) as u8,
        });
    }
    let (came, dist) = paths_from(s, player);
    let me = &s.players[player];
    let from = (i32::from(me.x), i32::from(me.y));
    let steps = path(&came, &dist, from, index - MOVE_BASE);
    match steps.len() {
        0 => Answer::Action(PackedAction::Pass),
        len if len <= MAX_STEPS => {
            let mut packed = [0u8; MAX_STEPS];
            for (slot, d) in packed.iter_mut().zip(&steps) {
                *slot = *d as u8;
            }
            Answer::Action(PackedAction::Move { steps: packed, len: len as u8 })
        }
        // Too long for the referee: its reading of the line (cold path).
        _ => {
            let words: Vec<&str> = steps.iter().map(|d| DIRECTIONS[*d]).collect();
            let line = format!("MOVE {}", words.join(" "));
            Answer::from_reference(&r::Answer::from_line(Some(&line)))
        }
    }
}

impl Rules for XmasRush {
    type State = State;
    const PLAYERS: usize = 2;
    const VIEWS_MAY_SKIP: bool = false;

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
        let outcome = r::json::outcome_json(&state.to_reference())?;
        Some(twinsim_arena::ranks_from_outcome(&outcome, 2).1)
    }

    fn sends_view(_state: &State, _player: usize) -> bool {
        true
    }

    /// Both players read the same view; a seat's planes are the other's with "my" and "the
    /// opponent's" swapped (planes 4–9, 11–22 in pairs), so the lane encodes one and reseats it.
    const SHARED_VIEW: bool = true;

    fn reseat(_state: &State, row: &mut [f32], _from: usize, _to: usize) {
        // Two players: reseating is always the same swap.
        for (mine, theirs) in [(4, 5), (6, 7), (8, 9), (11, 12), (13, 17), (21, 22)] {
            let width = if mine == 13 { 4 * 49 } else { 49 };
            let (head, tail) = row.split_at_mut(theirs * 49);
            head[mine * 49..mine * 49 + width].swap_with_slice(&mut tail[..width]);
        }
    }

    /// Planes 0–3 and 10–22 are written whole; 4–9 are cleared here before their few ones.
    const WHOLE_OBSERVATION: bool = true;

    fn encode(state: &State, player: usize, out: &mut [f32]) {
        out[4 * 49..10 * 49].fill(0.0);
        // Planes 0–3: every cell written (0 or 1), eight cells per table lookup.
        for (d, open) in state.open.iter().enumerate() {
            spread_floats(*open, &mut out[d * 49..(d + 1) * 49]);
        }
        let seats = [player, 1 - player];
        for (side, &p) in seats.iter().enumerate() {
            let pl = &state.players[p];
            if pl.x < 7 && pl.y < 7 {
                out[(4 + side) * 49 + usize::from(pl.y) * 7 + usize::from(pl.x)] = 1.0;
            }
        }
        // An item's quest is revealed when its owner holds a revealed card of its name: one
        // mask over the 24 item ids (`2·name + owner`), built once.
        let mut revealed = 0u32;
        for (owner, pl) in state.players.iter().enumerate() {
            for &name in &pl.quests[..usize::from(pl.quests_len)] {
                revealed |= 1 << (2 * u32::from(name) + owner as u32);
            }
        }
        let is_revealed = |id: u8| revealed >> id & 1 == 1;
        let side_of = |id: u8| usize::from(usize::from(id % 2) != player);
        for (y, row) in state.item_rows.iter().enumerate() {
            let mut row = *row;
            while row != 0 {
                let x = row.trailing_zeros() as usize / 8;
                let id = ((row >> (8 * x)) & 0xFF) as u8 - 1;
                row &= !(0xFF << (8 * x));
                let (side, cell) = (side_of(id), y * 7 + x);
                out[(6 + side) * 49 + cell] = 1.0;
                if is_revealed(id) {
                    out[(8 + side) * 49 + cell] = 1.0;
                }
            }
        }
        // A revealed quest's item on its owner's hand tile (mine on mine, theirs on theirs).
        let mut held = [false; 2];
        for (side, &p) in seats.iter().enumerate() {
            let byte = state.hand_items[p];
            if byte != 0 && side_of(byte - 1) == side && is_revealed(byte - 1) {
                held[side] = true;
            }
        }
        let move_turn = f32::from(u8::from(state.turn_type == TurnType::Move));
        out[10 * 49..11 * 49].fill(move_turn);
        for (side, &p) in seats.iter().enumerate() {
            let pl = &state.players[p];
            let cards = f32::from(pl.deck_len) + f32::from(pl.quests_len);
            out[(11 + side) * 49..(12 + side) * 49].fill(cards);
            for d in 0..4 {
                let plane = 13 + 4 * side + d;
                out[plane * 49..(plane + 1) * 49].fill(f32::from(state.hands[p] >> d & 1));
            }
            out[(21 + side) * 49..(22 + side) * 49].fill(f32::from(u8::from(held[side])));
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
        spread_bits(reach, &mut out[MOVE_BASE..MOVE_BASE + 49]);
    }
}
