//! §5 Days, frames and the sun; §6 an ACTIONS frame (order of operations, validation, costs);
//! §7 invalid output and disqualification; §8 the possible-actions list (the legal moves); §9 end
//! of game and scoring.
//!
//! **Where legal moves come from.** The rules never list moves: an ACTIONS frame checks each
//! answer on its own ([`validate`], §6.3), and an illegal one is a silent WAIT (§7). The list of
//! legal moves is §8's possible-actions list, which the referee prints for the bot:
//! [`possible_action_groups`] (WAIT, then completes, grows and seeds, under the same
//! conditions as [`validate`]), which is what `Game::legal_actions` returns and what
//! [`super::protocol::views`] prints once shuffled.
//!
//! **The generator.** After setup, the game's generator (§3) is used only to shuffle those
//! printed lists. The referee builds them whether or not anyone reads them, so [`play_turn`]
//! makes the same draws through [`advance_rng_past_printed_list`], a call whose only
//! effect is to advance the generator.

use super::board::{self, NUM_CELLS};
use super::state::{Action, State, Tree};
use crate::game::{Outcome, StepError};
use crate::java_random::JavaRandom;

/// What the referee got from one asked player in an ACTIONS frame (§6.1 step 3, §7).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// A well-formed command (§6.2); it may still be illegal (§6.3).
    Action(Action),
    /// A line that does not parse (§6.2): disqualification. `got` is the text the messages
    /// quote (the line, or the `NumberFormatException` text for a number overflow).
    Malformed {
        /// The quoted text.
        got: String,
    },
    /// No answer in time: disqualification (§7).
    Timeout,
}

/// The event text's name of a player (§13a: `$0` / `$1` are literal).
fn name(player: usize) -> String {
    format!("${player}")
}

/// The `Round <d>/<ROUNDS−1>` line: always `/23`, whatever the league (§13a).
fn round_line(day: u32) -> String {
    format!("Round {day}/23")
}

// ---------------------------------------------------------------------------------------------
// §5 Days, frames and the sun
// ---------------------------------------------------------------------------------------------

/// §5 Shadow computation for the current sun direction: every tree of size s ≥ 1 shadows the s
/// cells after it in the sun's direction (holes included) with `max(existing, s)`.
pub fn compute_shadows(state: &mut State) {
    state.shadows = [0; NUM_CELLS];
    for (&cell, tree) in &state.trees {
        let size = tree.size as i32;
        for i in 1..=size {
            let target = board::coord(cell).step(state.sun_direction, i);
            if let Some(t) = board::index_of(target) {
                state.shadows[t] = state.shadows[t].max(tree.size);
            }
        }
    }
}

/// §5: a tree is spooked (earns nothing) iff `shadows[cell] >= size`; seeds therefore never
/// earn.
pub fn is_spooked(state: &State, cell: usize, tree: &Tree) -> bool {
    state.shadows[cell] >= tree.size
}

/// §5: the sun each player would collect at a GATHERING with the current shadow map.
pub fn sun_income(state: &State) -> [i32; 2] {
    let mut income = [0; 2];
    for (&cell, tree) in &state.trees {
        if !is_spooked(state, cell, tree) {
            income[tree.owner] += tree.size as i32;
        }
    }
    income
}

/// §5 GATHERING (start of each day): wake everyone, end dormancy, harvest sun. Events: §13a
/// item 8.
pub fn gathering(state: &mut State, events: &mut Vec<String>) {
    events.push(round_line(state.day));
    for player in &mut state.players {
        player.waiting = false;
    }
    for tree in state.trees.values_mut() {
        tree.dormant = false;
    }
    let income = sun_income(state);
    for (p, &n) in income.iter().enumerate() {
        state.players[p].sun += n;
        if n > 0 {
            events.push(format!("{} has collected {n} sun points", name(p)));
        }
    }
}

