//! The lanes of a `VecEnv`: one game each, stepped by action index, writing observations,
//! masks, rewards and score changes as numbers.
//!
//! Two kinds: the view path ([`Slot`]: the text-level engine, every observation read back from
//! the text the referee sends) and a typed lane ([`Typed`], one [`Rules`] per game) on the fast
//! twin's typed state, which builds the same numbers from the state without any text. A
//! typed lane writes for each seat only what that seat's view shows, and keeps a seat's
//! observation as it was when the referee last sent it a view, exactly as the view path does;
//! `obs/tests/typed_equals_view.rs` (cargo) and `python/tests/test_lanes.py` (through `VecEnv`)
//! step random games through both and require every number equal.
//!
//! `VecEnv` steps typed lanes on the fast engine; `engine="reference"` and `path="view"` step the
//! view path.

mod olymbits;
mod photosynthesis;
mod wondev_woman;
mod xmas_rush;
mod zuniq;

use crate::codec::{GameId, Number};
use crate::slot::{rewards_from_ranks, Slot, StepError};

/// One game of a batch, stepped by action index.
pub trait Lane<T: Number>: Send {
    /// Number of players.
    fn num_players(&self) -> usize;
    /// Which players are asked for an action now.
    fn to_act(&self) -> &[bool];
    /// The game is over.
    fn is_over(&self) -> bool;
    /// Starts a new game from `seed` (same engine and league).
    fn reset(&mut self, seed: i64) -> Result<(), String>;
    /// Plays one turn: `indices[p]` is player `p`'s action index (ignored when not to act);
    /// each index of a player to act is below the game's action count (the caller checks).
    fn step_indices(&mut self, indices: &[i64]) -> Result<(), StepError>;
    /// The last step's rewards (the final ranking once over, else 0).
    fn rewards(&self) -> &[f32];
    /// Writes the last step's change of each player's score.
    fn score_deltas(&self, out: &mut [f32]);
    /// Writes `player`'s observation into `out`, which is all zeros (a fresh array's row).
    fn observe(&self, player: usize, out: &mut [T]);
    /// Writes every player's observation into `out` (all zeros; row `p` is
    /// `out[p * len..(p + 1) * len]`).
    fn observe_all(&self, out: &mut [T], len: usize) {
        for (p, row) in out.chunks_mut(len).enumerate() {
            self.observe(p, row);
        }
    }
    /// Writes `player`'s action mask into `out`, which is all zeros.
    fn mask(&self, player: usize, out: &mut [i8]);
    /// Whether [`Lane::observe`] writes every number of its row, so the row needs no zeroing
    /// first (a reused output array is then not cleared before it).
    fn writes_whole_observation(&self) -> bool {
        false
    }
    /// Whether [`Lane::mask`] writes every number of its row, zeros included (a reused array's
    /// mask rows are then not cleared first).
    fn writes_whole_mask(&self) -> bool {
        false
    }
    /// Which path this lane is: `"typed"` or `"view"`.
    fn path(&self) -> &'static str;
}

impl<T: Number> Lane<T> for Slot {
    fn num_players(&self) -> usize {
        Slot::num_players(self)
    }
    fn to_act(&self) -> &[bool] {
        Slot::to_act(self)
    }
    fn is_over(&self) -> bool {
        Slot::is_over(self)
    }
    fn reset(&mut self, seed: i64) -> Result<(), String> {
        Slot::reset(self, seed)
    }
    fn step_indices(&mut self, indices: &[i64]) -> Result<(), StepError> {
        Slot::step_indices(self, indices)
    }
    fn rewards(&self) -> &[f32] {
        Slot::rewards(self)
    }
    fn score_deltas(&self, out: &mut [f32]) {
        for (delta, value) in out.iter_mut().zip(self.scores().1) {
            *delta = value as f32;
        }
    }
    fn observe(&self, player: usize, out: &mut [T]) {
        Slot::observe(self, player, out)
    }
    fn mask(&self, player: usize, out: &mut [i8]) {
        Slot::mask(self, player, out)
    }
    fn path(&self) -> &'static str {
        "view"
    }
}

