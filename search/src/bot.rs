//! Searches as bots: `builtin:<algorithm>[@reference|@fast][:iterations=N][:ms=N]` in the arena.
//!
//! A search bot is honest: like a process bot it reads only the text the referee sends its seat
//! (the init input on the first turn, then each turn's view), rebuilds a state from it (with
//! hidden information determinized: X-mas Rush's quest deck order, Olymbits' future mini-games,
//! Wondev Woman's fogged units through the fog deduction), runs the search on the engine it was
//! built for, and answers one line. The arena never hands it the true state.
//!
//! Each game module (`search::<game>`) provides its algorithms through [`ViewPlayer`]; this module
//! parses the spec and dispatches.

use std::time::{Duration, Instant};
use twinsim_reference::game::{EngineKind, PlayerId};
// Only the dispatch over all games (feature `builtin`) uses the registry's lookups.
#[cfg(feature = "builtin")]
use twinsim_reference::registry::{GameId, UnknownGame};

/// What a search bot did over a game: moves answered and iterations (the search's own unit:
/// playouts for MCTS and Smitsimax, expanded states for the beam search, nodes for alpha-beta).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Turns at which the bot ran its search to answer (one per searched turn).
    pub moves: u64,
    /// Iterations summed over those answers.
    pub iterations: u64,
}

/// One seat's search bot for one game.
pub trait ViewPlayer: Send {
    /// `input` is what the referee sends this turn (the init input first on the seat's first
    /// turn), lines joined by `\n`; the answer is due by `deadline` (for Zuniq, whose 30 s are a
    /// whole-game budget, `deadline` is when that budget runs out). Returns the line to print,
    /// or `None` to say nothing (the referee's timeout consequence follows).
    fn play(&mut self, input: &str, deadline: Instant) -> Option<String>;
    /// Moves and iterations so far.
    fn stats(&self) -> SearchStats;
}

/// A parsed `builtin:` search spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSpec {
    /// Algorithm name (`smitsimax`, `beam`, `mcts`, `alphabeta`).
    pub algorithm: String,
    /// The engine the search simulates on (default: fast).
    pub engine: EngineKind,
    /// A fixed iteration budget per move instead of the clock (deterministic games; the time
    /// limit still applies as a safety net).
    pub iterations: Option<u64>,
    /// The bot's own time budget in milliseconds (`:ms=N`): each answer's (for Zuniq, whose
    /// limit is a whole-game budget, the whole game's), when it is shorter than the limit the
    /// arena gives. The bot then plans as if its limit were `N` ms, whatever `--time-scale`
    /// gives the other bots; the arena's limit still holds.
    pub ms: Option<u64>,
}

/// The largest `:ms=N`: an hour, more than any limit times the largest time scale.
pub const MAX_MS: u64 = 3_600_000;

/// The algorithms of each game, as `(game, algorithm)`.
pub const ALGORITHMS: &[(twinsim_reference::registry::GameId, &str)] = {
    use twinsim_reference::registry::GameId::*;
    &[
        (XmasRush, "smitsimax"),
        (Photosynthesis, "beam"),
        (Zuniq, "mcts"),
        (Zuniq, "mcts-v1"),
        (Olymbits, "smitsimax"),
        (WondevWoman, "alphabeta"),
        // Today's search before issue 34, kept to measure the next against (after the game's
        // default above, which `payoff` takes).
        (Photosynthesis, "beam-v1"),
    ]
};

/// The default search of `game` (its first in [`ALGORITHMS`]), if it has one.
pub fn default_algorithm(game: twinsim_reference::registry::GameId) -> Option<&'static str> {
    ALGORITHMS.iter().find(|(g, _)| *g == game).map(|(_, a)| *a)
}

/// Whether `name` (the part of a spec after `builtin:`) names a search algorithm.
pub fn is_search_name(name: &str) -> bool {
    let algorithm = name.split(['@', ':']).next().unwrap_or("");
    ALGORITHMS.iter().any(|(_, a)| *a == algorithm)
}

