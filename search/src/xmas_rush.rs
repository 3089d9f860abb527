//! X-mas Rush's search bot, `builtin:smitsimax` (issue 15): [`super::smitsimax`] as the
//! contest runner-up (MSmits, `postmortems/xmas-rush-runner-up.txt`) played it.
//!
//! - **Pushes in the tree, moves by policy.** PUSH turns are tree layers for both players (the
//!   28 pushes); MOVE turns below the root are played by [`random_greedy_path`]: collect the
//!   revealed quest items nearest first, then walk to a uniformly random cell within the steps
//!   left. The runner-up: "moves in a search are very unimportant compared to pushes, assuming
//!   you always collect the maximum amount of items", and a random end tile "worked even
//!   better" than an evaluated one, "no statistics were gathered on move nodes".
//! - **Depth.** "Push → move → push → move → push → move" on a PUSH turn (6 game turns); on a
//!   MOVE turn the root layer is the bot's own move candidates ([`move_candidates`]: every end
//!   cell reachable while collecting the most items, his "BFS generated move nodes first
//!   layer"), then push → move → push → move (5 turns). Either way the leaf comes right after a
//!   MOVE turn.
//! - **Evaluation** ([`value`]): quests completed (the game's score) and, as tie-breakers, a
//!   revealed quest item on one's hand tile (the runner-up's "quest item in hand" bonus) and the
//!   revealed quest items reachable from one's cell; the difference between the two players
//!   through a logistic, so that both players' rewards lie in [0, 1]. A finished game scores by
//!   rank (win 1, draw ½), the runner-up's "win bonus".
//! - **Playing from the view.** The bot rebuilds the state from the text it reads
//!   ([`twinsim_reference::xmas_rush::protocol::state_from_view`]). Hidden: each deck's order (its
//!   contents are known: one's items still in play whose quest is not revealed) — the search
//!   runs on [`DETERMINIZATIONS`] random orders, one per iteration in turn; the turn number —
//!   counted from the inputs read; the stale-push counter — counted from PUSH turns after which
//!   the board and hands did not change (a same-line conflict, §7.1).
//! - **Time.** [`think_deadline`]: half the time left, keeping a scheduler tick free when the
//!   limit allows (see [`STALL_RESERVE`]); with `:iterations=N` exactly `N` iterations per
//!   answer (a single candidate is answered at once, without iterations).
//!
//! Everything the search asks of a state goes through [`RushState`], implemented for both
//! twins from their own code (the reference's `shortest_paths`/`reachable`, the fast twin's
//! `path_tree`/bitboard flood fill), which compute the same trees in the same order: the same
//! seed and iteration budget give the same answer on both engines.

use super::bot::{think_until, SearchSpec, SearchStats, ViewPlayer};
use super::smitsimax::{self, Playbook, SmitsimaxConfig};
use super::{Budget, SearchRng};
use std::marker::PhantomData;
use std::time::{Duration, Instant};
use twinsim_fast::game::SearchGame;
use twinsim_fast::xmas_rush::typed::{self as fast_typed, PathTree};
use twinsim_fast::xmas_rush::FastXmasRush;
use twinsim_reference::game::{EngineKind, PlayerId};
use twinsim_reference::xmas_rush::protocol::{
    parse_turn, state_from_view, unseen_quests, ViewContext,
};
use twinsim_reference::xmas_rush::{
    self as r, Action, ItemName, League, Path, Pattern, TurnType, View, XmasRush, MAX_STEPS, SIZE,
};

/// Deck orders searched at once (iteration `i` uses order `i mod` this).
pub const DETERMINIZATIONS: usize = 8;

/// What the search needs to know about a state, on both twins.
pub trait RushState: Clone {
    /// The twin of a reference state.
    fn from_reference(state: &r::State) -> Self;
    /// PUSH or MOVE.
    fn turn_type(&self) -> TurnType;
    /// Player `p`'s cell, `y * 7 + x`.
    fn cell(&self, p: PlayerId) -> u8;
    /// The shortest-path tree from `cell` (BFS order, directions in index order, §7.2 steps).
    fn path_tree(&self, cell: u8) -> PathTree;
    /// The cells reachable from `cell`, as a 49-bit set.
    fn reachable(&self, cell: u8) -> u64;
    /// Player `p`'s revealed quest items lying on the board, as cells, in quest order.
    fn quest_cells(&self, p: PlayerId) -> ([u8; 3], usize);
    /// Player `p`'s completed quests.
    fn score(&self, p: PlayerId) -> i64;
    /// Whether player `p`'s hand tile carries one of his revealed quest items.
    fn holds_quest_item(&self, p: PlayerId) -> bool;
}

