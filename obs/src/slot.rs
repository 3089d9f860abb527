//! One game in progress seen from every seat: the text-level engine, what each player has been
//! told, the scores, and the outcome turned into rewards.

use crate::codec::{GameCodec, GameId, Seat};
use serde_json::Value;
use twinsim_reference::game::{EngineKind, TraceEngine, TracePlay, TurnStructure};
use twinsim_reference::trace::{SetupRecord, TraceOutcome, TurnRecord};

/// Why a step was refused (nothing was played).
#[derive(Debug)]
pub enum StepError {
    /// The game is over; reset it first.
    GameOver,
    /// The actions do not fit the game or the moment (wrong count, index out of range, ...).
    BadAction(String),
}

/// One game of one engine, with a seat per player.
pub struct Slot {
    game: GameId,
    engine: &'static dyn TraceEngine,
    params: Value,
    play: Box<dyn TracePlay>,
    seats: Vec<Seat>,
    views: Vec<Option<String>>,
    init_inputs: Vec<Option<String>>,
    to_act: Vec<bool>,
    scores: Vec<f64>,
    previous_scores: Vec<f64>,
    rewards: Vec<f32>,
    turn: usize,
}

/// The engine of `game` of the given kind.
pub fn engine(game: GameId, kind: EngineKind) -> &'static dyn TraceEngine {
    twinsim_arena::registry::engine(game.name(), kind)
        .expect("every game has both engines (CI's `verify` checks it)")
}

/// The final reward of each player: (players ranked below − players ranked above) / (n − 1),
/// so +1 for a sole winner, −1 for a sole loser, 0 for a two-player draw or the middle of three.
pub fn rewards_from_ranks(ranks: &[usize]) -> Vec<f32> {
    let n = ranks.len();
    ranks
        .iter()
        .map(|r| {
            let below = ranks.iter().filter(|o| *o > r).count() as f32;
            let above = ranks.iter().filter(|o| *o < r).count() as f32;
            (below - above) / (n.max(2) - 1) as f32
        })
        .collect()
}

impl Slot {
    /// Sets up a game (the referee's setup for `seed`); `params` is a trace's params object
    /// (league, map, ...), `league` then overrides its league.
    pub fn new(
        game: GameId,
        kind: EngineKind,
        seed: i64,
        league: Option<u32>,
        params: Option<&Value>,
    ) -> Result<Slot, String> {
        let engine = engine(game, kind);
        let mut merged = match params {
            Some(Value::Object(map)) => map.clone(),
            Some(other) => return Err(format!("params must be an object, not {other}")),
            None => Default::default(),
        };
        if let Value::Object(league) = twinsim_arena::registry::league_params(game.name(), league) {
            merged.extend(league);
        }
        let params = Value::Object(merged);
        let play = engine.setup(Some(seed), &params)?;
        let players = play.num_players();
        let mut slot = Slot {
            game,
            engine,
            params,
            play,
            seats: (0..players).map(|p| game.seat(p)).collect(),
            views: vec![None; players],
            init_inputs: vec![None; players],
            to_act: vec![false; players],
            scores: vec![0.0; players],
            previous_scores: vec![0.0; players],
            rewards: vec![0.0; players],
            turn: 0,
        };
        slot.after_setup();
        Ok(slot)
    }

    /// Starts a new game with `seed` on the same engine and league.
    pub fn reset(&mut self, seed: i64) -> Result<(), String> {
        self.play = self.engine.setup(Some(seed), &self.params)?;
        let players = self.play.num_players();
        self.seats = (0..players).map(|p| self.game.seat(p)).collect();
        self.turn = 0;
        self.after_setup();
        Ok(())
    }

    fn after_setup(&mut self) {
        let record = self.play.initial_record();
        let players = self.seats.len();
        self.views = (0..players).map(|p| record.initial_views.get(p).cloned().flatten()).collect();
        self.init_inputs =
            (0..players).map(|p| record.init_input_of(p).map(str::to_string)).collect();
        self.absorb_views();
        self.scores = vec![0.0; players];
        self.previous_scores = self.scores.clone();
        self.rewards = vec![0.0; players];
        self.refresh_to_act();
    }

    fn absorb_views(&mut self) {
        for (seat, view) in self.seats.iter_mut().zip(&self.views) {
            if let Some(view) = view {
                seat.absorb_view(view);
            }
        }
    }