/// §5 SUN_MOVE: the day ends; the sun turns (and shadows are recomputed, league ≥ 3) unless
/// that was the last day, in which case the game ends. Events: §13a item 7.
pub fn sun_move(state: &mut State, events: &mut Vec<String>) {
    let ended = state.day;
    events.push(format!("Round {ended} ends"));
    state.day += 1;
    if state.day < state.params.max_rounds() {
        state.sun_direction = (state.sun_direction + 1) % 6;
        if state.params.full_rules() {
            compute_shadows(state);
        }
    }
    if ended + 1 < 24 {
        events.push(format!("The sun is now pointing towards direction {}", (ended + 1) % 6));
        events.push(format!("Round {} starts", ended + 1));
    }
    if state.day >= state.params.max_rounds() {
        state.game_over = true;
    }
}

// ---------------------------------------------------------------------------------------------
// §6.3 Validation and costs
// ---------------------------------------------------------------------------------------------

/// §6.3 costs: the number of `player`'s trees of `size` on the board (dormant ones and trees
/// being completed included).
pub fn count_own(state: &State, player: usize, size: u8) -> i32 {
    state.trees.values().filter(|t| t.owner == player && t.size == size).count() as i32
}

/// §6.3 SEED cost: the number of the player's seeds.
pub fn seed_cost(state: &State, player: usize) -> i32 {
    count_own(state, player, 0)
}

/// §6.3 GROW cost from `size` to `size + 1`: 1 / 3 / 7 plus the player's trees of the target
/// size. (Only meaningful for size < 3.)
pub fn grow_cost(state: &State, player: usize, size: u8) -> i32 {
    let base = match size {
        0 => 1,
        1 => 3,
        _ => 7,
    };
    base + count_own(state, player, size + 1)
}

/// §6.3 COMPLETE cost: a flat 4.
pub const COMPLETE_COST: i32 = 4;

/// §6.3 cell lookup: the index must be 0..36 (holes are valid cells).
fn lookup(index: i32) -> Result<usize, String> {
    if (0..NUM_CELLS as i32).contains(&index) {
        Ok(index as usize)
    } else {
        Err(format!("Cell {index} not found"))
    }
}

/// What a legal non-WAIT action does once validated (§6.3 "Effect").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Grow the tree on the cell, paying the cost.
    Grow {
        /// The tree's cell.
        cell: usize,
        /// The sun paid.
        cost: i32,
    },
    /// Queue the tree on the cell for completion, paying 4.
    Complete {
        /// The tree's cell.
        cell: usize,
    },
    /// Queue a seed from source to target, paying the cost.
    Seed {
        /// The cell of the tree that throws the seed.
        source: usize,
        /// The cell the seed lands on.
        target: usize,
        /// The sun paid.
        cost: i32,
    },
}

