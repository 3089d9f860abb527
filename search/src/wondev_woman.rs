//! The search bot of Wondev Woman (issue 15): `builtin:alphabeta[@reference|@fast]`, the
//! contest runner-up's design (`postmortems/wondev-woman-runner-up.txt`): locate the enemy in the
//! fog, place it somewhere, and run a deep alpha-beta ([`super::alphabeta`]) with the Voronoi
//! evaluation.
//!
//! # Playing from the view
//!
//! Each turn the bot reads only the referee's text (§9): the grid, its own units, the visible
//! enemy units and its legal list. It keeps the fog deduction (§7; the post-mortem's "Possible
//! location deduction", `twinsim_fast::wondev_woman::bot::fog::Tracker`) up to date with every
//! view and the action it printed, which gives every enemy placement (and alive flag) consistent with
//! everything seen so far. The search needs one full state, so the bot picks one hypothesis, as
//! the post-mortem's "Placing the enemy" does:
//! 1. where the enemy would be had it played the reply our last search expected (the second
//!    move of the principal variation), if that is still possible;
//! 2. otherwise the placement worst for us by the static evaluation (a pessimistic guess: we
//!    play against the most dangerous enemy the views allow); when there are very many
//!    hypotheses, among a seeded sample of them.
//!
//! The searched state is the view with that hypothesis
//! (`twinsim_reference::wondev_woman::protocol::state_from_view`): us as player 0 (the rules do
//! not depend on the seat, §5 to §7), the round counted from our turns (for the 200-round end,
//! §8), and both scores at 0: scores are not shown (§9), so, like the runner-up, the search
//! counts the points scored from now on.
//!
//! # Twins
//!
//! The search runs on the engine of the spec (`@reference` or `@fast`), through the same generic
//! code; the evaluation, key and move hints below are implemented for both twins' states and
//! agree exactly, so a node budget (`:iterations=N`) gives the same moves on both. The view
//! bookkeeping (fog deduction, choice of the hypothesis) is not search: it uses the fast twin for
//! both engines (its results equal the reference's, `tests/all/wondev_fog.rs`), because the
//! reference deduction takes about 1 ms per update (100 times the fast one, README), a fifth of
//! a whole 5 ms turn at `--time-scale 0.1` and more on the early turns with hundreds of
//! placements; so the engines differ only in the search, which is what the payoff table
//! measures.
//!
//! # Answers
//!
//! The answer is always a line of the view's legal list: the search's root moves are the
//! determinized state's legal actions, which equal the view's (fog module, "About the legal
//! list"), and the answer is still checked against the view (falling back on its first line). An
//! empty list (a stuck unit pair) is answered `ACCEPT-DEFEAT`, the only line there is.

use super::alphabeta::{AlphaBeta, AlphaBetaConfig, Heuristic, MoveHints};
use super::bot::{think_until, SearchSpec, SearchStats, ViewPlayer};
use super::{Budget, FromReference, SearchRng};
use std::marker::PhantomData;
use std::time::{Duration, Instant};
use twinsim_fast::game::SearchGame;
use twinsim_fast::wondev_woman::board as fb;
use twinsim_fast::wondev_woman::bot::fog::Tracker;
use twinsim_fast::wondev_woman::FastWondevWoman;
use twinsim_reference::game::{EngineKind, PlayerId};
#[cfg(feature = "reference-twin")]
use twinsim_reference::wondev_woman::bot::eval;
use twinsim_reference::wondev_woman::bot::fog::Hypothesis;
use twinsim_reference::wondev_woman::protocol::{parse_init, parse_turn, state_from_view, View};
use twinsim_reference::wondev_woman::rules;
use twinsim_reference::wondev_woman::{Action, Dir, Kind, State, WondevWoman};

/// The search bot for `seat` (the bot does not use it: like a process bot it does not know its
/// seat, and the fog deduction finds out what the views tell).
#[cfg(feature = "builtin")]
pub fn player(spec: &SearchSpec, seat: PlayerId, seed: i64) -> Result<Box<dyn ViewPlayer>, String> {
    let _ = seat;
    if spec.algorithm != "alphabeta" {
        return Err(format!("wondev-woman has no {spec} search (it has builtin:alphabeta)"));
    }
    Ok(match spec.engine {
        EngineKind::Reference => Box::new(AlphaBetaBot::<WondevWoman>::new(spec.iterations, seed)),
        EngineKind::Fast => Box::new(AlphaBetaBot::<FastWondevWoman>::new(spec.iterations, seed)),
    })
}

// ---------------------------------------------------------------------------------------------
// Per-state traits, for both twins.

/// The runner-up's final evaluation, `2 · Voronoi difference + score difference + accessible
/// neighbours difference` (post-mortem "Evaluation"; cells each side reaches first, the side to
/// move winning ties), from `player`'s side.
#[cfg(feature = "reference-twin")]
impl Heuristic for State {
    fn heuristic(&self, player: PlayerId) -> i32 {
        let v = eval::evaluate(self);
        if player == 0 {
            v
        } else {
            -v
        }
    }
}