impl RushState for twinsim_fast::xmas_rush::State {
    fn from_reference(state: &r::State) -> Self {
        twinsim_fast::xmas_rush::State::from(state)
    }

    fn turn_type(&self) -> TurnType {
        self.turn_type
    }

    fn cell(&self, p: PlayerId) -> u8 {
        self.players[p].y * 7 + self.players[p].x
    }

    fn path_tree(&self, cell: u8) -> PathTree {
        fast_typed::path_tree(self, (cell % 7) as usize, (cell / 7) as usize)
    }

    fn reachable(&self, cell: u8) -> u64 {
        twinsim_fast::xmas_rush::bfs::reachable(self, (cell % 7) as usize, (cell / 7) as usize)
    }

    fn quest_cells(&self, p: PlayerId) -> ([u8; 3], usize) {
        twinsim_fast::xmas_rush::search::quest_cells(self, p)
    }

    fn score(&self, p: PlayerId) -> i64 {
        self.players[p].score
    }

    fn holds_quest_item(&self, p: PlayerId) -> bool {
        let byte = self.hand_items[p];
        if byte == 0 {
            return false;
        }
        let id = byte - 1;
        let pl = &self.players[p];
        usize::from(id % 2) == p && pl.quests[..pl.quests_len as usize].contains(&(id / 2))
    }
}

impl RushState for r::State {
    fn from_reference(state: &r::State) -> Self {
        state.clone()
    }

    fn turn_type(&self) -> TurnType {
        self.turn_type
    }

    fn cell(&self, p: PlayerId) -> u8 {
        (self.players[p].y * 7 + self.players[p].x) as u8
    }

    /// The reference's `shortest_paths`, laid out as the fast twin's tree: each cell's parent
    /// is the cell its path passes last, its direction the path's last step.
    fn path_tree(&self, cell: u8) -> PathTree {
        let (x, y) = ((cell % 7) as usize, (cell / 7) as usize);
        let mut tree =
            PathTree { order: [0; 49], len: 0, parent: [0; 49], dir: [0; 49], depth: [0; 49] };
        for ((cx, cy), path) in r::rules::shortest_paths(self, x, y) {
            let c = (cy * 7 + cx) as u8;
            tree.order[tree.len] = c;
            tree.len += 1;
            tree.depth[c as usize] = path.len() as u8;
            if let Some(&last) = path.last() {
                let (dx, dy) = last.vector();
                let (px, py) = (cx as i32 - dx, cy as i32 - dy);
                tree.parent[c as usize] = (py * 7 + px) as u8;
                tree.dir[c as usize] = last.index() as u8;
            }
        }
        tree
    }

    fn reachable(&self, cell: u8) -> u64 {
        r::rules::reachable(self, (cell % 7) as usize, (cell / 7) as usize)
            .iter()
            .map(|&(x, y)| 1u64 << (y * 7 + x))
            .sum()
    }

    fn quest_cells(&self, p: PlayerId) -> ([u8; 3], usize) {
        let mut out = [0u8; 3];
        let cells = r::search::quest_cells(self, p);
        for (slot, &(x, y)) in out.iter_mut().zip(&cells) {
            *slot = (y * 7 + x) as u8;
        }
        (out, cells.len().min(3))
    }

    fn score(&self, p: PlayerId) -> i64 {
        self.players[p].score
    }

    fn holds_quest_item(&self, p: PlayerId) -> bool {
        let pl = &self.players[p];
        pl.hand.item.is_some_and(|i| i.owner == p && pl.quests.contains(&i.name))
    }
}

/// The cells of a path tree, as a 49-bit set.
fn tree_set(tree: &PathTree) -> u64 {
    tree.order[..tree.len].iter().fold(0, |set, &c| set | 1 << c)
}

