//! The typed [`Game`] API on the packed state: [`FastXmasRush`], twin of
//! [`twinsim_reference::xmas_rush::XmasRush`].
//!
//! Actions and params are the reference's own types ([`twinsim_reference::xmas_rush::Action`],
//! `League`), so a search can compare the two twins and a bot can print the actions; they are
//! converted to the packed [`PackedAction`] at the boundary of [`step`]. The
//! legal MOVE list comes from a path tree on the bitboard ([`path_tree`]), not from the
//! reference.
//!
//! [`step`]: FastXmasRush::step

use super::bfs::{edges, step as step_from};
use super::board::State;
use super::rules::{play_turn, Answer, NoEvents, PackedAction};
use twinsim_reference::game::{Game, IllegalAction, Outcome, PlayerId, StepError, TurnStructure};
use twinsim_reference::xmas_rush as r;
use twinsim_reference::xmas_rush::{Direction, League, Path, TurnType, MAX_STEPS, SIZE};

/// X-mas Rush through the typed [`Game`] API on the packed [`State`]. Twin of
/// [`twinsim_reference::xmas_rush::XmasRush`]: same seeded setup, same legal lists in the same
/// order, same accepted and refused actions with the same errors, same resulting states (through
/// [`State::to_reference`]) and outcomes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FastXmasRush;

/// A breadth-first tree of shortest paths from one cell (twin of
/// [`twinsim_reference::xmas_rush::rules::shortest_paths`]): cells in BFS order, directions tried
/// in index order, each cell reached through the first parent that finds it. No allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathTree {
    /// Reached cells (`y * 7 + x`) in BFS order; the start first.
    pub order: [u8; 49],
    /// How many entries of `order` are used.
    pub len: usize,
    /// For each reached cell but the start, the cell it was reached from.
    pub parent: [u8; 49],
    /// For each reached cell but the start, the direction index of the last step.
    pub dir: [u8; 49],
    /// For each reached cell, its distance from the start.
    pub depth: [u8; 49],
}

impl PathTree {
    /// The tree's path to `cell` (which must be reached) from the start, walked back through
    /// the parents; `None` when it is longer than a MOVE may be ([`MAX_STEPS`], §5).
    pub fn path_to(&self, cell: u8) -> Option<Path> {
        let n = self.depth[cell as usize] as usize;
        if n > MAX_STEPS {
            return None;
        }
        let mut back = [Direction::Up; MAX_STEPS];
        let mut c = cell;
        for slot in back[..n].iter_mut().rev() {
            *slot = Direction::ALL[self.dir[c as usize] as usize];
            c = self.parent[c as usize];
        }
        Path::try_from(&back[..n]).ok()
    }
}

/// The shortest-path tree from `(x, y)` on the current board (twin of
/// [`twinsim_reference::xmas_rush::rules::shortest_paths`], same cells in the same order with the
/// same paths).
pub fn path_tree(s: &State, x: usize, y: usize) -> PathTree {
    let e = edges(s);
    let start = (y * 7 + x) as u8;
    let mut tree =
        PathTree { order: [0; 49], len: 1, parent: [0; 49], dir: [0; 49], depth: [0; 49] };
    tree.order[0] = start;
    let mut seen = 1u64 << start;
    let mut next = 0;
    while next < tree.len {
        let c = tree.order[next];
        next += 1;
        for d in 0..4u8 {
            if let Some(n) = step_from(e, c, d) {
                if seen >> n & 1 == 0 {
                    seen |= 1 << n;
                    tree.order[tree.len] = n;
                    tree.len += 1;
                    tree.parent[n as usize] = c;
                    tree.dir[n as usize] = d;
                    tree.depth[n as usize] = tree.depth[c as usize] + 1;
                }
            }
        }
    }
    tree
}

