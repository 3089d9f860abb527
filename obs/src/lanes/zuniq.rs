//! Zuniq's typed lane: the fast board; the numbering and planes of `codec::zuniq`.
//!
//! Every wall is public (a player places its own and is told the opponent's), so each seat's
//! planes are the board's walls; the claim plane is the seat's own claim (the opponent's is not
//! relayed). Both players get a view every turn (the mover an empty one).

use super::Rules;
use crate::codec::{spread, Number};
use twinsim_fast::zuniq::State;

const WALLS: usize = 60;

/// Where wall `w` (the board's bit order: 30 horizontal walls row-major, 5 a row, then 30
/// vertical, 6 a row) lands in a seat's planes (`plane·36 + row·6 + column`), so encoding is a
/// table lookup per placed wall.
const CELL_OF_WALL: [u8; WALLS] = {
    let mut cells = [0u8; WALLS];
    let mut w = 0;
    while w < WALLS {
        cells[w] = if w < 30 { (w / 5 * 6 + w % 5) as u8 } else { (36 + (w - 30)) as u8 };
        w += 1;
    }
    cells
};

/// The fast board and the move that led to it: the mover's own line stays in its planes
/// even when the referee refused it and ended the game (the view path absorbs a player's
/// lines as it prints them, and the turn that ends the game sends no view to correct it).
#[derive(Clone, Debug, Default)]
pub struct LaneState {
    game: State,
    /// The mover and action index of the turn that led here (`None` after the setup).
    last_move: Option<(usize, usize)>,
}

/// Zuniq has no setup parameters.
#[derive(Default)]
pub struct Zuniq {
    /// The referee's events of an illegal move (the cold path), kept to reuse the allocation.
    events: Vec<twinsim_reference::zuniq::rules::Event>,
}

impl Rules for Zuniq {
    type State = LaneState;
    const PLAYERS: usize = 2;

    fn setup(&self, _seed: i64) -> Result<LaneState, String> {
        Ok(LaneState::default())
    }

    fn is_over(state: &LaneState) -> bool {
        state.game.finished
    }

    fn to_act(state: &LaneState, out: &mut [bool]) {
        out.fill(false);
        if !state.game.finished {
            out[state.game.board.to_move()] = true;
        }
    }

    fn play(&mut self, state: &mut LaneState, indices: &[i64], _to_act: &[bool]) {
        let mover = state.game.board.to_move();
        let index = indices[mover] as usize;
        state.last_move = Some((mover, index));
        let (wall, claim) = (index % WALLS, index >= WALLS);
        if let Ok(cut) = state.game.board.check(wall).legality() {
            state.game.apply_with(wall, cut, claim, |_| ());
        } else {
            // Not legal: the referee's consequence for the line (cold path).
            self.events.clear();
            let line = crate::codec::zuniq::line(index);
            // The game is not over (checked by the lane), so the turn is played.
            let _ = state.game.play_turn(Some(&line), &mut self.events);
        }
    }

    fn scores(_state: &LaneState, out: &mut [f64]) {
        // The trace's state object has no running score (Zuniq scores only at the end).
        out.fill(0.0);
    }

    fn ranks(state: &LaneState) -> Option<Vec<usize>> {
        let winner = state.game.winner.filter(|_| state.game.finished)?;
        Some((0..2).map(|p| if p == winner { 1 } else { 2 }).collect())
    }

    fn sends_view(state: &LaneState, player: usize) -> bool {
        // Every turn's view goes to both players but the last (the referee ends the game
        // instead), so at the end the opponent of the last mover holds its last view, as on
        // the view path; the mover holds that view and its own last line, which the planes
        // of the end state and `last_move` give.
        !state.game.finished || state.last_move.is_some_and(|(mover, _)| mover == player)
    }
    const VIEWS_MAY_SKIP: bool = true;

    fn encode<T: Number>(state: &LaneState, player: usize, out: &mut [T]) {
        let planes = &mut out[..3 * 36];
        let mut walls = state.game.board.walls;
        while walls != 0 {
            planes[usize::from(CELL_OF_WALL[walls.trailing_zeros() as usize])] = T::of(1);
            walls &= walls - 1;
        }
        Self::reseat(state, planes, player, player);
        // The mover's own line, placed or not (a no-op but at the end of a game lost to a
        // refused line: a placed wall or claim is on the board already).
        if let Some((_, index)) = state.last_move.filter(|(mover, _)| *mover == player) {
            planes[usize::from(CELL_OF_WALL[index % WALLS])] = T::of(1);
            if index >= WALLS {
                planes[2 * 36..3 * 36].fill(T::of(1));
            }
        }
    }

    /// Both seats read the same walls; only the claim plane is the seat's own.
    const SHARED_VIEW: bool = true;

    /// The claim plane: all ones once seat `to` has claimed victory (`!`).
    fn reseat<T: Number>(state: &LaneState, row: &mut [T], _from: usize, to: usize) {
        let claimed = T::of(i64::from(state.game.board.claims[to] != 0));
        row[2 * 36..3 * 36].fill(claimed);
    }

    fn mask(state: &LaneState, _player: usize, out: &mut [i8]) {
        // The legal walls, then the claimed copy of the same walls.
        let (walls, claimed) = out[..2 * WALLS].split_at_mut(WALLS);
        spread(state.game.legal_mask(), walls);
        claimed.copy_from_slice(walls);
    }
}
