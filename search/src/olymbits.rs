//! Olymbits' search bot, `builtin:smitsimax[@reference|@fast]`: decoupled UCT ([`super::duct`],
//! the winner's "Smitsimax": one statistics table per player, each choosing by UCB over its own
//! table) on a state rebuilt from the views, with the future determinized.
//!
//! # Honesty and determinization
//!
//! Each turn the bot reads the three score lines and the mini-game lines (rules doc §10) and
//! rebuilds a reference state from them
//! (`twinsim_reference::olymbits::protocol::state_from_view`): the GPU strings give the hurdle
//! track, the remaining winds, the skating risk order and the diving goal; the registers give
//! positions, stuns, cursors, risks, points and combos; the score lines give the medals; the bot
//! counts turns itself (the view has no turn number, §10). What the view cannot show is the
//! referee's SHA1PRNG (§3): the skating order of the *next* turns and every future run. The bot
//! does not know the game's seed, so the rebuilt state's generator is seeded with the bot's own
//! seed (fresh each turn): the search sees one plausible future drawn with the referee's own
//! distributions, as the winner's simulations generated each next edition "with the same
//! distribution as in the referee". The view has no "active" flag either: a deactivated
//! opponent is recognised by its hurdler standing still
//! (`twinsim_reference::olymbits::protocol::deactivated`).
//!
//! # Clock (§10: 1000 ms for the first turn, 50 ms afterwards)
//!
//! The search thinks until [`THINK_FRACTION`] of the time left minus [`MARGIN`]; an iteration
//! is a few microseconds on either twin, so checking the clock between iterations is precise
//! enough, and the slack covers the parse, the state conversion and one scheduler stall even
//! at `--time-scale 0.05` (a 2.5 ms limit, where the bot does a single iteration).

use super::bot::{think_until, SearchSpec, SearchStats, ViewPlayer};
use super::duct::{self, DuctConfig};
use super::{Budget, Evaluate, FromReference};
use std::marker::PhantomData;
use std::time::{Duration, Instant};
use twinsim_fast::game::SearchGame;
use twinsim_fast::olymbits::SearchOlymbits;
use twinsim_reference::game::{EngineKind, PlayerId};
use twinsim_reference::olymbits::protocol::{
    deactivated, mini_games_of_first_view, state_from_view,
};
use twinsim_reference::olymbits::{
    parse_first_input, parse_turn, Action, MiniGameKind, Olymbits, State as RefState, TurnView,
    PLAYER_COUNT,
};

/// Share of the time left (after [`MARGIN`]) that the search uses on later turns.
pub const THINK_FRACTION: f64 = 0.5;
/// Share used on the first turn: a long first think makes the scheduler preempt the process
/// early on the next turn (its CPU time is then ahead of the others'), and the first turn is not
/// worth more than a few later ones.
pub const FIRST_THINK_FRACTION: f64 = 0.25;
/// Time always kept free before the deadline. Not for parsing and rendering (tens of
/// microseconds) but for the scheduler: on a loaded machine it takes the CPU away for about
/// 4 ms at a time (measured with the load at 4–6 on two cores, where `--time-scale 0.1` gives
/// 5 ms a turn). In the arena at that scale, thinking 1.75 ms a turn (3.25 ms of slack) timed
/// out in nearly every game; 100 iterations a turn (≈ 0.6 ms, 4.4 ms of slack) never did in
/// 900 turns. So the slack is at least one stall, and the search gets half of what is above
/// it: 0.5 ms at 5 ms, one iteration at 2.5 ms (`--time-scale 0.05`), 23 ms at 50 ms.
pub const MARGIN: Duration = Duration::from_millis(4);

/// The search's tuning. A playout of 12 random turns reaches the end of most running diving and
/// archery runs (12–15 ticks) and of a hurdle race, so their medals are in the leaf value.
/// Exploration is low, as the winner's "very small exploration" at first: rewards are rank
/// shares in [0, 1] and the four actions' values differ little. Measured in self-play at a
/// fixed 300 iterations a turn (mean rank reward of one bot against two of the other, 0.5 =
/// equal, 30–60 games): depth 12 vs 8 0.68, 20 vs 12 0.33, 15 vs 12 0.50; exploration 0.4 vs
/// 0.7 0.60 (0.59 at 1000 iterations), 0.25 vs 0.4 0.59 (0.56 at 1000), 0.15 vs 0.25 0.48.
pub fn config(seed: i64) -> DuctConfig {
    DuctConfig { exploration: 0.25, seed, playout_depth: 12 }
}