/// Appends the tree's path to `cell`; `false` (and the path unchanged) when the two together
/// would be longer than a MOVE may be (§5). The callers stay within the step budget, so for them
/// it always appends.
fn extend(path: &mut Path, tree: &PathTree, cell: u8) -> bool {
    tree.path_to(cell).is_some_and(|leg| path.append(leg).is_ok())
}

/// The typed action of a path: `PASS` for the empty one.
fn path_action(path: Path) -> Action {
    if path.is_empty() {
        Action::Pass
    } else {
        Action::Move(path)
    }
}

/// The runner-up's "random greedy move": walk to the nearest revealed quest item (ties: quest
/// order) while the total stays within 20 steps (§5), again from there, then to a uniformly
/// random cell among those within the steps left (the start of that last leg included).
pub fn random_greedy_path<S: RushState>(s: &S, p: PlayerId, rng: &mut SearchRng) -> Path {
    let (mut left, mut n) = s.quest_cells(p);
    let mut path = Path::EMPTY;
    let mut tree = s.path_tree(s.cell(p));
    loop {
        let budget = MAX_STEPS - path.len();
        let set = tree_set(&tree);
        let mut best: Option<usize> = None;
        for (i, &c) in left[..n].iter().enumerate() {
            let d = tree.depth[c as usize] as usize;
            if set >> c & 1 == 1
                && d <= budget
                && (best.is_none()
                    || best.is_some_and(|b| d < tree.depth[left[b] as usize] as usize))
            {
                best = Some(i);
            }
        }
        let Some(i) = best else { break };
        let target = left[i];
        if !extend(&mut path, &tree, target) {
            break;
        }
        left.copy_within(i + 1..n, i);
        n -= 1;
        tree = s.path_tree(target);
    }
    let budget = (MAX_STEPS - path.len()) as u8;
    let within =
        tree.order[..tree.len].iter().filter(|&&c| tree.depth[c as usize] <= budget).count();
    let k = rng.below(within.max(1));
    if let Some(&end) =
        tree.order[..tree.len].iter().filter(|&&c| tree.depth[c as usize] <= budget).nth(k)
    {
        // Within the steps left, so it fits; a refusal would leave the path as it is.
        let _ = extend(&mut path, &tree, end);
    }
    path
}

/// The MOVE-turn candidates of player `p` (the runner-up's first layer on a MOVE turn): for
/// every end cell that can be reached while collecting the most revealed quest items this
/// turn, one path (items in the first order found, over every order of every subset, then a
/// shortest path to the end cell within the steps left). `PASS` when that is staying put.
pub fn move_candidates<S: RushState>(s: &S, p: PlayerId) -> Vec<Action> {
    let (cells, n) = s.quest_cells(p);
    let start = s.cell(p);
    let start_tree = s.path_tree(start);
    let trees: Vec<PathTree> = cells[..n].iter().map(|&c| s.path_tree(c)).collect();
    // Every feasible order of distinct items: (visit order, steps); found depth first.
    let mut sequences: Vec<(Vec<usize>, usize)> = vec![(Vec::new(), 0)];
    let mut k = 0;
    while k < sequences.len() {
        let (seq, steps) = sequences[k].clone();
        k += 1;
        let tree = seq.last().map_or(&start_tree, |&i| &trees[i]);
        let set = tree_set(tree);
        for (j, &c) in cells[..n].iter().enumerate() {
            let d = tree.depth[c as usize] as usize;
            if !seq.contains(&j) && set >> c & 1 == 1 && steps + d <= MAX_STEPS {
                let mut longer = seq.clone();
                longer.push(j);
                sequences.push((longer, steps + d));
            }
        }
    }
    let most = sequences.iter().map(|(seq, _)| seq.len()).max().unwrap_or(0);
    let mut taken = 0u64;
    let mut out = Vec::new();
    for (seq, steps) in sequences.iter().filter(|(seq, _)| seq.len() == most) {
        let mut prefix = Path::EMPTY;
        let mut tree = &start_tree;
        for &j in seq {
            // The sequence's `steps` are at most 20, so every leg fits.
            let _ = extend(&mut prefix, tree, cells[j]);
            tree = &trees[j];
        }
        let budget = (MAX_STEPS - steps) as u8;
        for &end in &tree.order[..tree.len] {
            if tree.depth[end as usize] <= budget && taken >> end & 1 == 0 {
                taken |= 1 << end;
                let mut path = prefix;
                if extend(&mut path, tree, end) {
                    out.push(path_action(path));
                }
            }
        }
    }
    out
}

