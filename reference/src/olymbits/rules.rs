//! The deterministic rules: each mini-game's tick, end of run and ranking (rules doc §4.3–§4.4,
//! §5.2–§5.3, §6.2–§6.3, §7.2–§7.3), then the turn (§8), ranks and ties (§8.3), scoring and end
//! (§8.4) and deactivation (§9, §11.3–§11.5).

// The rules doc loops over "each player i in 0,1,2"; the code keeps that shape on purpose.
#![allow(clippy::needless_range_loop)]

use super::setup::reset_run;
use super::state::*;
use crate::game::{Outcome, ParseError, StepError};

/// Skating's lap length: collisions compare positions modulo 10 (§6.1 `length`).
pub const SKATING_LENGTH: i32 = 10;

/// Ranking score of a dead archer: `-Double.MAX_VALUE` (§5.3).
pub const DEAD_ARCHER_SCORE: f64 = -f64::MAX;

impl HurdleRace {
    /// §4.3: one tick. Players in index order; `UP` only jumps over the first cell it enters;
    /// a hurdle stops the runner on it with a stun of 2; cell 29 finishes.
    pub fn tick(&mut self, actions: &[Option<Action>; PLAYER_COUNT]) {
        let mut count_finishes = 0;
        for i in 0..PLAYER_COUNT {
            let Some(action) = actions[i] else {
                self.dead[i] = true;
                continue;
            };
            if self.stun_timers[i] > 0 {
                self.stun_timers[i] -= 1;
                continue;
            }
            if self.finished[i] > -1 {
                continue;
            }
            let (steps, mut jump) = match action {
                Action::Left => (1, false),
                Action::Down => (2, false),
                Action::Up => (2, true),
                Action::Right => (3, false),
            };
            for _ in 0..steps {
                self.positions[i] = (self.positions[i] + 1).min(FINISH_CELL);
                let cell = self.map.get(self.positions[i] as usize).copied().unwrap_or(b'.');
                if cell == b'#' && !jump {
                    self.stun_timers[i] = 2;
                    break;
                }
                if self.positions[i] == FINISH_CELL && self.finished[i] == -1 {
                    self.finished[i] = self.rank;
                    count_finishes += 1;
                    break;
                }
                jump = false;
            }
        }
        self.rank += count_finishes;
    }

    /// §4.4: over when anyone finished, or when at least two players are finished or dead.
    pub fn is_run_over(&self) -> bool {
        let finished_or_dead =
            (0..PLAYER_COUNT).filter(|&i| self.finished[i] > -1 || self.dead[i]).count();
        self.finished.iter().any(|f| *f > -1) || finished_or_dead >= 2
    }

    /// §4.4: ranking score = position, or −1 if dead.
    pub fn scores(&self) -> [f64; PLAYER_COUNT] {
        std::array::from_fn(|i| if self.dead[i] { -1.0 } else { self.positions[i] as f64 })
    }
}

impl Archery {
    /// §5.2: every live cursor moves by the current wind, each coordinate clamped to
    /// [−20, 20]; then that wind is used up.
    pub fn tick(&mut self, actions: &[Option<Action>; PLAYER_COUNT]) {
        let w = self.wind.first().copied().unwrap_or(0) as i32;
        for i in 0..PLAYER_COUNT {
            let Some(action) = actions[i] else {
                self.dead[i] = true;
                continue;
            };
            let (mut x, mut y) = self.cursors[i];
            match action {
                Action::Up => y -= w,
                Action::Down => y += w,
                Action::Left => x -= w,
                Action::Right => x += w,
            }
            self.cursors[i] = (x.clamp(-20, 20), y.clamp(-20, 20));
        }
        if !self.wind.is_empty() {
            self.wind.remove(0);
        }
    }

    /// §5.2: over when no wind is left.
    pub fn is_run_over(&self) -> bool {
        self.wind.is_empty()
    }

    /// §5.3: −(x² + y²), or −Double.MAX_VALUE if dead.
    pub fn scores(&self) -> [f64; PLAYER_COUNT] {
        std::array::from_fn(|i| {
            let (x, y) = (self.cursors[i].0 as i64, self.cursors[i].1 as i64);
            if self.dead[i] {
                DEAD_ARCHER_SCORE
            } else {
                -((x * x + y * y) as f64)
            }
        })
    }
}

