//! The vocabulary every game shares, in the spirit of OpenSpiel.
//!
//! A game is a pure function of `(seed, params, actions)`: all randomness after setup (Olymbits
//! regenerating mini-games, Photosynthesis shuffling the action list it prints) comes from the
//! referee's own generator, which lives inside the state.
//!
//! Two layers:
//! - [`Game`]: the typed API a bot author or researcher uses inside a search (typed states and
//!   actions, no text).
//! - [`TraceEngine`] / [`TracePlay`]: the object-safe, text-level API the conformance tools use.
//!   It speaks the referee's language (the exact lines bots print, the JSON state schema of the
//!   traces), so one replayer serves every game and both engines.

#[cfg(feature = "json")]
use serde_json::Value;
use std::fmt;

/// A player's index: 0, 1 (and 2 in three-player games), as in the referee.
pub type PlayerId = usize;

/// Whether players act together each turn or one after another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnStructure {
    /// Every active player answers each turn and the turn resolves once all answers are in
    /// (X-mas Rush, Photosynthesis, Olymbits).
    Simultaneous,
    /// One player answers per turn (Zuniq, Wondev Woman).
    Alternating,
}

/// How a finished game ended for each player.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Final score of each player, as the referee reports it (deactivated players included).
    pub scores: Vec<i64>,
    /// 1-based rank of each player; tied players share a rank.
    pub ranks: Vec<usize>,
    /// Why the game ended, in the trace vocabulary (`"max_turns"`, `"invalid_action"`, ...).
    pub reason: String,
}

impl Outcome {
    /// Ranks from scores: higher is better, equal scores share a rank (1-based, "1224" style).
    pub fn ranks_from_scores(scores: &[i64]) -> Vec<usize> {
        scores.iter().map(|s| 1 + scores.iter().filter(|t| *t > s).count()).collect()
    }

    /// The single winner, if there is one (a unique rank 1).
    pub fn winner(&self) -> Option<PlayerId> {
        let first: Vec<_> = (0..self.ranks.len()).filter(|&p| self.ranks[p] == 1).collect();
        (first.len() == 1).then(|| first[0])
    }
}

/// A bot's output line could not be read. Says what and where.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    /// 1-based line of the input (1 for a single action line).
    pub line: usize,
    /// 1-based column (in characters) where the problem starts.
    pub column: usize,
    /// What the parser expected there.
    pub expected: String,
    /// What it found (possibly empty: end of input).
    pub found: String,
}

impl ParseError {
    /// A parse error on a single-line input.
    pub fn at(column: usize, expected: impl Into<String>, found: impl Into<String>) -> Self {
        ParseError { line: 1, column, expected: expected.into(), found: found.into() }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: expected {}, found {:?}",
            self.line, self.column, self.expected, self.found
        )
    }
}

impl std::error::Error for ParseError {}

/// An action that parsed but the rules forbid in this state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IllegalAction {
    /// Which rule forbids it, in words (ideally naming the rules doc section).
    pub reason: String,
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal action: {}", self.reason)
    }
}

impl std::error::Error for IllegalAction {}

/// Why [`Game::step`] refused to advance the state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StepError {
    /// The game is over; nothing more can be played.
    GameOver,
    /// The actions slice does not have one entry per player.
    WrongArity {
        /// The number of slots the game wants: [`Game::num_players`].
        expected: usize,
        /// The length of the slice that was passed.
        found: usize,
    },
    /// A player who is not to act gave an action, or one who is gave none where the API
    /// requires one.
    NotToAct {
        /// The offending slot's player.
        player: PlayerId,
    },
    /// The action is not legal for that player.
    Illegal {
        /// The player whose action was refused.
        player: PlayerId,
        /// Which rule forbids it.
        error: IllegalAction,
    },
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::GameOver => write!(f, "the game is over"),
            StepError::WrongArity { expected, found } => {
                write!(f, "expected {expected} action slots, found {found}")
            }
            StepError::NotToAct { player } => write!(f, "player {player} is not to act"),
            StepError::Illegal { player, error } => write!(f, "player {player}: {error}"),
        }
    }
}