/// A player's standing for the evaluation: completed quests, plus ¼ for a revealed quest item
/// on his hand tile (he can push it back in next to himself) and 1/10 per revealed quest item
/// he can reach now (the runner-up's "quest item in hand" and the brief's "items reachable").
pub fn standing<S: RushState>(s: &S, p: PlayerId) -> f64 {
    let reach = s.reachable(s.cell(p));
    let (cells, n) = s.quest_cells(p);
    let reachable = cells[..n].iter().filter(|&&c| reach >> c & 1 == 1).count();
    s.score(p) as f64 + 0.25 * f64::from(u8::from(s.holds_quest_item(p))) + 0.1 * reachable as f64
}

/// Steepness of the logistic in [`value`]: one quest ahead is worth ≈ 0.82.
pub const STEEPNESS: f64 = 1.5;

/// The value of an unfinished state for `p`, in (0, 1): a logistic of the difference of the
/// two [`standing`]s (so a quest is worth the same to both players, and the two values sum
/// to 1, as rank rewards do).
pub fn value<S: RushState>(s: &S, p: PlayerId) -> f64 {
    let d = standing(s, p) - standing(s, 1 - p);
    1.0 / (1.0 + (-STEEPNESS * d).exp())
}

/// The X-mas Rush playbook of [`smitsimax`]: pushes in the tree, the searching player's move
/// candidates at a MOVE root, random greedy moves elsewhere.
#[derive(Clone, Copy, Debug)]
pub struct Rush {
    /// The searching player (the only one with a tree layer at a MOVE root).
    pub me: PlayerId,
}

impl<G> Playbook<G> for Rush
where
    G: SearchGame<Action = Action>,
    G::State: RushState,
{
    fn chooses(&self, s: &G::State, p: PlayerId, at_root: bool) -> bool {
        s.turn_type() == TurnType::Push || (at_root && p == self.me)
    }

    fn choices(&self, s: &G::State, p: PlayerId, _at_root: bool, out: &mut G::MoveList) {
        match s.turn_type() {
            TurnType::Push => G::legal_moves(s, p, out),
            // Only at a MOVE root, expanded once per search.
            TurnType::Move => twinsim_fast::game::fill_from(out, move_candidates(s, p)),
        }
    }

    fn policy(&self, s: &G::State, p: PlayerId, rng: &mut SearchRng) -> Action {
        path_action(random_greedy_path(s, p, rng))
    }

    fn evaluate(&self, s: &G::State, p: PlayerId) -> f64 {
        value(s, p)
    }
}

/// UCB's exploration constant (rewards in [0, 1]), measured with the `tuning_match` test (40
/// games, seats alternating, the variant's points against this value): at 300 iterations per
/// move, 0.3 scored 33.5/40 against 0.6 and 1.0 12/40 against 0.6; 0.15 scored 33/40 against
/// 0.3; then against 0.15, 0.07 scored 19/40 and 0.3 11/40 (at 1500 iterations: 17 and
/// 15.5/40). Low, because most iterations end within a quest of each other and the
/// tie-breakers are small: a wide exploration drowns them.
pub const EXPLORATION: f64 = 0.15;

/// The search config for a root of `turn_type`: 6 turns from a PUSH turn, 5 from a MOVE turn
/// (see the module doc).
pub fn config_for(turn_type: TurnType, seed: i64) -> SmitsimaxConfig {
    let turns = if turn_type == TurnType::Push { 6 } else { 5 };
    SmitsimaxConfig { turns, seed, exploration: EXPLORATION, ..SmitsimaxConfig::default() }
}

/// One search from the determinized reference `roots` for player `me` on engine `G`: the
/// action (`None` only if the search has none) and the iterations done.
pub fn search_roots<G>(
    roots: &[r::State],
    me: PlayerId,
    budget: &Budget,
    seed: i64,
) -> (Option<Action>, u64)
where
    G: SearchGame<Action = Action>,
    G::State: RushState,
{
    let Some(first) = roots.first() else { return (None, 0) };
    search_roots_with::<G>(roots, me, budget, &config_for(first.turn_type, seed))
}