/// What a typed lane needs of one game: its typed state, the index → action mapping, the mask
/// and the numbers of a seat's view, all straight from the state.
pub trait Rules: Send + Sized {
    /// The fast twin's state.
    type State: Send + Clone;
    /// Number of players.
    const PLAYERS: usize;
    /// The referee's setup for `seed`.
    fn setup(&self, seed: i64) -> Result<Self::State, String>;
    /// Whether the game is over.
    fn is_over(state: &Self::State) -> bool;
    /// Writes who is asked for an action.
    fn to_act(state: &Self::State, out: &mut [bool]);
    /// Plays one turn from action indices (players not to act: ignored), with the referee's
    /// consequence for an index the mask does not allow (as the view path plays its line).
    fn play(&mut self, state: &mut Self::State, indices: &[i64], to_act: &[bool]);
    /// Each player's score as the trace's state object reports it (0 where it has none).
    fn scores(state: &Self::State, out: &mut [f64]);
    /// 1-based ranks, once over.
    fn ranks(state: &Self::State) -> Option<Vec<usize>>;
    /// Whether the referee sends `player` a view now (after a turn): a seat's observation only
    /// changes when it does. Every seat gets one after the setup.
    fn sends_view(state: &Self::State, player: usize) -> bool;
    /// Whether [`Rules::sends_view`] can be false for a seat that was sent the previous view.
    const VIEWS_MAY_SKIP: bool;
    /// Writes the observation `player` reads from the view it gets now (`out` is zeroed).
    fn encode<T: Number>(state: &Self::State, player: usize, out: &mut [T]);
    /// Whether every seat that gets the same view reads the same observation but for
    /// [`Rules::reseat`] (then the lane encodes one and copies it).
    const SHARED_VIEW: bool = false;
    /// Turns seat `from`'s observation of `state` into seat `to`'s (with
    /// [`Rules::SHARED_VIEW`]).
    fn reseat<T: Number>(_state: &Self::State, _row: &mut [T], _from: usize, _to: usize) {}
    /// Writes the action mask of `player`, who is to act (`out` is zeroed).
    fn mask(state: &Self::State, player: usize, out: &mut [i8]);
    /// Whether [`Rules::encode`] writes every number of the row, zeros included (then `out`
    /// need not be zeroed: [`Lane::writes_whole_observation`]).
    const WHOLE_OBSERVATION: bool = false;
    /// Whether [`Rules::mask`] writes every number of the row, zeros included (then `out` need
    /// not be zeroed, and a seat not to act gets its zeros written: [`Lane::writes_whole_mask`]).
    const WHOLE_MASK: bool = false;
}

/// A typed lane: the fast state and, per seat that missed the last views, the state as of the
/// last view it was sent.
pub struct Typed<R: Rules> {
    rules: R,
    state: R::State,
    to_act: Vec<bool>,
    rewards: Vec<f32>,
    scores: Vec<f64>,
    previous_scores: Vec<f64>,
    /// `None`: the seat was sent a view of the current state; else the state it last saw.
    seen: Vec<Option<R::State>>,
}

impl<R: Rules> Typed<R> {
    fn new(rules: R, seed: i64) -> Result<Self, String> {
        let players = R::PLAYERS;
        let state = rules.setup(seed)?;
        let mut lane = Typed {
            rules,
            state,
            to_act: vec![false; players],
            rewards: vec![0.0; players],
            scores: vec![0.0; players],
            previous_scores: vec![0.0; players],
            seen: (0..players).map(|_| None).collect(),
        };
        lane.after_setup();
        Ok(lane)
    }

    fn after_setup(&mut self) {
        self.scores.fill(0.0);
        self.previous_scores.fill(0.0);
        self.rewards.fill(0.0);
        R::to_act(&self.state, &mut self.to_act);
        // The setup's views go to every seat of the games with a typed lane.
        self.seen.iter_mut().for_each(|s| *s = None);
    }
}