    fn refresh_to_act(&mut self) {
        let acting = self.play.players_to_act();
        for p in 0..self.seats.len() {
            self.to_act[p] = acting.contains(&p);
        }
    }

    /// The game.
    pub fn game(&self) -> GameId {
        self.game
    }

    /// Number of players.
    pub fn num_players(&self) -> usize {
        self.seats.len()
    }

    /// Whether `player` is asked for an action now.
    pub fn to_act(&self) -> &[bool] {
        &self.to_act
    }

    /// Simultaneous or alternating turns.
    pub fn turns(&self) -> TurnStructure {
        self.engine.turns()
    }

    /// Turns resolved so far.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// The game is over.
    pub fn is_over(&self) -> bool {
        self.play.is_over()
    }

    /// The latest text the referee sent each player (`None`: nothing new this turn).
    pub fn views(&self) -> &[Option<String>] {
        &self.views
    }

    /// The init input of each player (read before its first view), where the game has one.
    pub fn init_inputs(&self) -> &[Option<String>] {
        &self.init_inputs
    }

    /// The referee's legal lines of `player` now (empty when not to act). For an X-mas Rush
    /// MOVE the engine lists PASS and one path per reachable cell.
    pub fn legal(&self, player: usize) -> Vec<String> {
        if self.to_act[player] {
            self.play.legal_lines(player)
        } else {
            vec![]
        }
    }

    /// Current scores; and the change of the last turn.
    pub fn scores(&self) -> (&[f64], Vec<f64>) {
        let delta = self.scores.iter().zip(&self.previous_scores).map(|(a, b)| a - b).collect();
        (&self.scores, delta)
    }

    /// The rewards of the last step: the final ranking as +1/0/−1 once the game is over, else 0.
    pub fn rewards(&self) -> &[f32] {
        &self.rewards
    }

    /// The engine's outcome, once the game is over.
    pub fn outcome(&self) -> Option<TraceOutcome> {
        self.play.outcome()
    }

    /// 1-based ranks, once the game is over (the outcome's, which the arena's results have
    /// too, so rewards here and arena results agree).
    pub fn ranks(&self) -> Option<Vec<usize>> {
        self.outcome().map(|o| o.ranks)
    }

    /// The terminal picture of the position.
    pub fn render(&self, colour: bool) -> String {
        self.play.render(colour)
    }

    /// The fields the engine reproduces for the setup (trace keys), and for the last turn.
    pub fn records(&self) -> (SetupRecord, TurnRecord) {
        (self.play.initial_record(), self.play.turn_record())
    }

    /// Writes `player`'s observation.
    pub fn observe<T: crate::codec::Number>(&self, player: usize, out: &mut [T]) {
        self.seats[player].encode(out);
    }

    /// Writes `player`'s action mask.
    pub fn mask(&self, player: usize, out: &mut [i8]) {
        let seat = &self.seats[player];
        // An X-mas Rush MOVE mask comes from the view alone (see `codec::xmas_rush`); the
        // engine's list of paths would only be thrown away.
        let legal = if seat.needs_legal_lines() { self.legal(player) } else { vec![] };
        seat.mask(self.to_act[player], &legal, out);
    }

    /// The line action `index` of `player` stands for now.
    pub fn line(&self, player: usize, index: usize) -> Result<String, String> {
        self.seats[player].line(index)
    }

    /// The action index `line` of `player` stands for now.
    pub fn index_of(&self, player: usize, line: &str) -> Option<usize> {
        self.seats[player].index_of(line)
    }

    /// Plays one turn from action indices, one per player (ignored for players not to act).
    pub fn step_indices(&mut self, indices: &[i64]) -> Result<(), StepError> {
        if indices.len() != self.seats.len() {
            return Err(StepError::BadAction(format!(
                "expected {} actions (one per player), found {}",
                self.seats.len(),
                indices.len()
            )));
        }
        let mut lines = vec![None; self.seats.len()];
        for (p, index) in indices.iter().enumerate() {
            if self.to_act[p] {
                let index = usize::try_from(*index).map_err(|_| {
                    StepError::BadAction(format!("player {p}: action index {index} is negative"))
                })?;
                let line = self
                    .line(p, index)
                    .map_err(|e| StepError::BadAction(format!("player {p}: {e}")))?;
                lines[p] = Some(line);
            }
        }
        self.step_lines(lines)
    }