impl std::error::Error for StepError {}

/// The typed API of one game: what a search calls.
///
/// `actions` passed to [`Game::step`] are indexed by player id; `None` means "no action" (a
/// player not to act, or a deactivated one). In an alternating game exactly the mover's slot is
/// `Some`.
pub trait Game {
    /// Everything the referee keeps, hidden and random parts included.
    type State: Clone + PartialEq + fmt::Debug;
    /// One player's action, printable as the exact line a bot prints.
    type Action: Clone + PartialEq + fmt::Debug + fmt::Display;
    /// League or other setup parameters; `Default` is the top league.
    type Params: Clone + fmt::Debug + Default;

    /// Trace name of the game (`"xmas-rush"`, ...).
    const NAME: &'static str;
    /// Simultaneous or alternating turns.
    const TURNS: TurnStructure;

    /// Seeded setup, identical to the referee's for the same seed and params.
    fn new_game(seed: i64, params: &Self::Params) -> Self::State;
    /// Number of players in this game (2 or 3).
    fn num_players(state: &Self::State) -> usize;
    /// Who is asked for an action now (empty once the game is over).
    fn players_to_act(state: &Self::State) -> Vec<PlayerId>;
    /// Every legal action of `player` now (empty if the player is not to act).
    fn legal_actions(state: &Self::State, player: PlayerId) -> Vec<Self::Action>;
    /// Whether the game is over (nobody is asked any more; [`Game::outcome`] is `Some`).
    fn is_over(state: &Self::State) -> bool;
    /// Whether `player` is asked for an action now. The default reads
    /// [`Game::players_to_act`]; an engine that knows cheaper (a flag, a bit) says so.
    fn is_to_act(state: &Self::State, player: PlayerId) -> bool {
        Self::players_to_act(state).contains(&player)
    }
    /// Resolves one turn: the checks every game shares ([`check_turn`]: the game is not over,
    /// one slot per player, an action only from a player to act, and in an alternating game
    /// one from the mover), then the game's own [`Game::apply`]. The same errors, in the same
    /// order, for every game and both twins.
    fn step(state: &mut Self::State, actions: &[Option<Self::Action>]) -> Result<(), StepError> {
        check_turn::<Self>(state, actions)?;
        Self::apply(state, actions)
    }
    /// The game's own part of [`Game::step`], called only on a turn [`check_turn`] accepted:
    /// validates each action against the rules ([`StepError::Illegal`], the state left
    /// unchanged) and resolves the turn. `None` for a player to act of a simultaneous game is
    /// "no answer" (each game documents the referee's consequence).
    fn apply(state: &mut Self::State, actions: &[Option<Self::Action>]) -> Result<(), StepError>;
    /// The result, once the game is over.
    fn outcome(state: &Self::State) -> Option<Outcome>;
}

/// Perft over the typed API: the number of joint-action sequences of length `depth` from
/// `state`, each joint action giving every player to act one of its [`Game::legal_actions`]
/// (in an alternating game the mover's move, the chess-engine perft; in a simultaneous game the
/// product of the movers' lists), each played with [`Game::step`] on a copy. Depth 0 counts the
/// position itself; a finished game, or a player to act without a legal action, ends every line
/// early and counts nothing. The last ply is counted, not played (bulk counting).
///
/// The one perft of every reference game (the CLI's `perft` for Zuniq and Wondev Woman); its
/// expected counts are the table `twinsim_fast::perft_tests` checks on both twins. Not named
/// `perft`: the contest bundler keeps every item whose name a kept item mentions, so an item
/// named like a game's own `perft` would keep that one in the bots.
pub fn typed_perft<G: Game>(state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let movers = G::players_to_act(state);
    let lists: Vec<Vec<G::Action>> = movers.iter().map(|&p| G::legal_actions(state, p)).collect();
    if movers.is_empty() {
        return 0;
    }
    let width: u64 = lists.iter().map(|list| list.len() as u64).product();
    if depth == 1 {
        return width;
    }
    let mut joint = vec![None; G::num_players(state)];
    let mut total = 0;
    // Joint action `index` read as a mixed-radix number, one digit per mover.
    for index in 0..width {
        let mut rest = index;
        for (list, &player) in lists.iter().zip(&movers) {
            let len = list.len() as u64;
            joint[player] = Some(list[(rest % len) as usize].clone());
            rest /= len;
        }
        let mut child = state.clone();
        G::step(&mut child, &joint).expect("a joint action of legal actions is playable");
        total += typed_perft::<G>(&child, depth - 1);
    }
    total
}

