//! Olymbits' typed lane: the fast packed state with the referee's exact generator (SHA1PRNG);
//! the features of `codec::olymbits`, written from the state instead of the turn text.
//!
//! Everything a turn view shows is public (every active player reads the same text), so the
//! features are the state's; a player who is no longer active gets no view, and its
//! observation stays the last one it read.

use super::Rules;
use crate::codec::Number;
use twinsim_fast::olymbits::state::{ARCHERY, DIVING, HURDLES, SKATING};
use twinsim_fast::olymbits::State;
use twinsim_reference::olymbits::{Action, Params};

const GPU: usize = 30;
const REGISTERS: usize = 7;

/// The league's parameters.
pub struct Olymbits {
    params: Params,
}

impl Olymbits {
    /// From a trace's params object.
    pub fn new(params: &serde_json::Value) -> Result<Olymbits, String> {
        Ok(Olymbits { params: twinsim_reference::olymbits::trace::params_from_json(params)? })
    }
}

impl Rules for Olymbits {
    type State = State;
    const PLAYERS: usize = 3;

    fn setup(&self, seed: i64) -> Result<State, String> {
        State::new(seed, &self.params).map_err(|e| e.to_string())
    }

    fn is_over(state: &State) -> bool {
        state.is_over()
    }

    fn to_act(state: &State, out: &mut [bool]) {
        for (p, slot) in out.iter_mut().enumerate() {
            *slot = !state.is_over() && state.is_active(p);
        }
    }

    fn play(&mut self, state: &mut State, indices: &[i64], to_act: &[bool]) {
        // Every index below 4 is a legal action of a player to act.
        let actions: [Option<Action>; 3] =
            std::array::from_fn(|p| to_act[p].then(|| Action::ALL[indices[p] as usize]));
        // The game is not over and every acting player answers: nothing can be refused.
        let _ = state.step(&actions);
    }

    fn scores(state: &State, out: &mut [f64]) {
        for (p, score) in out.iter_mut().enumerate() {
            *score = state.points(p) as f64;
        }
    }

    fn ranks(state: &State) -> Option<Vec<usize>> {
        if !state.is_over() {
            return None;
        }
        let scores: Vec<i64> =
            (0..3).map(|p| if state.is_active(p) { state.points(p) } else { -1 }).collect();
        Some(twinsim_reference::game::Outcome::ranks_from_scores(&scores))
    }

    fn sends_view(state: &State, player: usize) -> bool {
        // A turn's views go to the active players.
        state.is_active(player)
    }
    // Only a timeout or an unreadable line deactivates a player, and a lane gives every active
    // player one of the four actions: a seat that had the last view gets the next one.
    const VIEWS_MAY_SKIP: bool = false;

    // Every active player reads the same turn text; only "which player I am" differs.
    const SHARED_VIEW: bool = true;

    fn reseat<T: Number>(_state: &State, row: &mut [T], from: usize, to: usize) {
        row[from] = T::of(0);
        row[to] = T::of(1);
    }

    /// Every number is written: the zeros of "which player I am", of the medal columns and of
    /// the mini-games a lower league does not play too.
    const WHOLE_OBSERVATION: bool = true;

    fn encode<T: Number>(state: &State, player: usize, out: &mut [T]) {
        out[..3].fill(T::of(0));
        out[player] = T::of(1);
        let games = (state.nb_games as usize).min(4);
        out[42 + games * (GPU + REGISTERS)..].fill(T::of(0));
        for p in 0..3 {
            let line = &mut out[3 + 13 * p..3 + 13 * (p + 1)];
            line[1 + 3 * games..].fill(T::of(0));
            line[0] = T::of(state.points(p));
            for (g, medals) in state.medals[p][..games].iter().enumerate().take(4) {
                for (k, m) in medals.iter().enumerate() {
                    line[1 + 3 * g + k] = T::of(i64::from(*m));
                }
            }
        }
        for (g, slot) in state.games[..games].iter().enumerate() {
            let base = 42 + g * (GPU + REGISTERS);
            let gpu = &mut out[base..base + GPU];
            gpu.fill(T::of(-1));
            if !slot.should_reset {
                match slot.kind {
                    HURDLES => {
                        for (x, cell) in gpu.iter_mut().enumerate() {
                            *cell = T::of((slot.track >> x & 1) as i64);
                        }
                    }
                    // The wind digits, and the diving goal's letters (an action code + 1).
                    ARCHERY | DIVING => {
                        let offset = i64::from(slot.kind == DIVING);
                        let seq = &slot.seq[slot.head as usize..slot.len as usize];
                        for (cell, v) in gpu.iter_mut().zip(seq) {
                            *cell = T::of(i64::from(*v) + offset);
                        }
                    }
                    _ => {
                        for (cell, d) in gpu.iter_mut().zip(slot.directions) {
                            *cell = T::of(i64::from(d) + 1);
                        }
                    }
                }
            }
            let (a, b) = (slot.a.map(i64::from), slot.b.map(i64::from));
            let registers = match slot.kind {
                ARCHERY => [a[0], b[0], a[1], b[1], a[2], b[2], 0],
                SKATING => [a[0], a[1], a[2], b[0], b[1], b[2], i64::from(slot.timer)],
                _ => [a[0], a[1], a[2], b[0], b[1], b[2], 0],
            };
            for (cell, value) in out[base + GPU..base + GPU + REGISTERS].iter_mut().zip(registers) {
                *cell = T::of(value);
            }
        }
    }

    fn mask(_state: &State, _player: usize, out: &mut [i8]) {
        out.fill(1);
    }
}