impl Skating {
    /// §6.2: moves by the action's place in the risk order (1, 2, 2, 3 spaces; risk −1, 0,
    /// +1, +2), then collisions (+2 risk when another player shares the position modulo 10)
    /// and stuns (risk ≥ 5 → −2), then a new risk order is shuffled and the timer runs down.
    pub fn tick(
        &mut self,
        actions: &[Option<Action>; PLAYER_COUNT],
        rng: &mut crate::sha1prng::Sha1Prng,
    ) {
        for i in 0..PLAYER_COUNT {
            let Some(action) = actions[i] else {
                self.dead[i] = true;
                continue;
            };
            if self.risk[i] < 0 {
                self.risk[i] += 1;
                continue;
            }
            let k = self.directions.iter().position(|d| *d == action).unwrap_or(0) as i32;
            self.positions[i] += [1, 2, 2, 3][k as usize];
            self.risk[i] = (self.risk[i] + (k - 1)).max(0);
        }
        for i in 0..PLAYER_COUNT {
            if self.risk[i] < 0 {
                continue;
            }
            let lap = self.positions[i].rem_euclid(SKATING_LENGTH);
            let collides = (0..PLAYER_COUNT)
                .any(|k| k != i && self.positions[k].rem_euclid(SKATING_LENGTH) == lap);
            if collides {
                self.risk[i] += 2;
            }
            if self.risk[i] >= 5 {
                self.risk[i] = -2;
            }
        }
        rng.shuffle(&mut self.directions);
        self.timer -= 1;
    }

    /// §6.2: over when the timer reaches 0.
    pub fn is_run_over(&self) -> bool {
        self.timer <= 0
    }

    /// §6.3: total distance, or −1 if dead.
    pub fn scores(&self) -> [f64; PLAYER_COUNT] {
        std::array::from_fn(|i| if self.dead[i] { -1.0 } else { self.positions[i] as f64 })
    }
}

impl Diving {
    /// §7.2: matching the current goal letter adds 1 to the combo and the combo to the points;
    /// a miss sets the combo to 0. Then the letter is used up.
    pub fn tick(&mut self, actions: &[Option<Action>; PLAYER_COUNT]) {
        let goal = self.goal.first().copied();
        for i in 0..PLAYER_COUNT {
            let Some(action) = actions[i] else {
                self.dead[i] = true;
                continue;
            };
            if Some(action) == goal {
                self.combo[i] += 1;
                self.points[i] += self.combo[i];
            } else {
                self.combo[i] = 0;
            }
        }
        if !self.goal.is_empty() {
            self.goal.remove(0);
        }
    }

    /// §7.2: over when no goal letter is left.
    pub fn is_run_over(&self) -> bool {
        self.goal.is_empty()
    }

    /// §7.3: points, or −1 if dead.
    pub fn scores(&self) -> [f64; PLAYER_COUNT] {
        std::array::from_fn(|i| if self.dead[i] { -1.0 } else { self.points[i] as f64 })
    }
}

impl Run {
    /// One tick of whichever mini-game this is (skating draws its shuffle, §3.4).
    pub fn tick(
        &mut self,
        actions: &[Option<Action>; PLAYER_COUNT],
        rng: &mut crate::sha1prng::Sha1Prng,
    ) {
        match self {
            Run::Hurdles(g) => g.tick(actions),
            Run::Archery(g) => g.tick(actions),
            Run::Skating(g) => g.tick(actions, rng),
            Run::Diving(g) => g.tick(actions),
        }
    }

    /// Whether the run ended on its last tick.
    pub fn is_run_over(&self) -> bool {
        match self {
            Run::Hurdles(g) => g.is_run_over(),
            Run::Archery(g) => g.is_run_over(),
            Run::Skating(g) => g.is_run_over(),
            Run::Diving(g) => g.is_run_over(),
        }
    }

    /// Ranking scores, higher is better.
    pub fn scores(&self) -> [f64; PLAYER_COUNT] {
        match self {
            Run::Hurdles(g) => g.scores(),
            Run::Archery(g) => g.scores(),
            Run::Skating(g) => g.scores(),
            Run::Diving(g) => g.scores(),
        }
    }
}

/// §8.3: competition ranks (number of strictly higher scores), then every inactive player is
/// forced to rank 2 (bronze).
pub fn ranks(scores: [f64; PLAYER_COUNT], active: [bool; PLAYER_COUNT]) -> [usize; PLAYER_COUNT] {
    std::array::from_fn(|i| {
        if !active[i] {
            2
        } else {
            scores.iter().filter(|s| **s > scores[i]).count()
        }
    })
}

/// §8.4: points = product over mini-games of `3 * gold + silver`.
pub fn points(medals: &[[u32; 3]]) -> i64 {
    medals.iter().map(|m| 3 * m[0] as i64 + m[1] as i64).product()
}