/// §6.3 Validation, checks in the referee's order; `Err` holds the message of the first failing
/// check. `available` is the player's `availableSun`. WAIT is never checked (it always works);
/// this returns `Ok(None)` for it.
pub fn validate(
    state: &State,
    player: usize,
    action: Action,
    available: i32,
) -> Result<Option<Effect>, String> {
    let tree_at = |cell: usize| state.trees.get(&cell);
    match action {
        Action::Wait => Ok(None),
        Action::Grow(i) => {
            let cell = lookup(i)?;
            let tree = tree_at(cell).ok_or(format!("There is no tree on cell {cell}"))?;
            if tree.owner != player {
                return Err(format!("The tree on cell {cell} is owned by opponent"));
            }
            if tree.dormant {
                return Err(format!(
                    "Tree on cell {cell} is dormant (has already been used this round)"
                ));
            }
            if tree.size >= 3 {
                return Err(format!("Tree on cell {cell} cannot grow more (max size is 3)."));
            }
            let cost = grow_cost(state, player, tree.size);
            if cost > available {
                return Err(format!("Not enough sun. You need {cost} but have {available}"));
            }
            Ok(Some(Effect::Grow { cell, cost }))
        }
        Action::Complete(i) => {
            let cell = lookup(i)?;
            let tree = tree_at(cell).ok_or(format!("There is no tree on cell {cell}"))?;
            if tree.owner != player {
                return Err(format!("The tree on cell {cell} is owned by opponent"));
            }
            if tree.size < 3 {
                return Err(format!("The tree on cell {cell} is not large enough"));
            }
            if tree.dormant {
                return Err(format!(
                    "Tree on cell {cell} is dormant (has already been used this round)"
                ));
            }
            if COMPLETE_COST > available {
                return Err(format!(
                    "Not enough sun. You need {COMPLETE_COST} but have {available}"
                ));
            }
            Ok(Some(Effect::Complete { cell }))
        }
        Action::Seed(s, t) => {
            let target = lookup(t)?;
            let source = lookup(s)?;
            if tree_at(target).is_some() {
                return Err(format!("There is already a tree on cell {target}"));
            }
            let tree = tree_at(source).ok_or(format!("There is no tree on cell {source}"))?;
            if tree.size == 0 {
                return Err(format!("The seed on {source} cannot produce seeds"));
            }
            if tree.owner != player {
                return Err(format!("The tree on cell {source} is owned by opponent"));
            }
            if tree.dormant {
                return Err(format!(
                    "Tree on cell {source} is dormant (has already been used this round)"
                ));
            }
            if board::distance(source, target) > tree.size as i32 {
                return Err(format!(
                    "The tree on cell {source} is too far from cell {target} to plant a seed there"
                ));
            }
            if state.richness[target] == 0 {
                return Err(format!("You can't plant a seed on cell {target}"));
            }
            let cost = seed_cost(state, player);
            if cost > available {
                return Err(format!("Not enough sun. You need {cost} but have {available}"));
            }
            Ok(Some(Effect::Seed { source, target, cost }))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// §8 The possible-actions list: the legal moves
// ---------------------------------------------------------------------------------------------

/// §8: the possible-action groups of `player` before shuffling, in the referee's order:
/// (completes, grows, seeds), trees in ascending cell index, seed targets in the x/y loop order.
pub fn possible_action_groups(state: &State, player: usize) -> [Vec<Action>; 3] {
    let mut completes = vec![];
    let mut grows = vec![];
    let mut seeds = vec![];
    let sun = state.players[player].sun;
    let seed_cost = seed_cost(state, player);
    for (&cell, tree) in state.trees.iter().filter(|(_, t)| t.owner == player) {
        let s = tree.size as i32;
        let c = board::coord(cell);
        if state.params.seed_enabled() && seed_cost <= sun && s > 0 && !tree.dormant {
            for x in -s..=s {
                for y in (-s).max(-x - s)..=s.min(-x + s) {
                    let target = board::Cube { x: c.x + x, y: c.y + y, z: c.z - x - y };
                    if let Some(t) = board::index_of(target) {
                        if state.richness[t] != 0 && !state.trees.contains_key(&t) {
                            seeds.push(Action::Seed(cell as i32, t as i32));
                        }
                    }
                }
            }
        }
        let cost = if tree.size < 3 { grow_cost(state, player, tree.size) } else { COMPLETE_COST };
        if cost <= sun && !tree.dormant {
            if tree.size == 3 {
                completes.push(Action::Complete(cell as i32));
            } else if state.params.grow_enabled() {
                grows.push(Action::Grow(cell as i32));
            }
        }
    }
    [completes, grows, seeds]
}

/// §8: the possible-actions list as printed: WAIT, then completes, grows and seeds, each group
/// shuffled with `rng` (`Collections.shuffle`, in that order).
pub fn possible_actions_with(state: &State, player: usize, rng: &mut JavaRandom) -> Vec<Action> {
    let mut lines = vec![Action::Wait];
    for mut group in possible_action_groups(state, player) {
        rng.shuffle(&mut group);
        lines.extend(group);
    }
    lines
}

/// §6.1 step 2, §8: advances the game generator past the shuffles of `player`'s printed
/// possible-actions list, as the referee does when it builds the player's input. The list itself
/// is dropped: no rule reads it (§6.3 validates each answer on its own, [`validate`]), but
/// the draws of its shuffles are the only use of the generator during play, so they must be made
/// for later lists (and the traces' `rng_state`) to match the referee's.
pub fn advance_rng_past_printed_list(state: &mut State, player: usize) {
    let mut rng = state.rng.clone();
    possible_actions_with(state, player, &mut rng);
    state.rng = rng;
}

// ---------------------------------------------------------------------------------------------
// §6.1 An ACTIONS frame, §7 disqualification
// ---------------------------------------------------------------------------------------------

/// §7: deactivate a player, score set to −1.
fn disqualify(state: &mut State, player: usize) {
    state.players[player].active = false;
    state.players[player].score = -1;
}

/// §6.2 table "enabled": GROW from league 2, SEED from league 3; WAIT and COMPLETE always.
pub fn command_enabled(state: &State, action: Action) -> bool {
    match action {
        Action::Wait | Action::Complete(_) => true,
        Action::Grow(_) => state.params.grow_enabled(),
        Action::Seed(..) => state.params.seed_enabled(),
    }
}

/// §7 parse failure: disqualification with the invalid-input messages of §13a item 1 and the
/// tooltip of item 6 (where `&lt;` / `&gt;` become `<` / `>`).
fn malformed(
    state: &mut State,
    p: usize,
    got: &str,
    events: &mut Vec<String>,
    tooltips: &mut Vec<String>,
) {
    let expected = state.params.expected_text();
    let message =
        format!("¤RED¤{} provided invalid input. Expected '{expected}'\nGot '{got}'§RED§", name(p));
    events.extend(message.split('\n').map(String::from));
    events.push(format!("{} was disqualified.", name(p)));
    let tooltip = format!("Invalid Input: Expected {expected} but got '{got}'")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    tooltips.push(format!("TOOLTIP {}: {tooltip}", name(p)));
    disqualify(state, p);
}

/// §6.1: resolves one ACTIONS frame from the answers of the asked players (the entries of
/// players not asked are ignored: the referee never reads them), then the automatic SUN_MOVE and
/// GATHERING frames that follow before the next decision point (§5). Returns the frame's events
/// (§13a). Refuses a finished game.
pub fn play_turn(
    state: &mut State,
    answers: &[Option<Answer>; 2],
) -> Result<Vec<String>, StepError> {
    if state.game_over {
        return Err(StepError::GameOver);
    }
    let mut events = vec![];
    let mut tooltips = vec![];

    // Step 1: scratch.
    let mut available = [state.players[0].sun, state.players[1].sun];
    let mut actions: [Option<Action>; 2] = [None, None];
    let mut sent_seeds: Vec<(usize, usize)> = vec![]; // (owner, target)
    let mut dying: Vec<usize> = vec![];

    // Step 2: each asked player's input is built and it is run. Building the input shuffles its
    // possible-actions list with the game RNG (§8): the list is not needed here, only the draws.
    let asked = [state.is_asked(0), state.is_asked(1)];
    for (p, &is_asked) in asked.iter().enumerate() {
        if is_asked {
            advance_rng_past_printed_list(state, p);
            state.executions += 1;
        }
    }

    // Step 3: read the answers; timeouts and parse failures disqualify (§7, §13a item 1).
    for p in 0..2 {
        if !asked[p] {
            continue;
        }
        match answers[p].clone().unwrap_or(Answer::Timeout) {
            Answer::Action(action) if command_enabled(state, action) => actions[p] = Some(action),
            // A typed action of a command the league lacks: its line would match no pattern.
            Answer::Action(action) => {
                malformed(state, p, &action.to_string(), &mut events, &mut tooltips);
            }
            Answer::Timeout => {
                events.push(format!("¤RED¤{} has not provided an action in time.§RED§", name(p)));
                events.push(format!("{} was disqualified.", name(p)));
                tooltips.push(format!("TOOLTIP {}: Timeout!", name(p)));
                disqualify(state, p);
            }
            Answer::Malformed { got } => malformed(state, p, &got, &mut events, &mut tooltips),
        }
    }

    events.push(round_line(state.day));

    // Step 4: resolve, player 0 then player 1, every player not waiting.
    for p in 0..2 {
        if state.players[p].waiting {
            continue;
        }
        let action = match actions[p] {
            None | Some(Action::Wait) => {
                state.players[p].waiting = true;
                events.push(format!("{} is waiting", name(p)));
                continue;
            }
            Some(action) => action,
        };
        match validate(state, p, action, available[p]) {
            Ok(None) => unreachable_wait(state, p, &mut events),
            Ok(Some(Effect::Grow { cell, cost })) => {
                available[p] -= cost;
                if let Some(tree) = state.trees.get_mut(&cell) {
                    tree.size += 1;
                    tree.dormant = true;
                }
                events.push(format!("{} is growing a tree on cell {cell}", name(p)));
            }
            Ok(Some(Effect::Complete { cell })) => {
                available[p] -= COMPLETE_COST;
                if let Some(tree) = state.trees.get_mut(&cell) {
                    tree.dormant = true;
                }
                dying.push(cell);
            }
            Ok(Some(Effect::Seed { source, target, cost })) => {
                available[p] -= cost;
                if let Some(tree) = state.trees.get_mut(&source) {
                    tree.dormant = true;
                }
                sent_seeds.push((p, target));
                events.push(format!(
                    "{} is planting a seed on cell {target} from cell {source}",
                    name(p)
                ));
            }
            Err(message) => {
                state.players[p].waiting = true;
                events.push(format!("{}: {message}", name(p)));
            }
        }
    }

    // Step 5: seeds, or the seed conflict (nothing planted, no sun committed).
    let conflict = sent_seeds
        .iter()
        .enumerate()
        .find(|(i, (_, t))| sent_seeds[i + 1..].iter().any(|(_, u)| u == t));
    if let Some((_, &(_, target))) = conflict {
        events.push(format!("Seed conflict on cell {target}"));
    } else {
        for &(owner, target) in &sent_seeds {
            state.trees.insert(target, Tree { size: 0, owner, dormant: true });
        }
        for (player, sun) in state.players.iter_mut().zip(available) {
            player.sun = sun;
        }
    }

    // Step 6: completed trees score the same nutrients value; step 7: then nutrients drop.
    for &cell in &dying {
        if let Some(tree) = state.trees.remove(&cell) {
            let points = state.nutrients + board::richness_bonus(state.richness[cell]);
            state.players[tree.owner].score += points;
            events.push(format!(
                "{} is ending their tree life on cell {cell}, scoring {points} points",
                name(tree.owner)
            ));
            tooltips.push(format!("TOOLTIP {0}: {0} scores {points} points", name(tree.owner)));
        }
    }
    for _ in &dying {
        state.nutrients = (state.nutrients - 1).max(0);
    }
    events.extend(tooltips);

    // Step 8: end-of-game check, else the day may end (§5 "End of game").
    let active = state.players.iter().filter(|p| p.active).count();
    if active <= 1 {
        state.game_over = true;
    } else if state.players.iter().all(|p| p.waiting) {
        sun_move(state, &mut events);
        if !state.game_over {
            gathering(state, &mut events);
        }
    }
    Ok(events)
}

/// WAIT never reaches validation (it is handled before); kept total so no input can panic.
fn unreachable_wait(state: &mut State, p: usize, events: &mut Vec<String>) {
    state.players[p].waiting = true;
    events.push(format!("{} is waiting", name(p)));
}

// ---------------------------------------------------------------------------------------------
// §9 End of game, scoring, ranking
// ---------------------------------------------------------------------------------------------

/// §9 steps 1–2: the final scores: sun/3 for every active player, then +1 per tree to every
/// active player if the active players' scores are all equal.
pub fn final_scores(state: &State) -> [i32; 2] {
    let mut scores = [state.players[0].score, state.players[1].score];
    for (p, player) in state.players.iter().enumerate() {
        if player.active {
            scores[p] += player.sun / 3;
        }
    }
    let mut distinct: Vec<i32> =
        (0..2).filter(|&p| state.players[p].active).map(|p| scores[p]).collect();
    distinct.dedup();
    if distinct.len() == 1 {
        for tree in state.trees.values() {
            if state.players[tree.owner].active {
                scores[tree.owner] += 1;
            }
        }
    }
    scores
}

/// §9 step 3 and §13 `outcome.reason`: why the game ended.
pub fn end_reason(state: &State) -> &'static str {
    match state.players.iter().filter(|p| !p.active).count() {
        0 => "max_days",
        1 => "player_deactivated",
        _ => "both_players_deactivated",
    }
}

/// §9: the outcome of a finished game (`None` while it runs).
pub fn outcome(state: &State) -> Option<Outcome> {
    if !state.game_over {
        return None;
    }
    let scores: Vec<i64> = final_scores(state).iter().map(|&s| s as i64).collect();
    let ranks = Outcome::ranks_from_scores(&scores);
    Some(Outcome { scores, ranks, reason: end_reason(state).to_string() })
}
