//! Photosynthesis' typed lane: the fast bit-board state (exact views kept on, so the generator
//! is the referee's); the planes, numbering and mask of `codec::photosynthesis` from the state.
//!
//! Everything a view shows is public (board, trees, both players' sun and score); the referee
//! sends a view only to a player it asks for an action, so a waiting player's observation stays
//! the last one it read. The mask is the legal list the view prints, as a set.

use super::Rules;
use crate::codec::{spread, Number};
use twinsim_fast::photosynthesis::tables::{DEFAULT_RICHNESS, N};
use twinsim_fast::photosynthesis::State;
use twinsim_reference::photosynthesis::{protocol, Action, Answer, Params};

const GROW_BASE: usize = 1;
const COMPLETE_BASE: usize = 1 + N;
const SEED_BASE: usize = 1 + 2 * N;

/// The league's parameters.
pub struct Photosynthesis {
    params: Params,
}

impl Photosynthesis {
    /// From a trace's params object.
    pub fn new(params: &serde_json::Value) -> Result<Photosynthesis, String> {
        Ok(Photosynthesis {
            params: twinsim_reference::photosynthesis::trace::params_from_json(params)?,
        })
    }
}

/// The action of an index (below the action count).
fn action(index: usize) -> Action {
    match index {
        0 => Action::Wait,
        i if i < COMPLETE_BASE => Action::Grow((i - GROW_BASE) as i32),
        i if i < SEED_BASE => Action::Complete((i - COMPLETE_BASE) as i32),
        i => Action::Seed(((i - SEED_BASE) / N) as i32, ((i - SEED_BASE) % N) as i32),
    }
}

impl Rules for Photosynthesis {
    type State = State;
    const PLAYERS: usize = 2;

    fn setup(&self, seed: i64) -> Result<State, String> {
        Ok(State::new_game(seed, self.params, None))
    }

    fn is_over(state: &State) -> bool {
        state.game_over()
    }

    fn to_act(state: &State, out: &mut [bool]) {
        for (p, slot) in out.iter_mut().enumerate() {
            *slot = state.is_asked(p);
        }
    }

    fn play(&mut self, state: &mut State, indices: &[i64], to_act: &[bool]) {
        let answers: [Option<Answer>; 2] = std::array::from_fn(|p| {
            to_act[p].then(|| {
                let action = action(indices[p] as usize);
                match action {
                    Action::Grow(_) if state.league < 2 => self.read(action),
                    Action::Seed(..) if state.league < 3 => self.read(action),
                    _ => Answer::Action(action),
                }
            })
        });
        // The game is not over and only asked players answer: nothing can be refused.
        let _ = state.play_turn(&answers, None);
    }

    fn scores(state: &State, out: &mut [f64]) {
        for (p, score) in out.iter_mut().enumerate() {
            *score = f64::from(state.score[p]);
        }
    }

    fn ranks(state: &State) -> Option<Vec<usize>> {
        state.outcome().map(|o| o.ranks)
    }

    fn sends_view(state: &State, player: usize) -> bool {
        state.is_asked(player)
    }
    const VIEWS_MAY_SKIP: bool = true;

    /// Every row is written whole: the richness row cell by cell, the tree rows from the
    /// state's bit sets, the scalars as constant rows.
    const WHOLE_OBSERVATION: bool = true;

    fn encode<T: Number>(state: &State, player: usize, out: &mut [T]) {
        for (cell, richness) in out[..N].iter_mut().enumerate() {
            let hole = state.holes >> cell & 1 == 1;
            *richness = T::of(if hole { 0 } else { i64::from(DEFAULT_RICHNESS[cell]) });
        }
        for side in 0..2 {
            let owner = state.owner[if side == 0 { player } else { 1 - player }];
            for (size, cells) in state.size.iter().enumerate() {
                let row = 1 + 4 * side + size;
                spread(cells & owner, &mut out[row * N..(row + 1) * N]);
            }
            spread(state.dormant & owner, &mut out[(9 + side) * N..(10 + side) * N]);
        }
        let opponent = 1 - player;
        let scalars = [
            i64::from(state.day),
            i64::from(state.nutrients),
            i64::from(state.sun[player]),
            i64::from(state.score[player]),
            i64::from(state.sun[opponent]),
            i64::from(state.score[opponent]),
            i64::from(state.waiting(opponent)),
        ];
        for (i, value) in scalars.iter().enumerate() {
            out[(11 + i) * N..(12 + i) * N].fill(T::of(*value));
        }
    }

    /// The mask is written whole, a set of cells at a time: one pass over the row's 1444
    /// bytes, in order, instead of clearing them and then setting the few legal ones here and
    /// there (a batch's rows are out of cache by the next step, and the two passes measured a
    /// third slower).
    const WHOLE_MASK: bool = true;

    fn mask(state: &State, player: usize, out: &mut [i8]) {
        let sets = state.legal_sets(player);
        out[0] = i8::from(sets.asked);
        spread(sets.grow, &mut out[GROW_BASE..COMPLETE_BASE]);
        spread(sets.complete, &mut out[COMPLETE_BASE..SEED_BASE]);
        for (source, row) in out[SEED_BASE..].chunks_exact_mut(N).enumerate() {
            let targets = if sets.seed_sources >> source & 1 == 1 {
                state.seed_targets(source, sets.free)
            } else {
                0
            };
            spread(targets, row);
        }
    }
}

impl Photosynthesis {
    /// The referee's reading of a command its league does not have (cold path).
    fn read(&self, action: Action) -> Answer {
        protocol::read_answer(Some(&action.to_string()), &self.params)
    }
}
