//! Zuniq's first search bot, kept as `builtin:mcts-v1[@reference|@fast]` (and
//! `builtin:mcts@reference`) while `builtin:mcts` is the search of [`super::zuniq_mcts`],
//! which beats it: UCT over zobrist-hash nodes
//! ([`super::mcts`], the CodeCup 2021 participants' "hashnodes" tree) played from the views, with
//! the whole-game clock spent the way the write-up describes (little at the start, most in the
//! midgame, a reserve kept) and the `!` victory claim made when the search is sure enough.
//!
//! # Honesty
//!
//! Zuniq has no hidden information: the bot rebuilds the board by replaying the opponent's moves
//! it reads ([`twinsim_reference::zuniq::protocol::parse_turn`], then
//! [`twinsim_reference::zuniq::protocol::state_from_view`]) and its own answers on a reference state, and converts that state to the engine it searches on ([`FromReference`]).
//! It never sees the arena's state.
//!
//! # Clock (rules doc §7: 30 s of thinking per player for the whole game)
//!
//! The arena passes as `deadline` the moment the player's remaining budget runs out. Each move
//! gets `(left − reserve) / own moves still expected × phase weight` ([`Clock::plan`]): the
//! write-up's bot started with ~1 s and grew its time with the round number, since the opening
//! hardly matters (any of 60 walls, no zone can close before ply 4) while the midgame decides the
//! game and the endgame is small enough to be solved quickly. A reference-engine iteration
//! (a random playout on the readable engine) costs milliseconds, and the search checks the clock
//! only between iterations, so the thinking deadline stops two measured iterations short of the
//! move's share; when even that does not fit, the bot answers a random legal wall at once
//! rather than overrun.

use super::bot::{SearchSpec, SearchStats, ViewPlayer};
use super::mcts::{self, MctsConfig};
use super::{Budget, FromReference, SearchRng};
use std::marker::PhantomData;
use std::time::{Duration, Instant};
use twinsim_fast::game::{MoveBuffer, SearchGame};
use twinsim_fast::zuniq::FastZuniq;
use twinsim_reference::game::{EngineKind, PlayerId};
use twinsim_reference::zuniq::protocol::state_from_view;
use twinsim_reference::zuniq::rules::{apply_move, claim_bonus, legal_walls};
use twinsim_reference::zuniq::{parse_turn, Action, State as RefState, View, Zuniq};

/// UCB exploration constant. Rewards are 0/1 (rank rewards of a two-player game); the textbook
/// √2 explores too widely for the ~40 legal walls of the opening at the budgets the bot gets,
/// and the write-up's bot used 0.5 plus a correction.
pub const EXPLORATION: f64 = 0.7;

/// Fraction of the whole-game budget never planned for (scheduling jitter, the last moves).
const RESERVE: f64 = 0.08;
/// Fixed part of the reserve (parsing, the conversion to the engine's state, rendering).
const RESERVE_FIXED: Duration = Duration::from_millis(3);
/// A game's expected length in plies (rules doc §6: traced games last 37–41 plies, mean ≈ 39.6):
/// the bot plans as if the game ended here, a little later than usual.
const EXPECTED_PLIES: u32 = 42;
/// Own moves always assumed still to come (the game can run longer than expected).
const MIN_MOVES_LEFT: u32 = 4;

/// A move's weight by phase: the opening is cheap (nothing can close before ply 4 and the
/// position is symmetric), the midgame, where zone sizes get taken, gets the most.
fn phase_weight(ply: u32) -> f64 {
    match ply {
        0..=5 => 0.4,
        6..=11 => 1.0,
        12..=29 => 1.6,
        _ => 1.0,
    }
}

/// The whole-game clock of one seat.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// The budget left at the first move (the game's whole budget, as scaled by the arena).
    total: Option<Duration>,
    /// Time of one search iteration as last measured, and the ply it was measured at.
    per_iteration: Option<(Duration, u32)>,
}

/// Plies a playout from `ply` is expected to last (at least a few).
fn plies_left(ply: u32) -> f64 {
    f64::from(EXPECTED_PLIES.saturating_sub(ply).max(4))
}

