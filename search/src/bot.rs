//! Searches as bots: `builtin:<algorithm>[@reference|@fast][:iterations=N]` in the arena.
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
}

/// The algorithms of each game, as `(game, algorithm)`.
pub const ALGORITHMS: &[(&str, &str)] = &[
    ("xmas-rush", "smitsimax"),
    ("photosynthesis", "beam"),
    ("zuniq", "mcts"),
    ("olymbits", "smitsimax"),
    ("wondev-woman", "alphabeta"),
];

/// Whether `name` (the part of a spec after `builtin:`) names a search algorithm.
pub fn is_search_name(name: &str) -> bool {
    let algorithm = name.split(['@', ':']).next().unwrap_or("");
    ALGORITHMS.iter().any(|(_, a)| *a == algorithm)
}

impl std::str::FromStr for SearchSpec {
    type Err = String;
    /// `ALGORITHM[@reference|@fast][:iterations=N]`.
    fn from_str(s: &str) -> Result<SearchSpec, String> {
        let (head, options) = match s.split_once(':') {
            Some((h, o)) => (h, Some(o)),
            None => (s, None),
        };
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
        let iterations = match options {
            None => None,
            Some(o) => match o.strip_prefix("iterations=").map(str::parse::<u64>) {
                Some(Ok(n)) if n > 0 => Some(n),
                _ => {
                    return Err(format!(
                        "bad option {o:?} in builtin:{s} (expected iterations=N, N > 0)"
                    ))
                }
            },
        };
        Ok(SearchSpec { algorithm: algorithm.to_string(), engine, iterations })
    }
}

impl std::fmt::Display for SearchSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "builtin:{}@{}", self.algorithm, self.engine)?;
        if let Some(n) = self.iterations {
            write!(f, ":iterations={n}")?;
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
    let expected = ALGORITHMS.iter().find(|(g, _)| *g == game).map(|(_, a)| *a);
    if expected != Some(spec.algorithm.as_str()) {
        return Err(match expected {
            Some(a) => {
                format!("{game} has no builtin:{} search (it has builtin:{a})", spec.algorithm)
            }
            None => format!("{game} has no search bot"),
        });
    }
    match game {
        "xmas-rush" => super::xmas_rush::player(spec, seat, seed),
        "photosynthesis" => super::photosynthesis::player(spec, seat, seed),
        "zuniq" => super::zuniq::player(spec, seat, seed),
        "olymbits" => super::olymbits::player(spec, seat, seed),
        "wondev-woman" => super::wondev_woman::player(spec, seat, seed),
        _ => Err(format!("{game} has no search bot")),
    }
}

/// The usual time policy of a per-move limit: think until `fraction` of the time left before
/// `deadline`, keeping a fixed `margin` free for parsing, rendering and scheduling jitter.
pub fn think_until(deadline: Instant, fraction: f64, margin: Duration) -> Instant {
    let now = Instant::now();
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