/// The same evaluation on bitboards (`twinsim_fast::wondev_woman::bot::voronoi`, the reference's twin).
impl Heuristic for twinsim_fast::wondev_woman::State {
    fn heuristic(&self, player: PlayerId) -> i32 {
        let v = twinsim_fast::wondev_woman::bot::voronoi::evaluate(self);
        if player == 0 {
            v
        } else {
            -v
        }
    }
}

/// A move's identity: push or move, the cell the unit stands on (not its id: the post-mortem's
/// "pawn permutation symmetry", so the history of a move survives the units swapping places),
/// and the two directions. `ACCEPT-DEFEAT` is the last id.
fn move_id(kind: Kind, from: u8, d1: Dir, d2: Dir) -> usize {
    let dir = |d: Dir| Dir::ALL.iter().position(|&e| e == d).unwrap_or(0);
    ((usize::from(kind == Kind::Push) * 64 + usize::from(from & 63)) * 8 + dir(d1)) * 8 + dir(d2)
}

/// Identities of [`move_id`].
const WONDEV_MOVE_IDS: usize = 2 * 64 * 64 + 1;

/// The post-mortem's "game specific heuristic" for ties of history: the height of the cell the
/// unit moves to (climbing, scoring on 3) or of the cell the pushed enemy stands on (pushing it
/// down from high ground).
fn move_hint(height_of_target: u8) -> i32 {
    i32::from(height_of_target)
}

#[cfg(feature = "reference-twin")]
impl MoveHints<Action> for State {
    const MOVE_IDS: usize = WONDEV_MOVE_IDS;
    fn move_id(&self, mover: PlayerId, action: &Action) -> usize {
        match *action {
            Action::Build { kind, unit, dir1, dir2 } => {
                let from = self.units[mover.min(1)].get(unit).map_or(63, |&p| fb::cell(p));
                move_id(kind, from, dir1, dir2)
            }
            Action::AcceptDefeat => WONDEV_MOVE_IDS - 1,
        }
    }
    fn move_hint(&self, mover: PlayerId, action: &Action) -> i32 {
        match *action {
            Action::Build { unit, dir1, .. } => {
                let from = self.units[mover.min(1)].get(unit).copied();
                move_hint(from.and_then(|p| self.height(p.neighbour(dir1))).unwrap_or(0))
            }
            Action::AcceptDefeat => i32::MIN,
        }
    }
}