impl Clock {
    /// When to stop thinking about a move started at `now`, with `deadline` the end of the
    /// whole-game budget, at ply `ply`: `None` when not even two iterations fit (answer at
    /// once). `fixed_iterations` relaxes the share: a deterministic search may use up to half
    /// of what is left (the clock is then only a safety net).
    pub fn plan(
        &self,
        now: Instant,
        deadline: Instant,
        ply: u32,
        fixed_iterations: bool,
    ) -> Option<Instant> {
        let left = deadline.saturating_duration_since(now);
        let total = self.total.unwrap_or(left);
        let usable = left.saturating_sub(total.mul_f64(RESERVE) + RESERVE_FIXED);
        let share = if fixed_iterations {
            usable / 2
        } else {
            let moves_left = (EXPECTED_PLIES.saturating_sub(ply) + 1) / 2;
            let share = (usable / moves_left.max(MIN_MOVES_LEFT)).mul_f64(phase_weight(ply));
            share.min(usable / 3)
        };
        let guard = self.per_iteration(ply).unwrap_or_default() * 2;
        (share > guard).then(|| now + (share - guard))
    }

    /// Records the budget at the first move.
    pub fn start(&mut self, now: Instant, deadline: Instant) {
        if self.total.is_none() {
            self.total = Some(deadline.saturating_duration_since(now));
        }
    }

    /// Records a search at ply `ply` that took `elapsed` for `iterations` iterations.
    pub fn measured(&mut self, elapsed: Duration, iterations: u64, ply: u32) {
        if iterations > 0 {
            let each = elapsed / iterations.min(u64::from(u32::MAX)) as u32;
            self.per_iteration = Some((each, ply));
        }
    }

    /// The estimated time of one iteration at ply `ply`: an iteration is mostly a random
    /// playout to the end, whose cost is proportional to the plies left (each computes the
    /// legal walls), so the last measure is scaled by that ratio. Without the scaling, a
    /// measure taken in the opening would keep a slow engine from ever searching again.
    pub fn per_iteration(&self, ply: u32) -> Option<Duration> {
        let (each, at) = self.per_iteration?;
        Some(each.mul_f64(plies_left(ply) / plies_left(at)))
    }
}

/// §7: whether to append `!` to a move whose search value (the mover's mean reward through the
/// chosen root edge, over `visits` iterations) is `value`, at ply `ply` (the move's own ply
/// number), for `player` who has not claimed yet. A wrong claim turns the loser's 50 points into
/// 0, a right one adds the bonus `b`: claiming pays when `p·b > (1 − p)·50`, i.e.
/// `p > 50 / (50 + b)`. The search's value is an estimate under random play, so the bar is
/// raised by a margin and never below 0.92 (the write-up's bot claimed at ≥ 50–62 % and
/// guessed wrong 4 times; we would rather claim late).
pub fn should_claim(player: PlayerId, ply: u32, value: f64, visits: u32) -> bool {
    let bonus = claim_bonus(player, Some(ply)) as f64;
    if bonus < 1.0 || visits < 200 {
        return false;
    }
    value >= (50.0 / (50.0 + bonus) + 0.05).max(0.92)
}

/// The seat's bot, searching on twin `G`.
pub struct ZuniqBot<G> {
    seat: PlayerId,
    seed: i64,
    iterations: Option<u64>,
    exploration: f64,
    /// The game as read from the views (and the bot's own answers).
    state: RefState,
    clock: Clock,
    stats: SearchStats,
    rng: SearchRng,
    game: PhantomData<fn() -> G>,
}