impl<R: Rules, T: Number> Lane<T> for Typed<R> {
    fn num_players(&self) -> usize {
        R::PLAYERS
    }
    fn to_act(&self) -> &[bool] {
        &self.to_act
    }
    fn is_over(&self) -> bool {
        R::is_over(&self.state)
    }
    fn reset(&mut self, seed: i64) -> Result<(), String> {
        self.state = self.rules.setup(seed)?;
        self.after_setup();
        Ok(())
    }
    fn step_indices(&mut self, indices: &[i64]) -> Result<(), StepError> {
        if R::is_over(&self.state) {
            return Err(StepError::GameOver);
        }
        if indices.len() != R::PLAYERS {
            return Err(StepError::BadAction(format!(
                "expected {} actions (one per player), found {}",
                R::PLAYERS,
                indices.len()
            )));
        }
        // The state before the turn, kept only if a seat that saw it gets no view of the next.
        let before = (R::VIEWS_MAY_SKIP && self.seen.iter().any(Option::is_none))
            .then(|| self.state.clone());
        self.rules.play(&mut self.state, indices, &self.to_act);
        std::mem::swap(&mut self.scores, &mut self.previous_scores);
        R::scores(&self.state, &mut self.scores);
        R::to_act(&self.state, &mut self.to_act);
        match R::ranks(&self.state) {
            Some(ranks) => self.rewards.copy_from_slice(&rewards_from_ranks(&ranks)),
            None => self.rewards.fill(0.0),
        }
        for (p, seen) in self.seen.iter_mut().enumerate() {
            if R::sends_view(&self.state, p) {
                *seen = None;
            } else if seen.is_none() {
                *seen = before.clone();
            }
        }
        Ok(())
    }
    fn rewards(&self) -> &[f32] {
        &self.rewards
    }
    fn score_deltas(&self, out: &mut [f32]) {
        for ((delta, now), before) in out.iter_mut().zip(&self.scores).zip(&self.previous_scores) {
            *delta = (now - before) as f32;
        }
    }
    fn observe(&self, player: usize, out: &mut [T]) {
        R::encode(self.seen[player].as_ref().unwrap_or(&self.state), player, out);
    }
    fn observe_all(&self, out: &mut [T], len: usize) {
        if R::SHARED_VIEW && self.seen.iter().all(Option::is_none) {
            R::encode(&self.state, 0, &mut out[..len]);
            for p in 1..R::PLAYERS {
                out.copy_within(..len, p * len);
                R::reseat(&self.state, &mut out[p * len..(p + 1) * len], 0, p);
            }
        } else {
            for (p, row) in out.chunks_mut(len).enumerate() {
                self.observe(p, row);
            }
        }
    }
    fn mask(&self, player: usize, out: &mut [i8]) {
        if self.to_act[player] {
            R::mask(&self.state, player, out);
        } else if R::WHOLE_MASK {
            out.fill(0);
        }
    }
    fn writes_whole_observation(&self) -> bool {
        R::WHOLE_OBSERVATION
    }
    fn writes_whole_mask(&self) -> bool {
        R::WHOLE_MASK
    }
    fn path(&self) -> &'static str {
        "typed"
    }
}

/// Which lanes a batch steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// The typed lane (fast engine only: the reference engine steps the view path).
    Typed,
    /// Always the view path.
    View,
}

impl Path {
    /// The path of a name (`"typed"`, `"view"`).
    pub fn from_name(name: &str) -> Option<Path> {
        match name {
            "typed" => Some(Path::Typed),
            "view" => Some(Path::View),
            _ => None,
        }
    }
}

/// The setup parameters of `game` at `league` as a trace's params object (the view path's
/// setup reads the same object).
fn league_params(game: GameId, league: Option<u32>) -> serde_json::Value {
    twinsim_arena::registry::league_params(game.name(), league)
}

/// A lane of `game` set up from `seed`: typed when asked on the fast engine, else the view path.
pub fn lane<T: Number>(
    game: GameId,
    kind: twinsim_reference::game::EngineKind,
    path: Path,
    seed: i64,
    league: Option<u32>,
) -> Result<Box<dyn Lane<T>>, String> {
    if path == Path::View || kind != twinsim_reference::game::EngineKind::Fast {
        return Ok(Box::new(Slot::new(game, kind, seed, league, None)?));
    }
    let params = league_params(game, league);
    Ok(match game {
        GameId::XmasRush => Box::new(Typed::new(xmas_rush::XmasRush::new(&params)?, seed)?),
        GameId::Photosynthesis => {
            Box::new(Typed::new(photosynthesis::Photosynthesis::new(&params)?, seed)?)
        }
        GameId::Zuniq => Box::new(Typed::new(zuniq::Zuniq::default(), seed)?),
        GameId::Olymbits => Box::new(Typed::new(olymbits::Olymbits::new(&params)?, seed)?),
        GameId::WondevWoman => {
            Box::new(Typed::new(wondev_woman::WondevWoman::new(&params)?, seed)?)
        }
    })
}
