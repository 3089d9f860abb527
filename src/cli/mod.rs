//! The subcommands' handlers, one module each beside what it prints; `main.rs` only declares the
//! flags and dispatches. Every handler returns the process's exit code: 0 success, 1 a failed
//! check (mismatch, skipped engine), 2 unusable input (with a message on stderr).

pub mod arena;
pub mod args;
pub mod bench;
pub mod bundle;
pub mod interrupt;
pub mod ladder;
pub mod payoff;
pub mod perft;
pub mod progress;
pub mod protocol;
pub mod replay;
pub mod show;
pub mod verify;

use clap::ValueEnum;
use std::process::ExitCode;
use twinsim_arena::registry;
use twinsim_reference::game::EngineKind;
use twinsim_reference::registry::GameId;

/// `--engine`: which twin(s) a command runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineChoice {
    /// The readable reference engine.
    Reference,
    /// The optimized fast twin.
    Fast,
    /// Both, compared with each other.
    Both,
}

impl EngineChoice {
    /// The engines this choice runs, reference first.
    pub fn kinds(self) -> Vec<EngineKind> {
        match self {
            EngineChoice::Reference => vec![EngineKind::Reference],
            EngineChoice::Fast => vec![EngineKind::Fast],
            EngineChoice::Both => vec![EngineKind::Reference, EngineKind::Fast],
        }
    }
}

/// A game's clock at `scale` for a table: `0.60 s per game` (Zuniq) or `15.0 ms per move`.
pub fn clock(game: &str, scale: f64) -> String {
    let limits = twinsim_arena::time_limits(game);
    match limits.total {
        Some(total) => format!("{:.2} s per game", total.mul_f64(scale).as_secs_f64()),
        None => format!("{:.1} ms per move", limits.later.mul_f64(scale).as_secs_f64() * 1000.0),
    }
}

/// Prints `message` as the tool's error and returns exit code 2 (unusable input).
pub fn usage_error(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("twinsim: {message}");
    ExitCode::from(2)
}

/// Refuses a game name that is not one of the five.
pub fn known_game(game: &str) -> Result<(), ExitCode> {
    if registry::GAMES.contains(&game) {
        Ok(())
    } else {
        Err(usage_error(format!("unknown game {game:?} (known: {})", registry::GAMES.join(", "))))
    }
}

/// Whether `game` draws anything from its seed: Zuniq has no randomness at all (rules §3), so a
/// `--seed` for it is a mistake to point out, not a setting to ignore.
pub fn has_seed(game: &str) -> bool {
    game.parse::<GameId>().map_or(true, |game| game.info().seeded)
}

/// Refuses `--seed` for a game without randomness.
pub fn seed_allowed(game: &str, seed: Option<i64>) -> Result<(), String> {
    match seed {
        Some(seed) if !has_seed(game) => Err(format!(
            "{game} has no randomness (every game starts alike): leave out --seed {seed}"
        )),
        _ => Ok(()),
    }
}

/// The fast twin where it is built, else the reference engine.
pub fn default_engine(game: &str) -> EngineKind {
    if registry::engine(game, EngineKind::Fast).is_some() {
        EngineKind::Fast
    } else {
        EngineKind::Reference
    }
}