/// The checks [`Game::step`] makes before [`Game::apply`], in this order: the game is not over
/// ([`StepError::GameOver`]); `actions` has one slot per player ([`StepError::WrongArity`]);
/// no player who is not to act gives an action, and in an alternating game the mover gives one
/// ([`StepError::NotToAct`], the first such slot). Public for the engines that play a turn
/// another way (make/unmake) and must refuse the same turns.
pub fn check_turn<G: Game + ?Sized>(
    state: &G::State,
    actions: &[Option<G::Action>],
) -> Result<(), StepError> {
    if G::is_over(state) {
        return Err(StepError::GameOver);
    }
    let expected = G::num_players(state);
    if actions.len() != expected {
        return Err(StepError::WrongArity { expected, found: actions.len() });
    }
    if let Some(player) = (0..expected).find(|&p| actions[p].is_some() && !G::is_to_act(state, p)) {
        return Err(StepError::NotToAct { player });
    }
    if G::TURNS == TurnStructure::Alternating {
        // A mover's silence is not a move: the alternating games have no timeout in the
        // typed API (the text layer applies the referee's consequence).
        if let Some(player) =
            (0..expected).find(|&p| actions[p].is_none() && G::is_to_act(state, p))
        {
            return Err(StepError::NotToAct { player });
        }
    }
    Ok(())
}

/// Which implementation of a game an engine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// The readable rulebook (`reference` crate).
    Reference,
    /// The optimized twin (`fast` crate).
    Fast,
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EngineKind::Reference => "reference",
            EngineKind::Fast => "fast",
        })
    }
}

/// The lines of one text-level turn ([`TracePlay::play_turn`]) when there are exactly `N` of
/// them (one per player of a simultaneous game, the mover's alone in an alternating one); else
/// the error every engine reports, [`StepError::WrongArity`]'s text.
pub fn turn_lines<const N: usize>(
    actions: &[Option<String>],
) -> Result<&[Option<String>; N], String> {
    actions
        .try_into()
        .map_err(|_| StepError::WrongArity { expected: N, found: actions.len() }.to_string())
}

#[cfg(feature = "json")]
/// The text-level, object-safe face of an engine, used by `twinsim replay`, `verify`, `show`
/// and the conformance tests. One per game per crate, returned by `<crate>::<game>::engine()`.
pub trait TraceEngine: Sync {
    /// Trace name of the game (`"xmas-rush"`, `"photosynthesis"`, `"zuniq"`, `"olymbits"`,
    /// `"wondev-woman"`).
    fn game(&self) -> &'static str;
    /// Reference or fast.
    fn kind(&self) -> EngineKind;
    /// Simultaneous or alternating; decides the shape of a turn's `actions` (see
    /// [`TracePlay::play_turn`]).
    fn turns(&self) -> TurnStructure;
    /// Seeded setup from a trace's `seed` and `params` (the params object of the trace envelope;
    /// `{}` means the default: top league). Errors are messages for a human.
    fn setup(&self, seed: Option<i64>, params: &Value) -> Result<Box<dyn TracePlay>, String>;
}

#[cfg(feature = "json")]
/// A [`TraceEngine`] whose play type is known: its setup without the box, so that a caller
/// generic over engines (the arena's built-in greedy bot) reaches the typed state of the play
/// through [`TypedPlay`].
pub trait TypedTraceEngine: TraceEngine {
    /// The play type [`TraceEngine::setup`] boxes.
    type Play: TypedPlay;
    /// [`TraceEngine::setup`], typed.
    fn setup_play(&self, seed: Option<i64>, params: &Value) -> Result<Self::Play, String>;
}