/// The seat's bot, searching on twin `G`.
pub struct OlymbitsBot<G> {
    seat: PlayerId,
    seed: i64,
    iterations: Option<u64>,
    /// Exploration and playout depth (the seed is replaced every turn).
    tuning: DuctConfig,
    /// Mini-game kinds, from the first view.
    kinds: Vec<MiniGameKind>,
    /// Turns answered so far (= turns resolved before the current one).
    turn: u32,
    /// The last rebuilt state.
    state: Option<RefState>,
    /// The last view read.
    view: Option<TurnView>,
    /// Players seen deactivated (never the bot itself).
    inactive: [bool; 3],
    stats: SearchStats,
    game: PhantomData<fn() -> G>,
}

impl<G> OlymbitsBot<G>
where
    G: SearchGame<Action = Action>,
    G::State: Evaluate + FromReference<RefState>,
{
    /// A bot for `seat` with a fixed iteration budget per turn, or the clock when `None`.
    pub fn new(seat: PlayerId, seed: i64, iterations: Option<u64>) -> Self {
        OlymbitsBot {
            seat,
            seed,
            iterations,
            tuning: config(seed),
            kinds: Vec::new(),
            turn: 0,
            state: None,
            view: None,
            inactive: [false; PLAYER_COUNT],
            stats: SearchStats::default(),
            game: PhantomData,
        }
    }

    /// The same bot with another tuning (exploration, playout depth; the seed is the bot's).
    pub fn with_tuning(mut self, tuning: DuctConfig) -> Self {
        self.tuning = tuning;
        self
    }

    /// The state last rebuilt from a view (with the bot's own generator).
    pub fn state(&self) -> Option<&RefState> {
        self.state.as_ref()
    }

    /// Parses the turn's input: the init lines on the first turn (§10), then the turn lines.
    fn read(&mut self, input: &str) -> Option<TurnView> {
        let input = input.trim_end_matches('\n');
        if self.kinds.is_empty() {
            let (init, view) = parse_first_input(input).ok()?;
            self.seat = init.player;
            self.kinds = mini_games_of_first_view(&view);
            Some(view)
        } else {
            parse_turn(input, self.kinds.len()).ok()
        }
    }

    /// A fresh seed per turn, so the determinized futures differ from turn to turn.
    fn turn_seed(&self) -> i64 {
        let mixed = self.seed ^ i64::from(self.turn).wrapping_mul(0x9E37_79B9_7F4A_7C15_u64 as i64);
        if mixed == 0 {
            1
        } else {
            mixed
        }
    }
}

impl<G> ViewPlayer for OlymbitsBot<G>
where
    G: SearchGame<Action = Action>,
    G::State: Evaluate + FromReference<RefState>,
{
    fn play(&mut self, input: &str, deadline: Instant) -> Option<String> {
        // A fixed iteration budget is deterministic; the clock is then only a safety net.
        let fraction = match (self.iterations, self.turn) {
            (Some(_), _) => 0.9,
            (None, 0) => FIRST_THINK_FRACTION,
            (None, _) => THINK_FRACTION,
        };
        let think_end = think_until(deadline, fraction, MARGIN);
        let view = self.read(input);
        let turn = self.turn;
        self.turn += 1;
        let Some(view) = view else {
            // Unreadable input: any action beats none (no action deactivates, §11.4).
            return Some(Action::Up.to_string());
        };
        let seed = self.turn_seed();
        if let Some(before) = &self.view {
            let gone = deactivated(before, &view, &self.kinds);
            for p in (0..PLAYER_COUNT).filter(|&p| p != self.seat) {
                self.inactive[p] |= gone[p];
            }
        }
        let rebuilt =
            state_from_view(&view, &self.kinds, turn, seed, self.state.as_ref(), self.inactive);
        self.view = Some(view);
        let state = G::State::from_reference(&rebuilt);
        self.state = Some(rebuilt);
        let budget = Budget { iterations: self.iterations, deadline: Some(think_end) };
        let result =
            duct::search::<G>(&state, self.seat, &budget, &DuctConfig { seed, ..self.tuning });
        self.stats.moves += 1;
        self.stats.iterations += result.iterations;
        Some(result.action.unwrap_or(Action::Up).to_string())
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }
}

/// The search bot for `seat`: `builtin:smitsimax` on the engine of `spec`. `@fast` searches in
/// search mode ([`SearchOlymbits`]: the fast twin with its fast generator, same rules, different
/// dice); the exact fast twin (`OlymbitsBot::<FastOlymbits>`) answers like `@reference`.
#[cfg(feature = "builtin")]
pub fn player(spec: &SearchSpec, seat: PlayerId, seed: i64) -> Result<Box<dyn ViewPlayer>, String> {
    if seat >= PLAYER_COUNT {
        return Err(format!("Olymbits has three seats, not seat {seat}"));
    }
    Ok(match spec.engine {
        EngineKind::Reference => {
            Box::new(OlymbitsBot::<Olymbits>::new(seat, seed, spec.iterations))
        }
        EngineKind::Fast => {
            Box::new(OlymbitsBot::<SearchOlymbits>::new(seat, seed, spec.iterations))
        }
    })
}