/// The medal names of `$i earns a <X> medal` (§11.5), by rank.
pub const MEDAL_NAMES: [&str; 3] = ["GOLD", "SILVER", "BRONZE"];

/// What one player handed to the referee this turn (§8.2 steps 2–3, §11).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerInput {
    /// A valid line.
    Action(Action),
    /// A line the referee rejects (§11.2): the raw line and why.
    Invalid {
        /// The raw string.
        line: String,
        /// Where it fails the referee's pattern.
        error: ParseError,
    },
    /// An active player gave no line in time (§11.4).
    Timeout,
    /// The player was not asked (already inactive).
    NotAsked,
}

/// §8.2: resolves one turn. Inputs of inactive players are ignored; invalid lines and timeouts
/// deactivate (§11.3–§11.4); then each mini-game resets or ticks, awarding medals when its run
/// ends; then the end test (§8.4, §9). The turn's events are left in `state.events`.
pub fn play_turn(state: &mut State, inputs: &[PlayerInput; PLAYER_COUNT]) -> Result<(), StepError> {
    if state.is_over() {
        return Err(StepError::GameOver);
    }
    let mut events = Vec::new();
    let mut deactivations: Vec<(usize, String)> = Vec::new();
    // Steps 1–3: clear actions, read each active player's line.
    let mut actions: [Option<Action>; PLAYER_COUNT] = [None; PLAYER_COUNT];
    for i in 0..PLAYER_COUNT {
        if !state.active[i] {
            continue;
        }
        match &inputs[i] {
            PlayerInput::Action(a) => actions[i] = Some(*a),
            PlayerInput::Invalid { line, .. } => {
                events.push(bad_command_summary(line));
                deactivations.push((i, deactivation_reason(line)));
                state.active[i] = false;
            }
            PlayerInput::Timeout | PlayerInput::NotAsked => {
                events.push(format!("${i} has not provided 1 lines in time"));
                deactivations.push((i, "Timeout!".to_string()));
                state.active[i] = false;
            }
        }
    }
    // Step 4: performGameUpdate.
    for g in 0..state.games.len() {
        let game = &mut state.games[g];
        if game.should_reset {
            game.resetting = true;
            reset_run(&mut game.run, &mut state.rng);
            game.should_reset = false;
            continue;
        }
        game.resetting = false;
        game.run.tick(&actions, &mut state.rng);
        if game.run.is_run_over() {
            game.should_reset = true;
            let ranks = ranks(game.run.scores(), state.active);
            events.push(format!("Game over: {}", game.run.kind().name()));
            for (i, rank) in ranks.iter().enumerate() {
                if let Some(medals) = state.medals[i].get_mut(g) {
                    medals[*rank] += 1;
                }
                events.push(format!("${i} earns a {} medal", MEDAL_NAMES[*rank]));
            }
        }
    }
    for (i, reason) in deactivations {
        events.push(format!("Deactivated ${i}: {reason}"));
    }
    state.events = events;
    state.turn += 1;
    // Step 5 and §8.1: the end test.
    if state.active_count() < 2 {
        state.end = Some(EndReason::FewerThanTwoActivePlayers);
    } else if state.turn >= MAX_TURNS {
        state.end = Some(EndReason::TurnLimit);
    }
    Ok(())
}

/// §8.4: final score = points for an active player, −1 for a deactivated one.
pub fn final_scores(state: &State) -> [i64; PLAYER_COUNT] {
    std::array::from_fn(|i| if state.active[i] { points(&state.medals[i]) } else { -1 })
}

/// §8.4: the result once the game is over (ranks: 1 + number of strictly higher scores).
pub fn outcome(state: &State) -> Option<Outcome> {
    let end = state.end?;
    let scores = final_scores(state).to_vec();
    let ranks = Outcome::ranks_from_scores(&scores);
    Some(Outcome { scores, ranks, reason: end.trace_name().to_string() })
}

/// §11.3: `Invalid Input: Expected UP | DOWN | LEFT | RIGHT but got '<line>'` (raw line).
pub fn invalid_input_message(line: &str) -> String {
    format!("Invalid Input: Expected UP | DOWN | LEFT | RIGHT but got '{line}'")
}

/// §11.3: the game summary line of an invalid line.
pub fn bad_command_summary(line: &str) -> String {
    format!("Bad command: {}", invalid_input_message(line))
}

/// §11.3: the deactivation reason (tooltip): the message with `&lt;` → `<` then `&gt;` → `>`.
pub fn deactivation_reason(line: &str) -> String {
    invalid_input_message(line).replace("&lt;", "<").replace("&gt;", ">")
}