#[cfg(feature = "json")]
/// A [`TracePlay`] that holds the typed state of a [`Game`].
pub trait TypedPlay: TracePlay {
    /// The typed game whose state the play holds.
    type Game: Game;
    /// The typed state of the position the play is at.
    fn typed_state(&self) -> &<Self::Game as Game>::State;
}

#[cfg(feature = "json")]
/// One game in progress behind a [`TraceEngine`].
pub trait TracePlay: Send {
    /// A deep copy.
    fn boxed_clone(&self) -> Box<dyn TracePlay>;
    /// Number of players.
    fn num_players(&self) -> usize;
    /// The setup record this engine reproduces, as the game's traces have it: `initial` and
    /// `initial_views`; also `initial_legal`, `setup_events`, `init_input` where the game's
    /// traces have them.
    fn initial_record(&self) -> crate::trace::SetupRecord;
    /// Who is asked for an action now (empty once the game is over).
    fn players_to_act(&self) -> Vec<PlayerId>;
    /// The legal action lines of `player` now, as a bot would print them (used for random
    /// play; may be a representative subset where the legal set is huge, such as X-mas Rush
    /// MOVE paths).
    fn legal_lines(&self, player: PlayerId) -> Vec<String>;
    /// Whether [`TracePlay::legal_lines`] lists every legal line of `line`'s kind, so that a
    /// line missing from it is illegal before the turn is played. `false` where the list is a
    /// representative subset (X-mas Rush MOVE paths: any walkable path is legal), and only the
    /// turn's [`TracePlay::refusals`] can tell.
    fn lists_every_legal(&self, line: &str) -> bool {
        let _ = line;
        true
    }
    /// Resolves one turn from the exact lines the bots printed, parsed the referee's way: bad
    /// lines get the referee's consequence, never a panic. `actions` has the shape of a trace
    /// turn's `actions`: one entry per player for simultaneous games (`None`: no answer), the
    /// mover's single line for alternating ones. `Err` only when the game is already over or
    /// the slice has the wrong shape.
    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String>;
    /// The record of the turn just played, as the game's traces have it: `state`, `views`,
    /// `events`, and `legal` and the game's extra fields where its traces have them.
    fn turn_record(&self) -> crate::trace::TurnRecord;
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// The envelope's `outcome`, once the game is over.
    fn outcome(&self) -> Option<crate::trace::TraceOutcome>;
    /// Each seat's score in the position now, as the game's state counts it, read from the
    /// typed state (not from its JSON): X-mas Rush's completed quests (−1 after a forced
    /// deactivation), Photosynthesis' and Wondev Woman's points, Olymbits' points (the product
    /// over the mini-games of 3·gold + silver). Zuniq counts no score before the end: 0 for
    /// every seat (its final scores are the [`TracePlay::outcome`]'s). Not the outcome's scores,
    /// which may differ at the end (a deactivated seat's −1).
    fn running_scores(&self) -> Vec<i64>;
    /// A picture of the position for a terminal (box-drawing characters; ANSI colour when
    /// `colour`). Defaults to the state as pretty JSON.
    fn render(&self, colour: bool) -> String {
        let _ = colour;
        serde_json::to_string_pretty(&self.turn_record().state).unwrap_or_default()
    }
    /// Leaf count of the legal-move tree to `depth` plies, if this engine has a perft of its own
    /// (alternating games). `None`: it has none (the typed twins'
    /// `twinsim_fast::game::joint_perft` covers every game).
    fn perft(&self, depth: u32) -> Option<u64> {
        let _ = depth;
        None
    }
    /// The seats whose answer the referee refused in the turn just played (malformed, illegal,
    /// missing, ...), typed, in the order the referee reports them, at most one per seat; empty
    /// after setup. Filled by each engine from its rules' typed result, never from the event
    /// text, so a tool learns who was refused and why without reading events.
    fn refusals(&self) -> Vec<crate::trace::Refusal>;
}