/// [`search_roots`] with a given config (for tuning: `config_for` is the bot's).
pub fn search_roots_with<G>(
    roots: &[r::State],
    me: PlayerId,
    budget: &Budget,
    config: &SmitsimaxConfig,
) -> (Option<Action>, u64)
where
    G: SearchGame<Action = Action>,
    G::State: RushState,
{
    if roots.is_empty() {
        return (None, 0);
    }
    let states: Vec<G::State> = roots.iter().map(G::State::from_reference).collect();
    let result = smitsimax::search::<G, _>(&states, me, budget, config, &Rush { me });
    (result.action, result.iterations)
}

/// The league whose `N` (quests per player, §10) is `n`: what a bot can tell from its first
/// input (`numPlayerCards` before any quest is completed). Only the top league has `N` = 12 among
/// the levels the arena plays, and levels 3–6 differ only in their setup tile pool.
pub fn league_of_quest_count(n: usize) -> League {
    let level = match n {
        6 => 2,
        1 => 1,
        3 => 0,
        _ => 6,
    };
    League { level }
}

/// The board and hands of a view, to notice PUSH turns that changed nothing.
type Layout = ([[Pattern; SIZE]; SIZE], [Pattern; 2]);

fn layout(view: &View) -> Layout {
    (view.tiles, [view.players[0].tile, view.players[1].tile])
}

/// What the bot keeps between turns.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    /// Inputs read (the current one included): the game turn's number.
    pub turns_read: i32,
    /// Inferred from the first input.
    pub league: Option<League>,
    /// The inferred stale-push counter (§7.1).
    pub stale: u32,
    /// The layout at the last PUSH turn.
    last_push: Option<Layout>,
}

impl Memory {
    /// Reads one more view: counts the turn, infers the league on the first, and updates the
    /// stale counter (a PUSH turn after which board and hands are unchanged was a conflict).
    pub fn read(&mut self, view: &View) {
        self.turns_read += 1;
        if self.league.is_none() {
            let n = view.players.iter().map(|p| p.num_cards).max().unwrap_or(12);
            self.league = Some(league_of_quest_count(n));
        }
        match view.turn_type {
            TurnType::Push => self.last_push = Some(layout(view)),
            TurnType::Move => {
                if let Some(before) = self.last_push.take() {
                    if before == layout(view) {
                        self.stale += 1;
                    } else {
                        self.stale = 0;
                    }
                }
            }
        }
    }

    /// `count` states player `me` may be facing: the view with the turn counters and random
    /// orders of each player's unseen quests.
    pub fn determinize(
        &self,
        view: &View,
        me: PlayerId,
        count: usize,
        rng: &mut SearchRng,
    ) -> Vec<r::State> {
        let me = me.min(1);
        let mine = unseen_quests(view, 0);
        let theirs = unseen_quests(view, 1);
        (0..count.max(1))
            .map(|_| {
                let mut shuffled = |names: &[ItemName]| {
                    let mut deck = names.to_vec();
                    for i in (1..deck.len()).rev() {
                        deck.swap(i, rng.below(i + 1));
                    }
                    deck
                };
                let (a, b) = (shuffled(&mine), shuffled(&theirs));
                let decks = if me == 0 { [a, b] } else { [b, a] };
                let context = ViewContext {
                    league: self.league.unwrap_or_default(),
                    turns_left: r::MAX_TURNS - self.turns_read,
                    stale: self.stale,
                    decks,
                };
                state_from_view(view, me, &context)
            })
            .collect()
    }
}

/// Time always kept free before the deadline (parsing, rebuilding the state, answering).
pub const MARGIN: Duration = Duration::from_micros(300);
/// A scheduler tick and a bit: measured on the loaded 2-core machine, an iteration takes
/// microseconds, but a thread that loses the processor gets it back about 4 ms later (8 or 12
/// ms now and then). A bot that is still thinking when that happens answers late unless this
/// much time is left after its thinking, so [`think_deadline`] keeps it free when it can.
pub const STALL_RESERVE: Duration = Duration::from_micros(4500);
/// Share of the time left the bot thinks at most (a quiet machine never needs the rest).
pub const MAX_FRACTION: f64 = 0.5;
/// Share it thinks at least, when the limit is too short to keep [`STALL_RESERVE`] free (50 ms
/// × 0.1 = 5 ms): the search is then short, so that a stall rarely falls inside it.
pub const MIN_FRACTION: f64 = 0.1;

