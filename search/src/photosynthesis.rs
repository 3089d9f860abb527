//! The Photosynthesis search bot (issue 15): `builtin:beam`, the [`super::beam`] search
//! over a day's actions with the evaluations of the Legend post-mortem
//! (`postmortems/photosynthesis-legend.txt`):
//!
//! - layers are ranked by a cheap "sun income and score + a small weighted bonus for SOIL score"
//!   ([`heuristic`]; the income of every remaining day, see [`LAYER_READS_EVERY_DAY`]);
//! - a plan that ends the day (its WAIT) is scored by the "naive static WAIT policy" playout
//!   ([`plan_value`]): income over the remaining days with a ×0.95 decay per day, tall trees
//!   harvested at the end (without the post-mortem's pessimism about nutrients, which lost in
//!   self-play), and a bonus for small trees that still have the days to grow.
//!
//! **Opponent model**: the opponent WAITs. In the search it does nothing more this day (when it
//! is asked, it is answered WAIT), and in the playouts its trees stand still as ours do. Its
//! estimated final score is subtracted from ours, so shading it and racing it for nutrients
//! count, but it is never expected to react.
//!
//! **Honesty**: the bot rebuilds the state from each view (`twinsim_reference::photosynthesis::protocol::state_from_view`): the view shows
//! the whole board (Photosynthesis has no fog). What it does not show is the referee's
//! generator, used only to shuffle the printed lists (§8): the rebuilt state's generator is
//! determinized with the bot's own seed, and no decision depends on it. Each turn the bot
//! re-plans from scratch and answers the first action of the best plan, checked against the
//! view's own list of possible actions (WAIT if, against all odds, it is not there).

use super::beam::{self, BeamConfig, BeamEvaluate, BeamResult};
use super::bot::{think_until, SearchSpec, SearchStats, ViewPlayer};
use super::photosynthesis_days::{self as days, DaysConfig};
use super::Budget;
use std::time::{Duration, Instant};
use twinsim_fast::game::SearchGame;
use twinsim_fast::photosynthesis::tables::{ALL, RICH2, RICH3, SHADOW};
use twinsim_fast::photosynthesis::FastPhotosynthesis;
use twinsim_reference::game::{EngineKind, PlayerId};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::photosynthesis::protocol::{state_from_view, CellInfo};
use twinsim_reference::photosynthesis::{self as r, Action, Photosynthesis};

// ---------------------------------------------------------------------------------------------
// What the evaluations read, from either twin
// ---------------------------------------------------------------------------------------------

/// The part of a state the evaluations read, as bit masks (bit `c` = cell `c`). Both twins
/// produce it from the same position bit for bit, so the evaluations (one function over this
/// type) give the same floats on both: what makes their searches agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Cells holding a tree of size 0 (seed), 1, 2, 3.
    pub size: [u64; 4],
    /// Cells holding a tree of player 0 / 1.
    pub owner: [u64; 2],
    /// Holes (richness 0).
    pub holes: u64,
    /// Dormant trees (used this day).
    pub dormant: u64,
    /// Sun points of player 0 / 1 (§2: spent on actions).
    pub sun: [i32; 2],
    /// Score of player 0 / 1.
    pub score: [i32; 2],
    /// The nutrient value a harvest scores now (§2: starts at 20, never below 0).
    pub nutrients: i32,
    /// The day (round) being played, from 0.
    pub day: u32,
    /// `MAX_ROUNDS` of the league (§5).
    pub max_rounds: u32,
    /// The game has ended.
    pub game_over: bool,
}

/// A twin's state seen as a [`Summary`].
pub trait Summarize {
    /// The summary.
    fn summary(&self) -> Summary;
}

/// The reference state: one pass over its tree map.
impl Summarize for r::State {
    fn summary(&self) -> Summary {
        let mut s = Summary {
            size: [0; 4],
            owner: [0; 2],
            holes: 0,
            dormant: 0,
            sun: [self.players[0].sun, self.players[1].sun],
            score: [self.players[0].score, self.players[1].score],
            nutrients: self.nutrients,
            day: self.day,
            max_rounds: self.params.max_rounds(),
            game_over: self.game_over,
        };
        for (&cell, tree) in &self.trees {
            s.size[tree.size as usize] |= 1 << cell;
            s.owner[tree.owner] |= 1 << cell;
            if tree.dormant {
                s.dormant |= 1 << cell;
            }
        }
        for (cell, &rich) in self.richness.iter().enumerate() {
            if rich == 0 {
                s.holes |= 1 << cell;
            }
        }
        s
    }
}

