//! Wondev Woman's typed lane: the fast bit-board state; the planes, numbering and mask of
//! `codec::wondev_woman` from the state.
//!
//! The view hides what the fog of war hides: an opponent's unit shows only where the referee
//! prints it, next to one of the viewer's units (`State::visible_units`, the function the fast
//! engine's views are rendered with); the grid and the viewer's own units are public. The referee
//! sends a view only to the player to move, so the other seat keeps the last one it read. The
//! mask is the legal list the view prints, or `ACCEPT-DEFEAT` alone when it lists nothing.

use super::Rules;
use crate::codec::wondev_woman::{line, ACCEPT_DEFEAT};
use crate::codec::{spread, Number};
use twinsim_fast::wondev_woman::board::{point, NONE, SORTED};
use twinsim_fast::wondev_woman::movegen::{legal, MoveList};
use twinsim_fast::wondev_woman::{play, FastWondevWoman, State};
use twinsim_reference::game::{Game, StepError};
use twinsim_reference::wondev_woman::state::{Action, Dir, Kind, Params};

const MAX: usize = 7;
/// The codec's direction order (index `i` of an action's move and build parts).
const DIRECTIONS: [Dir; 8] = [Dir::N, Dir::NE, Dir::E, Dir::SE, Dir::S, Dir::SW, Dir::W, Dir::NW];

/// The codec's index of a direction.
fn direction_index(dir: Dir) -> usize {
    DIRECTIONS.iter().position(|d| *d == dir).unwrap_or_else(|| unreachable!("{dir:?}"))
}

/// The codec's index of each direction of [`SORTED`], the fast move list's order (`E, N, NE,
/// NW, S, SE, SW, W`; checked against [`DIRECTIONS`] when a lane is made).
const SORTED_INDEX: [usize; 8] = [2, 0, 1, 7, 4, 3, 5, 6];

/// The league's parameters.
pub struct WondevWoman {
    params: Params,
}

impl WondevWoman {
    /// From a trace's params object.
    pub fn new(params: &serde_json::Value) -> Result<WondevWoman, String> {
        assert_eq!(SORTED.map(direction_index), SORTED_INDEX, "the fast move list's order");
        Ok(WondevWoman {
            params: twinsim_reference::wondev_woman::trace::params_from_json(params)?,
        })
    }
}

/// The action of an index (below the action count).
fn action(index: usize) -> Action {
    if index == ACCEPT_DEFEAT {
        return Action::AcceptDefeat;
    }
    Action::Build {
        kind: if index >= 128 { Kind::Push } else { Kind::Move },
        unit: (index / 64) % 2,
        dir1: DIRECTIONS[(index / 8) % 8],
        dir2: DIRECTIONS[index % 8],
    }
}

impl Rules for WondevWoman {
    type State = State;
    const PLAYERS: usize = 2;
    const VIEWS_MAY_SKIP: bool = true;

    fn setup(&self, seed: i64) -> Result<State, String> {
        Ok(State::new_game(seed, &self.params))
    }

    fn is_over(state: &State) -> bool {
        state.game_over
    }

    fn to_act(state: &State, out: &mut [bool]) {
        out.fill(false);
        if !state.game_over && state.to_move < 2 {
            out[state.to_move as usize] = true;
        }
    }

    fn play(&mut self, state: &mut State, indices: &[i64], _to_act: &[bool]) {
        let mover = state.to_move as usize;
        let index = indices[mover] as usize;
        let mut actions = [None, None];
        actions[mover] = Some(action(index));
        if let Err(StepError::Illegal { .. }) = FastWondevWoman::step(state, &actions) {
            // Not legal (the state is unchanged): the referee's consequence for the line.
            let _ = play::play_turn(state, Some(&line(index)));
        }
    }

    fn scores(state: &State, out: &mut [f64]) {
        for (p, score) in out.iter_mut().enumerate() {
            *score = f64::from(state.scores[p]);
        }
    }

    fn ranks(state: &State) -> Option<Vec<usize>> {
        FastWondevWoman::outcome(state).map(|o| o.ranks)
    }

    fn sends_view(state: &State, player: usize) -> bool {
        !state.game_over && state.to_move as usize == player
    }

    fn encode<T: Number>(state: &State, player: usize, out: &mut [T]) {
        // Board planes from the fast twin's cell sets, a row of up to seven cells per table
        // lookup: the board's rows are 8 bits apart, the planes' 7 numbers.
        let size = usize::from(state.size).min(MAX);
        let row_bits = (1u64 << size) - 1;
        let inside = (0..size).fold(0u64, |rows, y| rows | row_bits << (8 * y));
        let domes = state.cells & !state.le[3];
        let planes = [
            (0, state.cells),
            (1, state.cells & state.le[0]),
            (2, state.cells & state.le[1] & !state.le[0]),
            (3, state.cells & state.le[2] & !state.le[1]),
            (4, state.cells & state.le[3] & !state.le[2]),
            (5, domes),
            (10, inside),
        ];
        for (plane, cells) in planes {
            let plane = &mut out[plane * MAX * MAX..(plane + 1) * MAX * MAX];
            for (y, row) in plane.chunks_mut(MAX).enumerate().take(size) {
                spread(cells >> (8 * y) & row_bits, row);
            }
        }
        let visible = state.visible_units(player);
        for (owner, p) in [(0, player), (1, 1 - player)] {
            let units = state.units[p * 2..p * 2 + 2].iter().filter(|u| **u != NONE);
            for (unit, &u) in units.enumerate() {
                let q = point(u);
                let (x, y) = (q.x as usize, q.y as usize);
                if visible >> u & 1 == 1 && x < MAX && y < MAX {
                    out[(6 + 2 * owner + unit) * MAX * MAX + y * MAX + x] = T::of(1);
                }
            }
        }
    }

    fn mask(state: &State, player: usize, out: &mut [i8]) {
        let mut list = MoveList::default();
        legal(state, player, &mut list);
        if list.len == 0 {
            out[ACCEPT_DEFEAT] = 1;
        }
        for m in list.as_slice() {
            let kind = if m.push { 128 } else { 0 };
            let (moved, built) = (SORTED_INDEX[m.d1 as usize], SORTED_INDEX[m.d2 as usize]);
            out[kind + 64 * usize::from(m.unit) + 8 * moved + built] = 1;
        }
    }
}