impl std::str::FromStr for SearchSpec {
    type Err = String;
    /// `ALGORITHM[@reference|@fast][:iterations=N][:ms=N]` (options in any order, each once).
    fn from_str(s: &str) -> Result<SearchSpec, String> {
        let mut parts = s.split(':');
        let head = parts.next().unwrap_or("");
        let (algorithm, engine) = match head.split_once('@') {
            None => (head, EngineKind::Fast),
            Some((a, "fast")) => (a, EngineKind::Fast),
            Some((a, "reference")) => (a, EngineKind::Reference),
            Some((_, other)) => {
                return Err(format!("unknown engine {other:?} in builtin:{s} (reference, fast)"))
            }
        };
        if !ALGORITHMS.iter().any(|(_, a)| *a == algorithm) {
            return Err(format!("unknown search {algorithm:?} in builtin:{s}"));
        }
        let (mut iterations, mut ms) = (None, None);
        for option in parts {
            let bad = || {
                format!(
                    "bad option {option:?} in builtin:{s} (expected iterations=N or ms=N, each \
                     at most once, N > 0, ms at most {MAX_MS})"
                )
            };
            let (slot, most) = match option.split_once('=').map(|(name, _)| name) {
                Some("iterations") => (&mut iterations, u64::MAX),
                Some("ms") => (&mut ms, MAX_MS),
                _ => return Err(bad()),
            };
            let value = option.split_once('=').map_or("", |(_, v)| v);
            match value.parse::<u64>() {
                Ok(n) if (1..=most).contains(&n) && slot.is_none() => *slot = Some(n),
                _ => return Err(bad()),
            }
        }
        Ok(SearchSpec { algorithm: algorithm.to_string(), engine, iterations, ms })
    }
}

impl std::fmt::Display for SearchSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "builtin:{}@{}", self.algorithm, self.engine)?;
        if let Some(n) = self.iterations {
            write!(f, ":iterations={n}")?;
        }
        if let Some(n) = self.ms {
            write!(f, ":ms={n}")?;
        }
        Ok(())
    }
}

/// The search bot of `spec` for `game`, playing `seat`, its randomness seeded by `seed`.
#[cfg(feature = "builtin")]
pub fn make_player(
    game: &str,
    spec: &SearchSpec,
    seat: PlayerId,
    seed: i64,
) -> Result<Box<dyn ViewPlayer>, String> {
    let game: GameId = game.parse().map_err(|e: UnknownGame| e.to_string())?;
    let expected = default_algorithm(game);
    if !ALGORITHMS.iter().any(|(g, a)| *g == game && *a == spec.algorithm) {
        return Err(match expected {
            Some(a) => {
                format!("{game} has no builtin:{} search (it has builtin:{a})", spec.algorithm)
            }
            None => format!("{game} has no search bot"),
        });
    }
    let player: Box<dyn ViewPlayer> = match game {
        GameId::XmasRush => super::xmas_rush::player(spec, seat, seed),
        GameId::Photosynthesis => super::photosynthesis::player(spec, seat, seed),
        GameId::Zuniq => super::zuniq::player(spec, seat, seed),
        GameId::Olymbits => super::olymbits::player(spec, seat, seed),
        GameId::WondevWoman => super::wondev_woman::player(spec, seat, seed),
    }?;
    let player = Box::new(Paced(player));
    Ok(match spec.ms {
        Some(ms) => Box::new(OwnBudget {
            player,
            budget: Duration::from_millis(ms),
            whole_game: game.info().time_limits.total.is_some(),
            used: Duration::ZERO,
        }),
        None => player,
    })
}

/// A search bot whose answers' lateness after their thinking deadline is measured
/// ([`super::pace`]), so that every bot keeps that much time free.
#[cfg(feature = "builtin")]
struct Paced(Box<dyn ViewPlayer>);

#[cfg(feature = "builtin")]
impl ViewPlayer for Paced {
    fn play(&mut self, input: &str, deadline: Instant) -> Option<String> {
        let answer = super::pace::Answer::begin();
        let line = self.0.play(input, deadline);
        answer.end();
        line
    }

    fn stats(&self) -> SearchStats {
        self.0.stats()
    }
}

/// A search bot on its own budget (`:ms=N`): each answer is due `budget` after its input
/// arrived, or for a whole-game budget (Zuniq) when the budget less the time its answers took
/// so far runs out; or by the arena's deadline, when that comes first.
#[cfg(feature = "builtin")]
struct OwnBudget {
    player: Box<dyn ViewPlayer>,
    budget: Duration,
    whole_game: bool,
    /// Time spent answering so far (whole-game budgets).
    used: Duration,
}

#[cfg(feature = "builtin")]
impl ViewPlayer for OwnBudget {
    fn play(&mut self, input: &str, deadline: Instant) -> Option<String> {
        let arrived = Instant::now();
        let own = arrived + self.budget.saturating_sub(self.used);
        let answer = self.player.play(input, deadline.min(own));
        if self.whole_game {
            self.used += arrived.elapsed();
        }
        answer
    }

    fn stats(&self) -> SearchStats {
        self.player.stats()
    }
}