/// Every legal action of `player` (twin of [`twinsim_reference::xmas_rush::legal_actions`], same
/// list in the same order): in a PUSH turn the 28 pushes (line-major, directions in index order);
/// in a MOVE turn `PASS`, then one shortest `MOVE` (1 to 20 steps) per other reachable cell, in BFS
/// order. Empty once the game is over or for a player index over 1.
pub fn legal_actions(s: &State, player: PlayerId) -> Vec<r::Action> {
    if s.game_over || player > 1 {
        return Vec::new();
    }
    match s.turn_type {
        TurnType::Push => (0..SIZE)
            .flat_map(|line| Direction::ALL.map(|direction| r::Action::Push { line, direction }))
            .collect(),
        TurnType::Move => {
            let p = &s.players[player];
            let tree = path_tree(s, p.x as usize, p.y as usize);
            let mut moves = Vec::with_capacity(tree.len);
            moves.push(r::Action::Pass);
            // Cells more than 20 steps away have no MOVE (§5).
            moves.extend(
                tree.order[1..tree.len]
                    .iter()
                    .filter_map(|&c| tree.path_to(c))
                    .map(r::Action::Move),
            );
            moves
        }
    }
}

/// The final result (twin of [`twinsim_reference::xmas_rush::outcome`]): scores as reported, ranks
/// from them, the trace's reason word; `None` while the game runs.
pub fn outcome(s: &State) -> Option<Outcome> {
    let reason = s.end_reason.filter(|_| s.game_over)?;
    let scores = vec![s.players[0].score, s.players[1].score];
    Some(Outcome {
        ranks: Outcome::ranks_from_scores(&scores),
        scores,
        reason: reason.name().into(),
    })
}

/// The packed action of a typed one, or the reference's refusal (twin of the checks in
/// `XmasRush::step`, in its order: turn type, MOVE length, PUSH line).
fn checked(action: &r::Action, turn_type: TurnType) -> Result<PackedAction, String> {
    r::rules::check_type(action, turn_type)?;
    r::rules::check_shape(action)?;
    match action {
        r::Action::Push { line, direction } => {
            Ok(PackedAction::Push { line: *line as u8, dir: direction.index() as u8 })
        }
        r::Action::Move(steps) => {
            let mut packed = [0u8; MAX_STEPS];
            for (slot, d) in packed.iter_mut().zip(steps) {
                *slot = d.index() as u8;
            }
            Ok(PackedAction::Move { steps: packed, len: steps.len() as u8 })
        }
        r::Action::Pass => Ok(PackedAction::Pass),
    }
}

impl Game for FastXmasRush {
    type State = State;
    type Action = r::Action;
    type Params = League;

    const NAME: &'static str = "xmas-rush";
    const TURNS: TurnStructure = TurnStructure::Simultaneous;

    /// The reference setup (cold, once per game), packed.
    fn new_game(seed: i64, params: &League) -> State {
        State::new_game(seed, *params)
    }

    fn num_players(_: &State) -> usize {
        2
    }

    fn is_over(s: &State) -> bool {
        s.game_over
    }

    fn is_to_act(s: &State, player: PlayerId) -> bool {
        !s.game_over && player < 2
    }

    fn players_to_act(s: &State) -> Vec<PlayerId> {
        if s.game_over {
            Vec::new()
        } else {
            vec![0, 1]
        }
    }

    fn legal_actions(s: &State, player: PlayerId) -> Vec<r::Action> {
        legal_actions(s, player)
    }

    /// One game turn, as `XmasRush::step`: `None` for a player is a timeout (fatal, the game
    /// ends); an action of the wrong type, a MOVE of 0 or more than 20 steps or a PUSH line
    /// over 6 is refused with [`StepError::Illegal`] (player 0 checked first) and the state is
    /// left unchanged.
    fn apply(s: &mut State, actions: &[Option<r::Action>]) -> Result<(), StepError> {
        let mut answers = [Answer::Timeout, Answer::Timeout];
        for (player, action) in actions.iter().enumerate() {
            if let Some(action) = action {
                let packed = checked(action, s.turn_type).map_err(|reason| StepError::Illegal {
                    player,
                    error: IllegalAction { reason },
                })?;
                answers[player] = Answer::Action(packed);
            }
        }
        play_turn(s, &answers, &mut NoEvents)
    }

    fn outcome(s: &State) -> Option<Outcome> {
        outcome(s)
    }
}
