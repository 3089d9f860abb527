//! Zuniq's typed lane: the fast board; the numbering and planes of `codec::zuniq`.
//!
//! Every wall is public (a player places its own and is told the opponent's), so each seat's
//! planes are the board's walls; the claim plane is the seat's own claim (the opponent's is not
//! relayed). Both players get a view every turn (the mover an empty one).

use super::Rules;
use twinsim_fast::zuniq::State;

const WALLS: usize = 60;

/// Zuniq has no setup parameters.
#[derive(Default)]
pub struct Zuniq {
    /// The referee's events of an illegal move (the cold path), kept to reuse the allocation.
    events: Vec<twinsim_reference::zuniq::rules::Event>,
}

impl Rules for Zuniq {
    type State = State;
    const PLAYERS: usize = 2;

    fn setup(&self, _seed: i64) -> Result<State, String> {
        Ok(State::default())
    }

    fn is_over(state: &State) -> bool {
        state.finished
    }

    fn to_act(state: &State, out: &mut [bool]) {
        out.fill(false);
        if !state.finished {
            out[state.board.to_move()] = true;
        }
    }

    fn play(&mut self, state: &mut State, indices: &[i64], _to_act: &[bool]) {
        let index = indices[state.board.to_move()] as usize;
        let (wall, claim) = (index % WALLS, index >= WALLS);
        if let Ok(cut) = state.board.check(wall).legality() {
            state.apply_with(wall, cut, claim, |_| ());
        } else {
            // Not legal: the referee's consequence for the line (cold path).
            self.events.clear();
            let line = crate::codec::zuniq::line(index);
            // The game is not over (checked by the lane), so the turn is played.
            let _ = state.referee_turn(Some(&line), &mut self.events);
        }
    }

    fn scores(_state: &State, out: &mut [f64]) {
        // The trace's state object has no running score (Zuniq scores only at the end).
        out.fill(0.0);
    }

    fn ranks(state: &State) -> Option<Vec<usize>> {
        let winner = state.winner.filter(|_| state.finished)?;
        Some((0..2).map(|p| if p == winner { 1 } else { 2 }).collect())
    }

    fn sends_view(_state: &State, _player: usize) -> bool {
        true
    }
    const VIEWS_MAY_SKIP: bool = false;

    fn encode(state: &State, player: usize, out: &mut [f32]) {
        let mut walls = state.board.walls;
        while walls != 0 {
            let index = walls.trailing_zeros() as usize;
            walls &= walls - 1;
            let (plane, row, column) = if index < 30 {
                (0, index / 5, index % 5)
            } else {
                (1, (index - 30) / 6, (index - 30) % 6)
            };
            out[plane * 36 + row * 6 + column] = 1.0;
        }
        if state.board.claims[player] != 0 {
            out[2 * 36..3 * 36].fill(1.0);
        }
    }

    fn mask(state: &State, _player: usize, out: &mut [i8]) {
        let mut legal = state.legal_mask();
        while legal != 0 {
            let wall = legal.trailing_zeros() as usize;
            legal &= legal - 1;
            out[wall] = 1;
            out[WALLS + wall] = 1;
        }
    }
}