/// The usual time policy of a per-move limit: think until `fraction` of the time left before
/// `deadline`, keeping free a `margin` for parsing and rendering, or the lateness this machine
/// showed lately ([`super::pace::reserve`]: scheduler stalls), whichever is longer.
pub fn think_until(deadline: Instant, fraction: f64, margin: Duration) -> Instant {
    let now = Instant::now();
    let margin = margin.max(super::pace::reserve());
    let left = deadline.saturating_duration_since(now).saturating_sub(margin);
    now + left.mul_f64(fraction.clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print() {
        let s: SearchSpec = "mcts@reference:iterations=500".parse().unwrap();
        assert_eq!(s.algorithm, "mcts");
        assert_eq!(s.engine, EngineKind::Reference);
        assert_eq!(s.iterations, Some(500));
        assert_eq!(s.to_string(), "builtin:mcts@reference:iterations=500");
        let s: SearchSpec = "alphabeta".parse().unwrap();
        assert_eq!(s.engine, EngineKind::Fast);
        assert_eq!(s.iterations, None);
        assert!("mcts@slow".parse::<SearchSpec>().is_err());
        assert!("nosuch".parse::<SearchSpec>().is_err());
        assert!("mcts:iterations=0".parse::<SearchSpec>().is_err());
        assert!("mcts:depth=3".parse::<SearchSpec>().is_err());
        let s: SearchSpec = "beam:ms=40:iterations=7".parse().unwrap();
        assert_eq!((s.iterations, s.ms), (Some(7), Some(40)));
        assert_eq!(s.to_string(), "builtin:beam@fast:iterations=7:ms=40");
        assert_eq!("mcts@reference:ms=1".parse::<SearchSpec>().unwrap().ms, Some(1));
        for bad in ["beam:ms=0", "beam:ms=-5", "beam:ms=", "beam:ms=40:ms=50", "beam:ms=3600001"] {
            assert!(bad.parse::<SearchSpec>().is_err(), "{bad}");
        }
    }

    /// A player that notes the deadline it was given and the time left to it on arrival, then
    /// answers after 200 ms.
    struct Recorder(std::sync::Arc<std::sync::Mutex<Vec<(Instant, Duration)>>>);

    impl ViewPlayer for Recorder {
        fn play(&mut self, _input: &str, deadline: Instant) -> Option<String> {
            let left = deadline.saturating_duration_since(Instant::now());
            self.0.lock().unwrap().push((deadline, left));
            std::thread::sleep(Duration::from_millis(200));
            Some("x".into())
        }
        fn stats(&self) -> SearchStats {
            SearchStats::default()
        }
    }

    /// Holds however loaded the machine (issue 33): an upper bound on the time left is read
    /// after the budget was set, a lower bound on the deadline from a clock read before the call.
    #[test]
    fn an_own_budget_shortens_the_deadline_and_a_whole_game_one_runs_down() {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let far = Instant::now() + Duration::from_secs(3600);
        let ms = Duration::from_millis;
        let mut asked = Vec::new();
        let mut play = |player: &mut OwnBudget, deadline: Instant| {
            asked.push(Instant::now());
            player.play("", deadline);
        };
        let mut per_move = OwnBudget {
            player: Box::new(Recorder(seen.clone())),
            budget: ms(500),
            whole_game: false,
            used: Duration::ZERO,
        };
        play(&mut per_move, far);
        play(&mut per_move, far);
        // The arena's deadline, when it comes first, still holds.
        let arena = Instant::now() + ms(100);
        play(&mut per_move, arena);
        let mut whole = OwnBudget {
            player: Box::new(Recorder(seen.clone())),
            budget: ms(500),
            whole_game: true,
            used: Duration::ZERO,
        };
        play(&mut whole, far);
        play(&mut whole, far);
        let seen = seen.lock().unwrap().clone();
        let (deadline, left): (Vec<Instant>, Vec<Duration>) = seen.into_iter().unzip();
        // Each per-move answer gets its 500 ms again; the whole game's second answer only what
        // the first (200 ms or more) left.
        for k in [0, 1, 3] {
            assert!(left[k] <= ms(500) && deadline[k] >= asked[k] + ms(500), "{k}: {left:?}");
        }
        assert_eq!(deadline[2], arena);
        assert!(left[4] <= ms(300), "{left:?}");
    }

    #[test]
    fn a_search_belongs_to_its_game() {
        let spec: SearchSpec = "mcts".parse().unwrap();
        let err = make_player("olymbits", &spec, 0, 1).err().unwrap();
        assert!(err.contains("builtin:smitsimax"), "{err}");
    }

    #[test]
    fn think_until_keeps_the_margin() {
        let deadline = Instant::now() + Duration::from_millis(100);
        let until = think_until(deadline, 0.5, Duration::from_millis(10));
        assert!(until <= deadline - Duration::from_millis(10));
        let past = think_until(Instant::now(), 0.5, Duration::from_millis(10));
        assert!(past <= Instant::now());
    }
}