/// The fast state: its masks are already these.
impl Summarize for twinsim_fast::photosynthesis::State {
    fn summary(&self) -> Summary {
        Summary {
            size: self.size,
            owner: self.owner,
            holes: self.holes,
            dormant: self.dormant,
            sun: self.sun,
            score: self.score,
            nutrients: self.nutrients,
            day: u32::from(self.day),
            max_rounds: match self.league {
                0 | 1 => 1,
                2 => 6,
                _ => 24,
            },
            game_over: self.game_over(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The evaluations
// ---------------------------------------------------------------------------------------------

/// The post-mortem's "multiplicative decay of ×0.95 for each day on sun income": later sun is
/// less sure (the board will change) and less useful (less time to spend it). Self-play as for
/// [`GROWTH_SHARE`]: 0.9 won 26 of 80 games against 0.95, and 0.98 won 32.
pub const DAY_DECAY: f64 = 0.95;
/// Share of a completion's value credited to a seed / size-1 / size-2 tree that still has the
/// days to grow and complete: the post-mortem's "bonus score for seeds", since "an actual
/// playout would have us grow these trees". Only the best seed is credited: more seeds at once
/// only raise the price of the next ones and crowd the board.
///
/// Measured in self-play at 2000 iterations per move, 80 games with the variant on each seat
/// for 40: crediting one seed won 64 against crediting every seed (which planted two or three
/// a day once the search was wide enough); these shares won 58 against (0.2, 0.4, 0.6), 80
/// against none, and (0.05, 0.12, 0.2) won 44 against these (not significant).
pub const GROWTH_SHARE: [f64; 3] = [0.1, 0.25, 0.4];
/// Weight of a hypothetical harvest against the same points scored now: slightly less (the
/// opponent may lower the nutrients first), so that completing a tree on the last day ranks
/// above keeping it for a harvest that the day's end would never bring.
pub const HARVEST_CERTAINTY: f64 = 0.99;
/// Weight of the SOIL bonus (the richness bonus of the cells of one's trees) in [`heuristic`]:
/// the post-mortem's "small weighted bonus for SOIL score".
pub const SOIL_WEIGHT: f64 = 0.1;

/// §5 sun collected by `player` at a gathering with the sun pointing to `dir` over the trees of
/// `s` (the trees stand still: the WAIT-only playout).
fn income(s: &Summary, dir: usize, player: PlayerId) -> i32 {
    let mut shadow = [0u64; 4];
    for size in 1..4 {
        let mut m = s.size[size];
        while m != 0 {
            shadow[size] |= SHADOW[dir][m.trailing_zeros() as usize][size];
            m &= m - 1;
        }
    }
    // A tree of size k is spooked by shadows of size ≥ k.
    let at_least = [0, shadow[1] | shadow[2] | shadow[3], shadow[2] | shadow[3], shadow[3]];
    let mine = s.owner[player];
    (1..4).map(|k| k as i32 * (mine & s.size[k] & !at_least[k]).count_ones() as i32).sum()
}

/// §6.3 the points of completing a tree on `cell` when `nutrients` are left: nutrients plus
/// the richness bonus (0 / 2 / 4).
fn completion_points(s: &Summary, cell: usize, nutrients: i32) -> i32 {
    let bit = 1u64 << cell;
    let bonus = if s.holes & bit != 0 {
        0
    } else if RICH3 & bit != 0 {
        4
    } else if RICH2 & bit != 0 {
        2
    } else {
        0
    };
    nutrients.max(0) + bonus
}

/// The SOIL bonus of `player`'s growing trees that can still be completed (a grow per day, the
/// completion on the last day at the latest): the richness bonus their cells would give. Tall
/// trees are left out (their harvest, bonus included, is in the estimate: counting their soil
/// again would make completing one look like a loss), and so are seeds on the last days.
fn soil(s: &Summary, player: PlayerId) -> i32 {
    let days_left = s.max_rounds.saturating_sub(s.day + 1);
    let mut mine = 0;
    for size in 0..3 {
        if days_left + size as u32 >= 3 {
            mine |= s.owner[player] & s.size[size];
        }
    }
    let mine = mine & ALL & !s.holes;
    4 * (mine & RICH3).count_ones() as i32 + 2 * (mine & RICH2).count_ones() as i32
}

/// The estimated final score of `player` if both sides WAIT to the end: score, plus a third of
/// the sun (now and collected on the remaining days, decayed), plus the harvest of the tall
/// trees on the last day, plus a share of a harvest for the smaller trees that have the days to grow. `full`: the income of every remaining day
/// (the playout, at most six distinct sun directions); otherwise the next day's income stands
/// for every remaining day (the cheap heuristic).
fn estimate(s: &Summary, player: PlayerId, full: bool) -> f64 {
    let sun = f64::from(s.sun[player]);
    let score = f64::from(s.score[player]);
    if s.game_over {
        // §9: the exact final score (the tie-break by trees is left out).
        return score + f64::from(s.sun[player] / 3);
    }
    // Gatherings still to come: days day+1 .. max_rounds-1.
    let days_left = s.max_rounds.saturating_sub(s.day + 1);
    let mut future = 0.0;
    let mut weight = 1.0;
    let mut by_dir = [None::<i32>; 6];
    let next = if full { 0 } else { income(s, ((s.day + 1) % 6) as usize, player) };
    for d in s.day + 1..s.max_rounds {
        let dir = (d % 6) as usize;
        let n =
            if full { *by_dir[dir].get_or_insert_with(|| income(s, dir, player)) } else { next };
        future += weight * f64::from(n);
        weight *= DAY_DECAY;
    }
    let mut value = score + (sun + future) / 3.0;
    // Last-day harvest of the tall trees, best cells first (all of them score the same
    // nutrients value only if completed in one frame; one after the other is the safe guess).
    // The post-mortem first lowered the nutrients by the other side's tall trees ("so that my
    // bot didn't hold onto trees for too long"); in self-play as for [`GROWTH_SHARE`], leaving
    // that out won 58 of 80 games against it (lowering by half of them: 36 of 80, not
    // significant).
    // On the last day itself (mid-day states of the layers), only the trees not used today can
    // still be completed, as many as the sun pays for: a tree just grown to size 3 is worth
    // nothing more then.
    let mut nutrients = s.nutrients;
    let mut tall = s.owner[player] & s.size[3] & !s.holes;
    let mut can_pay = usize::MAX;
    if days_left == 0 {
        tall &= !s.dormant;
        can_pay = (s.sun[player].max(0) / 4) as usize;
    }
    // Richness bonuses, best first: 4 (lush), 2, 0 (no allocation: this runs at every node).
    let lush = (tall & RICH3).count_ones() as usize;
    let ok = (tall & RICH2).count_ones() as usize;
    let poor = tall.count_ones() as usize - lush - ok;
    // `repeat(..).take(..)`, not `repeat_n` (Rust 1.82): bundles build on Rust 1.70.
    let bonuses = std::iter::repeat(4).take(lush).chain(std::iter::repeat(2).take(ok));
    for bonus in bonuses.chain(std::iter::repeat(0).take(poor)).take(can_pay) {
        let gain = f64::from(nutrients.max(0) + bonus) - 4.0 / 3.0;
        if gain > 0.0 {
            value += HARVEST_CERTAINTY * gain;
        }
        nutrients -= 1;
    }
    // Smaller trees: a share of a harvest if they can still make it (a grow per day, then the
    // completion), net of the sun the grows and the completion cost; the best seed only.
    for (size, share) in GROWTH_SHARE.iter().enumerate() {
        if days_left < (4 - size) as u32 {
            continue;
        }
        let rest_cost = [15.0, 14.0, 11.0][size] / 3.0;
        let mut m = s.owner[player] & s.size[size];
        let mut best_seed = 0.0f64;
        while m != 0 {
            let cell = m.trailing_zeros() as usize;
            m &= m - 1;
            let gain = share * (f64::from(completion_points(s, cell, nutrients)) - rest_cost);
            if size == 0 {
                best_seed = best_seed.max(gain);
            } else if gain > 0.0 {
                value += gain;
            }
        }
        value += best_seed;
    }
    value
}

/// Whether the layer ranking reads the income of every remaining day (six shadow maps at most)
/// rather than only the next day's. The post-mortem's cheapest form (the next day's income)
/// ranked layers badly when few states are expanded: at 200 iterations per move, against
/// `builtin:greedy` over 20 games, 7 wins and 7 losses in the games without timeouts, against 15
/// and 2 with every day's income. Both are table lookups, no simulation.
pub const LAYER_READS_EVERY_DAY: bool = true;

/// The layer ranking: "income + score + small soil bonus", i.e. the WAIT-only estimate of
/// `player` minus the opponent's plus [`SOIL_WEIGHT`] times the SOIL difference.
pub fn heuristic(s: &Summary, player: PlayerId) -> f64 {
    let full = LAYER_READS_EVERY_DAY;
    estimate(s, player, full) - estimate(s, 1 - player, full)
        + SOIL_WEIGHT * f64::from(soil(s, player) - soil(s, 1 - player))
}

/// The value of a finished day plan: the WAIT-only playout estimate of `player` minus the
/// opponent's (exact final score difference at the end of the game). Subtracting the opponent
/// matters: in self-play as for [`GROWTH_SHARE`], searching on one's own estimate alone won 13
/// of 80 games.
pub fn plan_value(s: &Summary, player: PlayerId) -> f64 {
    estimate(s, player, true) - estimate(s, 1 - player, true)
}

impl BeamEvaluate for r::State {
    fn heuristic(&self, player: PlayerId) -> f64 {
        heuristic(&self.summary(), player)
    }
    fn plan_value(&self, player: PlayerId) -> f64 {
        plan_value(&self.summary(), player)
    }
    fn stage(&self) -> u32 {
        self.day
    }
}

impl BeamEvaluate for twinsim_fast::photosynthesis::State {
    fn heuristic(&self, player: PlayerId) -> f64 {
        heuristic(&self.summary(), player)
    }
    fn plan_value(&self, player: PlayerId) -> f64 {
        plan_value(&self.summary(), player)
    }
    fn stage(&self) -> u32 {
        u32::from(self.day)
    }
}

// ---------------------------------------------------------------------------------------------
// The search on a position
// ---------------------------------------------------------------------------------------------

/// The opponent model: WAIT whenever asked.
fn waits<S>(_: &S, _: PlayerId) -> Option<Action> {
    Some(Action::Wait)
}

/// The beam search for `player` on either twin (the opponent WAITs).
pub fn search<G: SearchGame<Action = Action>>(
    state: &G::State,
    player: PlayerId,
    budget: &Budget,
    config: &BeamConfig,
) -> BeamResult<Action>
where
    G::State: BeamEvaluate,
{
    beam::search::<G>(state, player, budget, config, waits)
}

// ---------------------------------------------------------------------------------------------
// The bot
// ---------------------------------------------------------------------------------------------

/// Part of the time left the search may use.
const TIME_FRACTION: f64 = 0.5;
/// Part of the time left `builtin:beam` may use: less than `builtin:beam-v1`, which often
/// stops early (its one-day plans are all seen), while the days' plans fill any time. At
/// half the time, under a load average of 15 to 20 on 2 cores, it timed out 53 times in 113
/// games (`builtin:beam-v1`: 20); it has iterations to spare (about 33,000 a move at half
/// the time, where 8,000 already beat `builtin:beam-v1` 38 games to 2).
const DAYS_TIME_FRACTION: f64 = 0.35;
/// Time kept free before the deadline when there is room for it: a thread descheduled on a
/// loaded machine notices the clock only when it runs again, and with 4 builds on 2 cores that
/// was measured at up to 7 ms (an answer computed in 4 ms of budget came back after 11 ms).
const STALL_ALLOWANCE: Duration = Duration::from_millis(8);
/// The least part of the time left the search gets, however short the limit.
const MIN_FRACTION: f64 = 0.2;

/// When to stop thinking: half the time left, but no later than [`STALL_ALLOWANCE`] before the
/// deadline, and at least a fifth of the time left (100 ms: 50 ms; 10 ms: 2 ms; 5 ms: 1 ms).
fn stop_thinking(deadline: Instant) -> Instant {
    let half = think_until(deadline, TIME_FRACTION, Duration::ZERO);
    let before_stall = think_until(deadline, 1.0, STALL_ALLOWANCE);
    half.min(before_stall).max(think_until(deadline, MIN_FRACTION, Duration::ZERO))
}

/// Which search a [`BeamBot`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    /// `builtin:beam-v1`: [`search`], the opponent waits.
    WaitingOpponent,
    /// `builtin:beam`: [`super::photosynthesis_days::search`], the opponent's day predicted.
    PredictedOpponent,
}

/// `builtin:beam` and `builtin:beam-v1`: re-plan every turn from the view.
pub struct BeamBot {
    variant: Variant,
    engine: EngineKind,
    seat: PlayerId,
    seed: i64,
    iterations: Option<u64>,
    config: BeamConfig,
    cells: Option<Vec<CellInfo>>,
    stats: SearchStats,
}

impl BeamBot {
    /// `builtin:beam` on the fast twin for `seat`, its randomness seeded by `seed`, with a
    /// fixed iteration budget per move or (`None`) the clock.
    pub fn new(seat: PlayerId, seed: i64, iterations: Option<u64>) -> BeamBot {
        BeamBot {
            variant: Variant::PredictedOpponent,
            engine: EngineKind::Fast,
            seat,
            seed,
            iterations,
            config: BeamConfig::default(),
            cells: None,
            stats: SearchStats::default(),
        }
    }

    /// The answer to one view.
    fn answer(&mut self, input: &str, deadline: Instant) -> Action {
        let Ok(view) = r::parse_turn(input) else { return Action::Wait };
        if let Some(cells) = &view.cells {
            self.cells = Some(cells.clone());
        }
        let Some(cells) = &self.cells else { return Action::Wait };
        // The determinized generator: the bot's seed and the turn (never the referee's).
        let rng_seed = JavaRandom::new(self.seed ^ (i64::from(view.day) << 32)).next_long();
        let state = state_from_view(cells, &view, self.seat, rng_seed);
        let budget = match self.iterations {
            Some(n) => Budget {
                iterations: Some(n),
                // The clock only as a safety net: late, but still clear of a stall.
                deadline: Some(think_until(deadline, 1.0, STALL_ALLOWANCE).max(think_until(
                    deadline,
                    TIME_FRACTION,
                    Duration::ZERO,
                ))),
            },
            None => Budget::until(match self.variant {
                Variant::WaitingOpponent => stop_thinking(deadline),
                Variant::PredictedOpponent => stop_thinking(deadline).min(think_until(
                    deadline,
                    DAYS_TIME_FRACTION,
                    Duration::ZERO,
                )),
            }),
        };
        // With an iteration budget the horizon fits the budget (deterministic, as measured);
        // on the clock the day search deepens its horizon while time lasts, so that a starved
        // search still answers from a complete plan of the current day.
        let deepen = self.iterations.is_none();
        let days = DaysConfig {
            beam: self.config,
            extra_days: match self.iterations {
                Some(n) => days::extra_days_for(n as f64),
                None => DaysConfig::default().extra_days,
            },
            ..DaysConfig::default()
        };
        let (action, iterations) = match (self.engine, self.variant) {
            #[cfg(feature = "builtin")]
            (EngineKind::Reference, Variant::WaitingOpponent) => {
                let r = search::<Photosynthesis>(&state, self.seat, &budget, &self.config);
                (r.action, r.iterations)
            }
            #[cfg(feature = "builtin")]
            (EngineKind::Reference, Variant::PredictedOpponent) => {
                let search = if deepen {
                    days::search_deepening::<Photosynthesis>
                } else {
                    days::search::<Photosynthesis>
                };
                let r = search(&state, self.seat, &budget, &days);
                (r.action, r.iterations)
            }
            (_, variant) => {
                // The search renders no view: it skips replaying the view shuffles (same game).
                let fast = twinsim_fast::photosynthesis::State::from(&state).without_views();
                if variant == Variant::WaitingOpponent {
                    let r = search::<FastPhotosynthesis>(&fast, self.seat, &budget, &self.config);
                    (r.action, r.iterations)
                } else {
                    let search = if deepen {
                        days::search_deepening::<FastPhotosynthesis>
                    } else {
                        days::search::<FastPhotosynthesis>
                    };
                    let r = search(&fast, self.seat, &budget, &days);
                    (r.action, r.iterations)
                }
            }
        };
        self.stats.iterations += iterations;
        match action {
            Some(a) if view.possible_actions.contains(&a) => a,
            _ => Action::Wait,
        }
    }
}

impl ViewPlayer for BeamBot {
    fn play(&mut self, input: &str, deadline: Instant) -> Option<String> {
        let action = self.answer(input, deadline);
        self.stats.moves += 1;
        Some(action.to_string())
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }
}

/// The search bot for `seat`.
#[cfg(feature = "builtin")]
pub fn player(spec: &SearchSpec, seat: PlayerId, seed: i64) -> Result<Box<dyn ViewPlayer>, String> {
    let variant = match spec.algorithm.as_str() {
        "beam" => Variant::PredictedOpponent,
        "beam-v1" => Variant::WaitingOpponent,
        _ => {
            return Err(format!(
                "photosynthesis has no {spec} search (it has builtin:beam, builtin:beam-v1)"
            ))
        }
    };
    Ok(Box::new(BeamBot {
        variant,
        engine: spec.engine,
        seat,
        seed,
        iterations: spec.iterations,
        config: BeamConfig::default(),
        cells: None,
        stats: SearchStats::default(),
    }))
}