    /// Plays one turn from the exact lines the players print (`None` for players not to act).
    /// A line from a player not to act is refused; a missing line from one to act is a timeout,
    /// with the referee's consequence.
    pub fn step_lines(&mut self, lines: Vec<Option<String>>) -> Result<(), StepError> {
        if self.play.is_over() {
            return Err(StepError::GameOver);
        }
        if lines.len() != self.seats.len() {
            return Err(StepError::BadAction(format!(
                "expected {} lines (one per player), found {}",
                self.seats.len(),
                lines.len()
            )));
        }
        if let Some(p) = (0..lines.len()).find(|p| lines[*p].is_some() && !self.to_act[*p]) {
            return Err(StepError::BadAction(format!("player {p} is not to act")));
        }
        for (seat, line) in self.seats.iter_mut().zip(&lines) {
            if let Some(line) = line {
                seat.absorb_own_line(line);
            }
        }
        let actions: Vec<Option<String>> = match self.engine.turns() {
            TurnStructure::Simultaneous => lines,
            TurnStructure::Alternating => {
                let mover = self.to_act.iter().position(|a| *a).ok_or(StepError::GameOver)?;
                vec![lines.into_iter().nth(mover).flatten()]
            }
        };
        self.play.play_turn(&actions).map_err(StepError::BadAction)?;
        self.turn += 1;
        let record = self.play.turn_record();
        let players = self.seats.len();
        self.views = (0..players).map(|p| record.views.get(p).cloned().flatten()).collect();
        self.absorb_views();
        self.previous_scores = std::mem::take(&mut self.scores);
        self.scores = self.play.running_scores().into_iter().map(|s| s as f64).collect();
        self.refresh_to_act();
        self.rewards = match self.ranks() {
            Some(ranks) => rewards_from_ranks(&ranks),
            None => vec![0.0; players],
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scores the observation layer read from each turn's state JSON before the engines
    /// gave them typed (`TracePlay::running_scores`): kept here as the oracle.
    fn scores_from_state_json(game: GameId, state: &Value, players: usize) -> Vec<f64> {
        let number = |v: &Value| v.as_f64().unwrap_or(0.0);
        match game {
            GameId::XmasRush | GameId::Photosynthesis => {
                (0..players).map(|p| number(&state["players"][p]["score"])).collect()
            }
            GameId::WondevWoman => (0..players).map(|p| number(&state["scores"][p])).collect(),
            GameId::Olymbits => (0..players)
                .map(|p| {
                    let medals = state["medals"][p].as_array().cloned().unwrap_or_default();
                    medals.iter().map(|m| 3.0 * number(&m[0]) + number(&m[1])).product()
                })
                .collect(),
            GameId::Zuniq => vec![0.0; players],
        }
    }

    /// Every turn of the first 12 games of each shipped trace (misbehaving bots among them:
    /// X-mas Rush's −1 of a forced deactivation in games 5 and 6), on both engines: the typed running scores are the ones the state JSON gave. (All the
    /// games took 26 s in the debug build; 12 per game keep it to a few.)
    #[test]
    fn running_scores_are_the_state_json_scores_on_every_shipped_turn() {
        for game in GameId::ALL {
            let path =
                format!("{}/../tests/traces/{}.jsonl", env!("CARGO_MANIFEST_DIR"), game.name());
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let records =
                twinsim_reference::trace::parse_jsonl(&text).expect("shipped traces read");
            let mut turns = 0;
            for kind in [EngineKind::Reference, EngineKind::Fast] {
                for record in records.iter().take(12) {
                    let mut play = engine(game, kind).setup(record.seed, &record.params).unwrap();
                    let players = play.num_players();
                    for (n, turn) in record.turns.iter().enumerate() {
                        play.play_turn(&turn.actions).unwrap();
                        let state = play.turn_record().state;
                        let typed: Vec<f64> =
                            play.running_scores().into_iter().map(|s| s as f64).collect();
                        let context =
                            format!("{} {kind} seed {:?} turn {}", game.name(), record.seed, n + 1);
                        assert_eq!(
                            typed,
                            scores_from_state_json(game, &state, players),
                            "{context}"
                        );
                        turns += 1;
                    }
                }
            }
            assert!(turns > 0, "{}: no turn", game.name());
        }
    }
}