impl<G> ZuniqBot<G>
where
    G: SearchGame<Action = Action>,
    G::State: FromReference<RefState>,
{
    /// A bot for `seat` with a fixed iteration budget per move, or the clock when `None`.
    pub fn new(seat: PlayerId, seed: i64, iterations: Option<u64>) -> Self {
        ZuniqBot {
            seat,
            seed,
            iterations,
            exploration: EXPLORATION,
            state: RefState::new(),
            clock: Clock::default(),
            stats: SearchStats::default(),
            rng: SearchRng::new(seed),
            game: PhantomData,
        }
    }

    /// A bot joining a game at `state` (for tests and analysis: the position it would have
    /// rebuilt from the views so far).
    pub fn resume(seat: PlayerId, seed: i64, iterations: Option<u64>, state: &RefState) -> Self {
        ZuniqBot { state: state.clone(), ..Self::new(seat, seed, iterations) }
    }

    /// The same bot with another UCB exploration constant.
    pub fn with_exploration(mut self, exploration: f64) -> Self {
        self.exploration = exploration;
        self
    }

    /// The game as the bot knows it.
    pub fn state(&self) -> &RefState {
        &self.state
    }

    /// The first few plies of a random playout on `G` from `state` (at ply `ply`), timed and
    /// extrapolated to a whole playout: the cost of one search iteration, estimated before the
    /// first search so that even that one cannot overrun, and cheaply (a whole reference
    /// playout from the empty board takes milliseconds, more than a tiny budget's move).
    fn probe(&mut self, state: &G::State, ply: u32) -> Duration {
        const PROBE_PLIES: u32 = 4;
        let start = Instant::now();
        let mut s = state.clone();
        let mut slots: Vec<Option<Action>> = vec![None; 2];
        let mut legal = G::MoveList::default();
        let mut plies = 0;
        while plies < PROBE_PLIES {
            let Some(mover) = G::to_act(&s).first() else { break };
            G::legal_moves(&s, mover, &mut legal);
            if legal.is_empty() {
                break;
            }
            slots[mover] = Some(*legal.get(self.rng.below(legal.len())));
            let stepped = G::play(&mut s, &slots);
            slots[mover] = None;
            // The search keys every node it reaches.
            std::hint::black_box(G::hash(&s));
            plies += 1;
            if stepped.is_err() {
                break;
            }
        }
        (start.elapsed() / plies.max(1)).mul_f64(plies_left(ply))
    }

    /// The move to play now (the claim decided), or `None` when there is none.
    fn choose(&mut self, deadline: Instant) -> Option<Action> {
        let legal = legal_walls(&self.state);
        let first = *legal.first()?;
        let ply = self.state.ply;
        if legal.len() == 1 {
            return Some(Action { wall: first, claim: false });
        }
        let state = G::State::from_reference(&self.state);
        if self.clock.per_iteration(ply).is_none() {
            let cost = self.probe(&state, ply);
            self.clock.measured(cost, 1, ply);
        }
        let plan = self.clock.plan(Instant::now(), deadline, ply, self.iterations.is_some());
        let Some(think_end) = plan else {
            // Not even two iterations fit in what is left: a random legal wall, at once.
            let wall = legal[self.rng.below(legal.len())];
            return Some(Action { wall, claim: false });
        };
        let budget = Budget { iterations: self.iterations, deadline: Some(think_end) };
        let config = MctsConfig {
            exploration: self.exploration,
            seed: self.seed ^ i64::from(ply).wrapping_mul(0x0005_DEEC_E66D),
        };
        let searched = Instant::now();
        let result = mcts::search::<G>(&state, &budget, &config);
        self.clock.measured(searched.elapsed(), result.iterations, ply);
        self.stats.iterations += result.iterations;
        let mut action = result.action?;
        if self.state.claims[self.seat].is_none() {
            if let Some(edge) = result.root.iter().find(|e| e.action == action) {
                let value = edge.reward / f64::from(edge.visits.max(1));
                action.claim = should_claim(self.seat, ply + 1, value, edge.visits);
            }
        }
        Some(action)
    }
}

impl<G> ViewPlayer for ZuniqBot<G>
where
    G: SearchGame<Action = Action>,
    G::State: FromReference<RefState>,
{
    fn play(&mut self, input: &str, deadline: Instant) -> Option<String> {
        let now = Instant::now();
        self.clock.start(now, deadline);
        if !read_views(&mut self.state, input)
            || self.state.finished
            || self.state.to_move() != self.seat
        {
            return None;
        }
        let action = self.choose(deadline)?;
        apply_move(&mut self.state, action).ok()?;
        self.stats.moves += 1;
        Some(action.to_string())
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }
}

/// Reads one turn's input (§8: `Start`, the opponent's bare move, `Quit`) into `state`; false
/// on `Quit`.
pub(crate) fn read_views(state: &mut RefState, input: &str) -> bool {
    for line in input.split('\n') {
        match parse_turn(line.trim_end_matches('\r')) {
            Ok(View::Quit) => return false,
            Ok(view) => {
                // The referee relays only legal moves; a refusal would mean a line we
                // misread, and the position we keep stays the last consistent one.
                if let Ok(next) = state_from_view(state, &view) {
                    *state = next;
                }
            }
            Err(_) => {}
        }
    }
    true
}

/// The search bot for `seat`: `builtin:mcts` (the search of [`super::zuniq_mcts`], on the fast
/// twin's board; `@reference` plays this module's search on the reference engine, since the
/// new one is written on the fast bitboards) or `builtin:mcts-v1` (this module's search, on
/// the engine of `spec`).
#[cfg(feature = "builtin")]
pub fn player(spec: &SearchSpec, seat: PlayerId, seed: i64) -> Result<Box<dyn ViewPlayer>, String> {
    if seat > 1 {
        return Err(format!("Zuniq has two seats, not seat {seat}"));
    }
    if spec.algorithm == "mcts" && spec.engine == EngineKind::Fast {
        return Ok(super::zuniq_mcts::player(spec, seat, seed));
    }
    Ok(match spec.engine {
        EngineKind::Reference => Box::new(ZuniqBot::<Zuniq>::new(seat, seed, spec.iterations)),
        EngineKind::Fast => Box::new(ZuniqBot::<FastZuniq>::new(seat, seed, spec.iterations)),
    })
}