impl MoveHints<Action> for twinsim_fast::wondev_woman::State {
    const MOVE_IDS: usize = WONDEV_MOVE_IDS;
    fn move_id(&self, mover: PlayerId, action: &Action) -> usize {
        match *action {
            Action::Build { kind, unit, dir1, dir2 } => {
                let from = self.units.get(mover.min(1) * 2 + unit).copied().unwrap_or(63);
                move_id(kind, from, dir1, dir2)
            }
            Action::AcceptDefeat => WONDEV_MOVE_IDS - 1,
        }
    }
    fn move_hint(&self, mover: PlayerId, action: &Action) -> i32 {
        match *action {
            Action::Build { unit, dir1, .. } => {
                let from = self.units.get(mover.min(1) * 2 + unit).copied().unwrap_or(fb::NONE);
                let to = if from == fb::NONE {
                    fb::NONE
                } else {
                    fb::NB[from as usize][fb::sorted_index(dir1) as usize]
                };
                move_hint(if to == fb::NONE { 0 } else { self.h[to as usize] })
            }
            Action::AcceptDefeat => i32::MIN,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The bot.

/// Share of the time left that a turn thinks, and the part of the limit always kept free (for
/// parsing, the fog update and the answer). The bot's own overhead after the deadline is one
/// node (microseconds), so the rest is slack for the scheduler: on a loaded two-core machine a
/// preempted thread loses 4 to 12 ms at a time, longer than a whole 5 ms turn, and the shorter
/// the thinking, the fewer turns such a preemption lands in.
const THINK_FRACTION: f64 = 0.4;
const THINK_MARGIN: Duration = Duration::from_millis(1);
/// Most hypotheses scored when choosing the determinization (a seeded sample beyond that).
const MAX_SCORED_HYPOTHESES: usize = 256;

/// Picks the hypothesis to search: `predicted` if possible, else the one whose static evaluation
/// is worst for us (ties: the enemy alive, then the first in order), scoring at most
/// `MAX_SCORED_HYPOTHESES` of them (a sample drawn with `rng`).
pub fn choose_hypothesis(
    view: &View,
    hypotheses: &[Hypothesis],
    predicted: Option<&Hypothesis>,
    round: u32,
    rng: &mut SearchRng,
) -> Option<Hypothesis> {
    if let Some(p) = predicted.filter(|p| hypotheses.contains(p)) {
        return Some(*p);
    }
    let mut candidates: Vec<Hypothesis> = hypotheses.to_vec();
    if candidates.len() > MAX_SCORED_HYPOTHESES {
        // A partial Fisher-Yates shuffle: the first MAX_SCORED_HYPOTHESES are a uniform sample.
        for i in 0..MAX_SCORED_HYPOTHESES {
            let j = i + rng.below(candidates.len() - i);
            candidates.swap(i, j);
        }
        candidates.truncate(MAX_SCORED_HYPOTHESES);
        candidates.sort();
    }
    candidates.into_iter().min_by_key(|h| {
        let s = twinsim_fast::wondev_woman::State::from(&state_from_view(
            view,
            h.enemy,
            h.enemy_alive,
            round,
        ));
        (twinsim_fast::wondev_woman::bot::voronoi::evaluate(&s), !h.enemy_alive)
    })
}

/// `builtin:alphabeta` on engine `G` (see the module documentation).
pub struct AlphaBetaBot<G: SearchGame> {
    iterations: Option<u64>,
    rng: SearchRng,
    /// Grid size and units per player, from the init input.
    init: Option<(usize, usize)>,
    tracker: Tracker,
    last_action: Option<Action>,
    predicted: Option<Hypothesis>,
    turn: u32,
    search: AlphaBeta,
    stats: SearchStats,
    /// Depth completed on the last turn (for tests and diagnostics).
    pub last_depth: u32,
    engine: PhantomData<fn() -> G>,
}

impl<G> AlphaBetaBot<G>
where
    G: SearchGame<Action = Action>,
    G::State: Heuristic + MoveHints<Action> + FromReference<State>,
{
    /// A bot that searches `iterations` nodes per move, or against the clock when `None`.
    pub fn new(iterations: Option<u64>, seed: i64) -> Self {
        AlphaBetaBot {
            iterations,
            rng: SearchRng::new(seed),
            init: None,
            tracker: Tracker::new(),
            last_action: None,
            predicted: None,
            turn: 0,
            // Two moves of principal variation: ours and the reply the enemy placement follows.
            search: AlphaBeta::new(AlphaBetaConfig { max_pv: 2, ..AlphaBetaConfig::default() }),
            stats: SearchStats::default(),
            last_depth: 0,
            engine: PhantomData,
        }
    }

    /// Reads the input (init lines first on the first turn) into a view.
    fn read(&mut self, input: &str) -> Option<View> {
        let text = match self.init {
            Some(_) => input,
            None => {
                let mut parts = input.splitn(3, '\n');
                let (a, b) = (parts.next()?, parts.next()?);
                self.init = parse_init(&format!("{a}\n{b}")).ok();
                parts.next()?
            }
        };
        let (size, units) = self.init?;
        parse_turn(text, size, units).ok()
    }

    /// The answer to `view` (not yet printed), searching until `until`.
    fn decide(&mut self, view: &View, until: Instant) -> Action {
        let Some(&fallback) = view.legal.first() else {
            return Action::AcceptDefeat;
        };
        let deduction = self.tracker.update(view, self.last_action.as_ref()).clone();
        let hypotheses: Vec<Hypothesis> = self.tracker.hypotheses().into_iter().collect();
        let predicted = self.predicted.take();
        if deduction.placements.is_empty() {
            // Not the top league's view (§11: one unit, or no fog): nothing to place.
            return fallback;
        }
        let Some(h) =
            choose_hypothesis(view, &hypotheses, predicted.as_ref(), self.turn, &mut self.rng)
        else {
            return fallback;
        };
        let root = state_from_view(view, h.enemy, h.enemy_alive, self.turn);
        let budget = match self.iterations {
            Some(n) => Budget { iterations: Some(n), deadline: Some(until) },
            None => Budget::until(until),
        };
        let result = self.search.search::<G>(&G::State::from_reference(&root), budget);
        self.stats.iterations += result.nodes;
        self.last_depth = result.depth;
        let action = result.action.filter(|a| view.legal.contains(a)).unwrap_or(fallback);
        self.predicted = predict(&root, &action, result.pv.get(1));
        action
    }
}

/// Where the enemy will be after our `action` and its expected `reply` (the principal variation),
/// from `root` (the enemy is player 1 there). `None` when the enemy is to move and no reply is
/// known.
fn predict(root: &State, action: &Action, reply: Option<&Action>) -> Option<Hypothesis> {
    let mut s = root.clone();
    rules::apply_action(&mut s, 0, action);
    if s.to_move == Some(1) && !s.game_over {
        rules::apply_action(&mut s, 1, reply?);
    }
    let enemy = [*s.units[1].first()?, *s.units[1].get(1)?];
    Some(Hypothesis { enemy, enemy_alive: !s.dead[1] })
}

impl<G> ViewPlayer for AlphaBetaBot<G>
where
    G: SearchGame<Action = Action>,
    G::State: Heuristic + MoveHints<Action> + FromReference<State>,
{
    fn play(&mut self, input: &str, deadline: Instant) -> Option<String> {
        let view = self.read(input)?;
        let until = think_until(deadline, THINK_FRACTION, THINK_MARGIN);
        let action = self.decide(&view, until);
        self.last_action = Some(action);
        self.turn += 1;
        self.stats.moves += 1;
        Some(action.to_string())
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }
}