/// When to stop thinking for an answer due at `deadline`: half the time left, but leaving
/// [`STALL_RESERVE`] free, and at least a tenth of the time left. With a 50 ms limit that is
/// about 25 ms, with 5 ms about 0.5 ms, with 2.5 ms about 0.2 ms.
pub fn think_deadline(deadline: Instant) -> Instant {
    let now = Instant::now();
    let margin = MARGIN.max(super::pace::reserve());
    let left = deadline.saturating_duration_since(now).saturating_sub(margin);
    let think = left
        .saturating_sub(STALL_RESERVE)
        .min(left.mul_f64(MAX_FRACTION))
        .max(left.mul_f64(MIN_FRACTION));
    now + think
}

/// The bot: memory across turns, a seed, the engine `G`.
pub struct RushBot<G> {
    seat: PlayerId,
    seed: i64,
    iterations: Option<u64>,
    memory: Memory,
    rng: SearchRng,
    stats: SearchStats,
    engine: PhantomData<fn() -> G>,
}

impl<G> RushBot<G> {
    /// The bot of `seat`, seeded by `seed`, with a fixed iteration budget per move or the clock.
    pub fn new(seat: PlayerId, seed: i64, iterations: Option<u64>) -> Self {
        RushBot {
            seat,
            seed,
            iterations,
            memory: Memory::default(),
            rng: SearchRng::new(seed),
            stats: SearchStats::default(),
            engine: PhantomData,
        }
    }
}

/// A line that is legal in any turn of `turn_type` (if the search has nothing to say).
fn fallback(turn_type: TurnType) -> String {
    match turn_type {
        TurnType::Push => "PUSH 3 RIGHT".into(),
        TurnType::Move => "PASS".into(),
    }
}

impl<G> ViewPlayer for RushBot<G>
where
    G: SearchGame<Action = Action>,
    G::State: RushState,
{
    fn play(&mut self, input: &str, deadline: Instant) -> Option<String> {
        let view = match parse_turn(input) {
            Ok(view) => view,
            // Unreadable input: answer by the first line's turn type, which is all we can tell.
            Err(_) => {
                let push = input.lines().next().is_some_and(|l| l.trim() == "0");
                return Some(fallback(if push { TurnType::Push } else { TurnType::Move }));
            }
        };
        self.memory.read(&view);
        let roots = self.memory.determinize(&view, self.seat, DETERMINIZATIONS, &mut self.rng);
        let until = think_deadline(deadline);
        let budget = match self.iterations {
            // The clock stays a safety net, with more of the time left.
            Some(n) => {
                Budget { iterations: Some(n), deadline: Some(think_until(deadline, 0.9, MARGIN)) }
            }
            None => Budget::until(until),
        };
        let seed = self.seed ^ i64::from(self.memory.turns_read).wrapping_mul(0x9E37_79B9);
        let (action, iterations) = search_roots::<G>(&roots, self.seat, &budget, seed);
        self.stats.moves += 1;
        self.stats.iterations += iterations;
        Some(action.map_or_else(|| fallback(view.turn_type), |a| a.to_string()))
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }
}

/// The search bot for `seat`: `builtin:smitsimax[@reference|@fast][:iterations=N]`.
#[cfg(feature = "builtin")]
pub fn player(spec: &SearchSpec, seat: PlayerId, seed: i64) -> Result<Box<dyn ViewPlayer>, String> {
    if spec.algorithm != "smitsimax" {
        return Err(format!("xmas-rush has no builtin:{} search", spec.algorithm));
    }
    Ok(match spec.engine {
        EngineKind::Reference => Box::new(RushBot::<XmasRush>::new(seat, seed, spec.iterations)),
        EngineKind::Fast => Box::new(RushBot::<FastXmasRush>::new(seat, seed, spec.iterations)),
    })
}
